//! Arbitrary inputs never panic: every constructor and kernel of skin-core returns `Ok` or a
//! typed `Err` for any `f32` (NaN, ±∞, huge, subnormal), any index and any bit pattern of
//! its number types. Tests run in debug builds, where fixed-point overflow panics, so this
//! also proves the fixed-point arithmetic cannot overflow on input that passed validation.

use proptest::prelude::*;
use proptest::test_runner::Config;
use skin_core::lane::{Out16, Weight15, Q14};
use skin_core::num::Fx;
use skin_core::prelude::*;

/// Any `f32`: mostly ordinary values (so the `Ok` paths run), plus every special class and
/// the edges of the fixed formats.
fn num() -> impl Strategy<Value = f32> {
    prop_oneof![
        4 => -3.0f32..3.0,
        2 => prop::num::f32::ANY,
        1 => prop::sample::select(vec![
            0.0, -0.0, 1.0, -1.0, 2.0, -2.0, 1.999_9, -2.000_1, 64.0, -64.0, 127.999_99,
            -128.0, 128.0, 1.0e30, -1.0e30, f32::MAX, f32::MIN, f32::MIN_POSITIVE,
            f32::EPSILON, f32::NAN, f32::INFINITY, f32::NEG_INFINITY,
        ]),
    ]
}

fn v3() -> impl Strategy<Value = [f32; 3]> {
    prop::array::uniform3(num())
}

fn v4() -> impl Strategy<Value = [f32; 4]> {
    prop::array::uniform4(num())
}

fn rows() -> impl Strategy<Value = [[f32; 4]; 3]> {
    prop::array::uniform3(v4())
}

/// Any `I8F24` matrix: every bit pattern is a valid value of the type.
fn fx_affine() -> impl Strategy<Value = Affine<Fx>> {
    prop_oneof![
        rows().prop_filter_map("fits I8F24", |r| Affine::<Fx>::from_f32(r).ok()),
        prop::array::uniform3(prop::array::uniform4(any::<i32>())).prop_map(|r| Affine {
            rows: r.map(|r| r.map(Fx::from_bits))
        }),
    ]
}

fn transform() -> impl Strategy<Value = ([f32; 3], [f32; 4], [f32; 3])> {
    (v3(), v4(), v3())
}

fn parents() -> impl Strategy<Value = Vec<Option<u16>>> {
    prop::collection::vec(prop::option::weighted(0.8, 0u16..12), 0..10)
}

fn q14_bits() -> impl Strategy<Value = [Q14; 3]> {
    prop::array::uniform3(any::<i16>().prop_map(Q14::from_bits))
}

mod core_no_panic {
    use super::*;

    proptest! {
        #![proptest_config(Config::with_cases(512))]

        #[test]
        fn influences(bones in any::<[u8; 4]>(), w in v4(), stored in any::<[u16; 3]>(), v in any::<usize>()) {
            fn probe<L: Lane>(r: Result<Influence<L>, Error>) {
                if let Ok(i) = r {
                    let _ = (i.weights(), i.count(), i.max_bone(), i.bones(), i.stored());
                } else if let Err(e) = r {
                    let _ = e.to_string();
                }
            }
            probe(Influence::<f32>::from_weights(bones, w, v));
            probe(Influence::<Q14>::from_weights(bones, w, v));
            probe(Influence::<f32>::from_three(bones, [w[0], w[1], w[2]], v));
            probe(Influence::<Q14>::from_three(bones, [w[0], w[1], w[2]], v));
            if let Some(i) = Influence::<Q14>::from_stored(bones, stored.map(Weight15::from_bits)) {
                let _ = (i.weights(), i.count());
            }
        }

        #[test]
        fn transforms_and_matrices((t, q, s) in transform(), r in rows(), tq in 0.0f32..=1.0, q2 in v4()) {
            if let Ok(x) = Transform::<Fx>::from_f32(t, q, s) {
                let m = x.to_affine();
                if let Some(inv) = m.inverse() {
                    let _ = inv.checked_mul(&m);
                }
                let _ = m.checked_mul(&m);
                if let Ok(other) = skin_core::quat::Quat::<Fx>::from_f32(q2) {
                    let _ = x.rotation.slerp(other, Fx::from_num(tq));
                }
            }
            if let Ok(x) = Transform::<f32>::from_f32(t, q, s) {
                let m = x.to_affine();
                let _ = m.inverse().map(|i| i.checked_mul(&m));
            }
            if let Ok(m) = Affine::<Fx>::from_f32(r) {
                let _ = m.inverse();
                let _ = m.checked_mul(&m);
                let _ = m.convert::<f32>();
            }
            if let Ok(m) = Affine::<f32>::from_f32(r) {
                let _ = m.inverse();
                let _ = m.convert::<Fx>();
            }
        }

        #[test]
        fn skeletons(parents in parents(), rest in prop::collection::vec(transform(), 0..10), pose in prop::collection::vec(transform(), 0..10), root in fx_affine()) {
            let conv = |v: &[([f32; 3], [f32; 4], [f32; 3])]| -> Vec<Transform<Fx>> {
                v.iter()
                    .map(|&(t, q, s)| Transform::from_f32(t, q, s).unwrap_or(Transform::IDENTITY))
                    .collect()
            };
            let (rest, pose) = (conv(&rest), conv(&pose));
            match Skeleton::<Fx, 8>::new(&parents, &rest) {
                Ok(skel) => {
                    let mut world = vec![Affine::IDENTITY; 10];
                    let _ = skel.world(&rest, &mut world);
                    let _ = skel.world(&pose, &mut world);
                    let skel = skel.with_root(root);
                    let _ = skel.world(&rest, &mut world);
                    if skel.world(&pose, &mut world).is_ok() {
                        let joints: Vec<u16> = (0..skel.len() as u16).collect();
                        if let Ok(bind) = BindPose::<Fx, 8>::from_bind_world(&joints, &world[..skel.len()]) {
                            let mut palette = Palette::<Q14, 8>::new();
                            let _ = bind.palette(&world, &mut palette);
                        }
                    }
                }
                Err(e) => {
                    let _ = e.to_string();
                }
            }
        }

        #[test]
        fn bind_poses_and_palettes(
            joints in prop::collection::vec(0u16..10, 0..6),
            ibms in prop::collection::vec(fx_affine(), 0..6),
            world in prop::collection::vec(fx_affine(), 0..8),
            bones in 0usize..10,
        ) {
            if let Ok(bind) = BindPose::<Fx, 6>::new(&joints, &ibms, bones) {
                let mut palette = Palette::<Q14, 6>::new();
                let _ = bind.palette(&world, &mut palette);
                let _ = bind.check_budget(&Budget::OES_MATRIX_PALETTE, Layout::Mat4x4);
            }
            let _ = BindPose::<Fx, 6>::from_bind_world(&joints, &world);
            let mut palette = Palette::<Q14, 8>::new();
            for m in &world {
                let _ = palette.push(m);
            }
        }

        #[test]
        fn kernels(
            positions in prop::collection::vec(q14_bits(), 0..8),
            normals in prop::collection::vec(q14_bits(), 0..8),
            bones in prop::collection::vec(any::<u8>(), 0..8),
            influences in prop::collection::vec((any::<[u8; 4]>(), any::<[u16; 3]>()), 0..8),
            matrices in prop::collection::vec(fx_affine(), 0..8),
            out_len in 0usize..9,
        ) {
            // A palette from arbitrary matrices, through the checked narrowing.
            let mut palette = Palette::<Q14, 8>::new();
            for m in &matrices {
                let _ = palette.push(m);
            }
            let infl: Vec<Influence<Q14>> = influences
                .iter()
                .filter_map(|&(b, w)| Influence::from_stored(b, w.map(Weight15::from_bits)))
                .collect();
            let mut out = vec![[Out16::ZERO; 3]; out_len];
            let mut out_n = vec![[Q14::ZERO; 3]; out_len];
            if let Ok(mesh) = RigidMesh::new(&positions, &bones) {
                let _ = mesh.skin(palette.as_slice(), &mut out);
                let _ = mesh.skin_with_normals(palette.as_slice(), &normals, &mut out, &mut out_n);
            }
            let n = infl.len().min(positions.len());
            if let Ok(mesh) = SkinnedMesh::<Q14, 4>::new(&positions[..n], &infl[..n]) {
                let _ = mesh.skin(palette.as_slice(), &mut out);
                let _ = mesh.skin_with_normals(palette.as_slice(), &normals, &mut out, &mut out_n);
            }
            if let Ok(mesh) = SkinnedMesh::<Q14, 2>::new(&positions[..n], &infl[..n]) {
                let _ = mesh.skin(palette.as_slice(), &mut out);
            }
        }

        #[test]
        fn f32_kernels(
            positions in prop::collection::vec(v3(), 0..6),
            weights in prop::collection::vec((any::<[u8; 4]>(), v4()), 0..6),
            matrices in prop::collection::vec(rows(), 0..6),
        ) {
            let infl: Vec<Influence<f32>> = weights
                .iter()
                .enumerate()
                .filter_map(|(v, &(b, w))| Influence::from_weights(b, w, v).ok())
                .collect();
            let mut palette = Palette::<f32, 8>::new();
            for r in &matrices {
                let _ = palette.push(&Affine { rows: *r });
            }
            let n = infl.len().min(positions.len());
            let mut out = vec![[0.0f32; 3]; n];
            let mut out_n = vec![[0.0f32; 3]; n];
            if let Ok(mesh) = SkinnedMesh::<f32, 4>::new(&positions[..n], &infl[..n]) {
                let _ = mesh.skin(palette.as_slice(), &mut out);
                let _ = mesh.skin_with_normals(palette.as_slice(), &positions[..n], &mut out, &mut out_n);
            }
        }

        /// `Palette::push_narrow` takes matrices already in the lane's format, as a baked
        /// asset stores them, without the row-norm check of `push`: the kernels must still not
        /// panic on them (a wrong picture would be a second bug; this only checks panics).
        #[test]
        fn kernels_on_unchecked_baked_palettes(
            positions in prop::collection::vec(q14_bits(), 1..6),
            normals in prop::collection::vec(q14_bits(), 1..6),
            matrices in prop::collection::vec(prop::array::uniform3(prop::array::uniform4(any::<i16>())), 1..4),
            weights in any::<[u16; 3]>(),
        ) {
            let mut palette = Palette::<Q14, 4>::new();
            for m in &matrices {
                // Baked matrices whose rows could overflow the loop are refused, not used.
                let _ = palette.push_narrow(Affine { rows: m.map(|r| r.map(Q14::from_bits)) });
            }
            if palette.is_empty() {
                return Ok(());
            }
            let n = positions.len().min(normals.len());
            let bones = vec![0u8; n];
            let mut out = vec![[Out16::ZERO; 3]; n];
            let mut out_n = vec![[Q14::ZERO; 3]; n];
            let rigid = RigidMesh::new(&positions[..n], &bones).unwrap();
            let _ = rigid.skin_with_normals(palette.as_slice(), &normals[..n], &mut out, &mut out_n);
            let last = (palette.len() - 1) as u8;
            if let Some(inf) = Influence::<Q14>::from_stored([0, last, 0, last], weights.map(Weight15::from_bits)) {
                let infl = vec![inf; n];
                let mesh = SkinnedMesh::<Q14, 4>::new(&positions[..n], &infl).unwrap();
                let _ = mesh.skin_with_normals(palette.as_slice(), &normals[..n], &mut out, &mut out_n);
            }
        }
    }

    // The smallest inputs the properties above found, kept as plain regression tests.

    /// `Palette::push` of an I8F24 entry near 128: narrowing must refuse it, not overflow
    /// while rounding (core/src/lane/fixed_point.rs `fx_to_q14`).
    #[test]
    fn q14_push_of_an_entry_near_the_fx_limit() {
        let mut m = Affine::<Fx>::IDENTITY;
        m.rows[0][1] = Fx::MAX;
        let mut palette = Palette::<Q14, 1>::new();
        assert_eq!(
            palette.push(&m),
            Err(Error::Overflow {
                what: skin_core::error::Quantity::Palette,
                index: 0,
                format: "I2F14"
            })
        );
    }

    /// A palette accepted by `push` (rows of L1 norm < 2) and a normal with a component of
    /// 1.6 (a valid `I2F14`): the fixed normal path must not overflow its squared length
    /// (core/src/lane/fixed_point.rs `normal`). Either the normal is refused with a typed
    /// error or it comes out unit length.
    #[test]
    fn fixed_normal_with_a_component_above_one() {
        let m = Affine::<Fx>::from_f32([
            [0.0, 0.0, -19264.0 / 16384.0, 0.0],
            [0.0, 0.0, 21999.0 / 16384.0, 0.0],
            [0.0, 0.0, 28750.0 / 16384.0, 0.0],
        ])
        .unwrap();
        let mut palette = Palette::<Q14, 1>::new();
        palette.push(&m).unwrap();
        let positions = [[Q14::ZERO; 3]];
        let normals = [[Q14::ZERO, Q14::ZERO, Q14::from_num(1.59814)]];
        let mut out = [[Out16::ZERO; 3]];
        let mut out_n = [[Q14::ZERO; 3]];
        let mesh = RigidMesh::new(&positions, &[0]);
        if let Ok(mesh) = mesh {
            if mesh
                .skin_with_normals(palette.as_slice(), &normals, &mut out, &mut out_n)
                .is_ok()
            {
                let len = out_n[0]
                    .iter()
                    .map(|v| v.to_num::<f64>().powi(2))
                    .sum::<f64>()
                    .sqrt();
                assert!(
                    (len - 1.0).abs() < 1e-3,
                    "normal {:?} is not unit length",
                    out_n[0]
                );
            }
        }
    }

    /// A baked (already narrowed) palette matrix outside the fixed lane's row bound, handed to
    /// `Palette::push_narrow`: it must be refused, or skinned to the right value — never
    /// overflow (`point` in core/src/lane/fixed_point.rs) or wrap.
    #[test]
    fn unchecked_baked_palette_entries() {
        let m = Affine {
            rows: [[Q14::MIN; 4]; 3],
        };
        let mut palette = Palette::<Q14, 1>::new();
        if palette.push_narrow(m).is_err() {
            return;
        }
        let positions = [[Q14::MIN; 3]];
        let mesh = RigidMesh::new(&positions, &[0]).unwrap();
        let mut out = [[Out16::ZERO; 3]];
        if mesh.skin(palette.as_slice(), &mut out).is_ok() {
            // (−2)(−2)·3 − 2 = 10 on every axis.
            assert_eq!(out[0], [Out16::from_num(10); 3]);
        }
    }

    /// A scale of −128 (which `I8F24` holds) under a half turn: the matrix entry is +128,
    /// which it does not. Building the transform must refuse it, or `to_affine` must not
    /// overflow (core/src/transform.rs).
    #[test]
    fn fx_transform_whose_matrix_leaves_the_format() {
        let t = Transform::<Fx>::from_f32([0.0; 3], [0.0, 0.0, 1.0, 0.0], [-128.0, 1.0, 1.0]);
        if let Ok(t) = t {
            let m = t.to_affine();
            // Whatever it holds, forward kinematics must then report it, not use it.
            let skel = Skeleton::<Fx, 1>::new(&[None], &[t]).unwrap();
            let mut world = [Affine::IDENTITY];
            assert!(skel.world(&[t], &mut world).is_err(), "{m:?}");
        }
    }
}
