//! What can be wrong with the inputs of the animation layer.

/// Which input an [`AnimError`] is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Input {
    /// A blended layer (by its index among the blended layers).
    Layer,
    /// An additive layer (by its index among the additive layers).
    Additive,
    /// The reference pose of an additive layer.
    Reference,
    /// A layer's per-joint mask.
    Mask,
    /// The rest pose the blend falls back to.
    Rest,
    /// The pose the blend writes.
    Output,
}

impl Input {
    fn name(self) -> &'static str {
        match self {
            Input::Layer => "blend layer",
            Input::Additive => "additive layer",
            Input::Reference => "reference pose of additive layer",
            Input::Mask => "mask of layer",
            Input::Rest => "rest pose",
            Input::Output => "output pose",
        }
    }
}

/// Everything that can be wrong with what is handed to the animation layer.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum AnimError {
    /// A weight is NaN or outside [0, 1].
    Weight {
        /// What carries the weight.
        what: Input,
        /// Its index (the layer's; for a mask, the layer's).
        index: usize,
        /// The joint, for a mask weight.
        joint: Option<usize>,
        /// The weight.
        weight: f32,
    },
    /// A pose or mask has a different number of joints than the skeleton.
    Joints {
        /// What it is.
        what: Input,
        /// Its index (0 for the rest and output poses).
        index: usize,
        /// Joints it has.
        actual: usize,
        /// Joints of the skeleton.
        expected: usize,
    },
    /// More layers than the blend's capacity.
    Layers {
        /// Which kind of layer.
        what: Input,
        /// The capacity.
        capacity: usize,
    },
    /// A joint's transform is not finite or beyond the number format's limit.
    Transform {
        /// Whose pose.
        what: Input,
        /// Its index.
        index: usize,
        /// The joint.
        joint: usize,
        /// The number format.
        format: &'static str,
    },
    /// An additive layer moves a joint's translation or scale beyond the number format's
    /// limit.
    Range {
        /// The additive layer.
        index: usize,
        /// The joint.
        joint: usize,
        /// The limit.
        limit: f32,
    },
    /// A duration or time is NaN, infinite or negative.
    Time {
        /// What it is.
        what: &'static str,
        /// The value.
        value: f32,
    },
}

impl core::fmt::Display for AnimError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match *self {
            AnimError::Weight {
                what,
                index,
                joint: Some(joint),
                weight,
            } => write!(
                f,
                "{} {index} gives joint {joint} the weight {weight}, outside [0, 1]",
                what.name()
            ),
            AnimError::Weight {
                what,
                index,
                joint: None,
                weight,
            } => write!(
                f,
                "{} {index} has the weight {weight}, outside [0, 1]",
                what.name()
            ),
            AnimError::Joints {
                what,
                index,
                actual,
                expected,
            } => write!(
                f,
                "{} {index} has {actual} joints, but the skeleton has {expected}",
                what.name()
            ),
            AnimError::Layers { what, capacity } => write!(
                f,
                "more than {capacity} of {}s (the blend's capacity)",
                what.name()
            ),
            AnimError::Transform {
                what,
                index,
                joint,
                format,
            } => write!(
                f,
                "{} {index}: the transform of joint {joint} is not finite or out of range for {format}",
                what.name()
            ),
            AnimError::Range {
                index,
                joint,
                limit,
            } => write!(
                f,
                "additive layer {index} moves joint {joint}'s translation or scale beyond ±{limit}"
            ),
            AnimError::Time { what, value } => {
                write!(f, "{what} {value} is not a finite, non-negative number of seconds")
            }
        }
    }
}

impl core::error::Error for AnimError {}
