//! The kernels for ARMv6-M (Cortex-M0, M0+, M1; Thumb-1: eight low registers, 32 × 32 → 32
//! multiply only, `LDRSH` only with a register offset).
//!
//! Each call first copies the palette into a table on the stack with every entry `e` stored
//! as the 32-bit word `2e + 1` (48 bytes a matrix; at most [`MAX_BONES`] matrices, else the
//! generic loop runs). As a vertex's weights sum to exactly 2¹⁵, `Σₖ wₖ(2eₖ + 1) = 2·Σₖ wₖeₖ
//! + 2¹⁵`, so the blended entry `(Σₖ wₖeₖ + 2¹⁴) >> 15` is that sum's `ASR #16`: the rounding
//! costs nothing per vertex and no entry needs a sign extension. The sum fits `i32`
//! (`|Σₖ wₖeₖ| ≤ 2³⁰`, and `2·(2³⁰ − 2¹⁵) + 2¹⁵ < 2³¹`), the entries are whole words that `LDM`
//! reads several at a time, and a weight of exactly 1 needs no special case.
//!
//! A row is blended bone by bone into four accumulators (r0–r3). Each bone's (row address,
//! weight) pair is popped (`POP` of two registers); the first bone's four entries are one
//! `LDM` and four `MULS` that start the accumulators, each other bone's two `LDM`s of two
//! entries and four `MULS` + `ADDS`. The pairs are pushed three times per vertex, one set a
//! row (the addresses 16 bytes apart), so that each row pops its own set and no register
//! holds a pointer to them: the low registers are the accumulators, the pair and two
//! entries. (The rows' blends were 53 instructions each with a pointer to one set and one
//! `LDR` an entry, 44 now, for 10 more to push the sets.) Row 0 takes its first two pairs
//! from the registers the influence code leaves, so its set holds only two. The position
//! (with the out pointer) and the normal are pushed too and read back by one `LDM` for each
//! row's products, the last row popping them; the rounding constants 2¹¹ and 2¹³ and the
//! table's address live in high registers. One `LDM` of the frame per vertex gives the
//! positions' cursor, the offsets of the position's and the normal's halves from it and the
//! influences' cursor; out and out_normals are addressed from the positions' cursor (the
//! arrays advance in step). The renormalisation is [`Lane::unit`]'s integer sequence
//! (`MULS` and a carry test for the checked sum of squares; the even normalisation of
//! `normalise_even` read from a 64-byte table by the squared length's top six bits when it
//! is at least 2²⁶ — every normal longer than ½ — by `len2 >> 20` plus 6 in [2²⁰, 2²⁶), and
//! by its four-step search below that; the scaling `(c·y + 2ˢ⁻¹) >> s` as
//! `(c·(y << (16 − s)) + 2¹⁵) >> 16`, the same integer).
//!
//! **A table prepared once.** Each kernel has a second entry (`_tabled`) that takes the
//! table already built ([`Tabled`](crate::skin::Tabled), once a part in the scene) as the
//! job's palette: the prologue less the copy, then the same code. The copy costs about 90
//! instructions and 38 a matrix each call: 21 k of CesiumMan's frame over its 26 chunks,
//! 20 k of the micro:bit character's over its 35 (`docs/BENCHMARKS.md`, "The palette
//! table once a part"). The kernel benchmark's LBS-4 rows still measure the copying entry.
//!
//! **A vertex's bones.** A vertex is blended over its bones up to its last non-zero stored
//! weight: one to four (bone 0's weight is the implied one, so it always counts). A stored
//! weight of 0 adds exactly 0 to `Σₖ wₖ(2eₖ + 1)`, so leaving the bones after the last
//! non-zero one out gives the same bits; a zero before it is blended as any weight. The
//! importer sorts a vertex's weights, largest first, so its zeros trail: CesiumMan's 3,273
//! vertices have 1, 2, 3 and 4 bones 458, 1,678, 717 and 420 times. Each count has its own
//! body (the same macros for K = 1 to 4; about 38 instructions a bone: a row address, its
//! pushes and three rows' terms), and one bone copies its rows (its weight is 2¹⁵, and
//! `2¹⁵(2e + 1) >> 16` is `(2e + 1) >> 1`, the entry). The count is read where the kernel
//! loads the weights anyway: the fourth stored weight's `LDRH` moved ahead, a `CMP` and a
//! `BEQ`: two instructions more for a vertex of four bones (the kernel benchmark's LBS-4
//! with normals 298.0 → 299.9 as M0 code on the mps2-an385), five to nine, branches
//! included, to find a smaller count, against 38 to 126 saved: CesiumMan's skin stage on
//! the M0 went from 0.96 M to 0.76 M instructions a frame (`docs/BENCHMARKS.md`, "Skinning
//! by each vertex's bones"). The other way, a bake that orders each part's vertices by
//! their count and one kernel per run of a count, would pay no test per vertex but has
//! every per-vertex array of the asset and the index lists permuted together; the test
//! costs less than a single skipped bone, so the count is read per vertex.
//!
//! Only instructions that ARMv4T's Thumb has as well are used (no `MULS` with equal source
//! and destination, return through `BX`), as the `cfg` that selects this module (no 32-bit
//! atomics) also admits ARMv4T and ARMv5TE targets; it is only tested on ARMv6-M.
//!
//! [`Lane::unit`]: crate::lane::Lane::unit

use super::Job;

/// The largest palette the kernels take (their table: 48 bytes a matrix, on the stack).
pub(super) const MAX_BONES: usize = 64;

/// The renormalisation's two tables at one address (the normals kernel reads both through
/// one register, which saves an instruction a vertex): 32 halfwords that hold, byte by byte,
/// the even leading-zero count of a squared length `len2` by `len2 >> 26` (entry 0 unused),
/// then the inverse-square-root seeds ([`SEED`](crate::lane::SEED)), the kernels'
/// `job.seed`.
pub(super) static ROOTS: [u16; 32 + crate::lane::SEED.len()] = {
    let mut t = [0u16; 32 + crate::lane::SEED.len()];
    let mut i = 1;
    while i < 64 {
        let even = ((i as u32) << 26).leading_zeros() & !1;
        t[i / 2] |= (even as u16) << (8 * (i % 2));
        i += 1;
    }
    let mut k = 0;
    while k < crate::lane::SEED.len() {
        t[32 + k] = crate::lane::SEED[k];
        k += 1;
    }
    t
};

/// Whether the kernels take a palette of `palette_len` matrices.
#[inline(always)]
pub(super) fn fits(palette_len: usize) -> bool {
    palette_len <= MAX_BONES
}

extern "C" {
    /// Skinned positions of `job.count` vertices.
    ///
    /// # Safety
    ///
    /// `job` must describe live arrays of at least `job.count` influences, positions and
    /// output positions (the latter writable, 4-byte aligned and aliasing nothing the kernel
    /// reads), and a palette of `job.palette_len` matrices (at most [`MAX_BONES`]) that holds
    /// every bone index of those influences; `job.seed` must point at `SEED`. The function
    /// follows the AAPCS: it preserves r4–r11 and sp, and uses at most
    /// `48·palette_len + 200` bytes of stack (the saved registers, the table, its frame and a
    /// vertex's pushes) besides the arrays above.
    #[link_name = "skin_core_q14_lbs4_v6m_positions"]
    pub(super) fn lbs4_positions(job: &Job);

    /// Skinned positions and renormalised normals of `job.count` vertices.
    ///
    /// # Safety
    ///
    /// As [`lbs4_positions`], and `job.normals` and `job.out_normals` must describe live
    /// arrays of at least `job.count` elements (the latter writable, aliasing nothing read).
    #[link_name = "skin_core_q14_lbs4_v6m_normals"]
    pub(super) fn lbs4_normals(job: &Job);

    /// [`lbs4_positions`] with `job.palette` a prepared [`Table`](crate::skin::Table) (its `palette_len` unread):
    /// no copy.
    ///
    /// # Safety
    ///
    /// As [`lbs4_positions`], the palette's matrices those of the table, which must hold
    /// every bone index of the influences; it uses 200 bytes of stack.
    #[link_name = "skin_core_q14_lbs4_v6m_positions_tabled"]
    pub(super) fn lbs4_positions_tabled(job: &Job);

    /// [`lbs4_normals`] with `job.palette` a prepared [`Table`](crate::skin::Table): no copy.
    ///
    /// # Safety
    ///
    /// As [`lbs4_normals`] and [`lbs4_positions_tabled`].
    #[link_name = "skin_core_q14_lbs4_v6m_normals_tabled"]
    pub(super) fn lbs4_normals_tabled(job: &Job);
}

// Job (see `Job`): +0 palette, +4 influences, +8 positions, +12 normals, +16 out,
// +20 out_normals, +24 count, +28 palette_len, +32 seed.
//
// Stack, from the top: the saved r4-r7, lr and r8-r11 (36 bytes); the table (48 bytes a
// matrix, at r10); the frame (56 bytes, at sp between vertices):
//   normals kernel: +0 the positions' cursor less 48, +4 +8 +12 the normals' offsets from
//   it (normals - positions + 48, + 50, + 52); positions kernel: +12 the positions'
//   cursor less 48; then +16 48, +20 50, +24 52, +28 the influences' cursor (one LDM
//   brings them all into r0..r7, or r0, r4..r7, for each vertex), +32 sp before the table
//   (to restore), +36 V0, +40 V1, +44 the seed table - 64 bytes (the even-shift table:
//   `ROOTS`), +48 0xC000 (3 << 14), +52 0x8000. The outputs follow the positions'
//   cursor: out is twice it plus r12, out_normals it plus lr.
// Per vertex, below the frame: n0 n1 n2 (12 bytes, normals kernel), out p0 p1 p2 (the out
// cursor and the position, 16), and three sets of the (row address, weight) pairs of its
// K bones (1, 2, K - 1, 0 of them, 8K bytes each; row 0's on top, its bones 1 to K - 2
// only: 8K - 16 bytes, none for one bone), each set popped by the blend of its row; the
// last row pops the position (and the normal) too.
//
// High registers: r8 = 2^11, r9 = 2^13, r10 = the table + 32, r11 = out's last element
// (out_normals' in the normals kernel), r12 and lr the outputs' offsets (above).
core::arch::global_asm!(
    r#"
    .syntax unified
    .thumb
    .pushsection .text.skin_core_q14_lbs4_v6m, "ax", %progbits

@ The frame below sp (r4 = sp at the saved registers, r0 = the job, r1 = the count) and
@ the high registers r8, r9, r11, r12 and lr (r10, the table's address, is the caller's).
@ Keeps r0.
    .macro SKIN_V6M_FRAME end, stride, cursor
    sub sp, #56
    str r4, [sp, #32]
    ldr r3, [r0, #32]
    subs r3, #64
    str r3, [sp, #44]
    @ r11 = the last element of the output array at job + \end (of \stride bytes).
    ldr r3, [r0, #\end]
    movs r4, #\stride
    muls r4, r1, r4
    adds r4, r3, r4
    subs r4, #\stride
    mov r11, r4
    @ r12 = out - 2 * positions + 84: out's element from twice the positions' cursor once
    @ advanced (less 48; positions of 6 bytes, out of 12).
    ldr r3, [r0, #16]
    ldr r2, [r0, #8]
    lsls r2, r2, #1
    subs r3, r3, r2
    adds r3, #84
    mov r12, r3
    @ Cursors: influences, positions (less 48).
    ldr r3, [r0, #4]
    str r3, [sp, #28]
    ldr r3, [r0, #8]
    subs r3, #48
    str r3, [sp, #\cursor]
    .ifc \cursor,0
    @ The normals' offsets from the positions' cursor (less 48): 48, 50 and 52 more than
    @ normals - positions (arrays of 6-byte elements, read in step).
    ldr r3, [r0, #12]
    ldr r2, [r0, #8]
    subs r3, r3, r2
    adds r3, #48
    str r3, [sp, #4]
    adds r3, #2
    str r3, [sp, #8]
    adds r3, #2
    str r3, [sp, #12]
    @ lr = out_normals - positions + 42: out_normals' element from the positions' cursor
    @ once advanced (less 48).
    ldr r3, [r0, #20]
    subs r3, r3, r2
    adds r3, #42
    mov lr, r3
    .endif
    @ Constants: 48 (a matrix in the table; the positions' first offset), 50, 52; 2^11,
    @ 2^13, 3 << 14, 2^15.
    movs r3, #48
    str r3, [sp, #16]
    adds r3, #2
    str r3, [sp, #20]
    adds r3, #2
    str r3, [sp, #24]
    movs r3, #1
    lsls r4, r3, #11
    mov r8, r4
    lsls r4, r3, #13
    mov r9, r4
    movs r4, #3
    lsls r4, r4, #14
    str r4, [sp, #48]
    lsls r4, r3, #15
    str r4, [sp, #52]
    .endm

@ Saves the registers (r4 = sp at them), r1 = the count; to \done for no vertices.
    .macro SKIN_V6M_ENTER done
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
    .endm

@ The entry of a prepared table (the job's palette, built once for many calls): the
@ prologue less the table's copy, into the kernel at its .Lskin_v6m_\kernel\()_tabled.
    .macro SKIN_V6M_TABLED done, end, stride, cursor, kernel
    SKIN_V6M_ENTER \done
    ldr r5, [r0, #0]
    mov r10, r5
    SKIN_V6M_FRAME \end, \stride, \cursor
    b .Lskin_v6m_\kernel\()_tabled
    .endm

@ The prologue: saves registers, copies the palette into the table (entries 2e + 1),
@ makes the frame and the high registers. Returns at once (to \done, the epilogue's
@ second half) for no vertices. Holds the count of a vertex of fewer than four bones
@ (SKIN_V6M_FEWER, at .Lskin_v6m_\kernel\()_few, to its _three, _two or _one), where no
@ call passes through.
    .macro SKIN_V6M_PROLOGUE done, end, stride, cursor, kernel
    SKIN_V6M_ENTER \done
    @ The table: sp -= 48 * palette_len.
    ldr r2, [r0, #28]
    movs r3, #48
    muls r3, r2, r3
    subs r5, r4, r3
    mov sp, r5
    mov r10, r5
    SKIN_V6M_FRAME \end, \stride, \cursor
    @ Copy: r0 = palette, r1 = table, r6 = 1, r7 = matrices.
    ldr r7, [r0, #28]
    ldr r0, [r0, #0]
    mov r1, r10
    movs r6, #1
    lsls r2, r0, #30
    bne 3f
    @ Word-aligned palette: each word (e, e') becomes 2e + 1, 2e' + 1.
1:  ldm r0!, {{r2, r4}}
    asrs r3, r2, #15
    orrs r3, r6
    lsls r2, r2, #16
    asrs r2, r2, #15
    orrs r2, r6
    asrs r5, r4, #15
    orrs r5, r6
    lsls r4, r4, #16
    asrs r4, r4, #15
    orrs r4, r6
    stm r1!, {{r2-r5}}
    ldm r0!, {{r2, r4}}
    asrs r3, r2, #15
    orrs r3, r6
    lsls r2, r2, #16
    asrs r2, r2, #15
    orrs r2, r6
    asrs r5, r4, #15
    orrs r5, r6
    lsls r4, r4, #16
    asrs r4, r4, #15
    orrs r4, r6
    stm r1!, {{r2-r5}}
    ldm r0!, {{r2, r4}}
    asrs r3, r2, #15
    orrs r3, r6
    lsls r2, r2, #16
    asrs r2, r2, #15
    orrs r2, r6
    asrs r5, r4, #15
    orrs r5, r6
    lsls r4, r4, #16
    asrs r4, r4, #15
    orrs r4, r6
    stm r1!, {{r2-r5}}
    subs r7, #1
    bne 1b
    b 4f
    @ Not reached from above: the vertices whose fourth stored weight is 0 come here, as
    @ near their BEQ as a place no call passes through.
.Lskin_v6m_\kernel\()_few:
    SKIN_V6M_FEWER .Lskin_v6m_\kernel\()_three, .Lskin_v6m_\kernel\()_two, .Lskin_v6m_\kernel\()_one
    @ A palette only 2-byte aligned: entry by entry.
3:  movs r3, #12
    muls r7, r3, r7
2:  ldrh r2, [r0]
    adds r0, #2
    lsls r2, r2, #16
    asrs r2, r2, #15
    orrs r2, r6
    stm r1!, {{r2}}
    subs r7, #1
    bne 2b
4:
.Lskin_v6m_\kernel\()_tabled:
    @ r10 = the table + 32: each matrix's row 2, where PUSH_INFLUENCE starts.
    mov r0, r10
    adds r0, #32
    mov r10, r0
    .endm

@ The epilogue: drops the table and the frame, restores the registers (from \saved on:
@ sp at the saved registers), returns.
    .macro SKIN_V6M_EPILOGUE saved
    ldr r0, [sp, #32]
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


@ Loads a vector (three halves) into r1..r3 from r0 + 48 (r4 = 48, r5 = 50, r6 = 52) and
@ advances the cursor at [sp, #\cur].
    .macro SKIN_V6M_VECTOR cur
    ldrsh r1, [r0, r4]
    ldrsh r2, [r0, r5]
    ldrsh r3, [r0, r6]
    adds r0, #6
    str r0, [sp, #\cur]
    .endm

@ Loads the first \k bones of the influence at the cursor in r7 (advanced at [sp, #\cur];
@ the stored weight of bone \k - 1 already in r5, every later one 0) and pushes their
@ (row, weight) pairs for each row (rows in the table: r10 - 32 + 48 * bone + 16 * row):
@ bone 0's pair (row, implied weight) goes to r6, r7, bone \k - 1's to r4, r5, bones 1
@ and 2 (of four) or 1 (of three) to r0, r1 and r2, r3. Rows 2 and 1 get a set of all
@ \k pairs (bones 1, 2, \k - 1, 0 in that order, 8 * \k bytes), row 0 one of the pairs
@ in r0..r3 only: bones 0 and \k - 1 are left in r6, r7 and r4, r5 (the sum's order does
@ not change it: it is exact). One bone pushes (r6, r7) as its set, its weight unused:
@ it is 2^15, and its rows are copied, not blended. r4 = 48 on entry.
    .macro SKIN_V6M_PUSH_INFLUENCE k, cur
    .if \k >= 4
    ldrb r2, [r7, #2]
    muls r2, r4, r2
    add r2, r10
    .endif
    .if \k >= 3
    ldrb r0, [r7, #1]
    muls r0, r4, r0
    add r0, r10
    .endif
    ldrb r6, [r7, #0]
    muls r6, r4, r6
    add r6, r10
    .if \k >= 2
    ldrb r1, [r7, #\k - 1]
    muls r4, r1, r4
    add r4, r10
    .endif
    .if \k >= 3
    ldrh r1, [r7, #4]
    .endif
    .if \k >= 4
    ldrh r3, [r7, #6]
    .endif
    adds r7, #10
    str r7, [sp, #\cur]
    .if \k >= 2
    ldr r7, [sp, #\cur + 24]
    .if \k >= 3
    subs r7, r7, r1
    .endif
    .if \k >= 4
    subs r7, r7, r3
    .endif
    subs r7, r7, r5
    .endif
    .if \k == 4
    push {{r0-r7}}
    subs r0, #16
    subs r2, #16
    subs r4, #16
    subs r6, #16
    push {{r0-r7}}
    subs r0, #16
    subs r2, #16
    subs r4, #16
    subs r6, #16
    push {{r0-r3}}
    .elseif \k == 3
    push {{r0, r1, r4-r7}}
    subs r0, #16
    subs r4, #16
    subs r6, #16
    push {{r0, r1, r4-r7}}
    subs r0, #16
    subs r4, #16
    subs r6, #16
    push {{r0, r1}}
    .elseif \k == 2
    push {{r4-r7}}
    subs r4, #16
    subs r6, #16
    push {{r4-r7}}
    subs r4, #16
    subs r6, #16
    .else
    push {{r6, r7}}
    subs r6, #16
    push {{r6, r7}}
    subs r6, #16
    .endif
    .endm

@ One more bone's terms of a row: its (row, weight) pair popped into r5, r6 (or in \row,
@ \weight already), two entries (into \e, \f) an LDM.
    .macro SKIN_V6M_TERMS row=r5, weight=r6, e=r4, f=r7
    .ifc \row,r5
    pop {{r5, r6}}
    .endif
    ldm \row!, {{\e, \f}}
    muls \e, \weight, \e
    adds r0, r0, \e
    muls \f, \weight, \f
    adds r1, r1, \f
    ldm \row!, {{\e, \f}}
    muls \e, \weight, \e
    adds r2, r2, \e
    muls \f, \weight, \f
    adds r3, r3, \f
    .endm

@ The next row of the blended matrix of \k bones into r0..r3, its \k (row, weight) pairs
@ popped (for `first`, row 0: bones 0 and \k - 1 in r6, r7 and r4, r5, the others
@ popped). One bone's row is its entries: 2^15 (2e + 1) >> 16 = (2e + 1) >> 1 = e.
    .macro SKIN_V6M_ROW k, first
    .ifc \first,first
    ldm r6!, {{r0-r3}}
    .if \k >= 2
    muls r0, r7, r0
    muls r1, r7, r1
    muls r2, r7, r2
    muls r3, r7, r3
    SKIN_V6M_TERMS r4, r5, r6, r7
    .endif
    .else
    pop {{r5, r6}}
    ldm r5!, {{r0-r3}}
    .if \k >= 2
    muls r0, r6, r0
    muls r1, r6, r1
    muls r2, r6, r2
    muls r3, r6, r3
    SKIN_V6M_TERMS
    .endif
    .endif
    .if \k >= 3
    SKIN_V6M_TERMS
    .endif
    .if \k >= 4
    SKIN_V6M_TERMS
    .endif
    .if \k >= 2
    asrs r0, r0, #16
    asrs r1, r1, #16
    asrs r2, r2, #16
    asrs r3, r3, #16
    .else
    asrs r0, r0, #1
    asrs r1, r1, #1
    asrs r2, r2, #1
    asrs r3, r3, #1
    .endif
    .endm

@ Coordinate \row of the point (the row in r0..r3; the vertex's out, p0, p1, p2 at
@ [sp, #\p], or popped for `pop`) into out; r4 = out on return.
    .macro SKIN_V6M_POINT row, p
    .ifc \p,pop
    pop {{r4-r7}}
    .else
    add r7, sp, #\p
    ldm r7, {{r4-r7}}
    .endif
    muls r5, r0, r5
    muls r6, r1, r6
    adds r5, r5, r6
    muls r7, r2, r7
    adds r5, r5, r7
    lsls r6, r3, #14
    adds r5, r5, r6
    add r5, r8
    asrs r5, r5, #12
    str r5, [r4, #4 * \row]
    .endm

@ Coordinate of the linear part (the row in r0..r3, n at [sp, #\n], or popped for `pop`)
@ into \dst.
    .macro SKIN_V6M_LINEAR n, dst=r5
    .ifc \n,pop
    pop {{r5, r6, r7}}
    .else
    add r7, sp, #\n
    ldm r7, {{r5, r6, r7}}
    .endif
    muls r5, r0, r5
    muls r6, r1, r6
    adds r5, r5, r6
    muls r7, r2, r7
    adds r5, r5, r7
    add r5, r9
    asrs \dst, r5, #14
    .endm

@ The normals kernel's vertex of \k bones, from its influence (r5 = the stored weight of
@ bone \k - 1) to the blended normal in r0..r2 (x and y also in the frame's V0, V1).
    .macro SKIN_V6M_NORMALS_BODY k
    SKIN_V6M_PUSH_INFLUENCE \k, 28 + 28
    @ sp: the pairs of rows 0, 1, 2 +0, +8k - 16, +16k - 16 (+0, +0, +8 for one bone;
    @ each ROW pops its set), out p +16k, n +16k + 16, frame +16k + 28.
    SKIN_V6M_ROW \k, first
    SKIN_V6M_POINT 0, 16*\k
    SKIN_V6M_LINEAR 16*\k+16
    str r5, [sp, #16 * \k + 28 + 36]
    SKIN_V6M_ROW \k
    SKIN_V6M_POINT 1, 8*\k
    SKIN_V6M_LINEAR 8*\k+16
    str r5, [sp, #8 * \k + 28 + 40]
    SKIN_V6M_ROW \k
    @ sp: out p +0, n +16, frame +28; both popped, the frame on top again.
    SKIN_V6M_POINT 2, pop
    SKIN_V6M_LINEAR pop, r2
    .endm

@ A vertex's count of bones: 1 + the index of its last non-zero stored weight (bone 0's
@ weight is the implied one). Entered with r7 = the influences' cursor, r4 = 48, having
@ found the fourth stored weight 0; goes to \three, \two or \one with the last counted
@ bone's stored weight in r5.
    .macro SKIN_V6M_FEWER three, two, one
    ldrh r5, [r7, #6]
    cmp r5, #0
    beq 2f
    b \three
2:  ldrh r5, [r7, #4]
    cmp r5, #0
    beq 1f
    b \two
1:  b \one
    .endm

@ ---------------------------------------------------------------------------------------
@ skin_core_q14_lbs4_v6m_normals(job: &Job)
    .p2align 2
    .global skin_core_q14_lbs4_v6m_normals
    .type skin_core_q14_lbs4_v6m_normals, %function
    .thumb_func
skin_core_q14_lbs4_v6m_normals:
    SKIN_V6M_PROLOGUE .Lskin_v6m_n_saved, 20, 6, 0, n
.Lskin_v6m_n_vertex:
    @ r0 = the positions' cursor less 48, r1..r3 the normal's offsets from it, r4..r6 the
    @ position's (48, 50, 52), r7 the influences' cursor.
    mov r7, sp
    ldm r7, {{r0-r7}}
    ldrsh r1, [r0, r1]
    ldrsh r2, [r0, r2]
    ldrsh r3, [r0, r3]
    push {{r1-r3}}
    SKIN_V6M_VECTOR 0 + 12
    lsls r0, r0, #1
    add r0, r12
    push {{r0-r3}}
    @ Four bones unless the fourth stored weight is 0.
    ldrh r5, [r7, #8]
    cmp r5, #0
    beq .Lskin_v6m_n_few
    SKIN_V6M_NORMALS_BODY 4
.Lskin_v6m_n_unit:
    @ Renormalise v = (r0, r1, r2); r5 = the seed table - 64, the even-shift table (one
    @ address: `ROOTS`), r7 = 0xC000.
    add r5, sp, #36
    ldm r5, {{r0, r1, r5, r7}}
    movs r3, r0
    muls r3, r0, r3
    movs r4, r1
    muls r4, r1, r4
    adds r3, r3, r4
    bcs .Lskin_v6m_n_halve
    movs r4, r2
    muls r4, r2, r4
    adds r3, r3, r4
    bcs .Lskin_v6m_n_halve
.Lskin_v6m_n_length:
    @ len2 in r3. Even normalisation: r3 = m in [2^30, 2^32), r4 = its shift; from the
    @ table for len2 >= 2^26 (every normal longer than 1/2), else by search (which also
    @ takes len2 below 256 for the zero vector).
    lsrs r6, r3, #26
    beq .Lskin_v6m_n_search
    ldrb r4, [r5, r6]
    lsls r3, r4
.Lskin_v6m_n_seed:
    @ Seed y (r6), one Newton step.
    lsrs r6, r3, #25
    lsls r6, r6, #1
    ldrh r6, [r5, r6]
    lsrs r3, r3, #16
    movs r5, r6
    muls r5, r6, r5
    lsrs r5, r5, #14
    muls r5, r3, r5
    lsrs r5, r5, #16
    subs r3, r7, r5
    muls r6, r3, r6
    lsrs r6, r6, #15
    @ (c·y + 2^(s-1)) >> s with s = 16 - lz/2 is (c·(y << lz/2) + 2^15) >> 16: the same
    @ integer, as |c·y| >> s fits a Q14 unit component, so c·(y << lz/2) < 2^31 - 2^15.
    lsrs r4, r4, #1
    lsls r6, r4
    ldr r5, [sp, #52]
    muls r0, r6, r0
    adds r0, r0, r5
    asrs r0, r0, #16
    muls r1, r6, r1
    adds r1, r1, r5
    asrs r1, r1, #16
    muls r2, r6, r2
    adds r2, r2, r5
    asrs r2, r2, #16
.Lskin_v6m_n_store:
    ldr r4, [sp, #0]
    add r4, lr
    strh r0, [r4, #0]
    strh r1, [r4, #2]
    strh r2, [r4, #4]
    cmp r4, r11
    beq .Lskin_v6m_n_return
    b .Lskin_v6m_n_vertex
.Lskin_v6m_n_halve:
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
    b .Lskin_v6m_n_length
.Lskin_v6m_n_zero:
    movs r0, #0
    movs r1, #0
    movs r2, #0
    b .Lskin_v6m_n_store
.Lskin_v6m_n_search:
    @ len2 in [2^20, 2^26) (a normal longer than 1/8): the table's shift for len2 >> 20,
    @ plus 6.
    lsrs r6, r3, #20
    beq 2f
    ldrb r4, [r5, r6]
    adds r4, #6
    lsls r3, r4
    b .Lskin_v6m_n_seed
2:  @ len2 below 256: the zero vector; in [256, 2^20): a four-step search for the even
    @ shift.
    lsrs r4, r3, #8
    beq .Lskin_v6m_n_zero
    movs r4, #0
    lsrs r6, r3, #16
    bne 1f
    lsls r3, r3, #16
    adds r4, #16
1:  lsrs r6, r3, #24
    bne 1f
    lsls r3, r3, #8
    adds r4, #8
1:  lsrs r6, r3, #28
    bne 1f
    lsls r3, r3, #4
    adds r4, #4
1:  lsrs r6, r3, #30
    bne 1f
    lsls r3, r3, #2
    adds r4, #2
1:  b .Lskin_v6m_n_seed
.Lskin_v6m_n_return:
    SKIN_V6M_EPILOGUE .Lskin_v6m_n_saved
@ skin_core_q14_lbs4_v6m_normals_tabled(job: &Job): the palette a prepared table.
    .global skin_core_q14_lbs4_v6m_normals_tabled
    .type skin_core_q14_lbs4_v6m_normals_tabled, %function
    .thumb_func
skin_core_q14_lbs4_v6m_normals_tabled:
    SKIN_V6M_TABLED .Lskin_v6m_n_saved, 20, 6, 0, n
    @ Vertices of fewer bones.
.Lskin_v6m_n_three:
    SKIN_V6M_NORMALS_BODY 3
    b .Lskin_v6m_n_unit
.Lskin_v6m_n_two:
    SKIN_V6M_NORMALS_BODY 2
    b .Lskin_v6m_n_unit
.Lskin_v6m_n_one:
    SKIN_V6M_NORMALS_BODY 1
    b .Lskin_v6m_n_unit
    .size skin_core_q14_lbs4_v6m_normals, . - skin_core_q14_lbs4_v6m_normals

@ The positions kernel's vertex of \k bones, from its influence (r5 = the stored weight of
@ bone \k - 1) to the stored point; r4 = out.
    .macro SKIN_V6M_POSITIONS_BODY k
    SKIN_V6M_PUSH_INFLUENCE \k, 28 + 16
    @ sp: the pairs of rows 0, 1, 2 as in the normals kernel, out p +16k, frame +16k + 16.
    SKIN_V6M_ROW \k, first
    SKIN_V6M_POINT 0, 16*\k
    SKIN_V6M_ROW \k
    SKIN_V6M_POINT 1, 8*\k
    SKIN_V6M_ROW \k
    @ sp: out p +0 (popped), frame +16.
    SKIN_V6M_POINT 2, pop
    .endm

@ ---------------------------------------------------------------------------------------
@ skin_core_q14_lbs4_v6m_positions(job: &Job)
    .p2align 2
    .global skin_core_q14_lbs4_v6m_positions
    .type skin_core_q14_lbs4_v6m_positions, %function
    .thumb_func
skin_core_q14_lbs4_v6m_positions:
    SKIN_V6M_PROLOGUE .Lskin_v6m_p_saved, 16, 12, 12, p
.Lskin_v6m_p_vertex:
    @ r0 = the positions' cursor less 48, r4..r6 the position's offsets from it (48, 50,
    @ 52), r7 the influences' cursor.
    add r7, sp, #12
    ldm r7, {{r0, r4-r7}}
    SKIN_V6M_VECTOR 12
    lsls r0, r0, #1
    add r0, r12
    push {{r0-r3}}
    ldrh r5, [r7, #8]
    cmp r5, #0
    beq .Lskin_v6m_p_few
    SKIN_V6M_POSITIONS_BODY 4
.Lskin_v6m_p_next:
    cmp r4, r11
    beq .Lskin_v6m_p_return
    b .Lskin_v6m_p_vertex
.Lskin_v6m_p_return:
    SKIN_V6M_EPILOGUE .Lskin_v6m_p_saved
.Lskin_v6m_p_three:
    SKIN_V6M_POSITIONS_BODY 3
    b .Lskin_v6m_p_next
.Lskin_v6m_p_two:
    SKIN_V6M_POSITIONS_BODY 2
    b .Lskin_v6m_p_next
.Lskin_v6m_p_one:
    SKIN_V6M_POSITIONS_BODY 1
    b .Lskin_v6m_p_next
    .size skin_core_q14_lbs4_v6m_positions, . - skin_core_q14_lbs4_v6m_positions

@ skin_core_q14_lbs4_v6m_positions_tabled(job: &Job): the palette a prepared table.
    .global skin_core_q14_lbs4_v6m_positions_tabled
    .type skin_core_q14_lbs4_v6m_positions_tabled, %function
    .thumb_func
skin_core_q14_lbs4_v6m_positions_tabled:
    SKIN_V6M_TABLED .Lskin_v6m_p_saved, 16, 12, 12, p
    .size skin_core_q14_lbs4_v6m_positions_tabled, . - skin_core_q14_lbs4_v6m_positions_tabled

    .purgem SKIN_V6M_PROLOGUE
    .purgem SKIN_V6M_FRAME
    .purgem SKIN_V6M_ENTER
    .purgem SKIN_V6M_TABLED
    .purgem SKIN_V6M_EPILOGUE
    .purgem SKIN_V6M_VECTOR
    .purgem SKIN_V6M_PUSH_INFLUENCE
    .purgem SKIN_V6M_TERMS
    .purgem SKIN_V6M_ROW
    .purgem SKIN_V6M_POINT
    .purgem SKIN_V6M_LINEAR
    .purgem SKIN_V6M_NORMALS_BODY
    .purgem SKIN_V6M_POSITIONS_BODY
    .purgem SKIN_V6M_FEWER
    .popsection
"#
);
