//! An independent `f64` reference of skinning maths, written the textbook way.
//!
//! Nothing here uses skin-core: the property tests compare the core's `f32` and fixed-point
//! results with these functions. Matrices are 3×4 row-major (`[[f64; 4]; 3]`, the last row
//! `0 0 0 1` implied), quaternions are glTF-ordered `[x, y, z, w]`.
//!
//! The formulas are the plain ones from the literature, deliberately *not* the core's
//! optimised forms: linear blend skinning is `Σᵢ wᵢ (Mᵢ p)`, four weighted transformed points
//! summed; forward kinematics recurses up the parent chain; the inverse is Gauss–Jordan
//! elimination with partial pivoting.
//!
//! ```
//! use skin_tests::oracle;
//! let turn = oracle::trs([1.0, 0.0, 0.0], [0.0, 0.0, 0.5f64.sqrt(), 0.5f64.sqrt()], [1.0; 3]);
//! let p = oracle::transform_point(&turn, [1.0, 0.0, 0.0]);
//! assert!((p[0] - 1.0).abs() < 1e-12 && (p[1] - 1.0).abs() < 1e-12);
//! ```

/// A 3-vector.
pub type V3 = [f64; 3];
/// A row-major affine 3×4 matrix.
pub type M34 = [[f64; 4]; 3];

/// The identity.
pub const IDENTITY: M34 = [
    [1.0, 0.0, 0.0, 0.0],
    [0.0, 1.0, 0.0, 0.0],
    [0.0, 0.0, 1.0, 0.0],
];

/// `q / |q|`.
pub fn normalize_quat(q: [f64; 4]) -> [f64; 4] {
    let len = (q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]).sqrt();
    [q[0] / len, q[1] / len, q[2] / len, q[3] / len]
}

/// The rotation matrix of a quaternion (normalised first), row-major.
pub fn quat_to_matrix(q: [f64; 4]) -> [[f64; 3]; 3] {
    let [x, y, z, w] = normalize_quat(q);
    [
        [
            w * w + x * x - y * y - z * z,
            2.0 * (x * y - w * z),
            2.0 * (x * z + w * y),
        ],
        [
            2.0 * (x * y + w * z),
            w * w - x * x + y * y - z * z,
            2.0 * (y * z - w * x),
        ],
        [
            2.0 * (x * z - w * y),
            2.0 * (y * z + w * x),
            w * w - x * x - y * y + z * z,
        ],
    ]
}

/// The matrix `T · R · S` (scale, then rotate, then translate).
pub fn trs(t: V3, q: [f64; 4], s: V3) -> M34 {
    let r = quat_to_matrix(q);
    let mut m = [[0.0; 4]; 3];
    for i in 0..3 {
        for j in 0..3 {
            m[i][j] = r[i][j] * s[j];
        }
        m[i][3] = t[i];
    }
    m
}

/// The matrix product `a · b` of two affine matrices (as 4×4 with last row `0 0 0 1`).
pub fn mul(a: &M34, b: &M34) -> M34 {
    let b4 = |k: usize, j: usize| -> f64 {
        if k < 3 {
            b[k][j]
        } else if j == 3 {
            1.0
        } else {
            0.0
        }
    };
    let mut m = [[0.0; 4]; 3];
    for (i, row) in m.iter_mut().enumerate() {
        for (j, out) in row.iter_mut().enumerate() {
            *out = (0..4)
                .map(|k| {
                    let a_ik = if k < 3 { a[i][k] } else { a[i][3] };
                    a_ik * b4(k, j)
                })
                .sum();
        }
    }
    m
}

/// The inverse of an affine matrix by Gauss–Jordan elimination on `[L | I]` with partial
/// pivoting; the translation of the inverse is `−L⁻¹ t`. `None` when a pivot is below
/// `1e-12` times the largest entry.
pub fn inverse(m: &M34) -> Option<M34> {
    let scale = m
        .iter()
        .flat_map(|r| r[..3].iter())
        .fold(0.0f64, |a, v| a.max(v.abs()));
    if scale == 0.0 || !scale.is_finite() {
        return None;
    }
    // Augmented [L | I].
    let mut a = [[0.0f64; 6]; 3];
    for i in 0..3 {
        a[i][..3].copy_from_slice(&m[i][..3]);
        a[i][3 + i] = 1.0;
    }
    for col in 0..3 {
        let pivot = (col..3).max_by(|&r, &s| a[r][col].abs().total_cmp(&a[s][col].abs()))?;
        if a[pivot][col].abs() < 1e-12 * scale {
            return None;
        }
        a.swap(col, pivot);
        let p = a[col][col];
        for v in a[col].iter_mut() {
            *v /= p;
        }
        for r in 0..3 {
            if r != col {
                let f = a[r][col];
                let pivot_row = a[col];
                for (v, pv) in a[r].iter_mut().zip(pivot_row) {
                    *v -= f * pv;
                }
            }
        }
    }
    let mut inv = [[0.0; 4]; 3];
    for i in 0..3 {
        inv[i][..3].copy_from_slice(&a[i][3..]);
        inv[i][3] = -(0..3).map(|k| a[i][3 + k] * m[k][3]).sum::<f64>();
    }
    Some(inv)
}

/// `M · (p, 1)`.
pub fn transform_point(m: &M34, p: V3) -> V3 {
    let mut out = [0.0; 3];
    for (o, r) in out.iter_mut().zip(m) {
        *o = r[0] * p[0] + r[1] * p[1] + r[2] * p[2] + r[3];
    }
    out
}

/// `M · (v, 0)`: the linear part only.
pub fn transform_vector(m: &M34, v: V3) -> V3 {
    let mut out = [0.0; 3];
    for (o, r) in out.iter_mut().zip(m) {
        *o = r[0] * v[0] + r[1] * v[1] + r[2] * v[2];
    }
    out
}

/// World matrices by forward kinematics: `world(i) = world(parent(i)) · local(i)`, and
/// `root · local(i)` for a root. Recursive with memoisation, so it does not rely on parents
/// being listed before their children. Panics on a cycle (the oracle is only fed valid trees).
pub fn forward_kinematics(parents: &[Option<usize>], local: &[M34], root: &M34) -> Vec<M34> {
    fn world_of(
        i: usize,
        parents: &[Option<usize>],
        local: &[M34],
        root: &M34,
        memo: &mut [Option<M34>],
        depth: usize,
    ) -> M34 {
        assert!(
            depth <= parents.len(),
            "the oracle was given a cyclic skeleton"
        );
        if let Some(w) = memo[i] {
            return w;
        }
        let parent_world = match parents[i] {
            Some(p) => world_of(p, parents, local, root, memo, depth + 1),
            None => *root,
        };
        let w = mul(&parent_world, &local[i]);
        memo[i] = Some(w);
        w
    }
    let mut memo = vec![None; parents.len()];
    (0..parents.len())
        .map(|i| world_of(i, parents, local, root, &mut memo, 0))
        .collect()
}

/// The skinning palette `Mⱼ = W[joints[j]] · B⁻¹ⱼ`.
pub fn palette(world: &[M34], joints: &[usize], inverse_binds: &[M34]) -> Vec<M34> {
    joints
        .iter()
        .zip(inverse_binds)
        .map(|(&b, ibm)| mul(&world[b], ibm))
        .collect()
}

/// Linear blend skinning of one point, the textbook formula: `Σᵢ wᵢ (M[bᵢ] · p)`.
pub fn lbs_point(palette: &[M34], bones: &[usize], weights: &[f64], p: V3) -> V3 {
    let mut out = [0.0; 3];
    for (&b, &w) in bones.iter().zip(weights) {
        let q = transform_point(&palette[b], p);
        for (o, q) in out.iter_mut().zip(q) {
            *o += w * q;
        }
    }
    out
}

/// The blended normal `Σᵢ wᵢ (L[bᵢ] · n)` before renormalisation (`L` the linear parts).
pub fn lbs_normal_unnormalised(palette: &[M34], bones: &[usize], weights: &[f64], n: V3) -> V3 {
    let mut out = [0.0; 3];
    for (&b, &w) in bones.iter().zip(weights) {
        let v = transform_vector(&palette[b], n);
        for (o, v) in out.iter_mut().zip(v) {
            *o += w * v;
        }
    }
    out
}

/// The blended normal, renormalised to unit length (`None` when it collapses to zero).
pub fn lbs_normal(palette: &[M34], bones: &[usize], weights: &[f64], n: V3) -> Option<V3> {
    let v = lbs_normal_unnormalised(palette, bones, weights, n);
    let len = norm(v);
    (len > 1e-12).then(|| [v[0] / len, v[1] / len, v[2] / len])
}

/// Spherical linear interpolation of unit quaternions along the shorter arc:
/// `sin((1−t)θ)/sin θ · a + sin(tθ)/sin θ · b`, with `b` negated when `a·b < 0`.
pub fn slerp(a: [f64; 4], b: [f64; 4], t: f64) -> [f64; 4] {
    let a = normalize_quat(a);
    let mut b = normalize_quat(b);
    let mut cos = (0..4).map(|i| a[i] * b[i]).sum::<f64>();
    if cos < 0.0 {
        b = b.map(|v| -v);
        cos = -cos;
    }
    let theta = cos.min(1.0).acos();
    if theta < 1e-9 {
        return a;
    }
    let (wa, wb) = (
        ((1.0 - t) * theta).sin() / theta.sin(),
        (t * theta).sin() / theta.sin(),
    );
    normalize_quat([0, 1, 2, 3].map(|i| wa * a[i] + wb * b[i]))
}

/// Euclidean length.
pub fn norm(v: V3) -> f64 {
    (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt()
}

/// Euclidean distance.
pub fn distance(a: V3, b: V3) -> f64 {
    norm([a[0] - b[0], a[1] - b[1], a[2] - b[2]])
}

/// The largest [`distance`] between corresponding points of `a` and `b` (0 for none).
pub fn farthest(a: &[V3], b: &[V3]) -> f64 {
    a.iter()
        .zip(b)
        .map(|(p, q)| distance(*p, *q))
        .fold(0.0, f64::max)
}

/// The diagonal of the axis-aligned bounding box of `points` (0 for none).
pub fn extent(points: &[V3]) -> f64 {
    if points.is_empty() {
        return 0.0;
    }
    let mut lo = [f64::INFINITY; 3];
    let mut hi = [f64::NEG_INFINITY; 3];
    for p in points {
        for k in 0..3 {
            lo[k] = lo[k].min(p[k]);
            hi[k] = hi[k].max(p[k]);
        }
    }
    distance(lo, hi)
}

/// The Hamilton product `a ⊗ b` (rotate by `b`, then by `a`).
pub fn quat_mul(a: [f64; 4], b: [f64; 4]) -> [f64; 4] {
    let [ax, ay, az, aw] = a;
    let [bx, by, bz, bw] = b;
    [
        aw * bx + ax * bw + ay * bz - az * by,
        aw * by - ax * bz + ay * bw + az * bx,
        aw * bz + ax * by - ay * bx + az * bw,
        aw * bw - ax * bx - ay * by - az * bz,
    ]
}

/// The conjugate `[−x, −y, −z, w]`: the inverse rotation of a unit quaternion.
pub fn quat_conj(q: [f64; 4]) -> [f64; 4] {
    [-q[0], -q[1], -q[2], q[3]]
}

/// The transpose of a 3×3 matrix applied to `v`: `Rᵀ v` (the inverse rotation).
pub fn transpose_apply(r: &[[f64; 3]; 3], v: V3) -> V3 {
    [0, 1, 2].map(|j| (0..3).map(|i| r[i][j] * v[i]).sum())
}
