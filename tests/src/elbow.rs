//! A generated elbow for pose-space deformation: a closed cylinder along x from 0 to 2,
//! bent at x = 1 by a forearm bone about z, its corrective shapes (each vertex moved, in
//! bind space, to where dual quaternion skinning puts it, which keeps the volume), and the
//! model as glTF with those correctives as morph targets and a clip bending the elbow from
//! 0° to 150° at 100° a second.

use serde_json::json;

use crate::dual_oracle::{dqs_point, Bone};
use crate::gltf_gen::{Gen, UNSIGNED_SHORT};
use crate::oracle::{lbs_point, M34, V3};

/// Rings along the arm.
pub const RINGS: usize = 41;
/// Vertices around a ring.
pub const SEGMENTS: usize = 16;
/// The arm's radius.
pub const RADIUS: f64 = 0.25;
/// The sculpted poses, degrees: one corrective each.
pub const SCULPTED: [f64; 2] = [60.0, 120.0];

/// A lattice file for [`gltf`]'s elbow (docs/DEFORMERS.md): a quadratic lattice around the
/// upper arm, whose top middle control point rises 0.1 by 0.75 s and rests again at 1.5 s
/// (breathing); its boundary points rest, so the deformation is continuous.
pub const BREATH: &str = r#"{
  "min": [-0.1, -0.4, -0.4], "max": [0.9, 0.4, 0.4], "degree": [2, 2, 2],
  "keys": [
    {"time": 0, "moves": []},
    {"time": 0.75, "moves": [{"point": [1, 2, 1], "by": [0, 0.1, 0]}]},
    {"time": 1.5, "moves": []}
  ]
}"#;

/// The corrective file of [`gltf`]'s elbow (docs/DEFORMERS.md): its two targets at the
/// sculpted bends of the forearm, σ = 0.5.
pub const CORRECTIVES: &str = r#"{
  "mesh": "arm", "sigma": 0.5, "joints": ["forearm"],
  "poses": [
    {"rotations": [[0, 0, 0.5, 0.8660254]], "targets": {"bend60": 1}},
    {"rotations": [[0, 0, 0.8660254, 0.5]], "targets": {"bend120": 1}}
  ]
}"#;

/// The arm: rings along x from 0 to 2 (the elbow at x = 1), a centre vertex closing each
/// end; the forearm's weight rising smoothly from x = 0.75 to 1.25.
pub struct Arm {
    /// Bind positions.
    pub positions: Vec<V3>,
    /// The forearm bone's weight per vertex (the upper arm's is the rest).
    pub forearm: Vec<f64>,
    /// Outward triangles.
    pub triangles: Vec<[usize; 3]>,
}

pub fn arm() -> Arm {
    let mut positions = Vec::new();
    for r in 0..RINGS {
        let x = 2.0 * r as f64 / (RINGS - 1) as f64;
        for s in 0..SEGMENTS {
            let a = std::f64::consts::TAU * s as f64 / SEGMENTS as f64;
            positions.push([x, RADIUS * a.cos(), RADIUS * a.sin()]);
        }
    }
    let ends = positions.len();
    positions.push([0.0, 0.0, 0.0]);
    positions.push([2.0, 0.0, 0.0]);
    let at = |r: usize, s: usize| r * SEGMENTS + s % SEGMENTS;
    let mut triangles = Vec::new();
    for r in 0..RINGS - 1 {
        for s in 0..SEGMENTS {
            triangles.push([at(r, s), at(r, s + 1), at(r + 1, s + 1)]);
            triangles.push([at(r, s), at(r + 1, s + 1), at(r + 1, s)]);
        }
    }
    for s in 0..SEGMENTS {
        triangles.push([ends, at(0, s + 1), at(0, s)]);
        triangles.push([ends + 1, at(RINGS - 1, s), at(RINGS - 1, s + 1)]);
    }
    let forearm = positions
        .iter()
        .map(|p| {
            let t = ((p[0] - 0.75) / 0.5).clamp(0.0, 1.0);
            t * t * (3.0 - 2.0 * t)
        })
        .collect();
    Arm {
        positions,
        forearm,
        triangles,
    }
}

/// The enclosed volume (outward triangles).
pub fn volume(p: &[V3], triangles: &[[usize; 3]]) -> f64 {
    triangles
        .iter()
        .map(|&[a, b, c]| {
            let (a, b, c) = (p[a], p[b], p[c]);
            (a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0])
                + a[2] * (b[0] * c[1] - b[1] * c[0]))
                / 6.0
        })
        .sum()
}

/// The elbow bent to 120° without its correctives (`plain`) and with them (`corrected`),
/// each vertex in `arm`'s order: LBS loses over 5 % of the arm's volume, the correctives
/// keep it within 1 % and the shape within 10⁻³ of dual quaternion skinning's (the clip's
/// slerp and the lane's rounding: a few 10⁻⁴ of the arm's length in the fixed lane), which
/// the plain elbow misses by over 0.1. `what` names the case in the messages.
pub fn assert_corrected(what: &str, arm: &Arm, plain: &[V3], corrected: &[V3]) {
    let rest = volume(&arm.positions, &arm.triangles);
    let change = |p: &[V3]| (volume(p, &arm.triangles) - rest) / rest;
    let target = dqs(arm, &bones(120.0, 1.0), &arm.positions);
    let far = |p: &[V3]| crate::oracle::farthest(p, &target);
    eprintln!(
        "{what}: LBS volume {:+.2} %, corrected {:+.2} %; from DQS {:.2e} / {:.2e}",
        100.0 * change(plain),
        100.0 * change(corrected),
        far(plain),
        far(corrected)
    );
    assert!(change(plain) < -0.05, "{what}");
    assert!(change(corrected).abs() < 0.01, "{what}");
    assert!(far(corrected) < 1e-3 && far(plain) > 0.1, "{what}");
}

/// The elbow's rotation about z by `deg`, `[x, y, z, w]`.
pub fn bend(deg: f64) -> [f64; 4] {
    let h = deg.to_radians() / 2.0;
    [0.0, 0.0, h.sin(), h.cos()]
}

/// The forearm bone: the rotation about the elbow (1, 0, 0), scaled by `unit`.
pub fn bones(deg: f64, unit: f64) -> [Bone; 2] {
    let q = bend(deg);
    let r = crate::oracle::quat_to_matrix(q);
    let p = [unit, 0.0, 0.0];
    let t = [0, 1, 2].map(|i| p[i] - (0..3).map(|k| r[i][k] * p[k]).sum::<f64>());
    [
        Bone {
            q: [0.0, 0.0, 0.0, 1.0],
            t: [0.0; 3],
        },
        Bone { q, t },
    ]
}

/// A bone's matrix.
pub fn matrix(b: &Bone) -> M34 {
    crate::oracle::trs(b.t, b.q, [1.0; 3])
}

/// `positions` skinned by LBS with the arm's weights.
pub fn lbs(arm: &Arm, bones: &[Bone; 2], positions: &[V3]) -> Vec<V3> {
    let palette = [matrix(&bones[0]), matrix(&bones[1])];
    positions
        .iter()
        .zip(&arm.forearm)
        .map(|(&p, &w)| lbs_point(&palette, &[0, 1], &[1.0 - w, w], p))
        .collect()
}

/// `positions` skinned by DQS (the `f64` oracle) with the arm's weights.
pub fn dqs(arm: &Arm, bones: &[Bone; 2], positions: &[V3]) -> Vec<V3> {
    positions
        .iter()
        .zip(&arm.forearm)
        .map(|(&p, &w)| dqs_point(bones, &[0, 1], &[1.0 - w, w], p))
        .collect()
}

/// The corrective in bind space at `deg`: `δ = A⁻¹·(dqs − lbs)`, `A` the vertex's
/// blended rotation part.
pub fn corrective(arm: &Arm, unit: f64, deg: f64) -> Vec<V3> {
    let positions: Vec<V3> = arm.positions.iter().map(|p| p.map(|c| c * unit)).collect();
    let b = bones(deg, unit);
    let (want, have) = (dqs(arm, &b, &positions), lbs(arm, &b, &positions));
    let r = crate::oracle::quat_to_matrix(b[1].q);
    arm.forearm
        .iter()
        .zip(want.iter().zip(&have))
        .map(|(&w, (t, l))| {
            let a: M34 = std::array::from_fn(|i| {
                let mut row = [0.0; 4];
                for k in 0..3 {
                    row[k] = w * r[i][k] + if i == k { 1.0 - w } else { 0.0 };
                }
                row
            });
            let inv = crate::oracle::inverse(&a).expect("an invertible blend below 180°");
            let d = [0, 1, 2].map(|i| t[i] - l[i]);
            crate::oracle::transform_vector(&inv, d)
        })
        .collect()
}

/// The elbow as glTF: nodes `upper` (joint 0) and `forearm` (joint 1, at x = 1), mesh `arm`
/// with one morph target per `SCULPTED` pose (`bend60`, `bend120`: the correctives of
/// [`corrective`]), default weights 0, and the clip `bend` (the forearm's rotation about z
/// from 0° at 0 s to 150° at 1.5 s).
pub fn gltf() -> Gen {
    let arm = arm();
    let mut g = Gen::new();
    let flat = |v: &[V3]| -> Vec<f32> { v.iter().flatten().map(|&c| c as f32).collect() };
    let normals: Vec<V3> = arm
        .positions
        .iter()
        .map(|p| {
            let r = (p[1] * p[1] + p[2] * p[2]).sqrt();
            if r > 0.0 {
                [0.0, p[1] / r, p[2] / r]
            } else {
                [if p[0] > 1.0 { 1.0 } else { -1.0 }, 0.0, 0.0]
            }
        })
        .collect();
    let joints: Vec<u32> = arm.positions.iter().flat_map(|_| [0, 1, 0, 0]).collect();
    let weights: Vec<f32> = arm
        .forearm
        .iter()
        .flat_map(|&w| [(1.0 - w) as f32, w as f32, 0.0, 0.0])
        .collect();
    let indices: Vec<u32> = arm.triangles.iter().flatten().map(|&i| i as u32).collect();
    let targets: Vec<serde_json::Value> = SCULPTED
        .iter()
        .map(|&deg| json!({"POSITION": g.floats(&flat(&corrective(&arm, 1.0, deg)), "VEC3", 3)}))
        .collect();
    let attributes = json!({
        "POSITION": g.floats(&flat(&arm.positions), "VEC3", 3),
        "NORMAL": g.floats(&flat(&normals), "VEC3", 3),
        "JOINTS_0": g.uints(&joints, UNSIGNED_SHORT, "VEC4", 4, false),
        "WEIGHTS_0": g.floats(&weights, "VEC4", 4),
    });
    let indices = g.uints(&indices, UNSIGNED_SHORT, "SCALAR", 1, false);
    g.push(
        "meshes",
        json!({
            "name": "arm",
            "primitives": [{"attributes": attributes, "indices": indices, "targets": targets}],
            "weights": [0.0, 0.0],
            "extras": {"targetNames": ["bend60", "bend120"]},
        }),
    );
    let [_, forearm] = g.two_joint_chain(["upper", "forearm", "arm"], 0);
    let input = g.floats(&[0.0, 1.5], "SCALAR", 1);
    let keys: Vec<f32> = [0.0, 150.0]
        .iter()
        .flat_map(|&d| bend(d))
        .map(|c| c as f32)
        .collect();
    let output = g.floats(&keys, "VEC4", 4);
    g.push(
        "animations",
        json!({
            "name": "bend",
            "samplers": [{"input": input, "output": output, "interpolation": "LINEAR"}],
            "channels": [{"sampler": 0, "target": {"node": forearm, "path": "rotation"}}],
        }),
    );
    g
}

/// `skin render MODEL --anim bend --time T --backend cpu --arith LANE --size 160x120 EXTRA
/// -o OUT`: the CPU's picture of the elbow's clip at `t` seconds, as the PNG's bytes.
pub fn cpu_picture(model: &str, lane: &str, t: &str, extra: &[&str], out: &str) -> Vec<u8> {
    let mut args = vec!["render", model, "--anim", "bend", "--time", t];
    args.extend_from_slice(&["--backend", "cpu", "--arith", lane, "-o", out]);
    args.extend_from_slice(&["--size", "160x120"]);
    args.extend_from_slice(extra);
    crate::skin_cli(&args).unwrap_or_else(|e| panic!("skin {}: {e}", args.join(" ")));
    std::fs::read(out).unwrap_or_else(|e| panic!("{out}: {e}"))
}

/// `skin render MODEL --anim bend --backend cpu --fps 5 --size 80x60 EXTRA -o OUT` (OUT a
/// `.gif`): the elbow's whole clip played on the CPU with the deformers of `extra`; asserts
/// that the animation was written.
pub fn cpu_animation(model: &str, extra: &[&str], out: &str) {
    let mut args = vec!["render", model, "--anim", "bend", "--backend", "cpu"];
    args.extend_from_slice(&["--fps", "5", "--size", "80x60", "-o", out]);
    args.extend_from_slice(extra);
    crate::skin_cli(&args).unwrap_or_else(|e| panic!("skin {}: {e}", args.join(" ")));
    let written = std::fs::metadata(out).map_or(0, |m| m.len());
    assert!(written > 0, "{out}: no animation written");
}
