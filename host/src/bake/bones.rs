//! The asset's bones and joint entries: which rig node each bone is, and which
//! `(bone, inverse bind)` pair each palette entry names.

use std::collections::BTreeMap;

use skin_core::affine::Affine;
use skin_core::quat::Quat;
use skin_core::transform::Transform;

use super::error::BakeError;
use crate::pose::units::{centred_affine, scaled_affine};
use crate::rig::Rig;

/// The asset's skeleton: the rig's [posed nodes](Rig::posed_nodes), parents first.
pub struct Bones {
    /// The rig node of each bone.
    pub nodes: Vec<usize>,
    /// The bone of each rig node (`u16::MAX` for nodes that are not bones).
    pub bone_of: Vec<u16>,
    /// Each bone's parent bone.
    pub parents: Vec<Option<u16>>,
    /// Each bone's rest transform as stored in the file, translation in asset units.
    pub rest: Vec<Transform<f32>>,
}

impl Bones {
    /// The bones of `rig`, lengths times `s` (model units to asset units).
    pub fn new(rig: &Rig, s: f32) -> Result<Self, BakeError> {
        let nodes = rig.posed_nodes();
        if nodes.len() >= usize::from(u16::MAX) {
            return Err(BakeError::Capacity(format!(
                "{} bones; the format numbers at most {} bones",
                nodes.len(),
                u16::MAX - 1
            )));
        }
        let mut bone_of = vec![u16::MAX; rig.nodes.len()];
        for (b, &n) in nodes.iter().enumerate() {
            bone_of[n] = b as u16;
        }
        let parents = nodes
            .iter()
            .map(|&n| rig.nodes[n].parent.map(|p| bone_of[p]))
            .collect();
        let rest = nodes
            .iter()
            .map(|&n| {
                let l = &rig.nodes[n].local;
                let [x, y, z, w] = l.rotation;
                // Stored as in the file (translation in asset units): the reader converts
                // them exactly as `pose` does.
                Transform {
                    translation: l.translation.map(|v| v * s),
                    rotation: Quat { x, y, z, w },
                    scale: l.scale,
                }
            })
            .collect();
        Ok(Self {
            nodes,
            bone_of,
            parents,
            rest,
        })
    }
}

/// A joint entry: a skin's joint `(skin, joint)`, or a mesh node drawn rigidly.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum JointKey {
    /// Joint `.1` of skin `.0`.
    Skin(usize, usize),
    /// A mesh node placed by its own world matrix (an identity inverse bind).
    Rigid(usize),
}

/// The joint entries the parts' palettes use, numbered in order of first use. An entry is
/// a `(bone, inverse bind)` pair: skins that bind the same node with the same matrix (a
/// character cut into many small skins over one skeleton) share its entry, so the asset
/// holds one entry a joint, not one a joint of every skin.
pub struct Joints<'a> {
    rig: &'a Rig,
    bones: &'a Bones,
    /// Model units to asset units.
    s: f32,
    /// The centre skinned positions are stored less (asset units): each skin joint's
    /// inverse bind is `B⁻¹ · T(centre)`.
    centre: [f32; 3],
    /// The entry of each `(bone, inverse bind bits)`.
    numbers: BTreeMap<(u16, [[u32; 4]; 3]), u16>,
    /// `(bone, inverse bind)` of each entry, in entry order.
    pub list: Vec<(u16, Affine<f32>)>,
}

impl<'a> Joints<'a> {
    /// No entries yet, for the bones of `rig`, inverse binds scaled by `s` and taking
    /// positions stored less `centre` (asset units).
    pub fn new(rig: &'a Rig, bones: &'a Bones, s: f32, centre: [f32; 3]) -> Self {
        Self {
            rig,
            bones,
            s,
            centre,
            numbers: BTreeMap::new(),
            list: Vec::new(),
        }
    }

    /// The entry of `key`, added when new (or an equal entry already made for another
    /// key).
    pub fn entry(&mut self, key: JointKey) -> Result<u16, BakeError> {
        let (node, ibm) = match key {
            JointKey::Skin(sk, j) => {
                let skin = &self.rig.skins[sk];
                (
                    skin.joints[j],
                    centred_affine(&scaled_affine(&skin.inverse_binds[j], self.s), self.centre),
                )
            }
            JointKey::Rigid(n) => (n, Affine::IDENTITY.rows),
        };
        let bone = self.bones.bone_of[node];
        let bits = ibm.map(|row| row.map(|x| (x + 0.0).to_bits()));
        if let Some(&e) = self.numbers.get(&(bone, bits)) {
            return Ok(e);
        }
        let e = u16::try_from(self.list.len())
            .map_err(|_| BakeError::Capacity("more than 65536 joint entries".into()))?;
        self.list.push((bone, Affine { rows: ibm }));
        self.numbers.insert((bone, bits), e);
        Ok(e)
    }
}
