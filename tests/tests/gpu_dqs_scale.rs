//! Dual quaternion skinning of joints with scale or shear (Kavan et al.'s split) on the GPU
//! reference: the compute path and the vertex shader (one draw call, and the palette
//! splits of vs_1_1) against skin-core's `f32` stretched loop and the independent f64
//! oracle, on random rigs of stretched joints and on the generated squash-and-stretch
//! worms posed through `skin_host::gpu::Model`; and the refusals of bad stretches.
//!
//! Limits: positions within 1e-5 of the extent (the `f32` limit of `skin validate`);
//! normals within 1e-4 per coordinate, as `skin_dqs_scale` holds the core to (the
//! cofactors of a 4× stretch multiply a rotation entry's rounding by up to 16).
//!
//! Needs a wgpu adapter (lavapipe on machines without a GPU): without one each test says
//! SKIPPED, or fails under `SKIN_REQUIRE_ALL=1`.

use skin_core::budget::{Budget, Layout};
use skin_core::dual::Stretches;
use skin_core::skin::SkinnedMesh;
use skin_host::gpu::{Bones, FramePalette, GpuError, GpuMesh, Model, Skinned};
use skin_host::pose::Skinning;
use skin_host::rig::{Influence4, Mode, Primitive};
use skin_host::split::split;
use skin_tests::dual_oracle::{self, StretchedBone};
use skin_tests::gltf_gen::{squash_stretch_worm, KEY_TIMES};
use skin_tests::oracle::V3;
use skin_tests::stretched_rig::{coord_error, oracle_bones, Rig};
use skin_tests::{diagonal, gpu, import_gen, worst};

/// Vertices this close to the blend's discontinuity (a bone 180° from the lead one) may be
/// flipped either way by `f32` rounding (as in `core_dqs`).
const MARGIN: f64 = 1e-5;

/// The rig as a triangle primitive: vertex `v` in triangle `(v, v+1, v+2)` (wrapping), so
/// that every vertex is drawn.
fn primitive(rig: &Rig) -> Primitive {
    let n = rig.positions.len() as u32;
    Primitive {
        mode: Mode::Triangles,
        positions: rig.positions.clone(),
        normals: Some(rig.normals.clone()),
        tangents: None,
        indices: Some((0..n).flat_map(|v| [v, (v + 1) % n, (v + 2) % n]).collect()),
        influences: Some(
            rig.influences
                .iter()
                .map(|i| Influence4 {
                    joints: i.bones().map(u16::from),
                    weights: i.weights(),
                })
                .collect(),
        ),
        max_influences: 4,
        largest_dropped: 0.0,
        targets: vec![],
    }
}

/// `got` against skin-core's (`want`, positions within 1e-5 of the extent, normals
/// within 1e-4) and the oracle's (`oracle`: positions, normals and hemisphere margins;
/// vertices within [`MARGIN`] of the discontinuity skipped), vertex `origin[s]` of the
/// whole mesh for `got`'s vertex `s`.
fn check(what: &str, got: &Skinned, origin: &[usize], want: &Skinned, oracle: &[(V3, V3, f64)]) {
    let extent = diagonal(&want.positions);
    for (s, &v) in origin.iter().enumerate() {
        let (p, n) = (got.positions[s], got.normals[s]);
        let err = worst(&[p], &[want.positions[v]]);
        assert!(
            err <= 1e-5 * extent,
            "{what}: vertex {v} {p:?} vs the core's {:?}: {err:e} > 1e-5 × extent {extent:e}",
            want.positions[v]
        );
        let err = worst(&[n], &[want.normals[v]]);
        assert!(
            err <= 1e-4,
            "{what}: normal {v} {n:?} vs the core's: {err:e}"
        );
        let (op, on, margin) = oracle[v];
        if margin < MARGIN {
            continue;
        }
        let err = coord_error(p, op);
        assert!(
            err <= 1e-5 * extent,
            "{what}: vertex {v} {p:?} vs the oracle's {op:?}: {err:e} > 1e-5 × extent {extent:e}"
        );
        let err = coord_error(n, on);
        assert!(
            err <= 1e-4,
            "{what}: normal {v} {n:?} vs the oracle's {on:?}: {err:e}"
        );
    }
}

/// skin-core's stretched DQS of `mesh`.
fn core(mesh: &GpuMesh, palette: &FramePalette) -> Skinned {
    let FramePalette::Stretched(duals, stretches) = palette else {
        panic!("a stretched palette");
    };
    let n = mesh.len();
    let (mut positions, mut normals) = (vec![[0.0; 3]; n], vec![[0.0; 3]; n]);
    SkinnedMesh::<f32, 4>::new(mesh.positions(), mesh.influences())
        .and_then(|m| {
            m.skin_dqs_stretched_with_normals(
                duals,
                Some(Stretches {
                    matrices: stretches,
                    exponent: 0,
                }),
                mesh.normals(),
                &mut positions,
                &mut normals,
            )
        })
        .unwrap();
    Skinned { positions, normals }
}

/// The oracle's positions, normals and hemisphere margins of `mesh`'s vertices.
fn oracle_of(bones: &[StretchedBone], mesh: &GpuMesh) -> Vec<(V3, V3, f64)> {
    let rigid: Vec<_> = bones.iter().map(|b| b.bone).collect();
    mesh.influences()
        .iter()
        .zip(mesh.positions().iter().zip(mesh.normals()))
        .map(|(inf, (p, n))| {
            let index: Vec<usize> = inf.bones().iter().map(|&b| usize::from(b)).collect();
            let w: Vec<f64> = inf.weights().iter().map(|&w| f64::from(w)).collect();
            (
                dual_oracle::stretched_point(bones, &index, &w, p.map(f64::from)),
                dual_oracle::stretched_normal(bones, &index, &w, n.map(f64::from)),
                dual_oracle::hemisphere_margin(&rigid, &index, &w),
            )
        })
        .collect()
}

/// The compute path, one vertex-shader draw call under `single` and the palette splits of
/// vs_1_1 (48 dual quaternions), each against the core and the oracle.
fn every_path(what: &str, prim: &Primitive, palette: &FramePalette, bones: &[StretchedBone]) {
    let gpu = gpu(what).expect("checked by the caller");
    let mesh = GpuMesh::from_primitive(prim).unwrap();
    let want = core(&mesh, palette);
    let oracle = oracle_of(bones, &mesh);
    let all: Vec<usize> = (0..mesh.len()).collect();
    let compute = gpu.skin_compute(&mesh, palette.bones()).unwrap();
    check(&format!("{what}, compute"), &compute, &all, &want, &oracle);
    let single = gpu
        .skin_vertex(
            &mesh,
            palette.bones(),
            &mesh.single_draw(palette.len()),
            Budget::VS_2_0,
            Layout::Affine3x4,
        )
        .unwrap();
    assert!(
        single.drawn.iter().all(|&d| d),
        "{what}: every vertex drawn"
    );
    check(
        &format!("{what}, vertex"),
        &single.skinned,
        &all,
        &want,
        &oracle,
    );
    let parts = GpuMesh::from_split(prim, &split(prim, 48).unwrap()).unwrap();
    let drawn = gpu
        .skin_vertex(
            &parts.mesh,
            palette.bones(),
            &parts.draws,
            Budget::VS_1_1,
            Layout::Affine3x4,
        )
        .unwrap();
    assert_eq!(drawn.draw_calls, parts.draws.len());
    assert!(
        drawn.drawn.iter().all(|&d| d),
        "{what}: every split vertex drawn"
    );
    let origin: Vec<usize> = parts.origin.iter().map(|&v| v as usize).collect();
    check(
        &format!("{what}, split"),
        &drawn.skinned,
        &origin,
        &want,
        &oracle,
    );
}

#[test]
fn random_stretched_rigs_match_the_core_and_the_oracle_on_every_path() {
    let name = "random_stretched_rigs_match_the_core_and_the_oracle_on_every_path";
    if gpu(name).is_none() {
        return;
    }
    // 96 bones: one draw call under vs_2_0 (128 dual quaternions), splits under vs_1_1.
    for (seed, per_axis) in [(1, false), (2, true), (3, true), (4, false)] {
        let rig = Rig::random(seed, 96, per_axis, false);
        let prim = primitive(&rig);
        let palette = rig.palette::<f32>();
        let (duals, stretches) = (palette.duals(), palette.stretches().expect("stretched"));
        let palette = FramePalette::Stretched(duals.to_vec(), stretches.matrices.to_vec());
        let parts = split(&prim, 48).unwrap();
        assert!(parts.parts.len() > 1, "vs_1_1 splits the 96-bone rig");
        every_path(&format!("seed {seed}"), &prim, &palette, &rig.bones);
    }
}

#[test]
fn the_squash_and_stretch_worms_on_the_gpu_match_the_core_and_the_oracle() {
    let name = "the_squash_and_stretch_worms_on_the_gpu_match_the_core_and_the_oracle";
    if gpu(name).is_none() {
        return;
    }
    use skin_host::pose::animate;
    for uniform in [true, false] {
        let rig = import_gen(&squash_stretch_worm(uniform)).unwrap();
        let model =
            Model::with_skinning(&rig, Budget::VS_1_1, Layout::Affine3x4, Skinning::Dqs).unwrap();
        let mut stretched = 0;
        for t in KEY_TIMES {
            let palettes = model.palettes(&rig, Some((0, t))).unwrap();
            let locals = animate::frame::<f32>(&rig, Some((0, t)), 0).unwrap();
            for (prim, palette) in model.primitives.iter().zip(&palettes) {
                let FramePalette::Stretched(..) = palette else {
                    // Scale 1 at the first key: the plain palette and shader.
                    assert!(matches!(palette, FramePalette::Duals(_)), "t {t}");
                    continue;
                };
                stretched += 1;
                let bones = oracle_bones(&rig, &locals);
                let glb = &rig.meshes[prim.mesh].primitives[prim.primitive];
                let what = format!("uniform {uniform}, t {t}");
                every_path(&what, glb, palette, &bones);
            }
        }
        assert!(
            stretched >= 3,
            "three key times scale the worm ({stretched})"
        );
    }
}

#[test]
fn bad_stretches_are_typed_errors() {
    let Some(gpu) = gpu("bad_stretches_are_typed_errors") else {
        return;
    };
    let rig = Rig::random(7, 4, true, false);
    let mesh = GpuMesh::from_primitive(&primitive(&rig)).unwrap();
    let palette = rig.palette::<f32>();
    let duals = palette.duals();
    let mut stretches = palette.stretches().expect("stretched").matrices.to_vec();
    let err = gpu
        .skin_compute(&mesh, Bones::Stretched(duals, &stretches[..3]))
        .unwrap_err();
    assert!(
        matches!(
            err,
            GpuError::Stretches {
                duals: 4,
                stretches: 3
            }
        ),
        "{err:?}"
    );
    assert_eq!(
        err.to_string(),
        "the palette has 4 dual quaternions but 3 stretches (one of each a joint)"
    );
    stretches[2][1][0] = f32::INFINITY;
    let err = gpu
        .skin_vertex(
            &mesh,
            Bones::Stretched(duals, &stretches),
            &mesh.single_draw(4),
            Budget::VS_1_1,
            Layout::Affine3x4,
        )
        .unwrap_err();
    assert_eq!(err.to_string(), "palette stretch 2 is not finite");
}
