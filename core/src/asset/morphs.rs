//! The morph section (present when the header has [`FLAG_MORPHS`]): its layout after the
//! clip names, the writer's input ([`MorphParts`]), the writer, and the reader's checks.
//!
//! A *set* is the morph targets of one mesh node, over a run of consecutive parts (its
//! primitives, split for the palette budget): per target default weight and quantised
//! deltas ([`crate::morph::quantised`]), per (part, target) a *span*: how many of the
//! part's vertices it moves and the largest values the player's range check needs; per
//! part a *run* of records, one per moved vertex (local to the part, strictly increasing),
//! each followed by an entry per target moving it (in target order: the target, its
//! position and normal delta) — vertex-major, so that the player loads and stores a moved
//! vertex once whatever the targets moving it; and per clip at most one channel animating
//! the set's weights. The writer takes the deltas target by target ([`Span`]) and regroups
//! them.

use super::header::{interpolation_code, section, FLAG_MORPHS};
use super::{AssetError, AssetLane, AssetParts, Field};
use crate::clip::Interpolation;

/// Bytes of the morph section's counts: sets u16, targets u16, runs, spans, records,
/// entries, channels, floats u32.
pub(crate) const MORPH_COUNTS_LEN: usize = 28;
/// Bytes per set record: first part u16, parts u16, targets u16, reserved u16.
pub(crate) const SET_LEN: usize = 8;
/// Bytes per target record: position exponent i8, normal exponent i8, reserved u16.
pub(crate) const TARGET_LEN: usize = 4;
/// Bytes per span record: vertices moved u32, largest |coordinate| of the moved vertices'
/// base positions f32 and normals f32, largest |q| of its position deltas u16 and normal
/// deltas u16.
pub(crate) const SPAN_LEN: usize = 16;
/// Bytes per run record: the end of the part's records u32, in bytes from the first.
pub(crate) const RUN_LEN: usize = 4;
/// Bytes of a moved vertex's record head: vertex u16, entries u16.
pub(crate) const HEAD_LEN: usize = 4;
/// Bytes per entry: position delta 3 × i16, normal delta 3 × i16, flags u16 (bit 0: the
/// vertex's last entry), target u16 (within its set). As words: `(p₀, p₁)`, `(p₂, n₀)`,
/// `(n₁, n₂)`, `(flags, target)`.
pub(crate) const ENTRY_LEN: usize = 16;
/// An entry's flag: the last entry of its vertex.
pub(crate) const LAST_ENTRY: u16 = 1;
/// Bytes per weight-channel record: clip u16, set u16, interpolation u8, reserved u8 and
/// u16, keys u32.
pub(crate) const WEIGHTS_LEN: usize = 12;

/// The morph targets an asset holds, for [`AssetParts::write_with_morphs`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MorphParts<'a> {
    /// The sets, in part order, their parts not overlapping.
    pub sets: &'a [MorphSet<'a>],
    /// Weight channels, ordered by clip and then set, at most one per (clip, set).
    pub channels: &'a [WeightChannel<'a>],
}

/// The morph targets of one mesh node: a run of parts sharing the targets' weights.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MorphSet<'a> {
    /// Its first part.
    pub first_part: u16,
    /// Its parts (at least one).
    pub parts: u16,
    /// The default weight of each target (when no channel animates the set).
    pub defaults: &'a [f32],
    /// Its targets, one per default weight.
    pub targets: &'a [QuantisedTarget<'a>],
}

/// One target of a set, quantised: `delta = q·2⁻ᵉ`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct QuantisedTarget<'a> {
    /// `e` of its position deltas (asset units), in the lane's
    /// [`MorphLane::EXPONENTS`](crate::morph::MorphLane::EXPONENTS).
    pub position_exponent: i8,
    /// `e` of its normal deltas (0 without normals), in the lane's exponents.
    pub normal_exponent: i8,
    /// Its entries in each of the set's parts, in part order.
    pub spans: &'a [Span<'a>],
}

/// A target's entries in one part.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Span<'a> {
    /// Moved vertices, local to the part, strictly increasing.
    pub vertices: &'a [u16],
    /// Their quantised position deltas.
    pub positions: &'a [[i16; 3]],
    /// Their quantised normal deltas (as many, when the asset stores normals; else empty).
    pub normals: &'a [[i16; 3]],
}

/// A clip's channel animating one set's weights.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WeightChannel<'a> {
    /// The clip.
    pub clip: u16,
    /// The set.
    pub set: u16,
    /// How keys are interpolated.
    pub interpolation: Interpolation,
    /// Key times, strictly increasing.
    pub times: &'a [f32],
    /// Per key one weight a target (cubic splines: in-tangents, values, out-tangents, each
    /// one a target, as glTF stores them).
    pub values: &'a [f32],
}

/// The morph section's counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct MorphCounts {
    pub sets: u16,
    pub targets: u16,
    pub runs: u32,
    pub spans: u32,
    pub records: u32,
    pub entries: u32,
    pub channels: u32,
    pub floats: u32,
}

/// Byte ranges of the morph section's parts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct MorphSections {
    pub counts: MorphCounts,
    pub head: (usize, usize),
    pub sets: (usize, usize),
    pub defaults: (usize, usize),
    pub targets: (usize, usize),
    pub spans: (usize, usize),
    pub runs: (usize, usize),
    pub records: (usize, usize),
    pub channels: (usize, usize),
    pub floats: (usize, usize),
    pub total: usize,
}

fn u16_at(b: &[u8], i: usize) -> u16 {
    u16::from_le_bytes([b[i], b[i + 1]])
}

fn u32_at(b: &[u8], i: usize) -> u32 {
    u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]])
}

impl MorphSections {
    /// The layout of a morph section with `c` starting at `at`.
    pub fn new(at: usize, c: MorphCounts) -> Result<Self, AssetError> {
        let mut next_at = at;
        let mut next = |count: usize, size: usize| section(&mut next_at, count, size);
        let n = |v: u32| usize::try_from(v).map_err(|_| AssetError::TooLarge);
        let records = n(c.records)?
            .checked_mul(HEAD_LEN)
            .zip(n(c.entries)?.checked_mul(ENTRY_LEN))
            .and_then(|(h, e)| h.checked_add(e))
            .ok_or(AssetError::TooLarge)?;
        let s = Self {
            counts: c,
            head: next(1, MORPH_COUNTS_LEN)?,
            sets: next(usize::from(c.sets), SET_LEN)?,
            defaults: next(usize::from(c.targets), 4)?,
            targets: next(usize::from(c.targets), TARGET_LEN)?,
            spans: next(n(c.spans)?, SPAN_LEN)?,
            runs: next(n(c.runs)?, RUN_LEN)?,
            records: next(records, 1)?,
            channels: next(n(c.channels)?, WEIGHTS_LEN)?,
            floats: next(n(c.floats)?, 4)?,
            total: 0,
        };
        if u32::try_from(next_at).is_err() {
            return Err(AssetError::TooLarge);
        }
        Ok(Self {
            total: next_at,
            ..s
        })
    }

    /// The layout of the morph section whose counts `bytes` holds at `at`.
    pub fn read(bytes: &[u8], at: usize) -> Result<Self, AssetError> {
        let needed = at + MORPH_COUNTS_LEN;
        let Some(b) = bytes.get(at..needed) else {
            return Err(AssetError::Truncated {
                needed,
                len: bytes.len(),
            });
        };
        let c = MorphCounts {
            sets: u16_at(b, 0),
            targets: u16_at(b, 2),
            runs: u32_at(b, 4),
            spans: u32_at(b, 8),
            records: u32_at(b, 12),
            entries: u32_at(b, 16),
            channels: u32_at(b, 20),
            floats: u32_at(b, 24),
        };
        Self::new(at, c)
    }
}

impl MorphParts<'_> {
    /// The counts, checking what the layout cannot express.
    pub(crate) fn counts(&self) -> Result<MorphCounts, AssetError> {
        let big = |_| AssetError::TooLarge;
        let same = |what, expected, actual| match expected == actual {
            true => Ok(()),
            false => Err(AssetError::Mismatch {
                what,
                expected,
                actual,
            }),
        };
        let (mut targets, mut spans, mut entries) = (0usize, 0usize, 0usize);
        let (mut runs, mut records) = (0usize, 0usize);
        for set in self.sets {
            same(Field::MorphSet, set.targets.len(), set.defaults.len())?;
            for t in set.targets {
                same(Field::MorphSpan, usize::from(set.parts), t.spans.len())?;
                for s in t.spans {
                    same(Field::MorphEntry, s.vertices.len(), s.positions.len())?;
                    if !s.normals.is_empty() {
                        same(Field::MorphEntry, s.vertices.len(), s.normals.len())?;
                    }
                    entries = entries
                        .checked_add(s.vertices.len())
                        .ok_or(AssetError::TooLarge)?;
                }
                spans += t.spans.len();
            }
            for p in 0..usize::from(set.parts) {
                records += moved(set.targets, p).count();
            }
            runs += usize::from(set.parts);
            targets += set.targets.len();
        }
        let mut floats = 0usize;
        for ch in self.channels {
            floats = floats
                .checked_add(ch.times.len() + ch.values.len())
                .ok_or(AssetError::TooLarge)?;
        }
        Ok(MorphCounts {
            sets: u16::try_from(self.sets.len()).map_err(big)?,
            targets: u16::try_from(targets).map_err(big)?,
            runs: u32::try_from(runs).map_err(big)?,
            spans: u32::try_from(spans).map_err(big)?,
            records: u32::try_from(records).map_err(big)?,
            entries: u32::try_from(entries).map_err(big)?,
            channels: u32::try_from(self.channels.len()).map_err(big)?,
            floats: u32::try_from(floats).map_err(big)?,
        })
    }

    /// Write the section laid out as `m` into `out` (the whole asset, zeroed), the spans'
    /// reaches from the base vertices of `parts`, the targets' entries regrouped per moved
    /// vertex. The reader checks everything else.
    pub(crate) fn put<L: AssetLane>(
        &self,
        parts: &AssetParts<'_, L>,
        m: &MorphSections,
        out: &mut [u8],
    ) -> Result<(), AssetError> {
        let c = m.counts;
        let head = &mut out[m.head.0..m.head.1];
        head[..2].copy_from_slice(&c.sets.to_le_bytes());
        head[2..4].copy_from_slice(&c.targets.to_le_bytes());
        let words = [c.runs, c.spans, c.records, c.entries, c.channels, c.floats];
        for (i, v) in words.into_iter().enumerate() {
            head[4 + 4 * i..8 + 4 * i].copy_from_slice(&v.to_le_bytes());
        }
        let (mut target, mut span, mut run, mut at) = (0usize, 0usize, 0usize, 0usize);
        // The first vertex of part `j`.
        let start_of = |j: usize| -> usize {
            parts
                .parts
                .iter()
                .take(j)
                .map(|x| x.vertices as usize)
                .sum()
        };
        for (i, set) in self.sets.iter().enumerate() {
            let rec = &mut out[m.sets.0 + SET_LEN * i..][..SET_LEN];
            rec[..2].copy_from_slice(&set.first_part.to_le_bytes());
            rec[2..4].copy_from_slice(&set.parts.to_le_bytes());
            let targets = u16::try_from(set.targets.len()).map_err(|_| AssetError::TooLarge)?;
            rec[4..6].copy_from_slice(&targets.to_le_bytes());
            for (t, (w, q)) in set.defaults.iter().zip(set.targets).enumerate() {
                out[m.defaults.0 + 4 * (target + t)..][..4].copy_from_slice(&w.to_le_bytes());
                let rec = &mut out[m.targets.0 + TARGET_LEN * (target + t)..][..TARGET_LEN];
                rec[0] = q.position_exponent.to_le_bytes()[0];
                rec[1] = q.normal_exponent.to_le_bytes()[0];
            }
            let first = usize::from(set.first_part);
            for p in 0..usize::from(set.parts) {
                let base = start_of(first + p);
                for q in set.targets {
                    let most = |ds: &[[i16; 3]]| {
                        ds.iter()
                            .flatten()
                            .map(|c| c.unsigned_abs())
                            .max()
                            .unwrap_or(0)
                    };
                    let s = &q.spans[p];
                    let reach = |vs: Option<&[[L; 3]]>| {
                        s.vertices
                            .iter()
                            .filter_map(|&v| vs.and_then(|vs| vs.get(base + usize::from(v))))
                            .flatten()
                            .map(|&c| c.to_f32().abs())
                            .fold(0.0f32, f32::max)
                    };
                    let moves =
                        u32::try_from(s.vertices.len()).map_err(|_| AssetError::TooLarge)?;
                    let rec = &mut out[m.spans.0 + SPAN_LEN * span..][..SPAN_LEN];
                    rec[..4].copy_from_slice(&moves.to_le_bytes());
                    rec[4..8].copy_from_slice(&reach(Some(parts.positions)).to_le_bytes());
                    rec[8..12].copy_from_slice(&reach(parts.normals).to_le_bytes());
                    rec[12..14].copy_from_slice(&most(s.positions).to_le_bytes());
                    rec[14..16].copy_from_slice(&most(s.normals).to_le_bytes());
                    span += 1;
                }
                for v in moved(set.targets, p) {
                    let records = &mut out[m.records.0..m.records.1];
                    at = put_record(records, at, set.targets, p, v)?;
                }
                let end = u32::try_from(at).map_err(|_| AssetError::TooLarge)?;
                out[m.runs.0 + RUN_LEN * run..][..RUN_LEN].copy_from_slice(&end.to_le_bytes());
                run += 1;
            }
            target += set.targets.len();
        }
        let mut float = 0;
        for (i, ch) in self.channels.iter().enumerate() {
            let rec = &mut out[m.channels.0 + WEIGHTS_LEN * i..][..WEIGHTS_LEN];
            rec[..2].copy_from_slice(&ch.clip.to_le_bytes());
            rec[2..4].copy_from_slice(&ch.set.to_le_bytes());
            rec[4] = interpolation_code(ch.interpolation);
            let keys = u32::try_from(ch.times.len()).map_err(|_| AssetError::TooLarge)?;
            rec[8..12].copy_from_slice(&keys.to_le_bytes());
            for v in ch.times.iter().chain(ch.values) {
                out[m.floats.0 + 4 * float..][..4].copy_from_slice(&v.to_le_bytes());
                float += 1;
            }
        }
        Ok(())
    }
}

/// The vertices any of `targets` moves in their part `p`, increasing, each once.
fn moved<'s>(targets: &'s [QuantisedTarget<'s>], p: usize) -> impl Iterator<Item = u16> + 's {
    let mut last: Option<u16> = None;
    core::iter::from_fn(move || {
        let after = |v: u16| last.is_none_or(|l| v > l);
        let next = targets
            .iter()
            .filter_map(|t| {
                let vs = t.spans.get(p)?.vertices;
                let i = last.map_or(0, |l| vs.partition_point(|&v| v <= l));
                vs.get(i).copied().filter(|&v| after(v))
            })
            .min()?;
        last = Some(next);
        Some(next)
    })
}

/// Write at byte `at` of `records` vertex `v`'s record: its head, then an entry per target
/// of `targets` moving it in part `p`, in target order; the byte after it. Entries the
/// spans do not hold in order are left out (the reader then rejects the counts).
fn put_record(
    records: &mut [u8],
    at: usize,
    targets: &[QuantisedTarget<'_>],
    p: usize,
    v: u16,
) -> Result<usize, AssetError> {
    let found = |t: &QuantisedTarget<'_>| {
        let s = t.spans.get(p)?;
        let k = s.vertices.binary_search(&v).ok()?;
        Some((s.positions.get(k).copied()?, s.normals.get(k).copied()))
    };
    let n = targets.iter().filter_map(found).count();
    let end = at + HEAD_LEN + ENTRY_LEN * n;
    let out = records.get_mut(at..end).ok_or(AssetError::TooLarge)?;
    out[..2].copy_from_slice(&v.to_le_bytes());
    let count = u16::try_from(n).map_err(|_| AssetError::TooLarge)?;
    out[2..4].copy_from_slice(&count.to_le_bytes());
    let entries = targets
        .iter()
        .enumerate()
        .filter_map(|(t, q)| Some((t, found(q)?)));
    for (i, (t, (pd, nd))) in entries.enumerate() {
        let e = &mut out[HEAD_LEN + ENTRY_LEN * i..][..ENTRY_LEN];
        let last = if i + 1 == n { LAST_ENTRY } else { 0 };
        let t = u16::try_from(t).map_err(|_| AssetError::TooLarge)?;
        let values = pd.into_iter().chain(nd.unwrap_or([0; 3]));
        for (j, c) in values.enumerate() {
            e[2 * j..2 * j + 2].copy_from_slice(&c.to_le_bytes());
        }
        e[12..14].copy_from_slice(&last.to_le_bytes());
        e[14..16].copy_from_slice(&t.to_le_bytes());
    }
    Ok(end)
}

/// The header flag of an asset with a morph section.
pub(crate) const fn flag(morphs: bool) -> u16 {
    if morphs {
        FLAG_MORPHS
    } else {
        0
    }
}
