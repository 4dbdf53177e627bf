//! Hand-scheduled assembly for the four-influence LBS loops on Cortex-M, for the DQS
//! loops on the Cortex-M4F class (`dqs.rs`, `dqs_thumbv7em.rs`, `dqs_thumbv7em_f32.rs`:
//! instructions per vertex with normals, fixed 457.8 → 239.5, `f32` 286.6 → 238.5) and the
//! fixed lane's on ARMv6-M (`dqs_thumbv6m.rs`: 913.6 → 527.9), and the
//! fixed lane's morph loop on the Cortex-M4 (`thumbv7em_morph.rs`): one of skin-core's two
//! `unsafe` modules (the other is the x86 AVX2 loop, `skin/x86/avx2.rs`).
//!
//! **Why assembly.** The loops' arithmetic is simple, but it needs more live values than a
//! Cortex-M has registers, and LLVM's scheduling of the Rust loops spent about a third of
//! their instructions on spills, reloads and single-register loads (it never forms the
//! `VLDM` a float matrix row wants). Measured under QEMU (`docs/BENCHMARKS.md`, instructions
//! per vertex, LBS-4 positions + normals, the synthetic rig; the Rust loops were the paired
//! `SMLA<x><y>` loop on the Cortex-M4F, the biased-palette loop on the Cortex-M0 and the
//! generic loop in `f32`):
//!
//! | kernel | core | Rust loop | assembly | project's target |
//! |---|---|---:|---:|---:|
//! | fixed (`thumbv7em.rs`) | Cortex-M4F (ARMv7E-M, DSP) | 299.2 | 148.7 | ≤ 150 |
//! | fixed (`thumbv6m.rs`) | Cortex-M0 (ARMv6-M) | 466.3 | 298.9 | ≤ 300 |
//! | `f32` (`thumbv7em_f32.rs`) | Cortex-M4F (FPv4-SP) | 233.3 | 161.6 | ≤ 110 |
//! | `f32`, feature `vmla` | Cortex-M4F (FPv4-SP) | 233.3 | 108.6 | ≤ 110 |
//!
//! **What the kernels compute.** Exactly the generic loop's arithmetic (`skin::generic`
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
//! safe wrappers below make a `Job` only from a [`Batch`] (a validated view: every bone
//! index is below its palette's length) and the output slices: the only route into the
//! kernels, taken by the dispatch point (`skin::dispatch`) alone. A baked asset's stored
//! arrays reach them through the same route: [`records`] reads them in place as the lane's
//! types, and the frame player makes a `Batch` of them.
//!
//! **The morph loop** (`thumbv7em_morph.rs`, ARMv7E-M): the scene's deform step moves a
//! chunk's vertices by their records (one per moved vertex, an entry per target moving it)
//! through [`morph_q14`]: a vertex's six coordinates loaded once, each active target's six
//! deltas added by six `SMLAW<y>`, the sums rounded once and stored (its module docs);
//! every record's vertex is checked against the chunk before its coordinates are touched.
//!
//! [`Lane::settle`]: crate::lane::Lane::settle
//! [`Lane::point`]: crate::lane::Lane::point
//! [`Lane::linear`]: crate::lane::Lane::linear
//! [`Lane::unit`]: crate::lane::Lane::unit

#![allow(unsafe_code)]

use super::batch::{Batch, Normals};
use crate::affine::Affine;
use crate::lane::{Lane, Out16, Q14};
use crate::vertex::Influence;

#[cfg(skin_asm_v7em)]
mod thumbv7em;
#[cfg(skin_asm_v7em)]
use thumbv7em as fixed_kernel;

#[cfg(skin_asm_v6m)]
mod thumbv6m;
#[cfg(skin_asm_v6m)]
use thumbv6m as fixed_kernel;

#[cfg(skin_asm_v7em_f32)]
mod thumbv7em_f32;

#[cfg(any(skin_asm_fixed_dqs, skin_asm_v7em_f32))]
mod dqs;
#[cfg(skin_asm_v6m_dqs)]
mod dqs_thumbv6m;
#[cfg(skin_asm_v7em)]
mod dqs_thumbv7em;
#[cfg(skin_asm_v7em_f32)]
mod dqs_thumbv7em_f32;
#[cfg(skin_asm_v7em_f32)]
pub(super) use dqs::float_dqs4;
#[cfg(skin_asm_fixed_dqs)]
pub(super) use dqs::{fixed_dqs4, fixed_dqs_takes};
#[cfg(skin_asm_v7em)]
mod thumbv7em_morph;
#[cfg(skin_asm_v7em)]
pub(crate) use thumbv7em_morph::{morph_q14, MorphTable};

/// The inverse-square-root seeds the fixed kernels read (a static: one address).
#[cfg(all(skin_asm_fixed, not(skin_asm_v6m)))]
static SEED_TABLE: [u16; crate::lane::SEED.len()] = crate::lane::SEED;
/// The seeds on ARMv6-M: those of `thumbv6m::ROOTS`, 64 bytes after its even-shift table.
#[cfg(skin_asm_v6m)]
static SEED_TABLE: &[u16] = thumbv6m::ROOTS.split_at(32).1;

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

/// A [`Job`] over a palette of `Dual<Q14>` (16 bytes each, eight `I2F14`), and the
/// reciprocal table of [`crate::lane::Lane::rigid`] (`repr(C)`: the kernels read it at
/// byte 36).
#[cfg(skin_asm_fixed_dqs)]
#[repr(C)]
struct DualJob {
    /// The arrays and the seed table, as for LBS.
    job: Job,
    /// The reciprocal table (`RECIP`).
    recip: *const u16,
}

#[cfg(skin_asm_fixed_dqs)]
const _: () = {
    use crate::dual::Dual;
    use core::mem::{offset_of, size_of};
    assert!(size_of::<Dual<Q14>>() == 16 && offset_of!(Dual<Q14>, dual) == 8);
    assert!(core::mem::align_of::<Dual<Q14>>() == 4);
    assert!(offset_of!(DualJob, recip) == 36);
};

// The layouts the kernels rely on (byte offsets and strides in the assembly). Each type
// below is an array, a `repr(transparent)` number type, a `repr(C)` struct (`Influence`,
// whose field offsets are asserted in `crate::vertex`), or a one-field struct (`Affine`)
// checked to be exactly its field's size.
const _: () = {
    use core::mem::{align_of, size_of};
    assert!(size_of::<Q14>() == 2 && size_of::<Out16>() == 4);
    assert!(size_of::<crate::lane::Weight15>() == 2);
    assert!(size_of::<Affine<Q14>>() == 24 && size_of::<Affine<f32>>() == 48);
    assert!(align_of::<Affine<Q14>>() == 4 && align_of::<Affine<f32>>() == 4);
    assert!(size_of::<Influence<Q14>>() == 10 && size_of::<Influence<f32>>() == 16);
    assert!(size_of::<[Q14; 3]>() == 6 && size_of::<[Out16; 3]>() == 12);
    assert!(size_of::<[f32; 3]>() == 12 && align_of::<[f32; 3]>() == 4);
    assert!(align_of::<[Out16; 3]>() == 4 && align_of::<Influence<f32>>() == 4);
    assert!(size_of::<Job>() == 36 && size_of::<usize>() == 4);
    assert!(size_of::<super::table::Words>() == 48);
    assert!(align_of::<super::table::Words>() == 4);
};

/// A [`Job`] for a batch (a palette of matrices or of dual quaternions): the vertex count is
/// the shortest of the slices (as the generic loop's `zip`), `normals` are filled in by the
/// caller.
fn job<L: Lane, M>(batch: &Batch<'_, L, 4, M>, out: &mut [[L::Out; 3]], seed: *const u16) -> Job {
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

/// Whether the fixed kernels take a palette of `bones` matrices (at least one; the ARMv6-M
/// kernel's table holds 64).
#[cfg(skin_asm_fixed)]
#[inline(always)]
pub(super) fn fixed_takes(bones: usize) -> bool {
    bones > 0 && fixed_kernel::fits(bones)
}

/// The fixed lane's LBS loop for four influences, in assembly (ARMv7E-M with DSP, or
/// ARMv6-M), for palettes it takes ([`fixed_takes`]; others take the generic loop).
///
/// The [`Batch`] guarantees what the kernels cannot check cheaply: every bone index of
/// every influence (all four slots, weight 0 or not) is below `palette.len()`.
#[cfg(skin_asm_fixed)]
#[inline]
pub(super) fn fixed_lbs4(
    batch: Batch<'_, Q14, 4>,
    out: &mut [[Out16; 3]],
    normals: Normals<'_, Q14>,
) {
    let palette = batch.parts().0;
    if !fixed_takes(palette.len()) {
        return super::generic::lbs(batch, out, normals);
    }
    let mut job = job(&batch, out, SEED_TABLE.as_ptr());
    match normals {
        None => {
            // SAFETY: `job` describes live slices: `count` elements of the influences,
            // positions and `out` (no more than their lengths), `palette_len` matrices (at
            // least one, and within what the kernel takes: `fits`), and the 96-entry
            // `SEED_TABLE`; `out` is borrowed mutably, so it aliases nothing the kernel
            // reads. Every bone index of those influences is below `palette_len` (the
            // `Batch` invariant). `out` and the palette are 4-byte aligned (`[Out16; 3]`,
            // `Affine`), the rest at least 2-byte aligned as the kernels need. The kernel's own contract (registers,
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

/// [`fixed_lbs4`] over `table`, the batch's palette as the ARMv6-M kernel's words (built
/// once for many calls: no copy in the kernel) when it holds the palette's matrices, else
/// [`fixed_lbs4`].
#[cfg(skin_asm_v6m)]
#[inline(always)]
pub(super) fn fixed_lbs4_tabled(
    batch: Batch<'_, Q14, 4>,
    table: &[super::table::Words],
    out: &mut [[Out16; 3]],
    normals: Normals<'_, Q14>,
) {
    let Some(tabled) = batch.with_palette(table).filter(|_| !table.is_empty()) else {
        return fixed_lbs4(batch, out, normals);
    };
    let mut job = job(&tabled, out, SEED_TABLE.as_ptr());
    match normals {
        None => {
            // SAFETY: as in `fixed_lbs4`, with the palette `table`: live words of at least
            // the batch palette's matrices (`with_palette`), so every bone index of the
            // influences is below its length; `Words` are 48 bytes, 4-byte aligned.
            unsafe { thumbv6m::lbs4_positions_tabled(&job) }
        }
        Some((normals, out_normals)) => {
            job.count = job.count.min(normals.len()).min(out_normals.len());
            job.normals = normals.as_ptr().cast();
            job.out_normals = out_normals.as_mut_ptr().cast();
            // SAFETY: as above, and `count` elements of `normals` and `out_normals`, the
            // latter borrowed mutably (aliasing nothing read).
            unsafe { thumbv6m::lbs4_normals_tabled(&job) }
        }
    }
}

/// A baked asset's stored records `bytes` (little-endian, no padding: the layout of `T` on
/// this target) read in place as `T`s, or `None` when they are not aligned for `T` or not a
/// whole number of records: the frame player then copies them. Read straight from flash,
/// the kernels skin an asset's vertices without copying them first.
#[cfg(skin_asm_fixed)]
pub(crate) fn records<T: Record>(bytes: &[u8]) -> Option<&[T]> {
    // SAFETY: `T` is a `Record`: every bit pattern is a valid value and it has no padding, so
    // any aligned run of its size in bytes is one; `align_to` reinterprets only the aligned
    // middle, which stays borrowed immutably for the lifetime of `bytes`.
    let (head, records, tail) = unsafe { bytes.align_to::<T>() };
    (head.is_empty() && tail.is_empty()).then_some(records)
}

/// The stored types [`records`] reads in place: the fixed lane's positions and normals
/// (`[Q14; 3]`, six bytes), influences (`Influence<Q14>`, ten: four bone bytes, then three
/// `U1F15` weights; layouts asserted above and in `crate::vertex`) and the morph section's
/// records (`i16` halves), types of which every bit
/// pattern is a value. The weights' sum is not a bit-pattern property: the asset reader
/// validated it.
#[cfg(skin_asm_fixed)]
pub(crate) trait Record: Sized {}
#[cfg(skin_asm_fixed)]
impl Record for [Q14; 3] {}
#[cfg(skin_asm_fixed)]
impl Record for Influence<Q14> {}
/// The morph section's records, read as 16-bit halves.
#[cfg(skin_asm_fixed)]
impl Record for i16 {}

/// The `f32` lane's LBS loop for four influences, in assembly (Cortex-M with a
/// single-precision FPU and the hard-float ABI).
///
/// As for the fixed kernels, the [`Batch`] guarantees that every bone index is below
/// `palette.len()`.
#[cfg(skin_asm_v7em_f32)]
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
