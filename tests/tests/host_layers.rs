//! The host reads in one direction: each module of `skin-host` imports (`crate::…`) only
//! from modules of lower layers, and inside the stages that are folders (`pose/`, `bake/`,
//! `validate/`, `cli/`) each file imports (`super::…`) only from files before it. The
//! layers are the table of `host/src/lib.rs`; a new module must be placed in one here.

use std::fs;
use std::path::{Path, PathBuf};

/// Top-level modules by layer, lowest first (`host/src/lib.rs` documents why).
const LAYERS: &[&[&str]] = &[
    &["error", "rig", "picture", "output"],
    &["accessor", "character", "split", "frames", "lattice", "psd"],
    &["import"],
    &["pose", "oracle"],
    &["bake", "gpu", "inspect", "envelope"],
    &["render", "board"],
    &["animation", "validate"],
    &["html"],
    &["cli"],
];

/// The files of each stage folder in import order: a file may name (`super::x`) only the
/// files before it.
const STAGES: &[(&str, &[&str])] = &[
    (
        "pose",
        &[
            "error", "lane", "units", "values", "animate", "morph", "palette", "skin", "tangent",
            "range", "joints", "layers",
        ],
    ),
    (
        "bake",
        &[
            "error",
            "bones",
            "draws",
            "vertices",
            "clips",
            "morphs",
            "correctives",
            "lattice",
        ],
    ),
    (
        "envelope",
        &["error", "radii", "capsules", "weigh", "study", "gltf"],
    ),
    (
        "validate",
        &["report", "error", "tangents", "tally", "pictures"],
    ),
    (
        "cli",
        &[
            "error",
            "args",
            "layers",
            "correctives",
            "commands",
            "frames",
        ],
    ),
];

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../host/src")
}

/// Every `.rs` file below `dir`, except unit-test files (which may use anything).
fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in fs::read_dir(dir).expect("host/src is readable") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            out.extend(files(&path));
        } else if path.extension().is_some_and(|e| e == "rs")
            && path.file_name().is_some_and(|n| n != "tests.rs")
        {
            out.push(path);
        }
    }
    out
}

/// The identifiers that follow `prefix` in the code (not the comments) of `text`, with
/// their line numbers.
fn named_after(text: &str, prefix: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("//") {
            continue;
        }
        for (at, _) in line.match_indices(prefix) {
            let name: String = line[at + prefix.len()..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            out.push((n + 1, name));
        }
    }
    out
}

fn layer(module: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&module))
}

/// The top-level module of a file below `host/src` (`pose/skin.rs` → `pose`).
fn module_of(rel: &Path) -> String {
    let first = rel.components().next().expect("a relative path");
    let first = first.as_os_str().to_string_lossy();
    first.trim_end_matches(".rs").to_owned()
}

/// Every import that breaks a rule, as `file:line: why`.
fn violations(root: &Path) -> Vec<String> {
    let mut bad = Vec::new();
    for path in files(root) {
        let rel = path
            .strip_prefix(root)
            .expect("below host/src")
            .to_path_buf();
        let module = module_of(&rel);
        if module == "lib" || module == "main" {
            continue;
        }
        let text = fs::read_to_string(&path).expect("a readable source file");
        let Some(own) = layer(&module) else {
            bad.push(format!("{}: module {module} is in no layer", rel.display()));
            continue;
        };
        for (line, name) in named_after(&text, "crate::") {
            match layer(&name) {
                Some(l) if l < own || name == module => {}
                Some(_) => bad.push(format!(
                    "{}:{line}: {module} imports crate::{name}, which is not below it",
                    rel.display()
                )),
                None => bad.push(format!(
                    "{}:{line}: crate::{name} is not a module of a layer",
                    rel.display()
                )),
            }
        }
        let Some((_, order)) = STAGES.iter().find(|(s, _)| *s == module) else {
            continue;
        };
        let file = rel
            .file_stem()
            .expect("a file name")
            .to_string_lossy()
            .into_owned();
        let at = order.iter().position(|f| *f == file);
        for (line, name) in named_after(&text, "super::") {
            let named = order.iter().position(|f| *f == name);
            let fine = match (at, named) {
                (_, None) => false,
                (None, Some(_)) => true, // mod.rs: the stage itself uses its files
                (Some(a), Some(b)) => b < a,
            };
            if !fine {
                bad.push(format!(
                    "{}:{line}: {file} names super::{name}, not a file before it in {module}/",
                    rel.display()
                ));
            }
        }
    }
    bad
}

#[test]
fn host_modules_and_stage_files_import_one_way() {
    let bad = violations(&src());
    assert!(
        bad.is_empty(),
        "imports against the layers:\n{}",
        bad.join("\n")
    );
}

#[test]
fn an_upward_import_is_found() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    fs::create_dir_all(root.join("pose")).unwrap();
    fs::write(root.join("rig.rs"), "use crate::split::split;\n").unwrap();
    fs::write(
        root.join("pose/units.rs"),
        "// use crate::cli; (a comment)\nuse super::skin::pose;\n",
    )
    .unwrap();
    fs::write(root.join("pose/skin.rs"), "use super::units::to_asset;\n").unwrap();
    fs::write(root.join("shiny.rs"), "").unwrap();
    let mut bad = violations(root);
    bad.sort();
    assert_eq!(bad.len(), 3, "{bad:?}");
    assert!(
        bad[0].starts_with("pose/units.rs:2: units names super::skin"),
        "{bad:?}"
    );
    assert!(
        bad[1].starts_with("rig.rs:1: rig imports crate::split"),
        "{bad:?}"
    );
    assert!(
        bad[2].starts_with("shiny.rs: module shiny is in no layer"),
        "{bad:?}"
    );
}
