//! Every skinned mesh of a rig weighed by its skin's envelopes.

use skin_core::envelope::Envelopes;

use super::capsules;
use super::error::WeightsError;
use super::radii::RadiiTable;
use crate::rig::{Influence4, Rig};

/// A rig with envelope weights, and what the weighing had to leave out.
#[derive(Clone, Debug, PartialEq)]
pub struct Weighted {
    /// The rig with every weighed primitive's influences replaced.
    pub rig: Rig,
    /// The `(mesh, primitive)` pairs weighed, in mesh order.
    pub primitives: Vec<(usize, usize)>,
    /// Their vertices.
    pub vertices: usize,
    /// Capsules used, over all skins weighed.
    pub capsules: usize,
    /// Vertices that more than four joints reached (the rest was dropped).
    pub overfull: usize,
    /// The largest share of a vertex's influence dropped.
    pub largest_dropped: f32,
    /// Vertices no envelope reached (each follows the joint whose envelope is nearest).
    pub outside: usize,
}

/// The skin that binds each mesh, or `None` for meshes no node skins. A mesh drawn with
/// several skins takes the first (in node order), provided the others bind it the same way.
fn mesh_skins(rig: &Rig) -> Result<Vec<Option<usize>>, WeightsError> {
    let mut out = vec![None; rig.meshes.len()];
    for (_, mesh, skin) in rig.mesh_nodes() {
        let Some(skin) = skin else { continue };
        match out[mesh] {
            None => out[mesh] = Some(skin),
            Some(first) => {
                let (a, b) = (&rig.skins[first], &rig.skins[skin]);
                if a.joints.len() != b.joints.len() || a.inverse_binds != b.inverse_binds {
                    return Err(WeightsError::MeshSkins {
                        mesh,
                        first,
                        second: skin,
                    });
                }
            }
        }
    }
    Ok(out)
}

/// Weigh every skinned mesh of `rig` by its skin's envelopes with `radii`.
pub fn weigh(rig: &Rig, radii: &RadiiTable) -> Result<Weighted, WeightsError> {
    radii.check(rig)?;
    let skins = mesh_skins(rig)?;
    let mut by_skin = vec![None; rig.skins.len()];
    let mut out = Weighted {
        rig: rig.clone(),
        primitives: Vec::new(),
        vertices: 0,
        capsules: 0,
        overfull: 0,
        largest_dropped: 0.0,
        outside: 0,
    };
    for (mesh, skin) in skins.iter().enumerate() {
        let Some(skin) = *skin else { continue };
        if by_skin[skin].is_none() {
            let c = capsules::capsules(rig, skin, radii)?;
            out.capsules += c.len();
            by_skin[skin] = Some(c);
        }
        let capsules = by_skin[skin].as_deref().unwrap_or_default();
        let envelopes =
            Envelopes::new(capsules).map_err(|source| WeightsError::Envelopes { skin, source })?;
        for (p, prim) in out.rig.meshes[mesh].primitives.iter_mut().enumerate() {
            let mut influences = Vec::with_capacity(prim.positions.len());
            let mut most = 1;
            for &position in &prim.positions {
                let w = envelopes.weigh(position);
                out.outside += usize::from(w.outside);
                if w.dropped > 0.0 {
                    out.overfull += 1;
                    out.largest_dropped = out.largest_dropped.max(w.dropped);
                }
                most = most.max(w.weights.iter().filter(|&&x| x > 0.0).count());
                influences.push(Influence4 {
                    joints: w.joints,
                    weights: w.weights,
                });
            }
            out.vertices += influences.len();
            prim.influences = Some(influences);
            prim.max_influences = most;
            prim.largest_dropped = 0.0;
            out.primitives.push((mesh, p));
        }
    }
    if out.primitives.is_empty() {
        return Err(WeightsError::NoSkin);
    }
    Ok(out)
}
