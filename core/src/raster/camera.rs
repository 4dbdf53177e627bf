//! The fixed camera: an orthographic view that frames a bounding box, and the projection of
//! skinned vertices to screen coordinates in each lane.

use crate::lane::{Lane, Out16, Q14};

use super::wide::{self, Narrow, Row};

use super::{RasterError, ScreenVertex, SUBPIXEL};

/// `cos` and `sin` of the camera's yaw (30° about +Y: a three-quarter view, so a walk's
/// forward swing shows). Literals, so host and device agree without trigonometry.
const YAW: (f32, f32) = (0.866_025_4, 0.5);

/// How much room the frame leaves around the bounding box (animation moves vertices
/// beyond the rest pose's box).
const MARGIN: f32 = 1.25;

/// Depth of the bounding box's centre; depths run 0 (near) ..= 65535 (far).
const DEPTH_MID: f32 = 32768.0;

/// Half the guard band in subpixels: vertices must project within ±1000 pixels of the
/// screen's centre. Screens are at most 1024 pixels a side, so the screen lies inside the
/// band, and coordinate differences stay below `2·GUARD`: an edge function (two products
/// of differences, [`super::band`]) below `8·GUARD² < 2^31`, a doubled triangle area below
/// `(2·GUARD)² < 2^30` (as [`super::depth`] needs), and coordinates within `i16`.
pub const GUARD: i32 = 1000 * SUBPIXEL;

/// An axis-aligned bounding box in asset units.
///
/// ```
/// use skin_core::raster::Bounds;
/// let b = Bounds::of([[0.0, -1.0, 0.5], [1.0, 1.0, -0.5]]).unwrap();
/// assert_eq!(b.min, [0.0, -1.0, -0.5]);
/// assert_eq!(b.max, [1.0, 1.0, 0.5]);
/// assert!(Bounds::of([]).is_none());
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bounds {
    /// Smallest coordinates.
    pub min: [f32; 3],
    /// Largest coordinates.
    pub max: [f32; 3],
}

impl Bounds {
    /// The box around `points`, or `None` when there are none or one is not finite.
    pub fn of(points: impl IntoIterator<Item = [f32; 3]>) -> Option<Self> {
        let mut b: Option<Self> = None;
        for p in points {
            if !p.iter().all(|c| c.is_finite()) {
                return None;
            }
            let cur = b.get_or_insert(Self { min: p, max: p });
            cur.min = core::array::from_fn(|i| cur.min[i].min(p[i]));
            cur.max = core::array::from_fn(|i| cur.max[i].max(p[i]));
        }
        b
    }
}

/// An orthographic camera looking at a bounding box from 30° right of its front (+Z), with
/// +Y up, scaled so the box (plus a margin) fills a `width × height` screen.
///
/// The projection is a 3×4 matrix from asset units to *screen space*: x and y in subpixels
/// (1/[`SUBPIXEL`] pixel, y down, pixel `(i, j)` covers `[i, i+1) × [j, j+1)`), and depth
/// (0 near, 65535 far; the box's centre at 32768, the box's circumscribed sphere times
/// twice the margin mapped inside the range). The `f32` lane projects with this matrix in
/// `f32`; the fixed lane with the same matrix, each row scaled by a power of two to 21-bit
/// integers, in integers (`wide.rs`).
///
/// ```
/// use skin_core::raster::{Bounds, Camera};
/// let cam = Camera::frame(&Bounds { min: [-1.0; 3], max: [1.0; 3] }, 240, 240).unwrap();
/// // The box's centre lands on the screen's centre, mid-depth.
/// let c = cam.project_f32([0.0; 3]);
/// assert_eq!(c, [120.0 * 16.0, 120.0 * 16.0, 32768.0]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Camera {
    m: [[f32; 4]; 3],
    fixed: [Row; 3],
    /// `fixed` in 32-bit parts when its scales allow (always, for models framed on a
    /// screen: entries from 2^-5 to 2^25 subpixels or depth units per asset unit): the
    /// fixed lane then projects without 128-bit products (see [`Narrow`]).
    narrow: Option<Narrow>,
    /// `GUARD` minus the screen centre's x and y (subpixels): a coordinate `v` is inside
    /// the guard band when `v + guard` is in `0 ..= 2·GUARD`.
    guard: [i32; 2],
}

impl Camera {
    /// The camera framing `bounds` on a `width × height` screen (each 1..=1024 pixels);
    /// `None` for an empty screen or non-finite bounds.
    pub fn frame(bounds: &Bounds, width: u16, height: u16) -> Option<Self> {
        if !(1..=1024).contains(&width) || !(1..=1024).contains(&height) {
            return None;
        }
        let (c, s) = YAW;
        let centre: [f32; 3] = core::array::from_fn(|i| 0.5 * (bounds.min[i] + bounds.max[i]));
        let half: [f32; 3] = core::array::from_fn(|i| 0.5 * (bounds.max[i] - bounds.min[i]));
        // Half-extent on the screen's x axis: |x|·cos + |z|·sin bounds the rotated box.
        let hx = half[0] * c + half[2] * s;
        let hy = half[1];
        let radius = libm::sqrtf(half[0] * half[0] + half[1] * half[1] + half[2] * half[2]);
        let sub = SUBPIXEL as f32;
        // Pixels per asset unit; a flat or point-like box still gets a finite scale.
        let fit = |screen: u16, h: f32| f32::from(screen) * 0.5 / (h.max(1e-3) * MARGIN);
        let scale = fit(width, hx).min(fit(height, hy)) * sub;
        let depth = (DEPTH_MID - 256.0) / (radius.max(1e-3) * 2.0 * MARGIN);
        // Screen x = right · (p − centre), screen y = −(p.y − centre.y), depth = −forward ·
        // (p − centre), with right = (c, 0, −s) and forward (towards the viewer) = (s, 0, c).
        let right = [c * scale, 0.0, -s * scale];
        let down = [0.0, -scale, 0.0];
        let back = [-s * depth, 0.0, -c * depth];
        let row = |axis: [f32; 3], origin: f32| {
            let t = origin - (axis[0] * centre[0] + axis[1] * centre[1] + axis[2] * centre[2]);
            [axis[0], axis[1], axis[2], t]
        };
        let m = [
            row(right, f32::from(width) * 0.5 * sub),
            row(down, f32::from(height) * 0.5 * sub),
            row(back, DEPTH_MID),
        ];
        if !m.iter().flatten().all(|v| v.is_finite() && v.abs() < 1e9) {
            return None;
        }
        let fixed = m.map(Row::new);
        let narrow = Narrow::new(&fixed);
        let guard = [width, height].map(|side| GUARD - i32::from(side) * SUBPIXEL / 2);
        Some(Self {
            m,
            fixed,
            narrow,
            guard,
        })
    }

    /// The projection matrix (rows: screen x, screen y in subpixels; depth).
    pub fn matrix(&self) -> [[f32; 4]; 3] {
        self.m
    }

    /// `p` (asset units) in screen space, in `f32`, unrounded.
    pub fn project_f32(&self, p: [f32; 3]) -> [f32; 3] {
        self.m
            .map(|r| r[0] * p[0] + r[1] * p[1] + r[2] * p[2] + r[3])
    }
}

/// The direction towards the light in world space, a unit vector in Q14 bits: up, left and
/// towards the front. Both lanes light with exactly these values.
pub const LIGHT: [i16; 3] = [-4965, 8275, 13240];

/// The ambient term of Lambert shading, in intensity units (of 255).
pub const AMBIENT: u8 = 64;

/// A lane whose skinned vertices can be projected and shaded: the f32 lane in `f32`, the
/// fixed lane in integers only. Both are deterministic, so a frame renders to the same
/// bits on every machine.
pub trait Project: Lane {
    /// Screen-space `[x, y]` (subpixels, rounded to nearest) and depth of a skinned
    /// position; [`RasterError::OutOfView`] when it is outside the guard band or the depth
    /// range (`vertex` names it).
    fn project(cam: &Camera, p: &[Self::Out; 3], vertex: usize) -> Result<[i32; 3], RasterError>;

    /// Lambert intensity (0..=255) of a skinned unit normal under [`LIGHT`] with
    /// [`AMBIENT`]: `ambient + (255 − ambient) · max(0, n·l)`, rounded.
    fn shade(n: &[Self; 3]) -> u8;
}

/// Checks the guard band and depth range and packs a vertex.
#[inline(always)]
fn check(cam: &Camera, s: [i32; 3], vertex: usize) -> Result<[i32; 3], RasterError> {
    // Centre ± GUARD and 0 ..= 0xFFFF as single unsigned comparisons.
    let inside = |v: i32, guard: i32| (v.wrapping_add(guard) as u32) <= 2 * GUARD as u32;
    if inside(s[0], cam.guard[0]) && inside(s[1], cam.guard[1]) && (s[2] as u32) <= 0xFFFF {
        Ok(s)
    } else {
        Err(RasterError::OutOfView { vertex })
    }
}

/// `v` rounded to the nearest integer, halves away from zero (as `roundf`), for `|v|` below
/// 2^24, in hardware instructions: the conversion to `i32` truncates, and the part it cut
/// off, `v − trunc(v)`, is exact in `f32` (below 2^23 both share `v`'s exponent or less;
/// above, `v` is a whole number). `libm::roundf` is a software routine that a Cortex-M4F
/// calls three times a vertex.
#[inline(always)]
fn round(v: f32) -> i32 {
    let t = v as i32;
    let cut = v - t as f32;
    t + i32::from(cut >= 0.5) - i32::from(cut <= -0.5)
}

impl Project for f32 {
    fn project(cam: &Camera, p: &[f32; 3], vertex: usize) -> Result<[i32; 3], RasterError> {
        let s = cam.project_f32(*p);
        if !s.iter().all(|v| v.is_finite() && v.abs() < 1e7) {
            return Err(RasterError::OutOfView { vertex });
        }
        check(cam, s.map(round), vertex)
    }

    fn shade(n: &[f32; 3]) -> u8 {
        let l = LIGHT.map(|v| f32::from(v) / 16384.0);
        let d = (n[0] * l[0] + n[1] * l[1] + n[2] * l[2]).max(0.0);
        let lit = round(f32::from(255 - AMBIENT) * d);
        (i32::from(AMBIENT) + lit).min(255) as u8
    }
}

impl Project for Q14 {
    #[inline(always)]
    fn project(cam: &Camera, p: &[Out16; 3], vertex: usize) -> Result<[i32; 3], RasterError> {
        // Positions below 2^19 (8 asset units: skinned positions stay within 6) take
        // 32-bit products ([`Narrow`]); anything wider (a model far smaller than its asset
        // unit, or a vertex thrown far away) takes 128 bits, to the same bits.
        let bits = p.map(|v| v.to_bits());
        if let (Some(n), true) = (&cam.narrow, wide::near(bits)) {
            return check(cam, n.project(bits), vertex);
        }
        let s = cam.fixed.map(|r| r.exact(bits));
        match s {
            [Some(x), Some(y), Some(z)] => check(cam, [x, y, z], vertex),
            _ => Err(RasterError::OutOfView { vertex }),
        }
    }

    fn shade(n: &[Q14; 3]) -> u8 {
        // Q14 × Q14 = Q28; |n| ≤ 1 + 2^-12 and |l| = 1, so |Σ| < 2^29.
        let d: i32 = n
            .iter()
            .zip(LIGHT)
            .map(|(a, b)| i32::from(a.to_bits()) * i32::from(b))
            .sum();
        let d14 = d.max(0) >> 14;
        let lit = (i32::from(255 - AMBIENT) * d14 + (1 << 13)) >> 14;
        (i32::from(AMBIENT) + lit).min(255) as u8
    }
}

/// Projects and shades the skinned positions `p` (and normals `n`) of vertices `base..`
/// into `out` (as long as the shorter of `p` and `out`). One call a chunk, not inlined, with
/// the projection inlined into its loop: the camera's entries are loaded once a chunk, not
/// once a vertex.
#[inline(never)]
pub(crate) fn vertices<L: Project>(
    cam: &Camera,
    p: &[[L::Out; 3]],
    n: Option<&[[L; 3]]>,
    out: &mut [ScreenVertex],
    base: usize,
) -> Result<(), RasterError> {
    let out = out.iter_mut().zip(p).enumerate();
    match n {
        Some(n) => {
            for ((k, (o, p)), n) in out.zip(n) {
                put(o, L::project(cam, p, base + k)?, L::shade(n));
            }
        }
        None => {
            for (k, (o, p)) in out {
                put(o, L::project(cam, p, base + k)?, 255);
            }
        }
    }
    Ok(())
}

/// Projects and shades one vertex.
#[inline(always)]
pub(crate) fn vertex<L: Project>(
    cam: &Camera,
    p: &[L::Out; 3],
    n: Option<&[L; 3]>,
    index: usize,
) -> Result<ScreenVertex, RasterError> {
    let mut v = ScreenVertex::default();
    put(&mut v, L::project(cam, p, index)?, n.map_or(255, L::shade));
    Ok(v)
}

/// Writes a projected vertex's fields in place (a vertex built whole and copied goes
/// through the stack on a Cortex-M0). The guard band keeps x and y within i16, the depth
/// check z within u16.
#[inline(always)]
fn put(o: &mut ScreenVertex, [x, y, z]: [i32; 3], shade: u8) {
    o.x = x as i16;
    o.y = y as i16;
    o.z = z as u16;
    o.shade = shade;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cam() -> Camera {
        Camera::frame(
            &Bounds {
                min: [-1.0, -1.0, -1.0],
                max: [1.0, 1.0, 1.0],
            },
            240,
            240,
        )
        .unwrap()
    }

    #[test]
    fn fixed_and_f32_projections_agree_to_a_subpixel() {
        let cam = cam();
        for p in [[0.3f32, -0.7, 0.2], [-1.0, 1.0, 1.0], [0.0, 0.0, -1.0]] {
            let f = <f32 as Project>::project(&cam, &p, 0).unwrap();
            let q = <Q14 as Project>::project(&cam, &p.map(Out16::from_num), 0).unwrap();
            for (a, b) in f.iter().zip(&q) {
                assert!((a - b).abs() <= 1, "{f:?} vs {q:?}");
            }
        }
    }

    proptest::proptest! {
        #[test]
        fn narrow_fixed_projection_is_the_wide_one(p in proptest::array::uniform3(-wide::NEAR..wide::NEAR)) {
            let cam = cam();
            assert!(cam.narrow.is_some());
            let wide = Camera { narrow: None, ..cam };
            let p = p.map(Out16::from_bits);
            proptest::prop_assert_eq!(
                <Q14 as Project>::project(&cam, &p, 0),
                <Q14 as Project>::project(&wide, &p, 0)
            );
        }
    }

    #[test]
    fn huge_models_project_in_128_bits() {
        // A hundredth of a subpixel per asset unit: entries scaled by 2^26, beyond the
        // 32-bit parts' shifts; 128-bit products, as exact.
        let b = Bounds {
            min: [-1e5; 3],
            max: [1e5; 3],
        };
        let cam = Camera::frame(&b, 240, 240).unwrap();
        assert!(cam.narrow.is_none());
        let centre = <Q14 as Project>::project(&cam, &[Out16::ZERO; 3], 0).unwrap();
        assert_eq!(centre, [120 * 16, 120 * 16, 32768]);
        let p = [1000.0f32, -2000.0, 500.0];
        let q = <Q14 as Project>::project(&cam, &p.map(Out16::from_num), 3).unwrap();
        let f = <f32 as Project>::project(&cam, &p, 3).unwrap();
        for (a, b) in f.iter().zip(&q) {
            assert!((a - b).abs() <= 1, "{f:?} vs {q:?}");
        }
    }

    #[test]
    fn up_is_up_and_near_is_small() {
        let cam = cam();
        let top = cam.project_f32([0.0, 1.0, 0.0]);
        let front = cam.project_f32([0.0, 0.0, 1.0]);
        assert!(top[1] < 120.0 * 16.0);
        assert!(front[2] < 32768.0);
        // The box's corners stay on screen with the margin.
        for corner in 0..8 {
            let p = [0, 1, 2].map(|i| if corner >> i & 1 == 1 { 1.0 } else { -1.0 });
            let s = cam.project_f32(p);
            assert!((0.0..240.0 * 16.0).contains(&s[0]), "{s:?}");
            assert!((0.0..240.0 * 16.0).contains(&s[1]), "{s:?}");
        }
    }

    #[test]
    fn vertices_outside_the_guard_band_are_errors() {
        let cam = cam();
        let far = [100.0f32, 0.0, 0.0];
        assert_eq!(
            <f32 as Project>::project(&cam, &far, 7),
            Err(RasterError::OutOfView { vertex: 7 })
        );
        assert_eq!(
            <Q14 as Project>::project(&cam, &far.map(Out16::from_num), 7),
            Err(RasterError::OutOfView { vertex: 7 })
        );
        assert_eq!(
            <f32 as Project>::project(&cam, &[f32::NAN, 0.0, 0.0], 1),
            Err(RasterError::OutOfView { vertex: 1 })
        );
    }

    proptest::proptest! {
        /// The hardware rounding is `roundf` wherever projection and shading use it.
        #[test]
        fn rounding_is_roundf(bits in proptest::prelude::any::<u32>()) {
            let v = f32::from_bits(bits);
            if v.is_finite() && v.abs() < 16_777_216.0 {
                proptest::prop_assert_eq!(round(v), libm::roundf(v) as i32, "{}", v);
            }
        }
    }

    #[test]
    fn rounding_halves_and_their_neighbours_is_roundf() {
        // Every half-integer of both signs up to 2^23 in steps, the floats either side of
        // each, and the largest values below 2^24.
        let mut k = 0.5f32;
        while k < 8_388_608.0 {
            for h in [k, -k] {
                let b = h.to_bits();
                for v in [h, f32::from_bits(b - 1), f32::from_bits(b + 1)] {
                    assert_eq!(round(v), libm::roundf(v) as i32, "{v}");
                }
            }
            k = k * 1.37 + 1.0;
            k = libm::floorf(k) + 0.5;
        }
        for v in [
            0.0,
            -0.0,
            0.499_999_97,
            -0.499_999_97,
            8_388_607.5,
            16_777_215.0,
            -16_777_215.0,
        ] {
            assert_eq!(round(v), libm::roundf(v) as i32, "{v}");
        }
    }

    #[test]
    fn shading_is_lambert_with_ambient_in_both_lanes() {
        let l = LIGHT.map(|v| f32::from(v) / 16384.0);
        assert_eq!(<f32 as Project>::shade(&l), 255);
        assert_eq!(<f32 as Project>::shade(&l.map(|v| -v)), AMBIENT);
        let q = LIGHT.map(Q14::from_bits);
        assert_eq!(<Q14 as Project>::shade(&q), 255);
        assert_eq!(<Q14 as Project>::shade(&q.map(|v| -v)), AMBIENT);
        // Perpendicular-ish: half way lit.
        let n = [0.0f32, 1.0, 0.0];
        let want = 64.0 + 191.0 * l[1];
        assert!((f32::from(<f32 as Project>::shade(&n)) - want).abs() <= 0.5);
        let nq = n.map(Q14::from_num);
        assert!((f32::from(<Q14 as Project>::shade(&nq)) - want).abs() <= 1.0);
    }
}
