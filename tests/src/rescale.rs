//! Real-world authoring scales and placements made from any rig: its armatures rescaled
//! ×100 (Blender's centimetre export) or ×0.01 (Mixamo's) with compensating translations,
//! keys and inverse binds — the same skinned result in other units — or the whole model
//! modelled and posed away from the origin ([`shifted`]); or two rigs merged into one scene
//! of several skins ([`merged`]).

use skin_host::rig::fold::fold_scale;
use skin_host::rig::{Interpolation, Path, Rig};

/// The nodes an armature scale goes on: the highest node above each joint that draws no mesh
/// (a skinned mesh node's own transform is ignored by glTF, so scaling it would change
/// nothing to compensate for).
fn armatures(rig: &Rig) -> Vec<usize> {
    let joints: Vec<usize> = rig.skins.iter().flat_map(|s| s.joints.clone()).collect();
    let mut out = Vec::new();
    for &j in &joints {
        let mut top = j;
        let mut at = rig.nodes[j].parent;
        while let Some(p) = at {
            if rig.nodes[p].mesh.is_none() {
                top = p;
            }
            at = rig.nodes[p].parent;
        }
        if !out.contains(&top) {
            out.push(top);
        }
    }
    out
}

/// Whether `node` is `root` or below it.
fn under(rig: &Rig, node: usize, root: usize) -> bool {
    let mut at = Some(node);
    while let Some(n) = at {
        if n == root {
            return true;
        }
        at = rig.nodes[n].parent;
    }
    false
}

/// `rig` with each armature scaled by `f` and everything below it in units of `1/f`: node
/// translations (rest and keys) divided by `f`, the armature's scale (rest and keys)
/// multiplied by it, inverse binds of the joints below it `D(1/f) · IBM`. Every world matrix
/// below an armature becomes `W · D(f)`, every palette `W · IBM` stays the same. Then folded,
/// as the importer folds a file.
pub fn rescaled(rig: &Rig, f: f32) -> Rig {
    let mut r = rig.clone();
    for a in armatures(rig) {
        for n in 0..r.nodes.len() {
            if n == a {
                r.nodes[n].local.scale = r.nodes[n].local.scale.map(|s| s * f);
            } else if under(rig, n, a) {
                r.nodes[n].local.translation = r.nodes[n].local.translation.map(|t| t / f);
            }
        }
        for ch in r.clips.iter_mut().flat_map(|c| &mut c.channels) {
            let by = match ch.path {
                Path::Scale if ch.node == a => f,
                Path::Translation if ch.node != a && under(rig, ch.node, a) => 1.0 / f,
                _ => continue,
            };
            ch.values.iter_mut().for_each(|v| *v *= by);
        }
        for skin in &mut r.skins {
            for (&j, ibm) in skin.joints.iter().zip(&mut skin.inverse_binds) {
                if under(rig, j, a) {
                    ibm.iter_mut().flatten().for_each(|v| *v /= f);
                }
            }
        }
    }
    fold_scale(&mut r);
    r
}

/// `rig` modelled and posed `d` model units away from where it was: every root node's
/// translation (rest and keys; a cubic spline's tangents stay) plus `d`, every skinned
/// primitive's bind positions plus `d` and every inverse bind `IBM · T(−d)`, so that each
/// palette is `T(d) · W · IBM · T(−d)` and every vertex, skinned or placed by its node, ends
/// `d` further on. A skinned mesh drawn by two nodes is moved once.
pub fn shifted(rig: &Rig, d: [f32; 3]) -> Rig {
    let mut r = rig.clone();
    let add = |t: &mut [f32]| t.iter_mut().zip(d).for_each(|(t, d)| *t += d);
    for n in &mut r.nodes {
        if n.parent.is_none() {
            add(&mut n.local.translation);
        }
    }
    for ch in r.clips.iter_mut().flat_map(|c| &mut c.channels) {
        if ch.path != Path::Translation || rig.nodes[ch.node].parent.is_some() {
            continue;
        }
        let (stride, at) = match ch.interpolation {
            Interpolation::CubicSpline => (9, 3),
            _ => (3, 0),
        };
        ch.values
            .chunks_mut(stride)
            .for_each(|k| add(&mut k[at..at + 3]));
    }
    for ibm in r.skins.iter_mut().flat_map(|s| &mut s.inverse_binds) {
        for row in ibm.iter_mut() {
            row[3] -= row[0] * d[0] + row[1] * d[1] + row[2] * d[2];
        }
    }
    let mut moved = vec![false; r.meshes.len()];
    for n in &rig.nodes {
        if let (Some(m), Some(_)) = (n.mesh, n.skin) {
            if !std::mem::replace(&mut moved[m], true) {
                for p in r.meshes[m]
                    .primitives
                    .iter_mut()
                    .filter(|p| p.influences.is_some())
                {
                    p.positions.iter_mut().for_each(|p| add(p));
                }
            }
        }
    }
    r
}

/// One scene of two rigs, as an exporter writes a character and a second one beside it (or
/// two characters merged into one file): `b`'s nodes, skins and meshes after `a`'s, each
/// index moved past `a`'s, and clip `k` of the result playing clip `k` of both (the one
/// that has it, past the other's count), named after `a`'s.
pub fn merged(a: &Rig, b: &Rig) -> Rig {
    let (nodes, meshes, skins) = (a.nodes.len(), a.meshes.len(), a.skins.len());
    let mut r = a.clone();
    r.nodes.extend(b.nodes.iter().map(|n| {
        let mut n = n.clone();
        n.parent = n.parent.map(|p| p + nodes);
        n.mesh = n.mesh.map(|m| m + meshes);
        n.skin = n.skin.map(|s| s + skins);
        n
    }));
    r.order.extend(b.order.iter().map(|n| n + nodes));
    r.skins.extend(b.skins.iter().map(|s| {
        let mut s = s.clone();
        s.joints.iter_mut().for_each(|j| *j += nodes);
        s
    }));
    r.meshes.extend(b.meshes.iter().cloned());
    for (k, clip) in b.clips.iter().enumerate() {
        let mut clip = clip.clone();
        clip.channels.iter_mut().for_each(|c| c.node += nodes);
        clip.weights.iter_mut().for_each(|c| c.node += nodes);
        match r.clips.get_mut(k) {
            Some(into) => {
                into.channels.extend(clip.channels);
                into.weights.extend(clip.weights);
            }
            None => r.clips.push(clip),
        }
    }
    r.warnings.extend(b.warnings.iter().cloned());
    r
}
