//! The fixed lane's projection: integers only, one 32-bit product a term on every core.
//!
//! A skinned position `p` (Q16 bits, asset units) is first taken relative to the framed
//! box's centre and rounded to a *step* of `2^step` bits, `q = (p − origin) >> step`
//! (`origin` is the centre less half a step, so `q` is rounded to nearest); each screen
//! coordinate is then `⌊(Σₖ eₖ·qₖ + round) / 2^shift⌋` ([`Steps::exact`], the definition).
//! The step is chosen so that screen x and y entries are at most 2^14 with `shift` 16: a
//! step is 1/8 to 1/4 subpixel along the screen whatever the model's size, and the framed
//! model's steps stay far below 2^15 (the screen is 3,840 subpixels across at most 1,024
//! pixels, about 2^14 steps). Then each product fits 29 bits and a row's sum `i32`: a
//! Cortex-M0, without a 32 × 32 → 64-bit multiply, projects a vertex with five `MULS` (the
//! camera turns about the vertical only, so screen y is one term and x and depth two), and
//! so does every other core, to the same bits ([`Short::project`]). Positions 2^15 steps
//! or more from the centre (far off the screen), or cameras beyond these bounds (steps
//! above 2^14 bits: models under a thousandth of a subpixel a Q16 bit), take the definition
//! in `i128`; both give the same bits.
//!
//! Precision: rounding a position to a step moves a screen coordinate by at most 1/8
//! subpixel times the row's `|cos| + |sin|`, and rounding an entry to 2^-16 subpixel a step
//! by 2^-17 subpixel per step of the position: for a vertex on a 240-pixel screen (at most
//! 3,840 · 4 steps from the centre on each axis), under 1/4 subpixel; so the fixed lane's
//! coordinates stay within one subpixel of the `f32` lane's (a property test bounds each
//! row against the `f32` matrix).

use super::GUARD;

/// The bound of an entry of the 32-bit path, `|e| ≤ 2^14`.
const ENTRY: f32 = 16_384.0;

/// Steps of the 32-bit path lie in `−SPAN..SPAN`: a product is within `±2^29`, so two and
/// a `round` below `2^30` fit `i32`.
const SPAN: i32 = 1 << 15;

/// The shift of the screen x and y rows: 16 fraction bits of a subpixel.
const XY: u32 = 16;

/// The largest depth shift: the depth row's `round` (the centre's depth, 32768, times
/// `2^shift`) stays below `2^30`.
const Z: i32 = 14;

/// One row: `⌊(Σₖ e[k]·qₖ + round) / 2^shift⌋`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Row {
    e: [i32; 3],
    round: i64,
    shift: u32,
}

/// The camera's matrix in integers, and its 32-bit form when its bounds allow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Steps {
    origin: [i64; 3],
    step: u32,
    rows: [Row; 3],
    short: Option<Short>,
}

impl Steps {
    /// The integer form of the matrix `m` (rows: screen x and y in subpixels, depth; per
    /// asset unit, and a translation) around the point `centre` (asset units; the framed
    /// box's centre), for the guard band `guard` ([`super::Camera`]'s: a screen x or y
    /// `v` is inside when `v + guard` is in `0 ..= 2·GUARD`). `None` when an entry or the
    /// translation does not fit the definition (`i32` entries, `i64` translations): a
    /// camera no screen frames.
    pub(crate) fn new(m: &[[f32; 4]; 3], centre: [f32; 3], guard: [i32; 2]) -> Option<Self> {
        let big = |rows: &[[f32; 4]]| {
            rows.iter()
                .flat_map(|r| &r[..3])
                .fold(0f32, |a, v| a.max(v.abs()))
        };
        // The largest step (bits of a position) whose x and y entries, times 2^16, stay
        // within ENTRY; and the largest depth shift whose entries do.
        let xy = big(&m[..2]);
        let step = (0..=30).rev().find(|&s| xy * pow2(s) <= ENTRY).unwrap_or(0);
        let z = big(&m[2..]);
        let zs = (0..=Z)
            .rev()
            .find(|&f| z * pow2(step + f - 16) <= ENTRY)
            .unwrap_or(0);
        let c = centre.map(|v| f64::from(libm::roundf(v * 65536.0)));
        let half = if step > 0 { 1i64 << (step - 1) } else { 0 };
        let origin = c.map(|v| v as i64 - half);
        let row = |r: &[f32; 4], shift: i32| -> Option<Row> {
            let scale = pow2(step + shift - 16);
            let e = [0, 1, 2].map(|k| libm::roundf(r[k] * scale));
            if !e.iter().all(|v| v.abs() < 2e9) {
                return None;
            }
            // The translation at the centre's integer position, to 2^-shift.
            let at: f64 = (0..3)
                .map(|k| f64::from(r[k]) * c[k] / 65536.0)
                .sum::<f64>()
                + f64::from(r[3]);
            let t = libm::round(at * f64::from(pow2(shift)));
            if t.abs() >= 4e18 {
                return None;
            }
            Some(Row {
                e: e.map(|v| v as i32),
                round: t as i64 + (1i64 << shift >> 1),
                shift: shift as u32,
            })
        };
        let rows = [
            row(&m[0], XY as i32)?,
            row(&m[1], XY as i32)?,
            row(&m[2], zs)?,
        ];
        let mut s = Self {
            origin,
            step: step as u32,
            rows,
            short: None,
        };
        s.short = Short::new(&s, guard);
        Some(s)
    }

    /// The definition, in `i128`; `None` for a coordinate beyond `i32`.
    pub(crate) fn exact(&self, p: [i32; 3]) -> [Option<i32>; 3] {
        let q: [i128; 3] =
            core::array::from_fn(|k| i128::from((i64::from(p[k]) - self.origin[k]) >> self.step));
        self.rows.map(|r| {
            let s: i128 = (0..3).map(|k| i128::from(r.e[k]) * q[k]).sum();
            i32::try_from((s + i128::from(r.round)) >> r.shift).ok()
        })
    }

    /// The 32-bit form, when the camera's bounds allow it.
    pub(crate) fn short(&self) -> Option<&Short> {
        self.short.as_ref()
    }
}

/// `2^k` in `f32`, for `k` in `−126 ..= 127`.
fn pow2(k: i32) -> f32 {
    f32::from_bits(((127 + k) as u32) << 23)
}

/// The matrix in 32-bit arithmetic, for a camera that turns about the vertical only (as
/// [`super::Camera`] does: screen x and depth depend on a position's x and z, screen y on
/// its y alone), entries within `±2^14`, steps of at most 2^14 bits, an origin within
/// `±2^29` and translations within `±2^30`; and whose screen x and y of every position
/// within the span lie inside the guard band (a framed camera's: its screen centre is the
/// box's centre, and the span reaches at most `(|cos| + |sin|) · 2^15` quarter subpixels,
/// 700 pixels, from it), so that its vertices need only their depth checked.
///
/// A position's offset is biased by `SPAN` steps, `d = p − origin + SPAN·2^step`, so that
/// one unsigned comparison tells whether its step `d >> step` is within `0..2·SPAN` (the
/// definition's `q` plus `SPAN`); the rows' `round` take the bias back (`Σ e·SPAN`). Their
/// sums may wrap `i32` on the way, but their values are the definition's, within `±2^31`,
/// so the wrapped results are exact.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C)]
pub(crate) struct Short {
    /// `SPAN·2^step − origin`, per coordinate.
    bias: [i32; 3],
    /// `2·SPAN·2^step`, a power of two: a biased offset at or above it (unsigned) is out of
    /// the span.
    limit: u32,
    step: u32,
    /// Screen x's entries for x and z, screen y's for y, depth's for x and z.
    e: [i32; 5],
    /// Each row's `round` less its entries times `SPAN`.
    round: [i32; 3],
    /// The depth row's shift (x and y shift by [`XY`]).
    zshift: u32,
}

// The offsets the ARMv6-M loop reads (`project_v6m.rs`).
const _: () = {
    use core::mem::offset_of;
    assert!(offset_of!(Short, bias) == 0 && offset_of!(Short, step) == 16);
    assert!(offset_of!(Short, e) == 20 && offset_of!(Short, round) == 40);
    assert!(offset_of!(Short, zshift) == 52);
};

impl Short {
    fn new(s: &Steps, guard: [i32; 2]) -> Option<Self> {
        let [x, y, z] = &s.rows;
        let zeros = [x.e[1], y.e[0], y.e[2], z.e[1]];
        let e = [x.e[0], x.e[2], y.e[1], z.e[0], z.e[2]];
        let entries = e.iter().all(|v| v.unsigned_abs() <= ENTRY as u32);
        let fits = |v: i64, bound: u32| i32::try_from(v).ok().filter(|v| v.unsigned_abs() < bound);
        let round = s.rows.map(|r| fits(r.round, 1 << 30));
        let origin = s.origin.map(|o| fits(o, 1 << 29));
        if zeros != [0; 4] || !entries || s.step > 14 {
            return None;
        }
        // The extreme screen x and y over the span (the sums are monotonic in each step).
        for (r, g) in [(x, guard[0]), (y, guard[1])] {
            let reach: i64 = r.e.iter().map(|e| i64::from(e.unsigned_abs())).sum::<i64>() << 15;
            let ends = [r.round - reach, r.round + reach].map(|v| (v >> XY) + i64::from(g));
            if ends[0] < 0 || ends[1] > 2 * i64::from(GUARD) {
                return None;
            }
        }
        let (span, origin) = (SPAN << s.step, [origin[0]?, origin[1]?, origin[2]?]);
        let unbias = |r: i32, e: &[i32]| {
            e.iter()
                .fold(r, |a, &e| a.wrapping_sub(e.wrapping_mul(SPAN)))
        };
        Some(Self {
            bias: origin.map(|o| span - o),
            limit: 2 * span as u32,
            step: s.step,
            e,
            round: [
                unbias(round[0]?, &e[..2]),
                unbias(round[1]?, &e[2..3]),
                unbias(round[2]?, &e[3..]),
            ],
            zshift: z.shift,
        })
    }

    /// The definition's coordinates when each of `p`'s steps is within `SPAN` of the
    /// centre (screen x and y then inside the guard band), else `None`. A biased offset that wraps past `i32` is `2^32` off, and with
    /// `|p| < 2^31`, `|origin| < 2^29` and steps of at most 2^14 bits it then lands
    /// outside the span: only true offsets pass.
    #[inline(always)]
    pub(crate) fn project(&self, p: [i32; 3]) -> Option<[i32; 3]> {
        let d: [u32; 3] = core::array::from_fn(|k| p[k].wrapping_add(self.bias[k]) as u32);
        // The limit is a power of two: every offset is below it when their bits together are.
        if d[0] | d[1] | d[2] >= self.limit {
            return None;
        }
        let q = d.map(|v| (v >> self.step) as i32);
        let e = &self.e;
        let row = |a: i32, b: i32, r: i32| a.wrapping_add(b).wrapping_add(r);
        Some([
            row(
                e[0].wrapping_mul(q[0]),
                e[1].wrapping_mul(q[2]),
                self.round[0],
            ) >> XY,
            row(e[2].wrapping_mul(q[1]), 0, self.round[1]) >> XY,
            row(
                e[3].wrapping_mul(q[0]),
                e[4].wrapping_mul(q[2]),
                self.round[2],
            ) >> self.zshift,
        ])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A framed camera's matrix: `s` subpixels and `d` depth units a unit, turned 30° about
    /// the vertical, `centre` (asset units) landing on `screen`.
    fn framed(s: f32, d: f32, screen: [f32; 3], centre: [f32; 3]) -> [[f32; 4]; 3] {
        let (c, n) = (0.866_025_4, 0.5);
        let rows = [[c * s, 0.0, -n * s], [0.0, -s, 0.0], [-n * d, 0.0, -c * d]];
        core::array::from_fn(|r| {
            let a = rows[r];
            let t = screen[r] - (a[0] * centre[0] + a[1] * centre[1] + a[2] * centre[2]);
            [a[0], a[1], a[2], t]
        })
    }

    const SCREEN: [f32; 3] = [1920.0, 1920.0, 32768.0];

    /// The guard band of a 240-pixel screen.
    const G: [i32; 2] = [GUARD - 1920; 2];

    proptest! {
        #[test]
        fn short_is_the_definition(
            s in 10f32..16_000.0,
            d in 100f32..200_000.0,
            centre in proptest::array::uniform3(-100f32..100.0),
            p in proptest::array::uniform3(any::<i32>()),
            near in proptest::array::uniform3(-(1i32 << 20)..1 << 20),
        ) {
            let steps = Steps::new(&framed(s, d, SCREEN, centre), centre, G).unwrap();
            let short = steps.short().unwrap();
            let c = centre.map(|v| libm::roundf(v * 65536.0) as i32);
            // Anywhere, and near the centre (where the 32-bit path is taken).
            for p in [p, core::array::from_fn(|k| c[k].wrapping_add(near[k]))] {
                if let Some(got) = short.project(p) {
                    prop_assert_eq!(got.map(Some), steps.exact(p));
                }
            }
            // Within 2^14 steps of the centre it is always taken.
            let inside = core::array::from_fn(|k| c[k] + ((i64::from(near[k]) << steps.step) >> 6) as i32);
            prop_assert!(short.project(inside).is_some());
        }

        #[test]
        fn rows_are_the_f32_rows_rounded(
            s in 10f32..60_000.0,
            d in 100f32..200_000.0,
            screen in proptest::array::uniform3(-1e4f32..1e4),
            centre in proptest::array::uniform3(-10f32..10.0),
            p in proptest::array::uniform3(-(1i32 << 19)..1 << 19),
        ) {
            let m = framed(s, d, screen, centre);
            let steps = Steps::new(&m, centre, G).unwrap();
            let got = steps.exact(p);
            let q = p.map(|v| f64::from(v) / 65536.0);
            for (r, row) in m.iter().enumerate() {
                let want: f64 = (0..3).map(|k| f64::from(row[k]) * q[k]).sum::<f64>() + f64::from(row[3]);
                // A step's rounding (half a step on each coordinate), each entry's (half a
                // unit of 2^-shift per step), and the result's (a half).
                let half_step = f64::from(1u32 << steps.step) / 131_072.0;
                let moved: f64 = (0..3).map(|k| f64::from(row[k]).abs() * half_step).sum();
                let unit = f64::from(steps.rows[r].shift).exp2();
                let steps_away: f64 = (0..3)
                    .map(|k| ((f64::from(p[k]) - steps.origin[k] as f64) / f64::from(1u32 << steps.step)).abs() + 1.0)
                    .sum();
                let slack = 0.5 + moved + 0.5 * steps_away / unit + 1e-6 * want.abs().max(1.0);
                let got = f64::from(got[r].unwrap());
                prop_assert!((got - want).abs() <= slack, "row {}: {} vs {} (slack {})", r, got, want, slack);
            }
        }
    }

    #[test]
    fn a_framed_model_takes_32_bits_within_4_units() {
        // 1,536 subpixels a unit (a model 2 units tall on a 240-pixel screen): a step of
        // 8 bits, 0.19 subpixel; every vertex within 4 units of the centre takes 32 bits.
        let m = framed(1536.0, 10_000.0, SCREEN, [0.0, 1.0, 0.0]);
        let steps = Steps::new(&m, [0.0, 1.0, 0.0], G).unwrap();
        assert_eq!(steps.step, 3);
        assert_eq!(steps.rows[2].shift, 13);
        let short = steps.short().unwrap();
        let four = 4 << 16;
        assert!(short.project([four - 8, (1 << 16) - four, -four]).is_some());
        assert!(short.project([four + 4, 1 << 16, 0]).is_none());
        // The centre lands on the screen's centre, mid-depth.
        assert_eq!(short.project([0, 1 << 16, 0]), Some([1920, 1920, 32768]));
    }

    #[test]
    fn extremes() {
        // Huge entries (a tiny model): step 0 and entries beyond 2^14, no 32-bit form.
        let tiny = Steps::new(&framed(1e8, 1e8, SCREEN, [0.0; 3]), [0.0; 3], G).unwrap();
        assert_eq!(tiny.step, 0);
        assert!(tiny.short().is_none());
        // A centre beyond 2^29 bits, a translation beyond 2^30: no 32-bit form, the
        // definition still.
        let centre = [9000.0, 0.0, 0.0];
        let far = Steps::new(&framed(1536.0, 1e4, SCREEN, centre), centre, G).unwrap();
        assert!(far.short().is_none());
        let wide =
            Steps::new(&framed(1536.0, 1e4, [3e9, 0.0, 0.0], [0.0; 3]), [0.0; 3], G).unwrap();
        assert!(wide.short().is_none());
        assert_eq!(wide.exact([0; 3])[0], None);
        // A guard band that the span reaches past (the screen's centre 500 pixels off the
        // box's): no 32-bit form.
        let m = framed(1536.0, 1e4, SCREEN, [0.0; 3]);
        assert!(Steps::new(&m, [0.0; 3], G).unwrap().short().is_some());
        let off = [G[0] - 8000, G[1]];
        assert!(Steps::new(&m, [0.0; 3], off).unwrap().short().is_none());
        // Not a turn about the vertical.
        let skew = [
            [1.0, 1.0, 0.0, 0.0],
            [0.0, 1.0, 0.0, 0.0],
            [1.0, 0.0, 1.0, 0.0],
        ];
        assert!(Steps::new(&skew, [0.0; 3], G).unwrap().short().is_none());
        // The extreme positions: wrapped differences never pass.
        let centre = [-8000.0, 0.0, 0.0];
        let s = Steps::new(&framed(1536.0, 1e4, SCREEN, centre), centre, G).unwrap();
        let short = s.short().unwrap();
        for v in [
            i32::MAX,
            i32::MIN,
            i32::MAX - (1 << 18),
            i32::MIN + (1 << 18),
        ] {
            for p in [[v, 0, 0], [0, v, 0], [0, 0, v]] {
                assert!(
                    short
                        .project(p)
                        .is_none_or(|got| got.map(Some) == s.exact(p)),
                    "{p:?}"
                );
            }
        }
    }
}
