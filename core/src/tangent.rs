//! Tangents: glTF `TANGENT` vectors (`xyz`, handedness `w` = ±1) skinned like normals.
//!
//! A tangent's direction goes through the same blended linear part as the vertex's normal
//! (under dual quaternion skinning, [`skinned_dqs`], the same blended rotation),
//! `t' = unit((Σₖ wₖ Mₖ) · t)` (no translation), by the same loop ([`SkinnedMesh::skin_with_normals`],
//! [`RigidMesh::skin_with_normals`]), so a tangent skins to exactly the bits a normal with the
//! same value would; its handedness `w` is copied unchanged. (A blended matrix with a negative
//! determinant, a mirrored joint, would flip the bitangent `w·(n × t)`; skinning rigs do not
//! mirror, and neither the normals nor the tangents here correct for it.)
//!
//! The loops skin positions alongside; these functions run them [`CHUNK`] vertices at a time
//! with the positions' results in a stack buffer, so they allocate nothing. A normal map's
//! shading needs the normal and tangent to stay perpendicular; both go through the same
//! linear map, which keeps them so up to its shear (none for rigid joints).
//!
//! ```
//! use skin_core::affine::Affine;
//! use skin_core::tangent;
//! use skin_core::vertex::Influence;
//! let positions = [[0.0f32, 0.0, 0.0]];
//! let influences = [Influence::rigid(0)];
//! // A quarter turn about Z: the tangent +X turns to +Y, its handedness stays −1.
//! let palette = [Affine { rows: [[0.0, -1.0, 0.0, 5.0], [1.0, 0.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0]] }];
//! let mut out = [[0.0f32; 4]];
//! tangent::skinned::<f32, 4>(&positions, &influences, &palette, &[[2.0, 0.0, 0.0, -1.0]], &mut out).unwrap();
//! assert!((out[0][1] - 1.0).abs() < 1e-5 && out[0][0].abs() < 1e-5);
//! assert_eq!(out[0][3], -1.0);
//! ```

use crate::affine::Affine;
use crate::dual::Dual;
use crate::error::Error;
use crate::lane::Lane;
use crate::skin::{RigidMesh, SkinnedMesh};
use crate::vertex::Influence;

/// Vertices skinned at a time (the stack buffers: three arrays of this many vectors).
pub const CHUNK: usize = 16;

/// Runs `skin` on each chunk of `tangents`' directions (one a vertex of a mesh of
/// `vertices`) and writes the turned directions with the handedness kept to `out`.
fn chunked<L: Lane>(
    vertices: usize,
    tangents: &[[L; 4]],
    out: &mut [[L; 4]],
    mut skin: impl FnMut(
        core::ops::Range<usize>,
        &[[L; 3]],
        &mut [[L::Out; 3]],
        &mut [[L; 3]],
    ) -> Result<(), Error>,
) -> Result<(), Error> {
    if tangents.len() != vertices {
        return Err(Error::LengthMismatch {
            expected: vertices,
            actual: tangents.len(),
        });
    }
    if out.len() != tangents.len() {
        return Err(Error::LengthMismatch {
            expected: tangents.len(),
            actual: out.len(),
        });
    }
    let mut dirs = [[L::default(); 3]; CHUNK];
    let mut turned = [[L::default(); 3]; CHUNK];
    let mut positions = [[L::Out::default(); 3]; CHUNK];
    let mut start = 0;
    while start < tangents.len() {
        let n = CHUNK.min(tangents.len() - start);
        for (d, t) in dirs.iter_mut().zip(&tangents[start..start + n]) {
            *d = [t[0], t[1], t[2]];
        }
        skin(
            start..start + n,
            &dirs[..n],
            &mut positions[..n],
            &mut turned[..n],
        )?;
        for ((o, d), t) in out[start..start + n]
            .iter_mut()
            .zip(&turned[..n])
            .zip(&tangents[start..start + n])
        {
            *o = [d[0], d[1], d[2], t[3]];
        }
        start += n;
    }
    Ok(())
}

/// Runs `skin` on each chunk of the skinned mesh `positions`/`influences` (validated once
/// whole; the chunks are its sub-slices) for [`chunked`].
fn by_chunks<L: Lane, const K: usize>(
    positions: &[[L; 3]],
    influences: &[Influence<L>],
    tangents: &[[L; 4]],
    out: &mut [[L; 4]],
    skin: impl Fn(
        &SkinnedMesh<'_, L, K>,
        &[[L; 3]],
        &mut [[L::Out; 3]],
        &mut [[L; 3]],
    ) -> Result<(), Error>,
) -> Result<(), Error> {
    SkinnedMesh::<L, K>::new(positions, influences)?;
    chunked(positions.len(), tangents, out, |r, dirs, pos, turned| {
        let mesh = SkinnedMesh::<L, K>::new(&positions[r.clone()], &influences[r])?;
        skin(&mesh, dirs, pos, turned)
    })
}

/// The tangents of a skinned mesh (`positions` and `influences` as for
/// [`SkinnedMesh::new`], up to `K` influences) for `palette`: `out[v]` is `tangents[v]`'s
/// direction skinned as a normal, renormalised, with its `w`.
pub fn skinned<L: Lane, const K: usize>(
    positions: &[[L; 3]],
    influences: &[Influence<L>],
    palette: &[Affine<L>],
    tangents: &[[L; 4]],
    out: &mut [[L; 4]],
) -> Result<(), Error> {
    by_chunks::<L, K>(positions, influences, tangents, out, |m, d, p, t| {
        m.skin_with_normals(palette, d, p, t)
    })
}

/// [`skinned`] by dual quaternion skinning: each direction rotated by the vertex's blended
/// unit dual quaternion (as [`SkinnedMesh::skin_dqs_with_normals`] turns normals), with its
/// `w`.
pub fn skinned_dqs<L: Lane, const K: usize>(
    positions: &[[L; 3]],
    influences: &[Influence<L>],
    palette: &[Dual<L>],
    tangents: &[[L; 4]],
    out: &mut [[L; 4]],
) -> Result<(), Error> {
    by_chunks::<L, K>(positions, influences, tangents, out, |m, d, p, t| {
        m.skin_dqs_with_normals(palette, d, p, t)
    })
}

/// The tangents of a rigid mesh (`positions` and `bones` as for [`RigidMesh::new`]): each
/// direction turned by its bone's matrix, renormalised, with its `w`.
pub fn rigid<L: Lane>(
    positions: &[[L; 3]],
    bones: &[u8],
    palette: &[Affine<L>],
    tangents: &[[L; 4]],
    out: &mut [[L; 4]],
) -> Result<(), Error> {
    RigidMesh::<L>::new(positions, bones)?;
    chunked(positions.len(), tangents, out, |r, dirs, pos, turned| {
        RigidMesh::<L>::new(&positions[r.clone()], &bones[r])?
            .skin_with_normals(palette, dirs, pos, turned)
    })
}
