//! Bad morph-target input beyond `import_morph.rs`'s cases, each a typed error naming the
//! mesh, primitive or node and target and the value: a sparse target's delta that is not a
//! number, default and node weights beyond
//! `f32`, and a delta beyond what the asset's quantised `i16` holds (refused by `bake` and by
//! every command that plays the asset, never drawn wrong); and a frame whose active targets
//! exceed the player's budget of 8, which the CPU renderer draws with a warning naming the
//! dropped weight.

use serde_json::json;
use skin_host::ImportError;
use skin_tests::gltf_gen::{morph_triangle, Gen};
use skin_tests::refusal as error;
use skin_tests::skin_cli;

#[test]
fn a_sparse_delta_that_is_not_a_number_is_refused() {
    let mut g = morph_triangle("LINEAR");
    // Target 1 is sparse: its one value (vertex 2's delta) made NaN.
    let acc = g.json["meshes"][0]["primitives"][0]["targets"][1]["POSITION"]
        .as_u64()
        .unwrap() as usize;
    let view = g.json["accessors"][acc]["sparse"]["values"]["bufferView"]
        .as_u64()
        .unwrap() as usize;
    let at = g.json["bufferViews"][view]["byteOffset"].as_u64().unwrap() as usize + 4;
    g.bin[at..at + 4].copy_from_slice(&f32::NAN.to_le_bytes());
    let (e, text) = error(&g);
    assert!(matches!(e, ImportError::NotFinite { .. }), "{text}");
    assert!(
        text.contains("POSITION delta of mesh 0 primitive 0 morph target 1"),
        "{text}"
    );
    assert!(text.contains("element 2"), "{text}");
}

#[test]
fn weights_beyond_f32_are_refused() {
    // 1e39 is a JSON number, and infinite as an f32.
    let mut g = morph_triangle("LINEAR");
    g.json["meshes"][0]["weights"] = json!([0.25, 1e39]);
    let (_, text) = error(&g);
    assert!(
        text.contains("morph target 1 of mesh 0 \"face\"") && text.contains("infinite"),
        "{text}"
    );
    let mut g = morph_triangle("LINEAR");
    g.json["nodes"][2]["weights"] = json!([-1e39, 0.5]);
    let (_, text) = error(&g);
    assert!(
        text.contains("morph target 0 of node 2") && text.contains("infinite"),
        "{text}"
    );
}

#[test]
fn a_delta_beyond_the_quantised_range_is_refused_wherever_the_asset_plays() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("far.glb");
    let mut g = morph_triangle("LINEAR");
    // Target 0 moves vertex 1 by 40000 units: beyond ±32767 at the f32 asset's unit 2^0.
    let far = g.floats(
        &[0.0, 0.0, 0.0, 40000.0, 0.0, 0.0, 0.0, 0.0, 0.0],
        "VEC3",
        3,
    );
    g.json["meshes"][0]["primitives"][0]["targets"][0]["POSITION"] = json!(far);
    std::fs::write(&model, g.glb()).unwrap();
    let m = model.to_str().unwrap();
    let out = dir.path().join("far.skin");
    let png = dir.path().join("far.png");
    let said = "node 2 mesh 0 morph target 0: a position delta of 40000 asset units is beyond \
                the ±32767 a quantised delta holds";
    for args in [
        vec!["bake", m, "-o", out.to_str().unwrap()],
        vec!["render", m, "--backend", "cpu", "-o", png.to_str().unwrap()],
    ] {
        let e = skin_cli(&args).unwrap_err();
        assert!(e.contains(said), "{args:?}: {e}");
    }
    assert!(!out.exists() && !png.exists());
    // The pose, which does not quantise, takes it.
    skin_cli(&["pose", m]).unwrap();
}

/// [`morph_triangle`] with `n` targets at the weights 0.1, 0.2, …, each moving vertex 2
/// along X, and no weights channel.
fn many_targets(n: usize) -> Gen {
    let mut g = morph_triangle("LINEAR");
    let targets: Vec<_> = (0..n)
        .map(|t| {
            let d = 0.01 * (t + 1) as f32;
            json!({"POSITION": g.floats(&[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, d, 0.0, 0.0], "VEC3", 3)})
        })
        .collect();
    g.json["meshes"][0]["primitives"][0]["targets"] = json!(targets);
    let weights: Vec<f32> = (0..n).map(|t| 0.1 * (t + 1) as f32).collect();
    g.json["meshes"][0]["weights"] = json!(weights);
    g.json["meshes"][0]
        .as_object_mut()
        .unwrap()
        .remove("extras");
    let anim = &mut g.json["animations"][0];
    anim["channels"].as_array_mut().unwrap().pop();
    anim["samplers"].as_array_mut().unwrap().pop();
    g
}

#[test]
fn targets_beyond_the_players_budget_are_drawn_with_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("nine.glb");
    std::fs::write(&model, many_targets(9).glb()).unwrap();
    let m = model.to_str().unwrap();
    let (png, asset) = (dir.path().join("nine.png"), dir.path().join("nine.skin"));
    let run = |args: &[&str]| {
        let o = std::process::Command::new(skin_tests::skin_exe())
            .args(args)
            .output()
            .unwrap();
        assert!(o.status.success(), "{args:?}: {o:?}");
        String::from_utf8(o.stderr).unwrap()
    };
    // The player keeps the 8 of largest |weight| and names the largest it dropped: 0.1.
    let said = "a frame has more than 8 morph targets at a non-zero weight; the asset's player \
                (the CPU renderer, as the firmware) drew the 8 of largest |weight| and dropped \
                targets of |weight| up to 0.1";
    let png_arg = png.to_str().unwrap();
    let warned = run(&["render", m, "--backend", "cpu", "-o", png_arg]);
    assert!(warned.contains(said), "{warned}");
    run(&["bake", m, "-o", asset.to_str().unwrap()]);
    let warned = run(&["check", asset.to_str().unwrap(), "--frames", "2"]);
    assert!(warned.contains(said), "{warned}");
    // Eight targets are drawn without one.
    std::fs::write(&model, many_targets(8).glb()).unwrap();
    let quiet = run(&["render", m, "--backend", "cpu", "-o", png_arg]);
    assert!(!quiet.contains("morph targets"), "{quiet}");
}
