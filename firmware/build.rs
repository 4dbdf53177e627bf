//! Links the board's memory map and embeds the baked asset.
//!
//! - `memory/<board>.x` becomes `memory.x`, where cortex-m-rt's `link.x` finds it.
//! - The frame loop embeds the asset file named by `SKIN_ASSET` (bytes written by
//!   `skin bake`) as `$OUT_DIR/asset.bin`; scripts/firmware.sh sets it. The benchmark
//!   (feature `bench`) needs no asset.
//! - The frame loop's buffers are sized to that model (`$OUT_DIR/model.rs`: its bones,
//!   vertices, triangles and largest part palette), and a model beyond what the board's RAM
//!   holds stops the build with a message naming the board, the need and the limit: more
//!   bones or palette entries than the board's limits (`limits.rs`), or more projected
//!   vertices and spans than the room its RAM leaves for them beside a band (vertices and
//!   triangles are bounded in bytes, not counted: skinning takes a chunk of a part at a
//!   time, so only what band rendering needs of every vertex is whole-model). An asset of
//!   the other lane (or unreadable) gets one-entry buffers instead: the firmware then
//!   refuses it at run time, with the reader's error.
//! - Rows per band are the board's (the Pico's and the MPS2 boards' as tall as their
//!   budget leaves room for next to the model's buffers, up to 24, and at least 12 where
//!   the room allows), or `SKIN_BAND_ROWS` (1..=240) when set; a band that, with the
//!   model's projected vertices and spans, needs more than the board's RAM holds stops the
//!   build the same way.
//! - An asset baked for DQS of joints with scale or shear (`Asset::stretched`) sets the
//!   `stretched` cfg: the frame loop skins with a `StretchPalette` (each palette bone's
//!   3×3 stretch besides its dual quaternion) instead of a `DualPalette`; the bytes that
//!   palette takes beyond a matrices palette come off the room.
//! - `SKIN_TARGET` (the target triple) is passed on for the log.
//! - With feature `walk`, `SKIN_WALK` names the walking figure's joints as bones of the
//!   asset, `PELVIS,LEFT_ANKLE,RIGHT_ANKLE,HEAD` (`$OUT_DIR/walk.rs`); the firmware checks
//!   them against the skeleton when it starts.

use std::{env, fs, path::PathBuf};

fn main() {
    let chosen: Vec<_> = BOARDS
        .iter()
        .filter(|b| env::var_os(format!("CARGO_FEATURE_{}", b.feature)).is_some())
        .collect();
    let [board] = chosen.as_slice() else {
        fail("pick exactly one board feature: mps2-an386, mps2-an385, microbit or pico");
    };
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    fs::copy(format!("memory/{}", board.memory), out.join("memory.x")).expect("copy memory.x");
    println!("cargo:rustc-link-search={}", out.display());
    println!("cargo:rerun-if-changed=memory");
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=limits.rs");

    // `stretched`: the embedded asset is baked for DQS of joints with scale or shear.
    println!("cargo::rustc-check-cfg=cfg(stretched)");
    println!("cargo::rustc-check-cfg=cfg(two_cores)");
    let target = env::var("TARGET").expect("cargo sets TARGET");
    println!("cargo:rustc-env=SKIN_TARGET={target}");

    println!("cargo:rerun-if-env-changed=SKIN_ASSET");
    if env::var_os("CARGO_FEATURE_BENCH").is_some() {
        return;
    }
    let Some(asset) = env::var_os("SKIN_ASSET") else {
        fail(
            "set SKIN_ASSET to a baked asset (`skin bake MODEL -o FILE --arith fixed|f32`); \
             scripts/firmware.sh does this for you",
        );
    };
    let asset = PathBuf::from(asset);
    println!("cargo:rerun-if-changed={}", asset.display());
    let bytes =
        fs::read(&asset).unwrap_or_else(|e| fail(&format!("SKIN_ASSET={}: {e}", asset.display())));
    fs::write(out.join("asset.bin"), &bytes).expect("write asset.bin");
    let fixed = env::var_os("CARGO_FEATURE_FIXED").is_some();
    let walk = env::var_os("CARGO_FEATURE_WALK").is_some();
    let model = if fixed {
        Model::of::<skin_core::lane::Q14>(&bytes)
    } else {
        Model::of::<f32>(&bytes)
    };
    if model.is_some_and(|m| m.stretched) {
        println!("cargo::rustc-cfg=stretched");
    }
    let model = match model {
        Some(m) => {
            board.check(&m, &asset);
            m
        }
        None => Model::UNREAD,
    };
    let room = board.room(fixed, walk, model.extra);
    println!("cargo:rerun-if-env-changed=SKIN_BAND_ROWS");
    let rows = match env::var("SKIN_BAND_ROWS") {
        Ok(v) if !v.is_empty() => match v.parse::<usize>() {
            Ok(r @ 1..=240) => r,
            _ => fail(&format!(
                "SKIN_BAND_ROWS={v}: rows per band must be a whole number in 1..=240 (the display's height)"
            )),
        },
        _ => board.rows(&model, room),
    };
    board.check_band(&model, rows, room, &asset);
    if board.feature == "PICO" {
        two_cores(&model, rows, room, &asset, &out);
    }
    fs::write(out.join("model.rs"), model.source(rows)).expect("write model.rs");
    walk_joints(&out);
}

/// `$OUT_DIR/walk.rs` from `SKIN_WALK` (feature `walk` only).
fn walk_joints(out: &std::path::Path) {
    println!("cargo:rerun-if-env-changed=SKIN_WALK");
    if env::var_os("CARGO_FEATURE_WALK").is_none() {
        return;
    }
    let v = env::var("SKIN_WALK").unwrap_or_default();
    let joints: Vec<usize> = v.split(',').filter_map(|j| j.trim().parse().ok()).collect();
    let [pelvis, left, right, head] = joints.as_slice() else {
        fail(&format!(
            "SKIN_WALK={v:?}: the walk needs four bone indices, PELVIS,LEFT_ANKLE,RIGHT_ANKLE,HEAD"
        ));
    };
    let source = format!(
        "/// The walking figure's joints (`SKIN_WALK`).\n\
         pub const JOINTS: skin_core::scene::WalkJoints = skin_core::scene::WalkJoints \
         {{ pelvis: {pelvis}, ankles: [{left}, {right}], head: {head} }};\n"
    );
    fs::write(out.join("walk.rs"), source).expect("write walk.rs");
}

// The boards' limits (`Limits`, `MICROBIT_LIMITS`, `PICO_LIMITS`): one table, which
// `skin budget --board` (host/src/board.rs) includes too.
include!("limits.rs");

/// What a model needs of the frame loop's buffers.
#[derive(Clone, Copy)]
struct Model {
    bones: usize,
    vertices: usize,
    triangles: usize,
    /// Entries of its largest part palette.
    palette: usize,
    /// Baked for DQS of joints with scale or shear ([`skin_core::asset::Asset::stretched`]):
    /// the frame loop then skins with a `StretchPalette`.
    stretched: bool,
    /// Bytes its palette takes beyond a matrices palette of as many entries
    /// ([`palette_extra`]).
    extra: usize,
}

impl Model {
    /// What an asset that does not read in the build's lane gets: the firmware refuses it
    /// at run time, with the reader's error, before any buffer is used.
    const UNREAD: Self = Self {
        bones: 1,
        vertices: 1,
        triangles: 1,
        palette: 1,
        stretched: false,
        extra: 0,
    };

    /// The needs of the asset `bytes` in lane `L`; `None` when it does not read as one.
    fn of<L: skin_core::asset::AssetLane>(bytes: &[u8]) -> Option<Self> {
        let asset = skin_core::asset::Asset::<L>::read(bytes).ok()?;
        let palette = asset.parts().map(|p| p.bones().len()).max().unwrap_or(0);
        Some(Self {
            bones: asset.bones(),
            vertices: asset.positions().len(),
            triangles: asset.indices().len() / 3,
            palette,
            stretched: asset.stretched(),
            extra: palette_extra::<L>(palette, asset.stretched()),
        })
    }

    /// RAM for its projected vertices and spans ([`screen_bytes`]).
    fn bytes(&self) -> usize {
        screen_bytes(self.vertices, self.triangles)
    }

    /// The capacities, and `rows` per band, as Rust constants for src/frame.rs.
    fn source(&self, rows: usize) -> String {
        format!(
            "// Generated by build.rs: the frame loop's capacities, sized to the embedded model.\n\
             /// Bones of the skeleton.\npub const BONES: usize = {};\n\
             /// Projected vertices.\npub const VERTICES: usize = {};\n\
             /// Spans for binned triangles (half the model's).\npub const TRIANGLES: usize = {};\n\
             /// Entries of the largest part palette.\npub const PALETTE: usize = {};\n\
             /// Rows per band (the board's for this model, or `SKIN_BAND_ROWS`).\npub const ROWS: usize = {rows};\n",
            self.bones.max(1),
            self.vertices.max(1),
            spans(self.triangles).max(1),
            self.palette.max(1),
        )
    }
}

/// A board: its cargo feature, memory map, and the most of a model its RAM holds besides
/// the band and the skinning buffers (`src/frame.rs`).
struct Board {
    feature: &'static str,
    memory: &'static str,
    name: &'static str,
    ram: &'static str,
    /// The most rows per band.
    rows: usize,
    /// Bytes for the projected vertices, the spans and the band together, when the band
    /// is to be as tall as that allows (up to `rows`; a model whose vertices and spans
    /// leave less than [`BUDGET_ROWS`] rows of it gets that many, as its room allows);
    /// `None`: as tall as the room allows.
    budget: Option<usize>,
    /// The most of a model it plays: bones, palette entries, and the room its RAM leaves
    /// for projected vertices, spans and band.
    most: Limits,
    /// Bytes of stack the walk demo's animation (IK, aim, gait) takes beyond a clip's
    /// frame, taken from the room when it plays.
    walk: usize,
}

/// Rows per band a model beyond a board's band budget still gets, where its room allows:
/// CesiumMan's on the Pico.
const BUDGET_ROWS: usize = 12;

impl Board {
    /// Rows per band for `model`: as many as `budget` (or, without one, the `room` the
    /// rest of the frame loop leaves) has space for, at least one and at most `rows`.
    fn rows(&self, model: &Model, room: usize) -> usize {
        let bytes = match self.budget {
            Some(b) => b.max(model.bytes() + BUDGET_ROWS * ROW_BYTES).min(room),
            None => room,
        };
        (bytes.saturating_sub(model.bytes()) / ROW_BYTES).clamp(1, self.rows)
    }

    /// The bytes its RAM holds for the projected vertices, the spans and the band in the
    /// fixed lane or `f32`, with the walk demo's animation (`walk`) or without, next to a
    /// palette `extra` bytes larger than a matrices palette.
    fn room(&self, fixed: bool, walk: bool, extra: usize) -> usize {
        let room = self.most.room(fixed, extra);
        match walk {
            true => room.saturating_sub(self.walk),
            false => room,
        }
    }

    /// Stops the build when `model` (from the asset file `asset`) has more bones or
    /// palette entries than the board holds (its vertices and triangles are checked in
    /// bytes against the room, [`Self::check_band`]).
    fn check(&self, model: &Model, asset: &std::path::Path) {
        let most = &self.most;
        let over = [
            ("bones", model.bones, most.bones),
            ("palette entries in a part", model.palette, most.palette),
        ];
        if let Some((what, need, limit)) = over.into_iter().find(|(_, need, limit)| need > limit) {
            fail(&format!(
                "{} does not fit the {} ({} of RAM): it needs {need} {what}, the board holds {limit}",
                asset.display(),
                self.name,
                self.ram,
            ));
        }
    }

    /// Stops the build when `model`'s projected vertices and spans with a band of `rows`
    /// rows need more than the board's RAM holds: a model of too many vertices or
    /// triangles, or rows chosen with `SKIN_BAND_ROWS` taller than the board's own choice
    /// (a stack past the RAM's end faults at run time: on the micro:bit, 8-row bands of the
    /// character need 1.6 KiB more than its 16 KiB).
    fn check_band(&self, model: &Model, rows: usize, room: usize, asset: &std::path::Path) {
        let need = model.bytes() + rows * ROW_BYTES;
        if need > room {
            fail(&format!(
                "{} does not fit the {} ({} of RAM) in {rows}-row bands: it needs {need} bytes \
                 of projected vertices ({VERTEX_BYTES} each), spans for half its triangles \
                 ({SPAN_BYTES} each) and the band ({ROW_BYTES} a row), the board holds {}",
                asset.display(),
                self.name,
                self.ram,
                room,
            ));
        }
    }
}

/// The boards, with their limits from `limits.rs` (the MPS2 boards get the Pico's, so that
/// Cortex-M0 code on the mps2-an385 measures what the Pico needs). The micro:bit's 16 KiB
/// hold the procedural character (15 bones, 276 vertices, 520 triangles) with about a
/// kilobyte to spare; the Pico's 264 KiB hold the sample models.
const BOARDS: [Board; 4] = [
    Board {
        feature: "MPS2_AN386",
        memory: "mps2.x",
        name: "mps2-an386",
        ram: "4 MiB, held to the Pico's limits",
        rows: PICO_ROWS,
        budget: PICO_BUDGET,
        most: PICO_LIMITS,
        walk: 0,
    },
    Board {
        feature: "MPS2_AN385",
        memory: "mps2.x",
        name: "mps2-an385",
        ram: "4 MiB, held to the Pico's limits",
        rows: PICO_ROWS,
        budget: PICO_BUDGET,
        most: PICO_LIMITS,
        walk: 0,
    },
    Board {
        feature: "MICROBIT",
        memory: "microbit.x",
        name: "micro:bit",
        ram: "16 KiB",
        rows: 4,
        budget: None,
        most: MICROBIT_LIMITS,
        walk: MICROBIT_WALK,
    },
    Board {
        feature: "PICO",
        memory: "pico.x",
        name: "Raspberry Pi Pico",
        ram: "264 KiB",
        rows: PICO_ROWS,
        budget: PICO_BUDGET,
        most: PICO_LIMITS,
        walk: 0,
    },
];

/// The Pico's tallest band.
const PICO_ROWS: usize = 24;

/// Bytes of core 1's stack on the Pico beyond its buffers (its spans and band): the call
/// frames of its band drawing, twice what its code needs. No emulator runs the RP2040, so
/// measured from the code: `scripts/stack_depth.py ELF 5core15serve` finds its deepest
/// chain of calls 2,048 bytes beyond the buffers in the character's Pico build (26,128 in
/// all) and 2,040 in CesiumMan's (22,904), the panic path's included.
const PICO_CORE1_FRAMES: usize = 4 * 1024;

/// Core 1's stack constant for src/core1.rs.
fn core1_source() -> String {
    format!(
        "// Generated by build.rs.\n\
         /// Bytes of core 1's stack beyond its buffers (build.rs: `PICO_CORE1_FRAMES`).\n\
         pub const FRAME_BYTES: usize = {PICO_CORE1_FRAMES};\n"
    )
}

/// Whether the Pico's second core draws half the bands: when both cores' band buffers fit
/// beside the frame loop (cfg `two_cores`, and `core1.rs` for src/core1.rs). Core 1 draws
/// every other band with spans of its own, a band of its own (colour and depth) and
/// [`PICO_CORE1_FRAMES`] on its stack, and the panel takes the bands by DMA from four
/// static buffers (two a core) of `rows` rows of 2-byte pixels. Otherwise core 0 draws
/// every band from two DMA buffers, as the one-core check ([`Board::check_band`]) allowed,
/// and the build says so: a model that one core's RAM holds still plays, slower.
fn two_cores(
    model: &Model,
    rows: usize,
    room: usize,
    asset: &std::path::Path,
    out: &std::path::Path,
) {
    let core0 = model.bytes() + rows * ROW_BYTES;
    let core1 = SPAN_BYTES * spans(model.triangles) + rows * ROW_BYTES + PICO_CORE1_FRAMES;
    let dma = 4 * rows * ROW_BYTES / 2;
    let need = core0 + core1 + dma;
    if need > room {
        println!(
            "cargo::warning={} is drawn by core 0 alone on the Raspberry Pi Pico: in {rows}-row \
             bands its two cores would need {need} bytes (core 0's projected vertices, spans \
             and band {core0}, core 1's spans, band and {PICO_CORE1_FRAMES} bytes of stack \
             {core1}, four DMA band buffers {dma}), the board holds {room}; fewer rows \
             (SKIN_BAND_ROWS) give it both cores",
            asset.display(),
        );
        return;
    }
    println!("cargo::rustc-cfg=two_cores");
    fs::write(out.join("core1.rs"), core1_source()).expect("write core1.rs");
}

/// The Pico's bytes for projected vertices, spans and band: CesiumMan (3,273 vertices,
/// 4,672 triangles: 35,528 bytes) gets 12-row bands, and its frame loop 60–63 KiB of stack
/// with the pose and skinning buffers; smaller models get 24-row bands (fewer band set-ups).
const PICO_BUDGET: Option<usize> = Some(46 * 1024);

/// The walk demo's animation on the micro:bit: 968 bytes of stack more than the clip's
/// frame (fixed lane: `scripts/firmware.sh run microbit fixed --walk 0,10,13,3 --rows 2`,
/// its MEMORY line, against the character's), and some to spare: 3-row bands in the fixed
/// lane, 2 in `f32`.
const MICROBIT_WALK: usize = 1000;

/// Stops the build with one clear message.
fn fail(why: &str) -> ! {
    eprintln!("skin-firmware: {why}");
    std::process::exit(1);
}
