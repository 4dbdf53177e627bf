//! The Pico's display path: each band goes to the ST7789 by DMA while the frame loop draws
//! the next one.
//!
//! `mipidsi` initialises the panel (over borrowed pins and bus, given back when it is
//! dropped); after that a [`Panel`] owns the SPI bus, a DMA channel and two band buffers in
//! static RAM. Sending a band ([`DrawTarget::fill_contiguous`] of its rectangle, as
//! `Band::flush` does) turns its pixels into the panel's big-endian RGB565 bytes in the
//! free buffer, waits for the previous band's transfer to end, sets the panel's window
//! (`CASET`, `RASET`, `RAMWR`) and starts the transfer, which runs while the next band is
//! drawn: the CPU spends on the display only the conversion (a few instructions a pixel),
//! not the 8 bits a byte that the bus shifts out. The second core's bands come already
//! converted, in buffers it lends ([`Panel::send_lent`]) and gets back once sent
//! ([`Panel::sent`]). At 62.5 MHz the bus moves a 240 × 240
//! frame of 16-bit pixels in 14.7 ms, about 68 frames a second: the display's limit, as
//! long as a band takes longer to draw than its predecessor takes to send.

use embedded_graphics_core::draw_target::DrawTarget;
use embedded_graphics_core::geometry::{Dimensions, OriginDimensions, Size};
use embedded_graphics_core::pixelcolor::raw::ToBytes;
use embedded_graphics_core::pixelcolor::Rgb565;
use embedded_graphics_core::primitives::{PointsIter, Rectangle};
use embedded_graphics_core::Pixel;
use embedded_hal::digital::OutputPin;
use embedded_hal::spi::SpiBus;
use rp2040_hal::dma::{single_buffer, Channel, CH0};
use rp2040_hal::pac::SPI1;
use rp2040_hal::spi::{Enabled, ValidSpiPinout};
use rp2040_hal::Spi;

use crate::frame::{HEIGHT, ROWS, WIDTH};

/// Bytes of a band buffer: [`ROWS`] rows of [`WIDTH`] pixels, two bytes each.
pub const BAND: usize = WIDTH as usize * ROWS * 2;

/// A band buffer in static RAM (the DMA reads it while the caller's stack moves on).
pub type Buffer = &'static mut [u8; BAND];

/// The panel's SPI bus, 8-bit frames.
type Bus<P> = Spi<Enabled, SPI1, P, 8>;

/// MIPI DCS commands the ST7789 takes: column and row address window, memory write.
const CASET: u8 = 0x2A;
const RASET: u8 = 0x2B;
const RAMWR: u8 = 0x2C;

/// What went wrong talking to the panel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, defmt::Format)]
pub enum PanelError {
    /// The data/command pin could not be set.
    Pin,
    /// The bus is gone: a transfer was dropped without being waited for (a bug).
    Lost,
    /// A lent band that is not a whole-width band of at most a band buffer's rows on the
    /// screen.
    #[cfg(two_cores)]
    NotABand,
}

/// The bus and the DMA channel: idle, or sending a band from a buffer, the panel's own or
/// (`true`) one lent by the second core ([`Panel::send_lent`]).
enum Link<P: ValidSpiPinout<SPI1>> {
    Idle(Channel<CH0>, Bus<P>),
    Sending(single_buffer::Transfer<Channel<CH0>, Buffer, Bus<P>>, bool),
}

/// `colours` as the panel takes them (big-endian RGB565) into `bytes`, two bytes a pixel,
/// until either ends.
pub fn to_panel(colours: impl IntoIterator<Item = Rgb565>, bytes: &mut [u8]) {
    for (pair, colour) in bytes.chunks_exact_mut(2).zip(colours) {
        pair.copy_from_slice(&colour.to_be_bytes());
    }
}

/// An initialised 240 × 240 ST7789 on SPI1, written by DMA from two band buffers.
pub struct Panel<P: ValidSpiPinout<SPI1>, DC, CS> {
    dc: DC,
    /// Chip select, held low: the panel is the bus's only device.
    _cs: CS,
    link: Option<Link<P>>,
    /// The buffers not being sent (both while idle).
    free: [Option<Buffer>; 2],
    /// Lent buffers whose bands have been sent, until [`Self::sent`] takes them back.
    sent: [Option<Buffer>; 2],
}

impl<P: ValidSpiPinout<SPI1>, DC: OutputPin, CS: OutputPin> Panel<P, DC, CS> {
    /// Takes over a panel that `mipidsi` has initialised: its bus, data/command and chip
    /// select pins, a DMA channel and two band buffers.
    pub fn new(
        bus: Bus<P>,
        dc: DC,
        mut cs: CS,
        channel: Channel<CH0>,
        buffers: [Buffer; 2],
    ) -> Result<Self, PanelError> {
        cs.set_low().map_err(|_| PanelError::Pin)?;
        let [a, b] = buffers;
        Ok(Self {
            dc,
            _cs: cs,
            link: Some(Link::Idle(channel, bus)),
            free: [Some(a), Some(b)],
            sent: [None, None],
        })
    }

    /// A lent buffer whose band has left the bus, to go back to the core that lent it: after
    /// every send, until `None` (at most two are waiting).
    #[cfg(two_cores)]
    pub fn sent(&mut self) -> Option<Buffer> {
        self.sent.iter_mut().find_map(Option::take)
    }

    /// The band `area` (full width, at most [`ROWS`] rows, on the screen) whose pixels
    /// another core has put in `buffer` as the panel's bytes ([`to_panel`]): sent like
    /// the panel's own bands, `buffer` then waiting in [`Self::sent`] (also when the send
    /// fails, so that it is never lost).
    #[cfg(two_cores)]
    pub fn send_lent(&mut self, area: &Rectangle, buffer: Buffer) -> Result<(), PanelError> {
        let band = area.top_left.x == 0
            && area.size.width == u32::from(WIDTH)
            && self.bounding_box().intersection(area) == *area
            && 2 * area.size.width as usize * area.size.height as usize <= BAND;
        if !band {
            self.keep(buffer, true);
            return Err(PanelError::NotABand);
        }
        self.start(area, buffer, true)
    }

    /// Waits for the band being sent, if any, to leave the bus, and returns its buffer to
    /// the free ones: the bus and channel, idle.
    fn settle(&mut self) -> Result<(Channel<CH0>, Bus<P>), PanelError> {
        match self.link.take().ok_or(PanelError::Lost)? {
            Link::Idle(ch, bus) => Ok((ch, bus)),
            Link::Sending(transfer, lent) => {
                let (ch, buffer, mut bus) = transfer.wait();
                // The DMA has filled the FIFO; the last bytes are still shifting out.
                let _ = bus.flush();
                self.keep(buffer, lent);
                Ok((ch, bus))
            }
        }
    }

    /// A buffer done with: the panel's own back among the free ones, a lent one to
    /// [`Self::sent`].
    fn keep(&mut self, buffer: Buffer, lent: bool) {
        let slots = if lent { &mut self.sent } else { &mut self.free };
        if let Some(slot) = slots.iter_mut().find(|s| s.is_none()) {
            *slot = Some(buffer);
        }
    }

    /// Sets the panel's window to `area` (on the screen) and starts its memory write: the
    /// bytes that follow fill it row by row.
    fn window(&mut self, bus: &mut Bus<P>, area: &Rectangle) -> Result<(), PanelError> {
        let (x0, y0) = (area.top_left.x as u16, area.top_left.y as u16);
        let x1 = x0 + area.size.width as u16 - 1;
        let y1 = y0 + area.size.height as u16 - 1;
        let [a, b] = x0.to_be_bytes();
        let [c, d] = x1.to_be_bytes();
        self.command(bus, CASET, &[a, b, c, d])?;
        let [a, b] = y0.to_be_bytes();
        let [c, d] = y1.to_be_bytes();
        self.command(bus, RASET, &[a, b, c, d])?;
        self.command(bus, RAMWR, &[])?;
        self.dc.set_high().map_err(|_| PanelError::Pin)
    }

    /// One command byte (data/command low) and its parameters (high), sent and drained.
    fn command(&mut self, bus: &mut Bus<P>, cmd: u8, params: &[u8]) -> Result<(), PanelError> {
        self.dc.set_low().map_err(|_| PanelError::Pin)?;
        let _ = bus.write(&[cmd]);
        let _ = bus.flush();
        self.dc.set_high().map_err(|_| PanelError::Pin)?;
        let _ = bus.write(params);
        let _ = bus.flush();
        Ok(())
    }

    /// `area`'s `pixels` (at most a band) to the panel: a whole band by DMA, left running;
    /// a shorter one (the last band of a screen its rows do not divide) written out.
    fn send(
        &mut self,
        area: &Rectangle,
        pixels: impl IntoIterator<Item = Rgb565>,
    ) -> Result<(), PanelError> {
        let Some(buffer) = self.free.iter_mut().find_map(Option::take) else {
            return Err(PanelError::Lost);
        };
        let bytes = area.size.width as usize * area.size.height as usize * 2;
        to_panel(pixels, &mut buffer[..bytes]);
        self.start(area, buffer, false)
    }

    /// `area`'s bytes, the first of `buffer` (the panel's own or, `lent`, another core's),
    /// to the panel: once the previous band has left the bus, a whole band by DMA, left
    /// running; a shorter one written out.
    fn start(&mut self, area: &Rectangle, buffer: Buffer, lent: bool) -> Result<(), PanelError> {
        let bytes = area.size.width as usize * area.size.height as usize * 2;
        let (ch, mut bus) = match self.settle() {
            Ok(idle) => idle,
            Err(e) => {
                self.keep(buffer, lent);
                return Err(e);
            }
        };
        if let Err(e) = self.window(&mut bus, area) {
            self.keep(buffer, lent);
            self.link = Some(Link::Idle(ch, bus));
            return Err(e);
        }
        if bytes == BAND {
            self.link = Some(Link::Sending(
                single_buffer::Config::new(ch, buffer, bus).start(),
                lent,
            ));
        } else {
            let _ = bus.write(&buffer[..bytes]);
            let _ = bus.flush();
            self.keep(buffer, lent);
            self.link = Some(Link::Idle(ch, bus));
        }
        Ok(())
    }
}

impl<P: ValidSpiPinout<SPI1>, DC, CS> OriginDimensions for Panel<P, DC, CS> {
    fn size(&self) -> Size {
        Size::new(u32::from(WIDTH), u32::from(HEIGHT))
    }
}

impl<P: ValidSpiPinout<SPI1>, DC: OutputPin, CS: OutputPin> DrawTarget for Panel<P, DC, CS> {
    type Color = Rgb565;
    type Error = PanelError;

    /// Pixels one at a time, each its own window (the frame loop sends whole bands).
    fn draw_iter<I>(&mut self, pixels: I) -> Result<(), Self::Error>
    where
        I: IntoIterator<Item = Pixel<Self::Color>>,
    {
        let screen = self.bounding_box();
        for Pixel(at, colour) in pixels {
            if screen.contains(at) {
                self.send(&Rectangle::new(at, Size::new(1, 1)), [colour])?;
            }
        }
        Ok(())
    }

    fn fill_contiguous<I>(&mut self, area: &Rectangle, colours: I) -> Result<(), Self::Error>
    where
        I: IntoIterator<Item = Self::Color>,
    {
        let pixels = area.size.width as usize * area.size.height as usize;
        if area.is_zero_sized() {
            return Ok(());
        }
        if self.bounding_box().intersection(area) == *area && 2 * pixels <= BAND {
            return self.send(area, colours);
        }
        // Partly off the screen, or taller than a band: pixel by pixel.
        self.draw_iter(
            area.points()
                .zip(colours)
                .map(|(at, colour)| Pixel(at, colour)),
        )
    }
}
