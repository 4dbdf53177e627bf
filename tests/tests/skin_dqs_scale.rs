//! Dual quaternion skinning of joints with scale and shear (Kavan et al.) in skin-core's
//! `f32` lane (`skin_core::palette::StretchPalette`, `SkinnedMesh::skin_dqs_stretched`)
//! against the independent f64 oracle (`skin_tests::dual_oracle::stretched_point`): random
//! rigs whose joints carry uniform or per-axis scale from ¼ to 4× along random axes (a
//! shear in the joint's frame); one-bone vertices against LBS; rigid palettes keep the
//! plain loop's bits; matrices the split cannot represent are refused by joint. The same
//! in the fixed lane (`StretchPalette<Q14, _>`, the palette exponent for joints up to 4×):
//! every vertex within `fixed_stretch_error_bound(ν, e)`, rigid palettes with
//! `DualPalette`'s bits, one-bone vertices within the two lanes' bounds of fixed LBS, and
//! the worm through `skin_host`'s fixed pose.
//!
//! Limits: positions within 1e-5 of the extent (the `f32` limit of `skin validate`), as
//! plain DQS; normals within 1e-4 per coordinate: the normal goes through the blended
//! stretch's cofactors, whose entries are products of two stretch entries (up to 16 for a
//! 4× scale), so their rounding is up to 16× that of a rotation entry.

use proptest::prelude::*;
use proptest::test_runner::Config;
use skin_core::dual::SPLIT_MIN_DETERMINANT;
use skin_core::lane::{fixed_stretch_error_bound, FIXED_ERROR_BOUND, Q14};
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
        let (got_p, got_n) = rig.core::<f32>();
        let (want_p, want_n, margin, _) = rig.oracle::<f32>();
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

/// Vertices whose bones' rotations are within this (|q · q_lead|) of 180° from the lead
/// bone's may be flipped either way by the fixed palette's rounding (as in `core_dqs`).
const FIXED_MARGIN: f64 = 1e-3;

/// A random rig for the fixed lane: bind positions within (−1, 1) (the baker's unit), each
/// stretched bone's stretch scaled by `by` (so that the palettes need each exponent).
fn fixed_rig(seed: u64, bones: usize, per_axis: bool, by: f64) -> Rig {
    let mut rig = Rig::random(seed, bones, per_axis, false);
    for p in &mut rig.positions {
        *p = p.map(|c| c * 0.5);
    }
    for b in rig.bones.iter_mut().skip(1) {
        b.s = b.s.map(|r| r.map(|e| e * by));
    }
    rig
}

/// The worst error over `rig`'s vertices in the fixed lane as a fraction of the bound, and
/// the palette's exponent; fails on a vertex over the bound or a normal off by 2·10⁻³.
fn fixed_within_bound(rig: &Rig) -> Result<(f64, u8), String> {
    let e = rig.palette::<Q14>().stretches().map_or(0, |s| s.exponent);
    let (got_p, got_n) = rig.core::<Q14>();
    let (want_p, want_n, margin, nu) = rig.oracle::<Q14>();
    let mut worst = 0.0f64;
    for v in 0..got_p.len() {
        if margin[v] < FIXED_MARGIN {
            continue;
        }
        let err = coord_error(got_p[v], want_p[v]);
        let bound = fixed_stretch_error_bound(nu[v], e);
        if err > bound {
            return Err(format!(
                "vertex {v}: {:?} vs {:?}, error {err:e} > bound {bound:e} (ν = {}, exponent {e})",
                got_p[v], want_p[v], nu[v]
            ));
        }
        worst = worst.max(err / bound);
        let err = coord_error(got_n[v], want_n[v]);
        if err > 2e-3 {
            return Err(format!(
                "normal {v}: {:?} vs {:?}, error {err:e}",
                got_n[v], want_n[v]
            ));
        }
    }
    Ok((worst, e))
}

proptest! {
    #![proptest_config(Config::with_cases(64))]

    #[test]
    fn fixed_stretched_joints_are_within_the_bound(seed in any::<u64>(), bones in 1usize..=32, per_axis in any::<bool>(), by in 0.25f64..1.1) {
        let rig = fixed_rig(seed, bones, per_axis, by);
        if let Err(e) = fixed_within_bound(&rig) {
            prop_assert!(false, "{}", e);
        }
    }
}

/// Every exponent is reached by stretches of 1.1 to 4.4 along an axis, and each stays
/// within its bound; the worst fraction of the bound at each is printed (`--nocapture`).
#[test]
fn fixed_lane_error_is_measured_at_every_exponent() {
    let mut worst = [0.0f64; 3];
    let mut seen = [0usize; 3];
    for seed in 0..60u64 {
        let by = [0.28, 0.55, 1.1][(seed % 3) as usize];
        let rig = fixed_rig(seed, 16, seed % 2 == 0, by);
        let (w, e) = fixed_within_bound(&rig).unwrap();
        worst[usize::from(e)] = worst[usize::from(e)].max(w);
        seen[usize::from(e)] += 1;
    }
    println!("fixed stretched DQS: palettes by exponent {seen:?}, worst error / bound {worst:.3?}");
    assert!(
        seen.iter().all(|&n| n > 0),
        "every exponent exercised: {seen:?}"
    );
    assert!(
        worst.iter().all(|&w| w > 0.0),
        "the fixed lane rounds: {worst:?}"
    );
}

/// In the fixed lane a rigid palette has no stretches and keeps `DualPalette`'s bits, and
/// one-bone vertices of a stretched palette give fixed LBS's result within both bounds.
#[test]
fn fixed_rigid_palettes_and_one_bone_vertices() {
    let mut rigid = fixed_rig(9, 16, false, 1.0);
    for b in &mut rigid.bones {
        b.s = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
    }
    let stretched = rigid.palette::<Q14>();
    assert!(stretched.stretches().is_none());
    let mut plain: DualPalette<Q14, CAP> = DualPalette::new();
    for b in 0..rigid.bones.len() {
        plain
            .push(&Affine::from_f32(rigid.matrix(b).rows).unwrap())
            .unwrap();
    }
    assert_eq!(stretched.duals(), plain.as_slice());
    for (seed, per_axis) in [(3, false), (4, true)] {
        let mut rig = Rig::random(seed, 12, per_axis, true);
        for p in &mut rig.positions {
            *p = p.map(|c| c * 0.5);
        }
        let (dqs, _) = rig.core::<Q14>();
        let e = rig.palette::<Q14>().stretches().unwrap().exponent;
        let mut palette: Palette<Q14, CAP> = Palette::new();
        palette
            .fill(|| {
                (0..rig.bones.len()).map(|b| Ok(Affine::from_f32(rig.matrix(b).rows).unwrap()))
            })
            .unwrap();
        let (pos, inf) = (rig.lane_positions::<Q14>(), rig.lane_influences::<Q14>());
        let mut lbs = vec![[Default::default(); 3]; pos.len()];
        SkinnedMesh::<Q14, 4>::new(&pos, &inf)
            .unwrap()
            .skin(palette.as_slice(), &mut lbs)
            .unwrap();
        palette.widen(&mut lbs);
        let lbs: Vec<[f32; 3]> = lbs.iter().map(|p| p.map(|c| c.to_num())).collect();
        let err = skin_tests::worst(&dqs, &lbs);
        let limit = fixed_stretch_error_bound(1.0, e)
            + FIXED_ERROR_BOUND * f64::from(1u16 << palette.exponent());
        assert!(err <= limit, "seed {seed}: error {err:e} > {limit:e}");
    }
}

/// With one bone a vertex, the split joint (stretch, then rotation and translation) gives
/// the joint matrix's own result, LBS's, up to rounding.
#[test]
fn one_bone_vertices_equal_lbs() {
    for (seed, per_axis) in [(3, false), (4, true), (5, true)] {
        let rig = Rig::random(seed, 12, per_axis, true);
        let (dqs, _) = rig.core::<f32>();
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
    let stretched = rig.palette::<f32>();
    assert!(stretched.stretches().is_none());
    let mut plain: DualPalette<f32, CAP> = DualPalette::new();
    for b in 0..rig.bones.len() {
        plain.push(&rig.matrix(b)).unwrap();
    }
    assert_eq!(stretched.duals(), plain.as_slice());
    let (got, _) = rig.core::<f32>();
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
        let mut p: StretchPalette<f32, 4> = StretchPalette::new();
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

/// The squash-and-stretch worm (its clip scales joint 3 along the body), imported.
fn worm() -> skin_host::rig::Rig {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("worm.glb");
    std::fs::write(&path, skin_tests::gltf_gen::Worm::default().build().glb()).unwrap();
    skin_host::import::from_path(&path).unwrap()
}

/// The worm's frame with joint 3 stretched: clip 0 at 1 s.
const STRETCHED: Option<(usize, f32)> = Some((0, 1.0));

/// The oracle's positions of `prim` skinned by `bones`, and each vertex's blended real
/// part's norm `ν`, for the host's `f32` bind positions and weights.
fn worm_oracle(
    prim: &skin_host::rig::Primitive,
    bones: &[dual_oracle::StretchedBone],
) -> (Vec<oracle::V3>, Vec<f64>) {
    use skin_host::pose::values::{influences, positions};
    let (pos, inf) = (
        positions::<f32>(prim, 0, "prim").unwrap(),
        influences::<f32>(prim, "prim").unwrap(),
    );
    let rigid: Vec<dual_oracle::Bone> = bones.iter().map(|b| b.bone).collect();
    let mut r = (Vec::new(), Vec::new());
    for (p, i) in pos.iter().zip(&inf) {
        let index: Vec<usize> = i.bones().iter().map(|&b| usize::from(b)).collect();
        let w: Vec<f64> = i.weights().iter().map(|&w| f64::from(w)).collect();
        let p = p.map(f64::from);
        r.0.push(dual_oracle::stretched_point(bones, &index, &w, p));
        r.1.push(dual_oracle::blend(&rigid, &index, &w).2);
    }
    r
}

/// The worm posed by `skin_host`'s DQS in `f32` at the stretched frame: every skinned
/// vertex within 1e-5 of the extent of the oracle fed the same joint matrices, split by its
/// own eigen-decomposition (`dual_oracle::split`).
#[test]
fn the_stretched_worm_matches_the_oracle_through_host_pose() {
    use skin_host::pose::palette::skin_stretch_palette;
    use skin_host::pose::{animate, morph, skin::pose_lane, Skinning};
    let rig = worm();
    let locals = animate::frame::<f32>(&rig, STRETCHED, 0).unwrap();
    let palette = skin_stretch_palette::<f32>(&rig, &locals, 0, 0).unwrap();
    assert!(
        palette.stretches.is_some(),
        "the worm's joint 3 is scaled at this frame"
    );
    let bones = skin_tests::stretched_rig::oracle_bones(&rig, &locals);
    let weights = morph::weights(&rig, STRETCHED);
    let posed = pose_lane::<f32>(&rig, &locals, &weights, 0, Skinning::Dqs).unwrap();
    let mut checked = 0;
    for got in &posed {
        let prim = &rig.meshes[got.mesh].primitives[got.primitive];
        let (want, _) = worm_oracle(prim, &bones);
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

/// The worm at its stretched frame posed by `skin_host` in the fixed lane
/// (`skin pose --skinning dqs --arith fixed`): every vertex within the stretched bound at
/// the frame's exponent (in model units, the asset unit `2^k`) plus `skin validate`'s `f32`
/// allowance of 10⁻⁵ of the extent, against the oracle fed the `f32` joint matrices.
#[test]
fn the_stretched_worm_is_within_the_bound_through_the_fixed_pose() {
    use skin_host::pose::palette::fixed_stretch_exponent;
    use skin_host::pose::{animate, fixed_unit, pose_with, LaneKind, Skinning};
    let rig = worm();
    let e = fixed_stretch_exponent(&rig, STRETCHED)
        .unwrap()
        .expect("the worm's joint 3 is scaled at this frame");
    let k = fixed_unit(&rig).unwrap();
    let locals = animate::frame::<f32>(&rig, STRETCHED, 0).unwrap();
    let bones = skin_tests::stretched_rig::oracle_bones(&rig, &locals);
    let posed = pose_with(&rig, STRETCHED, LaneKind::Fixed, Skinning::Dqs).unwrap();
    let (mut checked, mut worst) = (0, 0.0f64);
    for got in &posed {
        let prim = &rig.meshes[got.mesh].primitives[got.primitive];
        let (want, nu) = worm_oracle(prim, &bones);
        let extent = oracle::extent(&want);
        for ((g, w), nu) in got.positions.iter().zip(&want).zip(nu) {
            let err = coord_error(*g, *w);
            let limit = fixed_stretch_error_bound(nu, e) * 2f64.powi(k) + 1e-5 * extent;
            assert!(err <= limit, "{g:?} vs {w:?}: {err:e} > {limit:e}");
            worst = worst.max(err / limit);
            checked += 1;
        }
    }
    println!("the worm in fixed point: exponent {e}, worst error {worst:.3} of the limit");
    assert!(checked >= 32, "{checked} vertices compared");
}
