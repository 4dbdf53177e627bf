//! `--correctives FILE [--regularise LAMBDA]` (`skin pose`, `skin render`): pose-space
//! deformation's correctives weighted at the frame's pose. The file ([`crate::psd::file`])
//! is resolved against the model, solved in `f64` ([`crate::psd::solve`], its condition
//! number reported on standard error), and evaluated by skin-core's RBF
//! ([`skin_core::psd::Rbf`]) on the frame's local rotations in the lane of `--arith`; the
//! weights replace the corrective targets' in every node that draws the mesh (`skin pose`),
//! or are held through the rig like `--weights` for one picture (`skin render`).

use std::io::Write;
use std::path::PathBuf;

use clap::Args;
use skin_core::num::Fx;
use skin_core::psd::{Rbf, RbfReal};

use super::error::CliError;
use crate::pose::animate::frame;
use crate::pose::morph::{weights, with_weights, NodeWeights};
use crate::pose::{fixed_unit, LaneKind, PoseError};
use crate::psd::file::CorrectivesFile;
use crate::psd::{resolve, solve, Correctives as Resolved, Sample};
use crate::rig::Rig;

/// The corrective options.
#[derive(Debug, Args)]
pub struct CorrectivesArgs {
    /// Corrective morph targets weighted by the pose (pose-space deformation): a JSON file
    /// naming the mesh, the driving joints, σ and the poses the targets were sculpted at
    /// (docs/DEFORMERS.md).
    #[arg(long, value_name = "FILE")]
    pub correctives: Option<PathBuf>,
    /// Solve a singular (or badly conditioned) corrective system as (K + λI)⁻¹.
    #[arg(
        long,
        value_name = "LAMBDA",
        requires = "correctives",
        allow_hyphen_values = true
    )]
    pub regularise: Option<f64>,
}

fn usage(what: String) -> CliError {
    CliError::Usage(format!("correctives: {what}"))
}

fn resolved(
    rig: &Rig,
    file: &CorrectivesFile,
    regularise: Option<f64>,
) -> Result<Resolved, CliError> {
    let mesh = match &file.mesh {
        Some(m) => rig
            .meshes
            .iter()
            .position(|x| x.name.as_deref() == Some(m.as_str()))
            .or_else(|| m.parse().ok().filter(|&i| i < rig.meshes.len()))
            .ok_or_else(|| usage(format!("mesh '{m}' is not a mesh of the model")))?,
        None => {
            let with: Vec<usize> = (0..rig.meshes.len())
                .filter(|&m| rig.meshes[m].targets() > 0)
                .collect();
            match with[..] {
                [m] => m,
                _ => {
                    return Err(usage(format!(
                        "{} meshes have morph targets: name one with \"mesh\"",
                        with.len()
                    )))
                }
            }
        }
    };
    let nodes: Vec<Option<&str>> = rig.nodes.iter().map(|n| n.name.as_deref()).collect();
    let joints: Vec<&str> = file.joints.iter().map(String::as_str).collect();
    let drivers = resolve(&joints, &nodes).map_err(|e| usage(e.to_string()))?;
    let m = &rig.meshes[mesh];
    let target = |name: &str| {
        m.target_names
            .iter()
            .position(|t| t == name)
            .or_else(|| name.parse().ok().filter(|&i| i < m.targets()))
            .ok_or_else(|| {
                usage(format!(
                    "target '{name}' is not a morph target of mesh {mesh} ({} targets)",
                    m.targets()
                ))
            })
    };
    let mut targets = Vec::new();
    for p in &file.poses {
        for (name, _) in &p.targets {
            targets.push(target(name)?);
        }
    }
    targets.sort_unstable();
    targets.dedup();
    let rest = Sample {
        rotations: drivers
            .iter()
            .map(|&d| rig.nodes[usize::from(d)].local.rotation.map(f64::from))
            .collect(),
        weights: vec![0.0; targets.len()],
    };
    let mut samples = vec![rest];
    for p in &file.poses {
        let mut weights = vec![0.0; targets.len()];
        for (name, w) in &p.targets {
            let t = target(name)?;
            if let Some(i) = targets.iter().position(|&x| x == t) {
                weights[i] = *w;
            }
        }
        samples.push(Sample {
            rotations: p.rotations.clone(),
            weights,
        });
    }
    let solution =
        solve(&samples, targets.len(), file.sigma, regularise).map_err(|e| usage(e.to_string()))?;
    Ok(Resolved {
        mesh,
        drivers,
        targets,
        solution,
    })
}

/// The correctives' weights at `locals` in format `R`.
fn evaluate<R: RbfReal>(
    rig: &Rig,
    r: &Resolved,
    locals: &[skin_core::transform::Transform<R>],
) -> Result<Vec<f32>, CliError> {
    let (centres, weights) = r.solution.lane::<R>();
    let rbf = Rbf::new(
        &r.drivers,
        &centres,
        &weights,
        r.targets.len(),
        r.solution.sigma as f32,
        rig.nodes.len(),
    )
    .map_err(|e| usage(e.to_string()))?;
    let mut out = vec![0.0f32; r.targets.len()];
    rbf.feature(locals)
        .and_then(|phi| rbf.weights(&phi, &mut out))
        .map_err(|e| usage(e.to_string()))?;
    Ok(out)
}

impl CorrectivesArgs {
    /// The file resolved against `rig` and solved, the solve reported on `warn`; `None`
    /// without a file.
    pub fn solved(&self, rig: &Rig, warn: &mut dyn Write) -> Result<Option<Resolved>, CliError> {
        let Some(path) = &self.correctives else {
            return Ok(None);
        };
        let text = std::fs::read_to_string(path)
            .map_err(|e| CliError::Usage(format!("cannot read {}: {e}", path.display())))?;
        let file = CorrectivesFile::parse(&text).map_err(CliError::Usage)?;
        let r = resolved(rig, &file, self.regularise)?;
        writeln!(
            warn,
            "correctives: {} targets, {} poses with the rest pose, condition number {:.4e}{}",
            r.targets.len(),
            r.solution.centres.len() / r.drivers.len(),
            r.solution.condition,
            match r.solution.lambda {
                0.0 => String::new(),
                l => format!(", regularised by {l}"),
            }
        )?;
        Ok(Some(r))
    }

    /// Replace the corrective targets' weights in `weights` (per node) by their RBF's at
    /// `frame` in `lane`, and report the solve on `warn`; the weights of the first node
    /// drawing the corrected mesh. Nothing to do without a file.
    pub fn apply(
        &self,
        rig: &Rig,
        anim: Option<(usize, f32)>,
        lane: LaneKind,
        weights: &mut NodeWeights,
        warn: &mut dyn Write,
    ) -> Result<Option<Vec<f32>>, CliError> {
        let Some(r) = self.solved(rig, warn)? else {
            return Ok(None);
        };
        let pose = |e: PoseError| usage(e.to_string());
        let w = match lane {
            LaneKind::F32 => evaluate::<f32>(rig, &r, &frame::<f32>(rig, anim, 0).map_err(pose)?)?,
            LaneKind::Fixed => {
                let k = fixed_unit(rig).map_err(pose)?;
                evaluate::<Fx>(rig, &r, &frame::<Fx>(rig, anim, k).map_err(pose)?)?
            }
        };
        let mut first = None;
        for (n, node) in rig.nodes.iter().enumerate() {
            if node.mesh == Some(r.mesh) {
                for (&t, &v) in r.targets.iter().zip(&w) {
                    weights[n][t] = v;
                }
                first.get_or_insert_with(|| weights[n].clone());
            }
        }
        Ok(first)
    }

    /// `rig` holding, at rest and through every clip, the weights of the corrected mesh at
    /// `frame` (its other targets' as the frame has them) for one picture of it; `rig` as it
    /// is without a file. An animation (`animation`) is refused: the weights are one
    /// frame's.
    pub fn held(
        &self,
        rig: Rig,
        frame: Option<(usize, f32)>,
        lane: LaneKind,
        animation: bool,
        warn: &mut dyn Write,
    ) -> Result<Rig, CliError> {
        if self.correctives.is_none() {
            return Ok(rig);
        }
        if animation {
            return Err(CliError::Usage(
                "--correctives draws one picture: the corrective weights are one frame's".into(),
            ));
        }
        let mut nodes = weights(&rig, frame);
        match self.apply(&rig, frame, lane, &mut nodes, warn)? {
            Some(w) => with_weights(&rig, &w).map_err(|e| usage(e.to_string())),
            None => Ok(rig),
        }
    }
}
