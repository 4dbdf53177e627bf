//! The `f64` oracle of `skin validate`: a [`Rig`] posed and skinned in plain `f64`, written
//! from the glTF 2.0 specification and sharing no arithmetic with skin-core, so that the
//! core (both lanes) and the GPU paths are measured against something other than
//! themselves.
//!
//! - node world matrices: `world = parent · T·R·S`, rotations normalised;
//! - animation: STEP holds the previous key, LINEAR lerps (slerps rotations along the
//!   shorter arc, keys normalised first), CUBICSPLINE is the Hermite spline of the glTF
//!   appendix with tangents scaled by the key interval (rotations renormalised); before
//!   the first key the first value, after the last the last;
//! - skinned vertices: `Σ w · W(joint) · IBM · p` over the rig's four influences with the
//!   weights divided by their sum, the skinned node's own transform ignored; normals
//!   blended with the same matrices and renormalised (zero stays zero); tangents
//!   ([`Tangent64`]) likewise, their handedness `w` kept, unmorphed (the importer reads no
//!   `TANGENT` deltas);
//! - meshes without a skin (or primitives without weights): `W(node) · p`;
//! - dual quaternion skinning ([`pose_dqs`], in [`dual`]): each joint matrix as a rotation
//!   quaternion and a translation, blended per vertex as Kavan et al. describe;
//! - morph targets first, in bind space: `p = base + Σ wᵢ·deltaᵢ` (normals likewise, before
//!   the blend renormalises them), the weights the node's, else its mesh's, replaced by a
//!   clip's weights channel sampled as the other channels are.
//!
//! It starts from the rig (the importer's `f32` data), not from the file: the tests check it
//! against `skin_tests::gltf_ref`, which reads the file itself. Its node world matrices are
//! [`crate::rig::world64`]'s.

use crate::rig::world64::{mul, point, unit4, world, Trs64, M34};
use crate::rig::{Channel, Interpolation, Path, Primitive, Rig};

pub mod dual;
pub mod stretch;

pub use dual::{pose_dqs, Dqs64};

/// One (mesh node, primitive) skinned in `f64`, in glTF world space.
#[derive(Clone, Debug, PartialEq)]
pub struct PosedPrimitive64 {
    /// The mesh node.
    pub node: usize,
    /// The mesh.
    pub mesh: usize,
    /// The primitive within the mesh.
    pub primitive: usize,
    /// Positions, accessor order.
    pub positions: Vec<[f64; 3]>,
    /// Unit normals (zero stays zero), if the primitive has normals.
    pub normals: Option<Vec<[f64; 3]>>,
    /// Skinned tangents, if the primitive has `TANGENT`s.
    pub tangents: Option<Vec<Tangent64>>,
}

/// One skinned tangent: the direction `M·t` of the vertex's blended matrix `M` (the linear
/// part of its position's transform: rotation and scale, no translation) renormalised,
/// and the handedness kept.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tangent64 {
    /// The unit direction (zero stays zero) and the handedness `w`.
    pub xyzw: [f64; 4],
    /// `|M·t|`, the blended direction's length before renormalising: the fixed lane's
    /// error grows as it shrinks (`skin_core::tangent::fixed_error_bound`).
    pub blended: f64,
}

/// `m · (v, 0)`.
fn vector(m: &M34, v: [f64; 3]) -> [f64; 3] {
    m.map(|r| r[0] * v[0] + r[1] * v[1] + r[2] * v[2])
}

/// Spherical interpolation along the shorter arc between (normalised) keys.
fn slerp(a: [f64; 4], b: [f64; 4], u: f64) -> [f64; 4] {
    let (a, mut b) = (unit4(a), unit4(b));
    let mut cos: f64 = (0..4).map(|i| a[i] * b[i]).sum();
    if cos < 0.0 {
        cos = -cos;
        b = b.map(|v| -v);
    }
    let (wa, wb) = if cos > 1.0 - 1e-12 {
        (1.0 - u, u)
    } else {
        let angle = cos.acos();
        let s = angle.sin();
        (((1.0 - u) * angle).sin() / s, (u * angle).sin() / s)
    };
    unit4(core::array::from_fn(|i| wa * a[i] + wb * b[i]))
}

/// The value of `channel` at `t` seconds (`width` numbers).
fn sample(c: &Channel, t: f64) -> Vec<f64> {
    let keys = Keys {
        interpolation: c.interpolation,
        times: &c.times,
        values: &c.values,
        width: c.path.width(),
        rotation: c.path == Path::Rotation,
    };
    keys.sample(t)
}

/// A channel's keys: `width` numbers a key (three parts a key for cubic splines).
struct Keys<'a> {
    interpolation: Interpolation,
    times: &'a [f32],
    values: &'a [f32],
    width: usize,
    /// Unit quaternions: slerped and renormalised.
    rotation: bool,
}

impl Keys<'_> {
    /// The value at `t` seconds.
    fn sample(&self, t: f64) -> Vec<f64> {
        let (width, c) = (self.width, self);
        let cubic = c.interpolation == Interpolation::CubicSpline;
        let stride = if cubic { 3 * width } else { width };
        let value = |k: usize| -> Vec<f64> {
            let at = k * stride + if cubic { width } else { 0 };
            c.values[at..at + width]
                .iter()
                .map(|&v| f64::from(v))
                .collect()
        };
        let times: Vec<f64> = c.times.iter().map(|&v| f64::from(v)).collect();
        let last = times.len() - 1;
        let out = if t <= times[0] {
            value(0)
        } else if t >= times[last] {
            value(last)
        } else {
            let k = times.partition_point(|&x| x <= t) - 1;
            let dt = times[k + 1] - times[k];
            let u = (t - times[k]) / dt;
            let (a, b) = (value(k), value(k + 1));
            match c.interpolation {
                Interpolation::Step => a,
                Interpolation::Linear if c.rotation => {
                    slerp([a[0], a[1], a[2], a[3]], [b[0], b[1], b[2], b[3]], u).to_vec()
                }
                Interpolation::Linear => (0..width).map(|i| a[i] + u * (b[i] - a[i])).collect(),
                Interpolation::CubicSpline => {
                    // Key k's out-tangent and key k+1's in-tangent, per second.
                    let tangent = |k: usize, part: usize, i: usize| {
                        f64::from(c.values[k * stride + part * width + i])
                    };
                    let (u2, u3) = (u * u, u * u * u);
                    (0..width)
                        .map(|i| {
                            (2.0 * u3 - 3.0 * u2 + 1.0) * a[i]
                                + (u3 - 2.0 * u2 + u) * dt * tangent(k, 2, i)
                                + (3.0 * u2 - 2.0 * u3) * b[i]
                                + (u3 - u2) * dt * tangent(k + 1, 0, i)
                        })
                        .collect()
                }
            }
        };
        if c.rotation {
            unit4([out[0], out[1], out[2], out[3]]).to_vec()
        } else {
            out
        }
    }
}

/// Every node's morph-target weights at the rest pose or in clip `c` at `t` seconds (empty
/// for nodes without a mesh): the node's, else its mesh's, replaced by a weights channel.
pub fn weights(rig: &Rig, anim: Option<(usize, f64)>) -> Option<Vec<Vec<f64>>> {
    let mut out: Vec<Vec<f64>> = rig
        .nodes
        .iter()
        .map(|n| {
            let w = n.mesh.map_or(&[][..], |m| {
                n.weights.as_deref().unwrap_or(&rig.meshes[m].weights)
            });
            w.iter().map(|&w| f64::from(w)).collect()
        })
        .collect();
    if let Some((c, t)) = anim {
        for ch in &rig.clips.get(c)?.weights {
            let keys = Keys {
                interpolation: ch.interpolation,
                times: &ch.times,
                values: &ch.values,
                width: ch.targets,
                rotation: false,
            };
            out[ch.node] = keys.sample(t);
        }
    }
    Some(out)
}

/// `base + Σ wᵢ·deltaᵢ` per vertex, in `f64`.
fn morph<'a>(
    base: &[[f32; 3]],
    deltas: impl Iterator<Item = (f64, Option<&'a Vec<[f32; 3]>>)>,
) -> Vec<[f64; 3]> {
    let mut out: Vec<[f64; 3]> = base.iter().map(|p| p.map(f64::from)).collect();
    for (w, d) in deltas {
        let Some(d) = d else { continue };
        for (o, d) in out.iter_mut().zip(d) {
            for i in 0..3 {
                o[i] += w * f64::from(d[i]);
            }
        }
    }
    out
}

/// Node transforms of the rest pose (`anim` = `None`) or of clip `c` at `t` seconds
/// (`Some((c, t))`), indexed by node. `None` when the clip does not exist.
pub fn locals(rig: &Rig, anim: Option<(usize, f64)>) -> Option<Vec<Trs64>> {
    let mut locals: Vec<Trs64> = rig.nodes.iter().map(|n| Trs64::from(&n.local)).collect();
    if let Some((c, t)) = anim {
        for ch in &rig.clips.get(c)?.channels {
            if ch.times.is_empty() {
                continue;
            }
            let v = sample(ch, t);
            let l = &mut locals[ch.node];
            match ch.path {
                Path::Translation => l.translation = [v[0], v[1], v[2]],
                Path::Rotation => l.rotation = [v[0], v[1], v[2], v[3]],
                Path::Scale => l.scale = [v[0], v[1], v[2]],
            }
        }
    }
    Some(locals)
}

/// Skin every (mesh node, primitive) of `rig` at the rest pose or clip `c` at `t` seconds,
/// in node order (as [`crate::pose::pose()`] lists them). `None` when the clip does not exist.
pub fn pose(rig: &Rig, anim: Option<(usize, f64)>) -> Option<Vec<PosedPrimitive64>> {
    pose_by(rig, anim, |prim, palette| {
        (lbs_matrices(prim, palette), None)
    })
}

/// The joint palettes `W · IBM` of every skin and the node world matrices at a frame, and
/// each (mesh node, primitive) skinned by the per-vertex matrices `blend` makes from a
/// primitive and its skin's palette (a rigid primitive: its node's world matrix), and the
/// normals' own matrices where they differ (`Some`: a stretched joint's cofactors).
fn pose_by(
    rig: &Rig,
    anim: Option<(usize, f64)>,
    mut blend: impl FnMut(&Primitive, &[M34]) -> (Vec<M34>, Option<Vec<M34>>),
) -> Option<Vec<PosedPrimitive64>> {
    let world = world(rig, &locals(rig, anim)?);
    let weights = weights(rig, anim)?;
    let mut posed = Vec::new();
    for (node, mesh, skin) in rig.mesh_nodes() {
        let palette: Option<Vec<M34>> = skin.map(|s| {
            let skin = &rig.skins[s];
            skin.joints
                .iter()
                .zip(&skin.inverse_binds)
                .map(|(&j, ibm)| mul(&world[j], &ibm.map(|r| r.map(f64::from))))
                .collect()
        });
        for (pi, prim) in rig.meshes[mesh].primitives.iter().enumerate() {
            let (matrices, normal) = match (&palette, &prim.influences) {
                (Some(palette), Some(_)) => blend(prim, palette),
                _ => (vec![world[node]; prim.positions.len()], None),
            };
            let normal = normal.as_deref().unwrap_or(&matrices);
            let (positions, normals) = skin_primitive(prim, &weights[node], &matrices, normal);
            posed.push(PosedPrimitive64 {
                node,
                mesh,
                primitive: pi,
                positions,
                normals,
                tangents: skin_tangents(prim, &matrices),
            });
        }
    }
    Some(posed)
}

/// Each vertex's linear blend `Σ w·palette[joint]` of its influences, the weights divided
/// by their sum.
fn lbs_matrices(prim: &Primitive, palette: &[M34]) -> Vec<M34> {
    let Some(influences) = &prim.influences else {
        return vec![palette[0]; prim.positions.len()];
    };
    influences
        .iter()
        .map(|inf| {
            let sum: f64 = inf.weights.iter().map(|&w| f64::from(w)).sum();
            let mut m = [[0.0; 4]; 3];
            for (&j, &w) in inf.joints.iter().zip(&inf.weights) {
                let w = f64::from(w) / sum;
                if w != 0.0 {
                    for (mr, br) in m.iter_mut().zip(&palette[usize::from(j)]) {
                        for (e, be) in mr.iter_mut().zip(br) {
                            *e += w * be;
                        }
                    }
                }
            }
            m
        })
        .collect()
}

/// Positions and normals of `prim` moved by its morph targets at `weights`, each vertex
/// then under its matrix of `matrices` (normals: of `normal`), renormalised (zero stays
/// zero).
fn skin_primitive(
    prim: &Primitive,
    weights: &[f64],
    matrices: &[M34],
    normal: &[M34],
) -> (Vec<[f64; 3]>, Option<Vec<[f64; 3]>>) {
    let targets = || weights.iter().copied().zip(&prim.targets);
    let positions = morph(
        &prim.positions,
        targets().map(|(w, t)| (w, t.positions.as_ref())),
    )
    .into_iter()
    .zip(matrices)
    .map(|(p, m)| point(m, p))
    .collect();
    let normals = prim.normals.as_ref().map(|ns| {
        morph(ns, targets().map(|(w, t)| (w, t.normals.as_ref())))
            .into_iter()
            .zip(normal)
            .map(|(n, m)| {
                let v = vector(m, n);
                let len = v.iter().map(|c| c * c).sum::<f64>().sqrt();
                if len > 0.0 {
                    v.map(|c| c / len)
                } else {
                    [0.0; 3]
                }
            })
            .collect()
    });
    (positions, normals)
}

/// `prim`'s tangents (if any), each under its vertex's matrix of `matrices`: the direction
/// through the linear part, renormalised (zero stays zero), `w` kept.
fn skin_tangents(prim: &Primitive, matrices: &[M34]) -> Option<Vec<Tangent64>> {
    let tangents = prim.tangents.as_ref()?;
    let skinned = tangents
        .iter()
        .zip(matrices)
        .map(|(t, m)| {
            let v = vector(m, [t[0], t[1], t[2]].map(f64::from));
            let len = v.iter().map(|c| c * c).sum::<f64>().sqrt();
            let d = if len > 0.0 {
                v.map(|c| c / len)
            } else {
                [0.0; 3]
            };
            Tangent64 {
                xyzw: [d[0], d[1], d[2], f64::from(t[3])],
                blended: len,
            }
        })
        .collect();
    Some(skinned)
}

/// The diagonal of the bounding box of every primitive's positions (0 without any).
pub fn extent(posed: &[PosedPrimitive64]) -> f64 {
    let mut lo = [f64::INFINITY; 3];
    let mut hi = [f64::NEG_INFINITY; 3];
    for p in posed.iter().flat_map(|b| &b.positions) {
        for i in 0..3 {
            lo[i] = lo[i].min(p[i]);
            hi[i] = hi[i].max(p[i]);
        }
    }
    let d2: f64 = (0..3).map(|i| (hi[i] - lo[i]).powi(2)).sum();
    if d2.is_finite() {
        d2.sqrt()
    } else {
        0.0
    }
}
