//! Tangents in the baked asset (`docs/FORMAT.md`, *Tangents*): `skin bake` stores a
//! model's glTF `TANGENT`s, the player (`skin_core::scene::Scene::tangents`, the code the
//! boards run) skins them to exactly the bits `skin pose` prints, in both lanes, by LBS and
//! DQS, split into parts or not; and the reader refuses a tangent it could not skin, by
//! vertex and value.

use skin_core::affine::Affine;
use skin_core::asset::{
    checksum, Asset, AssetError, AssetLane, AssetParts, Field, Part, TangentProblem, FLAG_TANGENTS,
};
use skin_core::budget::Budget;
use skin_core::lane::Q14;
use skin_core::palette::{DualPalette, Palette};
use skin_core::raster::Project;
use skin_core::scene::{PartPalette, Scene, Scratch};
use skin_core::transform::Transform;
use skin_core::vertex::Influence;
use skin_host::bake::{self, Baked, Options};
use skin_host::pose::tangent::tangents;
use skin_host::pose::{LaneKind, Skinning};
use skin_host::rig::Rig;
use skin_tests::gltf_gen::{ring_tangents, Worm};

/// Two skins of 10 rigid joints each over one mesh with a `TANGENT` per vertex.
fn worm() -> Rig {
    let mut g = Worm {
        two_skins: true,
        scale_channel: false,
        ..Worm::default()
    }
    .build();
    ring_tangents(&mut g, 0);
    skin_tests::import_gen(&g).unwrap()
}

/// The played tangents of `baked` at clip 0's time `t`, mapped back to each part's source
/// (node, primitive vertex), as `f32` bits.
fn played<L: AssetLane + Project, P: PartPalette<L> + Default>(
    baked: &Baked,
    t: f32,
) -> Vec<((usize, usize), [u32; 4])> {
    let asset = Asset::<L>::read(&baked.bytes).unwrap();
    let scene = Scene::<L, 32>::new(asset, 64, 64).unwrap();
    let n = scene.bones();
    let (mut pose, mut world) = (vec![Transform::IDENTITY; n], vec![Affine::IDENTITY; n]);
    scene.pose(t, &mut pose, &mut world, &mut ()).unwrap();
    let sources: Vec<(usize, u32)> = baked
        .parts
        .iter()
        .flat_map(|p| p.vertices.iter().map(|&v| (p.node, v)))
        .collect();
    let mut out = Vec::new();
    scene
        .tangents::<P, 16>(&world, &mut P::default(), false, |first, ts| {
            for (i, t) in ts.iter().enumerate() {
                let (node, v) = sources[first + i];
                out.push(((node, v as usize), t.map(|c| L::to_f32(c).to_bits())));
            }
        })
        .unwrap();
    assert_eq!(out.len(), sources.len(), "every stored vertex played");
    // As the frame loop plays them: after the skin step, whose palette (the last part's) the
    // tangent step keeps: the same chunks, bit for bit.
    let chunks = |palette: &mut P, kept: bool| {
        let mut chunks = Vec::new();
        scene
            .tangents::<P, 16>(&world, palette, kept, |first, ts| {
                let bits = |t: &[L; 4]| t.map(|c| L::to_f32(c).to_bits());
                chunks.push((first, ts.iter().map(bits).collect::<Vec<_>>()))
            })
            .unwrap();
        chunks
    };
    let fresh = chunks(&mut P::default(), false);
    let mut palette = P::default();
    let mut scratch = Box::new(Scratch::<L, 16>::default());
    scene
        .skinned(&world, &mut palette, &mut scratch, |_, _, _| {})
        .unwrap();
    assert_eq!(
        chunks(&mut palette, true),
        fresh,
        "the skin step's palette kept"
    );
    out
}

/// `skin pose`'s tangents of `rig` at clip 0's time `t`, by (node, vertex), as bits.
fn posed(rig: &Rig, t: f32, lane: LaneKind, skinning: Skinning) -> Vec<((usize, usize), [u32; 4])> {
    let mut out = Vec::new();
    for p in tangents(rig, Some((0, t)), lane, skinning).unwrap() {
        for (v, t) in p.tangents.iter().enumerate() {
            out.push(((p.node, v), t.map(f32::to_bits)));
        }
    }
    out
}

fn check<L: AssetLane + Project, P: PartPalette<L> + Default>(
    rig: &Rig,
    lane: LaneKind,
    skinning: Skinning,
    budget: Option<Budget>,
) {
    let baked = bake::bake(
        rig,
        &Options {
            budget,
            skinning,
            lane,
            clips: None,
        },
    )
    .unwrap();
    let vertices: usize = baked.parts.iter().map(|p| p.vertices.len()).sum();
    assert_eq!(baked.tangent_bytes, vertices * 4 * L::VALUE_BYTES);
    if budget.is_some() {
        assert!(baked.duplicated > 0, "{lane:?} {skinning:?}: split");
    }
    let start = played::<L, P>(&baked, 0.0);
    for t in [0.0f32, 0.3, 0.9, 1.6] {
        let want = posed(rig, t, lane, skinning);
        let got = played::<L, P>(&baked, t);
        for (source, got) in &got {
            let w = want.iter().find(|(s, _)| s == source).unwrap().1;
            assert_eq!(*got, w, "{lane:?} {skinning:?} {budget:?} t={t} {source:?}");
        }
        let moved = got.iter().zip(&start).filter(|(a, b)| a != b).count();
        assert!(t == 0.0 || moved > 0, "the clip turns the tangents");
    }
}

#[test]
fn played_tangents_are_skin_poses_bit_for_bit_in_each_lane_and_method() {
    let rig = worm();
    let small = Some(Budget::registers("eighteen", 18));
    for budget in [None, small] {
        check::<f32, Palette<f32, 64>>(&rig, LaneKind::F32, Skinning::Lbs, budget);
        check::<Q14, Palette<Q14, 64>>(&rig, LaneKind::Fixed, Skinning::Lbs, budget);
        check::<f32, DualPalette<f32, 64>>(&rig, LaneKind::F32, Skinning::Dqs, budget);
        check::<Q14, DualPalette<Q14, 64>>(&rig, LaneKind::Fixed, Skinning::Dqs, budget);
    }
}

/// `rig` baked in the fixed lane for LBS, one part.
fn fixed_lbs(rig: &Rig) -> Baked {
    let options = Options {
        budget: None,
        skinning: Skinning::Lbs,
        lane: LaneKind::Fixed,
        clips: None,
    };
    bake::bake(rig, &options).unwrap()
}

#[test]
fn a_model_without_tangents_stores_none() {
    let rig = skin_tests::import_gen(&Worm::default().build()).unwrap();
    let baked = fixed_lbs(&rig);
    assert_eq!(baked.tangent_bytes, 0);
    let asset = Asset::<Q14>::read(&baked.bytes).unwrap();
    assert!(asset.tangents().is_none());
    let with = fixed_lbs(&worm());
    let flags = u16::from_le_bytes([with.bytes[6], with.bytes[7]]);
    assert_ne!(flags & FLAG_TANGENTS, 0);
}

/// One triangle of one bone with `tangents`, in lane `L`.
fn triangle<L: AssetLane>(tangents: &[[L; 4]], out: &mut [u8]) -> Result<usize, AssetError> {
    let positions = [[0.0, 0.0, 0.0], [0.5, 0.0, 0.0], [0.0, 0.5, 0.0]]
        .map(|p: [f32; 3]| p.map(|c| L::from_f32(c).unwrap()));
    AssetParts::<L> {
        unit_exponent: 0,
        parents: &[None],
        rest: &[Transform::IDENTITY],
        root: Affine::IDENTITY,
        joints: &[0],
        inverse_binds: &[Affine::IDENTITY],
        positions: &positions,
        normals: None,
        tangents: Some(tangents),
        influences: &[Influence::rigid(0); 3],
        indices: &[0, 1, 2],
        parts: &[Part {
            vertices: 3,
            indices: 3,
            bones: &[0],
        }],
        clips: &[],
        skinning: skin_core::skin::Skinning::Lbs,
        centre: [0.0; 3],
    }
    .write(out)
}

/// The reader's verdict on the triangle's bytes with vertex 2's tangent replaced by `bad`
/// (written over a good one and resealed, as a damaged file would be).
fn read_with<L: AssetLane>(bad: [f32; 4]) -> Result<(), AssetError> {
    let good = [[0.0, 0.6, 0.8, 1.0].map(|c| L::from_f32(c).unwrap()); 3];
    let mut bytes = vec![0u8; 1024];
    let n = triangle::<L>(&good, &mut bytes).unwrap();
    bytes.truncate(n);
    let asset = Asset::<L>::read(&bytes).unwrap();
    assert_eq!(asset.tangents().unwrap().len(), 3);
    // The tangent section follows the normals (none here) after the positions: find vertex
    // 2's record by its value.
    let mut record = Vec::new();
    for c in good[2] {
        let mut b = vec![0u8; L::VALUE_BYTES];
        c.put(&mut b);
        record.extend(b);
    }
    let at = bytes
        .windows(record.len())
        .rposition(|w| w == record)
        .unwrap();
    for (k, &c) in bad.iter().enumerate() {
        let slot = &mut bytes[at + L::VALUE_BYTES * k..][..L::VALUE_BYTES];
        match L::VALUE_BYTES {
            // The f32 lane stores the bits as they are (NaN included).
            4 => slot.copy_from_slice(&c.to_le_bytes()),
            _ => L::from_f32(c).unwrap().put(slot),
        }
    }
    let crc = checksum(&bytes);
    bytes[48..52].copy_from_slice(&crc.to_le_bytes());
    Asset::<L>::read(&bytes).map(|_| ())
}

#[test]
fn tangents_the_player_could_not_skin_are_refused_by_vertex_and_value() {
    let refused = |e: Result<(), AssetError>, value: [f32; 4], problem| {
        let e = e.unwrap_err();
        assert_eq!(
            e,
            AssetError::Tangent {
                vertex: 2,
                value,
                problem
            }
        );
        let text = e.to_string();
        assert!(text.starts_with("tangent of vertex 2 is ["), "{text}");
        assert!(!text.contains('\n'));
    };
    let zero = [0.0, 0.0, 0.0, 1.0];
    let long = [0.0, 1.25, 0.0, -1.0];
    let half = [0.0, 1.0, 0.0, 0.5];
    let nan = [f32::NAN, 0.6, 0.8, 1.0];
    refused(read_with::<Q14>(zero), zero, TangentProblem::Length);
    refused(read_with::<Q14>(long), long, TangentProblem::Length);
    refused(read_with::<Q14>(half), half, TangentProblem::Handedness);
    refused(read_with::<f32>(zero), zero, TangentProblem::Length);
    refused(read_with::<f32>(half), half, TangentProblem::Handedness);
    let e = read_with::<f32>(nan).unwrap_err();
    assert!(
        matches!(e, AssetError::Tangent { vertex: 2, value, problem: TangentProblem::NotFinite } if value[0].is_nan()),
        "{e:?}"
    );
    // Just inside the tolerance reads; the writer checks as the reader does.
    read_with::<Q14>([0.0, 1.0 + 1.0 / 128.0, 0.0, -1.0]).unwrap();
    let mut buf = vec![0u8; 1024];
    let e = triangle::<f32>(&[[0.0, 0.0, 0.0, 1.0]; 3], &mut buf).unwrap_err();
    assert!(matches!(
        e,
        AssetError::Tangent {
            vertex: 0,
            problem: TangentProblem::Length,
            ..
        }
    ));
    // Wrong counts: the writer names the tangents and both counts.
    let e = triangle::<f32>(&[[1.0, 0.0, 0.0, 1.0]; 2], &mut buf).unwrap_err();
    assert_eq!(
        e,
        AssetError::Mismatch {
            what: Field::Tangents,
            expected: 3,
            actual: 2
        }
    );
    assert_eq!(e.to_string(), "tangents: expected 3, found 2");
}

#[test]
fn skin_bake_reports_the_tangents_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let mut g = Worm::default().build();
    ring_tangents(&mut g, 0);
    let model = dir.path().join("worm.glb");
    std::fs::write(&model, g.glb()).unwrap();
    let asset = dir.path().join("worm.skin");
    let (m, a) = (model.to_str().unwrap(), asset.to_str().unwrap());
    let out = skin_tests::skin_cli(&["bake", m, "-o", a, "--arith", "fixed"]).unwrap();
    let vertices = 3 * (2 * Worm::default().bones + 1);
    let bytes = format!(", {} bytes of tangents", vertices * 8);
    assert!(out.contains(&bytes), "{out}");
    let checked = skin_tests::skin_cli(&["check", a, "--frames", "2"]).unwrap();
    assert!(checked.contains(": ok:"), "{checked}");
}
