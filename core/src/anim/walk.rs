//! A procedural walk: feet placed by a gait on uneven ground, reached by two-bone IK, the
//! pelvis lowered so that both feet stay within reach.
//!
//! The gait ([`Gait`]): the body travels along +Z at `speed`; a *stride* (one foot's
//! lift-off to its next lift-off) covers `stride` of ground in `stride / speed` seconds, and
//! a *step* (one foot's lift-off to the other's) is half of it. Each foot is on the ground
//! for [`Gait::DUTY`] of its stride (both feet at once twice a stride, as in walking, not
//! running): planted where it landed, `DUTY · stride / 2` ahead of its hip, until it is that
//! far behind; then it swings forward by one stride, lifted by up to `lift` (a parabola,
//! `4 s (1 − s)` of the swing's fraction `s`: no sine to compute on a board without an FPU).
//!
//! The walker ([`Walker`]) puts each foot on the ground under it (a height function
//! `ground(x, z)`), at its rest height above the ground, lowers the pelvis where a leg would
//! otherwise have to stretch beyond 99.9 % of its reach, and bends both legs to their feet
//! with [`Limb`]s, knees forward.

use super::chain::world_of;
use super::error::AnimError;
use super::limb::{Goal, Limb};
use crate::affine::Affine;
use crate::num::Real;
use crate::skeleton::Skeleton;
use crate::transform::Transform;

/// Speed, stride length and foot lift of a walk.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Gait {
    speed: f32,
    stride: f32,
    lift: f32,
}

/// Where a foot is in its stride at a moment.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Step {
    /// The fraction of its stride since it landed, [0, 1).
    pub phase: f32,
    /// On the ground (planted) or swinging.
    pub contact: bool,
    /// Its position along the direction of travel (+Z), model units.
    pub along: f32,
    /// Its height above the ground, model units (0 while planted).
    pub lift: f32,
}

impl Gait {
    /// The fraction of a stride each foot is on the ground.
    pub const DUTY: f32 = 0.6;

    /// A walk at `speed` (units a second, > 0) with strides of `stride` (units, > 0) and
    /// feet lifted by up to `lift` (units, ≥ 0).
    ///
    /// Errors: [`AnimError::Gait`] for a value that is not finite or out of range.
    pub fn new(speed: f32, stride: f32, lift: f32) -> Result<Self, AnimError> {
        for (what, v, zero_ok) in [
            ("speed", speed, false),
            ("stride", stride, false),
            ("lift", lift, true),
        ] {
            if !(v.is_finite() && (v > 0.0 || (zero_ok && v == 0.0))) {
                return Err(AnimError::Gait { what, value: v });
            }
        }
        Ok(Self {
            speed,
            stride,
            lift,
        })
    }

    /// Seconds a stride takes.
    pub fn period(&self) -> f32 {
        self.stride / self.speed
    }

    /// How far the body has travelled at `t` seconds.
    pub fn travelled(&self, t: f32) -> f32 {
        self.speed * t
    }

    /// Foot `side` (0: left, starting its stride at `t = 0`; 1: right, half a stride
    /// later) at `t` seconds, `hip` its hip's offset along the travel from the body's.
    ///
    /// ```
    /// use skin_core::anim::Gait;
    /// let gait = Gait::new(1.0, 1.2, 0.1).unwrap();
    /// let a = gait.foot(0.1, 0, 0.0);
    /// let b = gait.foot(0.5, 0, 0.0);
    /// assert!(a.contact && b.contact && a.along == b.along); // planted
    /// assert!(!gait.foot(0.9, 0, 0.0).contact); // swinging: 0.6 of 1.2 s on the ground
    /// ```
    pub fn foot(&self, t: f32, side: usize, hip: f32) -> Step {
        let period = self.period();
        let cycles = t / period + if side == 0 { 0.0 } else { 0.5 };
        let start = libm::floorf(cycles);
        let phase = cycles - start;
        // The moment this stride's landing happened, and where the hip was then.
        let landed = (start - if side == 0 { 0.0 } else { 0.5 }) * period;
        let half = Self::DUTY * self.stride / 2.0;
        let planted = self.travelled(landed) + hip + half;
        if phase < Self::DUTY {
            return Step {
                phase,
                contact: true,
                along: planted,
                lift: 0.0,
            };
        }
        // Swinging: from `planted` to `planted + stride`, eased (zero speed at both ends).
        let s = (phase - Self::DUTY) / (1.0 - Self::DUTY);
        let eased = s * s * (3.0 - 2.0 * s);
        Step {
            phase,
            contact: false,
            along: planted + self.stride * eased,
            lift: self.lift * 4.0 * s * (1.0 - s),
        }
    }
}

/// A skeleton that walks: a pelvis (moved in model space, its parents' frames kept) and two
/// legs.
///
/// ```
/// use skin_core::affine::Affine;
/// use skin_core::anim::{Gait, Hinge, Limb, Walker};
/// use skin_core::skeleton::Skeleton;
/// use skin_core::transform::Transform;
/// let at = |p: [f32; 3]| Transform::<f32>::from_f32(p, [0.0, 0.0, 0.0, 1.0], [1.0; 3]).unwrap();
/// // A pelvis 1 up; per side a hip, a knee 0.45 below it, an ankle 0.45 below that.
/// let (down, hip) = (at([0.0, -0.45, 0.0]), |x| at([x, -0.05, 0.0]));
/// let rest = [at([0.0, 1.0, 0.0]), hip(0.1), down, down, hip(-0.1), down, down];
/// let parents = [None, Some(0), Some(1), Some(2), Some(0), Some(4), Some(5)];
/// let skel = Skeleton::<f32, 8>::new(&parents, &rest).unwrap();
/// let leg = |j| Limb::new(&skel, j, Hinge::FREE, None).unwrap();
/// let walker = Walker::new(&skel, 0, [leg([1, 2, 3]), leg([4, 5, 6])]).unwrap();
/// let gait = Gait::new(1.0, 0.8, 0.05).unwrap();
/// let (mut pose, mut world) = (rest, [Affine::IDENTITY; 7]);
/// let steps = walker.pose(&skel, &gait, 0.2, |_, z| 0.1 * z, &mut pose, &mut world).unwrap();
/// skel.world(&pose, &mut world).unwrap();
/// assert!(steps[0].contact); // the left foot, planted on the slope at its rest height
/// let ankle = world[3].translation_part();
/// assert!((ankle[1] - (0.1 * ankle[2] + 0.05)).abs() < 1e-5);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Walker<R> {
    pelvis: usize,
    legs: [Limb<R>; 2],
    /// Per leg: the foot's rest position (x, height above the ground at rest, z), the hip's
    /// rest position, and the leg's reach.
    rest: [([f32; 3], [f32; 3], f32); 2],
    pelvis_rest: [f32; 3],
}

impl<R: Real> Walker<R> {
    /// The walker of `skeleton` at rest, standing on the ground at height 0, facing +Z:
    /// `pelvis` the joint that carries the body, `legs` the left and right [`Limb`]s (hip,
    /// knee, ankle).
    ///
    /// Errors: [`AnimError::JointIndex`] for a pelvis the skeleton does not have;
    /// [`AnimError::NotBelow`] for a leg whose hip is not below the pelvis (the pelvis
    /// itself included); [`AnimError::SharedLeg`] for a joint in both legs;
    /// [`AnimError::Kinematics`] when the rest pose's forward kinematics fails.
    pub fn new<const N: usize>(
        skeleton: &Skeleton<R, N>,
        pelvis: usize,
        legs: [Limb<R>; 2],
    ) -> Result<Self, AnimError> {
        let joints = skeleton.len();
        if pelvis >= joints {
            return Err(AnimError::JointIndex {
                joint: pelvis,
                joints,
            });
        }
        let parents = skeleton.parents();
        for leg in &legs {
            let hip = leg.joints()[0];
            let mut above = parents[hip];
            while let Some(p) = above.map(usize::from).filter(|&p| p != pelvis) {
                above = parents[p];
            }
            if above.is_none() {
                return Err(AnimError::NotBelow { pelvis, hip });
            }
        }
        let [left, right] = legs.map(|l| l.joints());
        if let Some(&joint) = left.iter().find(|j| right.contains(j)) {
            return Err(AnimError::SharedLeg { joint });
        }
        let at = |w: &Affine<R>| w.translation_part().map(|v| v.to_f32());
        let mut worlds = heapless::Vec::<Affine<R>, N>::new();
        for _ in 0..joints {
            let _ = worlds.push(Affine::IDENTITY);
        }
        skeleton
            .world(skeleton.rest(), &mut worlds)
            .map_err(AnimError::Kinematics)?;
        let leg = |limb: &Limb<R>| {
            let [hip, knee, ankle] = limb.joints();
            let (h, k, a) = (at(&worlds[hip]), at(&worlds[knee]), at(&worlds[ankle]));
            let len = |p: [f32; 3], q: [f32; 3]| {
                libm::sqrtf((0..3).map(|i| (p[i] - q[i]) * (p[i] - q[i])).sum())
            };
            (a, h, len(h, k) + len(k, a))
        };
        Ok(Self {
            pelvis,
            legs,
            rest: [leg(&legs[0]), leg(&legs[1])],
            pelvis_rest: at(&worlds[pelvis]),
        })
    }

    /// The joint that carries the body.
    pub fn pelvis(&self) -> usize {
        self.pelvis
    }

    /// Pose the walk at `t` seconds over `ground(x, z)` (heights, model units) into `pose`
    /// (the skeleton's pose at `t`, e.g. its rest pose or an upper-body clip), using `world`
    /// for its world matrices; the feet's steps (contact phases) out. `world` is stale for
    /// the legs afterwards (as after [`Limb::apply`]): [`Skeleton::world`] of the new pose, or
    /// [`world_of`] for one chain, gives the posed matrices.
    ///
    /// Only the chains the walk reads are recomputed (the pelvis's parent, each leg from the
    /// root down), not the whole skeleton.
    ///
    /// Errors: [`AnimError::Joints`] when `pose` or `world` has another length than the
    /// skeleton; [`AnimError::Point`] for a pelvis position beyond the number format;
    /// [`AnimError::Kinematics`] as [`Skeleton::world`], or for a pelvis whose parent's
    /// matrix cannot be inverted; as [`Limb::apply`] (a foot beyond
    /// [`coordinate_limit`](super::coordinate_limit)).
    pub fn pose<const N: usize>(
        &self,
        skeleton: &Skeleton<R, N>,
        gait: &Gait,
        t: f32,
        ground: impl Fn(f32, f32) -> f32,
        pose: &mut [Transform<R>],
        world: &mut [Affine<R>],
    ) -> Result<[Step; 2], AnimError> {
        let n = skeleton.len();
        AnimError::check_pose(n, pose.len(), world.len())?;
        let body = gait.travelled(t);
        let p0 = self.pelvis_rest;
        let mut steps = [Step {
            phase: 0.0,
            contact: true,
            along: 0.0,
            lift: 0.0,
        }; 2];
        let mut feet = [[0.0f32; 3]; 2];
        let mut height = f32::INFINITY;
        let mut mean_ground = 0.0;
        for (side, (foot, hip, reach)) in self.rest.iter().enumerate() {
            let step = gait.foot(t, side, hip[2] - p0[2]);
            let (x, z) = (foot[0], step.along + foot[2] - hip[2]);
            let g = ground(x, z);
            mean_ground += g / 2.0;
            let target = [x, g + foot[1] + step.lift, z];
            // The highest the hip may be for this foot, and the pelvis with it.
            let (dx, dz) = (target[0] - hip[0], target[2] - (hip[2] + body));
            let reach = reach * 0.999;
            let up = libm::sqrtf((reach * reach - dx * dx - dz * dz).max(0.0));
            height = height.min(target[1] + up - (hip[1] - p0[1]));
            steps[side] = step;
            feet[side] = target;
        }
        let y = height.min(p0[1] + mean_ground);
        let moved = [p0[0], y, p0[2] + body];
        let mut target = [R::ZERO; 3];
        for (o, v) in target.iter_mut().zip(moved) {
            *o = R::from_f32(v).map_err(|_| AnimError::Point {
                what: "pelvis",
                value: v,
                limit: R::LIMIT,
            })?;
        }
        // Into the pelvis's parent frame (the parents are where the pose puts them).
        let parent = match skeleton.parents()[self.pelvis] {
            Some(p) => {
                world_of(skeleton, pose, world, usize::from(p), None)?;
                world[usize::from(p)]
            }
            None => *skeleton.root(),
        };
        let singular = crate::Error::Singular { bone: self.pelvis };
        let inverse = parent.inverse().ok_or(AnimError::Kinematics(singular))?;
        pose[self.pelvis].translation = inverse.transform_point(target);
        // Each leg's chain, both before either bends (a bend leaves its own chain stale); the
        // pelvis's matrix once.
        world_of(skeleton, pose, world, self.pelvis, None)?;
        for limb in &self.legs {
            world_of(skeleton, pose, world, limb.joints()[2], Some(self.pelvis))?;
        }
        for (limb, target) in self.legs.iter().zip(feet) {
            let [hip, ..] = limb.joints();
            let h = world[hip].translation_part().map(|v| v.to_f32());
            let goal = Goal {
                target,
                pole: [h[0], h[1], h[2] + 1.0],
                weight: 1.0,
                soft: 1.0,
            };
            limb.apply(skeleton, pose, world, goal)?;
        }
        Ok(steps)
    }
}
