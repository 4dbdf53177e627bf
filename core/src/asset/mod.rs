//! The baked asset: a versioned, little-endian binary format holding a skeleton, a skin,
//! a palette-split mesh and animation clips (layout: `docs/FORMAT.md`).
//!
//! * [`AssetParts`] — everything an asset holds, as plain slices; [`AssetParts::write`]
//!   serialises it into a caller's buffer without allocating ([`AssetParts::size`] says how
//!   long it must be). The host's baker builds the parts from a glTF file.
//! * [`Asset::read`] — checks every byte once (header, CRC-32, counts, indices, values,
//!   clips for the lane's scalar) and returns zero-copy views: vertex arrays, parts with
//!   their palettes, clips sampled straight from the bytes. Any byte input gives either a
//!   valid asset or an [`AssetError`]; it never panics.
//!
//! ```
//! use skin_core::prelude::*;
//! use skin_core::asset::{Asset, AssetParts, ClipParts, Part};
//! use skin_core::clip::{Channel, Interpolation, Path, Wrap};
//! use skin_core::lane::Q14;
//! use skin_core::skin::Skinning;
//! use skin_core::num::Fx;
//!
//! // One bone, one triangle, a clip that slides the bone 0.5 along X in one second.
//! let positions = [[0.0, 0.0, 0.0], [0.5, 0.0, 0.0], [0.0, 0.5, 0.0]].map(|p| p.map(Q14::from_num));
//! let influences = [Influence::rigid(0); 3];
//! let (times, values) = ([0.0f32, 1.0], [0.0f32, 0.0, 0.0, 0.5, 0.0, 0.0]);
//! let channels = [Channel {
//!     bone: 0,
//!     path: Path::Translation,
//!     interpolation: Interpolation::Linear,
//!     times: &times[..],
//!     values: &values[..],
//! }];
//! let parts = AssetParts {
//!     unit_exponent: 0,
//!     parents: &[None],
//!     rest: &[Transform::IDENTITY],
//!     root: Affine::IDENTITY,
//!     joints: &[0],
//!     inverse_binds: &[Affine::IDENTITY],
//!     positions: &positions,
//!     normals: None,
//!     influences: &influences,
//!     indices: &[0, 1, 2],
//!     parts: &[Part { vertices: 3, indices: 3, bones: &[0] }],
//!     clips: &[ClipParts { name: "slide", duration: 1.0, channels: &channels }],
//!     skinning: Skinning::Lbs,
//!     centre: [0.0; 3],
//! };
//! let mut buf = [0u8; 1024];
//! let n = parts.write(&mut buf).unwrap();
//!
//! // On the device: read in place, sample, pose, skin.
//! let asset = Asset::<Q14>::read(&buf[..n]).unwrap();
//! let skeleton = asset.skeleton::<8>().unwrap();
//! let bind = asset.bind_pose::<8>().unwrap();
//! let mut pose = [Transform::<Fx>::IDENTITY; 1];
//! pose.copy_from_slice(skeleton.rest());
//! asset.clip("slide").unwrap().sample(0.5, Wrap::Clamp, &mut pose).unwrap();
//! let mut world = [Affine::IDENTITY; 1];
//! skeleton.world(&pose, &mut world).unwrap();
//! let part = asset.parts().next().unwrap();
//! let mut palette: Palette<Q14, 8> = Palette::new();
//! part.palette(&bind, &world, &mut palette).unwrap();
//! let (mut p, mut inf) = ([[Q14::ZERO; 3]; 3], [Influence::rigid(0); 3]);
//! part.positions().copy_to(&mut p);
//! part.influences().copy_to(&mut inf);
//! let mesh = SkinnedMesh::<Q14, 1>::new(&p, &inf).unwrap();
//! let mut out = [[Default::default(); 3]; 3];
//! mesh.skin(palette.as_slice(), &mut out).unwrap();
//! assert_eq!(out[1][0].to_num::<f32>(), 0.75);
//! ```

mod asset_parts;
mod centre;
mod clips;
mod correctives;
mod error;
mod header;
mod lane;
mod lattice;
mod morph_view;
mod morphs;
mod part_view;
mod read;
mod views;
mod write;

pub use asset_parts::{AssetParts, ClipParts, Part};
pub use centre::{CENTRE_STEP, MAX_CENTRE};
pub use clips::ClipView;
pub use correctives::{
    CorrectiveParts, CorrectiveRbf, CorrectiveView, Correctives, MAX_CORRECTIVES,
};
pub use error::{AssetError, Field};
pub use header::{
    checksum, FLAG_CENTRE, FLAG_CORRECTIVES, FLAG_DQS, FLAG_LATTICE, FLAG_MORPHS, FLAG_NORMALS,
    HEADER_LEN, MAGIC, VERSION,
};
pub use lane::AssetLane;
pub use lattice::{LatticeParts, LatticeView};
pub use morph_view::{
    MorphEntry, MorphSetView, Morphs, SpanView, TargetScale, WeightsAt, WeightsView,
};
pub(crate) use morphs::ENTRY_LEN as MORPH_ENTRY_LEN;
pub use morphs::{MorphParts, MorphSet, QuantisedTarget, Span, WeightChannel};
pub use part_view::{PartView, MAX_PART_BONES};
pub use read::Asset;
pub use views::{Influences, U16s, Vectors};
pub use write::Deformers;
