//! Scale folding: an equivalent rig whose node transforms carry no large uniform scale, so
//! the fixed lane's `I8F24` forward kinematics never sees an authoring scale.
//!
//! Exporters put a unit conversion on an armature node: Blender's scale 100 with joint
//! translations in metres/100, Mixamo's scale 0.01 with translations in centimetres. The
//! skinned result does not depend on it, but forward kinematics does: translations ×100 or
//! scales ×100 leave `I8F24` (±128) or its fraction bits. Folding moves the scale out of the
//! hierarchy.
//!
//! Each node `n` gets a factor `c(n)`: its parent's factor times the uniform part of its own
//! rest scale `u(n)` (the cube root of `|sx·sy·sz|`) when `u(n)` lies outside
//! `[1/KEEP, KEEP]` ([`KEEP`]), or its parent's factor alone otherwise; a node that places a mesh by its world matrix (an
//! unskinned mesh) gets `c = 1`, so that mesh is placed exactly as before. The folded local transform is
//! `D(c(parent)) · L(n) · D(1/c(n))` (`D` a uniform scale): translation × `c(parent)`, scale ×
//! `c(parent)/c(n)`, rotation unchanged — and the same linear maps applied to every
//! animation key and tangent of the node, which commute with every interpolation. The
//! products telescope, so a folded world matrix is `W(n) · D(1/c(n))`, and the inverse bind
//! matrix of a joint becomes `D(c(joint)) · IBM`: the palette `W · IBM` and every skinned
//! vertex are unchanged (up to `f32` rounding of the rescaled values, a few ulps).
//!
//! ```
//! use skin_host::character::Character;
//! use skin_host::rig::fold::fold_scale;
//! let mut rig = skin_host::import::from_slice(&Character::new().glb(), None)?;
//! let original = rig.clone();
//! // A Blender-style export: the root ×100, everything below it in units of 1/100.
//! rig.nodes[0].local.scale = [100.0; 3];
//! for n in 1..rig.nodes.len() {
//!     rig.nodes[n].local.translation = rig.nodes[n].local.translation.map(|t| t / 100.0);
//! }
//! for m in rig.skins.iter_mut().flat_map(|s| &mut s.inverse_binds) {
//!     m.iter_mut().flatten().for_each(|v| *v /= 100.0);
//! }
//! fold_scale(&mut rig);
//! // The ×100 is gone from the hierarchy.
//! let t = original.nodes[1].local.translation;
//! let f = rig.nodes[1].local.translation;
//! assert!((0..3).all(|i| (t[i] - f[i]).abs() <= 1e-6 * t[i].abs().max(1.0)));
//! assert!(rig.nodes[0].local.scale.iter().all(|&s| (s - 1.0).abs() < 1e-6));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use super::{Path, Rig};

/// Uniform scales within `[1/KEEP, KEEP]` stay in the hierarchy, where `I8F24` holds them
/// with headroom; only the factors beyond (authoring units) are folded. Keeping them leaves
/// rigs without unit conversions exactly as the file has them.
pub const KEEP: f32 = 2.0;

/// Factors beyond `2^±LIMIT_EXPONENT` are not folded: the rescaled `f32` values would leave
/// its normal range. Such a model fails the lane's range checks instead, with the value named.
pub const LIMIT_EXPONENT: i32 = 40;

/// The uniform part of a scale: the cube root of the volume it scales by.
fn uniform(scale: [f32; 3]) -> f32 {
    (f64::from(scale[0]) * f64::from(scale[1]) * f64::from(scale[2]))
        .abs()
        .cbrt() as f32
}

/// Whether `f` is a factor folding can take out: finite and within `2^±LIMIT_EXPONENT`.
fn foldable(f: f32) -> bool {
    let limit = 2f32.powi(LIMIT_EXPONENT);
    f.is_finite() && f > 1.0 / limit && f < limit
}

/// Each node's factor `c(n)` (see the module documentation), indexed by node.
pub fn factors(rig: &Rig) -> Vec<f32> {
    let mut c = vec![1.0f32; rig.nodes.len()];
    for &n in &rig.order {
        let node = &rig.nodes[n];
        let parent = node.parent.map_or(1.0, |p| c[p]);
        let u = uniform(node.local.scale);
        c[n] = if placed_by_node(rig, n) {
            1.0
        } else if !(1.0 / KEEP..=KEEP).contains(&u) && foldable(u) && foldable(parent * u) {
            parent * u
        } else {
            parent
        };
    }
    c
}

/// Whether node `n` places a mesh by its world matrix: an unskinned mesh, or a skinned node's
/// primitive without weights (glTF ignores a skinned node's own transform otherwise).
fn placed_by_node(rig: &Rig, n: usize) -> bool {
    let node = &rig.nodes[n];
    let Some(mesh) = node.mesh.and_then(|m| rig.meshes.get(m)) else {
        return false;
    };
    node.skin.is_none() || mesh.primitives.iter().any(|p| p.influences.is_none())
}

/// Fold the rig's uniform scales out of its hierarchy (see the module documentation): node
/// rest transforms, translation and scale channels, and inverse bind matrices are rewritten
/// so that every skinned or placed vertex stays where it was.
pub fn fold_scale(rig: &mut Rig) {
    let c = factors(rig);
    if c.iter().all(|&f| f == 1.0) {
        return;
    }
    // The factors a node's translation and scale are multiplied by.
    let by = |n: usize| -> (f32, f32) {
        let parent = rig.nodes[n].parent.map_or(1.0, |p| c[p]);
        (parent, parent / c[n])
    };
    let factors: Vec<(f32, f32)> = (0..rig.nodes.len()).map(by).collect();
    for (node, &(t, s)) in rig.nodes.iter_mut().zip(&factors) {
        node.local.translation = node.local.translation.map(|v| v * t);
        node.local.scale = node.local.scale.map(|v| v * s);
    }
    for channel in rig.clips.iter_mut().flat_map(|clip| &mut clip.channels) {
        let Some(&(t, s)) = factors.get(channel.node) else {
            continue;
        };
        let f = match channel.path {
            Path::Translation => t,
            Path::Scale => s,
            Path::Rotation => continue,
        };
        channel.values.iter_mut().for_each(|v| *v *= f);
    }
    for skin in &mut rig.skins {
        for (&j, ibm) in skin.joints.iter().zip(&mut skin.inverse_binds) {
            let f = c.get(j).copied().unwrap_or(1.0);
            ibm.iter_mut().flatten().for_each(|v| *v *= f);
        }
    }
}
