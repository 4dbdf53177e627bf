//! skin on Cortex-M under QEMU: the kernel benchmark.
//!
//! Cargo features pick the lane (`f32` or `fixed`) and the board (`mps2-an386` Cortex-M4F,
//! `mps2-an385` Cortex-M3, `microbit` Cortex-M0); `scripts/firmware.sh` builds and runs every
//! combination. The program logs with defmt over semihosting and leaves QEMU with status 0,
//! or 1 after a failed check, an error or a panic.
//!
//! Modules: [`board`] (machine, stopwatch, exit), [`synthetic`] (the benchmark rig, shared
//! with the host test), [`bench`] (measure and log). A frame loop (play a baked clip, skin,
//! rasterise into the display in bands) slots in beside `bench` once the asset reader and
//! rasteriser exist in skin-core.
#![no_std]
#![no_main]

mod bench;
mod board;
mod synthetic;

use defmt_semihosting as _;

#[cfg(not(any(feature = "f32", feature = "fixed")))]
compile_error!("pick a lane feature: f32 or fixed");
#[cfg(all(feature = "f32", feature = "fixed"))]
compile_error!("pick one lane feature, not both");

/// The lane this build skins in.
#[cfg(feature = "fixed")]
type Lane = skin_core::lane::Q14;
/// The lane this build skins in.
#[cfg(all(feature = "f32", not(feature = "fixed")))]
type Lane = f32;

#[cortex_m_rt::entry]
fn main() -> ! {
    let Some(peripherals) = cortex_m::Peripherals::take() else {
        defmt::error!("core peripherals already taken");
        board::exit(false)
    };
    let mut clock = board::Clock::new(peripherals.SYST);
    let ok = match bench::run::<Lane>(&mut clock) {
        Ok(ok) => ok,
        Err(e) => {
            defmt::error!("error: {}", e);
            false
        }
    };
    defmt::info!("DONE {=str}", if ok { "ok" } else { "failed" });
    board::exit(ok)
}

#[panic_handler]
fn panic(info: &core::panic::PanicInfo) -> ! {
    defmt::error!("panic: {}", defmt::Display2Format(info));
    board::exit(false)
}
