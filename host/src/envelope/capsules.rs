//! The envelopes of a skin: one capsule from each joint to each child joint, in the mesh's
//! bind space.
//!
//! A joint's bind position is where its inverse bind matrix sends the origin back to:
//! `IBM⁻¹·0`, in the space of the mesh's vertices (which is why the importer's folding of
//! authoring scales, `IBM → D(c)·IBM`, leaves it unchanged). A joint's bone runs to each of
//! its child joints (the nearest descendants that are joints of the skin), one capsule
//! each. A joint without child joints gets a bone half as long as its parent joint's
//! distance, continuing that direction (a hand or a head past the wrist or neck), or a
//! sphere when it has no parent joint either.

use skin_core::envelope::Capsule;

use super::error::WeightsError;
use super::radii::RadiiTable;
use crate::rig::Rig;

/// The capsules of skin `skin` of `rig`, sorted by joint, with radii from `radii`.
pub fn capsules(rig: &Rig, skin: usize, radii: &RadiiTable) -> Result<Vec<Capsule>, WeightsError> {
    let s = &rig.skins[skin];
    if s.joints.len() > usize::from(u16::MAX) + 1 {
        return Err(WeightsError::TooManyJoints {
            skin,
            joints: s.joints.len(),
        });
    }
    let heads = s
        .inverse_binds
        .iter()
        .enumerate()
        .map(|(joint, m)| {
            bind_position(m).map_err(|determinant| WeightsError::Singular {
                skin,
                joint,
                determinant,
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let parents: Vec<Option<usize>> = (0..s.joints.len())
        .map(|j| parent_joint(rig, &s.joints, j))
        .collect();
    let mut out = Vec::new();
    for (j, &head) in heads.iter().enumerate() {
        let r = radii.of(rig, s.joints[j])?;
        let joint = j as u16;
        let label = || super::radii::joint_label(rig, s.joints[j]);
        let capsule = |tail: [f32; 3]| {
            Capsule::new(joint, head, tail, r).map_err(|source| WeightsError::Radii {
                joint: label(),
                source,
            })
        };
        let children: Vec<usize> = (0..s.joints.len())
            .filter(|&c| parents[c] == Some(j))
            .collect();
        if children.is_empty() {
            let tail = match parents[j] {
                Some(p) => {
                    let from = heads[p];
                    [0, 1, 2].map(|a| head[a] + 0.5 * (head[a] - from[a]))
                }
                None => head,
            };
            out.push(capsule(tail)?);
        }
        for c in children {
            out.push(capsule(heads[c])?);
        }
    }
    Ok(out)
}

/// The nearest ancestor of joint `j`'s node that is a joint of the same skin.
fn parent_joint(rig: &Rig, joints: &[usize], j: usize) -> Option<usize> {
    let mut at = rig.nodes[joints[j]].parent;
    while let Some(n) = at {
        if let Some(p) = joints.iter().position(|&k| k == n) {
            return Some(p);
        }
        at = rig.nodes[n].parent;
    }
    None
}

/// `IBM⁻¹·0` for a row-major 3×4 inverse bind matrix `[A | t]`: the solution of
/// `A·x = −t` (Cramer's rule, in `f64`), or the determinant when `A` is singular.
pub fn bind_position(m: &[[f32; 4]; 3]) -> Result<[f32; 3], f64> {
    let a = |r: usize, c: usize| f64::from(m[r][c]);
    let rhs = [-a(0, 3), -a(1, 3), -a(2, 3)];
    let det3 = |c0: [f64; 3], c1: [f64; 3], c2: [f64; 3]| {
        c0[0] * (c1[1] * c2[2] - c1[2] * c2[1]) - c1[0] * (c0[1] * c2[2] - c0[2] * c2[1])
            + c2[0] * (c0[1] * c1[2] - c0[2] * c1[1])
    };
    let col = |c: usize| [a(0, c), a(1, c), a(2, c)];
    let det = det3(col(0), col(1), col(2));
    let scale = (0..3)
        .map(|c| col(c).iter().map(|v| v * v).sum::<f64>().sqrt())
        .product::<f64>();
    if !det.is_finite() || det.abs() <= 1e-12 * scale || scale == 0.0 {
        return Err(det);
    }
    let x = [
        det3(rhs, col(1), col(2)) / det,
        det3(col(0), rhs, col(2)) / det,
        det3(col(0), col(1), rhs) / det,
    ];
    Ok(x.map(|v| v as f32))
}
