//! Asset units: the power of two `2^k` model units that the fixed lane measures lengths in,
//! so that bind positions lie in (−1, 1) as the `I2F14` lane needs (`k = 0` in `f32`).

use super::error::PoseError;
use crate::rig::world64;
use crate::rig::Rig;

/// The largest translation (in asset units) a rest-pose world or inverse bind matrix may have;
/// half of `I8F24`'s palette limit, leaving headroom for animation.
pub const TRANSLATION_HEADROOM: f32 = 32.0;

/// The asset-unit exponent `k` for fixed point: the smallest `k` with every mesh position
/// (a skinned one less the model's [centre](fixed_centre)) below `2^k` in magnitude (so
/// positions in asset units lie in (−1, 1)), raised until every rest-pose joint world
/// translation and inverse-bind translation is below [`TRANSLATION_HEADROOM`] asset units.
pub fn asset_unit(rig: &Rig) -> i32 {
    unit_with(rig, fixed_centre(rig))
}

/// [`asset_unit`] with skinned positions taken less `centre` (model units) and inverse binds
/// `B⁻¹ · T(centre)`.
fn unit_with(rig: &Rig, centre: [f32; 3]) -> i32 {
    let positions = largest_position(rig, centre);
    let mut k = unit_for(positions);
    let world = world64::rest_world(rig);
    let mut translations = 0.0f64;
    for skin in &rig.skins {
        for (&j, ibm) in skin.joints.iter().zip(&skin.inverse_binds) {
            let ibm = centred_affine(ibm, centre);
            for r in 0..3 {
                translations = translations.max(world[j][r][3].abs());
                translations = translations.max(f64::from(ibm[r][3]).abs());
            }
        }
    }
    while translations / 2f64.powi(k) >= f64::from(TRANSLATION_HEADROOM) {
        k += 1;
    }
    k
}

/// The point (model units) the fixed lane takes a skinned model's positions and skinning
/// matrices relative to (`docs/FORMAT.md`, *Centre*): the centre of the skinned bind
/// positions' box, on the grid of `2^(k₀ − 14)` model units (`k₀` the unit without a
/// centre), when that lowers the asset unit (a model standing on the ground, or modelled
/// away from the origin, fills a finer unit about its centre); otherwise zero. On that grid
/// it is a whole number of `2⁻¹³` asset units at the finer unit, so the player adds it back
/// to a skinned position exactly.
pub fn fixed_centre(rig: &Rig) -> [f32; 3] {
    let mut lo = [f32::INFINITY; 3];
    let mut hi = [f32::NEG_INFINITY; 3];
    for p in centred_primitives(rig).flat_map(|p| &p.positions) {
        for i in 0..3 {
            lo[i] = lo[i].min(p[i]);
            hi[i] = hi[i].max(p[i]);
        }
    }
    if !(0..3).all(|i| lo[i].is_finite() && hi[i].is_finite()) {
        return [0.0; 3];
    }
    let plain = unit_with(rig, [0.0; 3]);
    let step = 2f64.powi(plain - 14);
    let centre =
        [0, 1, 2].map(|i| ((f64::from(lo[i]) + f64::from(hi[i])) / 2.0 / step).round() * step);
    let centre = centre.map(|c| c as f32);
    let k = unit_with(rig, centre);
    let fits = centre
        .iter()
        .all(|c| f64::from(c.abs()) <= f64::from(skin_core::asset::MAX_CENTRE) * 2f64.powi(k));
    if k < plain && fits {
        centre
    } else {
        [0.0; 3]
    }
}

/// The centre (asset units `2^k`) lane `L` skins a rig's skinned primitives relative to:
/// the fixed lane's [`fixed_centre`], zero in `f32` (whose precision does not depend on the
/// distance from the origin).
pub fn lane_centre<L: skin_core::lane::Lane>(rig: &Rig, k: i32) -> [f32; 3] {
    if L::NAME == <skin_core::lane::Q14 as skin_core::lane::Lane>::NAME {
        fixed_centre(rig).map(|c| c * to_asset(k))
    } else {
        [0.0; 3]
    }
}

/// The primitives the centre applies to: those skinned by their node's skin (a rigid mesh's
/// positions are in its node's frame).
fn centred_primitives(rig: &Rig) -> impl Iterator<Item = &crate::rig::Primitive> + '_ {
    rig.mesh_nodes()
        .filter(|(_, _, skin)| skin.is_some())
        .flat_map(|(_, m, _)| &rig.meshes[m].primitives)
        .filter(|p| p.influences.is_some())
}

/// `m · T(centre)`: an inverse bind taking positions stored less `centre`.
pub fn centred_affine(m: &[[f32; 4]; 3], centre: [f32; 3]) -> [[f32; 4]; 3] {
    m.map(|r| {
        let t = f64::from(r[3])
            + (0..3)
                .map(|c| f64::from(r[c]) * f64::from(centre[c]))
                .sum::<f64>();
        [r[0], r[1], r[2], t as f32]
    })
}

/// The largest magnitude of any mesh position coordinate, skinned ones less `centre` (0
/// without meshes).
fn largest_position(rig: &Rig, centre: [f32; 3]) -> f32 {
    let skinned = centred_primitives(rig)
        .flat_map(|p| &p.positions)
        .flat_map(|p| (0..3).map(move |i| p[i] - centre[i]));
    let rigid = rig
        .mesh_nodes()
        .flat_map(|(_, m, skin)| {
            rig.meshes[m]
                .primitives
                .iter()
                .filter(move |p| skin.is_none() || p.influences.is_none())
        })
        .flat_map(|p| &p.positions)
        .flatten()
        .copied();
    skinned.chain(rigid).fold(0.0f32, |a, v| a.max(v.abs()))
}

/// The smallest `k` with `max < 2^k` (0 for an empty or all-zero model).
fn unit_for(max: f32) -> i32 {
    if max <= 0.0 || !max.is_finite() {
        return 0;
    }
    let mut k = max.log2().floor() as i32;
    while f64::from(max) >= 2f64.powi(k) {
        k += 1;
    }
    while k > -60 && f64::from(max) < 2f64.powi(k - 1) {
        k -= 1;
    }
    k
}

/// The largest asset-unit exponent: `2^127` is the largest power of two an `f32` holds.
pub const MAX_UNIT_EXPONENT: i32 = 127;

/// How many bits joint and inverse-bind translations may raise the asset unit above the
/// positions' own: positions then keep at least 8 of `I2F14`'s 14 fraction bits, about
/// 1/256 of the model's size, a pixel on the firmware's 240-pixel screen.
pub const PRECISION_BITS: i32 = 6;

/// The asset unit exponent `k` of `rig` in the fixed lane ([`asset_unit`]), or why the
/// model does not fit it: `2^k` beyond a finite `f32` (positions near `f32::MAX`), or
/// joint and inverse-bind translations raising it more than [`PRECISION_BITS`] above what
/// the positions need (positions are `I2F14` asset units, so each bit raised is a bit of the
/// mesh lost: a joint at 10^30 would flatten every vertex to zero).
pub fn fixed_unit(rig: &Rig) -> Result<i32, PoseError> {
    let largest = largest_position(rig, fixed_centre(rig));
    let own = unit_for(largest);
    if own > MAX_UNIT_EXPONENT {
        return Err(PoseError::Range(format!(
            "a vertex position of {largest:e} model units needs asset unit 2^{own}, beyond \
             2^{MAX_UNIT_EXPONENT} (the largest f32 power of two); fixed point cannot hold \
             this model, use --arith f32"
        )));
    }
    let k = asset_unit(rig);
    if k > own + PRECISION_BITS {
        return Err(PoseError::Range(format!(
            "{} needs asset unit 2^{k} (translations stay below {} asset units), {} bits \
             above the 2^{own} the positions need (largest {largest:e}): the mesh would keep \
             {} of I2F14's 14 fraction bits, and at most {PRECISION_BITS} may be given up; \
             fixed point cannot hold this model, use --arith f32",
            largest_translation(rig),
            TRANSLATION_HEADROOM,
            k - own,
            (14 - (k - own)).max(0),
        )));
    }
    Ok(k)
}

/// The largest rest-pose joint world translation or inverse-bind translation, in words.
fn largest_translation(rig: &Rig) -> String {
    let world = world64::rest_world(rig);
    let mut best = (0.0f64, String::from("a translation"));
    for (s, skin) in rig.skins.iter().enumerate() {
        for (j, (&n, ibm)) in skin.joints.iter().zip(&skin.inverse_binds).enumerate() {
            for r in 0..3 {
                let (w, b) = (world[n][r][3].abs(), f64::from(ibm[r][3]).abs());
                if w > best.0 {
                    best = (
                        w,
                        format!(
                            "the rest world translation {w:e} of joint {j} (node {n}) of skin {s}"
                        ),
                    );
                }
                if b > best.0 {
                    best = (b, format!("the inverse bind translation {b:e} of joint {j} (node {n}) of skin {s}"));
                }
            }
        }
    }
    best.1
}

/// `2^k` as the factor that takes model units to asset units (`1` in `f32`).
pub fn to_asset(k: i32) -> f32 {
    2f32.powi(-k)
}

/// `m` with its translation column multiplied by `s`.
pub fn scaled_affine(m: &[[f32; 4]; 3], s: f32) -> [[f32; 4]; 3] {
    let mut rows = *m;
    rows.iter_mut().for_each(|r| r[3] *= s);
    rows
}
