//! The f64 oracle itself, checked against values worked out by hand and against its own
//! identities, so that agreeing with it means something.

use skin_tests::oracle::{self, M34};

const EPS: f64 = 1e-12;

fn close(a: &[f64], b: &[f64], tol: f64) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() <= tol)
}

fn flat(m: &M34) -> Vec<f64> {
    m.iter().flatten().copied().collect()
}

mod core_oracle {
    use super::*;

    #[test]
    fn quarter_turns_by_hand() {
        let h = 0.5f64.sqrt();
        // 90° about Z: x → y, y → −x.
        let rz = oracle::quat_to_matrix([0.0, 0.0, h, h]);
        assert!(close(
            &rz.concat(),
            &[0.0, -1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0],
            EPS
        ));
        // 90° about X: y → z, z → −y.
        let rx = oracle::quat_to_matrix([h, 0.0, 0.0, h]);
        assert!(close(
            &rx.concat(),
            &[1.0, 0.0, 0.0, 0.0, 0.0, -1.0, 0.0, 1.0, 0.0],
            EPS
        ));
        // 180° about Y: x → −x, z → −z; an unnormalised input is normalised first.
        let ry = oracle::quat_to_matrix([0.0, 3.0, 0.0, 0.0]);
        assert!(close(
            &ry.concat(),
            &[-1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, -1.0],
            EPS
        ));
    }

    #[test]
    fn trs_scales_then_rotates_then_translates() {
        let h = 0.5f64.sqrt();
        let m = oracle::trs([10.0, 0.0, 0.0], [0.0, 0.0, h, h], [2.0, 3.0, 1.0]);
        // (1, 0, 0) → scale (2, 0, 0) → rotate (0, 2, 0) → translate (10, 2, 0).
        assert!(close(
            &oracle::transform_point(&m, [1.0, 0.0, 0.0]),
            &[10.0, 2.0, 0.0],
            EPS
        ));
        // (0, 1, 0) → (0, 3, 0) → (−3, 0, 0) → (7, 0, 0).
        assert!(close(
            &oracle::transform_point(&m, [0.0, 1.0, 0.0]),
            &[7.0, 0.0, 0.0],
            EPS
        ));
        // Vectors ignore the translation.
        assert!(close(
            &oracle::transform_vector(&m, [0.0, 1.0, 0.0]),
            &[-3.0, 0.0, 0.0],
            EPS
        ));
    }

    #[test]
    fn products_and_inverses() {
        let a = oracle::trs([1.0, -2.0, 3.0], [0.1, 0.7, -0.3, 0.6], [1.5, 0.5, 2.0]);
        let b = oracle::trs([-4.0, 0.5, 2.0], [-0.4, 0.2, 0.8, 0.1], [1.0, 2.0, 0.25]);
        let p = [0.3, -1.2, 2.5];
        // (A·B) p = A (B p).
        let ab = oracle::mul(&a, &b);
        let direct = oracle::transform_point(&a, oracle::transform_point(&b, p));
        assert!(close(&oracle::transform_point(&ab, p), &direct, 1e-12));
        // A⁻¹ A = A A⁻¹ = I.
        let inv = oracle::inverse(&a).unwrap();
        assert!(close(
            &flat(&oracle::mul(&inv, &a)),
            &flat(&oracle::IDENTITY),
            1e-12
        ));
        assert!(close(
            &flat(&oracle::mul(&a, &inv)),
            &flat(&oracle::IDENTITY),
            1e-12
        ));
        // A matrix that needs pivoting (zero on the diagonal).
        let swap = [
            [0.0, 1.0, 0.0, 5.0],
            [1.0, 0.0, 0.0, 6.0],
            [0.0, 0.0, 2.0, 7.0],
        ];
        let want = [
            [0.0, 1.0, 0.0, -6.0],
            [1.0, 0.0, 0.0, -5.0],
            [0.0, 0.0, 0.5, -3.5],
        ];
        assert!(close(
            &flat(&oracle::inverse(&swap).unwrap()),
            &flat(&want),
            EPS
        ));
        // Singular: a zero scale.
        let flat_m = oracle::trs([0.0; 3], [0.0, 0.0, 0.0, 1.0], [1.0, 0.0, 1.0]);
        assert_eq!(oracle::inverse(&flat_m), None);
    }

    #[test]
    fn forward_kinematics_of_a_chain_by_hand() {
        let h = 0.5f64.sqrt();
        // Bone 0 at the origin turned 90° about Z; bone 1 one unit along its parent's X;
        // bone 2 one unit further. Listed child-first to show the order does not matter.
        let turn = oracle::trs([0.0; 3], [0.0, 0.0, h, h], [1.0; 3]);
        let step = oracle::trs([1.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0], [1.0; 3]);
        let parents = [Some(1), Some(2), None];
        let world = oracle::forward_kinematics(&parents, &[step, step, turn], &oracle::IDENTITY);
        let origin = |m: &M34| [m[0][3], m[1][3], m[2][3]];
        assert!(close(&origin(&world[2]), &[0.0, 0.0, 0.0], EPS));
        assert!(close(&origin(&world[1]), &[0.0, 1.0, 0.0], EPS));
        assert!(close(&origin(&world[0]), &[0.0, 2.0, 0.0], EPS));
        // A root matrix moves everything.
        let up = oracle::trs([0.0, 0.0, 5.0], [0.0, 0.0, 0.0, 1.0], [1.0; 3]);
        let world = oracle::forward_kinematics(&parents, &[step, step, turn], &up);
        assert!(close(&origin(&world[0]), &[0.0, 2.0, 5.0], EPS));
    }

    #[test]
    fn lbs_is_the_weighted_sum_of_transformed_points() {
        let h = 0.5f64.sqrt();
        let palette = [
            oracle::IDENTITY,
            oracle::trs([0.0, 2.0, 0.0], [0.0, 0.0, 0.0, 1.0], [1.0; 3]),
            oracle::trs([0.0; 3], [0.0, 0.0, h, h], [1.0; 3]),
        ];
        let p = [1.0, 0.0, 0.0];
        // ¼·(1,0,0) + ¼·(1,2,0) + ½·(0,1,0) = (0.5, 1, 0).
        let got = oracle::lbs_point(&palette, &[0, 1, 2], &[0.25, 0.25, 0.5], p);
        assert!(close(&got, &[0.5, 1.0, 0.0], EPS));
        // A palette built from bind and pose: W = B leaves the point in place.
        let b = oracle::trs([1.0, 2.0, 3.0], [0.3, -0.1, 0.2, 0.9], [1.0; 3]);
        let pal = oracle::palette(&[b], &[0], &[oracle::inverse(&b).unwrap()]);
        assert!(close(
            &oracle::lbs_point(&pal, &[0], &[1.0], [4.0, 5.0, 6.0]),
            &[4.0, 5.0, 6.0],
            1e-12
        ));
        // Normals: identity and a quarter turn, half each: (1,0,0) → (½, ½, 0) → unit.
        let n = oracle::lbs_normal(&palette, &[0, 2], &[0.5, 0.5], [1.0, 0.0, 0.0]).unwrap();
        assert!(close(&n, &[h, h, 0.0], EPS));
        // The candy wrapper: ½ I + ½ Rz(180°) collapses a normal in the XY plane.
        let half = [
            oracle::IDENTITY,
            oracle::trs([0.0; 3], [0.0, 0.0, 1.0, 0.0], [1.0; 3]),
        ];
        assert_eq!(
            oracle::lbs_normal(&half, &[0, 1], &[0.5, 0.5], [0.0, 1.0, 0.0]),
            None
        );
    }

    #[test]
    fn slerp_by_hand() {
        let h = 0.5f64.sqrt();
        let id = [0.0, 0.0, 0.0, 1.0];
        let half_turn_z = [0.0, 0.0, 1.0, 0.0];
        // Halfway to 180° about Z is 90° about Z.
        assert!(close(
            &oracle::slerp(id, half_turn_z, 0.5),
            &[0.0, 0.0, h, h],
            EPS
        ));
        // A third of the way to 90° is 30°.
        let q90 = [0.0, 0.0, h, h];
        let s15 = 15f64.to_radians();
        assert!(close(
            &oracle::slerp(id, q90, 1.0 / 3.0),
            &[0.0, 0.0, s15.sin(), s15.cos()],
            EPS
        ));
        // Shortest path: −q90 is the same rotation, so the same result.
        let neg = q90.map(|v| -v);
        assert!(close(
            &oracle::slerp(id, neg, 1.0 / 3.0),
            &[0.0, 0.0, s15.sin(), s15.cos()],
            EPS
        ));
        // End points.
        assert!(close(&oracle::slerp(id, q90, 0.0), &id, EPS));
        assert!(close(&oracle::slerp(id, q90, 1.0), &q90, EPS));
    }

    #[test]
    fn quaternion_product_composes_rotations() {
        let a = oracle::normalize_quat([0.1, 0.7, -0.3, 0.6]);
        let b = oracle::normalize_quat([-0.4, 0.2, 0.8, 0.1]);
        let ab = oracle::quat_to_matrix(oracle::quat_mul(a, b));
        let ma = oracle::trs([0.0; 3], a, [1.0; 3]);
        let mb = oracle::trs([0.0; 3], b, [1.0; 3]);
        let m = oracle::mul(&ma, &mb);
        for i in 0..3 {
            assert!(close(&ab[i], &m[i][..3], 1e-12));
        }
        // The conjugate undoes the rotation.
        let back = oracle::quat_mul(oracle::quat_conj(a), a);
        assert!(close(&back, &[0.0, 0.0, 0.0, 1.0], 1e-12));
        let v = [0.3, -0.2, 0.9];
        let ra = oracle::quat_to_matrix(a);
        let turned = oracle::transform_vector(&ma, v);
        assert!(close(&oracle::transpose_apply(&ra, turned), &v, 1e-12));
    }

    #[test]
    fn extent_is_the_bounding_box_diagonal() {
        let pts = [[0.0, 0.0, 0.0], [1.0, -2.0, 0.5], [0.5, 0.0, 2.5]];
        assert!((oracle::extent(&pts) - (1.0f64 + 4.0 + 6.25).sqrt()).abs() < EPS);
        assert_eq!(oracle::extent(&[]), 0.0);
    }
}
