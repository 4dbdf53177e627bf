//! The frame loop: plays the first clip of a baked asset into a display, band by band.
//!
//! All the work is skin-core's [`Scene`] — the host renders the same frames with it — so
//! this module only owns the buffers (all on the stack, none per frame), times each stage
//! and logs. The display is any embedded-graphics `DrawTarget<Color = Rgb565>`: semihosting
//! frame files under QEMU, an ST7789 on the Pico; there the bands are shared with the second
//! core ([`Screen`]).
//!
//! Log lines (parsed by `tests/tests/firmware_frames.rs`):
//!
//! ```text
//! ASSET board=… core=… target=… counts=… lane=… bytes=… aligned=… checksum=… bones=… vertices=… triangles=… parts=… clip=… duration=… width=… height=… band_rows=… skinning=…
//! PART part=… vertices=… bones=… loop=… in_place=…
//! FRAME frame=… time=… sample=… palette=… skin=… project=… raster=… display=… animate=… total=…
//! TANGENTS frame=… checksum=… instructions=…
//! MEMORY band_rows=… band_bytes=… vertex_bytes=… span_bytes=… scene_bytes=… static_ram=… stack_used=… ram_used=… ram_size=…
//! ```
//!
//! `aligned` says whether the embedded asset starts on a 4-byte boundary; each `PART` line
//! names the loop that skins the part (`generic`, `assembly`) and whether it reads the
//! vertices where the asset stores them (`in_place`) or copies them first, so that a slower
//! route than the target has shows in the log.
//!
//! Stage figures (`counts=`) are instructions under QEMU (`-icount shift=0`; SysTick
//! calibrated as the benchmark does) and core cycles on a real board, the stopwatch's own
//! cost subtracted.
//! `total` is sample + palette + skin + project + raster + animate: the frame's work without
//! `display`, the time spent handing finished bands to the display driver; `animate` is the
//! animation layer on the sampled pose (the walk demo's, feature `walk`; 0 without one).
//! An asset with tangents (`docs/FORMAT.md`, *Tangents*) has them skinned after each frame's
//! projection ([`Scene::tangents`]) and logs a `TANGENTS` line: the [`fnv1a`] checksum of
//! every skinned tangent's stored bytes in vertex order (the host computes it from its own
//! scene), and the instructions the step took (not in `total`: the frame does not draw
//! with them).

use embedded_graphics_core::pixelcolor::{Rgb565, RgbColor};
use skin_core::affine::Affine;
use skin_core::asset::{self, Asset, AssetLane};
#[cfg(all(feature = "dqs", not(stretched)))]
use skin_core::palette::DualPalette;
#[cfg(not(feature = "dqs"))]
use skin_core::palette::Palette;
#[cfg(all(feature = "dqs", stretched))]
use skin_core::palette::StretchPalette;
use skin_core::raster::bins::Span;
use skin_core::raster::{FrameError, Project, RasterError, ScreenVertex};
use skin_core::scene::{Scene, Scratch, Stage, Stages};
use skin_core::transform::Transform;

use crate::clock::Clock;
use crate::screen::Screen;
use crate::stack;

/// The display: 240 × 240 (an ST7789 panel's size).
pub const WIDTH: u16 = 240;
/// The display's height.
pub const HEIGHT: u16 = 240;
/// The buffers' capacities, sized by build.rs to the embedded model (its bones, vertices,
/// triangles and largest part palette), which it checks against the board's RAM, and the
/// rows per band, the board's (docs/BENCHMARKS.md, *Frame speed and memory on the boards*:
/// band rows against instructions and stack) or the build's `SKIN_BAND_ROWS`.
mod model {
    include!(concat!(env!("OUT_DIR"), "/model.rs"));
}
pub use model::{BONES, PALETTE, ROWS, TRIANGLES, VERTICES};

/// The palette the build skins with: the asset's method must be this one
/// (`RasterError::Skinning` otherwise, before the first frame); its capacity is the model's
/// largest part palette (build.rs), within the board's.
#[cfg(not(feature = "dqs"))]
type PartPalette<L> = Palette<L, PALETTE>;
/// The palette the build skins with (see above).
#[cfg(all(feature = "dqs", not(stretched)))]
type PartPalette<L> = DualPalette<L, PALETTE>;
/// The palette the build skins with (see above): an asset baked for DQS of joints with
/// scale or shear (build.rs sets `stretched`) needs each joint's stretch beside its dual
/// quaternion.
#[cfg(all(feature = "dqs", stretched))]
type PartPalette<L> = StretchPalette<L, PALETTE>;

/// Vertices skinned at a time: the micro:bit's 16 KiB of RAM take small chunks; the Pico
/// (264 KiB) and the MPS2 boards, which get the Pico's buffers so that Cortex-M0 code on
/// the mps2-an385 measures what the Pico needs, larger ones (fewer calls). Parts are
/// skinned one palette of at most [`PALETTE`] bones at a time, but the skeleton is posed
/// whole, so [`BONES`] is the model's whole skeleton.
#[cfg(feature = "microbit")]
pub const CHUNK: usize = 8;
/// Vertices skinned at a time.
#[cfg(not(feature = "microbit"))]
pub const CHUNK: usize = 128;

/// The board, as the `ASSET` line names it.
pub struct Board {
    /// Board name.
    pub name: &'static str,
    /// CPU core.
    pub core: &'static str,
    /// What SysTick ticks stand for.
    pub counts: Counts,
}

/// What the stage figures count.
#[derive(Clone, Copy, PartialEq, Eq)]
#[allow(dead_code)] // a build constructs the variant of its board only
pub enum Counts {
    /// Instructions: under `qemu -icount shift=0` (SysTick calibrated against a loop of
    /// known length).
    Instructions,
    /// Core clock cycles: SysTick on real hardware.
    Cycles,
}

impl Counts {
    fn name(self) -> &'static str {
        match self {
            Counts::Instructions => "instructions",
            Counts::Cycles => "cycles",
        }
    }
}

/// Per-stage tick and call tallies.
#[derive(Clone, Copy, Default)]
struct Tally {
    ticks: [u64; 7],
    calls: [u32; 7],
}

/// Times each stage of the scene with the SysTick clock.
struct Timed<'c> {
    clock: &'c mut Clock,
    tally: Tally,
}

impl Stages for Timed<'_> {
    fn time<R>(&mut self, stage: Stage, f: impl FnOnce() -> R) -> R {
        let i = match stage {
            Stage::Sample => 0,
            Stage::Palette => 1,
            Stage::Skin => 2,
            Stage::Project => 3,
            Stage::Raster => 4,
            Stage::Display => 5,
            Stage::Animate => 6,
        };
        let r = self.clock.time(f);
        let (ticks, calls) = self.clock.take();
        self.tally.ticks[i] += ticks;
        self.tally.calls[i] += calls;
        r
    }
}

/// Converts stopwatch ticks to instructions or cycles, less the stopwatch's own cost.
struct Meter {
    /// Instructions (or cycles) per `ticks` ticks.
    instructions: u64,
    ticks: u64,
    /// The stopwatch's cost in ticks over `EMPTY_CALLS` empty timed calls.
    empty: u64,
}

/// Empty timed calls measured for the stopwatch's own cost.
const EMPTY_CALLS: u32 = 1000;

impl Meter {
    fn new(clock: &mut Clock, counts: Counts) -> Self {
        let (instructions, ticks) = match counts {
            Counts::Instructions => clock.calibrate(),
            Counts::Cycles => (1, 1),
        };
        clock.take();
        for _ in 0..EMPTY_CALLS {
            clock.time(|| core::hint::black_box(()));
        }
        let (empty, _) = clock.take();
        Self {
            instructions,
            ticks: ticks.max(1),
            empty,
        }
    }

    /// Instructions in `ticks` ticks spent over `calls` timed calls.
    fn instructions(&self, ticks: u64, calls: u32) -> u64 {
        let overhead = self.empty * u64::from(calls) / u64::from(EMPTY_CALLS);
        ticks.saturating_sub(overhead) * self.instructions / self.ticks
    }
}

/// The pose-side buffers: everything a frame needs besides the scene and the screen side.
struct Poser<L: Project> {
    pose: [Transform<L::Real>; BONES],
    world: [Affine<L::Real>; BONES],
    palette: PartPalette<L>,
    scratch: Scratch<L, CHUNK>,
}

impl<L: Project> Poser<L> {
    /// The buffers at rest. Not inlined: the values they start from are built in this call's
    /// own frame, gone before the frame loop runs (inlined into [`play`], the identity pose,
    /// world matrices and palette were each built on the stack beside the buffers and copied
    /// in: 1.4 KiB as M0 code, 1.6 KiB in `f32`, reserved under every frame).
    #[inline(never)]
    fn new() -> Self {
        Self {
            pose: [Transform::IDENTITY; BONES],
            world: [Affine::IDENTITY; BONES],
            palette: PartPalette::new(),
            scratch: Scratch::default(),
        }
    }
}

/// Plays the asset `bytes` in lane `L` into `display` (a display, or the Pico's two cores
/// and its display: [`Screen`]): frame `k` at time `time(scene, k)` seconds, until that is
/// `None`. Logs `ASSET`, a `FRAME` per frame and `MEMORY` at the end; returns the number of
/// frames played.
pub fn play<L, D>(
    bytes: &[u8],
    board: &Board,
    display: &mut D,
    clock: &mut Clock,
    time: impl FnMut(&Scene<'_, L, BONES>, u32) -> Option<f32>,
) -> Result<u32, FrameError<D::Error>>
where
    L: AssetLane + Project,
    D: Screen<L>,
{
    let meter = Meter::new(clock, board.counts);
    let asset = Asset::<L>::read(bytes).map_err(|e| FrameError::Raster(e.into()))?;
    let mut p = Poser::<L>::new();
    // Used in place, never moved out of the `Result`: the micro:bit has no room for a copy.
    let made = setup(asset, &mut p);
    let scene = made.as_ref().map_err(|e| FrameError::Raster(*e))?;
    let (clip, duration) = scene.clip().unwrap_or(("(rest pose)", 0.0));
    defmt::info!(
        "ASSET board={=str} core={=str} target={=str} counts={=str} lane={=str} bytes={=usize} aligned={=bool} checksum={=u32} bones={=usize} vertices={=usize} triangles={=usize} parts={=usize} clip={=str} duration={=f32} width={=u16} height={=u16} band_rows={=usize} skinning={=str}",
        board.name,
        board.core,
        env!("SKIN_TARGET"),
        board.counts.name(),
        L::NAME,
        bytes.len(),
        bytes.as_ptr() as usize % 4 == 0,
        asset::checksum(bytes),
        scene.bones(),
        scene.vertices(),
        asset.indices().len() / 3,
        asset.parts().count(),
        clip,
        duration,
        WIDTH,
        HEIGHT,
        ROWS,
        asset.skinning().name()
    );
    for (index, part) in asset.parts().enumerate() {
        let route = scene.route(&part).map_err(FrameError::Raster)?;
        defmt::info!(
            "PART part={=usize} vertices={=usize} bones={=usize} loop={=str} in_place={=bool}",
            index,
            part.vertex_range().len(),
            part.bones().len(),
            route.skinning.name(),
            route.in_place
        );
    }
    frames(scene, &mut p, &meter, display, clock, time)
}

/// The scene of `asset`, its camera framing the skinned rest pose. Not inlined: the
/// temporaries of making a scene (its skeleton and bind pose before they move into it) take
/// stack only while it runs.
#[inline(never)]
fn setup<'a, L: AssetLane + Project>(
    asset: Asset<'a, L>,
    p: &mut Poser<L>,
) -> Result<Scene<'a, L, BONES>, RasterError> {
    let mut scene = Scene::<L, BONES>::new(asset, WIDTH, HEIGHT)?;
    scene.frame_rest_pose(&mut p.pose, &mut p.world, &mut p.palette, &mut p.scratch)?;
    Ok(scene)
}

/// FNV-1a (32-bit) of `bytes` continued from `sum` (start from [`FNV_OFFSET`]): a checksum
/// the host recomputes from its own bytes.
pub fn fnv1a(sum: u32, bytes: &[u8]) -> u32 {
    bytes
        .iter()
        .fold(sum, |h, &b| (h ^ u32::from(b)).wrapping_mul(0x0100_0193))
}

/// FNV-1a's starting value.
pub const FNV_OFFSET: u32 = 0x811c_9dc5;

/// The asset's tangents skinned for the frame's world matrices with the frame's palette:
/// their checksum ([`fnv1a`] of each tangent's four values as the asset stores them), and
/// the ticks and timed calls they took. Not inlined: the step's chunk buffers (the tangents'
/// inputs, their skinned directions and the stored tangents, [`CHUNK`] of each) then take
/// stack only while it runs, beside the projection's and the raster's, not for the whole
/// frame loop (inlined into [`frames`] they added 6–10 KiB to every board's CesiumMan
/// frame, whose asset has no tangents).
#[inline(never)]
fn tangents<L: AssetLane + Project>(
    scene: &Scene<'_, L, BONES>,
    p: &mut Poser<L>,
    clock: &mut Clock,
) -> Result<(u32, u64, u32), RasterError> {
    let mut sum = FNV_OFFSET;
    let done = clock.time(|| {
        // The skin step left its last part's palette for these world matrices.
        scene.tangents::<_, CHUNK>(&p.world, &mut p.palette, true, |_, chunk| {
            let mut b = [0u8; 4];
            for c in chunk.iter().flatten() {
                c.put(&mut b[..L::VALUE_BYTES]);
                sum = fnv1a(sum, &b[..L::VALUE_BYTES]);
            }
        })
    });
    let (ticks, calls) = clock.take();
    done.map(|()| (sum, ticks, calls))
}

/// The frame loop of [`play`]. Not inlined: its screen-side buffers (projected vertices,
/// a band's colour and depth) take stack only once the scene is made, not alongside the
/// scene's construction.
#[inline(never)]
fn frames<L, D>(
    scene: &Scene<'_, L, BONES>,
    p: &mut Poser<L>,
    meter: &Meter,
    display: &mut D,
    clock: &mut Clock,
    mut time: impl FnMut(&Scene<'_, L, BONES>, u32) -> Option<f32>,
) -> Result<u32, FrameError<D::Error>>
where
    L: AssetLane + Project,
    D: Screen<L>,
{
    let mut vertices = [ScreenVertex::default(); VERTICES];
    let mut spans = [Span::default(); TRIANGLES];
    let mut colour = [Rgb565::BLACK; WIDTH as usize * ROWS];
    let mut depth = [0u16; WIDTH as usize * ROWS];
    let mut timed = Timed {
        clock,
        tally: Tally::default(),
    };
    #[cfg(feature = "walk")]
    let walk = crate::walk::prepare(scene)?;
    let mut k = 0;
    while let Some(t) = time(scene, k) {
        timed.tally = Tally::default();
        #[cfg(not(feature = "walk"))]
        scene.pose(t, &mut p.pose, &mut p.world, &mut timed)?;
        #[cfg(feature = "walk")]
        crate::walk::pose(scene, &walk, (k, t), &mut p.pose, &mut p.world, &mut timed)?;
        p.scratch.set_time(Some(t));
        scene.correctives(&p.pose, &mut p.scratch, &mut timed)?;
        scene.project(
            &p.world,
            &mut p.palette,
            &mut p.scratch,
            &mut vertices,
            &mut timed,
        )?;
        if scene.asset().tangents().is_some() {
            let (sum, ticks, calls) = tangents(scene, p, timed.clock)?;
            defmt::info!(
                "TANGENTS frame={=u32} checksum={=u32} instructions={=u64}",
                k,
                sum,
                meter.instructions(ticks, calls)
            );
        }
        let drawn = &vertices[..scene.vertices()];
        display.render(
            scene,
            drawn,
            &mut spans,
            &mut colour,
            &mut depth,
            &mut timed,
        )?;
        let c = timed.tally;
        let s: [u64; 7] = core::array::from_fn(|i| meter.instructions(c.ticks[i], c.calls[i]));
        defmt::info!(
            "FRAME frame={=u32} time={=f32} sample={=u64} palette={=u64} skin={=u64} project={=u64} raster={=u64} display={=u64} animate={=u64} total={=u64}",
            k,
            t,
            s[0],
            s[1],
            s[2],
            s[3],
            s[4],
            s[5],
            s[6],
            s[..5].iter().sum::<u64>() + s[6]
        );
        k += 1;
    }

    let band_bytes = core::mem::size_of_val(&colour) + core::mem::size_of_val(&depth);
    let (static_ram, stack_used) = (stack::static_bytes(), stack::used());
    defmt::info!(
        "MEMORY band_rows={=usize} band_bytes={=usize} vertex_bytes={=usize} span_bytes={=usize} scene_bytes={=usize} static_ram={=u32} stack_used={=u32} ram_used={=u32} ram_size={=u32}",
        ROWS,
        band_bytes,
        core::mem::size_of_val(&vertices),
        core::mem::size_of_val(&spans),
        core::mem::size_of_val(scene),
        static_ram,
        stack_used,
        static_ram + stack_used,
        static_ram + stack::room()
    );
    // The paint ends where static RAM begins: reaching it means the stack overflowed into
    // (or below) the static data, and nothing drawn since can be trusted.
    if stack_used >= stack::room() {
        return Err(FrameError::Raster(RasterError::Capacity {
            what: "stack (RAM)",
            needed: stack_used as usize,
            capacity: stack::room() as usize,
        }));
    }
    Ok(k)
}
