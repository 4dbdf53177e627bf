//! Hand-scheduled assembly for the fixed lane's four-influence LBS loop on Cortex-M: the
//! only `unsafe` code in skin-core.
//!
//! **Why assembly.** The loop's arithmetic is simple, but it needs more live values than
//! the Cortex-M has registers, and LLVM's scheduling of the Rust loops wasted a third of
//! the instructions on spills and reloads. Measured under QEMU (`docs/BENCHMARKS.md`,
//! instructions per vertex, LBS-4 positions + normals; the Rust loops were the paired
//! `SMLA<x><y>` loop on the Cortex-M4F and the biased-palette loop on the Cortex-M0):
//!
//! | core | Rust loop | this module | issue's target |
//! |---|---:|---:|---:|
//! | Cortex-M4F (`thumbv7em`, DSP) | 299.2 | see the benchmarks | ≤ 200 |
//! | Cortex-M0 (`thumbv6m`) | 466.3 | see the benchmarks | ≤ 400 |
//!
//! **What the kernels compute.** Exactly the generic loop's arithmetic (`crate::skin::lbs`
//! over the lane's primitives): every blended entry is the exact `i32` sum `Σₖ wₖeₖ`, rounded
//! once as [`Lane::settle`](crate::lane::Lane::settle); points, linear parts and the
//! renormalisation are [`point`](super::point), [`linear`](super::linear) and
//! [`Lane::unit`](crate::lane::Lane::unit) instruction for instruction (the same integer
//! operations, including the inverse-square-root seed table [`super::SEED`], the overflow
//! halving and the zero-length case). The output bits are therefore the generic loop's; the
//! firmware benchmark checks that on the device against the Rust loop on adversarial inputs
//! and the host test compares checksums (`firmware/src/bench.rs`).
//!
//! **Interface.** Each kernel is an AAPCS function defined with `global_asm!` that takes one
//! pointer to a [`Job`]: raw pointers to the palette, the influences, the input and output
//! arrays, and the vertex count. It saves and restores the callee-saved registers, keeps its
//! own fixed-size frame on the stack, and reads and writes nothing outside the arrays the
//! `Job` describes and that frame.

#![allow(unsafe_code)]

use super::{Out16, Q14, SEED};
use crate::affine::Affine;
use crate::skin::{Batch, Normals};
use crate::vertex::Influence;

#[cfg(target_feature = "dsp")]
mod thumbv7em;
#[cfg(target_feature = "dsp")]
use thumbv7em as kernel;

#[cfg(not(target_feature = "dsp"))]
mod thumbv6m;
#[cfg(not(target_feature = "dsp"))]
use thumbv6m as kernel;

/// The inverse-square-root seeds the kernels read (a static: one address for the table).
static SEED_TABLE: [u16; SEED.len()] = SEED;

/// The arrays a kernel reads and writes (`repr(C)`: the kernels read its fields by offset),
/// as byte pointers to a palette of `Affine<Q14>`, `Influence<Q14>`s, positions and normals
/// `[Q14; 3]` and output positions `[Out16; 3]`. `normals` and `out_normals` are null for
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
    /// `SEED.as_ptr()`, the inverse-square-root seed table.
    seed: *const u16,
}

// The layouts the kernels rely on (byte offsets and strides in the assembly). Each type
// below is an array, a `repr(transparent)` fixed-point number, a `repr(C)` struct, or a
// one-field struct whose field is checked to sit at offset 0 and fill it.
const _: () = {
    use core::mem::{align_of, offset_of, size_of};
    assert!(size_of::<Q14>() == 2 && size_of::<Out16>() == 4);
    assert!(size_of::<crate::lane::Weight15>() == 2);
    assert!(size_of::<Affine<Q14>>() == 24 && offset_of!(Affine<Q14>, rows) == 0);
    assert!(size_of::<Influence<Q14>>() == 10 && align_of::<Influence<Q14>>() == 2);
    // Bones at byte 0, weights from byte 4: asserted in `crate::vertex` (private fields).
    assert!(size_of::<[Q14; 3]>() == 6 && size_of::<[Out16; 3]>() == 12);
    assert!(align_of::<[Out16; 3]>() == 4);
    assert!(size_of::<Job>() == 36 && size_of::<usize>() == 4);
};

/// The fixed lane's `Lane::lbs` for four influences, in assembly.
///
/// The [`Batch`] guarantees what the kernels cannot check cheaply: every bone index of
/// every influence (all four slots, weight 0 or not) is below `palette.len()` (checked by
/// `SkinnedMesh::skin` before a batch is made, and no other code makes one). The lengths
/// are taken as the shortest of the slices, as the generic loop's `zip` does.
#[inline]
pub(super) fn lbs4(batch: Batch<'_, Q14, 4>, out: &mut [[Out16; 3]], normals: Normals<'_, Q14>) {
    let (palette, positions, influences) = batch.parts();
    if palette.is_empty() || !kernel::fits(palette.len()) {
        return crate::skin::lbs(batch, out, normals);
    }
    let count = positions.len().min(influences.len()).min(out.len());
    let mut job = Job {
        palette: palette.as_ptr().cast(),
        influences: influences.as_ptr().cast(),
        positions: positions.as_ptr().cast(),
        normals: core::ptr::null(),
        out: out.as_mut_ptr().cast(),
        out_normals: core::ptr::null_mut(),
        count,
        palette_len: palette.len(),
        seed: SEED_TABLE.as_ptr(),
    };
    match normals {
        None => {
            // SAFETY: `job` describes live slices: `count` elements of `influences`,
            // `positions` and `out` (no more than their lengths), `palette_len` matrices of
            // `palette` (at least one whenever `count > 0`: the batch's bones index it), and
            // the 96-entry `SEED`; `out` is borrowed mutably and aliases nothing else. Every
            // bone index of those influences is below `palette.len()` (the `Batch`
            // invariant). The kernel's own requirements (frame, registers, alignment) are
            // stated in its module, `kernel`.
            unsafe { kernel::lbs4_positions(&job) }
        }
        Some((normals, out_normals)) => {
            job.count = count.min(normals.len()).min(out_normals.len());
            job.normals = normals.as_ptr().cast();
            job.out_normals = out_normals.as_mut_ptr().cast();
            // SAFETY: as above, and `count` elements of `normals` and `out_normals`, the
            // latter borrowed mutably (aliasing nothing else).
            unsafe { kernel::lbs4_normals(&job) }
        }
    }
}
