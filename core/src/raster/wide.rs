//! The fixed lane's projection in 32-bit products, exact, on every core.
//!
//! A row of the camera's fixed matrix ([`Row`]) takes a screen coordinate to
//! `⌊(Σₖ eₖ·pₖ + round) / 2^shift⌋`: entries `eₖ` of at most 21 bits (the row's `f32`
//! entries scaled by a power of two, [`Row::new`]), Q16 positions `pₖ`, and the
//! translation plus a half in `round`. With entries that short, an entry splits into a
//! signed high part and an 11-bit low part whose products with a position of at most 20
//! bits each fit `i32`: on ARMv6-M (Cortex-M0/M0+), which has no 32 × 32 → 64-bit multiply
//! (an `i64` product there is a call to `__aeabi_lmul`), a row is two 32-bit products a
//! term and a few additions and shifts ([`Narrow`]); elsewhere one `i64` product a term.
//! Its target is the `cfg` flag `skin_v6m` (`core/build.rs`). Positions further out, or rows with scales
//! beyond [`Narrow`]'s bounds, take the definition in `i128` ([`Row::exact`]); both give the
//! same bits.

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

/// Bits of an entry's low part.
const LOW: u32 = 11;

/// The largest entry magnitude: entries lie in `−2^20 ..= 2^20`, so a high part is within
/// `±2^9` and a sum of two high products within `±2^29`.
const ENTRY: f32 = 1_048_576.0;

/// One row of the fixed projection: a screen coordinate (subpixels, or depth units) is
/// `⌊(Σₖ e[k]·pₖ + round) / 2^shift⌋` for a Q16 position `p`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Row {
    e: [i32; 3],
    shift: u32,
    round: i128,
}

impl Row {
    /// The row `[a, b, c, t]` (output units per asset unit, and output units), entries scaled
    /// by the largest power of two `2^f` (`f` in `−15 ..= 60`) that keeps them within
    /// `±2^20` and rounded to nearest, the translation rounded to `2^-(16+f)`. Rounding the
    /// entries moves a coordinate by at most `2^-(f+1)` output units per asset unit of the
    /// position's coordinates' absolute sum, and `2^-f` is at most 2^-19 of the largest
    /// entry: for a model about 2 units across on a 240-pixel screen (`f` = 9 for screen x
    /// and y, 6 for depth), under 1/80 subpixel and 1/10 depth unit within the skinned
    /// positions' bound (6 units a coordinate).
    pub(crate) fn new(r: [f32; 4]) -> Self {
        let big = r[0].abs().max(r[1].abs()).max(r[2].abs());
        let mut f = 60i32;
        while f > -15 && big * pow2(f) > ENTRY {
            f -= 1;
        }
        let shift = (16 + f) as u32;
        let e = [r[0], r[1], r[2]].map(|v| libm::roundf(v * pow2(f)) as i32);
        let t = libm::roundf(r[3] * pow2(16 + f)) as i128;
        Self {
            e,
            shift,
            round: t + (1 << (shift - 1)),
        }
    }

    /// The definition, in `i128`; `None` when the coordinate does not fit `i32`.
    pub(crate) fn exact(&self, p: [i32; 3]) -> Option<i32> {
        let s: i128 = (0..3)
            .map(|k| i128::from(self.e[k]) * i128::from(p[k]))
            .sum();
        i32::try_from((s + self.round) >> self.shift).ok()
    }
}

/// `2^k` in `f32`, for `k` in `−15 ..= 76`.
fn pow2(k: i32) -> f32 {
    f32::from_bits(((127 + k) as u32) << 23)
}

/// An entry `e = hi·2^LOW + lo`, `lo` in `[0, 2^LOW)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Entry {
    hi: i32,
    lo: i32,
}

impl Entry {
    fn new(e: i32) -> Self {
        Self {
            hi: e >> LOW,
            lo: e & ((1 << LOW) - 1),
        }
    }
}

/// A row in 32-bit parts, `N` terms: `round = (whole·2^(shift−LOW) + rest)·2^LOW + low`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Part<const N: usize> {
    m: [Entry; N],
    low: i32,
    rest: i32,
    whole: i32,
    /// `shift − LOW`.
    shift: u32,
}

impl<const N: usize> Part<N> {
    /// `None` when the row's shift is below `LOW` or above `LOW + 29` (`rest` then fits
    /// `2^29`), or its whole translation is not within `±2^30` (the sum then fits `i32`).
    fn new(row: &Row, k: [usize; N]) -> Option<Self> {
        let shift = row.shift.checked_sub(LOW).filter(|&s| s <= 29)?;
        let rh = row.round >> LOW;
        Some(Self {
            m: k.map(|k| Entry::new(row.e[k])),
            low: (row.round & ((1 << LOW) - 1)) as i32,
            rest: (rh & ((1 << shift) - 1)) as i32,
            whole: i32::try_from(rh >> shift)
                .ok()
                .filter(|w| w.unsigned_abs() < 1 << 30)?,
            shift,
        })
    }

    /// `⌊(Σ e·p + round) / 2^shift⌋` for positions in `−NEAR..NEAR`, in 32-bit
    /// arithmetic: with `Σ e·p = 2^LOW·a + b`, `a = Σ hi·p`
    /// (within `±2^29`) and `b = Σ lo·p` (within `±(2^31 − 2^20)`), the sum is
    /// `2^LOW·(a + rest + c + whole·2^(shift−LOW)) + ((b + low) mod 2^LOW)` with
    /// `c = ⌊(b + low) / 2^LOW⌋`, and the last term is below `2^LOW`.
    #[inline(always)]
    fn parts(&self, p: [i32; N]) -> i32 {
        let (mut a, mut b) = (0i32, 0i32);
        for (m, &p) in self.m.iter().zip(&p) {
            a += m.hi * p;
            b += m.lo * p;
        }
        let c = (b + self.low) >> LOW;
        self.whole + ((a + self.rest + c) >> self.shift)
    }
}

/// A row with `i64` products, for cores with a 32 × 32 → 64-bit multiply (one `SMULL` a
/// term on ARMv7-M): `⌊(Σ e·p + round) / 2^32⌋`, its entries and `round` those of the
/// [`Row`] times `2^(32 − shift)`, so the quotient is the sum's high word.
#[cfg(any(test, not(skin_v6m)))]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Long<const N: usize> {
    e: [i32; N],
    round: i64,
}

#[cfg(any(test, not(skin_v6m)))]
impl<const N: usize> Long<N> {
    /// `None` unless the row's shift is in `21 ..= 32` and its entries times `2^(32 −
    /// shift)` fit `i32`, and its translation times that is within `±2^62`.
    fn new(row: &Row, k: [usize; N]) -> Option<Self> {
        if !(21..=32).contains(&row.shift) {
            return None;
        }
        let up = 32 - row.shift;
        let round = row.round << up;
        if round.unsigned_abs() >= 1 << 62 {
            return None;
        }
        let e = k.map(|k| i32::try_from(i64::from(row.e[k]) << up).ok());
        if e.contains(&None) {
            return None;
        }
        Some(Self {
            e: e.map(|v| v.unwrap_or(0)),
            round: round as i64,
        })
    }

    #[inline(always)]
    fn project(&self, p: [i32; N]) -> i32 {
        let mut s = self.round;
        for (&e, &p) in self.e.iter().zip(&p) {
            s += i64::from(e) * i64::from(p);
        }
        (s >> 32) as i32
    }
}

/// The fixed matrix in 32-bit parts when it turns about the vertical axis only, as
/// [`super::Camera`] does: screen x and depth depend on the position's x and z, screen y on
/// its y alone, so a vertex takes ten 32-bit products.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Narrow {
    x: Part<2>,
    y: Part<1>,
    z: Part<2>,
    /// The rows with `i64` products, where the core has the multiply and the shifts allow.
    #[cfg(any(test, not(skin_v6m)))]
    long: Option<(Long<2>, Long<1>, Long<2>)>,
}

impl Narrow {
    /// `None` when the matrix has other non-zero entries than a turn about the vertical
    /// gives, or a row is beyond [`Part`]'s bounds.
    pub(crate) fn new(rows: &[Row; 3]) -> Option<Self> {
        let zeros = [rows[0].e[1], rows[1].e[0], rows[1].e[2], rows[2].e[1]];
        if zeros.iter().any(|&v| v != 0) {
            return None;
        }
        Some(Self {
            x: Part::new(&rows[0], [0, 2])?,
            y: Part::new(&rows[1], [1])?,
            z: Part::new(&rows[2], [0, 2])?,
            #[cfg(any(test, not(skin_v6m)))]
            long: Long::new(&rows[0], [0, 2])
                .and_then(|x| Some((x, Long::new(&rows[1], [1])?, Long::new(&rows[2], [0, 2])?))),
        })
    }

    /// Each row's coordinate, for positions in `−NEAR..NEAR` ([`near`]).
    #[inline(always)]
    pub(crate) fn project(&self, p: [i32; 3]) -> [i32; 3] {
        #[cfg(not(skin_v6m))]
        if let Some((x, y, z)) = &self.long {
            return [
                x.project([p[0], p[2]]),
                y.project([p[1]]),
                z.project([p[0], p[2]]),
            ];
        }
        [
            self.x.parts([p[0], p[2]]),
            self.y.parts([p[1]]),
            self.z.parts([p[0], p[2]]),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The 32-bit projection, and the 64-bit one where the rows allow it.
    fn both(n: &Narrow, p: [i32; 3]) -> ([Option<i32>; 3], Option<[Option<i32>; 3]>) {
        let xz = [p[0], p[2]];
        let long = n
            .long
            .map(|(x, y, z)| [x.project(xz), y.project([p[1]]), z.project(xz)].map(Some));
        (
            [n.x.parts(xz), n.y.parts([p[1]]), n.z.parts(xz)].map(Some),
            long,
        )
    }

    /// A row set turning about the vertical.
    fn yaw(m: [f32; 5], t: [f32; 3]) -> [Row; 3] {
        [
            Row::new([m[0], 0.0, m[1], t[0]]),
            Row::new([0.0, m[2], 0.0, t[1]]),
            Row::new([m[3], 0.0, m[4], t[2]]),
        ]
    }

    proptest! {
        #[test]
        fn parts_are_the_exact_definition(
            m in proptest::array::uniform5(-1e7f32..1e7),
            t in proptest::array::uniform3(-1e5f32..1e5),
            p in proptest::array::uniform3(-NEAR..NEAR),
        ) {
            prop_assert!(near(p));
            let rows = yaw(m, t);
            let want = rows.map(|r| r.exact(p));
            if let Some(n) = Narrow::new(&rows) {
                prop_assert_eq!(n.project(p).map(Some), want);
                let (parts, long) = both(&n, p);
                prop_assert_eq!(parts, want);
                prop_assert!(long.is_none_or(|l| l == want));
            }
        }

        #[test]
        fn rows_are_the_f32_row_rounded(
            m in proptest::array::uniform3(-1e5f32..1e5),
            t in -1e4f32..1e4,
            p in proptest::array::uniform3(-NEAR..NEAR),
        ) {
            let row = Row::new([m[0], m[1], m[2], t]);
            let q = p.map(|v| f64::from(v) / 65536.0);
            let f: f64 = (0..3).map(|k| f64::from(m[k]) * q[k]).sum::<f64>() + f64::from(t);
            let got = f64::from(row.exact(p).unwrap());
            // Rounding to nearest, and the entries' rounding: 2^-19 of the largest entry
            // times half the coordinates' absolute sum.
            let big = m.iter().fold(0f32, |a, v| a.max(v.abs()));
            let slack = f64::from(big) / f64::from(1u32 << 20) * q.iter().map(|v| v.abs()).sum::<f64>();
            prop_assert!((got - f).abs() <= 0.5 + slack + 1e-9, "{} vs {}", got, f);
        }
    }

    #[test]
    fn extremes() {
        let lim = NEAR - 1;
        for m in [-1e7f32, 1e7, -1.0, 2047.0, -2048.0, 0.5] {
            for p in [lim, -lim, 0x7FF, -0x800, 0] {
                let rows = yaw([m; 5], [-3e4, 0.0, 3e4]);
                let n = Narrow::new(&rows).unwrap();
                let want = rows.map(|r| r.exact([p; 3]));
                let (parts, long) = both(&n, [p; 3]);
                assert_eq!(parts, want, "{m} {p}");
                assert!(long.is_none_or(|l| l == want), "{m} {p}");
            }
        }
        assert!(Narrow::new(&yaw([2047.0; 5], [0.0; 3]))
            .unwrap()
            .long
            .is_some());
        // Entries too large for 2^-5 steps, or a translation beyond i32: no 32-bit parts.
        assert!(Narrow::new(&yaw([1e8; 5], [0.0; 3])).is_none());
        assert!(Narrow::new(&yaw([1.0; 5], [3e9, 0.0, 0.0])).is_none());
        let skew = [
            Row::new([1.0, 1.0, 0.0, 0.0]),
            Row::new([0.0, 1.0, 0.0, 0.0]),
            Row::new([1.0, 0.0, 1.0, 0.0]),
        ];
        assert!(Narrow::new(&skew).is_none());
        let n = NEAR;
        assert!(near([n - 1, -n, 0]) && !near([n, 0, 0]) && !near([0, 0, -n - 1]));
    }
}
