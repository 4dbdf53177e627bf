//! Why a rig cannot be baked as asked.

use skin_core::asset::AssetError;

use crate::pose::PoseError;
use crate::rig::Mode;
use crate::split::SplitError;

/// Why a rig cannot be baked as asked.
#[derive(Debug, thiserror::Error)]
pub enum BakeError {
    /// A number does not fit, or skin-core rejected the data.
    #[error(transparent)]
    Pose(#[from] PoseError),
    /// A primitive cannot be split to fit the palette.
    #[error("node {node} mesh {mesh} primitive {primitive}: {source} ({budget})")]
    Split {
        /// The mesh node.
        node: usize,
        /// The mesh.
        mesh: usize,
        /// The primitive.
        primitive: usize,
        /// The budget, in words.
        budget: String,
        /// Why.
        #[source]
        source: SplitError,
    },
    /// A primitive is not made of triangles.
    #[error(
        "node {node} mesh {mesh} primitive {primitive} is {mode:?}; the baked format stores triangles only"
    )]
    Topology {
        /// The mesh node.
        node: usize,
        /// The mesh.
        mesh: usize,
        /// The primitive.
        primitive: usize,
        /// Its mode.
        mode: Mode,
    },
    /// A part has more vertices than 16-bit indices reach.
    #[error(
        "node {node} mesh {mesh} primitive {primitive}: a part has {vertices} vertices; triangle indices are 16-bit (at most 65536 vertices a part)"
    )]
    Indices {
        /// The mesh node.
        node: usize,
        /// The mesh.
        mesh: usize,
        /// The primitive.
        primitive: usize,
        /// Its vertex count.
        vertices: usize,
    },
    /// Nothing to bake.
    #[error("the model has no mesh to bake")]
    NoMesh,
    /// More bones or joints than the format numbers.
    #[error("{0}")]
    Capacity(String),
    /// The core's writer refused the parts.
    #[error("the asset writer refused the data: {0}")]
    Asset(#[from] AssetError),
}
