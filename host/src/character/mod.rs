//! A small procedural character the project can ship (the sample models cannot be): fourteen
//! bones, a skinned mesh of tubes, a head and feet (about 270 vertices), up to four
//! influences a vertex where limbs meet the body, and a looping one-second walk.
//!
//! `skin character -o FILE` writes it as glTF 2.0 (`.gltf` with an embedded buffer, or
//! `.glb`); `skin bake` turns that into the firmware's asset. It is made for the smallest
//! board: it fits the 16 KiB of RAM of a Cortex-M0 micro:bit.
//!
//! - **Skeleton** (Y up, metres, facing +Z, bind pose with identity rotations): `hips` →
//!   `spine` → `chest` → `head`, `chest` → `upper_arm` → `forearm` per side, `hips` →
//!   `thigh` → `shin` → `foot` per side: each leg a hip–knee–ankle chain for two-bone IK
//!   (`skin pose --walk 1,0.8 --walk-joints hips,foot.L,foot.R` plants its feet).
//! - **Weights** from envelopes, as the sources describe automatic weights: each bone
//!   influences the vertices of its body parts within a reach of its segment, fading with
//!   the square of the distance; the four strongest are kept and normalised.
//! - **Walk**: legs and arms swing in opposition, knees and elbows bend, feet stay level
//!   with the ground, the hips bob twice and sway once per stride; 17 linear keys, the last
//!   equal to the first.
//!
//! ```
//! let model = skin_host::character::Character::new();
//! assert_eq!(model.bones().len(), 14);
//! let glb = model.glb();
//! let rig = skin_host::import::from_slice(&glb, None).unwrap();
//! assert_eq!(rig.clips.len(), 1);
//! ```

use std::f32::consts::TAU;

use mesh::{body, Mesh};
use vector::{dot, sub};

/// One bone: its rest position (the joint, in model space) and the segment its envelope
/// measures distances from.
#[derive(Clone, Debug, PartialEq)]
pub struct Bone {
    /// Node name.
    pub name: &'static str,
    /// Parent bone (index into [`Character::bones`]).
    pub parent: Option<usize>,
    /// The joint: where the bone starts, in model space at rest.
    pub head: [f32; 3],
    /// Where the bone ends (its child's joint, or a limb's tip).
    pub tail: [f32; 3],
    /// Envelope reach: vertices farther than this from the segment get no weight from it.
    pub reach: f32,
}

/// Body parts: which bones may influence a part's vertices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BodyPart {
    Torso,
    Head,
    Arm(Side),
    Leg(Side),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Side {
    Left,
    Right,
}

// Bone indices (parents first).
const HIPS: usize = 0;
const SPINE: usize = 1;
const CHEST: usize = 2;
const HEAD: usize = 3;
const UPPER_ARM_L: usize = 4;
const FOREARM_L: usize = 5;
const UPPER_ARM_R: usize = 6;
const FOREARM_R: usize = 7;
const THIGH_L: usize = 8;
const SHIN_L: usize = 9;
const THIGH_R: usize = 10;
const SHIN_R: usize = 11;
const FOOT_L: usize = 12;
const FOOT_R: usize = 13;

/// Sides of every tube (vertices a ring).
const SIDES: usize = 8;
/// Length of the walk, seconds.
pub const STRIDE: f32 = 1.0;
/// Keys in the walk (the last repeats the first).
pub const KEYS: usize = 17;

/// The character: skeleton, skinned mesh and walk.
#[derive(Clone, Debug)]
pub struct Character {
    bones: Vec<Bone>,
    positions: Vec<[f32; 3]>,
    normals: Vec<[f32; 3]>,
    joints: Vec<[u8; 4]>,
    weights: Vec<[f32; 4]>,
    indices: Vec<u16>,
}

impl Default for Character {
    fn default() -> Self {
        Self::new()
    }
}

impl Character {
    /// Builds the character (deterministic: always the same bytes).
    pub fn new() -> Self {
        let bones = skeleton();
        let mut mesh = Mesh::default();
        body(&mut mesh);
        let normals = mesh.normals();
        let (joints, weights) = mesh
            .body_parts
            .iter()
            .zip(&mesh.positions)
            .map(|(part, p)| envelope(&bones, *part, *p))
            .unzip();
        Self {
            bones,
            positions: mesh.positions,
            normals,
            joints,
            weights,
            indices: mesh.indices,
        }
    }

    /// The bones, parents first.
    pub fn bones(&self) -> &[Bone] {
        &self.bones
    }

    /// Vertex positions (model space, metres).
    pub fn positions(&self) -> &[[f32; 3]] {
        &self.positions
    }

    /// Joints and weights of every vertex (weights sum to 1, strongest first).
    pub fn influences(&self) -> impl Iterator<Item = ([u8; 4], [f32; 4])> + '_ {
        self.joints
            .iter()
            .copied()
            .zip(self.weights.iter().copied())
    }

    /// Triangles (three indices each, counter-clockwise seen from outside).
    pub fn triangles(&self) -> usize {
        self.indices.len() / 3
    }
}

/// The skeleton at rest.
fn skeleton() -> Vec<Bone> {
    let bone = |name, parent, head: [f32; 3], tail: [f32; 3], reach| Bone {
        name,
        parent,
        head,
        tail,
        reach,
    };
    let (arm_x, leg_x) = (0.24, 0.1);
    vec![
        bone("hips", None, [0., 0.92, 0.], [0., 1.10, 0.], 0.28),
        bone("spine", Some(HIPS), [0., 1.10, 0.], [0., 1.30, 0.], 0.28),
        bone("chest", Some(SPINE), [0., 1.30, 0.], [0., 1.52, 0.], 0.28),
        bone("head", Some(CHEST), [0., 1.52, 0.], [0., 1.82, 0.], 0.25),
        bone(
            "upper_arm.L",
            Some(CHEST),
            [arm_x, 1.44, 0.],
            [arm_x, 1.17, 0.],
            0.12,
        ),
        bone(
            "forearm.L",
            Some(UPPER_ARM_L),
            [arm_x, 1.17, 0.],
            [arm_x, 0.90, 0.],
            0.12,
        ),
        bone(
            "upper_arm.R",
            Some(CHEST),
            [-arm_x, 1.44, 0.],
            [-arm_x, 1.17, 0.],
            0.12,
        ),
        bone(
            "forearm.R",
            Some(UPPER_ARM_R),
            [-arm_x, 1.17, 0.],
            [-arm_x, 0.90, 0.],
            0.12,
        ),
        bone(
            "thigh.L",
            Some(HIPS),
            [leg_x, 0.90, 0.],
            [leg_x, 0.49, 0.],
            0.16,
        ),
        bone(
            "shin.L",
            Some(THIGH_L),
            [leg_x, 0.49, 0.],
            [leg_x, 0.08, 0.],
            0.16,
        ),
        bone(
            "thigh.R",
            Some(HIPS),
            [-leg_x, 0.90, 0.],
            [-leg_x, 0.49, 0.],
            0.16,
        ),
        bone(
            "shin.R",
            Some(THIGH_R),
            [-leg_x, 0.49, 0.],
            [-leg_x, 0.08, 0.],
            0.16,
        ),
        // The ankles, at the shins' ends; each foot's segment runs to its toes.
        bone(
            "foot.L",
            Some(SHIN_L),
            [leg_x, 0.08, 0.],
            [leg_x, 0.03, 0.14],
            0.08,
        ),
        bone(
            "foot.R",
            Some(SHIN_R),
            [-leg_x, 0.08, 0.],
            [-leg_x, 0.03, 0.14],
            0.08,
        ),
    ]
}

/// The bones that may influence `part`.
fn candidates(part: BodyPart) -> &'static [usize] {
    match part {
        BodyPart::Torso => &[
            HIPS,
            SPINE,
            CHEST,
            HEAD,
            UPPER_ARM_L,
            UPPER_ARM_R,
            THIGH_L,
            THIGH_R,
        ],
        BodyPart::Head => &[HEAD, CHEST],
        BodyPart::Arm(Side::Left) => &[CHEST, UPPER_ARM_L, FOREARM_L],
        BodyPart::Arm(Side::Right) => &[CHEST, UPPER_ARM_R, FOREARM_R],
        BodyPart::Leg(Side::Left) => &[HIPS, THIGH_L, SHIN_L, FOOT_L],
        BodyPart::Leg(Side::Right) => &[HIPS, THIGH_R, SHIN_R, FOOT_R],
    }
}

/// Envelope weights of a vertex of `part` at `p`: the four strongest, normalised; the
/// nearest bone alone when no envelope reaches it.
fn envelope(bones: &[Bone], part: BodyPart, p: [f32; 3]) -> ([u8; 4], [f32; 4]) {
    let mut w: Vec<(f32, usize)> = candidates(part)
        .iter()
        .map(|&b| {
            let d = segment_distance(p, bones[b].head, bones[b].tail);
            let s = (1.0 - d / bones[b].reach).max(0.0);
            (s * s, b)
        })
        .collect();
    // Strongest first; ties by bone index, so the order is deterministic.
    w.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    if w[0].0 == 0.0 {
        return ([w[0].1 as u8, 0, 0, 0], [1.0, 0.0, 0.0, 0.0]);
    }
    w.truncate(4);
    w.retain(|(s, _)| *s > 0.0);
    let sum: f32 = w.iter().map(|(s, _)| s).sum();
    let (mut joints, mut weights) = ([0u8; 4], [0f32; 4]);
    for (k, (s, b)) in w.iter().enumerate() {
        joints[k] = *b as u8;
        weights[k] = s / sum;
    }
    (joints, weights)
}

/// Distance from `p` to the segment `a`–`b`.
fn segment_distance(p: [f32; 3], a: [f32; 3], b: [f32; 3]) -> f32 {
    let ab = sub(b, a);
    let t = (dot(sub(p, a), ab) / dot(ab, ab)).clamp(0.0, 1.0);
    let q = [a[0] + ab[0] * t, a[1] + ab[1] * t, a[2] + ab[2] * t];
    let d = sub(p, q);
    dot(d, d).sqrt()
}

/// The phase (radians) of key `k`: the last key has phase 0 again, so the loop is exact.
fn key_phase(k: usize) -> f32 {
    TAU * (k % (KEYS - 1)) as f32 / (KEYS - 1) as f32
}

/// The rotation of `bone` at phase `ph` of the stride, as a glTF quaternion `[x, y, z, w]`.
fn rotation(bone: usize, ph: f32) -> [f32; 4] {
    let deg = |d: f32| d.to_radians();
    let (thigh, shin) = (-28. * ph.sin(), 8. + 30. * (0.5 - 0.5 * ph.cos()));
    // The right leg is the left half a stride later.
    let (thigh_r, shin_r) = (-thigh, 8. + 30. * (0.5 + 0.5 * ph.cos()));
    // Positive angles about +X swing a hanging limb backwards (−Z).
    let (axis, angle) = match bone {
        HIPS => ([0., 1., 0.], deg(6.) * ph.sin()),
        SPINE => ([0., 1., 0.], deg(-4.) * ph.sin()),
        CHEST => ([1., 0., 0.], deg(3.) * (2. * ph).cos()),
        HEAD => ([1., 0., 0.], deg(-3.) * (2. * ph).cos()),
        THIGH_L => ([1., 0., 0.], deg(thigh)),
        THIGH_R => ([1., 0., 0.], deg(thigh_r)),
        SHIN_L => ([1., 0., 0.], deg(shin)),
        SHIN_R => ([1., 0., 0.], deg(shin_r)),
        // The foot undoes the thigh's and shin's turns: level with the ground.
        FOOT_L => ([1., 0., 0.], deg(-thigh - shin)),
        FOOT_R => ([1., 0., 0.], deg(-thigh_r - shin_r)),
        UPPER_ARM_L => ([1., 0., 0.], deg(22.) * ph.sin()),
        UPPER_ARM_R => ([1., 0., 0.], deg(-22.) * ph.sin()),
        FOREARM_L => ([1., 0., 0.], deg(-12. - 10. * (0.5 + 0.5 * ph.sin()))),
        _ => ([1., 0., 0.], deg(-12. - 10. * (0.5 - 0.5 * ph.sin()))),
    };
    let (s, c) = (angle * 0.5).sin_cos();
    [axis[0] * s, axis[1] * s, axis[2] * s, c]
}

/// The hips' translation at phase `ph`: their rest position, bobbing twice a stride.
fn hips_translation(bones: &[Bone], ph: f32) -> [f32; 3] {
    let [x, y, z] = bones[HIPS].head;
    [x, y + 0.02 * (2. * ph).cos(), z]
}

mod gltf;
pub use gltf::container;
mod mesh;
#[cfg(test)]
mod tests;
mod vector;
