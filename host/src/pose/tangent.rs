//! Tangents: every primitive's glTF `TANGENT`s skinned with its positions' palette, like
//! normals ([`skin_core::tangent`]): the direction through the blended linear part,
//! renormalised, the handedness `w` kept, by linear blend or dual quaternion skinning.

use skin_core::lane::{Lane, Q14};
use skin_core::tangent;
use skin_core::transform::Transform;

use super::animate::frame;
use super::error::PoseError;
use super::lane::{LaneKind, Skinning};
use super::palette::{node_palette, skin_dual_palette, skin_palette};
use super::units::fixed_unit;
use super::values::{influences, positions};
use crate::rig::Rig;

/// The skinned tangents of one primitive of one mesh node (glTF world space directions).
#[derive(Clone, Debug, PartialEq)]
pub struct PosedTangents {
    /// The node that instantiates the mesh.
    pub node: usize,
    /// The mesh.
    pub mesh: usize,
    /// The primitive within the mesh.
    pub primitive: usize,
    /// `xyz` unit directions and the handedness `w`, in accessor order.
    pub tangents: Vec<[f32; 4]>,
}

/// The skinned tangents of every (mesh node, primitive) that has them, in node order, at
/// the rest pose (`anim` = `None`) or clip `c` at `t` seconds, in `lane`, by `skinning`.
pub fn tangents(
    rig: &Rig,
    anim: Option<(usize, f32)>,
    lane: LaneKind,
    skinning: Skinning,
) -> Result<Vec<PosedTangents>, PoseError> {
    match lane {
        LaneKind::F32 => tangents_in::<f32>(rig, &frame::<f32>(rig, anim, 0)?, 0, skinning),
        LaneKind::Fixed => {
            let k = fixed_unit(rig)?;
            tangents_in::<Q14>(rig, &frame(rig, anim, k)?, k, skinning)
        }
    }
}

/// [`tangents`] in lane `L` with the node transforms `locals` (asset units `2^k`).
pub fn tangents_in<L: Lane>(
    rig: &Rig,
    locals: &[Transform<L::Real>],
    k: i32,
    skinning: Skinning,
) -> Result<Vec<PosedTangents>, PoseError> {
    let mut out = Vec::new();
    for (node, mesh, skin) in rig.mesh_nodes() {
        for (pi, prim) in rig.meshes[mesh].primitives.iter().enumerate() {
            let Some(given) = &prim.tangents else {
                continue;
            };
            let ctx = format!("node {node} mesh {mesh} primitive {pi}");
            let failed = || PoseError::core(format!("{ctx} TANGENT in {}", L::NAME));
            let lane = given
                .iter()
                .map(|t| {
                    let mut v = [L::default(); 4];
                    for (o, &c) in v.iter_mut().zip(t) {
                        *o = L::from_f32(c).map_err(|_| {
                            PoseError::Range(format!(
                                "{ctx}: TANGENT component {c} does not fit {}",
                                L::NAME
                            ))
                        })?;
                    }
                    Ok(v)
                })
                .collect::<Result<Vec<_>, PoseError>>()?;
            let pos = positions::<L>(prim, k, &ctx)?;
            let mut turned = vec![[L::default(); 4]; lane.len()];
            match (skin, &prim.influences) {
                (Some(s), Some(_)) => {
                    let inf = influences::<L>(prim, &ctx)?;
                    match skinning {
                        Skinning::Lbs => {
                            let palette = skin_palette::<L>(rig, locals, s, k)?;
                            tangent::skinned::<L, 4>(
                                &pos,
                                &inf,
                                &palette.matrices,
                                &lane,
                                &mut turned,
                            )
                        }
                        Skinning::Dqs => {
                            let palette = skin_dual_palette::<L>(rig, locals, s, k)?;
                            tangent::skinned_dqs::<L, 4>(&pos, &inf, &palette, &lane, &mut turned)
                        }
                    }
                    .map_err(failed())?;
                }
                _ => {
                    let palette = node_palette::<L>(rig, locals, node, k)?;
                    let bones = vec![0u8; pos.len()];
                    tangent::rigid::<L>(&pos, &bones, &palette.matrices, &lane, &mut turned)
                        .map_err(failed())?;
                }
            }
            out.push(PosedTangents {
                node,
                mesh,
                primitive: pi,
                tangents: turned.iter().map(|t| t.map(L::to_f32)).collect(),
            });
        }
    }
    Ok(out)
}
