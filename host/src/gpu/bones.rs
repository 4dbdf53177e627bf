//! A frame's palette in its skinning method's form: one joint matrix a joint for linear
//! blend skinning, one unit dual quaternion a joint for dual quaternion skinning.

use skin_core::affine::Affine;
use skin_core::budget::Layout;
use skin_core::dual::Dual;

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
}

/// A palette owned: what [`super::Model::palettes`] computes for each primitive.
#[derive(Clone, Debug, PartialEq)]
pub enum FramePalette {
    /// Joint matrices (LBS, and every rigid primitive).
    Matrices(Vec<Affine<f32>>),
    /// Unit dual quaternions (DQS).
    Duals(Vec<Dual<f32>>),
}

impl FramePalette {
    /// The palette borrowed.
    pub fn bones(&self) -> Bones<'_> {
        match self {
            FramePalette::Matrices(m) => Bones::Matrices(m),
            FramePalette::Duals(d) => Bones::Duals(d),
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
            Bones::Duals(d) => d.len(),
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
            Bones::Duals(_) => Skinning::Dqs,
        }
    }

    /// The uniform layout of a vertex path drawing this palette: `matrices` (3×4 or 4×4)
    /// for joint matrices, [`Layout::DualQuat`] for dual quaternions; a matrix palette
    /// asked to be drawn as dual quaternions is refused.
    pub(super) fn layout(&self, matrices: Layout) -> Result<Layout, GpuError> {
        match (self, matrices) {
            (Bones::Duals(_), _) => Ok(Layout::DualQuat),
            (Bones::Matrices(_), Layout::DualQuat) => Err(GpuError::Layout { layout: matrices }),
            (Bones::Matrices(_), l) => Ok(l),
        }
    }

    /// The first entry with a non-finite number, as an error naming it.
    pub(super) fn check_finite(&self) -> Result<(), GpuError> {
        let bad = match self {
            Bones::Matrices(m) => m
                .iter()
                .position(|m| !m.rows.iter().flatten().all(|v| v.is_finite()))
                .map(|i| format!("palette matrix {i}")),
            Bones::Duals(d) => d
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
    /// (its rows), 8 a dual quaternion (rotation, then dual part).
    pub(super) fn storage(&self) -> Vec<f32> {
        match self {
            Bones::Matrices(m) => m.iter().flat_map(|m| m.rows.concat()).collect(),
            Bones::Duals(d) => d.iter().flat_map(|d| [d.real, d.dual].concat()).collect(),
        }
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
            Bones::Duals(d) => {
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
