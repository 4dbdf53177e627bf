//! The parts' vertex arrays in the lane: positions and normals in asset units, influences,
//! and 16-bit triangle indices local to each part.

use skin_core::asset::{AssetLane, Part};
use skin_core::vertex::Influence;

use super::draws::Draw;
use super::error::BakeError;
use crate::pose::values::{centred_positions, influences, normals};
use crate::rig::Rig;

/// Every draw call's vertices, one part after another, in lane `L`.
pub struct Vertices<'a, L: AssetLane> {
    /// Positions, asset units.
    pub positions: Vec<[L; 3]>,
    /// Normals, when every part has them.
    pub normals: Option<Vec<[L; 3]>>,
    /// Influences.
    pub influences: Vec<Influence<L>>,
    /// Triangle indices, local to each part.
    pub indices: Vec<u16>,
    /// The parts, palettes borrowed from the draw calls.
    pub parts: Vec<Part<'a>>,
}

impl<'a, L: AssetLane> Vertices<'a, L> {
    /// The arrays of `draws`, lengths in asset units `2^k`, the positions of those `rig`
    /// skins less `centre` (asset units).
    pub fn new(rig: &Rig, draws: &'a [Draw], k: i32, centre: [f32; 3]) -> Result<Self, BakeError> {
        let with_normals = draws.iter().all(|d| d.prim.normals.is_some());
        let mut v = Self {
            positions: Vec::new(),
            normals: with_normals.then(Vec::new),
            influences: Vec::new(),
            indices: Vec::new(),
            parts: Vec::with_capacity(draws.len()),
        };
        for d in draws {
            let src = &d.source;
            let skinned = rig.nodes[src.node].skin.is_some()
                && rig.meshes[src.mesh].primitives[src.primitive]
                    .influences
                    .is_some();
            v.push(d, k, if skinned { centre } else { [0.0; 3] })?;
        }
        Ok(v)
    }

    /// Add draw call `d`'s vertices and its part.
    fn push(&mut self, d: &'a Draw, k: i32, centre: [f32; 3]) -> Result<(), BakeError> {
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
        self.positions
            .extend(centred_positions::<L>(&d.prim, k, centre, &ctx)?);
        self.influences.extend(influences::<L>(&d.prim, &ctx)?);
        if let Some(n) = &mut self.normals {
            n.extend(normals::<L>(&d.prim, &ctx)?);
        }
        let local = d.prim.indices.as_deref().unwrap_or(&[]);
        self.indices.extend(local.iter().map(|&i| i as u16));
        self.parts.push(Part {
            vertices: vertices as u32,
            indices: local.len() as u32,
            bones: &d.palette,
        });
        Ok(())
    }
}
