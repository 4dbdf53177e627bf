//! Project: skinned vertices to the screen (position, depth, shade), and the box the
//! skinned rest pose fills, which frames the camera.

use super::PartPalette;
use super::{Scene, Scratch, Stages};
use crate::affine::Affine;
use crate::asset::AssetLane;
use crate::raster::{camera, Bounds, Camera, Project, RasterError, ScreenVertex};
use crate::transform::Transform;

impl<L: AssetLane + Project, const N: usize> Scene<'_, L, N> {
    /// Skin every part for the world matrices `world` and project it into `out` (asset
    /// vertex order; at least [`Self::vertices`] entries), `C` vertices at a time; with
    /// the asset's lattice at the scratch's time, if it has one and the time is set.
    pub fn project<const C: usize>(
        &self,
        world: &[Affine<L::Real>],
        palette: &mut impl PartPalette<L>,
        scratch: &mut Scratch<L, C>,
        out: &mut [ScreenVertex],
        stages: &mut impl Stages,
    ) -> Result<(), RasterError> {
        if out.len() < self.vertices() {
            return Err(RasterError::Buffer {
                needed: self.vertices(),
                len: out.len(),
            });
        }
        if let (Some(lattice), Some(t)) = (self.asset.lattice(), scratch.time) {
            return self.project_asset_lattice((lattice, t), world, palette, scratch, out, stages);
        }
        let cam = &self.camera;
        self.skin(world, palette, scratch, stages, |base, p, n| {
            camera::vertices::<L>(cam, p, n, &mut out[base..base + p.len()], base)
        })
    }

    /// The box around every vertex skinned for the world matrices `world`, in asset units:
    /// with the [rest pose](Self::rest), the box to frame a model whose skin places its
    /// mesh away from its bind positions (see [`Self::frame_rest_pose`]).
    pub fn skinned_bounds<const C: usize>(
        &self,
        world: &[Affine<L::Real>],
        palette: &mut impl PartPalette<L>,
        scratch: &mut Scratch<L, C>,
    ) -> Result<Bounds, RasterError> {
        let mut bounds: Option<Bounds> = None;
        self.skin(world, palette, scratch, &mut (), |_, p, _| {
            let chunk = Bounds::of(p.iter().map(|v| v.map(L::out_to_f32)));
            bounds = match (bounds, chunk) {
                (Some(a), Some(b)) => Bounds::of([a.min, a.max, b.min, b.max]),
                (a, b) => a.or(b),
            };
            Ok(())
        })?;
        bounds.ok_or(RasterError::Screen)
    }

    /// Points the camera at the skinned [rest pose](Self::rest) (the buffers are those
    /// [`Self::pose`] and [`Self::project`] take): what the firmware shows, since a skin may
    /// place its mesh far from the bind positions that [`Self::new`] frames.
    pub fn frame_rest_pose<const C: usize>(
        &mut self,
        pose: &mut [Transform<L::Real>],
        world: &mut [Affine<L::Real>],
        palette: &mut impl PartPalette<L>,
        scratch: &mut Scratch<L, C>,
    ) -> Result<(), RasterError> {
        self.rest(pose, world)?;
        // At rest, morph targets take their default weights (correctives too).
        let (time, correctives) = (scratch.time.take(), scratch.correctives.take());
        let bounds = self.skinned_bounds(world, palette, scratch);
        (scratch.time, scratch.correctives) = (time, correctives);
        let bounds = bounds?;
        self.camera = Camera::frame(&bounds, self.width, self.height).ok_or(RasterError::Screen)?;
        Ok(())
    }
}
