//! Scalars: the one number trait the pose, skeleton and palette maths is written over.
//!
//! Two implementations exist, so fixed point and float run *the same* code:
//!
//! | type | role | range | resolution |
//! |---|---|---|---|
//! | [`f32`] | everything, float builds | ±3.4·10³⁸ | 24-bit mantissa |
//! | [`Fx`] = `I8F24` | poses, bone matrices, palettes in fixed builds | [−128, 128) | 2⁻²⁴ ≈ 6.0·10⁻⁸ |
//!
//! `Fx` is measured in *asset units* (model units divided by a power of two chosen when the
//! asset is baked, so that every bind-pose coordinate is below 1). The skinning kernels then
//! narrow the palette to the compact 16-bit formats in [`crate::lane`].
//!
//! Conversions from `f32` are checked: NaN, infinities and values outside a format's range
//! are a [`NumError`], never a silent wrap.
//!
//! ```
//! use skin_core::num::{Fx, Real, NumError};
//! assert_eq!(Fx::from_f32(0.5).unwrap().to_f32(), 0.5);
//! assert_eq!(Fx::from_f32(200.0), Err(NumError::OutOfRange));
//! assert_eq!(f32::from_f32(f32::NAN), Err(NumError::NotFinite));
//! ```

use core::fmt::Debug;
use core::ops::{Add, Div, Mul, Neg, Sub};

mod arc;

/// The general fixed-point scalar: `I8F24`, range [−128, 128), resolution 2⁻²⁴.
pub type Fx = fixed::types::I8F24;

/// Why a number could not be represented.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum NumError {
    /// NaN or ±∞.
    NotFinite,
    /// Finite, but outside the target format's range.
    OutOfRange,
}

impl core::fmt::Display for NumError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            NumError::NotFinite => f.write_str("value is NaN or infinite"),
            NumError::OutOfRange => f.write_str("value is outside the number format's range"),
        }
    }
}

/// A real-number scalar: `f32` or [`Fx`].
///
/// Arithmetic operators never overflow on data that passed validation (the skeleton and
/// clip readers bound every input); the one operation whose result can grow without bound,
/// the affine product, goes through [`Real::dot3_add`], which is checked.
pub trait Real:
    Copy
    + PartialOrd
    + Debug
    + Default
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Neg<Output = Self>
    + 'static
{
    /// 0.
    const ZERO: Self;
    /// 1.
    const ONE: Self;
    /// ½.
    const HALF: Self;
    /// The smallest determinant or length the maths divides by (`1e-6` in `f32`, 2⁻¹² in
    /// fixed point); anything smaller counts as degenerate.
    const EPSILON: Self;
    /// How far [`Real::unit_dot`] of two 4-vectors of length at most 1 may be from their dot
    /// product, beyond the rounding every product has: 0 in `f32` (its dot product is the
    /// exact one, rounded); for [`Fx`] its bound `(‖a‖₁ + ‖b‖₁)·2⁻¹⁴ + 2⁻²⁶` with each
    /// `‖·‖₁ ≤ 2`, 2⁻¹² + 2⁻²⁶, rounded up to `I8F24`'s grid.
    const UNIT_DOT_ERROR: Self;
    /// The largest magnitude the palette maths lets a matrix entry reach; larger results
    /// are reported as overflow. Half the format's range for fixed point.
    const LIMIT: f32;
    /// A quarter of `√LIMIT` in the format (a constant): the largest coordinate magnitude
    /// the two-bone solver takes, so that squared distances between its points fit.
    const POINT_LIMIT: Self;
    /// A short name for reports: `"f32"` or `"I8F24"`.
    const NAME: &'static str;

    /// Checked conversion from `f32`.
    fn from_f32(v: f32) -> Result<Self, NumError>;
    /// The components of a quaternion `q` that is already of unit length (within 2⁻²⁰ in
    /// its squared length), converted as they are, or `None` (then
    /// [`crate::quat::Quat::from_f32`] normalises in `f32` first). The default is always
    /// `None`: normalising is cheap with a floating-point unit.
    fn unit_quat(q: [f32; 4]) -> Option<[Self; 4]> {
        let _ = q;
        None
    }
    /// Conversion to `f32` (exact for `Fx` up to 24 significant bits).
    fn to_f32(self) -> f32;
    /// Whether the value is finite: always, in fixed point (no conversion to `f32` needed
    /// to tell).
    fn is_finite(self) -> bool;
    /// `self · o`, the same value as `*`. `Fx` forms the product from 16-bit halves on
    /// ARMv6-M, where the `*` of the fixed crate is a call to the 64-bit multiply routine.
    #[inline(always)]
    fn times(self, o: Self) -> Self {
        self * o
    }
    /// `a·b + c·d + e·f + g`, or `None` when the result is not finite or exceeds
    /// [`Real::LIMIT`]. Fixed point computes it exactly in 64 bits and rounds once.
    fn dot3_add(a: [Self; 3], b: [Self; 3], g: Self) -> Option<Self>;
    /// The product of two affine matrices (three rows `[x, y, z, translation]`, the last
    /// row `[0, 0, 0, 1]` implied): each entry [`Real::dot3_add`] of a row and a column,
    /// or `None` when one is. Fixed point gives the same bits with unchecked sums when
    /// every entry is within 64 (world matrices are), without 12 × 4 checked additions.
    #[inline]
    fn affine_product(a: &[[Self; 4]; 3], b: &[[Self; 4]; 3]) -> Option<[[Self; 4]; 3]> {
        checked_affine_product(a, b)
    }
    /// Square root (0 for negative input).
    fn sqrt(self) -> Self;
    /// `1/√self` for `self > 0`, what normalising a vector or quaternion scales by. The
    /// default is `1 / sqrt(self)`.
    #[inline]
    fn recip_sqrt(self) -> Self {
        Self::ONE / self.sqrt()
    }
    /// `√self` where a result within a step or two of the format, rather than the exact
    /// rounding of [`Real::sqrt`], will do (the animation layer's lengths). The default is
    /// [`Real::sqrt`]; [`Fx`] multiplies by its [`Real::recip_sqrt`], without the fixed
    /// crate's bit-by-bit loop.
    #[inline(always)]
    fn fast_sqrt(self) -> Self {
        self.sqrt()
    }
    /// `(√self, 1/√self)` for `self > 0` ([`Real::fast_sqrt`] and [`Real::recip_sqrt`]): a
    /// length and its reciprocal. `f32` divides 1 by its square root (the same bits as the
    /// two); [`Fx`] takes both from one normalisation.
    #[inline(always)]
    fn root_and_recip(self) -> (Self, Self) {
        (self.fast_sqrt(), self.recip_sqrt())
    }
    /// `1/self` for `self > 0`, where a result within a step or two of the format will do.
    /// The default is a division; [`Fx`] squares its [`Real::recip_sqrt`], without the
    /// fixed crate's 64-bit division loop.
    #[inline(always)]
    fn recip(self) -> Self {
        Self::ONE / self
    }
    /// The weights `(wa, wb)` of spherical linear interpolation at `t` in [0, 1] between unit
    /// quaternions whose dot product is `d = cos θ` in [0, 1), up to a common positive
    /// factor (the caller normalises `wa·a + wb·b`): `f32` gives `sin((1 − t)θ)/sin θ` and
    /// `sin(tθ)/sin θ` from `libm`'s `acosf` and `sinf`; [`Fx`] gives `sin((1 − t)θ)/θ` and
    /// `sin(tθ)/θ` from polynomials in products alone (the `arc` module: its bound).
    fn arc_weights(d: Self, t: Self) -> (Self, Self);
    /// `self · o` for `|self| ≤ 2` and `|o| ≤` [`Real::LIMIT`] (a unit quantity's component
    /// times a value): the same value as [`Real::times`]. [`Fx`] forms it from four 16-bit
    /// products whose sums stay within 32 bits (on a Cortex-M0 no 64-bit additions); it is
    /// exact for any `|self| + |o| < 127`.
    #[inline(always)]
    fn times_small(self, o: Self) -> Self {
        self.times(o)
    }
    /// The unit scalar: a weight or a unit quantity's component in [−1, 1], narrowed so that
    /// a product with it is cheap on a core without a 64-bit multiply. `f32` itself; for
    /// [`Fx`], [`Q15`] (one `I8F24` product with it is two 32-bit `MULS` on a Cortex-M0, where
    /// an `I8F24` product takes four and 64-bit sums).
    type Unit: Copy + Debug;
    /// `self` (within [−1, 1]) as a [`Real::Unit`], rounded to nearest: exact in `f32`,
    /// within 2⁻¹⁶ for [`Fx`].
    fn to_unit(self) -> Self::Unit;
    /// `√self` for `self` in [0, 1] (beyond, clamped) as a [`Real::Unit`], where the unit
    /// scalar's precision will do (a sine from its cosine): `f32` its [`Real::fast_sqrt`];
    /// [`Fx`] in `Q15` within 1.002 steps (the seed table and one Newton step, where
    /// [`Real::fast_sqrt`] and the conversion took about 35 instructions more on a
    /// Cortex-M0).
    fn unit_root(self) -> Self::Unit;
    /// `self · u` for `|self| ≤` [`Real::LIMIT`]: in `f32` the same as [`Real::times`]; for
    /// [`Fx`] the exact product rounded down (the same as [`Real::times`] by the unit's value).
    fn times_unit(self, u: Self::Unit) -> Self;
    /// The dot product of two 4-vectors each of length at most 2 where only its sign or a
    /// coarse value is needed (hemisphere tests): in `f32` the dot product itself (the same
    /// bits as [`crate::quat::Quat::dot`]); for [`Fx`] from the components rounded down to 14
    /// fractional bits, one 32-bit product each: within `(‖a‖₁ + ‖b‖₁)·2⁻¹⁴ + 2⁻²⁶` of the
    /// exact value.
    fn unit_dot(a: [Self; 4], b: [Self; 4]) -> Self;
    /// Whether every coordinate of `v` is within `±limit` (NaN never is): a point's range
    /// check. The default compares each; `f32` first compares `|x| + |y| + |z|` once (each
    /// term is at most the rounded sum, and NaN or ∞ fails it) and each only where that
    /// fails, so a point well inside takes one comparison instead of three.
    #[inline(always)]
    fn within(v: [Self; 3], limit: Self) -> bool {
        v.iter().all(|&c| c.abs() <= limit)
    }
    /// `p` converted when every coordinate is finite and within `±limit` (a value of the
    /// format), else `None`: [`Real::from_f32`] and [`Real::within`]. `f32`, where the
    /// conversion is the identity, compares the sum of magnitudes once (as
    /// [`Real::within`]) without a separate finiteness test.
    #[inline(always)]
    fn point_within(p: [f32; 3], limit: Self) -> Option<[Self; 3]> {
        let v = [
            Self::from_f32(p[0]).ok()?,
            Self::from_f32(p[1]).ok()?,
            Self::from_f32(p[2]).ok()?,
        ];
        Self::within(v, limit).then_some(v)
    }
    /// `v` scaled to unit length, or `None` when it has no length to speak of: the default
    /// (and `f32`) takes `v·v` and scales by its [`Real::recip_sqrt`], `None` for a length
    /// below [`Real::EPSILON`]; [`Fx`] normalises in 32-bit integers ([`unit_bits`]), `None`
    /// when every coordinate is below [`Real::EPSILON`].
    #[inline(always)]
    fn unit_vector(v: [Self; 3]) -> Option<[Self; 3]> {
        let len2 = v[0].times_small(v[0]) + v[1].times_small(v[1]) + v[2].times_small(v[2]);
        (len2 >= Self::EPSILON.times(Self::EPSILON)).then(|| {
            let r = len2.recip_sqrt();
            v.map(|c| c.times_small(r))
        })
    }
    /// A lane's own way to turn the unit quaternion `q` (`[x, y, z, w]`) by the shortest arc
    /// from the unit vector `from` (the unit vector `v` rotated by `q`, as
    /// [`Real::rotate_unit`]) to the unit vector `to`, normalised, where it has one:
    /// `Err(from)` to take the general steps (a shortest arc, its product with `q`, a
    /// normalisation), always for `f32`; [`Fx`] in [`Q15`] with 32-bit products from `q`'s
    /// one conversion, `Err` where the vectors are nearly opposite (`1 + from·to` below
    /// 2⁻⁸): each component within 2⁻¹³ of the exact normalised product.
    #[inline(always)]
    fn fast_turn(q: [Self; 4], v: [Self; 3], to: [Self; 3]) -> Result<[Self; 4], [Self; 3]> {
        let _ = to;
        Err(Self::rotate_unit(q, v))
    }
    /// [`Real::fast_turn`] to the unit vector `w` in the frame of the unit quaternion `p`
    /// (`[x, y, z, w]`): to `to`, `w` rotated by `p`'s conjugate (as
    /// [`Real::rotate_unit`]); `Err([from, to])` to take the general steps (always for
    /// `f32`); [`Fx`] in [`Q15`] throughout, the same bits as those two steps.
    #[inline(always)]
    fn fast_turn_in(
        q: [Self; 4],
        v: [Self; 3],
        p: [Self; 4],
        w: [Self; 3],
    ) -> Result<[Self; 4], [[Self; 3]; 2]> {
        let [x, y, z, pw] = p;
        Err([
            Self::rotate_unit(q, v),
            Self::rotate_unit([-x, -y, -z, pw], w),
        ])
    }
    /// The unit vector `v` rotated by the unit quaternion `q` (`[x, y, z, w]`): the default
    /// (and `f32`) is [`rotate`]; [`Fx`] works in [`Q15`] with 32-bit products (each result
    /// within about 2⁻¹³ of the exact rotation).
    #[inline(always)]
    fn rotate_unit(q: [Self; 4], v: [Self; 3]) -> [Self; 3] {
        rotate(q, v)
    }
    /// Absolute value.
    fn abs(self) -> Self {
        if self < Self::ZERO {
            -self
        } else {
            self
        }
    }
    /// The larger of two values.
    fn max(self, other: Self) -> Self {
        if other > self {
            other
        } else {
            self
        }
    }
}

/// `v` rotated by the unit quaternion `q` (`[x, y, z, w]`): `v + 2w(u × v) + 2u × (u × v)`,
/// `u = (x, y, z)`, with `q`'s components as the lane's unit scalar ([`Real::to_unit`]; in
/// fixed point `Q15`, rounded to nearest, so that each of the fifteen products is
/// [`Real::times_unit`]'s two 32-bit multiplies; in `f32` plain products).
#[inline(always)]
pub(crate) fn rotate<R: Real>(q: [R; 4], v: [R; 3]) -> [R; 3] {
    let [x, y, z, w] = q.map(R::to_unit);
    let u = [x, y, z];
    let c = cross_unit(u, v);
    let c = [c[0] + c[0], c[1] + c[1], c[2] + c[2]];
    let d = cross_unit(u, c);
    [
        v[0] + c[0].times_unit(w) + d[0],
        v[1] + c[1].times_unit(w) + d[1],
        v[2] + c[2].times_unit(w) + d[2],
    ]
}

/// `u × v` of a unit-scalar vector `u` and a vector `v`, each product [`Real::times_unit`].
#[inline(always)]
fn cross_unit<R: Real>(u: [R::Unit; 3], v: [R; 3]) -> [R; 3] {
    [
        v[2].times_unit(u[1]) - v[1].times_unit(u[2]),
        v[0].times_unit(u[2]) - v[2].times_unit(u[0]),
        v[1].times_unit(u[0]) - v[0].times_unit(u[1]),
    ]
}

/// The Hamilton product `a·q` (`[x, y, z, w]`), `q`'s components as the lane's unit scalar
/// (each product [`Real::times_unit`]; in `f32` plain products).
#[inline(always)]
pub(crate) fn product<R: Real>(a: [R; 4], q: [R; 4]) -> [R; 4] {
    let [ax, ay, az, aw] = a;
    let [x, y, z, w] = q.map(R::to_unit);
    [
        aw.times_unit(x) + ax.times_unit(w) + ay.times_unit(z) - az.times_unit(y),
        aw.times_unit(y) - ax.times_unit(z) + ay.times_unit(w) + az.times_unit(x),
        aw.times_unit(z) + ax.times_unit(y) - ay.times_unit(x) + az.times_unit(w),
        aw.times_unit(w) - ax.times_unit(x) - ay.times_unit(y) - az.times_unit(z),
    ]
}

/// [`Real::affine_product`] entry by entry with [`Real::dot3_add`].
fn checked_affine_product<R: Real>(a: &[[R; 4]; 3], b: &[[R; 4]; 3]) -> Option<[[R; 4]; 3]> {
    let mut out = [[R::ZERO; 4]; 3];
    for (o, row) in out.iter_mut().zip(a) {
        for (c, entry) in o.iter_mut().enumerate() {
            let add = if c == 3 { row[3] } else { R::ZERO };
            let column = [b[0][c], b[1][c], b[2][c]];
            *entry = R::dot3_add([row[0], row[1], row[2]], column, add)?;
        }
    }
    Some(out)
}

impl Real for f32 {
    const ZERO: Self = 0.0;
    const ONE: Self = 1.0;
    const HALF: Self = 0.5;
    const EPSILON: Self = 1.0e-6;
    const UNIT_DOT_ERROR: Self = 0.0;
    const LIMIT: f32 = 1.0e30;
    const POINT_LIMIT: Self = const_root(Self::LIMIT) / 4.0;
    const NAME: &'static str = "f32";

    fn from_f32(v: f32) -> Result<Self, NumError> {
        if v.is_finite() {
            Ok(v)
        } else {
            Err(NumError::NotFinite)
        }
    }
    fn to_f32(self) -> f32 {
        self
    }
    fn is_finite(self) -> bool {
        f32::is_finite(self)
    }
    #[inline]
    fn dot3_add(a: [Self; 3], b: [Self; 3], g: Self) -> Option<Self> {
        let r = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + g;
        (r.abs() <= Self::LIMIT).then_some(r)
    }
    #[inline]
    fn sqrt(self) -> Self {
        if self <= 0.0 {
            0.0
        } else {
            root(self)
        }
    }
    /// `1 / √x`, each of the two correctly rounded (within one unit in the last place; an
    /// exact root stays exact, so a unit quaternion normalises to itself): on a Cortex-M
    /// FPU a `VSQRT.F32` and a `VDIV.F32`, two instructions (14 cycles each on a
    /// Cortex-M4), where an estimate refined by Newton steps took about 20.
    #[inline]
    fn recip_sqrt(self) -> Self {
        1.0 / root(self)
    }
    /// One square root: `1 / √x` divides by the `√x` it returns (for `x > 0` the same bits
    /// as [`Real::fast_sqrt`] and [`Real::recip_sqrt`]).
    #[inline]
    fn root_and_recip(self) -> (Self, Self) {
        let r = Real::sqrt(self);
        (r, 1.0 / r)
    }
    #[inline(always)]
    fn abs(self) -> Self {
        // One `VABS` (a bit cleared), not a comparison and a negation.
        f32::abs(self)
    }
    type Unit = f32;
    #[inline(always)]
    fn to_unit(self) -> f32 {
        self
    }
    #[inline(always)]
    fn unit_root(self) -> f32 {
        self.fast_sqrt()
    }
    #[inline(always)]
    fn times_unit(self, u: f32) -> f32 {
        self * u
    }
    #[inline(always)]
    fn unit_dot(a: [f32; 4], b: [f32; 4]) -> f32 {
        a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]
    }
    #[inline(always)]
    fn within(v: [f32; 3], limit: f32) -> bool {
        v[0].abs() + v[1].abs() + v[2].abs() <= limit || each_within(v, limit)
    }
    #[inline(always)]
    fn point_within(p: [f32; 3], limit: f32) -> Option<[f32; 3]> {
        Self::within(p, limit).then_some(p)
    }
    fn arc_weights(d: f32, t: f32) -> (f32, f32) {
        let theta = libm::acosf(d.clamp(-1.0, 1.0));
        let inverse = 1.0 / libm::sinf(theta);
        let weight = |x: f32| libm::sinf(x * theta) * inverse;
        (weight(1.0 - t), weight(t))
    }
}

impl Real for Fx {
    const ZERO: Self = Fx::ZERO;
    const ONE: Self = Fx::ONE;
    const HALF: Self = Fx::lit("0.5");
    const EPSILON: Self = Fx::from_bits(1 << 12);
    const UNIT_DOT_ERROR: Self = Fx::from_bits((1 << 12) + 1);
    const LIMIT: f32 = 64.0;
    /// 2 (`√64 / 4`, exact in `f32` and in the format).
    const POINT_LIMIT: Self =
        Fx::from_bits((const_root(Self::LIMIT) / 4.0 * (1 << Fx::FRAC_NBITS) as f32) as i32);
    const NAME: &'static str = "I8F24";

    fn from_f32(v: f32) -> Result<Self, NumError> {
        if !v.is_finite() {
            return Err(NumError::NotFinite);
        }
        fx_bits(v).map(Fx::from_bits).ok_or(NumError::OutOfRange)
    }
    fn unit_quat(q: [f32; 4]) -> Option<[Self; 4]> {
        let b = [
            fx_bits(q[0])?,
            fx_bits(q[1])?,
            fx_bits(q[2])?,
            fx_bits(q[3])?,
        ];
        // The squared length in Q48, each square below 2^62 for components within ±2: the
        // sum of four fits i64 when they are (anything larger is not unit length).
        if b.iter().any(|v| v.unsigned_abs() > 2 << Fx::FRAC_NBITS) {
            return None;
        }
        let len2: i64 = b.iter().map(|&v| wide_mul(v, v)).sum();
        let one = 1i64 << (2 * Fx::FRAC_NBITS);
        ((len2 - one).abs() <= one >> 20).then(|| b.map(Fx::from_bits))
    }
    fn to_f32(self) -> f32 {
        self.to_num()
    }
    fn is_finite(self) -> bool {
        true
    }
    #[inline(always)]
    fn times(self, o: Self) -> Self {
        // The fixed crate's product: the exact one shifted down (rounded towards −∞),
        // wrapping (its `*` checks overflow only with debug assertions; the crate's maths
        // keeps products in range).
        Fx::from_bits((wide_mul(self.to_bits(), o.to_bits()) >> Fx::FRAC_NBITS) as i32)
    }
    fn affine_product(a: &[[Self; 4]; 3], b: &[[Self; 4]; 3]) -> Option<[[Self; 4]; 3]> {
        // Entries within 2^30 (64): each product within 2^60, three and the translation
        // (2^54) and the rounding within 2^62, so no sum overflows; `dot3_add`'s rounding
        // and range check as they are. The test without a branch per entry: `v + 2^30`
        // (wrapping) is not negative exactly for `v` in [−2^30, 2^30), so for all entries
        // exactly when their OR is not (an entry of exactly 2^30 takes the checked product,
        // which gives the same bits).
        let spread = a
            .iter()
            .chain(b)
            .flatten()
            .fold(0, |acc, v| acc | v.to_bits().wrapping_add(1 << 30));
        if spread < 0 {
            return checked_affine_product(a, b);
        }
        // The result's range the same way: an entry `sum >> FRAC_NBITS` is in [−2^30, 2^30)
        // (`LIMIT`) exactly when the sum's high word, `sum >> 32`, is in [−2^22, 2^22), when
        // the high word plus 2^22 is below 2^23 unsigned; a result outside (or at exactly
        // 2^30) is decided by the checked product, which returns the same bits or `None`.
        const _: () = assert!(<Fx as Real>::LIMIT == 64.0 && Fx::FRAC_NBITS == 24);
        let mut high = 0;
        let mut out = [[Fx::ZERO; 4]; 3];
        for (o, row) in out.iter_mut().zip(a) {
            for (c, entry) in o.iter_mut().enumerate() {
                let wide = |k: usize| wide_mul(row[k].to_bits(), b[k][c].to_bits());
                let add = if c == 3 {
                    i64::from(row[3].to_bits()) << Fx::FRAC_NBITS
                } else {
                    0
                };
                let sum = wide(0) + wide(1) + wide(2) + add + (1 << (Fx::FRAC_NBITS - 1));
                high |= ((sum >> 32) as u32).wrapping_add(1 << (Fx::FRAC_NBITS - 2));
                *entry = Fx::from_bits((sum >> Fx::FRAC_NBITS) as i32);
            }
        }
        if high >= 1 << (Fx::FRAC_NBITS - 1) {
            return checked_affine_product(a, b);
        }
        Some(out)
    }
    #[inline]
    fn dot3_add(a: [Self; 3], b: [Self; 3], g: Self) -> Option<Self> {
        // Exact 48-fractional-bit sum, one rounding: more precise than three rounded products.
        // Each product is below 2^62, but three of them can exceed i64: checked sums, and an
        // overflow is a result far beyond LIMIT anyway.
        let wide = |x: Fx, y: Fx| wide_mul(x.to_bits(), y.to_bits());
        let sum = wide(a[0], b[0])
            .checked_add(wide(a[1], b[1]))?
            .checked_add(wide(a[2], b[2]))?
            .checked_add(i64::from(g.to_bits()) << Fx::FRAC_NBITS)?;
        let bits = sum.checked_add(1 << (Fx::FRAC_NBITS - 1))? >> Fx::FRAC_NBITS;
        let limit = (Self::LIMIT as i64) << Fx::FRAC_NBITS;
        (bits.abs() <= limit).then(|| Fx::from_bits(bits as i32))
    }
    fn sqrt(self) -> Self {
        if self <= Fx::ZERO {
            Fx::ZERO
        } else {
            // The fixed crate's own (inherent) square root, correctly rounded down.
            Fx::sqrt(self)
        }
    }
    /// `1/√x` without the fixed crate's division and square root (long loops, 64-bit on a
    /// Cortex-M0): [`inverse_root`]'s `1/√m'` scaled by `2^((s − 8)/2)` and rounded to
    /// nearest: within one step of `I8F24` plus 2⁻²⁶ of the result (tested over two binades
    /// around 1 and across the range). Values too small for the result to fit (below 2⁻¹⁴)
    /// give `I8F24`'s largest. One out-of-line copy (flash on the micro:bit).
    #[inline(never)]
    fn recip_sqrt(self) -> Self {
        match inverse_root(self.to_bits()) {
            Some((y, s, _)) => recip_root_bits(y, s),
            None => Fx::MAX,
        }
    }
    /// `√x = m'·(1/√m')·2^((8 − s)/2)` from [`inverse_root`], rounded to nearest: within
    /// 2⁻²⁶ of the result and one step of `I8F24` (0 for `x ≤ 0`).
    #[inline(never)]
    fn fast_sqrt(self) -> Self {
        match inverse_root(self.to_bits()) {
            Some((y, s, m)) => root_bits(y, s, m),
            None => Fx::ZERO,
        }
    }
    /// [`Real::fast_sqrt`] and [`Real::recip_sqrt`] from one [`inverse_root`]: the same two
    /// values for the cost of one.
    #[inline(never)]
    fn root_and_recip(self) -> (Self, Self) {
        match inverse_root(self.to_bits()) {
            Some((y, s, m)) => (root_bits(y, s, m), recip_root_bits(y, s)),
            None => (Fx::ZERO, Fx::MAX),
        }
    }
    /// `(1/√x)²` (within 2⁻²⁴ of the result plus two steps of `I8F24`) for `x ≥ 2⁻⁶`, where
    /// the reciprocal square root stays below 8 and its square in range; below, a division.
    #[inline]
    fn recip(self) -> Self {
        if self.to_bits() < 1 << 18 {
            Fx::ONE / self
        } else {
            let r = self.recip_sqrt();
            r.times(r)
        }
    }
    /// `sin((1 − t)θ)/θ` and `sin(tθ)/θ`, each within 14 steps of `I8F24` (`arc`).
    fn arc_weights(d: Self, t: Self) -> (Self, Self) {
        arc::weights(d, t)
    }
    fn abs(self) -> Self {
        // −128 has no positive twin in I8F24; saturate rather than overflow.
        self.saturating_abs()
    }
    /// On ARMv6-M [`halves_small`]; elsewhere [`Real::times`] (one 32 × 32 → 64-bit
    /// multiply there).
    #[inline(always)]
    fn times_small(self, o: Self) -> Self {
        #[cfg(skin_v6m)]
        {
            Fx::from_bits(halves_small(self.to_bits(), o.to_bits()))
        }
        #[cfg(not(skin_v6m))]
        {
            self.times(o)
        }
    }
    type Unit = Q15;
    /// `I8F24` bits `b` to Q15: `(b + 2⁸) >> 9`, clamped to [−1, 1].
    #[inline(always)]
    fn to_unit(self) -> Q15 {
        let one = 1 << Q15::FRAC_NBITS;
        Q15(((self.to_bits() + (1 << 8)) >> 9).clamp(-one, one))
    }
    /// [`unit_root_bits`].
    #[inline(always)]
    fn unit_root(self) -> Q15 {
        Q15(unit_root_bits(self.to_bits()))
    }
    /// With `v = h·2¹⁵ + l` (`l` in [0, 2¹⁵)): `⌊v·u/2¹⁵⌋ = h·u + ⌊l·u/2¹⁵⌋` exactly, both
    /// products within 2³⁰ (`|h| ≤ 2¹⁵` for `|v| ≤ 64`, `|u| ≤ 2¹⁵`).
    #[inline(always)]
    fn times_unit(self, u: Q15) -> Self {
        let v = self.to_bits();
        let (h, l) = (v >> Q15::FRAC_NBITS, v & 0x7FFF);
        Fx::from_bits(
            h.wrapping_mul(u.0)
                .wrapping_add((l * u.0) >> Q15::FRAC_NBITS),
        )
    }
    /// `Σ ⌊aᵢ·2¹⁴⌋·⌊bᵢ·2¹⁴⌋` in Q28 (each term within 2³⁰ for lengths up to 2: the sum of four
    /// by Cauchy–Schwarz too), then to `I8F24`.
    #[inline(always)]
    fn unit_dot(a: [Self; 4], b: [Self; 4]) -> Self {
        let q14 = |v: Fx| v.to_bits() >> 10;
        let mut sum = 0i32;
        for (x, y) in a.into_iter().zip(b) {
            sum = sum.wrapping_add(q14(x).wrapping_mul(q14(y)));
        }
        Fx::from_bits(sum >> 4)
    }
    /// `c + limit` within `[0, 2·limit]` as an unsigned number for each coordinate `c`
    /// (bits): exactly `|c| ≤ limit` for a limit below 2³⁰ in bits ([`Real::LIMIT`], 64),
    /// one addition and one comparison each, where `abs` (saturating at −128) and a
    /// comparison took five or more on a Cortex-M0. A larger limit takes the default.
    #[inline(always)]
    fn within(v: [Self; 3], limit: Self) -> bool {
        let l = limit.to_bits();
        if !(0..1 << 30).contains(&l) {
            return v.iter().all(|&c| c.abs() <= limit);
        }
        let span = (2 * l) as u32;
        v.iter().all(|c| c.to_bits().wrapping_add(l) as u32 <= span)
    }
    /// Each coordinate by [`small_fx_bits`] (the conversion of [`Real::from_f32`] for
    /// magnitudes below 128, where the general one also tells overflow and subnormals apart:
    /// about 20 instructions a coordinate on a Cortex-M0 where that takes 55), its magnitude
    /// then compared with the limit's: the same result as [`Real::from_f32`] and
    /// [`Real::within`] for a limit in [0, 128).
    #[inline(always)]
    fn point_within(p: [f32; 3], limit: Self) -> Option<[Self; 3]> {
        let limit = limit.to_bits() as u32;
        let c = |v: f32| {
            let (negative, magnitude) = small_fx_bits(v)?;
            let bits = magnitude as i32;
            (magnitude <= limit).then(|| Fx::from_bits(if negative { -bits } else { bits }))
        };
        Some([c(p[0])?, c(p[1])?, c(p[2])?])
    }
    /// [`unit_bits`]: components on the [`Q15`] grid, within 2⁻¹⁴ of the exact direction's.
    #[inline(never)]
    fn unit_vector(v: [Self; 3]) -> Option<[Self; 3]> {
        unit_bits(v.map(Fx::to_bits)).map(|u| u.map(|c| Fx::from_bits(c << 9)))
    }
    /// [`rotation::turn`]: `Q15`, 32-bit products.
    #[inline(always)]
    fn fast_turn(q: [Self; 4], v: [Self; 3], to: [Self; 3]) -> Result<[Self; 4], [Self; 3]> {
        rotation::turn(q, v, to)
    }
    /// [`rotation::turn_in`]: `Q15`, 32-bit products.
    #[inline(always)]
    fn fast_turn_in(
        q: [Self; 4],
        v: [Self; 3],
        p: [Self; 4],
        w: [Self; 3],
    ) -> Result<[Self; 4], [[Self; 3]; 2]> {
        rotation::turn_in(q, v, p, w)
    }
    /// [`rotation::rotate_unit`]: `Q15`, 32-bit products.
    #[inline(always)]
    fn rotate_unit(q: [Self; 4], v: [Self; 3]) -> [Self; 3] {
        rotation::rotate_unit(q, v)
    }
}

/// Whether each of `v`'s coordinates is within `±limit`, compared one by one (NaN never
/// is): `f32`'s [`Real::within`] where the sum of magnitudes exceeds the limit. Kept out
/// of line: points near the limit are rare.
#[cold]
#[inline(never)]
fn each_within(v: [f32; 3], limit: f32) -> bool {
    v.iter().all(|c| c.abs() <= limit)
}

/// [`Fx`]'s unit scalar ([`Real::Unit`]): a value in [−1, 1] with 15 fractional bits (1 is
/// 2¹⁵, so a weight of 1 is exact), held in an `i32` so that a product with `I8F24` is two
/// 32-bit multiplies.
///
/// ```
/// use skin_core::num::{Fx, Real};
/// let w = Fx::from_f32(0.25).unwrap().to_unit();
/// let v = Fx::from_f32(-3.5).unwrap();
/// assert_eq!(v.times_unit(w), v.times(Fx::from_f32(0.25).unwrap()));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Q15(i32);

impl Q15 {
    /// Fractional bits.
    pub const FRAC_NBITS: u32 = 15;
    /// The value in `f32` (exact).
    pub fn to_f32(self) -> f32 {
        self.0 as f32 / (1 << Self::FRAC_NBITS) as f32
    }
}

mod rotation;
#[cfg(skin_asm_v7em_f32)]
mod vsqrt;

/// `√x` of a positive, finite `x`, correctly rounded: the FPU's `VSQRT.F32` where the build
/// has one and the hard-float ABI, `libm::sqrtf` (the same bits) elsewhere.
#[inline(always)]
fn root(x: f32) -> f32 {
    #[cfg(skin_asm_v7em_f32)]
    {
        vsqrt::sqrt(x)
    }
    #[cfg(not(skin_asm_v7em_f32))]
    {
        libm::sqrtf(x)
    }
}

/// `√x` of a positive, normal `x`, for constants: Newton's steps `y ← (y + x/y) / 2` from
/// the exponent-halving estimate (within a factor of 1.5), each at least halving the error
/// and, once it is small, squaring it: eight steps leave the `f32` rounding (8 exactly for
/// `I8F24`'s limit of 64).
pub(crate) const fn const_root(x: f32) -> f32 {
    let mut y = f32::from_bits((x.to_bits() >> 1) + 0x1fc0_0000);
    let mut step = 0;
    while step < 8 {
        y = 0.5 * (y + x / y);
        step += 1;
    }
    y
}

/// Intervals of the inverse-square-root seed table over [¼, 1) (the fixed lane's unit
/// normals and [`Fx`]'s [`Real::recip_sqrt`]).
pub(crate) const SEED_INTERVALS: usize = 96;

/// `SEED[i] ≈ 2¹⁴ / √xᵢ` (Q14) at the midpoint `xᵢ = (32 + i + ½) / 128` of the i-th
/// interval of width 1/128 in [¼, 1): `round(√(2³⁶ / (65 + 2i)))`, by integer square root.
pub(crate) const SEED: [u16; SEED_INTERVALS] = {
    let mut t = [0u16; SEED_INTERVALS];
    let mut i = 0;
    while i < SEED_INTERVALS {
        // √(2³⁸ / d) = 2·√(2³⁶ / d); halving with rounding.
        let twice = ((1u64 << 38) / (65 + 2 * i as u64)).isqrt();
        t[i] = ((twice + 1) >> 1) as u16;
        i += 1;
    }
    t
};

/// `FINE_SEED[i] ≈ 2¹⁴ / √xᵢ` (Q14) at the midpoint `xᵢ = (128 + i + ½) / 512` of the i-th
/// interval of width 1/512 in [¼, 1): [`SEED`] four times finer, so that the seed is within
/// 2⁻⁹ and one Newton step leaves 2⁻¹⁷ ([`unit_bits`]; 768 bytes of flash).
const FINE_SEED: [u16; 384] = {
    let mut t = [0u16; 384];
    let mut i = 0;
    while i < t.len() {
        // 2¹⁴·√(512 / (128 + i + ½)) = √(2⁴⁰ / (257 + 2i)) / 2, halved with rounding.
        let twice = ((1u64 << 40) / (257 + 2 * i as u64)).isqrt();
        t[i] = ((twice + 1) >> 1) as u16;
        i += 1;
    }
    t
};

/// `(s, x << s)` for the even `s` that puts `x` (non-zero) in [2³⁰, 2³²): one `CLZ` where
/// the core has it; on ARMv6-M (no `CLZ`, where `leading_zeros` is a ~30-instruction
/// library call) a four-step binary search, about 10 instructions for a unit normal's
/// squared length (`docs/BENCHMARKS.md`).
#[inline(always)]
pub(crate) fn normalise_even(x: u32) -> (u32, u32) {
    if cfg!(skin_v6m) {
        let (mut s, mut m) = (0, x);
        for step in [16, 8, 4, 2] {
            if m >> (32 - step) == 0 {
                m <<= step;
                s += step;
            }
        }
        (s, m)
    } else {
        let s = x.leading_zeros() & !1;
        (s, x << s)
    }
}

/// For `I8F24` bits `x > 0`: `(y, s, m)` with `x·2⁻²⁴ = m'·2^(8 − s)`, `m' = m/2³²` in
/// [¼, 1), `s` even ([`normalise_even`]), and `y ≈ 2²⁹/√m'` (Q29), so that
/// `1/√x = y·2⁻²⁹·2^((s − 8)/2)`: the seed table (within 2⁻⁸), one Newton step
/// `y ← y·(3 − m'y²)/2` in Q14 with 32-bit products (within 2⁻¹³, the Q14 rounding), one
/// in Q29 (within 2⁻²⁶) whose products are exact: the Q14 estimate has 16 bits, so `y²` is
/// one 32-bit product and `y·(3 − m'y²)` two ([`Real::times_unit`]'s split), and `m'y²` is
/// [`high_umul`]. `None` for `x ≤ 0`.
#[inline(always)]
fn inverse_root(bits: i32) -> Option<(u32, u32, u32)> {
    if bits <= 0 {
        return None;
    }
    let (s, m) = normalise_even(bits as u32);
    // m' = m / 2^32: its interval of width 1/128 is (m >> 25) − 32.
    let y = u32::from(SEED[(m >> 25) as usize - 32]); // Q14, ≤ 2^15
    let t = ((m >> 16) * ((y * y) >> 14)) >> 16; // m'·y², Q14
    let y = (y * ((3 << 14) - t)) >> 15; // Q14, below 2^15.5
    let yy = (y * y) << 1; // y² in Q29, below 2^32
    let t = high_umul(m, yy); // m'·y², Q29
                              // y·(3 − m'y²)/2 in Q29 from the Q14 y: ⌊y·x/2¹⁵⌋ with x = xh·2¹⁶ + xl.
    let x = (3 << 29) - t;
    let y = ((y * (x >> 16)) << 1) + ((y * (x & 0xFFFF)) >> 15); // Q29
    Some((y, s, m))
}

/// The unit vector of the `I8F24` vector with bits `v`, in `Q15` (2¹⁵ is 1), or `None` when
/// every coordinate is below [`Real::EPSILON`] (2¹² in bits), in 32-bit integers only:
///
/// 1. the vector as a block of integers `c` sharing one exponent: shifted (rounded to
///    nearest) so that its largest magnitude is in [2¹⁴, 2¹⁵] (the rounding moves the
///    direction by at most 2⁻¹⁵);
/// 2. `n = c·c` in [2²⁸, 3·2³⁰] (three 32-bit `MULS`), and `m = n·2ˢ` in [2³⁰, 2³²) with
///    `s` 0 or 2 (one comparison, the block being normalised already);
/// 3. `y ≈ 1/√m'` (`m' = m/2³²` in [¼, 1)) from [`FINE_SEED`] (within 2⁻⁹) and one Newton
///    step `y·(3 − m'y²)/2`, `m'y²` exact by [`high_umul`]: within 2⁻¹⁷, kept in Q15;
/// 4. `cᵢ/√n = cᵢ·y·2^(s/2 − 16)` in `Q15`, rounded to nearest (each product below 2³¹).
///
/// The squares are taken of magnitudes, in `u32` (three of 2³⁰ pass `i32`).
///
/// Each component is within 2⁻¹⁴ of the exact direction's (tested).
///
/// Four components (a quaternion, [`rotation::turn`]) take the same steps: `n` is then
/// below 4·2³⁰ = 2³², still a `u32`, and the same two cases of `s` put it in [2³⁰, 2³²).
fn unit_bits<const N: usize>(v: [i32; N]) -> Option<[i32; N]> {
    let largest = v.iter().fold(0, |m, c| m | c.unsigned_abs());
    if largest < 1 << 12 {
        return None;
    }
    // The exponent that puts the largest magnitude in [2¹⁴, 2¹⁵): 31 − 14 − leading zeros.
    let shift = 17 - leading_zeros(largest) as i32;
    let c = if shift > 0 {
        v.map(|x| ((x >> (shift - 1)) + 1) >> 1)
    } else {
        v.map(|x| x << -shift)
    };
    Some(unit_block(c))
}

/// Steps 2–4 of [`unit_bits`]: the unit vector (`Q15`) of a block `c` whose components are
/// at most 2¹⁵ and whose squared length is in [2²⁶, 2³²) (a largest magnitude in [2¹⁴,
/// 2¹⁵]; or, for [`rotation::turn`], a length from just under 2¹⁴ to 2¹⁵), `s` in {0, 2,
/// 4} putting `m` in [2³⁰, 2³²).
#[inline(always)]
fn unit_block<const N: usize>(c: [i32; N]) -> [i32; N] {
    let square = |x: i32| x.unsigned_abs() * x.unsigned_abs(); // ≤ 2^30
    let n = c.iter().fold(0, |n, &x| n + square(x));
    // n below 2²⁸ only for a block a little shorter than 2¹⁴ (`rotation::turn`'s).
    let s = if n < 1 << 28 {
        4
    } else if n < 1 << 30 {
        2
    } else {
        0
    };
    let m = n << s;
    let y = u32::from(FINE_SEED[(m >> 23) as usize - 128]); // Q14, below 2^15
    let t = high_umul(m, (y * y) << 2); // m'·y², Q30
                                        // y·(3 − m'y²)/2 in Q15, below 2^16 (≤ 2 by Newton's step from below, held one step
                                        // under it so that a product with |cᵢ| ≤ 2^15 stays below 2^31).
    let y = ((y * (((3 << 30) - t) >> 15)) >> 15).min(0xFFFF) as i32;
    let down = 16 - s / 2;
    c.map(|c| (((c * y) >> (down - 1)) + 1) >> 1)
}

/// `√x` of `I8F24` bits `x` in `Q15`, for `x` in [0, 2²⁴] (a value in [0, 1]; more is taken
/// as 1, not more than 0 as 0), within 1.002 steps of `Q15` (every input tested): `x =
/// m'·2^(32 − s)·2⁻²⁴` with `m'` in [¼, 1) and `s` even, at least 6 ([`normalise_even`]),
/// `1/√m'` from [`FINE_SEED`] (within 2⁻⁹) and one Newton step in Q16, `√m' = m'·(1/√m')`
/// in Q16 (in [2¹⁵, 2¹⁶)), and `√x = √m'·2^((8 − s)/2)`: that Q16 value shifted down by
/// `(s − 6)/2`, rounded to nearest.
#[inline(always)]
fn unit_root_bits(x: i32) -> i32 {
    if x <= 0 {
        return 0;
    }
    let (s, m) = normalise_even(x.min(1 << 24) as u32);
    let y = u32::from(FINE_SEED[(m >> 23) as usize - 128]); // Q14, below 2^15
    let t = high_umul(m, (y * y) << 2); // m'·y², Q30
    let y = high_umul_short((3 << 30) - t, y << 3); // y·(3 − m'y²)/2: 1/√m' ≤ 2, Q16
    let z = high_umul_short(m, y); // √m', Q16
    match (s - 6) / 2 {
        0 => z as i32,
        k => (((z >> (k - 1)) + 1) >> 1) as i32,
    }
}

/// The leading zeros of `x` (non-zero): `CLZ` where the core has it; on ARMv6-M (where
/// `leading_zeros` is a library call) a five-step binary search.
#[inline(always)]
fn leading_zeros(x: u32) -> u32 {
    if cfg!(skin_v6m) {
        let (mut n, mut m) = (0, x);
        for step in [16, 8, 4, 2, 1] {
            if m >> (32 - step) == 0 {
                m <<= step;
                n += step;
            }
        }
        n
    } else {
        x.leading_zeros()
    }
}

/// `1/√x` in `I8F24` from [`inverse_root`]'s `y` and `s`: `y·2^(24 − 29 + (s − 8)/2) =
/// y >> (9 − s/2)`, rounded to nearest, `I8F24`'s largest where it does not fit.
#[inline(always)]
fn recip_root_bits(y: u32, s: u32) -> Fx {
    match 9 - s as i32 / 2 {
        shift @ 1.. => Fx::from_bits((((y >> (shift - 1)) + 1) >> 1) as i32),
        0 => Fx::from_bits(y.min(i32::MAX as u32) as i32),
        shift => Fx::from_bits((u64::from(y) << -shift).min(i32::MAX as u64) as i32),
    }
}

/// `√x` in `I8F24` from [`inverse_root`]'s `y`, `s` and `m`: `√m'` in Q29 is `m'·y` (below
/// 2²⁹; `y` below 2³¹, so [`high_umul_short`]), and `√x` in `I8F24` bits is that
/// `>> (1 + s/2)`, rounded to nearest.
#[inline(always)]
fn root_bits(y: u32, s: u32, m: u32) -> Fx {
    let z = high_umul_short(m, y);
    let shift = 1 + s / 2;
    Fx::from_bits((((z >> (shift - 1)) + 1) >> 1) as i32)
}

/// `⌊a·b/2³²⌋` exactly (the high word of the 64-bit product); on ARMv6-M (no 32 × 32 →
/// 64-bit multiply there) from four 16 × 16-bit products with 32-bit sums only.
#[inline(always)]
fn high_umul(a: u32, b: u32) -> u32 {
    #[cfg(skin_v6m)]
    {
        halves_high(a, b)
    }
    #[cfg(not(skin_v6m))]
    {
        ((u64::from(a) * u64::from(b)) >> 32) as u32
    }
}

/// [`high_umul`] for `b < 2³¹`: on ARMv6-M [`halves_high_short`], whose sums LLVM leaves
/// as they are (it recognises [`halves_high`]'s as a 64-bit product and calls the
/// `__aeabi_lmul` routine for it, about 35 instructions where these take 18).
#[inline(always)]
fn high_umul_short(a: u32, b: u32) -> u32 {
    #[cfg(skin_v6m)]
    {
        halves_high_short(a, b)
    }
    #[cfg(not(skin_v6m))]
    {
        high_umul(a, b)
    }
}

/// `⌊a·b/2³²⌋` exactly for `b < 2³¹` from 16-bit halves: `al·bh` is then below 2³¹, so
/// `m = ⌊al·bl/2¹⁶⌋ + al·bh` fits 32 bits, and `⌊(m + ah·bl)/2¹⁶⌋` is taken as
/// `⌊(⌊m/2⌋ + ⌊x/2⌋ + (m & x & 1))/2¹⁵⌋` (`x = ah·bl`: the halves' sum is `⌊(m + x)/2⌋`, which
/// fits 32 bits where `m + x` may not).
#[cfg(any(test, skin_v6m))]
#[inline(always)]
fn halves_high_short(a: u32, b: u32) -> u32 {
    let (ah, al, bh, bl) = (a >> 16, a & 0xFFFF, b >> 16, b & 0xFFFF);
    let m = ((al * bl) >> 16) + al * bh;
    let x = ah * bl;
    let half = (m >> 1) + (x >> 1) + (m & x & 1);
    ah * bh + (half >> 15)
}

/// [`high_umul`] from 16-bit halves: `a·b = ah·bh·2³² + (ah·bl + al·bh)·2¹⁶ + al·bl`, the
/// middle products' low halves and `al·bl`'s high half summed apart (their carry), so that
/// no sum leaves 32 bits.
#[cfg(any(test, skin_v6m))]
#[inline(always)]
fn halves_high(a: u32, b: u32) -> u32 {
    let (ah, al, bh, bl) = (a >> 16, a & 0xFFFF, b >> 16, b & 0xFFFF);
    let (x, y) = (ah * bl, al * bh);
    let carry = ((x & 0xFFFF) + (y & 0xFFFF) + ((al * bl) >> 16)) >> 16;
    ah * bh + (x >> 16) + (y >> 16) + carry
}

/// `⌊a·b/2²⁴⌋` of `I8F24` bits (the fixed crate's product, wrapping) for `|a| + |b| < 127`
/// in value, from 16-bit halves with 32-bit sums: with `a = ah·2¹⁶ + al`, `b = bh·2¹⁶ + bl`
/// (`al`, `bl` in [0, 2¹⁶)), `ah·bh·2⁸ + ⌊(ah·bl + al·bh + ⌊al·bl/2¹⁶⌋)/2⁸⌋` exactly (the terms
/// before the last floor are integers); the inner sum is below `(|ah| + |bh| + 1)·2¹⁶`,
/// within 32 bits while `|ah| + |bh| < 2¹⁵`.
#[cfg(any(test, skin_v6m))]
#[inline(always)]
fn halves_small(a: i32, b: i32) -> i32 {
    let (ah, al, bh, bl) = (a >> 16, a & 0xFFFF, b >> 16, b & 0xFFFF);
    let low = ((al as u32).wrapping_mul(bl as u32) >> 16) as i32;
    let mid = ah
        .wrapping_mul(bl)
        .wrapping_add(al.wrapping_mul(bh))
        .wrapping_add(low);
    ah.wrapping_mul(bh).wrapping_shl(8).wrapping_add(mid >> 8)
}

/// `a · b` exactly. On ARMv6-M (no 32 × 32 → 64-bit multiply; an `i64` product is a
/// library call there) from four 16 × 16-bit products, each of which fits 32 bits.
#[inline(always)]
fn wide_mul(a: i32, b: i32) -> i64 {
    #[cfg(skin_v6m)]
    {
        halves_mul(a, b)
    }
    #[cfg(not(skin_v6m))]
    {
        i64::from(a) * i64::from(b)
    }
}

/// [`wide_mul`] from 16-bit halves: `a = ah·2^16 + al`, `b = bh·2^16 + bl` with `al`, `bl`
/// in `[0, 2^16)`.
#[cfg(any(test, skin_v6m))]
#[inline(always)]
fn halves_mul(a: i32, b: i32) -> i64 {
    let (ah, al) = (a >> 16, (a & 0xFFFF) as u32);
    let (bh, bl) = (b >> 16, (b & 0xFFFF) as u32);
    // |al·bh|, |ah·bl| < 2^31; |ah·bh| ≤ 2^30; al·bl < 2^32.
    let mid = i64::from(al as i32 * bh) + i64::from(ah * bl as i32);
    (i64::from(ah * bh) << 32) + (mid << 16) + i64::from(al * bl)
}

/// `v`'s sign and its magnitude in `I8F24` bits, rounded to nearest with ties to even (as
/// [`fx_bits`]), for `|v|` below 128; `None` for anything else (NaN and ∞ included). With
/// `|v| = m·2^(e − 150)` (`m` with its leading bit; a subnormal's `e` of 0 gives a value that
/// rounds to 0 either way), the bits are `m·2^(e − 126)`: a left shift by at most 7 (below
/// 2³¹), or a right shift by `s = 126 − e`, at most 25 (`m < 2²⁴`: any larger shift rounds
/// to 0 as well), rounded as `⌊(m + 2^(s−1) − 1 + q₀)/2ˢ⌋` with `q₀` the truncated
/// quotient's last bit (a tie goes up exactly when `q₀` is odd).
#[inline(always)]
fn small_fx_bits(v: f32) -> Option<(bool, u32)> {
    let bits = v.to_bits();
    let magnitude = bits & 0x7FFF_FFFF;
    if magnitude >= 0x4300_0000 {
        return None; // 128, beyond, ∞ and NaN
    }
    let e = magnitude >> 23;
    let m = (magnitude & 0x7F_FFFF) | 0x80_0000;
    let q = if e >= 126 {
        m << (e - 126)
    } else {
        let s = (126 - e).min(25);
        (m + (1 << (s - 1)) - 1 + ((m >> s) & 1)) >> s
    };
    Some((bits >> 31 != 0, q))
}

/// `v` in `I8F24` bits, rounded to nearest with ties to even (as the `fixed` crate's
/// conversion), or `None` when out of range or not finite: from the float's bits, without
/// the generic conversion's work (the fixed lane converts every key it samples).
fn fx_bits(v: f32) -> Option<i32> {
    let bits = v.to_bits();
    let exponent = ((bits >> 23) & 0xFF) as i32;
    if exponent == 0xFF {
        return None;
    }
    // |v| = m · 2^(e − 150) (normal) or m · 2^−149 (subnormal); in Q24, m · 2^shift.
    let fraction = bits & 0x7F_FFFF;
    let (m, shift) = match exponent {
        0 => (fraction, -125),
        e => (fraction | 0x80_0000, e - 126),
    };
    // In 32 bits (no 64-bit shifts, a library call on a Cortex-M0): m < 2^24 shifted left by
    // at most 8 is below 2^32, and a right shift leaves at most 2^24.
    let magnitude = if shift >= 0 {
        // Beyond 2^32 when shifted by more than 8 (2^31 is −128's magnitude).
        if shift > 8 {
            return None;
        }
        m << shift
    } else {
        let right = (-shift).min(26) as u32;
        let (q, rest) = (m >> right, m & ((1 << right) - 1));
        let half = 1 << (right - 1);
        q + u32::from(rest > half || (rest == half && q & 1 == 1))
    };
    if bits >> 31 == 0 {
        i32::try_from(magnitude).ok()
    } else {
        (magnitude <= 1 << 31).then(|| (magnitude as i32).wrapping_neg())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// The unchecked fixed-point product equals the checked one entry by entry,
        /// `None` included, with entries small (≤ 64), near the bound and beyond it.
        #[test]
        fn affine_products_equal_checked_ones(
            a in proptest::array::uniform3(proptest::array::uniform4(prop_oneof![
                4 => -(1i32 << 25)..=1 << 25,
                1 => -(1i32 << 30)..=1 << 30,
                1 => (1i32 << 30) - 8..=(1 << 30) + 8,
                1 => any::<i32>(),
            ])),
            b in proptest::array::uniform3(proptest::array::uniform4(prop_oneof![
                4 => -(1i32 << 25)..=1 << 25,
                1 => -(1i32 << 30)..=1 << 30,
            ])),
        ) {
            let (a, b) = (a.map(|r| r.map(Fx::from_bits)), b.map(|r| r.map(Fx::from_bits)));
            prop_assert_eq!(Fx::affine_product(&a, &b), checked_affine_product(&a, &b));
            prop_assert_eq!(Fx::affine_product(&b, &a), checked_affine_product(&b, &a));
        }

        #[test]
        fn halves_multiply_exactly(a: i32, b: i32) {
            prop_assert_eq!(halves_mul(a, b), i64::from(a) * i64::from(b));
            prop_assert_eq!(wide_mul(a, b), i64::from(a) * i64::from(b));
        }

        #[test]
        fn fast_conversion_is_the_fixed_crates(bits: u32) {
            let v = f32::from_bits(bits);
            let want = if v.is_finite() { Fx::checked_from_num(v).map(Fx::to_bits) } else { None };
            prop_assert_eq!(fx_bits(v), want, "{}", v);
        }

        #[test]
        fn small_conversion_is_the_general_one(bits: u32) {
            let v = f32::from_bits(bits);
            let want = fx_bits(v).filter(|_| v.abs() < 128.0);
            let got = small_fx_bits(v).map(|(n, m)| if n { (m as i32).wrapping_neg() } else { m as i32 });
            prop_assert_eq!(got, want, "{}", v);
        }

        #[test]
        fn small_conversion_near_steps(v in -3.0f32..3.0, k in 0u32..8) {
            // Values with few bits below 2⁻²⁴ (ties among them) and every exponent below 2.
            let v = f32::from_bits(v.to_bits() & !((1 << (4 * k)) - 1)) / (1u32 << (3 * k)) as f32;
            let got = small_fx_bits(v).map(|(n, m)| if n { (m as i32).wrapping_neg() } else { m as i32 });
            prop_assert_eq!(got, fx_bits(v), "{}", v);
        }

        #[test]
        fn points_convert_as_each_coordinate(
            p in proptest::array::uniform3(prop_oneof![-3.0f32..3.0, -200.0f32..200.0, Just(f32::NAN)]),
            limit in 0.0f32..100.0,
        ) {
            let limit = Fx::from_f32(limit).unwrap();
            let each = p.map(|v| Fx::from_f32(v).ok());
            let want = each
                .iter()
                .all(|c| matches!(c, Some(c) if c.abs() <= limit))
                .then(|| each.map(Option::unwrap));
            prop_assert_eq!(<Fx as Real>::point_within(p, limit), want);
        }

        #[test]
        fn fast_conversion_near_the_range(v in -130.0f32..130.0) {
            prop_assert_eq!(fx_bits(v), Fx::checked_from_num(v).map(Fx::to_bits), "{}", v);
        }

        /// Unit quaternions convert as they are: within half a step of `I8F24` plus their
        /// distance from unit length (|len² − 1| / 2) of the exactly normalised quaternion.
        #[test]
        fn unit_quaternions_skip_normalising(q in proptest::array::uniform4(-1.0f32..1.0)) {
            let len = libm::sqrtf(q.iter().map(|v| v * v).sum());
            prop_assume!(len > 0.1);
            let unit = q.map(|v| v / len);
            let fast = Fx::unit_quat(unit);
            prop_assert!(fast.is_some(), "{:?}", unit);
            let len2: f64 = unit.iter().map(|&v| f64::from(v) * f64::from(v)).sum();
            let step = f64::from(1u32 << Fx::FRAC_NBITS);
            let bound = 0.5 + (len2 - 1.0).abs() / 2.0 * step + 1e-6;
            for (f, u) in fast.unwrap().iter().zip(unit) {
                let exact = f64::from(u) / len2.sqrt() * step;
                prop_assert!((f64::from(f.to_bits()) - exact).abs() <= bound, "{:?}", unit);
            }
            prop_assert!(Fx::unit_quat(q.map(|v| v * 1.01)).is_none() || (len - 1.0 / 1.01).abs() < 1e-6);
        }
    }

    proptest! {
        #[test]
        fn times_is_the_fixed_crates_product(a: i32, b: i32) {
            let (a, b) = (Fx::from_bits(a), Fx::from_bits(b));
            if let Some(want) = a.checked_mul(b) {
                prop_assert_eq!(Real::times(a, b), want);
            }
        }

        #[test]
        fn times_of_small_values(a in -0x0400_0000i32..0x0400_0000, b in -0x0400_0000i32..0x0400_0000) {
            let (a, b) = (Fx::from_bits(a), Fx::from_bits(b));
            prop_assert_eq!(Real::times(a, b), a * b);
        }
    }

    #[test]
    fn halves_at_the_extremes() {
        for a in [i32::MIN, i32::MAX, -1, 0, 0xFFFF, -0x10000] {
            for b in [i32::MIN, i32::MAX, -1, 0, 0xFFFF, -0x10000] {
                assert_eq!(halves_mul(a, b), i64::from(a) * i64::from(b), "{a} · {b}");
            }
        }
        for a in [u32::MAX, 0, 0xFFFF, 0x1_0000, 0xFFFF_0001] {
            for b in [i32::MAX as u32, 0, 0xFFFF, 0x7FFF_0000, 0x7FFF_FFFE] {
                let high = ((u64::from(a) * u64::from(b)) >> 32) as u32;
                assert_eq!(halves_high_short(a, b), high, "{a} · {b}");
            }
        }
    }

    #[test]
    fn fast_conversion_edges() {
        for v in [
            0.0f32,
            -0.0,
            1.0,
            -1.0,
            127.99999,
            -128.0,
            128.0,
            -128.00002,
            0.5 / 16777216.0,
            1.5 / 16777216.0,
            2.5 / 16777216.0,
            -1.5 / 16777216.0,
            f32::MIN_POSITIVE,
            1e-45,
            f32::MAX,
            f32::NAN,
        ] {
            let want = if v.is_finite() {
                Fx::checked_from_num(v).map(Fx::to_bits)
            } else {
                None
            };
            assert_eq!(fx_bits(v), want, "{v}");
        }
    }

    #[test]
    fn fx_conversions_are_checked() {
        assert_eq!(Fx::from_f32(127.0).unwrap().to_f32(), 127.0);
        assert_eq!(Fx::from_f32(128.0), Err(NumError::OutOfRange));
        assert_eq!(Fx::from_f32(-128.5), Err(NumError::OutOfRange));
        assert_eq!(Fx::from_f32(f32::INFINITY), Err(NumError::NotFinite));
        assert_eq!(f32::from_f32(f32::NEG_INFINITY), Err(NumError::NotFinite));
    }

    #[test]
    fn fx_dot3_add_is_exact_and_checked() {
        let f = |v: f32| Fx::from_f32(v).unwrap();
        let r = Fx::dot3_add([f(0.5), f(2.0), f(-1.0)], [f(4.0), f(0.25), f(3.0)], f(1.0));
        assert_eq!(r, Some(f(0.5)));
        assert_eq!(Fx::dot3_add([f(60.0); 3], [f(2.0); 3], f(0.0)), None);
        // Products near 2^62 whose sum leaves i64: None, not an overflow panic.
        assert_eq!(Fx::dot3_add([Fx::MIN; 3], [Fx::MIN; 3], Fx::MAX), None);
    }

    #[test]
    fn f32_recip_sqrt_is_within_one_unit_in_the_last_place() {
        // Every exponent from 2^-40 to 2^40, each with mantissas across the binade.
        for e in -40..40 {
            for m in 0..256 {
                let x = libm::ldexpf(1.0 + m as f32 / 256.0, e);
                let want = 1.0 / f64::from(x).sqrt();
                let got = f64::from(Real::recip_sqrt(x));
                assert!(
                    ((got - want) / want).abs() < 1.2e-7,
                    "1/sqrt({x}) = {got}, not {want}"
                );
            }
        }
        // Exact roots stay exact: a unit quaternion normalises to itself.
        for (x, r) in [(1.0f32, 1.0f32), (4.0, 0.5), (0.25, 2.0), (64.0, 0.125)] {
            assert_eq!(Real::recip_sqrt(x), r);
        }
    }

    /// Within one step of `I8F24` plus 2⁻²⁶ of the result of the exact `1/√x`: every value
    /// of two binades around 1 (where normalising works), and values across the range from
    /// 2⁻¹⁰.
    #[test]
    fn fx_recip_sqrt_is_within_its_bound() {
        let check = |bits: i32| {
            let x = f64::from(bits) / f64::from(1u32 << 24);
            let want = 1.0 / x.sqrt() * f64::from(1u32 << 24);
            let got = f64::from(Real::recip_sqrt(Fx::from_bits(bits)).to_bits());
            let bound = 1.0 + want / f64::from(1u32 << 26);
            assert!(
                (got - want).abs() <= bound,
                "1/sqrt({x}) = {got}, not {want} (bits)"
            );
        };
        for bits in (1 << 23)..(1 << 25) {
            check(bits);
        }
        for e in 14..31 {
            for m in 0..4096 {
                check((1 << e) + m * ((1 << e) / 4096));
            }
        }
        check(i32::MAX);
        assert_eq!(Real::recip_sqrt(Fx::ONE), Fx::ONE);
        assert_eq!(Real::recip_sqrt(Fx::from_num(4)), Fx::from_num(0.5));
        assert_eq!(Real::recip_sqrt(Fx::from_bits(1)), Fx::MAX);
        assert_eq!(Real::recip_sqrt(Fx::ZERO), Fx::MAX);
    }

    /// `Fx`'s unit vectors: every component within 2⁻¹⁴ of the exact direction's, on the
    /// `Q15` grid, for vectors of every magnitude from just above `EPSILON` to the range's
    /// end; `None` exactly when every coordinate is below `EPSILON`.
    #[test]
    fn fx_unit_vectors_are_within_their_bound() {
        let check = |v: [i32; 3]| {
            let got = Fx::unit_vector(v.map(Fx::from_bits));
            if v.iter().all(|c| c.unsigned_abs() < 1 << 12) {
                assert_eq!(got, None, "{v:?}");
                return;
            }
            let got = got.unwrap_or_else(|| panic!("{v:?} has no unit vector"));
            let len = v.iter().map(|&c| f64::from(c).powi(2)).sum::<f64>().sqrt();
            for (c, u) in v.iter().zip(got) {
                let want = f64::from(*c) / len;
                assert!(
                    (u.to_f32() as f64 - want).abs() <= 1.0 / 16384.0,
                    "{v:?}: {u:?} is not {want}"
                );
                assert_eq!(
                    u.to_bits() & 0x1FF,
                    0,
                    "{v:?}: {u:?} is not on the Q15 grid"
                );
            }
        };
        let mut seed = 0x2545_F491_u32;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            seed
        };
        for _ in 0..200_000 {
            let e = next() % 31;
            let v =
                [0; 3].map(|_| ((next() >> 1) as i32 >> (30 - e)) * (1 - 2 * (next() & 1) as i32));
            check(v);
        }
        for v in [
            [1 << 12, 0, 0],
            [0, -(1 << 12), 0],
            [4095, 4095, -4095],
            [i32::MIN, 0, 0],
        ] {
            check(v);
        }
        check([i32::MAX, i32::MAX, i32::MIN + 1]);
        check([1 << 24, 1 << 24, 1 << 24]);
    }

    proptest! {
        #[test]
        fn small_products_are_the_fixed_crates(
            a in -(2i32 << 24)..=(2 << 24),
            b in -(64i32 << 24)..=(64 << 24),
        ) {
            let exact = (Fx::from_bits(a) * Fx::from_bits(b)).to_bits();
            prop_assert_eq!(halves_small(a, b), exact);
            prop_assert_eq!(halves_small(b, a), exact);
            prop_assert_eq!(Fx::from_bits(a).times_small(Fx::from_bits(b)).to_bits(), exact);
        }

        #[test]
        fn unit_products_are_exact_products_of_the_rounded_unit(
            v in -(64i32 << 24)..=(64 << 24),
            w in -(1i32 << 24)..=(1 << 24),
        ) {
            let (v, w) = (Fx::from_bits(v), Fx::from_bits(w));
            let u = w.to_unit();
            // Rounded to nearest: within 2⁻¹⁶.
            prop_assert!((f64::from(u.to_f32()) - f64::from(w.to_f32())).abs() <= 1.0 / 65536.0);
            let exact = Fx::from_num(u.to_f32());
            prop_assert_eq!(v.times_unit(u), v * exact);
            prop_assert_eq!(1.5f32.times_unit(w.to_f32().to_unit()), 1.5 * w.to_f32());
        }

        #[test]
        fn fixed_within_is_each_magnitude_within_the_limit(
            v in proptest::array::uniform3(any::<i32>()),
            near in proptest::array::uniform3(-3i32..=3),
            l in 0i32..(1 << 30),
            big in (1i32 << 30)..=i32::MAX,
        ) {
            let each = |v: [Fx; 3], limit: Fx| v.iter().all(|&c| c.saturating_abs() <= limit);
            let at = |bits: [i32; 3]| bits.map(Fx::from_bits);
            // Anywhere, at the limit's edges (±l and a step either side), and the
            // extremes; a limit at or beyond 2³⁰ bits too (the default's comparisons).
            let edges = near.map(|k| (l.saturating_mul(k.signum())).saturating_add(k / 2));
            for (bits, limit) in [(v, l), (edges, l), ([i32::MIN, i32::MAX, 0], l), (v, big)] {
                let limit = Fx::from_bits(limit);
                prop_assert_eq!(Fx::within(at(bits), limit), each(at(bits), limit));
            }
        }

        #[test]
        fn unit_dot_is_within_its_bound(
            a in proptest::array::uniform4(-1.0f32..1.0),
            b in proptest::array::uniform4(-1.0f32..1.0),
        ) {
            let fx = |v: [f32; 4]| v.map(|c| Fx::from_f32(c).unwrap());
            let (fa, fb) = (fx(a), fx(b));
            let exact: f64 = (0..4).map(|i| f64::from(fa[i].to_f32()) * f64::from(fb[i].to_f32())).sum();
            let l1 = |v: [Fx; 4]| v.iter().map(|c| f64::from(c.to_f32()).abs()).sum::<f64>();
            let bound = (l1(fa) + l1(fb)) / 16384.0 + 1.0 / (1u64 << 26) as f64;
            let got = f64::from(Fx::unit_dot(fa, fb).to_f32());
            prop_assert!((got - exact).abs() <= bound, "{got} vs {exact} (bound {bound})");
            prop_assert_eq!(f32::unit_dot(a, b), a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]);
        }

        #[test]
        fn unsigned_halves_multiply_exactly(a: u32, b: u32) {
            let high = ((u64::from(a) * u64::from(b)) >> 32) as u32;
            prop_assert_eq!(halves_high(a, b), high);
            prop_assert_eq!(high_umul(a, b), high);
        }

        #[test]
        fn short_halves_multiply_exactly(a: u32, b in 0u32..1 << 31) {
            let high = ((u64::from(a) * u64::from(b)) >> 32) as u32;
            prop_assert_eq!(halves_high_short(a, b), high);
            prop_assert_eq!(high_umul_short(a, b), high);
        }
    }

    #[test]
    fn fx_fast_sqrt_and_recip_are_within_their_bounds() {
        let step = 1.0 / f64::from(1u32 << 24);
        for bits in (1..i32::MAX).step_by(4099) {
            let x = Fx::from_bits(bits);
            let v = f64::from(bits) * step;
            let root = f64::from(Real::fast_sqrt(x).to_bits()) * step;
            let bound = step + v.sqrt() / f64::from(1u32 << 26);
            assert!((root - v.sqrt()).abs() <= bound, "sqrt({v}) = {root}");
            if v >= 1.0 / 64.0 {
                let recip = f64::from(Real::recip(x).to_bits()) * step;
                let bound = 2.0 * step + 2.0 / v / f64::from(1u32 << 24);
                assert!((recip - 1.0 / v).abs() <= bound, "1/{v} = {recip}");
            }
        }
        assert_eq!(Real::fast_sqrt(Fx::ZERO), Fx::ZERO);
        assert_eq!(Real::recip(Fx::from_num(4)), Fx::from_num(0.25));
    }

    #[test]
    fn fx_sqrt_matches_float() {
        for v in [0.0f32, 1.0e-6, 0.25, 2.0, 100.0, 127.9] {
            let x = Fx::from_f32(v).unwrap();
            let s = Real::sqrt(x).to_f32();
            assert!((s - x.to_f32().sqrt()).abs() < 1.0e-6, "sqrt({v}) = {s}");
        }
        assert_eq!(Real::sqrt(Fx::from_f32(-4.0).unwrap()), Fx::ZERO);
    }

    #[test]
    fn points_are_within_a_limit_coordinate_by_coordinate() {
        // f32 tests the sum of magnitudes first: a point past the limit only in that sum is
        // within it; NaN and ∞ anywhere are not.
        let within = <f32 as Real>::within;
        assert!(within([0.9, -0.9, 0.9], 1.0));
        assert!(within([-1.0, 1.0, -1.0], 1.0));
        assert!(!within([0.1, -1.5, 0.1], 1.0));
        for bad in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
            for at in 0..3 {
                let mut p = [0.5f32; 3];
                p[at] = bad;
                assert!(!within(p, 1.0), "{p:?}");
                assert_eq!(<f32 as Real>::point_within(p, 1.0), None);
            }
        }
        assert_eq!(
            <f32 as Real>::point_within([0.9, 0.9, -0.9], 1.0),
            Some([0.9, 0.9, -0.9])
        );
        let fx = |v: f32| Fx::from_f32(v).unwrap();
        assert!(<Fx as Real>::within([fx(1.9), fx(-2.0), fx(1.9)], fx(2.0)));
        assert!(!<Fx as Real>::within([fx(0.0), fx(0.0), fx(-2.5)], fx(2.0)));
        assert_eq!(<Fx as Real>::point_within([0.0, 200.0, 0.0], fx(2.0)), None);
        assert_eq!(
            <Fx as Real>::point_within([0.0, f32::NAN, 0.0], fx(2.0)),
            None
        );
        assert_eq!(
            <Fx as Real>::point_within([0.5, 1.5, -2.0], fx(2.0)),
            Some([fx(0.5), fx(1.5), fx(-2.0)])
        );
    }

    #[test]
    fn root_and_recip_is_the_root_and_the_reciprocal_root() {
        for v in [1.0e-6f32, 0.01, 0.2025, 1.0, 2.0, 3.7, 48.0, 100.0] {
            let x = Fx::from_f32(v).unwrap();
            let want = (Real::fast_sqrt(x), Real::recip_sqrt(x));
            assert_eq!(Real::root_and_recip(x), want, "{v}");
            let want = (Real::sqrt(v), Real::recip_sqrt(v));
            assert_eq!(Real::root_and_recip(v), want, "{v}");
        }
        assert_eq!(Real::root_and_recip(Fx::ZERO), (Fx::ZERO, Fx::MAX));
    }

    /// Every input of [`unit_root_bits`] in [0, 1]: within 1.01 steps of `Q15` of the exact
    /// square root (1.0019 at worst when measured); beyond 1 as 1, below 0 as 0.
    #[test]
    fn unit_roots_are_within_a_step_everywhere() {
        let mut worst = 0.0f64;
        for x in 0..=1i32 << 24 {
            let got = f64::from(unit_root_bits(x));
            let want = (f64::from(x) / f64::from(1 << 24)).sqrt() * 32768.0;
            worst = worst.max((got - want).abs());
        }
        assert!(worst <= 1.01, "{worst} steps");
        for x in [(1 << 24) + 1, 1 << 28, i32::MAX] {
            assert!(((1 << 15) - unit_root_bits(x)).abs() <= 1, "{x}");
        }
        assert_eq!(unit_root_bits(-5), 0);
        assert_eq!(2.25f32.unit_root(), 1.5);
        assert!(worst > 0.5, "{worst}: the comparison measured nothing");
    }
}
