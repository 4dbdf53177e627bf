//! Two-bone IK (`skin_core::anim::TwoBone`): properties over random chains, targets, poles
//! and hinge limits, in f32 and fixed point, measured in f64.
//!
//! - bone lengths are preserved;
//! - the hinge limit holds exactly in the sense the solver enforces it: the root–end
//!   distance lies within `[d(max), d(min)]`, `d(θ)² = l₁² + l₂² + 2·l₁·l₂·cos θ` (the
//!   distance is the bend's monotonic image, and better conditioned than the angle near 0);
//! - a reachable target (inside those distances, no softening, full weight) is reached; an
//!   unreachable one is reached as far as the chain allows, along the root–target line;
//! - the mid joint bends towards the pole; weight 0 leaves the chain as it was; soft IK
//!   never overshoots the target or the reach.
//!
//! Tolerances, `E` the chain's extent (at least 1): f32 within 1e-5·E for lengths and
//! 1e-4·E for the end effector. Fixed point (`I8F24`, `u = 2⁻²⁴`, coordinates ≤ 2): the
//! solve is about thirty rounded operations on values ≤ 4, and its directions divide by
//! lengths ≥ 0.1 (the bones and the root–target distances generated), so each result is
//! within 30 · 4 · 10 · u ≈ 2⁻¹⁴; the tests allow 2⁻¹³. The bend plane's second axis is a
//! unit vector on the `Q15` grid (`Real::unit_vector`: components within 2⁻¹⁴ of the
//! direction's, its length within about 2⁻¹⁵ of 1): its direction's error turns the knee
//! about the root–target line, which moves no length and not the end, and its length's
//! error (with the part of the direction's error along that line, to first order at most
//! half of it) moves the mid joint by at most 2⁻¹⁵ of the upper bone (≤ 0.7 here). The
//! upper bone's direction is the root angle's cosine and sine in `Q15` (the cosine by
//! `Real::to_unit`, within 2⁻¹⁶; the sine by `Real::unit_root` of `1 − cos²`, within
//! 1.002·2⁻¹⁵) times the root–target direction and that axis: its error, at most
//! 2⁻¹⁵·√(¼ + 1.002²) < 1.12·2⁻¹⁵ (the two are perpendicular), moves the mid joint by at most
//! 0.79·2⁻¹⁵ here (the upper bone ≤ 0.7), which changes each bone's length by at most that
//! and does not move the end (the target itself where it is reached, else a point on the
//! root–target line). With the 2⁻¹⁴ above: 2⁻¹⁴ + 2⁻¹⁵ + 0.79·2⁻¹⁵ < 2⁻¹³.

use proptest::prelude::*;
use skin_core::anim::{coordinate_limit, AnimError, Hinge, Input, TwoBone};
use skin_core::num::{Fx, Real};

type P = [f64; 3];

fn sub(a: P, b: P) -> P {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}
fn dot(a: P, b: P) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}
fn len(a: P) -> f64 {
    dot(a, a).sqrt()
}
fn add_scaled(a: P, b: P, s: f64) -> P {
    [a[0] + b[0] * s, a[1] + b[1] * s, a[2] + b[2] * s]
}

/// A unit direction.
fn direction() -> impl Strategy<Value = P> {
    proptest::array::uniform3(-1.0f64..1.0)
        .prop_filter("a direction", |d| len(*d) > 0.1)
        .prop_map(|d| d.map(|v| v / len(d)))
}

/// A chain: root, mid, end, with bones of 0.1 to `bone`.
fn chain(root: f64, bone: f64) -> impl Strategy<Value = (P, P, P)> {
    (
        proptest::array::uniform3(-root..root),
        direction(),
        direction(),
        0.1..bone,
        0.1..bone,
    )
        .prop_map(|(r, a, b, l1, l2)| {
            let m = add_scaled(r, a, l1);
            (r, m, add_scaled(m, b, l2))
        })
}

fn hinge() -> impl Strategy<Value = (f32, f32)> {
    (0.0f32..1.5, 0.0f32..1.0)
        .prop_map(|(min, span)| (min, (min + span * 3.0).min(std::f32::consts::PI)))
}

fn f32s(p: P) -> [f32; 3] {
    p.map(|v| v as f32)
}

fn back<R: Real>(p: [R; 3]) -> P {
    p.map(|v| f64::from(v.to_f32()))
}

/// Everything checked of one solve; `tol` for lengths and limits, `reach_tol` for the end.
#[allow(clippy::too_many_arguments)]
fn check<R: Real>(
    (r, m, e): (P, P, P),
    target: P,
    pole: P,
    (min, max): (f32, f32),
    soft: f32,
    tol: f64,
    reach_tol: f64,
) -> Result<(), TestCaseError> {
    // The chain as the core holds it.
    let ik = TwoBone::<R>::new(f32s(r), f32s(m), f32s(e)).unwrap();
    let (r, m, e) = (
        back(R::from_f32s(r)),
        back(R::from_f32s(m)),
        back(R::from_f32s(e)),
    );
    let target = back(R::from_f32s(target));
    let (l1, l2) = (len(sub(m, r)), len(sub(e, m)));
    let hinge = Hinge::new(min, max).unwrap();
    let (mid, end) = ik
        .solve(f32s(target), f32s(pole), 1.0, soft, hinge)
        .unwrap();
    let (mid, end) = (back(mid), back(end));
    prop_assert!(
        (len(sub(mid, r)) - l1).abs() <= tol,
        "upper bone {} vs {l1}",
        len(sub(mid, r))
    );
    prop_assert!(
        (len(sub(end, mid)) - l2).abs() <= tol,
        "lower bone {} vs {l2}",
        len(sub(end, mid))
    );
    let at = |theta: f32| {
        (l1 * l1 + l2 * l2 + 2.0 * l1 * l2 * f64::from(theta).cos())
            .max(0.0)
            .sqrt()
    };
    let (near, far) = (at(max), at(min));
    let d = len(sub(end, r));
    prop_assert!(
        d >= near - tol && d <= far + tol,
        "end at {d}, limits [{near}, {far}]"
    );
    let want = len(sub(target, r));
    if soft >= 1.0 {
        let clamped = want.clamp(near, far);
        let on_line = add_scaled(r, sub(target, r), clamped / want);
        prop_assert!(
            len(sub(end, on_line)) <= reach_tol,
            "end {end:?}, expected {on_line:?}"
        );
        if want > near && want < far {
            prop_assert!(len(sub(end, target)) <= reach_tol);
        }
    } else {
        prop_assert!(d <= want.max(near) + reach_tol && d <= l1 + l2 + tol);
    }
    // Towards the pole: the mid joint's offset from the root–end line has a non-negative
    // component along the pole's.
    let axis = sub(end, r).map(|v| v / d);
    let across = |p: P| {
        let rel = sub(p, r);
        add_scaled(rel, axis, -dot(rel, axis))
    };
    let pole_side = across(pole);
    if len(pole_side) > 0.05 {
        prop_assert!(
            dot(across(mid), pole_side) >= -reach_tol,
            "mid {mid:?} away from pole"
        );
    }
    Ok(())
}

/// Conversion of f64 points through f32 into `R`, as the solver's inputs.
trait FromF32s: Real {
    fn from_f32s(p: P) -> [Self; 3] {
        f32s(p).map(|v| Self::from_f32(v).unwrap())
    }
}
impl<R: Real> FromF32s for R {}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn f32_solves_keep_lengths_limits_and_reach(
        c in chain(1.0, 1.0),
        target in proptest::array::uniform3(-3.0f64..3.0),
        pole in proptest::array::uniform3(-3.0f64..3.0),
        h in hinge(),
        soft in prop_oneof![Just(1.0f32), 0.8f32..1.0],
    ) {
        prop_assume!(len(sub(target, c.0)) > 0.1);
        let extent = 3.0;
        check::<f32>(c, target, pole, h, soft, 1e-5 * extent, 1e-4 * extent)?;
    }

    #[test]
    fn fixed_solves_keep_lengths_limits_and_reach(
        c in chain(0.5, 0.7),
        target in proptest::array::uniform3(-2.0f64..2.0),
        pole in proptest::array::uniform3(-2.0f64..2.0),
        h in hinge(),
        soft in prop_oneof![Just(1.0f32), 0.8f32..1.0],
    ) {
        prop_assume!(len(sub(target, c.0)) > 0.1);
        let bound = 1.0 / f64::from(1u32 << 13);
        check::<Fx>(c, target, pole, h, soft, bound, bound)?;
    }

    /// Weight 0 leaves the chain where it was; soft IK moves the end continuously as the
    /// target passes the softening start.
    #[test]
    fn weight_zero_holds_and_softening_is_continuous(
        c in chain(1.0, 1.0),
        dir in direction(),
    ) {
        let (r, m, e) = c;
        let ik = TwoBone::<f32>::new(f32s(r), f32s(m), f32s(e)).unwrap();
        let (mid, end) = ik.solve(f32s(add_scaled(r, dir, 0.5)), f32s(m), 0.0, 1.0, Hinge::FREE).unwrap();
        prop_assert!(len(sub(back(mid), m)) < 1e-5 && len(sub(back(end), e)) < 1e-5);
        let reach = len(sub(m, r)) + len(sub(e, m));
        let start = 0.9 * reach;
        let end_at = |d: f64| {
            let (_, end) = ik.solve(f32s(add_scaled(r, dir, d)), f32s(m), 1.0, 0.9, Hinge::FREE).unwrap();
            len(sub(back(end), r))
        };
        let (below, above) = (end_at(start - 1e-4), end_at(start + 1e-4));
        prop_assert!((above - below).abs() < 3e-4 && above < reach, "{below} → {above}");
        prop_assert!(end_at(10.0 * reach) < reach);
    }
}

#[test]
fn bad_chains_and_targets_are_typed_errors() {
    let z = [0.0f32; 3];
    let e = TwoBone::<f32>::new(z, z, [0.0, 1.0, 0.0]).unwrap_err();
    assert_eq!(
        e,
        AnimError::ZeroBone {
            bone: 0,
            length: 0.0
        }
    );
    assert_eq!(
        e.to_string(),
        "bone 0 of the IK chain has the length 0, too short to have a direction"
    );
    let e = TwoBone::<Fx>::new(z, [0.0, 1.0, 0.0], [0.0, 3.0, 0.0]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "the IK end has the coordinate 3, which is not finite or beyond ±2"
    );
    let ik = TwoBone::<f32>::new(z, [0.0, 1.0, 0.0], [0.0, 2.0, 0.0]).unwrap();
    let e = ik
        .solve([f32::NAN, 0.0, 0.0], z, 1.0, 1.0, Hinge::FREE)
        .unwrap_err();
    assert!(matches!(e, AnimError::Point { what: "target", value, .. } if value.is_nan()));
    // A point is checked whole (in f32 by the sum of its magnitudes first): the coordinate
    // named is the one at fault, wherever it is, and a point whose magnitudes only sum past
    // the limit is within it.
    let limit = coordinate_limit::<f32>();
    let e = ik
        .solve(z, [0.0, 1.0, f32::INFINITY], 1.0, 1.0, Hinge::FREE)
        .unwrap_err();
    assert_eq!(
        e,
        AnimError::Point {
            what: "pole",
            value: f32::INFINITY,
            limit
        }
    );
    let e = ik
        .solve([0.5, 2.0 * limit, 0.0], z, 1.0, 1.0, Hinge::FREE)
        .unwrap_err();
    assert!(matches!(e, AnimError::Point { what: "target", value, .. } if value == 2.0 * limit));
    let e = TwoBone::<f32>::new(z, [0.0, 1.0, 0.0], [0.0, 1.0, -2.0 * limit]).unwrap_err();
    assert!(matches!(e, AnimError::Point { what: "end", value, .. } if value == -2.0 * limit));
    let far = [0.9 * limit, -0.9 * limit, 0.9 * limit];
    let (_, end) = ik.solve(far, z, 1.0, 1.0, Hinge::FREE).unwrap();
    let d = (0..3).map(|i| end[i] * end[i]).sum::<f32>().sqrt();
    assert!(
        (d - 2.0).abs() < 1e-5,
        "an unreachable target is reached for: {d}"
    );
    let ik = TwoBone::<Fx>::new(z, [0.0, 1.0, 0.0], [1.5, 1.5, 1.5]).unwrap();
    assert!(ik.solve([1.9, -1.9, 1.9], z, 1.0, 1.0, Hinge::FREE).is_ok());
    let e = ik
        .solve([1.9, -2.5, 1.9], z, 1.0, 1.0, Hinge::FREE)
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "the IK target has the coordinate -2.5, which is not finite or beyond ±2"
    );
    let ik = TwoBone::<f32>::new(z, [0.0, 1.0, 0.0], [0.0, 2.0, 0.0]).unwrap();
    let e = ik.solve(z, z, 1.5, 1.0, Hinge::FREE).unwrap_err();
    assert_eq!(
        e,
        AnimError::Weight {
            what: Input::IkWeight,
            index: 0,
            joint: None,
            weight: 1.5
        }
    );
    // Weights and softnesses in [0, 1] (told from their bits), at and just past its ends.
    let ok = |w: f32| ik.solve([0.0, 1.5, 0.5], z, w, 1.0, Hinge::FREE).is_ok();
    let soft_ok = |s: f32| ik.solve([0.0, 1.5, 0.5], z, 1.0, s, Hinge::FREE).is_ok();
    for w in [
        0.0,
        -0.0,
        0.5,
        1.0,
        f32::MIN_POSITIVE,
        1.0 - f32::EPSILON / 2.0,
    ] {
        assert!(ok(w) && soft_ok(w), "{w} is a weight");
    }
    let past = [
        1.0 + f32::EPSILON,
        -f32::MIN_POSITIVE,
        -1e-45,
        f32::NAN,
        f32::INFINITY,
    ];
    for w in past.into_iter().chain([f32::NEG_INFINITY, -1.0]) {
        assert!(!ok(w) && !soft_ok(w), "{w} is not a weight");
    }
    assert!(Hinge::new(1.0, 0.5).is_err());
    assert!(Hinge::new(-0.1, 0.5).is_err());
    assert_eq!(
        Hinge::new(0.0, 4.0).unwrap_err().to_string(),
        "the joint limit [0, 4] radians is not a range within [0, π]"
    );
}
