//! The `f32` lane's DQS-4 kernels for Cortex-M cores with a single-precision FPU and the
//! hard-float ABI (Cortex-M4F, M7, M33 with FPU): the generic loop (`skin::dqs` over the
//! `f32` lane's primitives, `lane/float.rs`) operation for operation and in its order, so
//! the same bits.
//!
//! A bone's dual quaternion (eight floats) is one `VLDM`. The lead bone's goes to s20–s27,
//! whose real part stays for the hemisphere tests; its weighted parts start the blend as
//! products (`w₀·e`, not `0 + w₀·e`, which would turn a −0 into +0). Each other bone's dot
//! product with the lead's real part is summed left to right as [`Lane::antipodal`] does
//! and compared with zero (`VCMP`: a NaN or −0 is not below it); when below, the weight is
//! negated (`w·(−e)` and `(−w)·e` are the same float: the product's sign is the signs'
//! exclusive or, its magnitude rounded alike), then eight `VMUL` + `VADD`. The rigid
//! transform is [`Lane::rigid`]'s: `s = 2 / (((xx + yy) + zz) + ww)` (one `VDIV`), the
//! rotation entries `1 − s·(…)` and `s·(…)`, the translation `s·t`; the point and the
//! normal as the LBS kernel's (`thumbv7em_f32.rs`), with [`Lane::unit`]'s renormalisation.
//! `VMUL` then `VADD` throughout, never the fused `VFMA` (one rounding where the generic
//! loop has two); the `vmla` build runs these kernels too.
//!
//! Registers: s0–s3 the blended real part, s4–s7 the dual part (then the rigid matrix: rows
//! s0–s2, s3–s5, s6–s8, translation s9–s11), s8–s15 a bone's entry, s16 w₀, s17–s19
//! w₁–w₃, s20–s27 the lead's entry (s24–s27 then temporaries), s28 = 1.0, s29 = 0.5,
//! s30 = 1.5, s31 = 2.0; r0 influences, r1 positions, r2 normals, r3 out, r4 out normals,
//! r5 the end of out, r6 the palette, r8 = 0x5f37_5a86 (micromath's inverse square root),
//! r9–r12 the bones' entries.
//!
//! [`Lane::antipodal`]: crate::lane::Lane::antipodal
//! [`Lane::rigid`]: crate::lane::Lane::rigid
//! [`Lane::unit`]: crate::lane::Lane::unit

use super::Job;

/// The assembler macros both kernels use (defined at the start of each block and purged at
/// its end, so that the blocks are independent).
macro_rules! dqs_f32_macros {
    () => {
        r#"
@ The prologue: saves r6, r7 (the other registers are the block's clobbers), loads the
@ job (r0: +0 palette, +4 influences, +8 positions, +12 normals, +16 out, +20 out
@ normals, +24 count) and the constants; branches to \done for no vertices.
    .macro DQS_F32_PROLOGUE done
    push {r6, r7}
    ldr r6, [r0], #4
    ldm r0, {r0-r5}
    cmp r5, #0
    beq \done
    add r5, r5, r5, lsl #1
    add r5, r3, r5, lsl #2
    movw r8, #0x5a86
    movt r8, #0x5f37
    vmov.f32 s28, #1.0
    vmov.f32 s29, #0.5
    vmov.f32 s30, #1.5
    vmov.f32 s31, #2.0
    .endm

@ One bone's entry (at \p) into the blend with weight \w: the hemisphere test against
@ the lead's real part (s20..s23), then w e into s0..s7.
    .macro DQS_F32_BONE p, w
    vldm \p, {s8-s15}
    vmul.f32 s24, s20, s8
    vmul.f32 s25, s21, s9
    vadd.f32 s24, s24, s25
    vmul.f32 s25, s22, s10
    vadd.f32 s24, s24, s25
    vmul.f32 s25, s23, s11
    vadd.f32 s24, s24, s25
    vcmp.f32 s24, #0
    vmrs APSR_nzcv, fpscr
    it mi
    vnegmi.f32 \w, \w
    vmul.f32 s24, \w, s8
    vmul.f32 s25, \w, s9
    vmul.f32 s26, \w, s10
    vmul.f32 s27, \w, s11
    vadd.f32 s0, s0, s24
    vadd.f32 s1, s1, s25
    vadd.f32 s2, s2, s26
    vadd.f32 s3, s3, s27
    vmul.f32 s24, \w, s12
    vmul.f32 s25, \w, s13
    vmul.f32 s26, \w, s14
    vmul.f32 s27, \w, s15
    vadd.f32 s4, s4, s24
    vadd.f32 s5, s5, s25
    vadd.f32 s6, s6, s26
    vadd.f32 s7, s7, s27
    .endm

@ One influence from r0 (post-incremented) blended into s0..s7, then the rigid matrix
@ (rows s0..s2, s3..s5, s6..s8, translation s9..s11).
    .macro DQS_F32_RIGID
    ldrb r9, [r0, #3]
    ldrb r12, [r0, #2]
    ldrb r11, [r0, #1]
    ldrb r10, [r0], #4
    vldm r0!, {s17-s19}
    add r10, r6, r10, lsl #5
    add r11, r6, r11, lsl #5
    add r12, r6, r12, lsl #5
    add r9, r6, r9, lsl #5
    vadd.f32 s16, s17, s18
    vadd.f32 s16, s16, s19
    vsub.f32 s16, s28, s16
    vldm r10, {s20-s27}
    vmul.f32 s0, s16, s20
    vmul.f32 s1, s16, s21
    vmul.f32 s2, s16, s22
    vmul.f32 s3, s16, s23
    vmul.f32 s4, s16, s24
    vmul.f32 s5, s16, s25
    vmul.f32 s6, s16, s26
    vmul.f32 s7, s16, s27
    DQS_F32_BONE r11, s17
    DQS_F32_BONE r12, s18
    DQS_F32_BONE r9, s19
    @ x s0, y s1, z s2, w s3, dx s4, dy s5, dz s6, dw s7: squares s8..s11, s = 2 / n s12.
    vmul.f32 s8, s0, s0
    vmul.f32 s9, s1, s1
    vmul.f32 s10, s2, s2
    vmul.f32 s11, s3, s3
    vadd.f32 s12, s8, s9
    vadd.f32 s12, s12, s10
    vadd.f32 s12, s12, s11
    vdiv.f32 s12, s31, s12
    @ xy s13, xz s14, yz s15, wx s16, wy s17, wz s18.
    vmul.f32 s13, s0, s1
    vmul.f32 s14, s0, s2
    vmul.f32 s15, s1, s2
    vmul.f32 s16, s3, s0
    vmul.f32 s17, s3, s1
    vmul.f32 s18, s3, s2
    @ t = (w d - dw v) + v x d: s19, s20, s21.
    vmul.f32 s19, s3, s4
    vmul.f32 s20, s7, s0
    vmul.f32 s21, s1, s6
    vmul.f32 s22, s2, s5
    vsub.f32 s19, s19, s20
    vsub.f32 s21, s21, s22
    vadd.f32 s19, s19, s21
    vmul.f32 s20, s3, s5
    vmul.f32 s21, s7, s1
    vmul.f32 s22, s2, s4
    vmul.f32 s23, s0, s6
    vsub.f32 s20, s20, s21
    vsub.f32 s22, s22, s23
    vadd.f32 s20, s20, s22
    vmul.f32 s21, s3, s6
    vmul.f32 s22, s7, s2
    vmul.f32 s23, s0, s5
    vmul.f32 s24, s1, s4
    vsub.f32 s21, s21, s22
    vsub.f32 s23, s23, s24
    vadd.f32 s21, s21, s23
    @ The diagonal 1 - s (..), xx s8, yy s9, zz s10.
    vadd.f32 s22, s9, s10
    vadd.f32 s23, s8, s10
    vadd.f32 s24, s8, s9
    vmul.f32 s22, s12, s22
    vmul.f32 s23, s12, s23
    vmul.f32 s24, s12, s24
    vsub.f32 s0, s28, s22
    vsub.f32 s4, s28, s23
    vsub.f32 s8, s28, s24
    @ The rest of the rotation, then the translation s t.
    vsub.f32 s1, s13, s18
    vadd.f32 s3, s13, s18
    vadd.f32 s2, s14, s17
    vsub.f32 s6, s14, s17
    vsub.f32 s5, s15, s16
    vadd.f32 s7, s15, s16
    vmul.f32 s1, s12, s1
    vmul.f32 s3, s12, s3
    vmul.f32 s2, s12, s2
    vmul.f32 s6, s12, s6
    vmul.f32 s5, s12, s5
    vmul.f32 s7, s12, s7
    vmul.f32 s9, s12, s19
    vmul.f32 s10, s12, s20
    vmul.f32 s11, s12, s21
    .endm

@ The point, in place of the translation: s9..s11 += rows . p (p in s16..s18).
    .macro DQS_F32_POINT
    vmul.f32 s12, s0, s16
    vmul.f32 s13, s3, s16
    vmul.f32 s14, s6, s16
    vadd.f32 s9, s9, s12
    vadd.f32 s10, s10, s13
    vadd.f32 s11, s11, s14
    vmul.f32 s12, s1, s17
    vmul.f32 s13, s4, s17
    vmul.f32 s14, s7, s17
    vadd.f32 s9, s9, s12
    vadd.f32 s10, s10, s13
    vadd.f32 s11, s11, s14
    vmul.f32 s12, s2, s18
    vmul.f32 s13, s5, s18
    vmul.f32 s14, s8, s18
    vadd.f32 s9, s9, s12
    vadd.f32 s10, s10, s13
    vadd.f32 s11, s11, s14
    .endm
"#
    };
}

/// The macros' names, purged at the end of each block.
macro_rules! dqs_f32_purge {
    () => {
        r#"
    .purgem DQS_F32_PROLOGUE
    .purgem DQS_F32_BONE
    .purgem DQS_F32_RIGID
    .purgem DQS_F32_POINT
"#
    };
}

/// Skinned positions and renormalised normals of `job.count` vertices.
///
/// # Safety
///
/// `job` must describe live, 4-byte aligned arrays of at least `job.count` influences,
/// positions, normals, output positions and output normals (the outputs writable and
/// aliasing nothing the kernel reads), and a palette of dual quaternions that holds every
/// bone index of those influences. The FPU must be enabled (as for any hard-float code).
#[inline(never)]
pub(super) unsafe fn dqs4_normals(job: &Job) {
    // SAFETY: the caller's contract above covers every access; the block declares every
    // register it changes (r0-r5, r8-r12, lr, s0-s31, the flags) but r6 and r7, which it
    // saves and restores itself, and leaves sp as it found it. Its `VCMP`s also set
    // FPSCR's condition flags, which compiled code reads only right after its own `VCMP`.
    // Labels are numeric (local), so the block stays valid wherever the compiler places it.
    unsafe {
        core::arch::asm!(
            concat!(
                dqs_f32_macros!(),
                r#"
    DQS_F32_PROLOGUE 9f
1:  DQS_F32_RIGID
    vldm r1!, {s16-s18}
    vldm r2!, {s19-s21}
    DQS_F32_POINT
    vstm r3!, {s9-s11}
    @ The rotated normal v in s25..s27: (m0 n0 + m1 n1) + m2 n2 per row.
    vmul.f32 s25, s0, s19
    vmul.f32 s26, s3, s19
    vmul.f32 s27, s6, s19
    vmul.f32 s12, s1, s20
    vmul.f32 s13, s4, s20
    vmul.f32 s14, s7, s20
    vadd.f32 s25, s25, s12
    vadd.f32 s26, s26, s13
    vadd.f32 s27, s27, s14
    vmul.f32 s12, s2, s21
    vmul.f32 s13, s5, s21
    vmul.f32 s14, s8, s21
    vadd.f32 s25, s25, s12
    vadd.f32 s26, s26, s13
    vadd.f32 s27, s27, s14
    @ Renormalised: a squared length at most f32::MIN_POSITIVE (bits 0x0080_0000; a
    @ non-negative float's bits order as its value, a NaN's lie above) gives zero;
    @ otherwise micromath's seed and two Newton steps y (1.5 - (h y) y), h = len2 / 2.
    vmul.f32 s12, s25, s25
    vmul.f32 s13, s26, s26
    vmul.f32 s14, s27, s27
    vadd.f32 s12, s12, s13
    vadd.f32 s12, s12, s14
    vmov r9, s12
    cmp r9, #0x00800000
    bls 3f
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
                dqs_f32_purge!()
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
/// As [`dqs4_normals`], without the normals.
#[inline(never)]
pub(super) unsafe fn dqs4_positions(job: &Job) {
    // SAFETY: as in `dqs4_normals`.
    unsafe {
        core::arch::asm!(
            concat!(
                dqs_f32_macros!(),
                r#"
    DQS_F32_PROLOGUE 9f
1:  DQS_F32_RIGID
    vldm r1!, {s16-s18}
    DQS_F32_POINT
    vstm r3!, {s9-s11}
    cmp r3, r5
    bne 1b
9:  pop {r6, r7}
"#,
                dqs_f32_purge!()
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
