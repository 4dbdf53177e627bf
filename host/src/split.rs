//! Palette splitting: partition a primitive's elements (triangles, lines or points) into
//! sub-meshes that each use at most `capacity` distinct bones, so that each sub-mesh's
//! palette fits a constant-register budget ([`skin_core::budget`]).
//!
//! Each sub-mesh gets its own palette — a list of the skin's joints — and its own vertices:
//! a vertex used by elements in several sub-meshes is duplicated, and its bone indices are
//! renamed into each sub-mesh's palette. Weights and their order are untouched, so a
//! sub-mesh skins to exactly the positions the whole mesh skins to (bit for bit in fixed
//! point; see the tests).
//!
//! The partition is first-fit: each element goes into the first sub-mesh whose bone set
//! can take its bones, else opens a new one.
//!
//! ```
//! use skin_host::rig::{Influence4, Mode, Primitive};
//! use skin_host::split::split;
//! // Two triangles sharing an edge: the first uses bones 0 and 1, the second 0 and 2.
//! let rigid = |b: u16| Influence4 { joints: [b; 4], weights: [1.0, 0.0, 0.0, 0.0] };
//! let prim = Primitive {
//!     mode: Mode::Triangles,
//!     positions: vec![[0.0; 3]; 4],
//!     normals: None,
//!     tangents: None,
//!     indices: Some(vec![0, 1, 2, 2, 1, 3]),
//!     influences: Some(vec![rigid(1), rigid(0), rigid(0), rigid(2)]),
//!     max_influences: 1,
//!     largest_dropped: 0.0,
//!     targets: vec![],
//! };
//! let s = split(&prim, 2).unwrap(); // 3 bones in all, 2 fit at a time
//! assert_eq!(s.parts.len(), 2);
//! assert_eq!(s.parts[0].bones, vec![0, 1]);
//! assert_eq!(s.parts[1].bones, vec![0, 2]);
//! assert_eq!(s.duplicated, 2); // vertices 1 and 2 are in both parts
//! // A palette of one bone cannot take the first triangle:
//! assert!(split(&prim, 1).is_err());
//! ```

use crate::rig::{Influence4, Mode, Primitive, Target};

/// One sub-mesh: a palette (joint indices into the skin), vertices and elements.
#[derive(Clone, Debug, PartialEq)]
pub struct Part {
    /// Palette entry `i` is the skin's joint `bones[i]`.
    pub bones: Vec<u16>,
    /// Local vertex `i` is the primitive's vertex `vertices[i]`.
    pub vertices: Vec<u32>,
    /// Influences of the local vertices, joint indices renamed into `bones`.
    pub influences: Vec<Influence4>,
    /// Elements as local vertex indices, `arity` each.
    pub indices: Vec<u32>,
}

/// A primitive split into parts.
#[derive(Clone, Debug, PartialEq)]
pub struct Split {
    /// Vertices per element: 1 (points), 2 (lines) or 3 (triangles).
    pub arity: usize,
    /// The parts (draw calls).
    pub parts: Vec<Part>,
    /// Distinct vertices the elements use.
    pub vertices: usize,
    /// Vertices added by duplication: Σ part vertices − [`Split::vertices`].
    pub duplicated: usize,
}

/// Why a primitive cannot be split.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SplitError {
    /// One element alone needs more bones than a palette holds.
    #[error(
        "element {element} alone uses {bones} bones, more than the palette's {capacity}; no split can fit it"
    )]
    ElementTooBig {
        /// Element index.
        element: usize,
        /// Bones it uses.
        bones: usize,
        /// Palette capacity.
        capacity: usize,
    },
    /// The primitive has no skinning influences.
    #[error("the primitive has no JOINTS/WEIGHTS to split by")]
    NotSkinned,
}

/// The bones with non-zero weight of one vertex.
fn used(inf: &Influence4) -> impl Iterator<Item = u16> + '_ {
    inf.joints
        .iter()
        .zip(&inf.weights)
        .enumerate()
        .filter(|(k, (_, &w))| *k == 0 || w != 0.0)
        .map(|(_, (&j, _))| j)
}

/// Split `prim` into parts of at most `capacity` bones each.
pub fn split(prim: &Primitive, capacity: usize) -> Result<Split, SplitError> {
    let infl = prim.influences.as_ref().ok_or(SplitError::NotSkinned)?;
    let arity = match prim.mode {
        Mode::Points => 1,
        Mode::Lines | Mode::LineLoop | Mode::LineStrip => 2,
        _ => 3,
    };
    let elements = prim.elements();
    // Bones of each element, sorted and deduplicated.
    let element_bones: Vec<Vec<u16>> = elements
        .iter()
        .map(|e| {
            let mut b: Vec<u16> = e.iter().flat_map(|&v| used(&infl[v as usize])).collect();
            b.sort_unstable();
            b.dedup();
            b
        })
        .collect();
    let groups = first_fit(&element_bones, capacity)?;
    let mut distinct = vec![false; prim.positions.len()];
    let parts: Vec<Part> = groups
        .into_iter()
        .map(|g| {
            let chosen = g.elements.iter().map(|&e| elements[e].as_slice());
            Part::new(g.bones, chosen, infl, &mut distinct)
        })
        .collect();
    let vertices = distinct.iter().filter(|&&d| d).count();
    let total: usize = parts.iter().map(|p| p.vertices.len()).sum();
    Ok(Split {
        arity,
        parts,
        vertices,
        duplicated: total - vertices,
    })
}

/// The elements of one part, before its vertices are gathered.
struct Group {
    /// Its bone set, sorted.
    bones: Vec<u16>,
    /// Its elements' indices.
    elements: Vec<usize>,
}

/// The first-fit partition of elements with bone sets `element_bones`: each goes into the
/// first part whose bone set can take its bones, else opens a new one.
fn first_fit(element_bones: &[Vec<u16>], capacity: usize) -> Result<Vec<Group>, SplitError> {
    let mut sets: Vec<Vec<u16>> = Vec::new();
    let mut members: Vec<Vec<usize>> = Vec::new();
    for (e, bones) in element_bones.iter().enumerate() {
        if bones.len() > capacity {
            return Err(SplitError::ElementTooBig {
                element: e,
                bones: bones.len(),
                capacity,
            });
        }
        let fits = |set: &Vec<u16>| {
            let new = bones
                .iter()
                .filter(|b| set.binary_search(b).is_err())
                .count();
            set.len() + new <= capacity
        };
        let at = match sets.iter().position(fits) {
            Some(at) => at,
            None => {
                sets.push(Vec::new());
                members.push(Vec::new());
                sets.len() - 1
            }
        };
        for &b in bones {
            if let Err(pos) = sets[at].binary_search(&b) {
                sets[at].insert(pos, b);
            }
        }
        members[at].push(e);
    }
    Ok(sets
        .into_iter()
        .zip(members)
        .map(|(bones, elements)| Group { bones, elements })
        .collect())
}

impl Part {
    /// The part of the sorted bone set `bones` made of `elements` (vertex lists) of a
    /// primitive with influences `infl`: its vertices in order of first use, marked in
    /// `distinct`.
    fn new<'e>(
        bones: Vec<u16>,
        elements: impl Iterator<Item = &'e [u32]>,
        infl: &[Influence4],
        distinct: &mut [bool],
    ) -> Part {
        let mut local = vec![u32::MAX; distinct.len()];
        let mut vertices = Vec::new();
        let mut indices = Vec::new();
        for element in elements {
            for &v in element {
                if local[v as usize] == u32::MAX {
                    local[v as usize] = vertices.len() as u32;
                    vertices.push(v);
                    distinct[v as usize] = true;
                }
                indices.push(local[v as usize]);
            }
        }
        let rename = |j: u16| bones.binary_search(&j).map_or(0, |i| i as u16);
        let influences = vertices
            .iter()
            .map(|&v| {
                let inf = &infl[v as usize];
                let first = rename(inf.joints[0]);
                let mut joints = [first; 4];
                for ((j, &orig), &w) in joints.iter_mut().zip(&inf.joints).zip(&inf.weights).skip(1)
                {
                    if w != 0.0 {
                        *j = rename(orig);
                    }
                }
                Influence4 {
                    joints,
                    weights: inf.weights,
                }
            })
            .collect();
        Part {
            bones,
            vertices,
            influences,
            indices,
        }
    }

    /// This part as a primitive of its own (positions and normals copied, influences
    /// renamed), ready to skin with the palette `[palette[b] for b in bones]`.
    pub fn primitive(&self, whole: &Primitive, arity: usize) -> Primitive {
        let pick = |v: &Vec<[f32; 3]>| self.vertices.iter().map(|&i| v[i as usize]).collect();
        Primitive {
            mode: match arity {
                1 => Mode::Points,
                2 => Mode::Lines,
                _ => Mode::Triangles,
            },
            positions: pick(&whole.positions),
            normals: whole.normals.as_ref().map(pick),
            tangents: whole
                .tangents
                .as_ref()
                .map(|v| self.vertices.iter().map(|&i| v[i as usize]).collect()),
            indices: Some(self.indices.clone()),
            influences: Some(self.influences.clone()),
            max_influences: whole.max_influences,
            largest_dropped: whole.largest_dropped,
            targets: whole
                .targets
                .iter()
                .map(|t| Target {
                    positions: t.positions.as_ref().map(pick),
                    normals: t.normals.as_ref().map(pick),
                })
                .collect(),
        }
    }
}
