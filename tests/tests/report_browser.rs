//! `skin validate --report DIR` viewed in a real browser: headless Chromium loads the
//! procedural character's page and the index, and the test asserts that no error was
//! raised or logged, that every image (the plots are SVG images, the pictures PNG) decoded
//! to a picture wider than nothing, and that a screenshot of the page is not blank. The
//! page itself is also checked to fetch nothing: no `http(s)` source or link.
//!
//! The page carries no script, so the checks run from a copy with a small checker script
//! put first in its `<head>`: it records errors (a resource that fails to load raises one)
//! and `console.error` calls, and after `load` writes what it found into the DOM, which
//! `--dump-dom` prints. Console messages Chromium logs at error level are checked too.
//!
//! Needs a GPU adapter (for the validation) and Chromium (`chromium` on PATH or
//! `$SKIN_CHROMIUM`; scripts/setup.sh installs Debian's); skips visibly without either.
//! The report's own input checks (a file where the folder goes, a folder without models)
//! need neither.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use clap::Parser as _;
use skin_host::cli::Cli;
use skin_host::picture::Picture;

const TEST: &str = "the_report_renders_in_chromium";

/// Chromium's executable, if there is one.
fn chromium() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("SKIN_CHROMIUM") {
        return Some(PathBuf::from(p));
    }
    let path = std::env::var_os("PATH")?;
    let names = ["chromium", "chromium-browser", "google-chrome"];
    std::env::split_paths(&path)
        .flat_map(|d| names.iter().map(move |n| d.join(n)))
        .find(|p| p.is_file())
}

/// Run Chromium headless on `url` with `extra` arguments and a fresh profile in `dir`;
/// its stdout and stderr. Killed after a minute.
fn run_chromium(exe: &Path, dir: &Path, url: &str, extra: &[&str]) -> (String, String) {
    let profile = dir.join(format!("profile-{}", extra.len()));
    let mut child = Command::new(exe)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--enable-logging=stderr",
            "--v=0",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(extra)
        .arg(url)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start chromium");
    let (mut out, mut err) = (child.stdout.take().unwrap(), child.stderr.take().unwrap());
    let read_out =
        std::thread::spawn(move || std::io::read_to_string(&mut out).unwrap_or_default());
    let read_err =
        std::thread::spawn(move || std::io::read_to_string(&mut err).unwrap_or_default());
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        if child.try_wait().expect("wait for chromium").is_some() {
            break;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("chromium did not finish {url} within a minute");
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    (read_out.join().unwrap(), read_err.join().unwrap())
}

/// Put first in the page's `<head>`: collects errors, then reports after `load`.
const CHECKER: &str = r#"<script>
window.skinErrors = [];
window.addEventListener('error', function (e) {
  var t = e.target;
  skinErrors.push(e.message || ('failed to load ' + ((t && (t.src || t.href)) || 'a resource')));
}, true);
var skinConsoleError = console.error;
console.error = function () {
  skinErrors.push('console.error: ' + Array.prototype.join.call(arguments, ' '));
  skinConsoleError.apply(console, arguments);
};
window.addEventListener('load', function () {
  var images = Array.prototype.slice.call(document.images);
  var out = document.createElement('pre');
  out.id = 'skin-check';
  out.textContent = JSON.stringify({
    images: images.length,
    widths: images.map(function (i) { return i.complete ? i.naturalWidth : 0; }),
    alts: images.map(function (i) { return i.alt; }),
    links: document.links.length,
    errors: skinErrors
  });
  document.body.appendChild(out);
});
</script>"#;

/// What the checker found on `page` (a file in `dir`), and Chromium's stderr.
fn check(exe: &Path, dir: &Path, page: &str) -> (serde_json::Value, String) {
    let html = std::fs::read_to_string(dir.join(page)).unwrap();
    let at = html.find("<head>").expect("a <head>") + "<head>".len();
    let checked = format!("{}{CHECKER}{}", &html[..at], &html[at..]);
    let copy = dir.join(format!("checked-{page}"));
    std::fs::write(&copy, checked).unwrap();
    let url = format!("file://{}", copy.display());
    let (dom, log) = run_chromium(
        exe,
        dir,
        &url,
        &["--dump-dom", "--virtual-time-budget=10000"],
    );
    let start = dom.find("<pre id=\"skin-check\">").unwrap_or_else(|| {
        panic!("{page}: the checker did not report (load never finished?); log:\n{log}")
    }) + "<pre id=\"skin-check\">".len();
    let end = start + dom[start..].find("</pre>").unwrap();
    let json = dom[start..end]
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&");
    (serde_json::from_str(&json).unwrap(), log)
}

/// Console messages Chromium logged at error level.
fn console_errors(log: &str) -> Vec<&str> {
    log.lines()
        .filter(|l| l.contains("CONSOLE") && (l.contains("ERROR") || l.contains("Uncaught")))
        .collect()
}

#[test]
fn the_report_renders_in_chromium() {
    let Some(exe) = chromium() else {
        return skin_tests::skip(TEST, "no chromium on PATH (scripts/setup.sh installs it)");
    };
    if let Err(e) = skin_host::gpu::Reference::new() {
        return skin_tests::skip(TEST, &e.to_string());
    }
    let dir = std::env::temp_dir().join(format!("skin-report-browser-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let model = dir.join("walker.glb");
    skin_host::character::Character::new()
        .write(&model)
        .unwrap();
    let report = dir.join("report");
    let args = [
        "skin",
        "validate",
        model.to_str().unwrap(),
        "--frames",
        "4",
        "--report",
        report.to_str().unwrap(),
    ];
    let (mut out, mut warn) = (Vec::new(), Vec::new());
    skin_host::cli::run(Cli::try_parse_from(args).unwrap(), &mut out, &mut warn).unwrap();

    let html = std::fs::read_to_string(report.join("walker.glb.html")).unwrap();
    for fetch in ["src=\"http", "href=\"http", "src=\"//", "<link", "<script"] {
        assert!(
            !html.contains(fetch),
            "the page would fetch or run something: {fetch}"
        );
    }

    // The model's page: errors, images.
    let (found, log) = check(&exe, &report, "walker.glb.html");
    assert_eq!(
        found["errors"],
        serde_json::json!([]),
        "page errors; log:\n{log}"
    );
    assert!(
        console_errors(&log).is_empty(),
        "{:?}",
        console_errors(&log)
    );
    let widths = found["widths"].as_array().unwrap();
    // A plot over time, two heat maps, two or more splits, the bar chart, four pictures.
    assert!(widths.len() >= 10, "{found}");
    for (w, alt) in widths.iter().zip(found["alts"].as_array().unwrap()) {
        assert!(w.as_u64().unwrap() > 0, "image {alt} did not load: {found}");
    }

    // The index links the page.
    let (index, log) = check(&exe, &report, "index.html");
    assert_eq!(
        index["errors"],
        serde_json::json!([]),
        "index errors; log:\n{log}"
    );
    assert_eq!(index["links"], 1, "{index}");

    // A screenshot of the page itself (no checker) is not blank.
    let shot = dir.join("shot.png");
    let url = format!("file://{}", report.join("walker.glb.html").display());
    let screenshot = format!("--screenshot={}", shot.display());
    let (_, log) = run_chromium(&exe, &dir, &url, &[&screenshot, "--window-size=1200,1600"]);
    let p = Picture::load_png(&shot).unwrap_or_else(|e| panic!("no screenshot ({e}); log:\n{log}"));
    assert_eq!((p.width, p.height), (1200, 1600));
    let background = p.pixels[0];
    let other = p.pixels.iter().filter(|&&c| c != background).count();
    let colours: std::collections::HashSet<_> = p.pixels.iter().collect();
    assert!(
        other > p.pixels.len() / 20,
        "{other} pixels differ from the background"
    );
    assert!(colours.len() > 64, "only {} colours", colours.len());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_file_in_the_way_of_the_report_and_an_empty_folder_are_named() {
    let dir = std::env::temp_dir().join(format!("skin-report-inputs-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("empty")).unwrap();
    let model = dir.join("walker.glb");
    skin_host::character::Character::new()
        .write(&model)
        .unwrap();
    let in_the_way = dir.join("report");
    std::fs::write(&in_the_way, b"not a folder").unwrap();
    let run = |args: &[&str]| {
        let cli = Cli::try_parse_from(std::iter::once("skin").chain(args.iter().copied())).unwrap();
        let (mut out, mut warn) = (Vec::new(), Vec::new());
        skin_host::cli::run(cli, &mut out, &mut warn)
            .unwrap_err()
            .to_string()
    };
    let m = model.to_str().unwrap();
    let e = run(&["validate", m, "--report", in_the_way.to_str().unwrap()]);
    assert!(
        e.starts_with("cannot make report directory") && e.contains("report"),
        "{e}"
    );
    assert_eq!(std::fs::read(&in_the_way).unwrap(), b"not a folder");
    let empty = dir.join("empty");
    let e = run(&["validate", empty.to_str().unwrap()]);
    assert!(
        e.ends_with("no .glb or .gltf files in this directory"),
        "{e}"
    );
    let e = run(&["validate", m, m, "--pictures", "p.png"]);
    assert_eq!(e, "--pictures takes one model, not 2");
    std::fs::remove_dir_all(&dir).unwrap();
}
