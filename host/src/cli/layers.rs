//! `skin pose`'s animation-layer options, parsed and resolved against the model's clips and
//! joint names (the syntax is in the README's "Animation layer on the command line").

use clap::Args;

use super::args::find_clip;
use super::error::CliError;
use crate::pose::layers::{node_label, Layers, Look, Reach, Walking, MAX_LAYERS};
use crate::rig::Rig;

/// The animation layer on the frame: blends, a mask, an additive clip, IK, look-at.
#[derive(Debug, Default, Args)]
pub struct LayerArgs {
    /// Blend clips at --time over the rest pose, in place of --anim: CLIP:WEIGHT,… (a clip
    /// by index or name, a weight in [0, 1]; up to 8).
    #[arg(
        long,
        value_name = "CLIP:WEIGHT,...",
        value_delimiter = ',',
        conflicts_with = "anim"
    )]
    blend: Vec<String>,
    /// Add a clip's difference from its start, with a weight in [0, 1].
    #[arg(long, value_name = "CLIP:WEIGHT")]
    additive: Option<String>,
    /// Joints (names or node indices) below which the blend's layers after the first, and
    /// the additive clip, act (e.g. the upper body from a second clip).
    #[arg(long, value_name = "JOINT,...", value_delimiter = ',')]
    mask: Vec<String>,
    /// Two-bone IK: the chain ending at END_JOINT (with its parent and grandparent) reaches
    /// for the point x,y,z (model units, glTF world space), its middle joint bending towards
    /// pole=x,y,z (default: where the middle joint is). Repeatable.
    #[arg(long, value_name = "END_JOINT=X,Y,Z[,pole=X,Y,Z]")]
    ik: Vec<String>,
    /// A procedural walk along +Z at SPEED (units a second) with strides of STRIDE units,
    /// at --time; needs --walk-joints.
    #[arg(
        long,
        value_name = "SPEED,STRIDE",
        value_delimiter = ',',
        requires = "walk_joints"
    )]
    walk: Vec<f32>,
    /// The walk's pelvis and left and right ankles (each leg: the ankle, its parent and
    /// grandparent).
    #[arg(
        long,
        value_name = "PELVIS,LEFT_ANKLE,RIGHT_ANKLE",
        value_delimiter = ',',
        requires = "walk"
    )]
    walk_joints: Vec<String>,
    /// The walk's ground: height AMPLITUDE · sin(2π z / WAVELENGTH), model units (default:
    /// flat).
    #[arg(
        long,
        value_name = "AMPLITUDE,WAVELENGTH",
        value_delimiter = ',',
        requires = "walk"
    )]
    ground: Vec<f32>,
    /// Turn a joint so that its forward axis (its own +Z, or forward=x,y,z in its frame)
    /// points at x,y,z (model units), rolled towards the world's +Y. Repeatable; after --ik.
    #[arg(long = "look-at", value_name = "JOINT=X,Y,Z[,forward=X,Y,Z]")]
    look_at: Vec<String>,
}

impl LayerArgs {
    /// The options resolved against `rig`.
    pub fn layers(&self, rig: &Rig) -> Result<Layers, CliError> {
        if self.blend.len() > MAX_LAYERS {
            return Err(usage(format!(
                "--blend: {} clips, more than the {MAX_LAYERS} a blend takes",
                self.blend.len()
            )));
        }
        let blend = self
            .blend
            .iter()
            .map(|b| weighted_clip(rig, "--blend", b))
            .collect::<Result<_, _>>()?;
        let additive = self
            .additive
            .as_deref()
            .map(|a| weighted_clip(rig, "--additive", a))
            .transpose()?;
        let mask = self
            .mask
            .iter()
            .map(|j| masked(rig, j))
            .collect::<Result<_, _>>()?;
        let reach = self
            .ik
            .iter()
            .map(|s| {
                let (end, target, extra) = placed(rig, "--ik", s, "pole")?;
                Ok(Reach {
                    end,
                    target,
                    pole: extra,
                })
            })
            .collect::<Result<_, CliError>>()?;
        let look = self
            .look_at
            .iter()
            .map(|s| {
                let (joint, target, extra) = placed(rig, "--look-at", s, "forward")?;
                Ok(Look {
                    joint,
                    target,
                    forward: extra.unwrap_or([0.0, 0.0, 1.0]),
                })
            })
            .collect::<Result<_, CliError>>()?;
        let walk = match (self.walk.as_slice(), self.walk_joints.as_slice()) {
            ([speed, stride], [pelvis, left, right]) => {
                let (amplitude, wavelength) = match self.ground.as_slice() {
                    [a, w] => (*a, *w),
                    _ => (0.0, 1.0),
                };
                for (what, v) in [
                    ("speed", *speed),
                    ("stride", *stride),
                    ("wavelength", wavelength),
                ] {
                    if !(v.is_finite() && v > 0.0) {
                        return Err(usage(format!(
                            "--walk: the {what} {v} is not a finite, positive number"
                        )));
                    }
                }
                if !amplitude.is_finite() {
                    return Err(usage(format!(
                        "--ground: the amplitude {amplitude} is not a finite number"
                    )));
                }
                Some(Walking {
                    speed: *speed,
                    stride: *stride,
                    pelvis: joint(rig, "--walk-joints", pelvis)?,
                    ankles: [
                        joint(rig, "--walk-joints", left)?,
                        joint(rig, "--walk-joints", right)?,
                    ],
                    ground: (amplitude, wavelength),
                })
            }
            ([], []) => None,
            _ => {
                return Err(usage(format!(
                    "--walk takes SPEED,STRIDE and --walk-joints PELVIS,LEFT_ANKLE,RIGHT_ANKLE \
                     (given {} and {} values)",
                    self.walk.len(),
                    self.walk_joints.len()
                )))
            }
        };
        if !matches!(self.ground.len(), 0 | 2) {
            return Err(usage("--ground takes AMPLITUDE,WAVELENGTH".into()));
        }
        Ok(Layers {
            blend,
            mask,
            additive,
            walk,
            reach,
            look,
        })
    }
}

fn usage(message: String) -> CliError {
    CliError::Usage(message)
}

/// `CLIP:WEIGHT`: the clip (index or name; the name may hold colons, the weight follows
/// the last) and a weight in [0, 1].
fn weighted_clip(rig: &Rig, option: &str, s: &str) -> Result<(usize, f32), CliError> {
    let (clip, weight) = s
        .rsplit_once(':')
        .ok_or_else(|| usage(format!("{option} {s:?}: expected CLIP:WEIGHT")))?;
    let clip = find_clip(rig, clip).map_err(|e| usage(format!("{option} {s:?}: {e}")))?;
    let w: f32 = weight.trim().parse().map_err(|_| {
        usage(format!(
            "{option} {s:?}: the weight {weight:?} is not a number"
        ))
    })?;
    if !(0.0..=1.0).contains(&w) {
        return Err(usage(format!(
            "{option} {s:?}: the weight {w} is outside [0, 1]"
        )));
    }
    Ok((clip, w))
}

/// A joint by name, else by node index.
fn joint(rig: &Rig, option: &str, name: &str) -> Result<usize, CliError> {
    if let Some(n) = rig
        .nodes
        .iter()
        .position(|n| n.name.as_deref() == Some(name))
    {
        return Ok(n);
    }
    match name.parse::<usize>() {
        Ok(n) if n < rig.nodes.len() => Ok(n),
        _ => Err(usage(format!(
            "{option}: no joint named {name:?} (nor a node index below {})",
            rig.nodes.len()
        ))),
    }
}

/// A `--mask` joint: a node with a skin's joint or an unskinned mesh (which its node
/// places) at or below it; a mask on any other node (a skinned mesh's own node, whose
/// transform skinning ignores, or a node off the skeletons) would move no vertex.
fn masked(rig: &Rig, name: &str) -> Result<usize, CliError> {
    let node = joint(rig, "--mask", name)?;
    let below = |mut at: Option<usize>| {
        while let Some(n) = at {
            if n == node {
                return true;
            }
            at = rig.nodes[n].parent;
        }
        false
    };
    let joints = rig.skins.iter().flat_map(|s| s.joints.iter().copied());
    let rigid = (0..rig.nodes.len()).filter(|&n| {
        let n = &rig.nodes[n];
        n.mesh.is_some() && n.skin.is_none()
    });
    if joints.chain(rigid).any(|j| below(Some(j))) {
        return Ok(node);
    }
    Err(usage(format!(
        "--mask: {} is not a joint of the model's skeletons (nor an unskinned mesh's node), \
         nor above one: it would mask nothing",
        node_label(rig, node)
    )))
}

/// A joint, a point, and an optional second point.
type Placed = (usize, [f32; 3], Option<[f32; 3]>);

/// `JOINT=X,Y,Z[,KEY=X,Y,Z]`: the joint, the point, and the optional second point.
fn placed(rig: &Rig, option: &str, s: &str, key: &str) -> Result<Placed, CliError> {
    let syntax = || {
        usage(format!(
            "{option} {s:?}: expected JOINT=X,Y,Z[,{key}=X,Y,Z]"
        ))
    };
    let (name, rest) = s.split_once('=').ok_or_else(syntax)?;
    let at = joint(rig, option, name)?;
    let (point, extra) = match rest.split_once(&format!(",{key}=")) {
        Some((p, e)) => (p, Some(e)),
        None => (rest, None),
    };
    let label = node_label(rig, at);
    let parse = |what: &str, p: &str| -> Result<[f32; 3], CliError> {
        let v: Vec<&str> = p.split(',').collect();
        if v.len() != 3 {
            return Err(syntax());
        }
        let mut out = [0.0f32; 3];
        for (o, c) in out.iter_mut().zip(v) {
            *o = c.trim().parse().map_err(|_| syntax())?;
            if !o.is_finite() {
                return Err(usage(format!(
                    "{option} {label}: the {what} coordinate {o} is not a finite number"
                )));
            }
        }
        Ok(out)
    };
    let point = parse("target", point)?;
    let extra = extra.map(|e| parse(key, e)).transpose()?;
    Ok((at, point, extra))
}
