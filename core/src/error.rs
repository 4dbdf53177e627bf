//! Typed errors: every way input can be wrong, each with a message that says what and where.

use crate::lane::WEIGHT_TOLERANCE;
use crate::layout::Layout;
use crate::num::NumError;

/// What kind of value an error is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Quantity {
    /// A vertex position.
    Position,
    /// A vertex normal.
    Normal,
    /// A skinning weight.
    Weight,
    /// A bone's local translation, rotation or scale.
    LocalTransform,
    /// A bone's inverse bind matrix.
    InverseBind,
    /// A bone's world matrix (forward kinematics result).
    WorldMatrix,
    /// A skinning-palette matrix `W·B⁻¹`.
    Palette,
    /// A key-frame time or value.
    Key,
    /// A key time, value or tangent of an animation channel (index: the channel).
    Channel,
    /// The time a clip is sampled at.
    Time,
    /// A morph target's weight (index: the target).
    MorphWeight,
    /// A morph target's delta (index: the entry in the target's list).
    MorphDelta,
}

impl Quantity {
    fn name(self) -> &'static str {
        match self {
            Quantity::Position => "position",
            Quantity::Normal => "normal",
            Quantity::Weight => "weight",
            Quantity::LocalTransform => "local transform",
            Quantity::InverseBind => "inverse bind matrix",
            Quantity::WorldMatrix => "world matrix",
            Quantity::Palette => "palette matrix",
            Quantity::Key => "key frame",
            Quantity::Channel => "a key of animation channel",
            Quantity::Time => "sample time",
            Quantity::MorphWeight => "morph-target weight",
            Quantity::MorphDelta => "morph-target delta",
        }
    }
}

/// Everything that can be wrong with data handed to the core.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Error {
    /// A vertex names a bone the palette does not have.
    BoneIndex {
        /// Vertex index.
        vertex: usize,
        /// The bone index it names.
        bone: u16,
        /// Bones in the palette.
        bones: usize,
    },
    /// A joint names a bone the skeleton does not have.
    JointIndex {
        /// Joint (palette) index.
        joint: usize,
        /// The bone it names.
        bone: usize,
        /// Bones in the skeleton.
        bones: usize,
    },
    /// A vertex has a non-zero weight in an influence slot beyond the mesh's kernel width.
    Influences {
        /// Vertex index.
        vertex: usize,
        /// Influences the vertex uses.
        used: usize,
        /// Influences the kernel blends.
        max: usize,
    },
    /// A weight is negative.
    NegativeWeight {
        /// Vertex index.
        vertex: usize,
        /// The weight.
        weight: f32,
    },
    /// A vertex's weights do not sum to one within [`WEIGHT_TOLERANCE`].
    WeightSum {
        /// Vertex index.
        vertex: usize,
        /// Their sum.
        sum: f32,
    },
    /// A value is NaN or infinite.
    NotFinite {
        /// What it is.
        what: Quantity,
        /// Index of the vertex, bone or key.
        index: usize,
    },
    /// A value is beyond the number format's range (or the pipeline's limit in it).
    Overflow {
        /// What it is.
        what: Quantity,
        /// Index of the vertex, bone or key.
        index: usize,
        /// The format it did not fit.
        format: &'static str,
    },
    /// A bone's parent comes after it (parents must precede children).
    ParentOrder {
        /// The bone.
        bone: usize,
        /// Its parent.
        parent: usize,
    },
    /// Following parents from this bone leads back to it.
    Cycle {
        /// A bone on the cycle.
        bone: usize,
    },
    /// A parent index names no bone.
    ParentIndex {
        /// The bone.
        bone: usize,
        /// The parent index it names.
        parent: usize,
    },
    /// The skeleton has no root bone.
    NoRoot,
    /// More bones (or vertices, keys, …) than a container's capacity.
    Capacity {
        /// How many were given.
        len: usize,
        /// How many fit.
        capacity: usize,
    },
    /// A skeleton needs more palette matrices than a constant-register budget holds.
    BudgetExceeded {
        /// Bones needed.
        bones: usize,
        /// Bones the budget holds with this layout.
        capacity: usize,
        /// The budget's name.
        budget: &'static str,
        /// The matrix layout.
        layout: Layout,
    },
    /// A matrix that must be inverted is singular.
    Singular {
        /// The bone.
        bone: usize,
    },
    /// A joint matrix that dual quaternion skinning cannot represent: its linear part is
    /// not a rotation (a scale, a shear or a reflection).
    NotRigid {
        /// The joint (palette index).
        joint: usize,
        /// How far it departs from a rotation (the largest entry of `AᵀA − I` and `|det A − 1|`).
        deviation: f32,
    },
    /// A joint matrix that dual quaternion skinning with scale cannot split into a rotation
    /// and a scale/shear ([`crate::dual::Dual::split`]): a NaN or infinite entry (the
    /// determinant is then NaN), a reflection (negative determinant) or a matrix that is
    /// not invertible (below [`crate::dual::SPLIT_MIN_DETERMINANT`]).
    NotSplittable {
        /// The joint (palette index).
        joint: usize,
        /// The determinant of its linear part.
        determinant: f32,
    },
    /// An animation channel targets a bone the skeleton does not have.
    ChannelBone {
        /// Channel index.
        channel: usize,
        /// The bone it targets.
        bone: usize,
        /// Bones in the skeleton.
        bones: usize,
    },
    /// An animation channel has no keys.
    NoKeys {
        /// Channel index.
        channel: usize,
    },
    /// An animation channel's value count is not its key count × values per key.
    KeyCount {
        /// Channel index.
        channel: usize,
        /// Values expected.
        expected: usize,
        /// Values given.
        actual: usize,
    },
    /// An animation channel's key times decrease.
    KeyOrder {
        /// Channel index.
        channel: usize,
        /// The first key earlier than the one before it.
        key: usize,
    },
    /// A morph target's list of moved vertices is not strictly increasing within the
    /// primitive's vertices.
    MorphVertex {
        /// The target.
        target: usize,
        /// The entry in its list.
        entry: usize,
        /// The vertex it names.
        vertex: u16,
        /// Vertices in the primitive.
        vertices: usize,
    },
    /// Morph targets at these weights could move a vertex beyond the lane's range.
    MorphReach {
        /// How far (the largest coordinate's bound, in asset units) they could move it to.
        reach: f32,
        /// The lane's limit.
        limit: f32,
        /// The lane.
        format: &'static str,
    },
    /// Two slices that must have equal lengths do not.
    LengthMismatch {
        /// Expected length.
        expected: usize,
        /// Actual length.
        actual: usize,
    },
}

impl core::fmt::Display for Error {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match *self {
            Error::BoneIndex {
                vertex,
                bone,
                bones,
            } => write!(
                f,
                "vertex {vertex} uses bone {bone}, but the palette has only {bones} bones"
            ),
            Error::JointIndex { joint, bone, bones } => write!(
                f,
                "joint {joint} names bone {bone}, but the skeleton has only {bones} bones"
            ),
            Error::Influences { vertex, used, max } => write!(
                f,
                "vertex {vertex} has {used} influences, but this kernel blends at most {max}"
            ),
            Error::NegativeWeight { vertex, weight } => {
                write!(f, "vertex {vertex} has a negative weight {weight}")
            }
            Error::WeightSum { vertex, sum } => write!(
                f,
                "the weights of vertex {vertex} sum to {sum}, not 1 (tolerance {})",
                WEIGHT_TOLERANCE
            ),
            Error::NotFinite { what, index } => {
                write!(f, "{} {index} is NaN or infinite", what.name())
            }
            Error::Overflow {
                what,
                index,
                format,
            } => write!(f, "{} {index} is out of range for {format}", what.name()),
            Error::ParentOrder { bone, parent } => write!(
                f,
                "bone {bone} has parent {parent}, which comes after it (parents must come first)"
            ),
            Error::Cycle { bone } => write!(f, "the parents of bone {bone} form a cycle"),
            Error::ParentIndex { bone, parent } => {
                write!(f, "bone {bone} names parent {parent}, which does not exist")
            }
            Error::NoRoot => f.write_str("the skeleton has no root bone"),
            Error::Capacity { len, capacity } => {
                write!(f, "{len} items exceed the capacity of {capacity}")
            }
            Error::BudgetExceeded {
                bones,
                capacity,
                budget,
                layout,
            } => write!(
                f,
                "{bones} bones exceed the {budget} budget, which holds {capacity} {} matrices",
                layout.name()
            ),
            Error::Singular { bone } => write!(f, "the matrix of bone {bone} cannot be inverted"),
            Error::NotRigid { joint, deviation } => write!(
                f,
                "the matrix of joint {joint} is not a rotation and translation (it departs from one by {deviation:.1e}, the limit is {:.1e}): dual quaternion skinning cannot represent its scale or shear; skin it with lbs",
                crate::dual::RIGID_TOLERANCE
            ),
            Error::NotSplittable { joint, determinant } => {
                let min = crate::dual::SPLIT_MIN_DETERMINANT;
                if determinant.is_nan() {
                    write!(f, "the matrix of joint {joint} has a NaN or infinite entry: dual quaternion skinning cannot split it into a rotation and a scale; fix the joint's animation or inverse bind matrix")
                } else if determinant < 0.0 {
                    write!(f, "the matrix of joint {joint} mirrors (determinant {determinant:.3e}, must be at least {min:.0e}): dual quaternion skinning cannot represent a reflection; remove the negative scale from the rig or skin it with lbs")
                } else {
                    write!(f, "the matrix of joint {joint} is not invertible (determinant {determinant:.3e}, must be at least {min:.0e}): dual quaternion skinning cannot split it into a rotation and a scale; remove the zero scale from the rig or skin it with lbs")
                }
            }
            Error::ChannelBone {
                channel,
                bone,
                bones,
            } => write!(
                f,
                "animation channel {channel} targets bone {bone}, but the skeleton has only {bones} bones"
            ),
            Error::NoKeys { channel } => write!(f, "animation channel {channel} has no keys"),
            Error::KeyCount {
                channel,
                expected,
                actual,
            } => write!(
                f,
                "animation channel {channel} has {actual} values, expected {expected} for its keys"
            ),
            Error::KeyOrder { channel, key } => write!(
                f,
                "key {key} of animation channel {channel} comes before the key preceding it"
            ),
            Error::MorphVertex {
                target,
                entry,
                vertex,
                vertices,
            } => write!(
                f,
                "entry {entry} of morph target {target} names vertex {vertex}, which is not \
                 after the entry before it and below the primitive's {vertices} vertices"
            ),
            Error::MorphReach {
                reach,
                limit,
                format,
            } => write!(
                f,
                "morph targets at these weights could move a coordinate to {reach}, beyond \
                 {format}'s limit of {limit}"
            ),
            Error::LengthMismatch { expected, actual } => {
                write!(f, "expected {expected} items, got {actual}")
            }
        }
    }
}

impl core::error::Error for Error {}

/// Map a [`NumError`] to an [`Error`] about `what` at `index` in `format`.
pub(crate) fn num_error(e: NumError, what: Quantity, index: usize, format: &'static str) -> Error {
    match e {
        NumError::NotFinite => Error::NotFinite { what, index },
        NumError::OutOfRange => Error::Overflow {
            what,
            index,
            format,
        },
    }
}
