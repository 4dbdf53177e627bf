//! glTF 2.0 import: a `.gltf` or `.glb` file to a [`Rig`].
//!
//! The `gltf` crate parses and validates the JSON and the GLB container, after
//! [`document`]'s checks of what it leaves out; buffers are loaded by [`buffers`] (GLB
//! binary chunk, `data:` URIs, files beside the model) and every accessor is read through
//! the bounds-checked [`crate::accessor`] reader. What this importer cleans up, it reports
//! in [`Rig::warnings`]:
//!
//! - more than four influences on a vertex: the four largest are kept and renormalised, and
//!   the largest dropped weight is reported;
//! - weights that do not sum to one (beyond [`skin_core::vertex::WEIGHT_TOLERANCE`]) are
//!   renormalised;
//! - morph targets' `TANGENT` deltas are not read (tangents are skinned, not morphed);
//! - `mesh.extras.targetNames` that does not name each target once is ignored.
//! - triangles without `NORMAL` get smooth angle-weighted normals ([`smooth_normals`]), or
//!   flat ones when asked ([`Generated::Flat`], [`flat_normals`]).
//!
//! Quantised files (`KHR_mesh_quantization`) are read; compressed ones (Draco, meshopt) are
//! refused with how to decompress them ([`extensions`]).
//!
//! Authoring scales (an armature node scaled ×100 or ×0.01 with its joints in the matching
//! units) are folded out of the hierarchy ([`crate::rig::fold`]): the rig skins to the same
//! vertices, and its forward kinematics stays within the fixed lane's range.
//!
//! Everything else that is wrong is an [`ImportError`], and so is a model beyond the
//! limits that keep the tool's memory bounded: [`MAX_BUFFER_BYTES`] a file or buffer,
//! [`crate::accessor::MAX_VALUES`] values read, [`MAX_INSTANCED_VERTICES`] vertices drawn.
//!
//! ```no_run
//! let rig = skin_host::import::from_path("model.glb".as_ref()).unwrap();
//! println!("{} nodes, {} skins", rig.nodes.len(), rig.skins.len());
//! ```

mod buffers;
mod clip;
mod document;
mod extensions;
mod mesh;
mod morph;
mod normals;
mod scene;
mod source;

use std::path::Path;

pub use buffers::MAX_BUFFER_BYTES;
pub use normals::{flat_normals, smooth_normals};
pub use scene::decompose;
pub use source::{source_from_path, Source};

use crate::accessor::Buffers;
use crate::error::ImportError;
use crate::rig::Rig;

/// How far weights may sum from one before the importer warns that it renormalised them.
pub const WEIGHT_SUM_TOLERANCE: f32 = skin_core::vertex::WEIGHT_TOLERANCE;

/// The most vertices all mesh nodes together may draw (a mesh counts once per node that
/// instantiates it): 2^24. Every command skins each instance into its own buffers, so a
/// small file instancing a large mesh many times must not size them without bound.
pub const MAX_INSTANCED_VERTICES: usize = 1 << 24;

/// How to import.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Read buffer files named by absolute paths, `..` or schemes too (by default only
    /// files in the model's folder and below are read, as glTF viewers do).
    pub allow_outside_uris: bool,
    /// The normals given to triangles the file has none for.
    pub normals: Generated,
}

/// The normals the importer gives triangles without `NORMAL`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Generated {
    /// Smooth, angle-weighted vertex normals ([`smooth_normals`]): a curved surface.
    #[default]
    Smooth,
    /// Each triangle's own normal, its vertices unwelded ([`flat_normals`]): facets.
    Flat,
}

/// Import the glTF file at `path` (external buffers are looked up beside it).
pub fn from_path(path: &Path) -> Result<Rig, ImportError> {
    from_path_with(path, &Options::default())
}

/// [`from_path`] with `options`.
pub fn from_path_with(path: &Path, options: &Options) -> Result<Rig, ImportError> {
    let io = |source| ImportError::Io {
        path: path.to_path_buf(),
        source,
    };
    let bytes = buffers::read_file(path, MAX_BUFFER_BYTES + 1).map_err(io)?;
    if bytes.len() as u64 > MAX_BUFFER_BYTES {
        return Err(ImportError::TooLarge {
            what: format!("the file {}", path.display()),
            limit: MAX_BUFFER_BYTES,
        });
    }
    from_slice_with(&bytes, path.parent(), options)
}

/// Import glTF (`.gltf` JSON or `.glb`) from memory; `base` is where external buffers
/// live (`None`: external buffers are an error).
pub fn from_slice(bytes: &[u8], base: Option<&Path>) -> Result<Rig, ImportError> {
    from_slice_with(bytes, base, &Options::default())
}

/// [`from_slice`] with `options`.
pub fn from_slice_with(
    bytes: &[u8],
    base: Option<&Path>,
    options: &Options,
) -> Result<Rig, ImportError> {
    let gltf = document::parse(bytes)?;
    let buffers = Buffers::new(buffers::load(&gltf, base, options)?);
    let mut warnings = Vec::new();
    let (nodes, order) = scene::nodes(&gltf)?;
    let skins = gltf
        .skins()
        .map(|s| scene::skin(&s, &buffers))
        .collect::<Result<Vec<_>, _>>()?;
    let meshes = gltf
        .meshes()
        .map(|m| mesh::mesh(&m, &buffers, options.normals, &mut warnings))
        .collect::<Result<Vec<_>, _>>()?;
    morph::check_node_weights(&nodes, &meshes)?;
    let clips = gltf
        .animations()
        .map(|a| clip::clip(&a, &buffers, &nodes, &meshes))
        .collect::<Result<Vec<_>, _>>()?;
    let mut rig = Rig {
        nodes,
        order,
        skins,
        meshes,
        clips,
        warnings,
    };
    check_instances(&rig)?;
    check_joint_indices(&rig)?;
    crate::rig::fold::fold_scale(&mut rig);
    Ok(rig)
}

/// At most [`MAX_INSTANCED_VERTICES`] vertices drawn by all mesh nodes together.
fn check_instances(rig: &Rig) -> Result<(), ImportError> {
    let mut total = 0usize;
    for (node, mesh, _) in rig.mesh_nodes() {
        let vertices: usize = rig.meshes[mesh]
            .primitives
            .iter()
            .map(|p| p.positions.len())
            .sum();
        total = total.saturating_add(vertices);
        if total > MAX_INSTANCED_VERTICES {
            return Err(ImportError::Unsupported(format!(
                "node {node} instances mesh {mesh} ({vertices} vertices), bringing the \
                 vertices drawn to {total}, beyond this tool's limit of \
                 {MAX_INSTANCED_VERTICES}"
            )));
        }
    }
    Ok(())
}
/// Every skinned mesh instance's joint indices must lie within its skin's joint list.
fn check_joint_indices(rig: &Rig) -> Result<(), ImportError> {
    for (node, mesh, skin) in rig.mesh_nodes() {
        let Some(skin) = skin else { continue };
        let joints = rig.skins[skin].joints.len();
        for (primitive, prim) in rig.meshes[mesh].primitives.iter().enumerate() {
            let Some(infl) = &prim.influences else {
                continue;
            };
            for (vertex, inf) in infl.iter().enumerate() {
                if let Some(&joint) = inf.joints.iter().find(|&&j| usize::from(j) >= joints) {
                    return Err(ImportError::JointIndex {
                        mesh,
                        primitive,
                        vertex,
                        joint: usize::from(joint),
                        skin,
                        node,
                        joints,
                    });
                }
            }
        }
    }
    Ok(())
}
