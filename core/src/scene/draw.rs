//! Raster: the projected triangles of every part into bands of pixels, in the material's
//! shades, and the bands to the display.

use embedded_graphics_core::draw_target::DrawTarget;
use embedded_graphics_core::pixelcolor::Rgb565;

use super::{Scene, Stage, Stages};
use crate::asset::AssetLane;
use crate::raster::band::shades;
use crate::raster::bins::{self, Span};
use crate::raster::frame::{band_rows, bands};
use crate::raster::split::Share;
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
        let share = Share::WHOLE;
        self.render_share(share, vertices, spans, colour, depth, stages, |band| {
            band.flush(target).map_err(FrameError::Target)
        })
    }

    /// The bands of `share` of the frame of `vertices` ([`split`](crate::raster::split)),
    /// top to bottom, each cleared, drawn ([`Stage::Raster`]) and handed to `done`
    /// ([`Stage::Display`]): what [`Self::render_binned`] draws of those bands, bit for bit.
    /// The frame is binned into `spans` as there; the bands of other cores are passed over
    /// (their triangles set up, not filled) to carry what reaches further down. Only
    /// `spans`, `colour` and `depth` are written, so cores sharing a frame each need their
    /// own.
    #[allow(clippy::too_many_arguments)] // render_binned's, with the share and the hand-over
    pub fn render_share<E>(
        &self,
        share: Share,
        vertices: &[ScreenVertex],
        spans: &mut [Span],
        colour: &mut [Rgb565],
        depth: &mut [u16],
        stages: &mut impl Stages,
        mut done: impl FnMut(&Band<'_>) -> Result<(), FrameError<E>>,
    ) -> Result<(), FrameError<E>> {
        let (width, height) = (self.width, self.height);
        let rows = band_rows(width, height, colour.len().min(depth.len()));
        let total = self.vertices();
        let parts = || self.asset.parts().map(|p| (p.vertex_range(), p.indices()));
        let mut binned = stages.time(Stage::Raster, || {
            bins::bin(parts(), vertices, total, (width, height, rows), spans)
        })?;
        // The columns this core's previous band drew in: all that the next clears again.
        let mut drawn = None;
        // Bands until this core's next (counted down: no division on ARMv6-M).
        let mut turn = share.core();
        bands(width, height, colour, depth, |mut band| {
            let mine = turn == 0;
            turn = if mine { share.cores() - 1 } else { turn - 1 };
            if !mine {
                let below = i32::from(band.y0()) + i32::from(band.rows());
                return match &mut binned {
                    Some(bins) => stages.time(Stage::Raster, || {
                        Ok(bins.pass(below, parts(), vertices, spans)?)
                    }),
                    None => Ok(()),
                };
            }
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
            stages.time(Stage::Display, || done(&band))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    extern crate std;
    use crate::affine::Affine;
    use crate::asset::{Asset, AssetParts, Part};
    use crate::palette::Palette;
    use crate::raster::FrameBuffer;
    use crate::scene::Scratch;
    use crate::skin::Skinning;
    use crate::transform::Transform;
    use crate::vertex::Influence;
    use embedded_graphics_core::pixelcolor::RgbColor;
    use std::vec;
    use std::vec::Vec;

    const W: u16 = 48;
    const H: u16 = 41;
    /// Two parts of overlapping triangles, some facing away, all at random.
    const VERTICES: usize = 90;

    /// A baked asset of `VERTICES` random points in 60 triangles over two parts.
    fn asset_bytes() -> Vec<u8> {
        let mut seed = 0x2545_f491u32;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            (seed % 2001) as f32 / 1000.0 - 1.0
        };
        let positions: Vec<[f32; 3]> = (0..VERTICES).map(|_| [next(), next(), next()]).collect();
        let normals: Vec<[f32; 3]> = (0..VERTICES).map(|_| [next(), next(), 1.0]).collect();
        // Each part's indices count from its own first vertex.
        let indices: Vec<u16> = (0..VERTICES as u16)
            .map(|i| i % (VERTICES as u16 / 2))
            .collect();
        let influences = vec![Influence::rigid(0); VERTICES];
        let half = (VERTICES / 2) as u32;
        let parts = [
            Part {
                vertices: half,
                indices: half,
                bones: &[0],
            },
            Part {
                vertices: half,
                indices: half,
                bones: &[0],
            },
        ];
        let asset = AssetParts {
            unit_exponent: 0,
            parents: &[None],
            rest: &[Transform::IDENTITY],
            root: Affine::IDENTITY,
            joints: &[0],
            inverse_binds: &[Affine::IDENTITY],
            positions: &positions,
            normals: Some(&normals),
            tangents: None,
            influences: &influences,
            indices: &indices,
            parts: &parts,
            clips: &[],
            skinning: Skinning::Lbs,
            centre: [0.0; 3],
        };
        let mut bytes = vec![0u8; 16 * 1024];
        let n = asset.write(&mut bytes).unwrap();
        bytes.truncate(n);
        bytes
    }

    /// The frame as `cores` cores draw it in bands of `rows` rows with `room` spans each,
    /// every band put where it belongs as the display takes them in order.
    fn shared(
        scene: &Scene<'_, f32, 1>,
        v: &[ScreenVertex],
        cores: usize,
        rows: u16,
        room: usize,
    ) -> Vec<Rgb565> {
        let width = usize::from(W);
        let mut bands: Vec<Vec<(u16, Vec<Rgb565>)>> = Vec::new();
        for core in 0..cores {
            let share = Share::new(core, cores).unwrap();
            let (mut colour, mut depth) = (
                vec![Rgb565::BLACK; width * usize::from(rows)],
                vec![0u16; width * usize::from(rows)],
            );
            let mut spans = vec![Span::default(); room];
            let mut mine = Vec::new();
            scene
                .render_share::<()>(
                    share,
                    v,
                    &mut spans,
                    &mut colour,
                    &mut depth,
                    &mut (),
                    |band| {
                        mine.push((band.y0(), band.colour().to_vec()));
                        Ok(())
                    },
                )
                .unwrap();
            bands.push(mine);
        }
        let mut frame = Vec::new();
        let mut next: Vec<_> = bands.into_iter().map(|b| b.into_iter()).collect();
        for band in 0..usize::from(H.div_ceil(rows)) {
            let (y0, colour) = next[Share::owner(band, cores)]
                .next()
                .expect("the band's owner drew it");
            assert_eq!(
                usize::from(y0),
                frame.len() / width,
                "band {band} of {cores} cores"
            );
            frame.extend(colour);
        }
        assert!(
            next.iter_mut().all(|n| n.next().is_none()),
            "no band drawn twice"
        );
        frame
    }

    /// Two or three cores sharing the bands (binned with room for every triangle, for
    /// some, for none) draw the one-core frame bit for bit.
    #[test]
    fn bands_shared_between_cores_are_the_one_core_frame() {
        let bytes = asset_bytes();
        let scene = Scene::<f32, 1>::new(Asset::<f32>::read(&bytes).unwrap(), W, H).unwrap();
        let (mut pose, mut world) = ([Transform::IDENTITY; 1], [Affine::IDENTITY; 1]);
        scene.pose(0.0, &mut pose, &mut world, &mut ()).unwrap();
        let mut v = vec![ScreenVertex::default(); VERTICES];
        let mut scratch = Scratch::<f32, 8>::default();
        scene
            .project(
                &world,
                &mut Palette::<f32, 1>::new(),
                &mut scratch,
                &mut v,
                &mut (),
            )
            .unwrap();
        for rows in [1, 3, 4, 7] {
            let mut px = vec![Rgb565::BLACK; usize::from(W) * usize::from(H)];
            let n = usize::from(W) * usize::from(rows);
            let (mut colour, mut depth) = (vec![Rgb565::BLACK; n], vec![0u16; n]);
            let mut spans = vec![Span::default(); scene.triangles()];
            let mut target = FrameBuffer::new(&mut px, W, H).unwrap();
            scene
                .render_binned(
                    &v,
                    &mut spans,
                    &mut target,
                    &mut colour,
                    &mut depth,
                    &mut (),
                )
                .unwrap();
            assert!(
                px.iter().filter(|&&c| c != BACKGROUND).count() > 100,
                "the triangles show"
            );
            for room in [scene.triangles(), 7, 0] {
                for cores in 1..=3 {
                    assert!(
                        shared(&scene, &v, cores, rows, room) == px,
                        "{cores} cores, {rows} rows, {room} spans"
                    );
                }
            }
        }
    }
}
