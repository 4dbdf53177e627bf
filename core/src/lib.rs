//! # skin-core
//!
//! A `#![no_std]`, allocation-free skeletal-skinning core for microcontrollers: *stitching*
//! (every vertex follows one bone) and *linear blend skinning* with up to four weighted bones
//! per vertex, in `f32` and in 16/32-bit fixed point, with bone palettes whose capacities
//! mimic shader constant-register budgets.
//!
//! The data flows one way; each stage takes slices and fills slices:
//!
//! ```text
//! pose (local TRS) ─Skeleton::world─▶ world matrices ─BindPose::palette─▶ Palette (W·B⁻¹)
//!     ─SkinnedMesh::skin─▶ skinned positions (+ normals)
//! ```
//!
//! Modules, lowest first; each imports only from modules above it in this table
//! (`docs/ARCHITECTURE.md` draws the graph):
//!
//! | module | concept |
//! |---|---|
//! | [`num`] | the scalar trait [`num::Real`] (`f32`, `I8F24`) the pose maths is written over |
//! | [`affine`], [`quat`], [`transform`] | 3×4 matrices, quaternions, TRS transforms |
//! | [`dual`] | unit dual quaternions: the palette entry of dual quaternion skinning |
//! | [`envelope`] | envelope weights: bone influences from capsules around the bones |
//! | [`lattice`] | lattice free-form deformation of skinned positions (Bernstein, degree ≤ 3) |
//! | [`layout`] | how a bone's matrix is stored in shader constant registers |
//! | [`indices`] | index lists stored as little-endian `u16` |
//! | [`lane`] | the formats the skinning loop runs in ([`lane::Lane`]: `f32`, `I2F14`) and their arithmetic |
//! | [`error`] | typed errors of the core |
//! | [`budget`] | constant-register budgets |
//! | [`vertex`] | per-vertex influences (weights sum to exactly one) |
//! | [`palette`] | the fixed-capacity skinning palette |
//! | [`skeleton`] | bone hierarchy and forward kinematics |
//! | [`bind`] | joints and inverse bind matrices; builds the palette |
//! | [`skin`] | meshes, validated views, the skinning loops and the one place that picks them |
//! | [`clip`] | animation clips: key-frame sampling into a pose |
//! | [`tangent`] | glTF tangents skinned like normals, handedness kept |
//! | [`anim`] | the animation layer: blending, masks, additive layers, crossfades, phase |
//! | [`asset`] | the baked asset format: writer and zero-copy validating reader |
//! | [`raster`] | projection and the band rasteriser: triangles in, pixels out |
//! | [`scene`] | the asset player: sample → pose → palette → skin → project → raster |
//!
//! ## Cargo features
//!
//! - `defmt`: `defmt::Format` for the public types (firmware logging).
//! - `vmla`: on Cortex-M with an FPU and the hard-float ABI, the `f32` LBS kernels'
//!   multiply-adds as chained `VMLA` instead of `VMUL` + `VADD`. The same output bits in about
//!   a third fewer instructions; by the published timings more cycles on a Cortex-M4, and
//!   likely fewer on a Cortex-M7, whose `VMLA` is pipelined (`docs/BENCHMARKS.md`). No
//!   effect elsewhere.
//!
//! ## Example: a two-bone arm, bent 90° at the elbow, in fixed point
//!
//! ```
//! use skin_core::prelude::*;
//! use skin_core::num::Fx;
//! use skin_core::lane::Q14;
//!
//! // Shoulder at the origin, elbow 0.5 along X.
//! let rest = [
//!     Transform::<Fx>::IDENTITY,
//!     Transform::from_f32([0.5, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0], [1.0; 3]).unwrap(),
//! ];
//! let skeleton = Skeleton::<Fx, 4>::new(&[None, Some(0)], &rest).unwrap();
//! let mut world = [Affine::IDENTITY; 2];
//! skeleton.world(&rest, &mut world).unwrap();
//! let bind = BindPose::<Fx, 4>::from_bind_world(&[0, 1], &world).unwrap();
//!
//! // Bend the elbow 90° about Z.
//! let s = core::f32::consts::FRAC_1_SQRT_2;
//! let mut pose = rest;
//! pose[1].rotation = Quat::from_f32([0.0, 0.0, s, s]).unwrap();
//! skeleton.world(&pose, &mut world).unwrap();
//! const CAP: usize = Budget::VS_1_1.capacity(Layout::Affine3x4);
//! let mut palette: Palette<Q14, CAP> = Palette::new();
//! bind.palette(&world, &mut palette).unwrap();
//!
//! // A hand vertex at x = 0.75 follows the forearm.
//! let positions = [[Q14::from_num(0.75), Q14::ZERO, Q14::ZERO]];
//! let influences = [Influence::rigid(1)];
//! let mesh = SkinnedMesh::<Q14, 1>::new(&positions, &influences).unwrap();
//! let mut out = [[Default::default(); 3]];
//! mesh.skin(palette.as_slice(), &mut out).unwrap();
//! assert!((out[0][0].to_num::<f32>() - 0.5).abs() < 1e-3);
//! assert!((out[0][1].to_num::<f32>() - 0.25).abs() < 1e-3);
//! ```
#![no_std]
#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod affine;
pub mod anim;
pub mod asset;
pub mod bind;
pub mod budget;
pub mod clip;
pub mod dual;
pub mod envelope;
pub mod error;
pub mod indices;
pub mod lane;
pub mod lattice;
pub mod layout;
pub mod morph;
pub mod num;
pub mod palette;
pub mod psd;
pub mod quat;
pub mod raster;
pub mod scene;
pub mod skeleton;
pub mod skin;
pub mod tangent;
pub mod transform;
pub mod vertex;

pub use error::Error;

/// The types most programs need.
pub mod prelude {
    pub use crate::affine::Affine;
    pub use crate::asset::{Asset, AssetError};
    pub use crate::bind::BindPose;
    pub use crate::budget::{Budget, Layout};
    pub use crate::clip::{Clip, Wrap};
    pub use crate::error::Error;
    pub use crate::lane::Lane;
    pub use crate::num::Real;
    pub use crate::palette::Palette;
    pub use crate::quat::Quat;
    pub use crate::skeleton::Skeleton;
    pub use crate::skin::{RigidMesh, SkinnedMesh};
    pub use crate::transform::Transform;
    pub use crate::vertex::Influence;
}
