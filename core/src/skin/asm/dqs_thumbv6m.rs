//! The fixed lane's DQS-4 kernels for ARMv6-M (Cortex-M0, M0+; Thumb-1: eight low
//! registers, `MULS` 32 × 32 → 32 only, no `CLZ`): the generic loop (`skin::dqs` over the
//! fixed lane's primitives, `lane/fixed_point.rs` and `lane/fixed_rigid.rs`, in their
//! ARMv6-M form) operation for operation, so the same bits.
//!
//! **Table.** Each call first copies the palette into a table on the stack, every `I2F14`
//! component sign-extended to a word (32 bytes a dual quaternion, real part first; at most
//! [`MAX_BONES`] entries, else the generic loop runs), so that a part of an entry is one
//! `LDM` of four words; the palette is read a word (two components) at a time, as `Dual`
//! is word-aligned.
//!
//! **Blend.** A vertex's (entry address, weight) pairs are pushed twice, the second set with
//! the addresses moved to the dual parts. The lead bone's real part is loaded once; each
//! other bone's hemisphere test is its real part's `LDM` and the four products of
//! [`Lane::antipodal`] (their wrapping sum's sign is the flags' `N` after the last `ADDS`),
//! and a bone on the other side has its weight negated in both sets
//! ([`Lane::weigh_flipped`]). Each part is then blended as the LBS kernel blends a row
//! (`thumbv6m.rs`): four accumulators, one `POP` of a pair and two `LDM`s a bone, every
//! term one `MULS` of a whole-word component by the signed weight: exactly the lane's
//! `i32` sums, then rounded to `Q15` by `ADD` of 2¹³ and `ASRS #14`.
//!
//! **Rigid transform** ([`Lane::rigid`]): every product the lane defines is one `MULS`
//! (all are 32 × 32 → 32 there, wrapping); the translation numerators first (all eight
//! `Q15` values are live), then the squares, the squared norm `n` and the diagonal
//! numerators (the squares in place). The reciprocal is the lane's: the doubling count `s`
//! that takes `n` to [2³⁰, 2³¹) from a 32-byte table by `n >> 26` (no `CLZ`; a blend's real
//! part has norm at least ¼, so `n` is 2²⁶ or more but for rounding), and below that the
//! lane's own floor at 2²⁴ and doubling loop; then the 256-entry seed table and the Newton step, each `mul_hi` split
//! into 16-bit halves as the lane splits it on ARMv6-M (`ASRS` and `UXTH`, two `MULS`,
//! `LSRS`, `ADDS`). Each rotation entry is the high half of `P << s` (`LSLS`, `ASRS`: the
//! rotation at the scale `N`, no product); the off-diagonal numerators (`xy ± wz`,
//! `xz ± wy`, `yz ± wx`) are formed in pairs with the shift applied to one factor
//! (`(x << (s + 1))·y` is `(x·y) << (s + 1)` modulo 2³², as the lane's wrapping products
//! are); the translation is `(u >> 5) << (s + 1)` plus half an output unit (the seed
//! table's index `nn >> 22`), and `r` is kept in the frame.
//!
//! **Point and normal** ([`Lane::rigid_point`], [`Lane::rigid_normal`]): the rows read back
//! by `LDM`, three `MULS` each, truncated to Q25 and the translation added, then each
//! coordinate times `r` once (`mul_hi(a, r) >> 9`, in halves) and the three stored by one
//! `STM`; the normal (no reciprocal: its scale goes with it) rounded at half the scale and
//! renormalised by
//! [`Lane::unit`]'s integer sequence, as in the LBS kernel.
//!
//! It uses ARMv6 instructions that ARMv4T's Thumb lacks (`SXTH`, `UXTH`, `MULS` of a
//! register by itself), so its `cfg` (`skin_asm_v6m_dqs`) asks for ARMv6 as well as what
//! selects the LBS kernel.
//!
//! [`Lane::antipodal`]: crate::lane::Lane::antipodal
//! [`Lane::weigh_flipped`]: crate::lane::Lane::weigh_flipped
//! [`Lane::rigid`]: crate::lane::Lane::rigid
//! [`Lane::rigid_point`]: crate::lane::Lane::rigid_point
//! [`Lane::rigid_normal`]: crate::lane::Lane::rigid_normal
//! [`Lane::unit`]: crate::lane::Lane::unit

use super::DualJob;

/// The largest palette the kernels take (their table: 32 bytes a dual quaternion, on the
/// stack; a DQS bake's parts hold at most 48 bones).
pub(super) const MAX_BONES: usize = 64;

/// Whether the kernels take a palette of `palette_len` dual quaternions.
#[inline(always)]
pub(super) fn fits(palette_len: usize) -> bool {
    palette_len <= MAX_BONES
}

extern "C" {
    /// Skinned positions of `job.job.count` vertices.
    ///
    /// # Safety
    ///
    /// `job` must describe live arrays of at least `count` influences, positions and output
    /// positions (the latter writable, 4-byte aligned and aliasing nothing the kernel reads),
    /// and a word-aligned palette of `palette_len` dual quaternions (at least one, at most
    /// [`MAX_BONES`]) that holds every bone index of those influences; `job.job.seed` must
    /// point at `SEED` and `job.recip` at `RECIP`. The function follows the AAPCS: it preserves r4–r11 and
    /// sp, and uses at most `32·palette_len + 232` bytes of stack (the saved registers, the
    /// table, its frame and a vertex's pushes) besides the arrays above.
    #[link_name = "skin_core_q14_dqs4_v6m_positions"]
    pub(super) fn dqs4_positions(job: &DualJob);

    /// Skinned positions and renormalised normals of `job.job.count` vertices.
    ///
    /// # Safety
    ///
    /// As [`dqs4_positions`], and `job.job.normals` and `job.job.out_normals` must describe
    /// live arrays of at least `count` elements (the latter writable, aliasing nothing read).
    #[link_name = "skin_core_q14_dqs4_v6m_normals"]
    pub(super) fn dqs4_normals(job: &DualJob);
}

// DualJob: +0 palette, +4 influences, +8 positions, +12 normals, +16 out, +20 out_normals,
// +24 count, +28 palette_len, +32 seed, +36 the reciprocal table.
//
// Stack, from the top: the saved r4-r7, lr and r8-r11 (36 bytes); the table (32 bytes an
// entry, at r9); the frame (132 bytes, at sp between vertices):
//   +0 influences, +4 positions, +8 normals, +12 out, +16 out_normals (cursors),
//   +20 the seed table - 64 bytes, +24 the reciprocal table - 512 bytes, +28 sp before the
//   table (to restore), +32 the end of out, +36 the end of out_normals,
//   +40 the rotation's rows at the scale N (Q14, words: R00 R01 R02, R10 .., R20 ..), +76
//   the translation at the same scale t0 t1 t2 (Q25), +88 the blend's real part x y z w,
//   +104 its dual part dx dy dz dw (Q15), +120 the translation numerators u0 u1 u2 (Q30),
//   then (once they are read) the reciprocal r.
// Per vertex, below the frame: two sets of the (entry address, weight) pairs of bones 1, 2,
// 3, 0 (32 bytes each): the dual parts' on top, then the real parts'.
//
// High registers: r8 = 2^13, r9 = the table, r10 = 2^15, r11 = 2^14, r12 = 0xC000 (3 << 14),
// lr = 2^30.
core::arch::global_asm!(
    r#"
    .syntax unified
    .thumb
    .pushsection .text.skin_core_q14_dqs4_v6m, "ax", %progbits

@ The prologue: saves registers, copies the palette into the table (components as
@ words), makes the frame and the high registers. Returns at once (to \done, the
@ epilogue's second half) for no vertices.
    .macro DQS_V6M_PROLOGUE done
    push {{r4-r7, lr}}
    mov r4, r8
    mov r5, r9
    mov r6, r10
    mov r7, r11
    push {{r4-r7}}
    mov r4, sp
    ldr r1, [r0, #24]
    cmp r1, #0
    bne 5f
    b \done
5:
    @ The table: sp -= 32 * palette_len.
    ldr r2, [r0, #28]
    lsls r3, r2, #5
    subs r5, r4, r3
    mov sp, r5
    mov r9, r5
    @ The frame.
    sub sp, #132
    str r4, [sp, #28]
    ldr r3, [r0, #32]
    subs r3, #64
    str r3, [sp, #20]
    ldr r3, [r0, #36]
    movs r4, #2
    lsls r4, r4, #8
    subs r3, r3, r4
    str r3, [sp, #24]
    @ out end = out + 12 * count.
    ldr r3, [r0, #16]
    movs r4, #12
    muls r4, r1, r4
    adds r4, r3, r4
    str r4, [sp, #32]
    @ out_normals end = out_normals + 6 * count (for the normals kernel).
    ldr r3, [r0, #20]
    movs r4, #6
    muls r4, r1, r4
    adds r4, r3, r4
    str r4, [sp, #36]
    @ Cursors.
    ldr r3, [r0, #4]
    str r3, [sp, #0]
    ldr r3, [r0, #8]
    str r3, [sp, #4]
    ldr r3, [r0, #12]
    str r3, [sp, #8]
    ldr r3, [r0, #16]
    str r3, [sp, #12]
    ldr r3, [r0, #20]
    str r3, [sp, #16]
    @ Constants.
    movs r3, #1
    lsls r4, r3, #13
    mov r8, r4
    lsls r4, r3, #15
    mov r10, r4
    lsls r4, r3, #14
    mov r11, r4
    lsls r4, r3, #30
    mov lr, r4
    movs r4, #3
    lsls r4, r4, #14
    mov r12, r4
    @ Copy: r0 = palette, r1 = table, r7 = entries. The palette is word-aligned (`Dual`
    @ is): each word (e, e') becomes the words e, e'.
    ldr r7, [r0, #28]
    ldr r0, [r0, #0]
    mov r1, r9
1:  ldm r0!, {{r3, r5}}
    sxth r2, r3
    asrs r3, r3, #16
    sxth r4, r5
    asrs r5, r5, #16
    stm r1!, {{r2-r5}}
    ldm r0!, {{r3, r5}}
    sxth r2, r3
    asrs r3, r3, #16
    sxth r4, r5
    asrs r5, r5, #16
    stm r1!, {{r2-r5}}
    subs r7, #1
    bne 1b
    .endm

@ The epilogue: drops the table and the frame, restores the registers (from \saved on:
@ sp at the saved registers), returns.
    .macro DQS_V6M_EPILOGUE saved
    ldr r0, [sp, #28]
    mov sp, r0
\saved:
    pop {{r4-r7}}
    mov r8, r4
    mov r9, r5
    mov r10, r6
    mov r11, r7
    pop {{r4-r7}}
    pop {{r3}}
    bx r3
    .endm

@ The doubling count s that takes n (>= 2^26) to [2^30, 2^31), by n >> 26 (1..31:
@ 4, 3 (x2), 2 (x4), 1 (x8), 0 (x16)), at \name.
    .macro DQS_V6M_SHIFTS name
    .p2align 2
\name:
    .byte 0, 4, 3, 3, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1
    .byte 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
    .endm

@ \v = mul_hi(\v, \r) = (\v >> 16) * \r + ((\v & 0xFFFF) * \r >> 16), in \t as well.
    .macro DQS_V6M_MUL_HI v, r, t
    asrs \t, \v, #16
    muls \t, \r, \t
    uxth \v, \v
    muls \v, \r, \v
    lsrs \v, \v, #16
    adds \v, \v, \t
    .endm

@ \p = (\p << \s) >> 16: a rotation entry (Q14 at the scale N) of its numerator.
    .macro DQS_V6M_ENTRY p, s
    lsls \p, \s
    asrs \p, \p, #16
    .endm

@ \t = ((\t >> 5) << r5 (s + 1)) + r3: a translation (Q25 at the scale N) of its
@ numerator, with half an output unit.
    .macro DQS_V6M_TRANSLATION t
    asrs \t, \t, #5
    lsls \t, r5
    adds \t, \t, r3
    .endm

@ Bone k's hemisphere test (its pairs at sp + \off and sp + 32 + \off) against the lead's
@ real part (r0..r3): on the other side, its weight negated in both sets.
    .macro DQS_V6M_FLIP off
    ldr r7, [sp, #32 + \off]
    ldm r7, {{r4-r7}}
    muls r4, r0, r4
    muls r5, r1, r5
    adds r4, r4, r5
    muls r6, r2, r6
    adds r4, r4, r6
    muls r7, r3, r7
    adds r4, r4, r7
    bpl 1f
    ldr r5, [sp, #36 + \off]
    negs r5, r5
    str r5, [sp, #36 + \off]
    str r5, [sp, #4 + \off]
1:
    .endm

@ One more bone's terms of a part: its (entry, weight) pair popped, two components an LDM.
    .macro DQS_V6M_TERMS
    pop {{r5, r6}}
    ldm r5!, {{r4, r7}}
    muls r4, r6, r4
    adds r0, r0, r4
    muls r7, r6, r7
    adds r1, r1, r7
    ldm r5!, {{r4, r7}}
    muls r4, r6, r4
    adds r2, r2, r4
    muls r7, r6, r7
    adds r3, r3, r7
    .endm

@ The next part of the blend into r0..r3 (Q15), its four pairs popped.
    .macro DQS_V6M_PART
    pop {{r5, r6}}
    ldm r5!, {{r0-r3}}
    muls r0, r6, r0
    muls r1, r6, r1
    muls r2, r6, r2
    muls r3, r6, r3
    DQS_V6M_TERMS
    DQS_V6M_TERMS
    DQS_V6M_TERMS
    add r0, r8
    asrs r0, r0, #14
    add r1, r8
    asrs r1, r1, #14
    add r2, r8
    asrs r2, r2, #14
    add r3, r8
    asrs r3, r3, #14
    .endm

@ The vertex's blend, rigid transform and point: the influence from its cursor, the
@ rotation and translation to the frame, the position skinned into out (cursors
@ advanced). Leaves r3 = the new out cursor.
    .macro DQS_V6M_POINT_OF_VERTEX shifts
    @ The influence: pairs (entry, weight) of bones 1, 2, 3, 0 in r0..r7.
    ldr r7, [sp, #0]
    ldrb r0, [r7, #1]
    ldrb r2, [r7, #2]
    ldrb r4, [r7, #3]
    ldrb r6, [r7, #0]
    ldrh r1, [r7, #4]
    ldrh r3, [r7, #6]
    ldrh r5, [r7, #8]
    adds r7, #10
    str r7, [sp, #0]
    mov r7, r10
    subs r7, r7, r1
    subs r7, r7, r3
    subs r7, r7, r5
    lsls r0, r0, #5
    add r0, r9
    lsls r2, r2, #5
    add r2, r9
    lsls r4, r4, #5
    add r4, r9
    lsls r6, r6, #5
    add r6, r9
    push {{r0-r7}}
    adds r0, #16
    adds r2, #16
    adds r4, #16
    adds r6, #16
    push {{r0-r7}}
    @ sp: the dual parts' pairs +0, the real parts' +32, the frame +64.
    ldr r7, [sp, #56]
    ldm r7!, {{r0-r3}}
    DQS_V6M_FLIP 0
    DQS_V6M_FLIP 8
    DQS_V6M_FLIP 16
    DQS_V6M_PART
    add r4, sp, #32 + 104
    stm r4!, {{r0-r3}}
    DQS_V6M_PART
    add r4, sp, #88
    stm r4!, {{r0-r3}}
    @ The translation numerators u = w d - dw v + v x d (x y z w in r0..r3).
    ldm r4, {{r4-r7}}
    muls r4, r3, r4
    muls r5, r3, r5
    muls r6, r3, r6
    movs r3, r7
    muls r3, r0, r3
    subs r4, r4, r3
    movs r3, r7
    muls r3, r1, r3
    subs r5, r5, r3
    muls r7, r2, r7
    subs r6, r6, r7
    ldr r3, [sp, #112]
    movs r7, r3
    muls r7, r1, r7
    adds r4, r4, r7
    muls r3, r0, r3
    subs r5, r5, r3
    ldr r3, [sp, #108]
    movs r7, r3
    muls r7, r2, r7
    subs r4, r4, r7
    muls r3, r0, r3
    adds r6, r6, r3
    ldr r3, [sp, #104]
    movs r7, r3
    muls r7, r2, r7
    adds r5, r5, r7
    muls r3, r1, r3
    subs r6, r6, r3
    add r7, sp, #120
    stm r7!, {{r4-r6}}
    @ The squares (in place: x y z are read again later); n r7 and the diagonal
    @ numerators d0 r6, d1 r0, d2 r4.
    ldr r3, [sp, #100]
    muls r3, r3, r3
    muls r0, r0, r0
    adds r6, r3, r0
    subs r4, r3, r0
    muls r1, r1, r1
    muls r2, r2, r2
    adds r0, r1, r2
    subs r5, r1, r2
    adds r7, r6, r0
    subs r6, r6, r0
    adds r0, r4, r5
    subs r4, r4, r5
    @ The reciprocal: n at least 2^24, doubled to [2^30, 2^31) (s r5: from \shifts by
    @ n >> 26 for n >= 2^26, which a blend's norm of at least 1/4 gives, else by the
    @ floor and the doubling loop), the seed r1 (its index nn >> 22, half an output unit
    @ at the scale N, kept in r3), then r = seed + Newton's correction (r1).
    asrs r1, r7, #26
    cmp r1, #0
    bgt 5f
    asrs r1, r7, #24
    cmp r1, #0
    bgt 1f
    movs r7, #1
    lsls r7, r7, #24
1:  movs r5, #0
    movs r1, r7
2:  lsls r2, r1, #1
    bmi 6f
    movs r1, r2
    adds r5, #1
    b 2b
5:  adr r2, \shifts
    ldrb r5, [r2, r1]
6:  lsls r7, r5
    lsrs r3, r7, #22
    lsls r1, r3, #1
    ldr r2, [sp, #24]
    ldrh r1, [r2, r1]
    DQS_V6M_MUL_HI r7, r1, r2
    negs r7, r7
    add r7, lr
    DQS_V6M_MUL_HI r7, r1, r2
    add r7, r8
    asrs r7, r7, #14
    adds r1, r1, r7
    @ The diagonal, shifted by s.
    DQS_V6M_ENTRY r6, r5
    str r6, [sp, #40]
    DQS_V6M_ENTRY r0, r5
    str r0, [sp, #56]
    DQS_V6M_ENTRY r4, r5
    str r4, [sp, #72]
    @ From here on r5 = s + 1. The translation: ((u >> 5) << (s + 1)) + (nn >> 22); u0
    @ u1 u2 in r0 r2 r4, then r in their place.
    adds r5, #1
    add r7, sp, #120
    ldm r7!, {{r0, r2, r4}}
    DQS_V6M_TRANSLATION r0
    DQS_V6M_TRANSLATION r2
    DQS_V6M_TRANSLATION r4
    add r7, sp, #76
    stm r7!, {{r0, r2, r4}}
    str r1, [sp, #120]
    @ The rest, in pairs, their numerators shifted by s + 1 through one factor each:
    @ x << (s + 1) r0 and w << (s + 1) r4 (y, z read again as needed).
    add r7, sp, #88
    ldm r7!, {{r0, r2, r3, r4}}
    lsls r0, r5
    lsls r4, r5
    muls r2, r0, r2
    muls r3, r4, r3
    subs r6, r2, r3
    adds r2, r2, r3
    asrs r6, r6, #16
    str r6, [sp, #44]
    asrs r2, r2, #16
    str r2, [sp, #52]
    ldr r2, [sp, #92]
    ldr r3, [sp, #96]
    muls r3, r0, r3
    muls r2, r4, r2
    adds r6, r3, r2
    subs r3, r3, r2
    asrs r6, r6, #16
    str r6, [sp, #48]
    asrs r3, r3, #16
    str r3, [sp, #64]
    ldr r0, [sp, #88]
    muls r0, r4, r0
    ldr r2, [sp, #92]
    ldr r3, [sp, #96]
    lsls r3, r5
    muls r3, r2, r3
    subs r2, r3, r0
    adds r3, r3, r0
    asrs r2, r2, #16
    str r2, [sp, #60]
    asrs r3, r3, #16
    str r3, [sp, #68]
    @ The point: p r5..r7, rows from sp + 40 (r4), out r3.
    ldr r0, [sp, #4]
    ldrh r5, [r0, #0]
    sxth r5, r5
    ldrh r6, [r0, #2]
    sxth r6, r6
    ldrh r7, [r0, #4]
    sxth r7, r7
    adds r0, #6
    str r0, [sp, #4]
    @ Each row by p, truncated to Q25, into r0 r1 r2 (the last row's LDM overwrites its
    @ base); then t0 t1 t2 (r3 r4 r5) added.
    add r4, sp, #40
    ldm r4!, {{r0-r2}}
    muls r0, r5, r0
    muls r1, r6, r1
    adds r0, r0, r1
    muls r2, r7, r2
    adds r0, r0, r2
    asrs r0, r0, #3
    ldm r4!, {{r1-r3}}
    muls r1, r5, r1
    muls r2, r6, r2
    adds r1, r1, r2
    muls r3, r7, r3
    adds r1, r1, r3
    asrs r1, r1, #3
    ldm r4, {{r2-r4}}
    muls r2, r5, r2
    muls r3, r6, r3
    adds r2, r2, r3
    muls r4, r7, r4
    adds r2, r2, r4
    asrs r2, r2, #3
    add r3, sp, #76
    ldm r3, {{r3-r5}}
    adds r0, r0, r3
    adds r1, r1, r4
    adds r2, r2, r5
    @ Times the reciprocal (r4), mul_hi(.., r) >> 9, into out (r3).
    ldr r4, [sp, #120]
    DQS_V6M_POINT r0
    DQS_V6M_POINT r1
    DQS_V6M_POINT r2
    ldr r3, [sp, #12]
    stm r3!, {{r0-r2}}
    str r3, [sp, #12]
    .endm

@ \a = mul_hi(\a, r4) >> 9: a coordinate of the point (I16F16) of its Q25 value at the
@ scale N, the half unit included (r5 clobbered).
    .macro DQS_V6M_POINT a
    DQS_V6M_MUL_HI \a, r4, r5
    asrs \a, \a, #9
    .endm

@ Component of the normal's rotation into \a: the row (\a, \b, \c) by n (r5..r7),
@ rounded to Q14 at the scale N/2.
    .macro DQS_V6M_LINEAR a, b, c
    muls \a, r5, \a
    muls \b, r6, \b
    adds \a, \a, \b
    muls \c, r7, \c
    adds \a, \a, \c
    add \a, r11
    asrs \a, \a, #15
    .endm

@ ---------------------------------------------------------------------------------------
@ skin_core_q14_dqs4_v6m_normals(job: &DualJob)
    .p2align 2
    .global skin_core_q14_dqs4_v6m_normals
    .type skin_core_q14_dqs4_v6m_normals, %function
    .thumb_func
skin_core_q14_dqs4_v6m_normals:
    DQS_V6M_PROLOGUE .Ldqs_v6m_n_saved
.Ldqs_v6m_n_vertex:
    DQS_V6M_POINT_OF_VERTEX .Ldqs_v6m_n_s
    @ The normal: n r5..r7, v = (r0, r1, r2).
    ldr r0, [sp, #8]
    ldrh r5, [r0, #0]
    sxth r5, r5
    ldrh r6, [r0, #2]
    sxth r6, r6
    ldrh r7, [r0, #4]
    sxth r7, r7
    adds r0, #6
    str r0, [sp, #8]
    add r4, sp, #40
    ldm r4!, {{r0-r2}}
    DQS_V6M_LINEAR r0, r1, r2
    ldm r4!, {{r1-r3}}
    DQS_V6M_LINEAR r1, r2, r3
    ldm r4, {{r2-r4}}
    DQS_V6M_LINEAR r2, r3, r4
    @ Renormalise v (`Lane::unit`).
    movs r3, r0
    muls r3, r0, r3
    movs r4, r1
    muls r4, r1, r4
    adds r3, r3, r4
    bcs .Ldqs_v6m_n_halve
    movs r4, r2
    muls r4, r2, r4
    adds r3, r3, r4
    bcs .Ldqs_v6m_n_halve
.Ldqs_v6m_n_length:
    @ len2 in r3; below 256: the zero vector.
    lsrs r4, r3, #8
    beq .Ldqs_v6m_n_zero
    @ Even normalisation: r3 = m in [2^30, 2^32), r4 = its shift; from the table for
    @ len2 >= 2^26 (every normal longer than 1/2), else by search.
    lsrs r5, r3, #26
    beq .Ldqs_v6m_n_search
    adr r4, .Ldqs_v6m_n_shift
    ldrb r4, [r4, r5]
    lsls r3, r4
.Ldqs_v6m_n_seed:
    @ Seed y (r6), one Newton step.
    ldr r5, [sp, #20]
    lsrs r6, r3, #25
    lsls r6, r6, #1
    ldrh r6, [r5, r6]
    lsrs r3, r3, #16
    movs r5, r6
    muls r5, r6, r5
    lsrs r5, r5, #14
    muls r5, r3, r5
    lsrs r5, r5, #16
    mov r3, r12
    subs r3, r3, r5
    muls r6, r3, r6
    lsrs r6, r6, #15
    @ Shift s = 16 - lz/2 (r3) and half = 2^(s-1) (r5).
    lsrs r4, r4, #1
    movs r3, #16
    subs r3, r3, r4
    mov r5, r10
    lsrs r5, r4
    muls r0, r6, r0
    adds r0, r0, r5
    asrs r0, r3
    muls r1, r6, r1
    adds r1, r1, r5
    asrs r1, r3
    muls r2, r6, r2
    adds r2, r2, r5
    asrs r2, r3
.Ldqs_v6m_n_store:
    ldr r4, [sp, #16]
    strh r0, [r4, #0]
    strh r1, [r4, #2]
    strh r2, [r4, #4]
    adds r4, #6
    str r4, [sp, #16]
    ldr r3, [sp, #36]
    cmp r4, r3
    beq .Ldqs_v6m_n_return
    b .Ldqs_v6m_n_vertex
.Ldqs_v6m_n_halve:
    @ |v|^2 >= 2^32 (a normal longer than 1): halve v, as `Lane::unit` does.
    asrs r0, r0, #1
    asrs r1, r1, #1
    asrs r2, r2, #1
    movs r3, r0
    muls r3, r0, r3
    movs r4, r1
    muls r4, r1, r4
    adds r3, r3, r4
    movs r4, r2
    muls r4, r2, r4
    adds r3, r3, r4
    b .Ldqs_v6m_n_length
.Ldqs_v6m_n_zero:
    movs r0, #0
    movs r1, #0
    movs r2, #0
    b .Ldqs_v6m_n_store
.Ldqs_v6m_n_search:
    @ len2 in [256, 2^26): a four-step search for the even shift.
    movs r4, #0
    lsrs r5, r3, #16
    bne 1f
    lsls r3, r3, #16
    adds r4, #16
1:  lsrs r5, r3, #24
    bne 1f
    lsls r3, r3, #8
    adds r4, #8
1:  lsrs r5, r3, #28
    bne 1f
    lsls r3, r3, #4
    adds r4, #4
1:  lsrs r5, r3, #30
    bne 1f
    lsls r3, r3, #2
    adds r4, #2
1:  b .Ldqs_v6m_n_seed
.Ldqs_v6m_n_return:
    DQS_V6M_EPILOGUE .Ldqs_v6m_n_saved
    @ The even leading-zero count of len2 by len2 >> 26 (1..63: 4, 4, 4, 2 (x12), 0 (x48)).
    .p2align 2
.Ldqs_v6m_n_shift:
    .byte 0, 4, 4, 4, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2
    .byte 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
    .byte 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
    .byte 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
    DQS_V6M_SHIFTS .Ldqs_v6m_n_s
    .size skin_core_q14_dqs4_v6m_normals, . - skin_core_q14_dqs4_v6m_normals

@ ---------------------------------------------------------------------------------------
@ skin_core_q14_dqs4_v6m_positions(job: &DualJob)
    .p2align 2
    .global skin_core_q14_dqs4_v6m_positions
    .type skin_core_q14_dqs4_v6m_positions, %function
    .thumb_func
skin_core_q14_dqs4_v6m_positions:
    DQS_V6M_PROLOGUE .Ldqs_v6m_p_saved
.Ldqs_v6m_p_vertex:
    DQS_V6M_POINT_OF_VERTEX .Ldqs_v6m_p_s
    ldr r4, [sp, #32]
    cmp r3, r4
    beq .Ldqs_v6m_p_return
    b .Ldqs_v6m_p_vertex
.Ldqs_v6m_p_return:
    DQS_V6M_EPILOGUE .Ldqs_v6m_p_saved
    DQS_V6M_SHIFTS .Ldqs_v6m_p_s
    .size skin_core_q14_dqs4_v6m_positions, . - skin_core_q14_dqs4_v6m_positions

    .purgem DQS_V6M_PROLOGUE
    .purgem DQS_V6M_EPILOGUE
    .purgem DQS_V6M_SHIFTS
    .purgem DQS_V6M_MUL_HI
    .purgem DQS_V6M_TRANSLATION
    .purgem DQS_V6M_ENTRY
    .purgem DQS_V6M_FLIP
    .purgem DQS_V6M_TERMS
    .purgem DQS_V6M_PART
    .purgem DQS_V6M_POINT_OF_VERTEX
    .purgem DQS_V6M_POINT
    .purgem DQS_V6M_LINEAR
    .popsection
"#
);
