//! `skin validate`'s pictures of morphed models: the GPU draws a morphed model with the
//! deltas the asset stores (`skin_host::bake::dequantised`), checked here entry by entry
//! against baked assets in both lanes; the pictures of the generated skinned and morphed
//! worm (all three weight interpolations) and of the Khronos morph samples compared within
//! the limit of unmorphed models; and `--weights` on `validate` and the CPU renderer, with
//! its typed refusals.
//!
//! The pictures need a wgpu adapter (lavapipe on machines without a GPU), the samples
//! `../shared/models`: without them those tests say SKIPPED, or fail under
//! `SKIN_REQUIRE_ALL=1`.

use std::path::{Path, PathBuf};

use skin_core::asset::{Asset, AssetLane};
use skin_core::lane::Q14;
use skin_core::morph::quantised::{dequantise, error};
use skin_host::bake::{self, Baked, Options};
use skin_host::picture::Picture;
use skin_host::pose::{LaneKind, Skinning};
use skin_host::rig::Rig;
use skin_host::validate::{self, Options as ValidateOptions};
use skin_tests::gltf_gen::{morph_worm, Interp};
use skin_tests::{gpu, skin_cli};

/// The worm in `interp`, imported.
fn worm(interp: Interp) -> Rig {
    skin_host::import::from_slice(&morph_worm(interp).glb(), None).expect("import")
}

/// The Khronos MorphStressTest (8 targets on two primitives), if the samples are here.
fn stress_test(test: &str) -> Option<PathBuf> {
    let path = skin_tests::models_dir()?.join("morph/MorphStressTest.glb");
    if path.exists() {
        Some(path)
    } else {
        skin_tests::skip(
            test,
            "../shared/models/morph/MorphStressTest.glb is not present",
        );
        None
    }
}

fn bake_as(rig: &Rig, lane: LaneKind) -> Baked {
    // 18 registers: six bones a part, so the worm's targets span several parts.
    let budget = Some(skin_core::budget::Budget::registers("test_18", 18));
    let options = Options {
        budget,
        lane,
        clips: None,
        skinning: Skinning::Lbs,
    };
    bake::bake(rig, &options).expect("bake")
}

/// Every entry of `baked`'s morph section equals `stored`'s delta at that vertex (model
/// units, scaled exactly to the asset's), every vertex a span leaves out has a zero delta
/// in `stored`, and `stored` is within the quantisation error of `rig`; returns the
/// entries checked.
fn matches_asset<L: AssetLane>(rig: &Rig, stored: &Rig, baked: &Baked) -> usize {
    let asset = Asset::<L>::read(&baked.bytes).expect("read");
    let morphs = asset.morphs().expect("morph section");
    let to_asset = 2f32.powi(-baked.unit_exponent);
    let mut checked = 0;
    for set in morphs.sets() {
        for part in set.parts.clone() {
            let src = &baked.parts[part];
            let prim = &stored.meshes[src.mesh].primitives[src.primitive];
            let truth = &rig.meshes[src.mesh].primitives[src.primitive];
            for (t, target) in set.targets.clone().enumerate() {
                let scale = morphs.scale(target);
                let local_target = target - set.targets.start;
                let deltas = prim.targets[t].positions.as_ref().unwrap();
                let normals = prim.targets[t].normals.as_ref();
                let mut moved = vec![false; src.vertices.len()];
                for entry in morphs
                    .deltas(&set, part)
                    .filter(|e| e.target == local_target)
                {
                    let local = usize::from(entry.vertex);
                    moved[local] = true;
                    let v = src.vertices[local] as usize;
                    let q = entry.position;
                    let want = q.map(|q| dequantise(q, scale.position_exponent));
                    let got = deltas[v].map(|c| c * to_asset);
                    assert_eq!(got, want, "part {part} target {t} vertex {v}");
                    if let (Some(q), Some(n)) = (entry.normal, normals) {
                        assert_eq!(n[v], q.map(|q| dequantise(q, scale.normal_exponent)));
                    }
                    checked += 1;
                }
                for (local, &v) in src.vertices.iter().enumerate() {
                    let v = v as usize;
                    if !moved[local] {
                        assert_eq!(deltas[v], [0.0; 3], "part {part} target {t} vertex {v}");
                    }
                    let exact = truth.targets[t].positions.as_ref().unwrap()[v];
                    let bound = error(scale.position_exponent) / to_asset;
                    for (g, e) in deltas[v].iter().zip(exact) {
                        assert!((g - e).abs() <= bound, "target {t} vertex {v}: {g} vs {e}");
                    }
                }
            }
        }
    }
    checked
}

#[test]
fn the_gpu_draws_the_deltas_the_asset_stores() {
    let mut rigs = vec![worm(Interp::Linear)];
    let test = "the_gpu_draws_the_deltas_the_asset_stores";
    if let Some(p) = stress_test(test) {
        rigs.push(skin_host::import::from_path(&p).unwrap());
    }
    for rig in &rigs {
        let f32_asset = bake_as(rig, LaneKind::F32);
        let stored = bake::dequantised(rig, f32_asset.unit_exponent, LaneKind::F32).unwrap();
        assert_ne!(&stored, rig, "quantising moves some delta");
        assert!(matches_asset::<f32>(rig, &stored, &f32_asset) > 0);
        // Quantising what the asset stores gives it again.
        assert_eq!(
            bake::dequantised(&stored, 0, LaneKind::F32).unwrap(),
            stored
        );
    }
    // The fixed lane's asset, in its own unit (2^k model units).
    let rig = &rigs[0];
    let fixed = bake_as(rig, LaneKind::Fixed);
    let stored = bake::dequantised(rig, fixed.unit_exponent, LaneKind::Fixed).unwrap();
    assert!(matches_asset::<Q14>(rig, &stored, &fixed) > 0);
}

/// `skin validate` on `model` with `args` after it: its output, or its error's line.
fn validate_cli(model: &Path, args: &[&str]) -> Result<String, String> {
    let m = model.to_str().unwrap();
    let mut all = vec!["validate", m, "--frames", "4"];
    all.extend_from_slice(args);
    skin_cli(&all)
}

#[test]
fn morphed_pictures_compare_within_the_limit() {
    let test = "morphed_pictures_compare_within_the_limit";
    let Some(gpu) = gpu(test) else { return };
    let options = ValidateOptions {
        frames: 4,
        size: (120, 120),
        ..ValidateOptions::default()
    };
    for interp in [Interp::Step, Interp::Linear, Interp::CubicSpline] {
        let rig = worm(interp);
        let report = validate::validate(&rig, gpu, &options, |_, _| {}).unwrap();
        assert!(
            report.failures().is_empty(),
            "{interp:?}: {:?}",
            report.failures()
        );
        // The worm's clip scales a joint: its DQS pictures are "not compared".
        let dual = report.dual_pictures.clone().and_then(Result::ok);
        for p in std::iter::once(report.pictures).chain(dual) {
            assert_eq!(p.frames, report.frames.len(), "{interp:?}");
            assert!(p.worst >= report.pixel_limit, "{interp:?}: {}", p.worst);
        }
        // The pictures compared are the morphed ones: at zero weights the worm's frames
        // are other pictures.
        let still = skin_host::pose::morph::with_weights(&rig, &[0.0; 3]).unwrap();
        let flat = validate::validate(&still, gpu, &options, |_, _| {}).unwrap();
        let (moved, _) = report.worst.unwrap();
        let (unmoved, _) = flat.worst.unwrap();
        assert_ne!(moved, unmoved, "{interp:?}: the targets show");
    }
}

/// The pixels where `a` and `b` agree, as a fraction.
fn agreement(a: &Picture, b: &Picture) -> f64 {
    a.difference(b).expect("same size").agreement()
}

#[test]
fn weights_given_hold_on_every_path() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("worm.glb");
    std::fs::write(&model, morph_worm(Interp::CubicSpline).glb()).unwrap();
    let m = model.to_str().unwrap();
    let png = |name: &str| dir.path().join(name).to_string_lossy().into_owned();
    // The worm's clip at 0.7 s drawn by `backend` at `weights` (none: the clip's).
    let render = |backend: &str, weights: Option<&str>, out: &str| {
        let mut args = vec![
            "render",
            m,
            "--anim",
            "0",
            "--time",
            "0.7",
            "--backend",
            backend,
            "--size",
            "96x96",
            "-o",
            out,
        ];
        args.extend(weights.map(|w| ["--weights", w]).into_iter().flatten());
        skin_cli(&args).map(|_| Picture::load_png(Path::new(out)).unwrap())
    };
    // The CPU renderer plays the asset baked at the weights given: other pictures than at
    // zero weights and at the clip's weights.
    let given = render("cpu", Some("1,0.5,-1"), &png("given.png")).unwrap();
    let zero = render("cpu", Some("0,0,0"), &png("zero.png")).unwrap();
    let clip = render("cpu", None, &png("clip.png")).unwrap();
    assert!(agreement(&given, &zero) < 0.99, "the weights show");
    assert!(
        agreement(&given, &clip) < 0.99,
        "the clip's weights are replaced"
    );
    // Refused with the thing, the value and the limit: the wrong count, not a number,
    // beyond the fixed lane's I2F14 weights.
    for (weights, said) in [
        (
            "1,0.5",
            [
                "--weights gives 2 weights, but node",
                "with 3 morph targets",
            ],
        ),
        (
            "1,NaN,0",
            [
                "--weights: weight 1 is NaN",
                "not a number from -2 to 1.9999390",
            ],
        ),
        (
            "1,0,-2.5",
            [
                "--weights: weight 2 is -2.5",
                "not a number from -2 to 1.9999390",
            ],
        ),
        (
            "2,0,0",
            [
                "--weights: weight 0 is 2,",
                "not a number from -2 to 1.9999390",
            ],
        ),
    ] {
        let e = render("cpu", Some(weights), &png("bad.png")).unwrap_err();
        assert!(said.iter().all(|s| e.contains(s)), "{weights}: {e}");
    }
    let Some(_) = gpu("weights_given_hold_on_every_path") else {
        return;
    };
    // The GPU at the same weights draws the same picture as the CPU (within the picture
    // limit: the GPU's deltas here are the file's, not the asset's).
    let gpu_given = render("gpu", Some("1,0.5,-1"), &png("gpu.png")).unwrap();
    assert!(agreement(&given, &gpu_given) >= 0.99);
    // `validate --weights` holds them on every path, pictures included, and passes.
    let text = validate_cli(&model, &["--weights", "1,0.5,-1", "--size", "96x96"]).unwrap();
    assert!(
        text.contains("Pictures 96x96") && text.contains("**pass**"),
        "{text}"
    );
    for (weights, said) in [
        ("0.5", "--weights gives 1 weights"),
        ("0,inf,0", "weight 1 is inf"),
        ("0,0,7", "weight 2 is 7"),
    ] {
        let e = validate_cli(&model, &["--weights", weights]).unwrap_err();
        assert!(e.contains(said), "{weights}: {e}");
    }
}

#[test]
fn the_stress_test_validates_with_its_pictures() {
    let test = "the_stress_test_validates_with_its_pictures";
    let Some(path) = stress_test(test) else {
        return;
    };
    if gpu(test).is_none() {
        return;
    }
    // TheWave (clip 1) has all eight targets at non-zero weights at once.
    let text = validate_cli(&path, &["--anim", "1", "--size", "120x120"]).unwrap();
    assert!(
        text.contains("Pictures 120x120") && text.contains("**pass**"),
        "{text}"
    );
}
