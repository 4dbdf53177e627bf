//! Sample and pose: the clip at a time into the pose (local transforms), the caller's
//! animation layer on it (if any), then forward kinematics into world matrices.

use super::{Scene, Stage, Stages};
use crate::affine::Affine;
use crate::asset::AssetLane;
use crate::clip::Wrap;
use crate::raster::{Project, RasterError};
use crate::transform::Transform;

impl<L: AssetLane + Project, const N: usize> Scene<'_, L, N> {
    /// Sample the clip at `t` seconds (looped) into `pose` (from the rest pose) and the
    /// world matrices into `world`; both need at least [`Self::bones`] entries.
    pub fn pose(
        &self,
        t: f32,
        pose: &mut [Transform<L::Real>],
        world: &mut [Affine<L::Real>],
        stages: &mut impl Stages,
    ) -> Result<(), RasterError> {
        self.pose_at(Some(t), pose, world, stages, |_| Ok(()))
    }

    /// [`Self::pose`] with `layer` changing the sampled pose (local transforms, one a bone,
    /// asset units) before forward kinematics: the animation layer's blends, IK and look-at
    /// (`skin render --ik`, say), timed with sampling as [`Stage::Sample`]. `t` `None`
    /// starts from the rest pose instead of the clip.
    pub fn pose_layered(
        &self,
        t: Option<f32>,
        pose: &mut [Transform<L::Real>],
        world: &mut [Affine<L::Real>],
        stages: &mut impl Stages,
        layer: impl FnOnce(&mut [Transform<L::Real>]) -> Result<(), RasterError>,
    ) -> Result<(), RasterError> {
        self.pose_at(t, pose, world, stages, layer)
    }

    /// The rest pose (the skeleton as stored, no clip) into `pose`, and its world matrices
    /// into `world`; both need at least [`Self::bones`] entries.
    pub fn rest(
        &self,
        pose: &mut [Transform<L::Real>],
        world: &mut [Affine<L::Real>],
    ) -> Result<(), RasterError> {
        self.pose_at(None, pose, world, &mut (), |_| Ok(()))
    }

    /// [`Self::pose`] at `t`, or [`Self::rest`] without it, `layer` applied before forward
    /// kinematics.
    fn pose_at(
        &self,
        t: Option<f32>,
        pose: &mut [Transform<L::Real>],
        world: &mut [Affine<L::Real>],
        stages: &mut impl Stages,
        layer: impl FnOnce(&mut [Transform<L::Real>]) -> Result<(), RasterError>,
    ) -> Result<(), RasterError> {
        let n = self.bones();
        let short = |len: usize| RasterError::Capacity {
            what: "pose and world matrices",
            needed: n,
            capacity: len,
        };
        let len = pose.len().min(world.len());
        let (pose, world) = match (pose.get_mut(..n), world.get_mut(..n)) {
            (Some(p), Some(w)) => (p, w),
            _ => return Err(short(len)),
        };
        stages.time(Stage::Sample, || {
            pose.copy_from_slice(self.skeleton.rest());
            if let (Some(clip), Some(t)) = (&self.clip, t) {
                clip.sample(t, Wrap::Loop, pose)?;
            }
            layer(pose)?;
            Ok(self.skeleton.world(pose, world)?)
        })
    }
}
