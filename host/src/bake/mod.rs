//! Baking: a [`Rig`] → the compact asset bytes skin-core reads ([`skin_core::asset`]).
//!
//! One asset holds everything `skin pose` draws:
//!
//! - **bones**: the [posed nodes](crate::rig::Rig::posed_nodes) (their skins' joints, the
//!   mesh nodes that place vertices by their own matrix, and every ancestor), parents
//!   first, rest transforms as stored; the root matrix is identity because non-joint
//!   ancestors are bones too;
//! - **joints**: one `(bone, inverse bind)` entry per distinct pair the parts use (skins
//!   binding a node with the same matrix share it), with an identity inverse bind for a
//!   mesh node drawn rigidly (unskinned meshes, and skinned nodes' primitives without
//!   weights, which glTF places by the node's world matrix);
//! - **parts**: each (mesh node, primitive) split by [`crate::split`] into draw calls whose
//!   palettes fit the budget (at most [`MAX_PART_BONES`] bones), vertices duplicated where
//!   parts meet, triangle indices 16-bit and local to the part;
//! - **clips**: the chosen animations' channels on posed nodes, keys as in the file,
//!   translations in asset units;
//! - **morph targets**: per mesh node with targets, its parts' sparse quantised deltas,
//!   default weights and the chosen clips' weight channels ([`morphs`]);
//! - **correctives** (only through [`bake_with`]): pose-space deformation's RBF for each
//!   morph set of the corrected mesh, driving bones and solved weights
//!   ([`correctives`]);
//! - **lattice** (only through [`bake_with`]): a free-form deformation lattice applied after
//!   skinning, its control points keyed over the clip's time ([`lattice`]).
//!
//! Every length is in asset units `2^k` ([`crate::pose::fixed_unit`] in fixed point,
//! `k = 0` in `f32`). The values handed to the writer are exactly those [`crate::pose`]
//! converts, so that a device skinning the asset gets the same bits as `skin pose` (tested).
//!
//! The asset records the skinning method ([`Options::skinning`]); the budget is divided by
//! its layout (a 3×4 matrix takes 3 constant registers, a dual quaternion 2), so a DQS asset's
//! parts hold half as many bones again and split less.
//!
//! Refusals ([`BakeError`]) instead of a wrong asset: a triangle needing more bones than
//! the budget, a part beyond 16-bit indices, non-triangle primitives, in fixed point any
//! value that overflows, and under DQS a joint (or rigidly drawn node) whose matrix has a
//! scale or shear — each at rest or at a key time or midpoint of a chosen clip
//! ([`crate::pose::range::check_lane`]).
//!
//! [`bake_in`] assembles the asset in this order, one file each (after `error`; each
//! imports only from those before it): `bones` (the skeleton and the joint entries),
//! `draws` (the parts, split for the budget), `vertices` (the parts' arrays in the lane),
//! `clips` (the channels, renumbered to bones), `morphs` (the targets of the parts),
//! `correctives` (their RBFs), `lattice`; then skin-core's writer lays them out.
//!
//! [`MAX_PART_BONES`]: skin_core::asset::MAX_PART_BONES

mod bones;
mod clips;
mod correctives;
mod draws;
mod error;
mod lattice;
mod morphs;
mod vertices;

use skin_core::affine::Affine;
use skin_core::asset::{AssetLane, AssetParts, Deformers};
use skin_core::budget::Budget;
use skin_core::lane::Q14;

use crate::lattice::LatticeFile;
use crate::pose::range::check_lane;
use crate::pose::units::{lane_centre, to_asset};
use crate::pose::{fixed_unit, LaneKind, PoseError, Skinning};
use crate::psd::Correctives;
use crate::rig::Rig;
use bones::{Bones, Joints};
use clips::Clips;
use correctives::Rbfs;
use draws::{draws, PaletteLimit};
use lattice::Stored;
use morphs::Morphs;
use vertices::Vertices;

pub use clips::clip_name;
pub use draws::PartSource;
pub use error::BakeError;
pub use morphs::{dequantised, lane_exponents};

/// What to bake.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// The palette budget, its entries in the layout of `skinning` (3×4 matrices for LBS,
    /// dual quaternions for DQS); `None`: only the format's limit of
    /// [`MAX_PART_BONES`](skin_core::asset::MAX_PART_BONES) bones a part.
    pub budget: Option<Budget>,
    /// The skinning method the asset is baked for (recorded in it).
    pub skinning: Skinning,
    /// The lane: `f32`, or the fixed lane (`Q14` vertices, `I8F24` poses).
    pub lane: LaneKind,
    /// The animations to include (indices into [`Rig::clips`]); `None`: all.
    pub clips: Option<Vec<usize>>,
}

/// A baked asset and how it maps back to the rig.
#[derive(Clone, Debug, PartialEq)]
pub struct Baked {
    /// The asset bytes.
    pub bytes: Vec<u8>,
    /// Model units = asset units × 2^`unit_exponent`.
    pub unit_exponent: i32,
    /// The rig node of each bone.
    pub bones: Vec<usize>,
    /// Joint entries.
    pub joints: usize,
    /// Where each part comes from, in asset order.
    pub parts: Vec<PartSource>,
    /// The rig clip of each asset clip.
    pub clips: Vec<usize>,
    /// Whether normals are stored (every baked primitive has them).
    pub normals: bool,
    /// Vertices added by splitting.
    pub duplicated: usize,
    /// Bytes of the morph section (0 without morph targets): targets' quantised sparse
    /// deltas, default weights and weight channels.
    pub morph_bytes: usize,
    /// Corrective RBFs stored (0 without correctives).
    pub correctives: usize,
    /// Whether a lattice is stored.
    pub lattice: bool,
    /// The morph section's moved vertices (a record each, over all parts) and entries (a
    /// target's deltas at one of them).
    pub morph_records: (usize, usize),
}

/// Bake `rig` as `options` say.
pub fn bake(rig: &Rig, options: &Options) -> Result<Baked, BakeError> {
    bake_with(rig, options, Extras::default())
}

/// What [`bake_with`] stores besides the rig.
#[derive(Clone, Copy, Debug, Default)]
pub struct Extras<'a> {
    /// Correctives (solved for the rig), stored next to the morph targets they drive, for
    /// the player to weigh them from the pose.
    pub correctives: Option<&'a Correctives>,
    /// A lattice (model units), applied by the player after skinning.
    pub lattice: Option<&'a LatticeFile>,
}

/// [`bake`] with `extras`.
pub fn bake_with(rig: &Rig, options: &Options, extras: Extras<'_>) -> Result<Baked, BakeError> {
    let clips: Vec<usize> = match &options.clips {
        // A clip asked for twice is stored once.
        Some(c) => c
            .iter()
            .enumerate()
            .filter(|&(i, x)| !c[..i].contains(x))
            .map(|(_, &x)| x)
            .collect(),
        None => (0..rig.clips.len()).collect(),
    };
    if let Some(&c) = clips.iter().find(|&&c| c >= rig.clips.len()) {
        return Err(PoseError::NoAnimation(c.to_string(), rig.clips.len()).into());
    }
    let (budget, skinning) = (options.budget, options.skinning);
    match options.lane {
        LaneKind::F32 => {
            if skinning == Skinning::Dqs {
                check_lane::<f32>(rig, &clips, 0, skinning)?;
            }
            bake_lane::<f32>(rig, (budget, skinning), &clips, 0, extras)
        }
        LaneKind::Fixed => {
            let k = fixed_unit(rig)?;
            check_lane::<Q14>(rig, &clips, k, skinning)?;
            bake_lane::<Q14>(rig, (budget, skinning), &clips, k, extras)
        }
    }
}

/// [`bake`] in lane `L` with asset unit `2^k`, after the range checks.
pub fn bake_in<L: AssetLane>(
    rig: &Rig,
    budget: Option<Budget>,
    skinning: Skinning,
    clips: &[usize],
    k: i32,
) -> Result<Baked, BakeError> {
    bake_lane::<L>(rig, (budget, skinning), clips, k, Extras::default())
}

/// [`bake_in`] with `extras`.
fn bake_lane<L: AssetLane>(
    rig: &Rig,
    (budget, skinning): (Option<Budget>, Skinning),
    clips: &[usize],
    k: i32,
    extras: Extras<'_>,
) -> Result<Baked, BakeError> {
    let s = to_asset(k);
    let centre = lane_centre::<L>(rig, k);
    let bones = Bones::new(rig, s)?;
    let mut joints = Joints::new(rig, &bones, s, centre);
    let (draws, duplicated) = draws(rig, &PaletteLimit::new(budget, skinning), &mut joints)?;
    let vertices = Vertices::<L>::new(rig, &draws, k, centre)?;
    let clip_keys = Clips::new(rig, clips, k);
    let channels = clip_keys.channels(&bones.bone_of);
    let clip_parts = clip_keys.parts(&channels);
    let (joint_bones, inverse_binds): (Vec<u16>, Vec<Affine<f32>>) =
        joints.list.iter().copied().unzip();
    let asset = AssetParts::<L> {
        unit_exponent: i8::try_from(k)
            .map_err(|_| BakeError::Capacity(format!("asset unit 2^{k} is out of range")))?,
        parents: &bones.parents,
        rest: &bones.rest,
        root: Affine::IDENTITY,
        joints: &joint_bones,
        inverse_binds: &inverse_binds,
        positions: &vertices.positions,
        normals: vertices.normals.as_deref(),
        influences: &vertices.influences,
        indices: &vertices.indices,
        parts: &vertices.parts,
        clips: &clip_parts,
        skinning,
        centre,
    };
    let morphs = Morphs::new(
        rig,
        &draws,
        clips,
        (k, L::EXPONENTS),
        vertices.normals.is_some(),
    )?;
    let rbfs = Rbfs::new(rig, &draws, &bones, extras.correctives)?;
    let lattice = extras.lattice.map(|f| Stored::new(f, s)).transpose()?;
    let lattice = lattice.as_ref().map(Stored::parts);
    let (bytes, morph_bytes) = morphs.with_parts(|morphs| {
        rbfs.with_parts(|correctives| -> Result<_, BakeError> {
            let d = Deformers {
                morphs,
                correctives,
                lattice: lattice.as_ref(),
            };
            let size = asset.size_deformed(&d)?;
            let mut bytes = vec![0u8; size];
            let n = asset.write_deformed(&d, &mut bytes)?;
            bytes.truncate(n);
            Ok((bytes, asset.size_with_morphs(morphs)? - asset.size()?))
        })
    })?;
    Ok(Baked {
        bytes,
        unit_exponent: k,
        joints: joint_bones.len(),
        normals: vertices.normals.is_some(),
        bones: bones.nodes,
        parts: draws.into_iter().map(|d| d.source).collect(),
        clips: clips.to_vec(),
        duplicated,
        morph_bytes,
        correctives: rbfs.len(),
        lattice: extras.lattice.is_some(),
        morph_records: morphs.records(),
    })
}
