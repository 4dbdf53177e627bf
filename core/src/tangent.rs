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

//! **Error bound of the fixed lane**, per component of a unit tangent (the ∞-norm of its
//! direction's difference from the exact one), for a glTF tangent (|t| ≤ 1) whose exact
//! blended direction `M·t` (the weights as given, summing to 1) has length `ℓ` (1 for
//! rigid joints turning alike; shorter where the blend folds), and a palette of exponent
//! `e` (its matrices stored as `M·2^−e`, see [`crate::lane`]). In the stored units each
//! palette entry rounds by ≤ 2⁻¹⁵ and the blend rounds each entry once more, ≤ 2⁻¹⁵·|t|₁ ≤
//! √3·2⁻¹⁵ each on a component of `M·t`; the weights' rounding to `U1F15` (≤ 2⁻¹⁶ each, the
//! largest absorbing the others' remainder: ≤ 3·2⁻¹⁶ off the given weights outside the
//! largest, and their sum is 1) moves `M·t` by `Σ Δwₖ·(Mₖt − M₀t)`, ≤ 3·2⁻¹⁶·4 = 6·2⁻¹⁵ on
//! a component (`|Mₖt|∞ < 2`, a row's L1 norm); the tangent's own rounding to `I2F14`
//! (≤ 2⁻¹⁵ a component) moves it by ≤ 2·2⁻¹⁵; the product rounds to `I2F14` (≤ 2⁻¹⁵). So
//! the blended vector is within `(2√3 + 9)·2⁻¹⁵` of the exact one on each component, `√3`
//! times that (21.6·2⁻¹⁵) in length, of a vector `ℓ·2^−e` long. Renormalising a vector
//! `b + δ` moves its direction by at most `2|δ|/|b|`: `43.2·2^e/ℓ·2⁻¹⁵`. The inverse square
//! root is within 2·10⁻⁴ (6.6·2⁻¹⁵) relative, a unit vector's component by as much, and the
//! result rounds to `I2F14` (≤ 2⁻¹⁵). In all, with a margin, [`fixed_error_bound`]:
//! `(44·2^e/ℓ + 8)·2⁻¹⁵`, 1.6·10⁻³ for `ℓ = 1`, `e = 0`; the angle the direction is off by
//! is at most `√3` times a component's error. It is worst-case: the roundings rarely align
//! (measured figures in `docs/VALIDATION.md` and `tests/tests/tangents.rs`).
//!
//! Under dual quaternion skinning ([`fixed_dual_error_bound`]) the direction is turned by
//! the blended rotation. Its blend of norm `ν` is within `ε` of the exact one before
//! normalising: the position bound's `3·2⁻¹⁵` ([`crate::lane`]: the palette's and the sums'
//! roundings) and the weights' `3·2⁻¹⁶·2` (`|qₖ − q₀| ≤ 2`), `ε = 6·2⁻¹⁵`; normalised, its
//! unit quaternion is within `2ε/ν`, which turns a unit vector by at most twice that,
//! `24/ν·2⁻¹⁵`. The rotation entries' truncation (below 2⁻¹⁴ an entry of the rotation at
//! its scale `N ≥ 1`, so 2√3·2⁻¹⁵ on a component relative to the length; the scale itself
//! and the reciprocal are undone by renormalising), the tangent's rounding (√3·2⁻¹⁵) and
//! the product's (2⁻¹⁵) add at most `7.5·2⁻¹⁵` in length; renormalising doubles the sum,
//! and the inverse square root and the output rounding add 7.6·2⁻¹⁵: `(48/ν + 23)·2⁻¹⁵`,
//! 2.2·10⁻³ for `ν = 1`.
//!
//! ```
//! use skin_core::tangent::{fixed_dual_error_bound, fixed_error_bound};
//! assert!((fixed_error_bound(1.0, 0) - 52.0 / 32768.0).abs() < 1e-12);
//! assert!(fixed_error_bound(0.5, 0) > fixed_error_bound(1.0, 0));
//! assert_eq!(fixed_error_bound(1.0, 1), fixed_error_bound(0.5, 0));
//! assert!(fixed_dual_error_bound(1.0) < 2.2e-3);
//! ```

use crate::affine::Affine;
use crate::dual::Dual;
use crate::error::Error;
use crate::lane::Lane;
use crate::skin::{RigidMesh, SkinnedMesh};
use crate::vertex::Influence;

/// The fixed lane's error bound per component of a skinned tangent's direction, for a
/// tangent whose exact blended direction is `blended` long (`|M·t|`, [`skinned`]) under a
/// palette of exponent `exponent` (derived in the [module docs](self)).
pub fn fixed_error_bound(blended: f64, exponent: u8) -> f64 {
    (44.0 * f64::from(1u16 << exponent) / blended + 8.0) / 32768.0
}

/// The fixed lane's error bound per component of a tangent's direction skinned by dual
/// quaternion skinning ([`skinned_dqs`]), for a vertex whose blended real part has norm
/// `nu` (derived in the [module docs](self)).
pub fn fixed_dual_error_bound(nu: f64) -> f64 {
    (48.0 / nu + 23.0) / 32768.0
}

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
