//! Index lists as stored: runs of little-endian `u16` read straight from bytes — a baked
//! asset's joints, part palettes and triangle indices, which the rasteriser draws from.

/// A run of little-endian `u16` (joints, triangle indices, part palettes).
///
/// ```
/// use skin_core::asset::U16s;
/// let v = U16s::new(&[1, 0, 2, 1]);
/// assert_eq!(v.len(), 2);
/// assert_eq!(v.iter().collect::<Vec<_>>(), [1, 258]);
/// assert_eq!(v.get(2), None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct U16s<'a> {
    bytes: &'a [u8],
}

impl<'a> U16s<'a> {
    /// A view of `bytes` (an odd last byte is ignored).
    pub fn new(bytes: &'a [u8]) -> Self {
        Self { bytes }
    }
    /// How many values.
    pub fn len(&self) -> usize {
        self.bytes.len() / 2
    }
    /// `true` when empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Value `i`, if it exists.
    pub fn get(&self, i: usize) -> Option<u16> {
        let b = self.bytes.get(2 * i..2 * i + 2)?;
        Some(u16::from_le_bytes([b[0], b[1]]))
    }
    /// All values.
    pub fn iter(&self) -> impl Iterator<Item = u16> + 'a {
        self.bytes
            .chunks_exact(2)
            .map(|b| u16::from_le_bytes([b[0], b[1]]))
    }
    /// Values `k`, `k + 1` and `k + 2` (the triangle whose first index is number `k`), if
    /// they exist.
    ///
    /// ```
    /// use skin_core::asset::U16s;
    /// let v = U16s::new(&[1, 0, 2, 0, 3, 1, 4, 0]);
    /// assert_eq!(v.triangle(1), Some([2, 259, 4]));
    /// assert_eq!(v.triangle(2), None);
    /// ```
    #[inline(always)]
    pub fn triangle(&self, k: usize) -> Option<[u16; 3]> {
        let b = self.bytes.get(2 * k..2 * k + 6)?;
        Some([
            u16::from_le_bytes([b[0], b[1]]),
            u16::from_le_bytes([b[2], b[3]]),
            u16::from_le_bytes([b[4], b[5]]),
        ])
    }

    /// The whole triangles as `u16` triples read in place (little-endian values; each is
    /// [`u16::from_le`] of its entry), when the bytes are 2-aligned; `&[]` otherwise. A
    /// Cortex-M0 loads an aligned `u16` in one instruction, and a byte pair in five.
    ///
    /// ```
    /// use skin_core::asset::U16s;
    /// let b = [1u16, 2, 259, 4].map(u16::to_le);
    /// let t = U16s::new(bytemuck::cast_slice(&b)).aligned_triangles();
    /// assert_eq!(t.iter().map(|t| t.map(u16::from_le)).collect::<Vec<_>>(), [[1, 2, 259]]);
    /// ```
    pub fn aligned_triangles(&self) -> &'a [[u16; 3]] {
        let whole = self.bytes.len() / 6 * 6;
        bytemuck::try_cast_slice(&self.bytes[..whole]).unwrap_or(&[])
    }

    /// The values three at a time (triangles of an index list; a last incomplete triple is
    /// left out).
    ///
    /// ```
    /// use skin_core::asset::U16s;
    /// let v = U16s::new(&[1, 0, 2, 0, 3, 1, 4, 0]);
    /// assert_eq!(v.triangles().collect::<Vec<_>>(), [[1, 2, 259]]);
    /// ```
    pub fn triangles(&self) -> impl Iterator<Item = [u16; 3]> + 'a {
        self.bytes.chunks_exact(6).map(|b| {
            [
                u16::from_le_bytes([b[0], b[1]]),
                u16::from_le_bytes([b[2], b[3]]),
                u16::from_le_bytes([b[4], b[5]]),
            ]
        })
    }
}
