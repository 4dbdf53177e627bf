//! The asset's correctives (`skin bake --correctives`): a solved corrective file's RBF
//! ([`crate::psd::Correctives`]) stored once for every morph set whose node draws the
//! corrected mesh, the driving joints renumbered to bones, the targets local to the set,
//! centres and weights rounded to `f32` (the writer stores them in the lane's pose scalar,
//! as `skin pose --correctives` evaluates them).

use skin_core::asset::{CorrectiveParts, CorrectiveRbf};

use super::bones::Bones;
use super::draws::Draw;
use super::error::BakeError;
use crate::psd::Correctives;
use crate::rig::Rig;

/// One set's RBF.
struct RbfData {
    set: u16,
    drivers: Vec<u16>,
    targets: Vec<u16>,
    sigma: f32,
    centres: Vec<[f32; 4]>,
    weights: Vec<f32>,
}

/// Every RBF the asset holds.
pub struct Rbfs {
    list: Vec<RbfData>,
}

impl Rbfs {
    /// The RBFs of `correctives` (none without) over the morph sets of `draws` (one a mesh
    /// node with targets, in part order, as [`super::morphs::Morphs`] numbers them).
    pub fn new(
        rig: &Rig,
        draws: &[Draw],
        bones: &Bones,
        correctives: Option<&Correctives>,
    ) -> Result<Self, BakeError> {
        let Some(c) = correctives else {
            return Ok(Self { list: Vec::new() });
        };
        let drivers = c
            .drivers
            .iter()
            .map(|&n| match bones.bone_of.get(usize::from(n)) {
                Some(&b) if b != u16::MAX => Ok(b),
                _ => Err(BakeError::Capacity(format!(
                    "corrective driving joint node {n} is not a bone of the asset (no skin \
                     binds it and no mesh hangs below it)"
                ))),
            })
            .collect::<Result<Vec<u16>, _>>()?;
        let targets = c
            .targets
            .iter()
            .map(|&t| u16::try_from(t))
            .collect::<Result<Vec<u16>, _>>()
            .map_err(|_| BakeError::Capacity("a corrective target beyond 65536".into()))?;
        let s = &c.solution;
        let mut list = Vec::new();
        let (mut first, mut set) = (0, 0u16);
        while first < draws.len() {
            let (node, mesh) = (draws[first].source.node, draws[first].source.mesh);
            first += draws[first..]
                .iter()
                .take_while(|d| d.source.node == node)
                .count();
            if rig.meshes[mesh].targets() == 0 {
                continue;
            }
            if mesh == c.mesh {
                list.push(RbfData {
                    set,
                    drivers: drivers.clone(),
                    targets: targets.clone(),
                    sigma: s.sigma as f32,
                    centres: s.centres.iter().map(|q| q.map(|v| v as f32)).collect(),
                    weights: s.weights.iter().map(|&w| w as f32).collect(),
                });
            }
            set += 1;
        }
        if list.is_empty() {
            return Err(BakeError::Capacity(format!(
                "correctives: no node of the asset draws mesh {} with its morph targets",
                c.mesh
            )));
        }
        Ok(Self { list })
    }

    /// RBFs (one a set whose node draws the corrected mesh).
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// `f` given the writer's view of the RBFs (`None` without any).
    pub fn with_parts<R>(&self, f: impl FnOnce(Option<&CorrectiveParts<'_>>) -> R) -> R {
        if self.list.is_empty() {
            return f(None);
        }
        let rbfs: Vec<CorrectiveRbf<'_>> = self
            .list
            .iter()
            .map(|r| CorrectiveRbf {
                set: r.set,
                drivers: &r.drivers,
                targets: &r.targets,
                sigma: r.sigma,
                centres: &r.centres,
                weights: &r.weights,
            })
            .collect();
        f(Some(&CorrectiveParts { rbfs: &rbfs }))
    }
}
