//! The fixed 52-byte header and the section layout that follows from its counts
//! (see `docs/FORMAT.md`).

use super::AssetError;
use crate::clip::Interpolation;
use crate::skin::Skinning;

/// The first four bytes of every asset.
pub const MAGIC: [u8; 4] = *b"SKIN";
/// The format version this crate reads and writes.
pub const VERSION: u16 = 3;
/// Header length in bytes.
pub const HEADER_LEN: usize = 52;
/// Offset of the CRC-32 field; the checksum covers every byte of the asset but these four.
pub(crate) const CRC_AT: usize = 48;
/// Flag bit: the asset stores vertex normals.
pub const FLAG_NORMALS: u16 = 1;
/// Flag bit: the asset is skinned with dual quaternions ([`Skinning::Dqs`]): every part's
/// palette is built as unit dual quaternions. Clear: linear blend skinning. (Bit 8, so that
/// the low bits stay for what vertices carry.)
pub const FLAG_DQS: u16 = 1 << 8;
/// Flag bit: a morph section follows the clip names (`docs/FORMAT.md`, *Morph targets*).
pub const FLAG_MORPHS: u16 = 2;
/// Flag bit: a correctives section (pose-space deformation's RBFs driving morph targets)
/// follows the morph section (`docs/FORMAT.md`, *Correctives*); only with [`FLAG_MORPHS`].
pub const FLAG_CORRECTIVES: u16 = 1 << 6;
/// Flag bit: a centre section ends the asset (`docs/FORMAT.md`, *Centre*): positions and
/// skinning matrices are relative to the model's centre, which the player adds back.
pub const FLAG_CENTRE: u16 = 1 << 7;
/// Flag bit: a lattice section (free-form deformation after skinning) follows the morph and
/// correctives sections, or the clip names without them (`docs/FORMAT.md`, *Lattice*).
pub const FLAG_LATTICE: u16 = 1 << 9;
/// The parent index that marks a root bone.
pub(crate) const NO_PARENT: u16 = u16::MAX;

/// The CRC-32 (ISO-HDLC, the zlib/PNG one) an asset's header stores: of every byte of
/// `bytes` except the CRC field itself (bytes 48..52).
///
/// Tools that patch an asset in place (and tests that damage one on purpose) reseal it
/// by writing this value, little-endian, at offset 48.
///
/// ```
/// use skin_core::asset::{checksum, HEADER_LEN};
/// let mut bytes = [0u8; HEADER_LEN];
/// let a = checksum(&bytes);
/// bytes[48] = 0xFF; // the CRC field itself is not covered
/// assert_eq!(checksum(&bytes), a);
/// bytes[0] = 1;
/// assert_ne!(checksum(&bytes), a);
/// ```
pub fn checksum(bytes: &[u8]) -> u32 {
    const CRC: crc::Crc<u32> = crc::Crc::<u32>::new(&crc::CRC_32_ISO_HDLC);
    let mut digest = CRC.digest();
    digest.update(bytes.get(..CRC_AT).unwrap_or(bytes));
    digest.update(bytes.get(CRC_AT + 4..).unwrap_or(&[]));
    digest.finalize()
}

/// The counts a header holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Counts {
    pub flags: u16,
    pub lane: u8,
    pub unit_exponent: i8,
    pub bones: u16,
    pub joints: u16,
    pub parts: u16,
    pub clips: u16,
    pub vertices: u32,
    pub indices: u32,
    pub palette: u32,
    pub channels: u32,
    pub floats: u32,
    pub names: u32,
}

impl Counts {
    /// Encode the header (with `total` and `crc`) into `out[..HEADER_LEN]`.
    pub fn put(&self, total: u32, crc: u32, out: &mut [u8]) {
        let mut w = Put { out, at: 0 };
        w.bytes(&MAGIC);
        w.bytes(&VERSION.to_le_bytes());
        w.bytes(&self.flags.to_le_bytes());
        w.bytes(&[self.lane, self.unit_exponent.to_le_bytes()[0]]);
        for v in [self.bones, self.joints, self.parts, self.clips] {
            w.bytes(&v.to_le_bytes());
        }
        w.bytes(&0u16.to_le_bytes());
        for v in [
            self.vertices,
            self.indices,
            self.palette,
            self.channels,
            self.floats,
            self.names,
            total,
            crc,
        ] {
            w.bytes(&v.to_le_bytes());
        }
    }

    /// Decode a header: `(counts, total length, crc)`. Checks magic, version and the
    /// reserved field; `bytes` must be at least [`HEADER_LEN`] long.
    pub fn get(bytes: &[u8]) -> Result<(Self, u32, u32), AssetError> {
        let u16_at = |i: usize| u16::from_le_bytes([bytes[i], bytes[i + 1]]);
        let u32_at =
            |i: usize| u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
        let magic = [bytes[0], bytes[1], bytes[2], bytes[3]];
        if magic != MAGIC {
            return Err(AssetError::Magic { found: magic });
        }
        let version = u16_at(4);
        if version != VERSION {
            return Err(AssetError::Version {
                found: version,
                supported: VERSION,
            });
        }
        let flags = u16_at(6);
        let reserved = u16_at(18);
        let known =
            FLAG_NORMALS | FLAG_MORPHS | FLAG_DQS | FLAG_CORRECTIVES | FLAG_CENTRE | FLAG_LATTICE;
        let orphan = flags & FLAG_CORRECTIVES != 0 && flags & FLAG_MORPHS == 0;
        if flags & !known != 0 || orphan || reserved != 0 {
            return Err(AssetError::Flags { flags, reserved });
        }
        let counts = Self {
            flags,
            lane: bytes[8],
            unit_exponent: i8::from_le_bytes([bytes[9]]),
            bones: u16_at(10),
            joints: u16_at(12),
            parts: u16_at(14),
            clips: u16_at(16),
            vertices: u32_at(20),
            indices: u32_at(24),
            palette: u32_at(28),
            channels: u32_at(32),
            floats: u32_at(36),
            names: u32_at(40),
        };
        Ok((counts, u32_at(44), u32_at(CRC_AT)))
    }

    /// Whether the asset stores normals.
    pub fn normals(&self) -> bool {
        self.flags & FLAG_NORMALS != 0
    }

    /// The skinning method the asset was baked for.
    pub fn skinning(&self) -> Skinning {
        if self.flags & FLAG_DQS != 0 {
            Skinning::Dqs
        } else {
            Skinning::Lbs
        }
    }

    /// Whether the asset has a morph section.
    pub fn morphs(&self) -> bool {
        self.flags & FLAG_MORPHS != 0
    }

    /// Whether the asset has a correctives section (after the morph section).
    pub fn correctives(&self) -> bool {
        self.flags & FLAG_CORRECTIVES != 0
    }

    /// Whether the asset ends with a centre section.
    pub fn centre(&self) -> bool {
        self.flags & FLAG_CENTRE != 0
    }

    /// Whether the asset has a lattice section (after the others, before the centre).
    pub fn lattice(&self) -> bool {
        self.flags & FLAG_LATTICE != 0
    }
}

struct Put<'a> {
    out: &'a mut [u8],
    at: usize,
}

impl Put<'_> {
    fn bytes(&mut self, b: &[u8]) {
        self.out[self.at..self.at + b.len()].copy_from_slice(b);
        self.at += b.len();
    }
}

/// Bytes per part record: vertex count u32, index count u32, bone count u16, reserved u16.
pub(crate) const PART_LEN: usize = 12;
/// Bytes per clip record: channel count u32, name length u32, duration f32.
pub(crate) const CLIP_LEN: usize = 12;
/// Bytes per channel record: bone u16, path u8, interpolation u8, key count u32.
pub(crate) const CHANNEL_LEN: usize = 8;
/// `f32`s per rest transform: translation 3, rotation 4, scale 3.
pub(crate) const TRS_FLOATS: usize = 10;
/// `f32`s per affine matrix (row-major 3×4).
pub(crate) const AFFINE_FLOATS: usize = 12;

/// Byte ranges of every section, each starting on a 4-byte boundary.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Sections {
    pub parents: (usize, usize),
    pub rest: (usize, usize),
    pub root: (usize, usize),
    pub joints: (usize, usize),
    pub inverse_binds: (usize, usize),
    pub positions: (usize, usize),
    pub normals: (usize, usize),
    pub influences: (usize, usize),
    pub indices: (usize, usize),
    pub parts: (usize, usize),
    pub palette: (usize, usize),
    pub clips: (usize, usize),
    pub channels: (usize, usize),
    pub floats: (usize, usize),
    pub names: (usize, usize),
    /// Total length (a multiple of 4).
    pub total: usize,
}

/// The byte range of a section of `count` records of `size` bytes starting at `at`, and
/// `at` moved to the next 4-byte boundary after it; [`AssetError::TooLarge`] on overflow.
pub(crate) fn section(
    at: &mut usize,
    count: usize,
    size: usize,
) -> Result<(usize, usize), AssetError> {
    let len = count.checked_mul(size).ok_or(AssetError::TooLarge)?;
    let start = *at;
    let end = start.checked_add(len).ok_or(AssetError::TooLarge)?;
    *at = end.checked_add(3).ok_or(AssetError::TooLarge)? & !3;
    Ok((start, end))
}

impl Sections {
    /// The layout for `c`, with `value` bytes per vertex value and `weight` bytes per weight;
    /// [`AssetError::TooLarge`] when the sizes overflow `usize`/`u32`.
    pub fn new(c: &Counts, value: usize, weight: usize) -> Result<Self, AssetError> {
        let mut at = HEADER_LEN;
        let mut next = |count: usize, size: usize| section(&mut at, count, size);
        let n = |v: u32| usize::try_from(v).map_err(|_| AssetError::TooLarge);
        let vertices = n(c.vertices)?;
        let normals = if c.normals() { vertices } else { 0 };
        let s = Self {
            parents: next(usize::from(c.bones), 2)?,
            rest: next(usize::from(c.bones), 4 * TRS_FLOATS)?,
            root: next(1, 4 * AFFINE_FLOATS)?,
            joints: next(usize::from(c.joints), 2)?,
            inverse_binds: next(usize::from(c.joints), 4 * AFFINE_FLOATS)?,
            positions: next(vertices, 3 * value)?,
            normals: next(normals, 3 * value)?,
            influences: next(vertices, 4 + 3 * weight)?,
            indices: next(n(c.indices)?, 2)?,
            parts: next(usize::from(c.parts), PART_LEN)?,
            palette: next(n(c.palette)?, 2)?,
            clips: next(usize::from(c.clips), CLIP_LEN)?,
            channels: next(n(c.channels)?, CHANNEL_LEN)?,
            floats: next(n(c.floats)?, 4)?,
            names: next(n(c.names)?, 1)?,
            total: 0,
        };
        if u32::try_from(at).is_err() {
            return Err(AssetError::TooLarge);
        }
        Ok(Self { total: at, ..s })
    }
}

/// The stored code of an interpolation: 0 step, 1 linear, 2 cubic spline.
pub(crate) fn interpolation_code(i: Interpolation) -> u8 {
    match i {
        Interpolation::Step => 0,
        Interpolation::Linear => 1,
        Interpolation::CubicSpline => 2,
    }
}
