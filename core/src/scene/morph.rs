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
//! the loop cannot overflow; then each active target walks its sorted entries alongside the
//! chunks, so a frame costs per moved vertex of each active target.

use super::{Scene, Scratch};
use crate::asset::{AssetLane, MorphSetView, Morphs};
use crate::clip::Wrap;
use crate::error::Error;
use crate::morph::{quantised, Active, MorphLane, ACTIVE_TARGETS};
use crate::raster::{Project, RasterError};
#[cfg(skin_asm_v7em)]
use crate::skin::nudge_q14;
#[cfg(skin_asm_fixed)]
use crate::{lane::Q14, skin::records};

/// What the reach check adds for the rounding of its own `f32` sum. Only a sum near the
/// fixed lane's limit of 2 matters, and then every term and partial sum (all non-negative)
/// is below 2, so each of its at most 40 roundings (8 targets) is within 2⁻²⁴: under 2⁻¹⁸
/// in all, well within this margin.
const REACH_MARGIN: f32 = 1.0 / 16384.0;

/// One active target's entries in a part, walked chunk by chunk.
#[derive(Clone, Copy, Debug)]
struct Cursor<'a, L: MorphLane> {
    vertices: &'a [u8],
    positions: &'a [u8],
    normals: &'a [u8],
    position: L::Step,
    normal: L::Step,
}

/// A part's active targets for this frame.
#[derive(Clone, Copy, Debug)]
pub(super) struct PartMorph<'a, L: MorphLane> {
    cursors: [Option<Cursor<'a, L>>; ACTIVE_TARGETS],
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
        let mut cursors = [None; ACTIVE_TARGETS];
        for (c, (t, w)) in cursors.iter_mut().zip(active.lane_weights()) {
            let target = set.targets.start + t;
            let span = morphs.span(&set, part, target);
            let scale = morphs.scale(target);
            let [vertices, positions, normals] = morphs.entry_bytes(span.entries);
            *c = Some(Cursor {
                vertices,
                positions,
                normals,
                position: L::step(w, scale.position_exponent),
                normal: L::step(w, scale.normal_exponent),
            });
        }
        Ok((Some(PartMorph { cursors }), dropped))
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
    /// long as the chunk) by every active target's entries in it.
    #[inline]
    pub(super) fn apply(
        &mut self,
        start: usize,
        positions: &mut [[L; 3]],
        mut normals: Option<&mut [[L; 3]]>,
    ) {
        let end = start + positions.len();
        for cursor in self.cursors.iter_mut().flatten() {
            let s = (cursor.position, cursor.normal);
            let normals = normals.as_deref_mut();
            // Entries are sorted (checked on reading): those of this chunk come first.
            #[cfg(skin_asm_fixed)]
            if let (Some(v), Some(p), Some(n)) = (
                records::<u16>(cursor.vertices),
                records::<[Q14; 3]>(cursor.positions),
                records::<[Q14; 3]>(cursor.normals),
            ) {
                // In place (2-byte aligned little-endian records, as the firmware embeds).
                let k = v.partition_point(|&v| usize::from(v) < end);
                let (v, p) = (&v[..k], &p[..k]);
                #[cfg(skin_asm_v7em)]
                if let Some((coords, step)) = L::as_fixed(positions, s.0) {
                    // The Cortex-M4's loop, positions then normals: an entry moves both
                    // or neither, as below (`len` the shorter chunk).
                    let n = n.get(..k).zip(normals);
                    let len = n.as_ref().map_or(coords.len(), |(_, m)| m.len());
                    let len = coords.len().min(len);
                    nudge_q14(&mut coords[..len], start, v, p, step);
                    if let Some((n, normals)) = n {
                        if let Some((normals, step)) = L::as_fixed(normals, s.1) {
                            nudge_q14(&mut normals[..len], start, v, n, step);
                        }
                    }
                    cursor.advance(k);
                    continue;
                }
                let bits = |d: &[Q14; 3]| d.map(Q14::to_bits);
                match n.get(..k) {
                    Some(n) => {
                        let entries = v.iter().zip(p).zip(n);
                        let entries = entries.map(|((&v, p), n)| (v, bits(p), bits(n)));
                        nudge_run(positions, normals, start, entries, s);
                    }
                    None => {
                        let entries = v.iter().zip(p).map(|(&v, p)| (v, bits(p), [0; 3]));
                        nudge_run(positions, None, start, entries, s);
                    }
                }
                cursor.advance(k);
                continue;
            }
            let k = cursor
                .vertices
                .chunks_exact(2)
                .take_while(|v| usize::from(u16::from_le_bytes([v[0], v[1]])) < end)
                .count();
            let n = cursor.normals;
            let entries = (cursor
                .vertices
                .chunks_exact(2)
                .zip(cursor.positions.chunks_exact(6)))
            .take(k)
            .enumerate()
            .map(|(i, (v, p))| {
                let n = n.get(6 * i..6 * i + 6).map_or([0; 3], i16s);
                (u16::from_le_bytes([v[0], v[1]]), i16s(p), n)
            });
            nudge_run(positions, normals, start, entries, s);
            cursor.advance(k);
        }
    }
}

impl<L: MorphLane> Cursor<'_, L> {
    /// Past its next `k` entries.
    fn advance(&mut self, k: usize) {
        self.vertices = self.vertices.get(2 * k..).unwrap_or(&[]);
        self.positions = self.positions.get(6 * k..).unwrap_or(&[]);
        self.normals = self.normals.get(6 * k..).unwrap_or(&[]);
    }
}

/// Three little-endian `i16`.
fn i16s(b: &[u8]) -> [i16; 3] {
    core::array::from_fn(|i| i16::from_le_bytes([b[2 * i], b[2 * i + 1]]))
}

/// `positions[v − start] += s.0·q` (and `normals[v − start] += s.1·n`) for each entry
/// `(v, q, n)`: its vertex, in `start..start + positions.len()`, and quantised deltas.
/// Not inlined: the loop keeps its registers to itself.
#[inline(never)]
fn nudge_run<L: MorphLane>(
    positions: &mut [[L; 3]],
    normals: Option<&mut [[L; 3]]>,
    start: usize,
    entries: impl Iterator<Item = (u16, [i16; 3], [i16; 3])>,
    s: (L::Step, L::Step),
) {
    match normals {
        Some(normals) => {
            for (v, q, n) in entries {
                let v = usize::from(v) - start;
                if let (Some(o), Some(m)) = (positions.get_mut(v), normals.get_mut(v)) {
                    nudge(o, s.0, q);
                    nudge(m, s.1, n);
                }
            }
        }
        None => {
            for (v, q, _) in entries {
                if let Some(o) = positions.get_mut(usize::from(v) - start) {
                    nudge(o, s.0, q);
                }
            }
        }
    }
}

/// `v += s·q` for a quantised delta `q`.
#[inline(always)]
fn nudge<L: MorphLane>(v: &mut [L; 3], s: L::Step, q: [i16; 3]) {
    for (c, q) in v.iter_mut().zip(q) {
        *c = L::nudge_quantised(*c, s, q);
    }
}
