//! Tangents on the GPU: glTF `TANGENT`s skinned like normals, as skin-core's `tangent` does.
//! A tangent's direction goes through the vertex's blended rotation part (no translation)
//! and is renormalised; the handedness `w` is copied. That is exactly what the shaders do to
//! a normal, so the tangent paths run the normal paths' shaders (compute and vertex) on the
//! mesh with the tangents' directions in place of its normals, and the GPU computes the
//! same bits for a tangent as for a normal of the same value, as the core does. Morph
//! targets' tangent deltas are not read by the importer, so the tangents skin unmorphed.
//! A stretched palette (dual quaternion skinning of joints with scale) is refused
//! ([`GpuError::StretchedTangents`]): its shaders take a normal through the stretch's
//! cofactors, which is not what a tangent needs.

use skin_core::budget::{Budget, Layout};

use super::{Bones, DrawCall, GpuError, GpuMesh, Reference};

/// `mesh` with `tangents`' directions as its normals (one tangent a vertex, finite), for a
/// palette without stretches.
fn with_tangents(
    mesh: &GpuMesh,
    palette: &Bones<'_>,
    tangents: &[[f32; 4]],
) -> Result<GpuMesh, GpuError> {
    if matches!(palette, Bones::Stretched(..)) {
        return Err(GpuError::StretchedTangents);
    }
    if tangents.len() != mesh.len() {
        return Err(GpuError::Length {
            what: "tangents",
            expected: mesh.len(),
            actual: tangents.len(),
        });
    }
    if let Some(v) = tangents.iter().position(|t| t[3].is_nan()) {
        return Err(GpuError::NotFinite {
            what: format!("tangent handedness of vertex {v}"),
        });
    }
    GpuMesh::new(
        mesh.positions().to_vec(),
        tangents.iter().map(|t| [t[0], t[1], t[2]]).collect(),
        mesh.influences().to_vec(),
        mesh.indices().to_vec(),
    )
}

/// Skinned directions with their tangents' `w`.
fn handed(directions: Vec<[f32; 3]>, tangents: &[[f32; 4]]) -> Vec<[f32; 4]> {
    directions
        .into_iter()
        .zip(tangents)
        .map(|(d, t)| [d[0], d[1], d[2], t[3]])
        .collect()
}

impl Reference {
    /// `tangents` (one `[x, y, z, w]` a vertex of `mesh`) skinned by the compute path
    /// ([`Reference::skin_compute`]): directions through the blend's rotation part,
    /// renormalised, `w` kept.
    pub fn skin_tangents_compute<'a>(
        &self,
        mesh: &GpuMesh,
        palette: impl Into<Bones<'a>>,
        tangents: &[[f32; 4]],
    ) -> Result<Vec<[f32; 4]>, GpuError> {
        let palette = palette.into();
        let as_normals = with_tangents(mesh, &palette, tangents)?;
        let skinned = self.skin_compute(&as_normals, palette)?;
        Ok(handed(skinned.normals, tangents))
    }

    /// [`Reference::skin_tangents_compute`] by the vertex path
    /// ([`Reference::skin_vertex`]: the uniform palette of `budget` in `layout`, `draws`).
    pub fn skin_tangents_vertex<'a>(
        &self,
        mesh: &GpuMesh,
        palette: impl Into<Bones<'a>>,
        draws: &[DrawCall],
        (budget, layout): (Budget, Layout),
        tangents: &[[f32; 4]],
    ) -> Result<Vec<[f32; 4]>, GpuError> {
        let palette = palette.into();
        let as_normals = with_tangents(mesh, &palette, tangents)?;
        let drawn = self.skin_vertex(&as_normals, palette, draws, budget, layout)?;
        Ok(handed(drawn.skinned.normals, tangents))
    }
}
