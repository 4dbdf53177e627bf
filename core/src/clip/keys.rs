//! Where key times and values come from: an `&[f32]` in RAM, or little-endian bytes in a
//! baked asset (read in place, e.g. from flash).

/// A read-only sequence of `f32`: key times or key values.
///
/// Implemented for `&[f32]` and for [`LeF32s`] (little-endian bytes). Indices passed to
/// [`Keys::at`] are below [`Keys::len`]; a [`crate::clip::Clip`] checks that once when it is
/// made.
pub trait Keys: Copy {
    /// How many values.
    fn len(&self) -> usize;
    /// `true` when there are none.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Value `i` (`i < len()`).
    fn at(&self, i: usize) -> f32;
    /// Values `start..start + width` (`width ≤ 4`, within `len()`), padded with zeros to
    /// four: one key's vector. [`LeF32s`] reads them from one range check.
    fn vector(&self, start: usize, width: usize) -> [f32; 4] {
        core::array::from_fn(|i| if i < width { self.at(start + i) } else { 0.0 })
    }
}

impl Keys for &[f32] {
    fn len(&self) -> usize {
        <[f32]>::len(self)
    }
    fn at(&self, i: usize) -> f32 {
        self[i]
    }
}

/// `f32` values stored as little-endian bytes, read in place without copying or alignment
/// requirements.
///
/// ```
/// use skin_core::clip::{Keys, LeF32s};
/// let bytes = [0, 0, 128, 63, 0, 0, 0, 64]; // 1.0, 2.0
/// let v = LeF32s::new(&bytes).unwrap();
/// assert_eq!((v.len(), v.at(0), v.at(1)), (2, 1.0, 2.0));
/// assert_eq!(v.vector(0, 2), [1.0, 2.0, 0.0, 0.0]);
/// assert!(LeF32s::new(&bytes[..3]).is_none()); // not a whole number of values
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LeF32s<'a> {
    bytes: &'a [u8],
}

impl<'a> LeF32s<'a> {
    /// No values.
    pub const EMPTY: Self = Self { bytes: &[] };

    /// A view of `bytes`, or `None` when its length is not a multiple of 4.
    pub fn new(bytes: &'a [u8]) -> Option<Self> {
        (bytes.len() % 4 == 0).then_some(Self { bytes })
    }

    /// Values `start..start + len`, or `None` beyond the end.
    pub fn range(&self, start: usize, len: usize) -> Option<Self> {
        let end = start.checked_add(len)?.checked_mul(4)?;
        let bytes = self.bytes.get(start * 4..end)?;
        Some(Self { bytes })
    }
}

impl Keys for LeF32s<'_> {
    fn len(&self) -> usize {
        self.bytes.len() / 4
    }
    fn at(&self, i: usize) -> f32 {
        let b = &self.bytes[4 * i..4 * i + 4];
        f32::from_le_bytes([b[0], b[1], b[2], b[3]])
    }
    fn vector(&self, start: usize, width: usize) -> [f32; 4] {
        let mut v = [0.0; 4];
        let bytes = &self.bytes[4 * start..4 * (start + width)];
        for (o, b) in v.iter_mut().zip(bytes.chunks_exact(4)) {
            *o = f32::from_le_bytes([b[0], b[1], b[2], b[3]]);
        }
        v
    }
}
