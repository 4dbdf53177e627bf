//! Exact integer arithmetic for the rasteriser's hot paths, fast on cores without a long
//! multiply or a divider (Cortex-M0): 32 × 32 → 64-bit products, and division by a
//! divisor that stays the same for many numerators (a triangle's area) through a
//! reciprocal, digit by digit.
//!
//! ARMv6-M (Cortex-M0/M0+) has neither a 32 × 32 → 64-bit multiply nor a divide
//! instruction: the compiler calls library routines for `i64` products (`__aeabi_lmul`) and
//! divisions (`__aeabi_ldivmod`, hundreds of instructions). Its target is recognised by
//! the one configuration flag that tells it apart from ARMv7-M: no 32-bit atomics.

/// ARMv6-M: no long multiply (see the module docs).
macro_rules! v6m {
    ($($item:item)*) => { $(#[cfg(all(target_arch = "arm", not(target_has_atomic = "32")))] $item)* };
}
/// Everything else.
macro_rules! not_v6m {
    ($($item:item)*) => { $(#[cfg(not(all(target_arch = "arm", not(target_has_atomic = "32"))))] $item)* };
}

/// A 32-bit factor used many times, kept with its 16-bit halves: products by it take four
/// 16 × 16-bit multiplies on ARMv6-M (the halves are stored, not recomputed, so that the
/// compiler cannot fold the product back into a library call) and one long multiply
/// elsewhere.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Factor {
    whole: i32,
    /// `whole >> 16` (signed) and `whole & 0xFFFF`.
    hi: i32,
    lo: i32,
}

impl Factor {
    pub(crate) const fn new(whole: i32) -> Self {
        Self {
            whole,
            hi: whole >> 16,
            lo: whole & 0xFFFF,
        }
    }

    /// `self · b` exactly.
    #[inline(always)]
    pub(crate) fn mul(self, b: i32) -> i64 {
        v6m! {
            fn pick(f: Factor, b: i32) -> i64 {
                f.mul_halves(b)
            }
        }
        not_v6m! {
            fn pick(f: Factor, b: i32) -> i64 {
                i64::from(f.whole) * i64::from(b)
            }
        }
        pick(self, b)
    }

    /// `self · b` from four 16 × 16-bit products (each fits 32 bits).
    #[cfg_attr(
        not(any(test, all(target_arch = "arm", not(target_has_atomic = "32")))),
        allow(dead_code)
    )]
    #[inline(always)]
    fn mul_halves(self, b: i32) -> i64 {
        // b = bh·2^16 + bl with bl in [0, 2^16) and bh in [-2^15, 2^15); likewise self.
        let (bl, bh) = (b & 0xFFFF, b >> 16);
        let low = (self.lo as u32) * (bl as u32);
        // |lo·bh|, |hi·bl| < 2^31 and |hi·bh| ≤ 2^30.
        let mid = i64::from(self.lo * bh) + i64::from(self.hi * bl);
        (i64::from(self.hi * bh) << 32) + (mid << 16) + i64::from(low)
    }

    /// The high word of `self · t` for a non-negative `self`.
    #[inline(always)]
    fn mulhi_unsigned(self, t: u32) -> u32 {
        v6m! {
            fn pick(f: Factor, t: u32) -> u32 {
                f.mulhi_halves(t)
            }
        }
        not_v6m! {
            fn pick(f: Factor, t: u32) -> u32 {
                ((u64::from(f.whole as u32) * u64::from(t)) >> 32) as u32
            }
        }
        pick(self, t)
    }

    /// [`Self::mulhi_unsigned`] from four 16 × 16-bit products.
    #[cfg_attr(
        not(any(test, all(target_arch = "arm", not(target_has_atomic = "32")))),
        allow(dead_code)
    )]
    #[inline(always)]
    fn mulhi_halves(self, t: u32) -> u32 {
        let (al, ah) = (self.lo as u32, (self.whole as u32) >> 16);
        let (bl, bh) = (t & 0xFFFF, t >> 16);
        let (ll, lh, hl, hh) = (al * bl, al * bh, ah * bl, ah * bh);
        // The carries into the high word from the middle column (below 3 · 2^16).
        let mid = (ll >> 16) + (lh & 0xFFFF) + (hl & 0xFFFF);
        hh + (lh >> 16) + (hl >> 16) + (mid >> 16)
    }
}

/// A divisor `d` in `1..2^24` with its reciprocal, for exact floor divisions of many
/// numerators by the same `d` without a divide instruction.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Divisor {
    d: u32,
    /// `⌊(2^32 − 1) / d⌋`, below 2^31 (as `d ≥ 2` when it is used; `d = 1` divides
    /// directly).
    inv: Factor,
}

impl Divisor {
    /// `None` unless `0 < d < 2^24` (so that a remainder shifted by a byte fits 32 bits).
    pub(crate) fn new(d: i32) -> Option<Self> {
        let d = u32::try_from(d).ok().filter(|&d| d > 0 && d < 1 << 24)?;
        Some(Self {
            d,
            inv: Factor::new((u32::MAX / d.max(2)) as i32),
        })
    }

    /// `(t / d, t % d)`. The estimate `t · inv / 2^32` is at most the quotient and less
    /// than 2 below it (`inv > 2^32/d − 1 − 1/d`), so at most two corrections follow.
    #[inline(always)]
    fn divmod(&self, t: u32) -> (u32, u32) {
        if self.d == 1 {
            return (t, 0);
        }
        let mut q = self.inv.mulhi_unsigned(t);
        let mut r = t - q * self.d;
        while r >= self.d {
            q += 1;
            r -= self.d;
        }
        (q, r)
    }

    /// `⌊n / d⌋` and `n − d·⌊n / d⌋` (in `0..d`), as `i64::div_euclid` and `rem_euclid`.
    pub(crate) fn floor_divmod(&self, n: i64) -> (i64, u32) {
        let m = n.unsigned_abs();
        let (hi, lo) = ((m >> 32) as u32, m as u32);
        let (q, r) = if hi == 0 {
            let (q, r) = self.divmod(lo);
            (u64::from(q), r)
        } else if self.d < 1 << 16 {
            // Long division: the high word, then the low word in two 16-bit digits (the
            // remainder stays below 2^16, so remainder · 2^16 + digit fits 32 bits and each
            // quotient digit below 2^16).
            let (qh, r) = self.divmod(hi);
            let (q1, r) = self.divmod((r << 16) | (lo >> 16));
            let (q0, r) = self.divmod((r << 16) | (lo & 0xFFFF));
            ((u64::from(qh) << 32) | u64::from((q1 << 16) | q0), r)
        } else {
            // The same a byte at a time: the remainder stays below 2^24.
            let (qh, mut r) = self.divmod(hi);
            let mut ql = 0u32;
            for shift in [24, 16, 8, 0] {
                let (qd, rd) = self.divmod((r << 8) | ((lo >> shift) & 0xFF));
                ql = (ql << 8) | qd;
                r = rd;
            }
            ((u64::from(qh) << 32) | u64::from(ql), r)
        };
        if n >= 0 {
            (q as i64, r)
        } else if r == 0 {
            (-(q as i64), 0)
        } else {
            (-(q as i64) - 1, self.d - r)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn halves_multiply_exactly(a: i32, b: i32, c in 0..=i32::MAX, d: u32) {
            prop_assert_eq!(Factor::new(a).mul_halves(b), i64::from(a) * i64::from(b));
            prop_assert_eq!(Factor::new(a).mul(b), i64::from(a) * i64::from(b));
            let hi = ((u64::from(c as u32) * u64::from(d)) >> 32) as u32;
            prop_assert_eq!(Factor::new(c).mulhi_halves(d), hi);
            prop_assert_eq!(Factor::new(c).mulhi_unsigned(d), hi);
        }

        #[test]
        fn floor_division_is_euclid(n in -(1i64 << 62)..(1i64 << 62), d in 1i32..(1 << 24)) {
            let div = Divisor::new(d).unwrap();
            let (q, r) = div.floor_divmod(n);
            prop_assert_eq!(q, n.div_euclid(i64::from(d)));
            prop_assert_eq!(i64::from(r), n.rem_euclid(i64::from(d)));
        }

        #[test]
        fn small_divisors_too(n in -(1i64 << 62)..(1i64 << 62), d in 1i32..(1 << 16)) {
            let (q, r) = Divisor::new(d).unwrap().floor_divmod(n);
            prop_assert_eq!(q, n.div_euclid(i64::from(d)));
            prop_assert_eq!(i64::from(r), n.rem_euclid(i64::from(d)));
        }

        #[test]
        fn small_numerators_too(n in -(1i64 << 33)..(1i64 << 33), d in 1i32..300) {
            let (q, _) = Divisor::new(d).unwrap().floor_divmod(n);
            prop_assert_eq!(q, n.div_euclid(i64::from(d)));
        }
    }

    #[test]
    fn edge_values() {
        for d in [1, 2, 3, 255, 256, 65535, 65536, (1 << 24) - 1] {
            let div = Divisor::new(d).unwrap();
            for n in [
                0,
                1,
                -1,
                i64::from(d),
                -i64::from(d),
                (1 << 62) - 1,
                -(1 << 62),
                u32::MAX.into(),
            ] {
                assert_eq!(
                    div.floor_divmod(n).0,
                    n.div_euclid(i64::from(d)),
                    "{n} / {d}"
                );
            }
        }
        for (a, b) in [
            (i32::MIN, i32::MIN),
            (i32::MAX, i32::MIN),
            (-1, -1),
            (0xFFFF, -0x8000),
        ] {
            assert_eq!(Factor::new(a).mul_halves(b), i64::from(a) * i64::from(b));
        }
        assert_eq!(
            Factor::new(i32::MAX).mulhi_halves(u32::MAX),
            (i32::MAX as u32) - 1
        );
        assert!(
            Divisor::new(0).is_none()
                && Divisor::new(1 << 24).is_none()
                && Divisor::new(-5).is_none()
        );
    }
}
