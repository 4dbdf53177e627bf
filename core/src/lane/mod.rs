//! Lanes: the number formats the skinning loop runs in.
//!
//! A lane is a number format and the arithmetic the skinning loop does in it: the generic
//! loop in `crate::skin` is written once over [`Lane`]'s primitives, and two lanes
//! implement it.
//!
//! | lane | value | stored as | range | resolution |
//! |---|---|---|---|---|
//! | `f32` | positions, normals, matrix entries, weights | `f32` | — | 24-bit mantissa |
//! | [`Q14`] | positions, translations (asset units) | `I2F14` (i16) | [−2, 2) | 2⁻¹⁴ ≈ 6.1·10⁻⁵ |
//! | [`Q14`] | matrix linear entries, normals | `I2F14` (i16) | [−2, 2) | 2⁻¹⁴ |
//! | [`Q14`] | weights | [`Weight15`] = `U1F15` (u16) | [0, 1], sum exactly 1 | 2⁻¹⁵ ≈ 3.1·10⁻⁵ |
//! | [`Q14`] | skinned positions (output) | [`Out16`] = `I16F16` (i32) | [−32768, 32768) | 2⁻¹⁶ |
//!
//! Why 16-bit storage: every product in the fixed kernel is 16 × 16 → 32 bits, one `MULS`
//! on a Cortex-M0 (which has no 32 × 32 → 64 multiply) and one `SMULBB`-class instruction
//! on a Cortex-M4; accumulators are `i32`. The baker divides model coordinates by a power of
//! two (the asset's *unit*) so that bind-pose positions lie in (−1, 1), leaving headroom for
//! animation in [−2, 2).
//!
//! Overflow cannot happen inside the loop: a palette matrix is only accepted
//! ([`Lane::narrow`]) when each row of its linear part has an L1 norm below 2, so
//! `|row · p| < 2·2` and `|row · p + t| < 6`, which fits `i32` with 28 fractional bits.
//! Blended matrices are convex combinations and keep that bound.
//!
//! **Error bound of the fixed lane**, per skinned coordinate, in asset units, for bind
//! positions |p|∞ < 1: each palette entry is rounded to the nearest 2⁻¹⁴ (error ≤ 2⁻¹⁵, so
//! ≤ 2⁻¹⁵·(|x|+|y|+|z|+1) < 4·2⁻¹⁵ on a coordinate); the blend rounds each entry once more
//! (another < 4·2⁻¹⁵); the output rounds to 2⁻¹⁶ (≤ 2⁻¹⁷). In all below 8.25·2⁻¹⁵ ≈
//! 2.5·10⁻⁴ asset units ([`FIXED_ERROR_BOUND`]); the palette's own `I8F24` maths adds below 10⁻⁶. The baker picks the
//! asset unit as the smallest power of two above the largest bind coordinate — measured
//! from the model's centre where that gives a unit at least four times finer (the asset's
//! centre, [`crate::bind::BindPose::with_centre`]: a model far from its origin) — so a model
//! whose bounding box spans at least one unit sees under 1/4000 of its extent. Measured:
//! worst 1.5·10⁻⁴ asset units over 48 000 random vertices of 19–85-bone rigs
//! (`tests/tests/core_props.rs`, ≈ 1/20 000 of the extent); on every clip of the sample
//! models, their ×100/×0.01 armatures, a 67-joint Mixamo-style character (also 5 m from its
//! origin) and 60 skins of 18 joints at most 1.6·10⁻⁴ of the extent, ≈ 1/6000
//! (`tests/tests/fixed_precision.rs`).
//!
//! **Joint scale: the palette exponent.** A rotation's row has an L1 norm up to √3, so the
//! row bound alone admits a joint scale of at most 2/√3 ≈ 1.15 in every orientation, and a
//! matrix 2× a rigid transform never. A palette ([`crate::palette::Palette`]) therefore has
//! an exponent `e` in 0..=2: its matrices are stored as `M·2^−e`, each entry rounded once
//! from the `I8F24` product; the loop runs unchanged on them (the kernels never see `e`),
//! and the skinned positions are shifted left by `e` afterwards ([`widen`], exact).
//! [`Palette::fill`](crate::palette::Palette::fill) picks, each frame, the smallest `e` at
//! which every matrix of the palette (one part's, on the boards) fits; a palette that fits
//! at 0 is filled and skinned to the same bits as without an exponent, at the same speed
//! but for one compare. **Range**: a matrix fits at `e` when every row of its linear part
//! has an L1 norm below `2^(e+1)·(1 − 2⁻¹⁴)` and every translation coordinate lies in
//! `[−2^(e+1), 2^(e+1))`. A joint matrix `R·S·…` with uniform or per-axis scale (largest
//! axis `s`) and any rotation has rows of L1 norm at most `s·√3`, so every `s < 8/√3 ≈ 4.6`
//! fits at `e = 2` — squash and stretch up to 4× in any orientation (the `I8F24` product
//! itself holds entries up to 128). **Bound**: each rounding above is in units of the
//! stored matrix, `2^e` times coarser in asset units, and the shift adds none: per
//! coordinate `2^e·8.25·2⁻¹⁵` ([`fixed_error_bound`]), at most 1.01·10⁻³ asset units at
//! `e = 2`. Normals go through the scaled linear part and are renormalised, so the exponent
//! leaves their direction unchanged. Measured: at most 0.57 of the bound at each exponent
//! over 48 000 vertices of random 8-bone squash-and-stretch palettes (rotations times
//! uniform and per-axis scales up to 4×) against `f64` (`tests/tests/fixed_scale.rs`).
//!
//! **The dual quaternion palette** ([`crate::palette::DualPalette`]) in the fixed lane: each
//! bone's unit dual quaternion `q + ε·d`, both parts `[x, y, z, w]` in `I2F14`: the rotation
//! quaternion's components lie in [−1, 1]; the dual part `d = ½·(0, t)·q` has length
//! `|t|/2`, in asset units, accepted while every component lies within (−2, 2) and `|d| < √3`
//! (`|t| < 2√3`, which a palette translation with every coordinate in (−2, 2) always has).
//! The blend sums `wₖ·eₖ` exactly in `i32` (Q29), then [`Lane::rigid`] rounds the sums to
//! Q15 and forms the transform in 32-bit arithmetic: with `n = |q|²` (Q30) shifted to
//! `N·2³⁰`, `N` in [1, 2), each rotation entry is a quadratic form `P` of `q` (`|P| ≤ n`,
//! exact in `i32`) kept at the scale `N` (`N·P/n` in Q14: the high half of the shifted
//! numerator, truncated), the translation `2·vec(d·q*)/n` (its numerator below 2 in Q30:
//! `|d| < √3`) likewise (`N·t` in Q25). A skinned coordinate is the row's product with the
//! point, truncated to Q25, plus the translation, times the reciprocal `2¹⁶/N` once and
//! rounded to `I16F16`; a normal is renormalised, so it needs no reciprocal. The
//! reciprocal is one seed from a 256-entry table and one Newton step, to 16 bits (within
//! 0.85, a relative error `ρ` below 0.85·2⁻¹⁵). No 64-bit division, and on a core without
//! a 64-bit multiply (Cortex-M0) every product is 32 × 32 → 32 bits.
//!
//! **Error bound of the fixed lane's dual quaternion skinning**, per skinned coordinate, in
//! asset units, for bind positions |p|∞ < 1 and palette translations |t|∞ < 2, as a function
//! of `ν`, the norm of the blended real part (1 for one bone or equal rotations; at least ¼,
//! see `crate::skin`): each palette component rounds by ≤ 2⁻¹⁵ and each blended sum by
//! ≤ 2⁻¹⁶ more, so the blended `q` and `d` are each within `ε = 2·1.5·2⁻¹⁵` (four
//! components) of the exact ones. Normalising divides that by `ν`; a rotation whose unit
//! quaternion moves by `δ` moves a point at distance `|p| < √3` by at most `2δ|p|`:
//! `2√3·ε/ν`. The translation `t = 2·d̂·q̂*` moves by at most `2ε/ν + |t|·ε/ν` with
//! `|t| ≤ max|tₖ|/ν < 2√3/ν`. The reciprocal's error `ρ` scales the rotation (a coordinate
//! of `Rp` by at most `ρ|p| < √3ρ`) and the translation (`ρ|t| < 2√3ρ/ν`): with
//! `ρ < 0.85·2⁻¹⁵`, `(1.5 + 3/ν)·2⁻¹⁵`. Forming the transform truncates each rotation
//! entry of `N·R` by < 2⁻¹⁴, which is < 2⁻¹⁴ of `R` as `N ≥ 1` (< 6·2⁻¹⁵ on a coordinate,
//! |p|₁ < 3); the point's product and the translation are truncated to Q25 (below 2⁻²²
//! together, with the translation numerator's five low bits), and the output rounds by
//! 2⁻¹⁷. In all, with a margin for second-order terms, [`fixed_dual_error_bound`]:
//! `(20/ν + 11/ν² + 8)·2⁻¹⁵`, 1.2·10⁻³ asset units for `ν = 1` (each entry rounded on its
//! own, with the reciprocal applied to each, it was `(20/ν + 11/ν² + 5)·2⁻¹⁵`; the 64-bit
//! division before that had no `ρ`: `(17/ν + 11/ν² + 4)·2⁻¹⁵`). It is worst-case: the rounding errors
//! rarely align. Measured: worst 4.6·10⁻⁴ asset units (26% of the bound) over 25 000
//! vertices of random 48-bone rigs that blend unrelated rotations
//! (`tests/tests/core_dqs.rs`); on every clip of the sample models at most 1.4·10⁻⁴ asset
//! units, 1.6·10⁻⁴ of the extent (CesiumMan; 12% of the bound; `tests/tests/dqs_models.rs`).
//!
//! **Dual quaternion skinning with scale** (Kavan et al., `crate::palette::StretchPalette`)
//! in the fixed lane: each bone's stretch `S` (symmetric: six distinct entries) is stored in
//! `I2F14` as `S·2^−e` and its translation (the dual part) alike, with the palette exponent
//! `e` in 0..=2 chosen as LBS's: the smallest at which every stretch's rows have an L1 norm
//! below 2 (the condition of [`Lane::fits`]) and every dual part fits. The rotation
//! quaternions are not scaled. Per vertex the loop blends the six entries (exact in `i32`,
//! rounded once to Q14), moves the position by the blend (`S̃'p`, rounded to Q14), then by
//! the blended rigid part, and widens the result by `2^e` (exact). **Range**: the blended
//! rows keep L1 < 2, so `|S̃'p|∞ < 2` for |p|∞ < 1: the rigid part meets a point of length
//! below 2√3 (Q28 products below 2³¹ in [`Lane::rigid_point`]). A joint scaled `s` along
//! its largest axis has stretch rows of L1 norm at most `s·√3`: every `s < 8/√3 ≈ 4.6`
//! fits at `e = 2`. **Bound**, per coordinate in asset units, for |p|∞ < 1: each blended
//! stretch entry is within 2·2⁻¹⁵ of the exact blend of the exact stretches (the palette's
//! rounding, then the blend's), so `S̃'p` is within `2·2⁻¹⁵·|p|₁ + 2⁻¹⁵ < 7·2⁻¹⁵` per
//! coordinate (the last its own rounding), and a rotation carries that error vector, of
//! length below `7√3·2⁻¹⁵`, into each coordinate. The rigid part's own error is the bound
//! above with the point's `|p| < √3`, `|p|₁ < 3` replaced by `2√3` and 6 (its rotation
//! terms double: `4√3·ε/ν`, `2√3ρ`, `12·2⁻¹⁵` for forming the rotation):
//! `(30/ν + 11/ν² + 15.5)·2⁻¹⁵`. Together, every rounding in stored units, `2^e` times
//! coarser in asset units ([`fixed_stretch_error_bound`]): `2^e·(30/ν + 11/ν² + 28)·2⁻¹⁵`,
//! 2.1·10⁻³ asset units at `ν = 1`, `e = 0`, and 8.4·10⁻³ at `e = 2`. Normals go through
//! the blended stretch's cofactors, exact in Q28 from the rounded entries, shifted so that
//! the largest component keeps 14 bits (a direction, renormalised after the rotation).

use core::fmt::Debug;

use fixed::types::{I16F16, I2F14, U1F15};

use crate::affine::Affine;
use crate::dual::{Dual, Stretch};
use crate::num::{NumError, Real};

mod fixed_point;
mod fixed_rigid;
mod float;

#[cfg(skin_asm_fixed)]
pub(crate) use crate::num::SEED;
pub use fixed_rigid::FixedRigid;
#[cfg(skin_asm_fixed_dqs)]
pub(crate) use fixed_rigid::{RECIP, RECIP_INTERVALS};

/// Fixed-point lane value: `I2F14`.
pub type Q14 = I2F14;
/// Fixed-point weight: `U1F15`; the weights of one vertex sum to exactly `1.0` (0x8000).
pub type Weight15 = U1F15;
/// Fixed-point skinned position: `I16F16`.
pub type Out16 = I16F16;

/// How far a vertex's weights may sum from 1 and still be accepted. glTF exporters write
/// weights normalised in `f32` or in 8/16-bit integers; 1/256 covers unsigned-byte rounding
/// of four weights. The difference is absorbed by the largest weight
/// (`crate::vertex::Influence`).
pub const WEIGHT_TOLERANCE: f32 = 1.0 / 256.0;

/// The fixed lane's error bound per skinned coordinate, in asset units, for bind positions
/// with |p|∞ < 1: 8.25·2⁻¹⁵ ≈ 2.5·10⁻⁴ (derived in the [module docs](self)).
pub const FIXED_ERROR_BOUND: f64 = 8.25 / 32768.0;

/// [`FIXED_ERROR_BOUND`] for a palette of exponent `exponent` ([`crate::palette::Palette`]):
/// its roundings are `2^exponent` times coarser in asset units (derived in the
/// [module docs](self)).
///
/// ```
/// use skin_core::lane::{fixed_error_bound, FIXED_ERROR_BOUND};
/// assert_eq!(fixed_error_bound(0), FIXED_ERROR_BOUND);
/// assert!(fixed_error_bound(2) < 1.01e-3);
/// ```
pub fn fixed_error_bound(exponent: u8) -> f64 {
    FIXED_ERROR_BOUND * f64::from(1u16 << exponent)
}

/// Positions skinned with a palette of exponent `exponent` back in asset units: each
/// coordinate `· 2^exponent`, exactly ([`Lane::widen`]); nothing to do at 0.
#[inline]
pub fn widen<L: Lane>(out: &mut [[L::Out; 3]], exponent: u8) {
    if exponent > 0 {
        for o in out {
            *o = o.map(|c| L::widen(c, exponent));
        }
    }
}

/// The fixed lane's dual quaternion skinning error bound per skinned coordinate, in asset
/// units, for a vertex whose blended real part has norm `nu` (derived in the
/// [module docs](self)).
///
/// ```
/// use skin_core::lane::fixed_dual_error_bound;
/// assert!(fixed_dual_error_bound(1.0) < 1.2e-3);
/// assert!(fixed_dual_error_bound(0.5) > fixed_dual_error_bound(1.0));
/// ```
pub fn fixed_dual_error_bound(nu: f64) -> f64 {
    (20.0 / nu + 11.0 / (nu * nu) + 8.0) / 32768.0
}

/// The fixed lane's error bound per skinned coordinate, in asset units, of dual quaternion
/// skinning with scale (a stretched palette of exponent `exponent`) for a vertex whose
/// blended real part has norm `nu` (derived in the [module docs](self)).
///
/// ```
/// use skin_core::lane::{fixed_dual_error_bound, fixed_stretch_error_bound};
/// assert!(fixed_stretch_error_bound(1.0, 0) < 2.2e-3);
/// assert!(fixed_stretch_error_bound(1.0, 0) > fixed_dual_error_bound(1.0));
/// assert_eq!(fixed_stretch_error_bound(0.5, 2), 4.0 * fixed_stretch_error_bound(0.5, 0));
/// ```
pub fn fixed_stretch_error_bound(nu: f64, exponent: u8) -> f64 {
    f64::from(1u16 << exponent) * (30.0 / nu + 11.0 / (nu * nu) + 28.0) / 32768.0
}

/// A number format for the skinning loop. See the [module docs](self).
pub trait Lane: Copy + PartialEq + Debug + Default + 'static {
    /// The scalar the palette is computed in (`f32`, or [`Fx`](crate::num::Fx) for fixed point).
    type Real: Real;
    /// A stored skinning weight.
    type Weight: Copy + PartialEq + Debug + Default;
    /// A blend accumulator (and a transformed normal before renormalising).
    type Acc: Copy + Default;
    /// A skinned position.
    type Out: Copy + PartialEq + Debug + Default;
    /// Short name for reports.
    const NAME: &'static str;

    /// Checked conversion from `f32` (positions, normals).
    fn from_f32(v: f32) -> Result<Self, NumError>;
    /// Conversion to `f32`.
    fn to_f32(self) -> f32;
    /// Checked conversion of a weight in [0, 1].
    fn weight_from_f32(w: f32) -> Result<Self::Weight, NumError>;
    /// A weight as `f32`.
    fn weight_to_f32(w: Self::Weight) -> f32;
    /// A skinned position as `f32`.
    fn out_to_f32(o: Self::Out) -> f32;
    /// `1 − Σ w`, the implicit weight of the first bone, or `None` when `Σ w > 1`
    /// (exact in fixed point).
    fn implicit_weight(w: &[Self::Weight]) -> Option<Self::Weight>;

    /// The largest palette exponent this lane takes ([`crate::palette::Palette::fill`]):
    /// 0 for `f32` (every finite matrix fits), 2 for fixed point (joint scale beyond 4×;
    /// see the module docs).
    const MAX_EXPONENT: u8;

    /// Narrow a palette matrix to this lane, or `None` when it does not fit
    /// (see the module docs for the fixed lane's condition).
    #[inline]
    fn narrow(m: &Affine<Self::Real>) -> Option<Affine<Self>> {
        Self::narrow_scaled(m, 0)
    }
    /// Narrow `m · 2^−exponent` to this lane (rounded once, from `m`), or `None` when it
    /// does not fit: a palette entry of a palette with that exponent.
    fn narrow_scaled(m: &Affine<Self::Real>, exponent: u8) -> Option<Affine<Self>>;
    /// `o · 2^exponent`, exactly: a position skinned with a palette of that exponent, back
    /// in asset units.
    fn widen(o: Self::Out, exponent: u8) -> Self::Out;
    /// `o + c`: a position skinned relative to a centre
    /// ([`crate::bind::BindPose::with_centre`]) back where it belongs; exact for a centre
    /// on the output's grid (2⁻¹⁶ in fixed point).
    fn offset(o: Self::Out, c: Self::Real) -> Self::Out;
    /// Whether a matrix already in this lane's format keeps the loop's arithmetic in range
    /// (finite in `f32`; rows of L1 norm below 2 in fixed point). [`Lane::narrow`] only
    /// returns matrices that fit; baked palettes are checked with this.
    fn fits(m: &Affine<Self>) -> bool;

    /// The weight of an influence's first bone, `1 − Σ w` over its stored weights summed
    /// in order (`(w₁ + w₂) + w₃`), for an influence already validated
    /// ([`Lane::implicit_weight`]); the kernels' blend sums its terms in that same order.
    fn lead_weight(w: [Self::Weight; 3]) -> Self::Weight;
    /// `w · e`: the first weighted term of a blended matrix entry.
    fn term(w: Self::Weight, e: Self) -> Self::Acc;
    /// `acc + w · e`: one more weighted term.
    fn weigh(acc: Self::Acc, w: Self::Weight, e: Self) -> Self::Acc;
    /// The blended entry from its sum of terms.
    fn settle(acc: Self::Acc) -> Self;
    /// `r · (p, 1)`: one coordinate of a transformed point.
    fn point(row: &[Self; 4], p: &[Self; 3]) -> Self::Out;
    /// One coordinate of the linear part of a matrix row applied to a normal, before
    /// renormalising.
    fn linear(row: &[Self; 4], n: &[Self; 3]) -> Self::Acc;
    /// `v` renormalised (zero stays zero).
    fn unit(v: [Self::Acc; 3]) -> [Self; 3];
    /// The linear part of `m` applied to `n`, renormalised (zero stays zero).
    #[inline(always)]
    fn normal(m: &Affine<Self>, n: &[Self; 3]) -> [Self; 3] {
        Self::unit(m.rows.map(|r| Self::linear(&r, n)))
    }

    /// A blended dual quaternion made ready to apply ([`Lane::rigid`]): a 3×4 matrix in
    /// `f32`; a Q14 rotation and an `I16F16` translation in fixed point.
    type Rigid: Copy;
    /// Narrow a unit dual quaternion to this lane, or `None` when it does not fit (fixed
    /// point: every component within (−2, 2), and a dual part shorter than √3, a
    /// translation shorter than 2√3).
    #[inline]
    fn narrow_dual(d: &Dual<Self::Real>) -> Option<Dual<Self>> {
        Self::narrow_dual_scaled(d, 0)
    }
    /// [`Lane::narrow_dual`] of `d` with its dual part (its translation) scaled by
    /// `2^−exponent`, rounded once: the rigid part of a stretched palette of that exponent
    /// (`crate::palette::StretchPalette`), whose stretches are scaled alike.
    fn narrow_dual_scaled(d: &Dual<Self::Real>, exponent: u8) -> Option<Dual<Self>>;
    /// Narrow a joint's stretch scaled by `2^−exponent` to this lane (rounded once), or
    /// `None` when it does not fit: every row of L1 norm below 2 in fixed point, as a
    /// palette matrix's linear part ([`Lane::fits`]), so that the stretched position of a
    /// bind position with |p|∞ < 1 stays within the lane's range.
    fn narrow_stretch(s: &Stretch<Self::Real>, exponent: u8) -> Option<Stretch<Self>>;
    /// `s · p`: a position through a vertex's blended stretch, in the lane (fixed point:
    /// rounded to Q14 and held within its range).
    fn stretch_point(s: &Stretch<Self>, p: &[Self; 3]) -> [Self; 3];
    /// A normal through a vertex's blended stretch's inverse transpose, up to a positive
    /// factor (its cofactor matrix, `S` being symmetric with a positive determinant):
    /// [`Lane::rigid_normal`] renormalises. Zero stays zero.
    fn stretch_normal(s: &Stretch<Self>, n: &[Self; 3]) -> [Self; 3];
    /// Whether a dual quaternion already in this lane's format keeps the DQS loop's
    /// arithmetic in range (finite in `f32`; in fixed point a real part of unit length
    /// within 2⁻¹⁰ and a dual part shorter than √3). [`Lane::narrow_dual`] only returns
    /// ones that fit; `crate::skin::SkinnedMesh::skin_dqs` checks a slice's entries with
    /// this on every call (`crate::palette::DualEntries`; a `DualPalette` needs no check).
    fn fits_dual(d: &Dual<Self>) -> bool;
    /// `acc + w · e`, or `acc − w · e` when `flip` (a quaternion from the other hemisphere):
    /// one more term of a blended dual quaternion. The same bits whether the lane negates
    /// the weight or the component.
    fn weigh_flipped(acc: Self::Acc, w: Self::Weight, e: Self, flip: bool) -> Self::Acc;
    /// Whether the quaternions `a` and `b` lie in opposite hemispheres (`a · b < 0`).
    fn antipodal(a: &[Self; 4], b: &[Self; 4]) -> bool;
    /// The rigid transform of a blended dual quaternion, its real and dual parts as sums of
    /// weighted terms ([`Lane::term`], [`Lane::weigh_flipped`]), normalised by the real part's norm.
    /// The real part's norm must be at least ¼ (true of a blend whose first weight is the
    /// largest, every quaternion flipped into the first one's hemisphere).
    fn rigid(real: [Self::Acc; 4], dual: [Self::Acc; 4]) -> Self::Rigid;
    /// A point through a rigid transform.
    fn rigid_point(r: &Self::Rigid, p: &[Self; 3]) -> [Self::Out; 3];
    /// A normal through a rigid transform's rotation, renormalised.
    fn rigid_normal(r: &Self::Rigid, n: &[Self; 3]) -> [Self; 3];

    /// `x`, a value built from this lane, as the lane it is ([`Which`]): how code written
    /// once over `L: Lane` hands its arguments to code written for one lane, such as the
    /// skinning kernels' dispatch (`crate::skin::dispatch`). The lanes are a closed set, `f32`
    /// and [`Q14`]; after inlining the match on the result costs nothing.
    fn which<F: OfLane>(x: F::Of<Self>) -> Which<F>;
}

/// A type built from a lane (e.g. the arguments of a skinning loop), for [`Lane::which`].
pub trait OfLane {
    /// The type for lane `L`.
    type Of<L: Lane>;
}

/// A value of [`OfLane::Of`] for the lane it was made in.
pub enum Which<F: OfLane> {
    /// Made in the `f32` lane.
    F32(F::Of<f32>),
    /// Made in the fixed lane.
    Q14(F::Of<Q14>),
}
