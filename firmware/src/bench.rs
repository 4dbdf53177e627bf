//! The kernel benchmark: instructions per vertex of every kernel in this build's lane, on
//! the synthetic rig ([`crate::synthetic`]), logged with defmt.
//!
//! Log lines (parsed by `tests/tests/firmware_bench.rs`):
//!
//! ```text
//! CALIBRATION board=… core=… instructions=… ticks=…
//! OVERHEAD board=… instructions=… calls=…
//! RESULT board=… core=… lane=… kernel=… vertices=… instructions=… per_vertex=… checksum=…
//! LATTICE board=… core=… lane=… degree=… vertices=… instructions=… per_vertex=…
//! MORPH board=… core=… lane=… vertices=… plain=… none=… one=… two=… per_target_vertex=…
//! BLEND board=… core=… lane=… joints=… layers=… instructions=… per_joint_layer=… one_layer=… checks_per_joint_layer=…
//! IK board=… core=… lane=… solves=… instructions=… per_solve=… worst=…
//! PSD board=… core=… format=… drivers=… samples=… targets=… instructions=… per_frame=…
//! ```
//!
//! `LATTICE` is the lattice free-form deformation (`skin_core::lattice`) of one chunk of
//! skinned vertices, every one inside the box, degrees `degree` on all three axes with the
//! control points moved; each timed call copies the chunk's skinned positions (three words a
//! vertex) and deforms the copy.
//!
//! `MORPH` is the deform step's cost ([`crate::morph_bench`]); `BLEND` and `IK` the
//! animation layer's ([`crate::anim_bench`]); `PSD` one frame's corrective weights
//! ([`crate::psd_bench`]).
//!
//! `instructions` is the kernel's total over `vertices` skinned vertices (the mesh times
//! [`REPS`]), with the stopwatch's own cost subtracted; `checksum` fingerprints the output
//! over the mesh (the host computes the same, see [`crate::synthetic::Checksum`]).

use skin_core::asset::AssetLane;
use skin_core::error::Error;
use skin_core::lane::Lane;
use skin_core::lattice::{Coord, Lattice};
use skin_core::psd::RbfReal;
use skin_core::raster::Project;

use crate::board::{self, Clock};
use crate::dqs_check;
use crate::synthetic::{self, Chunk, Kernel, VERTICES};

/// Times each chunk is skinned inside one timed call.
pub const REPS: u32 = 4;

/// Empty timed calls that measure the stopwatch's own cost.
const EMPTY_CALLS: u32 = 1000;

/// Runs the self-check and every kernel; `Ok(false)` when a check failed.
pub fn run<L: AssetLane + Project>(clock: &mut Clock) -> Result<bool, Error>
where
    L::Out: Coord,
    L::Real: RbfReal,
{
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

    let same = lane_loop_matches_generic_loop::<L>()? && dqs_loop_matches_generic_loop::<L>()?;
    // The fixed lane's projection loop (ARMv6-M assembly in Cortex-M0 code).
    #[cfg(feature = "fixed")]
    let same = same && project_loop_matches_per_vertex_path();
    // The band's fill (ARMv6-M assembly in Cortex-M0 code).
    let same = same && fill_loop_matches_rust_scan();
    // Binning's loop (ARMv6-M assembly in Cortex-M0 code).
    let same = same && bin_loop_matches_rust_loop();
    // Not in the micro:bit's `f32` build: its soft-float scene and the benchmark's asset
    // need more stack than its 16 KiB leave beside the kernels' (its Cortex-M0 code measures
    // it on the mps2-an385, `scripts/firmware.sh kernels mps2-an385-m0 f32`).
    #[cfg(not(all(feature = "microbit", feature = "f32")))]
    let morphed = crate::morph_bench::run::<L>(clock, to_instructions, (empty, EMPTY_CALLS));
    #[cfg(all(feature = "microbit", feature = "f32"))]
    let morphed = Ok::<(), Error>(());
    // The deform step's assembly loop (the M4F's fixed lane) against the lane's steps: only
    // there, as a second use of the scene's code changes how LLVM compiles the Rust loop
    // the other builds time (Cortex-M0: 117 -> 143 instructions a target and vertex).
    #[cfg(all(feature = "mps2-an386", feature = "fixed"))]
    let morphed = morphed.and_then(|()| crate::morph_bench::check::<L>());
    #[cfg(not(all(feature = "mps2-an386", feature = "fixed")))]
    let morphed = morphed.map(|()| true);
    let morphed = match morphed {
        Ok(same) => same,
        Err(e) => {
            defmt::error!("CHECK FAILED: the morph benchmark: {}", e);
            return Ok(false);
        }
    };
    // Not on the micro:bit: its flash holds the kernels, morph and lattice benchmarks only;
    // its Cortex-M0 code runs these on the mps2-an385 (`mps2-an385-m0`).
    #[cfg(not(feature = "microbit"))]
    if let Err(e) = crate::anim_bench::run::<L::Real>(clock, to_instructions, (empty, EMPTY_CALLS))
    {
        defmt::error!("CHECK FAILED: the animation benchmark: {}", e);
        return Ok(false);
    }
    #[cfg(not(feature = "microbit"))]
    if let Err(e) = crate::psd_bench::run::<L::Real>(clock, to_instructions, (empty, EMPTY_CALLS)) {
        defmt::error!("CHECK FAILED: the PSD benchmark: {}", e);
        return Ok(false);
    }
    let measured = kernels::<L>(clock, &to_instructions, empty)?;
    let lattices = lattices::<L>(clock, &to_instructions, empty)?;
    Ok(measured && same && morphed && lattices)
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
        let sum = synthetic::run(kernel, &palette, &mut chunk, REPS, clock)?;
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

/// Measures the lattice deformation of one skinned chunk (see the module docs);
/// `Ok(false)` when a lattice could not be made or a vertex left its box.
#[inline(never)]
fn lattices<L: Lane>(
    clock: &mut Clock,
    to_instructions: impl Fn(u64) -> u64,
    empty: u64,
) -> Result<bool, Error>
where
    L::Out: Coord,
{
    let mut chunk = Chunk::<L>::default();
    let mut rng = synthetic::Rng::new(synthetic::MESH_SEED);
    chunk.fill(&mut rng, 0)?;
    let palette = synthetic::palette::<L>(&mut synthetic::Rng::new(synthetic::POSE_SEED))?;
    chunk.skin(Kernel::Lbs4, &palette, 1, &mut ())?;
    // The box around the skinned chunk, a little larger.
    let (mut lo, mut hi) = ([f32::MAX; 3], [f32::MIN; 3]);
    for p in &chunk.out {
        for a in 0..3 {
            let v = L::out_to_f32(p[a]);
            lo[a] = lo[a].min(v - 0.01);
            hi[a] = hi[a].max(v + 0.01);
        }
    }
    for degree in [1u8, 3] {
        let Ok(mut lattice) = Lattice::<L::Out>::new(lo, hi, [degree; 3]) else {
            defmt::error!("CHECK FAILED: no lattice over the skinned chunk");
            return Ok(false);
        };
        // Every control point moved by up to a tenth of the box.
        for i in 0..=degree {
            for j in 0..=degree {
                for k in 0..=degree {
                    let rest = lattice.rest_point([i, j, k]);
                    let p = [0, 1, 2].map(|a| rest[a] + (rng.unit() - 0.5) * 0.2 * (hi[a] - lo[a]));
                    if lattice.set([i, j, k], p).is_err() {
                        defmt::error!("CHECK FAILED: a lattice point out of range");
                        return Ok(false);
                    }
                }
            }
        }
        let (min, max) = lattice.bounds();
        let inside = chunk
            .out
            .iter()
            .all(|p| (0..3).all(|a| p[a] >= min[a] && p[a] <= max[a]));
        let mut moved = chunk.out;
        for _ in 0..REPS {
            clock.time(|| {
                moved = core::hint::black_box(chunk.out);
                lattice.deform(&mut moved);
                core::hint::black_box(&moved);
            });
        }
        let (ticks, calls) = clock.take();
        let overhead = empty * u64::from(calls) / u64::from(EMPTY_CALLS);
        let instructions = to_instructions(ticks).saturating_sub(overhead);
        let vertices = synthetic::CHUNK as u32 * REPS;
        defmt::info!(
            "LATTICE board={=str} core={=str} lane={=str} degree={=u8} vertices={=u32} instructions={=u64} per_vertex={=f32}",
            board::NAME,
            board::CORE,
            L::NAME,
            degree,
            vertices,
            instructions,
            instructions as f32 / vertices as f32
        );
        if !inside {
            defmt::error!("CHECK FAILED: a skinned vertex lies outside the lattice's box");
            return Ok(false);
        }
    }
    Ok(true)
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

/// The lane's own DQS loop (the fixed lane's assembly kernels on cores with the DSP
/// extension) must give the generic loop's bits on [`dqs_check::check_dqs_loop`]'s
/// adversarial inputs.
#[inline(never)]
fn dqs_loop_matches_generic_loop<L: Lane>() -> Result<bool, Error> {
    match dqs_check::check_dqs_loop::<L>()? {
        // Every case compared (the host test requires the same count).
        Ok(cases) if cases == dqs_check::DQS_CASES => {
            defmt::info!("CHECK dqs-loop ok cases={=u32}", cases);
            Ok(true)
        }
        Err(m) => {
            defmt::error!(
                "CHECK FAILED: the lane's DQS loop differs from the generic loop: round={=u32} bones={=usize} influences={=usize} vertices={=usize} normals={=bool}",
                m.round,
                m.bones,
                m.influences,
                m.len,
                m.normals
            );
            defmt::info!("CHECK dqs-loop failed");
            Ok(false)
        }
        Ok(cases) => {
            defmt::error!(
                "CHECK FAILED: the DQS loop check compared {=u32} cases",
                cases
            );
            defmt::info!("CHECK dqs-loop failed");
            Ok(false)
        }
    }
}

/// The fixed lane's projection loop must give the per-vertex path's bits on
/// [`project_check::check_project_loop`]'s chunks.
#[cfg(feature = "fixed")]
fn project_loop_matches_per_vertex_path() -> bool {
    match crate::project_check::check_project_loop() {
        // Every planned chunk compared, or the check proved less than it says.
        Ok(cases) if cases == crate::project_check::PROJECT_CASES => {
            defmt::info!("CHECK project-loop ok cases={=u32}", cases);
            true
        }
        Ok(cases) => {
            defmt::error!(
                "CHECK FAILED: the projection check compared {=u32} chunks, not {=u32}",
                cases,
                crate::project_check::PROJECT_CASES
            );
            false
        }
        Err(m) => {
            defmt::error!(
                "CHECK FAILED: the projection loop differs from the per-vertex path: camera={=usize} round={=u32} vertices={=usize}",
                m.camera,
                m.round,
                m.len
            );
            defmt::info!("CHECK project-loop failed");
            false
        }
    }
}

/// A band's fill must give the Rust scan's pixels on [`fill_check::check_fill_loop`]'s
/// triangles.
fn fill_loop_matches_rust_scan() -> bool {
    match crate::fill_check::check_fill_loop() {
        // Every planned triangle compared, or the check proved less than it says.
        Ok(cases) if cases == crate::fill_check::FILL_CASES => {
            defmt::info!("CHECK fill-loop ok cases={=u32}", cases);
            true
        }
        Ok(cases) => {
            defmt::error!(
                "CHECK FAILED: the fill check compared {=u32} triangles, not {=u32}",
                cases,
                crate::fill_check::FILL_CASES
            );
            false
        }
        Err(m) => {
            defmt::error!(
                "CHECK FAILED: the band's fill differs from the Rust scan: case={=u32}",
                m.case
            );
            defmt::info!("CHECK fill-loop failed");
            false
        }
    }
}

/// Binning must give the Rust loop's lists (or error) on [`bin_check::check_bin_loop`]'s
/// frames.
fn bin_loop_matches_rust_loop() -> bool {
    match crate::bin_check::check_bin_loop() {
        // Every planned frame compared, or the check proved less than it says.
        Ok(cases) if cases == crate::bin_check::BIN_CASES => {
            defmt::info!("CHECK bin-loop ok cases={=u32}", cases);
            true
        }
        Ok(cases) => {
            defmt::error!(
                "CHECK FAILED: the binning check compared {=u32} frames, not {=u32}",
                cases,
                crate::bin_check::BIN_CASES
            );
            false
        }
        Err(m) => {
            defmt::error!(
                "CHECK FAILED: binning differs from the Rust loop: case={=u32}",
                m.case
            );
            defmt::info!("CHECK bin-loop failed");
            false
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
        chunk.skin(kernel, &rest, 1, &mut ())?;
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
