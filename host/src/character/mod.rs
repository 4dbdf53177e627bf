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
//! - **Weights** from envelopes, by skin-core's [`skin_core::envelope`] (the code behind
//!   `skin weights --envelopes`): each bone is a capsule around its segment with radii
//!   chosen for its limb ([`Bone::radii`]), full influence within the inner radius, a smooth
//!   fade to none at the outer; a vertex weighs only the bones of its body part (an arm's
//!   vertices never follow a thigh); the four strongest are kept and normalised.
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
use skin_core::envelope::{Capsule, Envelopes, Radii};

/// One bone: its rest position (the joint, in model space), the segment its envelope
/// measures distances from, and the envelope's radii.
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
    /// Envelope radii: full influence within `inner` of the segment, none beyond `outer`.
    pub radii: Radii,
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
        let (joints, weights) = weigh(&bones, &mesh);
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

/// Envelope radii `(inner, outer)` of each kind of bone, metres. The inner radius is about
/// the thickness of the body around the bone, so a bone fully owns the surface along it and
/// shares it only where a neighbour is as near (at a joint); the outer radius reaches across
/// the joint into the next bone's flesh, so the weights fade over a few centimetres there.
const TORSO_RADII: (f32, f32) = (0.10, 0.28);
const HEAD_RADII: (f32, f32) = (0.12, 0.25);
const ARM_RADII: (f32, f32) = (0.05, 0.12);
const LEG_RADII: (f32, f32) = (0.07, 0.16);
const FOOT_RADII: (f32, f32) = (0.04, 0.08);

/// The skeleton at rest.
fn skeleton() -> Vec<Bone> {
    let bone = |name, parent, head: [f32; 3], tail: [f32; 3], (inner, outer)| Bone {
        name,
        parent,
        head,
        tail,
        radii: Radii::new(inner, outer).expect("the character's radii are 0 < inner < outer"),
    };
    let (arm_x, leg_x) = (0.24, 0.1);
    vec![
        bone("hips", None, [0., 0.92, 0.], [0., 1.10, 0.], TORSO_RADII),
        bone(
            "spine",
            Some(HIPS),
            [0., 1.10, 0.],
            [0., 1.30, 0.],
            TORSO_RADII,
        ),
        bone(
            "chest",
            Some(SPINE),
            [0., 1.30, 0.],
            [0., 1.52, 0.],
            TORSO_RADII,
        ),
        bone(
            "head",
            Some(CHEST),
            [0., 1.52, 0.],
            [0., 1.82, 0.],
            HEAD_RADII,
        ),
        bone(
            "upper_arm.L",
            Some(CHEST),
            [arm_x, 1.44, 0.],
            [arm_x, 1.17, 0.],
            ARM_RADII,
        ),
        bone(
            "forearm.L",
            Some(UPPER_ARM_L),
            [arm_x, 1.17, 0.],
            [arm_x, 0.90, 0.],
            ARM_RADII,
        ),
        bone(
            "upper_arm.R",
            Some(CHEST),
            [-arm_x, 1.44, 0.],
            [-arm_x, 1.17, 0.],
            ARM_RADII,
        ),
        bone(
            "forearm.R",
            Some(UPPER_ARM_R),
            [-arm_x, 1.17, 0.],
            [-arm_x, 0.90, 0.],
            ARM_RADII,
        ),
        bone(
            "thigh.L",
            Some(HIPS),
            [leg_x, 0.90, 0.],
            [leg_x, 0.49, 0.],
            LEG_RADII,
        ),
        bone(
            "shin.L",
            Some(THIGH_L),
            [leg_x, 0.49, 0.],
            [leg_x, 0.08, 0.],
            LEG_RADII,
        ),
        bone(
            "thigh.R",
            Some(HIPS),
            [-leg_x, 0.90, 0.],
            [-leg_x, 0.49, 0.],
            LEG_RADII,
        ),
        bone(
            "shin.R",
            Some(THIGH_R),
            [-leg_x, 0.49, 0.],
            [-leg_x, 0.08, 0.],
            LEG_RADII,
        ),
        // The ankles, at the shins' ends; each foot's segment runs to its toes.
        bone(
            "foot.L",
            Some(SHIN_L),
            [leg_x, 0.08, 0.],
            [leg_x, 0.03, 0.14],
            FOOT_RADII,
        ),
        bone(
            "foot.R",
            Some(SHIN_R),
            [-leg_x, 0.08, 0.],
            [-leg_x, 0.03, 0.14],
            FOOT_RADII,
        ),
    ]
}

/// The bones that may influence `part`, in increasing order (as [`Envelopes`] takes them).
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
        BodyPart::Head => &[CHEST, HEAD],
        BodyPart::Arm(Side::Left) => &[CHEST, UPPER_ARM_L, FOREARM_L],
        BodyPart::Arm(Side::Right) => &[CHEST, UPPER_ARM_R, FOREARM_R],
        BodyPart::Leg(Side::Left) => &[HIPS, THIGH_L, SHIN_L, FOOT_L],
        BodyPart::Leg(Side::Right) => &[HIPS, THIGH_R, SHIN_R, FOOT_R],
    }
}

/// The envelopes of the bones that may influence `part`: one capsule each, around its
/// segment with its radii.
fn capsules(bones: &[Bone], part: BodyPart) -> Vec<Capsule> {
    candidates(part)
        .iter()
        .map(|&b| {
            let bone = &bones[b];
            Capsule::new(b as u16, bone.head, bone.tail, bone.radii)
                .expect("the character's bones are finite")
        })
        .collect()
}

/// Envelope weights of every vertex, by skin-core's [`Envelopes::weigh`] over the capsules of
/// its body part's bones: the four strongest, normalised, strongest first; a vertex no
/// envelope reaches follows the bone whose outer radius is nearest.
fn weigh(bones: &[Bone], mesh: &Mesh) -> (Vec<[u8; 4]>, Vec<[f32; 4]>) {
    mesh.body_parts
        .iter()
        .zip(&mesh.positions)
        .map(|(&part, &p)| {
            let capsules = capsules(bones, part);
            let w = Envelopes::new(&capsules)
                .expect("every body part has bones, in increasing order")
                .weigh(p);
            (w.joints.map(|j| j as u8), w.weights)
        })
        .unzip()
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
