//! The memory map of QEMU's mps2 boards (4 MiB of flash and of RAM), for cortex-m-rt's link.x.
//! Every build runs on an mps2 board: embedded-3dgfx's `SkinningData` alone takes 18 KiB,
//! more than the micro:bit's RAM, so the M0 code is run on the M3 model (see run.sh).

use std::{env, fs, path::PathBuf};

fn main() {
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let map = "MEMORY\n{\n  FLASH : ORIGIN = 0x00000000, LENGTH = 4M\n  RAM   : ORIGIN = 0x20000000, LENGTH = 4M\n}\n";
    fs::write(out.join("memory.x"), map).expect("write memory.x");
    println!("cargo:rustc-link-search={}", out.display());
    println!("cargo:rerun-if-changed=build.rs");
}
