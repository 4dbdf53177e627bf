//! The generic skinning loops, written once over [`Lane`]'s primitives: the reference every
//! specialised loop ([`super::dispatch`]) must match bit for bit, and the loop wherever no
//! specialisation measured faster.

use super::batch::{Batch, Normals, Rigid};
use crate::affine::Affine;
use crate::lane::Lane;
use crate::vertex::Influence;

/// Slots of the bone table of `with_bones!`.
pub(super) const BONE_SLOTS: usize = 64;

/// Whether `with_bones!` uses its table: on ARM, where it measured faster (an LBS-4 vertex
/// saves four compare-and-branch bounds checks and four `× 24`/`× 48` address computations),
/// and in this crate's tests (so that the host tests run it too); elsewhere (x86-64: up to
/// 6% slower on the fixed lane) the palette is indexed directly (`docs/BENCHMARKS.md`).
pub(super) const BONE_TABLE: bool = cfg!(any(target_arch = "arm", test));

/// `with_bones!(palette, |get| body)`: runs `body` with `get`, a function from a bone index
/// (already checked against the palette) to its matrix. Where [`BONE_TABLE`] is set, for
/// palettes of at most [`BONE_SLOTS`] matrices, `get` reads a table of references indexed by
/// the bone byte
/// masked to 6 bits: no bounds check and no `× size_of::<Affine<L>>()` address arithmetic
/// per bone, for one store per slot per call (slots past the palette point at its first
/// matrix; the mask changes no checked index). Larger palettes are indexed directly.
/// `body` is compiled once for each.
macro_rules! with_bones {
    ($palette:expr, |$get:ident| $body:expr) => {{
        let palette = $palette;
        match palette.first().filter(|_| {
            $crate::skin::generic::BONE_TABLE && palette.len() <= $crate::skin::generic::BONE_SLOTS
        }) {
            Some(first) => {
                let mut slots = [first; $crate::skin::generic::BONE_SLOTS];
                for (s, m) in slots.iter_mut().zip(palette) {
                    *s = m;
                }
                let slots = &slots;
                let $get = move |b: u8| slots[usize::from(b) % $crate::skin::generic::BONE_SLOTS];
                $body
            }
            None => {
                let $get = move |b: u8| &palette[usize::from(b)];
                $body
            }
        }
    }};
}
pub(super) use with_bones;

/// The generic LBS loop over [`Lane`]'s primitives. Each row of the
/// blended matrix is used as soon as it is made (for a coordinate of the position and of
/// the normal), which keeps the working set small on register-poor cores.
#[inline(always)]
pub(crate) fn lbs<L: Lane, const K: usize>(
    batch: Batch<'_, L, K>,
    out: &mut [[L::Out; 3]],
    normals: Normals<'_, L>,
) {
    let (palette, positions, influences) = batch.parts();
    let vertices = (positions, influences);
    with_bones!(palette, |get| lbs_with::<L, K>(get, vertices, out, normals))
}

/// The generic stitching loop over [`Lane`]'s primitives:
/// `out[v] = M[bone[v]] · p[v]` and the normal through the same matrix, renormalised.
#[inline(always)]
pub(crate) fn stitch<L: Lane>(
    rigid: Rigid<'_, L>,
    out: &mut [[L::Out; 3]],
    normals: Normals<'_, L>,
) {
    let (palette, positions, bones) = rigid.parts();
    let get = |b: u8| &palette[usize::from(b)];
    match normals {
        None => {
            for ((p, &b), o) in positions.iter().zip(bones).zip(out) {
                // Row by row from the palette (not `rows.map`, which copies all twelve
                // entries first: on a Cortex-M0 that spills them).
                for (o, r) in o.iter_mut().zip(&get(b).rows) {
                    *o = L::point(r, p);
                }
            }
        }
        Some((normals, out_normals)) => {
            let verts = positions.iter().zip(bones).zip(normals);
            for (((p, &b), n), (o, on)) in verts.zip(out.iter_mut().zip(out_normals)) {
                let m = get(b);
                *o = m.rows.map(|r| L::point(&r, p));
                *on = L::normal(m, n);
            }
        }
    }
}

/// [`lbs`] with a lookup from bone index to palette matrix.
#[inline(always)]
fn lbs_with<'p, L: Lane, const K: usize>(
    get: impl Fn(u8) -> &'p Affine<L> + Copy,
    (positions, influences): (&[[L; 3]], &[Influence<L>]),
    out: &mut [[L::Out; 3]],
    normals: Normals<'_, L>,
) {
    match normals {
        None => {
            for ((p, inf), o) in positions.iter().zip(influences).zip(out) {
                let (m, w) = gather::<L, K>(get, inf);
                for (r, o) in o.iter_mut().enumerate() {
                    *o = L::point(&blend_row(&m, &w, r), p);
                }
            }
        }
        Some((normals, out_normals)) => {
            let verts = positions.iter().zip(influences).zip(normals);
            for (((p, inf), n), (o, on)) in verts.zip(out.iter_mut().zip(out_normals)) {
                let (m, w) = gather::<L, K>(get, inf);
                let mut v = [L::Acc::default(); 3];
                for (r, (o, v)) in o.iter_mut().zip(&mut v).enumerate() {
                    let row = blend_row(&m, &w, r);
                    *o = L::point(&row, p);
                    *v = L::linear(&row, n);
                }
                *on = L::unit(v);
            }
        }
    }
}

/// A vertex's `K` palette matrices and their weights (the first one implicit).
#[inline(always)]
#[allow(clippy::type_complexity)]
fn gather<'p, L: Lane, const K: usize>(
    get: impl Fn(u8) -> &'p Affine<L>,
    inf: &Influence<L>,
) -> ([&'p Affine<L>; K], [L::Weight; K]) {
    let (b, s) = (inf.bones(), inf.stored());
    let m = core::array::from_fn(|k| get(b[k]));
    let w = core::array::from_fn(|k| if k == 0 { L::lead_weight(s) } else { s[k - 1] });
    (m, w)
}

/// Row `r` of the blended matrix `Σₖ wₖ Mₖ`, each entry summed as
/// `((w₁e₁ + w₂e₂) + w₃e₃) + w₀e₀` (see [`Lane::lead_weight`]).
#[inline(always)]
fn blend_row<L: Lane, const K: usize>(m: &[&Affine<L>; K], w: &[L::Weight; K], r: usize) -> [L; 4] {
    if K == 1 {
        return m[0].rows[r];
    }
    core::array::from_fn(|c| {
        let mut acc = L::term(w[1], m[1].rows[r][c]);
        for k in 2..K {
            acc = L::weigh(acc, w[k], m[k].rows[r][c]);
        }
        L::settle(L::weigh(acc, w[0], m[0].rows[r][c]))
    })
}
