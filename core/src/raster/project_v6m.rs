//! The fixed lane's projection and shading loop in ARMv6-M assembly (Cortex-M0, M0+, M1):
//! one of skin-core's `unsafe` modules, selected by the `skin_asm_v6m` flag (`build.rs`).
//!
//! **Why assembly.** The loop's arithmetic is five `MULS` for the camera's rows and three for
//! the Lambert term, but it needs the vertex's three steps, the camera's eleven entries and
//! constants, the light's four and three cursors at once; ARMv6-M's eight low registers hold
//! a fraction of them, and LLVM's Thumb-1 code for the Rust loop kept the cursors and most
//! entries on the stack: 88.6 instructions a vertex on CesiumMan (`docs/BENCHMARKS.md`,
//! "Projection in assembly"). Here the offsets' biases and the rows' roundings live in the
//! six high registers (each an `ADD` from there), the step in a low register, the rest in a
//! frame on the stack, and four vertices share the loop's counting.
//!
//! **What it computes.** Exactly the Rust loop's arithmetic (`camera::short`), operation for
//! operation on `i32` with wrapping: a vertex's biased offsets `d = p + bias` and steps
//! `q = d >> step` (logical); it stops at the first vertex some of whose steps are at or above
//! `2^16` (the same test as `d ≥ 2·SPAN·2^step`, the span being a power of two) or whose
//! depth `(e₃q₀ + e₄q₂ + round₂) >> zshift` is outside `0 ..= 0xFFFF`, and returns how many
//! vertices it wrote; screen x and y are `(e₀q₀ + e₁q₂ + round₀) >> 16` and
//! `(e₂q₁ + round₁) >> 16`; the shade `min(255, (max(0, n·lit) + ambient) >> 20)` with the
//! light and ambient the caller passes. A stopped vertex may be partly written; the caller
//! writes it again on the long path. The frames that the firmware draws with this loop are
//! compared with the host's (the Rust loop) bit for bit by the `firmware_frames` tests, and
//! the firmware benchmark checks it on the device against the per-vertex path (the 32-bit
//! rows, else their 128-bit definition in [`super::steps`]) on chunks of every length up to
//! 40, positions near, at and beyond the span's edges and normals of every sign and length
//! (`firmware/src/project_check.rs`, its `CHECK project-loop` line).
//!
//! **Safety.** The one entry, [`short`], makes the [`Job`] from slices (the count is the
//! shortest of them) and a [`Short`] reference: the assembly reads `count` positions (12
//! bytes each, 4-byte aligned: `LDM`), normals (6 bytes, `LDRSH`) and the `Short` (its
//! `repr(C)` offsets asserted below), writes `count` vertices (8 bytes, `STRH`/`STRB`), and
//! keeps its frame on the stack. Only instructions that ARMv4T's Thumb has as well are used.

#![allow(unsafe_code)]

use super::steps::Short;
use super::ScreenVertex;
use crate::lane::{Out16, Q14};

/// What the assembly reads: the arrays (at least `count` elements each), the camera's 32-bit
/// form, and the shading constants (the light scaled to intensity units in Q20, then the
/// ambient term plus a half, in Q20).
#[repr(C)]
struct Job {
    p: *const [Out16; 3],
    n: *const [Q14; 3],
    out: *mut ScreenVertex,
    count: usize,
    short: *const Short,
    light: [i32; 4],
}

// The layouts the assembly relies on (offsets in it; `Short`'s are asserted in `steps`).
const _: () = {
    use core::mem::{align_of, offset_of, size_of};
    assert!(size_of::<[Out16; 3]>() == 12 && align_of::<[Out16; 3]>() == 4);
    assert!(size_of::<[Q14; 3]>() == 6);
    assert!(size_of::<ScreenVertex>() == 8 && align_of::<ScreenVertex>() == 2);
    assert!(offset_of!(ScreenVertex, x) == 0 && offset_of!(ScreenVertex, y) == 2);
    assert!(offset_of!(ScreenVertex, z) == 4 && offset_of!(ScreenVertex, shade) == 6);
    assert!(size_of::<Job>() == 36 && size_of::<usize>() == 4);
};

extern "C" {
    /// Projects and shades `job.count` vertices up to the first that leaves the 32-bit
    /// path; returns how many it wrote.
    ///
    /// # Safety
    ///
    /// `job` must describe live arrays of at least `job.count` positions (4-byte aligned),
    /// normals and output vertices (writable, aliasing nothing read), and a live `Short`.
    /// The function follows the AAPCS: it preserves r4–r11 and sp, and uses 84 bytes of
    /// stack.
    #[link_name = "skin_core_q14_project_v6m"]
    fn project(job: &Job) -> usize;
}

/// The fixed lane's projection and shading of the vertices that take the 32-bit path, from
/// the first up to one that does not: how many (as the Rust loop on other targets).
pub(super) fn short(
    s: &Short,
    p: &[[Out16; 3]],
    n: &[[Q14; 3]],
    out: &mut [ScreenVertex],
    light: [i32; 4],
) -> usize {
    let count = out.len().min(p.len()).min(n.len());
    let job = Job {
        p: p.as_ptr(),
        n: n.as_ptr(),
        out: out.as_mut_ptr(),
        count,
        short: s,
        light,
    };
    // SAFETY: the arrays hold at least `count` elements each (the shortest slice's length),
    // `out` is borrowed mutably (aliasing nothing), and the types' layouts are asserted
    // above; the function reads and writes nothing else but its stack frame.
    let done = unsafe { project(&job) };
    done.min(count)
}

// Job: +0 p, +4 n, +8 out, +12 count, +16 short, +20 lit0, +24 lit1, +28 lit2, +32 ambient.
// Short: +0 bias0, +4 bias1, +8 bias2, +16 step, +20 e0 .. +36 e4, +40 round0, +44 round1,
// +48 round2, +52 zshift.
//
// Frame (sp): +0 e0, +4 e1, +8 e2, +12 e3, +16 e4, +20 zshift, +24 lit0, +28 lit1, +32 lit2,
// +36 ambient, +40 the end of out, +44 out.
// Registers in the loop: r0 the positions (LDM), r1-r3 a vertex's steps, r4 products,
// r5 step, r6 the normals, r7 out; r8-r10 the biases, r11, r12 and lr the rows' roundings.
core::arch::global_asm!(
    r#"
    .syntax unified
    .thumb
    .pushsection .text.skin_core_q14_project_v6m, "ax", %progbits

@ One vertex: out at r7 + \o, its normal at r6 + \n; to \stop when it leaves the path.
    .macro SKIN_PROJECT_V6M o, n, stop
    ldm r0!, {{r1, r2, r3}}
    add r1, r8
    add r2, r9
    add r3, r10
    lsrs r1, r5
    lsrs r2, r5
    lsrs r3, r5
    @ Screen y's product, then the span: every step below 2^16.
    ldr r4, [sp, #8]
    muls r4, r2, r4
    orrs r2, r1
    orrs r2, r3
    lsrs r2, r2, #16
    bne \stop
    add r4, r12
    asrs r4, r4, #16
    strh r4, [r7, #(\o + 2)]
    @ Screen x.
    ldr r4, [sp, #0]
    muls r4, r1, r4
    ldr r2, [sp, #4]
    muls r2, r3, r2
    adds r4, r2
    add r4, r11
    asrs r4, r4, #16
    strh r4, [r7, #\o]
    @ Depth, within 0 ..= 0xFFFF (r1 is 0 after its test).
    ldr r4, [sp, #12]
    muls r4, r1, r4
    ldr r1, [sp, #16]
    muls r1, r3, r1
    adds r4, r1
    add r4, lr
    ldr r1, [sp, #20]
    asrs r4, r1
    lsrs r1, r4, #16
    bne \stop
    strh r4, [r7, #(\o + 4)]
    @ The shade: the normal's components at r6 + r1.
    .if \n
    movs r1, #\n
    .endif
    ldrsh r2, [r6, r1]
    ldr r3, [sp, #24]
    muls r2, r3, r2
    adds r1, #2
    ldrsh r4, [r6, r1]
    ldr r3, [sp, #28]
    muls r4, r3, r4
    adds r2, r4
    adds r1, #2
    ldrsh r4, [r6, r1]
    ldr r3, [sp, #32]
    muls r4, r3, r4
    adds r2, r4
    bpl 1f
    movs r2, #0
1:
    ldr r3, [sp, #36]
    adds r2, r3
    lsrs r2, r2, #20
    cmp r2, #255
    bls 2f
    movs r2, #255
2:
    strb r2, [r7, #(\o + 6)]
    .endm

    .global skin_core_q14_project_v6m
    .type skin_core_q14_project_v6m, %function
    .thumb_func
skin_core_q14_project_v6m:
    push {{r4-r7, lr}}
    mov r4, r8
    mov r5, r9
    mov r6, r10
    mov r7, r11
    push {{r4-r7}}
    @ The frame, pushed from its top: the end of out and out, the light, the depth shift,
    @ the entries.
    ldr r2, [r0, #8]
    ldr r3, [r0, #12]
    lsls r1, r3, #3
    adds r1, r2
    push {{r1, r2}}
    movs r7, r0
    adds r7, #20
    ldm r7!, {{r1, r2, r3, r4}}
    push {{r1, r2, r3, r4}}
    ldr r7, [r0, #16]
    ldr r1, [r7, #52]
    push {{r1}}
    movs r6, r7
    adds r6, #20
    ldm r6!, {{r1, r2, r3, r4, r5}}
    push {{r1, r2, r3, r4, r5}}
    @ The high registers: the biases and the roundings; the step.
    ldm r7!, {{r1, r2, r3}}
    mov r8, r1
    mov r9, r2
    mov r10, r3
    ldr r5, [r7, #4]
    adds r7, #28
    ldm r7!, {{r1, r2, r3}}
    mov r11, r1
    mov r12, r2
    mov lr, r3
    @ The cursors.
    ldr r3, [r0, #12]
    ldr r7, [r0, #8]
    ldr r6, [r0, #4]
    ldr r0, [r0, #0]
    movs r4, #0
    cmp r3, #0
    bne 7f
    b .Lskin_project_v6m_exit
7:
    @ Four vertices a round; a count of 4k + m (m > 0) starts the first round at its
    @ vertex 4 - m, 4 - m vertices back.
    lsls r2, r3, #30
    beq .Lskin_project_v6m_v0
    lsrs r2, r2, #30
    cmp r2, #2
    blo 8f
    beq 7f
    subs r6, #6
    subs r7, #8
    b .Lskin_project_v6m_v1
7:
    subs r6, #12
    subs r7, #16
    b .Lskin_project_v6m_v2
8:
    subs r6, #18
    subs r7, #24
    b .Lskin_project_v6m_v3
    @ Stopped at a round's vertex r1: near the vertices, for the branches' reach.
.Lskin_project_v6m_s1:
    movs r1, #1
    b .Lskin_project_v6m_stopped
.Lskin_project_v6m_s0:
    movs r1, #0
    b .Lskin_project_v6m_stopped
.Lskin_project_v6m_v0:
    SKIN_PROJECT_V6M 0, 0, .Lskin_project_v6m_s0
.Lskin_project_v6m_v1:
    SKIN_PROJECT_V6M 8, 6, .Lskin_project_v6m_s1
.Lskin_project_v6m_v2:
    SKIN_PROJECT_V6M 16, 12, .Lskin_project_v6m_s2
.Lskin_project_v6m_v3:
    SKIN_PROJECT_V6M 24, 18, .Lskin_project_v6m_s3
    adds r6, #24
    adds r7, #32
    ldr r4, [sp, #40]
    cmp r7, r4
    beq .Lskin_project_v6m_all
    b .Lskin_project_v6m_v0
.Lskin_project_v6m_s2:
    movs r1, #2
    b .Lskin_project_v6m_stopped
.Lskin_project_v6m_s3:
    movs r1, #3
    b .Lskin_project_v6m_stopped
.Lskin_project_v6m_all:
    movs r1, #0
.Lskin_project_v6m_stopped:
    @ (r7 - out) / 8 + r1 vertices written.
    ldr r4, [sp, #44]
    subs r4, r7, r4
    asrs r4, r4, #3
    adds r4, r1
.Lskin_project_v6m_exit:
    movs r0, r4
    add sp, #48
    pop {{r4-r7}}
    mov r8, r4
    mov r9, r5
    mov r10, r6
    mov r11, r7
    pop {{r4-r7}}
    pop {{r3}}
    bx r3
    .size skin_core_q14_project_v6m, . - skin_core_q14_project_v6m
    .popsection
"#
);
