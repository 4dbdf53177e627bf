//! How each lane's vertex values and weights are stored: little-endian, no padding.

use crate::lane::{Lane, Weight15, Q14};
use crate::lattice::Coord;
use crate::morph::MorphLane;
use crate::num::Fx;
use crate::psd::RbfReal;
use crate::vertex::Influence;

/// A [`Lane`] that a baked asset can store: its code in the header and the byte encoding
/// of its values and weights (and, as every stored lane can be morphed, a [`MorphLane`];
/// as every stored lane can hold correctives and a lattice, its pose scalar evaluates an
/// [`RbfReal`] and its skinned output is a lattice's [`Coord`]).
pub trait AssetLane: MorphLane + Lane<Real: RbfReal, Out: Coord> {
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
    /// A pose scalar as the correctives section stores it (4 bytes: `f32`, or the bits of
    /// the fixed lane's `I8F24`).
    fn real_bytes(v: Self::Real) -> [u8; 4];
    /// A pose scalar from the correctives section's 4 bytes.
    fn real_from(b: [u8; 4]) -> Self::Real;
    /// Stored positions or normals (`bytes`) read in place as `[Self; 3]`s, where the
    /// lane's skinning kernels take the stored layout as it is (the fixed lane on the
    /// Cortex-M cores with assembly kernels) and the bytes are aligned for it; `None`
    /// elsewhere, and then the frame player copies them ([`super::Vectors::copy_to`]).
    fn vectors_in_place(bytes: &[u8]) -> Option<&[[Self; 3]]> {
        let _ = bytes;
        None
    }
    /// Stored influences read in place, as [`AssetLane::vectors_in_place`].
    fn influences_in_place(bytes: &[u8]) -> Option<&[Influence<Self>]> {
        let _ = bytes;
        None
    }
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
    fn real_bytes(v: f32) -> [u8; 4] {
        v.to_le_bytes()
    }
    fn real_from(b: [u8; 4]) -> f32 {
        f32::from_le_bytes(b)
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
    fn real_bytes(v: Fx) -> [u8; 4] {
        v.to_bits().to_le_bytes()
    }
    fn real_from(b: [u8; 4]) -> Fx {
        Fx::from_bits(i32::from_le_bytes(b))
    }
    #[cfg(skin_asm_fixed)]
    fn vectors_in_place(bytes: &[u8]) -> Option<&[[Q14; 3]]> {
        crate::skin::records(bytes)
    }
    #[cfg(skin_asm_fixed)]
    fn influences_in_place(bytes: &[u8]) -> Option<&[Influence<Q14>]> {
        crate::skin::records(bytes)
    }
}
