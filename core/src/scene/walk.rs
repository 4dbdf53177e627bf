//! The walk demo: the asset's figure walking over uneven ground, its feet planted by
//! two-bone IK ([`Walker`]) and its head turned towards a point that sweeps from side to
//! side ahead of it ([`Aim`]), on top of its clip (arms swinging, say). The boards
//! (`scripts/firmware.sh run BOARD LANE --walk …`) and the host run this same code, so their
//! frames agree bit for bit.
//!
//! Everything scales with the figure: `h`, the pelvis's rest height above the ground (the
//! ground is at height 0 at rest, as for [`Walker`]), sets the gait (speed `h` a second,
//! strides of `0.8 h`, feet lifted by up to `0.08 h`), the ground (ridges `0.04 h` high every
//! `1.2 h` on a slight slope across: [`Ground`]) and the look-at point (`h` ahead of the
//! head, swept `±h` across: [`Walk::look_at`]).

use super::{Scene, Stages};
use crate::affine::Affine;
use crate::anim::{world_of, Aim, Gait, Ground, Hinge, Limb, Step, SwingTwist, Walker};
use crate::asset::AssetLane;
use crate::num::Real;
use crate::raster::{Project, RasterError};
use crate::transform::Transform;

/// The joints of a walking figure, as bones of the asset's skeleton.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WalkJoints {
    /// The joint that carries the body (its parents' frames are kept).
    pub pelvis: usize,
    /// The left and right ankles: each the end of a hip–knee–ankle chain below the pelvis.
    pub ankles: [usize; 2],
    /// The joint turned to look (its own +Z forward, +Y up, as a glTF model faces).
    pub head: usize,
}

/// A prepared walk demo ([`Scene::walk`]), posed by [`Scene::pose_walk`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Walk<R> {
    walker: Walker<R>,
    gait: Gait,
    ground: Ground,
    head: Aim<R>,
    size: f32,
}

impl<R> Walk<R> {
    /// The ground the figure walks on.
    pub fn ground(&self) -> &Ground {
        &self.ground
    }

    /// The gait.
    pub fn gait(&self) -> &Gait {
        &self.gait
    }

    /// The point the head looks at, at `t` seconds, given the head's position: `h` ahead of
    /// it (+Z), swept across (X) from `+h` to `−h` and back every [`SWEEP`] seconds —
    /// `h · (1 − 8 s (1 − s))`, `s` the fraction of the sweep (a parabola each way, no sine
    /// to compute on a board without an FPU); `h` the pelvis's rest height.
    pub fn look_at(&self, t: f32, head: [f32; 3]) -> [f32; 3] {
        let h = self.size;
        let u = t / SWEEP;
        let s = u - libm::floorf(u);
        [
            head[0] + h * (1.0 - 8.0 * s * (1.0 - s)),
            head[1],
            head[2] + h,
        ]
    }
}

/// Strides the figure walks before it starts again where it began: a board's fixed-point
/// coordinates (a few asset units) then hold the walk however long it plays, where an
/// endless walk would carry the figure, and the point ahead of its knees that bends them,
/// beyond them (and out of the camera's view).
pub const STRIDES: f32 = 2.0;

/// Seconds the look-at point takes across and back.
pub const SWEEP: f32 = 3.0;

/// Bends of a knee the walk allows, radians: straight to well past a right angle.
const KNEE: (f32, f32) = (0.0, 2.6);
/// How far the head may turn from its rest: a swing of 1 radian, a twist of ±0.5.
const NECK: (f32, f32, f32) = (1.0, -0.5, 0.5);

impl<L: AssetLane + Project, const N: usize> Scene<'_, L, N> {
    /// The walk demo of this scene's skeleton with `joints`.
    ///
    /// Errors: [`RasterError::Anim`] with the animation layer's error: a joint the skeleton
    /// does not have, an ankle without a knee and a hip above it ([`Limb::ending_at`]),
    /// legs not below the pelvis or sharing a joint ([`Walker::new`]), or a figure whose
    /// pelvis is not above the ground (the gait's speed then not positive).
    pub fn walk(&self, joints: WalkJoints) -> Result<Walk<L::Real>, RasterError> {
        let skeleton = &self.skeleton;
        let knee = Hinge::new(KNEE.0, KNEE.1)?;
        let leg = |ankle| Limb::ending_at(skeleton, ankle, knee, None);
        let legs = [leg(joints.ankles[0])?, leg(joints.ankles[1])?];
        let walker = Walker::new(skeleton, joints.pelvis, legs)?;
        let limit = SwingTwist::new(NECK.0, NECK.1, NECK.2)?;
        let head = Aim::new(
            skeleton,
            joints.head,
            [0.0, 0.0, 1.0],
            [0.0, 1.0, 0.0],
            limit,
        )?;
        let mut world = heapless::Vec::<Affine<L::Real>, N>::new();
        for _ in 0..skeleton.len() {
            let _ = world.push(Affine::IDENTITY);
        }
        skeleton.world(skeleton.rest(), &mut world)?;
        let size = world[joints.pelvis].translation_part()[1].to_f32();
        let gait = Gait::new(size, 0.8 * size, 0.08 * size)?;
        let ground = Ground::new(0.04 * size, 1.2 * size)?;
        Ok(Walk {
            walker,
            gait,
            ground,
            head,
            size,
        })
    }

    /// [`Self::pose`] at `t` with `walk` on the sampled clip (timed as
    /// [`Stage::Animate`](super::Stage::Animate)): the pelvis carried along +Z, the feet
    /// planted on the ground, the head turned to [`Walk::look_at`]; the feet's steps out.
    /// The walk repeats every [`STRIDES`] strides.
    ///
    /// ```
    /// # use skin_core::prelude::*;
    /// # use skin_core::asset::{AssetParts, Part};
    /// use skin_core::scene::{Scene, WalkJoints};
    /// # let at = |p: [f32; 3]| Transform::from_f32(p, [0.0, 0.0, 0.0, 1.0], [1.0; 3]).unwrap();
    /// # let (down, hip) = (at([0.0, -0.45, 0.0]), |x| at([x, -0.05, 0.0]));
    /// # let rest = [at([0.0, 1.0, 0.0]), hip(0.1), down, down, hip(-0.1), down, down, at([0.0, 0.5, 0.0])];
    /// # let parents = [None, Some(0), Some(1), Some(2), Some(0), Some(4), Some(5), Some(0)];
    /// # let positions = [[-0.5f32, 0.0, 0.0], [0.5, 0.0, 0.0], [0.0, 1.5, 0.0]];
    /// # let parts = AssetParts {
    /// #     unit_exponent: 0, parents: &parents, rest: &rest,
    /// #     root: Affine::IDENTITY, joints: &[0], inverse_binds: &[Affine::IDENTITY],
    /// #     positions: &positions, normals: None, influences: &[Influence::rigid(0); 3],
    /// #     indices: &[0, 1, 2], parts: &[Part { vertices: 3, indices: 3, bones: &[0] }], clips: &[],
    /// #     skinning: skin_core::skin::Skinning::Lbs,
    /// #     centre: [0.0; 3],
    /// # };
    /// # let mut bytes = [0u8; 2048];
    /// # let n = parts.write(&mut bytes).unwrap();
    /// // `bytes`: a baked figure: a pelvis 1 up, two legs of 0.45 + 0.45, a head.
    /// let scene = Scene::<f32, 8>::new(Asset::<f32>::read(&bytes[..n]).unwrap(), 64, 64).unwrap();
    /// let walk = scene.walk(WalkJoints { pelvis: 0, ankles: [3, 6], head: 7 }).unwrap();
    /// let (mut pose, mut world) = ([Transform::IDENTITY; 8], [Affine::IDENTITY; 8]);
    /// let steps = scene.pose_walk(&walk, 0.2, &mut pose, &mut world, &mut ()).unwrap();
    /// assert!(steps[0].contact); // the left foot planted, on the ground at its rest height
    /// let [x, y, z] = world[3].translation_part();
    /// assert!((y - walk.ground().height(x, z) - 0.05).abs() < 1e-4);
    /// ```
    pub fn pose_walk(
        &self,
        walk: &Walk<L::Real>,
        t: f32,
        pose: &mut [Transform<L::Real>],
        world: &mut [Affine<L::Real>],
        stages: &mut impl Stages,
    ) -> Result<[Step; 2], RasterError> {
        self.pose_at(Some(t), pose, world, stages, |pose, world| {
            let skeleton = &self.skeleton;
            let ground = |x, z| walk.ground.height(x, z);
            // Two strides, then from the start: the same steps, the body back where it began.
            let lap = STRIDES * walk.gait.period();
            let walked = t - libm::floorf(t / lap) * lap;
            let steps = walk
                .walker
                .pose(skeleton, &walk.gait, walked, ground, pose, world)?;
            // The head's chain as the walk left it (the pelvis's matrix current): the rest of
            // `world` is made after.
            let joint = walk.head.joint();
            world_of(skeleton, pose, world, joint, Some(walk.walker.pelvis()))?;
            let at = world[joint].translation_part().map(|v| v.to_f32());
            let look = walk.look_at(t, at);
            walk.head
                .apply(skeleton, pose, world, look, [0.0, 1.0, 0.0], 1.0)?;
            Ok(steps)
        })
    }
}
