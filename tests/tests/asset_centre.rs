//! The asset's centre (`docs/FORMAT.md`, *Centre*): a model modelled and posed far from its
//! origin bakes in the fixed lane with a centre and a unit as fine as its own size, and the
//! player — `skin_core::scene`, the code the boards run — skins it about that centre and adds
//! it back, within 2.5e-4 of the model's extent of the `f64` oracle at every frame checked;
//! a centre the player could not add back exactly is refused by name, when written and when
//! read.

mod asset_fixture;

use skin_core::affine::Affine;
use skin_core::asset::{checksum, Asset, AssetError, Field, CENTRE_STEP, MAX_CENTRE};
use skin_core::lane::{Lane, Q14};
use skin_core::palette::Palette;
use skin_core::scene::{Scene, Scratch};
use skin_core::transform::Transform;
use skin_host::bake::{self, Options};
use skin_host::oracle;
use skin_host::pose::{asset_unit, LaneKind, Skinning};
use skin_host::rig::Rig;

/// The Mixamo-style character `x` metres along X from its origin.
fn character(x: f32) -> Rig {
    let rig =
        skin_host::import::from_slice(&skin_tests::mixamo::character(1.0).glb(), None).unwrap();
    skin_tests::rescale::shifted(&rig, [x, 0.0, 0.0])
}

#[test]
fn a_character_far_from_its_origin_plays_about_its_centre_within_the_goal() {
    let rig = character(5.0);
    let baked = bake::bake(
        &rig,
        &Options {
            budget: None,
            skinning: Skinning::Lbs,
            lane: LaneKind::Fixed,
            clips: None,
        },
    )
    .unwrap();
    let asset = Asset::<Q14>::read(&baked.bytes).unwrap();
    // The unit is the size's (1 m: the character spans ±0.9 m about its centre), not the
    // distance's (8 m without a centre), and the centre is the box's, in asset units.
    assert_eq!(baked.unit_exponent, 0);
    assert_eq!(asset_unit(&rig), 0);
    let c = asset.centre();
    assert!(
        (c[0] - 5.0).abs() < 0.01 && (c[1] - 0.9).abs() < 0.05,
        "{c:?}"
    );
    assert!(c.iter().all(|v| (v / CENTRE_STEP).fract() == 0.0));

    let extent = oracle::extent(&oracle::pose(&rig, None).unwrap());
    let scene = Scene::<Q14, 128>::new(asset, 64, 64).unwrap();
    let n = scene.bones();
    let (mut pose, mut world) = (vec![Transform::IDENTITY; n], vec![Affine::IDENTITY; n]);
    let mut palette: Box<Palette<Q14, 256>> = Box::default();
    let mut scratch: Box<Scratch<Q14, 64>> = Box::default();
    let mut worst = 0.0f64;
    for t in [0.0f32, 0.2, 0.45, 0.7, 0.95] {
        let want = oracle::pose(&rig, Some((0, f64::from(t)))).unwrap();
        scene.pose(t, &mut pose, &mut world, &mut ()).unwrap();
        scene
            .skinned(&world, &mut *palette, &mut *scratch, |first, out, _| {
                for (i, o) in out.iter().enumerate() {
                    let (part, local) = part_of(&baked.parts, first + i);
                    let src = &baked.parts[part];
                    let w = &want.iter().find(|b| b.node == src.node).unwrap().positions;
                    let r = w[src.vertices[local] as usize];
                    for a in 0..3 {
                        let e = (f64::from(Q14::out_to_f32(o[a])) - r[a]).abs();
                        worst = worst.max(e / extent);
                    }
                }
            })
            .unwrap();
    }
    println!("5 m off the origin, played by the scene: {worst:.2e} of the extent");
    assert!(worst <= 2.5e-4, "{worst:e} of the extent");
}

/// The part holding asset vertex `v`, and `v`'s index within it.
fn part_of(parts: &[bake::PartSource], mut v: usize) -> (usize, usize) {
    for (i, p) in parts.iter().enumerate() {
        if v < p.vertices.len() {
            return (i, v);
        }
        v -= p.vertices.len();
    }
    panic!("vertex beyond the parts");
}

#[test]
fn a_model_centred_on_its_origin_and_the_f32_lane_store_no_centre() {
    let bake = |rig: &Rig, lane| {
        let options = Options {
            budget: None,
            skinning: Skinning::Lbs,
            lane,
            clips: None,
        };
        bake::bake(rig, &options).unwrap().bytes
    };
    // The character moved so that its box's centre is the origin: centring would not
    // lower its unit, so the asset has no centre section (and plays as before).
    let rig = character(0.0);
    let ys = rig.meshes[0].primitives[0].positions.iter().map(|p| p[1]);
    let (lo, hi) = ys.fold((f32::INFINITY, f32::NEG_INFINITY), |(l, h), y| {
        (l.min(y), h.max(y))
    });
    let centred = skin_tests::rescale::shifted(&rig, [0.0, -(lo + hi) / 2.0, 0.0]);
    let fixed = bake(&centred, LaneKind::Fixed);
    assert_eq!(Asset::<Q14>::read(&fixed).unwrap().centre(), [0.0; 3]);
    // Standing on the ground it has one (half the unit), and the f32 lane never does.
    assert_ne!(
        Asset::<Q14>::read(&bake(&rig, LaneKind::Fixed))
            .unwrap()
            .centre(),
        [0.0; 3]
    );
    let far = character(5.0);
    assert_eq!(
        Asset::<f32>::read(&bake(&far, LaneKind::F32))
            .unwrap()
            .centre(),
        [0.0; 3]
    );
}

#[test]
fn a_centre_the_player_cannot_add_back_exactly_is_refused() {
    let f = asset_fixture::fixture::<f32>();
    let chans = asset_fixture::channels(&f);
    let (mut p, mut c) = (Vec::new(), Vec::new());
    let parts = asset_fixture::parts(&f, &chans, &mut p, &mut c);
    for (centre, axis) in [
        ([0.0, 1e-7, 0.0], 1),
        ([MAX_CENTRE + 1.0, 0.0, 0.0], 0),
        ([0.0, 0.0, f32::NAN], 2),
    ] {
        let bad = skin_core::asset::AssetParts { centre, ..parts };
        let e = bad.write(&mut vec![0u8; 1 << 16]).unwrap_err();
        assert_eq!(
            e,
            AssetError::Invalid {
                what: Field::Centre,
                index: axis
            }
        );
        assert!(e.to_string().contains("centre"), "{e}");
    }
    // Written with a centre, read back with it; patched off the grid (and resealed), refused.
    let good = skin_core::asset::AssetParts {
        centre: [0.5, -1.25, 3.0],
        ..parts
    };
    let mut bytes = vec![0u8; good.size().unwrap()];
    good.write(&mut bytes).unwrap();
    assert_eq!(
        Asset::<f32>::read(&bytes).unwrap().centre(),
        [0.5, -1.25, 3.0]
    );
    let at = bytes.len() - 8;
    bytes[at..at + 4].copy_from_slice(&(-1.25f32 + 1e-6).to_le_bytes());
    let crc = checksum(&bytes);
    bytes[48..52].copy_from_slice(&crc.to_le_bytes());
    assert_eq!(
        Asset::<f32>::read(&bytes).unwrap_err(),
        AssetError::Invalid {
            what: Field::Centre,
            index: 1
        }
    );
}
