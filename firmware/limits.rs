// What each board's firmware build plays at most: one table, included by
// `firmware/build.rs` (which sizes the frame loop's buffers to the model and stops the build
// of a model beyond these) and by `skin_host::board` (`skin budget --board`), so that the
// two cannot disagree.
//
// The frame loop's per-vertex RAM is bounded by one skinning chunk, not by the model: a part
// is skinned a chunk of vertices at a time (`skin_core::scene::Scratch`) and each chunk is
// projected at once. What stays whole-model is what band rendering needs of every part at
// every band: each vertex projected ([`VERTEX_BYTES`]) and a span for binning half the
// triangles ([`SPAN_BYTES`]). So the vertices and triangles a board plays are limited by
// the bytes its RAM leaves for those and the band ([`Limits::room`]), not by a count.

/// The most of a model a board's frame loop holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Bones of the skeleton, posed whole (and joint entries: a joint is a bone with an
    /// inverse bind).
    pub bones: usize,
    /// Entries of one part's palette (parts are skinned one palette at a time).
    pub palette: usize,
    /// Bytes of RAM the frame loop is held to (static data and stack).
    pub ram: usize,
    /// Bytes of it the rest of the frame loop (scene, pose, a matrices palette, the
    /// skinning chunk, the calls' stack) takes, in the fixed lane and in `f32` (whose
    /// skinning buffers are larger): what is left is the room for the projected vertices,
    /// the spans and the band ([`Self::room`]).
    pub rest: [usize; 2],
}

impl Limits {
    /// The bytes of the rest of the frame loop in the fixed lane or `f32`, with a palette
    /// `extra` bytes larger than the matrices palette [`Self::rest`] was measured with
    /// ([`palette_extra`]).
    pub fn rest(&self, fixed: bool, extra: usize) -> usize {
        self.rest[usize::from(!fixed)] + extra
    }

    /// The bytes left for projected vertices, spans and band in the fixed lane or `f32`,
    /// beside a palette `extra` bytes larger than a matrices palette.
    pub fn room(&self, fixed: bool, extra: usize) -> usize {
        self.ram.saturating_sub(self.rest(fixed, extra))
    }
}

/// Bytes a projected vertex takes (`skin_core::raster::ScreenVertex`: screen x and y,
/// depth, shade; padded to 8).
pub const VERTEX_BYTES: usize = 8;

/// Bytes a span takes (`skin_core::raster::bins::Span`: a triangle's number and the next
/// span of its band).
pub const SPAN_BYTES: usize = 4;

/// Bytes a band row takes: 240 pixels (src/frame.rs's `WIDTH`) of RGB565 colour and
/// 16-bit depth.
pub const ROW_BYTES: usize = 240 * 4;

/// Spans for binned triangles: half the triangles (a closed mesh turns about half of them
/// away from the viewer; a frame that shows more draws the rest unbinned, slower but the
/// same picture).
pub fn spans(triangles: usize) -> usize {
    triangles.div_ceil(2)
}

/// The whole-model screen buffers of a model of `vertices` and `triangles`: its projected
/// vertices and its spans, in bytes (the band not counted).
pub fn screen_bytes(vertices: usize, triangles: usize) -> usize {
    VERTEX_BYTES * vertices + SPAN_BYTES * spans(triangles)
}

/// Bytes a part palette of `bones` entries in lane `L` takes beyond a matrices (LBS)
/// palette of as many, which the rooms were measured with: a stretched DQS palette's dual
/// quaternion and 3×3 stretch a bone (17 values against 12); none for LBS or plain DQS
/// (8 values a bone).
pub fn palette_extra<L>(bones: usize, stretched: bool) -> usize {
    use core::mem::size_of;
    let matrices = size_of::<skin_core::affine::Affine<L>>();
    let stretch =
        size_of::<skin_core::dual::Dual<L>>() + size_of::<skin_core::dual::Stretch<L>>();
    match stretched {
        true => bones * stretch.saturating_sub(matrices),
        false => 0,
    }
}

/// The micro:bit's 16 KiB of RAM hold the procedural character (13 bones, 276 vertices, 520
/// triangles) with about a kilobyte to spare. The rest of its frame loop: the character's
/// takes 8,868 bytes of stack in the fixed lane and 9,792 in `f32` (`scripts/firmware.sh
/// run microbit LANE`, its MEMORY line less the band, vertex and span bytes), and about 300
/// bytes to spare; that leaves 7,200 and 6,280 bytes of room: the character gets 4-row
/// bands in the fixed lane, 3 in `f32`.
pub const MICROBIT_LIMITS: Limits = Limits {
    bones: 16,
    palette: 16,
    ram: 16 * 1024,
    rest: [9184, 10104],
};

/// The Pico's 264 KiB (the MPS2 boards are held to them, so that Cortex-M0 code on the
/// mps2-an385 measures what the Pico needs): 128 bones in the skeleton, posed whole (a
/// character of four 43-joint skins has 70; about 90 bytes of RAM a bone); 48 palette
/// entries a part, the `vs_1_1` budget's most (32 bones as 3×4 matrices, 48 as dual
/// quaternions). Its frame loop is held to the 256 KiB of its memory map, 40 KiB of them
/// for the rest of the frame loop: a 70-bone character of 200 parts takes 32,880 bytes of it (M0 code on the
/// mps2-an385, its MEMORY line less the band, vertex and span bytes), 58 bones more about
/// 5 KiB, and about 2 KiB to spare. That is about 18,000 vertices of a closed mesh (two
/// triangles a vertex) with a one-row band.
pub const PICO_LIMITS: Limits = Limits {
    bones: 128,
    palette: 48,
    ram: 256 * 1024,
    rest: [40 * 1024; 2],
};
