//! The fixed-point LBS loop with four influences, reading the palette two entries at a time.
//!
//! A palette row (four `I2F14`, 8 bytes) is read as two 32-bit words and the weights as two
//! packed words, `(w₁, w₂)` and `(w₃, w₀)`; each weighted term then multiplies one 16-bit
//! half of a matrix word by one half of a weight word. On a Cortex-M4 that is one
//! `SMLA<x><y>` per term and one load per two entries (against `LDRSH` + `MLA` per term in
//! the generic loop); other cores get the same arithmetic from ordinary instructions.
//!
//! The blend is the generic one: each entry is the exact `i32` sum `Σₖ wₖeₖ` (the order of
//! the terms cannot matter, as no partial sum overflows: `|Σ| ≤ 2¹⁵·2¹⁵`), rounded once as
//! [`Lane::settle`] does, then used as in [`Lane::point`], [`Lane::linear`] and
//! [`Lane::unit`] (the same functions on bits), so
//! the output bits are those of `crate::skin::lbs` (tested below). Signed 16-bit halves
//! cannot hold a weight of exactly 1 (0x8000); a vertex with one (a single influence) goes
//! through the generic loop's arithmetic instead.

use super::{bits, linear, point, settle, Out16, Q14};
use crate::affine::Affine;
use crate::lane::Lane;
use crate::skin::{with_bones, Batch, Normals};
use crate::vertex::Influence;

/// Two entries as one word: `a` in the low half, `b` in the high half (one 32-bit load
/// where the target allows unaligned ones).
#[inline(always)]
fn pair(a: Q14, b: Q14) -> i32 {
    (u32::from(a.to_bits() as u16) | u32::from(b.to_bits() as u16) << 16) as i32
}

/// The low half of a word, sign-extended.
#[inline(always)]
fn lo(x: i32) -> i32 {
    i32::from(x as i16)
}

/// The high half of a word, sign-extended.
#[inline(always)]
fn hi(x: i32) -> i32 {
    x >> 16
}

/// A vertex's weights packed in halves, `[(w₁, w₂), (w₃, w₀)]`, or `None` when one of them is
/// exactly 1 (the other three are then 0).
#[inline(always)]
fn packed(inf: &Influence<Q14>) -> Option<[i32; 2]> {
    let s = inf.stored().map(|w| i32::from(w.to_bits()));
    let w0 = i32::from(<Q14 as Lane>::lead_weight(inf.stored()).to_bits());
    // Each weight is at most 0x8000, so bit 15 is set only for a weight of exactly 1.
    if (w0 | s[0] | s[1] | s[2]) & 0x8000 != 0 {
        return None;
    }
    Some([s[0] | s[1] << 16, s[2] | w0 << 16])
}

/// Row `r` of the blended matrix of bones `m` (largest weight first) with packed weights
/// `w` (see [`packed`]), as the bits of its `I2F14` entries (kept in `i32`: on a Cortex-M4
/// a round trip through `i16` lets LLVM double the weights to read the rounded entry from
/// a register's high half, which then no longer fits the 16-bit multiplies).
#[inline(always)]
fn blend_row(m: &[&Affine<Q14>; 4], w: &[i32; 2], r: usize) -> [i32; 4] {
    let words = |k: usize| {
        let e = &m[k].rows[r];
        [pair(e[0], e[1]), pair(e[2], e[3])]
    };
    let (e0, e1, e2, e3) = (words(0), words(1), words(2), words(3));
    let [wa, wb] = *w;
    let low = |h: usize| {
        lo(e1[h]) * lo(wa) + lo(e2[h]) * hi(wa) + lo(e3[h]) * lo(wb) + lo(e0[h]) * hi(wb)
    };
    let high = |h: usize| {
        hi(e1[h]) * lo(wa) + hi(e2[h]) * hi(wa) + hi(e3[h]) * lo(wb) + hi(e0[h]) * hi(wb)
    };
    [low(0), high(0), low(1), high(1)].map(settle)
}

/// The fixed lane's `Lane::lbs` for four influences.
#[inline(always)]
pub(super) fn lbs4(batch: Batch<'_, Q14, 4>, out: &mut [[Out16; 3]], normals: Normals<'_, Q14>) {
    let (palette, positions, influences) = batch.parts();
    let vertices = (positions, influences);
    with_bones!(palette, |get| lbs4_with(get, vertices, out, normals))
}

#[inline(always)]
fn lbs4_with<'p>(
    get: impl Fn(u8) -> &'p Affine<Q14> + Copy,
    (positions, influences): (&[[Q14; 3]], &[Influence<Q14>]),
    out: &mut [[Out16; 3]],
    normals: Normals<'_, Q14>,
) {
    let matrices = |inf: &Influence<Q14>| inf.bones().map(get);
    match normals {
        None => {
            for ((p, inf), o) in positions.iter().zip(influences).zip(out) {
                let m = matrices(inf);
                match packed(inf) {
                    Some(w) => {
                        let p = p.map(bits);
                        for (r, o) in o.iter_mut().enumerate() {
                            // An empty barrier between rows (no instructions): without it
                            // LLVM interleaves the rows' loads and spills (M4F LBS-4
                            // positions 219.7 -> 217.7 when measured).
                            core::hint::black_box(());
                            *o = Out16::from_bits(point(blend_row(&m, &w, r), p));
                        }
                    }
                    None => *o = generic(&m, inf).rows.map(|r| Q14::point(&r, p)),
                }
            }
        }
        Some((normals, out_normals)) => {
            let verts = positions.iter().zip(influences).zip(normals);
            for (((p, inf), n), (o, on)) in verts.zip(out.iter_mut().zip(out_normals)) {
                let m = matrices(inf);
                match packed(inf) {
                    Some(w) => {
                        let rows = [0, 1, 2].map(|r| blend_row(&m, &w, r));
                        let (p, n) = (p.map(bits), n.map(bits));
                        *o = rows.map(|row| Out16::from_bits(point(row, p)));
                        *on = Q14::unit(rows.map(|row| linear(row, n)));
                    }
                    None => {
                        let m = generic(&m, inf);
                        *o = m.rows.map(|r| Q14::point(&r, p));
                        *on = Q14::normal(&m, n);
                    }
                }
            }
        }
    }
}

/// The blended matrix by the generic loop's arithmetic (for weights of exactly 1).
#[cold]
#[inline(never)]
fn generic(m: &[&Affine<Q14>; 4], inf: &Influence<Q14>) -> Affine<Q14> {
    let s = inf.stored();
    let w = [<Q14 as Lane>::lead_weight(s), s[0], s[1], s[2]];
    Affine {
        rows: core::array::from_fn(|r| crate::skin::blend_row::<Q14, 4>(m, &w, r)),
    }
}

#[cfg(test)]
mod tests {
    use crate::lane::fixed_point::tests::check_against_generic;

    #[test]
    fn paired_loop_matches_generic_loop_bit_for_bit() {
        check_against_generic(super::lbs4);
    }
}
