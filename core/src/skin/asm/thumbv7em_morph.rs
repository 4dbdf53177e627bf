//! The fixed lane's morph loop for cores with the DSP extension (ARMv7E-M): a part's
//! records of moved vertices (the asset's morph runs: per vertex a head, then an entry per
//! target moving it) applied to a chunk's positions and normals, bit for bit the scene's
//! Rust loop ([`MorphLane::add_quantised`] on `I2F14`).
//!
//! **Vertex-major.** Each moved vertex's six coordinates are loaded and stored once; in
//! between, each entry costs 12 instructions: one `LDM` of its four words (`(p₀, p₁)`,
//! `(p₂, n₀)`, `(n₁, n₂)`, `(flags, target)`), the address of its target's steps in the
//! table (`ADD` of `target·8`: the word's top half shifted right by 13, the flag bit falling
//! below the table's 8-byte stride), `LDRD` of the steps `A` (positions) and `A'` (normals),
//! `CBZ` past an inactive target (`A = 0`), six `SMLAW<y>` — each adds
//! `⌊A·q / 2¹⁶⌋` of one 16-bit delta to one of six 32-bit sums — and the loop, `LSRS` of the
//! last-entry flag into the carry and `BCC`. The sums start at `2¹²` (half a step of the
//! lane, [`SUM_FRACTION`] = 13 bits below it), so `sum >> 13` is the rounded move of a
//! coordinate; `ASR` and `PKHBT … LSL #3` pack the moves of `c₀`, `c₁` into one word and
//! one `SADD16` adds them (each half wrapped as the Rust loop's `as i16`), `c₂` takes an
//! `ADD … ASR #13`.
//!
//! **Bounds.** Each record's vertex `v` is checked (`v − start < len`, unsigned) before its
//! coordinates are touched; the loop stops at the first record outside the chunk (the next
//! chunk resumes there) and at the run's end. Entries are trusted to be as the asset reader
//! checked them: each record's last entry flagged, targets below the set's (the table's
//! length).
//!
//! [`MorphLane::add_quantised`]: crate::morph::MorphLane::add_quantised
//! [`SUM_FRACTION`]: crate::morph::quantised::SUM_FRACTION

use crate::lane::Q14;
use crate::morph::MorphLane;

/// Targets a set may have for the table (more: the Rust loop plays the part).
pub(crate) const TABLE_TARGETS: usize = 32;

/// Every target of a set: its position and normal steps `A` (0 for an inactive target).
#[derive(Clone, Copy, Debug)]
pub(crate) struct MorphTable {
    steps: [[i32; 2]; TABLE_TARGETS],
}

impl MorphTable {
    /// The table of a set of `targets` targets, `active` (target within the set, position
    /// and normal steps) the active ones; `None` when the set has more targets than the
    /// table holds, when `run` is not word-aligned (the loop's `LDM` needs it; the firmware
    /// embeds its asset 4-byte aligned) or outside the fixed lane.
    pub(crate) fn new<L: MorphLane>(
        run: &[u8],
        targets: usize,
        active: &[(usize, L::Step, L::Step)],
    ) -> Option<Self> {
        if targets > TABLE_TARGETS || run.as_ptr().align_offset(4) != 0 {
            return None;
        }
        let mut steps = [[0; 2]; TABLE_TARGETS];
        for &(t, p, n) in active {
            *steps.get_mut(t)? = [L::fixed_step(p)?, L::fixed_step(n)?];
        }
        Some(Self { steps })
    }
}

/// What the kernel reads (`repr(C)`: by offset); it writes back `records`.
#[repr(C)]
struct Run {
    /// The next record (word-aligned), and the end of the part's records.
    records: *const u32,
    end: *const u32,
    /// The chunk's positions and normals (`[Q14; 3]`, 2-byte aligned; normals null when
    /// none are moved).
    positions: *mut [Q14; 3],
    normals: *mut [Q14; 3],
    /// The chunk's first vertex and its length.
    start: u32,
    len: u32,
    /// The steps, two words a target.
    table: *const [i32; 2],
}

const _: () = assert!(core::mem::size_of::<Run>() == 28);

/// The records of `run` (a part's morph run from a read asset, from a record's start)
/// whose vertex `v` lies in `start..start + positions.len()`, from the first until one
/// that does not: `positions[v − start]` and `normals[v − start]` (as long as `positions`)
/// moved by their entries' steps in `table`; the records after them.
pub(crate) fn morph_q14<'a>(
    run: &'a [u8],
    start: usize,
    positions: &mut [[Q14; 3]],
    normals: Option<&mut [[Q14; 3]]>,
    table: &MorphTable,
) -> &'a [u8] {
    let len = normals
        .as_ref()
        .map_or(positions.len(), |n| n.len().min(positions.len()));
    let range = run.as_ptr_range();
    // `usize` is 32 bits on these targets (asserted with `Job`'s layout): exact.
    let mut r = Run {
        records: range.start.cast(),
        end: range.end.cast(),
        positions: positions.as_mut_ptr(),
        normals: normals.map_or(core::ptr::null_mut(), |n| n.as_mut_ptr()),
        start: start as u32,
        len: len as u32,
        table: table.steps.as_ptr(),
    };
    // SAFETY: `r` describes live memory: `run`'s bytes (word-aligned: `MorphTable::new`
    // checked it), read only, and `len` writable positions (and normals) aliasing nothing
    // read; the asset reader checked that `run` is whole records, each with its last entry
    // flagged and every target below the set's count, which `MorphTable::new` checked is
    // within the table. The kernel writes coordinate `v − start` only when it is below
    // `len`. Its own contract (registers, stack, unaligned loads) is on its declaration.
    unsafe { morph(&mut r) };
    let done = (r.records as usize).wrapping_sub(range.start as usize);
    run.get(done..).unwrap_or(&[])
}

/// The loop over `r`'s records; leaves in `r.records` the first record it did not apply.
///
/// # Safety
///
/// `r` must describe live memory: records from `records` to `end` (word-aligned), whole
/// and as the asset reader checks them (every record's last entry flagged, every target
/// within `table`), `len` writable positions (and normals, unless null) aliasing nothing
/// read. The core must allow unaligned word loads and stores (the ARMv7-M default,
/// `CCR.UNALIGN_TRP` clear): coordinates are 2-byte aligned.
#[inline(never)]
unsafe fn morph(r: &mut Run) {
    // SAFETY: the caller's contract covers every access; the block declares every register
    // it changes (r0-r5, r8-r12, lr, the flags) but r6 and r7, which it saves and restores
    // itself, and leaves sp as it found it. Labels are numeric (local).
    unsafe {
        core::arch::asm!(
            r#"
    push {{r0, r1, r6, r7}}
    @ [sp] = run, [sp, #4] = the vertex within the chunk. Per vertex: r1 = the record,
    @ r2 = the table, r3-r5 = the position sums, r6-r8 = the normal sums; per entry
    @ r9-r12 = its words, r0 = A, lr = A'.
    ldr r1, [r0, #0]
1:  ldr r0, [sp]
    ldr r2, [r0, #4]
    cmp r1, r2
    bhs 8f
    ldr r9, [r1], #4
    ldrd r10, r11, [r0, #16]
    uxth r9, r9
    sub r9, r9, r10
    cmp r9, r11
    bhs 7f
    str r9, [sp, #4]
    ldr r2, [r0, #24]
    mov r3, #0x1000
    mov r4, r3
    mov r5, r3
    mov r6, r3
    mov r7, r3
    mov r8, r3
2:  ldm r1!, {{r9, r10, r11, r12}}
    add r0, r2, r12, lsr #13
    ldrd r0, lr, [r0]
    cbz r0, 3f
    smlawb r3, r0, r9, r3
    smlawt r4, r0, r9, r4
    smlawb r5, r0, r10, r5
    smlawt r6, lr, r10, r6
    smlawb r7, lr, r11, r7
    smlawt r8, lr, r11, r8
3:  lsrs r12, r12, #1
    bcc 2b
    ldr r0, [sp]
    ldr r9, [sp, #4]
    ldr r10, [r0, #8]
    add r9, r9, r9, lsl #1
    add r10, r10, r9, lsl #1
    ldr r11, [r10]
    ldrh r12, [r10, #4]
    asr r3, r3, #13
    pkhbt r3, r3, r4, lsl #3
    sadd16 r11, r11, r3
    add r12, r12, r5, asr #13
    str r11, [r10]
    strh r12, [r10, #4]
    ldr r10, [r0, #12]
    cmp r10, #0
    beq 1b
    add r10, r10, r9, lsl #1
    ldr r11, [r10]
    ldrh r12, [r10, #4]
    asr r6, r6, #13
    pkhbt r6, r6, r7, lsl #3
    sadd16 r11, r11, r6
    add r12, r12, r8, asr #13
    str r11, [r10]
    strh r12, [r10, #4]
    b 1b
7:  sub r1, r1, #4
8:  str r1, [r0, #0]
    pop {{r0, r1, r6, r7}}
"#,
            inout("r0") core::ptr::from_mut(r) => _,
            out("r1") _, out("r2") _, out("r3") _, out("r4") _, out("r5") _,
            out("r8") _, out("r9") _, out("r10") _, out("r11") _, out("r12") _,
            out("lr") _,
        );
    }
}
