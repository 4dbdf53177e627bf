//! The `f32` LBS loop, eight vertices at a time, in AVX2 (x86 and x86-64), chosen at run
//! time where the processor has AVX2: the crate is built for the baseline target (SSE2 on
//! x86-64), so the eight-wide loop is compiled with `#[target_feature(enable = "avx2")]` and
//! entered only after `cpufeatures` found the feature (CPUID, and XGETBV for the operating
//! system's support of the 256-bit registers). That call, and the intrinsics behind the
//! operations of [`F8`] (a type that only exists once AVX2 was found), are this module's
//! `unsafe`.
//!
//! Per group of eight vertices:
//! - the lead weights `w₀ = 1 − ((w₁ + w₂) + w₃)` of the eight are computed at once, from
//!   their influences transposed (two per register, one per 128-bit half);
//! - each vertex's matrix is blended in two registers (rows 0 and 1 in one 256-bit register,
//!   row 2 in a 128-bit one) from a 64-byte aligned copy of the palette (a matrix per cache
//!   line, rows read straight into the multiplies), its stored weights broadcast straight
//!   from the influences;
//! - the eight blended matrices are transposed (vertex `v` and `v + 4` share a register,
//!   one per half), and the transform, the normal's length and its inverse square root run
//!   on the eight at once;
//! - positions and normals are read and written as three 256-bit words per eight vertices,
//!   (de)interleaved as in the four-wide loop, one group of four per half.
//!
//! The arithmetic per vertex is the four-wide loop's, which is the generic loop's, in the
//! same order and without fused multiply-adds, so the output bits are the same (tested
//! below). The last 1–7 vertices of a mesh are copied into a group padded with zeros.
//! Where the processor has no AVX2, the four-wide SSE2 loop runs instead. Measured in
//! `docs/BENCHMARKS.md`.

mod dqs;
mod f8;

use safe_arch::{m128, set_splat_m128};

pub(crate) use self::dqs::dqs;
use self::f8::{Avx2, F8};
use super::quad::Table;
use crate::skin::batch::{Batch, Normals};
use crate::vertex::Influence;

/// The `f32` lane's LBS loop on x86: the eight-wide loop where the processor has AVX2,
/// else the four-wide SSE2 loop. The table is the smallest of 32, 64 or 256 matrices that
/// holds the palette (less to fill for the usual skeletons).
pub(crate) fn lbs<const K: usize>(
    batch: Batch<'_, f32, K>,
    out: &mut [[f32; 3]],
    normals_io: Normals<'_, f32>,
) {
    let Some(avx2) = Avx2::detect() else {
        return super::quad::lbs(batch, out, normals_io);
    };
    let bones = batch.parts().0.len();
    // SAFETY: the functions' only requirement is the `avx2` target feature, which `avx2`
    // proves.
    unsafe {
        if bones <= 32 {
            lbs_with::<32, K>(avx2, batch, out, normals_io);
        } else if bones <= 64 {
            lbs_with::<64, K>(avx2, batch, out, normals_io);
        } else {
            lbs_with::<256, K>(avx2, batch, out, normals_io);
        }
    }
}

/// A matrix as rows 0 and 1 (one register), and row 2.
type Rows = (F8, m128);

/// The matrix of `bone` in `table` (the four-wide loop's table: a matrix per cache line).
#[inline(always)]
fn get<const N: usize>(avx2: Avx2, table: &Table<N>, bone: u8) -> Rows {
    let s = &table.slot(bone).0;
    let r01: [f32; 8] = s[..8].try_into().expect("eight entries");
    let r2: [f32; 4] = s[8..12].try_into().expect("four entries");
    (avx2.load(r01), m128::from(r2))
}

/// The weights of a group's eight vertices, transposed: `[w₀, w₁, w₂, w₃]`, vertex `v` in
/// lane `v`, the lead weight as `f32::lead_weight`: `1 − ((w₁ + w₂) + w₃)`.
#[inline(always)]
fn weights(avx2: Avx2, inf: &[Influence<f32>]) -> [F8; 4] {
    // Influences v and v + 4 in one register: [bones w₁ w₂ w₃ | bones w₁ w₂ w₃].
    let half = |i: &Influence<f32>| {
        let s = i.stored();
        m128::from([
            f32::from_bits(u32::from_le_bytes(i.bones())),
            s[0],
            s[1],
            s[2],
        ])
    };
    let word = |v: usize| avx2.halves(half(&inf[v]), half(&inf[v + 4]));
    let (a, b, c, d) = (word(0), word(1), word(2), word(3));
    // Lanes 1–3 of the four words, transposed within each half.
    let (ab_lo, ab_hi) = (a.unpack_lo(b), a.unpack_hi(b)); // ·· ·· w₁a w₁b, w₂a w₂b w₃a w₃b
    let (cd_lo, cd_hi) = (c.unpack_lo(d), c.unpack_hi(d));
    let w1 = ab_lo.shuffle::<0b11_10_11_10>(cd_lo);
    let w2 = ab_hi.shuffle::<0b01_00_01_00>(cd_hi);
    let w3 = ab_hi.shuffle::<0b11_10_11_10>(cd_hi);
    [avx2.splat(1.0) - ((w1 + w2) + w3), w1, w2, w3]
}

/// `acc + m · w`, in that order (the product rounded, then the sum: no fused operation).
#[inline(always)]
fn add_scaled(avx2: Avx2, acc: Rows, m: Rows, w: f32) -> Rows {
    (acc.0 + m.0 * avx2.splat(w), acc.1 + m.1 * set_splat_m128(w))
}

/// A vertex's blended matrix `Σₖ wₖ Mₖ`, each entry summed as the generic blend does:
/// `((w₁e₁ + w₂e₂) + w₃e₃) + w₀e₀`.
#[inline(always)]
fn blend<const N: usize, const K: usize>(
    avx2: Avx2,
    table: &Table<N>,
    inf: &Influence<f32>,
    w0: f32,
) -> Rows {
    let b = inf.bones();
    let w = inf.stored();
    let m0 = get(avx2, table, b[0]);
    if K == 1 {
        return m0;
    }
    let m1 = get(avx2, table, b[1]);
    let mut acc = (m1.0 * avx2.splat(w[0]), m1.1 * set_splat_m128(w[0]));
    if K > 2 {
        acc = add_scaled(avx2, acc, get(avx2, table, b[2]), w[1]);
    }
    if K > 3 {
        acc = add_scaled(avx2, acc, get(avx2, table, b[3]), w[2]);
    }
    add_scaled(avx2, acc, m0, w0)
}

/// The four words `a..d` transposed within each half: lane `i` of word `j` becomes lane `j`
/// of word `i`.
#[inline(always)]
fn transpose([a, b, c, d]: [F8; 4]) -> [F8; 4] {
    let (ab_lo, ab_hi) = (a.unpack_lo(b), a.unpack_hi(b));
    let (cd_lo, cd_hi) = (c.unpack_lo(d), c.unpack_hi(d));
    [
        ab_lo.shuffle::<0b01_00_01_00>(cd_lo),
        ab_lo.shuffle::<0b11_10_11_10>(cd_lo),
        ab_hi.shuffle::<0b01_00_01_00>(cd_hi),
        ab_hi.shuffle::<0b11_10_11_10>(cd_hi),
    ]
}

/// The blended matrices of vertices `v` and `v + 4` of a group, row by row:
/// `[row r of v | row r of v + 4]`.
#[inline(always)]
fn pair<const N: usize, const K: usize>(
    avx2: Avx2,
    table: &Table<N>,
    inf: &[Influence<f32>],
    w0: &[f32; 8],
    v: usize,
) -> [F8; 3] {
    let lo = blend::<N, K>(avx2, table, &inf[v], w0[v]);
    let hi = blend::<N, K>(avx2, table, &inf[v + 4], w0[v + 4]);
    [
        lo.0.halves_of::<0x20>(hi.0),
        lo.0.halves_of::<0x31>(hi.0),
        avx2.halves(lo.1, hi.1),
    ]
}

/// The blended matrices of a group's eight vertices, transposed: `t[r][c]` holds entry
/// `(r, c)` of the eight, vertex `v` in lane `v`.
#[inline(always)]
fn blend8<const N: usize, const K: usize>(
    avx2: Avx2,
    table: &Table<N>,
    inf: &[Influence<f32>],
) -> [[F8; 4]; 3] {
    let w0 = weights(avx2, inf)[0].to_array();
    // (Written out: a closure passed to `array::map` would be compiled without AVX2.)
    let p = [
        pair::<N, K>(avx2, table, inf, &w0, 0),
        pair::<N, K>(avx2, table, inf, &w0, 1),
        pair::<N, K>(avx2, table, inf, &w0, 2),
        pair::<N, K>(avx2, table, inf, &w0, 3),
    ];
    let rows = |r: usize| transpose([p[0][r], p[1][r], p[2][r], p[3][r]]);
    [rows(0), rows(1), rows(2)]
}

/// The coordinates of eight vectors, as the four-wide loop's `load3` on each half.
#[inline(always)]
fn load3(avx2: Avx2, v: &[[f32; 3]]) -> [F8; 3] {
    let f: &[f32; 24] = v.as_flattened().try_into().expect("eight vectors");
    let half = |i: usize| m128::from(<[f32; 4]>::try_from(&f[i..i + 4]).expect("four"));
    let word = |i: usize| avx2.halves(half(i), half(12 + i));
    let (a, b, c) = (word(0), word(4), word(8));
    let xy2 = b.shuffle::<0b10_01_11_10>(c);
    let yz0 = a.shuffle::<0b01_00_10_01>(b);
    [
        a.shuffle::<0b10_00_11_00>(xy2),
        yz0.shuffle::<0b11_01_10_00>(xy2),
        yz0.shuffle::<0b11_00_11_01>(c),
    ]
}

/// [`load3`] backwards: writes eight vectors from their coordinates.
#[inline(always)]
fn store3([x, y, z]: [F8; 3], out: &mut [[f32; 3]]) {
    let xy = x.shuffle::<0b10_00_10_00>(y);
    let yz = y.shuffle::<0b11_01_11_01>(z);
    let zx = z.shuffle::<0b11_01_10_00>(x);
    let words = [
        xy.shuffle::<0b10_00_10_00>(zx),
        yz.shuffle::<0b11_01_10_00>(xy),
        zx.shuffle::<0b11_01_11_01>(yz),
    ];
    let (lo, hi) = out.as_flattened_mut().split_at_mut(12);
    for ((lo, hi), w) in lo
        .chunks_exact_mut(4)
        .zip(hi.chunks_exact_mut(4))
        .zip(words)
    {
        let (l, h) = w.split();
        lo.copy_from_slice(&l);
        hi.copy_from_slice(&h);
    }
}

/// Skinned positions of eight vertices, as `Lane::point`: `((t + r₀x) + r₁y) + r₂z`.
#[inline(always)]
fn points(avx2: Avx2, t: &[[F8; 4]; 3], p: &[[f32; 3]], out: &mut [[f32; 3]]) {
    let [x, y, z] = load3(avx2, p);
    let row = |r: &[F8; 4]| r[3] + r[0] * x + r[1] * y + r[2] * z;
    store3([row(&t[0]), row(&t[1]), row(&t[2])], out);
}

/// `super::inv_len`, eight at a time (micromath's first guess, two Newton steps).
#[inline(always)]
fn inv_len8(avx2: Avx2, len2: F8) -> F8 {
    let half = avx2.splat(0.5) * len2;
    let mut y = len2.inv_sqrt_guess(super::quad::INV_SQRT_MAGIC);
    for _ in 0..2 {
        y = y * (avx2.splat(1.5) - half * y * y);
    }
    y
}

/// Skinned positions (as [`points`]) and renormalised normals (as `Lane::normal`) of eight
/// vertices, computed row by row, each row of the matrices used for both before the next
/// (fewer registers spilled than positions, then normals: 5.7 ns a vertex instead of 6.0,
/// `docs/BENCHMARKS.md`).
#[inline(always)]
fn points_and_normals(
    avx2: Avx2,
    t: &[[F8; 4]; 3],
    (p, out): (&[[f32; 3]], &mut [[f32; 3]]),
    (n, out_n): (&[[f32; 3]], &mut [[f32; 3]]),
) {
    let [x, y, z] = load3(avx2, p);
    let [nx, ny, nz] = load3(avx2, n);
    let point = |r: &[F8; 4]| r[3] + r[0] * x + r[1] * y + r[2] * z;
    let normal = |r: &[F8; 4]| r[0] * nx + r[1] * ny + r[2] * nz;
    let (n0, p0) = (normal(&t[0]), point(&t[0]));
    let (n1, p1) = (normal(&t[1]), point(&t[1]));
    let (n2, p2) = (normal(&t[2]), point(&t[2]));
    let len2 = n0 * n0 + n1 * n1 + n2 * n2;
    let y8 = inv_len8(avx2, len2);
    // Exactly zero where the length is (nearly) zero, as `Lane::normal`.
    let zero = len2.le_mask(avx2.splat(f32::MIN_POSITIVE));
    let unit = |c: F8| (c * y8).unless(zero);
    store3([p0, p1, p2], out);
    store3([unit(n0), unit(n1), unit(n2)], out_n);
}

/// The last group of a mesh whose length is not a multiple of eight, padded with zeros.
#[derive(Default)]
struct Tail {
    positions: [[f32; 3]; 8],
    normals: [[f32; 3]; 8],
    influences: [Influence<f32>; 8],
    out: [[f32; 3]; 8],
    out_normals: [[f32; 3]; 8],
}

impl Tail {
    /// The vertices from `whole` (the mesh's length rounded down to a multiple of eight) on.
    #[inline(always)]
    fn new(
        (positions, influences): (&[[f32; 3]], &[Influence<f32>]),
        normals_io: &Normals<'_, f32>,
        whole: usize,
    ) -> Self {
        let mut tail = Tail::default();
        let len = positions.len();
        tail.positions[..len - whole].copy_from_slice(&positions[whole..]);
        tail.influences[..len - whole].copy_from_slice(&influences[whole..]);
        if let Some((n, _)) = normals_io {
            tail.normals[..len - whole].copy_from_slice(&n[whole..]);
        }
        tail
    }

    /// Writes the results of the vertices from `whole` on.
    #[inline(always)]
    fn write(&self, whole: usize, out: &mut [[f32; 3]], normals_io: Normals<'_, f32>) {
        let len = out.len();
        out[whole..].copy_from_slice(&self.out[..len - whole]);
        if let Some((_, on)) = normals_io {
            on[whole..].copy_from_slice(&self.out_normals[..len - whole]);
        }
    }
}

/// The loop over groups of eight: LBS of `batch` with the palette copied into a table of
/// `N` matrices.
#[target_feature(enable = "avx2")]
fn lbs_with<const N: usize, const K: usize>(
    avx2: Avx2,
    batch: Batch<'_, f32, K>,
    out: &mut [[f32; 3]],
    normals_io: Normals<'_, f32>,
) {
    let (palette, positions, influences) = batch.parts();
    let table = Table::<N>::new(palette);
    let vertices = (positions, influences);
    groups(avx2, vertices, out, normals_io, |inf| {
        blend8::<N, K>(avx2, &table, inf)
    });
}

/// The LBS loop over groups of eight vertices: `transforms` gives a group's eight matrices,
/// transposed (as [`blend8`]), which move its positions and normals. The last 1–7 vertices
/// are copied into a padded group ([`Tail`]), whose extra results are dropped. (The DQS
/// loop, `dqs::dqs_with`, is this loop with part of each group computed one group ahead.)
#[inline(always)]
fn groups(
    avx2: Avx2,
    (positions, influences): (&[[f32; 3]], &[Influence<f32>]),
    out: &mut [[f32; 3]],
    mut normals_io: Normals<'_, f32>,
    mut transforms: impl FnMut(&[Influence<f32>]) -> [[F8; 4]; 3],
) {
    let len = positions.len();
    let whole = len & !7;
    let mut tail = Tail::new((positions, influences), &normals_io, whole);
    for at in (0..len).step_by(8) {
        let (p, inf, o) = if at < whole {
            let group = at..at + 8;
            let o = &mut out[group.clone()];
            (&positions[group.clone()], &influences[group], o)
        } else {
            (&tail.positions[..], &tail.influences[..], &mut tail.out[..])
        };
        let t = transforms(inf);
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
    use crate::skin::x86::quad::tests::matches_generic_loop;

    /// The eight-wide loop (with its padded last group) gives the generic loop's bits, as
    /// the four-wide loop's test asks of it. Where the processor has
    /// no AVX2, `lbs` is the four-wide loop, and the test says so.
    #[test]
    fn eight_wide_loop_matches_generic_loop_bit_for_bit() {
        if Avx2::detect().is_none() {
            extern crate std;
            std::println!("note: no AVX2 on this processor; this tests the four-wide fallback");
        }
        matches_generic_loop::<1>(lbs);
        matches_generic_loop::<2>(lbs);
        matches_generic_loop::<3>(lbs);
        matches_generic_loop::<4>(lbs);
    }
}
