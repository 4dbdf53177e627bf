//! The fixed lane's DQS-4 kernels for cores with the DSP extension (ARMv7E-M: Cortex-M4,
//! M7; Thumb-2): the generic loop (`skin::dqs` over the fixed lane's primitives,
//! `lane/fixed_point.rs` and `lane/fixed_rigid.rs`) operation for operation, so the same bits.
//!
//! **Blend.** A palette entry `Dual<Q14>` is four words: `(x, y)`, `(z, w)`, `(dx, dy)`,
//! `(dz, dw)`, a part read with one `LDRD` (`Dual` is word-aligned). The
//! real part is blended first: the lead bone's two words stay in registers, and each other
//! bone's real words give its hemisphere test as `SMUAD` + `SMLAD` (the four products of
//! [`Lane::antipodal`], summed with wrapping as it does) and, when that sum is negative, its
//! weight negated by `EOR` and `SUB` of the sum's sign, no branch or `IT` block
//! ([`Lane::weigh_flipped`] negates the weight too). Every term is then one `SMLA<x>B` of
//! a component half by the (signed) weight half; the lead's terms take `2¹³` as their
//! addend, which makes the `Q15` rounding of [`Lane::rigid`] one `ASR #14` later. The four real sums wait in the frame while the dual part is blended
//! with the same (possibly negated) weights.
//!
//! A weight of exactly 1 (`0x8000`, the other three 0) reads as −2¹⁵ in a signed half, so
//! such a vertex blends to minus the generic loop's sums, exactly (multiples of 2¹⁵, which
//! the rounding keeps exact). The rigid transform does not see that sign: the rotation
//! entries and the squared norm are quadratic in the real part, the translation numerators
//! bilinear in the real and dual parts, so every output bit is the generic loop's.
//!
//! **Rigid transform** ([`Lane::rigid`]): the reciprocal `r` of the squared norm `n` as
//! there (floor `2²⁴`, `CLZ`, the 256-entry seed table, one Newton step); the rotation at
//! the scale `N` is the high halves of the numerators shifted by `s` (the diagonal) or
//! `s + 1` (the rest, through one factor of each product: `(y << (s + 1))·z` is
//! `(y·z) << (s + 1)` modulo 2³², as the lane's wrapping products are), no product by `r`:
//! two are packed per row by `PKHTB` (the high half of one, the other's `ASR #16`), and
//! the third stays whole, read by `SMLATB` from its high half. A point coordinate is then
//! `SMUAD` + `SMLATB`, one `ADD` of the sum with `ASR #3` to the translation
//! (`(u >> 5) << (s + 1)`, two shifts, plus the half unit `nn >> 22` kept in the frame)
//! and one `SMMUL` (`(a·b) >> 32`) by `r << 7`, which is `mul_hi(a, r) >> 9`; a normal's
//! is `SMLAD` + `SMLATB` + `ASR #15` (rounded at half the scale), renormalised
//! by [`Lane::unit`]'s integer sequence, as in the LBS kernel (`thumbv7em.rs`).
//!
//! [`Lane::antipodal`]: crate::lane::Lane::antipodal
//! [`Lane::weigh_flipped`]: crate::lane::Lane::weigh_flipped
//! [`Lane::rigid`]: crate::lane::Lane::rigid
//! [`Lane::unit`]: crate::lane::Lane::unit

use super::DualJob;

// DualJob: the `Job` (+0 palette, +4 influences, +8 positions, +12 normals, +16 out,
// +20 out_normals, +24 count, +28 palette_len, +32 seed), then +36 the reciprocal table.
//
// Frame (56 bytes below the saved r6, r7):
//   sp+0   P01, P2, N01, N2 (position and normal, packed halves; N only with normals)
//   sp+16  cursors: influences, positions, normals, out, out_normals, end of out
//   sp+40  palette, seed table - 64 bytes, reciprocal table - 512 bytes
//   sp+52  the vertex's nn >> 22 (half an output unit at the scale N)
// Pushed below it within a vertex: w0 and the entries of bones 0 and 1, then the real sums
// (x, y, z, w) on top, both popped after the dual part's blend; then the translation
// numerators u0, u1, u2, popped into the point's registers.

/// The assembler macros both kernels use (defined at the start of each block and purged at
/// its end, so that the blocks are independent).
macro_rules! dqs_dsp_macros {
    () => {
        r#"
@ One bone's real part (words at \p) against the lead's (r1, r2): its hemisphere test
@ negates the weight \w when the dot product is negative (its sign word m = r0 >> 31, all
@ ones or zero: (w ^ m) - m is -w or w), then four terms into r3..r6.
    .macro DQS_DSP_REAL p, w
    ldrd r7, r8, [\p]
    smuad r0, r1, r7
    smlad r0, r2, r8, r0
    eor \w, \w, r0, asr #31
    sub \w, \w, r0, asr #31
    smlabb r3, r7, \w, r3
    smlatb r4, r7, \w, r4
    smlabb r5, r8, \w, r5
    smlatb r6, r8, \w, r6
    .endm

@ One bone's dual part (words at \p + 8), four terms into r3..r6; \p is clobbered.
    .macro DQS_DSP_DUAL p, w
    ldrd r2, \p, [\p, #8]
    smlabb r3, r2, \w, r3
    smlatb r4, r2, \w, r4
    smlabb r5, \p, \w, r5
    smlatb r6, \p, \w, r6
    .endm

@ From the cursors (r0 influences, r1..r4, r6 = sp + 16) to the rotation and translation:
@ rows packed as r1 = (e00, e01), r4 = (e10, e11), r3 = (e20, e21) and in the high halves
@ of r6 = e02, r12 = e12, r2 = e22; r0 = r << 7, r5 = s + 1; u0..u2 pushed (sp is 12
@ bytes below the frame).
    .macro DQS_DSP_RIGID
    @ The influence: bones r7..r10 (r0 advanced past it), stored weights r11, r12, lr.
    ldrb r8, [r0, #1]
    ldrb r9, [r0, #2]
    ldrb r10, [r0, #3]
    ldrh r11, [r0, #4]
    ldrh r12, [r0, #6]
    ldrh lr, [r0, #8]
    ldrb r7, [r0], #10
    stm r6, {r0-r4}
    ldr r5, [r6, #24]
    add r7, r5, r7, lsl #4
    add r8, r5, r8, lsl #4
    add r9, r5, r9, lsl #4
    add r10, r5, r10, lsl #4
    add r0, r11, r12
    add r0, r0, lr
    rsb r0, r0, #0x8000
    push {r0, r7, r8}
    @ Real part: the lead's terms with the rounding addend, then bones 1..3.
    ldrd r1, r2, [r7]
    mov r7, #0x2000
    smlabb r3, r1, r0, r7
    smlatb r4, r1, r0, r7
    smlabb r5, r2, r0, r7
    smlatb r6, r2, r0, r7
    DQS_DSP_REAL r8, r11
    DQS_DSP_REAL r9, r12
    DQS_DSP_REAL r10, lr
    push {r3-r6}
    @ Dual part, with the same weights: w0 and the entries of bones 0 and 1 back from the
    @ stack (r9, r10 still hold bones 2 and 3's).
    add r1, sp, #16
    ldm r1, {r0, r7, r8}
    mov r1, #0x2000
    ldrd r2, r7, [r7, #8]
    smlabb r3, r2, r0, r1
    smlatb r4, r2, r0, r1
    smlabb r5, r7, r0, r1
    smlatb r6, r7, r0, r1
    DQS_DSP_DUAL r8, r11
    DQS_DSP_DUAL r9, r12
    DQS_DSP_DUAL r10, lr
    @ Q15: dual r3..r6 = dx, dy, dz, dw; real r7..r10 = x, y, z, w.
    asr r3, r3, #14
    asr r4, r4, #14
    asr r5, r5, #14
    asr r6, r6, #14
    @ The real sums, and w0 and the two entries dropped (r11, r12, lr are free now).
    pop {r7-r12, lr}
    asr r7, r7, #14
    asr r8, r8, #14
    asr r9, r9, #14
    asr r10, r10, #14
    @ Translation numerators u = w·d − dw·v + v × d, to the frame.
    mul r0, r10, r3
    mls r0, r6, r7, r0
    mla r0, r8, r5, r0
    mls r0, r9, r4, r0
    mul r1, r10, r4
    mls r1, r6, r8, r1
    mla r1, r9, r3, r1
    mls r1, r7, r5, r1
    mul r2, r10, r5
    mls r2, r6, r9, r2
    mla r2, r7, r4, r2
    mls r2, r8, r3, r2
    push {r0-r2}
    @ n = ww + xx + yy + zz (r4) and the diagonal numerators d0 r1, d1 r3, d2 r2.
    mul r0, r10, r10
    mla r1, r7, r7, r0
    mls r0, r7, r7, r0
    mul r2, r8, r8
    mla r3, r9, r9, r2
    mls r2, r9, r9, r2
    add r4, r1, r3
    sub r1, r1, r3
    add r3, r0, r2
    sub r2, r0, r2
    @ The reciprocal: s + 1 r5 and 2·nn r4 (in [2^31, 2^32): the same seed index by
    @ >> 23, and mul_hi(nn, seed) is the high word of 2·nn times seed << 15), seed r0,
    @ r = seed + Newton's correction (r0); the index nn >> 22 (half an output unit at the
    @ scale N) to the frame's last word.
    cmp r4, #0x1000000
    it lt
    movlt r4, #0x1000000
    clz r5, r4
    lsl r4, r4, r5
    lsr r0, r4, #23
    str r0, [sp, #64]
    ldr r6, [sp, #60]
    ldrh r0, [r6, r0, lsl #1]
    lsl r6, r0, #15
    umull r6, r11, r4, r6
    rsb r11, r11, #0x40000000
    lsl r4, r0, #2
    smmulr r4, r11, r4
    add r0, r0, r4
    @ The rotation at the scale N: the diagonal numerators shifted by s (r4), kept whole;
    @ the rest by s + 1 through one factor each (w << (s + 1) r10, y << (s + 1) r11,
    @ z << (s + 1) r12), their high halves packed by PKHTB; then r << 7 r0.
    sub r4, r5, #1
    lsl r1, r1, r4
    lsl r3, r3, r4
    lsl r2, r2, r4
    lsl r10, r10, r5
    lsl r11, r8, r5
    lsl r12, r9, r5
    mul r4, r7, r11
    mls r6, r10, r9, r4
    mla r4, r10, r9, r4
    pkhtb r1, r6, r1, asr #16
    pkhtb r4, r3, r4, asr #16
    mul r3, r7, r12
    mla r6, r10, r8, r3
    mls r3, r10, r8, r3
    mul r11, r11, r9
    mls r12, r10, r7, r11
    mla r11, r10, r7, r11
    pkhtb r3, r11, r3, asr #16
    lsl r0, r0, #7
    .endm

@ The point: the translation ((u >> 5) << (s + 1)) + (nn >> 22) (u0..u2 in r7..r9, r5 =
@ s + 1, nn >> 22 from the frame), plus each row (as DQS_DSP_RIGID leaves them) by P01
@ r10, P2 r11 truncated to Q25, times r << 7 (r0) by SMMUL: mul_hi(a, r) >> 9.
    .macro DQS_DSP_POINT
    asr r7, r7, #5
    lsl r7, r7, r5
    asr r8, r8, #5
    lsl r8, r8, r5
    asr r9, r9, #5
    lsl r9, r9, r5
    ldr r5, [sp, #52]
    add r7, r7, r5
    add r8, r8, r5
    add r9, r9, r5
    smuad r5, r1, r10
    smlatb r5, r6, r11, r5
    add r7, r7, r5, asr #3
    smmul r7, r7, r0
    smuad r5, r4, r10
    smlatb r5, r12, r11, r5
    add r8, r8, r5, asr #3
    smmul r8, r8, r0
    smuad r5, r3, r10
    smlatb r5, r2, r11, r5
    add r9, r9, r5, asr #3
    smmul r9, r9, r0
    .endm

@ The prologue: saves r6, r7 (the other registers are the block's clobbers) and makes
@ the frame; cursors into r0..r4, r6 = sp + 16. Branches to \done for no vertices.
    .macro DQS_DSP_PROLOGUE done
    push {r6, r7}
    sub sp, #56
    ldr r8, [r0, #32]
    ldr r9, [r0, #36]
    ldm r0, {r0-r7}
    cmp r6, #0
    beq \done
    add r6, r6, r6, lsl #1
    add r6, r4, r6, lsl #2
    sub r8, r8, #64
    sub r9, r9, #512
    add r10, sp, #16
    stm r10, {r1-r6}
    add r10, sp, #40
    stm r10, {r0, r8, r9}
    add r6, sp, #16
    ldm r6, {r0-r4}
    .endm
"#
    };
}

/// The macros' names, purged at the end of each block.
macro_rules! dqs_dsp_purge {
    () => {
        r#"
    .purgem DQS_DSP_REAL
    .purgem DQS_DSP_DUAL
    .purgem DQS_DSP_RIGID
    .purgem DQS_DSP_POINT
    .purgem DQS_DSP_PROLOGUE
"#
    };
}

/// Skinned positions and renormalised normals of `job.job.count` vertices.
///
/// # Safety
///
/// `job` must describe live arrays of at least `count` influences, positions, normals,
/// output positions and output normals (the outputs writable and aliasing nothing the
/// kernel reads; output positions 4-byte aligned), and a palette of unit dual quaternions
/// that holds every bone index of those influences; `job.job.seed` must point at `SEED` and
/// `job.recip` at `RECIP`. The palette must be word-aligned (as every `Dual` is: `LDRD`
/// needs it). The core must allow unaligned word loads (the ARMv7-M default,
/// `CCR.UNALIGN_TRP` clear), as positions and normals are only 2-byte aligned.
#[inline(never)]
pub(super) unsafe fn dqs4_normals(job: &DualJob) {
    // SAFETY: the caller's contract above covers every access (the seed table index is
    // `Lane::unit`'s, the reciprocal table's `(nn >> 22) − 256` is in 0..256 for the
    // `nn` in [2³⁰, 2³¹) that the floor and the shift make); the block declares every
    // register it changes (r0-r5, r8-r12, lr, the flags) but r6 and r7, which it saves and
    // restores itself, and leaves sp as it found it (92 bytes used below it). Labels are
    // numeric (local), so the block stays valid wherever the compiler places it.
    unsafe {
        core::arch::asm!(
            concat!(
                dqs_dsp_macros!(),
                r#"
    DQS_DSP_PROLOGUE 9f
1:  @ Position P01, P2 and normal N01, N2 to sp+0.
    ldrh r8, [r1, #4]
    ldr r7, [r1], #6
    ldrh r10, [r2, #4]
    ldr r9, [r2], #6
    stmdb r6, {r7-r10}
    DQS_DSP_RIGID
    @ u0..u2 r7..r9, P01 r10, P2 r11, N01 lr.
    pop {r7-r9}
    ldm sp, {r10, r11, lr}
    DQS_DSP_POINT
    @ The normal's rotation, rounded to Q14 at the scale N/2: v0 r11, v1 r12, v2 r10.
    ldr r10, [sp, #12]
    mov r0, #0x4000
    smlad r11, r1, lr, r0
    smlatb r11, r6, r10, r11
    asr r11, r11, #15
    smlad r1, r4, lr, r0
    smlatb r1, r12, r10, r1
    asr r12, r1, #15
    smlad r1, r3, lr, r0
    smlatb r1, r2, r10, r1
    asr r10, r1, #15
    @ Renormalise: the squared length in r3:r2 (< 3 * 2^32).
    smull r2, r3, r11, r11
    smlal r2, r3, r12, r12
    smlal r2, r3, r10, r10
    cmp r3, #0
    bne 8f
3:  cmp r2, #256
    blo 6f
    clz r4, r2
    bic r4, r4, #1
    lsl r5, r2, r4
    ldr r6, [sp, #44]
    lsr r3, r5, #25
    ldrh r6, [r6, r3, lsl #1]
    lsr r5, r5, #16
    mul r3, r6, r6
    lsr r3, r3, #14
    mul r3, r5, r3
    lsr r3, r3, #16
    rsb r3, r3, #0xC000
    mul r6, r6, r3
    lsr r6, r6, #15
    lsr r4, r4, #1
    rsb r5, r4, #16
    mov r3, #0x8000
    lsr r3, r3, r4
    mla r11, r11, r6, r3
    asr r11, r11, r5
    mla r12, r12, r6, r3
    asr r12, r12, r5
    mla r10, r10, r6, r3
    asr r10, r10, r5
4:  add r6, sp, #16
    ldm r6, {r0-r5}
    stm r3!, {r7-r9}
    strh r12, [r4, #2]
    strh r10, [r4, #4]
    strh r11, [r4], #6
    cmp r3, r5
    bne 1b
9:  add sp, #56
    pop {r6, r7}
    b 0f
8:  @ |v|^2 >= 2^32 (a normal longer than 1): halve v, as `Lane::unit` does.
    asr r11, r11, #1
    asr r12, r12, #1
    asr r10, r10, #1
    mul r2, r11, r11
    mla r2, r12, r12, r2
    mla r2, r10, r10, r2
    b 3b
6:  @ A collapsed normal: zero.
    mov r10, #0
    mov r11, #0
    mov r12, #0
    b 4b
0:
"#,
                dqs_dsp_purge!()
            ),
            inout("r0") core::ptr::from_ref(job) => _,
            out("r1") _, out("r2") _, out("r3") _, out("r4") _, out("r5") _,
            out("r8") _, out("r9") _, out("r10") _, out("r11") _, out("r12") _,
            out("lr") _,
            options(raw),
        );
    }
}

/// Skinned positions of `job.job.count` vertices.
///
/// # Safety
///
/// As [`dqs4_normals`], without the normals.
#[inline(never)]
pub(super) unsafe fn dqs4_positions(job: &DualJob) {
    // SAFETY: as in `dqs4_normals`.
    unsafe {
        core::arch::asm!(
            concat!(
                dqs_dsp_macros!(),
                r#"
    DQS_DSP_PROLOGUE 9f
1:  @ Position P01, P2 to sp+0.
    ldrh r8, [r1, #4]
    ldr r7, [r1], #6
    strd r7, r8, [sp]
    DQS_DSP_RIGID
    @ u0..u2 r7..r9, P01 r10, P2 r11.
    pop {r7-r9}
    ldm sp, {r10, r11}
    DQS_DSP_POINT
    add r6, sp, #16
    ldm r6, {r0-r5}
    stm r3!, {r7-r9}
    cmp r3, r5
    bne 1b
9:  add sp, #56
    pop {r6, r7}
0:
"#,
                dqs_dsp_purge!()
            ),
            inout("r0") core::ptr::from_ref(job) => _,
            out("r1") _, out("r2") _, out("r3") _, out("r4") _, out("r5") _,
            out("r8") _, out("r9") _, out("r10") _, out("r11") _, out("r12") _,
            out("lr") _,
            options(raw),
        );
    }
}
