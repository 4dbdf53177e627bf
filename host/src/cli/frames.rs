//! `skin frames`: the firmware's frame dump as an animation.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;

use super::args::PictureArgs;
use super::error::CliError;
use crate::animation::{Animation, AnimationError, Format};
use crate::frames::Dump;
use crate::output::{self, OutputError};

/// The arguments of `skin frames`.
#[derive(Debug, Args)]
pub struct FramesCommand {
    /// The directory holding frame-000.rgb565, frame-001.rgb565, ….
    dir: PathBuf,
    /// The frames' size.
    #[command(flatten)]
    picture: PictureArgs,
    /// Frames a second; default: from asset.bin.
    #[arg(long, value_name = "N")]
    fps: Option<f32>,
    /// The .gif or .apng file to write.
    #[arg(short, long, value_name = "CLIP.gif")]
    output: PathBuf,
}

impl FramesCommand {
    /// Write the animation and a line about it.
    pub fn run(self, out: &mut dyn Write) -> Result<(), CliError> {
        let path = &self.output;
        let format = Format::of(path).ok_or_else(|| {
            CliError::Usage(format!("{}: not a .gif or .apng file", path.display()))
        })?;
        let dump =
            Dump::read(&self.dir, self.picture.size).map_err(|e| CliError::Usage(e.to_string()))?;
        let fps = self.fps.or(dump.fps()).ok_or_else(|| {
            CliError::Usage(format!(
                "{}: no asset.bin with a clip to time the frames by; give --fps",
                self.dir.display()
            ))
        })?;
        let (w, h) = (
            u32::from(self.picture.size.0),
            u32::from(self.picture.size.1),
        );
        output::write(path, |file| {
            let content = |e: AnimationError| OutputError::Content(e.to_string());
            let mut anim =
                Animation::new(format, file, (w, h), fps, dump.pictures.len()).map_err(content)?;
            for p in &dump.pictures {
                anim.push(p).map_err(content)?;
            }
            anim.finish().map_err(content)
        })?;
        writeln!(
            out,
            "{}: {w}x{h}, {} frames at {fps:.3} a second",
            path.display(),
            dump.pictures.len()
        )?;
        Ok(())
    }
}
