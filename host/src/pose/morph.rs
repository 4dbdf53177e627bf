//! Morph targets in the pose: each mesh node's weights at a frame (the node's or its mesh's
//! defaults, replaced by a clip's weights channel), and a primitive's positions and normals
//! moved by them in bind space, before skinning: `v = base + Σ wᵢ·deltaᵢ`, in `f32`, targets
//! in file order.

use std::borrow::Cow;
use std::ops::RangeInclusive;

use super::error::PoseError;
use crate::rig::{Interpolation, Primitive, Rig, WeightChannel};

/// Morph-target weights, indexed by node (empty for a node whose mesh has no targets).
pub type NodeWeights = Vec<Vec<f32>>;

/// Every node's morph-target weights at the rest pose (`anim` = `None`) or in clip `c` at
/// `t` seconds (`Some((c, t))`), where a weights channel holds its first key before it and
/// its last after it, as [`super::pose()`] does for transforms. A clip that does not exist
/// animates nothing.
///
/// ```
/// # use skin_host::rig::Rig;
/// let rig = Rig { nodes: vec![], order: vec![], skins: vec![], meshes: vec![],
///     clips: vec![], warnings: vec![] };
/// assert!(skin_host::pose::morph::weights(&rig, None).is_empty());
/// ```
pub fn weights(rig: &Rig, anim: Option<(usize, f32)>) -> NodeWeights {
    let mut out: NodeWeights = rig
        .nodes
        .iter()
        .map(|n| match n.mesh {
            Some(m) => n
                .weights
                .clone()
                .unwrap_or_else(|| rig.meshes[m].weights.clone()),
            None => Vec::new(),
        })
        .collect();
    if let Some(clip) = anim.and_then(|(c, _)| rig.clips.get(c)) {
        let t = anim.map_or(0.0, |(_, t)| t);
        for ch in &clip.weights {
            out[ch.node] = sample(ch, t);
        }
    }
    out
}

/// The weights `--weights` may give: the fixed lane's `I2F14` weights, −2 to 2 − 2⁻¹⁴, so
/// that weights given to one command work on every path (`pose --arith fixed`, the asset,
/// the firmware).
pub const WEIGHTS: RangeInclusive<f32> = -2.0..=(2.0 - 1.0 / 16384.0);

/// Check weights given for every node whose mesh has targets (`--weights`): each a finite
/// number within [`WEIGHTS`], and as many as each such mesh's targets.
///
/// ```
/// # use skin_host::rig::Rig;
/// let rig = Rig { nodes: vec![], order: vec![], skins: vec![], meshes: vec![],
///     clips: vec![], warnings: vec![] };
/// let e = skin_host::pose::morph::check_weights(&rig, &[0.5, f32::NAN]).unwrap_err();
/// assert_eq!(e.to_string(), "--weights: weight 1 is NaN, not a number from -2 to 1.9999390");
/// ```
pub fn check_weights(rig: &Rig, weights: &[f32]) -> Result<(), PoseError> {
    if let Some((index, &value)) = weights
        .iter()
        .enumerate()
        .find(|&(_, w)| !WEIGHTS.contains(w))
    {
        return Err(PoseError::MorphWeight {
            index,
            value,
            low: *WEIGHTS.start(),
            high: *WEIGHTS.end(),
        });
    }
    for (node, mesh, _) in rig.mesh_nodes() {
        let targets = rig.meshes[mesh].targets();
        if targets > 0 && targets != weights.len() {
            return Err(PoseError::MorphWeights {
                given: weights.len(),
                node,
                mesh,
                targets,
            });
        }
    }
    Ok(())
}

/// Replace the weights of every node whose mesh has targets with `weights` (`skin pose
/// --weights`), checked by [`check_weights`].
pub fn override_weights(
    rig: &Rig,
    nodes: &mut NodeWeights,
    weights: &[f32],
) -> Result<(), PoseError> {
    check_weights(rig, weights)?;
    for w in nodes.iter_mut().filter(|w| !w.is_empty()) {
        w.copy_from_slice(weights);
    }
    Ok(())
}

/// `rig` with every node whose mesh has targets at `weights` (checked by
/// [`check_weights`]) at rest and through every clip: its node weights replaced, and each
/// weights channel holding them at every key (STEP, so sampled exactly; its key times kept,
/// so no clip's duration changes). Every path that reads the rig — the oracle, the pose,
/// the GPU, and the asset baked from it (the CPU renderer, the firmware) — then plays them
/// (`skin render --weights`, `skin validate --weights`).
///
/// ```
/// # use skin_host::rig::Rig;
/// let rig = Rig { nodes: vec![], order: vec![], skins: vec![], meshes: vec![],
///     clips: vec![], warnings: vec![] };
/// let held = skin_host::pose::morph::with_weights(&rig, &[])?;
/// assert_eq!(held, rig);
/// # Ok::<(), skin_host::pose::PoseError>(())
/// ```
pub fn with_weights(rig: &Rig, weights: &[f32]) -> Result<Rig, PoseError> {
    check_weights(rig, weights)?;
    let mut out = rig.clone();
    for node in &mut out.nodes {
        if node.mesh.is_some_and(|m| rig.meshes[m].targets() > 0) {
            node.weights = Some(weights.to_vec());
        }
    }
    for ch in out.clips.iter_mut().flat_map(|c| &mut c.weights) {
        ch.interpolation = Interpolation::Step;
        ch.values = weights.repeat(ch.times.len());
    }
    Ok(out)
}

/// A weights channel at `t` seconds: one weight a target.
fn sample(ch: &WeightChannel, t: f32) -> Vec<f32> {
    let n = ch.targets;
    let cubic = ch.interpolation == Interpolation::CubicSpline;
    // Part 0: in-tangents, 1: values, 2: out-tangents (cubic); values only otherwise.
    let part = |k: usize, p: usize| -> &[f32] {
        let at = if cubic { (3 * k + p) * n } else { k * n };
        &ch.values[at..at + n]
    };
    let value = |k: usize| part(k, usize::from(cubic)).to_vec();
    let last = ch.times.len() - 1;
    if t <= ch.times[0] {
        return value(0);
    }
    if t >= ch.times[last] {
        return value(last);
    }
    let k = ch.times.partition_point(|&x| x <= t) - 1;
    let dt = ch.times[k + 1] - ch.times[k];
    let s = (t - ch.times[k]) / dt;
    match ch.interpolation {
        Interpolation::Step => value(k),
        Interpolation::Linear => {
            let (a, b) = (part(k, 0), part(k + 1, 0));
            (0..n).map(|i| a[i] + s * (b[i] - a[i])).collect()
        }
        Interpolation::CubicSpline => {
            let (p0, m0, p1, m1) = (part(k, 1), part(k, 2), part(k + 1, 1), part(k + 1, 0));
            let (s2, s3) = (s * s, s * s * s);
            (0..n)
                .map(|i| {
                    (2.0 * s3 - 3.0 * s2 + 1.0) * p0[i]
                        + (s3 - 2.0 * s2 + s) * dt * m0[i]
                        + (-2.0 * s3 + 3.0 * s2) * p1[i]
                        + (s3 - s2) * dt * m1[i]
                })
                .collect()
        }
    }
}

/// `prim` with its positions and normals moved by its targets at `weights` (itself when no
/// weight is non-zero). Normals are not renormalised here: skinning renormalises them.
pub fn morphed<'a>(prim: &'a Primitive, weights: &[f32]) -> Cow<'a, Primitive> {
    let active: Vec<(usize, f32)> = weights
        .iter()
        .copied()
        .enumerate()
        .filter(|&(_, w)| w != 0.0)
        .collect();
    if active.is_empty() || prim.targets.is_empty() {
        return Cow::Borrowed(prim);
    }
    let mut out = prim.clone();
    for &(t, w) in &active {
        let target = &prim.targets[t];
        add(&mut out.positions, target.positions.as_deref(), w);
        if let Some(normals) = &mut out.normals {
            add(normals, target.normals.as_deref(), w);
        }
    }
    Cow::Owned(out)
}

/// `base[v] += w · deltas[v]` for every vertex.
fn add(base: &mut [[f32; 3]], deltas: Option<&[[f32; 3]]>, w: f32) {
    let Some(deltas) = deltas else { return };
    for (b, d) in base.iter_mut().zip(deltas) {
        for i in 0..3 {
            b[i] += w * d[i];
        }
    }
}
