//! The one place that picks the loop a validated view (`skin::batch`) is skinned with:
//! the generic loop over [`Lane`]'s primitives (`skin::generic`), or a specialisation
//! kept because a benchmark showed it pays (`docs/BENCHMARKS.md`), each giving the generic
//! loop's bits:
//!
//! | lane | target (`cfg`, set by `core/build.rs`) | LBS | stitching |
//! |---|---|---|---|
//! | fixed | ARMv7E-M with DSP (`skin_asm_v7em`) or ARMv6-M (`skin_asm_v6m`), 4 influences, palettes the kernel takes | assembly (`skin::asm`) | generic |
//! | `f32` | Cortex-M with FPU, hard-float ABI (`skin_asm_v7em_f32`), 4 influences | assembly | generic |
//! | `f32` | x86 with SSE2 (`skin_x86`) | eight at a time in AVX2 if the processor has it, else four in SSE2 (`super::x86`) | four in SSE2 |
//! | any | elsewhere | generic | generic |
//!
//! Dual quaternion skinning (`skin::dqs`): assembly for four influences in the fixed lane on
//! ARMv7E-M with DSP (`skin_asm_v7em`) and ARMv6-M (`skin_asm_v6m_dqs`, palettes of at most
//! 64) and in `f32` on a Cortex-M with FPU and the
//! hard-float ABI (`skin_asm_v7em_f32`); eight vertices at a time in AVX2 for `f32` on x86
//! where the processor has it (`super::x86`); the generic loop elsewhere.
//!
//! Code written over `L: Lane` reaches the loop for its concrete lane through
//! [`Lane::which`]; [`Loop::lbs`] names the choice (the firmware logs it per part).

use core::marker::PhantomData;

#[cfg(any(skin_asm_fixed, skin_asm_v7em_f32))]
use super::asm;
use super::batch::{Batch, Normals, Rigid};
use super::dqs as dq;
use super::generic;
use super::table::{Table, Words};
#[cfg(skin_x86)]
use super::x86;
use crate::dual::Dual;
use crate::lane::{Lane, OfLane, Out16, Which, Q14};

/// The loop that skins a batch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Loop {
    /// The generic loop over the lane's primitives.
    Generic,
    /// Hand-scheduled Cortex-M assembly (four influences).
    Assembly,
    /// SIMD on x86: eight vertices at a time in AVX2 where the processor has it, else four
    /// in SSE2.
    Simd,
}

impl Loop {
    /// A short name for logs: `generic`, `assembly` or `simd`.
    pub const fn name(self) -> &'static str {
        match self {
            Loop::Generic => "generic",
            Loop::Assembly => "assembly",
            Loop::Simd => "simd",
        }
    }

    /// The loop that skins vertices of `influences` (1 to 4) bones each in lane `L` with a
    /// palette of `bones` matrices.
    ///
    /// ```
    /// use skin_core::skin::Loop;
    /// let k = Loop::lbs::<f32>(4, 32);
    /// if cfg!(target_arch = "x86_64") {
    ///     assert_eq!(k, Loop::Simd);
    /// }
    /// ```
    pub fn lbs<L: Lane>(influences: usize, bones: usize) -> Loop {
        match L::which::<PhantomData<()>>(PhantomData) {
            Which::F32(_) => f32_loop(influences),
            Which::Q14(_) => q14_loop(influences, bones),
        }
    }

    /// The loop that skins vertices of `influences` (1 to 4) bones each with dual
    /// quaternions in lane `L` from a palette of `bones` (`dqs`): assembly for four
    /// influences in the fixed lane on cores with the DSP extension and on ARMv6-M (palettes
    /// of at most 64 there) and in `f32` on cores with an FPU (hard-float ABI), SIMD
    /// for `f32` on x86 (eight at a time in AVX2 where the processor has it, else the
    /// generic loop), the
    /// generic loop elsewhere.
    ///
    /// ```
    /// use skin_core::lane::Q14;
    /// use skin_core::skin::Loop;
    /// assert_eq!(Loop::dqs::<Q14>(2, 8), Loop::Generic);
    /// if cfg!(target_arch = "x86_64") {
    ///     assert_eq!(Loop::dqs::<f32>(4, 8), Loop::Simd);
    /// }
    /// ```
    pub fn dqs<L: Lane>(influences: usize, bones: usize) -> Loop {
        let assembly = match L::which::<PhantomData<()>>(PhantomData) {
            Which::F32(_) if cfg!(skin_x86) => return Loop::Simd,
            Which::F32(_) => cfg!(skin_asm_v7em_f32),
            Which::Q14(_) => q14_dqs_assembly(bones),
        };
        if assembly && influences == 4 {
            Loop::Assembly
        } else {
            Loop::Generic
        }
    }
}

impl OfLane for PhantomData<()> {
    type Of<L: Lane> = PhantomData<L>;
}

/// The arguments of [`lbs`].
type LbsArgs<'a, const K: usize> = PhantomData<(&'a (), [(); K])>;

impl<'a, const K: usize> OfLane for LbsArgs<'a, K> {
    type Of<L: Lane> = (Batch<'a, L, K>, &'a mut [[L::Out; 3]], Normals<'a, L>);
}

/// The arguments of [`dqs`].
struct DqsArgs<'a, const K: usize>(PhantomData<&'a [(); K]>);

impl<'a, const K: usize> OfLane for DqsArgs<'a, K> {
    type Of<L: Lane> = (
        Batch<'a, L, K, Dual<L>>,
        &'a mut [[L::Out; 3]],
        Normals<'a, L>,
    );
}

/// The arguments of [`stitch`].
type StitchArgs<'a> = PhantomData<(&'a (), u8)>;

impl<'a> OfLane for StitchArgs<'a> {
    type Of<L: Lane> = (Rigid<'a, L>, &'a mut [[L::Out; 3]], Normals<'a, L>);
}

/// LBS of `batch` into `out` (and `normals.1`), by the loop [`Loop::lbs`] names.
#[inline(always)]
pub(crate) fn lbs<L: Lane, const K: usize>(
    batch: Batch<'_, L, K>,
    out: &mut [[L::Out; 3]],
    normals: Normals<'_, L>,
) {
    match L::which::<LbsArgs<'_, K>>((batch, out, normals)) {
        Which::F32((batch, out, normals)) => f32_lbs(batch, out, normals),
        Which::Q14((batch, out, normals)) => q14_lbs(batch, out, normals),
    }
}

/// [`lbs`] with `table`, the batch's palette as the fixed lane's ARMv6-M kernel reads it
/// (built from that palette once for many calls; where it is empty, as elsewhere, the
/// kernel copies the palette itself).
#[inline(always)]
pub(crate) fn lbs_tabled<L: Lane, const K: usize, const P: usize>(
    batch: Batch<'_, L, K>,
    table: &Table<P>,
    out: &mut [[L::Out; 3]],
    normals: Normals<'_, L>,
) {
    match L::which::<LbsArgs<'_, K>>((batch, out, normals)) {
        Which::F32((batch, out, normals)) => f32_lbs(batch, out, normals),
        Which::Q14((batch, out, normals)) => q14_lbs_tabled(batch, table.words(), out, normals),
    }
}

/// Stitching of `rigid` into `out` (and `normals.1`).
#[inline(always)]
pub(crate) fn stitch<L: Lane>(
    rigid: Rigid<'_, L>,
    out: &mut [[L::Out; 3]],
    normals: Normals<'_, L>,
) {
    match L::which::<StitchArgs<'_>>((rigid, out, normals)) {
        Which::F32((rigid, out, normals)) => f32_stitch(rigid, out, normals),
        Which::Q14((rigid, out, normals)) => generic::stitch(rigid, out, normals),
    }
}

/// Whether the fixed lane's DQS kernels (where the target has them) take `bones`.
fn q14_dqs_assembly(bones: usize) -> bool {
    #[cfg(skin_asm_fixed_dqs)]
    if asm::fixed_dqs_takes(bones) {
        return true;
    }
    let _ = bones;
    false
}

/// The fixed lane's choice: the assembly kernels for four influences where the target has
/// them and they take the palette (the ARMv6-M kernel copies it into a table of at most 64
/// matrices).
fn q14_loop(influences: usize, bones: usize) -> Loop {
    #[cfg(skin_asm_fixed)]
    if influences == 4 && asm::fixed_takes(bones) {
        return Loop::Assembly;
    }
    let _ = (influences, bones);
    Loop::Generic
}

// `inline`, not `inline(always)`: as the lanes' own loops always were, so that LLVM may keep
// a large loop in a function of its own (the Cortex-M3's generic LBS-4 loop inlined into its
// caller spilled: 313 → 403 instructions a vertex with normals).
#[inline]
fn q14_lbs<const K: usize>(
    batch: Batch<'_, Q14, K>,
    out: &mut [[Out16; 3]],
    normals: Normals<'_, Q14>,
) {
    // Four influences: the assembly entry, which takes the generic loop itself for a palette
    // the kernels do not take (the test of `q14_loop`), so that the generic loop is compiled
    // once.
    #[cfg(skin_asm_fixed)]
    if let Some(four) = batch.four() {
        return asm::fixed_lbs4(four, out, normals);
    }
    generic::lbs(batch, out, normals)
}

/// [`q14_lbs`] over a table of the palette where the ARMv6-M kernel reads one: the kernel's
/// entry that copies nothing (a call of [`q14_lbs`] stays as it was, for callers without
/// a table).
#[inline(always)]
fn q14_lbs_tabled<const K: usize>(
    batch: Batch<'_, Q14, K>,
    table: &[Words],
    out: &mut [[Out16; 3]],
    normals: Normals<'_, Q14>,
) {
    #[cfg(skin_asm_v6m)]
    if let Some(four) = batch.four() {
        return asm::fixed_lbs4_tabled(four, table, out, normals);
    }
    let _ = table;
    q14_lbs(batch, out, normals)
}

/// The `f32` lane's choice: SIMD on x86 (every influence count), assembly for four
/// influences on a Cortex-M with an FPU and the hard-float ABI.
fn f32_loop(influences: usize) -> Loop {
    if cfg!(skin_x86) {
        Loop::Simd
    } else if cfg!(skin_asm_v7em_f32) && influences == 4 {
        Loop::Assembly
    } else {
        Loop::Generic
    }
}

#[inline] // as `q14_lbs`
fn f32_lbs<const K: usize>(
    batch: Batch<'_, f32, K>,
    out: &mut [[f32; 3]],
    normals: Normals<'_, f32>,
) {
    #[cfg(skin_x86)]
    x86::lbs(batch, out, normals);
    #[cfg(not(skin_x86))]
    {
        #[cfg(skin_asm_v7em_f32)]
        if let Some(four) = batch.four() {
            return asm::float_lbs4(four, out, normals);
        }
        generic::lbs(batch, out, normals)
    }
}

#[inline(always)]
fn f32_stitch(rigid: Rigid<'_, f32>, out: &mut [[f32; 3]], normals: Normals<'_, f32>) {
    #[cfg(skin_x86)]
    x86::stitch(rigid, out, normals);
    #[cfg(not(skin_x86))]
    generic::stitch(rigid, out, normals);
}

/// Dual quaternion skinning of a view whose palette holds unit dual quaternions, by the
/// loop [`Loop::dqs`] names.
#[inline]
pub(crate) fn dqs<L: Lane, const K: usize>(
    batch: Batch<'_, L, K, Dual<L>>,
    out: &mut [[L::Out; 3]],
    normals: Normals<'_, L>,
) {
    match L::which::<DqsArgs<'_, K>>((batch, out, normals)) {
        Which::F32((batch, out, normals)) => f32_dqs(batch, out, normals),
        Which::Q14((batch, out, normals)) => q14_dqs(batch, out, normals),
    }
}

/// The `f32` lane's DQS: eight vertices at a time in AVX2 on x86 (where the processor has
/// it), the assembly kernels for four influences on a Cortex-M with an FPU and the
/// hard-float ABI, else the generic loop.
#[inline(always)]
fn f32_dqs<const K: usize>(
    batch: Batch<'_, f32, K, Dual<f32>>,
    out: &mut [[f32; 3]],
    normals: Normals<'_, f32>,
) {
    #[cfg(skin_x86)]
    x86::dqs(batch, out, normals);
    #[cfg(skin_asm_v7em_f32)]
    if let Some(four) = batch.four() {
        return asm::float_dqs4(four, out, normals);
    }
    #[cfg(not(skin_x86))]
    dq::dqs(batch, out, normals)
}

/// The fixed lane's DQS: the assembly kernels for four influences on ARMv7E-M with DSP or
/// ARMv6-M (the entry takes the generic loop itself for a palette the kernels do not take,
/// as for LBS), else the generic loop.
#[inline(always)]
fn q14_dqs<const K: usize>(
    batch: Batch<'_, Q14, K, Dual<Q14>>,
    out: &mut [[Out16; 3]],
    normals: Normals<'_, Q14>,
) {
    #[cfg(skin_asm_fixed_dqs)]
    if let Some(four) = batch.four() {
        return asm::fixed_dqs4(four, out, normals);
    }
    dq::dqs(batch, out, normals)
}
