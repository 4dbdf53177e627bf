//! Unit dual quaternions: a rigid transform (a rotation, then a translation) as eight
//! numbers, the palette entry of dual quaternion skinning (Kavan et al.).
//!
//! A rigid transform `p ↦ Rp + t` is the dual quaternion `q + ε·d` with `q` the unit
//! rotation quaternion of `R` and `d = ½·(0, t)·q`. Blending unit dual quaternions and
//! renormalising by the real part's norm gives another rigid transform, which is why dual
//! quaternion skinning keeps a twisted limb's volume where linear blending collapses it.
//!
//! ```
//! use skin_core::affine::Affine;
//! use skin_core::dual::Dual;
//! let m = Affine::<f32>::translation([2.0, 0.0, -4.0]);
//! let d = Dual::from_rigid(&m).unwrap();
//! assert_eq!(d.real, [0.0, 0.0, 0.0, 1.0]);
//! assert_eq!(d.dual, [1.0, 0.0, -2.0, 0.0]);
//! // A scale cannot be represented: the error is how far the matrix is from a rotation.
//! let mut s = Affine::<f32>::IDENTITY;
//! s.rows[0][0] = 1.5;
//! assert!(Dual::from_rigid(&s).unwrap_err() > 1.0);
//! ```

use crate::affine::Affine;
use crate::num::Real;
use crate::quat::Quat;

/// How far a joint matrix's linear part may depart from a rotation and still be skinned as
/// one: the largest entry of `AᵀA − I` and `|det A − 1|`. A scale of `1 + s` departs by
/// about `2s`, which moves a vertex at distance 1 by `s`: 2⁻¹⁶ keeps that below a quarter of
/// the fixed lane's own palette rounding (2⁻¹⁵), while the rounding of joint matrices that
/// glTF exporters compute in `f32` (about 10⁻⁶) passes.
pub const RIGID_TOLERANCE: f32 = 1.0 / 65536.0;

/// A dual quaternion `real + ε·dual`, each part in glTF's component order `[x, y, z, w]`.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Dual<T> {
    /// The rotation quaternion.
    pub real: [T; 4],
    /// `½·(0, t)·real` for the translation `t`.
    pub dual: [T; 4],
}

impl<R: Real> Dual<R> {
    /// The unit dual quaternion of a rigid matrix, its rotation quaternion in the hemisphere
    /// `w ≥ 0`; `Err(deviation)` when the linear part departs from a rotation by more than
    /// [`RIGID_TOLERANCE`] (a scale, a shear or a reflection).
    pub fn from_rigid(m: &Affine<R>) -> Result<Self, f32> {
        let deviation = deviation(m);
        if deviation > RIGID_TOLERANCE {
            return Err(deviation);
        }
        let q = rotation(m);
        let [x, y, z, w] = q;
        let half = |v: R| v * R::HALF;
        let [tx, ty, tz] = m.translation_part().map(half);
        // ½(0, t)·(w, v) = ½(−t·v, w·t + t × v).
        let dual = [
            w.times(tx) + ty.times(z) - tz.times(y),
            w.times(ty) + tz.times(x) - tx.times(z),
            w.times(tz) + tx.times(y) - ty.times(x),
            -(tx.times(x) + ty.times(y) + tz.times(z)),
        ];
        Ok(Self { real: q, dual })
    }
}

/// The largest entry of `AᵀA − I` and `|det A − 1|`, as `f32` (infinite, never NaN, for
/// non-finite input or overflowing products).
fn deviation<R: Real>(m: &Affine<R>) -> f32 {
    let a = m.rows.map(|r| [r[0], r[1], r[2]].map(|v| v.to_f32()));
    if a.iter().flatten().any(|v| !v.is_finite()) {
        return f32::INFINITY;
    }
    let mut worst = 0.0f32;
    for i in 0..3 {
        for j in 0..3 {
            let dot: f32 = (0..3).map(|k| a[k][i] * a[k][j]).sum();
            let want = if i == j { 1.0 } else { 0.0 };
            // `max` would pass over a NaN (from entries whose products overflow).
            let off = (dot - want).abs();
            worst = if off.is_finite() {
                worst.max(off)
            } else {
                f32::INFINITY
            };
        }
    }
    let det = a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1])
        - a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0])
        + a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]);
    let off = (det - 1.0).abs();
    if off.is_finite() {
        worst.max(off)
    } else {
        f32::INFINITY
    }
}

/// The unit quaternion `[x, y, z, w]` of a rotation matrix, `w ≥ 0` (Shepperd's method:
/// from the largest of `w², x², y², z²`, so the square root is at least 1 and the divisions
/// well conditioned).
fn rotation<R: Real>(m: &Affine<R>) -> [R; 4] {
    let r = |i: usize, j: usize| m.rows[i][j];
    let one = R::ONE;
    let quarter = R::HALF * R::HALF;
    let trace = r(0, 0) + r(1, 1) + r(2, 2);
    let root = |v: R| {
        let s = v.sqrt();
        s + s
    };
    let [x, y, z, w] = if trace > R::ZERO {
        let s = root(trace + one);
        [
            (r(2, 1) - r(1, 2)) / s,
            (r(0, 2) - r(2, 0)) / s,
            (r(1, 0) - r(0, 1)) / s,
            s.times(quarter),
        ]
    } else if r(0, 0) > r(1, 1) && r(0, 0) > r(2, 2) {
        let s = root(one + r(0, 0) - r(1, 1) - r(2, 2));
        [
            s.times(quarter),
            (r(0, 1) + r(1, 0)) / s,
            (r(0, 2) + r(2, 0)) / s,
            (r(2, 1) - r(1, 2)) / s,
        ]
    } else if r(1, 1) > r(2, 2) {
        let s = root(one + r(1, 1) - r(0, 0) - r(2, 2));
        [
            (r(0, 1) + r(1, 0)) / s,
            s.times(quarter),
            (r(1, 2) + r(2, 1)) / s,
            (r(0, 2) - r(2, 0)) / s,
        ]
    } else {
        let s = root(one + r(2, 2) - r(0, 0) - r(1, 1));
        [
            (r(0, 2) + r(2, 0)) / s,
            (r(1, 2) + r(2, 1)) / s,
            s.times(quarter),
            (r(1, 0) - r(0, 1)) / s,
        ]
    };
    let q = Quat { x, y, z, w }.normalize();
    let q = if q.w < R::ZERO {
        Quat {
            x: -q.x,
            y: -q.y,
            z: -q.z,
            w: -q.w,
        }
    } else {
        q
    };
    [q.x, q.y, q.z, q.w]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::num::Fx;

    #[test]
    fn rotations_round_trip_through_every_branch() {
        // Rotations by angles near 0 and 180° about each axis reach each of Shepperd's
        // branches; the quaternion's matrix must give the matrix back.
        for axis in 0..3 {
            for angle in [0.3f32, 2.0, 3.1, -3.1, core::f32::consts::PI] {
                let (s, c) = (libm::sinf(angle * 0.5), libm::cosf(angle * 0.5));
                let mut v = [0.0; 4];
                v[axis] = s;
                v[3] = c;
                let q = Quat::<f32>::from_f32(v).unwrap();
                let mut m = Affine::<f32>::translation([0.5, -0.25, 1.0]);
                for (row, src) in m.rows.iter_mut().zip(q.to_matrix()) {
                    row[..3].copy_from_slice(&src);
                }
                let d = Dual::from_rigid(&m).unwrap();
                assert!(d.real[3] >= 0.0);
                let back = Quat {
                    x: d.real[0],
                    y: d.real[1],
                    z: d.real[2],
                    w: d.real[3],
                }
                .to_matrix();
                for (a, b) in back.iter().flatten().zip(q.to_matrix().iter().flatten()) {
                    assert!((a - b).abs() < 1e-5, "axis {axis} angle {angle}");
                }
                // The same rotation in fixed point: the same quaternion up to its sign
                // (which, at 180°, w ≈ 0 leaves to rounding).
                let f = Dual::<Fx>::from_rigid(&m.convert().unwrap()).unwrap();
                let dot: f32 = f.real.iter().zip(d.real).map(|(a, b)| a.to_f32() * b).sum();
                assert!(
                    (dot.abs() - 1.0).abs() < 1e-5,
                    "fixed, axis {axis} angle {angle}"
                );
            }
        }
    }

    #[test]
    fn scale_shear_and_reflection_are_refused() {
        let mut shear = Affine::<f32>::IDENTITY;
        shear.rows[0][1] = 0.01;
        assert!(Dual::from_rigid(&shear).is_err());
        let mut mirror = Affine::<f32>::IDENTITY;
        mirror.rows[2][2] = -1.0;
        assert_eq!(Dual::from_rigid(&mirror), Err(2.0));
        let mut nan = Affine::<f32>::IDENTITY;
        nan.rows[1][1] = f32::NAN;
        assert_eq!(Dual::from_rigid(&nan), Err(f32::INFINITY));
    }
}
