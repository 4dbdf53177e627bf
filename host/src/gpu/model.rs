//! A rig as the GPU reference draws it: each (mesh node, primitive) as one mesh for the
//! compute path and as palette-split draw calls within a budget for the vertex paths, and
//! the `f32` palettes of a frame — the very palettes skin-core skins with in
//! [`crate::pose::palette`] (joint matrices, or unit dual quaternions for dual quaternion
//! skinning), so the GPU and the core differ only in the skinning itself.

use skin_core::budget::{Budget, Layout};
use skin_core::raster::Bounds;
use skin_core::transform::Transform;

use super::{DrawCall, FramePalette, GpuError, GpuMesh, MeshDraws, Shading, SplitMesh};
use crate::pose::animate::frame;
use crate::pose::morph::weights;
use crate::pose::palette::{node_world, skin_palette, skin_stretch_palette};
use crate::pose::{PoseError, Skinning};
use crate::rig::Rig;
use crate::split::split;

/// One (mesh node, primitive) ready to draw.
#[derive(Clone, Debug, PartialEq)]
pub struct GpuPrimitive {
    /// The mesh node.
    pub node: usize,
    /// The mesh.
    pub mesh: usize,
    /// The primitive within the mesh.
    pub primitive: usize,
    /// The skin whose palette moves it; `None` for a rigid primitive (placed by the node's
    /// world matrix: an unskinned mesh, or a skinned node's primitive without weights).
    pub skin: Option<usize>,
    /// The primitive's vertices in accessor order (the compute path).
    pub whole: GpuMesh,
    /// Its palette splits (the vertex paths).
    pub split: SplitMesh,
}

/// Every (mesh node, primitive) of a rig, split for one budget and layout.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    /// The primitives, in node order (as [`crate::pose::pose()`] lists them).
    pub primitives: Vec<GpuPrimitive>,
    /// The budget the draw calls fit.
    pub budget: Budget,
    /// The matrix layout of the vertex paths (3×4 or 4×4; skinned primitives under dual
    /// quaternion skinning are drawn with dual quaternions).
    pub layout: Layout,
    /// The skinning method of skinned primitives (rigid ones are placed by a matrix).
    pub skinning: Skinning,
    /// Whether every primitive has normals (else the picture is unlit, as the baked asset).
    pub normals: bool,
}

impl Model {
    /// Split every triangle primitive of `rig` into draw calls of at most
    /// `budget.capacity(layout)` bones, for linear blend skinning.
    pub fn new(rig: &Rig, budget: Budget, layout: Layout) -> Result<Self, GpuError> {
        Self::with_skinning(rig, budget, layout, Skinning::Lbs)
    }

    /// [`Model::new`] for the skinning method `skinning`: under dual quaternion skinning
    /// the skinned primitives are split to `budget.capacity(Layout::DualQuat)` bones (two
    /// registers a bone), and `layout` (3×4 or 4×4) only places rigid primitives.
    pub fn with_skinning(
        rig: &Rig,
        budget: Budget,
        layout: Layout,
        skinning: Skinning,
    ) -> Result<Self, GpuError> {
        if layout == Layout::DualQuat {
            return Err(GpuError::Layout { layout });
        }
        let skinned = match skinning {
            Skinning::Lbs => layout,
            Skinning::Dqs => Layout::DualQuat,
        };
        let capacity = budget.capacity(skinned);
        if capacity == 0 {
            return Err(GpuError::EmptyBudget {
                budget: budget.name,
                layout: skinned,
            });
        }
        let mut primitives = Vec::new();
        for (node, mesh, skin) in rig.mesh_nodes() {
            for (pi, prim) in rig.meshes[mesh].primitives.iter().enumerate() {
                let prim = prim.drawn(skin.is_some());
                let whole = GpuMesh::from_primitive(&prim)?;
                let skin = skin.filter(|_| prim.influences.is_some());
                let split = match skin {
                    Some(_) => {
                        let s = split(&prim, capacity).map_err(|source| GpuError::Split {
                            node,
                            mesh,
                            primitive: pi,
                            budget: budget.name,
                            source,
                        })?;
                        GpuMesh::from_split(&prim, &s)?
                    }
                    None => SplitMesh {
                        draws: whole.single_draw(1),
                        origin: (0..whole.len() as u32).collect(),
                        mesh: whole.clone(),
                    },
                };
                primitives.push(GpuPrimitive {
                    node,
                    mesh,
                    primitive: pi,
                    skin,
                    whole,
                    split,
                });
            }
        }
        let normals = rig
            .mesh_nodes()
            .flat_map(|(_, m, _)| &rig.meshes[m].primitives)
            .all(|p| p.normals.is_some());
        Ok(Self {
            primitives,
            budget,
            layout,
            skinning,
            normals,
        })
    }

    /// The `f32` palette of each primitive at the rest pose (`anim` = `None`) or clip `c` at
    /// `t` seconds (`Some((c, t))`, sampled as [`crate::pose::pose()`] samples it): the skin's
    /// `W · IBM` per joint (as unit dual quaternions under dual quaternion skinning, with
    /// the stretches where a joint has scale or shear), or the
    /// node's world matrix for a rigid primitive.
    pub fn palettes(
        &self,
        rig: &Rig,
        anim: Option<(usize, f32)>,
    ) -> Result<Vec<FramePalette>, PoseError> {
        self.palettes_of(rig, &frame::<f32>(rig, anim, 0)?)
    }

    /// [`Self::palettes`] of the node transforms `locals` (one a rig node, model units):
    /// a frame the animation layer changed (`skin render --ik`).
    pub fn palettes_of(
        &self,
        rig: &Rig,
        locals: &[Transform<f32>],
    ) -> Result<Vec<FramePalette>, PoseError> {
        let mut skins: Vec<Option<FramePalette>> = vec![None; rig.skins.len()];
        self.primitives
            .iter()
            .map(|b| match b.skin {
                Some(s) => {
                    if skins[s].is_none() {
                        skins[s] = Some(match self.skinning {
                            Skinning::Lbs => FramePalette::Matrices(
                                skin_palette::<f32>(rig, locals, s, 0)?.matrices,
                            ),
                            Skinning::Dqs => {
                                let p = skin_stretch_palette::<f32>(rig, locals, s, 0)?;
                                match p.stretches {
                                    None => FramePalette::Duals(p.duals),
                                    Some(st) => FramePalette::Stretched(p.duals, st),
                                }
                            }
                        });
                    }
                    Ok(skins[s]
                        .clone()
                        .unwrap_or(FramePalette::Matrices(Vec::new())))
                }
                None => Ok(FramePalette::Matrices(vec![node_world::<f32>(
                    rig, locals, b.node,
                )?])),
            })
            .collect()
    }

    /// The morph-target weights of each primitive at the rest pose (`anim` = `None`) or clip
    /// `c` at `t` seconds (`Some((c, t))`): its node's, as [`crate::pose::pose()`] applies
    /// them (empty for a mesh without targets).
    pub fn morph_weights(&self, rig: &Rig, anim: Option<(usize, f32)>) -> Vec<Vec<f32>> {
        let nodes = weights(rig, anim);
        self.primitives
            .iter()
            .map(|b| nodes[b.node].clone())
            .collect()
    }

    /// The box around every drawn vertex's bind position (what `skin_core::scene::Scene`
    /// frames for the same model baked in `f32`); `None` without vertices.
    pub fn bounds(&self) -> Option<Bounds> {
        Bounds::of(
            self.primitives
                .iter()
                .flat_map(|b| b.split.mesh.positions().iter().copied()),
        )
    }

    /// The primitives' split meshes with `palettes` (from [`Model::palettes`]) and morph
    /// `weights` (from [`Model::morph_weights`]), for [`super::Reference::render`].
    pub fn mesh_draws<'a>(
        &'a self,
        palettes: &'a [FramePalette],
        weights: &'a [Vec<f32>],
    ) -> Vec<MeshDraws<'a>> {
        self.primitives
            .iter()
            .zip(palettes)
            .zip(weights)
            .map(|((b, p), w)| MeshDraws {
                mesh: &b.split.mesh,
                palette: p.bones(),
                weights: w,
                draws: &b.split.draws,
            })
            .collect()
    }

    /// Lambert when every primitive has normals, else unlit.
    pub fn shading(&self) -> Shading {
        if self.normals {
            Shading::Lambert
        } else {
            Shading::Unlit
        }
    }

    /// Draw calls a frame takes: one per part of every primitive.
    pub fn draw_calls(&self) -> usize {
        self.primitives
            .iter()
            .flat_map(|b| &b.split.draws)
            .filter(|d: &&DrawCall| !d.indices.is_empty())
            .count()
    }
}
