//! What the number formats hold: the one check that `inspect`, `pose`, `bake`, `render` and
//! `validate` all run, so that every path agrees on whether a model fits fixed point and
//! none prints a wrong number instead of an error.
//!
//! - **The asset unit** `2^k` ([`unit`]): [`pose::asset_unit`], refused when `2^k` is not
//!   a finite `f32` (positions near `f32::MAX`), and when joint or inverse-bind
//!   translations raise it more than [`PRECISION_BITS`] above what the positions need:
//!   positions are `I2F14` asset units, so each bit raised is a bit of the mesh lost (a
//!   joint at 10^30 would flatten every vertex to zero).
//! - **Keys** ([`keys`]): every key value and tangent of a clip, checked once in the pose
//!   scalar, the error naming the clip, channel, node, key, time, value and limit.
//! - **Frames** ([`check`]): the rest pose and every [`pose::check_times`] time of each
//!   clip skinned as the device would, the clip validated once and only sampled per frame,
//!   so the check is linear in the number of keys.
//!
//! ```
//! # let rig = skin_host::import::from_slice(&skin_host::character::Character::new().glb(), None)?;
//! let k = skin_host::fit::unit(&rig)?;
//! let frames = skin_host::fit::check(&rig, &[0], k)?;
//! assert!(frames > 1);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use skin_core::affine::Affine;
use skin_core::clip::{Clip, Interpolation, Path, Wrap};
use skin_core::error::Quantity;
use skin_core::lane::{Lane, Q14};
use skin_core::num::{Fx, NumError, Real};

use crate::error::PoseError;
use crate::pose::{self, ChannelKeys};
use crate::rig::{Rig, Trs};

/// The largest asset-unit exponent: `2^127` is the largest power of two an `f32` holds.
pub const MAX_UNIT_EXPONENT: i32 = 127;

/// How many bits joint and inverse-bind translations may raise the asset unit above the
/// positions' own: positions then keep at least 8 of `I2F14`'s 14 fraction bits, about
/// 1/256 of the model's size, a pixel on the firmware's 240-pixel screen.
pub const PRECISION_BITS: i32 = 6;

/// The asset unit exponent `k` of `rig` in fixed point, or why the model does not fit.
pub fn unit(rig: &Rig) -> Result<i32, PoseError> {
    let largest = rig
        .meshes
        .iter()
        .flat_map(|m| &m.primitives)
        .flat_map(|p| &p.positions)
        .flatten()
        .fold(0.0f32, |a, &v| a.max(v.abs()));
    let own = pose::unit_for(largest);
    if own > MAX_UNIT_EXPONENT {
        return Err(PoseError::Range(format!(
            "a vertex position of {largest:e} model units needs asset unit 2^{own}, beyond \
             2^{MAX_UNIT_EXPONENT} (the largest f32 power of two); fixed point cannot hold \
             this model, use --arith f32"
        )));
    }
    let k = pose::asset_unit(rig);
    if k > own + PRECISION_BITS {
        return Err(PoseError::Range(format!(
            "{} needs asset unit 2^{k} (translations stay below {} asset units), {} bits \
             above the 2^{own} the positions need (largest {largest:e}): the mesh would keep \
             {} of I2F14's 14 fraction bits, and at most {PRECISION_BITS} may be given up; \
             fixed point cannot hold this model, use --arith f32",
            largest_translation(rig),
            pose::TRANSLATION_HEADROOM,
            k - own,
            (14 - (k - own)).max(0),
        )));
    }
    Ok(k)
}

/// The largest rest-pose joint world translation or inverse-bind translation, in words.
fn largest_translation(rig: &Rig) -> String {
    let world = pose::world_f64(rig, &pose::rest_locals(rig));
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

/// Every key value and tangent of the channels `keys` of clip `clip` (translations in
/// asset units `2^k`) as [`Clip::new`] checks them for `R`: finite and within
/// [`Real::LIMIT`], cubic tangents also when scaled by their interval.
pub fn keys<R: Real>(
    rig: &Rig,
    clip: usize,
    keys: &[ChannelKeys],
    k: i32,
) -> Result<(), PoseError> {
    for c in keys {
        let width = if c.path == Path::Rotation { 4 } else { 3 };
        let cubic = c.interpolation == Interpolation::CubicSpline;
        let stride = width * if cubic { 3 } else { 1 };
        let n = c.times.len();
        for (key, values) in c.values.chunks_exact(stride).enumerate() {
            let gap = |a: usize, b: usize| {
                if a < b && b < n {
                    c.times[b] - c.times[a]
                } else {
                    0.0
                }
            };
            for (slot, part) in values.chunks_exact(width).enumerate() {
                let scaled = match (cubic, slot) {
                    (true, 0) => Some(gap(key.wrapping_sub(1), key)),
                    (true, 2) => Some(gap(key, key + 1)),
                    _ => None,
                };
                for &v in part {
                    let bad = |x: f32| R::from_f32(x).is_err() || x.abs() > R::LIMIT;
                    let product = scaled.map(|g| v * g);
                    if bad(v) || product.is_some_and(bad) {
                        return Err(key_error::<R>(rig, clip, c, key, slot, cubic, v, k));
                    }
                }
            }
        }
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn key_error<R: Real>(
    rig: &Rig,
    clip: usize,
    c: &ChannelKeys,
    key: usize,
    slot: usize,
    cubic: bool,
    v: f32,
    k: i32,
) -> PoseError {
    let name = |n: &Option<String>| n.as_deref().map_or(String::new(), |n| format!(" {n:?}"));
    let part = match (cubic, slot) {
        (true, 0) => "in-tangent",
        (true, 2) => "out-tangent",
        _ => "value",
    };
    let unit = if c.path == Path::Translation && k != 0 {
        format!(" asset units of 2^{k} model units")
    } else {
        String::new()
    };
    PoseError::Range(format!(
        "animation {clip}{} channel {} ({:?} of node {}{}) key {key} at {} s: {part} {v:e}{unit} \
         is beyond the {} pose limit of ±{} (interval-scaled for tangents)",
        name(&rig.clips[clip].name),
        c.index,
        c.path,
        c.node,
        name(&rig.nodes[c.node].name),
        c.times.get(key).copied().unwrap_or(0.0),
        R::NAME,
        R::LIMIT,
    ))
}

/// Skin the rig in fixed point (asset unit `2^k`, from [`unit`]) at rest and at every
/// [`pose::check_times`] time of each clip in `clips`, as the device would; `Ok(frames
/// checked)` or the first frame that overflows (named in the error).
pub fn check(rig: &Rig, clips: &[usize], k: i32) -> Result<usize, PoseError> {
    let at = |what: String| {
        move |e: PoseError| PoseError::Frame {
            frame: what,
            source: Box::new(e),
        }
    };
    let rest = pose::transforms::<Fx>(rig, &pose::rest_locals(rig), k)?;
    pose::pose_in::<Q14>(rig, &rest, k).map_err(at("rest pose".into()))?;
    let mut frames = 1;
    for &c in clips {
        let keys = pose::clip_keys(rig, c, k);
        self::keys::<Fx>(rig, c, &keys, k)?;
        let channels = pose::channels(&keys, c)?;
        let clip = Clip::<Fx, _>::new(&channels, rig.nodes.len())
            .map_err(PoseError::core(format!("animation {c} in {}", Fx::NAME)))?;
        for t in pose::check_times(&rig.clips[c]) {
            let what = format!("animation {c} at {t} s");
            let mut locals = rest.clone();
            clip.sample(t, Wrap::Clamp, &mut locals)
                .map_err(PoseError::core(format!("animation {c} in {}", Fx::NAME)))
                .map_err(at(what.clone()))?;
            pose::pose_in::<Q14>(rig, &locals, k).map_err(at(what))?;
            frames += 1;
        }
    }
    Ok(frames)
}

/// Every skinned position of `blocks` (computed in lane `lane`) is a finite number:
/// `Ok`, or the first that is not, named.
pub fn finite(blocks: &[pose::Block], lane: &str) -> Result<(), PoseError> {
    for b in blocks {
        if let Some((v, p)) = b
            .positions
            .iter()
            .enumerate()
            .find(|(_, p)| !p.iter().all(|c| c.is_finite()))
        {
            return Err(PoseError::Range(format!(
                "node {} mesh {} primitive {} vertex {v} skins to {p:?} in {lane}: the \
                 model's values overflow the number format",
                b.node, b.mesh, b.primitive
            )));
        }
    }
    Ok(())
}

/// [`PoseError`] for a palette of `skin` that lane `L` refused (`e`), the refused matrix
/// `W · IBM` described by its largest row sum and translation (from the joints' bones
/// `joints`, inverse binds `ibms` and the world matrices `world`, in the pose scalar).
pub fn palette_error<L: Lane>(
    rig: &Rig,
    skin: usize,
    joints: &[u16],
    ibms: &[Affine<L::Real>],
    world: &[Affine<L::Real>],
    e: skin_core::Error,
) -> PoseError {
    let context = format!("skin {skin} in {}", L::NAME);
    let skin_core::Error::Overflow {
        what: Quantity::Palette,
        index: j,
        ..
    } = e
    else {
        return PoseError::Core { context, source: e };
    };
    let (Some(&bone), Some(ibm)) = (joints.get(j), ibms.get(j)) else {
        return PoseError::Core { context, source: e };
    };
    let Some(w) = world.get(usize::from(bone)) else {
        return PoseError::Core { context, source: e };
    };
    let f = |m: &Affine<L::Real>| m.rows.map(|r| r.map(|v| f64::from(v.to_f32())));
    let (w, b) = (f(w), f(ibm));
    let m: [[f64; 4]; 3] = core::array::from_fn(|r| {
        core::array::from_fn(|c| {
            let t = if c == 3 { w[r][3] } else { 0.0 };
            (0..3).map(|k| w[r][k] * b[k][c]).sum::<f64>() + t
        })
    });
    let rows = m
        .iter()
        .map(|r| r[..3].iter().map(|v| v.abs()).sum::<f64>())
        .fold(0.0, f64::max);
    let translation = m.iter().map(|r| r[3].abs()).fold(0.0, f64::max);
    let limit = if L::NAME == Q14::NAME {
        "rows of |rotation·scale| summing below 2 and translations within ±2".to_string()
    } else {
        format!("entries within ±{}", L::Real::LIMIT)
    };
    let node = rig.skins[skin].joints.get(j).copied().unwrap_or(0);
    PoseError::Range(format!(
        "skin {skin} joint {j} (node {node}{}): its palette matrix W·IBM has a rotation·scale \
         row summing to {rows:.4} and a translation of {translation:.4} asset units, beyond \
         what {} holds ({limit})",
        rig.nodes[node]
            .name
            .as_deref()
            .map_or(String::new(), |n| format!(" {n:?}")),
        L::NAME,
    ))
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
    let t = local.translation.map(|v| v * pose::to_asset(k));
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
        "node {node}{}: local translation {t:?}{unit}, scale {:?} {why}",
        rig.nodes[node]
            .name
            .as_deref()
            .map_or(String::new(), |n| format!(" {n:?}")),
        local.scale,
    ))
}
