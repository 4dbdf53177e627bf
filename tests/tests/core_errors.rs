//! Every validation error of skin-core: the exact variant, and a message that says what and
//! where.

use skin_core::error::Quantity;
use skin_core::lane::{Lane, Q14};
use skin_core::num::{Fx, NumError, Real};
use skin_core::prelude::*;

/// `result` is exactly `want`, and its message mentions every one of `words`.
#[track_caller]
fn expect_err<T: std::fmt::Debug>(result: Result<T, Error>, want: Error, words: &[&str]) {
    let err = result.expect_err("expected an error");
    assert_eq!(err, want);
    let msg = err.to_string();
    for w in words {
        assert!(msg.contains(w), "message {msg:?} should mention {w:?}");
    }
}

#[track_caller]
fn expect_num<T: std::fmt::Debug>(result: Result<T, NumError>, want: NumError, words: &[&str]) {
    let err = result.expect_err("expected an error");
    assert_eq!(err, want);
    let msg = err.to_string();
    for w in words {
        assert!(msg.contains(w), "message {msg:?} should mention {w:?}");
    }
}

fn at(x: f32) -> Transform<f32> {
    Transform::from_f32([x, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0], [1.0; 3]).unwrap()
}

mod core_errors {
    use super::*;

    #[test]
    fn bone_index_outside_the_palette() {
        let positions = [[0.0f32; 3], [0.5, 0.0, 0.0]];
        let influences = [
            Influence::<f32>::rigid(0),
            Influence::from_weights([1, 3, 0, 0], [0.5, 0.5, 0.0, 0.0], 1).unwrap(),
        ];
        let mesh = SkinnedMesh::<f32, 2>::new(&positions, &influences).unwrap();
        let mut out = [[0.0f32; 3]; 2];
        let palette = [Affine::IDENTITY; 3];
        expect_err(
            mesh.skin(&palette, &mut out),
            Error::BoneIndex {
                vertex: 1,
                bone: 3,
                bones: 3,
            },
            &["vertex 1", "bone 3", "only 3 bones"],
        );
        let bones = [0u8, 5];
        let rigid = RigidMesh::new(&positions, &bones).unwrap();
        expect_err(
            rigid.skin(&palette, &mut out),
            Error::BoneIndex {
                vertex: 1,
                bone: 5,
                bones: 3,
            },
            &["vertex 1", "bone 5"],
        );
        // The same in the fixed lane.
        let positions = [[Q14::ZERO; 3]];
        let influences = [Influence::<Q14>::rigid(2)];
        let mesh = SkinnedMesh::<Q14, 1>::new(&positions, &influences).unwrap();
        let palette = Palette::<Q14, 4>::identity(2).unwrap();
        let mut out = [[Default::default(); 3]];
        expect_err(
            mesh.skin(palette.as_slice(), &mut out),
            Error::BoneIndex {
                vertex: 0,
                bone: 2,
                bones: 2,
            },
            &["bone 2", "only 2 bones"],
        );
    }

    #[test]
    fn joint_index_outside_the_skeleton() {
        expect_err(
            BindPose::<f32, 4>::new(&[0, 7], &[Affine::IDENTITY; 2], 3),
            Error::JointIndex {
                joint: 1,
                bone: 7,
                bones: 3,
            },
            &["joint 1", "bone 7", "only 3 bones"],
        );
        expect_err(
            BindPose::<f32, 4>::from_bind_world(&[2], &[Affine::IDENTITY; 2]),
            Error::JointIndex {
                joint: 0,
                bone: 2,
                bones: 2,
            },
            &["joint 0", "bone 2"],
        );
    }

    #[test]
    fn negative_weights() {
        expect_err(
            Influence::<f32>::from_weights([0, 1, 2, 3], [1.25, -0.25, 0.0, 0.0], 4),
            Error::NegativeWeight {
                vertex: 4,
                weight: -0.25,
            },
            &["vertex 4", "negative", "-0.25"],
        );
        expect_err(
            Influence::<Q14>::from_weights([0, 1, 2, 3], [0.5, 0.5, -0.5, 0.5], 0),
            Error::NegativeWeight {
                vertex: 0,
                weight: -0.5,
            },
            &["negative"],
        );
        // The implicit fourth weight of the three-weight form.
        expect_err(
            Influence::<f32>::from_three([0, 1, 2, 3], [0.5, 0.5, 0.25], 2),
            Error::NegativeWeight {
                vertex: 2,
                weight: -0.25,
            },
            &["vertex 2", "negative"],
        );
    }

    #[test]
    fn weights_not_summing_to_one() {
        expect_err(
            Influence::<f32>::from_weights([0, 1, 0, 0], [0.5, 0.25, 0.0, 0.0], 9),
            Error::WeightSum {
                vertex: 9,
                sum: 0.75,
            },
            &["vertex 9", "0.75", "not 1"],
        );
        expect_err(
            Influence::<Q14>::from_weights([0, 1, 0, 0], [0.75, 0.75, 0.0, 0.0], 1),
            Error::WeightSum {
                vertex: 1,
                sum: 1.5,
            },
            &["1.5"],
        );
        // Within the tolerance is accepted (and made exact).
        let inf = Influence::<Q14>::from_weights([0, 1, 0, 0], [0.499, 0.5, 0.0, 0.0], 0).unwrap();
        assert_eq!(inf.weights().iter().sum::<f32>(), 1.0);
    }

    #[test]
    fn not_finite_weights() {
        for bad in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
            expect_err(
                Influence::<f32>::from_weights([0, 1, 0, 0], [0.5, bad, 0.0, 0.0], 6),
                Error::NotFinite {
                    what: Quantity::Weight,
                    index: 6,
                },
                &["weight 6", "NaN or infinite"],
            );
            expect_err(
                Influence::<Q14>::from_three([0, 1, 2, 3], [bad, 0.0, 0.0], 6),
                Error::NotFinite {
                    what: Quantity::Weight,
                    index: 6,
                },
                &["weight 6"],
            );
        }
    }

    #[test]
    fn not_finite_positions_and_numbers() {
        for bad in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
            expect_num(<f32 as Lane>::from_f32(bad), NumError::NotFinite, &["NaN"]);
            expect_num(<Q14 as Lane>::from_f32(bad), NumError::NotFinite, &["NaN"]);
            expect_num(<Fx as Real>::from_f32(bad), NumError::NotFinite, &["NaN"]);
            expect_num(<f32 as Real>::from_f32(bad), NumError::NotFinite, &["NaN"]);
            expect_num(
                <Q14 as Lane>::weight_from_f32(bad),
                NumError::NotFinite,
                &["infinite"],
            );
        }
    }

    #[test]
    fn not_finite_transforms_and_inverse_binds() {
        let id = [0.0, 0.0, 0.0, 1.0];
        for bad in [f32::NAN, f32::INFINITY] {
            expect_num(
                Transform::<f32>::from_f32([bad, 0.0, 0.0], id, [1.0; 3]),
                NumError::NotFinite,
                &["NaN"],
            );
            expect_num(
                Transform::<Fx>::from_f32([0.0; 3], [0.0, bad, 0.0, 1.0], [1.0; 3]),
                NumError::NotFinite,
                &["NaN"],
            );
            expect_num(
                Transform::<Fx>::from_f32([0.0; 3], id, [1.0, 1.0, bad]),
                NumError::NotFinite,
                &["NaN"],
            );
            let mut rows = [
                [1.0f32, 0.0, 0.0, 0.0],
                [0.0, 1.0, 0.0, 0.0],
                [0.0, 0.0, 1.0, 0.0],
            ];
            rows[1][3] = bad;
            expect_num(Affine::<f32>::from_f32(rows), NumError::NotFinite, &["NaN"]);
            expect_num(Affine::<Fx>::from_f32(rows), NumError::NotFinite, &["NaN"]);
        }
        // A zero quaternion has no direction.
        expect_num(
            Transform::<f32>::from_f32([0.0; 3], [0.0; 4], [1.0; 3]),
            NumError::OutOfRange,
            &["outside"],
        );
    }

    /// A non-finite matrix built directly (the fields are public) is caught when it is used.
    #[test]
    fn not_finite_matrices_are_caught_downstream() {
        let mut nan = Affine::<f32>::IDENTITY;
        nan.rows[0][0] = f32::NAN;
        assert_eq!(nan.inverse(), None);
        expect_err(
            BindPose::<f32, 2>::from_bind_world(&[0], &[nan]),
            Error::Singular { bone: 0 },
            &["bone 0", "cannot be inverted"],
        );
        // A NaN inverse bind is refused when the bind pose is made.
        expect_err(
            BindPose::<f32, 2>::new(&[0], &[nan], 1),
            Error::NotFinite {
                what: Quantity::InverseBind,
                index: 0,
            },
            &["inverse bind matrix 0", "NaN"],
        );
        // A NaN local transform yields no world matrix.
        let mut t = at(0.0);
        t.translation[1] = f32::INFINITY;
        let skel = Skeleton::<f32, 2>::new(&[None], &[at(0.0)]).unwrap();
        let mut world = [Affine::IDENTITY];
        let err = skel.world(&[t], &mut world).expect_err("an infinite pose");
        assert!(
            matches!(
                err,
                Error::Overflow {
                    what: Quantity::WorldMatrix,
                    index: 0,
                    ..
                } | Error::NotFinite {
                    what: Quantity::WorldMatrix | Quantity::LocalTransform,
                    index: 0
                }
            ),
            "{err:?}"
        );
        // Pushing a NaN matrix to an f32 palette is refused as not finite.
        let mut palette = Palette::<f32, 2>::new();
        expect_err(
            palette.push(&nan),
            Error::NotFinite {
                what: Quantity::Palette,
                index: 0,
            },
            &["palette matrix 0", "NaN"],
        );
    }

    #[test]
    fn parent_after_child() {
        expect_err(
            Skeleton::<f32, 8>::new(&[None, Some(2), Some(0)], &[at(1.0); 3]),
            Error::ParentOrder { bone: 1, parent: 2 },
            &["bone 1", "parent 2", "comes after"],
        );
    }

    #[test]
    fn cycles() {
        expect_err(
            Skeleton::<f32, 8>::new(&[None, Some(2), Some(1)], &[at(1.0); 3]),
            Error::Cycle { bone: 1 },
            &["bone 1", "cycle"],
        );
        // A bone that is its own parent.
        expect_err(
            Skeleton::<f32, 8>::new(&[None, Some(1)], &[at(1.0); 2]),
            Error::Cycle { bone: 1 },
            &["cycle"],
        );
        // No bone without a parent: every bone is on or below a cycle.
        expect_err(
            Skeleton::<f32, 8>::new(&[Some(1), Some(0)], &[at(1.0); 2]),
            Error::Cycle { bone: 0 },
            &["bone 0", "cycle"],
        );
    }

    #[test]
    fn parent_index_out_of_range() {
        expect_err(
            Skeleton::<f32, 8>::new(&[None, Some(0), Some(9)], &[at(1.0); 3]),
            Error::ParentIndex { bone: 2, parent: 9 },
            &["bone 2", "parent 9", "does not exist"],
        );
    }

    #[test]
    fn no_root() {
        expect_err(
            Skeleton::<f32, 8>::new(&[], &[]),
            Error::NoRoot,
            &["no root"],
        );
    }

    #[test]
    fn skeleton_larger_than_capacity() {
        let parents: Vec<Option<u16>> = (0..9u16).map(|i| i.checked_sub(1)).collect();
        expect_err(
            Skeleton::<Fx, 8>::new(&parents, &[Transform::IDENTITY; 9]),
            Error::Capacity {
                len: 9,
                capacity: 8,
            },
            &["9", "capacity of 8"],
        );
        expect_err(
            BindPose::<f32, 2>::new(&[0, 1, 2], &[Affine::IDENTITY; 3], 3),
            Error::Capacity {
                len: 3,
                capacity: 2,
            },
            &["capacity of 2"],
        );
        expect_err(
            BindPose::<f32, 2>::from_bind_world(&[0, 1, 2], &[Affine::IDENTITY; 3]),
            Error::Capacity {
                len: 3,
                capacity: 2,
            },
            &["capacity of 2"],
        );
        let mut palette = Palette::<Q14, 2>::identity(2).unwrap();
        expect_err(
            palette.push(&Affine::IDENTITY),
            Error::Capacity {
                len: 3,
                capacity: 2,
            },
            &["3 items", "capacity of 2"],
        );
        expect_err(
            palette.push_narrow(palette.as_slice()[0]),
            Error::Capacity {
                len: 3,
                capacity: 2,
            },
            &["capacity of 2"],
        );
        expect_err(
            Palette::<f32, 2>::identity(3),
            Error::Capacity {
                len: 3,
                capacity: 2,
            },
            &["capacity"],
        );
    }

    #[test]
    fn budget_exceeded() {
        expect_err(
            Budget::VS_1_1.check(33, Layout::Affine3x4),
            Error::BudgetExceeded {
                bones: 33,
                capacity: 32,
                budget: "vs_1_1",
                layout: Layout::Affine3x4,
            },
            &["33 bones", "vs_1_1", "32", "3x4"],
        );
        expect_err(
            Budget::GLES2.reserve(8).check(31, Layout::Mat4x4),
            Error::BudgetExceeded {
                bones: 31,
                capacity: 30,
                budget: "gles2",
                layout: Layout::Mat4x4,
            },
            &["31 bones", "gles2", "30", "4x4"],
        );
        let joints: Vec<u16> = (0..25).collect();
        let bind = BindPose::<f32, 32>::new(&joints, &[Affine::IDENTITY; 25], 25).unwrap();
        assert_eq!(
            bind.check_budget(&Budget::VS_1_1, Layout::Affine3x4),
            Ok(())
        );
        expect_err(
            bind.check_budget(&Budget::VS_1_1, Layout::Mat4x4),
            Error::BudgetExceeded {
                bones: 25,
                capacity: 24,
                budget: "vs_1_1",
                layout: Layout::Mat4x4,
            },
            &["25 bones", "24"],
        );
        expect_err(
            bind.check_budget(&Budget::OES_MATRIX_PALETTE, Layout::DualQuat),
            Error::BudgetExceeded {
                bones: 25,
                capacity: 0,
                budget: "oes_matrix_palette",
                layout: Layout::DualQuat,
            },
            &["oes_matrix_palette", "dq"],
        );
    }

    #[test]
    fn values_overflowing_the_fixed_formats() {
        expect_num(
            <Fx as Real>::from_f32(128.0),
            NumError::OutOfRange,
            &["range"],
        );
        expect_num(
            <Fx as Real>::from_f32(-1.0e9),
            NumError::OutOfRange,
            &["range"],
        );
        expect_num(
            <Q14 as Lane>::from_f32(2.0),
            NumError::OutOfRange,
            &["range"],
        );
        expect_num(
            <Q14 as Lane>::from_f32(-2.5),
            NumError::OutOfRange,
            &["range"],
        );
        expect_num(
            <Q14 as Lane>::weight_from_f32(1.5),
            NumError::OutOfRange,
            &["range"],
        );
        expect_num(
            Transform::<Fx>::from_f32([200.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0], [1.0; 3]),
            NumError::OutOfRange,
            &["range"],
        );
        // A palette matrix whose translation leaves Q14's [−8, 8) (its [−2, 2) at the largest
        // palette exponent, 2).
        let bind = BindPose::<Fx, 4>::new(&[0, 1], &[Affine::IDENTITY; 2], 2).unwrap();
        let far = Affine::<Fx>::from_f32([
            [1.0, 0.0, 0.0, 0.0],
            [0.0, 1.0, 0.0, 9.0],
            [0.0, 0.0, 1.0, 0.0],
        ])
        .unwrap();
        let mut palette = Palette::<Q14, 4>::new();
        expect_err(
            bind.palette(&[Affine::IDENTITY, far], &mut palette),
            Error::Overflow {
                what: Quantity::Palette,
                index: 1,
                format: "I2F14",
            },
            &["palette matrix 1", "I2F14"],
        );
        // A row whose linear part has L1 norm ≥ 8 (scale 8: beyond 2 even at the largest
        // palette exponent, 2) is refused as well.
        let scaled = Transform::<Fx>::from_f32([0.0; 3], [0.0, 0.0, 0.0, 1.0], [8.0; 3])
            .unwrap()
            .to_affine();
        expect_err(
            bind.palette(&[scaled, Affine::IDENTITY], &mut palette),
            Error::Overflow {
                what: Quantity::Palette,
                index: 0,
                format: "I2F14",
            },
            &["palette matrix 0 is out of range for I2F14"],
        );
        // Forward kinematics leaving the I8F24 palette limit.
        let up =
            Transform::<Fx>::from_f32([0.0, 40.0, 0.0], [0.0, 0.0, 0.0, 1.0], [1.0; 3]).unwrap();
        let skel = Skeleton::<Fx, 4>::new(&[None, Some(0)], &[up; 2]).unwrap();
        let mut world = [Affine::IDENTITY; 2];
        expect_err(
            skel.world(&[up; 2], &mut world),
            Error::Overflow {
                what: Quantity::WorldMatrix,
                index: 1,
                format: "I8F24",
            },
            &["world matrix 1", "I8F24"],
        );
        // The I8F24 product W·B⁻¹ leaving its limit.
        let bind =
            BindPose::<Fx, 4>::new(&[0], &[Affine::translation([Fx::from_num(40); 3])], 1).unwrap();
        let w = Affine::translation([Fx::from_num(40); 3]);
        expect_err(
            bind.palette(&[w], &mut palette),
            Error::Overflow {
                what: Quantity::Palette,
                index: 0,
                format: "I8F24",
            },
            &["palette matrix 0", "I8F24"],
        );
    }

    #[test]
    fn singular_inverse_bind() {
        let flat = Transform::<f32>::from_f32([1.0; 3], [0.0, 0.0, 0.0, 1.0], [1.0, 0.0, 1.0])
            .unwrap()
            .to_affine();
        expect_err(
            BindPose::<f32, 4>::from_bind_world(&[0, 1], &[Affine::IDENTITY, flat]),
            Error::Singular { bone: 1 },
            &["bone 1", "cannot be inverted"],
        );
        let tiny = Transform::<Fx>::from_f32([0.0; 3], [0.0, 0.0, 0.0, 1.0], [0.01; 3])
            .unwrap()
            .to_affine();
        expect_err(
            BindPose::<Fx, 4>::from_bind_world(&[0], &[tiny]),
            Error::Singular { bone: 0 },
            &["bone 0"],
        );
    }

    #[test]
    fn too_many_influences_for_the_kernel() {
        let positions = [[0.0f32; 3]; 2];
        let influences = [
            Influence::<f32>::rigid(0),
            Influence::from_weights([0, 1, 2, 0], [0.5, 0.25, 0.25, 0.0], 1).unwrap(),
        ];
        expect_err(
            SkinnedMesh::<f32, 2>::new(&positions, &influences),
            Error::Influences {
                vertex: 1,
                used: 3,
                max: 2,
            },
            &["vertex 1", "3 influences", "at most 2"],
        );
        assert!(SkinnedMesh::<f32, 3>::new(&positions, &influences).is_ok());
        let positions = [[Q14::ZERO; 3]];
        let influences = [Influence::<Q14>::from_weights([0, 1, 2, 3], [0.25; 4], 0).unwrap()];
        expect_err(
            SkinnedMesh::<Q14, 1>::new(&positions, &influences),
            Error::Influences {
                vertex: 0,
                used: 4,
                max: 1,
            },
            &["4 influences", "at most 1"],
        );
    }

    #[test]
    fn length_mismatches() {
        let mismatch = |expected, actual| Error::LengthMismatch { expected, actual };
        let words: &[&str] = &["expected 2", "got 1"];
        expect_err(
            Skeleton::<f32, 4>::new(&[None, Some(0)], &[at(1.0)]),
            mismatch(2, 1),
            words,
        );
        let skel = Skeleton::<f32, 4>::new(&[None, Some(0)], &[at(1.0); 2]).unwrap();
        let mut world = [Affine::IDENTITY; 2];
        expect_err(skel.world(&[at(1.0)], &mut world), mismatch(2, 1), words);
        expect_err(
            skel.world(&[at(1.0); 2], &mut world[..1]),
            mismatch(2, 1),
            words,
        );
        expect_err(
            BindPose::<f32, 4>::new(&[0, 1], &[Affine::IDENTITY], 2),
            mismatch(2, 1),
            words,
        );
        let bind = BindPose::<f32, 4>::new(&[0, 1], &[Affine::IDENTITY; 2], 2).unwrap();
        let mut palette = Palette::<f32, 4>::new();
        expect_err(
            bind.palette(&[Affine::IDENTITY], &mut palette),
            mismatch(2, 1),
            words,
        );
        let positions = [[0.0f32; 3]; 2];
        expect_err(RigidMesh::new(&positions, &[0]), mismatch(2, 1), words);
        expect_err(
            SkinnedMesh::<f32, 4>::new(&positions, &[Influence::rigid(0)]),
            mismatch(2, 1),
            words,
        );
        let bones = [0u8; 2];
        let influences = [Influence::<f32>::rigid(0); 2];
        let rigid = RigidMesh::new(&positions, &bones).unwrap();
        let skinned = SkinnedMesh::<f32, 4>::new(&positions, &influences).unwrap();
        let pal = [Affine::IDENTITY];
        let mut out = [[0.0f32; 3]; 2];
        let mut out_n = [[0.0f32; 3]; 2];
        expect_err(rigid.skin(&pal, &mut out[..1]), mismatch(2, 1), words);
        expect_err(skinned.skin(&pal, &mut out[..1]), mismatch(2, 1), words);
        let normals = [[0.0f32, 0.0, 1.0]; 2];
        expect_err(
            rigid.skin_with_normals(&pal, &normals[..1], &mut out, &mut out_n),
            mismatch(2, 1),
            words,
        );
        expect_err(
            skinned.skin_with_normals(&pal, &normals, &mut out, &mut out_n[..1]),
            mismatch(2, 1),
            words,
        );
    }
}
