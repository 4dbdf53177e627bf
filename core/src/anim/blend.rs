//! Blending sampled poses: weighted layers with per-joint masks, additive layers on top, and
//! the rest pose where the layers' weights vanish.

use heapless::Vec;

use super::error::{AnimError, Input};
use super::vector::normalized;
use crate::num::Real;
use crate::quat::Quat;
use crate::transform::Transform;

/// A pose with a weight and an optional per-joint mask (checked when it is added).
#[derive(Clone, Copy, Debug)]
struct Layer<'a, R> {
    pose: &'a [Transform<R>],
    weight: R,
    mask: Option<&'a [R]>,
}

impl<R: Real> Layer<'_, R> {
    /// The layer's weight at `joint`: its weight times its mask's.
    #[inline(always)]
    fn weight(&self, joint: usize) -> R {
        match self.mask {
            Some(mask) => self.weight.times(mask[joint]),
            None => self.weight,
        }
    }
}

/// An additive layer: `pose`'s difference from `reference`, added with a weight.
#[derive(Clone, Copy, Debug)]
struct Additive<'a, R> {
    layer: Layer<'a, R>,
    reference: &'a [Transform<R>],
}

/// A blend of up to `LAYERS` weighted poses and up to `LAYERS` additive layers over one
/// skeleton's rest pose.
///
/// Per joint `j`, with layer `i`'s weight `wᵢ` times its mask's `mᵢ[j]` (1 without a mask):
///
/// - the total `W = Σ wᵢ·mᵢ[j]`; below the threshold `τ` ([`Blend::THRESHOLD`]) the rest
///   pose joins with weight `τ − W`, so a joint no layer covers keeps its rest transform and
///   the result is continuous as weights fade to zero;
/// - rotations: the quaternions scaled by their normalised weights are summed, each first
///   negated if it points away from the sum so far (hemisphere alignment: `q` and `−q` are
///   one rotation), and the sum is normalised;
/// - translations and scales: the normalised weighted sums;
/// - then each additive layer `k` with weight `vₖ·mₖ[j]`: the rotation is multiplied on the
///   right by its delta `refₖ⁻¹·qₖ` (on the delta's positive hemisphere) interpolated from
///   the identity by that weight (normalised linear interpolation), translation and scale
///   are moved by the weighted differences `v·(t − ref)` and `v·(s − ref)`.
///
/// The normalised weights are narrowed to the format's [`Real::Unit`] before they scale
/// (exact in `f32`; in fixed point 15 fractional bits, so that each product is two 32-bit
/// multiplies on a Cortex-M0, and the hemisphere test a coarse dot product,
/// [`Real::unit_dot`]).
///
/// Every input is checked once, when it is added; [`Blend::apply`] only checks the output's
/// length and that additive layers keep translations and scales within [`Real::LIMIT`].
///
/// ```
/// use skin_core::anim::Blend;
/// use skin_core::transform::Transform;
/// let rest = [Transform::<f32>::IDENTITY; 2];
/// let walk = [Transform::from_f32([1.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0], [1.0; 3]).unwrap(); 2];
/// let mut run = walk;
/// run[0].translation[0] = 3.0;
/// run[1].translation[0] = 3.0;
/// // The run only on the upper body (joint 1).
/// let upper = [0.0, 1.0];
/// let mut blend = Blend::<f32, 4>::new(&rest).unwrap();
/// blend.layer(&walk, 0.5, None).unwrap();
/// blend.layer(&run, 0.5, Some(&upper)).unwrap();
/// let mut out = rest;
/// blend.apply(&mut out).unwrap();
/// assert_eq!(out[0].translation[0], 1.0); // the walk alone
/// assert_eq!(out[1].translation[0], 2.0); // half walk, half run
/// ```
#[derive(Clone, Debug)]
pub struct Blend<'a, R: Real, const LAYERS: usize> {
    rest: &'a [Transform<R>],
    threshold: R,
    limit_half: R,
    layers: Vec<Layer<'a, R>, LAYERS>,
    additive: Vec<Additive<'a, R>, LAYERS>,
}

impl<'a, R: Real, const LAYERS: usize> Blend<'a, R, LAYERS> {
    /// The total weight below which the rest pose fills in (`τ`): small enough not to
    /// disturb ordinary blends, large enough that the normalising division stays within
    /// fixed point (its reciprocal is at most 10).
    pub const THRESHOLD: f32 = 0.1;

    /// An empty blend over the skeleton's rest pose (one transform per joint).
    ///
    /// Errors: [`AnimError::Transform`] for a rest transform that is not valid
    /// ([`Transform::is_valid`]).
    pub fn new(rest: &'a [Transform<R>]) -> Result<Self, AnimError> {
        check_pose(rest, Input::Rest, 0)?;
        Ok(Self {
            rest,
            threshold: R::from_f32(Self::THRESHOLD).unwrap_or(R::ONE),
            limit_half: R::from_f32(R::LIMIT / 2.0).unwrap_or(R::ONE),
            layers: Vec::new(),
            additive: Vec::new(),
        })
    }

    /// Joints of the skeleton.
    pub fn joints(&self) -> usize {
        self.rest.len()
    }

    /// Add a pose (normally a clip sampled over the rest pose) with `weight` in [0, 1] and
    /// an optional mask of one weight in [0, 1] per joint.
    ///
    /// Errors: [`AnimError::Layers`] beyond `LAYERS`; [`AnimError::Weight`] for a weight
    /// or mask weight that is NaN or outside [0, 1]; [`AnimError::Joints`] for a pose or
    /// mask of another length than the rest pose; [`AnimError::Transform`] for an invalid
    /// transform.
    pub fn layer(
        &mut self,
        pose: &'a [Transform<R>],
        weight: f32,
        mask: Option<&'a [R]>,
    ) -> Result<&mut Self, AnimError> {
        let index = self.layers.len();
        let layer = self.checked(Input::Layer, index, pose, weight, mask)?;
        self.layers.push(layer).map_err(|_| AnimError::Layers {
            what: Input::Layer,
            capacity: LAYERS,
        })?;
        Ok(self)
    }

    /// Add `pose`'s difference from `reference` (normally the same clip's first frame, or
    /// the rest pose) with `weight` in [0, 1] and an optional mask.
    ///
    /// Errors: as [`Blend::layer`], and [`AnimError::Range`] for a translation or scale
    /// difference beyond [`Real::LIMIT`].
    pub fn additive(
        &mut self,
        pose: &'a [Transform<R>],
        reference: &'a [Transform<R>],
        weight: f32,
        mask: Option<&'a [R]>,
    ) -> Result<&mut Self, AnimError> {
        let index = self.additive.len();
        let layer = self.checked(Input::Additive, index, pose, weight, mask)?;
        check_length(reference.len(), self.joints(), Input::Reference, index)?;
        check_pose(reference, Input::Reference, index)?;
        for (joint, (p, r)) in pose.iter().zip(reference).enumerate() {
            let pairs = p.translation.iter().zip(&r.translation);
            let far = pairs
                .chain(p.scale.iter().zip(&r.scale))
                .any(|(a, b)| (a.to_f32() - b.to_f32()).abs() > R::LIMIT);
            if far {
                return Err(AnimError::Range {
                    index,
                    joint,
                    limit: R::LIMIT,
                });
            }
        }
        let additive = Additive { layer, reference };
        self.additive
            .push(additive)
            .map_err(|_| AnimError::Layers {
                what: Input::Additive,
                capacity: LAYERS,
            })?;
        Ok(self)
    }

    /// Remove every layer (the rest pose and its checks stay).
    pub fn clear(&mut self) {
        self.layers.clear();
        self.additive.clear();
    }

    /// The checked layer of `pose`, `weight` and `mask`.
    fn checked(
        &self,
        what: Input,
        index: usize,
        pose: &'a [Transform<R>],
        weight: f32,
        mask: Option<&'a [R]>,
    ) -> Result<Layer<'a, R>, AnimError> {
        let joints = self.joints();
        let bad = |joint, weight| AnimError::Weight {
            what,
            index,
            joint,
            weight,
        };
        if !(0.0..=1.0).contains(&weight) {
            return Err(bad(None, weight));
        }
        check_length(pose.len(), joints, what, index)?;
        check_pose(pose, what, index)?;
        if let Some(mask) = mask {
            check_length(mask.len(), joints, Input::Mask, index)?;
            let outside = |m: &R| !(*m >= R::ZERO && *m <= R::ONE);
            if let Some(joint) = mask.iter().position(outside) {
                return Err(bad(Some(joint), mask[joint].to_f32()));
            }
        }
        Ok(Layer {
            pose,
            weight: R::from_f32(weight).unwrap_or(R::ZERO),
            mask,
        })
    }

    /// Blend every layer into `out` (one transform per joint).
    ///
    /// Errors: [`AnimError::Joints`] when `out` has another length than the rest pose;
    /// [`AnimError::Range`] when additive layers move a translation or scale beyond
    /// [`Real::LIMIT`] (the joints before it are written).
    pub fn apply(&self, out: &mut [Transform<R>]) -> Result<(), AnimError> {
        check_length(out.len(), self.joints(), Input::Output, 0)?;
        if self.layers.iter().all(|l| l.mask.is_none()) {
            // Without masks every joint has the same weights: their sum, its reciprocal (a
            // division) and each layer's share once, not at every joint.
            let share = self.share(0);
            let mut weights = [R::ZERO.to_unit(); LAYERS];
            if let Some((inverse, _)) = share {
                for (w, layer) in weights.iter_mut().zip(&self.layers) {
                    *w = layer.weight.times(inverse).to_unit();
                }
            }
            self.each(out, |joint, rest, o| {
                self.base(joint, rest, share, |i, _| weights[i], o)
            })
        } else {
            self.each(out, |joint, rest, o| {
                let share = self.share(joint);
                let inverse = share.map_or(R::ZERO, |s| s.0);
                let weight = |_, layer: &Layer<'a, R>| layer.weight(joint).times(inverse).to_unit();
                self.base(joint, rest, share, weight, o)
            })
        }
    }

    /// `base(j, rest[j], out[j])`, then the additive layers at `j`, for every joint `j`.
    #[inline(always)]
    fn each(
        &self,
        out: &mut [Transform<R>],
        base: impl Fn(usize, &Transform<R>, &mut Transform<R>),
    ) -> Result<(), AnimError> {
        for (joint, (o, rest)) in out.iter_mut().zip(self.rest).enumerate() {
            base(joint, rest, o);
            if !self.additive.is_empty() {
                self.add(joint, o)?;
            }
        }
        Ok(())
    }

    /// At `joint`: the reciprocal of the total weight (the rest pose's included) and the
    /// rest pose's weight, or `None` where no layer covers the joint.
    #[inline(always)]
    fn share(&self, joint: usize) -> Option<(R, R)> {
        let mut total = R::ZERO;
        for layer in &self.layers {
            total = total + layer.weight(joint);
        }
        if total <= R::ZERO {
            return None;
        }
        let rest_weight = if total < self.threshold {
            self.threshold - total
        } else {
            R::ZERO
        };
        Some((R::ONE / (total + rest_weight), rest_weight))
    }

    /// The weighted layers (and the rest pose below the threshold) at `joint`, with the
    /// joint's [`Blend::share`] and `weight(i, layer)`, layer `i`'s weight there over the
    /// total, as a [`Real::Unit`].
    #[inline(always)]
    fn base(
        &self,
        joint: usize,
        rest: &Transform<R>,
        share: Option<(R, R)>,
        weight: impl Fn(usize, &Layer<'a, R>) -> R::Unit,
        o: &mut Transform<R>,
    ) {
        let Some((inverse, rest_weight)) = share else {
            // No layer covers the joint: its rest transform, exactly.
            *o = *rest;
            return;
        };
        // The rest pose only where the layers' weights fall short of the threshold: a zero
        // weight adds nothing, so its products are not formed. The sum starts from the first
        // contribution (adding it to zero, on zero's hemisphere, is the same).
        let mut layers = self.layers.iter().enumerate();
        let mut sum = if rest_weight > R::ZERO {
            Sum::new(rest, rest_weight.times(inverse).to_unit())
        } else if let Some((i, layer)) = layers.next() {
            Sum::new(&layer.pose[joint], weight(i, layer))
        } else {
            // No layer and no rest weight: `share` gave `None` already.
            *o = *rest;
            return;
        };
        for (i, layer) in layers {
            sum.push(&layer.pose[joint], weight(i, layer));
        }
        sum.finish(o);
    }

    /// Every additive layer at `joint`, onto `o`.
    fn add(&self, joint: usize, o: &mut Transform<R>) -> Result<(), AnimError> {
        for (index, a) in self.additive.iter().enumerate() {
            let w = a.layer.weight(joint);
            let (p, r) = (&a.layer.pose[joint], &a.reference[joint]);
            let mut delta = r.rotation.conjugate().hamilton(p.rotation);
            if delta.w < R::ZERO {
                delta = delta.scale(-R::ONE);
            }
            let blended = Quat::IDENTITY.scale(R::ONE - w).add(delta.scale(w));
            let blended = normalized(blended);
            o.rotation = o.rotation.hamilton(blended);
            let range = AnimError::Range {
                index,
                joint,
                limit: R::LIMIT,
            };
            let pairs = o
                .translation
                .iter_mut()
                .zip(p.translation.iter().zip(&r.translation));
            let scales = o.scale.iter_mut().zip(p.scale.iter().zip(&r.scale));
            for (v, (&to, &from)) in pairs.chain(scales) {
                let d = (to - from).times(w);
                // Both within the limit: their half-sum cannot overflow; the sum may.
                if (v.times(R::HALF) + d.times(R::HALF)).abs() > self.limit_half {
                    return Err(range);
                }
                *v = *v + d;
            }
        }
        o.rotation = normalized(o.rotation);
        Ok(())
    }
}

/// A running weighted sum of transforms, rotations aligned to one hemisphere; the weights are
/// [`Real::Unit`]s (in fixed point a product with one is two 32-bit multiplies, and the
/// hemisphere test takes one 32-bit product a component, [`Real::unit_dot`]).
struct Sum<R> {
    rotation: Quat<R>,
    translation: [R; 3],
    scale: [R; 3],
}

impl<R: Real> Sum<R> {
    #[inline(always)]
    fn new(t: &Transform<R>, w: R::Unit) -> Self {
        let [x, y, z, w_] = components(t.rotation).map(|v| v.times_unit(w));
        Self {
            rotation: Quat { x, y, z, w: w_ },
            translation: t.translation.map(|v| v.times_unit(w)),
            scale: t.scale.map(|v| v.times_unit(w)),
        }
    }

    #[inline(always)]
    fn push(&mut self, t: &Transform<R>, w: R::Unit) {
        let (sum, q) = (components(self.rotation), components(t.rotation));
        // `q` and `−q` are one rotation: the one on the sum's side is added.
        let opposite = R::unit_dot(sum, q) < R::ZERO;
        let [x, y, z, w_] = core::array::from_fn(|i| {
            let p = q[i].times_unit(w);
            if opposite {
                sum[i] - p
            } else {
                sum[i] + p
            }
        });
        self.rotation = Quat { x, y, z, w: w_ };
        for (s, v) in self.translation.iter_mut().zip(t.translation) {
            *s = *s + v.times_unit(w);
        }
        for (s, v) in self.scale.iter_mut().zip(t.scale) {
            *s = *s + v.times_unit(w);
        }
    }

    #[inline(always)]
    fn finish(self, o: &mut Transform<R>) {
        o.translation = self.translation;
        o.rotation = normalized(self.rotation);
        o.scale = self.scale;
    }
}

/// `[x, y, z, w]` of `q`.
#[inline(always)]
fn components<R: Real>(q: Quat<R>) -> [R; 4] {
    [q.x, q.y, q.z, q.w]
}

/// [`AnimError::Joints`] unless `actual == expected`.
fn check_length(
    actual: usize,
    expected: usize,
    what: Input,
    index: usize,
) -> Result<(), AnimError> {
    if actual == expected {
        Ok(())
    } else {
        Err(AnimError::Joints {
            what,
            index,
            actual,
            expected,
        })
    }
}

/// [`AnimError::Transform`] for the first joint of `pose` that is not valid.
fn check_pose<R: Real>(pose: &[Transform<R>], what: Input, index: usize) -> Result<(), AnimError> {
    match pose.iter().position(|t| !t.is_valid()) {
        None => Ok(()),
        Some(joint) => Err(AnimError::Transform {
            what,
            index,
            joint,
            format: R::NAME,
        }),
    }
}
