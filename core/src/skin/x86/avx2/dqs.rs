//! The `f32` dual quaternion skinning loop, eight vertices at a time, in AVX2, entered as
//! the LBS loop is (after run-time detection; the generic loop `crate::skin::dqs` where the
//! processor has no AVX2).
//!
//! Per group of eight vertices, in two stages:
//! - the rotations ([`rotations`]), one group ahead: the weights of the eight are transposed
//!   (as the LBS loop's); bone slot by bone slot, the real parts of the eight dual
//!   quaternions are read from a 32-byte aligned copy of the palette (a dual quaternion per
//!   slot) and transposed, one register per component (vertex `v` in lane `v`); for each
//!   slot `k ≥ 1` the eight dot products of its rotation with the lead bone's are formed
//!   from those components, their signs flipping the weights `wₖ` of the bones in the other
//!   hemisphere (`−(w·e)` is `(−w)·e` in every rounding); the real parts are added into the
//!   blend, eight vertices at once, and `2/|q|²` of the blend is computed;
//! - with the group itself: the dual parts ([`duals`]), read and transposed the same way,
//!   blended with the flipped weights; the rigid transform of each blend
//!   ([`Lane::rigid`](crate::lane::Lane::rigid)); and the positions and the normals, on the
//!   eight at once, by the LBS loop's transform.
//!
//! The first stage is the loop's longest chain of latencies (table reads, transposition,
//! dot products, the blend, the division); started a group early, it overlaps the second
//! stage of the group before instead of stalling its own (positions 3.69 → 3.29 ns a
//! vertex at 370 vertices, with normals 4.80 → 4.17: `docs/BENCHMARKS.md`).
//!
//! The arithmetic per vertex is the generic loop's, in the same order and without fused
//! multiply-adds, so the output bits are the same (tested below).

use safe_arch::m128;

use super::f8::{Avx2, F8};
use super::{points, points_and_normals, transpose, weights, Tail};
use crate::dual::Dual;
use crate::skin::batch::{Batch, Normals};
use crate::vertex::Influence;

/// The `f32` lane's DQS loop on x86: the eight-wide loop where the processor has AVX2, else
/// the generic loop. The table is the smallest of 32, 64 or 256 dual quaternions that holds
/// the palette.
pub(crate) fn dqs<const K: usize>(
    batch: Batch<'_, f32, K, Dual<f32>>,
    out: &mut [[f32; 3]],
    normals_io: Normals<'_, f32>,
) {
    let Some(avx2) = Avx2::detect() else {
        return crate::skin::dqs::dqs(batch, out, normals_io);
    };
    let bones = batch.parts().0.len();
    // SAFETY: the functions' only requirement is the `avx2` target feature, which `avx2`
    // proves.
    unsafe {
        if bones <= 32 {
            dqs_with::<32, K>(avx2, batch, out, normals_io);
        } else if bones <= 64 {
            dqs_with::<64, K>(avx2, batch, out, normals_io);
        } else {
            dqs_with::<256, K>(avx2, batch, out, normals_io);
        }
    }
}

/// One palette entry: the real part, then the dual part, one 32-byte register.
#[derive(Clone, Copy)]
#[repr(C, align(32))]
struct Slot([f32; 8]);

/// The palette copied into aligned slots: `N` of them, a power of two, so that a bone byte
/// masked with `N − 1` indexes it without a bounds check (the mask changes no index: the
/// mesh's bones were checked against the palette, and `N` ≥ its length).
struct Table<const N: usize> {
    slots: [Slot; N],
}

impl<const N: usize> Table<N> {
    #[inline(always)]
    fn new(palette: &[Dual<f32>]) -> Self {
        let mut slots = [Slot([0.0; 8]); N];
        for (s, d) in slots.iter_mut().zip(palette) {
            s.0[..4].copy_from_slice(&d.real);
            s.0[4..].copy_from_slice(&d.dual);
        }
        Self { slots }
    }

    #[inline(always)]
    fn slot(&self, bone: u8) -> &[f32; 8] {
        &self.slots[usize::from(bone) & (N - 1)].0
    }

    /// The real (`part` 0) or dual (`part` 1) part of `bone`'s dual quaternion.
    #[inline(always)]
    fn part(&self, bone: u8, part: usize) -> m128 {
        let s = self.slot(bone);
        let at = 4 * part;
        m128::from([s[at], s[at + 1], s[at + 2], s[at + 3]])
    }
}

/// One part (`0` the real part, `1` the dual part) of bone slot `k`'s dual quaternions of a
/// group's eight vertices, transposed: component `j` of the eight in `c[j]`, vertex `v` in
/// lane `v`.
#[inline(always)]
fn part<const N: usize>(
    avx2: Avx2,
    table: &Table<N>,
    inf: &[Influence<f32>],
    k: usize,
    part: usize,
) -> [F8; 4] {
    // (Written out: a closure here would be compiled without AVX2.)
    transpose([
        pair(avx2, table, inf, (0, k), part),
        pair(avx2, table, inf, (1, k), part),
        pair(avx2, table, inf, (2, k), part),
        pair(avx2, table, inf, (3, k), part),
    ])
}

/// One part of bone slot `k`'s dual quaternions of vertices `v` (lanes 0–3) and `v + 4`
/// (lanes 4–7).
#[inline(always)]
fn pair<const N: usize>(
    avx2: Avx2,
    table: &Table<N>,
    inf: &[Influence<f32>],
    (v, k): (usize, usize),
    part: usize,
) -> F8 {
    avx2.halves(
        table.part(inf[v].bones()[k], part),
        table.part(inf[v + 4].bones()[k], part),
    )
}

/// The rotations of a group's blend: the real parts of `K` bones' dual quaternions of eight
/// vertices, blended on their components, `((w₀q₀ + w₁q₁) + w₂q₂) + w₃q₃`, each weight `wₖ`
/// negated where bone `k`'s rotation lies in the other hemisphere from the lead bone's, as
/// `Lane::antipodal`: `((a₀b₀ + a₁b₁) + a₂b₂) + a₃b₃ < 0`.
#[inline(always)]
fn rotations<const N: usize, const K: usize>(
    avx2: Avx2,
    table: &Table<N>,
    inf: &[Influence<f32>],
) -> Rotations {
    let mut w = weights(avx2, inf);
    let lead = part(avx2, table, inf, 0, 0);
    let mut real = lead;
    for r in &mut real {
        *r = *r * w[0];
    }
    // Unrolled (a loop over the slots kept the blend in memory).
    if K > 1 {
        add_rotation(avx2, table, inf, (&mut real, &mut w[1]), &lead, 1);
    }
    if K > 2 {
        add_rotation(avx2, table, inf, (&mut real, &mut w[2]), &lead, 2);
    }
    if K > 3 {
        add_rotation(avx2, table, inf, (&mut real, &mut w[3]), &lead, 3);
    }
    let [x, y, z, w0] = real;
    let scale = avx2.splat(2.0) / (x * x + y * y + z * z + w0 * w0);
    Rotations {
        real,
        scale,
        weights: w,
    }
}

/// A group's blended real parts (as [`rotations`]), `2/|q|²` of each, and the weights,
/// each negated where its bone was flipped.
struct Rotations {
    real: [F8; 4],
    scale: F8,
    weights: [F8; 4],
}

/// Adds bone slot `k`'s rotations into the blend `real`, negating its weights `w` where the
/// rotation lies in the other hemisphere from `lead`'s.
#[inline(always)]
fn add_rotation<const N: usize>(
    avx2: Avx2,
    table: &Table<N>,
    inf: &[Influence<f32>],
    (real, w): (&mut [F8; 4], &mut F8),
    lead: &[F8; 4],
    k: usize,
) {
    let c = part(avx2, table, inf, k, 0);
    let dot = ((lead[0] * c[0] + lead[1] * c[1]) + lead[2] * c[2]) + lead[3] * c[3];
    *w = w.negate_where(dot.lt_mask(avx2.splat(0.0)));
    for (r, c) in real.iter_mut().zip(c) {
        *r = *r + c * *w;
    }
}

/// The dual parts of a group's blend, with the weights (flipped) of [`Rotations`].
#[inline(always)]
fn duals<const N: usize, const K: usize>(
    avx2: Avx2,
    table: &Table<N>,
    inf: &[Influence<f32>],
    w: &[F8; 4],
) -> [F8; 4] {
    let mut dual = part(avx2, table, inf, 0, 1);
    for d in &mut dual {
        *d = *d * w[0];
    }
    // (Unrolled, as in `rotations`.)
    if K > 1 {
        add_dual(avx2, table, inf, &mut dual, (1, w[1]));
    }
    if K > 2 {
        add_dual(avx2, table, inf, &mut dual, (2, w[2]));
    }
    if K > 3 {
        add_dual(avx2, table, inf, &mut dual, (3, w[3]));
    }
    dual
}

/// Adds bone slot `k`'s dual parts with weights `w` into `dual`.
#[inline(always)]
fn add_dual<const N: usize>(
    avx2: Avx2,
    table: &Table<N>,
    inf: &[Influence<f32>],
    dual: &mut [F8; 4],
    (k, w): (usize, F8),
) {
    let c = part(avx2, table, inf, k, 1);
    for (d, c) in dual.iter_mut().zip(c) {
        *d = *d + c * w;
    }
}

/// `f32::rigid` on eight blends at once: the rotation `R(q)/|q|²` and the translation
/// `2·vec(d·q*)/|q|²`, each entry computed in the same order.
#[inline(always)]
fn rigid(avx2: Avx2, [x, y, z, w]: [F8; 4], [dx, dy, dz, dw]: [F8; 4], s: F8) -> [[F8; 4]; 3] {
    let one = avx2.splat(1.0);
    let (xx, yy, zz) = (x * x, y * y, z * z);
    let (xy, xz, yz) = (x * y, x * z, y * z);
    let (wx, wy, wz) = (w * x, w * y, w * z);
    let t0 = w * dx - dw * x + (y * dz - z * dy);
    let t1 = w * dy - dw * y + (z * dx - x * dz);
    let t2 = w * dz - dw * z + (x * dy - y * dx);
    [
        [one - s * (yy + zz), s * (xy - wz), s * (xz + wy), s * t0],
        [s * (xy + wz), one - s * (xx + zz), s * (yz - wx), s * t1],
        [s * (xz - wy), s * (yz + wx), one - s * (xx + yy), s * t2],
    ]
}

/// The loop over groups of eight: DQS of `batch` with the palette copied into a table of
/// `N` dual quaternions, each group's [`rotations`] computed one group ahead (for the last
/// group, the last group's again, dropped). Written out beside the LBS loop's `groups`
/// rather than sharing it: with the rotations carried from group to group by a closure
/// given to `groups`, DQS measured 12% slower; with the positions moved by a function
/// shared by both loops, 3–4% slower; and with `groups` itself taking a stage ahead, LBS
/// 14–17% slower (the same instructions).
#[target_feature(enable = "avx2")]
fn dqs_with<const N: usize, const K: usize>(
    avx2: Avx2,
    batch: Batch<'_, f32, K, Dual<f32>>,
    out: &mut [[f32; 3]],
    mut normals_io: Normals<'_, f32>,
) {
    let (palette, positions, influences) = batch.parts();
    let table = Table::<N>::new(palette);
    let len = positions.len();
    if len == 0 {
        return;
    }
    let whole = len & !7;
    let mut tail = Tail::new((positions, influences), &normals_io, whole);
    let last = (len - 1) & !7;
    let tail_inf = tail.influences;
    let group = |at: usize| {
        if at < whole {
            &influences[at..at + 8]
        } else {
            &tail_inf[..]
        }
    };
    let mut next = rotations::<N, K>(avx2, &table, group(0));
    for at in (0..len).step_by(8) {
        let dual = duals::<N, K>(avx2, &table, group(at), &next.weights);
        let t = rigid(avx2, next.real, dual, next.scale);
        next = rotations::<N, K>(avx2, &table, group((at + 8).min(last)));
        let (p, o) = if at < whole {
            (&positions[at..at + 8], &mut out[at..at + 8])
        } else {
            (&tail.positions[..], &mut tail.out[..])
        };
        if let Some((n, on)) = &mut normals_io {
            let (n, on) = if at < whole {
                (&n[at..at + 8], &mut on[at..at + 8])
            } else {
                (&tail.normals[..], &mut tail.out_normals[..])
            };
            points_and_normals(avx2, &t, (p, o), (n, on));
        } else {
            points(avx2, &t, p, o);
        }
    }
    tail.write(whole, out, normals_io);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::skin::x86::quad::tests::{bits, values};
    use crate::skin::SkinnedMesh;

    /// A unit dual quaternion from four values in [−1, 1) for the rotation (normalised) and
    /// three for the translation.
    fn unit_dual(r: &mut impl FnMut() -> f32) -> Dual<f32> {
        let mut q = [r(), r(), r(), r() + 1.5];
        let n = libm::sqrtf(q.iter().map(|c| c * c).sum());
        q = q.map(|c| c / n);
        let t = [r(), r(), r()].map(|c| 2.0 * c);
        let [x, y, z, w] = q;
        let h = t.map(|c| 0.5 * c);
        let dual = [
            w * h[0] + h[1] * z - h[2] * y,
            w * h[1] + h[2] * x - h[0] * z,
            w * h[2] + h[0] * y - h[1] * x,
            -(h[0] * x + h[1] * y + h[2] * z),
        ];
        Dual { real: q, dual }
    }

    /// The eight-wide DQS loop gives the generic loop's bits for every vertex, whatever the
    /// mesh length (so wherever a vertex falls in a group of eight), with 1 to 4
    /// influences, bones in both hemispheres (a third of the palette negated, so that flips
    /// happen), zero-length normals, and palettes of every table size.
    #[test]
    fn eight_wide_dqs_matches_generic_loop_bit_for_bit() {
        if Avx2::detect().is_none() {
            extern crate std;
            std::println!("note: no AVX2 on this processor; this tests the generic fallback");
        }
        matches_generic::<1>();
        matches_generic::<2>();
        matches_generic::<3>();
        matches_generic::<4>();
    }

    fn matches_generic<const K: usize>() {
        let mut r = values(11 + K as u32);
        let mut palette = [Dual::<f32>::default(); 70];
        for (i, d) in palette.iter_mut().enumerate() {
            *d = unit_dual(&mut r);
            if i % 3 == 1 {
                d.real = d.real.map(|c| -c);
                d.dual = d.dual.map(|c| -c);
            }
        }
        const N: usize = 37;
        let positions: [[f32; 3]; N] = core::array::from_fn(|_| [r(), r(), r()]);
        let mut normals: [[f32; 3]; N] = core::array::from_fn(|_| [r(), r(), r()]);
        normals[5] = [0.0; 3];
        let mut flips = 0;
        for bones in [20u8, 40, 70] {
            let influences: [Influence<f32>; N] = core::array::from_fn(|v| {
                let w = 0.5 + 0.25 * r();
                let pick = |k: usize| ((v * 7 + k * 13) % usize::from(bones)) as u8;
                let b = [pick(0), pick(1), pick(2), pick(3)];
                let rest = 1.0 - w;
                let ws = match K {
                    1 => [1.0, 0.0, 0.0, 0.0],
                    2 => [w, rest, 0.0, 0.0],
                    3 => [w, rest / 2.0, rest / 2.0, 0.0],
                    _ => [w, rest / 2.0, rest / 4.0, rest / 4.0],
                };
                Influence::from_weights(b, ws, v).unwrap()
            });
            let palette = &palette[..usize::from(bones)];
            flips += influences[..]
                .iter()
                .filter(|i| {
                    let b = i.bones();
                    (1..K).any(|k| {
                        let (a, c) = (
                            palette[usize::from(b[0])].real,
                            palette[usize::from(b[k])].real,
                        );
                        a.iter().zip(c).map(|(a, c)| a * c).sum::<f32>() < 0.0
                    })
                })
                .count();
            for len in 0..=N {
                let mesh =
                    SkinnedMesh::<f32, K>::new(&positions[..len], &influences[..len]).unwrap();
                let batch = || mesh.batch_for_tests(palette);
                let (mut fast, mut fast_n) = ([[9.0; 3]; N], [[9.0; 3]; N]);
                let (mut slow, mut slow_n) = ([[8.0; 3]; N], [[8.0; 3]; N]);
                let n = &normals[..len];
                dqs(batch(), &mut fast[..len], Some((n, &mut fast_n[..len])));
                let (so, sn) = (&mut slow[..len], &mut slow_n[..len]);
                crate::skin::dqs::dqs(batch(), so, Some((n, sn)));
                let what = (len, K, bones);
                assert_eq!(
                    bits(&fast[..len]),
                    bits(&slow[..len]),
                    "positions, {what:?}"
                );
                assert_eq!(
                    bits(&fast_n[..len]),
                    bits(&slow_n[..len]),
                    "normals, {what:?}"
                );
                let mut only = [[7.0; 3]; N];
                dqs(batch(), &mut only[..len], None);
                assert_eq!(
                    bits(&only[..len]),
                    bits(&slow[..len]),
                    "positions only, {what:?}"
                );
                if len == N {
                    assert_eq!(fast_n[5], [0.0; 3]);
                    let len2 = fast_n[7].iter().map(|c| c * c).sum::<f32>();
                    assert!((len2 - 1.0).abs() < 1e-5, "{len2}");
                }
            }
        }
        if K > 1 {
            assert!(flips > 10, "antipodal bones were blended: {flips}");
        }
    }
}
