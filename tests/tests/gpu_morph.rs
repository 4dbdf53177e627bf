//! Morph targets on the GPU reference (`skin_host::gpu`: deltas in a storage buffer, the
//! frame's active targets and weights in a uniform): the compute path and the vertex shader
//! against the host's `f32` pose (`skin_host::pose`, which skin-core's lane skins) on the
//! Khronos morph samples (`../shared/models/morph/`) and on a generated skinned triangle
//! with targets, under both skinning methods, at the clips' weights and at weights given;
//! `skin validate` on those models; and the refusals.
//!
//! Needs a wgpu adapter (lavapipe on machines without a GPU) and, for the samples,
//! `../shared/models`: without them each test says SKIPPED, or fails under
//! `SKIN_REQUIRE_ALL=1`.

use std::path::PathBuf;

use skin_core::budget::{Budget, Layout};
use skin_core::morph::ACTIVE_TARGETS;
use skin_host::gpu::{GpuError, GpuMesh, Model, Reference};
use skin_host::pose::animate::duration;
use skin_host::pose::morph::{override_weights, weights, NodeWeights};
use skin_host::pose::{pose_weighted, LaneKind, Skinning};
use skin_host::rig::{Influence4, Mode, Primitive, Rig, Target};
use skin_host::validate::{self, Options};
use skin_tests::gltf_gen::morph_triangle;
use skin_tests::gpu;

/// The Khronos morph samples, or a skip.
fn morph_samples(test: &str) -> Vec<PathBuf> {
    let Some(dir) = skin_tests::models_dir() else {
        skin_tests::skip(test, "../shared/models is not present");
        return Vec::new();
    };
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir.join("morph"))
        .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    out.retain(|p| matches!(p.extension().and_then(|e| e.to_str()), Some("glb" | "gltf")));
    out.sort();
    if out.is_empty() {
        skin_tests::skip(test, "no morph samples in ../shared/models/morph");
    }
    out
}

/// The frames compared: the rest pose and four times of every clip.
fn frames(rig: &Rig) -> Vec<Option<(usize, f32)>> {
    let mut out = vec![None];
    for c in 0..rig.clips.len() {
        let d = duration(rig, c);
        out.extend([0.1, 0.35, 0.6, 0.85].map(|f| Some((c, f * d))));
    }
    out
}

/// Skin `rig` at `anim` with the morph `weights` (per node) by `skinning` on both GPU paths
/// and compare with the host's `f32` pose: the largest difference as a fraction of the
/// posed model's extent, and how far the morphs moved the GPU's vertices at all.
fn compare(
    gpu: &Reference,
    rig: &Rig,
    anim: Option<(usize, f32)>,
    weights: &NodeWeights,
    skinning: Skinning,
) -> (f64, f64) {
    let model = Model::with_skinning(rig, Budget::VS_2_0, Layout::Affine3x4, skinning).unwrap();
    let palettes = model.palettes(rig, anim).unwrap();
    let core = pose_weighted(rig, anim, LaneKind::F32, skinning, weights).unwrap();
    let all: Vec<[f32; 3]> = core.iter().flat_map(|b| b.positions.clone()).collect();
    let extent = skin_core::raster::Bounds::of(all.iter().copied()).map_or(1.0, |b| {
        (0..3)
            .map(|i| f64::from(b.max[i] - b.min[i]).powi(2))
            .sum::<f64>()
            .sqrt()
    });
    let diff = |a: &[f32; 3], b: &[f32; 3]| {
        (0..3)
            .map(|i| f64::from((a[i] - b[i]).abs()))
            .fold(0.0, f64::max)
    };
    let (mut worst, mut moved) = (0.0f64, 0.0f64);
    for (p, prim) in model.primitives.iter().enumerate() {
        let w = &weights[prim.node];
        let want = &core[p].positions;
        let compute = gpu
            .skin_compute_morphed(&prim.whole, &palettes[p], w)
            .unwrap();
        let still = gpu.skin_compute(&prim.whole, &palettes[p]).unwrap();
        for (v, got) in compute.positions.iter().enumerate() {
            worst = worst.max(diff(got, &want[v]) / extent);
            moved = moved.max(diff(got, &still.positions[v]) / extent);
        }
        let drawn = gpu
            .skin_vertex_morphed(
                &prim.split.mesh,
                &palettes[p],
                w,
                &prim.split.draws,
                (model.budget, model.layout),
            )
            .unwrap();
        for (s, &o) in prim.split.origin.iter().enumerate() {
            if drawn.drawn[s] {
                worst = worst.max(diff(&drawn.skinned.positions[s], &want[o as usize]) / extent);
            }
        }
    }
    (worst, moved)
}

/// Every node's weights at `anim`, then replaced by a spread of non-zero weights (as many as
/// the mesh has targets, at most the GPU's budget), as `skin pose --weights` would.
fn given(rig: &Rig, anim: Option<(usize, f32)>) -> NodeWeights {
    let mut w = weights(rig, anim);
    let targets = w.iter().map(Vec::len).max().unwrap_or(0);
    let spread: Vec<f32> = (0..targets)
        .map(|t| [0.9, -0.4, 0.3, 0.65, -0.15, 0.5, 0.2, 0.75][t % 8])
        .collect();
    if targets > 0 {
        override_weights(rig, &mut w, &spread).unwrap();
    }
    w
}

#[test]
fn morphs_on_the_gpu_match_the_pose_on_the_khronos_samples() {
    let test = "morphs_on_the_gpu_match_the_pose_on_the_khronos_samples";
    let models = morph_samples(test);
    let Some(gpu) = gpu(test) else { return };
    for path in models {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let rig = skin_host::import::from_path(&path).unwrap();
        let mut moved = 0.0f64;
        for anim in frames(&rig) {
            for w in [weights(&rig, anim), given(&rig, anim)] {
                let (worst, m) = compare(gpu, &rig, anim, &w, Skinning::Lbs);
                assert!(
                    worst <= 1e-5,
                    "{name} {anim:?} {w:?}: {worst:e} of the extent"
                );
                moved = moved.max(m);
            }
        }
        assert!(moved > 0.01, "{name}: the targets move vertices ({moved})");
        println!("{name}: the GPU's morphs equal the pose's within 1e-5 of the extent");
    }
}

#[test]
fn morphs_and_skinning_together_on_the_gpu_by_both_methods() {
    let Some(gpu) = gpu("morphs_and_skinning_together_on_the_gpu_by_both_methods") else {
        return;
    };
    for interp in ["STEP", "LINEAR", "CUBICSPLINE"] {
        let rig = skin_host::import::from_slice(&morph_triangle(interp).glb(), None).unwrap();
        assert!(rig.skins.len() == 1 && rig.meshes[0].primitives[0].targets.len() == 2);
        for skinning in [Skinning::Lbs, Skinning::Dqs] {
            let mut moved = 0.0f64;
            for anim in frames(&rig) {
                for w in [weights(&rig, anim), given(&rig, anim)] {
                    let (worst, m) = compare(gpu, &rig, anim, &w, skinning);
                    assert!(worst <= 1e-5, "{interp} {skinning:?} {anim:?}: {worst:e}");
                    moved = moved.max(m);
                }
            }
            assert!(
                moved > 0.01,
                "{interp} {skinning:?}: the targets move vertices"
            );
        }
    }
}

#[test]
fn validate_compares_morphed_models_on_every_path_and_their_pictures() {
    let test = "validate_compares_morphed_models_on_every_path_and_their_pictures";
    let mut models: Vec<(String, Rig)> = morph_samples(test)
        .into_iter()
        .map(|p| {
            let rig = skin_host::import::from_path(&p).unwrap();
            (p.file_name().unwrap().to_string_lossy().into_owned(), rig)
        })
        .collect();
    models.push((
        "morph_triangle".into(),
        skin_host::import::from_slice(&morph_triangle("LINEAR").glb(), None).unwrap(),
    ));
    let Some(gpu) = gpu(test) else { return };
    let options = Options {
        frames: 4,
        ..Options::default()
    };
    for (name, rig) in models {
        let report = validate::validate(&rig, gpu, &options, |_, _| {}).unwrap();
        assert!(
            report.failures().is_empty(),
            "{name}: {:?}",
            report.failures()
        );
        // Every frame's pictures compared, within the limit of unmorphed models.
        assert_eq!(report.pictures.frames, report.frames.len(), "{name}");
        assert!(report.pictures.worst >= report.pixel_limit, "{name}");
        assert!(report.worst.is_some(), "{name}");
        assert!(report.pictures.quantised_morphs, "{name}");
        for row in &report.rows {
            // Only the fixed lane may be out of range (AnimatedMorphCube scales by 100).
            if row.unavailable.is_some() {
                assert!(row.path.ends_with("core fixed"), "{name}: {row:?}");
                continue;
            }
            if !row.normals {
                assert!(
                    row.errors.count > 0,
                    "{name}: {} compared nothing",
                    row.path
                );
            }
        }
        let table = report.table(&name);
        assert!(!table.contains("Pictures: not compared"), "{table}");
        assert!(
            table.contains("GPU vertex shader (the asset's quantised morph deltas) vs CPU"),
            "{table}"
        );
    }
}

/// A triangle with `targets` targets, each moving every vertex along X.
fn triangle(targets: usize) -> Primitive {
    Primitive {
        mode: Mode::Triangles,
        positions: vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
        normals: Some(vec![[0.0, 0.0, 1.0]; 3]),
        tangents: None,
        indices: Some(vec![0, 1, 2]),
        influences: Some(vec![
            Influence4 {
                joints: [0; 4],
                weights: [1.0, 0.0, 0.0, 0.0],
            };
            3
        ]),
        max_influences: 1,
        largest_dropped: 0.0,
        targets: (0..targets)
            .map(|t| Target {
                positions: Some(vec![[0.1 * (t + 1) as f32, 0.0, 0.0]; 3]),
                normals: None,
            })
            .collect(),
    }
}

#[test]
fn bad_morph_weights_are_typed_errors() {
    let Some(gpu) = gpu("bad_morph_weights_are_typed_errors") else {
        return;
    };
    let pal = [skin_core::affine::Affine::<f32>::IDENTITY];
    let n = ACTIVE_TARGETS + 1;
    let mesh = GpuMesh::from_primitive(&triangle(n)).unwrap();
    assert_eq!(mesh.targets(), n);
    // Every target at once is one more than the uniform holds, on both paths.
    let all = vec![0.5f32; n];
    let err = gpu.skin_compute_morphed(&mesh, &pal, &all).unwrap_err();
    assert!(
        matches!(
            err,
            GpuError::ActiveTargets {
                active: 9,
                budget: 8
            }
        ),
        "{err:?}"
    );
    let draws = mesh.single_draw(1);
    let vs = |w: &[f32]| {
        gpu.skin_vertex_morphed(&mesh, &pal, w, &draws, (Budget::VS_1_1, Layout::Affine3x4))
    };
    assert!(matches!(vs(&all), Err(GpuError::ActiveTargets { .. })));
    // With one of them at 0 they fit: vertex 1 moves by Σ 0.5·0.1·(t+1) for t ≠ 3.
    let mut fits = all.clone();
    fits[3] = 0.0;
    let got = gpu.skin_compute_morphed(&mesh, &pal, &fits).unwrap();
    let want = 1.0
        + (0..n)
            .filter(|&t| t != 3)
            .map(|t| 0.05 * (t + 1) as f32)
            .sum::<f32>();
    assert!(
        (got.positions[1][0] - want).abs() < 1e-5,
        "{:?}",
        got.positions[1]
    );
    assert_eq!(vs(&fits).unwrap().skinned.positions[1], got.positions[1]);
    // The wrong number of weights, and a weight that is not a number.
    assert_eq!(
        gpu.skin_compute_morphed(&mesh, &pal, &[0.5, 0.5])
            .unwrap_err()
            .to_string(),
        "2 morph-target weights given for a mesh with 9 morph targets"
    );
    let mut nan = fits.clone();
    nan[1] = f32::NAN;
    assert_eq!(
        vs(&nan).unwrap_err().to_string(),
        "morph-target weight 1 (NaN) is not finite"
    );
    // A delta that is not finite is refused when the mesh is made.
    let mut bad = triangle(2);
    bad.targets[1].positions.as_mut().unwrap()[2][1] = f32::INFINITY;
    assert_eq!(
        GpuMesh::from_primitive(&bad).unwrap_err().to_string(),
        "morph target 1 delta of vertex 2 is not finite"
    );
}
