//! The importer on synthetic glTF: what it reads (joint sets, weight types, missing
//! inverse bind matrices, a mesh shared by two skins), what it warns about, and a typed
//! error for each kind of bad input; arbitrary bytes never make it panic.

use proptest::prelude::*;
use skin_host::import;
use skin_host::ImportError;
use skin_tests::gltf_gen::{Gen, Worm, UNSIGNED_BYTE, UNSIGNED_SHORT};

fn glb(g: &Gen) -> Vec<u8> {
    g.glb()
}

#[test]
fn reads_the_worm() {
    let rig = import::from_slice(&glb(&Worm::default().build()), None).unwrap();
    assert_eq!(rig.nodes.len(), 12);
    assert_eq!(rig.skins.len(), 1);
    assert_eq!(rig.skins[0].joints, (1..=10).collect::<Vec<_>>());
    // The root is a non-joint ancestor of every joint; parents come first.
    assert_eq!(rig.nodes[1].parent, Some(0));
    for (i, &n) in rig.order.iter().enumerate() {
        if let Some(p) = rig.nodes[n].parent {
            assert!(rig.order[..i].contains(&p));
        }
    }
    let prim = &rig.meshes[0].primitives[0];
    assert_eq!(prim.positions.len(), 63);
    assert_eq!(prim.max_influences, 4);
    let infl = prim.influences.as_ref().unwrap();
    for inf in infl {
        let sum: f32 = inf.weights.iter().sum();
        assert!((sum - 1.0).abs() < 1e-6);
        assert!(
            inf.weights.windows(2).all(|w| w[0] >= w[1]),
            "largest first"
        );
    }
    assert_eq!(rig.clips.len(), 1);
    assert_eq!(rig.clips[0].name.as_deref(), Some("wiggle"));
    // 10 bone rotations, 1 bone scale, 1 root translation (a non-joint node).
    assert_eq!(rig.clips[0].channels.len(), 12);
    assert!(rig.clips[0].channels.iter().any(|c| c.node == 0));
    assert_eq!(rig.clips[0].duration(), 2.0);
    // The worm has no NORMAL: smooth normals are generated, unit length, and noted.
    let normals = rig.meshes[0].primitives[0]
        .normals
        .as_ref()
        .expect("generated");
    for n in normals {
        let l = n.iter().map(|c| c * c).sum::<f32>().sqrt();
        assert!((l - 1.0).abs() < 1e-5, "{n:?}");
    }
    assert_eq!(rig.warnings.len(), 1, "{:?}", rig.warnings);
    assert!(rig.warnings[0].kind.is_note(), "{:?}", rig.warnings);
}

#[test]
fn eight_influences_are_reduced_to_four_with_a_warning() {
    let worm = Worm {
        influences: 8,
        ..Worm::default()
    };
    let rig = import::from_slice(&glb(&worm.build()), None).unwrap();
    let prim = &rig.meshes[0].primitives[0];
    assert_eq!(prim.max_influences, 8);
    assert!(
        prim.largest_dropped > 0.05 && prim.largest_dropped < 0.2,
        "{}",
        prim.largest_dropped
    );
    assert!(
        rig.warnings
            .iter()
            .any(|w| w.to_string().contains("largest dropped weight")),
        "{:?}",
        rig.warnings
    );
    for inf in prim.influences.as_ref().unwrap() {
        assert!((inf.weights.iter().sum::<f32>() - 1.0).abs() < 1e-6);
    }
}

#[test]
fn quantised_weights_are_read_normalised() {
    for (ty, tol) in [
        (UNSIGNED_BYTE, 0.5 / 255.0),
        (UNSIGNED_SHORT, 0.5 / 65535.0),
    ] {
        let exact = import::from_slice(&glb(&Worm::default().build()), None).unwrap();
        let worm = Worm {
            weights: ty,
            ..Worm::default()
        };
        let rig = import::from_slice(&glb(&worm.build()), None).unwrap();
        let a = exact.meshes[0].primitives[0].influences.as_ref().unwrap();
        let b = rig.meshes[0].primitives[0].influences.as_ref().unwrap();
        for (x, y) in a.iter().zip(b) {
            assert_eq!(x.joints, y.joints);
            for k in 0..4 {
                assert!(
                    (x.weights[k] - y.weights[k]).abs() < 4.0 * tol,
                    "{x:?} {y:?}"
                );
            }
        }
    }
}

#[test]
fn missing_inverse_bind_matrices_are_identity() {
    let worm = Worm {
        inverse_binds: false,
        ..Worm::default()
    };
    let rig = import::from_slice(&glb(&worm.build()), None).unwrap();
    let id = [
        [1.0, 0.0, 0.0, 0.0],
        [0.0, 1.0, 0.0, 0.0],
        [0.0, 0.0, 1.0, 0.0],
    ];
    assert!(rig.skins[0].inverse_binds.iter().all(|m| *m == id));
}

#[test]
fn one_mesh_two_skins() {
    let worm = Worm {
        two_skins: true,
        ..Worm::default()
    };
    let rig = import::from_slice(worm.build().gltf().as_bytes(), None).unwrap();
    assert_eq!(rig.meshes.len(), 1);
    let inst: Vec<_> = rig.mesh_nodes().collect();
    assert_eq!(inst, vec![(11, 0, Some(0)), (22, 0, Some(1))]);
}

#[test]
fn a_missing_file_is_an_io_error() {
    let e = import::from_path("/nonexistent/x.glb".as_ref()).unwrap_err();
    assert!(matches!(e, ImportError::Io { .. }), "{e}");
    assert!(e.to_string().starts_with("cannot read /nonexistent/x.glb"));
}

#[test]
fn a_truncated_glb_is_a_container_error() {
    let bytes = glb(&Worm::default().build());
    for cut in [4, 13, 30, bytes.len() / 2, bytes.len() - 1] {
        let e = import::from_slice(&bytes[..cut], None).unwrap_err();
        assert!(matches!(e, ImportError::Glb(_)), "cut {cut}: {e}");
    }
}

#[test]
fn a_wrong_magic_is_not_gltf() {
    let mut bytes = glb(&Worm::default().build());
    bytes[..4].copy_from_slice(b"GLTF");
    let e = import::from_slice(&bytes, None).unwrap_err();
    assert!(matches!(e, ImportError::NotGltf), "{e}");
}

#[test]
fn broken_json_is_a_json_error() {
    let text = Worm::default().build().gltf();
    let e = import::from_slice(&text.as_bytes()[..text.len() - 3], None).unwrap_err();
    assert!(matches!(e, ImportError::Json(_)), "{e}");
}

#[test]
fn an_accessor_past_its_buffer_is_an_accessor_error() {
    let mut g = Worm::default().build();
    let pos = g.json["meshes"][0]["primitives"][0]["attributes"]["POSITION"]
        .as_u64()
        .unwrap() as usize;
    g.json["accessors"][pos]["count"] = serde_json::json!(100_000);
    let e = import::from_slice(&g.glb(), None).unwrap_err();
    match e {
        ImportError::Accessor { index, ref reason } => {
            assert_eq!(index, pos);
            assert!(reason.contains("past the end"), "{reason}");
        }
        other => panic!("{other}"),
    }
    // A buffer view past the buffer's end.
    let mut g = Worm::default().build();
    g.json["bufferViews"][0]["byteOffset"] = serde_json::json!(1 << 20);
    let e = import::from_slice(&g.glb(), None).unwrap_err();
    assert!(
        matches!(e, ImportError::Accessor { .. } | ImportError::Invalid(_)),
        "{e}"
    );
}

#[test]
fn a_joint_beyond_the_joint_list_is_a_joint_index_error() {
    let mut g = Worm::default().build();
    let joints: Vec<serde_json::Value> =
        g.json["skins"][0]["joints"].as_array().unwrap()[..3].to_vec();
    g.json["skins"][0]["joints"] = serde_json::json!(joints);
    let e = import::from_slice(&g.glb(), None).unwrap_err();
    match e {
        ImportError::JointIndex {
            joints,
            skin,
            node,
            joint,
            ..
        } => {
            assert_eq!((joints, skin, node), (3, 0, 11));
            assert!(joint >= 3);
        }
        other => panic!("{other}"),
    }
}

#[test]
fn nan_in_an_inverse_bind_matrix_is_rejected() {
    let mut g = Worm::default().build();
    let acc = g.json["skins"][0]["inverseBindMatrices"].as_u64().unwrap() as usize;
    let view = g.json["accessors"][acc]["bufferView"].as_u64().unwrap() as usize;
    let offset = g.json["bufferViews"][view]["byteOffset"].as_u64().unwrap() as usize;
    // Matrix 2, entry 5.
    let at = offset + (2 * 16 + 5) * 4;
    g.bin[at..at + 4].copy_from_slice(&f32::NAN.to_le_bytes());
    let e = import::from_slice(&g.glb(), None).unwrap_err();
    match &e {
        ImportError::NotFinite { what } => {
            assert!(what.contains("inverse bind matrix 2 of skin 0"), "{what}")
        }
        other => panic!("{other}"),
    }
}

#[test]
fn a_node_cycle_is_rejected() {
    let mut g = Worm::default().build();
    // The last bone becomes the parent of the root.
    g.json["nodes"][10]["children"] = serde_json::json!([0]);
    let e = import::from_slice(&g.glb(), None).unwrap_err();
    assert!(
        matches!(e, ImportError::NodeCycle { .. } | ImportError::Invalid(_)),
        "{e}"
    );
    let mut g = Worm::default().build();
    g.json["nodes"][3]["children"] = serde_json::json!([3]);
    let e = import::from_slice(&g.glb(), None).unwrap_err();
    assert!(
        matches!(
            e,
            ImportError::NodeCycle { node: 3 } | ImportError::Invalid(_)
        ),
        "{e}"
    );
}

#[test]
fn a_budget_too_small_for_one_triangle_is_a_split_error() {
    let rig = import::from_slice(&glb(&Worm::default().build()), None).unwrap();
    let prim = &rig.meshes[0].primitives[0];
    let e = skin_host::split::split(prim, 3).unwrap_err();
    match e {
        skin_host::split::SplitError::ElementTooBig {
            bones, capacity, ..
        } => {
            assert!(bones > 3);
            assert_eq!(capacity, 3);
        }
        other => panic!("{other}"),
    }
}

#[test]
fn error_messages_are_one_line() {
    let mut g = Worm::default().build();
    g.json["accessors"][0]["count"] = serde_json::json!(1_000_000);
    let errors = [
        import::from_slice(b"", None).unwrap_err(),
        import::from_slice(b"glTF\x02\0\0\0", None).unwrap_err(),
        import::from_slice(b"{}", None).unwrap_err(),
        import::from_slice(&g.glb(), None).unwrap_err(),
    ];
    for e in errors {
        let s = e.to_string();
        assert!(!s.is_empty() && !s.contains('\n'), "{s:?}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..2048)) {
        let _ = import::from_slice(&bytes, None);
    }

    #[test]
    fn corrupted_glb_never_panics(flips in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..8)) {
        let mut bytes = Worm::default().build().glb();
        for (at, v) in flips {
            let i = at.index(bytes.len());
            bytes[i] = v;
        }
        // Whatever happens, no panic; and anything imported can be posed without panic.
        if let Ok(rig) = import::from_slice(&bytes, None) {
            let _ = skin_host::pose::pose(&rig, None, skin_host::pose::LaneKind::F32);
            let _ = skin_host::pose::pose(&rig, None, skin_host::pose::LaneKind::Fixed);
            if !rig.clips.is_empty() {
                let _ = skin_host::pose::pose(&rig, Some((0, 0.7)), skin_host::pose::LaneKind::F32);
                let _ = skin_host::pose::pose(&rig, Some((0, 0.7)), skin_host::pose::LaneKind::Fixed);
            }
        }
    }

    #[test]
    fn corrupted_json_never_panics(at in any::<prop::sample::Index>(), c in any::<u8>()) {
        let mut text = Worm { influences: 8, two_skins: true, ..Worm::default() }.build().gltf().into_bytes();
        // Corrupt only the JSON structure, not the (long) base64 buffer.
        let json_end = text.iter().position(|&b| b == b'"' ).unwrap_or(0).max(text.len() / 10);
        let i = at.index(json_end.max(1));
        text[i] = c;
        let _ = import::from_slice(&text, None);
    }
}

/// Fox has no NORMAL: it gets smooth normals (so it is lit), and `inspect` says so.
#[test]
fn fox_gets_smooth_normals_and_inspect_says_so() {
    let Some(dir) = skin_tests::models_dir() else {
        skin_tests::skip("fox_gets_smooth_normals", "../shared/models is not present");
        return;
    };
    let rig = import::from_path(&dir.join("Fox.glb")).unwrap();
    let prim = &rig.meshes[0].primitives[0];
    let normals = prim.normals.as_ref().expect("generated normals");
    assert_eq!(normals.len(), prim.positions.len());
    let lit = normals
        .iter()
        .filter(|n| n.iter().any(|&c| c != 0.0))
        .count();
    assert_eq!(lit, normals.len());
    let text = skin_host::inspect::inspect(&rig, "Fox.glb");
    assert!(
        text.contains(
            "no normals, smooth angle-weighted normals generated: mesh 0 \"fox1\" primitive 0"
        ),
        "{text}"
    );
}

/// The unit normal of each triangle of a triangle list, by its own cross product.
fn face_normals(positions: &[[f32; 3]]) -> Vec<[f64; 3]> {
    positions
        .chunks_exact(3)
        .map(|t| {
            let d = |i: usize| [0, 1, 2].map(|k| f64::from(t[i][k]) - f64::from(t[0][k]));
            let (u, v) = (d(1), d(2));
            let n = [
                u[1] * v[2] - u[2] * v[1],
                u[2] * v[0] - u[0] * v[2],
                u[0] * v[1] - u[1] * v[0],
            ];
            let l = n.iter().map(|x| x * x).sum::<f64>().sqrt();
            n.map(|x| x / l)
        })
        .collect()
}

/// Fox gives every triangle its own three vertices: flat normals are its faces' normals,
/// smooth ones are shared by the vertices at one position (as if welded) and so differ
/// from the faces'; `inspect` says which it generated.
#[test]
fn fox_is_flat_when_asked_and_smooth_across_split_vertices_otherwise() {
    let test = "fox_is_flat_when_asked_and_smooth_across_split_vertices_otherwise";
    let Some(dir) = skin_tests::models_dir() else {
        skin_tests::skip(test, "../shared/models is not present");
        return;
    };
    let path = dir.join("Fox.glb");
    let flat_opts = import::Options {
        normals: import::Generated::Flat,
        ..import::Options::default()
    };
    let flat = import::from_path_with(&path, &flat_opts).unwrap();
    let smooth = import::from_path(&path).unwrap();
    let (fp, sp) = (
        &flat.meshes[0].primitives[0],
        &smooth.meshes[0].primitives[0],
    );
    assert_eq!(fp.positions, sp.positions, "Fox is already unwelded");
    let faces = face_normals(&fp.positions);
    let close =
        |a: [f32; 3], b: [f64; 3], tol: f64| (0..3).all(|i| (f64::from(a[i]) - b[i]).abs() <= tol);
    let fnorm = fp.normals.as_ref().unwrap();
    for (v, n) in fnorm.iter().enumerate() {
        assert!(close(*n, faces[v / 3], 1e-6), "flat vertex {v}: {n:?}");
    }
    let snorm = sp.normals.as_ref().unwrap();
    let mut differ = 0;
    for (v, n) in snorm.iter().enumerate() {
        for (w, m) in snorm.iter().enumerate().skip(v + 1) {
            if sp.positions[v] == sp.positions[w] {
                assert_eq!(n, m, "vertices {v} and {w} share a position");
            }
        }
        if !close(*n, faces[v / 3], 1e-3) {
            differ += 1;
        }
    }
    println!(
        "{differ} of {} smooth normals differ from their face's",
        snorm.len()
    );
    assert!(differ * 2 > snorm.len(), "{differ}");
    let text = |rig| skin_host::inspect::inspect(rig, "Fox.glb");
    assert!(text(&flat).contains("normals: 0 primitive(s) from the file, 1 generated flat"));
    assert!(text(&smooth).contains("normals: 0 primitive(s) from the file, 1 generated smooth"));
}

/// Smooth normals do not depend on whether the file shares vertices between triangles:
/// the worm (indexed) and its unwelded copy get the same normal at every corner.
#[test]
fn smooth_normals_are_the_same_welded_or_not() {
    let rig = import::from_slice(&glb(&Worm::default().build()), None).unwrap();
    let mut prim = rig.meshes[0].primitives[0].clone();
    prim.normals = None;
    let welded = import::smooth_normals(&prim).unwrap();
    let mut split = import::flat_normals(&prim).unwrap();
    split.normals = None;
    let unwelded = import::smooth_normals(&split).unwrap();
    let corners: Vec<usize> = prim.index_list().iter().map(|&i| i as usize).collect();
    assert_eq!(corners.len(), unwelded.len());
    for (c, &v) in corners.iter().enumerate() {
        for k in 0..3 {
            assert!((welded[v][k] - unwelded[c][k]).abs() < 1e-6, "corner {c}");
        }
    }
}
