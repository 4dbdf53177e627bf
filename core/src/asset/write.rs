//! The writer: [`AssetParts`] → bytes, into a caller's buffer, without allocating.

use super::centre::{self, CENTRE_LEN};
use super::correctives::{self, CorrectiveSections};
use super::header::{
    checksum, interpolation_code, Counts, Sections, AFFINE_FLOATS, CHANNEL_LEN, CLIP_LEN, CRC_AT,
    FLAG_DQS, FLAG_NORMALS, HEADER_LEN, NO_PARENT, PART_LEN,
};
use super::lattice::{self, LatticeSections};
use super::morphs::{flag, MorphSections};
use super::{
    Asset, AssetError, AssetLane, AssetParts, CorrectiveParts, Field, LatticeParts, MorphParts,
};
use crate::affine::Affine;
use crate::clip::Path;
use crate::skin::Skinning;

impl<L: AssetLane> AssetParts<'_, L> {
    /// The exact length [`AssetParts::write`] needs.
    ///
    /// [`AssetError::TooLarge`] when a count does not fit its header field,
    /// [`AssetError::Mismatch`] when slices that must match in length do not.
    pub fn size(&self) -> Result<usize, AssetError> {
        self.size_with_morphs(None)
    }

    /// The exact length [`AssetParts::write_with_morphs`] needs.
    pub fn size_with_morphs(&self, morphs: Option<&MorphParts<'_>>) -> Result<usize, AssetError> {
        self.size_deformed(&Deformers {
            morphs,
            ..Deformers::default()
        })
    }

    /// The exact length [`AssetParts::write_deformed`] needs.
    pub fn size_deformed(&self, deformers: &Deformers<'_>) -> Result<usize, AssetError> {
        Ok(self.layout(deformers)?.total)
    }

    /// The header counts, the sections and the total length, with the layout of each
    /// deformer's section there is.
    fn layout(&self, d: &Deformers<'_>) -> Result<Layout, AssetError> {
        let mut c = self.counts()?;
        c.flags |= flag(d.morphs.is_some())
            | correctives::flag(d.correctives.is_some())
            | lattice::flag(d.lattice.is_some())
            | centre::flag(self.centre);
        centre::check(self.centre)?;
        let s = Sections::new(&c, L::VALUE_BYTES, L::WEIGHT_BYTES)?;
        let m = match d.morphs {
            Some(m) => Some(MorphSections::new(s.total, m.counts()?)?),
            None => None,
        };
        let after_morphs = m.map_or(s.total, |m| m.total);
        let r = match d.correctives {
            Some(r) => Some(r.sections(after_morphs)?),
            None => None,
        };
        let after_correctives = r.map_or(after_morphs, |r| r.total);
        let l = match d.lattice {
            Some(l) => Some(l.sections(after_correctives)?),
            None => None,
        };
        let centre = if c.centre() { CENTRE_LEN } else { 0 };
        Ok(Layout {
            c,
            s,
            total: l.map_or(after_correctives, |l| l.total) + centre,
            m,
            r,
            l,
        })
    }

    /// Serialise into `out` and return the number of bytes written (the rest of `out` is
    /// untouched). The result is read back with [`Asset::read`] before returning, so every
    /// error the reader would report (an index out of range, keys that do not fit the
    /// lane's scalar, …) is reported here instead; a written asset always reads.
    ///
    /// ```
    /// use skin_core::affine::Affine;
    /// use skin_core::asset::{Asset, AssetParts, Part};
    /// use skin_core::skin::Skinning;
    /// use skin_core::transform::Transform;
    /// use skin_core::vertex::Influence;
    /// let positions = [[0.0f32, 0.5, 0.0]; 3];
    /// let influences = [Influence::rigid(0); 3];
    /// let parts = AssetParts {
    ///     unit_exponent: 0,
    ///     parents: &[None],
    ///     rest: &[Transform::IDENTITY],
    ///     root: Affine::IDENTITY,
    ///     joints: &[0],
    ///     inverse_binds: &[Affine::IDENTITY],
    ///     positions: &positions,
    ///     normals: None,
    ///     influences: &influences,
    ///     indices: &[0, 1, 2],
    ///     parts: &[Part { vertices: 3, indices: 3, bones: &[0] }],
    ///     clips: &[],
    ///     skinning: Skinning::Lbs,
    ///     centre: [0.0; 3],
    /// };
    /// let mut buf = [0u8; 512];
    /// let n = parts.write(&mut buf).unwrap();
    /// assert_eq!(n, parts.size().unwrap());
    /// let asset = Asset::<f32>::read(&buf[..n]).unwrap();
    /// assert_eq!(asset.positions().get(2), Some([0.0, 0.5, 0.0]));
    /// ```
    pub fn write(&self, out: &mut [u8]) -> Result<usize, AssetError> {
        self.write_with_morphs(None, out)
    }

    /// [`AssetParts::write`] with a morph section for `morphs` (`None`: none, the same bytes
    /// as [`AssetParts::write`]).
    pub fn write_with_morphs(
        &self,
        morphs: Option<&MorphParts<'_>>,
        out: &mut [u8],
    ) -> Result<usize, AssetError> {
        let deformers = Deformers {
            morphs,
            ..Deformers::default()
        };
        self.write_deformed(&deformers, out)
    }

    /// [`AssetParts::write`] with a section for each of `deformers` (none: the same bytes
    /// as [`AssetParts::write`]).
    pub fn write_deformed(
        &self,
        deformers: &Deformers<'_>,
        out: &mut [u8],
    ) -> Result<usize, AssetError> {
        let Layout {
            c,
            s,
            total: total_len,
            m,
            r,
            l,
        } = self.layout(deformers)?;
        let (morphs, correctives) = (deformers.morphs, deformers.correctives);
        if out.len() < total_len {
            return Err(AssetError::Buffer {
                needed: total_len,
                len: out.len(),
            });
        }
        let out = &mut out[..total_len];
        out.fill(0);
        for (i, p) in self.parents.iter().enumerate() {
            let v = p.unwrap_or(NO_PARENT);
            out[s.parents.0 + 2 * i..][..2].copy_from_slice(&v.to_le_bytes());
        }
        let rest = self.rest.iter().flat_map(|t| {
            let r = t.rotation.to_f32();
            let (tr, sc) = (t.translation, t.scale);
            [
                tr[0], tr[1], tr[2], r[0], r[1], r[2], r[3], sc[0], sc[1], sc[2],
            ]
        });
        put_f32s(out, s.rest.0, rest);
        put_f32s(out, s.root.0, affine(&self.root).into_iter());
        put_u16s(out, s.joints.0, self.joints.iter().copied());
        put_f32s(
            out,
            s.inverse_binds.0,
            self.inverse_binds.iter().flat_map(affine),
        );
        let vb = L::VALUE_BYTES;
        let values = |vs: &[[L; 3]], out: &mut [u8], at: usize| {
            for (i, v) in vs.iter().flatten().enumerate() {
                v.put(&mut out[at + vb * i..][..vb]);
            }
        };
        values(self.positions, out, s.positions.0);
        if let Some(n) = self.normals {
            values(n, out, s.normals.0);
        }
        let ib = 4 + 3 * L::WEIGHT_BYTES;
        for (i, inf) in self.influences.iter().enumerate() {
            let rec = &mut out[s.influences.0 + ib * i..][..ib];
            rec[..4].copy_from_slice(&inf.bones());
            for (k, w) in inf.stored().into_iter().enumerate() {
                L::put_weight(w, &mut rec[4 + L::WEIGHT_BYTES * k..][..L::WEIGHT_BYTES]);
            }
        }
        put_u16s(out, s.indices.0, self.indices.iter().copied());
        for (i, p) in self.parts.iter().enumerate() {
            let rec = &mut out[s.parts.0 + PART_LEN * i..][..PART_LEN];
            rec[..4].copy_from_slice(&p.vertices.to_le_bytes());
            rec[4..8].copy_from_slice(&p.indices.to_le_bytes());
            let bones = u16::try_from(p.bones.len()).map_err(|_| AssetError::TooLarge)?;
            rec[8..10].copy_from_slice(&bones.to_le_bytes());
        }
        let palette = self.parts.iter().flat_map(|p| p.bones.iter().copied());
        put_u16s(out, s.palette.0, palette);
        let (mut channel, mut float, mut name) = (0, 0, 0);
        for (i, clip) in self.clips.iter().enumerate() {
            let rec = &mut out[s.clips.0 + CLIP_LEN * i..][..CLIP_LEN];
            let channels = u32::try_from(clip.channels.len()).map_err(|_| AssetError::TooLarge)?;
            let name_len = u32::try_from(clip.name.len()).map_err(|_| AssetError::TooLarge)?;
            rec[..4].copy_from_slice(&channels.to_le_bytes());
            rec[4..8].copy_from_slice(&name_len.to_le_bytes());
            rec[8..12].copy_from_slice(&clip.duration.to_le_bytes());
            out[s.names.0 + name..][..clip.name.len()].copy_from_slice(clip.name.as_bytes());
            name += clip.name.len();
            for ch in clip.channels {
                let rec = &mut out[s.channels.0 + CHANNEL_LEN * channel..][..CHANNEL_LEN];
                let keys = u32::try_from(ch.times.len()).map_err(|_| AssetError::TooLarge)?;
                rec[..2].copy_from_slice(&ch.bone.to_le_bytes());
                rec[2] = path_code(ch.path);
                rec[3] = interpolation_code(ch.interpolation);
                rec[4..8].copy_from_slice(&keys.to_le_bytes());
                channel += 1;
                let floats = ch.times.iter().chain(ch.values.iter()).copied();
                put_f32s(out, s.floats.0 + 4 * float, floats);
                float += ch.times.len() + ch.values.len();
            }
        }
        if let (Some(parts), Some(m)) = (morphs, m) {
            parts.put(self, &m, out)?;
        }
        if let (Some(parts), Some(r)) = (correctives, r) {
            parts.put::<L>(&r, out)?;
        }
        if let (Some(parts), Some(l)) = (deformers.lattice, l) {
            parts.put(&l, out)?;
        }
        if c.centre() {
            centre::write(self.centre, out, total_len - CENTRE_LEN);
        }
        let total = u32::try_from(total_len).map_err(|_| AssetError::TooLarge)?;
        c.put(total, 0, &mut out[..HEADER_LEN]);
        let crc = checksum(out);
        out[CRC_AT..CRC_AT + 4].copy_from_slice(&crc.to_le_bytes());
        Asset::<L>::read(out)?;
        Ok(total_len)
    }

    /// The header counts, checking what the byte layout cannot express.
    fn counts(&self) -> Result<Counts, AssetError> {
        let big = |_| AssetError::TooLarge;
        let bones = self.parents.len();
        let mismatch = |what, expected, actual| {
            if expected == actual {
                Ok(())
            } else {
                Err(AssetError::Mismatch {
                    what,
                    expected,
                    actual,
                })
            }
        };
        mismatch(Field::Bones, bones, self.rest.len())?;
        mismatch(Field::Joints, self.joints.len(), self.inverse_binds.len())?;
        let vertices = self.positions.len();
        mismatch(Field::Vertices, vertices, self.influences.len())?;
        if let Some(n) = self.normals {
            mismatch(Field::Vertices, vertices, n.len())?;
        }
        // A parent index of 0xFFFF would be read back as "no parent": reject it here.
        for (bone, p) in self.parents.iter().enumerate() {
            if let Some(p) = *p {
                if usize::from(p) >= bones {
                    return Err(AssetError::Index {
                        what: Field::Bones,
                        index: bone,
                        value: usize::from(p),
                        limit: bones,
                    });
                }
            }
        }
        let sum = |it: &mut dyn Iterator<Item = usize>| -> Result<u32, AssetError> {
            let mut total = 0usize;
            for v in it {
                total = total.checked_add(v).ok_or(AssetError::TooLarge)?;
            }
            u32::try_from(total).map_err(big)
        };
        let channels = self.clips.iter().flat_map(|c| c.channels);
        Ok(Counts {
            flags: match self.skinning {
                Skinning::Lbs => 0,
                Skinning::Dqs => FLAG_DQS,
            } | if self.normals.is_some() {
                FLAG_NORMALS
            } else {
                0
            },
            lane: L::CODE,
            unit_exponent: self.unit_exponent,
            bones: u16::try_from(bones).map_err(big)?,
            joints: u16::try_from(self.joints.len()).map_err(big)?,
            parts: u16::try_from(self.parts.len()).map_err(big)?,
            clips: u16::try_from(self.clips.len()).map_err(big)?,
            vertices: u32::try_from(vertices).map_err(big)?,
            indices: u32::try_from(self.indices.len()).map_err(big)?,
            palette: sum(&mut self.parts.iter().map(|p| p.bones.len()))?,
            channels: sum(&mut self.clips.iter().map(|c| c.channels.len()))?,
            floats: sum(&mut channels.map(|c| c.times.len() + c.values.len()))?,
            names: sum(&mut self.clips.iter().map(|c| c.name.len()))?,
        })
    }
}

/// What moves vertices besides skinning, for [`AssetParts::write_deformed`]: each `None`
/// (the default) leaves its section out.
#[derive(Clone, Copy, Debug, Default)]
pub struct Deformers<'a> {
    /// Morph targets (docs/FORMAT.md, *Morph targets*).
    pub morphs: Option<&'a MorphParts<'a>>,
    /// Pose-space deformation's correctives, driving targets of `morphs` (*Correctives*).
    pub correctives: Option<&'a CorrectiveParts<'a>>,
    /// A lattice applied after skinning (*Lattice*).
    pub lattice: Option<&'a LatticeParts<'a>>,
}

/// The header counts, the sections, the total length, and the layout of each deformer's
/// section there is.
struct Layout {
    c: Counts,
    s: Sections,
    total: usize,
    m: Option<MorphSections>,
    r: Option<CorrectiveSections>,
    l: Option<LatticeSections>,
}

/// Row-major entries of a 3×4 matrix.
fn affine(m: &Affine<f32>) -> [f32; AFFINE_FLOATS] {
    core::array::from_fn(|i| m.rows[i / 4][i % 4])
}

fn put_f32s(out: &mut [u8], at: usize, values: impl Iterator<Item = f32>) {
    for (i, v) in values.enumerate() {
        out[at + 4 * i..][..4].copy_from_slice(&v.to_le_bytes());
    }
}

fn put_u16s(out: &mut [u8], at: usize, values: impl Iterator<Item = u16>) {
    for (i, v) in values.enumerate() {
        out[at + 2 * i..][..2].copy_from_slice(&v.to_le_bytes());
    }
}

/// The stored code of a path: 0 translation, 1 rotation, 2 scale.
pub(crate) fn path_code(p: Path) -> u8 {
    match p {
        Path::Translation => 0,
        Path::Rotation => 1,
        Path::Scale => 2,
    }
}
