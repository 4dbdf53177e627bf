//! What can be wrong with asset bytes (or with parts handed to the writer).

use crate::error::Error;
use crate::lattice::LatticeError;
use crate::psd::PsdError;

/// Which part of an asset an [`AssetError`] is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Field {
    /// Bones (the skeleton).
    Bones,
    /// Joints (bone indices of the skin).
    Joints,
    /// Vertices.
    Vertices,
    /// A vertex position.
    Position,
    /// A vertex normal.
    Normal,
    /// A vertex's influences (bone bytes and weights).
    Influence,
    /// Triangle indices.
    Indices,
    /// Parts (draw calls).
    Parts,
    /// A part's palette: joint indices.
    Palette,
    /// A part's vertices.
    PartVertices,
    /// A part's triangle indices.
    PartIndices,
    /// Clips.
    Clips,
    /// A clip's name.
    Name,
    /// A clip's duration.
    Duration,
    /// Animation channels.
    Channels,
    /// An animation channel's path code.
    Path,
    /// An animation channel's interpolation code.
    Interpolation,
    /// Key times and values.
    Keys,
    /// A morph set (the targets of one mesh node over its parts).
    MorphSet,
    /// A morph target's record.
    MorphTarget,
    /// A morph target's record in one part (the vertices it moves, its largest values).
    MorphSpan,
    /// A morph entry (one target's deltas at a moved vertex).
    MorphEntry,
    /// A part's run of moved-vertex records.
    MorphRun,
    /// A moved vertex's record (its vertex and entries).
    MorphRecord,
    /// A morph target's default weight.
    MorphWeight,
    /// A channel of morph-target weights.
    WeightChannel,
    /// The morph section's key floats.
    MorphFloats,
    /// A corrective RBF record.
    CorrectiveRbf,
    /// A corrective RBF's target.
    CorrectiveTarget,
    /// A corrective RBF's value (a centre component or a weight), sample-major.
    CorrectiveValue,
    /// A coordinate of the model's centre (index: the axis).
    Centre,
    /// The lattice's keys (times, reserved fields).
    LatticeKey,
    /// The lattice's control-point offsets.
    LatticeOffsets,
}

impl Field {
    fn name(self) -> &'static str {
        match self {
            Field::Bones => "bones",
            Field::Joints => "joints",
            Field::Vertices => "vertices",
            Field::Position => "position of vertex",
            Field::Normal => "normal of vertex",
            Field::Influence => "influences of vertex",
            Field::Indices => "triangle indices",
            Field::Parts => "parts",
            Field::Palette => "palette entries",
            Field::PartVertices => "vertices of part",
            Field::PartIndices => "triangle indices of part",
            Field::Clips => "clips",
            Field::Name => "name of clip",
            Field::Duration => "duration of clip",
            Field::Channels => "animation channels",
            Field::Path => "path code of channel",
            Field::Interpolation => "interpolation code of channel",
            Field::Keys => "key floats",
            Field::MorphSet => "morph set",
            Field::MorphTarget => "morph target",
            Field::MorphSpan => "morph span",
            Field::MorphEntry => "morph entry",
            Field::MorphRun => "morph run of part",
            Field::MorphRecord => "moved-vertex record",
            Field::MorphWeight => "default weight of morph target",
            Field::WeightChannel => "morph-weight channel",
            Field::MorphFloats => "morph-weight key floats",
            Field::CorrectiveRbf => "corrective RBF",
            Field::CorrectiveTarget => "corrective target",
            Field::CorrectiveValue => "corrective RBF value",
            Field::Centre => "coordinate of the centre, axis",
            Field::LatticeKey => "lattice key",
            Field::LatticeOffsets => "lattice offsets",
        }
    }
}

/// Everything that can be wrong with a baked asset. Reading never panics: every byte
/// sequence is either a valid asset or one of these.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum AssetError {
    /// Fewer bytes than the header (or the header's counts) require.
    Truncated {
        /// Bytes needed.
        needed: usize,
        /// Bytes given.
        len: usize,
    },
    /// The first four bytes are not `SKIN`.
    Magic {
        /// What they are.
        found: [u8; 4],
    },
    /// A format version this reader does not know.
    Version {
        /// The asset's version.
        found: u16,
        /// The version this reader reads.
        supported: u16,
    },
    /// Unknown flag bits or a non-zero reserved field.
    Flags {
        /// The flags.
        flags: u16,
        /// The reserved field.
        reserved: u16,
    },
    /// The asset's vertex number format is not the one asked for.
    Lane {
        /// The asset's lane.
        found: &'static str,
        /// The lane asked for.
        expected: &'static str,
    },
    /// The header's total length disagrees with the length its counts imply.
    Length {
        /// The header's total length.
        declared: u32,
        /// The length the counts imply.
        computed: usize,
    },
    /// The CRC-32 does not match: the bytes were damaged.
    Checksum {
        /// The stored checksum.
        stored: u32,
        /// The checksum of the bytes.
        computed: u32,
    },
    /// The counts imply more bytes than a `u32` length (or `usize`) can hold, or a count
    /// does not fit its header field.
    TooLarge,
    /// The writer's output buffer is too small.
    Buffer {
        /// Bytes needed.
        needed: usize,
        /// Bytes given.
        len: usize,
    },
    /// An index names something that does not exist.
    Index {
        /// What holds the index.
        what: Field,
        /// Which item holds it (vertex, part, channel, …).
        index: usize,
        /// The index.
        value: usize,
        /// How many things it may name.
        limit: usize,
    },
    /// Per-part or per-clip counts do not add up to the header's totals (or to a multiple
    /// of 3 for triangle indices, or fit their index width).
    Mismatch {
        /// What is counted.
        what: Field,
        /// The count expected.
        expected: usize,
        /// The count found.
        actual: usize,
    },
    /// A value is unusable: a NaN or infinite vertex value, a weight outside [0, 1] or
    /// weights summing above one, an unknown path or interpolation code, a name that is not
    /// UTF-8, a negative or non-finite duration.
    Invalid {
        /// What it is.
        what: Field,
        /// Which item (vertex, channel, clip).
        index: usize,
    },
    /// More items than a container's capacity (a skeleton's, bind pose's or palette's).
    Capacity {
        /// What is counted.
        what: Field,
        /// How many there are.
        len: usize,
        /// How many fit.
        capacity: usize,
    },
    /// The skeleton, bind pose or a clip is invalid for the core (see [`Error`]).
    Core(Error),
    /// A corrective RBF ([`crate::psd`]) that cannot be evaluated: its drivers, samples,
    /// σ, centres or weights.
    Psd {
        /// The RBF's index in the correctives section.
        rbf: usize,
        /// What is wrong.
        error: PsdError,
    },
    /// The lattice ([`crate::lattice`]) is not one its format can run: degrees, box or a
    /// key's control points.
    Lattice(LatticeError),
}

impl From<Error> for AssetError {
    fn from(e: Error) -> Self {
        AssetError::Core(e)
    }
}

impl core::fmt::Display for AssetError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match *self {
            AssetError::Truncated { needed, len } => write!(
                f,
                "the asset is truncated: {len} bytes, but at least {needed} are needed"
            ),
            AssetError::Magic { found } => write!(
                f,
                "not a skin asset: it starts with {found:02x?}, not \"SKIN\""
            ),
            AssetError::Version { found, supported } => write!(
                f,
                "asset format version {found} is not supported (this reader reads version {supported})"
            ),
            AssetError::Flags { flags, reserved } => write!(
                f,
                "unknown asset flags {flags:#06x} or reserved field {reserved:#06x} (must be 0)"
            ),
            AssetError::Lane { found, expected } => write!(
                f,
                "the asset stores vertices as {found}, but {expected} was asked for"
            ),
            AssetError::Length { declared, computed } => write!(
                f,
                "the header says the asset is {declared} bytes, but its counts make it {computed}"
            ),
            AssetError::Checksum { stored, computed } => write!(
                f,
                "checksum mismatch: stored {stored:#010x}, computed {computed:#010x} (damaged data)"
            ),
            AssetError::TooLarge => f.write_str("the asset's counts are too large for the format"),
            AssetError::Buffer { needed, len } => write!(
                f,
                "the output buffer holds {len} bytes, but the asset needs {needed}"
            ),
            AssetError::Index {
                what,
                index,
                value,
                limit,
            } => write!(
                f,
                "{} {index}: index {value} is out of range (must be below {limit})",
                what.name()
            ),
            AssetError::Mismatch {
                what,
                expected,
                actual,
            } => write!(
                f,
                "{}: expected {expected}, found {actual}",
                what.name()
            ),
            AssetError::Invalid { what, index } => {
                write!(f, "{} {index} is invalid", what.name())
            }
            AssetError::Capacity {
                what,
                len,
                capacity,
            } => write!(
                f,
                "{len} {} exceed the capacity of {capacity}",
                what.name()
            ),
            AssetError::Core(e) => write!(f, "{e}"),
            AssetError::Psd { rbf, error } => write!(f, "corrective RBF {rbf}: {error}"),
            AssetError::Lattice(e) => write!(f, "asset lattice: {e}"),
        }
    }
}

impl core::error::Error for AssetError {}
