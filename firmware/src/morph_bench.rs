//! The morph benchmark: instructions per active target per moved vertex of the scene's
//! deform step, on a synthetic asset played by skin-core's `Scene` as a frame plays it.
//!
//! Log line (parsed by `tests/tests/firmware_bench.rs`):
//!
//! ```text
//! MORPH board=… core=… lane=… vertices=… plain=… none=… one=… two=… per_target_vertex=…
//! ```
//!
//! The asset: [`VERTICES`] vertices in one rigid part, with normals, and three targets: A
//! and B move every vertex, C the first quarter (positions and normals). A step weight
//! channel makes active no target, then A, then A and B, then A and C. `none`, `one` and
//! `two` are the instructions of skinning the part (`Scene::skinned`, [`REPS`] times) with
//! none, A, and A and B; `per_target_vertex` is `(AB − AC) / (REPS · ¾·VERTICES)`: what an
//! active target costs per vertex it moves, its per-part cost (weights, selection, the
//! range check) cancelled. `plain` is the same part in an asset without morph targets:
//! `none − plain` is what a part with targets but none active costs (its weights sampled
//! and the budget's selection, once a part; nothing a vertex).

use skin_core::affine::Affine;
use skin_core::asset::{
    Asset, AssetLane, AssetParts, ClipParts, MorphParts, MorphSet, Part, QuantisedTarget, Span,
    WeightChannel,
};
use skin_core::clip::Interpolation;
use skin_core::error::Error;
use skin_core::palette::Palette;
use skin_core::raster::{Project, RasterError};
use skin_core::scene::{Scene, Scratch};
use skin_core::transform::Transform;
use skin_core::vertex::Influence;

use crate::board::{self, Clock};

/// Vertices of the synthetic part, each moved by both targets.
pub const VERTICES: usize = 48;
/// Times the part is skinned inside one timed call.
pub const REPS: u32 = 4;
/// Bytes the synthetic asset takes at most.
const BYTES: usize = 4096;

/// The synthetic asset's buffer.
#[repr(align(4))]
struct Aligned([u8; BYTES]);

/// Measures the deform step and logs its `MORPH` line; `instructions` converts SysTick
/// ticks, `empty` is the stopwatch's own cost per `calls` timed calls.
#[inline(never)]
pub fn run<L: AssetLane + Project>(
    clock: &mut Clock,
    instructions: impl Fn(u64) -> u64,
    (empty, calls): (u64, u32),
) -> Result<(), RasterError> {
    let value = |v: f32| L::from_f32(v).map_err(|_| Error::NoRoot);
    let mut positions = [[L::default(); 3]; VERTICES];
    let mut normals = [[L::default(); 3]; VERTICES];
    for (i, (p, n)) in positions.iter_mut().zip(&mut normals).enumerate() {
        let a = i as f32 / VERTICES as f32;
        *p = [value(a - 0.5)?, value(0.25 - a / 2.0)?, value(a / 4.0)?];
        *n = [value(0.0)?, value(0.0)?, value(1.0)?];
    }
    let indices: [u16; VERTICES] = core::array::from_fn(|i| i as u16);
    let moved: [u16; VERTICES] = core::array::from_fn(|i| i as u16);
    let deltas: [[i16; 3]; VERTICES] =
        core::array::from_fn(|i| [1000 + i as i16, -700, 300 - i as i16]);
    let span = |n: usize| {
        [Span {
            vertices: &moved[..n],
            positions: &deltas[..n],
            normals: &deltas[..n],
        }]
    };
    let (all, quarter) = (span(VERTICES), span(VERTICES / 4));
    let target = |spans| QuantisedTarget {
        position_exponent: 16,
        normal_exponent: 16,
        spans,
    };
    let targets = [target(&all), target(&all), target(&quarter)];
    // Step keys a second apart: none active, A, A and B, A and C.
    let times = [0.0f32, 1.0, 2.0, 3.0];
    let weights = [
        0.0f32, 0.0, 0.0, 0.5, 0.0, 0.0, 0.5, -0.25, 0.0, 0.5, 0.0, -0.25,
    ];
    let morphs = MorphParts {
        sets: &[MorphSet {
            first_part: 0,
            parts: 1,
            defaults: &[0.0; 3],
            targets: &targets,
        }],
        channels: &[WeightChannel {
            clip: 0,
            set: 0,
            interpolation: Interpolation::Step,
            times: &times,
            values: &weights,
        }],
    };
    let parts = AssetParts {
        unit_exponent: 0,
        parents: &[None],
        rest: &[Transform::IDENTITY],
        root: Affine::IDENTITY,
        joints: &[0],
        inverse_binds: &[Affine::IDENTITY],
        positions: &positions,
        normals: Some(&normals),
        influences: &[Influence::rigid(0); VERTICES],
        indices: &indices,
        parts: &[Part {
            vertices: VERTICES as u32,
            indices: VERTICES as u32,
            bones: &[0],
        }],
        clips: &[ClipParts {
            name: "morph",
            duration: 4.0,
            channels: &[],
        }],
        skinning: skin_core::skin::Skinning::Lbs,
    };
    // 4-byte aligned, as the firmware embeds its asset: the entries are read in place.
    let mut bytes = Aligned([0u8; BYTES]);
    let mut timed = |morphs: Option<&MorphParts<'_>>, times: &[f32], counts: &mut [u64]| {
        let n = parts.write_with_morphs(morphs, &mut bytes.0)?;
        let scene = Scene::<L, 1>::new(Asset::<L>::read(&bytes.0[..n])?, 64, 64)?;
        let (mut pose, mut world) = ([Transform::IDENTITY; 1], [Affine::IDENTITY; 1]);
        scene.rest(&mut pose, &mut world)?;
        let mut palette = Palette::<L, 1>::new();
        let mut scratch = Scratch::<L, VERTICES>::default();
        for (count, &t) in counts.iter_mut().zip(times) {
            scratch.set_time(Some(t));
            clock.take();
            clock.time(|| {
                for _ in 0..REPS {
                    scene.skinned(&world, &mut palette, &mut scratch, |_, p, _| {
                        core::hint::black_box(p);
                    })?;
                }
                Ok::<(), RasterError>(())
            })?;
            let (ticks, timed) = clock.take();
            *count =
                instructions(ticks).saturating_sub(empty * u64::from(timed) / u64::from(calls));
        }
        Ok::<(), RasterError>(())
    };
    let mut plain = [0u64; 1];
    timed(None, &[0.5], &mut plain)?;
    let mut counts = [0u64; 4];
    timed(Some(&morphs), &[0.5, 1.5, 2.5, 3.5], &mut counts)?;
    let moved = REPS as f32 * (VERTICES - VERTICES / 4) as f32;
    defmt::info!(
        "MORPH board={=str} core={=str} lane={=str} vertices={=usize} plain={=u64} none={=u64} one={=u64} two={=u64} per_target_vertex={=f32}",
        board::NAME,
        board::CORE,
        L::NAME,
        VERTICES,
        plain[0],
        counts[0],
        counts[1],
        counts[2],
        counts[2].saturating_sub(counts[3]) as f32 / moved
    );
    Ok(())
}
