//! The asset's parts: each (mesh node, primitive) split by [`crate::split`] into draw calls
//! whose palettes fit the budget, or drawn rigidly by its node.

use skin_core::asset::MAX_PART_BONES;
use skin_core::budget::{Budget, Layout};

use super::bones::{JointKey, Joints};
use super::error::BakeError;
use crate::pose::Skinning;
use crate::rig::{Influence4, Mode, Primitive, Rig};
use crate::split::split;

/// How many bones a part's palette holds, and that limit in words for errors.
pub struct PaletteLimit {
    /// Bones a part may use.
    pub capacity: usize,
    /// E.g. `budget vs_1_1 holds 32 bones as 3x4 matrices`.
    pub words: String,
}

impl PaletteLimit {
    /// The limit of `budget` with entries in the layout of `skinning` (3×4 matrices, or dual
    /// quaternions), never above [`MAX_PART_BONES`]; `None`: only the format's limit. With
    /// `stretched` (dual quaternions of joints with scale or shear) each bone's stretch too:
    /// six entries, two more constant registers (a `vec4` and a half), so a budget holds
    /// half the bones it holds as plain dual quaternions.
    pub fn new(budget: Option<Budget>, skinning: Skinning, stretched: bool) -> Self {
        let layout = skinning.layout();
        let capacity = budget.map_or(MAX_PART_BONES, |b| b.capacity(layout).min(MAX_PART_BONES));
        let stretched = stretched && layout == Layout::DualQuat;
        let capacity = match (budget, stretched) {
            (Some(_), true) => capacity / 2,
            _ => capacity,
        };
        let words = match (budget, layout) {
            (Some(b), Layout::DualQuat) if stretched => format!(
                "budget {} holds {capacity} bones as dual quaternions with stretches",
                b.name
            ),
            (Some(b), Layout::DualQuat) => {
                format!(
                    "budget {} holds {capacity} bones as dual quaternions",
                    b.name
                )
            }
            (Some(b), _) => format!("budget {} holds {capacity} bones as 3x4 matrices", b.name),
            (None, _) => format!("a part holds at most {capacity} bones"),
        };
        Self { capacity, words }
    }
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

/// One draw call being assembled.
pub struct Draw {
    /// Where it comes from.
    pub source: PartSource,
    /// Joint entries of the palette.
    pub palette: Vec<u16>,
    /// Its vertices (bones renamed into the palette) and triangles.
    pub prim: Primitive,
}

/// Every draw call of `rig` in node order, its palette's entries added to `joints`, and
/// the vertices splitting duplicated.
pub fn draws(
    rig: &Rig,
    limit: &PaletteLimit,
    joints: &mut Joints<'_>,
) -> Result<(Vec<Draw>, usize), BakeError> {
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
            let at = (node, mesh, pi);
            match (skin, &prim.influences) {
                (Some(sk), Some(_)) => {
                    duplicated += split_draws(prim, at, sk, limit, joints, &mut draws)?;
                }
                _ => draws.push(Draw {
                    prim: rigid(prim),
                    palette: vec![joints.entry(JointKey::Rigid(node))?],
                    source: source(at, (0..prim.positions.len() as u32).collect()),
                }),
            }
        }
    }
    if draws.is_empty() {
        return Err(BakeError::NoMesh);
    }
    Ok((draws, duplicated))
}

/// The part of `(node, mesh, primitive)` made of the primitive's `vertices`.
fn source((node, mesh, primitive): (usize, usize, usize), vertices: Vec<u32>) -> PartSource {
    PartSource {
        node,
        mesh,
        primitive,
        vertices,
    }
}

/// The draw calls of skinned primitive `prim` (at `(node, mesh, primitive)`, of skin `sk`)
/// onto `draws`; the vertices splitting duplicated.
fn split_draws(
    prim: &Primitive,
    at: (usize, usize, usize),
    sk: usize,
    limit: &PaletteLimit,
    joints: &mut Joints<'_>,
    draws: &mut Vec<Draw>,
) -> Result<usize, BakeError> {
    let (node, mesh, primitive) = at;
    let sp = split(prim, limit.capacity).map_err(|source| BakeError::Split {
        node,
        mesh,
        primitive,
        budget: limit.words.clone(),
        source,
    })?;
    for part in sp.parts {
        let palette = part
            .bones
            .iter()
            .map(|&j| joints.entry(JointKey::Skin(sk, usize::from(j))))
            .collect::<Result<_, _>>()?;
        draws.push(Draw {
            prim: part.primitive(prim, sp.arity),
            palette,
            source: source(at, part.vertices),
        });
    }
    Ok(sp.duplicated)
}

/// `prim` as one part of triangles whose every vertex follows palette entry 0.
fn rigid(prim: &Primitive) -> Primitive {
    let one = Influence4 {
        joints: [0; 4],
        weights: [1.0, 0.0, 0.0, 0.0],
    };
    Primitive {
        mode: Mode::Triangles,
        indices: Some(prim.elements().concat()),
        influences: Some(vec![one; prim.positions.len()]),
        ..prim.clone()
    }
}
