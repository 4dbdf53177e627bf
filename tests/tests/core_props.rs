//! skin-core against the f64 oracle on random rigs: random skeletons (19 to 85 bones, the
//! vs_2_0 3×4 budget), any rotations, translations across the range, 1–4 influences.
//!
//! `f32` must match within 1e-5 of the mesh's extent. The fixed lane (`Fx` skeleton maths,
//! `Q14` kernel) must stay within the bound its module documents (8.25·2⁻¹⁵ asset units per
//! coordinate, `skin_core::lane::FIXED_ERROR_BOUND`) and the project's aim, 1/4096 of the extent; `fixed_lane_error_is_measured`
//! prints the largest error it saw.

mod core_rig;

use core_rig::{Rig, CAP};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use skin_core::lane::{FIXED_ERROR_BOUND, Q14};
use skin_core::num::Fx;
use skin_core::prelude::*;
use skin_tests::oracle;

fn max_coord_error(a: &[oracle::V3], b: &[oracle::V3]) -> f64 {
    a.iter()
        .zip(b)
        .flat_map(|(a, b)| (0..3).map(move |k| (a[k] - b[k]).abs()))
        .fold(0.0, f64::max)
}

/// Largest angle-free error between unit normals, over normals whose blend is not collapsed.
fn max_normal_error(core: &[oracle::V3], oracle_raw: &[oracle::V3]) -> f64 {
    core.iter()
        .zip(oracle_raw)
        .filter(|(_, o)| oracle::norm(**o) > 0.1)
        .map(|(c, o)| {
            let l = oracle::norm(*o);
            oracle::distance(*c, o.map(|v| v / l))
        })
        .fold(0.0, f64::max)
}

mod core_props {
    use super::*;

    proptest! {
        #![proptest_config(Config::with_cases(256))]

        #[test]
        fn f32_lane_matches_the_oracle(
            seed in any::<u64>(),
            bones in 19usize..=CAP,
            scale_exp in -6i32..=10,
        ) {
            let scale = 2f64.powi(scale_exp);
            let rig = Rig::random(seed, bones, 48, scale);
            let palette = rig.core_palette::<f32>(Affine::IDENTITY).unwrap();
            let (core_p, _) = rig.core_skin(&palette);
            let oracle_palette = rig.oracle_palette();
            let (want_p, _) = rig.oracle_skin::<f32>(&oracle_palette);
            let extent = rig.extent();
            let err = max_coord_error(&core_p, &want_p);
            prop_assert!(err <= 1e-5 * extent,
                "position error {err:e} > 1e-5 × extent {extent:e} ({} bones)", bones);
            // Also against the original inputs (the f32 lane rounds nothing on the way in).
            let err = max_coord_error(&core_p, &rig.oracle_skin_exact(&oracle_palette));
            prop_assert!(err <= 1e-5 * extent);
        }

        /// Normals: the blended linear part applied and renormalised. The f32 lane documents a
        /// relative error of ~5e-6 for its renormalisation (core/src/lane/float.rs).
        #[test]
        fn f32_normals_match_the_oracle(seed in any::<u64>(), bones in 19usize..=CAP) {
            let rig = Rig::random(seed, bones, 48, 1.0);
            let palette = rig.core_palette::<f32>(Affine::IDENTITY).unwrap();
            let (_, core_n) = rig.core_skin(&palette);
            let (_, want_n) = rig.oracle_skin::<f32>(&rig.oracle_palette());
            let err = max_normal_error(&core_n, &want_n);
            prop_assert!(err <= 2e-5, "normal error {err:e}");
        }

        #[test]
        fn slerp_matches_the_oracle(
            a in prop::array::uniform4(-1.0f32..1.0),
            b in prop::array::uniform4(-1.0f32..1.0),
            t in 0.0f32..=1.0,
        ) {
            let len = |q: [f32; 4]| q.iter().map(|v| v * v).sum::<f32>().sqrt();
            prop_assume!(len(a) > 0.1 && len(b) > 0.1);
            let qa = Quat::<f32>::from_f32(a).unwrap();
            let qb = Quat::<f32>::from_f32(b).unwrap();
            let got = qa.slerp(qb, t).to_f32().map(f64::from);
            let want = oracle::slerp(a.map(f64::from), b.map(f64::from), f64::from(t));
            let err = (0..4).map(|i| (got[i] - want[i]).abs()).fold(0.0, f64::max);
            prop_assert!(err < 2e-5, "slerp {a:?} {b:?} {t}: {got:?} vs {want:?}");
            // Fixed point follows the same arc.
            let fa = Quat::<Fx>::from_f32(a).unwrap();
            let fb = Quat::<Fx>::from_f32(b).unwrap();
            let got = fa.slerp(fb, Fx::from_num(t)).to_f32().map(f64::from);
            let err = (0..4).map(|i| (got[i] - want[i]).abs()).fold(0.0, f64::max);
            prop_assert!(err < 1e-4, "fixed slerp {a:?} {b:?} {t}: {got:?} vs {want:?}");
        }

        /// Any quaternion of at least `Real::EPSILON`'s length normalises to unit length in
        /// its direction, the short ones too (a shortest arc between nearly opposite vectors
        /// times a rotation: below 2⁻⁶, `1/len` is beyond `I8F24`'s range).
        #[test]
        fn normalize_gives_a_unit_quaternion_at_any_length(
            q in prop::array::uniform4(-1.0f64..1.0),
            exp in -10.0f64..0.5,
        ) {
            let len = q.iter().map(|v| v * v).sum::<f64>().sqrt();
            prop_assume!(len > 0.1);
            let dir = q.map(|v| v / len);
            let short = dir.map(|v| (v * 2f64.powf(exp)) as f32);
            let check = |got: [f32; 4], tol: f64| -> Result<(), TestCaseError> {
                let err = (0..4).map(|i| (f64::from(got[i]) - dir[i]).abs()).fold(0.0, f64::max);
                prop_assert!(err <= tol, "{short:?} normalised to {got:?}, want {dir:?}");
                Ok(())
            };
            let raw = |v: [f32; 4]| Quat { x: v[0], y: v[1], z: v[2], w: v[3] };
            check(raw(short).normalize().to_f32(), 1e-5)?;
            let fx = Quat {
                x: Fx::from_num(short[0]),
                y: Fx::from_num(short[1]),
                z: Fx::from_num(short[2]),
                w: Fx::from_num(short[3]),
            };
            // The components' rounding, 2⁻²⁴, is 2⁻¹⁴ of the shortest length here (2⁻¹⁰:
            // shorter ones' squared lengths, a few steps of `I8F24`, tell little).
            check(fx.normalize().to_f32(), 1.0 / 4096.0)?;
        }

        #[test]
        fn transform_matrices_match_the_oracle(
            t in prop::array::uniform3(-100.0f32..100.0),
            q in prop::array::uniform4(-1.0f32..1.0),
            s in prop::array::uniform3(0.1f32..10.0),
        ) {
            prop_assume!(q.iter().map(|v| v * v).sum::<f32>() > 0.01);
            let m = Transform::<f32>::from_f32(t, q, s).unwrap().to_affine();
            let want = oracle::trs(t.map(f64::from), q.map(f64::from), s.map(f64::from));
            let pairs = m.rows.iter().flatten().zip(want.iter().flatten());
            for (k, (&got, &want)) in pairs.enumerate() {
                let tol = 1e-6 * (1.0 + want.abs().max(10.0));
                prop_assert!((f64::from(got) - want).abs() < tol, "entry {k}: {got} vs {want}");
            }
            let inv = m.inverse().unwrap();
            let want_inv = oracle::inverse(&want).unwrap();
            let big = want_inv.iter().flatten().fold(1.0f64, |a, v| a.max(v.abs()));
            let pairs = inv.rows.iter().flatten().zip(want_inv.iter().flatten());
            for (k, (&got, &want)) in pairs.enumerate() {
                prop_assert!((f64::from(got) - want).abs() < 1e-4 * big,
                    "inverse entry {k}: {got} vs {want}");
            }
        }
    }

    /// The fixed lane on many random baked rigs (asset units): within the documented bound on
    /// every coordinate and within 1/4096 of the extent. Prints the worst case seen.
    #[test]
    fn fixed_lane_error_is_measured() {
        let mut runner = TestRunner::new(Config {
            failure_persistence: None,
            ..Config::with_cases(1000)
        });
        let worst = std::cell::Cell::new((0.0f64, 0.0f64, 0.0f64, 0.0f64));
        let result = runner.run(&(any::<u64>(), 19usize..=CAP), |(seed, bones)| {
            let rig = Rig::random(seed, bones, 48, 1.0);
            let palette = rig.core_palette::<Q14>(Affine::IDENTITY).unwrap();
            let (core_p, core_n) = rig.core_skin(&palette);
            let oracle_palette = rig.oracle_palette();
            // Against the inputs as the fixed lane holds them (the kernel's own error) …
            let (want_p, want_n) = rig.oracle_skin::<Q14>(&oracle_palette);
            let err = max_coord_error(&core_p, &want_p);
            // … and against the original f32 inputs (adds position and weight rounding).
            let err_in = max_coord_error(&core_p, &rig.oracle_skin_exact(&oracle_palette));
            let extent = rig.extent();
            let nerr = max_normal_error(&core_n, &want_n);
            let (w0, w1, w2, w3) = worst.get();
            worst.set((
                w0.max(err),
                w1.max(err / extent),
                w2.max(err_in / extent),
                w3.max(nerr),
            ));
            prop_assert!(
                err <= FIXED_ERROR_BOUND,
                "fixed error {err:e} exceeds the documented bound {FIXED_ERROR_BOUND:e}"
            );
            prop_assert!(
                err_in <= extent / 4096.0,
                "fixed error {err_in:e} (with input rounding) exceeds extent/4096 = {:e}",
                extent / 4096.0
            );
            prop_assert!(nerr < 1e-3, "fixed normal error {nerr:e}");
            Ok(())
        });
        let (abs, rel, rel_in, nerr) = worst.get();
        println!(
            "fixed lane, 1000 rigs × 48 vertices: max error {abs:.3e} asset units \
             (documented bound {FIXED_ERROR_BOUND:.3e}); max error / extent = 1/{:.0} \
             (1/{:.0} including input rounding); max normal error {nerr:.3e}",
            1.0 / rel,
            1.0 / rel_in
        );
        result.unwrap();
    }
}
