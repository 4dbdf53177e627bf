//! The `skin` command-line tool: `inspect`, `budget`, `pose`, `bake`, `render`,
//! `validate`, `check`, `frames`, `character` and `weights`.
//!
//! [`run`] does the work and returns a [`CliError`]; `main` prints it as one line,
//! `skin: <reason>`, and exits with [`CliError::status`]: 2 for bad input, 1 when
//! `validate` measured an error beyond a documented threshold.
//!
//! Each subcommand is one struct of arguments with its `run` ([`commands`]); the arguments
//! several share are clap `Args` groups flattened into them ([`args`]: the model, a frame
//! `--anim`/`--time`, clips `--anim`…, the lane `--arith`, the picture `--size`), each
//! resolved against the model in one place.

pub mod args;
pub mod commands;
pub mod correctives;
mod error;
mod frames;
pub mod layers;

use std::io::Write;

use clap::{Parser, Subcommand};

use commands::{
    BakeCommand, BudgetCommand, CharacterCommand, CheckCommand, InspectCommand, PoseCommand,
    RenderCommand, ValidateCommand, WeightsCommand,
};
pub use error::CliError;
pub use frames::FramesCommand;

/// Skeletal skinning for microcontrollers: inspect, budget, pose, bake, render and validate
/// glTF models.
#[derive(Debug, Parser)]
#[command(name = "skin", version, long_about = None)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Nodes, skins, joints, vertices, influences, clips, bounding box, and which fixed-point
    /// formats hold the model.
    Inspect(InspectCommand),
    /// For each constant-register budget and matrix layout: bone capacity, whether each skin
    /// fits, and otherwise how many palette splits (draw calls) and duplicated vertices it costs.
    Budget(BudgetCommand),
    /// Print skinned vertex positions in glTF world space (Y-up) as JSON: one block per
    /// (mesh node, primitive) in node order, vertices in accessor order.
    ///
    /// Without --anim the rest pose (node transforms as stored) is used. Times beyond a
    /// clip's end hold its last key; times before its start hold its first key.
    Pose(PoseCommand),
    /// Bake a model into the compact asset format that skin-core reads on the device
    /// (docs/FORMAT.md): skeleton, skin, palette-split mesh and clips, quantised to the
    /// lane (`--arith`).
    ///
    /// Refuses (exit status 2, one line) what the budget or the lane cannot hold
    /// rather than writing a wrong asset: a triangle needing more bones than a palette
    /// holds, and in fixed point any value that overflows at rest or at a key time (or the
    /// midpoint between keys) of an included clip. Nothing is written then.
    Bake(BakeCommand),
    /// Render one frame to a PNG with the firmware's camera (framing the skinned rest pose)
    /// and Lambert shading: by the GPU reference, or by skin-core's rasteriser — with the
    /// default budget, the firmware's frame bit for bit. Times loop over the clip, as the
    /// device plays it.
    ///
    /// An output ending in .gif or .apng gets the whole clip instead, one loop at --fps.
    Render(RenderCommand),
    /// Measure core f32, core fixed point, GPU compute and GPU vertex-shader skinning
    /// against an f64 reference at FRAMES times across each clip (and the rest pose), and
    /// compare the GPU picture with the CPU one. Prints a Markdown table; exits with status
    /// 1 when an error exceeds its documented threshold (docs/VALIDATION.md).
    ///
    /// With --report DIR, also writes one self-contained HTML page a model (plots of the
    /// error over time, per-vertex heat maps, palette splits, budgets, pictures) and an
    /// index.html linking them.
    Validate(ValidateCommand),
    /// Read a baked asset (`skin bake`'s output) as the firmware does and play it: the
    /// header, checksum and every table checked, the camera framed on the skinned rest
    /// pose, and frames of its clip posed, skinned, projected and drawn. Prints one line;
    /// a damaged or unplayable asset exits with status 2 and the reason.
    Check(CheckCommand),
    /// Turn the firmware's frame dump (frame-NNN.rgb565 files, as `scripts/firmware.sh
    /// run` writes them) into an animated .gif or .apng. With the dump's asset.bin, the
    /// frames play at the rate they stand for (frames / clip duration).
    Frames(FramesCommand),
    /// Compute every skinned mesh's bone influences from envelopes around the bones
    /// (--envelopes: a capsule per bone, full influence within --inner, fading smoothly to
    /// none at --outer, the four largest kept and normalised) and write the model back as
    /// glTF with the new JOINTS_0/WEIGHTS_0. Prints what was dropped and, where the file had
    /// weights, how far the new ones are from them: in weight, and in posed position over
    /// each clip.
    Weights(WeightsCommand),
    /// Write the procedural character (fourteen bones, a looping walk, up to four influences
    /// a vertex; small enough for a 16 KiB micro:bit) as glTF, for `skin bake`.
    Character(CharacterCommand),
}

/// Run a parsed command, writing its output to `out` and warnings to `warn`.
pub fn run(cli: Cli, out: &mut dyn Write, warn: &mut dyn Write) -> Result<(), CliError> {
    match cli.command {
        Command::Inspect(c) => c.run(out, warn),
        Command::Budget(c) => c.run(out, warn),
        Command::Pose(c) => c.run(out, warn),
        Command::Bake(c) => c.run(out, warn),
        Command::Render(c) => c.run(out, warn),
        Command::Validate(c) => c.run(out, warn),
        Command::Check(c) => c.run(out, warn),
        Command::Frames(c) => c.run(out),
        Command::Character(c) => c.run(out),
        Command::Weights(c) => c.run(out, warn),
    }
}
