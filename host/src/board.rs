//! Boards: what the firmware's build for each board holds (the limits in
//! `firmware/limits.rs`, one table that `firmware/build.rs` includes too and sizes the
//! frame loop's buffers by; the memory map in `firmware/memory/`; the frame loop's measured
//! code and RAM), and whether a model baked for it fits: [`fit`].
//!
//! The firmware skins part by part, each part's palette within the `vs_1_1` budget (32
//! bones as 3×4 matrices), so a model of any number of joints is split as the GPU path
//! splits draw calls, and each part a chunk of vertices at a time; what must fit whole is
//! the skeleton (every bone's pose and world matrix, and every joint entry's inverse bind),
//! every vertex projected to the screen (8 bytes) and spans for binning half the triangles
//! (4 bytes each), which band rendering needs of every part at every band, the flash (the
//! firmware's code plus the asset) and the RAM (the rest of the frame loop, the model's
//! screen buffers and a band).
//!
//! ```
//! use skin_host::board::{fit, Board};
//! use skin_host::pose::LaneKind;
//! let glb = skin_host::character::Character::new().glb();
//! let rig = skin_host::import::from_slice(&glb, None).unwrap();
//! let board = Board::named("microbit").unwrap();
//! let fit = fit(&rig, board, LaneKind::Fixed);
//! assert!(fit.fits(), "{}", fit.table());
//! ```

use std::fmt::Write as _;

use skin_core::asset::{Asset, AssetLane};
use skin_core::budget::Budget;
use skin_core::lane::Q14;

use crate::bake::{bake, Baked, Options};
use crate::pose::{LaneKind, Skinning};
use crate::rig::Rig;

/// One board's firmware build.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Board {
    /// The name `scripts/firmware.sh` takes.
    pub name: &'static str,
    /// The core and the code it runs.
    pub core: &'static str,
    /// Whether the build runs the `f32` lane (every board runs the fixed lane).
    pub f32: bool,
    /// What the frame loop holds (`firmware/limits.rs`, the table `firmware/build.rs`
    /// sizes its buffers by): bones of the skeleton and joint entries; bones a part's
    /// palette holds (the `vs_1_1` budget's 48 on the larger boards, 16 on the micro:bit,
    /// whose RAM holds no more); the bytes its RAM leaves for the screen vertices of all
    /// parts together, spans for binning half of the triangles (the rest of a frame's drawn
    /// unbinned: the same picture, more instructions) and a band.
    pub limits: Limits,
    /// Flash for code and asset, bytes (`firmware/memory/`).
    pub flash: usize,
    /// RAM, bytes (`firmware/memory/`).
    pub ram: usize,
    /// The firmware's code and constants without the asset (`text + data` less the asset,
    /// the largest measured over its lanes and models; docs/BENCHMARKS.md, "Firmware
    /// memory").
    pub code: usize,
}

/// The boards' limits: the one table `firmware/build.rs` sizes and checks the frame loop by.
pub mod limits {
    include!("../../firmware/limits.rs");
}
pub use limits::Limits;
use limits::{
    palette_extra, screen_bytes, MICROBIT_LIMITS, PICO_LIMITS, ROW_BYTES, SPAN_BYTES, VERTEX_BYTES,
};

const KIB: usize = 1024;
const MIB: usize = 1024 * KIB;

impl Board {
    /// Every board `scripts/firmware.sh` builds.
    pub const ALL: [Board; 5] = [
        Board {
            name: "microbit",
            core: "nRF51822, Cortex-M0",
            f32: false,
            limits: MICROBIT_LIMITS,
            flash: 256 * KIB,
            ram: 16 * KIB,
            code: 118_008,
        },
        Board {
            name: "mps2-an385",
            core: "MPS2 AN385, Cortex-M3",
            f32: false,
            limits: PICO_LIMITS,
            flash: 4 * MIB,
            ram: 4 * MIB,
            code: 114_296,
        },
        Board {
            name: "mps2-an385-m0",
            core: "MPS2 AN385, Cortex-M0 code on the M3",
            f32: false,
            limits: PICO_LIMITS,
            flash: 4 * MIB,
            ram: 4 * MIB,
            code: 120_104,
        },
        Board {
            name: "mps2-an386",
            core: "MPS2 AN386, Cortex-M4F",
            f32: true,
            limits: PICO_LIMITS,
            flash: 4 * MIB,
            ram: 4 * MIB,
            code: 113_244,
        },
        Board {
            name: "pico",
            core: "RP2040, Cortex-M0+",
            f32: false,
            limits: PICO_LIMITS,
            flash: 2 * MIB - 256,
            ram: 256 * KIB,
            code: 135_756,
        },
    ];

    /// The board called `name`.
    pub fn named(name: &str) -> Option<&'static Board> {
        Self::ALL.iter().find(|b| b.name == name)
    }

    /// The board names, for messages.
    pub fn names() -> String {
        Self::ALL.map(|b| b.name).join(", ")
    }
}

/// One limit of a board against what the model needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limit {
    /// What is counted.
    pub what: &'static str,
    /// What the model needs.
    pub needs: usize,
    /// What the board holds.
    pub holds: usize,
}

impl Limit {
    /// Whether the model is within this limit.
    pub fn within(&self) -> bool {
        self.needs <= self.holds
    }
}

/// A model against a board.
#[derive(Clone, Debug, PartialEq)]
pub struct Fit {
    /// The board.
    pub board: &'static Board,
    /// The lane baked.
    pub lane: LaneKind,
    /// Why the model could not be baked for the board at all (the lane not built for it, a
    /// triangle beyond the palette, a value beyond the fixed lane), if so.
    pub refused: Option<String>,
    /// Each limit, when baked.
    pub limits: Vec<Limit>,
}

impl Fit {
    /// Whether the model plays on the board.
    pub fn fits(&self) -> bool {
        self.refused.is_none() && self.limits.iter().all(Limit::within)
    }

    /// The limits that fail, each with by how much: `vertices: needs 5000, holds 4096
    /// (904 over)`.
    pub fn failures(&self) -> Vec<String> {
        let mut out: Vec<String> = self.refused.iter().cloned().collect();
        for l in self.limits.iter().filter(|l| !l.within()) {
            out.push(format!(
                "{}: needs {}, holds {} ({} over)",
                l.what,
                l.needs,
                l.holds,
                l.needs - l.holds
            ));
        }
        out
    }

    /// The report `skin budget --board` prints.
    pub fn table(&self) -> String {
        let b = self.board;
        let mut s = String::new();
        let verdict = if self.fits() { "fits" } else { "does not fit" };
        let lane = match self.lane {
            LaneKind::F32 => "f32",
            LaneKind::Fixed => "fixed",
        };
        let _ = writeln!(s, "board {} ({}), {lane} lane: {verdict}", b.name, b.core);
        if let Some(why) = &self.refused {
            let _ = writeln!(s, "  cannot bake for it: {why}");
        }
        if !self.limits.is_empty() {
            let _ = writeln!(s, "  {:<22} {:>10} {:>10}", "limit", "needs", "holds");
        }
        for l in &self.limits {
            let status = if l.within() {
                "ok".to_string()
            } else {
                format!("over by {}", l.needs - l.holds)
            };
            let _ = writeln!(
                s,
                "  {:<22} {:>10} {:>10}  {status}",
                l.what, l.needs, l.holds
            );
        }
        s
    }
}

/// Whether `rig` baked in `lane` with the boards' palette (`skin bake --budget vs_1_1`,
/// as `scripts/firmware.sh` bakes) plays on `board`, limit by limit, skinned by LBS (the
/// boards' default build). Vertices and triangles are each held to what the board's room
/// leaves beside the other and a one-row band; the RAM row is the rest of the frame loop
/// (`Limits::rest`) with those buffers and that band (the build then makes its bands as
/// tall as the room allows, up to the board's rows).
pub fn fit(rig: &Rig, board: &'static Board, lane: LaneKind) -> Fit {
    fit_skinning(rig, board, lane, Skinning::Lbs)
}

/// [`fit`] for the build that skins by `skinning` (`scripts/firmware.sh --skinning dqs`):
/// an asset baked for DQS of joints with scale or shear takes a palette of a dual
/// quaternion and a 3×3 stretch a bone, whose bytes beyond a matrices palette count against
/// the RAM.
pub fn fit_skinning(rig: &Rig, board: &'static Board, lane: LaneKind, skinning: Skinning) -> Fit {
    let mut fit = Fit {
        board,
        lane,
        refused: None,
        limits: Vec::new(),
    };
    if lane == LaneKind::F32 && !board.f32 {
        fit.refused = Some(format!("the {} build runs the fixed lane only", board.name));
        return fit;
    }
    let options = Options {
        budget: Some(Budget::VS_1_1),
        lane,
        clips: None,
        skinning,
    };
    let baked = match bake(rig, &options) {
        Ok(b) => b,
        Err(e) => {
            fit.refused = Some(e.to_string());
            return fit;
        }
    };
    let counts = match lane {
        LaneKind::F32 => counts::<f32>(&baked),
        LaneKind::Fixed => counts::<Q14>(&baked),
    };
    let c = match counts {
        Ok(c) => c,
        Err(e) => {
            fit.refused = Some(e);
            return fit;
        }
    };
    let fixed = lane == LaneKind::Fixed;
    // What the screen buffers may take: the room less the palette's extra bytes and a
    // one-row band, the shortest the build makes.
    let room = board.limits.room(fixed, c.extra);
    let left = room.saturating_sub(ROW_BYTES);
    let vertices = left.saturating_sub(screen_bytes(0, c.triangles)) / VERTEX_BYTES;
    let triangles = 2 * (left.saturating_sub(screen_bytes(c.vertices, 0)) / SPAN_BYTES);
    let rest = board.limits.rest(fixed, c.extra);
    let ram = rest + screen_bytes(c.vertices, c.triangles) + ROW_BYTES;
    let limit = |what, needs, holds| Limit { what, needs, holds };
    fit.limits = vec![
        limit("bones a part", c.part_bones, board.limits.palette),
        limit("bones (skeleton)", baked.bones.len(), board.limits.bones),
        limit("joint entries", baked.joints, board.limits.bones),
        limit("vertices", c.vertices, vertices),
        limit("triangles", c.triangles, triangles),
        limit("flash bytes", board.code + baked.bytes.len(), board.flash),
        limit("RAM bytes", ram, board.limits.ram),
    ];
    fit
}

/// What the board's build needs of a baked asset.
struct Counts {
    /// The most bones a part uses.
    part_bones: usize,
    vertices: usize,
    triangles: usize,
    /// Bytes its largest part's palette takes beyond a matrices palette ([`palette_extra`]).
    extra: usize,
}

/// The counts of the baked asset.
fn counts<L: AssetLane>(baked: &Baked) -> Result<Counts, String> {
    let asset = Asset::<L>::read(&baked.bytes).map_err(|e| e.to_string())?;
    let part_bones = asset.parts().map(|p| p.bones().len()).max().unwrap_or(0);
    Ok(Counts {
        part_bones,
        vertices: asset.positions().len(),
        triangles: asset.indices().len() / 3,
        extra: palette_extra::<L>(part_bones, asset.stretched()),
    })
}
