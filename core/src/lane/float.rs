//! The `f32` lane.

use super::{Lane, OfLane, Which, WEIGHT_TOLERANCE};
use crate::affine::Affine;
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
    fn narrow(m: &Affine<f32>) -> Option<Affine<f32>> {
        Self::fits(m).then_some(*m)
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
    #[inline(always)]
    fn which<F: OfLane>(x: F::Of<f32>) -> Which<F> {
        Which::F32(x)
    }
}
