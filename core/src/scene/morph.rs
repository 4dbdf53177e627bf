//! Deform: a part's morph targets at the frame's weights, applied to each chunk of its
//! vertices after they are copied into the [`Scratch`](super::Scratch) and before they are
//! skinned.
//!
//! Per part, once a frame: the weights of the part's set (its mesh node's targets) —
//! sampled from the played clip's channel for the set at the frame's time, else the stored
//! defaults — and [`Active`] keeps the [`ACTIVE_TARGETS`] of largest |weight|, reporting
//! the |weight| it dropped. With none active the part is skinned as stored, at no extra cost
//! per vertex. Else, before the loop, the fixed lane's range is checked for the worst
//! vertex the active targets could move (the spans' stored reaches and largest deltas), so
//! the loop cannot overflow; then the part's records — one per moved vertex, with an entry
//! per target moving it — are walked alongside the chunks: each moved vertex is loaded and
//! stored once, its active targets' deltas added in between ([`MorphLane::add_quantised`],
//! in target order; the fixed lane sums them and rounds once), its inactive targets'
//! entries passed over.

use super::{Scene, Scratch};
use crate::asset::{AssetLane, MorphSetView, Morphs, MORPH_ENTRY_LEN as ENTRY_LEN};
use crate::clip::Wrap;
use crate::error::Error;
use crate::morph::{quantised, Active, MorphLane, ACTIVE_TARGETS};
use crate::raster::{Project, RasterError};
#[cfg(skin_asm_v7em)]
use crate::skin::{morph_q14, MorphTable};

/// What the reach check adds for the rounding of its own `f32` sum. Only a sum near the
/// fixed lane's limit of 2 matters, and then every term and partial sum (all non-negative)
/// is below 2, so each of its at most 40 roundings (8 targets) is within 2⁻²⁴: under 2⁻¹⁸
/// in all, well within this margin.
const REACH_MARGIN: f32 = 1.0 / 16384.0;

/// A part's active targets for this frame and its records not yet reached.
#[derive(Clone, Copy, Debug)]
pub(super) struct PartMorph<'a, L: MorphLane> {
    run: &'a [u8],
    /// The active targets (within the set), in target order, with their position and
    /// normal steps; the first `len`.
    active: [(usize, L::Step, L::Step); ACTIVE_TARGETS],
    len: usize,
    /// The Cortex-M4's loop's table of every target's steps (0 when inactive), when the set
    /// has few enough targets and the records are word-aligned.
    #[cfg(skin_asm_v7em)]
    table: Option<MorphTable>,
}

impl<L: AssetLane + Project, const N: usize> Scene<'_, L, N> {
    /// The active targets of part `part` at the scratch's time, and the |weight| the
    /// budget dropped; `None` when the part has no active target.
    pub(super) fn part_morph<const C: usize>(
        &self,
        part: usize,
        scratch: &Scratch<L, C>,
    ) -> Result<(Option<PartMorph<'_, L>>, f32), RasterError> {
        let Some(morphs) = self.asset.morphs() else {
            return Ok((None, 0.0));
        };
        let Some(set) = morphs.set_of_part(part) else {
            return Ok((None, 0.0));
        };
        let corrective = |target| self.corrective(scratch, &set, target);
        let active = self.active(&morphs, &set, scratch.time, corrective)?;
        let dropped = active.dropped();
        if active.is_empty() {
            return Ok((None, dropped));
        }
        check_reach(&morphs, &set, part, &active)?;
        let mut steps = [(0, L::Step::default(), L::Step::default()); ACTIVE_TARGETS];
        for (step, (t, w)) in steps.iter_mut().zip(active.lane_weights()) {
            let scale = morphs.scale(set.targets.start + t);
            *step = (
                t,
                L::step(w, scale.position_exponent),
                L::step(w, scale.normal_exponent),
            );
        }
        let run = morphs.run(&set, part);
        let len = active.len();
        Ok((
            Some(PartMorph {
                run,
                active: steps,
                len,
                #[cfg(skin_asm_v7em)]
                table: MorphTable::new::<L>(run, set.targets.len(), &steps[..len]),
            }),
            dropped,
        ))
    }

    /// The set's weights at clip time `t` (the defaults without one, or without a channel
    /// for the set in the played clip; a corrective's from `corrective`), the largest kept.
    fn active(
        &self,
        morphs: &Morphs<'_, L>,
        set: &MorphSetView,
        t: Option<f32>,
        corrective: impl Fn(usize) -> Option<f32>,
    ) -> Result<Active<L, ACTIVE_TARGETS>, Error> {
        let clip = self.clip.zip(t).and_then(|(clip, t)| {
            let channel = morphs.weights(0, set)?;
            Some(channel.at(Wrap::Loop.time(t, clip.duration())))
        });
        let first = set.targets.start;
        Active::select_from(set.targets.clone().map(|target| {
            corrective(target).unwrap_or_else(|| match &clip {
                Some(at) => at.weight(target - first),
                None => morphs.default_weight(target),
            })
        }))
    }
}

/// The coordinates the active targets could reach in part `part`, within the lane's range:
/// for positions and for normals, the largest base |coordinate| among the vertices they
/// move plus, per target, `(|w| + r)·|delta|max + r` (`r` the lane's rounding of a weight
/// and of a product). In `f32` (no double-precision unit on the Cortex-M4F), with
/// [`REACH_MARGIN`] added for the sum's own rounding.
fn check_reach<L: AssetLane>(
    morphs: &Morphs<'_, L>,
    set: &MorphSetView,
    part: usize,
    active: &Active<L, ACTIVE_TARGETS>,
) -> Result<(), Error> {
    let r = L::ROUNDING;
    let (mut base, mut moved) = ((0.0f32, 0.0f32), (0.0f32, 0.0f32));
    for (t, w) in active.targets() {
        let target = set.targets.start + t;
        let span = morphs.span(set, part, target);
        let scale = morphs.scale(target);
        base.0 = base.0.max(span.position_reach);
        base.1 = base.1.max(span.normal_reach);
        let w = w.abs() + r;
        let most = |q: u16, e: i8| f32::from(q) * quantised::scale(e);
        moved.0 += w * most(span.position_most, scale.position_exponent) + r;
        moved.1 += w * most(span.normal_most, scale.normal_exponent) + r;
    }
    let reach = (base.0 + moved.0).max(base.1 + moved.1) + REACH_MARGIN;
    if reach > L::LIMIT {
        return Err(Error::MorphReach {
            reach,
            limit: L::LIMIT,
            format: L::NAME,
        });
    }
    Ok(())
}

impl<L: MorphLane> PartMorph<'_, L> {
    /// Move the chunk of the part's vertices from `start` (`positions` and `normals`, as
    /// long as the chunk) by the active targets' entries of its moved vertices: the records
    /// from where the last chunk stopped up to the first vertex past this chunk.
    #[inline]
    pub(super) fn apply(
        &mut self,
        start: usize,
        positions: &mut [[L; 3]],
        normals: Option<&mut [[L; 3]]>,
    ) {
        // A record moves both or neither: the shorter chunk bounds the vertices.
        let len = normals
            .as_ref()
            .map_or(positions.len(), |n| n.len().min(positions.len()));
        #[cfg(skin_asm_v7em)]
        if let Some(table) = &self.table {
            if let Some(coords) = L::as_fixed(&mut positions[..len]) {
                let normals = normals.and_then(|n| L::as_fixed(&mut n[..len]));
                self.run = morph_q14(self.run, start, coords, normals, table);
                return;
            }
        }
        let (positions, normals) = (&mut positions[..len], normals.map(|n| &mut n[..len]));
        let active = &self.active[..self.len];
        // In place where the records are aligned `i16`s (the firmware's embedded asset on
        // the fixed lane's cores), else decoded from their little-endian bytes.
        #[cfg(skin_asm_fixed)]
        if let Some(halves) = crate::skin::records::<i16>(self.run) {
            let rest: &[i16] = morph_run(halves, start, positions, normals, active);
            let done = 2 * (halves.len() - rest.len());
            self.run = self.run.get(done..).unwrap_or(&[]);
            return;
        }
        let rest = morph_run(Bytes(self.run), start, positions, normals, active);
        self.run = rest.0;
    }
}

/// A run of records: per moved vertex its head (vertex, entries), then per entry 8 halves:
/// the position and normal deltas, flags and target ([`crate::asset::MorphParts`]' layout).
trait Records: Copy {
    /// An entry.
    type Entry: Halves;
    /// The entries of a record.
    type Entries: Iterator<Item = Self::Entry>;
    /// The first record's vertex and entries, and the records after it.
    fn first(self) -> Option<(u16, Self::Entries, Self)>;
}

/// An entry's 8 halves, read when asked for (an inactive target's deltas are not).
trait Halves: Copy {
    /// Half `i` (below 8).
    fn half(self, i: usize) -> i16;
}

impl Halves for &[i16; 8] {
    #[inline(always)]
    fn half(self, i: usize) -> i16 {
        self[i]
    }
}

impl Halves for &[u8; ENTRY_LEN] {
    #[inline(always)]
    fn half(self, i: usize) -> i16 {
        i16::from_le_bytes([self[2 * i], self[2 * i + 1]])
    }
}

/// Records read in place as aligned halves.
impl<'a> Records for &'a [i16] {
    type Entry = &'a [i16; 8];
    type Entries = core::iter::FilterMap<
        core::slice::ChunksExact<'a, i16>,
        fn(&'a [i16]) -> Option<&'a [i16; 8]>,
    >;
    #[inline(always)]
    fn first(self) -> Option<(u16, Self::Entries, Self)> {
        let (head, rest) = (self.get(..2)?, self.get(2..)?);
        let n = 8 * usize::from(head[1] as u16);
        let (entries, rest) = (rest.get(..n)?, rest.get(n..)?);
        let entry: fn(&'a [i16]) -> Option<&'a [i16; 8]> = |e| e.try_into().ok();
        Some((
            head[0] as u16,
            entries.chunks_exact(8).filter_map(entry),
            rest,
        ))
    }
}

/// Records as little-endian bytes.
#[derive(Clone, Copy)]
struct Bytes<'a>(&'a [u8]);

impl<'a> Records for Bytes<'a> {
    type Entry = &'a [u8; ENTRY_LEN];
    type Entries = core::iter::FilterMap<
        core::slice::ChunksExact<'a, u8>,
        fn(&'a [u8]) -> Option<&'a [u8; ENTRY_LEN]>,
    >;
    #[inline(always)]
    fn first(self) -> Option<(u16, Self::Entries, Self)> {
        let (head, rest) = (self.0.get(..4)?, self.0.get(4..)?);
        let n = ENTRY_LEN * usize::from(u16::from_le_bytes([head[2], head[3]]));
        let (entries, rest) = (rest.get(..n)?, rest.get(n..)?);
        let entry: fn(&'a [u8]) -> Option<&'a [u8; ENTRY_LEN]> = |e| e.try_into().ok();
        let v = u16::from_le_bytes([head[0], head[1]]);
        Some((
            v,
            entries.chunks_exact(ENTRY_LEN).filter_map(entry),
            Bytes(rest),
        ))
    }
}

/// The records of `run` whose vertex `v` lies in `start..start + positions.len()`, from
/// the first until one that does not: `positions[v − start]` (and `normals[v − start]`)
/// moved by the entries of the `active` targets (in target order, with their steps); the
/// records after them. Not inlined: the loop keeps its registers to itself.
#[inline(never)]
fn morph_run<L: MorphLane, R: Records>(
    mut run: R,
    start: usize,
    positions: &mut [[L; 3]],
    mut normals: Option<&mut [[L; 3]]>,
    active: &[(usize, L::Step, L::Step)],
) -> R {
    while let Some((v, entries, rest)) = run.first() {
        let local = usize::from(v).wrapping_sub(start);
        let Some(p) = positions.get_mut(local) else {
            break;
        };
        let mut ps = p.map(L::begin);
        let mut a = 0;
        match normals.as_deref_mut().and_then(|m| m.get_mut(local)) {
            Some(m) => {
                let mut ns = m.map(L::begin);
                for e in entries {
                    let Some(&(_, sp, sn)) = find(active, &mut a, e.half(7)) else {
                        continue;
                    };
                    add::<L>(&mut ps, sp, [e.half(0), e.half(1), e.half(2)]);
                    add::<L>(&mut ns, sn, [e.half(3), e.half(4), e.half(5)]);
                }
                *m = ns.map(L::finish);
            }
            None => {
                for e in entries {
                    if let Some(&(_, sp, _)) = find(active, &mut a, e.half(7)) {
                        add::<L>(&mut ps, sp, [e.half(0), e.half(1), e.half(2)]);
                    }
                }
            }
        }
        *p = ps.map(L::finish);
        run = rest;
    }
    run
}

/// The active target `t` (a stored half), searching `active` (in target order) from `a`
/// on, where the previous entry's search stopped (entries are in target order too).
#[inline(always)]
fn find<'s, S>(active: &'s [(usize, S, S)], a: &mut usize, t: i16) -> Option<&'s (usize, S, S)> {
    let t = usize::from(t as u16);
    while active.get(*a).is_some_and(|x| x.0 < t) {
        *a += 1;
    }
    active.get(*a).filter(|x| x.0 == t)
}

/// `sum += s·q` for a quantised delta `q`.
#[inline(always)]
fn add<L: MorphLane>(sum: &mut [L::Sum; 3], s: L::Step, q: [i16; 3]) {
    for (c, q) in sum.iter_mut().zip(q) {
        *c = L::add_quantised(*c, s, q);
    }
}
