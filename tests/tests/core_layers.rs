//! skin-core's modules import one way (docs/ARCHITECTURE.md): no file reaches, through the
//! `crate::`/`super::`/`self::` paths of its code, a module that reaches it back. Doc
//! comments, ordinary comments and `#[cfg(test)] mod tests` are not imports and are left
//! out. A module's file depends on the submodules it imports from (`pub use dispatch::Loop`
//! in `skin/mod.rs`); a file's paths to its own ancestors are not counted (an ancestor
//! declares it, and re-exports from it).

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("core/src is readable") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The module path of a file below `root` (`lib.rs` is the crate root, `""`).
fn module_of(root: &Path, file: &Path) -> String {
    let rel = file
        .strip_prefix(root)
        .expect("below the root")
        .with_extension("");
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    if parts.last().is_some_and(|p| p == "mod" || p == "lib") {
        parts.pop();
    }
    parts.join("::")
}

/// The code of a file without comments and without its unit-test module.
fn code(text: &str) -> String {
    const TEST: &str = "#[cfg(test)]";
    let unit_tests = text.match_indices(TEST).find(|&(at, _)| {
        let rest = text[at + TEST.len()..].trim_start();
        let rest = match rest.strip_prefix("pub(") {
            Some(r) => r.split_once(')').map_or(r, |(_, r)| r.trim_start()),
            None => rest,
        };
        rest.starts_with("mod tests")
    });
    let text = match unit_tests {
        Some((at, _)) => &text[..at],
        None => text,
    };
    text.lines()
        .map(|l| match l.find("//") {
            Some(at) => &l[..at],
            None => l,
        })
        .map(relative_uses)
        .collect::<Vec<_>>()
        .join("\n")
}

/// A line with `use a::…` written `use self::a::…`, so that a module's imports from its own
/// submodules (`pub use dispatch::Loop;` in `skin/mod.rs`) count as well; paths into other
/// crates resolve to no module of this one and are ignored.
fn relative_uses(line: &str) -> String {
    let trimmed = line.trim_start();
    let rest = trimmed.strip_prefix("pub ").unwrap_or(trimmed);
    let rest = match rest.strip_prefix("pub(") {
        Some(r) => r.split_once(')').map_or(r, |(_, r)| r.trim_start()),
        None => rest,
    };
    match rest.strip_prefix("use ") {
        Some(path)
            if !["crate::", "super::", "self::", "::"]
                .iter()
                .any(|k| path.starts_with(k)) =>
        {
            line.replacen(path, &format!("self::{path}"), 1)
        }
        _ => line.to_string(),
    }
}

/// The paths the code names that start with `crate`, `super` or `self`, each as its
/// segments; a group `prefix::{a, b::c}` gives `prefix::a` and `prefix::b::c`.
fn paths(code: &str) -> Vec<Vec<String>> {
    let is_word = |c: char| c.is_alphanumeric() || c == '_';
    let bytes: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let starts = (i == 0 || !is_word(bytes[i - 1]))
            && ["crate::", "super::", "self::"]
                .iter()
                .any(|k| bytes[i..].iter().take(k.len()).copied().eq(k.chars()));
        if !starts {
            i += 1;
            continue;
        }
        let mut segments = Vec::new();
        let mut word = String::new();
        let mut grouped = false;
        loop {
            match bytes.get(i) {
                Some(&c) if is_word(c) => word.push(c),
                Some(':') if bytes.get(i + 1) == Some(&':') => {
                    segments.push(std::mem::take(&mut word));
                    i += 1;
                }
                Some('{') => {
                    let end = (i..bytes.len())
                        .find(|&j| bytes[j] == '}')
                        .unwrap_or(bytes.len());
                    let group: String = bytes[i + 1..end].iter().collect();
                    for item in group.split(',') {
                        let first = item.trim().split("::").next().unwrap_or("");
                        let first = first.split_whitespace().next().unwrap_or("");
                        if !first.is_empty() && first != "self" {
                            let mut p = segments.clone();
                            p.push(first.to_string());
                            out.push(p);
                        }
                    }
                    i = end;
                    grouped = true;
                    break;
                }
                _ => break,
            }
            i += 1;
        }
        if !word.is_empty() {
            segments.push(word);
        }
        if !grouped && segments.len() > 1 {
            out.push(segments);
        }
        i += 1;
    }
    out
}

/// The longest module named by `path` from module `at`, if any.
fn target(modules: &BTreeSet<String>, at: &str, path: &[String]) -> Option<String> {
    let mut base: Vec<&str> = if at.is_empty() {
        vec![]
    } else {
        at.split("::").collect()
    };
    let mut rest = path;
    match path.first().map(String::as_str) {
        Some("crate") => {
            base.clear();
            rest = &path[1..];
        }
        Some("self") => rest = &path[1..],
        Some("super") => {
            while rest.first().is_some_and(|s| s == "super") {
                base.pop();
                rest = &rest[1..];
            }
        }
        _ => return None,
    }
    (0..=rest.len()).rev().find_map(|n| {
        let mut m: Vec<&str> = base.clone();
        m.extend(rest[..n].iter().map(String::as_str));
        let m = m.join("::");
        modules.contains(&m).then_some(m)
    })
}

/// A cycle in `graph`, if it has one.
fn cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        graph: &BTreeMap<String, BTreeSet<String>>,
        at: &str,
        state: &mut BTreeMap<String, bool>,
        stack: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        state.insert(at.to_string(), false);
        stack.push(at.to_string());
        for next in graph.get(at).into_iter().flatten() {
            match state.get(next) {
                Some(false) => {
                    let from = stack.iter().position(|m| m == next).unwrap_or(0);
                    let mut c = stack[from..].to_vec();
                    c.push(next.clone());
                    return Some(c);
                }
                Some(true) => {}
                None => {
                    if let Some(c) = visit(graph, next, state, stack) {
                        return Some(c);
                    }
                }
            }
        }
        stack.pop();
        state.insert(at.to_string(), true);
        None
    }
    let mut state = BTreeMap::new();
    graph.keys().find_map(|m| {
        if state.contains_key(m) {
            return None;
        }
        visit(graph, m, &mut state, &mut Vec::new())
    })
}

/// Every file's imports, as edges between modules (files) and between top-level modules.
#[allow(clippy::type_complexity)]
fn graphs() -> (
    BTreeMap<String, BTreeSet<String>>,
    BTreeMap<String, BTreeSet<String>>,
) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../core/src");
    let mut files = Vec::new();
    sources(&root, &mut files);
    let modules: BTreeSet<String> = files.iter().map(|f| module_of(&root, f)).collect();
    let mut by_file = BTreeMap::<String, BTreeSet<String>>::new();
    let mut by_top = BTreeMap::<String, BTreeSet<String>>::new();
    for file in &files {
        let at = module_of(&root, file);
        let text = fs::read_to_string(file).expect("a source file");
        for path in paths(&code(&text)) {
            let Some(to) = target(&modules, &at, &path) else {
                continue;
            };
            // Itself, the crate root, or an ancestor (which declares this module).
            if to == at || to.is_empty() || at.starts_with(&format!("{to}::")) {
                continue;
            }
            by_file.entry(at.clone()).or_default().insert(to.clone());
            let top = |m: &str| m.split("::").next().unwrap_or("").to_string();
            if top(&at) != top(&to) && !at.is_empty() {
                by_top.entry(top(&at)).or_default().insert(top(&to));
            }
        }
    }
    (by_file, by_top)
}

#[test]
fn core_files_import_one_way() {
    let (by_file, _) = graphs();
    assert!(
        by_file.values().map(BTreeSet::len).sum::<usize>() > 50,
        "the scan found too few imports to be reading the sources: {by_file:?}"
    );
    if let Some(c) = cycle(&by_file) {
        panic!("an import circle between files: {}", c.join(" -> "));
    }
}

#[test]
fn core_modules_import_one_way() {
    let (_, by_top) = graphs();
    if let Some(c) = cycle(&by_top) {
        panic!("an import circle between modules: {}", c.join(" -> "));
    }
    // Lower layers never reach the layers that use them.
    for (low, high) in [
        ("lane", "skin"),
        ("lane", "vertex"),
        ("dual", "lane"),
        ("dual", "palette"),
        ("envelope", "vertex"),
        ("psd", "morph"),
        ("psd", "scene"),
        ("error", "budget"),
        ("error", "vertex"),
        ("raster", "scene"),
        ("skin", "asset"),
        ("skin", "scene"),
    ] {
        assert!(
            !by_top.get(low).is_some_and(|s| s.contains(high)),
            "{low} imports from {high}: {:?}",
            by_top.get(low)
        );
    }
}

/// The scan itself: a known circle is found, and group imports are read.
#[test]
fn the_scan_finds_a_circle() {
    let mut g = BTreeMap::<String, BTreeSet<String>>::new();
    g.entry("a".into()).or_default().insert("b".into());
    g.entry("b".into()).or_default().insert("c".into());
    assert_eq!(cycle(&g), None);
    g.entry("c".into()).or_default().insert("a".into());
    assert_eq!(cycle(&g).map(|c| c.len()), Some(4));
    let p = paths("use crate::lane::{Lane, Q14};\nlet x = super::batch::Batch::new();");
    assert_eq!(
        p,
        [
            vec!["crate", "lane", "Lane"],
            vec!["crate", "lane", "Q14"],
            vec!["super", "batch", "Batch", "new"],
        ]
        .map(|v| v.into_iter().map(String::from).collect::<Vec<_>>())
    );
}
