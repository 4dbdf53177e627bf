//! `skin render … -o clip.gif|.apng` and `skin frames`: the animation holds one frame per
//! `1 / fps` of the clip, each frame the picture `skin render --time t` draws (APNG, exact)
//! or its colours (GIF, with delays keeping the clip's length); the firmware's frame dump
//! turns into the same frames at the rate its asset stands for; bad outputs and clips get
//! one clear error and leave nothing behind.
//!
//! Runs on the procedural character, written here; the `compare` backend needs a GPU
//! adapter and skips visibly without one.

use std::path::{Path, PathBuf};

use clap::Parser as _;
use embedded_graphics_core::pixelcolor::raw::{RawU16, ToBytes};
use skin_core::budget::Budget;
use skin_host::cli::{Cli, CliError};
use skin_host::picture::Picture;
use skin_host::pose::animate::duration;
use skin_host::pose::LaneKind;
use skin_host::render::Cpu;

/// A fresh directory for one test.
fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("skin-animation-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The character as a .glb in `dir`, and its rig.
fn character(dir: &Path) -> (PathBuf, skin_host::Rig) {
    let path = dir.join("walker.glb");
    skin_host::character::Character::new().write(&path).unwrap();
    let rig = skin_host::import::from_path(&path).unwrap();
    (path, rig)
}

/// Run `skin ARGS`; its stdout or its error.
fn skin(args: &[&str]) -> Result<String, CliError> {
    let cli = Cli::try_parse_from(std::iter::once("skin").chain(args.iter().copied()))
        .unwrap_or_else(|e| panic!("{args:?}: {e}"));
    let (mut out, mut warn) = (Vec::new(), Vec::new());
    skin_host::cli::run(cli, &mut out, &mut warn)?;
    Ok(String::from_utf8(out).unwrap())
}

/// The frames of an APNG as 8-bit RGB pictures, and each frame's delay (num, den).
fn apng_frames(path: &Path) -> (Vec<Vec<u8>>, Vec<(u16, u16)>) {
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let frames = reader.info().animation_control().unwrap().num_frames;
    let (mut pictures, mut delays) = (Vec::new(), Vec::new());
    for _ in 0..frames {
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buf).unwrap();
        buf.truncate(info.buffer_size());
        let fc = reader.info().frame_control().unwrap();
        delays.push((fc.delay_num, fc.delay_den));
        pictures.push(buf);
    }
    (pictures, delays)
}

#[test]
fn an_apng_holds_every_frame_of_the_clip_exactly() {
    let dir = scratch("apng");
    let (model, rig) = character(&dir);
    let out = dir.join("walk.apng");
    let (m, o) = (model.to_str().unwrap(), out.to_str().unwrap());
    let args = [
        "render", m, "--anim", "0", "--size", "64x48", "--fps", "12", "-o", o,
    ];
    let said = skin(&args).unwrap();
    let duration = duration(&rig, 0);
    let want = (duration * 12.0 - 1e-3).ceil() as usize;
    assert!(want >= 2, "the walk lasts {duration} s");
    assert!(
        said.contains(&format!("{want} frames at 12 a second")),
        "{said}"
    );
    let (frames, delays) = apng_frames(&out);
    assert_eq!(frames.len(), want);
    assert!(delays
        .iter()
        .all(|&(n, d)| f64::from(n) / f64::from(d) == 1.0 / 12.0));
    let cpu = Cpu::new(&rig, Some(0), LaneKind::F32, Some(Budget::VS_1_1)).unwrap();
    for (k, got) in frames.iter().enumerate() {
        let picture = cpu.render(k as f32 / 12.0, (64, 48)).unwrap();
        assert_eq!(*got, picture.rgb8(), "frame {k}");
    }
    // Consecutive frames differ: the clip plays.
    assert_ne!(frames[0], frames[1]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_gif_keeps_the_clip_length_and_the_picture() {
    let dir = scratch("gif");
    let (model, rig) = character(&dir);
    let out = dir.join("walk.gif");
    let m = model.to_str().unwrap();
    let o = out.to_str().unwrap();
    let args = [
        "render", m, "--anim", "0", "--fps", "30", "--size", "48x48", "-o", o,
    ];
    skin(&args).unwrap();
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::RGBA);
    let mut d = options
        .read_info(std::fs::File::open(&out).unwrap())
        .unwrap();
    let (mut delays, mut first) = (Vec::new(), None);
    while let Some(f) = d.read_next_frame().unwrap() {
        delays.push(u32::from(f.delay));
        first.get_or_insert_with(|| f.buffer.to_vec());
    }
    let duration = duration(&rig, 0);
    let frames = (duration * 30.0 - 1e-3).ceil();
    assert_eq!(delays.len(), frames as usize);
    // Whole centiseconds that add up to the frames' time, to the rounding of the last.
    let total: u32 = delays.iter().sum();
    assert_eq!(total, (100.0 * frames / 30.0).round() as u32);
    // The character's flat shading has few colours: the first frame is exact.
    let want = Cpu::new(&rig, Some(0), LaneKind::F32, Some(Budget::VS_1_1))
        .unwrap()
        .render(0.0, (48, 48))
        .unwrap();
    let rgb: Vec<u8> = first
        .unwrap()
        .chunks(4)
        .flat_map(|p| [p[0], p[1], p[2]])
        .collect();
    assert_eq!(rgb, want.rgb8());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_outputs_and_clips_are_named_and_leave_nothing_behind() {
    let dir = scratch("errors");
    let (model, _) = character(&dir);
    let m = model.to_str().unwrap();
    let render = |out: &str, anim: &str, fps: &str| {
        skin(&[
            "render", m, "--anim", anim, "--fps", fps, "--size", "32x32", "-o", out,
        ])
        .unwrap_err()
        .to_string()
    };
    let gif = dir.join("a.gif");
    let g = gif.to_str().unwrap();
    let e = render(g, "7", "30");
    assert!(e.contains("7") && e.contains("animation"), "{e}");
    let e = render(g, "0", "80");
    assert!(e.contains("frame rate 80") && e.contains("50"), "{e}");
    let e = skin(&["render", m, "-o", g]).unwrap_err().to_string();
    assert!(
        e.contains("an animation plays a clip") && e.ends_with("give --anim"),
        "{e}"
    );
    // A directory in the way.
    let e = render(dir.to_str().unwrap(), "0", "30");
    assert!(e.contains("is a directory"), "{e}");
    // A directory that does not exist.
    let missing = dir.join("no/such/a.gif");
    let e = render(missing.to_str().unwrap(), "0", "30");
    assert!(e.contains("does not exist") && e.contains("no/such"), "{e}");
    // Nothing but the model is left: no GIF, no temporary file.
    let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    assert_eq!(left.len(), 1, "{left:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_firmware_frame_dump_plays_at_its_clip_rate() {
    let dir = scratch("frames");
    let (_, rig) = character(&dir);
    // A dump as the firmware writes it: four frames spread over the clip, and its asset.
    let dump = dir.join("dump");
    std::fs::create_dir_all(&dump).unwrap();
    let options = skin_host::bake::Options {
        budget: Some(Budget::VS_1_1),
        lane: LaneKind::Fixed,
        clips: None,
        skinning: skin_host::pose::Skinning::Lbs,
    };
    let baked = skin_host::bake::bake(&rig, &options).unwrap();
    std::fs::write(dump.join("asset.bin"), &baked.bytes).unwrap();
    let cpu = Cpu::new(&rig, Some(0), LaneKind::Fixed, Some(Budget::VS_1_1)).unwrap();
    let duration = duration(&rig, 0);
    let pictures: Vec<Picture> = (0..4)
        .map(|k| cpu.render(duration * k as f32 / 4.0, (240, 240)).unwrap())
        .collect();
    for (k, p) in pictures.iter().enumerate() {
        let bytes: Vec<u8> = p
            .pixels
            .iter()
            .flat_map(|c| RawU16::from(*c).to_le_bytes())
            .collect();
        std::fs::write(dump.join(format!("frame-{k:03}.rgb565")), bytes).unwrap();
    }
    let out = dir.join("board.apng");
    let said = skin(&[
        "frames",
        dump.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ])
    .unwrap();
    assert!(said.contains("4 frames"), "{said}");
    let (frames, delays) = apng_frames(&out);
    assert_eq!(frames.len(), 4);
    for (got, want) in frames.iter().zip(&pictures) {
        assert_eq!(*got, want.rgb8());
    }
    let rate = 4.0 / duration;
    let (n, d) = delays[0];
    assert!(
        (f64::from(n) / f64::from(d) - 1.0 / f64::from(rate)).abs() < 1e-3,
        "{n}/{d}"
    );
    // Without the asset the rate must be given.
    std::fs::remove_file(dump.join("asset.bin")).unwrap();
    let e = skin(&[
        "frames",
        dump.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ])
    .unwrap_err()
    .to_string();
    assert!(e.contains("--fps"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn compare_shows_cpu_gpu_and_their_difference() {
    let test = "compare_shows_cpu_gpu_and_their_difference";
    if let Err(e) = skin_host::gpu::Reference::new() {
        return skin_tests::skip(test, &e.to_string());
    }
    let dir = scratch("compare");
    let (model, rig) = character(&dir);
    let out = dir.join("compare.png");
    let m = model.to_str().unwrap();
    let args = [
        "render",
        m,
        "--anim",
        "0",
        "--time",
        "0.3",
        "--backend",
        "compare",
    ];
    let said =
        skin(&[&args[..], &["--size", "64x64", "-o", out.to_str().unwrap()]].concat()).unwrap();
    assert!(said.contains("200x64 CPU | GPU | difference x8"), "{said}");
    let p = Picture::load_png(&out).unwrap();
    let panel = |x0: u32| Picture {
        width: 64,
        height: 64,
        pixels: (0..64)
            .flat_map(|y| (x0..x0 + 64).map(move |x| (x, y)))
            .map(|(x, y)| p.pixels[(y * p.width + x) as usize])
            .collect(),
    };
    let cpu = Cpu::new(&rig, Some(0), LaneKind::F32, Some(Budget::VS_1_1)).unwrap();
    let want_cpu = cpu.render(0.3, (64, 64)).unwrap();
    assert_eq!(panel(0), want_cpu);
    let gpu_panel = panel(68);
    assert_eq!(panel(136), want_cpu.amplified(&gpu_panel, 8));
    // The GPU panel is a picture of the figure, close to the CPU's.
    let agree = gpu_panel.difference(&want_cpu).unwrap().agreement();
    assert!(agree > 0.95, "{agree}");
    std::fs::remove_dir_all(&dir).unwrap();
}
