//! Hostile glTF through the library: every index the `gltf` crate would unwrap, the
//! container, version and URI rules, the limits that bound memory, and the rules every
//! path shares on what fits a number format — each a typed error with a message naming
//! the thing, the value and the limit, never a panic, a hang or a wrong answer.

use std::time::{Duration, Instant};

use serde_json::json;
use skin_host::bake::{self, Options};
use skin_host::import::{self, Options as ImportOptions};
use skin_host::inspect;
use skin_host::pose::{self, range, LaneKind as Arith};
use skin_tests::gltf_gen::{keyed_triangle, Gen, Worm};

fn import_err(bytes: &[u8]) -> String {
    match import::from_slice(bytes, None) {
        Ok(_) => panic!("imported"),
        Err(e) => e.to_string(),
    }
}

fn set(g: &mut Gen, pointer: &str, value: serde_json::Value) {
    *g.json
        .pointer_mut(pointer)
        .unwrap_or_else(|| panic!("{pointer}")) = value;
}

#[test]
fn every_index_past_its_array_is_named() {
    let base = Worm::default().build();
    // Node 11 is the worm's mesh node; node 0 the root with children.
    let fields = [
        ("/animations/0/channels/0/target/node", "target.node"),
        ("/animations/0/channels/0/sampler", "channels[0].sampler"),
        ("/animations/0/samplers/0/input", "samplers[0].input"),
        ("/animations/0/samplers/0/output", "samplers[0].output"),
        ("/skins/0/joints/0", "skins[0].joints[0]"),
        ("/skins/0/inverseBindMatrices", "inverseBindMatrices"),
        ("/nodes/0/children/0", "nodes[0].children[0]"),
        ("/nodes/11/mesh", "nodes[11].mesh"),
        ("/nodes/11/skin", "nodes[11].skin"),
        ("/scenes/0/nodes/0", "scenes[0].nodes[0]"),
        ("/meshes/0/primitives/0/indices", "indices"),
        ("/meshes/0/primitives/0/attributes/POSITION", "POSITION"),
        ("/accessors/0/bufferView", "accessors[0].bufferView"),
        ("/bufferViews/0/buffer", "bufferViews[0].buffer"),
        ("/scene", "scene"),
    ];
    for (pointer, named) in fields {
        let mut g = base.clone();
        set(&mut g, pointer, json!(999));
        for bytes in [g.glb(), g.gltf().into_bytes()] {
            let e = import_err(&bytes);
            assert!(e.contains(named) && e.contains("999"), "{pointer}: {e}");
        }
    }
    let mut g = base.clone();
    g.json["skins"][0]["skeleton"] = json!(77);
    let e = import_err(&g.glb());
    assert!(
        e.contains("skins[0].skeleton is 77, but the file has 12 nodes"),
        "{e}"
    );
}

#[test]
fn only_gltf_2_is_read() {
    for (version, ok) in [("1.0", false), ("3.0", false), ("2.0", true), ("2.1", true)] {
        let mut g = Worm::default().build();
        g.json["asset"]["version"] = json!(version);
        let r = import::from_slice(&g.glb(), None);
        assert_eq!(r.is_ok(), ok, "{version}: {:?}", r.err());
        if !ok {
            let e = r.unwrap_err().to_string();
            assert!(
                e.contains(&format!("asset.version is \"{version}\"")),
                "{e}"
            );
        }
    }
    let mut g = Worm::default().build();
    g.json["asset"]["minVersion"] = json!("3.0");
    assert!(import_err(&g.glb()).contains("asset.minVersion"));
}

#[test]
fn the_glb_container_must_be_exactly_the_file() {
    let glb = Worm::default().build().glb();
    let e = import_err(&glb[..10]);
    assert!(
        e.contains("10 bytes, shorter than the 12-byte GLB header"),
        "{e}"
    );
    let mut longer = glb.clone();
    longer.extend_from_slice(&[0; 8]);
    let e = import_err(&longer);
    assert!(e.contains("8 bytes after the container's end"), "{e}");
    let mut short_header = glb.clone();
    let declared = (glb.len() - 4) as u32;
    short_header[8..12].copy_from_slice(&declared.to_le_bytes());
    let e = import_err(&short_header);
    assert!(e.contains(&format!("declares {declared} bytes")), "{e}");
}

#[test]
fn a_byte_order_mark_and_non_object_extras_are_read() {
    let mut g = Worm::default().build();
    g.json["asset"]["extras"] = json!(5);
    g.json["nodes"][0]["extras"] = json!("a string");
    let plain = import::from_slice(g.gltf().as_bytes(), None).unwrap();
    let mut bom = b"\xEF\xBB\xBF".to_vec();
    bom.extend_from_slice(g.gltf().as_bytes());
    assert_eq!(import::from_slice(&bom, None).unwrap(), plain);
}

#[test]
fn triangle_lists_need_whole_triangles() {
    let mut g = Worm::default().build();
    let indices = g.json["meshes"][0]["primitives"][0]["indices"]
        .as_u64()
        .unwrap() as usize;
    let count = g.json["accessors"][indices]["count"].as_u64().unwrap();
    g.json["accessors"][indices]["count"] = json!(count - 1);
    let e = import_err(&g.glb());
    assert!(
        e.contains(&format!("lists {} indices, not a multiple of 3", count - 1)),
        "{e}"
    );
}

#[test]
fn key_times_must_increase_strictly() {
    let g = keyed_triangle(1.0, &[0.0, 0.5, 0.5], "translation", &[0.0; 9]);
    let e = import_err(&g.glb());
    assert!(
        e.contains("must increase strictly, but key 2 is at 0.5 s after key 1 at 0.5 s"),
        "{e}"
    );
}

#[test]
fn zero_length_rotations_are_named_as_such() {
    let mut g = Worm::default().build();
    g.json["nodes"][3]["rotation"] = json!([0.0, 0.0, 0.0, 0.0]);
    let e = import_err(&g.glb());
    assert!(
        e.contains("rotation of node 3") && e.contains("unit quaternion"),
        "{e}"
    );
    let keys = [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0];
    let e = import_err(&keyed_triangle(1.0, &[0.0, 1.0], "rotation", &keys).glb());
    assert!(
        e.contains("key 1 of animation 0") && e.contains("unit quaternion"),
        "{e}"
    );
}

/// The worm as `model.gltf` in `dir`, its buffer in `bin` (relative to `dir`) named by
/// `uri`.
fn external(dir: &std::path::Path, bin: &str, uri: &str) -> std::path::PathBuf {
    let g = Worm::default().build();
    let path = dir.join(bin);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, &g.bin).unwrap();
    let mut json: serde_json::Value = serde_json::from_str(&g.gltf()).unwrap();
    json["buffers"][0]["uri"] = json!(uri);
    let model = dir.join("model/model.gltf");
    std::fs::create_dir_all(model.parent().unwrap()).unwrap();
    std::fs::write(&model, serde_json::to_vec(&json).unwrap()).unwrap();
    model
}

#[test]
fn buffer_files_outside_the_model_folder_need_permission() {
    let dir = tempfile::tempdir().unwrap();
    let allow = ImportOptions {
        allow_outside_uris: true,
        ..ImportOptions::default()
    };
    let inside = external(dir.path(), "model/data/worm.bin", "data/worm.bin");
    import::from_path(&inside).unwrap();
    let outside = external(dir.path(), "other/worm.bin", "../other/worm.bin");
    let e = import::from_path(&outside).unwrap_err().to_string();
    assert!(
        e.contains("\"../other/worm.bin\" leaves the model's folder")
            && e.contains("--allow-outside-uris"),
        "{e}"
    );
    import::from_path_with(&outside, &allow).unwrap();
    let absolute = dir.path().join("other/worm.bin");
    let uri = absolute.to_str().unwrap();
    let model = external(dir.path(), "other/worm.bin", uri);
    let e = import::from_path(&model).unwrap_err().to_string();
    assert!(e.contains("is an absolute path"), "{e}");
    import::from_path_with(&model, &allow).unwrap();
    // A device that never ends is read only up to the buffer's byteLength.
    if std::path::Path::new("/dev/zero").exists() {
        let model = external(dir.path(), "other/worm.bin", "/dev/zero");
        let started = Instant::now();
        // Zeros are no worm: the all-zero inverse bind matrices are refused.
        let e = import::from_path_with(&model, &allow)
            .unwrap_err()
            .to_string();
        assert!(started.elapsed() < Duration::from_secs(10));
        assert!(
            e.contains("inverse bind matrix 0 of skin 0 is not affine"),
            "{e}"
        );
    }
}

#[test]
fn reading_the_same_bytes_many_times_is_bounded() {
    // One accessor of 2^18 positions (786,432 values), used by 43 meshes: 33.8 million
    // values, beyond the limit, from a 3 MiB buffer.
    let mut g = Gen::new();
    let n = 1 << 18;
    let positions: Vec<f32> = (0..3 * n).map(|i| (i % 7) as f32).collect();
    let pos = g.floats(&positions, "VEC3", 3);
    for _ in 0..43 {
        g.push(
            "meshes",
            json!({"primitives": [{"attributes": {"POSITION": pos}, "mode": 0}]}),
        );
    }
    let e = import_err(&g.glb());
    assert!(
        e.contains(&format!(
            "limit of {} values",
            skin_host::accessor::MAX_VALUES
        )),
        "{e}"
    );
}

#[test]
fn instancing_a_mesh_many_times_is_bounded() {
    // One mesh of 2^16 points, instanced by 257 nodes: 2^24 + 2^16 vertices to draw.
    let mut g = Gen::new();
    let positions: Vec<f32> = (0..3 << 16).map(|i| (i % 5) as f32).collect();
    let pos = g.floats(&positions, "VEC3", 3);
    g.push(
        "meshes",
        json!({"primitives": [{"attributes": {"POSITION": pos}, "mode": 0}]}),
    );
    for _ in 0..257 {
        g.push("nodes", json!({"mesh": 0}));
    }
    let e = import_err(&g.glb());
    assert!(
        e.contains("node 256 instances mesh 0 (65536 vertices)")
            && e.contains(&format!("limit of {}", import::MAX_INSTANCED_VERTICES)),
        "{e}"
    );
}

/// Every fixed-point path refuses `rig` with a message containing `why`, and none prints
/// a number.
fn fixed_refused_everywhere(rig: &skin_host::Rig, why: &str) {
    let unit = pose::fixed_unit(rig).unwrap_err().to_string();
    assert!(unit.contains(why), "{unit}");
    for anim in [None, Some((0, 0.5))] {
        let e = pose::pose(rig, anim, Arith::Fixed).unwrap_err().to_string();
        assert!(e.contains(why), "{e}");
    }
    let options = Options {
        budget: None,
        lane: Arith::Fixed,
        clips: None,
        skinning: skin_host::pose::Skinning::Lbs,
    };
    let e = bake::bake(rig, &options).unwrap_err().to_string();
    assert!(e.contains(why), "{e}");
    let inspect = inspect::inspect(rig, "m");
    assert!(
        inspect.contains(&format!("does not hold: {unit}")),
        "{inspect}"
    );
    assert!(skin_host::render::Cpu::new(rig, Some(0), Arith::Fixed, None).is_err());
}

#[test]
fn positions_near_f32_max_do_not_fit_fixed_point() {
    // 1.75e38 is above 2^127 (1.7014e38).
    let g = keyed_triangle(1.75e38, &[0.0, 1.0], "translation", &[0.0; 6]);
    let rig = import::from_slice(&g.glb(), None).unwrap();
    fixed_refused_everywhere(&rig, "needs asset unit 2^128, beyond 2^127");
    // f32 holds them at rest.
    pose::pose(&rig, None, Arith::F32).unwrap();
}

#[test]
fn a_far_joint_that_would_flatten_the_mesh_does_not_fit_fixed_point() {
    // The root joint rests at 10^30 and the clip brings it back: fixed point would need an
    // asset unit so large that every vertex rounds to zero.
    let mut g = keyed_triangle(1.0, &[0.0, 1.0], "translation", &[0.0; 6]);
    g.json["nodes"][0]["translation"] = json!([1e30, 0.0, 0.0]);
    g.json["skins"][0]["joints"] = json!([0, 1]);
    let rig = import::from_slice(&g.glb(), None).unwrap();
    fixed_refused_everywhere(&rig, "joint 0 (node 0) of skin 0");
}

#[test]
fn a_key_beyond_the_pose_format_is_named_with_its_value_and_limit() {
    // Positions within 1: asset unit 2^1; a key of 1000 model units is 500 asset units.
    let g = keyed_triangle(
        1.0,
        &[0.0, 1.0],
        "translation",
        &[0.0, 0.0, 0.0, 1000.0, 0.0, 0.0],
    );
    let rig = import::from_slice(&g.glb(), None).unwrap();
    let e = pose::pose(&rig, Some((0, 0.5)), Arith::Fixed)
        .unwrap_err()
        .to_string();
    for want in [
        "animation 0 \"keyed\" channel 0 (Translation of node 0 \"root\") key 1 at 1 s",
        "value 5e2 asset units of 2^1 model units",
        "beyond the I8F24 pose limit of ±64",
    ] {
        assert!(e.contains(want), "{want:?} not in {e}");
    }
    assert!(inspect::fixed_fits(&rig)
        .unwrap_err()
        .contains("key 1 at 1 s"));
    // f32 names its own format and limit.
    let g = keyed_triangle(
        1.0,
        &[0.0, 1.0],
        "translation",
        &[0.0, 0.0, 0.0, 1e31, 0.0, 0.0],
    );
    let rig = import::from_slice(&g.glb(), None).unwrap();
    let e = pose::pose(&rig, Some((0, 0.5)), Arith::F32)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("beyond the f32 pose limit of ±1000000000000000000000000000000"),
        "{e}"
    );
    assert!(!e.contains("I8F24") && !e.contains("fixed-point"), "{e}");
}

#[test]
fn a_rest_transform_beyond_f32_s_limit_names_f32() {
    let mut g = keyed_triangle(1.0, &[0.0, 1.0], "translation", &[0.0; 6]);
    g.json["nodes"][1]["translation"] = json!([1e31, 0.0, 0.0]);
    let rig = import::from_slice(&g.glb(), None).unwrap();
    let e = pose::pose(&rig, None, Arith::F32).unwrap_err().to_string();
    assert!(e.contains("f32") && !e.contains("I8F24"), "{e}");
}

#[test]
fn the_range_check_is_linear_in_keys() {
    // 100,000 keys: a check that re-validated every key at each of its 200,000 frames
    // would take about 20 minutes; the limit is only a hang guard (the speed is in
    // docs/BENCHMARKS.md).
    let n = 100_000;
    let times: Vec<f32> = (0..n).map(|i| i as f32 / 100.0).collect();
    let values: Vec<f32> = (0..3 * n).map(|i| ((i % 11) as f32) * 0.01).collect();
    let g = keyed_triangle(1.0, &times, "translation", &values);
    let rig = import::from_slice(&g.glb(), None).unwrap();
    let started = Instant::now();
    let k = pose::fixed_unit(&rig).unwrap();
    assert_eq!(range::check_fixed(&rig, &[0], k).unwrap(), 2 * n);
    let took = started.elapsed();
    eprintln!("fixed-point check of {n} keys ({} frames): {took:?}", 2 * n);
    assert!(took < Duration::from_secs(20), "{took:?}");
}

#[test]
fn a_skinless_node_draws_a_weighted_mesh_unskinned_on_every_path() {
    let mut g = keyed_triangle(1.0, &[0.0, 1.0], "translation", &[0.0; 6]);
    g.json["nodes"][2].as_object_mut().unwrap().remove("skin");
    g.json["nodes"][2]["translation"] = json!([0.0, 0.0, 2.0]);
    let rig = import::from_slice(&g.glb(), None).unwrap();
    let blocks = pose::pose(&rig, None, Arith::F32).unwrap();
    assert_eq!(
        blocks[0].positions[1],
        [1.0, 0.0, 2.0],
        "placed by its node"
    );
    let budget = skin_core::budget::Budget::VS_1_1;
    let model =
        skin_host::gpu::Model::new(&rig, budget, skin_core::budget::Layout::Affine3x4).unwrap();
    assert_eq!(model.primitives[0].skin, None);
    let palettes = model.palettes(&rig, None).unwrap();
    assert_eq!(palettes[0].len(), 1);
    let cpu = skin_host::render::Cpu::new(&rig, None, Arith::F32, Some(budget)).unwrap();
    cpu.render(0.0, (64, 64)).unwrap();
}

#[test]
fn pictures_up_to_1024_pixels_a_side_render() {
    let rig = import::from_slice(&Worm::default().build().glb(), None).unwrap();
    for arith in [Arith::F32, Arith::Fixed] {
        let cpu = skin_host::render::Cpu::new(&rig, Some(0), arith, None).unwrap();
        for size in [(1024, 1024), (1024, 17), (3, 1024)] {
            cpu.render(0.7, size)
                .unwrap_or_else(|e| panic!("{size:?}: {e}"));
        }
    }
}

#[test]
fn a_clip_named_twice_is_baked_once() {
    let rig = import::from_slice(&Worm::default().build().glb(), None).unwrap();
    let options = Options {
        budget: None,
        lane: Arith::F32,
        clips: Some(vec![0, 0]),
        skinning: skin_host::pose::Skinning::Lbs,
    };
    assert_eq!(bake::bake(&rig, &options).unwrap().clips, vec![0]);
}

#[test]
fn normals_are_made_unit_vectors_with_a_warning() {
    // A normal of length 999 would not fit the fixed lane's I2F14 normals.
    let mut g = Gen::new();
    let pos = g.floats(&[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0], "VEC3", 3);
    let nrm = g.floats(&[0.0, 0.0, 999.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0], "VEC3", 3);
    g.push(
        "meshes",
        json!({"primitives": [{"attributes": {"POSITION": pos, "NORMAL": nrm}}]}),
    );
    g.push("nodes", json!({"mesh": 0}));
    let rig = import::from_slice(&g.glb(), None).unwrap();
    let normals = rig.meshes[0].primitives[0].normals.as_ref().unwrap();
    assert_eq!(
        normals,
        &vec![[0.0, 0.0, 1.0], [0.0, 0.0, 1.0], [0.0, 0.0, 0.0]]
    );
    assert!(
        rig.warnings[0]
            .to_string()
            .contains("1 normals were not of unit length"),
        "{:?}",
        rig.warnings
    );
    let options = Options {
        budget: None,
        lane: Arith::Fixed,
        clips: None,
        skinning: skin_host::pose::Skinning::Lbs,
    };
    bake::bake(&rig, &options).unwrap();
}

#[test]
fn a_palette_beyond_the_fixed_lane_is_named_with_its_row_sum_and_limit() {
    // Joint 0 turned 45° about Z and scaled 6: its palette rows sum to 6·√2 ≈ 8.49, beyond
    // the 8 an I2F14 row holds at the largest palette exponent (2).
    let mut g = keyed_triangle(1.0, &[0.0, 1.0], "translation", &[0.0; 6]);
    let (s, c) = (22.5f32.to_radians().sin(), 22.5f32.to_radians().cos());
    g.json["nodes"][0]["rotation"] = json!([0.0, 0.0, s, c]);
    g.json["nodes"][0]["scale"] = json!([6.0, 6.0, 6.0]);
    let rig = import::from_slice(&g.glb(), None).unwrap();
    let e = pose::pose(&rig, None, Arith::Fixed)
        .unwrap_err()
        .to_string();
    for want in [
        "skin 0 joint 0 (node 0 \"root\")",
        "row summing to 8.4853",
        "beyond what I2F14 holds (rows of |rotation·scale| summing below 8",
    ] {
        assert!(e.contains(want), "{want:?} not in {e}");
    }
    pose::pose(&rig, None, Arith::F32).unwrap();
}
