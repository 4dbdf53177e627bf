//! The in-memory rig a glTF file imports to: nodes, skins, meshes and clips, in `f32` as
//! glTF stores them, with indices as in the file. Its clip channels use skin-core's own
//! [`Path`] and [`Interpolation`]; [`world64`] computes node world matrices in `f64`;
//! [`fold`] takes authoring scales (an armature ×100 or ×0.01) out of the hierarchy, which
//! the importer does to every rig.

pub use skin_core::clip::{Interpolation, Path};

pub mod fold;
pub mod warning;
pub mod world64;

/// Translation, rotation (quaternion `[x, y, z, w]`) and scale: `T·R·S`, as the file stores
/// them. Not skin-core's `Transform<f32>`, whose rotation is a unit quaternion: the rig keeps
/// the file's values, and the pose stage normalises them (`Transform::from_f32`) in its lane.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Trs {
    /// Translation.
    pub translation: [f32; 3],
    /// Rotation `[x, y, z, w]`.
    pub rotation: [f32; 4],
    /// Scale.
    pub scale: [f32; 3],
}

impl Trs {
    /// No translation, rotation or scale.
    pub const IDENTITY: Trs = Trs {
        translation: [0.0; 3],
        rotation: [0.0, 0.0, 0.0, 1.0],
        scale: [1.0; 3],
    };
}

/// A node of the scene graph.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    /// Its name, if the file gives one.
    pub name: Option<String>,
    /// Its parent node.
    pub parent: Option<usize>,
    /// Its local transform (a glTF `matrix` is decomposed into TRS on import).
    pub local: Trs,
    /// The mesh it instantiates.
    pub mesh: Option<usize>,
    /// The skin that binds that mesh.
    pub skin: Option<usize>,
    /// Its morph-target weights (`node.weights`), overriding its mesh's defaults.
    pub weights: Option<Vec<f32>>,
}

/// A skin: joints (node indices, in palette order) and their inverse bind matrices.
#[derive(Clone, Debug, PartialEq)]
pub struct Skin {
    /// Its name, if any.
    pub name: Option<String>,
    /// Joint nodes; a vertex's joint index `j` means node `joints[j]`.
    pub joints: Vec<usize>,
    /// One row-major affine 3×4 inverse bind matrix per joint (identity when the file has none).
    pub inverse_binds: Vec<[[f32; 4]; 3]>,
}

/// Up to four bone influences of a vertex: joint indices into the skin's joint list and
/// weights, largest first, summing to one; unused slots have weight 0 and repeat joint 0.
/// Not skin-core's `Influence`, which holds 8-bit palette bones and lane weights: joint
/// indices here name the skin's joint list (any length), as the file does, and become a
/// part's palette bones only when split ([`crate::split`]) or posed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Influence4 {
    /// Joint indices.
    pub joints: [u16; 4],
    /// Weights, non-increasing.
    pub weights: [f32; 4],
}

/// How a primitive's indices form elements.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Points.
    Points,
    /// Separate lines.
    Lines,
    /// A closed line loop.
    LineLoop,
    /// A line strip.
    LineStrip,
    /// Separate triangles.
    Triangles,
    /// A triangle strip.
    TriangleStrip,
    /// A triangle fan.
    TriangleFan,
}

/// One primitive of a mesh.
#[derive(Clone, Debug, PartialEq)]
pub struct Primitive {
    /// Topology.
    pub mode: Mode,
    /// `POSITION`.
    pub positions: Vec<[f32; 3]>,
    /// `NORMAL`, if present.
    pub normals: Option<Vec<[f32; 3]>>,
    /// `TANGENT` (`xyz` and the handedness `w`, ±1), if present.
    pub tangents: Option<Vec<[f32; 4]>>,
    /// Indices, if present (else the vertices in order).
    pub indices: Option<Vec<u32>>,
    /// Influences, if the primitive has `JOINTS_n`/`WEIGHTS_n`.
    pub influences: Option<Vec<Influence4>>,
    /// The most non-zero influences any vertex had in the file (before reduction to 4).
    pub max_influences: usize,
    /// The largest weight dropped by the reduction to 4 influences (0 when none was).
    pub largest_dropped: f32,
    /// Morph targets, in the file's order (the same number in every primitive of a mesh).
    pub targets: Vec<Target>,
}

/// One morph target of a primitive: per-vertex displacements added, scaled by the target's
/// weight, to the base attribute (`v = base + Σ wᵢ·deltaᵢ`), one per vertex of the base.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Target {
    /// `POSITION` deltas, if the target moves positions.
    pub positions: Option<Vec<[f32; 3]>>,
    /// `NORMAL` deltas, if the target turns normals.
    pub normals: Option<Vec<[f32; 3]>>,
}

impl Primitive {
    /// The primitive as a node draws it: without its influences when the node has no skin
    /// (glTF draws a mesh unskinned where its node has no skin, whatever its attributes).
    ///
    /// ```
    /// # use skin_host::rig::{Influence4, Mode, Primitive};
    /// let rigid = Influence4 { joints: [1, 1, 1, 1], weights: [1.0, 0.0, 0.0, 0.0] };
    /// let prim = Primitive { mode: Mode::Points, positions: vec![[0.0; 3]], normals: None,
    ///     tangents: None, indices: None, influences: Some(vec![rigid]), max_influences: 1, largest_dropped: 0.0,
    ///     targets: vec![] };
    /// assert!(prim.drawn(true).influences.is_some());
    /// assert!(prim.drawn(false).influences.is_none());
    /// ```
    pub fn drawn(&self, skinned: bool) -> std::borrow::Cow<'_, Primitive> {
        if skinned || self.influences.is_none() {
            std::borrow::Cow::Borrowed(self)
        } else {
            std::borrow::Cow::Owned(Primitive {
                influences: None,
                ..self.clone()
            })
        }
    }

    /// The vertex indices, explicit or implicit.
    pub fn index_list(&self) -> Vec<u32> {
        match &self.indices {
            Some(i) => i.clone(),
            None => (0..self.positions.len() as u32).collect(),
        }
    }

    /// The elements (points, lines or triangles) as lists of vertex indices; strips, fans and
    /// loops are unrolled.
    pub fn elements(&self) -> Vec<Vec<u32>> {
        let idx = self.index_list();
        match self.mode {
            Mode::Points => idx.iter().map(|&i| vec![i]).collect(),
            Mode::Lines => idx.chunks_exact(2).map(<[u32]>::to_vec).collect(),
            Mode::LineStrip => idx.windows(2).map(<[u32]>::to_vec).collect(),
            Mode::LineLoop => {
                let mut e: Vec<Vec<u32>> = idx.windows(2).map(<[u32]>::to_vec).collect();
                if let (Some(&first), Some(&last)) = (idx.first(), idx.last()) {
                    if idx.len() > 2 {
                        e.push(vec![last, first]);
                    }
                }
                e
            }
            Mode::Triangles => idx.chunks_exact(3).map(<[u32]>::to_vec).collect(),
            Mode::TriangleStrip => idx
                .windows(3)
                .enumerate()
                .map(|(i, w)| {
                    if i % 2 == 0 {
                        vec![w[0], w[1], w[2]]
                    } else {
                        vec![w[1], w[0], w[2]]
                    }
                })
                .collect(),
            Mode::TriangleFan => match idx.split_first() {
                Some((&hub, rest)) => rest.windows(2).map(|w| vec![hub, w[0], w[1]]).collect(),
                None => Vec::new(),
            },
        }
    }
}

/// A mesh: one or more primitives.
#[derive(Clone, Debug, PartialEq)]
pub struct Mesh {
    /// Its name, if any.
    pub name: Option<String>,
    /// Its primitives.
    pub primitives: Vec<Primitive>,
    /// Default morph-target weights (`mesh.weights`), one per target; zeros when the file
    /// gives none.
    pub weights: Vec<f32>,
    /// Target names from `mesh.extras.targetNames`, one per target when the file gives them.
    pub target_names: Vec<String>,
}

impl Mesh {
    /// Morph targets per primitive (every primitive has the same number).
    pub fn targets(&self) -> usize {
        self.weights.len()
    }
}

/// One animated property of one node.
#[derive(Clone, Debug, PartialEq)]
pub struct Channel {
    /// The node.
    pub node: usize,
    /// The property.
    pub path: Path,
    /// Interpolation.
    pub interpolation: Interpolation,
    /// Key times in seconds, increasing.
    pub times: Vec<f32>,
    /// Key values, flat: `width` a key, or `3·width` for cubic splines.
    pub values: Vec<f32>,
}

/// The morph-target weights of one node's mesh, animated.
#[derive(Clone, Debug, PartialEq)]
pub struct WeightChannel {
    /// The node (it instantiates a mesh with targets).
    pub node: usize,
    /// Interpolation.
    pub interpolation: Interpolation,
    /// Key times in seconds, increasing.
    pub times: Vec<f32>,
    /// Key values, flat and key-major: `targets` weights a key, or for cubic splines
    /// `3·targets` (in-tangents, values, out-tangents, each `targets` long).
    pub values: Vec<f32>,
    /// The mesh's targets: weights a key (per part of a cubic-spline key).
    pub targets: usize,
}

/// An animation.
#[derive(Clone, Debug, PartialEq)]
pub struct Clip {
    /// Its name, if any.
    pub name: Option<String>,
    /// Its node-transform channels.
    pub channels: Vec<Channel>,
    /// Its morph-target weight channels.
    pub weights: Vec<WeightChannel>,
}

impl Clip {
    /// The last key time of any channel (0 for an empty clip).
    pub fn duration(&self) -> f32 {
        self.channels
            .iter()
            .map(|c| &c.times)
            .chain(self.weights.iter().map(|c| &c.times))
            .filter_map(|t| t.last().copied())
            .fold(0.0, f32::max)
    }
}

/// Everything the toolchain needs from a glTF file.
#[derive(Clone, Debug, PartialEq)]
pub struct Rig {
    /// Nodes, in file order.
    pub nodes: Vec<Node>,
    /// Node indices ordered so that every parent comes before its children.
    pub order: Vec<usize>,
    /// Skins.
    pub skins: Vec<Skin>,
    /// Meshes.
    pub meshes: Vec<Mesh>,
    /// Animations.
    pub clips: Vec<Clip>,
    /// What the importer cleaned up (renormalised weights, dropped influences, …).
    pub warnings: Vec<warning::Warning>,
}

impl Rig {
    /// `nodes` together with all their ancestors, parents first.
    pub fn with_ancestors(&self, nodes: &[usize]) -> Vec<usize> {
        let mut keep = vec![false; self.nodes.len()];
        for &n in nodes {
            let mut at = Some(n);
            while let Some(i) = at {
                if keep[i] {
                    break;
                }
                keep[i] = true;
                at = self.nodes[i].parent;
            }
        }
        self.order.iter().copied().filter(|&i| keep[i]).collect()
    }

    /// Every node's local transform as stored (the rest pose), indexed by node.
    pub fn rest_locals(&self) -> Vec<Trs> {
        self.nodes.iter().map(|n| n.local).collect()
    }

    /// The nodes that posing reads: the joints of the mesh nodes' skins, every mesh node
    /// that places a primitive by its own matrix (one without a skin, or with a primitive
    /// that has no weights), and all their ancestors, parents first. A skinned mesh node's
    /// own transform is ignored (glTF places skinned vertices by their joints alone), so a
    /// character of many skinned meshes costs its joints, not one bone per mesh node too.
    /// Other nodes (cameras, lights, unused skins) are never converted, so a value there
    /// that a lane cannot hold does not matter.
    pub fn posed_nodes(&self) -> Vec<usize> {
        let mut nodes = Vec::new();
        for (node, mesh, skin) in self.mesh_nodes() {
            let rigid = self.meshes[mesh]
                .primitives
                .iter()
                .any(|p| p.influences.is_none());
            if skin.is_none() || rigid {
                nodes.push(node);
            }
            if let Some(s) = skin {
                nodes.extend_from_slice(&self.skins[s].joints);
            }
        }
        self.with_ancestors(&nodes)
    }

    /// Why this rig's morph targets would move a vertex somewhere, or `None` when they
    /// never do (no targets, every weight zero and never animated): the paths that do not
    /// apply morph targets refuse a rig for which this is `Some`.
    ///
    /// ```
    /// # use skin_host::rig::Rig;
    /// let rig = Rig { nodes: vec![], order: vec![], skins: vec![], meshes: vec![],
    ///     clips: vec![], warnings: vec![] };
    /// assert_eq!(rig.morphs_in_use(), None);
    /// ```
    pub fn morphs_in_use(&self) -> Option<String> {
        for (node, mesh, _) in self.mesh_nodes() {
            let m = &self.meshes[mesh];
            let weights = self.nodes[node].weights.as_ref().unwrap_or(&m.weights);
            if let Some((t, w)) = weights.iter().enumerate().find(|(_, &w)| w != 0.0) {
                return Some(format!(
                    "node {node} draws mesh {mesh} with morph target {t} at weight {w}"
                ));
            }
        }
        for (a, clip) in self.clips.iter().enumerate() {
            if let Some(ch) = clip.weights.first() {
                return Some(format!(
                    "animation {a} animates the morph-target weights of node {}",
                    ch.node
                ));
            }
        }
        None
    }

    /// The nodes that instantiate a mesh, in node order: `(node, mesh, skin)`.
    pub fn mesh_nodes(&self) -> impl Iterator<Item = (usize, usize, Option<usize>)> + '_ {
        self.nodes
            .iter()
            .enumerate()
            .filter_map(|(i, n)| n.mesh.map(|m| (i, m, n.skin)))
    }
}
