//! The Raspberry Pi Pico (RP2040, two Cortex-M0+ cores at 125 MHz) with a 240 × 240 ST7789
//! display on SPI, initialised by `mipidsi` and then written by DMA, a band at a time while
//! the next is drawn ([`st7789`]): the same frame loop as under QEMU, forever, the clip timed
//! by the RP2040's microsecond timer, with the second core drawing every other band
//! (`core1`: when both cores' band buffers fit the RAM, build.rs's cfg `two_cores`; else
//! core 0 draws them all); defmt logs over RTT (`probe-rs run`), from core 0 only.
//!
//! Wiring (Waveshare Pico-LCD-1.3, which plugs onto the Pico; any ST7789 240 × 240 module
//! wired the same way works): SPI1 SCK GP10, MOSI GP11, CS GP9, DC GP8, RST GP12,
//! backlight GP13.

use embedded_hal_bus::spi::ExclusiveDevice;
use mipidsi::interface::SpiInterface;
use mipidsi::models::ST7789;
use mipidsi::options::ColorInversion;
use rp2040_hal::clocks::{init_clocks_and_plls, Clock as _};
use rp2040_hal::dma::DMAExt;
use rp2040_hal::fugit::RateExtU32;
use rp2040_hal::gpio::{FunctionSpi, Pins};
use rp2040_hal::sio::CoreId;
use rp2040_hal::{pac, Sio, Spi, Timer, Watchdog};

use crate::clock::Clock;
use crate::{frame, st7789, stack, Lane, ASSET};

/// The second-stage bootloader for the Pico's W25Q080 flash: the boot ROM runs these 256
/// bytes (memory/pico.x puts them at the start of flash).
#[link_section = ".boot2"]
#[used]
pub static BOOT2_FIRMWARE: [u8; 256] = rp2040_boot2::BOOT_LOADER_W25Q080;

/// The Pico's crystal.
const XTAL_HZ: u32 = 12_000_000;
/// SPI clock: the ST7789's fastest write clock (62.5 MHz is the peripheral clock halved).
const SPI_HZ: u32 = 62_500_000;
/// Frames per pass of the frame loop (each pass re-reads the asset and logs `MEMORY`).
const FRAMES_PER_PASS: u32 = 300;

#[rp2040_hal::entry]
fn main() -> ! {
    stack::paint();
    match run() {
        Ok(never) => match never {},
        Err(why) => {
            defmt::error!("{=str}", why);
            halt()
        }
    }
}

/// Sets up the board and plays the asset forever; returns only why it could not.
fn run() -> Result<core::convert::Infallible, &'static str> {
    let mut pac = pac::Peripherals::take().ok_or("peripherals already taken")?;
    let core = pac::CorePeripherals::take().ok_or("core peripherals already taken")?;
    let mut watchdog = Watchdog::new(pac.WATCHDOG);
    let clocks = init_clocks_and_plls(
        XTAL_HZ,
        pac.XOSC,
        pac.CLOCKS,
        pac.PLL_SYS,
        pac.PLL_USB,
        &mut pac.RESETS,
        &mut watchdog,
    )
    .map_err(|_| "clocks did not start")?;
    let timer = Timer::new(pac.TIMER, &mut pac.RESETS, &clocks);
    let sio = Sio::new(pac.SIO);
    let pins = Pins::new(
        pac.IO_BANK0,
        pac.PADS_BANK0,
        sio.gpio_bank0,
        &mut pac.RESETS,
    );

    let sck = pins.gpio10.into_function::<FunctionSpi>();
    let mosi = pins.gpio11.into_function::<FunctionSpi>();
    let mut spi = Spi::<_, _, _, 8>::new(pac.SPI1, (mosi, sck)).init(
        &mut pac.RESETS,
        clocks.peripheral_clock.freq(),
        SPI_HZ.Hz(),
        embedded_hal::spi::MODE_0,
    );
    let mut cs = pins.gpio9.into_push_pull_output();
    let mut dc = pins.gpio8.into_push_pull_output();
    let rst = pins.gpio12.into_push_pull_output();
    let mut backlight = pins.gpio13.into_push_pull_output();
    {
        // `mipidsi` initialises the panel over the borrowed bus and pins; dropped, it gives
        // them back to the DMA path.
        let device = ExclusiveDevice::new(&mut spi, &mut cs, timer).map_err(|_| "chip select")?;
        let mut buffer = [0u8; 512];
        let interface = SpiInterface::new(device, &mut dc, &mut buffer);
        let mut delay = timer;
        mipidsi::Builder::new(ST7789, interface)
            .display_size(frame::WIDTH, frame::HEIGHT)
            .invert_colors(ColorInversion::Inverted)
            .reset_pin(rst)
            .init(&mut delay)
            .map_err(|_| "the ST7789 did not initialise")?;
    }
    let dma = pac.DMA.split(&mut pac.RESETS);
    // Two band buffers for core 0's bands (and below, two for core 1's).
    let buffers = [
        cortex_m::singleton!(: [u8; st7789::BAND] = [0; st7789::BAND]),
        cortex_m::singleton!(: [u8; st7789::BAND] = [0; st7789::BAND]),
    ];
    let [Some(a), Some(b)] = buffers else {
        return Err("band buffers already taken");
    };
    let panel = st7789::Panel::new(spi, dc, cs, dma.ch0, [a, b]).map_err(|_| "chip select")?;
    #[cfg(two_cores)]
    let mut display = {
        let buffers = [
            cortex_m::singleton!(: [u8; st7789::BAND] = [0; st7789::BAND]),
            cortex_m::singleton!(: [u8; st7789::BAND] = [0; st7789::BAND]),
        ];
        let [Some(c), Some(d)] = buffers else {
            return Err("core 1's band buffers already taken");
        };
        crate::core1::start(&mut pac.PSM, &mut pac.PPB, sio.fifo, panel, [c, d])?
    };
    #[cfg(not(two_cores))]
    let mut display = panel;
    // Which cores draw the bands: build.rs gives the second core half of them when both
    // cores' band buffers fit the RAM (cfg `two_cores`).
    defmt::info!("PICO cores={=u8}", if cfg!(two_cores) { 2 } else { 1 });
    embedded_hal::digital::OutputPin::set_high(&mut backlight).map_err(|_| "backlight")?;

    let board = frame::Board {
        name: "pico",
        core: "cortex-m0+",
        counts: frame::Counts::Cycles,
    };
    let mut clock = Clock::new(core.SYST);
    loop {
        frame::play::<Lane, _>(&ASSET.0, &board, &mut display, &mut clock, |scene, k| {
            let duration = scene.clip().map_or(0.0, |(_, d)| d);
            let period = (duration * 1e6) as u64;
            let now = timer.get_counter().ticks();
            let t = if period == 0 {
                0.0
            } else {
                (now % period) as f32 * 1e-6
            };
            (k < FRAMES_PER_PASS).then_some(t)
        })
        .map_err(|e| {
            defmt::error!("frame loop: {}", defmt::Debug2Format(&e));
            "the frame loop stopped"
        })?;
    }
}

/// Stops here for the debugger.
fn halt() -> ! {
    loop {
        cortex_m::asm::bkpt();
    }
}

/// Logs the panic on core 0 only: core 1 logs nothing (the log's lock does not exclude the
/// other core, `core1`); a panic on core 1 stops it there, and core 0 waits for its bands.
#[panic_handler]
fn panic(info: &core::panic::PanicInfo) -> ! {
    if Sio::core() == CoreId::Core0 {
        defmt::error!("panic: {}", defmt::Display2Format(info));
    }
    halt()
}
