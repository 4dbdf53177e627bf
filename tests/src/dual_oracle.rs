//! An independent `f64` reference of dual quaternion skinning (Kavan et al.), written with
//! quaternion products, not with the core's matrix forms: a bone is a rotation quaternion
//! and a translation; its dual quaternion is `(q, ½·(0, t)·q)`; a vertex's dual quaternions
//! are blended after flipping each into the hemisphere of its most-weighted bone's, divided
//! by the norm of the blended real part, and applied as `q·p·q* + 2·d·q*`.
//!
//! ```
//! use skin_tests::dual_oracle::{Bone, dqs_point};
//! let s = 0.5f64.sqrt();
//! let bones = [
//!     Bone { q: [0.0, 0.0, 0.0, 1.0], t: [0.0; 3] },
//!     Bone { q: [0.0, 0.0, s, s], t: [1.0, 0.0, 0.0] },
//! ];
//! let p = dqs_point(&bones, &[1], &[1.0], [1.0, 0.0, 0.0]);
//! assert!((p[0] - 1.0).abs() < 1e-12 && (p[1] - 1.0).abs() < 1e-12);
//! ```

use crate::oracle::{quat_conj, quat_mul, V3};

/// A rigid bone transform: rotate by the unit quaternion `q` (`[x, y, z, w]`), then
/// translate by `t`.
#[derive(Clone, Copy, Debug)]
pub struct Bone {
    /// Rotation.
    pub q: [f64; 4],
    /// Translation.
    pub t: V3,
}

/// The blended, normalised dual quaternion of a vertex `(real, dual)` and the norm of the
/// blended real part before normalising.
pub fn blend(bones: &[Bone], index: &[usize], weights: &[f64]) -> ([f64; 4], [f64; 4], f64) {
    let pivot = bones[index[lead(weights)]].q;
    let (mut real, mut dual) = ([0.0; 4], [0.0; 4]);
    for (&b, &w) in index.iter().zip(weights) {
        let Bone { q, t } = bones[b];
        let d = quat_mul([t[0] / 2.0, t[1] / 2.0, t[2] / 2.0, 0.0], q);
        let dot: f64 = (0..4).map(|k| q[k] * pivot[k]).sum();
        let sign = if dot < 0.0 { -w } else { w };
        for k in 0..4 {
            real[k] += sign * q[k];
            dual[k] += sign * d[k];
        }
    }
    let norm = real.iter().map(|v| v * v).sum::<f64>().sqrt();
    (real.map(|v| v / norm), dual.map(|v| v / norm), norm)
}

/// A point through the blend of `index`'s bones with `weights`.
pub fn dqs_point(bones: &[Bone], index: &[usize], weights: &[f64], p: V3) -> V3 {
    let (q, d, _) = blend(bones, index, weights);
    let rotated = quat_mul(quat_mul(q, [p[0], p[1], p[2], 0.0]), quat_conj(q));
    let t = quat_mul(d, quat_conj(q));
    [0, 1, 2].map(|k| rotated[k] + 2.0 * t[k])
}

/// A normal through the blend's rotation (unit in, unit out).
pub fn dqs_normal(bones: &[Bone], index: &[usize], weights: &[f64], n: V3) -> V3 {
    let (q, _, _) = blend(bones, index, weights);
    let r = quat_mul(quat_mul(q, [n[0], n[1], n[2], 0.0]), quat_conj(q));
    [r[0], r[1], r[2]]
}

/// How far the vertex is from the blend's discontinuity: the smallest `|qₖ · q_lead|` over
/// its weighted bones. Where a bone's rotation is 180° from the most-weighted bone's (the
/// dot product 0), flipping it or not are equally valid and give different results, so a
/// rounded lane may land on either side.
pub fn hemisphere_margin(bones: &[Bone], index: &[usize], weights: &[f64]) -> f64 {
    let pivot = bones[index[lead(weights)]].q;
    index
        .iter()
        .zip(weights)
        .filter(|(_, &w)| w > 0.0)
        .map(|(&b, _)| (0..4).map(|k| bones[b].q[k] * pivot[k]).sum::<f64>().abs())
        .fold(f64::INFINITY, f64::min)
}

/// The most-weighted influence, the first of equals.
fn lead(weights: &[f64]) -> usize {
    (1..weights.len()).fold(0, |m, k| if weights[k] > weights[m] { k } else { m })
}

/// A bone with scale/shear (Kavan et al.): the symmetric `s` applied first, then the rigid
/// `bone`; its joint matrix is `[R(q)·s | t]`.
#[derive(Clone, Copy, Debug)]
pub struct StretchedBone {
    /// The rigid part.
    pub bone: Bone,
    /// The scale/shear, symmetric positive definite, rows first.
    pub s: [[f64; 3]; 3],
}

/// The blended stretch `Σ wₖ sₖ` of a vertex.
fn blend_stretch(bones: &[StretchedBone], index: &[usize], weights: &[f64]) -> [[f64; 3]; 3] {
    let mut m = [[0.0; 3]; 3];
    for (&b, &w) in index.iter().zip(weights) {
        for (i, row) in m.iter_mut().enumerate() {
            for (j, e) in row.iter_mut().enumerate() {
                *e += w * bones[b].s[i][j];
            }
        }
    }
    m
}

/// The rigid parts of `bones`.
fn rigid(bones: &[StretchedBone]) -> Vec<Bone> {
    bones.iter().map(|b| b.bone).collect()
}

/// A point through the blended stretch, then the blended rigid part.
pub fn stretched_point(bones: &[StretchedBone], index: &[usize], weights: &[f64], p: V3) -> V3 {
    let s = blend_stretch(bones, index, weights);
    let moved = [0, 1, 2].map(|i| (0..3).map(|j| s[i][j] * p[j]).sum());
    dqs_point(&rigid(bones), index, weights, moved)
}

/// A normal through the blended stretch's inverse transpose (solved by Gaussian
/// elimination with partial pivoting: the stretch is symmetric, so `S⁻ᵀn = S⁻¹n`), then
/// the blended rotation; unit out.
pub fn stretched_normal(bones: &[StretchedBone], index: &[usize], weights: &[f64], n: V3) -> V3 {
    let s = blend_stretch(bones, index, weights);
    let mut a = [0, 1, 2].map(|i| [s[i][0], s[i][1], s[i][2], n[i]]);
    for col in 0..3 {
        let pivot = (col..3)
            .max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs()))
            .expect("rows");
        a.swap(col, pivot);
        for row in 0..3 {
            if row != col {
                let (f, pivot_row) = (a[row][col] / a[col][col], a[col]);
                for (x, p) in a[row].iter_mut().zip(pivot_row).skip(col) {
                    *x -= f * p;
                }
            }
        }
    }
    let x: V3 = [0, 1, 2].map(|i| a[i][3] / a[i][i]);
    let l = crate::oracle::norm(x);
    dqs_normal(&rigid(bones), index, weights, x.map(|c| c / l))
}

/// A joint matrix `[A | t]` (`det A > 0`) as a stretched bone, independently of the core's
/// Newton iteration: `S = √(AᵀA)` from the eigen-decomposition of `AᵀA` (cyclic Jacobi
/// rotations), `R = A·S⁻¹`, and `R`'s quaternion from its largest diagonal combination.
pub fn split(m: &[[f64; 4]; 3]) -> StretchedBone {
    let a = |i: usize, j: usize| m[i][j];
    let mut g: [[f64; 3]; 3] =
        std::array::from_fn(|i| std::array::from_fn(|j| (0..3).map(|k| a(k, i) * a(k, j)).sum()));
    let mut v = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
    for _ in 0..50 {
        for (p, q) in [(0, 1), (0, 2), (1, 2)] {
            if g[p][q].abs() < 1e-300 {
                continue;
            }
            let theta = (g[q][q] - g[p][p]) / (2.0 * g[p][q]);
            let t = theta.signum() / (theta.abs() + (theta * theta + 1.0).sqrt());
            let t = if theta == 0.0 { 1.0 } else { t };
            let (c, s) = (1.0 / (t * t + 1.0).sqrt(), t / (t * t + 1.0).sqrt());
            // G ← JᵀGJ, V ← VJ for the rotation J in the (p, q) plane.
            for row in &mut g {
                let (gkp, gkq) = (row[p], row[q]);
                row[p] = c * gkp - s * gkq;
                row[q] = s * gkp + c * gkq;
            }
            let (gp, gq) = (g[p], g[q]);
            g[p] = std::array::from_fn(|k| c * gp[k] - s * gq[k]);
            g[q] = std::array::from_fn(|k| s * gp[k] + c * gq[k]);
            for row in &mut v {
                let (vp, vq) = (row[p], row[q]);
                row[p] = c * vp - s * vq;
                row[q] = s * vp + c * vq;
            }
        }
    }
    let root = [0, 1, 2].map(|k| g[k][k].sqrt());
    let s: [[f64; 3]; 3] = std::array::from_fn(|i| {
        std::array::from_fn(|j| (0..3).map(|k| v[i][k] * root[k] * v[j][k]).sum())
    });
    let s_inv: [[f64; 3]; 3] = std::array::from_fn(|i| {
        std::array::from_fn(|j| (0..3).map(|k| v[i][k] / root[k] * v[j][k]).sum())
    });
    let r: [[f64; 3]; 3] = std::array::from_fn(|i| {
        std::array::from_fn(|j| (0..3).map(|k| a(i, k) * s_inv[k][j]).sum())
    });
    let trace = r[0][0] + r[1][1] + r[2][2];
    let big = (0..3)
        .max_by(|&x, &y| r[x][x].total_cmp(&r[y][y]))
        .expect("3");
    let q = if trace > r[big][big] {
        let w = (1.0 + trace).sqrt() / 2.0;
        [
            (r[2][1] - r[1][2]) / (4.0 * w),
            (r[0][2] - r[2][0]) / (4.0 * w),
            (r[1][0] - r[0][1]) / (4.0 * w),
            w,
        ]
    } else {
        let (i, j, k) = (big, (big + 1) % 3, (big + 2) % 3);
        let x = (1.0 + r[i][i] - r[j][j] - r[k][k]).sqrt() / 2.0;
        let mut q = [0.0; 4];
        q[i] = x;
        q[j] = (r[i][j] + r[j][i]) / (4.0 * x);
        q[k] = (r[i][k] + r[k][i]) / (4.0 * x);
        q[3] = (r[k][j] - r[j][k]) / (4.0 * x);
        q
    };
    StretchedBone {
        bone: Bone {
            q: crate::oracle::normalize_quat(q),
            t: [m[0][3], m[1][3], m[2][3]],
        },
        s,
    }
}
