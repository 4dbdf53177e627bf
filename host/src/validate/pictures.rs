//! The picture comparison of `skin validate`: each frame drawn by the GPU's vertex shader
//! and by the CPU rasteriser (the firmware's frame), pixel for pixel, both skinning by one
//! method.

use std::collections::hash_map::{Entry, HashMap};

use skin_core::budget::Budget;
use skin_core::raster::Bounds;

use crate::gpu::{Model, Reference};
use crate::picture::{Difference, Picture};
use crate::pose::{LaneKind, Skinning};
use crate::render::{self, Cpu};
use crate::rig::Rig;

use super::error::ValidateError;
use super::report::Pictures;

/// The pictures of the frames so far, of one skinning method.
pub struct PictureCheck<'a> {
    rig: &'a Rig,
    gpu: &'a Reference,
    /// The method both renderers skin by.
    skinning: Skinning,
    /// The CPU renderer's budget.
    budget: Budget,
    /// The pictures' size.
    size: (u16, u16),
    /// The firmware's camera's box.
    framed: Bounds,
    /// The CPU renderer of each clip (`None`: the rest pose).
    cpus: HashMap<Option<usize>, Cpu>,
    diffs: Vec<Difference>,
    worst: Option<(Picture, Picture)>,
}

impl<'a> PictureCheck<'a> {
    /// No frames yet; `size` pictures skinned by `skinning`, the CPU's palettes split for
    /// `budget` and the camera framed as the firmware's. A rig the asset cannot hold for
    /// `skinning` (a scaled joint under DQS) is a bake error
    /// ([`crate::render::RenderError::Bake`]).
    pub fn new(
        rig: &'a Rig,
        gpu: &'a Reference,
        skinning: Skinning,
        budget: Budget,
        size: (u16, u16),
    ) -> Result<Self, ValidateError> {
        // The firmware's camera: the box of the f32 asset skinned at rest (every clip's
        // asset has the same rest pose).
        let framed = Cpu::with_skinning(rig, None, (LaneKind::F32, skinning), Some(budget))?
            .rest_bounds(size)?;
        Ok(Self {
            rig,
            gpu,
            skinning,
            budget,
            size,
            framed,
            cpus: HashMap::new(),
            diffs: Vec::new(),
            worst: None,
        })
    }

    /// Draw and compare the rest pose (`anim` = `None`) or clip `c` at `t` seconds, the
    /// GPU's picture by `model` (split for this check's skinning method).
    pub fn frame(
        &mut self,
        model: &Model,
        anim: Option<(usize, f32)>,
    ) -> Result<(), ValidateError> {
        let (rig, size, budget) = (self.rig, self.size, self.budget);
        let played = (LaneKind::F32, self.skinning);
        let clip = anim.map(|(c, _)| c);
        let cpu = match self.cpus.entry(clip) {
            Entry::Occupied(e) => e.into_mut(),
            Entry::Vacant(e) => e.insert(Cpu::with_skinning(rig, clip, played, Some(budget))?),
        };
        let t = anim.map_or(0.0, |(_, t)| t);
        let cpu_picture = cpu.render(t, size)?;
        let gpu_picture = render::gpu(self.gpu, rig, model, anim, &self.framed, size)?;
        let diff = gpu_picture.difference(&cpu_picture).ok_or_else(|| {
            ValidateError::Nothing("the GPU and CPU pictures differ in size".into())
        })?;
        // Ties go to the later frame, so that a clean run shows an animated one.
        if self.diffs.iter().all(|d| d.differing <= diff.differing) {
            self.worst = Some((gpu_picture, cpu_picture));
        }
        self.diffs.push(diff);
        Ok(())
    }

    /// The statistics of every frame, and the GPU and CPU pictures of the frame where they
    /// differ most.
    pub fn finish(self) -> (Pictures, Option<(Picture, Picture)>) {
        (summarise(&self.diffs), self.worst)
    }

    /// What [`Self::finish`] gives when no frame was drawn: no frames, no pictures.
    pub fn none() -> (Pictures, Option<(Picture, Picture)>) {
        (summarise(&[]), None)
    }
}

/// The picture statistics of every frame's difference.
fn summarise(diffs: &[Difference]) -> Pictures {
    let mut p = Pictures {
        frames: diffs.len(),
        worst: 1.0,
        worst_frame: 0,
        worst_differing: 0,
        total: diffs.first().map_or(0, |d| d.total),
        mean: 0.0,
        largest: 0,
    };
    for (i, d) in diffs.iter().enumerate() {
        let a = d.agreement();
        if a <= p.worst {
            (p.worst, p.worst_frame, p.worst_differing) = (a, i, d.differing);
        }
        p.mean += a / diffs.len() as f64;
        p.largest = p.largest.max(d.largest);
    }
    p
}
