//! The palette a scene skins its parts with, one trait over the skinning methods
//! ([`Skinning`]): matrices ([`Palette`], LBS) or unit dual quaternions ([`DualPalette`],
//! DQS; [`StretchPalette`] for an asset whose joints have scale or shear). The caller owns it (its capacity is RAM it sizes), and the scene refuses a palette
//! of another method than the asset was baked for ([`RasterError::Skinning`]).

use crate::affine::Affine;
use crate::asset::{AssetLane, PartView};
use crate::bind::BindPose;
use crate::error::Error;
use crate::lane::Lane;
use crate::palette::{DualPalette, Palette, StretchPalette};
use crate::raster::{Project, RasterError};
use crate::skin::batch::{Batch, Normals};
use crate::skin::dispatch;
use crate::skin::stretched;
use crate::skin::Skinning;
use crate::skin::Tabled;
use crate::vertex::Influence;

/// A run of one part's vertices ready to skin: every bone byte of its influences is below
/// `bones`, which the asset's reader checked against the part's palette. Only the scene
/// makes one, so that [`PartPalette::skin`] hands it to the loops without another check.
pub struct Chunk<'a, L: Project> {
    bones: usize,
    positions: &'a [[L; 3]],
    influences: &'a [Influence<L>],
    out: &'a mut [[L::Out; 3]],
    normals: Normals<'a, L>,
}

impl<'a, L: Project> Chunk<'a, L> {
    /// The vertices of a part with `bones` palette entries (validated by the caller: see the
    /// type's docs).
    pub(super) fn new(
        bones: usize,
        positions: &'a [[L; 3]],
        influences: &'a [Influence<L>],
        out: &'a mut [[L::Out; 3]],
        normals: Normals<'a, L>,
    ) -> Self {
        Self {
            bones,
            positions,
            influences,
            out,
            normals,
        }
    }

    /// The validated view over `palette`, or [`RasterError::Capacity`] when it holds fewer
    /// entries than the part's bones.
    fn view<M>(&self, palette: &'a [M]) -> Result<Batch<'a, L, 4, M>, RasterError> {
        let view = Batch::for_bones(palette, self.bones).ok_or(RasterError::Capacity {
            what: "part palette",
            needed: self.bones,
            capacity: palette.len(),
        })?;
        Ok(view.over(self.positions, self.influences))
    }
}

/// [`RasterError::Skinning`] unless the asset was `baked` for `Pal`'s method.
pub(super) fn check_method<L: AssetLane + Project, Pal: PartPalette<L>>(
    baked: Skinning,
) -> Result<(), RasterError> {
    if baked != Pal::SKINNING {
        return Err(RasterError::Skinning {
            asset: baked,
            palette: Pal::SKINNING,
        });
    }
    Ok(())
}

/// A part's palette as [`crate::scene::Scene::project`] fills it each frame and skins the
/// part's vertices with: [`Palette`] for an asset baked for LBS, [`DualPalette`] for one
/// baked for DQS.
pub trait PartPalette<L: AssetLane + Project> {
    /// The method this palette's entries serve.
    const SKINNING: Skinning;

    /// The palette as a part's chunks skin with it ([`Self::prepare`]).
    type Prepared<'p>: SkinChunk<L>
    where
        Self: 'p;

    /// Fill the palette with `part`'s entries for the world matrices `world`.
    fn fill<const J: usize>(
        &mut self,
        part: &PartView<'_, L>,
        bind: &BindPose<L::Real, J>,
        world: &[Affine<L::Real>],
    ) -> Result<(), Error>;

    /// The palette prepared for the chunks of the part it was filled for, once a part: it
    /// borrows the palette, so it stays that palette's while the chunks are skinned.
    fn prepare(&self) -> Self::Prepared<'_>;
}

/// What skins a part's chunks: a [`PartPalette`] [prepared](PartPalette::prepare) for them.
pub trait SkinChunk<L: Project> {
    /// Skin `chunk` with the palette's entries.
    fn skin(&self, chunk: Chunk<'_, L>) -> Result<(), RasterError>;
}

/// An LBS [`Palette`] with its [`Tabled`] matrices (the fixed lane's ARMv6-M kernel's table
/// of them, built once a part instead of once a chunk; empty elsewhere).
pub struct TabledPalette<'p, L: Lane, const P: usize> {
    palette: &'p Palette<L, P>,
    tabled: Tabled<'p, L, P>,
}

impl<L: AssetLane + Project, const P: usize> SkinChunk<L> for TabledPalette<'_, L, P> {
    // `inline(always)`: one call of the dispatch point in the scene's skin step, so that
    // the loops are compiled into the firmware once.
    #[inline(always)]
    fn skin(&self, chunk: Chunk<'_, L>) -> Result<(), RasterError> {
        let view = chunk.view(self.tabled.palette())?;
        // The kernels skin with the stored (scaled) matrices; the exponent is applied to
        // their output, so they need not know it.
        dispatch::lbs_tabled(view, self.tabled.table(), &mut *chunk.out, chunk.normals);
        self.palette.widen(chunk.out);
        Ok(())
    }
}

impl<L: AssetLane + Project, const P: usize> PartPalette<L> for Palette<L, P> {
    const SKINNING: Skinning = Skinning::Lbs;

    fn fill<const J: usize>(
        &mut self,
        part: &PartView<'_, L>,
        bind: &BindPose<L::Real, J>,
        world: &[Affine<L::Real>],
    ) -> Result<(), Error> {
        part.palette(bind, world, self)
    }

    type Prepared<'p>
        = TabledPalette<'p, L, P>
    where
        Self: 'p;

    fn prepare(&self) -> TabledPalette<'_, L, P> {
        TabledPalette {
            palette: self,
            tabled: Tabled::new(self.as_slice()),
        }
    }
}

impl<L: AssetLane + Project, const P: usize> PartPalette<L> for DualPalette<L, P> {
    const SKINNING: Skinning = Skinning::Dqs;

    fn fill<const J: usize>(
        &mut self,
        part: &PartView<'_, L>,
        bind: &BindPose<L::Real, J>,
        world: &[Affine<L::Real>],
    ) -> Result<(), Error> {
        part.dual_palette(bind, world, self)
    }

    type Prepared<'p>
        = &'p Self
    where
        Self: 'p;

    fn prepare(&self) -> &Self {
        self
    }
}

impl<L: AssetLane + Project, const P: usize> SkinChunk<L> for &DualPalette<L, P> {
    #[inline(always)]
    fn skin(&self, chunk: Chunk<'_, L>) -> Result<(), RasterError> {
        let view = chunk.view(self.as_slice())?;
        dispatch::dqs(view, chunk.out, chunk.normals);
        Ok(())
    }
}

impl<L: AssetLane + Project, const P: usize> PartPalette<L> for StretchPalette<L, P> {
    const SKINNING: Skinning = Skinning::Dqs;

    fn fill<const J: usize>(
        &mut self,
        part: &PartView<'_, L>,
        bind: &BindPose<L::Real, J>,
        world: &[Affine<L::Real>],
    ) -> Result<(), Error> {
        part.stretch_palette(bind, world, self)
    }

    type Prepared<'p>
        = &'p Self
    where
        Self: 'p;

    fn prepare(&self) -> &Self {
        self
    }
}

impl<L: AssetLane + Project, const P: usize> SkinChunk<L> for &StretchPalette<L, P> {
    #[inline(always)]
    fn skin(&self, chunk: Chunk<'_, L>) -> Result<(), RasterError> {
        let view = chunk.view(self.duals())?;
        // A part whose joints are all rigid takes the plain DQS dispatch, as `DualPalette`.
        stretched(view, self.stretches(), chunk.out, chunk.normals).map_err(RasterError::Skin)
    }
}
