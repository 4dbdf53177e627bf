//! The GPU reference (`skin_host::gpu`) on synthetic meshes: compute and vertex-shader
//! skinning against skin-core's `f32` lane, the budget's palette splits (one draw call under
//! vs_2_0, several under vs_1_1, identical positions), the picture against skin-core's
//! rasteriser, and every refusal with its message.
//!
//! Needs a wgpu adapter (lavapipe on machines without a GPU): without one each test says
//! SKIPPED, or fails under `SKIN_REQUIRE_ALL=1`.

use embedded_graphics::pixelcolor::{Rgb565, RgbColor};
use skin_core::affine::Affine;
use skin_core::budget::{Budget, Layout};
use skin_core::raster::{render, Bounds, Camera, FrameBuffer, ScreenVertex};
use skin_core::skin::SkinnedMesh;
use skin_core::vertex::Influence;
use skin_host::gpu::{DrawCall, GpuError, GpuMesh, MeshDraws, Shading, View};
use skin_host::rig::{Influence4, Mode, Primitive};
use skin_host::split::split;

use skin_tests::{diagonal, gpu, worst};

/// A ribbon of `bones` segments along +X, two vertices a joint, each vertex blended
/// 3:1 between its segment's bone and the one before, with tilted normals.
fn ribbon(bones: usize) -> Primitive {
    let mut positions = Vec::new();
    let mut normals = Vec::new();
    let mut influences = Vec::new();
    for i in 0..=bones {
        let b = i.min(bones - 1) as u16;
        let prev = b.saturating_sub(1);
        for y in [0.0, 1.0] {
            positions.push([i as f32 * 0.25, y, 0.1 * (i % 3) as f32]);
            normals.push([0.0, 0.6, 0.8]);
            influences.push(Influence4 {
                joints: [b, prev, b, b],
                weights: if prev == b {
                    [1.0, 0.0, 0.0, 0.0]
                } else {
                    [0.75, 0.25, 0.0, 0.0]
                },
            });
        }
    }
    let mut indices = Vec::new();
    for i in 0..bones as u32 {
        let (a, b) = (2 * i, 2 * i + 2);
        indices.extend_from_slice(&[a, b, a + 1, a + 1, b, b + 1]);
    }
    Primitive {
        mode: Mode::Triangles,
        positions,
        normals: Some(normals),
        tangents: None,
        indices: Some(indices),
        influences: Some(influences),
        max_influences: 2,
        largest_dropped: 0.0,
        targets: vec![],
    }
}

/// `n` bone matrices: a turn about Z growing along the chain, a shear-free scale, a lift.
fn palette(n: usize, t: f32) -> Vec<Affine<f32>> {
    (0..n)
        .map(|b| {
            let a = t * (0.03 * b as f32 + 0.2);
            let (s, c) = a.sin_cos();
            let k = 1.0 + 0.01 * b as f32;
            Affine {
                rows: [
                    [c * k, -s * k, 0.0, 0.1 * b as f32],
                    [s * k, c * k, 0.0, 0.05 * t],
                    [0.0, 0.0, k, -0.02 * b as f32],
                ],
            }
        })
        .collect()
}

/// skin-core's `f32` positions and normals of `mesh`.
fn core_f32(mesh: &GpuMesh, palette: &[Affine<f32>]) -> (Vec<[f32; 3]>, Vec<[f32; 3]>) {
    let n = mesh.len();
    let (mut p, mut nrm) = (vec![[0.0; 3]; n], vec![[0.0; 3]; n]);
    SkinnedMesh::<f32, 4>::new(mesh.positions(), mesh.influences())
        .and_then(|m| m.skin_with_normals(palette, mesh.normals(), &mut p, &mut nrm))
        .unwrap();
    (p, nrm)
}

#[test]
fn compute_and_vertex_paths_skin_like_the_core() {
    let Some(gpu) = gpu("compute_and_vertex_paths_skin_like_the_core") else {
        return;
    };
    let mesh = GpuMesh::from_primitive(&ribbon(20)).unwrap();
    for t in [0.0f32, 0.7, 2.5] {
        let pal = palette(20, t);
        let (want, want_n) = core_f32(&mesh, &pal);
        let tol = 1e-5 * diagonal(&want);
        let compute = gpu.skin_compute(&mesh, &pal).unwrap();
        assert!(worst(&compute.positions, &want) <= tol, "t {t}");
        assert!(worst(&compute.normals, &want_n) <= 1e-5, "t {t}");
        for layout in [Layout::Affine3x4, Layout::Mat4x4] {
            let drawn = gpu
                .skin_vertex(&mesh, &pal, &mesh.single_draw(20), Budget::VS_1_1, layout)
                .unwrap();
            assert!(drawn.drawn.iter().all(|&d| d));
            assert_eq!(drawn.draw_calls, 1);
            assert!(
                worst(&drawn.skinned.positions, &want) <= tol,
                "{layout:?} t {t}"
            );
            assert!(worst(&drawn.skinned.normals, &want_n) <= 1e-5, "{layout:?}");
        }
    }
    // The rest pose (identity palette) returns the bind mesh exactly on both paths.
    let id = vec![Affine::IDENTITY; 20];
    let compute = gpu.skin_compute(&mesh, &id).unwrap();
    assert_eq!(compute.positions, mesh.positions());
    let drawn = gpu
        .skin_vertex(
            &mesh,
            &id,
            &mesh.single_draw(20),
            Budget::VS_2_0,
            Layout::Affine3x4,
        )
        .unwrap();
    assert_eq!(drawn.skinned.positions, mesh.positions());
}

#[test]
fn a_skin_over_vs_1_1_is_drawn_in_splits_with_identical_positions() {
    let Some(gpu) = gpu("a_skin_over_vs_1_1_is_drawn_in_splits_with_identical_positions") else {
        return;
    };
    // 40 bones: more than vs_1_1 holds (32 as 3x4, 24 as 4x4), within vs_2_0 (85, 64).
    let prim = ribbon(40);
    let whole = GpuMesh::from_primitive(&prim).unwrap();
    let pal = palette(40, 1.3);
    for layout in [Layout::Affine3x4, Layout::Mat4x4] {
        let cap = Budget::VS_1_1.capacity(layout);
        assert!(cap < 40 && Budget::VS_2_0.capacity(layout) >= 40);
        let one = gpu
            .skin_vertex(&whole, &pal, &whole.single_draw(40), Budget::VS_2_0, layout)
            .unwrap();
        assert_eq!(one.draw_calls, 1);

        // The whole palette in one draw call does not fit vs_1_1.
        let err = gpu
            .skin_vertex(&whole, &pal, &whole.single_draw(40), Budget::VS_1_1, layout)
            .unwrap_err();
        assert!(matches!(err, GpuError::Budget { draw: 0, .. }), "{err:?}");
        assert!(err.to_string().contains("vs_1_1"), "{err}");

        // Its palette splits do, each in its own draw call.
        let parts = GpuMesh::from_split(&prim, &split(&prim, cap).unwrap()).unwrap();
        assert!(parts.draws.len() >= 2);
        assert!(parts.draws.iter().all(|d| d.bones.len() <= cap));
        let many = gpu
            .skin_vertex(&parts.mesh, &pal, &parts.draws, Budget::VS_1_1, layout)
            .unwrap();
        assert_eq!(many.draw_calls, parts.draws.len());
        assert!(many.drawn.iter().all(|&d| d));
        for (s, &o) in parts.origin.iter().enumerate() {
            let o = o as usize;
            assert_eq!(
                many.skinned.positions[s], one.skinned.positions[o],
                "{layout:?}: split vertex {s} (vertex {o})"
            );
            assert_eq!(many.skinned.normals[s], one.skinned.normals[o]);
        }
    }
}

#[test]
fn the_uniform_palette_is_exactly_the_budgets_capacity() {
    use skin_host::gpu::shader;
    for budget in [Budget::VS_1_1, Budget::VS_2_0, Budget::GLES2] {
        let n3 = budget.capacity(Layout::Affine3x4);
        let n4 = budget.capacity(Layout::Mat4x4);
        let src = shader::vertex_readback(Layout::Affine3x4, n3, false);
        assert!(src.contains("var<uniform> palette"), "{src}");
        assert!(src.contains(&format!("array<mat3x4<f32>, {n3}>")));
        assert!(shader::picture(Layout::Mat4x4, n4, false)
            .contains(&format!("array<mat4x4<f32>, {n4}>")));
    }
    let Some(gpu) = gpu("the_uniform_palette_is_exactly_the_budgets_capacity") else {
        return;
    };
    // A draw call of exactly the capacity is accepted, one more bone is refused.
    let prim = ribbon(33);
    let mesh = GpuMesh::from_primitive(&prim).unwrap();
    let pal = palette(33, 0.4);
    let fits = DrawCall {
        indices: 0..6 * 31,
        bones: (0..32).collect(),
    };
    let out = gpu
        .skin_vertex(&mesh, &pal, &[fits], Budget::VS_1_1, Layout::Affine3x4)
        .unwrap();
    assert_eq!(out.draw_calls, 1);
    // The last two joints' vertices (only in the undrawn segments) are reported undrawn.
    assert_eq!(out.drawn.iter().filter(|&&d| !d).count(), 4);
    let over = DrawCall {
        indices: 0..6 * 33,
        bones: (0..33).collect(),
    };
    let err = gpu
        .skin_vertex(&mesh, &pal, &[over], Budget::VS_1_1, Layout::Affine3x4)
        .unwrap_err();
    assert!(matches!(err, GpuError::Budget { .. }), "{err:?}");
}

#[test]
fn the_picture_matches_the_core_rasteriser() {
    let Some(gpu) = gpu("the_picture_matches_the_core_rasteriser") else {
        return;
    };
    let mesh = GpuMesh::from_primitive(&ribbon(12)).unwrap();
    let pal = palette(12, 0.9);
    let (p, n) = core_f32(&mesh, &pal);
    let (w, h) = (240u16, 240u16);
    let cam = Camera::frame(&Bounds::of(mesh.positions().iter().copied()).unwrap(), w, h).unwrap();
    // The CPU picture: skin-core's projection, shading and band rasteriser.
    let verts: Vec<ScreenVertex> = p
        .iter()
        .zip(&n)
        .enumerate()
        .map(|(i, (p, n))| ScreenVertex::project::<f32>(&cam, p, Some(n), i).unwrap())
        .collect();
    let material = skin_core::scene::MATERIAL;
    let background = skin_core::scene::BACKGROUND;
    let mut pixels = vec![Rgb565::BLACK; usize::from(w) * usize::from(h)];
    let mut frame = FrameBuffer::new(&mut pixels, w, h).unwrap();
    let (mut colour, mut depth) = (vec![Rgb565::BLACK; 240 * 16], vec![0u16; 240 * 16]);
    let indices: Vec<u16> = mesh.indices().iter().map(|&i| i as u16).collect();
    render(
        &mut frame,
        w,
        h,
        &mut colour,
        &mut depth,
        background,
        |band| band.draw(&verts, indices.iter().copied(), material),
    )
    .unwrap();
    let draws = mesh.single_draw(12);
    let batch = MeshDraws {
        mesh: &mesh,
        palette: (&pal).into(),
        weights: &[],
        draws: &draws,
    };
    let view = View::scene(cam, w, h, Shading::Lambert);
    let picture = gpu
        .render(&[batch], &view, Budget::VS_2_0, Layout::Affine3x4)
        .unwrap();
    assert_eq!((picture.width, picture.height), (240, 240));
    let lit = pixels.iter().filter(|&&c| c != background).count();
    assert!(lit > 2000, "the ribbon covers the picture ({lit} pixels)");
    let differing = picture
        .pixels
        .iter()
        .zip(&pixels)
        .filter(|(a, b)| a != b)
        .count();
    assert!(
        differing * 100 <= pixels.len(),
        "{differing} of {} pixels differ",
        pixels.len()
    );
    // Unlit: every drawn pixel is the material itself.
    let flat = View::scene(cam, w, h, Shading::Unlit);
    let unlit = gpu
        .render(&[batch], &flat, Budget::VS_2_0, Layout::Affine3x4)
        .unwrap();
    assert!(unlit
        .pixels
        .iter()
        .all(|&c| c == material || c == background));
    assert!(unlit.pixels.iter().filter(|&&c| c == material).count() > 2000);
}

#[test]
fn bad_meshes_and_draw_calls_are_typed_errors() {
    let three = vec![[0.0f32; 3]; 3];
    let rigid = vec![Influence::<f32>::rigid(0); 3];
    let err = GpuMesh::new(
        three.clone(),
        vec![[0.0; 3]; 2],
        rigid.clone(),
        vec![0, 1, 2],
    );
    assert_eq!(
        err.unwrap_err().to_string(),
        "mesh normals has 2 entries, expected 3 (one per vertex)"
    );
    let err = GpuMesh::new(three.clone(), three.clone(), rigid.clone(), vec![0, 1, 3]);
    assert!(matches!(
        err,
        Err(GpuError::Index {
            position: 2,
            index: 3,
            vertices: 3
        })
    ));
    let mut nan = three.clone();
    nan[1][2] = f32::NAN;
    let err = GpuMesh::new(nan, three.clone(), rigid.clone(), vec![0, 1, 2]);
    assert_eq!(
        err.unwrap_err().to_string(),
        "position of vertex 1 is not finite"
    );
    let mut lines = ribbon(2);
    lines.mode = Mode::Lines;
    assert!(matches!(
        GpuMesh::from_primitive(&lines),
        Err(GpuError::NotTriangles { mode: Mode::Lines })
    ));

    let Some(gpu) = gpu("bad_meshes_and_draw_calls_are_typed_errors") else {
        return;
    };
    let mesh = GpuMesh::from_primitive(&ribbon(4)).unwrap();
    let pal = palette(4, 0.1);
    let vs = |draws: &[DrawCall], pal: &[Affine<f32>], budget, layout| {
        gpu.skin_vertex(&mesh, pal, draws, budget, layout)
            .unwrap_err()
    };
    let all = mesh.single_draw(4);
    // Too short a palette, on both paths.
    let err = gpu.skin_compute(&mesh, &pal[..3]).unwrap_err();
    assert!(
        matches!(
            err,
            GpuError::Bone {
                bone: 3,
                palette: 3,
                ..
            }
        ),
        "{err:?}"
    );
    assert!(matches!(
        vs(&all, &pal[..3], Budget::VS_1_1, Layout::Affine3x4),
        GpuError::Bone { .. }
    ));
    // A non-finite palette.
    let mut bad = pal.clone();
    bad[2].rows[0][3] = f32::INFINITY;
    assert_eq!(
        gpu.skin_compute(&mesh, &bad).unwrap_err().to_string(),
        "palette matrix 2 is not finite"
    );
    // Index ranges that are not whole triangles inside the list.
    let len = mesh.indices().len() as u32;
    for range in [0..4, 0..len + 3] {
        let d = DrawCall {
            indices: range.clone(),
            bones: (0..4).collect(),
        };
        assert!(
            matches!(
                vs(&[d], &pal, Budget::VS_1_1, Layout::Affine3x4),
                GpuError::Range { .. }
            ),
            "{range:?}"
        );
    }
    // A draw call whose palette lacks a bone its vertices use.
    let short = DrawCall {
        indices: 0..len,
        bones: vec![0, 1, 2],
    };
    let err = vs(&[short], &pal, Budget::VS_1_1, Layout::Affine3x4);
    assert!(
        err.to_string().contains("joint 3 is not in its palette"),
        "{err}"
    );
    // One vertex drawn by two draw calls that map its bones to different slots.
    let a = DrawCall {
        indices: 0..6,
        bones: vec![0, 1, 2, 3],
    };
    let b = DrawCall {
        indices: 0..6,
        bones: vec![3, 2, 1, 0],
    };
    assert!(matches!(
        vs(&[a, b], &pal, Budget::VS_1_1, Layout::Affine3x4),
        GpuError::SharedVertex { .. }
    ));
    // Layouts and budgets the vertex shader cannot hold.
    assert!(matches!(
        vs(&all, &pal, Budget::VS_1_1, Layout::DualQuat),
        GpuError::Layout {
            layout: Layout::DualQuat
        }
    ));
    assert_eq!(
        vs(&all, &pal, Budget::VS_1_1.reserve(96), Layout::Affine3x4).to_string(),
        "budget vs_1_1 holds no 3x4 bones"
    );
    let huge = Budget::registers("huge", 1 << 20);
    assert!(matches!(
        vs(&all, &pal, huge, Layout::Mat4x4),
        GpuError::UniformLimit { .. }
    ));
    // A picture the device cannot render.
    let cam = Camera::frame(&Bounds::of(mesh.positions().iter().copied()).unwrap(), 8, 8).unwrap();
    let mut view = View::scene(cam, 8, 8, Shading::Lambert);
    view.width = 0;
    let batch = MeshDraws {
        mesh: &mesh,
        palette: (&pal).into(),
        weights: &[],
        draws: &all,
    };
    assert!(matches!(
        gpu.render(&[batch], &view, Budget::VS_2_0, Layout::Affine3x4),
        Err(GpuError::PictureSize { width: 0, .. })
    ));
}
