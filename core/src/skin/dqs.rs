//! The dual quaternion skinning loop, written once over [`Lane`]'s primitives (Kavan et
//! al.): per vertex, the unit dual quaternions of up to `K` bones are blended with the
//! vertex's weights, each first flipped into the hemisphere of the first (most-weighted)
//! bone's rotation, and the blend, normalised by its real part's norm, moves the position
//! and rotates the normal. A blend of rigid transforms stays rigid, so a twisted joint
//! keeps its volume where LBS's blended matrix collapses it.
//!
//! Each part is summed as `w₀e₀ + w₁e₁ + …` in the lane's accumulator and rounded once, in
//! [`Lane::rigid`]. The first weight is the largest (`crate::vertex::Influence`), at least
//! ¼, and every quaternion lies in its hemisphere, so the blend's real part has norm at
//! least ¼: the normalisation never divides by a vanishing norm.

use super::batch::{Batch, Normals};
use super::generic::with_bones;
use crate::dual::Dual;
use crate::lane::Lane;
use crate::vertex::Influence;

/// The generic DQS loop: the palette read through `with_bones!`'s table where it has one
/// (no bounds check per bone on ARM, as the LBS loop).
#[inline(always)]
pub(crate) fn dqs<L: Lane, const K: usize>(
    batch: Batch<'_, L, K, Dual<L>>,
    out: &mut [[L::Out; 3]],
    normals: Normals<'_, L>,
) {
    let (palette, positions, influences) = batch.parts();
    let vertices = (positions, influences);
    with_bones!(palette, |get| dqs_with::<L, K>(get, vertices, out, normals))
}

/// [`dqs`] with the palette read through `get`.
#[inline(always)]
fn dqs_with<'p, L: Lane, const K: usize>(
    get: impl Fn(u8) -> &'p Dual<L> + Copy,
    (positions, influences): (&[[L; 3]], &[Influence<L>]),
    out: &mut [[L::Out; 3]],
    normals: Normals<'_, L>,
) {
    match normals {
        None => {
            for ((p, inf), o) in positions.iter().zip(influences).zip(out) {
                *o = L::rigid_point(&blend::<L, K>(get, inf), p);
            }
        }
        Some((normals, out_normals)) => {
            let verts = positions.iter().zip(influences).zip(normals);
            for (((p, inf), n), (o, on)) in verts.zip(out.iter_mut().zip(out_normals)) {
                let r = blend::<L, K>(get, inf);
                *o = L::rigid_point(&r, p);
                *on = L::rigid_normal(&r, n);
            }
        }
    }
}

/// The rigid transform of a vertex's blended dual quaternion.
#[inline(always)]
pub(super) fn blend<'p, L: Lane, const K: usize>(
    get: impl Fn(u8) -> &'p Dual<L>,
    inf: &Influence<L>,
) -> L::Rigid {
    let (b, s) = (inf.bones(), inf.stored());
    let lead = get(b[0]);
    let w0 = L::lead_weight(s);
    let mut real = lead.real.map(|e| L::term(w0, e));
    let mut dual = lead.dual.map(|e| L::term(w0, e));
    for k in 1..K {
        let d = get(b[k]);
        let flip = L::antipodal(&lead.real, &d.real);
        for c in 0..4 {
            real[c] = L::weigh_flipped(real[c], s[k - 1], d.real[c], flip);
            dual[c] = L::weigh_flipped(dual[c], s[k - 1], d.dual[c], flip);
        }
    }
    L::rigid(real, dual)
}
