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
use super::units::{scaled_affine, to_asset};
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
            .map_err(|e| PoseError::Core {
                context: format!("local transform of node {n} in {}", R::NAME),
                source: core_error(e, Quantity::LocalTransform, n, "I8F24"),
            })?;
    }
    Ok(out)
}

/// The inverse bind matrices of `skin` in scalar `R`, translations in asset units `2^k`.
pub fn inverse_binds<R: Real>(rig: &Rig, skin: usize, k: i32) -> Result<Vec<Affine<R>>, PoseError> {
    let s = to_asset(k);
    rig.skins[skin]
        .inverse_binds
        .iter()
        .enumerate()
        .map(|(j, m)| {
            Affine::<R>::from_f32(scaled_affine(m, s)).map_err(|e| PoseError::Core {
                context: format!("skin {skin} in {}", R::NAME),
                source: core_error(e, Quantity::InverseBind, j, R::NAME),
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
