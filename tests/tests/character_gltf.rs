//! `skin character` writes glTF that the Khronos glTF validator accepts: no errors and no
//! warnings, as `.glb` and as `.gltf` with its buffer embedded.
//!
//! The validator is the npm package `gltf-validator`, which scripts/setup.sh installs
//! into `target/npm/` (the project's own folder, nothing global), run through `node`.
//! Without node or the package the test skips visibly (a failure under
//! `SKIN_REQUIRE_ALL=1`).

use std::path::Path;
use std::process::Command;

use clap::Parser as _;
use skin_host::cli::Cli;

const TEST: &str = "the_character_passes_the_khronos_validator";

/// Validates the file named by its argument; prints the report's `issues` as JSON.
const SCRIPT: &str = r#"
const validator = require('gltf-validator');
const fs = require('fs');
const bytes = new Uint8Array(fs.readFileSync(process.argv[1]));
validator.validateBytes(bytes, { maxIssues: 100 })
  .then((report) => console.log(JSON.stringify(report.issues)))
  .catch((e) => { console.error(String(e)); process.exit(1); });
"#;

/// The validator's issues for `file`.
fn validate(npm: &Path, file: &Path) -> serde_json::Value {
    let out = Command::new("node")
        .current_dir(npm)
        .arg("-e")
        .arg(SCRIPT)
        .arg(file)
        .output()
        .expect("run node");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "gltf-validator failed on {}: {}",
        file.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_str(stdout.trim()).unwrap_or_else(|e| panic!("{e}: {stdout}"))
}

#[test]
fn the_character_passes_the_khronos_validator() {
    let npm = skin_tests::workspace_root().join("target/npm");
    if !npm.join("node_modules/gltf-validator").is_dir() {
        return skin_tests::skip(
            TEST,
            "gltf-validator is not in target/npm (scripts/setup.sh installs it)",
        );
    }
    if Command::new("node").arg("--version").output().is_err() {
        return skin_tests::skip(TEST, "no node on PATH (scripts/setup.sh installs it)");
    }
    let dir = std::env::temp_dir().join(format!("skin-character-gltf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for name in ["walker.glb", "walker.gltf"] {
        let file = dir.join(name);
        let args = ["skin", "character", "-o", file.to_str().unwrap()];
        let (mut out, mut warn) = (Vec::new(), Vec::new());
        skin_host::cli::run(Cli::try_parse_from(args).unwrap(), &mut out, &mut warn).unwrap();
        let issues = validate(&npm, &file);
        assert_eq!(issues["numErrors"], 0, "{name}: {issues}");
        assert_eq!(issues["numWarnings"], 0, "{name}: {issues}");
        // The validator did read the model: it would report an empty or unreadable one.
        assert_eq!(issues["truncated"], false, "{name}: {issues}");
    }
    // A broken file is caught, so the checks above can fail.
    let broken = dir.join("broken.gltf");
    std::fs::write(
        &broken,
        br#"{"asset":{"version":"2.0"},"nodes":[{"mesh":3}]}"#,
    )
    .unwrap();
    let issues = validate(&npm, &broken);
    assert!(issues["numErrors"].as_u64().unwrap() > 0, "{issues}");
    std::fs::remove_dir_all(&dir).unwrap();
}
