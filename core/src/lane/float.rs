//! The `f32` lane.

use super::{Lane, OfLane, Which, WEIGHT_TOLERANCE};
use crate::affine::Affine;
use crate::dual::{cofactors, Dual, Stretch};
use crate::num::{NumError, Real};

/// `1/√len2` for `len2 > 0`: micromath's fast inverse square root (relative error up to
/// ~3.4e-2), then two Newton steps (each squares the error: ~1.7e-3, then ~5e-6, near f32
/// rounding).
#[inline(always)]
fn inv_len(len2: f32) -> f32 {
    let half = 0.5 * len2;
    let mut y = micromath::F32Ext::invsqrt(len2);
    for _ in 0..2 {
        y *= 1.5 - half * y * y;
    }
    y
}

impl Lane for f32 {
    type Real = f32;
    type Weight = f32;
    type Acc = f32;
    type Out = f32;
    const NAME: &'static str = "f32";

    fn from_f32(v: f32) -> Result<Self, NumError> {
        <f32 as Real>::from_f32(v)
    }
    fn to_f32(self) -> f32 {
        self
    }
    fn weight_from_f32(w: f32) -> Result<f32, NumError> {
        <f32 as Real>::from_f32(w)
    }
    fn weight_to_f32(w: f32) -> f32 {
        w
    }
    fn out_to_f32(o: f32) -> f32 {
        o
    }
    fn implicit_weight(w: &[f32]) -> Option<f32> {
        let rest = 1.0 - w.iter().sum::<f32>();
        (rest >= -WEIGHT_TOLERANCE).then_some(rest.max(0.0))
    }
    const MAX_EXPONENT: u8 = 0;

    fn narrow_scaled(m: &Affine<f32>, exponent: u8) -> Option<Affine<f32>> {
        let s = 1.0 / f32::from(1u16 << exponent);
        let m = Affine {
            rows: m.rows.map(|r| r.map(|v| v * s)),
        };
        Self::fits(&m).then_some(m)
    }
    fn widen(o: f32, exponent: u8) -> f32 {
        o * f32::from(1u16 << exponent)
    }
    fn offset(o: f32, c: f32) -> f32 {
        o + c
    }
    fn fits(m: &Affine<f32>) -> bool {
        m.rows.iter().flatten().all(|v| v.is_finite())
    }
    #[inline(always)]
    fn lead_weight(w: [f32; 3]) -> f32 {
        // Exact blend in the bind pose: with s = (w₁ + w₂) + w₃ in [0, 2] (validated),
        // s + (1 − s) rounds to exactly 1, and the blend sums the diagonal in that order.
        1.0 - ((w[0] + w[1]) + w[2])
    }
    #[inline(always)]
    fn term(w: f32, e: f32) -> f32 {
        w * e
    }
    #[inline(always)]
    fn weigh(acc: f32, w: f32, e: f32) -> f32 {
        acc + w * e
    }
    #[inline(always)]
    fn settle(acc: f32) -> f32 {
        acc
    }
    #[inline(always)]
    fn point(r: &[f32; 4], p: &[f32; 3]) -> f32 {
        // The translation first: three multiply-adds into it.
        r[3] + r[0] * p[0] + r[1] * p[1] + r[2] * p[2]
    }
    #[inline(always)]
    fn linear(r: &[f32; 4], n: &[f32; 3]) -> f32 {
        r[0] * n[0] + r[1] * n[1] + r[2] * n[2]
    }
    #[inline(always)]
    fn unit(v: [f32; 3]) -> [f32; 3] {
        let len2 = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
        if len2 <= f32::MIN_POSITIVE {
            return [0.0; 3];
        }
        let y = inv_len(len2);
        v.map(|c| c * y)
    }
    type Rigid = Affine<f32>;
    fn narrow_dual_scaled(d: &Dual<f32>, exponent: u8) -> Option<Dual<f32>> {
        let s = 1.0 / f32::from(1u16 << exponent);
        let d = Dual {
            real: d.real,
            dual: d.dual.map(|v| v * s),
        };
        Self::fits_dual(&d).then_some(d)
    }
    fn narrow_stretch(s: &Stretch<f32>, exponent: u8) -> Option<Stretch<f32>> {
        let by = 1.0 / f32::from(1u16 << exponent);
        let s = s.map(|r| r.map(|v| v * by));
        s.iter().flatten().all(|v| v.is_finite()).then_some(s)
    }
    #[inline(always)]
    fn stretch_point(s: &Stretch<f32>, p: &[f32; 3]) -> [f32; 3] {
        s.map(|r| r[0] * p[0] + r[1] * p[1] + r[2] * p[2])
    }
    #[inline(always)]
    fn stretch_normal(s: &Stretch<f32>, n: &[f32; 3]) -> [f32; 3] {
        Self::stretch_point(&cofactors(s), n)
    }
    #[inline]
    fn fits_dual(d: &Dual<f32>) -> bool {
        d.real.iter().chain(&d.dual).all(|v| v.is_finite())
    }
    #[inline(always)]
    fn weigh_flipped(acc: f32, w: f32, e: f32, flip: bool) -> f32 {
        // The component is negated (a conditional `VNEG` on the M4F measured 9 instructions
        // a vertex fewer than negating the weight).
        acc + w * if flip { -e } else { e }
    }
    #[inline(always)]
    fn antipodal(a: &[f32; 4], b: &[f32; 4]) -> bool {
        a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3] < 0.0
    }
    #[inline(always)]
    fn rigid(q: [f32; 4], d: [f32; 4]) -> Affine<f32> {
        let [x, y, z, w] = q;
        let [dx, dy, dz, dw] = d;
        // The rotation of q/|q| is R(q)/|q|², the translation 2·vec(d·q*)/|q|².
        let s = 2.0 / (x * x + y * y + z * z + w * w);
        let (xx, yy, zz) = (x * x, y * y, z * z);
        let (xy, xz, yz) = (x * y, x * z, y * z);
        let (wx, wy, wz) = (w * x, w * y, w * z);
        let t = [
            w * dx - dw * x + (y * dz - z * dy),
            w * dy - dw * y + (z * dx - x * dz),
            w * dz - dw * z + (x * dy - y * dx),
        ];
        Affine {
            rows: [
                [1.0 - s * (yy + zz), s * (xy - wz), s * (xz + wy), s * t[0]],
                [s * (xy + wz), 1.0 - s * (xx + zz), s * (yz - wx), s * t[1]],
                [s * (xz - wy), s * (yz + wx), 1.0 - s * (xx + yy), s * t[2]],
            ],
        }
    }
    #[inline(always)]
    fn rigid_point(m: &Affine<f32>, p: &[f32; 3]) -> [f32; 3] {
        m.rows.map(|r| Self::point(&r, p))
    }
    #[inline(always)]
    fn rigid_normal(m: &Affine<f32>, n: &[f32; 3]) -> [f32; 3] {
        Self::normal(m, n)
    }
    #[inline(always)]
    fn which<F: OfLane>(x: F::Of<f32>) -> Which<F> {
        Which::F32(x)
    }
}
