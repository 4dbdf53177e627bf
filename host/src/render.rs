//! `skin render`: one frame of a model as a picture, drawn by the GPU reference or by
//! skin-core's software rasteriser — the same camera, shading and colours either way, so
//! the two pictures can be compared pixel for pixel.
//!
//! - **CPU** ([`Cpu`]): the model is baked in memory (no budget, the chosen number format,
//!   only the chosen clip) and played by [`skin_core::raster::Scene`] — the code and the
//!   numbers the firmware runs, so the picture is the firmware's frame.
//! - **GPU** ([`gpu`]): every primitive skinned by the vertex shader through the budget's
//!   uniform palette ([`crate::gpu::Model`]), with skin-core's camera framing the same
//!   bind-pose box.
//!
//! Times loop over the clip's duration, as the device plays clips
//! (`skin_core::clip::Wrap::Loop`): `--time 2.5` of a 2-second clip is 0.5 s.
//!
//! The camera ([`Framing`]) frames the bind positions' box, as the firmware's `Scene` does,
//! or the box of the skinned rest pose — for models whose skins place their meshes far from
//! where they were modelled (RecursiveSkeletons instances one small mesh 84 times).
//!
//! ```no_run
//! use skin_host::render::Cpu;
//! use skin_host::pose::Arith;
//! let rig = skin_host::import::from_path("CesiumMan.glb".as_ref())?;
//! // Clip 0 at 0.5 s as the firmware draws it, 240×240, the scene's own camera.
//! let picture = Cpu::new(&rig, Some(0), Arith::F32)?.render(0.5, (240, 240), None)?;
//! picture.save_png("frame.png".as_ref())?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use embedded_graphics::pixelcolor::Rgb565;
use skin_core::asset::{Asset, AssetError, AssetLane, MAX_PART_BONES};
use skin_core::clip::Wrap;
use skin_core::lane::Q14;
use skin_core::palette::Palette;
use skin_core::raster::scene::{Scene, Scratch, BACKGROUND};
use skin_core::raster::{Bounds, Camera, FrameBuffer, Project, RasterError, ScreenVertex};
use skin_core::transform::Transform;

use crate::bake::{self, BakeError, Options};
use crate::error::PoseError;
use crate::gpu::{GpuError, Model, Reference, View};
use crate::picture::Picture;
use crate::pose::{self, Arith};
use crate::rig::Rig;

/// Why a frame could not be rendered.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    /// The model could not be posed.
    #[error(transparent)]
    Pose(#[from] PoseError),
    /// The model could not be baked for the CPU renderer.
    #[error(transparent)]
    Bake(#[from] BakeError),
    /// The baked asset did not read back (a bug if it happens).
    #[error("the baked asset does not read back: {0}")]
    Asset(AssetError),
    /// The GPU reference failed.
    #[error(transparent)]
    Gpu(#[from] GpuError),
    /// The CPU rasteriser refused the frame.
    #[error("CPU renderer: {0}")]
    Raster(RasterError),
    /// The model has no vertex to frame.
    #[error("the model has no vertices to frame")]
    NoVertices,
    /// The camera cannot frame the model on this screen.
    #[error("cannot frame a {width}x{height} picture of this model (sides of 1..=1024 pixels and a finite box)")]
    Frame {
        /// Width asked for.
        width: u16,
        /// Height asked for.
        height: u16,
    },
}

/// The duration of clip `c` as the baked asset stores it: the last key time of the channels
/// that move what is drawn.
pub fn duration(rig: &Rig, c: usize) -> f32 {
    pose::clip_keys(rig, c, 0)
        .iter()
        .filter_map(|k| k.times.last().copied())
        .fold(0.0, f32::max)
}

/// `anim` with its time looped into the clip (`(c, t)` → `(c, t mod duration)`).
pub fn looped(rig: &Rig, anim: Option<(usize, f32)>) -> Result<Option<(usize, f32)>, PoseError> {
    match anim {
        Some((c, _)) if c >= rig.clips.len() => {
            Err(PoseError::NoAnimation(c.to_string(), rig.clips.len()))
        }
        Some((_, t)) if !t.is_finite() => Err(PoseError::BadTime(t)),
        Some((c, t)) => Ok(Some((c, Wrap::Loop.time(t, duration(rig, c))))),
        None => Ok(None),
    }
}

/// Which box the camera frames.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Framing {
    /// The drawn vertices' bind positions: the camera of `skin_core::raster::Scene`, so
    /// the firmware's.
    Bind,
    /// Every vertex skinned at the rest pose (in `f32`).
    Rest,
}

/// The box `framing` names for `rig` (split as `model`), in model units.
pub fn bounds(rig: &Rig, model: &Model, framing: Framing) -> Result<Bounds, RenderError> {
    let b = match framing {
        Framing::Bind => model.bounds(),
        Framing::Rest => {
            let blocks = pose::pose(rig, None, Arith::F32)?;
            Bounds::of(blocks.into_iter().flat_map(|b| b.positions))
        }
    };
    b.ok_or(RenderError::NoVertices)
}

/// The camera framing `bounds` (model units) on a `width × height` screen.
pub fn camera(bounds: &Bounds, (width, height): (u16, u16)) -> Result<Camera, RenderError> {
    Camera::frame(bounds, width, height).ok_or(RenderError::Frame { width, height })
}

/// The GPU picture of `rig` (split as `model`) at the rest pose or clip `c` at `t` seconds
/// (looped), `width × height` pixels, the camera framing `bounds` (model units; see
/// [`bounds`]).
pub fn gpu(
    gpu: &Reference,
    rig: &Rig,
    model: &Model,
    anim: Option<(usize, f32)>,
    bounds: &Bounds,
    (width, height): (u16, u16),
) -> Result<Picture, RenderError> {
    let palettes = model.palettes(rig, looped(rig, anim)?)?;
    let cam = camera(bounds, (width, height))?;
    let view = View::scene(cam, width, height, model.shading());
    Ok(gpu.render(&model.batches(&palettes), &view, model.budget, model.layout)?)
}

/// The CPU renderer of one clip (or the rest pose) of a model: the model baked in memory,
/// played by skin-core's `Scene`.
#[derive(Clone, Debug)]
pub struct Cpu {
    bytes: Vec<u8>,
    arith: Arith,
    unit_exponent: i32,
}

/// Vertices skinned at a time (the scene's scratch).
const CHUNK: usize = 64;

/// The most bones the CPU renderer's scene holds. A baked asset's bones are every posed
/// node of the model, all skins together (RecursiveSkeletons has 924).
pub const SCENE_BONES: usize = 2048;

impl Cpu {
    /// Bake `rig` with clip `clip` only (none: the rest pose) in `arith`.
    pub fn new(rig: &Rig, clip: Option<usize>, arith: Arith) -> Result<Self, RenderError> {
        let options = Options {
            budget: None,
            arith,
            clips: Some(clip.into_iter().collect()),
        };
        let baked = bake::bake(rig, &options)?;
        Ok(Self {
            bytes: baked.bytes,
            arith,
            unit_exponent: baked.unit_exponent,
        })
    }

    /// The frame at `t` seconds (looped), `width × height` pixels; the camera frames
    /// `bounds` (model units), or without them the bind positions as `Scene` does.
    pub fn render(
        &self,
        t: f32,
        size: (u16, u16),
        bounds: Option<&Bounds>,
    ) -> Result<Picture, RenderError> {
        if !t.is_finite() {
            return Err(PoseError::BadTime(t).into());
        }
        // The camera in asset units, 2^k model units.
        let camera = bounds
            .map(|b| {
                let s = pose::to_asset(self.unit_exponent);
                let asset = Bounds {
                    min: b.min.map(|v| v * s),
                    max: b.max.map(|v| v * s),
                };
                camera(&asset, size)
            })
            .transpose()?;
        match self.arith {
            Arith::F32 => draw::<f32>(&self.bytes, t, size, camera),
            Arith::Fixed => draw::<Q14>(&self.bytes, t, size, camera),
        }
    }
}

/// Play the asset `bytes` at `t` in lane `L` into a picture, seen by `camera` (or the
/// scene's own).
fn draw<L: AssetLane + Project>(
    bytes: &[u8],
    t: f32,
    (width, height): (u16, u16),
    camera: Option<Camera>,
) -> Result<Picture, RenderError> {
    let asset = Asset::<L>::read(bytes).map_err(RenderError::Asset)?;
    let mut scene = Scene::<L, SCENE_BONES>::new(asset, width, height).map_err(|e| match e {
        RasterError::Screen => RenderError::Frame { width, height },
        e => RenderError::Raster(e),
    })?;
    if let Some(c) = camera {
        scene = scene.with_camera(c);
    }
    let n = scene.bones();
    let mut pose = vec![Transform::<L::Real>::IDENTITY; n];
    let mut world = vec![skin_core::affine::Affine::<L::Real>::IDENTITY; n];
    scene
        .pose(t, &mut pose, &mut world, &mut ())
        .map_err(RenderError::Raster)?;
    let mut palette: Box<Palette<L, MAX_PART_BONES>> = Box::default();
    let mut scratch: Box<Scratch<L, CHUNK>> = Box::default();
    let mut vertices = vec![ScreenVertex::default(); scene.vertices()];
    scene
        .project(&world, &mut palette, &mut scratch, &mut vertices, &mut ())
        .map_err(RenderError::Raster)?;
    let mut picture = Picture::filled(u32::from(width), u32::from(height), BACKGROUND);
    let mut frame =
        FrameBuffer::new(&mut picture.pixels, width, height).map_err(RenderError::Raster)?;
    // One band the height of the frame: the picture does not depend on the band height.
    let pixels = usize::from(width) * usize::from(height);
    let (mut colour, mut depth) = (vec![Rgb565::default(); pixels], vec![0u16; pixels]);
    scene
        .render(&vertices, &mut frame, &mut colour, &mut depth, &mut ())
        .map_err(|e| match e {
            skin_core::raster::FrameError::Raster(e) => RenderError::Raster(e),
            skin_core::raster::FrameError::Target(never) => match never {},
        })?;
    Ok(picture)
}
