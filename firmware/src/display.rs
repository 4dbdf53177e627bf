//! The QEMU boards' "display": each frame becomes a file on the host, written through
//! semihosting (`SYS_OPEN` / `SYS_WRITE` / `SYS_CLOSE`, via the `semihosting` crate) as raw
//! RGB565 — little-endian, row-major, no header — named `frame-NNN.rgb565` in QEMU's
//! working directory.
//!
//! It is an embedded-graphics `DrawTarget`, like the Pico's ST7789 driver, so the frame
//! loop cannot tell them apart. It accepts what the band renderer sends: full-width bands,
//! top to bottom; a band at row 0 starts the next file.

use core::ffi::CStr;

use embedded_graphics_core::draw_target::DrawTarget;
use embedded_graphics_core::geometry::{OriginDimensions, Size};
use embedded_graphics_core::pixelcolor::raw::{RawU16, ToBytes};
use embedded_graphics_core::pixelcolor::Rgb565;
use embedded_graphics_core::primitives::Rectangle;
use embedded_graphics_core::Pixel;
use semihosting::fs::File;
use semihosting::io::Write;

/// Why a frame could not be written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, defmt::Format)]
pub enum SinkError {
    /// The host refused to create the file (frame number).
    Open(u32),
    /// A write failed or was short (frame number).
    Write(u32),
    /// Something other than the next full-width band was drawn (first row drawn).
    NotABand(i32),
    /// A band's colours ended before its last pixel (frame number).
    Short(u32),
    /// More frames than the file names hold (1000).
    TooMany,
}

/// Frame files, filled band by band.
pub struct FrameFiles {
    file: Option<File>,
    width: u16,
    height: u16,
    /// Frames started so far (the current one included).
    started: u32,
    /// The next row the current frame expects.
    next_row: u16,
}

impl FrameFiles {
    /// A `width × height` display; no file is created before the first band.
    pub fn new(width: u16, height: u16) -> Self {
        Self {
            file: None,
            width,
            height,
            started: 0,
            next_row: 0,
        }
    }

    /// Frames written completely.
    pub fn complete(&self) -> u32 {
        if self.next_row == 0 {
            self.started
        } else {
            self.started - 1
        }
    }

    /// Opens the next frame's file.
    fn start(&mut self) -> Result<(), SinkError> {
        let k = self.started;
        if k >= 1000 {
            return Err(SinkError::TooMany);
        }
        let mut name = *b"frame-000.rgb565\0";
        for (i, d) in [k / 100, k / 10 % 10, k % 10].into_iter().enumerate() {
            name[6 + i] = b'0' + d as u8;
        }
        let path = CStr::from_bytes_with_nul(&name).map_err(|_| SinkError::Open(k))?;
        // Dropping the previous frame's file closes it.
        self.file = Some(File::create(path).map_err(|_| SinkError::Open(k))?);
        self.started += 1;
        Ok(())
    }
}

impl OriginDimensions for FrameFiles {
    fn size(&self) -> Size {
        Size::new(u32::from(self.width), u32::from(self.height))
    }
}

impl DrawTarget for FrameFiles {
    type Color = Rgb565;
    type Error = SinkError;

    /// Single pixels cannot be streamed to a file in order.
    fn draw_iter<I: IntoIterator<Item = Pixel<Rgb565>>>(&mut self, _: I) -> Result<(), SinkError> {
        Err(SinkError::NotABand(-1))
    }

    fn fill_contiguous<I>(&mut self, area: &Rectangle, colors: I) -> Result<(), SinkError>
    where
        I: IntoIterator<Item = Rgb565>,
    {
        let y = area.top_left.y;
        let band = area.top_left.x == 0
            && y == i32::from(self.next_row)
            && area.size.width == u32::from(self.width)
            && area.size.height >= 1
            && area.size.height <= u32::from(self.height - self.next_row);
        if !band {
            return Err(SinkError::NotABand(y));
        }
        if self.next_row == 0 {
            self.start()?;
        }
        let k = self.started - 1;
        let file = self.file.as_mut().ok_or(SinkError::Write(k))?;
        // 64 pixels per SYS_WRITE.
        let mut buf = [0u8; 128];
        let mut n = 0;
        let pixels = area.size.width as usize * area.size.height as usize;
        let mut sent = 0;
        for c in colors.into_iter().take(pixels) {
            buf[n..n + 2].copy_from_slice(&RawU16::from(c).to_le_bytes());
            n += 2;
            sent += 1;
            if n == buf.len() {
                file.write_all(&buf).map_err(|_| SinkError::Write(k))?;
                n = 0;
            }
        }
        file.write_all(&buf[..n]).map_err(|_| SinkError::Write(k))?;
        if sent < pixels {
            return Err(SinkError::Short(k));
        }
        self.next_row += area.size.height as u16;
        if self.next_row == self.height {
            self.next_row = 0;
            self.file = None;
        }
        Ok(())
    }
}
