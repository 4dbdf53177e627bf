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
//!   linearly from the triangle's plane, whose gradients are computed once per triangle in
//!   `i64` (three divisions), so a pixel's depth depends only on the triangle and the pixel,
//!   never on the band it falls in.
//! * **Shading**: flat, with the intensity of the triangle's first vertex (the *provoking
//!   vertex*, as WebGPU's `@interpolate(flat)`), times the material colour.

use embedded_graphics_core::draw_target::DrawTarget;
use embedded_graphics_core::geometry::{Point, Size};
use embedded_graphics_core::pixelcolor::{Rgb565, RgbColor};
use embedded_graphics_core::primitives::Rectangle;

use super::depth::Plane;
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
        self.colour.fill(background);
        self.depth.fill(FAR);
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
        let mut it = indices.into_iter();
        let mut at = 0usize;
        loop {
            let Some(a) = it.next() else { return Ok(()) };
            let (Some(b), Some(c)) = (it.next(), it.next()) else {
                return Err(RasterError::Indices { len: at + 1 });
            };
            if let Some(t) = Triangle::new(&fetch(vertices, [a, b, c], at)?) {
                self.fill(&t, material);
            }
            at += 3;
        }
    }

    /// Rasterise one front-facing triangle (see the module docs for the rules).
    pub fn fill(&mut self, t: &Triangle, material: Rgb565) {
        let band_end = i32::from(self.y0) + i32::from(self.rows);
        let (x0, x1) = (t.lo.0.max(0), t.hi.0.min(i32::from(self.width) - 1));
        let (y0, y1) = (t.lo.1.max(i32::from(self.y0)), t.hi.1.min(band_end - 1));
        if x0 > x1 || y0 > y1 {
            return;
        }
        let [p0, p1, p2] = t.p;

        // Edge a→b: E(p) = (b.x − a.x)(p.y − a.y) − (b.y − a.y)(p.x − a.x), positive inside,
        // at the first candidate centre (cx, cy), and its steps per pixel right and down.
        // Top-left edges keep centres with E = 0, the others need E ≥ 1.
        let (cx, cy) = (x0 * SUBPIXEL + HALF, y0 * SUBPIXEL + HALF);
        let edge = |a: (i32, i32), b: (i32, i32)| {
            let (dx, dy) = (b.0 - a.0, b.1 - a.1);
            let top_left = dy < 0 || (dy == 0 && dx > 0);
            let at = dx * (cy - a.1) - dy * (cx - a.0) - i32::from(!top_left);
            (at, -dy * SUBPIXEL, dx * SUBPIXEL)
        };
        let edges = [edge(p1, p2), edge(p2, p0), edge(p0, p1)];
        let mut row = edges.map(|(at, _, _)| at);
        let step_x = edges.map(|(_, sx, _)| sx);
        let step_y = edges.map(|(_, _, sy)| sy);

        // The depth plane is anchored at the triangle's own first candidate pixel, not the
        // band's, so a pixel's depth is the same whichever band draws it; it is evaluated
        // once here and stepped (exactly: integers) along rows and columns.
        let anchor = (t.lo.0 * SUBPIXEL + HALF, t.lo.1 * SUBPIXEL + HALF);
        let depth = Plane::new(t.p, t.z, t.area, anchor);
        let mut z_row = depth.at(x0 - t.lo.0, y0 - t.lo.1);
        let colour = scale(material, t.shade);
        let width = usize::from(self.width);
        let (first, last) = (x0 as usize, x1 as usize);
        for y in y0..=y1 {
            let start = (y - i32::from(self.y0)) as usize * width;
            let span = start + first..start + last + 1;
            let (colours, depths) = (&mut self.colour[span.clone()], &mut self.depth[span]);
            let mut e = row;
            let mut z = z_row;
            for (c, d) in colours.iter_mut().zip(depths.iter_mut()) {
                if (e[0] | e[1] | e[2]) >= 0 {
                    let z16 = depth.clamp(z);
                    if z16 < *d {
                        *d = z16;
                        *c = colour;
                    }
                }
                for k in 0..3 {
                    e[k] += step_x[k];
                }
                z += depth.dx;
            }
            for k in 0..3 {
                row[k] += step_y[k];
            }
            z_row += depth.dy;
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

/// The vertices `[a, b, c]` of a triangle whose first index is number `at` in its list.
pub(crate) fn fetch(
    vertices: &[ScreenVertex],
    idx: [u16; 3],
    at: usize,
) -> Result<[ScreenVertex; 3], RasterError> {
    let get = |k: usize| {
        vertices
            .get(usize::from(idx[k]))
            .copied()
            .ok_or(RasterError::Index {
                at: at + k,
                index: idx[k],
                vertices: vertices.len(),
            })
    };
    Ok([get(0)?, get(1)?, get(2)?])
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
    pub fn new(t: &[ScreenVertex; 3]) -> Option<Self> {
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

    /// The first and last rows of a `width × height` screen it may cover; `None` when its
    /// candidate pixels are all off the screen.
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

/// `c · intensity / 255` per channel, rounded.
pub fn scale(c: Rgb565, intensity: u8) -> Rgb565 {
    let i = u32::from(intensity);
    let f = |v: u8| div255(u32::from(v) * i + 127) as u8;
    Rgb565::new(f(c.r()), f(c.g()), f(c.b()))
}

/// `x / 255` for `x < 2^16` without a division (Cortex-M0 has none): `x · 32897 / 2^23`
/// (checked for every such `x` by a test).
fn div255(x: u32) -> u32 {
    (x * 32897) >> 23
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn div255_is_exact_below_2_16() {
        for x in 0..1u32 << 16 {
            assert_eq!(div255(x), x / 255, "{x}");
        }
    }
}
