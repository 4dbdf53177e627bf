//! Where the frame loop's bands go: drawn on this core, one after another, into a display
//! (any embedded-graphics `DrawTarget`: the QEMU boards' frame files, the Pico's panel), or
//! shared with the Pico's second core ([`crate::core1`]).

use embedded_graphics_core::draw_target::DrawTarget;
use embedded_graphics_core::pixelcolor::Rgb565;
use skin_core::asset::AssetLane;
use skin_core::raster::bins::Span;
use skin_core::raster::{FrameError, Project, ScreenVertex};
use skin_core::scene::{Scene, Stages};

use crate::frame::BONES;

/// Draws a frame's projected vertices in bands and sends them to the display, top to bottom.
pub trait Screen<L: AssetLane + Project> {
    /// Why the display could not take a band.
    type Error;

    /// The frame of `vertices`, binned into `spans`, through the band buffers `colour` and
    /// `depth`: what [`Scene::render_binned`] draws, bit for bit.
    fn render(
        &mut self,
        scene: &Scene<'_, L, BONES>,
        vertices: &[ScreenVertex],
        spans: &mut [Span],
        colour: &mut [Rgb565],
        depth: &mut [u16],
        stages: &mut impl Stages,
    ) -> Result<(), FrameError<Self::Error>>;
}

/// One core draws every band and hands each to the display.
impl<L: AssetLane + Project, D: DrawTarget<Color = Rgb565>> Screen<L> for D {
    type Error = <D as DrawTarget>::Error;

    fn render(
        &mut self,
        scene: &Scene<'_, L, BONES>,
        vertices: &[ScreenVertex],
        spans: &mut [Span],
        colour: &mut [Rgb565],
        depth: &mut [u16],
        stages: &mut impl Stages,
    ) -> Result<(), FrameError<Self::Error>> {
        scene.render_binned(vertices, spans, self, colour, depth, stages)
    }
}
