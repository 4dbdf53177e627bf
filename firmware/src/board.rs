//! The QEMU boards: which machine the build targets, and leaving QEMU.
//!
//! A board is picked by a cargo feature (`mps2-an386`, `mps2-an385`, `microbit`); build.rs
//! links its memory map. The Raspberry Pi Pico lives in [`crate::pico`].

use cortex_m_semihosting::debug;

#[cfg(feature = "bench")]
pub use crate::clock::Clock;

/// The board's name, as logged.
#[cfg(feature = "mps2-an386")]
pub const NAME: &str = "mps2-an386";
/// The board's name, as logged.
#[cfg(feature = "mps2-an385")]
pub const NAME: &str = "mps2-an385";
/// The board's name, as logged.
#[cfg(feature = "microbit")]
pub const NAME: &str = "microbit";

/// The CPU core, as logged (the code may be for an older core: the `ASSET` line names the
/// target triple; `thumbv6m-none-eabi` on the mps2-an385 runs Cortex-M0 code on the M3).
#[cfg(feature = "mps2-an386")]
pub const CORE: &str = "cortex-m4f";
/// The CPU core, as logged.
#[cfg(feature = "mps2-an385")]
pub const CORE: &str = "cortex-m3";
/// The CPU core, as logged.
#[cfg(feature = "microbit")]
pub const CORE: &str = "cortex-m0";

#[cfg(feature = "bench")]
impl crate::synthetic::Stopwatch for Clock {
    fn time<R>(&mut self, f: impl FnOnce() -> R) -> R {
        Clock::time(self, f)
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
