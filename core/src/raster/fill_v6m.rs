//! A triangle's set-up and pixels in a band, in ARMv6-M assembly (Cortex-M0, M0+, M1): one of
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
//! **What it computes.** Exactly the Rust code's arithmetic, operation for operation on
//! `i32`/`u32` with wrapping. Three entries: the *pair* entry ([`Pairs::draw`], binned
//! drawing's step) starts from a triangle's three vertices as `band::Triangle::of` does
//! (twice the signed area, culling when it is not negative, the winding `a, c, b`, the
//! candidate box `⌈(min − 8) / 16⌉ ..= ⌊(max − 8) / 16⌋`, clipped to the band), computes
//! the depth's shift and reciprocal as `depth::Depth::new` (the same tables and Newton step)
//! and the colour at the first vertex's intensity, and returns the box's last row; the
//! *triangle* entry ([`fill`]) starts from a `Triangle` already set up; the *walk* entry
//! ([`Pairs::walk`]) takes a band's spans from binning's two lists in triangle order as
//! `bins::Bins::draw` does (the earlier list head first; a span's triangle read from its
//! draw call's indices), runs the pair entry's set-up on each, and carries the span on to
//! the next band's list when the triangle's bottom row reaches below the band, up to the
//! first span it leaves to the Rust loop (the lists' end, another draw call's triangle, an
//! index past the call's vertices). The pair and triangle entries then set up
//! the three edge functions as `Band::fill_in` (biases, steps), and scan: from the first
//! candidate, row by row, the first covered pixel (all three edge functions, with their
//! biases, non-negative), then each covered pixel's depth
//! `z0 + ((w₁·dz₁ + w₂·dz₂ + 2^14) >> 15)` with `wᵢ = ((eᵢ + biasᵢ) >> shift) · r >> 15`
//! (`depth::Depth::at`, the rounding folded into the first depth: `z0 · 2^15 + 2^14`), kept
//! where it is below the stored depth with the colour; a row ends at its first uncovered
//! pixel after a covered one (the triangle is convex). A covered pixel's depth lies within
//! the vertices' (the weights never sum past one), so its 32-bit value is the `u16` the Rust
//! code stores. The frames that the firmware draws with it are compared with the host's
//! (the Rust code) bit for bit by the `firmware_frames` tests, and the firmware benchmark
//! compares the pair and triangle entries with the Rust scan on the device
//! (`firmware/src/fill_check.rs`, its `CHECK fill-loop` line) and the walk's bands with
//! the Rust walk's (`firmware/src/bin_check.rs`, its `CHECK bin-loop` line).
//!
//! **Safety.** [`fill`] makes its [`Job`] from two slices of the same length
//! `n = (rows − 1) · width + len` (checked), with `1 ≤ len ≤ width`: the assembly reads and
//! writes the depth and colour of pixels `k · width + j` for `j < len` while `k · width < n`
//! only, all below `n`. [`Pairs::new`] takes the band's buffers and keeps its rows within
//! them; the pair entry writes only pixels of the triangle's box clipped to the band's
//! columns and rows, and reads the three vertices [`Pairs::draw`] borrows, a colour at an
//! intensity (a byte) and the depth's two 256-entry tables at a byte. The walk entry reads
//! a span only below the room [`Pairs::walk`] gives (the spans' length at most), writes a
//! link only of a span below it, reads a triangle's indices only below the call's count of
//! triangles and vertices only below the call's count, all borrowed for the call. All keep
//! their frame on the stack. Only instructions that ARMv4T's Thumb has as well are used.

#![allow(unsafe_code)]

use embedded_graphics_core::pixelcolor::raw::RawU16;
use embedded_graphics_core::pixelcolor::Rgb565;
use embedded_graphics_core::prelude::RawData;

use core::marker::PhantomData;

use super::depth::{self, Depth};
use super::span::{Span, NONE};
use super::ScreenVertex;

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
    /// function follows the AAPCS: it preserves r4–r11 and sp, and uses 160 bytes of stack.
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

/// A band as the assembly's pair entry reads it: the triangle's vertices (written for each),
/// the band's depth buffer, its colour buffer's place, width, first row and rows, the
/// colours at each intensity, the depth's tables, and the columns drawn (`lo .. hi`,
/// widened by each triangle that covers a pixel).
#[repr(C)]
pub(super) struct Pairs<'b> {
    v: [*const ScreenVertex; 3],
    depth: *mut u16,
    off: isize,
    width: u32,
    y0: i32,
    rows: u32,
    /// The colours' `RawU16` values (`Rgb565` is not an FFI type).
    shades: *const u16,
    table: *const u16,
    highest: *const u8,
    lo: u32,
    hi: u32,
    /// What the walk entry ([`Pairs::walk`]) reads and writes.
    walk: Walk,
    /// The band's buffers, borrowed while the pointers live.
    band: PhantomData<&'b mut [u16]>,
}

/// A band's lists as the walk entry reads them ([`Pairs::walk`]): the spans and how many
/// of them it may read (`room`, at most [`NONE`]); the next span of the band's own list
/// (`fresh`) and of the list carried from the band above; the head and tail of the list
/// carried on to the next band; the row below the band; the draw call that the triangles
/// are read from (its 2-aligned indices, its first triangle's number in the frame, its
/// triangles, its vertices and their count). The lists' values are spans' places or
/// [`NONE`], widened to words.
#[repr(C)]
struct Walk {
    spans: *mut Span,
    room: u32,
    fresh: u32,
    carried: u32,
    head: u32,
    tail: u32,
    below: i32,
    indices: *const [u16; 3],
    first: u32,
    triangles: u32,
    vertices: *const ScreenVertex,
    count: u32,
}

// The layouts the assembly relies on (its offsets below).
const _: () = {
    use core::mem::{offset_of, size_of};
    assert!(offset_of!(Pairs<'static>, depth) == 12 && offset_of!(Pairs<'static>, width) == 20);
    assert!(offset_of!(Pairs<'static>, shades) == 32 && offset_of!(Pairs<'static>, lo) == 44);
    assert!(offset_of!(Pairs<'static>, hi) == 48 && offset_of!(Pairs<'static>, walk) == 52);
    assert!(offset_of!(Walk, fresh) == 8 && offset_of!(Walk, tail) == 20);
    assert!(offset_of!(Walk, below) == 24 && offset_of!(Walk, count) == 44);
    assert!(size_of::<Span>() == 4 && size_of::<[u16; 3]>() == 6);
    assert!(size_of::<ScreenVertex>() == 8 && size_of::<Rgb565>() == 2);
    assert!(offset_of!(ScreenVertex, y) == 2 && offset_of!(ScreenVertex, z) == 4);
    assert!(offset_of!(ScreenVertex, shade) == 6);
};

extern "C" {
    /// Draws the triangle `pairs.v` (as `Triangle::new` and `Band::fill_in` in the colour
    /// at its first vertex's intensity); its last candidate row (`Triangle::bottom`), or
    /// `i32::MIN` when it is culled.
    ///
    /// # Safety
    ///
    /// `pairs` must hold three live vertices, a live table of 256 colours and the depth's
    /// tables (256 entries each), and depth and colour buffers (2-byte aligned, writable,
    /// not overlapping) of `width × rows` pixels each. The function follows the AAPCS: it
    /// preserves r4–r11 and sp, and uses 160 bytes of stack.
    #[link_name = "skin_core_pair_v6m"]
    fn pair(pairs: &mut Pairs<'_>) -> i32;

    /// Draws the spans of `pairs.walk`'s two lists in order, as the pair entry draws a
    /// triangle, and carries those reaching below the band on, up to the first span it
    /// leaves to the caller: past `room` (the lists' end), of a triangle outside the draw
    /// call, or with an index past its vertices.
    ///
    /// # Safety
    ///
    /// As [`pair`]'s, and `pairs.walk` must describe live spans (`room` of them, borrowed
    /// mutably), indices (`triangles` triples) and vertices (`count`). The function follows
    /// the AAPCS: it preserves r4–r11 and sp, and uses 160 bytes of stack.
    #[link_name = "skin_core_walk_v6m"]
    fn walk(pairs: &mut Pairs<'_>);
}

impl<'b> Pairs<'b> {
    /// For a band of `width × rows` pixels from row `y0` over `colours` and `depths`,
    /// drawing in `shades`, the columns `lo .. hi` drawn already; rows past the buffers'
    /// end are left out (a band's buffers hold them all).
    pub(super) fn new(
        (colours, depths): (&'b mut [Rgb565], &'b mut [u16]),
        (width, y0, rows): (u16, u16, u16),
        shades: &'b [Rgb565; 256],
        (lo, hi): (u16, u16),
    ) -> Self {
        let short = colours.len().min(depths.len());
        let rows = match usize::from(width) {
            0 => 0,
            w => usize::from(rows).min(short / w) as u32,
        };
        let (table, highest) = depth::tables();
        let depth = depths.as_mut_ptr();
        Self {
            v: [core::ptr::null(); 3],
            depth,
            off: (colours.as_mut_ptr() as isize).wrapping_sub(depth as isize),
            width: u32::from(width),
            y0: i32::from(y0),
            rows,
            shades: shades.as_ptr().cast::<u16>(),
            table: table.as_ptr(),
            highest: highest.as_ptr(),
            lo: u32::from(lo),
            hi: u32::from(hi),
            walk: Walk {
                spans: core::ptr::null_mut(),
                room: 0,
                fresh: 0,
                carried: 0,
                head: 0,
                tail: 0,
                below: 0,
                indices: core::ptr::null(),
                first: 0,
                triangles: 0,
                vertices: core::ptr::null(),
                count: 0,
            },
            band: PhantomData,
        }
    }

    /// Draws the triangle `v`: its last candidate row when it faces the viewer.
    #[inline(always)]
    pub(super) fn draw(&mut self, v: [&ScreenVertex; 3]) -> Option<i32> {
        self.v = v.map(|v| v as *const ScreenVertex);
        // SAFETY: the vertices are borrowed for the call; the buffers hold `width × rows`
        // pixels (`new` keeps `rows` within them) and are borrowed mutably for `'b`, the tables are
        // `'static` or borrowed for `'b`; the assembly writes only pixels of columns
        // `0 ..= width − 1` and rows `y0 ..= y0 + rows − 1` (the triangle's box clipped to
        // them), reads a colour at an intensity (`u8`), a table entry at a byte and a
        // highest bit at a value below 256.
        let bottom = unsafe { pair(self) };
        (bottom != i32::MIN).then_some(bottom)
    }

    /// Draws the spans of a band's lists as binned drawing does (`bins::Bins::draw`):
    /// `lists` holds the next span of the band's own list and of the carried one, and the
    /// head and tail of the list carried on (those whose bottom row is `below` or further
    /// down), each [`NONE`] when empty; `call` is the draw call being drawn (its triangles'
    /// aligned indices, the first's number in the frame, its vertices). The lists after the
    /// spans drawn, up to the first left to the caller: the lists' end, a span past
    /// `spans`, a triangle of another call or with an index past the call's vertices.
    #[inline(always)]
    pub(super) fn walk(
        &mut self,
        spans: &mut [Span],
        [fresh, carried, head, tail]: [u16; 4],
        below: i32,
        (indices, first, vertices): (&[[u16; 3]], usize, &[ScreenVertex]),
    ) -> [u16; 4] {
        let word = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        self.walk = Walk {
            spans: spans.as_mut_ptr(),
            room: word(spans.len()).min(u32::from(NONE)),
            fresh: u32::from(fresh),
            carried: u32::from(carried),
            head: u32::from(head),
            tail: u32::from(tail),
            below,
            indices: indices.as_ptr(),
            first: word(first),
            triangles: word(indices.len()),
            vertices: vertices.as_ptr(),
            count: word(vertices.len()),
        };
        // SAFETY: as `draw`'s for the band; the spans (`room` at most their length),
        // indices and vertices are borrowed for the call, the spans mutably: the assembly
        // reads a span below `room`, writes the link of one below `room` (a span it read,
        // or the carried list's tail, which the caller took from the lists), reads the
        // indices of a triangle below `triangles` and the vertices below `count` they name.
        unsafe { walk(self) };
        let w = &self.walk;
        // Each a span's place or `NONE` (the assembly stores `u16` values only).
        [w.fresh, w.carried, w.head, w.tail].map(|s| s as u16)
    }

    /// The columns drawn, `lo .. hi`.
    pub(super) fn drawn(&self) -> (u16, u16) {
        (self.lo as u16, self.hi as u16)
    }
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

@ An entry's prologue (r4-r10 saved) and its frame.
    .macro SKIN_FILL_ENTER
    push {{r4-r7, lr}}
    mov r4, r8
    mov r5, r9
    mov r6, r10
    push {{r4-r6}}
    sub sp, #128
    .endm

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

@ The smaller and the larger of \x, \y, \z into r6, r7.
    .macro SKIN_FILL_RANGE x, y, z
    movs r6, \x
    movs r7, \x
    cmp \y, r6
    bge 1f
    movs r6, \y
1:
    cmp \y, r7
    ble 1f
    movs r7, \y
1:
    cmp \z, r6
    bge 1f
    movs r6, \z
1:
    cmp \z, r7
    ble 1f
    movs r7, \z
1:
    @ The first and last pixel centres within: ⌈(min − 8) / 16⌉, ⌊(max − 8) / 16⌋.
    adds r6, #7
    asrs r6, r6, #4
    subs r7, #8
    asrs r7, r7, #4
    .endm

    .global skin_core_pair_v6m
    .type skin_core_pair_v6m, %function
    .thumb_func
skin_core_pair_v6m:
    SKIN_FILL_ENTER
    str r0, [sp, #76]
    @ No span: the triangle's bottom is returned.
    movs r1, #0
    mvns r1, r1
    str r1, [sp, #124]
    ldm r0!, {{r1-r3}}
.Lskin_pair_v6m_vertices:
    @ The vertices a (r1), b (r2), c (r3) wound as p0 = a, p1 = c, p2 = b: the depths.
    ldrh r4, [r1, #4]
    ldrh r5, [r3, #4]
    subs r5, r4
    str r5, [sp, #16]
    ldrh r5, [r2, #4]
    subs r5, r4
    str r5, [sp, #20]
    lsls r4, r4, #15
    movs r5, #1
    lsls r5, r5, #14
    adds r4, r5
    str r4, [sp, #24]
    @ The colour at a's intensity; the colour buffer's place.
    ldrb r4, [r1, #6]
    lsls r4, r4, #1
    ldr r5, [r0, #20]
    ldrh r4, [r5, r4]
    str r4, [sp, #28]
    ldr r4, [r0, #4]
    str r4, [sp, #32]
    @ The coordinates: a (r4, r5), c (r0, r1), b (r3, r2), stored as p0, p1, p2.
    movs r6, #0
    movs r7, #2
    ldrsh r4, [r1, r6]
    ldrsh r5, [r1, r7]
    ldrsh r0, [r3, r6]
    ldrsh r1, [r3, r7]
    ldrsh r3, [r2, r6]
    ldrsh r2, [r2, r7]
    add r6, sp, #80
    stm r6!, {{r4, r5}}
    stm r6!, {{r0, r1}}
    str r3, [r6]
    str r2, [r6, #4]
    @ Twice the signed area (b − a) × (c − a): a front face's is negative; its negation.
    subs r6, r3, r4
    subs r7, r1, r5
    muls r6, r7, r6
    subs r7, r0, r4
    subs r2, r2, r5
    muls r7, r2, r7
    subs r6, r6, r7
    bmi 1f
    b .Lskin_pair_v6m_culled
1:
    rsbs r6, r6, #0
    str r6, [sp, #116]
    @ The columns, clipped to 0 ..= width − 1.
    SKIN_FILL_RANGE r4, r0, r3
    cmp r6, #0
    bge 1f
    movs r6, #0
1:
    ldr r2, [sp, #76]
    ldr r1, [r2, #20]
    subs r1, #1
    cmp r7, r1
    ble 1f
    movs r7, r1
1:
    str r6, [sp, #104]
    str r7, [sp, #112]
    @ The rows, the last kept as the triangle's bottom, clipped to the band's.
    ldr r4, [sp, #84]
    ldr r0, [sp, #92]
    ldr r3, [sp, #100]
    SKIN_FILL_RANGE r4, r0, r3
    str r7, [sp, #108]
    ldr r1, [r2, #24]
    cmp r6, r1
    bge 1f
    movs r6, r1
1:
    ldr r0, [r2, #28]
    adds r0, r1
    subs r0, #1
    cmp r7, r0
    ble 1f
    movs r7, r0
1:
    @ No candidate in the band: its bottom.
    ldr r4, [sp, #104]
    ldr r5, [sp, #112]
    cmp r4, r5
    bgt 2f
    cmp r6, r7
    ble 1f
2:
    b .Lskin_pair_v6m_bottom
1:
    str r6, [sp, #120]
    @ The row's pixels, the first candidate's depth address, the stride, the end.
    subs r5, r5, r4
    adds r5, #1
    str r5, [sp, #36]
    subs r3, r6, r1
    ldr r1, [r2, #20]
    muls r3, r1, r3
    adds r3, r4
    lsls r3, r3, #1
    ldr r0, [r2, #12]
    adds r3, r0
    str r3, [sp, #72]
    lsls r1, r1, #1
    str r1, [sp, #56]
    subs r0, r7, r6
    muls r0, r1, r0
    adds r0, r3
    lsls r5, r5, #1
    adds r0, r5
    str r0, [sp, #40]
    @ The area's shift and reciprocal (`depth::Depth::new`): m = a >> shift below 2^15,
    @ or a << up at least 2^14, then the table's reciprocal and one Newton step.
    ldr r0, [sp, #116]
    movs r1, #0
    movs r3, #0
    lsrs r4, r0, #15
    beq 3f
    lsrs r4, r0, #22
    beq 1f
    lsrs r0, r0, #8
    adds r1, #8
1:
    lsrs r4, r0, #18
    beq 1f
    lsrs r0, r0, #4
    adds r1, #4
1:
    lsrs r4, r0, #16
    beq 1f
    lsrs r0, r0, #2
    adds r1, #2
1:
    lsrs r4, r0, #15
    beq 4f
    lsrs r0, r0, #1
    adds r1, #1
    b 4f
3:
    ldr r5, [r2, #40]
    lsrs r4, r0, #8
    beq 1f
    ldrb r4, [r5, r4]
    adds r4, #8
    b 2f
1:
    ldrb r4, [r5, r0]
2:
    movs r3, #14
    subs r3, r3, r4
    lsls r0, r3
4:
    str r1, [sp, #8]
    lsrs r4, r0, #6
    movs r5, #255
    ands r4, r5
    lsls r4, r4, #1
    ldr r5, [r2, #36]
    ldrh r4, [r5, r4]
    muls r0, r4, r0
    movs r5, #1
    lsls r5, r5, #30
    subs r5, r5, r0
    lsrs r5, r5, #9
    muls r5, r4, r5
    lsrs r5, r5, #21
    adds r5, r4
    lsls r5, r3
    str r5, [sp, #12]
    @ The first candidate's centre, the vertices.
    ldr r6, [sp, #104]
    lsls r6, r6, #4
    adds r6, #8
    ldr r7, [sp, #120]
    lsls r7, r7, #4
    adds r7, #8
    add r5, sp, #80
    b .Lskin_fill_v6m_edges

    .global skin_core_fill_v6m
    .type skin_core_fill_v6m, %function
    .thumb_func
skin_core_fill_v6m:
    SKIN_FILL_ENTER
    @ No pair's job: the function returns whether a pixel was covered.
    movs r1, #0
    str r1, [sp, #76]
    @ The frame's copied part.
    movs r1, r0
    adds r1, #16
    ldm r1!, {{r2-r6}}
    add r7, sp, #8
    stm r7!, {{r2-r6}}
    ldm r1!, {{r2-r6}}
    stm r7!, {{r2-r5}}
    str r6, [sp, #56]
    @ The first row's cursor, the vertices and the centre.
    ldr r3, [r0, #12]
    str r3, [sp, #72]
    ldm r0!, {{r5-r7}}
.Lskin_fill_v6m_edges:
    @ The edges (vertices p1 → p2, p2 → p0, p0 → p1).
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
    b 1f
.Lskin_fill_v6m_done:
    movs r0, #1
1:
    @ A pair's job: the columns drawn widened to the triangle's, and its bottom returned.
    ldr r2, [sp, #76]
    cmp r2, #0
    beq .Lskin_fill_v6m_exit
    cmp r0, #0
    beq .Lskin_pair_v6m_bottom
    ldr r0, [sp, #104]
    ldr r1, [r2, #44]
    cmp r0, r1
    bhs 1f
    str r0, [r2, #44]
1:
    ldr r0, [sp, #112]
    adds r0, #1
    ldr r1, [r2, #48]
    cmp r0, r1
    bls .Lskin_pair_v6m_bottom
    str r0, [r2, #48]
.Lskin_pair_v6m_bottom:
    ldr r0, [sp, #108]
.Lskin_pair_v6m_end:
    @ The walk's span (r1): on to the walk's next; else the bottom returned.
    ldr r1, [sp, #124]
    cmp r1, #0
    bge .Lskin_walk_v6m_drawn
.Lskin_fill_v6m_exit:
    add sp, #128
    pop {{r4-r6}}
    mov r8, r4
    mov r9, r5
    mov r10, r6
    pop {{r4-r7}}
    pop {{r3}}
    bx r3
.Lskin_pair_v6m_culled:
    movs r0, #1
    lsls r0, r0, #31
    b .Lskin_pair_v6m_end

@ The walk (`Pairs::walk`): r7 the pairs (also at sp + 76), with the walk's fields at
@ +52 spans, +56 room, +60 fresh, +64 carried, +68 head, +72 tail, +76 below,
@ +80 indices, +84 first, +88 triangles, +92 vertices, +96 count; the span drawn at
@ sp + 124.
.Lskin_walk_v6m_drawn:
    @ Carried on (appended to head .. tail) when its bottom (r0) is the row below or lower.
    ldr r7, [sp, #76]
    ldr r2, [r7, #76]
    cmp r0, r2
    blt .Lskin_walk_v6m_next
    ldr r2, [r7, #72]
    str r1, [r7, #72]
    ldr r3, [r7, #56]
    cmp r2, r3
    bhs 1f
    ldr r3, [r7, #52]
    lsls r2, r2, #2
    adds r2, #2
    strh r1, [r3, r2]
    b .Lskin_walk_v6m_next
1:
    str r1, [r7, #68]
    b .Lskin_walk_v6m_next

    .global skin_core_walk_v6m
    .type skin_core_walk_v6m, %function
    .thumb_func
skin_core_walk_v6m:
    SKIN_FILL_ENTER
    str r0, [sp, #76]
    movs r7, r0
.Lskin_walk_v6m_next:
    @ The earlier of the two lists' next spans (r0; NONE is past the room), its list's
    @ head at r7 + r2.
    ldr r0, [r7, #64]
    ldr r1, [r7, #60]
    movs r2, #64
    cmp r0, r1
    blo 1f
    movs r0, r1
    movs r2, #60
1:
    ldr r4, [r7, #56]
    cmp r0, r4
    bhs .Lskin_fill_v6m_exit
    @ Its triangle's number in the call (r4), its indices (r1, r6, r4), each within the
    @ call's vertices.
    ldr r3, [r7, #52]
    lsls r4, r0, #2
    adds r3, r3, r4
    ldrh r4, [r3]
    ldr r5, [r7, #84]
    subs r4, r4, r5
    ldr r5, [r7, #88]
    cmp r4, r5
    bhs .Lskin_fill_v6m_exit
    lsls r5, r4, #1
    adds r4, r4, r5
    lsls r4, r4, #1
    ldr r5, [r7, #80]
    adds r4, r4, r5
    ldr r5, [r7, #96]
    ldrh r1, [r4]
    cmp r1, r5
    bhs .Lskin_fill_v6m_exit
    ldrh r6, [r4, #2]
    cmp r6, r5
    bhs .Lskin_fill_v6m_exit
    ldrh r4, [r4, #4]
    cmp r4, r5
    bhs .Lskin_fill_v6m_exit
    @ Taken off its list; the vertices a (r1), b (r2), c (r3), and the pair's set-up.
    ldrh r5, [r3, #2]
    str r5, [r7, r2]
    str r0, [sp, #124]
    ldr r5, [r7, #92]
    lsls r1, r1, #3
    adds r1, r1, r5
    lsls r2, r6, #3
    adds r2, r2, r5
    lsls r3, r4, #3
    adds r3, r3, r5
    movs r0, r7
    adds r0, #12
    b .Lskin_pair_v6m_vertices
    .size skin_core_pair_v6m, . - skin_core_pair_v6m
    .size skin_core_fill_v6m, . - skin_core_fill_v6m
    .size skin_core_walk_v6m, . - skin_core_walk_v6m
    .popsection
"#
);
