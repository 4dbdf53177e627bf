//! One animated property of one bone: its keys, their validation and their interpolation.

use crate::error::{num_error, Error, Quantity};
use crate::num::Real;
use crate::quat::Quat;
use crate::transform::Transform;

use super::span::Span;
use super::Keys;

/// What a channel animates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Path {
    /// Translation: 3 values a key.
    Translation,
    /// Rotation, a quaternion `[x, y, z, w]`: 4 values a key.
    Rotation,
    /// Scale: 3 values a key.
    Scale,
}

impl Path {
    /// Values per key (per value, in-tangent or out-tangent for cubic splines).
    pub const fn width(self) -> usize {
        match self {
            Path::Rotation => 4,
            Path::Translation | Path::Scale => 3,
        }
    }
}

/// How values are interpolated between keys (glTF's `sampler.interpolation`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Interpolation {
    /// Hold each key's value until the next key.
    Step,
    /// Linear; rotations by shortest-path slerp.
    Linear,
    /// Cubic Hermite spline: each key stores in-tangent, value, out-tangent (in that order),
    /// tangents in units per second; rotations are renormalised.
    CubicSpline,
}

impl Interpolation {
    /// Stored vectors per key: 3 for cubic splines, else 1.
    pub const fn stride(self) -> usize {
        match self {
            Interpolation::CubicSpline => 3,
            Interpolation::Step | Interpolation::Linear => 1,
        }
    }
}

/// Key frames of one property of one bone, over any [`Keys`] source (zero-copy).
///
/// Plain data: it is validated when a [`crate::clip::Clip`] (or an asset) is made from it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Channel<K> {
    /// The bone (index into the skeleton) it animates.
    pub bone: u16,
    /// The property.
    pub path: Path,
    /// How keys are interpolated.
    pub interpolation: Interpolation,
    /// Key times in seconds, non-decreasing.
    pub times: K,
    /// Key values, flat: `path.width() × interpolation.stride()` per key.
    pub values: K,
}

impl<K: Keys> Channel<K> {
    /// Values per key.
    fn key_len(&self) -> usize {
        self.path.width() * self.interpolation.stride()
    }

    /// Check everything sampling relies on, for scalar `R`; `index` names the channel in
    /// errors, `bones` is the skeleton's size. `Ok(true)` when every rotation key is of unit
    /// length as [`Real::unit_quat`] takes it (always for other paths, never for `f32`
    /// rotations): then sampling converts those keys as they are, without repeating the
    /// length check each frame.
    pub(crate) fn validate<R: Real>(&self, index: usize, bones: usize) -> Result<bool, Error> {
        if usize::from(self.bone) >= bones {
            return Err(Error::ChannelBone {
                channel: index,
                bone: usize::from(self.bone),
                bones,
            });
        }
        let keys = self.times.len();
        if keys == 0 {
            return Err(Error::NoKeys { channel: index });
        }
        let expected = keys.saturating_mul(self.key_len());
        if self.values.len() != expected {
            return Err(Error::KeyCount {
                channel: index,
                expected,
                actual: self.values.len(),
            });
        }
        let what = Quantity::Channel;
        let mut last = f32::NEG_INFINITY;
        for k in 0..keys {
            let t = self.times.at(k);
            if !t.is_finite() {
                return Err(Error::NotFinite { what, index });
            }
            if t < last {
                return Err(Error::KeyOrder {
                    channel: index,
                    key: k,
                });
            }
            last = t;
        }
        let fits = |v: f32| -> Result<(), Error> {
            fit::<R>(v).map_err(|e| num_error(e, what, index, R::NAME))
        };
        let w = self.path.width();
        let mut unit = true;
        for k in 0..keys {
            let value = self.vector(k, 1);
            for v in &value[..w] {
                fits(*v)?;
            }
            if self.path == Path::Rotation {
                Quat::<R>::from_f32(value).map_err(|e| num_error(e, what, index, R::NAME))?;
                unit &= R::unit_quat(value).is_some();
            }
            if self.interpolation != Interpolation::CubicSpline {
                continue;
            }
            // Tangents are used scaled by the interval they span: in-tangents by the one
            // before the key, out-tangents by the one after.
            let before = if k > 0 { last_gap(self.times, k) } else { 0.0 };
            let after = if k + 1 < keys {
                last_gap(self.times, k + 1)
            } else {
                0.0
            };
            for (slot, gap) in [(0, before), (2, after)] {
                for v in &self.vector(k, slot)[..w] {
                    fits(*v)?;
                    fits(*v * gap)?;
                }
            }
        }
        Ok(unit)
    }

    /// Vector `slot` (0 in-tangent, 1 value, 2 out-tangent; always 1 unless cubic) of key
    /// `k`, padded with zeros to four components.
    fn vector(&self, k: usize, slot: usize) -> [f32; 4] {
        let w = self.path.width();
        let start = k * self.key_len()
            + if self.interpolation == Interpolation::CubicSpline {
                slot * w
            } else {
                0
            };
        self.values.vector(start, w)
    }

    /// Set this channel's property in `pose` to its value at `t` seconds (held at the first
    /// and last keys outside their range); `span` is the previous channel's at `t`. The
    /// channel must have passed [`Channel::validate`] for `R` and `pose` must hold its bone;
    /// `as_is` only where that validation returned `true` for it.
    pub(crate) fn sample_into<R: Real>(
        &self,
        t: f32,
        span: &mut Span<R>,
        (index, as_is): (usize, bool),
        pose: &mut [Transform<R>],
    ) -> Result<(), Error> {
        let conv = |e| num_error(e, Quantity::Channel, index, R::NAME);
        // A rotation key: validated unit keys as they are (the same bits that
        // `Real::unit_quat` gives them), others normalised.
        let rotation = |q: [f32; 4]| -> Result<Quat<R>, Error> {
            if as_is {
                let [x, y, z, w] = to_real::<R>(q).map_err(conv)?;
                Ok(Quat { x, y, z, w })
            } else {
                Quat::<R>::from_f32(q).map_err(conv)
            }
        };
        let keys = self.times.len();
        let lo = span.count(self.times);
        let v: [R; 4] = if lo == 0 || lo == keys || self.interpolation == Interpolation::Step {
            let k = lo.saturating_sub(1);
            let q = self.vector(k, 1);
            if self.path == Path::Rotation {
                let q = rotation(q)?;
                [q.x, q.y, q.z, q.w]
            } else {
                to_real(q).map_err(conv)?
            }
        } else {
            let k = lo - 1;
            let (t0, t1) = (self.times.at(k), self.times.at(lo));
            let (u, gap) = span.parameter(t, t0, t1).map_err(conv)?;
            match self.interpolation {
                Interpolation::CubicSpline => {
                    let scaled = |a: [f32; 4]| to_real::<R>(a.map(|v| v * gap));
                    let p0 = to_real::<R>(self.vector(k, 1)).map_err(conv)?;
                    let m0 = scaled(self.vector(k, 2)).map_err(conv)?;
                    let p1 = to_real::<R>(self.vector(lo, 1)).map_err(conv)?;
                    let m1 = scaled(self.vector(lo, 0)).map_err(conv)?;
                    let h = hermite(u);
                    let c: [R; 4] = core::array::from_fn(|i| {
                        h[0] * p0[i] + h[1] * m0[i] + h[2] * p1[i] + h[3] * m1[i]
                    });
                    if self.path == Path::Rotation {
                        let q = unit(Quat {
                            x: c[0],
                            y: c[1],
                            z: c[2],
                            w: c[3],
                        });
                        [q.x, q.y, q.z, q.w]
                    } else {
                        c
                    }
                }
                _ if self.path == Path::Rotation => {
                    let a = rotation(self.vector(k, 1))?;
                    let b = rotation(self.vector(lo, 1))?;
                    let q = a.slerp(b, u);
                    [q.x, q.y, q.z, q.w]
                }
                _ => {
                    let a = to_real::<R>(self.vector(k, 1)).map_err(conv)?;
                    let b = to_real::<R>(self.vector(lo, 1)).map_err(conv)?;
                    // (1 − u)·a + u·b: both terms within LIMIT, so no fixed-point overflow;
                    // weights in [0, 1] times values within LIMIT: `times_small`, the same
                    // value as `times`.
                    core::array::from_fn(|i| (R::ONE - u).times_small(a[i]) + u.times_small(b[i]))
                }
            }
        };
        let target = &mut pose[usize::from(self.bone)];
        match self.path {
            Path::Translation => target.translation = [v[0], v[1], v[2]],
            Path::Scale => target.scale = [v[0], v[1], v[2]],
            Path::Rotation => {
                target.rotation = Quat {
                    x: v[0],
                    y: v[1],
                    z: v[2],
                    w: v[3],
                }
            }
        }
        Ok(())
    }
}

/// `times[k] − times[k − 1]`.
fn last_gap<K: Keys>(times: K, k: usize) -> f32 {
    times.at(k) - times.at(k - 1)
}

/// The Hermite basis at `u`: weights of `p0`, `m0`, `p1`, `m1`.
fn hermite<R: Real>(u: R) -> [R; 4] {
    let one = R::ONE;
    let two = one + one;
    let three = two + one;
    let u2 = u * u;
    let u3 = u2 * u;
    [
        two * u3 - three * u2 + one,
        u3 - two * u2 + u,
        three * u2 - two * u3,
        u3 - u2,
    ]
}

/// A non-zero quaternion of any size scaled to unit length (first by its largest
/// component, so that the squares cannot overflow fixed point).
fn unit<R: Real>(q: Quat<R>) -> Quat<R> {
    let big = q.x.abs().max(q.y.abs()).max(q.z.abs()).max(q.w.abs());
    if big < R::EPSILON {
        return Quat::IDENTITY;
    }
    Quat {
        x: q.x / big,
        y: q.y / big,
        z: q.z / big,
        w: q.w / big,
    }
    .normalize()
}

/// Can `v` be a key value (or a scaled tangent) in `R`: representable and within
/// [`Real::LIMIT`], so that interpolation cannot overflow.
fn fit<R: Real>(v: f32) -> Result<(), crate::num::NumError> {
    R::from_f32(v)?;
    if v.abs() > R::LIMIT {
        return Err(crate::num::NumError::OutOfRange);
    }
    Ok(())
}

fn to_real<R: Real>(v: [f32; 4]) -> Result<[R; 4], crate::num::NumError> {
    Ok([
        R::from_f32(v[0])?,
        R::from_f32(v[1])?,
        R::from_f32(v[2])?,
        R::from_f32(v[3])?,
    ])
}
