//! One struct of arguments and one `run` per subcommand (their help texts are on
//! [`super::Command`]'s variants).

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};
use embedded_graphics::pixelcolor::{Rgb565, RgbColor};

use super::args::{
    preset, save, ClipArgs, ClipsArgs, LaneArg, LaneArgs, LayoutArg, ModelArg, NormalsArg,
    PictureArgs, SkinningArg, WeightsArg,
};
use super::correctives::CorrectivesArgs;
use super::error::CliError;
use super::layers::LayerArgs;
use crate::animation;
use crate::bake::{self, bake_with, BakeError};
use crate::board::Board;
use crate::gpu::Reference;
use crate::html;
use crate::lattice::LatticeFile;
use crate::output::{self, OutputError};
use crate::pose::{joint_worlds, layered_pose, pose_weighted, LaneKind, Skinning};
use crate::render::{Cpu, RenderError};
use crate::rig::Rig;
use crate::validate::{self, validate, Report};
use skin_core::asset::AssetError;

/// The arguments of `skin inspect`.
#[derive(Debug, Args)]
pub struct InspectCommand {
    #[command(flatten)]
    model: ModelArg,
}

impl InspectCommand {
    /// Print what the model holds.
    pub fn run(self, out: &mut dyn Write, warn: &mut dyn Write) -> Result<(), CliError> {
        let rig = self.model.load(warn)?;
        write!(
            out,
            "{}",
            crate::inspect::inspect(&rig, &self.model.file_name())
        )?;
        Ok(())
    }
}

/// The arguments of `skin budget`.
#[derive(Debug, Args)]
pub struct BudgetCommand {
    #[command(flatten)]
    model: ModelArg,
    /// Only these budget presets (repeatable), e.g. vs_1_1, gles2; default: all presets.
    #[arg(long = "budget", value_name = "NAME")]
    budgets: Vec<String>,
    /// Instead of the budget table: whether the model, baked as the firmware embeds it,
    /// plays on this board (microbit, mps2-an385, mps2-an385-m0, mps2-an386, pico), limit
    /// by limit; exits 1 when it does not.
    #[arg(long, value_name = "BOARD")]
    board: Option<String>,
    /// The lane baked for --board.
    #[arg(long = "arith", value_name = "LANE", value_enum, default_value_t = LaneArg::Fixed, requires = "board")]
    lane: LaneArg,
    /// The skinning method of the build for --board (`scripts/firmware.sh --skinning`):
    /// its palette's RAM counts (a stretched DQS palette is larger than a matrices one).
    #[arg(long, value_name = "METHOD", value_enum, default_value_t = SkinningArg::Lbs, requires = "board")]
    skinning: SkinningArg,
}

impl BudgetCommand {
    /// Print the table (or the board's report).
    pub fn run(self, out: &mut dyn Write, warn: &mut dyn Write) -> Result<(), CliError> {
        let rig = self.model.load(warn)?;
        if let Some(name) = &self.board {
            let board = Board::named(name).ok_or_else(|| {
                CliError::Usage(format!(
                    "unknown board {name:?} (known: {})",
                    Board::names()
                ))
            })?;
            let lane = LaneKind::from(self.lane);
            let fit = crate::board::fit_skinning(&rig, board, lane, self.skinning.into());
            write!(out, "{}", fit.table())?;
            if !fit.fits() {
                return Err(CliError::DoesNotFit {
                    path: self.model.path(),
                    board: board.name,
                    reasons: fit.failures().join("; "),
                });
            }
            return Ok(());
        }
        let presets = crate::inspect::budgets(&self.budgets).map_err(CliError::Usage)?;
        write!(out, "{}", crate::inspect::budget_table(&rig, &presets))?;
        Ok(())
    }
}

/// Output formats of `pose`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// One JSON object on stdout: the skinned positions per (node, mesh, primitive) in
    /// "blocks", and every joint's world matrix in "joints" ({"node", "name", "world": 16
    /// numbers, column-major as glTF}).
    Json,
}

/// The arguments of `skin pose`.
#[derive(Debug, Args)]
pub struct PoseCommand {
    #[command(flatten)]
    model: ModelArg,
    #[command(flatten)]
    clip: ClipArgs,
    #[command(flatten)]
    lane: LaneArgs,
    #[command(flatten)]
    weights: WeightsArg,
    #[command(flatten)]
    correctives: CorrectivesArgs,
    /// The skinning method: linear blend (lbs) or dual quaternion (dqs) skinning.
    #[arg(long, value_name = "METHOD", value_enum, default_value_t = SkinningArg::Lbs)]
    skinning: SkinningArg,
    #[command(flatten)]
    layers: LayerArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Json)]
    format: Format,
}

impl PoseCommand {
    /// Print the skinned positions.
    pub fn run(self, out: &mut dyn Write, warn: &mut dyn Write) -> Result<(), CliError> {
        let rig = self.model.load(warn)?;
        let frame = self
            .clip
            .frame(&rig)
            .map_err(|e| self.model.pose_error(e))?;
        let lane = LaneKind::from(self.lane.lane);
        let mut weights = self.weights.at(&rig, frame)?;
        self.correctives
            .apply(&rig, frame, lane, &mut weights, warn)?;
        let skinning = Skinning::from(self.skinning);
        let layers = self.layers.layers(&rig)?;
        let (posed, joints, steps) = if layers.is_empty() {
            pose_weighted(&rig, frame, lane, skinning, &weights)
                .and_then(|posed| Ok((posed, joint_worlds(&rig, frame, lane)?, None)))
        } else {
            let time = self.clip.time;
            layered_pose(&rig, frame, time, &layers, lane, skinning, &weights)
        }
        .map_err(|e| self.model.pose_error(e))?;
        let joints: Vec<serde_json::Value> = joints
            .into_iter()
            .map(|j| serde_json::json!({"node": j.node, "name": j.name, "world": j.world}))
            .collect();
        let Format::Json = self.format;
        let tangents = crate::pose::tangent::tangents(&rig, frame, lane, skinning)
            .map_err(|e| self.model.pose_error(e))?;
        let blocks: Vec<serde_json::Value> = posed
            .iter()
            .map(|p| {
                let mut block = serde_json::json!({
                    "node": p.node,
                    "mesh": p.mesh,
                    "primitive": p.primitive,
                    "count": p.positions.len(),
                    "positions": p.positions.iter().flatten().collect::<Vec<_>>(),
                });
                let same = |t: &&crate::pose::tangent::PosedTangents| {
                    (t.node, t.mesh, t.primitive) == (p.node, p.mesh, p.primitive)
                };
                if let Some(t) = tangents.iter().find(same) {
                    block["tangents"] =
                        serde_json::json!(t.tangents.iter().flatten().collect::<Vec<_>>());
                }
                block
            })
            .collect();
        let doc = serde_json::json!({
            "model": self.model.file_name(),
            "animation": frame.map(|(c, _)| c),
            "time": self.clip.time,
            "arith": lane.name(),
            "skinning": skinning.name(),
            "frame": "glTF world (Y-up)",
            "blocks": blocks,
            "joints": joints,
        });
        let mut doc = doc;
        if let Some(steps) = steps {
            // The walk's feet: where each is in its stride, planted or swinging.
            let feet: Vec<serde_json::Value> = ["left", "right"]
                .iter()
                .zip(steps)
                .map(|(side, s)| {
                    serde_json::json!({"foot": side, "contact": s.contact, "phase": s.phase})
                })
                .collect();
            doc["walk"] = serde_json::json!({ "feet": feet });
        }
        serde_json::to_writer(&mut *out, &doc).map_err(std::io::Error::from)?;
        writeln!(out)?;
        Ok(())
    }
}

/// The arguments of `skin bake`.
#[derive(Debug, Args)]
pub struct BakeCommand {
    #[command(flatten)]
    model: ModelArg,
    /// The asset file to write.
    #[arg(short, long, value_name = "FILE")]
    output: PathBuf,
    /// Split palettes to fit this budget preset (3x4 matrices), e.g. vs_1_1, gles2;
    /// default: only the format's 256 bones a part.
    #[arg(long, value_name = "NAME")]
    budget: Option<String>,
    #[command(flatten)]
    lane: LaneArgs,
    #[command(flatten)]
    clips: ClipsArgs,
    /// The skinning method the asset is baked for (and records): linear blend (lbs) or dual
    /// quaternion (dqs) skinning, whose palettes hold the budget's bones as dual quaternions.
    #[arg(long, value_name = "METHOD", value_enum, default_value_t = SkinningArg::Lbs)]
    skinning: SkinningArg,
    /// Store corrective morph targets weighted by the pose (pose-space deformation): the
    /// RBF solved from the file is played by the asset player each frame.
    #[command(flatten)]
    correctives: CorrectivesArgs,
    /// Store a lattice free-form deformation applied after skinning, its control points
    /// keyed over the clip's time (a JSON file: box, degrees, keyed moves;
    /// docs/DEFORMERS.md).
    #[arg(long, value_name = "FILE")]
    lattice: Option<PathBuf>,
}

impl BakeCommand {
    /// Write the asset and a line about it.
    pub fn run(self, out: &mut dyn Write, warn: &mut dyn Write) -> Result<(), CliError> {
        let rig = self.model.load(warn)?;
        let budget = self.budget.as_deref().map(preset).transpose()?;
        let clips = self
            .clips
            .clips(&rig)
            .map_err(|e| self.model.pose_error(e))?;
        let lane = LaneKind::from(self.lane.lane);
        let skinning = Skinning::from(self.skinning);
        let options = bake::Options {
            budget,
            lane,
            clips,
            skinning,
        };
        let correctives = self.correctives.solved(&rig, warn)?;
        let lattice = self.lattice.as_deref().map(read_lattice).transpose()?;
        let extras = bake::Extras {
            correctives: correctives.as_ref(),
            lattice: lattice.as_ref(),
        };
        let baked = bake_with(&rig, &options, extras).map_err(|source| CliError::Bake {
            path: self.model.path(),
            source,
        })?;
        let output = &self.output;
        std::fs::write(output, &baked.bytes)
            .map_err(|e| CliError::Usage(format!("cannot write {}: {e}", output.display())))?;
        writeln!(
            out,
            "{}: {} bytes, {}, {}, asset unit 2^{} model units, {} bones, {} joints, {} parts, {} vertices ({} duplicated by splitting), {} clips{}{}{}{}{}",
            output.display(),
            baked.bytes.len(),
            lane.name(),
            match baked.stretched {
                true => "dqs with stretches (joints with scale or shear)",
                false => skinning.name(),
            },
            baked.unit_exponent,
            baked.bones.len(),
            baked.joints,
            baked.parts.len(),
            baked.parts.iter().map(|p| p.vertices.len()).sum::<usize>(),
            baked.duplicated,
            baked.clips.len(),
            if baked.normals { ", normals" } else { "" },
            match baked.tangent_bytes {
                0 => String::new(),
                n => format!(", {n} bytes of tangents"),
            },
            match baked.morph_bytes {
                0 => String::new(),
                n => format!(
                    ", {n} bytes of morph targets ({} moved vertices, {} entries)",
                    baked.morph_records.0, baked.morph_records.1
                ),
            },
            match baked.correctives {
                0 => String::new(),
                n => format!(", {n} corrective RBFs"),
            },
            if baked.lattice { ", a lattice" } else { "" },
        )?;
        Ok(())
    }
}

/// The lattice file at `file` (`--lattice`), or one line naming it.
fn read_lattice(file: &Path) -> Result<LatticeFile, CliError> {
    let text = std::fs::read_to_string(file)
        .map_err(|e| CliError::Usage(format!("cannot read {}: {e}", file.display())))?;
    LatticeFile::parse(&text).map_err(|e| CliError::Usage(format!("{}: {e}", file.display())))
}

/// Who draws `render`'s picture.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum BackendArg {
    /// The wgpu reference: vertex-shader skinning, offscreen render target.
    Gpu,
    /// skin-core's software rasteriser playing the baked model (the firmware's frame).
    Cpu,
    /// CPU (f32) | GPU | their difference (each channel amplified 8 times), side by side.
    Compare,
    /// The GPU's linear blend skinning | its dual quaternion skinning, side by side.
    LbsDqs,
}

/// The arguments of `skin render`.
#[derive(Debug, Args)]
pub struct RenderCommand {
    #[command(flatten)]
    model: ModelArg,
    #[command(flatten)]
    clip: ClipArgs,
    /// Who draws.
    #[arg(long, value_enum, default_value_t = BackendArg::Gpu)]
    backend: BackendArg,
    #[command(flatten)]
    lane: LaneArgs,
    /// The skinning method: linear blend (lbs) or dual quaternion (dqs) skinning; the CPU
    /// renderer plays the model baked for it (as `skin bake --skinning`).
    #[arg(long, value_name = "METHOD", value_enum, default_value_t = SkinningArg::Lbs)]
    skinning: SkinningArg,
    /// Morph-target weights for every mesh with targets, in place of the file's and the
    /// clip's (every backend: the CPU renderer plays the asset baked with them).
    #[command(flatten)]
    weights: WeightsArg,
    /// (One picture) corrective targets weighted by the frame's pose, held like --weights.
    #[command(flatten)]
    correctives: CorrectivesArgs,
    #[command(flatten)]
    picture: PictureArgs,
    /// Budget preset the palettes are split for (the GPU's uniform palette, the CPU's
    /// baked parts); vs_1_1 is what scripts/firmware.sh bakes with.
    #[arg(long, default_value = "vs_1_1", value_name = "NAME")]
    budget: String,
    /// Frames a second of an animation (0.1..=50).
    #[arg(long, default_value_t = 30.0, value_name = "N")]
    fps: f32,
    /// The file to write: a PNG picture, or a .gif or .apng animation of the clip.
    #[arg(short, long, value_name = "FRAME.png|CLIP.gif")]
    output: PathBuf,
    /// Move the skinned vertices by a lattice free-form deformation (a JSON file: box,
    /// degrees, keyed control-point moves; docs/DEFORMERS.md). CPU backend, one picture.
    #[arg(long, value_name = "FILE")]
    lattice: Option<PathBuf>,
    #[command(flatten)]
    layers: LayerArgs,
}

impl RenderCommand {
    /// Write the picture (or the animation) and a line about it.
    pub fn run(self, out: &mut dyn Write, warn: &mut dyn Write) -> Result<(), CliError> {
        let rig = self.weights.held(self.model.load(warn)?)?;
        let budget = preset(&self.budget)?;
        let frame = self
            .clip
            .frame(&rig)
            .map_err(|e| self.model.pose_error(e))?;
        let lane = LaneKind::from(self.lane.lane);
        let animation = animation::Format::of(&self.output).is_some();
        // The CPU renderer plays the correctives from the asset, weighed each frame (also
        // through an animation); the GPU holds one frame's weights.
        let played = self.backend == BackendArg::Cpu;
        let (rig, correctives) = match played {
            true => {
                let c = self.correctives.solved(&rig, warn)?;
                (rig, c)
            }
            false => (
                self.correctives.held(rig, frame, lane, animation, warn)?,
                None,
            ),
        };
        let layers = self.layers.layers(&rig)?;
        let lattice = self.lattice_file(!layers.is_empty())?;
        if self.backend != BackendArg::Cpu && lane != LaneKind::F32 {
            return Err(CliError::Usage(
                "--arith fixed needs --backend cpu (the GPU renders in f32)".into(),
            ));
        }
        let skinning = Skinning::from(self.skinning);
        let backend = match (self.backend, skinning) {
            (BackendArg::LbsDqs, Skinning::Dqs) => {
                return Err(CliError::Usage(
                    "--backend lbs-dqs draws both methods: leave out --skinning".into(),
                ))
            }
            (BackendArg::Cpu, _) => animation::Backend::Cpu(lane, skinning),
            (BackendArg::Gpu, _) => animation::Backend::Gpu(skinning),
            (BackendArg::Compare, _) => animation::Backend::Compare(skinning),
            (BackendArg::LbsDqs, _) => animation::Backend::LbsDqs,
        };
        let render_err = |source| CliError::Render {
            path: self.model.path(),
            source,
        };
        let clip = frame.map(|(c, _)| c);
        let format = animation::Format::of(&self.output);
        if format.is_some() && clip.is_none() && layers.blend.is_empty() && layers.walk.is_none() {
            return Err(CliError::Usage(format!(
                "{}: an animation plays a clip (or a --blend of clips, or a --walk): give --anim",
                self.output.display()
            )));
        }
        let extras = bake::Extras {
            correctives: correctives.as_ref(),
            lattice: lattice.as_ref(),
        };
        let renderer = animation::Renderer::with_extras(
            &rig,
            clip,
            backend,
            budget,
            self.picture.size,
            extras,
        )
        .map_err(|e| self.lattice_error(e).unwrap_or_else(render_err))?;
        let renderer = renderer.with_layers(layers);
        let what = match format {
            Some(format) => animate(&renderer, format, self.fps, &self.output)?,
            None => {
                let picture = renderer.frame(self.clip.time).map_err(render_err)?;
                let png = picture.png_bytes().map_err(|e| {
                    CliError::Usage(format!("cannot write {}: {e}", self.output.display()))
                })?;
                output::write_bytes(&self.output, &png)?;
                format!("{} picture", renderer.describe())
            }
        };
        let (w, h) = renderer.picture_size();
        writeln!(out, "{}: {w}x{h} {what}", self.output.display())?;
        dropped(warn, &self.model.path(), renderer.dropped_weight())
    }
}

impl RenderCommand {
    /// `--lattice FILE` read and parsed (`None` without): the CPU renderer bakes it into
    /// its asset, whose player applies it after skinning at each frame's time. The GPU
    /// reference and the animation layer (`layered`) do not take it.
    fn lattice_file(&self, layered: bool) -> Result<Option<LatticeFile>, CliError> {
        let Some(file) = &self.lattice else {
            return Ok(None);
        };
        if layered {
            return Err(CliError::Usage(
                "--lattice draws the clip as baked: leave out the animation layer's options".into(),
            ));
        }
        if self.backend != BackendArg::Cpu {
            return Err(CliError::Usage(
                "--lattice draws with --backend cpu (the GPU reference applies no lattice)".into(),
            ));
        }
        read_lattice(file).map(Some)
    }

    /// A lattice the asset cannot hold, as one line naming the file.
    fn lattice_error(&self, e: RenderError) -> Result<CliError, RenderError> {
        match (&self.lattice, e) {
            (Some(file), RenderError::Bake(BakeError::Asset(AssetError::Lattice(e)))) => {
                Ok(CliError::Usage(format!("{}: {e}", file.display())))
            }
            (_, e) => Err(e),
        }
    }
}

/// A warning that the CPU renderer dropped morph targets from a frame of `path` (the
/// player's budget, as the firmware's), when it did (`weight` > 0: the largest |weight|
/// dropped).
fn dropped(warn: &mut dyn Write, path: &str, weight: f32) -> Result<(), CliError> {
    if weight > 0.0 {
        writeln!(
            warn,
            "skin: warning: {path}: a frame has more than {} morph targets at a non-zero \
             weight; the asset's player (the CPU renderer, as the firmware) drew the {0} of \
             largest |weight| and dropped targets of |weight| up to {weight}",
            skin_core::morph::ACTIVE_TARGETS
        )?;
    }
    Ok(())
}

/// Render `renderer`'s clip at `fps` into `path` (whole or not at all), with a progress
/// bar on stderr when it is a terminal; what was written, in words.
fn animate(
    renderer: &animation::Renderer<'_>,
    format: animation::Format,
    fps: f32,
    path: &Path,
) -> Result<String, CliError> {
    let bar = indicatif::ProgressBar::new(0).with_message("frames");
    let mut frames = 0;
    output::write(path, |file| {
        frames = animation::render_clip(renderer, format, fps, file, |done, total| {
            bar.set_length(total as u64);
            bar.set_position(done as u64);
        })
        .map_err(|e| OutputError::Content(e.to_string()))?;
        Ok(())
    })?;
    bar.finish_and_clear();
    Ok(format!(
        "{} animation, {frames} frames at {fps} a second",
        renderer.describe()
    ))
}

/// The arguments of `skin validate`.
#[derive(Debug, Args)]
pub struct ValidateCommand {
    /// .gltf or .glb files, or directories of them.
    #[arg(required = true, value_name = "MODEL")]
    models: Vec<PathBuf>,
    #[command(flatten)]
    clips: ClipsArgs,
    /// Times per clip, spread evenly over one loop.
    #[arg(long, default_value_t = 8, value_name = "N",
          value_parser = clap::value_parser!(u32).range(1..=i64::from(validate::MAX_FRAMES)))]
    frames: u32,
    /// Budget preset of the vertex-shader paths.
    #[arg(long, default_value = "vs_2_0", value_name = "NAME")]
    budget: String,
    /// Palette layout of the vertex-shader paths.
    #[arg(long, value_enum, default_value_t = LayoutArg::Affine3x4)]
    layout: LayoutArg,
    /// Validate only this skinning method: linear blend (lbs) or dual quaternion (dqs)
    /// skinning (by default both, each with its own rows).
    #[arg(long, value_name = "METHOD", value_enum)]
    skinning: Option<SkinningArg>,
    /// Morph-target weights for every mesh with targets, held on every path (the oracle,
    /// the pose, the GPU and the CPU renderer's asset) at rest and through every clip.
    #[command(flatten)]
    weights: WeightsArg,
    #[command(flatten)]
    picture: PictureArgs,
    /// Write the GPU and CPU pictures of the frame where they differ most, side by
    /// side with the differing pixels marked, to this PNG (one model only).
    #[arg(long, value_name = "FILE.png")]
    pictures: Option<PathBuf>,
    /// Write the HTML report into this directory (made if missing): a page a model and
    /// index.html linking them.
    #[arg(long, value_name = "DIR")]
    report: Option<PathBuf>,
    /// Read buffer files that the models name by absolute paths, `..` or other schemes
    /// (by default only files in each model's folder and below are read, as viewers do).
    #[arg(long)]
    allow_outside_uris: bool,
    /// List every importer warning in full (by default: one line per kind).
    #[arg(long)]
    verbose: bool,
}

impl ValidateCommand {
    /// Print each model's table (and write the report); fail when an error exceeds its
    /// threshold.
    pub fn run(self, out: &mut dyn Write, warn: &mut dyn Write) -> Result<(), CliError> {
        let models = model_files(&self.models)?;
        if self.pictures.is_some() && models.len() > 1 {
            return Err(CliError::Usage(format!(
                "--pictures takes one model, not {}",
                models.len()
            )));
        }
        if let Some(dir) = &self.report {
            std::fs::create_dir_all(dir).map_err(|e| {
                CliError::Usage(format!(
                    "cannot make report directory {}: {e}",
                    dir.display()
                ))
            })?;
        }
        let gpu = Reference::new()?;
        let (mut entries, mut failed) = (Vec::new(), Vec::new());
        for model in models.iter().map(|m| ModelArg {
            model: m.clone(),
            allow_outside_uris: self.allow_outside_uris,
            verbose: self.verbose,
            normals: NormalsArg::default(),
        }) {
            let started = std::time::Instant::now();
            let (rig, report, options) = self.one(&model, &gpu, out, warn)?;
            let failures = report.failures();
            if !failures.is_empty() {
                failed.push(match models.len() {
                    1 => failures.join("; "),
                    _ => format!("{}: {}", model.path(), failures.join("; ")),
                });
            }
            if let Some(dir) = &self.report {
                let name = model.file_name();
                let page = html::page(&html::Model {
                    name: &name,
                    rig: &rig,
                    report: &report,
                    options: &options,
                })
                .map_err(|e| CliError::Usage(format!("{name}: report page: {e}")))?;
                let file = html::page_file(&name);
                output::write_bytes(&dir.join(&file), page.as_bytes())?;
                entries.push(html::Entry {
                    name,
                    page: file,
                    vertices: report.vertices,
                    frames: report.frames.len(),
                    failures,
                    seconds: started.elapsed().as_secs_f64(),
                });
            }
        }
        if let Some(dir) = &self.report {
            let index = dir.join("index.html");
            output::write_bytes(&index, html::index(&entries).as_bytes())?;
            writeln!(out, "report: {}", index.display())?;
        }
        if !failed.is_empty() {
            let paths: Vec<String> = models.iter().map(|m| m.display().to_string()).collect();
            return Err(CliError::Failed {
                path: paths.join(", "),
                reasons: failed.join("; "),
            });
        }
        Ok(())
    }

    /// Validate one model and print its table.
    fn one(
        &self,
        model: &ModelArg,
        gpu: &Reference,
        out: &mut dyn Write,
        warn: &mut dyn Write,
    ) -> Result<(Rig, Report, validate::Options), CliError> {
        let rig = self.weights.held(model.load(warn)?)?;
        let clips = self.clips.clips(&rig).map_err(|e| model.pose_error(e))?;
        let options = validate::Options {
            frames: self.frames,
            clips,
            budget: preset(&self.budget)?,
            layout: self.layout.into(),
            size: self.picture.size,
            skinning: match self.skinning {
                Some(s) => vec![s.into()],
                None => vec![Skinning::Lbs, Skinning::Dqs],
            },
        };
        let total =
            validate::check_frames(&rig, &options).map_err(|source| CliError::Validate {
                path: model.path(),
                source,
            })?;
        let bar = indicatif::ProgressBar::new(total as u64).with_message("frames");
        let report = validate(&rig, gpu, &options, |done, _| bar.set_position(done as u64))
            .map_err(|source| CliError::Validate {
                path: model.path(),
                source,
            })?;
        bar.finish_and_clear();
        write!(out, "{}", report.table(&model.file_name()))?;
        if let (Some(path), Some((g, c))) = (&self.pictures, &report.worst) {
            save(&g.beside(&[c, &g.marked(c)], 4, Rgb565::BLACK), path)?;
        }
        Ok((rig, report, options))
    }
}

/// `paths` with each directory replaced by its .glb and .gltf files (sorted by name).
fn model_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, CliError> {
    let mut out = Vec::new();
    for p in paths {
        if !p.is_dir() {
            out.push(p.clone());
            continue;
        }
        let listed = std::fs::read_dir(p)
            .map_err(|e| CliError::Usage(format!("cannot read directory {}: {e}", p.display())))?;
        let mut found: Vec<PathBuf> = listed
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|f| {
                let ext = f.extension().and_then(|x| x.to_str());
                let ext = ext.map(str::to_ascii_lowercase);
                f.is_file() && matches!(ext.as_deref(), Some("glb" | "gltf"))
            })
            .collect();
        if found.is_empty() {
            return Err(CliError::Usage(format!(
                "{}: no .glb or .gltf files in this directory",
                p.display()
            )));
        }
        found.sort();
        out.extend(found);
    }
    Ok(out)
}

/// The arguments of `skin character`.
#[derive(Debug, Args)]
pub struct CharacterCommand {
    /// The file to write: `.glb`, or else `.gltf` with the buffer embedded.
    #[arg(short, long, value_name = "FILE")]
    output: PathBuf,
}

impl CharacterCommand {
    /// Write the character and a line about it.
    pub fn run(self, out: &mut dyn Write) -> Result<(), CliError> {
        let model = crate::character::Character::new();
        let output = &self.output;
        model
            .write(output)
            .map_err(|e| CliError::Usage(format!("cannot write {}: {e}", output.display())))?;
        writeln!(
            out,
            "{}: {} bones, {} vertices, {} triangles, 1 clip (walk, {} s)",
            output.display(),
            model.bones().len(),
            model.positions().len(),
            model.triangles(),
            crate::character::STRIDE,
        )?;
        Ok(())
    }
}

/// The arguments of `skin check`.
#[derive(Debug, Args)]
pub struct CheckCommand {
    /// A baked asset (`skin bake`'s output).
    asset: PathBuf,
    /// Frames to play, spread over one loop of the asset's clip.
    #[arg(long, default_value_t = 16, value_name = "N",
          value_parser = clap::value_parser!(u32).range(1..=i64::from(validate::MAX_FRAMES)))]
    frames: u32,
    #[command(flatten)]
    picture: PictureArgs,
}

impl CheckCommand {
    /// Read and play the asset; one line saying what it holds and played (and a warning
    /// when the budget of active morph targets dropped some).
    pub fn run(self, out: &mut dyn Write, warn: &mut dyn Write) -> Result<(), CliError> {
        let path = self.asset.display().to_string();
        let limit = crate::import::MAX_BUFFER_BYTES;
        let bytes = std::fs::File::open(&self.asset)
            .and_then(|f| {
                let mut bytes = Vec::new();
                std::io::Read::read_to_end(&mut std::io::Read::take(f, limit + 1), &mut bytes)
                    .map(|_| bytes)
            })
            .map_err(|e| CliError::Usage(format!("cannot read {path}: {e}")))?;
        if bytes.len() as u64 > limit {
            return Err(CliError::Usage(format!(
                "{path} is larger than this tool's limit of {limit} bytes"
            )));
        }
        let n = bytes.len();
        let render = |source| match source {
            RenderError::Asset(e) => CliError::Usage(format!("{path}: not a valid asset: {e}")),
            source => CliError::Render {
                path: path.clone(),
                source,
            },
        };
        let played = Cpu::from_asset(bytes)
            .and_then(|cpu| cpu.play_all(self.frames, self.picture.size))
            .map_err(render)?;
        let clip = match &played.clip {
            Some((name, d)) => format!("clip {name:?} ({d} s)"),
            None => "no clip".into(),
        };
        writeln!(
            out,
            "{path}: ok: {n} bytes, {} vertices, {} skinning, {} bones, {} vertices, {} triangles, \
             {} parts, {clip}; played the rest pose and {} frames at {}x{}",
            played.lane,
            played.skinning.name(),
            played.bones,
            played.vertices,
            played.triangles,
            played.parts,
            played.frames,
            self.picture.size.0,
            self.picture.size.1,
        )?;
        dropped(warn, &path, played.dropped)
    }
}

/// The arguments of `skin weights`.
#[derive(Debug, Args)]
pub struct WeightsCommand {
    #[command(flatten)]
    model: ModelArg,
    /// Weights from bone envelopes (capsules around each joint's bone); the only method.
    #[arg(long, required = true)]
    envelopes: bool,
    /// The radius of full influence around every bone, in model units (> 0).
    #[arg(long, value_name = "R", requires = "outer", allow_hyphen_values = true)]
    inner: Option<f32>,
    /// The radius beyond which a bone has no influence, in model units (> --inner).
    #[arg(long, value_name = "R", requires = "inner", allow_hyphen_values = true)]
    outer: Option<f32>,
    /// Per-joint radii: lines `JOINT INNER OUTER` (a node name, or #N for node N), overriding
    /// --inner/--outer for the joints they name (docs/DEFORMERS.md).
    #[arg(long, value_name = "FILE")]
    radii: Option<PathBuf>,
    /// The glTF file to write: `.glb`, or else `.gltf` with the buffer embedded.
    #[arg(short, long, value_name = "FILE")]
    output: PathBuf,
    /// Frames per clip at which the pose error against the file's own weights is measured.
    #[arg(long, value_name = "N", default_value_t = 16, value_parser = clap::value_parser!(u16).range(1..=1000))]
    frames: u16,
}

impl WeightsCommand {
    /// Weigh, write, and print what was dropped and the comparison with the file's weights.
    pub fn run(self, out: &mut dyn Write, warn: &mut dyn Write) -> Result<(), CliError> {
        let rig = self.model.load(warn)?;
        let path = self.model.path();
        let weights_error = |source| CliError::Weights {
            path: path.clone(),
            source,
        };
        let default = match (self.inner, self.outer) {
            (Some(inner), Some(outer)) => Some(
                skin_core::envelope::Radii::new(inner, outer).map_err(|source| {
                    weights_error(crate::envelope::WeightsError::Radii {
                        joint: "every".into(),
                        source,
                    })
                })?,
            ),
            _ => None,
        };
        let mut radii = crate::envelope::RadiiTable::new(default);
        if let Some(file) = &self.radii {
            let text = std::fs::read_to_string(file)
                .map_err(|e| CliError::Usage(format!("cannot read {}: {e}", file.display())))?;
            radii = radii
                .parse(&text)
                .map_err(|e| CliError::Usage(format!("{}: {e}", file.display())))?;
        }
        let weighted = crate::envelope::weigh(&rig, &radii).map_err(weights_error)?;
        let options = crate::import::Options {
            allow_outside_uris: self.model.allow_outside_uris,
            ..Default::default()
        };
        let source =
            crate::import::source_from_path(&self.model.model, &options).map_err(|source| {
                CliError::Import {
                    path: path.clone(),
                    source,
                }
            })?;
        crate::envelope::gltf::write(&source, &weighted, &self.output)?;
        writeln!(
            out,
            "{}: {} vertices in {} primitives weighed by {} envelopes; {} reached by more than 4 (largest share dropped {:.4}); {} outside every envelope (following the nearest)",
            self.output.display(),
            weighted.vertices,
            weighted.primitives.len(),
            weighted.capsules,
            weighted.overfull,
            weighted.largest_dropped,
            weighted.outside,
        )?;
        let study = crate::envelope::study::study(&rig, &weighted, usize::from(self.frames))
            .map_err(|e| self.model.pose_error(e))?;
        if let Some(s) = study {
            writeln!(
                out,
                "vs the file's weights ({} vertices): weight difference mean {:.4}, max {:.4}",
                s.vertices, s.weight_mean, s.weight_max
            )?;
            for g in &s.poses {
                writeln!(
                    out,
                    "pose error, {}: mean {:.2}%, max {:.2}% of the model's extent",
                    g.clip,
                    100.0 * g.mean,
                    100.0 * g.max
                )?;
            }
        }
        Ok(())
    }
}
