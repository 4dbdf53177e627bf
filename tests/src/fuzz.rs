//! The entry points of the fuzz targets (`fuzz/`, cargo-fuzz) and of the deterministic
//! smoke test (`tests/tests/fuzz_smoke.rs`): each takes arbitrary bytes, sends them through
//! every path that reads them, and panics when an invariant breaks — the fuzzer and the
//! test both report a panic:
//!
//! - nothing panics (a panic inside any path propagates);
//! - a success never carries a non-finite number;
//! - every path agrees on the verdict: an asset reads the same at any alignment and the
//!   same in the host's and the firmware's capacities (when it fits both); a model that
//!   `inspect` says fits fixed point poses and bakes in it, and one it says does not is
//!   refused by both; what bakes reads back and plays.
//!
//! A hang is caught by the caller: the smoke test times each input, libFuzzer has
//! `-timeout`.

use skin_core::affine::Affine;
use skin_core::asset::{Asset, AssetLane};
use skin_core::clip::{Keys, Wrap};
use skin_core::lane::Q14;
use skin_core::palette::{DualPalette, Palette};
use skin_core::raster::Project;
use skin_core::scene::{PartPalette, Scene, Scratch};
use skin_core::skin::Skinning;
use skin_core::transform::Transform;
use skin_host::bake::{self, Options};
use skin_host::pose::{self, LaneKind};
use skin_host::render::Cpu;
use skin_host::{import, inspect, Rig};

use crate::gltf_gen;

/// What the paths made of an input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Read (and, for a model, posed at rest in `f32`).
    Accepted,
    /// Refused with a typed error.
    Refused,
}

/// The firmware's bone capacity (the Raspberry Pi Pico's build).
const FIRMWARE_BONES: usize = 64;

/// A baked asset's bytes: read in both lanes, at the start of a buffer and one byte in
/// (flash gives no alignment promise), and whatever reads is touched through every view,
/// sampled, skinned and played in the firmware's capacities and the host's.
pub fn asset(bytes: &[u8]) -> Verdict {
    let f32s = asset_in::<f32>(bytes);
    let fixed = asset_in::<Q14>(bytes);
    assert!(!(f32s && fixed), "an asset reads in both lanes");
    let verdict = if f32s || fixed {
        Verdict::Accepted
    } else {
        Verdict::Refused
    };
    // The host's player (`skin check`): the same verdict on reading; playing may refuse
    // what reads (a camera that cannot frame it), never the other way round.
    match Cpu::from_asset(bytes.to_vec()) {
        Ok(cpu) => {
            assert_eq!(
                verdict,
                Verdict::Accepted,
                "skin check read what the core refused"
            );
            let _ = cpu.play_all(2, (32, 24));
        }
        Err(skin_host::render::RenderError::Asset(_)) => {
            assert_eq!(
                verdict,
                Verdict::Refused,
                "skin check refused what the core read"
            )
        }
        Err(e) => panic!("skin check failed on reading: {e}"),
    }
    verdict
}

/// Read `bytes` in lane `L` aligned and shifted by one byte (the same result), and when it
/// reads, touch everything it offers; whether it read.
fn asset_in<L: AssetLane + Project>(bytes: &[u8]) -> bool {
    let mut shifted = vec![0u8; bytes.len() + 1];
    shifted[1..].copy_from_slice(bytes);
    let aligned = Asset::<L>::read(bytes);
    let unaligned = Asset::<L>::read(&shifted[1..]);
    assert_eq!(
        aligned.as_ref().err(),
        unaligned.as_ref().err(),
        "alignment changed the verdict"
    );
    let Ok(a) = aligned else { return false };
    touch(&a);
    play::<L, FIRMWARE_BONES>(&a);
    true
}

/// Use every view of an asset that read: vertices, skeleton, bind pose, every clip
/// sampled inside and outside its range, every part's palette and data.
pub fn touch<L: AssetLane>(a: &Asset<'_, L>) {
    let _ = (
        a.positions().iter().count(),
        a.influences().iter().count(),
        a.indices().iter().count(),
    );
    let _ = a.normals().map(|n| n.iter().count());
    let bones = a.bones();
    let mut pose = vec![Transform::<L::Real>::IDENTITY; bones];
    let mut world = vec![Affine::<L::Real>::IDENTITY; bones];
    if let (Ok(skel), Ok(bind)) = (a.skeleton::<64>(), a.bind_pose::<64>()) {
        pose.copy_from_slice(skel.rest());
        for clip in a.clips() {
            for c in clip.channels() {
                let _ = (0..c.times.len()).map(|i| c.times.at(i)).sum::<f32>();
            }
            let _ = clip.sample(0.3, Wrap::Loop, &mut pose);
            let _ = clip.sample(-7.0, Wrap::Clamp, &mut pose);
        }
        if skel.world(&pose, &mut world).is_ok() {
            for part in a.parts() {
                let mut pal: Palette<L, 256> = Palette::new();
                let _ = part.palette(&bind, &world, &mut pal);
                let _ = (
                    part.positions().iter().count(),
                    part.influences().iter().count(),
                );
                let _ = (part.indices().iter().count(), part.bones().iter().count());
            }
        }
    }
}

/// Play `a` as the firmware does with `B` bones: a scene, its camera on the skinned rest
/// pose, a frame posed and projected, with the palette of the asset's skinning method;
/// every projected vertex on success.
fn play<L: AssetLane + Project, const B: usize>(a: &Asset<'_, L>) {
    match a.skinning() {
        Skinning::Lbs => play_with::<L, B>(a, &mut *Box::<Palette<L, 256>>::default()),
        Skinning::Dqs => play_with::<L, B>(a, &mut *Box::<DualPalette<L, 256>>::default()),
    }
}

/// [`play`] with `palette`.
fn play_with<L: AssetLane + Project, const B: usize>(
    a: &Asset<'_, L>,
    palette: &mut impl PartPalette<L>,
) {
    let Ok(mut scene) = Scene::<L, B>::new(*a, 240, 240) else {
        return;
    };
    let n = scene.bones();
    let mut pose = vec![Transform::<L::Real>::IDENTITY; n];
    let mut world = vec![Affine::<L::Real>::IDENTITY; n];
    let mut scratch: Box<Scratch<L, 16>> = Box::default();
    if scene
        .frame_rest_pose(&mut pose, &mut world, palette, &mut scratch)
        .is_err()
    {
        return;
    }
    let t = scene.frame_time(1, 3);
    if scene.pose(t, &mut pose, &mut world, &mut ()).is_err() {
        return;
    }
    let mut vertices = vec![Default::default(); scene.vertices()];
    let _ = scene.project(&world, palette, &mut scratch, &mut vertices, &mut ());
}

/// glTF bytes (`.glb` or `.gltf`): imported; what imports is posed in both lanes at rest
/// and at key times, checked for fixed point, and baked in both lanes, the assets read
/// back and played ([`asset`]).
pub fn gltf(bytes: &[u8]) -> Verdict {
    match import::from_slice(bytes, None) {
        Ok(rig) => {
            model(&rig);
            Verdict::Accepted
        }
        Err(e) => {
            let line = e.to_string();
            assert!(
                !line.is_empty() && !line.contains('\n'),
                "not one line: {line:?}"
            );
            Verdict::Refused
        }
    }
}

/// Every path over an imported rig (see [`gltf`]).
pub fn model(rig: &Rig) {
    let finite = |posed: &[pose::PosedPrimitive], what: &str| {
        for p in posed {
            assert!(
                p.positions.iter().flatten().all(|c| c.is_finite()),
                "{what}: a non-finite position with success"
            );
        }
    };
    if let Ok(p) = pose::pose(rig, None, LaneKind::F32) {
        finite(&p, "pose f32");
    }
    let fits = inspect::fixed_fits(rig);
    let fixed = pose::pose(rig, None, LaneKind::Fixed);
    match (&fits, &fixed) {
        (Ok(_), Ok(p)) => finite(p, "pose fixed"),
        (Ok(_), Err(e)) => panic!("inspect says fixed holds, pose fixed refuses: {e}"),
        (Err(f), Ok(_)) if f.contains("rest pose") => {
            panic!("inspect says the rest pose does not fit ({f}), pose fixed succeeds")
        }
        _ => {}
    }
    // At the first and last key time of each clip (checked by `fixed_fits`), both lanes.
    for (c, clip) in rig.clips.iter().enumerate().take(3) {
        let times = clip.channels.iter().flat_map(|ch| {
            [ch.times.first().copied(), ch.times.last().copied()]
                .into_iter()
                .flatten()
        });
        for t in times.take(4).chain([-1.0, 1e6]) {
            if let Ok(p) = pose::pose(rig, Some((c, t)), LaneKind::F32) {
                finite(&p, "pose f32 of a clip");
            }
            match pose::pose(rig, Some((c, t)), LaneKind::Fixed) {
                Ok(p) => finite(&p, "pose fixed of a clip"),
                Err(e) if fits.is_ok() && (t == -1.0 || t == 1e6) => {
                    panic!("inspect says fixed holds, pose fixed of clip {c} at {t} s refuses: {e}")
                }
                Err(_) => {}
            }
        }
    }
    for lane in [LaneKind::F32, LaneKind::Fixed] {
        let options = Options {
            budget: None,
            lane,
            clips: None,
            skinning: Skinning::Lbs,
        };
        match bake::bake(rig, &options) {
            Ok(baked) => {
                if lane == LaneKind::Fixed {
                    assert!(
                        fits.is_ok(),
                        "bake fixed succeeds, inspect says it does not fit"
                    );
                }
                assert_eq!(
                    asset(&baked.bytes),
                    Verdict::Accepted,
                    "a baked asset is refused"
                );
            }
            Err(bake::BakeError::Pose(e)) if lane == LaneKind::Fixed && fits.is_ok() => {
                panic!("inspect says fixed holds, bake fixed refuses: {e}")
            }
            Err(_) => {}
        }
    }
}

/// The pose pipeline under hostile numbers in a well-formed model: `data` read as `f32`s
/// gives [`gltf_gen::keyed_triangle`] its scale, key times and values, a rest translation
/// and the animated property; the model goes through [`gltf`].
pub fn numbers(data: &[u8]) -> Verdict {
    let mut words = data
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]));
    let mut next = || words.next().unwrap_or(0.0);
    let path = match data.first().map_or(0, |b| b % 3) {
        0 => "translation",
        1 => "rotation",
        _ => "scale",
    };
    let width = if path == "rotation" { 4 } else { 3 };
    let scale = next();
    let rest = [next(), next(), next()];
    let keys = (data.len() / 64).clamp(1, 8);
    let mut t = 0.0f32;
    let times: Vec<f32> = (0..keys)
        .map(|_| {
            t += next().abs();
            t
        })
        .collect();
    let values: Vec<f32> = (0..keys * width).map(|_| next()).collect();
    let mut g = gltf_gen::keyed_triangle(scale, &times, path, &values);
    // JSON has no NaN or infinity: such a number becomes null, which the parser refuses.
    g.json["nodes"][1]["translation"] = serde_json::json!(rest);
    gltf(&g.glb())
}
