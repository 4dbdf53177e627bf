//! Puts the board's memory map (memory/<board>.x) where cortex-m-rt's link.x finds it.

use std::{env, fs, path::PathBuf};

fn main() {
    let boards = [
        ("MPS2_AN386", "mps2.x"),
        ("MPS2_AN385", "mps2.x"),
        ("MICROBIT", "microbit.x"),
    ];
    let chosen: Vec<_> = boards
        .iter()
        .filter(|(f, _)| env::var_os(format!("CARGO_FEATURE_{f}")).is_some())
        .collect();
    let [(_, file)] = chosen.as_slice() else {
        panic!("pick exactly one board feature: mps2-an386, mps2-an385 or microbit");
    };
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    fs::copy(format!("memory/{file}"), out.join("memory.x")).expect("copy memory.x");
    println!("cargo:rustc-link-search={}", out.display());
    println!("cargo:rerun-if-changed=memory");
    println!("cargo:rerun-if-changed=build.rs");
}
