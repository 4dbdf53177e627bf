//! `skin validate`: core `f32`, core fixed point, GPU compute and GPU vertex shader measured
//! against the `f64` [`oracle`](crate::oracle) over frames of every clip, the GPU picture
//! compared with the CPU one, and the documented thresholds checked (`docs/VALIDATION.md`).
//!
//! A vertex's error is its largest coordinate difference (the ∞-norm), in model units and
//! as a fraction of the model's *extent*, the diagonal of the rest pose's bounding box. The
//! thresholds ([`Limits`]):
//!
//! | comparison | limit |
//! |---|---|
//! | core `f32`, GPU compute, GPU vertex vs the oracle; GPU vs core `f32` | 10⁻⁵ of the extent |
//! | core fixed vs the oracle | the lane's bound, 8.25·2⁻¹⁵ asset units plus 10⁻⁶ for the `I8F24` pose (`core/src/lane/mod.rs`), plus 10⁻⁵ of the extent |
//! | GPU normals vs the oracle's | 10⁻⁵ (unit vectors) |
//! | GPU picture vs CPU picture (`f32`) | at least 99 % of the pixels equal, every frame |
//!
//! The pictures' camera is the firmware's: it frames the skinned rest pose
//! ([`Cpu::rest_bounds`]), so that every model is in view whatever its bind positions.
//!
//! ```no_run
//! use skin_host::gpu::Reference;
//! use skin_host::validate::{validate, Options};
//! let rig = skin_host::import::from_path("CesiumMan.glb".as_ref())?;
//! let report = validate(&rig, &Reference::new()?, &Options::default(), |_, _| {})?;
//! print!("{}", report.table("CesiumMan.glb"));
//! assert!(report.failures().is_empty());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::hash_map::{Entry, HashMap};
use std::fmt::Write as _;

use skin_core::budget::{Budget, Layout};

use crate::error::PoseError;
use crate::gpu::{Drawn, GpuError, Model, Reference, Skinned};
use crate::oracle::{self, Block64};
use crate::picture::{Difference, Picture};
use crate::pose::{self, Arith, Block};
use crate::render::{self, Cpu, RenderError};
use crate::rig::Rig;

/// What to validate.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// Frames per clip, spread evenly over one loop (`duration · k / frames`).
    pub frames: u32,
    /// The clips; `None`: every clip. The rest pose is always one more frame.
    pub clips: Option<Vec<usize>>,
    /// The budget of the vertex-shader paths (palette splits as it requires).
    pub budget: Budget,
    /// The palette layout of the vertex-shader paths (3×4 or 4×4).
    pub layout: Layout,
    /// The pictures' size in pixels.
    pub size: (u16, u16),
}

impl Default for Options {
    /// 8 frames of every clip, `vs_2_0` with 3×4 matrices, 240×240 pictures.
    fn default() -> Self {
        Self {
            frames: 8,
            clips: None,
            budget: Budget::VS_2_0,
            layout: Layout::Affine3x4,
            size: (240, 240),
        }
    }
}

/// The thresholds (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Limits {
    /// `f32` paths vs the oracle and GPU vs core `f32`, as a fraction of the extent.
    pub f32_extent: f64,
    /// Fixed point vs the oracle, in asset units (plus `f32_extent`).
    pub fixed_asset_units: f64,
    /// GPU normals vs the oracle's.
    pub normal: f64,
    /// The least share of equal pixels in any frame.
    pub pixels: f64,
}

/// The documented thresholds.
pub const LIMITS: Limits = Limits {
    f32_extent: 1e-5,
    fixed_asset_units: 8.25 / 32768.0 + 1e-6,
    normal: 1e-5,
    pixels: 0.99,
};

/// Largest and mean error of one comparison over every vertex of every frame.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Errors {
    /// The largest error.
    pub max: f64,
    /// The sum of errors.
    pub sum: f64,
    /// Vertices compared.
    pub count: usize,
}

impl Errors {
    /// The mean error (0 with nothing compared).
    pub fn mean(&self) -> f64 {
        if self.count == 0 {
            0.0
        } else {
            self.sum / self.count as f64
        }
    }

    fn merge(&mut self, other: Errors) {
        self.max = self.max.max(other.max);
        self.sum += other.sum;
        self.count += other.count;
    }

    fn add(&mut self, e: f64) {
        let e = finite_or_inf(e);
        self.max = self.max.max(e);
        self.sum += e;
        self.count += 1;
    }
}

/// One row of the table: a path against a reference, and its limit (model units).
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The path, e.g. `gpu vertex`.
    pub path: &'static str,
    /// What it is compared with, e.g. `f64`.
    pub against: &'static str,
    /// `true` for normals (unit vectors, no units), `false` for positions.
    pub normals: bool,
    /// The errors.
    pub errors: Errors,
    /// The largest error allowed.
    pub limit: f64,
}

impl Row {
    /// Whether the errors keep within the limit.
    pub fn passes(&self) -> bool {
        self.errors.max <= self.limit
    }
}

/// How the GPU and CPU pictures of every frame compare.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pictures {
    /// Frames compared.
    pub frames: usize,
    /// The least share of equal pixels of any frame.
    pub worst: f64,
    /// The (last) frame with the least (its index in the validated frames).
    pub worst_frame: usize,
    /// Pixels that differ in that frame.
    pub worst_differing: usize,
    /// Pixels in a picture.
    pub total: usize,
    /// The mean share of equal pixels.
    pub mean: f64,
    /// The largest channel difference of any pixel of any frame, in 8-bit levels.
    pub largest: u8,
}

/// One comparison's error at every vertex of the frame where it is largest, with the
/// oracle's pose of that frame to draw it on.
#[derive(Clone, Debug, PartialEq)]
pub struct Heat {
    /// The path, e.g. `core fixed`.
    pub path: &'static str,
    /// What it is compared with, e.g. `f64`.
    pub against: &'static str,
    /// The frame (its index in the validated frames).
    pub frame: usize,
    /// The oracle's skinned blocks at that frame.
    pub pose: Vec<Block64>,
    /// The error of each vertex, model units, the blocks' vertices one after another.
    pub errors: Vec<f64>,
}

/// One validated frame: the rest pose or a clip at a time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Frame {
    /// `None`: the rest pose; else `(clip, seconds)`.
    pub anim: Option<(usize, f32)>,
}

/// The outcome of [`validate`].
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// The GPU adapter.
    pub adapter: String,
    /// The extent: the rest pose's bounding-box diagonal, model units.
    pub extent: f64,
    /// The fixed-point asset unit `2^k` model units.
    pub unit_exponent: i32,
    /// Vertices of the model (sum over mesh nodes and primitives).
    pub vertices: usize,
    /// The frames validated.
    pub frames: Vec<Frame>,
    /// The budget of the vertex paths.
    pub budget: Budget,
    /// Their palette layout.
    pub layout: Layout,
    /// Draw calls a frame takes on the vertex paths.
    pub draw_calls: usize,
    /// The comparisons.
    pub rows: Vec<Row>,
    /// The pictures' size.
    pub size: (u16, u16),
    /// The picture comparison.
    pub pictures: Pictures,
    /// The picture threshold.
    pub pixel_limit: f64,
    /// The GPU and CPU pictures of the frame where they differ most.
    pub worst: Option<(Picture, Picture)>,
    /// Split vertices the vertex path did not draw (must be none).
    pub undrawn: usize,
    /// Per row of [`Self::rows`], its largest error in each frame (the error over time).
    pub over_time: Vec<Vec<f64>>,
    /// Per vertex, core fixed vs `f64` and GPU compute vs core `f32` at their worst frames.
    pub heat: Vec<Heat>,
}

impl Report {
    /// What exceeded its threshold, one line each; empty when validation passed.
    pub fn failures(&self) -> Vec<String> {
        let mut out: Vec<String> = self
            .rows
            .iter()
            .filter(|r| !r.passes())
            .map(|r| {
                format!(
                    "{} vs {}: max error {:.3e} exceeds {:.3e}",
                    r.path, r.against, r.errors.max, r.limit
                )
            })
            .collect();
        if self.pictures.worst < self.pixel_limit {
            out.push(format!(
                "pictures: {:.2} % of pixels agree in {}, below {:.0} %",
                100.0 * self.pictures.worst,
                self.describe(self.pictures.worst_frame),
                100.0 * self.pixel_limit
            ));
        }
        if self.undrawn > 0 {
            out.push(format!("gpu vertex: {} vertices not drawn", self.undrawn));
        }
        out
    }

    /// Frame `i` in words: `the rest pose` or `clip 2 at 0.5 s`.
    pub fn describe(&self, i: usize) -> String {
        match self.frames.get(i).and_then(|f| f.anim) {
            Some((c, t)) => format!("clip {c} at {t} s"),
            None => "the rest pose".into(),
        }
    }

    /// The report as Markdown: a summary, the error table, the picture comparison and the
    /// verdict.
    pub fn table(&self, name: &str) -> String {
        let mut s = String::new();
        let clips = self.frames.iter().filter_map(|f| f.anim.map(|a| a.0));
        let mut seen: Vec<usize> = clips.collect();
        seen.dedup();
        let per_clip = if seen.is_empty() {
            0
        } else {
            (self.frames.len() - 1) / seen.len()
        };
        let _ = writeln!(s, "### {name}\n");
        let _ = writeln!(s, "- adapter: {}", self.adapter);
        let _ = writeln!(
            s,
            "- {} vertices; frames: the rest pose and {} clip(s) x {per_clip} times; extent (rest-pose bounding-box diagonal) {:.6} model units; fixed-point asset unit 2^{} model units",
            self.vertices,
            seen.len(),
            self.extent,
            self.unit_exponent
        );
        let _ = writeln!(
            s,
            "- vertex-shader paths: budget {}, uniform palette of {} {} matrices, {} draw call(s) a frame\n",
            self.budget.name,
            self.budget.capacity(self.layout),
            self.layout.name(),
            self.draw_calls
        );
        let _ = writeln!(
            s,
            "| path | against | max error | mean error | max / extent | mean / extent | limit / extent | |"
        );
        let _ = writeln!(s, "|---|---|---|---|---|---|---|---|");
        let rel = |v: f64| format!("{:.2e}", v / self.extent);
        for r in &self.rows {
            let verdict = if r.passes() { "ok" } else { "**FAIL**" };
            if r.errors.count == 0 {
                let _ = writeln!(
                    s,
                    "| {} | {} | — | — | — | — | — | no {} |",
                    r.path,
                    r.against,
                    if r.normals { "normals" } else { "vertices" }
                );
                continue;
            }
            let (max, mean, limit) = if r.normals {
                (
                    "—".to_string(),
                    "—".to_string(),
                    format!("{:.0e} (unit vectors)", r.limit),
                )
            } else {
                (rel(r.errors.max), rel(r.errors.mean()), rel(r.limit))
            };
            let _ = writeln!(
                s,
                "| {} | {} | {:.2e} | {:.2e} | {max} | {mean} | {limit} | {verdict} |",
                r.path,
                r.against,
                r.errors.max,
                r.errors.mean()
            );
        }
        let p = &self.pictures;
        let _ = writeln!(
            s,
            "\nPictures {}x{}, GPU vertex shader vs CPU rasteriser (f32), {} frames: at worst {} of {} pixels differ ({:.3} % equal, {}), mean {:.3} % equal, largest channel difference {} of 255; limit {:.0} % every frame.\n",
            self.size.0,
            self.size.1,
            p.frames,
            p.worst_differing,
            p.total,
            100.0 * p.worst,
            self.describe(p.worst_frame),
            100.0 * p.mean,
            p.largest,
            100.0 * self.pixel_limit
        );
        let failures = self.failures();
        if failures.is_empty() {
            let _ = writeln!(s, "Result: **pass**.");
        } else {
            let _ = writeln!(s, "Result: **FAIL**: {}.", failures.join("; "));
        }
        s
    }
}

/// Why validation could not run (as opposed to a threshold exceeded, which is a
/// [`Report`] whose [`Report::failures`] are not empty).
#[derive(Debug, thiserror::Error)]
pub enum ValidateError {
    /// Posing failed.
    #[error(transparent)]
    Pose(#[from] PoseError),
    /// The GPU reference failed.
    #[error(transparent)]
    Gpu(#[from] GpuError),
    /// A renderer failed.
    #[error(transparent)]
    Render(#[from] RenderError),
    /// Nothing to validate.
    #[error("{0}")]
    Nothing(String),
}

/// The frames `options` asks for: the rest pose, then `frames` times of each clip.
pub fn frames(rig: &Rig, options: &Options) -> Vec<Frame> {
    let clips: Vec<usize> = match &options.clips {
        Some(c) => c.clone(),
        None => (0..rig.clips.len()).collect(),
    };
    let mut out = vec![Frame { anim: None }];
    for c in clips {
        let d = render::duration(rig, c);
        for k in 0..options.frames {
            out.push(Frame {
                anim: Some((c, d * k as f32 / options.frames as f32)),
            });
        }
    }
    out
}

/// An error with NaN counted as infinitely wrong.
fn finite_or_inf(e: f64) -> f64 {
    if e.is_nan() {
        f64::INFINITY
    } else {
        e
    }
}

/// Largest coordinate difference.
fn error3(a: [f64; 3], b: [f64; 3]) -> f64 {
    (0..3).map(|i| (a[i] - b[i]).abs()).fold(0.0, f64::max)
}

fn f64s(p: &[f32; 3]) -> [f64; 3] {
    p.map(f64::from)
}

/// The accumulators of every comparison.
#[derive(Default)]
struct Tally {
    core_f32: Errors,
    core_fixed: Errors,
    compute: Errors,
    vertex: Errors,
    compute_core: Errors,
    vertex_core: Errors,
    compute_normals: Errors,
    vertex_normals: Errors,
    undrawn: usize,
    /// This frame's core fixed vs `f64` error of each vertex.
    fixed_vertices: Vec<f64>,
    /// This frame's GPU compute vs core `f32` error of each vertex.
    compute_core_vertices: Vec<f64>,
}

/// Validate `rig` on `gpu` as `options` say; `on_frame` is called after each frame (for a
/// progress bar), with the frames done and the total.
pub fn validate(
    rig: &Rig,
    gpu: &Reference,
    options: &Options,
    mut on_frame: impl FnMut(usize, usize),
) -> Result<Report, ValidateError> {
    if options.frames == 0 {
        return Err(ValidateError::Nothing("--frames must be at least 1".into()));
    }
    if let Some(&c) = options
        .clips
        .iter()
        .flatten()
        .find(|&&c| c >= rig.clips.len())
    {
        return Err(PoseError::NoAnimation(c.to_string(), rig.clips.len()).into());
    }
    let model = Model::new(rig, options.budget, options.layout)?;
    if model.blocks.is_empty() {
        return Err(ValidateError::Nothing(
            "the model has no mesh to validate".into(),
        ));
    }
    let rest = oracle::pose(rig, None).unwrap_or_default();
    let extent = oracle::extent(&rest);
    let k = pose::asset_unit(rig);
    let frames = frames(rig, options);
    // The firmware's camera: the box of the f32 asset skinned at rest (every clip's asset
    // has the same rest pose).
    let framed =
        Cpu::new(rig, None, Arith::F32, Some(options.budget))?.rest_bounds(options.size)?;
    let mut tally = Tally::default();
    let mut over_time: Vec<Vec<f64>> = Vec::new();
    let mut heat: Vec<Heat> = Vec::new();
    let mut diffs: Vec<Difference> = Vec::with_capacity(frames.len());
    let mut worst: Option<(Picture, Picture)> = None;
    let mut cpus: HashMap<Option<usize>, Cpu> = HashMap::new();
    for (i, frame) in frames.iter().enumerate() {
        let want = oracle::pose(rig, frame.anim.map(|(c, t)| (c, f64::from(t))))
            .ok_or_else(|| PoseError::NoAnimation(String::new(), rig.clips.len()))?;
        let core_f32 = pose::pose(rig, frame.anim, Arith::F32)?;
        let core_fixed = pose::pose(rig, frame.anim, Arith::Fixed)?;
        let mut now = Tally::default();
        now.positions(&core_f32, &core_fixed, &want);
        let palettes = model.palettes(rig, frame.anim)?;
        for (b, block) in model.blocks.iter().enumerate() {
            let compute = gpu.skin_compute(&block.whole, &palettes[b])?;
            let vertex = gpu.skin_vertex(
                &block.parts.mesh,
                &palettes[b],
                &block.parts.draws,
                model.budget,
                model.layout,
            )?;
            now.gpu(
                &compute,
                &vertex,
                &block.parts.origin,
                &core_f32[b].positions,
                &want[b],
            );
        }
        let rows = now.rows(extent, k);
        over_time.resize(rows.len(), Vec::with_capacity(frames.len()));
        for (series, row) in over_time.iter_mut().zip(&rows) {
            series.push(row.errors.max);
        }
        now.keep_worst(&mut heat, i, &want);
        tally.merge(&now);
        let clip = frame.anim.map(|(c, _)| c);
        let cpu = match cpus.entry(clip) {
            Entry::Occupied(e) => e.into_mut(),
            Entry::Vacant(e) => e.insert(Cpu::new(rig, clip, Arith::F32, Some(options.budget))?),
        };
        let t = frame.anim.map_or(0.0, |(_, t)| t);
        let cpu_picture = cpu.render(t, options.size)?;
        let gpu_picture = render::gpu(gpu, rig, &model, frame.anim, &framed, options.size)?;
        let diff = gpu_picture.difference(&cpu_picture).ok_or_else(|| {
            ValidateError::Nothing("the GPU and CPU pictures differ in size".into())
        })?;
        // Ties go to the later frame, so that a clean run shows an animated one.
        if diffs.iter().all(|d| d.differing <= diff.differing) {
            worst = Some((gpu_picture, cpu_picture));
        }
        diffs.push(diff);
        on_frame(i + 1, frames.len());
    }
    Ok(Report {
        adapter: gpu.adapter(),
        extent,
        unit_exponent: k,
        vertices: rest.iter().map(|b| b.positions.len()).sum(),
        budget: options.budget,
        layout: options.layout,
        draw_calls: model.draw_calls(),
        rows: tally.rows(extent, k),
        size: options.size,
        pictures: summarise(&diffs),
        pixel_limit: LIMITS.pixels,
        worst,
        undrawn: tally.undrawn,
        frames,
        over_time,
        heat,
    })
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

impl Tally {
    /// Add one frame's tally.
    fn merge(&mut self, frame: &Tally) {
        self.core_f32.merge(frame.core_f32);
        self.core_fixed.merge(frame.core_fixed);
        self.compute.merge(frame.compute);
        self.vertex.merge(frame.vertex);
        self.compute_core.merge(frame.compute_core);
        self.vertex_core.merge(frame.vertex_core);
        self.compute_normals.merge(frame.compute_normals);
        self.vertex_normals.merge(frame.vertex_normals);
        self.undrawn += frame.undrawn;
    }

    /// Keep this frame's (`frame`, posed as `want`) per-vertex errors in `heat` where they
    /// are the largest so far (ties go to the later frame, as the pictures' do).
    fn keep_worst(&self, heat: &mut Vec<Heat>, frame: usize, want: &[Block64]) {
        let now = [
            ("core fixed", "f64", &self.fixed_vertices),
            ("gpu compute", "core f32", &self.compute_core_vertices),
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

    /// Core `f32` and fixed positions against the oracle's.
    fn positions(&mut self, f32s: &[Block], fixed: &[Block], want: &[Block64]) {
        for ((a, b), w) in f32s.iter().zip(fixed).zip(want) {
            for ((pa, pb), pw) in a.positions.iter().zip(&b.positions).zip(&w.positions) {
                self.core_f32.add(error3(f64s(pa), *pw));
                let e = finite_or_inf(error3(f64s(pb), *pw));
                self.core_fixed.add(e);
                self.fixed_vertices.push(e);
            }
        }
    }

    /// One block's GPU results: `compute` in accessor order, `vertex` over the split mesh
    /// whose vertex `v` is the primitive's `origin[v]`; against core `f32` positions `core`
    /// and the oracle `want`.
    fn gpu(
        &mut self,
        compute: &Skinned,
        vertex: &Drawn,
        origin: &[u32],
        core: &[[f32; 3]],
        want: &Block64,
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

    /// The table's rows with their limits (model units; `extent` and asset unit `2^k`).
    fn rows(&self, extent: f64, k: i32) -> Vec<Row> {
        let f32_limit = LIMITS.f32_extent * extent;
        let fixed_limit = LIMITS.fixed_asset_units * 2f64.powi(k) + f32_limit;
        let row = |path, against, normals, errors: Errors, limit| Row {
            path,
            against,
            normals,
            errors,
            limit,
        };
        vec![
            row("core f32", "f64", false, self.core_f32, f32_limit),
            row("core fixed", "f64", false, self.core_fixed, fixed_limit),
            row("gpu compute", "f64", false, self.compute, f32_limit),
            row("gpu vertex", "f64", false, self.vertex, f32_limit),
            row(
                "gpu compute",
                "core f32",
                false,
                self.compute_core,
                f32_limit,
            ),
            row("gpu vertex", "core f32", false, self.vertex_core, f32_limit),
            row(
                "gpu compute",
                "f64 normals",
                true,
                self.compute_normals,
                LIMITS.normal,
            ),
            row(
                "gpu vertex",
                "f64 normals",
                true,
                self.vertex_normals,
                LIMITS.normal,
            ),
        ]
    }
}
