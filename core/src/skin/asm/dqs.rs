//! The entry of the fixed lane's DQS-4 kernels (`dqs_thumbv7em.rs`, cores with the DSP
//! extension): a [`DualJob`] made from a validated view, as [`super::fixed_lbs4`] makes a
//! `Job`.

use super::{dqs_thumbv7em as kernel, job, Job, SEED_TABLE};
use crate::dual::Dual;
use crate::lane::{Out16, Q14, RECIP, RECIP_INTERVALS};
use crate::skin::batch::{Batch, Normals};

/// The reciprocal seeds the kernels read (a static: one address).
static RECIP_TABLE: [u16; RECIP_INTERVALS] = RECIP;

/// A [`Job`] over a palette of `Dual<Q14>` (16 bytes each, eight `I2F14`), and the
/// reciprocal table of [`crate::lane::Lane::rigid`] (`repr(C)`: the kernels read it at
/// byte 36).
#[repr(C)]
pub(super) struct DualJob {
    job: Job,
    recip: *const u16,
}

const _: () = {
    use core::mem::{offset_of, size_of};
    assert!(size_of::<Dual<Q14>>() == 16 && offset_of!(Dual<Q14>, dual) == 8);
    assert!(offset_of!(DualJob, recip) == 36);
};

/// The fixed lane's DQS loop for four influences, in assembly (ARMv7E-M with DSP): the
/// generic loop's bits (`crate::skin::dqs`).
///
/// The [`Batch`] guarantees what the kernels cannot check cheaply: every bone index of
/// every influence (all four slots, weight 0 or not) is below `palette.len()`.
#[inline]
pub(in crate::skin) fn fixed_dqs4(
    batch: Batch<'_, Q14, 4, Dual<Q14>>,
    out: &mut [[Out16; 3]],
    normals: Normals<'_, Q14>,
) {
    let mut job = DualJob {
        job: job(&batch, out, SEED_TABLE.as_ptr()),
        recip: RECIP_TABLE.as_ptr(),
    };
    match normals {
        None => {
            // SAFETY: `job` describes live slices: `count` elements of the influences,
            // positions and `out` (no more than their lengths), the palette, which holds
            // every bone index of those influences (the `Batch` invariant), the 96-entry
            // `SEED_TABLE` and the 256-entry `RECIP_TABLE`; `out` is borrowed mutably, so it
            // aliases nothing the kernel reads. `out` is 4-byte aligned (`[Out16; 3]`), the
            // rest at least 2-byte aligned as the kernels need. The kernel's own contract
            // (registers, stack, unaligned loads) is stated on its declaration.
            unsafe { kernel::dqs4_positions(&job) }
        }
        Some((normals, out_normals)) => {
            job.job.count = job.job.count.min(normals.len()).min(out_normals.len());
            job.job.normals = normals.as_ptr().cast();
            job.job.out_normals = out_normals.as_mut_ptr().cast();
            // SAFETY: as above, and `count` elements of `normals` and `out_normals`, the
            // latter borrowed mutably (aliasing nothing read).
            unsafe { kernel::dqs4_normals(&job) }
        }
    }
}
