//! `skin validate` and `skin render` on synthetic glTF files and on every model in
//! ../shared/models: core `f32`, core fixed, GPU compute and GPU vertex shader against the
//! `f64` oracle, and the GPU picture against the CPU one.
//!
//! The command's own oracle (`skin_host::oracle`) is first checked against the independent
//! reference `skin_tests::gltf_ref`, and the thresholds below are computed here from that
//! reference's extent, not taken from the report: GPU `f32` (both paths) vs core `f32`
//! within 1e-5 of the bounding-box diagonal; every `f32` path vs the reference within
//! 1e-5 of it; fixed point within the core's documented bound (8.25·2⁻¹⁵ asset units plus
//! 10⁻⁶ for the pose, `core/src/lane/mod.rs`) plus that; GPU and CPU pictures equal on at
//! least 99 % of the pixels at 240×240 in every frame, by each skinning method.

use std::path::{Path, PathBuf};

use clap::Parser as _;
use skin_core::budget::{Budget, Layout};
use skin_core::lane::{fixed_dual_error_bound, fixed_stretch_error_bound};
use skin_core::tangent;
use skin_host::cli::{Cli, CliError};
use skin_host::gpu::{Model, Reference};
use skin_host::picture::Picture;
use skin_host::validate::{self, Options, Report};
use skin_host::{oracle, pose, Rig};
use skin_tests::gltf_gen::{
    many_skins, rigid_prop, ring_tangents, squash_stretch_worm, Interp, Worm, UNSIGNED_BYTE,
};
use skin_tests::gltf_ref;

/// A device, or `None` after reporting the skip.
fn gpu(test: &str) -> Option<Reference> {
    match Reference::new() {
        Ok(gpu) => Some(gpu),
        Err(e) => {
            skin_tests::skip(test, &e.to_string());
            None
        }
    }
}

/// Synthetic worms covering every interpolation, eight influences, integer weights,
/// missing inverse binds and a mesh reused by two skins, written to `dir`.
fn worms(dir: &Path) -> Vec<PathBuf> {
    let cases = [
        ("linear", Worm::default(), true),
        (
            "step",
            Worm {
                interp: Interp::Step,
                ..Worm::default()
            },
            false,
        ),
        (
            "cubic",
            Worm {
                interp: Interp::CubicSpline,
                influences: 8,
                weights: UNSIGNED_BYTE,
                ..Worm::default()
            },
            true,
        ),
        (
            "two",
            Worm {
                two_skins: true,
                inverse_binds: false,
                ..Worm::default()
            },
            true,
        ),
    ];
    cases
        .into_iter()
        .map(|(name, worm, glb)| {
            let g = worm.build();
            let path = dir.join(format!("{name}.{}", if glb { "glb" } else { "gltf" }));
            if glb {
                std::fs::write(&path, g.glb()).unwrap();
            } else {
                std::fs::write(&path, g.gltf()).unwrap();
            }
            path
        })
        .collect()
}

/// The rest pose and `fractions` of every clip, as `(anim, seconds)`.
fn cases(model: &gltf_ref::RefModel, fractions: &[f64]) -> Vec<Option<(usize, f32)>> {
    let mut out = vec![None];
    for (c, d) in gltf_ref::durations(model).iter().enumerate() {
        out.extend(fractions.iter().map(|f| Some((c, (f * d) as f32))));
    }
    out
}

/// The host oracle against the independent reference: positions within 1e-6 of the
/// extent (both `f64`; the host's starts from the importer's `f32` rig).
fn check_oracle(path: &Path) -> f64 {
    let rig = skin_host::import::from_path(path).unwrap();
    let model = gltf_ref::load(path);
    let extent = gltf_ref::extent(&gltf_ref::pose(&model, None, 0.0));
    let mut worst = 0.0f64;
    for anim in cases(&model, &[0.0, 0.21, 0.5, 0.77, 1.0]) {
        let want = gltf_ref::pose(
            &model,
            anim.map(|a| a.0),
            anim.map_or(0.0, |a| f64::from(a.1)),
        );
        let got = oracle::pose(&rig, anim.map(|(c, t)| (c, f64::from(t)))).unwrap();
        assert_eq!(got.len(), want.len());
        for (g, w) in got.iter().zip(&want) {
            assert_eq!((g.node, g.mesh, g.primitive), (w.node, w.mesh, w.primitive));
            for (p, q) in g.positions.iter().zip(&w.positions) {
                for i in 0..3 {
                    worst = worst.max((p[i] - q[i]).abs() / extent);
                }
            }
            // Skinned normals are unit (or zero).
            for n in g.normals.iter().flatten() {
                let len = n.iter().map(|c| c * c).sum::<f64>().sqrt();
                assert!(len == 0.0 || (len - 1.0).abs() < 1e-12);
            }
        }
    }
    assert!(
        worst <= 1e-6,
        "{}: oracle vs gltf_ref {worst:e}",
        path.display()
    );
    worst
}

#[test]
fn the_commands_oracle_agrees_with_the_independent_reference() {
    let dir = tempfile::tempdir().unwrap();
    for path in worms(dir.path()) {
        check_oracle(&path);
    }
    for path in
        skin_tests::sample_models("the_commands_oracle_agrees_with_the_independent_reference")
    {
        let worst = check_oracle(&path);
        eprintln!(
            "{}: oracle vs gltf_ref {worst:.1e} of the extent",
            path.display()
        );
    }
}

/// Validate `path` and check the report against thresholds computed from the independent
/// reference; also the GPU compute path directly against that reference.
fn check_validate(gpu: &Reference, path: &Path, options: &Options) -> Report {
    let rig = skin_host::import::from_path(path).unwrap();
    let model = gltf_ref::load(path);
    let extent = gltf_ref::extent(&gltf_ref::pose(&model, None, 0.0));
    let name = path.display();
    let mut calls = 0;
    let report = validate::validate(&rig, gpu, options, |done, total| {
        calls += 1;
        assert_eq!(done, calls);
        assert_eq!(total, validate::frames(&rig, options).len());
    })
    .unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(calls, report.frames.len());
    assert!(
        (report.extent - extent).abs() <= 1e-6 * extent,
        "{name}: extent {} vs {extent}",
        report.extent
    );
    let k = pose::asset_unit(&rig);
    let f32_tol = 1e-5 * extent;
    let fixed_tol = (8.25 / 32768.0 + 1e-6) * 2f64.powi(k) + f32_tol;
    // DQS's fixed bound at the smallest norm a blend can have (¼: the lead weight is at
    // least ¼ and every term lies in its hemisphere); with joints of scale or shear at some
    // validated frame, the stretched bound at the largest exponent.
    let stretched = validate::frames(&rig, options)
        .iter()
        .any(|f| pose::palette::fixed_stretch_exponent(&rig, f.anim).is_ok_and(|e| e.is_some()));
    let dual_bound = match stretched {
        true => fixed_stretch_error_bound(0.25, 2),
        false => fixed_dual_error_bound(0.25),
    };
    let dual_tol = (dual_bound + 1e-6) * 2f64.powi(k) + f32_tol;
    // Tangents: the fixed lane's derived bounds (skin_core::tangent) at the shortest blend
    // these models have (½) and the largest palette exponent, or DQS's smallest norm.
    let tangent_tol = tangent::fixed_error_bound(0.5, 2) + 1e-5;
    let dual_tangent_tol = tangent::fixed_dual_error_bound(0.25) + 1e-5;
    for row in report.rows.iter().filter(|r| r.unavailable.is_none()) {
        let tol = match (row.path, row.against, row.normals) {
            ("core fixed", "f64 tangents", _) => tangent_tol,
            ("dqs core fixed", "f64 tangents", _) => dual_tangent_tol,
            (_, _, true) => 1e-5,
            ("core fixed", _, _) => fixed_tol,
            ("dqs core fixed", _, _) => dual_tol,
            _ => f32_tol,
        };
        assert!(
            row.errors.max <= tol,
            "{name}: {} vs {}: {:e} > {tol:e}",
            row.path,
            row.against,
            row.errors.max
        );
        if !row.normals || row.against.ends_with("tangents") {
            assert!(
                row.errors.count > 0,
                "{name}: {} vs {} compared nothing",
                row.path,
                row.against
            );
        }
    }
    assert_eq!(report.undrawn, 0);
    assert!(
        report.failures().is_empty(),
        "{name}: {:?}",
        report.failures()
    );
    // The worst frame's pictures, counted here.
    let (g, c) = report.worst.as_ref().expect("pictures");
    assert_eq!(
        (g.width, g.height),
        (u32::from(options.size.0), u32::from(options.size.1))
    );
    let differing = g
        .pixels
        .iter()
        .zip(&c.pixels)
        .filter(|(a, b)| a != b)
        .count();
    assert_eq!(differing, report.pictures.worst_differing);
    assert!(
        differing * 100 <= g.pixels.len(),
        "{name}: {differing} pixels differ"
    );
    let background = skin_core::scene::BACKGROUND;
    let drawn = c.pixels.iter().filter(|&&p| p != background).count();
    // In view: the thin worms cover a few hundred pixels at least, the sample models more.
    assert!(drawn >= 200, "{name}: the model covers {drawn} pixels");
    // Dual quaternion skinning's pictures, where the rig allows them: every frame drawn.
    if let Some(Ok(p)) = &report.dual_pictures {
        assert_eq!(p.frames, report.frames.len(), "{name}");
        assert!(p.worst >= report.pixel_limit, "{name}: {p:?}");
    }

    // GPU compute directly against the independent reference at a few times.
    let split = Model::new(&rig, options.budget, options.layout).unwrap();
    for anim in cases(&model, &[0.3, 0.8]) {
        let want = gltf_ref::pose(
            &model,
            anim.map(|a| a.0),
            anim.map_or(0.0, |a| f64::from(a.1)),
        );
        let palettes = split.palettes(&rig, anim).unwrap();
        for (p, prim) in split.primitives.iter().enumerate() {
            let got = gpu.skin_compute(&prim.whole, &palettes[p]).unwrap();
            for (g, q) in got.positions.iter().zip(&want[p].positions) {
                for i in 0..3 {
                    let err = (f64::from(g[i]) - q[i]).abs();
                    assert!(err <= f32_tol, "{name} {anim:?}: {g:?} vs {q:?}");
                }
            }
        }
    }
    report
}

#[test]
fn validate_passes_on_synthetic_models_with_and_without_splits() {
    let Some(gpu) = gpu("validate_passes_on_synthetic_models_with_and_without_splits") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    for path in worms(dir.path()) {
        let rig = skin_host::import::from_path(&path).unwrap();
        let primitives = Model::new(&rig, Budget::VS_2_0, Layout::Affine3x4)
            .unwrap()
            .primitives
            .len();
        let whole = check_validate(
            &gpu,
            &path,
            &Options {
                frames: 5,
                ..Options::default()
            },
        );
        assert_eq!(
            whole.draw_calls,
            primitives,
            "{}: one draw call a primitive",
            path.display()
        );
        // Both methods by default. The worms' clips scale a joint: DQS splits it (Kavan et
        // al.) in core f32 and fixed, on both GPU paths and in the oracle, and every such
        // row is compared and passes.
        let dqs: Vec<_> = whole
            .rows
            .iter()
            .filter(|r| r.path.starts_with("dqs "))
            .collect();
        assert_eq!(dqs.len(), 8, "{}", path.display());
        assert!(
            dqs.iter().all(|r| r.unavailable.is_none() && r.passes()),
            "{}: {dqs:?}",
            path.display()
        );
        assert_eq!(whole.dual_draw_calls, Some(primitives));
        // Nine matrices a palette (GL_OES_matrix_palette) splits the ten-bone worms.
        let split = check_validate(
            &gpu,
            &path,
            &Options {
                frames: 3,
                budget: Budget::OES_MATRIX_PALETTE,
                layout: Layout::Mat4x4,
                size: (240, 240),
                clips: None,
                // No dual quaternion fits its nine matrices: DQS is not available.
                skinning: vec![pose::Skinning::Lbs, pose::Skinning::Dqs],
            },
        );
        assert!(
            split.draw_calls > primitives,
            "{}: {} draw calls",
            path.display(),
            split.draw_calls
        );
        let why = split
            .rows
            .iter()
            .filter(|r| r.path.starts_with("dqs "))
            .map(|r| r.unavailable.as_deref().unwrap_or("available"))
            .collect::<Vec<_>>();
        assert!(
            why.len() == 8 && why.iter().all(|w| w.contains("holds no dq bones")),
            "{why:?}"
        );
    }
}

/// Several skins and a rigid mesh on an animated joint in one scene: four 43-joint skins
/// over 69 joints and a prop on joint 3, which the clip turns. Every path (core `f32` and
/// fixed, GPU compute and vertex shader) within its threshold, whole and split.
#[test]
fn validate_passes_on_several_skins_and_a_rigid_prop() {
    let Some(gpu) = gpu("validate_passes_on_several_skins_and_a_rigid_prop") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut g = many_skins(4, 43, 69);
    rigid_prop(&mut g, 4);
    let path = dir.path().join("four-skins.glb");
    std::fs::write(&path, g.glb()).unwrap();
    let rig = skin_host::import::from_path(&path).unwrap();
    assert_eq!((rig.skins.len(), rig.mesh_nodes().count()), (4, 5));
    for (budget, layout) in [
        (Budget::VS_2_0, Layout::Affine3x4),
        (Budget::VS_1_1, Layout::Affine3x4),
    ] {
        let report = check_validate(
            &gpu,
            &path,
            &Options {
                frames: 4,
                budget,
                layout,
                ..Options::default()
            },
        );
        assert!(report.draw_calls >= 5, "{}", report.draw_calls);
    }
}

/// Two samples merged into one scene of several skins (`skin_tests::rescale::merged`):
/// CesiumMan, and RiggedFigure beside it with its armature at Blender's ×100, their first
/// clips played together. Every path (core `f32` and fixed, GPU compute and vertex shader,
/// by both skinning methods) within its threshold of the command's oracle, and the GPU's
/// pictures the CPU's.
#[test]
fn validate_passes_on_two_merged_samples() {
    let test = "validate_passes_on_two_merged_samples";
    let Some(dir) = skin_tests::models_dir() else {
        skin_tests::skip(test, "../shared/models is not present (set SKIN_MODELS)");
        return;
    };
    let Some(gpu) = gpu(test) else {
        return;
    };
    let import = |name: &str| skin_host::import::from_path(&dir.join(name)).unwrap();
    let b = skin_tests::rescale::rescaled(&import("RiggedFigure.glb"), 100.0);
    let b = skin_tests::rescale::shifted(&b, [1.0, 0.0, 0.0]);
    let a = import("CesiumMan.glb");
    let rig = skin_tests::rescale::merged(&a, &b);
    assert_eq!(rig.skins.len(), a.skins.len() + b.skins.len());
    let options = Options {
        frames: 4,
        ..Options::default()
    };
    let report = validate::validate(&rig, &gpu, &options, |_, _| {}).unwrap();
    assert!(report.frames.len() >= 4, "{}", report.frames.len());
    assert!(report.rows.iter().all(|r| r.unavailable.is_none()));
    assert!(report.failures().is_empty(), "{:?}", report.failures());
}

#[test]
fn validate_passes_on_every_sample_model() {
    let models = skin_tests::sample_models("validate_passes_on_every_sample_model");
    let Some(gpu) = gpu("validate_passes_on_every_sample_model") else {
        return;
    };
    for path in models {
        let report = check_validate(
            &gpu,
            &path,
            &Options {
                frames: 6,
                ..Options::default()
            },
        );
        let dual = match &report.dual_pictures {
            Some(Ok(p)) => format!("{:.3} % equal", 100.0 * p.worst),
            Some(Err(why)) => format!("not compared: {why}"),
            None => "not validated".into(),
        };
        eprintln!(
            "{}: worst picture {:.3} % equal, dqs {dual}",
            path.display(),
            100.0 * report.pictures.worst
        );
    }
}

/// The tangent rows of one report: those compared against `… tangents`.
fn tangent_rows(report: &Report) -> Vec<&validate::Row> {
    let rows = report.rows.iter();
    rows.filter(|r| r.against.ends_with("tangents")).collect()
}

/// A worm given `NORMAL`s and `TANGENT`s (`gltf_gen::ring_tangents`): six tangent rows a
/// method, each compared on every vertex and within its limit; with the clip's scaled joint,
/// dual quaternion skinning's tangent rows are not available (the core's palette and the
/// GPU refuse the stretch, each saying so) while linear blend skinning's pass. A model
/// without tangents has none of these rows, and says so.
#[test]
fn validate_compares_tangents_like_normals() {
    let Some(gpu) = gpu("validate_compares_tangents_like_normals") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    for (name, scaled) in [("rigid", false), ("scaled", true)] {
        let mut g = Worm {
            scale_channel: scaled,
            ..Worm::default()
        }
        .build();
        let given = ring_tangents(&mut g, 0);
        let path = dir.path().join(format!("{name}.glb"));
        std::fs::write(&path, g.glb()).unwrap();
        let rig = skin_host::import::from_path(&path).unwrap();
        assert_eq!(
            rig.meshes[0].primitives[0].tangents.as_ref(),
            Some(&given[0])
        );
        let options = Options {
            frames: 4,
            ..Options::default()
        };
        let report = check_validate(&gpu, &path, &options);
        assert_eq!(report.tangents, 63, "{name}: 21 rings of 3");
        let rows = tangent_rows(&report);
        assert_eq!(rows.len(), 12, "{name}: {rows:?}");
        let frames = report.frames.len();
        for r in &rows {
            let what = format!("{name}: {} vs {}", r.path, r.against);
            match (&r.unavailable, scaled && r.path.starts_with("dqs ")) {
                (None, false) => {
                    assert!(r.passes(), "{what}: {r:?}");
                    // Every vertex of every frame (the vertex path: its split copies too).
                    assert!(r.errors.count >= 63 * frames, "{what}: {r:?}");
                }
                (Some(why), true) if r.path.starts_with("dqs gpu") => {
                    assert!(why.contains("scale or shear"), "{what}: {why}");
                }
                (Some(why), true) => {
                    assert!(
                        why.contains("joint 3 (node 4 \"bone0_3\")"),
                        "{what}: {why}"
                    );
                }
                _ => panic!("{what}: {r:?}"),
            }
        }
        // The fixed rows measure something: the lane's rounding shows, within its bound.
        let fixed = rows.iter().find(|r| r.path == "core fixed").unwrap();
        assert!(fixed.errors.max > 1e-6, "{name}: {fixed:?}");
        for r in rows.iter().filter(|r| r.unavailable.is_none()) {
            let (max, limit) = (r.errors.max, r.limit);
            eprintln!(
                "{name}: {} vs {}: {max:.2e} (limit {limit:.2e})",
                r.path, r.against
            );
        }
        let table = report.table(name);
        assert!(
            table.contains("| core fixed | f64 tangents |")
                && table.contains("| dqs gpu vertex | core f32 tangents |")
                && table.contains("- tangents: 63 vertices with `TANGENT`"),
            "{table}"
        );
    }
    // The plain worm: no tangents, no tangent rows, one line saying so.
    let path = &worms(dir.path())[0];
    let rig = skin_host::import::from_path(path).unwrap();
    let options = Options {
        frames: 1,
        ..Options::default()
    };
    let report = validate::validate(&rig, &gpu, &options, |_, _| {}).unwrap();
    assert!(tangent_rows(&report).is_empty() && report.rows.len() == 16);
    assert!(report
        .table("linear.glb")
        .contains("- tangents: no primitive has `TANGENT` (no tangent rows)"));
}

/// AnimatedMorphCube, a Khronos sample with `TANGENT`s (a rigid mesh under a node the clip
/// does not move; its morph targets' tangent deltas are not read): its tangent rows,
/// compared on every vertex, pass.
#[test]
fn validate_compares_the_morph_cubes_tangents() {
    let test = "validate_compares_the_morph_cubes_tangents";
    let Some(dir) = skin_tests::models_dir() else {
        skin_tests::skip(test, "../shared/models is not present");
        return;
    };
    let Some(gpu) = gpu(test) else {
        return;
    };
    let rig = skin_host::import::from_path(&dir.join("morph/AnimatedMorphCube.glb")).unwrap();
    let options = Options {
        frames: 3,
        ..Options::default()
    };
    let report = validate::validate(&rig, &gpu, &options, |_, _| {}).unwrap();
    assert!(report.failures().is_empty(), "{:?}", report.failures());
    let rows = tangent_rows(&report);
    assert_eq!(rows.len(), 12, "{rows:?}");
    assert!(report.tangents > 0);
    for r in rows.iter().filter(|r| r.unavailable.is_none()) {
        assert!(
            r.errors.count >= report.tangents * report.frames.len(),
            "{r:?}"
        );
        assert!(r.passes(), "{r:?}");
    }
    // Only the fixed lane may be out of range (the cube's node scales it by 100).
    for r in rows.iter().filter(|r| r.unavailable.is_some()) {
        assert!(r.path.contains("core fixed"), "{r:?}");
    }
    eprintln!("{}", report.table("AnimatedMorphCube.glb"));
}

#[test]
fn failures_name_what_exceeded_its_threshold() {
    let Some(gpu) = gpu("failures_name_what_exceeded_its_threshold") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let path = &worms(dir.path())[0];
    let rig = skin_host::import::from_path(path).unwrap();
    let options = Options {
        frames: 2,
        ..Options::default()
    };
    let mut report = validate::validate(&rig, &gpu, &options, |_, _| {}).unwrap();
    assert!(report.table("linear.glb").contains("Result: **pass**."));
    report.rows[3].errors.max = report.rows[3].limit * 2.0;
    // The worm's clip scales a joint: its DQS pictures are compared all the same (the
    // asset is baked with stretches), every frame.
    assert!(
        matches!(&report.dual_pictures, Some(Ok(p)) if p.frames == report.frames.len()),
        "{:?}",
        report.dual_pictures
    );
    report.pictures.worst = 0.9;
    let failures = report.failures();
    assert_eq!(failures.len(), 2, "{failures:?}");
    assert!(
        failures[0].starts_with("gpu vertex vs f64: max error"),
        "{failures:?}"
    );
    assert!(
        failures[1].starts_with("pictures: 90.00 % of pixels agree"),
        "{failures:?}"
    );
    let table = report.table("linear.glb");
    assert!(
        table.contains("| gpu vertex | f64 |") && table.contains("**FAIL**"),
        "{table}"
    );
    // What validation cannot start on is an error, not a report.
    for bad in [
        Options {
            frames: 0,
            ..options.clone()
        },
        Options {
            clips: Some(vec![7]),
            ..options.clone()
        },
        Options {
            layout: Layout::DualQuat,
            ..options.clone()
        },
    ] {
        assert!(
            validate::validate(&rig, &gpu, &bad, |_, _| {}).is_err(),
            "{bad:?}"
        );
    }
}

/// Run `skin ARGS…` in-process: stdout, and the exit status `main` would give.
fn skin(args: &[&str]) -> (String, u8) {
    let cli = match Cli::try_parse_from(std::iter::once("skin").chain(args.iter().copied())) {
        Ok(cli) => cli,
        Err(_) => return (String::new(), 2),
    };
    let (mut out, mut warn) = (Vec::new(), Vec::new());
    let status = match skin_host::cli::run(cli, &mut out, &mut warn) {
        Ok(()) => 0,
        Err(e) => {
            assert!(!e.to_string().contains('\n'), "one line: {e}");
            CliError::status(&e)
        }
    };
    (String::from_utf8(out).unwrap(), status)
}

#[test]
fn the_cli_renders_and_validates() {
    let dir = tempfile::tempdir().unwrap();
    let model = worms(dir.path())[0].to_string_lossy().into_owned();
    let out = |name: &str| dir.path().join(name).to_string_lossy().into_owned();
    // Bad input: exit status 2, before any GPU work.
    for args in [
        vec![
            "render",
            &model,
            "--backend",
            "gpu",
            "--arith",
            "fixed",
            "-o",
            "x.png",
        ],
        vec!["render", &model, "--size", "0x10", "-o", "x.png"],
        vec!["render", &model, "--size", "big", "-o", "x.png"],
        vec!["render", &model, "--anim", "nope", "-o", "x.png"],
        vec!["render", &model, "--budget", "vs_9_9", "-o", "x.png"],
        vec!["render", "/no/such/file.glb", "-o", "x.png"],
        vec!["validate", &model, "--frames", "0"],
        vec!["validate", &model, "--layout", "dq"],
        vec!["validate", &model, "--anim", "7"],
    ] {
        assert_eq!(skin(&args).1, 2, "{args:?}");
    }
    // The CPU renderer needs no GPU; in f32 and fixed point it draws the same worm.
    let (cpu_f32, cpu_fixed) = (out("cpu.png"), out("fixed.png"));
    let (text, status) = skin(&[
        "render",
        &model,
        "--backend",
        "cpu",
        "--anim",
        "0",
        "--time",
        "0.5",
        "--size",
        "96x64",
        "-o",
        &cpu_f32,
    ]);
    assert_eq!(status, 0);
    assert!(text.contains("96x64 CPU (f32) picture"), "{text}");
    assert_eq!(
        skin(&[
            "render",
            &model,
            "--backend",
            "cpu",
            "--arith",
            "fixed",
            "--anim",
            "0",
            "--time",
            "0.5",
            "--size",
            "96x64",
            "-o",
            &cpu_fixed
        ])
        .1,
        0
    );
    let (a, b) = (
        Picture::load_png(Path::new(&cpu_f32)).unwrap(),
        Picture::load_png(Path::new(&cpu_fixed)).unwrap(),
    );
    assert_eq!((a.width, a.height), (96, 64));
    assert!(a.difference(&b).unwrap().agreement() >= 0.97);
    // Looped time: 2.5 s of the 2-second clip is 0.5 s.
    let looped = out("looped.png");
    assert_eq!(
        skin(&[
            "render",
            &model,
            "--backend",
            "cpu",
            "--anim",
            "0",
            "--time",
            "2.5",
            "--size",
            "96x64",
            "-o",
            &looped
        ])
        .1,
        0
    );
    assert_eq!(Picture::load_png(Path::new(&looped)).unwrap(), a);

    if gpu("the_cli_renders_and_validates").is_none() {
        return;
    }
    let gpu_png = out("gpu.png");
    assert_eq!(
        skin(&[
            "render", &model, "--anim", "0", "--time", "0.5", "--size", "96x64", "-o", &gpu_png
        ])
        .1,
        0
    );
    let g = Picture::load_png(Path::new(&gpu_png)).unwrap();
    assert!(g.difference(&a).unwrap().agreement() >= 0.99);
    let pictures = out("pair.png");
    let (text, status) = skin(&["validate", &model, "--frames", "3", "--pictures", &pictures]);
    assert_eq!(status, 0, "{text}");
    assert!(text.contains("| gpu vertex | core f32 |"), "{text}");
    assert!(text.contains("Result: **pass**."), "{text}");
    let pair = Picture::load_png(Path::new(&pictures)).unwrap();
    assert_eq!((pair.width, pair.height), (3 * 240 + 2 * 4, 240));
}

/// The rest pose, then `frames` times spread over each clip's loop.
#[test]
fn validate_frames_cover_each_clip_evenly() {
    let dir = tempfile::tempdir().unwrap();
    let path = &worms(dir.path())[0];
    let rig: Rig = skin_host::import::from_path(path).unwrap();
    let frames = validate::frames(
        &rig,
        &Options {
            frames: 4,
            ..Options::default()
        },
    );
    let times: Vec<Option<(usize, f32)>> = frames.iter().map(|f| f.anim).collect();
    assert_eq!(
        times,
        [
            None,
            Some((0, 0.0)),
            Some((0, 0.5)),
            Some((0, 1.0)),
            Some((0, 1.5))
        ]
    );
}

/// A model the fixed lane cannot hold (a joint turned 45° and scaled 6: palette rows
/// summing to 8.49, beyond the 8 of I2F14 at the largest palette exponent) is validated on every other path; its core fixed row
/// says why it is not available, and nothing fails.
#[test]
fn a_model_beyond_the_fixed_lane_reports_every_other_row() {
    let mut g = skin_tests::gltf_gen::keyed_triangle(1.0, &[0.0, 1.0], "translation", &[0.0; 6]);
    let (s, c) = (22.5f32.to_radians().sin(), 22.5f32.to_radians().cos());
    g.json["nodes"][0]["rotation"] = serde_json::json!([0.0, 0.0, s, c]);
    g.json["nodes"][0]["scale"] = serde_json::json!([6.0, 6.0, 6.0]);
    let rig = skin_host::import::from_slice(&g.glb(), None).unwrap();
    let options = Options::default();
    let why = validate::fixed_unavailable(&rig, &options).expect("fixed cannot hold it");
    assert!(why.contains("row summing to 8.4853"), "{why}");
    // It names the joint and its node, the limit, and what the user can do.
    for part in [
        "skin 0 joint 0 (node 0",
        "summing below 8",
        "use --arith f32",
    ] {
        assert!(why.contains(part), "{part:?} not in: {why}");
    }
    let Some(gpu) = gpu("a_model_beyond_the_fixed_lane_reports_every_other_row") else {
        return;
    };
    let report = validate::validate(&rig, &gpu, &options, |_, _| {}).unwrap();
    let fixed = report.rows.iter().find(|r| r.path == "core fixed").unwrap();
    assert_eq!(fixed.unavailable.as_deref(), Some(why.as_str()));
    assert_eq!(fixed.errors.count, 0);
    let others: Vec<_> = report
        .rows
        .iter()
        .filter(|r| r.path != "core fixed")
        .collect();
    assert!(others.iter().any(|r| r.errors.count > 0 && !r.normals));
    assert!(report.failures().is_empty(), "{:?}", report.failures());
    let table = report.table("m");
    assert!(
        table.contains(&format!("| core fixed | f64 | not available: {why} |")),
        "{table}"
    );
    assert!(table.contains("Result: **pass**"), "{table}");
}

/// Lit pixels in the middle column of each `width`-wide picture of a row of `n` pictures
/// `gap` pixels apart.
fn middle_lit(p: &Picture, n: u32, width: u32, gap: u32) -> Vec<usize> {
    let background = skin_core::scene::BACKGROUND;
    (0..n)
        .map(|i| {
            let x = i * (width + gap) + width / 2;
            (0..p.height)
                .filter(|&y| p.pixels[(y * p.width + x) as usize] != background)
                .count()
        })
        .collect()
}

#[test]
fn the_candy_wrapper_validates_and_renders_by_both_methods() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("candy.glb");
    std::fs::write(&model, skin_tests::gltf_gen::candy_wrapper(17).glb()).unwrap();
    let model = model.to_string_lossy().into_owned();
    let png = dir.path().join("candy.png").to_string_lossy().into_owned();
    // `render` at the end of the clip, 120×90, with `extra` arguments.
    let render_end = |extra: &[&str]| {
        let base = [
            "render", &model, "--anim", "0", "--time", "0.999", "--size", "120x90",
        ];
        skin(&[&base[..], extra, &["-o", &png]].concat())
    };
    // The CPU renderer plays the asset baked for either method, in either lane: at the end
    // of the clip LBS pinches the tube's middle to its axis, DQS keeps it.
    let cpu_lit = |arith: &str, skinning: &str| {
        let args = ["--backend", "cpu", "--arith", arith, "--skinning", skinning];
        let (text, status) = render_end(&args);
        assert_eq!(status, 0, "{args:?}: {text}");
        middle_lit(&Picture::load_png(Path::new(&png)).unwrap(), 1, 120, 0)[0]
    };
    for arith in ["f32", "fixed"] {
        let (lbs, dqs) = (cpu_lit(arith, "lbs"), cpu_lit(arith, "dqs"));
        assert!(
            lbs * 4 < dqs,
            "{arith}: middle column lit: LBS {lbs} vs DQS {dqs}"
        );
    }
    // A joint with scale (the worm's clip scales one) is split (Kavan et al.): the CPU draws
    // it by DQS, and the picture differs from LBS's where the bone is stretched.
    let worm = worms(dir.path())[0].to_string_lossy().into_owned();
    let worm_png = |skinning: &str| {
        let args = [
            "render",
            &worm,
            "--anim",
            "0",
            "--time",
            "1",
            "--backend",
            "cpu",
            "--skinning",
            skinning,
            "-o",
            &png,
        ];
        let (out, status) = skin(&args);
        assert_eq!(status, 0, "{args:?}: {out}");
        Picture::load_png(Path::new(&png)).unwrap()
    };
    assert_ne!(worm_png("dqs").pixels, worm_png("lbs").pixels);
    let Some(gpu) = gpu("the_candy_wrapper_validates_and_renders_by_both_methods") else {
        return;
    };
    // Rigid joints: every row of both methods ran and passes.
    let path = Path::new(&model);
    let report = check_validate(
        &gpu,
        path,
        &Options {
            frames: 4,
            ..Options::default()
        },
    );
    assert_eq!(report.rows.len(), 16);
    assert!(report.rows.iter().all(|r| r.unavailable.is_none()));
    // The DQS pictures, compared in every frame, and failing under the limit.
    let Some(Ok(dual)) = report.dual_pictures else {
        panic!("no DQS pictures: {:?}", report.dual_pictures);
    };
    eprintln!(
        "candy wrapper: DQS pictures at worst {:.3} % equal",
        100.0 * dual.worst
    );
    let mut failing = report.clone();
    failing.dual_pictures = Some(Ok(validate::Pictures { worst: 0.9, ..dual }));
    let failures = failing.failures();
    assert_eq!(failures.len(), 1, "{failures:?}");
    assert!(
        failures[0].starts_with("dqs pictures: 90.00 % of pixels agree in "),
        "{failures:?}"
    );
    let (table, status) = skin(&["validate", &model, "--frames", "2", "--skinning", "dqs"]);
    assert_eq!(status, 0, "{table}");
    assert!(table.contains("| dqs gpu vertex | core f32 |"), "{table}");
    assert!(!table.contains("| core f32 | f64 |"), "{table}");
    assert!(table.contains("\nPictures (dqs) 240x240, "), "{table}");
    // CPU and GPU DQS side by side, with the GPU's camera framed by the DQS asset.
    let (text, status) = render_end(&["--backend", "compare", "--skinning", "dqs"]);
    assert_eq!(status, 0, "{text}");
    assert!(
        text.contains("368x90 CPU | GPU | difference x8 (dqs) picture"),
        "{text}"
    );
    let p = Picture::load_png(Path::new(&png)).unwrap();
    let at = |x: u32, y: u32| p.pixels[(y * p.width + x) as usize];
    let differ = (0..90)
        .flat_map(|y| (0..120).map(move |x| (x, y)))
        .filter(|&(x, y)| at(x, y) != at(x + 124, y))
        .count();
    assert!(differ * 100 <= 120 * 90, "{differ} pixels differ");
    // Its CPU picture is `--backend cpu`'s.
    assert_eq!(middle_lit(&p, 1, 120, 0)[0], cpu_lit("f32", "dqs"));
    // Both methods side by side at `time`: the lit pixels of each picture's middle column.
    let side_by_side = |time: &str| {
        let args = [
            "render",
            &model,
            "--anim",
            "0",
            "--time",
            time,
            "--backend",
            "lbs-dqs",
            "--size",
            "120x90",
            "-o",
            &png,
        ];
        let (text, status) = skin(&args);
        assert_eq!(status, 0, "{text}");
        assert!(text.contains("244x90 GPU lbs | GPU dqs picture"), "{text}");
        middle_lit(&Picture::load_png(Path::new(&png)).unwrap(), 2, 120, 4)
    };
    // At the end of the clip (180°; the time loops, so just before it) LBS pinches the
    // tube's middle to its axis; DQS keeps it.
    let lit = side_by_side("0.999");
    assert!(
        lit[0] * 4 < lit[1],
        "middle column lit: LBS {} vs DQS {}",
        lit[0],
        lit[1]
    );
    // At the start both methods draw the same tube.
    let lit = side_by_side("0");
    assert_eq!(lit[0], lit[1]);
    // DQS alone on a rig with a scaled joint (the worm's clip scales one): Kavan's split on
    // every path, its rows compared and passing, the fixed lane's included, and its
    // pictures (the asset baked with stretches) too.
    let args = ["validate", &worm, "--frames", "2", "--skinning", "dqs"];
    let (table, status) = skin(&args);
    assert_eq!(status, 0, "{args:?}: {table}");
    for path in [
        "dqs core f32",
        "dqs core fixed",
        "dqs gpu compute",
        "dqs gpu vertex",
    ] {
        assert!(table.contains(&format!("| {path} | f64 | ")), "{table}");
    }
    assert!(
        table.contains("Pictures (dqs)")
            && !table.contains("not compared")
            && !table.contains("not available")
            && !table.contains("FAIL"),
        "{table}"
    );
}

/// `skin render` draws joints with scale by DQS on the GPU (Kavan's split): the per-axis
/// squash-and-stretch worm, LBS beside DQS, at rest and at the key that stretches its last
/// bone 4× across the chain: both methods draw the widened bone alike, and DQS's picture
/// grows with it; the GPU alone by DQS draws the same picture as its half.
#[test]
fn the_gpu_renders_scaled_joints_by_dqs() {
    if gpu("the_gpu_renders_scaled_joints_by_dqs").is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let worm = dir.path().join("squash.glb");
    std::fs::write(&worm, squash_stretch_worm(false).glb()).unwrap();
    let (worm, png) = (
        worm.to_string_lossy().into_owned(),
        dir.path().join("p.png").to_string_lossy().into_owned(),
    );
    let background = skin_core::scene::BACKGROUND;
    let render = |time: &str, backend: &[&str]| {
        let mut args = vec!["render", &worm, "--anim", "0", "--time", time];
        args.extend_from_slice(backend);
        args.extend_from_slice(&["--size", "120x90", "-o", &png]);
        let (text, status) = skin(&args);
        assert_eq!(status, 0, "{args:?}: {text}");
        Picture::load_png(Path::new(&png)).unwrap()
    };
    // Lit pixels of the 120-pixel-wide picture starting at column `x0`.
    let lit = |p: &Picture, x0: u32| {
        (0..p.height)
            .flat_map(|y| (x0..x0 + 120).map(move |x| (x, y)))
            .filter(|&(x, y)| p.pixels[(y * p.width + x) as usize] != background)
            .count()
    };
    let rest = render("0", &["--backend", "lbs-dqs"]);
    let stretched = render("0.5", &["--backend", "lbs-dqs"]);
    let (lbs, dqs) = (lit(&stretched, 0), lit(&stretched, 124));
    assert!(
        lbs.abs_diff(dqs) * 10 <= lbs,
        "LBS {lbs} and DQS {dqs} lit pixels"
    );
    let before = lit(&rest, 124);
    assert!(
        dqs * 10 > before * 12,
        "the 4x bone widens the DQS picture: {before} -> {dqs} lit pixels"
    );
    let alone = render("0.5", &["--backend", "gpu", "--skinning", "dqs"]);
    let half: Vec<_> = (0..90)
        .flat_map(|y| (124..244).map(move |x| (x, y)))
        .map(|(x, y)| stretched.pixels[(y * stretched.width + x) as usize])
        .collect();
    assert_eq!(alone.pixels, half);
}

#[test]
fn the_gpu_renders_morph_targets_at_the_weights_given() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("face.glb");
    std::fs::write(&model, skin_tests::gltf_gen::morph_triangle("LINEAR").glb()).unwrap();
    let model = model.to_string_lossy().into_owned();
    let png = |name: &str| dir.path().join(name).to_string_lossy().into_owned();
    // Refused before any GPU work: beyond the range, the wrong count, not a number.
    for args in [
        vec![
            "render",
            &model,
            "--backend",
            "cpu",
            "--weights",
            "0,2",
            "-o",
            "x.png",
        ],
        vec!["render", &model, "--weights", "1", "-o", "x.png"],
        vec!["render", &model, "--weights", "0,NaN", "-o", "x.png"],
    ] {
        assert_eq!(skin(&args).1, 2, "{args:?}");
    }
    let Some(_) = gpu("the_gpu_renders_morph_targets_at_the_weights_given") else {
        return;
    };
    let draw = |name: &str, weights: Option<&str>| {
        let out = png(name);
        let mut args = vec!["render", &model, "--size", "64x64", "-o", &out];
        args.extend(weights.map(|w| ["--weights", w]).into_iter().flatten());
        let (text, status) = skin(&args);
        assert_eq!(status, 0, "{text}");
        Picture::load_png(Path::new(&out)).unwrap()
    };
    // The file's weights are [0.25, 0.5]: given again they draw the same picture; at 0 the
    // triangle is its base, another picture.
    let file = draw("file.png", None);
    assert_eq!(file, draw("same.png", Some("0.25,0.5")));
    assert_ne!(file, draw("zero.png", Some("0,0")));
}
