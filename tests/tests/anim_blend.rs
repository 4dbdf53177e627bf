//! The animation layer's blend against the independent f64 oracle (`skin_tests::anim_oracle`),
//! in f32 and in fixed point, and its typed errors.
//!
//! Accuracy: `f32` within 1e-5 of the extent (the largest translation magnitude, at least 1).
//! Fixed point (`I8F24`, step `u = 2⁻²⁴`), with `K` contributions (layers and the rest pose)
//! and `A` additive layers, per component:
//!
//! - weights: each `wᵢ·mᵢ` rounds once (≤ u), so the total is off by ≤ K·u; its reciprocal
//!   (≤ 1/τ = 10) by ≤ 10²·K·u + u; each normalised weight `nᵢ = wᵢ·mᵢ·inv` by
//!   ≤ wᵢ·(100·K·u + u) + 2u, whose sum over the layers is ≤ 10·K·u + 3K·u (Σ wᵢ ≤ 1/inv);
//!   each is then narrowed to the unit scalar (`Real::Unit`, 15 fractional bits, rounded
//!   to nearest: ≤ 2⁻¹⁶ = 256u more each, 256·K·u over the contributions), and each product
//!   with it is exact, rounded down once;
//! - a weighted sum of values of magnitude ≤ E: ≤ E·(13 + 256)·K·u plus one rounding per
//!   product and sum (2K·u): translations and scales within `((13 + 256)·E + 2)·K·u`;
//! - rotations: the same for unit components (`(15 + 256)·K·u`), divided by the sum's
//!   length, which hemisphere alignment keeps ≥ the largest normalised weight ≥ 1/K, plus
//!   the normalisation's own rounding (the reciprocal square root within u plus 2⁻²⁶ of
//!   itself, at most √K here, and four products: below 4u): `((15 + 256)·K² + 4)·u`;
//! - each additive layer: the delta (a quaternion product: 4 roundings per component), its
//!   interpolation and normalisation (≤ 8u, the interpolated length is ≥ 1/√2), the product
//!   onto the pose (4u): 16u on the rotation and the final normalisation 4u; translation and
//!   scale `(t − ref)·v`: 1u each.
//!
//! The bound is checked where no hemisphere decision is within 10⁻³ of a tie (the sign of a
//! dot product near 0 may differ between precisions, and with it the blend). Fixed point
//! decides from a coarse dot product (`Real::unit_dot`: within 4·2⁻¹⁴ for the sum's and the
//! layer's lengths ≤ 1) of a running sum within 256·K·u of the oracle's: both below 10⁻³.

use proptest::prelude::*;
use skin_core::anim::{AnimError, Blend, Crossfade, Input, Phase};
use skin_core::num::{Fx, Real};
use skin_core::transform::Transform;
use skin_tests::anim_oracle::{self, AdditiveLayer, Layer, Pose, Xf};

const LAYERS: usize = 4;
const U: f64 = 1.0 / (1u64 << 24) as f64;

/// A random transform with translations within ±`extent`.
fn xf(extent: f64) -> impl Strategy<Value = Xf> {
    (
        proptest::array::uniform3(-extent..extent),
        proptest::array::uniform4(-1.0f64..1.0),
        proptest::array::uniform3(0.5f64..2.0),
    )
        .prop_filter("a rotation", |(_, q, _)| {
            q.iter().map(|v| v * v).sum::<f64>() > 0.01
        })
        .prop_map(|(t, q, s)| {
            let n = q.iter().map(|v| v * v).sum::<f64>().sqrt();
            Xf {
                t,
                q: q.map(|v| v / n),
                s,
            }
        })
}

fn pose(joints: usize, extent: f64) -> impl Strategy<Value = Pose> {
    proptest::collection::vec(xf(extent), joints)
}

/// A mask: none, or one weight per joint, some exactly 0 or 1.
fn mask(joints: usize) -> impl Strategy<Value = Option<Vec<f64>>> {
    let weight = prop_oneof![Just(0.0), Just(1.0), 0.0f64..1.0];
    proptest::option::of(proptest::collection::vec(weight, joints))
}

/// A weight in [0, 1], sometimes 0 (to reach the rest-pose fallback).
fn weight() -> impl Strategy<Value = f64> {
    prop_oneof![Just(0.0), Just(1.0), 0.0f64..0.05, 0.0f64..1.0]
}

/// Everything a blend takes: rest pose, layers, additive layers.
fn case(extent: f64) -> impl Strategy<Value = (Pose, Vec<Layer>, Vec<AdditiveLayer>)> {
    (1usize..10).prop_flat_map(move |j| {
        let layer = (pose(j, extent), weight(), mask(j));
        let additive = (
            pose(j, extent / 2.0),
            pose(j, extent / 2.0),
            weight(),
            mask(j),
        );
        (
            pose(j, extent),
            proptest::collection::vec(layer, 0..=LAYERS),
            proptest::collection::vec(additive, 0..=2),
        )
    })
}

/// `x` in `R` (rounded through f32).
fn to_core<R: Real>(x: &Xf) -> Transform<R> {
    let f = |v: [f64; 3]| v.map(|c| c as f32);
    Transform::from_f32(f(x.t), x.q.map(|c| c as f32), f(x.s)).unwrap()
}

/// `x` back in `f64`, exactly.
fn from_core<R: Real>(x: &Transform<R>) -> Xf {
    let f = |v: R| f64::from(v.to_f32());
    Xf {
        t: x.translation.map(f),
        q: [x.rotation.x, x.rotation.y, x.rotation.z, x.rotation.w].map(f),
        s: x.scale.map(f),
    }
}

/// The oracle's inputs as the core holds them (so that input rounding is not counted).
fn rounded<R: Real>(p: &Pose) -> Pose {
    p.iter().map(|x| from_core(&to_core::<R>(x))).collect()
}

fn rounded_mask<R: Real>(m: &Option<Vec<f64>>) -> Option<Vec<f64>> {
    m.as_ref().map(|m| {
        m.iter()
            .map(|&v| f64::from(R::from_f32(v as f32).unwrap().to_f32()))
            .collect()
    })
}

fn rounded_weight<R: Real>(w: f64) -> f64 {
    f64::from(R::from_f32(w as f32).unwrap().to_f32())
}

/// The core's blend of the case, and the oracle's of the same (rounded) inputs.
fn both<R: Real>(
    rest: &Pose,
    layers: &[Layer],
    additive: &[AdditiveLayer],
) -> (Pose, Pose, Vec<Layer>) {
    let rest = rounded::<R>(rest);
    let layers: Vec<Layer> = layers
        .iter()
        .map(|(p, w, m)| {
            (
                rounded::<R>(p),
                rounded_weight::<R>(*w),
                rounded_mask::<R>(m),
            )
        })
        .collect();
    let additive: Vec<AdditiveLayer> = additive
        .iter()
        .map(|(p, r, w, m)| {
            let (p, r) = (rounded::<R>(p), rounded::<R>(r));
            (p, r, rounded_weight::<R>(*w), rounded_mask::<R>(m))
        })
        .collect();
    let core_pose = |p: &Pose| -> Vec<Transform<R>> { p.iter().map(to_core).collect() };
    let core_mask = |m: &Option<Vec<f64>>| -> Option<Vec<R>> {
        m.as_ref()
            .map(|m| m.iter().map(|&v| R::from_f32(v as f32).unwrap()).collect())
    };
    let core_rest = core_pose(&rest);
    let held: Vec<_> = layers
        .iter()
        .map(|(p, w, m)| (core_pose(p), *w as f32, core_mask(m)))
        .collect();
    let held_add: Vec<_> = additive
        .iter()
        .map(|(p, r, w, m)| (core_pose(p), core_pose(r), *w as f32, core_mask(m)))
        .collect();
    let mut blend = Blend::<R, LAYERS>::new(&core_rest).unwrap();
    for (p, w, m) in &held {
        blend.layer(p, *w, m.as_deref()).unwrap();
    }
    for (p, r, w, m) in &held_add {
        blend.additive(p, r, *w, m.as_deref()).unwrap();
    }
    let mut out = core_rest.clone();
    blend.apply(&mut out).unwrap();
    let want = anim_oracle::blend(&rest, &layers, &additive);
    (out.iter().map(from_core).collect(), want, layers)
}

fn worst(a: &[f64], b: &[f64]) -> f64 {
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f64::max)
}

/// Per joint: (translation and scale error, rotation error), where every hemisphere
/// decision is clear of a tie.
fn errors(rest: &Pose, layers: &[Layer], got: &Pose, want: &Pose) -> Vec<(f64, f64)> {
    (0..rest.len())
        .filter(|&j| anim_oracle::alignment_margin(rest, layers, j) > 1e-3)
        .map(|j| {
            let (g, w) = (got[j], want[j]);
            let ts = worst(&g.t, &w.t).max(worst(&g.s, &w.s));
            (ts, worst(&g.q, &w.q))
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn f32_blend_matches_the_oracle(extent in prop_oneof![Just(1.0), Just(10.0)], c in case(10.0)) {
        let (rest, layers, additive) = c;
        let scale = |p: &Pose| -> Pose {
            p.iter().map(|x| Xf { t: x.t.map(|v| v * extent / 10.0), ..*x }).collect()
        };
        let rest = scale(&rest);
        let layers: Vec<Layer> = layers.iter().map(|(p, w, m)| (scale(p), *w, m.clone())).collect();
        let additive: Vec<AdditiveLayer> =
            additive.iter().map(|(p, r, w, m)| (scale(p), scale(r), *w, m.clone())).collect();
        let (got, want, layers) = both::<f32>(&rest, &layers, &additive);
        let rest = rounded::<f32>(&rest);
        let extent = f64::max(1.0, extent);
        for (ts, q) in errors(&rest, &layers, &got, &want) {
            prop_assert!(ts <= 1e-5 * extent, "translation/scale off by {ts:e}");
            prop_assert!(q <= 1e-5, "rotation off by {q:e}");
        }
    }

    #[test]
    fn fixed_blend_within_the_derived_bound(c in case(8.0)) {
        let (rest, layers, additive) = c;
        let (got, want, layers) = both::<Fx>(&rest, &layers, &additive);
        let rest = rounded::<Fx>(&rest);
        let k = (layers.len() + 1) as f64;
        let a = additive.len() as f64;
        let extent = 8.0 + 2.0 * 4.0; // translations and scales, additive differences included
        let ts_bound = (((13.0 + 256.0) * extent + 2.0) * k + a) * U;
        let q_bound = ((15.0 + 256.0) * k * k + 4.0 + 20.0 * a) * U;
        for (ts, q) in errors(&rest, &layers, &got, &want) {
            prop_assert!(ts <= ts_bound, "translation/scale off by {} steps (bound {})", ts / U, ts_bound / U);
            prop_assert!(q <= q_bound, "rotation off by {} steps (bound {})", q / U, q_bound / U);
        }
    }
}

#[test]
fn bad_inputs_are_typed_errors() {
    let rest = [Transform::<f32>::IDENTITY; 3];
    let short = [Transform::<f32>::IDENTITY; 2];
    let mask = [1.0, 2.0, 0.0];
    let other_skeleton = [1.0f32; 4];
    let mut nan = rest;
    nan[2].translation[1] = f32::NAN;
    let mut blend = Blend::<f32, 1>::new(&rest).unwrap();
    let weight = |w: f32| AnimError::Weight {
        what: Input::Layer,
        index: 0,
        joint: None,
        weight: w,
    };
    assert_eq!(blend.layer(&rest, 1.5, None).unwrap_err(), weight(1.5));
    assert_eq!(blend.layer(&rest, -0.25, None).unwrap_err(), weight(-0.25));
    assert!(matches!(
        blend.layer(&rest, f32::NAN, None),
        Err(AnimError::Weight { weight, .. }) if weight.is_nan()
    ));
    let e = blend.layer(&rest, 1.0, Some(&mask)).unwrap_err();
    assert_eq!(
        e,
        AnimError::Weight {
            what: Input::Layer,
            index: 0,
            joint: Some(1),
            weight: 2.0
        }
    );
    assert_eq!(
        e.to_string(),
        "blend layer 0 gives joint 1 the weight 2, outside [0, 1]"
    );
    let e = blend.layer(&short, 1.0, None).unwrap_err();
    assert_eq!(
        e.to_string(),
        "blend layer 0 has 2 joints, but the skeleton has 3"
    );
    let e = blend.layer(&rest, 1.0, Some(&other_skeleton)).unwrap_err();
    assert_eq!(
        e,
        AnimError::Joints {
            what: Input::Mask,
            index: 0,
            actual: 4,
            expected: 3
        }
    );
    let e = blend.layer(&nan, 1.0, None).unwrap_err();
    assert_eq!(
        e.to_string(),
        "blend layer 0: the transform of joint 2 is not finite or out of range for f32"
    );
    blend.layer(&rest, 1.0, None).unwrap();
    let e = blend.layer(&rest, 1.0, None).unwrap_err();
    assert_eq!(
        e.to_string(),
        "more than 1 of blend layers (the blend's capacity)"
    );
    let mut out = short;
    assert!(matches!(
        blend.apply(&mut out),
        Err(AnimError::Joints {
            what: Input::Output,
            actual: 2,
            expected: 3,
            ..
        })
    ));
}

/// An additive layer that carries a fixed-point translation beyond the format's limit is an
/// error, not a wrapped value.
#[test]
fn additive_overflow_is_reported() {
    let f =
        |x: f32| Transform::<Fx>::from_f32([x, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0], [1.0; 3]).unwrap();
    let rest = [f(60.0)];
    let (pose, reference) = ([f(40.0)], [f(10.0)]);
    let mut blend = Blend::<Fx, 2>::new(&rest).unwrap();
    blend.layer(&rest, 1.0, None).unwrap();
    blend.additive(&pose, &reference, 1.0, None).unwrap();
    let mut out = rest;
    let e = blend.apply(&mut out).unwrap_err();
    assert_eq!(
        e,
        AnimError::Range {
            index: 0,
            joint: 0,
            limit: 64.0
        }
    );
    assert_eq!(
        e.to_string(),
        "additive layer 0 moves joint 0's translation or scale beyond ±64"
    );
    // Half the difference stays within range: 60 + 15 is not, 60 − 15 is.
    let mut blend = Blend::<Fx, 2>::new(&rest).unwrap();
    blend.additive(&reference, &pose, 0.5, None).unwrap();
    blend.apply(&mut out).unwrap();
    assert_eq!(out[0].translation[0].to_f32(), 45.0);
}

/// No layer, or layers whose weight vanishes on a joint: the rest pose there.
#[test]
fn rest_pose_where_weights_vanish() {
    let rest = [
        Transform::<f32>::from_f32([0.0, 1.0, 0.0], [0.0, 0.6, 0.0, 0.8], [1.0; 3]).unwrap(),
        Transform::from_f32([0.0, 2.0, 0.0], [0.0, 0.0, 0.0, 1.0], [2.0; 3]).unwrap(),
    ];
    let moved = [Transform::<f32>::from_f32([5.0; 3], [1.0, 0.0, 0.0, 0.0], [3.0; 3]).unwrap(); 2];
    let legs = [1.0, 0.0];
    let mut blend = Blend::<f32, 2>::new(&rest).unwrap();
    let mut out = [Transform::IDENTITY; 2];
    blend.apply(&mut out).unwrap();
    assert_eq!(out, rest);
    blend.layer(&moved, 1.0, Some(&legs)).unwrap();
    blend.apply(&mut out).unwrap();
    assert_eq!(out[0], moved[0]);
    assert_eq!(out[1], rest[1]);
}

#[test]
fn crossfade_and_phase() {
    let fade = Crossfade::new(2.0, 4.0).unwrap();
    for (t, w) in [
        (0.0, 0.0),
        (2.0, 0.0),
        (3.0, 0.25),
        (5.0, 0.75),
        (6.0, 1.0),
        (60.0, 1.0),
    ] {
        assert_eq!(fade.weight(t), w, "at {t}");
    }
    assert_eq!(Crossfade::new(0.0, 0.0).unwrap().weight(0.001), 1.0);
    assert_eq!(
        Crossfade::new(0.0, -1.0).unwrap_err().to_string(),
        "crossfade duration -1 is not a finite, non-negative number of seconds"
    );
    // A 1.2 s walk at weight 0.25 and a 0.8 s run at 0.75: a 0.9 s cycle; after 0.45 s both
    // clips are half-way through their own cycles, and after 1.35 s half-way again.
    let cycle = Phase::cycle(&[(1.2, 0.25), (0.8, 0.75)]).unwrap();
    assert!((cycle - 0.9).abs() < 1e-6);
    let mut phase = Phase::default();
    phase.advance(0.45, cycle).unwrap();
    assert!((phase.time(1.2) - 0.6).abs() < 1e-6 && (phase.time(0.8) - 0.4).abs() < 1e-6);
    phase.advance(0.9, cycle).unwrap();
    assert!((phase.value() - 0.5).abs() < 1e-6);
    assert!(Phase::cycle(&[(0.0, 1.0)]).is_err());
    assert!(Phase::cycle(&[(1.0, f32::NAN)]).is_err());
    assert!(phase.advance(-1.0, cycle).is_err());
    assert_eq!(Phase::new(-0.25).unwrap().value(), 0.75);
}
