//! How close envelope weights come to the artist's: per vertex the weight difference
//! `½·Σⱼ |w_env(j) − w_art(j)|` (0 for equal weights, 1 for disjoint joints), and the
//! distance between the two skins' posed vertices over each clip, as a share of the model's
//! extent (the diagonal of its skinned rest pose's bounding box).

use super::weigh::Weighted;
use crate::pose::{pose, LaneKind, PoseError, PosedPrimitive};
use crate::rig::{Influence4, Rig};

/// The pose error of one clip (or the rest pose).
#[derive(Clone, Debug, PartialEq)]
pub struct PoseGap {
    /// The clip's name (`animation N` without one), or `rest`.
    pub clip: String,
    /// Mean vertex distance over the frames, a share of the extent.
    pub mean: f64,
    /// Largest vertex distance, a share of the extent.
    pub max: f64,
}

/// The comparison with the artist's weights.
#[derive(Clone, Debug, PartialEq)]
pub struct Study {
    /// Vertices compared (those the file weighted).
    pub vertices: usize,
    /// Mean weight difference.
    pub weight_mean: f64,
    /// Largest weight difference.
    pub weight_max: f64,
    /// The rest pose, then each clip.
    pub poses: Vec<PoseGap>,
}

/// `½·Σⱼ |a(j) − b(j)|` over the joints of two influences.
pub fn weight_difference(a: &Influence4, b: &Influence4) -> f64 {
    let mut joints: Vec<u16> = a.joints.iter().chain(&b.joints).copied().collect();
    joints.sort_unstable();
    joints.dedup();
    let of = |i: &Influence4, j: u16| -> f64 {
        (0..4)
            .filter(|&k| i.joints[k] == j)
            .map(|k| f64::from(i.weights[k]))
            .sum()
    };
    joints
        .iter()
        .map(|&j| (of(a, j) - of(b, j)).abs())
        .sum::<f64>()
        / 2.0
}

/// Compare `weighted` with the artist's weights of `artist` (the rig it was weighed from)
/// at `frames` evenly spaced times of each clip; `None` when the file had no weights on
/// any weighed primitive.
pub fn study(artist: &Rig, weighted: &Weighted, frames: usize) -> Result<Option<Study>, PoseError> {
    let compared: Vec<(usize, usize)> = weighted
        .primitives
        .iter()
        .copied()
        .filter(|&(m, p)| artist.meshes[m].primitives[p].influences.is_some())
        .collect();
    if compared.is_empty() {
        return Ok(None);
    }
    let (mut sum, mut max, mut vertices) = (0.0, 0.0f64, 0);
    for &(m, p) in &compared {
        let a = artist.meshes[m].primitives[p]
            .influences
            .as_deref()
            .unwrap_or_default();
        let b = weighted.rig.meshes[m].primitives[p]
            .influences
            .as_deref()
            .unwrap_or_default();
        for (a, b) in a.iter().zip(b) {
            let d = weight_difference(a, b);
            sum += d;
            max = max.max(d);
            vertices += 1;
        }
    }
    let keep = |posed: Vec<PosedPrimitive>| -> Vec<PosedPrimitive> {
        posed
            .into_iter()
            .filter(|b| compared.contains(&(b.mesh, b.primitive)))
            .collect()
    };
    let rest = keep(pose(artist, None, LaneKind::F32)?);
    let extent = extent(&rest).max(f64::MIN_POSITIVE);
    let mut poses = Vec::new();
    let mut gap = |clip: String, times: &[Option<(usize, f32)>]| -> Result<(), PoseError> {
        let (mut sum, mut max, mut n) = (0.0, 0.0f64, 0usize);
        for &t in times {
            let a = keep(pose(artist, t, LaneKind::F32)?);
            let b = keep(pose(&weighted.rig, t, LaneKind::F32)?);
            for (pa, pb) in a
                .iter()
                .flat_map(|x| &x.positions)
                .zip(b.iter().flat_map(|x| &x.positions))
            {
                let d = (0..3)
                    .map(|i| (f64::from(pa[i]) - f64::from(pb[i])).powi(2))
                    .sum::<f64>()
                    .sqrt();
                sum += d;
                max = max.max(d);
                n += 1;
            }
        }
        poses.push(PoseGap {
            clip,
            mean: sum / n.max(1) as f64 / extent,
            max: max / extent,
        });
        Ok(())
    };
    gap("rest".into(), &[None])?;
    for (c, clip) in artist.clips.iter().enumerate() {
        let d = clip.duration();
        let frames = frames.max(1);
        let times: Vec<_> = (0..frames)
            .map(|i| Some((c, d * i as f32 / (frames - 1).max(1) as f32)))
            .collect();
        let name = clip
            .name
            .clone()
            .unwrap_or_else(|| format!("animation {c}"));
        gap(name, &times)?;
    }
    Ok(Some(Study {
        vertices,
        weight_mean: sum / vertices as f64,
        weight_max: max,
        poses,
    }))
}

/// The diagonal of the bounding box of `posed`.
fn extent(posed: &[PosedPrimitive]) -> f64 {
    let mut lo = [f64::INFINITY; 3];
    let mut hi = [f64::NEG_INFINITY; 3];
    for p in posed.iter().flat_map(|b| &b.positions) {
        for i in 0..3 {
            lo[i] = lo[i].min(f64::from(p[i]));
            hi[i] = hi[i].max(f64::from(p[i]));
        }
    }
    (0..3)
        .map(|i| (hi[i] - lo[i]).max(0.0).powi(2))
        .sum::<f64>()
        .sqrt()
}
