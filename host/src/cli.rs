//! The `skin` command-line tool: `inspect`, `budget`, `pose`, `bake`, `render`,
//! `validate` and `character`.
//!
//! [`run`] does the work and returns a [`CliError`]; `main` prints it as one line,
//! `skin: <reason>`, and exits with [`CliError::status`]: 2 for bad input, 1 when
//! `validate` measured an error beyond a documented threshold.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::{Parser, Subcommand, ValueEnum};

use embedded_graphics::pixelcolor::{Rgb565, RgbColor};
use skin_core::budget::{Budget, Layout};

use crate::animation;
use crate::bake::{self, BakeError};
use crate::error::{ImportError, PoseError};
use crate::frames;
use crate::gpu::{GpuError, Reference};
use crate::html;
use crate::output::{self, OutputError};
use crate::pose::{self, Arith};
use crate::render::RenderError;
use crate::rig::Rig;
use crate::validate::{self, ValidateError};

/// Skeletal skinning for microcontrollers: inspect, budget, pose, bake, render and validate
/// glTF models.
#[derive(Debug, Parser)]
#[command(name = "skin", version, long_about = None)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The number format for `pose` and `bake`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ArithArg {
    /// 32-bit float throughout.
    F32,
    /// Fixed point: I8F24 pose maths, I2F14 skinning lane, positions in asset units.
    Fixed,
}

impl From<ArithArg> for Arith {
    fn from(a: ArithArg) -> Arith {
        match a {
            ArithArg::F32 => Arith::F32,
            ArithArg::Fixed => Arith::Fixed,
        }
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

/// The palette layout of the vertex-shader paths.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum LayoutArg {
    /// Affine 3x4 matrices: 3 registers a bone.
    #[value(name = "3x4")]
    Affine3x4,
    /// Full 4x4 matrices: 4 registers a bone.
    #[value(name = "4x4")]
    Mat4x4,
}

impl From<LayoutArg> for Layout {
    fn from(l: LayoutArg) -> Layout {
        match l {
            LayoutArg::Affine3x4 => Layout::Affine3x4,
            LayoutArg::Mat4x4 => Layout::Mat4x4,
        }
    }
}

/// A picture size, `WxH`, each side 1..=1024 pixels.
fn parse_size(s: &str) -> Result<(u16, u16), String> {
    let bad = || format!("size {s:?} is not WxH with sides of 1..=1024 pixels, e.g. 240x240");
    let (w, h) = s.split_once(['x', 'X']).ok_or_else(bad)?;
    let side = |v: &str| {
        v.trim()
            .parse::<u16>()
            .ok()
            .filter(|v| (1..=1024).contains(v))
            .ok_or_else(bad)
    };
    Ok((side(w)?, side(h)?))
}

/// Output formats of `pose`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// One JSON object on stdout.
    Json,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Nodes, skins, joints, vertices, influences, clips, bounding box, and which fixed-point
    /// formats hold the model.
    Inspect {
        /// A .gltf or .glb file.
        model: PathBuf,
    },
    /// For each constant-register budget and matrix layout: bone capacity, whether each skin
    /// fits, and otherwise how many palette splits (draw calls) and duplicated vertices it costs.
    Budget {
        /// A .gltf or .glb file.
        model: PathBuf,
        /// Only these budget presets (repeatable), e.g. vs_1_1, gles2; default: all presets.
        #[arg(long = "budget", value_name = "NAME")]
        budgets: Vec<String>,
    },
    /// Print skinned vertex positions in glTF world space (Y-up) as JSON: one block per
    /// (mesh node, primitive) in node order, vertices in accessor order.
    ///
    /// Without --anim the rest pose (node transforms as stored) is used. Times beyond a
    /// clip's end hold its last key; times before its start hold its first key.
    Pose {
        /// A .gltf or .glb file.
        model: PathBuf,
        /// Animation index or name.
        #[arg(long, value_name = "INDEX|NAME")]
        anim: Option<String>,
        /// Time in seconds within the animation (may be negative).
        #[arg(
            long,
            default_value_t = 0.0,
            value_name = "SECONDS",
            allow_negative_numbers = true
        )]
        time: f32,
        /// Number format of the skinning.
        #[arg(long, value_enum, default_value_t = ArithArg::F32)]
        arith: ArithArg,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Json)]
        format: Format,
    },
    /// Bake a model into the compact asset format that skin-core reads on the device
    /// (docs/FORMAT.md): skeleton, skin, palette-split mesh and clips, quantised to the
    /// number format.
    ///
    /// Refuses (exit status 2, one line) what the budget or the number format cannot hold
    /// rather than writing a wrong asset: a triangle needing more bones than a palette
    /// holds, and in fixed point any value that overflows at rest or at a key time (or the
    /// midpoint between keys) of an included clip. Nothing is written then.
    Bake {
        /// A .gltf or .glb file.
        model: PathBuf,
        /// The asset file to write.
        #[arg(short, long, value_name = "FILE")]
        output: PathBuf,
        /// Split palettes to fit this budget preset (3x4 matrices), e.g. vs_1_1, gles2;
        /// default: only the format's 256 bones a part.
        #[arg(long, value_name = "NAME")]
        budget: Option<String>,
        /// Number format of the asset.
        #[arg(long, value_enum, default_value_t = ArithArg::F32)]
        arith: ArithArg,
        /// Include only this animation (index or name; repeatable); default: all.
        #[arg(long = "anim", value_name = "INDEX|NAME")]
        anims: Vec<String>,
    },
    /// Render one frame to a PNG with the firmware's camera (framing the skinned rest pose)
    /// and Lambert shading: by the GPU reference, or by skin-core's rasteriser — with the
    /// default budget, the firmware's frame bit for bit. Times loop over the clip, as the
    /// device plays it.
    ///
    /// An output ending in .gif or .apng gets the whole clip instead, one loop at --fps.
    Render {
        /// A .gltf or .glb file.
        model: PathBuf,
        /// Animation index or name; default: the rest pose.
        #[arg(long, value_name = "INDEX|NAME")]
        anim: Option<String>,
        /// Time in seconds within the animation (looped).
        #[arg(
            long,
            default_value_t = 0.0,
            value_name = "SECONDS",
            allow_negative_numbers = true
        )]
        time: f32,
        /// Who draws.
        #[arg(long, value_enum, default_value_t = BackendArg::Gpu)]
        backend: BackendArg,
        /// Number format of the CPU renderer (the GPU renders in f32).
        #[arg(long, value_enum, default_value_t = ArithArg::F32)]
        arith: ArithArg,
        /// Picture size.
        #[arg(long, default_value = "240x240", value_name = "WxH", value_parser = parse_size)]
        size: (u16, u16),
        /// Budget preset the palettes are split for (the GPU's uniform palette, the CPU's
        /// baked parts); vs_1_1 is what scripts/firmware.sh bakes with.
        #[arg(long, default_value = "vs_1_1", value_name = "NAME")]
        budget: String,
        /// Frames a second of an animation (1..=50).
        #[arg(long, default_value_t = 30.0, value_name = "N")]
        fps: f32,
        /// The file to write: a PNG picture, or a .gif or .apng animation of the clip.
        #[arg(short, long, value_name = "FRAME.png|CLIP.gif")]
        output: PathBuf,
    },
    /// Turn the firmware's frame dump (frame-NNN.rgb565 files, as `scripts/firmware.sh
    /// run` writes them) into an animated .gif or .apng. With the dump's asset.bin, the
    /// frames play at the rate they stand for (frames / clip duration).
    Frames {
        /// The directory holding frame-000.rgb565, frame-001.rgb565, ….
        dir: PathBuf,
        /// The frames' size.
        #[arg(long, default_value = "240x240", value_name = "WxH", value_parser = parse_size)]
        size: (u16, u16),
        /// Frames a second; default: from asset.bin.
        #[arg(long, value_name = "N")]
        fps: Option<f32>,
        /// The .gif or .apng file to write.
        #[arg(short, long, value_name = "CLIP.gif")]
        output: PathBuf,
    },
    /// Measure core f32, core fixed point, GPU compute and GPU vertex-shader skinning
    /// against an f64 reference at FRAMES times across each clip (and the rest pose), and
    /// compare the GPU picture with the CPU one. Prints a Markdown table; exits with status
    /// 1 when an error exceeds its documented threshold (docs/VALIDATION.md).
    ///
    /// With --report DIR, also writes one self-contained HTML page a model (plots of the
    /// error over time, per-vertex heat maps, palette splits, budgets, pictures) and an
    /// index.html linking them.
    Validate {
        /// .gltf or .glb files, or directories of them.
        #[arg(required = true, value_name = "MODEL")]
        models: Vec<PathBuf>,
        /// Only this animation (index or name; repeatable); default: all.
        #[arg(long = "anim", value_name = "INDEX|NAME")]
        anims: Vec<String>,
        /// Times per clip, spread evenly over one loop.
        #[arg(long, default_value_t = 8, value_name = "N",
              value_parser = clap::value_parser!(u32).range(1..))]
        frames: u32,
        /// Budget preset of the vertex-shader paths.
        #[arg(long, default_value = "vs_2_0", value_name = "NAME")]
        budget: String,
        /// Palette layout of the vertex-shader paths.
        #[arg(long, value_enum, default_value_t = LayoutArg::Affine3x4)]
        layout: LayoutArg,
        /// Picture size.
        #[arg(long, default_value = "240x240", value_name = "WxH", value_parser = parse_size)]
        size: (u16, u16),
        /// Write the GPU and CPU pictures of the frame where they differ most, side by
        /// side with the differing pixels marked, to this PNG.
        #[arg(long, value_name = "FILE.png")]
        pictures: Option<PathBuf>,
        /// Write the HTML report into this directory (made if missing).
        #[arg(long, value_name = "DIR")]
        report: Option<PathBuf>,
    },
    /// Write the procedural character (twelve bones, a looping walk, up to four influences
    /// a vertex; small enough for a 16 KiB micro:bit) as glTF, for `skin bake`.
    Character {
        /// The file to write: `.glb`, or else `.gltf` with the buffer embedded.
        #[arg(short, long, value_name = "FILE")]
        output: PathBuf,
    },
}

/// Why a command failed: bad input of some kind (exit status 2).
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// The model could not be imported.
    #[error("{path}: {source}")]
    Import {
        /// The model.
        path: String,
        /// Why.
        #[source]
        source: ImportError,
    },
    /// The model could not be posed or baked.
    #[error("{path}: {source}")]
    Pose {
        /// The model.
        path: String,
        /// Why.
        #[source]
        source: PoseError,
    },
    /// The model could not be baked.
    #[error("{path}: {source}")]
    Bake {
        /// The model.
        path: String,
        /// Why.
        #[source]
        source: BakeError,
    },
    /// The model could not be rendered.
    #[error("{path}: {source}")]
    Render {
        /// The model.
        path: String,
        /// Why.
        #[source]
        source: RenderError,
    },
    /// Validation could not run.
    #[error("{path}: {source}")]
    Validate {
        /// The model.
        path: String,
        /// Why.
        #[source]
        source: ValidateError,
    },
    /// No GPU adapter or device.
    #[error(transparent)]
    Gpu(#[from] GpuError),
    /// Validation ran and an error exceeded its threshold (exit status 1).
    #[error("{path}: validation failed: {reasons}")]
    Failed {
        /// The model.
        path: String,
        /// What exceeded its threshold.
        reasons: String,
    },
    /// Anything else the user asked for that cannot be done.
    #[error("{0}")]
    Usage(String),
    /// Writing the output failed.
    #[error("cannot write output: {0}")]
    Output(#[from] std::io::Error),
    /// An output file could not be written (or its content made).
    #[error(transparent)]
    File(#[from] OutputError),
}

impl CliError {
    /// The exit status: 1 for a failed validation, 2 for everything else (bad input, no
    /// GPU).
    pub fn status(&self) -> u8 {
        match self {
            CliError::Failed { .. } => 1,
            _ => 2,
        }
    }
}

fn load(path: &Path) -> Result<Rig, CliError> {
    crate::import::from_path(path).map_err(|source| CliError::Import {
        path: path.display().to_string(),
        source,
    })
}

fn pose_err(path: &Path) -> impl FnOnce(PoseError) -> CliError + '_ {
    move |source| CliError::Pose {
        path: path.display().to_string(),
        source,
    }
}

/// Resolve `--anim` (an index, or else a name).
pub fn find_clip(rig: &Rig, anim: &str) -> Result<usize, PoseError> {
    if let Ok(i) = anim.parse::<usize>() {
        if i < rig.clips.len() {
            return Ok(i);
        }
    }
    rig.clips
        .iter()
        .position(|c| c.name.as_deref() == Some(anim))
        .ok_or_else(|| PoseError::NoAnimation(anim.to_owned(), rig.clips.len()))
}

/// Run a parsed command, writing its output to `out` and warnings to `warn`.
pub fn run(cli: Cli, out: &mut dyn Write, warn: &mut dyn Write) -> Result<(), CliError> {
    match cli.command {
        Command::Inspect { model } => {
            let rig = load(&model)?;
            print_warnings(&rig, warn)?;
            write!(out, "{}", crate::report::inspect(&rig, &file_name(&model)))?;
        }
        Command::Budget { model, budgets } => {
            let rig = load(&model)?;
            print_warnings(&rig, warn)?;
            let presets = crate::report::budgets(&budgets).map_err(CliError::Usage)?;
            let table = crate::report::budget_table(&rig, &presets);
            write!(out, "{table}")?;
        }
        Command::Pose {
            model,
            anim,
            time,
            arith,
            format: Format::Json,
        } => {
            let rig = load(&model)?;
            print_warnings(&rig, warn)?;
            if !time.is_finite() {
                return Err(pose_err(&model)(PoseError::BadTime(time)));
            }
            let clip = match &anim {
                Some(a) => Some(find_clip(&rig, a).map_err(pose_err(&model))?),
                None => None,
            };
            let blocks = pose::pose(&rig, clip.map(|c| (c, time)), arith.into())
                .map_err(pose_err(&model))?;
            let blocks: Vec<serde_json::Value> = blocks
                .iter()
                .map(|b| {
                    serde_json::json!({
                        "node": b.node,
                        "mesh": b.mesh,
                        "primitive": b.primitive,
                        "count": b.positions.len(),
                        "positions": b.positions.iter().flatten().collect::<Vec<_>>(),
                    })
                })
                .collect();
            let doc = serde_json::json!({
                "model": file_name(&model),
                "animation": clip,
                "time": time,
                "arith": Arith::from(arith).name(),
                "frame": "glTF world (Y-up)",
                "blocks": blocks,
            });
            serde_json::to_writer(&mut *out, &doc).map_err(std::io::Error::from)?;
            writeln!(out)?;
        }
        Command::Bake {
            model,
            output,
            budget,
            arith,
            anims,
        } => {
            let rig = load(&model)?;
            print_warnings(&rig, warn)?;
            let budget = budget.as_deref().map(preset).transpose()?;
            let clips = if anims.is_empty() {
                None
            } else {
                let found: Result<Vec<usize>, PoseError> =
                    anims.iter().map(|a| find_clip(&rig, a)).collect();
                Some(found.map_err(pose_err(&model))?)
            };
            let options = bake::Options {
                budget,
                arith: arith.into(),
                clips,
            };
            let baked = bake::bake(&rig, &options).map_err(|source| CliError::Bake {
                path: model.display().to_string(),
                source,
            })?;
            std::fs::write(&output, &baked.bytes)
                .map_err(|e| CliError::Usage(format!("cannot write {}: {e}", output.display())))?;
            writeln!(
                out,
                "{}: {} bytes, {}, asset unit 2^{} model units, {} bones, {} joints, {} parts, {} vertices ({} duplicated by splitting), {} clips{}",
                output.display(),
                baked.bytes.len(),
                Arith::from(arith).name(),
                baked.unit_exponent,
                baked.bones.len(),
                baked.joints,
                baked.parts.len(),
                baked.parts.iter().map(|p| p.vertices.len()).sum::<usize>(),
                baked.duplicated,
                baked.clips.len(),
                if baked.normals { ", normals" } else { "" },
            )?;
        }
        Command::Render {
            model,
            anim,
            time,
            backend,
            arith,
            size,
            budget,
            fps,
            output,
        } => {
            let rig = load(&model)?;
            print_warnings(&rig, warn)?;
            let budget = preset(&budget)?;
            let render_err = |source| CliError::Render {
                path: model.display().to_string(),
                source,
            };
            if !time.is_finite() {
                return Err(pose_err(&model)(PoseError::BadTime(time)));
            }
            let clip = match &anim {
                Some(a) => Some(find_clip(&rig, a).map_err(pose_err(&model))?),
                None => None,
            };
            if backend != BackendArg::Cpu && arith != ArithArg::F32 {
                return Err(CliError::Usage(
                    "--arith fixed needs --backend cpu (the GPU renders in f32)".into(),
                ));
            }
            let backend = match backend {
                BackendArg::Cpu => animation::Backend::Cpu(arith.into()),
                BackendArg::Gpu => animation::Backend::Gpu,
                BackendArg::Compare => animation::Backend::Compare,
            };
            let renderer =
                animation::Renderer::new(&rig, clip, backend, budget, size).map_err(render_err)?;
            let what = match animation::Format::of(&output) {
                Some(format) => animate(&renderer, format, fps, &output)?,
                None => {
                    let picture = renderer.frame(time).map_err(render_err)?;
                    let png = picture.png_bytes().map_err(|e| {
                        CliError::Usage(format!("cannot write {}: {e}", output.display()))
                    })?;
                    output::write_bytes(&output, &png)?;
                    format!("{} picture", renderer.describe())
                }
            };
            let (w, h) = renderer.picture_size();
            writeln!(out, "{}: {w}x{h} {what}", output.display())?;
        }
        Command::Validate {
            models,
            anims,
            frames,
            budget,
            layout,
            size,
            pictures,
            report,
        } => {
            let models = model_files(&models)?;
            if pictures.is_some() && models.len() > 1 {
                return Err(CliError::Usage(format!(
                    "--pictures takes one model, not {}",
                    models.len()
                )));
            }
            if let Some(dir) = &report {
                std::fs::create_dir_all(dir).map_err(|e| {
                    CliError::Usage(format!(
                        "cannot make report directory {}: {e}",
                        dir.display()
                    ))
                })?;
            }
            let gpu = Reference::new()?;
            let (mut entries, mut failed) = (Vec::new(), Vec::new());
            for model in &models {
                let started = std::time::Instant::now();
                let rig = load(model)?;
                print_warnings(&rig, warn)?;
                let clips = if anims.is_empty() {
                    None
                } else {
                    let found: Result<Vec<usize>, PoseError> =
                        anims.iter().map(|a| find_clip(&rig, a)).collect();
                    Some(found.map_err(pose_err(model))?)
                };
                let options = validate::Options {
                    frames,
                    clips,
                    budget: preset(&budget)?,
                    layout: layout.into(),
                    size,
                };
                let total = validate::frames(&rig, &options).len();
                let bar = indicatif::ProgressBar::new(total as u64).with_message("frames");
                let result = validate::validate(&rig, &gpu, &options, |done, _| {
                    bar.set_position(done as u64)
                })
                .map_err(|source| CliError::Validate {
                    path: model.display().to_string(),
                    source,
                })?;
                bar.finish_and_clear();
                let name = file_name(model);
                write!(out, "{}", result.table(&name))?;
                if let (Some(path), Some((g, c))) = (&pictures, &result.worst) {
                    save(&g.beside(&[c, &g.marked(c)], 4, Rgb565::BLACK), path)?;
                }
                let failures = result.failures();
                if !failures.is_empty() && models.len() == 1 {
                    failed.push(failures.join("; "));
                } else if !failures.is_empty() {
                    failed.push(format!("{}: {}", model.display(), failures.join("; ")));
                }
                if let Some(dir) = &report {
                    let page = html::page(&html::Model {
                        name: &name,
                        rig: &rig,
                        report: &result,
                        options: &options,
                    })
                    .map_err(|e| CliError::Usage(format!("{name}: report page: {e}")))?;
                    let file = html::page_file(&name);
                    output::write_bytes(&dir.join(&file), page.as_bytes())?;
                    entries.push(html::Entry {
                        name,
                        page: file,
                        vertices: result.vertices,
                        frames: result.frames.len(),
                        failures,
                        seconds: started.elapsed().as_secs_f64(),
                    });
                }
            }
            if let Some(dir) = &report {
                let index = dir.join("index.html");
                output::write_bytes(&index, html::index(&entries).as_bytes())?;
                writeln!(out, "report: {}", index.display())?;
            }
            if !failed.is_empty() {
                return Err(CliError::Failed {
                    path: models
                        .iter()
                        .map(|m| m.display().to_string())
                        .collect::<Vec<_>>()
                        .join(", "),
                    reasons: failed.join("; "),
                });
            }
        }
        Command::Frames {
            dir,
            size,
            fps,
            output,
        } => {
            let format = animation::Format::of(&output).ok_or_else(|| {
                CliError::Usage(format!("{}: not a .gif or .apng file", output.display()))
            })?;
            let dump =
                frames::Dump::read(&dir, size).map_err(|e| CliError::Usage(e.to_string()))?;
            let fps = fps.or(dump.fps()).ok_or_else(|| {
                CliError::Usage(format!(
                    "{}: no asset.bin with a clip to time the frames by; give --fps",
                    dir.display()
                ))
            })?;
            let (w, h) = (u32::from(size.0), u32::from(size.1));
            output::write(&output, |file| {
                let content = |e: animation::AnimationError| OutputError::Content(e.to_string());
                let mut anim =
                    animation::Animation::new(format, file, (w, h), fps, dump.pictures.len())
                        .map_err(content)?;
                for p in &dump.pictures {
                    anim.push(p).map_err(content)?;
                }
                anim.finish().map_err(content)
            })?;
            writeln!(
                out,
                "{}: {w}x{h}, {} frames at {fps:.3} a second",
                output.display(),
                dump.pictures.len()
            )?;
        }
        Command::Character { output } => {
            let model = crate::character::Character::new();
            model
                .write(&output)
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
        }
    }
    Ok(())
}

fn preset(name: &str) -> Result<Budget, CliError> {
    Ok(crate::report::budgets(&[name.to_owned()]).map_err(CliError::Usage)?[0])
}

fn save(picture: &crate::picture::Picture, path: &Path) -> Result<(), CliError> {
    picture
        .save_png(path)
        .map_err(|e| CliError::Usage(format!("cannot write {}: {e}", path.display())))
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
                let ext = f
                    .extension()
                    .and_then(|x| x.to_str())
                    .map(str::to_ascii_lowercase);
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

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string())
}

fn print_warnings(rig: &Rig, warn: &mut dyn Write) -> Result<(), CliError> {
    for w in &rig.warnings {
        writeln!(warn, "skin: warning: {w}")?;
    }
    Ok(())
}
