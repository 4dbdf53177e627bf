//! Why a rig could not be posed (or baked) in a lane.

/// Why a rig could not be posed (or baked) in a lane.
#[derive(Debug, thiserror::Error)]
pub enum PoseError {
    /// No animation with this index or name.
    #[error("no animation {0:?} (the model has {1} animation(s))")]
    NoAnimation(String, usize),
    /// The time is NaN or infinite.
    #[error("time {0} is not a finite number of seconds")]
    BadTime(f32),
    /// Morph-target weights given (`--weights`) of another count than a mesh's targets.
    #[error(
        "--weights gives {given} weights, but node {node} draws mesh {mesh} with {targets} \
         morph targets"
    )]
    MorphWeights {
        /// Weights given.
        given: usize,
        /// The mesh node.
        node: usize,
        /// Its mesh.
        mesh: usize,
        /// The mesh's targets.
        targets: usize,
    },
    /// A morph-target weight given (`--weights`) that is not a finite number within the
    /// range `--weights` takes (`pose::morph::WEIGHTS`).
    #[error("--weights: weight {index} is {value}, not a number from {low} to {high:.7}")]
    MorphWeight {
        /// Its place in the list.
        index: usize,
        /// The weight.
        value: f32,
        /// The smallest weight taken.
        low: f32,
        /// The largest weight taken.
        high: f32,
    },
    /// skin-core rejected the data.
    #[error("{context}: {source}")]
    Core {
        /// Where it happened, e.g. `node 2 (skin 0)`.
        context: String,
        /// The core's error.
        #[source]
        source: skin_core::Error,
    },
    /// skin-core's animation layer rejected an input.
    #[error("{context}: {source}")]
    Anim {
        /// Which option, e.g. `--ik "hand_L" (node 12)`.
        context: String,
        /// The animation layer's error.
        #[source]
        source: skin_core::anim::AnimError,
    },
    /// Posing failed at one frame of a check over many.
    #[error("{frame}: {source}")]
    Frame {
        /// Which frame, e.g. `animation 0 at 0.5 s`.
        frame: String,
        /// Why.
        #[source]
        source: Box<PoseError>,
    },
    /// A value, or the model's asset unit, is beyond what the lane holds.
    #[error("{0}")]
    Range(String),
    /// A skin or skeleton is larger than the host's fixed capacities.
    #[error("{0}")]
    Capacity(String),
}

impl PoseError {
    /// Wrap a core error with its context.
    pub fn core(context: impl Into<String>) -> impl FnOnce(skin_core::Error) -> PoseError {
        let context = context.into();
        move |source| PoseError::Core { context, source }
    }
}
