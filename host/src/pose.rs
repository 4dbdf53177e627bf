//! Skinning a [`Rig`] in glTF world space through skin-core, in `f32` or fixed point.
//!
//! Skinned vertices follow the glTF specification: `Σ w · W(joint) · IBM · p`, where
//! `W(joint)` is the joint node's world matrix including every non-joint ancestor, and the
//! skinned node's own transform is ignored. Unskinned meshes are placed by their node's
//! world matrix (a one-bone [`RigidMesh`]).
//!
//! The work is done by skin-core: [`Skeleton`] for forward kinematics over a joint set and
//! its ancestors, [`BindPose`] for the palette `W · IBM`, [`SkinnedMesh`] for the blend.
//! In fixed point every length is in *asset units*, model units divided by `2^k` with `k`
//! from [`asset_unit`], so that bind positions lie in (−1, 1) as the `I2F14` lane needs.
//!
//! Animation goes through skin-core's [`Clip`] in the pose scalar itself ([`sampled`]):
//! `f32`, or `I8F24` with translation keys in asset units — the code and the numbers the
//! device uses, so a baked asset ([`crate::bake`]) skins to the same bits as [`pose`].

use skin_core::affine::Affine;
use skin_core::bind::BindPose;
use skin_core::lane::{Lane, Q14};
use skin_core::num::Real;
use skin_core::palette::Palette;
use skin_core::skeleton::Skeleton;
use skin_core::skin::{RigidMesh, SkinnedMesh};
use skin_core::transform::Transform;
use skin_core::vertex::Influence;

use skin_core::clip::{self, Clip, Wrap};
use skin_core::error::Quantity;

use crate::error::PoseError;
use crate::rig::{Interpolation, Path, Primitive, Rig, Trs};

/// The most nodes (joints and their ancestors) one skeleton may have on the host.
pub const MAX_BONES: usize = 512;
/// The most joints one skin may have: vertex bone indices are 8-bit in skin-core.
pub const MAX_JOINTS: usize = 256;
/// The largest translation (in asset units) a rest-pose world or inverse bind matrix may have;
/// half of `I8F24`'s palette limit, leaving headroom for animation.
pub const TRANSLATION_HEADROOM: f32 = 32.0;

/// The number format of the skinning loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arith {
    /// `f32` everywhere.
    F32,
    /// `I8F24` pose maths and the `I2F14` skinning lane.
    Fixed,
}

impl Arith {
    /// `"f32"` or `"fixed"`.
    pub fn name(self) -> &'static str {
        match self {
            Arith::F32 => "f32",
            Arith::Fixed => "fixed",
        }
    }
}

/// Skinned positions of one primitive of one mesh node.
#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    /// The node that instantiates the mesh.
    pub node: usize,
    /// The mesh.
    pub mesh: usize,
    /// The primitive within the mesh.
    pub primitive: usize,
    /// Positions in glTF world space, in accessor order.
    pub positions: Vec<[f32; 3]>,
}

/// The asset-unit exponent `k` for fixed point: the smallest `k` with every mesh position
/// below `2^k` in magnitude (so positions in asset units lie in (−1, 1)), raised until every
/// rest-pose joint world translation and inverse-bind translation is below
/// [`TRANSLATION_HEADROOM`] asset units.
pub fn asset_unit(rig: &Rig) -> i32 {
    let positions = rig
        .meshes
        .iter()
        .flat_map(|m| &m.primitives)
        .flat_map(|p| &p.positions)
        .flatten()
        .fold(0.0f32, |a, &v| a.max(v.abs()));
    let mut k = unit_for(positions);
    let rest = rest_locals(rig);
    let world = world_f64(rig, &rest);
    let mut translations = 0.0f64;
    for skin in &rig.skins {
        for (&j, ibm) in skin.joints.iter().zip(&skin.inverse_binds) {
            for r in 0..3 {
                translations = translations.max(world[j][r][3].abs());
                translations = translations.max(f64::from(ibm[r][3]).abs());
            }
        }
    }
    while translations / 2f64.powi(k) >= f64::from(TRANSLATION_HEADROOM) {
        k += 1;
    }
    k
}

/// The smallest `k` with `max < 2^k` (0 for an empty or all-zero model).
pub fn unit_for(max: f32) -> i32 {
    if max <= 0.0 || !max.is_finite() {
        return 0;
    }
    let mut k = max.log2().floor() as i32;
    while f64::from(max) >= 2f64.powi(k) {
        k += 1;
    }
    while k > -60 && f64::from(max) < 2f64.powi(k - 1) {
        k -= 1;
    }
    k
}

/// Every node's local transform as stored (the rest pose).
pub fn rest_locals(rig: &Rig) -> Vec<Trs> {
    rig.nodes.iter().map(|n| n.local).collect()
}

/// Node world matrices in `f64` (row-major 3×4), for reports; the skinning itself goes
/// through skin-core.
pub fn world_f64(rig: &Rig, locals: &[Trs]) -> Vec<[[f64; 4]; 3]> {
    let locals: Vec<crate::oracle::Trs64> = locals.iter().map(Into::into).collect();
    crate::oracle::world(rig, &locals)
}

/// `2^k` as the factor that takes model units to asset units (`1` in `f32`).
pub fn to_asset(k: i32) -> f32 {
    2f32.powi(-k)
}

/// The nodes that posing reads: every mesh node, the joints of their skins, and all their
/// ancestors, parents first. Other nodes (cameras, lights, unused skins) are never
/// converted, so a value there that a number format cannot hold does not matter.
pub fn posed_nodes(rig: &Rig) -> Vec<usize> {
    let mut nodes = Vec::new();
    for (node, _, skin) in rig.mesh_nodes() {
        nodes.push(node);
        if let Some(s) = skin {
            nodes.extend_from_slice(&rig.skins[s].joints);
        }
    }
    rig.with_ancestors(&nodes)
}

/// One local transform per node of the rig (indexed by node), in scalar `R` with lengths
/// in asset units `2^k`, from the `f32` transforms `locals`. Only [`posed_nodes`] are
/// converted; the others are left at identity.
pub fn transforms<R: Real>(
    rig: &Rig,
    locals: &[Trs],
    k: i32,
) -> Result<Vec<Transform<R>>, PoseError> {
    let s = to_asset(k);
    let mut out = vec![Transform::<R>::IDENTITY; rig.nodes.len()];
    for n in posed_nodes(rig) {
        let l = &locals[n];
        out[n] = Transform::<R>::from_f32(l.translation.map(|v| v * s), l.rotation, l.scale)
            .map_err(|e| crate::fit::transform_error::<R>(rig, n, l, k, e))?;
    }
    Ok(out)
}

/// The channels of `clip` that target [`posed_nodes`], as skin-core channels over the
/// node indices of the rig, translation keys (and tangents) scaled to asset units `2^k`.
/// The returned key vectors own the data the channels point into: `(times, values)` per
/// channel, with the rig's channel index.
pub fn clip_keys(rig: &Rig, clip: usize, k: i32) -> Vec<ChannelKeys> {
    let s = to_asset(k);
    let mut posed = vec![false; rig.nodes.len()];
    for n in posed_nodes(rig) {
        posed[n] = true;
    }
    rig.clips[clip]
        .channels
        .iter()
        .enumerate()
        .filter(|(_, c)| posed[c.node])
        .map(|(index, c)| ChannelKeys {
            index,
            node: c.node,
            path: match c.path {
                Path::Translation => clip::Path::Translation,
                Path::Rotation => clip::Path::Rotation,
                Path::Scale => clip::Path::Scale,
            },
            interpolation: match c.interpolation {
                Interpolation::Step => clip::Interpolation::Step,
                Interpolation::Linear => clip::Interpolation::Linear,
                Interpolation::CubicSpline => clip::Interpolation::CubicSpline,
            },
            times: c.times.clone(),
            values: match c.path {
                Path::Translation => c.values.iter().map(|v| v * s).collect(),
                _ => c.values.clone(),
            },
        })
        .collect()
}

/// One rig channel's keys, ready to become a [`clip::Channel`] (see [`clip_keys`]).
#[derive(Clone, Debug, PartialEq)]
pub struct ChannelKeys {
    /// The channel's index in the rig's clip.
    pub index: usize,
    /// The node it animates.
    pub node: usize,
    /// The property.
    pub path: clip::Path,
    /// The interpolation.
    pub interpolation: clip::Interpolation,
    /// Key times, seconds.
    pub times: Vec<f32>,
    /// Key values, translations in asset units.
    pub values: Vec<f32>,
}

impl ChannelKeys {
    /// A skin-core channel over these keys animating `bone`.
    pub fn channel(&self, bone: u16) -> clip::Channel<&[f32]> {
        clip::Channel {
            bone,
            path: self.path,
            interpolation: self.interpolation,
            times: &self.times,
            values: &self.values,
        }
    }
}

/// Node local transforms (indexed by node, scalar `R`, asset units `2^k`) with animation
/// `clip` sampled at `time` seconds by skin-core's [`clip::Clip`] in `R` — the same code
/// the firmware runs — starting from the rest pose, so nodes no channel targets keep their
/// rest transform. Times outside the clip hold its first or last key ([`Wrap::Clamp`]).
pub fn sampled<R: Real>(
    rig: &Rig,
    clip: usize,
    time: f32,
    k: i32,
) -> Result<Vec<Transform<R>>, PoseError> {
    if clip >= rig.clips.len() {
        return Err(PoseError::NoAnimation(clip.to_string(), rig.clips.len()));
    }
    if !time.is_finite() {
        return Err(PoseError::BadTime(time));
    }
    let mut pose = transforms::<R>(rig, &rest_locals(rig), k)?;
    let keys = clip_keys(rig, clip, k);
    // Checked first, so that an error names the file's channel, key and value.
    crate::fit::keys::<R>(rig, clip, &keys, k)?;
    let channels = channels(&keys, clip)?;
    let bones = rig.nodes.len();
    let ctx = format!("animation {clip} in {}", R::NAME);
    Clip::<R, _>::new(&channels, bones)
        .and_then(|c| c.sample(time, Wrap::Clamp, &mut pose))
        .map_err(PoseError::core(ctx))?;
    Ok(pose)
}

/// Skin-core channels over `keys` (of clip `clip`), bones numbered as the rig's nodes.
pub fn channels(
    keys: &[ChannelKeys],
    clip: usize,
) -> Result<Vec<clip::Channel<&[f32]>>, PoseError> {
    keys.iter()
        .map(|c| {
            let bone = u16::try_from(c.node).map_err(|_| {
                PoseError::Capacity(format!(
                    "animation {clip} animates node {}; skin-core numbers bones with 16 bits",
                    c.node
                ))
            })?;
            Ok(c.channel(bone))
        })
        .collect()
}

/// The node transforms of a frame: the rest pose (`anim` = `None`) or clip `c` at `t`
/// seconds (`Some((c, t))`), in scalar `R` and asset units `2^k`.
pub fn frame<R: Real>(
    rig: &Rig,
    anim: Option<(usize, f32)>,
    k: i32,
) -> Result<Vec<Transform<R>>, PoseError> {
    match anim {
        Some((c, t)) => sampled::<R>(rig, c, t, k),
        None => transforms::<R>(rig, &rest_locals(rig), k),
    }
}

/// World matrices of `nodes` (a set closed under parents, parents first; see
/// [`Rig::with_ancestors`]) computed by skin-core's [`Skeleton`] from the node transforms
/// `locals` (indexed by node, asset units).
pub fn world<R: Real>(
    rig: &Rig,
    locals: &[Transform<R>],
    nodes: &[usize],
) -> Result<Vec<Affine<R>>, PoseError> {
    if nodes.len() > MAX_BONES {
        return Err(PoseError::Capacity(format!(
            "{} joints and ancestors exceed the host's skeleton capacity of {MAX_BONES}",
            nodes.len()
        )));
    }
    let mut parents = Vec::with_capacity(nodes.len());
    let mut rest = Vec::with_capacity(nodes.len());
    for &n in nodes {
        let parent = rig.nodes[n]
            .parent
            .map(|p| nodes.iter().position(|&q| q == p).map(|i| i as u16));
        parents.push(parent.flatten());
        rest.push(locals[n]);
    }
    let skeleton =
        Skeleton::<R, MAX_BONES>::new(&parents, &rest).map_err(PoseError::core("skeleton"))?;
    let mut world = vec![Affine::IDENTITY; nodes.len()];
    skeleton
        .world(&rest, &mut world)
        .map_err(PoseError::core(format!(
            "forward kinematics in {}",
            R::NAME
        )))?;
    Ok(world)
}

/// The inverse bind matrices of `skin` in scalar `R`, translations in asset units `2^k`.
pub fn inverse_binds<R: Real>(rig: &Rig, skin: usize, k: i32) -> Result<Vec<Affine<R>>, PoseError> {
    let s = to_asset(k);
    rig.skins[skin]
        .inverse_binds
        .iter()
        .enumerate()
        .map(|(j, m)| {
            let m = scaled_affine(m, s);
            Affine::<R>::from_f32(m).map_err(|_| {
                let largest = m.iter().flatten().fold(0.0f32, |a, v| a.max(v.abs()));
                PoseError::Range(format!(
                    "skin {skin} joint {j}: its inverse bind matrix (translation in asset units \
                     of 2^{k} model units) has an entry of magnitude {largest:e}, beyond what {} \
                     holds",
                    R::NAME
                ))
            })
        })
        .collect()
}

/// `m` with its translation column multiplied by `s`.
pub fn scaled_affine(m: &[[f32; 4]; 3], s: f32) -> [[f32; 4]; 3] {
    let mut rows = *m;
    rows.iter_mut().for_each(|r| r[3] *= s);
    rows
}

/// The palette `W · IBM` of `skin` in lane `L` from the node transforms `locals` (indexed
/// by node, asset units `2^k`), one matrix a joint.
pub fn skin_palette<L: Lane>(
    rig: &Rig,
    locals: &[Transform<L::Real>],
    skin: usize,
    k: i32,
) -> Result<Vec<Affine<L>>, PoseError> {
    let sk = &rig.skins[skin];
    if sk.joints.len() > MAX_JOINTS {
        return Err(PoseError::Capacity(format!(
            "skin {skin} has {} joints; the host skins at most {MAX_JOINTS} per skin",
            sk.joints.len()
        )));
    }
    let nodes = rig.with_ancestors(&sk.joints);
    let world = world::<L::Real>(rig, locals, &nodes)?;
    let joints: Vec<u16> = sk
        .joints
        .iter()
        .map(|j| nodes.iter().position(|n| n == j).unwrap_or(0) as u16)
        .collect();
    let ibms = inverse_binds::<L::Real>(rig, skin, k)?;
    let ctx = format!("skin {skin} in {}", L::NAME);
    let bind = BindPose::<L::Real, MAX_JOINTS>::new(&joints, &ibms, nodes.len())
        .map_err(PoseError::core(ctx.clone()))?;
    let mut palette: Box<Palette<L, MAX_JOINTS>> = Box::default();
    bind.palette(&world, &mut palette)
        .map_err(|e| crate::fit::palette_error::<L>(rig, skin, &joints, &ibms, &world, e))?;
    Ok(palette.as_slice().to_vec())
}

/// A primitive's positions in lane `L`, in asset units `2^k`.
pub fn positions<L: Lane>(
    prim: &Primitive,
    k: i32,
    context: &str,
) -> Result<Vec<[L; 3]>, PoseError> {
    vectors::<L>(&prim.positions, to_asset(k), Quantity::Position, context)
}

/// A primitive's normals in lane `L` (directions: not scaled), or none.
pub fn normals<L: Lane>(prim: &Primitive, context: &str) -> Result<Vec<[L; 3]>, PoseError> {
    match &prim.normals {
        Some(n) => vectors::<L>(n, 1.0, Quantity::Normal, context),
        None => Ok(Vec::new()),
    }
}

/// `values` times `s` in lane `L`.
fn vectors<L: Lane>(
    values: &[[f32; 3]],
    s: f32,
    what: Quantity,
    context: &str,
) -> Result<Vec<[L; 3]>, PoseError> {
    values
        .iter()
        .enumerate()
        .map(|(v, p)| {
            let c = |x: f32| {
                L::from_f32(x * s).map_err(|e| PoseError::Core {
                    context: format!("{context} in {}", L::NAME),
                    source: match e {
                        skin_core::num::NumError::NotFinite => {
                            skin_core::Error::NotFinite { what, index: v }
                        }
                        skin_core::num::NumError::OutOfRange => skin_core::Error::Overflow {
                            what,
                            index: v,
                            format: L::NAME,
                        },
                    },
                })
            };
            Ok([c(p[0])?, c(p[1])?, c(p[2])?])
        })
        .collect()
}

/// A primitive's influences in lane `L` (joint indices must be below 256).
pub fn influences<L: Lane>(
    prim: &Primitive,
    context: &str,
) -> Result<Vec<Influence<L>>, PoseError> {
    let Some(infl) = &prim.influences else {
        return Ok(Vec::new());
    };
    infl.iter()
        .enumerate()
        .map(|(v, inf)| {
            let bones = inf.joints.map(|j| u8::try_from(j).unwrap_or(u8::MAX));
            if inf.joints.iter().any(|&j| j > u16::from(u8::MAX)) {
                return Err(PoseError::Capacity(format!(
                    "{context}: vertex {v} uses joint {}; skin-core holds at most {MAX_JOINTS}",
                    inf.joints.iter().max().copied().unwrap_or(0)
                )));
            }
            Influence::<L>::from_weights(bones, inf.weights, v)
                .map_err(PoseError::core(format!("{context} in {}", L::NAME)))
        })
        .collect()
}

/// Skin every (mesh node, primitive) at the rest pose (`anim` = `None`) or with clip `c`
/// sampled at `t` seconds (`Some((c, t))`), in node order. In fixed point the clip is
/// sampled in `I8F24` asset units, as on the device.
pub fn pose(rig: &Rig, anim: Option<(usize, f32)>, arith: Arith) -> Result<Vec<Block>, PoseError> {
    match arith {
        Arith::F32 => pose_in::<f32>(rig, &frame::<f32>(rig, anim, 0)?, 0),
        Arith::Fixed => {
            let k = crate::fit::unit(rig)?;
            pose_in::<Q14>(rig, &frame(rig, anim, k)?, k)
        }
    }
}

/// Skin every (mesh node, primitive) with the `f32` node transforms `locals` (model units).
pub fn pose_locals(rig: &Rig, locals: &[Trs], arith: Arith) -> Result<Vec<Block>, PoseError> {
    match arith {
        Arith::F32 => pose_in::<f32>(rig, &transforms(rig, locals, 0)?, 0),
        Arith::Fixed => {
            let k = crate::fit::unit(rig)?;
            pose_in::<Q14>(rig, &transforms(rig, locals, k)?, k)
        }
    }
}

/// Skin every (mesh node, primitive) in lane `L` with the node transforms `locals`
/// (indexed by node, asset units `2^k`; see [`frame`]), positions back in model units.
pub fn pose_in<L: Lane>(
    rig: &Rig,
    locals: &[Transform<L::Real>],
    k: i32,
) -> Result<Vec<Block>, PoseError> {
    let back = 2f32.powi(k);
    let blocks: Vec<Block> = skin_raw::<L>(rig, locals, k)?
        .into_iter()
        .map(|b| Block {
            node: b.node,
            mesh: b.mesh,
            primitive: b.primitive,
            positions: b
                .out
                .iter()
                .map(|o| o.map(|c| L::out_to_f32(c) * back))
                .collect(),
        })
        .collect();
    crate::fit::finite(&blocks, L::NAME)?;
    Ok(blocks)
}

/// Skinned positions of one primitive of one mesh node as the lane's kernel writes them
/// (asset units).
#[derive(Clone, Debug, PartialEq)]
pub struct RawBlock<L: Lane> {
    /// The node that instantiates the mesh.
    pub node: usize,
    /// The mesh.
    pub mesh: usize,
    /// The primitive within the mesh.
    pub primitive: usize,
    /// The kernel's output, in accessor order.
    pub out: Vec<[L::Out; 3]>,
}

/// [`pose_in`] without the conversion back to model units: the kernel's own output.
pub fn skin_raw<L: Lane>(
    rig: &Rig,
    locals: &[Transform<L::Real>],
    k: i32,
) -> Result<Vec<RawBlock<L>>, PoseError> {
    let mut blocks = Vec::new();
    for (node, mesh, skin) in rig.mesh_nodes() {
        let palette = match skin {
            Some(s) => skin_palette::<L>(rig, locals, s, k)?,
            None => {
                let nodes = rig.with_ancestors(&[node]);
                let world = world::<L::Real>(rig, locals, &nodes)?;
                let at = nodes.iter().position(|&n| n == node).unwrap_or(0);
                let mut p: Palette<L, 1> = Palette::new();
                p.push(&world[at])
                    .map_err(PoseError::core(format!("world matrix of node {node}")))?;
                p.as_slice().to_vec()
            }
        };
        for (pi, prim) in rig.meshes[mesh].primitives.iter().enumerate() {
            let ctx = format!("node {node} mesh {mesh} primitive {pi}");
            let pos = positions::<L>(prim, k, &ctx)?;
            let mut out = vec![[L::Out::default(); 3]; pos.len()];
            match (skin, &prim.influences) {
                (Some(_), Some(_)) => {
                    let inf = influences::<L>(prim, &ctx)?;
                    SkinnedMesh::<L, 4>::new(&pos, &inf)
                        .and_then(|m| m.skin(&palette, &mut out))
                        .map_err(PoseError::core(format!("{ctx} in {}", L::NAME)))?;
                }
                _ => {
                    // A rigid mesh (or a skinned node's primitive without weights, which
                    // glTF places by the node's world matrix too).
                    let rigid = if skin.is_some() {
                        let nodes = rig.with_ancestors(&[node]);
                        let world = world::<L::Real>(rig, locals, &nodes)?;
                        let mut p: Palette<L, 1> = Palette::new();
                        p.push(&world[nodes.len() - 1])
                            .map_err(PoseError::core(format!("world matrix of node {node}")))?;
                        p.as_slice().to_vec()
                    } else {
                        palette.clone()
                    };
                    let bones = vec![0u8; pos.len()];
                    RigidMesh::<L>::new(&pos, &bones)
                        .and_then(|m| m.skin(&rigid, &mut out))
                        .map_err(PoseError::core(format!("{ctx} in {}", L::NAME)))?;
                }
            }
            blocks.push(RawBlock {
                node,
                mesh,
                primitive: pi,
                out,
            });
        }
    }
    Ok(blocks)
}

/// The times at which a clip is checked for fixed-point range: every key time and the
/// midpoint between consecutive distinct key times (where cubic splines overshoot most),
/// sorted and without repeats.
pub fn check_times(clip: &crate::rig::Clip) -> Vec<f32> {
    let mut keys: Vec<f32> = clip
        .channels
        .iter()
        .flat_map(|c| c.times.iter().copied())
        .collect();
    keys.sort_by(f32::total_cmp);
    keys.dedup();
    let mids: Vec<f32> = keys
        .windows(2)
        .map(|w| w[0] + (w[1] - w[0]) / 2.0)
        .collect();
    keys.extend(mids);
    keys.sort_by(f32::total_cmp);
    keys.dedup();
    keys
}
