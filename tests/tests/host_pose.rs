//! `skin_host::pose` (import + skin-core skinning) against the independent f64 reference in
//! `skin_tests::gltf_ref`: on synthetic glTF files covering STEP, LINEAR and CUBICSPLINE
//! tracks, 8 influences over JOINTS_0/1, missing inverse bind matrices, u8/u16/float
//! weights and a mesh reused by two skins; and on every model in ../shared/models at
//! several times of every clip.
//!
//! Tolerances: f32 within 1e-5 of the model's extent (bounding-box diagonal); fixed point
//! within the core's documented bound (core/src/lane/mod.rs: 8.25·2⁻¹⁵ asset units
//! per coordinate, an asset unit being 2^k model units) plus the f32 tolerance.

use std::path::Path;

use skin_host::pose::{self, LaneKind};
use skin_tests::gltf_gen::{Interp, Worm, UNSIGNED_BYTE, UNSIGNED_SHORT};
use skin_tests::gltf_ref;

/// Compare `skin_host` with the reference for the rest pose and `times` of every clip.
/// Returns the worst error relative to the extent, per lane.
fn compare(path: &Path, times: &[f64]) -> [f64; 2] {
    let rig = skin_host::import::from_path(path).expect("import");
    let model = gltf_ref::load(path);
    let extent = gltf_ref::extent(&gltf_ref::pose(&model, None, 0.0)).max(1e-6);
    let k = pose::asset_unit(&rig);
    // core/src/lane/mod.rs: below 8.25·2⁻¹⁵ asset units per coordinate (the palette's own
    // I8F24 maths, clip sampling included, adds below 10⁻⁶ asset units).
    let fixed_bound = (8.25 / 32768.0 + 1e-6) * 2f64.powi(k);
    let mut worst = [0.0f64; 2];
    let mut cases: Vec<(Option<usize>, f64)> = vec![(None, 0.0)];
    let durations = gltf_ref::durations(&model);
    for (c, d) in durations.iter().enumerate() {
        for &t in times {
            cases.push((Some(c), t * d));
        }
    }
    for (anim, t) in cases {
        // The CLI takes f32 seconds: the reference samples at exactly that time.
        let t32 = t as f32;
        let want = gltf_ref::pose(&model, anim, f64::from(t32));
        for (a, lane) in [LaneKind::F32, LaneKind::Fixed].into_iter().enumerate() {
            let got = pose::pose(&rig, anim.map(|c| (c, t32)), lane)
                .unwrap_or_else(|e| panic!("{}: {lane:?}: {e}", path.display()));
            assert_eq!(got.len(), want.len());
            let tol = 1e-5 * extent
                + if lane == LaneKind::Fixed {
                    fixed_bound
                } else {
                    0.0
                };
            for (g, w) in got.iter().zip(&want) {
                assert_eq!((g.node, g.mesh, g.primitive), (w.node, w.mesh, w.primitive));
                assert_eq!(g.positions.len(), w.positions.len());
                for (v, (gp, wp)) in g.positions.iter().zip(&w.positions).enumerate() {
                    for i in 0..3 {
                        let err = (f64::from(gp[i]) - wp[i]).abs();
                        worst[a] = worst[a].max(err / extent);
                        assert!(
                            err <= tol,
                            "{} {lane:?} anim {anim:?} t {t}: node {} prim {} vertex {v}: {gp:?} vs {wp:?} (tol {tol})",
                            path.display(),
                            g.node,
                            g.primitive
                        );
                    }
                }
            }
        }
    }
    worst
}

fn synthetic(name: &str, worm: Worm, glb: bool) -> [f64; 2] {
    let dir = tempfile::tempdir().unwrap();
    let g = worm.build();
    let path = if glb {
        let p = dir.path().join(format!("{name}.glb"));
        std::fs::write(&p, g.glb()).unwrap();
        p
    } else {
        let p = dir.path().join(format!("{name}.gltf"));
        std::fs::write(&p, g.gltf()).unwrap();
        p
    };
    // Fractions of the 2 s clip: before the start, every key time (0, 0.5, 1.25, 2 s),
    // between keys, and beyond the end.
    let times = [-0.25, 0.0, 0.1, 0.25, 0.4, 0.5, 0.625, 0.8, 0.99, 1.0, 1.5];
    compare(&path, &times)
}

#[test]
fn linear_tracks_match_the_reference() {
    synthetic("linear", Worm::default(), true);
}

#[test]
fn step_tracks_match_the_reference() {
    synthetic(
        "step",
        Worm {
            interp: Interp::Step,
            ..Worm::default()
        },
        false,
    );
}

#[test]
fn cubic_spline_tracks_match_the_reference() {
    synthetic(
        "cubic",
        Worm {
            interp: Interp::CubicSpline,
            ..Worm::default()
        },
        true,
    );
}

#[test]
fn eight_influences_in_two_sets_match_the_reference() {
    for weights in [skin_tests::gltf_gen::FLOAT, UNSIGNED_BYTE, UNSIGNED_SHORT] {
        let worm = Worm {
            influences: 8,
            weights,
            ..Worm::default()
        };
        synthetic("eight", worm, true);
    }
}

#[test]
fn integer_weights_match_the_reference() {
    for weights in [UNSIGNED_BYTE, UNSIGNED_SHORT] {
        synthetic(
            "ints",
            Worm {
                weights,
                ..Worm::default()
            },
            false,
        );
    }
}

#[test]
fn missing_inverse_bind_matrices_mean_identity() {
    synthetic(
        "noibm",
        Worm {
            inverse_binds: false,
            ..Worm::default()
        },
        true,
    );
}

#[test]
fn a_mesh_reused_by_two_skins_matches_the_reference() {
    let worst = synthetic(
        "two",
        Worm {
            two_skins: true,
            ..Worm::default()
        },
        true,
    );
    assert!(worst[0] < 1e-5);
}

#[test]
fn sample_models_match_the_reference() {
    for model in skin_tests::sample_models("sample_models_match_the_reference") {
        let worst = compare(&model, &[0.0, 0.13, 0.37, 0.5, 0.71, 1.0, 1.2]);
        eprintln!(
            "{}: worst error / extent: f32 {:.2e}, fixed {:.2e}",
            model.file_name().unwrap().to_string_lossy(),
            worst[0],
            worst[1]
        );
    }
}
