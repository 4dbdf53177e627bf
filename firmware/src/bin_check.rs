//! Binning (its loop in ARMv6-M assembly in Cortex-M0 code, Rust elsewhere) against the
//! Rust loop other targets take (`bins::lists` with `reference`), on the device: each band's
//! first span, every span, the first triangle left unbinned, or the error, compared.
//!
//! The cases: screens of 1 to 64 columns and rows in bands of 1 to 16 rows, and some of
//! 129 to 300 rows in bands of 1 or 2 (mostly more bands than binning takes); one to three
//! draw calls of random triangles facing either way — tiny, a few pixels, or hundreds of
//! pixels wide, partly or wholly off the screen, some with vertices on band edges and
//! pixel centres — with room for all, some or none of the visible ones (the assembly hands
//! the rest back part-way); in one call in eight an index past the call's vertices; now
//! and then indices that are not 2-aligned (read by the Rust loop on every target), an
//! index list cut mid-triangle or a call's vertices past the frame's; then [`NUMBERING`]
//! frames of about 65,536 hidden triangles before visible ones, so that triangle numbers
//! pass 65,535 (past which no span can name a triangle) inside and between draw calls.
//!
//! Each frame's bands are then drawn both ways as well (`bins::bands`): by binned
//! drawing's walk of the lists (in Cortex-M0 code the assembly's walk entry) and by the walk
//! other targets take (one pair entry a triangle), every band's colours and depths, or the
//! error, compared.

use core::ops::Range;

use embedded_graphics_core::pixelcolor::{IntoStorage, Rgb565};
use skin_core::asset::U16s;
use skin_core::raster::bins::{bands, lists, DrawCall, Span};
use skin_core::raster::ScreenVertex;

use crate::synthetic::Rng;

/// Random frames compared.
const FRAMES: u32 = 600;

/// Frames whose triangle numbers pass 65,535.
const NUMBERING: u32 = 3;

/// Frames compared (the host test requires the same count).
pub const BIN_CASES: u32 = FRAMES + NUMBERING;

/// Vertices of a random frame.
const VERTICES: usize = 24;

/// Triangles of a random frame's index lists, in all.
const TRIANGLES: usize = 48;

/// Spans at most (more than a random frame's triangles: room for all of them).
const SPANS: usize = 64;

/// A random frame's band at most: 64 columns of 16 rows.
const BAND: usize = 64 * 16;

/// The first frame whose lists differ from the Rust loop's.
pub struct Mismatch {
    /// Its number.
    pub case: u32,
}

/// Index bytes, 4-aligned (so that a list read from byte 0 is aligned and from byte 1 not).
#[repr(C, align(4))]
struct Aligned<const N: usize>([u8; N]);

/// Hidden triangles (every index 0: no area) for the numbering frames, in flash.
static HIDDEN: Aligned<{ 6 * 512 }> = Aligned([0; 6 * 512]);

/// Compares every frame; the number compared, or the first that differs.
#[inline(never)]
pub fn check_bin_loop() -> Result<u32, Mismatch> {
    let mut rng = Rng::new(0x5EED_B125);
    let mut cases = 0;
    while cases < FRAMES {
        let width = 1 + rng.below(64) as u16;
        // Now and then more bands than binning takes (`None` from both).
        let (height, rows) = if rng.below(8) == 0 {
            (129 + rng.below(172) as u16, 1 + rng.below(2) as u16)
        } else {
            (1 + rng.below(64) as u16, 1 + rng.below(16) as u16)
        };
        let mut v = [ScreenVertex::default(); VERTICES];
        for v in &mut v {
            *v = vertex(&mut rng, width, height, rows);
        }
        // The index lists back to back, little-endian, from byte 0 or (now and then) 1.
        let mut bytes = Aligned([0u8; 6 * TRIANGLES + 2]);
        let from = usize::from(rng.below(8) == 0);
        let calls = 1 + rng.below(3) as usize;
        let mut ranges: [Range<usize>; 3] = [0..0, 0..0, 0..0];
        let mut parts: [Range<usize>; 3] = [0..0, 0..0, 0..0];
        let mut at = from;
        for (range, part) in ranges.iter_mut().zip(&mut parts).take(calls) {
            let first = rng.below(VERTICES as u32 / 2) as usize;
            let len = 3 + rng.below((VERTICES - first - 2) as u32) as usize;
            // Now and then past the frame's vertices.
            let end = if rng.below(64) == 0 {
                VERTICES + 1
            } else {
                first + len
            };
            *range = first..end;
            let mut indices = 3 * rng.below(TRIANGLES as u32 / calls as u32 + 1) as usize;
            // Now and then cut mid-triangle.
            if rng.below(64) == 0 && indices > 0 {
                indices -= 1 + rng.below(2) as usize;
            }
            // In one call in eight, one index past the call's vertices.
            let wrong = match rng.below(8) {
                0 => rng.below(indices as u32 + 1) as usize,
                _ => usize::MAX,
            };
            for i in 0..indices {
                let index = if i == wrong {
                    len + rng.below(3) as usize
                } else {
                    rng.below(len as u32) as usize
                };
                bytes.0[at + 2 * i..at + 2 * i + 2].copy_from_slice(&(index as u16).to_le_bytes());
            }
            *part = at..at + 2 * indices;
            at += 2 * indices;
        }
        let room = match rng.below(4) {
            0 => SPANS,
            _ => rng.below(SPANS as u32 / 2) as usize,
        };
        let call = |i: usize| -> DrawCall<'_> {
            (ranges[i].clone(), U16s::new(&bytes.0[parts[i].clone()]))
        };
        if !same(|| (0..calls).map(call), &v, (width, height, rows), room) {
            return Err(Mismatch { case: cases });
        }
        cases += 1;
    }
    while cases < BIN_CASES {
        if !numbering(&mut rng) {
            return Err(Mismatch { case: cases });
        }
        cases += 1;
    }
    Ok(cases)
}

/// Whether the assembly's lists (or error) of the draw calls `parts` of `v` on the screen
/// `(width, height, rows)` with `room` spans are the Rust loop's, and the bands drawn from
/// them by binned drawing's walk the reference walk's.
fn same<'a, P: Iterator<Item = DrawCall<'a>>>(
    parts: impl Fn() -> P,
    v: &[ScreenVertex],
    screen: (u16, u16, u16),
    room: usize,
) -> bool {
    let (mut spans, mut reference) = ([Span::default(); SPANS], [Span::default(); SPANS]);
    let binned = lists(parts(), v, screen, &mut spans[..room], false);
    let expected = lists(parts(), v, screen, &mut reference[..room], true);
    let walked = |reference| drawn(&parts, v, screen, room, reference);
    binned == expected && spans == reference && walked(false) == walked(true)
}

/// The bands of the frame [`same`] compares, binned and drawn one after another by binned
/// drawing's walk of the lists, or by the reference walk: whether it was binned (or the
/// error) and a hash (FNV-1a) of every band's colours and depths.
fn drawn<'a, P: Iterator<Item = DrawCall<'a>>>(
    parts: &impl Fn() -> P,
    v: &[ScreenVertex],
    screen: (u16, u16, u16),
    room: usize,
    reference: bool,
) -> (Result<bool, skin_core::raster::RasterError>, u32) {
    let shades: [Rgb565; 256] =
        core::array::from_fn(|i| Rgb565::new(i as u8 >> 3, i as u8 >> 2, i as u8 >> 3));
    let mut spans = [Span::default(); SPANS];
    let (mut colour, mut depth) = ([Rgb565::new(0, 0, 0); BAND], [0u16; BAND]);
    let mut hash = 0x811c_9dc5u32;
    let binned = bands(
        parts,
        v,
        screen,
        &mut spans[..room],
        (&mut colour, &mut depth),
        &shades,
        reference,
        |band| {
            for (c, d) in band.colour().iter().zip(band.depth()) {
                for half in [c.into_storage(), *d] {
                    hash = (hash ^ u32::from(half)).wrapping_mul(0x0100_0193);
                }
            }
        },
    );
    (binned, hash)
}

/// A frame of 65,500 to 65,547 triangles of no area in calls of up to 512, then a call of
/// 8 more and 24 of two triangles, each wound either way (half of them visible), with room
/// for 8 to 47 spans: the triangle numbers pass 65,535 among or after the hidden ones.
fn numbering(rng: &mut Rng) -> bool {
    let hidden = 65_500 + rng.below(48) as usize;
    // Two triangles on a 32 × 32 screen (vertices 1, 2, 3 and 4, 5, 6; 0 for no area).
    let v = [
        (0, 0),
        (16, 16),
        (400, 40),
        (40, 400),
        (96, 64),
        (300, 80),
        (100, 300),
    ]
    .map(|(x, y)| ScreenVertex {
        x,
        y,
        z: 100,
        shade: 200,
    });
    let mut last = Aligned([0u8; 6 * 32]);
    for t in 8..32 {
        let k = [[1u16, 2, 3], [3, 2, 1], [4, 5, 6], [6, 5, 4]][rng.below(4) as usize];
        for (j, k) in k.iter().enumerate() {
            last.0[6 * t + 2 * j..6 * t + 2 * j + 2].copy_from_slice(&k.to_le_bytes());
        }
    }
    let calls = hidden.div_ceil(512);
    let parts = || {
        (0..calls)
            .map(move |c| {
                let n = (hidden - 512 * c).min(512);
                (0..7, U16s::new(&HIDDEN.0[..6 * n]))
            })
            .chain(core::iter::once((0..7, U16s::new(&last.0[..]))))
    };
    let room = 8 + rng.below(40) as usize;
    same(parts, &v, (32, 32, 4), room)
}

/// A vertex about a `width × height` screen in bands of `rows`: a few pixels, tens or
/// hundreds off it at most, or on a band's top edge (a pixel centre, or a subpixel either
/// side).
fn vertex(rng: &mut Rng, width: u16, height: u16, rows: u16) -> ScreenVertex {
    let (w, h) = (i32::from(width) * 16, i32::from(height) * 16);
    let reach = match rng.below(8) {
        0 => 16 * 400,
        1 | 2 => 16 * 40,
        _ => 16 * 4,
    };
    let mut around = |size: i32| rng.below((size + 2 * reach) as u32) as i32 - reach;
    let x = around(w);
    let y = around(h);
    let y = if rng.below(4) == 0 {
        let band = rng.below(u32::from(height.div_ceil(rows)) + 1) as i32;
        band * i32::from(rows) * 16 + 8 + rng.below(3) as i32 - 1
    } else {
        y
    };
    ScreenVertex {
        x: x as i16,
        y: y as i16,
        z: rng.next_u32() as u16,
        shade: rng.next_u32() as u8,
    }
}
