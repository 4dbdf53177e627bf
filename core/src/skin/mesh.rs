//! Meshes: vertices validated once, when made ([`RigidMesh::new`], [`SkinnedMesh::new`]);
//! skinning one checks the palette's length and the slices' lengths (no per-vertex work),
//! makes a validated view ([`super::batch`]) and runs the loop [`super::dispatch`] picks.

use super::batch::{Batch, Rigid};
use super::table::Tabled;
use super::{dispatch, dqs, generic};
use crate::affine::Affine;
use crate::dual::Dual;
use crate::error::Error;
use crate::lane::Lane;
use crate::palette::DualEntries;
use crate::vertex::Influence;

/// Vertices that each follow exactly one bone (*stitching*).
#[derive(Clone, Copy, Debug)]
pub struct RigidMesh<'a, L: Lane> {
    positions: &'a [[L; 3]],
    bones: &'a [u8],
    bone_count: usize,
}

/// Vertices blended from up to `K` (1..=4) bones each.
#[derive(Clone, Copy, Debug)]
pub struct SkinnedMesh<'a, L: Lane, const K: usize> {
    positions: &'a [[L; 3]],
    influences: &'a [Influence<L>],
    bone_count: usize,
}

impl<'a, L: Lane> RigidMesh<'a, L> {
    /// Positions and the bone of each.
    pub fn new(positions: &'a [[L; 3]], bones: &'a [u8]) -> Result<Self, Error> {
        check_len(positions.len(), bones.len())?;
        let bone_count = bones.iter().max().map_or(0, |&b| usize::from(b) + 1);
        Ok(Self {
            positions,
            bones,
            bone_count,
        })
    }

    /// Vertices.
    pub fn len(&self) -> usize {
        self.positions.len()
    }

    /// `true` with no vertices.
    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }

    /// Bones the mesh uses (its largest bone index + 1).
    pub fn bone_count(&self) -> usize {
        self.bone_count
    }

    /// Skinned positions: `out[v] = M[bone[v]] · p[v]`.
    pub fn skin(&self, palette: &[Affine<L>], out: &mut [[L::Out; 3]]) -> Result<(), Error> {
        dispatch::stitch(self.rigid(palette, out.len())?, out, None);
        Ok(())
    }

    /// Skinned positions and renormalised normals.
    pub fn skin_with_normals(
        &self,
        palette: &[Affine<L>],
        normals: &[[L; 3]],
        out: &mut [[L::Out; 3]],
        out_normals: &mut [[L; 3]],
    ) -> Result<(), Error> {
        let rigid = self.rigid(palette, out.len())?;
        check_normals(self.len(), normals, out_normals)?;
        dispatch::stitch(rigid, out, Some((normals, out_normals)));
        Ok(())
    }

    /// A checked [`Rigid`] for the loops' own tests.
    #[cfg(test)]
    pub(crate) fn rigid_for_tests<'b>(&'b self, palette: &'b [Affine<L>]) -> Rigid<'b, L> {
        self.rigid(palette, self.len())
            .expect("a palette that holds the mesh's bones")
    }

    /// The vertices with `palette`, which must hold every bone they use, for `out` vertices.
    fn rigid<'b>(&'b self, palette: &'b [Affine<L>], out: usize) -> Result<Rigid<'b, L>, Error> {
        let bones = self.bones.iter().map(|&b| [b]);
        let rigid = Rigid::for_bones(palette, self.bone_count)
            .ok_or_else(|| bone_error(palette.len(), bones))?;
        check_len(self.len(), out)?;
        // The bones were counted by `new`: all below `bone_count`.
        Ok(rigid.over(self.positions, self.bones))
    }
}

impl<'a, L: Lane, const K: usize> SkinnedMesh<'a, L, K> {
    /// Positions and their influences. [`Error::Influences`] for a vertex with a non-zero
    /// weight beyond the first `K` influences.
    pub fn new(positions: &'a [[L; 3]], influences: &'a [Influence<L>]) -> Result<Self, Error> {
        const { assert!(K >= 1 && K <= 4, "a skinned mesh blends 1 to 4 influences") };
        check_len(positions.len(), influences.len())?;
        let mut bone_count = 0;
        for (vertex, inf) in influences.iter().enumerate() {
            let used = inf.count();
            if used > K {
                return Err(Error::Influences {
                    vertex,
                    used,
                    max: K,
                });
            }
            let top = inf.bones()[..K]
                .iter()
                .max()
                .map_or(0, |&b| usize::from(b) + 1);
            bone_count = bone_count.max(top);
        }
        Ok(Self {
            positions,
            influences,
            bone_count,
        })
    }

    /// Vertices.
    pub fn len(&self) -> usize {
        self.positions.len()
    }

    /// `true` with no vertices.
    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }

    /// Bones the mesh uses (its largest bone index among the first `K` slots + 1).
    pub fn bone_count(&self) -> usize {
        self.bone_count
    }

    /// Skinned positions: `out[v] = (Σ wₖ M[bₖ]) · p[v]`.
    pub fn skin(&self, palette: &[Affine<L>], out: &mut [[L::Out; 3]]) -> Result<(), Error> {
        dispatch::lbs(self.batch(palette, out.len())?, out, None);
        Ok(())
    }

    /// Skinned positions and renormalised normals.
    pub fn skin_with_normals(
        &self,
        palette: &[Affine<L>],
        normals: &[[L; 3]],
        out: &mut [[L::Out; 3]],
        out_normals: &mut [[L; 3]],
    ) -> Result<(), Error> {
        let batch = self.batch(palette, out.len())?;
        check_normals(self.len(), normals, out_normals)?;
        dispatch::lbs(batch, out, Some((normals, out_normals)));
        Ok(())
    }

    /// [`Self::skin`] with `tabled`'s palette and its table, built once for many calls (the
    /// ARMv6-M kernel reads it instead of copying the palette); the same bits.
    pub fn skin_tabled<const P: usize>(
        &self,
        tabled: &Tabled<'_, L, P>,
        out: &mut [[L::Out; 3]],
    ) -> Result<(), Error> {
        let batch = self.batch(tabled.palette(), out.len())?;
        dispatch::lbs_tabled(batch, tabled.table(), out, None);
        Ok(())
    }

    /// [`Self::skin_with_normals`] with `tabled` (as [`Self::skin_tabled`]).
    pub fn skin_with_normals_tabled<const P: usize>(
        &self,
        tabled: &Tabled<'_, L, P>,
        normals: &[[L; 3]],
        out: &mut [[L::Out; 3]],
        out_normals: &mut [[L; 3]],
    ) -> Result<(), Error> {
        let batch = self.batch(tabled.palette(), out.len())?;
        check_normals(self.len(), normals, out_normals)?;
        dispatch::lbs_tabled(batch, tabled.table(), out, Some((normals, out_normals)));
        Ok(())
    }

    /// Dual quaternion skinning: `out[v]` is `p[v]` moved by the blend of its bones' unit
    /// dual quaternions ([`crate::palette::DualPalette`]), normalised.
    ///
    /// ```
    /// use skin_core::affine::Affine;
    /// use skin_core::palette::DualPalette;
    /// use skin_core::skin::SkinnedMesh;
    /// use skin_core::vertex::Influence;
    /// let positions = [[1.0f32, 0.0, 0.0]];
    /// let influences = [Influence::from_weights([0, 1, 0, 0], [0.5, 0.5, 0.0, 0.0], 0).unwrap()];
    /// let mesh = SkinnedMesh::<f32, 2>::new(&positions, &influences).unwrap();
    /// let mut palette: DualPalette<f32, 2> = DualPalette::new();
    /// palette.push(&Affine::IDENTITY).unwrap();
    /// palette.push(&Affine::translation([0.0, 2.0, 0.0])).unwrap();
    /// let mut out = [[0.0; 3]; 1];
    /// mesh.skin_dqs(&palette, &mut out).unwrap();
    /// assert!((out[0][1] - 1.0).abs() < 1e-6);
    /// ```
    ///
    /// [`Error::Overflow`] for a palette entry that does not [fit](Lane::fits_dual) the lane.
    /// A [`crate::palette::DualPalette`] holds only ones that do, and is not checked again
    /// ([`DualEntries`]); a slice's entries are checked on every call.
    pub fn skin_dqs<P: DualEntries<L> + ?Sized>(
        &self,
        palette: &P,
        out: &mut [[L::Out; 3]],
    ) -> Result<(), Error> {
        let palette = palette.checked()?;
        dispatch::dqs(self.batch(palette, out.len())?, out, None);
        Ok(())
    }

    /// [`Self::skin_dqs`] with the normals rotated by the same blend, renormalised.
    pub fn skin_dqs_with_normals<P: DualEntries<L> + ?Sized>(
        &self,
        palette: &P,
        normals: &[[L; 3]],
        out: &mut [[L::Out; 3]],
        out_normals: &mut [[L; 3]],
    ) -> Result<(), Error> {
        let palette = palette.checked()?;
        let batch = self.batch(palette, out.len())?;
        check_normals(self.len(), normals, out_normals)?;
        dispatch::dqs(batch, out, Some((normals, out_normals)));
        Ok(())
    }

    /// [`Self::skin`] by the generic loop over [`Lane`]'s primitives, bypassing the loop the
    /// dispatch point picks ([`super::dispatch`]): the reference that loop must match bit for bit. The
    /// firmware benchmark checks the fixed lane's assembly kernels against it on the device.
    pub fn skin_generic(
        &self,
        palette: &[Affine<L>],
        out: &mut [[L::Out; 3]],
    ) -> Result<(), Error> {
        generic::lbs(self.batch(palette, out.len())?, out, None);
        Ok(())
    }

    /// [`Self::skin_with_normals`] by the generic loop (see [`Self::skin_generic`]).
    pub fn skin_with_normals_generic(
        &self,
        palette: &[Affine<L>],
        normals: &[[L; 3]],
        out: &mut [[L::Out; 3]],
        out_normals: &mut [[L; 3]],
    ) -> Result<(), Error> {
        let batch = self.batch(palette, out.len())?;
        check_normals(self.len(), normals, out_normals)?;
        generic::lbs(batch, out, Some((normals, out_normals)));
        Ok(())
    }

    /// [`Self::skin_dqs`] by the generic loop (`skin::dqs`), bypassing the loop the dispatch
    /// point picks: the reference the DQS assembly kernels must match bit for bit (checked
    /// on the device by the firmware benchmark).
    pub fn skin_dqs_generic(
        &self,
        palette: &[Dual<L>],
        out: &mut [[L::Out; 3]],
    ) -> Result<(), Error> {
        check_dual(palette)?;
        dqs::dqs(self.batch(palette, out.len())?, out, None);
        Ok(())
    }

    /// [`Self::skin_dqs_with_normals`] by the generic loop (see [`Self::skin_dqs_generic`]).
    pub fn skin_dqs_with_normals_generic(
        &self,
        palette: &[Dual<L>],
        normals: &[[L; 3]],
        out: &mut [[L::Out; 3]],
        out_normals: &mut [[L; 3]],
    ) -> Result<(), Error> {
        check_dual(palette)?;
        let batch = self.batch(palette, out.len())?;
        check_normals(self.len(), normals, out_normals)?;
        dqs::dqs(batch, out, Some((normals, out_normals)));
        Ok(())
    }

    /// The vertices with `palette`, which must hold every bone they use (in the first `K`
    /// slots), for `out` vertices.
    pub(super) fn batch<'b, M>(
        &'b self,
        palette: &'b [M],
        out: usize,
    ) -> Result<Batch<'b, L, K, M>, Error> {
        let bones = self.influences.iter().map(|i| first::<K>(i.bones()));
        let batch = Batch::for_bones(palette, self.bone_count)
            .ok_or_else(|| bone_error(palette.len(), bones))?;
        check_len(self.len(), out)?;
        // The bones were counted by `new`: all below `bone_count`.
        Ok(batch.over(self.positions, self.influences))
    }

    /// A checked [`Batch`] for the loops' own tests.
    #[cfg(test)]
    pub(crate) fn batch_for_tests<'b, M>(&'b self, palette: &'b [M]) -> Batch<'b, L, K, M> {
        self.batch(palette, self.len())
            .expect("a palette for the mesh")
    }
}

/// Every dual quaternion of a palette [fits](Lane::fits_dual) the lane, else the first that
/// does not, as [`Error::Overflow`] ([`DualEntries::checked`]).
pub(super) fn check_dual<L: Lane>(palette: &[Dual<L>]) -> Result<(), Error> {
    palette.checked().map(|_| ())
}

/// The input and output normals must match the mesh's length.
pub(super) fn check_normals<L: Lane>(
    len: usize,
    normals: &[[L; 3]],
    out: &[[L; 3]],
) -> Result<(), Error> {
    check_len(len, normals.len())?;
    check_len(len, out.len())
}

pub(super) fn check_len(expected: usize, actual: usize) -> Result<(), Error> {
    if expected == actual {
        Ok(())
    } else {
        Err(Error::LengthMismatch { expected, actual })
    }
}

/// The first `K` bone slots.
fn first<const K: usize>(b: [u8; 4]) -> [u8; K] {
    core::array::from_fn(|k| b[k])
}

/// The error for a palette of `palette` matrices too short for the vertices' `bones`: the
/// first offender.
fn bone_error<const K: usize>(palette: usize, bones: impl Iterator<Item = [u8; K]>) -> Error {
    let offender = bones.enumerate().find_map(|(vertex, bs)| {
        bs.into_iter()
            .find(|&b| usize::from(b) >= palette)
            .map(|b| (vertex, b))
    });
    let (vertex, bone) = offender.unwrap_or((0, 0));
    Error::BoneIndex {
        vertex,
        bone: u16::from(bone),
        bones: palette,
    }
}
