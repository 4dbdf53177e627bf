//! Pose-space deformation at bake time: the Gaussian RBF weights of a set of correctives,
//! solved in `f64` (the run-time half is [`skin_core::psd`]).
//!
//! Each [`Sample`] is a pose of the driving joints (their local rotations, one quaternion
//! `[x, y, z, w]` each) with the weight every corrective target must have there; the rest
//! pose, with all weights 0, is one of them (the caller adds it), so that the correctives
//! fade out away from their poses. With `Φⱼ` the samples' features (each rotation
//! normalised and turned to `w ≥ 0`, as the core's [`skin_core::psd::Rbf::feature`] does),
//! the Gaussian matrix `Kᵢⱼ = exp(−|Φᵢ − Φⱼ|²/2σ²)` is symmetric and positive
//! semi-definite; [`solve`] finds its eigenvalues (Jacobi rotations, [`eigen`]), reports the
//! condition number `λmax/λmin`, and returns `W = K⁻¹·Y` (`Y` the samples' weights, one row
//! a sample) through the eigenvectors, the pseudo-inverse that is the inverse here. A
//! condition over [`CONDITION_LIMIT`] (two samples the same, or closer than σ can tell
//! apart) is an error unless a regularisation `λ ≥ 0` is given: then `W = (K + λI)⁻¹·Y`,
//! which no longer meets the samples exactly (within about `λ·|W|`) but is smooth.
//!
//! ```
//! use skin_host::psd::{solve, Sample};
//! let s = std::f64::consts::FRAC_1_SQRT_2;
//! let samples = [
//!     Sample { rotations: vec![[0.0, 0.0, 0.0, 1.0]], weights: vec![0.0] },
//!     Sample { rotations: vec![[0.0, 0.0, s, s]], weights: vec![1.0] },
//! ];
//! let solved = solve(&samples, 1, 0.5, None).unwrap();
//! assert!(solved.condition > 1.0 && solved.condition < 10.0);
//! assert_eq!(solved.weights.len(), 2);
//! // The same pose twice is singular, unless regularised.
//! let twice = [samples[1].clone(), samples[1].clone()];
//! assert!(solve(&twice, 1, 0.5, None).unwrap_err().to_string().contains("--regularise"));
//! assert!(solve(&twice, 1, 0.5, Some(1e-3)).is_ok());
//! ```

pub mod eigen;
mod error;
pub mod file;

pub use error::PsdError;

use skin_core::num::{Fx, Real};
use skin_core::psd::{MAX_DRIVERS, MAX_SAMPLES};

/// The largest condition number solved without regularisation: the `f64` solve then keeps
/// about six significant digits of `W`, more than the core's `f32` and `I8F24` hold.
pub const CONDITION_LIMIT: f64 = 1e10;

/// One pose-space sample.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// One local rotation `[x, y, z, w]` per driving joint (any length but 0).
    pub rotations: Vec<[f64; 4]>,
    /// One weight per corrective target.
    pub weights: Vec<f64>,
}

/// The solved RBF: what [`skin_core::psd::Rbf::new`] takes, in `f64`.
#[derive(Clone, Debug, PartialEq)]
pub struct Solution {
    /// The samples' features, sample-major (one unit quaternion per driving joint, `w ≥ 0`).
    pub centres: Vec<[f64; 4]>,
    /// `W`, sample-major, one weight per target.
    pub weights: Vec<f64>,
    /// Targets.
    pub targets: usize,
    /// σ.
    pub sigma: f64,
    /// `λmax/λmin` of the Gaussian matrix `K` (∞ when `λmin ≤ 0`).
    pub condition: f64,
    /// The regularisation used (0 without).
    pub lambda: f64,
}

impl Solution {
    /// The centres and weights in a core number format, for [`skin_core::psd::Rbf::new`].
    pub fn lane<R: Real>(&self) -> (Vec<[R; 4]>, Vec<R>) {
        // In range: the centres are unit quaternions, and `solve` bounds every target's
        // Σ|W| by the fixed format's limit.
        let r = |v: f64| R::from_f32(v as f32).unwrap_or(R::ZERO);
        (
            self.centres.iter().map(|c| c.map(r)).collect(),
            self.weights.iter().map(|&w| r(w)).collect(),
        )
    }
}

/// A corrective file resolved against a model and solved: what `skin pose`/`render`
/// evaluate and `skin bake --correctives` stores.
#[derive(Clone, Debug, PartialEq)]
pub struct Correctives {
    /// The corrected mesh (index into the rig's meshes).
    pub mesh: usize,
    /// The driving joints (rig nodes).
    pub drivers: Vec<u16>,
    /// The corrective targets of the mesh, increasing.
    pub targets: Vec<usize>,
    /// The solved RBF.
    pub solution: Solution,
}

/// Driving joints by name: each of `names` as the index of the node of that name among
/// `nodes`, or `#N` for node `N`.
pub fn resolve(names: &[&str], nodes: &[Option<&str>]) -> Result<Vec<u16>, PsdError> {
    names
        .iter()
        .map(|&n| {
            let index = match n.strip_prefix('#').and_then(|i| i.parse::<usize>().ok()) {
                Some(i) if i < nodes.len() => Some(i),
                _ => nodes.iter().position(|j| *j == Some(n)),
            };
            index
                .and_then(|i| u16::try_from(i).ok())
                .ok_or_else(|| PsdError::UnknownJoint(n.to_owned()))
        })
        .collect()
}

/// A rotation normalised and turned to `w ≥ 0`.
fn canonical(q: [f64; 4]) -> Option<[f64; 4]> {
    let len = q.iter().map(|c| c * c).sum::<f64>().sqrt();
    if !len.is_finite() || len < 1e-9 {
        return None;
    }
    let s = if q[3] < 0.0 { -len } else { len };
    Some(q.map(|c| c / s))
}

/// Check the samples and return their features, sample-major.
fn features(samples: &[Sample], targets: usize) -> Result<Vec<[f64; 4]>, PsdError> {
    let drivers = samples.first().map_or(0, |s| s.rotations.len());
    if drivers == 0 || drivers > MAX_DRIVERS {
        return Err(PsdError::Drivers {
            count: drivers,
            limit: MAX_DRIVERS,
        });
    }
    if samples.len() > MAX_SAMPLES {
        return Err(PsdError::Samples {
            count: samples.len(),
            limit: MAX_SAMPLES,
        });
    }
    let mut out = Vec::with_capacity(samples.len() * drivers);
    for (sample, s) in samples.iter().enumerate() {
        for (what, len, expected) in [
            ("rotations", s.rotations.len(), drivers),
            ("weights", s.weights.len(), targets),
        ] {
            if len != expected {
                return Err(PsdError::Shape {
                    sample,
                    what,
                    len,
                    expected,
                });
            }
        }
        if let Some((index, &w)) = s.weights.iter().enumerate().find(|(_, w)| !w.is_finite()) {
            return Err(PsdError::Value {
                sample,
                what: "weight",
                index,
                value: vec![w],
                kind: "number",
            });
        }
        for (index, &q) in s.rotations.iter().enumerate() {
            out.push(canonical(q).ok_or_else(|| PsdError::Value {
                sample,
                what: "rotation",
                index,
                value: q.to_vec(),
                kind: "quaternion of non-zero length",
            })?);
        }
    }
    Ok(out)
}

/// Solve the RBF weights (module docs). `targets` is the number of corrective targets,
/// `regularise` the `λ` of `--regularise`.
pub fn solve(
    samples: &[Sample],
    targets: usize,
    sigma: f64,
    regularise: Option<f64>,
) -> Result<Solution, PsdError> {
    if !(sigma.is_finite() && sigma > 0.0) {
        return Err(PsdError::Sigma(sigma));
    }
    if let Some(l) = regularise.filter(|l| !(l.is_finite() && *l >= 0.0)) {
        return Err(PsdError::Lambda(l));
    }
    if samples.is_empty() {
        return Err(PsdError::Samples {
            count: 0,
            limit: MAX_SAMPLES,
        });
    }
    let centres = features(samples, targets)?;
    let (n, d) = (samples.len(), centres.len() / samples.len());
    let falloff = 1.0 / (2.0 * sigma * sigma);
    let mut k = vec![0.0; n * n];
    for i in 0..n {
        for j in 0..n {
            let d2: f64 = (0..d)
                .flat_map(|a| (0..4).map(move |c| (a, c)))
                .map(|(a, c)| (centres[i * d + a][c] - centres[j * d + a][c]).powi(2))
                .sum();
            k[i * n + j] = (-falloff * d2).exp();
        }
    }
    let e = eigen::symmetric(&k, n);
    let (low, high) = e
        .values
        .iter()
        .fold((f64::INFINITY, 0.0f64), |(l, h), &v| (l.min(v), h.max(v)));
    let condition = if low > 0.0 { high / low } else { f64::INFINITY };
    let lambda = match regularise {
        Some(l) => l,
        None if condition <= CONDITION_LIMIT => 0.0,
        None => {
            return Err(PsdError::Singular {
                condition,
                limit: CONDITION_LIMIT,
            })
        }
    };
    // W = V·diag(1/(λᵢ + λ))·Vᵀ·Y; an eigenvalue that is still not positive (a singular K
    // regularised by λ = 0) is left out, as the pseudo-inverse does.
    let mut weights = vec![0.0; n * targets];
    for (m, &value) in e.values.iter().enumerate() {
        let scale = value + lambda;
        if scale <= high * f64::EPSILON * n as f64 {
            continue;
        }
        for t in 0..targets {
            let along: f64 = (0..n)
                .map(|j| e.vectors[j * n + m] * samples[j].weights[t])
                .sum();
            for i in 0..n {
                weights[i * targets + t] += e.vectors[i * n + m] * along / scale;
            }
        }
    }
    let limit = f64::from(<Fx as Real>::LIMIT);
    for target in 0..targets {
        let sum: f64 = weights
            .iter()
            .skip(target)
            .step_by(targets)
            .map(|w| w.abs())
            .sum();
        if sum > limit {
            return Err(PsdError::Spread { target, sum, limit });
        }
    }
    Ok(Solution {
        centres,
        weights,
        targets,
        sigma,
        condition,
        lambda,
    })
}
