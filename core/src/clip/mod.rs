//! Animation clips: key-framed translation, rotation and scale channels, sampled into a
//! local pose with glTF's interpolations (STEP, LINEAR with shortest-path slerp for
//! rotations, CUBICSPLINE Hermite with tangents scaled by the key interval).
//!
//! Keys are read in place from any [`Keys`] source: `&[f32]` slices, or little-endian bytes
//! ([`LeF32s`]) inside a baked asset, so firmware samples straight from flash. A clip is
//! validated once, for the scalar type it will be sampled in ([`Clip::new`]); sampling then
//! only searches and interpolates.
//!
//! Key times and the interpolation parameter are computed in `f32` (times in seconds need
//! more range than fixed point has); values are interpolated in the scalar `R`, so `f32` and
//! [`Fx`](crate::num::Fx) share the one algorithm.
//!
//! ```
//! use skin_core::clip::{Channel, Clip, Interpolation, Path, Wrap};
//! use skin_core::transform::Transform;
//! // Bone 1 moves from x = 0 to x = 2 over one second.
//! let times = [0.0f32, 1.0];
//! let values = [0.0f32, 0.0, 0.0, 2.0, 0.0, 0.0];
//! let channels = [Channel {
//!     bone: 1,
//!     path: Path::Translation,
//!     interpolation: Interpolation::Linear,
//!     times: &times[..],
//!     values: &values[..],
//! }];
//! let clip = Clip::<f32, _>::new(&channels, 2).unwrap();
//! let mut pose = [Transform::IDENTITY; 2]; // normally the skeleton's rest pose
//! clip.sample(0.25, Wrap::Clamp, &mut pose).unwrap();
//! assert_eq!(pose[1].translation, [0.5, 0.0, 0.0]);
//! clip.sample(1.25, Wrap::Loop, &mut pose).unwrap(); // wraps to 0.25
//! assert_eq!(pose[1].translation, [0.5, 0.0, 0.0]);
//! clip.sample(7.0, Wrap::Clamp, &mut pose).unwrap(); // holds the last key
//! assert_eq!(pose[1].translation, [2.0, 0.0, 0.0]);
//! ```

use core::marker::PhantomData;

use crate::error::{Error, Quantity};
use crate::num::Real;
use crate::transform::Transform;

mod channel;
mod keys;
mod span;

pub use channel::{Channel, Interpolation, Path};
pub use keys::{Keys, LeF32s};

/// What happens outside a clip's time range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Wrap {
    /// Before the first key and after the last, each channel holds its first or last value.
    Clamp,
    /// Time wraps into `[0, duration)` (Euclidean remainder, so negative times count back
    /// from the end); a clip of duration 0 is sampled at 0.
    Loop,
}

impl Wrap {
    /// The clip-local time `t` maps to in a clip of `duration` seconds.
    ///
    /// ```
    /// use skin_core::clip::Wrap;
    /// assert_eq!(Wrap::Loop.time(2.5, 2.0), 0.5);
    /// assert_eq!(Wrap::Loop.time(-0.5, 2.0), 1.5);
    /// assert_eq!(Wrap::Clamp.time(-0.5, 2.0), -0.5); // channels hold their first key
    /// ```
    pub fn time(self, t: f32, duration: f32) -> f32 {
        match self {
            Wrap::Clamp => t,
            Wrap::Loop if duration > 0.0 => {
                let r = libm::fmodf(t, duration);
                let r = if r < 0.0 { r + duration } else { r };
                // r + duration can round up to `duration` itself for tiny negative r.
                if r >= duration {
                    0.0
                } else {
                    r
                }
            }
            Wrap::Loop => 0.0,
        }
    }
}

/// A validated clip: channels whose keys fit scalar `R` and whose bones exist.
#[derive(Clone, Copy, Debug)]
pub struct Clip<'a, R, K> {
    channels: &'a [Channel<K>],
    duration: f32,
    bones: usize,
    /// Every rotation key of unit length for `R` ([`Channel::validate`]).
    unit: bool,
    real: PhantomData<R>,
}

impl<'a, R: Real, K: Keys> Clip<'a, R, K> {
    /// Validate `channels` for a skeleton of `bones` bones; the duration is the last key
    /// time of any channel.
    ///
    /// Errors: [`Error::ChannelBone`], [`Error::NoKeys`], [`Error::KeyCount`] (values are
    /// not `width × stride` per key), [`Error::KeyOrder`] (decreasing times),
    /// [`Error::NotFinite`] / [`Error::Overflow`] for times, values or interval-scaled
    /// tangents that are not finite or do not fit `R` within [`Real::LIMIT`], and a zero
    /// rotation key.
    pub fn new(channels: &'a [Channel<K>], bones: usize) -> Result<Self, Error> {
        let mut duration = 0.0f32;
        let mut unit = true;
        for (i, c) in channels.iter().enumerate() {
            unit &= c.validate::<R>(i, bones)?;
            duration = duration.max(c.times.at(c.times.len() - 1));
        }
        Ok(Self {
            channels,
            duration,
            bones,
            unit,
            real: PhantomData,
        })
    }

    /// The last key time, in seconds.
    pub fn duration(&self) -> f32 {
        self.duration
    }

    /// The channels.
    pub fn channels(&self) -> &'a [Channel<K>] {
        self.channels
    }

    /// Write every channel's value at `t` seconds into `pose` (one local transform per
    /// bone, initialised by the caller — normally to the skeleton's rest pose, so that
    /// bones no channel targets keep their rest transform).
    ///
    /// Errors: [`Error::LengthMismatch`] when `pose` is shorter than the skeleton,
    /// [`Error::NotFinite`] for a NaN or infinite `t`.
    pub fn sample(&self, t: f32, wrap: Wrap, pose: &mut [Transform<R>]) -> Result<(), Error> {
        sample(
            self.channels.iter().copied(),
            wrap.time(t, self.duration),
            (self.bones, self.unit),
            pose,
        )
    }
}

/// Sample channels already validated for `R` and `bones` at clip-local time `t`; `unit`
/// only where every channel's validation returned `true`.
pub(crate) fn sample<R: Real, K: Keys>(
    channels: impl Iterator<Item = Channel<K>>,
    t: f32,
    (bones, unit): (usize, bool),
    pose: &mut [Transform<R>],
) -> Result<(), Error> {
    if !t.is_finite() {
        return Err(Error::NotFinite {
            what: Quantity::Time,
            index: 0,
        });
    }
    if pose.len() < bones {
        return Err(Error::LengthMismatch {
            expected: bones,
            actual: pose.len(),
        });
    }
    let mut span = span::Span::new(t);
    for (i, c) in channels.enumerate() {
        c.sample_into(t, &mut span, (i, unit), pose)?;
    }
    Ok(())
}
