//! The procedural walk (`skin_core::anim::{Gait, Walker}`) on a two-legged skeleton over
//! uneven ground, in f32 and fixed point, measured in f64 through an independent forward
//! kinematics (`skin_tests::ik_oracle::world`):
//!
//! - the gait: each foot is planted for `DUTY` of its stride and does not move meanwhile;
//!   a stride (lift-off to lift-off) covers the stride length; the feet are half a stride
//!   (a step) apart;
//! - the walker: every ankle is where the gait puts it, on the ground (at its rest height
//!   above it) while planted; the pelvis is lowered where a leg could not reach otherwise;
//!   bone lengths are kept; the contact phases it reports are the gait's.
//!
//! - the walk demo (`Scene::pose_walk`) on the baked character, f32 and fixed point, past
//!   the two strides after which it starts again: planted ankles on its ground at their
//!   rest height, bad joints and grounds refused with typed errors.
//!
//! Tolerances, extent 2: f32 1e-4·2 for the feet, 1e-5·2 for lengths; fixed point 2⁻¹¹
//! (as for `Limb`, tests/anim_limb.rs).

use skin_core::affine::Affine;
use skin_core::anim::{AnimError, Gait, Hinge, Limb, Walker};
use skin_core::num::{Fx, Real};
use skin_core::skeleton::Skeleton;
use skin_core::transform::Transform;
use skin_tests::anim_oracle::Xf;
use skin_tests::ik_oracle::{norm, world};

/// Pelvis, then per side hip, knee, ankle: legs of 0.45 + 0.45 under hips 0.05 below the
/// pelvis and 0.1 to the side, the ankles 0.05 above the ground at rest.
const PARENTS: [Option<usize>; 7] = [None, Some(0), Some(1), Some(2), Some(0), Some(4), Some(5)];

fn rest<R: Real>() -> Vec<Transform<R>> {
    let t = |p: [f32; 3]| Transform::from_f32(p, [0.0, 0.0, 0.0, 1.0], [1.0; 3]).unwrap();
    vec![
        t([0.0, 1.0, 0.0]),
        t([0.1, -0.05, 0.0]),
        t([0.0, -0.45, 0.0]),
        t([0.0, -0.45, 0.0]),
        t([-0.1, -0.05, 0.0]),
        t([0.0, -0.45, 0.0]),
        t([0.0, -0.45, 0.0]),
    ]
}

fn ground(x: f32, z: f32) -> f32 {
    0.08 * (2.0 * z).sin() + 0.03 * x
}

fn sub(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn walk<R: Real>(speed: f32, stride: f32, times: &[f32], tol: f64, length_tol: f64) {
    let parents: Vec<Option<u16>> = PARENTS.iter().map(|p| p.map(|p| p as u16)).collect();
    let rest = rest::<R>();
    let skel = Skeleton::<R, 8>::new(&parents, &rest).unwrap();
    let leg = |j: [usize; 3]| Limb::new(&skel, j, Hinge::FREE, None).unwrap();
    let walker = Walker::new(&skel, 0, [leg([1, 2, 3]), leg([4, 5, 6])]).unwrap();
    let gait = Gait::new(speed, stride, 0.06).unwrap();
    let xf = |t: &Transform<R>| Xf {
        t: t.translation.map(|v| f64::from(v.to_f32())),
        q: t.rotation.to_f32().map(f64::from),
        s: t.scale.map(|v| f64::from(v.to_f32())),
    };
    let mut planted: [Option<(f32, [f64; 3])>; 2] = [None, None];
    let mut lowered = false;
    for &t in times {
        let mut pose = rest.clone();
        let mut w = [Affine::IDENTITY; 7];
        let steps = walker
            .pose(&skel, &gait, t, ground, &mut pose, &mut w)
            .unwrap();
        let f64s: Vec<Xf> = pose.iter().map(xf).collect();
        let fk = world(&PARENTS, &f64s);
        for (side, [hip, knee, ankle]) in [[1, 2, 3], [4, 5, 6]].into_iter().enumerate() {
            let hip_z = 0.0;
            let step = gait.foot(t, side, hip_z);
            assert_eq!(
                steps[side], step,
                "t = {t}: the walker reports the gait's step"
            );
            let (x, z) = ([0.1, -0.1][side], step.along);
            let want = [
                f64::from(x),
                f64::from(ground(x, z) + 0.05 + step.lift),
                f64::from(z),
            ];
            let e = norm(sub(fk[ankle].1, want));
            assert!(
                e <= tol,
                "t = {t} side {side}: ankle {:?}, wanted {want:?} ({e})",
                fk[ankle].1
            );
            for (a, b) in [(hip, knee), (knee, ankle)] {
                let l = norm(sub(fk[b].1, fk[a].1));
                assert!((l - 0.45).abs() <= length_tol, "bone {a}–{b}: {l}");
            }
            // A planted foot stays where it landed.
            if step.contact {
                match planted[side] {
                    Some((along, at)) if along == step.along => {
                        assert!(
                            norm(sub(fk[ankle].1, at)) <= 2.0 * tol,
                            "t = {t}: planted foot slid"
                        )
                    }
                    _ => planted[side] = Some((step.along, fk[ankle].1)),
                }
            }
        }
        let mean = (ground(0.1, steps[0].along) + ground(-0.1, steps[1].along)) / 2.0;
        let pelvis_y = fk[0].1[1];
        assert!(pelvis_y <= f64::from(1.0 + mean) + tol);
        lowered |= pelvis_y < f64::from(1.0 + mean) - 0.01;
    }
    assert!(lowered, "strides this long lower the pelvis somewhere");
}

#[test]
fn the_gait_plants_strides_and_steps() {
    let gait = Gait::new(1.3, 1.1, 0.05).unwrap();
    let period = gait.period();
    assert!((period - 1.1 / 1.3).abs() < 1e-6);
    let n = 4000;
    for side in 0..2 {
        let mut contact = 0;
        let mut lift_offs = Vec::new();
        let mut last = gait.foot(0.0, side, 0.2);
        for i in 1..=n {
            let t = 3.0 * period * i as f32 / n as f32;
            let s = gait.foot(t, side, 0.2);
            if s.contact {
                contact += 1;
                if last.contact {
                    assert_eq!(s.along, last.along, "a planted foot does not move");
                }
                assert_eq!(s.lift, 0.0);
            }
            if last.contact && !s.contact {
                lift_offs.push((t, s.along));
            }
            last = s;
        }
        let duty = contact as f32 / n as f32;
        assert!(
            (duty - Gait::DUTY).abs() < 0.01,
            "side {side}: on the ground {duty}"
        );
        assert!(lift_offs.len() >= 2);
        for pair in lift_offs.windows(2) {
            let (dt, dz) = (pair[1].0 - pair[0].0, pair[1].1 - pair[0].1);
            assert!((dt - period).abs() < 2e-3, "a stride takes {dt} s");
            assert!((dz - 1.1).abs() < 5e-3, "a stride covers {dz}");
        }
    }
    // A step: the right foot's stride starts half a stride after the left's.
    for i in 0..50 {
        let t = i as f32 * 0.037;
        let (l, r) = (gait.foot(t, 0, 0.0), gait.foot(t + period / 2.0, 1, 0.0));
        assert!((l.phase - r.phase).abs() < 1e-4 || (l.phase - r.phase).abs() > 0.999);
    }
}

#[test]
fn f32_walks_plant_their_feet_on_uneven_ground() {
    let times: Vec<f32> = (0..97).map(|i| i as f32 * 0.031).collect();
    walk::<f32>(1.2, 0.9, &times, 1e-4 * 2.0, 1e-5 * 2.0);
}

#[test]
fn fixed_walks_plant_their_feet_on_uneven_ground() {
    // Within I8F24's IK coordinates (±2): a second and a half at 0.6 units a second.
    let times: Vec<f32> = (0..61).map(|i| i as f32 * 0.025).collect();
    let bound = 1.0 / f64::from(1u32 << 11);
    walk::<Fx>(0.6, 0.9, &times, bound, bound);
}

#[test]
fn bad_gaits_and_walkers_are_typed_errors() {
    assert_eq!(
        Gait::new(0.0, 1.0, 0.1).unwrap_err().to_string(),
        "the gait's speed 0 is not a finite, positive length or speed"
    );
    assert!(matches!(
        Gait::new(1.0, f32::NAN, 0.1),
        Err(AnimError::Gait { what: "stride", .. })
    ));
    assert!(Gait::new(1.0, 1.0, -0.1).is_err());
    let parents: Vec<Option<u16>> = PARENTS.iter().map(|p| p.map(|p| p as u16)).collect();
    let skel = Skeleton::<f32, 8>::new(&parents, &rest::<f32>()).unwrap();
    let leg = |j: [usize; 3]| Limb::new(&skel, j, Hinge::FREE, None).unwrap();
    let legs = [leg([1, 2, 3]), leg([4, 5, 6])];
    assert_eq!(
        Walker::new(&skel, 9, legs).unwrap_err().to_string(),
        "joint 9 does not exist: the skeleton has 7 joints"
    );
    // A leg whose hip is the pelvis, or lies beside it, is not a leg of that pelvis.
    let from_pelvis = [leg([0, 1, 2]), leg([4, 5, 6])];
    assert_eq!(
        Walker::new(&skel, 0, from_pelvis).unwrap_err(),
        AnimError::NotBelow { pelvis: 0, hip: 0 }
    );
    assert_eq!(
        Walker::new(&skel, 4, legs).unwrap_err().to_string(),
        "the leg's hip, joint 1, is not below the pelvis, joint 4"
    );
    let same = [leg([1, 2, 3]), leg([1, 2, 3])];
    assert_eq!(
        Walker::new(&skel, 0, same).unwrap_err().to_string(),
        "both legs hold joint 1: each leg needs joints of its own"
    );
}

/// The walk demo (`Scene::walk`, `Scene::pose_walk`: what `scripts/firmware.sh run … --walk`
/// plays) on the baked character in `lane`: over a stride and more, every planted ankle
/// stands on the demo's ground at its rest height (within `tol`, asset units), one foot
/// at least is planted at every frame, and both feet swing at some frame.
fn demo<L: skin_core::asset::AssetLane + skin_core::raster::Project>(
    lane: skin_host::pose::LaneKind,
    tol: f32,
) {
    use skin_core::scene::{Scene, WalkJoints};
    let character = skin_host::character::Character::new();
    let rig = skin_host::import::from_slice(&character.glb(), None).expect("imports");
    let options = skin_host::bake::Options {
        budget: Some(skin_core::budget::Budget::VS_1_1),
        lane,
        clips: None,
        skinning: skin_core::skin::Skinning::Lbs,
    };
    let bytes = skin_host::bake::bake(&rig, &options).expect("bakes").bytes;
    let asset = skin_core::asset::Asset::<L>::read(&bytes).expect("reads");
    let scene = Scene::<L, 16>::new(asset, 240, 240).expect("a scene");
    let bones = rig.posed_nodes();
    let bone = |name: &str| {
        bones
            .iter()
            .position(|&n| rig.nodes[n].name.as_deref() == Some(name))
            .expect("a bone of the character")
    };
    let joints = WalkJoints {
        pelvis: bone("hips"),
        ankles: [bone("foot.L"), bone("foot.R")],
        head: bone("head"),
    };
    let walk = scene.walk(joints).expect("the character walks");
    let n = scene.bones();
    let (mut pose, mut world) = (vec![Transform::IDENTITY; n], vec![Affine::IDENTITY; n]);
    scene.rest(&mut pose, &mut world).expect("rest");
    let y = |w: &Affine<L::Real>| w.translation_part().map(|v| v.to_f32());
    let rest_height = joints.ankles.map(|a| y(&world[a])[1]);
    let mut swung = [false; 2];
    for k in 0..24 {
        let t = k as f32 * 0.1;
        let steps = scene
            .pose_walk(&walk, t, &mut pose, &mut world, &mut ())
            .expect("walks");
        assert!(steps.iter().any(|s| s.contact), "t = {t}: no foot planted");
        for (side, step) in steps.iter().enumerate() {
            swung[side] |= !step.contact;
            let [x, h, z] = y(&world[joints.ankles[side]]);
            if step.contact {
                let want = walk.ground().height(x, z) + rest_height[side];
                assert!(
                    (h - want).abs() <= tol,
                    "t = {t} side {side}: ankle at height {h}, the ground puts it at {want}"
                );
            }
        }
    }
    assert_eq!(swung, [true; 2], "a foot never swings");
    // A head the skeleton does not have is the animation layer's typed error.
    let bad = WalkJoints { head: 99, ..joints };
    let e = scene.walk(bad).expect_err("no bone 99");
    assert!(
        matches!(
            e,
            skin_core::raster::RasterError::Anim(AnimError::JointIndex { joint: 99, .. })
        ),
        "{e:?}"
    );
    assert!(e.to_string().starts_with("animation: "), "{e}");
}

#[test]
fn the_walk_demo_plants_the_characters_feet_f32() {
    demo::<f32>(skin_host::pose::LaneKind::F32, 1e-4);
}

#[test]
fn the_walk_demo_plants_the_characters_feet_fixed() {
    demo::<skin_core::lane::Q14>(skin_host::pose::LaneKind::Fixed, 1.0 / 2048.0);
}

#[test]
fn bad_grounds_are_typed_errors() {
    use skin_core::anim::Ground;
    for (a, w, what) in [
        (f32::NAN, 1.0, "ground amplitude"),
        (-0.1, 1.0, "ground amplitude"),
        (0.1, 0.0, "ground wavelength"),
        (0.1, f32::INFINITY, "ground wavelength"),
    ] {
        let e = Ground::new(a, w).expect_err("refused");
        assert!(
            matches!(e, AnimError::Gait { what: w2, .. } if w2 == what),
            "{a}, {w}: {e:?}"
        );
        assert!(e.to_string().contains(what), "{e}");
    }
}
