//! A frame's morph targets as the shaders read them: the active targets (at most
//! [`ACTIVE_TARGETS`], skin-core's budget, picked by [`Active`]) and their weights in a
//! uniform, the mesh's deltas in a storage buffer ([`super::shader::morph`]).

use skin_core::morph::{Active, ACTIVE_TARGETS};

use super::shader::MORPH_SLOTS;
use super::{GpuError, GpuMesh};

/// The `Morph` uniform: the active targets' count and the mesh's vertices, then the
/// targets' indices and weights, four a register.
#[repr(C)]
#[derive(Clone, Copy, Debug, bytemuck::Pod, bytemuck::Zeroable)]
pub(super) struct MorphUniform {
    count: [u32; 4],
    targets: [[u32; 4]; MORPH_SLOTS],
    weights: [[f32; 4]; MORPH_SLOTS],
}

/// The morph uniform of `mesh` at `weights` (one a target, or none: no target active).
/// Weights of the wrong count, a weight that is not finite, and more non-zero weights than
/// the uniform holds are errors.
pub(super) fn uniform(mesh: &GpuMesh, weights: &[f32]) -> Result<MorphUniform, GpuError> {
    let mut u = MorphUniform {
        count: [0, mesh.len() as u32, 0, 0],
        targets: [[0; 4]; MORPH_SLOTS],
        weights: [[0.0; 4]; MORPH_SLOTS],
    };
    if weights.is_empty() {
        return Ok(u);
    }
    if weights.len() != mesh.targets() {
        return Err(GpuError::MorphWeights {
            weights: weights.len(),
            targets: mesh.targets(),
        });
    }
    if let Some(t) = weights.iter().position(|w| !w.is_finite()) {
        return Err(GpuError::NotFinite {
            what: format!("morph-target weight {t} ({})", weights[t]),
        });
    }
    let active =
        Active::<f32, ACTIVE_TARGETS>::select(weights).map_err(|_| GpuError::MorphWeights {
            weights: weights.len(),
            targets: mesh.targets(),
        })?;
    if active.dropped() > 0.0 {
        return Err(GpuError::ActiveTargets {
            active: weights.iter().filter(|&&w| w != 0.0).count(),
            budget: ACTIVE_TARGETS,
        });
    }
    for (i, (t, w)) in active.targets().enumerate() {
        u.targets[i / 4][i % 4] = t as u32;
        u.weights[i / 4][i % 4] = w;
    }
    u.count[0] = active.len() as u32;
    Ok(u)
}

/// The mesh's deltas as the storage buffer holds them (six floats a vertex a target; one
/// zero delta for a mesh without targets, as a binding may not be empty).
pub(super) fn deltas(mesh: &GpuMesh) -> Vec<f32> {
    match mesh.deltas() {
        [] => vec![0.0; 6],
        d => d.as_flattened().to_vec(),
    }
}
