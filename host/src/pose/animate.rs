//! Animation: the rig's clips as skin-core channels, sampled by skin-core's [`Clip`] in the
//! pose scalar itself — `f32`, or `I8F24` with translation keys in asset units — the code
//! and the numbers the device uses.

use skin_core::clip::{self, Clip, Wrap};
use skin_core::num::Real;
use skin_core::transform::Transform;

use super::error::PoseError;
use super::units::to_asset;
use super::values::transforms;
use crate::rig::{Interpolation, Path, Rig};

/// One rig channel's keys, ready to become a [`clip::Channel`] (see [`clip_keys`]).
#[derive(Clone, Debug, PartialEq)]
pub struct ChannelKeys {
    /// The channel's index in the rig's clip.
    pub index: usize,
    /// The node it animates.
    pub node: usize,
    /// The property.
    pub path: Path,
    /// The interpolation.
    pub interpolation: Interpolation,
    /// Key times, seconds.
    pub times: Vec<f32>,
    /// Key values, translations in asset units.
    pub values: Vec<f32>,
}

impl ChannelKeys {
    /// A skin-core channel over these keys animating `bone`.
    pub fn channel(&self, bone: u16) -> clip::Channel<&[f32]> {
        clip::Channel {
            bone,
            path: self.path,
            interpolation: self.interpolation,
            times: &self.times,
            values: &self.values,
        }
    }
}

/// The channels of `clip` that target [`Rig::posed_nodes`], translation keys (and
/// tangents) scaled to asset units `2^k`, each with its index in the rig's clip.
pub fn clip_keys(rig: &Rig, clip: usize, k: i32) -> Vec<ChannelKeys> {
    let s = to_asset(k);
    let mut posed = vec![false; rig.nodes.len()];
    for n in rig.posed_nodes() {
        posed[n] = true;
    }
    rig.clips[clip]
        .channels
        .iter()
        .enumerate()
        .filter(|(_, c)| posed[c.node])
        .map(|(index, c)| ChannelKeys {
            index,
            node: c.node,
            path: c.path,
            interpolation: c.interpolation,
            times: c.times.clone(),
            values: match c.path {
                Path::Translation => c.values.iter().map(|v| v * s).collect(),
                _ => c.values.clone(),
            },
        })
        .collect()
}

/// The last key time of `keys` (0 without keys): a clip's duration as the asset stores it.
pub fn last_key(keys: &[ChannelKeys]) -> f32 {
    keys.iter()
        .filter_map(|c| c.times.last().copied())
        .fold(0.0, f32::max)
}

/// The duration of clip `c` as the baked asset stores it: the last key time of the channels
/// that move what is drawn (transforms of posed nodes, and morph-target weights).
pub fn duration(rig: &Rig, c: usize) -> f32 {
    let weights = rig.clips[c].weights.iter();
    weights
        .filter_map(|w| w.times.last().copied())
        .fold(last_key(&clip_keys(rig, c, 0)), f32::max)
}

/// Node local transforms (indexed by node, scalar `R`, asset units `2^k`) with animation
/// `clip` sampled at `time` seconds by skin-core's [`clip::Clip`] in `R` — the same code
/// the firmware runs — starting from the rest pose, so nodes no channel targets keep their
/// rest transform. Times outside the clip hold its first or last key ([`Wrap::Clamp`]).
pub fn sampled<R: Real>(
    rig: &Rig,
    clip: usize,
    time: f32,
    k: i32,
) -> Result<Vec<Transform<R>>, PoseError> {
    if clip >= rig.clips.len() {
        return Err(PoseError::NoAnimation(clip.to_string(), rig.clips.len()));
    }
    if !time.is_finite() {
        return Err(PoseError::BadTime(time));
    }
    let mut pose = transforms::<R>(rig, &rig.rest_locals(), k)?;
    let keys = clip_keys(rig, clip, k);
    // Checked first, so that an error names the file's channel, key and value.
    check_keys::<R>(rig, clip, &keys, k)?;
    let channels = channels(&keys, clip)?;
    let bones = rig.nodes.len();
    let ctx = format!("animation {clip} in {}", R::NAME);
    Clip::<R, _>::new(&channels, bones)
        .and_then(|c| c.sample(time, Wrap::Clamp, &mut pose))
        .map_err(PoseError::core(ctx))?;
    Ok(pose)
}

/// Skin-core channels over `keys` (of clip `clip`), bones numbered as the rig's nodes.
pub fn channels(
    keys: &[ChannelKeys],
    clip: usize,
) -> Result<Vec<clip::Channel<&[f32]>>, PoseError> {
    keys.iter()
        .map(|c| {
            let bone = u16::try_from(c.node).map_err(|_| {
                PoseError::Capacity(format!(
                    "animation {clip} animates node {}; skin-core numbers bones with 16 bits",
                    c.node
                ))
            })?;
            Ok(c.channel(bone))
        })
        .collect()
}

/// Every key value and tangent of the channels `keys` of clip `clip` (translations in
/// asset units `2^k`) as [`Clip::new`] checks them for `R`: finite and within
/// [`Real::LIMIT`], cubic tangents also when scaled by their interval.
pub fn check_keys<R: Real>(
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

/// The node transforms of a frame: the rest pose (`anim` = `None`) or clip `c` at `t`
/// seconds (`Some((c, t))`), in scalar `R` and asset units `2^k`.
pub fn frame<R: Real>(
    rig: &Rig,
    anim: Option<(usize, f32)>,
    k: i32,
) -> Result<Vec<Transform<R>>, PoseError> {
    match anim {
        Some((c, t)) => sampled::<R>(rig, c, t, k),
        None => transforms::<R>(rig, &rig.rest_locals(), k),
    }
}
