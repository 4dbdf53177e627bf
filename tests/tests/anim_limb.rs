//! Two-bone IK on a skeleton pose (`skin_core::anim::Limb`) and the swing/twist limit
//! (`SwingTwist`), in f32 and fixed point, against the independent f64 reference
//! (`skin_tests::ik_oracle`) over random rigs (a base joint with a rotation and a uniform
//! scale above a hip–knee–ankle chain with random rotations), targets, poles and limits.
//!
//! - the new pose, through forward kinematics, matches the reference's joint positions;
//! - a reachable target (inside the hinge's distances, limits free) is reached, bone lengths
//!   are kept;
//! - the limits are never violated: the root's swing and twist from its rest rotation, the
//!   mid joint's bend (as the root–end distance it allows).
//!
//! Tolerances, `E` the rig's extent (3): f32 within 1e-5·E of the reference for positions
//! and lengths, 1e-4·E for the end effector, 1e-4 rad for angles. Fixed point (`I8F24`,
//! `u = 2⁻²⁴`, coordinates ≤ 2): the pose is a chain of about a hundred rounded operations
//! on values ≤ 4 (solve, two shortest arcs, the clamp, forward kinematics), directions
//! divide by lengths ≥ 0.1: 100 · 4 · 10 · u ≈ 2⁻¹² (the positions' allowance below); the
//! tests allow 2⁻⁹ rad for angles (an angle's error is a position's over a bone ≥ 0.1 long, …).
//! The limb's vector rotations take the unit quaternion's components in the unit scalar
//! (`Q15`, rounded to within 2⁻¹⁶); the unit vectors it rotates stay in `Q15` throughout
//! (`Real::rotate_unit`: each result within about 2⁻¹³ of the exact rotation, tested in
//! `num::rotation`), and the unit directions it takes into the parent's frame take their
//! components in `Q15` too (each moved by at most √3·2⁻¹⁶ of the frame's scale, ≤ 1.2 here,
//! before it is normalised again): a rotated vector `v` moves by at most about 2⁻¹³·|v|,
//! and only the three that set the two shortest arcs reach the pose, each through a bone
//! ≤ 0.5 long here, and the two frame changes add about 2⁻¹⁵ each: below 2⁻¹² together. The
//! unit vectors the limb normalises (the bone directions its two shortest arcs turn from
//! and to, the bend's side) are on the `Q15` grid (`Real::unit_vector`: components within
//! 2⁻¹⁴, a direction off by at most √3·2⁻¹⁴ ≈ 2⁻¹³·²): each arc's angle off by at most
//! twice that, moving the joints below it by that much of a bone ≤ 0.5, 2⁻¹³·² an arc,
//! 2⁻¹²·² for the two. Each joint's rotation turned by its arc is `Real::fast_turn` (or
//! `Real::fast_turn_in`, the same bits) in fixed point (the arc, its product with the rotation and the normalisation in `Q15`, the
//! result on the `Q15` grid): each component within 2⁻¹³ of the exactly normalised product
//! (tested in `num::rotation`), the rotation's angle off by at most 2·|δq| ≤ 2⁻¹¹, which
//! moves the joints below the root by that much of their distance from it (≤ 1 here: 2⁻¹¹)
//! and the end by that much of the lower bone (2⁻¹²). With the two 2⁻¹² above, about 2⁻⁹·⁵:
//! the tests allow 2⁻⁹ for positions (2⁻¹⁰ before the turns were `Q15`, 2⁻¹¹ before the
//! unit vectors were; the largest error seen over the cases is now about 2⁻¹¹·⁸, was about
//! 2⁻¹³ with 2⁻¹¹).

use proptest::prelude::*;
use skin_core::affine::Affine;
use skin_core::anim::{AnimError, Goal, Hinge, Limb, SwingTwist};
use skin_core::num::{Fx, Real};
use skin_core::skeleton::Skeleton;
use skin_core::transform::Transform;
use skin_tests::anim_oracle::Xf;
use skin_tests::ik_oracle::{self, dot, norm, swing_twist, Limits, V};

const PARENTS: [Option<usize>; 4] = [None, Some(0), Some(1), Some(2)];
const CHAIN: [usize; 3] = [1, 2, 3];

fn sub(a: V, b: V) -> V {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn quat() -> impl Strategy<Value = [f64; 4]> {
    proptest::array::uniform4(-1.0f64..1.0)
        .prop_filter("a rotation", |q| q.iter().map(|v| v * v).sum::<f64>() > 0.1)
        .prop_map(|q| {
            let n = q.iter().map(|v| v * v).sum::<f64>().sqrt();
            q.map(|v| v / n)
        })
}

fn direction() -> impl Strategy<Value = V> {
    proptest::array::uniform3(-1.0f64..1.0)
        .prop_filter("a direction", |d| norm(*d) > 0.1)
        .prop_map(|d| d.map(|v| v / norm(d)))
}

/// A rig: base (offset ≤ `reach`, rotation, uniform scale in `scales`), hip (offset ≤
/// `reach`, rotation), knee and ankle `bones` away along random directions.
fn rig(reach: f64, scales: (f64, f64), bones: (f64, f64)) -> impl Strategy<Value = Vec<Xf>> {
    (
        proptest::array::uniform3(-reach..reach),
        quat(),
        scales.0..scales.1,
        proptest::array::uniform3(-reach..reach),
        proptest::array::uniform3(quat()),
        proptest::array::uniform2((direction(), bones.0..bones.1)),
    )
        .prop_map(|(t0, q0, s, t1, [q1, q2, q3], [(d2, l2), (d3, l3)])| {
            let xf = |t: V, q: [f64; 4], s: f64| Xf { t, q, s: [s; 3] };
            vec![
                xf(t0, q0, s),
                xf(t1, q1, 1.0),
                xf(d2.map(|v| v * l2), q2, 1.0),
                xf(d3.map(|v| v * l3), q3, 1.0),
            ]
        })
}

/// Limits: a hinge range and the root's swing and twist, half the time free.
fn limits() -> impl Strategy<Value = Limits> {
    let pi = std::f64::consts::PI;
    prop_oneof![
        Just(Limits::free()),
        (
            0.0f64..1.0,
            0.5f64..2.0,
            0.2f64..2.5,
            -1.5f64..0.0,
            0.0f64..1.5
        )
            .prop_map(move |(min, span, swing, lo, hi)| Limits {
                bend: (min, (min + span).min(pi)),
                swing,
                twist: (lo, hi),
            }),
    ]
}

/// The rig in `R` as the core holds it, and back in f64 (the reference's input).
fn held<R: Real>(pose: &[Xf]) -> (Vec<Transform<R>>, Vec<Xf>) {
    let f = |v: f64| v as f32;
    let core: Vec<Transform<R>> = pose
        .iter()
        .map(|x| Transform::from_f32(x.t.map(f), x.q.map(f), x.s.map(f)).unwrap())
        .collect();
    let back = core.iter().map(xf).collect();
    (core, back)
}

fn xf<R: Real>(t: &Transform<R>) -> Xf {
    let g = |v: R| f64::from(v.to_f32());
    Xf {
        t: t.translation.map(g),
        q: t.rotation.to_f32().map(f64::from),
        s: t.scale.map(g),
    }
}

/// The skeleton and limb of `rest`; with `moved`, a skeleton whose end joint sits a quarter
/// further out at rest than in the pose solved (the same rotations, the same twist axis), so
/// that the limb takes the bones and their lengths from the pose's world positions rather
/// than from its rest.
fn limb<R: Real>(rest: &[Transform<R>], l: &Limits, moved: bool) -> (Skeleton<R, 4>, Limb<R>) {
    let parents: Vec<Option<u16>> = PARENTS.iter().map(|p| p.map(|p| p as u16)).collect();
    let mut rest = rest.to_vec();
    if moved {
        let quarter = R::from_f32(1.25).unwrap();
        let end = &mut rest[CHAIN[2]].translation;
        *end = end.map(|v| v * quarter);
    }
    let skel = Skeleton::<R, 4>::new(&parents, &rest).unwrap();
    let hinge = Hinge::new(l.bend.0 as f32, l.bend.1 as f32).unwrap();
    let swing = SwingTwist::new(l.swing as f32, l.twist.0 as f32, l.twist.1 as f32).unwrap();
    let limb = Limb::new(&skel, CHAIN, hinge, Some(swing)).unwrap();
    (skel, limb)
}

/// Everything checked of one solve, `tol` for positions and lengths, `reach` for the end
/// effector, `angle` for the limits in radians.
fn check<R: Real>(
    pose: &[Xf],
    target: V,
    pole: V,
    l: &Limits,
    moved: bool,
    (tol, reach, angle): (f64, f64, f64),
) -> Result<(), TestCaseError> {
    let (core, pose) = held::<R>(pose);
    let (skel, limb) = limb(&core, l, moved);
    let before = ik_oracle::world(&PARENTS, &pose);
    let at = |w: &[(ik_oracle::M, V)], j: usize| w[CHAIN[j]].1;
    let root = at(&before, 0);
    // Well-posed only: a target off the root, a pole off the root–target line.
    let to_target = sub(target, root);
    prop_assume!(norm(to_target) > 0.2);
    let rel = sub(pole, root);
    let off = sub(
        rel,
        to_target.map(|v| v * dot(rel, to_target) / dot(to_target, to_target)),
    );
    prop_assume!(norm(off) > 0.2);

    let want = ik_oracle::limb(&PARENTS, &pose, &pose, CHAIN, target, pole, l);
    // Away from the swing/twist split's discontinuities (a twist of ±π, a swing of π),
    // judged on the root's rotation before its limit.
    let unheld = Limits {
        bend: l.bend,
        ..Limits::free()
    };
    let turned = ik_oracle::limb(&PARENTS, &pose, &pose, CHAIN, target, pole, &unheld);
    let (swing, _, twist) = swing_twist(root_offset(&pose, &turned), rest_axis(&pose));
    let pi = std::f64::consts::PI;
    prop_assume!(twist.abs() < pi - 0.05 && swing < pi - 0.05);
    // Away from the straight and folded solve, where the mid joint's position is
    // ill-conditioned (`sin α = √(1 − cos² α)` near `cos α = ±1`).
    let solved = ik_oracle::world(&PARENTS, &turned);
    let (upper, lower) = (
        sub(at(&solved, 1), at(&solved, 0)),
        sub(at(&solved, 2), at(&solved, 1)),
    );
    let bend = (dot(upper, lower) / (norm(upper) * norm(lower)))
        .clamp(-1.0, 1.0)
        .acos();
    prop_assume!(bend > 0.05 && bend < pi - 0.05);
    let expected = ik_oracle::world(&PARENTS, &want);

    let mut solved = core.clone();
    let mut world = [Affine::IDENTITY; 4];
    skel.world(&solved, &mut world).unwrap();
    let f = |p: V| p.map(|v| v as f32);
    let goal = Goal {
        target: f(target),
        pole: f(pole),
        weight: 1.0,
        soft: 1.0,
    };
    limb.apply(&skel, &mut solved, &world, goal).unwrap();
    let got_pose: Vec<Xf> = solved.iter().map(xf).collect();
    let got = ik_oracle::world(&PARENTS, &got_pose);
    for j in 1..3 {
        let e = norm(sub(at(&got, j), at(&expected, j)));
        prop_assert!(
            e <= tol,
            "joint {j}: {:?} vs reference {:?}",
            at(&got, j),
            at(&expected, j)
        );
    }
    // Bone lengths.
    for j in 0..2 {
        let (a, b) = (
            norm(sub(at(&got, j + 1), at(&got, j))),
            norm(sub(at(&before, j + 1), at(&before, j))),
        );
        prop_assert!((a - b).abs() <= tol, "bone {j}: {a} vs {b}");
    }
    // The limits: the root's swing and twist, the bend.
    let (swing, _, twist) = swing_twist(root_offset(&pose, &got_pose), rest_axis(&pose));
    prop_assert!(swing <= l.swing + angle, "swing {swing} > {}", l.swing);
    prop_assert!(
        twist >= l.twist.0 - angle && twist <= l.twist.1 + angle,
        "twist {twist} outside {:?}",
        l.twist
    );
    let (l1, l2) = (
        norm(sub(at(&before, 1), root)),
        norm(sub(at(&before, 2), at(&before, 1))),
    );
    let dist = |bend: f64| (l1 * l1 + l2 * l2 + 2.0 * l1 * l2 * bend.cos()).sqrt();
    let d = norm(sub(at(&got, 2), root));
    prop_assert!(
        d >= dist(l.bend.1) - tol && d <= dist(l.bend.0) + tol,
        "bend distance {d}"
    );
    // A reachable target with free limits is reached.
    let free = l.swing >= std::f64::consts::PI && l.twist == Limits::free().twist;
    if free && norm(to_target) < dist(l.bend.0) && norm(to_target) > dist(l.bend.1) {
        let e = norm(sub(at(&got, 2), target));
        prop_assert!(e <= reach, "end {:?} misses {target:?} by {e}", at(&got, 2));
    }
    Ok(())
}

/// The root's rotation relative to its rest rotation.
fn root_offset(rest: &[Xf], pose: &[Xf]) -> [f64; 4] {
    let r = rest[CHAIN[0]].q;
    skin_tests::anim_oracle::qmul([-r[0], -r[1], -r[2], r[3]], pose[CHAIN[0]].q)
}

/// The root's twist axis: towards the mid joint at rest.
fn rest_axis(rest: &[Xf]) -> V {
    let t = rest[CHAIN[1]].t;
    t.map(|v| v / norm(t))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    #[test]
    fn f32_limbs_match_the_reference_and_hold_their_limits(
        pose in rig(0.5, (0.6, 1.4), (0.2, 0.8)),
        target in proptest::array::uniform3(-2.5f64..2.5),
        pole in proptest::array::uniform3(-2.5f64..2.5),
        l in limits(),
        moved in any::<bool>(),
    ) {
        let extent = 3.0;
        check::<f32>(&pose, target, pole, &l, moved, (1e-5 * extent, 1e-4 * extent, 1e-4))?;
    }

    #[test]
    fn fixed_limbs_match_the_reference_and_hold_their_limits(
        pose in rig(0.3, (0.8, 1.2), (0.2, 0.5)),
        target in proptest::array::uniform3(-1.5f64..1.5),
        pole in proptest::array::uniform3(-1.5f64..1.5),
        l in limits(),
        moved in any::<bool>(),
    ) {
        let bound = 1.0 / f64::from(1u32 << 9);
        check::<Fx>(&pose, target, pole, &l, moved, (bound, bound, 1.0 / 512.0))?;
    }
}

#[test]
fn chains_that_are_not_parent_child_are_typed_errors() {
    let up = Transform::<f32>::from_f32([0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 1.0], [1.0; 3]).unwrap();
    let skel = Skeleton::<f32, 4>::new(&[None, Some(0), Some(0), Some(2)], &[up; 4]).unwrap();
    let e = Limb::new(&skel, [0, 1, 3], Hinge::FREE, None).unwrap_err();
    assert_eq!(
        e,
        AnimError::NotChild {
            parent: 1,
            child: 3,
            actual: Some(2)
        }
    );
    assert_eq!(
        e.to_string(),
        "joint 3 is the child of joint 2, not of joint 1: the chain is not parent–child"
    );
    let e = Limb::new(&skel, [3, 0, 1], Hinge::FREE, None).unwrap_err();
    assert_eq!(
        e.to_string(),
        "joint 0 is a root, not the child of joint 3: the chain is not parent–child"
    );
    let e = Limb::new(&skel, [0, 1, 9], Hinge::FREE, None).unwrap_err();
    assert_eq!(
        e.to_string(),
        "joint 9 does not exist: the skeleton has 4 joints"
    );
    let e = Limb::ending_at(&skel, 1, Hinge::FREE, None).unwrap_err();
    assert_eq!(
        e.to_string(),
        "joint 1 has no grandparent: a two-bone chain ending there needs two joints above it"
    );
    assert_eq!(
        Limb::ending_at(&skel, 3, Hinge::FREE, None)
            .unwrap()
            .joints(),
        [0, 2, 3]
    );
}

#[test]
fn zero_length_bones_bad_limits_and_nan_targets_are_typed_errors() {
    let at =
        |y: f32| Transform::<f32>::from_f32([0.0, y, 0.0], [0.0, 0.0, 0.0, 1.0], [1.0; 3]).unwrap();
    let rest = [at(0.0), at(0.0), at(1.0)];
    let skel = Skeleton::<f32, 3>::new(&[None, Some(0), Some(1)], &rest).unwrap();
    let swing = SwingTwist::new(1.0, -0.5, 0.5).unwrap();
    assert_eq!(
        Limb::new(&skel, [0, 1, 2], Hinge::FREE, Some(swing))
            .unwrap_err()
            .to_string(),
        "bone 0 of the IK chain has the length 0, too short to have a direction"
    );
    let limb = Limb::new(&skel, [0, 1, 2], Hinge::FREE, None).unwrap();
    let (mut pose, mut world) = (rest, [Affine::IDENTITY; 3]);
    skel.world(&pose, &mut world).unwrap();
    let goal = Goal {
        target: [0.0, 1.0, 0.0],
        pole: [0.0, 0.0, 1.0],
        weight: 1.0,
        soft: 1.0,
    };
    assert_eq!(
        limb.apply(&skel, &mut pose, &world, goal)
            .unwrap_err()
            .to_string(),
        "bone 0 of the IK chain has the length 0, too short to have a direction"
    );
    let rest = [at(0.0), at(1.0), at(1.0)];
    let skel = Skeleton::<f32, 3>::new(&[None, Some(0), Some(1)], &rest).unwrap();
    let limb = Limb::new(&skel, [0, 1, 2], Hinge::FREE, Some(swing)).unwrap();
    let (mut pose, mut world) = (rest, [Affine::IDENTITY; 3]);
    skel.world(&pose, &mut world).unwrap();
    let nan = Goal {
        target: [f32::NAN, 0.0, 0.0],
        ..goal
    };
    let e = limb.apply(&skel, &mut pose, &world, nan).unwrap_err();
    assert!(matches!(e, AnimError::Point { what: "target", value, .. } if value.is_nan()));
    let heavy = Goal {
        weight: 1.5,
        ..goal
    };
    assert_eq!(
        limb.apply(&skel, &mut pose, &world, heavy)
            .unwrap_err()
            .to_string(),
        "IK weight 0 has the weight 1.5, outside [0, 1]"
    );
    assert_eq!(pose, rest, "a refused goal leaves the pose as it was");
    assert_eq!(
        limb.apply(&skel, &mut pose[..2], &world, goal)
            .unwrap_err()
            .to_string(),
        "output pose 0 has 2 joints, but the skeleton has 3"
    );
    assert_eq!(
        SwingTwist::new(1.0, 0.5, -0.5).unwrap_err().to_string(),
        "the twist limit [0.5, -0.5] radians is not a range within [−π, π]"
    );
    assert_eq!(
        SwingTwist::new(f32::NAN, 0.0, 0.0).unwrap_err().to_string(),
        "the joint limit [0, NaN] radians is not a range within [0, π]"
    );
}

/// Fixed point refuses a rig whose world positions leave its coordinate range, by name.
#[test]
fn fixed_point_refuses_far_joints() {
    let at =
        |y: f32| Transform::<Fx>::from_f32([0.0, y, 0.0], [0.0, 0.0, 0.0, 1.0], [1.0; 3]).unwrap();
    let rest = [at(1.5), at(1.0), at(1.0)];
    let skel = Skeleton::<Fx, 3>::new(&[None, Some(0), Some(1)], &rest).unwrap();
    let limb = Limb::new(&skel, [0, 1, 2], Hinge::FREE, None).unwrap();
    let (mut pose, mut world) = (rest, [Affine::IDENTITY; 3]);
    skel.world(&pose, &mut world).unwrap();
    let goal = Goal {
        target: [0.0, 1.0, 0.0],
        pole: [0.0, 0.0, 1.0],
        weight: 1.0,
        soft: 1.0,
    };
    assert_eq!(
        limb.apply(&skel, &mut pose, &world, goal)
            .unwrap_err()
            .to_string(),
        "the IK mid has the coordinate 2.5, which is not finite or beyond ±2"
    );
}
