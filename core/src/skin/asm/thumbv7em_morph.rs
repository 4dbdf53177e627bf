//! The fixed lane's morph loop for cores with the DSP extension (ARMv7E-M): a span of a
//! target's entries added to a chunk's coordinates, `c += (w·q + 2ᵉ⁻¹) >> e` per coordinate
//! ([`MorphLane::nudge_quantised`] on `I2F14`), the sum wrapped to 16 bits as the Rust
//! loop's `as i16`.
//!
//! **Two coordinates an instruction where it counts.** The weight is scaled once a span so
//! that each rounded step lands in the top half of a 32-bit sum: with `A = w·2³²⁻ᵉ` (for
//! `e ≥ 16`, where it fits 32 bits) `SMLAW<y>` gives `2¹⁵ + ⌊A·q / 2¹⁶⌋`, whose top half is
//! `⌊(w·q + 2ᵉ⁻¹) / 2ᵉ⌋` exactly; for `e < 16`, `MLA` with `W = w·2¹⁶⁻ᵉ` and the
//! sign-extended `q` gives `2¹⁵ + W·q`, the same top half (both modulo 2¹⁶, which is all the
//! 16-bit coordinate keeps). The steps of `c₀` and `c₁` are packed into one word by `PKHTB`
//! and added to the coordinates' word by one `SADD16` (two 16-bit sums, each wrapped as the
//! Rust loop's); `c₂` takes an `ADD` of the top half.
//!
//! **Bounds.** Each entry's vertex `v` is checked (`v − start < len`, unsigned) before its
//! coordinates are touched, as the Rust loop's `get_mut`: an entry outside the chunk is
//! skipped, whatever the entries hold.
//!
//! [`MorphLane::nudge_quantised`]: crate::morph::MorphLane::nudge_quantised

use crate::lane::Q14;

/// What the kernel reads (`repr(C)`: by offset).
#[repr(C)]
struct Span {
    /// The chunk's coordinates (`[Q14; 3]`, 2-byte aligned).
    coords: *mut [Q14; 3],
    /// The entries' vertices, and the end of them.
    vertices: *const u16,
    end: *const u16,
    /// The entries' deltas (`[i16; 3]`, one per vertex).
    deltas: *const [Q14; 3],
    /// The chunk's first vertex and its length.
    start: u32,
    len: u32,
    /// `A` or `W` (module docs).
    scale: i32,
    /// Non-zero for `e < 16` (`W` and `MLA`).
    wide: u32,
}

const _: () = assert!(core::mem::size_of::<Span>() == 32);

/// `coords[v − start] += s·q` (the fixed lane's rounded step, `s = (w, e)`) for each
/// entry: vertex `vertices[i]` and delta `deltas[i]`, entries whose vertex is outside
/// `start..start + coords.len()` skipped.
pub(crate) fn nudge_q14(
    coords: &mut [[Q14; 3]],
    start: usize,
    vertices: &[u16],
    deltas: &[[Q14; 3]],
    (w, e): (i32, u32),
) {
    let count = vertices.len().min(deltas.len());
    // `usize` is 32 bits on these targets (asserted with `Job`'s layout): exact.
    let (start, len) = (start as u32, coords.len() as u32);
    let (scale, wide) = if e >= 16 {
        (w.wrapping_shl(32 - e), 0)
    } else {
        (w.wrapping_shl(16 - e), 1)
    };
    let span = Span {
        coords: coords.as_mut_ptr(),
        vertices: vertices.as_ptr(),
        end: vertices[..count].as_ptr_range().end,
        deltas: deltas.as_ptr(),
        start,
        len,
        scale,
        wide,
    };
    // SAFETY: `span` describes live slices: `count` vertices and deltas (no more than their
    // lengths) and `len` coordinates, borrowed mutably (aliasing nothing the kernel reads);
    // the kernel writes coordinate `v − start` only when it is below `len`. Its own contract
    // (registers, stack, unaligned loads) is stated on its declaration.
    unsafe { nudge(&span) }
}

/// The loop over `span`'s entries.
///
/// # Safety
///
/// `span` must describe live arrays: the vertices from `vertices` to `end`, as many deltas,
/// and `len` writable coordinates aliasing nothing read. The core must allow unaligned word
/// loads and stores (the ARMv7-M default, `CCR.UNALIGN_TRP` clear): coordinates and deltas
/// are 2-byte aligned.
#[inline(never)]
unsafe fn nudge(span: &Span) {
    // SAFETY: the caller's contract covers every access; the block declares every register
    // it changes (r0-r5, r8-r12, lr, the flags) but r6 and r7, which it saves and restores
    // itself, and leaves sp as it found it. Labels are numeric (local).
    unsafe {
        core::arch::asm!(
            r#"
    push {{r6, r7}}
    @ r0 = vertices, r1 = end, r2 = start, r3 = len, r4 = coords, r5 = deltas, r6 = A or W,
    @ r7 = 2^15; per entry r8 = the vertex's coordinates, r9 = (c0, c1), r10 = c2,
    @ r11 = (q0, q1), r12 = q2, lr = the packed steps.
    ldr r8, [r0, #28]
    ldr r4, [r0, #0]
    ldr r5, [r0, #12]
    ldrd r2, r3, [r0, #16]
    ldr r6, [r0, #24]
    ldrd r0, r1, [r0, #4]
    mov r7, #0x8000
    cmp r0, r1
    beq 9f
    cmp r8, #0
    bne 5f
1:  ldrh r8, [r0], #2
    sub r8, r8, r2
    cmp r8, r3
    bhs 3f
    add r8, r8, r8, lsl #1
    add r8, r4, r8, lsl #1
    ldr r9, [r8]
    ldrh r10, [r8, #4]
    ldrh r12, [r5, #4]
    ldr r11, [r5], #6
    smlawb lr, r6, r11, r7
    smlawt r11, r6, r11, r7
    pkhtb lr, r11, lr, asr #16
    sadd16 r9, r9, lr
    smlawb r12, r6, r12, r7
    add r10, r10, r12, asr #16
    str r9, [r8]
    strh r10, [r8, #4]
2:  cmp r0, r1
    bne 1b
    b 9f
3:  add r5, r5, #6
    b 2b
5:  ldrh r8, [r0], #2
    sub r8, r8, r2
    cmp r8, r3
    bhs 7f
    add r8, r8, r8, lsl #1
    add r8, r4, r8, lsl #1
    ldr r9, [r8]
    ldrh r10, [r8, #4]
    ldrsh r12, [r5, #4]
    ldr r11, [r5], #6
    sxth lr, r11
    mla lr, r6, lr, r7
    asr r11, r11, #16
    mla r11, r6, r11, r7
    pkhtb lr, r11, lr, asr #16
    sadd16 r9, r9, lr
    mla r12, r6, r12, r7
    add r10, r10, r12, asr #16
    str r9, [r8]
    strh r10, [r8, #4]
6:  cmp r0, r1
    bne 5b
    b 9f
7:  add r5, r5, #6
    b 6b
9:  pop {{r6, r7}}
"#,
            inout("r0") core::ptr::from_ref(span) => _,
            out("r1") _, out("r2") _, out("r3") _, out("r4") _, out("r5") _,
            out("r8") _, out("r9") _, out("r10") _, out("r11") _, out("r12") _,
            out("lr") _,
        );
    }
}
