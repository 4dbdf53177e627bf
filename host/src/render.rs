//! `skin render`: one frame of a model as a picture, drawn by the GPU reference or by
//! skin-core's software rasteriser — the same camera, shading and colours either way, so
//! the two pictures can be compared pixel for pixel.
//!
//! - **CPU** ([`Cpu`]): the model is baked in memory (the chosen budget, lane and
//!   skinning method, only the chosen clip) and played by [`skin_core::scene::Scene`] —
//!   the code, the numbers and the camera the firmware runs, so with the firmware's budget
//!   (`vs_1_1`, as `scripts/firmware.sh` bakes) the picture is the firmware's frame, bit
//!   for bit.
//! - **GPU** ([`gpu`]): every primitive skinned by the vertex shader (either method)
//!   through the budget's uniform palette ([`crate::gpu::Model`]), with skin-core's camera
//!   framing the same box.
//!
//! The camera frames the box of the skinned rest pose, as the firmware does
//! ([`Scene::frame_rest_pose`]): a skin may place its mesh far from where it was modelled
//! (CesiumMan is modelled Z-up and stood up by its skin; RecursiveSkeletons instances one
//! small mesh 84 times), so the bind positions' box would miss the figure.
//!
//! Times loop over the clip's duration, as the device plays clips
//! (`skin_core::clip::Wrap::Loop`): `--time 2.5` of a 2-second clip is 0.5 s.
//!
//! ```no_run
//! use skin_core::budget::Budget;
//! use skin_host::render::Cpu;
//! use skin_host::pose::LaneKind;
//! let rig = skin_host::import::from_path("CesiumMan.glb".as_ref())?;
//! // Clip 0 at 0.5 s as the firmware draws it, 240×240.
//! let cpu = Cpu::new(&rig, Some(0), LaneKind::F32, Some(Budget::VS_1_1))?;
//! cpu.render(0.5, (240, 240))?.save_png("frame.png".as_ref())?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::cell::Cell;

use embedded_graphics::pixelcolor::Rgb565;
use skin_core::affine::Affine;
use skin_core::asset::{Asset, AssetError, AssetLane, MAX_PART_BONES};
use skin_core::budget::Budget;
use skin_core::clip::Wrap;
use skin_core::lane::Q14;
use skin_core::num::Fx;
use skin_core::palette::{DualPalette, Palette, StretchPalette};

use skin_core::raster::{Bounds, Camera, FrameBuffer, Project, RasterError, ScreenVertex};
use skin_core::scene::{Scene, Scratch, BACKGROUND};
use skin_core::transform::Transform;

use crate::bake::{self, BakeError, Extras, Options};
use crate::gpu::{GpuError, Model, Reference, View};
use crate::picture::Picture;
use crate::pose::animate::duration;
use crate::pose::layers::layered;
use crate::pose::units::to_asset;
use crate::pose::{LaneKind, Layers, PoseError, Skinning};
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

/// The camera framing `bounds` (model units) on a `width × height` screen.
pub fn camera(bounds: &Bounds, (width, height): (u16, u16)) -> Result<Camera, RenderError> {
    Camera::frame(bounds, width, height).ok_or(RenderError::Frame { width, height })
}

/// The GPU picture of `rig` (split as `model`) at the rest pose or clip `c` at `t` seconds
/// (looped), `width × height` pixels, the camera framing `bounds` (model units; see
/// [`Cpu::rest_bounds`]).
pub fn gpu(
    gpu: &Reference,
    rig: &Rig,
    model: &Model,
    anim: Option<(usize, f32)>,
    bounds: &Bounds,
    (width, height): (u16, u16),
) -> Result<Picture, RenderError> {
    let anim = looped(rig, anim)?;
    gpu_posed(
        gpu,
        rig,
        model,
        anim,
        model.palettes(rig, anim)?,
        bounds,
        (width, height),
    )
}

/// [`gpu`] of the frame's node transforms with the animation layer `layers` applied at
/// `time` ([`layered`], as `skin pose` and [`Cpu::render_layered`] pose it); the clip `anim`
/// (none: the rest pose) at `time` is not looped.
pub fn gpu_layered(
    gpu: &Reference,
    rig: &Rig,
    model: &Model,
    (anim, time): (Option<usize>, f32),
    layers: &Layers,
    bounds: &Bounds,
    size: (u16, u16),
) -> Result<Picture, RenderError> {
    let frame = anim.map(|c| (c, time));
    let (locals, _) = layered::<f32>(rig, frame, time, layers, 0)?;
    let palettes = model.palettes_of(rig, &locals)?;
    gpu_posed(gpu, rig, model, frame, palettes, bounds, size)
}

/// The GPU picture of `model` drawn with `palettes` and the morph weights of the frame
/// `anim`.
fn gpu_posed(
    gpu: &Reference,
    rig: &Rig,
    model: &Model,
    anim: Option<(usize, f32)>,
    palettes: Vec<crate::gpu::FramePalette>,
    bounds: &Bounds,
    (width, height): (u16, u16),
) -> Result<Picture, RenderError> {
    let weights = model.morph_weights(rig, anim);
    let cam = camera(bounds, (width, height))?;
    let view = View::scene(cam, width, height, model.shading());
    Ok(gpu.render(
        &model.mesh_draws(&palettes, &weights),
        &view,
        model.budget,
        model.layout,
    )?)
}

/// The CPU renderer of one clip (or the rest pose) of a model: the model baked in memory,
/// played by skin-core's `Scene`.
#[derive(Clone, Debug)]
pub struct Cpu {
    bytes: Vec<u8>,
    lane: LaneKind,
    unit_exponent: i32,
    /// The rig node of each bone (empty for an asset read as it is).
    bones: Vec<usize>,
    /// The largest |weight| the player's budget of active morph targets dropped in a frame
    /// drawn so far.
    dropped: Cell<f32>,
}

/// Vertices skinned at a time (the scene's scratch).
const CHUNK: usize = 64;

/// The most bones the CPU renderer's scene holds. A baked asset's bones are every posed
/// node of the model, all skins together (RecursiveSkeletons has 924).
pub const SCENE_BONES: usize = 2048;

impl Cpu {
    /// Bake `rig` with clip `clip` only (none: the rest pose) in `lane`, its palettes split
    /// for `budget` (none: only the format's 256 bones a part).
    pub fn new(
        rig: &Rig,
        clip: Option<usize>,
        lane: LaneKind,
        budget: Option<Budget>,
    ) -> Result<Self, RenderError> {
        Self::with_skinning(rig, clip, (lane, Skinning::Lbs), budget)
    }

    /// [`Cpu::new`] skinning by `skinning`: the asset baked for it (a DQS asset's parts
    /// split by the dual quaternion layout) and played with its palette (with stretches
    /// where a joint has scale or shear). A joint dual quaternion skinning cannot take (a
    /// mirror, a flattened joint) is a [`BakeError`] naming it.
    pub fn with_skinning(
        rig: &Rig,
        clip: Option<usize>,
        played: (LaneKind, Skinning),
        budget: Option<Budget>,
    ) -> Result<Self, RenderError> {
        Self::with_extras(rig, clip, played, budget, Extras::default())
    }

    /// [`Cpu::with_skinning`] with `extras` baked into the asset (correctives, which the
    /// player weighs from each frame's pose; a lattice, which it applies after skinning at
    /// each frame's time), played as the firmware plays them.
    pub fn with_extras(
        rig: &Rig,
        clip: Option<usize>,
        (lane, skinning): (LaneKind, Skinning),
        budget: Option<Budget>,
        extras: Extras<'_>,
    ) -> Result<Self, RenderError> {
        let options = Options {
            budget,
            lane,
            clips: Some(clip.into_iter().collect()),
            skinning,
        };
        let baked = bake::bake_with(rig, &options, extras)?;
        Ok(Self {
            bytes: baked.bytes,
            lane,
            unit_exponent: baked.unit_exponent,
            bones: baked.bones,
            dropped: Cell::new(0.0),
        })
    }

    /// A baked asset as it is (`skin check`), in the lane its header names.
    pub fn from_asset(bytes: Vec<u8>) -> Result<Self, RenderError> {
        let (lane, unit) = match Asset::<f32>::read(&bytes) {
            Ok(a) => (LaneKind::F32, a.unit_exponent()),
            Err(AssetError::Lane { .. }) => {
                let a = Asset::<Q14>::read(&bytes).map_err(RenderError::Asset)?;
                (LaneKind::Fixed, a.unit_exponent())
            }
            Err(e) => return Err(RenderError::Asset(e)),
        };
        Ok(Self {
            bytes,
            lane,
            unit_exponent: i32::from(unit),
            bones: Vec::new(),
            dropped: Cell::new(0.0),
        })
    }

    /// Play the asset as the firmware does on a `width × height` screen: its camera framed
    /// on the skinned rest pose, then `frames` frames spread over one loop of its clip,
    /// each posed, skinned, projected and drawn; what it holds and played, or the first
    /// error.
    pub fn play_all(&self, frames: u32, size: (u16, u16)) -> Result<Played, RenderError> {
        fn all<L: AssetLane + Project>(
            s: &mut Scene<'_, L, SCENE_BONES>,
            b: &mut Buffers<L>,
            frames: u32,
            size: (u16, u16),
        ) -> Result<Played, RenderError> {
            let times: Vec<f32> = (0..frames).map(|k| s.frame_time(k, frames)).collect();
            let mut dropped = 0.0f32;
            for &t in &times {
                dropped = dropped.max(draw(s, b, t, size)?.1);
            }
            let a = s.asset();
            Ok(Played {
                lane: L::NAME,
                skinning: a.skinning(),
                bones: s.bones(),
                vertices: s.vertices(),
                triangles: a.indices().len() / 3,
                parts: a.parts().count(),
                clip: s.clip().map(|(n, d)| (n.to_owned(), d)),
                frames: times.len(),
                dropped,
            })
        }
        match self.lane {
            LaneKind::F32 => play::<f32, _>(&self.bytes, size, |s, b| all(s, b, frames, size)),
            LaneKind::Fixed => play::<Q14, _>(&self.bytes, size, |s, b| all(s, b, frames, size)),
        }
    }

    /// The box the camera frames, in model units: the asset skinned at its rest pose in
    /// this lane ([`Scene::skinned_bounds`]), scaled from asset units (a power of two, so
    /// exactly). A camera made from it sees model-unit positions as the scene's camera sees
    /// asset-unit ones.
    pub fn rest_bounds(&self, size: (u16, u16)) -> Result<Bounds, RenderError> {
        let b = match self.lane {
            LaneKind::F32 => play::<f32, _>(&self.bytes, size, rest_box),
            LaneKind::Fixed => play::<Q14, _>(&self.bytes, size, rest_box),
        }?;
        let s = to_asset(self.unit_exponent).recip();
        Ok(Bounds {
            min: b.min.map(|v| v * s),
            max: b.max.map(|v| v * s),
        })
    }

    /// The frame at `t` seconds (looped), `width × height` pixels, seen by the firmware's
    /// camera ([`Scene::frame_rest_pose`]).
    pub fn render(&self, t: f32, size: (u16, u16)) -> Result<Picture, RenderError> {
        if !t.is_finite() {
            return Err(PoseError::BadTime(t).into());
        }
        self.noted(match self.lane {
            LaneKind::F32 => play::<f32, _>(&self.bytes, size, |s, p| draw(s, p, t, size)),
            LaneKind::Fixed => play::<Q14, _>(&self.bytes, size, |s, p| draw(s, p, t, size)),
        })
    }

    /// The largest |weight| the player's budget of active morph targets
    /// ([`skin_core::morph::ACTIVE_TARGETS`] a set) dropped in any frame drawn so far by
    /// [`Self::render`] or [`Self::render_lattice`]: 0 when every frame drew every target
    /// at a non-zero weight.
    pub fn dropped_weight(&self) -> f32 {
        self.dropped.get()
    }

    /// A frame's picture, its dropped weight noted.
    fn noted(&self, frame: Result<(Picture, f32), RenderError>) -> Result<Picture, RenderError> {
        let (picture, dropped) = frame?;
        self.dropped.set(self.dropped.get().max(dropped));
        Ok(picture)
    }
}

impl Cpu {
    /// [`Self::render`] with the animation layer: `rig`'s frame (`anim`, or the rest pose)
    /// with `layers` at `time` ([`layered`], the code `skin pose` runs, in this lane and
    /// asset unit) in place of the clip's pose, morph weights and the camera as at `time`.
    /// `rig` must be the rig this renderer was made from.
    pub fn render_layered(
        &self,
        rig: &Rig,
        (anim, time): (Option<usize>, f32),
        layers: &Layers,
        size: (u16, u16),
    ) -> Result<Picture, RenderError> {
        if !time.is_finite() {
            return Err(PoseError::BadTime(time).into());
        }
        let frame = anim.map(|c| (c, time));
        let k = self.unit_exponent;
        match self.lane {
            LaneKind::F32 => {
                let (locals, _) = layered::<f32>(rig, frame, time, layers, k)?;
                let bones = self.bone_pose(&locals);
                self.noted(play::<f32, _>(&self.bytes, size, |s, b| {
                    draw_posed(s, b, time, size, Some(&bones), |s, b, v| b.project(s, v))
                }))
            }
            LaneKind::Fixed => {
                let (locals, _) = layered::<Fx>(rig, frame, time, layers, k)?;
                let bones = self.bone_pose(&locals);
                self.noted(play::<Q14, _>(&self.bytes, size, |s, b| {
                    draw_posed(s, b, time, size, Some(&bones), |s, b, v| b.project(s, v))
                }))
            }
        }
    }

    /// Node transforms (one a rig node) as the asset's bones' pose.
    fn bone_pose<R: Copy>(&self, locals: &[Transform<R>]) -> Vec<Transform<R>> {
        self.bones.iter().map(|&n| locals[n]).collect()
    }
}

/// What [`Cpu::play_all`] found in an asset and played.
#[derive(Clone, Debug, PartialEq)]
pub struct Played {
    /// The lane's vertex format (`f32` or `I2F14`).
    pub lane: &'static str,
    /// The skinning method the asset was baked for.
    pub skinning: Skinning,
    /// Bones.
    pub bones: usize,
    /// Vertices.
    pub vertices: usize,
    /// Triangles.
    pub triangles: usize,
    /// Parts (draw calls).
    pub parts: usize,
    /// The clip played, with its duration in seconds.
    pub clip: Option<(String, f32)>,
    /// Frames drawn.
    pub frames: usize,
    /// The largest |weight| the player's budget of active morph targets dropped in a frame
    /// ([`Cpu::dropped_weight`]).
    pub dropped: f32,
}

/// The buffers a scene plays into, sized for one asset.
struct Buffers<L: AssetLane + Project> {
    pose: Vec<Transform<L::Real>>,
    world: Vec<Affine<L::Real>>,
    palette: PartPalettes<L>,
    scratch: Box<Scratch<L, CHUNK>>,
}

/// The palette of the method the asset was baked for.
enum PartPalettes<L: AssetLane + Project> {
    /// Matrices (LBS).
    Lbs(Box<Palette<L, MAX_PART_BONES>>),
    /// Unit dual quaternions (DQS).
    Dqs(Box<DualPalette<L, MAX_PART_BONES>>),
    /// Unit dual quaternions and stretches (DQS of joints with scale or shear).
    Stretched(Box<StretchPalette<L, MAX_PART_BONES>>),
}

impl<L: AssetLane + Project> Buffers<L> {
    /// [`Scene::skinned_bounds`] of the world matrices held.
    fn skinned_bounds(&mut self, scene: &Scene<'_, L, SCENE_BONES>) -> Result<Bounds, RasterError> {
        let (world, scratch) = (&self.world, &mut *self.scratch);
        match &mut self.palette {
            PartPalettes::Lbs(p) => scene.skinned_bounds(world, &mut **p, scratch),
            PartPalettes::Dqs(p) => scene.skinned_bounds(world, &mut **p, scratch),
            PartPalettes::Stretched(p) => scene.skinned_bounds(world, &mut **p, scratch),
        }
    }

    /// [`Scene::frame_rest_pose`].
    fn frame_rest_pose(
        &mut self,
        scene: &mut Scene<'_, L, SCENE_BONES>,
    ) -> Result<(), RasterError> {
        let (pose, world, scratch) = (&mut self.pose, &mut self.world, &mut *self.scratch);
        match &mut self.palette {
            PartPalettes::Lbs(p) => scene.frame_rest_pose(pose, world, &mut **p, scratch),
            PartPalettes::Dqs(p) => scene.frame_rest_pose(pose, world, &mut **p, scratch),
            PartPalettes::Stretched(p) => scene.frame_rest_pose(pose, world, &mut **p, scratch),
        }
    }

    /// [`Scene::project`] of the world matrices held into `out`.
    fn project(
        &mut self,
        scene: &Scene<'_, L, SCENE_BONES>,
        out: &mut [ScreenVertex],
    ) -> Result<(), RasterError> {
        let (world, scratch) = (&self.world, &mut *self.scratch);
        match &mut self.palette {
            PartPalettes::Lbs(p) => scene.project(world, &mut **p, scratch, out, &mut ()),
            PartPalettes::Dqs(p) => scene.project(world, &mut **p, scratch, out, &mut ()),
            PartPalettes::Stretched(p) => scene.project(world, &mut **p, scratch, out, &mut ()),
        }
    }
}

/// Read the asset `bytes` in lane `L`, make its scene for a `width × height` screen and
/// buffers for it, and hand both to `f`.
fn play<L: AssetLane + Project, R>(
    bytes: &[u8],
    (width, height): (u16, u16),
    f: impl FnOnce(&mut Scene<'_, L, SCENE_BONES>, &mut Buffers<L>) -> Result<R, RenderError>,
) -> Result<R, RenderError> {
    let asset = Asset::<L>::read(bytes).map_err(RenderError::Asset)?;
    let mut scene =
        Scene::<L, SCENE_BONES>::new(asset, width, height).map_err(|e| screen(e, width, height))?;
    let n = scene.bones();
    let mut buffers = Buffers {
        pose: vec![Transform::IDENTITY; n],
        world: vec![Affine::IDENTITY; n],
        palette: match asset.skinning() {
            Skinning::Lbs => PartPalettes::Lbs(Box::default()),
            Skinning::Dqs if asset.stretched() => PartPalettes::Stretched(Box::default()),
            Skinning::Dqs => PartPalettes::Dqs(Box::default()),
        },
        scratch: Box::default(),
    };
    f(&mut scene, &mut buffers)
}

/// A rasteriser error, with a screen the camera cannot frame named by its size.
fn screen(e: RasterError, width: u16, height: u16) -> RenderError {
    match e {
        RasterError::Screen => RenderError::Frame { width, height },
        e => RenderError::Raster(e),
    }
}

/// The skinned rest pose's box, asset units.
fn rest_box<L: AssetLane + Project>(
    scene: &mut Scene<'_, L, SCENE_BONES>,
    b: &mut Buffers<L>,
) -> Result<Bounds, RenderError> {
    b.scratch.set_time(None);
    scene
        .rest(&mut b.pose, &mut b.world)
        .and_then(|()| b.skinned_bounds(scene))
        .map_err(RenderError::Raster)
}

/// The scene's frame at `t`, the camera on the skinned rest pose (as the firmware's), and
/// the weight dropped ([`draw_with`]).
fn draw<L: AssetLane + Project>(
    scene: &mut Scene<'_, L, SCENE_BONES>,
    b: &mut Buffers<L>,
    t: f32,
    size: (u16, u16),
) -> Result<(Picture, f32), RenderError> {
    draw_with(scene, b, t, size, |s, b, v| b.project(s, v))
}

/// [`draw`] with the vertices skinned and projected by `project`: the picture, and the
/// largest |weight| the budget of active morph targets dropped from a part
/// ([`Scratch::dropped_weight`]).
fn draw_with<L: AssetLane + Project>(
    scene: &mut Scene<'_, L, SCENE_BONES>,
    b: &mut Buffers<L>,
    t: f32,
    size: (u16, u16),
    project: impl FnOnce(
        &Scene<'_, L, SCENE_BONES>,
        &mut Buffers<L>,
        &mut [ScreenVertex],
    ) -> Result<(), RasterError>,
) -> Result<(Picture, f32), RenderError> {
    draw_posed(scene, b, t, size, None, project)
}

/// [`draw_with`] with the bones' pose `bones` (the animation layer's) in place of the
/// clip's, if given.
fn draw_posed<L: AssetLane + Project>(
    scene: &mut Scene<'_, L, SCENE_BONES>,
    b: &mut Buffers<L>,
    t: f32,
    (width, height): (u16, u16),
    bones: Option<&[Transform<L::Real>]>,
    project: impl FnOnce(
        &Scene<'_, L, SCENE_BONES>,
        &mut Buffers<L>,
        &mut [ScreenVertex],
    ) -> Result<(), RasterError>,
) -> Result<(Picture, f32), RenderError> {
    b.frame_rest_pose(scene)
        .map_err(|e| screen(e, width, height))?;
    scene
        .pose_layered(Some(t), &mut b.pose, &mut b.world, &mut (), |pose| {
            match bones {
                Some(bones) if bones.len() == pose.len() => pose.copy_from_slice(bones),
                Some(bones) => {
                    return Err(RasterError::Capacity {
                        what: "the animation layer's bones",
                        needed: pose.len(),
                        capacity: bones.len(),
                    })
                }
                None => {}
            }
            Ok(())
        })
        .map_err(RenderError::Raster)?;
    b.scratch.set_time(Some(t));
    scene
        .correctives(&b.pose, &mut b.scratch, &mut ())
        .map_err(RenderError::Raster)?;
    let mut vertices = vec![ScreenVertex::default(); scene.vertices()];
    project(scene, b, &mut vertices).map_err(RenderError::Raster)?;
    let dropped = b.scratch.dropped_weight();
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
    Ok((picture, dropped))
}
