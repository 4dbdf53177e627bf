//! The lattice section (present when the header has [`FLAG_LATTICE`], after the morph and
//! correctives sections): a free-form deformation lattice ([`crate::lattice`]) applied to
//! every skinned vertex after skinning, its control points keyed over the played clip's
//! time. Its layout, the writer's input ([`LatticeParts`]), the writer, the reader's checks
//! and the view ([`LatticeView`]) that gives the lattice at a time.

use core::marker::PhantomData;

use super::header::{section, FLAG_LATTICE};
use super::{Asset, AssetError, AssetLane, Field};
use crate::lattice::{Lattice, LatticeError, MAX_DEGREE};

/// Bytes of the section's head: degrees 3 × u8, reserved u8, keys u16, reserved u16.
const HEAD_LEN: usize = 8;

/// The lattice an asset holds, for [`super::AssetParts::write_deformed`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LatticeParts<'a> {
    /// The box's lower corner, asset units.
    pub min: [f32; 3],
    /// Its upper corner.
    pub max: [f32; 3],
    /// Degrees along x, y, z (1 to [`MAX_DEGREE`]).
    pub degree: [u8; 3],
    /// Key times (seconds of the played clip), strictly increasing; at least one.
    pub times: &'a [f32],
    /// Per key, every control point's offset from its rest place (asset units), in the
    /// lattice's point order (`(i·(m + 1) + j)·(n + 1) + k`).
    pub offsets: &'a [[f32; 3]],
}

/// Byte ranges of the section's parts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct LatticeSections {
    pub degree: [u8; 3],
    pub keys: usize,
    pub head: (usize, usize),
    pub corners: (usize, usize),
    pub times: (usize, usize),
    pub offsets: (usize, usize),
    pub total: usize,
}

/// Control points of a lattice of `degree`.
fn points(degree: [u8; 3]) -> usize {
    degree.iter().map(|&d| usize::from(d) + 1).product()
}

impl LatticeSections {
    fn new(at: usize, degree: [u8; 3], keys: usize) -> Result<Self, AssetError> {
        let mut next_at = at;
        let mut next = |count: usize, size: usize| section(&mut next_at, count, size);
        let values = keys
            .checked_mul(points(degree) * 3)
            .ok_or(AssetError::TooLarge)?;
        let s = Self {
            degree,
            keys,
            head: next(1, HEAD_LEN)?,
            corners: next(6, 4)?,
            times: next(keys, 4)?,
            offsets: next(values, 4)?,
            total: 0,
        };
        Ok(Self {
            total: next_at,
            ..s
        })
    }

    /// The layout of the section at `at` in `bytes`, from its head.
    pub fn read(bytes: &[u8], at: usize) -> Result<Self, AssetError> {
        let head = bytes.get(at..at + HEAD_LEN).ok_or(AssetError::Truncated {
            needed: at + HEAD_LEN,
            len: bytes.len(),
        })?;
        let degree = [head[0], head[1], head[2]];
        Self::new(
            at,
            degree,
            usize::from(u16::from_le_bytes([head[4], head[5]])),
        )
    }
}

impl LatticeParts<'_> {
    /// The layout from `at`, checking what it cannot express.
    pub(crate) fn sections(&self, at: usize) -> Result<LatticeSections, AssetError> {
        let expected = self.times.len() * points(self.degree);
        if self.offsets.len() != expected {
            return Err(AssetError::Mismatch {
                what: Field::LatticeOffsets,
                expected,
                actual: self.offsets.len(),
            });
        }
        LatticeSections::new(at, self.degree, self.times.len())
    }

    /// Write the section laid out as `s` into `out` (zeroed).
    pub(crate) fn put(&self, s: &LatticeSections, out: &mut [u8]) -> Result<(), AssetError> {
        let head = &mut out[s.head.0..s.head.1];
        head[..3].copy_from_slice(&self.degree);
        let keys = u16::try_from(self.times.len()).map_err(|_| AssetError::TooLarge)?;
        head[4..6].copy_from_slice(&keys.to_le_bytes());
        let floats = self.min.iter().chain(&self.max).chain(self.times);
        let floats = floats.chain(self.offsets.iter().flatten());
        for (i, v) in floats.enumerate() {
            out[s.corners.0 + 4 * i..][..4].copy_from_slice(&v.to_le_bytes());
        }
        Ok(())
    }
}

/// The lattice section of a read asset ([`Asset::lattice`]).
#[derive(Clone, Copy, Debug)]
pub struct LatticeView<'a, L> {
    bytes: &'a [u8],
    s: LatticeSections,
    lane: PhantomData<L>,
}

impl<'a, L: AssetLane> LatticeView<'a, L> {
    fn float(&self, r: (usize, usize), i: usize) -> f32 {
        let b = self
            .bytes
            .get(r.0 + 4 * i..r.0 + 4 * i + 4)
            .unwrap_or(&[0; 4]);
        f32::from_le_bytes([b[0], b[1], b[2], b[3]])
    }

    /// Degrees along x, y, z.
    pub fn degree(&self) -> [u8; 3] {
        self.s.degree
    }

    /// The box's corners, asset units.
    pub fn corners(&self) -> ([f32; 3], [f32; 3]) {
        let c = |i| self.float(self.s.corners, i);
        ([c(0), c(1), c(2)], [c(3), c(4), c(5)])
    }

    /// Keys.
    pub fn keys(&self) -> usize {
        self.s.keys
    }

    /// The time of key `k`.
    pub fn time(&self, k: usize) -> f32 {
        self.float(self.s.times, k)
    }

    /// Key `k`'s offset of control point `p` (in the lattice's point order).
    pub fn offset(&self, k: usize, p: usize) -> [f32; 3] {
        let at = 3 * (k * points(self.s.degree) + p);
        [0, 1, 2].map(|c| self.float(self.s.offsets, at + c))
    }

    /// The lattice at clip time `t`: each control point at rest plus its offset, linear
    /// between the keys around `t` (held before the first and after the last), in the
    /// lane's skinned output format. The reader checked every key's lattice, and each
    /// point between two keys lies between theirs, so this fails only on an asset not read
    /// by [`Asset::read`].
    pub fn at(&self, t: f32) -> Result<Lattice<L::Out>, LatticeError> {
        let (min, max) = self.corners();
        let mut lattice = Lattice::new(min, max, self.s.degree)?;
        let n = self.s.keys;
        let after = (0..n).find(|&k| self.time(k) > t);
        let (a, b, f) = match after {
            Some(0) | None if n > 0 => {
                let k = after.map_or(n - 1, |_| 0);
                (k, k, 0.0)
            }
            Some(k) => {
                let (ta, tb) = (self.time(k - 1), self.time(k));
                (k - 1, k, (t - ta) / (tb - ta))
            }
            _ => return Ok(lattice),
        };
        lattice.offset_all((0..points(self.s.degree)).map(|p| {
            let (oa, ob) = (self.offset(a, p), self.offset(b, p));
            [0, 1, 2].map(|c| oa[c] + f * (ob[c] - oa[c]))
        }))?;
        Ok(lattice)
    }
}

impl<'a, L: AssetLane> Asset<'a, L> {
    /// The lattice section, when the asset has one.
    pub fn lattice(&self) -> Option<LatticeView<'a, L>> {
        let at = usize::try_from(self.l?).ok()?;
        let s = LatticeSections::read(self.bytes, at).ok()?;
        Some(LatticeView {
            bytes: self.bytes,
            s,
            lane: PhantomData,
        })
    }

    /// The lattice is one [`Lattice::new`] accepts in the lane's output format, with at
    /// least one key, times finite and increasing, and every key's control points within
    /// the format.
    pub(crate) fn check_lattice(&self) -> Result<(), AssetError> {
        let Some(v) = self.lattice() else {
            return Ok(());
        };
        let head = &self.bytes[v.s.head.0..v.s.head.1];
        if head[3] != 0 || head[6..8] != [0, 0] {
            return Err(AssetError::Invalid {
                what: Field::LatticeKey,
                index: 0,
            });
        }
        if v.s.degree.iter().any(|d| !(1..=MAX_DEGREE).contains(d)) || v.keys() == 0 {
            let (min, max) = v.corners();
            Lattice::<L::Out>::new(min, max, v.s.degree).map_err(AssetError::Lattice)?;
            return Err(AssetError::Invalid {
                what: Field::LatticeKey,
                index: 0,
            });
        }
        let mut last = f32::NEG_INFINITY;
        for k in 0..v.keys() {
            let t = v.time(k);
            if !t.is_finite() || t <= last {
                return Err(AssetError::Invalid {
                    what: Field::LatticeKey,
                    index: k,
                });
            }
            last = t;
            // The lattice at the key's own time is the key's.
            v.at(t).map_err(AssetError::Lattice)?;
        }
        Ok(())
    }
}

/// The header flag for an asset with a lattice.
pub(crate) const fn flag(lattice: bool) -> u16 {
    if lattice {
        FLAG_LATTICE
    } else {
        0
    }
}
