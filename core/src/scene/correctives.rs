//! Correctives: pose-space deformation's weights, evaluated once a frame from the pose by
//! the asset's RBFs ([`crate::asset::Correctives`], [`crate::psd`]) and held in the
//! [`Scratch`], where the deform step (`morph.rs`) takes them in place of the corrective
//! targets' clip or default weights. The targets then move the bind positions before
//! skinning like any other morph target.

use super::{Scene, Scratch, Stage, Stages};
use crate::asset::{AssetError, AssetLane, MorphSetView, MAX_CORRECTIVES};
use crate::raster::{Project, RasterError};
use crate::transform::Transform;

impl<L: AssetLane + Project, const N: usize> Scene<'_, L, N> {
    /// Evaluate the asset's correctives at `pose` (the local transforms [`Self::pose`] left,
    /// one a bone) into `scratch`, after [`Scratch::set_time`]: the next
    /// [`Self::project`] moves the corrective targets by these weights. Timed with the
    /// palette ([`Stage::Palette`]: once a frame, before any vertex). Without correctives in
    /// the asset it changes nothing.
    ///
    /// A pose shorter than the skeleton, or a driving bone's rotation that is not finite,
    /// is an error ([`AssetError::Psd`]).
    pub fn correctives<const C: usize>(
        &self,
        pose: &[Transform<L::Real>],
        scratch: &mut Scratch<L, C>,
        stages: &mut impl Stages,
    ) -> Result<(), RasterError> {
        let Some(correctives) = self.asset.correctives() else {
            return Ok(());
        };
        let pose = pose.get(..self.bones()).ok_or(RasterError::Capacity {
            what: "pose",
            needed: self.bones(),
            capacity: pose.len(),
        })?;
        stages.time(Stage::Palette, || {
            let mut weights = [0.0f32; MAX_CORRECTIVES];
            let mut at = 0;
            for (rbf, view) in correctives.rbfs().enumerate() {
                // `Asset::read` checked that the targets fit MAX_CORRECTIVES.
                let n = view.targets().len();
                let out = weights.get_mut(at..at + n).unwrap_or(&mut []);
                view.weigh(pose, out)
                    .map_err(|error| AssetError::Psd { rbf, error })?;
                at += n;
            }
            scratch.correctives = Some(weights);
            Ok(())
        })
    }

    /// The corrective weight of target `target` (numbered across sets) of `set` this frame,
    /// if an RBF drives it and [`Self::correctives`] evaluated it.
    pub(super) fn corrective<const C: usize>(
        &self,
        scratch: &Scratch<L, C>,
        set: &MorphSetView,
        target: usize,
    ) -> Option<f32> {
        let weights = scratch.correctives.as_ref()?;
        let local = target.checked_sub(set.targets.start)?;
        let mut at = 0;
        for rbf in self.asset.correctives()?.rbfs() {
            let targets = rbf.targets();
            if rbf.set() == set.index {
                let k = targets.iter().position(|t| usize::from(t) == local)?;
                return weights.get(at + k).copied();
            }
            at += targets.len();
        }
        None
    }
}
