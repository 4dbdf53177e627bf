//! Validated views: vertices and a palette that holds every bone they use, the input of the
//! skinning loops ([`super::dispatch`]), which therefore check nothing per vertex and cannot
//! fail.
//!
//! A view is made in two steps, each a check done once where the data enters:
//!
//! 1. [`Batch::for_bones`] / [`Rigid::for_bones`]: the palette holds at least `bones`
//!    matrices (one comparison);
//! 2. [`Batch::over`] / [`Rigid::over`]: vertices whose bone indices are all below `bones`,
//!    which their maker validated when it made them: a mesh when it was constructed
//!    ([`super::SkinnedMesh::new`], [`super::RigidMesh::new`]), a baked asset's part when
//!    the asset was read (`crate::asset::Asset::read` checks every bone byte of every part
//!    against that part's palette).
//!
//! The assembly kernels read the palette at every bone index without a bounds check: this
//! invariant is what makes them sound, and only those two makers create views. (The types
//! are `pub` only as the dispatch point's `OfLane` arguments; this module is crate-private.)

use crate::affine::Affine;
use crate::lane::Lane;
use crate::vertex::Influence;

/// LBS input: vertices blended from up to `K` bones each, and a palette that holds every
/// bone index of all four slots of their influences.
/// The palette holds 3×4 matrices (`M`, LBS) or unit dual quaternions
/// (`crate::dual::Dual`, dual quaternion skinning).
#[derive(Clone, Copy, Debug)]
pub struct Batch<'a, L: Lane, const K: usize, M = Affine<L>> {
    palette: &'a [M],
    positions: &'a [[L; 3]],
    influences: &'a [Influence<L>],
}

impl<'a, L: Lane, const K: usize, M> Batch<'a, L, K, M> {
    /// A view with no vertices yet, for vertices whose bone indices are below `bones`;
    /// `None` when `palette` holds fewer matrices.
    #[inline(always)]
    pub(crate) fn for_bones(palette: &'a [M], bones: usize) -> Option<Self> {
        (bones <= palette.len()).then_some(Self {
            palette,
            positions: &[],
            influences: &[],
        })
    }

    /// The same palette over `positions` and their `influences`, whose bone indices the
    /// caller validated below the `bones` this view was made for (see the module docs).
    #[inline(always)]
    pub(crate) fn over(self, positions: &'a [[L; 3]], influences: &'a [Influence<L>]) -> Self {
        Self {
            positions,
            influences,
            ..self
        }
    }

    /// The palette, positions and influences.
    #[inline(always)]
    #[allow(clippy::type_complexity)]
    pub(crate) fn parts(&self) -> (&'a [M], &'a [[L; 3]], &'a [Influence<L>]) {
        (self.palette, self.positions, self.influences)
    }

    /// The same vertices over `palette` in another form (e.g. a prepared table of the same
    /// matrices), when it holds at least as many entries: every bone index stays below its
    /// length.
    #[cfg(skin_asm_v6m)]
    #[inline(always)]
    pub(crate) fn with_palette<N>(self, palette: &'a [N]) -> Option<Batch<'a, L, K, N>> {
        (palette.len() >= self.palette.len()).then_some(Batch {
            palette,
            positions: self.positions,
            influences: self.influences,
        })
    }

    /// The same batch as one of four influences, when `K` is 4.
    #[cfg(any(skin_asm_fixed, skin_asm_v7em_f32))]
    #[inline(always)]
    pub(crate) fn four(self) -> Option<Batch<'a, L, 4, M>> {
        (K == 4).then_some(Batch {
            palette: self.palette,
            positions: self.positions,
            influences: self.influences,
        })
    }

    /// The vertices from `start` on (for a loop that skins the ones before itself).
    #[cfg(skin_x86)]
    #[inline(always)]
    pub(crate) fn tail(&self, start: usize) -> Self {
        Self {
            palette: self.palette,
            positions: &self.positions[start..],
            influences: &self.influences[start..],
        }
    }
}

/// Stitching input: vertices that follow one bone each, and a palette that holds every
/// bone they name.
#[derive(Clone, Copy, Debug)]
pub struct Rigid<'a, L: Lane> {
    palette: &'a [Affine<L>],
    positions: &'a [[L; 3]],
    bones: &'a [u8],
}

impl<'a, L: Lane> Rigid<'a, L> {
    /// As [`Batch::for_bones`].
    #[inline(always)]
    pub(crate) fn for_bones(palette: &'a [Affine<L>], bones: usize) -> Option<Self> {
        (bones <= palette.len()).then_some(Self {
            palette,
            positions: &[],
            bones: &[],
        })
    }

    /// As [`Batch::over`]: `bones` are validated below the count this view was made for.
    #[inline(always)]
    pub(crate) fn over(self, positions: &'a [[L; 3]], bones: &'a [u8]) -> Self {
        Self {
            positions,
            bones,
            ..self
        }
    }

    /// The palette, positions and bones.
    #[inline(always)]
    #[allow(clippy::type_complexity)]
    pub(crate) fn parts(&self) -> (&'a [Affine<L>], &'a [[L; 3]], &'a [u8]) {
        (self.palette, self.positions, self.bones)
    }

    /// The vertices from `start` on (for a loop that skins the ones before itself).
    #[cfg(skin_x86)]
    #[inline(always)]
    pub(crate) fn tail(&self, start: usize) -> Self {
        Self {
            palette: self.palette,
            positions: &self.positions[start..],
            bones: &self.bones[start..],
        }
    }
}

/// The optional normals of a skinning loop: the input normals and where the skinned ones go.
pub type Normals<'n, L> = Option<(&'n [[L; 3]], &'n mut [[L; 3]])>;
