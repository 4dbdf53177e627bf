//! The stages of a frame, for per-stage measurements: the firmware times each with its
//! cycle counter, the host runs them untimed (`()`).

/// A stage of the frame pipeline, for per-stage measurements ([`Stages`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Clip sampling and forward kinematics.
    Sample,
    /// The animation layer on the sampled pose (a walk, IK, look-at:
    /// [`Scene::pose_layered`](super::Scene::pose_layered)), between sampling and forward
    /// kinematics.
    Animate,
    /// Palette matrices of every part.
    Palette,
    /// Skinning the vertices (positions and normals), read straight from the asset where
    /// the lane's loop takes the stored layout
    /// ([`crate::asset::AssetLane::vectors_in_place`]), else copied in first.
    Skin,
    /// Projection and shading.
    Project,
    /// Clearing the bands and rasterising into them.
    Raster,
    /// Sending finished bands to the draw target (the display).
    Display,
}

/// Runs a stage's work, e.g. timing it. `()` just runs it.
pub trait Stages {
    /// Run `f`, which does `stage`'s work.
    fn time<R>(&mut self, stage: Stage, f: impl FnOnce() -> R) -> R;
}

impl Stages for () {
    fn time<R>(&mut self, _: Stage, f: impl FnOnce() -> R) -> R {
        f()
    }
}
