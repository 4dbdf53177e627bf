//! The asset's clips: the chosen animations' channels on posed nodes, keys as in the file,
//! translations in asset units, each channel renumbered to its bone.

use skin_core::asset::ClipParts;
use skin_core::clip::Channel;

use crate::pose::animate::{clip_keys, duration, ChannelKeys};
use crate::rig::Rig;

/// The name a clip gets in the asset: its glTF name, or its index when it has none.
pub fn clip_name(rig: &Rig, clip: usize) -> String {
    rig.clips[clip]
        .name
        .clone()
        .unwrap_or_else(|| clip.to_string())
}

/// The keys and names of the clips to bake, which the asset's channels borrow.
pub struct Clips {
    keys: Vec<Vec<ChannelKeys>>,
    names: Vec<String>,
    durations: Vec<f32>,
}

impl Clips {
    /// Clips `clips` of `rig`, translations in asset units `2^k`.
    pub fn new(rig: &Rig, clips: &[usize], k: i32) -> Self {
        Self {
            keys: clips.iter().map(|&c| clip_keys(rig, c, k)).collect(),
            names: clips.iter().map(|&c| clip_name(rig, c)).collect(),
            durations: clips.iter().map(|&c| duration(rig, c)).collect(),
        }
    }

    /// Each clip's channels, animating bone `bone_of[node]`.
    pub fn channels(&self, bone_of: &[u16]) -> Vec<Vec<Channel<&[f32]>>> {
        self.keys
            .iter()
            .map(|ks| ks.iter().map(|c| c.channel(bone_of[c.node])).collect())
            .collect()
    }

    /// The clips as the writer takes them, with `channels` from [`Clips::channels`].
    pub fn parts<'a>(&'a self, channels: &'a [Vec<Channel<&'a [f32]>>]) -> Vec<ClipParts<'a>> {
        self.durations
            .iter()
            .zip(channels)
            .zip(&self.names)
            .map(|((&duration, chans), name)| ClipParts {
                name,
                duration,
                channels: chans,
            })
            .collect()
    }
}
