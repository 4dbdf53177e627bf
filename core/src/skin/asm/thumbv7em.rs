//! The kernels for cores with the DSP extension (ARMv7E-M: Cortex-M4, M7; Thumb-2).
//!
//! Per vertex, a palette row (four `I2F14`) is read with one `LDRD` as two words,
//! `(e₀, e₁)` and `(e₂, e₃)` (the matrices are word-aligned: [`Affine`]), and the weights are
//! packed as `WA = (w₁, w₂)`, `WB = (w₃, w₀)`: each weighted term is one `SMLA<x><y>`
//! (16 × 16 + 32 bits), the first of each entry with the rounding constant 2¹⁴ as its addend.
//! An entry is settled with `ASR #15`, and two of a row are packed into one word by `PKHBT`
//! (the second one's `>> 15` comes from the packing's `LSL #1` reading bits 30..15). With
//! the position packed as `(p₀, p₁)` and `(p₂, 2¹⁴)`, a point coordinate is two `SMLAD` and a
//! shift, `E₀p₀ + E₁p₁ + 2¹¹` then `+ E₂p₂ + E₃·2¹⁴`; a normal coordinate `SMLAD` + `SMLABB`
//! + shift. The renormalisation is [`Lane::unit`]'s integer sequence (`SMULL`/`SMLAL` for the
//! 64-bit squared length, whose high word is the overflow test of the Rust `checked_add`s;
//! `CLZ` for the even normalisation); its final `(c·y + 2ˢ⁻¹) >> s` is one `SMMULR` of
//! `c·2¹⁷⁻ˢ` and `y·2¹⁵`, the same integer (`⌊(c·y·2³²⁻ˢ + 2³¹) / 2³²⌋`).
//!
//! The influence: the four bone bytes are one word, split into `(b₀, b₂)` and `(b₁, b₃)` by
//! two `UXTB16`, and each matrix address is one `SMLA<x>B` (`palette + 24·b`); `WA` is the
//! word of `w₁, w₂` as stored, and `w₁ + w₂ + w₃` one `SMLAD` of it with `(1, 1)`.
//!
//! Registers: a row's blend keeps the four matrix pointers, the two weight words, the
//! rounding constant, the row's two words and four accumulators live; the first row's packed
//! words wait in the frame, the second's in registers, and the last row loads each word into
//! the pointer it is read through (its last use). The position and normal wait in the frame
//! meanwhile (one `STM`, and one `LDM` with the constants and the first row), as do the
//! array cursors, which the vertex's own `LDM`/`STM` move with post-indexed loads and stores.
//!
//! A weight of exactly 1 (0x8000, the other three 0) does not fit a signed half. Such a vertex
//! (`w₁ + w₂ + w₃`, read as signed halves, is then 0 or −2¹⁵) takes a branch that points all
//! four bones at that matrix and uses the weights `(0x4000, 0x4000, 0, 0)`: the sums are the
//! same integers, `2¹⁵·e`.
//!
//! The kernels are `asm!` blocks in functions rather than `global_asm!`: module assembly is
//! assembled without the target's features (rust-lang/rust#127269), which on ARMv8-M
//! Mainline (Cortex-M33) lack the DSP instructions that a function's inline assembly has.
//!
//! [`Affine`]: crate::affine::Affine
//! [`Lane::unit`]: crate::lane::Lane::unit

use super::Job;

/// Any palette: the kernels index it directly.
#[inline(always)]
pub(super) fn fits(_palette_len: usize) -> bool {
    true
}

// Job (see `Job`): +0 palette, +4 influences, +8 positions, +12 normals, +16 out,
// +20 out_normals, +24 count, +28 palette_len, +32 seed.
//
// Frame (76 bytes below the saved r6, r7), read by the point's `LDM` from sp, the
// influence's `LDMDB` from the cursors down, and the cursors' `LDM`/`STM`:
//   sp+0   P01 = (p0, p1), P2H = (p2, 0x4000), N2 = (n2, -), N01 = (n0, n1) (the positions
//          kernel: P01, P2H)
//   sp+16  K11 = 2^11, K13 = 2^13, then E01 and E23 (the first blended row's packed words),
//          then TBL = the seed table - 64 bytes
//   sp+36  palette, 24, 0x00010001, 2^14
//   sp+52  cursors: influences, positions, normals, out, out_normals, end of out
//
// Register use while blending: r3..r6 = matrices of bones 0..3, r7 = WA = (w1, w2),
// r11 = WB = (w3, w0), r12 = 2^14; the packed entries come out in (r8, r10) for rows 0
// (stored) and 1, (r1, r9) for row 2.

/// The assembler macros both kernels use (defined at the start of each block and purged at
/// its end, so that the blocks are independent).
macro_rules! dsp_macros {
    () => {
        r#"
@ One bone's four terms of a row: \lo = (e0, e1), \hi = (e2, e3), weight in half \h
@ (b or t) of \w, added to \s0..\s3 into the accumulators \a0..\a3.
    .macro SKIN_DSP_TERMS lo, hi, w, h, a0, a1, a2, a3, s0, s1, s2, s3
    smlab\h \a0, \lo, \w, \s0
    smlat\h \a1, \lo, \w, \s1
    smlab\h \a2, \hi, \w, \s2
    smlat\h \a3, \hi, \w, \s3
    .endm

@ The row at byte \off of the four matrices, blended into the packed words \a0 = (E0, E1)
@ and \a2 = (E2, E3); bone k's two words are loaded into \bk, \ck.
    .macro SKIN_DSP_ROW off, b1, c1, b2, c2, b3, c3, b0, c0, a0, a1, a2, a3
    ldrd \b1, \c1, [r4, #\off]
    SKIN_DSP_TERMS \b1, \c1, r7, b, \a0, \a1, \a2, \a3, r12, r12, r12, r12
    ldrd \b2, \c2, [r5, #\off]
    SKIN_DSP_TERMS \b2, \c2, r7, t, \a0, \a1, \a2, \a3, \a0, \a1, \a2, \a3
    ldrd \b3, \c3, [r6, #\off]
    SKIN_DSP_TERMS \b3, \c3, r11, b, \a0, \a1, \a2, \a3, \a0, \a1, \a2, \a3
    ldrd \b0, \c0, [r3, #\off]
    SKIN_DSP_TERMS \b0, \c0, r11, t, \a0, \a1, \a2, \a3, \a0, \a1, \a2, \a3
    asr \a0, \a0, #15
    pkhbt \a0, \a0, \a1, lsl #1
    asr \a2, \a2, #15
    pkhbt \a2, \a2, \a3, lsl #1
    .endm

@ The blended matrix: row 0 to the frame (E01, E23), row 1 in r8, r10, row 2 in r1, r9.
    .macro SKIN_DSP_BLEND
    SKIN_DSP_ROW 0, r0, r1, r0, r1, r0, r1, r0, r1, r8, r9, r10, lr
    strd r8, r10, [sp, #24]
    SKIN_DSP_ROW 8, r0, r1, r0, r1, r0, r1, r0, r1, r8, r9, r10, lr
    SKIN_DSP_ROW 16, r4, r0, r5, r0, r6, r0, r3, r0, r1, r2, r9, lr
    .endm

@ One influence from r0 (post-incremented): bone matrices into r3..r6, packed weights
@ into r7, r11, 2^14 into r12; branches to \one for a weight of exactly 1. Clobbers r0..r12
@ but r6 (= sp + 52) is read first: the cursors r0..r4 to [r6], the constants from below.
    .macro SKIN_DSP_INFLUENCE one
    ldr r5, [r0], #10
    ldr r7, [r0, #-6]
    ldrsh r11, [r0, #-2]
    stm r6, {r0-r4}
    ldmdb r6, {r1, r2, r8, r12}
    uxtb16 r9, r5
    uxtb16 r10, r5, ror #8
    smlabb r3, r9, r2, r1
    smlatb r5, r9, r2, r1
    smlabb r4, r10, r2, r1
    smlatb r6, r10, r2, r1
    smlad r0, r7, r8, r11
    rsb r1, r0, #0x8000
    pkhbt r11, r11, r1, lsl #16
    cmp r0, #0
    ble \one
    .endm

@ A weight of exactly 1 (r7 = WA, r11 = WB, r3..r6 the bones): every bone the one with
@ that weight, weights (0x4000, 0x4000, 0, 0); then back to \blend.
    .macro SKIN_DSP_WEIGHT_ONE blend
    tst r7, #0x8000
    it ne
    movne r3, r4
    tst r7, #0x80000000
    it ne
    movne r3, r5
    tst r11, #0x8000
    it ne
    movne r3, r6
    mov r4, r3
    mov r5, r3
    mov r6, r3
    mov r7, #0x40004000
    mov r11, #0
    b \blend
    .endm

@ The prologue: saves r6, r7 (the other registers are the block's clobbers) and makes
@ the frame; the job (r0) into the frame; r8 = the seed table; cursors into r0..r4,
@ r6 = sp + 52. Branches to \done for no vertices.
    .macro SKIN_DSP_PROLOGUE done
    push {r6, r7}
    sub sp, #76
    ldr r8, [r0, #32]
    ldm r0, {r0-r7}
    cmp r6, #0
    beq \done
    add r6, r6, r6, lsl #1
    add r6, r4, r6, lsl #2
    add r9, sp, #52
    stm r9, {r1-r6}
    movs r2, #24
    mov r3, #0x00010001
    mov r4, #0x4000
    add r10, sp, #36
    stm r10, {r0, r2, r3, r4}
    mov r6, r9
    ldm r6, {r0-r4}
    .endm
"#
    };
}

/// The macros' names, purged at the end of each block.
macro_rules! dsp_purge {
    () => {
        r#"
    .purgem SKIN_DSP_TERMS
    .purgem SKIN_DSP_ROW
    .purgem SKIN_DSP_BLEND
    .purgem SKIN_DSP_INFLUENCE
    .purgem SKIN_DSP_WEIGHT_ONE
    .purgem SKIN_DSP_PROLOGUE
"#
    };
}

/// Skinned positions and renormalised normals of `job.count` vertices.
///
/// # Safety
///
/// `job` must describe live arrays of at least `job.count` influences, positions, normals,
/// output positions and output normals (the outputs writable and aliasing nothing the
/// kernel reads; output positions 4-byte aligned), and a 4-byte aligned palette that holds
/// every bone index of those influences; `job.seed` must point at `SEED`. The core must allow
/// unaligned word loads (the ARMv7-M default, which LLVM's code for these targets assumes
/// too: `CCR.UNALIGN_TRP` clear), as influences, positions and normals are only 2-byte
/// aligned.
#[inline(never)]
pub(super) unsafe fn lbs4_normals(job: &Job) {
    // SAFETY: the caller's contract above covers every access; the block declares every
    // register it changes (r0-r5, r8-r12, lr, the flags) but r6 and r7, which it saves and
    // restores itself, and leaves sp as it found it (84 bytes used below it). Labels are
    // numeric (local), so the block stays valid wherever the compiler places it.
    unsafe {
        core::arch::asm!(
            concat!(
                dsp_macros!(),
                r#"
    SKIN_DSP_PROLOGUE 9f
    sub r10, r8, #64
    mov r8, #0x800
    mov r9, #0x2000
    strd r8, r9, [sp, #16]
    str r10, [sp, #32]
1:  @ Position and normal: P01, P2H, N2, N01 to the frame.
    ldrh r8, [r1, #4]
    ldr r7, [r1], #6
    orr r8, r8, #0x40000000
    ldrh r9, [r2, #4]
    ldr r10, [r2], #6
    stm sp, {r7-r10}
    SKIN_DSP_INFLUENCE 7f
2:  SKIN_DSP_BLEND
    @ P01 r0, P2H r2, N2 r3, N01 r4, K11 r5, K13 r6, row 0 r7, r11, TBL r12. Point
    @ (x0 r7, x1 r8, x2 r9) and linear part (V0 lr, V1 r11, V2 r10) row by row.
    ldm sp, {r0, r2-r7, r11, r12}
    smlad lr, r7, r4, r6
    smlabb lr, r11, r3, lr
    asr lr, lr, #14
    smlad r7, r7, r0, r5
    smlad r7, r11, r2, r7
    asr r7, r7, #12
    smlad r11, r8, r4, r6
    smlabb r11, r10, r3, r11
    asr r11, r11, #14
    smlad r8, r8, r0, r5
    smlad r8, r10, r2, r8
    asr r8, r8, #12
    smlad r10, r1, r4, r6
    smlabb r10, r9, r3, r10
    asr r10, r10, #14
    smlad r4, r1, r0, r5
    smlad r9, r9, r2, r4
    asr r9, r9, #12
    @ Renormalise: the squared length in r3:r2 (< 3 * 2^32).
    smull r2, r3, lr, lr
    smlal r2, r3, r11, r11
    smlal r2, r3, r10, r10
    cbz r3, 3f
    @ |v|^2 >= 2^32 (a normal longer than 1): halve v, as `Lane::unit` does.
    asr lr, lr, #1
    asr r11, r11, #1
    asr r10, r10, #1
    mul r2, lr, lr
    mla r2, r11, r11, r2
    mla r2, r10, r10, r2
3:  cmp r2, #256
    blo 6f
    @ h = lz / 2 (r4), m = len2 << 2h (r5), y = the seed (r6).
    clz r4, r2
    lsr r4, r4, #1
    lsl r5, r2, r4
    lsl r5, r5, r4
    lsr r3, r5, #25
    ldrh r6, [r12, r3, lsl #1]
    @ One Newton step: y2 = y*y >> 14, t = (m >> 16) * y2 >> 16 (the high word of
    @ (m with its low half cleared) * y2), y = y * (3 * 2^14 - t) >> 15, kept as y << 15.
    mul r3, r6, r6
    lsr r3, r3, #14
    bfc r5, #0, #16
    umull r2, r3, r5, r3
    rsb r3, r3, #0xC000
    mul r6, r6, r3
    bfc r6, #0, #15
    @ (c * y + 2^(s-1)) >> s with s = 16 - h: the rounded high word of
    @ (c << (h + 1)) * (y << 15).
    add r4, r4, #1
    lsl lr, lr, r4
    smmulr lr, lr, r6
    lsl r11, r11, r4
    smmulr r11, r11, r6
    lsl r10, r10, r4
    smmulr r10, r10, r6
4:  add r6, sp, #52
    ldm r6, {r0-r5}
    stm r3!, {r7-r9}
    strh r11, [r4, #2]
    strh r10, [r4, #4]
    strh lr, [r4], #6
    cmp r3, r5
    bne 1b
9:  add sp, #76
    pop {r6, r7}
    b 0f
7:  SKIN_DSP_WEIGHT_ONE 2b
6:  @ A collapsed normal: zero.
    mov lr, #0
    mov r11, #0
    mov r10, #0
    b 4b
0:
"#,
                dsp_purge!()
            ),
            inout("r0") core::ptr::from_ref(job) => _,
            out("r1") _, out("r2") _, out("r3") _, out("r4") _, out("r5") _,
            out("r8") _, out("r9") _, out("r10") _, out("r11") _, out("r12") _,
            out("lr") _,
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
                dsp_macros!(),
                r#"
    SKIN_DSP_PROLOGUE 9f
    mov r8, #0x800
    str r8, [sp, #16]
1:  @ Position: P01, P2H to the frame.
    ldrh r8, [r1, #4]
    ldr r7, [r1], #6
    orr r8, r8, #0x40000000
    strd r7, r8, [sp]
    SKIN_DSP_INFLUENCE 7f
2:  SKIN_DSP_BLEND
    @ P01 r0, P2H r2, K11 r5, row 0 r7, r11. Point: x0 r7, x1 r8, x2 r9.
    ldm sp, {r0, r2-r7, r11}
    smlad r7, r7, r0, r5
    smlad r7, r11, r2, r7
    asr r7, r7, #12
    smlad r8, r8, r0, r5
    smlad r8, r10, r2, r8
    asr r8, r8, #12
    smlad r4, r1, r0, r5
    smlad r9, r9, r2, r4
    asr r9, r9, #12
    add r6, sp, #52
    ldm r6, {r0-r5}
    stm r3!, {r7-r9}
    cmp r3, r5
    bne 1b
9:  add sp, #76
    pop {r6, r7}
    b 0f
7:  SKIN_DSP_WEIGHT_ONE 2b
0:
"#,
                dsp_purge!()
            ),
            inout("r0") core::ptr::from_ref(job) => _,
            out("r1") _, out("r2") _, out("r3") _, out("r4") _, out("r5") _,
            out("r8") _, out("r9") _, out("r10") _, out("r11") _, out("r12") _,
            out("lr") _,
            options(raw),
        );
    }
}
