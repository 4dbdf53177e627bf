//! The animation benchmark: instructions of skin-core's animation layer (`skin_core::anim`)
//! on the board, in the scalar of this build's lane (`f32`, or the fixed lane's `I8F24`).
//!
//! Log lines (parsed by `tests/tests/firmware_bench.rs`):
//!
//! ```text
//! BLEND board=… core=… lane=… joints=… layers=… instructions=… per_joint_layer=… one_layer=… checks_per_joint_layer=…
//! IK board=… core=… lane=… solves=… instructions=… per_solve=… worst=…
//! WALK board=… core=… lane=… joints=… frames=… instructions=… per_frame=… planted=…
//! ```
//!
//! - `BLEND`: a [`Blend`] of [`LAYERS`] weighted poses over a [`JOINTS`]-joint skeleton's
//!   rest pose applied ([`Blend::apply`], [`REPS`] times): `instructions` in all,
//!   `per_joint_layer` over joints × layers (each joint's normalisation shared by its
//!   layers), `one_layer` the same for a blend of one pose. `checks_per_joint_layer` is
//!   making the blend ([`Blend::new`] and [`Blend::layer`]: every transform checked once
//!   when it is added), over joints × layers.
//! - `IK`: a leg (hip, knee, ankle below a pelvis, bones 0.45 long) solved by
//!   [`Limb::apply`] with a hinge on the knee (bends of 0.05–2.6 radians) and a
//!   swing/twist limit on the hip, for [`SOLVES`] targets within reach; each timed call is
//!   one solve (the world matrices it reads made before). `worst` is the largest distance,
//!   in millionths of the leg's length, from an ankle to its target after forward
//!   kinematics: the solve reached what it was timed on.
//! - `WALK`: a frame's animation layer for a walking figure (pelvis, two such legs, a spine
//!   and a head: [`WALK_JOINTS`] joints): [`Walker::pose`] (the gait, both feet planted
//!   on uneven ground by IK, the pelvis lowered), forward kinematics, and the head turned
//!   by [`Aim::apply`] to a point moving across the scene, for [`FRAMES`] frames;
//!   `planted` counts the feet the walker reported planted over them (each frame has one
//!   or two).

use skin_core::affine::Affine;
use skin_core::anim::{Aim, AnimError, Blend, Gait, Goal, Hinge, Input, Limb, SwingTwist, Walker};
use skin_core::num::Real;
use skin_core::skeleton::Skeleton;
use skin_core::transform::Transform;

use crate::board::{self, Clock};
use crate::synthetic::Rng;

/// Joints of the blended skeleton.
pub const JOINTS: usize = 16;
/// Poses blended.
pub const LAYERS: usize = 3;
/// Blends timed (each made, filled and applied once).
pub const REPS: u32 = 4;
/// IK solves timed.
pub const SOLVES: u32 = 16;
/// Joints of the walking figure.
pub const WALK_JOINTS: usize = 9;
/// Walk frames timed.
pub const FRAMES: u32 = 8;

/// `joint`'s transform (translation, unit rotation `[x, y, z, w]`, scale) in `R`; a value
/// `R` cannot hold is [`AnimError::Transform`] of the rest pose.
fn transform<R: Real>(
    joint: usize,
    (t, q, s): ([f32; 3], [f32; 4], [f32; 3]),
) -> Result<Transform<R>, AnimError> {
    Transform::from_f32(t, q, s).map_err(|_| AnimError::Transform {
        what: Input::Rest,
        index: 0,
        joint,
        format: R::NAME,
    })
}

/// A random joint transform: a unit rotation, a translation within ±0.5, a scale near 1.
fn random(rng: &mut Rng) -> ([f32; 3], [f32; 4], [f32; 3]) {
    let mut q = [rng.signed(), rng.signed(), rng.signed(), rng.signed() + 1.5];
    let n = Real::sqrt(q.iter().map(|v| v * v).sum::<f32>());
    q.iter_mut().for_each(|v| *v /= n);
    let t = [rng.signed(), rng.signed(), rng.signed()].map(|v| v * 0.5);
    let s = [1.0 + 0.25 * rng.signed(); 3];
    (t, q, s)
}

/// Measures blending and IK and logs their lines; instructions from SysTick ticks by
/// `instructions`, `empty` the stopwatch's own cost per `calls` timed calls.
#[inline(never)]
pub fn run<R: Real>(
    clock: &mut Clock,
    instructions: impl Fn(u64) -> u64,
    (empty, calls): (u64, u32),
) -> Result<(), AnimError> {
    let net = |(ticks, timed): (u64, u32)| {
        instructions(ticks).saturating_sub(empty * u64::from(timed) / u64::from(calls))
    };
    let (_, one) = blend::<R>(clock, net, 1)?;
    let (checks, all) = blend::<R>(clock, net, LAYERS)?;
    let per = |total: u64, layers: usize| total as f32 / (REPS as usize * JOINTS * layers) as f32;
    defmt::info!(
        "BLEND board={=str} core={=str} lane={=str} joints={=usize} layers={=usize} instructions={=u64} per_joint_layer={=f32} one_layer={=f32} checks_per_joint_layer={=f32}",
        board::NAME,
        board::CORE,
        R::NAME,
        JOINTS,
        LAYERS,
        all,
        per(all, LAYERS),
        per(one, 1),
        per(checks, LAYERS)
    );
    let worst = ik::<R>(clock)?;
    let total = net(clock.take());
    defmt::info!(
        "IK board={=str} core={=str} lane={=str} solves={=u32} instructions={=u64} per_solve={=f32} worst={=u32}",
        board::NAME,
        board::CORE,
        R::NAME,
        SOLVES,
        total,
        total as f32 / SOLVES as f32,
        worst
    );
    let (planted, total) = walk::<R>(clock).map(|p| (p, net(clock.take())))?;
    defmt::info!(
        "WALK board={=str} core={=str} lane={=str} joints={=usize} frames={=u32} instructions={=u64} per_frame={=f32} planted={=u32}",
        board::NAME,
        board::CORE,
        R::NAME,
        WALK_JOINTS,
        FRAMES,
        total,
        total as f32 / FRAMES as f32,
        planted
    );
    Ok(())
}

/// The walk's ground: a ridge 4 cm high every 0.5 along +Z (piecewise linear).
fn ground(_x: f32, z: f32) -> f32 {
    let u = z / 0.5 + 8.0;
    let frac = u - (u as i32) as f32;
    0.08 * (0.5 - (frac - 0.5).abs())
}

/// Times [`FRAMES`] frames of the walking figure's animation layer; the feet planted over
/// them.
#[inline(never)]
fn walk<R: Real>(clock: &mut Clock) -> Result<u32, AnimError> {
    // Pelvis; left hip, knee, ankle; right hip, knee, ankle; spine; head.
    let offsets = [
        [0.0, 1.0, 0.0],
        [0.1, -0.05, 0.0],
        [0.0, -0.45, 0.0],
        [0.0, -0.45, 0.0],
        [-0.1, -0.05, 0.0],
        [0.0, -0.45, 0.0],
        [0.0, -0.45, 0.0],
        [0.0, 0.3, 0.0],
        [0.0, 0.3, 0.0],
    ];
    let parents = [
        None,
        Some(0),
        Some(1),
        Some(2),
        Some(0),
        Some(4),
        Some(5),
        Some(0),
        Some(7),
    ];
    let mut rest = [Transform::<R>::IDENTITY; WALK_JOINTS];
    for (joint, (p, at)) in rest.iter_mut().zip(offsets).enumerate() {
        *p = transform(joint, (at, [0.0, 0.0, 0.0, 1.0], [1.0; 3]))?;
    }
    let skeleton =
        Skeleton::<R, WALK_JOINTS>::new(&parents, &rest).map_err(AnimError::Kinematics)?;
    let knee = Hinge::new(0.0, 2.6)?;
    let legs = [
        Limb::new(&skeleton, [1, 2, 3], knee, None)?,
        Limb::new(&skeleton, [4, 5, 6], knee, None)?,
    ];
    let walker = Walker::new(&skeleton, 0, legs)?;
    let gait = Gait::new(0.5, 0.6, 0.06)?;
    let head = Aim::new(
        &skeleton,
        8,
        [0.0, 0.0, 1.0],
        [0.0, 1.0, 0.0],
        SwingTwist::new(1.2, -0.5, 0.5)?,
    )?;
    let mut world = [Affine::<R>::IDENTITY; WALK_JOINTS];
    let mut planted = 0;
    for k in 0..FRAMES {
        let t = k as f32 * 0.1;
        // A point sweeping from the figure's right to its left, ahead of it.
        let look = [-0.6 + 0.15 * k as f32, 1.5, 0.5 * t + 1.0];
        let mut pose = rest;
        let steps = clock.time(|| -> Result<_, AnimError> {
            let steps = walker.pose(&skeleton, &gait, t, ground, &mut pose, &mut world)?;
            skeleton
                .world(&pose, &mut world)
                .map_err(AnimError::Kinematics)?;
            head.apply(&skeleton, &mut pose, &world, look, [0.0, 1.0, 0.0], 1.0)?;
            Ok(steps)
        })?;
        planted += steps.iter().filter(|s| s.contact).count() as u32;
        core::hint::black_box(&pose);
    }
    Ok(planted)
}

/// Times [`REPS`] blends of `layers` random poses: their making (the rest pose's and each
/// layer's checks), then their applying; the two counts.
#[inline(never)]
fn blend<R: Real>(
    clock: &mut Clock,
    net: impl Fn((u64, u32)) -> u64,
    layers: usize,
) -> Result<(u64, u64), AnimError> {
    let mut rng = Rng::new(0x5EED_0B1E);
    let pose = |rng: &mut Rng| -> Result<[Transform<R>; JOINTS], AnimError> {
        let mut p = [Transform::<R>::IDENTITY; JOINTS];
        for (joint, t) in p.iter_mut().enumerate() {
            *t = transform(joint, random(rng))?;
        }
        Ok(p)
    };
    let rest = pose(&mut rng)?;
    let mut poses = [[Transform::<R>::IDENTITY; JOINTS]; LAYERS];
    for p in poses.iter_mut().take(layers) {
        *p = pose(&mut rng)?;
    }
    let weights = [0.5, 0.3, 0.2];
    let make = || -> Result<Blend<'_, R, LAYERS>, AnimError> {
        let mut b = Blend::<R, LAYERS>::new(core::hint::black_box(&rest))?;
        for (p, &w) in poses.iter().zip(&weights).take(layers) {
            b.layer(core::hint::black_box(p), w, None)?;
        }
        Ok(b)
    };
    for _ in 0..REPS {
        core::hint::black_box(clock.time(make)?);
    }
    let checks = net(clock.take());
    let b = make()?;
    let mut out = rest;
    for _ in 0..REPS {
        clock.time(|| b.apply(core::hint::black_box(&mut out)))?;
        core::hint::black_box(&out);
    }
    Ok((checks, net(clock.take())))
}

/// Times [`SOLVES`] leg solves; the worst ankle-to-target distance in millionths of the
/// leg's length.
#[inline(never)]
fn ik<R: Real>(clock: &mut Clock) -> Result<u32, AnimError> {
    let offsets = [
        [0.0, 1.0, 0.0],
        [0.1, -0.05, 0.0],
        [0.0, -0.45, 0.0],
        [0.0, -0.45, 0.0],
    ];
    let mut pose = [Transform::<R>::IDENTITY; 4];
    for (joint, (p, at)) in pose.iter_mut().zip(offsets).enumerate() {
        *p = transform(joint, (at, [0.0, 0.0, 0.0, 1.0], [1.0; 3]))?;
    }
    let parents = [None, Some(0), Some(1), Some(2)];
    let skeleton = Skeleton::<R, 4>::new(&parents, &pose).map_err(AnimError::Kinematics)?;
    let hinge = Hinge::new(0.05, 2.6)?;
    let swing = SwingTwist::new(1.4, -0.6, 0.6)?;
    let leg = Limb::new(&skeleton, [1, 2, 3], hinge, Some(swing))?;
    let rest = pose;
    let mut world = [Affine::<R>::IDENTITY; 4];
    let mut rng = Rng::new(0x1C_0DE);
    let mut worst = 0.0f32;
    for _ in 0..SOLVES {
        // A target in front of and below the hip, within reach of the bent leg.
        let target = [
            0.1 + 0.2 * rng.signed(),
            0.25 + 0.2 * rng.unit(),
            0.3 * rng.signed(),
        ];
        let goal = Goal {
            target,
            pole: [0.1, 0.5, 1.0],
            weight: 1.0,
            soft: 1.0,
        };
        pose = rest;
        skeleton
            .world(&pose, &mut world)
            .map_err(AnimError::Kinematics)?;
        clock.time(|| leg.apply(&skeleton, &mut pose, &world, core::hint::black_box(goal)))?;
        skeleton
            .world(&pose, &mut world)
            .map_err(AnimError::Kinematics)?;
        let ankle = world[3].translation_part();
        let off = |i: usize| ankle[i].to_f32() - target[i];
        let d: f32 = Real::sqrt((0..3).map(|i| off(i) * off(i)).sum());
        worst = worst.max(d);
    }
    Ok((worst / 0.9 * 1e6) as u32)
}
