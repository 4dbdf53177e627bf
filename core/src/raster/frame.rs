//! A frame: the band loop, and [`FrameBuffer`], a whole-frame `DrawTarget` over a slice
//! (for the host, tests, and boards with RAM for a frame).

use embedded_graphics_core::draw_target::DrawTarget;
use embedded_graphics_core::geometry::{OriginDimensions, Size};
use embedded_graphics_core::pixelcolor::Rgb565;
use embedded_graphics_core::Pixel;

use super::{Band, RasterError};

/// A failure of [`render`]: the rasteriser's, or the target's.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum FrameError<E> {
    /// Drawing failed.
    Raster(RasterError),
    /// The target refused a band.
    Target(E),
}

impl<E> From<RasterError> for FrameError<E> {
    fn from(e: RasterError) -> Self {
        FrameError::Raster(e)
    }
}

impl<E: core::fmt::Debug> core::fmt::Display for FrameError<E> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            FrameError::Raster(e) => e.fmt(f),
            FrameError::Target(e) => write!(f, "the draw target failed: {e:?}"),
        }
    }
}

/// Render a `width × height` frame into `target` band by band: the band height is
/// `colour.len() / width` rows (the last band may be shorter); each band is cleared to
/// `background`, drawn by `draw` (called once per band with every mesh), and flushed.
/// The result does not depend on the band height.
pub fn render<D, F>(
    target: &mut D,
    width: u16,
    height: u16,
    colour: &mut [Rgb565],
    depth: &mut [u16],
    background: Rgb565,
    mut draw: F,
) -> Result<(), FrameError<D::Error>>
where
    D: DrawTarget<Color = Rgb565>,
    F: FnMut(&mut Band<'_>) -> Result<(), RasterError>,
{
    bands(width, height, colour, depth, |mut band| {
        band.clear(background);
        draw(&mut band)?;
        band.flush(target).map_err(FrameError::Target)
    })
}

/// The band loop of [`render`] without the drawing: calls `each` with the bands of a
/// `width × height` frame, top to bottom, each `colour.len() / width` rows high (the last
/// may be shorter) over the start of `colour` and `depth`, uncleared.
/// [`RasterError::Buffer`] when the buffers hold less than one row.
pub fn bands<E>(
    width: u16,
    height: u16,
    colour: &mut [Rgb565],
    depth: &mut [u16],
    mut each: impl FnMut(Band<'_>) -> Result<(), FrameError<E>>,
) -> Result<(), FrameError<E>> {
    let rows = band_rows(width, height, colour.len().min(depth.len()));
    if rows == 0 {
        return Err(RasterError::Buffer {
            needed: usize::from(width).max(1),
            len: colour.len().min(depth.len()),
        }
        .into());
    }
    let mut y0 = 0;
    while y0 < height {
        let n = rows.min(height - y0);
        each(Band::new(width, y0, n, colour, depth)?)?;
        y0 += n;
    }
    Ok(())
}

/// Rows in each band of [`bands`] for buffers of `len` entries (0: not one row).
pub(crate) fn band_rows(width: u16, height: u16, len: usize) -> u16 {
    (len / usize::from(width).max(1)).min(usize::from(height)) as u16
}

/// A `DrawTarget` over a row-major slice of `width × height` pixels.
///
/// ```
/// use embedded_graphics_core::pixelcolor::{Rgb565, RgbColor};
/// use embedded_graphics_core::draw_target::DrawTarget;
/// use skin_core::raster::FrameBuffer;
/// let mut px = [Rgb565::BLACK; 6];
/// let mut fb = FrameBuffer::new(&mut px, 3, 2).unwrap();
/// fb.clear(Rgb565::RED).unwrap();
/// assert_eq!(px, [Rgb565::RED; 6]);
/// ```
#[derive(Debug)]
pub struct FrameBuffer<'a> {
    pixels: &'a mut [Rgb565],
    width: u16,
    height: u16,
}

impl<'a> FrameBuffer<'a> {
    /// The first `width × height` entries of `pixels`; [`RasterError::Buffer`] if shorter.
    pub fn new(pixels: &'a mut [Rgb565], width: u16, height: u16) -> Result<Self, RasterError> {
        let needed = usize::from(width) * usize::from(height);
        if pixels.len() < needed {
            return Err(RasterError::Buffer {
                needed,
                len: pixels.len(),
            });
        }
        Ok(Self {
            pixels: &mut pixels[..needed],
            width,
            height,
        })
    }

    /// The pixels, row-major.
    pub fn pixels(&self) -> &[Rgb565] {
        self.pixels
    }
}

impl OriginDimensions for FrameBuffer<'_> {
    fn size(&self) -> Size {
        Size::new(u32::from(self.width), u32::from(self.height))
    }
}

impl DrawTarget for FrameBuffer<'_> {
    type Color = Rgb565;
    type Error = core::convert::Infallible;

    /// Pixels outside the frame are ignored (the `DrawTarget` contract).
    fn draw_iter<I>(&mut self, pixels: I) -> Result<(), Self::Error>
    where
        I: IntoIterator<Item = Pixel<Rgb565>>,
    {
        let (w, h) = (i32::from(self.width), i32::from(self.height));
        for Pixel(p, c) in pixels {
            if (0..w).contains(&p.x) && (0..h).contains(&p.y) {
                self.pixels[(p.y * w + p.x) as usize] = c;
            }
        }
        Ok(())
    }
}
