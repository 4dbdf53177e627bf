//! One struct of arguments and one `run` per subcommand (their help texts are on
//! [`super::Command`]'s variants).

use std::io::Write;
use std::path::PathBuf;

use clap::{Args, ValueEnum};
use embedded_graphics::pixelcolor::{Rgb565, RgbColor};
use skin_core::budget::{Budget, Layout};

use super::args::{preset, save, ClipArgs, ClipsArgs, LaneArgs, LayoutArg, ModelArg, PictureArgs};
use super::error::CliError;
use crate::bake::{self, bake};
use crate::gpu::{Model, Reference};
use crate::picture::Picture;
use crate::pose::{pose, LaneKind};
use crate::render::{self, Cpu, RenderError};
use crate::rig::Rig;
use crate::validate::{self, validate};

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
    /// One JSON object on stdout.
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
        let posed = pose(&rig, frame, lane).map_err(|e| self.model.pose_error(e))?;
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
            "frame": "glTF world (Y-up)",
            "blocks": blocks,
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
            "{}: {} bytes, {}, asset unit 2^{} model units, {} bones, {} joints, {} parts, {} vertices ({} duplicated by splitting), {} clips{}",
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
    /// The PNG file to write.
    #[arg(short, long, value_name = "FRAME.png")]
    output: PathBuf,
}

impl RenderCommand {
    /// Write the picture and a line about it.
    pub fn run(self, out: &mut dyn Write, warn: &mut dyn Write) -> Result<(), CliError> {
        let rig = self.model.load(warn)?;
        let budget = preset(&self.budget)?;
        let frame = self
            .clip
            .frame(&rig)
            .map_err(|e| self.model.pose_error(e))?;
        let (lane, size) = (LaneKind::from(self.lane.lane), self.picture.size);
        if self.backend == BackendArg::Gpu && lane != LaneKind::F32 {
            return Err(CliError::Usage(
                "--arith fixed needs --backend cpu (the GPU renders in f32)".into(),
            ));
        }
        let clip = frame.map(|(c, _)| c);
        let picture = match self.backend {
            BackendArg::Cpu => Cpu::new(&rig, clip, lane, Some(budget))
                .and_then(|c| c.render(self.clip.time, size)),
            BackendArg::Gpu => gpu_picture(&Reference::new()?, &rig, frame, budget, size),
        }
        .map_err(|source| CliError::Render {
            path: self.model.path(),
            source,
        })?;
        save(&picture, &self.output)?;
        writeln!(
            out,
            "{}: {}x{} {} picture",
            self.output.display(),
            size.0,
            size.1,
            match (self.backend, lane) {
                (BackendArg::Gpu, _) => "GPU (f32)",
                (BackendArg::Cpu, LaneKind::F32) => "CPU (f32)",
                (BackendArg::Cpu, LaneKind::Fixed) => "CPU (fixed)",
            }
        )?;
        Ok(())
    }
}

/// The GPU's picture of `frame`, palettes split for `budget`, the camera framing the CPU
/// renderer's skinned rest pose.
fn gpu_picture(
    gpu: &Reference,
    rig: &Rig,
    frame: Option<(usize, f32)>,
    budget: Budget,
    size: (u16, u16),
) -> Result<Picture, RenderError> {
    let split = Model::new(rig, budget, Layout::Affine3x4)?;
    let clip = frame.map(|(c, _)| c);
    let bounds = Cpu::new(rig, clip, LaneKind::F32, Some(budget))?.rest_bounds(size)?;
    render::gpu(gpu, rig, &split, frame, &bounds, size)
}

/// The arguments of `skin validate`.
#[derive(Debug, Args)]
pub struct ValidateCommand {
    #[command(flatten)]
    model: ModelArg,
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
    /// side with the differing pixels marked, to this PNG.
    #[arg(long, value_name = "FILE.png")]
    pictures: Option<PathBuf>,
}

impl ValidateCommand {
    /// Print the table; fail when an error exceeds its threshold.
    pub fn run(self, out: &mut dyn Write, warn: &mut dyn Write) -> Result<(), CliError> {
        let rig = self.model.load(warn)?;
        let clips = self
            .clips
            .clips(&rig)
            .map_err(|e| self.model.pose_error(e))?;
        let options = validate::Options {
            frames: self.frames,
            clips,
            budget: preset(&self.budget)?,
            layout: self.layout.into(),
            size: self.picture.size,
        };
        let total =
            validate::check_frames(&rig, &options).map_err(|source| CliError::Validate {
                path: self.model.path(),
                source,
            })?;
        let gpu = Reference::new()?;
        let bar = indicatif::ProgressBar::new(total as u64).with_message("frames");
        let report = validate(&rig, &gpu, &options, |done, _| {
            bar.set_position(done as u64)
        })
        .map_err(|source| CliError::Validate {
            path: self.model.path(),
            source,
        })?;
        bar.finish_and_clear();
        write!(out, "{}", report.table(&self.model.file_name()))?;
        if let (Some(path), Some((g, c))) = (&self.pictures, &report.worst) {
            save(&g.beside(&[c, &g.marked(c)], 4, Rgb565::BLACK), path)?;
        }
        let failures = report.failures();
        if !failures.is_empty() {
            return Err(CliError::Failed {
                path: self.model.path(),
                reasons: failures.join("; "),
            });
        }
        Ok(())
    }
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
