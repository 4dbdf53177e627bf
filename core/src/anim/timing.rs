//! Time for blends: crossfades over a duration, and the normalised phase that keeps
//! locomotion cycles of different lengths in step.

use super::error::AnimError;

/// [`AnimError::Time`] unless `value` is finite and not negative.
fn seconds(what: &'static str, value: f32) -> Result<f32, AnimError> {
    if value.is_finite() && value >= 0.0 {
        Ok(value)
    } else {
        Err(AnimError::Time { what, value })
    }
}

/// A crossfade from one clip to another, linear over `duration` seconds from `start`.
///
/// ```
/// use skin_core::anim::Crossfade;
/// let fade = Crossfade::new(1.0, 0.5).unwrap();
/// assert_eq!(fade.weight(0.0), 0.0); // all "from"
/// assert_eq!(fade.weight(1.25), 0.5);
/// assert_eq!(fade.weight(9.0), 1.0); // all "to"
/// // The two layers' weights: 1 − w for the clip faded from, w for the one faded to.
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Crossfade {
    start: f32,
    duration: f32,
}

impl Crossfade {
    /// A crossfade starting at `start` seconds, lasting `duration` (0: a cut).
    ///
    /// Errors: [`AnimError::Time`] for a start or duration that is NaN, infinite or negative.
    pub fn new(start: f32, duration: f32) -> Result<Self, AnimError> {
        Ok(Self {
            start: seconds("crossfade start", start)?,
            duration: seconds("crossfade duration", duration)?,
        })
    }

    /// The weight of the clip faded to at `t` seconds, in [0, 1] (0 for a NaN `t`).
    pub fn weight(&self, t: f32) -> f32 {
        let into = t - self.start;
        if into.is_nan() || into <= 0.0 {
            0.0
        } else if into >= self.duration {
            1.0
        } else {
            into / self.duration
        }
    }
}

/// A normalised phase in [0, 1): the position in a locomotion cycle that clips of different
/// durations share, so a walk and a run blended together put their feet down together.
///
/// The blended cycle lasts the weighted mean of the clips' durations ([`Phase::cycle`]); the
/// phase advances by `dt / cycle`; clip `i` is sampled at `phase · durationᵢ`.
///
/// ```
/// use skin_core::anim::Phase;
/// // A 1 s walk and a 0.5 s run, half each: a 0.75 s cycle.
/// let cycle = Phase::cycle(&[(1.0, 0.5), (0.5, 0.5)]).unwrap();
/// assert_eq!(cycle, 0.75);
/// let mut phase = Phase::default();
/// phase.advance(0.375, cycle).unwrap();
/// assert_eq!(phase.value(), 0.5);
/// assert_eq!((phase.time(1.0), phase.time(0.5)), (0.5, 0.25)); // both half-way
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Phase {
    value: f32,
}

impl Phase {
    /// The phase `value` wrapped into [0, 1).
    ///
    /// Errors: [`AnimError::Time`] for a NaN or infinite value.
    pub fn new(value: f32) -> Result<Self, AnimError> {
        if !value.is_finite() {
            return Err(AnimError::Time {
                what: "phase",
                value,
            });
        }
        let mut phase = Self::default();
        phase.wrap(value);
        Ok(phase)
    }

    /// The duration of the blended cycle: the weighted mean of `(duration, weight)` pairs
    /// (the weights need not sum to one). Zero total weight: the plain mean.
    ///
    /// Errors: [`AnimError::Time`] for a duration that is NaN, infinite or not positive, or
    /// a weight that is NaN, infinite or negative.
    pub fn cycle(clips: &[(f32, f32)]) -> Result<f32, AnimError> {
        let (mut sum, mut total, mut plain) = (0.0f32, 0.0f32, 0.0f32);
        for &(duration, weight) in clips {
            if seconds("clip duration", duration)? == 0.0 {
                return Err(AnimError::Time {
                    what: "clip duration",
                    value: duration,
                });
            }
            let weight = seconds("locomotion weight", weight)?;
            sum += duration * weight;
            total += weight;
            plain += duration;
        }
        Ok(if total > 0.0 {
            sum / total
        } else if clips.is_empty() {
            0.0
        } else {
            plain / clips.len() as f32
        })
    }

    /// The phase, in [0, 1).
    pub fn value(&self) -> f32 {
        self.value
    }

    /// Move on by `dt` seconds through a cycle of `cycle` seconds (a cycle of 0 holds).
    ///
    /// Errors: [`AnimError::Time`] for a `dt` or `cycle` that is NaN, infinite or negative.
    pub fn advance(&mut self, dt: f32, cycle: f32) -> Result<(), AnimError> {
        let dt = seconds("time step", dt)?;
        let cycle = seconds("cycle duration", cycle)?;
        if cycle > 0.0 {
            self.wrap(self.value + dt / cycle);
        }
        Ok(())
    }

    /// The time to sample a clip of `duration` seconds at.
    pub fn time(&self, duration: f32) -> f32 {
        self.value * duration
    }

    fn wrap(&mut self, v: f32) {
        let r = v - libm::floorf(v);
        // floor can leave exactly 1 for tiny negative v.
        self.value = if r >= 1.0 { 0.0 } else { r };
    }
}
