//! The animation layer on a frame (`skin pose --blend/--additive/--mask/--ik/--look-at`):
//! clips blended with weights (later layers under a joint mask), an additive clip, then
//! two-bone IK chains and look-at joints, by skin-core's `anim` in the pose scalar — the
//! code the device runs — before skinning.
//!
//! Positions (IK targets and poles, look-at targets) are in model units, glTF world space;
//! in the fixed lane they become asset units like every length, and skin-core's IK takes
//! coordinates up to ±2 asset units there (larger ones are refused by name).

use skin_core::affine::Affine;
use skin_core::anim::{Aim, AnimError, Blend, Gait, Goal, Hinge, Limb, Step, SwingTwist, Walker};
use skin_core::lane::Q14;
use skin_core::num::{Fx, Real};
use skin_core::skeleton::Skeleton;
use skin_core::transform::Transform;

use super::animate::{frame, sampled};
use super::error::PoseError;
use super::joints::{worlds_in, JointWorld};
use super::lane::{LaneKind, Skinning};
use super::palette::MAX_BONES;
use super::skin::{pose_in, PosedPrimitive};
use super::units::{fixed_unit, to_asset};
use super::values::transforms;
use crate::rig::Rig;

/// The most clips one blend takes.
pub const MAX_LAYERS: usize = 8;

/// A two-bone IK chain: the joint at its end (its parent and grandparent above it), the
/// target, and the pole the middle joint bends towards (default: where the middle joint is,
/// keeping the bend's plane).
#[derive(Clone, Debug, PartialEq)]
pub struct Reach {
    /// The end joint's node.
    pub end: usize,
    /// The target, model units.
    pub target: [f32; 3],
    /// The pole, model units.
    pub pole: Option<[f32; 3]>,
}

/// A joint that looks at a point along an axis of its own (up: its +Y, or +Z for a forward
/// axis along Y, towards the world's +Y).
#[derive(Clone, Debug, PartialEq)]
pub struct Look {
    /// The joint's node.
    pub joint: usize,
    /// The point, model units.
    pub target: [f32; 3],
    /// The joint's forward axis in its own frame.
    pub forward: [f32; 3],
}

/// A procedural walk along +Z (model units): speed, stride length (a foot lifts by a
/// tenth of it), the joints that carry it, and the ground `amplitude · sin(2π z /
/// wavelength)` (flat for amplitude 0).
#[derive(Clone, Debug, PartialEq)]
pub struct Walking {
    /// Units a second.
    pub speed: f32,
    /// Units a stride.
    pub stride: f32,
    /// The pelvis's node.
    pub pelvis: usize,
    /// The left and right ankles' nodes (each leg the ankle, its parent and grandparent).
    pub ankles: [usize; 2],
    /// The ground's amplitude and wavelength.
    pub ground: (f32, f32),
}

/// What the animation layer does to a frame.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Layers {
    /// Clips (index, weight in [0, 1]) blended at the frame's time over the rest pose, in
    /// place of the frame's own clip.
    pub blend: Vec<(usize, f32)>,
    /// Nodes whose subtrees the blend's layers after the first, and the additive layer,
    /// move (empty: every node).
    pub mask: Vec<usize>,
    /// A clip (index, weight) added as its difference from its start.
    pub additive: Option<(usize, f32)>,
    /// A procedural walk, after the clips and before the IK chains.
    pub walk: Option<Walking>,
    /// IK chains, solved in order.
    pub reach: Vec<Reach>,
    /// Look-at joints, after the IK chains.
    pub look: Vec<Look>,
}

impl Layers {
    /// Whether it leaves a frame as it is.
    pub fn is_empty(&self) -> bool {
        self.blend.is_empty()
            && self.additive.is_none()
            && self.walk.is_none()
            && self.reach.is_empty()
            && self.look.is_empty()
    }
}

/// The frame's skinned primitives, joint world matrices, and the walk's steps (if any).
pub type Layered = (Vec<PosedPrimitive>, Vec<JointWorld>, Option<[Step; 2]>);

/// [`super::pose_weighted`] and [`super::joint_worlds`] of the frame (`anim`, or the rest
/// pose) with `layers` applied, clips sampled at `time`.
///
/// ```
/// use skin_host::character::Character;
/// use skin_host::pose::{layered_pose, LaneKind, Layers, Reach, Skinning};
/// let rig = skin_host::import::from_slice(&Character::new().glb(), None)?;
/// let forearm = rig.nodes.iter().position(|n| n.name.as_deref() == Some("forearm.L")).unwrap();
/// let target = [0.4, 1.2, 0.1];
/// let layers = Layers { reach: vec![Reach { end: forearm, target, pole: None }], ..Layers::default() };
/// let weights = vec![Vec::new(); rig.nodes.len()];
/// let (_, joints, _) = layered_pose(&rig, Some((0, 0.3)), 0.3, &layers, LaneKind::F32, Skinning::Lbs, &weights)?;
/// let w = joints.iter().find(|j| j.node == forearm).unwrap().world;
/// assert!((0..3).all(|i| (w[12 + i] - target[i]).abs() < 1e-4));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn layered_pose(
    rig: &Rig,
    anim: Option<(usize, f32)>,
    time: f32,
    layers: &Layers,
    lane: LaneKind,
    skinning: Skinning,
    weights: &[Vec<f32>],
) -> Result<Layered, PoseError> {
    match lane {
        LaneKind::F32 => {
            let (locals, steps) = layered::<f32>(rig, anim, time, layers, 0)?;
            let posed = pose_in::<f32>(rig, &locals, weights, 0, skinning)?;
            Ok((posed, worlds_in::<f32>(rig, &locals, 0)?, steps))
        }
        LaneKind::Fixed => {
            let k = fixed_unit(rig)?;
            let (locals, steps) = layered::<Fx>(rig, anim, time, layers, k)?;
            let posed = pose_in::<Q14>(rig, &locals, weights, k, skinning)?;
            Ok((posed, worlds_in::<Fx>(rig, &locals, k)?, steps))
        }
    }
}

/// Node transforms and the walk's steps (if any).
pub type Walked<R> = (Vec<Transform<R>>, Option<[Step; 2]>);

/// Node transforms (indexed by node, asset units `2^k`) of the frame with `layers` applied,
/// and the walk's steps.
pub fn layered<R: Real>(
    rig: &Rig,
    anim: Option<(usize, f32)>,
    time: f32,
    layers: &Layers,
    k: i32,
) -> Result<Walked<R>, PoseError> {
    let mask = mask::<R>(rig, &layers.mask);
    let mask = (!layers.mask.is_empty()).then_some(&mask[..]);
    let blend_err = |source| PoseError::Anim {
        context: "--blend".into(),
        source,
    };
    let mut locals = if layers.blend.is_empty() {
        frame::<R>(rig, anim, k)?
    } else {
        let rest = transforms::<R>(rig, &rig.rest_locals(), k)?;
        let clips = layers
            .blend
            .iter()
            .map(|&(c, _)| sampled::<R>(rig, c, time, k))
            .collect::<Result<Vec<_>, _>>()?;
        let mut blend = Blend::<R, MAX_LAYERS>::new(&rest).map_err(blend_err)?;
        for (i, (pose, &(_, w))) in clips.iter().zip(&layers.blend).enumerate() {
            blend
                .layer(pose, w, if i == 0 { None } else { mask })
                .map_err(blend_err)?;
        }
        let mut out = rest.clone();
        blend.apply(&mut out).map_err(blend_err)?;
        out
    };
    if let Some((clip, w)) = layers.additive {
        let err = |source| PoseError::Anim {
            context: "--additive".into(),
            source,
        };
        let pose = sampled::<R>(rig, clip, time, k)?;
        let reference = sampled::<R>(rig, clip, 0.0, k)?;
        let base = locals.clone();
        let mut blend = Blend::<R, 1>::new(&base).map_err(err)?;
        blend
            .layer(&base, 1.0, None)
            .and_then(|b| b.additive(&pose, &reference, w, mask))
            .map_err(err)?;
        blend.apply(&mut locals).map_err(err)?;
    }
    let steps = match &layers.walk {
        Some(w) => Some(walk(rig, &mut locals, w, time, k)?),
        None => None,
    };
    for r in &layers.reach {
        reach(rig, &mut locals, r, k)?;
    }
    for l in &layers.look {
        look(rig, &mut locals, l, k)?;
    }
    Ok((locals, steps))
}

/// Walk the frame: the pelvis carried along +Z, the feet planted on the ground by IK.
fn walk<R: Real>(
    rig: &Rig,
    locals: &mut [Transform<R>],
    w: &Walking,
    time: f32,
    k: i32,
) -> Result<[Step; 2], PoseError> {
    let nodes = rig.with_ancestors(&[w.pelvis, w.ankles[0], w.ankles[1]]);
    let (skeleton, mut pose, mut world) = chain(rig, locals, &nodes)?;
    let at = |n: usize| nodes.iter().position(|&q| q == n).unwrap_or(0);
    let err = |source| PoseError::Anim {
        context: format!("--walk (pelvis {})", node_label(rig, w.pelvis)),
        source,
    };
    let leg = |ankle: usize| {
        Limb::ending_at(&*skeleton, at(ankle), Hinge::FREE, None).map_err(|source| {
            PoseError::Anim {
                context: format!("--walk-joints {}", node_label(rig, ankle)),
                source,
            }
        })
    };
    let walker = Walker::new(
        &*skeleton,
        at(w.pelvis),
        [leg(w.ankles[0])?, leg(w.ankles[1])?],
    )
    .map_err(|e| match e {
        // The chain skeleton's joints by their nodes' names.
        AnimError::NotBelow { pelvis, hip } => PoseError::Range(format!(
            "--walk-joints: the leg's hip {} is not below the pelvis {}",
            node_label(rig, nodes[hip]),
            node_label(rig, nodes[pelvis])
        )),
        AnimError::SharedLeg { joint } => PoseError::Range(format!(
            "--walk-joints: both legs hold {}: each leg needs joints of its own",
            node_label(rig, nodes[joint])
        )),
        e => err(e),
    })?;
    let s = to_asset(k);
    let gait = Gait::new(w.speed * s, w.stride * s, w.stride * s / 10.0).map_err(err)?;
    let (amplitude, wavelength) = w.ground;
    // The ground in asset units: heights and positions scaled alike.
    let ground =
        |_x: f32, z: f32| amplitude * s * (2.0 * std::f32::consts::PI * z / (wavelength * s)).sin();
    let steps = walker
        .pose(&*skeleton, &gait, time, ground, &mut pose, &mut world)
        .map_err(err)?;
    for (i, &n) in nodes.iter().enumerate() {
        locals[n] = pose[i];
    }
    Ok(steps)
}

/// One weight a node: 1 for the `roots` and everything below them, else 0.
fn mask<R: Real>(rig: &Rig, roots: &[usize]) -> Vec<R> {
    (0..rig.nodes.len())
        .map(|n| {
            let mut at = Some(n);
            while let Some(i) = at {
                if roots.contains(&i) {
                    return R::ONE;
                }
                at = rig.nodes[i].parent;
            }
            R::ZERO
        })
        .collect()
}

/// A node's name for messages: `"name" (node n)` or `node n`.
pub fn node_label(rig: &Rig, node: usize) -> String {
    match rig.nodes.get(node).and_then(|n| n.name.as_deref()) {
        Some(name) => format!("{name:?} (node {node})"),
        None => format!("node {node}"),
    }
}

/// The skeleton of `nodes` (closed under parents, parents first), their transforms from
/// `locals`, and their world matrices.
type Chain<R> = (
    Box<Skeleton<R, MAX_BONES>>,
    Vec<Transform<R>>,
    Vec<Affine<R>>,
);

fn chain<R: Real>(
    rig: &Rig,
    locals: &[Transform<R>],
    nodes: &[usize],
) -> Result<Chain<R>, PoseError> {
    let parents: Vec<Option<u16>> = nodes
        .iter()
        .map(|&n| {
            let p = rig.nodes[n].parent?;
            nodes.iter().position(|&q| q == p).map(|i| i as u16)
        })
        .collect();
    let pose: Vec<Transform<R>> = nodes.iter().map(|&n| locals[n]).collect();
    let skeleton =
        Skeleton::<R, MAX_BONES>::new(&parents, &pose).map_err(PoseError::core("skeleton"))?;
    let mut world = vec![Affine::IDENTITY; nodes.len()];
    skeleton
        .world(&pose, &mut world)
        .map_err(PoseError::core(format!(
            "forward kinematics in {}",
            R::NAME
        )))?;
    Ok((Box::new(skeleton), pose, world))
}

/// `p` (model units) in asset units `2^k`.
fn asset(p: [f32; 3], k: i32) -> [f32; 3] {
    p.map(|v| v * to_asset(k))
}

/// Bend the chain that ends at `r.end` towards its target.
fn reach<R: Real>(
    rig: &Rig,
    locals: &mut [Transform<R>],
    r: &Reach,
    k: i32,
) -> Result<(), PoseError> {
    let nodes = rig.with_ancestors(&[r.end]);
    let (skeleton, mut pose, world) = chain(rig, locals, &nodes)?;
    let end = nodes.iter().position(|&n| n == r.end).unwrap_or(0);
    let label = |at: usize| node_label(rig, nodes[at]);
    let limb = Limb::ending_at(&*skeleton, end, Hinge::FREE, None).map_err(|e| match e {
        AnimError::ShortChain { .. } => PoseError::Range(format!(
            "--ik {}: a two-bone chain needs the end joint's parent and grandparent, and it has {}",
            label(end),
            match skeleton.parents()[end] {
                None => "no parent".to_owned(),
                Some(p) => format!("only the parent {}", label(usize::from(p))),
            }
        )),
        source => PoseError::Anim {
            context: format!("--ik {}", label(end)),
            source,
        },
    })?;
    let [root, mid, _] = limb.joints();
    let pole = match r.pole {
        Some(p) => asset(p, k),
        None => world[mid].translation_part().map(|v| v.to_f32()),
    };
    let goal = Goal {
        target: asset(r.target, k),
        pole,
        weight: 1.0,
        soft: 1.0,
    };
    limb.apply(&*skeleton, &mut pose, &world, goal)
        .map_err(|source| PoseError::Anim {
            context: format!(
                "--ik {} (the chain {} – {} – {}, in {} asset units of 2^{k} model units)",
                label(end),
                label(root),
                label(mid),
                label(end),
                R::NAME
            ),
            source,
        })?;
    for (at, &n) in nodes.iter().enumerate() {
        locals[n] = pose[at];
    }
    Ok(())
}

/// Turn `l.joint` towards its target.
fn look<R: Real>(
    rig: &Rig,
    locals: &mut [Transform<R>],
    l: &Look,
    k: i32,
) -> Result<(), PoseError> {
    let nodes = rig.with_ancestors(&[l.joint]);
    let (skeleton, mut pose, world) = chain(rig, locals, &nodes)?;
    let joint = nodes.iter().position(|&n| n == l.joint).unwrap_or(0);
    let err = |source| PoseError::Anim {
        context: format!("--look-at {}", node_label(rig, l.joint)),
        source,
    };
    let f = l.forward;
    // The joint's own up: +Y, or +Z where the forward axis lies mostly along Y.
    let up = if f[1].abs() > f[0].abs().max(f[2].abs()) {
        [0.0, 0.0, 1.0]
    } else {
        [0.0, 1.0, 0.0]
    };
    let aim = Aim::new(&*skeleton, joint, f, up, SwingTwist::FREE).map_err(err)?;
    aim.apply(
        &*skeleton,
        &mut pose,
        &world,
        asset(l.target, k),
        [0.0, 1.0, 0.0],
        1.0,
    )
    .map_err(err)?;
    locals[l.joint] = pose[joint];
    Ok(())
}
