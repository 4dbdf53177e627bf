//! Binning's loop over a draw call's triangles in ARMv6-M assembly (Cortex-M0, M0+, M1): one
//! of skin-core's `unsafe` modules, selected by the `skin_asm_v6m` flag (`build.rs`).
//!
//! **Why assembly.** Binning tests every triangle of a frame (CesiumMan's 4,672), and about
//! half of a closed mesh's face away. LLVM's Thumb-1 code for the Rust loop (`bins::hidden`)
//! kept the vertices' coordinates and the loop's bounds on the stack (about 45 instructions a
//! turned-away triangle) and returned to the caller for each visible one, which then boxed
//! and listed it. Here the turned-away test is 32 instructions with everything in
//! registers, and the box test and the insertion into its band's list follow in the same
//! loop, so a visible triangle pays no call.
//!
//! **What it computes.** Exactly `bins::bin`'s step for a triangle with aligned indices:
//! twice the signed area `(b − a) × (c − a)` on `i32` with wrapping, the triangle hidden
//! when it is not negative; the candidate box `⌈(min − 8) / 16⌉ ..= ⌊(max − 8) / 16⌋` of
//! each axis clipped to the screen, hidden when empty (`band::visible`); then a span of its
//! number with no next, appended to the list of the band of its top row (`BandOf::row`).
//! It stops, leaving the rest to the Rust loop, at the first triangle with an index past
//! the vertices and at the first visible one without a span left. The frames are the
//! host's bit for bit (the `firmware_frames` tests), and `bins`' property test checks the
//! Rust loop it replaces against unbinned drawing. The firmware's device check compares its
//! lists, hand-backs and errors with that loop's (`bins::lists`) on random frames,
//! triangle numbers past 65,535 among them (`firmware/src/bin_check.rs`, its `CHECK
//! bin-loop` line).
//!
//! **Safety.** [`bin`] passes a run of `len` triangles read from a live slice, the
//! vertices' slice and its length, the spans' slice with `room` at most its length, and the
//! two lists' arrays of [`MAX_BANDS`] entries, with `height` at most `MAX_BANDS` bands of
//! rows (`bins::bin` checks it): the assembly reads three indices of each triangle,
//! the coordinates of vertices below the length only, writes span `n < room`, entry
//! `row · inverse >> 21 < MAX_BANDS` of the arrays and the link of a span it wrote
//! before. It keeps its frame on the stack and uses only instructions that ARMv4T's Thumb
//! has as well.

#![allow(unsafe_code)]

use super::span::{Span, MAX_BANDS};
use super::ScreenVertex;

/// What the assembly reads (and `used`, which it updates).
#[repr(C)]
struct Job {
    /// The first triangle's indices.
    triangles: *const [u16; 3],
    /// Triangles in the run.
    len: usize,
    vertices: *const ScreenVertex,
    count: usize,
    /// The screen's last column and row.
    xmax: i32,
    ymax: i32,
    /// `BandOf`'s multiplier.
    inverse: u32,
    spans: *mut Span,
    /// Spans used (the next one's place).
    used: usize,
    /// Spans there are room for.
    room: usize,
    /// The number of the triangle after the run (below 65,537).
    end: u32,
    heads: *mut u16,
    tails: *mut u16,
}

// The layouts the assembly relies on (its offsets below).
const _: () = {
    use core::mem::{offset_of, size_of};
    assert!(size_of::<usize>() == 4 && size_of::<Span>() == 4);
    assert!(offset_of!(Job, count) == 12 && offset_of!(Job, inverse) == 24);
    assert!(offset_of!(Job, used) == 32 && offset_of!(Job, end) == 40);
    assert!(offset_of!(Job, tails) == 48);
    assert!(size_of::<ScreenVertex>() == 8 && offset_of!(ScreenVertex, y) == 2);
};

extern "C" {
    /// Bins the job's triangles (see the module docs); how many it passed.
    ///
    /// # Safety
    ///
    /// As the module docs say. The function follows the AAPCS: it preserves r4–r11 and
    /// sp, and uses 40 bytes of stack.
    #[link_name = "skin_core_bin_v6m"]
    fn run(job: &mut Job) -> usize;
}

/// The lists of a frame's bands as `bins::bin` builds them: heads, tails and spans used.
pub(super) struct Lists<'s> {
    pub spans: &'s mut [Span],
    pub used: usize,
    pub heads: &'s mut [u16; MAX_BANDS],
    pub tails: &'s mut [u16; MAX_BANDS],
}

/// Bins `triangles`, numbered from `number`, of `vertices` on a screen of `width × height`
/// (at most [`MAX_BANDS`] bands of `BandOf` multiplier `inverse`) into `lists`: how many
/// from the first it passed, hidden or binned (all but one past the vertices, one
/// without a span, or one numbered past 65,535).
pub(super) fn bin(
    triangles: &[[u16; 3]],
    number: usize,
    vertices: &[ScreenVertex],
    (width, height, inverse): (u16, u16, u32),
    lists: &mut Lists<'_>,
) -> usize {
    // The spans number triangles in 16 bits.
    let len = triangles.len().min(65_536usize.saturating_sub(number));
    let mut job = Job {
        triangles: triangles.as_ptr(),
        len,
        vertices: vertices.as_ptr(),
        count: vertices.len(),
        xmax: i32::from(width) - 1,
        ymax: i32::from(height) - 1,
        inverse,
        spans: lists.spans.as_mut_ptr(),
        used: lists.used,
        room: lists.spans.len().min(usize::from(u16::MAX)),
        end: (number + len) as u32,
        heads: lists.heads.as_mut_ptr(),
        tails: lists.tails.as_mut_ptr(),
    };
    // SAFETY: as the module docs say: `len` triangles of the slice, the vertices' length,
    // `room` within the spans, `used` below or at `room`, the arrays of `MAX_BANDS` entries
    // and the caller's screen of at most that many bands.
    let passed = unsafe { run(&mut job) };
    lists.used = job.used;
    passed
}

// Job: +0 triangles, +4 len, +8 vertices, +12 count, +16 xmax, +20 ymax, +24 inverse,
// +28 spans, +32 used, +36 room, +40 end, +44 heads, +48 tails. Frame (sp): +0 the job.
// Registers in the loop: r6 the vertices, r7 their `y`s (r6 + 2), r8 and r9 the last column
// and row, r10 the vertices' count, r11 the next triangle, r12 the current one's place in
// the run less the run's length (−len .. −1).
core::arch::global_asm!(
    r#"
    .syntax unified
    .thumb
    .pushsection .text.skin_core_bin_v6m, "ax", %progbits

@ The smaller and the larger of r0, r1, \third into r0, r1, then the first and last pixel
@ centres within: ⌈(min − 8) / 16⌉, ⌊(max − 8) / 16⌋; the first clipped to 0, the last to
@ \limit; hidden when none is left.
    .macro SKIN_BIN_AXIS third, limit
    cmp r0, r1
    ble 1f
    eors r0, r1
    eors r1, r0
    eors r0, r1
1:
    cmp \third, r0
    bge 2f
    movs r0, \third
    b 3f
2:
    cmp \third, r1
    ble 3f
    movs r1, \third
3:
    adds r0, #7
    asrs r0, r0, #4
    bpl 4f
    movs r0, #0
4:
    subs r1, #8
    asrs r1, r1, #4
    cmp r1, \limit
    ble 5f
    mov r1, \limit
5:
    cmp r0, r1
    bgt .Lskin_bin_v6m_next
    .endm

    .global skin_core_bin_v6m
    .type skin_core_bin_v6m, %function
    .thumb_func
skin_core_bin_v6m:
    push {{r4-r7, lr}}
    mov r2, r8
    mov r3, r9
    mov r4, r10
    mov r5, r11
    push {{r2-r5}}
    push {{r0}}
    ldr r1, [r0, #16]
    mov r8, r1
    ldr r1, [r0, #20]
    mov r9, r1
    ldr r1, [r0, #0]
    mov r11, r1
    ldr r1, [r0, #4]
    mvns r1, r1
    mov r12, r1
    ldr r6, [r0, #8]
    adds r7, r6, #2
    ldr r1, [r0, #12]
    mov r10, r1
    b .Lskin_bin_v6m_next
    @ The exits, within a conditional branch of the loop's start: how many it passed.
.Lskin_bin_v6m_done:
    ldr r5, [sp, #0]
    ldr r0, [r5, #4]
    b 1f
.Lskin_bin_v6m_stop:
    ldr r5, [sp, #0]
    ldr r0, [r5, #4]
    mov r1, r12
    adds r0, r1
1:
    add sp, #4
    pop {{r2-r5}}
    mov r8, r2
    mov r9, r3
    mov r10, r4
    mov r11, r5
    pop {{r4-r7, pc}}
.Lskin_bin_v6m_next:
    mov r0, r12
    adds r0, #1
    beq .Lskin_bin_v6m_done
    mov r12, r0
    @ The indices, each below the vertices' count.
    mov r0, r11
    ldrh r1, [r0, #0]
    ldrh r2, [r0, #2]
    ldrh r3, [r0, #4]
    cmp r1, r10
    bhs .Lskin_bin_v6m_stop
    cmp r2, r10
    bhs .Lskin_bin_v6m_stop
    cmp r3, r10
    bhs .Lskin_bin_v6m_stop
    adds r0, #6
    mov r11, r0
    @ Twice the signed area (b − a) × (c − a): hidden when not negative.
    lsls r1, r1, #3
    lsls r2, r2, #3
    lsls r3, r3, #3
    ldrsh r4, [r6, r1]
    ldrsh r5, [r7, r1]
    ldrsh r0, [r6, r2]
    ldrsh r1, [r7, r2]
    subs r0, r4
    subs r1, r5
    ldrsh r2, [r6, r3]
    ldrsh r3, [r7, r3]
    subs r2, r4
    subs r3, r5
    muls r0, r3, r0
    muls r1, r2, r1
    subs r0, r1
    bpl .Lskin_bin_v6m_next
    @ Facing the viewer: b's and c's places (r2, r3), a's coordinates still in r4, r5;
    @ the columns, then the rows.
    mov r0, r11
    subs r0, #4
    ldrh r2, [r0, #0]
    ldrh r3, [r0, #2]
    lsls r2, r2, #3
    lsls r3, r3, #3
    ldrsh r0, [r6, r2]
    ldrsh r1, [r6, r3]
    SKIN_BIN_AXIS r4, r8
    ldrsh r0, [r7, r2]
    ldrsh r1, [r7, r3]
    SKIN_BIN_AXIS r5, r9
    @ On the screen from row r0: a span, if there is one left (r1 its place).
    ldr r5, [sp, #0]
    ldr r1, [r5, #32]
    ldr r2, [r5, #36]
    cmp r1, r2
    blo 1f
    b .Lskin_bin_v6m_stop
1:
    @ Its band's place in the lists' arrays (r0).
    ldr r2, [r5, #24]
    muls r0, r2, r0
    lsrs r0, r0, #21
    lsls r0, r0, #1
    @ The span: its number (the end's plus r12) and no next.
    ldr r2, [r5, #40]
    mov r3, r12
    adds r2, r3
    ldr r3, =0xffff0000
    orrs r2, r3
    ldr r3, [r5, #28]
    lsls r4, r1, #2
    str r2, [r3, r4]
    @ Appended: after the band's tail, or as its head when the list is empty.
    ldr r4, [r5, #48]
    ldrh r2, [r4, r0]
    strh r1, [r4, r0]
    mvns r4, r2
    lsls r4, r4, #16
    beq 1f
    lsls r2, r2, #2
    adds r2, #2
    strh r1, [r3, r2]
    b 2f
1:
    ldr r4, [r5, #44]
    strh r1, [r4, r0]
2:
    adds r1, #1
    str r1, [r5, #32]
    b .Lskin_bin_v6m_next
    .ltorg
    .size skin_core_bin_v6m, . - skin_core_bin_v6m
    .popsection
"#
);
