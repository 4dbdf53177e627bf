//! The entries of the DQS-4 kernels: the fixed lane's (`dqs_thumbv7em.rs`, cores with the
//! DSP extension; `dqs_thumbv6m.rs`, ARMv6-M), given a `DualJob`, and the `f32` lane's
//! (`dqs_thumbv7em_f32.rs`, cores with a single-precision FPU and the hard-float ABI),
//! given a `Job`, each made from a validated view as the LBS entries make theirs.

#[cfg(skin_asm_v6m_dqs)]
use super::dqs_thumbv6m as fixed_kernel;
#[cfg(skin_asm_v7em)]
use super::dqs_thumbv7em as fixed_kernel;
use super::job;
#[cfg(skin_asm_fixed_dqs)]
use super::{DualJob, SEED_TABLE};
use crate::dual::Dual;
#[cfg(skin_asm_fixed_dqs)]
use crate::lane::{Out16, Q14, RECIP, RECIP_INTERVALS};
use crate::skin::batch::{Batch, Normals};

/// The reciprocal seeds the fixed kernels read (a static: one address).
#[cfg(skin_asm_fixed_dqs)]
static RECIP_TABLE: [u16; RECIP_INTERVALS] = RECIP;

/// Whether the fixed DQS kernels take a palette of `bones` dual quaternions: at least one,
/// and on ARMv6-M at most 64 (the kernels' table).
#[cfg(skin_asm_fixed_dqs)]
#[inline(always)]
pub(in crate::skin) fn fixed_dqs_takes(bones: usize) -> bool {
    #[cfg(skin_asm_v6m_dqs)]
    if !fixed_kernel::fits(bones) {
        return false;
    }
    bones > 0
}

/// The fixed lane's DQS loop for four influences, in assembly (ARMv7E-M with DSP, or
/// ARMv6-M), for palettes it takes ([`fixed_dqs_takes`]; others take the generic loop):
/// the generic loop's bits (`crate::skin::dqs`).
///
/// The [`Batch`] guarantees what the kernels cannot check cheaply: every bone index of
/// every influence (all four slots, weight 0 or not) is below `palette.len()`.
#[cfg(skin_asm_fixed_dqs)]
#[inline]
pub(in crate::skin) fn fixed_dqs4(
    batch: Batch<'_, Q14, 4, Dual<Q14>>,
    out: &mut [[Out16; 3]],
    normals: Normals<'_, Q14>,
) {
    if !fixed_dqs_takes(batch.parts().0.len()) {
        return crate::skin::dqs::dqs(batch, out, normals);
    }
    let mut job = DualJob {
        job: job(&batch, out, SEED_TABLE.as_ptr()),
        recip: RECIP_TABLE.as_ptr(),
    };
    match normals {
        None => {
            // SAFETY: `job` describes live slices: `count` elements of the influences,
            // positions and `out` (no more than their lengths), the palette, which holds
            // every bone index of those influences (the `Batch` invariant) and that the
            // kernel takes (`fixed_dqs_takes`), the 96-entry `SEED_TABLE` and the 256-entry
            // `RECIP_TABLE`; `out` is borrowed mutably, so it
            // aliases nothing the kernel reads. `out` and the palette are 4-byte aligned
            // (`[Out16; 3]`, `Dual`), the rest at least 2-byte aligned, as the kernels
            // need. The kernel's own contract
            // (registers, stack, unaligned loads) is stated on its declaration.
            unsafe { fixed_kernel::dqs4_positions(&job) }
        }
        Some((normals, out_normals)) => {
            job.job.count = job.job.count.min(normals.len()).min(out_normals.len());
            job.job.normals = normals.as_ptr().cast();
            job.job.out_normals = out_normals.as_mut_ptr().cast();
            // SAFETY: as above, and `count` elements of `normals` and `out_normals`, the
            // latter borrowed mutably (aliasing nothing read).
            unsafe { fixed_kernel::dqs4_normals(&job) }
        }
    }
}

/// The `f32` lane's DQS loop for four influences, in assembly (Cortex-M with a
/// single-precision FPU and the hard-float ABI): the generic loop's bits.
///
/// As for the fixed kernels, the [`Batch`] guarantees that every bone index is below
/// `palette.len()`.
#[cfg(skin_asm_v7em_f32)]
#[inline]
pub(in crate::skin) fn float_dqs4(
    batch: Batch<'_, f32, 4, Dual<f32>>,
    out: &mut [[f32; 3]],
    normals: Normals<'_, f32>,
) {
    let mut job = job(&batch, out, core::ptr::null());
    match normals {
        None => {
            // SAFETY: `job` describes live slices: `count` elements of the influences,
            // positions and `out` (no more than their lengths) and the palette, which holds
            // every bone index of those influences (the `Batch` invariant); `out` is borrowed
            // mutably, so it aliases nothing the kernel reads. Every array is 4-byte aligned
            // (`f32` elements), as the kernel's `VLDM`/`VSTM` need. The kernel's own contract
            // (registers, stack) is stated on its declaration.
            unsafe { super::dqs_thumbv7em_f32::dqs4_positions(&job) }
        }
        Some((normals, out_normals)) => {
            job.count = job.count.min(normals.len()).min(out_normals.len());
            job.normals = normals.as_ptr().cast();
            job.out_normals = out_normals.as_mut_ptr().cast();
            // SAFETY: as above, and `count` elements of `normals` and `out_normals`, the
            // latter borrowed mutably (aliasing nothing read).
            unsafe { super::dqs_thumbv7em_f32::dqs4_normals(&job) }
        }
    }
}
