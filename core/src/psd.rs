//! Pose-space deformation: corrective morph-target weights from the pose, by Gaussian
//! radial basis functions over pose-space samples (Lewis, Cordner and Fong, 2000).
//!
//! A corrective is a morph target (sculpted in bind space, applied before skinning like any
//! other) whose weight comes from the pose instead of a clip. The pose is seen through a
//! few **driving joints**: the feature `Φ` is their local rotations, each a unit quaternion
//! `[x, y, z, w]` turned to the hemisphere `w ≥ 0`, so that `q` and `−q` (one rotation) are
//! one point. Each of `n` samples is a feature `Φⱼ` with the weights the targets must have
//! there; the host solves, in `f64`, the `n × t` matrix `W` that makes
//!
//! ```text
//! wₖ(Φ) = Σⱼ Wⱼₖ · exp(−|Φ − Φⱼ|² / 2σ²)
//! ```
//!
//! meet every sample's weights (`skin_host::psd`). This module evaluates it at run time,
//! `no_std` and allocation-free, in `f32` or in [`Fx`]: [`Rbf::feature`] reads `Φ` from a
//! pose's local transforms, [`Rbf::weights`] writes the targets' weights, which then go to
//! [`crate::morph::Active`] as a clip's would.
//!
//! **Accuracy** against the exact value of the same formula on the lane's own `Φ`, centres,
//! `W` and falloff `c = 1/2σ²` ([`Rbf::falloff`]), per target `k`, with `S = Σⱼ |Wⱼₖ|` and
//! `D` driving joints ([`Rbf::error_bound`]):
//!
//! - `f32` (`ε = 2⁻²⁴`): the squared distance is a sum of `4D` squares, within `(4D + 1)ε`
//!   of itself relative, so `x = c·d²` is within `(4D + 2)ε·x`; `e⁻ˣ` moves by that times
//!   `x·e⁻ˣ ≤ 1/e`, and `expf` adds an ulp: each Gaussian within `(2D + 3)ε`. Each product
//!   `Wⱼₖ·gⱼ` rounds once more and the running sum of `n` terms at most `n` times, each by
//!   `ε·S` at most: in all `S·(2D + n + 4)·ε`.
//! - [`Fx`] (`I8F24`): the squared distance is exact (64-bit integers), `x = c·d²` is
//!   rounded once to 2⁻²⁴ (error ≤ 2⁻²⁵, and `e⁻ˣ` has slope ≤ 1), the exponential
//!   `2^(−x·log₂e)` is a shift and a degree-10 polynomial in `Q30` (truncation under
//!   5·10⁻¹⁰, roundings under 2⁻²⁷) rounded once to 2⁻²⁴ (≤ 2⁻²⁵); below `e⁻¹⁸ < 2⁻²⁵` it
//!   is 0. So each Gaussian is within `3·2⁻²⁵`; the sum `Σ Wⱼₖ·gⱼ` is exact in 64 bits and
//!   rounded once (2⁻²⁵), and its conversion to `f32` for the morph weights is within
//!   `2⁻²⁴·S`: in all `S·(3·2⁻²⁵ + 2⁻²⁴) + 2⁻²⁵`.
//!
//! Both are far below what a morph weight needs (the fixed lane rounds weights to 2⁻¹⁴).
//! The error of `Φ` itself (the pose's sampled rotations) moves `wₖ` by at most
//! `S·|δΦ|·max|∂g/∂Φ| = S·|δΦ|·√(c/e)`.
//!
//! ```
//! use skin_core::psd::{Feature, Rbf};
//! use skin_core::transform::Transform;
//! // One driving joint (joint 1), two samples: the rest pose (target weight 0) and a
//! // quarter turn about Z (weight 1), with the weights the host solved for σ = 0.5.
//! let s = core::f32::consts::FRAC_1_SQRT_2;
//! let centres = [[0.0, 0.0, 0.0, 1.0], [0.0, 0.0, s, s]];
//! let k = (-(2.0 - 2.0 * s) / (2.0 * 0.25f32)).exp(); // the Gaussian between the samples
//! let weights = [-k / (1.0 - k * k), 1.0 / (1.0 - k * k)];
//! let rbf = Rbf::new(&[1], &centres, &weights, 1, 0.5, 2)?;
//! let mut pose = [Transform::<f32>::IDENTITY; 2];
//! pose[1].rotation.z = s;
//! pose[1].rotation.w = s;
//! let phi: Feature<f32> = rbf.feature(&pose)?;
//! let mut w = [0.0f32; 1];
//! rbf.weights(&phi, &mut w)?;
//! assert!((w[0] - 1.0).abs() < 1e-5);
//! rbf.weights(&rbf.feature(&[Transform::IDENTITY; 2])?, &mut w)?;
//! assert!(w[0].abs() < 1e-5);
//! # Ok::<(), skin_core::psd::PsdError>(())
//! ```

use core::fmt;

use crate::num::{Fx, Real};
use crate::transform::Transform;

/// The most driving joints one RBF reads: a feature of 32 numbers, whose squared distances
/// the fixed lane sums exactly in 64 bits.
pub const MAX_DRIVERS: usize = 8;

/// The most pose-space samples: the solve is `n × n` on the host, and each frame evaluates
/// `n` Gaussians.
pub const MAX_SAMPLES: usize = 64;

/// The arithmetic of the RBF in a number format.
pub trait RbfReal: Real {
    /// `exp(−c·|a − b|²)` over the concatenated components.
    fn gaussian(a: &[[Self; 4]], b: &[[Self; 4]], c: Self) -> Self;
    /// `Σ wⱼ·gⱼ` as `f32`.
    fn weighted_sum(terms: impl Iterator<Item = (Self, Self)>) -> f32;
    /// The bound per target for `sum` = `Σⱼ |Wⱼₖ|` (module docs).
    fn bound(sum: f32, drivers: usize, samples: usize) -> f32;
}

impl RbfReal for f32 {
    fn gaussian(a: &[[f32; 4]], b: &[[f32; 4]], c: f32) -> f32 {
        let mut d2 = 0.0f32;
        for (p, q) in a.iter().zip(b) {
            for i in 0..4 {
                let d = p[i] - q[i];
                d2 += d * d;
            }
        }
        libm::expf(-c * d2)
    }
    fn weighted_sum(terms: impl Iterator<Item = (f32, f32)>) -> f32 {
        terms.fold(0.0, |s, (w, g)| s + w * g)
    }
    fn bound(sum: f32, drivers: usize, samples: usize) -> f32 {
        sum * (2 * drivers + samples + 4) as f32 * f32::EPSILON / 2.0
    }
}

/// `ln 2` in `Q30`.
const LN2_Q30: i64 = 744_261_118;
/// `log₂ e` in `Q30`.
const LOG2E_Q30: i64 = 1_549_082_005;
/// `x` (in 2⁻²⁴ units) from which `e⁻ˣ < 2⁻²⁵` rounds to 0.
const CUTOFF: i128 = 18 << 24;

/// `e⁻ˣ` for `x ≥ 0` given in 2⁻²⁴ units, as `Fx` bits (module docs).
fn exp_neg_fx(x: i64) -> i32 {
    // y = x·log₂e in Q30: 2^(−y) = 2^(−n)·2^(−f).
    let y = (i128::from(x) * i128::from(LOG2E_Q30) + (1 << 23)) >> 24;
    let y = y as i64;
    let (n, f) = (y >> 30, y & ((1 << 30) - 1));
    // 2^(−f) = e^(−t), t = f·ln 2 ∈ [0, ln 2): Horner on the Taylor series to degree 10,
    // 1 − t(1 − t/2(1 − t/3(…))).
    let t = (f * LN2_Q30 + (1 << 29)) >> 30;
    let one = 1i64 << 30;
    let mut p = one;
    for k in (1..=10).rev() {
        p = one - ((t * p + (1 << 29)) >> 30) / k;
    }
    // Q30 → 2⁻²⁴ units, shifted by n more.
    let shift = 6 + n;
    if shift >= 62 {
        return 0;
    }
    ((p + ((1i64 << shift) >> 1)) >> shift) as i32
}

impl RbfReal for Fx {
    fn gaussian(a: &[[Fx; 4]], b: &[[Fx; 4]], c: Fx) -> Fx {
        // |a − b|² exactly, in 2⁻⁴⁸ units: at most 4·32 = 2⁷ times 2⁴⁸.
        let mut d2 = 0i64;
        for (p, q) in a.iter().zip(b) {
            for i in 0..4 {
                let d = i64::from(p[i].to_bits()) - i64::from(q[i].to_bits());
                d2 += d * d;
            }
        }
        // x = c·d² in 2⁻²⁴ units, rounded once.
        let x = (i128::from(d2) * i128::from(c.to_bits()) + (1i128 << 47)) >> 48;
        if x >= CUTOFF {
            return Fx::ZERO;
        }
        Fx::from_bits(exp_neg_fx(x as i64))
    }
    fn weighted_sum(terms: impl Iterator<Item = (Fx, Fx)>) -> f32 {
        // Exact in 2⁻⁴⁸ units (each term below 2⁶²/64 for |W| < 128, g ≤ 1), rounded once.
        let s: i64 = terms
            .map(|(w, g)| i64::from(w.to_bits()) * i64::from(g.to_bits()))
            .sum();
        Fx::from_bits(((s + (1 << 23)) >> 24) as i32).to_f32()
    }
    fn bound(sum: f32, _drivers: usize, _samples: usize) -> f32 {
        const STEP: f32 = 1.0 / 16_777_216.0;
        sum * (1.5 * STEP + STEP) + 0.5 * STEP
    }
}

/// Why an RBF cannot be built or evaluated.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum PsdError {
    /// No driving joint, or more than [`MAX_DRIVERS`].
    Drivers {
        /// How many were given.
        count: usize,
    },
    /// A driving joint is not a joint of the skeleton.
    Joint {
        /// The joint index given.
        joint: u16,
        /// The skeleton's joints.
        joints: usize,
    },
    /// No sample, more than [`MAX_SAMPLES`], or centres and weights that do not match.
    Samples {
        /// Centres given (one per sample and driving joint).
        centres: usize,
        /// Weights given (one per sample and target).
        weights: usize,
        /// Targets.
        targets: usize,
    },
    /// σ is not finite and positive, or its falloff `1/2σ²` is beyond the format.
    Sigma {
        /// σ.
        sigma: f32,
    },
    /// A value is not finite (`what` names it).
    NotFinite {
        /// `"weight"` or `"rotation"`.
        what: &'static str,
        /// Its index (sample-major).
        index: usize,
    },
    /// A centre is not a quaternion of components in [−1, 1] (or is not finite).
    Centre {
        /// Its index (sample-major).
        index: usize,
        /// Its components.
        value: [f32; 4],
    },
    /// A target's `Σⱼ |Wⱼₖ|` is beyond the format's range for its sum.
    Spread {
        /// The target.
        target: usize,
        /// The sum.
        sum: f32,
        /// The limit.
        limit: f32,
    },
    /// The output slice is not one weight a target.
    Output {
        /// Targets.
        targets: usize,
        /// Length given.
        len: usize,
    },
}

impl fmt::Display for PsdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::Drivers { count } => write!(
                f,
                "corrective RBF with {count} driving joints: it needs 1 to {MAX_DRIVERS}"
            ),
            Self::Joint { joint, joints } => write!(
                f,
                "corrective driving joint {joint} is not one of the skeleton's {joints} joints"
            ),
            Self::Samples {
                centres,
                weights,
                targets,
            } => write!(
                f,
                "corrective RBF with {centres} centres and {weights} weights for {targets} \
                 targets: it needs 1 to {MAX_SAMPLES} samples, each a centre per driving \
                 joint and a weight per target"
            ),
            Self::Sigma { sigma } => write!(
                f,
                "corrective RBF width σ = {sigma}: it must be finite and positive, with \
                 1/2σ² in the number format's range"
            ),
            Self::NotFinite { what, index } => {
                write!(f, "corrective RBF {what} {index} is not finite")
            }
            Self::Centre { index, value } => write!(
                f,
                "corrective RBF centre {index} is {value:?}: a rotation's components must be \
                 finite and within [-1, 1]"
            ),
            Self::Spread { target, sum, limit } => write!(
                f,
                "corrective target {target}: its RBF weights' magnitudes add up to {sum}, \
                 beyond the format's limit of {limit}"
            ),
            Self::Output { targets, len } => write!(
                f,
                "corrective weights into {len} slots for {targets} targets"
            ),
        }
    }
}

impl core::error::Error for PsdError {}

/// A pose's feature `Φ`: the driving joints' local rotations, `w ≥ 0`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Feature<R> {
    values: [[R; 4]; MAX_DRIVERS],
    len: usize,
}

impl<R: Copy> Feature<R> {
    /// One quaternion `[x, y, z, w]` per driving joint.
    pub fn values(&self) -> &[[R; 4]] {
        &self.values[..self.len]
    }
}

/// The RBF of one set of correctives, validated (see the module docs).
#[derive(Clone, Copy, Debug)]
pub struct Rbf<'a, R: RbfReal> {
    drivers: &'a [u16],
    centres: &'a [[R; 4]],
    weights: &'a [R],
    targets: usize,
    falloff: R,
    joints: usize,
}

impl<'a, R: RbfReal> Rbf<'a, R> {
    /// An RBF over `drivers` (joint indices below `joints`), with `centres` (sample-major:
    /// sample `j`'s driver `d` at `j·D + d`, each `w ≥ 0` as [`Rbf::feature`] makes them),
    /// `weights` `W` (sample-major, `targets` a sample) and width `sigma`.
    pub fn new(
        drivers: &'a [u16],
        centres: &'a [[R; 4]],
        weights: &'a [R],
        targets: usize,
        sigma: f32,
        joints: usize,
    ) -> Result<Self, PsdError> {
        if drivers.is_empty() || drivers.len() > MAX_DRIVERS {
            return Err(PsdError::Drivers {
                count: drivers.len(),
            });
        }
        if let Some(&joint) = drivers.iter().find(|&&j| usize::from(j) >= joints) {
            return Err(PsdError::Joint { joint, joints });
        }
        let samples = centres.len() / drivers.len();
        if samples == 0
            || samples > MAX_SAMPLES
            || centres.len() % drivers.len() != 0
            || targets == 0
            || weights.len() != samples * targets
        {
            return Err(PsdError::Samples {
                centres: centres.len(),
                weights: weights.len(),
                targets,
            });
        }
        let falloff = falloff::<R>(sigma)?;
        if let Some(index) = weights.iter().position(|w| !w.is_finite()) {
            return Err(PsdError::NotFinite {
                what: "weight",
                index,
            });
        }
        if let Some(index) = centres.iter().position(|c| !valid_centre(c)) {
            return Err(PsdError::Centre {
                index,
                value: centres[index].map(R::to_f32),
            });
        }
        let rbf = Rbf {
            drivers,
            centres,
            weights,
            targets,
            falloff,
            joints,
        };
        for target in 0..targets {
            let sum = rbf.spread(target);
            if sum.is_nan() || sum > R::LIMIT {
                return Err(PsdError::Spread {
                    target,
                    sum,
                    limit: R::LIMIT,
                });
            }
        }
        Ok(rbf)
    }

    /// `Σⱼ |Wⱼₖ|` of target `k`.
    fn spread(&self, k: usize) -> f32 {
        self.weights
            .iter()
            .skip(k)
            .step_by(self.targets)
            .map(|w| w.to_f32().abs())
            .sum()
    }

    /// Targets.
    pub fn targets(&self) -> usize {
        self.targets
    }

    /// Samples.
    pub fn samples(&self) -> usize {
        self.centres.len() / self.drivers.len()
    }

    /// The falloff `c = 1/2σ²` as the lane holds it.
    pub fn falloff(&self) -> R {
        self.falloff
    }

    /// The bound of [`Rbf::weights`]'s error for target `k` (module docs).
    pub fn error_bound(&self, k: usize) -> f32 {
        R::bound(self.spread(k), self.drivers.len(), self.samples())
    }

    /// The feature of `pose` (local transforms, one a joint): each driving joint's rotation,
    /// negated where `w < 0`, components clamped to [−1, 1]. A pose shorter than the skeleton is an error, as is a rotation
    /// that is not finite.
    pub fn feature(&self, pose: &[Transform<R>]) -> Result<Feature<R>, PsdError> {
        if pose.len() < self.joints {
            return Err(PsdError::Joint {
                joint: self.drivers.iter().copied().max().unwrap_or(0),
                joints: pose.len(),
            });
        }
        Feature::of(pose, self.drivers.iter().copied())
    }

    /// The targets' weights at `phi` into `out` (one a target).
    pub fn weights(&self, phi: &Feature<R>, out: &mut [f32]) -> Result<(), PsdError> {
        if out.len() != self.targets || phi.len != self.drivers.len() {
            return Err(PsdError::Output {
                targets: self.targets,
                len: out.len(),
            });
        }
        let d = phi.len;
        let column = |k| self.weights.iter().skip(k).step_by(self.targets).copied();
        evaluate(phi, self.falloff, self.centres.chunks_exact(d), column, out);
        Ok(())
    }
}

/// The falloff `c = 1/2σ²` of width `sigma` in `R`: [`PsdError::Sigma`] unless σ is finite
/// and positive and `c` is positive and within `R`'s range.
pub fn falloff<R: Real>(sigma: f32) -> Result<R, PsdError> {
    let c = 1.0 / (2.0 * sigma * sigma);
    match (sigma > 0.0 && c.is_finite())
        .then(|| R::from_f32(c).ok())
        .flatten()
    {
        Some(c) if c > R::ZERO => Ok(c),
        _ => Err(PsdError::Sigma { sigma }),
    }
}

/// Whether `c` can be an RBF's centre: four components, finite and within [−1, 1].
pub fn valid_centre<R: Real>(c: &[R; 4]) -> bool {
    c.iter().all(|c| c.is_finite() && c.to_f32().abs() <= 1.0)
}

impl<R: Real> Feature<R> {
    /// The feature of `pose` (local transforms) read through `drivers` (indices into it):
    /// each driving joint's rotation, negated where `w < 0`, components clamped to
    /// [−1, 1]. [`PsdError::Joint`] for a driver beyond `pose`, [`PsdError::Drivers`] for
    /// none or more than [`MAX_DRIVERS`], [`PsdError::NotFinite`] for a rotation that is not
    /// finite.
    pub fn of(
        pose: &[Transform<R>],
        drivers: impl IntoIterator<Item = u16>,
    ) -> Result<Self, PsdError> {
        let mut drivers = drivers.into_iter();
        let mut values = [[R::ZERO; 4]; MAX_DRIVERS];
        let mut len = 0;
        for (d, (v, joint)) in values.iter_mut().zip(drivers.by_ref()).enumerate() {
            len += 1;
            let Some(t) = pose.get(usize::from(joint)) else {
                return Err(PsdError::Joint {
                    joint,
                    joints: pose.len(),
                });
            };
            let q = t.rotation;
            let q = [q.x, q.y, q.z, q.w];
            if q.iter().any(|c| !c.is_finite()) {
                return Err(PsdError::NotFinite {
                    what: "rotation",
                    index: d,
                });
            }
            let q = if q[3] < R::ZERO { q.map(|c| -c) } else { q };
            // A unit quaternion's components are within [−1, 1]; rounding may pass it by a
            // unit, which the fixed lane's exact squares must not see.
            *v = q.map(|c| {
                if c > R::ONE {
                    R::ONE
                } else if c < -R::ONE {
                    -R::ONE
                } else {
                    c
                }
            });
        }
        let more = drivers.count();
        if len == 0 || more > 0 {
            return Err(PsdError::Drivers { count: len + more });
        }
        Ok(Feature { values, len })
    }

    /// A feature of the given quaternions (at most [`MAX_DRIVERS`]; the rest are left
    /// out), as stored: a sample's centre read from an asset.
    pub fn from_values(values: impl Iterator<Item = [R; 4]>) -> Self {
        let mut f = Feature {
            values: [[R::ZERO; 4]; MAX_DRIVERS],
            len: 0,
        };
        for (v, q) in f.values.iter_mut().zip(values) {
            *v = q;
            f.len += 1;
        }
        f
    }
}

impl<R> AsRef<[[R; 4]]> for Feature<R> {
    fn as_ref(&self) -> &[[R; 4]] {
        &self.values[..self.len]
    }
}

/// The weights at `phi` into `out` (one a target) of the RBF with falloff `c`, the
/// samples' `centres` (each one quaternion per driving joint, at most [`MAX_SAMPLES`] taken)
/// and `column(k)`, target `k`'s weights `Wⱼₖ` in sample order: the evaluation
/// [`Rbf::weights`] runs, for RBFs stored elsewhere than in slices (an asset's bytes).
/// The caller has validated them as [`Rbf::new`] does; the error bound is the module's.
pub fn evaluate<R, S, I>(
    phi: &Feature<R>,
    c: R,
    centres: impl Iterator<Item = S>,
    column: impl Fn(usize) -> I,
    out: &mut [f32],
) where
    R: RbfReal,
    S: AsRef<[[R; 4]]>,
    I: Iterator<Item = R>,
{
    let mut g = [R::ZERO; MAX_SAMPLES];
    let mut n = 0;
    for (g, centre) in g.iter_mut().zip(centres) {
        *g = R::gaussian(phi.values(), centre.as_ref(), c);
        n += 1;
    }
    let g = &g[..n];
    for (k, o) in out.iter_mut().enumerate() {
        *o = R::weighted_sum(column(k).zip(g.iter().copied()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_exponential_is_within_its_bound() {
        let mut worst = 0.0f64;
        for i in 0..20_000 {
            let x = i as f64 * 18.0 / 20_000.0 + 0.37e-4;
            let bits = (x * 16_777_216.0).round() as i64;
            let exact = (-(bits as f64) / 16_777_216.0).exp();
            let got = f64::from(exp_neg_fx(bits)) / 16_777_216.0;
            worst = worst.max((got - exact).abs());
        }
        // One rounding to 2⁻²⁴ and the polynomial's: under 2⁻²⁴ in all.
        assert!(worst <= 1.0 / 16_777_216.0, "{worst}");
        assert!(worst > 0.0);
        assert_eq!(exp_neg_fx(0), 1 << 24);
    }

    #[test]
    fn bad_input_is_refused_by_name() {
        let c = [[0.0f32, 0.0, 0.0, 1.0]];
        let w = [1.0f32];
        assert_eq!(
            Rbf::new(&[], &c, &w, 1, 1.0, 2).err(),
            Some(PsdError::Drivers { count: 0 })
        );
        assert_eq!(
            Rbf::new(&[2], &c, &w, 1, 1.0, 2).err(),
            Some(PsdError::Joint {
                joint: 2,
                joints: 2
            })
        );
        for sigma in [0.0, -1.0, f32::NAN] {
            assert!(matches!(
                Rbf::new(&[1], &c, &w, 1, sigma, 2),
                Err(PsdError::Sigma { .. })
            ));
        }
        // σ = 0.05: 1/2σ² = 200, beyond I8F24.
        let cf = [[Fx::ZERO, Fx::ZERO, Fx::ZERO, Fx::ONE]];
        let wf = [Fx::ONE];
        assert!(matches!(
            Rbf::new(&[1], &cf, &wf, 1, 0.05, 2),
            Err(PsdError::Sigma { .. })
        ));
        let nan = [f32::NAN];
        assert_eq!(
            Rbf::new(&[1], &c, &nan, 1, 1.0, 2).err(),
            Some(PsdError::NotFinite {
                what: "weight",
                index: 0
            })
        );
        assert!(matches!(
            Rbf::new(&[1], &c, &w, 2, 1.0, 2),
            Err(PsdError::Samples { .. })
        ));
        let rbf = Rbf::new(&[1], &c, &w, 1, 1.0, 2).unwrap();
        assert!(rbf.feature(&[Transform::IDENTITY]).is_err());
        let phi = rbf.feature(&[Transform::IDENTITY; 2]).unwrap();
        assert_eq!(
            rbf.weights(&phi, &mut [0.0; 2]),
            Err(PsdError::Output { targets: 1, len: 2 })
        );
    }
}
