//! The walk demo (feature `walk`): each frame, skin-core's [`Scene::pose_walk`] poses the
//! model's figure walking over uneven ground — feet planted by two-bone IK, pelvis lowered,
//! head turned to a point sweeping ahead of it — on top of its clip, the same code the host
//! renders the frame with (its instructions are the `FRAME` line's `animate=`). Logs, before
//! each `FRAME` line:
//!
//! ```text
//! STEP frame=… left=… right=… left_phase=… right_phase=…
//! ```
//!
//! `left`/`right`: whether each foot is planted (`true`) or swinging; `*_phase` the fraction
//! of its stride since it landed.

use skin_core::affine::Affine;
use skin_core::asset::AssetLane;
use skin_core::raster::{Project, RasterError};
use skin_core::scene::{Scene, Stages, Walk};
use skin_core::transform::Transform;

mod joints {
    include!(concat!(env!("OUT_DIR"), "/walk.rs"));
}

/// The walk of `scene`'s figure with the build's joints.
pub fn prepare<L: AssetLane + Project, const N: usize>(
    scene: &Scene<'_, L, N>,
) -> Result<Walk<L::Real>, RasterError> {
    scene.walk(joints::JOINTS)
}

/// Frame `k` at `t` seconds: the walk posed into `pose` and `world`, its steps logged.
pub fn pose<L: AssetLane + Project, const N: usize>(
    scene: &Scene<'_, L, N>,
    walk: &Walk<L::Real>,
    (k, t): (u32, f32),
    pose: &mut [Transform<L::Real>],
    world: &mut [Affine<L::Real>],
    stages: &mut impl Stages,
) -> Result<(), RasterError> {
    let [left, right] = scene.pose_walk(walk, t, pose, world, stages)?;
    defmt::info!(
        "STEP frame={=u32} left={=bool} right={=bool} left_phase={=f32} right_phase={=f32}",
        k,
        left.contact,
        right.contact,
        left.phase,
        right.phase
    );
    Ok(())
}
