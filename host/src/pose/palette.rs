//! Forward kinematics and palettes: node world matrices by skin-core's [`Skeleton`], and a
//! skin's palette `W · IBM` by its [`BindPose`], one matrix a joint, in a lane.

use skin_core::affine::Affine;
use skin_core::bind::BindPose;

use skin_core::dual::{Dual, Stretch, Stretches};
use skin_core::error::Quantity;
use skin_core::lane::{Lane, Q14};
use skin_core::num::Real;
use skin_core::palette::{DualPalette, Palette, StretchPalette};
use skin_core::skeleton::Skeleton;
use skin_core::transform::Transform;

use super::error::PoseError;
use super::units::lane_centre;
use super::values::{inverse_binds, MAX_JOINTS};
use crate::rig::Rig;

/// The most nodes (joints and their ancestors) one skeleton may have on the host.
pub const MAX_BONES: usize = 512;

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

/// The world matrix of `node` from the node transforms `locals` (indexed by node, asset
/// units): what glTF places an unskinned mesh by.
pub fn node_world<R: Real>(
    rig: &Rig,
    locals: &[Transform<R>],
    node: usize,
) -> Result<Affine<R>, PoseError> {
    let nodes = rig.with_ancestors(&[node]);
    let world = world::<R>(rig, locals, &nodes)?;
    let at = nodes.iter().position(|&n| n == node).unwrap_or(0);
    Ok(world[at])
}

/// A palette in a lane as the host keeps it: its matrices, each `M · 2^−exponent`, and its
/// exponent ([`Palette::exponent`]: above 0 only for a fixed-point palette with a joint
/// scaled beyond what an unscaled row holds).
#[derive(Clone, Debug, PartialEq)]
pub struct LanePalette<L: Lane> {
    /// The stored matrices.
    pub matrices: Vec<Affine<L>>,
    /// Positions skinned with them are widened by `2^exponent`.
    pub exponent: u8,
}

impl<L: Lane> LanePalette<L> {
    fn of<const CAP: usize>(p: &Palette<L, CAP>) -> Self {
        Self {
            matrices: p.as_slice().to_vec(),
            exponent: p.exponent(),
        }
    }

    /// Positions skinned with [`Self::matrices`] back in asset units.
    pub fn widen(&self, out: &mut [[L::Out; 3]]) {
        skin_core::lane::widen::<L>(out, self.exponent);
    }
}

/// The one-matrix palette in lane `L` that places a mesh rigidly by `node`'s world matrix
/// (node transforms `locals` in asset units `2^k`), less the lane's centre
/// ([`lane_centre`]) as the asset's player takes it.
pub fn node_palette<L: Lane>(
    rig: &Rig,
    locals: &[Transform<L::Real>],
    node: usize,
    k: i32,
) -> Result<LanePalette<L>, PoseError> {
    let mut world = node_world::<L::Real>(rig, locals, node)?;
    let centre = real_centre::<L::Real>(lane_centre::<L>(rig, k))
        .map_err(PoseError::core(format!("centre for node {node}")))?;
    for (row, c) in world.rows.iter_mut().zip(centre) {
        row[3] = row[3] - c;
    }
    let mut p: Palette<L, 1> = Palette::new();
    p.fill(|| core::iter::once(Ok(world)))
        .map_err(PoseError::core(format!("world matrix of node {node}")))?;
    Ok(LanePalette::of(&p))
}

/// The largest exponent of `rig`'s fixed-point LBS palettes (each skin's, and each rigid
/// mesh node's) at the rest pose (`anim` = `None`) or clip `c` at `t` seconds: 0 unless a
/// joint scales beyond what an unscaled `I2F14` row holds; the fixed lane's error bound at
/// that frame is [`skin_core::lane::fixed_error_bound`] of it.
pub fn fixed_exponent(rig: &Rig, anim: Option<(usize, f32)>) -> Result<u8, PoseError> {
    let k = super::units::fixed_unit(rig)?;
    let locals = super::animate::frame(rig, anim, k)?;
    let mut most = 0;
    for (node, _, skin) in rig.mesh_nodes() {
        let palette = match skin {
            Some(s) => skin_palette::<Q14>(rig, &locals, s, k)?,
            None => node_palette::<Q14>(rig, &locals, node, k)?,
        };
        most = most.max(palette.exponent);
    }
    Ok(most)
}

/// The largest exponent of `rig`'s fixed-point DQS palettes with stretches (each skin's
/// [`skin_stretch_palette`]) at the rest pose (`anim` = `None`) or clip `c` at `t` seconds,
/// or `None` when no skin has a joint with scale or shear there (every palette is then
/// plain DQS's); the fixed lane's error bound at that frame is
/// [`skin_core::lane::fixed_stretch_error_bound`] of it.
pub fn fixed_stretch_exponent(
    rig: &Rig,
    anim: Option<(usize, f32)>,
) -> Result<Option<u8>, PoseError> {
    let k = super::units::fixed_unit(rig)?;
    let locals = super::animate::frame(rig, anim, k)?;
    let mut most = None;
    for skin in 0..rig.skins.len() {
        let p = skin_stretch_palette::<Q14>(rig, &locals, skin, k)?;
        if p.stretches.is_some() {
            most = most.max(Some(p.exponent));
        }
    }
    Ok(most)
}

/// `centre` (asset units) in scalar `R`: exact for a centre on the asset's grid
/// ([`skin_core::asset::CENTRE_STEP`]).
pub fn real_centre<R: Real>(centre: [f32; 3]) -> Result<[R; 3], skin_core::Error> {
    let mut out = [R::ZERO; 3];
    for (index, (o, c)) in out.iter_mut().zip(centre).enumerate() {
        *o = R::from_f32(c).map_err(|_| skin_core::Error::Overflow {
            what: Quantity::Position,
            index,
            format: R::NAME,
        })?;
    }
    Ok(out)
}

/// A skin's joints at a frame: its bind pose, the world matrices of its joints and their
/// ancestors, each joint's index among those, and its inverse binds (asset units `2^k`).
pub struct SkinFrame<R: Real> {
    /// The bind pose (joints and inverse binds).
    pub bind: Box<BindPose<R, MAX_JOINTS>>,
    /// World matrices of the joints and their ancestors.
    pub world: Vec<Affine<R>>,
    /// Each joint's index in `world`.
    pub joints: Vec<u16>,
    /// The inverse bind matrices.
    pub ibms: Vec<Affine<R>>,
}

/// [`SkinFrame`] of `skin` from the node transforms `locals` (indexed by node, asset units
/// `2^k`), for a palette in the lane named `lane` (errors name it); for the fixed lane its
/// bind pose is relative to the lane's centre ([`lane_centre`]), as the asset's player's is.
pub fn skin_frame<R: Real>(
    rig: &Rig,
    locals: &[Transform<R>],
    skin: usize,
    k: i32,
    lane: &str,
) -> Result<SkinFrame<R>, PoseError> {
    let sk = &rig.skins[skin];
    if sk.joints.len() > MAX_JOINTS {
        return Err(PoseError::Capacity(format!(
            "skin {skin} has {} joints; the host skins at most {MAX_JOINTS} per skin",
            sk.joints.len()
        )));
    }
    let nodes = rig.with_ancestors(&sk.joints);
    let world = world::<R>(rig, locals, &nodes)?;
    let joints: Vec<u16> = sk
        .joints
        .iter()
        .map(|j| nodes.iter().position(|n| n == j).unwrap_or(0) as u16)
        .collect();
    let centre = if lane == <Q14 as Lane>::NAME {
        lane_centre::<Q14>(rig, k)
    } else {
        [0.0; 3]
    };
    let ibms = inverse_binds::<R>(rig, skin, k, centre)?;
    let bind = BindPose::<R, MAX_JOINTS>::new(&joints, &ibms, nodes.len())
        .and_then(|b| b.with_centre(real_centre::<R>(centre)?))
        .map_err(PoseError::core(format!("skin {skin} in {lane}")))?;
    Ok(SkinFrame {
        bind: Box::new(bind),
        world,
        joints,
        ibms,
    })
}

/// The palette `W · IBM` of `skin` in lane `L` from the node transforms `locals` (indexed
/// by node, asset units `2^k`), one matrix a joint, at the smallest exponent that holds it.
pub fn skin_palette<L: Lane>(
    rig: &Rig,
    locals: &[Transform<L::Real>],
    skin: usize,
    k: i32,
) -> Result<LanePalette<L>, PoseError> {
    let f = skin_frame::<L::Real>(rig, locals, skin, k, L::NAME)?;
    let mut palette: Box<Palette<L, MAX_JOINTS>> = Box::default();
    f.bind
        .palette(&f.world, &mut palette)
        .map_err(|e| palette_error::<L>(rig, skin, &f.joints, &f.ibms, &f.world, e))?;
    Ok(LanePalette::of(&palette))
}

/// The dual quaternion palette of `skin` in lane `L` (see [`skin_palette`]): each joint
/// matrix `W · IBM` as a unit dual quaternion; a joint with scale or shear is refused,
/// named.
pub fn skin_dual_palette<L: Lane>(
    rig: &Rig,
    locals: &[Transform<L::Real>],
    skin: usize,
    k: i32,
) -> Result<Vec<Dual<L>>, PoseError> {
    dual_palette::<L>(rig, locals, skin, k)
}

/// A DQS palette and, where a joint has scale or shear, every joint's stretch (the
/// identity for a rigid one) and the palette's exponent (`skin_core::palette::StretchPalette`).
#[derive(Clone, Debug)]
pub struct StretchedDuals<L: Lane> {
    /// Each joint's unit dual quaternion (its translation `· 2^−exponent`).
    pub duals: Vec<Dual<L>>,
    /// Each joint's stretch `· 2^−exponent`, or `None` for a palette of rigid joints.
    pub stretches: Option<Vec<Stretch<L>>>,
    /// The exponent (0 in `f32`; up to 2 in fixed point, for joints scaled up to 4×).
    pub exponent: u8,
}

impl<L: Lane> StretchedDuals<L> {
    /// The stretches as `SkinnedMesh::skin_dqs_stretched` reads them.
    pub fn stretches(&self) -> Option<Stretches<'_, L>> {
        self.stretches.as_deref().map(|matrices| Stretches {
            matrices,
            exponent: self.exponent,
        })
    }
}

/// [`skin_dual_palette`] with joints of scale or shear split as Kavan et al. do
/// ([`Dual::split`]: a rotation and translation, and a stretch applied first), so that
/// `SkinnedMesh::skin_dqs_stretched` skins them, in either lane (fixed point with the
/// palette's exponent). A joint the split cannot represent (a mirror, a flattened joint,
/// NaN) or the lane cannot hold is refused, named.
pub fn skin_stretch_palette<L: Lane>(
    rig: &Rig,
    locals: &[Transform<L::Real>],
    skin: usize,
    k: i32,
) -> Result<StretchedDuals<L>, PoseError> {
    let f = skin_frame::<L::Real>(rig, locals, skin, k, L::NAME)?;
    let mut palette: Box<StretchPalette<L, MAX_JOINTS>> = Box::default();
    let matrices = || (0..f.joints.len()).map(|j| f.bind.matrix(j, &f.world));
    palette.fill(matrices).map_err(|e| {
        let j = match e {
            skin_core::Error::NotSplittable { joint, .. }
            | skin_core::Error::NotRigid { joint, .. }
            | skin_core::Error::Overflow { index: joint, .. } => Some(joint),
            _ => None,
        };
        let named = j.map_or(String::new(), |j| {
            let node = rig.skins[skin].joints[j];
            let name = rig.nodes[node]
                .name
                .as_deref()
                .map_or(String::new(), |n| format!(" {n:?}"));
            format!(" joint {j} (node {node}{name})")
        });
        PoseError::core(format!("skin {skin}{named} in {}", L::NAME))(e)
    })?;
    let stretches = palette.stretches();
    Ok(StretchedDuals {
        duals: palette.duals().to_vec(),
        stretches: stretches.map(|s| s.matrices.to_vec()),
        exponent: stretches.map_or(0, |s| s.exponent),
    })
}

/// The dual quaternion palette of [`skin_dual_palette`].
fn dual_palette<L: Lane>(
    rig: &Rig,
    locals: &[Transform<L::Real>],
    skin: usize,
    k: i32,
) -> Result<Vec<Dual<L>>, PoseError> {
    let f = skin_frame::<L::Real>(rig, locals, skin, k, L::NAME)?;
    let mut palette: Box<DualPalette<L, MAX_JOINTS>> = Box::default();
    for (j, &node) in rig.skins[skin].joints.iter().enumerate() {
        let named = rig.nodes[node]
            .name
            .as_deref()
            .map_or(String::new(), |n| format!(" {n:?}"));
        let context = format!("skin {skin} joint {j} (node {node}{named}) in {}", L::NAME);
        let m = f
            .bind
            .matrix(j, &f.world)
            .map_err(PoseError::core(context.clone()))?;
        palette.push(&m).map_err(PoseError::core(context))?;
    }
    Ok(palette.as_slice().to_vec())
}

/// [`PoseError`] for a palette of `skin` that lane `L` refused (`e`), the refused matrix
/// `W · IBM` described by its largest row sum and translation (from the joints' bones
/// `joints`, inverse binds `ibms` and the world matrices `world`, in the pose scalar).
pub fn palette_error<L: Lane>(
    rig: &Rig,
    skin: usize,
    joints: &[u16],
    ibms: &[Affine<L::Real>],
    world: &[Affine<L::Real>],
    e: skin_core::Error,
) -> PoseError {
    let context = format!("skin {skin} in {}", L::NAME);
    let skin_core::Error::Overflow {
        what: Quantity::Palette,
        index: j,
        ..
    } = e
    else {
        return PoseError::Core { context, source: e };
    };
    let (Some(&bone), Some(ibm)) = (joints.get(j), ibms.get(j)) else {
        return PoseError::Core { context, source: e };
    };
    let Some(w) = world.get(usize::from(bone)) else {
        return PoseError::Core { context, source: e };
    };
    let f = |m: &Affine<L::Real>| m.rows.map(|r| r.map(|v| f64::from(v.to_f32())));
    let (w, b) = (f(w), f(ibm));
    let m: [[f64; 4]; 3] = core::array::from_fn(|r| {
        core::array::from_fn(|c| {
            let t = if c == 3 { w[r][3] } else { 0.0 };
            (0..3).map(|k| w[r][k] * b[k][c]).sum::<f64>() + t
        })
    });
    let rows = m
        .iter()
        .map(|r| r[..3].iter().map(|v| v.abs()).sum::<f64>())
        .fold(0.0, f64::max);
    let translation = m.iter().map(|r| r[3].abs()).fold(0.0, f64::max);
    let limit = if L::NAME == Q14::NAME {
        let most = 2 << L::MAX_EXPONENT;
        format!(
            "rows of |rotation·scale| summing below {most} and translations within ±{most}, \
             with the palette scaled by 2^-{}",
            L::MAX_EXPONENT
        )
    } else {
        format!("entries within ±{}", L::Real::LIMIT)
    };
    let node = rig.skins[skin].joints.get(j).copied().unwrap_or(0);
    PoseError::Range(format!(
        "skin {skin} joint {j} (node {node}{}): its palette matrix W·IBM has a rotation·scale \
         row summing to {rows:.4} and a translation of {translation:.4} asset units, beyond \
         what {} holds ({limit}); use --arith f32 for this model, or keep the joint's scale \
         within the limit",
        rig.nodes[node]
            .name
            .as_deref()
            .map_or(String::new(), |n| format!(" {n:?}")),
        L::NAME,
    ))
}
