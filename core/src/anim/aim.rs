//! Look-at (aim) for a head or an eye: a joint turned so that a forward axis of its own
//! points at a target, rolled so that an up axis of its own leans towards an up vector,
//! within swing and twist limits from its rest rotation.
//!
//! In the joint's parent frame, with the pose's world matrices:
//!
//! 1. the forward axis turns by the shortest arc onto the direction to the target;
//! 2. the joint rolls about that direction so that its up axis, projected across it, meets
//!    the up vector projected the same way (no roll when either projection vanishes: the
//!    target straight above or below);
//! 3. the weight moves the rotation from the pose's along the shortest arc (slerp);
//! 4. the [`SwingTwist`] limit holds it, measured from the rest rotation about the forward
//!    axis: the swing is how far the joint looks away from its rest direction, the twist
//!    its roll.

use super::error::{AnimError, Input};
use super::ik::point;
use super::limit::{Frame, Prepared, SwingTwist};
use super::vector::{
    arc, direction_in, dot, normalized, perpendicular, roll, rotate, scale, sub, unit, Vec3,
};
use crate::affine::Affine;
use crate::num::Real;
use crate::skeleton::Skeleton;
use crate::transform::Transform;

/// A joint that looks at targets.
///
/// ```
/// use skin_core::affine::Affine;
/// use skin_core::anim::{Aim, SwingTwist};
/// use skin_core::skeleton::Skeleton;
/// use skin_core::transform::Transform;
/// // A neck and a head 1 above it, looking along +Z (its forward), +Y up.
/// let up = Transform::<f32>::from_f32([0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 1.0], [1.0; 3]).unwrap();
/// let skel = Skeleton::<f32, 2>::new(&[None, Some(0)], &[Transform::IDENTITY, up]).unwrap();
/// // At most 60° off the rest direction, no roll.
/// let limit = SwingTwist::new(1.047_197_6, 0.0, 0.0).unwrap();
/// let head = Aim::new(&skel, 1, [0.0, 0.0, 1.0], [0.0, 1.0, 0.0], limit).unwrap();
/// let mut pose = [Transform::IDENTITY, up];
/// let mut world = [Affine::IDENTITY; 2];
/// skel.world(&pose, &mut world).unwrap();
/// // A point to the head's right (+X) and level: a quarter turn, held at 60°.
/// head.apply(&skel, &mut pose, &world, [5.0, 1.0, 0.0], [0.0, 1.0, 0.0], 1.0).unwrap();
/// skel.world(&pose, &mut world).unwrap();
/// let forward = world[1].transform_vector([0.0, 0.0, 1.0]);
/// assert!((forward[0] - 0.866_025_4).abs() < 1e-6 && (forward[2] - 0.5).abs() < 1e-6);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Aim<R> {
    joint: usize,
    forward: Vec3<R>,
    up: Vec3<R>,
    limit: Prepared<R>,
    /// The limit measured from the rest rotation, twist about the forward axis.
    frame: Frame<R>,
}

impl<R: Real> Aim<R> {
    /// `joint` of `skeleton`, looking along its own `forward` axis with its own `up` axis
    /// (joint space), within `limit` of its rest rotation.
    ///
    /// Errors: [`AnimError::JointIndex`] for a joint the skeleton does not have;
    /// [`AnimError::Point`] for an axis component that is not finite or beyond
    /// [`coordinate_limit`](super::coordinate_limit); [`AnimError::Axis`] for an axis without
    /// length or an up axis along the forward one.
    pub fn new<const N: usize>(
        skeleton: &Skeleton<R, N>,
        joint: usize,
        forward: [f32; 3],
        up: [f32; 3],
        limit: SwingTwist,
    ) -> Result<Self, AnimError> {
        let joints = skeleton.len();
        if joint >= joints {
            return Err(AnimError::JointIndex { joint, joints });
        }
        let forward = unit(point::<R>("forward axis", forward)?)
            .ok_or(AnimError::Axis { what: "forward" })?;
        let up = point::<R>("up axis", up)?;
        let up = unit(sub(up, scale(forward, dot(up, forward))))
            .ok_or(AnimError::Axis { what: "up" })?;
        Ok(Self {
            joint,
            forward,
            up,
            limit: limit.prepare(),
            frame: Frame::new(skeleton.rest()[joint].rotation, forward),
        })
    }

    /// The joint.
    pub fn joint(&self) -> usize {
        self.joint
    }

    /// Turn the joint in `pose` towards `target` (model space), rolled towards `up` (a
    /// model-space direction), with `weight` in [0, 1], given the pose's world matrices
    /// (from [`Skeleton::world`] of the same pose). Only the joint's rotation changes; a
    /// target at the joint leaves it as it is.
    ///
    /// Errors: [`AnimError::Joints`] when `pose` or `world` has another length than the
    /// skeleton; [`AnimError::Point`] for a target or up component that is NaN, infinite or
    /// beyond [`coordinate_limit`](super::coordinate_limit); [`AnimError::Axis`] for an up
    /// vector without length; [`AnimError::Weight`] for a weight outside [0, 1].
    pub fn apply<const N: usize>(
        &self,
        skeleton: &Skeleton<R, N>,
        pose: &mut [Transform<R>],
        world: &[Affine<R>],
        target: [f32; 3],
        up: [f32; 3],
        weight: f32,
    ) -> Result<(), AnimError> {
        let n = skeleton.len();
        AnimError::check_pose(n, pose.len(), world.len())?;
        let (target, up) = (point::<R>("target", target)?, point::<R>("up", up)?);
        unit(up).ok_or(AnimError::Axis { what: "up" })?;
        if !(0.0..=1.0).contains(&weight) {
            return Err(AnimError::Weight {
                what: Input::AimWeight,
                index: 0,
                joint: None,
                weight,
            });
        }
        let joint = self.joint;
        let parent = match skeleton.parents()[joint] {
            Some(p) => world[usize::from(p)],
            None => *skeleton.root(),
        };
        let Some(look) = direction_in(&parent, sub(target, world[joint].translation_part())) else {
            return Ok(());
        };
        let q = pose[joint].rotation;
        let forward = rotate(q, self.forward);
        let turned = normalized(arc(forward, look, || perpendicular(forward)).hamilton(q));
        let across = |v: Vec3<R>| unit(sub(v, scale(look, dot(v, look))));
        let rolled = match (
            across(rotate(turned, self.up)),
            direction_in(&parent, up).and_then(across),
        ) {
            (Some(have), Some(want)) => roll(have, want, look).hamilton(turned),
            _ => turned,
        }
        .normalize();
        let w = R::from_f32(weight).unwrap_or(R::ZERO);
        let weighted = if w >= R::ONE {
            rolled
        } else if w <= R::ZERO {
            q
        } else {
            q.slerp(rolled, w)
        };
        pose[joint].rotation = self.limit.clamp(&self.frame, weighted);
        Ok(())
    }
}
