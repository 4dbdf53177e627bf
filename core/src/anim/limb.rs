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
//! Directions go into a parent's frame through the transpose of its linear part divided by
//! its scale (the length of its first column): exact for rotations with uniform scales
//! (glTF rigs as the host folds them). Where the pose keeps the rest's translations and
//! scales for the chain, the solve takes the bones' world lengths as their rest lengths
//! times that scale (the same assumption), else from the world positions; only the joints'
//! rotations change, so bone lengths are the pose's.

use super::error::AnimError;
use super::ik::{Hinge, TwoBone};
use super::limit::{Frame, Prepared, SwingTwist};
use super::vector::{
    add, direction_in, dot, in_frame, perpendicular, rotate, rotate_unit, scale, sub, times, turn,
    turn_in, unit, unit_in, Vec3,
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
    /// The bones' lengths at rest in the root's parent's frame (unscaled by it), where the
    /// root's scale is uniform ([`Lengths`]).
    rest_lengths: Option<Lengths<R>>,
}

/// A chain's bone lengths with their squares and reciprocals, as [`TwoBone`] takes them.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Lengths<R> {
    lengths: (R, R),
    squares: (R, R),
    recips: (R, R),
}

impl<R: Real> Lengths<R> {
    /// The lengths of the bones `upper` and `lower` (vectors in the same frame), `None` when
    /// one is shorter than [`Real::EPSILON`] or a coordinate is beyond ±4 (the squares then
    /// within 48, in the fixed format's range; a chain the solver takes, within
    /// [`coordinate_limit`](super::coordinate_limit), has no longer bones).
    fn of(upper: Vec3<R>, lower: Vec3<R>) -> Option<Self> {
        let four = R::ONE + R::ONE + R::ONE + R::ONE;
        if !(R::within(upper, four) && R::within(lower, four)) {
            return None;
        }
        let squares = (dot(upper, upper), dot(lower, lower));
        let (l1, l2) = (squares.0.root_and_recip(), squares.1.root_and_recip());
        (l1.0 >= R::EPSILON && l2.0 >= R::EPSILON).then_some(Self {
            lengths: (l1.0, l2.0),
            squares,
            recips: (l1.1, l2.1),
        })
    }

    /// The lengths scaled by `s` (with `s²` and `1/s`).
    fn scaled(&self, (s, s2, recip): (R, R, R)) -> Self {
        let (l, q, r) = (self.lengths, self.squares, self.recips);
        Self {
            lengths: (l.0.times_small(s), l.1.times_small(s)),
            squares: (q.0.times_small(s2), q.1.times_small(s2)),
            recips: (r.0.times_small(recip), r.1.times_small(recip)),
        }
    }
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
        // The lower bone in the root's frame is the mid joint's scaled end translation times
        // the root's scale: a length only where that scale is uniform.
        let [sx, sy, sz] = rest[1];
        let rest_lengths = (sx == sy && sy == sz)
            .then(|| {
                let lower = times(rest[2], rest[3]);
                Lengths::of(times(rest[0], rest[1]), scale(lower, sx))
            })
            .flatten();
        Ok(Self {
            joints,
            bend_cos: (r(libm::cosf(hinge.max())), r(libm::cosf(hinge.min()))),
            bend_sin: (r(libm::sinf(hinge.max())), r(libm::sinf(hinge.min()))),
            swing,
            rest,
            rest_bones: bones(rest),
            rest_lengths,
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
    // Out of line: inlined into its caller, the solve's values were spilled around the
    // caller's (in the boards' benchmarks 72 instructions a solve more on the Cortex-M0,
    // 40 on the Cortex-M4F).
    #[inline(never)]
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
            Some(p) => &world[usize::from(p)],
            None => skeleton.root(),
        };
        let at = |j: usize| world[j].translation_part();
        let origin = at(root);
        // The bones as they are at rest where the pose keeps the rest's translations and
        // scales there (a clip that only turns the joints does).
        let local = self.local(pose);
        let at_rest = local == self.rest;
        let (bone, lower) = if at_rest {
            self.rest_bones
        } else {
            bones(local)
        };
        let scale = frame_scale(parent);
        let points = [origin, at(mid), at(end)];
        let chain = match (scale, &self.rest_lengths) {
            (Some(s), Some(rest)) if at_rest => {
                let l = rest.scaled(s);
                TwoBone::with_lengths(points, l.lengths, l.squares, l.recips)?
            }
            _ => TwoBone::from_points(origin, points[1], points[2])?,
        };
        let bent = chain.bend(
            goal.target,
            goal.pole,
            goal.weight,
            goal.soft,
            self.bend_cos,
        )?;

        // The upper bone in the root's frame; where it points in the parent's frame is its
        // rotation by the root's (the direction from the root to the mid joint there).
        let Some(bone) = bone else {
            return Ok(());
        };
        // Whether the root turned as asked (no limit moved it): then the mid joint is where
        // the solve put it and the lower bone's wanted direction is the solve's.
        let mut as_asked = false;
        // A unit direction into the parent's frame: by its scale's reciprocal where that
        // is known, else normalised.
        let into = |u: Vec3<R>| match scale {
            Some((_, _, recip)) => Some(in_frame(parent, u, recip)),
            None => unit_in(parent, u),
        };
        if let Some(to) = into(bent.upper) {
            let q0 = pose[root].rotation;
            let mut q = turn(q0, bone, to);
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
        let Some(lower) = lower else {
            return Ok(());
        };
        let q_mid = pose[mid].rotation;
        if as_asked {
            if let Some(wanted) = into(bent.lower) {
                pose[mid].rotation = turn_in(q_mid, lower, q_root, wanted);
            }
        } else {
            let upper = times(pose[mid].translation, pose[root].scale);
            let mid_now = add(origin, parent.transform_vector(rotate(q_root, upper)));
            if let Some(wanted) = direction_in(parent, sub(bent.end, mid_now)) {
                // The solve held the bend within the hinge; where the root's limit stopped
                // it short, the bend from where the mid joint now is is held again.
                let to = self.bend(bone, rotate_unit(q_root.conjugate(), wanted));
                pose[mid].rotation = turn(q_mid, lower, to);
            }
        }
        Ok(())
    }

    /// What sets the bones in `pose`: the mid joint's translation and the root's scale, the
    /// end's translation and the mid joint's scale. Where they are the rest's (twelve
    /// comparisons), the bones' directions and lengths worked out once from the rest pose
    /// stand (two unit vectors took six products and two normalisations, the lengths two
    /// square roots of the world positions' differences).
    #[inline(always)]
    fn local(&self, pose: &[Transform<R>]) -> [Vec3<R>; 4] {
        let [root, mid, end] = self.joints;
        [
            pose[mid].translation,
            pose[root].scale,
            pose[end].translation,
            pose[mid].scale,
        ]
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

/// The uniform scale `s` of the frame `m` (a rotation times `s`, as [`unit_in`] takes the
/// frames too), as `(s, s², 1/s)`, from the length of its first column; `None` for `s²`
/// below [`Real::EPSILON`] (where `1/s` would leave the fixed format's range) or an entry
/// beyond ±4 (where `s²` might).
#[inline(always)]
fn frame_scale<R: Real>(m: &Affine<R>) -> Option<(R, R, R)> {
    let r = &m.rows;
    let four = R::ONE + R::ONE + R::ONE + R::ONE;
    if !R::within([r[0][0], r[1][0], r[2][0]], four) {
        return None;
    }
    let s2 =
        r[0][0].times_small(r[0][0]) + r[1][0].times_small(r[1][0]) + r[2][0].times_small(r[2][0]);
    (s2 >= R::EPSILON).then(|| {
        let (s, recip) = s2.root_and_recip();
        (s, s2, recip)
    })
}

/// The unit directions of `[upper translation, root scale, lower translation, mid scale]`'s
/// two bones (each translation times its parent's scale), `None` for one of no length.
fn bones<R: Real>(local: [Vec3<R>; 4]) -> (Option<Vec3<R>>, Option<Vec3<R>>) {
    (
        unit(times(local[0], local[1])),
        unit(times(local[2], local[3])),
    )
}
