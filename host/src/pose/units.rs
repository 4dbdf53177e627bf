//! Asset units: the power of two `2^k` model units that the fixed lane measures lengths in,
//! so that bind positions lie in (−1, 1) as the `I2F14` lane needs (`k = 0` in `f32`).

use crate::rig::world64;
use crate::rig::Rig;

/// The largest translation (in asset units) a rest-pose world or inverse bind matrix may have;
/// half of `I8F24`'s palette limit, leaving headroom for animation.
pub const TRANSLATION_HEADROOM: f32 = 32.0;

/// The asset-unit exponent `k` for fixed point: the smallest `k` with every mesh position
/// below `2^k` in magnitude (so positions in asset units lie in (−1, 1)), raised until every
/// rest-pose joint world translation and inverse-bind translation is below
/// [`TRANSLATION_HEADROOM`] asset units.
pub fn asset_unit(rig: &Rig) -> i32 {
    let positions = rig
        .meshes
        .iter()
        .flat_map(|m| &m.primitives)
        .flat_map(|p| &p.positions)
        .flatten()
        .fold(0.0f32, |a, &v| a.max(v.abs()));
    let mut k = unit_for(positions);
    let world = world64::rest_world(rig);
    let mut translations = 0.0f64;
    for skin in &rig.skins {
        for (&j, ibm) in skin.joints.iter().zip(&skin.inverse_binds) {
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
