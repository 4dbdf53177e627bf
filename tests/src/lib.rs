//! Shared helpers for the cross-crate tests.
//!
//! Tests that need something from outside (a GPU adapter, QEMU, `../shared/models`) never
//! skip silently: they call [`skip`], which prints why and returns, or, under
//! `SKIN_REQUIRE_ALL=1` (as `.ci/run` sets), fails the test.

use std::path::{Path, PathBuf};

pub mod dual_oracle;
pub mod firmware;
pub mod fuzz;
pub mod gltf_gen;
pub mod gltf_ref;
pub mod oracle;

/// `true` when `SKIN_REQUIRE_ALL=1`: every skip is then a failure.
pub fn require_all() -> bool {
    std::env::var("SKIN_REQUIRE_ALL").is_ok_and(|v| v == "1")
}

/// Report that `test` cannot run because of `why`: prints and returns normally, or panics
/// under `SKIN_REQUIRE_ALL=1`.
pub fn skip(test: &str, why: &str) {
    if require_all() {
        panic!("{test}: required but cannot run (SKIN_REQUIRE_ALL=1): {why}");
    }
    eprintln!("SKIPPED {test}: {why}");
}

/// The workspace root.
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ has a parent")
        .to_path_buf()
}

/// `../shared/models` beside the workspace (or `$SKIN_MODELS`), if present.
pub fn models_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("SKIN_MODELS")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace_root().join("../shared/models"));
    dir.is_dir().then_some(dir)
}

/// Every `.glb` / `.gltf` in the models folder, sorted, or a skip (see [`skip`]).
pub fn sample_models(test: &str) -> Vec<PathBuf> {
    let Some(dir) = models_dir() else {
        skip(
            test,
            "../shared/models is not present (set SKIN_MODELS to point elsewhere)",
        );
        return Vec::new();
    };
    let mut models: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    models.retain(|p| matches!(p.extension().and_then(|e| e.to_str()), Some("glb" | "gltf")));
    models.sort();
    if models.is_empty() {
        skip(test, &format!("no .glb/.gltf models in {}", dir.display()));
    }
    models
}
