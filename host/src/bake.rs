//! Baking: a [`Rig`] → the compact asset bytes skin-core reads ([`skin_core::asset`]).
//!
//! One asset holds everything `skin pose` draws:
//!
//! - **bones**: the [posed nodes](crate::pose::posed_nodes) (mesh nodes, their skins'
//!   joints, and every ancestor), parents first, rest transforms as stored; the root matrix
//!   is identity because non-joint ancestors are bones too;
//! - **joints**: one `(bone, inverse bind)` entry per skin joint a part uses, and one with
//!   an identity inverse bind per mesh node drawn rigidly (unskinned meshes, and skinned
//!   nodes' primitives without weights, which glTF places by the node's world matrix);
//! - **parts**: each (mesh node, primitive) split by [`crate::split`] into draw calls whose
//!   palettes fit the budget (at most [`MAX_PART_BONES`]), vertices duplicated where
//!   parts meet, triangle indices 16-bit and local to the part;
//! - **clips**: the chosen animations' channels on posed nodes, keys as in the file,
//!   translations in asset units.
//!
//! Every length is in asset units `2^k` ([`pose::asset_unit`] in fixed point, `k = 0` in
//! `f32`). The values handed to the writer are exactly those [`pose`] converts, so that a
//! device skinning the asset gets the same bits as `skin pose` (tested).
//!
//! Refusals ([`BakeError`]) instead of a wrong asset: a triangle needing more bones than
//! the budget, a part beyond 16-bit indices, non-triangle primitives, and — in fixed
//! point — any value that overflows at rest or at a key time or midpoint of a chosen clip
//! ([`crate::fit::check`]).

use std::collections::BTreeMap;

use skin_core::affine::Affine;
use skin_core::asset::{AssetError, AssetLane, AssetParts, ClipParts, Part, MAX_PART_BONES};
use skin_core::budget::{Budget, Layout};
use skin_core::clip::Channel;
use skin_core::lane::Q14;
use skin_core::quat::Quat;
use skin_core::transform::Transform;

use crate::error::PoseError;
use crate::pose::{self, Arith};
use crate::rig::{Influence4, Mode, Primitive, Rig};
use crate::split::{split, SplitError};

/// What to bake.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// The palette budget (matrices stored 3×4); `None`: only the format's limit of
    /// [`MAX_PART_BONES`] bones a part.
    pub budget: Option<Budget>,
    /// The number format: `f32`, or the fixed lane (`Q14` vertices, `I8F24` poses).
    pub arith: Arith,
    /// The animations to include (indices into [`Rig::clips`]); `None`: all.
    pub clips: Option<Vec<usize>>,
}

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

/// Where a part of the asset comes from.
#[derive(Clone, Debug, PartialEq)]
pub struct PartSource {
    /// The mesh node.
    pub node: usize,
    /// The mesh.
    pub mesh: usize,
    /// The primitive.
    pub primitive: usize,
    /// The primitive's vertex that each of the part's vertices is.
    pub vertices: Vec<u32>,
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
}

/// The name a clip gets in the asset: its glTF name, or its index when it has none.
pub fn clip_name(rig: &Rig, clip: usize) -> String {
    rig.clips[clip]
        .name
        .clone()
        .unwrap_or_else(|| clip.to_string())
}

/// Bake `rig` as `options` say.
pub fn bake(rig: &Rig, options: &Options) -> Result<Baked, BakeError> {
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
    match options.arith {
        Arith::F32 => bake_in::<f32>(rig, options.budget, &clips, 0),
        Arith::Fixed => {
            let k = crate::fit::unit(rig)?;
            crate::fit::check(rig, &clips, k)?;
            bake_in::<Q14>(rig, options.budget, &clips, k)
        }
    }
}

/// One draw call being assembled.
struct Draw {
    source: PartSource,
    /// Joint entries of the palette.
    palette: Vec<u16>,
    prim: Primitive,
}

/// A joint entry: a skin's joint, or a mesh node drawn rigidly.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum JointKey {
    Skin(usize, usize),
    Rigid(usize),
}

/// [`bake`] in lane `L` with asset unit `2^k`, after the range checks.
pub fn bake_in<L: AssetLane>(
    rig: &Rig,
    budget: Option<Budget>,
    clips: &[usize],
    k: i32,
) -> Result<Baked, BakeError> {
    let s = pose::to_asset(k);
    let capacity = budget.map_or(MAX_PART_BONES, |b| {
        b.capacity(Layout::Affine3x4).min(MAX_PART_BONES)
    });
    let budget_words = match budget {
        Some(b) => format!("budget {} holds {capacity} bones as 3x4 matrices", b.name),
        None => format!("a part holds at most {capacity} bones"),
    };
    // Bones.
    let nodes = pose::posed_nodes(rig);
    if nodes.len() >= usize::from(u16::MAX) {
        return Err(BakeError::Capacity(format!(
            "{} bones; the format numbers at most {} bones",
            nodes.len(),
            u16::MAX - 1
        )));
    }
    let mut bone_of = vec![u16::MAX; rig.nodes.len()];
    for (b, &n) in nodes.iter().enumerate() {
        bone_of[n] = b as u16;
    }
    let parents: Vec<Option<u16>> = nodes
        .iter()
        .map(|&n| rig.nodes[n].parent.map(|p| bone_of[p]))
        .collect();
    let rest: Vec<Transform<f32>> = nodes
        .iter()
        .map(|&n| {
            let l = &rig.nodes[n].local;
            let [x, y, z, w] = l.rotation;
            // Stored as in the file (translation in asset units): the reader converts them
            // exactly as `pose` does.
            Transform {
                translation: l.translation.map(|v| v * s),
                rotation: Quat { x, y, z, w },
                scale: l.scale,
            }
        })
        .collect();

    // Draw calls and the joint entries their palettes use.
    let mut joints: BTreeMap<JointKey, u16> = BTreeMap::new();
    let mut joint_list: Vec<(u16, Affine<f32>)> = Vec::new();
    let mut entry = |key: JointKey| -> Result<u16, BakeError> {
        if let Some(&e) = joints.get(&key) {
            return Ok(e);
        }
        let e = u16::try_from(joint_list.len())
            .map_err(|_| BakeError::Capacity("more than 65536 joint entries".into()))?;
        let (node, ibm) = match key {
            JointKey::Skin(sk, j) => (
                rig.skins[sk].joints[j],
                pose::scaled_affine(&rig.skins[sk].inverse_binds[j], s),
            ),
            JointKey::Rigid(n) => (n, Affine::IDENTITY.rows),
        };
        joint_list.push((bone_of[node], Affine { rows: ibm }));
        joints.insert(key, e);
        Ok(e)
    };
    let mut draws: Vec<Draw> = Vec::new();
    let mut duplicated = 0;
    for (node, mesh, skin) in rig.mesh_nodes() {
        for (pi, prim) in rig.meshes[mesh].primitives.iter().enumerate() {
            if !matches!(
                prim.mode,
                Mode::Triangles | Mode::TriangleStrip | Mode::TriangleFan
            ) {
                return Err(BakeError::Topology {
                    node,
                    mesh,
                    primitive: pi,
                    mode: prim.mode,
                });
            }
            let source = |vertices| PartSource {
                node,
                mesh,
                primitive: pi,
                vertices,
            };
            match (skin, &prim.influences) {
                (Some(sk), Some(_)) => {
                    let sp = split(prim, capacity).map_err(|e| BakeError::Split {
                        node,
                        mesh,
                        primitive: pi,
                        budget: budget_words.clone(),
                        source: e,
                    })?;
                    duplicated += sp.duplicated;
                    for part in sp.parts {
                        let palette = part
                            .bones
                            .iter()
                            .map(|&j| entry(JointKey::Skin(sk, usize::from(j))))
                            .collect::<Result<_, _>>()?;
                        draws.push(Draw {
                            prim: part.primitive(prim, sp.arity),
                            palette,
                            source: source(part.vertices),
                        });
                    }
                }
                _ => {
                    let n = prim.positions.len() as u32;
                    let rigid = Influence4 {
                        joints: [0; 4],
                        weights: [1.0, 0.0, 0.0, 0.0],
                    };
                    let whole = Primitive {
                        mode: Mode::Triangles,
                        indices: Some(prim.elements().concat()),
                        influences: Some(vec![rigid; prim.positions.len()]),
                        ..prim.clone()
                    };
                    draws.push(Draw {
                        prim: whole,
                        palette: vec![entry(JointKey::Rigid(node))?],
                        source: source((0..n).collect()),
                    });
                }
            }
        }
    }
    if draws.is_empty() {
        return Err(BakeError::NoMesh);
    }

    // Vertex arrays in the lane.
    let normals = draws.iter().all(|d| d.prim.normals.is_some());
    let (mut positions, mut normal_values, mut influences, mut indices) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut parts = Vec::with_capacity(draws.len());
    for d in &draws {
        let (node, mesh, primitive) = (d.source.node, d.source.mesh, d.source.primitive);
        let vertices = d.prim.positions.len();
        if vertices > 1 << 16 {
            return Err(BakeError::Indices {
                node,
                mesh,
                primitive,
                vertices,
            });
        }
        let ctx = format!("node {node} mesh {mesh} primitive {primitive}");
        positions.extend(pose::positions::<L>(&d.prim, k, &ctx)?);
        influences.extend(pose::influences::<L>(&d.prim, &ctx)?);
        if normals {
            normal_values.extend(pose::normals::<L>(&d.prim, &ctx)?);
        }
        let local = d.prim.indices.as_deref().unwrap_or(&[]);
        indices.extend(local.iter().map(|&i| i as u16));
        parts.push(Part {
            vertices: vertices as u32,
            indices: local.len() as u32,
            bones: &d.palette,
        });
    }

    // Clips.
    let keys: Vec<Vec<pose::ChannelKeys>> =
        clips.iter().map(|&c| pose::clip_keys(rig, c, k)).collect();
    let channels: Vec<Vec<Channel<&[f32]>>> = keys
        .iter()
        .map(|ks| ks.iter().map(|c| c.channel(bone_of[c.node])).collect())
        .collect();
    let names: Vec<String> = clips.iter().map(|&c| clip_name(rig, c)).collect();
    let clip_parts: Vec<ClipParts<'_>> = keys
        .iter()
        .zip(&channels)
        .zip(&names)
        .map(|((ks, chans), name)| ClipParts {
            name,
            duration: ks
                .iter()
                .filter_map(|c| c.times.last().copied())
                .fold(0.0, f32::max),
            channels: chans,
        })
        .collect();

    let (joint_bones, inverse_binds): (Vec<u16>, Vec<Affine<f32>>) =
        joint_list.iter().copied().unzip();
    let asset = AssetParts::<L> {
        unit_exponent: i8::try_from(k)
            .map_err(|_| BakeError::Capacity(format!("asset unit 2^{k} is out of range")))?,
        parents: &parents,
        rest: &rest,
        root: Affine::IDENTITY,
        joints: &joint_bones,
        inverse_binds: &inverse_binds,
        positions: &positions,
        normals: normals.then_some(&normal_values[..]),
        influences: &influences,
        indices: &indices,
        parts: &parts,
        clips: &clip_parts,
    };
    let mut bytes = vec![0u8; asset.size()?];
    let n = asset.write(&mut bytes)?;
    bytes.truncate(n);
    Ok(Baked {
        bytes,
        unit_exponent: k,
        bones: nodes,
        joints: joint_list.len(),
        parts: draws.into_iter().map(|d| d.source).collect(),
        clips: clips.to_vec(),
        normals,
        duplicated,
    })
}
