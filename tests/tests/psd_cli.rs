//! `skin pose --correctives` and `skin render --correctives` on the generated elbow
//! (tests/src/elbow.rs): the CLI resolves the corrective file against the model, solves it
//! and weights the correctives at the frame's pose in either lane; the elbow keeps its volume
//! at 120° where LBS alone loses it; bad files are refused with one line naming the problem.

use skin_tests::elbow::{self, arm};
use skin_tests::oracle::V3;
use skin_tests::skin_cli;

const FILE: &str = elbow::CORRECTIVES;

struct Files {
    _dir: tempfile::TempDir,
    model: String,
    dir: std::path::PathBuf,
}

fn files() -> Files {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("elbow.glb");
    std::fs::write(&model, elbow::gltf().glb()).unwrap();
    Files {
        model: model.to_string_lossy().into_owned(),
        dir: dir.path().to_path_buf(),
        _dir: dir,
    }
}

impl Files {
    fn correctives(&self, name: &str, text: &str) -> String {
        let p = self.dir.join(name);
        std::fs::write(&p, text).unwrap();
        p.to_string_lossy().into_owned()
    }
}

fn positions(json: &str) -> Vec<V3> {
    let v: serde_json::Value = serde_json::from_str(json).unwrap();
    let p = v["blocks"][0]["positions"].as_array().unwrap();
    p.chunks(3)
        .map(|c| [0, 1, 2].map(|i| c[i].as_f64().unwrap()))
        .collect()
}

#[test]
fn the_elbow_keeps_its_volume_through_the_cli() {
    let f = files();
    let c = f.correctives("c.json", FILE);
    let arm = arm();
    for lane in ["f32", "fixed"] {
        // 1.2 s into the clip: 120°.
        let pose = |extra: &[&str]| {
            let mut args = vec!["pose", &f.model, "--anim", "bend", "--time", "1.2"];
            args.extend_from_slice(&["--arith", lane]);
            args.extend_from_slice(extra);
            positions(&skin_cli(&args).unwrap())
        };
        let plain = pose(&[]);
        let corrected = pose(&["--correctives", &c]);
        elbow::assert_corrected(&format!("{lane} through the CLI"), &arm, &plain, &corrected);
    }
    // At the rest pose the correctives are off: the same positions as without the file.
    let at0 = |extra: &[&str]| {
        let mut args = vec!["pose", &f.model, "--anim", "bend", "--time", "0"];
        args.extend_from_slice(extra);
        skin_cli(&args).unwrap()
    };
    let (a, b) = (
        positions(&at0(&[])),
        positions(&at0(&["--correctives", &c])),
    );
    assert!(a
        .iter()
        .zip(&b)
        .all(|(p, q)| skin_tests::oracle::distance(*p, *q) < 1e-6));
}

#[test]
fn bad_corrective_files_are_refused_by_name() {
    let f = files();
    let err = |name: &str, text: &str, extra: &[&str]| {
        let c = f.correctives(name, text);
        let mut args = vec!["pose", &f.model, "--correctives", &c];
        args.extend_from_slice(extra);
        skin_cli(&args).unwrap_err()
    };
    let m = err(
        "j.json",
        &FILE.replace("[\"forearm\"]", "[\"forarm\"]"),
        &[],
    );
    assert!(m.contains("'forarm' is not a node"), "{m}");
    let m = err("t.json", &FILE.replace("bend60", "bend6"), &[]);
    assert!(
        m.contains("target 'bend6' is not a morph target of mesh 0"),
        "{m}"
    );
    let m = err(
        "s.json",
        &FILE.replace("0.5, \"joints\"", "0, \"joints\""),
        &[],
    );
    assert!(m.contains("sigma = 0"), "{m}");
    let m = err("m.json", &FILE.replace("\"sigma\": 0.5, ", ""), &[]);
    assert!(m.contains("sigma is missing"), "{m}");
    let m = err(
        "q.json",
        &FILE.replace("[0, 0, 0.5, 0.8660254]", "[0, 0, 0]"),
        &[],
    );
    assert!(m.contains("pose 0 rotation 0 is not [x, y, z, w]"), "{m}");
    let m = err(
        "z.json",
        &FILE.replace("[0, 0, 0.5, 0.8660254]", "[0, 0, 0, 0]"),
        &[],
    );
    assert!(m.contains("rotation 0 is [0.0, 0.0, 0.0, 0.0]"), "{m}");
    // A pose at the rest pose: the same sample twice, singular unless regularised.
    let rest = FILE.replace("[0, 0, 0.5, 0.8660254]", "[0, 0, 0, 1]");
    let m = err("r.json", &rest, &[]);
    assert!(m.contains("singular") && m.contains("--regularise"), "{m}");
    let c = f.correctives("r2.json", &rest);
    skin_cli(&["pose", &f.model, "--correctives", &c, "--regularise", "0.1"]).unwrap();
    let m = err("l.json", FILE, &["--regularise", "-1"]);
    assert!(m.contains("lambda = -1"), "{m}");
    let c = f.correctives("ok.json", FILE);
    let out = f.dir.join("x.gif").to_string_lossy().into_owned();
    let args = [
        "render",
        &f.model,
        "--anim",
        "bend",
        "--correctives",
        &c,
        "-o",
        &out,
    ];
    let m = skin_cli(&args).unwrap_err();
    assert!(m.contains("--correctives draws one picture"), "{m}");
}

/// The CPU renderer (the baked asset, its weights held at the frame's) draws the corrected
/// elbow in both lanes: a picture other than the uncorrected one.
#[test]
fn the_cpu_draws_the_corrected_elbow() {
    let f = files();
    let c = f.correctives("c.json", FILE);
    for lane in ["f32", "fixed"] {
        let draw = |name: &str, extra: &[&str]| {
            let out = f.dir.join(name).to_string_lossy().into_owned();
            let mut args = vec!["render", &f.model, "--anim", "bend", "--time", "1.2"];
            args.extend_from_slice(&["--backend", "cpu", "--arith", lane, "-o", &out]);
            args.extend_from_slice(&["--size", "160x120"]);
            args.extend_from_slice(extra);
            skin_cli(&args).unwrap();
            std::fs::read(&out).unwrap()
        };
        let plain = draw("plain.png", &[]);
        let corrected = draw("corrected.png", &["--correctives", &c]);
        assert_ne!(
            plain, corrected,
            "{lane}: the correctives change the picture"
        );
    }
}

#[test]
fn the_gpu_draws_the_corrected_elbow() {
    if skin_tests::gpu("psd_cli::the_gpu_draws_the_corrected_elbow").is_none() {
        return;
    }
    let f = files();
    let c = f.correctives("c.json", FILE);
    let draw = |name: &str, extra: &[&str]| {
        let out = f.dir.join(name).to_string_lossy().into_owned();
        let mut args = vec![
            "render", &f.model, "--anim", "bend", "--time", "1.2", "-o", &out,
        ];
        args.extend_from_slice(&["--size", "160x120"]);
        args.extend_from_slice(extra);
        skin_cli(&args).unwrap();
        std::fs::read(&out).unwrap()
    };
    let plain = draw("plain.png", &[]);
    let corrected = draw("corrected.png", &["--correctives", &c]);
    assert_ne!(plain, corrected, "the correctives change the picture");
}
