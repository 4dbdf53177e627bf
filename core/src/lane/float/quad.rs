//! The `f32` LBS loop, four vertices at a time.
//!
//! Each vertex's matrix is blended row by row (a row is four `f32`, one SIMD register), then
//! the four blended matrices are transposed so that every step of the transform, the
//! normal's length and its inverse square root runs on four vertices at once. The arithmetic
//! per vertex is that of [`Lane::point`] and [`Lane::normal`], in the same order, so the
//! results do not depend on where a vertex falls in a group of four, and are the same bits
//! on every target (`wide` uses SSE on x86-64 and plain `f32` arrays where it has no SIMD).
//! Measured in `docs/BENCHMARKS.md`.

use wide::{f32x4, i32x4, CmpLe};

use crate::affine::Affine;
use crate::lane::Lane;
use crate::skin::{Batch, Normals};
use crate::vertex::Influence;

/// A blended matrix, one register per row.
type Rows = [f32x4; 3];

/// The palette copied into 16-byte-aligned rows (so the blend reads them straight from
/// memory into its multiplies), `N` matrices, a power of two: any bone byte masked with
/// `N − 1` indexes it without a bounds check. The mask changes no index: the mesh's bones
/// were checked against the palette, and `N` ≥ the palette's length where it matters.
struct Table<const N: usize> {
    rows: [Rows; N],
}

impl<const N: usize> Table<N> {
    #[inline(always)]
    fn new(palette: &[Affine<f32>]) -> Self {
        let mut rows = [[f32x4::ZERO; 3]; N];
        for (t, m) in rows.iter_mut().zip(palette) {
            *t = m.rows.map(f32x4::from);
        }
        Self { rows }
    }

    #[inline(always)]
    fn get(&self, bone: u8) -> &Rows {
        &self.rows[usize::from(bone) & (N - 1)]
    }
}

/// `Σₖ wₖ Mₖ` over the first `K` influences, row by row, each entry summed as the generic
/// blend does: `((w₁e₁ + w₂e₂) + w₃e₃) + w₀e₀`.
#[inline(always)]
fn blend<const K: usize, const N: usize>(table: &Table<N>, inf: &Influence<f32>) -> Rows {
    let b = inf.bones();
    let s = inf.stored();
    let m0 = table.get(b[0]);
    if K == 1 {
        return *m0;
    }
    let w0 = f32x4::splat(f32::lead_weight(s));
    let m1 = table.get(b[1]);
    let w1 = f32x4::splat(s[0]);
    let mut acc = [m1[0] * w1, m1[1] * w1, m1[2] * w1];
    for k in 2..K {
        let mk = table.get(b[k]);
        let wk = f32x4::splat(s[k - 1]);
        for r in 0..3 {
            acc[r] += mk[r] * wk;
        }
    }
    [
        acc[0] + m0[0] * w0,
        acc[1] + m0[1] * w0,
        acc[2] + m0[2] * w0,
    ]
}

/// The blended matrices of four vertices, transposed: `t[r][c]` holds entry `(r, c)` of
/// the four.
#[inline(always)]
fn blend4<const K: usize, const N: usize>(
    table: &Table<N>,
    inf: &[Influence<f32>],
) -> [[f32x4; 4]; 3] {
    let m = [
        blend::<K, N>(table, &inf[0]),
        blend::<K, N>(table, &inf[1]),
        blend::<K, N>(table, &inf[2]),
        blend::<K, N>(table, &inf[3]),
    ];
    let t = |r: usize| f32x4::transpose([m[0][r], m[1][r], m[2][r], m[3][r]]);
    [t(0), t(1), t(2)]
}

/// Coordinate `c` of four vectors.
#[inline(always)]
fn coord(p: &[[f32; 3]], c: usize) -> f32x4 {
    f32x4::from([p[0][c], p[1][c], p[2][c], p[3][c]])
}

/// Writes three coordinates of four vectors.
#[inline(always)]
fn store(c: [f32x4; 3], out: &mut [[f32; 3]]) {
    let [x, y, z] = c.map(f32x4::to_array);
    for (v, out) in out.iter_mut().enumerate().take(4) {
        *out = [x[v], y[v], z[v]];
    }
}

/// Skinned positions of four vertices, as [`Lane::point`].
#[inline(always)]
fn points(t: &[[f32x4; 4]; 3], p: &[[f32; 3]], out: &mut [[f32; 3]]) {
    let (x, y, z) = (coord(p, 0), coord(p, 1), coord(p, 2));
    let row = |r: &[f32x4; 4]| r[3] + r[0] * x + r[1] * y + r[2] * z;
    store([row(&t[0]), row(&t[1]), row(&t[2])], out);
}

/// The magic constant of micromath's `invsqrt` (`0x5f375a86 − (bits >> 1)`).
const INV_SQRT_MAGIC: i32 = 0x5f37_5a86;

/// [`super::inv_len`], four at a time.
#[inline(always)]
fn inv_len4(len2: f32x4) -> f32x4 {
    let half = f32x4::splat(0.5) * len2;
    let bits: i32x4 = bits4(len2);
    let mut y: f32x4 = from_bits4(i32x4::splat(INV_SQRT_MAGIC) - (bits >> 1));
    for _ in 0..2 {
        y *= f32x4::splat(1.5) - half * y * y;
    }
    y
}

/// The bits of four `f32` (LLVM folds the round trip through arrays away).
#[inline(always)]
fn bits4(v: f32x4) -> i32x4 {
    i32x4::from(v.to_array().map(f32::to_bits).map(|b| b as i32))
}

/// Four `f32` from their bits.
#[inline(always)]
fn from_bits4(v: i32x4) -> f32x4 {
    f32x4::from(v.to_array().map(|b| f32::from_bits(b as u32)))
}

/// Renormalised normals of four vertices, as [`Lane::normal`].
#[inline(always)]
fn normals(t: &[[f32x4; 4]; 3], n: &[[f32; 3]], out: &mut [[f32; 3]]) {
    let (nx, ny, nz) = (coord(n, 0), coord(n, 1), coord(n, 2));
    let row = |r: &[f32x4; 4]| r[0] * nx + r[1] * ny + r[2] * nz;
    let [x, y, z] = [row(&t[0]), row(&t[1]), row(&t[2])];
    let len2 = x * x + y * y + z * z;
    let y4 = inv_len4(len2);
    // Exactly zero where the length is (nearly) zero, as `Lane::normal`.
    let zero = len2.cmp_le(f32x4::splat(f32::MIN_POSITIVE));
    let unit = |c: f32x4| zero.blend(f32x4::ZERO, c * y4);
    store([unit(x), unit(y), unit(z)], out);
}

/// The `f32` lane's [`Lane::lbs`]: a 64-matrix table for palettes that fit it (most
/// skeletons; less to copy), else one for every bone byte.
pub(super) fn lbs<const K: usize>(
    batch: Batch<'_, f32, K>,
    out: &mut [[f32; 3]],
    normals_io: Normals<'_, f32>,
) {
    if batch.parts().0.len() <= 64 {
        lbs_with::<K, 64>(batch, out, normals_io);
    } else {
        lbs_with::<K, 256>(batch, out, normals_io);
    }
}

#[inline(always)]
fn lbs_with<const K: usize, const N: usize>(
    batch: Batch<'_, f32, K>,
    out: &mut [[f32; 3]],
    normals_io: Normals<'_, f32>,
) {
    let (palette, positions, influences) = batch.parts();
    let table = Table::<N>::new(palette);
    let table = &table;
    let p4 = positions.chunks_exact(4);
    let i4 = influences.chunks_exact(4);
    let (p1, i1) = (p4.remainder(), i4.remainder());
    let mut o4 = out.chunks_exact_mut(4);
    let point = |m: &Rows, p: &[f32; 3]| {
        let m = m.map(f32x4::to_array);
        [
            f32::point(&m[0], p),
            f32::point(&m[1], p),
            f32::point(&m[2], p),
        ]
    };
    match normals_io {
        None => {
            for ((p, inf), o) in p4.zip(i4).zip(&mut o4) {
                points(&blend4::<K, N>(table, inf), p, o);
            }
            for ((p, inf), o) in p1.iter().zip(i1).zip(o4.into_remainder()) {
                *o = point(&blend::<K, N>(table, inf), p);
            }
        }
        Some((n, on)) => {
            let n4 = n.chunks_exact(4);
            let n1 = n4.remainder();
            let mut on4 = on.chunks_exact_mut(4);
            let quads = p4.zip(i4).zip(n4).zip((&mut o4).zip(&mut on4));
            for (((p, inf), n), (o, on)) in quads {
                let t = blend4::<K, N>(table, inf);
                points(&t, p, o);
                normals(&t, n, on);
            }
            let ones = p1.iter().zip(i1).zip(n1);
            let outs = o4.into_remainder().iter_mut().zip(on4.into_remainder());
            for (((p, inf), n), (o, on)) in ones.zip(outs) {
                let m = blend::<K, N>(table, inf);
                *o = point(&m, p);
                *on = f32::normal(
                    &Affine {
                        rows: m.map(f32x4::to_array),
                    },
                    n,
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::skin::SkinnedMesh;

    /// Deterministic values in [−1, 1).
    fn values(seed: u32) -> impl FnMut() -> f32 {
        let mut s = seed;
        move || {
            s = s.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (s >> 8) as f32 / (1u32 << 23) as f32 - 1.0
        }
    }

    /// The four-wide loop gives the generic loop's bits for every vertex, whatever the mesh
    /// length (so wherever a vertex falls in a group of four), including zero-length normals
    /// (from a zero normal and from a bone that flattens everything).
    #[test]
    fn quad_loop_matches_generic_loop_bit_for_bit() {
        let mut r = values(7);
        let mut palette = [Affine::<f32>::IDENTITY; 5];
        for m in &mut palette[..4] {
            m.rows = [[0.0; 4]; 3].map(|row| row.map(|_| r()));
        }
        palette[4].rows = [[0.0, 0.0, 0.0, 0.5]; 3];
        const N: usize = 11;
        let positions: [[f32; 3]; N] = core::array::from_fn(|_| [r(), r(), r()]);
        let mut normals: [[f32; 3]; N] = core::array::from_fn(|_| [r(), r(), r()]);
        normals[5] = [0.0; 3];
        let influences: [Influence<f32>; N] = core::array::from_fn(|v| {
            let w = 0.5 + 0.25 * r();
            let bones = if v == 6 {
                [4; 4]
            } else {
                [v as u8 % 4, 1, 2, 3]
            };
            Influence::from_weights(
                bones,
                [w, (1.0 - w) / 2.0, (1.0 - w) / 4.0, (1.0 - w) / 4.0],
                v,
            )
            .unwrap()
        });
        for len in 0..=N {
            let mesh = SkinnedMesh::<f32, 4>::new(&positions[..len], &influences[..len]).unwrap();
            let batch = || mesh_batch(&mesh, &palette);
            let (mut fast, mut fast_n) = ([[9.0; 3]; N], [[9.0; 3]; N]);
            let (mut slow, mut slow_n) = ([[8.0; 3]; N], [[8.0; 3]; N]);
            lbs(
                batch(),
                &mut fast[..len],
                Some((&normals[..len], &mut fast_n[..len])),
            );
            crate::skin::lbs(
                batch(),
                &mut slow[..len],
                Some((&normals[..len], &mut slow_n[..len])),
            );
            let bits = |a: &[[f32; 3]]| {
                a.iter()
                    .flatten()
                    .map(|v| v.to_bits())
                    .collect::<heapless::Vec<u32, 33>>()
            };
            assert_eq!(
                bits(&fast[..len]),
                bits(&slow[..len]),
                "positions, {len} vertices"
            );
            assert_eq!(
                bits(&fast_n[..len]),
                bits(&slow_n[..len]),
                "normals, {len} vertices"
            );
            let mut only = [[7.0; 3]; N];
            lbs(batch(), &mut only[..len], None);
            assert_eq!(
                bits(&only[..len]),
                bits(&slow[..len]),
                "positions only, {len} vertices"
            );
            if len == N {
                // The zero-length cases were exercised, and the others are unit normals.
                assert_eq!(fast_n[5], [0.0; 3]);
                assert_eq!(fast_n[6], [0.0; 3]);
                let len2 = fast_n[7].iter().map(|c| c * c).sum::<f32>();
                assert!((len2 - 1.0).abs() < 1e-5, "{len2}");
            }
        }
    }

    fn mesh_batch<'b>(
        mesh: &'b SkinnedMesh<'_, f32, 4>,
        palette: &'b [Affine<f32>],
    ) -> Batch<'b, f32, 4> {
        mesh.batch_for_tests(palette)
    }
}
