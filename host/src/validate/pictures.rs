//! The picture comparison of `skin validate`: each frame drawn by the GPU's vertex shader
//! and by the CPU rasteriser (the firmware's frame), pixel for pixel.

use std::collections::hash_map::{Entry, HashMap};

use skin_core::budget::Budget;
use skin_core::raster::Bounds;

use crate::gpu::{Model, Reference};
use crate::picture::{Difference, Picture};
use crate::pose::LaneKind;
use crate::render::{self, Cpu};
use crate::rig::Rig;

use super::error::ValidateError;
use super::report::Pictures;

/// The pictures of the frames so far.
pub struct PictureCheck<'a> {
    rig: &'a Rig,
    gpu: &'a Reference,
    model: &'a Model,
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
    /// No frames yet; `size` pictures, the CPU's palettes split for `budget` and the camera
    /// framed as the firmware's.
    pub fn new(
        rig: &'a Rig,
        gpu: &'a Reference,
        model: &'a Model,
        budget: Budget,
        size: (u16, u16),
    ) -> Result<Self, ValidateError> {
        // The firmware's camera: the box of the f32 asset skinned at rest (every clip's
        // asset has the same rest pose).
        let framed = Cpu::new(rig, None, LaneKind::F32, Some(budget))?.rest_bounds(size)?;
        Ok(Self {
            rig,
            gpu,
            model,
            budget,
            size,
            framed,
            cpus: HashMap::new(),
            diffs: Vec::new(),
            worst: None,
        })
    }

    /// Draw and compare the rest pose (`anim` = `None`) or clip `c` at `t` seconds.
    pub fn frame(&mut self, anim: Option<(usize, f32)>) -> Result<(), ValidateError> {
        let (rig, size, budget) = (self.rig, self.size, self.budget);
        let clip = anim.map(|(c, _)| c);
        let cpu = match self.cpus.entry(clip) {
            Entry::Occupied(e) => e.into_mut(),
            Entry::Vacant(e) => e.insert(Cpu::new(rig, clip, LaneKind::F32, Some(budget))?),
        };
        let t = anim.map_or(0.0, |(_, t)| t);
        let cpu_picture = cpu.render(t, size)?;
        let gpu_picture = render::gpu(self.gpu, rig, self.model, anim, &self.framed, size)?;
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
