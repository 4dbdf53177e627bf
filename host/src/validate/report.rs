//! What `skin validate` found: the error of each comparison, the picture comparison, the
//! thresholds they are held to, and the Markdown table.

use std::fmt::Write as _;

use skin_core::budget::{Budget, Layout};

use crate::oracle::PosedPrimitive64;
use crate::picture::Picture;

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

    pub(super) fn merge(&mut self, other: Errors) {
        self.max = self.max.max(other.max);
        self.sum += other.sum;
        self.count += other.count;
    }

    pub(super) fn add(&mut self, e: f64) {
        let e = finite_or_inf(e);
        self.max = self.max.max(e);
        self.sum += e;
        self.count += 1;
    }
}

/// An error with NaN counted as infinitely wrong.
pub(super) fn finite_or_inf(e: f64) -> f64 {
    if e.is_nan() {
        f64::INFINITY
    } else {
        e
    }
}

/// One row of the table: a path against a reference, and its limit (model units).
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The path, e.g. `gpu vertex`.
    pub path: &'static str,
    /// What it is compared with, e.g. `f64`.
    pub against: &'static str,
    /// `true` for unit vectors (normals, tangents: no units), `false` for positions.
    pub normals: bool,
    /// The errors.
    pub errors: Errors,
    /// The largest error allowed.
    pub limit: f64,
    /// Why the path cannot run on this model (the fixed lane when a value is beyond its
    /// range): its errors are then empty, and the row is reported but does not fail.
    pub unavailable: Option<String>,
}

impl Row {
    /// Whether the errors keep within the limit (a path that cannot run fails nothing).
    pub fn passes(&self) -> bool {
        self.unavailable.is_some() || self.errors.max <= self.limit
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
    /// Whether the GPU drew the asset's quantised morph-target deltas
    /// ([`crate::bake::dequantised`]), the model's targets moving vertices.
    pub quantised_morphs: bool,
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
    /// The oracle's skinned primitives at that frame.
    pub pose: Vec<PosedPrimitive64>,
    /// The error of each vertex, model units, the primitives' vertices one after another.
    pub errors: Vec<f64>,
}

/// One validated frame: the rest pose or a clip at a time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Frame {
    /// `None`: the rest pose; else `(clip, seconds)`.
    pub anim: Option<(usize, f32)>,
}

/// The outcome of [`super::validate`].
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
    /// Those of them with glTF `TANGENT`s (compared in the `… tangents` rows; a model
    /// without any has no such rows).
    pub tangents: usize,
    /// The frames validated.
    pub frames: Vec<Frame>,
    /// The budget of the vertex paths.
    pub budget: Budget,
    /// Their palette layout.
    pub layout: Layout,
    /// Draw calls a frame takes on the vertex paths.
    pub draw_calls: usize,
    /// Draw calls a frame takes on the vertex paths under dual quaternion skinning (whose
    /// uniform holds `budget.capacity(Layout::DualQuat)` bones), when it was validated.
    pub dual_draw_calls: Option<usize>,
    /// The comparisons.
    pub rows: Vec<Row>,
    /// The pictures' size.
    pub size: (u16, u16),
    /// The picture comparison.
    pub pictures: Pictures,
    /// The picture comparison under dual quaternion skinning (the GPU's DQS against the CPU
    /// renderer playing the asset baked for DQS), or why it could not be made (a rig DQS
    /// cannot skin); `None` when DQS was not validated or no pictures were compared.
    pub dual_pictures: Option<Result<Pictures, String>>,
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
        let compared = [
            ("pictures", Some(&self.pictures)),
            (
                "dqs pictures",
                self.dual_pictures.as_ref().and_then(|d| d.as_ref().ok()),
            ),
        ];
        for (name, p) in compared {
            if let Some(p) = p.filter(|p| p.worst < self.pixel_limit) {
                out.push(format!(
                    "{name}: {:.2} % of pixels agree in {}, below {:.0} %",
                    100.0 * p.worst,
                    self.describe(p.worst_frame),
                    100.0 * self.pixel_limit
                ));
            }
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
        self.summary(&mut s, name);
        let _ = writeln!(
            s,
            "| path | against | max error | mean error | max / extent | mean / extent | limit / extent | |"
        );
        let _ = writeln!(s, "|---|---|---|---|---|---|---|---|");
        for r in &self.rows {
            let _ = writeln!(s, "{}", self.row(r));
        }
        self.pictures_line(&mut s, "", &Ok(self.pictures));
        if let Some(dual) = &self.dual_pictures {
            self.pictures_line(&mut s, " (dqs)", dual);
        }
        let failures = self.failures();
        if failures.is_empty() {
            let _ = writeln!(s, "Result: **pass**.");
        } else {
            let _ = writeln!(s, "Result: **FAIL**: {}.", failures.join("; "));
        }
        s
    }

    /// The line about one skinning method's pictures (`method`: how its name follows
    /// "Pictures"), or why they were not compared.
    fn pictures_line(&self, s: &mut String, method: &str, p: &Result<Pictures, String>) {
        match p {
            Err(why) => {
                let _ = writeln!(s, "\nPictures{method}: not compared: {why}.\n");
            }
            Ok(p) => {
                let _ = writeln!(
                    s,
                    "\nPictures{method} {}x{}, GPU vertex shader{} vs CPU rasteriser (f32), {} frames: at worst {} of {} pixels differ ({:.3} % equal, {}), mean {:.3} % equal, largest channel difference {} of 255; limit {:.0} % every frame.\n",
                    self.size.0,
                    self.size.1,
                    match p.quantised_morphs {
                        true => " (the asset's quantised morph deltas)",
                        false => "",
                    },
                    p.frames,
                    p.worst_differing,
                    p.total,
                    100.0 * p.worst,
                    self.describe(p.worst_frame),
                    100.0 * p.mean,
                    p.largest,
                    100.0 * self.pixel_limit
                );
            }
        }
    }

    /// The table's heading and the lines above the error table.
    fn summary(&self, s: &mut String, name: &str) {
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
            "- vertex-shader paths: budget {}, uniform palette of {} {} matrices, {} draw call(s) a frame",
            self.budget.name,
            self.budget.capacity(self.layout),
            self.layout.name(),
            self.draw_calls
        );
        let _ = match self.tangents {
            0 => writeln!(s, "- tangents: no primitive has `TANGENT` (no tangent rows)"),
            n => writeln!(
                s,
                "- tangents: {n} vertices with `TANGENT`, skinned like normals, `w` kept (rows `… tangents`)"
            ),
        };
        if let Some(calls) = self.dual_draw_calls {
            let _ = writeln!(
                s,
                "- dual quaternion skinning (rows `dqs …`): uniform palette of {} dual quaternions, {calls} draw call(s) a frame",
                self.budget.capacity(Layout::DualQuat),
            );
        }
        let _ = writeln!(s);
    }

    /// Row `r` of the error table, without its line break.
    fn row(&self, r: &Row) -> String {
        let verdict = if r.passes() { "ok" } else { "**FAIL**" };
        if let Some(why) = &r.unavailable {
            return format!(
                "| {} | {} | not available: {why} | | | | | |",
                r.path, r.against
            );
        }
        if r.errors.count == 0 {
            return format!(
                "| {} | {} | — | — | — | — | — | no {} |",
                r.path,
                r.against,
                if r.normals { "normals" } else { "vertices" }
            );
        }
        let rel = |v: f64| format!("{:.2e}", v / self.extent);
        let (max, mean, limit) = if r.normals {
            (
                "—".to_string(),
                "—".to_string(),
                format!("{:.2e} (unit vectors)", r.limit),
            )
        } else {
            (rel(r.errors.max), rel(r.errors.mean()), rel(r.limit))
        };
        format!(
            "| {} | {} | {:.2e} | {:.2e} | {max} | {mean} | {limit} | {verdict} |",
            r.path,
            r.against,
            r.errors.max,
            r.errors.mean()
        )
    }
}
