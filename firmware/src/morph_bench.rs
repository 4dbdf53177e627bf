//! The morph benchmark: instructions per active target per moved vertex of the scene's
//! deform step, on a synthetic asset played by skin-core's `Scene` as a frame plays it.
//!
//! Log line (parsed by `tests/tests/firmware_bench.rs`):
//!
//! ```text
//! MORPH board=… core=… lane=… vertices=… plain=… none=… one=… two=… per_target_vertex=…
//! ```
//!
//! The assets: [`VERTICES`] vertices in one rigid part, with normals, and two targets
//! (positions and normals): in the first, A and B, both moving every vertex; in the second,
//! A and C, C moving the first quarter. Step weight channels make active no target, then A,
//! then A and B (the first asset), and A, then A and C (the second). `none`, `one` and `two`
//! are the instructions of skinning the first asset's part (`Scene::skinned`, [`REPS`]
//! times) with none, A, and A and B active; `per_target_vertex` is
//! `(AB − AC) / (REPS · ¾·VERTICES)`: what an active target costs per vertex it moves, the
//! per-part cost (weights, selection, the range check: the same two targets) and the
//! per-vertex cost (the same moved vertices) cancelled. `inactive_target_vertex` is
//! `(A₁ − A₂) / (REPS · ¾·VERTICES)` (A alone active in each): what an inactive target
//! costs at a vertex it moves when another target of the part is active (its entry read
//! and passed over). `plain` is the same part in an asset without morph targets:
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
const BYTES: usize = 4352;

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
    let (positions, normals) = base::<L>()?;
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
    let (ab, ac) = (
        [target(&all), target(&all)],
        [target(&all), target(&quarter)],
    );
    // Step keys a second apart: none active, A, A and B (A and C).
    let times = [0.0f32, 1.0, 2.0];
    let weights = [0.0f32, 0.0, 0.5, 0.0, 0.5, -0.25];
    let channels = [WeightChannel {
        clip: 0,
        set: 0,
        interpolation: Interpolation::Step,
        times: &times,
        values: &weights,
    }];
    let set = |targets| {
        [MorphSet {
            first_part: 0,
            parts: 1,
            defaults: &[0.0; 2],
            targets,
        }]
    };
    let (set_ab, set_ac) = (set(&ab), set(&ac));
    let morphs = |sets| MorphParts {
        sets,
        channels: &channels,
    };
    let part = [Part {
        vertices: VERTICES as u32,
        indices: VERTICES as u32,
        bones: &[0],
    }];
    let clips = [ClipParts {
        name: "morph",
        duration: 4.0,
        channels: &[],
    }];
    let influences = [Influence::rigid(0); VERTICES];
    let parts = one_part(&positions, &normals, &indices, &influences, &part, &clips);
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
    let mut counts = [0u64; 3];
    timed(Some(&morphs(&set_ab)), &[0.5, 1.5, 2.5], &mut counts)?;
    let mut other = [0u64; 2];
    timed(Some(&morphs(&set_ac)), &[1.5, 2.5], &mut other)?;
    let moved = REPS as f32 * (VERTICES - VERTICES / 4) as f32;
    let per = |a: u64, b: u64| a.saturating_sub(b) as f32 / moved;
    defmt::info!(
        "MORPH board={=str} core={=str} lane={=str} vertices={=usize} plain={=u64} none={=u64} one={=u64} two={=u64} per_target_vertex={=f32} inactive_target_vertex={=f32}",
        board::NAME,
        board::CORE,
        L::NAME,
        VERTICES,
        plain[0],
        counts[0],
        counts[1],
        counts[2],
        per(counts[2], other[1]),
        per(counts[1], other[0])
    );
    Ok(())
}

/// The part's bind positions (along a diagonal, in [−½, ½)) and normals (+Z).
fn base<L: AssetLane>() -> Result<([[L; 3]; VERTICES], [[L; 3]; VERTICES]), Error> {
    let value = |v: f32| L::from_f32(v).map_err(|_| Error::NoRoot);
    let mut positions = [[L::default(); 3]; VERTICES];
    let mut normals = [[L::default(); 3]; VERTICES];
    for (i, (p, n)) in positions.iter_mut().zip(&mut normals).enumerate() {
        let a = i as f32 / VERTICES as f32;
        *p = [value(a - 0.5)?, value(0.25 - a / 2.0)?, value(a / 4.0)?];
        *n = [value(0.0)?, value(0.0)?, value(1.0)?];
    }
    Ok((positions, normals))
}

/// An asset of one rigid part (bone 0 at the identity) of [`VERTICES`] vertices.
fn one_part<'a, L: AssetLane>(
    positions: &'a [[L; 3]],
    normals: &'a [[L; 3]],
    indices: &'a [u16],
    influences: &'a [Influence<L>],
    parts: &'a [Part<'a>],
    clips: &'a [ClipParts<'a>],
) -> AssetParts<'a, L> {
    AssetParts {
        unit_exponent: 0,
        parents: &[None],
        rest: &[Transform::IDENTITY],
        root: Affine::IDENTITY,
        joints: &[0],
        inverse_binds: &[Affine::IDENTITY],
        positions,
        normals: Some(normals),
        tangents: None,
        influences,
        indices,
        parts,
        clips,
        skinning: skin_core::skin::Skinning::Lbs,
        centre: [0.0; 3],
    }
}

/// The check's two targets' default weights: the lane's most negative and a large positive.
#[cfg(all(feature = "mps2-an386", feature = "fixed"))]
const CHECK_WEIGHTS: [f32; 2] = [-2.0, 1.5];
/// The check's targets' (position, normal) exponents: the fixed lane's smallest and
/// largest (`A` shifted left by 16 and by 0 bits) and two between.
#[cfg(all(feature = "mps2-an386", feature = "fixed"))]
const CHECK_EXPONENTS: [(i8, i8); 2] = [(15, 29), (20, 13)];

/// Checks the deform step's loop (the assembly on the Cortex-M4F's fixed lane) against the
/// lane's own sums ([`add_quantised`](skin_core::morph::MorphLane::add_quantised), then
/// [`finish`](skin_core::morph::MorphLane::finish)): a part moved by two targets at their
/// default weights ([`CHECK_WEIGHTS`]: no clip), one moving every vertex, the other every
/// third, with the lane's smallest and largest exponents, deltas at both ends of the stored
/// range (±32767), then skinned at the identity. Logs `CHECK morph-loop ok cases=…`
/// (vertices compared) and returns whether every skinned position and normal is the
/// expected one.
#[cfg(all(feature = "mps2-an386", feature = "fixed"))]
#[inline(never)]
pub fn check<L: AssetLane + Project>() -> Result<bool, RasterError> {
    let (positions, normals) = base::<L>()?;
    let indices: [u16; VERTICES] = core::array::from_fn(|i| i as u16);
    let every: [u16; VERTICES] = core::array::from_fn(|i| i as u16);
    let third: [u16; VERTICES / 3] = core::array::from_fn(|i| 3 * i as u16);
    let wide = |i: usize, m: i32| ((i as i32 * 7919) % (2 * m + 1) - m) as i16;
    let d0: [[i16; 3]; VERTICES] = core::array::from_fn(|i| [wide(i, 4000), -4000, 3999]);
    let n0: [[i16; 3]; VERTICES] = core::array::from_fn(|i| [i16::MAX, -i16::MAX, wide(i, 32767)]);
    let d1: [[i16; 3]; VERTICES / 3] =
        core::array::from_fn(|i| [-i16::MAX, i16::MAX, wide(i, 32000)]);
    let n1: [[i16; 3]; VERTICES / 3] = core::array::from_fn(|i| [wide(i, 40), 40, -39]);
    let spans = [
        [Span {
            vertices: &every,
            positions: &d0,
            normals: &n0,
        }],
        [Span {
            vertices: &third,
            positions: &d1,
            normals: &n1,
        }],
    ];
    let targets: [QuantisedTarget<'_>; 2] = core::array::from_fn(|t| QuantisedTarget {
        position_exponent: CHECK_EXPONENTS[t].0,
        normal_exponent: CHECK_EXPONENTS[t].1,
        spans: &spans[t],
    });
    let morphs = MorphParts {
        sets: &[MorphSet {
            first_part: 0,
            parts: 1,
            defaults: &CHECK_WEIGHTS,
            targets: &targets,
        }],
        channels: &[],
    };
    let part = [Part {
        vertices: VERTICES as u32,
        indices: VERTICES as u32,
        bones: &[0],
    }];
    let clips = [ClipParts {
        name: "still",
        duration: 1.0,
        channels: &[],
    }];
    let influences = [Influence::rigid(0); VERTICES];
    let parts = one_part(&positions, &normals, &indices, &influences, &part, &clips);
    let mut bytes = Aligned([0u8; BYTES]);
    let n = parts.write_with_morphs(Some(&morphs), &mut bytes.0)?;
    let scene = Scene::<L, 1>::new(Asset::<L>::read(&bytes.0[..n])?, 64, 64)?;
    let (mut pose, mut world) = ([Transform::IDENTITY; 1], [Affine::IDENTITY; 1]);
    scene.rest(&mut pose, &mut world)?;
    let mut palette = Palette::<L, 1>::new();
    let mut scratch = Scratch::<L, VERTICES>::default();
    // Expected: each target's terms summed on the bind vertex in target order and the sum
    // rounded, then the identity's point and renormalised linear part.
    let mut sums = (
        positions.map(|p| p.map(L::begin)),
        normals.map(|n| n.map(L::begin)),
    );
    for (t, &w) in CHECK_WEIGHTS.iter().enumerate() {
        let w = L::morph_weight(w).map_err(|_| Error::NoRoot)?;
        let (e, span) = (CHECK_EXPONENTS[t], &spans[t][0]);
        let (sp, sn) = (L::step(w, e.0), L::step(w, e.1));
        for (i, &v) in span.vertices.iter().enumerate() {
            let v = usize::from(v);
            for c in 0..3 {
                sums.0[v][c] = L::add_quantised(sums.0[v][c], sp, span.positions[i][c]);
                sums.1[v][c] = L::add_quantised(sums.1[v][c], sn, span.normals[i][c]);
            }
        }
    }
    let want = (
        sums.0.map(|p| p.map(L::finish)),
        sums.1.map(|n| n.map(L::finish)),
    );
    let (one, zero) = (L::from_f32(1.0), L::from_f32(0.0));
    let (one, zero) = (
        one.map_err(|_| Error::NoRoot)?,
        zero.map_err(|_| Error::NoRoot)?,
    );
    let rows = [
        [one, zero, zero, zero],
        [zero, one, zero, zero],
        [zero, zero, one, zero],
    ];
    let (mut same, mut cases) = (true, 0u32);
    scene.skinned(&world, &mut palette, &mut scratch, |first, p, n| {
        for (i, p) in p.iter().enumerate() {
            let (wp, wn) = (&want.0[first + i], &want.1[first + i]);
            let point = rows.each_ref().map(|r| L::point(r, wp));
            let unit = L::unit(rows.each_ref().map(|r| L::linear(r, wn)));
            same &= *p == point && n.is_some_and(|n| n[i] == unit);
            cases += 1;
        }
    })?;
    same &= cases == VERTICES as u32;
    if same {
        defmt::info!("CHECK morph-loop ok cases={=u32}", cases);
    } else {
        defmt::error!("CHECK FAILED: the deform step's loop differs from the lane's steps");
    }
    Ok(same)
}
