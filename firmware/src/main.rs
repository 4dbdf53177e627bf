//! skin on Cortex-M: plays a baked, skinned clip into a 240 × 240 display in bands.
//!
//! Cargo features pick the lane (`f32` or `fixed`), the board and the program:
//!
//! - QEMU boards — `mps2-an386` (Cortex-M4F), `mps2-an385` (Cortex-M3, or Cortex-M0 code
//!   built for `thumbv6m-none-eabi`), `microbit` (Cortex-M0, 16 KiB RAM): the frame loop
//!   renders [`FRAMES`] frames of the asset into host files through semihosting, logs with
//!   defmt over semihosting and leaves QEMU with status 0, or 1 after an error or a panic;
//!   with `bench`, the kernel benchmark runs instead.
//! - `pico` — a Raspberry Pi Pico (RP2040) with a 240 × 240 ST7789 over SPI: the same frame
//!   loop, forever, its second core drawing every other band (`core1.rs`), logging over RTT
//!   (see [`pico`]).
//!
//! The asset is baked at build time (`SKIN_ASSET`, see build.rs); `scripts/firmware.sh`
//! builds, runs and sizes every combination.
#![no_std]
#![no_main]

// The animation and PSD benchmarks run as Cortex-M0 code on the mps2-an385 (the same
// instructions), not on the micro:bit, whose 256 KiB of flash the benchmark fills.
#[cfg(all(feature = "bench", not(feature = "microbit")))]
mod anim_bench;
#[cfg(feature = "bench")]
mod bench;
#[cfg(feature = "bench")]
mod bin_check;
#[cfg(feature = "qemu")]
mod board;
mod clock;
#[cfg(all(feature = "pico", two_cores))]
mod core1;
#[cfg(all(feature = "qemu", not(feature = "bench")))]
mod display;
#[cfg(feature = "bench")]
mod dqs_check;
#[cfg(feature = "bench")]
mod fill_check;
#[cfg(not(feature = "bench"))]
mod frame;
#[cfg(feature = "bench")]
mod morph_bench;
#[cfg(feature = "pico")]
mod pico;
#[cfg(all(feature = "bench", feature = "fixed"))]
mod project_check;
#[cfg(all(feature = "bench", not(feature = "microbit")))]
mod psd_bench;
#[cfg(not(feature = "bench"))]
mod screen;
#[cfg(feature = "pico")]
mod st7789;
mod stack;
#[cfg(feature = "bench")]
mod synthetic;
#[cfg(all(feature = "walk", not(feature = "bench")))]
mod walk;

#[cfg(not(any(feature = "f32", feature = "fixed")))]
compile_error!("pick a lane feature: f32 or fixed");
#[cfg(all(feature = "f32", feature = "fixed"))]
compile_error!("pick one lane feature, not both");
#[cfg(not(any(feature = "qemu", feature = "pico")))]
compile_error!("pick a board feature: mps2-an386, mps2-an385, microbit or pico");
#[cfg(all(feature = "pico", any(feature = "qemu", feature = "bench")))]
compile_error!("the pico feature builds the Pico's frame loop alone: no QEMU board, no bench");

/// The lane this build skins in.
#[cfg(feature = "fixed")]
type Lane = skin_core::lane::Q14;
/// The lane this build skins in.
#[cfg(all(feature = "f32", not(feature = "fixed")))]
type Lane = f32;

/// Bytes aligned to 4: `include_bytes!` alone gives 1-byte alignment, and the fixed lane's
/// assembly kernels read an asset's vertex records in place only when they are 2-byte
/// aligned (else each chunk is copied first: the same frame, more instructions). The asset
/// format keeps its sections 4-byte aligned within the file, so a 4-aligned start aligns
/// them all.
#[cfg(not(feature = "bench"))]
#[repr(C, align(4))]
struct Aligned<B: ?Sized>(B);

/// The baked asset (`SKIN_ASSET` at build time).
#[cfg(not(feature = "bench"))]
static ASSET: &Aligned<[u8]> = &Aligned(*include_bytes!(concat!(env!("OUT_DIR"), "/asset.bin")));

/// Frames rendered under QEMU, spread evenly over one loop of the clip.
#[cfg(all(feature = "qemu", not(feature = "bench")))]
pub const FRAMES: u32 = 4;

#[cfg(feature = "pico")]
use defmt_rtt as _;
#[cfg(feature = "qemu")]
use defmt_semihosting as _;

#[cfg(feature = "qemu")]
#[cortex_m_rt::entry]
fn main() -> ! {
    stack::paint();
    let Some(peripherals) = cortex_m::Peripherals::take() else {
        defmt::error!("core peripherals already taken");
        board::exit(false)
    };
    let mut clock = clock::Clock::new(peripherals.SYST);
    let ok = program(&mut clock);
    defmt::info!("DONE {=str}", if ok { "ok" } else { "failed" });
    board::exit(ok)
}

/// The kernel benchmark.
#[cfg(feature = "bench")]
fn program(clock: &mut clock::Clock) -> bool {
    let ok = match bench::run::<Lane>(clock) {
        Ok(ok) => ok,
        Err(e) => {
            defmt::error!("error: {}", e);
            false
        }
    };
    // The benchmark's buffers all live on the stack: its high-water mark is its RAM.
    defmt::info!(
        "MEMORY static_ram={=u32} stack_used={=u32} stack_room={=u32}",
        stack::static_bytes(),
        stack::used(),
        stack::room()
    );
    ok
}

/// The frame loop, into frame files.
#[cfg(all(feature = "qemu", not(feature = "bench")))]
fn program(clock: &mut clock::Clock) -> bool {
    let board = frame::Board {
        name: board::NAME,
        core: board::CORE,
        counts: frame::Counts::Instructions,
    };
    let mut files = display::FrameFiles::new(frame::WIDTH, frame::HEIGHT);
    let played = frame::play::<Lane, _>(&ASSET.0, &board, &mut files, clock, |scene, k| {
        (k < FRAMES).then(|| scene.frame_time(k, FRAMES))
    });
    match played {
        Ok(n) if n == FRAMES && files.complete() == n => true,
        Ok(n) => {
            defmt::error!("{=u32} frames played, {=u32} written", n, files.complete());
            false
        }
        Err(e) => {
            defmt::error!("error: {}", defmt::Display2Format(&e));
            false
        }
    }
}

#[cfg(feature = "qemu")]
#[panic_handler]
fn panic(info: &core::panic::PanicInfo) -> ! {
    defmt::error!("panic: {}", defmt::Display2Format(info));
    board::exit(false)
}
