//! Skinning: every (mesh node, primitive) of a rig skinned by skin-core's
//! [`SkinnedMesh`] (or placed by its node as a one-bone [`RigidMesh`]) in a lane.

use skin_core::lane::{Lane, Q14};
use skin_core::skin::{RigidMesh, SkinnedMesh};
use skin_core::transform::Transform;

use super::animate::frame;
use super::error::PoseError;
use super::lane::{LaneKind, Skinning};
use super::morph::{self, morphed};
use super::palette::{
    node_palette, real_centre, skin_palette, skin_stretch_palette, LanePalette, StretchedDuals,
};
use super::units::fixed_unit;
use super::units::lane_centre;
use super::values::{centred_positions, influences, positions};
use crate::rig::Rig;

/// Skinned positions of one primitive of one mesh node, in glTF world space.
#[derive(Clone, Debug, PartialEq)]
pub struct PosedPrimitive {
    /// The node that instantiates the mesh.
    pub node: usize,
    /// The mesh.
    pub mesh: usize,
    /// The primitive within the mesh.
    pub primitive: usize,
    /// Positions in glTF world space, in accessor order.
    pub positions: Vec<[f32; 3]>,
}

/// Skinned positions of one primitive of one mesh node as the lane's kernel writes them
/// (asset units).
#[derive(Clone, Debug, PartialEq)]
pub struct LanePosed<L: Lane> {
    /// The node that instantiates the mesh.
    pub node: usize,
    /// The mesh.
    pub mesh: usize,
    /// The primitive within the mesh.
    pub primitive: usize,
    /// The kernel's output, in accessor order.
    pub out: Vec<[L::Out; 3]>,
}

/// Skin every (mesh node, primitive) at the rest pose (`anim` = `None`) or with clip `c`
/// sampled at `t` seconds (`Some((c, t))`), in node order, morph targets at that frame's
/// weights ([`morph::weights`]). In fixed point the clip is sampled in `I8F24` asset units,
/// as on the device; morph targets are applied in `f32` before the positions are narrowed to
/// the lane.
pub fn pose(
    rig: &Rig,
    anim: Option<(usize, f32)>,
    lane: LaneKind,
) -> Result<Vec<PosedPrimitive>, PoseError> {
    pose_with(rig, anim, lane, Skinning::Lbs)
}

/// [`pose()`] by the skinning method `skinning`.
pub fn pose_with(
    rig: &Rig,
    anim: Option<(usize, f32)>,
    lane: LaneKind,
    skinning: Skinning,
) -> Result<Vec<PosedPrimitive>, PoseError> {
    pose_weighted(rig, anim, lane, skinning, &morph::weights(rig, anim))
}

/// [`pose_with`] with the morph-target weights given, indexed by node.
pub fn pose_weighted(
    rig: &Rig,
    anim: Option<(usize, f32)>,
    lane: LaneKind,
    skinning: Skinning,
    weights: &[Vec<f32>],
) -> Result<Vec<PosedPrimitive>, PoseError> {
    match lane {
        LaneKind::F32 => pose_in::<f32>(rig, &frame::<f32>(rig, anim, 0)?, weights, 0, skinning),
        LaneKind::Fixed => {
            let k = fixed_unit(rig)?;
            pose_in::<Q14>(rig, &frame(rig, anim, k)?, weights, k, skinning)
        }
    }
}

/// Skin every (mesh node, primitive) in lane `L` by the method `skinning`, with the node
/// transforms `locals` (indexed by node, asset units `2^k`; see [`frame`]) and morph-target
/// `weights` (indexed by node), positions back in model units.
pub fn pose_in<L: Lane>(
    rig: &Rig,
    locals: &[Transform<L::Real>],
    weights: &[Vec<f32>],
    k: i32,
    skinning: Skinning,
) -> Result<Vec<PosedPrimitive>, PoseError> {
    let back = 2f32.powi(k);
    let posed: Vec<PosedPrimitive> = pose_lane::<L>(rig, locals, weights, k, skinning)?
        .into_iter()
        .map(|b| PosedPrimitive {
            node: b.node,
            mesh: b.mesh,
            primitive: b.primitive,
            positions: b
                .out
                .iter()
                .map(|o| o.map(|c| L::out_to_f32(c) * back))
                .collect(),
        })
        .collect();
    finite(&posed, L::NAME)?;
    Ok(posed)
}

/// [`pose_in`] without the conversion back to model units: the kernel's own output. Under
/// [`Skinning::Dqs`], skinned primitives blend their joints' unit dual quaternions; rigid
/// ones are placed as under LBS.
pub fn pose_lane<L: Lane>(
    rig: &Rig,
    locals: &[Transform<L::Real>],
    weights: &[Vec<f32>],
    k: i32,
    skinning: Skinning,
) -> Result<Vec<LanePosed<L>>, PoseError> {
    let mut posed = Vec::new();
    // Skinned relative to the lane's centre (the palettes' left side and the skinned
    // positions' stored form), then added back, as the asset's player does.
    let centre = lane_centre::<L>(rig, k);
    let back = real_centre::<L::Real>(centre).map_err(PoseError::core("centre".to_string()))?;
    for (node, mesh, skin) in rig.mesh_nodes() {
        // Only the palette the method reads: matrices for LBS and for a skinless node,
        // dual quaternions for DQS.
        // Joints with scale or shear: split (Kavan et al.), in either lane.
        let no_duals = || StretchedDuals {
            duals: Vec::new(),
            stretches: None,
            exponent: 0,
        };
        let (palette, dual) = match (skin, skinning) {
            (Some(s), Skinning::Lbs) => (skin_palette::<L>(rig, locals, s, k)?, no_duals()),
            (Some(s), Skinning::Dqs) => {
                let none = LanePalette {
                    matrices: Vec::new(),
                    exponent: 0,
                };
                (none, skin_stretch_palette::<L>(rig, locals, s, k)?)
            }
            (None, _) => (node_palette::<L>(rig, locals, node, k)?, no_duals()),
        };
        for (pi, prim) in rig.meshes[mesh].primitives.iter().enumerate() {
            let ctx = format!("node {node} mesh {mesh} primitive {pi}");
            let prim = &*morphed(prim, &weights[node]);
            let skinned = skin.is_some() && prim.influences.is_some();
            let pos = match skinned {
                true => centred_positions::<L>(prim, k, centre, &ctx)?,
                false => positions::<L>(prim, k, &ctx)?,
            };
            let mut out = vec![[L::Out::default(); 3]; pos.len()];
            let failed = PoseError::core(format!("{ctx} in {}", L::NAME));
            match (skin, &prim.influences) {
                (Some(_), Some(_)) => {
                    let inf = influences::<L>(prim, &ctx)?;
                    SkinnedMesh::<L, 4>::new(&pos, &inf)
                        .and_then(|m| match skinning {
                            Skinning::Lbs => {
                                m.skin(&palette.matrices, &mut out)?;
                                palette.widen(&mut out);
                                Ok(())
                            }
                            Skinning::Dqs => {
                                m.skin_dqs_stretched(&dual.duals, dual.stretches(), &mut out)
                            }
                        })
                        .map_err(failed)?;
                }
                _ => {
                    // A rigid mesh (or a skinned node's primitive without weights, which
                    // glTF places by the node's world matrix too).
                    let by_node: LanePalette<L>;
                    let rigid = if skin.is_some() {
                        by_node = node_palette::<L>(rig, locals, node, k)?;
                        &by_node
                    } else {
                        &palette
                    };
                    let bones = vec![0u8; pos.len()];
                    RigidMesh::<L>::new(&pos, &bones)
                        .and_then(|m| m.skin(&rigid.matrices, &mut out))
                        .map_err(failed)?;
                    rigid.widen(&mut out);
                }
            }
            if centre != [0.0; 3] {
                for o in &mut out {
                    *o = [0, 1, 2].map(|i| L::offset(o[i], back[i]));
                }
            }
            posed.push(LanePosed {
                node,
                mesh,
                primitive: pi,
                out,
            });
        }
    }
    Ok(posed)
}

/// Every skinned position of `posed` (computed in lane `lane`) is a finite number:
/// `Ok`, or the first that is not, named.
pub fn finite(posed: &[PosedPrimitive], lane: &str) -> Result<(), PoseError> {
    for b in posed {
        if let Some((v, p)) = b
            .positions
            .iter()
            .enumerate()
            .find(|(_, p)| !p.iter().all(|c| c.is_finite()))
        {
            return Err(PoseError::Range(format!(
                "node {} mesh {} primitive {} vertex {v} skins to {p:?} in {lane}: the \
                 model's values overflow the number format",
                b.node, b.mesh, b.primitive
            )));
        }
    }
    Ok(())
}
