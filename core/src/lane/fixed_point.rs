//! The fixed-point lane: `I2F14` values, `U1F15` weights, `I16F16` output, `i32` accumulators.

use super::fixed_rigid::{apply_point, rigid, FixedRigid};
use super::{Lane, OfLane, Out16, Weight15, Which, Q14};
use crate::affine::Affine;
use crate::dual::{Dual, Stretch};
use crate::num::{normalise_even, Fx, NumError, SEED};

/// The L1 norm bound of a fixed palette row's linear part, in Q14 units (2.0).
const ROW_L1_LIMIT: i32 = 2 << 14;

impl Lane for Q14 {
    type Real = Fx;
    type Weight = Weight15;
    type Acc = i32;
    type Out = Out16;
    const NAME: &'static str = "I2F14";

    fn from_f32(v: f32) -> Result<Self, NumError> {
        if !v.is_finite() {
            return Err(NumError::NotFinite);
        }
        Q14::checked_from_num(v).ok_or(NumError::OutOfRange)
    }
    fn to_f32(self) -> f32 {
        self.to_num()
    }
    fn weight_from_f32(w: f32) -> Result<Weight15, NumError> {
        if !w.is_finite() {
            return Err(NumError::NotFinite);
        }
        if !(0.0..=1.0).contains(&w) {
            return Err(NumError::OutOfRange);
        }
        Ok(Weight15::from_num(w))
    }
    fn weight_to_f32(w: Weight15) -> f32 {
        w.to_num()
    }
    fn out_to_f32(o: Out16) -> f32 {
        o.to_num()
    }
    fn implicit_weight(w: &[Weight15]) -> Option<Weight15> {
        let sum: u32 = w.iter().map(|w| u32::from(w.to_bits())).sum();
        (sum <= 1 << 15).then(|| Weight15::from_bits(((1u32 << 15) - sum) as u16))
    }
    const MAX_EXPONENT: u8 = 2;

    fn narrow_scaled(m: &Affine<Fx>, exponent: u8) -> Option<Affine<Q14>> {
        let mut out = Affine {
            rows: [[Q14::ZERO; 4]; 3],
        };
        for (o, r) in out.rows.iter_mut().zip(&m.rows) {
            for (o, v) in o.iter_mut().zip(r) {
                *o = fx_to_q14(*v, exponent)?;
            }
        }
        Self::fits(&out).then_some(out)
    }
    fn widen(o: Out16, exponent: u8) -> Out16 {
        // |o| < 6 for a palette that fits (module docs): the shift stays far inside i32.
        Out16::from_bits(o.to_bits() << exponent)
    }
    fn offset(o: Out16, c: Fx) -> Out16 {
        // `I8F24` to `I16F16`: 8 fraction bits fewer. A skinned position (|o| < 24 at the
        // largest palette exponent) plus a centre (|c| < 64) stays far inside i32.
        Out16::from_bits(o.to_bits().wrapping_add(c.to_bits() >> 8))
    }
    fn fits(m: &Affine<Q14>) -> bool {
        // One LSB of margin: a blended entry rounds by at most ½ LSB, so a blend of rows
        // with L1 ≤ 2 − 2⁻¹³ has L1 ≤ 2 − 2⁻¹³ + 1.5·2⁻¹⁴ < 2 as well.
        m.rows.iter().all(|r| {
            let l1: i32 = r[..3].iter().map(|v| i32::from(v.to_bits()).abs()).sum();
            l1 < ROW_L1_LIMIT - 1
        })
    }
    #[inline(always)]
    fn lead_weight(w: [Weight15; 3]) -> Weight15 {
        // Validated: Σ w ≤ 2^15, so the result is in [0, 2^15].
        let sum = w[0]
            .to_bits()
            .wrapping_add(w[1].to_bits())
            .wrapping_add(w[2].to_bits());
        Weight15::from_bits((1u16 << 15).wrapping_sub(sum))
    }
    #[inline(always)]
    fn term(w: Weight15, e: Q14) -> i32 {
        // Q15 × Q14 = Q29; w ≤ 2^15 and |e| ≤ 2^15, so |w·e| ≤ 2^30, and a sum of terms
        // whose weights sum to 2^15 (a convex blend) stays within 2^30 too.
        i32::from(w.to_bits()).wrapping_mul(i32::from(e.to_bits()))
    }
    #[inline(always)]
    fn weigh(acc: i32, w: Weight15, e: Q14) -> i32 {
        acc.wrapping_add(Self::term(w, e))
    }
    #[inline(always)]
    fn settle(acc: i32) -> Q14 {
        Q14::from_bits(settle(acc) as i16)
    }
    #[inline(always)]
    fn point(r: &[Q14; 4], p: &[Q14; 3]) -> Out16 {
        Out16::from_bits(point(r.map(bits), p.map(bits)))
    }
    #[inline(always)]
    fn linear(r: &[Q14; 4], n: &[Q14; 3]) -> i32 {
        linear(r.map(bits), n.map(bits))
    }
    #[inline(always)]
    fn unit(v: [i32; 3]) -> [Q14; 3] {
        // Squared length (Q28). Each c² < 2^32 (|c| < 2^16); their sum overflows u32 only for
        // |v| ≥ 4, which needs a non-unit input normal: then halve v (its direction is all
        // that matters). In both cases |c·y| ≤ 2^30 (c ≤ |v|), so the scaling cannot overflow.
        let sq = v.map(|c| c.unsigned_abs() * c.unsigned_abs());
        let (v, len2) = match sq[0].checked_add(sq[1]).and_then(|s| s.checked_add(sq[2])) {
            Some(len2) => (v, len2),
            None => {
                let h = v.map(|c| c >> 1);
                (
                    h,
                    h.iter().map(|&c| c.unsigned_abs() * c.unsigned_abs()).sum(),
                )
            }
        };
        match rsqrt_q28(len2) {
            None => [Q14::ZERO; 3],
            Some((y, shift)) => {
                // c (Q14) · y (Q14 mantissa) = Q28, then the exponent. |c·y| ≤ 2^14·(1 + 2^-12)
                // (rsqrt's error), so a component is within 1 + 2^-12 of the unit range and
                // fits I2F14 without a clamp.
                let half = 1 << (shift - 1);
                v.map(|c| Q14::from_bits(((c * y as i32 + half) >> shift) as i16))
            }
        }
    }
    type Rigid = FixedRigid;
    fn narrow_dual_scaled(d: &Dual<Fx>, exponent: u8) -> Option<Dual<Q14>> {
        let mut out = Dual::<Q14>::default();
        for (o, v) in out.real.iter_mut().zip(&d.real) {
            *o = fx_to_q14(*v, 0)?;
        }
        for (o, v) in out.dual.iter_mut().zip(&d.dual) {
            *o = fx_to_q14(*v, exponent)?;
        }
        Self::fits_dual(&out).then_some(out)
    }
    fn narrow_stretch(s: &Stretch<Fx>, exponent: u8) -> Option<Stretch<Q14>> {
        let mut out = [[Q14::ZERO; 3]; 3];
        for (o, r) in out.iter_mut().zip(s) {
            for (o, v) in o.iter_mut().zip(r) {
                *o = fx_to_q14(*v, exponent)?;
            }
        }
        // The rows' bound of `fits`, with its margin for the blend's rounding.
        let fits = out.iter().all(|r| {
            let l1: i32 = r.iter().map(|v| bits(*v).abs()).sum();
            l1 < ROW_L1_LIMIT - 1
        });
        fits.then_some(out)
    }
    #[inline(always)]
    fn stretch_point(s: &Stretch<Q14>, p: &[Q14; 3]) -> [Q14; 3] {
        // Rows of L1 norm below 2 and |p|∞ < 1 keep the result within (−2, 2); the clamp
        // holds a position beyond that (never baked) at the range's edge. Wrapping, so
        // that a palette built otherwise cannot make the loop panic.
        let p = p.map(bits);
        s.map(|r| {
            let v = bits(r[0])
                .wrapping_mul(p[0])
                .wrapping_add(bits(r[1]).wrapping_mul(p[1]))
                .wrapping_add(bits(r[2]).wrapping_mul(p[2]))
                .wrapping_add(1 << 13)
                >> 14;
            Q14::from_bits(v.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16)
        })
    }
    #[inline(always)]
    fn stretch_normal(s: &Stretch<Q14>, n: &[Q14; 3]) -> [Q14; 3] {
        // The cofactors in Q28, exact: a blended stretch is symmetric positive definite
        // with rows of L1 norm below 2, so its eigenvalues are below 2 and each cofactor
        // (a 2×2 minor) below 4 in magnitude, 2³⁰ (the products and their difference
        // wrap harmlessly). Then `c·n` in 64 bits (Q42), and the result shifted so that its
        // largest component lands in [2¹³, 2¹⁴): the direction keeps 14 bits however small
        // the stretch (a joint scaled by ¼ at exponent 2 has cofactors of 2⁻⁸).
        let e = s.map(|r| r.map(bits));
        let c = |i: usize, j: usize| {
            let (i1, i2, j1, j2) = ((i + 1) % 3, (i + 2) % 3, (j + 1) % 3, (j + 2) % 3);
            i64::from(
                e[i1][j1]
                    .wrapping_mul(e[i2][j2])
                    .wrapping_sub(e[i1][j2].wrapping_mul(e[i2][j1])),
            )
        };
        let n = n.map(|v| i64::from(bits(v)));
        let v: [i64; 3] =
            core::array::from_fn(|i| c(i, 0) * n[0] + c(i, 1) * n[1] + c(i, 2) * n[2]);
        let top = v.iter().fold(0u64, |m, c| m | c.unsigned_abs());
        if top == 0 {
            return [Q14::ZERO; 3];
        }
        // The highest set bit of `top` to bit 13.
        let high = 63 - top.leading_zeros();
        v.map(|c| {
            let c = if high > 13 {
                let shift = high - 13;
                (c + (1 << (shift - 1))) >> shift
            } else {
                c << (13 - high)
            };
            Q14::from_bits(c as i16)
        })
    }
    fn fits_dual(d: &Dual<Q14>) -> bool {
        // Squares (each at most 2³⁰) and their sums in 32 bits: no 64-bit arithmetic, which a
        // Cortex-M0 spends a routine on (this runs once per entry as a palette is filled,
        // and per call for a slice given to `skin_dqs`).
        let squares = |v: &[Q14; 4]| v.map(|c| (bits(c) * bits(c)) as u32);
        // |q|² in Q28 within 2⁻¹⁰ of 1: rounding a unit quaternion's components to Q14
        // moves it by at most 4·2⁻¹⁴. The sum wraps only at exactly 2³² (every component
        // −2), to 0: refused, as 2³² is.
        let [a, b, c, e] = squares(&d.real);
        let norm2 = a.wrapping_add(b).wrapping_add(c).wrapping_add(e);
        let unit = norm2.abs_diff(1 << 28) <= 1 << 18;
        // |d|² < 3 (Q28): a translation shorter than 2√3, which every translation with
        // coordinates in (−2, 2) is; it keeps `Lane::rigid`'s products in 32 bits. Three
        // squares sum below 2³², and the fourth is compared with what they leave.
        let [a, b, c, e] = squares(&d.dual);
        let three = a + b + c;
        unit && three < 3 << 28 && e < (3 << 28) - three
    }
    #[inline(always)]
    fn weigh_flipped(acc: i32, w: Weight15, e: Q14, flip: bool) -> i32 {
        // The weight is negated, not the component: −(w·e) = (−w)·e exactly, and the
        // negation, the same for the bone's eight components, is made once.
        let w = i32::from(w.to_bits());
        let w = if flip { -w } else { w };
        acc.wrapping_add(w.wrapping_mul(bits(e)))
    }
    #[inline(always)]
    fn antipodal(a: &[Q14; 4], b: &[Q14; 4]) -> bool {
        // Unit quaternions (narrowed from unit length: |a|, |b| ≤ 1 + 2⁻¹³): |a·b| < 2²⁹ in
        // Q28, so the products and their sum fit i32.
        // (Wrapping: a palette built otherwise cannot make the loop panic.)
        let dot = a.iter().zip(b).fold(0i32, |s, (a, b)| {
            s.wrapping_add(bits(*a).wrapping_mul(bits(*b)))
        });
        dot < 0
    }
    #[inline(always)]
    fn rigid(real: [i32; 4], dual: [i32; 4]) -> FixedRigid {
        rigid(real, dual)
    }
    #[inline(always)]
    fn rigid_point(r: &FixedRigid, p: &[Q14; 3]) -> [Out16; 3] {
        apply_point(r, p.map(bits)).map(Out16::from_bits)
    }
    #[inline(always)]
    fn rigid_normal(r: &FixedRigid, n: &[Q14; 3]) -> [Q14; 3] {
        // As `linear`, wrapping (see `rigid_point`): the rotation's scale `N` goes with the
        // renormalisation.
        let n = n.map(bits);
        // Rounded to Q14 at half the scale (`N/2` in [½, 1)), as `unit` takes components
        // below 2¹⁶ (an input normal up to 2√3 long).
        Self::unit(r.rotation.map(|[a, b, c]| {
            a.wrapping_mul(n[0])
                .wrapping_add(b.wrapping_mul(n[1]))
                .wrapping_add(c.wrapping_mul(n[2]))
                .wrapping_add(1 << 14)
                >> 15
        }))
    }
    #[inline(always)]
    fn which<F: OfLane>(x: F::Of<Q14>) -> Which<F> {
        Which::Q14(x)
    }
}

/// A `Q14` as `i32`.
#[inline(always)]
fn bits(v: Q14) -> i32 {
    i32::from(v.to_bits())
}

/// [`Lane::settle`] on bits: a blended entry's sum of terms (Q29) rounded to Q14. The result
/// lies between the blended entries, so it fits `I2F14`. Exactly `e₀ + round(Σₖ wₖ(eₖ − e₀))`:
/// the sum is `2¹⁵e₀ + Σₖ wₖ(eₖ − e₀)`.
#[inline(always)]
fn settle(acc: i32) -> i32 {
    acc.wrapping_add(1 << 14) >> 15
}

/// [`Lane::point`] on bits: `r · (p, 1)` in `I16F16`. Q14 × Q14 = Q28; |Σ| < 6 by the row
/// bound (module docs).
#[inline(always)]
fn point(r: [i32; 4], p: [i32; 3]) -> i32 {
    (r[0] * p[0] + r[1] * p[1] + r[2] * p[2] + (r[3] << 14) + (1 << 11)) >> 12
}

/// [`Lane::linear`] on bits: Q28 products → a Q14 component; |v| < 2·|n|∞ by the row bound,
/// so below 4 for any I2F14 normal (unit normals give |v| < 2).
#[inline(always)]
fn linear(r: [i32; 4], n: [i32; 3]) -> i32 {
    (r[0] * n[0] + r[1] * n[1] + r[2] * n[2] + (1 << 13)) >> 14
}

/// Fixed-point inverse square root for a Q28 value `x` (0 < x < 4): returns `(y, s)` with
/// `1/√x ≈ (y / 2¹⁴) · 2^(14 − s)`, `y` in Q14 within [2¹⁴, 2¹⁵], using only 32-bit
/// multiplies: a 96-entry seed table (relative error below 2⁻⁸) and one Newton step
/// (relative error below 2·10⁻⁴, mostly the Q14 rounding of `y`).
fn rsqrt_q28(x: u32) -> Option<(u32, u32)> {
    if x < 1 << 8 {
        // |v| below 2^-10: a degenerate (collapsed) normal.
        return None;
    }
    // Normalise to m in [2^30, 2^32) with an even shift, so that √ of the shift is exact.
    let (lz, m) = normalise_even(x);
    // m / 2^32 is in [¼, 1); its interval of width 1/128 is (m >> 25) − 32.
    let mut y = u32::from(SEED[(m >> 25) as usize - 32]); // Q14
    let m16 = m >> 16; // Q16, in [2^14, 2^16)
    let y2 = (y * y) >> 14; // Q14
    let t = (m16 * y2) >> 16; // Q14, ≈ 1
    y = (y * ((3 << 14) - t)) >> 15;
    // x = m · 2^-lz (Q28): 1/√(x/2^28) = 2^14 · 2^(lz/2) / √m = y·2^-14 · 2^(lz/2 − 2).
    // Callers multiply a Q14 component by y (Q28 product) and shift right by `s` to land in
    // Q14: s = 14 + 2 − lz/2.
    let s = 16 - lz / 2;
    (s >= 1).then_some((y, s))
}

/// `v · 2^−exponent` from `Fx` (24 fractional bits) to `Q14` (14), rounded to nearest once;
/// `None` when out of range.
fn fx_to_q14(v: Fx, exponent: u8) -> Option<Q14> {
    let shift = 10 + u32::from(exponent);
    let bits = v.to_bits().checked_add(1 << (shift - 1))? >> shift;
    i16::try_from(bits).ok().map(Q14::from_bits)
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::lane::Weight15;

    #[test]
    fn rsqrt_is_accurate_over_the_range() {
        let mut x = 1u32 << 8;
        while x < 3 << 30 {
            let (y, s) = rsqrt_q28(x).unwrap();
            let got = f64::from(y) / 16384.0 * 2f64.powi(14 - s as i32);
            let want = 1.0 / (f64::from(x) / f64::from(1u32 << 28)).sqrt();
            assert!(
                (got / want - 1.0).abs() < 2e-4,
                "x={x} got={got} want={want}"
            );
            x = x + x / 7 + 1;
        }
        assert_eq!(rsqrt_q28(0), None);
    }

    #[test]
    fn the_even_normalisation_searches_like_clz() {
        for shift in 0..32 {
            for x in [1u32 << shift, (1 << shift) | 1, u32::MAX >> (31 - shift)] {
                let s = x.leading_zeros() & !1;
                assert_eq!(normalise_even(x), (s, x << s), "{x:#x}");
                // The search itself, whichever branch this target compiles.
                let (mut t, mut m) = (0, x);
                for step in [16, 8, 4, 2] {
                    if m >> (32 - step) == 0 {
                        m <<= step;
                        t += step;
                    }
                }
                assert_eq!((t, m), (s, x << s), "{x:#x}");
            }
        }
    }

    #[test]
    fn fixed_normals_have_unit_length() {
        let m = Affine::<Q14> {
            rows: [[Q14::ZERO; 4]; 3],
        };
        assert_eq!(
            <Q14 as Lane>::normal(&m, &[Q14::ONE; 3].map(|_| Q14::from_num(0.5))),
            [Q14::ZERO; 3]
        );
        let id = <Q14 as Lane>::narrow(&Affine::<Fx>::IDENTITY).unwrap();
        let n = [0.3f32, -0.4, 0.5].map(|v| Q14::from_num(v));
        let out = <Q14 as Lane>::normal(&id, &n);
        let len = out
            .iter()
            .map(|v| v.to_num::<f32>().powi(2))
            .sum::<f32>()
            .sqrt();
        assert!((len - 1.0).abs() < 3e-4, "len {len}");
    }

    #[test]
    fn fixed_normals_stay_within_the_documented_range() {
        // Axis-aligned normals under scaled identities hit rsqrt's overestimate, if any, at
        // full magnitude: every component must stay within 1 + 2^-12 (no clamp needed).
        let limit = 1 << 14 | 1 << 2;
        for scale in 1..=120 {
            let s = scale as f32 / 64.0;
            let mut m = Affine::<Fx>::IDENTITY;
            for i in 0..3 {
                m.rows[i][i] = Fx::from_num(s * 0.95);
            }
            let m = <Q14 as Lane>::narrow(&m).unwrap();
            for axis in 0..3 {
                for sign in [-1.0f32, 1.0] {
                    let mut n = [Q14::ZERO; 3];
                    n[axis] = Q14::from_num(sign * (0.25 + 0.005 * scale as f32));
                    let out = <Q14 as Lane>::normal(&m, &n);
                    for c in out {
                        assert!(i32::from(c.to_bits()).abs() <= limit, "{out:?} scale {s}");
                    }
                    let want = Q14::from_num(sign);
                    assert!((out[axis] - want).abs() < Q14::from_num(3e-4), "{out:?}");
                }
            }
        }
    }

    #[test]
    fn dual_parts_of_length_root_three_or_more_are_refused() {
        let q = |v: f32| Q14::from_num(v);
        let real = [q(0.0), q(0.0), q(0.0), q(1.0)];
        // Every component within (−2, 2), but |d|² = 4·0.99² ≈ 3.9: a translation of 4.
        let long = Dual {
            real,
            dual: [q(0.99); 4],
        };
        assert!(!<Q14 as Lane>::fits_dual(&long));
        // The longest translation with every coordinate in (−2, 2) is accepted.
        let m = Affine::<Fx>::translation([1.99, -1.99, 1.99].map(Fx::from_num));
        let d = <Q14 as Lane>::narrow_dual(&Dual::from_rigid(&m).unwrap()).unwrap();
        assert!(<Q14 as Lane>::fits_dual(&d));
        // Squares that sum to 2³² exactly (every component −2), where 32-bit sums wrap.
        let most = [Q14::MIN; 4];
        assert!(!<Q14 as Lane>::fits_dual(&Dual {
            real: most,
            dual: d.dual
        }));
        assert!(!<Q14 as Lane>::fits_dual(&Dual { real, dual: most }));
        // |d|² just under 3, and exactly 3 (the fourth square takes the sum to the limit).
        let under = Dual {
            real,
            dual: [q(1.0), q(1.0), q(0.0), q(0.999)],
        };
        assert!(<Q14 as Lane>::fits_dual(&under));
        let over = Dual {
            real,
            dual: [q(1.0), q(1.0), q(0.0), q(1.0)],
        };
        assert!(!<Q14 as Lane>::fits_dual(&over));
    }

    #[test]
    fn implicit_weights_are_exact() {
        let w = [0.25f32, 0.125, 0.0].map(|w| <Q14 as Lane>::weight_from_f32(w).unwrap());
        assert_eq!(
            <Q14 as Lane>::implicit_weight(&w),
            Some(Weight15::from_num(0.625))
        );
        let too_much = [Weight15::from_num(0.75); 2];
        assert_eq!(<Q14 as Lane>::implicit_weight(&too_much), None);
    }

    #[test]
    fn narrow_rejects_rows_that_could_overflow() {
        let mut m = Affine::<Fx>::IDENTITY;
        assert!(<Q14 as Lane>::narrow(&m).is_some());
        m.rows[0][1] = Fx::from_num(1.5);
        assert!(<Q14 as Lane>::narrow(&m).is_none());
        let mut t = Affine::<Fx>::IDENTITY;
        t.rows[1][3] = Fx::from_num(2.5);
        assert!(<Q14 as Lane>::narrow(&t).is_none());
    }
}
