//! A stopwatch on SysTick, which every Cortex-M core has.
//!
//! Under `qemu -icount shift=0` time advances one nanosecond per instruction, so ticks count
//! instructions (40 per tick on the 25 MHz mps2 boards, 62.5 on the 16 MHz micro:bit;
//! [`Clock::calibrate`] measures it). On a real board ticks are core clock cycles.

use core::sync::atomic::{compiler_fence, Ordering};

use cortex_m::peripheral::syst::SystClkSource;
use cortex_m::peripheral::SYST;

/// SysTick counts down from this (its 24-bit maximum).
const RELOAD: u32 = 0x00FF_FFFF;

/// Accumulates SysTick ticks over timed calls.
pub struct Clock {
    ticks: u64,
    calls: u32,
}

impl Clock {
    /// Starts SysTick free-running from the core clock (taking the peripheral, so nothing
    /// else reprograms it).
    pub fn new(mut syst: SYST) -> Self {
        syst.disable_interrupt();
        syst.set_clock_source(SystClkSource::Core);
        syst.set_reload(RELOAD);
        syst.clear_current();
        syst.enable_counter();
        Self { ticks: 0, calls: 0 }
    }

    /// Runs `f`, adding its ticks to the running total. Every timed call must stay below
    /// 2^24 ticks (one SysTick wrap): 671 million instructions under QEMU's mps2 clock.
    pub fn time<R>(&mut self, f: impl FnOnce() -> R) -> R {
        let start = self.now();
        let r = f();
        let end = self.now();
        self.ticks += u64::from(start.wrapping_sub(end) & RELOAD);
        self.calls += 1;
        r
    }

    /// Ticks and timed calls since the last `take`, and resets both.
    pub fn take(&mut self) -> (u64, u32) {
        let r = (self.ticks, self.calls);
        self.ticks = 0;
        self.calls = 0;
        r
    }

    /// Measures instructions per SysTick tick: times a two-instruction loop run for two
    /// iteration counts and divides the instruction difference by the tick difference
    /// (which cancels the cost of starting and stopping). Returns (instructions, ticks).
    pub fn calibrate(&mut self) -> (u64, u64) {
        const SHORT: u32 = 100_000;
        const LONG: u32 = 1_100_000;
        self.take();
        self.time(|| spin(SHORT));
        let (short, _) = self.take();
        self.time(|| spin(LONG));
        let (long, _) = self.take();
        (2 * u64::from(LONG - SHORT), long - short)
    }

    /// The counter's current value (it counts down).
    fn now(&self) -> u32 {
        compiler_fence(Ordering::SeqCst);
        let v = SYST::get_current();
        compiler_fence(Ordering::SeqCst);
        v
    }
}

/// Exactly `2 · n` instructions: `subs` and a taken `bne` per iteration (the last not taken).
fn spin(n: u32) {
    // SAFETY: register-only loop; touches no memory and clobbers only r0 and the flags.
    unsafe {
        core::arch::asm!(
            "2:",
            "subs r0, #1",
            "bne 2b",
            inout("r0") n => _,
            options(nomem, nostack),
        );
    }
}
