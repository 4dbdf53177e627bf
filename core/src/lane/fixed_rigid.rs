//! The fixed lane's rigid transform of a blended dual quaternion ([`Lane::rigid`]), in
//! 32-bit arithmetic only: every product is 32 × 32 → 32 bits (one `MULS` on a Cortex-M0,
//! which has no 64-bit multiply and no divide), and the normalisation is one reciprocal
//! from a seed table and a Newton step instead of a 64-bit division.
//!
//! With `q`, `d` the blended real and dual parts and `n = |q|²`, the normalised blend is the
//! rotation `R(q)/n` (each entry a quadratic form `P` of `q` with `|P| ≤ n`) and the
//! translation `2·vec(d·q*)/n`. `n` is brought to `N·2³⁰` with `N` in [1, 2) by a left shift
//! `s`, and `1/N` is formed once to 16 bits. The transform is kept at the scale `N`: each
//! rotation entry is the high half of its numerator `P << s` (`N·R` in Q14, one shift), the
//! translation numerator is brought to the same scale (`N·t` in Q25, two shifts), and the
//! reciprocal is applied once per skinned coordinate ([`apply_point`]: one [`mul_hi`] of the
//! rotated point plus the translation). A normal needs no reciprocal: it is renormalised.
//!
//! [`Lane::rigid`]: super::Lane::rigid

/// Intervals of the reciprocal seed table over [1, 2).
pub(crate) const RECIP_INTERVALS: usize = 256;

/// `RECIP[i] ≈ 2¹⁶ / Nᵢ` at the midpoint `Nᵢ = 1 + (i + ½)/256` of the i-th interval of
/// width 1/256 in [1, 2): `round(2²⁵ / (513 + 2i))`. Within an interval the relative error
/// is at most 2⁻⁹, so one Newton step leaves 2⁻¹⁸. (The DQS assembly kernels read it too,
/// `skin/asm/dqs.rs`.)
pub(crate) const RECIP: [u16; RECIP_INTERVALS] = {
    let mut t = [0u16; RECIP_INTERVALS];
    let mut i = 0;
    while i < RECIP_INTERVALS {
        // Twice the quotient, then halved with rounding.
        let twice = (1u32 << 26) / (513 + 2 * i as u32);
        t[i] = ((twice + 1) >> 1) as u16;
        i += 1;
    }
    t
};

/// A blended dual quaternion as the fixed lane applies it ([`Lane::rigid`]), at the scale
/// `N` in [1, 2) that its reciprocal undoes ([`apply_point`]).
///
/// [`Lane::rigid`]: super::Lane::rigid
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FixedRigid {
    /// The rotation times `N`, rows of Q14 values (each entry within ±2, in `i16`).
    pub(super) rotation: [[i32; 3]; 3],
    /// The translation times `N`, in Q25.
    pub(super) translation: [i32; 3],
    /// `≈ 2¹⁶ / N`.
    pub(super) recip: i32,
}

/// `⌊v · r / 2¹⁶⌋` for `0 < r ≤ 2¹⁶ + 1` and `|v · r / 2¹⁶| < 2³¹`. On ARMv6-M, in 32-bit products: the high half of `v` times `r` (below 2³¹ in magnitude) plus the low half's
/// product (below 2³² unsigned) shifted down; elsewhere one 32 × 32 → 64 multiply (`SMULL`).
/// Both are exact, so every core gives the same bits.
#[inline(always)]
fn mul_hi(v: i32, r: i32) -> i32 {
    if cfg!(skin_v6m) {
        split_mul_hi(v, r)
    } else {
        ((i64::from(v) * i64::from(r)) >> 16) as i32
    }
}

/// [`mul_hi`] in 32-bit products (ARMv6-M).
#[inline(always)]
fn split_mul_hi(v: i32, r: i32) -> i32 {
    let hi = (v >> 16).wrapping_mul(r);
    let lo = ((v & 0xFFFF) as u32).wrapping_mul(r as u32) >> 16;
    hi.wrapping_add(lo as i32)
}

/// `(r, s, n << s)` with `n << s = N·2³⁰`, `N` in [1, 2), and `r ≈ 2¹⁶ / N` (so `2³⁰/n ≈ r·2^(s−16)`),
/// for a Q30 squared norm `n` in [2²⁴, 2³¹). `r` is within 0.85 of `2¹⁶ / N`
/// (`reciprocal_is_accurate_over_the_range`): a relative error below 2.6·10⁻⁵ (`N` near 2)
/// and 1.3·10⁻⁵ (`N` near 1, a unit blend), most of it `r`'s own rounding.
#[inline(always)]
fn reciprocal(n: i32) -> (i32, u32, i32) {
    // A blend's real part has norm at least ¼ (n ≥ 2²⁶ but for rounding); the floor keeps
    // the shift in range whatever the input.
    let (s, nn) = normalise_q30(n.max(1 << 24));
    // nn in [2³⁰, 2³¹): its interval of width 2²² (1/256 of N) is (nn >> 22) − 256.
    let r0 = i32::from(RECIP[(nn >> 22) as usize - RECIP_INTERVALS]);
    // Newton for 1/N: r ← r + r·(1 − N·r), the residual in Q30.
    let residual = (1i32 << 30).wrapping_sub(mul_hi(nn, r0));
    let r = r0.wrapping_add(mul_hi(residual, r0).wrapping_add(1 << 13) >> 14);
    (r, s, nn)
}

/// `(s, n << s)` for the `s` that puts `n` (in [2²⁴, 2³¹)) in [2³⁰, 2³¹): one `CLZ` where
/// the core has it; on ARMv6-M (no `CLZ`) a loop of at most six doublings, none for a unit
/// blend (`n` within 2⁻¹⁰ of 2³⁰ rounds into [2³⁰, 2³¹) or one below it).
#[inline(always)]
fn normalise_q30(n: i32) -> (u32, i32) {
    if cfg!(skin_v6m) {
        let (mut s, mut m) = (0, n);
        while m < 1 << 30 {
            m <<= 1;
            s += 1;
        }
        (s, m)
    } else {
        let s = n.leading_zeros().wrapping_sub(1);
        (s, n.wrapping_shl(s))
    }
}

/// [`Lane::rigid`] for the fixed lane. The sums (Q29, exact) are rounded to Q15, whose
/// products are Q30 and fit `i32`: `|q| ≤ 1 + 2⁻¹¹` (unit palette quaternions, convex
/// weights), and `|d| < √3` ([`Lane::fits_dual`]) keeps each translation numerator
/// `U = vec(d·q*)`, at most `|d|·|q|`, below 2. Each rotation entry is the high half of
/// `P << s`, which is `P·N/n` in Q30 (within ±2³¹: `|P| ≤ n`), so `N·R` in Q14, truncated;
/// the translation `2U/n` times `N` in Q25 is `U·2^(s−4)`, formed as `(U >> 5) << (s + 1)`
/// with the off-diagonal entries' shift (below 2³⁰ in magnitude: `|t| < 2√3/ν`, `ν ≥ ¼`),
/// plus half a unit of the output at that scale (`⌊2⁸·N⌋`, the seed table's index).
///
/// [`Lane::rigid`]: super::Lane::rigid
/// [`Lane::fits_dual`]: super::Lane::fits_dual
#[inline(always)]
pub(super) fn rigid(real: [i32; 4], dual: [i32; 4]) -> FixedRigid {
    let q15 = |a: i32| a.wrapping_add(1 << 13) >> 14;
    let [x, y, z, w] = real.map(q15);
    let [dx, dy, dz, dw] = dual.map(q15);
    let m = |a: i32, b: i32| a.wrapping_mul(b);
    let (ww, xx, yy, zz) = (m(w, w), m(x, x), m(y, y), m(z, z));
    let n = ww.wrapping_add(xx).wrapping_add(yy).wrapping_add(zz);
    let (recip, s, nn) = reciprocal(n);
    // 2¹⁴·N·P/n is the high half of P << s; `|P| ≤ n`, so `P << s` fits. An off-diagonal
    // entry is twice a difference of products: one more shift.
    let entry = |p: i32, shift: u32| p.wrapping_shl(shift) >> 16;
    let diagonal = |p: i32| entry(p, s);
    let off = |a: i32, b: i32| entry(a.wrapping_sub(b), s + 1);
    let sum = |a: i32, b: i32| entry(a.wrapping_add(b), s + 1);
    // 2²⁵·N·2U/n = U·2^(s−4) for the Q30 numerator U; plus half an output unit at this
    // scale, 2⁸·N (truncated: `nn >> 22`), so that `apply_point`'s floor rounds.
    let half = nn >> 22;
    let translation = |u: i32| (u >> 5).wrapping_shl(s + 1).wrapping_add(half);
    let (xy, xz, yz) = (m(x, y), m(x, z), m(y, z));
    let (wx, wy, wz) = (m(w, x), m(w, y), m(w, z));
    // w·d − dw·v + v × d, each product below 2³¹ and the sum below 2³¹ in magnitude (the
    // partial sums may wrap).
    let u = |a: i32, da: i32, (b, db): (i32, i32), (c, dc): (i32, i32)| {
        m(w, da)
            .wrapping_sub(m(dw, a))
            .wrapping_add(m(b, dc))
            .wrapping_sub(m(c, db))
    };
    let u = [
        u(x, dx, (y, dy), (z, dz)),
        u(y, dy, (z, dz), (x, dx)),
        u(z, dz, (x, dx), (y, dy)),
    ];
    FixedRigid {
        rotation: [
            [
                diagonal(ww.wrapping_add(xx).wrapping_sub(yy).wrapping_sub(zz)),
                off(xy, wz),
                sum(xz, wy),
            ],
            [
                sum(xy, wz),
                diagonal(ww.wrapping_sub(xx).wrapping_add(yy).wrapping_sub(zz)),
                off(yz, wx),
            ],
            [
                off(xz, wy),
                sum(yz, wx),
                diagonal(ww.wrapping_sub(xx).wrapping_sub(yy).wrapping_add(zz)),
            ],
        ],
        translation: u.map(translation),
        recip,
    }
}

/// A point (Q14, `|p| < 2√3`) through a [`FixedRigid`], in `I16F16`: per coordinate the
/// row's product with the point (Q28 at the scale `N`, below 2³¹ as `|N·R·p| < 4√3`)
/// truncated to Q25, the translation added (`|N·(Rp + t)| < 2·(2√3 + 8√3)`, below 2³¹ in
/// Q25; with it the half unit that makes the floor below round), and the reciprocal
/// applied once: [`mul_hi`] and a shift, the floor of the product. Wrapping, so that a
/// palette built otherwise cannot make the loop panic.
#[inline(always)]
pub(super) fn apply_point(r: &FixedRigid, p: [i32; 3]) -> [i32; 3] {
    core::array::from_fn(|i| {
        let [a, b, c] = r.rotation[i];
        let rp = a
            .wrapping_mul(p[0])
            .wrapping_add(b.wrapping_mul(p[1]))
            .wrapping_add(c.wrapping_mul(p[2]));
        // 2¹⁶·v = (2²⁵·N·v)·(2¹⁶/N) / 2²⁵.
        mul_hi((rp >> 3).wrapping_add(r.translation[i]), r.recip) >> 9
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reciprocal_is_accurate_over_the_range() {
        // Every n from a unit blend's down to a quarter-norm blend's and below, in steps
        // that visit every seed interval many times over.
        let mut n = 1i32 << 24;
        let mut worst = [0.0f64; 2];
        while n < i32::MAX - 4099 {
            let (r, s, _) = reciprocal(n);
            let big_n = f64::from(n) * 2f64.powi(s as i32) / 2f64.powi(30);
            assert!((1.0..2.0).contains(&big_n), "n={n} s={s}");
            let err = (f64::from(r) - 65536.0 / big_n).abs();
            let half = usize::from(big_n >= 1.5);
            worst[half] = worst[half].max(err);
            n += 4099;
        }
        assert!(worst[0] <= 0.85 && worst[1] <= 0.85, "{worst:?}");
    }

    #[test]
    fn both_products_are_the_product() {
        let values = [
            0,
            1,
            -1,
            65535,
            -65536,
            1 << 30,
            -(1 << 30),
            i32::MAX,
            i32::MIN + 1,
        ];
        for v in values {
            for r in [1, 2, 255, 32768, 40000, 65535, 65536, 65537] {
                let product = i64::from(v) * i64::from(r);
                if i32::try_from(product >> 16).is_err() {
                    continue;
                }
                // The ARMv6-M form as well, whichever form this target compiles.
                assert_eq!(i64::from(mul_hi(v, r)), product >> 16, "{v} · {r}");
                assert_eq!(i64::from(split_mul_hi(v, r)), product >> 16, "{v} · {r}");
            }
        }
    }

    fn scaled(v: i32, by: f64) -> i32 {
        (f64::from(v) * by).round() as i32
    }

    #[test]
    fn a_unit_quaternion_gives_its_rotation() {
        // 90° about z: q = (0, 0, sin 45°, cos 45°), d = ½(0, t)·q for t = (0.5, −0.25, 1).
        let h = core::f64::consts::FRAC_1_SQRT_2;
        let q29 = |v: f64| (v * f64::from(1 << 29)).round() as i32;
        let real = [0.0, 0.0, h, h].map(q29);
        let t = [0.5, -0.25, 1.0];
        // ½(0, t)·(v, w) = ½(w·t + t × v, −t·v) with v = (0, 0, h), w = h.
        let dual = [
            0.5 * (h * t[0] + t[1] * h),
            0.5 * (h * t[1] - t[0] * h),
            0.5 * (h * t[2]),
            -0.5 * (t[2] * h),
        ]
        .map(q29);
        // The same transform whatever the blend's norm (a quarter is the least there is).
        for scale in [1.0, 0.8, 0.5, 0.26] {
            let got = rigid(
                real.map(|v| scaled(v, scale)),
                dual.map(|v| scaled(v, scale)),
            );
            // The rotation at the scale the reciprocal undoes: `N·R` in Q14, `N ≈ 2¹⁶/r`.
            let n = 65536.0 / f64::from(got.recip);
            let want = [[0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]];
            for (g, w) in got.rotation.iter().flatten().zip(want.iter().flatten()) {
                let err = (f64::from(*g) / 16384.0 / n - w).abs();
                assert!(err < 2e-4, "{scale}: {:?}", got.rotation);
            }
            // Points: R·p + t.
            for p in [[0.0, 0.0, 0.0], [0.5, -1.0, 0.25], [-0.99, 0.99, -0.99]] {
                let out = apply_point(&got, p.map(|v: f64| (v * 16384.0).round() as i32));
                let rp = [-p[1], p[0], p[2]];
                for i in 0..3 {
                    let err = (f64::from(out[i]) / 65536.0 - (rp[i] + t[i])).abs();
                    assert!(err < 3e-4, "{scale} {p:?}: {out:?}");
                }
            }
        }
    }
}
