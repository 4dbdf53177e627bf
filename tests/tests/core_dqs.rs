//! Dual quaternion skinning in skin-core against the independent f64 oracle
//! (`skin_tests::dual_oracle`) on random rigs, including antipodal rotations (nearby
//! rotations whose quaternions lie in opposite hemispheres) and 180° twists; the candy
//! wrapper; one-bone vertices against LBS.
//!
//! `f32` must match within 1e-5 of the extent (plus four f32 steps at the largest coordinate,
//! for rigs that carry a small mesh far off); the fixed lane within the bound its module
//! derives per vertex (`skin_core::lane::fixed_dual_error_bound`);
//! `fixed_lane_error_is_measured` prints the largest error seen.

use proptest::prelude::*;
use proptest::test_runner::Config;
use skin_core::dual::Dual;
use skin_core::lane::{fixed_dual_error_bound, Lane, Out16, FIXED_ERROR_BOUND, Q14};
use skin_core::num::Fx;
use skin_core::palette::DualPalette;
use skin_core::prelude::*;
use skin_tests::dual_oracle::{self, Bone};
use skin_tests::oracle::{self, V3};

/// Palette capacity: vs_2_0 with dual quaternions (128 bones); the rigs use up to 64.
const CAP: usize = Budget::VS_2_0.capacity(Layout::DualQuat);

/// splitmix64, so that one proptest seed reproduces a whole rig.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in [lo, hi).
    fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn unit(v: [f64; 4]) -> [f64; 4] {
    let l = v.iter().map(|x| x * x).sum::<f64>().sqrt();
    v.map(|x| x / l)
}

/// A rotation of `angle` about `axis` (normalised), with its quaternion's sign chosen by
/// `sign`.
fn axis_angle(axis: V3, angle: f64, sign: f64) -> [f64; 4] {
    let l = oracle::norm(axis);
    let (s, c) = (angle / 2.0).sin_cos();
    [axis[0] * s / l, axis[1] * s / l, axis[2] * s / l, c].map(|v| v * sign)
}

/// A random rig: bones of several kinds, translations within `t_max` per coordinate,
/// positions and unit normals in (−1, 1)³, 1–4 influences per vertex.
struct Rig {
    bones: Vec<Bone>,
    positions: Vec<[f32; 3]>,
    normals: Vec<[f32; 3]>,
    influences: Vec<([u8; 4], [f32; 4])>,
}

impl Rig {
    fn random(seed: u64, bones: usize, vertices: usize, t_max: f64) -> Self {
        let mut rng = Rng(seed);
        let shared = [rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), 0.5];
        let bones = (0..bones)
            .map(|_| {
                let sign = if rng.below(2) == 0 { 1.0 } else { -1.0 };
                let q = match rng.below(4) {
                    // Any rotation.
                    0 => unit([0; 4].map(|_| rng.range(-1.0, 1.0))),
                    // A 180° twist about a random axis (w = 0).
                    1 => axis_angle(
                        [0; 3].map(|_| rng.range(-1.0, 1.0)),
                        std::f64::consts::PI,
                        sign,
                    ),
                    // Near 180° about one shared axis, either side: nearby rotations whose
                    // quaternions (w ≥ 0 in the palette) lie in opposite hemispheres.
                    2 => axis_angle(shared, std::f64::consts::PI + rng.range(-0.2, 0.2), sign),
                    // A small rotation, either sign of the quaternion.
                    _ => axis_angle(
                        [0; 3].map(|_| rng.range(-1.0, 1.0)),
                        rng.range(-0.5, 0.5),
                        sign,
                    ),
                };
                let t = [0; 3].map(|_| rng.range(-t_max, t_max));
                Bone { q, t }
            })
            .collect::<Vec<_>>();
        let n = bones.len();
        let positions = (0..vertices)
            .map(|_| [0; 3].map(|_| rng.range(-0.99, 0.99) as f32))
            .collect();
        let normals = (0..vertices)
            .map(|_| {
                let v = [0; 3].map(|_| rng.range(-1.0, 1.0));
                let l = oracle::norm(v).max(1e-3);
                v.map(|c| (c / l) as f32)
            })
            .collect();
        let influences = (0..vertices)
            .map(|_| {
                let used = 1 + rng.below(4);
                let mut b = [0u8; 4];
                let mut w = [0f32; 4];
                let mut raw = [0f64; 4];
                for k in 0..used {
                    b[k] = rng.below(n) as u8;
                    raw[k] = rng.range(0.05, 1.0);
                }
                let sum: f64 = raw.iter().sum();
                for k in 0..used {
                    w[k] = (raw[k] / sum) as f32;
                }
                (b, w)
            })
            .collect();
        Self {
            bones,
            positions,
            normals,
            influences,
        }
    }

    /// Bone `b`'s joint matrix.
    fn matrix(&self, b: usize) -> [[f32; 4]; 3] {
        let Bone { q, t } = self.bones[b];
        oracle::trs(t, q, [1.0; 3]).map(|r| r.map(|v| v as f32))
    }

    fn palette<L: Lane>(&self) -> DualPalette<L, CAP> {
        let mut p = DualPalette::new();
        for b in 0..self.bones.len() {
            let m = Affine::<L::Real>::from_f32(self.matrix(b)).unwrap();
            p.push(&m).unwrap();
        }
        p
    }

    /// The core's influences, as the lane stores them (weights rounded to it).
    fn core_influences<L: Lane>(&self) -> Vec<Influence<L>> {
        self.influences
            .iter()
            .enumerate()
            .map(|(v, (b, w))| Influence::from_weights(*b, *w, v).unwrap())
            .collect()
    }

    /// The oracle's points, normals, and per vertex the blended real part's norm and its
    /// margin from the blend's discontinuity ([`dual_oracle::hemisphere_margin`]), for the
    /// weights and positions the core skins in lane `L`.
    fn oracle<L: Lane>(&self) -> (Vec<V3>, Vec<V3>, Vec<(f64, f64)>) {
        let infs = self.core_influences::<L>();
        let mut out = (Vec::new(), Vec::new(), Vec::new());
        for ((inf, p), n) in infs.iter().zip(&self.positions).zip(&self.normals) {
            let index: Vec<usize> = inf.bones().iter().map(|&b| usize::from(b)).collect();
            let weights: Vec<f64> = inf.weights().iter().map(|&w| f64::from(w)).collect();
            let p = p.map(|c| f64::from(L::from_f32(c).unwrap().to_f32()));
            let n = n.map(|c| f64::from(L::from_f32(c).unwrap().to_f32()));
            out.0
                .push(dual_oracle::dqs_point(&self.bones, &index, &weights, p));
            out.1
                .push(dual_oracle::dqs_normal(&self.bones, &index, &weights, n));
            out.2.push((
                dual_oracle::blend(&self.bones, &index, &weights).2,
                dual_oracle::hemisphere_margin(&self.bones, &index, &weights),
            ));
        }
        out
    }

    /// The core's skinned points and normals in lane `L`.
    fn core<L: Lane>(&self) -> (Vec<V3>, Vec<V3>) {
        let palette = self.palette::<L>();
        let positions: Vec<[L; 3]> = self
            .positions
            .iter()
            .map(|p| p.map(|c| L::from_f32(c).unwrap()))
            .collect();
        let normals: Vec<[L; 3]> = self
            .normals
            .iter()
            .map(|p| p.map(|c| L::from_f32(c).unwrap()))
            .collect();
        let infs = self.core_influences::<L>();
        let mesh = SkinnedMesh::<L, 4>::new(&positions, &infs).unwrap();
        let mut out = vec![[L::Out::default(); 3]; positions.len()];
        let mut out_n = vec![[L::default(); 3]; positions.len()];
        mesh.skin_dqs_with_normals(palette.as_slice(), &normals, &mut out, &mut out_n)
            .unwrap();
        // Positions alone give the same bits.
        let mut alone = vec![[L::Out::default(); 3]; positions.len()];
        mesh.skin_dqs(palette.as_slice(), &mut alone).unwrap();
        assert_eq!(alone, out);
        (
            out.iter()
                .map(|p| p.map(|c| f64::from(L::out_to_f32(c))))
                .collect(),
            out_n
                .iter()
                .map(|n| n.map(|c| f64::from(c.to_f32())))
                .collect(),
        )
    }
}

fn coord_error(a: V3, b: V3) -> f64 {
    (0..3).map(|k| (a[k] - b[k]).abs()).fold(0.0, f64::max)
}

/// As [`FIXED_MARGIN`] for `f32`, whose palette rounds a dot product by about 10⁻⁷.
const F32_MARGIN: f64 = 1e-5;

proptest! {
    #![proptest_config(Config::with_cases(256))]

    #[test]
    fn f32_lane_matches_the_oracle(seed in any::<u64>(), bones in 1usize..=64, scale in 0.01f64..100.0) {
        let rig = Rig::random(seed, bones, 64, 1.5 * scale);
        let (got_p, got_n) = rig.core::<f32>();
        let (want_p, want_n, blend) = rig.oracle::<f32>();
        let extent = oracle::extent(&want_p).max(oracle::extent(&rig.positions.iter().map(|p| p.map(f64::from)).collect::<Vec<_>>()));
        // A rig's translations can carry a small mesh far from the origin (one bone, scale
        // 98: coordinates near 129 for an extent of 3.5), where one f32 step is already
        // 1.5e-5: the limit adds four steps at the largest coordinate to 1e-5 of the extent.
        let reach = want_p.iter().flatten().fold(0.0, |m: f64, c| m.max(c.abs()));
        let limit = 1e-5 * extent + 4.0 * f64::from(f32::EPSILON) * reach;
        for (v, ((g, w), &(_, margin))) in got_p.iter().zip(&want_p).zip(&blend).enumerate() {
            if margin < F32_MARGIN {
                continue;
            }
            let err = coord_error(*g, *w);
            prop_assert!(err <= limit, "vertex {v}: {g:?} vs {w:?}, error {err:e} > {limit:e} (1e-5 × extent {extent:e} + 4 f32 steps at {reach:e})");
        }
        for (v, ((g, w), &(_, margin))) in got_n.iter().zip(&want_n).zip(&blend).enumerate() {
            if margin < F32_MARGIN {
                continue;
            }
            let err = coord_error(*g, *w);
            prop_assert!(err <= 2e-5, "normal {v}: {g:?} vs {w:?}, error {err:e}");
        }
    }

    #[test]
    fn fixed_lane_is_within_its_bound(seed in any::<u64>(), bones in 1usize..=64) {
        let rig = Rig::random(seed, bones, 64, 1.9);
        let (got_p, got_n) = rig.core::<Q14>();
        let (want_p, want_n, blend) = rig.oracle::<Q14>();
        let verts = got_p.iter().zip(&want_p).zip(&got_n).zip(&want_n).zip(&blend);
        for (v, ((((g, w), gn), wn), &(nu, margin))) in verts.enumerate() {
            if margin < FIXED_MARGIN {
                continue;
            }
            let err = coord_error(*g, *w);
            let bound = fixed_dual_error_bound(nu);
            prop_assert!(err <= bound, "vertex {v}: error {err:e} > bound {bound:e} (ν = {nu})");
            let err = coord_error(*gn, *wn);
            prop_assert!(err <= 2e-3, "normal {v}: {gn:?} vs {wn:?}, error {err:e}");
        }
    }
}

/// Vertices whose bones' rotations are within this (|q · q_lead|) of 180° from the lead
/// bone's lie on the blend's discontinuity, where a rounded lane may flip a quaternion the
/// oracle does not (`dual_oracle::hemisphere_margin`): the rounded palette moves a
/// quaternion dot product by at most 4·2⁻¹⁴ ≈ 2.4·10⁻⁴. The random rigs blend unrelated
/// rotations on purpose, so a few vertices land there; real rigs blend neighbours.
const FIXED_MARGIN: f64 = 1e-3;

/// The largest fixed-lane errors over many rigs, printed (run with `--nocapture`): in asset
/// units, and as a fraction of the per-vertex bound.
#[test]
fn fixed_lane_error_is_measured() {
    let (mut worst, mut worst_ratio, mut vertices, mut near) = (0.0f64, 0.0f64, 0, 0);
    for seed in 0..200 {
        let rig = Rig::random(seed, 48, 128, 1.9);
        let (got, _) = rig.core::<Q14>();
        let (want, _, blend) = rig.oracle::<Q14>();
        for ((g, w), &(nu, margin)) in got.iter().zip(&want).zip(&blend) {
            if margin < FIXED_MARGIN {
                near += 1;
                continue;
            }
            let err = coord_error(*g, *w);
            worst = worst.max(err);
            worst_ratio = worst_ratio.max(err / fixed_dual_error_bound(nu));
            vertices += 1;
        }
    }
    println!(
        "fixed DQS: worst error {worst:.3e} asset units over {vertices} vertices, {:.1}% of its bound ({near} vertices on the discontinuity left out)",
        100.0 * worst_ratio
    );
    assert!(worst_ratio <= 1.0);
    assert!(worst > 0.0, "the fixed lane rounds: some error must show");
    assert!(
        near * 100 < vertices,
        "{near} of {vertices} vertices near the discontinuity"
    );
}

/// One-bone vertices (stitching) move exactly as under LBS, up to rounding.
#[test]
fn one_bone_vertices_match_lbs() {
    for seed in 0..20 {
        let mut rig = Rig::random(seed, 16, 64, 1.9);
        for (b, w) in &mut rig.influences {
            *b = [b[0]; 4];
            *w = [1.0, 0.0, 0.0, 0.0];
        }
        let lbs = |lane_f32: bool| -> Vec<V3> {
            if lane_f32 {
                let palette: Vec<Affine<f32>> = (0..16)
                    .map(|b| Affine::from_f32(rig.matrix(b)).unwrap())
                    .collect();
                let infs = rig.core_influences::<f32>();
                let mesh = SkinnedMesh::<f32, 1>::new(&rig.positions, &infs).unwrap();
                let mut out = vec![[0.0; 3]; 64];
                mesh.skin(&palette, &mut out).unwrap();
                out.iter().map(|p| p.map(f64::from)).collect()
            } else {
                let mut palette = Palette::<Q14, 16>::new();
                for b in 0..16 {
                    palette
                        .push(&Affine::<Fx>::from_f32(rig.matrix(b)).unwrap())
                        .unwrap();
                }
                let positions: Vec<[Q14; 3]> =
                    rig.positions.iter().map(|p| p.map(Q14::from_num)).collect();
                let infs = rig.core_influences::<Q14>();
                let mesh = SkinnedMesh::<Q14, 1>::new(&positions, &infs).unwrap();
                let mut out = vec![[Out16::ZERO; 3]; 64];
                mesh.skin(palette.as_slice(), &mut out).unwrap();
                out.iter().map(|p| p.map(|c| c.to_num::<f64>())).collect()
            }
        };
        let (dq_f32, _) = rig.core::<f32>();
        for (a, b) in dq_f32.iter().zip(lbs(true)) {
            assert!(
                coord_error(*a, b) <= 4e-6,
                "f32 seed {seed}: {a:?} vs {b:?}"
            );
        }
        let (dq_fixed, _) = rig.core::<Q14>();
        let limit = FIXED_ERROR_BOUND + fixed_dual_error_bound(1.0);
        for (a, b) in dq_fixed.iter().zip(lbs(false)) {
            assert!(
                coord_error(*a, b) <= limit,
                "fixed seed {seed}: {a:?} vs {b:?}"
            );
        }
    }
}

/// The candy wrapper: a cylinder along x from 0 to 2 (radius ½), bone 0 still, bone 1
/// twisted about the axis by θ, weights going linearly from bone 0 at x = 0 to bone 1 at
/// x = 2. Under LBS the middle ring (weights ½, ½) shrinks to |cos(θ/2)| of its radius and
/// collapses at 180°; DQS rotates it by θ/2 and keeps its radius.
#[test]
fn the_candy_wrapper_collapses_under_lbs_not_under_dqs() {
    const RINGS: usize = 9;
    const AROUND: usize = 16;
    let radius = 0.5;
    let mut positions = Vec::new();
    let mut influences = Vec::new();
    for ring in 0..RINGS {
        let x = 2.0 * ring as f32 / (RINGS - 1) as f32;
        for k in 0..AROUND {
            let a = std::f32::consts::TAU * k as f32 / AROUND as f32;
            positions.push([x - 1.0, radius * a.cos(), radius * a.sin()]);
            influences.push(([0, 1, 0, 0], [1.0 - x / 2.0, x / 2.0, 0.0, 0.0]));
        }
    }
    let middle = (RINGS / 2) * AROUND..(RINGS / 2 + 1) * AROUND;
    let ring_radius = |out: &[V3]| -> f64 {
        out[middle.clone()]
            .iter()
            .map(|p| (p[1] * p[1] + p[2] * p[2]).sqrt())
            .fold(f64::INFINITY, f64::min)
    };
    for degrees in (0..=180).step_by(15) {
        let theta = f64::from(degrees).to_radians();
        let twist = oracle::trs([0.0; 3], axis_angle([1.0, 0.0, 0.0], theta, 1.0), [1.0; 3])
            .map(|r| r.map(|v| v as f32));
        let matrices = [Affine::<f32>::IDENTITY.rows, twist];
        let (lbs_f32, dqs_f32) = skin_both::<f32>(&matrices, &positions, &influences);
        let (lbs_fixed, dqs_fixed) = skin_both::<Q14>(&matrices, &positions, &influences);
        let want_lbs = f64::from(radius) * (theta / 2.0).cos().abs();
        for (lane, lbs, dqs, tol) in [
            ("f32", &lbs_f32, &dqs_f32, 1e-5),
            ("fixed", &lbs_fixed, &dqs_fixed, 1e-3),
        ] {
            let (l, d) = (ring_radius(lbs), ring_radius(dqs));
            assert!(
                (l - want_lbs).abs() <= tol,
                "{lane} LBS at {degrees}°: {l} vs {want_lbs}"
            );
            assert!(
                d >= 0.9 * f64::from(radius),
                "{lane} DQS at {degrees}°: radius {d}"
            );
            if degrees == 180 {
                assert!(
                    l <= 0.01 * f64::from(radius),
                    "{lane} LBS at 180°: radius {l}"
                );
            }
        }
    }
}

/// LBS and DQS of the same two joint matrices over the same vertices, as `f64` points.
fn skin_both<L: Lane>(
    matrices: &[[[f32; 4]; 3]; 2],
    positions: &[[f32; 3]],
    influences: &[([u8; 4], [f32; 4])],
) -> (Vec<V3>, Vec<V3>) {
    let mut lbs_palette = Palette::<L, 2>::new();
    let mut dq_palette = DualPalette::<L, 2>::new();
    for m in matrices {
        let m = Affine::<L::Real>::from_f32(*m).unwrap();
        lbs_palette.push(&m).unwrap();
        dq_palette.push(&m).unwrap();
    }
    let positions: Vec<[L; 3]> = positions
        .iter()
        .map(|p| p.map(|c| L::from_f32(c).unwrap()))
        .collect();
    let infs: Vec<Influence<L>> = influences
        .iter()
        .enumerate()
        .map(|(v, (b, w))| Influence::from_weights(*b, *w, v).unwrap())
        .collect();
    let mesh = SkinnedMesh::<L, 2>::new(&positions, &infs).unwrap();
    let mut lbs = vec![[L::Out::default(); 3]; positions.len()];
    let mut dqs = lbs.clone();
    mesh.skin(lbs_palette.as_slice(), &mut lbs).unwrap();
    mesh.skin_dqs(dq_palette.as_slice(), &mut dqs).unwrap();
    let f = |v: Vec<[L::Out; 3]>| {
        v.iter()
            .map(|p| p.map(|c| f64::from(L::out_to_f32(c))))
            .collect()
    };
    (f(lbs), f(dqs))
}

/// Joint matrices DQS cannot represent get a typed error naming the joint.
#[test]
fn scaled_and_non_finite_joints_are_refused_by_name() {
    let mut p = DualPalette::<Q14, 4>::new();
    p.push(&Affine::IDENTITY).unwrap();
    let mut scaled = Affine::<Fx>::IDENTITY;
    scaled.rows[2][2] = Fx::from_num(1.01);
    let err = p.push(&scaled).unwrap_err();
    assert!(
        matches!(err, Error::NotRigid { joint: 1, deviation } if deviation > 0.01),
        "{err:?}"
    );
    let text = err.to_string();
    assert!(text.contains("joint 1") && text.contains("lbs"), "{text}");
    let mut far = Affine::<Fx>::IDENTITY;
    far.rows[0][3] = Fx::from_num(7.0);
    assert_eq!(
        p.push(&far),
        Err(Error::Overflow {
            what: skin_core::error::Quantity::Palette,
            index: 1,
            format: "I2F14"
        })
    );
    let mut nan = Affine::<f32>::IDENTITY;
    nan.rows[0][0] = f32::NAN;
    assert!(matches!(
        DualPalette::<f32, 1>::new().push(&nan),
        Err(Error::NotFinite { index: 0, .. })
    ));
    // A dual quaternion of the identity is exactly (0, 0, 0, 1) + ε·0.
    let d = Dual::<f32>::from_rigid(&Affine::IDENTITY).unwrap();
    assert_eq!(
        d,
        Dual {
            real: [0.0, 0.0, 0.0, 1.0],
            dual: [0.0; 4]
        }
    );
}

/// A palette made by hand rather than by `DualPalette` is checked before the loop: a zero
/// (or otherwise non-unit) rotation part is refused, naming the entry.
#[test]
fn hand_made_palettes_are_checked() {
    let positions = [[Q14::ZERO; 3]];
    let infs = [Influence::<Q14>::from_weights([0, 1, 0, 0], [0.5, 0.5, 0.0, 0.0], 0).unwrap()];
    let mesh = SkinnedMesh::<Q14, 2>::new(&positions, &infs).unwrap();
    let mut good = DualPalette::<Q14, 1>::new();
    good.push(&Affine::IDENTITY).unwrap();
    let palette = [good.as_slice()[0], Dual::default()];
    let mut out = [[Out16::ZERO; 3]];
    assert_eq!(
        mesh.skin_dqs(&palette, &mut out),
        Err(Error::Overflow {
            what: skin_core::error::Quantity::Palette,
            index: 1,
            format: "I2F14"
        })
    );
    let fine = [good.as_slice()[0]; 2];
    assert_eq!(mesh.skin_dqs(&fine, &mut out), Ok(()));
    let nan = [Dual::<f32> {
        real: [f32::NAN; 4],
        dual: [0.0; 4],
    }; 2];
    let positions = [[0.0f32; 3]];
    let infs = [Influence::<f32>::rigid(1)];
    let mesh = SkinnedMesh::<f32, 1>::new(&positions, &infs).unwrap();
    let mut out = [[0.0f32; 3]];
    assert!(matches!(
        mesh.skin_dqs(&nan, &mut out),
        Err(Error::Overflow { index: 0, .. })
    ));
}
