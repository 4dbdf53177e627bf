//! How each lane's vertex values and weights are stored: little-endian, no padding.

use super::views::{Influences, Vectors};
use crate::affine::Affine;
use crate::lane::{Lane, Out16, Weight15, Q14};

/// A [`Lane`] that a baked asset can store: its code in the header and the byte encoding
/// of its values and weights.
pub trait AssetLane: Lane {
    /// The header's lane code: 0 for `f32`, 1 for `Q14`.
    const CODE: u8;
    /// Bytes per stored value (position or normal component).
    const VALUE_BYTES: usize;
    /// Bytes per stored weight.
    const WEIGHT_BYTES: usize;
    /// Write `self` into `out` (`VALUE_BYTES` long).
    fn put(self, out: &mut [u8]);
    /// Read a value from `b` (`VALUE_BYTES` long).
    fn get(b: &[u8]) -> Self;
    /// Write a weight into `out` (`WEIGHT_BYTES` long).
    fn put_weight(w: Self::Weight, out: &mut [u8]);
    /// Read a weight from `b` (`WEIGHT_BYTES` long).
    fn get_weight(b: &[u8]) -> Self::Weight;
    /// Whether a stored value is usable (finite, for `f32`; every bit pattern of `Q14` is).
    fn valid(self) -> bool;
    /// Whether a stored weight is usable: in [0, 1].
    fn valid_weight(w: Self::Weight) -> bool;
    /// LBS-4 of `out.len()` vertices (positions, and normals into `normals.1`) read
    /// straight from an asset's stored arrays, without copying them out first, when the
    /// lane has a loop that reads the stored layout as it is (the fixed lane's Cortex-M
    /// kernels, with the bits of [`Lane::lbs`]). `false`, having written nothing, when it
    /// has none or cannot take these arrays: the caller copies them and skins.
    fn skin_stored(
        palette: &[Affine<Self>],
        stored: Stored<'_, Self>,
        normals: Option<(Vectors<'_, Self>, &mut [[Self; 3]])>,
        out: &mut [[Self::Out; 3]],
    ) -> bool {
        let _ = (palette, stored, normals, out);
        false
    }
}

/// A run of an asset's stored vertices: positions and influences (see
/// [`AssetLane::skin_stored`]).
#[derive(Clone, Copy, Debug)]
pub struct Stored<'a, L> {
    /// Positions.
    pub positions: Vectors<'a, L>,
    /// Influences, as many.
    pub influences: Influences<'a, L>,
}

/// The name of the lane with header code `code`, for errors.
pub(crate) fn lane_name(code: u8) -> &'static str {
    match code {
        0 => <f32 as Lane>::NAME,
        1 => <Q14 as Lane>::NAME,
        _ => "unknown",
    }
}

fn four(b: &[u8]) -> [u8; 4] {
    [b[0], b[1], b[2], b[3]]
}

impl AssetLane for f32 {
    const CODE: u8 = 0;
    const VALUE_BYTES: usize = 4;
    const WEIGHT_BYTES: usize = 4;
    fn put(self, out: &mut [u8]) {
        out.copy_from_slice(&self.to_le_bytes());
    }
    fn get(b: &[u8]) -> Self {
        f32::from_le_bytes(four(b))
    }
    fn put_weight(w: f32, out: &mut [u8]) {
        w.put(out);
    }
    fn get_weight(b: &[u8]) -> f32 {
        f32::get(b)
    }
    fn valid(self) -> bool {
        self.is_finite()
    }
    fn valid_weight(w: f32) -> bool {
        (0.0..=1.0).contains(&w)
    }
}

impl AssetLane for Q14 {
    const CODE: u8 = 1;
    const VALUE_BYTES: usize = 2;
    const WEIGHT_BYTES: usize = 2;
    fn put(self, out: &mut [u8]) {
        out.copy_from_slice(&self.to_bits().to_le_bytes());
    }
    fn get(b: &[u8]) -> Self {
        Q14::from_bits(i16::from_le_bytes([b[0], b[1]]))
    }
    fn put_weight(w: Weight15, out: &mut [u8]) {
        out.copy_from_slice(&w.to_bits().to_le_bytes());
    }
    fn get_weight(b: &[u8]) -> Weight15 {
        Weight15::from_bits(u16::from_le_bytes([b[0], b[1]]))
    }
    fn valid(self) -> bool {
        true
    }
    fn valid_weight(w: Weight15) -> bool {
        w <= Weight15::ONE
    }
    fn skin_stored(
        palette: &[Affine<Q14>],
        stored: Stored<'_, Q14>,
        normals: Option<(Vectors<'_, Q14>, &mut [[Q14; 3]])>,
        out: &mut [[Out16; 3]],
    ) -> bool {
        let normals = normals.map(|(v, out)| (v.bytes(), out));
        let (positions, influences) = (stored.positions.bytes(), stored.influences.bytes());
        crate::lane::lbs4_stored(palette, positions, influences, normals, out)
    }
}
