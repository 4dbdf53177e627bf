//! Whether the fixed lane holds a rig, and whether dual quaternion skinning can represent
//! its joints: skinned at rest and at the times where a clip's values peak, as the device
//! would. Each clip's keys are checked and validated once and
//! then only sampled per frame, so the check is linear in the number of keys.

use skin_core::clip::{Clip as CoreClip, Wrap};
use skin_core::lane::{Lane, Q14};
use skin_core::num::Real;
use skin_core::palette::DualPalette;
use skin_core::transform::Transform;

use super::animate::{channels, check_keys, clip_keys};
use super::error::PoseError;
use super::lane::Skinning;
use super::morph::weights;
use super::palette::{node_world, skin_stretch_palette};
use super::skin::pose_in;
use super::values::transforms;
use crate::rig::{Clip, Rig};

/// The times at which a clip is checked for fixed-point range: every key time and the
/// midpoint between consecutive distinct key times (where cubic splines overshoot most),
/// sorted and without repeats.
pub fn check_times(clip: &Clip) -> Vec<f32> {
    let mut keys: Vec<f32> = clip
        .channels
        .iter()
        .flat_map(|c| c.times.iter().copied())
        .collect();
    keys.sort_by(f32::total_cmp);
    keys.dedup();
    let mids: Vec<f32> = keys
        .windows(2)
        .map(|w| w[0] + (w[1] - w[0]) / 2.0)
        .collect();
    keys.extend(mids);
    keys.sort_by(f32::total_cmp);
    keys.dedup();
    keys
}

/// Skin the rig in fixed point (asset unit `2^k`, from [`super::units::fixed_unit`]) at rest and at every
/// [`check_times`] time of each clip in `clips`, as the device would; `Ok(frames
/// checked)` or the first frame that overflows (named in the error).
pub fn check_fixed(rig: &Rig, clips: &[usize], k: i32) -> Result<usize, PoseError> {
    Ok(check_lane::<Q14>(rig, clips, k, Skinning::Lbs)?.frames)
}

/// What [`check_lane`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Checked {
    /// The frames checked.
    pub frames: usize,
    /// Under [`Skinning::Dqs`], whether a joint has scale or shear at one of them (its
    /// palette is split as Kavan et al. do: the baked asset is marked for it).
    pub stretched: bool,
}

/// [`check_fixed`] for any lane and skinning method: skin the rig in lane `L` by
/// `skinning` at rest and at every [`check_times`] time of each clip in `clips`. Under
/// [`Skinning::Dqs`] every joint matrix must split into a rotation and translation and a
/// stretch (not a mirror, not flattened), and every rigidly drawn node's world matrix (a
/// baked asset skins those parts with one dual quaternion) must be a rotation and
/// translation: the first that is not is named, with the frame.
pub fn check_lane<L: Lane>(
    rig: &Rig,
    clips: &[usize],
    k: i32,
    skinning: Skinning,
) -> Result<Checked, PoseError> {
    let stretched = std::cell::Cell::new(false);
    let at = |what: String| {
        move |e: PoseError| PoseError::Frame {
            frame: what,
            source: Box::new(e),
        }
    };
    let check = |locals: &[Transform<L::Real>], weights: &[Vec<f32>]| {
        pose_in::<L>(rig, locals, weights, k, skinning)?;
        if skinning == Skinning::Dqs {
            rigid_nodes::<L>(rig, locals)?;
            // `pose_in` splits joints with scale (Kavan et al.); the asset is marked for
            // them.
            for (_, _, skin) in rig.mesh_nodes() {
                if let Some(s) = skin {
                    let split = skin_stretch_palette::<L>(rig, locals, s, k)?;
                    stretched.set(stretched.get() | split.stretches.is_some());
                }
            }
        }
        Ok::<(), PoseError>(())
    };
    let rest = transforms::<L::Real>(rig, &rig.rest_locals(), k)?;
    check(&rest, &weights(rig, None)).map_err(at("rest pose".into()))?;
    let mut frames = 1;
    for &c in clips {
        let keys = clip_keys(rig, c, k);
        check_keys::<L::Real>(rig, c, &keys, k)?;
        let channels = channels(&keys, c)?;
        let context = format!("animation {c} in {}", L::Real::NAME);
        let clip = CoreClip::<L::Real, _>::new(&channels, rig.nodes.len())
            .map_err(PoseError::core(context.clone()))?;
        for t in check_times(&rig.clips[c]) {
            let what = format!("animation {c} at {t} s");
            let mut locals = rest.clone();
            clip.sample(t, Wrap::Clamp, &mut locals)
                .map_err(PoseError::core(context.clone()))
                .map_err(at(what.clone()))?;
            check(&locals, &weights(rig, Some((c, t)))).map_err(at(what))?;
            frames += 1;
        }
    }
    Ok(Checked {
        frames,
        stretched: stretched.get(),
    })
}

/// Every mesh node drawn rigidly (no skin, or a primitive without weights) has a world
/// matrix that a unit dual quaternion in lane `L` represents; the first that does not is
/// named.
fn rigid_nodes<L: Lane>(rig: &Rig, locals: &[Transform<L::Real>]) -> Result<(), PoseError> {
    for (node, mesh, skin) in rig.mesh_nodes() {
        let rigid = rig.meshes[mesh]
            .primitives
            .iter()
            .any(|p| skin.is_none() || p.influences.is_none());
        if !rigid {
            continue;
        }
        let named = rig.nodes[node]
            .name
            .as_deref()
            .map_or(String::new(), |n| format!(" {n:?}"));
        let mut dual: DualPalette<L, 1> = DualPalette::new();
        dual.push(&node_world::<L::Real>(rig, locals, node)?)
            .map_err(PoseError::core(format!(
                "world matrix of node {node}{named}, drawn rigidly, in {}",
                L::NAME
            )))?;
    }
    Ok(())
}
