//! The rig's `f32` data as skin-core values in a lane: node transforms, inverse bind
//! matrices, positions, normals and influences, lengths in asset units `2^k`
//! ([`super::units`]). A value the lane cannot hold is a [`PoseError`] naming it.

use skin_core::affine::Affine;
use skin_core::error::Quantity;
use skin_core::lane::Lane;
use skin_core::num::{NumError, Real};
use skin_core::transform::Transform;
use skin_core::vertex::Influence;

use super::error::PoseError;
use super::units::{centred_affine, scaled_affine, to_asset};
use crate::rig::{Primitive, Rig, Trs};

/// The most joints one skin may have: vertex bone indices are 8-bit in skin-core.
pub const MAX_JOINTS: usize = 256;

/// skin-core's error for value `index` of kind `what` that `format` cannot hold.
fn core_error(e: NumError, what: Quantity, index: usize, format: &'static str) -> skin_core::Error {
    match e {
        NumError::NotFinite => skin_core::Error::NotFinite { what, index },
        NumError::OutOfRange => skin_core::Error::Overflow {
            what,
            index,
            format,
        },
    }
}

/// One local transform per node of the rig (indexed by node), in scalar `R` with lengths
/// in asset units `2^k`, from the `f32` transforms `locals`. Only [`Rig::posed_nodes`] are
/// converted; the others are left at identity.
pub fn transforms<R: Real>(
    rig: &Rig,
    locals: &[Trs],
    k: i32,
) -> Result<Vec<Transform<R>>, PoseError> {
    let s = to_asset(k);
    let mut out = vec![Transform::<R>::IDENTITY; rig.nodes.len()];
    for n in rig.posed_nodes() {
        let l = &locals[n];
        out[n] = Transform::<R>::from_f32(l.translation.map(|v| v * s), l.rotation, l.scale)
            .map_err(|e| transform_error::<R>(rig, n, l, k, e))?;
    }
    Ok(out)
}

/// [`PoseError`] for node `node`'s local transform `local` (model units) that scalar `R`
/// refused (`e`) in asset units `2^k`, with its values and the limit.
pub fn transform_error<R: Real>(
    rig: &Rig,
    node: usize,
    local: &Trs,
    k: i32,
    e: NumError,
) -> PoseError {
    let t = local.translation.map(|v| v * to_asset(k));
    let unit = if k == 0 {
        String::new()
    } else {
        format!(" asset units of 2^{k} model units")
    };
    let why = match e {
        NumError::NotFinite => "is not finite".to_string(),
        NumError::OutOfRange => format!(
            "is beyond the {} pose limit of ±{} for translations and scales",
            R::NAME,
            R::LIMIT
        ),
    };
    PoseError::Range(format!(
        "node {node}{}: local translation {t:?}{unit}, scale {:?} {why}; use --arith f32 \
         for this model",
        rig.nodes[node]
            .name
            .as_deref()
            .map_or(String::new(), |n| format!(" {n:?}")),
        local.scale,
    ))
}

/// The inverse bind matrices of `skin` in scalar `R`, translations in asset units `2^k`,
/// each `B⁻¹ · T(centre)` for positions stored less `centre` (asset units;
/// [`super::units::lane_centre`]).
pub fn inverse_binds<R: Real>(
    rig: &Rig,
    skin: usize,
    k: i32,
    centre: [f32; 3],
) -> Result<Vec<Affine<R>>, PoseError> {
    let s = to_asset(k);
    rig.skins[skin]
        .inverse_binds
        .iter()
        .enumerate()
        .map(|(j, m)| {
            let m = centred_affine(&scaled_affine(m, s), centre);
            Affine::<R>::from_f32(m).map_err(|_| {
                let largest = m.iter().flatten().fold(0.0f32, |a, v| a.max(v.abs()));
                PoseError::Range(format!(
                    "skin {skin} joint {j}: its inverse bind matrix (translation in asset units \
                     of 2^{k} model units) has an entry of magnitude {largest:e}, beyond what {} \
                     holds",
                    R::NAME
                ))
            })
        })
        .collect()
}

/// A primitive's positions in lane `L`, in asset units `2^k`.
pub fn positions<L: Lane>(
    prim: &Primitive,
    k: i32,
    context: &str,
) -> Result<Vec<[L; 3]>, PoseError> {
    vectors::<L>(&prim.positions, to_asset(k), Quantity::Position, context)
}

/// A skinned primitive's positions in lane `L`, in asset units `2^k`, less `centre` (asset
/// units; [`super::units::lane_centre`]).
pub fn centred_positions<L: Lane>(
    prim: &Primitive,
    k: i32,
    centre: [f32; 3],
    context: &str,
) -> Result<Vec<[L; 3]>, PoseError> {
    if centre == [0.0; 3] {
        return positions::<L>(prim, k, context);
    }
    let s = to_asset(k);
    let moved: Vec<[f32; 3]> = prim
        .positions
        .iter()
        .map(|p| [0, 1, 2].map(|i| p[i] * s - centre[i]))
        .collect();
    vectors::<L>(&moved, 1.0, Quantity::Position, context)
}

/// A primitive's normals in lane `L` (directions: not scaled), or none.
pub fn normals<L: Lane>(prim: &Primitive, context: &str) -> Result<Vec<[L; 3]>, PoseError> {
    match &prim.normals {
        Some(n) => vectors::<L>(n, 1.0, Quantity::Normal, context),
        None => Ok(Vec::new()),
    }
}

/// `values` times `s` in lane `L`.
fn vectors<L: Lane>(
    values: &[[f32; 3]],
    s: f32,
    what: Quantity,
    context: &str,
) -> Result<Vec<[L; 3]>, PoseError> {
    values
        .iter()
        .enumerate()
        .map(|(v, p)| {
            let c = |x: f32| {
                L::from_f32(x * s).map_err(|e| PoseError::Core {
                    context: format!("{context} in {}", L::NAME),
                    source: core_error(e, what, v, L::NAME),
                })
            };
            Ok([c(p[0])?, c(p[1])?, c(p[2])?])
        })
        .collect()
}

/// A primitive's influences in lane `L` (joint indices must be below 256).
pub fn influences<L: Lane>(
    prim: &Primitive,
    context: &str,
) -> Result<Vec<Influence<L>>, PoseError> {
    let Some(infl) = &prim.influences else {
        return Ok(Vec::new());
    };
    infl.iter()
        .enumerate()
        .map(|(v, inf)| {
            let bones = inf.joints.map(|j| u8::try_from(j).unwrap_or(u8::MAX));
            if inf.joints.iter().any(|&j| j > u16::from(u8::MAX)) {
                return Err(PoseError::Capacity(format!(
                    "{context}: vertex {v} uses joint {}; skin-core holds at most {MAX_JOINTS}",
                    inf.joints.iter().max().copied().unwrap_or(0)
                )));
            }
            Influence::<L>::from_weights(bones, inf.weights, v)
                .map_err(PoseError::core(format!("{context} in {}", L::NAME)))
        })
        .collect()
}
