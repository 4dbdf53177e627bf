//! A Mixamo-style character built in code: 67 joints named as Mixamo names them (hips,
//! three spine joints, neck, head and its end, two eyes, per side a shoulder, arm, forearm,
//! hand and five four-joint fingers, a leg of up-leg, leg, foot, toe and its end), joint
//! translations in centimetres under an `Armature` node of scale 0.01, vertices in metres
//! (the bind pose's world space, as Blender's exporter writes them), inverse binds the
//! inverse of each joint's bind world (`D(100)` then the joint's position negated).
//!
//! The mesh is a tube around every bone (rings of four vertices at three points along it),
//! each ring weighted between the bone's two joints; fingers are a few millimetres thick, the
//! torso several centimetres: the small parts next to a big body that precision must hold.
//! One clip, "walk" (1 s, five `LINEAR` keys): the hips travel 60 cm forward and bob, the
//! spine twists, arms and legs swing, elbows and knees bend, fingers curl.

use crate::gltf_gen::{Gen, UNSIGNED_BYTE, UNSIGNED_SHORT};
use serde_json::json;
use std::f32::consts::TAU;

/// One joint: its name, its parent (an index into the list), its rest translation (cm).
type Joint = (String, Option<usize>, [f32; 3]);

/// The joints a Mixamo-style character has, parents first.
pub fn joints() -> Vec<Joint> {
    let mut j: Vec<Joint> = Vec::new();
    let add = |j: &mut Vec<Joint>, name: String, parent: Option<usize>, t: [f32; 3]| {
        j.push((name, parent, t));
        j.len() - 1
    };
    let hips = add(&mut j, "mixamorig:Hips".into(), None, [0.0, 100.0, 0.0]);
    let spine = add(
        &mut j,
        "mixamorig:Spine".into(),
        Some(hips),
        [0.0, 10.0, 0.0],
    );
    let spine1 = add(
        &mut j,
        "mixamorig:Spine1".into(),
        Some(spine),
        [0.0, 12.0, 0.0],
    );
    let spine2 = add(
        &mut j,
        "mixamorig:Spine2".into(),
        Some(spine1),
        [0.0, 14.0, 0.0],
    );
    let neck = add(
        &mut j,
        "mixamorig:Neck".into(),
        Some(spine2),
        [0.0, 15.0, 0.0],
    );
    let head = add(
        &mut j,
        "mixamorig:Head".into(),
        Some(neck),
        [0.0, 10.0, 1.0],
    );
    add(
        &mut j,
        "mixamorig:HeadTop_End".into(),
        Some(head),
        [0.0, 18.0, 0.0],
    );
    add(
        &mut j,
        "mixamorig:LeftEye".into(),
        Some(head),
        [3.2, 7.0, 8.0],
    );
    add(
        &mut j,
        "mixamorig:RightEye".into(),
        Some(head),
        [-3.2, 7.0, 8.0],
    );
    for (side, x) in [("Left", 1.0f32), ("Right", -1.0)] {
        let shoulder = add(
            &mut j,
            format!("mixamorig:{side}Shoulder"),
            Some(spine2),
            [6.0 * x, 10.0, 0.0],
        );
        let arm = add(
            &mut j,
            format!("mixamorig:{side}Arm"),
            Some(shoulder),
            [12.0 * x, 0.0, 0.0],
        );
        let fore = add(
            &mut j,
            format!("mixamorig:{side}ForeArm"),
            Some(arm),
            [27.0 * x, 0.0, 0.0],
        );
        let hand = add(
            &mut j,
            format!("mixamorig:{side}Hand"),
            Some(fore),
            [25.0 * x, 0.0, 0.0],
        );
        let fingers: [(&str, [f32; 3], [f32; 3]); 5] = [
            ("Thumb", [2.5, -1.0, 2.5], [3.0, 0.0, 1.0]),
            ("Index", [9.0, 0.0, 2.5], [3.5, 0.0, 0.0]),
            ("Middle", [9.5, 0.0, 0.7], [4.0, 0.0, 0.0]),
            ("Ring", [9.0, 0.0, -1.2], [3.6, 0.0, 0.0]),
            ("Pinky", [8.0, 0.0, -3.0], [2.8, 0.0, 0.0]),
        ];
        for (finger, base, step) in fingers {
            let mut at = hand;
            for k in 1..=4 {
                // Each phalanx a little shorter than the one before it.
                let t = if k == 1 {
                    base
                } else {
                    step.map(|c| c * (1.0 - 0.15 * (k - 2) as f32))
                };
                at = add(
                    &mut j,
                    format!("mixamorig:{side}Hand{finger}{k}"),
                    Some(at),
                    [t[0] * x, t[1], t[2]],
                );
            }
        }
        let up = add(
            &mut j,
            format!("mixamorig:{side}UpLeg"),
            Some(hips),
            [9.0 * x, -5.0, 0.0],
        );
        let leg = add(
            &mut j,
            format!("mixamorig:{side}Leg"),
            Some(up),
            [0.0, -45.0, 0.0],
        );
        let foot = add(
            &mut j,
            format!("mixamorig:{side}Foot"),
            Some(leg),
            [0.0, -42.0, 0.0],
        );
        let toe = add(
            &mut j,
            format!("mixamorig:{side}ToeBase"),
            Some(foot),
            [0.0, -8.0, 12.0],
        );
        add(
            &mut j,
            format!("mixamorig:{side}Toe_End"),
            Some(toe),
            [0.0, 0.0, 8.0],
        );
    }
    j
}

/// The rotation of joint `name` at phase `phase` (turns) of the walk: an axis and an angle
/// (radians).
fn swing(name: &str, phase: f32) -> ([f32; 3], f32) {
    let s = (TAU * phase).sin();
    let side = if name.contains("Left") { 1.0 } else { -1.0 };
    let part = name.trim_start_matches("mixamorig:");
    let part = part.trim_start_matches("Left").trim_start_matches("Right");
    match part {
        "Hips" => ([0.0, 1.0, 0.0], 0.1 * s),
        "Spine" | "Spine1" | "Spine2" => ([0.0, 1.0, 0.0], -0.08 * s),
        "Neck" | "Head" => ([1.0, 0.0, 0.0], 0.1 * s),
        "Shoulder" => ([0.0, 0.0, 1.0], 0.05 * s),
        // Arms down from the T-pose and swinging, elbows bent.
        "Arm" => ([0.3, 0.0, side], -1.1 - 0.3 * s * side),
        "ForeArm" => ([0.0, side, 0.0], 0.4 + 0.3 * s),
        "Hand" => ([1.0, 0.0, 0.0], 0.2 * s),
        "UpLeg" => ([1.0, 0.0, 0.0], 0.5 * s * side),
        "Leg" => ([1.0, 0.0, 0.0], 0.4 + 0.4 * s * side),
        "Foot" => ([1.0, 0.0, 0.0], -0.2 * s * side),
        // Fingers curl and open; everything else holds still.
        f if f.starts_with("Hand") && !f.ends_with('4') => ([0.0, 0.0, -side], 0.6 + 0.5 * s),
        _ => ([1.0, 0.0, 0.0], 0.0),
    }
}

/// A unit quaternion `[x, y, z, w]` turning `angle` radians about `axis`.
fn quaternion(axis: [f32; 3], angle: f32) -> [f32; 4] {
    let len = axis.iter().map(|c| c * c).sum::<f32>().sqrt();
    let (s, c) = (angle / 2.0).sin_cos();
    [axis[0] / len * s, axis[1] / len * s, axis[2] / len * s, c]
}

/// The character, its skeleton `size` times Mixamo's 1.8 m (positions, translations and
/// inverse binds scaled together).
pub fn character(size: f32) -> Gen {
    let joints = joints();
    let mut g = Gen::new();
    // Bind world positions in centimetres (rest rotations are the identity).
    let mut world = vec![[0.0f32; 3]; joints.len()];
    for (i, (_, parent, t)) in joints.iter().enumerate() {
        let base = parent.map_or([0.0; 3], |p| world[p]);
        world[i] = [0, 1, 2].map(|c| base[c] + t[c] * size);
    }
    // A tube along every bone: rings of four at 15 %, 50 % and 85 % of it, radius a fifth of
    // its length within [0.4, 7] cm; the child joint's weight grows along it.
    let (mut pos, mut jnt, mut wgt, mut idx) = (vec![], vec![], vec![], vec![]);
    for (child, (_, parent, _)) in joints.iter().enumerate() {
        let Some(p) = *parent else { continue };
        let (a, b) = (world[p], world[child]);
        let d = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
        let len = d.iter().map(|c| c * c).sum::<f32>().sqrt();
        let r = (0.2 * len).clamp(0.4 * size, 7.0 * size);
        // Two directions across the bone.
        let u = if d[1].abs() > 0.9 * len {
            [1.0, 0.0, 0.0]
        } else {
            [0.0, 1.0, 0.0]
        };
        let n = |v: [f32; 3]| {
            let l = v.iter().map(|c| c * c).sum::<f32>().sqrt();
            v.map(|c| c / l)
        };
        let cross = |x: [f32; 3], y: [f32; 3]| {
            [
                x[1] * y[2] - x[2] * y[1],
                x[2] * y[0] - x[0] * y[2],
                x[0] * y[1] - x[1] * y[0],
            ]
        };
        let e1 = n(cross(d, u));
        let e2 = n(cross(d, e1));
        let first = (pos.len() / 3) as u32;
        for (ring, t) in [0.15f32, 0.5, 0.85].into_iter().enumerate() {
            for k in 0..4 {
                let ang = TAU * k as f32 / 4.0;
                let (s, c) = ang.sin_cos();
                for i in 0..3 {
                    let cm = a[i] + t * d[i] + r * (c * e1[i] + s * e2[i]);
                    pos.push(cm / 100.0);
                }
                let wc = t * t;
                jnt.extend([p as u32, child as u32, 0, 0]);
                wgt.extend([1.0 - wc, wc, 0.0, 0.0]);
            }
            if ring > 0 {
                let (lo, hi) = (first + 4 * (ring as u32 - 1), first + 4 * ring as u32);
                for k in 0..4 {
                    let k1 = (k + 1) % 4;
                    idx.extend([lo + k, lo + k1, hi + k, lo + k1, hi + k1, hi + k]);
                }
            }
        }
    }
    let p = g.floats(&pos, "VEC3", 3);
    let j = g.uints(&jnt, UNSIGNED_BYTE, "VEC4", 4, false);
    let w = g.floats(&wgt, "VEC4", 4);
    let i = g.uints(&idx, UNSIGNED_SHORT, "SCALAR", 1, false);
    let mesh = g.push(
        "meshes",
        json!({"name": "Body", "primitives": [{"attributes": {"POSITION": p, "JOINTS_0": j, "WEIGHTS_0": w}, "indices": i}]}),
    );
    // Nodes: the armature, then the joints in order, then the skinned mesh's node.
    let armature = g.push(
        "nodes",
        json!({"name": "Armature", "scale": [0.01, 0.01, 0.01]}),
    );
    let node = |i: usize| armature + 1 + i;
    for (name, parent, t) in &joints {
        let t = t.map(|c| c * size);
        let n = g.push("nodes", json!({"name": name, "translation": t}));
        let up = parent.map_or(armature, node);
        match g.json["nodes"][up]["children"].as_array_mut() {
            Some(list) => list.push(json!(n)),
            None => g.json["nodes"][up]["children"] = json!([n]),
        }
    }
    let ibm: Vec<f32> = world
        .iter()
        .flat_map(|w| {
            let mut m = [0.0f32; 16];
            [m[0], m[5], m[10], m[15]] = [100.0, 100.0, 100.0, 1.0];
            [m[12], m[13], m[14]] = [-w[0], -w[1], -w[2]];
            m
        })
        .collect();
    let ibm = g.floats(&ibm, "MAT4", 16);
    let ids: Vec<usize> = (0..joints.len()).map(node).collect();
    let skin = g.push("skins", json!({"joints": ids, "inverseBindMatrices": ibm}));
    let body = g.push("nodes", json!({"name": "Body", "mesh": mesh, "skin": skin}));
    g.json["scenes"][0]["nodes"] = json!([armature, body]);
    walk(&mut g, &joints, armature, size);
    g
}

/// The "walk" clip: every joint's rotation keyed at five times, the hips' translation too.
fn walk(g: &mut Gen, joints: &[Joint], armature: usize, size: f32) {
    let times = [0.0f32, 0.25, 0.5, 0.75, 1.0];
    let input = g.floats(&times, "SCALAR", 1);
    let (mut samplers, mut channels) = (vec![], vec![]);
    for (i, (name, _, rest)) in joints.iter().enumerate() {
        let keys: Vec<f32> = times
            .iter()
            .flat_map(|&t| {
                let (axis, angle) = swing(name, t);
                quaternion(axis, angle)
            })
            .collect();
        let out = g.floats(&keys, "VEC4", 4);
        samplers.push(json!({"input": input, "output": out, "interpolation": "LINEAR"}));
        channels.push(json!({"sampler": samplers.len() - 1, "target": {"node": armature + 1 + i, "path": "rotation"}}));
        if i == 0 {
            let keys: Vec<f32> = times
                .iter()
                .flat_map(|&t| {
                    let bob = 2.0 * (2.0 * TAU * t).cos();
                    [rest[0], rest[1] - 2.0 + bob, 60.0 * t].map(|c| c * size)
                })
                .collect();
            let out = g.floats(&keys, "VEC3", 3);
            samplers.push(json!({"input": input, "output": out, "interpolation": "LINEAR"}));
            channels.push(json!({"sampler": samplers.len() - 1, "target": {"node": armature + 1, "path": "translation"}}));
        }
    }
    g.push(
        "animations",
        json!({"name": "walk", "samplers": samplers, "channels": channels}),
    );
}
