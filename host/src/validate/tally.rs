//! The accumulators of every comparison `skin validate` makes, frame by frame.

use skin_core::lane::{fixed_dual_error_bound, fixed_stretch_error_bound};

use crate::gpu::{Drawn, Model, Reference, Skinned};
use crate::oracle::{self, PosedPrimitive64};
use crate::pose::palette::{fixed_exponent, fixed_stretch_exponent};
use crate::pose::{pose_with, LaneKind, PoseError, PosedPrimitive, Skinning};
use crate::rig::Rig;

use super::error::ValidateError;
use super::report::{finite_or_inf, Errors, Heat, Row, LIMITS};
use super::tangents::Tangents;

/// Largest coordinate difference.
fn error3(a: [f64; 3], b: [f64; 3]) -> f64 {
    (0..3).map(|i| (a[i] - b[i]).abs()).fold(0.0, f64::max)
}

fn f64s(p: &[f32; 3]) -> [f64; 3] {
    p.map(f64::from)
}

/// The accumulators of every comparison of one skinning method.
pub struct Tally {
    /// The skinning method compared (its rows are named after it).
    method: Skinning,
    /// The smallest norm of a blended real part the oracle met (dual quaternion skinning;
    /// the fixed lane's bound grows as it shrinks).
    least_norm: f64,
    /// The largest fixed-point LBS palette exponent met (a joint scaled beyond an unscaled
    /// row; the fixed lane's bound doubles with each).
    exponent: u8,
    /// The largest fixed-point DQS palette exponent met among palettes with stretches
    /// (joints with scale or shear; the fixed lane's bound is then the stretched one), or
    /// `None` if every palette met was rigid.
    stretched: Option<u8>,
    /// Why the fixed lane could not skin a frame by this method, if it could not.
    fixed_failed: Option<String>,
    core_f32: Errors,
    core_fixed: Errors,
    compute: Errors,
    vertex: Errors,
    compute_core: Errors,
    vertex_core: Errors,
    compute_normals: Errors,
    vertex_normals: Errors,
    /// Split vertices the vertex path did not draw.
    pub undrawn: usize,
    /// Core fixed vs `f64`, the error of each vertex (of one frame's tally).
    fixed_vertices: Vec<f64>,
    /// GPU compute vs core `f32`, the error of each vertex (of one frame's tally).
    compute_core_vertices: Vec<f64>,
    /// The tangents' comparisons (no rows for a rig without them).
    tangents: Tangents,
}

impl Tally {
    /// Nothing compared yet, for `method`; `tangents`: whether the rig has `TANGENT`s
    /// ([`super::tangents::has_tangents`]), which adds their rows.
    pub fn new(method: Skinning, tangents: bool) -> Self {
        Self {
            method,
            least_norm: 1.0,
            exponent: 0,
            stretched: None,
            fixed_failed: None,
            core_f32: Errors::default(),
            core_fixed: Errors::default(),
            compute: Errors::default(),
            vertex: Errors::default(),
            compute_core: Errors::default(),
            vertex_core: Errors::default(),
            compute_normals: Errors::default(),
            vertex_normals: Errors::default(),
            undrawn: 0,
            fixed_vertices: Vec::new(),
            compute_core_vertices: Vec::new(),
            tangents: Tangents::new(method, tangents),
        }
    }

    /// The comparisons of one frame, the rest pose (`anim` = `None`) or clip `c` at `t`
    /// seconds, by `model`'s skinning method: core `f32` and fixed, GPU compute and GPU
    /// vertex shader (through `model`'s palette splits) against the oracle, and the GPU
    /// paths against core `f32`, and the tangents likewise ([`Tangents::frame`]); returns
    /// the oracle's pose. Without `fixed` (the fixed lane
    /// cannot hold the model), core fixed is left out; under dual quaternion skinning a
    /// frame the fixed lane refuses leaves it out too, with the reason.
    pub fn frame(
        &mut self,
        rig: &Rig,
        gpu: &Reference,
        model: &Model,
        anim: Option<(usize, f32)>,
        fixed: bool,
    ) -> Result<Vec<PosedPrimitive64>, ValidateError> {
        let at = anim.map(|(c, t)| (c, f64::from(t)));
        let want = match self.method {
            Skinning::Lbs => oracle::pose(rig, at),
            Skinning::Dqs => oracle::pose_dqs(rig, at).map(|d| {
                self.least_norm = self.least_norm.min(d.least_norm);
                d.posed
            }),
        }
        .ok_or_else(|| PoseError::NoAnimation(String::new(), rig.clips.len()))?;
        let core_f32 = pose_with(rig, anim, LaneKind::F32, self.method)?;
        let core_fixed = match (fixed && self.fixed_failed.is_none(), self.method) {
            (false, _) => None,
            (true, Skinning::Lbs) => {
                self.exponent = self.exponent.max(fixed_exponent(rig, anim)?);
                Some(pose_with(rig, anim, LaneKind::Fixed, self.method)?)
            }
            (true, Skinning::Dqs) => {
                let posed = fixed_stretch_exponent(rig, anim)
                    .and_then(|e| {
                        self.stretched = self.stretched.max(e);
                        pose_with(rig, anim, LaneKind::Fixed, self.method)
                    })
                    .map_err(|e| self.fixed_failed = Some(e.to_string()));
                posed.ok()
            }
        };
        self.positions(&core_f32, core_fixed.as_deref(), &want);
        let palettes = model.palettes(rig, anim)?;
        let weights = model.morph_weights(rig, anim);
        for (p, prim) in model.primitives.iter().enumerate() {
            let compute = gpu.skin_compute_morphed(&prim.whole, &palettes[p], &weights[p])?;
            let vertex = gpu.skin_vertex_morphed(
                &prim.split.mesh,
                &palettes[p],
                &weights[p],
                &prim.split.draws,
                (model.budget, model.layout),
            )?;
            self.gpu(
                &compute,
                &vertex,
                &prim.split.origin,
                &core_f32[p].positions,
                &want[p],
            );
        }
        self.tangents.frame(rig, gpu, model, anim, fixed, &want)?;
        Ok(want)
    }

    /// Add one frame's tally.
    pub fn merge(&mut self, frame: &Tally) {
        self.least_norm = self.least_norm.min(frame.least_norm);
        self.exponent = self.exponent.max(frame.exponent);
        self.stretched = self.stretched.max(frame.stretched);
        if self.fixed_failed.is_none() {
            self.fixed_failed.clone_from(&frame.fixed_failed);
        }
        self.core_f32.merge(frame.core_f32);
        self.core_fixed.merge(frame.core_fixed);
        self.compute.merge(frame.compute);
        self.vertex.merge(frame.vertex);
        self.compute_core.merge(frame.compute_core);
        self.vertex_core.merge(frame.vertex_core);
        self.compute_normals.merge(frame.compute_normals);
        self.vertex_normals.merge(frame.vertex_normals);
        self.undrawn += frame.undrawn;
        self.tangents.merge(&frame.tangents);
    }

    /// Keep this frame's (`frame`, posed as `want`) per-vertex errors in `heat` where they
    /// are the largest so far (ties go to the later frame, as the pictures' do).
    pub fn keep_worst(&self, heat: &mut Vec<Heat>, frame: usize, want: &[PosedPrimitive64]) {
        let now = [
            (self.name(Path::CoreFixed), "f64", &self.fixed_vertices),
            (
                self.name(Path::Compute),
                "core f32",
                &self.compute_core_vertices,
            ),
        ];
        let max = |e: &[f64]| e.iter().copied().fold(0.0, f64::max);
        for (path, against, errors) in now {
            let slot = heat
                .iter()
                .position(|h| h.path == path && h.against == against);
            if slot.is_some_and(|s| max(&heat[s].errors) > max(errors)) {
                continue;
            }
            let h = Heat {
                path,
                against,
                frame,
                pose: want.to_vec(),
                errors: errors.clone(),
            };
            match slot {
                Some(s) => heat[s] = h,
                None => heat.push(h),
            }
        }
    }

    /// Core `f32` and fixed (if posed) positions against the oracle's.
    fn positions(
        &mut self,
        f32s: &[PosedPrimitive],
        fixed: Option<&[PosedPrimitive]>,
        want: &[PosedPrimitive64],
    ) {
        for (a, w) in f32s.iter().zip(want) {
            for (pa, pw) in a.positions.iter().zip(&w.positions) {
                self.core_f32.add(error3(f64s(pa), *pw));
            }
        }
        for (b, w) in fixed.into_iter().flatten().zip(want) {
            for (pb, pw) in b.positions.iter().zip(&w.positions) {
                let e = finite_or_inf(error3(f64s(pb), *pw));
                self.core_fixed.add(e);
                self.fixed_vertices.push(e);
            }
        }
    }

    /// One primitive's GPU results: `compute` in accessor order, `vertex` over the split mesh
    /// whose vertex `v` is the primitive's `origin[v]`; against core `f32` positions `core`
    /// and the oracle `want`.
    fn gpu(
        &mut self,
        compute: &Skinned,
        vertex: &Drawn,
        origin: &[u32],
        core: &[[f32; 3]],
        want: &PosedPrimitive64,
    ) {
        let normals = want.normals.as_deref();
        for (v, p) in compute.positions.iter().enumerate() {
            self.compute.add(error3(f64s(p), want.positions[v]));
            let e = finite_or_inf(error3(f64s(p), f64s(&core[v])));
            self.compute_core.add(e);
            self.compute_core_vertices.push(e);
            if let Some(n) = normals {
                self.compute_normals
                    .add(error3(f64s(&compute.normals[v]), n[v]));
            }
        }
        for (s, &o) in origin.iter().enumerate() {
            if !vertex.drawn[s] {
                self.undrawn += 1;
                continue;
            }
            let (p, o) = (&vertex.skinned.positions[s], o as usize);
            self.vertex.add(error3(f64s(p), want.positions[o]));
            self.vertex_core.add(error3(f64s(p), f64s(&core[o])));
            if let Some(n) = normals {
                self.vertex_normals
                    .add(error3(f64s(&vertex.skinned.normals[s]), n[o]));
            }
        }
    }

    /// A path's row name under this tally's method: `core f32`, … for linear blend
    /// skinning, `dqs core f32`, … for dual quaternion skinning.
    fn name(&self, path: Path) -> &'static str {
        let names = match path {
            Path::CoreF32 => ("core f32", "dqs core f32"),
            Path::CoreFixed => ("core fixed", "dqs core fixed"),
            Path::Compute => ("gpu compute", "dqs gpu compute"),
            Path::Vertex => ("gpu vertex", "dqs gpu vertex"),
        };
        match self.method {
            Skinning::Lbs => names.0,
            Skinning::Dqs => names.1,
        }
    }

    /// The table's rows with their limits (model units; `extent` and asset unit `2^k`);
    /// `fixed_unavailable`: why the fixed lane could not run, if it could not. The fixed
    /// lane's limit is its derived bound: LBS's constant one (times `2^e` at the largest
    /// palette exponent `e` met: joints scaled beyond an unscaled row), or DQS's at the
    /// smallest blended norm `ν` met ([`fixed_dual_error_bound`]; with joints of scale or
    /// shear, [`fixed_stretch_error_bound`] at the largest exponent met), in asset units,
    /// plus the `f32` limit.
    pub fn rows(&self, extent: f64, k: i32, fixed_unavailable: Option<&str>) -> Vec<Row> {
        let f32_limit = LIMITS.f32_extent * extent;
        let fixed_bound = match self.method {
            Skinning::Lbs => LIMITS.fixed_asset_units * f64::from(1u16 << self.exponent),
            Skinning::Dqs => {
                let bound = match self.stretched {
                    Some(e) => fixed_stretch_error_bound(self.least_norm, e),
                    None => fixed_dual_error_bound(self.least_norm),
                };
                bound + 1e-6
            }
        };
        let fixed_limit = fixed_bound * 2f64.powi(k) + f32_limit;
        let row = |path, against, normals, errors: Errors, limit| Row {
            path: self.name(path),
            against,
            normals,
            errors,
            limit,
            unavailable: None,
        };
        let fixed_unavailable = fixed_unavailable
            .map(str::to_owned)
            .or_else(|| self.fixed_failed.clone());
        let mut rows = vec![
            row(Path::CoreF32, "f64", false, self.core_f32, f32_limit),
            Row {
                unavailable: fixed_unavailable.clone(),
                ..row(Path::CoreFixed, "f64", false, self.core_fixed, fixed_limit)
            },
            row(Path::Compute, "f64", false, self.compute, f32_limit),
            row(Path::Vertex, "f64", false, self.vertex, f32_limit),
            row(
                Path::Compute,
                "core f32",
                false,
                self.compute_core,
                f32_limit,
            ),
            row(Path::Vertex, "core f32", false, self.vertex_core, f32_limit),
            row(
                Path::Compute,
                "f64 normals",
                true,
                self.compute_normals,
                LIMITS.normal,
            ),
            row(
                Path::Vertex,
                "f64 normals",
                true,
                self.vertex_normals,
                LIMITS.normal,
            ),
        ];
        let names = [Path::CoreF32, Path::CoreFixed, Path::Compute, Path::Vertex];
        rows.extend(self.tangents.rows(
            names.map(|p| self.name(p)),
            self.exponent,
            self.least_norm,
            fixed_unavailable.as_deref(),
        ));
        rows
    }
}

/// The paths a tally compares.
#[derive(Clone, Copy)]
enum Path {
    CoreF32,
    CoreFixed,
    Compute,
    Vertex,
}
