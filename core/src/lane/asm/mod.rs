//! Hand-scheduled assembly for the four-influence LBS loops on Cortex-M: one of skin-core's
//! two `unsafe` modules (the other is the x86 AVX2 loop, `lane/float/avx2.rs`).
//!
//! **Why assembly.** The loops' arithmetic is simple, but it needs more live values than a
//! Cortex-M has registers, and LLVM's scheduling of the Rust loops spent about a third of
//! their instructions on spills, reloads and single-register loads (it never forms the
//! `VLDM` a float matrix row wants). Measured under QEMU (`docs/BENCHMARKS.md`, instructions
//! per vertex, LBS-4 positions + normals, the synthetic rig; the Rust loops were the paired
//! `SMLA<x><y>` loop on the Cortex-M4F, the biased-palette loop on the Cortex-M0 and the
//! generic loop in `f32`):
//!
//! | kernel | core | Rust loop | assembly | issue's target |
//! |---|---|---:|---:|---:|
//! | fixed (`thumbv7em.rs`) | Cortex-M4F (ARMv7E-M, DSP) | 299.2 | 171.6 | ≤ 200 |
//! | fixed (`thumbv6m.rs`) | Cortex-M0 (ARMv6-M) | 466.3 | 353.1 | ≤ 400 |
//! | `f32` (`thumbv7em_f32.rs`) | Cortex-M4F (FPv4-SP) | 233.3 | 161.6 | ≤ 110 |
//! | `f32`, feature `vmla` | Cortex-M4F (FPv4-SP) | 233.3 | 108.6 | ≤ 110 |
//!
//! **What the kernels compute.** Exactly the generic loop's arithmetic (`crate::skin::lbs`
//! over the lane's primitives), operation for operation: in the fixed lane every blended
//! entry is the exact `i32` sum `Σₖ wₖeₖ` rounded once as [`Lane::settle`], then the integer
//! sequences of [`Lane::point`], [`Lane::linear`] and [`Lane::unit`] (the inverse-square-
//! root seed table, the overflow halving, the zero-length case); in `f32` the same IEEE
//! single-precision multiplies and adds in the same order (no fused or reassociated
//! operation). The output bits are therefore the generic loop's. The firmware benchmark
//! checks that on the device, against the generic loop on adversarial inputs
//! (`check_lane_loop` in `firmware/src/synthetic.rs`), and the host test compares the
//! output checksums with skin-core on the host.
//!
//! **Interface.** Each kernel takes one pointer to a [`Job`]: raw pointers to the palette,
//! the influences, the input and output arrays, and the vertex count. The ARMv6-M kernels
//! are AAPCS functions defined with `global_asm!`; the others are `asm!` blocks in
//! functions, since module assembly does not see the target's DSP and FPU features. Each
//! saves and restores the callee-saved registers, keeps its own frame on the stack, and
//! reads and writes nothing outside the arrays the `Job` describes and that frame. The
//! safe wrappers below make a `Job` only from a [`Batch`] (whose bone indices are checked
//! against its palette) and the output slices.
//!
//! [`Lane::settle`]: crate::lane::Lane::settle
//! [`Lane::point`]: crate::lane::Lane::point
//! [`Lane::linear`]: crate::lane::Lane::linear
//! [`Lane::unit`]: crate::lane::Lane::unit

#![allow(unsafe_code)]

use super::{Out16, Q14};
use crate::affine::Affine;
use crate::skin::{Batch, Normals};
use crate::vertex::Influence;

#[cfg(all(target_feature = "dsp", target_feature = "mclass"))]
mod thumbv7em;
#[cfg(all(target_feature = "dsp", target_feature = "mclass"))]
use thumbv7em as fixed_kernel;

#[cfg(not(target_has_atomic = "32"))]
mod thumbv6m;
#[cfg(not(target_has_atomic = "32"))]
use thumbv6m as fixed_kernel;

#[cfg(all(
    target_feature = "mclass",
    target_feature = "thumb2",
    target_abi = "eabihf"
))]
mod thumbv7em_f32;

/// The inverse-square-root seeds the fixed kernels read (a static: one address).
#[cfg(any(
    all(target_feature = "dsp", target_feature = "mclass"),
    not(target_has_atomic = "32")
))]
static SEED_TABLE: [u16; super::fixed_point::SEED.len()] = super::fixed_point::SEED;

/// The arrays a kernel reads and writes (`repr(C)`: the kernels read its fields by offset),
/// as byte pointers: a palette of `Affine<L>`, `Influence<L>`s, positions and normals
/// `[L; 3]` and output positions `[L::Out; 3]`. `normals` and `out_normals` are null for
/// positions only.
#[repr(C)]
struct Job {
    palette: *const u8,
    influences: *const u8,
    positions: *const u8,
    normals: *const u8,
    out: *mut u8,
    out_normals: *mut u8,
    /// Vertices: every array above holds at least this many elements.
    count: usize,
    /// The matrices in `palette`.
    palette_len: usize,
    /// The fixed kernels' inverse-square-root seed table (`SEED`); null for `f32`.
    seed: *const u16,
}

// The layouts the kernels rely on (byte offsets and strides in the assembly). Each type
// below is an array, a `repr(transparent)` number type, a `repr(C)` struct (`Influence`,
// whose field offsets are asserted in `crate::vertex`), or a one-field struct (`Affine`)
// checked to be exactly its field's size.
const _: () = {
    use core::mem::{align_of, size_of};
    assert!(size_of::<Q14>() == 2 && size_of::<Out16>() == 4);
    assert!(size_of::<crate::lane::Weight15>() == 2);
    assert!(size_of::<Affine<Q14>>() == 24 && size_of::<Affine<f32>>() == 48);
    assert!(align_of::<Affine<f32>>() == 4);
    assert!(size_of::<Influence<Q14>>() == 10 && size_of::<Influence<f32>>() == 16);
    assert!(size_of::<[Q14; 3]>() == 6 && size_of::<[Out16; 3]>() == 12);
    assert!(size_of::<[f32; 3]>() == 12 && align_of::<[f32; 3]>() == 4);
    assert!(align_of::<[Out16; 3]>() == 4 && align_of::<Influence<f32>>() == 4);
    assert!(size_of::<Job>() == 36 && size_of::<usize>() == 4);
};

/// A [`Job`] for a batch: the vertex count is the shortest of the slices (as the generic
/// loop's `zip`), `normals` are filled in by the caller.
fn job<L: super::Lane>(batch: &Batch<'_, L, 4>, out: &mut [[L::Out; 3]], seed: *const u16) -> Job {
    let (palette, positions, influences) = batch.parts();
    Job {
        palette: palette.as_ptr().cast(),
        influences: influences.as_ptr().cast(),
        positions: positions.as_ptr().cast(),
        normals: core::ptr::null(),
        out: out.as_mut_ptr().cast(),
        out_normals: core::ptr::null_mut(),
        count: positions.len().min(influences.len()).min(out.len()),
        palette_len: palette.len(),
        seed,
    }
}

/// The fixed lane's `Lane::lbs` for four influences, in assembly (ARMv7E-M with DSP, or
/// ARMv6-M; palettes beyond the ARMv6-M kernel's table take the generic loop).
///
/// The [`Batch`] guarantees what the kernels cannot check cheaply: every bone index of
/// every influence (all four slots, weight 0 or not) is below `palette.len()` (checked by
/// `SkinnedMesh::skin` before a batch is made, and no other code makes one).
#[cfg(any(
    all(target_feature = "dsp", target_feature = "mclass"),
    not(target_has_atomic = "32")
))]
#[inline]
pub(super) fn fixed_lbs4(
    batch: Batch<'_, Q14, 4>,
    out: &mut [[Out16; 3]],
    normals: Normals<'_, Q14>,
) {
    let palette = batch.parts().0;
    if palette.is_empty() || !fixed_kernel::fits(palette.len()) {
        return crate::skin::lbs(batch, out, normals);
    }
    let mut job = job(&batch, out, SEED_TABLE.as_ptr());
    match normals {
        None => {
            // SAFETY: `job` describes live slices: `count` elements of the influences,
            // positions and `out` (no more than their lengths), `palette_len` matrices (at
            // least one, and within what the kernel takes: `fits`), and the 96-entry
            // `SEED_TABLE`; `out` is borrowed mutably, so it aliases nothing the kernel
            // reads. Every bone index of those influences is below `palette_len` (the
            // `Batch` invariant). `out` is 4-byte aligned (`[Out16; 3]`), the rest at least
            // 2-byte aligned as the kernels need. The kernel's own contract (registers,
            // stack, unaligned loads) is stated on its declaration.
            unsafe { fixed_kernel::lbs4_positions(&job) }
        }
        Some((normals, out_normals)) => {
            job.count = job.count.min(normals.len()).min(out_normals.len());
            job.normals = normals.as_ptr().cast();
            job.out_normals = out_normals.as_mut_ptr().cast();
            // SAFETY: as above, and `count` elements of `normals` and `out_normals`, the
            // latter borrowed mutably (aliasing nothing read).
            unsafe { fixed_kernel::lbs4_normals(&job) }
        }
    }
}

/// [`fixed_lbs4`] for `out.len()` vertices read straight from a baked asset's stored
/// arrays (`positions` and `normals`: `[Q14; 3]` records, `influences`: `Influence<Q14>`
/// records, all little-endian without padding: the very layout the kernels read), so that
/// nothing is copied out of flash first. `false`, having written nothing, when the kernel
/// cannot take them: arrays too short or not 2-byte aligned, a palette the kernel does not
/// take, or a bone index beyond the palette (the caller then copies and skins, which
/// reports the error).
#[cfg(any(
    all(target_feature = "dsp", target_feature = "mclass"),
    not(target_has_atomic = "32")
))]
pub(super) fn fixed_lbs4_stored(
    palette: &[Affine<Q14>],
    positions: &[u8],
    influences: &[u8],
    normals: Option<(&[u8], &mut [[Q14; 3]])>,
    out: &mut [[Out16; 3]],
) -> bool {
    const VECTOR: usize = core::mem::size_of::<[Q14; 3]>();
    const INFLUENCE: usize = core::mem::size_of::<Influence<Q14>>();
    let count = out.len();
    /// The first `count` records of `size` bytes, if there are as many and they are 2-byte
    /// aligned.
    fn records(b: &[u8], count: usize, size: usize) -> Option<&[u8]> {
        b.get(..count * size)
            .filter(|b| b.as_ptr() as usize % 2 == 0)
    }
    let stored = |b, size| records(b, count, size);
    let (Some(positions), Some(influences)) =
        (stored(positions, VECTOR), stored(influences, INFLUENCE))
    else {
        return false;
    };
    let bones = palette.len();
    // The `Batch` invariant, checked here: every bone byte (the first four of a record).
    if bones == 0 || !fixed_kernel::fits(bones) || !bones_below(influences, bones) {
        return false;
    }
    let mut job = Job {
        palette: palette.as_ptr().cast(),
        influences: influences.as_ptr(),
        positions: positions.as_ptr(),
        normals: core::ptr::null(),
        out: out.as_mut_ptr().cast(),
        out_normals: core::ptr::null_mut(),
        count,
        palette_len: bones,
        seed: SEED_TABLE.as_ptr(),
    };
    match normals {
        None => {
            // SAFETY: `job` describes live arrays: `count` influence and position records
            // (the byte slices hold `count` records each, 2-byte aligned, in the layout of
            // `Influence<Q14>` and `[Q14; 3]` on this little-endian target), `count`
            // elements of `out` (4-byte aligned, borrowed mutably: it aliases nothing the
            // kernel reads), `bones` matrices (at least one, within `fits`) that hold every
            // bone byte of those records (checked above), and the `SEED_TABLE`.
            unsafe { fixed_kernel::lbs4_positions(&job) }
        }
        Some((normals, out_normals)) => {
            let Some(normals) = stored(normals, VECTOR) else {
                return false;
            };
            let Some(out_normals) = out_normals.get_mut(..count) else {
                return false;
            };
            job.normals = normals.as_ptr();
            job.out_normals = out_normals.as_mut_ptr().cast();
            // SAFETY: as above, and `count` normal records (2-byte aligned) and `count`
            // elements of `out_normals` (borrowed mutably, aliasing nothing read).
            unsafe { fixed_kernel::lbs4_normals(&job) }
        }
    }
    true
}

/// Whether every bone byte of the 2-byte aligned `Influence<Q14>` records `influences`
/// (the first four bytes of each) is below `bones` (at least 1).
///
/// For up to 128 bones (the Cortex-M0 kernels take 64), four bytes at once: a record's
/// bone bytes are read as two aligned halfwords and tested by
/// [`bone_tops`](super::fixed_point::bone_tops), whose results for all records are gathered
/// with `|` and judged once at the end.
#[cfg(any(
    all(target_feature = "dsp", target_feature = "mclass"),
    not(target_has_atomic = "32")
))]
fn bones_below(influences: &[u8], bones: usize) -> bool {
    const HALVES: usize = core::mem::size_of::<Influence<Q14>>() / 2;
    const TOPS: u32 = super::fixed_point::BONE_TOPS;
    if bones > 128 {
        let in_palette = |r: &[u8]| r[..4].iter().all(|&b| usize::from(b) < bones);
        return influences.chunks_exact(HALVES * 2).all(in_palette);
    }
    // SAFETY: every bit pattern is a valid `u16`; `align_to` only reinterprets the aligned
    // middle of the slice, whose bytes stay borrowed immutably.
    let (head, halves, tail) = unsafe { influences.align_to::<u16>() };
    if !head.is_empty() || !tail.is_empty() {
        return false;
    }
    let tops = halves.chunks_exact(HALVES).fold(0, |tops, r| {
        let b = u32::from(u16::from_le(r[0])) | u32::from(u16::from_le(r[1])) << 16;
        tops | super::fixed_point::bone_tops(b, bones)
    });
    tops & TOPS == 0
}

/// The `f32` lane's `Lane::lbs` for four influences, in assembly (Cortex-M with a
/// single-precision FPU and the hard-float ABI).
///
/// As [`fixed_lbs4`], the [`Batch`] guarantees that every bone index is below
/// `palette.len()`.
#[cfg(all(
    target_feature = "mclass",
    target_feature = "thumb2",
    target_abi = "eabihf"
))]
#[inline]
pub(super) fn float_lbs4(
    batch: Batch<'_, f32, 4>,
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
            unsafe { thumbv7em_f32::lbs4_positions(&job) }
        }
        Some((normals, out_normals)) => {
            job.count = job.count.min(normals.len()).min(out_normals.len());
            job.normals = normals.as_ptr().cast();
            job.out_normals = out_normals.as_mut_ptr().cast();
            // SAFETY: as above, and `count` elements of `normals` and `out_normals`, the
            // latter borrowed mutably (aliasing nothing read).
            unsafe { thumbv7em_f32::lbs4_normals(&job) }
        }
    }
}
