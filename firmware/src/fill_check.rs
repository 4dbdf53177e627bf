//! A band's fill (ARMv6-M assembly in Cortex-M0 code, the Rust scan elsewhere) against the
//! Rust scan (`Band::fill_reference`), on the device: bands of every height up to
//! [`ROWS`] and widths up to [`WIDTH`], over depth buffers holding random depths (so that
//! the depth test keeps some pixels and not others), with triangles of a few pixels (most
//! of a frame's), tens of pixels (areas whose depth reciprocal takes a shift) and hundreds
//! (partly off the band on every side), and edges through pixel centres (vertices on a
//! grid of half pixels: the fill rule's biases).

use embedded_graphics_core::pixelcolor::Rgb565;
use skin_core::raster::band::{scale, Triangle};
use skin_core::raster::{Band, ScreenVertex};

use crate::synthetic::Rng;

/// The widest band compared.
const WIDTH: usize = 32;

/// The tallest band compared.
const ROWS: usize = 8;

/// Triangles compared (the host test requires the same count).
pub const FILL_CASES: u32 = 1000;

/// The first triangle whose pixels differ from the Rust scan's.
pub struct Mismatch {
    /// Its number.
    pub case: u32,
}

/// Compares every case; the number compared, or the first that differs.
#[inline(never)]
pub fn check_fill_loop() -> Result<u32, Mismatch> {
    let mut rng = Rng::new(0x5EED_F111);
    let material = Rgb565::new(31, 63, 31);
    let shades: [Rgb565; 256] = core::array::from_fn(|i| scale(material, i as u8));
    let mut cases = 0;
    while cases < FILL_CASES {
        let width = 1 + rng.below(WIDTH as u32) as u16;
        let rows = 1 + rng.below(ROWS as u32) as u16;
        let y0 = rng.below(16) as u16;
        let v = vertices(&mut rng, width, y0, rows);
        let Some(t) = Triangle::new(&v).or_else(|| Triangle::new(&[v[0], v[2], v[1]])) else {
            continue;
        };
        let (mut colour, mut depth) = ([Rgb565::new(0, 0, 0); WIDTH * ROWS], [0u16; WIDTH * ROWS]);
        for (c, d) in colour.iter_mut().zip(&mut depth) {
            *c = Rgb565::new(0, 0, rng.below(32) as u8);
            *d = if rng.below(2) == 0 {
                u16::MAX
            } else {
                rng.next_u32() as u16
            };
        }
        // A front face by `Band::fill` (the assembly's triangle entry), and the triangle as
        // drawn, either way round, by binned drawing's step (its pair entry: the culling,
        // the box, the depth's reciprocal and the bottom row too).
        let same = |draw: &dyn Fn(&mut Band) -> Option<i32>,
                    reference: &dyn Fn(&mut Band) -> Option<i32>| {
            let (mut colour2, mut depth2) = (colour, depth);
            let (mut colour1, mut depth1) = (colour, depth);
            let (Ok(mut a), Ok(mut b)) = (
                Band::new(width, y0, rows, &mut colour1, &mut depth1),
                Band::new(width, y0, rows, &mut colour2, &mut depth2),
            ) else {
                return false;
            };
            draw(&mut a) == reference(&mut b) && colour1 == colour2 && depth1 == depth2
        };
        let filled = same(
            &|band| {
                band.fill(&t, material);
                None
            },
            &|band| {
                band.fill_reference(&t, material);
                None
            },
        );
        let binned = same(
            &|band| band.draw_binned([&v[0], &v[1], &v[2]], &shades),
            &|band| {
                let t = Triangle::new(&v)?;
                band.fill_reference(&t, material);
                Some(t.bottom())
            },
        );
        if !(filled && binned) {
            return Err(Mismatch { case: cases });
        }
        cases += 1;
    }
    Ok(cases)
}

/// A triangle's vertices near a `width`-pixel band of `rows` rows from row `y0`, wound
/// either way.
fn vertices(rng: &mut Rng, width: u16, y0: u16, rows: u16) -> [ScreenVertex; 3] {
    // Its size in subpixels: mostly a few pixels, sometimes tens, rarely hundreds.
    let size = match rng.below(16) {
        0 => 16 * 400,
        1..=3 => 16 * 40,
        _ => 16 * 4,
    };
    // Its vertices about a point anywhere over the band or a few pixels beyond it.
    let (cx, cy) = (
        rng.below(u32::from(width) + 4) as i32 * 16 - 32,
        (rng.below(u32::from(rows) + 4) as i32 + i32::from(y0)) * 16 - 32,
    );
    // Half the time on a grid of half pixels, 5 × 5 of them about the point: edges
    // through centres, horizontal and vertical ones among them (the fill rule's biases).
    let snap = rng.below(2) == 0;
    let mut v = [ScreenVertex::default(); 3];
    for v in &mut v {
        let mut d = || {
            if snap {
                8 * (rng.below(5) as i32 - 2)
            } else {
                rng.below(size) as i32 - size as i32 / 2
            }
        };
        let (x, y) = (cx + d(), cy + d());
        *v = ScreenVertex {
            x: x as i16,
            y: y as i16,
            z: rng.next_u32() as u16,
            shade: rng.next_u32() as u8,
        };
    }
    v
}
