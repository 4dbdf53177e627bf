//! Links the board's memory map and embeds the baked asset.
//!
//! - `memory/<board>.x` becomes `memory.x`, where cortex-m-rt's `link.x` finds it.
//! - The frame loop embeds the asset file named by `SKIN_ASSET` (bytes written by
//!   `skin bake`) as `$OUT_DIR/asset.bin`; scripts/firmware.sh sets it. The benchmark
//!   (feature `bench`) needs no asset.
//! - `SKIN_TARGET` (the target triple) is passed on for the log.

use std::{env, fs, path::PathBuf};

fn main() {
    let boards = [
        ("MPS2_AN386", "mps2.x"),
        ("MPS2_AN385", "mps2.x"),
        ("MICROBIT", "microbit.x"),
        ("PICO", "pico.x"),
    ];
    let chosen: Vec<_> = boards
        .iter()
        .filter(|(f, _)| env::var_os(format!("CARGO_FEATURE_{f}")).is_some())
        .collect();
    let [(_, file)] = chosen.as_slice() else {
        fail("pick exactly one board feature: mps2-an386, mps2-an385, microbit or pico");
    };
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    fs::copy(format!("memory/{file}"), out.join("memory.x")).expect("copy memory.x");
    println!("cargo:rustc-link-search={}", out.display());
    println!("cargo:rerun-if-changed=memory");
    println!("cargo:rerun-if-changed=build.rs");

    let target = env::var("TARGET").expect("cargo sets TARGET");
    println!("cargo:rustc-env=SKIN_TARGET={target}");

    println!("cargo:rerun-if-env-changed=SKIN_ASSET");
    if env::var_os("CARGO_FEATURE_BENCH").is_some() {
        return;
    }
    let Some(asset) = env::var_os("SKIN_ASSET") else {
        fail(
            "set SKIN_ASSET to a baked asset (`skin bake MODEL -o FILE --arith fixed|f32`); \
             scripts/firmware.sh does this for you",
        );
    };
    let asset = PathBuf::from(asset);
    println!("cargo:rerun-if-changed={}", asset.display());
    if let Err(e) = fs::copy(&asset, out.join("asset.bin")) {
        fail(&format!("SKIN_ASSET={}: {e}", asset.display()));
    }
}

/// Stops the build with one clear message.
fn fail(why: &str) -> ! {
    eprintln!("skin-firmware: {why}");
    std::process::exit(1);
}
