//! The pose stage: a [`Rig`](crate::rig::Rig) evaluated in glTF world space through
//! skin-core, in a lane ([`LaneKind`]: `f32` or fixed point).
//!
//! Skinned vertices follow the glTF specification: `Σ w · W(joint) · IBM · p`, where `p` is
//! the bind position moved by the node's morph targets ([`morph`]), and
//! `W(joint)` is the joint node's world matrix including every non-joint ancestor, and the
//! skinned node's own transform is ignored. Unskinned meshes are placed by their node's
//! world matrix (a one-bone `RigidMesh`).
//!
//! The work is done by skin-core: `Skeleton` for forward kinematics over a joint set and
//! its ancestors, `BindPose` for the palette `W · IBM`, `SkinnedMesh` for the blend. In
//! fixed point every length is in *asset units*, model units divided by `2^k` with `k` from
//! [`asset_unit`], so that bind positions lie in (−1, 1) as the `I2F14` lane needs.
//! Animation goes through skin-core's `Clip` in the pose scalar itself
//! ([`animate::sampled`]): the code and the numbers the device uses, so a baked asset
//! ([`crate::bake`]) skins to the same bits as [`pose()`].
//!
//! Its files, each importing only from those above it in this list:
//!
//! | module | job |
//! |---|---|
//! | [`error`] | [`PoseError`] |
//! | [`lane`] | [`LaneKind`] and [`Skinning`], the lane and the method chosen at run time |
//! | [`units`] | the asset unit `2^k`, and whether the fixed lane can have one for a rig |
//! | [`values`] | the rig's `f32` data as lane values: transforms, inverse binds, positions, normals, influences |
//! | [`animate`] | clips as skin-core channels, sampled into node transforms ([`animate::frame`]) |
//! | [`morph`] | morph-target weights at a frame, and primitives moved by them before skinning |
//! | [`palette`] | world matrices and palettes |
//! | [`skin`] | every mesh node's primitives skinned ([`pose()`]) |
//! | [`tangent`] | every primitive's `TANGENT`s skinned like normals ([`tangent::tangents`]) |
//! | [`joints`] | every joint's world matrix in a frame ([`joint_worlds`]) |
//! | [`range`] | whether the fixed lane holds a rig at rest and through its clips |
//! | [`layers`] | the animation layer on a frame: blends, masks, an additive clip, IK chains, look-at ([`layered_pose`]) |
//!
//! ```
//! use skin_host::character::Character;
//! use skin_host::pose::{pose, LaneKind};
//! let rig = skin_host::import::from_slice(&Character::new().glb(), None)?;
//! // The walk at 0.5 s, skinned in each lane: the same vertices, the fixed ones within the
//! // lane's error bound (a few 2⁻¹⁵ asset units).
//! let f32s = pose(&rig, Some((0, 0.5)), LaneKind::F32)?;
//! let fixed = pose(&rig, Some((0, 0.5)), LaneKind::Fixed)?;
//! for (a, b) in f32s[0].positions.iter().zip(&fixed[0].positions) {
//!     assert!((0..3).all(|i| (a[i] - b[i]).abs() < 1e-3));
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod animate;
pub mod error;
pub mod joints;
pub mod lane;
pub mod layers;
pub mod morph;
pub mod palette;
pub mod range;
pub mod skin;
pub mod tangent;
pub mod units;
pub mod values;

pub use error::PoseError;
pub use joints::{joint_worlds, JointWorld};
pub use lane::{LaneKind, Skinning};
pub use layers::{layered_pose, Layers, Look, Reach, Walking};
pub use skin::{pose, pose_weighted, pose_with, PosedPrimitive};
pub use units::{asset_unit, fixed_unit};
