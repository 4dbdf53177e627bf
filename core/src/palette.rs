//! The skinning palette: one matrix `M_i = W_i · B_i⁻¹` per joint, in a lane's format,
//! held in a fixed-capacity container sized by a [`crate::budget::Budget`].

use heapless::Vec;

use crate::affine::Affine;
use crate::dual::{Dual, Stretch};
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

/// Up to `CAP` joints for dual quaternion skinning with scale (Kavan et al.), in `f32`: each
/// joint's unit dual quaternion and its scale/shear ([`Dual::split`]). Whether any joint has
/// a stretch is decided once, as the palette is filled: a palette of rigid joints has no
/// stretches ([`Self::stretches`] is `None`) and skins by the plain DQS loop, with
/// [`DualPalette`]'s bits.
///
/// ```
/// use skin_core::affine::Affine;
/// use skin_core::palette::StretchPalette;
/// let mut p: StretchPalette<4> = StretchPalette::new();
/// p.push(&Affine::translation([2.0, 0.0, 0.0])).unwrap();
/// assert!(p.stretches().is_none());
/// let mut scaled = Affine::IDENTITY;
/// scaled.rows[1][1] = 2.0;
/// p.push(&scaled).unwrap();
/// let s = p.stretches().unwrap();
/// assert_eq!(s[0], [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]);
/// assert!((s[1][1][1] - 2.0).abs() < 1e-6);
/// scaled.rows[2][2] = -1.0; // a mirror
/// assert!(p.push(&scaled).is_err());
/// ```
#[derive(Clone, Debug, Default)]
pub struct StretchPalette<const CAP: usize> {
    duals: Vec<Dual<f32>, CAP>,
    stretches: Vec<Stretch<f32>, CAP>,
    stretched: bool,
}

impl<const CAP: usize> StretchPalette<CAP> {
    /// An empty palette.
    pub const fn new() -> Self {
        Self {
            duals: Vec::new(),
            stretches: Vec::new(),
            stretched: false,
        }
    }

    /// Entries held.
    pub fn len(&self) -> usize {
        self.duals.len()
    }

    /// `true` when empty.
    pub fn is_empty(&self) -> bool {
        self.duals.is_empty()
    }

    /// Remove every entry.
    pub fn clear(&mut self) {
        *self = Self::new();
    }

    /// The joints' rigid parts, in joint order.
    pub fn duals(&self) -> &[Dual<f32>] {
        &self.duals
    }

    /// The joints' stretches (the identity for a rigid joint), or `None` when no joint has
    /// one.
    pub fn stretches(&self) -> Option<&[Stretch<f32>]> {
        self.stretched.then_some(&self.stretches[..])
    }

    /// The joint matrix `m` split and appended: [`Error::NotSplittable`] for a NaN or
    /// infinite entry, a reflection or a matrix that is not invertible.
    pub fn push(&mut self, m: &Affine<f32>) -> Result<(), Error> {
        let joint = self.duals.len();
        let (dual, stretch) =
            Dual::split(m).map_err(|determinant| Error::NotSplittable { joint, determinant })?;
        const IDENTITY: Stretch<f32> = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
        let full = Error::Capacity {
            len: joint + 1,
            capacity: CAP,
        };
        self.duals.push(dual).map_err(|_| full)?;
        self.stretches
            .push(stretch.unwrap_or(IDENTITY))
            .map_err(|_| full)?;
        self.stretched |= stretch.is_some();
        Ok(())
    }
}
