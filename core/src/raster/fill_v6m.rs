//! A triangle's pixels in a band, in ARMv6-M assembly (Cortex-M0, M0+, M1): one of
//! skin-core's `unsafe` modules, selected by the `skin_asm_v6m` flag (`build.rs`).
//!
//! **Why assembly.** Scanning a triangle's candidate pixels steps three edge functions and
//! a pixel cursor, and a covered pixel's depth takes the area's shift and reciprocal, two
//! depth differences, the first depth, two fill-rule biases, the colour and the colour
//! buffer's place; ARMv6-M's eight low registers hold a fraction of them, and LLVM's
//! Thumb-1 code for the Rust loop (`band.rs`) moved them between the stack and the
//! registers in about every other instruction (`docs/BENCHMARKS.md`, "The band's pixels in
//! assembly"). Here the edge functions, the cursor and the pixels left in the row live in
//! low registers through the scan, the steps right in three high registers (each an `ADD`
//! from there), and everything else in a frame on the stack, one `LDR` away.
//!
//! **What it computes.** Exactly the Rust scan's arithmetic, operation for operation on
//! `i32`/`u32` with wrapping: from the first candidate, row by row, the first covered pixel
//! (all three edge functions, with their biases, non-negative), then each covered pixel's
//! depth `z0 + ((w₁·dz₁ + w₂·dz₂ + 2^14) >> 15)` with `wᵢ = ((eᵢ + biasᵢ) >> shift) · r >> 15`
//! (`depth::Depth::at`, the rounding folded into the first depth: `z0 · 2^15 + 2^14`), kept
//! where it is below the stored depth with the colour; a row ends at its first uncovered
//! pixel after a covered one (the triangle is convex). A covered pixel's depth lies within
//! the vertices' (the weights never sum past one), so its 32-bit value is the `u16` the Rust
//! code stores. It returns whether any pixel was covered. The frames that the firmware draws
//! with this loop are compared with the host's (the Rust loop) bit for bit by the
//! `firmware_frames` tests.
//!
//! **Safety.** The one entry, [`fill`], makes the [`Job`] from two slices of the same
//! length `n = (rows − 1) · width + len` (checked), with `1 ≤ len ≤ width`: the assembly
//! reads and writes the depth and colour of pixels `k · width + j` for `j < len` while
//! `k · width < n` only, all below `n`; it reads the `Job` and keeps its frame on the stack.
//! Only instructions that ARMv4T's Thumb has as well are used.

#![allow(unsafe_code)]

use embedded_graphics_core::pixelcolor::raw::RawU16;
use embedded_graphics_core::pixelcolor::Rgb565;
use embedded_graphics_core::prelude::RawData;

use super::depth::Depth;

/// What the assembly reads: the vertices, the first candidate's centre and depth address,
/// then the part of its frame the caller computes (copied to the stack).
#[repr(C)]
struct Job {
    /// The vertices' coordinates, `x0, y0, x1, …` (`(i32, i32)` is not an FFI type).
    p: *const i32,
    cx: i32,
    cy: i32,
    at: *mut u16,
    shift: u32,
    r: u32,
    dz: [i32; 2],
    z0: i32,
    colour: u32,
    off: isize,
    len: usize,
    end: *mut u16,
    stride: usize,
}

// The layouts the assembly relies on (its offsets below).
const _: () = {
    use core::mem::{offset_of, size_of};
    assert!(size_of::<usize>() == 4 && size_of::<*mut u16>() == 4);
    assert!(size_of::<(i32, i32)>() == 8 && offset_of!((i32, i32), 1) == 4);
    assert!(size_of::<[(i32, i32); 3]>() == 24);
    assert!(offset_of!(Job, cx) == 4 && offset_of!(Job, at) == 12);
    assert!(offset_of!(Job, shift) == 16 && offset_of!(Job, stride) == 52);
    assert!(size_of::<Job>() == 56);
};

extern "C" {
    /// Draws a triangle's covered pixels in a band; whether there was one.
    ///
    /// # Safety
    ///
    /// `job` must describe live vertices and depth and colour buffers (2-byte aligned,
    /// writable, not overlapping) holding every pixel `at + k · stride + j` (bytes,
    /// `j < len`) below `end`, and the colour's at `off` bytes from its depth's. The
    /// function follows the AAPCS: it preserves r4–r11 and sp, and uses 108 bytes of stack.
    #[link_name = "skin_core_fill_v6m"]
    fn scan(job: &Job) -> u32;
}

/// Draws the covered pixels of the triangle `p` (subpixels, wound so that the edge
/// functions are positive inside, as `band::Triangle` keeps them) among `len × rows`
/// candidates whose first has its centre at `centre` (subpixels) and is the first of
/// `depths` and `colours` (rows `width` apart): where a pixel's depth is below the stored
/// one, its depth and `colour`. Whether any pixel was covered; `false` without drawing when
/// the buffers are not `(rows − 1) · width + len` long or `len` is not in `1..=width` (a
/// caller's error: `Band::fill_in` makes them so).
pub(super) fn fill(
    p: &[(i32, i32); 3],
    centre: (i32, i32),
    depth: &Depth,
    colour: Rgb565,
    (colours, depths): (&mut [Rgb565], &mut [u16]),
    (len, rows, width): (usize, usize, usize),
) -> bool {
    let n = rows.wrapping_sub(1).wrapping_mul(width).wrapping_add(len);
    if len == 0 || len > width || rows == 0 || depths.len() != n || colours.len() != n {
        return false;
    }
    let (shift, r, dz, z0) = depth.terms();
    let at = depths.as_mut_ptr();
    let job = Job {
        p: p.as_ptr().cast::<i32>(),
        cx: centre.0,
        cy: centre.1,
        at,
        shift,
        r,
        dz,
        z0: (z0 << 15).wrapping_add(1 << 14),
        colour: u32::from(RawU16::from(colour).into_inner()),
        off: (colours.as_mut_ptr() as isize).wrapping_sub(at as isize),
        len,
        end: at.wrapping_add(n),
        stride: 2 * width,
    };
    // SAFETY: both buffers hold `n = (rows − 1) · width + len` pixels (checked above), so
    // each row `k` the assembly visits (`k · width < n`, hence `k ≤ rows − 1`) has its `len`
    // pixels below `n`; `Rgb565` is a `u16` (2-byte aligned), and the two slices, borrowed
    // mutably, do not overlap; `p` is borrowed. The function touches nothing else but its
    // stack frame.
    unsafe { scan(&job) != 0 }
}

// Job: +0 p, +4 cx, +8 cy, +12 at, +16 shift .. +48 end (the frame's +8 .. +40), +52 stride.
// Frame (sp): +0 bias1, +4 bias2, +8 shift, +12 r, +16 dz1, +20 dz2, +24 z0 · 2^15 + 2^14,
// +28 colour, +32 off, +36 len, +40 end, +44 down0..down2, +56 stride, +60 row0..row2,
// +72 row_at (the steps down and the row's start adjacent for `LDM`/`STM`).
// Registers in the loop: r0-r2 the edge functions, r3 the pixel's depth, r4-r6
// temporaries, r7 the pixels left in the row; r8-r10 the steps right.
core::arch::global_asm!(
    r#"
    .syntax unified
    .thumb
    .pushsection .text.skin_core_fill_v6m, "ax", %progbits

@ Whether the pixel is covered: N clear when every edge function is non-negative.
    .macro SKIN_FILL_COVERED
    movs r4, r0
    orrs r4, r1
    orrs r4, r2
    .endm

@ One pixel right.
    .macro SKIN_FILL_RIGHT
    add r0, r8
    add r1, r9
    add r2, r10
    adds r3, #2
    .endm

@ The next row's first candidate; flags: r3 (unsigned) below the end when there is one.
    .macro SKIN_FILL_DOWN
    add r4, sp, #44
    ldm r4!, {{r0-r3}}
    ldm r4, {{r4-r7}}
    adds r0, r4
    adds r1, r5
    adds r2, r6
    adds r3, r7
    add r4, sp, #60
    stm r4!, {{r0-r3}}
    ldr r7, [sp, #36]
    ldr r4, [sp, #40]
    cmp r3, r4
    .endm

@ Edge \k from the vertex at r5 + \a to the one at r5 + \b, the centre (r6, r7):
@ E = dx·(cy − ay) − dy·(cx − ax) less its fill-rule bias (0 for a top or left edge:
@ dy < 0, or dy = 0 and dx > 0; else 1), its step right −16·dy (into \right) and down
@ 16·dx; the second and third edges' biases.
    .macro SKIN_FILL_EDGE k, a, b, right
    ldr r1, [r5, #\a]
    ldr r2, [r5, #(\a + 4)]
    ldr r3, [r5, #\b]
    ldr r4, [r5, #(\b + 4)]
    subs r3, r1
    subs r4, r2
    subs r1, r6, r1
    subs r2, r7, r2
    muls r2, r3, r2
    muls r1, r4, r1
    subs r2, r1
    movs r1, #0
    cmp r4, #0
    blt 1f
    bne 2f
    cmp r3, #0
    bgt 1f
2:
    movs r1, #1
1:
    subs r2, r1
    .if \k
    str r1, [sp, #(4 * \k - 4)]
    .endif
    str r2, [sp, #(60 + 4 * \k)]
    lsls r3, r3, #4
    str r3, [sp, #(44 + 4 * \k)]
    lsls r4, r4, #4
    rsbs r4, r4, #0
    mov \right, r4
    .endm

    .global skin_core_fill_v6m
    .type skin_core_fill_v6m, %function
    .thumb_func
skin_core_fill_v6m:
    push {{r4-r7, lr}}
    mov r4, r8
    mov r5, r9
    mov r6, r10
    push {{r4-r6}}
    sub sp, #76
    @ The frame's copied part.
    movs r1, r0
    adds r1, #16
    ldm r1!, {{r2-r6}}
    add r7, sp, #8
    stm r7!, {{r2-r6}}
    ldm r1!, {{r2-r6}}
    stm r7!, {{r2-r5}}
    str r6, [sp, #56]
    @ The edges (vertices p1 → p2, p2 → p0, p0 → p1), the first row's cursor.
    ldr r3, [r0, #12]
    str r3, [sp, #72]
    ldm r0!, {{r5-r7}}
    SKIN_FILL_EDGE 0, 8, 16, r8
    SKIN_FILL_EDGE 1, 16, 0, r9
    SKIN_FILL_EDGE 2, 0, 8, r10
    @ The cursor, the row's pixels, the edge functions.
    ldr r3, [sp, #72]
    ldr r7, [sp, #36]
    add r2, sp, #60
    ldm r2, {{r0-r2}}
    @ The first covered pixel: none, and the function returns 0.
    SKIN_FILL_COVERED
    bpl .Lskin_fill_v6m_pixel
.Lskin_fill_v6m_first:
    subs r7, #1
    beq .Lskin_fill_v6m_first_row
    SKIN_FILL_RIGHT
    SKIN_FILL_COVERED
    bmi .Lskin_fill_v6m_first
    b .Lskin_fill_v6m_pixel
.Lskin_fill_v6m_first_row:
    SKIN_FILL_DOWN
    bhs .Lskin_fill_v6m_none
    SKIN_FILL_COVERED
    bmi .Lskin_fill_v6m_first
.Lskin_fill_v6m_pixel:
    @ Its depth: the weights' products with the depth differences, then the first depth.
    ldr r4, [sp, #0]
    adds r4, r1
    ldr r6, [sp, #8]
    lsrs r4, r6
    ldr r5, [sp, #12]
    muls r4, r5, r4
    lsrs r4, r4, #15
    ldr r5, [sp, #16]
    muls r4, r5, r4
    ldr r5, [sp, #4]
    adds r5, r2
    lsrs r5, r6
    ldr r6, [sp, #12]
    muls r5, r6, r5
    lsrs r5, r5, #15
    ldr r6, [sp, #20]
    muls r5, r6, r5
    adds r4, r5
    ldr r5, [sp, #24]
    adds r4, r5
    lsrs r4, r4, #15
    @ Kept where nearer than the stored depth.
    ldrh r5, [r3]
    cmp r4, r5
    bhs 1f
    strh r4, [r3]
    ldr r5, [sp, #28]
    ldr r6, [sp, #32]
    strh r5, [r3, r6]
1:
    subs r7, #1
    beq .Lskin_fill_v6m_row
    SKIN_FILL_RIGHT
    SKIN_FILL_COVERED
    bpl .Lskin_fill_v6m_pixel
.Lskin_fill_v6m_row:
    @ Past the row's covered pixels: the next row's first covered one.
    SKIN_FILL_DOWN
    bhs .Lskin_fill_v6m_done
    SKIN_FILL_COVERED
    bpl .Lskin_fill_v6m_pixel
.Lskin_fill_v6m_search:
    subs r7, #1
    beq .Lskin_fill_v6m_row
    SKIN_FILL_RIGHT
    SKIN_FILL_COVERED
    bmi .Lskin_fill_v6m_search
    b .Lskin_fill_v6m_pixel
.Lskin_fill_v6m_none:
    movs r0, #0
    b .Lskin_fill_v6m_exit
.Lskin_fill_v6m_done:
    movs r0, #1
.Lskin_fill_v6m_exit:
    add sp, #76
    pop {{r4-r6}}
    mov r8, r4
    mov r9, r5
    mov r10, r6
    pop {{r4-r7}}
    pop {{r3}}
    bx r3
    .size skin_core_fill_v6m, . - skin_core_fill_v6m
    .popsection
"#
);
