//! Names the target conditions the core compiles differently for, once, as `cfg` flags, so
//! that the code says `#[cfg(skin_asm_v6m)]` rather than repeating the condition (and what
//! a target does not use is not compiled, rather than compiled and unused).
//!
//! | flag | target | what it selects |
//! |---|---|---|
//! | `skin_v6m` | ARM without 32-bit atomic read-modify-write: ARMv6-M (Cortex-M0/M0+/M1), and the older ARMv4T/ARMv5TE | no `CLZ` and no 32 × 32 → 64 multiply: the shift-search and 32-bit-product paths (`num`, `lane`) |
//! | `skin_asm_v6m` | as `skin_v6m` | the fixed lane's ARMv6-M assembly kernel (`skin/asm/thumbv6m.rs`), projection loop (`raster/project_v6m.rs`), band fill (`raster/fill_v6m.rs`) and binning loop (`raster/bins_v6m.rs`) |
//! | `skin_asm_v6m_dqs` | as `skin_v6m`, ARMv6 or later (`v6`: ARMv6-M, not ARMv4T/ARMv5TE) | the fixed lane's ARMv6-M DQS kernel (`skin/asm/dqs_thumbv6m.rs`, which uses ARMv6's `SXTH`, `UXTH`) |
//! | `skin_asm_v7em` | ARM M-profile with the DSP extension (ARMv7E-M: Cortex-M4/M7; ARMv8-M Mainline with DSP) | the fixed lane's `SMLA<x><y>` assembly kernel (`skin/asm/thumbv7em.rs`) |
//! | `skin_asm_fixed` | `skin_asm_v6m` or `skin_asm_v7em` | what the two fixed kernels share: their entry, reading an asset in place |
//! | `skin_asm_fixed_dqs` | `skin_asm_v6m_dqs` or `skin_asm_v7em` | the fixed DQS kernels' entry (`skin/asm/dqs.rs`) |
//! | `skin_asm_v7em_f32` | ARM M-profile Thumb-2 with the hard-float ABI (a single-precision FPU) | the `f32` lane's assembly kernel (`skin/asm/thumbv7em_f32.rs`); `VSQRT.F32` for `f32`'s square roots (`num/vsqrt.rs`) |
//! | `skin_x86` | x86 or x86-64 with SSE2 | the `f32` lane's SSE2 loops and the AVX2 loop chosen at run time (`skin/x86/`) |
//!
//! The conditions are read from Cargo's `CARGO_CFG_*` variables, which hold the `cfg` values
//! of the target being built (with its `-C target-cpu`/`target-feature` flags): the same
//! values `#[cfg(target_feature = …)]` would test. (`dsp`, `mclass` and `v6` are reported by
//! compilers that allow unstable target features, as the Cortex-M `build-std` builds do;
//! elsewhere the generic loop runs, with the same bits.)

use std::env;

/// Every flag this script may set, for `rustc-check-cfg`.
const FLAGS: [&str; 8] = [
    "skin_v6m",
    "skin_asm_v6m",
    "skin_asm_v6m_dqs",
    "skin_asm_v7em",
    "skin_asm_fixed",
    "skin_asm_fixed_dqs",
    "skin_asm_v7em_f32",
    "skin_x86",
];

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    for flag in FLAGS {
        println!("cargo:rustc-check-cfg=cfg({flag})");
    }

    let arch = var("CARGO_CFG_TARGET_ARCH");
    let features = var("CARGO_CFG_TARGET_FEATURE");
    let feature = |f: &str| features.split(',').any(|x| x == f);
    let atomics = var("CARGO_CFG_TARGET_HAS_ATOMIC");
    let has_atomic_32 = atomics.split(',').any(|x| x == "32");
    let abi = var("CARGO_CFG_TARGET_ABI");

    let arm = arch == "arm";
    let v6m = arm && !has_atomic_32;
    let v7em = arm && feature("dsp") && feature("mclass");
    let v7em_f32 = arm && feature("mclass") && feature("thumb2") && abi == "eabihf";
    let x86 = (arch == "x86" || arch == "x86_64") && feature("sse2");

    for (flag, on) in [
        ("skin_v6m", v6m),
        ("skin_asm_v6m", v6m),
        ("skin_asm_v6m_dqs", v6m && feature("v6")),
        ("skin_asm_v7em", v7em),
        ("skin_asm_fixed", v6m || v7em),
        ("skin_asm_fixed_dqs", (v6m && feature("v6")) || v7em),
        ("skin_asm_v7em_f32", v7em_f32),
        ("skin_x86", x86),
    ] {
        if on {
            println!("cargo:rustc-cfg={flag}");
        }
    }
}

/// A Cargo-provided variable, empty when the target does not set it.
fn var(name: &str) -> String {
    env::var(name).unwrap_or_default()
}
