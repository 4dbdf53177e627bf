//! Band rasterisation: triangles into a horizontal strip of the screen with its own depth
//! buffer, using the rules GPUs use.
//!
//! * **Coverage**: a pixel is covered when its centre `(i + ½, j + ½)` lies inside the
//!   triangle. Vertices are snapped to 1/[`SUBPIXEL`] pixel; edge functions are exact
//!   integers.
//! * **Fill rule**: top-left (as Direct3D, Vulkan and WebGPU): a centre exactly on an edge
//!   is covered only if the edge is a *top* edge (horizontal, with the triangle below it) or
//!   a *left* edge. Two triangles sharing an edge therefore never both cover, and never both
//!   miss, a pixel on it.
//! * **Culling**: back faces (clockwise as seen by the viewer; glTF's front faces are
//!   counter-clockwise) and zero-area triangles are skipped.
//! * **Depth**: a 16-bit z-buffer per band; a fragment is written when its depth is *less*
//!   than the stored one (the first of equal-depth fragments wins). Depth is interpolated
//!   from the vertices' with the pixel's barycentric weights (its edge functions over the
//!   area, through a reciprocal of the area: module `depth`), so a pixel's depth depends
//!   only on the triangle and the pixel, never on the band it falls in, and never leaves
//!   the vertices' range.
//! * **Shading**: flat, with the intensity of the triangle's first vertex (the *provoking
//!   vertex*, as WebGPU's `@interpolate(flat)`), times the material colour.

use embedded_graphics_core::draw_target::DrawTarget;
use embedded_graphics_core::geometry::{Point, Size};
use embedded_graphics_core::pixelcolor::{Rgb565, RgbColor};
use embedded_graphics_core::primitives::Rectangle;

use super::depth::Depth;
use super::{RasterError, ScreenVertex, SUBPIXEL};

/// Depth a band is cleared to (farther than any fragment).
pub const FAR: u16 = u16::MAX;

/// `SUBPIXEL / 2`: the offset of a pixel's centre, in subpixels.
const HALF: i32 = SUBPIXEL / 2;

/// A horizontal strip of the screen: rows `y0 .. y0 + rows` of a `width`-pixel-wide
/// screen, with a colour and a depth buffer (row-major, `width × rows` each).
///
/// ```
/// use embedded_graphics_core::pixelcolor::{Rgb565, RgbColor};
/// use skin_core::raster::{Band, ScreenVertex};
/// let (mut colour, mut depth) = ([Rgb565::BLACK; 8 * 4], [0u16; 8 * 4]);
/// let mut band = Band::new(8, 0, 4, &mut colour, &mut depth).unwrap();
/// band.clear(Rgb565::BLACK);
/// // A front-facing (counter-clockwise on screen, y down) triangle over the left half.
/// let v = |x: i16, y: i16| ScreenVertex { x: x * 16, y: y * 16, z: 100, shade: 255 };
/// band.draw(&[v(0, 0), v(0, 4), v(4, 0)], [0, 1, 2], Rgb565::WHITE).unwrap();
/// assert_eq!(band.colour()[0], Rgb565::WHITE);
/// assert_eq!(band.colour()[7], Rgb565::BLACK);
/// ```
#[derive(Debug)]
pub struct Band<'a> {
    width: u16,
    y0: u16,
    rows: u16,
    colour: &'a mut [Rgb565],
    depth: &'a mut [u16],
    /// The columns drawn in since the band was made.
    drawn: Columns,
}

/// Columns `lo .. hi` of a band (none when `lo >= hi`): those it has drawn in, all that
/// differ in its buffers from a clear band's once it is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Columns {
    lo: u16,
    hi: u16,
}

impl<'a> Band<'a> {
    /// A band over caller-owned buffers of at least `width × rows` entries (only that many
    /// are used); [`RasterError::Buffer`] when one is shorter.
    pub fn new(
        width: u16,
        y0: u16,
        rows: u16,
        colour: &'a mut [Rgb565],
        depth: &'a mut [u16],
    ) -> Result<Self, RasterError> {
        let needed = usize::from(width) * usize::from(rows);
        let short = colour.len().min(depth.len());
        if short < needed {
            return Err(RasterError::Buffer { needed, len: short });
        }
        Ok(Self {
            width,
            y0,
            rows,
            colour: &mut colour[..needed],
            depth: &mut depth[..needed],
            drawn: Columns {
                lo: u16::MAX,
                hi: 0,
            },
        })
    }

    /// The band's first row.
    pub fn y0(&self) -> u16 {
        self.y0
    }

    /// Rows in the band.
    pub fn rows(&self) -> u16 {
        self.rows
    }

    /// The colour buffer (row-major).
    pub fn colour(&self) -> &[Rgb565] {
        self.colour
    }

    /// The depth buffer (row-major).
    pub fn depth(&self) -> &[u16] {
        self.depth
    }

    /// Fill with `background` and reset depth to [`FAR`].
    pub fn clear(&mut self, background: Rgb565) {
        fill(self.colour, background);
        fill(self.depth, FAR);
    }

    /// [`Self::clear`] of buffers that a band of the same width cleared to `background` and
    /// then drew in `drawn` columns only ([`Self::drawn`]): only those are cleared again (a
    /// frame's bands share buffers, and a model usually spans a fraction of the width).
    pub(crate) fn clear_again(&mut self, background: Rgb565, drawn: Columns) {
        let width = usize::from(self.width);
        let (lo, hi) = (usize::from(drawn.lo), usize::from(drawn.hi).min(width));
        if lo >= hi {
            return;
        }
        let rows = self.colour.chunks_exact_mut(width);
        for (colour, depth) in rows.zip(self.depth.chunks_exact_mut(width)) {
            fill(&mut colour[lo..hi], background);
            fill(&mut depth[lo..hi], FAR);
        }
    }

    /// The columns drawn in since the band was made.
    pub(crate) fn drawn(&self) -> Columns {
        self.drawn
    }

    /// Draw the triangles `indices` (three per triangle, into `vertices`) in `material`
    /// scaled by each triangle's provoking-vertex intensity. [`RasterError::Index`] for an
    /// index past `vertices`, [`RasterError::Indices`] when the count is not a multiple of
    /// three; triangles before the bad one are drawn.
    pub fn draw(
        &mut self,
        vertices: &[ScreenVertex],
        indices: impl IntoIterator<Item = u16>,
        material: Rgb565,
    ) -> Result<(), RasterError> {
        self.draw_shaded(vertices, indices, |shade| scale(material, shade))
    }

    /// [`Self::draw`], each triangle in `colour(its intensity)`.
    pub(crate) fn draw_shaded(
        &mut self,
        vertices: &[ScreenVertex],
        indices: impl IntoIterator<Item = u16>,
        colour: impl Fn(u8) -> Rgb565,
    ) -> Result<(), RasterError> {
        let mut it = indices.into_iter();
        let mut at = 0usize;
        loop {
            let Some(a) = it.next() else { return Ok(()) };
            let (Some(b), Some(c)) = (it.next(), it.next()) else {
                return Err(RasterError::Indices { len: at + 1 });
            };
            if let Some(t) = Triangle::of(fetch(vertices, [a, b, c], at)?) {
                self.fill_in(&t, colour(t.shade));
            }
            at += 3;
        }
    }

    /// Rasterise one front-facing triangle (see the module docs for the rules).
    pub fn fill(&mut self, t: &Triangle, material: Rgb565) {
        self.fill_in(t, scale(material, t.shade));
    }

    /// [`Self::fill`] by the Rust scan on every target: on ARMv6-M, where [`Self::fill`]
    /// runs the assembly (`fill_v6m`), the reference the firmware's device check compares
    /// it with; elsewhere [`Self::fill`] itself.
    #[doc(hidden)]
    pub fn fill_reference(&mut self, t: &Triangle, material: Rgb565) {
        self.fill_by::<false>(t, scale(material, t.shade));
    }

    /// [`Self::fill`] in `colour`, the material already scaled by the triangle's intensity.
    #[inline(always)]
    pub(crate) fn fill_in(&mut self, t: &Triangle, colour: Rgb565) {
        self.fill_by::<true>(t, colour);
    }

    /// [`Self::fill_in`], by the ARMv6-M assembly where `ASM` and the target has it, else by
    /// the Rust scan.
    #[inline(always)]
    fn fill_by<const ASM: bool>(&mut self, t: &Triangle, colour: Rgb565) {
        let band = i32::from(self.y0);
        let (x0, x1) = (t.lo.0.max(0), t.hi.0.min(i32::from(self.width) - 1));
        let (y0, y1) = (
            t.lo.1.max(band),
            t.hi.1.min(band + i32::from(self.rows) - 1),
        );
        if x0 > x1 || y0 > y1 {
            return;
        }
        // The first candidate's centre, in subpixels.
        let (cx, cy) = (x0 * SUBPIXEL + HALF, y0 * SUBPIXEL + HALF);
        let width = usize::from(self.width);
        let len = (x1 - x0 + 1) as usize;
        let first = (y0 - band) as usize * width + x0 as usize;
        let last = (y1 - band) as usize * width + x1 as usize;
        let (colours, depths) = (
            &mut self.colour[first..=last],
            &mut self.depth[first..=last],
        );
        // ARMv6-M: the edge functions, the scan and the depths in assembly (`fill_v6m`).
        #[cfg(skin_asm_v6m)]
        if ASM {
            let depth = Depth::new(t.z, t.area as u32);
            let shape = (len, (y1 - y0 + 1) as usize, width);
            let buffers = (colours, depths);
            if super::fill_v6m::fill(&t.p, (cx, cy), &depth, colour, buffers, shape) {
                // Clipped to the band: within 0..width.
                self.drawn.lo = self.drawn.lo.min(x0 as u16);
                self.drawn.hi = self.drawn.hi.max(x1 as u16 + 1);
            }
            return;
        }
        let [p0, p1, p2] = t.p;
        // Edge a→b: E(p) = (b.x − a.x)(p.y − a.y) − (b.y − a.y)(p.x − a.x), positive
        // inside, at the first candidate centre (cx, cy), and its steps per pixel right
        // and down. Top-left edges keep centres with E = 0, the others need E ≥ 1 (a
        // bias of 1).
        let edge = |a: (i32, i32), b: (i32, i32)| {
            let (dx, dy) = (b.0 - a.0, b.1 - a.1);
            let bias = i32::from(!(dy < 0 || (dy == 0 && dx > 0)));
            let at = dx * (cy - a.1) - dy * (cx - a.0) - bias;
            (at, -dy * SUBPIXEL, dx * SUBPIXEL, bias)
        };
        let (ea, eb, ec) = (edge(p1, p2), edge(p2, p0), edge(p0, p1));
        let mut scan = Scan {
            row: [ea.0, eb.0, ec.0],
            e: [ea.0, eb.0, ec.0],
            right: [ea.1, eb.1, ec.1],
            down: [ea.2, eb.2, ec.2],
            start: 0,
            left: len,
            len,
            width,
            n: colours.len().min(depths.len()),
        };
        // A small triangle's candidates are mostly outside it, and many cover no centre in
        // a band at all: the depth set-up waits for the first covered one.
        if !scan.find() {
            return;
        }
        // Clipped to the band: within 0..width.
        self.drawn.lo = self.drawn.lo.min(x0 as u16);
        self.drawn.hi = self.drawn.hi.max(x1 as u16 + 1);
        let depth = Depth::new(t.z, t.area as u32);
        loop {
            // The covered centres of a row are consecutive (the triangle is convex): draw
            // them, and go on to the next row at the first one past them.
            loop {
                // The edge functions opposite the second and third vertices without their
                // fill-rule bias: the barycentric numerators.
                let z = depth.at(scan.e[1] + eb.3, scan.e[2] + ec.3);
                let i = scan.index();
                if let (Some(d), Some(c)) = (depths.get_mut(i), colours.get_mut(i)) {
                    if z < *d {
                        *d = z;
                        *c = colour;
                    }
                }
                if !scan.right() {
                    break;
                }
            }
            if !scan.next_row() || !scan.find() {
                return;
            }
        }
    }

    /// Draws the triangle `v` as binned drawing does ([`Self::triangles`]: on ARMv6-M the
    /// assembly's pair entry) in `shades` at its provoking vertex's intensity; its last
    /// candidate row when it faces the viewer. The firmware's device check compares it with
    /// [`Triangle::new`], [`Triangle::bottom`] and [`Self::fill_reference`].
    #[doc(hidden)]
    pub fn draw_binned(&mut self, v: [&ScreenVertex; 3], shades: &[Rgb565; 256]) -> Option<i32> {
        self.triangles(shades).draw(v)
    }

    /// Draws triangles from their vertices, one after another, each in `shades` at its
    /// provoking vertex's intensity (binned drawing's step: `bins`).
    #[inline(always)]
    pub(crate) fn triangles<'b>(&'b mut self, shades: &'b [Rgb565; 256]) -> Triangles<'b, 'a> {
        #[cfg(skin_asm_v6m)]
        let pairs = super::fill_v6m::Pairs::new(
            (&mut *self.colour, &mut *self.depth),
            (self.width, self.y0, self.rows),
            shades,
            (self.drawn.lo, self.drawn.hi),
        );
        Triangles {
            #[cfg(skin_asm_v6m)]
            pairs,
            #[cfg(skin_asm_v6m)]
            drawn: &mut self.drawn,
            #[cfg(not(skin_asm_v6m))]
            band: self,
            #[cfg(not(skin_asm_v6m))]
            shades,
            #[cfg(skin_asm_v6m)]
            band: core::marker::PhantomData,
        }
    }

    /// Send the band to `target` (one `fill_contiguous` of its rectangle).
    pub fn flush<D: DrawTarget<Color = Rgb565>>(&self, target: &mut D) -> Result<(), D::Error> {
        let area = Rectangle::new(
            Point::new(0, i32::from(self.y0)),
            Size::new(u32::from(self.width), u32::from(self.rows)),
        );
        target.fill_contiguous(&area, self.colour.iter().copied())
    }
}

/// A band's triangles drawn one after another from their vertices ([`Band::triangles`]):
/// on ARMv6-M by the assembly's pair entry (`fill_v6m`: the triangle's set-up too),
/// elsewhere as [`Triangle::new`] and [`Band::fill`].
pub(crate) struct Triangles<'b, 'a> {
    #[cfg(skin_asm_v6m)]
    pairs: super::fill_v6m::Pairs<'b>,
    #[cfg(skin_asm_v6m)]
    drawn: &'b mut Columns,
    #[cfg(skin_asm_v6m)]
    band: core::marker::PhantomData<&'b mut Band<'a>>,
    #[cfg(not(skin_asm_v6m))]
    band: &'b mut Band<'a>,
    #[cfg(not(skin_asm_v6m))]
    shades: &'b [Rgb565; 256],
}

impl Triangles<'_, '_> {
    /// Draws the triangle `v` ([`Triangle::of`]); its last candidate row
    /// ([`Triangle::bottom`]) when it faces the viewer.
    #[inline(always)]
    pub(crate) fn draw(&mut self, v: [&ScreenVertex; 3]) -> Option<i32> {
        #[cfg(skin_asm_v6m)]
        {
            self.pairs.draw(v)
        }
        #[cfg(not(skin_asm_v6m))]
        {
            let t = Triangle::of(v)?;
            self.band.fill_in(&t, self.shades[usize::from(t.shade)]);
            Some(t.bottom())
        }
    }
}

#[cfg(skin_asm_v6m)]
impl Triangles<'_, '_> {
    /// Draws spans of a band's lists in the assembly, as binned drawing does, up to the
    /// first it leaves to the caller (`fill_v6m::Pairs::walk`).
    #[inline(always)]
    pub(crate) fn walk(
        &mut self,
        spans: &mut [super::span::Span],
        lists: [u16; 4],
        below: i32,
        call: (&[[u16; 3]], usize, &[ScreenVertex]),
    ) -> [u16; 4] {
        self.pairs.walk(spans, lists, below, call)
    }
}

#[cfg(skin_asm_v6m)]
impl Drop for Triangles<'_, '_> {
    /// The columns the assembly drew in, back in the band.
    fn drop(&mut self) {
        (self.drawn.lo, self.drawn.hi) = self.pairs.drawn();
    }
}

/// A triangle's candidate pixels in a band, row by row: the edge functions at the current
/// pixel and at the start of its row (`row`), their steps one pixel right and one row down;
/// the current row starts at pixel `start` (from the first candidate) and has `left` pixels
/// left from the current one; each row has `len` pixels, `width` after the previous one's
/// start; `n` pixels in all.
struct Scan {
    row: [i32; 3],
    e: [i32; 3],
    right: [i32; 3],
    down: [i32; 3],
    start: usize,
    left: usize,
    len: usize,
    width: usize,
    n: usize,
}

impl Scan {
    /// Whether the current pixel's centre is covered (every edge function non-negative).
    #[inline(always)]
    fn covered(&self) -> bool {
        (self.e[0] | self.e[1] | self.e[2]) >= 0
    }

    /// The current pixel, from the first candidate.
    #[inline(always)]
    fn index(&self) -> usize {
        self.start + self.len - self.left
    }

    /// On to the first covered pixel from the current one, row by row; `false` when there
    /// is none.
    #[inline(always)]
    fn find(&mut self) -> bool {
        while !self.covered() {
            self.left -= 1;
            if self.left == 0 {
                if !self.next_row() {
                    return false;
                }
            } else {
                for k in 0..3 {
                    self.e[k] += self.right[k];
                }
            }
        }
        true
    }

    /// One pixel right; `false` at the end of the row or when that pixel is not covered.
    #[inline(always)]
    fn right(&mut self) -> bool {
        self.left -= 1;
        if self.left == 0 {
            return false;
        }
        for k in 0..3 {
            self.e[k] += self.right[k];
        }
        self.covered()
    }

    /// On to the start of the next row; `false` past the last.
    #[inline(always)]
    fn next_row(&mut self) -> bool {
        for k in 0..3 {
            self.row[k] += self.down[k];
        }
        self.e = self.row;
        self.start += self.width;
        self.left = self.len;
        self.start < self.n
    }
}

/// `slice.fill(value)` eight elements a step: on a Cortex-M0 the library fill of 16-bit
/// values stores one word (two values) in four instructions a step; eight stores and three
/// loop instructions do eight values.
#[inline(always)]
fn fill<T: Copy>(slice: &mut [T], value: T) {
    let mut chunks = slice.chunks_exact_mut(8);
    for chunk in &mut chunks {
        for v in chunk {
            *v = value;
        }
    }
    for v in chunks.into_remainder() {
        *v = value;
    }
}

/// The vertices `[a, b, c]` of a triangle whose first index is number `at` in its list.
#[inline(always)]
pub(crate) fn fetch(
    vertices: &[ScreenVertex],
    idx: [u16; 3],
    at: usize,
) -> Result<[&ScreenVertex; 3], RasterError> {
    // One comparison an index, then the three reads (which it proves in bounds).
    let n = vertices.len();
    if usize::from(idx[0]) < n && usize::from(idx[1]) < n && usize::from(idx[2]) < n {
        Ok(idx.map(|i| &vertices[usize::from(i)]))
    } else {
        Err(bad_index(n, idx, at))
    }
}

/// The [`RasterError::Index`] of the first index of `idx` past `vertices`.
#[cold]
fn bad_index(vertices: usize, idx: [u16; 3], at: usize) -> RasterError {
    let k = idx
        .iter()
        .position(|&i| usize::from(i) >= vertices)
        .unwrap_or(0);
    RasterError::Index {
        at: at + k,
        index: idx[k],
        vertices,
    }
}

/// A front-facing triangle ready to rasterise: vertices in subpixels wound so that the edge
/// functions are positive inside, and the pixels whose centres its bounding box holds.
///
/// ```
/// use skin_core::raster::{band::Triangle, ScreenVertex};
/// let v = |x: i16, y: i16| ScreenVertex { x: x * 16, y: y * 16, z: 100, shade: 255 };
/// // Counter-clockwise on screen (y down) faces the viewer; clockwise is culled.
/// let t = Triangle::new(&[v(0, 0), v(0, 4), v(4, 0)]).unwrap();
/// assert_eq!(t.rows(8, 8), Some((0, 3)));
/// assert!(Triangle::new(&[v(0, 0), v(4, 0), v(0, 4)]).is_none());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Triangle {
    /// Vertices (subpixels), the provoking vertex first.
    p: [(i32, i32); 3],
    /// Their depths.
    z: [u16; 3],
    /// Twice the area (positive).
    area: i32,
    /// The provoking vertex's intensity.
    shade: u8,
    /// First candidate pixel (column, row), not clipped to the screen.
    lo: (i32, i32),
    /// Last candidate pixel (column, row), not clipped to the screen.
    hi: (i32, i32),
}

impl Triangle {
    /// `None` for back faces (clockwise as seen by the viewer) and zero-area triangles.
    #[inline(always)]
    pub fn new(t: &[ScreenVertex; 3]) -> Option<Self> {
        Self::of([&t[0], &t[1], &t[2]])
    }

    /// [`Triangle::new`] from references (each field read where it is needed, not the
    /// vertices copied first).
    #[inline(always)]
    pub(crate) fn of(t: [&ScreenVertex; 3]) -> Option<Self> {
        let [p0, p1, p2] = t.map(|v| (i32::from(v.x), i32::from(v.y)));
        // Twice the signed area; with y down, front faces (counter-clockwise to the viewer)
        // have a negative area. Swap two vertices so the edge functions are positive inside.
        let area = (p1.0 - p0.0) * (p2.1 - p0.1) - (p2.0 - p0.0) * (p1.1 - p0.1);
        if area >= 0 {
            return None;
        }
        let p = [p0, p2, p1];
        // Candidate pixels: centres within the bounding box.
        let xs = p.map(|v| v.0);
        let ys = p.map(|v| v.1);
        let lo = |v: [i32; 3]| (v[0].min(v[1]).min(v[2]) - HALF + SUBPIXEL - 1) >> 4;
        let hi = |v: [i32; 3]| (v[0].max(v[1]).max(v[2]) - HALF) >> 4;
        Some(Self {
            p,
            z: [t[0].z, t[2].z, t[1].z],
            area: -area,
            shade: t[0].shade,
            lo: (lo(xs), lo(ys)),
            hi: (hi(xs), hi(ys)),
        })
    }

    /// The last row it may cover, not clipped to the screen.
    #[inline(always)]
    pub fn bottom(&self) -> i32 {
        self.hi.1
    }

    /// The first and last rows of a `width × height` screen it may cover; `None` when its
    /// candidate pixels are all off the screen.
    #[inline(always)]
    pub fn rows(&self, width: u16, height: u16) -> Option<(u16, u16)> {
        let on = |lo: i32, hi: i32, n: u16| lo.max(0) <= hi.min(i32::from(n) - 1);
        if !on(self.lo.0, self.hi.0, width) || !on(self.lo.1, self.hi.1, height) {
            return None;
        }
        let top = self.lo.1.max(0) as u16;
        let bottom = self.hi.1.min(i32::from(height) - 1) as u16;
        Some((top, bottom))
    }
}

/// The rows of a `width × height` screen that the triangle `[a, b, c]` may cover, when it
/// faces the viewer and reaches the screen: `Triangle::new` and [`Triangle::rows`] in one,
/// reading only the vertices' coordinates (binning tests every triangle of a frame).
#[inline(always)]
pub(crate) fn visible(
    [a, b, c]: [&ScreenVertex; 3],
    width: u16,
    height: u16,
) -> Option<(u16, u16)> {
    let (ax, ay) = (i32::from(a.x), i32::from(a.y));
    let (bx, by) = (i32::from(b.x), i32::from(b.y));
    let (cx, cy) = (i32::from(c.x), i32::from(c.y));
    if (bx - ax) * (cy - ay) - (cx - ax) * (by - ay) >= 0 {
        return None;
    }
    let lo = |p: i32, q: i32, r: i32| (p.min(q).min(r) - HALF + SUBPIXEL - 1) >> 4;
    let hi = |p: i32, q: i32, r: i32| (p.max(q).max(r) - HALF) >> 4;
    if lo(ax, bx, cx).max(0) > hi(ax, bx, cx).min(i32::from(width) - 1) {
        return None;
    }
    let (top, bottom) = (
        lo(ay, by, cy).max(0),
        hi(ay, by, cy).min(i32::from(height) - 1),
    );
    (top <= bottom).then_some((top as u16, bottom as u16))
}

/// `c · intensity / 255` per channel, rounded.
pub fn scale(c: Rgb565, intensity: u8) -> Rgb565 {
    scale_channels([c.r(), c.g(), c.b()], intensity)
}

/// [`scale`] of the colour with RGB565 channels `rgb`, at compile time too.
const fn scale_channels(rgb: [u8; 3], intensity: u8) -> Rgb565 {
    let i = intensity as u32;
    Rgb565::new(
        div255(rgb[0] as u32 * i + 127) as u8,
        div255(rgb[1] as u32 * i + 127) as u8,
        div255(rgb[2] as u32 * i + 127) as u8,
    )
}

/// The colour with RGB565 channels `rgb` [scaled](scale) by every intensity: a triangle's
/// colour is one lookup.
pub(crate) const fn shades(rgb: [u8; 3]) -> [Rgb565; 256] {
    let mut t = [Rgb565::new(0, 0, 0); 256];
    let mut i = 0;
    while i < 256 {
        t[i] = scale_channels(rgb, i as u8);
        i += 1;
    }
    t
}

/// `x / 255` for `x < 2^16` without a division (Cortex-M0 has none): `x · 32897 / 2^23`
/// (checked for every such `x` by a test).
const fn div255(x: u32) -> u32 {
    (x * 32897) >> 23
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        #[test]
        fn visibility_is_the_triangles(
            p in proptest::array::uniform3((-400i16..400, -400i16..400)),
            size in (1u16..40, 1u16..40),
        ) {
            let v = p.map(|(x, y)| ScreenVertex { x, y, z: 0, shade: 0 });
            let want = Triangle::new(&v).and_then(|t| t.rows(size.0, size.1));
            proptest::prop_assert_eq!(visible([&v[0], &v[1], &v[2]], size.0, size.1), want);
        }
    }

    #[test]
    fn the_largest_triangles_in_the_guard_band_fill_without_overflow() {
        // A 1024-pixel screen and triangles with corners on the guard band's edges: every
        // edge function and the doubled area at their largest (overflow panics in tests).
        use crate::raster::GUARD;
        let side = 1024u16;
        let c = i32::from(side) * SUBPIXEL / 2;
        let (lo, hi) = ((c - GUARD) as i16, (c + GUARD) as i16);
        let corners = [(lo, lo), (hi, lo), (hi, hi), (lo, hi)];
        // Bands at the top, the middle and the bottom of the screen.
        const ROWS: u16 = 8;
        for y0 in [0, 508, side - ROWS] {
            let mut colour = [Rgb565::default(); 1024 * ROWS as usize];
            let mut depth = [u16::MAX; 1024 * ROWS as usize];
            for skip in 0..4 {
                let mut v = corners.iter().enumerate().filter(|&(i, _)| i != skip);
                let mut t = [ScreenVertex::default(); 3];
                for (slot, (_, &(x, y))) in t.iter_mut().zip(&mut v) {
                    *slot = ScreenVertex {
                        x,
                        y,
                        z: 100,
                        shade: 255,
                    };
                }
                for t in [t, [t[0], t[2], t[1]]] {
                    let Some(tri) = Triangle::new(&t) else {
                        continue;
                    };
                    let mut band = Band::new(side, y0, ROWS, &mut colour, &mut depth).unwrap();
                    band.fill(&tri, Rgb565::new(31, 0, 0));
                }
            }
            // The four halves of the square together cover the screen.
            assert!(depth.iter().all(|&d| d == 100), "band at row {y0}");
        }
    }

    #[test]
    fn an_index_past_the_vertices_is_named_after_the_triangles_before_it() {
        let v = |x: i16, y: i16| ScreenVertex {
            x: x * 16,
            y: y * 16,
            z: 100,
            shade: 255,
        };
        let vertices = [v(0, 0), v(0, 4), v(4, 0)];
        let (mut colour, mut depth) = ([Rgb565::BLACK; 8 * 4], [0u16; 8 * 4]);
        for (bad, k) in [([3, 1, 2], 0), ([0, 7, 2], 1), ([0, 1, 9], 2)] {
            let mut band = Band::new(8, 0, 4, &mut colour, &mut depth).unwrap();
            band.clear(Rgb565::BLACK);
            let indices = [0, 1, 2].into_iter().chain(bad);
            let err = band.draw(&vertices, indices, Rgb565::WHITE).unwrap_err();
            let want = RasterError::Index {
                at: 3 + k,
                index: bad[k],
                vertices: 3,
            };
            assert_eq!(err, want);
            // The triangle before the bad one is drawn.
            assert_eq!(band.colour()[0], Rgb565::WHITE);
        }
    }

    #[test]
    fn shade_tables_are_scaled_colours() {
        let rgb = [29, 52, 22];
        let t = shades(rgb);
        for i in 0..=255u8 {
            assert_eq!(t[usize::from(i)], scale(Rgb565::new(29, 52, 22), i));
        }
    }

    #[test]
    fn div255_is_exact_below_2_16() {
        for x in 0..1u32 << 16 {
            assert_eq!(div255(x), x / 255, "{x}");
        }
    }
}
