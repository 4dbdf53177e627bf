//! The asset's lattice (`skin bake --lattice FILE`): a lattice file ([`LatticeFile`]) in
//! asset units, every key's offsets stored for every control point (the points a key does
//! not name at 0, two moves of one point added), so that the player interpolates whole keys.

use skin_core::asset::LatticeParts;
use skin_core::lattice::LatticeError;

use super::error::BakeError;
use crate::lattice::LatticeFile;

/// The lattice as the asset stores it.
pub struct Stored {
    min: [f32; 3],
    max: [f32; 3],
    degree: [u8; 3],
    times: Vec<f32>,
    offsets: Vec<[f32; 3]>,
}

impl Stored {
    /// `file` with every length times `s` (model units to asset units); a move naming a
    /// point beyond the lattice is an error naming it.
    pub fn new(file: &LatticeFile, s: f32) -> Result<Self, BakeError> {
        let [l, m, n] = file.degree.map(usize::from);
        let points = (l + 1) * (m + 1) * (n + 1);
        let mut offsets = vec![[0.0f32; 3]; points * file.keys.len()];
        for (k, key) in file.keys.iter().enumerate() {
            for mv in &key.moves {
                let [i, j, q] = mv.point.map(usize::from);
                if i > l || j > m || q > n {
                    let e = LatticeError::Index {
                        index: mv.point,
                        degree: file.degree,
                    };
                    return Err(BakeError::Asset(skin_core::asset::AssetError::Lattice(e)));
                }
                let o = &mut offsets[k * points + (i * (m + 1) + j) * (n + 1) + q];
                for (o, by) in o.iter_mut().zip(mv.by) {
                    *o += by * s;
                }
            }
        }
        Ok(Self {
            min: file.min.map(|v| v * s),
            max: file.max.map(|v| v * s),
            degree: file.degree,
            times: file.keys.iter().map(|k| k.time).collect(),
            offsets,
        })
    }

    /// The writer's view.
    pub fn parts(&self) -> LatticeParts<'_> {
        LatticeParts {
            min: self.min,
            max: self.max,
            degree: self.degree,
            times: &self.times,
            offsets: &self.offsets,
        }
    }
}
