//! Morph targets: a primitive's bind-space positions and normals moved by weighted deltas
//! before skinning, `v = base + Σ wᵢ·deltaᵢ`, in the lane the skinning runs in.
//!
//! A target is **sparse**: the vertices it moves (strictly increasing) and a delta for each,
//! so a frame costs per *moved vertex* of each *active* target, and a frame with no active
//! target costs nothing (the caller skins the base as it is). [`Active`] picks, per
//! primitive per frame, at most `A` targets (a compile-time budget, like a GPU's attribute or
//! uniform limit — 8 in the classic fixed-attribute scheme, [`ACTIVE_TARGETS`]): the ones of
//! largest |weight|, and reports the |weight| it dropped. [`Morph`] validates a primitive's
//! targets once; [`Morph::apply`] checks a frame's weights against the lane's range (a few
//! operations per active target) and then runs a loop that cannot fail. Targets are applied
//! in target order, so in `f32` the result equals the host's (`skin_host::pose::morph`) bit
//! for bit. Normals are moved the same way and renormalised by the skinning that follows.
//!
//! **Error bound in the fixed lane** ([`Q14`]), per coordinate, in asset units: each active
//! target's weight is rounded to `I2F14` (error ≤ 2⁻¹⁵, times |delta|) and its product
//! rounded to the nearest 2⁻¹⁴ (≤ 2⁻¹⁵), so the sum is off by at most
//! `Σ (|deltaᵢ| + 1)·2⁻¹⁵` over the active targets ([`Morph::fixed_bound`]); with deltas
//! below one asset unit, under 2⁻¹⁴ a target. The skinning's own bound
//! ([`crate::lane::FIXED_ERROR_BOUND`]) then applies to the moved position.
//!
//! ```
//! use skin_core::morph::{Active, Morph, Target};
//! let base = [[0.0f32, 0.0, 0.0], [1.0, 0.0, 0.0], [0.5, 0.5, 0.0]];
//! // Target 0 moves vertex 2 by (−1, 1, 0); target 1 moves it by (1, 1, 0).
//! let t0 = Target::new(&[2], &[[-1.0, 1.0, 0.0]], None)?;
//! let t1 = Target::new(&[2], &[[1.0, 1.0, 0.0]], None)?;
//! let targets = [t0, t1];
//! let morph = Morph::new(&base, None, &targets)?;
//! let active = Active::<f32, 8>::select(&[0.5, 0.5])?;
//! let mut out = [[0.0f32; 3]; 3];
//! morph.apply(&active, &mut out, None)?;
//! assert_eq!(out[2], [0.5, 1.5, 0.0]);
//! # Ok::<(), skin_core::error::Error>(())
//! ```

use core::fmt::Debug;
use core::ops::RangeInclusive;

pub mod quantised;

pub use quantised::EXPONENTS;

use crate::error::{num_error, Error, Quantity};
use crate::lane::{Lane, Q14};
use crate::num::NumError;

/// The default budget of active targets per primitive per frame: 8, as the classic
/// fixed-function vertex-attribute scheme allowed.
pub const ACTIVE_TARGETS: usize = 8;

/// The morph arithmetic of a lane.
pub trait MorphLane: Lane {
    /// A weight as the loop multiplies it.
    type MorphWeight: Copy + Default + PartialEq + Debug;
    /// The largest magnitude a coordinate may reach.
    const LIMIT: f32;
    /// The rounding of one weight and of one product, each at most this times (|delta| and
    /// 1 respectively).
    const ROUNDING: f32;
    /// Checked conversion of a weight.
    fn morph_weight(w: f32) -> Result<Self::MorphWeight, NumError>;
    /// `|v|` as `f32`.
    fn magnitude(v: Self) -> f32;
    /// `v + w·d`.
    fn nudge(v: Self, w: Self::MorphWeight, d: Self) -> Self;
    /// The exponents a quantised target of this lane may have ([`quantised`]).
    const EXPONENTS: RangeInclusive<i8>;
    /// A weight made ready for deltas stored quantised with exponent `e`
    /// ([`quantised`]): `w·2⁻ᵉ` in `f32`; in the fixed lane `A = w·2¹⁶⁺ᶠ⁻ᵉ`.
    type Step: Copy + Debug + Default;
    /// The [`MorphLane::Step`] of weight `w` for exponent `e` (in [`MorphLane::EXPONENTS`]).
    fn step(w: Self::MorphWeight, e: i8) -> Self::Step;
    /// A coordinate while a vertex's targets are added to it.
    type Sum: Copy + Debug;
    /// The sum of coordinate `v` and no target yet.
    fn begin(v: Self) -> Self::Sum;
    /// `sum` plus `w·q·2⁻ᵉ` for a quantised delta `q` ([`quantised`]).
    fn add_quantised(sum: Self::Sum, s: Self::Step, q: i16) -> Self::Sum;
    /// The moved coordinate: in `f32` each target was added in turn (rounded each time); in
    /// the fixed lane the sum of the targets is rounded once and added.
    fn finish(sum: Self::Sum) -> Self;
    /// The coordinates as the fixed lane's (`I2F14`), for the loops written for it alone
    /// (the Cortex-M4 assembly of the scene's deform step); `None` in other lanes.
    fn as_fixed(coords: &mut [[Self; 3]]) -> Option<&mut [[Q14; 3]]> {
        let _ = coords;
        None
    }
    /// A step as the fixed lane's `A`; `None` in other lanes.
    fn fixed_step(s: Self::Step) -> Option<i32> {
        let _ = s;
        None
    }
}

impl MorphLane for f32 {
    type MorphWeight = f32;
    const LIMIT: f32 = f32::MAX;
    const ROUNDING: f32 = 0.0;
    fn morph_weight(w: f32) -> Result<f32, NumError> {
        if w.is_finite() {
            Ok(w)
        } else {
            Err(NumError::NotFinite)
        }
    }
    fn magnitude(v: f32) -> f32 {
        v.abs()
    }
    #[inline(always)]
    fn nudge(v: f32, w: f32, d: f32) -> f32 {
        v + w * d
    }
    const EXPONENTS: RangeInclusive<i8> = quantised::EXPONENTS;
    type Step = f32;
    fn step(w: f32, e: i8) -> f32 {
        // 2⁻ᵉ is exact, so `w·2⁻ᵉ·q` rounds once, as `w·(q·2⁻ᵉ)` does.
        w * quantised::scale(e)
    }
    type Sum = f32;
    #[inline(always)]
    fn begin(v: f32) -> f32 {
        v
    }
    #[inline(always)]
    fn add_quantised(sum: f32, s: f32, q: i16) -> f32 {
        sum + s * f32::from(q)
    }
    #[inline(always)]
    fn finish(sum: f32) -> f32 {
        sum
    }
}

impl MorphLane for Q14 {
    type MorphWeight = Q14;
    const LIMIT: f32 = 2.0 - 1.0 / 16384.0;
    const ROUNDING: f32 = 1.0 / 32768.0;
    fn morph_weight(w: f32) -> Result<Q14, NumError> {
        <Q14 as Lane>::from_f32(w)
    }
    fn magnitude(v: Q14) -> f32 {
        <Q14 as Lane>::to_f32(v).abs()
    }
    #[inline(always)]
    fn nudge(v: Q14, w: Q14, d: Q14) -> Q14 {
        // 16 × 16 → 32 bits with 28 fractional bits, rounded to 14. In range: checked per
        // frame by `Morph::apply` before the loop.
        let product = i32::from(w.to_bits()) * i32::from(d.to_bits());
        let step = (product + (1 << 13)) >> 14;
        Q14::from_bits((i32::from(v.to_bits()) + step) as i16)
    }
    const EXPONENTS: RangeInclusive<i8> = quantised::FIXED_EXPONENTS;
    /// `A = w·2¹⁶⁺ᶠ⁻ᵉ` (`w` the weight's bits, `F` [`quantised::SUM_FRACTION`]): a left
    /// shift of 0 to 16 bits for `e` in [`quantised::FIXED_EXPONENTS`] (clamped to it), so
    /// exact in 32 bits for every `I2F14` weight.
    type Step = i32;
    fn step(w: Q14, e: i8) -> i32 {
        let e = e.clamp(*Self::EXPONENTS.start(), *Self::EXPONENTS.end());
        let shift = 16 + quantised::SUM_FRACTION - e as u32;
        i32::from(w.to_bits()) << shift
    }
    /// The coordinate's bits and the targets' sum in units of `2⁻⁽¹⁴⁺ᶠ⁾`, started at half
    /// of the final step (the rounding).
    type Sum = (i16, i32);
    #[inline(always)]
    fn begin(v: Q14) -> (i16, i32) {
        (v.to_bits(), 1 << (quantised::SUM_FRACTION - 1))
    }
    #[inline(always)]
    fn add_quantised((v, sum): (i16, i32), a: i32, q: i16) -> (i16, i32) {
        // `⌊A·q / 2¹⁶⌋`, as the Cortex-M4's `SMLAW<y>` adds it, in 32-bit products (no
        // 64-bit multiply on a Cortex-M0): with `A = H·2¹⁶ + L` (`L` the low 16 bits,
        // unsigned), `⌊A·q / 2¹⁶⌋ = H·q + ⌊L·q / 2¹⁶⌋` exactly, and `|H·q|`, `|L·q|` stay
        // below 2³¹. In range: the player's reach check bounds the sum before the loop.
        let q = i32::from(q);
        let term = (a >> 16) * q + (((a & 0xffff) * q) >> 16);
        (v, sum.wrapping_add(term))
    }
    #[inline(always)]
    fn finish((v, sum): (i16, i32)) -> Q14 {
        Q14::from_bits(i32::from(v).wrapping_add(sum >> quantised::SUM_FRACTION) as i16)
    }
    fn as_fixed(coords: &mut [[Q14; 3]]) -> Option<&mut [[Q14; 3]]> {
        Some(coords)
    }
    fn fixed_step(a: i32) -> Option<i32> {
        Some(a)
    }
}

/// One morph target of a primitive: the vertices it moves and their deltas.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Target<'a, L: MorphLane> {
    vertices: &'a [u16],
    positions: &'a [[L; 3]],
    normals: Option<&'a [[L; 3]]>,
    /// The largest |coordinate| of its position and normal deltas.
    reach: (f32, f32),
}

impl<'a, L: MorphLane> Target<'a, L> {
    /// A target moving `vertices` (strictly increasing; checked by [`Morph::new`]) by
    /// `positions` (and turning their normals by `normals`), one delta a vertex.
    pub fn new(
        vertices: &'a [u16],
        positions: &'a [[L; 3]],
        normals: Option<&'a [[L; 3]]>,
    ) -> Result<Self, Error> {
        for len in [Some(positions.len()), normals.map(<[_]>::len)]
            .into_iter()
            .flatten()
        {
            if len != vertices.len() {
                return Err(Error::LengthMismatch {
                    expected: vertices.len(),
                    actual: len,
                });
            }
        }
        let reach = |ds: &[[L; 3]]| -> Result<f32, Error> {
            let mut most = 0.0f32;
            for (i, d) in ds.iter().enumerate() {
                for &c in d {
                    let m = L::magnitude(c);
                    if !m.is_finite() {
                        return Err(Error::NotFinite {
                            what: Quantity::MorphDelta,
                            index: i,
                        });
                    }
                    most = most.max(m);
                }
            }
            Ok(most)
        };
        Ok(Target {
            vertices,
            positions,
            normals,
            reach: (reach(positions)?, normals.map_or(Ok(0.0), reach)?),
        })
    }
}

/// At most `A` targets of a frame, those of largest |weight|, in target order, with their
/// weights in the lane; and the |weight| left out.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Active<L: MorphLane, const A: usize> {
    kept: [(u16, L::MorphWeight, f32); A],
    len: usize,
    dropped: f32,
}

impl<L: MorphLane, const A: usize> Active<L, A> {
    /// Pick from `weights` (one a target): the non-zero ones of largest |weight|, at most
    /// `A` (ties keep the lower target). A weight that is not finite, or that the lane
    /// cannot hold, is an error naming its target.
    pub fn select(weights: &[f32]) -> Result<Self, Error> {
        Self::select_from(weights.iter().copied())
    }

    /// [`Active::select`] from weights computed one at a time (e.g. sampled from a clip),
    /// without a buffer for them.
    pub fn select_from(weights: impl IntoIterator<Item = f32>) -> Result<Self, Error> {
        let mut kept = [(0u16, L::MorphWeight::default(), 0.0f32); A];
        let mut len = 0;
        let mut dropped = 0.0f32;
        for (t, w) in weights.into_iter().enumerate() {
            if t > usize::from(u16::MAX) {
                return Err(Error::Capacity {
                    len: t + 1,
                    capacity: usize::from(u16::MAX) + 1,
                });
            }
            if !w.is_finite() {
                return Err(Error::NotFinite {
                    what: Quantity::MorphWeight,
                    index: t,
                });
            }
            if w == 0.0 {
                continue;
            }
            let entry = (t as u16, L::MorphWeight::default(), w);
            if len < A {
                kept[len] = entry;
                len += 1;
                continue;
            }
            // Replace the smallest kept |weight| (the last of equals) if this one is larger.
            let Some(low) = (0..len)
                .min_by(|&a, &b| kept[a].2.abs().total_cmp(&kept[b].2.abs()).then(b.cmp(&a)))
            else {
                dropped += w.abs();
                continue;
            };
            if w.abs() > kept[low].2.abs() {
                dropped += kept[low].2.abs();
                kept[low..len].rotate_left(1);
                kept[len - 1] = entry;
            } else {
                dropped += w.abs();
            }
        }
        let kept_slice = &mut kept[..len];
        kept_slice.sort_unstable_by_key(|e| e.0);
        for e in kept_slice.iter_mut() {
            e.1 = L::morph_weight(e.2)
                .map_err(|err| num_error(err, Quantity::MorphWeight, usize::from(e.0), L::NAME))?;
        }
        Ok(Active { kept, len, dropped })
    }

    /// No target is active: skin the base as it is.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Active targets.
    pub fn len(&self) -> usize {
        self.len
    }

    /// The active targets and their weights, in target order.
    pub fn targets(&self) -> impl Iterator<Item = (usize, f32)> + '_ {
        self.kept[..self.len]
            .iter()
            .map(|e| (usize::from(e.0), e.2))
    }

    /// The sum of the |weights| left out by the budget (0 when every non-zero weight fit).
    pub fn dropped(&self) -> f32 {
        self.dropped
    }

    /// The active targets with their weights in the lane, in target order.
    pub fn lane_weights(&self) -> impl Iterator<Item = (usize, L::MorphWeight)> + '_ {
        self.kept[..self.len]
            .iter()
            .map(|e| (usize::from(e.0), e.1))
    }
}

/// A primitive's base positions (and normals) and its targets, validated.
#[derive(Clone, Copy, Debug)]
pub struct Morph<'a, L: MorphLane> {
    positions: &'a [[L; 3]],
    normals: Option<&'a [[L; 3]]>,
    targets: &'a [Target<'a, L>],
    reach: (f32, f32),
}

impl<'a, L: MorphLane> Morph<'a, L> {
    /// Check that every target names vertices of the base, strictly increasing, and carries
    /// normal deltas only when the base has normals.
    pub fn new(
        positions: &'a [[L; 3]],
        normals: Option<&'a [[L; 3]]>,
        targets: &'a [Target<'a, L>],
    ) -> Result<Self, Error> {
        if let Some(n) = normals {
            if n.len() != positions.len() {
                return Err(Error::LengthMismatch {
                    expected: positions.len(),
                    actual: n.len(),
                });
            }
        }
        for (t, target) in targets.iter().enumerate() {
            let mut next = 0usize;
            for (entry, &v) in target.vertices.iter().enumerate() {
                if usize::from(v) < next || usize::from(v) >= positions.len() {
                    return Err(Error::MorphVertex {
                        target: t,
                        entry,
                        vertex: v,
                        vertices: positions.len(),
                    });
                }
                next = usize::from(v) + 1;
            }
            if target.normals.is_some() && normals.is_none() {
                return Err(Error::LengthMismatch {
                    expected: 0,
                    actual: target.vertices.len(),
                });
            }
        }
        let most = |vs: &[[L; 3]]| {
            vs.iter()
                .flatten()
                .map(|&c| L::magnitude(c))
                .fold(0.0f32, f32::max)
        };
        Ok(Morph {
            positions,
            normals,
            targets,
            reach: (most(positions), normals.map_or(0.0, most)),
        })
    }

    /// The fixed lane's error bound per coordinate for the targets of `active`:
    /// `Σ (|deltaᵢ| + 1)·2⁻¹⁵` (positions; see the module docs).
    pub fn fixed_bound<const A: usize>(&self, active: &Active<L, A>) -> f32 {
        active
            .targets()
            .filter_map(|(t, _)| self.targets.get(t))
            .map(|t| (t.reach.0 + 1.0) / 32768.0)
            .sum()
    }

    /// The base moved by the `active` targets into `positions` (and `normals`, when both the
    /// base and the caller have them), each as long as the base. An error, before anything
    /// is written, when `active` names a target beyond this primitive's or when the weights
    /// could move a coordinate out of the lane's range.
    pub fn apply<const A: usize>(
        &self,
        active: &Active<L, A>,
        positions: &mut [[L; 3]],
        normals: Option<&mut [[L; 3]]>,
    ) -> Result<(), Error> {
        let normals = normals.zip(self.normals);
        for (given, base) in [(positions.len(), self.positions.len())]
            .into_iter()
            .chain(normals.as_ref().map(|(o, b)| (o.len(), b.len())))
        {
            if given != base {
                return Err(Error::LengthMismatch {
                    expected: base,
                    actual: given,
                });
            }
        }
        let mut reach = (f64::from(self.reach.0), f64::from(self.reach.1));
        for (t, w) in active.targets() {
            let Some(target) = self.targets.get(t) else {
                return Err(Error::Capacity {
                    len: t + 1,
                    capacity: self.targets.len(),
                });
            };
            let (w, r) = (f64::from(w.abs()), f64::from(L::ROUNDING));
            reach.0 += (w + r) * f64::from(target.reach.0) + r;
            reach.1 += (w + r) * f64::from(target.reach.1) + r;
        }
        let most = reach.0.max(reach.1);
        if most > f64::from(L::LIMIT) {
            return Err(Error::MorphReach {
                reach: most as f32,
                limit: L::LIMIT,
                format: L::NAME,
            });
        }
        positions.copy_from_slice(self.positions);
        let kept = &active.kept[..active.len];
        for &(t, w, _) in kept {
            let target = &self.targets[usize::from(t)];
            nudge_all(positions, target.vertices, target.positions, w);
        }
        if let Some((out, base)) = normals {
            out.copy_from_slice(base);
            for &(t, w, _) in kept {
                let target = &self.targets[usize::from(t)];
                if let Some(deltas) = target.normals {
                    nudge_all(out, target.vertices, deltas, w);
                }
            }
        }
        Ok(())
    }
}

/// `out[v] += w·d` for each moved vertex `v` and its delta `d`.
#[inline]
fn nudge_all<L: MorphLane>(
    out: &mut [[L; 3]],
    vertices: &[u16],
    deltas: &[[L; 3]],
    w: L::MorphWeight,
) {
    for (&v, d) in vertices.iter().zip(deltas) {
        if let Some(o) = out.get_mut(usize::from(v)) {
            for i in 0..3 {
                o[i] = L::nudge(o[i], w, d[i]);
            }
        }
    }
}
