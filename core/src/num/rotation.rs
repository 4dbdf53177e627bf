//! Rotations of unit quantities in the fixed lane's unit scalar, with 32-bit products only:
//! [`Fx`]'s [`Real::rotate_unit`](super::Real::rotate_unit) and
//! [`Real::unit_product`](super::Real::unit_product). A Cortex-M0 has no 32 × 32 →
//! 64-bit multiply, so an `I8F24` product is four 16-bit multiplies (or two for
//! [`Real::times_unit`](super::Real::times_unit)); a product of two `Q15` values is one `MULS` (below 2³⁰), and sums
//! of such products stay in 32 bits. The rounding moves each result by a few 2⁻¹⁶ (see the
//! functions), far inside the animation layer's fixed bounds.
//!
//! ```
//! use skin_core::num::{Fx, Real};
//! let fx = |v: f32| Fx::from_f32(v).unwrap();
//! let s = core::f32::consts::FRAC_1_SQRT_2;
//! // 90° about Z takes +X to +Y.
//! let q = [fx(0.0), fx(0.0), fx(s), fx(s)];
//! let v = Fx::rotate_unit(q, [fx(1.0), fx(0.0), fx(0.0)]);
//! assert!(v[0].to_f32().abs() < 1e-4 && (v[1].to_f32() - 1.0).abs() < 1e-4);
//! ```

use super::Fx;

/// `I8F24` bits to `Q15`, rounded to nearest: a unit quantity's component (as
/// [`Real::to_unit`](super::Real::to_unit), without its clamp: the bounds below hold with a
/// factor of nearly 2 to spare, so components a few steps past 1, as normalising leaves
/// them, need none).
#[inline(always)]
fn q15(bits: i32) -> i32 {
    (bits + (1 << 8)) >> 9
}

/// `I8F24` bits to `Q14` (a value within 2), rounded to nearest.
#[inline(always)]
fn q14(bits: i32) -> i32 {
    (bits + (1 << 9)) >> 10
}

/// `Q30` to `Q15`, rounded to nearest.
#[inline(always)]
fn round15(x: i32) -> i32 {
    (x + (1 << 14)) >> 15
}

/// The unit vector `v` (`I8F24` bits) rotated by the unit quaternion `q` (`[x, y, z, w]`,
/// `I8F24` bits): `v + 2(w·c + u × c)` with `c = u × v`, `u = (x, y, z)`, in `Q15`.
///
/// Every sum of products is a `Q30` value of magnitude at most 1, so within 32 bits: `c`'s
/// components are at most `|u||v| ≤ 1`, and `w·c + u × c` has length `|c|·√(w² + |u|²)`
/// (`c ⊥ u × c`), at most 1. Each of the six rounded sums is within 2⁻¹⁶ and the inputs'
/// rounding to `Q15` within 2⁻¹⁶ (none for unit vectors on the `Q15` grid, as
/// [`Real::unit_vector`](super::Real::unit_vector) makes them): each result within about
/// 2⁻¹³ of the exact rotation (tested).
#[inline(never)]
pub(super) fn rotate_unit(q: [Fx; 4], v: [Fx; 3]) -> [Fx; 3] {
    let [x, y, z, w] = q.map(|c| q15(c.to_bits()));
    let [a, b, e] = v.map(|c| q15(c.to_bits()));
    let c = [
        round15(y * e - z * b),
        round15(z * a - x * e),
        round15(x * b - y * a),
    ];
    let t = [
        w * c[0] + y * c[2] - z * c[1],
        w * c[1] + z * c[0] - x * c[2],
        w * c[2] + x * c[1] - y * c[0],
    ];
    // v + 2t in Q15: t is Q30, so 2t is `t >> 14`, rounded; then to `I8F24` (Q24).
    let out = |v: i32, t: i32| Fx::from_bits((v + ((t + (1 << 13)) >> 14)) << 9);
    [out(a, t[0]), out(b, t[1]), out(e, t[2])]
}

/// The Hamilton product `a·q` (`I8F24` bits, `[x, y, z, w]`) of a quaternion `a` with
/// components within 2 (a shortest arc before it is normalised) and a unit quaternion `q`:
/// `a` in `Q14`, `q` in `Q15`, each product below 2³⁰ in `Q29` and each sum of four
/// the product's component, at most `|a|·|q| ≤ 2` (2³⁰ in `Q29`): wrapping sums in 32 bits
/// give it exactly. Within 2⁻¹⁵·|q|₁ + 2⁻¹⁶·|a|₁ + 2⁻²⁴ of the exact product by component
/// (the inputs' rounding; tested).
#[inline(never)]
pub(super) fn unit_product(a: [Fx; 4], q: [Fx; 4]) -> [Fx; 4] {
    let [ax, ay, az, aw] = a.map(|c| q14(c.to_bits()));
    let [x, y, z, w] = q.map(|c| q15(c.to_bits()));
    let sum = |p: [i32; 4]| {
        let s = p[0]
            .wrapping_add(p[1])
            .wrapping_add(p[2])
            .wrapping_add(p[3]);
        // Q29 to Q24, rounded to nearest.
        Fx::from_bits((s + (1 << 4)) >> 5)
    };
    [
        sum([aw * x, ax * w, ay * z, -(az * y)]),
        sum([aw * y, -(ax * z), ay * w, az * x]),
        sum([aw * z, ax * y, -(ay * x), az * w]),
        sum([aw * w, -(ax * x), -(ay * y), -(az * z)]),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::num::Real;
    use proptest::prelude::*;

    fn unit4(q: [f64; 4]) -> [f64; 4] {
        let n = q.iter().map(|v| v * v).sum::<f64>().sqrt();
        q.map(|v| v / n)
    }

    fn exact_rotate(q: [f64; 4], v: [f64; 3]) -> [f64; 3] {
        let [x, y, z, w] = q;
        let c = [
            y * v[2] - z * v[1],
            z * v[0] - x * v[2],
            x * v[1] - y * v[0],
        ];
        let t = [
            w * c[0] + y * c[2] - z * c[1],
            w * c[1] + z * c[0] - x * c[2],
            w * c[2] + x * c[1] - y * c[0],
        ];
        [v[0] + 2.0 * t[0], v[1] + 2.0 * t[1], v[2] + 2.0 * t[2]]
    }

    fn fx(v: f64) -> Fx {
        Fx::from_num(v)
    }

    proptest! {
        /// Rotated unit vectors (on the `Q15` grid, as the lane's unit vectors are) within
        /// 2⁻¹³ of the exact rotation by the `I8F24` quaternion.
        #[test]
        fn rotations_are_within_their_bound(
            q in proptest::array::uniform4(-1.0f64..1.0),
            v in proptest::array::uniform3(-1.0f64..1.0),
        ) {
            let n = v.iter().map(|c| c * c).sum::<f64>().sqrt();
            prop_assume!(n > 0.01 && q.iter().map(|c| c * c).sum::<f64>() > 0.01);
            let q = unit4(q).map(fx);
            let v = Fx::unit_vector(v.map(|c| fx(c / n))).unwrap();
            let got = rotate_unit(q, v);
            let want = exact_rotate(q.map(|c| c.to_num()), v.map(|c| c.to_num()));
            for (g, w) in got.iter().zip(want) {
                let err = (g.to_num::<f64>() - w).abs();
                prop_assert!(err <= 1.0 / 8192.0, "{err} {q:?} {v:?}");
            }
            // The generic formula agrees within the same bound.
            let generic = super::super::rotate(q, v);
            for (g, w) in generic.iter().zip(want) {
                prop_assert!((g.to_num::<f64>() - w).abs() <= 1.0 / 8192.0);
            }
        }

        /// Products of a quaternion within 2 by a unit one within the inputs' rounding.
        #[test]
        fn unit_products_are_within_their_bound(
            a in proptest::array::uniform4(-1.0f64..1.0),
            q in proptest::array::uniform4(-1.0f64..1.0),
        ) {
            prop_assume!(q.iter().map(|c| c * c).sum::<f64>() > 0.01);
            let a = a.map(|c| fx(c * 2.0 / 2.0f64.sqrt()));
            let q = unit4(q).map(fx);
            let got = unit_product(a, q);
            let [ax, ay, az, aw] = a.map(|c| c.to_num::<f64>());
            let [x, y, z, w] = q.map(|c| c.to_num::<f64>());
            let want = [
                aw * x + ax * w + ay * z - az * y,
                aw * y - ax * z + ay * w + az * x,
                aw * z + ax * y - ay * x + az * w,
                aw * w - ax * x - ay * y - az * z,
            ];
            let l1 = |v: [f64; 4]| v.iter().map(|c| c.abs()).sum::<f64>();
            let bound = l1([x, y, z, w]) / 32768.0 + l1([ax, ay, az, aw]) / 65536.0 + 1.0 / (1 << 24) as f64;
            for (g, w) in got.iter().zip(want) {
                prop_assert!((g.to_num::<f64>() - w).abs() <= bound);
            }
        }
    }

    #[test]
    fn extremes_stay_in_range() {
        // A half turn about X of a vector across it, and the identity's product with the
        // largest arc (1 + 1, from a vector to itself).
        let one = Fx::ONE;
        let zero = Fx::ZERO;
        let v = rotate_unit([one, zero, zero, zero], [zero, one, zero]);
        assert_eq!(v, [zero, -one, zero]);
        let p = unit_product([zero, zero, zero, one + one], [zero, zero, zero, one]);
        assert_eq!(p, [zero, zero, zero, one + one]);
        let p = unit_product([one + one, zero, zero, zero], [-one, zero, zero, zero]);
        assert_eq!(p, [zero, zero, zero, one + one]);
    }
}
