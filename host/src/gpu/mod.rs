//! The GPU reference: the same skinning as skin-core, done by a GPU through `wgpu` (Vulkan;
//! Mesa's lavapipe on machines without a GPU), read back for comparison.
//!
//! Three paths, one WGSL blend per skinning method ([`shader`]: linear blend, or dual
//! quaternion skinning when the palette is [`Bones::Duals`], with each joint's stretch
//! applied first when it is [`Bones::Stretched`]: joints with scale or shear):
//!
//! | path | function | palette | what comes back |
//! |---|---|---|---|
//! | compute shader ("software skinning on the GPU") | [`Reference::skin_compute`] | storage buffer, every joint | skinned positions and normals |
//! | vertex shader, as the old hardware did it | [`Reference::skin_vertex`] | *uniform* `array<mat3x4<f32>, N>` (or `mat4x4`; `array<vec4<f32>, 2N>` of dual quaternions), `N` = the budget's capacity, one draw call per palette split | what the vertex stage produced, as points into `Rgba32Float` targets |
//! | tangents, compute or vertex path | [`Reference::skin_tangents_compute`], [`Reference::skin_tangents_vertex`] | as the path's | glTF `TANGENT`s skinned by the path's normal transform, `w` kept |
//! | offscreen picture | [`Reference::render`] | the vertex path's uniform palette | an RGB565 [`Picture`](crate::picture::Picture): skin-core's camera, depth buffer, Lambert shading |
//!
//! A mesh ([`GpuMesh`]) is drawn through [`DrawCall`]s: an index range and a bone remap
//! (palette slot → joint). A skin that fits the budget is one draw call
//! ([`GpuMesh::single_draw`]); one that does not is drawn through the palette splits of
//! [`crate::split`] ([`GpuMesh::from_split`]), each within the budget. [`Model`] does this
//! for every primitive of a rig and computes a frame's palettes.
//!
//! ```no_run
//! use skin_core::affine::Affine;
//! use skin_core::budget::{Budget, Layout};
//! use skin_core::vertex::Influence;
//! use skin_host::gpu::{GpuMesh, Reference};
//! let gpu = Reference::new()?;
//! let mesh = GpuMesh::new(
//!     vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
//!     vec![[0.0, 0.0, 1.0]; 3],
//!     vec![Influence::rigid(0); 3],
//!     vec![0, 1, 2],
//! )?;
//! let palette = [Affine::translation([0.0, 0.0, 1.0])];
//! let out = gpu.skin_compute(&mesh, &palette)?;
//! assert_eq!(out.positions[1], [1.0, 0.0, 1.0]);
//! let draws = mesh.single_draw(palette.len());
//! let out = gpu.skin_vertex(&mesh, &palette, &draws, Budget::VS_1_1, Layout::Affine3x4)?;
//! assert_eq!(out.skinned.positions[1], [1.0, 0.0, 1.0]);
//! assert_eq!(out.draw_calls, 1);
//! // The same translation as a unit dual quaternion: dual quaternion skinning.
//! let dual = [skin_core::dual::Dual::from_rigid(&palette[0]).unwrap()];
//! let out = gpu.skin_compute(&mesh, &dual)?;
//! assert_eq!(out.positions[1], [1.0, 0.0, 1.0]);
//! # Ok::<(), skin_host::gpu::GpuError>(())
//! ```

mod bones;
mod compute;
mod context;
mod draw;
mod mesh;
mod model;
mod morph;
mod offscreen;
pub mod shader;
mod tangent;
mod vertex;

pub use bones::{Bones, FramePalette};
pub use context::{GpuError, Reference};
pub use mesh::{DrawCall, GpuMesh, SplitMesh};
pub use model::{GpuPrimitive, Model};
pub use offscreen::{MeshDraws, Shading, View};
pub use vertex::Drawn;

/// Skinned vertices read back from the GPU.
#[derive(Clone, Debug, PartialEq)]
pub struct Skinned {
    /// Skinned positions, one per mesh vertex.
    pub positions: Vec<[f32; 3]>,
    /// Skinned, renormalised normals (zero stays zero).
    pub normals: Vec<[f32; 3]>,
}
