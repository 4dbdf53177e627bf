//! Dual quaternion skinning of joints with scale and shear (Kavan et al.) in skin-core's
//! `f32` lane (`skin_core::palette::StretchPalette`, `SkinnedMesh::skin_dqs_stretched`)
//! against the independent f64 oracle (`skin_tests::dual_oracle::stretched_point`): random
//! rigs whose joints carry uniform or per-axis scale from ¼ to 4× along random axes (a
//! shear in the joint's frame); one-bone vertices against LBS; rigid palettes keep the
//! plain loop's bits; matrices the split cannot represent are refused by joint.
//!
//! Limits: positions within 1e-5 of the extent (the `f32` limit of `skin validate`), as
//! plain DQS; normals within 1e-4 per coordinate: the normal goes through the blended
//! stretch's cofactors, whose entries are products of two stretch entries (up to 16 for a
//! 4× scale), so their rounding is up to 16× that of a rotation entry.

use proptest::prelude::*;
use proptest::test_runner::Config;
use skin_core::dual::SPLIT_MIN_DETERMINANT;
use skin_core::palette::{DualPalette, Palette, StretchPalette};
use skin_core::prelude::*;
use skin_tests::dual_oracle;
use skin_tests::oracle;
use skin_tests::stretched_rig::{coord_error, Rig, CAP};

/// Vertices this close to the blend's discontinuity (a bone 180° from the lead one) may be
/// flipped either way by `f32` rounding (as in `core_dqs`).
const MARGIN: f64 = 1e-5;

proptest! {
    #![proptest_config(Config::with_cases(128))]

    #[test]
    fn stretched_joints_match_the_oracle(seed in any::<u64>(), bones in 1usize..=32, per_axis in any::<bool>()) {
        let rig = Rig::random(seed, bones, per_axis, false);
        let (got_p, got_n) = rig.core();
        let (want_p, want_n, margin) = rig.oracle();
        let extent = oracle::extent(&want_p).max(1.0);
        for v in 0..got_p.len() {
            if margin[v] < MARGIN {
                continue;
            }
            let err = coord_error(got_p[v], want_p[v]);
            prop_assert!(err <= 1e-5 * extent, "vertex {v}: {:?} vs {:?}, error {err:e} > 1e-5 × extent {extent:e}", got_p[v], want_p[v]);
            let err = coord_error(got_n[v], want_n[v]);
            prop_assert!(err <= 1e-4, "normal {v}: {:?} vs {:?}, error {err:e}", got_n[v], want_n[v]);
        }
    }
}

/// With one bone a vertex, the split joint (stretch, then rotation and translation) gives
/// the joint matrix's own result, LBS's, up to rounding.
#[test]
fn one_bone_vertices_equal_lbs() {
    for (seed, per_axis) in [(3, false), (4, true), (5, true)] {
        let rig = Rig::random(seed, 12, per_axis, true);
        let (dqs, _) = rig.core();
        let mut palette: Palette<f32, CAP> = Palette::new();
        for b in 0..rig.bones.len() {
            palette.push(&rig.matrix(b)).unwrap();
        }
        let mut lbs = vec![[0.0; 3]; rig.positions.len()];
        rig.mesh().skin(palette.as_slice(), &mut lbs).unwrap();
        let extent = skin_tests::diagonal(&lbs);
        let err = skin_tests::worst(&dqs, &lbs);
        assert!(
            err <= 1e-6 * extent,
            "seed {seed}: error {err:e}, extent {extent:e}"
        );
    }
}

/// A palette of rigid joints has no stretches, and skins with the plain DQS loop's bits.
#[test]
fn rigid_palettes_keep_the_plain_bits() {
    let mut rig = Rig::random(9, 16, false, false);
    for b in &mut rig.bones {
        b.s = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
    }
    let stretched = rig.palette();
    assert!(stretched.stretches().is_none());
    let mut plain: DualPalette<f32, CAP> = DualPalette::new();
    for b in 0..rig.bones.len() {
        plain.push(&rig.matrix(b)).unwrap();
    }
    assert_eq!(stretched.duals(), plain.as_slice());
    let (got, _) = rig.core();
    let mut want = vec![[0.0; 3]; got.len()];
    rig.mesh().skin_dqs(plain.as_slice(), &mut want).unwrap();
    assert_eq!(got, want);
}

/// A mirrored, a flattened and a NaN joint are refused, naming the joint and the value.
#[test]
fn unsplittable_joints_are_refused_by_joint() {
    let cases: [(f32, f32, &str); 3] = [
        (-1.0, -2.0, "mirrors (determinant -2.000e0"),
        (0.0, 0.0, "is not invertible (determinant 0.000e0"),
        (f32::NAN, f32::NAN, "has a NaN or infinite entry"),
    ];
    for (entry, det, words) in cases {
        let mut p: StretchPalette<4> = StretchPalette::new();
        p.push(&Affine::IDENTITY).unwrap();
        let mut m = Affine::translation([0.0, 1.0, 0.0]);
        m.rows[0][0] = 2.0;
        m.rows[2][2] = entry;
        let err = p.push(&m).unwrap_err();
        match err {
            Error::NotSplittable { joint, determinant } => {
                assert_eq!(joint, 1);
                assert!(
                    determinant == det || (det.is_nan() && determinant.is_nan()),
                    "{determinant}"
                );
            }
            other => panic!("{other:?}"),
        }
        let line = err.to_string();
        assert!(line.contains("joint 1") && line.contains(words), "{line}");
        if !det.is_nan() {
            assert!(
                line.contains(&format!("{SPLIT_MIN_DETERMINANT:.0e}")),
                "{line}"
            );
        }
    }
}

/// The squash-and-stretch worm (its clip scales joint 3 along the body) posed by
/// `skin_host`'s DQS in `f32` at the stretched frame: every skinned vertex within 1e-5 of
/// the extent of the oracle fed the same joint matrices, split by its own
/// eigen-decomposition (`dual_oracle::split`).
#[test]
fn the_stretched_worm_matches_the_oracle_through_host_pose() {
    use skin_host::pose::palette::skin_stretch_palette;
    use skin_host::pose::values::{influences, positions};
    use skin_host::pose::{animate, morph, skin::pose_lane, Skinning};
    use skin_tests::gltf_gen::Worm;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("worm.glb");
    std::fs::write(&path, Worm::default().build().glb()).unwrap();
    let rig = skin_host::import::from_path(&path).unwrap();
    let anim = Some((0, 1.0));
    let locals = animate::frame::<f32>(&rig, anim, 0).unwrap();
    let (_, stretches) = skin_stretch_palette::<f32>(&rig, &locals, 0, 0).unwrap();
    assert!(
        stretches.is_some(),
        "the worm's joint 3 is scaled at this frame"
    );
    let bones = skin_tests::stretched_rig::oracle_bones(&rig, &locals);
    let weights = morph::weights(&rig, anim);
    let posed = pose_lane::<f32>(&rig, &locals, &weights, 0, Skinning::Dqs).unwrap();
    let mut checked = 0;
    for got in &posed {
        let prim = &rig.meshes[got.mesh].primitives[got.primitive];
        let (pos, inf) = (
            positions::<f32>(prim, 0, "prim").unwrap(),
            influences::<f32>(prim, "prim").unwrap(),
        );
        let mut want = Vec::new();
        for (p, i) in pos.iter().zip(&inf) {
            let index: Vec<usize> = i.bones().iter().map(|&b| usize::from(b)).collect();
            let w: Vec<f64> = i.weights().iter().map(|&w| f64::from(w)).collect();
            want.push(dual_oracle::stretched_point(
                &bones,
                &index,
                &w,
                p.map(f64::from),
            ));
        }
        let extent = oracle::extent(&want);
        for (g, w) in got.out.iter().zip(&want) {
            let err = coord_error(*g, *w);
            assert!(
                err <= 1e-5 * extent,
                "{g:?} vs {w:?}: {err:e} of extent {extent:e}"
            );
            checked += 1;
        }
    }
    assert!(checked >= 32, "{checked} vertices compared");
}
