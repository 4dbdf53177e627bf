//! The asset player: a baked asset played frame by frame through the whole pipeline, with
//! every buffer supplied by the caller, so that the firmware and the host run the same code
//! and get the same frame. This is where the stages meet; each is a layer below:
//!
//! | step | what | module | code |
//! |---|---|---|---|
//! | sample | the clip at time `t` into the pose (local TRS per bone) | [`crate::clip`] | [`Scene::pose`] (`pose.rs`) |
//! | animate | the caller's animation layer on the sampled pose, e.g. the walk demo (feet planted by IK, head aimed) | [`crate::anim`] | [`Scene::pose_layered`], [`Scene::pose_walk`] (`walk.rs`) |
//! | pose | forward kinematics: world matrices | [`crate::skeleton`] | [`Scene::pose`] |
//! | palette | each part's skinning matrices `W·B⁻¹` narrowed to the lane, or their unit dual quaternions for an asset baked for DQS ([`PartPalette`]) | [`crate::bind`], [`crate::asset::PartView::palette`] | `deform.rs`, `skinning.rs` |
//! | correctives | pose-space deformation: the asset's RBFs weigh their corrective targets from the driving bones' local rotations ([`Scene::correctives`]) | [`crate::psd`], [`crate::asset::Correctives`] | `correctives.rs` |
//! | deform | each part's active morph targets at the frame's weights ([`Scratch::set_time`], correctives' from the pose) move its copied vertices, before skinning | [`crate::morph`], [`crate::asset::Morphs`] | `morph.rs` |
//! | skin | LBS or DQS (the asset's [`crate::skin::Skinning`]) of the part's vertices, read in place or copied, by the loop [`crate::skin::dispatch`] picks | [`crate::skin`] | `deform.rs` |
//! | tangents | the asset's tangents skinned like normals by each part's palette, `w` kept, for a caller that shades with them ([`Scene::tangents`]) | [`crate::tangent`], [`crate::asset::Tangents`] | `tangents.rs` |
//! | project | screen position, depth and Lambert shade per vertex | [`crate::raster::camera`] | [`Scene::project`] (`project.rs`) |
//! | raster | triangles into bands of pixels, bands to the display | [`crate::raster`] | [`Scene::render_binned`] (`draw.rs`) |
//!
//! Every step but sampling and posing runs part by part (a part is a draw call with its own
//! palette), and skinning and projection run `C` vertices at a time ([`Scratch`]), so the
//! RAM a frame needs is one chunk's skinned vertices, the projected vertices and one band.
//!
//! The data was validated once, when the asset was read ([`Asset::read`]) and the scene
//! made ([`Scene::new`]); what a frame can still get wrong is a buffer shorter than the
//! asset needs, or a pose whose matrices do not fit the lane. Per part, the skinning loop
//! gets a validated view and cannot fail.

mod correctives;
mod deform;
mod draw;
mod lattice;
mod morph;
mod pose;
mod project;
mod skinning;
mod stages;
mod tangents;
mod walk;

pub use deform::{Route, Scratch};
pub use draw::{BACKGROUND, MATERIAL};
pub use skinning::{Chunk, PartPalette, SkinChunk, TabledPalette};
pub use stages::{Stage, Stages};
pub use walk::{Walk, WalkJoints, STRIDES, SWEEP};

use crate::asset::{Asset, AssetLane, ClipView};
use crate::bind::BindPose;
use crate::raster::{Bounds, Camera, Project, RasterError};
use crate::skeleton::Skeleton;

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
/// use skin_core::raster::{FrameBuffer, ScreenVertex};
/// use skin_core::scene::{Scene, Scratch};
/// # let positions = [[-0.5f32, -0.5, 0.0], [0.5, -0.5, 0.0], [0.0, 0.5, 0.0]];
/// # let normals = [[0.0f32, 0.0, 1.0]; 3];
/// # let parts = AssetParts {
/// #     unit_exponent: 0, parents: &[None], rest: &[Transform::IDENTITY],
/// #     root: Affine::IDENTITY, joints: &[0], inverse_binds: &[Affine::IDENTITY],
/// #     positions: &positions, normals: Some(&normals), tangents: None, influences: &[Influence::rigid(0); 3],
/// #     indices: &[0, 1, 2], parts: &[Part { vertices: 3, indices: 3, bones: &[0] }], clips: &[],
/// #     skinning: skin_core::skin::Skinning::Lbs,
/// #     centre: [0.0; 3],
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
/// assert_ne!(px[8 * 16 + 8], skin_core::scene::BACKGROUND);
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
        let c = asset.centre();
        let bounds = Bounds::of(
            asset
                .positions()
                .iter()
                .map(|p| [0, 1, 2].map(|i| L::to_f32(p[i]) + c[i])),
        )
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
}
