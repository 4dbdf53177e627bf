//! Translation / rotation / scale: a bone's local transform, as glTF stores it.

use crate::affine::Affine;
use crate::num::{NumError, Real};
use crate::quat::Quat;

/// A local transform: scale, then rotate, then translate (`T·R·S`, as in glTF).
///
/// ```
/// use skin_core::transform::Transform;
/// // 90° about Z, then move along X.
/// let s = core::f32::consts::FRAC_1_SQRT_2;
/// let t = Transform::<f32>::from_f32([1.0, 0.0, 0.0], [0.0, 0.0, s, s], [1.0; 3]).unwrap();
/// let p = t.to_affine().transform_point([1.0, 0.0, 0.0]);
/// assert!((p[0] - 1.0).abs() < 1e-6 && (p[1] - 1.0).abs() < 1e-6);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Transform<R> {
    /// Translation.
    pub translation: [R; 3],
    /// Rotation (unit quaternion).
    pub rotation: Quat<R>,
    /// Per-axis scale.
    pub scale: [R; 3],
}

impl<R: Real> Default for Transform<R> {
    fn default() -> Self {
        Self::IDENTITY
    }
}

impl<R: Real> Transform<R> {
    /// No translation, rotation or scale.
    pub const IDENTITY: Self = Self {
        translation: [R::ZERO; 3],
        rotation: Quat::IDENTITY,
        scale: [R::ONE; 3],
    };

    /// Checked conversion; the rotation is normalised (see [`Quat::from_f32`]).
    pub fn from_f32(t: [f32; 3], r: [f32; 4], s: [f32; 3]) -> Result<Self, NumError> {
        let conv = |v: [f32; 3]| -> Result<[R; 3], NumError> {
            Ok([R::from_f32(v[0])?, R::from_f32(v[1])?, R::from_f32(v[2])?])
        };
        Ok(Self {
            translation: conv(t)?,
            rotation: Quat::from_f32(r)?,
            scale: conv(s)?,
        })
    }

    /// The matrix `T·R·S`.
    pub fn to_affine(&self) -> Affine<R> {
        let r = self.rotation.to_matrix();
        let s = self.scale;
        let t = self.translation;
        Affine {
            rows: core::array::from_fn(|i| [r[i][0] * s[0], r[i][1] * s[1], r[i][2] * s[2], t[i]]),
        }
    }
}
