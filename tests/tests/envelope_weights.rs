//! Envelope weights: skin-core's `envelope` against the `f64` oracle
//! (`skin_tests::envelope_oracle`) within its documented bounds, its errors, and `skin
//! weights --envelopes`: the glTF it writes imports, poses and passes the Khronos validator.

use std::path::Path;
use std::process::Command;

use skin_core::envelope::{
    distance_error_bound, influence_error_bound, Capsule, EnvelopeError, Envelopes, Radii, MAX_KEPT,
};
use skin_host::character::Character;
use skin_host::pose::LaneKind;
use skin_tests::envelope_oracle::{self, Capsule64};
use skin_tests::{skin_cli, Rng};

fn widen(c: &Capsule) -> Capsule64 {
    let (h, t) = c.segment();
    Capsule64 {
        joint: c.joint(),
        head: h.map(f64::from),
        tail: t.map(f64::from),
        inner: f64::from(c.radii().inner()),
        outer: f64::from(c.radii().outer()),
    }
}

/// A random rig: `joints` joints, one to three capsules each (some spheres), sorted.
fn capsules(rng: &mut Rng, joints: u16, scale: f32) -> Vec<Capsule> {
    let mut out = Vec::new();
    for joint in 0..joints {
        let head = rng.point(scale);
        for k in 0..1 + (rng.unit() * 3.0) as usize {
            let tail = if k == 0 && rng.unit() < 0.2 {
                head
            } else {
                rng.point(scale)
            };
            let inner = rng.range(0.01, 0.3) * scale;
            let outer = inner + rng.range(0.01, 0.8) * scale;
            out.push(Capsule::new(joint, head, tail, Radii::new(inner, outer).unwrap()).unwrap());
        }
    }
    out
}

#[test]
fn distances_and_influences_are_within_their_bounds_of_the_oracle() {
    let mut rng = Rng(0x5EED_0001);
    let mut checked = 0;
    for scale in [0.01f32, 1.0, 100.0] {
        for _ in 0..200 {
            let cs = capsules(&mut rng, 3, scale);
            for _ in 0..20 {
                let p = rng.point(1.5 * scale);
                for c in &cs {
                    let o = widen(c);
                    let p64 = p.map(f64::from);
                    let d = f64::from(c.distance(p));
                    let bound = f64::from(distance_error_bound(c, p));
                    let d64 = envelope_oracle::distance(&o, p64);
                    assert!(
                        (d - d64).abs() <= bound,
                        "{c:?} at {p:?}: {d} vs {d64}, bound {bound}"
                    );
                    let r = f64::from(c.influence(p));
                    let r64 = envelope_oracle::influence(&o, p64);
                    let bound = f64::from(influence_error_bound(c, p));
                    assert!(
                        (r - r64).abs() <= bound,
                        "{c:?} at {p:?}: {r} vs {r64}, bound {bound}"
                    );
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 20_000);
}

/// The falloff at the radii: full inside, none beyond, smooth (zero slope) at both ends.
#[test]
fn the_falloff_is_one_inside_zero_beyond_and_flat_at_both_radii() {
    let r = Radii::new(1.0, 3.0).unwrap();
    assert_eq!(r.falloff(0.0), 1.0);
    assert_eq!(r.falloff(1.0), 1.0);
    assert_eq!(r.falloff(3.0), 0.0);
    assert_eq!(r.falloff(7.0), 0.0);
    assert!((r.falloff(2.0) - 0.5).abs() < 1e-6);
    let h = 1e-3;
    assert!((1.0 - r.falloff(1.0 + h)) < 1e-5, "slope at inner");
    assert!(r.falloff(3.0 - h) < 1e-5, "slope at outer");
    // Monotone between.
    let mut last = 1.0;
    for i in 0..=200 {
        let v = r.falloff(1.0 + 2.0 * i as f32 / 200.0);
        assert!(v <= last);
        last = v;
    }
}

#[test]
fn weights_are_within_their_bound_of_the_oracle() {
    let mut rng = Rng(0x5EED_0002);
    let (mut compared, mut ties, mut outside) = (0, 0, 0);
    for _ in 0..400 {
        let joints = 1 + (rng.unit() * 9.0) as u16;
        let cs = capsules(&mut rng, joints, 1.0);
        let envelopes = Envelopes::new(&cs).unwrap();
        let wide: Vec<Capsule64> = cs.iter().map(widen).collect();
        for _ in 0..25 {
            let p = rng.point(1.2);
            let w = envelopes.weigh(p);
            let o = envelope_oracle::weigh(&wide, p.map(f64::from));
            // Properties of every answer.
            let sum: f32 = w.weights.iter().sum();
            assert!((sum - 1.0).abs() <= 8.0 * f32::EPSILON, "{w:?}");
            assert!(w.weights.windows(2).all(|x| x[0] >= x[1]), "{w:?}");
            for k in 1..MAX_KEPT {
                if w.weights[k] == 0.0 {
                    assert_eq!(w.joints[k], 0, "{w:?}");
                }
            }
            assert!((0.0..1.0).contains(&w.dropped));
            // The largest raw error of any capsule at p.
            let dr = cs
                .iter()
                .map(|c| f64::from(influence_error_bound(c, p)))
                .fold(0.0, f64::max);
            let total: f64 = o.raw.iter().map(|x| x.1).sum();
            if o.raw.is_empty() {
                // No envelope reaches p: the nearest one's joint, alone.
                if !w.outside {
                    // Only a point within rounding of an outer radius may differ.
                    assert!(w.weights[0] == 1.0 && cs.iter().any(|c| c.influence(p) <= dr as f32));
                    ties += 1;
                    continue;
                }
                assert_eq!((w.joints[0], w.weights), (o.nearest, [1.0, 0.0, 0.0, 0.0]));
                assert_eq!(w.dropped, 0.0);
                outside += 1;
                continue;
            }
            // Selections that rounding could reorder (two raw values within 2·δr at the
            // cut, or a raw value within δr of zero) are counted, not compared.
            let near_cut =
                o.raw.len() > MAX_KEPT && o.raw[MAX_KEPT - 1].1 - o.raw[MAX_KEPT].1 <= 2.0 * dr;
            let near_zero = o.raw.iter().any(|x| x.1 <= dr);
            if near_cut || near_zero {
                ties += 1;
                continue;
            }
            assert!(!w.outside);
            let kept: f64 = o.raw.iter().take(MAX_KEPT).map(|x| x.1).sum();
            let k = o.kept.len() as f64;
            let bound = (k + 1.0) * dr / kept + 4.0 * f64::from(f32::EPSILON);
            for &(j, w64) in &o.kept {
                let slot = (0..MAX_KEPT)
                    .find(|&s| w.joints[s] == j && w.weights[s] > 0.0)
                    .unwrap_or_else(|| panic!("joint {j} missing from {w:?} (oracle {o:?})"));
                let got = f64::from(w.weights[slot]);
                assert!(
                    (got - w64).abs() <= bound,
                    "joint {j}: {got} vs {w64}, bound {bound}"
                );
            }
            assert_eq!(w.weights.iter().filter(|&&x| x > 0.0).count(), o.kept.len());
            let n = o.raw.len() as f64;
            let bound = (n + 1.0) * dr / total + 4.0 * f64::from(f32::EPSILON);
            assert!(
                (f64::from(w.dropped) - o.dropped).abs() <= bound,
                "{w:?} vs {o:?}"
            );
            compared += 1;
        }
    }
    // The cases compared dominate; some have more than four joints and some none.
    assert!(
        compared > 5_000 && ties < compared / 10 && outside > 100,
        "{compared} {ties} {outside}"
    );
}

#[test]
fn bad_envelopes_are_typed_errors_that_name_the_values() {
    for (inner, outer) in [
        (0.0, 1.0),
        (-1.0, 1.0),
        (1.0, 1.0),
        (2.0, 1.0),
        (f32::NAN, 1.0),
        (0.5, f32::INFINITY),
    ] {
        let e = Radii::new(inner, outer).unwrap_err();
        assert!(matches!(e, EnvelopeError::Radii { .. }), "{e:?}");
        let text = e.to_string();
        assert!(
            text.contains(&format!("inner {inner}")) && text.contains("0 < inner < outer"),
            "{text}"
        );
    }
    let r = Radii::new(0.1, 0.2).unwrap();
    assert_eq!(
        Capsule::new(3, [0.0, f32::NAN, 0.0], [0.0; 3], r).unwrap_err(),
        EnvelopeError::Point { joint: 3 }
    );
    assert_eq!(Envelopes::new(&[]).unwrap_err(), EnvelopeError::Empty);
    let a = Capsule::new(2, [0.0; 3], [1.0, 0.0, 0.0], r).unwrap();
    let b = Capsule::new(1, [0.0; 3], [1.0, 0.0, 0.0], r).unwrap();
    let e = Envelopes::new(&[a, b]).unwrap_err();
    assert_eq!(e, EnvelopeError::Order { index: 1, joint: 1 });
    assert!(e.to_string().contains("capsule 1 (joint 1)"), "{e}");
}

/// `skin weights INPUT --envelopes --inner INNER --outer OUTER -o OUTPUT`'s output.
fn weigh_file(input: &Path, output: &Path, inner: f32, outer: f32) -> String {
    let (inner, outer) = (inner.to_string(), outer.to_string());
    let (i, o) = (input.to_str().unwrap(), output.to_str().unwrap());
    skin_cli(&[
        "weights",
        i,
        "--envelopes",
        "--inner",
        &inner,
        "--outer",
        &outer,
        "-o",
        o,
    ])
    .unwrap()
}

/// The written file holds the computed weights, imports, poses through every clip, and
/// nothing else changed.
fn check_written(input: &Path, output: &Path, inner: f32, outer: f32) {
    let rig = skin_host::import::from_path(input).unwrap();
    let radii = skin_host::envelope::RadiiTable::new(Some(Radii::new(inner, outer).unwrap()));
    let expected = skin_host::envelope::weigh(&rig, &radii).unwrap();
    let back = skin_host::import::from_path(output).unwrap();
    for &(m, p) in &expected.primitives {
        let want = expected.rig.meshes[m].primitives[p]
            .influences
            .as_ref()
            .unwrap();
        let got = back.meshes[m].primitives[p].influences.as_ref().unwrap();
        // The importer renormalises in f32 and fills unused slots its own way: the same
        // weights per joint, to rounding.
        assert_eq!(got.len(), want.len());
        for (v, (a, b)) in got.iter().zip(want).enumerate() {
            let d = skin_host::envelope::study::weight_difference(a, b);
            assert!(
                d <= 1e-6,
                "{}: mesh {m} primitive {p} vertex {v}: {a:?} vs {b:?}",
                output.display()
            );
        }
        assert_eq!(
            back.meshes[m].primitives[p].positions,
            rig.meshes[m].primitives[p].positions
        );
    }
    assert_eq!(back.nodes, rig.nodes);
    assert_eq!(back.clips, rig.clips);
    // It poses, and differently from the artist's weights somewhere in its clips.
    let mut moved = false;
    for c in 0..back.clips.len() {
        for f in [0.2, 0.4, 0.6, 0.8] {
            let t = back.clips[c].duration() * f;
            let a = skin_host::pose::pose(&back, Some((c, t)), LaneKind::F32).unwrap();
            let b = skin_host::pose::pose(&rig, Some((c, t)), LaneKind::F32).unwrap();
            assert!(a
                .iter()
                .flat_map(|x| &x.positions)
                .flatten()
                .all(|v| v.is_finite()));
            moved |= a != b;
        }
    }
    assert!(moved || back.clips.is_empty(), "{}", output.display());
}

/// The validator's issues for `file`, or `None` (and a skip) without node or the package.
fn validator(test: &str, file: &Path) -> Option<serde_json::Value> {
    const SCRIPT: &str = r#"
const validator = require('gltf-validator');
const fs = require('fs');
validator.validateBytes(new Uint8Array(fs.readFileSync(process.argv[1])), { maxIssues: 100 })
  .then((report) => console.log(JSON.stringify(report.issues)))
  .catch((e) => { console.error(String(e)); process.exit(1); });
"#;
    let npm = skin_tests::workspace_root().join("target/npm");
    if !npm.join("node_modules/gltf-validator").is_dir()
        || Command::new("node").arg("--version").output().is_err()
    {
        skin_tests::skip(
            test,
            "node or gltf-validator in target/npm is missing (scripts/setup.sh installs them)",
        );
        return None;
    }
    let out = Command::new("node")
        .current_dir(&npm)
        .arg("-e")
        .arg(SCRIPT)
        .arg(file)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(serde_json::from_slice(&out.stdout).unwrap())
}

/// The codes of the validator's errors and warnings.
fn problems(issues: &serde_json::Value) -> Vec<String> {
    let mut codes: Vec<String> = issues["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["severity"].as_u64().unwrap() <= 1)
        .map(|m| m["code"].as_str().unwrap().to_string())
        .collect();
    codes.sort();
    codes
}

#[test]
fn the_written_character_imports_poses_and_passes_the_validator() {
    const TEST: &str = "the_written_character_imports_poses_and_passes_the_validator";
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("walker.glb");
    std::fs::write(&input, Character::new().glb()).unwrap();
    for name in ["env.glb", "env.gltf"] {
        let output = dir.path().join(name);
        let text = weigh_file(&input, &output, 0.04, 0.15);
        assert!(
            text.contains("vertices in 1 primitives") && text.contains("pose error, walk"),
            "{text}"
        );
        check_written(&input, &output, 0.04, 0.15);
        if let Some(issues) = validator(TEST, &output) {
            assert_eq!(issues["numErrors"], 0, "{issues}");
            assert_eq!(problems(&issues), Vec::<String>::new(), "{issues}");
        }
    }
}

#[test]
fn envelope_weights_of_the_sample_models_import_pose_and_validate() {
    const TEST: &str = "envelope_weights_of_the_sample_models_import_pose_and_validate";
    let dir = tempfile::tempdir().unwrap();
    // Radii about 2 % and 8 % of each model's size.
    for (name, inner, outer) in [
        ("CesiumMan.glb", 0.03, 0.15),
        ("Fox.glb", 3.0, 15.0),
        ("SimpleSkin.gltf", 0.2, 1.0),
    ] {
        let Some(models) = skin_tests::models_dir() else {
            return skin_tests::skip(TEST, "../shared/models is not present");
        };
        let input = models.join(name);
        let output = dir.path().join(name);
        let text = weigh_file(&input, &output, inner, outer);
        assert!(text.contains("vs the file's weights"), "{text}");
        check_written(&input, &output, inner, outer);
        if let (Some(before), Some(after)) = (validator(TEST, &input), validator(TEST, &output)) {
            assert_eq!(after["numErrors"], 0, "{name}: {after}");
            // No warning the input did not have already.
            assert_eq!(problems(&after), problems(&before), "{name}: {after}");
        }
    }
}

#[test]
fn bad_weights_arguments_are_one_line_errors() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("walker.glb");
    std::fs::write(&input, Character::new().glb()).unwrap();
    let out = dir.path().join("out.glb");
    let (i, o) = (input.to_str().unwrap(), out.to_str().unwrap());
    let run = |extra: &[&str]| {
        let mut args = vec!["weights", i, "--envelopes", "-o", o];
        args.extend_from_slice(extra);
        skin_cli(&args).unwrap_err()
    };
    let e = run(&["--inner", "0", "--outer", "1"]);
    assert!(
        e.contains("inner 0 and outer 1") && e.contains("0 < inner < outer"),
        "{e}"
    );
    let e = run(&["--inner", "0.5", "--outer", "0.2"]);
    assert!(e.contains("inner 0.5 and outer 0.2"), "{e}");
    let e = run(&["--inner", "NaN", "--outer", "1"]);
    assert!(e.contains("inner NaN"), "{e}");
    let e = run(&[]);
    assert!(e.contains("joint hips has no envelope radii"), "{e}");
    let e = run(&["--inner", "0.1"]);
    assert!(e.contains("--outer"), "{e}");
    let radii = dir.path().join("radii.txt");
    let with_file = |text: &str, defaults: bool| {
        std::fs::write(&radii, text).unwrap();
        let mut extra = vec!["--radii", radii.to_str().unwrap()];
        if defaults {
            extra.extend_from_slice(&["--inner", "0.1", "--outer", "0.2"]);
        }
        run(&extra)
    };
    let e = with_file("// comment\nhips 0.05 0.2\nhead 0.05 x\n", true);
    assert!(
        e.contains("line 3") && e.contains("\"x\" is not a number"),
        "{e}"
    );
    let e = with_file("hips 0.05 0.2\nhead 0.3 0.1\n", false);
    assert!(
        e.contains("joint head") && e.contains("inner 0.3 and outer 0.1"),
        "{e}"
    );
    let e = with_file("hips 0.05 0.2\ntail 0.05 0.1\n", true);
    assert!(
        e.contains("line 2") && e.contains("\"tail\" names no node"),
        "{e}"
    );
    assert!(!out.exists(), "nothing is written on an error");
    // A file naming every joint works alone, and its radii are the ones used.
    let rig = skin_host::import::from_path(&input).unwrap();
    let lines: String = rig.skins[0]
        .joints
        .iter()
        .map(|&n| format!("#{n} 0.04 0.15\n"))
        .collect();
    std::fs::write(&radii, lines).unwrap();
    skin_cli(&[
        "weights",
        i,
        "--envelopes",
        "-o",
        o,
        "--radii",
        radii.to_str().unwrap(),
    ])
    .unwrap();
    check_written(&input, &out, 0.04, 0.15);
}

#[test]
fn models_that_cannot_be_weighed_are_refused_by_name() {
    const TEST: &str = "models_that_cannot_be_weighed_are_refused_by_name";
    let Some(models) = skin_tests::models_dir() else {
        return skin_tests::skip(TEST, "../shared/models is not present");
    };
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.glb");
    let weigh = |model: &Path| {
        let m = model.to_str().unwrap();
        skin_cli(&[
            "weights",
            m,
            "--envelopes",
            "--inner",
            "1",
            "--outer",
            "2",
            "-o",
            out.to_str().unwrap(),
        ])
        .unwrap_err()
    };
    // One mesh drawn by 84 skins with different inverse binds.
    let e = weigh(&models.join("RecursiveSkeletons.glb"));
    assert!(e.contains("mesh 0 is drawn with skin 0 and skin 1"), "{e}");
    // A model without a skin.
    let e = weigh(&models.join("morph/AnimatedMorphCube.glb"));
    assert!(e.contains("no mesh node has a skin"), "{e}");
    assert!(!out.exists());
}
