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
///
/// Word-aligned whatever `T` is (an `I2F14` dual quaternion, 16 bytes, included): the
/// Cortex-M4 fixed DQS kernel reads two components with one `LDRD`, and the Cortex-M0
/// kernel copies a palette a word at a time, both of which need 4-byte alignment.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
#[repr(align(4))]
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

/// A joint's scale/shear: the symmetric factor `S` of the polar decomposition `A = R·S` of
/// its matrix's linear part, rows first. Dual quaternion skinning with scale (Kavan et al.)
/// applies the blend of the bones' `S` to a vertex first, then the blended rigid part.
pub type Stretch<T> = [[T; 3]; 3];

/// The stretches of a palette of dual quaternions with scale, as the skinning loop reads
/// them (`crate::skin::SkinnedMesh::skin_dqs_stretched`): one per joint, each stored as
/// `S · 2^−exponent` with the joint's translation scaled alike (the palette exponent of
/// `crate::palette::Palette`, which lets a fixed-point palette hold joints scaled up to
/// 4×); the skinned positions are widened by `2^exponent` afterwards. The exponent is
/// always 0 in `f32`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stretches<'a, T> {
    /// One stretch per joint, in joint order (the identity, scaled, for a rigid joint).
    pub matrices: &'a [Stretch<T>],
    /// The exponent `e`: the stretches and translations are stored `2^e` times smaller.
    pub exponent: u8,
}

/// The cofactor matrix of `s`: its inverse transpose times `det s`.
#[inline(always)]
pub(crate) fn cofactors(s: &Stretch<f32>) -> Stretch<f32> {
    core::array::from_fn(|i| {
        core::array::from_fn(|j| {
            let (i1, i2, j1, j2) = ((i + 1) % 3, (i + 2) % 3, (j + 1) % 3, (j + 2) % 3);
            s[i1][j1] * s[i2][j2] - s[i1][j2] * s[i2][j1]
        })
    })
}

/// The smallest determinant a joint matrix's linear part may have to be split into a
/// rotation and a scale/shear ([`Dual::split`]): the split inverts the matrix, and below
/// 10⁻⁶ (every axis scaled below 1%, or one flattened to nothing) the inverse's entries pass
/// 10⁶ and the vertices the joint moves collapse onto a plane or a line anyway.
pub const SPLIT_MIN_DETERMINANT: f32 = 1e-6;

impl Dual<f32> {
    /// A joint matrix split as Kavan et al. skin a joint with scale: `m = [R·S | t]` into
    /// the unit dual quaternion of the rigid part `[R | t]` and the scale/shear `S`
    /// (symmetric, positive definite; the polar decomposition of the linear part, by scaled
    /// Newton iteration in `f64`). `None` for the stretch of a matrix that is rigid within
    /// [`RIGID_TOLERANCE`] (its dual quaternion is [`Dual::from_rigid`]'s: the same bits
    /// as for a palette without scale). `Err(determinant)` for a matrix the split cannot
    /// represent: a NaN or infinite entry (the determinant is then NaN), a reflection
    /// (negative) or one that is not invertible (below [`SPLIT_MIN_DETERMINANT`]).
    ///
    /// ```
    /// use skin_core::affine::Affine;
    /// use skin_core::dual::Dual;
    /// let mut m = Affine::<f32>::translation([1.0, 0.0, 0.0]);
    /// m.rows[0][0] = 2.0; // twice as long along x
    /// let (d, s) = Dual::split(&m).unwrap();
    /// assert_eq!(d, Dual::from_rigid(&Affine::translation([1.0, 0.0, 0.0])).unwrap());
    /// assert!((s.unwrap()[0][0] - 2.0).abs() < 1e-6);
    /// m.rows[1][1] = -1.0; // a mirror
    /// assert!(Dual::split(&m).unwrap_err() < 0.0);
    /// ```
    pub fn split(m: &Affine<f32>) -> Result<(Self, Option<Stretch<f32>>), f32> {
        let a = m.rows.map(|r| [r[0], r[1], r[2]].map(f64::from));
        let det = det3(&a);
        if !det.is_finite() {
            return Err(f32::NAN);
        }
        if det < f64::from(SPLIT_MIN_DETERMINANT) {
            return Err(det as f32);
        }
        if let Ok(d) = Self::from_rigid(m) {
            return Ok((d, None));
        }
        let r = polar(a);
        // S = RᵀA, symmetrised (it is symmetric up to the iteration's rounding).
        let sa: Stretch<f64> = core::array::from_fn(|i| {
            core::array::from_fn(|j| (0..3).map(|k| r[k][i] * a[k][j]).sum())
        });
        let stretch = core::array::from_fn(|i| {
            core::array::from_fn(|j| (0.5 * (sa[i][j] + sa[j][i])) as f32)
        });
        let mut rigid = *m;
        for (row, r) in rigid.rows.iter_mut().zip(r) {
            for (e, v) in row.iter_mut().zip(r) {
                *e = v as f32;
            }
        }
        // R is a rotation to f64 rounding, so within the tolerance in f32.
        let dual = Self::from_rigid(&rigid).map_err(|_| det as f32)?;
        Ok((dual, Some(stretch)))
    }
}

/// The determinant of a 3×3 matrix.
fn det3(a: &[[f64; 3]; 3]) -> f64 {
    a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1])
        - a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0])
        + a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0])
}

/// The rotation `R` of the polar decomposition `A = R·S` of a matrix with a positive
/// determinant: Newton's iteration `X ← ½(γX + X⁻ᵀ/γ)` with Higham's scaling
/// `γ = |det X|^(−1/3)`, which converges quadratically from any such `A` (a few steps for
/// scales within 10⁻²…10²).
fn polar(a: [[f64; 3]; 3]) -> [[f64; 3]; 3] {
    let mut x = a;
    for _ in 0..32 {
        let det = det3(&x);
        // X⁻ᵀ = cof(X) / det X.
        let c = |i: usize, j: usize| {
            let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
            let (j1, j2) = ((j + 1) % 3, (j + 2) % 3);
            x[i1][j1] * x[i2][j2] - x[i1][j2] * x[i2][j1]
        };
        let g = libm::cbrt(1.0 / det);
        let next: [[f64; 3]; 3] = core::array::from_fn(|i| {
            core::array::from_fn(|j| 0.5 * (g * x[i][j] + c(i, j) / (g * det)))
        });
        let change: f64 = (0..9)
            .map(|k| libm::fabs(next[k / 3][k % 3] - x[k / 3][k % 3]))
            .sum();
        x = next;
        if change < 1e-15 {
            break;
        }
    }
    x
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
