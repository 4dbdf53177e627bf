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
