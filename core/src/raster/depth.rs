//! A triangle's depth as a plane over pixel steps: what every pixel's depth is, and how it
//! is computed fast without changing a bit.
//!
//! The plane is anchored at the centre of the triangle's first candidate pixel (its own,
//! not the band's, so a pixel's depth does not depend on the band) and stepped per pixel.
//! Its three values are floor divisions by twice the triangle's area (Cramer's rule), in
//! Q16 depth units: the definition is [`Plane::exact`], in `i64`. [`Plane::new`] gets the
//! same values with 32-bit products and a reciprocal of the area (see [`super::wide`])
//! whenever the vertices lie in the guard band and the area is below 2^24 — every
//! triangle of a projected mesh on a screen up to 1024 pixels — and falls back to the
//! definition otherwise.

use super::camera::GUARD;
use super::wide::{Divisor, Factor};
use super::SUBPIXEL;

/// A triangle's depth as a plane over pixel steps, in Q16 depth units.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Plane {
    /// Depth at the anchor pixel's centre.
    origin: i64,
    /// Per pixel to the right.
    pub(crate) dx: i64,
    /// Per pixel down.
    pub(crate) dy: i64,
    /// The vertices' depth range (interpolation never leaves it).
    range: (u16, u16),
}

/// `log2` of [`SUBPIXEL`] · 2^16: a per-subpixel gradient in Q16 to a per-pixel one.
const PIXEL_Q16: u32 = 20;
const _: () = assert!(SUBPIXEL << 16 == 1 << PIXEL_Q16);

impl Plane {
    /// Through `p` (subpixels) at depths `z`; `area` is twice the (positive) area; `at` the
    /// anchor pixel's centre. The same values as [`Self::exact`].
    pub(crate) fn new(p: [(i32, i32); 3], z: [u16; 3], area: i32, at: (i32, i32)) -> Self {
        Self::fast(p, z, area, at).unwrap_or_else(|| Self::exact(p, z, area, at))
    }

    /// The definition: Cramer's rule for ∂z/∂x and ∂z/∂y per subpixel, numerators over
    /// `area`, floor-divided in `i64`.
    pub(crate) fn exact(p: [(i32, i32); 3], z: [u16; 3], area: i32, at: (i32, i32)) -> Self {
        let (dx1, dy1) = (i64::from(p[1].0 - p[0].0), i64::from(p[1].1 - p[0].1));
        let (dx2, dy2) = (i64::from(p[2].0 - p[0].0), i64::from(p[2].1 - p[0].1));
        let (z0, z1, z2) = (i64::from(z[0]), i64::from(z[1]), i64::from(z[2]));
        let (dz1, dz2) = (z1 - z0, z2 - z0);
        let na = dz1 * dy2 - dz2 * dy1;
        let nb = dx1 * dz2 - dx2 * dz1;
        let area = i64::from(area);
        let origin_num = na * i64::from(at.0 - p[0].0) + nb * i64::from(at.1 - p[0].1);
        Self {
            origin: (z0 << 16) + (origin_num << 16).div_euclid(area),
            dx: (na << PIXEL_Q16).div_euclid(area),
            dy: (nb << PIXEL_Q16).div_euclid(area),
            range: range(z),
        }
    }

    /// [`Self::exact`] with 32-bit products and the area's reciprocal; `None` outside the
    /// guard band or for an area of 2^24 or more.
    fn fast(p: [(i32, i32); 3], z: [u16; 3], area: i32, at: (i32, i32)) -> Option<Self> {
        let div = Divisor::new(area)?;
        let inside = |v: i32| (-GUARD..=GUARD).contains(&v);
        if !p.iter().all(|&(x, y)| inside(x) && inside(y)) {
            return None;
        }
        // Coordinate differences are at most 2^14 and depth differences below 2^16, so
        // each product is below 2^30 and the numerators below 2^31: `i32` holds them.
        let (dx1, dy1) = (p[1].0 - p[0].0, p[1].1 - p[0].1);
        let (dx2, dy2) = (p[2].0 - p[0].0, p[2].1 - p[0].1);
        let z0 = i32::from(z[0]);
        let (dz1, dz2) = (i32::from(z[1]) - z0, i32::from(z[2]) - z0);
        let na = dz1 * dy2 - dz2 * dy1;
        let nb = dx1 * dz2 - dx2 * dz1;
        // The anchor is within a pixel of the bounding box: |at − p0| ≤ 2^14 + 16, so the
        // origin's numerator stays below 2^46 (and below 2^62 in Q16).
        let origin_num = Factor::new(na).mul(at.0 - p[0].0) + Factor::new(nb).mul(at.1 - p[0].1);
        let floor = |n: i64| div.floor_divmod(n).0;
        Some(Self {
            origin: (i64::from(z0) << 16) + floor(origin_num << 16),
            dx: floor(i64::from(na) << PIXEL_Q16),
            dy: floor(i64::from(nb) << PIXEL_Q16),
            range: range(z),
        })
    }

    /// Depth (Q16) at the pixel `(i, j)` pixels right of and below the anchor (usually
    /// `(0, 0)` or a row or two down: a 64-bit product is a library call on a Cortex-M0).
    pub(crate) fn at(&self, i: i32, j: i32) -> i64 {
        let step = |d: i64, n: i32| if n == 0 { 0 } else { d * i64::from(n) };
        self.origin + step(self.dx, i) + step(self.dy, j)
    }

    /// A Q16 depth rounded to a pixel's depth within the triangle's range.
    pub(crate) fn clamp(&self, z: i64) -> u16 {
        let d = (z + (1 << 15)) >> 16;
        d.clamp(i64::from(self.range.0), i64::from(self.range.1)) as u16
    }
}

/// The smallest and largest of three depths.
fn range(z: [u16; 3]) -> (u16, u16) {
    (z[0].min(z[1]).min(z[2]), z[0].max(z[1]).max(z[2]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Vertices, depths and an anchor.
    type Case = ([(i32, i32); 3], [u16; 3], (i32, i32));

    /// A triangle in the guard band, and an anchor within a pixel of its bounding box.
    fn triangle() -> impl Strategy<Value = Case> {
        let c = -GUARD..=GUARD;
        (
            [
                (c.clone(), c.clone()),
                (c.clone(), c.clone()),
                (c.clone(), c),
            ],
            any::<[u16; 3]>(),
            (0i32..=16, 0i32..=16),
        )
            .prop_map(|(p, z, (ax, ay))| {
                let min = |f: fn(&(i32, i32)) -> i32| p.iter().map(f).min().unwrap_or(0);
                (p, z, (min(|v| v.0) + ax, min(|v| v.1) + ay))
            })
    }

    fn area(p: &[(i32, i32); 3]) -> i64 {
        let [a, b, c] = p.map(|(x, y)| (i64::from(x), i64::from(y)));
        (b.0 - a.0) * (c.1 - a.1) - (c.0 - a.0) * (b.1 - a.1)
    }

    proptest! {
        #[test]
        fn fast_planes_are_the_exact_ones((p, z, at) in triangle()) {
            let a = area(&p).abs();
            prop_assume!(a > 0 && a < 1 << 24);
            let a = a as i32;
            prop_assert_eq!(Plane::fast(p, z, a, at), Some(Plane::exact(p, z, a, at)));
        }

        #[test]
        fn small_triangles_too((x, y) in (-GUARD..GUARD - 64, -GUARD..GUARD - 64), d in any::<[(u8, u8); 2]>(), z in any::<[u16; 3]>()) {
            let p = [(x, y), (x + i32::from(d[0].0 % 64), y + i32::from(d[0].1 % 64)), (x + i32::from(d[1].0 % 64), y + i32::from(d[1].1 % 64))];
            let a = area(&p).abs() as i32;
            prop_assume!(a > 0);
            prop_assert_eq!(Plane::new(p, z, a, (x + 8, y + 8)), Plane::exact(p, z, a, (x + 8, y + 8)));
        }
    }

    #[test]
    fn outside_the_guard_band_or_huge_uses_the_definition() {
        let p = [(0, 0), (GUARD + 16, 0), (0, 40)];
        assert!(Plane::fast(p, [0, 100, 200], 40 * (GUARD + 16), (8, 8)).is_none());
        let big = [(-GUARD, -GUARD), (GUARD, -GUARD), (-GUARD, GUARD)];
        let a = area(&big).abs() as i32;
        assert!(Plane::fast(big, [0, 65535, 30000], a, (0, 0)).is_none());
        assert_eq!(
            Plane::new(big, [0, 65535, 30000], a, (0, 0)),
            Plane::exact(big, [0, 65535, 30000], a, (0, 0))
        );
    }
}
