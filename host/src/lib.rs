//! # skin-host
//!
//! The host side of skin: glTF import, baking to the compact asset format, palette
//! splitting, the GPU reference renderer, and the `skin` command-line tool.
//!
//! ```text
//! glTF file ──import──▶ Rig ──pose──▶ skinned positions (glTF world space, f32 or fixed)
//!                           ──split─▶ sub-meshes that each fit a bone budget
//!                           ──bake──▶ asset bytes (skin_core::asset)
//!                           ──report▶ inspect / budget tables for the CLI
//!                           ──gpu───▶ the same skinning by a GPU (compute, vertex shader, picture)
//!                           ──render▶ a frame as a PNG, by the GPU or by skin-core's rasteriser
//!                           ──validate▶ core f32, core fixed and both GPU paths against the f64 oracle
//! ```
//!
//! | module | job |
//! |---|---|
//! | [`import`] | glTF 2.0 (`.gltf`, `.glb`) → [`rig::Rig`], with typed errors and warnings |
//! | [`bake`] | [`rig::Rig`] → asset bytes for [`skin_core::asset`]: palette-split, quantised, range-checked |
//! | [`character`] | a small procedural walking character (glTF) for the firmware |
//! | [`accessor`] | bounds-checked reading of glTF accessors in every component type |
//! | [`rig`] | the in-memory rig: nodes, skins, meshes, clips |
//! | [`pose`] | skinning a rig in glTF world space through skin-core, in `f32` or fixed point |
//! | [`split`] | palette splitting: sub-meshes within a bone budget |
//! | [`report`] | what `skin inspect` and `skin budget` print |
//! | [`oracle`] | the `f64` reference `skin validate` measures against |
//! | [`gpu`] | the wgpu reference: compute and vertex-shader skinning, offscreen pictures |
//! | [`picture`] | RGB565 pictures: PNG files and differences |
//! | [`render`] | `skin render`: a frame by the GPU or by skin-core's rasteriser |
//! | [`animation`] | a whole clip (or the firmware's frames) as an animated GIF or APNG |
//! | [`frames`] | the firmware's frame dump read back as pictures |
//! | [`output`] | output files written whole (a temporary file, then renamed) or not at all |
//! | [`validate`] | `skin validate`: the error table and its thresholds |
//! | [`html`] | `skin validate --report`: the validation as static HTML pages with plots and pictures |
//! | [`cli`] | the `skin` command-line tool |

pub mod accessor;
pub mod animation;
pub mod bake;
pub mod character;
pub mod cli;
pub mod error;
pub mod frames;
pub mod gpu;
pub mod html;
pub mod import;
pub mod oracle;
pub mod output;
pub mod picture;
pub mod pose;
pub mod render;
pub mod report;
pub mod rig;
pub mod split;
pub mod validate;

pub use error::{ImportError, PoseError};
pub use rig::Rig;
