//! The asset's morph targets: one set per mesh node whose mesh has targets, over the
//! node's parts; each target's deltas quantised ([`skin_core::morph::quantised`], one
//! exponent per target for positions and one for normals, over all the node's parts) and
//! kept sparse — per part only the vertices whose quantised deltas are not all zero; the
//! node's default weights; and each baked clip's weight channels, keys as in the file.

use skin_core::asset::{MorphParts, MorphSet, QuantisedTarget, Span, WeightChannel};
use skin_core::clip::Interpolation;
use std::ops::RangeInclusive;

use skin_core::lane::Q14;
use skin_core::morph::quantised::{dequantise, exponent_in, quantise};
use skin_core::morph::MorphLane;

use super::draws::Draw;
use super::error::BakeError;
use crate::pose::morph::weights;
use crate::pose::units::to_asset;
use crate::pose::LaneKind;
use crate::rig::{Rig, Target};

/// A target's entries in one part.
struct SpanData {
    vertices: Vec<u16>,
    positions: Vec<[i16; 3]>,
    normals: Vec<[i16; 3]>,
}

/// A quantised target over a set's parts.
struct TargetData {
    position_exponent: i8,
    normal_exponent: i8,
    spans: Vec<SpanData>,
}

/// One mesh node's targets over its parts.
struct SetData {
    first_part: u16,
    parts: u16,
    defaults: Vec<f32>,
    targets: Vec<TargetData>,
}

/// A clip's channel of a set's weights.
struct ChannelData {
    clip: u16,
    set: u16,
    interpolation: Interpolation,
    times: Vec<f32>,
    values: Vec<f32>,
}

/// Every morph target the asset holds.
pub struct Morphs {
    sets: Vec<SetData>,
    channels: Vec<ChannelData>,
}

impl Morphs {
    /// The targets of `draws` (in asset part order), deltas in asset units `2^k` quantised
    /// with exponents in `range` (the lane's), normal deltas when the asset stores normals;
    /// weight channels of the baked `clips`.
    pub fn new(
        rig: &Rig,
        draws: &[Draw],
        clips: &[usize],
        (k, range): (i32, RangeInclusive<i8>),
        normals: bool,
    ) -> Result<Self, BakeError> {
        let defaults = weights(rig, None);
        let mut sets: Vec<SetData> = Vec::new();
        let mut nodes: Vec<usize> = Vec::new();
        let mut first = 0;
        while first < draws.len() {
            let (node, mesh) = (draws[first].source.node, draws[first].source.mesh);
            let parts = draws[first..]
                .iter()
                .take_while(|d| d.source.node == node)
                .count();
            let run = &draws[first..first + parts];
            if rig.meshes[mesh].targets() > 0 {
                let part_index = |i: usize| {
                    u16::try_from(i).map_err(|_| {
                        BakeError::Capacity(format!(
                            "node {node} has morph targets on part {i}, beyond the 65536 parts \
                             a morph set may name"
                        ))
                    })
                };
                sets.push(SetData {
                    first_part: part_index(first)?,
                    parts: part_index(parts)?,
                    defaults: defaults[node].clone(),
                    targets: (0..rig.meshes[mesh].targets())
                        .map(|t| quantised_target(rig, run, t, (k, range.clone()), normals))
                        .collect::<Result<_, _>>()?,
                });
                nodes.push(node);
            }
            first += parts;
        }
        let mut channels = Vec::new();
        for (ci, &c) in clips.iter().enumerate() {
            for (si, &node) in nodes.iter().enumerate() {
                for ch in rig.clips[c].weights.iter().filter(|ch| ch.node == node) {
                    channels.push(ChannelData {
                        clip: u16::try_from(ci).map_err(|_| {
                            BakeError::Capacity(format!("clip {ci} is beyond 65536 clips"))
                        })?,
                        set: si as u16,
                        interpolation: ch.interpolation,
                        times: ch.times.clone(),
                        values: ch.values.clone(),
                    });
                }
            }
        }
        Ok(Self { sets, channels })
    }

    /// The moved vertices (a record each: the vertices some target of a set moves in a
    /// part) and the entries (a target's deltas at one of them) the asset stores.
    pub fn records(&self) -> (usize, usize) {
        let mut records = 0;
        for set in &self.sets {
            for p in 0..usize::from(set.parts) {
                let moved: std::collections::BTreeSet<u16> = set
                    .targets
                    .iter()
                    .flat_map(|t| t.spans[p].vertices.iter().copied())
                    .collect();
                records += moved.len();
            }
        }
        let entries = self.sets.iter().flat_map(|s| &s.targets);
        let entries = entries
            .flat_map(|t| &t.spans)
            .map(|s| s.vertices.len())
            .sum();
        (records, entries)
    }

    /// `f` given the writer's view of the targets (`None` without any).
    pub fn with_parts<R>(&self, f: impl FnOnce(Option<&MorphParts<'_>>) -> R) -> R {
        if self.sets.is_empty() {
            return f(None);
        }
        let spans: Vec<Vec<Vec<Span<'_>>>> = self
            .sets
            .iter()
            .map(|s| {
                s.targets
                    .iter()
                    .map(|t| {
                        t.spans
                            .iter()
                            .map(|s| Span {
                                vertices: &s.vertices,
                                positions: &s.positions,
                                normals: &s.normals,
                            })
                            .collect()
                    })
                    .collect()
            })
            .collect();
        let targets: Vec<Vec<QuantisedTarget<'_>>> = self
            .sets
            .iter()
            .zip(&spans)
            .map(|(s, spans)| {
                s.targets
                    .iter()
                    .zip(spans)
                    .map(|(t, spans)| QuantisedTarget {
                        position_exponent: t.position_exponent,
                        normal_exponent: t.normal_exponent,
                        spans,
                    })
                    .collect()
            })
            .collect();
        let sets: Vec<MorphSet<'_>> = self
            .sets
            .iter()
            .zip(&targets)
            .map(|(s, targets)| MorphSet {
                first_part: s.first_part,
                parts: s.parts,
                defaults: &s.defaults,
                targets,
            })
            .collect();
        let channels: Vec<WeightChannel<'_>> = self
            .channels
            .iter()
            .map(|c| WeightChannel {
                clip: c.clip,
                set: c.set,
                interpolation: c.interpolation,
                times: &c.times,
                values: &c.values,
            })
            .collect();
        f(Some(&MorphParts {
            sets: &sets,
            channels: &channels,
        }))
    }
}

/// Target `t` of the parts `run` (one mesh node's), quantised with one exponent for its
/// positions and one for its normals over all of them.
fn quantised_target(
    rig: &Rig,
    run: &[Draw],
    t: usize,
    (k, range): (i32, RangeInclusive<i8>),
    normals: bool,
) -> Result<TargetData, BakeError> {
    let s = to_asset(k);
    let target = |d: &Draw| -> &Target {
        &rig.meshes[d.source.mesh].primitives[d.source.primitive].targets[t]
    };
    let src = &run[0].source;
    let at = (src.node, src.mesh);
    let (position_exponent, normal_exponent) = exponents(rig, at, t, (k, range), normals)?;
    let spans = run
        .iter()
        .map(|d| {
            let target = target(d);
            let mut span = SpanData {
                vertices: Vec::new(),
                positions: Vec::new(),
                normals: Vec::new(),
            };
            for (local, &v) in d.source.vertices.iter().enumerate() {
                let v = v as usize;
                let q = |ds: Option<&Vec<[f32; 3]>>, scale: f32, e: i8| -> [i16; 3] {
                    ds.and_then(|ds| ds.get(v))
                        .map_or([0; 3], |d| d.map(|c| quantise(c * scale, e)))
                };
                let p = q(target.positions.as_ref(), s, position_exponent);
                let n = if normals {
                    q(target.normals.as_ref(), 1.0, normal_exponent)
                } else {
                    [0; 3]
                };
                if p != [0; 3] || n != [0; 3] {
                    span.vertices.push(local as u16);
                    span.positions.push(p);
                    if normals {
                        span.normals.push(n);
                    }
                }
            }
            span
        })
        .collect();
    Ok(TargetData {
        position_exponent,
        normal_exponent,
        spans,
    })
}

/// The exponents of target `t` of the mesh that `node` draws (`mesh`), within `range`: one
/// for its position deltas in asset units `2^k` and one for its normal deltas (0 without
/// `normals`), each over every primitive of the mesh (a node's parts are all its mesh's
/// primitives).
fn exponents(
    rig: &Rig,
    (node, mesh): (usize, usize),
    t: usize,
    (k, range): (i32, RangeInclusive<i8>),
    normals: bool,
) -> Result<(i8, i8), BakeError> {
    let most = |deltas: fn(&Target) -> Option<&Vec<[f32; 3]>>, scale: f32| {
        rig.meshes[mesh]
            .primitives
            .iter()
            .filter_map(|p| deltas(&p.targets[t]))
            .flatten()
            .flatten()
            .map(|c| (c * scale).abs())
            .fold(0.0f32, f32::max)
    };
    let exp = |m: f32, what: &str| {
        exponent_in(m, range.clone()).ok_or_else(|| {
            let most = 32767.0 * 2f32.powi(-i32::from(*range.start()));
            BakeError::Capacity(format!(
                "node {node} mesh {mesh} morph target {t}: a {what} delta of {m} asset units \
                 is beyond the ±{most} a quantised delta holds in this lane (exponents \
                 {range:?})"
            ))
        })
    };
    let position = exp(most(|t| t.positions.as_ref(), to_asset(k)), "position")?;
    let normal = match normals {
        true => exp(most(|t| t.normals.as_ref(), 1.0), "normal")?,
        false => 0,
    };
    Ok((position, normal))
}

/// The exponents a lane's quantised targets may have ([`MorphLane::EXPONENTS`]).
pub fn lane_exponents(lane: LaneKind) -> RangeInclusive<i8> {
    match lane {
        LaneKind::F32 => <f32 as MorphLane>::EXPONENTS,
        LaneKind::Fixed => <Q14 as MorphLane>::EXPONENTS,
    }
}

/// `rig` with each drawn mesh's morph-target deltas replaced by what an asset of `lane` in
/// units `2^k` stores for them: quantised with the baker's exponents, then turned back into model
/// units (exactly: `q·2⁻ᵉ` times a power of two), normal deltas dropped where the asset
/// stores no normals. Drawn with these, the GPU moves each vertex as the asset's player
/// does, up to the rounding of the sums (`skin validate`'s pictures).
///
/// ```
/// # use skin_host::rig::{Mesh, Mode, Node, Primitive, Rig, Target, Trs};
/// let prim = Primitive { mode: Mode::Triangles, positions: vec![[0.0; 3], [1.0, 0.0, 0.0],
///     [0.0, 1.0, 0.0]], normals: Some(vec![[0.0, 0.0, 1.0]; 3]), tangents: None,
///     indices: None, influences: None, max_influences: 0, largest_dropped: 0.0,
///     targets: vec![Target { positions: Some(vec![[0.3, 0.0, 0.0], [0.1, 0.0, 0.0], [0.0; 3]]),
///     normals: None }] };
/// let node = Node { name: None, parent: None, local: Trs::IDENTITY, mesh: Some(0), skin: None,
///     weights: None };
/// let rig = Rig { nodes: vec![node], order: vec![0], skins: vec![], warnings: vec![],
///     meshes: vec![Mesh { name: None, primitives: vec![prim], weights: vec![1.0],
///     target_names: vec![] }], clips: vec![] };
/// let stored = skin_host::bake::dequantised(&rig, 0, skin_host::pose::LaneKind::F32)?;
/// // 0.3 has the exponent 16 (0.3·2¹⁶ = 19660.8 → 19661): stored as 19661·2⁻¹⁶.
/// let d = stored.meshes[0].primitives[0].targets[0].positions.as_ref().unwrap();
/// assert_eq!(d[0][0], 19661.0 / 65536.0);
/// assert_eq!(d[1][0], 6554.0 / 65536.0);
/// # Ok::<(), skin_host::bake::BakeError>(())
/// ```
pub fn dequantised(rig: &Rig, k: i32, lane: LaneKind) -> Result<Rig, BakeError> {
    let normals = rig
        .mesh_nodes()
        .all(|(_, m, _)| rig.meshes[m].primitives.iter().all(|p| p.normals.is_some()));
    let s = to_asset(k);
    let mut out = rig.clone();
    let mut done = vec![false; rig.meshes.len()];
    for (node, mesh, _) in rig.mesh_nodes() {
        if std::mem::replace(&mut done[mesh], true) {
            continue;
        }
        for t in 0..rig.meshes[mesh].targets() {
            let range = lane_exponents(lane);
            let (pe, ne) = exponents(rig, (node, mesh), t, (k, range), normals)?;
            for prim in &mut out.meshes[mesh].primitives {
                let target = &mut prim.targets[t];
                let back =
                    |c: f32, scale: f32, e: i8| dequantise(quantise(c * scale, e), e) / scale;
                for d in target.positions.iter_mut().flatten() {
                    *d = d.map(|c| back(c, s, pe));
                }
                match normals {
                    true => target
                        .normals
                        .iter_mut()
                        .flatten()
                        .for_each(|d| *d = d.map(|c| back(c, 1.0, ne))),
                    false => target.normals = None,
                }
            }
        }
    }
    Ok(out)
}
