//! `skin pose`'s animation-layer options end to end on the procedural character of
//! `skin character`: IK chains reach their targets with bone lengths kept, look-at points
//! the head, blends and masks and additive clips agree with the plain frames they reduce
//! to, and bad options are one-line errors with exit status 2.
//!
//! Tolerances, the character's extent `E` ≈ 2 model units: f32 1e-4·E for the end
//! effector, 1e-5·E for bone lengths; fixed point (the IK in `I8F24` asset units, then the
//! world matrices printed from them) 1e-3 model units.

use std::path::Path;
use std::process::{Command, Output};

fn skin(args: &[&str]) -> Output {
    Command::new(skin_tests::skin_exe())
        .args(args)
        .output()
        .expect("run skin")
}

fn character(dir: &Path) -> String {
    let path = dir.join("character.glb").to_string_lossy().into_owned();
    let out = skin(&["character", "-o", &path]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    path
}

/// `skin pose`'s JSON.
fn pose_json(model: &str, args: &[&str]) -> serde_json::Value {
    let mut all = vec!["pose", model];
    all.extend_from_slice(args);
    let out = skin(&all);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("JSON")
}

/// Every joint's world matrix by name.
fn joints(model: &str, args: &[&str]) -> Vec<(String, [f64; 16])> {
    named(&pose_json(model, args))
}

/// The joints of `skin pose`'s JSON by name.
fn named(v: &serde_json::Value) -> Vec<(String, [f64; 16])> {
    v["joints"]
        .as_array()
        .unwrap()
        .iter()
        .map(|j| {
            let w: Vec<f64> = j["world"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_f64().unwrap())
                .collect();
            (
                j["name"].as_str().unwrap().to_owned(),
                w.try_into().unwrap(),
            )
        })
        .collect()
}

fn at(joints: &[(String, [f64; 16])], name: &str) -> [f64; 3] {
    let w = joints.iter().find(|(n, _)| n == name).expect(name).1;
    [w[12], w[13], w[14]]
}

fn dist(a: [f64; 3], b: [f64; 3]) -> f64 {
    (0..3).map(|i| (a[i] - b[i]).powi(2)).sum::<f64>().sqrt()
}

/// One line on stderr naming the problem, exit status 2, nothing on stdout.
fn refused(model: &str, args: &[&str], says: &str) {
    let mut all = vec!["pose", model];
    all.extend_from_slice(args);
    let out = skin(&all);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(err.contains(says), "{args:?}: expected {says:?} in {err}");
    assert!(out.stdout.is_empty());
}

#[test]
fn ik_reaches_targets_keeps_bone_lengths_and_look_at_points_the_head() {
    let dir = tempfile::tempdir().unwrap();
    let model = character(dir.path());
    let frame = ["--anim", "0", "--time", "0.3"];
    let plain = joints(&model, &frame);
    let (left, right, seen) = ([0.4, 1.2, 0.1], [-0.35, 1.1, 0.25], [0.5, 1.6, 2.0]);
    let fmt = |p: [f64; 3]| format!("{},{},{}", p[0], p[1], p[2]);
    let ik_left = format!("forearm.L={}", fmt(left));
    let ik_right = format!("forearm.R={},pole=-0.5,1.3,-1", fmt(right));
    let look = format!("head={}", fmt(seen));
    for (arith, reach_tol, length_tol) in [("f32", 2e-4, 2e-5), ("fixed", 1e-3, 1e-3)] {
        // Both arms' chains turn the chest (their root), so one arm at a time, with the
        // head (the chest's child, in no chain) looking.
        let solve = |ik: &str| {
            let mut args = frame.to_vec();
            args.extend_from_slice(&["--arith", arith, "--ik", ik, "--look-at", &look]);
            joints(&model, &args)
        };
        let (solved, other) = (solve(&ik_left), solve(&ik_right));
        for (end, target, j) in [("forearm.L", left, &solved), ("forearm.R", right, &other)] {
            let e = dist(at(j, end), target);
            assert!(e <= reach_tol, "{arith}: {end} misses {target:?} by {e}");
        }
        let bones = [
            ("chest", "upper_arm.L"),
            ("upper_arm.L", "forearm.L"),
            ("chest", "upper_arm.R"),
            ("upper_arm.R", "forearm.R"),
            ("chest", "head"),
        ];
        for ((a, b), j) in bones
            .into_iter()
            .zip([&solved, &solved, &other, &other, &solved])
        {
            let (before, after) = (dist(at(&plain, a), at(&plain, b)), dist(at(j, a), at(j, b)));
            assert!(
                (before - after).abs() <= length_tol,
                "{arith}: {a}–{b} {before} → {after}"
            );
        }
        // The right chain's middle joint bends towards its pole; the head's +Z points at
        // its target.
        let (root, mid) = (at(&other, "chest"), at(&other, "upper_arm.R"));
        let axis = {
            let d = [right[0] - root[0], right[1] - root[1], right[2] - root[2]];
            let n = dist(d, [0.0; 3]);
            d.map(|v| v / n)
        };
        let across = |p: [f64; 3]| {
            let r = [p[0] - root[0], p[1] - root[1], p[2] - root[2]];
            let along = (0..3).map(|i| r[i] * axis[i]).sum::<f64>();
            [0, 1, 2].map(|i| r[i] - along * axis[i])
        };
        let (bend, towards) = (across(mid), across([-0.5, 1.3, -1.0]));
        let side: f64 = (0..3).map(|i| bend[i] * towards[i]).sum();
        assert!(
            side >= 0.0,
            "{arith}: the middle joint bends away from the pole"
        );
        let head = solved.iter().find(|(n, _)| n == "head").unwrap().1;
        let forward = [head[8], head[9], head[10]];
        let to = {
            let p = at(&solved, "head");
            let d = [seen[0] - p[0], seen[1] - p[1], seen[2] - p[2]];
            let n = dist(d, [0.0; 3]);
            d.map(|v| v / n)
        };
        let n = dist(forward, [0.0; 3]);
        let e = dist(forward.map(|v| v / n), to);
        assert!(e <= reach_tol, "{arith}: the head looks {e} off its target");
        // Joints outside the chains stay where they were.
        assert!(dist(at(&solved, "shin.L"), at(&plain, "shin.L")) <= length_tol);
    }
}

#[test]
fn blends_masks_and_additive_clips_reduce_to_plain_frames() {
    let dir = tempfile::tempdir().unwrap();
    let model = character(dir.path());
    let t = ["--time", "0.3"];
    let walk = joints(&model, &["--anim", "walk", "--time", "0.3"]);
    let rest = joints(&model, &["--rest"]);
    let close = |a: &[(String, [f64; 16])], b: &[(String, [f64; 16])], tol: f64| {
        a.iter()
            .zip(b)
            .all(|((_, x), (_, y))| x.iter().zip(y).all(|(p, q)| (p - q).abs() <= tol))
    };
    let blended = joints(&model, &[&t[..], &["--blend", "walk:1"]].concat());
    assert!(
        close(&blended, &walk, 1e-6),
        "a blend of one clip at weight 1 is the clip"
    );
    let faded = joints(&model, &[&t[..], &["--blend", "walk:0"]].concat());
    assert!(
        close(&faded, &rest, 1e-6),
        "weight 0 falls back to the rest pose"
    );
    // The walk only from the chest up: the legs rest, the arms walk.
    let upper = joints(
        &model,
        &[&t[..], &["--blend", "walk:0,walk:1", "--mask", "chest"]].concat(),
    );
    assert!(dist(at(&upper, "shin.L"), at(&rest, "shin.L")) < 1e-6);
    assert!(dist(at(&walk, "shin.L"), at(&rest, "shin.L")) > 0.01);
    // The forearm as the upper arm holds it, in the chest's frame (the chest itself rests
    // under the mask but walks in the walk).
    let swing = |j: &[(String, [f64; 16])]| {
        let (a, b) = (at(j, "upper_arm.L"), at(j, "forearm.L"));
        let d = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
        let chest = j.iter().find(|(n, _)| n == "chest").unwrap().1;
        [0, 1, 2].map(|c| (0..3).map(|r| chest[4 * c + r] * d[r]).sum::<f64>())
    };
    assert!(
        dist(swing(&upper), swing(&walk)) < 1e-5,
        "the arm swings as in the walk"
    );
    assert!(dist(swing(&rest), swing(&walk)) > 0.01);
    // An additive clip at its start adds nothing; at weight 0 nothing either.
    let same = joints(
        &model,
        &["--anim", "walk", "--time", "0.3", "--additive", "walk:0"],
    );
    assert!(close(&same, &walk, 1e-6));
    let start = joints(&model, &["--rest", "--time", "0", "--additive", "walk:1"]);
    assert!(close(&start, &rest, 1e-5));
    let moved = joints(&model, &["--rest", "--time", "0.3", "--additive", "walk:1"]);
    assert!(
        !close(&moved, &rest, 1e-3),
        "the walk's motion since its start is added"
    );
}

#[test]
fn bad_layer_options_are_one_line_errors() {
    let dir = tempfile::tempdir().unwrap();
    let model = character(dir.path());
    refused(
        &model,
        &["--ik", "ankle.L=0,0,0"],
        "--ik: no joint named \"ankle.L\"",
    );
    refused(
        &model,
        &["--mask", "tail"],
        "--mask: no joint named \"tail\"",
    );
    refused(
        &model,
        &["--look-at", "eye=0,1,2"],
        "--look-at: no joint named \"eye\"",
    );
    refused(
        &model,
        &["--walk", "1,0.8", "--walk-joints", "hips,foot.L,ankle.R"],
        "--walk-joints: no joint named \"ankle.R\"",
    );
    // The skinned mesh's node is no joint: a mask there would move nothing.
    refused(
        &model,
        &["--blend", "walk:1,walk:0.5", "--mask", "character"],
        "--mask: \"character\" (node 14) is not a joint of the model's skeletons",
    );
    // Legs that are not below the pelvis, or share joints, are no walk.
    refused(
        &model,
        &["--walk", "1,0.8", "--walk-joints", "head,foot.L,foot.R"],
        "--walk-joints: the leg's hip \"thigh.L\" (node 8) is not below the pelvis \"head\" (node 3)",
    );
    refused(
        &model,
        &["--walk", "1,0.8", "--walk-joints", "hips,shin.L,shin.R"],
        "--walk-joints: the leg's hip \"hips\" (node 0) is not below the pelvis \"hips\" (node 0)",
    );
    refused(
        &model,
        &["--walk", "1,0.8", "--walk-joints", "hips,foot.L,foot.L"],
        "--walk-joints: both legs hold \"thigh.L\" (node 8)",
    );
    refused(
        &model,
        &["--walk", "NaN,0.8", "--walk-joints", "hips,foot.L,foot.R"],
        "--walk: the speed NaN is not a finite, positive number",
    );
    refused(
        &model,
        &[
            "--walk",
            "1,0.8",
            "--walk-joints",
            "hips,foot.L,foot.R",
            "--ground",
            "inf,1",
        ],
        "--ground: the amplitude inf is not a finite number",
    );
    refused(
        &model,
        &["--ik", "spine=0,1,0"],
        "--ik \"spine\" (node 1): a two-bone chain needs the end joint's parent and grandparent, and it has only the parent \"hips\" (node 0)",
    );
    refused(
        &model,
        &["--ik", "forearm.L=0,NaN,0"],
        "the target coordinate NaN is not a finite number",
    );
    refused(
        &model,
        &["--ik", "forearm.L=0,1,0,pole=1,inf,0"],
        "the pole coordinate inf is not a finite number",
    );
    refused(
        &model,
        &["--ik", "forearm.L=0,1"],
        "expected JOINT=X,Y,Z[,pole=X,Y,Z]",
    );
    refused(
        &model,
        &["--blend", "walk:1.5"],
        "--blend \"walk:1.5\": the weight 1.5 is outside [0, 1]",
    );
    refused(
        &model,
        &["--additive", "walk:-0.5"],
        "the weight -0.5 is outside [0, 1]",
    );
    refused(&model, &["--blend", "run:0.5"], "no animation \"run\"");
    refused(
        &model,
        &["--blend", "walk:1", "--anim", "walk"],
        "cannot be used with",
    );
    refused(
        &model,
        &["--look-at", "head=0,1,2,forward=0,0,0"],
        "the aim's forward axis has no length",
    );
    // The fixed lane's IK takes coordinates up to ±2 asset units.
    refused(
        &model,
        &["--arith", "fixed", "--ik", "forearm.L=40,0,0"],
        "is not finite or beyond ±2",
    );
}

/// A chain with a bone of no length (a joint where its parent is) cannot be solved: its
/// bend is undefined.
#[test]
fn a_zero_length_bone_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let mut g = skin_tests::gltf_gen::Worm::default().build();
    let nodes = g.json["nodes"].as_array_mut().unwrap();
    let bone = nodes
        .iter_mut()
        .find(|n| n["name"] == "bone0_3")
        .expect("the worm's fourth bone");
    bone["translation"] = serde_json::json!([0.0, 0.0, 0.0]);
    let path = dir.path().join("worm.glb");
    std::fs::write(&path, g.glb()).unwrap();
    let model = path.to_str().unwrap();
    refused(
        model,
        &["--ik", "bone0_4=0.5,0.5,3"],
        "bone 0 of the IK chain has the length 0",
    );
    refused(
        model,
        &["--ik", "bone0_3=0.5,0.5,3"],
        "bone 1 of the IK chain has the length 0",
    );
}

/// `skin pose --walk` on CesiumMan (../shared/models): see [`walks_on_rolling_ground`].
#[test]
fn cesium_man_walks_on_rolling_ground() {
    let test = "cesium_man_walks_on_rolling_ground";
    let Some(dir) = skin_tests::models_dir() else {
        return skin_tests::skip(test, "../shared/models is missing");
    };
    let model = dir.join("CesiumMan.glb");
    if !model.is_file() {
        return skin_tests::skip(test, "CesiumMan.glb is missing");
    }
    let model = model.to_string_lossy().into_owned();
    let legs = [
        ("leg_joint_L_1", "leg_joint_L_2", "leg_joint_L_3"),
        ("leg_joint_R_1", "leg_joint_R_2", "leg_joint_R_3"),
    ];
    walks_on_rolling_ground(&model, "Skeleton_torso_joint_1", legs);
}

/// `skin pose --walk` on the procedural character, whose legs are thigh–shin–foot chains.
#[test]
fn the_procedural_character_walks_on_rolling_ground() {
    let dir = tempfile::tempdir().unwrap();
    let model = character(dir.path());
    let legs = [
        ("thigh.L", "shin.L", "foot.L"),
        ("thigh.R", "shin.R", "foot.R"),
    ];
    walks_on_rolling_ground(&model, "hips", legs);
}

/// `skin pose --rest --walk` with `pelvis` and the `legs` (hip, knee, ankle): the ankles
/// planted on the rolling ground at their rest height above it while the JSON says their
/// foot is in contact, a planted ankle staying put, the legs' bone lengths kept, in f32 and
/// fixed point.
fn walks_on_rolling_ground(model: &str, pelvis: &str, legs: [(&str, &str, &str); 2]) {
    let model = model.to_owned();
    let walk_joints = format!("{pelvis},{},{}", legs[0].2, legs[1].2);
    let rest = joints(&model, &["--rest"]);
    let ankle_height = at(&rest, legs[0].2)[1];
    let ground = |z: f64| 0.05 * (2.0 * std::f64::consts::PI * z / 1.5).sin();
    for (arith, tol) in [("f32", 2e-4), ("fixed", 1e-3)] {
        let mut planted: [Option<[f64; 3]>; 2] = [None, None];
        let mut contacts = [0; 2];
        for i in 0..12 {
            let t = format!("{}", i as f32 * 0.13);
            let args = [
                "--rest",
                "--time",
                &t,
                "--arith",
                arith,
                "--walk",
                "1.0,0.8",
                "--walk-joints",
                &walk_joints,
                "--ground",
                "0.05,1.5",
            ];
            let v = pose_json(&model, &args);
            let walked = named(&v);
            for (side, (hip, knee, ankle)) in legs.into_iter().enumerate() {
                let foot = &v["walk"]["feet"][side];
                let a = at(&walked, ankle);
                for (x, y) in [(hip, knee), (knee, ankle)] {
                    let (before, after) = (
                        dist(at(&rest, x), at(&rest, y)),
                        dist(at(&walked, x), at(&walked, y)),
                    );
                    assert!(
                        (before - after).abs() <= tol,
                        "{arith} t {t}: {x}–{y} {before} → {after}"
                    );
                }
                if foot["contact"].as_bool().unwrap() {
                    contacts[side] += 1;
                    let e = (a[1] - (ground(a[2]) + ankle_height)).abs();
                    assert!(
                        e <= tol,
                        "{arith} t {t}: {ankle} at {a:?}, {e} off the ground"
                    );
                    if let Some(p) = planted[side] {
                        if dist(p, a) > 0.05 {
                            // A new landing, a stride on.
                            assert!(
                                a[2] > p[2] + 0.5,
                                "{arith} t {t}: {ankle} slid from {p:?} to {a:?}"
                            );
                        } else {
                            assert!(dist(p, a) <= 2.0 * tol, "{arith} t {t}: {ankle} slid");
                        }
                    }
                    planted[side] = Some(a);
                } else {
                    planted[side] = None;
                }
            }
        }
        assert!(
            contacts.iter().all(|&c| c > 0 && c < 8),
            "{arith}: contacts {contacts:?}"
        );
    }
}
