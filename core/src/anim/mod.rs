//! The animation layer between clips and the player: blending sampled poses (weighted
//! layers, per-joint masks, additive layers, the rest pose as fallback), crossfades and
//! phase-synchronised locomotion timing; two-bone inverse kinematics with a hinge limit,
//! on positions ([`TwoBone`]) and on a skeleton's pose ([`Limb`]), with swing and twist
//! limits for ball joints ([`SwingTwist`]); look-at for a head or an eye ([`Aim`]); a
//! procedural walk with feet planted on uneven ground ([`Gait`], [`Walker`]).
//!
//! Written once over [`Real`](crate::num::Real), so the host (`f32`) and the boards (`f32`
//! or `I8F24`) run the same code; allocation-free (layers up to a compile-time capacity).
//! Inputs are checked when they are added ([`AnimError`]); blending itself only checks what
//! it writes.
//!
//! ```
//! use skin_core::anim::{Blend, Crossfade};
//! use skin_core::transform::Transform;
//! let rest = [Transform::<f32>::IDENTITY; 1];
//! let (mut idle, mut walk) = (rest, rest);
//! idle[0].translation = [0.0, 1.0, 0.0];
//! walk[0].translation = [0.0, 3.0, 0.0];
//! let fade = Crossfade::new(0.0, 2.0).unwrap();
//! let w = fade.weight(0.5); // a quarter of the way
//! let mut blend = Blend::<f32, 2>::new(&rest).unwrap();
//! blend.layer(&idle, 1.0 - w, None).unwrap().layer(&walk, w, None).unwrap();
//! let mut out = rest;
//! blend.apply(&mut out).unwrap();
//! assert!((out[0].translation[1] - 1.5).abs() < 1e-6);
//! ```

mod aim;
mod blend;
mod chain;
mod error;
mod ground;
mod ik;
mod limb;
mod limit;
mod timing;
mod vector;
mod walk;

pub use aim::Aim;
pub use blend::Blend;
pub use chain::world_of;
pub use error::{AnimError, Input};
pub use ground::Ground;
pub use ik::{coordinate_limit, Hinge, TwoBone};
pub use limb::{Goal, Limb};
pub use limit::SwingTwist;
pub use timing::{Crossfade, Phase};
pub use vector::Vec3;
pub use walk::{Gait, Step, Walker};
