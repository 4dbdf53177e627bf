//! A deterministic software rasteriser for small displays: skinned vertices are projected
//! by a fixed orthographic [`Camera`], shaded with Lambert lighting, and drawn into any
//! embedded-graphics [`DrawTarget`](embedded_graphics_core::draw_target::DrawTarget) of
//! [`Rgb565`](embedded_graphics_core::pixelcolor::Rgb565) in horizontal [`Band`]s, so the
//! RAM a frame needs is one band's colour and depth, not a whole frame's.
//!
//! | module | concept |
//! |---|---|
//! | [`camera`] | bounding box, orthographic camera, projection and shading per lane ([`Project`]) |
//! | [`band`] | the band rasteriser: coverage, top-left fill rule, culling, z-buffer |
//! | [`bins`] | binning: which triangles reach which rows, once a frame |
//! | [`frame`] | a frame as a loop over bands; [`FrameBuffer`], a `DrawTarget` over a slice |
//! | [`split`] | a frame's bands shared between cores, sent to the display in order |
//!
//! Everything after projection is integer arithmetic, and projection is integer in the
//! fixed lane and plain IEEE `f32` (no fused operations) in the `f32` lane, so a frame is
//! the same bits on a Cortex-M0 and on the host.
//!
//! ```
//! use embedded_graphics_core::pixelcolor::{Rgb565, RgbColor};
//! use skin_core::raster::{render, Bounds, Camera, FrameBuffer, Project, ScreenVertex};
//!
//! // One triangle, facing the camera, projected from asset units.
//! let cam = Camera::frame(&Bounds { min: [-1.0; 3], max: [1.0; 3] }, 32, 32).unwrap();
//! let tri = [[-0.5f32, -0.5, 0.0], [0.5, -0.5, 0.0], [0.0, 0.5, 0.0]];
//! let mut verts = [ScreenVertex::default(); 3];
//! for (i, (p, v)) in tri.iter().zip(&mut verts).enumerate() {
//!     *v = ScreenVertex::project::<f32>(&cam, p, Some(&[0.0, 0.0, 1.0]), i).unwrap();
//! }
//! let mut pixels = [Rgb565::BLACK; 32 * 32];
//! let mut frame = FrameBuffer::new(&mut pixels, 32, 32).unwrap();
//! let (mut colour, mut depth) = ([Rgb565::BLACK; 32 * 8], [0u16; 32 * 8]);
//! render(&mut frame, 32, 32, &mut colour, &mut depth, Rgb565::BLACK, |band| {
//!     band.draw(&verts, [0, 1, 2], Rgb565::WHITE)
//! })
//! .unwrap();
//! assert_ne!(pixels[16 * 32 + 16], Rgb565::BLACK); // the centre is lit
//! assert_eq!(pixels[0], Rgb565::BLACK);
//! ```

pub mod band;
pub mod bins;
#[cfg(skin_asm_v6m)]
mod bins_v6m;
pub mod camera;
mod depth;
#[cfg(skin_asm_v6m)]
mod fill_v6m;
pub mod frame;
#[cfg(skin_asm_v6m)]
mod project_v6m;
mod span;
pub mod split;
mod steps;

pub use band::Band;
pub use camera::{Bounds, Camera, Project};
pub use frame::{render, FrameBuffer, FrameError};

use crate::anim::AnimError;
use crate::asset::AssetError;
use crate::error::Error;
use crate::skin::Skinning;

/// Subpixels per pixel: vertices snap to 1/16 pixel.
pub const SUBPIXEL: i32 = 16;

/// Half the guard band in subpixels: vertices must project within ±1000 pixels of the
/// screen's centre. Screens are at most 1024 pixels a side, so the screen lies inside the
/// band, and coordinate differences stay below `2·GUARD`: an edge function (two products
/// of differences, [`band`]) below `8·GUARD² < 2^31`, a doubled triangle area below
/// `(2·GUARD)² < 2^30` (as [`depth`] needs), and coordinates within `i16`.
pub const GUARD: i32 = 1000 * SUBPIXEL;

/// A projected, shaded vertex: screen position in subpixels (y down), depth (0 near), and
/// Lambert intensity.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C)]
pub struct ScreenVertex {
    /// x in 1/[`SUBPIXEL`] pixels.
    pub x: i16,
    /// y in 1/[`SUBPIXEL`] pixels, down.
    pub y: i16,
    /// Depth: 0 nearest, 65535 farthest.
    pub z: u16,
    /// Light intensity 0..=255.
    pub shade: u8,
}

impl ScreenVertex {
    /// Project a skinned position (and shade its skinned normal; unlit, 255, without one).
    /// `index` names the vertex in a [`RasterError::OutOfView`].
    pub fn project<L: Project>(
        cam: &Camera,
        p: &[L::Out; 3],
        normal: Option<&[L; 3]>,
        index: usize,
    ) -> Result<Self, RasterError> {
        camera::vertex::<L>(cam, p, normal, index)
    }
}

/// Everything that can go wrong while rendering.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum RasterError {
    /// A vertex projects outside the guard band (±1000 pixels of the screen's centre) or
    /// the depth range.
    OutOfView {
        /// Vertex index.
        vertex: usize,
    },
    /// A triangle index past the vertices.
    Index {
        /// Position in the index list.
        at: usize,
        /// The index.
        index: u16,
        /// Vertices available.
        vertices: usize,
    },
    /// An index list whose length is not a multiple of three.
    Indices {
        /// Indices read before the list ended mid-triangle.
        len: usize,
    },
    /// A buffer shorter than the band or frame needs.
    Buffer {
        /// Entries needed.
        needed: usize,
        /// Entries given.
        len: usize,
    },
    /// A screen size the camera cannot frame (0 or above 1024 pixels), or a bounding box
    /// that is empty or not finite.
    Screen,
    /// A scratch or capacity too small for the asset.
    Capacity {
        /// What is too small.
        what: &'static str,
        /// Entries needed.
        needed: usize,
        /// Capacity.
        capacity: usize,
    },
    /// The asset is unusable.
    Asset(AssetError),
    /// Posing or skinning failed.
    Skin(Error),
    /// The animation layer (a walk, IK, look-at) refused the frame's pose.
    Anim(AnimError),
    /// The palette given to the player serves another skinning method than the asset was
    /// baked for.
    Skinning {
        /// The asset's method.
        asset: Skinning,
        /// The palette's method.
        palette: Skinning,
    },
}

impl From<AssetError> for RasterError {
    fn from(e: AssetError) -> Self {
        RasterError::Asset(e)
    }
}

impl From<AnimError> for RasterError {
    fn from(e: AnimError) -> Self {
        RasterError::Anim(e)
    }
}

impl From<Error> for RasterError {
    fn from(e: Error) -> Self {
        RasterError::Skin(e)
    }
}

impl core::fmt::Display for RasterError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            RasterError::OutOfView { vertex } => write!(
                f,
                "vertex {vertex} projects outside the view (guard band ±1000 pixels of the screen's centre, or depth range)"
            ),
            RasterError::Index {
                at,
                index,
                vertices,
            } => write!(
                f,
                "triangle index {at} is {index}, past the {vertices} vertices"
            ),
            RasterError::Indices { len } => write!(
                f,
                "the index list ends mid-triangle after {len} indices (not a multiple of 3)"
            ),
            RasterError::Buffer { needed, len } => {
                write!(f, "buffer of {len} entries, {needed} needed")
            }
            RasterError::Screen => write!(
                f,
                "cannot frame the view: screen size must be 1..=1024 pixels and the bounds finite"
            ),
            RasterError::Capacity {
                what,
                needed,
                capacity,
            } => write!(f, "{what}: {needed} needed, capacity {capacity}"),
            RasterError::Asset(e) => write!(f, "asset: {e}"),
            RasterError::Skin(e) => write!(f, "skinning: {e}"),
            RasterError::Anim(e) => write!(f, "animation: {e}"),
            RasterError::Skinning { asset, palette } => write!(
                f,
                "the asset is baked for {} skinning but is played with a {} palette: bake it with `skin bake --skinning {}` or play it with a {} palette",
                asset.name(),
                palette.name(),
                palette.name(),
                asset.name()
            ),
        }
    }
}
