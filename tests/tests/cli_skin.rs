//! The `skin` binary end to end: exit codes, one-line errors, `--help`, and the output of
//! `inspect`, `budget` and `pose` on synthetic files (and on ../shared/models).
//!
//! The binary is built by [`skin_tests::skin_exe`].

use std::path::Path;
use std::process::{Command, Output};

use skin_tests::gltf_gen::{Worm, UNSIGNED_BYTE};

fn skin(args: &[&str]) -> Output {
    Command::new(skin_tests::skin_exe())
        .args(args)
        .output()
        .expect("run skin")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Exit status 2 and exactly one line `skin: <reason>` on stderr, no panic.
fn assert_bad_input(out: &Output, reason_contains: &str) {
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "stderr: {err}");
    assert!(err.starts_with("skin: "), "stderr: {err}");
    assert_eq!(
        err.trim_end().lines().count(),
        1,
        "one line expected: {err}"
    );
    assert!(
        !err.contains("panicked") && !err.contains("RUST_BACKTRACE"),
        "{err}"
    );
    assert!(
        err.contains(reason_contains),
        "expected {reason_contains:?} in {err}"
    );
    assert!(out.stdout.is_empty(), "nothing on stdout for bad input");
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> String {
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p.to_string_lossy().into_owned()
}

#[test]
fn help_lists_the_commands_and_the_time_rule() {
    let out = skin(&["--help"]);
    assert_eq!(out.status.code(), Some(0));
    let help = text(&out.stdout);
    for cmd in ["inspect", "budget", "pose", "bake"] {
        assert!(help.contains(cmd), "--help lacks {cmd}: {help}");
    }
    let out = skin(&["pose", "--help"]);
    assert_eq!(out.status.code(), Some(0));
    let help = text(&out.stdout);
    assert!(
        help.contains("beyond a clip's end hold its last key"),
        "{help}"
    );
    assert!(help.contains("--arith"), "{help}");
    let out = skin(&["bake", "--help"]);
    assert_eq!(out.status.code(), Some(0));
    let help = text(&out.stdout);
    for want in ["--output", "--budget", "--arith", "--anim", "Refuses"] {
        assert!(help.contains(want), "bake --help lacks {want}: {help}");
    }
}

#[test]
fn bad_arguments_exit_2_with_one_line() {
    assert_bad_input(&skin(&[]), "skin");
    assert_bad_input(&skin(&["frobnicate"]), "frobnicate");
    assert_bad_input(&skin(&["pose", "x.glb", "--arith", "f16"]), "f16");
}

#[test]
fn missing_file_exits_2() {
    let out = skin(&["inspect", "/nonexistent/model.glb"]);
    assert_bad_input(&out, "cannot read /nonexistent/model.glb");
}

#[test]
fn corrupt_files_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let glb = Worm::default().build().glb();
    let truncated = write(dir.path(), "t.glb", &glb[..glb.len() / 2]);
    assert_bad_input(&skin(&["pose", &truncated]), "truncated");
    let mut magic = glb.clone();
    magic[..4].copy_from_slice(b"gLTF");
    let magic = write(dir.path(), "m.glb", &magic);
    assert_bad_input(&skin(&["inspect", &magic]), "not a glTF file");
    let json = write(dir.path(), "j.gltf", b"{\"asset\": {\"version\": \"2.0\"");
    assert_bad_input(&skin(&["budget", &json]), "broken glTF JSON");
}

#[test]
fn unknown_animation_and_budget_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let model = write(dir.path(), "w.glb", &Worm::default().build().glb());
    assert_bad_input(
        &skin(&["pose", &model, "--anim", "dance"]),
        "no animation \"dance\"",
    );
    assert_bad_input(
        &skin(&["budget", &model, "--budget", "vs_9_9"]),
        "unknown budget",
    );
}

#[test]
fn pose_prints_the_documented_json() {
    let dir = tempfile::tempdir().unwrap();
    let model = write(dir.path(), "worm.glb", &Worm::default().build().glb());
    for arith in ["f32", "fixed"] {
        let out = skin(&["pose", &model, "--arith", arith, "--format", "json"]);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON on stdout");
        assert_eq!(v["model"], "worm.glb");
        assert!(v["animation"].is_null());
        assert_eq!(v["time"], 0.0);
        assert_eq!(v["arith"], arith);
        assert_eq!(v["frame"], "glTF world (Y-up)");
        let blocks = v["blocks"].as_array().unwrap();
        assert_eq!(blocks.len(), 1);
        assert_eq!(blocks[0]["node"], 11);
        assert_eq!(blocks[0]["mesh"], 0);
        assert_eq!(blocks[0]["primitive"], 0);
        assert_eq!(blocks[0]["count"], 63);
        let p = blocks[0]["positions"].as_array().unwrap();
        assert_eq!(p.len(), 63 * 3);
        // With exact inverse bind matrices the rest pose is the bind pose: the skinned
        // positions are the POSITION data (vertex 5 is ring 1, corner 2: y = 0.5).
        let got = [5 * 3, 5 * 3 + 1, 5 * 3 + 2].map(|i| p[i].as_f64().unwrap());
        let a = 2.0 * 2.0943951f64;
        let want = [0.3 * a.cos(), 0.5, 0.3 * a.sin()];
        // f32: rounding only; fixed: the core's bound (core/src/lane/mod.rs), 8.25·2⁻¹⁵
        // asset units of 2⁴ model units.
        let tol = if arith == "f32" {
            2e-6
        } else {
            8.25 / 32768.0 * 16.0
        };
        for i in 0..3 {
            assert!(
                (got[i] - want[i]).abs() < tol,
                "{arith}: {got:?} vs {want:?}"
            );
        }
    }
}

#[test]
fn inspect_reports_the_model() {
    let dir = tempfile::tempdir().unwrap();
    let worm = Worm {
        influences: 8,
        weights: UNSIGNED_BYTE,
        two_skins: true,
        ..Worm::default()
    };
    let model = write(dir.path(), "worm8.glb", &worm.build().glb());
    let out = skin(&["inspect", &model]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    for want in [
        "model: worm8.glb",
        "nodes: 23",
        "skins: 2",
        "skin 0: 10 joints",
        "63 vertices, max influences 8",
        "animation 0 \"wiggle\": 2.000 s",
        "bounding box",
        "asset unit 2^",
        "I2F14",
    ] {
        assert!(s.contains(want), "inspect lacks {want:?}:\n{s}");
    }
    // The reduction to 4 influences is reported as a warning on stderr.
    let err = text(&out.stderr);
    assert!(
        err.contains("warning") && err.contains("largest dropped weight"),
        "{err}"
    );
}

#[test]
fn budget_table_counts_splits() {
    let dir = tempfile::tempdir().unwrap();
    let model = write(dir.path(), "worm.glb", &Worm::default().build().glb());
    let out = skin(&[
        "budget",
        &model,
        "--budget",
        "oes_matrix_palette",
        "--budget",
        "vs_1_1",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    let rows: Vec<&str> = s
        .lines()
        .filter(|l| l.starts_with("oes_matrix_palette") || l.starts_with("vs_1_1"))
        .collect();
    assert_eq!(rows.len(), 6, "{s}");
    // 10 joints do not fit 9 matrices: more than one draw call, some duplicated vertices.
    let oes: Vec<&str> = rows[0].split_whitespace().collect();
    assert_eq!(
        &oes[..6],
        &["oes_matrix_palette", "4x4", "9", "0/1", "1", oes[5]]
    );
    let split_draws: usize = oes[5].parse().unwrap();
    let dup: usize = oes[6].parse().unwrap();
    assert!(split_draws >= 2 && dup > 0, "{s}");
    // The fixed-function palette has no dual-quaternion mode: capacity 0, no split possible.
    assert!(
        rows[2].contains("dq")
            && rows[2].contains("cannot split: oes_matrix_palette holds no dq bone"),
        "{s}"
    );
    // vs_1_1 holds 24 4×4 bones: fits as is.
    let vs: Vec<&str> = rows[3].split_whitespace().collect();
    assert_eq!(vs, ["vs_1_1", "4x4", "24", "1/1", "1", "1", "0"]);
}

#[test]
fn sample_models_run_through_every_command() {
    let dir = tempfile::tempdir().unwrap();
    let asset = dir.path().join("a.skin").to_string_lossy().into_owned();
    for model in skin_tests::sample_models("sample_models_run_through_every_command") {
        let m = model.to_string_lossy();
        for args in [
            vec!["inspect", &m],
            vec!["budget", &m],
            vec!["pose", &m, "--arith", "fixed"],
            vec!["pose", &m, "--anim", "0", "--time", "0.3"],
            vec!["bake", &m, "-o", &asset, "--arith", "fixed"],
        ] {
            let out = skin(&args);
            assert_eq!(
                out.status.code(),
                Some(0),
                "{args:?}: {}",
                text(&out.stderr)
            );
            assert!(!out.stdout.is_empty());
        }
    }
}

fn pose_json(args: &[&str]) -> serde_json::Value {
    let out = skin(args);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("JSON on stdout")
}

#[test]
fn pose_anim_samples_the_clip_and_holds_its_ends() {
    let dir = tempfile::tempdir().unwrap();
    let model = write(dir.path(), "worm.glb", &Worm::default().build().glb());
    for arith in ["f32", "fixed"] {
        let at = |anim: &str, t: &str| {
            pose_json(&[
                "pose", &model, "--anim", anim, "--time", t, "--arith", arith,
            ])
        };
        let mid = at("wiggle", "0.8");
        assert_eq!(mid["animation"], 0);
        assert_eq!(mid["time"], 0.800000011920929); // f32 seconds
        let rest = pose_json(&["pose", &model, "--arith", arith]);
        assert_ne!(mid["blocks"], rest["blocks"], "the clip moves the worm");
        assert_eq!(at("0", "0.8")["blocks"], mid["blocks"], "index or name");
        // The clip runs from 0 to 2 s: later times hold the last key, earlier the first.
        assert_eq!(at("0", "2")["blocks"], at("0", "7.5")["blocks"]);
        assert_eq!(at("0", "-0.25")["blocks"], at("0", "-1")["blocks"]);
        // At 0 s the first key is reached by interpolation (u = 0): the same to rounding.
        let first = at("0", "-1")["blocks"][0]["positions"].clone();
        let zero = at("0", "0")["blocks"][0]["positions"].clone();
        let (first, zero) = (first.as_array().unwrap(), zero.as_array().unwrap());
        assert_eq!(first.len(), zero.len());
        for (a, b) in first.iter().zip(zero) {
            let (a, b) = (a.as_f64().unwrap(), b.as_f64().unwrap());
            assert!((a - b).abs() < 1e-5, "{a} vs {b}");
        }
        assert_ne!(at("0", "2")["blocks"], at("0", "1.9")["blocks"]);
    }
}

#[test]
fn bake_writes_an_asset_that_reads_back() {
    use skin_core::asset::Asset;
    let dir = tempfile::tempdir().unwrap();
    let model = write(dir.path(), "worm.glb", &Worm::default().build().glb());
    let f = dir.path().join("f.skin");
    let x = dir.path().join("x.skin");
    let fs = f.to_string_lossy();
    let xs = x.to_string_lossy();
    let out = skin(&["bake", &model, "-o", &fs]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let line = text(&out.stdout);
    assert!(line.contains("f32") && line.contains("1 parts"), "{line}");
    let bytes = std::fs::read(&f).unwrap();
    assert!(line.contains(&format!("{} bytes", bytes.len())), "{line}");
    let asset = Asset::<f32>::read(&bytes).expect("reads back");
    assert_eq!(asset.parts().count(), 1);
    assert_eq!(asset.clip("wiggle").map(|c| c.duration()), Some(2.0));
    // A budget of 9 matrices splits the 10-bone worm; --anim picks the clips.
    let args = [
        "bake",
        &model,
        "--output",
        &xs,
        "--arith",
        "fixed",
        "--budget",
        "oes_matrix_palette",
        "--anim",
        "wiggle",
    ];
    let out = skin(&args);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let first = std::fs::read(&x).unwrap();
    let asset = Asset::<skin_core::lane::Q14>::read(&first).expect("reads back");
    assert!(asset.parts().count() >= 2);
    assert!(asset.parts().all(|p| p.bones().len() <= 9));
    assert_eq!(asset.clips().count(), 1);
    // The same input gives the same bytes.
    assert_eq!(skin(&args).status.code(), Some(0));
    assert_eq!(std::fs::read(&x).unwrap(), first);
}

#[test]
fn bake_refusals_exit_2_and_write_nothing() {
    use skin_tests::gltf_gen::twelve_bone_triangle;
    let dir = tempfile::tempdir().unwrap();
    let out_path = dir.path().join("never.skin");
    let o = out_path.to_string_lossy();
    let tri = write(dir.path(), "tri.glb", &twelve_bone_triangle(1.0).glb());
    assert_bad_input(
        &skin(&["bake", &tri, "-o", &o, "--budget", "oes_matrix_palette"]),
        "element 0 alone uses 12 bones, more than the palette's 9",
    );
    let far = write(dir.path(), "far.glb", &twelve_bone_triangle(5000.0).glb());
    assert_bad_input(
        &skin(&["bake", &far, "-o", &o, "--arith", "fixed"]),
        "animation 0",
    );
    assert_bad_input(
        &skin(&["bake", &tri, "-o", &o, "--budget", "vs_9_9"]),
        "unknown budget",
    );
    assert_bad_input(
        &skin(&["bake", &tri, "-o", &o, "--anim", "dance"]),
        "no animation",
    );
    assert_bad_input(&skin(&["bake", &tri]), "--output");
    assert!(!out_path.exists(), "a refused bake writes no file");
    // f32 holds the far slide, and the fixed bake without the clip holds the rest pose.
    let out = skin(&["bake", &far, "-o", &o]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

#[test]
fn a_channel_target_past_the_nodes_is_one_line_on_every_subcommand() {
    let dir = tempfile::tempdir().unwrap();
    let mut g = Worm::default().build();
    g.json["animations"][0]["channels"][0]["target"]["node"] = serde_json::json!(999);
    let model = write(dir.path(), "w.glb", &g.glb());
    let out = dir.path().join("o").to_string_lossy().into_owned();
    let why = "animations[0].channels[0].target.node is 999, but the file has 12 nodes";
    for args in [
        vec!["inspect", &model],
        vec!["budget", &model],
        vec!["pose", &model, "--anim", "0"],
        vec!["bake", &model, "-o", &out],
        vec!["render", &model, "--backend", "cpu", "-o", &out],
        vec!["validate", &model],
    ] {
        assert_bad_input(&skin(&args), why);
    }
}

#[test]
fn counts_and_times_beyond_their_limits_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let model = write(dir.path(), "w.glb", &Worm::default().build().glb());
    assert_bad_input(
        &skin(&["validate", &model, "--frames", "100000000"]),
        "100000000 is not in 1..=10000",
    );
    let png = dir.path().join("o.png").to_string_lossy().into_owned();
    let why = "time -inf is not a finite number of seconds";
    assert_bad_input(
        &skin(&["pose", &model, "--anim", "0", "--time", "-inf"]),
        why,
    );
    let render = [
        "render", &model, "--anim", "0", "--time", "-inf", "-o", &png,
    ];
    assert_bad_input(&skin(&render), why);
}

#[test]
fn buffers_outside_the_model_folder_need_the_flag() {
    let dir = tempfile::tempdir().unwrap();
    let g = Worm::default().build();
    std::fs::write(dir.path().join("worm.bin"), &g.bin).unwrap();
    let mut json: serde_json::Value = serde_json::from_str(&g.gltf()).unwrap();
    json["buffers"][0]["uri"] = serde_json::json!("../worm.bin");
    std::fs::create_dir(dir.path().join("m")).unwrap();
    let model = write(
        &dir.path().join("m"),
        "w.gltf",
        &serde_json::to_vec(&json).unwrap(),
    );
    assert_bad_input(&skin(&["inspect", &model]), "pass --allow-outside-uris");
    let out = skin(&["inspect", &model, "--allow-outside-uris"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

#[test]
fn every_command_agrees_on_what_fits_fixed_point() {
    let dir = tempfile::tempdir().unwrap();
    let g = skin_tests::gltf_gen::keyed_triangle(1.75e38, &[0.0, 1.0], "translation", &[0.0; 6]);
    let model = write(dir.path(), "huge.glb", &g.glb());
    let out_file = dir.path().join("o").to_string_lossy().into_owned();
    let why = "needs asset unit 2^128, beyond 2^127";
    let inspect = skin(&["inspect", &model]);
    assert_eq!(inspect.status.code(), Some(0));
    assert!(text(&inspect.stdout).contains(&format!("does not hold: {}", "a vertex position")));
    assert_bad_input(&skin(&["pose", &model, "--arith", "fixed"]), why);
    assert_bad_input(
        &skin(&["bake", &model, "--arith", "fixed", "-o", &out_file]),
        why,
    );
    assert_bad_input(
        &skin(&[
            "render",
            &model,
            "--backend",
            "cpu",
            "--arith",
            "fixed",
            "-o",
            &out_file,
        ]),
        why,
    );
    // f32 holds it: numbers, never null.
    let out = skin(&["pose", &model]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let p = v["blocks"][0]["positions"].as_array().unwrap();
    assert!(p.len() == 9 && p.iter().all(|c| c.is_f64()), "{v}");
}

#[test]
fn pictures_of_1024_pixels_render() {
    let dir = tempfile::tempdir().unwrap();
    let model = write(dir.path(), "w.glb", &Worm::default().build().glb());
    let png = dir.path().join("f.png").to_string_lossy().into_owned();
    for arith in ["f32", "fixed"] {
        let out = skin(&[
            "render",
            &model,
            "--backend",
            "cpu",
            "--arith",
            arith,
            "--size",
            "1024x1024",
            "--anim",
            "0",
            "--time",
            "0.7",
            "-o",
            &png,
        ]);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    }
}

#[test]
fn check_plays_a_baked_asset_and_refuses_a_damaged_one() {
    let dir = tempfile::tempdir().unwrap();
    let model = write(dir.path(), "w.glb", &Worm::default().build().glb());
    let asset = dir.path().join("w.skin").to_string_lossy().into_owned();
    let out = skin(&[
        "bake", &model, "--arith", "fixed", "--anim", "0", "--anim", "wiggle", "-o", &asset,
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains(", 1 clips"),
        "a clip named twice is baked once"
    );
    let out = skin(&["check", &asset, "--frames", "5"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let line = text(&out.stdout);
    for want in [
        "ok:",
        "I2F14 vertices",
        "lbs skinning",
        "63 vertices",
        "clip \"wiggle\" (2 s)",
        "5 frames",
    ] {
        assert!(line.contains(want), "{want:?} not in {line}");
    }
    let bytes = std::fs::read(&asset).unwrap();
    let cut = write(dir.path(), "cut.skin", &bytes[..bytes.len() - 1]);
    assert_bad_input(&skin(&["check", &cut]), "not a valid asset: ");
}

/// `skin bake --skinning dqs` records the method (and `check` plays it); a scaled joint,
/// which DQS cannot represent, is bad input naming the joint and what to do.
#[test]
fn bake_records_dqs_and_refuses_a_scaled_joint() {
    let dir = tempfile::tempdir().unwrap();
    let rigid = Worm {
        scale_channel: false,
        ..Worm::default()
    };
    let model = write(dir.path(), "w.glb", &rigid.build().glb());
    let asset = dir.path().join("w.skin").to_string_lossy().into_owned();
    for arith in ["f32", "fixed"] {
        let out = skin(&[
            "bake",
            &model,
            "--arith",
            arith,
            "--skinning",
            "dqs",
            "--budget",
            "vs_1_1",
            "-o",
            &asset,
        ]);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        assert!(
            text(&out.stdout).contains(", dqs, "),
            "{}",
            text(&out.stdout)
        );
        let out = skin(&["check", &asset, "--frames", "3"]);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        assert!(
            text(&out.stdout).contains("dqs skinning"),
            "{}",
            text(&out.stdout)
        );
    }
    // The default worm scales bone 3 in its clip.
    let scaled = write(dir.path(), "s.glb", &Worm::default().build().glb());
    let out = skin(&["bake", &scaled, "--skinning", "dqs", "-o", &asset]);
    assert_bad_input(&out, "animation 0 at ");
    let err = text(&out.stderr);
    assert!(
        err.contains("joint 3 (node ") && err.contains("skin it with lbs"),
        "{err}"
    );
}

/// `skin pose --format json` prints every joint's world matrix (column-major, model units),
/// equal to the f64 reference's forward kinematics of the same frame: f32 within 1e-5 of
/// the extent (plus rounding), fixed point within its pose format's step times the chain
/// (2⁻²⁴ asset units per product, a dozen joints deep, in 2⁴ model units: below 1e-4).
#[test]
fn pose_json_lists_every_joints_world_matrix() {
    use skin_tests::gltf_ref;
    let dir = tempfile::tempdir().unwrap();
    let model = write(dir.path(), "worm.glb", &Worm::default().build().glb());
    let reference = gltf_ref::load(Path::new(&model));
    let t = 0.3;
    let worlds = gltf_ref::worlds(&reference.doc, &gltf_ref::locals(&reference, Some(0), t));
    let joints: Vec<usize> = reference
        .doc
        .skins()
        .flat_map(|s| s.joints().map(|j| j.index()).collect::<Vec<_>>())
        .collect();
    for (arith, tol) in [("f32", 1e-5), ("fixed", 1e-4)] {
        let out = skin(&[
            "pose", &model, "--arith", arith, "--anim", "0", "--time", "0.3",
        ]);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON on stdout");
        let listed = v["joints"].as_array().expect("a joints array");
        assert_eq!(listed.len(), joints.len(), "{arith}");
        for j in listed {
            let node = j["node"].as_u64().unwrap() as usize;
            assert!(joints.contains(&node));
            let name = reference
                .doc
                .nodes()
                .nth(node)
                .unwrap()
                .name()
                .map(String::from);
            assert_eq!(j["name"].as_str().map(String::from), name);
            let got: Vec<f64> = j["world"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_f64().unwrap())
                .collect();
            assert_eq!(got.len(), 16);
            let w = worlds[node];
            for col in 0..4 {
                for row in 0..4 {
                    let (g, e) = (got[col * 4 + row], w[col][row]);
                    assert!(
                        (g - e).abs() <= tol,
                        "{arith} node {node} [{row}][{col}]: {g} vs {e}"
                    );
                }
            }
        }
    }
}

/// Six meshes with the same clean-up: one warning line naming the first three and the count,
/// every warning with `--verbose`; `pose --rest` is the rest pose and refuses `--anim` too.
#[test]
fn warnings_are_summarised_by_kind_and_pose_rest_is_the_rest_pose() {
    let dir = tempfile::tempdir().unwrap();
    let mut g = Worm {
        influences: 8,
        ..Worm::default()
    }
    .build();
    let mesh = g.json["meshes"][0].clone();
    for m in 1..6 {
        let mut copy = mesh.clone();
        copy["name"] = serde_json::json!(format!("part{m}"));
        g.json["meshes"].as_array_mut().unwrap().push(copy);
        let node = serde_json::json!({"mesh": m, "skin": 0});
        let nodes = g.json["nodes"].as_array_mut().unwrap();
        nodes.push(node);
        let n = nodes.len() - 1;
        g.json["scenes"][0]["nodes"]
            .as_array_mut()
            .unwrap()
            .push(serde_json::json!(n));
    }
    let model = write(dir.path(), "six.glb", &g.glb());
    let out = skin(&["pose", "--rest", &model]);
    let err = text(&out.stderr);
    assert!(out.status.success(), "{err}");
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 1, "{err}");
    assert!(
        lines[0].starts_with("skin: warning: more than 4 influences a vertex, reduced to the 4 largest: 6 (mesh 0 \"worm\" primitive 0, mesh 1 \"part1\" primitive 0, mesh 2 \"part2\" primitive 0 and 3 more; --verbose lists all)"),
        "{err}"
    );
    let verbose = skin(&["pose", "--verbose", &model]);
    let all = text(&verbose.stderr);
    let dropped = all.lines().filter(|l| l.contains("largest dropped weight"));
    assert_eq!(dropped.count(), 6, "{all}");
    // The worm has no normals: generated, a note that only --verbose prints.
    let notes = all.lines().filter(|l| l.contains("no NORMAL in the file"));
    assert_eq!(notes.count(), 6, "{all}");
    assert_eq!(all.lines().count(), 12, "{all}");
    // --rest is what leaving out --anim gives.
    assert_eq!(out.stdout, verbose.stdout);
    let pose: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(pose["animation"].is_null());
    assert_bad_input(
        &skin(&["pose", "--rest", "--anim", "0", &model]),
        "cannot be used with",
    );
}

/// `pose --skinning dqs`: the JSON of `pose`, marked `"skinning": "dqs"`, its positions
/// those of the library's DQS pose (`skin_host::pose::pose_with`); at rest (the bind pose)
/// the same as LBS up to rounding, and apart from LBS where the figure bends (CesiumMan).
#[test]
fn pose_skins_by_dual_quaternions() {
    use skin_host::pose::{pose_with, LaneKind, Skinning};
    let models = skin_tests::sample_models("pose_skins_by_dual_quaternions");
    let Some(path) = models
        .iter()
        .find(|p| p.file_name().is_some_and(|n| n == "CesiumMan.glb"))
    else {
        if !models.is_empty() {
            skin_tests::skip(
                "pose_skins_by_dual_quaternions",
                "CesiumMan.glb is not among the sample models",
            );
        }
        return;
    };
    let model = path.to_string_lossy();
    let rig = skin_host::import::from_path(path).unwrap();
    let flat = |blocks: &[skin_host::pose::PosedPrimitive]| -> Vec<f32> {
        blocks
            .iter()
            .flat_map(|b| b.positions.iter().flatten().copied())
            .collect()
    };
    for (arith, lane) in [("f32", LaneKind::F32), ("fixed", LaneKind::Fixed)] {
        for frame in [None, Some((0, 1.0f32))] {
            let mut args = vec!["pose", &model, "--arith", arith, "--skinning", "dqs"];
            let time = frame.map(|(_, t)| t.to_string()).unwrap_or_default();
            if frame.is_some() {
                args.extend(["--anim", "0", "--time", &time]);
            }
            let doc = pose_json(&args);
            assert_eq!(doc["skinning"], "dqs");
            let got: Vec<f32> = doc["blocks"]
                .as_array()
                .unwrap()
                .iter()
                .flat_map(|b| b["positions"].as_array().unwrap().clone())
                .map(|v| v.as_f64().unwrap() as f32)
                .collect();
            let dqs = flat(&pose_with(&rig, frame, lane, Skinning::Dqs).unwrap());
            let lbs = flat(&pose_with(&rig, frame, lane, Skinning::Lbs).unwrap());
            assert_eq!(got, dqs, "{arith} {frame:?}");
            let apart = dqs
                .iter()
                .zip(&lbs)
                .map(|(a, b)| (a - b).abs())
                .fold(0.0f32, f32::max);
            match frame {
                None => assert!(apart < 1e-3, "{arith}: rest pose {apart}"),
                Some(_) => assert!(apart > 1e-3, "{arith}: bent, yet DQS = LBS ({apart})"),
            }
        }
    }
}

/// A joint with a scale: `skin pose --skinning dqs` splits it (Kavan et al.) in `f32` and
/// in fixed point and poses the worm (the synthetic worm's clip scales its joints), where
/// LBS poses it too; the fixed lane's pose is the host's `f32` one within the fixed
/// lane's stretched bound; a method that does not exist is refused.
#[test]
fn pose_dqs_splits_a_scaled_joint_in_both_lanes() {
    let dir = tempfile::tempdir().unwrap();
    let model = write(dir.path(), "worm.glb", &Worm::default().build().glb());
    let clip = ["--anim", "0", "--time", "1"];
    let dqs = skin(&[&["pose", &model, "--skinning", "dqs"][..], &clip].concat());
    assert_eq!(dqs.status.code(), Some(0), "{}", text(&dqs.stderr));
    let lbs = skin(&[&["pose", &model, "--skinning", "lbs"][..], &clip].concat());
    assert_eq!(lbs.status.code(), Some(0));
    assert_ne!(
        dqs.stdout, lbs.stdout,
        "two methods, two poses of a bent worm"
    );
    let positions = |args: &[&str]| -> Vec<f64> {
        let doc = pose_json(&[args, &clip[..]].concat());
        doc["blocks"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|b| b["positions"].as_array().unwrap().clone())
            .map(|v| v.as_f64().unwrap())
            .collect()
    };
    let f32s = positions(&["pose", &model, "--skinning", "dqs"]);
    let fixed = positions(&["pose", &model, "--skinning", "dqs", "--arith", "fixed"]);
    let rig = skin_host::import::from_path(Path::new(&model)).unwrap();
    let k = skin_host::pose::fixed_unit(&rig).unwrap();
    let limit = skin_core::lane::fixed_stretch_error_bound(1.0, 2) * 2f64.powi(k);
    assert_eq!(fixed.len(), f32s.len());
    let apart = fixed
        .iter()
        .zip(&f32s)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f64::max);
    assert!(
        apart > 0.0 && apart <= limit,
        "fixed vs f32: {apart:e}, limit {limit:e}"
    );
    assert_bad_input(&skin(&["pose", &model, "--skinning", "sbs"]), "sbs");
}
