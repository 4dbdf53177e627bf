//! One struct of arguments and one `run` per subcommand (their help texts are on
//! [`super::Command`]'s variants).

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};
use embedded_graphics::pixelcolor::{Rgb565, RgbColor};

use super::args::{
    preset, save, ClipArgs, ClipsArgs, LaneArgs, LayoutArg, ModelArg, PictureArgs, SkinningArg,
    WeightsArg,
};
use super::error::CliError;
use crate::animation;
use crate::bake::{self, bake};
use crate::gpu::Reference;
use crate::html;
use crate::output::{self, OutputError};
use crate::pose::{joint_worlds, pose_weighted, LaneKind, Skinning};
use crate::render::{Cpu, RenderError};
use crate::rig::Rig;
use crate::validate::{self, validate, Report};

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
}

impl BudgetCommand {
    /// Print the table.
    pub fn run(self, out: &mut dyn Write, warn: &mut dyn Write) -> Result<(), CliError> {
        let rig = self.model.load(warn)?;
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
    /// The skinning method: linear blend (lbs) or dual quaternion (dqs) skinning.
    #[arg(long, value_name = "METHOD", value_enum, default_value_t = SkinningArg::Lbs)]
    skinning: SkinningArg,
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
        let weights = self.weights.at(&rig, frame)?;
        let skinning = Skinning::from(self.skinning);
        let posed = pose_weighted(&rig, frame, lane, skinning, &weights)
            .map_err(|e| self.model.pose_error(e))?;
        let joints: Vec<serde_json::Value> = joint_worlds(&rig, frame, lane)
            .map_err(|e| self.model.pose_error(e))?
            .into_iter()
            .map(|j| serde_json::json!({"node": j.node, "name": j.name, "world": j.world}))
            .collect();
        let Format::Json = self.format;
        let blocks: Vec<serde_json::Value> = posed
            .iter()
            .map(|p| {
                serde_json::json!({
                    "node": p.node,
                    "mesh": p.mesh,
                    "primitive": p.primitive,
                    "count": p.positions.len(),
                    "positions": p.positions.iter().flatten().collect::<Vec<_>>(),
                })
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
        let options = bake::Options {
            budget,
            lane,
            clips,
        };
        let baked = bake(&rig, &options).map_err(|source| CliError::Bake {
            path: self.model.path(),
            source,
        })?;
        let output = &self.output;
        std::fs::write(output, &baked.bytes)
            .map_err(|e| CliError::Usage(format!("cannot write {}: {e}", output.display())))?;
        writeln!(
            out,
            "{}: {} bytes, {}, asset unit 2^{} model units, {} bones, {} joints, {} parts, {} vertices ({} duplicated by splitting), {} clips{}{}",
            output.display(),
            baked.bytes.len(),
            lane.name(),
            baked.unit_exponent,
            baked.bones.len(),
            baked.joints,
            baked.parts.len(),
            baked.parts.iter().map(|p| p.vertices.len()).sum::<usize>(),
            baked.duplicated,
            baked.clips.len(),
            if baked.normals { ", normals" } else { "" },
            match baked.morph_bytes {
                0 => String::new(),
                n => format!(", {n} bytes of morph targets"),
            },
        )?;
        Ok(())
    }
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
}

impl RenderCommand {
    /// Write the picture (or the animation) and a line about it.
    pub fn run(self, out: &mut dyn Write, warn: &mut dyn Write) -> Result<(), CliError> {
        let rig = self.model.load_unmorphed(warn, "render")?;
        let budget = preset(&self.budget)?;
        let frame = self
            .clip
            .frame(&rig)
            .map_err(|e| self.model.pose_error(e))?;
        let lane = LaneKind::from(self.lane.lane);
        if self.backend != BackendArg::Cpu && lane != LaneKind::F32 {
            return Err(CliError::Usage(
                "--arith fixed needs --backend cpu (the GPU renders in f32)".into(),
            ));
        }
        let backend = match self.backend {
            BackendArg::Cpu => animation::Backend::Cpu(lane),
            BackendArg::Gpu => animation::Backend::Gpu,
            BackendArg::Compare => animation::Backend::Compare,
        };
        let render_err = |source| CliError::Render {
            path: self.model.path(),
            source,
        };
        let clip = frame.map(|(c, _)| c);
        let format = animation::Format::of(&self.output);
        if format.is_some() && clip.is_none() {
            return Err(CliError::Usage(format!(
                "{}: an animation plays a clip: give --anim",
                self.output.display()
            )));
        }
        let renderer = animation::Renderer::new(&rig, clip, backend, budget, self.picture.size)
            .map_err(render_err)?;
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
        Ok(())
    }
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
        let rig = model.load_unmorphed(warn, "validate")?;
        let clips = self.clips.clips(&rig).map_err(|e| model.pose_error(e))?;
        let options = validate::Options {
            frames: self.frames,
            clips,
            budget: preset(&self.budget)?,
            layout: self.layout.into(),
            size: self.picture.size,
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
    /// Read and play the asset; one line saying what it holds and played.
    pub fn run(self, out: &mut dyn Write) -> Result<(), CliError> {
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
            "{path}: ok: {n} bytes, {} vertices, {} bones, {} vertices, {} triangles, {} parts, \
             {clip}; played the rest pose and {} frames at {}x{}",
            played.lane,
            played.bones,
            played.vertices,
            played.triangles,
            played.parts,
            played.frames,
            self.picture.size.0,
            self.picture.size.1,
        )?;
        Ok(())
    }
}
