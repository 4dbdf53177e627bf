//! Why correctives could not be solved, each with a one-line message.

/// Why a set of correctives could not be solved.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum PsdError {
    /// σ is not finite and positive.
    #[error("corrective width sigma = {0}: it must be a finite number > 0")]
    Sigma(f64),
    /// The regularisation is not finite and ≥ 0.
    #[error("corrective regularisation lambda = {0}: it must be a finite number >= 0")]
    Lambda(f64),
    /// A driving joint names no joint of the skeleton.
    #[error("corrective driving joint '{0}' is not a node of the model")]
    UnknownJoint(String),
    /// No driving joint, or more than the core evaluates.
    #[error("correctives with {count} driving joints: they need 1 to {limit}")]
    Drivers {
        /// Given.
        count: usize,
        /// The core's limit.
        limit: usize,
    },
    /// No sample, or more than the core evaluates.
    #[error(
        "correctives with {count} pose samples (the rest pose included): 1 to {limit} allowed"
    )]
    Samples {
        /// Given.
        count: usize,
        /// The core's limit.
        limit: usize,
    },
    /// A sample gives a rotation per driving joint or a weight per target too few or many.
    #[error("corrective pose {sample}: {what} has {len} entries, {expected} expected")]
    Shape {
        /// The sample.
        sample: usize,
        /// `"rotations"` or `"weights"`.
        what: &'static str,
        /// Given.
        len: usize,
        /// Expected.
        expected: usize,
    },
    /// A rotation or weight is not finite, or a rotation has no length.
    #[error("corrective pose {sample}: {what} {index} is {value:?}: not a finite {kind}")]
    Value {
        /// The sample.
        sample: usize,
        /// `"rotation"` or `"weight"`.
        what: &'static str,
        /// Which rotation or weight.
        index: usize,
        /// Its value(s).
        value: Vec<f64>,
        /// What it should be.
        kind: &'static str,
    },
    /// The Gaussian matrix of the samples cannot be inverted reliably.
    #[error(
        "corrective poses make a singular RBF system (condition number {condition:.3e}, over \
         the limit {limit:.0e}): two poses are the same or too close for sigma; give \
         --regularise LAMBDA to solve it anyway"
    )]
    Singular {
        /// λmax/λmin of the Gaussian matrix (∞ when λmin ≤ 0).
        condition: f64,
        /// The limit.
        limit: f64,
    },
    /// The solved weights are beyond what the core's number format holds.
    #[error(
        "corrective target {target}: the RBF weights' magnitudes add up to {sum:.3e}, over \
         the limit {limit}: widen sigma, or regularise"
    )]
    Spread {
        /// The target.
        target: usize,
        /// `Σⱼ |Wⱼₖ|`.
        sum: f64,
        /// The limit.
        limit: f64,
    },
}
