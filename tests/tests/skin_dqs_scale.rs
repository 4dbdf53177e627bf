//! Dual quaternion skinning of joints with scale and shear (Kavan et al.) in skin-core's
//! `f32` lane (`skin_core::palette::StretchPalette`, `SkinnedMesh::skin_dqs_stretched`)
//! against the independent f64 oracle (`skin_tests::dual_oracle::stretched_point`): random
//! rigs whose joints carry uniform or per-axis scale from ¼ to 4× along random axes (a
//! shear in the joint's frame); one-bone vertices against LBS; rigid palettes keep the
//! plain loop's bits; matrices the split cannot represent are refused by joint.
//!
//! Limits: positions within 1e-5 of the extent (the `f32` limit of `skin validate`), as
//! plain DQS; normals within 1e-4 per coordinate: the normal goes through the blended
//! stretch's cofactors, whose entries are products of two stretch entries (up to 16 for a
//! 4× scale), so their rounding is up to 16× that of a rotation entry.

use proptest::prelude::*;
use proptest::test_runner::Config;
use skin_core::dual::SPLIT_MIN_DETERMINANT;
use skin_core::palette::{DualPalette, Palette, StretchPalette};
use skin_core::prelude::*;
use skin_tests::dual_oracle::{self, Bone, StretchedBone};
use skin_tests::oracle::{self, V3};
use skin_tests::Rng;

/// Palette capacity: vs_2_0 with dual quaternions (128 bones); the rigs use up to 32.
const CAP: usize = 128;

/// A random unit quaternion.
fn rotation(rng: &mut Rng) -> [f64; 4] {
    let q = [0; 4].map(|_| f64::from(rng.range(-1.0, 1.0)));
    let l = q.iter().map(|c| c * c).sum::<f64>().sqrt().max(1e-3);
    q.map(|c| c / l)
}

/// A rig of stretched bones, vertices with 1–4 influences (or exactly one with `single`).
struct Rig {
    bones: Vec<StretchedBone>,
    positions: Vec<[f32; 3]>,
    normals: Vec<[f32; 3]>,
    influences: Vec<Influence<f32>>,
}

impl Rig {
    /// `per_axis`: each bone's three scales drawn apart, else one for all three.
    fn random(seed: u64, bones: usize, per_axis: bool, single: bool) -> Self {
        let mut rng = Rng(seed | 1);
        let bones = (0..bones)
            .map(|b| {
                let q = rotation(&mut rng);
                let t = [0; 3].map(|_| f64::from(rng.range(-2.0, 2.0)));
                // Bone 0 stays rigid: palettes mix rigid and stretched joints.
                let mut d = [0; 3].map(|_| 2f64.powf(f64::from(rng.range(-2.0, 2.0))));
                if !per_axis {
                    d = [d[0]; 3];
                }
                if b == 0 {
                    d = [1.0; 3];
                }
                // S = Aᵀ·diag(d)·A for a random rotation A.
                let a = oracle::quat_to_matrix(rotation(&mut rng));
                let s = [0, 1, 2]
                    .map(|i| [0, 1, 2].map(|j| (0..3).map(|k| a[k][i] * d[k] * a[k][j]).sum()));
                StretchedBone {
                    bone: Bone { q, t },
                    s,
                }
            })
            .collect::<Vec<_>>();
        let n = bones.len();
        let vertices = 64;
        let positions = (0..vertices).map(|_| rng.point(1.98)).collect();
        let normals = (0..vertices)
            .map(|_| {
                let v = rng.point(2.0).map(f64::from);
                let l = oracle::norm(v).max(1e-3);
                v.map(|c| (c / l) as f32)
            })
            .collect();
        let influences = (0..vertices)
            .map(|v| {
                let used = if single {
                    1
                } else {
                    1 + (rng.unit() * 4.0) as usize
                };
                let mut b = [0u8; 4];
                let mut w = [0f32; 4];
                for k in 0..used.min(4) {
                    b[k] = ((rng.unit() * n as f32) as usize).min(n - 1) as u8;
                    w[k] = rng.range(0.05, 1.0);
                }
                let sum: f32 = w.iter().sum();
                Influence::from_weights(b, w.map(|x| x / sum), v).unwrap()
            })
            .collect();
        Self {
            bones,
            positions,
            normals,
            influences,
        }
    }

    /// Bone `b`'s joint matrix `[R(q)·S | t]`, rounded to `f32`.
    fn matrix(&self, b: usize) -> Affine<f32> {
        let StretchedBone {
            bone: Bone { q, t },
            s,
        } = self.bones[b];
        let r = oracle::quat_to_matrix(q);
        let rows = [0, 1, 2].map(|i| {
            let l = [0, 1, 2].map(|j| (0..3).map(|k| r[i][k] * s[k][j]).sum::<f64>());
            [l[0], l[1], l[2], t[i]].map(|v| v as f32)
        });
        Affine { rows }
    }

    fn palette(&self) -> StretchPalette<CAP> {
        let mut p = StretchPalette::new();
        for b in 0..self.bones.len() {
            p.push(&self.matrix(b)).unwrap();
        }
        p
    }

    fn mesh(&self) -> SkinnedMesh<'_, f32, 4> {
        SkinnedMesh::new(&self.positions, &self.influences).unwrap()
    }

    /// The core's positions and normals.
    fn core(&self) -> (Vec<[f32; 3]>, Vec<[f32; 3]>) {
        let palette = self.palette();
        let (duals, stretches) = (palette.duals(), palette.stretches());
        let len = self.positions.len();
        let (mut out, mut out_n) = (vec![[0.0; 3]; len], vec![[0.0; 3]; len]);
        let mesh = self.mesh();
        mesh.skin_dqs_stretched_with_normals(duals, stretches, &self.normals, &mut out, &mut out_n)
            .unwrap();
        let mut alone = vec![[0.0; 3]; len];
        mesh.skin_dqs_stretched(duals, stretches, &mut alone)
            .unwrap();
        assert_eq!(alone, out, "positions alone give the same bits");
        (out, out_n)
    }

    /// The oracle's positions, normals and hemisphere margins, for the core's weights.
    fn oracle(&self) -> (Vec<V3>, Vec<V3>, Vec<f64>) {
        let mut r = (Vec::new(), Vec::new(), Vec::new());
        for ((inf, p), n) in self
            .influences
            .iter()
            .zip(&self.positions)
            .zip(&self.normals)
        {
            let index: Vec<usize> = inf.bones().iter().map(|&b| usize::from(b)).collect();
            let w: Vec<f64> = inf.weights().iter().map(|&w| f64::from(w)).collect();
            let (p, n) = (p.map(f64::from), n.map(f64::from));
            r.0.push(dual_oracle::stretched_point(&self.bones, &index, &w, p));
            r.1.push(dual_oracle::stretched_normal(&self.bones, &index, &w, n));
            let rigid: Vec<Bone> = self.bones.iter().map(|b| b.bone).collect();
            r.2.push(dual_oracle::hemisphere_margin(&rigid, &index, &w));
        }
        r
    }
}

fn coord_error(a: [f32; 3], b: V3) -> f64 {
    (0..3)
        .map(|k| (f64::from(a[k]) - b[k]).abs())
        .fold(0.0, f64::max)
}

/// Vertices this close to the blend's discontinuity (a bone 180° from the lead one) may be
/// flipped either way by `f32` rounding (as in `core_dqs`).
const MARGIN: f64 = 1e-5;

proptest! {
    #![proptest_config(Config::with_cases(128))]

    #[test]
    fn stretched_joints_match_the_oracle(seed in any::<u64>(), bones in 1usize..=32, per_axis in any::<bool>()) {
        let rig = Rig::random(seed, bones, per_axis, false);
        let (got_p, got_n) = rig.core();
        let (want_p, want_n, margin) = rig.oracle();
        let extent = oracle::extent(&want_p).max(1.0);
        for v in 0..got_p.len() {
            if margin[v] < MARGIN {
                continue;
            }
            let err = coord_error(got_p[v], want_p[v]);
            prop_assert!(err <= 1e-5 * extent, "vertex {v}: {:?} vs {:?}, error {err:e} > 1e-5 × extent {extent:e}", got_p[v], want_p[v]);
            let err = coord_error(got_n[v], want_n[v]);
            prop_assert!(err <= 1e-4, "normal {v}: {:?} vs {:?}, error {err:e}", got_n[v], want_n[v]);
        }
    }
}

/// With one bone a vertex, the split joint (stretch, then rotation and translation) gives
/// the joint matrix's own result, LBS's, up to rounding.
#[test]
fn one_bone_vertices_equal_lbs() {
    for (seed, per_axis) in [(3, false), (4, true), (5, true)] {
        let rig = Rig::random(seed, 12, per_axis, true);
        let (dqs, _) = rig.core();
        let mut palette: Palette<f32, CAP> = Palette::new();
        for b in 0..rig.bones.len() {
            palette.push(&rig.matrix(b)).unwrap();
        }
        let mut lbs = vec![[0.0; 3]; rig.positions.len()];
        rig.mesh().skin(palette.as_slice(), &mut lbs).unwrap();
        let extent = skin_tests::diagonal(&lbs);
        let err = skin_tests::worst(&dqs, &lbs);
        assert!(
            err <= 1e-6 * extent,
            "seed {seed}: error {err:e}, extent {extent:e}"
        );
    }
}

/// A palette of rigid joints has no stretches, and skins with the plain DQS loop's bits.
#[test]
fn rigid_palettes_keep_the_plain_bits() {
    let mut rig = Rig::random(9, 16, false, false);
    for b in &mut rig.bones {
        b.s = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
    }
    let stretched = rig.palette();
    assert!(stretched.stretches().is_none());
    let mut plain: DualPalette<f32, CAP> = DualPalette::new();
    for b in 0..rig.bones.len() {
        plain.push(&rig.matrix(b)).unwrap();
    }
    assert_eq!(stretched.duals(), plain.as_slice());
    let (got, _) = rig.core();
    let mut want = vec![[0.0; 3]; got.len()];
    rig.mesh().skin_dqs(plain.as_slice(), &mut want).unwrap();
    assert_eq!(got, want);
}

/// A mirrored, a flattened and a NaN joint are refused, naming the joint and the value.
#[test]
fn unsplittable_joints_are_refused_by_joint() {
    let cases: [(f32, f32, &str); 3] = [
        (-1.0, -2.0, "mirrors (determinant -2.000e0"),
        (0.0, 0.0, "is not invertible (determinant 0.000e0"),
        (f32::NAN, f32::NAN, "has a NaN or infinite entry"),
    ];
    for (entry, det, words) in cases {
        let mut p: StretchPalette<4> = StretchPalette::new();
        p.push(&Affine::IDENTITY).unwrap();
        let mut m = Affine::translation([0.0, 1.0, 0.0]);
        m.rows[0][0] = 2.0;
        m.rows[2][2] = entry;
        let err = p.push(&m).unwrap_err();
        match err {
            Error::NotSplittable { joint, determinant } => {
                assert_eq!(joint, 1);
                assert!(
                    determinant == det || (det.is_nan() && determinant.is_nan()),
                    "{determinant}"
                );
            }
            other => panic!("{other:?}"),
        }
        let line = err.to_string();
        assert!(line.contains("joint 1") && line.contains(words), "{line}");
        if !det.is_nan() {
            assert!(
                line.contains(&format!("{SPLIT_MIN_DETERMINANT:.0e}")),
                "{line}"
            );
        }
    }
}

/// The squash-and-stretch worm (its clip scales joint 3 along the body) posed by
/// `skin_host`'s DQS in `f32` at the stretched frame: every skinned vertex within 1e-5 of
/// the extent of the oracle fed the same joint matrices, split by its own
/// eigen-decomposition (`dual_oracle::split`).
#[test]
fn the_stretched_worm_matches_the_oracle_through_host_pose() {
    use skin_host::pose::palette::{skin_frame, skin_stretch_palette};
    use skin_host::pose::values::{influences, positions};
    use skin_host::pose::{animate, morph, skin::pose_lane, Skinning};
    use skin_tests::gltf_gen::Worm;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("worm.glb");
    std::fs::write(&path, Worm::default().build().glb()).unwrap();
    let rig = skin_host::import::from_path(&path).unwrap();
    let anim = Some((0, 1.0));
    let locals = animate::frame::<f32>(&rig, anim, 0).unwrap();
    let (_, stretches) = skin_stretch_palette::<f32>(&rig, &locals, 0, 0).unwrap();
    assert!(
        stretches.is_some(),
        "the worm's joint 3 is scaled at this frame"
    );
    let f = skin_frame::<f32>(&rig, &locals, 0, 0, "f32").unwrap();
    let bones: Vec<StretchedBone> = (0..f.joints.len())
        .map(|j| {
            let m = f.bind.matrix(j, &f.world).unwrap();
            dual_oracle::split(&m.rows.map(|r| r.map(f64::from)))
        })
        .collect();
    let weights = morph::weights(&rig, anim);
    let posed = pose_lane::<f32>(&rig, &locals, &weights, 0, Skinning::Dqs).unwrap();
    let mut checked = 0;
    for got in &posed {
        let prim = &rig.meshes[got.mesh].primitives[got.primitive];
        let (pos, inf) = (
            positions::<f32>(prim, 0, "prim").unwrap(),
            influences::<f32>(prim, "prim").unwrap(),
        );
        let mut want = Vec::new();
        for (p, i) in pos.iter().zip(&inf) {
            let index: Vec<usize> = i.bones().iter().map(|&b| usize::from(b)).collect();
            let w: Vec<f64> = i.weights().iter().map(|&w| f64::from(w)).collect();
            want.push(dual_oracle::stretched_point(
                &bones,
                &index,
                &w,
                p.map(f64::from),
            ));
        }
        let extent = oracle::extent(&want);
        for (g, w) in got.out.iter().zip(&want) {
            let err = coord_error(*g, *w);
            assert!(
                err <= 1e-5 * extent,
                "{g:?} vs {w:?}: {err:e} of extent {extent:e}"
            );
            checked += 1;
        }
    }
    assert!(checked >= 32, "{checked} vertices compared");
}
