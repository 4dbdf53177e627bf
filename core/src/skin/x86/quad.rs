//! The `f32` LBS loop, four vertices at a time, in SSE2 (x86 and x86-64 only; through
//! `safe_arch`, which wraps the intrinsics in safe functions), for processors without AVX2
//! (see `avx2`); and the four-wide stitching loop.
//!
//! Per group of four vertices:
//! - the four influences are read as four 16-byte words (bones, w₁, w₂, w₃) and
//!   transposed, so the lead weights `w₀ = 1 − ((w₁ + w₂) + w₃)` of the four are computed at
//!   once;
//! - each vertex's matrix is blended row by row (a row is one register) from a 16-byte
//!   aligned copy of the palette whose matrices are 64 bytes apart, so the rows are read
//!   straight into the multiplies and a bone's table offset is `bone << 6`;
//! - the four blended matrices are transposed, and the transform, the normal's length and
//!   its inverse square root run on the four vertices at once;
//! - positions and normals are read and written as three 16-byte words per four vertices,
//!   (de)interleaved with shuffles.
//!
//! The arithmetic per vertex is that of [`Lane::point`](crate::lane::Lane::point) and
//! [`Lane::normal`](crate::lane::Lane::normal) over the
//! generic blend, in the same order, so the output bits are those of the generic loop
//! (`crate::skin::generic`, which the remaining vertices of a mesh that is not a multiple of
//! four go through): tested below, and the reason the Cortex-M builds (generic loop) and the
//! host agree bit for bit. Measured in `docs/BENCHMARKS.md`.

use safe_arch::{
    bitandnot_m128, cast_to_m128_from_m128i, cast_to_m128i_from_m128, cmp_le_mask_m128, m128,
    set_splat_i32_m128i, set_splat_m128, shr_imm_i32_m128i, shuffle_abi_f32_all_m128,
    shuffle_ai_f32_all_m128i, store_unaligned_m128, sub_i32_m128i, transpose_four_m128,
};

use crate::affine::Affine;
use crate::skin::batch::{Batch, Normals, Rigid};
use crate::vertex::Influence;

/// One palette matrix: three rows and a padding row, a cache line, so that a bone's table
/// offset is `bone << 6` (one shift; `× 48` takes two instructions).
#[derive(Clone, Copy)]
#[repr(C, align(64))]
pub(super) struct Slot(pub(super) [f32; 16]);

/// The palette copied into 64-byte aligned slots (for this loop and the eight-wide one):
/// `N` of them, a power of two, so that the bone bytes masked with `N − 1` index it without
/// bounds checks (the mask changes no index: the mesh's bones were checked against the
/// palette, and `N` ≥ its length).
pub(super) struct Table<const N: usize> {
    slots: [Slot; N],
}

impl<const N: usize> Table<N> {
    #[inline(always)]
    pub(super) fn new(palette: &[Affine<f32>]) -> Self {
        let mut slots = [Slot([0.0; 16]); N];
        for (s, m) in slots.iter_mut().zip(palette) {
            s.0[..12].copy_from_slice(m.rows.as_flattened());
        }
        Self { slots }
    }

    /// The slot of `bone` (masked, see above).
    #[inline(always)]
    pub(super) fn slot(&self, bone: u8) -> &Slot {
        &self.slots[usize::from(bone) & (N - 1)]
    }

    /// The rows of `bone`'s matrix, one register each.
    #[inline(always)]
    fn get(&self, bone: u8) -> Rows {
        let s = &self.slot(bone).0;
        let row = |r: usize| m128::from(<[f32; 4]>::try_from(&s[4 * r..4 * r + 4]).expect("4"));
        [row(0), row(1), row(2)]
    }
}

/// A blended matrix, one register per row.
type Rows = [m128; 3];

/// An influence as one 16-byte word: the four bone bytes, then w₁, w₂, w₃.
#[inline(always)]
fn influence(inf: &Influence<f32>) -> m128 {
    let s = inf.stored();
    let bones = f32::from_bits(u32::from_le_bytes(inf.bones()));
    m128::from_array([bones, s[0], s[1], s[2]])
}

/// The weights `[w₀, w₁, w₂, w₃]` of a group's four vertices, one register each, from the
/// four influences transposed.
#[inline(always)]
fn weights(inf: &[Influence<f32>]) -> [m128; 4] {
    let (mut b, mut w1, mut w2, mut w3) = (
        influence(&inf[0]),
        influence(&inf[1]),
        influence(&inf[2]),
        influence(&inf[3]),
    );
    transpose_four_m128(&mut b, &mut w1, &mut w2, &mut w3);
    // As `f32::lead_weight`.
    let w0 = set_splat_m128(1.0) - ((w1 + w2) + w3);
    [w0, w1, w2, w3]
}

/// Lane `S & 3` of `w` in every lane.
#[inline(always)]
fn splat<const S: i32>(w: m128) -> m128 {
    cast_to_m128_from_m128i(shuffle_ai_f32_all_m128i::<S>(cast_to_m128i_from_m128(w)))
}

/// Vertex `v`'s blended matrix `Σₖ wₖ Mₖ`, row by row, each entry summed as the generic
/// blend does: `((w₁e₁ + w₂e₂) + w₃e₃) + w₀e₀`; `S` is the shuffle that splats lane `v` of
/// the group's weights.
#[inline(always)]
fn blend<const N: usize, const K: usize, const S: i32>(
    table: &Table<N>,
    inf: &Influence<f32>,
    w: &[m128; 4],
) -> Rows {
    let b = inf.bones();
    let at = |k: usize| table.get(b[k]);
    let m0 = at(0);
    if K == 1 {
        return [m0[0], m0[1], m0[2]];
    }
    let m1 = at(1);
    let w1 = splat::<S>(w[1]);
    let mut acc = [m1[0] * w1, m1[1] * w1, m1[2] * w1];
    if K > 2 {
        let m2 = at(2);
        let w2 = splat::<S>(w[2]);
        for (a, r) in acc.iter_mut().zip(m2) {
            *a += r * w2;
        }
    }
    if K > 3 {
        let m3 = at(3);
        let w3 = splat::<S>(w[3]);
        for (a, r) in acc.iter_mut().zip(m3) {
            *a += r * w3;
        }
    }
    let w0 = splat::<S>(w[0]);
    [
        acc[0] + m0[0] * w0,
        acc[1] + m0[1] * w0,
        acc[2] + m0[2] * w0,
    ]
}

/// The blended matrices of a group's four vertices, transposed: `t[r][c]` holds entry
/// `(r, c)` of the four.
#[inline(always)]
fn blend4<const N: usize, const K: usize>(
    table: &Table<N>,
    inf: &[Influence<f32>],
) -> [[m128; 4]; 3] {
    let w = weights(inf);
    let mut m = [
        blend::<N, K, 0b00_00_00_00>(table, &inf[0], &w),
        blend::<N, K, 0b01_01_01_01>(table, &inf[1], &w),
        blend::<N, K, 0b10_10_10_10>(table, &inf[2], &w),
        blend::<N, K, 0b11_11_11_11>(table, &inf[3], &w),
    ];
    let mut t = [[m128::default(); 4]; 3];
    for (r, t) in t.iter_mut().enumerate() {
        let [a, b, c, d] = &mut m;
        let (mut a, mut b, mut c, mut d) = (a[r], b[r], c[r], d[r]);
        transpose_four_m128(&mut a, &mut b, &mut c, &mut d);
        *t = [a, b, c, d];
    }
    t
}

/// The coordinates of four vectors: `[x₀ y₀ z₀ x₁] [y₁ z₁ x₂ y₂] [z₂ x₃ y₃ z₃]` to
/// `[x₀..x₃] [y₀..y₃] [z₀..z₃]`.
#[inline(always)]
fn load3(v: &[[f32; 3]]) -> [m128; 3] {
    let f: &[f32; 12] = v.as_flattened().try_into().expect("four vectors");
    let word = |i: usize| m128::from_array([f[i], f[i + 1], f[i + 2], f[i + 3]]);
    let (a, b, c) = (word(0), word(4), word(8));
    let xy2 = shuffle_abi_f32_all_m128::<0b10_01_11_10>(b, c); // x₂ y₂ x₃ y₃
    let yz0 = shuffle_abi_f32_all_m128::<0b01_00_10_01>(a, b); // y₀ z₀ y₁ z₁
    [
        shuffle_abi_f32_all_m128::<0b10_00_11_00>(a, xy2),
        shuffle_abi_f32_all_m128::<0b11_01_10_00>(yz0, xy2),
        shuffle_abi_f32_all_m128::<0b11_00_11_01>(yz0, c),
    ]
}

/// [`load3`] backwards: writes four vectors from their coordinates.
#[inline(always)]
fn store3([x, y, z]: [m128; 3], out: &mut [[f32; 3]]) {
    let xy = shuffle_abi_f32_all_m128::<0b10_00_10_00>(x, y); // x₀ x₂ y₀ y₂
    let yz = shuffle_abi_f32_all_m128::<0b11_01_11_01>(y, z); // y₁ y₃ z₁ z₃
    let zx = shuffle_abi_f32_all_m128::<0b11_01_10_00>(z, x); // z₀ z₂ x₁ x₃
    let words = [
        shuffle_abi_f32_all_m128::<0b10_00_10_00>(xy, zx),
        shuffle_abi_f32_all_m128::<0b11_01_10_00>(yz, xy),
        shuffle_abi_f32_all_m128::<0b11_01_11_01>(zx, yz),
    ];
    for (o, w) in out.as_flattened_mut().chunks_exact_mut(4).zip(words) {
        store_unaligned_m128(o.try_into().expect("four lanes"), w);
    }
}

/// Skinned positions of four vertices, as `Lane::point`: `((t + r₀x) + r₁y) + r₂z`.
#[inline(always)]
fn points(t: &[[m128; 4]; 3], p: &[[f32; 3]], out: &mut [[f32; 3]]) {
    let [x, y, z] = load3(p);
    let row = |r: &[m128; 4]| r[3] + r[0] * x + r[1] * y + r[2] * z;
    store3([row(&t[0]), row(&t[1]), row(&t[2])], out);
}

/// The magic constant of micromath's `invsqrt` (`0x5f375a86 − (bits >> 1)`).
pub(super) const INV_SQRT_MAGIC: i32 = 0x5f37_5a86;

/// The `f32` lane's `inv_len` (`lane/float.rs`: micromath's estimate, two Newton steps), four at
/// a time.
#[inline(always)]
fn inv_len4(len2: m128) -> m128 {
    let half = set_splat_m128(0.5) * len2;
    let bits = shr_imm_i32_m128i::<1>(cast_to_m128i_from_m128(len2));
    let mut y = cast_to_m128_from_m128i(sub_i32_m128i(set_splat_i32_m128i(INV_SQRT_MAGIC), bits));
    for _ in 0..2 {
        y *= set_splat_m128(1.5) - half * y * y;
    }
    y
}

/// Skinned positions (as [`points`]) and renormalised normals (as `Lane::normal`) of four
/// vertices, computed row by row, each row of the matrices used for both before the next.
#[inline(always)]
fn points_and_normals(
    t: &[[m128; 4]; 3],
    (p, out): (&[[f32; 3]], &mut [[f32; 3]]),
    (n, out_n): (&[[f32; 3]], &mut [[f32; 3]]),
) {
    let [x, y, z] = load3(p);
    let [nx, ny, nz] = load3(n);
    let point = |r: &[m128; 4]| r[3] + r[0] * x + r[1] * y + r[2] * z;
    let normal = |r: &[m128; 4]| r[0] * nx + r[1] * ny + r[2] * nz;
    let (n0, p0) = (normal(&t[0]), point(&t[0]));
    let (n1, p1) = (normal(&t[1]), point(&t[1]));
    let (n2, p2) = (normal(&t[2]), point(&t[2]));
    let len2 = n0 * n0 + n1 * n1 + n2 * n2;
    let y4 = inv_len4(len2);
    // Exactly zero where the length is (nearly) zero, as `Lane::normal`.
    let zero = cmp_le_mask_m128(len2, set_splat_m128(f32::MIN_POSITIVE));
    let unit = |c: m128| bitandnot_m128(zero, c * y4);
    store3([p0, p1, p2], out);
    store3([unit(n0), unit(n1), unit(n2)], out_n);
}

/// The four-wide loop (the `f32` lane's LBS loop on x86 without AVX2): a 64-matrix table
/// for palettes that fit it (most skeletons; less to copy), else one for every bone byte.
pub(super) fn lbs<const K: usize>(
    batch: Batch<'_, f32, K>,
    out: &mut [[f32; 3]],
    normals_io: Normals<'_, f32>,
) {
    if batch.parts().0.len() <= 64 {
        lbs_with::<64, K>(batch, out, normals_io);
    } else {
        lbs_with::<256, K>(batch, out, normals_io);
    }
}

#[inline(always)]
fn lbs_with<const N: usize, const K: usize>(
    batch: Batch<'_, f32, K>,
    out: &mut [[f32; 3]],
    normals_io: Normals<'_, f32>,
) {
    let (palette, positions, influences) = batch.parts();
    let table = Table::<N>::new(palette);
    let table = &table;
    let whole = positions.len() & !3;
    let p4 = positions.chunks_exact(4);
    let i4 = influences.chunks_exact(4);
    let (o4, o1) = out.split_at_mut(whole);
    let o4 = o4.chunks_exact_mut(4);
    match normals_io {
        None => {
            for ((p, inf), o) in p4.zip(i4).zip(o4) {
                points(&blend4::<N, K>(table, inf), p, o);
            }
            crate::skin::generic::lbs(batch.tail(whole), o1, None);
        }
        Some((n, on)) => {
            let n4 = n.chunks_exact(4);
            let (on4, on1) = on.split_at_mut(whole);
            let on4 = on4.chunks_exact_mut(4);
            let quads = p4.zip(i4).zip(n4).zip(o4.zip(on4));
            for (((p, inf), n), (o, on)) in quads {
                let t = blend4::<N, K>(table, inf);
                points_and_normals(&t, (p, o), (n, on));
            }
            let n1 = &n[whole..];
            crate::skin::generic::lbs(batch.tail(whole), o1, Some((n1, on1)));
        }
    }
}

/// The palette matrices of a group's four rigid vertices, transposed as in [`blend4`]; rows
/// are read straight from the palette (unaligned loads), which costs less than filling a
/// [`Table`] for the one matrix a vertex reads.
#[inline(always)]
fn rigid4(palette: &[Affine<f32>], bones: &[u8]) -> [[m128; 4]; 3] {
    let m: [&Affine<f32>; 4] = core::array::from_fn(|v| &palette[usize::from(bones[v])]);
    let mut t = [[m128::default(); 4]; 3];
    for (r, t) in t.iter_mut().enumerate() {
        let row = |v: usize| m128::from(m[v].rows[r]);
        let (mut a, mut b, mut c, mut d) = (row(0), row(1), row(2), row(3));
        transpose_four_m128(&mut a, &mut b, &mut c, &mut d);
        *t = [a, b, c, d];
    }
    t
}

/// The `f32` lane's stitching loop on x86: [`points`] or [`points_and_normals`] on four vertices at
/// a time, the last 1–3 through the generic loop.
pub(crate) fn stitch(rigid: Rigid<'_, f32>, out: &mut [[f32; 3]], normals_io: Normals<'_, f32>) {
    let (palette, positions, bones) = rigid.parts();
    let whole = positions.len() & !3;
    let p4 = positions.chunks_exact(4);
    let b4 = bones.chunks_exact(4);
    let (o4, o1) = out.split_at_mut(whole);
    let o4 = o4.chunks_exact_mut(4);
    match normals_io {
        None => {
            for ((p, b), o) in p4.zip(b4).zip(o4) {
                points(&rigid4(palette, b), p, o);
            }
            crate::skin::generic::stitch(rigid.tail(whole), o1, None);
        }
        Some((n, on)) => {
            let n4 = n.chunks_exact(4);
            let (on4, on1) = on.split_at_mut(whole);
            let on4 = on4.chunks_exact_mut(4);
            let quads = p4.zip(b4).zip(n4).zip(o4.zip(on4));
            for (((p, b), n), (o, on)) in quads {
                let t = rigid4(palette, b);
                points_and_normals(&t, (p, o), (n, on));
            }
            crate::skin::generic::stitch(rigid.tail(whole), o1, Some((&n[whole..], on1)));
        }
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::skin::{RigidMesh, SkinnedMesh};

    /// The bits of up to 37 vectors, to compare outputs exactly.
    pub(in crate::skin::x86) fn bits(a: &[[f32; 3]]) -> heapless::Vec<u32, 111> {
        a.iter().flatten().map(|v| v.to_bits()).collect()
    }

    /// Deterministic values in [−1, 1).
    pub(in crate::skin::x86) fn values(seed: u32) -> impl FnMut() -> f32 {
        let mut s = seed;
        move || {
            s = s.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (s >> 8) as f32 / (1u32 << 23) as f32 - 1.0
        }
    }

    /// The four-wide loop gives the generic loop's bits for every vertex, whatever the mesh
    /// length (so wherever a vertex falls in a group of four), with 1 to 4 influences,
    /// including zero-length normals (from a zero normal, a tiny one and a bone that
    /// flattens everything) and bones spread over the whole table.
    #[test]
    fn quad_loop_matches_generic_loop_bit_for_bit() {
        matches_generic_loop::<1>(lbs);
        matches_generic_loop::<2>(lbs);
        matches_generic_loop::<3>(lbs);
        matches_generic_loop::<4>(lbs);
    }

    /// An `f32` LBS loop.
    pub(in crate::skin::x86) type Kernel<const K: usize> =
        fn(Batch<'_, f32, K>, &mut [[f32; 3]], Normals<'_, f32>);

    /// Asserts that `lbs` gives the generic loop's bits for meshes of every length up to 37
    /// (so wherever a vertex falls in a group of four or eight), see the test above.
    pub(in crate::skin::x86) fn matches_generic_loop<const K: usize>(lbs: Kernel<K>) {
        let mut r = values(7 + K as u32);
        // 70 matrices: the 256-slot table; the first 40 alone: the 64-slot one.
        let mut palette = [Affine::<f32>::IDENTITY; 70];
        for m in &mut palette[1..] {
            m.rows = [[0.0; 4]; 3].map(|row| row.map(|_| r()));
        }
        palette[4].rows = [[0.0, 0.0, 0.0, 0.5]; 3];
        const N: usize = 37;
        let positions: [[f32; 3]; N] = core::array::from_fn(|_| [r(), r(), r()]);
        let mut normals: [[f32; 3]; N] = core::array::from_fn(|_| [r(), r(), r()]);
        normals[5] = [0.0; 3];
        // Transformed, a length² below `f32::MIN_POSITIVE`: zero too.
        normals[8] = [1e-21; 3];
        for bones in [40u8, 70] {
            let influences: [Influence<f32>; N] = core::array::from_fn(|v| {
                let w = 0.5 + 0.25 * r();
                let pick = |k: usize| ((v * 7 + k * 13) % usize::from(bones)) as u8;
                let b = if v == 6 {
                    [4; 4]
                } else {
                    [pick(0), pick(1), pick(2), pick(3)]
                };
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
            for len in 0..=N {
                let mesh =
                    SkinnedMesh::<f32, K>::new(&positions[..len], &influences[..len]).unwrap();
                let batch = || mesh.batch_for_tests(palette);
                let (mut fast, mut fast_n) = ([[9.0; 3]; N], [[9.0; 3]; N]);
                let (mut slow, mut slow_n) = ([[8.0; 3]; N], [[8.0; 3]; N]);
                lbs(
                    batch(),
                    &mut fast[..len],
                    Some((&normals[..len], &mut fast_n[..len])),
                );
                crate::skin::generic::lbs(
                    batch(),
                    &mut slow[..len],
                    Some((&normals[..len], &mut slow_n[..len])),
                );
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
                lbs(batch(), &mut only[..len], None);
                assert_eq!(
                    bits(&only[..len]),
                    bits(&slow[..len]),
                    "positions only, {what:?}"
                );
                if len == N {
                    // The zero-length cases were exercised, and the others are unit normals.
                    assert_eq!(fast_n[5], [0.0; 3]);
                    assert_eq!(fast_n[6], [0.0; 3]);
                    assert_eq!(fast_n[8], [0.0; 3]);
                    let len2 = fast_n[7].iter().map(|c| c * c).sum::<f32>();
                    assert!((len2 - 1.0).abs() < 1e-5, "{len2}");
                }
            }
        }
    }

    /// The four-wide stitching loop gives the generic loop's bits for every mesh length, with
    /// and without normals, including zero-length normals and large palettes.
    #[test]
    fn quad_stitching_matches_generic_loop_bit_for_bit() {
        let mut r = values(5);
        let mut palette = [Affine::<f32>::IDENTITY; 300];
        for m in &mut palette[1..] {
            m.rows = [[0.0; 4]; 3].map(|row| row.map(|_| 3.0 * r()));
        }
        palette[4].rows = [[0.0, 0.0, 0.0, 0.5]; 3];
        const N: usize = 23;
        let positions: [[f32; 3]; N] = core::array::from_fn(|_| [r(), r(), r()]);
        let mut normals: [[f32; 3]; N] = core::array::from_fn(|_| [r(), r(), r()]);
        normals[5] = [0.0; 3];
        // Transformed, a length² below `f32::MIN_POSITIVE`: zero too.
        normals[8] = [1e-21; 3];
        let mut bones: [u8; N] = core::array::from_fn(|v| ((v * 37 + 11) % 256) as u8);
        bones[6] = 4;
        for len in 0..=N {
            let mesh = RigidMesh::new(&positions[..len], &bones[..len]).unwrap();
            let rigid = || mesh.rigid_for_tests(&palette);
            let (mut fast, mut fast_n) = ([[9.0; 3]; N], [[9.0; 3]; N]);
            let (mut slow, mut slow_n) = ([[8.0; 3]; N], [[8.0; 3]; N]);
            let (n, fo, fn_) = (&normals[..len], &mut fast[..len], &mut fast_n[..len]);
            stitch(rigid(), fo, Some((n, fn_)));
            let (so, sn) = (&mut slow[..len], &mut slow_n[..len]);
            crate::skin::generic::stitch(rigid(), so, Some((n, sn)));
            assert_eq!(bits(&fast[..len]), bits(&slow[..len]), "positions, {len}");
            assert_eq!(bits(&fast_n[..len]), bits(&slow_n[..len]), "normals, {len}");
            let mut only = [[7.0; 3]; N];
            stitch(rigid(), &mut only[..len], None);
            assert_eq!(
                bits(&only[..len]),
                bits(&slow[..len]),
                "positions only, {len}"
            );
            if len == N {
                assert_eq!(fast_n[5], [0.0; 3]);
                assert_eq!(fast_n[6], [0.0; 3]);
                assert_eq!(fast_n[8], [0.0; 3]);
                assert_ne!(fast[7], positions[7], "a moving bone moved the vertex");
            }
        }
    }
}
