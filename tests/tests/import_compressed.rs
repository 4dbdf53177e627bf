//! Quantised and compressed glTF (`../shared/models/extensions`): the `KHR_mesh_quantization`
//! morph cube poses as its float original (`../shared/models/morph/AnimatedMorphCube.glb`)
//! does, within the quantisation step; the Draco files and generated meshopt and unknown
//! required extensions are refused with an error naming the extension (and, for the
//! compressions, how to decompress the file).

use std::path::Path;

use serde_json::json;
use skin_host::pose::{self, morph, LaneKind, Skinning};
use skin_host::{ImportError, Rig};

/// gltfpack's position step for the cube: node 0's scale (3.649e-6) under its parent's ×100,
/// in world units. Rounding to the grid moves each coordinate by at most half a step, the
/// morph deltas likewise, so a vertex at weights (w0, w1) moves by at most
/// (1 + w0 + w1) · √3 / 2 steps.
const STEP: f64 = 3.649e-6 * 100.0;

/// The quantised cube's posed vertices, each matched to the nearest of the original's:
/// the largest such distance (the cubes must also have the same distinct corners).
fn worst(quantised: &Rig, original: &Rig, weights: &[f32]) -> f64 {
    let posed = |rig: &Rig| {
        let mut nodes = morph::weights(rig, None);
        morph::override_weights(rig, &mut nodes, weights).unwrap();
        let prims = pose::pose_weighted(rig, None, LaneKind::F32, Skinning::Lbs, &nodes).unwrap();
        assert_eq!(prims.len(), 1);
        prims.into_iter().next().unwrap().positions
    };
    let (q, o) = (posed(quantised), posed(original));
    assert_eq!(q.len(), o.len(), "vertex counts");
    let dist = |a: &[f32; 3], b: &[f32; 3]| {
        (0..3)
            .map(|i| (f64::from(a[i]) - f64::from(b[i])).powi(2))
            .sum::<f64>()
            .sqrt()
    };
    let mut worst = 0.0f64;
    for v in &q {
        let d = o.iter().map(|w| dist(v, w)).fold(f64::INFINITY, f64::min);
        worst = worst.max(d);
    }
    // The cube's 24 vertices are its 8 corners, three times each: every corner is reached.
    let corners = |ps: &[[f32; 3]]| {
        let mut c: Vec<[i64; 3]> = ps
            .iter()
            .map(|p| p.map(|x| (f64::from(x) * 100.0).round() as i64))
            .collect();
        c.sort();
        c.dedup();
        c.len()
    };
    assert_eq!(corners(&q), corners(&o), "distinct corners at {weights:?}");
    worst
}

#[test]
fn the_quantised_morph_cube_poses_as_its_float_original() {
    let test = "the_quantised_morph_cube_poses_as_its_float_original";
    let Some(dir) = skin_tests::models_dir() else {
        skin_tests::skip(test, "../shared/models is not present");
        return;
    };
    let quantised = skin_host::import::from_path(
        &dir.join("extensions/AnimatedMorphCube-Quantized/AnimatedMorphCube.gltf"),
    )
    .unwrap();
    let original = skin_host::import::from_path(&dir.join("morph/AnimatedMorphCube.glb")).unwrap();
    assert_eq!(quantised.meshes[0].targets(), 2);
    assert_eq!(quantised.clips.len(), 1);
    for weights in [[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [0.5, 0.5], [1.0, 1.0]] {
        let d = worst(&quantised, &original, &weights);
        let bound = (1.0 + f64::from(weights[0] + weights[1])) * 3f64.sqrt() / 2.0 * STEP;
        println!("weights {weights:?}: {d:.2e} (bound {bound:.2e})");
        assert!(d <= bound, "weights {weights:?}: {d:e} beyond {bound:e}");
    }
    // Normals are byte-normalised: each within 1/127 of a unit axis (the cube's faces).
    for n in quantised.meshes[0].primitives[0].normals.as_ref().unwrap() {
        let len = n.iter().map(|x| x * x).sum::<f32>().sqrt();
        assert!((len - 1.0).abs() < 1e-5, "normal {n:?} not unit");
        assert!(
            n.iter().any(|x| x.abs() > 1.0 - 1.0 / 127.0),
            "normal {n:?}"
        );
    }
}

fn refusal(path: &Path) -> String {
    match skin_host::import::from_path(path) {
        Err(e @ ImportError::Extension { .. }) => e.to_string(),
        other => panic!(
            "{}: expected an extension error, got {other:?}",
            path.display()
        ),
    }
}

#[test]
fn draco_files_are_refused_with_how_to_decompress_them() {
    let test = "draco_files_are_refused_with_how_to_decompress_them";
    let Some(dir) = skin_tests::models_dir() else {
        skin_tests::skip(test, "../shared/models is not present");
        return;
    };
    for file in [
        "RiggedSimple-Draco/RiggedSimple.gltf",
        "CesiumMan-Draco/CesiumMan.gltf",
        "MorphPrimitivesTest-Draco/MorphPrimitivesTest.gltf",
    ] {
        let msg = refusal(&dir.join("extensions").join(file));
        println!("{file}: {msg}");
        assert!(msg.contains("KHR_draco_mesh_compression"), "{msg}");
        assert!(msg.contains("decompress"), "{msg}");
        assert!(
            !msg.contains('\n') && !msg.contains("more problems"),
            "{msg}"
        );
    }
}

/// A one-triangle document with `extra` merged into its root.
fn triangle(extra: serde_json::Value) -> Vec<u8> {
    let mut bytes = Vec::new();
    for v in [[0.0f32, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]] {
        for x in v {
            bytes.extend_from_slice(&x.to_le_bytes());
        }
    }
    use base64::Engine;
    let uri = format!(
        "data:application/octet-stream;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(&bytes)
    );
    let mut doc = json!({
        "asset": {"version": "2.0"},
        "buffers": [{"byteLength": 36, "uri": uri}],
        "bufferViews": [{"buffer": 0, "byteLength": 36}],
        "accessors": [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3",
                       "min": [0, 0, 0], "max": [1, 1, 0]}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}],
        "nodes": [{"mesh": 0}],
        "scenes": [{"nodes": [0]}]
    });
    for (k, v) in extra.as_object().unwrap() {
        doc[k] = v.clone();
    }
    serde_json::to_vec(&doc).unwrap()
}

#[test]
fn required_extensions_are_read_or_refused_by_name() {
    let import = |extra| skin_host::import::from_slice(&triangle(extra), None);
    // Quantisation required on a float file: read (it only widens the types allowed).
    let rig = import(json!({"extensionsUsed": ["KHR_mesh_quantization"],
                            "extensionsRequired": ["KHR_mesh_quantization"]}))
    .unwrap();
    assert_eq!(rig.meshes[0].primitives[0].positions[1], [1.0, 0.0, 0.0]);
    for (ext, words) in [
        ("EXT_meshopt_compression", "gltfpack"),
        ("KHR_meshopt_compression", "gltfpack"),
        ("KHR_draco_mesh_compression", "Blender"),
        ("KHR_texture_transform", "KHR_mesh_quantization"),
    ] {
        let err = import(json!({"extensionsUsed": [ext], "extensionsRequired": [ext]}))
            .unwrap_err()
            .to_string();
        assert!(err.contains(ext) && err.contains(words), "{ext}: {err}");
    }
    // Draco used but not required, with its accessors' data missing: the Draco message,
    // not the schema's "Missing data".
    let mut doc: serde_json::Value = serde_json::from_slice(&triangle(json!({
        "extensionsUsed": ["KHR_draco_mesh_compression"]
    })))
    .unwrap();
    doc["accessors"][0]
        .as_object_mut()
        .unwrap()
        .remove("bufferView");
    let err = skin_host::import::from_slice(&serde_json::to_vec(&doc).unwrap(), None)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("KHR_draco_mesh_compression") && err.contains("no uncompressed copy"),
        "{err}"
    );
}
