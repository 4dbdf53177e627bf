//! Driving the Cortex-M firmware from tests: which tools it needs, `scripts/firmware.sh`,
//! and the `KEY key=value …` lines of its decoded defmt log.

use std::collections::HashMap;
use std::path::Path;
use std::process::{Command, Output};

/// What is missing to build and run the firmware, if anything.
pub fn missing_tools() -> Option<String> {
    let on_path = |tool: &str| {
        std::env::var_os("PATH")
            .is_some_and(|p| std::env::split_paths(&p).any(|d| d.join(tool).is_file()))
    };
    let mut missing = Vec::new();
    if !Path::new("/usr/bin/rustc").is_file()
        || !Path::new("/usr/lib/rustlib/src/rust/library").is_dir()
    {
        missing.push("Debian's rustc with library source (/usr/bin/rustc, rust-web-src)");
    }
    for tool in [
        "ld.lld-16",
        "qemu-system-arm",
        "defmt-print",
        "size",
        "flock",
    ] {
        if !on_path(tool) {
            missing.push(tool);
        }
    }
    (!missing.is_empty()).then(|| {
        format!(
            "missing {} (scripts/setup.sh installs them)",
            missing.join(", ")
        )
    })
}

/// Runs `scripts/firmware.sh ARGS…`.
pub fn script(args: &[&str]) -> Output {
    let script = crate::workspace_root().join("scripts/firmware.sh");
    Command::new("bash")
        .arg(&script)
        .args(args)
        .output()
        .expect("run scripts/firmware.sh")
}

/// The `key=value` fields of one log line.
pub fn fields(line: &str) -> HashMap<&str, &str> {
    line.split_whitespace()
        .filter_map(|t| t.split_once('='))
        .collect()
}

/// The fields of every log line tagged `key` (the word after the log level), in order.
pub fn lines<'a>(log: &'a str, key: &str) -> Vec<HashMap<&'a str, &'a str>> {
    log.lines()
        .filter(|l| l.split_whitespace().nth(1) == Some(key))
        .map(fields)
        .collect()
}

/// Field `key` of `line` parsed as `T`; panics with the line when absent or malformed.
pub fn field<T: std::str::FromStr>(line: &HashMap<&str, &str>, key: &str) -> T {
    line.get(key)
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("field {key} missing or malformed in {line:?}"))
}
