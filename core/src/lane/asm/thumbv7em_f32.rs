//! The `f32` kernels for Cortex-M cores with a single-precision FPU and the hard-float ABI
//! (Cortex-M4F, M7, M33 with FPU: 32 single registers).
//!
//! The point of the assembly is the loads: a bone's whole matrix (twelve floats) is one
//! `VLDM` into s16–s27, where LLVM loads every entry with its own `VLDR` (57 loads per
//! vertex in the Rust loop, 7 here), and the integer registers keep every cursor, so nothing
//! is spilled. The arithmetic is the generic loop's, operation for operation and in its
//! order (only the independent operations of different entries are interleaved): the lead
//! weight `1 − ((w₁ + w₂) + w₃)`, each entry `((w₁e₁ + w₂e₂) + w₃e₃) + w₀e₀` as separate
//! `VMUL` and `VADD` (no `VMLA`, which would cut instructions but costs 3 cycles on a
//! Cortex-M4 against 2 for the pair, nor the fused `VFMA`, which rounds differently), the
//! point `((t + e₀p₀) + e₁p₁) + e₂p₂`, the linear part `(e₀n₀ + e₁n₁) + e₂n₂`, and the
//! renormalisation of the `f32` lane's `unit`: squared length, the `MIN_POSITIVE` test,
//! micromath's inverse-square-root bit trick (`0x5f37_5a86 − (bits >> 1)`) and two Newton
//! steps `y·(1.5 − (½len²·y)·y)`, then three products.
//!
//! Registers: s0–s11 the blended matrix, s12 w₀ (then a temporary), s13–s15 w₁–w₃,
//! s16–s27 a bone's matrix (then p, n, the point and the linear part), s28 = 1.0,
//! s29 = 0.5, s30 = 1.5, s31 = `f32::MIN_POSITIVE`; r0 influences, r1 positions, r2
//! normals, r3 out, r4 out normals, r5 the end of out, r6 the palette, r7 = 48,
//! r8 = 0x5f37_5a86, r9–r12 the bones' matrices.
//!
//! The kernels are `asm!` blocks in functions, not `global_asm!` like the fixed ones: module
//! assembly is assembled without the target's FPU features (rust-lang/rust#127269), while a
//! function's inline assembly has them.

use super::Job;

/// The assembler macros both kernels use (defined at the start of each block and purged at
/// its end, so that the blocks are independent).
macro_rules! f32_macros {
    () => {
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
    mov r9, #0x00800000
    vmov s31, r9
    .endm

@ One influence from r0 (post-incremented): the bones' matrices into r10 (bone 0), r11,
@ r12, r9 (bones 1, 2, 3), the weights into s12 (w0), s13..s15.
    .macro SKIN_F32_INFLUENCE
    ldr r9, [r0], #4
    vldm r0!, {s13-s15}
    uxtb r10, r9
    ubfx r11, r9, #8, #8
    ubfx r12, r9, #16, #8
    lsr r9, r9, #24
    mla r10, r10, r7, r6
    mla r11, r11, r7, r6
    mla r12, r12, r7, r6
    mla r9, r9, r7, r6
    vadd.f32 s12, s13, s14
    vadd.f32 s12, s12, s15
    vsub.f32 s12, s28, s12
    .endm

@ The blended matrix into s0..s11, bone by bone: w1 e1, + w2 e2, + w3 e3, + w0 e0.
    .macro SKIN_F32_BLEND
    vldm r11, {s16-s27}
    vmul.f32 s0, s13, s16
    vmul.f32 s1, s13, s17
    vmul.f32 s2, s13, s18
    vmul.f32 s3, s13, s19
    vmul.f32 s4, s13, s20
    vmul.f32 s5, s13, s21
    vmul.f32 s6, s13, s22
    vmul.f32 s7, s13, s23
    vmul.f32 s8, s13, s24
    vmul.f32 s9, s13, s25
    vmul.f32 s10, s13, s26
    vmul.f32 s11, s13, s27
    vldm r12, {s16-s27}
    vmul.f32 s16, s14, s16
    vmul.f32 s17, s14, s17
    vmul.f32 s18, s14, s18
    vmul.f32 s19, s14, s19
    vmul.f32 s20, s14, s20
    vmul.f32 s21, s14, s21
    vmul.f32 s22, s14, s22
    vmul.f32 s23, s14, s23
    vmul.f32 s24, s14, s24
    vmul.f32 s25, s14, s25
    vmul.f32 s26, s14, s26
    vmul.f32 s27, s14, s27
    vadd.f32 s0, s0, s16
    vadd.f32 s1, s1, s17
    vadd.f32 s2, s2, s18
    vadd.f32 s3, s3, s19
    vadd.f32 s4, s4, s20
    vadd.f32 s5, s5, s21
    vadd.f32 s6, s6, s22
    vadd.f32 s7, s7, s23
    vadd.f32 s8, s8, s24
    vadd.f32 s9, s9, s25
    vadd.f32 s10, s10, s26
    vadd.f32 s11, s11, s27
    vldm r9, {s16-s27}
    vmul.f32 s16, s15, s16
    vmul.f32 s17, s15, s17
    vmul.f32 s18, s15, s18
    vmul.f32 s19, s15, s19
    vmul.f32 s20, s15, s20
    vmul.f32 s21, s15, s21
    vmul.f32 s22, s15, s22
    vmul.f32 s23, s15, s23
    vmul.f32 s24, s15, s24
    vmul.f32 s25, s15, s25
    vmul.f32 s26, s15, s26
    vmul.f32 s27, s15, s27
    vadd.f32 s0, s0, s16
    vadd.f32 s1, s1, s17
    vadd.f32 s2, s2, s18
    vadd.f32 s3, s3, s19
    vadd.f32 s4, s4, s20
    vadd.f32 s5, s5, s21
    vadd.f32 s6, s6, s22
    vadd.f32 s7, s7, s23
    vadd.f32 s8, s8, s24
    vadd.f32 s9, s9, s25
    vadd.f32 s10, s10, s26
    vadd.f32 s11, s11, s27
    vldm r10, {s16-s27}
    vmul.f32 s16, s12, s16
    vmul.f32 s17, s12, s17
    vmul.f32 s18, s12, s18
    vmul.f32 s19, s12, s19
    vmul.f32 s20, s12, s20
    vmul.f32 s21, s12, s21
    vmul.f32 s22, s12, s22
    vmul.f32 s23, s12, s23
    vmul.f32 s24, s12, s24
    vmul.f32 s25, s12, s25
    vmul.f32 s26, s12, s26
    vmul.f32 s27, s12, s27
    vadd.f32 s0, s0, s16
    vadd.f32 s1, s1, s17
    vadd.f32 s2, s2, s18
    vadd.f32 s3, s3, s19
    vadd.f32 s4, s4, s20
    vadd.f32 s5, s5, s21
    vadd.f32 s6, s6, s22
    vadd.f32 s7, s7, s23
    vadd.f32 s8, s8, s24
    vadd.f32 s9, s9, s25
    vadd.f32 s10, s10, s26
    vadd.f32 s11, s11, s27
    .endm

@ The point into s22..s24 (p in s16..s18; s12 a temporary).
    .macro SKIN_F32_POINTS
    vmul.f32 s12, s0, s16
    vadd.f32 s22, s3, s12
    vmul.f32 s12, s1, s17
    vadd.f32 s22, s22, s12
    vmul.f32 s12, s2, s18
    vadd.f32 s22, s22, s12
    vmul.f32 s12, s4, s16
    vadd.f32 s23, s7, s12
    vmul.f32 s12, s5, s17
    vadd.f32 s23, s23, s12
    vmul.f32 s12, s6, s18
    vadd.f32 s23, s23, s12
    vmul.f32 s12, s8, s16
    vadd.f32 s24, s11, s12
    vmul.f32 s12, s9, s17
    vadd.f32 s24, s24, s12
    vmul.f32 s12, s10, s18
    vadd.f32 s24, s24, s12
    .endm

@ The linear part into s25..s27 (n in s19..s21).
    .macro SKIN_F32_LINEAR
    vmul.f32 s25, s0, s19
    vmul.f32 s12, s1, s20
    vadd.f32 s25, s25, s12
    vmul.f32 s12, s2, s21
    vadd.f32 s25, s25, s12
    vmul.f32 s26, s4, s19
    vmul.f32 s12, s5, s20
    vadd.f32 s26, s26, s12
    vmul.f32 s12, s6, s21
    vadd.f32 s26, s26, s12
    vmul.f32 s27, s8, s19
    vmul.f32 s12, s9, s20
    vadd.f32 s27, s27, s12
    vmul.f32 s12, s10, s21
    vadd.f32 s27, s27, s12
    .endm

"#
    };
}

/// The macros' names, purged at the end of each block.
macro_rules! f32_purge {
    () => {
        r#"
    .purgem SKIN_F32_PROLOGUE
    .purgem SKIN_F32_INFLUENCE
    .purgem SKIN_F32_BLEND
    .purgem SKIN_F32_POINTS
    .purgem SKIN_F32_LINEAR
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
    vstm r3!, {s22-s24}
    @ Renormalise v = (s25, s26, s27): len2 in s0.
    vmul.f32 s0, s25, s25
    vmul.f32 s1, s26, s26
    vadd.f32 s0, s0, s1
    vmul.f32 s1, s27, s27
    vadd.f32 s0, s0, s1
    vcmp.f32 s0, s31
    vmrs APSR_nzcv, fpscr
    bls 3f
    vmul.f32 s1, s29, s0
    vmov r9, s0
    sub r9, r8, r9, lsr #1
    vmov s2, r9
    vmul.f32 s3, s1, s2
    vmul.f32 s3, s3, s2
    vsub.f32 s3, s30, s3
    vmul.f32 s2, s2, s3
    vmul.f32 s3, s1, s2
    vmul.f32 s3, s3, s2
    vsub.f32 s3, s30, s3
    vmul.f32 s2, s2, s3
    vmul.f32 s25, s25, s2
    vmul.f32 s26, s26, s2
    vmul.f32 s27, s27, s2
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
    vstm r3!, {s22-s24}
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
