//! The arguments several subcommands share, each group a clap [`Args`] struct flattened
//! into the subcommands that take it, and resolved against the model in one place.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};
use skin_core::budget::{Budget, Layout};

use super::error::CliError;
use crate::picture::Picture;
use crate::pose::{LaneKind, PoseError, Skinning};
use crate::rig::warning::{summary, Warning};
use crate::rig::Rig;

/// The model a subcommand reads.
#[derive(Debug, Args)]
pub struct ModelArg {
    /// A .gltf or .glb file.
    pub model: PathBuf,
    /// Read buffer files that the model names by absolute paths, `..` or other schemes
    /// (by default only files in the model's folder and below are read, as viewers do).
    #[arg(long)]
    pub allow_outside_uris: bool,
    /// List every importer warning in full (by default: one line per kind, with a count and
    /// the first few meshes or animations it concerns).
    #[arg(long)]
    pub verbose: bool,
    /// The normals given to triangles the file has none for: smooth (angle-weighted vertex
    /// normals) or flat (each triangle's own normal, its vertices unwelded).
    #[arg(long, value_enum, default_value_t = NormalsArg::Smooth)]
    pub normals: NormalsArg,
}

/// `--normals`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum NormalsArg {
    /// Smooth angle-weighted vertex normals.
    #[default]
    Smooth,
    /// Flat face normals (faceted shading).
    Flat,
}

impl From<NormalsArg> for crate::import::Generated {
    fn from(n: NormalsArg) -> Self {
        match n {
            NormalsArg::Smooth => Self::Smooth,
            NormalsArg::Flat => Self::Flat,
        }
    }
}

impl ModelArg {
    /// Import the model, writing the importer's warnings to `warn` (summarised by kind, and
    /// without notes such as generated normals, unless `--verbose`).
    pub fn load(&self, warn: &mut dyn Write) -> Result<Rig, CliError> {
        let options = crate::import::Options {
            allow_outside_uris: self.allow_outside_uris,
            normals: self.normals.into(),
        };
        let rig = crate::import::from_path_with(&self.model, &options).map_err(|source| {
            CliError::Import {
                path: self.path(),
                source,
            }
        })?;
        let shown: Vec<Warning> = rig
            .warnings
            .iter()
            .filter(|w| self.verbose || !w.kind.is_note())
            .cloned()
            .collect();
        for w in summary(&shown, self.verbose) {
            writeln!(warn, "skin: warning: {w}")?;
        }
        Ok(rig)
    }

    /// The path as the user gave it, for messages.
    pub fn path(&self) -> String {
        self.model.display().to_string()
    }

    /// The file's name without its folder, for reports.
    pub fn file_name(&self) -> String {
        self.model
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| self.path())
    }

    /// `source` as an error of this model.
    pub fn pose_error(&self, source: PoseError) -> CliError {
        CliError::Pose {
            path: self.path(),
            source,
        }
    }
}

/// `--weights w0,w1,…`: morph-target weights for every mesh node with targets, in place of
/// the file's and the clip's.
#[derive(Debug, Args)]
pub struct WeightsArg {
    /// Morph-target weights for every mesh with targets (each must have this many), each
    /// from -2 to 2 - 2^-14 (the fixed lane's weights), replacing the file's defaults and any
    /// animated weights; default: the file's, animated.
    #[arg(
        long,
        value_name = "W0,W1,…",
        value_delimiter = ',',
        allow_hyphen_values = true
    )]
    pub weights: Option<Vec<f32>>,
}

impl WeightsArg {
    /// Every node's morph-target weights at `frame` of `rig`, or `--weights` for all.
    pub fn at(
        &self,
        rig: &Rig,
        frame: Option<(usize, f32)>,
    ) -> Result<crate::pose::morph::NodeWeights, CliError> {
        let mut nodes = crate::pose::morph::weights(rig, frame);
        if let Some(weights) = &self.weights {
            crate::pose::morph::override_weights(rig, &mut nodes, weights)
                .map_err(|e| CliError::Usage(e.to_string()))?;
        }
        Ok(nodes)
    }

    /// `rig` playing `--weights` at rest and through every clip
    /// ([`crate::pose::morph::with_weights`]), or `rig` as it is without them.
    pub fn held(&self, rig: Rig) -> Result<Rig, CliError> {
        match &self.weights {
            Some(weights) => crate::pose::morph::with_weights(&rig, weights)
                .map_err(|e| CliError::Usage(e.to_string())),
            None => Ok(rig),
        }
    }
}

/// One frame: `--anim` (none: the rest pose) at `--time`.
#[derive(Debug, Args)]
pub struct ClipArgs {
    /// Animation index or name; default: the rest pose.
    #[arg(long, value_name = "INDEX|NAME")]
    pub anim: Option<String>,
    /// The rest pose: every node's transform as the file stores it, no animation (what
    /// leaving out --anim gives, said explicitly).
    #[arg(long, conflicts_with = "anim")]
    pub rest: bool,
    /// Time in seconds within the animation (may be negative, and must be finite; `pose` holds the clip's first
    /// or last key outside it, `render` loops over it).
    #[arg(
        long,
        default_value_t = 0.0,
        value_name = "SECONDS",
        allow_hyphen_values = true
    )]
    pub time: f32,
}

impl ClipArgs {
    /// The frame in `rig`: `None` for the rest pose, else `(clip, time)`; a time that is not
    /// finite is refused either way.
    pub fn frame(&self, rig: &Rig) -> Result<Option<(usize, f32)>, PoseError> {
        if !self.time.is_finite() {
            return Err(PoseError::BadTime(self.time));
        }
        match (&self.anim, self.rest) {
            (Some(a), false) => Ok(Some((find_clip(rig, a)?, self.time))),
            _ => Ok(None),
        }
    }
}

/// Some of the model's clips: `--anim`, repeated.
#[derive(Debug, Args)]
pub struct ClipsArgs {
    /// Only this animation (index or name; repeatable); default: all.
    #[arg(long = "anim", value_name = "INDEX|NAME")]
    pub anims: Vec<String>,
}

impl ClipsArgs {
    /// The clips of `rig` named, each once; `None` (every clip) when none is.
    pub fn clips(&self, rig: &Rig) -> Result<Option<Vec<usize>>, PoseError> {
        if self.anims.is_empty() {
            return Ok(None);
        }
        let mut clips = Vec::with_capacity(self.anims.len());
        for a in &self.anims {
            let c = find_clip(rig, a)?;
            // A clip named twice (by index and by name, say) is one clip.
            if !clips.contains(&c) {
                clips.push(c);
            }
        }
        Ok(Some(clips))
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

/// The lane. The flag keeps the name users know, `--arith`; its values are the lanes.
#[derive(Debug, Args)]
pub struct LaneArgs {
    /// The lane (number format) of the skinning: f32, or fixed point as the firmware's
    /// fixed lane computes it (the GPU renders in f32 only).
    #[arg(long = "arith", value_name = "LANE", value_enum, default_value_t = LaneArg::F32)]
    pub lane: LaneArg,
}

/// A lane on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum LaneArg {
    /// 32-bit float throughout.
    F32,
    /// Fixed point: I8F24 pose maths, I2F14 skinning lane, positions in asset units.
    Fixed,
}

impl From<LaneArg> for LaneKind {
    fn from(a: LaneArg) -> LaneKind {
        match a {
            LaneArg::F32 => LaneKind::F32,
            LaneArg::Fixed => LaneKind::Fixed,
        }
    }
}

/// A skinning method on the command line (`--skinning`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SkinningArg {
    /// Linear blend skinning.
    Lbs,
    /// Dual quaternion skinning (joints with scale or shear: split in f32, in fixed point
    /// and on the GPU; refused by the baker).
    Dqs,
}

impl From<SkinningArg> for Skinning {
    fn from(a: SkinningArg) -> Skinning {
        match a {
            SkinningArg::Lbs => Skinning::Lbs,
            SkinningArg::Dqs => Skinning::Dqs,
        }
    }
}

/// The size of a picture.
#[derive(Debug, Args)]
pub struct PictureArgs {
    /// Picture size.
    #[arg(long, default_value = "240x240", value_name = "WxH", value_parser = parse_size)]
    pub size: (u16, u16),
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

/// The budget preset called `name` (each subcommand has its own `--budget` default).
pub fn preset(name: &str) -> Result<Budget, CliError> {
    Ok(crate::inspect::budgets(&[name.to_owned()]).map_err(CliError::Usage)?[0])
}

/// Write `picture` to the PNG file `path`.
pub fn save(picture: &Picture, path: &Path) -> Result<(), CliError> {
    picture
        .save_png(path)
        .map_err(|e| CliError::Usage(format!("cannot write {}: {e}", path.display())))
}
