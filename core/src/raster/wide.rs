//! The fixed lane's projection, exact and fast on cores without a long multiply.
//!
//! A screen coordinate is `⌊(Σₖ mₖ·pₖ + t + 2^31) / 2^32⌋`: Q16 matrix entries `mₖ` times
//! Q16 positions `pₖ`, plus a Q32 translation, rounded to nearest. ARMv6-M (Cortex-M0/M0+)
//! has no 32 × 32 → 64-bit multiply (an `i64` product is a call to `__aeabi_lmul`), so
//! there each product is built from 16-bit halves of the entry and the position, and the
//! halves' products are summed per column before they meet in 64 bits: twelve 16 × 16-bit
//! multiplies a row and a few 64-bit additions. Elsewhere the products are `i64`. Its
//! target is the `cfg` flag `skin_v6m` (`core/build.rs`).

/// Positions in `−NEAR..NEAR` (in bits: 2^19 is 8 asset units, beyond the skinned
/// positions' bound of 6) take [`Narrow::project`].
pub(crate) const NEAR: i32 = 1 << 19;

/// Whether every coordinate is in `−NEAR..NEAR`: `p >> 16` in `−8..8`.
#[inline(always)]
pub(crate) fn near(p: [i32; 3]) -> bool {
    const H: i32 = NEAR >> 16;
    let high = |v: i32| ((v >> 16) + H) as u32;
    (high(p[0]) | high(p[1]) | high(p[2])) < 2 * H as u32
}

/// A matrix entry that fits 32 bits, with its 16-bit halves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Entry {
    whole: i32,
    /// `whole >> 16` (signed) and `whole & 0xFFFF`.
    hi: i32,
    lo: u32,
}

impl Entry {
    fn new(v: i64) -> Option<Self> {
        let whole = i32::try_from(v).ok()?;
        Some(Self {
            whole,
            hi: whole >> 16,
            lo: (whole & 0xFFFF) as u32,
        })
    }
}

/// A position coordinate `p = hi·2^16 + lo` (`lo` in `[0, 2^16)`, `hi` in `−8..8` when
/// [`near`]).
#[derive(Clone, Copy, Debug)]
struct Split {
    #[cfg(any(test, not(skin_v6m)))]
    whole: i32,
    #[cfg(any(test, skin_v6m))]
    hi: i32,
    #[cfg(any(test, skin_v6m))]
    lo: u32,
}

impl Split {
    #[inline(always)]
    fn new(whole: i32) -> Self {
        Self {
            #[cfg(any(test, not(skin_v6m)))]
            whole,
            #[cfg(any(test, skin_v6m))]
            hi: whole >> 16,
            #[cfg(any(test, skin_v6m))]
            lo: (whole & 0xFFFF) as u32,
        }
    }
}

/// The camera's projection matrix (Q16 linear entries, Q32 translations) when its linear
/// entries fit 32 bits and it turns about the vertical axis only, as [`super::Camera`]
/// does: screen x and depth depend on the position's x and z, screen y on its y alone, so
/// a vertex takes five products, not nine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Narrow {
    /// Screen x: the entries for the position's x and z.
    x: [Entry; 2],
    /// Screen y: the entry for the position's y.
    y: Entry,
    /// Depth: the entries for the position's x and z.
    z: [Entry; 2],
    /// The translations plus 2^31 (rounding to nearest).
    round: [i64; 3],
}

impl Narrow {
    /// `None` when a linear entry does not fit 32 bits, the matrix has other non-zero
    /// entries than a turn about the vertical gives, or a translation is beyond 2^62.
    pub(crate) fn new(fixed: &[[i64; 4]; 3]) -> Option<Self> {
        let zeros = [fixed[0][1], fixed[1][0], fixed[1][2], fixed[2][1]];
        if zeros.iter().any(|&v| v != 0) || fixed.iter().any(|r| r[3].unsigned_abs() >= 1 << 62) {
            return None;
        }
        Some(Self {
            x: [Entry::new(fixed[0][0])?, Entry::new(fixed[0][2])?],
            y: Entry::new(fixed[1][1])?,
            z: [Entry::new(fixed[2][0])?, Entry::new(fixed[2][2])?],
            round: fixed.map(|r| r[3] + (1 << 31)),
        })
    }

    /// `⌊(Σₖ mₖ·pₖ + t + 2^31) / 2^32⌋` for each row, for positions in `−NEAR..NEAR`
    /// ([`near`]): each sum is then at most 2^51 + 2^62 in magnitude, so each quotient fits
    /// `i32`.
    #[inline(always)]
    pub(crate) fn project(&self, p: [i32; 3]) -> [i32; 3] {
        #[cfg(skin_v6m)]
        fn pick(n: &Narrow, p: [Split; 3]) -> [i32; 3] {
            [
                halves(&n.x, [p[0], p[2]], n.round[0]),
                halves(&[n.y], [p[1]], n.round[1]),
                halves(&n.z, [p[0], p[2]], n.round[2]),
            ]
        }
        #[cfg(not(skin_v6m))]
        fn pick(n: &Narrow, p: [Split; 3]) -> [i32; 3] {
            [
                long(&n.x, [p[0], p[2]], n.round[0]),
                long(&[n.y], [p[1]], n.round[1]),
                long(&n.z, [p[0], p[2]], n.round[2]),
            ]
        }
        pick(self, p.map(Split::new))
    }
}

/// One row, `⌊(Σ mₖ·pₖ + round) / 2^32⌋`, with `i64` products.
#[cfg(any(test, not(skin_v6m)))]
#[inline(always)]
fn long<const N: usize>(m: &[Entry; N], p: [Split; N], round: i64) -> i32 {
    let s: i64 = (0..N)
        .map(|k| i64::from(m[k].whole) * i64::from(p[k].whole))
        .sum();
    ((s + round) >> 32) as i32
}

/// [`long`] from 16 × 16-bit products: `Σ m·p = 2^32·Σ mh·ph + 2^16·Σ (mh·pl + ml·ph) +
/// Σ ml·pl`, where each `mh·pl` fits `i32` and each `ml·pl` fits `u32`.
#[cfg(any(test, skin_v6m))]
#[inline(always)]
fn halves<const N: usize>(m: &[Entry; N], p: [Split; N], round: i64) -> i32 {
    let (mut high, mut small, mut mid, mut low) = (0i32, 0i32, 0i64, 0u64);
    for k in 0..N {
        high += m[k].hi * p[k].hi;
        small += m[k].lo as i32 * p[k].hi;
        mid += i64::from(m[k].hi * p[k].lo as i32);
        low += u64::from(m[k].lo * p[k].lo);
    }
    let mid = mid + i64::from(small);
    (((i64::from(high) << 32) + (mid << 16) + low as i64 + round) >> 32) as i32
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The definition, in `i128`.
    fn exact(fixed: &[[i64; 4]; 3], p: [i32; 3]) -> [i32; 3] {
        fixed.map(|r| {
            let s: i128 = (0..3).map(|k| i128::from(r[k]) * i128::from(p[k])).sum();
            i32::try_from((s + i128::from(r[3]) + (1 << 31)) >> 32).unwrap()
        })
    }

    /// A matrix turning about the vertical.
    fn yaw(m: [i32; 5], t: [i64; 3]) -> [[i64; 4]; 3] {
        let m = m.map(i64::from);
        [
            [m[0], 0, m[1], t[0]],
            [0, m[2], 0, t[1]],
            [m[3], 0, m[4], t[2]],
        ]
    }

    fn both(n: &Narrow, p: [i32; 3]) -> ([i32; 3], [i32; 3]) {
        let s = p.map(Split::new);
        let h = [
            halves(&n.x, [s[0], s[2]], n.round[0]),
            halves(&[n.y], [s[1]], n.round[1]),
            halves(&n.z, [s[0], s[2]], n.round[2]),
        ];
        let l = [
            long(&n.x, [s[0], s[2]], n.round[0]),
            long(&[n.y], [s[1]], n.round[1]),
            long(&n.z, [s[0], s[2]], n.round[2]),
        ];
        (h, l)
    }

    proptest! {
        #[test]
        fn halves_and_long_products_are_exact(
            m in proptest::array::uniform5(any::<i32>()),
            t in proptest::array::uniform3(-(1i64 << 61)..(1i64 << 61)),
            p in proptest::array::uniform3(-NEAR..NEAR),
        ) {
            prop_assert!(near(p));
            let fixed = yaw(m, t);
            let n = Narrow::new(&fixed).unwrap();
            let (h, l) = both(&n, p);
            prop_assert_eq!(h, exact(&fixed, p));
            prop_assert_eq!(l, exact(&fixed, p));
            prop_assert_eq!(n.project(p), exact(&fixed, p));
        }
    }

    #[test]
    fn extremes() {
        let lim = NEAR - 1;
        for m in [i32::MIN, i32::MAX, -1, 0xFFFF, -0x10000] {
            for p in [lim, -lim, 0xFFFF, -0x10000, 0] {
                let fixed = yaw([m; 5], [(1 << 61) - 1; 3]);
                let n = Narrow::new(&fixed).unwrap();
                assert_eq!(both(&n, [p; 3]).0, exact(&fixed, [p; 3]), "{m} {p}");
            }
        }
        assert!(Narrow::new(&yaw([1, 1, 1, 1, 1], [0; 3])).is_some());
        assert!(Narrow::new(&[[1 << 31, 0, 0, 0], [0; 4], [0; 4]]).is_none());
        assert!(Narrow::new(&[[0, 0, 0, 1 << 62], [0; 4], [0; 4]]).is_none());
        assert!(Narrow::new(&[[0, 1, 0, 0], [0; 4], [0; 4]]).is_none());
        let n = NEAR;
        assert!(near([n - 1, -n, 0]) && !near([n, 0, 0]) && !near([0, 0, -n - 1]));
        let fixed = yaw([i32::MIN; 5], [0; 3]);
        let at = Narrow::new(&fixed).unwrap();
        assert_eq!(both(&at, [-n; 3]).0, exact(&fixed, [-n; 3]));
    }
}
