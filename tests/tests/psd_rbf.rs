//! Pose-space deformation's RBF: the host's `f64` solve against an elimination written
//! independently (tests/src/psd_oracle.rs), and the core's run-time weights in `f32` and
//! `I8F24` against the `f64` definition on the lane's own inputs, within
//! `Rbf::error_bound`; bad input refused by name.

use skin_core::num::Fx;
use skin_core::psd::{Rbf, RbfReal};
use skin_core::quat::Quat;
use skin_core::transform::Transform;
use skin_host::psd::{resolve, solve, PsdError, Sample, Solution};
use skin_tests::psd_oracle;
use skin_tests::Rng;

/// A random unit quaternion within about `spread` radians of the identity.
fn rotation(rng: &mut Rng, spread: f32) -> [f64; 4] {
    let axis = rng.point(1.0).map(f64::from);
    let len = axis.iter().map(|a| a * a).sum::<f64>().sqrt().max(1e-3);
    let half = f64::from(rng.range(-spread, spread)) / 2.0;
    let s = half.sin() / len;
    [axis[0] * s, axis[1] * s, axis[2] * s, half.cos()]
}

/// `samples` random poses of `drivers` joints (the first the rest pose, all weights 0) with
/// random weights for `targets` targets.
fn samples(rng: &mut Rng, drivers: usize, samples: usize, targets: usize) -> Vec<Sample> {
    (0..samples)
        .map(|j| Sample {
            rotations: (0..drivers)
                .map(|_| match j {
                    0 => [0.0, 0.0, 0.0, 1.0],
                    _ => rotation(rng, 2.5),
                })
                .collect(),
            weights: (0..targets)
                .map(|_| if j == 0 { 0.0 } else { f64::from(rng.unit()) })
                .collect(),
        })
        .collect()
}

fn rows(s: &Solution, drivers: usize) -> (Vec<Vec<f64>>, Vec<Vec<f64>>) {
    (
        s.centres.chunks(drivers).map(|c| c.concat()).collect(),
        s.weights.chunks(s.targets).map(<[f64]>::to_vec).collect(),
    )
}

#[test]
fn the_solve_meets_every_sample_and_matches_elimination() {
    let mut rng = Rng(0x5D5_0001);
    let mut solved = 0;
    for case in 0..300 {
        let (d, n, t) = (1 + case % 3, 2 + case % 11, 1 + case % 3);
        let set = samples(&mut rng, d, n, t);
        let sigma = f64::from(rng.range(0.3, 1.2));
        let s = match solve(&set, t, sigma, None) {
            Ok(s) => s,
            Err(PsdError::Spread { .. }) => continue,
            Err(e) => panic!("case {case}: {e}"),
        };
        solved += 1;
        let (centres, w) = rows(&s, d);
        let c = 1.0 / (2.0 * sigma * sigma);
        let tolerance = 1e-14 * s.condition * n as f64;
        for (j, sample) in set.iter().enumerate() {
            let got = psd_oracle::evaluate(&centres, &w, c, &centres[j]);
            for (g, want) in got.iter().zip(&sample.weights) {
                assert!(
                    (g - want).abs() <= tolerance.max(1e-12),
                    "case {case} sample {j}: {g} vs {want} (condition {})",
                    s.condition
                );
            }
        }
        let y: Vec<Vec<f64>> = set.iter().map(|s| s.weights.clone()).collect();
        let other = psd_oracle::solve(&centres, &y, c);
        let scale = w.iter().flatten().fold(1.0f64, |m, v| m.max(v.abs()));
        for (a, b) in w.iter().flatten().zip(other.iter().flatten()) {
            assert!(
                (a - b).abs() <= tolerance.max(1e-12) * scale,
                "case {case}: W {a} vs {b}"
            );
        }
    }
    assert!(solved > 200, "only {solved} of 300 sets solved");
}

/// The core's weights at random poses against the `f64` formula on its own inputs.
fn core_within_bound<R: RbfReal>(seed: u64) -> f64 {
    let mut rng = Rng(seed);
    let mut worst_share = 0.0f64;
    for case in 0..200 {
        let (d, n, t) = (1 + case % 3, 2 + case % 9, 1 + case % 2);
        let set = samples(&mut rng, d, n, t);
        let sigma = rng.range(0.3, 1.2);
        let Ok(s) = solve(&set, t, f64::from(sigma), None) else {
            continue;
        };
        let (centres, weights) = s.lane::<R>();
        let drivers: Vec<u16> = (0..d as u16).map(|j| j + 1).collect();
        let rbf = Rbf::new(&drivers, &centres, &weights, t, sigma, d + 1).expect("a valid RBF");
        let c = f64::from(rbf.falloff().to_f32());
        let lane_rows = |v: &[[R; 4]]| -> Vec<f64> {
            v.iter().flatten().map(|x| f64::from(x.to_f32())).collect()
        };
        let centres64: Vec<Vec<f64>> = centres.chunks(d).map(&lane_rows).collect();
        let w64: Vec<Vec<f64>> = weights
            .chunks(t)
            .map(|r| r.iter().map(|x| f64::from(x.to_f32())).collect())
            .collect();
        for _ in 0..20 {
            let mut pose = vec![Transform::<R>::IDENTITY; d + 1];
            for p in pose.iter_mut().skip(1) {
                let q = rotation(&mut rng, 3.0).map(|v| v as f32);
                p.rotation = Quat::from_f32(q).expect("a unit quaternion");
            }
            let phi = rbf.feature(&pose).expect("a pose of the skeleton");
            let mut got = vec![0.0f32; t];
            rbf.weights(&phi, &mut got).expect("one weight a target");
            let want = psd_oracle::evaluate(&centres64, &w64, c, &lane_rows(phi.values()));
            for (k, (g, w)) in got.iter().zip(&want).enumerate() {
                let err = (f64::from(*g) - w).abs();
                let bound = f64::from(rbf.error_bound(k));
                assert!(
                    err <= bound,
                    "{} case {case} target {k}: {g} vs {w}, error {err:e} over {bound:e}",
                    R::NAME
                );
                worst_share = worst_share.max(err / bound);
            }
        }
    }
    worst_share
}

#[test]
fn core_weights_are_within_their_bound_in_both_formats() {
    let f = core_within_bound::<f32>(0x5D5_0002);
    let x = core_within_bound::<Fx>(0x5D5_0003);
    eprintln!("largest error as a share of the bound: f32 {f:.3}, I8F24 {x:.3}");
    // Not vacuous: the errors measured come near the bounds.
    assert!(f > 0.005 && x > 0.05, "f32 {f}, I8F24 {x}");
}

#[test]
fn bad_input_is_refused_by_name() {
    let s = std::f64::consts::FRAC_1_SQRT_2;
    let rest = Sample {
        rotations: vec![[0.0, 0.0, 0.0, 1.0]],
        weights: vec![0.0],
    };
    let bent = Sample {
        rotations: vec![[0.0, 0.0, s, s]],
        weights: vec![1.0],
    };
    let message = |r: Result<Solution, PsdError>| r.unwrap_err().to_string();
    let set = [rest.clone(), bent.clone()];
    assert!(message(solve(&set, 1, 0.0, None)).contains("sigma = 0"));
    assert!(message(solve(&set, 1, -1.0, None)).contains("sigma = -1"));
    assert!(message(solve(&set, 1, f64::NAN, None)).contains("sigma = NaN"));
    assert!(message(solve(&set, 1, 0.5, Some(-1.0))).contains("lambda = -1"));
    let mut nan = bent.clone();
    nan.rotations[0][2] = f64::NAN;
    let m = message(solve(&[rest.clone(), nan], 1, 0.5, None));
    assert!(
        m.contains("pose 1") && m.contains("rotation 0") && m.contains("NaN"),
        "{m}"
    );
    let mut nan = bent.clone();
    nan.weights[0] = f64::INFINITY;
    assert!(message(solve(&[rest.clone(), nan], 1, 0.5, None)).contains("weight 0"));
    let m = message(solve(
        &[rest.clone(), bent.clone(), bent.clone()],
        1,
        0.5,
        None,
    ));
    assert!(
        m.contains("singular") && m.contains("condition number"),
        "{m}"
    );
    // A pose within 10⁻⁶ rad of another is singular too; regularised, it solves.
    let mut near = bent.clone();
    near.rotations[0][2] += 1e-6;
    let m = message(solve(
        &[rest.clone(), bent.clone(), near.clone()],
        1,
        0.5,
        None,
    ));
    assert!(m.contains("--regularise"), "{m}");
    let r = solve(&[rest.clone(), bent.clone(), near], 1, 0.5, Some(1e-3)).unwrap();
    assert!(r.condition > skin_host::psd::CONDITION_LIMIT && r.lambda == 1e-3);
    let m = message(solve(&[rest, bent], 2, 0.5, None));
    assert!(m.contains("weights has 1 entries, 2 expected"), "{m}");
    let names = [Some("root"), None, Some("forearm")];
    assert_eq!(resolve(&["forearm", "#1"], &names).unwrap(), [2, 1]);
    assert_eq!(
        resolve(&["forarm"], &names).unwrap_err().to_string(),
        "corrective driving joint 'forarm' is not a node of the model"
    );
    assert!(resolve(&["#3"], &names).is_err());
    // The core refuses what the host would not give it.
    let centres = [[0.0f32, 0.0, 0.0, 1.0]];
    let msg = Rbf::new(&[3], &centres, &[1.0], 1, 0.5, 3)
        .unwrap_err()
        .to_string();
    assert!(msg.contains("joint 3") && msg.contains("3 joints"), "{msg}");
    let msg = Rbf::new(&[1], &centres, &[1.0], 1, -0.5, 3)
        .unwrap_err()
        .to_string();
    assert!(msg.contains("σ = -0.5"), "{msg}");
    let wide = [[0.0f32, 0.0, 2.0, 1.0]];
    let msg = Rbf::new(&[1], &wide, &[1.0], 1, 0.5, 3)
        .unwrap_err()
        .to_string();
    assert!(msg.contains("centre 0"), "{msg}");
    let big = [Fx::from_num(70)];
    let unit = [[Fx::ZERO, Fx::ZERO, Fx::ZERO, Fx::ONE]];
    let msg = Rbf::new(&[1], &unit, &big, 1, 0.5, 3)
        .unwrap_err()
        .to_string();
    assert!(msg.contains("add up to 70") && msg.contains("64"), "{msg}");
}
