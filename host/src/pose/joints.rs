//! Every joint's world matrix in a frame (`skin pose`'s `"joints"`), so that what the
//! animation does to a skeleton can be checked from outside: end effectors, bone lengths,
//! limits.

use skin_core::num::{Fx, Real};
use skin_core::transform::Transform;

use super::animate::frame;
use super::error::PoseError;
use super::lane::LaneKind;
use super::palette::world;
use super::units::fixed_unit;
use crate::rig::Rig;

/// A joint node and its world matrix.
#[derive(Clone, Debug, PartialEq)]
pub struct JointWorld {
    /// The node index.
    pub node: usize,
    /// The node's name, if any.
    pub name: Option<String>,
    /// The world matrix, 4×4 column-major as glTF writes matrices, in model units.
    pub world: [f32; 16],
}

/// The world matrices of every node that is a joint of any skin, in node order, at the rest
/// pose (`anim` = `None`) or clip `c` at `t` seconds, computed in the pose scalar of `lane`
/// (`f32`, or `I8F24` in asset units for the fixed lane) by skin-core's forward kinematics.
///
/// ```
/// use skin_host::character::Character;
/// use skin_host::pose::{joint_worlds, LaneKind};
/// let rig = skin_host::import::from_slice(&Character::new().glb(), None)?;
/// let joints = joint_worlds(&rig, Some((0, 0.5)), LaneKind::F32)?;
/// assert!(!joints.is_empty());
/// assert_eq!(joints[0].world[15], 1.0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn joint_worlds(
    rig: &Rig,
    anim: Option<(usize, f32)>,
    lane: LaneKind,
) -> Result<Vec<JointWorld>, PoseError> {
    match lane {
        LaneKind::F32 => worlds_in::<f32>(rig, &frame::<f32>(rig, anim, 0)?, 0),
        LaneKind::Fixed => {
            let k = fixed_unit(rig)?;
            worlds_in::<Fx>(rig, &frame::<Fx>(rig, anim, k)?, k)
        }
    }
}

/// [`joint_worlds`] from node transforms `locals` in asset units `2^k`.
pub fn worlds_in<R: Real>(
    rig: &Rig,
    locals: &[Transform<R>],
    k: i32,
) -> Result<Vec<JointWorld>, PoseError> {
    // Skin by skin, as the palettes are built: each skin's joints and their ancestors fit
    // the host's skeleton capacity, while all skins of a model together need not
    // (RecursiveSkeletons has 84 skins and 840 joints).
    let mut found: Vec<Option<[f32; 16]>> = vec![None; rig.nodes.len()];
    let back = 2f32.powi(k);
    for skin in &rig.skins {
        let nodes = rig.with_ancestors(&skin.joints);
        let worlds = world::<R>(rig, locals, &nodes)?;
        for &j in &skin.joints {
            let Some(at) = nodes.iter().position(|&n| n == j) else {
                continue;
            };
            let m = worlds[at];
            let mut out = [0.0f32; 16];
            for (col, column) in out.chunks_exact_mut(4).enumerate() {
                for (row, v) in column.iter_mut().take(3).enumerate() {
                    let x = m.rows[row][col].to_f32();
                    *v = if col == 3 { x * back } else { x };
                }
            }
            out[15] = 1.0;
            found[j] = Some(out);
        }
    }
    Ok(found
        .into_iter()
        .enumerate()
        .filter_map(|(j, world)| {
            Some(JointWorld {
                node: j,
                name: rig.nodes[j].name.clone(),
                world: world?,
            })
        })
        .collect())
}
