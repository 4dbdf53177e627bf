//! skin-core's morph targets (`skin_core::morph`): `f32` equal to the host's pose path, the
//! fixed lane within its documented bound of an `f64` sum, the active-target budget, and
//! every bad input as a typed error.

use skin_core::affine::Affine;
use skin_core::error::{Error, Quantity};
use skin_core::lane::{Lane, Q14};
use skin_core::morph::{Active, Morph, MorphLane, Target};
use skin_core::skin::RigidMesh;
use skin_host::pose::morph::morphed;
use skin_tests::gltf_gen::morph_triangle;

/// A small deterministic generator (xorshift), values in [−1, 1).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> f32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 40) as f32 / (1u64 << 23) as f32 - 1.0
    }
}

/// Sparse lists (moved vertices, their deltas) of dense per-vertex deltas.
fn sparse(dense: &[[f32; 3]]) -> (Vec<u16>, Vec<[f32; 3]>) {
    dense
        .iter()
        .enumerate()
        .filter(|(_, d)| **d != [0.0; 3])
        .map(|(v, d)| (v as u16, *d))
        .unzip()
}

#[test]
fn f32_morphs_equal_the_host_pose_path() {
    let rig = skin_host::import::from_slice(&morph_triangle("LINEAR").glb(), None).unwrap();
    let prim = &rig.meshes[0].primitives[0];
    let lists: Vec<_> = prim
        .targets
        .iter()
        .map(|t| sparse(t.positions.as_ref().unwrap()))
        .collect();
    let normals: Vec<Option<Vec<[f32; 3]>>> = prim
        .targets
        .iter()
        .zip(&lists)
        .map(|(t, (v, _))| {
            t.normals
                .as_ref()
                .map(|n| v.iter().map(|&v| n[usize::from(v)]).collect())
        })
        .collect();
    let targets: Vec<Target<'_, f32>> = lists
        .iter()
        .zip(&normals)
        .map(|((v, d), n)| Target::new(v, d, n.as_deref()).unwrap())
        .collect();
    let base_normals = prim.normals.as_deref();
    let morph = Morph::new(&prim.positions, base_normals, &targets).unwrap();
    for weights in [[0.25, 0.5], [-1.5, 0.75], [0.0, 2.0], [1.0 / 3.0, -0.1]] {
        let want = morphed(prim, &weights);
        let active = Active::<f32, 8>::select(&weights).unwrap();
        let mut pos = vec![[0.0f32; 3]; prim.positions.len()];
        let mut nrm = vec![[0.0f32; 3]; prim.positions.len()];
        morph.apply(&active, &mut pos, Some(&mut nrm)).unwrap();
        assert_eq!(pos, want.positions, "weights {weights:?}");
        assert_eq!(Some(&nrm), want.normals.as_ref(), "weights {weights:?}");
    }
}

#[test]
fn fixed_morphs_stay_within_their_bound_of_f64() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let q = |v: f32| <Q14 as Lane>::from_f32(v).unwrap();
    let vertices = 64;
    let base: Vec<[Q14; 3]> = (0..vertices)
        .map(|_| [0; 3].map(|_: i32| q(0.45 * rng.next())))
        .collect();
    // 12 targets, each moving every third vertex from its own start by up to 0.15 (so that
    // 0.45 + 8 · 0.15 stays within the lane whatever the weights in [−1, 1]).
    let lists: Vec<(Vec<u16>, Vec<[Q14; 3]>)> = (0..12)
        .map(|t| {
            let v: Vec<u16> = (t % 3..vertices as u16).step_by(3).collect();
            let d = v
                .iter()
                .map(|_| [0; 3].map(|_: i32| q(0.15 * rng.next())))
                .collect();
            (v, d)
        })
        .collect();
    let targets: Vec<Target<'_, Q14>> = lists
        .iter()
        .map(|(v, d)| Target::new(v, d, None).unwrap())
        .collect();
    let morph = Morph::new(&base, None, &targets).unwrap();
    let mut worst = 0.0f64;
    for _ in 0..50 {
        let weights: Vec<f32> = (0..12).map(|_| rng.next()).collect();
        let active = Active::<Q14, 8>::select(&weights).unwrap();
        assert_eq!(active.len(), 8);
        let mut out = vec![[Q14::ZERO; 3]; vertices];
        morph.apply(&active, &mut out, None).unwrap();
        let bound = f64::from(morph.fixed_bound(&active));
        for (v, o) in out.iter().enumerate() {
            for i in 0..3 {
                let mut exact = f64::from(base[v][i].to_f32());
                for (t, w) in active.targets() {
                    let (list, deltas) = &lists[t];
                    if let Some(e) = list.iter().position(|&x| usize::from(x) == v) {
                        exact += f64::from(w) * f64::from(deltas[e][i].to_f32());
                    }
                }
                let err = (f64::from(o[i].to_f32()) - exact).abs();
                assert!(err <= bound, "vertex {v}: {err:e} > bound {bound:e}");
                worst = worst.max(err / bound);
            }
        }
    }
    println!("worst fixed morph error: {worst:.2} of the bound");
}

#[test]
fn the_budget_keeps_the_largest_weights_and_reports_the_rest() {
    let weights = [0.1, -0.9, 0.0, 0.5, 0.3, -0.3];
    let active = Active::<f32, 3>::select(&weights).unwrap();
    let kept: Vec<(usize, f32)> = active.targets().collect();
    // |−0.9|, 0.5, and of the tied 0.3 and −0.3 the lower target.
    assert_eq!(kept, vec![(1, -0.9), (3, 0.5), (4, 0.3)]);
    assert!(
        (active.dropped() - 0.4).abs() < 1e-6,
        "{}",
        active.dropped()
    );
    let all = Active::<f32, 8>::select(&weights).unwrap();
    assert_eq!(all.len(), 5);
    assert_eq!(all.dropped(), 0.0);
    assert!(Active::<f32, 8>::select(&[0.0; 4]).unwrap().is_empty());
}

#[test]
fn bad_morph_input_is_a_typed_error() {
    let e = Active::<f32, 8>::select(&[0.5, f32::NAN]).unwrap_err();
    assert_eq!(
        e,
        Error::NotFinite {
            what: Quantity::MorphWeight,
            index: 1
        }
    );
    assert!(e.to_string().contains("morph-target weight 1"), "{e}");
    let e = Active::<Q14, 8>::select(&[0.0, 0.0, 2.5]).unwrap_err();
    assert!(
        matches!(
            e,
            Error::Overflow {
                what: Quantity::MorphWeight,
                index: 2,
                ..
            }
        ),
        "{e}"
    );

    let base = [[0.0f32; 3]; 4];
    let d = [[1.0f32, 0.0, 0.0]; 2];
    let t = [Target::new(&[2, 1], &d, None).unwrap()];
    let e = Morph::new(&base, None, &t).unwrap_err();
    assert_eq!(
        e,
        Error::MorphVertex {
            target: 0,
            entry: 1,
            vertex: 1,
            vertices: 4
        }
    );
    let t = [Target::new(&[1, 4], &d, None).unwrap()];
    assert!(matches!(
        Morph::new(&base, None, &t),
        Err(Error::MorphVertex { vertex: 4, .. })
    ));
    assert!(matches!(
        Target::new(&[1], &d, None),
        Err(Error::LengthMismatch {
            expected: 1,
            actual: 2
        })
    ));

    // In I2F14, 0.9 + 1.5 · 1.0 leaves the lane's range: refused before anything is written.
    let q = |v: f32| <Q14 as Lane>::from_f32(v).unwrap();
    let base = [[q(0.9), q(0.0), q(0.0)]];
    let d = [[q(1.0), q(0.0), q(0.0)]];
    let t = [Target::new(&[0], &d, None).unwrap()];
    let morph = Morph::new(&base, None, &t).unwrap();
    let mut out = [[Q14::ZERO; 3]];
    let e = morph
        .apply(&Active::<Q14, 8>::select(&[1.5]).unwrap(), &mut out, None)
        .unwrap_err();
    assert!(
        matches!(
            e,
            Error::MorphReach {
                format: "I2F14",
                ..
            }
        ),
        "{e}"
    );
    assert_eq!(out, [[Q14::ZERO; 3]]);
    morph
        .apply(&Active::<Q14, 8>::select(&[0.5]).unwrap(), &mut out, None)
        .unwrap();
    assert_eq!(out[0][0], q(1.4));
}

/// Morphed normals (here grown to length 1.5) come out of skinning at unit length in both
/// lanes: the skinning renormalises them, as it does unmorphed ones.
fn normals_are_unit_after_skinning<L: MorphLane>(q: impl Fn(f32) -> L, tolerance: f32) {
    let base = [
        [q(0.0), q(0.0), q(0.0)],
        [q(0.5), q(0.0), q(0.0)],
        [q(0.0), q(0.5), q(0.0)],
    ];
    let normals = [[q(0.0), q(0.0), q(1.0)]; 3];
    let deltas = [[q(0.0), q(0.0), q(1.0)]; 3];
    let moves = [[q(0.0), q(0.0), q(0.25)]; 3];
    let t = [Target::new(&[0, 1, 2], &moves, Some(&deltas)).unwrap()];
    let morph = Morph::new(&base, Some(&normals), &t).unwrap();
    let active = Active::<L, 8>::select(&[0.5]).unwrap();
    let (mut pos, mut nrm) = ([[q(0.0); 3]; 3], [[q(0.0); 3]; 3]);
    morph.apply(&active, &mut pos, Some(&mut nrm)).unwrap();
    assert!(
        (nrm[0][2].to_f32() - 1.5).abs() < 1e-3,
        "morphed, not yet unit"
    );
    let (z, h) = (q(0.0), q(0.5));
    let palette = [Affine {
        rows: [[h, z, z, z], [z, h, z, z], [z, z, h, z]],
    }];
    let bones = [0u8; 3];
    let mesh = RigidMesh::<L>::new(&pos, &bones).unwrap();
    let mut out = [[L::Out::default(); 3]; 3];
    let mut out_normals = [[q(0.0); 3]; 3];
    mesh.skin_with_normals(&palette, &nrm, &mut out, &mut out_normals)
        .unwrap();
    for n in out_normals {
        let len = n.iter().map(|c| c.to_f32().powi(2)).sum::<f32>().sqrt();
        assert!(
            (len - 1.0).abs() <= tolerance,
            "{} normal length {len}",
            L::NAME
        );
    }
    assert!((L::out_to_f32(out[0][2]) - 0.0625).abs() < 1e-3);
}

#[test]
fn morphed_normals_are_renormalised_by_skinning() {
    normals_are_unit_after_skinning::<f32>(|v| v, 1e-5);
    normals_are_unit_after_skinning::<Q14>(|v| <Q14 as Lane>::from_f32(v).unwrap(), 1e-3);
}
