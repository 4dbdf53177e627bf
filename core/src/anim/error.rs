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
    /// The weight of an inverse-kinematics solve.
    IkWeight,
    /// The softness of an inverse-kinematics solve (the fraction of the reach where
    /// softening starts).
    Softness,
    /// The weight of an aim (look-at).
    AimWeight,
    /// The world matrices of the pose an inverse-kinematics or aim solve reads.
    World,
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
            Input::IkWeight => "IK weight",
            Input::Softness => "IK softness",
            Input::AimWeight => "aim weight",
            Input::World => "world matrices",
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
    /// A point handed to inverse kinematics is NaN, infinite or beyond the coordinate limit.
    Point {
        /// Which point (`"root"`, `"mid"`, `"end"`, `"target"`, `"pole"`).
        what: &'static str,
        /// The offending coordinate.
        value: f32,
        /// The largest magnitude allowed.
        limit: f32,
    },
    /// A bone of an inverse-kinematics chain is too short to have a direction.
    ZeroBone {
        /// 0: root to mid, 1: mid to end.
        bone: usize,
        /// Its length.
        length: f32,
    },
    /// A joint limit's range is empty, not finite or outside [0, π].
    Limit {
        /// The smallest angle, radians.
        min: f32,
        /// The largest angle, radians.
        max: f32,
    },
    /// A twist limit's range is empty, not finite or outside [−π, π].
    Twist {
        /// The smallest twist, radians.
        min: f32,
        /// The largest twist, radians.
        max: f32,
    },
    /// A joint index beyond the skeleton.
    JointIndex {
        /// The index.
        joint: usize,
        /// Joints of the skeleton.
        joints: usize,
    },
    /// A chain's joint is not the child of the joint before it.
    NotChild {
        /// The joint that should be the parent.
        parent: usize,
        /// The joint that should be its child.
        child: usize,
        /// The child's actual parent (`None`: a root).
        actual: Option<usize>,
    },
    /// A two-bone chain asked for by its end joint, which has no parent or grandparent.
    ShortChain {
        /// The end joint.
        end: usize,
    },
    /// A walker's leg whose hip is not below its pelvis.
    NotBelow {
        /// The pelvis.
        pelvis: usize,
        /// The leg's hip (its root joint).
        hip: usize,
    },
    /// A joint that both of a walker's legs hold.
    SharedLeg {
        /// The joint.
        joint: usize,
    },
    /// A gait's speed or stride is not finite and positive, or its lift is negative.
    Gait {
        /// `"speed"`, `"stride"`, `"lift"`, `"ground amplitude"` or `"ground wavelength"`.
        what: &'static str,
        /// The value.
        value: f32,
    },
    /// Forward kinematics of the pose failed.
    Kinematics(crate::Error),
    /// A direction handed to an aim (its forward or up axis) has no length.
    Axis {
        /// Which (`"forward"`, `"up"`).
        what: &'static str,
    },
    /// A duration or time is NaN, infinite or negative.
    Time {
        /// What it is.
        what: &'static str,
        /// The value.
        value: f32,
    },
}

impl AnimError {
    /// `Ok` when the pose a solve writes (`pose` transforms) and the world matrices it
    /// reads (`world`) are one a joint of a skeleton of `joints`; else the first that is
    /// not, as [`AnimError::Joints`].
    pub(crate) fn check_pose(joints: usize, pose: usize, world: usize) -> Result<(), Self> {
        for (what, actual) in [(Input::Output, pose), (Input::World, world)] {
            if actual != joints {
                return Err(AnimError::Joints {
                    what,
                    index: 0,
                    actual,
                    expected: joints,
                });
            }
        }
        Ok(())
    }
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
            AnimError::Point { what, value, limit } => write!(
                f,
                "the IK {what} has the coordinate {value}, which is not finite or beyond ±{limit}"
            ),
            AnimError::ZeroBone { bone, length } => write!(
                f,
                "bone {bone} of the IK chain has the length {length}, too short to have a direction"
            ),
            AnimError::Limit { min, max } => write!(
                f,
                "the joint limit [{min}, {max}] radians is not a range within [0, π]"
            ),
            AnimError::Twist { min, max } => write!(
                f,
                "the twist limit [{min}, {max}] radians is not a range within [−π, π]"
            ),
            AnimError::JointIndex { joint, joints } => write!(
                f,
                "joint {joint} does not exist: the skeleton has {joints} joints"
            ),
            AnimError::NotChild {
                parent,
                child,
                actual: Some(actual),
            } => write!(
                f,
                "joint {child} is the child of joint {actual}, not of joint {parent}: the chain is not parent–child"
            ),
            AnimError::NotChild {
                parent,
                child,
                actual: None,
            } => write!(
                f,
                "joint {child} is a root, not the child of joint {parent}: the chain is not parent–child"
            ),
            AnimError::ShortChain { end } => write!(
                f,
                "joint {end} has no grandparent: a two-bone chain ending there needs two joints above it"
            ),
            AnimError::NotBelow { pelvis, hip } => write!(
                f,
                "the leg's hip, joint {hip}, is not below the pelvis, joint {pelvis}"
            ),
            AnimError::SharedLeg { joint } => {
                write!(f, "both legs hold joint {joint}: each leg needs joints of its own")
            }
            AnimError::Gait { what, value } => {
                write!(f, "the gait's {what} {value} is not a finite, positive length or speed")
            }
            AnimError::Kinematics(e) => write!(f, "forward kinematics: {e}"),
            AnimError::Axis { what } => {
                write!(f, "the aim's {what} axis has no length")
            }
            AnimError::Time { what, value } => {
                write!(f, "{what} {value} is not a finite, non-negative number of seconds")
            }
        }
    }
}

impl core::error::Error for AnimError {}
