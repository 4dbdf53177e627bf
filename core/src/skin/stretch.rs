//! Dual quaternion skinning of joints with scale or shear, as Kavan et al. describe it,
//! written once over the lanes: each joint matrix is split into a unit dual quaternion and
//! a scale/shear `S` ([`Dual::split`](crate::dual::Dual::split),
//! [`crate::palette::StretchPalette`]); per vertex, the blend of its bones' stretches
//! `Σ wₖSₖ` moves the position first ([`Lane::stretch_point`]), then the blended rigid part
//! moves it as in plain DQS (`super::dqs`). The normal goes through the blended stretch's
//! inverse transpose: `S` is symmetric, so that is its cofactor matrix divided by its
//! (positive) determinant, and the renormalisation after the rotation drops the factor
//! ([`Lane::stretch_normal`]). A stretch is symmetric: six entries a bone are blended.
//!
//! In fixed point the stretches and translations are stored `2^e` times smaller (the
//! palette's exponent, [`Stretches`]), the loop runs on them unchanged and the positions are
//! widened by `2^e` at the end, exactly, as LBS's palette exponent
//! ([`crate::palette::Palette`]).
//!
//! A palette without stretches (every joint rigid, decided once when it was filled) takes
//! the plain DQS loop through the dispatch point: the same bits as a
//! [`DualPalette`](crate::palette::DualPalette)'s.

use super::batch::{Batch, Normals};
use super::dqs::blend;
use super::generic::with_bones;
use super::mesh::{check_dual, check_len, check_normals};
use super::{dispatch, SkinnedMesh};
use crate::dual::{Dual, Stretch, Stretches};
use crate::error::Error;
use crate::lane::{widen, Lane};
use crate::vertex::Influence;

impl<L: Lane, const K: usize> SkinnedMesh<'_, L, K> {
    /// Dual quaternion skinning with scale: `out[v]` is `p[v]` moved by the blend of its
    /// bones' stretches, then by the blend of their unit dual quaternions, normalised, and
    /// widened by the stretches' exponent. `stretches` is `None` for a palette of rigid
    /// joints (the plain loop, the same bits as [`Self::skin_dqs`]).
    ///
    /// ```
    /// use skin_core::affine::Affine;
    /// use skin_core::palette::StretchPalette;
    /// use skin_core::skin::SkinnedMesh;
    /// use skin_core::vertex::Influence;
    /// let positions = [[1.0f32, 0.0, 0.0]];
    /// let influences = [Influence::from_weights([0, 1, 0, 0], [0.5, 0.5, 0.0, 0.0], 0).unwrap()];
    /// let mesh = SkinnedMesh::<f32, 2>::new(&positions, &influences).unwrap();
    /// let mut palette: StretchPalette<f32, 2> = StretchPalette::new();
    /// palette.push(&Affine::IDENTITY).unwrap();
    /// let mut long = Affine::IDENTITY;
    /// long.rows[0][0] = 3.0;
    /// palette.push(&long).unwrap();
    /// let mut out = [[0.0; 3]; 1];
    /// mesh.skin_dqs_stretched(palette.duals(), palette.stretches(), &mut out).unwrap();
    /// assert!((out[0][0] - 2.0).abs() < 1e-6); // half of 1, half of 3
    /// ```
    ///
    /// [`Error::LengthMismatch`] when `stretches` does not have one entry per joint;
    /// otherwise as [`Self::skin_dqs`].
    pub fn skin_dqs_stretched(
        &self,
        palette: &[Dual<L>],
        stretches: Option<Stretches<'_, L>>,
        out: &mut [[L::Out; 3]],
    ) -> Result<(), Error> {
        check_dual(palette)?;
        let batch = self.batch(palette, out.len())?;
        stretched(batch, stretches, out, None)
    }

    /// [`Self::skin_dqs_stretched`] with the normals through the blended stretch's inverse
    /// transpose and the blended rotation, renormalised.
    pub fn skin_dqs_stretched_with_normals(
        &self,
        palette: &[Dual<L>],
        stretches: Option<Stretches<'_, L>>,
        normals: &[[L; 3]],
        out: &mut [[L::Out; 3]],
        out_normals: &mut [[L; 3]],
    ) -> Result<(), Error> {
        check_dual(palette)?;
        let batch = self.batch(palette, out.len())?;
        check_normals(self.len(), normals, out_normals)?;
        stretched(batch, stretches, out, Some((normals, out_normals)))
    }
}

/// The plain DQS loop without stretches; with them, the stretched loop, then the widening.
fn stretched<L: Lane, const K: usize>(
    batch: Batch<'_, L, K, Dual<L>>,
    stretches: Option<Stretches<'_, L>>,
    out: &mut [[L::Out; 3]],
    normals: Normals<'_, L>,
) -> Result<(), Error> {
    let Some(s) = stretches else {
        dispatch::dqs(batch, out, normals);
        return Ok(());
    };
    check_len(batch.parts().0.len(), s.matrices.len())?;
    dqs_stretched(batch, s.matrices, out, normals);
    widen::<L>(out, s.exponent);
    Ok(())
}

/// The loop: per vertex, the blended stretch, then the blended rigid part.
fn dqs_stretched<L: Lane, const K: usize>(
    batch: Batch<'_, L, K, Dual<L>>,
    stretches: &[Stretch<L>],
    out: &mut [[L::Out; 3]],
    normals: Normals<'_, L>,
) {
    let (palette, positions, influences) = batch.parts();
    with_bones!(palette, |get| {
        let vertices = positions.iter().zip(influences);
        match normals {
            None => {
                for ((p, inf), o) in vertices.zip(out) {
                    let s = blend_stretch::<L, K>(stretches, inf);
                    *o = L::rigid_point(&blend::<L, K>(get, inf), &L::stretch_point(&s, p));
                }
            }
            Some((normals, out_normals)) => {
                let outs = out.iter_mut().zip(out_normals);
                for (((p, inf), n), (o, on)) in vertices.zip(normals).zip(outs) {
                    let s = blend_stretch::<L, K>(stretches, inf);
                    let r = blend::<L, K>(get, inf);
                    *o = L::rigid_point(&r, &L::stretch_point(&s, p));
                    *on = L::rigid_normal(&r, &L::stretch_normal(&s, n));
                }
            }
        }
    })
}

/// The six distinct entries of a symmetric 3×3 matrix: the diagonal, then above it.
const UPPER: [(usize, usize); 6] = [(0, 0), (1, 1), (2, 2), (0, 1), (0, 2), (1, 2)];

/// A vertex's blended stretch `w₀S₀ + w₁S₁ + …` (the dual quaternions' order; stretches
/// are never flipped), its six distinct entries each summed in the lane's accumulator and
/// rounded once, then mirrored. The bones were checked against the palette, and the
/// stretches have one entry per palette joint.
#[inline(always)]
fn blend_stretch<L: Lane, const K: usize>(
    stretches: &[Stretch<L>],
    inf: &Influence<L>,
) -> Stretch<L> {
    let (b, w) = (inf.bones(), inf.stored());
    let w0 = L::lead_weight(w);
    let lead = &stretches[usize::from(b[0])];
    let mut acc = UPPER.map(|(i, j)| L::term(w0, lead[i][j]));
    for k in 1..K {
        let sk = &stretches[usize::from(b[k])];
        for (a, (i, j)) in acc.iter_mut().zip(UPPER) {
            *a = L::weigh(*a, w[k - 1], sk[i][j]);
        }
    }
    let [xx, yy, zz, xy, xz, yz] = acc.map(L::settle);
    [[xx, xy, xz], [xy, yy, yz], [xz, yz, zz]]
}
