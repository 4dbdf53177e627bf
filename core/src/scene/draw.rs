//! Raster: the projected triangles of every part into bands of pixels, in the material's
//! shades, and the bands to the display.

use embedded_graphics_core::draw_target::DrawTarget;
use embedded_graphics_core::pixelcolor::Rgb565;

use super::{Scene, Stage, Stages};
use crate::asset::AssetLane;
use crate::raster::band::shades;
use crate::raster::bins::{self, Span};
use crate::raster::frame::{band_rows, bands};
use crate::raster::{Band, FrameError, Project, RasterError, ScreenVertex};

/// The material's RGB565 channels.
const CLAY: [u8; 3] = [29, 52, 22];

/// The material colour (a light clay), scaled by each triangle's intensity.
pub const MATERIAL: Rgb565 = Rgb565::new(CLAY[0], CLAY[1], CLAY[2]);

/// [`MATERIAL`] at every intensity.
static SHADES: [Rgb565; 256] = shades(CLAY);

/// The background colour (a dark slate).
pub const BACKGROUND: Rgb565 = Rgb565::new(3, 8, 8);

impl<L: AssetLane + Project, const N: usize> Scene<'_, L, N> {
    /// Triangles in the asset (all parts): spans enough for [`Self::render_binned`] to bin
    /// any frame (it needs one per front-facing triangle on the screen).
    pub fn triangles(&self) -> usize {
        self.asset.indices().len() / 3
    }

    /// Draw every part's triangles (projected `vertices`) into `band`.
    pub fn draw(&self, band: &mut Band<'_>, vertices: &[ScreenVertex]) -> Result<(), RasterError> {
        for part in self.asset.parts() {
            let v = bins::run_of(vertices, part.vertex_range(), self.vertices())?;
            band.draw_shaded(v, part.indices().iter(), |s| SHADES[usize::from(s)])?;
        }
        Ok(())
    }

    /// Render the frame of `vertices` into `target` through bands of `colour.len() / width`
    /// rows (as [`render`](crate::raster::render) does): each band is cleared, drawn
    /// ([`Stage::Raster`]) and sent to `target` ([`Stage::Display`]).
    pub fn render<D: DrawTarget<Color = Rgb565>>(
        &self,
        vertices: &[ScreenVertex],
        target: &mut D,
        colour: &mut [Rgb565],
        depth: &mut [u16],
        stages: &mut impl Stages,
    ) -> Result<(), FrameError<D::Error>> {
        self.render_binned(vertices, &mut [], target, colour, depth, stages)
    }

    /// [`Self::render`], binning the triangles first when `spans` holds one entry per
    /// front-facing triangle on the screen (at most [`Self::triangles`]), so that each band
    /// draws only the triangles that reach it; the same frame either way (unbinned when
    /// they do not fit). Binning counts as [`Stage::Raster`].
    pub fn render_binned<D: DrawTarget<Color = Rgb565>>(
        &self,
        vertices: &[ScreenVertex],
        spans: &mut [Span],
        target: &mut D,
        colour: &mut [Rgb565],
        depth: &mut [u16],
        stages: &mut impl Stages,
    ) -> Result<(), FrameError<D::Error>> {
        let (width, height) = (self.width, self.height);
        let rows = band_rows(width, height, colour.len().min(depth.len()));
        let total = self.vertices();
        let parts = || self.asset.parts().map(|p| (p.vertex_range(), p.indices()));
        let mut binned = stages.time(Stage::Raster, || {
            bins::bin(parts(), vertices, total, (width, height, rows), spans)
        })?;
        // The columns the previous band drew in: all that the next clears again.
        let mut drawn = None;
        bands(width, height, colour, depth, |mut band| {
            stages.time(Stage::Raster, || {
                match drawn {
                    Some(columns) => band.clear_again(BACKGROUND, columns),
                    None => band.clear(BACKGROUND),
                }
                match &mut binned {
                    Some(bins) => bins.draw(&mut band, parts(), vertices, spans, &SHADES),
                    None => self.draw(&mut band, vertices),
                }
            })?;
            drawn = Some(band.drawn());
            stages.time(Stage::Display, || {
                band.flush(target).map_err(FrameError::Target)
            })
        })
    }
}
