//! A pixel's depth, interpolated from the triangle's vertices with its barycentric weights,
//! in 32-bit integers without a division.
//!
//! At a covered pixel centre the edge functions opposite the second and third vertices,
//! `e1` and `e2`, are non-negative and at most the triangle's doubled area `a`, and
//! `e1 / a`, `e2 / a` are the barycentric weights of those vertices. The depth is
//!
//! ```text
//! z = z0 + round((w1·(z1 − z0) + w2·(z2 − z0)) / 2^15),   wᵢ = ⌊(eᵢ >> s) · r / 2^15⌋
//! ```
//!
//! with `a >> s` below 2^15 and `r ≤ 2^30 / (a >> s)` its reciprocal ([`Depth::new`]): the
//! weights are Q15 and never sum past one, so `z` is a convex combination of the vertices'
//! depths, rounded: it never leaves their range, and every product fits 32 bits. ARMv6-M
//! has no divide instruction (a library division costs a Cortex-M0 well over a hundred
//! instructions) and no 32 × 32 → 64-bit multiply: the reciprocal comes from a 256-entry
//! table and one Newton step, once per triangle, and a pixel takes four 32-bit multiplies.
//! A depth depends only on the triangle and the pixel (its exact edge functions), never on
//! the band that draws it.
//!
//! Accuracy: a depth is within `1/2 + 2^-12·max|zᵢ − z0|` units of the exact barycentric
//! interpolation (the weights are within about 2^-13 of `e / a`): within a unit for depth
//! spans up to 1024 units, as a triangle's usually are, and 16 units at worst (GPUs
//! interpolate in `f32`; see docs/VALIDATION.md). `Depth::exact` (tests only) is the
//! definition it is checked against.

/// The weights' fractional bits.
const W: u32 = 15;

/// A triangle's depth interpolation: its first vertex's depth, the differences of the
/// others', and the area's normalising shift and reciprocal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Depth {
    z0: i32,
    dz: [i32; 2],
    /// `a >> shift` is below 2^15.
    shift: u32,
    /// At most `2^30 / (a >> shift)`, within 2^-14 of it.
    r: u32,
}

/// `⌊2^30 / (2^14 + 2^6·(i + 1))⌋` for `i` in `0..256`: the reciprocal of each 2^6-wide
/// mantissa interval's upper end, so never above the mantissa's own.
const TABLE: [u16; 256] = {
    let mut t = [0u16; 256];
    let mut i = 0;
    while i < 256 {
        let end = (1u32 << 14) + ((i as u32) + 1) * 64;
        t[i] = ((1u32 << 30) / end) as u16;
        i += 1;
    }
    t
};

/// The highest set bit of each byte (0 for 0, never looked up).
const HIGHEST: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 2;
    while i < 256 {
        t[i] = t[i / 2] + 1;
        i += 1;
    }
    t
};

/// The reciprocals' table and the bytes' highest bits (the ARMv6-M band fill reads them).
#[cfg(skin_asm_v6m)]
pub(crate) fn tables() -> (&'static [u16; 256], &'static [u8; 256]) {
    (&TABLE, &HIGHEST)
}

impl Depth {
    /// For depths `z` at vertices whose doubled area is `a` (in `1..2^30`).
    #[inline(always)]
    pub(crate) fn new(z: [u16; 3], a: u32) -> Self {
        let z0 = i32::from(z[0]);
        // a = m · 2^(shift − up), m in [2^14, 2^15), by a binary search (no CLZ on ARMv6-M).
        let (mut m, mut shift, mut up) = (a, 0, 0);
        if m >= 1 << 15 {
            for k in [8, 4, 2, 1] {
                if m >= 1 << (14 + k) {
                    m >>= k;
                    shift += k;
                }
            }
        } else {
            // Up by 14 less the highest set bit, found in a table of bytes' highest bits:
            // a small triangle's area (the usual case) takes this branch, and the table
            // costs it about a third of the search's instructions.
            let top = if m >= 1 << 8 {
                8 + HIGHEST[(m >> 8) as usize]
            } else {
                HIGHEST[m as usize]
            };
            up = 14 - u32::from(top);
            m <<= up;
        }
        // One Newton step from below stays below: r + r·(2^30 − m·r) / 2^30, the error
        // term (below 2^23) pre-shifted so that the product fits 32 bits.
        let t = u32::from(TABLE[((m >> 6) & 0xFF) as usize]);
        let err = (1 << 30) - m * t;
        let r = (t + ((t * (err >> 9)) >> 21)) << up;
        Self {
            z0,
            dz: [i32::from(z[1]) - z0, i32::from(z[2]) - z0],
            shift,
            r,
        }
    }

    /// The first vertex's depth, the others' differences from it, the area's shift and
    /// reciprocal, as `(shift, r, dz, z0)` (the ARMv6-M band fill computes [`Self::at`]).
    #[cfg(skin_asm_v6m)]
    #[inline(always)]
    pub(crate) fn terms(&self) -> (u32, u32, [i32; 2], i32) {
        (self.shift, self.r, self.dz, self.z0)
    }

    /// The depth where the edge functions opposite the second and third vertices are `e1`
    /// and `e2` (non-negative, with `e1 + e2` at most the doubled area: a covered pixel).
    #[inline(always)]
    pub(crate) fn at(&self, e1: i32, e2: i32) -> u16 {
        let w = |e: i32| ((e as u32 >> self.shift) * self.r) >> W;
        let sum = w(e1) as i32 * self.dz[0] + w(e2) as i32 * self.dz[1];
        (self.z0 + ((sum + (1 << (W - 1))) >> W)) as u16
    }

    /// The definition (tests only): `z0 + (e1·(z1 − z0) + e2·(z2 − z0)) / a`, unrounded.
    #[cfg(test)]
    fn exact(z: [u16; 3], a: u32, e1: i32, e2: i32) -> f64 {
        let z = z.map(f64::from);
        z[0] + (f64::from(e1) * (z[1] - z[0]) + f64::from(e2) * (z[2] - z[0])) / f64::from(a)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A doubled area and two edge functions of a point inside.
    fn inside() -> impl Strategy<Value = (u32, i32, i32)> {
        (1u32..1 << 30)
            .prop_flat_map(|a| (Just(a), 0..=a))
            .prop_flat_map(|(a, e1)| (Just(a), Just(e1), 0..=a - e1))
            .prop_map(|(a, e1, e2)| (a, e1 as i32, e2 as i32))
    }

    proptest! {
        #[test]
        fn reciprocals_are_below_and_close(a in 1u32..1 << 30) {
            let d = Depth::new([0; 3], a);
            let m = u64::from(a >> d.shift);
            prop_assert!(m < 1 << 15);
            let r = u64::from(d.r);
            prop_assert!(m * r <= 1 << 30, "{a}: {m} · {r}");
            prop_assert!((m * r) as f64 >= (1u64 << 30) as f64 * (1.0 - 1.0 / 16384.0), "{a}: {m} · {r}");
        }

        /// Within the documented bound of the exact interpolation, and within the vertices'
        /// range.
        #[test]
        fn depths_are_the_interpolation((a, e1, e2) in inside(), z in any::<[u16; 3]>()) {
            let got = Depth::new(z, a).at(e1, e2);
            let want = Depth::exact(z, a, e1, e2);
            let span = z.iter().map(|&v| (f64::from(v) - f64::from(z[0])).abs()).fold(0.0, f64::max);
            prop_assert!((f64::from(got) - want).abs() <= 0.5 + span / 4096.0, "{got} vs {want}");
            let (lo, hi) = (z.iter().min().copied(), z.iter().max().copied());
            prop_assert!(Some(got) >= lo && Some(got) <= hi);
        }

        /// Small triangles (the usual ones): within a unit.
        #[test]
        fn small_spans_within_a_unit((a, e1, e2) in inside(), base in 0u16..63000, d in any::<[i16; 2]>()) {
            let z = [base + 1024, (base + 1024).wrapping_add_signed(d[0] / 32), (base + 1024).wrapping_add_signed(d[1] / 32)];
            let got = Depth::new(z, a).at(e1, e2);
            prop_assert!((f64::from(got) - Depth::exact(z, a, e1, e2)).abs() <= 1.0);
        }
    }

    /// Every area below 2^15 normalised as a binary search over the shifts does it.
    #[test]
    fn small_areas_are_normalised_as_by_search() {
        for a in 1u32..1 << 15 {
            let (mut m, mut up) = (a, 0);
            for k in [8, 4, 2, 1] {
                if m < 1 << (15 - k) {
                    m <<= k;
                    up += k;
                }
            }
            let d = Depth::new([0; 3], a);
            assert_eq!(d.shift, 0, "{a}");
            let t = u32::from(TABLE[((m >> 6) & 0xFF) as usize]);
            let r = (t + ((t * (((1 << 30) - m * t) >> 9)) >> 21)) << up;
            assert_eq!(d.r, r, "{a}");
        }
    }

    #[test]
    fn corners_are_the_vertices() {
        for a in [
            1,
            2,
            3,
            255,
            16384,
            32767,
            32768,
            65535,
            (1 << 29) + 7,
            (1 << 30) - 1,
        ] {
            let z = [100, 65535, 0];
            let d = Depth::new(z, a);
            assert_eq!(d.at(0, 0), 100, "{a}");
            // At the other corners the weights fall short of one by at most 2^-13.
            assert!(d.at(a as i32, 0) >= 65535 - 8, "{a}: {}", d.at(a as i32, 0));
            assert!(d.at(0, a as i32) <= 8, "{a}: {}", d.at(0, a as i32));
        }
    }
}
