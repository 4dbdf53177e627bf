//! The writer's input, [`AssetParts`]: a plain struct of slices, everything a baked asset
//! holds, and its records of parts ([`Part`]) and clips ([`ClipParts`]).

use crate::affine::Affine;
use crate::clip::Channel;
use crate::lane::Lane;
use crate::skin::Skinning;
use crate::transform::Transform;
use crate::vertex::Influence;

/// One draw call: a run of consecutive vertices and triangle indices that is skinned with
/// its own palette.
///
/// Parts tile the asset in order: part 0 owns the first `vertices` vertices and the first
/// `indices` triangle indices, part 1 the next ones, and so on. Triangle indices are local
/// to the part (0 = the part's first vertex); influence bone bytes are local to the part's
/// palette (`bones[b]` is the joint that palette entry `b` takes its matrix from).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Part<'a> {
    /// Vertices in this part.
    pub vertices: u32,
    /// Triangle indices in this part (3 per triangle).
    pub indices: u32,
    /// The part's palette: joint indices (into [`AssetParts::joints`]), at most 256.
    pub bones: &'a [u16],
}

/// One animation clip.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClipParts<'a> {
    /// Its name (UTF-8; may be empty).
    pub name: &'a str,
    /// Its duration in seconds (the loop period); normally the last key time.
    pub duration: f32,
    /// Its channels; translation keys in asset units (like every length in the asset).
    pub channels: &'a [Channel<&'a [f32]>],
}

/// Everything a baked asset holds, as slices: the input of the writer
/// ([`AssetParts::write`]) and what the reader ([`crate::asset::Asset`]) gives back.
///
/// **Units.** Every length (rest translations, the root matrix's and the inverse binds'
/// translations, positions, translation keys) is in *asset units*: model units divided by
/// `2^unit_exponent`. For the fixed lane the baker chooses the exponent so that bind-pose
/// positions lie in (−1, 1); an `f32` asset may use any exponent (usually 0).
///
/// **Numbers.** Skeleton, root, inverse binds and keys are `f32` in every lane (converted
/// to [`Real`](crate::num::Real) when a skeleton, bind pose or clip is made); vertex
/// positions, normals and weights are in the lane `L` (`f32` or `Q14`).
#[derive(Clone, Copy, Debug)]
pub struct AssetParts<'a, L: Lane> {
    /// Model units = asset units × 2^`unit_exponent`.
    pub unit_exponent: i8,
    /// Parent of each bone (`None` for roots); parents come before their children.
    pub parents: &'a [Option<u16>],
    /// Rest-pose local transform of each bone.
    pub rest: &'a [Transform<f32>],
    /// The matrix above the skeleton's roots (e.g. non-joint ancestors turning Z-up into
    /// Y-up); identity if none.
    pub root: Affine<f32>,
    /// The skin's joints: bone indices, in joint order.
    pub joints: &'a [u16],
    /// Inverse bind matrix of each joint.
    pub inverse_binds: &'a [Affine<f32>],
    /// Vertex positions, all parts one after another.
    pub positions: &'a [[L; 3]],
    /// Vertex normals (as many as positions), if stored.
    pub normals: Option<&'a [[L; 3]]>,
    /// Vertex influences; bone bytes index the vertex's part palette.
    pub influences: &'a [Influence<L>],
    /// Triangle indices, all parts one after another, each local to its part.
    pub indices: &'a [u16],
    /// The draw calls, tiling vertices and indices in order.
    pub parts: &'a [Part<'a>],
    /// Animation clips.
    pub clips: &'a [ClipParts<'a>],
    /// The skinning method every part is played with (header flag [`super::FLAG_DQS`]):
    /// its palette entries are matrices for LBS, unit dual quaternions for DQS.
    pub skinning: Skinning,
    /// The point (asset units) that `positions` and the skinning matrices are relative to
    /// (`docs/FORMAT.md`, *Centre*): zero (no section), or a point within
    /// [`super::MAX_CENTRE`] on the [`super::CENTRE_STEP`] grid. Positions are stored less
    /// it; the inverse binds are the caller's (`B⁻¹ · T(centre)` for the model's own joints),
    /// and the player takes each skinning matrix less it and adds it back to each skinned
    /// position.
    pub centre: [f32; 3],
}
