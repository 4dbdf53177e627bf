//! Per-vertex bone influences: which bones move a vertex, and how much.

use crate::error::{num_error, Error, Quantity};
use crate::lane::Lane;
pub use crate::lane::WEIGHT_TOLERANCE;

/// Up to four bone influences in the "3 stored weights + implicit one" form of hardware
/// skinning: `bones[0]` carries the largest weight, `1 − (w₁ + w₂ + w₃)`, stored implicitly,
/// so the weights of a vertex sum to exactly one in every number format.
///
/// ```
/// use skin_core::vertex::Influence;
/// let inf = Influence::<f32>::from_weights([3, 7, 0, 0], [0.25, 0.75, 0.0, 0.0], 0).unwrap();
/// assert_eq!(inf.bones()[0], 7); // the largest weight comes first
/// assert_eq!(inf.weights(), [0.75, 0.25, 0.0, 0.0]);
/// assert_eq!(inf.count(), 2);
/// // Weights must be non-negative and sum to one:
/// assert!(Influence::<f32>::from_weights([0, 1, 2, 3], [0.5, 0.6, 0.0, 0.0], 9).is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Default)]
// C layout: the bone bytes, then the weights (16 bytes in `f32`, which the four-wide `f32`
// loop reads as one SIMD word).
#[repr(C)]
pub struct Influence<L: Lane> {
    bones: [u8; 4],
    weights: [L::Weight; 3],
}

// The layout the fixed lane's assembly kernels read (`skin/asm/`): the bone bytes
// at offset 0, the stored weights from offset 4.
const _: () = {
    use core::mem::offset_of;
    type Fixed = Influence<crate::lane::Q14>;
    assert!(offset_of!(Fixed, bones) == 0 && offset_of!(Fixed, weights) == 4);
};

impl<L: Lane> Influence<L> {
    /// One bone with weight 1 (a stitched vertex).
    pub fn rigid(bone: u8) -> Self {
        Self {
            bones: [bone; 4],
            weights: [L::Weight::default(); 3],
        }
    }

    /// Four bones and their four weights; `vertex` is only used in errors. The weights must
    /// be finite, non-negative and sum to one within [`WEIGHT_TOLERANCE`]. Unused slots have
    /// weight 0 (their bone index is still validated against the palette).
    pub fn from_weights(bones: [u8; 4], weights: [f32; 4], vertex: usize) -> Result<Self, Error> {
        let mut sum = 0.0;
        for &w in &weights {
            if !w.is_finite() {
                return Err(Error::NotFinite {
                    what: Quantity::Weight,
                    index: vertex,
                });
            }
            if w < 0.0 {
                return Err(Error::NegativeWeight { vertex, weight: w });
            }
            sum += w;
        }
        if (sum - 1.0).abs() > WEIGHT_TOLERANCE {
            return Err(Error::WeightSum { vertex, sum });
        }
        // Sort by weight, largest first (stable: equal weights keep their order).
        let mut order = [0usize, 1, 2, 3];
        for i in 1..4 {
            let mut j = i;
            while j > 0 && weights[order[j]] > weights[order[j - 1]] {
                order.swap(j, j - 1);
                j -= 1;
            }
        }
        let mut stored = [L::Weight::default(); 3];
        for (s, &o) in stored.iter_mut().zip(&order[1..]) {
            *s = L::weight_from_f32(weights[o])
                .map_err(|e| num_error(e, Quantity::Weight, vertex, L::NAME))?;
        }
        let bones = order.map(|o| bones[o]);
        let influence = Self::from_stored(bones, stored).ok_or(Error::WeightSum { vertex, sum })?;
        Ok(influence.lead_largest())
    }

    /// `self` with its largest *stored* weight first: rounding the three stored weights can
    /// leave the implicit one a step below another where the weights were nearly equal, and
    /// dual quaternion skinning pivots on the first bone (the most-weighted one, as its error
    /// bound and the oracle take it). The four weights are kept exactly: the first bone's
    /// implicit weight takes the swapped bone's slot, and the implicit weight then equals the
    /// swapped one's.
    fn lead_largest(mut self) -> Self {
        let Some(first) = L::implicit_weight(&self.weights) else {
            return self;
        };
        let mut most = L::weight_to_f32(first);
        let mut lead = None;
        for (k, &w) in self.weights.iter().enumerate() {
            if L::weight_to_f32(w) > most {
                most = L::weight_to_f32(w);
                lead = Some(k);
            }
        }
        if let Some(k) = lead {
            self.bones.swap(0, k + 1);
            self.weights[k] = first;
        }
        self
    }

    /// The "3 stored weights + implicit 4th" input form: `weights[i]` belongs to `bones[i]`
    /// and `bones[3]` gets `1 − (w₀ + w₁ + w₂)`.
    pub fn from_three(bones: [u8; 4], weights: [f32; 3], vertex: usize) -> Result<Self, Error> {
        let fourth = 1.0 - (weights[0] + weights[1] + weights[2]);
        // A slightly negative fourth weight from rounding is clamped; a real one is an error.
        let fourth = if (-WEIGHT_TOLERANCE..0.0).contains(&fourth) {
            0.0
        } else {
            fourth
        };
        Self::from_weights(bones, [weights[0], weights[1], weights[2], fourth], vertex)
    }

    /// From the stored form (as baked assets hold it): `None` unless `Σ stored ≤ 1`.
    pub fn from_stored(bones: [u8; 4], stored: [L::Weight; 3]) -> Option<Self> {
        L::implicit_weight(&stored).map(|_| Self {
            bones,
            weights: stored,
        })
    }

    /// The four bone indices, largest weight first.
    pub fn bones(&self) -> [u8; 4] {
        self.bones
    }

    /// The stored weights of `bones[1..4]`.
    pub fn stored(&self) -> [L::Weight; 3] {
        self.weights
    }

    /// All four weights as `f32`, the implicit one first.
    pub fn weights(&self) -> [f32; 4] {
        let first = L::implicit_weight(&self.weights).map_or(0.0, L::weight_to_f32);
        let w = self.weights.map(L::weight_to_f32);
        [first, w[0], w[1], w[2]]
    }

    /// How many influences carry a non-zero weight (at least 1).
    pub fn count(&self) -> usize {
        1 + self
            .weights
            .iter()
            .rposition(|w| *w != L::Weight::default())
            .map_or(0, |i| i + 1)
    }

    /// The largest bone index used.
    pub fn max_bone(&self) -> u8 {
        self.bones.into_iter().max().unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::Influence;
    use crate::lane::Q14;

    /// Weights `w₀ > w₁` that round to `w₁` one step above the implicit `w₀`: the bone of
    /// `w₁` comes first, and the four rounded weights are kept.
    #[test]
    fn the_largest_rounded_weight_comes_first() {
        let step = 1.0 / 32768.0;
        let weights = [8687.6, 8687.55, 7803.2, 7589.65].map(|w: f64| (w * step) as f32);
        let inf = Influence::<Q14>::from_weights([20, 2, 12, 21], weights, 0).unwrap();
        assert_eq!(inf.bones(), [2, 20, 12, 21]);
        let w = inf.weights().map(|w| (f64::from(w) / step).round() as i32);
        assert_eq!(w, [8688, 8687, 7803, 7590]);
        // Weights that round without a tie keep their order.
        let inf = Influence::<Q14>::from_weights([1, 2, 3, 4], [0.4, 0.3, 0.2, 0.1], 0).unwrap();
        assert_eq!(inf.bones(), [1, 2, 3, 4]);
    }
}
