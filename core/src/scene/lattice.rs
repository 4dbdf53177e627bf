//! Project through a lattice: the skinned positions of each chunk moved by a
//! [`Lattice`] (free-form deformation after skinning) before they are projected.

use super::{PartPalette, Scene, Scratch, Stages};
use crate::affine::Affine;
use crate::asset::AssetLane;
use crate::lattice::{Coord, Lattice};
use crate::raster::{camera, Project, RasterError, ScreenVertex};

impl<L: AssetLane + Project, const N: usize> Scene<'_, L, N>
where
    L::Out: Coord,
{
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
