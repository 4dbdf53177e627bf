//! The Pico's second core (core 1) draws every other band of each frame.
//!
//! Core 0 runs the frame loop ([`crate::frame`]): it samples, poses, skins and projects the
//! frame alone. Then both cores draw: each runs [`Scene::render_share`] over the same
//! projected vertices, core 0 with [`Share`] 0 of 2 (bands 0, 2, 4, …) and core 1 with 1 of
//! 2 (bands 1, 3, 5, …), each binning the frame into spans of its own and drawing into a
//! colour and a depth band of its own. Core 1 turns each band it has drawn into the panel's
//! bytes in one of its two DMA buffers and hands the buffer to core 0, which sends every
//! band to the panel by DMA in screen order, its own and core 1's in turn, and hands each
//! of core 1's buffers back once its transfer has ended ([`Panel::sent`]).
//!
//! One 32-bit word a message, over the SIO's two FIFOs (eight words each way; neither side
//! ever has more than three on its way, so no write waits for room):
//!
//! - core 0 → core 1: the address of a [`Job`] (the frame's scene and projected vertices:
//!   draw your bands), or the address of one of core 1's buffers (sent, free again);
//! - core 1 → core 0: the address of the buffer that holds its next band, drawn; then
//!   [`DONE`] once it has handed over every band of the frame, or [`FAILED`] when it could
//!   not draw them (it then hands over no more).
//!
//! **Why sharing is sound** (the `unsafe` blocks below rely on it). During the band phase
//! everything the cores share is read-only: the scene and the asset it reads, and the
//! projected vertices, all owned by core 0's frame loop, which writes them only between
//! frames; the [`Job`] that points at them lives on core 0's stack in [`Bands::render`],
//! which does not return (on success or on any error) before core 1 has answered the job
//! with `DONE` or `FAILED`, after which core 1 does not touch it. A panic does not unwind: it
//! halts core 0 where it stands, the job still in place. What each core writes is its own:
//! its spans, colour and depth (core 1's on its own stack), and the DMA buffers, each owned
//! by one side at a time — the side that holds its address in a `&'static mut`; handing a
//! buffer over gives that reference up ([`lend`]), and the receiver makes it again only
//! from one of the two addresses it knows to be core 1's buffers ([`Lent::take`]). The
//! RP2040 has no caches and each core performs its memory accesses in order; a fence before
//! each FIFO write and after each read keeps the compiler from moving them across.
//!
//! Core 1 logs nothing and takes no critical section: the firmware's critical section (and
//! so defmt-rtt's lock) is cortex-m's single-core one, interrupts off on the core that takes
//! it, which does not exclude the other core.

use core::sync::atomic::{fence, Ordering};

use embedded_graphics_core::geometry::{Point, Size};
use embedded_graphics_core::pixelcolor::{Rgb565, RgbColor};
use embedded_graphics_core::primitives::Rectangle;
use embedded_hal::digital::OutputPin;
use rp2040_hal::multicore::{Multicore, Stack};
use rp2040_hal::pac;
use rp2040_hal::sio::SioFifo;
use rp2040_hal::spi::ValidSpiPinout;
use rp2040_hal::Sio;
use skin_core::raster::bins::Span;
use skin_core::raster::split::Share;
use skin_core::raster::{FrameError, ScreenVertex};
use skin_core::scene::{Scene, Stages};

use crate::frame::{BONES, HEIGHT, ROWS, TRIANGLES, WIDTH};
use crate::screen::Screen;
use crate::st7789::{self, Buffer, Panel, PanelError};
use crate::Lane;

/// The cores sharing a frame's bands.
const CORES: usize = 2;

/// Core 1 → core 0: every band of the frame handed over.
const DONE: u32 = 1;
/// Core 1 → core 0: the frame's bands could not be drawn.
const FAILED: u32 = 2;

/// Pixels of a band.
const BAND_PIXELS: usize = WIDTH as usize * ROWS;

/// `FRAME_BYTES`: core 1's stack beyond its buffers, the call frames of
/// [`Scene::render_share`] and the hand-over (build.rs, `PICO_CORE1_FRAMES`, gives the
/// bound and checks the RAM for it). The RP2040 HAL puts an MPU guard at the stack's end:
/// an overflow faults instead of overwriting the memory below.
mod sizes {
    include!(concat!(env!("OUT_DIR"), "/core1.rs"));
}
use sizes::FRAME_BYTES;

/// Core 1's stack in words: its spans, its band's colour and depth, and [`FRAME_BYTES`].
const STACK_WORDS: usize = (core::mem::size_of::<[Span; TRIANGLES]>()
    + core::mem::size_of::<[Rgb565; BAND_PIXELS]>()
    + core::mem::size_of::<[u16; BAND_PIXELS]>()
    + FRAME_BYTES)
    / 4;

/// Core 1's stack (static RAM).
static STACK: Stack<STACK_WORDS> = Stack::new();

/// A frame for core 1 to draw its bands of: read by both cores, written by neither while
/// they draw.
struct Job<'a, 's> {
    scene: &'a Scene<'s, Lane, BONES>,
    vertices: &'a [ScreenVertex],
}

/// What core 1 reads through a [`Job`] may be read from two cores at once.
const _: fn() = || {
    fn shared<T: Sync>() {}
    shared::<Job<'static, 'static>>();
};

/// The address of a buffer being handed to the other core, which gives the buffer up.
fn lend(buffer: Buffer) -> u32 {
    buffer.as_mut_ptr() as u32
}

/// Core 1's two DMA buffers, by address: which words are buffers coming back.
#[derive(Clone, Copy)]
struct Lent([u32; 2]);

impl Lent {
    /// The buffer at `word`, if it is one of core 1's two.
    ///
    /// # Safety
    ///
    /// A `word` that is one of them must be the address that [`lend`] made of the buffer's
    /// only reference, taken back once: then the reference made here is again the only one.
    unsafe fn take(self, word: u32) -> Option<Buffer> {
        if !self.0.contains(&word) {
            return None;
        }
        // SAFETY: `word` is the address of one of the two `&'static mut [u8; BAND]`
        // buffers made for core 1 at start (`start`), whose only reference was given up
        // (the caller's promise).
        Some(unsafe { &mut *(word as *mut [u8; st7789::BAND]) })
    }
}

/// Reads the next word from the other core.
fn receive(fifo: &mut SioFifo) -> u32 {
    let word = fifo.read_blocking();
    fence(Ordering::SeqCst);
    word
}

/// Sends a word to the other core, after every write before it.
fn send(fifo: &mut SioFifo, word: u32) {
    fence(Ordering::SeqCst);
    fifo.write_blocking(word);
}

/// Why the two cores' frame did not reach the panel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShareError {
    /// The panel refused a band.
    Panel(PanelError),
    /// Core 1 could not draw its bands (a raster error in one of them).
    Core1,
    /// Core 1 sent a word the hand-over does not expect.
    Message(u32),
}

/// The Pico's panel with core 1 drawing every other band: the frame loop's [`Screen`].
pub struct Bands<P: ValidSpiPinout<pac::SPI1>, DC, CS> {
    panel: Panel<P, DC, CS>,
    fifo: SioFifo,
    lent: Lent,
    /// Core 1 holds a job not yet answered.
    busy: bool,
}

/// Starts core 1 drawing bands into `buffers` (its own two DMA buffers), handing them over
/// `fifo` to the [`Bands`] returned, which sends them to `panel`.
pub fn start<P: ValidSpiPinout<pac::SPI1>, DC, CS>(
    psm: &mut pac::PSM,
    ppb: &mut pac::PPB,
    mut fifo: SioFifo,
    panel: Panel<P, DC, CS>,
    buffers: [Buffer; 2],
) -> Result<Bands<P, DC, CS>, &'static str> {
    let stack = STACK.take().ok_or("core 1's stack already taken")?;
    let [a, b] = buffers;
    let lent = Lent([lend(a), lend(b)]);
    let mut cores = Multicore::new(psm, ppb, &mut fifo);
    cores.cores()[1]
        .spawn(stack, move || {
            // SAFETY: only core 1's end of the SIO FIFO is used from this copy of the
            // peripherals; the SIO's FIFO registers are banked per core (each core reads
            // and writes its own end), so core 0's `SioFifo` and this one never touch the
            // same register.
            let sio = Sio::new(unsafe { pac::Peripherals::steal() }.SIO);
            serve(sio.fifo, lent)
        })
        .map_err(|_| "core 1 did not start")?;
    Ok(Bands {
        panel,
        fifo,
        lent,
        busy: false,
    })
}

/// Core 1's loop: each job's bands of [`Share`] 1 of 2, drawn into its own band and handed
/// over in its buffers, then `DONE` or `FAILED`. Not inlined: its buffers are its frame on
/// core 1's stack, and the ELF names it (test `firmware_pico`).
#[inline(never)]
fn serve(mut fifo: SioFifo, lent: Lent) -> ! {
    let mut spans = [Span::default(); TRIANGLES];
    let mut colour = [Rgb565::BLACK; BAND_PIXELS];
    let mut depth = [0u16; BAND_PIXELS];
    // SAFETY: `start` gave both buffers' references up in `lend`; they start here.
    let mut free = lent.0.map(|word| unsafe { lent.take(word) });
    loop {
        let word = receive(&mut fifo);
        // SAFETY: a buffer's address from core 0 comes back once, after core 0 gave up its
        // reference (`Bands::give_back`, `Bands::finish`).
        if let Some(buffer) = unsafe { lent.take(word) } {
            if let Some(slot) = free.iter_mut().find(|s| s.is_none()) {
                *slot = Some(buffer);
            }
            continue;
        }
        // SAFETY: a word from core 0 that is not one of the buffers is the address of the
        // `Job` in `Bands::render`, which stays in place, unchanged, and with everything it
        // points at unwritten, until that function has read this core's `DONE` or
        // `FAILED` below (module documentation).
        let job = unsafe { &*(word as *const Job<'_, '_>) };
        let drawn = Share::new(1, CORES)
            .map_err(FrameError::Raster)
            .and_then(|share| {
                job.scene.render_share(
                    share,
                    job.vertices,
                    &mut spans,
                    &mut colour,
                    &mut depth,
                    &mut (),
                    |band| {
                        let buffer = loop {
                            if let Some(buffer) = free.iter_mut().find_map(Option::take) {
                                break buffer;
                            }
                            // SAFETY: as above.
                            match unsafe { lent.take(receive(&mut fifo)) } {
                                Some(buffer) => break buffer,
                                None => return Err(FrameError::Target(())),
                            }
                        };
                        st7789::to_panel(band.colour().iter().copied(), &mut buffer[..]);
                        send(&mut fifo, lend(buffer));
                        Ok(())
                    },
                )
            });
        send(&mut fifo, if drawn.is_ok() { DONE } else { FAILED });
    }
}

/// What core 1 sent.
enum Message {
    /// Its next band, drawn, in one of its buffers.
    Band(Buffer),
    /// `DONE` (`true`) or `FAILED`.
    End(bool),
    /// A word the hand-over does not expect.
    Other(u32),
}

impl<P: ValidSpiPinout<pac::SPI1>, DC: OutputPin, CS: OutputPin> Bands<P, DC, CS> {
    /// Core 1's next message.
    fn message(&mut self) -> Message {
        let word = receive(&mut self.fifo);
        // SAFETY: core 1 sends a buffer's address once, having given up its reference
        // (`serve`).
        if let Some(buffer) = unsafe { self.lent.take(word) } {
            return Message::Band(buffer);
        }
        match word {
            DONE | FAILED => {
                self.busy = false;
                Message::End(word == DONE)
            }
            _ => Message::Other(word),
        }
    }

    /// Core 1's buffers whose bands the panel has sent, back to it.
    fn give_back(&mut self) {
        while let Some(buffer) = self.panel.sent() {
            send(&mut self.fifo, lend(buffer));
        }
    }

    /// Core 1's bands of `rows` rows (fewer at the screen's foot) from row `*next` down to
    /// row `until`, sent in order; `*next` moves past each.
    fn theirs(&mut self, next: &mut u16, until: u16, rows: u16) -> Result<(), ShareError> {
        while *next < until {
            let buffer = match self.message() {
                Message::Band(buffer) => buffer,
                Message::End(_) => return Err(ShareError::Core1),
                Message::Other(word) => return Err(ShareError::Message(word)),
            };
            let rows = rows.min(HEIGHT - *next);
            let area = Rectangle::new(
                Point::new(0, i32::from(*next)),
                Size::new(u32::from(WIDTH), u32::from(rows)),
            );
            let sent = self.panel.send_lent(&area, buffer);
            self.give_back();
            sent.map_err(ShareError::Panel)?;
            *next += rows;
        }
        Ok(())
    }

    /// Waits for core 1 to answer its job, giving back at once any band it still hands
    /// over (after an error, unsent): afterwards core 1 no longer reads the job.
    fn finish(&mut self) -> Result<(), ShareError> {
        let mut answer = Ok(());
        while self.busy {
            match self.message() {
                Message::Band(buffer) => send(&mut self.fifo, lend(buffer)),
                Message::End(true) => {}
                Message::End(false) => answer = Err(ShareError::Core1),
                Message::Other(word) => answer = Err(ShareError::Message(word)),
            }
        }
        answer
    }
}

impl<P: ValidSpiPinout<pac::SPI1>, DC: OutputPin, CS: OutputPin> Screen<Lane> for Bands<P, DC, CS> {
    type Error = ShareError;

    /// Core 0's bands drawn here, core 1's there, all sent in screen order; the display
    /// stage ([`skin_core::scene::Stage::Display`]) is core 0's hand-over, waits for core
    /// 1's bands included.
    fn render(
        &mut self,
        scene: &Scene<'_, Lane, BONES>,
        vertices: &[ScreenVertex],
        spans: &mut [Span],
        colour: &mut [Rgb565],
        depth: &mut [u16],
        stages: &mut impl Stages,
    ) -> Result<(), FrameError<ShareError>> {
        let share = Share::new(0, CORES)?;
        let job = Job { scene, vertices };
        // From here until `finish` has returned, core 1 may read `job`, `scene` and
        // `vertices`: every path below goes through `finish` before leaving.
        self.busy = true;
        send(&mut self.fifo, core::ptr::from_ref(&job) as u32);
        // The next row to send, and the rows of a band: band 0's, core 0's own.
        let (mut next, mut rows) = (0, None);
        let mine = scene
            .render_share(share, vertices, spans, colour, depth, stages, |band| {
                let tall = *rows.get_or_insert(band.rows());
                self.theirs(&mut next, band.y0(), tall)
                    .map_err(FrameError::Target)?;
                let sent = band.flush(&mut self.panel);
                self.give_back();
                sent.map_err(|e| FrameError::Target(ShareError::Panel(e)))?;
                next = band.y0() + band.rows();
                Ok(())
            })
            .and_then(|()| {
                let tall = rows.unwrap_or(HEIGHT);
                self.theirs(&mut next, HEIGHT, tall)
                    .map_err(FrameError::Target)
            });
        let answer = self.finish();
        mine?;
        answer.map_err(FrameError::Target)
    }
}
