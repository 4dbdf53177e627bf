//! Why a glTF file could not be imported (the import stage's errors), each with a one-line message.

use std::path::PathBuf;

/// Why a glTF file could not be imported.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    /// The file could not be read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The operating system's reason.
        #[source]
        source: std::io::Error,
    },
    /// Neither a GLB container (magic `glTF`) nor glTF JSON.
    #[error("not a glTF file: it starts neither with the GLB magic 'glTF' nor with a JSON object")]
    NotGltf,
    /// The GLB container is truncated or inconsistent.
    #[error("broken GLB container: {0}")]
    Glb(String),
    /// The JSON does not parse.
    #[error("broken glTF JSON: {0}")]
    Json(String),
    /// The JSON parses but breaks the glTF schema.
    #[error("invalid glTF: {0}")]
    Invalid(String),
    /// A buffer's bytes are missing, short, or cannot be decoded.
    #[error("buffer {index}: {reason}")]
    Buffer {
        /// Buffer index.
        index: usize,
        /// What is wrong.
        reason: String,
    },
    /// An accessor does not fit its buffer, or has the wrong type for its use.
    #[error("accessor {index}: {reason}")]
    Accessor {
        /// Accessor index.
        index: usize,
        /// What is wrong.
        reason: String,
    },
    /// A vertex names a joint beyond its skin's joint list.
    #[error(
        "mesh {mesh} primitive {primitive} vertex {vertex} uses joint {joint}, but skin {skin} \
         (on node {node}) has only {joints} joints"
    )]
    JointIndex {
        /// Mesh index.
        mesh: usize,
        /// Primitive index.
        primitive: usize,
        /// Vertex index.
        vertex: usize,
        /// The joint index it names.
        joint: usize,
        /// Skin index.
        skin: usize,
        /// The node that binds the mesh to the skin.
        node: usize,
        /// Joints in the skin.
        joints: usize,
    },
    /// A value that must be finite is NaN or infinite.
    #[error("{what} is NaN or infinite")]
    NotFinite {
        /// What it is, e.g. `inverse bind matrix 3 of skin 0`.
        what: String,
    },
    /// The node hierarchy is not a forest.
    #[error("node {node} is its own ancestor (the node hierarchy has a cycle)")]
    NodeCycle {
        /// A node on the cycle.
        node: usize,
    },
    /// A node is listed as the child of two nodes.
    #[error("node {node} has two parents ({first} and {second})")]
    TwoParents {
        /// The node.
        node: usize,
        /// One parent.
        first: usize,
        /// The other parent.
        second: usize,
    },
    /// A vertex's skinning weights are unusable.
    #[error("mesh {mesh} primitive {primitive} vertex {vertex}: {reason}")]
    Weights {
        /// Mesh index.
        mesh: usize,
        /// Primitive index.
        primitive: usize,
        /// Vertex index.
        vertex: usize,
        /// What is wrong.
        reason: String,
    },
    /// A morph target does not fit its primitive.
    #[error("mesh {mesh} primitive {primitive} morph target {target}: {reason}")]
    Target {
        /// Mesh index.
        mesh: usize,
        /// Primitive index.
        primitive: usize,
        /// Target index.
        target: usize,
        /// What is wrong.
        reason: String,
    },
    /// The primitives of one mesh have different numbers of morph targets.
    #[error(
        "mesh {mesh} primitive {primitive} has {targets} morph targets but its primitive 0 has \
         {first}; every primitive of a mesh must have the same number"
    )]
    TargetCounts {
        /// Mesh index.
        mesh: usize,
        /// The primitive that differs.
        primitive: usize,
        /// Its targets.
        targets: usize,
        /// Primitive 0's targets.
        first: usize,
    },
    /// A list of morph-target weights whose length is not the mesh's target count.
    #[error("{what} has {found} morph-target weights, but mesh {mesh} has {targets} targets")]
    MorphWeights {
        /// Whose weights, e.g. `node 3` or `key 2 of animation 0 channel 1`.
        what: String,
        /// How many it has.
        found: usize,
        /// The mesh.
        mesh: usize,
        /// The mesh's targets.
        targets: usize,
    },
    /// An animation channel animates morph-target weights that do not exist.
    #[error("animation {animation} channel {channel} animates the morph-target weights of node {node}, but {reason}")]
    WeightChannel {
        /// Animation index.
        animation: usize,
        /// Channel index.
        channel: usize,
        /// The target node.
        node: usize,
        /// What is missing.
        reason: String,
    },
    /// A file larger than this tool reads.
    #[error("{what} is larger than this tool's limit of {limit} bytes")]
    TooLarge {
        /// The file.
        what: String,
        /// The limit.
        limit: u64,
    },
    /// Something valid glTF that this tool does not handle.
    #[error("unsupported: {0}")]
    Unsupported(String),
    /// The file needs a glTF extension this tool does not read.
    #[error(
        "the file needs the glTF extension {extension}, which this tool does not read: {advice}"
    )]
    Extension {
        /// The extension's name, as the file spells it.
        extension: String,
        /// What the extension does and how to turn the file into one this tool reads.
        advice: String,
    },
    /// A `TANGENT` that is no tangent: a zero-length direction, or a handedness `w` other
    /// than ±1 (glTF requires a unit `xyz` and `w` = ±1).
    #[error("mesh {mesh} primitive {primitive} vertex {vertex}: TANGENT {value:?} {problem}")]
    Tangent {
        /// Mesh index.
        mesh: usize,
        /// Primitive index.
        primitive: usize,
        /// Vertex index.
        vertex: usize,
        /// The tangent as stored, `[x, y, z, w]`.
        value: [f32; 4],
        /// What is wrong with it, and the limit.
        problem: String,
    },
}
