//! `skin validate`: core `f32`, core fixed point, GPU compute and GPU vertex shader measured
//! against the `f64` [`oracle`] over frames of every clip, the GPU picture
//! compared with the CPU one, and the documented thresholds checked (`docs/VALIDATION.md`).
//!
//! A vertex's error is its largest coordinate difference (the ∞-norm), in model units and
//! as a fraction of the model's *extent*, the diagonal of the rest pose's bounding box. The
//! thresholds ([`Limits`]):
//!
//! | comparison | limit |
//! |---|---|
//! | core `f32`, GPU compute, GPU vertex vs the oracle; GPU vs core `f32` | 10⁻⁵ of the extent |
//! | core fixed vs the oracle | the lane's bound, 8.25·2⁻¹⁵ asset units plus 10⁻⁶ for the `I8F24` pose (`core/src/lane/mod.rs`), plus 10⁻⁵ of the extent |
//! | `dqs core fixed` vs the oracle | dual quaternion skinning's bound `fixed_dual_error_bound(ν)` at the smallest blended norm ν of the run (with joints of scale or shear, `fixed_stretch_error_bound(ν, e)` at the largest palette exponent `e`), plus the same |
//! | GPU normals vs the oracle's | 10⁻⁵ (unit vectors) |
//! | core `f32`, GPU compute, GPU vertex tangents vs the oracle's; GPU vs core `f32` tangents | 10⁻⁵ (unit vectors) |
//! | core fixed tangents vs the oracle's | the lane's bound at the shortest blend met (`skin_core::tangent`), plus 10⁻⁵ |
//! | GPU picture vs CPU picture (`f32`), each skinning method | at least 99 % of the pixels equal, every frame |
//!
//! Both skinning methods are compared by default ([`Options::skinning`]), each with its rows:
//! linear blend skinning's as above, dual quaternion skinning's named `dqs …`, against the
//! oracle's DQS ([`oracle::pose_dqs`]) and with the same limits. The pictures are linear
//! blend skinning's, and with DQS validated its pictures too ([`Report::dual_pictures`]):
//! the GPU's DQS against the CPU renderer playing the asset baked for DQS. Joints with scale
//! or shear are split (Kavan et al.) on every path and in the oracle, the fixed lane
//! included; the pictures are "not compared" (the asset holds no stretches). A rig dual quaternion skinning cannot
//! skin at all (a budget without room for one dual quaternion) has its `dqs` rows "not
//! available", while LBS is compared beside it.
//!
//! Morph targets are applied on every path (the oracle, the host's pose in both lanes, both
//! GPU paths, and the CPU renderer through the baked asset's quantised targets). The
//! pictures of a model whose targets move vertices are compared as every other's: the GPU
//! draws them with the asset's quantised deltas ([`crate::bake::dequantised`]), so both
//! renderers move each vertex alike, and the picture limit is the same.
//!
//! A model the fixed lane cannot hold (a value beyond its range at rest or at a checked time
//! of a clip) is still validated on every other path: its core fixed row says "not
//! available" and why, and fails nothing.
//!
//! The pictures' camera is the firmware's: it frames the skinned rest pose
//! ([`crate::render::Cpu::rest_bounds`]), so that every model is in view whatever its bind positions.
//!
//! A model with glTF `TANGENT`s has six more rows a method, named `… vs f64 tangents` and
//! `… vs core f32 tangents` (`tangents`): its tangents skinned by core `f32` and fixed,
//! GPU compute and vertex shader against the oracle's, and the GPU's against the core's;
//! limit 10⁻⁵ as for normals, the fixed lane's its derived bound
//! (`skin_core::tangent::fixed_error_bound`, `fixed_dual_error_bound`). A model without
//! tangents has none of these rows, and its summary says so in one line.
//!
//! Its files, each importing only from those before it: `report` (the [`Report`], its
//! [`Limits`] and table), `error` ([`ValidateError`]), `tangents` (the tangent comparisons
//! of each frame), `tally` (the vertex comparisons of each frame), `pictures` (the picture
//! comparison of each frame).
//!
//! ```no_run
//! use skin_host::gpu::Reference;
//! use skin_host::validate::{validate, Options};
//! let rig = skin_host::import::from_path("CesiumMan.glb".as_ref())?;
//! let report = validate(&rig, &Reference::new()?, &Options::default(), |_, _| {})?;
//! print!("{}", report.table("CesiumMan.glb"));
//! assert!(report.failures().is_empty());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod error;
mod pictures;
mod report;
mod tally;
mod tangents;

use skin_core::budget::{Budget, Layout};

use crate::gpu::{Model, Reference};
use crate::oracle;
use crate::pose::animate::duration;
use crate::pose::range::check_fixed;
use crate::pose::{asset_unit, fixed_unit, PoseError, Skinning};
use crate::render::RenderError;
use crate::rig::Rig;
use pictures::PictureCheck;
use tally::Tally;

pub use error::ValidateError;
pub use report::{Errors, Frame, Heat, Limits, Pictures, Report, Row, LIMITS};
/// What to validate.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// Frames per clip, spread evenly over one loop (`duration · k / frames`).
    pub frames: u32,
    /// The clips; `None`: every clip. The rest pose is always one more frame.
    pub clips: Option<Vec<usize>>,
    /// The budget of the vertex-shader paths (palette splits as it requires).
    pub budget: Budget,
    /// The palette layout of the vertex-shader paths (3×4 or 4×4).
    pub layout: Layout,
    /// The pictures' size in pixels.
    pub size: (u16, u16),
    /// The skinning methods compared, each with its own rows (the pictures are linear blend
    /// skinning's, and dual quaternion skinning's too when it is one of them).
    pub skinning: Vec<Skinning>,
}

impl Default for Options {
    /// 8 frames of every clip, `vs_2_0` with 3×4 matrices, 240×240 pictures, both skinning
    /// methods.
    fn default() -> Self {
        Self {
            frames: 8,
            clips: None,
            budget: Budget::VS_2_0,
            layout: Layout::Affine3x4,
            size: (240, 240),
            skinning: vec![Skinning::Lbs, Skinning::Dqs],
        }
    }
}

/// The most frames a clip may be validated at (`--frames`).
pub const MAX_FRAMES: u32 = 10_000;

/// The most frames one run validates, all clips together: each is skinned four ways by
/// each method and drawn twice, so this bounds a run's time and memory (about an hour of a
/// large model).
pub const MAX_TOTAL_FRAMES: usize = 100_000;

/// How many frames `options` asks for (see [`frames`]), or why that is not a run: no
/// frames, more than [`MAX_FRAMES`] a clip or [`MAX_TOTAL_FRAMES`] in all, or a clip the
/// rig does not have.
pub fn check_frames(rig: &Rig, options: &Options) -> Result<usize, ValidateError> {
    if !(1..=MAX_FRAMES).contains(&options.frames) {
        return Err(ValidateError::Nothing(format!(
            "--frames {} is outside 1..={MAX_FRAMES}",
            options.frames
        )));
    }
    if let Some(&c) = options
        .clips
        .iter()
        .flatten()
        .find(|&&c| c >= rig.clips.len())
    {
        return Err(PoseError::NoAnimation(c.to_string(), rig.clips.len()).into());
    }
    let clips = options.clips.as_ref().map_or(rig.clips.len(), Vec::len);
    let total = clips
        .saturating_mul(options.frames as usize)
        .saturating_add(1);
    if total > MAX_TOTAL_FRAMES {
        return Err(ValidateError::Nothing(format!(
            "{clips} clips of {} frames (and the rest pose) make {total} frames, beyond the \
             limit of {MAX_TOTAL_FRAMES} a run; choose clips with --anim or fewer --frames",
            options.frames
        )));
    }
    Ok(total)
}

/// The frames `options` asks for: the rest pose, then `frames` times of each clip.
pub fn frames(rig: &Rig, options: &Options) -> Vec<Frame> {
    let clips: Vec<usize> = match &options.clips {
        Some(c) => c.clone(),
        None => (0..rig.clips.len()).collect(),
    };
    let mut out = vec![Frame { anim: None }];
    for c in clips {
        let d = duration(rig, c);
        for k in 0..options.frames {
            out.push(Frame {
                anim: Some((c, d * k as f32 / options.frames as f32)),
            });
        }
    }
    out
}

/// Why the fixed lane cannot hold `rig` at rest and through the clips `options` name (the
/// baker's range check, [`check_fixed`]), or `None` when it can.
pub fn fixed_unavailable(rig: &Rig, options: &Options) -> Option<String> {
    let clips: Vec<usize> = match &options.clips {
        Some(c) => c.clone(),
        None => (0..rig.clips.len()).collect(),
    };
    fixed_unit(rig)
        .and_then(|k| check_fixed(rig, &clips, k))
        .err()
        .map(|e| e.to_string())
}

/// One skinning method being validated: its model (split for its palette layout), its
/// tally, and why it cannot run on this rig once that is known.
struct Method {
    model: Option<Model>,
    tally: Tally,
    unavailable: Option<String>,
}

impl Method {
    /// `skinning` on `rig` as `options` say. A rig or budget that dual quaternion skinning
    /// cannot take (no room for one dual quaternion) makes it unavailable when linear blend
    /// skinning is validated beside it, and is an error when it is validated alone.
    fn new(rig: &Rig, options: &Options, skinning: Skinning) -> Result<Self, ValidateError> {
        let model = Model::with_skinning(rig, options.budget, options.layout, skinning);
        let (model, unavailable) = match model {
            Ok(m) => (Some(m), None),
            Err(e) if tolerated(options, skinning) => (None, Some(e.to_string())),
            Err(e) => return Err(e.into()),
        };
        Ok(Self {
            model,
            tally: Tally::new(skinning, tangents::has_tangents(rig)),
            unavailable,
        })
    }
}

/// Whether a failure of `skinning` on a rig leaves its rows "not available" rather than
/// stopping the run: dual quaternion skinning (which refuses scaled joints) beside linear
/// blend skinning.
fn tolerated(options: &Options, skinning: Skinning) -> bool {
    skinning == Skinning::Dqs && options.skinning.contains(&Skinning::Lbs)
}

/// `drawn` (the DQS picture check made, or a frame of it drawn) passed through `f`; a rig
/// the asset cannot hold for DQS (a bake refusing a joint) as `Ok(Err(why))`, for its
/// pictures to be "not compared" while its rows stand; any other error as itself.
fn dual_check<T, U>(
    drawn: Result<T, ValidateError>,
    f: impl FnOnce(T) -> U,
) -> Result<Result<U, String>, ValidateError> {
    match drawn {
        Ok(t) => Ok(Ok(f(t))),
        Err(ValidateError::Render(e @ (RenderError::Bake(_) | RenderError::Pose(_)))) => {
            Ok(Err(e.to_string()))
        }
        Err(e) => Err(e),
    }
}

/// Validate `rig` on `gpu` as `options` say; `on_frame` is called after each frame (for a
/// progress bar), with the frames done and the total.
pub fn validate(
    rig: &Rig,
    gpu: &Reference,
    options: &Options,
    mut on_frame: impl FnMut(usize, usize),
) -> Result<Report, ValidateError> {
    check_frames(rig, options)?;
    if options.skinning.is_empty() {
        return Err(ValidateError::Nothing(
            "no skinning method to validate".into(),
        ));
    }
    let model = Model::new(rig, options.budget, options.layout)?;
    if model.primitives.is_empty() {
        return Err(ValidateError::Nothing(
            "the model has no mesh to validate".into(),
        ));
    }
    let has_tangents = tangents::has_tangents(rig);
    let mut methods = options
        .skinning
        .iter()
        .map(|&m| Method::new(rig, options, m))
        .collect::<Result<Vec<_>, _>>()?;
    let rest = oracle::pose(rig, None).unwrap_or_default();
    let extent = oracle::extent(&rest);
    let k = asset_unit(rig);
    let frames = frames(rig, options);
    let fixed = fixed_unavailable(rig, options);
    let fixed = fixed.as_deref();
    let drawn = (options.budget, options.layout);
    let mut pictures = PictureCheck::new(rig, gpu, Skinning::Lbs, drawn, options.size)?;
    let dqs = options.skinning.iter().position(|&s| s == Skinning::Dqs);
    let mut dual = match dqs {
        Some(d) => Some(match &methods[d].unavailable {
            Some(why) => Err(why.clone()),
            None => dual_check(
                PictureCheck::new(rig, gpu, Skinning::Dqs, drawn, options.size),
                |check| check,
            )?,
        }),
        None => None,
    };
    let (mut over_time, mut heat): (Vec<Vec<f64>>, _) = (Vec::new(), Vec::new());
    for (i, frame) in frames.iter().enumerate() {
        let mut rows = Vec::new();
        for (m, &skinning) in methods.iter_mut().zip(&options.skinning) {
            let mut now = Tally::new(skinning, has_tangents);
            if let (Some(model), None) = (&m.model, &m.unavailable) {
                match now.frame(rig, gpu, model, frame.anim, fixed.is_none()) {
                    Ok(want) => {
                        now.keep_worst(&mut heat, i, &want);
                        m.tally.merge(&now);
                    }
                    Err(ValidateError::Pose(e)) if tolerated(options, skinning) => {
                        m.unavailable = Some(e.to_string());
                    }
                    Err(e) => return Err(e),
                }
            }
            rows.extend(now.rows(extent, k, fixed));
        }
        over_time.resize(rows.len(), Vec::with_capacity(frames.len()));
        for (series, row) in over_time.iter_mut().zip(&rows) {
            series.push(row.errors.max);
        }
        pictures.frame(&model, frame.anim)?;
        if let (Some(d), Some(Ok(check))) = (dqs, &mut dual) {
            let m = &methods[d];
            let drawn = match (&m.model, &m.unavailable) {
                (Some(model), None) => dual_check(check.frame(model, frame.anim), |()| ())?,
                (_, why) => Err(why.clone().unwrap_or_default()),
            };
            if let Err(why) = drawn {
                dual = Some(Err(why));
            }
        }
        on_frame(i + 1, frames.len());
    }
    let (pictures, worst) = pictures.finish();
    let dual_pictures = dual.map(|d| d.map(|check| check.finish().0));
    let mut rows = Vec::new();
    let mut undrawn = 0;
    for m in &methods {
        let mut these = m.tally.rows(extent, k, fixed);
        if let Some(why) = &m.unavailable {
            for r in &mut these {
                r.unavailable = Some(why.clone());
            }
        }
        rows.extend(these);
        undrawn += m.tally.undrawn;
    }
    let dual_draw_calls = methods
        .iter()
        .filter_map(|m| m.model.as_ref())
        .find(|m| m.skinning == Skinning::Dqs)
        .map(Model::draw_calls);
    Ok(Report {
        adapter: gpu.adapter(),
        extent,
        unit_exponent: k,
        vertices: rest.iter().map(|b| b.positions.len()).sum(),
        tangents: rest
            .iter()
            .filter_map(|b| b.tangents.as_ref())
            .map(Vec::len)
            .sum(),
        budget: options.budget,
        layout: options.layout,
        draw_calls: model.draw_calls(),
        dual_draw_calls,
        rows,
        size: options.size,
        pictures,
        dual_pictures,
        pixel_limit: LIMITS.pixels,
        worst,
        undrawn,
        frames,
        over_time,
        heat,
    })
}
