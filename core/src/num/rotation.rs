//! Rotations of unit quantities in the fixed lane's unit scalar, with 32-bit products only:
//! [`Fx`]'s [`Real::rotate_unit`](super::Real::rotate_unit),
//! [`Real::fast_turn`](super::Real::fast_turn) and
//! [`Real::fast_turn_in`](super::Real::fast_turn_in) (a rotation, then a turn by the arc
//! from its result, without leaving `Q15` between them). A Cortex-M0 has no 32 × 32 → 64-bit
//! multiply, so an `I8F24` product is four 16-bit multiplies (or two for
//! [`Real::times_unit`](super::Real::times_unit)); a product of two `Q15` values is one
//! `MULS` (below 2³⁰), and sums of such products stay in 32 bits. The rounding moves each
//! result by a few 2⁻¹⁶ (see the functions), inside the animation layer's fixed bounds.
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

/// `Q30` to `Q15`, rounded to nearest.
#[inline(always)]
fn round15(x: i32) -> i32 {
    (x + (1 << 14)) >> 15
}

/// The unit quaternion `q` (`I8F24` bits) in `Q15`, each component rounded to nearest.
#[inline(always)]
fn quat15(q: [Fx; 4]) -> [i32; 4] {
    q.map(|c| q15(c.to_bits()))
}

/// The unit vector `v` (`I8F24` bits) in `Q15`, each component rounded to nearest.
#[inline(always)]
fn vec15(v: [Fx; 3]) -> [i32; 3] {
    v.map(|c| q15(c.to_bits()))
}

/// `Q15` components to `I8F24` bits (exact).
#[inline(always)]
fn from15<const N: usize>(v: [i32; N]) -> [Fx; N] {
    v.map(|c| Fx::from_bits(c << 9))
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
    from15(rotate15(quat15(q), vec15(v)))
}

/// [`rotate_unit`] of `Q15` components, its result in `Q15` (on the grid the `I8F24` result
/// takes, so that converting it back is exact).
#[inline(always)]
fn rotate15(q: [i32; 4], v: [i32; 3]) -> [i32; 3] {
    let [x, y, z, w] = q;
    let [a, b, e] = v;
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
    // v + 2t in Q15: t is Q30, so 2t is `t >> 14`, rounded.
    let out = |v: i32, t: i32| v + ((t + (1 << 13)) >> 14);
    [out(a, t[0]), out(b, t[1]), out(e, t[2])]
}

/// The unit quaternion `a·q` for the shortest arc `a = (from × to, 1 + from·to)` from the unit
/// vector `from` ([`rotate_unit`] of the unit vector `v` by `q`) to the unit vector `to`
/// (`I8F24` bits): a joint's rotation turned so that its bone `v` goes to `to`. `q` goes to
/// `Q15` once, for both, and `from` stays there (the same bits as [`rotate_unit`]'s, whose
/// `Q15` result converts to `I8F24` and back exactly). `Err(from)` where the vectors are
/// nearly opposite (`1 + from·to` below 2⁻⁸), for the general steps to take.
///
/// In `Q15`, 32-bit products: `from·to` and `from × to` of the vectors in `Q15` are exact in
/// `Q30` (the components of unit vectors the lane makes are on the `Q15` grid); the half arc
/// `a/2` (of length `cos(θ/2)` ≥ 2⁻⁴·⁵ here) scaled by a power of two to about [½, 1] and
/// rounded to `Q15`, its product with `q` in `Q30` (each sum within `|a/2|·|q| ≤ 1`),
/// normalised by
/// [`unit_block`](super::unit_block) (the result on the `Q15` grid, each component within
/// 2⁻¹⁴ of the normalised product's). Where the arc's `1 + from·to`, a product and a
/// normalisation took 60 `I8F24` products (four 16-bit multiplies each on a Cortex-M0) and
/// an inverse square root, this takes 25 `MULS` and one seed-table step.
#[inline(never)]
pub(super) fn turn(q: [Fx; 4], v: [Fx; 3], to: [Fx; 3]) -> Result<[Fx; 4], [Fx; 3]> {
    let q = quat15(q);
    let from = rotate15(q, vec15(v));
    arc_then(from, vec15(to), q).ok_or_else(|| from15(from))
}

/// [`turn`] to the unit vector `w` (`I8F24` bits) in the frame of the unit quaternion `p`:
/// to `rotate_unit(p⁻¹, w)` (`p⁻¹` its conjugate, `x`, `y`, `z` negated in `I8F24`, before
/// the conversion to `Q15`, as a quaternion's conjugate negates them), which also stays in `Q15`:
/// the same bits as [`rotate_unit`] and [`turn`] in turn. `Err([from, to])` where the
/// vectors are nearly opposite.
#[inline(never)]
pub(super) fn turn_in(
    q: [Fx; 4],
    v: [Fx; 3],
    p: [Fx; 4],
    w: [Fx; 3],
) -> Result<[Fx; 4], [[Fx; 3]; 2]> {
    let q = quat15(q);
    let from = rotate15(q, vec15(v));
    let [x, y, z, pw] = p;
    let to = rotate15(quat15([-x, -y, -z, pw]), vec15(w));
    arc_then(from, to, q).ok_or_else(|| [from15(from), from15(to)])
}

/// [`turn`]'s steps once `from`, `to` and `q` are in `Q15`: the shortest arc, its product
/// with `q`, normalised; `None` where the arc is too short.
#[inline(always)]
fn arc_then(from: [i32; 3], to: [i32; 3], q: [i32; 4]) -> Option<[Fx; 4]> {
    let [a, b, c] = from;
    let [d, e, f] = to;
    // 1 + from·to in Q30 (up to 2³¹: unsigned); where the vectors are more than a quarter
    // turn apart, as |from + to|²/2 (each square below 2³¹ there), which stays the angle's
    // where the vectors' lengths are a few 2⁻¹⁶ off 1 and `1 + from·to` is small.
    let dot = a * d + b * e + c * f;
    let w = if dot >= 0 {
        ((1 << 30) + dot) as u32
    } else {
        let (x, y, z) = (a + d, b + e, c + f);
        (x * x + y * y + z * z) as u32 >> 1
    };
    if w < 1 << 22 {
        return None;
    }
    // The half arc in Q15 (Q30 halved and shifted down by 15, rounded), scaled by 2^k so
    // that its squared length 4^k·w/2³¹ is in [¼, 1)·(1 − 2⁻¹²): its rounding then at most
    // 2⁻¹⁵ of it, and its product with `q` after the rounding (2⁻¹⁴ at most) of a length
    // from just under ½ to under 1, as `unit_block` takes it (every component at most 2¹⁵
    // in Q15), with every product and sum below 2³¹.
    let (mut k, mut scaled) = (0, w);
    while scaled < (1 << 29) - (1 << 17) {
        (k, scaled) = (k + 1, scaled << 2);
    }
    let down = 16 - k;
    let half = |v: i32| (v + (1 << (down - 1))) >> down;
    let (hx, hy, hz) = (
        half(b * f - c * e),
        half(c * d - a * f),
        half(a * e - b * d),
    );
    let hw = ((w + (1 << (down - 1))) >> down) as i32;
    let [x, y, z, qw] = q;
    let p = [
        hw * x + hx * qw + hy * z - hz * y,
        hw * y - hx * z + hy * qw + hz * x,
        hw * z + hx * y - hy * x + hz * qw,
        hw * qw - hx * x - hy * y - hz * z,
    ];
    // Normalised: the product's length is the scaled half arc's (2¹⁴ to 2¹⁵ in Q15, as
    // `unit_block` takes it), without finding an exponent.
    let c = p.map(|v| (v + (1 << 14)) >> 15);
    Some(from15(super::unit_block(c)))
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
    }

    proptest! {
        /// Turns within 2⁻¹³ of the exactly normalised product of `q` and the exact arc from
        /// the bone `v` as [`rotate_unit`] rotates it by `q` (that rotation returned where
        /// the arc is too short).
        #[test]
        fn turns_are_within_their_bound(
            v in proptest::array::uniform3(-1.0f64..1.0),
            to in proptest::array::uniform3(-1.0f64..1.0),
            q in proptest::array::uniform4(-1.0f64..1.0),
        ) {
            let n = |v: [f64; 3]| v.iter().map(|c| c * c).sum::<f64>().sqrt();
            prop_assume!(n(v) > 0.01 && n(to) > 0.01);
            prop_assume!(q.iter().map(|c| c * c).sum::<f64>() > 0.01);
            let unit = |v: [f64; 3]| Fx::unit_vector(v.map(|c| fx(c / n(v)))).unwrap();
            let (v, to, q) = (unit(v), unit(to), unit4(q).map(fx));
            let from = rotate_unit(q, v);
            // The exact arc between the directions of the grid's vectors.
            let exact = |v: [Fx; 3]| {
                let v = v.map(|c| c.to_num::<f64>());
                v.map(|c| c / n(v))
            };
            let ([a, b, c], [d, e, f]) = (exact(from), exact(to));
            let arc = [b * f - c * e, c * d - a * f, a * e - b * d, 1.0 + a * d + b * e + c * f];
            let [x, y, z, w] = q.map(|v| v.to_num::<f64>());
            let [ax, ay, az, aw] = arc;
            let p = unit4([
                aw * x + ax * w + ay * z - az * y,
                aw * y - ax * z + ay * w + az * x,
                aw * z + ax * y - ay * x + az * w,
                aw * w - ax * x - ay * y - az * z,
            ]);
            match turn(q, v, to) {
                Ok(got) => {
                    prop_assert!(arc[3] >= 1.0 / 256.0 - 1e-9);
                    for (g, w) in got.iter().zip(p) {
                        let err = (g.to_num::<f64>() - w).abs();
                        prop_assert!(err <= 1.0 / 8192.0, "{err} {got:?} {p:?} {arc:?}");
                    }
                }
                Err(got) => {
                    prop_assert!(arc[3] < 1.0 / 256.0 + 1e-9);
                    prop_assert_eq!(got, from);
                }
            }
        }
    }

    proptest! {
        /// A turn to a direction in a rotated frame is the turn to that direction rotated
        /// into it, bit for bit, or the same vectors where the arc is too short.
        #[test]
        fn turns_in_a_frame_are_turns_to_the_rotated_direction(
            v in proptest::array::uniform3(-1.0f64..1.0),
            w in proptest::array::uniform3(-1.0f64..1.0),
            q in proptest::array::uniform4(-1.0f64..1.0),
            p in proptest::array::uniform4(-1.0f64..1.0),
        ) {
            let n = |v: [f64; 3]| v.iter().map(|c| c * c).sum::<f64>().sqrt();
            prop_assume!(n(v) > 0.01 && n(w) > 0.01);
            let n4 = |q: [f64; 4]| q.iter().map(|c| c * c).sum::<f64>();
            prop_assume!(n4(q) > 0.01 && n4(p) > 0.01);
            let unit = |v: [f64; 3]| Fx::unit_vector(v.map(|c| fx(c / n(v)))).unwrap();
            let (v, w, q, p) = (unit(v), unit(w), unit4(q).map(fx), unit4(p).map(fx));
            let to = rotate_unit([-p[0], -p[1], -p[2], p[3]], w);
            match (turn_in(q, v, p, w), turn(q, v, to)) {
                (Ok(got), Ok(want)) => prop_assert_eq!(got, want),
                (Err([from, got_to]), Err(want_from)) => {
                    prop_assert_eq!(from, want_from);
                    prop_assert_eq!(got_to, to);
                }
                (got, want) => prop_assert!(false, "{got:?} {want:?}"),
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
    }
}
