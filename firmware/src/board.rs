//! The board: which QEMU machine the build targets, its SysTick stopwatch, and leaving QEMU.
//!
//! A board is picked by a cargo feature (`mps2-an386`, `mps2-an385`, `microbit`); build.rs
//! links its memory map. Later boards (an RP2040 with an ST7789 display) add their display
//! and clocks here; the frame loop stays board-independent.

use core::sync::atomic::{compiler_fence, Ordering};

use cortex_m::peripheral::syst::SystClkSource;
use cortex_m::peripheral::SYST;
use cortex_m_semihosting::debug;

use crate::synthetic::Stopwatch;

#[cfg(not(any(feature = "mps2-an386", feature = "mps2-an385", feature = "microbit")))]
compile_error!("pick a board feature: mps2-an386, mps2-an385 or microbit");

/// The board's name, as logged.
#[cfg(feature = "mps2-an386")]
pub const NAME: &str = "mps2-an386";
/// The board's name, as logged.
#[cfg(feature = "mps2-an385")]
pub const NAME: &str = "mps2-an385";
/// The board's name, as logged.
#[cfg(feature = "microbit")]
pub const NAME: &str = "microbit";

/// The CPU core, as logged.
#[cfg(feature = "mps2-an386")]
pub const CORE: &str = "cortex-m4f";
/// The CPU core, as logged.
#[cfg(feature = "mps2-an385")]
pub const CORE: &str = "cortex-m3";
/// The CPU core, as logged.
#[cfg(feature = "microbit")]
pub const CORE: &str = "cortex-m0";

/// SysTick counts down from this (its 24-bit maximum).
const RELOAD: u32 = 0x00FF_FFFF;

/// A stopwatch on SysTick, clocked by the core clock. Under `qemu -icount shift=0` time
/// advances one nanosecond per instruction, so ticks count instructions (40 per tick on the
/// 25 MHz mps2 boards, 62.5 on the 16 MHz micro:bit; [`Clock::calibrate`] measures it).
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

impl Stopwatch for Clock {
    fn time<R>(&mut self, f: impl FnOnce() -> R) -> R {
        let start = self.now();
        let r = f();
        let end = self.now();
        // At most one wrap per call: every timed call is far below 2^24 ticks.
        self.ticks += u64::from(start.wrapping_sub(end) & RELOAD);
        self.calls += 1;
        r
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

/// Leaves QEMU through semihosting with status 0 (`ok`) or 1.
pub fn exit(ok: bool) -> ! {
    debug::exit(if ok {
        debug::EXIT_SUCCESS
    } else {
        debug::EXIT_FAILURE
    });
    // Only reached without a debugger/semihosting host.
    loop {
        cortex_m::asm::wfi();
    }
}
