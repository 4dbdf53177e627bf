//! The kernels for cores with the DSP extension (ARMv7E-M: Cortex-M4, M7; Thumb-2).
//!
//! Per vertex, a palette row (four `I2F14`) is read as two words, `(e₀, e₁)` and
//! `(e₂, e₃)`, and the weights are packed as `WA = (w₁, w₂)`, `WB = (w₃, w₀)`: each weighted
//! term is one `SMLA<x><y>` (16 × 16 + 32 bits), the first of each entry with the rounding
//! constant 2¹⁴ as its addend. An entry is settled with `ASR #15`, and two of a row are packed
//! into one word by `PKHBT` (the second one's `>> 15` comes from the packing's `LSL #1`
//! reading bits 30..15). With the position packed as `(p₀, p₁)` and `(p₂, 2¹⁴)`, a point
//! coordinate is two `SMLAD` and a shift, `E₀p₀ + E₁p₁ + 2¹¹` then `+ E₂p₂ + E₃·2¹⁴`; a
//! normal coordinate `SMLAD` + `SMLABB` + shift. The renormalisation is [`Lane::unit`]'s
//! integer sequence (`SMULL`/`SMLAL` for the 64-bit squared length, whose high word is the
//! overflow test of the Rust `checked_add`s; `CLZ` for the even normalisation).
//!
//! Registers: the blend of all three rows keeps the four matrix pointers, the two weight
//! words and the rounding constant live while it produces the six packed entry words, which
//! peaks at all fourteen usable registers (r0–r12, lr; the last row's last entries are loaded
//! into the matrix pointers themselves). The position and normal wait in the frame meanwhile
//! (one `STM` and one `LDM`), as do the array cursors, which the vertex's own `LDM`/`STM`
//! move with post-indexed loads and stores.
//!
//! A weight of exactly 1 (0x8000, the other three 0) does not fit a signed half. Such a vertex
//! takes a branch that points all four bones at that matrix and uses the weights
//! `(0x4000, 0x4000, 0, 0)`: the sums are the same integers, `2¹⁵·e`.
//!
//! The kernels are `asm!` blocks in functions rather than `global_asm!`: module assembly is
//! assembled without the target's features (rust-lang/rust#127269), which on ARMv8-M
//! Mainline (Cortex-M33) lack the DSP instructions that a function's inline assembly has.
//!
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
// Frame (56 bytes below the saved r6, r7; 64 in all):
//   sp+0   scratch: normals kernel P01, P2H, N2, N01, K11, K13, TBL; positions kernel P01,
//          P2H, K11 (P01 = (p0, p1), P2H = (p2, 0x4000), N2 = (n2, -), N01 = (n0, n1),
//          K11 = 2^11, K13 = 2^13, TBL = the seed table - 64 bytes)
//   sp+28  cursors: influences, positions, normals, out, out_normals, end of out
//   sp+52  palette
//
// Register use while blending: r3..r6 = matrices of bones 0..3, r7 = WA = (w1, w2),
// r11 = WB = (w3, w0), r12 = 2^14; the packed entries come out in r8 (row 0, e0 e1),
// r9 (row 0, e2 e3), r10 (row 1, e0 e1), lr (row 1, e2 e3), r1 (row 2, e0 e1),
// r0 (row 2, e2 e3).

/// The assembler macros both kernels use (defined at the start of each block and purged at
/// its end, so that the blocks are independent).
macro_rules! dsp_macros {
    () => {
        r#"
@ Entries off, off+2 of one row, blended into the packed word \dst (e in low half,
@ e' in the high one), with \e as the loaded word and \a0, \a1 as accumulators.
    .macro SKIN_DSP_HALF_ROW off, e, a0, a1, dst
    ldr \e, [r4, #\off]
    smlabb \a0, \e, r7, r12
    smlatb \a1, \e, r7, r12
    ldr \e, [r5, #\off]
    smlabt \a0, \e, r7, \a0
    smlatt \a1, \e, r7, \a1
    ldr \e, [r6, #\off]
    smlabb \a0, \e, r11, \a0
    smlatb \a1, \e, r11, \a1
    ldr \e, [r3, #\off]
    smlabt \a0, \e, r11, \a0
    smlatt \a1, \e, r11, \a1
    asr \a0, \a0, #15
    pkhbt \dst, \a0, \a1, lsl #1
    .endm

@ The blended matrix: twelve entries, settled and packed in pairs (see the register list).
    .macro SKIN_DSP_BLEND
    SKIN_DSP_HALF_ROW 0, r0, r1, r2, r8
    SKIN_DSP_HALF_ROW 4, r0, r1, r2, r9
    SKIN_DSP_HALF_ROW 8, r0, r1, r2, r10
    SKIN_DSP_HALF_ROW 12, r0, r1, r2, lr
    SKIN_DSP_HALF_ROW 16, r0, r1, r2, r1
    @ The last two entries: every register is live, so each word is loaded into the
    @ matrix pointer it is read through (its last use).
    ldr r4, [r4, #20]
    smlabb r0, r4, r7, r12
    smlatb r2, r4, r7, r12
    ldr r5, [r5, #20]
    smlabt r0, r5, r7, r0
    smlatt r2, r5, r7, r2
    ldr r6, [r6, #20]
    smlabb r0, r6, r11, r0
    smlatb r2, r6, r11, r2
    ldr r3, [r3, #20]
    smlabt r0, r3, r11, r0
    smlatt r2, r3, r11, r2
    asr r0, r0, #15
    pkhbt r0, r0, r2, lsl #1
    .endm

@ One influence from r0 (post-incremented): bone matrices into r3..r6, packed weights
@ into r7, r11; branches to \one for a weight of exactly 1. Clobbers r0..r12 but r6 is
@ stored first: the cursors r0..r4 to [r6].
    .macro SKIN_DSP_INFLUENCE one
    ldrb r7, [r0, #1]
    ldrb r8, [r0, #2]
    ldrb r9, [r0, #3]
    ldrh r10, [r0, #4]
    ldrh r11, [r0, #6]
    ldrh r12, [r0, #8]
    ldrb r5, [r0], #10
    stm r6, {r0-r4}
    ldr r1, [sp, #52]
    movs r2, #24
    mla r3, r5, r2, r1
    mla r4, r7, r2, r1
    mla r5, r8, r2, r1
    mla r6, r9, r2, r1
    add r0, r10, r11
    add r0, r0, r12
    rsb r0, r0, #0x8000
    pkhbt r7, r10, r11, lsl #16
    pkhbt r11, r12, r0, lsl #16
    orr r1, r7, r11
    tst r1, #0x80008000
    bne \one
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
@ the frame; the job (r0) into the frame; cursors into r0..r4, r6 = sp + 28. Branches to
@ \done for no vertices.
    .macro SKIN_DSP_PROLOGUE done
    push {r6, r7}
    sub sp, #56
    ldr r8, [r0, #32]
    ldm r0, {r0-r7}
    cmp r6, #0
    beq \done
    str r0, [sp, #52]
    add r6, r6, r6, lsl #1
    add r6, r4, r6, lsl #2
    add r9, sp, #28
    stm r9, {r1-r6}
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
    .purgem SKIN_DSP_HALF_ROW
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
/// kernel reads; output positions 4-byte aligned), and a palette that holds every bone index
/// of those influences; `job.seed` must point at `SEED`. The core must allow unaligned word
/// loads (the ARMv7-M default, which LLVM's code for these targets assumes too:
/// `CCR.UNALIGN_TRP` clear), as palette rows, positions and normals are only 2-byte aligned.
#[inline(never)]
pub(super) unsafe fn lbs4_normals(job: &Job) {
    // SAFETY: the caller's contract above covers every access; the block declares every
    // register it changes (r0-r5, r8-r12, lr, the flags) but r6 and r7, which it saves and
    // restores itself, and leaves sp as it found it (64 bytes used below it). Labels are
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
    add r11, sp, #16
    stm r11, {r8-r10}
1:  @ Position and normal: P01, P2H, N2, N01 to the frame.
    ldrh r11, [r1, #4]
    ldr r7, [r1], #6
    ldrh r12, [r2, #4]
    ldr lr, [r2], #6
    orr r11, r11, #0x40000000
    stm sp, {r7, r11, r12, lr}
    SKIN_DSP_INFLUENCE 7f
2:  mov r12, #0x4000
    SKIN_DSP_BLEND
    @ Point (P0 r11, P1 r12, P2 lr) and linear part (V0 r8, V1 r10, V2 r1) row by row.
    ldm sp, {r2-r7}
    smlad r11, r8, r2, r6
    smlad r11, r9, r3, r11
    asr r11, r11, #12
    smlad r8, r8, r5, r7
    smlabb r8, r9, r4, r8
    asr r8, r8, #14
    smlad r12, r10, r2, r6
    smlad r12, lr, r3, r12
    asr r12, r12, #12
    smlad r10, r10, r5, r7
    smlabb r10, lr, r4, r10
    asr r10, r10, #14
    smlad lr, r1, r2, r6
    smlad lr, r0, r3, lr
    asr lr, lr, #12
    smlad r1, r1, r5, r7
    smlabb r1, r0, r4, r1
    asr r1, r1, #14
    @ Renormalise: the squared length in r3:r2 (< 3 * 2^32).
    smull r2, r3, r8, r8
    smlal r2, r3, r10, r10
    smlal r2, r3, r1, r1
    cmp r3, #0
    bne 8f
3:  cmp r2, #256
    blo 6f
    clz r4, r2
    bic r4, r4, #1
    lsl r5, r2, r4
    ldr r6, [sp, #24]
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
    mla r8, r8, r6, r3
    asr r8, r8, r5
    mla r10, r10, r6, r3
    asr r10, r10, r5
    mla r7, r1, r6, r3
    asr r7, r7, r5
4:  add r6, sp, #28
    ldm r6, {r0-r5}
    stm r3!, {r11, r12, lr}
    strh r10, [r4, #2]
    strh r7, [r4, #4]
    strh r8, [r4], #6
    cmp r3, r5
    bne 1b
9:  add sp, #56
    pop {r6, r7}
    b 0f
7:  SKIN_DSP_WEIGHT_ONE 2b
8:  @ |v|^2 >= 2^32 (a normal longer than 1): halve v, as `Lane::unit` does.
    asr r8, r8, #1
    asr r10, r10, #1
    asr r1, r1, #1
    mul r2, r8, r8
    mla r2, r10, r10, r2
    mla r2, r1, r1, r2
    b 3b
6:  @ A collapsed normal: zero.
    movs r7, #0
    mov r8, #0
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
    str r8, [sp, #8]
1:  @ Position: P01, P2H to the frame.
    ldrh r11, [r1, #4]
    ldr r7, [r1], #6
    orr r11, r11, #0x40000000
    strd r7, r11, [sp]
    SKIN_DSP_INFLUENCE 7f
2:  mov r12, #0x4000
    SKIN_DSP_BLEND
    @ Point: P0 r11, P1 r12, P2 lr.
    ldm sp, {r2, r3, r6}
    smlad r11, r8, r2, r6
    smlad r11, r9, r3, r11
    asr r11, r11, #12
    smlad r12, r10, r2, r6
    smlad r12, lr, r3, r12
    asr r12, r12, #12
    smlad lr, r1, r2, r6
    smlad lr, r0, r3, lr
    asr lr, lr, #12
    add r6, sp, #28
    ldm r6, {r0-r5}
    stm r3!, {r11, r12, lr}
    cmp r3, r5
    bne 1b
9:  add sp, #56
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
