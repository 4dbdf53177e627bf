//! # skin-host
//!
//! The host side of skin: glTF import, baking to the compact asset format, palette
//! splitting, the GPU reference renderer, and the `skin` command-line tool.
//!
//! One road, each stage a module that imports only from the stages before it:
//!
//! ```text
//! glTF file ──import──▶ rig ──pose──▶ skinned positions, palettes (f32 or fixed lane)
//!                        │              ├──bake────▶ asset bytes (skin_core::asset)
//!                        └─split─▶ parts├──gpu─────▶ the same skinning by a GPU
//!                                       ├──render──▶ a frame, by the GPU or by skin-core's rasteriser
//!                                       └──validate▶ every path against the f64 oracle
//! ```
//!
//! | layer | module | job |
//! |---|---|---|
//! | 0 | [`rig`] | the in-memory rig: nodes, skins, meshes, clips (skin-core's clip `Path` and `Interpolation`); node world matrices in `f64` ([`rig::world64`]) |
//! | 0 | [`error`] | [`ImportError`] |
//! | 0 | [`picture`] | RGB565 pictures: PNG files and differences |
//! | 0 | [`output`] | output files written whole (a temporary file, then renamed) or not at all |
//! | 1 | [`lattice`] | lattice files: a free-form deformation's box, degrees and keyed control-point moves |
//! | 1 | [`psd`] | pose-space deformation at bake time: correctives' Gaussian RBF weights solved in `f64`, the condition reported |
//! | 1 | [`accessor`] | bounds-checked reading of glTF accessors in every component type |
//! | 1 | [`character`] | a small procedural walking character (glTF) for the firmware |
//! | 1 | [`split`] | palette splitting: a primitive's parts within a bone budget |
//! | 1 | [`frames`] | the firmware's frame dump read back as pictures |
//! | 2 | [`import`] | glTF 2.0 (`.gltf`, `.glb`) → [`rig::Rig`], with typed errors and warnings |
//! | 3 | [`pose`] | the rig evaluated through skin-core in a lane: units, values, clips, palettes, skinning |
//! | 3 | [`oracle`] | the same in plain `f64`, from the glTF specification |
//! | 4 | [`bake`] | rig → asset bytes for [`skin_core::asset`]: palette-split, quantised, range-checked |
//! | 4 | [`gpu`] | the wgpu reference: compute and vertex-shader skinning, offscreen pictures |
//! | 4 | [`envelope`] | envelope weights from bone proximity, written back as glTF, compared with the artist's |
//! | 4 | [`inspect`] | what `skin inspect` and `skin budget` print |
//! | 5 | [`render`] | `skin render`: a frame by the GPU or by skin-core's rasteriser (a baked asset) |
//! | 5 | [`board`] | the firmware's boards and whether a baked model fits one (`skin budget --board`) |
//! | 6 | [`animation`] | a whole clip (or the firmware's frames) as an animated GIF or APNG |
//! | 6 | [`validate`] | `skin validate`: the error table and its thresholds |
//! | 7 | [`html`] | `skin validate --report`: the validation as static HTML pages, plots and pictures |
//! | 8 | [`cli`] | the `skin` command-line tool: one argument struct and one `run` per subcommand |
//!
//! A module imports only from lower layers (`tests/tests/host_layers.rs` checks it), and the
//! stages that are folders (`pose/`, `bake/`, `validate/`, `cli/`) list their files in import
//! order in their module docs.

pub mod accessor;
pub mod animation;
pub mod bake;
pub mod board;
pub mod character;
pub mod cli;
pub mod envelope;
pub mod error;
pub mod frames;
pub mod gpu;
pub mod html;
pub mod import;
pub mod inspect;
pub mod lattice;
pub mod oracle;
pub mod output;
pub mod picture;
pub mod pose;
pub mod psd;
pub mod render;
pub mod rig;
pub mod split;
pub mod validate;

pub use error::ImportError;
pub use pose::PoseError;
pub use rig::Rig;
