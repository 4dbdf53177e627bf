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
        let active = self.active(&morphs, &set, scratch.time)?;
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
    /// for the set in the played clip), the largest kept.
    fn active(
        &self,
        morphs: &Morphs<'_, L>,
        set: &MorphSetView,
        t: Option<f32>,
    ) -> Result<Active<L, ACTIVE_TARGETS>, Error> {
        let clip = self.clip.zip(t).and_then(|(clip, t)| {
            let channel = morphs.weights(0, set)?;
            Some(channel.at(Wrap::Loop.time(t, clip.duration())))
        });
        let first = set.targets.start;
        Active::select_from(set.targets.clone().map(|target| match &clip {
            Some(at) => at.weight(target - first),
            None => morphs.default_weight(target),
        }))
    }
}

/// The coordinates the active targets could reach in part `part`, within the lane's range:
/// for positions and for normals, the largest base |coordinate| among the vertices they
/// move plus, per target, `(|w| + r)·|delta|max + r` (`r` the lane's rounding of a weight
/// and of a product).
fn check_reach<L: AssetLane>(
    morphs: &Morphs<'_, L>,
    set: &MorphSetView,
    part: usize,
    active: &Active<L, ACTIVE_TARGETS>,
) -> Result<(), Error> {
    let r = f64::from(L::ROUNDING);
    let (mut base, mut moved) = ((0.0f64, 0.0f64), (0.0f64, 0.0f64));
    for (t, w) in active.targets() {
        let target = set.targets.start + t;
        let span = morphs.span(set, part, target);
        let scale = morphs.scale(target);
        base.0 = base.0.max(f64::from(span.position_reach));
        base.1 = base.1.max(f64::from(span.normal_reach));
        let w = f64::from(w.abs()) + r;
        let most = |q: u16, e: i8| f64::from(quantised::dequantise(q as i16, e));
        moved.0 += w * most(span.position_most, scale.position_exponent) + r;
        moved.1 += w * most(span.normal_most, scale.normal_exponent) + r;
    }
    let reach = (base.0 + moved.0).max(base.1 + moved.1);
    if reach > f64::from(L::LIMIT) {
        return Err(Error::MorphReach {
            reach: reach as f32,
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
            let mut k = 0;
            for v in cursor.vertices.chunks_exact(2) {
                let v = usize::from(u16::from_le_bytes([v[0], v[1]]));
                // Entries are sorted (checked on reading): the rest are in later chunks.
                if v >= end {
                    break;
                }
                let (Some(p), Some(q)) = (
                    positions.get_mut(v - start),
                    cursor.positions.get(6 * k..6 * k + 6),
                ) else {
                    break;
                };
                nudge(p, cursor.position, q);
                if let (Some(n), Some(q)) = (
                    normals.as_deref_mut().and_then(|n| n.get_mut(v - start)),
                    cursor.normals.get(6 * k..6 * k + 6),
                ) {
                    nudge(n, cursor.normal, q);
                }
                k += 1;
            }
            cursor.vertices = cursor.vertices.get(2 * k..).unwrap_or(&[]);
            cursor.positions = cursor.positions.get(6 * k..).unwrap_or(&[]);
            cursor.normals = cursor.normals.get(6 * k..).unwrap_or(&[]);
        }
    }
}

/// `v += s·q` for a stored quantised delta `q` (three little-endian `i16`).
#[inline(always)]
fn nudge<L: MorphLane>(v: &mut [L; 3], s: L::Step, q: &[u8]) {
    for (i, c) in v.iter_mut().enumerate() {
        *c = L::nudge_quantised(*c, s, i16::from_le_bytes([q[2 * i], q[2 * i + 1]]));
    }
}
