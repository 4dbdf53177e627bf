//! Joint limits on rotations: swing and twist for ball joints (a hip, a shoulder, a neck).
//!
//! A joint's rotation `q` is measured against a reference rotation `ref` (its rest
//! rotation) and a twist axis `a` in the joint's own frame (the bone's direction, towards
//! its child): the offset `o = ref⁻¹·q` splits into `o = swing·twist`, the twist a rotation
//! about `a` (applied first) and the swing a rotation about an axis perpendicular to `a`
//! (it moves the bone off its rest direction). With both on their `w ≥ 0` hemisphere:
//!
//! - the swing angle `θ` (the angle between the bone and its rest direction) has
//!   `swing.w = cos(θ/2)`: the limit `θ ≤ θ_max` is `swing.w ≥ cos(θ_max/2)`;
//! - the twist angle `φ ∈ [−π, π]` about `a` has `twist·a = sin(φ/2)`, increasing in `φ`:
//!   the limit `φ ∈ [φ_min, φ_max]` is `sin(φ/2)` within `[sin(φ_min/2), sin(φ_max/2)]`.
//!
//! A rotation outside is moved to the nearest allowed swing (same swing axis) and twist;
//! one inside is left exactly as it is. No trigonometry at solve time: the limits are kept
//! as half-angle cosines and sines.

use super::error::AnimError;
use super::vector::{cross, dot, long_enough, normalized, scale, sub, unit, Vec3};
use crate::num::Real;
use crate::quat::Quat;

/// Swing and twist limits of a ball joint, radians.
///
/// ```
/// use skin_core::anim::SwingTwist;
/// use skin_core::quat::Quat;
/// // At most 45° off the rest direction (+Y), twist within ±10°.
/// let limit = SwingTwist::new(0.785_398_2, -0.174_532_9, 0.174_532_9).unwrap();
/// let bent = Quat::<f32>::from_f32([0.0, 0.0, 0.707_106_8, 0.707_106_8]).unwrap(); // 90° about Z
/// let held = limit.clamp(Quat::IDENTITY, [0.0, 1.0, 0.0], bent);
/// assert!((held.z - 0.382_683_4).abs() < 1e-6 && (held.w - 0.923_879_5).abs() < 1e-6);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SwingTwist {
    swing: f32,
    twist: (f32, f32),
}

impl SwingTwist {
    /// No limit: any swing, any twist.
    pub const FREE: Self = Self {
        swing: core::f32::consts::PI,
        twist: (-core::f32::consts::PI, core::f32::consts::PI),
    };

    /// A swing of at most `swing` in [0, π] and a twist within `[min, max]`,
    /// `−π ≤ min ≤ max ≤ π`.
    ///
    /// Errors: [`AnimError::Limit`] for a swing outside [0, π] (NaN included), named as the
    /// range `[0, swing]`; [`AnimError::Twist`] for a twist range that is not one.
    pub fn new(swing: f32, min: f32, max: f32) -> Result<Self, AnimError> {
        use core::f32::consts::PI;
        if !(0.0..=PI).contains(&swing) {
            return Err(AnimError::Limit {
                min: 0.0,
                max: swing,
            });
        }
        if !((-PI..=max).contains(&min) && max <= PI) {
            return Err(AnimError::Twist { min, max });
        }
        Ok(Self {
            swing,
            twist: (min, max),
        })
    }

    /// The largest swing, radians.
    pub fn swing(&self) -> f32 {
        self.swing
    }

    /// The twist range, radians.
    pub fn twist(&self) -> (f32, f32) {
        self.twist
    }

    /// The limit in `R`, ready for [`Prepared::clamp`]; a full range (a swing of π, a
    /// twist over [−π, π]) is no limit at all, rather than one that rounding could trip.
    pub(super) fn prepare<R: Real>(&self) -> Prepared<R> {
        use core::f32::consts::PI;
        let r = |v: f32| R::from_f32(v).unwrap_or(R::ZERO);
        let half_sin = |a: f32| r(libm::sinf(a / 2.0));
        let swing =
            (self.swing < PI).then(|| (r(libm::cosf(self.swing / 2.0)), half_sin(self.swing)));
        let twist = (self.twist.0 > -PI || self.twist.1 < PI)
            .then(|| (half_sin(self.twist.0), half_sin(self.twist.1)));
        let square = |v: R| v.times_small(v);
        let (cos, _) = swing.unwrap_or((R::ZERO, R::ZERO));
        let (lo, hi) = twist.unwrap_or((R::ZERO, R::ZERO));
        Prepared {
            swing,
            twist,
            squares: (square(cos + slack()), square(lo), square(hi)),
        }
    }

    /// `q` within the limit, measured from `reference` about the unit twist `axis` (see the
    /// module's description); `q` itself when it is within already.
    pub fn clamp<R: Real>(&self, reference: Quat<R>, axis: Vec3<R>, q: Quat<R>) -> Quat<R> {
        self.prepare().clamp(&Frame::new(reference, axis), q)
    }
}

/// Where a limit is measured from: the reference rotation `r`, the unit twist axis `a`, and
/// what the offset `r⁻¹·q`'s twist part needs of `q`, worked out once for a joint. The
/// offset's real part is `r·q` (a 4-vector dot product) and its vector part along the axis
/// is `t·q` with `t = (r.w·a − a × r.v, −a·r.v)` (the product's vector part
/// `r.w·q.v − q.w·r.v − r.v × q.v` dotted with `a`; `a·(r.v × q.v) = q.v·(a × r.v)`): two
/// dot products where the offset itself is a quaternion product and a third dot product.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Frame<R> {
    reference: Quat<R>,
    axis: Vec3<R>,
    twist: Quat<R>,
}

impl<R: Real> Frame<R> {
    /// The frame of the unit `reference` rotation and unit twist `axis`.
    pub(super) fn new(reference: Quat<R>, axis: Vec3<R>) -> Self {
        let rv = [reference.x, reference.y, reference.z];
        let [x, y, z] = sub(scale(axis, reference.w), cross(axis, rv));
        Self {
            reference,
            axis,
            twist: Quat {
                x,
                y,
                z,
                w: -dot(axis, rv),
            },
        }
    }
}

/// The margin by which [`Prepared::holds`] asks a rotation to be within the limit, in the
/// twist's half-angle sine and the swing's half-angle cosine: `8ε`, `ε` =
/// [`Real::UNIT_DOT_ERROR`] (in fixed point 2⁻⁹ and a step, about 0.004 radians of angle; 0
/// in `f32`). Its test takes the offset's parts from [`Real::unit_dot`], each within `ε` of
/// the exact; the length `n` of the two is then within `√2·ε`, the twist's sine `±along`
/// within `ε`, so a sine `2.5ε` inside `[lo·n, hi·n]` (`|lo|, |hi| ≤ 1`) and an `n` `1.5ε`
/// above the swing's cosine are inside for the exact parts too; the rest of the margin
/// (`5.5ε`, above 2⁻⁹·⁶ in fixed point) keeps the squared comparisons' rounding (a few 2⁻²⁴,
/// against that rest squared, above 2⁻¹⁹·²) from deciding. A real part within the margin
/// of 0 (a turn of nearly π, whose twist's sign the rounding could flip) is left to the full
/// clamp, as is anything within the margin of the limit: the clamp finds it within and
/// leaves it as it is.
fn slack<R: Real>() -> R {
    let twice = R::UNIT_DOT_ERROR + R::UNIT_DOT_ERROR;
    let four = twice + twice;
    four + four
}

/// A [`SwingTwist`] as half-angle cosines and sines in `R`: the swing's `(cos, sin)` and
/// the twist's `(sin min, sin max)`, `None` where unlimited.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Prepared<R> {
    swing: Option<(R, R)>,
    twist: Option<(R, R)>,
    /// The squares of the swing's cosine plus [`slack`] and of the twist's two sines
    /// ([`Prepared::holds`] compares squares: no square root).
    squares: (R, R, R),
}

impl<R: Real> Prepared<R> {
    /// `q` within the limit (see [`SwingTwist::clamp`]).
    pub(super) fn clamp(&self, frame: &Frame<R>, q: Quat<R>) -> Quat<R> {
        self.hold(frame, q).unwrap_or(q)
    }

    /// `q` moved within the limit, or `None` when it is within already (so that a caller
    /// knows the rotation it asked for is the one it has).
    /// The test is inlined into the solve; the clamp, needed only outside the limit, is
    /// [`Prepared::move_within`].
    #[cfg_attr(not(skin_v6m), inline(always))]
    pub(super) fn hold(&self, frame: &Frame<R>, q: Quat<R>) -> Option<Quat<R>> {
        // The twist: the offset's vector part along the axis, with its real part (coarse
        // dot products: one 32-bit product a term in fixed point; the test's margin covers
        // their error).
        let [t, r, q4] = [frame.twist, frame.reference, q].map(|p| [p.x, p.y, p.z, p.w]);
        if self.holds(R::unit_dot(t, q4), R::unit_dot(r, q4)) {
            return None;
        }
        self.move_within(frame, q)
    }

    /// [`Prepared::hold`] of a `q` that its test found outside the limit (or too short an
    /// offset to tell): split, clamped, put together again.
    #[inline(never)]
    fn move_within(&self, frame: &Frame<R>, q: Quat<R>) -> Option<Quat<R>> {
        let (reference, axis) = (frame.reference, frame.axis);
        let offset = reference.conjugate().hamilton(q);
        let along = dot([offset.x, offset.y, offset.z], axis);
        let mut twist = match unit4(along, offset.w) {
            Some((s, w)) => (s, w),
            None => (R::ZERO, R::ONE),
        };
        if twist.1 < R::ZERO {
            twist = (-twist.0, -twist.1);
        }
        let twist_q = |(s, w): (R, R)| {
            let [x, y, z] = scale(axis, s);
            Quat { x, y, z, w }
        };
        let mut swing = offset.hamilton(twist_q(twist).conjugate());
        if swing.w < R::ZERO {
            swing = swing.scale(-R::ONE);
        }
        let mut clamped = false;
        if let Some((lo, hi)) = self.twist {
            if twist.0 < lo || twist.0 > hi {
                let s = if twist.0 < lo { lo } else { hi };
                twist = (s, (R::ONE - s.times_small(s)).fast_sqrt());
                clamped = true;
            }
        }
        if let Some((cos, sin)) = self.swing {
            if swing.w < cos {
                let [x, y, z] = unit([swing.x, swing.y, swing.z])
                    .map(|a| scale(a, sin))
                    .unwrap_or([R::ZERO; 3]);
                swing = Quat { x, y, z, w: cos };
                clamped = true;
            }
        }
        clamped.then(|| normalized(reference.hamilton(swing.hamilton(twist_q(twist)))))
    }
}

impl<R: Real> Prepared<R> {
    /// Whether the offset whose vector part has `along` on the twist axis and whose real
    /// part is `w` (each within [`Real::UNIT_DOT_ERROR`] of the exact) is within the limit
    /// by the margin [`slack`], without splitting it: with `n = √(along² + w²)` the twist is
    /// `σ·(along, w)/n` (`σ` the sign of `w`, for its `w ≥ 0` hemisphere) and the swing's real
    /// part is `n` (`offset·twist⁻¹` has real part `σ·(w² + along²)/n`), so the twist's sine
    /// is within `[lo, hi]` when `σ·along` is within `[lo·n, hi·n]` and the swing within its
    /// limit when `n ≥ cos`: here `σ·along − slack ≥ lo·n`, `σ·along + slack ≤ hi·n` and
    /// `n ≥ cos + slack`. Each is compared squared, by the signs (`cos` is not negative), so
    /// that no square root is taken. An offset too short to split, or whose `w` is within
    /// the margin of 0, is left to the full clamp.
    #[inline(always)]
    fn holds(&self, along: R, w: R) -> bool {
        let slack = slack::<R>();
        let len2 = along.times_small(along) + w.times_small(w);
        if !long_enough(len2) || w.abs() <= slack {
            return false;
        }
        let sine = if w < R::ZERO { -along } else { along };
        let (cos2, lo2, hi2) = self.squares;
        let twist = match self.twist {
            Some((lo, hi)) => {
                // sine − slack ≥ lo·n, and sine + slack ≤ hi·n.
                let (low, high) = (sine - slack, sine + slack);
                let above = if lo > R::ZERO {
                    low > R::ZERO && low.times_small(low) >= lo2.times_small(len2)
                } else {
                    low >= R::ZERO || low.times_small(low) <= lo2.times_small(len2)
                };
                let below = if hi < R::ZERO {
                    high < R::ZERO && high.times_small(high) >= hi2.times_small(len2)
                } else {
                    high <= R::ZERO || high.times_small(high) <= hi2.times_small(len2)
                };
                above && below
            }
            None => true,
        };
        let swing = self.swing.is_none() || len2 >= cos2;
        twist && swing
    }
}

/// `(s, w)` scaled to unit length, or `None` when it is shorter than [`Real::EPSILON`].
fn unit4<R: Real>(s: R, w: R) -> Option<(R, R)> {
    let len2 = s.times_small(s) + w.times_small(w);
    long_enough(len2).then(|| {
        let r = len2.recip_sqrt();
        (s.times(r), w.times(r))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::num::Fx;
    use proptest::prelude::*;

    type Q = [f64; 4];

    fn product(a: Q, b: Q) -> Q {
        let ([ax, ay, az, aw], [bx, by, bz, bw]) = (a, b);
        [
            aw * bx + ax * bw + ay * bz - az * by,
            aw * by - ax * bz + ay * bw + az * bx,
            aw * bz + ax * by - ay * bx + az * bw,
            aw * bw - ax * bx - ay * by - az * bz,
        ]
    }

    fn unit<const N: usize>(v: [f64; N]) -> [f64; N] {
        let n = v.iter().map(|c| c * c).sum::<f64>().sqrt();
        v.map(|c| c / n)
    }

    fn about(axis: [f64; 3], angle: f64) -> Q {
        let (s, c) = (angle / 2.0).sin_cos();
        [axis[0] * s, axis[1] * s, axis[2] * s, c]
    }

    /// The swing angle and the twist's half-angle sine of `q` from `reference` about
    /// `axis`, in `f64` from `R`'s values (the module's definitions).
    fn split<R: Real>(reference: Quat<R>, axis: Vec3<R>, q: Quat<R>) -> (f64, f64) {
        let f = |p: Quat<R>| p.to_f32().map(f64::from);
        let [rx, ry, rz, rw] = f(reference);
        let offset = product([-rx, -ry, -rz, rw], f(q));
        let a = axis.map(|c| f64::from(c.to_f32()));
        let along = offset[0] * a[0] + offset[1] * a[1] + offset[2] * a[2];
        let n = (along * along + offset[3] * offset[3]).sqrt();
        let sine = if offset[3] < 0.0 { -along } else { along } / n;
        (2.0 * n.min(1.0).acos(), sine)
    }

    /// Rotations near a limit's edges (a swing and a twist each within 0.02 of a bound)
    /// that the test keeps as they are are within the limit, to 10⁻⁵ (the inputs' own
    /// rounding): its margin covers its coarse dot products.
    fn kept_rotations_are_within<R: Real>(
        (swing, lo, hi): (f64, f64, f64),
        reference: Q,
        (axis, across): ([f64; 3], [f64; 3]),
        (off_swing, off_twist, upper): (f64, f64, bool),
    ) -> Result<(), TestCaseError> {
        let limit = SwingTwist::new(swing as f32, lo as f32, hi as f32).unwrap();
        let [a0, a1, a2] = axis;
        let side = unit([
            a1 * across[2] - a2 * across[1],
            a2 * across[0] - a0 * across[2],
            a0 * across[1] - a1 * across[0],
        ]);
        let twist = about(axis, if upper { hi } else { lo } + off_twist);
        let q = product(reference, product(about(side, swing + off_swing), twist));
        let to = |p: Q| Quat::<R>::from_f32(p.map(|c| c as f32)).unwrap();
        let a = axis.map(|c| R::from_f32(c as f32).unwrap());
        let (reference, q) = (to(reference), to(q));
        if limit.prepare().hold(&Frame::new(reference, a), q).is_none() {
            let (s, sine) = split(reference, a, q);
            let tol = 1e-5;
            prop_assert!(s <= swing + tol, "swing {s} beyond {swing}");
            let (min, max) = ((lo / 2.0).sin(), (hi / 2.0).sin());
            prop_assert!(
                sine >= min - tol && sine <= max + tol,
                "twist {sine} outside [{min}, {max}]"
            );
        }
        Ok(())
    }

    fn direction() -> impl Strategy<Value = [f64; 3]> {
        proptest::array::uniform3(-1.0f64..1.0)
            .prop_filter("a direction", |d| {
                d.iter().map(|c| c * c).sum::<f64>() > 0.01
            })
            .prop_map(unit)
    }

    fn limits() -> impl Strategy<Value = (f64, f64, f64)> {
        (0.2f64..2.5, -1.5f64..0.5, 0.0f64..1.5).prop_map(|(s, lo, span)| (s, lo, lo + span))
    }

    fn near() -> impl Strategy<Value = (f64, f64, bool)> {
        (-0.02f64..0.02, -0.02f64..0.02, any::<bool>())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        #[test]
        fn fixed_test_keeps_only_rotations_within(
            l in limits(),
            r in proptest::array::uniform4(-1.0f64..1.0).prop_filter("a rotation", |q| q.iter().map(|c| c * c).sum::<f64>() > 0.01),
            axis in direction(),
            across in direction(),
            n in near(),
        ) {
            prop_assume!((axis[0] * across[0] + axis[1] * across[1] + axis[2] * across[2]).abs() < 0.9);
            kept_rotations_are_within::<Fx>(l, unit(r), (axis, across), n)?;
        }

        #[test]
        fn f32_test_keeps_only_rotations_within(
            l in limits(),
            r in proptest::array::uniform4(-1.0f64..1.0).prop_filter("a rotation", |q| q.iter().map(|c| c * c).sum::<f64>() > 0.01),
            axis in direction(),
            across in direction(),
            n in near(),
        ) {
            prop_assume!((axis[0] * across[0] + axis[1] * across[1] + axis[2] * across[2]).abs() < 0.9);
            kept_rotations_are_within::<f32>(l, unit(r), (axis, across), n)?;
        }
    }
}
