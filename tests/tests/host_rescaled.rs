//! Authoring scale does not reach the fixed lane: every sample model, its armatures rescaled
//! ×100 (Blender's centimetre export) and ×0.01 (Mixamo's) with compensating translations,
//! keys and inverse binds — the same skinned result — poses in `f32` within 1e-6 of the
//! model's extent of the original's pose, and in fixed point within 2.5e-4 of its extent
//! (1/4096: about a pixel at 16× zoom on a 240-pixel display), as the originals do.

use skin_host::pose::{self, LaneKind, PosedPrimitive};
use skin_host::rig::Rig;
use skin_tests::rescale::rescaled;

/// The fixed lane's goal on every model, relative to its extent.
const FIXED_GOAL: f64 = 2.5e-4;
/// `f32` against the unscaled original, relative to its extent.
const F32_GOAL: f64 = 1e-6;

/// The bounding-box diagonal of `posed`.
fn extent(posed: &[PosedPrimitive]) -> f64 {
    let mut lo = [f64::INFINITY; 3];
    let mut hi = [f64::NEG_INFINITY; 3];
    for p in posed.iter().flat_map(|b| &b.positions) {
        for i in 0..3 {
            lo[i] = lo[i].min(f64::from(p[i]));
            hi[i] = hi[i].max(f64::from(p[i]));
        }
    }
    (0..3).map(|i| (hi[i] - lo[i]).powi(2)).sum::<f64>().sqrt()
}

/// The largest coordinate difference between two poses of the same rig.
fn largest_difference(a: &[PosedPrimitive], b: &[PosedPrimitive]) -> f64 {
    assert_eq!(a.len(), b.len());
    a.iter()
        .zip(b)
        .flat_map(|(x, y)| x.positions.iter().zip(&y.positions))
        .flat_map(|(p, q)| (0..3).map(move |i| (f64::from(p[i]) - f64::from(q[i])).abs()))
        .fold(0.0, f64::max)
}

/// The rest pose and three times of every clip.
fn cases(rig: &Rig) -> Vec<Option<(usize, f32)>> {
    let mut cases = vec![None];
    for (c, clip) in rig.clips.iter().enumerate() {
        let d = clip.duration();
        cases.extend([0.0, 0.37, 0.81].map(|t| Some((c, t * d))));
    }
    cases
}

#[test]
fn rescaled_armatures_pose_as_the_originals_in_every_lane() {
    for path in skin_tests::sample_models("rescaled_armatures_pose_as_the_originals") {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let rig = skin_host::import::from_path(&path).expect("import");
        let extent = extent(&pose::pose(&rig, None, LaneKind::F32).unwrap());
        let variants = [
            ("original", rig.clone()),
            ("×100", rescaled(&rig, 100.0)),
            ("×0.01", rescaled(&rig, 0.01)),
        ];
        for anim in cases(&rig) {
            let want = pose::pose(&rig, anim, LaneKind::F32).unwrap();
            for (what, variant) in &variants {
                let f32s = pose::pose(variant, anim, LaneKind::F32)
                    .unwrap_or_else(|e| panic!("{name} {what} {anim:?} f32: {e}"));
                let e = largest_difference(&f32s, &want) / extent;
                assert!(
                    e <= F32_GOAL,
                    "{name} {what} {anim:?}: f32 off by {e:e} of the extent"
                );
                let fixed = pose::pose(variant, anim, LaneKind::Fixed)
                    .unwrap_or_else(|e| panic!("{name} {what} {anim:?} fixed: {e}"));
                let e = largest_difference(&fixed, &want) / extent;
                println!("{name} {what} {anim:?}: fixed {e:.2e} of the extent");
                assert!(
                    e <= FIXED_GOAL,
                    "{name} {what} {anim:?}: fixed off by {e:e} of the extent"
                );
            }
        }
    }
}
