//! The properties of skinning that the sources state, checked on skin-core in both lanes:
//! stitching is LBS with one weight of one; the bind pose leaves the mesh in place; blending
//! matrices then transforming equals transforming then blending; a rigid motion of the whole
//! skeleton moves the mesh rigidly; and LBS's known candy-wrapper collapse.

mod core_rig;

use core_rig::{Rig, CAP};
use proptest::prelude::*;
use proptest::test_runner::Config;
use skin_core::lane::{Out16, FIXED_ERROR_BOUND, Q14};
use skin_core::num::Fx;
use skin_core::prelude::*;
use skin_tests::oracle;

/// Palette indices (one per vertex) and stitched / single-weight influences over them.
fn rigid_inputs<L: Lane>(rig: &Rig, seed: u64) -> (Vec<u8>, Vec<Influence<L>>) {
    let mut rng = core_rig::Rng::new(seed);
    let n = rig.joints.len();
    let bones: Vec<u8> = (0..rig.positions.len())
        .map(|_| rng.below(n) as u8)
        .collect();
    let influences = bones
        .iter()
        .enumerate()
        .map(|(v, &b)| {
            // Other slots name other bones, with weight zero.
            let others = [0; 3].map(|_| rng.below(n) as u8);
            let inf = Influence::<L>::from_weights(
                [b, others[0], others[1], others[2]],
                [1.0, 0.0, 0.0, 0.0],
                v,
            )
            .unwrap();
            assert_eq!(inf.bones()[0], b, "the weight-one bone comes first");
            inf
        })
        .collect();
    (bones, influences)
}

/// Stitching and 4-influence LBS with one weight of one give bit-identical results.
fn stitching_is_lbs<L: Lane>(rig: &Rig, seed: u64, palette: &Palette<L, CAP>) {
    let positions = rig.core_positions::<L>();
    let normals = rig.core_normals::<L>();
    let (bones, influences) = rigid_inputs::<L>(rig, seed);
    let n = positions.len();
    let rigid = RigidMesh::new(&positions, &bones).unwrap();
    let skinned = SkinnedMesh::<L, 4>::new(&positions, &influences).unwrap();
    let (mut a, mut b) = (
        vec![[L::Out::default(); 3]; n],
        vec![[L::Out::default(); 3]; n],
    );
    let (mut an, mut bn) = (vec![[L::default(); 3]; n], vec![[L::default(); 3]; n]);
    rigid
        .skin_with_normals(palette.as_slice(), &normals, &mut a, &mut an)
        .unwrap();
    skinned
        .skin_with_normals(palette.as_slice(), &normals, &mut b, &mut bn)
        .unwrap();
    assert_eq!(a, b, "{}: stitched positions differ from LBS", L::NAME);
    assert_eq!(an, bn, "{}: stitched normals differ from LBS", L::NAME);
    // Influence::rigid is the same thing.
    let rigid_inf: Vec<Influence<L>> = bones.iter().map(|&b| Influence::rigid(b)).collect();
    let skinned = SkinnedMesh::<L, 1>::new(&positions, &rigid_inf).unwrap();
    skinned.skin(palette.as_slice(), &mut b).unwrap();
    assert_eq!(a, b, "{}: Influence::rigid differs from stitching", L::NAME);
}

/// Vertices with at most two influences skin identically with K = 2 and K = 4.
fn narrow_kernel_agrees<L: Lane>(rig: &Rig, palette: &Palette<L, CAP>) {
    let positions = rig.core_positions::<L>();
    let influences: Vec<Influence<L>> = rig
        .influences
        .iter()
        .enumerate()
        .map(|(v, i)| {
            let mut w = i.weights;
            w[0] += w[2] + w[3];
            w[2] = 0.0;
            w[3] = 0.0;
            Influence::from_weights(i.bones, w, v).unwrap()
        })
        .collect();
    let n = positions.len();
    let (mut a, mut b) = (
        vec![[L::Out::default(); 3]; n],
        vec![[L::Out::default(); 3]; n],
    );
    SkinnedMesh::<L, 2>::new(&positions, &influences)
        .unwrap()
        .skin(palette.as_slice(), &mut a)
        .unwrap();
    SkinnedMesh::<L, 4>::new(&positions, &influences)
        .unwrap()
        .skin(palette.as_slice(), &mut b)
        .unwrap();
    assert_eq!(a, b, "{}: K = 2 and K = 4 disagree", L::NAME);
}

fn skin<L: Lane>(rig: &Rig, palette: &Palette<L, CAP>) -> Vec<[f64; 3]> {
    rig.core_skin(palette).0
}

fn max_err(a: &[[f64; 3]], b: &[[f64; 3]]) -> f64 {
    a.iter()
        .zip(b)
        .flat_map(|(a, b)| (0..3).map(move |k| (a[k] - b[k]).abs()))
        .fold(0.0, f64::max)
}

mod core_properties {
    use super::*;

    proptest! {
        #![proptest_config(Config::with_cases(32))]

        #[test]
        fn stitching_equals_lbs_with_one_weight_bitwise(seed in any::<u64>(), bones in 19usize..=CAP) {
            let rig = Rig::random(seed, bones, 64, 1.0);
            stitching_is_lbs::<f32>(&rig, seed, &rig.core_palette(Affine::IDENTITY).unwrap());
            stitching_is_lbs::<Q14>(&rig, seed, &rig.core_palette(Affine::IDENTITY).unwrap());
        }

        #[test]
        fn two_influence_kernel_equals_four_on_two_influence_vertices(seed in any::<u64>(), bones in 19usize..=CAP) {
            let rig = Rig::random(seed, bones, 64, 1.0);
            narrow_kernel_agrees::<f32>(&rig, &rig.core_palette(Affine::IDENTITY).unwrap());
            narrow_kernel_agrees::<Q14>(&rig, &rig.core_palette(Affine::IDENTITY).unwrap());
        }

        #[test]
        fn bind_pose_leaves_every_vertex_in_place(seed in any::<u64>(), bones in 19usize..=CAP) {
            let mut rig = Rig::random(seed, bones, 64, 1.0);
            // An identity palette: exact in f32, exact to the output's LSB in fixed point.
            let id32 = Palette::<f32, CAP>::identity(bones).unwrap();
            let out = skin(&rig, &id32);
            for (o, p) in out.iter().zip(&rig.positions) {
                prop_assert_eq!(*o, p.map(f64::from));
            }
            let idq = Palette::<Q14, CAP>::identity(bones).unwrap();
            let out = skin(&rig, &idq);
            let lsb = Out16::DELTA.to_num::<f64>();
            for (o, p) in out.iter().zip(rig.core_positions::<Q14>()) {
                for k in 0..3 {
                    prop_assert!((o[k] - f64::from(p[k].to_num::<f32>())).abs() <= lsb);
                }
            }
            // The same through the skeleton maths: posed exactly as bound (W = B).
            rig.pose = rig.rest.clone();
            let extent = rig.extent();
            let out = skin(&rig, &rig.core_palette::<f32>(Affine::IDENTITY).unwrap());
            let want: Vec<[f64; 3]> = rig.positions.iter().map(|p| p.map(f64::from)).collect();
            let err = max_err(&out, &want);
            prop_assert!(err <= 1e-5 * extent, "f32 W = B moved a vertex by {err:e}");
            let out = skin(&rig, &rig.core_palette::<Q14>(Affine::IDENTITY).unwrap());
            let want: Vec<[f64; 3]> = rig
                .core_positions::<Q14>()
                .iter()
                .map(|p| p.map(|v| f64::from(v.to_num::<f32>())))
                .collect();
            let err = max_err(&out, &want);
            prop_assert!(err <= Q14::DELTA.to_num::<f64>(), "fixed W = B moved a vertex by {err:e}");
        }

        #[test]
        fn blending_matrices_equals_blending_transformed_points(seed in any::<u64>(), bones in 19usize..=CAP) {
            let rig = Rig::random(seed, bones, 64, 1.0);
            let extent = rig.extent();
            // f32: core kernel vs Σ wₖ (Mₖ p) with the core's own matrices.
            let palette = rig.core_palette::<f32>(Affine::IDENTITY).unwrap();
            let blended = skin(&rig, &palette);
            let per_bone: Vec<[f64; 3]> = rig
                .positions
                .iter()
                .zip(rig.core_influences::<f32>())
                .map(|(p, inf)| {
                    let mut acc = [0.0f64; 3];
                    for (b, w) in inf.bones().into_iter().zip(inf.weights()) {
                        let q = palette.as_slice()[usize::from(b)].transform_point(*p);
                        for k in 0..3 {
                            acc[k] += f64::from(w) * f64::from(q[k]);
                        }
                    }
                    acc
                })
                .collect();
            let err = max_err(&blended, &per_bone);
            prop_assert!(err <= 1e-5 * extent, "f32: {err:e}");
            // Fixed: the kernel vs each bone's stitched transform, blended in f64.
            let palette = rig.core_palette::<Q14>(Affine::IDENTITY).unwrap();
            let blended = skin(&rig, &palette);
            let positions = rig.core_positions::<Q14>();
            let influences = rig.core_influences::<Q14>();
            let mut per_bone = vec![[0.0f64; 3]; positions.len()];
            for slot in 0..4 {
                let bones_s: Vec<u8> = influences.iter().map(|i| i.bones()[slot]).collect();
                let mesh = RigidMesh::new(&positions, &bones_s).unwrap();
                let mut out = vec![[Out16::ZERO; 3]; positions.len()];
                mesh.skin(palette.as_slice(), &mut out).unwrap();
                for ((acc, o), inf) in per_bone.iter_mut().zip(&out).zip(&influences) {
                    let w = f64::from(inf.weights()[slot]);
                    for k in 0..3 {
                        acc[k] += w * o[k].to_num::<f64>();
                    }
                }
            }
            let err = max_err(&blended, &per_bone);
            prop_assert!(err <= FIXED_ERROR_BOUND, "fixed: {err:e}");
        }

        #[test]
        fn moving_every_bone_rigidly_moves_the_mesh_rigidly(
            seed in any::<u64>(),
            bones in 19usize..=CAP,
            q in prop::array::uniform4(-1.0f32..1.0),
            t in prop::array::uniform3(-0.05f32..0.05),
        ) {
            prop_assume!(q.iter().map(|v| v * v).sum::<f32>() > 0.01);
            let rig = Rig::random(seed, bones, 64, 1.0);
            let extent = rig.extent();
            let g = oracle::trs(t.map(f64::from), q.map(f64::from), [1.0; 3]);
            let moved = |pts: &[[f64; 3]]| -> Vec<[f64; 3]> {
                pts.iter().map(|p| oracle::transform_point(&g, *p)).collect()
            };
            let g32 = Transform::<f32>::from_f32(t, q, [1.0; 3]).unwrap().to_affine();
            let (base, base_n) = rig.core_skin(&rig.core_palette::<f32>(Affine::IDENTITY).unwrap());
            let (out, out_n) = rig.core_skin(&rig.core_palette::<f32>(g32).unwrap());
            let err = max_err(&out, &moved(&base));
            prop_assert!(err <= 1e-5 * extent, "f32 positions: {err:e}");
            let turned: Vec<[f64; 3]> = base_n.iter().map(|n| oracle::transform_vector(&g, *n)).collect();
            let err = max_err(&out_n, &turned);
            prop_assert!(err <= 2e-5, "f32 normals: {err:e}");

            let gfx = Transform::<Fx>::from_f32(t, q, [1.0; 3]).unwrap().to_affine();
            let base = skin(&rig, &rig.core_palette::<Q14>(Affine::IDENTITY).unwrap());
            let out = skin(&rig, &rig.core_palette::<Q14>(gfx).unwrap());
            let err = max_err(&out, &moved(&base));
            prop_assert!(err <= 2.0 * FIXED_ERROR_BOUND, "fixed positions: {err:e}");
        }
    }

    /// LBS's known artifact, the "candy wrapper": blending the identity with a half turn about
    /// Z, half and half, collapses every vertex onto the Z axis, `(x, y, z) ↦ (0, 0, z)`.
    #[test]
    fn candy_wrapper_half_turn_blend_collapses_onto_the_axis() {
        fn check<L: Lane>() {
            let half_turn =
                Transform::<L::Real>::from_f32([0.0; 3], [0.0, 0.0, 1.0, 0.0], [1.0; 3])
                    .unwrap()
                    .to_affine();
            let mut palette = Palette::<L, 2>::new();
            palette.push(&Affine::IDENTITY).unwrap();
            palette.push(&half_turn).unwrap();
            let raw = [[0.5f32, -0.25, 0.75], [-0.9, 0.6, -0.3], [0.0, 0.8, 0.125]];
            let positions: Vec<[L; 3]> = raw
                .iter()
                .map(|p| p.map(|v| L::from_f32(v).unwrap()))
                .collect();
            let influences: Vec<Influence<L>> = (0..raw.len())
                .map(|v| Influence::from_weights([0, 1, 0, 0], [0.5, 0.5, 0.0, 0.0], v).unwrap())
                .collect();
            let mesh = SkinnedMesh::<L, 2>::new(&positions, &influences).unwrap();
            let mut out = vec![[L::Out::default(); 3]; raw.len()];
            mesh.skin(palette.as_slice(), &mut out).unwrap();
            for (o, p) in out.iter().zip(&positions) {
                let (o, p) = (o.map(L::out_to_f32), p.map(L::to_f32));
                assert_eq!(
                    o,
                    [0.0, 0.0, p[2]],
                    "{}: ({p:?}) should collapse to the Z axis",
                    L::NAME
                );
            }
            // Each bone alone keeps the vertex at its distance from the axis: the collapse is
            // the blend's doing.
            for bone in 0..2u8 {
                let bones = vec![bone; raw.len()];
                let mesh = RigidMesh::new(&positions, &bones).unwrap();
                mesh.skin(palette.as_slice(), &mut out).unwrap();
                for (o, p) in out.iter().zip(&positions) {
                    let (o, p) = (o.map(L::out_to_f32), p.map(L::to_f32));
                    assert_eq!(o[0].hypot(o[1]), p[0].hypot(p[1]));
                }
            }
        }
        check::<f32>();
        check::<Q14>();
    }
}
