//! The weights of spherical linear interpolation in fixed point ([`Fx`]'s
//! [`Real::arc_weights`]) from products alone: no arc cosine, no sine, no division (each
//! a long soft-float or library call on a Cortex-M0).
//!
//! Along the shorter arc between unit quaternions `a` and `b` with `a · b = d = cos θ`, the
//! slerp at `t` is `sin((1 − t)θ)/sin θ · a + sin(tθ)/sin θ · b`. The caller normalises the
//! blend, so a common factor may be dropped: here the weights are `sin(xθ)/θ` for
//! `x = 1 − t` and `x = t`, whose sum with `a` and `b` has length `sin θ/θ`, at least `2/π`.
//! With `Q(s) = sin(√s)/√s` and `P(d) = acos(d)/√(1 − d)` (both smooth, `P(1) = √2`):
//!
//! `sin(xθ)/θ = x · Q(x² θ²)`, and `θ² = (1 − d) · P(d)²`,
//!
//! so neither `θ` nor a root is needed. Both polynomials take their variable in [0, 1]:
//! `Q` is fitted as `Q'(σ) = Q(σ · (π/2)²)` and `P` as `P'(d) = P(d) · 2/π`, so that
//! `σ = x² · (1 − d) · P'(d)²` (θ² over its largest, `(π/2)²`, for `d` in [0, 1]); no
//! coefficient's rounding is then scaled up by a power of a variable above 1. The
//! coefficients are minimax (Remez) fits rounded to `I8F24`: `P'` of degree 7 is within
//! 1.1 steps of `I8F24` (2⁻²⁴) of its function on [0, 1], `Q'` of degree 4 within 0.44.
//!
//! **Bound.** Each product rounds down by less than a step ([`Real::times_small`]). `P'`'s
//! Horner steps: 7 products by `d ≤ 1` (each rounding carried, not scaled up), so `P'` is
//! within 8.1 steps with the fit; `P'` lies in [0.9, 1], so `P'²` is within 17.2 steps and
//! `σ` (a product by `1 − d ≤ 1`) within 18.2, `x²σ` (two more) within 20.2. `Q'`'s slope
//! is at most 0.42 in magnitude on [0, 1]: 8.5 steps from `x²σ`, its 4 products and the
//! fit's 0.44 more, then the product by `x`: each weight within **14 steps (8.4·10⁻⁷)** of
//! `sin(xθ)/θ` for `d` and `t` in [0, 1] (`tests/tests/clip_sampling.rs` checks it against
//! `f64`). That is far below the fixed lane's palette resolution (2⁻¹⁴); the `f32` sines it
//! replaces, rounded to `I8F24` and scaled by `1/sin θ`, were within half a step times
//! `1/sin θ` (16 steps at the slerp's smallest angle, cos θ = 0.9995).

use super::{Fx, Real};

/// `P'(d) = acos(d) / √(1 − d) · 2/π` on [0, 1], lowest degree first, `I8F24` bits.
const ARC: [i32; 8] = [
    16_777_216, -2_292_067, 950_359, -535_901, 329_960, -182_531, 71_254, -13_488,
];

/// `Q'(σ) = sin(r)/r` for `r = (π/2)·√σ` on [0, 1], lowest degree first, `I8F24` bits.
const SINE: [i32; 5] = [16_777_216, -6_899_346, 851_129, -49_903, 1_611];

/// The polynomial `c` at `x`, by Horner's rule in `I8F24` products ([`Real::times_small`]).
#[inline(always)]
fn horner(c: &[i32], x: Fx) -> Fx {
    let (last, rest) = c.split_last().unwrap_or((&0, &[]));
    rest.iter().rev().fold(Fx::from_bits(*last), |p, &k| {
        p.times_small(x) + Fx::from_bits(k)
    })
}

/// `(sin((1 − t)θ)/θ, sin(tθ)/θ)` with `θ = acos d`, for `d` and `t` in [0, 1]; each
/// within 14 steps of `I8F24` (the module's bound).
///
/// ```
/// use skin_core::num::{Fx, Real};
/// // cos θ = 0: θ = π/2, the weights at t = ½ both sin(π/4)/(π/2) ≈ 0.45016.
/// let (wa, wb) = Fx::arc_weights(Fx::ZERO, Fx::HALF);
/// assert!((wa.to_f32() - 0.450_158).abs() < 1e-6 && wa == wb);
/// ```
#[inline(never)]
pub(super) fn weights(d: Fx, t: Fx) -> (Fx, Fx) {
    let p = horner(&ARC, d);
    let sigma = p.times_small(p).times_small(Fx::ONE - d);
    let weight = |x: Fx| x.times_small(horner(&SINE, x.times_small(x).times_small(sigma)));
    (weight(Fx::ONE - t), weight(t))
}
