//! The key interval a time falls in, and the interpolation parameter across it, kept from
//! one channel to the next: a clip's channels often share their key times (exporters
//! key many properties of many bones at the same instants), so the next channel
//! checks the last channel's interval with two key reads instead of a binary search, and
//! reuses its parameter when the interval's times are the same bits. The result is the
//! one a fresh search and division give: the count of keys at or before `t` is unique
//! (times are non-decreasing), and the parameter is a function of `t` and the two times.

use crate::num::NumError;
use crate::num::Real;

use super::Keys;

/// The last channel's interval and parameter, at one time `t`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Span<R> {
    /// [`ordered`] of the time the spans are found for.
    at: u32,
    /// The last channel's count of keys at or before the time.
    count: usize,
    /// The bits of the last interpolated interval's times, and its parameter and length.
    times: Option<(u32, u32, R, f32)>,
}

impl<R: Real> Span<R> {
    /// Spans at time `t` (finite).
    pub(crate) fn new(t: f32) -> Self {
        Self {
            at: ordered(t),
            count: 0,
            times: None,
        }
    }

    /// The number of keys in `times` (non-empty, non-decreasing) at or before the time:
    /// the interval is `[n − 1, n]`. The last channel's count when it also holds here,
    /// else a binary search. Compared as ordered integers: a float comparison is a library
    /// call without an FPU.
    pub(crate) fn count<K: Keys>(&mut self, times: K) -> usize {
        let keys = times.len();
        let n = self.count;
        let after = |k: usize| ordered(times.at(k)) > self.at;
        let holds = n <= keys && (n == 0 || !after(n - 1)) && (n == keys || after(n));
        if !holds {
            let (mut lo, mut hi) = (0, keys);
            while lo < hi {
                let mid = (lo + hi) / 2;
                if after(mid) {
                    hi = mid;
                } else {
                    lo = mid + 1;
                }
            }
            self.count = lo;
        }
        self.count
    }

    /// The parameter `(t − t0) / (t1 − t0)` of time `t` between keys at `t0 ≤ t < t1`, in
    /// `R`, and the interval's length `t1 − t0`; the last channel's when its times were
    /// the same bits. No clamp: `t0 ≤ t < t1` puts the rounded quotient in `[0, 1]`.
    pub(crate) fn parameter(&mut self, t: f32, t0: f32, t1: f32) -> Result<(R, f32), NumError> {
        let bits = (t0.to_bits(), t1.to_bits());
        match self.times {
            Some((a, b, u, gap)) if (a, b) == bits => Ok((u, gap)),
            _ => {
                let gap = t1 - t0;
                let u = R::from_f32((t - t0) / gap)?;
                self.times = Some((bits.0, bits.1, u, gap));
                Ok((u, gap))
            }
        }
    }
}

/// An integer that orders finite floats as `<=` does (−0 and +0 alike): the bits with the
/// sign flipped for positive values, negated for negative ones (−0's bits negate to
/// +0's, so no test for zero, which LLVM turns into a float comparison: a library call).
pub(crate) fn ordered(v: f32) -> u32 {
    let bits = v.to_bits();
    if bits >> 31 == 1 {
        bits.wrapping_neg()
    } else {
        bits | 1 << 31
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::{ordered, Span};
    use crate::num::{Fx, Real};
    use proptest::prelude::*;
    use std::{vec, vec::Vec};

    proptest! {
        #[test]
        fn ordered_integers_compare_as_floats(a: f32, b: f32) {
            prop_assume!(a.is_finite() && b.is_finite());
            prop_assert_eq!(ordered(a) <= ordered(b), a <= b);
        }

        /// Counts and parameters reused from channel to channel equal a fresh search and
        /// division's, over channels with the same, shifted or fewer times.
        #[test]
        fn reused_spans_equal_fresh_ones(
            times in proptest::collection::vec(-4.0f32..4.0, 1..12),
            others in proptest::collection::vec(proptest::collection::vec(-4.0f32..4.0, 1..12), 0..4),
            t in -5.0f32..5.0,
        ) {
            let sorted = |mut v: Vec<f32>| { v.sort_by(f32::total_cmp); v };
            let first = sorted(times);
            let mut channels = vec![first.clone(), first.clone()];
            for o in others {
                channels.push(sorted(o));
                channels.push(first.clone());
            }
            let mut span = Span::<Fx>::new(t);
            for c in &channels {
                let fresh = c.iter().filter(|&&k| k <= t).count();
                prop_assert_eq!(span.count(&c[..]), fresh);
                if fresh > 0 && fresh < c.len() {
                    let (t0, t1) = (c[fresh - 1], c[fresh]);
                    let want = Fx::from_f32(((t - t0) / (t1 - t0)).clamp(0.0, 1.0)).unwrap();
                    prop_assert_eq!(span.parameter(t, t0, t1).unwrap(), (want, t1 - t0));
                }
            }
        }
    }

    #[test]
    fn zeros_are_equal() {
        assert_eq!(ordered(0.0), ordered(-0.0));
        assert!(ordered(-1e-45) < ordered(0.0) && ordered(0.0) < ordered(1e-45));
        assert!(ordered(f32::MIN) < ordered(-1.0) && ordered(f32::MAX) > ordered(1.0));
    }

    #[test]
    fn parameters_of_zero_times_need_no_clamp() {
        // −0 − +0 is −0: its parameter is −0, which the clamp left as it was too.
        let mut span = Span::<f32>::new(-0.0);
        assert_eq!(span.count(&[0.0f32, 1.0][..]), 1);
        let (u, _) = span.parameter(-0.0, 0.0, 1.0).unwrap();
        assert_eq!(u.to_bits(), (-0.0f32).clamp(0.0, 1.0).to_bits());
    }
}
