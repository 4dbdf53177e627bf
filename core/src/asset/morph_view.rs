//! [`Morphs`]: the morph section of a read asset viewed in place — sets, targets, spans,
//! runs of per-vertex records of quantised deltas, weight channels sampled straight from
//! the bytes — and the reader's validation of it, after which the player's loop over the
//! records cannot fail.

use core::ops::Range;

use super::morphs::{
    MorphSections, ENTRY_LEN, HEAD_LEN, LAST_ENTRY, RUN_LEN, SET_LEN, SPAN_LEN, TARGET_LEN,
    WEIGHTS_LEN,
};
use super::{Asset, AssetError, AssetLane, Field};
use crate::clip::{Interpolation, Keys, LeF32s};

/// The morph section of a read asset ([`Asset::morphs`]).
#[derive(Clone, Copy, Debug)]
pub struct Morphs<'a, L> {
    asset: Asset<'a, L>,
    m: MorphSections,
}

/// One set: the targets of one mesh node over a run of parts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MorphSetView {
    /// Its index.
    pub index: usize,
    /// Its parts.
    pub parts: Range<usize>,
    /// Its targets, numbered across the asset's sets.
    pub targets: Range<usize>,
    /// The index of its first span (one per part and target, part-major).
    first_span: usize,
    /// The index of its first run (one per part).
    first_run: usize,
}

/// One target's quantised scales: `delta = q·2⁻ᵉ`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TargetScale {
    /// `e` of its position deltas.
    pub position_exponent: i8,
    /// `e` of its normal deltas.
    pub normal_exponent: i8,
}

/// How many vertices a target moves in one part, the largest |coordinate| of their base
/// positions and normals, and its largest stored |q|.
#[derive(Clone, Debug, PartialEq)]
pub struct SpanView {
    /// The part's vertices it moves (its entries in [`Morphs::deltas`]).
    pub moved: usize,
    /// Largest |coordinate| of the moved vertices' base positions.
    pub position_reach: f32,
    /// Largest |coordinate| of their base normals.
    pub normal_reach: f32,
    /// Largest |q| of its position deltas.
    pub position_most: u16,
    /// Largest |q| of its normal deltas.
    pub normal_most: u16,
}

/// One target's deltas at one moved vertex of a part ([`Morphs::deltas`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MorphEntry {
    /// The vertex, local to its part.
    pub vertex: u16,
    /// The target, within its set.
    pub target: usize,
    /// The quantised position delta.
    pub position: [i16; 3],
    /// The quantised normal delta, when the asset stores normals.
    pub normal: Option<[i16; 3]>,
}

/// A clip's channel of one set's weights.
#[derive(Clone, Copy, Debug)]
pub struct WeightsView<'a> {
    interpolation: Interpolation,
    targets: usize,
    times: LeF32s<'a>,
    values: LeF32s<'a>,
}

/// A [`WeightsView`] at one time: each target's weight.
#[derive(Clone, Copy, Debug)]
pub struct WeightsAt<'a> {
    view: WeightsView<'a>,
    /// The key before (or at) the time, the next one, the fraction between them and their
    /// distance in seconds.
    k: (usize, usize, f32, f32),
}

fn u16_at(b: &[u8], i: usize) -> u16 {
    u16::from_le_bytes([b[i], b[i + 1]])
}

fn u32_at(b: &[u8], i: usize) -> u32 {
    u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]])
}

fn f32_at(b: &[u8], i: usize) -> f32 {
    f32::from_bits(u32_at(b, i))
}

fn i16s(b: &[u8]) -> [i16; 3] {
    core::array::from_fn(|i| i16::from_le_bytes([b[2 * i], b[2 * i + 1]]))
}

/// The moved vertex and entries of the record at the start of `run`, and the bytes after
/// it; `None` when `run` is too short for it.
pub(crate) fn record(run: &[u8]) -> Option<(u16, &[u8], &[u8])> {
    let head = run.get(..HEAD_LEN)?;
    let n = usize::from(u16_at(head, 2));
    let entries = run.get(HEAD_LEN..HEAD_LEN + ENTRY_LEN * n)?;
    Some((u16_at(head, 0), entries, &run[HEAD_LEN + ENTRY_LEN * n..]))
}

/// An entry's target (within its set), position and normal deltas, and flags.
pub(crate) fn entry(e: &[u8]) -> (usize, [i16; 3], [i16; 3], u16) {
    (
        usize::from(u16_at(e, 14)),
        i16s(e),
        i16s(&e[6..]),
        u16_at(e, 12),
    )
}

impl<'a, L: AssetLane> Morphs<'a, L> {
    pub(crate) fn new(asset: Asset<'a, L>, m: MorphSections) -> Self {
        Self { asset, m }
    }

    fn bytes(&self, r: (usize, usize)) -> &'a [u8] {
        self.asset.bytes_of(r)
    }

    /// Bytes the morph section takes (counts, sets, targets, entries, channels).
    pub fn size(&self) -> usize {
        self.m.total - self.m.head.0
    }

    /// Sets.
    pub fn len(&self) -> usize {
        usize::from(self.m.counts.sets)
    }

    /// `true` without sets (never, in a read asset: the section is only there with some).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Targets, over every set.
    pub fn targets(&self) -> usize {
        usize::from(self.m.counts.targets)
    }

    /// Entries (a target's deltas at a moved vertex), over every target and part.
    pub fn entries(&self) -> usize {
        self.m.counts.entries as usize
    }

    /// The sets, in part order.
    pub fn sets(&self) -> impl Iterator<Item = MorphSetView> + 'a {
        let records = self.bytes(self.m.sets);
        let mut at = (0usize, 0usize, 0usize);
        records
            .chunks_exact(SET_LEN)
            .enumerate()
            .map(move |(index, r)| {
                let (first, parts, targets) = (
                    usize::from(u16_at(r, 0)),
                    usize::from(u16_at(r, 2)),
                    usize::from(u16_at(r, 4)),
                );
                let set = MorphSetView {
                    index,
                    parts: first..first + parts,
                    targets: at.0..at.0 + targets,
                    first_span: at.1,
                    first_run: at.2,
                };
                at = (at.0 + targets, at.1 + parts * targets, at.2 + parts);
                set
            })
    }

    /// The set that part `part` belongs to, if any.
    pub fn set_of_part(&self, part: usize) -> Option<MorphSetView> {
        self.sets().find(|s| s.parts.contains(&part))
    }

    /// The default weight of target `t` (numbered across sets).
    pub fn default_weight(&self, t: usize) -> f32 {
        let b = self.bytes(self.m.defaults);
        b.get(4 * t..4 * t + 4).map_or(0.0, |b| f32_at(b, 0))
    }

    /// The scales of target `t` (numbered across sets).
    pub fn scale(&self, t: usize) -> TargetScale {
        let b = self.bytes(self.m.targets);
        let r = b
            .get(TARGET_LEN * t..TARGET_LEN * (t + 1))
            .unwrap_or(&[0; TARGET_LEN]);
        TargetScale {
            position_exponent: i8::from_le_bytes([r[0]]),
            normal_exponent: i8::from_le_bytes([r[1]]),
        }
    }

    /// The entries of `set`'s target `t` (numbered across sets) in its part `part` (an
    /// asset part index).
    pub fn span(&self, set: &MorphSetView, part: usize, t: usize) -> SpanView {
        let targets = set.targets.len();
        let i = set.first_span + (part - set.parts.start) * targets + (t - set.targets.start);
        self.span_at(i)
    }

    fn span_at(&self, i: usize) -> SpanView {
        let b = self.bytes(self.m.spans);
        let r = b
            .get(SPAN_LEN * i..SPAN_LEN * (i + 1))
            .unwrap_or(&[0; SPAN_LEN]);
        SpanView {
            moved: u32_at(r, 0) as usize,
            position_reach: f32_at(r, 4),
            normal_reach: f32_at(r, 8),
            position_most: u16_at(r, 12),
            normal_most: u16_at(r, 14),
        }
    }

    /// The stored records of `set`'s part `part` (an asset part index), for the player's
    /// loop: per moved vertex a head and its entries.
    pub(crate) fn run(&self, set: &MorphSetView, part: usize) -> &'a [u8] {
        self.run_at(set.first_run + (part - set.parts.start))
    }

    fn run_at(&self, i: usize) -> &'a [u8] {
        let b = self.bytes(self.m.runs);
        let end_of = |i: usize| {
            b.get(RUN_LEN * i..RUN_LEN * i + 4)
                .map_or(0, |r| u32_at(r, 0) as usize)
        };
        let start = if i == 0 { 0 } else { end_of(i - 1) };
        let records = self.bytes(self.m.records);
        records.get(start..end_of(i)).unwrap_or(&[])
    }

    /// Every target's deltas at every vertex it moves in `set`'s part `part` (an asset
    /// part index), by vertex and then target.
    pub fn deltas(&self, set: &MorphSetView, part: usize) -> impl Iterator<Item = MorphEntry> + 'a {
        let normals = self.asset.counts.normals();
        let mut run = self.run(set, part);
        core::iter::from_fn(move || {
            let (vertex, entries, rest) = record(run)?;
            run = rest;
            Some(entries.chunks_exact(ENTRY_LEN).map(move |e| {
                let (target, position, normal, _) = entry(e);
                MorphEntry {
                    vertex,
                    target,
                    position,
                    normal: normals.then_some(normal),
                }
            }))
        })
        .flatten()
    }

    /// Clip `clip`'s channel of `set`'s weights, if it has one.
    pub fn weights(&self, clip: usize, set: &MorphSetView) -> Option<WeightsView<'a>> {
        self.channels()
            .find(|&(c, s, _)| c == clip && s == set.index)
            .map(|(_, _, w)| w)
    }

    /// Every weight channel: `(clip, set, channel)`.
    fn channels(&self) -> impl Iterator<Item = (usize, usize, WeightsView<'a>)> + 'a {
        let records = self.bytes(self.m.channels);
        let floats = LeF32s::new(self.bytes(self.m.floats)).unwrap_or(LeF32s::EMPTY);
        let sets = *self;
        let mut at = 0usize;
        records.chunks_exact(WEIGHTS_LEN).map(move |r| {
            let (clip, set, keys) = (
                usize::from(u16_at(r, 0)),
                usize::from(u16_at(r, 2)),
                u32_at(r, 8) as usize,
            );
            let interpolation = match r[4] {
                0 => Interpolation::Step,
                1 => Interpolation::Linear,
                _ => Interpolation::CubicSpline,
            };
            let targets = sets.sets().nth(set).map_or(0, |s| s.targets.len());
            let values = keys
                .saturating_mul(targets)
                .saturating_mul(interpolation.stride());
            let view = WeightsView {
                interpolation,
                targets,
                times: floats.range(at, keys).unwrap_or(LeF32s::EMPTY),
                values: floats
                    .range(at.saturating_add(keys), values)
                    .unwrap_or(LeF32s::EMPTY),
            };
            at = at.saturating_add(keys).saturating_add(values);
            (clip, set, view)
        })
    }
}

impl<'a> WeightsView<'a> {
    /// The channel at clip time `t` seconds: before the first key its first value, after the
    /// last its last.
    pub fn at(&self, t: f32) -> WeightsAt<'a> {
        let n = self.times.len();
        let last = n.saturating_sub(1);
        let k = if n == 0 || t <= self.times.at(0) {
            (0, 0, 0.0, 0.0)
        } else if t >= self.times.at(last) {
            (last, last, 0.0, 0.0)
        } else {
            // The last key at or before `t` (times strictly increase: checked on reading).
            let (mut lo, mut hi) = (0, last);
            while hi - lo > 1 {
                let mid = (lo + hi) / 2;
                if self.times.at(mid) <= t {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            let dt = self.times.at(hi) - self.times.at(lo);
            (lo, hi, (t - self.times.at(lo)) / dt, dt)
        };
        WeightsAt { view: *self, k }
    }
}

impl WeightsAt<'_> {
    /// The weight of the set's target `t` (0-based within the set).
    pub fn weight(&self, t: usize) -> f32 {
        let v = &self.view;
        let n = v.targets;
        let cubic = v.interpolation == Interpolation::CubicSpline;
        // Part 0: in-tangent, 1: value, 2: out-tangent (cubic); the value only otherwise.
        let part = |k: usize, p: usize| {
            let at = if cubic { (3 * k + p) * n } else { k * n };
            if at + t < v.values.len() {
                v.values.at(at + t)
            } else {
                0.0
            }
        };
        let value = usize::from(cubic);
        let (a, b, s, dt) = self.k;
        if a == b {
            return part(a, value);
        }
        match v.interpolation {
            Interpolation::Step => part(a, 0),
            Interpolation::Linear => {
                let (x, y) = (part(a, 0), part(b, 0));
                x + s * (y - x)
            }
            Interpolation::CubicSpline => {
                let (p0, m0, p1, m1) = (part(a, 1), part(a, 2), part(b, 1), part(b, 0));
                let (s2, s3) = (s * s, s * s * s);
                (2.0 * s3 - 3.0 * s2 + 1.0) * p0
                    + (s3 - 2.0 * s2 + s) * dt * m0
                    + (-2.0 * s3 + 3.0 * s2) * p1
                    + (s3 - s2) * dt * m1
            }
        }
    }
}

impl<'a, L: AssetLane> Asset<'a, L> {
    /// The morph section, when the asset has morph targets.
    pub fn morphs(&self) -> Option<Morphs<'a, L>> {
        let at = usize::try_from(self.m?).ok()?;
        let m = MorphSections::read(self.bytes, at).ok()?;
        Some(Morphs::new(*self, m))
    }

    /// The morph section is consistent with the parts and clips, every value usable.
    pub(crate) fn check_morphs(&self) -> Result<(), AssetError> {
        let Some(morphs) = self.morphs() else {
            return Ok(());
        };
        let m = morphs.m;
        let c = m.counts;
        let invalid = |what, index| AssetError::Invalid { what, index };
        let (mut next_part, mut targets, mut spans) = (0usize, 0usize, 0usize);
        for (i, r) in self.bytes_of(m.sets).chunks_exact(SET_LEN).enumerate() {
            let (first, count, t) = (
                usize::from(u16_at(r, 0)),
                usize::from(u16_at(r, 2)),
                usize::from(u16_at(r, 4)),
            );
            if count == 0 || t == 0 || first < next_part || u16_at(r, 6) != 0 {
                return Err(invalid(Field::MorphSet, i));
            }
            next_part = first + count;
            if next_part > usize::from(self.counts.parts) {
                return Err(AssetError::Index {
                    what: Field::MorphSet,
                    index: i,
                    value: next_part - 1,
                    limit: usize::from(self.counts.parts),
                });
            }
            targets += t;
            spans += count * t;
        }
        for (what, expected, actual) in [
            (Field::MorphTarget, usize::from(c.targets), targets),
            (Field::MorphSpan, c.spans as usize, spans),
        ] {
            if expected != actual {
                return Err(AssetError::Mismatch {
                    what,
                    expected,
                    actual,
                });
            }
        }
        let normals = self.counts.normals();
        for t in 0..targets {
            let r = &self.bytes_of(m.targets)[TARGET_LEN * t..TARGET_LEN * (t + 1)];
            let s = morphs.scale(t);
            if !morphs.default_weight(t).is_finite() {
                return Err(invalid(Field::MorphWeight, t));
            }
            let valid = |e: i8| L::EXPONENTS.contains(&e);
            if !valid(s.position_exponent)
                || (normals && !valid(s.normal_exponent))
                || (!normals && s.normal_exponent != 0)
                || u16_at(r, 2) != 0
            {
                return Err(invalid(Field::MorphTarget, t));
            }
        }
        self.check_runs(&morphs)?;
        self.check_weight_channels(&morphs)
    }

    /// Every run: its records within the section and parsed exactly, each moved vertex
    /// within the part and above the previous, with at least one entry, the entries' targets
    /// within the set and increasing, only the last flagged as last, no normal deltas
    /// without normals; every span's stored count, reaches and largest |q| those of its
    /// target's entries; the records and entries the counts'.
    fn check_runs(&self, morphs: &Morphs<'a, L>) -> Result<(), AssetError> {
        let c = morphs.m.counts;
        let mut end = 0usize;
        let records = morphs.m.records.1 - morphs.m.records.0;
        for (i, r) in self
            .bytes_of(morphs.m.runs)
            .chunks_exact(RUN_LEN)
            .enumerate()
        {
            let e = u32_at(r, 0) as usize;
            if e < end || e > records || e % 4 != 0 {
                return Err(AssetError::Invalid {
                    what: Field::MorphRun,
                    index: i,
                });
            }
            end = e;
        }
        if end != records {
            return Err(AssetError::Mismatch {
                what: Field::MorphRun,
                expected: records,
                actual: end,
            });
        }
        let (mut heads, mut entries) = (0usize, 0usize);
        let mut parts = self.parts().enumerate();
        for set in morphs.sets() {
            for (p, part) in parts.by_ref() {
                if p < set.parts.start {
                    continue;
                }
                let vertices = part.vertex_range();
                let (h, e) = self.check_run(morphs, &set, p, vertices)?;
                heads += h;
                entries += e;
                if p + 1 == set.parts.end {
                    break;
                }
            }
        }
        for (what, expected, actual) in [
            (Field::MorphRecord, c.records as usize, heads),
            (Field::MorphEntry, c.entries as usize, entries),
        ] {
            if expected != actual {
                return Err(AssetError::Mismatch {
                    what,
                    expected,
                    actual,
                });
            }
        }
        Ok(())
    }

    /// [`Asset::check_runs`] for `set`'s part `p` (base vertices `base`): its records and
    /// entries.
    fn check_run(
        &self,
        morphs: &Morphs<'a, L>,
        set: &MorphSetView,
        p: usize,
        base: Range<usize>,
    ) -> Result<(usize, usize), AssetError> {
        let run_index = set.first_run + (p - set.parts.start);
        let bad = |what, index| AssetError::Invalid { what, index };
        let normals = self.counts.normals();
        let (mut run, mut next, mut heads, mut entries) = (morphs.run(set, p), 0usize, 0, 0);
        while !run.is_empty() {
            let Some((v, es, rest)) = record(run) else {
                return Err(bad(Field::MorphRun, run_index));
            };
            let v = usize::from(v);
            if v < next || v >= base.len() {
                return Err(AssetError::Index {
                    what: Field::MorphRecord,
                    index: heads,
                    value: v,
                    limit: base.len(),
                });
            }
            next = v + 1;
            let n = es.len() / ENTRY_LEN;
            let mut target = 0usize;
            for (k, e) in es.chunks_exact(ENTRY_LEN).enumerate() {
                let (t, _, nd, flags) = entry(e);
                let last = if k + 1 == n { LAST_ENTRY } else { 0 };
                if t < target || flags != last || (!normals && nd != [0; 3]) {
                    return Err(bad(Field::MorphEntry, entries + k));
                }
                if t >= set.targets.len() {
                    return Err(AssetError::Index {
                        what: Field::MorphEntry,
                        index: entries + k,
                        value: t,
                        limit: set.targets.len(),
                    });
                }
                target = t + 1;
            }
            if n == 0 {
                return Err(bad(Field::MorphRecord, heads));
            }
            heads += 1;
            entries += n;
            run = rest;
        }
        let (positions, normals) = (self.positions(), self.normals());
        for t in set.targets.clone() {
            let local = t - set.targets.start;
            let i = set.first_span + (p - set.parts.start) * set.targets.len() + local;
            let span = morphs.span_at(i);
            let (mut moved, mut reach, mut most) = (0usize, (0.0f32, 0.0f32), (0u16, 0u16));
            for e in morphs.deltas(set, p).filter(|e| e.target == local) {
                let v = base.start + usize::from(e.vertex);
                let far = |x: Option<[L; 3]>| {
                    x.map_or(0.0, |x| {
                        x.iter().map(|c| c.to_f32().abs()).fold(0.0, f32::max)
                    })
                };
                let q = |d: Option<[i16; 3]>| {
                    d.map_or(0, |d| d.iter().map(|c| c.unsigned_abs()).max().unwrap_or(0))
                };
                reach.0 = reach.0.max(far(positions.get(v)));
                reach.1 = reach.1.max(far(normals.and_then(|n| n.get(v))));
                most.0 = most.0.max(q(Some(e.position)));
                most.1 = most.1.max(q(e.normal));
                moved += 1;
            }
            let stored = (span.position_reach, span.normal_reach);
            let same = span.moved == moved
                && stored.0.to_bits() == reach.0.to_bits()
                && stored.1.to_bits() == reach.1.to_bits()
                && (span.position_most, span.normal_most) == most
                && most.0 <= i16::MAX as u16
                && most.1 <= i16::MAX as u16;
            if !same {
                return Err(bad(Field::MorphSpan, i));
            }
        }
        Ok((heads, entries))
    }

    /// Every weight channel names a clip and a set, in (clip, set) order without repeats,
    /// with a known interpolation, keys at strictly increasing finite times and finite
    /// values; together they use exactly the section's floats.
    fn check_weight_channels(&self, morphs: &Morphs<'a, L>) -> Result<(), AssetError> {
        let m = morphs.m;
        let invalid = |index| AssetError::Invalid {
            what: Field::WeightChannel,
            index,
        };
        let mut prev: Option<(usize, usize)> = None;
        let mut floats = 0usize;
        let records = self.bytes_of(m.channels).chunks_exact(WEIGHTS_LEN);
        for (i, (r, (clip, set, view))) in records.zip(morphs.channels()).enumerate() {
            if r[4] > 2 || r[5] != 0 || u16_at(r, 6) != 0 {
                return Err(invalid(i));
            }
            for (value, limit) in [(clip, usize::from(self.counts.clips)), (set, morphs.len())] {
                if value >= limit {
                    return Err(AssetError::Index {
                        what: Field::WeightChannel,
                        index: i,
                        value,
                        limit,
                    });
                }
            }
            if prev.is_some_and(|p| p >= (clip, set)) {
                return Err(invalid(i));
            }
            prev = Some((clip, set));
            let keys = u32_at(r, 8) as usize;
            let values = keys * view.targets * view.interpolation.stride();
            if keys == 0 || view.times.len() != keys || view.values.len() != values {
                return Err(AssetError::Mismatch {
                    what: Field::MorphFloats,
                    expected: m.counts.floats as usize,
                    actual: floats.saturating_add(keys).saturating_add(values),
                });
            }
            floats += keys + values;
            let times_ok = (0..keys).all(|k| {
                let t = view.times.at(k);
                t.is_finite() && (k == 0 || t > view.times.at(k - 1))
            });
            let values_ok = (0..values).all(|k| view.values.at(k).is_finite());
            if !times_ok || !values_ok {
                return Err(invalid(i));
            }
        }
        if floats != m.counts.floats as usize {
            return Err(AssetError::Mismatch {
                what: Field::MorphFloats,
                expected: m.counts.floats as usize,
                actual: floats,
            });
        }
        Ok(())
    }
}
