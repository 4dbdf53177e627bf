//! Two-bone inverse kinematics in closed form: a root–mid–end chain (hip–knee–ankle,
//! shoulder–elbow–wrist) bent so that its end reaches a target, by the law of cosines.
//!
//! The solve works on the three joints' positions (model space) and returns the new mid and
//! end positions, bone lengths preserved:
//!
//! 1. the distance `d` from the root to the target is softened near full extension (soft
//!    IK: past `soft · reach` it approaches the reach `l₁ + l₂` as `d₀ + r·x/(x + r)`, with
//!    `x = d − d₀`, `r = reach − d₀`: continuous with slope 1, so the knee does not snap
//!    straight), then clamped to what the chain and its hinge limit allow: a bend `θ`
//!    (0: straight) in `[min, max]` puts the end at `√(l₁² + l₂² + 2·l₁·l₂·cos θ)`, so
//!    clamping the distance is clamping the bend, and unreachable targets are reached as
//!    far as the chain allows;
//! 2. the root angle from the law of cosines, `cos α = (l₁² + d² − l₂²) / (2·l₁·d)`;
//! 3. the bend lies in the plane through the root, the target and the pole point (the knee
//!    points towards the pole);
//! 4. the weight moves the mid and end joints from where they were towards the solution,
//!    keeping the bone lengths.
//!
//! Coordinates are limited to ±`√LIMIT / 4` ([`coordinate_limit`]: 2 in `I8F24`, so that
//! squared distances fit the format).

use super::error::{AnimError, Input};
use super::vector::{add, dot, long_enough, perpendicular, scale, sub, unit, Vec3};
use crate::num::{const_root, Real};

/// The largest coordinate magnitude the solver takes in format `R`.
pub fn coordinate_limit<R: Real>() -> f32 {
    const { const_root(R::LIMIT) / 4.0 }
}

/// [`coordinate_limit`] in `R`: [`Real::POINT_LIMIT`], a constant of the format (its
/// conversion from `f32` was left as a call in `f32` on the Cortex-M4F; tested to be that
/// conversion).
#[inline(always)]
fn limit<R: Real>() -> R {
    R::POINT_LIMIT
}

/// Whether `v` is beyond [`coordinate_limit`] (or NaN, which fails every comparison): a
/// comparison in `R`, where the limit is a constant (`16·v² > LIMIT` in `f32` took two
/// products, and on a Cortex-M0 the fixed lane's conversions to `f32` were software). One
/// comparison, `!(|v| ≤ limit)`, where `partial_cmp`'s two outcomes took a NaN test and a
/// comparison in `f32`. The solve's points are checked whole by [`Real::within`]; this
/// names the coordinate of one that fails.
fn beyond<R: Real>(v: R) -> bool {
    #[allow(clippy::neg_cmp_op_on_partial_ord)] // NaN must count as beyond
    let out = !(v.abs() <= limit::<R>());
    out
}

/// A hinge's bend range, radians: 0 is straight, π folded back onto itself.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Hinge {
    min: f32,
    max: f32,
    /// `cos min`, `cos max`: worked out once here, not at every solve (`cosf` works in
    /// `f64`, which is a software routine on the boards' single-precision FPUs).
    cos: (f32, f32),
}

impl Hinge {
    /// Any bend: [0, π].
    pub const FREE: Self = Self {
        min: 0.0,
        max: core::f32::consts::PI,
        // cos 0, and cos π rounded to f32 (`libm::cosf` of `PI` gives the same).
        cos: (1.0, -1.0),
    };

    /// A bend within `[min, max]`, radians, `0 ≤ min ≤ max ≤ π`.
    ///
    /// Errors: [`AnimError::Limit`] otherwise (NaN included).
    pub fn new(min: f32, max: f32) -> Result<Self, AnimError> {
        if (0.0..=max).contains(&min) && max <= core::f32::consts::PI {
            Ok(Self {
                min,
                max,
                cos: (libm::cosf(min), libm::cosf(max)),
            })
        } else {
            Err(AnimError::Limit { min, max })
        }
    }

    /// The smallest bend, radians.
    pub fn min(&self) -> f32 {
        self.min
    }

    /// The largest bend, radians.
    pub fn max(&self) -> f32 {
        self.max
    }
}

/// A two-bone chain's solve: positions in, new mid and end positions out.
///
/// ```
/// use skin_core::anim::{Hinge, TwoBone};
/// // Hip at the origin, knee 1 below, ankle 1 below that; target 1.5 below, knee forward (+Z).
/// let ik = TwoBone::<f32>::new([0.0; 3], [0.0, -1.0, 0.0], [0.0, -2.0, 0.0]).unwrap();
/// let (knee, ankle) = ik.solve([0.0, -1.5, 0.0], [0.0, -1.0, 1.0], 1.0, 1.0, Hinge::FREE).unwrap();
/// assert!((ankle[1] + 1.5).abs() < 1e-6);
/// assert!(knee[2] > 0.0); // towards the pole
/// let len = |a: [f32; 3], b: [f32; 3]| (0..3).map(|i| (a[i] - b[i]).powi(2)).sum::<f32>().sqrt();
/// assert!((len([0.0; 3], knee) - 1.0).abs() < 1e-6 && (len(knee, ankle) - 1.0).abs() < 1e-6);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TwoBone<R> {
    root: Vec3<R>,
    mid: Vec3<R>,
    end: Vec3<R>,
    upper: R,
    lower: R,
    /// `upper²` and `lower²`: the squared distances the lengths are the roots of (the law of
    /// cosines takes them as they are, without squaring the roots again).
    squares: (R, R),
    /// `1/lower`, from the same normalisation as the length.
    lower_recip: R,
    /// `1/upper`, likewise (the law of cosines' `1/(2·l₁·d)` from it and the direction's
    /// `1/d`).
    upper_recip: R,
}

/// A solve's new mid and end positions with the bones' directions: `mid` is the root plus
/// `upper` times the upper bone's length, `end` is `mid` plus `lower` times the lower bone's
/// (`upper` and `lower` of unit length: `upper` within the rounding of its cosine and sine to
/// [`Real::Unit`], `lower` within the rounding of the law of cosines).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Bent<R> {
    pub(super) upper: Vec3<R>,
    pub(super) lower: Vec3<R>,
    pub(super) mid: Vec3<R>,
    pub(super) end: Vec3<R>,
}

/// Whether `w` is in [0, 1] (NaN is not), from its bits: −0, or a sign bit of 0 and at most
/// 1's bits (the positive floats order as their bits). On a core without a floating-point
/// unit, where each `f32` comparison is a library call, two integer comparisons.
#[inline(always)]
fn unit_interval(w: f32) -> bool {
    let bits = w.to_bits();
    bits <= 1.0f32.to_bits() || bits == (-0.0f32).to_bits()
}

/// `p` converted to `R` when every coordinate is finite and within the limit
/// ([`Real::point_within`]: in `f32` one comparison of the magnitudes' sum).
#[inline(always)]
pub(super) fn point<R: Real>(what: &'static str, p: [f32; 3]) -> Result<Vec3<R>, AnimError> {
    R::point_within(p, limit::<R>()).ok_or_else(|| point_error::<R>(what, p))
}

/// [`AnimError::Point`] for the first coordinate of `p` that is not finite or beyond
/// [`coordinate_limit`] (kept out of the solve's path).
#[cold]
fn point_error<R: Real>(what: &'static str, p: [f32; 3]) -> AnimError {
    let good = |v: f32| matches!(R::from_f32(v), Ok(r) if !beyond(r));
    AnimError::Point {
        what,
        value: p.iter().copied().find(|&v| !good(v)).unwrap_or(f32::NAN),
        limit: coordinate_limit::<R>(),
    }
}

/// [`AnimError::Point`] for the first coordinate of `root`, `mid` and `end` that is beyond
/// [`coordinate_limit`] (kept out of the solve's path).
#[cold]
fn beyond_error<R: Real>(root: Vec3<R>, mid: Vec3<R>, end: Vec3<R>) -> AnimError {
    let points = [("root", root), ("mid", mid), ("end", end)];
    let first = points
        .iter()
        .find_map(|&(what, p)| p.iter().find(|&&v| beyond(v)).map(|v| (what, v.to_f32())));
    let (what, value) = first.unwrap_or(("root", f32::NAN));
    AnimError::Point {
        what,
        value,
        limit: coordinate_limit::<R>(),
    }
}

/// `points` (a chain's root, mid and end) when each is within [`coordinate_limit`], else
/// [`AnimError::Point`] for the first coordinate beyond it.
#[inline(always)]
fn near<R: Real>(points: [Vec3<R>; 3]) -> Result<[Vec3<R>; 3], AnimError> {
    let within = |p: Vec3<R>| R::within(p, limit::<R>());
    let [root, mid, end] = points;
    if within(root) && within(mid) && within(end) {
        Ok(points)
    } else {
        Err(beyond_error(root, mid, end))
    }
}

impl<R: Real> TwoBone<R> {
    /// The chain with its joints at `root`, `mid` and `end`.
    ///
    /// Errors: [`AnimError::Point`] for a coordinate that is NaN, infinite or beyond
    /// [`coordinate_limit`]; [`AnimError::ZeroBone`] for a bone shorter than
    /// [`Real::EPSILON`].
    pub fn new(root: [f32; 3], mid: [f32; 3], end: [f32; 3]) -> Result<Self, AnimError> {
        let (root, mid, end) = (point("root", root)?, point("mid", mid)?, point("end", end)?);
        Self::from_points(root, mid, end)
    }

    /// The chain with its joints at `root`, `mid` and `end`, given in `R` (a skeleton's
    /// world positions); errors as [`TwoBone::new`].
    #[cfg_attr(not(skin_v6m), inline(always))]
    pub(super) fn from_points(
        root: Vec3<R>,
        mid: Vec3<R>,
        end: Vec3<R>,
    ) -> Result<Self, AnimError> {
        let points = near([root, mid, end])?;
        let squared = |a: Vec3<R>, b: Vec3<R>| dot(sub(a, b), sub(a, b));
        let squares = (squared(mid, root), squared(end, mid));
        let (upper, upper_recip) = squares.0.root_and_recip();
        let (lower, lower_recip) = squares.1.root_and_recip();
        Self::bones(points, (upper, lower), squares, (upper_recip, lower_recip))
    }

    /// The chain with its joints at `root`, `mid` and `end` (`points`, a skeleton's world
    /// positions) and its bones' lengths known, with their squares and reciprocals (a
    /// limb's, from its rig: no square roots of the positions' differences); errors as
    /// [`TwoBone::new`].
    #[inline(always)]
    pub(super) fn with_lengths(
        points: [Vec3<R>; 3],
        lengths: (R, R),
        squares: (R, R),
        recips: (R, R),
    ) -> Result<Self, AnimError> {
        Self::bones(near(points)?, lengths, squares, recips)
    }

    /// The chain of `points` (within [`coordinate_limit`]) with its bones' lengths, or
    /// [`AnimError::ZeroBone`] for one shorter than [`Real::EPSILON`].
    #[inline(always)]
    fn bones(
        [root, mid, end]: [Vec3<R>; 3],
        (upper, lower): (R, R),
        squares: (R, R),
        (upper_recip, lower_recip): (R, R),
    ) -> Result<Self, AnimError> {
        for (bone, l) in [upper, lower].into_iter().enumerate() {
            if l < R::EPSILON {
                return Err(AnimError::ZeroBone {
                    bone,
                    length: l.to_f32(),
                });
            }
        }
        Ok(Self {
            root,
            mid,
            end,
            upper,
            lower,
            squares,
            lower_recip,
            upper_recip,
        })
    }

    /// The bone lengths (root–mid, mid–end).
    pub fn lengths(&self) -> (R, R) {
        (self.upper, self.lower)
    }

    /// The new mid and end positions for `target`, the bend towards `pole` (a point), with
    /// `weight` in [0, 1] (0: as it was), soft IK from `soft · reach` (`soft` in [0, 1]; 1:
    /// none) and the mid joint's bend within `hinge`.
    ///
    /// Errors: [`AnimError::Point`] for a target or pole that is NaN, infinite or beyond
    /// [`coordinate_limit`]; [`AnimError::Weight`] for a weight or softness outside [0, 1].
    pub fn solve(
        &self,
        target: [f32; 3],
        pole: [f32; 3],
        weight: f32,
        soft: f32,
        hinge: Hinge,
    ) -> Result<(Vec3<R>, Vec3<R>), AnimError> {
        let r = |v: f32| R::from_f32(v).unwrap_or(R::ZERO);
        let cos = (r(hinge.cos.1), r(hinge.cos.0));
        let bent = self.bend(target, pole, weight, soft, cos)?;
        Ok((bent.mid, bent.end))
    }

    /// [`TwoBone::solve`] with the bones' new directions: a limb turns its joints by them
    /// without normalising the differences of the positions again. The hinge comes as the
    /// cosines of its largest and smallest bends, in `R` (a limb converts them once).
    #[cfg_attr(not(skin_v6m), inline(always))]
    pub(super) fn bend(
        &self,
        target: [f32; 3],
        pole: [f32; 3],
        weight: f32,
        soft: f32,
        (cos_max, cos_min): (R, R),
    ) -> Result<Bent<R>, AnimError> {
        let (target, pole) = (point::<R>("target", target)?, point::<R>("pole", pole)?);
        for (what, w) in [(Input::IkWeight, weight), (Input::Softness, soft)] {
            if !unit_interval(w) {
                return Err(AnimError::Weight {
                    what,
                    index: 0,
                    joint: None,
                    weight: w,
                });
            }
        }
        let r = |v: f32| R::from_f32(v).unwrap_or(R::ZERO);
        let (l1, l2) = (self.upper, self.lower);
        let (l1_squared, l2_squared) = self.squares;
        let reach = l1 + l2;
        // The distances the hinge allows: d² = l₁² + l₂² + 2·l₁·l₂·cos θ.
        // Compared squared, so that a square root is taken only where the distance is
        // clamped; the terms that do not depend on θ formed once.
        let (sum, twice) = (l1_squared + l2_squared, l1.times_small(l2 + l2));
        let at = |c: R| sum + twice.times_small(c);
        let to_target = sub(target, self.root);
        // The direction from one reciprocal square root of the squared distance `d2`.
        let d2 = dot(to_target, to_target);
        let (direction, inverse) = if long_enough(d2) {
            let inverse = d2.recip_sqrt();
            (scale(to_target, inverse), Some(inverse))
        } else {
            let fallback = unit(sub(self.end, self.root));
            (fallback.unwrap_or([R::ZERO, -R::ONE, R::ZERO]), None)
        };
        // The target's distance, `d2·(1/d)` where the direction has the reciprocal.
        let distance = || inverse.map_or_else(|| d2.fast_sqrt(), |inverse| d2.times(inverse));
        // The distance the end goes to, where it is not the target's (`None`: `d2`, and
        // the end at the target).
        let mut moved = None;
        // No softening at 1 (`start` would be the reach), told from the bits: no conversion.
        if soft.to_bits() != 1.0f32.to_bits() {
            let d = distance();
            let start = r(soft).times_small(reach);
            if d > start && reach > start {
                let (x, span) = (d - start, reach - start);
                let d = start + span.times(x).times((x + span).recip());
                moved = Some((d, d.times_small(d)));
            }
        }
        let (near2, far2) = (at(cos_max), at(cos_min));
        let dd = moved.map_or(d2, |(_, dd)| dd);
        if dd > far2 {
            moved = Some((far2.fast_sqrt(), far2));
        } else if dd < near2 {
            moved = Some((near2.fast_sqrt(), near2));
        }
        // The bend plane's second axis: towards the pole, else the current mid joint, else
        // anything perpendicular.
        let across = |p: Vec3<R>| {
            let rel = sub(p, self.root);
            unit(sub(rel, scale(direction, dot(rel, direction))))
        };
        let side = across(pole)
            .or_else(|| across(self.mid))
            .unwrap_or_else(|| perpendicular(direction));
        // The law of cosines, cos α = (l₁² + d² − l₂²) / (2·l₁·d): at the target's distance
        // (not too small for its reciprocal root) `1/d` is the direction's and `1/l₁` the
        // chain's; else the distance's reciprocal.
        let (end, cos_a) = match (moved, inverse) {
            (None, Some(inverse)) if d2 >= R::EPSILON => {
                // 2·cos α = (l₁² + d² − l₂²)·(1/d)·(1/l₁), halved.
                let twice_cos = (l1_squared + d2 - l2_squared)
                    .times(inverse)
                    .times(self.upper_recip);
                (target, twice_cos.times_unit(R::HALF.to_unit()))
            }
            _ => {
                let (d, dd) = moved.unwrap_or_else(|| (distance(), d2));
                let cos_a = (l1_squared + dd - l2_squared)
                    .times((l1 + l1).times_small(d.max(R::EPSILON)).recip());
                (add(self.root, scale(direction, d)), cos_a)
            }
        };
        let cos_a = if cos_a > R::ONE { R::ONE } else { cos_a };
        let cos_a = if cos_a < -R::ONE { -R::ONE } else { cos_a };
        // The upper bone's direction: the cosine and sine as the lane's unit scalar (`Q15`
        // in fixed point: two 32-bit products each where an `I8F24` product takes four), the
        // sine's square root taken to that precision only.
        let (cos_u, sin_u) = (
            cos_a.to_unit(),
            (R::ONE - cos_a.times_small(cos_a)).unit_root(),
        );
        let upper: Vec3<R> =
            core::array::from_fn(|i| direction[i].times_unit(cos_u) + side[i].times_unit(sin_u));
        let mid = add(self.root, scale(upper, l1));
        // All the way at 1 (the one weight in [0, 1] whose conversion is 1), told from the bits.
        if weight.to_bits() == 1.0f32.to_bits() {
            // The lower bone: `end − mid`, of length l₂.
            let lower = sub(end, mid);
            return Ok(Bent {
                upper,
                lower: scale(lower, self.lower_recip),
                mid,
                end,
            });
        }
        // Part of the way: interpolate, then put the joints back at the bone lengths.
        let w = r(weight);
        let lerp = |a: Vec3<R>, b: Vec3<R>| add(a, scale(sub(b, a), w));
        let mid_dir = unit(sub(lerp(self.mid, mid), self.root)).unwrap_or(direction);
        let mid = add(self.root, scale(mid_dir, l1));
        let end_dir = unit(sub(lerp(self.end, end), mid)).unwrap_or(mid_dir);
        Ok(Bent {
            upper: mid_dir,
            lower: end_dir,
            mid,
            end: add(mid, scale(end_dir, l2)),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::num::Fx;

    #[test]
    fn the_limit_is_the_coordinate_limit_converted() {
        assert_eq!(
            limit::<Fx>(),
            Fx::from_f32(coordinate_limit::<Fx>()).unwrap()
        );
        assert_eq!(limit::<Fx>().to_f32(), 2.0);
        assert_eq!(
            limit::<f32>(),
            f32::from_f32(coordinate_limit::<f32>()).unwrap()
        );
    }
}
