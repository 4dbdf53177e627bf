//! Eigenvalues and eigenvectors of a symmetric matrix by cyclic Jacobi rotations, in `f64`:
//! small (at most a few dozen rows), and accurate to the matrix's rounding for every
//! eigenvalue, the small ones included, which the condition number needs.

/// A symmetric matrix's eigenvalues and (as columns of `vectors`, row-major `n × n`) its
/// orthonormal eigenvectors.
#[derive(Clone, Debug, PartialEq)]
pub struct Eigen {
    /// Eigenvalues, in no particular order.
    pub values: Vec<f64>,
    /// Row-major: `vectors[i·n + k]` is component `i` of eigenvector `k`.
    pub vectors: Vec<f64>,
}

/// Rotate until the off-diagonal part is below 10⁻¹⁵ of the matrix's norm (or 100 sweeps,
/// far more than Jacobi's quadratic convergence needs).
///
/// ```
/// use skin_host::psd::eigen::symmetric;
/// let e = symmetric(&[2.0, 1.0, 1.0, 2.0], 2);
/// let mut v = e.values.clone();
/// v.sort_by(f64::total_cmp);
/// assert!((v[0] - 1.0).abs() < 1e-14 && (v[1] - 3.0).abs() < 1e-14);
/// ```
pub fn symmetric(matrix: &[f64], n: usize) -> Eigen {
    let mut a = matrix.to_vec();
    let mut v = vec![0.0; n * n];
    for i in 0..n {
        v[i * n + i] = 1.0;
    }
    let norm: f64 = a.iter().map(|x| x * x).sum::<f64>().sqrt();
    for _ in 0..100 {
        let off: f64 = (0..n)
            .flat_map(|i| (0..n).filter(move |&j| j != i).map(move |j| (i, j)))
            .map(|(i, j)| a[i * n + j] * a[i * n + j])
            .sum::<f64>()
            .sqrt();
        if off <= 1e-15 * norm {
            break;
        }
        for p in 0..n {
            for q in p + 1..n {
                let apq = a[p * n + q];
                if apq == 0.0 {
                    continue;
                }
                // The rotation that zeroes a[p][q].
                let theta = (a[q * n + q] - a[p * n + p]) / (2.0 * apq);
                let t = theta.signum() / (theta.abs() + (theta * theta + 1.0).sqrt());
                let t = if theta == 0.0 { 1.0 } else { t };
                let c = 1.0 / (t * t + 1.0).sqrt();
                let s = t * c;
                for k in 0..n {
                    let (akp, akq) = (a[k * n + p], a[k * n + q]);
                    a[k * n + p] = c * akp - s * akq;
                    a[k * n + q] = s * akp + c * akq;
                }
                for k in 0..n {
                    let (apk, aqk) = (a[p * n + k], a[q * n + k]);
                    a[p * n + k] = c * apk - s * aqk;
                    a[q * n + k] = s * apk + c * aqk;
                }
                for k in 0..n {
                    let (vkp, vkq) = (v[k * n + p], v[k * n + q]);
                    v[k * n + p] = c * vkp - s * vkq;
                    v[k * n + q] = s * vkp + c * vkq;
                }
            }
        }
    }
    Eigen {
        values: (0..n).map(|i| a[i * n + i]).collect(),
        vectors: v,
    }
}
