//! The `f32` kernels for Cortex-M cores with a single-precision FPU and the hard-float ABI
//! (Cortex-M4F, M7, M33 with FPU: 32 single registers).
//!
//! The point of the assembly is the loads: a bone's whole matrix (twelve floats) is one
//! `VLDM` into s16–s27, where LLVM loads every entry with its own `VLDR` (57 loads per
//! vertex in the Rust loop, 7 here), and the integer registers keep every cursor, so nothing
//! is spilled. The arithmetic is the generic loop's, operation for operation and in its
//! order (only the independent operations of different entries are interleaved): the lead
//! weight `1 − ((w₁ + w₂) + w₃)`, each entry `((w₁e₁ + w₂e₂) + w₃e₃) + w₀e₀`, the point
//! `((t + e₀p₀) + e₁p₁) + e₂p₂`, the linear part `(e₀n₀ + e₁n₁) + e₂n₂`, and the
//! renormalisation of the `f32` lane's `unit`: squared length, the `MIN_POSITIVE` test,
//! micromath's inverse-square-root bit trick (`0x5f37_5a86 − (bits >> 1)`) and two Newton
//! steps `y·(1.5 − (½len²·y)·y)`, then three products. Never the fused `VFMA`, which rounds
//! once where the generic loop rounds twice.
//!
//! **Two builds of the multiply-adds, the same bits.** Every multiply-add is written once,
//! as the assembler macros `MADD_PRODUCT` and `MADD_SUM` (`f32_madd!`). By default they are
//! a `VMUL` and a `VADD`, the independent products first so that no sum waits on the
//! instruction before it: the Cortex-M4 TRM gives each one cycle, against three for the
//! chained `VMLA.F32`. With the crate feature `vmla` they are one chained `VMLA`
//! (`d + round(n·m)`, rounded again: exactly `VMUL` then `VADD`): a third fewer instructions
//! (LBS-4 positions + normals: 108 against 161 per vertex under QEMU, `docs/BENCHMARKS.md`),
//! so less code to fetch, but on a Cortex-M4 about 50 more cycles per vertex by the TRM's
//! figures. LLVM's own scheduling models agree: they mark `VMLA` slow on the Cortex-M4, M33,
//! M35P and M55, not on the M7 or M85 — the cores where `vmla` should also be the faster
//! build.
//!
//! Registers: s0–s8 the blended matrix's linear part (rows s0–s2, s3–s5, s6–s8), s9–s11 its
//! translation (then the point), s12 w₀, s13–s15 w₁–w₃ (after the blend, temporaries),
//! s16–s27 a bone's matrix (then p in s16–s18, n in s19–s21, the linear part in s25–s27),
//! s28 = 1.0, s29 = 0.5, s30 = 1.5; r0 influences, r1 positions, r2 normals, r3 out, r4 out
//! normals, r5 the end of out, r6 the palette, r7 = 48, r8 = 0x5f37_5a86, r9–r12 the
//! bones' matrices.
//!
//! The kernels are `asm!` blocks in functions, not `global_asm!` like the fixed ones: module
//! assembly is assembled without the target's FPU features (rust-lang/rust#127269), while a
//! function's inline assembly has them.

use super::Job;

/// The assembler macros both kernels use (defined at the start of each block and purged at
/// its end, so that the blocks are independent), after the build's multiply-add
/// (`f32_madd!`).
macro_rules! f32_macros {
    () => {
        concat!(
            f32_madd!(),
            r#"
@ The prologue: saves r6, r7 (the other registers are the block's clobbers), loads the
@ job (r0: +0 palette, +4 influences, +8 positions, +12 normals, +16 out, +20 out
@ normals, +24 count) and the constants; branches to \done for no vertices.
    .macro SKIN_F32_PROLOGUE done
    push {r6, r7}
    ldr r6, [r0], #4
    ldm r0, {r0-r5}
    cmp r5, #0
    beq \done
    add r5, r5, r5, lsl #1
    add r5, r3, r5, lsl #2
    movs r7, #48
    movw r8, #0x5a86
    movt r8, #0x5f37
    vmov.f32 s28, #1.0
    vmov.f32 s29, #0.5
    vmov.f32 s30, #1.5
    .endm

@ One influence from r0 (post-incremented): the bones' matrices into r10 (bone 0), r11,
@ r12, r9 (bones 1, 2, 3), the weights into s12 (w0), s13..s15.
    .macro SKIN_F32_INFLUENCE
    ldrb r9, [r0, #3]
    ldrb r12, [r0, #2]
    ldrb r11, [r0, #1]
    ldrb r10, [r0], #4
    vldm r0!, {s13-s15}
    mla r10, r10, r7, r6
    mla r11, r11, r7, r6
    mla r12, r12, r7, r6
    mla r9, r9, r7, r6
    vadd.f32 s12, s13, s14
    vadd.f32 s12, s12, s15
    vsub.f32 s12, s28, s12
    .endm

@ The first bone's matrix (in s16..s27, rows of four) times its weight \w into the blended
@ matrix: the linear part's rows in s0..s2, s3..s5, s6..s8, the translation in s9..s11.
    .macro SKIN_F32_FIRST w
    vmul.f32 s0, \w, s16
    vmul.f32 s1, \w, s17
    vmul.f32 s2, \w, s18
    vmul.f32 s9, \w, s19
    vmul.f32 s3, \w, s20
    vmul.f32 s4, \w, s21
    vmul.f32 s5, \w, s22
    vmul.f32 s10, \w, s23
    vmul.f32 s6, \w, s24
    vmul.f32 s7, \w, s25
    vmul.f32 s8, \w, s26
    vmul.f32 s11, \w, s27
    .endm

@ Adds the bone matrix in s16..s27 times its weight \w to the blended matrix.
    .macro SKIN_F32_ADD w
    MADD_PRODUCT s16, \w, s16
    MADD_PRODUCT s17, \w, s17
    MADD_PRODUCT s18, \w, s18
    MADD_PRODUCT s19, \w, s19
    MADD_PRODUCT s20, \w, s20
    MADD_PRODUCT s21, \w, s21
    MADD_PRODUCT s22, \w, s22
    MADD_PRODUCT s23, \w, s23
    MADD_PRODUCT s24, \w, s24
    MADD_PRODUCT s25, \w, s25
    MADD_PRODUCT s26, \w, s26
    MADD_PRODUCT s27, \w, s27
    MADD_SUM s0, \w, s16, s16
    MADD_SUM s1, \w, s17, s17
    MADD_SUM s2, \w, s18, s18
    MADD_SUM s9, \w, s19, s19
    MADD_SUM s3, \w, s20, s20
    MADD_SUM s4, \w, s21, s21
    MADD_SUM s5, \w, s22, s22
    MADD_SUM s10, \w, s23, s23
    MADD_SUM s6, \w, s24, s24
    MADD_SUM s7, \w, s25, s25
    MADD_SUM s8, \w, s26, s26
    MADD_SUM s11, \w, s27, s27
    .endm

@ The blended matrix, bone by bone: w1 e1, + w2 e2, + w3 e3, + w0 e0.
    .macro SKIN_F32_BLEND
    vldm r11, {s16-s27}
    SKIN_F32_FIRST s13
    vldm r12, {s16-s27}
    SKIN_F32_ADD s14
    vldm r9, {s16-s27}
    SKIN_F32_ADD s15
    vldm r10, {s16-s27}
    SKIN_F32_ADD s12
    .endm

@ The point, in place of the translation: s9..s11 += rows · p (p in s16..s18).
    .macro SKIN_F32_POINTS
    MADD_PRODUCT s12, s0, s16
    MADD_PRODUCT s13, s3, s16
    MADD_PRODUCT s14, s6, s16
    MADD_SUM s9, s0, s16, s12
    MADD_SUM s10, s3, s16, s13
    MADD_SUM s11, s6, s16, s14
    MADD_PRODUCT s12, s1, s17
    MADD_PRODUCT s13, s4, s17
    MADD_PRODUCT s14, s7, s17
    MADD_SUM s9, s1, s17, s12
    MADD_SUM s10, s4, s17, s13
    MADD_SUM s11, s7, s17, s14
    MADD_PRODUCT s12, s2, s18
    MADD_PRODUCT s13, s5, s18
    MADD_PRODUCT s14, s8, s18
    MADD_SUM s9, s2, s18, s12
    MADD_SUM s10, s5, s18, s13
    MADD_SUM s11, s8, s18, s14
    .endm

@ The linear part into s25..s27 (n in s19..s21).
    .macro SKIN_F32_LINEAR
    vmul.f32 s25, s0, s19
    vmul.f32 s26, s3, s19
    vmul.f32 s27, s6, s19
    MADD_PRODUCT s12, s1, s20
    MADD_PRODUCT s13, s4, s20
    MADD_PRODUCT s14, s7, s20
    MADD_SUM s25, s1, s20, s12
    MADD_SUM s26, s4, s20, s13
    MADD_SUM s27, s7, s20, s14
    MADD_PRODUCT s12, s2, s21
    MADD_PRODUCT s13, s5, s21
    MADD_PRODUCT s14, s8, s21
    MADD_SUM s25, s2, s21, s12
    MADD_SUM s26, s5, s21, s13
    MADD_SUM s27, s8, s21, s14
    .endm

@ The renormalised normal: v in s25..s27. A squared length at most f32::MIN_POSITIVE
@ (bits 0x0080_0000; a non-negative float's bits order as its value, and a NaN's lie
@ above) gives zero at \zero, which returns to the store. Otherwise micromath's seed and
@ two Newton steps y (1.5 - (h y) y), h = len2 / 2, in s14.
    .macro SKIN_F32_UNIT zero
    vmul.f32 s12, s25, s25
    MADD_PRODUCT s13, s26, s26
    MADD_PRODUCT s14, s27, s27
    MADD_SUM s12, s26, s26, s13
    MADD_SUM s12, s27, s27, s14
    vmov r9, s12
    cmp r9, #0x00800000
    bls \zero
    vmul.f32 s13, s29, s12
    sub r9, r8, r9, lsr #1
    vmov s14, r9
    vmul.f32 s15, s13, s14
    vmul.f32 s15, s15, s14
    vsub.f32 s15, s30, s15
    vmul.f32 s14, s14, s15
    vmul.f32 s15, s13, s14
    vmul.f32 s15, s15, s14
    vsub.f32 s15, s30, s15
    vmul.f32 s14, s14, s15
    vmul.f32 s25, s25, s14
    vmul.f32 s26, s26, s14
    vmul.f32 s27, s27, s14
    .endm
"#
        )
    };
}

/// The multiply-add `d ← d + n·m` (the product rounded, then the sum), written as
/// `MADD_PRODUCT t, n, m` and, later, `MADD_SUM d, n, m, t` (`t` a free register): by
/// default `VMUL t, n, m` and `VADD d, d, t`; where several multiply-adds are independent
/// (the blend, the point, the linear part) their products come first, so that no `VADD`
/// reads the result of the instruction before it (on a Cortex-M4 each then takes one
/// cycle).
#[cfg(not(feature = "vmla"))]
macro_rules! f32_madd {
    () => {
        r#"
    .macro MADD_PRODUCT t, n, m
    vmul.f32 \t, \n, \m
    .endm
    .macro MADD_SUM d, n, m, t
    vadd.f32 \d, \d, \t
    .endm
"#
    };
}

/// The multiply-add with the feature `vmla`: `MADD_PRODUCT` is nothing and `MADD_SUM` one
/// chained `VMLA d, n, m`, which rounds the product before the add — the same bits as
/// `VMUL` then `VADD` in one instruction.
#[cfg(feature = "vmla")]
macro_rules! f32_madd {
    () => {
        r#"
    .macro MADD_PRODUCT t, n, m
    .endm
    .macro MADD_SUM d, n, m, t
    vmla.f32 \d, \n, \m
    .endm
"#
    };
}

/// The macros' names, purged at the end of each block.
macro_rules! f32_purge {
    () => {
        r#"
    .purgem MADD_PRODUCT
    .purgem MADD_SUM
    .purgem SKIN_F32_PROLOGUE
    .purgem SKIN_F32_INFLUENCE
    .purgem SKIN_F32_FIRST
    .purgem SKIN_F32_ADD
    .purgem SKIN_F32_BLEND
    .purgem SKIN_F32_POINTS
    .purgem SKIN_F32_LINEAR
    .purgem SKIN_F32_UNIT
"#
    };
}

/// Skinned positions and renormalised normals of `job.count` vertices.
///
/// # Safety
///
/// `job` must describe live, 4-byte aligned arrays of at least `job.count` influences,
/// positions, normals, output positions and output normals (the outputs writable and
/// aliasing nothing the kernel reads), and a palette that holds every bone index of those
/// influences. The FPU must be enabled (as for any hard-float code).
#[inline(never)]
pub(super) unsafe fn lbs4_normals(job: &Job) {
    // SAFETY: the caller's contract above covers every access; the block declares every
    // register it changes (r0-r5, r8-r12, lr, s0-s31, the flags) but r6 and r7, which it
    // saves and restores itself, and leaves sp as it found it. Labels are numeric (local),
    // so the block stays valid wherever the compiler places it.
    unsafe {
        core::arch::asm!(
            concat!(
                f32_macros!(),
                r#"
    SKIN_F32_PROLOGUE 9f
1:  SKIN_F32_INFLUENCE
    SKIN_F32_BLEND
    vldm r1!, {s16-s18}
    vldm r2!, {s19-s21}
    SKIN_F32_POINTS
    SKIN_F32_LINEAR
    vstm r3!, {s9-s11}
    SKIN_F32_UNIT 3f
2:  vstm r4!, {s25-s27}
    cmp r3, r5
    bne 1b
    b 9f
3:  @ A collapsed normal: zero.
    movs r9, #0
    vmov s25, s26, r9, r9
    vmov s27, r9
    b 2b
9:  pop {r6, r7}
"#,
                f32_purge!()
            ),
            inout("r0") core::ptr::from_ref(job) => _,
            out("r1") _, out("r2") _, out("r3") _, out("r4") _, out("r5") _,
            out("r8") _, out("r9") _, out("r10") _, out("r11") _, out("r12") _,
            out("lr") _,
            out("d0") _, out("d1") _, out("d2") _, out("d3") _,
            out("d4") _, out("d5") _, out("d6") _, out("d7") _,
            out("d8") _, out("d9") _, out("d10") _, out("d11") _,
            out("d12") _, out("d13") _, out("d14") _, out("d15") _,
            options(raw),
        );
    }
}

/// Skinned positions of `job.count` vertices.
///
/// # Safety
///
/// As [`lbs4_normals`], without the normals.
#[inline(never)]
pub(super) unsafe fn lbs4_positions(job: &Job) {
    // SAFETY: as in `lbs4_normals`.
    unsafe {
        core::arch::asm!(
            concat!(
                f32_macros!(),
                r#"
    SKIN_F32_PROLOGUE 9f
1:  SKIN_F32_INFLUENCE
    SKIN_F32_BLEND
    vldm r1!, {s16-s18}
    SKIN_F32_POINTS
    vstm r3!, {s9-s11}
    cmp r3, r5
    bne 1b
9:  pop {r6, r7}
"#,
                f32_purge!()
            ),
            inout("r0") core::ptr::from_ref(job) => _,
            out("r1") _, out("r2") _, out("r3") _, out("r4") _, out("r5") _,
            out("r8") _, out("r9") _, out("r10") _, out("r11") _, out("r12") _,
            out("lr") _,
            out("d0") _, out("d1") _, out("d2") _, out("d3") _,
            out("d4") _, out("d5") _, out("d6") _, out("d7") _,
            out("d8") _, out("d9") _, out("d10") _, out("d11") _,
            out("d12") _, out("d13") _, out("d14") _, out("d15") _,
            options(raw),
        );
    }
}
