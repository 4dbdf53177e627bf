//! [`PartView`]: one part (draw call) of a read asset — its vertices, triangles and palette —
//! and the reader's validation of the parts.

use core::ops::Range;

use super::header::PART_LEN;
use super::views::{Influences, U16s, Vectors};
use super::{Asset, AssetError, AssetLane, Field};
use crate::affine::Affine;
use crate::bind::BindPose;
use crate::error::Error;
use crate::palette::{DualPalette, Palette, StretchPalette};

/// Palette entries a part may have: influence bone indices are bytes.
pub const MAX_PART_BONES: usize = 256;

/// One part of a read asset: its vertices, triangles and palette.
#[derive(Clone, Debug)]
pub struct PartView<'a, L> {
    asset: Asset<'a, L>,
    vertices: Range<usize>,
    indices: Range<usize>,
    bones: Range<usize>,
}

impl<'a, L: AssetLane> PartView<'a, L> {
    pub(crate) fn all(asset: Asset<'a, L>) -> impl Iterator<Item = Self> + 'a {
        let records = asset.bytes_of(asset.s.parts);
        let mut at = (0usize, 0usize, 0usize);
        records.chunks_exact(PART_LEN).map(move |r| {
            let (vertices, indices, bones) = record(r);
            let part = Self {
                asset,
                vertices: at.0..at.0 + vertices,
                indices: at.1..at.1 + indices,
                bones: at.2..at.2 + bones,
            };
            at = (part.vertices.end, part.indices.end, part.bones.end);
            part
        })
    }

    /// This part's vertices within the asset's vertex arrays.
    pub fn vertex_range(&self) -> Range<usize> {
        self.vertices.clone()
    }

    /// Positions of this part's vertices.
    pub fn positions(&self) -> Vectors<'a, L> {
        let all = self.asset.positions();
        all.slice(self.vertices.start, self.vertices.len())
            .unwrap_or(all)
    }

    /// Normals of this part's vertices, if stored.
    pub fn normals(&self) -> Option<Vectors<'a, L>> {
        let all = self.asset.normals()?;
        all.slice(self.vertices.start, self.vertices.len())
    }

    /// Tangents of this part's vertices, if stored.
    pub fn tangents(&self) -> Option<super::Tangents<'a, L>> {
        let all = self.asset.tangents()?;
        all.slice(self.vertices.start, self.vertices.len())
    }

    /// Influences of this part's vertices; bone bytes index [`PartView::bones`].
    pub fn influences(&self) -> Influences<'a, L> {
        let all = self.asset.influences();
        all.slice(self.vertices.start, self.vertices.len())
            .unwrap_or(all)
    }

    /// Triangle indices, local to this part's vertices.
    pub fn indices(&self) -> U16s<'a> {
        let s = self.asset.s.indices;
        let bytes = self.asset.bytes_of(s);
        U16s::new(&bytes[2 * self.indices.start..2 * self.indices.end])
    }

    /// The palette: joint index of each palette entry.
    pub fn bones(&self) -> U16s<'a> {
        let bytes = self.asset.bytes_of(self.asset.s.palette);
        U16s::new(&bytes[2 * self.bones.start..2 * self.bones.end])
    }

    /// Fill `out` with this part's skinning matrices `W[joint bone] · B⁻¹[joint]`, narrowed
    /// to the lane at the smallest exponent that fits them all ([`Palette::fill`]). `bind`
    /// is the asset's bind pose ([`Asset::bind_pose`]), `world` the skeleton's world
    /// matrices. [`Error::Capacity`] when the part has more bones than `CAP`,
    /// [`Error::Overflow`] when a matrix does not fit the lane.
    pub fn palette<const J: usize, const CAP: usize>(
        &self,
        bind: &BindPose<L::Real, J>,
        world: &[Affine<L::Real>],
        out: &mut Palette<L, CAP>,
    ) -> Result<(), Error> {
        out.fill(|| {
            self.bones()
                .iter()
                .map(|joint| bind.matrix(usize::from(joint), world))
        })
    }

    /// [`Self::palette`] for dual quaternion skinning of joints with scale or shear: each
    /// matrix split into a unit dual quaternion and a stretch, at the smallest exponent that
    /// fits them all ([`StretchPalette::fill`]); [`Error::NotSplittable`] (naming the palette
    /// entry) for a mirrored or flattened joint.
    pub fn stretch_palette<const J: usize, const CAP: usize>(
        &self,
        bind: &BindPose<L::Real, J>,
        world: &[Affine<L::Real>],
        out: &mut StretchPalette<L, CAP>,
    ) -> Result<(), Error> {
        out.fill(|| {
            self.bones()
                .iter()
                .map(|joint| bind.matrix(usize::from(joint), world))
        })
    }

    /// [`Self::palette`] for dual quaternion skinning: each matrix as a unit dual quaternion
    /// in the lane; [`Error::NotRigid`] (naming the palette entry) for a joint with scale or
    /// shear.
    pub fn dual_palette<const J: usize, const CAP: usize>(
        &self,
        bind: &BindPose<L::Real, J>,
        world: &[Affine<L::Real>],
        out: &mut DualPalette<L, CAP>,
    ) -> Result<(), Error> {
        out.clear();
        for joint in self.bones().iter() {
            out.push(&bind.matrix(usize::from(joint), world)?)?;
        }
        Ok(())
    }
}

/// `(vertices, indices, bones)` of a part record.
fn record(r: &[u8]) -> (usize, usize, usize) {
    let u32_at = |i: usize| u32::from_le_bytes([r[i], r[i + 1], r[i + 2], r[i + 3]]) as usize;
    (
        u32_at(0),
        u32_at(4),
        usize::from(u16::from_le_bytes([r[8], r[9]])),
    )
}

impl<L: AssetLane> Asset<'_, L> {
    /// Parts tile vertices, indices and palette entries exactly; every index is in range.
    pub(crate) fn check_parts(&self) -> Result<(), AssetError> {
        let records = self.bytes_of(self.s.parts);
        let mut total = (0u64, 0u64, 0u64);
        for (part, r) in records.chunks_exact(PART_LEN).enumerate() {
            let (v, i, b) = record(r);
            if r[10] != 0 || r[11] != 0 {
                return Err(AssetError::Invalid {
                    what: Field::Parts,
                    index: part,
                });
            }
            if i % 3 != 0 {
                return Err(AssetError::Invalid {
                    what: Field::PartIndices,
                    index: part,
                });
            }
            if b > MAX_PART_BONES {
                return Err(AssetError::Capacity {
                    what: Field::Palette,
                    len: b,
                    capacity: MAX_PART_BONES,
                });
            }
            total = (total.0 + v as u64, total.1 + i as u64, total.2 + b as u64);
        }
        let c = &self.counts;
        for (what, expected, actual) in [
            (Field::PartVertices, c.vertices, total.0),
            (Field::PartIndices, c.indices, total.1),
            (Field::Palette, c.palette, total.2),
        ] {
            if u64::from(expected) != actual {
                return Err(AssetError::Mismatch {
                    what,
                    expected: expected as usize,
                    actual: actual as usize,
                });
            }
        }
        let joints = self.joints().len();
        for (index, part) in self.parts().enumerate() {
            let bones = part.bones();
            if let Some(value) = bones.iter().find(|&j| usize::from(j) >= joints) {
                return Err(AssetError::Index {
                    what: Field::Palette,
                    index,
                    value: usize::from(value),
                    limit: joints,
                });
            }
            let verts = part.vertices.len();
            if let Some(value) = part.indices().iter().find(|&i| usize::from(i) >= verts) {
                return Err(AssetError::Index {
                    what: Field::PartIndices,
                    index,
                    value: usize::from(value),
                    limit: verts,
                });
            }
            let infl = self.influences();
            for vertex in part.vertices.clone() {
                let Some((b, _)) = infl.raw(vertex) else {
                    continue;
                };
                if let Some(&value) = b.iter().find(|&&x| usize::from(x) >= bones.len()) {
                    return Err(AssetError::Index {
                        what: Field::Influence,
                        index: vertex,
                        value: usize::from(value),
                        limit: bones.len(),
                    });
                }
            }
        }
        Ok(())
    }
}
