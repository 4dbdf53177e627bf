//! The tangent rows of `skin validate`: a model's glTF `TANGENT`s skinned by core `f32`,
//! core fixed point, GPU compute and GPU vertex shader ([`crate::pose::tangent`],
//! [`Reference::skin_tangents_compute`], [`Reference::skin_tangents_vertex`]) against the
//! `f64` oracle's ([`Tangent64`]), and the GPU's against core `f32`'s, each method's frame
//! by frame. An error is the largest difference of a component, the handedness `w` among
//! them (a flipped `w` is an error of 2).
//!
//! Limits: 10⁻⁵ for the `f32` paths, as for normals (unit vectors); the fixed lane's
//! derived bound (`skin_core::tangent::fixed_error_bound`) at the shortest blended
//! direction `ℓ` met and the largest palette exponent, or under dual quaternion skinning
//! `fixed_dual_error_bound` at the smallest blended norm `ν`, plus 10⁻⁵ (the `I8F24`
//! palette's own maths). A path that cannot skin the tangents leaves its rows "not
//! available" with the reason: the fixed lane beyond its range, and dual quaternion
//! skinning of joints with scale or shear (the core's tangents take unit dual quaternions,
//! and the GPU refuses a stretched palette, [`crate::gpu::GpuError::StretchedTangents`]).

use skin_core::tangent::{fixed_dual_error_bound, fixed_error_bound};

use crate::gpu::{GpuError, Model, Reference};
use crate::oracle::{PosedPrimitive64, Tangent64};
use crate::pose::tangent::{tangents, PosedTangents};
use crate::pose::{LaneKind, Skinning};
use crate::rig::Rig;

use super::error::ValidateError;
use super::report::{finite_or_inf, Errors, Row, LIMITS};

/// The largest difference of a component of `got` from `want` (NaN counted as infinite).
pub fn error(got: &[f32; 4], want: &Tangent64) -> f64 {
    (0..4)
        .map(|i| finite_or_inf((f64::from(got[i]) - want.xyzw[i]).abs()))
        .fold(0.0, f64::max)
}

/// Every tangent of `got` against the same vertex of `want`, added to `errors`.
pub fn compare(errors: &mut Errors, got: &[[f32; 4]], want: &[Tangent64]) {
    for (g, w) in got.iter().zip(want) {
        errors.add(error(g, w));
    }
}

/// Whether any mesh node of `rig` draws a primitive with `TANGENT`s.
pub fn has_tangents(rig: &Rig) -> bool {
    rig.mesh_nodes().any(|(_, m, _)| {
        rig.meshes[m]
            .primitives
            .iter()
            .any(|p| p.tangents.is_some())
    })
}

/// The tangent comparisons of one skinning method.
#[derive(Clone, Debug)]
pub struct Tangents {
    /// The skinning method compared.
    method: Skinning,
    /// Whether the rig has tangents (else no rows).
    present: bool,
    /// The shortest blended direction `|M·t|` the oracle met.
    least_blend: f64,
    core_f32: Errors,
    core_fixed: Errors,
    compute: Errors,
    vertex: Errors,
    compute_core: Errors,
    vertex_core: Errors,
    /// Why core `f32` could not skin them (dual quaternion skinning of stretched joints).
    f32_failed: Option<String>,
    /// Why core fixed could not.
    fixed_failed: Option<String>,
    /// Why the GPU could not (a stretched palette).
    gpu_failed: Option<String>,
}

/// The skinned tangents of the (node, mesh, primitive) `of` in `posed`.
fn find<'a>(posed: &'a [PosedTangents], of: &PosedPrimitive64) -> Option<&'a [[f32; 4]]> {
    posed
        .iter()
        .find(|t| (t.node, t.mesh, t.primitive) == (of.node, of.mesh, of.primitive))
        .map(|t| t.tangents.as_slice())
}

impl Tangents {
    /// Nothing compared yet, for `method`; `present`: whether the rig has tangents.
    pub fn new(method: Skinning, present: bool) -> Self {
        Self {
            method,
            present,
            least_blend: f64::INFINITY,
            core_f32: Errors::default(),
            core_fixed: Errors::default(),
            compute: Errors::default(),
            vertex: Errors::default(),
            compute_core: Errors::default(),
            vertex_core: Errors::default(),
            f32_failed: None,
            fixed_failed: None,
            gpu_failed: None,
        }
    }

    /// The core's tangents of a frame in `lane` by `method`; a refusal that leaves the path
    /// "not available" (any under dual quaternion skinning, the fixed lane's by either
    /// method) is kept in `failed` and gives `None`; linear blend skinning's `f32`
    /// refusal is an error.
    fn core(
        rig: &Rig,
        anim: Option<(usize, f32)>,
        lane: LaneKind,
        method: Skinning,
        failed: &mut Option<String>,
    ) -> Result<Option<Vec<PosedTangents>>, ValidateError> {
        if failed.is_some() {
            return Ok(None);
        }
        match tangents(rig, anim, lane, method) {
            Ok(t) => Ok(Some(t)),
            Err(e) if lane == LaneKind::F32 && method == Skinning::Lbs => Err(e.into()),
            Err(e) => {
                *failed = Some(e.to_string());
                Ok(None)
            }
        }
    }

    /// The comparisons of one frame (the rest pose, or clip `c` at `t` seconds): the
    /// core's tangents in both lanes (fixed only with `fixed`), the GPU's on `model`,
    /// against the oracle's pose `want`.
    pub fn frame(
        &mut self,
        rig: &Rig,
        gpu: &Reference,
        model: &Model,
        anim: Option<(usize, f32)>,
        fixed: bool,
        want: &[PosedPrimitive64],
    ) -> Result<(), ValidateError> {
        if !self.present {
            return Ok(());
        }
        let method = self.method;
        let f32s = Self::core(rig, anim, LaneKind::F32, method, &mut self.f32_failed)?;
        let fixeds = match fixed {
            true => Self::core(rig, anim, LaneKind::Fixed, method, &mut self.fixed_failed)?,
            false => None,
        };
        for w in want {
            let Some(wt) = &w.tangents else { continue };
            self.least_blend = wt
                .iter()
                .map(|t| t.blended)
                .fold(self.least_blend, f64::min);
            if let Some(got) = f32s.as_deref().and_then(|p| find(p, w)) {
                compare(&mut self.core_f32, got, wt);
            }
            if let Some(got) = fixeds.as_deref().and_then(|p| find(p, w)) {
                compare(&mut self.core_fixed, got, wt);
            }
        }
        if self.gpu_failed.is_some() {
            return Ok(());
        }
        let palettes = model.palettes(rig, anim)?;
        for (p, prim) in model.primitives.iter().enumerate() {
            let given = &rig.meshes[prim.mesh].primitives[prim.primitive].tangents;
            let (Some(given), Some(wt)) = (given, &want[p].tangents) else {
                continue;
            };
            let compute = match gpu.skin_tangents_compute(&prim.whole, &palettes[p], given) {
                Err(e @ GpuError::StretchedTangents) => {
                    self.gpu_failed = Some(e.to_string());
                    return Ok(());
                }
                r => r?,
            };
            let split: Vec<[f32; 4]> = prim
                .split
                .origin
                .iter()
                .map(|&o| given[o as usize])
                .collect();
            let vertex = gpu.skin_tangents_vertex(
                &prim.split.mesh,
                &palettes[p],
                &prim.split.draws,
                (model.budget, model.layout),
                &split,
            )?;
            let split_want: Vec<Tangent64> =
                prim.split.origin.iter().map(|&o| wt[o as usize]).collect();
            compare(&mut self.compute, &compute, wt);
            compare(&mut self.vertex, &vertex, &split_want);
            if let Some(core) = f32s.as_deref().and_then(|c| find(c, &want[p])) {
                let as_want = |t: &[f32; 4]| Tangent64 {
                    xyzw: t.map(f64::from),
                    blended: 1.0,
                };
                let core_want: Vec<Tangent64> = core.iter().map(as_want).collect();
                let split_core: Vec<Tangent64> = prim
                    .split
                    .origin
                    .iter()
                    .map(|&o| core_want[o as usize])
                    .collect();
                compare(&mut self.compute_core, &compute, &core_want);
                compare(&mut self.vertex_core, &vertex, &split_core);
            }
        }
        Ok(())
    }

    /// Add one frame's comparisons.
    pub fn merge(&mut self, frame: &Tangents) {
        self.least_blend = self.least_blend.min(frame.least_blend);
        for (a, b) in [
            (&mut self.core_f32, frame.core_f32),
            (&mut self.core_fixed, frame.core_fixed),
            (&mut self.compute, frame.compute),
            (&mut self.vertex, frame.vertex),
            (&mut self.compute_core, frame.compute_core),
            (&mut self.vertex_core, frame.vertex_core),
        ] {
            a.merge(b);
        }
        for (a, b) in [
            (&mut self.f32_failed, &frame.f32_failed),
            (&mut self.fixed_failed, &frame.fixed_failed),
            (&mut self.gpu_failed, &frame.gpu_failed),
        ] {
            if a.is_none() {
                a.clone_from(b);
            }
        }
    }

    /// The rows (none without tangents), named `names` (core `f32`, core fixed, GPU
    /// compute, GPU vertex under the method), with their limits: the fixed lane's is the
    /// bound at the shortest blended direction met (at most 1) and the largest palette
    /// `exponent` (linear blend skinning), or at the smallest blended norm `least_norm`
    /// (dual quaternion skinning), plus the `f32` limit; `fixed_unavailable`: why the fixed
    /// lane could not run at all.
    pub fn rows(
        &self,
        names: [&'static str; 4],
        exponent: u8,
        least_norm: f64,
        fixed_unavailable: Option<&str>,
    ) -> Vec<Row> {
        if !self.present {
            return Vec::new();
        }
        let fixed_bound = match self.method {
            Skinning::Lbs => fixed_error_bound(self.least_blend.min(1.0), exponent),
            Skinning::Dqs => fixed_dual_error_bound(least_norm),
        };
        let row = |path, against, errors, limit, unavailable: &Option<String>| Row {
            path,
            against,
            normals: true,
            errors,
            limit,
            unavailable: unavailable.clone(),
        };
        let fixed_failed = fixed_unavailable
            .map(str::to_owned)
            .or_else(|| self.fixed_failed.clone());
        let gpu_core = self.gpu_failed.clone().or_else(|| self.f32_failed.clone());
        let (f64s, cores) = ("f64 tangents", "core f32 tangents");
        vec![
            row(
                names[0],
                f64s,
                self.core_f32,
                LIMITS.normal,
                &self.f32_failed,
            ),
            row(
                names[1],
                f64s,
                self.core_fixed,
                fixed_bound + LIMITS.normal,
                &fixed_failed,
            ),
            row(
                names[2],
                f64s,
                self.compute,
                LIMITS.normal,
                &self.gpu_failed,
            ),
            row(names[3], f64s, self.vertex, LIMITS.normal, &self.gpu_failed),
            row(names[2], cores, self.compute_core, LIMITS.normal, &gpu_core),
            row(names[3], cores, self.vertex_core, LIMITS.normal, &gpu_core),
        ]
    }
}

#[cfg(test)]
mod tests;
