//! The QEMU boards' "display": frames written to files on the host through semihosting
//! (`SYS_OPEN` / `SYS_WRITE` / `SYS_CLOSE`, via the `semihosting` crate), as raw RGB565,
//! little-endian, row-major, `frame-NNN.rgb565` in QEMU's working directory.
//!
//! It is an embedded-graphics `DrawTarget`, so a real display driver (an ST7789 over SPI
//! on an RP2040 board) replaces it without touching the frame loop. It accepts what the
//! band renderer sends: full-width bands, top to bottom.

use embedded_graphics_core::draw_target::DrawTarget;
use embedded_graphics_core::geometry::{OriginDimensions, Size};
use embedded_graphics_core::pixelcolor::raw::{RawU16, ToBytes};
use embedded_graphics_core::pixelcolor::Rgb565;
use embedded_graphics_core::primitives::Rectangle;
use embedded_graphics_core::Pixel;
use semihosting::fs::File;
use semihosting::io::Write;

/// Why a frame could not be written.
#[derive(Clone, Copy, Debug, defmt::Format)]
pub enum SinkError {
    /// The host refused to open the file.
    Open,
    /// A write failed or was short.
    Write,
    /// Something other than the next full-width band was drawn.
    NotABand,
}

/// One frame's file, filled band by band.
pub struct FrameFile {
    file: File,
    width: u16,
    height: u16,
    next_row: u16,
}

impl FrameFile {
    /// Creates `frame-NNN.rgb565` for frame `index` (0..=999).
    pub fn create(index: u32, width: u16, height: u16) -> Result<Self, SinkError> {
        let mut name = *b"frame-000.rgb565\0";
        name[6] = b'0' + (index / 100 % 10) as u8;
        name[7] = b'0' + (index / 10 % 10) as u8;
        name[8] = b'0' + (index % 10) as u8;
        let path = core::ffi::CStr::from_bytes_with_nul(&name).map_err(|_| SinkError::Open)?;
        let file = File::create(path).map_err(|_| SinkError::Open)?;
        Ok(Self {
            file,
            width,
            height,
            next_row: 0,
        })
    }

    /// Whether every row was written.
    pub fn complete(&self) -> bool {
        self.next_row == self.height
    }
}

impl OriginDimensions for FrameFile {
    fn size(&self) -> Size {
        Size::new(u32::from(self.width), u32::from(self.height))
    }
}

impl DrawTarget for FrameFile {
    type Color = Rgb565;
    type Error = SinkError;

    /// Single pixels cannot be streamed to a file in order.
    fn draw_iter<I: IntoIterator<Item = Pixel<Rgb565>>>(&mut self, _: I) -> Result<(), SinkError> {
        Err(SinkError::NotABand)
    }

    fn fill_contiguous<I>(&mut self, area: &Rectangle, colors: I) -> Result<(), SinkError>
    where
        I: IntoIterator<Item = Rgb565>,
    {
        let band = area.top_left.x == 0
            && area.top_left.y == i32::from(self.next_row)
            && area.size.width == u32::from(self.width)
            && area.size.height <= u32::from(self.height - self.next_row);
        if !band {
            return Err(SinkError::NotABand);
        }
        // Buffer 64 pixels at a time: one SYS_WRITE each.
        let mut buf = [0u8; 128];
        let mut n = 0;
        for c in colors {
            buf[n..n + 2].copy_from_slice(&RawU16::from(c).to_le_bytes());
            n += 2;
            if n == buf.len() {
                self.file.write_all(&buf).map_err(|_| SinkError::Write)?;
                n = 0;
            }
        }
        self.file.write_all(&buf[..n]).map_err(|_| SinkError::Write)?;
        self.next_row += area.size.height as u16;
        Ok(())
    }
}
