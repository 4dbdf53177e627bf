//! The frame loop on Cortex-M under QEMU, proven against the host: for each board, lane and
//! model, `scripts/firmware.sh run` bakes the model, builds the firmware around it, runs it
//! with semihosting and `-icount shift=0`, and collects the frames it writes to host files;
//! every frame must equal, bit for bit, skin-core's `Scene` rendering the same asset at the
//! same time (the f32 time the firmware logs) on this host, in the same lane. The firmware's
//! log must describe the asset it embeds (size, checksum, counts), count instructions for
//! every stage, and report RAM within the board's. It must also embed the asset 4-byte
//! aligned and skin every part by the fastest route its core has (`PART` lines; see
//! [`fast_route`]): a silent fallback to a slower loop, or to copying vertices the kernel
//! could read in place, fails the test.
//!
//! Models: the procedural character (`skin character`) everywhere; with `../shared/models`,
//! RiggedFigure and CesiumMan as Cortex-M0 code, on the M3 and on the M4F (in `f32` also
//! with the `vmla` kernels); a generated character of four 43-joint skins over 69 joints
//! (70 bones) as Cortex-M0 code and on the M4F in the fixed lane. Cortex-M0 code for models beyond the micro:bit's 16 KiB of RAM
//! runs on the mps2-an385 (`mps2-an385-m0`: thumbv6m code on the M3, which executes it
//! unchanged).
//!
//! Needs Debian's rustc with library source, ld.lld-16, qemu-system-arm and defmt-print
//! (scripts/setup.sh); without them each test reports SKIPPED (a failure under
//! SKIN_REQUIRE_ALL=1).

use std::path::PathBuf;

use embedded_graphics_core::pixelcolor::raw::{RawU16, ToBytes};
use embedded_graphics_core::pixelcolor::{Rgb565, RgbColor};
use skin_core::affine::Affine;
use skin_core::asset::{self, Asset, AssetLane};
use skin_core::budget::{Budget, Layout};
use skin_core::lane::Q14;
use skin_core::palette::{DualPalette, Palette};
use skin_core::raster::{FrameBuffer, Project, ScreenVertex};
use skin_core::scene::{PartPalette, Scene, Scratch, BACKGROUND};
use skin_core::skin::Skinning;
use skin_core::transform::Transform;
use skin_tests::firmware::{field, lines, missing_tools, script};

/// Frames the firmware renders per run (`FRAMES` in firmware/src/main.rs).
const FRAMES: u32 = 4;
/// The firmware's display.
const WIDTH: u16 = 240;
/// The firmware's display.
const HEIGHT: u16 = 240;
/// Bones the Pico and MPS2 builds pose at most (`bones` in firmware/build.rs).
const BONES: usize = 128;

/// A model to run: the character, a sample model, or the generated character of four
/// 43-joint skins over one 69-joint skeleton (70 bones, beyond the 64 the boards held) with
/// a rigid prop on an animated joint.
#[derive(Clone, Copy, Debug)]
enum Model {
    Character,
    Sample(&'static str),
    FourSkins69Joints,
}

/// What a run left behind.
struct Run {
    log: String,
    asset: Vec<u8>,
    frames: Vec<Vec<u8>>,
    _dir: tempfile::TempDir,
}

/// The sample model `name`, or a skip when the models are not there.
fn sample(test: &str, name: &str) -> Option<PathBuf> {
    let Some(dir) = skin_tests::models_dir() else {
        skin_tests::skip(test, "../shared/models is not present (set SKIN_MODELS)");
        return None;
    };
    let path = dir.join(name);
    if path.is_file() {
        return Some(path);
    }
    skin_tests::skip(test, &format!("{} is not present", path.display()));
    None
}

/// Runs `board` in `lane` on `model` with the script's `options` (`--vmla`); `None` when
/// the model is not there (skipped).
fn run(test: &str, board: &str, lane: &str, options: &[&str], model: Model) -> Option<Run> {
    let dir = tempfile::tempdir().expect("temporary folder");
    let out = dir
        .path()
        .to_str()
        .expect("UTF-8 temporary path")
        .to_owned();
    let mut args = vec!["run", board, lane, "--out", &out];
    args.extend(options);
    let path;
    match model {
        Model::Sample(name) => path = sample(test, name)?,
        Model::FourSkins69Joints => {
            path = dir.path().join("four-skins.glb");
            let mut g = skin_tests::gltf_gen::many_skins(4, 43, 69);
            // A rigid prop on joint 3 (node 4), which the clip turns.
            skin_tests::gltf_gen::rigid_prop(&mut g, 4);
            let glb = g.glb();
            std::fs::write(&path, glb).expect("write the generated model");
        }
        Model::Character => path = PathBuf::new(),
    }
    if !matches!(model, Model::Character) {
        args.extend(["--model", path.to_str().expect("UTF-8 model path")]);
    }
    let o = script(&args);
    let log = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(
        o.status.success(),
        "{board}/{lane}{options:?}/{model:?}: the firmware failed ({}):\n{log}\n{}",
        o.status,
        String::from_utf8_lossy(&o.stderr)
    );
    let asset = std::fs::read(dir.path().join("asset.bin")).expect("the embedded asset");
    let frames = (0..FRAMES)
        .map(|k| {
            let f = dir.path().join(format!("frame-{k:03}.rgb565"));
            std::fs::read(&f).unwrap_or_else(|e| panic!("{}: {e}\n{log}", f.display()))
        })
        .collect();
    Some(Run {
        log,
        asset,
        frames,
        _dir: dir,
    })
}

/// The host's frame of `asset` at each time in `times`: skin-core's `Scene`, framed at the
/// skinned rest pose as the firmware frames it, drawn in one band the height of the frame
/// (the firmware's bands are thinner; the picture does not depend on them), as RGB565 LE;
/// with the palette of the asset's skinning method, as large as the firmware's.
fn host_frames<L: AssetLane + Project>(asset: &[u8], times: &[f32]) -> Vec<Vec<u8>> {
    let asset = Asset::<L>::read(asset).expect("the embedded asset reads on the host");
    match asset.skinning() {
        Skinning::Lbs => {
            const PALETTE: usize = Budget::VS_1_1.capacity(Layout::Affine3x4);
            host_frames_with(asset, times, &mut *Box::new(Palette::<L, PALETTE>::new()))
        }
        Skinning::Dqs => {
            const PALETTE: usize = Budget::VS_1_1.capacity(Layout::DualQuat);
            host_frames_with(
                asset,
                times,
                &mut *Box::new(DualPalette::<L, PALETTE>::new()),
            )
        }
    }
}

/// [`host_frames`] with `palette`.
fn host_frames_with<L: AssetLane + Project>(
    asset: Asset<'_, L>,
    times: &[f32],
    palette: &mut impl PartPalette<L>,
) -> Vec<Vec<u8>> {
    let mut pose = vec![Transform::IDENTITY; BONES];
    let mut world = vec![Affine::IDENTITY; BONES];
    let mut scratch = Box::new(Scratch::<L, 64>::default());
    let mut scene = Scene::<L, BONES>::new(asset, WIDTH, HEIGHT).expect("a scene");
    scene
        .frame_rest_pose(&mut pose, &mut world, palette, &mut scratch)
        .expect("the rest pose frames");
    let mut vertices = vec![ScreenVertex::default(); scene.vertices()];
    let pixels = usize::from(WIDTH) * usize::from(HEIGHT);
    let (mut colour, mut depth) = (vec![Rgb565::BLACK; pixels], vec![0u16; pixels]);
    times
        .iter()
        .map(|&t| {
            scene.pose(t, &mut pose, &mut world, &mut ()).expect("pose");
            scene
                .project(&world, palette, &mut scratch, &mut vertices, &mut ())
                .expect("project");
            let mut px = vec![Rgb565::BLACK; pixels];
            let mut frame = FrameBuffer::new(&mut px, WIDTH, HEIGHT).expect("frame");
            scene
                .render(&vertices, &mut frame, &mut colour, &mut depth, &mut ())
                .expect("render");
            px.iter()
                .flat_map(|c| RawU16::from(*c).to_le_bytes())
                .collect()
        })
        .collect()
}

/// The route every part of an aligned asset must take on `target` in `lane` (the baker's
/// `vs_1_1` budget keeps palettes within every kernel's): the loop, and whether the
/// vertices are read in place. ARMv6-M and ARMv7E-M have fixed-lane assembly kernels that
/// read the asset's records where they are stored (2-byte aligned); the Cortex-M4F's `f32`
/// kernel reads 4-byte aligned copies (the asset's `f32` records are read value by value);
/// the Cortex-M3 has no kernel of its own.
fn fast_route(target: &str, lane: &str) -> (&'static str, bool) {
    match (target, lane) {
        ("thumbv6m-none-eabi" | "thumbv7em-none-eabihf", "I2F14") => ("assembly", true),
        ("thumbv7em-none-eabihf", "f32") => ("assembly", false),
        _ => ("generic", false),
    }
}

/// Checks one run against the host; returns its `FRAME` totals (instructions a frame).
fn check<L: AssetLane + Project>(board: &str, model: Model, run: &Run) -> Vec<u64> {
    let ctx = format!("{board}/{}/{model:?}:\n{}", L::NAME, run.log);
    assert!(run.log.contains("DONE ok"), "{ctx}");

    let assets = lines(&run.log, "ASSET");
    let [a] = assets.as_slice() else {
        panic!("one ASSET line expected: {ctx}")
    };
    assert_eq!(a["board"], board.trim_end_matches("-m0"), "{ctx}");
    assert_eq!(a["lane"], L::NAME, "{ctx}");
    assert_eq!(field::<usize>(a, "bytes"), run.asset.len(), "{ctx}");
    assert_eq!(
        field::<u32>(a, "checksum"),
        asset::checksum(&run.asset),
        "the firmware embeds other bytes than it was built with: {ctx}"
    );
    let host = Asset::<L>::read(&run.asset).expect("the asset reads");
    assert_eq!(
        field::<usize>(a, "vertices"),
        host.positions().len(),
        "{ctx}"
    );
    assert_eq!(
        field::<usize>(a, "triangles"),
        host.indices().len() / 3,
        "{ctx}"
    );
    assert_eq!(field::<usize>(a, "bones"), host.bones(), "{ctx}");
    let want_target = match board {
        "mps2-an386" => "thumbv7em-none-eabihf",
        "mps2-an385" => "thumbv7m-none-eabi",
        _ => "thumbv6m-none-eabi",
    };
    assert_eq!(a["target"], want_target, "{ctx}");
    assert_eq!(
        a["aligned"], "true",
        "the embedded asset is not 4-byte aligned: {ctx}"
    );

    let parts = lines(&run.log, "PART");
    assert_eq!(
        parts.len(),
        host.parts().count(),
        "one PART line per part: {ctx}"
    );
    assert_eq!(a["skinning"], host.skinning().name(), "{ctx}");
    let (fast, in_place) = fast_route(want_target, L::NAME);
    // DQS has the generic loop on every target; its vertices are read as LBS's are.
    let skinning = match host.skinning() {
        Skinning::Lbs => fast,
        Skinning::Dqs => "generic",
    };
    for (k, (p, part)) in parts.iter().zip(host.parts()).enumerate() {
        assert_eq!(field::<usize>(p, "part"), k, "{ctx}");
        assert_eq!(field::<usize>(p, "bones"), part.bones().len(), "{ctx}");
        assert_eq!(
            (p["loop"], p["in_place"]),
            (skinning, if in_place { "true" } else { "false" }),
            "part {k} is skinned by a slower route than {want_target} has: {ctx}"
        );
    }

    let frames = lines(&run.log, "FRAME");
    assert_eq!(frames.len(), FRAMES as usize, "{ctx}");
    let scene = Scene::<L, BONES>::new(host, WIDTH, HEIGHT).expect("a scene");
    let mut times = Vec::new();
    let mut totals = Vec::new();
    for (k, f) in frames.iter().enumerate() {
        assert_eq!(field::<u32>(f, "frame"), k as u32, "{ctx}");
        let t: f32 = field(f, "time");
        assert_eq!(
            t.to_bits(),
            scene.frame_time(k as u32, FRAMES).to_bits(),
            "frame {k}: {ctx}"
        );
        times.push(t);
        let stages: Vec<u64> = ["sample", "palette", "skin", "project", "raster"]
            .iter()
            .map(|s| field(f, s))
            .collect();
        assert!(
            stages.iter().all(|&s| s > 0),
            "a stage counted nothing: {ctx}"
        );
        assert!(field::<u64>(f, "display") > 0, "{ctx}");
        let total: u64 = field(f, "total");
        assert_eq!(total, stages.iter().sum::<u64>(), "{ctx}");
        totals.push(total);
    }

    let want = host_frames::<L>(&run.asset, &times);
    for (k, (got, want)) in run.frames.iter().zip(&want).enumerate() {
        assert_eq!(got.len(), want.len(), "frame {k} size: {ctx}");
        let differ = got
            .chunks_exact(2)
            .zip(want.chunks_exact(2))
            .filter(|(a, b)| a != b)
            .count();
        let first = got
            .chunks_exact(2)
            .zip(want.chunks_exact(2))
            .position(|(a, b)| a != b);
        assert!(
            differ == 0,
            "frame {k}: {differ} pixels differ from the host's render (first at pixel {first:?}): {ctx}"
        );
        let background = RawU16::from(BACKGROUND).to_le_bytes();
        let drawn = got.chunks_exact(2).filter(|p| *p != background).count();
        assert!(
            drawn > 500,
            "frame {k} shows almost nothing ({drawn} pixels): {ctx}"
        );
    }
    assert!(
        run.frames.windows(2).all(|w| w[0] != w[1]),
        "the clip does not move: {ctx}"
    );

    let memory = lines(&run.log, "MEMORY");
    let [m] = memory.as_slice() else {
        panic!("one MEMORY line expected: {ctx}")
    };
    let (stat, stack) = (field::<u32>(m, "static_ram"), field::<u32>(m, "stack_used"));
    let (used, size) = (field::<u32>(m, "ram_used"), field::<u32>(m, "ram_size"));
    assert!(stack > 0 && used == stat + stack, "{ctx}");
    assert!(used < size, "RAM overflow: {ctx}");
    if board == "microbit" {
        assert_eq!(size, 16 * 1024, "{ctx}");
    }
    eprintln!(
        "{board} {} {model:?}: {} instructions a frame (mean), RAM {used} of {size} bytes",
        L::NAME,
        totals.iter().sum::<u64>() / totals.len() as u64
    );
    totals
}

/// Runs and checks `board` on each of `models` in `lane`, with the script's `options`.
fn frames_with(test: &str, board: &str, lane: &str, options: &[&str], models: &[Model]) {
    if let Some(why) = missing_tools() {
        skin_tests::skip(test, &why);
        return;
    }
    for &model in models {
        let Some(run) = run(test, board, lane, options, model) else {
            continue;
        };
        match lane {
            "fixed" => check::<Q14>(board, model, &run),
            _ => check::<f32>(board, model, &run),
        };
    }
}

/// Runs and checks `board` on each of `models` in `lane`.
fn frames(test: &str, board: &str, lane: &str, models: &[Model]) {
    frames_with(test, board, lane, &[], models);
}

#[test]
fn firmware_frames_microbit_m0() {
    frames(
        "firmware_frames_microbit_m0",
        "microbit",
        "fixed",
        &[Model::Character],
    );
}

#[test]
fn firmware_frames_mps2_an385_m3() {
    frames(
        "firmware_frames_mps2_an385_m3",
        "mps2-an385",
        "fixed",
        &[
            Model::Character,
            Model::Sample("RiggedFigure.glb"),
            Model::Sample("CesiumMan.glb"),
        ],
    );
}

#[test]
fn firmware_frames_m0_code_on_mps2_an385() {
    frames(
        "firmware_frames_m0_code_on_mps2_an385",
        "mps2-an385-m0",
        "fixed",
        &[
            Model::Sample("RiggedFigure.glb"),
            Model::Sample("CesiumMan.glb"),
            Model::FourSkins69Joints,
        ],
    );
}

#[test]
fn firmware_frames_mps2_an386_m4f_fixed() {
    frames(
        "firmware_frames_mps2_an386_m4f_fixed",
        "mps2-an386",
        "fixed",
        &[
            Model::Character,
            Model::Sample("RiggedFigure.glb"),
            Model::Sample("CesiumMan.glb"),
            Model::FourSkins69Joints,
        ],
    );
}

#[test]
fn firmware_frames_mps2_an386_m4f_f32() {
    frames(
        "firmware_frames_mps2_an386_m4f_f32",
        "mps2-an386",
        "f32",
        &[
            Model::Character,
            Model::Sample("RiggedFigure.glb"),
            Model::Sample("CesiumMan.glb"),
        ],
    );
}

/// The `vmla` build's chained multiply-adds give the same frames (the host renders with
/// separate multiplies and adds).
#[test]
fn firmware_frames_mps2_an386_m4f_f32_vmla() {
    frames_with(
        "firmware_frames_mps2_an386_m4f_f32_vmla",
        "mps2-an386",
        "f32",
        &["--vmla"],
        &[
            Model::Character,
            Model::Sample("RiggedFigure.glb"),
            Model::Sample("CesiumMan.glb"),
        ],
    );
}

/// Dual quaternion skinning on every QEMU board (`--skinning dqs`): the asset baked for DQS,
/// the firmware built with its palette, frames equal to the host's bit for bit.
#[test]
fn firmware_frames_dqs_microbit_m0() {
    frames_with(
        "firmware_frames_dqs_microbit_m0",
        "microbit",
        "fixed",
        &["--skinning", "dqs"],
        &[Model::Character],
    );
}

/// As `firmware_frames_dqs_microbit_m0`, on the Cortex-M3.
#[test]
fn firmware_frames_dqs_mps2_an385_m3() {
    frames_with(
        "firmware_frames_dqs_mps2_an385_m3",
        "mps2-an385",
        "fixed",
        &["--skinning", "dqs"],
        &[Model::Character],
    );
}

/// As `firmware_frames_dqs_microbit_m0`, on the Cortex-M4F in fixed point, with a sample
/// model; and the DQS build refuses an asset baked for LBS, saying what to do.
#[test]
fn firmware_frames_dqs_mps2_an386_m4f_fixed() {
    let test = "firmware_frames_dqs_mps2_an386_m4f_fixed";
    frames_with(
        test,
        "mps2-an386",
        "fixed",
        &["--skinning", "dqs"],
        &[Model::Character, Model::Sample("CesiumMan.glb")],
    );
    if missing_tools().is_some() {
        return;
    }
    let character = skin_host::character::Character::new();
    let rig = skin_host::import::from_slice(&character.glb(), None).expect("imports");
    let options = skin_host::bake::Options {
        budget: Some(Budget::VS_1_1),
        lane: skin_host::pose::LaneKind::Fixed,
        clips: None,
        skinning: Skinning::Lbs,
    };
    let dir = tempfile::tempdir().expect("temporary folder");
    let asset = dir.path().join("character-lbs.bin");
    let bytes = skin_host::bake::bake(&rig, &options).expect("bakes").bytes;
    std::fs::write(&asset, bytes).expect("write the asset");
    let out = dir.path().join("frames");
    let o = script(&[
        "run",
        "mps2-an386",
        "fixed",
        "--skinning",
        "dqs",
        "--asset",
        asset.to_str().expect("UTF-8"),
        "--out",
        out.to_str().expect("UTF-8"),
    ]);
    let log = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{log}");
    let error = log
        .lines()
        .find(|l| l.starts_with("ERROR"))
        .unwrap_or_default();
    assert!(
        error.contains("baked for lbs skinning") && error.contains("skin bake --skinning dqs"),
        "{log}"
    );
    assert!(!out.join("frame-000.rgb565").exists(), "{log}");
}

/// As `firmware_frames_dqs_microbit_m0`, on the Cortex-M4F in `f32`, with a sample model.
#[test]
fn firmware_frames_dqs_mps2_an386_m4f_f32() {
    frames_with(
        "firmware_frames_dqs_mps2_an386_m4f_f32",
        "mps2-an386",
        "f32",
        &["--skinning", "dqs"],
        &[Model::Character, Model::Sample("CesiumMan.glb")],
    );
}

/// The frames are compared with an independent render, so a wrong frame must fail: a
/// frame of the host's own render at another time differs.
#[test]
fn firmware_frames_host_render_depends_on_time() {
    let character = skin_host::character::Character::new();
    let rig = skin_host::import::from_slice(&character.glb(), None).expect("imports");
    let options = skin_host::bake::Options {
        budget: Some(Budget::VS_1_1),
        lane: skin_host::pose::LaneKind::Fixed,
        clips: None,
        skinning: Skinning::Lbs,
    };
    let baked = skin_host::bake::bake(&rig, &options).expect("bakes");
    let frames = host_frames::<Q14>(&baked.bytes, &[0.0, 0.25]);
    assert_ne!(frames[0], frames[1]);
}

/// Bad input on the device is a typed error and a failed run: a fixed-point build given an
/// f32 asset logs the asset error, writes no frame and leaves QEMU with a non-zero status.
#[test]
fn firmware_refuses_an_asset_of_the_other_lane() {
    let test = "firmware_refuses_an_asset_of_the_other_lane";
    if let Some(why) = missing_tools() {
        skin_tests::skip(test, &why);
        return;
    }
    let character = skin_host::character::Character::new();
    let rig = skin_host::import::from_slice(&character.glb(), None).expect("imports");
    let options = skin_host::bake::Options {
        budget: Some(Budget::VS_1_1),
        lane: skin_host::pose::LaneKind::F32,
        clips: None,
        skinning: Skinning::Lbs,
    };
    let dir = tempfile::tempdir().expect("temporary folder");
    let asset = dir.path().join("character-f32.bin");
    std::fs::write(
        &asset,
        skin_host::bake::bake(&rig, &options).expect("bakes").bytes,
    )
    .expect("write the asset");
    let out = dir.path().join("frames");
    let o = script(&[
        "run",
        "mps2-an386",
        "fixed",
        "--asset",
        asset.to_str().expect("UTF-8"),
        "--out",
        out.to_str().expect("UTF-8"),
    ]);
    let log = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{log}");
    let error = log
        .lines()
        .find(|l| l.starts_with("ERROR"))
        .unwrap_or_default();
    assert!(error.contains("error: asset"), "{log}");
    assert!(error.contains("f32") && error.contains("I2F14"), "{log}");
    assert!(log.contains("DONE failed"), "{log}");
    assert!(!out.join("frame-000.rgb565").exists(), "{log}");
}

/// A model beyond a board's RAM stops the build (firmware/build.rs sizes the buffers to the
/// model and checks them against the board), with one line naming the model's file, the
/// board, the need and the limit: CesiumMan's 22 bones on the micro:bit, which holds 16.
#[test]
fn firmware_build_refuses_a_model_beyond_the_boards_ram() {
    let test = "firmware_build_refuses_a_model_beyond_the_boards_ram";
    if let Some(why) = missing_tools() {
        skin_tests::skip(test, &why);
        return;
    }
    let Some(model) = sample(test, "CesiumMan.glb") else {
        return;
    };
    let o = script(&[
        "build",
        "microbit",
        "fixed",
        "--model",
        model.to_str().expect("UTF-8"),
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "the build went through: {err}");
    let line = err
        .lines()
        .find(|l| l.contains("skin-firmware:"))
        .unwrap_or_else(|| panic!("no build error: {err}"));
    for part in [
        "CesiumMan",
        "micro:bit",
        "16 KiB",
        "needs 22 bones",
        "holds 16",
    ] {
        assert!(line.contains(part), "{part:?} not in: {line}");
    }
}
