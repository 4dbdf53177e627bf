//! The kernel benchmark: instructions per vertex of every kernel in this build's lane, on
//! the synthetic rig ([`crate::synthetic`]), logged with defmt.
//!
//! Log lines (parsed by `tests/tests/firmware_bench.rs`):
//!
//! ```text
//! CALIBRATION board=… core=… instructions=… ticks=…
//! OVERHEAD board=… instructions=… calls=…
//! RESULT board=… core=… lane=… kernel=… vertices=… instructions=… per_vertex=… checksum=…
//! MORPH board=… core=… lane=… vertices=… plain=… none=… one=… two=… per_target_vertex=…
//! ```
//!
//! (`MORPH`: the deform step's cost, [`crate::morph_bench`].)
//!
//! `instructions` is the kernel's total over `vertices` skinned vertices (the mesh times
//! [`REPS`]), with the stopwatch's own cost subtracted; `checksum` fingerprints the output
//! over the mesh (the host computes the same, see [`crate::synthetic::Checksum`]).

use skin_core::asset::AssetLane;
use skin_core::error::Error;
use skin_core::lane::Lane;
use skin_core::raster::Project;

use crate::board::{self, Clock};
use crate::synthetic::{self, Chunk, Kernel, VERTICES};

/// Times each chunk is skinned inside one timed call.
pub const REPS: u32 = 4;

/// Empty timed calls that measure the stopwatch's own cost.
const EMPTY_CALLS: u32 = 1000;

/// Runs the self-check and every kernel; `Ok(false)` when a check failed.
pub fn run<L: AssetLane + Project>(clock: &mut Clock) -> Result<bool, Error> {
    let (cal_instructions, cal_ticks) = clock.calibrate();
    defmt::info!(
        "CALIBRATION board={=str} core={=str} instructions={=u64} ticks={=u64}",
        board::NAME,
        board::CORE,
        cal_instructions,
        cal_ticks
    );
    if cal_ticks == 0 {
        defmt::error!("SysTick did not advance: run QEMU with -icount shift=0");
        return Ok(false);
    }
    let to_instructions = |ticks: u64| ticks * cal_instructions / cal_ticks;

    // The stopwatch's own cost: the mean over many empty timed calls.
    clock.take();
    for _ in 0..EMPTY_CALLS {
        clock.time(|| core::hint::black_box(()));
    }
    let (empty_ticks, _) = clock.take();
    let empty = to_instructions(empty_ticks);
    defmt::info!(
        "OVERHEAD board={=str} instructions={=u64} calls={=u32}",
        board::NAME,
        empty,
        EMPTY_CALLS
    );

    let same = lane_loop_matches_generic_loop::<L>()?;
    if let Err(e) = crate::morph_bench::run::<L>(clock, to_instructions, (empty, EMPTY_CALLS)) {
        defmt::error!("CHECK FAILED: the morph benchmark: {}", e);
        return Ok(false);
    }
    Ok(kernels::<L>(clock, to_instructions, empty)? && same)
}

/// Measures every kernel (its own function: its buffers do not share the stack with the
/// lane-loop check's); `Ok(false)` when the rest-pose check failed.
#[inline(never)]
fn kernels<L: Lane>(
    clock: &mut Clock,
    to_instructions: impl Fn(u64) -> u64,
    empty: u64,
) -> Result<bool, Error> {
    let mut chunk = Chunk::<L>::default();
    let ok = rest_pose_is_identity(&mut chunk)?;

    let palette = synthetic::palette::<L>(&mut synthetic::Rng::new(synthetic::POSE_SEED))?;
    for kernel in Kernel::ALL {
        let sum = synthetic::run(kernel, palette.as_slice(), &mut chunk, REPS, clock)?;
        let (ticks, calls) = clock.take();
        let overhead = empty * u64::from(calls) / u64::from(EMPTY_CALLS);
        let instructions = to_instructions(ticks).saturating_sub(overhead);
        let vertices = VERTICES as u32 * REPS;
        defmt::info!(
            "RESULT board={=str} core={=str} lane={=str} kernel={=str} vertices={=u32} instructions={=u64} per_vertex={=f32} checksum={=u32}",
            board::NAME,
            board::CORE,
            L::NAME,
            kernel.name(),
            vertices,
            instructions,
            instructions as f32 / vertices as f32,
            sum.0
        );
    }
    Ok(ok)
}

/// The lane's own LBS loop (the fixed lane's assembly kernels on Cortex-M) must give the
/// generic Rust loop's bits on [`synthetic::check_lane_loop`]'s adversarial inputs.
#[inline(never)]
fn lane_loop_matches_generic_loop<L: Lane>() -> Result<bool, Error> {
    match synthetic::check_lane_loop::<L>()? {
        Ok(cases) => {
            defmt::info!("CHECK lane-loop ok cases={=u32}", cases);
            Ok(true)
        }
        Err(m) => {
            defmt::error!(
                "CHECK FAILED: the lane's LBS loop differs from the generic loop: round={=u32} bones={=usize} influences={=usize} vertices={=usize} normals={=bool}",
                m.round,
                m.bones,
                m.influences,
                m.len,
                m.normals
            );
            defmt::info!("CHECK lane-loop failed");
            Ok(false)
        }
    }
}

/// In the bind pose (identity palette) every kernel must leave positions exactly in place.
fn rest_pose_is_identity<L: Lane>(chunk: &mut Chunk<L>) -> Result<bool, Error> {
    let rest = synthetic::rest::<L>()?;
    let mut rng = synthetic::Rng::new(synthetic::MESH_SEED);
    chunk.fill(&mut rng, 0)?;
    let mut ok = true;
    for kernel in Kernel::ALL {
        chunk.skin(kernel, rest.as_slice(), 1, &mut ())?;
        let moved = chunk
            .positions
            .iter()
            .flatten()
            .zip(chunk.out.iter().flatten())
            .position(|(p, o)| p.to_f32() != L::out_to_f32(*o));
        if let Some(i) = moved {
            defmt::error!(
                "CHECK FAILED: {=str} moved vertex {=usize} in the rest pose",
                kernel.name(),
                i / 3
            );
            ok = false;
        }
    }
    defmt::info!("CHECK rest-pose {=str}", if ok { "ok" } else { "failed" });
    Ok(ok)
}
