//! The tangent step: the asset's tangents ([`crate::asset::Tangents`]) skinned part by part
//! with the part's palette, as [`crate::tangent`] skins them — each direction through the
//! loop that skins normals (rotation only under DQS, the blended linear part under LBS),
//! renormalised, its handedness `w` kept — so that a board gets the bits the host's
//! `skin pose` prints. Tangents are not morphed (the importer drops their deltas) and are
//! directions, so neither the morph step nor the centre touches them.

use super::skinning::{check_method, Chunk, PartPalette, SkinChunk};
use super::Scene;
use crate::affine::Affine;
use crate::asset::AssetLane;
use crate::raster::{Project, RasterError};
use crate::vertex::Influence;

impl<L: AssetLane + Project, const N: usize> Scene<'_, L, N> {
    /// Skins the asset's tangents for the world matrices `world`, `C` vertices at a time
    /// (the buffers are on the stack: about `C × 20` lane values), and hands each chunk to
    /// `each` with the asset index of its first vertex: `[x, y, z, w]`, the direction a unit
    /// vector, `w` the stored ±1. The last part comes first, then the others in order:
    /// `kept` says that `palette` still holds that part's matrices for `world`, as the skin
    /// step ([`Self::project`]) leaves it, so that they are not built again (with `false`
    /// the palette is filled for every part). An asset without tangents calls `each` never.
    /// [`RasterError::Skinning`] for a palette of another method than the asset's; the
    /// palette's errors as [`Self::project`] has them.
    ///
    /// ```
    /// # use skin_core::prelude::*;
    /// # use skin_core::asset::{AssetParts, Part};
    /// use skin_core::scene::Scene;
    /// # let positions = [[-0.5f32, -0.5, 0.0], [0.5, -0.5, 0.0], [0.0, 0.5, 0.0]];
    /// # let tangents = [[1.0f32, 0.0, 0.0, -1.0]; 3];
    /// # let parts = AssetParts {
    /// #     unit_exponent: 0, parents: &[None], rest: &[Transform::IDENTITY],
    /// #     root: Affine::IDENTITY, joints: &[0], inverse_binds: &[Affine::IDENTITY],
    /// #     positions: &positions, normals: None, tangents: Some(&tangents),
    /// #     influences: &[Influence::rigid(0); 3], indices: &[0, 1, 2],
    /// #     parts: &[Part { vertices: 3, indices: 3, bones: &[0] }], clips: &[],
    /// #     skinning: skin_core::skin::Skinning::Lbs, centre: [0.0; 3],
    /// # };
    /// # let mut bytes = [0u8; 1024];
    /// # let n = parts.write(&mut bytes).unwrap();
    /// // `bytes`: a baked asset of one bone whose triangle's tangents point along +X.
    /// let asset = Asset::<f32>::read(&bytes[..n]).unwrap();
    /// let scene = Scene::<f32, 4>::new(asset, 16, 16).unwrap();
    /// // The bone turned a quarter about Z: +X turns to +Y (renormalised by the loop's fast
    /// // inverse square root), the handedness stays.
    /// let turn = Affine { rows: [[0.0, -1.0, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0]] };
    /// let mut got = Vec::new();
    /// scene
    ///     .tangents::<_, 2>(&[turn], &mut Palette::<f32, 4>::new(), false, |first, t| {
    ///         got.extend(t.iter().enumerate().map(|(i, t)| (first + i, *t)))
    ///     })
    ///     .unwrap();
    /// assert_eq!(got.len(), 3);
    /// assert!(got.iter().all(|(_, t)| t[0].abs() < 1e-5 && (t[1] - 1.0).abs() < 1e-5 && t[3] == -1.0));
    /// ```
    pub fn tangents<Pal: PartPalette<L>, const C: usize>(
        &self,
        world: &[Affine<L::Real>],
        palette: &mut Pal,
        kept: bool,
        mut each: impl FnMut(usize, &[[L; 4]]),
    ) -> Result<(), RasterError> {
        check_method::<L, Pal>(self.asset.skinning())?;
        if self.asset.tangents().is_none() {
            return Ok(());
        }
        let mut positions = [[L::default(); 3]; C];
        let mut influences = [Influence::<L>::default(); C];
        let mut dirs = [[L::default(); 3]; C];
        let mut skinned = [[L::Out::default(); 3]; C];
        let mut turned = [[L::default(); 3]; C];
        let mut out = [[L::default(); 4]; C];
        let last = self.asset.parts().count().saturating_sub(1);
        let parts = || self.asset.parts();
        let order = parts().skip(last).chain(parts().take(last));
        for (k, part) in order.enumerate() {
            if k > 0 || !kept {
                palette.fill(&part, &self.bind, world)?;
            }
            let range = part.vertex_range();
            let stored = part.tangents().filter(|t| t.len() == range.len());
            let missing = RasterError::Capacity {
                what: "asset tangents",
                needed: range.end,
                capacity: self.vertices(),
            };
            let stored = stored.ok_or(missing)?;
            let palette = palette.prepare();
            let mut start = 0;
            while start < range.len() {
                let n = C.min(range.len() - start);
                // `Asset::read` checked that every array holds every part's vertices.
                if let Some(p) = part.positions().slice(start, n) {
                    p.copy_to(&mut positions[..n]);
                }
                if let Some(i) = part.influences().slice(start, n) {
                    i.copy_to(&mut influences[..n]);
                }
                let chunk = stored.slice(start, n).into_iter().flat_map(|t| t.iter());
                for ((d, o), t) in dirs.iter_mut().zip(out.iter_mut()).zip(chunk) {
                    *d = [t[0], t[1], t[2]];
                    o[3] = t[3];
                }
                // The reader checked every bone byte of the part against its palette.
                palette.skin(Chunk::new(
                    part.bones().len(),
                    &positions[..n],
                    &influences[..n],
                    &mut skinned[..n],
                    Some((&dirs[..n], &mut turned[..n])),
                ))?;
                for (o, d) in out.iter_mut().zip(&turned[..n]) {
                    o[..3].copy_from_slice(d);
                }
                each(range.start + start, &out[..n]);
                start += n;
            }
        }
        Ok(())
    }
}
