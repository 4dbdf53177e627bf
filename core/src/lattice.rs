//! Lattice free-form deformation: a box around part of a model, a trivariate Bernstein
//! lattice of control points over it, and every skinned vertex inside the box moved by it.
//!
//! A lattice of degrees `(l, m, n)` (each 1 to [`MAX_DEGREE`]) over the box `min`–`max` has
//! `(l+1)(m+1)(n+1)` control points `P_ijk`. A point `p` inside the box has local
//! coordinates `(s, t, u) = (p − min)/(max − min)`, each in `[0, 1]`, and moves to
//!
//! ```text
//! p' = Σᵢ Bᵢˡ(s) Σⱼ Bⱼᵐ(t) Σₖ Bₖⁿ(u) P_ijk,     Bᵢⁿ(x) = C(n, i) xⁱ (1 − x)ⁿ⁻ⁱ
//! ```
//!
//! The control points start where they leave the box undeformed ([`Lattice::rest_point`]:
//! `P_ijk = min + (i/l, j/m, k/n)·(max − min)`, which the Bernstein basis maps to `p` itself)
//! and can be moved every frame ([`Lattice::set`]); points outside the box are left as they
//! are, so a lattice whose boundary points stay at rest deforms continuously. It runs after
//! skinning, on skinned positions, in the skinned output's format ([`Coord`]: `f32`, or
//! the fixed lane's `I16F16`), without allocation. Normals are not changed.
//!
//! # Accuracy
//!
//! The sums are nested, `k` innermost, so each level is a convex combination of the level
//! inside it. With `ε` the format's unit (`2⁻²⁴` relative for `f32`; `2⁻¹⁶` absolute for
//! `I16F16`), `M` the largest control-point coordinate and `d` an axis' degree: a local
//! coordinate is within `δs = ε·(2 + (|min| + |max|)/(max − min))` (a subtraction and a
//! division); a basis value within `d·(δs + ε)` (at most `d` products of values ≤ 1 and a
//! slope ≤ `d`); and each level adds its `d + 1` products' rounding and basis errors times `M`.
//! Together, per coordinate,
//!
//! ```text
//! |p' − p'_exact| ≤ ε·Σₐ (dₐ + 1)(2 + 7M) + Σₐ 2·dₐ·M·δsₐ
//! ```
//!
//! which [`Lattice::error_bound`] computes; the tests hold both formats to it against an
//! `f64` implementation.
//!
//! ```
//! use skin_core::lattice::Lattice;
//! // A degree-1 lattice over the unit cube: stretch the top face up by ½.
//! let mut lattice = Lattice::<f32>::new([0.0; 3], [1.0; 3], [1, 1, 1]).unwrap();
//! for i in 0..2 {
//!     for k in 0..2 {
//!         let mut p = lattice.rest_point([i, 1, k]);
//!         p[1] += 0.5;
//!         lattice.set([i, 1, k], p).unwrap();
//!     }
//! }
//! let mut points = [[0.5f32, 0.5, 0.5], [0.5, 1.0, 0.5], [2.0, 2.0, 2.0]];
//! lattice.deform(&mut points);
//! assert!((points[0][1] - 0.75).abs() < 1e-6); // halfway up moves by a quarter
//! assert!((points[1][1] - 1.5).abs() < 1e-6); // the top by a half
//! assert_eq!(points[2], [2.0; 3]); // outside the box: unchanged
//! // A flat box has no inside to deform.
//! assert!(Lattice::<f32>::new([0.0; 3], [1.0, 0.0, 1.0], [1, 1, 1]).is_err());
//! ```

use core::fmt;
use core::ops::{Add, Div, Mul, Sub};

use fixed::types::I16F16;

/// The highest degree per axis: cubic.
pub const MAX_DEGREE: u8 = 3;

/// The most control points: `(MAX_DEGREE + 1)³`.
pub const MAX_POINTS: usize = 64;

/// A coordinate format the lattice runs in: `f32`, or `I16F16` (the fixed lane's skinned
/// output).
pub trait Coord:
    Copy
    + PartialOrd
    + Default
    + fmt::Debug
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
{
    /// 0.
    const ZERO: Self;
    /// 1.
    const ONE: Self;
    /// The unit of rounding `ε` of the error bound (see the module docs).
    const EPS: f32;
    /// The largest magnitude a control point or box corner may have: products of control
    /// points and basis values (≤ 1) and sums of convex combinations then stay in range.
    const LIMIT: f32;
    /// `v`, or `None` when it is not finite or beyond [`Coord::LIMIT`].
    fn from_f32(v: f32) -> Option<Self>;
    /// The value as `f32` (exact for `I16F16` below 2⁸).
    fn to_f32(self) -> f32;
}

impl Coord for f32 {
    const ZERO: Self = 0.0;
    const ONE: Self = 1.0;
    const EPS: f32 = f32::EPSILON / 2.0;
    const LIMIT: f32 = 1.0e30;
    fn from_f32(v: f32) -> Option<Self> {
        (v.is_finite() && v.abs() <= Self::LIMIT).then_some(v)
    }
    fn to_f32(self) -> f32 {
        self
    }
}

impl Coord for I16F16 {
    const ZERO: Self = I16F16::ZERO;
    const ONE: Self = I16F16::ONE;
    const EPS: f32 = 1.0 / 65536.0;
    const LIMIT: f32 = 8192.0;
    fn from_f32(v: f32) -> Option<Self> {
        if v.is_finite() && v.abs() <= Self::LIMIT {
            Some(I16F16::from_num(v))
        } else {
            None
        }
    }
    fn to_f32(self) -> f32 {
        self.to_num()
    }
}

/// What is wrong with a lattice.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum LatticeError {
    /// A degree is outside `1..=MAX_DEGREE`.
    Degree {
        /// The axis (0 = x).
        axis: usize,
        /// The degree asked for.
        degree: u8,
    },
    /// The box has no extent (or a corner is not finite) along an axis, or is too thin for
    /// the format to divide by.
    Box {
        /// The axis (0 = x).
        axis: usize,
        /// The box's lower corner on it.
        min: f32,
        /// Its upper corner.
        max: f32,
    },
    /// A control point's index is beyond the lattice.
    Index {
        /// The index asked for.
        index: [u8; 3],
        /// The lattice's degrees (the largest index per axis).
        degree: [u8; 3],
    },
    /// A value is not finite or beyond the format's [`Coord::LIMIT`].
    Value {
        /// The value.
        value: f32,
        /// The limit.
        limit: f32,
    },
}

impl fmt::Display for LatticeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const AXES: [&str; 3] = ["x", "y", "z"];
        match *self {
            Self::Degree { axis, degree } => write!(
                f,
                "lattice degree {degree} along {}: it must be 1 to {MAX_DEGREE}",
                AXES[axis % 3]
            ),
            Self::Box { axis, min, max } => write!(
                f,
                "lattice box from {min} to {max} along {}: it must be finite with max > min",
                AXES[axis % 3]
            ),
            Self::Index { index, degree } => write!(
                f,
                "lattice point {index:?} is beyond the lattice of degrees {degree:?}"
            ),
            Self::Value { value, limit } => write!(
                f,
                "lattice value {value} is not finite or beyond the format's limit of ±{limit}"
            ),
        }
    }
}

impl core::error::Error for LatticeError {}

/// A Bernstein lattice over a box (see the module docs).
#[derive(Clone, Debug, PartialEq)]
pub struct Lattice<C: Coord> {
    min: [C; 3],
    max: [C; 3],
    size: [C; 3],
    degree: [u8; 3],
    points: [[C; 3]; MAX_POINTS],
    /// The box and the largest control-point magnitude, in `f32`, for the error bound.
    corners: [[f32; 3]; 2],
    largest: f32,
}

fn value<C: Coord>(v: f32) -> Result<C, LatticeError> {
    C::from_f32(v).ok_or(LatticeError::Value {
        value: v,
        limit: C::LIMIT,
    })
}

impl<C: Coord> Lattice<C> {
    /// The undeformed lattice of `degree` over the box `min`–`max`.
    pub fn new(min: [f32; 3], max: [f32; 3], degree: [u8; 3]) -> Result<Self, LatticeError> {
        for axis in 0..3 {
            if !(1..=MAX_DEGREE).contains(&degree[axis]) {
                return Err(LatticeError::Degree {
                    axis,
                    degree: degree[axis],
                });
            }
            let (lo, hi) = (min[axis], max[axis]);
            let bad = LatticeError::Box {
                axis,
                min: lo,
                max: hi,
            };
            // At least a few units of the format thick, so that local coordinates resolve.
            if !(lo.is_finite() && hi.is_finite() && hi - lo >= 16.0 * C::EPS * (1.0 + lo.abs())) {
                return Err(bad);
            }
            if C::from_f32(lo).is_none() || C::from_f32(hi).is_none() {
                return Err(bad);
            }
        }
        let lo: [C; 3] = [value(min[0])?, value(min[1])?, value(min[2])?];
        let hi: [C; 3] = [value(max[0])?, value(max[1])?, value(max[2])?];
        let mut lattice = Self {
            min: lo,
            max: hi,
            size: [hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]],
            degree,
            points: [[C::ZERO; 3]; MAX_POINTS],
            corners: [min, max],
            largest: 0.0,
        };
        for i in 0..=degree[0] {
            for j in 0..=degree[1] {
                for k in 0..=degree[2] {
                    lattice.set([i, j, k], lattice.rest_point([i, j, k]))?;
                }
            }
        }
        Ok(lattice)
    }

    /// The degrees per axis.
    pub fn degree(&self) -> [u8; 3] {
        self.degree
    }

    /// The box, lower and upper corner, in the format.
    pub fn bounds(&self) -> ([C; 3], [C; 3]) {
        (self.min, self.max)
    }

    /// Where control point `index` sits in the undeformed lattice: `min + (i/l, j/m,
    /// k/n)·(max − min)`.
    pub fn rest_point(&self, index: [u8; 3]) -> [f32; 3] {
        let [lo, hi] = self.corners;
        [0, 1, 2].map(|a| {
            let f = f32::from(index[a]) / f32::from(self.degree[a]);
            lo[a] + f * (hi[a] - lo[a])
        })
    }

    fn slot(&self, [i, j, k]: [u8; 3]) -> Result<usize, LatticeError> {
        let [l, m, n] = self.degree;
        if i > l || j > m || k > n {
            return Err(LatticeError::Index {
                index: [i, j, k],
                degree: self.degree,
            });
        }
        let (m1, n1) = (usize::from(m) + 1, usize::from(n) + 1);
        Ok((usize::from(i) * m1 + usize::from(j)) * n1 + usize::from(k))
    }

    /// Move control point `index` to `p`.
    pub fn set(&mut self, index: [u8; 3], p: [f32; 3]) -> Result<(), LatticeError> {
        let slot = self.slot(index)?;
        self.points[slot] = [value(p[0])?, value(p[1])?, value(p[2])?];
        let largest = self.points[..self.len()]
            .iter()
            .flatten()
            .map(|c| c.to_f32().abs())
            .fold(0.0, f32::max);
        self.largest = largest;
        Ok(())
    }

    /// Every control point at its rest place plus the next of `offsets`, in point order
    /// (`(i·(m + 1) + j)·(n + 1) + k`; points past the end of `offsets` stay where they
    /// are): a lattice keyed by offsets, set once a frame ([`crate::asset::LatticeView`]).
    pub fn offset_all(
        &mut self,
        offsets: impl IntoIterator<Item = [f32; 3]>,
    ) -> Result<(), LatticeError> {
        let [l, m, n] = self.degree;
        let indices =
            (0..=l).flat_map(|i| (0..=m).flat_map(move |j| (0..=n).map(move |k| [i, j, k])));
        for (slot, (index, by)) in indices.zip(offsets).enumerate() {
            let rest = self.rest_point(index);
            let p = [0, 1, 2].map(|a| rest[a] + by[a]);
            self.points[slot] = [value(p[0])?, value(p[1])?, value(p[2])?];
        }
        self.largest = self.points[..self.len()]
            .iter()
            .flatten()
            .map(|c| c.to_f32().abs())
            .fold(0.0, f32::max);
        Ok(())
    }

    /// Control point `index`, or `None` beyond the lattice.
    pub fn point(&self, index: [u8; 3]) -> Option<[C; 3]> {
        self.slot(index).ok().map(|s| self.points[s])
    }

    fn len(&self) -> usize {
        self.degree
            .iter()
            .map(|&d| usize::from(d) + 1)
            .product::<usize>()
    }

    /// Move every point of `points` that lies inside the box (see the module docs).
    pub fn deform(&self, points: &mut [[C; 3]]) {
        for p in points {
            if let Some(q) = self.moved(*p) {
                *p = q;
            }
        }
    }

    /// Where `p` moves to, or `None` when it lies outside the box.
    pub fn moved(&self, p: [C; 3]) -> Option<[C; 3]> {
        if (0..3).any(|a| p[a] < self.min[a] || p[a] > self.max[a]) {
            return None;
        }
        let local = [0, 1, 2].map(|a| {
            let s = (p[a] - self.min[a]) / self.size[a];
            if s > C::ONE {
                C::ONE
            } else {
                s
            }
        });
        let [bs, bt, bu] = [0, 1, 2].map(|a| basis(self.degree[a], local[a]));
        let [l, m, n] = self.degree.map(usize::from);
        let mut out = [C::ZERO; 3];
        for (i, &wi) in bs.iter().enumerate().take(l + 1) {
            let mut plane = [C::ZERO; 3];
            for (j, &wj) in bt.iter().enumerate().take(m + 1) {
                let mut row = [C::ZERO; 3];
                let at = (i * (m + 1) + j) * (n + 1);
                for (&wk, q) in bu.iter().zip(&self.points[at..at + n + 1]) {
                    for a in 0..3 {
                        row[a] = row[a] + wk * q[a];
                    }
                }
                for a in 0..3 {
                    plane[a] = plane[a] + wj * row[a];
                }
            }
            for a in 0..3 {
                out[a] = out[a] + wi * plane[a];
            }
        }
        Some(out)
    }

    /// The bound on [`Self::moved`]'s error per coordinate against exact arithmetic on the
    /// same inputs (see the module docs).
    pub fn error_bound(&self) -> f32 {
        let eps = C::EPS;
        let m = self.largest;
        let [lo, hi] = self.corners;
        (0..3)
            .map(|a| {
                let d = f32::from(self.degree[a]);
                let ds = eps * (2.0 + (lo[a].abs() + hi[a].abs()) / (hi[a] - lo[a]));
                eps * (d + 1.0) * (2.0 + 7.0 * m) + 2.0 * d * m * ds
            })
            .sum()
    }
}

/// The Bernstein basis of `degree` (1 to 3) at `x`, the unused entries zero.
fn basis<C: Coord>(degree: u8, x: C) -> [C; 4] {
    let y = C::ONE - x;
    let z = C::ZERO;
    match degree {
        1 => [y, x, z, z],
        2 => {
            let xy = x * y;
            [y * y, xy + xy, x * x, z]
        }
        _ => {
            let (xx, yy) = (x * x, y * y);
            let (a, b) = (x * yy, xx * y);
            [yy * y, a + a + a, b + b + b, xx * x]
        }
    }
}
