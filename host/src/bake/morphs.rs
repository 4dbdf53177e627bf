//! The asset's morph targets: one set per mesh node whose mesh has targets, over the
//! node's parts; each target's deltas quantised ([`skin_core::morph::quantised`], one
//! exponent per target for positions and one for normals, over all the node's parts) and
//! kept sparse — per part only the vertices whose quantised deltas are not all zero; the
//! node's default weights; and each baked clip's weight channels, keys as in the file.

use skin_core::asset::{MorphParts, MorphSet, QuantisedTarget, Span, WeightChannel};
use skin_core::clip::Interpolation;
use skin_core::morph::quantised::{exponent, quantise};

use super::draws::Draw;
use super::error::BakeError;
use crate::pose::morph::weights;
use crate::pose::units::to_asset;
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
    /// The targets of `draws` (in asset part order), deltas in asset units `2^k`, normal
    /// deltas when the asset stores normals; weight channels of the baked `clips`.
    pub fn new(
        rig: &Rig,
        draws: &[Draw],
        clips: &[usize],
        k: i32,
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
                        .map(|t| quantised_target(rig, run, t, k, normals))
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
    k: i32,
    normals: bool,
) -> Result<TargetData, BakeError> {
    let s = to_asset(k);
    let target = |d: &Draw| -> &Target {
        &rig.meshes[d.source.mesh].primitives[d.source.primitive].targets[t]
    };
    let most = |deltas: fn(&Target) -> Option<&Vec<[f32; 3]>>, scale: f32| {
        run.iter()
            .filter_map(|d| deltas(target(d)))
            .flatten()
            .flatten()
            .map(|c| (c * scale).abs())
            .fold(0.0f32, f32::max)
    };
    let src = &run[0].source;
    let exp = |m: f32, what: &str| {
        exponent(m).ok_or_else(|| {
            BakeError::Capacity(format!(
                "node {} mesh {} morph target {t}: a {what} delta of {m} asset units is beyond \
                 the ±32767 a quantised delta holds",
                src.node, src.mesh
            ))
        })
    };
    let position_exponent = exp(most(|t| t.positions.as_ref(), s), "position")?;
    let normal_exponent = if normals {
        exp(most(|t| t.normals.as_ref(), 1.0), "normal")?
    } else {
        0
    };
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
