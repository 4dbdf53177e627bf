//! Deltas stored compactly: each coordinate an `i16` `q` with a power-of-two scale per
//! target, `delta = q·2⁻ᵉ`, the exponent `e` chosen per target (and separately for its
//! positions and its normals) as the largest in [`EXPONENTS`] that keeps its largest
//! |coordinate| within `i16`.
//!
//! **Quantisation error.** Rounding `d·2ᵉ` to the nearest integer is off by at most ½, so a
//! stored delta is within `2⁻⁽ᵉ⁺¹⁾` of the true one per coordinate ([`error`]); with `e` the
//! largest exponent for which `round(m·2ᵉ) ≤ 32767` (`m` the target's largest |coordinate|),
//! `2ᵉ > 16383.5/m`, so the error is below `m/32767`: 1/32767 of the target's reach. A
//! frame at weight `w` adds `|w|` times that. The scale being a power of two, applying it
//! costs nothing: the fixed lane multiplies `q` by the weight shifted by `16 + F − e` once a
//! frame ([`SUM_FRACTION`]), the `f32` lane by the weight scaled by `2⁻ᵉ`.
//!
//! **The fixed lane's exponents** are [`FIXED_EXPONENTS`] (13 to 29): a vertex's active
//! targets are summed in one 32-bit accumulator with [`SUM_FRACTION`] = 13 bits below the
//! lane's `2⁻¹⁴`, each term `⌊A·q / 2¹⁶⌋` with `A = w·2¹⁶⁺ᶠ⁻ᵉ` (the `I2F14` weight's bits
//! `w`), which must be a left shift of at most 16 bits for `A` to hold every weight
//! (`|w| ≤ 2¹⁵`) exactly in 32 bits: `F ≤ e ≤ 16 + F`. Below 13 a delta would reach 4
//! asset units (twice the lane's range: a target the lane could apply only at weights under
//! ½), which the baker refuses; above 29 the deltas would be finer than 2⁻³⁰, far below the
//! lane's own step of 2⁻¹⁴.
//!
//! ```
//! use skin_core::morph::quantised::{dequantise, error, exponent, quantise};
//! let e = exponent(0.3).unwrap(); // the largest |coordinate| of a target's deltas
//! assert_eq!(e, 16); // 0.3·2¹⁶ = 19660.8 fits an i16; 0.3·2¹⁷ would not
//! let q = quantise(-0.123, e);
//! assert!((dequantise(q, e) + 0.123).abs() <= error(e));
//! ```

use core::ops::RangeInclusive;

/// The exponents a quantised target may have: `2⁰` (deltas up to 32767 units) to `2³⁰`.
pub const EXPONENTS: RangeInclusive<i8> = 0..=30;

/// The bits below the fixed lane's `2⁻¹⁴` in which a vertex's targets are summed before
/// the sum is rounded once (module docs).
pub const SUM_FRACTION: u32 = 13;

/// The exponents of the fixed lane's targets: [`SUM_FRACTION`] to `16 + SUM_FRACTION`
/// (module docs).
pub const FIXED_EXPONENTS: RangeInclusive<i8> = 13..=29;

/// The exponent for deltas whose largest |coordinate| is `most`: the largest in
/// [`EXPONENTS`] with `round(most·2ᵉ) ≤ 32767` (the largest, 30, for `most = 0`); `None`
/// when `most` is not finite or above what `e = 0` holds (32767.5).
pub fn exponent(most: f32) -> Option<i8> {
    exponent_in(most, EXPONENTS)
}

/// [`exponent`] within `range` (a lane's, e.g. [`FIXED_EXPONENTS`]): `None` also when
/// `most` is too large for its smallest exponent.
///
/// ```
/// use skin_core::morph::quantised::{exponent_in, FIXED_EXPONENTS};
/// assert_eq!(exponent_in(0.0, FIXED_EXPONENTS), Some(29));
/// assert_eq!(exponent_in(3.9, FIXED_EXPONENTS), Some(13)); // 3.9·2¹³ = 31948.8
/// assert_eq!(exponent_in(4.0, FIXED_EXPONENTS), None);
/// ```
pub fn exponent_in(most: f32, range: RangeInclusive<i8>) -> Option<i8> {
    if !most.is_finite() || most.abs() >= 32767.5 {
        return None;
    }
    let m = f64::from(most.abs());
    range
        .rev()
        .find(|&e| libm::round(m * libm::exp2(f64::from(e))) <= 32767.0)
}

/// `d·2ᵉ` rounded to the nearest integer (ties away from zero), saturated to `i16`.
pub fn quantise(d: f32, e: i8) -> i16 {
    let q = libm::round(f64::from(d) * libm::exp2(f64::from(e)));
    q.clamp(f64::from(i16::MIN), f64::from(i16::MAX)) as i16
}

/// The delta `q·2⁻ᵉ` a stored coordinate stands for (exact: `q` has 16 bits).
pub fn dequantise(q: i16, e: i8) -> f32 {
    f32::from(q) * scale(e)
}

/// `2⁻ᵉ`, exactly, for `e` in [`EXPONENTS`] (clamped to it).
pub fn scale(e: i8) -> f32 {
    let e = e.clamp(*EXPONENTS.start(), *EXPONENTS.end());
    f32::from_bits(((127 - i32::from(e)) as u32) << 23)
}

/// The largest error of a coordinate quantised with exponent `e`: `2⁻⁽ᵉ⁺¹⁾`.
pub fn error(e: i8) -> f32 {
    libm::exp2f(-f32::from(e) - 1.0)
}
