//! An asset played through the whole pipeline — sample → palette → skin → project →
//! rasterise — with every buffer supplied by the caller, so the firmware and the host run
//! the same code and get the same frame.

use embedded_graphics_core::draw_target::DrawTarget;
use embedded_graphics_core::pixelcolor::Rgb565;

use super::band::shades;
use super::bins::{self, Span};
use super::frame::{band_rows, bands};
use super::{camera, Band, Bounds, Camera, FrameError, Project, RasterError, ScreenVertex};
use crate::affine::Affine;
use crate::asset::{Asset, AssetLane, ClipView, Stored};
use crate::bind::BindPose;
use crate::clip::Wrap;
use crate::palette::Palette;
use crate::skeleton::Skeleton;
use crate::skin::SkinnedMesh;
use crate::transform::Transform;
use crate::vertex::Influence;

/// The material's RGB565 channels.
const CLAY: [u8; 3] = [29, 52, 22];

/// The material colour (a light clay), scaled by each triangle's intensity.
pub const MATERIAL: Rgb565 = Rgb565::new(CLAY[0], CLAY[1], CLAY[2]);

/// [`MATERIAL`] at every intensity.
static SHADES: [Rgb565; 256] = shades(CLAY);

/// The background colour (a dark slate).
pub const BACKGROUND: Rgb565 = Rgb565::new(3, 8, 8);

/// A stage of the frame pipeline, for per-stage measurements ([`Stages`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Clip sampling and forward kinematics.
    Sample,
    /// Palette matrices of every part.
    Palette,
    /// Skinning the vertices (positions and normals), read straight from the asset where
    /// the lane has a kernel for its stored layout ([`AssetLane::skin_stored`]), else
    /// copied in first.
    Skin,
    /// Projection and shading.
    Project,
    /// Clearing the bands and rasterising into them.
    Raster,
    /// Sending finished bands to the draw target (the display).
    Display,
}

/// Runs a stage's work, e.g. timing it. `()` just runs it.
pub trait Stages {
    /// Run `f`, which does `stage`'s work.
    fn time<R>(&mut self, stage: Stage, f: impl FnOnce() -> R) -> R;
}

impl Stages for () {
    fn time<R>(&mut self, _: Stage, f: impl FnOnce() -> R) -> R {
        f()
    }
}

/// Vertices skinned `C` at a time (the only per-vertex RAM besides the projected
/// vertices): the skinned outputs, and the inputs copied from the asset where the lane
/// cannot skin them where they are stored ([`AssetLane::skin_stored`]).
#[derive(Clone, Debug)]
pub struct Scratch<L: Project, const C: usize> {
    positions: [[L; 3]; C],
    normals: [[L; 3]; C],
    influences: [Influence<L>; C],
    out: [[L::Out; 3]; C],
    out_normals: [[L; 3]; C],
}

impl<L: Project, const C: usize> Default for Scratch<L, C> {
    fn default() -> Self {
        Self {
            positions: [[L::default(); 3]; C],
            normals: [[L::default(); 3]; C],
            influences: [Influence::default(); C],
            out: [[L::Out::default(); 3]; C],
            out_normals: [[L::default(); 3]; C],
        }
    }
}

/// A baked asset ready to play: skeleton (up to `N` bones and joints), bind pose, its first
/// clip (looped; the rest pose when it has none) and a camera, which [`Scene::new`] points
/// at the bind positions' box and [`Scene::frame_rest_pose`] at what the skin shows (what
/// the firmware and `skin render` use: a skin may place its mesh far from where it was
/// modelled).
///
/// ```
/// # use skin_core::prelude::*;
/// # use skin_core::asset::{AssetParts, Part};
/// use embedded_graphics_core::pixelcolor::{Rgb565, RgbColor};
/// use skin_core::raster::{FrameBuffer, ScreenVertex, scene::{Scene, Scratch}};
/// # let positions = [[-0.5f32, -0.5, 0.0], [0.5, -0.5, 0.0], [0.0, 0.5, 0.0]];
/// # let normals = [[0.0f32, 0.0, 1.0]; 3];
/// # let parts = AssetParts {
/// #     unit_exponent: 0, parents: &[None], rest: &[Transform::IDENTITY],
/// #     root: Affine::IDENTITY, joints: &[0], inverse_binds: &[Affine::IDENTITY],
/// #     positions: &positions, normals: Some(&normals), influences: &[Influence::rigid(0); 3],
/// #     indices: &[0, 1, 2], parts: &[Part { vertices: 3, indices: 3, bones: &[0] }], clips: &[],
/// # };
/// # let mut bytes = [0u8; 1024];
/// # let n = parts.write(&mut bytes).unwrap();
/// // `bytes`: a baked asset with one triangle facing the camera.
/// let asset = Asset::<f32>::read(&bytes[..n]).unwrap();
/// let scene = Scene::<f32, 4>::new(asset, 16, 16).unwrap();
/// let (mut pose, mut world) = ([Transform::IDENTITY; 4], [Affine::IDENTITY; 4]);
/// scene.pose(0.0, &mut pose, &mut world, &mut ()).unwrap();
/// let mut palette = Palette::<f32, 4>::new();
/// let mut scratch = Scratch::<f32, 2>::default();
/// let mut verts = [ScreenVertex::default(); 3];
/// scene.project(&world, &mut palette, &mut scratch, &mut verts, &mut ()).unwrap();
/// let mut px = [Rgb565::BLACK; 256];
/// let (mut colour, mut depth) = ([Rgb565::BLACK; 64], [0u16; 64]);
/// scene
///     .render(&verts, &mut FrameBuffer::new(&mut px, 16, 16).unwrap(), &mut colour, &mut depth, &mut ())
///     .unwrap();
/// assert_ne!(px[8 * 16 + 8], skin_core::raster::scene::BACKGROUND);
/// ```
#[derive(Clone, Debug)]
pub struct Scene<'a, L: AssetLane + Project, const N: usize> {
    asset: Asset<'a, L>,
    skeleton: Skeleton<L::Real, N>,
    bind: BindPose<L::Real, N>,
    clip: Option<ClipView<'a, L::Real>>,
    camera: Camera,
    width: u16,
    height: u16,
}

impl<'a, L: AssetLane + Project, const N: usize> Scene<'a, L, N> {
    /// Prepare `asset` for a `width × height` screen.
    pub fn new(asset: Asset<'a, L>, width: u16, height: u16) -> Result<Self, RasterError> {
        let skeleton = asset.skeleton::<N>()?;
        let bind = asset.bind_pose::<N>()?;
        let bounds = Bounds::of(asset.positions().iter().map(|p| p.map(L::to_f32)))
            .ok_or(RasterError::Screen)?;
        let camera = Camera::frame(&bounds, width, height).ok_or(RasterError::Screen)?;
        Ok(Self {
            asset,
            skeleton,
            bind,
            clip: asset.clips().next(),
            camera,
            width,
            height,
        })
    }

    /// The asset.
    pub fn asset(&self) -> &Asset<'a, L> {
        &self.asset
    }

    /// The camera.
    pub fn camera(&self) -> &Camera {
        &self.camera
    }

    /// Bones in the skeleton (the length `pose` and `world` need).
    pub fn bones(&self) -> usize {
        self.skeleton.len()
    }

    /// Vertices in the asset (the length `project`'s output needs).
    pub fn vertices(&self) -> usize {
        self.asset.positions().len()
    }

    /// The played clip's name and duration, if the asset has a clip.
    pub fn clip(&self) -> Option<(&'a str, f32)> {
        self.clip.map(|c| (c.name(), c.duration()))
    }

    /// The time of frame `k` of `frames` spread over one loop of the clip (0 without one).
    pub fn frame_time(&self, k: u32, frames: u32) -> f32 {
        let d = self.clip.map_or(0.0, |c| c.duration());
        d * k as f32 / frames.max(1) as f32
    }

    /// Sample the clip at `t` seconds (looped) into `pose` (from the rest pose) and the
    /// world matrices into `world`; both need at least [`Self::bones`] entries.
    pub fn pose(
        &self,
        t: f32,
        pose: &mut [Transform<L::Real>],
        world: &mut [Affine<L::Real>],
        stages: &mut impl Stages,
    ) -> Result<(), RasterError> {
        self.pose_at(Some(t), pose, world, stages)
    }

    /// The rest pose (the skeleton as stored, no clip) into `pose`, and its world matrices
    /// into `world`; both need at least [`Self::bones`] entries.
    pub fn rest(
        &self,
        pose: &mut [Transform<L::Real>],
        world: &mut [Affine<L::Real>],
    ) -> Result<(), RasterError> {
        self.pose_at(None, pose, world, &mut ())
    }

    /// [`Self::pose`] at `t`, or [`Self::rest`] without it.
    fn pose_at(
        &self,
        t: Option<f32>,
        pose: &mut [Transform<L::Real>],
        world: &mut [Affine<L::Real>],
        stages: &mut impl Stages,
    ) -> Result<(), RasterError> {
        let n = self.bones();
        let short = |len: usize| RasterError::Capacity {
            what: "pose and world matrices",
            needed: n,
            capacity: len,
        };
        let len = pose.len().min(world.len());
        let (pose, world) = match (pose.get_mut(..n), world.get_mut(..n)) {
            (Some(p), Some(w)) => (p, w),
            _ => return Err(short(len)),
        };
        stages.time(Stage::Sample, || {
            pose.copy_from_slice(self.skeleton.rest());
            if let (Some(clip), Some(t)) = (&self.clip, t) {
                clip.sample(t, Wrap::Loop, pose)?;
            }
            self.skeleton.world(pose, world)
        })?;
        Ok(())
    }

    /// Skin every part for the world matrices `world` and project it into `out` (asset
    /// vertex order; at least [`Self::vertices`] entries), `C` vertices at a time.
    pub fn project<const P: usize, const C: usize>(
        &self,
        world: &[Affine<L::Real>],
        palette: &mut Palette<L, P>,
        scratch: &mut Scratch<L, C>,
        out: &mut [ScreenVertex],
        stages: &mut impl Stages,
    ) -> Result<(), RasterError> {
        if out.len() < self.vertices() {
            return Err(RasterError::Buffer {
                needed: self.vertices(),
                len: out.len(),
            });
        }
        let cam = &self.camera;
        self.skin(world, palette, scratch, stages, |base, p, n| {
            camera::vertices::<L>(cam, p, n, &mut out[base..base + p.len()], base)
        })
    }

    /// The box around every vertex skinned for the world matrices `world`, in asset units:
    /// with the [rest pose](Self::rest), the box to frame a model whose skin places its
    /// mesh away from its bind positions (see [`Self::frame_rest_pose`]).
    pub fn skinned_bounds<const P: usize, const C: usize>(
        &self,
        world: &[Affine<L::Real>],
        palette: &mut Palette<L, P>,
        scratch: &mut Scratch<L, C>,
    ) -> Result<Bounds, RasterError> {
        let mut bounds: Option<Bounds> = None;
        self.skin(world, palette, scratch, &mut (), |_, p, _| {
            let chunk = Bounds::of(p.iter().map(|v| v.map(L::out_to_f32)));
            bounds = match (bounds, chunk) {
                (Some(a), Some(b)) => Bounds::of([a.min, a.max, b.min, b.max]),
                (a, b) => a.or(b),
            };
            Ok(())
        })?;
        bounds.ok_or(RasterError::Screen)
    }

    /// Points the camera at the skinned [rest pose](Self::rest) (the buffers are those
    /// [`Self::pose`] and [`Self::project`] take): what the firmware shows, since a skin may
    /// place its mesh far from the bind positions that [`Self::new`] frames.
    pub fn frame_rest_pose<const P: usize, const C: usize>(
        &mut self,
        pose: &mut [Transform<L::Real>],
        world: &mut [Affine<L::Real>],
        palette: &mut Palette<L, P>,
        scratch: &mut Scratch<L, C>,
    ) -> Result<(), RasterError> {
        self.rest(pose, world)?;
        let bounds = self.skinned_bounds(world, palette, scratch)?;
        self.camera = Camera::frame(&bounds, self.width, self.height).ok_or(RasterError::Screen)?;
        Ok(())
    }

    /// Skins every part, `C` vertices at a time, and hands each chunk to `each` (timed as
    /// [`Stage::Project`]) with the asset index of its first vertex, its skinned positions
    /// and, when the asset has normals, its skinned normals.
    fn skin<const P: usize, const C: usize>(
        &self,
        world: &[Affine<L::Real>],
        palette: &mut Palette<L, P>,
        scratch: &mut Scratch<L, C>,
        stages: &mut impl Stages,
        mut each: impl FnMut(usize, &[[L::Out; 3]], Option<&[[L; 3]]>) -> Result<(), RasterError>,
    ) -> Result<(), RasterError> {
        for part in self.asset.parts() {
            stages.time(Stage::Palette, || part.palette(&self.bind, world, palette))?;
            let range = part.vertex_range();
            let (positions, influences) = (part.positions(), part.influences());
            let normals = part.normals();
            let mut start = 0;
            while start < range.len() {
                let n = C.min(range.len() - start);
                let s = &mut *scratch;
                stages.time(Stage::Skin, || {
                    let missing = RasterError::Capacity {
                        what: "asset vertices",
                        needed: range.end,
                        capacity: self.vertices(),
                    };
                    let p = positions.slice(start, n).ok_or(missing)?;
                    let i = influences.slice(start, n).ok_or(missing)?;
                    let v = normals.and_then(|v| v.slice(start, n));
                    let stored = Stored {
                        positions: p,
                        influences: i,
                    };
                    let lit = v.map(|v| (v, &mut s.out_normals[..n]));
                    if L::skin_stored(palette.as_slice(), stored, lit, &mut s.out[..n]) {
                        return Ok(());
                    }
                    p.copy_to(&mut s.positions[..n]);
                    i.copy_to(&mut s.influences[..n]);
                    let mesh = SkinnedMesh::<L, 4>::new(&s.positions[..n], &s.influences[..n])?;
                    match v {
                        Some(v) => {
                            v.copy_to(&mut s.normals[..n]);
                            mesh.skin_with_normals(
                                palette.as_slice(),
                                &s.normals[..n],
                                &mut s.out[..n],
                                &mut s.out_normals[..n],
                            )?;
                        }
                        None => mesh.skin(palette.as_slice(), &mut s.out[..n])?,
                    }
                    Ok::<(), RasterError>(())
                })?;
                let lit = normals.is_some().then_some(&s.out_normals[..n]);
                stages.time(Stage::Project, || {
                    each(range.start + start, &s.out[..n], lit)
                })?;
                start += n;
            }
        }
        Ok(())
    }

    /// Triangles in the asset (all parts): spans enough for [`Self::render_binned`] to bin
    /// any frame (it needs one per front-facing triangle on the screen).
    pub fn triangles(&self) -> usize {
        self.asset.indices().len() / 3
    }

    /// Draw every part's triangles (projected `vertices`) into `band`.
    pub fn draw(&self, band: &mut Band<'_>, vertices: &[ScreenVertex]) -> Result<(), RasterError> {
        for part in self.asset.parts() {
            let v = bins::part_vertices(vertices, &part, self.vertices())?;
            band.draw_shaded(v, part.indices().iter(), |s| SHADES[usize::from(s)])?;
        }
        Ok(())
    }

    /// Render the frame of `vertices` into `target` through bands of `colour.len() / width`
    /// rows (as [`render`](super::render) does): each band is cleared, drawn
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
        let mut binned = stages.time(Stage::Raster, || {
            bins::bin(
                self.asset.parts(),
                vertices,
                total,
                (width, height, rows),
                spans,
            )
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
                    Some(bins) => bins.draw(&mut band, vertices, spans, &SHADES),
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
