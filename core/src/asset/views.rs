//! Zero-copy views of an asset's arrays: values are decoded from the bytes on access.

use core::marker::PhantomData;

use super::AssetLane;
use crate::vertex::Influence;

pub use crate::indices::U16s;

/// Vertex vectors in lane `L`, `N` lane values each: positions or normals (`N` = 3), or
/// tangents (`N` = 4, [`super::Tangents`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Vectors<'a, L, const N: usize = 3> {
    bytes: &'a [u8],
    lane: PhantomData<L>,
}

impl<'a, L: AssetLane, const N: usize> Vectors<'a, L, N> {
    /// Bytes per vector.
    const LEN: usize = N * L::VALUE_BYTES;

    pub(crate) fn new(bytes: &'a [u8]) -> Self {
        Self {
            bytes,
            lane: PhantomData,
        }
    }
    /// How many vectors.
    pub fn len(&self) -> usize {
        self.bytes.len() / Self::LEN
    }
    /// `true` when empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Vector `i`, if it exists.
    pub fn get(&self, i: usize) -> Option<[L; N]> {
        let b = self.bytes.get(Self::LEN * i..Self::LEN * (i + 1))?;
        Some(decode(b))
    }
    /// All vectors.
    pub fn iter(&self) -> impl Iterator<Item = [L; N]> + 'a {
        self.bytes.chunks_exact(Self::LEN).map(decode)
    }
    /// Vectors `start..start + len` (e.g. one part's).
    pub fn slice(&self, start: usize, len: usize) -> Option<Self> {
        let end = start.checked_add(len)?.checked_mul(Self::LEN)?;
        Some(Self::new(self.bytes.get(start * Self::LEN..end)?))
    }
}

impl<'a, L: AssetLane> Vectors<'a, L> {
    /// The vectors in place, without copying, where the lane reads them so
    /// ([`AssetLane::vectors_in_place`]).
    pub fn in_place(&self) -> Option<&'a [[L; 3]]> {
        L::vectors_in_place(self.bytes)
    }

    /// Copy into `out` (at most `out.len()` vectors); returns how many were copied.
    pub fn copy_to(&self, out: &mut [[L; 3]]) -> usize {
        out.iter_mut().zip(self.iter()).map(|(o, v)| *o = v).count()
    }
}

fn decode<L: AssetLane, const N: usize>(b: &[u8]) -> [L; N] {
    let n = L::VALUE_BYTES;
    core::array::from_fn(|i| L::get(&b[n * i..n * (i + 1)]))
}

/// Vertex influences in lane `L` (4 bone bytes + 3 stored weights each).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Influences<'a, L> {
    bytes: &'a [u8],
    lane: PhantomData<L>,
}

impl<'a, L: AssetLane> Influences<'a, L> {
    /// Bytes per record.
    pub(crate) const LEN: usize = 4 + 3 * L::WEIGHT_BYTES;

    pub(crate) fn new(bytes: &'a [u8]) -> Self {
        Self {
            bytes,
            lane: PhantomData,
        }
    }
    /// How many vertices.
    pub fn len(&self) -> usize {
        self.bytes.len() / Self::LEN
    }
    /// `true` when empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Bone bytes and stored weights of vertex `i`, undecoded.
    pub(crate) fn raw(&self, i: usize) -> Option<([u8; 4], [L::Weight; 3])> {
        let b = self.bytes.get(Self::LEN * i..Self::LEN * (i + 1))?;
        let w = L::WEIGHT_BYTES;
        let weight = |k: usize| L::get_weight(&b[4 + w * k..4 + w * (k + 1)]);
        Some(([b[0], b[1], b[2], b[3]], [weight(0), weight(1), weight(2)]))
    }
    /// The influence of vertex `i`, if it exists (the reader has checked every one).
    pub fn get(&self, i: usize) -> Option<Influence<L>> {
        let (bones, weights) = self.raw(i)?;
        Influence::from_stored(bones, weights)
    }
    /// All influences.
    pub fn iter(&self) -> impl Iterator<Item = Influence<L>> + 'a {
        let all = *self;
        (0..self.len()).map_while(move |i| all.get(i))
    }
    /// Influences `start..start + len` (e.g. one part's).
    pub fn slice(&self, start: usize, len: usize) -> Option<Self> {
        let end = start.checked_add(len)?.checked_mul(Self::LEN)?;
        Some(Self::new(self.bytes.get(start * Self::LEN..end)?))
    }
    /// The influences in place, without copying, where the lane reads them so
    /// ([`AssetLane::influences_in_place`]).
    pub fn in_place(&self) -> Option<&'a [Influence<L>]> {
        L::influences_in_place(self.bytes)
    }

    /// Copy into `out` (at most `out.len()` influences); returns how many were copied.
    pub fn copy_to(&self, out: &mut [Influence<L>]) -> usize {
        out.iter_mut().zip(self.iter()).map(|(o, v)| *o = v).count()
    }
}
