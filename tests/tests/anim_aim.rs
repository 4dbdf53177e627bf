//! Look-at (`skin_core::anim::Aim`) over random neck–head rigs, axes, targets, up vectors
//! and limits, in f32 and fixed point, measured in f64 through an independent forward
//! kinematics (`skin_tests::ik_oracle::world`):
//!
//! - without limits the forward axis points at the target and the up axis lies in the
//!   plane of the forward axis and the up vector, on the up vector's side;
//! - the swing and twist limits are never violated (from the rest rotation, twist about the
//!   forward axis), and a swing held at its limit still turns towards the target;
//! - weight 0 leaves the pose as it was; bad input is a typed error.
//!
//! Tolerances: f32 1e-4 (directions, as sines of angles); fixed point (`I8F24`,
//! coordinates ≤ 2, directions divided by distances ≥ 0.3) 2⁻¹⁰. The directions taken into
//! the parent's frame and the forward axis rotated by the joint go through the unit scalar
//! (`Q15`: components within 2⁻¹⁶), which moves a direction by at most about 2⁻¹³ (a
//! rotation, quadratic in the quaternion's components), and the unit vectors it normalises
//! are on the `Q15` grid (`Real::unit_vector`: a direction off by at most √3·2⁻¹⁴ ≈ 2⁻¹³·²,
//! a few of them setting the aimed direction) — within the 2⁻¹⁰.

use proptest::prelude::*;
use skin_core::affine::Affine;
use skin_core::anim::{Aim, AnimError, SwingTwist};
use skin_core::num::{Fx, Real};
use skin_core::skeleton::Skeleton;
use skin_core::transform::Transform;
use skin_tests::anim_oracle::{qmul, Xf};
use skin_tests::ik_oracle::{dot, norm, rotation, swing_twist, world, V};

const PARENTS: [Option<usize>; 2] = [None, Some(0)];

fn sub(a: V, b: V) -> V {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}
fn cross(a: V, b: V) -> V {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}
fn unit(a: V) -> V {
    a.map(|v| v / norm(a))
}
fn apply(m: &[[f64; 3]; 3], v: V) -> V {
    m.map(|r| dot(r, v))
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
        .prop_map(unit)
}

/// Neck (offset, rotation, uniform scale) and head (offset, rest rotation).
fn rig(reach: f64) -> impl Strategy<Value = Vec<Xf>> {
    (
        proptest::array::uniform3(-reach..reach),
        quat(),
        0.7f64..1.3,
        proptest::array::uniform3(-reach..reach),
        quat(),
    )
        .prop_map(|(t0, q0, s, t1, q1)| {
            vec![
                Xf {
                    t: t0,
                    q: q0,
                    s: [s; 3],
                },
                Xf {
                    t: t1,
                    q: q1,
                    s: [1.0; 3],
                },
            ]
        })
}

/// The forward axis and an up axis across it.
fn axes() -> impl Strategy<Value = (V, V)> {
    (direction(), direction()).prop_filter("axes apart", |(f, u)| norm(cross(*f, *u)) > 0.3)
}

fn xf<R: Real>(t: &Transform<R>) -> Xf {
    let g = |v: R| f64::from(v.to_f32());
    Xf {
        t: t.translation.map(g),
        q: t.rotation.to_f32().map(f64::from),
        s: t.scale.map(g),
    }
}

/// One aim: the pose before (as the core holds it) and after, in f64.
#[allow(clippy::type_complexity)]
fn aim<R: Real>(
    pose: &[Xf],
    (forward, up): (V, V),
    limit: SwingTwist,
    target: V,
    up_vector: V,
    weight: f32,
) -> (Vec<Xf>, Vec<Xf>) {
    let f = |p: V| p.map(|v| v as f32);
    let core: Vec<Transform<R>> = pose
        .iter()
        .map(|x| Transform::from_f32(f(x.t), x.q.map(|v| v as f32), f(x.s)).unwrap())
        .collect();
    let skel = Skeleton::<R, 2>::new(&[None, Some(0)], &core).unwrap();
    let head = Aim::new(&skel, 1, f(forward), f(up), limit).unwrap();
    let mut out = core.clone();
    let mut w = [Affine::IDENTITY; 2];
    skel.world(&out, &mut w).unwrap();
    head.apply(&skel, &mut out, &w, f(target), f(up_vector), weight)
        .unwrap();
    (core.iter().map(xf).collect(), out.iter().map(xf).collect())
}

/// The head's world forward and up axes and its position.
fn head(pose: &[Xf], (forward, up): (V, V)) -> (V, V, V) {
    let w = world(&PARENTS, pose);
    let (m, p) = w[1];
    (unit(apply(&m, forward)), unit(apply(&m, up)), p)
}

/// Everything checked of one aim with free limits.
fn check_free<R: Real>(
    pose: &[Xf],
    axes: (V, V),
    target: V,
    up_vector: V,
    tol: f64,
) -> Result<(), TestCaseError> {
    let (before, after) = aim::<R>(pose, axes, SwingTwist::FREE, target, up_vector, 1.0);
    let (_, _, at) = head(&before, axes);
    prop_assume!(norm(sub(target, at)) > 0.3);
    let look = unit(sub(target, at));
    prop_assume!(norm(cross(look, unit(up_vector))) > 0.2);
    let (fwd, upw, _) = head(&after, (unit(axes.0), axes.1));
    prop_assert!(
        norm(sub(fwd, look)) <= tol,
        "forward {fwd:?}, target at {look:?}"
    );
    // The up axis (its part across the forward axis) in the plane of forward and the up
    // vector, on the up vector's side.
    let upw = unit(sub(upw, fwd.map(|v| v * dot(upw, fwd))));
    let normal = unit(cross(fwd, up_vector));
    prop_assert!(dot(upw, normal).abs() <= tol, "up {upw:?} out of the plane");
    prop_assert!(dot(upw, up_vector) > 0.0);
    Ok(())
}

/// The limits hold; a held swing still turns towards the target.
fn check_limits<R: Real>(
    pose: &[Xf],
    axes: (V, V),
    (swing, lo, hi): (f64, f64, f64),
    target: V,
    up_vector: V,
    tol: f64,
) -> Result<(), TestCaseError> {
    let limit = SwingTwist::new(swing as f32, lo as f32, hi as f32).unwrap();
    let (before, after) = aim::<R>(pose, axes, limit, target, up_vector, 1.0);
    let rest = before[1].q;
    let offset = qmul([-rest[0], -rest[1], -rest[2], rest[3]], after[1].q);
    let (s, _, t) = swing_twist(offset, unit(axes.0));
    prop_assert!(s <= swing + tol, "swing {s} > {swing}");
    prop_assert!(
        t >= lo - tol && t <= hi + tol,
        "twist {t} outside [{lo}, {hi}]"
    );
    // Towards the target: the forward axis (in the neck's frame) within the plane of its
    // rest direction and the target's, no further from the target than the rest direction.
    let w = world(&PARENTS, &before);
    let (neck, at) = (w[0].0, w[1].1);
    let seen = |v: V| unit(apply(&skin_tests::ik_oracle::inverse(&neck), v));
    let look = seen(sub(target, at));
    let rest_dir = apply(&rotation(rest), unit(axes.0));
    let now = apply(&rotation(after[1].q), unit(axes.0));
    prop_assume!(norm(cross(rest_dir, look)) > 0.1 && dot(rest_dir, look) > -0.9);
    prop_assert!(
        dot(now, unit(cross(rest_dir, look))).abs() <= tol,
        "off the turning plane"
    );
    prop_assert!(dot(now, look) >= dot(rest_dir, look) - tol);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn f32_aims_look_at_the_target_with_the_up_vector(
        pose in rig(0.5), axes in axes(),
        target in proptest::array::uniform3(-3.0f64..3.0), up in direction(),
    ) {
        check_free::<f32>(&pose, axes, target, up, 1e-4)?;
    }

    #[test]
    fn fixed_aims_look_at_the_target_with_the_up_vector(
        pose in rig(0.3), axes in axes(),
        target in proptest::array::uniform3(-1.5f64..1.5), up in direction(),
    ) {
        check_free::<Fx>(&pose, axes, target, up, 1.0 / 1024.0)?;
    }

    #[test]
    fn aims_hold_their_limits(
        pose in rig(0.3), axes in axes(),
        limit in (0.1f64..2.5, -1.5f64..0.0, 0.0f64..1.5),
        target in proptest::array::uniform3(-1.5f64..1.5), up in direction(),
    ) {
        check_limits::<f32>(&pose, axes, limit, target, up, 1e-4)?;
        check_limits::<Fx>(&pose, axes, limit, target, up, 1.0 / 1024.0)?;
    }

    #[test]
    fn weight_zero_leaves_the_rest_pose(
        pose in rig(0.5), axes in axes(),
        target in proptest::array::uniform3(-3.0f64..3.0), up in direction(),
    ) {
        let limit = SwingTwist::new(1.0, -0.5, 0.5).unwrap();
        let (before, after) = aim::<f32>(&pose, axes, limit, target, up, 0.0);
        prop_assert_eq!(before, after);
    }
}

#[test]
fn bad_aims_are_typed_errors() {
    let up = Transform::<f32>::from_f32([0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 1.0], [1.0; 3]).unwrap();
    let skel = Skeleton::<f32, 2>::new(&[None, Some(0)], &[up; 2]).unwrap();
    let (z, y) = ([0.0, 0.0, 1.0], [0.0, 1.0, 0.0]);
    let free = SwingTwist::FREE;
    assert_eq!(
        Aim::new(&skel, 2, z, y, free).unwrap_err(),
        AnimError::JointIndex {
            joint: 2,
            joints: 2
        }
    );
    assert_eq!(
        Aim::new(&skel, 1, [0.0; 3], y, free)
            .unwrap_err()
            .to_string(),
        "the aim's forward axis has no length"
    );
    assert_eq!(
        Aim::new(&skel, 1, z, [0.0, 0.0, -2.0], free)
            .unwrap_err()
            .to_string(),
        "the aim's up axis has no length"
    );
    let head = Aim::new(&skel, 1, z, y, free).unwrap();
    let mut pose = [up; 2];
    let mut w = [Affine::IDENTITY; 2];
    skel.world(&pose, &mut w).unwrap();
    let e = head
        .apply(&skel, &mut pose, &w, [0.0, f32::NAN, 1.0], y, 1.0)
        .unwrap_err();
    assert!(matches!(e, AnimError::Point { what: "target", value, .. } if value.is_nan()));
    assert_eq!(
        head.apply(&skel, &mut pose, &w, z, y, -0.5)
            .unwrap_err()
            .to_string(),
        "aim weight 0 has the weight -0.5, outside [0, 1]"
    );
    assert_eq!(
        head.apply(&skel, &mut pose, &w, z, [0.0; 3], 1.0)
            .unwrap_err()
            .to_string(),
        "the aim's up axis has no length"
    );
    assert_eq!(pose, [up; 2], "refused aims leave the pose as it was");
}
