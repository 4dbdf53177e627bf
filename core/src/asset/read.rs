//! The reader: validate once, then hand out zero-copy views.

use core::marker::PhantomData;

use heapless::Vec;

use super::centre::{self, CENTRE_LEN};
use super::correctives::CorrectiveSections;
use super::header::{checksum, Counts, Sections, AFFINE_FLOATS, HEADER_LEN, NO_PARENT, TRS_FLOATS};
use super::lane::lane_name;
use super::lattice::LatticeSections;
use super::morphs::MorphSections;
use super::views::{Influences, U16s, Vectors};
use super::{AssetError, AssetLane, ClipView, Field, PartView};
use crate::affine::Affine;
use crate::bind::BindPose;
use crate::clip::{Keys, LeF32s};
use crate::error::{num_error, Error, Quantity};
use crate::num::Real;
use crate::skeleton::Skeleton;
use crate::skin::Skinning;
use crate::transform::Transform;

/// A validated baked asset with vertices in lane `L`, viewed in place (no copies, no
/// allocation). See `docs/FORMAT.md` for the byte layout.
#[derive(Clone, Copy, Debug)]
pub struct Asset<'a, L> {
    pub(crate) bytes: &'a [u8],
    pub(crate) counts: Counts,
    pub(crate) s: Sections,
    /// Where the morph section starts, when the header has [`super::FLAG_MORPHS`] (its
    /// layout is read from there when asked for: an asset is copied into every view, so it
    /// stays small).
    pub(crate) m: Option<u32>,
    /// Where the correctives section starts, when the header has
    /// [`super::FLAG_CORRECTIVES`] (after the morph section).
    pub(crate) c: Option<u32>,
    /// The centre positions and skinning matrices are relative to (asset units; zero
    /// without [`super::FLAG_CENTRE`]).
    centre: [f32; 3],
    /// Every rotation key of unit length for the lane's scalar, as [`Asset::check_clips`]
    /// found (then sampling converts them without repeating that check each frame).
    pub(crate) unit_keys: bool,
    /// Where the lattice section starts, when the header has [`super::FLAG_LATTICE`].
    pub(crate) l: Option<u32>,
    lane: PhantomData<L>,
}

impl<'a, L: AssetLane> Asset<'a, L> {
    /// Check `bytes` completely — header, checksum, every index, count and value, and
    /// every clip for `L::Real` — and return a view of it. Bytes after the asset's total
    /// length (e.g. flash padding) are ignored. Never panics.
    pub fn read(bytes: &'a [u8]) -> Result<Self, AssetError> {
        if bytes.len() < HEADER_LEN {
            return Err(AssetError::Truncated {
                needed: HEADER_LEN,
                len: bytes.len(),
            });
        }
        let (counts, declared, stored) = Counts::get(bytes)?;
        if counts.lane != L::CODE {
            return Err(AssetError::Lane {
                found: lane_name(counts.lane),
                expected: L::NAME,
            });
        }
        let s = Sections::new(&counts, L::VALUE_BYTES, L::WEIGHT_BYTES)?;
        let m = match counts.morphs() {
            true => Some(MorphSections::read(bytes, s.total)?),
            false => None,
        };
        let after_morphs = m.map_or(s.total, |m| m.total);
        let c = match counts.correctives() {
            true => Some(CorrectiveSections::read(bytes, after_morphs)?),
            false => None,
        };
        let after_correctives = c.map_or(after_morphs, |c| c.total);
        let l = match counts.lattice() {
            true => Some(LatticeSections::read(bytes, after_correctives)?),
            false => None,
        };
        let before_centre = l.map_or(after_correctives, |l| l.total);
        let total = before_centre + if counts.centre() { CENTRE_LEN } else { 0 };
        if usize::try_from(declared).ok() != Some(total) {
            return Err(AssetError::Length {
                declared,
                computed: total,
            });
        }
        if bytes.len() < total {
            return Err(AssetError::Truncated {
                needed: total,
                len: bytes.len(),
            });
        }
        let bytes = &bytes[..total];
        let computed = checksum(bytes);
        if computed != stored {
            return Err(AssetError::Checksum { stored, computed });
        }
        let centre = match counts.centre() {
            true => centre::read(bytes, before_centre)?,
            false => [0.0; 3],
        };
        let mut asset = Self {
            bytes,
            counts,
            s,
            m: m.map(|_| s.total as u32),
            c: c.map(|_| after_morphs as u32),
            l: l.map(|_| after_correctives as u32),
            centre,
            unit_keys: false,
            lane: PhantomData,
        };
        asset.check_skeleton()?;
        asset.check_vertices()?;
        asset.check_parts()?;
        asset.unit_keys = asset.check_clips()?;
        asset.check_morphs()?;
        asset.check_correctives()?;
        asset.check_lattice()?;
        Ok(asset)
    }

    fn section(&self, r: (usize, usize)) -> &'a [u8] {
        &self.bytes[r.0..r.1]
    }

    fn f32s(&self, r: (usize, usize)) -> LeF32s<'a> {
        // Every section is a whole number of its records; f32 sections are 4-byte records.
        LeF32s::new(self.section(r)).unwrap_or(LeF32s::EMPTY)
    }

    fn check_skeleton(&self) -> Result<(), AssetError> {
        let bones = self.bones();
        if bones == 0 {
            return Err(Error::NoRoot.into());
        }
        for (bone, p) in self.parents().enumerate() {
            let Some(p) = p else { continue };
            let p = usize::from(p);
            if p >= bones {
                return Err(Error::ParentIndex { bone, parent: p }.into());
            }
            if p >= bone {
                return Err(Error::ParentOrder { bone, parent: p }.into());
            }
        }
        for bone in 0..bones {
            self.rest_transform::<L::Real>(bone)?;
        }
        self.root::<L::Real>()?;
        let joints = self.joints();
        for (joint, b) in joints.iter().enumerate() {
            if usize::from(b) >= bones {
                return Err(Error::JointIndex {
                    joint,
                    bone: usize::from(b),
                    bones,
                }
                .into());
            }
            self.inverse_bind::<L::Real>(joint)?;
        }
        Ok(())
    }

    fn check_vertices(&self) -> Result<(), AssetError> {
        let valid = |v: [L; 3]| v.iter().all(|c| c.valid());
        if let Some(index) = self.positions().iter().position(|v| !valid(v)) {
            return Err(AssetError::Invalid {
                what: Field::Position,
                index,
            });
        }
        if let Some(n) = self.normals() {
            if let Some(index) = n.iter().position(|v| !valid(v)) {
                return Err(AssetError::Invalid {
                    what: Field::Normal,
                    index,
                });
            }
        }
        if let Some(t) = self.tangents() {
            super::tangents::check(t.iter())?;
        }
        let infl = Influences::<L>::new(self.section(self.s.influences));
        for index in 0..infl.len() {
            let ok = infl.raw(index).is_some_and(|(_, w)| {
                w.iter().all(|&w| L::valid_weight(w)) && infl.get(index).is_some()
            });
            if !ok {
                return Err(AssetError::Invalid {
                    what: Field::Influence,
                    index,
                });
            }
        }
        Ok(())
    }

    /// The skinning method the asset was baked for (header flag
    /// [`super::FLAG_DQS`]): the kind of palette its parts are played with.
    pub fn skinning(&self) -> Skinning {
        self.counts.skinning()
    }

    /// Whether the asset was baked for DQS of joints with scale or shear (header flag
    /// [`super::FLAG_STRETCH`]): its parts are played with a
    /// [`StretchPalette`](crate::palette::StretchPalette).
    pub fn stretched(&self) -> bool {
        self.counts.stretched()
    }

    /// The unit exponent `k`: model units = asset units × 2^k.
    pub fn unit_exponent(&self) -> i8 {
        self.counts.unit_exponent
    }

    /// `2^k` as `f32`: multiply asset-unit lengths by it to get model units.
    pub fn unit(&self) -> f32 {
        libm::exp2f(f32::from(self.counts.unit_exponent))
    }

    /// Bones in the skeleton.
    pub fn bones(&self) -> usize {
        usize::from(self.counts.bones)
    }

    /// Parent of each bone.
    pub fn parents(&self) -> impl Iterator<Item = Option<u16>> + 'a {
        U16s::new(self.section(self.s.parents))
            .iter()
            .map(|p| (p != NO_PARENT).then_some(p))
    }

    /// Rest-pose local transform of `bone` in `R`.
    pub fn rest_transform<R: Real>(&self, bone: usize) -> Result<Transform<R>, AssetError> {
        let v = self.f32s(self.s.rest);
        let at = |i: usize| v.at(bone * TRS_FLOATS + i);
        if bone >= self.bones() {
            return Err(Error::LengthMismatch {
                expected: bone + 1,
                actual: self.bones(),
            }
            .into());
        }
        Transform::from_f32(
            [at(0), at(1), at(2)],
            [at(3), at(4), at(5), at(6)],
            [at(7), at(8), at(9)],
        )
        .map_err(|e| num_error(e, Quantity::LocalTransform, bone, R::NAME).into())
    }

    /// The matrix above the skeleton's roots, in `R`.
    pub fn root<R: Real>(&self) -> Result<Affine<R>, AssetError> {
        let v = self.f32s(self.s.root);
        Affine::from_f32(matrix(v, 0))
            .map_err(|e| num_error(e, Quantity::WorldMatrix, 0, R::NAME).into())
    }

    /// The skeleton in `R` with up to `N` bones, root matrix applied
    /// ([`AssetError::Capacity`] beyond `N`).
    pub fn skeleton<const N: usize>(&self) -> Result<Skeleton<L::Real, N>, AssetError> {
        let bones = self.bones();
        let cap = AssetError::Capacity {
            what: Field::Bones,
            len: bones,
            capacity: N,
        };
        let mut parents: Vec<Option<u16>, N> = Vec::new();
        let mut rest: Vec<Transform<L::Real>, N> = Vec::new();
        for (bone, p) in self.parents().enumerate() {
            parents.push(p).map_err(|_| cap)?;
            rest.push(self.rest_transform(bone)?).map_err(|_| cap)?;
        }
        Ok(Skeleton::new(&parents, &rest)?.with_root(self.root()?))
    }

    /// The skin's joints (bone indices).
    pub fn joints(&self) -> U16s<'a> {
        U16s::new(self.section(self.s.joints))
    }

    /// Inverse bind matrix of `joint`, in `R`.
    pub fn inverse_bind<R: Real>(&self, joint: usize) -> Result<Affine<R>, AssetError> {
        if joint >= self.joints().len() {
            return Err(Error::LengthMismatch {
                expected: joint + 1,
                actual: self.joints().len(),
            }
            .into());
        }
        Affine::from_f32(matrix(self.f32s(self.s.inverse_binds), joint))
            .map_err(|e| num_error(e, Quantity::InverseBind, joint, R::NAME).into())
    }

    /// The point (asset units) that positions and skinning matrices are relative to: zero,
    /// or the model's centre where the asset stores one (`docs/FORMAT.md`, *Centre*). A
    /// skinned position plus it is where the vertex is.
    pub fn centre(&self) -> [f32; 3] {
        self.centre
    }

    /// The bind pose in `R` with up to `J` joints ([`AssetError::Capacity`] beyond `J`),
    /// its skinning matrices relative to the asset's [centre](Self::centre).
    pub fn bind_pose<const J: usize>(&self) -> Result<BindPose<L::Real, J>, AssetError> {
        let joints = self.joints();
        let cap = AssetError::Capacity {
            what: Field::Joints,
            len: joints.len(),
            capacity: J,
        };
        let mut ids: Vec<u16, J> = Vec::new();
        let mut ibms: Vec<Affine<L::Real>, J> = Vec::new();
        for (j, b) in joints.iter().enumerate() {
            ids.push(b).map_err(|_| cap)?;
            ibms.push(self.inverse_bind(j)?).map_err(|_| cap)?;
        }
        let centre = self.centre.map(L::Real::from_f32);
        let mut c = [L::Real::ZERO; 3];
        for (axis, (c, v)) in c.iter_mut().zip(centre).enumerate() {
            *c = v.map_err(|e| num_error(e, Quantity::Position, axis, L::Real::NAME))?;
        }
        Ok(BindPose::new(&ids, &ibms, self.bones())?.with_centre(c)?)
    }

    /// Vertex positions (asset units), all parts.
    pub fn positions(&self) -> Vectors<'a, L> {
        Vectors::new(self.section(self.s.positions))
    }

    /// Vertex normals, if stored.
    pub fn normals(&self) -> Option<Vectors<'a, L>> {
        self.counts
            .normals()
            .then(|| Vectors::new(self.section(self.s.normals)))
    }

    /// Vertex influences, all parts (bone bytes index each vertex's part palette).
    pub fn influences(&self) -> Influences<'a, L> {
        Influences::new(self.section(self.s.influences))
    }

    /// Triangle indices, all parts (each local to its part).
    pub fn indices(&self) -> U16s<'a> {
        U16s::new(self.section(self.s.indices))
    }

    /// The parts (draw calls), in order.
    pub fn parts(&self) -> impl Iterator<Item = PartView<'a, L>> + 'a {
        PartView::all(*self)
    }

    /// The clips, in order.
    pub fn clips(&self) -> impl Iterator<Item = ClipView<'a, L::Real>> + 'a {
        ClipView::all(*self)
    }

    /// The clip called `name`, if any.
    pub fn clip(&self, name: &str) -> Option<ClipView<'a, L::Real>> {
        self.clips().find(|c| c.name() == name)
    }

    /// The section `r` of the asset's bytes.
    pub(crate) fn bytes_of(&self, r: (usize, usize)) -> &'a [u8] {
        self.section(r)
    }

    /// The key floats section.
    pub(crate) fn floats(&self) -> LeF32s<'a> {
        self.f32s(self.s.floats)
    }
}

/// Matrix `i` of a run of row-major 3×4 matrices.
fn matrix(v: LeF32s<'_>, i: usize) -> [[f32; 4]; 3] {
    core::array::from_fn(|r| core::array::from_fn(|c| v.at(i * AFFINE_FLOATS + 4 * r + c)))
}
