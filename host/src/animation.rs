//! Animations: a whole clip rendered frame by frame (`skin render … -o clip.gif`) or the
//! firmware's frame dump ([`crate::frames`]) encoded as an animated GIF or APNG.
//!
//! - **GIF** (`.gif`): 256 colours a frame. A frame with at most 256 distinct colours (a
//!   flat-shaded figure on a plain background often has) is stored exactly; a richer one is
//!   quantised by NeuQuant. Delays are whole centiseconds, so frame `k` of a clip at `fps`
//!   frames a second ends at `round(100·(k+1)/fps)` cs: the clip keeps its length. Browsers
//!   slow down frames shorter than 2 cs, hence at most [`MAX_FPS`] frames a second.
//! - **APNG** (`.apng`): every frame exact (24-bit RGB), its delay `1000 / (1000·fps)` s.
//!
//! [`Renderer`] draws one frame of a clip with the CPU renderer (the firmware's picture),
//! the GPU reference (by either skinning method), both side by side with their difference
//! amplified, or the GPU's two skinning methods side by side.
//!
//! ```
//! use embedded_graphics::pixelcolor::{Rgb565, RgbColor};
//! use skin_host::animation::{Animation, Format};
//! use skin_host::picture::Picture;
//! let mut bytes = Vec::new();
//! let mut anim = Animation::new(Format::Gif, &mut bytes, (4, 4), 10.0, 2)?;
//! anim.push(&Picture::filled(4, 4, Rgb565::RED))?;
//! anim.push(&Picture::filled(4, 4, Rgb565::BLUE))?;
//! anim.finish()?;
//! assert_eq!(&bytes[..6], b"GIF89a");
//! # Ok::<(), skin_host::animation::AnimationError>(())
//! ```

use std::collections::HashMap;
use std::io::Write;
use std::path::Path;

use embedded_graphics::pixelcolor::{Rgb565, RgbColor};
use skin_core::budget::{Budget, Layout};
use skin_core::clip::Wrap;
use skin_core::raster::Bounds;

use crate::bake::Extras;
use crate::gpu::{Model, Reference};
use crate::picture::{self, Picture};
use crate::pose::animate::duration;
use crate::pose::{LaneKind, Layers, PoseError, Skinning};
use crate::render::{self, Cpu, RenderError};
use crate::rig::Rig;

/// The most frames a second an animation plays (GIF delays under 2 cs are not honoured).
pub const MAX_FPS: f32 = 50.0;

/// The fewest frames a second: ten seconds a frame (the firmware's few frames of a long
/// clip play at their real rate; APNG's delay denominator `1000·fps` stays a whole number).
pub const MIN_FPS: f32 = 0.1;

/// The most frames an animation holds (a minute at 50 frames a second).
pub const MAX_FRAMES: usize = 3000;

/// How much the `compare` picture amplifies the CPU–GPU difference of each channel.
pub const GAIN: u8 = 8;

/// An animation file format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Animated GIF, 256 colours a frame.
    Gif,
    /// Animated PNG, exact colours.
    Apng,
}

impl Format {
    /// The format named by `path`'s extension (`.gif`, `.apng`, any case), if any.
    pub fn of(path: &Path) -> Option<Format> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "gif" => Some(Format::Gif),
            "apng" => Some(Format::Apng),
            _ => None,
        }
    }
}

/// Why an animation could not be made.
#[derive(Debug, thiserror::Error)]
pub enum AnimationError {
    /// A frame could not be rendered.
    #[error(transparent)]
    Render(#[from] RenderError),
    /// The frame rate is out of range.
    #[error("frame rate {0} is not within {MIN_FPS}..={MAX_FPS} frames a second")]
    Fps(f32),
    /// Too many frames.
    #[error("{0} frames is more than an animation holds ({MAX_FRAMES})")]
    TooLong(usize),
    /// A frame's size differs from the animation's.
    #[error("frame {index} is {got:?} pixels, the animation {want:?}")]
    Size {
        /// The frame.
        index: usize,
        /// Its size.
        got: (u32, u32),
        /// The animation's.
        want: (u32, u32),
    },
    /// The GIF encoder failed.
    #[error("GIF: {0}")]
    Gif(#[from] gif::EncodingError),
    /// The PNG encoder failed.
    #[error("APNG: {0}")]
    Png(#[from] png::EncodingError),
}

/// The times of a clip of `duration` seconds played at `fps`: `k / fps` for every `k`
/// with `k / fps < duration` (one frame, at 0, for a clip without length).
///
/// ```
/// assert_eq!(skin_host::animation::times(1.0, 4.0).unwrap(), [0.0, 0.25, 0.5, 0.75]);
/// ```
pub fn times(duration: f32, fps: f32) -> Result<Vec<f32>, AnimationError> {
    if !(MIN_FPS..=MAX_FPS).contains(&fps) {
        return Err(AnimationError::Fps(fps));
    }
    let n = (duration.max(0.0) * fps - 1e-3).ceil().max(1.0);
    if n > MAX_FRAMES as f32 {
        return Err(AnimationError::TooLong(n as usize));
    }
    Ok((0..n as usize).map(|k| k as f32 / fps).collect())
}

/// An animation being written frame by frame.
pub struct Animation<W: Write> {
    encoder: Encoder<W>,
    size: (u32, u32),
    fps: f32,
    pushed: usize,
}

enum Encoder<W: Write> {
    Gif(gif::Encoder<W>),
    Apng(png::Writer<W>),
}

impl<W: Write> Animation<W> {
    /// An animation of `frames` frames (APNG needs the count up front) of `size` pixels
    /// (each side 1..=65535) at `fps` frames a second, looping forever, written to `w`.
    pub fn new(
        format: Format,
        w: W,
        size: (u32, u32),
        fps: f32,
        frames: usize,
    ) -> Result<Self, AnimationError> {
        if !(MIN_FPS..=MAX_FPS).contains(&fps) {
            return Err(AnimationError::Fps(fps));
        }
        if frames > MAX_FRAMES {
            return Err(AnimationError::TooLong(frames));
        }
        let side = |v: u32| u16::try_from(v).unwrap_or(u16::MAX);
        let encoder = match format {
            Format::Gif => {
                let mut e = gif::Encoder::new(w, side(size.0), side(size.1), &[])?;
                e.set_repeat(gif::Repeat::Infinite)?;
                Encoder::Gif(e)
            }
            Format::Apng => {
                let mut e = png::Encoder::new(w, size.0, size.1);
                e.set_color(png::ColorType::Rgb);
                e.set_depth(png::BitDepth::Eight);
                e.set_animated(frames.max(1) as u32, 0)?;
                // Milliseconds over a thousandth of the rate: exact for whole rates.
                e.set_frame_delay(1000, (fps * 1000.0).round() as u16)?;
                Encoder::Apng(e.write_header()?)
            }
        };
        Ok(Self {
            encoder,
            size,
            fps,
            pushed: 0,
        })
    }

    /// Add the next frame.
    pub fn push(&mut self, p: &Picture) -> Result<(), AnimationError> {
        if (p.width, p.height) != self.size {
            return Err(AnimationError::Size {
                index: self.pushed,
                got: (p.width, p.height),
                want: self.size,
            });
        }
        let k = self.pushed as f64;
        match &mut self.encoder {
            Encoder::Gif(e) => {
                // Centiseconds from the start to the end of frame `k`.
                let end = |k: f64| (100.0 * k / f64::from(self.fps)).round() as u64;
                let mut frame = gif_frame(p);
                frame.delay = u16::try_from(end(k + 1.0) - end(k)).unwrap_or(u16::MAX);
                e.write_frame(&frame)?;
            }
            Encoder::Apng(w) => w.write_image_data(&p.rgb8())?,
        }
        self.pushed += 1;
        Ok(())
    }

    /// Finish the file.
    pub fn finish(self) -> Result<(), AnimationError> {
        match self.encoder {
            Encoder::Gif(e) => drop(e.into_inner()?),
            Encoder::Apng(w) => w.finish()?,
        }
        Ok(())
    }
}

/// A GIF frame of `p`: exact with a palette of its own colours when it has at most 256,
/// else quantised.
fn gif_frame(p: &Picture) -> gif::Frame<'static> {
    let (w, h) = (p.width as u16, p.height as u16);
    let mut index: HashMap<Rgb565, u8> = HashMap::new();
    let mut palette = Vec::with_capacity(256 * 3);
    let mut pixels = Vec::with_capacity(p.pixels.len());
    for &c in &p.pixels {
        let next = index.len();
        let i = *index.entry(c).or_insert_with(|| {
            palette.extend_from_slice(&picture::rgb8(c));
            next.min(255) as u8
        });
        if index.len() > 256 {
            return gif::Frame::from_rgb_speed(w, h, &p.rgb8(), 10);
        }
        pixels.push(i);
    }
    gif::Frame::from_palette_pixels(w, h, pixels, palette, None)
}

/// Who draws an animation's frames.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// skin-core's rasteriser playing the clip baked in this number format for this
    /// skinning method (the firmware's frame).
    Cpu(LaneKind, Skinning),
    /// The wgpu reference, skinning by this method.
    Gpu(Skinning),
    /// CPU (`f32`) | GPU | their difference, each channel's amplified [`GAIN`] times, both
    /// skinning by this method.
    Compare(Skinning),
    /// The wgpu reference's linear blend skinning | its dual quaternion skinning.
    LbsDqs,
}

/// Draws frames of one clip (or the rest pose) of a model.
pub struct Renderer<'a> {
    rig: &'a Rig,
    clip: Option<usize>,
    backend: Backend,
    size: (u16, u16),
    cpu: Cpu,
    /// The device, the models it draws (one, or LBS then DQS) and the camera's box.
    gpu: Option<(Reference, Vec<Model>, Bounds)>,
    /// The animation layer on every frame (empty: the clip as it is).
    layers: Layers,
}

impl<'a> Renderer<'a> {
    /// A renderer of clip `clip` (none: the rest pose) of `rig`, its palettes split for
    /// `budget`, `size` pixels a picture.
    pub fn new(
        rig: &'a Rig,
        clip: Option<usize>,
        backend: Backend,
        budget: Budget,
        size: (u16, u16),
    ) -> Result<Self, RenderError> {
        Self::with_extras(rig, clip, backend, budget, size, Extras::default())
    }

    /// [`Renderer::new`] whose CPU renderer plays `extras` from the asset (correctives
    /// weighed by each frame's pose, a lattice at each frame's time: [`Cpu::with_extras`]).
    pub fn with_extras(
        rig: &'a Rig,
        clip: Option<usize>,
        backend: Backend,
        budget: Budget,
        size: (u16, u16),
        extras: Extras<'_>,
    ) -> Result<Self, RenderError> {
        // The CPU renderer draws (or frames the GPU's camera) by the method compared; the
        // GPU alone is framed by the LBS asset, which any rig bakes to.
        let played = match backend {
            Backend::Cpu(a, s) => (a, s),
            Backend::Compare(s) => (LaneKind::F32, s),
            Backend::Gpu(_) | Backend::LbsDqs => (LaneKind::F32, Skinning::Lbs),
        };
        let cpu = Cpu::with_extras(rig, clip, played, Some(budget), extras)?;
        let methods = match backend {
            Backend::Cpu(..) => vec![],
            Backend::Gpu(s) | Backend::Compare(s) => vec![s],
            Backend::LbsDqs => vec![Skinning::Lbs, Skinning::Dqs],
        };
        let gpu = match methods.is_empty() {
            true => None,
            false => {
                let reference = Reference::new()?;
                let models = methods
                    .into_iter()
                    .map(|s| Model::with_skinning(rig, budget, Layout::Affine3x4, s))
                    .collect::<Result<Vec<_>, _>>()?;
                let bounds = cpu.rest_bounds(size)?;
                Some((reference, models, bounds))
            }
        };
        Ok(Self {
            rig,
            clip,
            backend,
            size,
            cpu,
            gpu,
            layers: Layers::default(),
        })
    }

    /// The renderer drawing every frame with the animation layer `layers` (blends, a mask,
    /// an additive clip, a walk, IK, look-at: as `skin pose` poses it) on the clip, or in
    /// place of it where `layers` blends clips.
    pub fn with_layers(mut self, layers: Layers) -> Self {
        self.layers = layers;
        self
    }

    /// The largest |weight| the CPU renderer's budget of active morph targets dropped in a
    /// frame drawn so far ([`Cpu::dropped_weight`]; 0 when the CPU drew none).
    pub fn dropped_weight(&self) -> f32 {
        self.cpu.dropped_weight()
    }

    /// The clip's duration in seconds; without a clip, the longest blended clip's, or else
    /// one stride of the walk (0 for the rest pose).
    pub fn duration(&self) -> f32 {
        let blended = || {
            let d = self.layers.blend.iter();
            d.map(|&(c, _)| duration(self.rig, c)).fold(0.0, f32::max)
        };
        let stride = || {
            self.layers
                .walk
                .as_ref()
                .map_or(0.0, |w| w.stride / w.speed)
        };
        match self.clip {
            Some(c) => duration(self.rig, c),
            None if !self.layers.blend.is_empty() => blended(),
            None => stride(),
        }
    }

    /// The picture at `t` seconds (looped).
    pub fn frame(&self, t: f32) -> Result<Picture, RenderError> {
        if !t.is_finite() {
            return Err(PoseError::BadTime(t).into());
        }
        let layered = !self.layers.is_empty();
        // The animation layer's clips and walk loop over the animation's length.
        let t = match self.duration() {
            d if layered && d > 0.0 => Wrap::Loop.time(t, d),
            _ => t,
        };
        let gpu = |(reference, models, bounds): &(Reference, Vec<Model>, Bounds), m: usize| {
            let model = &models[m];
            match layered {
                true => {
                    let (layers, size) = (&self.layers, self.size);
                    render::gpu_layered(
                        reference,
                        self.rig,
                        model,
                        (self.clip, t),
                        layers,
                        bounds,
                        size,
                    )
                }
                false => {
                    let anim = self.clip.map(|c| (c, t));
                    render::gpu(reference, self.rig, model, anim, bounds, self.size)
                }
            }
        };
        let cpu = || match layered {
            true => {
                let frame = (self.clip, t);
                self.cpu
                    .render_layered(self.rig, frame, &self.layers, self.size)
            }
            false => self.cpu.render(t, self.size),
        };
        match (&self.gpu, self.backend) {
            (Some(g), Backend::Gpu(_)) => gpu(g, 0),
            (Some(g), Backend::Compare(_)) => {
                let c = cpu()?;
                let g = gpu(g, 0)?;
                let d = c.amplified(&g, GAIN);
                Ok(c.beside(&[&g, &d], 4, Rgb565::BLACK))
            }
            (Some(g), Backend::LbsDqs) => Ok(gpu(g, 0)?.beside(&[&gpu(g, 1)?], 4, Rgb565::BLACK)),
            _ => cpu(),
        }
    }

    /// Who draws, in words: `CPU (f32)`, `CPU (fixed, dqs)`, `GPU (f32)`, `GPU (f32,
    /// dqs)`, `CPU | GPU | difference x8`, `CPU | GPU | difference x8 (dqs)`, `GPU lbs |
    /// GPU dqs`.
    pub fn describe(&self) -> String {
        match self.backend {
            Backend::Cpu(a, Skinning::Lbs) => format!("CPU ({})", a.name()),
            Backend::Cpu(a, Skinning::Dqs) => format!("CPU ({}, dqs)", a.name()),
            Backend::Gpu(Skinning::Lbs) => "GPU (f32)".into(),
            Backend::Gpu(Skinning::Dqs) => "GPU (f32, dqs)".into(),
            Backend::Compare(Skinning::Lbs) => format!("CPU | GPU | difference x{GAIN}"),
            Backend::Compare(Skinning::Dqs) => format!("CPU | GPU | difference x{GAIN} (dqs)"),
            Backend::LbsDqs => "GPU lbs | GPU dqs".into(),
        }
    }

    /// The size of [`Self::frame`]'s pictures.
    pub fn picture_size(&self) -> (u32, u32) {
        let (w, h) = (u32::from(self.size.0), u32::from(self.size.1));
        match self.backend {
            Backend::Compare(_) => (3 * w + 8, h),
            Backend::LbsDqs => (2 * w + 4, h),
            _ => (w, h),
        }
    }
}

/// Render the clip at `fps` into `w` as `format`, calling `on_frame(done, total)` after
/// each frame; returns the frames written.
pub fn render_clip(
    renderer: &Renderer<'_>,
    format: Format,
    fps: f32,
    w: impl Write,
    mut on_frame: impl FnMut(usize, usize),
) -> Result<usize, AnimationError> {
    let times = times(renderer.duration(), fps)?;
    let mut anim = Animation::new(format, w, renderer.picture_size(), fps, times.len())?;
    for (k, &t) in times.iter().enumerate() {
        anim.push(&renderer.frame(t)?)?;
        on_frame(k + 1, times.len());
    }
    anim.finish()?;
    Ok(times.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frame_times_cover_the_clip_once() {
        assert_eq!(times(2.0, 30.0).unwrap().len(), 60);
        assert_eq!(times(0.0, 30.0).unwrap(), [0.0]);
        // A clip a little longer than a whole number of frames gets one more.
        assert_eq!(times(1.01, 10.0).unwrap().len(), 11);
        assert_eq!(times(10.0, 0.25).unwrap(), [0.0, 4.0, 8.0]);
        assert!(matches!(times(1.0, 0.05), Err(AnimationError::Fps(_))));
        assert!(matches!(times(1.0, 51.0), Err(AnimationError::Fps(_))));
        assert!(matches!(
            times(1000.0, 50.0),
            Err(AnimationError::TooLong(50000))
        ));
    }

    #[test]
    fn gif_delays_keep_the_clip_length_and_colours_are_exact() {
        let mut bytes = Vec::new();
        let mut anim = Animation::new(Format::Gif, &mut bytes, (3, 2), 30.0, 3).unwrap();
        let mut p = Picture::filled(3, 2, Rgb565::new(3, 40, 17));
        for k in 0..3 {
            p.pixels[k] = Rgb565::WHITE;
            anim.push(&p).unwrap();
        }
        anim.finish().unwrap();
        let mut decoder = gif::DecodeOptions::new();
        decoder.set_color_output(gif::ColorOutput::RGBA);
        let mut d = decoder.read_info(bytes.as_slice()).unwrap();
        let mut delays = Vec::new();
        while let Some(f) = d.read_next_frame().unwrap() {
            delays.push(f.delay);
            let rgb: Vec<u8> = f
                .buffer
                .chunks(4)
                .flat_map(|c| [c[0], c[1], c[2]])
                .collect();
            assert_eq!(rgb[15..], picture::rgb8(Rgb565::new(3, 40, 17)));
            assert_eq!(rgb[..3], [255; 3]);
        }
        assert_eq!(delays, [3, 4, 3]);
    }

    #[test]
    fn frames_of_another_size_are_refused() {
        let mut anim = Animation::new(Format::Apng, Vec::new(), (3, 2), 10.0, 1).unwrap();
        let err = anim.push(&Picture::filled(2, 2, Rgb565::RED)).unwrap_err();
        assert_eq!(
            err.to_string(),
            "frame 0 is (2, 2) pixels, the animation (3, 2)"
        );
    }
}
