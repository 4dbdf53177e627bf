//! Palette splitting: every part, skinned with its own small palette, gives exactly the
//! positions the whole primitive gives with the full palette — bit for bit in fixed point,
//! exactly in f32 — on the synthetic worm (rest pose and a bent pose) and on every sample
//! model; and the part counts respect the capacity.

use skin_core::affine::Affine;
use skin_core::lane::{Lane, Q14};
use skin_core::skin::SkinnedMesh;
use skin_host::pose;
use skin_host::rig::{Rig, Trs};
use skin_host::split::split;
use skin_tests::gltf_gen::Worm;

/// Skin `prim` with `palette`.
fn skin<L: Lane>(
    prim: &skin_host::rig::Primitive,
    palette: &[Affine<L>],
    k: i32,
) -> Vec<[L::Out; 3]> {
    let pos = pose::values::positions::<L>(prim, k, "test").unwrap();
    let inf = pose::values::influences::<L>(prim, "test").unwrap();
    let mut out = vec![[L::Out::default(); 3]; pos.len()];
    SkinnedMesh::<L, 4>::new(&pos, &inf)
        .unwrap()
        .skin(palette, &mut out)
        .unwrap();
    out
}

/// Split every skinned primitive at `capacity` and compare; returns (parts, duplicated).
fn check<L: Lane>(rig: &Rig, locals: &[Trs], capacity: usize, k: i32) -> (usize, usize) {
    let (mut parts, mut dup) = (0, 0);
    for (_, mesh, skin_index) in rig.mesh_nodes() {
        let Some(s) = skin_index else { continue };
        let transforms = pose::values::transforms::<L::Real>(rig, locals, k).unwrap();
        let palette = pose::palette::skin_palette::<L>(rig, &transforms, s, k)
            .unwrap()
            .matrices;
        for prim in &rig.meshes[mesh].primitives {
            if prim.influences.is_none() {
                continue;
            }
            let whole = skin::<L>(prim, &palette, k);
            let sp = split(prim, capacity).unwrap();
            parts += sp.parts.len();
            dup += sp.duplicated;
            let mut covered = vec![false; prim.positions.len()];
            for part in &sp.parts {
                assert!(part.bones.len() <= capacity);
                let sub_palette: Vec<Affine<L>> = part
                    .bones
                    .iter()
                    .map(|&b| palette[usize::from(b)])
                    .collect();
                let sub = part.primitive(prim, sp.arity);
                let got = skin::<L>(&sub, &sub_palette, k);
                for (local, &v) in part.vertices.iter().enumerate() {
                    assert_eq!(
                        got[local], whole[v as usize],
                        "vertex {v} in a part differs"
                    );
                    covered[v as usize] = true;
                }
                // Every element of the part refers to its own vertices.
                assert!(part
                    .indices
                    .iter()
                    .all(|&i| (i as usize) < part.vertices.len()));
            }
            // Every vertex an element uses is in some part.
            for e in prim.elements() {
                assert!(e.iter().all(|&v| covered[v as usize]));
            }
        }
    }
    (parts, dup)
}

fn bent(rig: &Rig) -> Vec<Trs> {
    let mut locals = rig.rest_locals();
    for (i, l) in locals.iter_mut().enumerate() {
        let a = 0.15 * (i % 5) as f32;
        l.rotation = [0.0, (a / 2.0).sin(), 0.0, (a / 2.0).cos()];
    }
    locals
}

#[test]
fn split_worm_skins_identically() {
    let rig = skin_host::import::from_slice(
        &Worm {
            two_skins: true,
            ..Worm::default()
        }
        .build()
        .glb(),
        None,
    )
    .unwrap();
    let k = pose::asset_unit(&rig);
    for locals in [rig.rest_locals(), bent(&rig)] {
        for capacity in [5, 7, 9, 10, 32] {
            let (parts, dup) = check::<f32>(&rig, &locals, capacity, 0);
            let fixed = check::<Q14>(&rig, &locals, capacity, k);
            assert_eq!((parts, dup), fixed);
            if capacity >= 10 {
                assert_eq!(
                    (parts, dup),
                    (2, 0),
                    "the whole skin fits: one part per instance"
                );
            } else {
                assert!(
                    parts > 2 && dup > 0,
                    "capacity {capacity}: {parts} parts, {dup} duplicated"
                );
            }
        }
    }
}

#[test]
fn split_sample_models_skin_identically() {
    for model in skin_tests::sample_models("split_sample_models_skin_identically") {
        let rig = skin_host::import::from_path(&model).unwrap();
        let k = pose::asset_unit(&rig);
        let locals = bent(&rig);
        for capacity in [12, 16, 24] {
            let a = check::<f32>(&rig, &locals, capacity, 0);
            let b = check::<Q14>(&rig, &locals, capacity, k);
            assert_eq!(a, b);
            eprintln!(
                "{}: capacity {capacity}: {} draws, {} duplicated vertices",
                model.display(),
                a.0,
                a.1
            );
        }
    }
}
