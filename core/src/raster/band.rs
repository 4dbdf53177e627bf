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
            let mut tri = [ScreenVertex::default(); 3];
            for (k, (t, i)) in tri.iter_mut().zip([a, b, c]).enumerate() {
                *t = *vertices.get(usize::from(i)).ok_or(RasterError::Index {
                    at: at + k,
                    index: i,
                    vertices: vertices.len(),
                })?;
            }
            self.triangle(&tri, material);
            at += 3;
        }
    }

    /// Rasterise one triangle (see the module docs for the rules).
    fn triangle(&mut self, t: &[ScreenVertex; 3], material: Rgb565) {
        let [p0, p1, p2] = t.map(|v| (i32::from(v.x), i32::from(v.y)));
        // Twice the signed area; with y down, front faces (counter-clockwise to the viewer)
        // have a negative area. Swap two vertices so the edge functions are positive inside.
        let area = (p1.0 - p0.0) * (p2.1 - p0.1) - (p2.0 - p0.0) * (p1.1 - p0.1);
        if area >= 0 {
            return;
        }
        let (v0, v1, v2) = (t[0], t[2], t[1]);
        let (p1, p2) = (p2, p1);
        let area = -area;

        // Candidate pixels: centres within the bounding box, clipped to the band.
        let xs = [p0.0, p1.0, p2.0];
        let ys = [p0.1, p1.1, p2.1];
        let lo = |v: &[i32; 3]| (v.iter().copied().min().unwrap_or(0) - HALF + SUBPIXEL - 1) >> 4;
        let hi = |v: &[i32; 3]| (v.iter().copied().max().unwrap_or(0) - HALF) >> 4;
        let band_end = i32::from(self.y0) + i32::from(self.rows);
        let (ux, uy) = (lo(&xs), lo(&ys));
        let (x0, x1) = (ux.max(0), hi(&xs).min(i32::from(self.width) - 1));
        let (y0, y1) = (uy.max(i32::from(self.y0)), hi(&ys).min(band_end - 1));
        if x0 > x1 || y0 > y1 {
            return;
        }

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
        // band's, so a pixel's depth is the same whichever band draws it.
        let anchor = (ux * SUBPIXEL + HALF, uy * SUBPIXEL + HALF);
        let depth = Plane::new([p0, p1, p2], [v0.z, v1.z, v2.z], area, anchor);
        let colour = scale(material, t[0].shade);
        let width = usize::from(self.width);
        for y in y0..=y1 {
            let start = (y - i32::from(self.y0)) as usize * width;
            let mut e = row;
            let mut z = depth.at(x0 - ux, y - uy);
            for x in x0..=x1 {
                if (e[0] | e[1] | e[2]) >= 0 {
                    let d = depth.clamp(z);
                    let i = start + x as usize;
                    if d < self.depth[i] {
                        self.depth[i] = d;
                        self.colour[i] = colour;
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

/// A triangle's depth as a plane over pixel steps, in Q16 depth units.
struct Plane {
    /// Depth at the anchor pixel's centre.
    origin: i64,
    /// Per pixel to the right.
    dx: i64,
    /// Per pixel down.
    dy: i64,
    /// The vertices' depth range (interpolation never leaves it).
    range: (u16, u16),
}

impl Plane {
    /// Through `p` (subpixels) at depths `z`; `area` is twice the (positive) area; `at` the
    /// anchor pixel's centre.
    fn new(p: [(i32, i32); 3], z: [u16; 3], area: i32, at: (i32, i32)) -> Self {
        let (dx1, dy1) = (i64::from(p[1].0 - p[0].0), i64::from(p[1].1 - p[0].1));
        let (dx2, dy2) = (i64::from(p[2].0 - p[0].0), i64::from(p[2].1 - p[0].1));
        let (z0, z1, z2) = (i64::from(z[0]), i64::from(z[1]), i64::from(z[2]));
        let (dz1, dz2) = (z1 - z0, z2 - z0);
        // Cramer's rule for ∂z/∂x and ∂z/∂y per subpixel: numerators over `area`
        // (|numerator| < 2^31: depth differences < 2^16, coordinate differences < 2^14).
        let na = dz1 * dy2 - dz2 * dy1;
        let nb = dx1 * dz2 - dx2 * dz1;
        let area = i64::from(area);
        let q16 = 1i64 << 16;
        let sub = i64::from(SUBPIXEL);
        let origin_num = na * i64::from(at.0 - p[0].0) + nb * i64::from(at.1 - p[0].1);
        let zs = [z[0], z[1], z[2]];
        Self {
            origin: z0 * q16 + (origin_num * q16).div_euclid(area),
            dx: (na * sub * q16).div_euclid(area),
            dy: (nb * sub * q16).div_euclid(area),
            range: (
                zs.iter().copied().min().unwrap_or(0),
                zs.iter().copied().max().unwrap_or(0),
            ),
        }
    }

    /// Depth (Q16) at the pixel `(i, j)` pixels right of and below the anchor.
    fn at(&self, i: i32, j: i32) -> i64 {
        self.origin + self.dx * i64::from(i) + self.dy * i64::from(j)
    }

    /// A Q16 depth rounded to a pixel's depth within the triangle's range.
    fn clamp(&self, z: i64) -> u16 {
        let d = (z + (1 << 15)) >> 16;
        d.clamp(i64::from(self.range.0), i64::from(self.range.1)) as u16
    }
}

/// `c · intensity / 255` per channel, rounded.
pub fn scale(c: Rgb565, intensity: u8) -> Rgb565 {
    let i = u32::from(intensity);
    let f = |v: u8| ((u32::from(v) * i + 127) / 255) as u8;
    Rgb565::new(f(c.r()), f(c.g()), f(c.b()))
}
