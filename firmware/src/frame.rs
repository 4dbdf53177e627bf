//! The frame loop: plays the first clip of the asset baked into flash and writes each
//! frame to the board's display, band by band. All the work is skin-core's
//! [`Scene`](skin_core::raster::scene::Scene) — the host renders the same frames with it —
//! this module owns the buffers, times each stage and logs.
//!
//! Log lines (parsed by `tests/tests/firmware_frames.rs`):
//!
//! ```text
//! ASSET board=… core=… lane=… bytes=… bones=… vertices=… triangles=… parts=… clip=… duration=…
//! FRAME board=… lane=… frame=… time=… vertices=… sample=… palette=… skin=… project=… raster=…
//! MEMORY board=… band_rows=… band_bytes=… vertex_bytes=… stack_used=…
//! ```
//!
//! Stage figures are instructions (SysTick under `-icount shift=0`, calibrated as the
//! benchmark does), including the stopwatch's own few dozen per call.

use embedded_graphics_core::pixelcolor::{Rgb565, RgbColor};
use skin_core::affine::Affine;
use skin_core::asset::{Asset, AssetLane};
use skin_core::budget::{Budget, Layout};
use skin_core::palette::Palette;
use skin_core::raster::scene::{Scene, Scratch, Stage, Stages};
use skin_core::raster::{Project, RasterError, ScreenVertex};
use skin_core::transform::Transform;

use crate::board::{self, Clock};
use crate::display::FrameFile;
use crate::synthetic::Stopwatch;

/// The baked asset (`SKIN_ASSET` at build time; see build.rs and scripts/firmware.sh).
static ASSET: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/asset.bin"));

/// The display: 240 × 240 (an ST7789 panel's size).
pub const WIDTH: u16 = 240;
/// The display's height.
pub const HEIGHT: u16 = 240;
/// Frames rendered, spread evenly over one loop of the clip.
pub const FRAMES: u32 = 4;
/// Palette entries a part may use: the `vs_1_1` budget the asset is baked for.
const PALETTE: usize = Budget::VS_1_1.capacity(Layout::Affine3x4);

/// Rows per band, bones, vertices and the skinning chunk: the micro:bit's 16 KiB of RAM
/// takes a small model in thin bands; the MPS2 boards (4 MiB) take the sample models.
#[cfg(feature = "microbit")]
mod cap {
    pub const ROWS: usize = 4;
    pub const BONES: usize = 16;
    pub const VERTICES: usize = 400;
    pub const CHUNK: usize = 8;
    /// The top of RAM (the initial stack pointer).
    pub const RAM_END: u32 = 0x2000_0000 + 16 * 1024;
}
#[cfg(not(feature = "microbit"))]
mod cap {
    pub const ROWS: usize = 16;
    pub const BONES: usize = 64;
    pub const VERTICES: usize = 8192;
    pub const CHUNK: usize = 32;
    /// The top of RAM (the initial stack pointer).
    pub const RAM_END: u32 = 0x2000_0000 + 4 * 1024 * 1024;
}
use cap::{BONES, CHUNK, RAM_END, ROWS, VERTICES};

/// Why the frame loop stopped.
#[derive(Clone, Copy, Debug, defmt::Format)]
pub enum FrameError {
    /// Reading, posing, skinning or drawing failed.
    Raster(RasterError),
    /// The display refused a band.
    Display(crate::display::SinkError),
    /// The asset needs more than this build's capacities.
    Capacity {
        /// Vertices in the asset.
        vertices: usize,
        /// This build's capacity.
        capacity: usize,
    },
}

impl From<RasterError> for FrameError {
    fn from(e: RasterError) -> Self {
        FrameError::Raster(e)
    }
}

/// Instructions per stage, from the stopwatch.
struct Timed<'c> {
    clock: &'c mut Clock,
    ticks: [u64; 5],
    lowest_sp: u32,
}

impl Stages for Timed<'_> {
    fn time<R>(&mut self, stage: Stage, f: impl FnOnce() -> R) -> R {
        let sp = &mut self.lowest_sp;
        let r = self.clock.time(|| {
            let r = f();
            *sp = (*sp).min(cortex_m::register::msp::read());
            r
        });
        let i = match stage {
            Stage::Sample => 0,
            Stage::Palette => 1,
            Stage::Skin => 2,
            Stage::Project => 3,
            Stage::Raster => 4,
        };
        self.ticks[i] += self.clock.take().0;
        r
    }
}

/// Plays the asset: [`FRAMES`] frames to the display.
pub fn run<L: AssetLane + Project>(clock: &mut Clock) -> Result<(), FrameError> {
    let (cal_instructions, cal_ticks) = clock.calibrate();
    let to_instructions = |ticks: u64| ticks * cal_instructions / cal_ticks.max(1);

    let asset = Asset::<L>::read(ASSET).map_err(RasterError::from)?;
    let scene = Scene::<L, BONES>::new(asset, WIDTH, HEIGHT)?;
    if scene.vertices() > VERTICES {
        return Err(FrameError::Capacity {
            vertices: scene.vertices(),
            capacity: VERTICES,
        });
    }
    let (clip, duration) = scene.clip().unwrap_or(("(rest pose)", 0.0));
    defmt::info!(
        "ASSET board={=str} core={=str} lane={=str} bytes={=usize} bones={=usize} vertices={=usize} triangles={=usize} parts={=usize} clip={=str} duration={=f32}",
        board::NAME,
        board::CORE,
        L::NAME,
        ASSET.len(),
        scene.bones(),
        scene.vertices(),
        asset.indices().len() / 3,
        asset.parts().count(),
        clip,
        duration
    );

    let mut pose = [Transform::IDENTITY; BONES];
    let mut world = [Affine::IDENTITY; BONES];
    let mut palette = Palette::<L, PALETTE>::new();
    let mut scratch = Scratch::<L, CHUNK>::default();
    let mut vertices = [ScreenVertex::default(); VERTICES];
    let mut colour = [Rgb565::BLACK; WIDTH as usize * ROWS];
    let mut depth = [0u16; WIDTH as usize * ROWS];
    let vertices = &mut vertices[..scene.vertices()];

    let mut timed = Timed {
        clock,
        ticks: [0; 5],
        lowest_sp: RAM_END,
    };
    for k in 0..FRAMES {
        let t = scene.frame_time(k, FRAMES);
        timed.ticks = [0; 5];
        scene.pose(t, &mut pose, &mut world, &mut timed)?;
        scene.project(&world, &mut palette, &mut scratch, vertices, &mut timed)?;
        let mut display = FrameFile::create(k, WIDTH, HEIGHT).map_err(FrameError::Display)?;
        scene
            .render(vertices, &mut display, &mut colour, &mut depth, &mut timed)
            .map_err(|e| match e {
                skin_core::raster::FrameError::Raster(e) => FrameError::Raster(e),
                skin_core::raster::FrameError::Target(e) => FrameError::Display(e),
            })?;
        if !display.complete() {
            return Err(FrameError::Display(crate::display::SinkError::NotABand));
        }
        let s = timed.ticks.map(to_instructions);
        defmt::info!(
            "FRAME board={=str} lane={=str} frame={=u32} time={=f32} vertices={=usize} sample={=u64} palette={=u64} skin={=u64} project={=u64} raster={=u64}",
            board::NAME,
            L::NAME,
            k,
            t,
            vertices.len(),
            s[0],
            s[1],
            s[2],
            s[3],
            s[4]
        );
    }
    defmt::info!(
        "MEMORY board={=str} band_rows={=usize} band_bytes={=usize} vertex_bytes={=usize} stack_used={=u32}",
        board::NAME,
        ROWS,
        core::mem::size_of_val(&colour) + core::mem::size_of_val(&depth),
        core::mem::size_of::<[ScreenVertex; VERTICES]>(),
        RAM_END - timed.lowest_sp
    );
    Ok(())
}
