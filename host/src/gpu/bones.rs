//! A frame's palette in its skinning method's form: one joint matrix a joint for linear
//! blend skinning, one unit dual quaternion a joint for dual quaternion skinning (and, where
//! a joint has scale or shear, every joint's stretch: Kavan et al.'s split).

use skin_core::affine::Affine;
use skin_core::budget::Layout;
use skin_core::dual::{Dual, Stretch};

use super::GpuError;
use crate::pose::Skinning;

/// A palette as the GPU paths take it (borrowed; [`FramePalette`] owns one). Slices, vectors
/// and arrays of either kind convert into it.
///
/// ```
/// use skin_core::affine::Affine;
/// use skin_core::dual::Dual;
/// use skin_host::gpu::Bones;
/// use skin_host::pose::Skinning;
/// let m = [Affine::<f32>::IDENTITY; 3];
/// assert_eq!(Bones::from(&m).skinning(), Skinning::Lbs);
/// let d = vec![Dual::from_rigid(&Affine::<f32>::IDENTITY).unwrap(); 2];
/// assert_eq!((Bones::from(&d).skinning(), Bones::from(&d).len()), (Skinning::Dqs, 2));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Bones<'a> {
    /// Joint matrices `W·IBM` (linear blend skinning).
    Matrices(&'a [Affine<f32>]),
    /// The joints' unit dual quaternions (dual quaternion skinning).
    Duals(&'a [Dual<f32>]),
    /// The rigid parts of joints with scale or shear as unit dual quaternions, and each
    /// joint's stretch (symmetric; the identity for a rigid joint), one of each a joint:
    /// dual quaternion skinning with scale, as `skin_core::dual::Dual::split` splits them.
    Stretched(&'a [Dual<f32>], &'a [Stretch<f32>]),
}

/// A palette owned: what [`super::Model::palettes`] computes for each primitive.
#[derive(Clone, Debug, PartialEq)]
pub enum FramePalette {
    /// Joint matrices (LBS, and every rigid primitive).
    Matrices(Vec<Affine<f32>>),
    /// Unit dual quaternions (DQS).
    Duals(Vec<Dual<f32>>),
    /// Unit dual quaternions and stretches (DQS of joints with scale or shear).
    Stretched(Vec<Dual<f32>>, Vec<Stretch<f32>>),
}

impl FramePalette {
    /// The palette borrowed.
    pub fn bones(&self) -> Bones<'_> {
        match self {
            FramePalette::Matrices(m) => Bones::Matrices(m),
            FramePalette::Duals(d) => Bones::Duals(d),
            FramePalette::Stretched(d, s) => Bones::Stretched(d, s),
        }
    }

    /// Entries (joints).
    pub fn len(&self) -> usize {
        self.bones().len()
    }

    /// `true` without entries.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl<'a> Bones<'a> {
    /// Entries (joints).
    pub fn len(&self) -> usize {
        match self {
            Bones::Matrices(m) => m.len(),
            Bones::Duals(d) | Bones::Stretched(d, _) => d.len(),
        }
    }

    /// `true` without entries.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The skinning method the palette is for.
    pub fn skinning(&self) -> Skinning {
        match self {
            Bones::Matrices(_) => Skinning::Lbs,
            Bones::Duals(_) | Bones::Stretched(..) => Skinning::Dqs,
        }
    }

    /// Whether the bones carry stretches (the shaders' stretched blend).
    pub(super) fn stretched(&self) -> bool {
        matches!(self, Bones::Stretched(..))
    }

    /// The uniform layout of a vertex path drawing this palette: `matrices` (3×4 or 4×4)
    /// for joint matrices, [`Layout::DualQuat`] for dual quaternions; a matrix palette
    /// asked to be drawn as dual quaternions is refused.
    pub(super) fn layout(&self, matrices: Layout) -> Result<Layout, GpuError> {
        match (self, matrices) {
            (Bones::Duals(_) | Bones::Stretched(..), _) => Ok(Layout::DualQuat),
            (Bones::Matrices(_), Layout::DualQuat) => Err(GpuError::Layout { layout: matrices }),
            (Bones::Matrices(_), l) => Ok(l),
        }
    }

    /// The first entry with a non-finite number, as an error naming it; stretches not one
    /// a joint are refused.
    pub(super) fn check_finite(&self) -> Result<(), GpuError> {
        if let Bones::Stretched(d, s) = self {
            if d.len() != s.len() {
                return Err(GpuError::Stretches {
                    duals: d.len(),
                    stretches: s.len(),
                });
            }
            let bad = s
                .iter()
                .position(|s| !s.iter().flatten().all(|v| v.is_finite()));
            if let Some(i) = bad {
                return Err(GpuError::NotFinite {
                    what: format!("palette stretch {i}"),
                });
            }
        }
        let bad = match self {
            Bones::Matrices(m) => m
                .iter()
                .position(|m| !m.rows.iter().flatten().all(|v| v.is_finite()))
                .map(|i| format!("palette matrix {i}")),
            Bones::Duals(d) | Bones::Stretched(d, _) => d
                .iter()
                .position(|d| !d.real.iter().chain(&d.dual).all(|v| v.is_finite()))
                .map(|i| format!("palette dual quaternion {i}")),
        };
        match bad {
            Some(what) => Err(GpuError::NotFinite { what }),
            None => Ok(()),
        }
    }

    /// The whole palette as the compute path's storage buffer holds it: 12 floats a matrix
    /// (its rows), 8 a dual quaternion (rotation, then dual part), 16 a stretched joint
    /// (its dual quaternion, then its stretch as [`Self::write_stretch`] packs it).
    pub(super) fn storage(&self) -> Vec<f32> {
        match self {
            Bones::Matrices(m) => m.iter().flat_map(|m| m.rows.concat()).collect(),
            Bones::Duals(d) => d.iter().flat_map(|d| [d.real, d.dual].concat()).collect(),
            Bones::Stretched(d, _) => (0..d.len())
                .flat_map(|j| {
                    let mut bone = [0.0; 16];
                    bone[..4].copy_from_slice(&d[j].real);
                    bone[4..8].copy_from_slice(&d[j].dual);
                    self.write_stretch(j, &mut bone[8..]);
                    bone
                })
                .collect(),
        }
    }

    /// Joint `j`'s stretch as two `vec4`s (`dst`, 8 floats): the six entries of the
    /// symmetric matrix `s00 s01 s02 s11 | s12 s22 0 0`; the identity for a palette without
    /// stretches.
    pub(super) fn write_stretch(&self, j: usize, dst: &mut [f32]) {
        const IDENTITY: Stretch<f32> = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
        let s = match self {
            Bones::Stretched(_, s) => &s[j],
            _ => &IDENTITY,
        };
        dst[..8].copy_from_slice(&[
            s[0][0], s[0][1], s[0][2], s[1][1], s[1][2], s[2][2], 0.0, 0.0,
        ]);
    }

    /// Joint `j` as one slot of a uniform palette in `layout` (its floats; `dst` is the
    /// slot: 12 for 3×4, 16 for 4×4 with the `0 0 0 1` row, 8 for a dual quaternion).
    pub(super) fn write_slot(&self, j: usize, dst: &mut [f32]) {
        match self {
            Bones::Matrices(m) => {
                dst[..12].copy_from_slice(m[j].rows.as_flattened());
                if dst.len() == 16 {
                    dst[15] = 1.0;
                }
            }
            Bones::Duals(d) | Bones::Stretched(d, _) => {
                dst[..4].copy_from_slice(&d[j].real);
                dst[4..8].copy_from_slice(&d[j].dual);
            }
        }
    }
}

impl<'a> From<&'a FramePalette> for Bones<'a> {
    fn from(p: &'a FramePalette) -> Self {
        p.bones()
    }
}

impl<'a> From<&'a [Affine<f32>]> for Bones<'a> {
    fn from(m: &'a [Affine<f32>]) -> Self {
        Bones::Matrices(m)
    }
}

impl<'a> From<&'a Vec<Affine<f32>>> for Bones<'a> {
    fn from(m: &'a Vec<Affine<f32>>) -> Self {
        Bones::Matrices(m)
    }
}

impl<'a, const N: usize> From<&'a [Affine<f32>; N]> for Bones<'a> {
    fn from(m: &'a [Affine<f32>; N]) -> Self {
        Bones::Matrices(m)
    }
}

impl<'a> From<&'a [Dual<f32>]> for Bones<'a> {
    fn from(d: &'a [Dual<f32>]) -> Self {
        Bones::Duals(d)
    }
}

impl<'a> From<&'a Vec<Dual<f32>>> for Bones<'a> {
    fn from(d: &'a Vec<Dual<f32>>) -> Self {
        Bones::Duals(d)
    }
}

impl<'a, const N: usize> From<&'a [Dual<f32>; N]> for Bones<'a> {
    fn from(d: &'a [Dual<f32>; N]) -> Self {
        Bones::Duals(d)
    }
}

impl<'a> From<&'a (Vec<Dual<f32>>, Vec<Stretch<f32>>)> for Bones<'a> {
    fn from((d, s): &'a (Vec<Dual<f32>>, Vec<Stretch<f32>>)) -> Self {
        Bones::Stretched(d, s)
    }
}
