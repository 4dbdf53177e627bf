//! Morph targets through the importer: `POSITION`/`NORMAL` deltas (dense and sparse), mesh
//! and node weights, target names, weight channels in all three interpolations, every
//! bad-input case as a typed error; the Khronos morph samples; `skin inspect` listing them,
//! `skin pose --weights`, and the commands that do not apply morph targets yet refusing a
//! model whose targets move vertices.

use std::process::Command;

use serde_json::json;
use skin_host::rig::Interpolation;
use skin_host::ImportError;
use skin_tests::gltf_gen::{morph_triangle, Gen, DELTA0, NORMAL0, SPARSE_DELTA, SPARSE_VERTEX};
use skin_tests::{import_gen as import, refusal as error};

#[test]
fn dense_and_sparse_deltas_weights_names_and_channels_are_imported() {
    for (interp, want) in [
        ("STEP", Interpolation::Step),
        ("LINEAR", Interpolation::Linear),
        ("CUBICSPLINE", Interpolation::CubicSpline),
    ] {
        let rig = import(&morph_triangle(interp)).unwrap();
        let mesh = &rig.meshes[0];
        assert_eq!(mesh.targets(), 2);
        assert_eq!(mesh.weights, vec![0.25, 0.5]);
        assert_eq!(mesh.target_names, vec!["smile", "blink"]);
        let t = &mesh.primitives[0].targets;
        let flat = |v: &Vec<[f32; 3]>| v.iter().flatten().copied().collect::<Vec<f32>>();
        assert_eq!(flat(t[0].positions.as_ref().unwrap()), DELTA0);
        assert_eq!(flat(t[0].normals.as_ref().unwrap()), NORMAL0);
        let sparse = t[1].positions.as_ref().unwrap();
        for (v, d) in sparse.iter().enumerate() {
            let expect = if v == usize::from(SPARSE_VERTEX) {
                SPARSE_DELTA
            } else {
                [0.0; 3]
            };
            assert_eq!(*d, expect, "vertex {v} of the sparse target");
        }
        assert!(t[1].normals.is_none());
        let ch = &rig.clips[0].weights;
        assert_eq!(ch.len(), 1);
        assert_eq!(ch[0].node, 2);
        assert_eq!(ch[0].interpolation, want);
        assert_eq!(ch[0].targets, 2);
        assert_eq!(ch[0].times, vec![0.0, 1.0]);
        let parts = if want == Interpolation::CubicSpline {
            3
        } else {
            1
        };
        assert_eq!(ch[0].values.len(), 2 * 2 * parts);
        assert_eq!(rig.clips[0].channels.len(), 1);
        assert_eq!(rig.clips[0].duration(), 1.0);
        assert!(rig.warnings.is_empty(), "{:?}", rig.warnings);
        assert!(rig.morphs_in_use().is_some());
    }
}

#[test]
fn node_weights_override_and_zero_weights_move_nothing() {
    let mut g = morph_triangle("LINEAR");
    g.json["nodes"][2]["weights"] = json!([0.0, 0.75]);
    let rig = import(&g).unwrap();
    assert_eq!(rig.nodes[2].weights, Some(vec![0.0, 0.75]));
    let why = rig.morphs_in_use().unwrap();
    assert!(why.contains("morph target 1 at weight 0.75"), "{why}");
    // Zero weights everywhere and no weights channel: the targets never move a vertex.
    g.json["nodes"][2]["weights"] = json!([0.0, 0.0]);
    g.json["animations"][0]["channels"]
        .as_array_mut()
        .unwrap()
        .pop();
    let rig = import(&g).unwrap();
    assert_eq!(rig.morphs_in_use(), None);
    // Without mesh weights the defaults are zero.
    g.json["meshes"][0]
        .as_object_mut()
        .unwrap()
        .remove("weights");
    assert_eq!(import(&g).unwrap().meshes[0].weights, vec![0.0, 0.0]);
}

#[test]
fn tangent_deltas_get_one_warning_and_bad_target_names_are_dropped() {
    let mut g = morph_triangle("LINEAR");
    let tan = g.floats(&[0.0; 9], "VEC3", 3);
    g.json["meshes"][0]["primitives"][0]["targets"][0]["TANGENT"] = json!(tan);
    g.json["meshes"][0]["primitives"][0]["targets"][1]["TANGENT"] = json!(tan);
    g.json["meshes"][0]["extras"]["targetNames"] = json!(["only one"]);
    let rig = import(&g).unwrap();
    let tangent: Vec<_> = rig
        .warnings
        .iter()
        .filter(|w| w.to_string().contains("TANGENT"))
        .collect();
    assert_eq!(tangent.len(), 1, "{:?}", rig.warnings);
    assert!(
        tangent[0].to_string().contains("2 morph target(s)"),
        "{}",
        tangent[0]
    );
    assert!(rig.meshes[0].target_names.is_empty());
    assert!(rig
        .warnings
        .iter()
        .any(|w| w.to_string().contains("targetNames")));
}

#[test]
fn a_target_whose_count_differs_from_the_base_is_refused() {
    // Target 1's POSITION deltas two elements long, target 0's NORMAL deltas four: the
    // base has three vertices.
    for (attribute, target, elements) in [("POSITION", 1, 2), ("NORMAL", 0, 4)] {
        let mut g = morph_triangle("LINEAR");
        let wrong = g.floats(&vec![0.0; 3 * elements], "VEC3", 3);
        g.json["meshes"][0]["primitives"][0]["targets"][target][attribute] = json!(wrong);
        let (e, text) = error(&g);
        assert!(
            matches!(
                e,
                ImportError::Target {
                    mesh: 0,
                    primitive: 0,
                    target: t,
                    ..
                } if t == target
            ),
            "{text}"
        );
        assert!(
            text.contains(&format!("{attribute} deltas"))
                && text.contains(&format!("{elements} elements"))
                && text.contains("3 vertices"),
            "{text}"
        );
    }
}

#[test]
fn primitives_with_different_target_counts_are_refused() {
    let mut g = morph_triangle("LINEAR");
    let mut second = g.json["meshes"][0]["primitives"][0].clone();
    second["targets"].as_array_mut().unwrap().pop();
    g.json["meshes"][0]["primitives"]
        .as_array_mut()
        .unwrap()
        .push(second);
    let (e, text) = error(&g);
    assert!(
        matches!(
            e,
            ImportError::TargetCounts {
                mesh: 0,
                primitive: 1,
                targets: 1,
                first: 2
            }
        ),
        "{text}"
    );
}

#[test]
fn weights_of_the_wrong_length_are_refused() {
    let mut g = morph_triangle("LINEAR");
    g.json["meshes"][0]["weights"] = json!([0.5]);
    let (e, text) = error(&g);
    assert!(
        matches!(
            e,
            ImportError::MorphWeights {
                found: 1,
                mesh: 0,
                targets: 2,
                ..
            }
        ),
        "{text}"
    );
    assert!(text.contains("mesh 0 \"face\""), "{text}");

    let mut g = morph_triangle("LINEAR");
    g.json["nodes"][2]["weights"] = json!([0.5, 0.5, 0.5]);
    let (e, text) = error(&g);
    assert!(
        matches!(e, ImportError::MorphWeights { found: 3, .. }),
        "{text}"
    );
    assert!(text.starts_with("node 2 has 3"), "{text}");

    // A LINEAR channel of two keys for two targets needs 4 values; give it 3.
    let mut g = morph_triangle("LINEAR");
    let out = g.floats(&[0.0, 1.0, 1.0], "SCALAR", 1);
    g.json["animations"][0]["samplers"][1]["output"] = json!(out);
    let (e, text) = error(&g);
    assert!(
        matches!(
            e,
            ImportError::WeightChannel {
                animation: 0,
                channel: 1,
                node: 2,
                ..
            }
        ),
        "{text}"
    );
    assert!(
        text.contains("holds 3 weights") && text.contains("need 4"),
        "{text}"
    );

    // CUBICSPLINE needs three parts a key: the LINEAR layout is too short.
    let mut g = morph_triangle("LINEAR");
    g.json["animations"][0]["samplers"][1]["interpolation"] = json!("CUBICSPLINE");
    let (_, text) = error(&g);
    assert!(text.contains("need 12"), "{text}");
}

/// `g` with the `f32` at `value` of accessor `acc` (a tightly packed float accessor) made NaN.
fn poison(g: &mut Gen, acc: usize, value: usize) {
    let view = g.json["accessors"][acc]["bufferView"].as_u64().unwrap() as usize;
    let at = g.json["bufferViews"][view]["byteOffset"].as_u64().unwrap() as usize + 4 * value;
    g.bin[at..at + 4].copy_from_slice(&f32::NAN.to_le_bytes());
}

#[test]
fn nan_deltas_and_weights_are_refused() {
    let mut g = morph_triangle("LINEAR");
    let d0 = g.json["meshes"][0]["primitives"][0]["targets"][0]["POSITION"]
        .as_u64()
        .unwrap();
    poison(&mut g, d0 as usize, 4);
    let (e, text) = error(&g);
    assert!(matches!(e, ImportError::NotFinite { .. }), "{text}");
    assert!(
        text.contains("POSITION delta of mesh 0 primitive 0 morph target 0"),
        "{text}"
    );
    assert!(text.contains("element 1"), "{text}");

    let mut g = morph_triangle("LINEAR");
    let out = g.json["animations"][0]["samplers"][1]["output"]
        .as_u64()
        .unwrap();
    poison(&mut g, out as usize, 3);
    let (e, text) = error(&g);
    assert!(matches!(e, ImportError::NotFinite { .. }), "{text}");
    assert!(
        text.contains("key values of animation 0 channel 1"),
        "{text}"
    );
}

#[test]
fn weight_channels_on_nodes_without_targets_are_refused() {
    // The channel's node has no mesh.
    let mut g = morph_triangle("LINEAR");
    g.json["animations"][0]["channels"][1]["target"]["node"] = json!(1);
    let (e, text) = error(&g);
    assert!(
        matches!(e, ImportError::WeightChannel { node: 1, .. }),
        "{text}"
    );
    assert!(text.contains("has no mesh"), "{text}");
    // Its mesh has no targets.
    let mut g = morph_triangle("LINEAR");
    let prim = &mut g.json["meshes"][0];
    prim["primitives"][0]
        .as_object_mut()
        .unwrap()
        .remove("targets");
    prim.as_object_mut().unwrap().remove("weights");
    let (e, text) = error(&g);
    assert!(
        matches!(e, ImportError::WeightChannel { node: 2, .. }),
        "{text}"
    );
    assert!(text.contains("mesh 0 has no morph targets"), "{text}");
}

fn sample(name: &str, test: &str) -> Option<skin_host::Rig> {
    let Some(dir) = skin_tests::models_dir() else {
        skin_tests::skip(test, "../shared/models is not present");
        return None;
    };
    Some(skin_host::import::from_path(&dir.join(name)).unwrap())
}

#[test]
fn the_khronos_morph_samples_import_as_their_readme_describes() {
    let test = "the_khronos_morph_samples_import_as_their_readme_describes";
    let Some(simple) = sample("morph/SimpleMorph.gltf", test) else {
        return;
    };
    let prim = &simple.meshes[0].primitives[0];
    assert_eq!(simple.meshes[0].weights, vec![0.5, 0.5]);
    assert_eq!(
        prim.targets[0].positions.as_ref().unwrap()[2],
        [-1.0, 1.0, 0.0]
    );
    assert_eq!(
        prim.targets[1].positions.as_ref().unwrap()[2],
        [1.0, 1.0, 0.0]
    );
    let ch = &simple.clips[0].weights[0];
    assert_eq!(ch.times, vec![0.0, 1.0, 2.0, 3.0, 4.0]);
    assert_eq!(
        ch.values,
        vec![0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0]
    );

    let Some(stress) = sample("morph/MorphStressTest.glb", test) else {
        return;
    };
    let names: Vec<String> = (1..=8).map(|k| format!("Key {k}")).collect();
    assert_eq!(stress.meshes[0].target_names, names);
    assert_eq!(stress.meshes[0].primitives.len(), 2);
    // Each target of the second primitive moves its own 94 vertices.
    for t in &stress.meshes[0].primitives[1].targets {
        let moved = t
            .positions
            .as_ref()
            .unwrap()
            .iter()
            .filter(|d| **d != [0.0; 3])
            .count();
        assert_eq!(moved, 94);
    }
    assert_eq!(stress.clips.len(), 3);
    assert!(stress
        .clips
        .iter()
        .all(|c| c.weights.len() == 1 && c.weights[0].targets == 8));

    let Some(cube) = sample("morph/AnimatedMorphCube.glb", test) else {
        return;
    };
    assert_eq!(
        cube.warnings
            .iter()
            .filter(|w| w.to_string().contains("TANGENT"))
            .count(),
        1
    );
    let t = &cube.meshes[0].primitives[0].targets;
    assert!(t
        .iter()
        .all(|t| t.positions.is_some() && t.normals.is_some()));
    assert!(t[0]
        .normals
        .as_ref()
        .unwrap()
        .iter()
        .all(|n| *n == [0.0; 3]));
    assert!(t[1]
        .normals
        .as_ref()
        .unwrap()
        .iter()
        .any(|n| *n != [0.0; 3]));
    assert_eq!(cube.clips[0].weights[0].times.len(), 127);

    let Some(prims) = sample("morph/MorphPrimitivesTest.glb", test) else {
        return;
    };
    assert_eq!(prims.meshes[0].weights, vec![0.5]);
    assert!(prims.meshes[0]
        .primitives
        .iter()
        .all(|p| p.targets.len() == 1));
    assert!(prims.clips.is_empty());
}

#[test]
fn inspect_lists_morphs_and_every_command_applies_them() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("face.glb");
    std::fs::write(&model, morph_triangle("CUBICSPLINE").glb()).unwrap();
    let exe = skin_tests::skin_exe();
    let run = |args: &[&str]| Command::new(exe).args(args).output().unwrap();
    let m = model.to_str().unwrap();
    let out = run(&["inspect", m]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success());
    assert!(
        text.contains(
            "morph targets: 2, default weights [0.25, 0.5], names [\"smile\", \"blink\"]"
        ),
        "{text}"
    );
    assert!(
        text.contains("morph weights of node 2 (mesh 0, 2 targets): CubicSpline, 2 keys"),
        "{text}"
    );
    let asset = dir.path().join("face.skin");
    let png = dir.path().join("face.png");
    // `pose` applies them, and `--weights` replaces them.
    let rest = run(&["pose", m]);
    let zero = run(&["pose", m, "--weights", "0,0"]);
    assert!(rest.status.success() && zero.status.success());
    assert_ne!(rest.stdout, zero.stdout);
    let bad = run(&["pose", m, "--weights", "1"]);
    assert_eq!(bad.status.code(), Some(2));
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(err.contains("--weights gives 1 weights"), "{err}");
    // `bake` stores them (sparse, quantised) and says how many bytes they take.
    let out = run(&["bake", m, "-o", asset.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains(" bytes of morph targets"), "{text}");
    assert!(asset.exists());
    // The CPU renderer plays the baked asset, morph targets and all.
    let cpu_png = dir.path().join("face-cpu.png");
    let out = run(&[
        "render",
        m,
        "--backend",
        "cpu",
        "-o",
        cpu_png.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The GPU reference applies them too: its picture equals the CPU's, and differs from
    // the one drawn at weight 0 (so the targets show).
    let test = "inspect_lists_morphs_and_every_command_applies_them";
    if skin_tests::gpu(test).is_none() {
        return;
    }
    let zero_png = dir.path().join("face-zero.png");
    let out = run(&[
        "render",
        m,
        "--backend",
        "gpu",
        "--weights",
        "0,0",
        "-o",
        zero_png.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = run(&["render", m, "--backend", "gpu", "-o", png.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(png.exists());
    let (cpu, gpu, zero) = (rgb(&cpu_png), rgb(&png), rgb(&zero_png));
    let equal = |a: &[u8], b: &[u8]| {
        assert_eq!(a.len(), b.len());
        let same = a.chunks(3).zip(b.chunks(3)).filter(|(x, y)| x == y).count();
        same as f64 / (a.len() / 3) as f64
    };
    assert!(
        equal(&cpu, &gpu) >= 0.99,
        "CPU vs GPU {}",
        equal(&cpu, &gpu)
    );
    assert!(equal(&gpu, &zero) < 0.999, "the targets do not show");
    let out = run(&["validate", m, "--frames", "2"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains("Pictures 240x240") && text.contains("**pass**"),
        "{text}"
    );
}

/// A PNG's pixels as 8-bit RGB.
fn rgb(path: &std::path::Path) -> Vec<u8> {
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!(info.color_type, png::ColorType::Rgb, "{}", path.display());
    buf.truncate(info.buffer_size());
    buf
}
