//! The single-precision FPU's square root instruction, `VSQRT.F32`, on Cortex-M cores with
//! the hard-float ABI (Cortex-M4F, M7, M33 with FPU): one of skin-core's `unsafe` modules,
//! kept because the animation benchmark proved it (`docs/BENCHMARKS.md`, "The animation
//! layer on the boards": `libm::sqrtf` is a table-driven integer routine of about 45
//! instructions and a call; `f32::sqrt` and `core::f32::math` are not stable in `core`).
//!
//! `VSQRT.F32` is an IEEE 754 square root, correctly rounded in the FPSCR's rounding mode
//! (round to nearest, the reset value, which nothing in the project changes), as
//! `libm::sqrtf` is: the two give the same bits for every input, so the host (which takes
//! `libm::sqrtf`) and the board compute the same poses. [`sqrt`] is only called on
//! positive, finite values ([`crate::num::Real::sqrt`] returns 0 for the rest first).

#![allow(unsafe_code)]

/// `√x`, correctly rounded.
///
/// The value goes in and out through an integer register (`VMOV`s): Rust's `asm!` offers
/// the single-precision registers only to targets with the double-precision `vfp2`
/// feature, which the Cortex-M4F's FPU lacks; the register `s0` is named as clobbered.
#[inline(always)]
pub(super) fn sqrt(x: f32) -> f32 {
    let bits: u32;
    // SAFETY: the block moves `x` into `s0`, takes its square root there and moves the
    // result out; it touches no memory and no stack, changes no condition flags (only the
    // FPSCR's cumulative exception flags, which nothing reads) and declares `d0` (holding
    // `s0`) clobbered. The hard-float ABI guarantees the FPU is enabled (the runtime
    // enables it before `main`).
    unsafe {
        core::arch::asm!(
            "vmov s0, {x}",
            "vsqrt.f32 s0, s0",
            "vmov {bits}, s0",
            x = in(reg) x.to_bits(),
            bits = lateout(reg) bits,
            out("d0") _,
            options(pure, nomem, nostack, preserves_flags),
        );
    }
    f32::from_bits(bits)
}
