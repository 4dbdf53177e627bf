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
//! | [`cli`] | the `skin` command-line tool |

pub mod accessor;
pub mod bake;
pub mod character;
pub mod cli;
pub mod error;
pub mod import;
pub mod pose;
pub mod report;
pub mod rig;
pub mod split;

pub use error::{ImportError, PoseError};
pub use rig::Rig;
