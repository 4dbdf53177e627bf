//! The character: imports, weights, a closed outward mesh, a looping walk, bakes for the
//! micro:bit, the CLI.

use std::collections::HashMap;

use super::vector::{cross, dot};
use super::*;
use crate::bake::{bake, Options};
use crate::pose::{pose, LaneKind};
use skin_core::budget::Budget;

#[test]
fn imports_as_a_skinned_walking_rig() {
    let c = Character::new();
    let rig = crate::import::from_slice(&c.glb(), None).expect("the .glb imports");
    assert!(rig.warnings.is_empty(), "{:?}", rig.warnings);
    assert_eq!(rig.skins.len(), 1);
    assert_eq!(rig.skins[0].joints.len(), 14);
    assert_eq!(rig.clips.len(), 1);
    assert_eq!(rig.clips[0].name.as_deref(), Some("walk"));
    assert_eq!(rig.clips[0].duration(), STRIDE);
    let prim = &rig.meshes[0].primitives[0];
    assert_eq!(prim.positions.len(), c.positions().len());
    assert_eq!(prim.max_influences, 4);

    // The .gltf form is the same model.
    let rig2 = crate::import::from_slice(&c.gltf(), None).expect("the .gltf imports");
    assert_eq!(rig2.meshes[0].primitives[0].positions, prim.positions);
    assert_eq!(rig2.clips[0].channels.len(), rig.clips[0].channels.len());
}

#[test]
fn weights_are_normalised_with_four_influences_at_the_joints() {
    let c = Character::new();
    let mut four = 0;
    for (joints, weights) in c.influences() {
        let sum: f32 = weights.iter().sum();
        assert!((sum - 1.0).abs() < 1e-6, "{weights:?}");
        assert!(weights.windows(2).all(|w| w[0] >= w[1]), "{weights:?}");
        let used = weights.iter().filter(|&&w| w > 0.0).count();
        assert!(used >= 1);
        assert!(joints.iter().all(|&j| usize::from(j) < c.bones().len()));
        four += usize::from(used == 4);
    }
    assert!(four >= 8, "only {four} vertices have four influences");
}

/// Distance from `p` to the segment `a`–`b`, in `f64` (written here, apart from the core's).
fn segment_distance(p: [f32; 3], a: [f32; 3], b: [f32; 3]) -> f64 {
    let [p, a, b] = [p, a, b].map(|v| v.map(f64::from));
    let ab = [0, 1, 2].map(|k| b[k] - a[k]);
    let ap = [0, 1, 2].map(|k| p[k] - a[k]);
    let len2: f64 = ab.iter().map(|v| v * v).sum();
    let t = ((0..3).map(|k| ap[k] * ab[k]).sum::<f64>() / len2).clamp(0.0, 1.0);
    (0..3)
        .map(|k| (ap[k] - t * ab[k]).powi(2))
        .sum::<f64>()
        .sqrt()
}

#[test]
fn weights_come_from_the_bones_envelopes() {
    let c = Character::new();
    let mut m = mesh::Mesh::default();
    mesh::body(&mut m);
    assert_eq!(m.positions, c.positions);
    for ((part, &p), (joints, weights)) in m.body_parts.iter().zip(&m.positions).zip(c.influences())
    {
        let followed: Vec<usize> = (0..4)
            .filter(|&k| weights[k] > 0.0)
            .map(|k| usize::from(joints[k]))
            .collect();
        // Every vertex lies within an envelope of its body part's bones (none is left to
        // the nearest bone alone) and within at most four (none drops an influence); it
        // follows the bones whose envelopes reach it and no other (a vertex within 0.1 mm
        // of an outer radius may go either way: its influence there is below 2·10⁻⁵).
        let mut within = 0;
        for &b in candidates(*part) {
            let bone = &c.bones()[b];
            let beyond = segment_distance(p, bone.head, bone.tail) - f64::from(bone.radii.outer());
            let follows = followed.contains(&b);
            assert!(
                beyond < 1e-4 || !follows,
                "{p:?} follows bone {b} from {beyond} beyond"
            );
            assert!(
                beyond > -1e-4 || follows,
                "{p:?} ignores bone {b}, {beyond} within"
            );
            within += usize::from(beyond < 1e-4);
        }
        assert!(within > 0, "{p:?} ({part:?}) is outside every envelope");
        assert!(within <= 4, "{p:?} is within {within} envelopes");
    }
    // Along a bone, within its inner radius and beyond every other's outer one, a vertex
    // follows it alone; at a joint, both bones equally (parent first: the smaller index).
    let ring = |y: f32, x: f32| {
        c.positions()
            .iter()
            .zip(c.influences())
            .filter(move |(p, _)| p[1] == y && (p[0] - x).abs() < 0.08)
            .map(|(_, i)| i)
            .collect::<Vec<_>>()
    };
    for (y, x, alone) in [
        (1.03, 0.24, FOREARM_L),
        (1.03, -0.24, FOREARM_R),
        (0.28, 0.1, SHIN_L),
        (0.28, -0.1, SHIN_R),
    ] {
        let r = ring(y, x);
        assert_eq!(r.len(), SIDES, "ring at y = {y}");
        for (joints, weights) in r {
            assert_eq!(
                (joints[0], weights),
                (alone as u8, [1.0, 0.0, 0.0, 0.0]),
                "y = {y}"
            );
        }
    }
    for (y, x, parent, child) in [(0.49, 0.1, THIGH_L, SHIN_L), (0.49, -0.1, THIGH_R, SHIN_R)] {
        for (joints, weights) in ring(y, x) {
            assert_eq!(joints[..2], [parent as u8, child as u8], "y = {y}");
            assert_eq!(weights, [0.5, 0.5, 0.0, 0.0], "y = {y}");
        }
    }
}

#[test]
fn the_mesh_is_closed_and_faces_outwards() {
    let c = Character::new();
    // Every edge is used once in each direction: closed, consistently wound.
    let mut edges: HashMap<(u16, u16), i32> = HashMap::new();
    for t in c.indices.chunks_exact(3) {
        for k in 0..3 {
            *edges.entry((t[k], t[(k + 1) % 3])).or_default() += 1;
        }
    }
    for (&(a, b), &n) in &edges {
        assert_eq!(n, 1, "edge {a}->{b} used {n} times");
        assert_eq!(edges.get(&(b, a)), Some(&1), "edge {a}->{b} has no twin");
    }
    // A positive enclosed volume: outward (counter-clockwise) faces.
    let volume: f32 = c
        .indices
        .chunks_exact(3)
        .map(|t| {
            let p = |k: usize| c.positions[usize::from(t[k])];
            dot(p(0), cross(p(1), p(2))) / 6.0
        })
        .sum();
    assert!(volume > 0.01, "{volume}");
    assert!(c.normals.iter().all(|n| (dot(*n, *n) - 1.0).abs() < 1e-5));
}

#[test]
fn the_walk_loops_and_moves() {
    let rig = crate::import::from_slice(&Character::new().glb(), None).unwrap();
    for c in &rig.clips[0].channels {
        let n = c.values.len() / c.times.len();
        assert_eq!(
            c.values[..n],
            c.values[c.values.len() - n..],
            "node {}",
            c.node
        );
    }
    let at = |t: f32| {
        pose(&rig, Some((0, t)), LaneKind::F32).unwrap()[0]
            .positions
            .clone()
    };
    let far = |a: &[[f32; 3]], b: &[[f32; 3]], d: f32| {
        let apart = |(p, q): (&[f32; 3], &[f32; 3])| (0..3).any(|k| (p[k] - q[k]).abs() > d);
        a.iter().zip(b).filter(|&pq| apart(pq)).count()
    };
    assert_eq!(
        far(&at(0.0), &at(STRIDE), 1e-5),
        0,
        "the walk does not loop"
    );
    let moved = far(&at(0.0), &at(0.25), 0.01);
    assert!(moved > 100, "only {moved} vertices move by 1 cm");
}

#[test]
fn bakes_small_enough_for_the_micro_bit_in_both_lanes() {
    let rig = crate::import::from_slice(&Character::new().glb(), None).unwrap();
    for lane in [LaneKind::Fixed, LaneKind::F32] {
        let options = Options {
            budget: Some(Budget::VS_1_1),
            lane,
            clips: None,
            skinning: crate::pose::Skinning::Lbs,
        };
        let baked = bake(&rig, &options).expect("bakes");
        // The micro:bit build holds 16 bones and 320 vertices (firmware/src/frame.rs).
        assert!(baked.bones.len() <= 16, "{} bones", baked.bones.len());
        let vertices: usize = baked.parts.iter().map(|p| p.vertices.len()).sum();
        assert!(vertices <= 320, "{vertices} vertices");
    }
}

#[test]
fn is_deterministic_and_the_cli_writes_it() {
    assert_eq!(Character::new().glb(), Character::new().glb());
    let dir = std::env::temp_dir().join(format!("skin-character-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("c.gltf");
    let cli = <crate::cli::Cli as clap::Parser>::parse_from([
        "skin",
        "character",
        "-o",
        path.to_str().unwrap(),
    ]);
    let mut out = Vec::new();
    crate::cli::run(cli, &mut out, &mut Vec::new()).expect("writes");
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains("14 bones") && text.contains("walk"), "{text}");
    assert_eq!(std::fs::read(&path).unwrap(), Character::new().gltf());
    let bad = dir.join("missing/c.glb");
    let cli = <crate::cli::Cli as clap::Parser>::parse_from([
        "skin",
        "character",
        "-o",
        bad.to_str().unwrap(),
    ]);
    let err = crate::cli::run(cli, &mut Vec::new(), &mut Vec::new()).unwrap_err();
    assert!(err.to_string().contains("cannot write"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}
