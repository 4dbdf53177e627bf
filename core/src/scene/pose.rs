//! Sample and pose: the clip at a time into the pose (local transforms), the caller's
//! animation layer on it (if any), then forward kinematics into world matrices.

use super::{Scene, Stage, Stages};
use crate::affine::Affine;
use crate::asset::AssetLane;
use crate::clip::Wrap;
use crate::raster::{Project, RasterError};
use crate::transform::Transform;

/// A pose and its world matrices, one a bone.
type Buffers<'p, 'w, R> = (&'p mut [Transform<R>], &'w mut [Affine<R>]);

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
        let (pose, world) = self.buffers(pose, world)?;
        self.sample(Some(t), pose, stages)?;
        self.kinematics(pose, world, stages)
    }

    /// [`Self::pose`] with `layer` changing the sampled pose (local transforms, one a bone,
    /// asset units) before forward kinematics: the animation layer's blends, IK and look-at
    /// (`skin render --ik`, the boards' walk demo), timed on its own as [`Stage::Animate`].
    /// `t` `None` starts from the rest pose instead of the clip.
    pub fn pose_layered(
        &self,
        t: Option<f32>,
        pose: &mut [Transform<L::Real>],
        world: &mut [Affine<L::Real>],
        stages: &mut impl Stages,
        layer: impl FnOnce(&mut [Transform<L::Real>]) -> Result<(), RasterError>,
    ) -> Result<(), RasterError> {
        self.pose_at(t, pose, world, stages, |pose, _| layer(pose))
    }

    /// The rest pose (the skeleton as stored, no clip) into `pose`, and its world matrices
    /// into `world`; both need at least [`Self::bones`] entries.
    pub fn rest(
        &self,
        pose: &mut [Transform<L::Real>],
        world: &mut [Affine<L::Real>],
    ) -> Result<(), RasterError> {
        let (pose, world) = self.buffers(pose, world)?;
        self.sample(None, pose, &mut ())?;
        self.kinematics(pose, world, &mut ())
    }

    /// The clip at `t` (or the rest pose) into `pose`, then `layer` on it (timed as
    /// [`Stage::Animate`]; given `world`, one matrix a bone, for its own use), then forward
    /// kinematics into `world`; what `layer` returns out.
    pub(super) fn pose_at<T>(
        &self,
        t: Option<f32>,
        pose: &mut [Transform<L::Real>],
        world: &mut [Affine<L::Real>],
        stages: &mut impl Stages,
        layer: impl FnOnce(&mut [Transform<L::Real>], &mut [Affine<L::Real>]) -> Result<T, RasterError>,
    ) -> Result<T, RasterError> {
        let (pose, world) = self.buffers(pose, world)?;
        self.sample(t, pose, stages)?;
        let out = stages.time(Stage::Animate, || layer(pose, world))?;
        self.kinematics(pose, world, stages)?;
        Ok(out)
    }

    /// The first [`Self::bones`] entries of `pose` and `world`.
    fn buffers<'p, 'w>(
        &self,
        pose: &'p mut [Transform<L::Real>],
        world: &'w mut [Affine<L::Real>],
    ) -> Result<Buffers<'p, 'w, L::Real>, RasterError> {
        let n = self.bones();
        let len = pose.len().min(world.len());
        match (pose.get_mut(..n), world.get_mut(..n)) {
            (Some(p), Some(w)) => Ok((p, w)),
            _ => Err(RasterError::Capacity {
                what: "pose and world matrices",
                needed: n,
                capacity: len,
            }),
        }
    }

    /// The rest pose into `pose`, then the clip at `t` (if any) over it.
    fn sample(
        &self,
        t: Option<f32>,
        pose: &mut [Transform<L::Real>],
        stages: &mut impl Stages,
    ) -> Result<(), RasterError> {
        stages.time(Stage::Sample, || {
            pose.copy_from_slice(self.skeleton.rest());
            match (&self.clip, t) {
                (Some(clip), Some(t)) => Ok(clip.sample(t, Wrap::Loop, pose)?),
                _ => Ok(()),
            }
        })
    }

    /// Forward kinematics of `pose` into `world` (timed with sampling).
    fn kinematics(
        &self,
        pose: &[Transform<L::Real>],
        world: &mut [Affine<L::Real>],
        stages: &mut impl Stages,
    ) -> Result<(), RasterError> {
        stages.time(Stage::Sample, || Ok(self.skeleton.world(pose, world)?))
    }
}
