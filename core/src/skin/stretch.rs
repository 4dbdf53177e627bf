//! Dual quaternion skinning of joints with scale or shear, as Kavan et al. describe it, in
//! `f32`: each joint matrix is split into a unit dual quaternion and a scale/shear `S`
//! ([`Dual::split`](crate::dual::Dual::split), [`crate::palette::StretchPalette`]); per
//! vertex, the blend of its bones' stretches `Σ wₖSₖ` moves the position first, then the
//! blended rigid part moves it as in plain DQS (`super::dqs`). The normal goes through the
//! blended stretch's inverse transpose: `S` is symmetric, so that is its cofactor matrix
//! divided by its (positive) determinant, and the renormalisation after the rotation drops
//! the factor, so the loop multiplies by the cofactors.
//!
//! A palette without stretches (every joint rigid, decided once when it was filled) takes
//! the plain DQS loop through the dispatch point: the same bits as a
//! [`DualPalette`](crate::palette::DualPalette)'s.

use core::marker::PhantomData;

use super::batch::{Batch, Normals};
use super::dqs::blend;
use super::generic::with_bones;
use super::mesh::{check_dual, check_len, check_normals};
use super::{dispatch, SkinnedMesh};
use crate::dual::{Dual, Stretch};
use crate::error::Error;
use crate::lane::{Lane, OfLane, Which};
use crate::vertex::Influence;

impl<L: Lane, const K: usize> SkinnedMesh<'_, L, K> {
    /// Dual quaternion skinning with scale: `out[v]` is `p[v]` moved by the blend of its
    /// bones' stretches, then by the blend of their unit dual quaternions, normalised.
    /// `stretches` is `None` for a palette of rigid joints (the plain loop, the same bits as
    /// [`Self::skin_dqs`]); with stretches, only the `f32` lane skins.
    ///
    /// ```
    /// use skin_core::affine::Affine;
    /// use skin_core::palette::StretchPalette;
    /// use skin_core::skin::SkinnedMesh;
    /// use skin_core::vertex::Influence;
    /// let positions = [[1.0f32, 0.0, 0.0]];
    /// let influences = [Influence::from_weights([0, 1, 0, 0], [0.5, 0.5, 0.0, 0.0], 0).unwrap()];
    /// let mesh = SkinnedMesh::<f32, 2>::new(&positions, &influences).unwrap();
    /// let mut palette: StretchPalette<2> = StretchPalette::new();
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
    /// [`Error::NotRigid`] naming the most stretched joint in the fixed lane (its 16-bit
    /// format has no derived bound for a stretch yet); otherwise as [`Self::skin_dqs`].
    pub fn skin_dqs_stretched(
        &self,
        palette: &[Dual<L>],
        stretches: Option<&[Stretch<f32>]>,
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
        stretches: Option<&[Stretch<f32>]>,
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

/// The arguments of [`stretched`].
type Args<'a, const K: usize> = PhantomData<(&'a (), [i8; K])>;

impl<'a, const K: usize> OfLane for Args<'a, K> {
    type Of<L: Lane> = (
        Batch<'a, L, K, Dual<L>>,
        &'a mut [[L::Out; 3]],
        Normals<'a, L>,
    );
}

/// The plain DQS loop without stretches; with them, the stretched loop in `f32`, a refusal
/// in the fixed lane.
fn stretched<L: Lane, const K: usize>(
    batch: Batch<'_, L, K, Dual<L>>,
    stretches: Option<&[Stretch<f32>]>,
    out: &mut [[L::Out; 3]],
    normals: Normals<'_, L>,
) -> Result<(), Error> {
    let Some(s) = stretches else {
        dispatch::dqs(batch, out, normals);
        return Ok(());
    };
    check_len(batch.parts().0.len(), s.len())?;
    match L::which::<Args<'_, K>>((batch, out, normals)) {
        Which::F32((batch, out, normals)) => {
            dqs_stretched(batch, s, out, normals);
            Ok(())
        }
        Which::Q14(_) => {
            // `NotRigid`'s measure: the joint's `AᵀA = S²` (R is a rotation), so the
            // largest entry of `S² − I` and `|det S − 1|`.
            let off = |m: &Stretch<f32>| {
                let sq = |i: usize, j: usize| (0..3).map(|k| m[i][k] * m[k][j]).sum::<f32>();
                let d = |i: usize, j: usize| sq(i, j) - if i == j { 1.0 } else { 0.0 };
                let c = cofactors(m);
                let det = m[0][0] * c[0][0] + m[0][1] * c[0][1] + m[0][2] * c[0][2];
                (0..9)
                    .map(|k| libm::fabsf(d(k / 3, k % 3)))
                    .fold(libm::fabsf(det - 1.0), f32::max)
            };
            let (joint, deviation) =
                s.iter()
                    .map(off)
                    .enumerate()
                    .fold(
                        (0, 0.0),
                        |best, (j, o)| if o > best.1 { (j, o) } else { best },
                    );
            Err(Error::NotRigid { joint, deviation })
        }
    }
}

/// The loop: per vertex, the blended stretch, then the blended rigid part.
fn dqs_stretched<const K: usize>(
    batch: Batch<'_, f32, K, Dual<f32>>,
    stretches: &[Stretch<f32>],
    out: &mut [[f32; 3]],
    normals: Normals<'_, f32>,
) {
    let (palette, positions, influences) = batch.parts();
    with_bones!(palette, |get| {
        let vertices = positions.iter().zip(influences);
        match normals {
            None => {
                for ((p, inf), o) in vertices.zip(out) {
                    let s = blend_stretch::<K>(stretches, inf);
                    *o = f32::rigid_point(&blend::<f32, K>(get, inf), &apply(&s, p));
                }
            }
            Some((normals, out_normals)) => {
                let outs = out.iter_mut().zip(out_normals);
                for (((p, inf), n), (o, on)) in vertices.zip(normals).zip(outs) {
                    let s = blend_stretch::<K>(stretches, inf);
                    let r = blend::<f32, K>(get, inf);
                    *o = f32::rigid_point(&r, &apply(&s, p));
                    *on = f32::rigid_normal(&r, &apply(&cofactors(&s), n));
                }
            }
        }
    })
}

/// A vertex's blended stretch `w₀S₀ + w₁S₁ + …` (the dual quaternions' order; stretches
/// are never flipped). The bones were checked against the palette, and the stretches have
/// one entry per palette joint.
#[inline(always)]
fn blend_stretch<const K: usize>(stretches: &[Stretch<f32>], inf: &Influence<f32>) -> Stretch<f32> {
    let (b, w) = (inf.bones(), inf.stored());
    let w0 = f32::lead_weight(w);
    let mut s = stretches[usize::from(b[0])].map(|r| r.map(|e| w0 * e));
    for k in 1..K {
        let sk = &stretches[usize::from(b[k])];
        for (row, rk) in s.iter_mut().zip(sk) {
            for (e, ek) in row.iter_mut().zip(rk) {
                *e += w[k - 1] * ek;
            }
        }
    }
    s
}

/// `s · v`.
#[inline(always)]
fn apply(s: &Stretch<f32>, v: &[f32; 3]) -> [f32; 3] {
    s.map(|r| r[0] * v[0] + r[1] * v[1] + r[2] * v[2])
}

/// The cofactor matrix of `s`: its inverse transpose times `det s`.
#[inline(always)]
fn cofactors(s: &Stretch<f32>) -> Stretch<f32> {
    core::array::from_fn(|i| {
        core::array::from_fn(|j| {
            let (i1, i2, j1, j2) = ((i + 1) % 3, (i + 2) % 3, (j + 1) % 3, (j + 2) % 3);
            s[i1][j1] * s[i2][j2] - s[i1][j2] * s[i2][j1]
        })
    })
}
