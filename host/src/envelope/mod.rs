//! Envelope weights (`skin weights --envelopes`): every skinned mesh's influences computed
//! from bone proximity by skin-core's [`skin_core::envelope`], written back into the glTF
//! file, and compared with the artist's weights.
//!
//! Its files, each importing only from those above it in this list:
//!
//! | module | job |
//! |---|---|
//! | [`error`] | [`WeightsError`] |
//! | [`radii`] | per-joint radii: `--inner`/`--outer` and the radii file |
//! | [`capsules`] | a skin's capsules from its inverse bind matrices and joint hierarchy |
//! | [`weigh`] | every skinned mesh's influences from its skin's envelopes ([`weigh()`]) |
//! | [`study`] | how far the result is from the artist's weights, in weight and in pose |
//! | [`gltf`] | the model written back with the new `JOINTS_0`/`WEIGHTS_0` |
//!
//! ```
//! use skin_core::envelope::Radii;
//! use skin_host::character::Character;
//! use skin_host::envelope::{weigh, RadiiTable};
//! let rig = skin_host::import::from_slice(&Character::new().glb(), None)?;
//! let radii = RadiiTable::new(Some(Radii::new(0.05, 0.2)?));
//! let weighted = weigh(&rig, &radii)?;
//! assert_eq!(weighted.vertices, rig.meshes[0].primitives[0].positions.len());
//! // Every vertex got influences summing to one.
//! for i in weighted.rig.meshes[0].primitives[0].influences.as_ref().unwrap() {
//!     assert!((i.weights.iter().sum::<f32>() - 1.0).abs() < 1e-6);
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod capsules;
pub mod error;
pub mod gltf;
pub mod radii;
pub mod study;
pub mod weigh;

pub use error::WeightsError;
pub use radii::RadiiTable;
pub use weigh::{weigh, Weighted};
