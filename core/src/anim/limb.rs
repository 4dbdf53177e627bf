//! Two-bone IK on a skeleton: the solved positions of a limb ([`TwoBone`]) turned into the
//! local rotations of its root and mid joints, so that forward kinematics puts the joints
//! there.
//!
//! With the pose's world matrices (from [`Skeleton::world`]):
//!
//! 1. the chain's world positions are solved for the target, pole, weight and softness
//!    ([`TwoBone::solve`]), the mid joint's bend within the [`Hinge`];
//! 2. the root joint's rotation turns, in its parent's frame, by the shortest arc taking the
//!    upper bone from where it points to where the solve puts it, then is held within its
//!    [`SwingTwist`] limit (measured from its rest rotation, twist about the upper bone);
//! 3. the mid joint's rotation turns, in the root's new frame, by the shortest arc taking
//!    the lower bone to the solved end (from where the mid joint now is), the bend between
//!    the bones first held within the hinge again — so the hinge holds even where the root's
//!    limit stopped it short.
//!
//! Directions go into a parent's frame through the transpose of its linear part: exact for
//! rotations with uniform scales (glTF rigs as the host folds them); only the joints'
//! rotations change, so bone lengths are the pose's.

use super::error::AnimError;
use super::ik::{Hinge, TwoBone};
use super::limit::{Frame, Prepared, SwingTwist};
use super::vector::{
    add, direction_in, dot, perpendicular, rotate, rotate_unit, scale, sub, times, turn, unit,
    unit_in, Vec3,
};
use crate::affine::Affine;
use crate::num::Real;
use crate::skeleton::Skeleton;
use crate::transform::Transform;

/// Where a limb reaches: a target and a pole point (model space), a weight and a softness,
/// as in [`TwoBone::solve`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Goal {
    /// The point the end joint reaches for.
    pub target: [f32; 3],
    /// The point the mid joint bends towards.
    pub pole: [f32; 3],
    /// 0: the pose as it was; 1: the solve.
    pub weight: f32,
    /// The fraction of the reach where soft IK starts (1: none).
    pub soft: f32,
}

/// A root–mid–end chain of a skeleton (each joint the previous one's child) with its
/// limits, solved into the pose's rotations.
///
/// ```
/// use skin_core::affine::Affine;
/// use skin_core::anim::{Goal, Hinge, Limb};
/// use skin_core::skeleton::Skeleton;
/// use skin_core::transform::Transform;
/// // A leg hanging down: hip, knee 1 below, ankle 1 below that.
/// let down = Transform::<f32>::from_f32([0.0, -1.0, 0.0], [0.0, 0.0, 0.0, 1.0], [1.0; 3]).unwrap();
/// let skel = Skeleton::<f32, 4>::new(&[None, Some(0), Some(1)], &[Transform::IDENTITY, down, down]).unwrap();
/// let leg = Limb::new(&skel, [0, 1, 2], Hinge::FREE, None).unwrap();
/// let mut pose = [Transform::IDENTITY, down, down];
/// let mut world = [Affine::IDENTITY; 3];
/// skel.world(&pose, &mut world).unwrap();
/// let goal = Goal { target: [0.0, -1.5, 0.0], pole: [0.0, -1.0, 1.0], weight: 1.0, soft: 1.0 };
/// leg.apply(&skel, &mut pose, &world, goal).unwrap();
/// skel.world(&pose, &mut world).unwrap();
/// let ankle = world[2].translation_part();
/// assert!((ankle[1] + 1.5).abs() < 1e-6 && ankle[2].abs() < 1e-6);
/// assert!(world[1].translation_part()[2] > 0.0); // the knee bends towards the pole
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Limb<R> {
    joints: [usize; 3],
    /// `cos` of the hinge's largest and smallest bends.
    bend_cos: (R, R),
    /// `sin` of the same.
    bend_sin: (R, R),
    /// The root's limit, measured from its rest rotation with its twist axis towards the
    /// mid joint.
    swing: Option<(Prepared<R>, Frame<R>)>,
    /// The bones in their joints' frames at rest: the mid joint's translation and the root's
    /// scale, the end's translation and the mid joint's scale ([`Limb::bones`]).
    rest: [Vec3<R>; 4],
    /// The unit directions of the bones at rest ([`Limb::bones`]), `None` for one of no length.
    rest_bones: (Option<Vec3<R>>, Option<Vec3<R>>),
}

impl<R: Real> Limb<R> {
    /// The chain `[root, mid, end]` of `skeleton`, the mid joint's bend within `hinge`, the
    /// root's rotation within `swing` (if any).
    ///
    /// Errors: [`AnimError::JointIndex`] for a joint the skeleton does not have;
    /// [`AnimError::NotChild`] unless `mid`'s parent is `root` and `end`'s is `mid`;
    /// [`AnimError::ZeroBone`] for a bone of zero rest length (with a swing limit, whose
    /// twist axis is the upper bone).
    pub fn new<const N: usize>(
        skeleton: &Skeleton<R, N>,
        joints: [usize; 3],
        hinge: Hinge,
        swing: Option<SwingTwist>,
    ) -> Result<Self, AnimError> {
        let parents = skeleton.parents();
        for &joint in &joints {
            if joint >= parents.len() {
                return Err(AnimError::JointIndex {
                    joint,
                    joints: parents.len(),
                });
            }
        }
        let [root, mid, end] = joints;
        for (parent, child) in [(root, mid), (mid, end)] {
            let actual = parents[child].map(usize::from);
            if actual != Some(parent) {
                return Err(AnimError::NotChild {
                    parent,
                    child,
                    actual,
                });
            }
        }
        let r = |v: f32| R::from_f32(v).unwrap_or(R::ZERO);
        let rest = skeleton.rest();
        let swing = match swing {
            None => None,
            Some(limit) => {
                let bone = rest[mid].translation;
                let axis = unit(bone).ok_or(AnimError::ZeroBone {
                    bone: 0,
                    length: dot(bone, bone).sqrt().to_f32(),
                })?;
                Some((limit.prepare(), Frame::new(rest[root].rotation, axis)))
            }
        };
        let rest = [
            rest[mid].translation,
            rest[root].scale,
            rest[end].translation,
            rest[mid].scale,
        ];
        Ok(Self {
            joints,
            bend_cos: (r(libm::cosf(hinge.max())), r(libm::cosf(hinge.min()))),
            bend_sin: (r(libm::sinf(hinge.max())), r(libm::sinf(hinge.min()))),
            swing,
            rest,
            rest_bones: bones(rest),
        })
    }

    /// The chain that ends at `end`: its parent and grandparent above it; limits as in
    /// [`Limb::new`].
    ///
    /// Errors: [`AnimError::JointIndex`] for an `end` the skeleton does not have;
    /// [`AnimError::ShortChain`] when `end` or its parent is a root.
    pub fn ending_at<const N: usize>(
        skeleton: &Skeleton<R, N>,
        end: usize,
        hinge: Hinge,
        swing: Option<SwingTwist>,
    ) -> Result<Self, AnimError> {
        let parents = skeleton.parents();
        let joints = parents.len();
        if end >= joints {
            return Err(AnimError::JointIndex { joint: end, joints });
        }
        let parent = |child: usize| parents[child].map(usize::from);
        let (Some(mid), Some(root)) = (parent(end), parent(end).and_then(parent)) else {
            return Err(AnimError::ShortChain { end });
        };
        Self::new(skeleton, [root, mid, end], hinge, swing)
    }

    /// The chain's joints: root, mid, end.
    pub fn joints(&self) -> [usize; 3] {
        self.joints
    }

    /// Bend the chain in `pose` (one local transform per joint) towards `goal`, given the
    /// pose's world matrices `world` (from [`Skeleton::world`] of the same pose). Only the
    /// root's and mid joint's rotations change; `world` is stale for the chain and below
    /// afterwards.
    ///
    /// Errors: [`AnimError::Joints`] when `pose` or `world` has another length than the
    /// skeleton; as [`TwoBone::new`] for the chain's world positions and as
    /// [`TwoBone::solve`] for the goal.
    pub fn apply<const N: usize>(
        &self,
        skeleton: &Skeleton<R, N>,
        pose: &mut [Transform<R>],
        world: &[Affine<R>],
        goal: Goal,
    ) -> Result<(), AnimError> {
        let n = skeleton.len();
        AnimError::check_pose(n, pose.len(), world.len())?;
        let [root, mid, end] = self.joints;
        let parent = match skeleton.parents()[root] {
            Some(p) => world[usize::from(p)],
            None => *skeleton.root(),
        };
        let at = |j: usize| world[j].translation_part();
        let origin = at(root);
        let chain = TwoBone::from_points(origin, at(mid), at(end))?;
        let bent = chain.bend(
            goal.target,
            goal.pole,
            goal.weight,
            goal.soft,
            self.bend_cos,
        )?;

        // The upper bone in the root's frame; where it points in the parent's frame is its
        // rotation by the root's (the direction from the root to the mid joint there).
        let (bone, lower) = self.bones(pose);
        let Some(bone) = bone else {
            return Ok(());
        };
        // Whether the root turned as asked (no limit moved it): then the mid joint is where
        // the solve put it and the lower bone's wanted direction is the solve's.
        let mut as_asked = false;
        if let Some(to) = unit_in(&parent, bent.upper) {
            let q0 = pose[root].rotation;
            let from = rotate_unit(q0, bone);
            let mut q = turn(from, to, q0, || perpendicular(from));
            as_asked = true;
            if let Some((limit, frame)) = &self.swing {
                if let Some(held) = limit.hold(frame, q) {
                    (q, as_asked) = (held, false);
                }
            }
            pose[root].rotation = q;
        }

        // The lower bone's directions in the root's frame (the mid joint's parent frame):
        // where it points, and where it should, from the mid joint as the root's new
        // rotation puts it.
        let q_root = pose[root].rotation;
        let wanted = if as_asked {
            unit_in(&parent, bent.lower)
        } else {
            let upper = times(pose[mid].translation, pose[root].scale);
            let mid_now = add(origin, parent.transform_vector(rotate(q_root, upper)));
            direction_in(&parent, sub(bent.end, mid_now))
        };
        let wanted = wanted.map(|v| rotate_unit(q_root.conjugate(), v));
        let (Some(lower), Some(to)) = (lower, wanted) else {
            return Ok(());
        };
        let from = rotate_unit(pose[mid].rotation, lower);
        // The solve held the bend within the hinge; where the root's limit stopped it
        // short, the bend from where the mid joint now is is held again.
        let to = if as_asked { to } else { self.bend(bone, to) };
        pose[mid].rotation = turn(from, to, pose[mid].rotation, || perpendicular(from));
        Ok(())
    }

    /// The unit directions of the upper and lower bones in the root's and the mid joint's
    /// frames (the mid joint's translation times the root's scale, the end's times the mid
    /// joint's), `None` for one of no length: worked out once from the rest pose, and used
    /// where `pose` has the rest's translations and scales there (as a clip that only turns
    /// the joints leaves them: twelve comparisons where two unit vectors took six products
    /// and two normalisations); else from `pose`.
    #[inline(always)]
    fn bones(&self, pose: &[Transform<R>]) -> (Option<Vec3<R>>, Option<Vec3<R>>) {
        let [root, mid, end] = self.joints;
        let local = [
            pose[mid].translation,
            pose[root].scale,
            pose[end].translation,
            pose[mid].scale,
        ];
        if local == self.rest {
            self.rest_bones
        } else {
            bones(local)
        }
    }

    /// The unit lower-bone direction `b` with its bend from the unit upper-bone direction
    /// `a` (0: straight on) within the hinge: turned in their plane to the nearest limit.
    fn bend(&self, a: Vec3<R>, b: Vec3<R>) -> Vec3<R> {
        let c = dot(a, b);
        let (cos_max, cos_min) = self.bend_cos;
        let (cos_t, sin_t) = if c > cos_min {
            (cos_min, self.bend_sin.1)
        } else if c < cos_max {
            (cos_max, self.bend_sin.0)
        } else {
            return b;
        };
        let side = unit(sub(b, scale(a, c))).unwrap_or_else(|| perpendicular(a));
        add(scale(a, cos_t), scale(side, sin_t))
    }
}

/// The unit directions of `[upper translation, root scale, lower translation, mid scale]`'s
/// two bones (each translation times its parent's scale), `None` for one of no length.
fn bones<R: Real>(local: [Vec3<R>; 4]) -> (Option<Vec3<R>>, Option<Vec3<R>>) {
    (
        unit(times(local[0], local[1])),
        unit(times(local[2], local[3])),
    )
}
