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
/// that move what is drawn.
pub fn duration(rig: &Rig, c: usize) -> f32 {
    last_key(&clip_keys(rig, c, 0))
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
    let bones = rig.nodes.len();
    let mut channels = Vec::with_capacity(keys.len());
    for c in &keys {
        let bone = u16::try_from(c.node).map_err(|_| {
            PoseError::Capacity(format!(
                "animation {clip} animates node {}; skin-core numbers bones with 16 bits",
                c.node
            ))
        })?;
        let ch = c.channel(bone);
        // Validate alone first, so that an error names the file's channel.
        Clip::<R, _>::new(core::slice::from_ref(&ch), bones).map_err(PoseError::core(format!(
            "animation {clip} channel {} (node {}) in {}",
            c.index,
            c.node,
            R::NAME
        )))?;
        channels.push(ch);
    }
    let ctx = format!("animation {clip} in {}", R::NAME);
    Clip::<R, _>::new(&channels, bones)
        .and_then(|c| c.sample(time, Wrap::Clamp, &mut pose))
        .map_err(PoseError::core(ctx))?;
    Ok(pose)
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
