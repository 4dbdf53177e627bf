//! Dual quaternion skinning on the GPU reference (`skin_host::gpu` with a dual quaternion
//! palette): the compute path and the vertex shader (one draw call, and the palette splits
//! a small budget forces) against skin-core's `f32` DQS loop, with antipodal quaternions
//! and twists past 180°; the candy wrapper on the GPU (LBS collapses, DQS keeps the
//! radius); a picture drawn through the dual quaternion uniform; and the refusals.
//!
//! Needs a wgpu adapter (lavapipe on machines without a GPU): without one each test says
//! SKIPPED, or fails under `SKIN_REQUIRE_ALL=1`.

use skin_core::affine::Affine;
use skin_core::budget::{Budget, Layout};
use skin_core::dual::Dual;
use skin_core::raster::{Bounds, Camera};
use skin_core::skin::SkinnedMesh;
use skin_host::gpu::{Bones, GpuError, GpuMesh, MeshDraws, Shading, View};
use skin_host::rig::{Influence4, Mode, Primitive};
use skin_host::split::split;
use skin_tests::{diagonal, gpu, worst};

/// A rotation by `angle` about the unit `axis`, then a translation `t`.
fn rigid(axis: [f32; 3], angle: f32, t: [f32; 3]) -> Affine<f32> {
    let (s, c) = angle.sin_cos();
    let [x, y, z] = axis;
    let k = 1.0 - c;
    Affine {
        rows: [
            [c + x * x * k, x * y * k - z * s, x * z * k + y * s, t[0]],
            [y * x * k + z * s, c + y * y * k, y * z * k - x * s, t[1]],
            [z * x * k - y * s, z * y * k + x * s, c + z * z * k, t[2]],
        ],
    }
}

/// A tube of `bones` segments along +X, eight vertices a ring, each vertex blended over up
/// to four bones (its segment's and the three before, weights 4:3:2:1 where they exist).
fn tube(bones: usize) -> Primitive {
    let (mut positions, mut normals, mut influences) = (Vec::new(), Vec::new(), Vec::new());
    for i in 0..=bones {
        let b = i.min(bones - 1);
        let mut joints = [b as u16; 4];
        let mut weights = [4.0f32, 0.0, 0.0, 0.0];
        for k in 1..4 {
            if b >= k {
                joints[k] = (b - k) as u16;
                weights[k] = (4 - k) as f32;
            }
        }
        let sum: f32 = weights.iter().sum();
        for r in 0..8 {
            let a = r as f32 * std::f32::consts::FRAC_PI_4;
            let (s, c) = a.sin_cos();
            positions.push([i as f32 * 0.2, 0.3 * c, 0.3 * s]);
            normals.push([0.0, c, s]);
            influences.push(Influence4 {
                joints,
                weights: weights.map(|w| w / sum),
            });
        }
    }
    let mut indices = Vec::new();
    for i in 0..bones as u32 {
        for r in 0..8 {
            let (a, b) = (8 * i + r, 8 * i + (r + 1) % 8);
            indices.extend_from_slice(&[a, a + 8, b, b, a + 8, b + 8]);
        }
    }
    Primitive {
        mode: Mode::Triangles,
        positions,
        normals: Some(normals),
        tangents: None,
        indices: Some(indices),
        influences: Some(influences),
        max_influences: 4,
        largest_dropped: 0.0,
        targets: vec![],
    }
}

/// `n` rigid bone matrices twisting about X up to `turn` radians along the chain (past
/// 180° for `turn` > π), bending about a tilted axis and moving along.
fn chain(n: usize, turn: f32) -> Vec<Affine<f32>> {
    let axis = {
        let v = [0.3f32, 0.8, 0.52];
        let l = v.iter().map(|c| c * c).sum::<f32>().sqrt();
        v.map(|c| c / l)
    };
    (0..n)
        .map(|b| {
            let f = b as f32 / n as f32;
            let twist = rigid([1.0, 0.0, 0.0], turn * f, [0.0; 3]);
            let bend = rigid(axis, 0.4 * f, [0.2 * b as f32, 0.1 * f, -0.05 * f]);
            bend.checked_mul(&twist).expect("finite")
        })
        .collect()
}

/// [`chain`] as unit dual quaternions, every third one negated (the same transform from the
/// other hemisphere, which the blend must flip back).
fn duals(n: usize, turn: f32) -> Vec<Dual<f32>> {
    chain(n, turn)
        .iter()
        .enumerate()
        .map(|(b, m)| {
            let d = Dual::from_rigid(m).expect("a rigid matrix");
            if b % 3 == 2 {
                Dual {
                    real: d.real.map(|v| -v),
                    dual: d.dual.map(|v| -v),
                }
            } else {
                d
            }
        })
        .collect()
}

/// skin-core's `f32` DQS positions and normals of `mesh`.
fn core_dqs(mesh: &GpuMesh, palette: &[Dual<f32>]) -> (Vec<[f32; 3]>, Vec<[f32; 3]>) {
    let n = mesh.len();
    let (mut p, mut nrm) = (vec![[0.0; 3]; n], vec![[0.0; 3]; n]);
    SkinnedMesh::<f32, 4>::new(mesh.positions(), mesh.influences())
        .and_then(|m| m.skin_dqs_with_normals(palette, mesh.normals(), &mut p, &mut nrm))
        .unwrap();
    (p, nrm)
}

#[test]
fn dqs_compute_and_vertex_paths_skin_like_the_core() {
    let Some(gpu) = gpu("dqs_compute_and_vertex_paths_skin_like_the_core") else {
        return;
    };
    // 60 bones: one draw call under vs_2_0 (128 dual quaternions), split under vs_1_1 (48).
    let prim = tube(60);
    let mesh = GpuMesh::from_primitive(&prim).unwrap();
    let parts = GpuMesh::from_split(&prim, &split(&prim, 48).unwrap()).unwrap();
    assert!(parts.draws.len() > 1, "vs_1_1 splits the 60-bone tube");
    for turn in [0.0f32, 1.0, 3.6, 6.0] {
        let pal = duals(60, turn);
        let (want, want_n) = core_dqs(&mesh, &pal);
        let tol = 1e-5 * diagonal(&want);
        let compute = gpu.skin_compute(&mesh, &pal).unwrap();
        assert!(
            worst(&compute.positions, &want) <= tol,
            "compute, turn {turn}"
        );
        assert!(worst(&compute.normals, &want_n) <= 1e-5, "turn {turn}");
        let one = gpu
            .skin_vertex(
                &mesh,
                &pal,
                &mesh.single_draw(60),
                Budget::VS_2_0,
                Layout::Affine3x4,
            )
            .unwrap();
        assert!(one.drawn.iter().all(|&d| d));
        assert_eq!(one.draw_calls, 1);
        assert!(
            worst(&one.skinned.positions, &want) <= tol,
            "vertex, turn {turn}"
        );
        assert!(worst(&one.skinned.normals, &want_n) <= 1e-5, "turn {turn}");
        let split = gpu
            .skin_vertex(
                &parts.mesh,
                &pal,
                &parts.draws,
                Budget::VS_1_1,
                Layout::Affine3x4,
            )
            .unwrap();
        assert_eq!(split.draw_calls, parts.draws.len());
        for (s, &o) in parts.origin.iter().enumerate() {
            assert!(split.drawn[s]);
            let (got, want) = (split.skinned.positions[s], want[o as usize]);
            assert!(
                worst(&[got], &[want]) <= tol,
                "split vertex {s}, turn {turn}"
            );
        }
    }
    // A single draw call past the dual quaternion budget is refused, as for matrices.
    let pal = duals(60, 1.0);
    let err = gpu
        .skin_vertex(
            &mesh,
            &pal,
            &mesh.single_draw(60),
            Budget::VS_1_1,
            Layout::Affine3x4,
        )
        .unwrap_err();
    assert!(matches!(err, GpuError::Budget { draw: 0, .. }), "{err:?}");
}

/// The middle ring's smallest distance from the axis, over `positions` of the candy tube.
fn middle_radius(prim: &Primitive, positions: &[[f32; 3]]) -> f32 {
    prim.positions
        .iter()
        .zip(positions)
        .filter(|(bind, _)| (bind[0] - 1.0).abs() < 1e-6)
        .map(|(_, p)| (p[1] * p[1] + p[2] * p[2]).sqrt())
        .fold(f32::INFINITY, f32::min)
}

#[test]
fn the_candy_wrapper_on_the_gpu_collapses_under_lbs_not_under_dqs() {
    let Some(gpu) = gpu("the_candy_wrapper_on_the_gpu_collapses_under_lbs_not_under_dqs") else {
        return;
    };
    // A tube along x from 0 to 2 (radius 0.3): bone 0 still, bone 1 twisted 180° about the
    // axis, weights going linearly from bone 0 to bone 1.
    let mut prim = tube(10);
    for (p, inf) in prim.positions.iter().zip(prim.influences.as_mut().unwrap()) {
        let w = p[0] / 2.0;
        *inf = Influence4 {
            joints: [0, 1, 0, 0],
            weights: [1.0 - w, w, 0.0, 0.0],
        };
    }
    let mesh = GpuMesh::from_primitive(&prim).unwrap();
    let matrices = [
        Affine::IDENTITY,
        rigid([1.0, 0.0, 0.0], std::f32::consts::PI, [0.0; 3]),
    ];
    let duals = matrices.map(|m| Dual::from_rigid(&m).unwrap());
    let lbs = gpu.skin_compute(&mesh, &matrices).unwrap();
    let dqs = gpu.skin_compute(&mesh, &duals).unwrap();
    let (lbs, dqs) = (
        middle_radius(&prim, &lbs.positions),
        middle_radius(&prim, &dqs.positions),
    );
    assert!(
        lbs < 0.01,
        "LBS flattens the middle ring to the axis ({lbs})"
    );
    assert!(
        dqs >= 0.9 * 0.3,
        "DQS keeps the middle ring's radius ({dqs})"
    );
    let drawn = gpu
        .skin_vertex(
            &mesh,
            &duals,
            &mesh.single_draw(2),
            Budget::VS_1_1,
            Layout::Affine3x4,
        )
        .unwrap();
    let r = middle_radius(&prim, &drawn.skinned.positions);
    assert!(r >= 0.9 * 0.3, "the vertex path too ({r})");
}

#[test]
fn a_dqs_picture_of_rigid_bones_is_the_lbs_picture() {
    let Some(gpu) = gpu("a_dqs_picture_of_rigid_bones_is_the_lbs_picture") else {
        return;
    };
    // One bone a vertex: DQS is LBS up to rounding, so the pictures agree.
    let mut prim = tube(12);
    for inf in prim.influences.as_mut().unwrap() {
        *inf = Influence4 {
            joints: [inf.joints[0], 0, 0, 0],
            weights: [1.0, 0.0, 0.0, 0.0],
        };
    }
    let mesh = GpuMesh::from_primitive(&prim).unwrap();
    let duals = duals(12, 2.0);
    let matrices = chain(12, 2.0);
    let (want, _) = core_dqs(&mesh, &duals);
    let cam = Camera::frame(&Bounds::of(want.iter().copied()).unwrap(), 160, 160).unwrap();
    let view = View::scene(cam, 160, 160, Shading::Lambert);
    let draws = mesh.single_draw(12);
    let picture = |palette: Bones<'_>| {
        let batch = MeshDraws {
            mesh: &mesh,
            palette,
            weights: &[],
            draws: &draws,
        };
        gpu.render(&[batch], &view, Budget::VS_1_1, Layout::Affine3x4)
            .unwrap()
    };
    let (dqs, lbs) = (picture((&duals).into()), picture((&matrices).into()));
    let background = skin_core::scene::BACKGROUND;
    let lit = dqs.pixels.iter().filter(|&&c| c != background).count();
    assert!(lit > 1500, "the tube covers the picture ({lit} pixels)");
    let differ = dqs
        .pixels
        .iter()
        .zip(&lbs.pixels)
        .filter(|(a, b)| a != b)
        .count();
    assert!(
        differ * 100 <= dqs.pixels.len(),
        "{differ} of {} pixels differ",
        dqs.pixels.len()
    );
}

#[test]
fn bad_dual_quaternion_palettes_are_typed_errors() {
    let Some(gpu) = gpu("bad_dual_quaternion_palettes_are_typed_errors") else {
        return;
    };
    let mesh = GpuMesh::from_primitive(&tube(4)).unwrap();
    let mut pal = duals(4, 1.0);
    assert!(matches!(
        gpu.skin_compute(&mesh, &pal[..3]).unwrap_err(),
        GpuError::Bone {
            bone: 3,
            palette: 3,
            ..
        }
    ));
    pal[2].dual[1] = f32::NAN;
    assert_eq!(
        gpu.skin_compute(&mesh, &pal).unwrap_err().to_string(),
        "palette dual quaternion 2 is not finite"
    );
    let pal = duals(4, 1.0);
    assert_eq!(
        gpu.skin_vertex(
            &mesh,
            &pal,
            &mesh.single_draw(4),
            Budget::OES_MATRIX_PALETTE,
            Layout::Affine3x4
        )
        .unwrap_err()
        .to_string(),
        "budget oes_matrix_palette holds no dq bones"
    );
}
