//! Morph targets in `skin pose`'s road: the host's `f32` pose and its `f64` oracle against
//! `skin_tests::gltf_ref` (written separately, reading the file with the `gltf` crate's own
//! reader), on the Khronos morph samples and on a generated skinned triangle whose targets
//! (one dense, one sparse) have non-zero defaults and an animated weights channel in each
//! interpolation. Tolerances: the `f32` pose within 1e-5 of the model's extent (as
//! `docs/VALIDATION.md` asks of every `f32` path), the oracle within 1e-9 (both `f64`, from
//! the same `f32` data).

use std::path::Path;

use skin_host::pose::{self, LaneKind};
use skin_host::{oracle, Rig};
use skin_tests::gltf_gen::morph_triangle;
use skin_tests::gltf_ref;

/// Times to check in a clip of `duration` seconds: before the first key, on keys, between.
fn times(duration: f32) -> Vec<f32> {
    [-0.5, 0.0, 0.013, 0.25, 0.5, 0.61, 0.75, 1.0, 1.5]
        .iter()
        .map(|f| f * duration)
        .collect()
}

/// The largest distance between the host's poses and the reference's, each over the
/// extent, at rest and at [`times`] of every clip: `(f32 pose, f64 oracle)`.
fn worst(path: &Path) -> (f64, f64) {
    let rig: Rig = skin_host::import::from_path(path).unwrap();
    let model = gltf_ref::load(path);
    let extent = gltf_ref::extent(&gltf_ref::pose(&model, None, 0.0)).max(1e-6);
    let mut frames: Vec<Option<(usize, f32)>> = vec![None];
    for (c, clip) in rig.clips.iter().enumerate() {
        frames.extend(times(clip.duration()).into_iter().map(|t| Some((c, t))));
    }
    let (mut f32_worst, mut f64_worst) = (0.0f64, 0.0f64);
    for frame in frames {
        let want = gltf_ref::pose(
            &model,
            frame.map(|(c, _)| c),
            frame.map_or(0.0, |(_, t)| f64::from(t)),
        );
        let got = pose::pose(&rig, frame, LaneKind::F32).unwrap();
        let exact = oracle::pose(&rig, frame.map(|(c, t)| (c, f64::from(t)))).unwrap();
        assert_eq!(got.len(), want.len());
        for ((g, o), w) in got.iter().zip(&exact).zip(&want) {
            assert_eq!((g.node, g.mesh, g.primitive), (w.node, w.mesh, w.primitive));
            for ((gp, op), wp) in g.positions.iter().zip(&o.positions).zip(&w.positions) {
                let d32 = (0..3)
                    .map(|i| (f64::from(gp[i]) - wp[i]).powi(2))
                    .sum::<f64>()
                    .sqrt();
                let d64 = (0..3).map(|i| (op[i] - wp[i]).powi(2)).sum::<f64>().sqrt();
                f32_worst = f32_worst.max(d32 / extent);
                f64_worst = f64_worst.max(d64 / extent);
            }
        }
    }
    (f32_worst, f64_worst)
}

#[test]
fn the_pose_honours_morphs_on_the_khronos_samples() {
    let test = "the_pose_honours_morphs_on_the_khronos_samples";
    let Some(dir) = skin_tests::models_dir() else {
        skin_tests::skip(test, "../shared/models is not present");
        return;
    };
    for name in [
        "SimpleMorph.gltf",
        "AnimatedMorphCube.glb",
        "MorphStressTest.glb",
        "MorphPrimitivesTest.glb",
    ] {
        let (f32s, f64s) = worst(&dir.join("morph").join(name));
        println!("{name}: f32 {f32s:.2e}, f64 {f64s:.2e} of the extent");
        assert!(f32s <= 1e-5, "{name}: f32 pose {f32s:e} of the extent off");
        assert!(
            f64s <= 1e-9,
            "{name}: f64 oracle {f64s:e} of the extent off"
        );
    }
}

#[test]
fn the_pose_honours_morphs_on_a_skinned_model_in_every_interpolation() {
    let dir = tempfile::tempdir().unwrap();
    for interp in ["STEP", "LINEAR", "CUBICSPLINE"] {
        let path = dir.path().join(format!("{interp}.gltf"));
        std::fs::write(&path, morph_triangle(interp).gltf()).unwrap();
        let (f32s, f64s) = worst(&path);
        assert!(
            f32s <= 1e-5,
            "{interp}: f32 pose {f32s:e} of the extent off"
        );
        assert!(
            f64s <= 1e-9,
            "{interp}: f64 oracle {f64s:e} of the extent off"
        );
    }
}

#[test]
fn morphs_move_what_the_weights_say() {
    // Defaults [0.25, 0.5] at rest: vertex 2 = (0, 1, 0) + 0.25·(−0.125, 0, 0.5) +
    // 0.5·(0.75, −0.5, 0), then skinned to joint 1 alone, which sits 0.5 up at rest (the
    // skin has no inverse bind matrices).
    let rig = skin_host::import::from_slice(&morph_triangle("LINEAR").glb(), None).unwrap();
    let rest = pose::pose(&rig, None, LaneKind::F32).unwrap();
    let v2 = rest[0].positions[2];
    let want = [-0.03125 + 0.375, 1.0 - 0.25 + 0.5, 0.125];
    assert!(
        (0..3).all(|i| (v2[i] - want[i]).abs() < 1e-6),
        "{v2:?} vs {want:?}"
    );
    // Zero weights give the base mesh; the weights arrive per node.
    let mut zero = pose::morph::weights(&rig, None);
    pose::morph::override_weights(&rig, &mut zero, &[0.0, 0.0]).unwrap();
    let base = pose::pose_weighted(&rig, None, LaneKind::F32, pose::Skinning::Lbs, &zero).unwrap();
    assert_eq!(base[0].positions[2], [0.0, 1.5, 0.0]);
    // The wrong number of weights names the node and its targets.
    let e = pose::morph::override_weights(&rig, &mut zero, &[1.0]).unwrap_err();
    assert!(
        e.to_string()
            .contains("node 2 draws mesh 0 with 2 morph targets"),
        "{e}"
    );
    // LINEAR keys (0, 1) → (1, 0.5) at t = 0.5: (0.5, 0.75).
    let w = pose::morph::weights(&rig, Some((0, 0.5)));
    assert_eq!(w[2], vec![0.5, 0.75]);
}
