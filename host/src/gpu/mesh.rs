//! Meshes as the GPU draws them: vertex arrays, an index list, and draw calls.

use std::ops::Range;

use skin_core::vertex::Influence;

use super::GpuError;
use crate::rig::{Mode, Primitive};
use crate::split::Split;

/// A triangle mesh for the GPU reference: positions, normals and influences per vertex
/// (bones are indices into the whole palette, as skin-core skins them), triangles, and its
/// morph targets' deltas.
#[derive(Clone, Debug, PartialEq)]
pub struct GpuMesh {
    positions: Vec<[f32; 3]>,
    normals: Vec<[f32; 3]>,
    influences: Vec<Influence<f32>>,
    indices: Vec<u32>,
    /// Morph targets.
    targets: usize,
    /// Each target's deltas, target-major: `deltas[t · vertices + v]` is target `t`'s
    /// position delta and normal delta of vertex `v` (zero where it moves nothing).
    deltas: Vec<[f32; 6]>,
}

/// One draw call: the triangles `indices` (a range of the mesh's index list) drawn with
/// the palette `bones` (palette slot `i` holds joint `bones[i]`), so a draw call's palette
/// is what one constant-register budget must hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DrawCall {
    /// A range of the index list, whole triangles.
    pub indices: Range<u32>,
    /// Palette slot → joint.
    pub bones: Vec<u16>,
}

/// A primitive split into draw calls: one mesh holding every part's vertices, the draw
/// calls, and the primitive's vertex that each mesh vertex is.
#[derive(Clone, Debug, PartialEq)]
pub struct SplitMesh {
    /// The parts' vertices and triangles.
    pub mesh: GpuMesh,
    /// One draw call per part.
    pub draws: Vec<DrawCall>,
    /// `origin[v]`: the primitive's vertex that mesh vertex `v` copies.
    pub origin: Vec<u32>,
}

impl GpuMesh {
    /// A mesh; every array has one entry per vertex, and `indices` (triangles) name
    /// existing vertices.
    pub fn new(
        positions: Vec<[f32; 3]>,
        normals: Vec<[f32; 3]>,
        influences: Vec<Influence<f32>>,
        indices: Vec<u32>,
    ) -> Result<Self, GpuError> {
        let n = positions.len();
        for (what, len) in [("normals", normals.len()), ("influences", influences.len())] {
            if len != n {
                return Err(GpuError::Length {
                    what,
                    expected: n,
                    actual: len,
                });
            }
        }
        if let Some((position, &index)) = indices.iter().enumerate().find(|(_, &i)| i as usize >= n)
        {
            return Err(GpuError::Index {
                position,
                index,
                vertices: n,
            });
        }
        let finite = |v: &[f32; 3]| v.iter().all(|c| c.is_finite());
        for (what, values) in [("position", &positions), ("normal", &normals)] {
            if let Some(v) = values.iter().position(|p| !finite(p)) {
                return Err(GpuError::NotFinite {
                    what: format!("{what} of vertex {v}"),
                });
            }
        }
        Ok(Self {
            positions,
            normals,
            influences,
            indices,
            targets: 0,
            deltas: Vec::new(),
        })
    }

    /// The mesh with `targets` morph targets whose deltas are `deltas` (target-major, one
    /// position and normal delta a vertex a target; see [`GpuMesh::deltas`]), every one
    /// finite.
    fn with_deltas(mut self, targets: usize, deltas: Vec<[f32; 6]>) -> Result<Self, GpuError> {
        let n = self.len();
        if deltas.len() != targets * n {
            return Err(GpuError::Length {
                what: "morph-target deltas",
                expected: targets * n,
                actual: deltas.len(),
            });
        }
        if let Some(i) = deltas.iter().position(|d| !d.iter().all(|c| c.is_finite())) {
            return Err(GpuError::NotFinite {
                what: format!("morph target {} delta of vertex {}", i / n, i % n),
            });
        }
        self.targets = targets;
        self.deltas = deltas;
        Ok(self)
    }

    /// A triangle primitive as it is skinned: its vertices in accessor order, its influences
    /// (bones are the skin's joints), its triangles (strips and fans unrolled) and its
    /// morph targets. A primitive without weights is rigid: every vertex follows palette
    /// entry 0.
    pub fn from_primitive(prim: &Primitive) -> Result<Self, GpuError> {
        if !matches!(
            prim.mode,
            Mode::Triangles | Mode::TriangleStrip | Mode::TriangleFan
        ) {
            return Err(GpuError::NotTriangles { mode: prim.mode });
        }
        let influences = match crate::pose::values::influences::<f32>(prim, "GPU mesh")? {
            i if i.is_empty() => vec![Influence::rigid(0); prim.positions.len()],
            i => i,
        };
        let normals = prim
            .normals
            .clone()
            .unwrap_or_else(|| vec![[0.0; 3]; prim.positions.len()]);
        let indices = prim.elements().concat();
        let n = prim.positions.len();
        let mut deltas = vec![[0.0f32; 6]; prim.targets.len() * n];
        for (t, target) in prim.targets.iter().enumerate() {
            let parts = [(0, &target.positions), (3, &target.normals)];
            for (at, values) in parts {
                for (v, d) in values.iter().flatten().enumerate().take(n) {
                    deltas[t * n + v][at..at + 3].copy_from_slice(d);
                }
            }
        }
        Self::new(prim.positions.clone(), normals, influences, indices)?
            .with_deltas(prim.targets.len(), deltas)
    }

    /// A palette-split primitive as one mesh: the parts' vertices one after the other
    /// (duplicated where parts meet), their triangles, and one draw call per part.
    pub fn from_split(prim: &Primitive, split: &Split) -> Result<SplitMesh, GpuError> {
        let whole = Self::from_primitive(prim)?;
        let (mut pos, mut nrm, mut inf, mut idx) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        let (mut draws, mut origin): (_, Vec<u32>) = (Vec::new(), Vec::new());
        for part in &split.parts {
            let base = pos.len() as u32;
            let start = idx.len() as u32;
            for &v in &part.vertices {
                let v = v as usize;
                pos.push(whole.positions[v]);
                nrm.push(whole.normals[v]);
                inf.push(whole.influences[v]);
            }
            origin.extend_from_slice(&part.vertices);
            idx.extend(part.indices.iter().map(|i| i + base));
            draws.push(DrawCall {
                indices: start..idx.len() as u32,
                bones: part.bones.clone(),
            });
        }
        let n = whole.len();
        let deltas = (0..whole.targets)
            .flat_map(|t| origin.iter().map(move |&v| t * n + v as usize))
            .map(|i| whole.deltas[i])
            .collect();
        Ok(SplitMesh {
            mesh: Self::new(pos, nrm, inf, idx)?.with_deltas(whole.targets, deltas)?,
            draws,
            origin,
        })
    }

    /// One draw call for all triangles with the identity remap over `palette` joints.
    pub fn single_draw(&self, palette: usize) -> Vec<DrawCall> {
        vec![DrawCall {
            indices: 0..self.indices.len() as u32,
            bones: (0..palette).map(|b| b as u16).collect(),
        }]
    }

    /// Vertices.
    pub fn len(&self) -> usize {
        self.positions.len()
    }

    /// `true` with no vertices.
    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }

    /// Bind positions.
    pub fn positions(&self) -> &[[f32; 3]] {
        &self.positions
    }

    /// Bind normals.
    pub fn normals(&self) -> &[[f32; 3]] {
        &self.normals
    }

    /// Influences (bones index the whole palette).
    pub fn influences(&self) -> &[Influence<f32>] {
        &self.influences
    }

    /// The triangle list.
    pub fn indices(&self) -> &[u32] {
        &self.indices
    }

    /// Morph targets.
    pub fn targets(&self) -> usize {
        self.targets
    }

    /// The morph targets' deltas, target-major: `deltas()[t · len() + v]` holds target
    /// `t`'s position delta (`[0..3]`) and normal delta (`[3..6]`) of vertex `v`.
    pub fn deltas(&self) -> &[[f32; 6]] {
        &self.deltas
    }

    /// Bones the influences use (largest index + 1).
    pub fn bone_count(&self) -> usize {
        self.influences
            .iter()
            .map(|i| usize::from(i.max_bone()) + 1)
            .max()
            .unwrap_or(0)
    }

    /// Bones as `u32` and the four weights (the implicit one first), per vertex.
    pub(super) fn attributes(&self) -> (Vec<[u32; 4]>, Vec<[f32; 4]>) {
        let bones = self
            .influences
            .iter()
            .map(|i| i.bones().map(u32::from))
            .collect();
        let weights = self.influences.iter().map(Influence::weights).collect();
        (bones, weights)
    }

    /// Check `draws` against the mesh and a palette of `palette` joints, and give each
    /// vertex its draw call's palette slots (a vertex no draw call draws keeps slot 0).
    pub(super) fn local_bones(
        &self,
        draws: &[DrawCall],
        palette: usize,
    ) -> Result<Vec<[u32; 4]>, GpuError> {
        let mut local = vec![[0u32; 4]; self.len()];
        let mut owner: Vec<Option<usize>> = vec![None; self.len()];
        for (d, draw) in draws.iter().enumerate() {
            let (start, end) = (draw.indices.start, draw.indices.end);
            if start > end || end as usize > self.indices.len() || (end - start) % 3 != 0 {
                return Err(GpuError::Range {
                    draw: d,
                    start,
                    end,
                    len: self.indices.len(),
                });
            }
            if let Some(&b) = draw.bones.iter().find(|&&b| usize::from(b) >= palette) {
                return Err(GpuError::Bone {
                    what: format!("draw call {d}"),
                    bone: usize::from(b),
                    palette,
                });
            }
            let mut slot = std::collections::HashMap::new();
            for (s, &b) in draw.bones.iter().enumerate() {
                slot.entry(b).or_insert(s as u32);
            }
            for &v in &self.indices[start as usize..end as usize] {
                let v = v as usize;
                let inf = &self.influences[v];
                let w = inf.weights();
                let mut slots = [0u32; 4];
                for (k, &b) in inf.bones().iter().enumerate() {
                    slots[k] = match slot.get(&u16::from(b)) {
                        Some(&s) => s,
                        // A zero-weight slot may name any joint; it reads the first slot's.
                        None if k > 0 && w[k] == 0.0 => slots[0],
                        None => {
                            return Err(GpuError::Bone {
                                what: format!(
                                    "vertex {v} in draw call {d} (joint {b} is not in its palette)"
                                ),
                                bone: usize::from(b),
                                palette: draw.bones.len(),
                            })
                        }
                    };
                }
                match owner[v] {
                    Some(first) if first != d && local[v] != slots => {
                        return Err(GpuError::SharedVertex {
                            vertex: v,
                            first,
                            second: d,
                        })
                    }
                    _ => {
                        owner[v] = Some(d);
                        local[v] = slots;
                    }
                }
            }
        }
        Ok(local)
    }
}
