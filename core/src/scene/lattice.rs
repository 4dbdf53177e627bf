//! Project through a lattice: the skinned positions of each chunk moved by a
//! [`Lattice`] (free-form deformation after skinning) before they are projected: the
//! asset's own (its lattice section, at the scratch's clip time, in [`Scene::project`]) or
//! the caller's ([`Scene::project_lattice`]).

use super::{PartPalette, Scene, Scratch, Stages};
use crate::affine::Affine;
use crate::asset::{AssetError, AssetLane, LatticeView};
use crate::clip::Wrap;
use crate::lattice::Lattice;
use crate::raster::{camera, Project, RasterError, ScreenVertex};

impl<L: AssetLane + Project, const N: usize> Scene<'_, L, N> {
    /// [`Self::project`] through the asset's lattice `view` at clip time `t` (looped over
    /// the clip, as morph weights are). Not inlined: a frame without a lattice does not pay
    /// the lattice's stack.
    #[inline(never)]
    pub(super) fn project_asset_lattice<const C: usize>(
        &self,
        (view, t): (LatticeView<'_, L>, f32),
        world: &[Affine<L::Real>],
        palette: &mut impl PartPalette<L>,
        scratch: &mut Scratch<L, C>,
        out: &mut [ScreenVertex],
        stages: &mut impl Stages,
    ) -> Result<(), RasterError> {
        let t = self.clip.map_or(t, |c| Wrap::Loop.time(t, c.duration()));
        let lattice = view.at(t).map_err(AssetError::Lattice)?;
        self.project_lattice(world, palette, scratch, &lattice, out, stages)
    }

    /// [`Self::project`] with every skinned position moved by `lattice` (asset units, in
    /// the lane's skinned output format) before projection; normals are shaded as skinned.
    pub fn project_lattice<const C: usize>(
        &self,
        world: &[Affine<L::Real>],
        palette: &mut impl PartPalette<L>,
        scratch: &mut Scratch<L, C>,
        lattice: &Lattice<L::Out>,
        out: &mut [ScreenVertex],
        stages: &mut impl Stages,
    ) -> Result<(), RasterError> {
        if out.len() < self.vertices() {
            return Err(RasterError::Buffer {
                needed: self.vertices(),
                len: out.len(),
            });
        }
        let cam = &self.camera;
        let mut moved = [[L::Out::default(); 3]; C];
        self.skin(world, palette, scratch, stages, |base, p, n| {
            let moved = &mut moved[..p.len()];
            moved.copy_from_slice(p);
            lattice.deform(moved);
            camera::vertices::<L>(cam, moved, n, &mut out[base..base + p.len()], base)
        })
    }
}
