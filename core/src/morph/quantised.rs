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
//! costs nothing: the fixed lane shifts the 16 × 16-bit product of weight and `q` by `e`
//! (rounded), the `f32` lane multiplies by the weight scaled by `2⁻ᵉ` once a frame.
//!
//! ```
//! use skin_core::morph::quantised::{dequantise, error, exponent, quantise};
//! let e = exponent(0.3).unwrap(); // the largest |coordinate| of a target's deltas
//! assert_eq!(e, 16); // 0.3·2¹⁶ = 19660.8 fits an i16; 0.3·2¹⁷ would not
//! let q = quantise(-0.123, e);
//! assert!((dequantise(q, e) + 0.123).abs() <= error(e));
//! ```

use core::ops::RangeInclusive;

/// The exponents a quantised target may have: `2⁰` (deltas up to 32767 units) to `2³⁰`
/// (the fixed lane's 16 × 16-bit product then still shifts within 32 bits).
pub const EXPONENTS: RangeInclusive<i8> = 0..=30;

/// The exponent for deltas whose largest |coordinate| is `most`: the largest in
/// [`EXPONENTS`] with `round(most·2ᵉ) ≤ 32767` (the largest, 30, for `most = 0`); `None`
/// when `most` is not finite or above what `e = 0` holds (32767.5).
pub fn exponent(most: f32) -> Option<i8> {
    if !most.is_finite() || most.abs() >= 32767.5 {
        return None;
    }
    let m = f64::from(most.abs());
    EXPONENTS
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
