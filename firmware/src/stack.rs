//! Stack high-water mark: [`paint`] fills the free stack with a pattern at boot;
//! [`used`] later finds the deepest word that no longer holds it.
//!
//! cortex-m-rt puts the stack at the top of RAM, growing down towards the end of the
//! static data (`_stack_end`, the end of `.data`, `.bss` and `.uninit`).

/// The pattern free stack words are painted with.
const PAINT: u32 = 0xDEAD_5EED;

extern "C" {
    /// The start of `.data`: the first byte of static RAM (cortex-m-rt's link.x).
    static __sdata: u32;
    /// The lowest address the stack may grow to: the end of static RAM.
    static _stack_end: u32;
    /// The initial stack pointer: the top of RAM.
    static _stack_start: u32;
}

/// The bounds of RAM: (start of static data, end of static data, top of the stack).
fn layout() -> (usize, usize, usize) {
    // Only the addresses of the linker's symbols are taken, never their contents.
    (
        &raw const __sdata as usize,
        &raw const _stack_end as usize,
        &raw const _stack_start as usize,
    )
}

/// Paints every free stack word below the caller's frame (keeping 64 bytes of margin for
/// this function's own frame).
pub fn paint() {
    let (_, bottom, _) = layout();
    let sp = cortex_m::register::msp::read() as usize;
    let mut p = bottom;
    while p + 64 < sp {
        // SAFETY: [bottom, sp − 64) is RAM between the static data and the live stack: no
        // object lives there, and this loop keeps its own state in registers or above sp.
        unsafe { core::ptr::write_volatile(p as *mut u32, PAINT) };
        p += 4;
    }
}

/// Bytes of static RAM (`.data` + `.bss` + `.uninit`).
pub fn static_bytes() -> u32 {
    let (start, end, _) = layout();
    (end - start) as u32
}

/// Bytes between the end of static RAM and the top of RAM: the room the stack has.
pub fn room() -> u32 {
    let (_, bottom, top) = layout();
    (top - bottom) as u32
}

/// The deepest the stack has reached since [`paint`], in bytes below the top of RAM.
pub fn used() -> u32 {
    let (_, bottom, top) = layout();
    let mut p = bottom;
    // SAFETY: reads aligned words of RAM between the static data and the top of RAM.
    while p < top && unsafe { core::ptr::read_volatile(p as *const u32) } == PAINT {
        p += 4;
    }
    (top - p) as u32
}
