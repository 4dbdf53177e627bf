//! The picture comparison of `skin validate`: each frame drawn by the GPU's vertex shader
//! and by the CPU rasteriser (the firmware's frame), pixel for pixel, both skinning by one
//! method.
//!
//! A model whose morph targets move vertices is drawn by the GPU with the deltas the asset
//! stores ([`crate::bake::dequantised`]: quantised, then turned back exactly), so that both
//! renderers move each vertex by the same deltas and the pictures compare as those of an
//! unmorphed model do; how far the quantisation itself moves a vertex is bounded in
//! docs/FORMAT.md (*Morph targets*) and measured by the asset's tests.

use std::collections::hash_map::{Entry, HashMap};

use skin_core::budget::{Budget, Layout};
use skin_core::raster::Bounds;

use crate::gpu::{Model, Reference};
use crate::picture::{Difference, Picture};
use crate::pose::{LaneKind, Skinning};
use crate::render::{self, Cpu, RenderError};
use crate::rig::Rig;

use super::error::ValidateError;
use super::report::Pictures;

/// The pictures of the frames so far, of one skinning method.
pub struct PictureCheck<'a> {
    rig: &'a Rig,
    gpu: &'a Reference,
    /// What the GPU draws when the rig's morph targets move vertices: the rig with the
    /// asset's quantised deltas, and its model split for this check's method.
    quantised: Option<(Rig, Model)>,
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
    /// `skinning` (a scaled joint under DQS) is a bake error ([`RenderError::Bake`]). With
    /// morph targets in use the GPU draws the asset's quantised deltas, its palettes split
    /// for `budget` in `layout` as the validated paths split them.
    pub fn new(
        rig: &'a Rig,
        gpu: &'a Reference,
        skinning: Skinning,
        (budget, layout): (Budget, Layout),
        size: (u16, u16),
    ) -> Result<Self, ValidateError> {
        // The firmware's camera: the box of the f32 asset skinned at rest (every clip's
        // asset has the same rest pose).
        let framed = Cpu::with_skinning(rig, None, (LaneKind::F32, skinning), Some(budget))?
            .rest_bounds(size)?;
        let quantised = match rig.morphs_in_use() {
            Some(_) => {
                // The f32 asset's unit is 2^0.
                let stored =
                    crate::bake::dequantised(rig, 0, LaneKind::F32).map_err(RenderError::Bake)?;
                let model = Model::with_skinning(&stored, budget, layout, skinning)?;
                Some((stored, model))
            }
            None => None,
        };
        Ok(Self {
            rig,
            gpu,
            quantised,
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
    /// GPU's picture by `model` (split for this check's skinning method; the check's own
    /// model of the quantised deltas when morph targets are in use).
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
        let (drawn, model) = match &self.quantised {
            Some((stored, own)) => (stored, own),
            None => (rig, model),
        };
        let gpu_picture = render::gpu(self.gpu, drawn, model, anim, &self.framed, size)?;
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
        let pictures = Pictures {
            quantised_morphs: self.quantised.is_some(),
            ..summarise(&self.diffs)
        };
        (pictures, self.worst)
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
        quantised_morphs: false,
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
