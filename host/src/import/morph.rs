//! Morph targets: each primitive's `POSITION` and `NORMAL` deltas (dense or sparse
//! accessors), a mesh's default weights and target names, a node's weights.

use gltf::accessor::{DataType, Dimensions};

use super::mesh::{vec3s, ALL_TYPES};
use crate::accessor::{read_f32, Buffers};
use crate::error::ImportError;
use crate::rig::warning::{Kind, Warning};
use crate::rig::{Mesh, Node, Target};

/// The morph targets of primitive `p` of mesh `mesh`, whose base has `n` vertices
/// (`TANGENT` deltas are not read: tangents are skinned, not morphed, and [`super::mesh`] warns).
pub(super) fn targets(
    mesh: usize,
    p: usize,
    prim: &gltf::Primitive<'_>,
    n: usize,
    buffers: &Buffers,
) -> Result<Vec<Target>, ImportError> {
    let mut out = Vec::new();
    for (t, target) in prim.morph_targets().enumerate() {
        let read = |acc: Option<gltf::Accessor<'_>>, name: &str| {
            let Some(acc) = acc else { return Ok(None) };
            if acc.count() != n {
                return Err(ImportError::Target {
                    mesh,
                    primitive: p,
                    target: t,
                    reason: format!(
                        "its {name} deltas (accessor {}) have {} elements but the primitive has \
                         {n} vertices",
                        acc.index(),
                        acc.count()
                    ),
                });
            }
            let what = format!("{name} delta of mesh {mesh} primitive {p} morph target {t}");
            let (_, flat) = read_f32(&acc, buffers, &[Dimensions::Vec3], &ALL_TYPES, &what)?;
            Ok(Some(vec3s(flat)))
        };
        out.push(Target {
            positions: read(target.positions(), "POSITION")?,
            normals: read(target.normals(), "NORMAL")?,
        });
    }
    Ok(out)
}

/// A mesh's default weights: `mesh.weights`, or zeros; exactly one finite weight a target.
pub(super) fn mesh_weights(mesh: &gltf::Mesh<'_>, targets: usize) -> Result<Vec<f32>, ImportError> {
    let m = mesh.index();
    let Some(weights) = mesh.weights() else {
        return Ok(vec![0.0; targets]);
    };
    let what = format!("mesh {m}{}", super::scene::name(mesh.name()));
    checked(weights, targets, m, what)
}

/// `weights` when it has one finite value for each of mesh `mesh`'s `targets`.
fn checked(
    weights: &[f32],
    targets: usize,
    mesh: usize,
    what: String,
) -> Result<Vec<f32>, ImportError> {
    if weights.len() != targets {
        return Err(ImportError::MorphWeights {
            what,
            found: weights.len(),
            mesh,
            targets,
        });
    }
    if let Some(t) = weights.iter().position(|w| !w.is_finite()) {
        return Err(ImportError::NotFinite {
            what: format!("the weight of morph target {t} of {what}"),
        });
    }
    Ok(weights.to_vec())
}

/// The names in `mesh.extras.targetNames` (an array of strings, one a target), or none
/// with a warning when the array does not name each target once.
pub(super) fn target_names(
    mesh: &gltf::Mesh<'_>,
    targets: usize,
    warnings: &mut Vec<Warning>,
) -> Vec<String> {
    let Some(extras) = mesh.extras() else {
        return Vec::new();
    };
    let Ok(value) = serde_json::from_str::<serde_json::Value>(extras.get()) else {
        return Vec::new();
    };
    let Some(names) = value.get("targetNames") else {
        return Vec::new();
    };
    let names: Option<Vec<String>> = names
        .as_array()
        .map(|a| a.iter().map(|n| n.as_str().map(str::to_owned)).collect())
        .unwrap_or(None);
    match names {
        Some(names) if names.len() == targets => names,
        _ => {
            warnings.push(Warning::new(
                Kind::TargetNames,
                format!("mesh {}", mesh.index()),
                format!(
                    "extras.targetNames is not a list of {targets} strings, one a morph target; \
                     target names ignored"
                ),
            ));
            Vec::new()
        }
    }
}

/// Every node's `weights` must have one finite value for each target of its mesh.
pub(super) fn check_node_weights(nodes: &[Node], meshes: &[Mesh]) -> Result<(), ImportError> {
    for (i, node) in nodes.iter().enumerate() {
        let Some(weights) = &node.weights else {
            continue;
        };
        let Some(m) = node.mesh else {
            return Err(ImportError::Invalid(format!(
                "node {i} has morph-target weights but no mesh"
            )));
        };
        checked(weights, meshes[m].targets(), m, format!("node {i}"))?;
    }
    Ok(())
}

/// The component types morph-target weight keys may have (floats, or normalised integers
/// under `KHR_mesh_quantization`).
pub(super) const WEIGHT_TYPES: [DataType; 5] = [
    DataType::F32,
    DataType::I8,
    DataType::U8,
    DataType::I16,
    DataType::U16,
];
