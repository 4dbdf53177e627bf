//! The skinning palette: one matrix `M_i = W_i · B_i⁻¹` per joint, in a lane's format,
//! held in a fixed-capacity container sized by a [`crate::budget::Budget`].

use heapless::Vec;

use crate::affine::Affine;
use crate::dual::Dual;
use crate::error::{Error, Quantity};
use crate::lane::Lane;
use crate::num::Real;

/// Up to `CAP` palette matrices in lane `L`.
///
/// ```
/// use skin_core::affine::Affine;
/// use skin_core::palette::Palette;
/// let mut p: Palette<f32, 4> = Palette::new();
/// p.push(&Affine::translation([1.0, 0.0, 0.0])).unwrap();
/// assert_eq!(p.len(), 1);
/// assert_eq!(p.as_slice()[0].rows[0][3], 1.0);
/// ```
#[derive(Clone, Debug, Default)]
pub struct Palette<L: Lane, const CAP: usize> {
    matrices: Vec<Affine<L>, CAP>,
}

impl<L: Lane, const CAP: usize> Palette<L, CAP> {
    /// An empty palette.
    pub const fn new() -> Self {
        Self {
            matrices: Vec::new(),
        }
    }

    /// `CAP`.
    pub const fn capacity(&self) -> usize {
        CAP
    }

    /// Matrices held.
    pub fn len(&self) -> usize {
        self.matrices.len()
    }

    /// `true` when empty.
    pub fn is_empty(&self) -> bool {
        self.matrices.is_empty()
    }

    /// Remove every matrix.
    pub fn clear(&mut self) {
        self.matrices.clear();
    }

    /// The matrices, in joint order.
    pub fn as_slice(&self) -> &[Affine<L>] {
        &self.matrices
    }

    /// Narrow `m` to the lane and append it: [`Error::NotFinite`] for NaN or infinite
    /// entries, [`Error::Overflow`] when it does not fit the lane.
    pub fn push(&mut self, m: &Affine<L::Real>) -> Result<(), Error> {
        let index = self.matrices.len();
        if !m.rows.iter().flatten().all(|v| v.is_finite()) {
            return Err(Error::NotFinite {
                what: Quantity::Palette,
                index,
            });
        }
        let narrowed = L::narrow(m).ok_or(Error::Overflow {
            what: Quantity::Palette,
            index,
            format: L::NAME,
        })?;
        self.matrices.push(narrowed).map_err(|_| Error::Capacity {
            len: index + 1,
            capacity: CAP,
        })
    }

    /// Append a matrix already in the lane's format (as a baked asset stores it);
    /// [`Error::Overflow`] unless it [fits](Lane::fits) the lane's arithmetic.
    pub fn push_narrow(&mut self, m: Affine<L>) -> Result<(), Error> {
        let index = self.matrices.len();
        if !L::fits(&m) {
            return Err(Error::Overflow {
                what: Quantity::Palette,
                index,
                format: L::NAME,
            });
        }
        self.matrices.push(m).map_err(|_| Error::Capacity {
            len: index + 1,
            capacity: CAP,
        })
    }

    /// A palette of `n` identity matrices (the bind pose).
    pub fn identity(n: usize) -> Result<Self, Error> {
        let mut p = Self::new();
        for _ in 0..n {
            p.push(&Affine::IDENTITY)?;
        }
        Ok(p)
    }
}

/// Up to `CAP` unit dual quaternions in lane `L`: the palette of dual quaternion skinning
/// (`crate::skin::SkinnedMesh::skin_dqs`), one entry per joint.
///
/// ```
/// use skin_core::affine::Affine;
/// use skin_core::palette::DualPalette;
/// let mut p: DualPalette<f32, 4> = DualPalette::new();
/// p.push(&Affine::translation([2.0, 0.0, 0.0])).unwrap();
/// assert_eq!(p.as_slice()[0].dual, [1.0, 0.0, 0.0, 0.0]);
/// let mut scaled = Affine::IDENTITY;
/// scaled.rows[1][1] = 2.0;
/// assert!(p.push(&scaled).is_err()); // joint 1 has a scale
/// ```
#[derive(Clone, Debug, Default)]
pub struct DualPalette<L: Lane, const CAP: usize> {
    entries: Vec<Dual<L>, CAP>,
}

impl<L: Lane, const CAP: usize> DualPalette<L, CAP> {
    /// An empty palette.
    pub const fn new() -> Self {
        Self {
            entries: Vec::new(),
        }
    }

    /// Entries held.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// `true` when empty.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Remove every entry.
    pub fn clear(&mut self) {
        self.entries.clear();
    }

    /// The entries, in joint order.
    pub fn as_slice(&self) -> &[Dual<L>] {
        &self.entries
    }

    /// The joint matrix `m` as a unit dual quaternion in the lane, appended:
    /// [`Error::NotFinite`] for NaN or infinite entries, [`Error::NotRigid`] for a scale,
    /// shear or reflection, [`Error::Overflow`] when it does not fit the lane.
    pub fn push(&mut self, m: &Affine<L::Real>) -> Result<(), Error> {
        let joint = self.entries.len();
        if !m.rows.iter().flatten().all(|v| v.is_finite()) {
            return Err(Error::NotFinite {
                what: Quantity::Palette,
                index: joint,
            });
        }
        let dual = Dual::from_rigid(m).map_err(|deviation| Error::NotRigid { joint, deviation })?;
        let narrowed = L::narrow_dual(&dual).ok_or(Error::Overflow {
            what: Quantity::Palette,
            index: joint,
            format: L::NAME,
        })?;
        self.entries.push(narrowed).map_err(|_| Error::Capacity {
            len: joint + 1,
            capacity: CAP,
        })
    }
}
