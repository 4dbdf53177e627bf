//! Whether the fixed lane holds a rig: skinned at rest and at the times where a clip's
//! values peak, as the device would. Each clip's keys are checked and validated once and
//! then only sampled per frame, so the check is linear in the number of keys.

use skin_core::clip::{Clip as CoreClip, Wrap};
use skin_core::lane::Q14;
use skin_core::num::{Fx, Real};

use super::animate::{channels, check_keys, clip_keys};
use super::error::PoseError;
use super::lane::Skinning;
use super::morph::weights;
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
    let at = |what: String| {
        move |e: PoseError| PoseError::Frame {
            frame: what,
            source: Box::new(e),
        }
    };
    let rest = transforms::<Fx>(rig, &rig.rest_locals(), k)?;
    let rest_weights = weights(rig, None);
    pose_in::<Q14>(rig, &rest, &rest_weights, k, Skinning::Lbs).map_err(at("rest pose".into()))?;
    let mut frames = 1;
    for &c in clips {
        let keys = clip_keys(rig, c, k);
        check_keys::<Fx>(rig, c, &keys, k)?;
        let channels = channels(&keys, c)?;
        let clip = CoreClip::<Fx, _>::new(&channels, rig.nodes.len())
            .map_err(PoseError::core(format!("animation {c} in {}", Fx::NAME)))?;
        for t in check_times(&rig.clips[c]) {
            let what = format!("animation {c} at {t} s");
            let mut locals = rest.clone();
            clip.sample(t, Wrap::Clamp, &mut locals)
                .map_err(PoseError::core(format!("animation {c} in {}", Fx::NAME)))
                .map_err(at(what.clone()))?;
            pose_in::<Q14>(rig, &locals, &weights(rig, Some((c, t))), k, Skinning::Lbs)
                .map_err(at(what))?;
            frames += 1;
        }
    }
    Ok(frames)
}
