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

    /// Checked conversion; the rotation is normalised (see [`Quat::from_f32`]). Translation
    /// and scale components must be within [`Real::LIMIT`] (64 in fixed point, so that
    /// `rotation × scale` and forward kinematics stay inside the format), else
    /// [`NumError::OutOfRange`].
    ///
    /// ```
    /// use skin_core::num::{Fx, NumError};
    /// use skin_core::transform::Transform;
    /// let r = [0.0, 0.0, 0.0, 1.0];
    /// assert!(Transform::<Fx>::from_f32([1.0; 3], r, [2.0; 3]).is_ok());
    /// assert_eq!(Transform::<Fx>::from_f32([0.0; 3], r, [100.0; 3]), Err(NumError::OutOfRange));
    /// ```
    pub fn from_f32(t: [f32; 3], r: [f32; 4], s: [f32; 3]) -> Result<Self, NumError> {
        let conv = |v: [f32; 3]| -> Result<[R; 3], NumError> {
            let mut out = [R::ZERO; 3];
            for (o, v) in out.iter_mut().zip(v) {
                *o = R::from_f32(v)?;
                if v.abs() > R::LIMIT {
                    return Err(NumError::OutOfRange);
                }
            }
            Ok(out)
        };
        Ok(Self {
            translation: conv(t)?,
            rotation: Quat::from_f32(r)?,
            scale: conv(s)?,
        })
    }

    /// `true` when every component is finite and within [`Real::LIMIT`] (what
    /// [`Transform::from_f32`] guarantees; checked again where transforms are taken in,
    /// since the fields are public).
    pub fn is_valid(&self) -> bool {
        let q = self.rotation;
        // Compared in `R`: no conversion per component.
        let (Ok(limit), Ok(unit)) = (R::from_f32(R::LIMIT), R::from_f32(1.0 + 1.0e-3)) else {
            return false;
        };
        let within = |v: R| v.abs() <= limit;
        let unitish = |v: R| v.abs() <= unit;
        self.translation
            .iter()
            .chain(&self.scale)
            .all(|&v| within(v))
            && [q.x, q.y, q.z, q.w].into_iter().all(unitish)
    }

    /// The matrix `T·R·S`.
    pub fn to_affine(&self) -> Affine<R> {
        let r = self.rotation.to_matrix();
        let s = self.scale;
        let t = self.translation;
        Affine {
            rows: core::array::from_fn(|i| {
                [
                    r[i][0].times(s[0]),
                    r[i][1].times(s[1]),
                    r[i][2].times(s[2]),
                    t[i],
                ]
            }),
        }
    }
}
