//! The fixed-point LBS loop with four influences for cores without sign-extending loads
//! with an immediate offset (Cortex-M0: `LDRSH` only takes a register offset, so the generic
//! loop spends an `SXTH` on every palette entry).
//!
//! Each call first copies the palette into a table of *biased* entries, `u = e + 2¹⁵` as
//! `u16` (an unsigned load needs no sign extension). As the weights of a vertex sum to
//! exactly 2¹⁵, the blended sums of biased entries are the true ones plus a constant:
//! `Σₖ wₖuₖ = Σₖ wₖeₖ + 2³⁰`, so the rounded entry comes out biased too,
//! `(Σₖ wₖuₖ + 2¹⁴) >> 15 = b + 2¹⁵` (exactly: 2³⁰ is a multiple of 2¹⁵), and the bias of the
//! three products and of the translation is taken out of the rounding constants of
//! [`Lane::point`] and [`Lane::linear`], once per vertex. The results are the generic
//! loop's bits: every value is the same integer (the sums may wrap in between, which does
//! not change a result that fits `i32`); tested below.

use heapless::Vec;

use super::{bits, Out16, Q14};
use crate::lane::Lane;
use crate::skin::{with_bones, Batch, Normals, BONE_SLOTS};
use crate::vertex::Influence;

/// A palette matrix with biased entries, row by row.
type Biased = [[u16; 4]; 3];

/// `e + 2¹⁵` as `u16`.
#[inline(always)]
fn bias(e: Q14) -> u16 {
    (e.to_bits() as u16) ^ 0x8000
}

/// The fixed lane's `Lane::lbs` for four influences on such cores; palettes of more than
/// [`BONE_SLOTS`] matrices go through the generic loop.
#[inline(always)]
pub(super) fn lbs4(batch: Batch<'_, Q14, 4>, out: &mut [[Out16; 3]], normals: Normals<'_, Q14>) {
    let (palette, positions, influences) = batch.parts();
    if palette.len() > BONE_SLOTS {
        return crate::skin::lbs(batch, out, normals);
    }
    let mut table: Vec<Biased, BONE_SLOTS> = Vec::new();
    table.extend(palette.iter().map(|m| m.rows.map(|r| r.map(bias))));
    let vertices = (positions, influences);
    with_bones!(table.as_slice(), |get| lbs4_with(
        get, vertices, out, normals
    ))
}

/// The weights of a vertex, the implicit one first.
#[inline(always)]
fn weights(inf: &Influence<Q14>) -> [u32; 4] {
    let s = inf.stored();
    let w0 = <Q14 as Lane>::lead_weight(s);
    [w0, s[0], s[1], s[2]].map(|w| u32::from(w.to_bits()))
}

/// Row `r` of the blended matrix, each entry biased (`b + 2¹⁵`, see the module docs).
#[inline(always)]
fn blend_row(m: &[&Biased; 4], w: &[u32; 4], r: usize) -> [i32; 4] {
    // Bone by bone, so that one matrix pointer and one weight are live at a time (the
    // Cortex-M0 has eight low registers). Each sum is at most 2¹⁵·(2¹⁶ − 1) + 2¹⁴ < 2³¹.
    let mut acc = [1u32 << 14; 4];
    for (m, w) in m.iter().zip(w) {
        let row = &m[r];
        for (a, &u) in acc.iter_mut().zip(row) {
            *a += w * u32::from(u);
        }
    }
    acc.map(|a| (a >> 15) as i32)
}

/// `Lane::point` of a biased row: the rounding constant `2¹¹` less the bias
/// `2¹⁵·(p₀ + p₁ + p₂) + 2²⁹` is `k` (see [`point_constant`]).
#[inline(always)]
fn point(r: [i32; 4], p: [i32; 3], k: i32) -> i32 {
    let sum = (r[0].wrapping_mul(p[0]))
        .wrapping_add(r[1].wrapping_mul(p[1]))
        .wrapping_add(r[2].wrapping_mul(p[2]))
        .wrapping_add(r[3] << 14)
        .wrapping_add(k);
    sum >> 12
}

/// The constant of [`point`] for position `p`.
#[inline(always)]
fn point_constant(p: [i32; 3]) -> i32 {
    (1 << 11) - (1 << 29) - ((p[0] + p[1] + p[2]) << 15)
}

/// `Lane::linear` of a biased row, with `k` = `2¹³ − 2¹⁵·(n₀ + n₁ + n₂)`.
#[inline(always)]
fn linear(r: [i32; 4], n: [i32; 3], k: i32) -> i32 {
    let sum = (r[0].wrapping_mul(n[0]))
        .wrapping_add(r[1].wrapping_mul(n[1]))
        .wrapping_add(r[2].wrapping_mul(n[2]))
        .wrapping_add(k);
    sum >> 14
}

#[inline(always)]
fn lbs4_with<'p>(
    get: impl Fn(u8) -> &'p Biased + Copy,
    (positions, influences): (&[[Q14; 3]], &[Influence<Q14>]),
    out: &mut [[Out16; 3]],
    normals: Normals<'_, Q14>,
) {
    match normals {
        None => {
            for ((p, inf), o) in positions.iter().zip(influences).zip(out) {
                let (m, w) = (inf.bones().map(get), weights(inf));
                let p = p.map(bits);
                let k = point_constant(p);
                for (r, o) in o.iter_mut().enumerate() {
                    *o = Out16::from_bits(point(blend_row(&m, &w, r), p, k));
                }
            }
        }
        Some((normals, out_normals)) => {
            let verts = positions.iter().zip(influences).zip(normals);
            for (((p, inf), n), (o, on)) in verts.zip(out.iter_mut().zip(out_normals)) {
                let (m, w) = (inf.bones().map(get), weights(inf));
                let (p, n) = (p.map(bits), n.map(bits));
                let (kp, kn) = (point_constant(p), (1 << 13) - ((n[0] + n[1] + n[2]) << 15));
                let mut v = [0; 3];
                for (r, (o, v)) in o.iter_mut().zip(&mut v).enumerate() {
                    let row = blend_row(&m, &w, r);
                    *o = Out16::from_bits(point(row, p, kp));
                    *v = linear(row, n, kn);
                }
                *on = Q14::unit(v);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::lane::fixed_point::tests::check_against_generic;

    #[test]
    fn biased_loop_matches_generic_loop_bit_for_bit() {
        check_against_generic(super::lbs4);
    }
}
