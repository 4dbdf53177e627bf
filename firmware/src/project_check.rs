//! The fixed lane's projection loop (ARMv6-M assembly in Cortex-M0 code, the Rust loop
//! elsewhere) against the per-vertex path (`ScreenVertex::project`: the 32-bit rows, else
//! their 128-bit definition), on the device: chunks of every length up to [`LONGEST`]
//! (every way into the assembly's four-vertex rounds), under cameras whose steps and depth
//! shifts differ, with positions near the framed box, at every distance from it (the span's
//! edges) and anywhere, and normals of every sign and length (the shade's clamps).

use skin_core::lane::{Out16, Q14};
use skin_core::raster::{Bounds, Camera, ScreenVertex};

use crate::synthetic::Rng;

/// The longest chunk compared.
const LONGEST: usize = 40;

/// Chunks compared under each camera.
const ROUNDS: u32 = 120;

/// The boxes the cameras frame (min, max; asset units) and their screens: a figure 2 units
/// tall, a small and a large model (steps of a few and of many bits), a wide screen.
const CAMERAS: [([f32; 3], [f32; 3], u16, u16); 4] = [
    ([-1.0, 0.0, -0.5], [1.0, 2.0, 0.5], 240, 240),
    ([-0.1, -0.2, -0.1], [0.1, 0.0, 0.1], 240, 240),
    ([-150.0, 0.0, -80.0], [150.0, 300.0, 80.0], 240, 240),
    ([2.0, -1.0, 3.0], [3.0, 1.5, 3.5], 96, 64),
];

/// Chunks the check compares (the host test requires the same count).
pub const PROJECT_CASES: u32 = ROUNDS * CAMERAS.len() as u32;

/// A chunk whose projection differs from the per-vertex path's.
pub struct Mismatch {
    /// Its camera, in [`CAMERAS`].
    pub camera: usize,
    /// Its round.
    pub round: u32,
    /// Its length.
    pub len: usize,
}

/// Compares every chunk; the number compared, or the first that differs.
#[inline(never)]
pub fn check_project_loop() -> Result<u32, Mismatch> {
    let mut rng = Rng::new(0x5EED_0018);
    let mut cases = 0;
    for (camera, &(min, max, width, height)) in CAMERAS.iter().enumerate() {
        let Some(cam) = Camera::frame(&Bounds { min, max }, width, height) else {
            return Err(Mismatch {
                camera,
                round: 0,
                len: 0,
            });
        };
        for round in 0..ROUNDS {
            let len = round as usize % (LONGEST + 1);
            if !chunk_matches(&cam, (min, max), len, &mut rng) {
                return Err(Mismatch { camera, round, len });
            }
            cases += 1;
        }
    }
    Ok(cases)
}

/// One random chunk of `len` vertices around the box `(min, max)`: the chunk's projection
/// equals the per-vertex path's, up to and including the first vertex that fails.
fn chunk_matches(
    cam: &Camera,
    (min, max): ([f32; 3], [f32; 3]),
    len: usize,
    rng: &mut Rng,
) -> bool {
    let mut p = [[Out16::ZERO; 3]; LONGEST];
    let mut n = [[Q14::ZERO; 3]; LONGEST];
    for (p, n) in p.iter_mut().zip(&mut n) {
        *p = core::array::from_fn(|k| position(rng, min[k], max[k]));
        *n = normal(rng);
    }
    let (p, n) = (&p[..len], &n[..len]);
    let mut out = [ScreenVertex::default(); LONGEST];
    let base = rng.below(1000) as usize;
    let got = cam.project_chunk::<Q14>(p, Some(n), &mut out[..len], base);
    for k in 0..len {
        match ScreenVertex::project::<Q14>(cam, &p[k], Some(&n[k]), base + k) {
            Ok(v) if v == out[k] => {}
            Ok(_) => return false,
            Err(e) => return got == Err(e),
        }
    }
    got.is_ok()
}

/// A coordinate in Q16 bits: mostly in the box widened by half, sometimes at a random
/// distance (a power of two's range) from its centre, rarely anywhere.
fn position(rng: &mut Rng, min: f32, max: f32) -> Out16 {
    let centre = 0.5 * (min + max);
    let near = Out16::saturating_from_num(centre + (max - min) * 0.75 * rng.signed());
    Out16::from_bits(match rng.below(64) {
        0 => rng.next_u32() as i32,
        1..=2 => near
            .to_bits()
            .wrapping_add((rng.next_u32() as i32) >> rng.below(31)),
        _ => near.to_bits(),
    })
}

/// A normal: components within ±0.6 (lengths up to about 1, every direction), or any Q14
/// bits (lengths up to 2√3).
fn normal(rng: &mut Rng) -> [Q14; 3] {
    if rng.below(8) == 0 {
        core::array::from_fn(|_| Q14::from_bits(rng.next_u32() as i16))
    } else {
        core::array::from_fn(|_| Q14::from_num(0.6 * rng.signed()))
    }
}
