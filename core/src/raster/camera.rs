//! The fixed camera: an orthographic view that frames a bounding box, and the projection of
//! skinned vertices to screen coordinates in each lane.

use crate::lane::{Lane, Out16, Q14};

#[cfg(not(skin_asm_v6m))]
use super::steps::Short;
use super::steps::Steps;

use super::{RasterError, ScreenVertex, GUARD, SUBPIXEL};

/// `cos` and `sin` of the camera's yaw (30° about +Y: a three-quarter view, so a walk's
/// forward swing shows). Literals, so host and device agree without trigonometry.
const YAW: (f32, f32) = (0.866_025_4, 0.5);

/// How much room the frame leaves around the bounding box (animation moves vertices
/// beyond the rest pose's box).
const MARGIN: f32 = 1.25;

/// Depth of the bounding box's centre; depths run 0 (near) ..= 65535 (far).
const DEPTH_MID: f32 = 32768.0;

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
/// `f32`; the fixed lane with the same matrix in integers, around the box's centre in steps
/// of 1/8 to 1/4 subpixel (`steps.rs`).
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
    /// The fixed lane's matrix: in 32-bit products near the centre when its scales allow
    /// (for models framed on a screen: from 1/2 to 2^14 subpixels per asset unit).
    fixed: Steps,
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
        let guard = [width, height].map(|side| GUARD - i32::from(side) * SUBPIXEL / 2);
        let fixed = Steps::new(&m, centre, guard)?;
        Some(Self { m, fixed, guard })
    }

    /// The projection matrix (rows: screen x, screen y in subpixels; depth).
    pub fn matrix(&self) -> [[f32; 4]; 3] {
        self.m
    }

    /// Projects and shades the skinned positions `p` (and normals `n`) of vertices
    /// `base..` into `out` (as long as the shorter of `p` and `out`): what
    /// [`Scene::project`](crate::scene::Scene::project) does with each skinned chunk, in the
    /// lane's loop (the fixed lane's is ARMv6-M assembly on a Cortex-M0), to the bits of
    /// [`ScreenVertex::project`] on each vertex. The first vertex outside the guard band or
    /// the depth range stops it: [`RasterError::OutOfView`] names it.
    ///
    /// ```
    /// use skin_core::lane::{Out16, Q14};
    /// use skin_core::raster::{Bounds, Camera, RasterError, ScreenVertex};
    /// let cam = Camera::frame(&Bounds { min: [-1.0; 3], max: [1.0; 3] }, 240, 240).unwrap();
    /// let unit = |v: f32| Out16::from_num(v);
    /// let p = [[unit(0.5), unit(-0.25), unit(0.0)], [unit(0.0); 3], [unit(90.0); 3]];
    /// let n = [[Q14::from_num(0.0), Q14::from_num(0.0), Q14::from_num(1.0)]; 3];
    /// let mut out = [ScreenVertex::default(); 3];
    /// // The third vertex is 90 units away: far outside the guard band.
    /// let got = cam.project_chunk::<Q14>(&p, Some(&n), &mut out, 10);
    /// assert_eq!(got, Err(RasterError::OutOfView { vertex: 12 }));
    /// for k in 0..2 {
    ///     assert_eq!(Ok(out[k]), ScreenVertex::project::<Q14>(&cam, &p[k], Some(&n[k]), k));
    /// }
    /// ```
    pub fn project_chunk<L: Project>(
        &self,
        p: &[[L::Out; 3]],
        n: Option<&[[L; 3]]>,
        out: &mut [ScreenVertex],
        base: usize,
    ) -> Result<(), RasterError> {
        vertices::<L>(self, p, n, out, base)
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

    /// Projects and shades the skinned positions `p` and normals `n` of vertices `base..`
    /// into `out` (as long as the shortest): [`Self::project`] and [`Self::shade`] of each,
    /// in a loop that a lane may specialise.
    fn shaded(
        cam: &Camera,
        p: &[[Self::Out; 3]],
        n: &[[Self; 3]],
        out: &mut [ScreenVertex],
        base: usize,
    ) -> Result<(), RasterError> {
        for (k, ((o, p), n)) in out.iter_mut().zip(p).zip(n).enumerate() {
            put(o, Self::project(cam, p, base + k)?, Self::shade(n));
        }
        Ok(())
    }
}

/// Whether `s` is inside the guard band (`guard`: [`Camera`]'s) and the depth range:
/// centre ± GUARD and 0 ..= 0xFFFF as single unsigned comparisons.
#[inline(always)]
fn inside(guard: [i32; 2], s: [i32; 3]) -> bool {
    let near = |v: i32, guard: i32| (v.wrapping_add(guard) as u32) <= 2 * GUARD as u32;
    near(s[0], guard[0]) && near(s[1], guard[1]) && (s[2] as u32) <= 0xFFFF
}

/// Checks the guard band and depth range and packs a vertex.
#[inline(always)]
fn check(cam: &Camera, s: [i32; 3], vertex: usize) -> Result<[i32; 3], RasterError> {
    if inside(cam.guard, s) {
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
        // Positions near the centre (within 2^15 steps: 4 asset units for a model 2 units
        // tall on 240 pixels) take 32-bit products; anything further (a vertex thrown far
        // off the screen) or a camera beyond the 32-bit bounds takes 128 bits, to the same
        // bits.
        let bits = p.map(|v| v.to_bits());
        if let Some(s) = cam.fixed.short().and_then(|s| s.project(bits)) {
            return check(cam, s, vertex);
        }
        match cam.fixed.exact(bits) {
            [Some(x), Some(y), Some(z)] => check(cam, [x, y, z], vertex),
            _ => Err(RasterError::OutOfView { vertex }),
        }
    }

    fn shade(n: &[Q14; 3]) -> u8 {
        // Q14 × Q20 (the light times 191/256 in Q14: [`LIT`]); |n| ≤ 1 + 2^-12, so the sum
        // is below 191.5 · 2^20 and the lit part rounds to at most 191.
        let d: i32 = n
            .iter()
            .zip(LIT)
            .map(|(a, b)| i32::from(a.to_bits()) * b)
            .sum();
        let shade = (d.max(0) + LIGHT_ROUND) >> 20;
        shade.min(255) as u8
    }

    fn shaded(
        cam: &Camera,
        p: &[[Out16; 3]],
        n: &[[Q14; 3]],
        out: &mut [ScreenVertex],
        base: usize,
    ) -> Result<(), RasterError> {
        let len = out.len().min(p.len()).min(n.len());
        let mut k = 0;
        while k < len {
            // The 32-bit loop runs up to a vertex it does not take, which goes the long way.
            if let Some(s) = cam.fixed.short() {
                #[cfg(not(skin_asm_v6m))]
                let done = short(s, &p[k..len], &n[k..len], &mut out[k..len]);
                #[cfg(skin_asm_v6m)]
                let done = super::project_v6m::short(
                    s,
                    &p[k..len],
                    &n[k..len],
                    &mut out[k..len],
                    [LIT[0], LIT[1], LIT[2], LIGHT_ROUND],
                );
                k += done;
            }
            if let (Some(o), Some(p), Some(n)) = (out.get_mut(k), p.get(k), n.get(k)) {
                put(o, Self::project(cam, p, base + k)?, Self::shade(n));
                k += 1;
            }
        }
        Ok(())
    }
}

/// [`LIGHT`] times `(255 − AMBIENT) / 256`, rounded: the fixed lane's Lambert term is
/// `n · LIT / 2^20` intensity units.
const LIT: [i32; 3] = [lit(LIGHT[0]), lit(LIGHT[1]), lit(LIGHT[2])];

/// The ambient term and a half in the fixed lane's Lambert units (Q20): added to `n · LIT`
/// before its shift.
const LIGHT_ROUND: i32 = ((AMBIENT as i32) << 20) + (1 << 19);

/// A Q14 light component times `(255 − AMBIENT) / 256`, rounded.
const fn lit(v: i16) -> i32 {
    (v as i32 * (255 - AMBIENT as i32) + 128) >> 8
}

/// The fixed lane's projection and shading of the vertices that take the 32-bit path
/// ([`Short::project`], inside the guard band) and land inside the depth range, from the
/// first up to one that does not: how many. Its own function, so that its loop keeps the camera's entries as the only
/// values beside the vertex's. ARMv6-M runs the same loop in assembly (`project_v6m.rs`).
#[cfg(not(skin_asm_v6m))]
#[inline(never)]
fn short(s: &Short, p: &[[Out16; 3]], n: &[[Q14; 3]], out: &mut [ScreenVertex]) -> usize {
    let len = out.len().min(p.len()).min(n.len());
    let (out, p, n) = (&mut out[..len], &p[..len], &n[..len]);
    for k in 0..len {
        match s.project(p[k].map(|c| c.to_bits())) {
            Some(v) if (v[2] as u32) <= 0xFFFF => {
                put(&mut out[k], v, <Q14 as Project>::shade(&n[k]));
            }
            _ => return k,
        }
    }
    len
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
    match n {
        Some(n) => L::shaded(cam, p, n, out, base)?,
        None => {
            let out = out.iter_mut().zip(p).enumerate();
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
        fn short_fixed_projection_is_the_exact_one(p in proptest::array::uniform3(8 - (1i32 << 18)..(1 << 18) - 8)) {
            let cam = cam();
            let short = cam.fixed.short().unwrap().project(p);
            proptest::prop_assert!(short.is_some());
            let exact = cam.fixed.exact(p);
            proptest::prop_assert_eq!(short.map(|s| s.map(Some)), Some(exact));
            let p = p.map(Out16::from_bits);
            let got = <Q14 as Project>::project(&cam, &p, 0);
            match exact {
                [Some(x), Some(y), Some(z)] => proptest::prop_assert_eq!(got, check(&cam, [x, y, z], 0)),
                _ => proptest::prop_assert!(got.is_err()),
            }
        }
    }

    #[test]
    fn huge_models_project_in_128_bits() {
        // A hundredth of a subpixel per asset unit: steps of 2^22 bits, beyond the
        // 32-bit form's; 128-bit products, as exact.
        let b = Bounds {
            min: [-1e5; 3],
            max: [1e5; 3],
        };
        let cam = Camera::frame(&b, 240, 240).unwrap();
        assert!(cam.fixed.short().is_none());
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
