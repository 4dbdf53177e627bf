//! Why envelope weights could not be computed or written.

use skin_core::envelope::EnvelopeError;

/// What went wrong in `skin weights --envelopes`.
#[derive(Debug, thiserror::Error)]
pub enum WeightsError {
    /// A joint's radii are not `0 < inner < outer`.
    #[error("joint {joint}: {source}")]
    Radii {
        /// The joint node, by name or index.
        joint: String,
        /// Why.
        #[source]
        source: EnvelopeError,
    },
    /// A joint has no radii: neither `--inner`/`--outer` nor a line of the radii file.
    #[error("joint {joint} has no envelope radii: give --inner and --outer, or a line `{joint} INNER OUTER` in the radii file")]
    NoRadii {
        /// The joint node, by name or index.
        joint: String,
    },
    /// A line of the radii file cannot be read.
    #[error("radii file line {line}: {reason}")]
    RadiiFile {
        /// 1-based line number.
        line: usize,
        /// Why.
        reason: String,
    },
    /// A joint's bind pose cannot be inverted, so its position is unknown.
    #[error("skin {skin} joint {joint}: the inverse bind matrix is singular (determinant {determinant:e}), so the joint has no bind position")]
    Singular {
        /// The skin.
        skin: usize,
        /// The joint's index in the skin.
        joint: usize,
        /// The matrix's determinant.
        determinant: f64,
    },
    /// A skin has more joints than the core's `u16` joint indices.
    #[error("skin {skin} has {joints} joints; envelope weights take at most 65536")]
    TooManyJoints {
        /// The skin.
        skin: usize,
        /// Its joints.
        joints: usize,
    },
    /// One mesh is drawn with two skins that bind it differently.
    #[error("mesh {mesh} is drawn with skin {first} and skin {second}, whose joints or inverse bind matrices differ: one set of weights cannot serve both")]
    MeshSkins {
        /// The mesh.
        mesh: usize,
        /// The first skin drawing it.
        first: usize,
        /// Another skin drawing it.
        second: usize,
    },
    /// The model has no skinned mesh to weigh.
    #[error("no mesh node has a skin: envelope weights need a skeleton bound to a mesh")]
    NoSkin,
    /// The skin's envelopes are unusable.
    #[error("skin {skin}: {source}")]
    Envelopes {
        /// The skin.
        skin: usize,
        /// Why.
        #[source]
        source: EnvelopeError,
    },
}
