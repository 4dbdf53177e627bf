//! Clips of a read asset: names, durations and channels sampled straight from the bytes.

use core::marker::PhantomData;

use super::header::{CHANNEL_LEN, CLIP_LEN};
use super::{Asset, AssetError, AssetLane, Field};
use crate::clip::{Channel, Interpolation, Keys, LeF32s, Path, Wrap};
use crate::error::Error;
use crate::num::Real;
use crate::transform::Transform;

/// One clip of a read asset, validated for scalar `R`; keys are read in place.
#[derive(Clone, Copy, Debug)]
pub struct ClipView<'a, R> {
    name: &'a str,
    duration: f32,
    channels: &'a [u8],
    floats: LeF32s<'a>,
    bones: usize,
    /// Every rotation key of the asset of unit length for `R` (checked on reading).
    unit: bool,
    real: PhantomData<R>,
}

/// A clip record: `(channels, name length, duration)`.
fn record(r: &[u8]) -> (usize, usize, f32) {
    let u32_at = |i: usize| u32::from_le_bytes([r[i], r[i + 1], r[i + 2], r[i + 3]]);
    (
        u32_at(0) as usize,
        u32_at(4) as usize,
        f32::from_bits(u32_at(8)),
    )
}

/// Decode channel record `r` whose keys start at float `at`: the channel and the floats
/// it uses.
fn channel<'a>(
    r: &[u8],
    floats: LeF32s<'a>,
    at: usize,
    index: usize,
) -> Result<(Channel<LeF32s<'a>>, usize), AssetError> {
    let bone = u16::from_le_bytes([r[0], r[1]]);
    let path = match r[2] {
        0 => Path::Translation,
        1 => Path::Rotation,
        2 => Path::Scale,
        _ => return Err(invalid(Field::Path, index)),
    };
    let interpolation = match r[3] {
        0 => Interpolation::Step,
        1 => Interpolation::Linear,
        2 => Interpolation::CubicSpline,
        _ => return Err(invalid(Field::Interpolation, index)),
    };
    let keys = u32::from_le_bytes([r[4], r[5], r[6], r[7]]) as usize;
    let per_key = path.width() * interpolation.stride(); // at most 12
                                                         // Every channel is decoded each frame: below the bound the product cannot overflow, and
                                                         // the checked one is a 64-bit multiply (a library call on ARMv6-M).
    let values = if keys <= usize::MAX / 12 {
        keys * per_key
    } else {
        keys.checked_mul(per_key).ok_or(AssetError::TooLarge)?
    };
    let short = AssetError::Mismatch {
        what: Field::Keys,
        expected: floats.len(),
        actual: at.saturating_add(keys).saturating_add(values),
    };
    let times = floats.range(at, keys).ok_or(short)?;
    let values_at = at.checked_add(keys).ok_or(AssetError::TooLarge)?;
    let vals = floats.range(values_at, values).ok_or(short)?;
    let ch = Channel {
        bone,
        path,
        interpolation,
        times,
        values: vals,
    };
    Ok((ch, keys + values))
}

fn invalid(what: Field, index: usize) -> AssetError {
    AssetError::Invalid { what, index }
}

impl<'a, R: Real> ClipView<'a, R> {
    pub(crate) fn all<L: AssetLane<Real = R>>(
        asset: Asset<'a, L>,
    ) -> impl Iterator<Item = Self> + 'a {
        let records = asset.bytes_of(asset.s.clips);
        let names = asset.bytes_of(asset.s.names);
        let channels = asset.bytes_of(asset.s.channels);
        let floats = asset.floats();
        let bones = asset.bones();
        let unit = asset.unit_keys;
        let mut at = (0usize, 0usize, 0usize); // channel, name byte, float
        records.chunks_exact(CLIP_LEN).map_while(move |r| {
            let (n, name_len, duration) = record(r);
            let name = names.get(at.1..at.1 + name_len)?;
            let chans = channels.get(CHANNEL_LEN * at.0..CHANNEL_LEN * (at.0 + n))?;
            let mut used = 0;
            for c in chans.chunks_exact(CHANNEL_LEN) {
                used += channel(c, floats, at.2 + used, 0).ok()?.1;
            }
            let view = Self {
                name: core::str::from_utf8(name).ok()?,
                duration,
                channels: chans,
                floats: floats.range(at.2, used)?,
                bones,
                unit,
                real: PhantomData,
            };
            at = (at.0 + n, at.1 + name_len, at.2 + used);
            Some(view)
        })
    }

    /// The clip's name.
    pub fn name(&self) -> &'a str {
        self.name
    }

    /// Its duration in seconds (the loop period).
    pub fn duration(&self) -> f32 {
        self.duration
    }

    /// Its channels, keys viewed in place.
    pub fn channels(&self) -> impl Iterator<Item = Channel<LeF32s<'a>>> + 'a {
        let floats = self.floats;
        let mut at = 0;
        self.channels.chunks_exact(CHANNEL_LEN).map_while(move |r| {
            let (c, used) = channel(r, floats, at, 0).ok()?;
            at += used;
            Some(c)
        })
    }

    /// Write every channel's value at `t` seconds into `pose` (initialised by the caller,
    /// normally to the rest pose); see [`crate::clip::Clip::sample`].
    pub fn sample(&self, t: f32, wrap: Wrap, pose: &mut [Transform<R>]) -> Result<(), Error> {
        let t = wrap.time(t, self.duration);
        crate::clip::sample(self.channels(), t, (self.bones, self.unit), pose)
    }
}

impl<L: AssetLane> Asset<'_, L> {
    /// Clip records add up to the channel, name and key totals; names are UTF-8; durations
    /// finite and non-negative; every channel valid for `L::Real`. `Ok(true)` when every
    /// rotation key is of unit length for it ([`Channel::validate`]).
    pub(crate) fn check_clips(&self) -> Result<bool, AssetError> {
        let records = self.bytes_of(self.s.clips);
        let (mut chans, mut names) = (0u64, 0u64);
        for r in records.chunks_exact(CLIP_LEN) {
            let (n, name_len, _) = record(r);
            chans += n as u64;
            names += name_len as u64;
        }
        let c = &self.counts;
        for (what, expected, actual) in [
            (Field::Channels, c.channels, chans),
            (Field::Name, c.names, names),
        ] {
            if u64::from(expected) != actual {
                return Err(AssetError::Mismatch {
                    what,
                    expected: expected as usize,
                    actual: actual as usize,
                });
            }
        }
        let (names, channels) = (self.bytes_of(self.s.names), self.bytes_of(self.s.channels));
        let floats = self.floats();
        let (mut ci, mut name_at, mut float_at) = (0usize, 0usize, 0usize);
        let mut unit = true;
        for (clip, r) in records.chunks_exact(CLIP_LEN).enumerate() {
            let (n, name_len, duration) = record(r);
            let name = &names[name_at..name_at + name_len];
            name_at += name_len;
            if core::str::from_utf8(name).is_err() {
                return Err(invalid(Field::Name, clip));
            }
            if !(duration.is_finite() && duration >= 0.0) {
                return Err(invalid(Field::Duration, clip));
            }
            for local in 0..n {
                let rec = &channels[CHANNEL_LEN * ci..CHANNEL_LEN * (ci + 1)];
                let (ch, used) = channel(rec, floats, float_at, ci)?;
                unit &= ch.validate::<L::Real>(local, self.bones())?;
                ci += 1;
                float_at += used;
            }
        }
        if float_at != floats.len() {
            return Err(AssetError::Mismatch {
                what: Field::Keys,
                expected: floats.len(),
                actual: float_at,
            });
        }
        Ok(unit)
    }
}
