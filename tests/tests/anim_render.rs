//! `skin render` with the animation layer (`--ik`, `--look-at`, `--blend`, `--walk`, …) on
//! the procedural character of `skin character`: the CPU picture differs from the plain
//! clip's where IK and look-at move joints, and shows the geometry `skin pose` computes
//! with the same options (every posed vertex, projected by the renderer's camera, lies
//! within two pixels of a drawn one, and the drawn box is the projected vertices' box within a
//! pixel); the GPU draws the same frame; the command line draws what the library draws,
//! and animates a blend or a walk without `--anim`.

use skin_core::budget::Budget;
use skin_core::raster::{Camera, SUBPIXEL};
use skin_core::scene::BACKGROUND;
use skin_host::animation::{Backend, Renderer};
use skin_host::character::Character;
use skin_host::picture::Picture;
use skin_host::pose::{layered_pose, LaneKind, Layers, Look, Reach, Skinning};
use skin_host::render::Cpu;
use skin_host::rig::Rig;
use skin_tests::{gpu, skin_cli};

const SIZE: (u16, u16) = (160, 160);
const TIME: f32 = 0.3;

fn rig() -> Rig {
    skin_host::import::from_slice(&Character::new().glb(), None).unwrap()
}

fn node(rig: &Rig, name: &str) -> usize {
    rig.nodes
        .iter()
        .position(|n| n.name.as_deref() == Some(name))
        .unwrap()
}

/// The left forearm reaching across the body, the head turned to a point on its left.
fn reach_and_look(rig: &Rig) -> Layers {
    Layers {
        reach: vec![Reach {
            end: node(rig, "forearm.L"),
            target: [0.4, 1.2, 0.1],
            pole: None,
        }],
        look: vec![Look {
            joint: node(rig, "head"),
            target: [1.5, 1.6, 0.5],
            forward: [0.0, 0.0, 1.0],
        }],
        ..Layers::default()
    }
}

/// Pixels that are not the background.
fn lit(p: &Picture) -> Vec<(i32, i32)> {
    let w = p.width as usize;
    (0..p.pixels.len())
        .filter(|&i| p.pixels[i] != BACKGROUND)
        .map(|i| ((i % w) as i32, (i / w) as i32))
        .collect()
}

fn is_lit(p: &Picture, x: i32, y: i32) -> bool {
    (0..p.width as i32).contains(&x)
        && (0..p.height as i32).contains(&y)
        && p.pixels[(y as u32 * p.width + x as u32) as usize] != BACKGROUND
}

/// The box (min x, min y, max x, max y) of pixel positions.
fn pixel_box(points: &[(i32, i32)]) -> [i32; 4] {
    points
        .iter()
        .fold([i32::MAX, i32::MAX, i32::MIN, i32::MIN], |b, &(x, y)| {
            [b[0].min(x), b[1].min(y), b[2].max(x), b[3].max(y)]
        })
}

/// `picture` shows the vertices `skin pose` computes for `layers` in `lane`: each projected
/// vertex lies within two pixels of a drawn one (a vertex on the silhouette's edge), and
/// the drawn box is the projected box within a pixel.
fn shows_the_pose(rig: &Rig, cpu: &Cpu, lane: LaneKind, layers: &Layers, picture: &Picture) {
    let weights = vec![Vec::new(); rig.nodes.len()];
    let (posed, _, _) = layered_pose(
        rig,
        Some((0, TIME)),
        TIME,
        layers,
        lane,
        Skinning::Lbs,
        &weights,
    )
    .unwrap();
    let camera = Camera::frame(&cpu.rest_bounds(SIZE).unwrap(), SIZE.0, SIZE.1).unwrap();
    let projected: Vec<(i32, i32)> = posed
        .iter()
        .flat_map(|p| p.positions.iter())
        .map(|&p| {
            let s = camera.project_f32(p);
            let px = |v: f32| (v / SUBPIXEL as f32).floor() as i32;
            (px(s[0]), px(s[1]))
        })
        .collect();
    for &(x, y) in &projected {
        // Two pixels: a sharp corner (a toe's tip) covers no pixel centre next to it.
        let near = (-2..=2).any(|dy| (-2..=2).any(|dx| is_lit(picture, x + dx, y + dy)));
        assert!(
            near,
            "{lane:?}: a posed vertex at pixel ({x}, {y}) is not drawn"
        );
    }
    let (drawn, at) = (pixel_box(&lit(picture)), pixel_box(&projected));
    for i in 0..4 {
        assert!(
            (drawn[i] - at[i]).abs() <= 1,
            "{lane:?}: the drawn box {drawn:?} is not the posed vertices' box {at:?}"
        );
    }
}

#[test]
fn ik_and_look_at_move_the_picture_to_the_pose_commands_geometry() {
    let rig = rig();
    let layers = reach_and_look(&rig);
    for lane in [LaneKind::F32, LaneKind::Fixed] {
        let cpu = Cpu::new(&rig, Some(0), lane, Some(Budget::VS_1_1)).unwrap();
        let plain = cpu.render(TIME, SIZE).unwrap();
        let moved = cpu
            .render_layered(&rig, (Some(0), TIME), &layers, SIZE)
            .unwrap();
        // The arm swings across and the head turns: many pixels change.
        let d = plain.difference(&moved).unwrap();
        assert!(d.differing > 150, "{lane:?}: {d:?}");
        shows_the_pose(&rig, &cpu, lane, &layers, &moved);
        shows_the_pose(&rig, &cpu, lane, &Layers::default(), &plain);
        // Empty layers are the clip's own frame, bit for bit.
        let same = cpu
            .render_layered(&rig, (Some(0), TIME), &Layers::default(), SIZE)
            .unwrap();
        assert_eq!(same, plain, "{lane:?}");
    }
}

#[test]
fn the_command_line_draws_what_the_library_draws() {
    let rig = rig();
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("character.glb");
    std::fs::write(&model, Character::new().glb()).unwrap();
    let m = model.to_str().unwrap();
    let layers = reach_and_look(&rig);
    for (lane, arith) in [(LaneKind::F32, "f32"), (LaneKind::Fixed, "fixed")] {
        let png = dir.path().join(format!("{arith}.png"));
        let line = skin_cli(&[
            "render",
            m,
            "--anim",
            "0",
            "--time",
            "0.3",
            "--backend",
            "cpu",
            "--arith",
            arith,
            "--size",
            "160x160",
            "--ik",
            "forearm.L=0.4,1.2,0.1",
            "--look-at",
            "head=1.5,1.6,0.5",
            "-o",
            png.to_str().unwrap(),
        ])
        .unwrap();
        assert!(line.contains("CPU"), "{line}");
        let cpu = Cpu::new(&rig, Some(0), lane, Some(Budget::VS_1_1)).unwrap();
        let want = cpu
            .render_layered(&rig, (Some(0), TIME), &layers, SIZE)
            .unwrap();
        assert_eq!(Picture::load_png(&png).unwrap(), want, "{arith}");
    }
    // A blend animates its clips' length (the walk's 1 s: 5 frames at 5 a second).
    let gif = dir.path().join("blend.gif");
    let line = skin_cli(&[
        "render",
        m,
        "--backend",
        "cpu",
        "--size",
        "64x64",
        "--fps",
        "5",
        "--blend",
        "walk:0.5",
        "-o",
        gif.to_str().unwrap(),
    ])
    .unwrap();
    assert!(line.contains("5 frames at 5 a second"), "{line}");
    // A walk from the rest pose animates one stride (0.8 units at 1 a second: 0.8 s, 4
    // frames at 5 a second), its feet planted by IK on the character's foot joints.
    let line = skin_cli(&[
        "render",
        m,
        "--backend",
        "cpu",
        "--size",
        "64x64",
        "--fps",
        "5",
        "--walk",
        "1,0.8",
        "--walk-joints",
        "hips,foot.L,foot.R",
        "--ground",
        "0.05,1.5",
        "-o",
        gif.to_str().unwrap(),
    ])
    .unwrap();
    assert!(line.contains("4 frames at 5 a second"), "{line}");
    // Without a clip, a blend or a walk there is nothing to animate.
    let e = skin_cli(&[
        "render",
        m,
        "--ik",
        "forearm.L=0.4,1.2,0.1",
        "-o",
        gif.to_str().unwrap(),
    ])
    .unwrap_err();
    assert!(e.ends_with("give --anim"), "{e}");
    // Bad options are refused as `skin pose` refuses them (tests/anim_cli.rs).
    let e = skin_cli(&["render", m, "--ik", "ankle.L=0,0,0", "-o", "x.png"]).unwrap_err();
    assert!(e.contains("--ik: no joint named \"ankle.L\""), "{e}");
    // The lattice draws the baked clip only.
    let e = skin_cli(&[
        "render",
        m,
        "--backend",
        "cpu",
        "--lattice",
        "none.json",
        "--ik",
        "forearm.L=0.4,1.2,0.1",
        "-o",
        "x.png",
    ])
    .unwrap_err();
    assert!(
        e.contains("--lattice") && e.contains("animation layer"),
        "{e}"
    );
}

#[test]
fn the_gpu_draws_the_layered_frame_as_the_cpu_does() {
    let Some(_) = gpu("the_gpu_draws_the_layered_frame_as_the_cpu_does") else {
        return;
    };
    let rig = rig();
    let layers = reach_and_look(&rig);
    let renderer = |backend| {
        Renderer::new(&rig, Some(0), backend, Budget::VS_1_1, SIZE)
            .unwrap()
            .with_layers(layers.clone())
    };
    let plain_gpu = Renderer::new(
        &rig,
        Some(0),
        Backend::Gpu(Skinning::Lbs),
        Budget::VS_1_1,
        SIZE,
    )
    .unwrap()
    .frame(TIME)
    .unwrap();
    for skinning in [Skinning::Lbs, Skinning::Dqs] {
        let gpu = renderer(Backend::Gpu(skinning)).frame(TIME).unwrap();
        let cpu = renderer(Backend::Cpu(LaneKind::F32, skinning))
            .frame(TIME)
            .unwrap();
        let d = gpu.difference(&cpu).unwrap();
        // Rasterisation rules differ on edges only (docs/VALIDATION.md): 1 % of the picture.
        assert!(d.differing * 100 <= d.total, "{skinning:?}: {d:?}");
        assert!(
            gpu.difference(&plain_gpu).unwrap().differing > 150,
            "{skinning:?}: the GPU draws the layers"
        );
    }
}
