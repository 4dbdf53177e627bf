//! Lattice free-form deformation in `f64`, from the definition: `p' = Σ C(l,i)C(m,j)C(n,k)
//! sⁱ(1−s)ˡ⁻ⁱ tʲ(1−t)ᵐ⁻ʲ uᵏ(1−u)ⁿ⁻ᵏ P_ijk` over the local coordinates of `p` in the box,
//! summed in one flat loop (the core nests its sums); points outside the box stay.

fn binomial(n: u8, k: u8) -> f64 {
    (0..k).fold(1.0, |acc, i| acc * f64::from(n - i) / f64::from(i + 1))
}

/// `p` moved by the lattice of `degree` over `min`–`max` whose control point `[i, j, k]` is
/// `point([i, j, k])`.
pub fn deform(
    min: [f64; 3],
    max: [f64; 3],
    degree: [u8; 3],
    point: impl Fn([u8; 3]) -> [f64; 3],
    p: [f64; 3],
) -> [f64; 3] {
    if (0..3).any(|a| p[a] < min[a] || p[a] > max[a]) {
        return p;
    }
    let local: Vec<f64> = (0..3)
        .map(|a| (p[a] - min[a]) / (max[a] - min[a]))
        .collect();
    let b = |a: usize, i: u8| {
        let (d, x) = (degree[a], local[a]);
        binomial(d, i) * x.powi(i32::from(i)) * (1.0 - x).powi(i32::from(d - i))
    };
    let mut out = [0.0; 3];
    for i in 0..=degree[0] {
        for j in 0..=degree[1] {
            for k in 0..=degree[2] {
                let w = b(0, i) * b(1, j) * b(2, k);
                let q = point([i, j, k]);
                for a in 0..3 {
                    out[a] += w * q[a];
                }
            }
        }
    }
    out
}
