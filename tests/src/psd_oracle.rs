//! An independent `f64` reference of pose-space deformation's RBF: the Gaussian matrix
//! solved by Gaussian elimination with partial pivoting (not the host's eigenvectors), and
//! the interpolant evaluated from its definition, `wₖ(Φ) = Σⱼ Wⱼₖ·exp(−|Φ − Φⱼ|²·c)`.
//!
//! ```
//! use skin_tests::psd_oracle::{evaluate, solve};
//! let centres = [vec![0.0, 0.0, 0.0, 1.0], vec![0.0, 0.0, 1.0, 0.0]];
//! let w = solve(&centres, &[vec![0.0], vec![1.0]], 2.0);
//! assert!((evaluate(&centres, &w, 2.0, &centres[1])[0] - 1.0).abs() < 1e-12);
//! ```

/// `exp(−c·|a − b|²)`.
pub fn gaussian(a: &[f64], b: &[f64], c: f64) -> f64 {
    let d2: f64 = a.iter().zip(b).map(|(x, y)| (x - y) * (x - y)).sum();
    (-c * d2).exp()
}

/// The weights at `phi` (concatenated components) of the RBF with `centres` (one vector a
/// sample), `w` (one row a sample) and falloff `c`.
pub fn evaluate(centres: &[Vec<f64>], w: &[Vec<f64>], c: f64, phi: &[f64]) -> Vec<f64> {
    let targets = w.first().map_or(0, Vec::len);
    let mut out = vec![0.0; targets];
    for (centre, row) in centres.iter().zip(w) {
        let g = gaussian(phi, centre, c);
        for (o, wk) in out.iter_mut().zip(row) {
            *o += wk * g;
        }
    }
    out
}

/// `W` with `K·W = Y`, `Kᵢⱼ = exp(−c·|Φᵢ − Φⱼ|²)`, by elimination with partial pivoting.
pub fn solve(centres: &[Vec<f64>], y: &[Vec<f64>], c: f64) -> Vec<Vec<f64>> {
    let n = centres.len();
    let mut a: Vec<Vec<f64>> = (0..n)
        .map(|i| {
            let mut row: Vec<f64> = (0..n)
                .map(|j| gaussian(&centres[i], &centres[j], c))
                .collect();
            row.extend(&y[i]);
            row
        })
        .collect();
    for col in 0..n {
        let pivot = (col..n)
            .max_by(|&p, &q| a[p][col].abs().total_cmp(&a[q][col].abs()))
            .expect("a row");
        a.swap(col, pivot);
        for r in 0..n {
            if r != col {
                let f = a[r][col] / a[col][col];
                let pivot_row = a[col].clone();
                for (x, p) in a[r].iter_mut().zip(&pivot_row).skip(col) {
                    *x -= f * p;
                }
            }
        }
    }
    (0..n)
        .map(|i| a[i][n..].iter().map(|v| v / a[i][i]).collect())
        .collect()
}
