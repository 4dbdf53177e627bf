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
        Bounds::new().is_some_and(|b| b.hold(self))
    }

    /// The index of the first transform of `pose` that is not [valid](Self::is_valid), the
    /// bounds converted once (forward kinematics checks every bone each frame).
    pub(crate) fn first_invalid(pose: &[Self]) -> Option<usize> {
        let Some(bounds) = Bounds::new() else {
            return (!pose.is_empty()).then_some(0);
        };
        pose.iter().position(|t| !bounds.hold(t))
    }

    /// The matrix `T·R·S`. Of a [valid](Self::is_valid) transform, rotation entries (within
    /// 5 for components within 1.001) times scales within [`Real::LIMIT`]: products by
    /// [`Real::times_small`], the same value as [`Real::times`] (exact for magnitudes
    /// summing below 127).
    pub fn to_affine(&self) -> Affine<R> {
        let r = self.rotation.to_matrix();
        let s = self.scale;
        let t = self.translation;
        Affine {
            rows: core::array::from_fn(|i| {
                [
                    r[i][0].times_small(s[0]),
                    r[i][1].times_small(s[1]),
                    r[i][2].times_small(s[2]),
                    t[i],
                ]
            }),
        }
    }
}

/// [`Transform::is_valid`]'s bounds in `R`: compared in `R`, no conversion per component.
struct Bounds<R> {
    limit: R,
    unit: R,
}

impl<R: Real> Bounds<R> {
    fn new() -> Option<Self> {
        Some(Self {
            limit: R::from_f32(R::LIMIT).ok()?,
            unit: R::from_f32(1.0 + 1.0e-3).ok()?,
        })
    }

    fn hold(&self, t: &Transform<R>) -> bool {
        let q = t.rotation;
        let within = |v: R| v.abs() <= self.limit;
        let unitish = |v: R| v.abs() <= self.unit;
        t.translation.iter().chain(&t.scale).all(|&v| within(v))
            && [q.x, q.y, q.z, q.w].into_iter().all(unitish)
    }
}
