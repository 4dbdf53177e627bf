//! The skinning palette: one matrix `M_i = W_i · B_i⁻¹` per joint, in a lane's format,
//! held in a fixed-capacity container sized by a [`crate::budget::Budget`].

use heapless::Vec;

use crate::affine::Affine;
use crate::dual::{Dual, Stretch, Stretches};
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
///
/// A palette has an *exponent* `e`: its matrices are stored as `M · 2^−e`, and what they
/// skin is widened by `2^e` ([`Palette::widen`]). [`Palette::fill`] picks the smallest `e`
/// that fits every matrix of the palette (0 unless a joint scales beyond what the lane's
/// rows hold: about 1.15× in fixed point, see [`crate::lane`]), so a fixed-point palette
/// skins joints scaled up to 4×:
///
/// ```
/// use skin_core::affine::Affine;
/// use skin_core::lane::{Lane, Q14};
/// use skin_core::num::Fx;
/// use skin_core::palette::Palette;
/// let mut stretched = Affine::<Fx>::IDENTITY;
/// stretched.rows[1][1] = Fx::from_num(4); // a joint stretched 4× along y
/// let matrices = [Affine::IDENTITY, stretched];
/// let mut p: Palette<Q14, 2> = Palette::new();
/// assert!(p.push(&stretched).is_err()); // an I2F14 row holds less than 2
/// p.fill(|| matrices.iter().map(|m| Ok(*m))).unwrap();
/// assert_eq!(p.exponent(), 2); // stored as M / 4
/// assert_eq!(p.as_slice()[1].rows[1][1], Q14::ONE);
/// let mut out = [[<Q14 as Lane>::point(&p.as_slice()[1].rows[1], &[Q14::ZERO, Q14::from_num(0.5), Q14::ZERO]); 3]];
/// p.widen(&mut out);
/// assert_eq!(out[0][0].to_num::<f32>(), 2.0); // 0.5 stretched 4×
/// ```
#[derive(Clone, Debug, Default)]
pub struct Palette<L: Lane, const CAP: usize> {
    matrices: Vec<Affine<L>, CAP>,
    exponent: u8,
}

impl<L: Lane, const CAP: usize> Palette<L, CAP> {
    /// An empty palette.
    pub const fn new() -> Self {
        Self {
            matrices: Vec::new(),
            exponent: 0,
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

    /// Remove every matrix; the exponent returns to 0.
    pub fn clear(&mut self) {
        self.matrices.clear();
        self.exponent = 0;
    }

    /// The matrices, in joint order (each `M · 2^−e`, `e` the [exponent](Self::exponent)).
    pub fn as_slice(&self) -> &[Affine<L>] {
        &self.matrices
    }

    /// The exponent `e`: the matrices are stored as `M · 2^−e` (see the type's docs).
    pub fn exponent(&self) -> u8 {
        self.exponent
    }

    /// Clear the palette and fill it with the matrices `matrices()` yields, with the smallest
    /// exponent up to [`Lane::MAX_EXPONENT`] at which every one fits the lane: the unscaled
    /// palette (exponent 0, the same bits as [`Palette::push`]) unless a matrix does not fit,
    /// then again (a fresh iterator) at exponent 1, then 2. Errors the iterator yields are
    /// returned as they are; [`Error::Overflow`] when a matrix does not fit even at the
    /// largest exponent.
    pub fn fill<I>(&mut self, matrices: impl Fn() -> I) -> Result<(), Error>
    where
        I: Iterator<Item = Result<Affine<L::Real>, Error>>,
    {
        let start = |p: &mut Self, e| {
            p.clear();
            p.exponent = e;
        };
        fill_smallest::<L, _, _>(self, start, Self::push, matrices)
    }

    /// Widen positions skinned with this palette back to asset units (`· 2^e`, exact);
    /// nothing to do at exponent 0.
    #[inline]
    pub fn widen(&self, out: &mut [[L::Out; 3]]) {
        crate::lane::widen::<L>(out, self.exponent);
    }

    /// Narrow `m` (scaled by the palette's exponent, 0 unless [`Palette::fill`] raised it) to
    /// the lane and append it: [`Error::NotFinite`] for NaN or infinite entries,
    /// [`Error::Overflow`] when it does not fit the lane.
    pub fn push(&mut self, m: &Affine<L::Real>) -> Result<(), Error> {
        let index = self.matrices.len();
        if !m.rows.iter().flatten().all(|v| v.is_finite()) {
            return Err(Error::NotFinite {
                what: Quantity::Palette,
                index,
            });
        }
        let narrowed = L::narrow_scaled(m, self.exponent).ok_or(Error::Overflow {
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

/// Unit dual quaternions as dual quaternion skinning takes them
/// (`crate::skin::SkinnedMesh::skin_dqs`): each entry must [fit](Lane::fits_dual) the lane.
/// A [`DualPalette`] holds only entries that do (each is checked as it is pushed), so
/// skinning with one checks nothing more on each call; a slice or an array is checked
/// entry by entry on every call.
///
/// ```
/// use skin_core::affine::Affine;
/// use skin_core::dual::Dual;
/// use skin_core::lane::Q14;
/// use skin_core::palette::{DualEntries, DualPalette};
/// let mut p: DualPalette<Q14, 2> = DualPalette::new();
/// p.push(&Affine::IDENTITY).unwrap();
/// assert_eq!(p.checked().unwrap().len(), 1);
/// let zero = [Dual::<Q14>::default()]; // not a unit quaternion
/// assert!(zero.checked().is_err());
/// ```
pub trait DualEntries<L: Lane> {
    /// The entries, or [`Error::Overflow`] for the first that does not fit the lane.
    fn checked(&self) -> Result<&[Dual<L>], Error>;
}

impl<L: Lane> DualEntries<L> for [Dual<L>] {
    fn checked(&self) -> Result<&[Dual<L>], Error> {
        match self.iter().position(|d| !L::fits_dual(d)) {
            None => Ok(self),
            Some(index) => Err(Error::Overflow {
                what: Quantity::Palette,
                index,
                format: L::NAME,
            }),
        }
    }
}

impl<L: Lane, const N: usize> DualEntries<L> for [Dual<L>; N] {
    fn checked(&self) -> Result<&[Dual<L>], Error> {
        self.as_slice().checked()
    }
}

impl<L: Lane, const CAP: usize> DualEntries<L> for DualPalette<L, CAP> {
    /// The entries, unchecked: [`DualPalette::push`] admits only ones that fit the lane
    /// ([`Lane::narrow_dual`]).
    fn checked(&self) -> Result<&[Dual<L>], Error> {
        Ok(self.as_slice())
    }
}

/// Up to `CAP` joints for dual quaternion skinning with scale (Kavan et al.) in lane `L`:
/// each joint's unit dual quaternion and its scale/shear ([`Dual::split`]). Whether any joint
/// has a stretch is decided once, as the palette is filled: a palette of rigid joints has
/// no stretches ([`Self::stretches`] is `None`) and skins by the plain DQS loop, with
/// [`DualPalette`]'s bits.
///
/// ```
/// use skin_core::affine::Affine;
/// use skin_core::palette::StretchPalette;
/// let mut p: StretchPalette<f32, 4> = StretchPalette::new();
/// p.push(&Affine::translation([2.0, 0.0, 0.0])).unwrap();
/// assert!(p.stretches().is_none());
/// let mut scaled = Affine::IDENTITY;
/// scaled.rows[1][1] = 2.0;
/// p.push(&scaled).unwrap();
/// let s = p.stretches().unwrap().matrices;
/// assert_eq!(s[0], [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]);
/// assert!((s[1][1][1] - 2.0).abs() < 1e-6);
/// scaled.rows[2][2] = -1.0; // a mirror
/// assert!(p.push(&scaled).is_err());
/// ```
///
/// In fixed point the palette has an exponent, as [`Palette`]'s: each stretch (six
/// distinct entries, `S` being symmetric) is stored in `I2F14` as `S · 2^−e`, and each
/// translation (the dual part) scaled alike, so that [`Self::fill`] holds joints scaled up
/// to 4× (`e` = 2); the skinning loop widens the positions by `2^e`
/// ([`Stretches`]):
///
/// ```
/// use skin_core::affine::Affine;
/// use skin_core::lane::Q14;
/// use skin_core::num::Fx;
/// use skin_core::palette::StretchPalette;
/// let mut long = Affine::<Fx>::IDENTITY;
/// long.rows[0][0] = Fx::from_num(4); // four times as long along x
/// let joints = [Affine::IDENTITY, long];
/// let mut p: StretchPalette<Q14, 2> = StretchPalette::new();
/// p.fill(|| joints.iter().map(|m| Ok(*m))).unwrap();
/// let s = p.stretches().unwrap();
/// assert_eq!(s.exponent, 2);
/// assert_eq!(s.matrices[1][0][0], Q14::ONE); // 4 · 2⁻²
/// assert_eq!(s.matrices[0][1][1], Q14::from_num(0.25)); // the rigid joint's identity · 2⁻²
/// ```
#[derive(Clone, Debug, Default)]
pub struct StretchPalette<L: Lane, const CAP: usize> {
    duals: Vec<Dual<L>, CAP>,
    stretches: Vec<Stretch<L>, CAP>,
    stretched: bool,
    exponent: u8,
}

impl<L: Lane, const CAP: usize> StretchPalette<L, CAP> {
    /// An empty palette.
    pub const fn new() -> Self {
        Self {
            duals: Vec::new(),
            stretches: Vec::new(),
            stretched: false,
            exponent: 0,
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

    /// Remove every entry; the exponent returns to 0.
    pub fn clear(&mut self) {
        *self = Self::new();
    }

    /// The joints' rigid parts, in joint order (each translation `· 2^−e`).
    pub fn duals(&self) -> &[Dual<L>] {
        &self.duals
    }

    /// The joints' stretches (the identity for a rigid joint) and the exponent, or `None`
    /// when no joint has one and the palette fits at exponent 0 (then its duals are
    /// [`DualPalette`]'s).
    pub fn stretches(&self) -> Option<Stretches<'_, L>> {
        (self.stretched || self.exponent > 0).then_some(Stretches {
            matrices: &self.stretches,
            exponent: self.exponent,
        })
    }

    /// Clear the palette and fill it with the joint matrices `matrices()` yields, at the
    /// smallest exponent up to [`Lane::MAX_EXPONENT`] at which every joint fits the lane
    /// (as [`Palette::fill`]: a fresh iterator for each exponent tried). Errors the
    /// iterator yields are returned as they are; [`Error::Overflow`] when a joint does not
    /// fit even at the largest exponent; otherwise as [`Self::push`].
    pub fn fill<I>(&mut self, matrices: impl Fn() -> I) -> Result<(), Error>
    where
        I: Iterator<Item = Result<Affine<L::Real>, Error>>,
    {
        let start = |p: &mut Self, e| {
            p.clear();
            p.exponent = e;
        };
        fill_smallest::<L, _, _>(self, start, Self::push, matrices)
    }

    /// The joint matrix `m` split and appended at the palette's exponent (0 unless
    /// [`Self::fill`] raised it): [`Error::NotSplittable`] for a NaN or infinite entry, a
    /// reflection or a matrix that is not invertible; [`Error::Overflow`] when its
    /// translation or stretch does not fit the lane. A rigid joint's dual quaternion is
    /// [`DualPalette::push`]'s, from the matrix in the lane's own scalar; a stretched one's
    /// is the split's, in `f32`.
    pub fn push(&mut self, m: &Affine<L::Real>) -> Result<(), Error> {
        let joint = self.duals.len();
        let overflow = Error::Overflow {
            what: Quantity::Palette,
            index: joint,
            format: L::NAME,
        };
        let (split, stretch) = Dual::split(&m.to_f32())
            .map_err(|determinant| Error::NotSplittable { joint, determinant })?;
        let dual = match stretch {
            // Rigid within the tolerance in `f32`, as `from_rigid` measures it in any scalar.
            None => {
                Dual::from_rigid(m).map_err(|deviation| Error::NotRigid { joint, deviation })?
            }
            Some(_) => {
                let real = |c: [f32; 4]| c.map(L::Real::from_f32);
                match (real(split.real), real(split.dual)) {
                    ([Ok(a), Ok(b), Ok(c), Ok(d)], [Ok(e), Ok(f), Ok(g), Ok(h)]) => Dual {
                        real: [a, b, c, d],
                        dual: [e, f, g, h],
                    },
                    _ => return Err(overflow),
                }
            }
        };
        let one = L::Real::ONE;
        let zero = L::Real::ZERO;
        let s = match stretch {
            None => [[one, zero, zero], [zero, one, zero], [zero, zero, one]],
            Some(s) => {
                let mut out = [[zero; 3]; 3];
                for (o, r) in out.iter_mut().zip(s) {
                    for (o, v) in o.iter_mut().zip(r) {
                        *o = L::Real::from_f32(v).map_err(|_| overflow)?;
                    }
                }
                out
            }
        };
        let dual = L::narrow_dual_scaled(&dual, self.exponent).ok_or(overflow)?;
        let s = L::narrow_stretch(&s, self.exponent).ok_or(overflow)?;
        let full = Error::Capacity {
            len: joint + 1,
            capacity: CAP,
        };
        self.duals.push(dual).map_err(|_| full)?;
        self.stretches.push(s).map_err(|_| full)?;
        self.stretched |= stretch.is_some();
        Ok(())
    }
}

/// The exponent search of [`Palette::fill`] and [`StretchPalette::fill`]: `start(p, e)`
/// empties `p` at exponent `e`, from 0 up; each matrix is pushed, and an overflow below
/// [`Lane::MAX_EXPONENT`] starts again one exponent up with a fresh iterator.
fn fill_smallest<L: Lane, P, I>(
    p: &mut P,
    start: impl Fn(&mut P, u8),
    push: impl Fn(&mut P, &Affine<L::Real>) -> Result<(), Error>,
    matrices: impl Fn() -> I,
) -> Result<(), Error>
where
    I: Iterator<Item = Result<Affine<L::Real>, Error>>,
{
    let mut exponent = 0;
    'exponents: loop {
        start(p, exponent);
        for m in matrices() {
            match push(p, &m?) {
                Err(Error::Overflow { .. }) if exponent < L::MAX_EXPONENT => {
                    exponent += 1;
                    continue 'exponents;
                }
                r => r?,
            }
        }
        return Ok(());
    }
}
