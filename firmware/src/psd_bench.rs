//! The pose-space deformation benchmark: instructions of one frame's corrective weights
//! (`skin_core::psd`: the feature read from the pose, then every target's weight from the
//! Gaussian RBF) in the lane's pose format (`f32`, or `I8F24` in the fixed lane).
//!
//! Log line:
//!
//! ```text
//! PSD board=… core=… format=… drivers=… samples=… targets=… instructions=… per_frame=…
//! ```
//!
//! The RBF: [`DRIVERS`] driving joints, [`SAMPLES`] samples (rotations about z and x by
//! multiples of 20°), [`TARGETS`] targets with weights in [−½, ½], σ = ½; the pose turns
//! each driver between two samples. `instructions` is the total over [`REPS`] evaluations,
//! `per_frame` one evaluation's.

use skin_core::psd::{PsdError, Rbf, RbfReal};
use skin_core::transform::Transform;

use crate::board::{self, Clock};

/// Driving joints.
pub const DRIVERS: usize = 2;
/// Pose-space samples.
pub const SAMPLES: usize = 8;
/// Corrective targets.
pub const TARGETS: usize = 4;
/// Evaluations timed.
pub const REPS: u32 = 4;

/// `(sin, cos)` of 0°, 10°, …, 70°: the half angles of the samples' rotations.
const HALF: [(f32, f32); SAMPLES] = [
    (0.0, 1.0),
    (0.173_648_18, 0.984_807_7),
    (0.342_020_14, 0.939_692_6),
    (0.5, 0.866_025_4),
    (0.642_787_6, 0.766_044_4),
    (0.766_044_4, 0.642_787_6),
    (0.866_025_4, 0.5),
    (0.939_692_6, 0.342_020_14),
];

/// A rotation about z (`driver` 0) or x by the half angle `(s, c)`.
fn rotation(driver: usize, (s, c): (f32, f32)) -> [f32; 4] {
    if driver == 0 {
        [0.0, 0.0, s, c]
    } else {
        [s, 0.0, 0.0, c]
    }
}

/// Measures the corrective weights and logs the `PSD` line; `instructions` converts
/// SysTick ticks, `empty` is the stopwatch's own cost per `calls` timed calls.
#[inline(never)]
pub fn run<R: RbfReal>(
    clock: &mut Clock,
    instructions: impl Fn(u64) -> u64,
    (empty, calls): (u64, u32),
) -> Result<(), PsdError> {
    let value = |v: f32, index| {
        R::from_f32(v).map_err(|_| PsdError::NotFinite {
            what: "weight",
            index,
        })
    };
    let mut centres = [[R::ZERO; 4]; SAMPLES * DRIVERS];
    for (i, c) in centres.iter_mut().enumerate() {
        let (j, d) = (i / DRIVERS, i % DRIVERS);
        let q = rotation(d, HALF[(j + 3 * d) % SAMPLES]);
        for (o, v) in c.iter_mut().zip(q) {
            *o = value(v, i)?;
        }
    }
    let mut weights = [R::ZERO; SAMPLES * TARGETS];
    for (i, w) in weights.iter_mut().enumerate() {
        *w = value(((i * 7) % 5) as f32 * 0.25 - 0.5, i)?;
    }
    let rbf = Rbf::new(&[1, 2], &centres, &weights, TARGETS, 0.5, DRIVERS + 1)?;
    let mut pose = [Transform::<R>::IDENTITY; DRIVERS + 1];
    for (d, t) in pose.iter_mut().skip(1).enumerate() {
        let q = rotation(d, (0.422_618_26, 0.906_307_8)); // 50°
        t.rotation.x = value(q[0], d)?;
        t.rotation.z = value(q[2], d)?;
        t.rotation.w = value(q[3], d)?;
    }
    let mut out = [0.0f32; TARGETS];
    clock.take();
    let mut result = Ok(());
    for _ in 0..REPS {
        clock.time(|| {
            let pose = core::hint::black_box(&pose);
            result = rbf
                .feature(pose)
                .and_then(|phi| rbf.weights(&phi, &mut out));
            core::hint::black_box(&out);
        });
    }
    result?;
    let (ticks, timed) = clock.take();
    let overhead = empty * u64::from(timed) / u64::from(calls);
    let total = instructions(ticks).saturating_sub(overhead);
    defmt::info!(
        "PSD board={=str} core={=str} format={=str} drivers={=u32} samples={=u32} targets={=u32} instructions={=u64} per_frame={=u64}",
        board::NAME,
        board::CORE,
        R::NAME,
        DRIVERS as u32,
        SAMPLES as u32,
        TARGETS as u32,
        total,
        total / u64::from(REPS)
    );
    Ok(())
}
