//! `skin_host::bake` end to end: bake → read back with `skin_core::asset` → sample, pose and
//! skin through skin-core as the device does → the same output as `skin_host::pose` skinning
//! the import (bit for bit in fixed point, exactly in f32), at rest and at several times of
//! every clip, on the synthetic worms (STEP/LINEAR/CUBICSPLINE, 8 influences, two skins,
//! budgets that force splits) and on every model in ../shared/models. Also: refusals, and
//! deterministic output.

use skin_core::affine::Affine;
use skin_core::asset::{Asset, AssetLane, PartView};
use skin_core::budget::Budget;
use skin_core::clip::Wrap;
use skin_core::lane::{Lane, Q14};
use skin_core::palette::{DualPalette, Palette, StretchPalette};
use skin_core::raster::{Project, RasterError, ScreenVertex};
use skin_core::scene::{Scene, Scratch};
use skin_core::skin::{SkinnedMesh, Skinning};
use skin_core::transform::Transform;
use skin_core::vertex::Influence;
use skin_host::bake::{self, BakeError, Baked, Options};
use skin_host::pose::{self, LaneKind};
use skin_host::rig::Rig;
use skin_host::split::SplitError;
use skin_tests::gltf_gen::{twelve_bone_triangle, Interp, Worm, UNSIGNED_SHORT};
use skin_tests::gltf_ref;

/// The most bones and joints a test asset has (RecursiveSkeletons: 924 bones).
const CAP: usize = 1024;

/// Skin every part of `bytes` through skin-core, at rest (`None`) or with asset clip `c`
/// sampled at `t` seconds: one output per part.
fn skin_asset<L: AssetLane>(bytes: &[u8], anim: Option<(usize, f32)>) -> Vec<Vec<[L::Out; 3]>> {
    let asset = Asset::<L>::read(bytes).expect("read back");
    let skeleton = asset.skeleton::<CAP>().expect("skeleton");
    let bind = asset.bind_pose::<CAP>().expect("bind pose");
    let mut locals = skeleton.rest().to_vec();
    if let Some((c, t)) = anim {
        let clip = asset.clips().nth(c).expect("clip");
        clip.sample(t, Wrap::Clamp, &mut locals).expect("sample");
    }
    let mut world = vec![Affine::IDENTITY; skeleton.len()];
    skeleton.world(&locals, &mut world).expect("world");
    let mut palette: Box<Palette<L, 256>> = Box::default();
    let mut dual: Box<DualPalette<L, 256>> = Box::default();
    let mut stretched: Box<StretchPalette<L, 256>> = Box::default();
    asset
        .parts()
        .map(|part| {
            let n = part.vertex_range().len();
            let mut p = vec![[L::default(); 3]; n];
            let mut inf = vec![Influence::<L>::rigid(0); n];
            assert_eq!(part.positions().copy_to(&mut p), n);
            assert_eq!(part.influences().copy_to(&mut inf), n);
            let mut out = vec![[L::Out::default(); 3]; n];
            let mesh = SkinnedMesh::<L, 4>::new(&p, &inf).expect("mesh");
            match asset.skinning() {
                Skinning::Lbs => {
                    part.palette(&bind, &world, &mut palette).expect("palette");
                    mesh.skin(palette.as_slice(), &mut out).expect("skin");
                }
                Skinning::Dqs if asset.stretched() => {
                    part.stretch_palette(&bind, &world, &mut stretched)
                        .expect("palette");
                    let (d, s) = (stretched.duals(), stretched.stretches());
                    mesh.skin_dqs_stretched(d, s, &mut out).expect("skin");
                }
                Skinning::Dqs => {
                    part.dual_palette(&bind, &world, &mut dual)
                        .expect("palette");
                    mesh.skin_dqs(dual.as_slice(), &mut out).expect("skin");
                }
            }
            // Skinned relative to the asset's centre (`BindPose::with_centre`): back.
            let c = bind.centre();
            for o in &mut out {
                *o = [0, 1, 2].map(|i| L::offset(o[i], c[i]));
            }
            out
        })
        .collect()
}

/// Compare the asset with `skin_host::pose` in lane `L` by the asset's skinning method at
/// rest and at `fractions` of every clip's duration; every vertex of every (node, primitive)
/// is checked at least once. (Under DQS the pose places rigidly drawn meshes by their node's
/// matrix, the asset by its dual quaternion: those equal only up to rounding and are
/// compared by `rigid_dqs_parts_follow_their_node`.)
fn round_trip<L: AssetLane>(rig: &Rig, baked: &Baked, fractions: &[f32], what: &str)
where
    L::Out: PartialEq + std::fmt::Debug,
{
    let k = baked.unit_exponent;
    let skinning = Asset::<L>::read(&baked.bytes).expect("read").skinning();
    let mut frames: Vec<Option<(usize, f32)>> = vec![None];
    for (a, &c) in baked.clips.iter().enumerate() {
        let d = rig.clips[c].duration();
        frames.extend(fractions.iter().map(|f| Some((a, f * d))));
    }
    for frame in frames {
        let host_frame = frame.map(|(a, t)| (baked.clips[a], t));
        let locals = pose::animate::frame::<L::Real>(rig, host_frame, k).expect("host frame");
        let weights = pose::morph::weights(rig, host_frame);
        let want =
            pose::skin::pose_lane::<L>(rig, &locals, &weights, k, skinning).expect("host skin");
        let got = skin_asset::<L>(&baked.bytes, frame);
        assert_eq!(got.len(), baked.parts.len());
        let mut seen: Vec<Vec<bool>> = want.iter().map(|b| vec![false; b.out.len()]).collect();
        for (part, (out, src)) in got.iter().zip(&baked.parts).enumerate() {
            let b = want
                .iter()
                .position(|b| (b.node, b.mesh, b.primitive) == (src.node, src.mesh, src.primitive))
                .expect("part source is a posed block");
            assert_eq!(out.len(), src.vertices.len());
            let rigid = rig.nodes[src.node].skin.is_none()
                || rig.meshes[src.mesh].primitives[src.primitive]
                    .influences
                    .is_none();
            for (local, &v) in src.vertices.iter().enumerate() {
                seen[b][v as usize] = true;
                if rigid && skinning == Skinning::Dqs {
                    continue;
                }
                assert_eq!(
                    out[local], want[b].out[v as usize],
                    "{what} {}: frame {frame:?}: part {part} vertex {local} (node {} primitive {} vertex {v})",
                    L::NAME,
                    src.node,
                    src.primitive
                );
            }
        }
        // Every vertex a triangle uses is baked.
        for (b, block) in want.iter().enumerate() {
            let prim = &rig.meshes[block.mesh].primitives[block.primitive];
            for e in prim.elements() {
                assert!(
                    e.iter().all(|&v| seen[b][v as usize]),
                    "{what}: vertex left out"
                );
            }
        }
    }
}

/// Bake `rig` in f32 and fixed with `budget` for `skinning` and check both round trips;
/// returns both bakes.
fn check(rig: &Rig, budget: Option<Budget>, skinning: Skinning, what: &str) -> [Baked; 2] {
    let fractions = [-0.1, 0.0, 0.13, 0.37, 0.5, 0.71, 1.0, 1.3];
    let options = |lane| Options {
        budget,
        lane,
        clips: None,
        skinning,
    };
    let f = bake::bake(rig, &options(LaneKind::F32)).unwrap_or_else(|e| panic!("{what}: {e}"));
    round_trip::<f32>(rig, &f, &fractions, what);
    let x = bake::bake(rig, &options(LaneKind::Fixed)).unwrap_or_else(|e| panic!("{what}: {e}"));
    round_trip::<Q14>(rig, &x, &fractions, what);
    assert_eq!(f.parts, x.parts, "{what}: the same parts in both formats");
    assert_eq!(x.unit_exponent, pose::asset_unit(rig));
    [f, x]
}

fn worm(w: Worm) -> Rig {
    skin_host::import::from_slice(&w.build().glb(), None).expect("import worm")
}

#[test]
fn worms_round_trip_in_every_interpolation() {
    for interp in [Interp::Step, Interp::Linear, Interp::CubicSpline] {
        let rig = worm(Worm {
            interp,
            ..Worm::default()
        });
        let [f, x] = check(&rig, None, Skinning::Lbs, &format!("{interp:?} worm"));
        assert_eq!((f.parts.len(), f.clips.len(), f.duplicated), (1, 1, 0));
        let asset = Asset::<Q14>::read(&x.bytes).unwrap();
        assert_eq!(asset.clips().count(), 1);
        assert_eq!(asset.clips().next().unwrap().name(), "wiggle");
        assert_eq!(asset.clips().next().unwrap().duration(), 2.0);
    }
}

#[test]
fn split_worms_round_trip() {
    let rig = worm(Worm {
        two_skins: true,
        influences: 8,
        weights: UNSIGNED_SHORT,
        ..Worm::default()
    });
    // 10 bones a skin; a palette of 6 forces splits with duplicated vertices.
    let small = Budget::registers("test_18", 18);
    assert_eq!(small.capacity(skin_core::budget::Layout::Affine3x4), 6);
    let [f, _] = check(&rig, Some(small), Skinning::Lbs, "split worm");
    assert!(
        f.parts.len() > 2 && f.duplicated > 0,
        "{} parts",
        f.parts.len()
    );
    let asset = Asset::<f32>::read(&f.bytes).unwrap();
    assert!(asset.parts().all(|p| p.bones().len() <= 6));
    let [whole, _] = check(&rig, None, Skinning::Lbs, "two-skin worm");
    assert_eq!(whole.parts.len(), 2);
    assert_eq!(whole.joints, 20, "one joint entry per joint of each skin");
}

#[test]
fn sample_models_round_trip() {
    for model in skin_tests::sample_models("sample_models_round_trip") {
        let rig = skin_host::import::from_path(&model).unwrap();
        let name = model.file_name().unwrap().to_string_lossy().into_owned();
        let [f, x] = check(&rig, None, Skinning::Lbs, &name);
        let split = check(
            &rig,
            Budget::preset("oes_matrix_palette"),
            Skinning::Lbs,
            &name,
        );
        eprintln!(
            "{name}: f32 {} bytes, fixed {} bytes, {} parts; oes_matrix_palette: {} parts, {} duplicated",
            f.bytes.len(),
            x.bytes.len(),
            f.parts.len(),
            split[0].parts.len(),
            split[0].duplicated
        );
        // The asset's clips are the model's, with its names.
        let asset = Asset::<Q14>::read(&x.bytes).unwrap();
        let names: Vec<String> = asset.clips().map(|c| c.name().to_owned()).collect();
        let want: Vec<String> = (0..rig.clips.len())
            .map(|c| bake::clip_name(&rig, c))
            .collect();
        assert_eq!(names, want);
    }
}

/// The baked asset skins within the fixed lane's bound of the independent f64 reference
/// (not just of the host), so the bake loses nothing the pose keeps.
#[test]
fn baked_fixed_worm_matches_the_f64_reference() {
    let g = Worm {
        interp: Interp::CubicSpline,
        ..Worm::default()
    }
    .build();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("w.glb");
    std::fs::write(&path, g.glb()).unwrap();
    let rig = skin_host::import::from_path(&path).unwrap();
    let model = gltf_ref::load(&path);
    let baked = bake::bake(
        &rig,
        &Options {
            budget: Some(Budget::registers("test_18", 18)),
            lane: LaneKind::Fixed,
            clips: None,
            skinning: Skinning::Lbs,
        },
    )
    .unwrap();
    let unit = 2f64.powi(baked.unit_exponent);
    let bound = (8.25 / 32768.0 + 1e-6) * unit;
    for t in [0.0f32, 0.3, 1.1, 1.9] {
        let want = gltf_ref::pose(&model, Some(0), f64::from(t));
        let got = skin_asset::<Q14>(&baked.bytes, Some((0, t)));
        for (out, src) in got.iter().zip(&baked.parts) {
            let w = want.iter().find(|b| b.node == src.node).unwrap();
            for (o, &v) in out.iter().zip(&src.vertices) {
                for (c, r) in o.iter().zip(w.positions[v as usize]) {
                    let g = f64::from(Q14::out_to_f32(*c)) * unit;
                    let e = (g - r).abs();
                    assert!(e <= bound, "t {t} vertex {v}: error {e} > {bound}");
                }
            }
        }
    }
}

#[test]
fn bake_is_deterministic() {
    let rig = worm(Worm {
        two_skins: true,
        ..Worm::default()
    });
    for lane in [LaneKind::F32, LaneKind::Fixed] {
        let o = Options {
            budget: Some(Budget::registers("test_18", 18)),
            lane,
            clips: None,
            skinning: Skinning::Lbs,
        };
        let a = bake::bake(&rig, &o).unwrap();
        let b = bake::bake(&rig.clone(), &o).unwrap();
        assert_eq!(a.bytes, b.bytes);
    }
}

#[test]
fn bake_includes_only_the_chosen_clips() {
    let rig = worm(Worm::default());
    let o = Options {
        budget: None,
        lane: LaneKind::Fixed,
        clips: Some(vec![]),
        skinning: Skinning::Lbs,
    };
    let none = bake::bake(&rig, &o).unwrap();
    assert_eq!(Asset::<Q14>::read(&none.bytes).unwrap().clips().count(), 0);
    let bad = bake::bake(
        &rig,
        &Options {
            clips: Some(vec![3]),
            ..o
        },
    );
    assert!(matches!(bad, Err(BakeError::Pose(_))), "{bad:?}");
}

#[test]
fn a_triangle_beyond_the_budget_is_refused() {
    let rig = skin_host::import::from_slice(&twelve_bone_triangle(1.0).glb(), None).unwrap();
    let o = |budget| Options {
        budget,
        lane: LaneKind::F32,
        clips: None,
        skinning: Skinning::Lbs,
    };
    // 12 bones fit a palette of 12, not of 9.
    let ok = bake::bake(&rig, &o(Some(Budget::registers("test_36", 36)))).unwrap();
    round_trip::<f32>(&rig, &ok, &[0.5], "twelve");
    let e = bake::bake(&rig, &o(Budget::preset("oes_matrix_palette"))).unwrap_err();
    match &e {
        BakeError::Split {
            source: SplitError::ElementTooBig {
                bones, capacity, ..
            },
            ..
        } => assert_eq!((*bones, *capacity), (12, 9)),
        other => panic!("{other:?}"),
    }
    let msg = e.to_string();
    assert!(
        msg.contains("12 bones") && msg.contains("oes_matrix_palette"),
        "{msg}"
    );
}

#[test]
fn a_clip_overflowing_fixed_point_is_refused() {
    // Rest: positions within one unit. The clip slides a bone 5000 units: 5000 asset units
    // are beyond I8F24's ±128, so the fixed bake refuses; f32 holds it.
    let rig = skin_host::import::from_slice(&twelve_bone_triangle(5000.0).glb(), None).unwrap();
    let o = |lane| Options {
        budget: None,
        lane,
        clips: None,
        skinning: Skinning::Lbs,
    };
    let f = bake::bake(&rig, &o(LaneKind::F32)).unwrap();
    round_trip::<f32>(&rig, &f, &[0.0, 0.5, 1.0], "slide");
    let e = bake::bake(&rig, &o(LaneKind::Fixed)).unwrap_err();
    let msg = e.to_string();
    assert!(matches!(e, BakeError::Pose(_)), "{e:?}");
    assert!(msg.contains("animation 0"), "{msg}");
    // Without the clip the model bakes in fixed point.
    let rest = bake::bake(
        &rig,
        &Options {
            clips: Some(vec![]),
            skinning: Skinning::Lbs,
            ..o(LaneKind::Fixed)
        },
    )
    .unwrap();
    round_trip::<Q14>(&rig, &rest, &[], "slide at rest");
}

/// An unskinned mesh under an animated parent (drawn rigidly by its node's world matrix),
/// and a skinned node whose primitive has no weights; `points` adds a POINTS primitive.
fn rigid_model(points: bool) -> Rig {
    use serde_json::json;
    let mut g = skin_tests::gltf_gen::Gen::new();
    let pos = g.floats(&[0.0, 0.0, 0.0, 0.5, 0.0, 0.0, 0.0, 0.5, 0.25], "VEC3", 3);
    let nrm = g.floats(&[0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.6, 0.8], "VEC3", 3);
    let mut prims = vec![json!({"attributes": {"POSITION": pos, "NORMAL": nrm}})];
    if points {
        prims.push(json!({"attributes": {"POSITION": pos}, "mode": 0}));
    }
    g.push("meshes", json!({ "primitives": prims }));
    let arm = g.push(
        "nodes",
        json!({"name": "arm", "translation": [0.25, 0.5, 0.0], "children": [1, 2]}),
    );
    g.push("nodes", json!({"mesh": 0, "translation": [0.5, 0.0, 0.0]}));
    g.push(
        "nodes",
        json!({"name": "bone", "translation": [0.0, 0.25, 0.0]}),
    );
    let skin = g.push("skins", json!({"joints": [2]}));
    g.push(
        "nodes",
        json!({"mesh": 0, "skin": skin, "translation": [0.0, 0.0, 0.5]}),
    );
    g.json["scenes"][0]["nodes"] = json!([arm, 3]);
    let times = g.floats(&[0.0, 1.0, 2.0], "SCALAR", 1);
    let s = std::f32::consts::FRAC_1_SQRT_2;
    let rot = g.floats(
        &[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, s, s, 0.0, 1.0, 0.0, 0.0],
        "VEC4",
        4,
    );
    g.push(
        "animations",
        json!({"samplers": [{"input": times, "output": rot}],
               "channels": [{"sampler": 0, "target": {"node": arm, "path": "rotation"}}]}),
    );
    skin_host::import::from_slice(&g.glb(), None).expect("import")
}

#[test]
fn rigid_meshes_round_trip_with_their_normals() {
    let rig = rigid_model(false);
    let [f, x] = check(&rig, None, Skinning::Lbs, "rigid");
    assert_eq!(f.parts.len(), 2);
    assert!(f.normals && x.normals);
    // Unnamed clips are named by their index.
    let asset = Asset::<Q14>::read(&x.bytes).unwrap();
    assert_eq!(asset.clips().next().unwrap().name(), "0");
    // Normals are stored as the import has them, quantised to the lane.
    for (part, src) in asset.parts().zip(&x.parts) {
        let prim = &rig.meshes[src.mesh].primitives[src.primitive];
        let want = pose::values::normals::<Q14>(prim, "test").unwrap();
        let got = part.normals().expect("normals");
        for (local, &v) in src.vertices.iter().enumerate() {
            assert_eq!(got.get(local), Some(want[v as usize]));
        }
    }
}

#[test]
fn non_triangle_primitives_are_refused() {
    let rig = rigid_model(true);
    let e = bake::bake(
        &rig,
        &Options {
            budget: None,
            lane: LaneKind::F32,
            clips: None,
            skinning: Skinning::Lbs,
        },
    )
    .unwrap_err();
    assert!(
        matches!(e, BakeError::Topology { primitive: 1, .. }),
        "{e:?}"
    );
    assert!(e.to_string().contains("triangles only"), "{e}");
}

/// 60 meshes × 60 skins of 18 joints over one 60-joint skeleton: the asset holds 61 bones
/// (the joints and their root; skinned mesh nodes are not bones) and 60 joint entries (the
/// skins share them), so even a scene of 64 bones takes it; it skins as the host does.
#[test]
fn many_small_skins_count_joints_not_nodes() {
    let g = skin_tests::gltf_gen::many_skins(60, 18, 60);
    let rig = skin_host::import::from_slice(&g.glb(), None).expect("import");
    assert_eq!(rig.nodes.len(), 121);
    assert_eq!(rig.skins.len(), 60);
    let [f, x] = check(&rig, Some(Budget::VS_1_1), Skinning::Lbs, "many skins");
    for baked in [&f, &x] {
        assert_eq!(baked.bones.len(), 61, "bones");
        assert_eq!(baked.joints, 60, "joint entries");
        assert_eq!(baked.parts.len(), 60, "one part a mesh at vs_1_1");
    }
    let asset = Asset::<Q14>::read(&x.bytes).unwrap();
    assert!(asset.skeleton::<64>().is_ok() && asset.bind_pose::<64>().is_ok());
}

/// `--skinning dqs`: the asset records the method, the budget holds half as many bones again
/// as dual quaternions (2 registers a bone, not 3), so the worms split less; both lanes skin
/// the asset bit for bit as `skin_host::pose` does by DQS.
#[test]
fn dqs_bakes_record_the_method_and_split_by_the_dual_quaternion_layout() {
    let rig = worm(Worm {
        two_skins: true,
        influences: 8,
        weights: UNSIGNED_SHORT,
        scale_channel: false,
        ..Worm::default()
    });
    // 24 registers: 8 bones as 3×4 matrices, 12 as dual quaternions; a skin has 10.
    let budget = Budget::registers("test_24", 24);
    let [lbs, _] = check(&rig, Some(budget), Skinning::Lbs, "lbs worm");
    let [f, x] = check(&rig, Some(budget), Skinning::Dqs, "dqs worm");
    assert!(
        lbs.parts.len() > 2 && lbs.duplicated > 0,
        "{:?}",
        lbs.parts.len()
    );
    assert_eq!((f.parts.len(), f.duplicated), (2, 0), "one part a skin");
    assert_eq!(f.parts, x.parts);
    assert_eq!(
        Asset::<f32>::read(&f.bytes).unwrap().skinning(),
        Skinning::Dqs
    );
    assert_eq!(
        Asset::<Q14>::read(&x.bytes).unwrap().skinning(),
        Skinning::Dqs
    );
    assert_eq!(
        Asset::<f32>::read(&lbs.bytes).unwrap().skinning(),
        Skinning::Lbs
    );
    // The same budget refuses a triangle of more bones than dual quaternions it holds,
    // naming the layout.
    let tri = skin_host::import::from_slice(&twelve_bone_triangle(1.0).glb(), None).unwrap();
    let o = |budget| Options {
        budget: Some(budget),
        lane: LaneKind::F32,
        clips: None,
        skinning: Skinning::Dqs,
    };
    assert!(bake::bake(&tri, &o(Budget::registers("test_24", 24))).is_ok());
    let e = bake::bake(&tri, &o(Budget::registers("test_22", 22))).unwrap_err();
    let msg = e.to_string();
    assert!(
        msg.contains("12 bones") && msg.contains("holds 11 bones as dual quaternions"),
        "{msg}"
    );
}

/// A joint with scale under DQS is split as Kavan et al. do: the worm whose clip stretches
/// a bone bakes in both lanes, its asset marked stretched and played bit for bit as
/// `skin_host::pose` skins it; each bone costs two more registers, so a budget of 24 holds
/// 6 bones a part (12 as plain dual quaternions) and the 10-bone skin splits. A rigid worm
/// is not marked; a mirrored joint is refused, naming the joint and the frame.
#[test]
fn dqs_bakes_of_scaled_joints_are_marked_and_play_as_the_pose() {
    let budget = Budget::registers("test_24", 24);
    let [f, x] = check(
        &worm(Worm::default()),
        Some(budget),
        Skinning::Dqs,
        "scaled worm",
    );
    for bytes in [&f.bytes, &x.bytes] {
        let h = Asset::<f32>::read(bytes)
            .map(|a| (a.skinning(), a.stretched()))
            .or_else(|_| Asset::<Q14>::read(bytes).map(|a| (a.skinning(), a.stretched())))
            .unwrap();
        assert_eq!(h, (Skinning::Dqs, true));
    }
    assert!(f.parts.len() >= 2, "6 bones a part split the 10-bone skin");
    let rigid = worm(Worm {
        scale_channel: false,
        ..Worm::default()
    });
    let [plain, _] = check(&rigid, Some(budget), Skinning::Dqs, "rigid worm");
    assert!(!Asset::<f32>::read(&plain.bytes).unwrap().stretched());
    assert_eq!(plain.parts.len(), 1, "12 dual quaternions hold the skin");
    let mut rig = rigid;
    let node = rig.skins[0].joints[3];
    rig.nodes[node].local.scale = [1.0, -1.0, 1.0];
    for lane in [LaneKind::F32, LaneKind::Fixed] {
        let o = Options {
            budget: None,
            lane,
            clips: None,
            skinning: Skinning::Dqs,
        };
        let msg = bake::bake(&rig, &o).unwrap_err().to_string();
        assert!(
            msg.contains("rest pose")
                && msg.contains(&format!("joint 3 (node {node}"))
                && msg.contains("mirrors"),
            "{msg}"
        );
    }
}

/// A DQS asset skins its rigidly drawn meshes with their node's dual quaternion: within
/// rounding of the node's matrix, which `skin_host::pose` places them by.
#[test]
fn rigid_dqs_parts_follow_their_node() {
    let rig = rigid_model(false);
    let options = Options {
        budget: None,
        lane: LaneKind::F32,
        clips: None,
        skinning: Skinning::Dqs,
    };
    let baked = bake::bake(&rig, &options).unwrap();
    round_trip::<f32>(&rig, &baked, &[0.0, 0.3, 0.5, 1.0], "rigid dqs");
    for t in [0.0f32, 0.5, 1.5] {
        let locals = pose::animate::frame::<f32>(&rig, Some((0, t)), 0).unwrap();
        let weights = pose::morph::weights(&rig, Some((0, t)));
        let want = pose::skin::pose_lane::<f32>(&rig, &locals, &weights, 0, Skinning::Dqs).unwrap();
        let got = skin_asset::<f32>(&baked.bytes, Some((0, t)));
        for (out, src) in got.iter().zip(&baked.parts) {
            let b = want.iter().find(|b| b.node == src.node).unwrap();
            for (o, &v) in out.iter().zip(&src.vertices) {
                for (g, w) in o.iter().zip(b.out[v as usize]) {
                    assert!((g - w).abs() <= 1e-5, "t {t} node {}: {g} vs {w}", src.node);
                }
            }
        }
    }
}

/// The asset player's skin step by the asset's method: a DQS asset played by
/// `skin_core::scene::Scene` with a dual quaternion palette projects every vertex exactly
/// where the DQS mesh API puts it (positions and normals, both lanes), and a palette of the
/// other method is refused with what to do.
#[test]
fn the_scene_plays_a_dqs_asset_as_the_mesh_api_skins_it() {
    let rig = worm(Worm {
        two_skins: true,
        scale_channel: false,
        ..Worm::default()
    });
    for lane in [LaneKind::F32, LaneKind::Fixed] {
        let options = |skinning| Options {
            budget: Some(Budget::VS_1_1),
            lane,
            clips: None,
            skinning,
        };
        let dqs = bake::bake(&rig, &options(Skinning::Dqs)).unwrap();
        let lbs = bake::bake(&rig, &options(Skinning::Lbs)).unwrap();
        match lane {
            LaneKind::F32 => scene_round_trip::<f32>(&dqs.bytes, &lbs.bytes),
            LaneKind::Fixed => scene_round_trip::<Q14>(&dqs.bytes, &lbs.bytes),
        }
    }
}

/// A part's positions, normals and influences.
type PartArrays<L> = (Vec<[L; 3]>, Vec<[L; 3]>, Vec<Influence<L>>);

/// A part's stored positions, normals and influences, copied out for the mesh API.
fn part_arrays<L: AssetLane>(part: &PartView<'_, L>) -> PartArrays<L> {
    let n = part.vertex_range().len();
    let mut p = vec![[L::default(); 3]; n];
    let mut nrm = vec![[L::default(); 3]; n];
    let mut inf = vec![Influence::<L>::rigid(0); n];
    part.positions().copy_to(&mut p);
    part.normals().expect("normals").copy_to(&mut nrm);
    part.influences().copy_to(&mut inf);
    (p, nrm, inf)
}

/// [`the_scene_plays_a_dqs_asset_as_the_mesh_api_skins_it`] in lane `L`.
fn scene_round_trip<L: AssetLane + Project>(dqs: &[u8], lbs: &[u8]) {
    let asset = Asset::<L>::read(dqs).unwrap();
    let mut scene = Scene::<L, 64>::new(asset, 96, 96).unwrap();
    let n = scene.bones();
    let (mut pose, mut world) = (vec![Transform::IDENTITY; n], vec![Affine::IDENTITY; n]);
    let mut dual: Box<DualPalette<L, 64>> = Box::default();
    let mut scratch: Box<Scratch<L, 16>> = Box::default();
    scene
        .frame_rest_pose(&mut pose, &mut world, &mut *dual, &mut *scratch)
        .unwrap();
    let bind = asset.bind_pose::<64>().unwrap();
    let mut seen_moved = false;
    for t in [0.0f32, 0.7, 1.3] {
        scene.pose(t, &mut pose, &mut world, &mut ()).unwrap();
        let mut got = vec![ScreenVertex::default(); scene.vertices()];
        scene
            .project(&world, &mut *dual, &mut *scratch, &mut got, &mut ())
            .unwrap();
        for part in asset.parts() {
            part.dual_palette(&bind, &world, &mut dual).unwrap();
            let r = part.vertex_range();
            let (p, nrm, inf) = part_arrays(&part);
            let mut out = vec![[L::Out::default(); 3]; r.len()];
            let mut out_n = vec![[L::default(); 3]; r.len()];
            SkinnedMesh::<L, 4>::new(&p, &inf)
                .and_then(|m| m.skin_dqs_with_normals(dual.as_slice(), &nrm, &mut out, &mut out_n))
                .unwrap();
            let c = bind.centre();
            for o in &mut out {
                *o = [0, 1, 2].map(|i| L::offset(o[i], c[i]));
            }
            for (i, v) in r.clone().enumerate() {
                let want = ScreenVertex::project::<L>(scene.camera(), &out[i], Some(&out_n[i]), v)
                    .unwrap();
                assert_eq!(got[v], want, "{} t {t} vertex {v}", L::NAME);
                seen_moved |= L::out_to_f32(out[i][0]) != p[i][0].to_f32() + asset.centre()[0];
            }
        }
        // An LBS palette for the DQS asset is refused, and the reverse.
        let mut palette: Box<Palette<L, 64>> = Box::default();
        let e = scene
            .project(&world, &mut *palette, &mut *scratch, &mut got, &mut ())
            .unwrap_err();
        assert_eq!(
            e,
            RasterError::Skinning {
                asset: Skinning::Dqs,
                palette: Skinning::Lbs
            }
        );
        let msg = e.to_string();
        assert!(
            msg.contains("baked for dqs skinning") && msg.contains("skin bake --skinning lbs"),
            "{msg}"
        );
        let other = Scene::<L, 64>::new(Asset::<L>::read(lbs).unwrap(), 96, 96).unwrap();
        let e = other
            .project(&world, &mut *dual, &mut *scratch, &mut got, &mut ())
            .unwrap_err();
        assert!(e.to_string().contains("skin bake --skinning dqs"), "{e}");
    }
    assert!(seen_moved, "the clip moves the worm");
}

/// The asset player's skin step for DQS of joints with scale: the scaled worm's asset
/// (marked stretched) played by `Scene` with a `StretchPalette` projects every vertex
/// exactly where the stretched mesh API puts it (positions and normals, both lanes, at
/// frames where the clip stretches a bone).
#[test]
fn the_scene_plays_a_stretched_dqs_asset_as_the_mesh_api_skins_it() {
    let rig = worm(Worm::default());
    for lane in [LaneKind::F32, LaneKind::Fixed] {
        let options = Options {
            budget: Some(Budget::VS_1_1),
            lane,
            clips: None,
            skinning: Skinning::Dqs,
        };
        let baked = bake::bake(&rig, &options).unwrap();
        match lane {
            LaneKind::F32 => stretched_scene_round_trip::<f32>(&baked.bytes),
            LaneKind::Fixed => stretched_scene_round_trip::<Q14>(&baked.bytes),
        }
    }
}

/// [`the_scene_plays_a_stretched_dqs_asset_as_the_mesh_api_skins_it`] in lane `L`.
fn stretched_scene_round_trip<L: AssetLane + Project>(bytes: &[u8]) {
    let asset = Asset::<L>::read(bytes).unwrap();
    assert!(asset.stretched());
    let mut scene = Scene::<L, 64>::new(asset, 96, 96).unwrap();
    let n = scene.bones();
    let (mut pose, mut world) = (vec![Transform::IDENTITY; n], vec![Affine::IDENTITY; n]);
    let mut palette: Box<StretchPalette<L, 64>> = Box::default();
    let mut scratch: Box<Scratch<L, 16>> = Box::default();
    scene
        .frame_rest_pose(&mut pose, &mut world, &mut *palette, &mut *scratch)
        .unwrap();
    let bind = asset.bind_pose::<64>().unwrap();
    let mut stretched_frames = 0;
    for t in [0.0f32, 0.5, 1.0] {
        scene.pose(t, &mut pose, &mut world, &mut ()).unwrap();
        let mut got = vec![ScreenVertex::default(); scene.vertices()];
        scene
            .project(&world, &mut *palette, &mut *scratch, &mut got, &mut ())
            .unwrap();
        let mut want_palette: Box<StretchPalette<L, 64>> = Box::default();
        for part in asset.parts() {
            part.stretch_palette(&bind, &world, &mut want_palette)
                .unwrap();
            stretched_frames += usize::from(want_palette.stretches().is_some());
            let r = part.vertex_range();
            let (p, nrm, inf) = part_arrays(&part);
            let mut out = vec![[L::Out::default(); 3]; r.len()];
            let mut out_n = vec![[L::default(); 3]; r.len()];
            let (d, s) = (want_palette.duals(), want_palette.stretches());
            SkinnedMesh::<L, 4>::new(&p, &inf)
                .and_then(|m| m.skin_dqs_stretched_with_normals(d, s, &nrm, &mut out, &mut out_n))
                .unwrap();
            for (i, v) in r.clone().enumerate() {
                let want = ScreenVertex::project::<L>(scene.camera(), &out[i], Some(&out_n[i]), v)
                    .unwrap();
                assert_eq!(got[v], want, "{} t {t} vertex {v}", L::NAME);
            }
        }
    }
    assert!(stretched_frames > 0, "the clip stretches a bone");
}
