//! Shared helpers for the cross-crate tests.
//!
//! Tests that need something from outside (a GPU adapter, QEMU, `../shared/models`) never
//! skip silently: they call [`skip`], which prints why and returns, or, under
//! `SKIN_REQUIRE_ALL=1` (as `.ci/run` sets), fails the test.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

pub mod anim_oracle;
pub mod dual_oracle;
pub mod elbow;
pub mod envelope_oracle;
pub mod firmware;
pub mod fuzz;
pub mod gltf_gen;
pub mod gltf_ref;
pub mod ik_oracle;
pub mod lattice_oracle;
pub mod mixamo;
pub mod oracle;
pub mod psd_oracle;
pub mod rescale;
pub mod stretched_rig;

/// `true` when `SKIN_REQUIRE_ALL=1`: every skip is then a failure.
pub fn require_all() -> bool {
    std::env::var("SKIN_REQUIRE_ALL").is_ok_and(|v| v == "1")
}

/// Report that `test` cannot run because of `why`: prints and returns normally, or panics
/// under `SKIN_REQUIRE_ALL=1`.
///
/// The line goes to the process's standard error directly, not through `eprintln!`, which
/// the test harness captures and shows only for failing tests: a skip must be seen in a run
/// that passes.
pub fn skip(test: &str, why: &str) {
    if require_all() {
        panic!("{test}: required but cannot run (SKIN_REQUIRE_ALL=1): {why}");
    }
    use std::io::Write;
    // Nothing useful can be done if standard error is closed; the test still returns.
    let _ = writeln!(std::io::stderr().lock(), "SKIPPED {test}: {why}");
}

/// The GPU reference, made once per test process, or `None` after reporting the skip (see
/// [`skip`]) when there is no adapter.
pub fn gpu(test: &str) -> Option<&'static skin_host::gpu::Reference> {
    static GPU: OnceLock<Result<skin_host::gpu::Reference, String>> = OnceLock::new();
    match GPU.get_or_init(|| skin_host::gpu::Reference::new().map_err(|e| e.to_string())) {
        Ok(gpu) => Some(gpu),
        Err(why) => {
            skip(test, why);
            None
        }
    }
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

/// The `skin` binary, built once per test process. It belongs to skin-host, so
/// `CARGO_BIN_EXE_skin` is not available to these tests: this runs `cargo build -p
/// skin-host --bin skin` (a no-op when up to date) into the target directory the calling
/// test binary lives in, in the same profile.
pub fn skin_exe() -> &'static Path {
    static EXE: OnceLock<PathBuf> = OnceLock::new();
    EXE.get_or_init(|| {
        // target/<profile>/deps/<test>-… → target/<profile>/skin
        let me = std::env::current_exe().expect("test binary path");
        let profile_dir = me.parent().and_then(Path::parent).expect("target dir");
        let target_dir = profile_dir.parent().expect("target root");
        let release = profile_dir.file_name().is_some_and(|n| n == "release");
        let cargo = option_env!("CARGO").unwrap_or("cargo");
        let mut cmd = Command::new(cargo);
        cmd.args(["build", "--quiet", "-p", "skin-host", "--bin", "skin"])
            .arg("--target-dir")
            .arg(target_dir)
            .current_dir(workspace_root());
        if release {
            cmd.arg("--release");
        }
        let status = cmd.status().expect("run cargo build for the skin binary");
        assert!(status.success(), "building the skin binary failed");
        profile_dir.join(format!("skin{}", std::env::consts::EXE_SUFFIX))
    })
}

/// A small deterministic generator (xorshift64*), so that randomised tests check the same
/// cases on every run.
pub struct Rng(pub u64);

impl Rng {
    /// A value in `[0, 1)`.
    pub fn unit(&mut self) -> f32 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 40) as f32 / (1u64 << 24) as f32
    }

    /// A value in `[lo, hi)`.
    pub fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.unit()
    }

    /// A point in the cube `[-half, half)³`.
    pub fn point(&mut self, half: f32) -> [f32; 3] {
        [0; 3].map(|_| self.range(-half, half))
    }
}

/// The diagonal of the box around `points` (a model's extent, for errors relative to it).
pub fn diagonal(points: &[[f32; 3]]) -> f64 {
    let b = skin_core::raster::Bounds::of(points.iter().copied()).expect("points to bound");
    (0..3)
        .map(|i| f64::from(b.max[i] - b.min[i]).powi(2))
        .sum::<f64>()
        .sqrt()
}

/// The largest coordinate difference between two equally long lists of points.
pub fn worst(a: &[[f32; 3]], b: &[[f32; 3]]) -> f64 {
    assert_eq!(a.len(), b.len());
    a.iter()
        .zip(b)
        .flat_map(|(p, q)| (0..3).map(move |i| f64::from((p[i] - q[i]).abs())))
        .fold(0.0, f64::max)
}

/// Runs `skin` with `args` in this process; its output, or the error's line.
pub fn skin_cli(args: &[&str]) -> Result<String, String> {
    use clap::Parser as _;
    let argv = std::iter::once("skin").chain(args.iter().copied());
    let cli = skin_host::cli::Cli::try_parse_from(argv).map_err(|e| e.to_string())?;
    let (mut out, mut warn) = (Vec::new(), Vec::new());
    skin_host::cli::run(cli, &mut out, &mut warn).map_err(|e| e.to_string())?;
    Ok(String::from_utf8(out).expect("UTF-8 output"))
}

/// `g` imported from its `.glb` bytes.
pub fn import_gen(g: &gltf_gen::Gen) -> Result<skin_host::Rig, skin_host::ImportError> {
    skin_host::import::from_slice(&g.glb(), None)
}

/// The importer's refusal of `g`: the error and its message, which must be one line.
pub fn refusal(g: &gltf_gen::Gen) -> (skin_host::ImportError, String) {
    let e = import_gen(g).expect_err("the model must be refused");
    let text = e.to_string();
    assert!(!text.contains('\n'), "one line: {text}");
    (e, text)
}
