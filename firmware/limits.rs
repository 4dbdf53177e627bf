// What each board's firmware build plays at most: one table, included by
// `firmware/build.rs` (which sizes the frame loop's buffers to the model and stops the build
// of a model beyond these) and by `skin_host::board` (`skin budget --board`), so that the
// two cannot disagree.

/// The most of a model a board's frame loop holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Bones of the skeleton, posed whole (and joint entries: a joint is a bone with an
    /// inverse bind).
    pub bones: usize,
    /// Vertices of all parts together (projected before the bands are drawn).
    pub vertices: usize,
    /// Triangles of all parts together (spans for binning half of them).
    pub triangles: usize,
    /// Entries of one part's palette (parts are skinned one palette at a time).
    pub palette: usize,
}

/// The micro:bit's 16 KiB of RAM hold the procedural character (13 bones, 276 vertices, 520
/// triangles) with about a kilobyte to spare.
pub const MICROBIT_LIMITS: Limits = Limits {
    bones: 16,
    vertices: 320,
    triangles: 600,
    palette: 16,
};

/// The Pico's 264 KiB (the MPS2 boards are held to them, so that Cortex-M0 code on the
/// mps2-an385 measures what the Pico needs): 128 bones in the skeleton, posed whole (a
/// character of four 43-joint skins has 70; about 90 bytes of RAM a bone); 48 palette
/// entries a part, the `vs_1_1` budget's most (32 bones as 3×4 matrices, 48 as dual
/// quaternions); the sample models' vertices and triangles with room to spare (CesiumMan:
/// 3,273 and 4,672).
pub const PICO_LIMITS: Limits = Limits {
    bones: 128,
    vertices: 4096,
    triangles: 8192,
    palette: 48,
};
