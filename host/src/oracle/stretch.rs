//! Kavan et al.'s split of a joint with scale or shear, in `f64` for the oracle: the
//! polar decomposition `A = R·S` of a joint matrix's linear part by the eigenvectors of
//! `AᵀA` (cyclic Jacobi rotations), `S = V·√Λ·Vᵀ` and `R = A·S⁻¹` — a method of its own,
//! apart from skin-core's Newton iteration, so that the two check each other.
//!
//! ```
//! use skin_host::oracle::stretch::{cofactors, polar};
//! // A rotation of 90° about z times a shear-and-scale S.
//! let s = [[2.0, 0.5, 0.0], [0.5, 1.0, 0.25], [0.0, 0.25, 0.5]];
//! let r = [[0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]];
//! let a: [[f64; 3]; 3] =
//!     std::array::from_fn(|i| std::array::from_fn(|j| (0..3).map(|k| r[i][k] * s[k][j]).sum()));
//! let (got_r, got_s) = polar(&a).unwrap();
//! for i in 0..3 {
//!     for j in 0..3 {
//!         assert!((got_r[i][j] - r[i][j]).abs() < 1e-12 && (got_s[i][j] - s[i][j]).abs() < 1e-12);
//!     }
//! }
//! // The cofactors of the identity are the identity.
//! let i3 = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
//! assert_eq!(cofactors(&i3), i3);
//! assert!(polar(&[[0.0; 3]; 3]).is_none());
//! ```

/// A 3×3 matrix, rows first.
pub type M3 = [[f64; 3]; 3];

/// `a · b`.
fn mul(a: &M3, b: &M3) -> M3 {
    std::array::from_fn(|i| std::array::from_fn(|j| (0..3).map(|k| a[i][k] * b[k][j]).sum()))
}

/// The eigenvalues of the symmetric `g` and its eigenvectors (the columns of the second),
/// by cyclic Jacobi rotations until the off-diagonal entries vanish against the diagonal.
fn eigen(mut g: M3) -> ([f64; 3], M3) {
    let mut v = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
    for _ in 0..32 {
        let diag = g[0][0].abs() + g[1][1].abs() + g[2][2].abs();
        if g[0][1].abs() + g[0][2].abs() + g[1][2].abs() <= 1e-18 * diag {
            break;
        }
        for (p, q) in [(0, 1), (0, 2), (1, 2)] {
            if g[p][q] == 0.0 {
                continue;
            }
            // The rotation in the (p, q) plane that zeroes g[p][q].
            let theta = (g[q][q] - g[p][p]) / (2.0 * g[p][q]);
            let t = theta.signum() / (theta.abs() + (theta * theta + 1.0).sqrt());
            let c = 1.0 / (t * t + 1.0).sqrt();
            let s = t * c;
            for row in g.iter_mut().chain(v.iter_mut()) {
                let (kp, kq) = (row[p], row[q]);
                row[p] = c * kp - s * kq;
                row[q] = s * kp + c * kq;
            }
            let (rp, rq) = (g[p], g[q]);
            g[p] = std::array::from_fn(|k| c * rp[k] - s * rq[k]);
            g[q] = std::array::from_fn(|k| s * rp[k] + c * rq[k]);
        }
    }
    ([g[0][0], g[1][1], g[2][2]], v)
}

/// `V · diag(d) · Vᵀ`.
fn compose(v: &M3, d: [f64; 3]) -> M3 {
    std::array::from_fn(|i| std::array::from_fn(|j| (0..3).map(|k| v[i][k] * d[k] * v[j][k]).sum()))
}

/// `a = R·S`: the rotation `R` and the symmetric positive definite `S`; `None` for a
/// matrix that is not invertible or mirrors (no rotation `R` then).
pub fn polar(a: &M3) -> Option<(M3, M3)> {
    let det = (0..3).map(|j| a[0][j] * cofactors(a)[0][j]).sum::<f64>();
    if !det.is_finite() || det <= 0.0 {
        return None;
    }
    let at: M3 = std::array::from_fn(|i| std::array::from_fn(|j| a[j][i]));
    let (lambda, v) = eigen(mul(&at, a));
    let root = lambda.map(|l| l.max(0.0).sqrt());
    if root.contains(&0.0) {
        return None;
    }
    let s = compose(&v, root);
    let r = mul(a, &compose(&v, root.map(|r| 1.0 / r)));
    Some((r, s))
}

/// The cofactor matrix of `s` (its inverse transpose times its determinant): the normals'
/// matrix of a stretch, up to the length the renormalisation drops.
pub fn cofactors(s: &M3) -> M3 {
    std::array::from_fn(|i| {
        std::array::from_fn(|j| {
            let (i1, i2, j1, j2) = ((i + 1) % 3, (i + 2) % 3, (j + 1) % 3, (j + 2) % 3);
            s[i1][j1] * s[i2][j2] - s[i1][j2] * s[i2][j1]
        })
    })
}
