//! Joint scale in the fixed lane: squash and stretch up to 4×, uniform and per axis, skins
//! within the documented bound (`skin_core::lane`, "Joint scale: the palette exponent").
//!
//! * random palettes of rotations times scales up to 4× against `f64`: each palette takes
//!   the smallest exponent that holds it, and every skinned coordinate is within
//!   `fixed_error_bound(exponent)` asset units;
//! * palettes that fit unscaled keep exponent 0 and the bits of the plain push;
//! * a row beyond `2^(MAX_EXPONENT+1)` is still refused, as an overflow;
//! * the generated squash-and-stretch worm (a joint's clip scales it to 4×) poses in fixed
//!   through the host within the bound of the f64 glTF reference, its palettes reaching
//!   exponent 2, and `skin validate`'s core fixed row holds it to the bound at that
//!   exponent (with a GPU adapter).

use skin_core::affine::Affine;
use skin_core::error::Error;
use skin_core::lane::{fixed_error_bound, Lane, Q14};
use skin_core::num::Fx;
use skin_core::palette::Palette;
use skin_core::skin::SkinnedMesh;
use skin_core::vertex::Influence;
use skin_host::pose::palette::fixed_exponent;
use skin_host::pose::{self, LaneKind};
use skin_host::validate::{self, Options};
use skin_tests::gltf_gen::{squash_stretch_worm, KEY_TIMES};
use skin_tests::gltf_ref;
use skin_tests::oracle;
use skin_tests::Rng;

/// Bones per random palette.
const BONES: usize = 8;
/// Vertices skinned per random palette.
const VERTICES: usize = 200;

/// How a random joint scales.
#[derive(Clone, Copy, Debug)]
enum Scale {
    Rigid,
    Uniform,
    PerAxis,
}

/// A random rotation (unit quaternion from four normal-ish components) times a scale of
/// `kind` up to `most`, with a translation within ±1.5: as rows of a 3×4 matrix
/// (`oracle::trs`, rounded to `f32`).
fn joint(rng: &mut Rng, kind: Scale, most: f32) -> [[f32; 4]; 3] {
    let q = [0; 4].map(|_| f64::from(rng.range(-1.0, 1.0)));
    let s = match kind {
        Scale::Rigid => [1.0; 3],
        Scale::Uniform => [rng.range(0.25, most); 3],
        Scale::PerAxis => [0; 3].map(|_| rng.range(0.25, most)),
    };
    let t = rng.point(1.5);
    let m = oracle::trs(t.map(f64::from), q, s.map(f64::from));
    m.map(|row| row.map(|v| v as f32))
}

/// The smallest exponent at which every matrix of `ms` narrows to the fixed lane.
fn smallest_exponent(ms: &[Affine<Fx>]) -> Option<u8> {
    (0..=<Q14 as Lane>::MAX_EXPONENT).find(|&e| {
        ms.iter()
            .all(|m| <Q14 as Lane>::narrow_scaled(m, e).is_some())
    })
}

/// Random vertices within (−1, 1) and four random influences each, over `BONES` bones.
fn vertices(rng: &mut Rng) -> (Vec<[Q14; 3]>, Vec<Influence<Q14>>) {
    let mut pos = Vec::new();
    let mut inf = Vec::new();
    for v in 0..VERTICES {
        pos.push(rng.point(0.999).map(Q14::from_num));
        let bones = [0; 4].map(|_| (rng.unit() * BONES as f32) as u8 % BONES as u8);
        let mut w = [0; 4].map(|_| rng.range(0.05, 1.0));
        let sum: f32 = w.iter().sum();
        w.iter_mut().for_each(|x| *x /= sum);
        // The kernels want the largest weight first.
        let mut order = [0usize, 1, 2, 3];
        order.sort_by(|&a, &b| w[b].total_cmp(&w[a]));
        inf.push(
            Influence::from_weights(order.map(|k| bones[k]), order.map(|k| w[k]), v)
                .expect("weights sum to 1"),
        );
    }
    (pos, inf)
}

/// `Σ wₖ·Mₖ·p` in `f64` with the influence's stored (quantised) weights.
fn reference(ms: &[[[f32; 4]; 3]], p: &[Q14; 3], inf: &Influence<Q14>) -> [f64; 3] {
    let p = p.map(|c| f64::from(c.to_num::<f32>()));
    let mut out = [0.0; 3];
    for (&b, w) in inf.bones().iter().zip(inf.weights()) {
        let m = &ms[usize::from(b)];
        for (i, o) in out.iter_mut().enumerate() {
            let r = m[i].map(f64::from);
            *o += f64::from(w) * (r[0] * p[0] + r[1] * p[1] + r[2] * p[2] + r[3]);
        }
    }
    out
}

#[test]
fn squash_and_stretch_up_to_4x_skins_within_the_bound() {
    let mut rng = Rng(0x5ca1_e5ca_1e00_0004);
    let mut worst = [0f64; 3];
    let mut seen = [0usize; 3];
    for case in 0..240 {
        let kind = [Scale::Rigid, Scale::Uniform, Scale::PerAxis][case % 3];
        let rows: Vec<[[f32; 4]; 3]> = (0..BONES).map(|_| joint(&mut rng, kind, 4.0)).collect();
        let fx: Vec<Affine<Fx>> = rows
            .iter()
            .map(|r| Affine::<Fx>::from_f32(*r).expect("fits I8F24"))
            .collect();
        let mut palette = Palette::<Q14, BONES>::new();
        palette
            .fill(|| fx.iter().map(|m| Ok(*m)))
            .unwrap_or_else(|e| panic!("case {case} {kind:?}: {e}"));
        let e = palette.exponent();
        assert_eq!(Some(e), smallest_exponent(&fx), "case {case} {kind:?}");
        seen[usize::from(e)] += 1;
        let (pos, inf) = vertices(&mut rng);
        let mut out = vec![[Default::default(); 3]; VERTICES];
        SkinnedMesh::<Q14, 4>::new(&pos, &inf)
            .and_then(|m| m.skin(palette.as_slice(), &mut out))
            .expect("a palette that fits skins");
        palette.widen(&mut out);
        let bound = fixed_error_bound(e);
        for v in 0..VERTICES {
            let want = reference(&rows, &pos[v], &inf[v]);
            for i in 0..3 {
                let got = f64::from(out[v][i].to_num::<f32>());
                let err = (got - want[i]).abs();
                assert!(
                    err <= bound,
                    "case {case} {kind:?} exponent {e} vertex {v}: {got} vs {} (error {err:e} \
                     above {bound:e})",
                    want[i]
                );
                worst[usize::from(e)] = worst[usize::from(e)].max(err / bound);
            }
        }
    }
    println!("palettes by exponent {seen:?}; worst error / bound by exponent {worst:.3?}");
    // Every exponent was exercised: the scales reach each range.
    assert!(seen.iter().all(|&n| n > 0), "{seen:?}");
}

#[test]
fn palettes_that_fit_unscaled_keep_the_bits_of_a_plain_push() {
    let mut rng = Rng(0x0b17_5a4e);
    for case in 0..200 {
        let kind = if case % 2 == 0 {
            Scale::Rigid
        } else {
            Scale::Uniform
        };
        let fx: Vec<Affine<Fx>> = (0..BONES)
            .map(|_| Affine::<Fx>::from_f32(joint(&mut rng, kind, 1.1)).unwrap())
            .collect();
        let mut plain = Palette::<Q14, BONES>::new();
        if fx.iter().any(|m| plain.push(m).is_err()) {
            continue; // a scaled row beyond what exponent 0 holds
        }
        let mut filled = Palette::<Q14, BONES>::new();
        filled.fill(|| fx.iter().map(|m| Ok(*m))).unwrap();
        assert_eq!(filled.exponent(), 0, "case {case}");
        assert_eq!(filled.as_slice(), plain.as_slice(), "case {case}");
    }
}

#[test]
fn rows_beyond_the_largest_exponent_are_refused() {
    // Every row sums to 3·2.72 = 8.16 > 8: not even M/4 has rows below 2.
    let beyond = Affine::<Fx>::from_f32([[2.72, 2.72, 2.72, 0.0]; 3]).unwrap();
    let mut palette = Palette::<Q14, 2>::new();
    let err = palette
        .fill(|| [Affine::IDENTITY, beyond].into_iter().map(Ok))
        .unwrap_err();
    assert!(matches!(err, Error::Overflow { index: 1, .. }), "{err:?}");
    // 2.6 along each axis of a row (7.8) fits at exponent 2.
    let within = Affine::<Fx>::from_f32([[2.6, 2.6, 2.6, 0.0]; 3]).unwrap();
    palette
        .fill(|| [Affine::IDENTITY, within].into_iter().map(Ok))
        .unwrap();
    assert_eq!(palette.exponent(), 2);
}

#[test]
fn the_squash_and_stretch_worm_poses_in_fixed_within_the_bound() {
    for uniform in [true, false] {
        let g = squash_stretch_worm(uniform);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("squash.glb");
        std::fs::write(&path, g.glb()).unwrap();
        let rig = skin_host::import::from_slice(&g.glb(), None).expect("imports");
        let reference = gltf_ref::load(&path);
        let k = pose::fixed_unit(&rig).expect("the worm fits the fixed lane");
        // The bound at the largest exponent, in model units.
        let bound = fixed_error_bound(<Q14 as Lane>::MAX_EXPONENT) * 2f64.powi(k);
        for &t in &KEY_TIMES {
            let want = gltf_ref::pose(&reference, Some(0), f64::from(t));
            let got = pose::pose(&rig, Some((0, t)), LaneKind::Fixed)
                .unwrap_or_else(|e| panic!("uniform {uniform} t {t}: {e}"));
            assert_eq!(got.len(), want.len());
            let mut worst = 0f64;
            for (g, w) in got.iter().zip(&want) {
                for (p, q) in g.positions.iter().zip(&w.positions) {
                    for i in 0..3 {
                        worst = worst.max((f64::from(p[i]) - q[i]).abs());
                    }
                }
            }
            println!("uniform {uniform} t {t}: worst {worst:.2e} model units, bound {bound:.2e}");
            assert!(
                worst <= bound,
                "uniform {uniform} t {t}: {worst:e} > {bound:e}"
            );
        }
    }
}

#[test]
fn the_squash_and_stretch_worms_reach_exponent_2_and_validate() {
    let test = "the_squash_and_stretch_worms_reach_exponent_2_and_validate";
    let rig = skin_host::import::from_slice(&squash_stretch_worm(true).glb(), None).unwrap();
    // At rest every joint is rigid; at the third key the last joint is scaled 4×.
    assert_eq!(fixed_exponent(&rig, None).unwrap(), 0);
    assert_eq!(fixed_exponent(&rig, Some((0, KEY_TIMES[2]))).unwrap(), 2);
    let Some(gpu) = skin_tests::gpu(test) else {
        return;
    };
    // The per-axis worm, which stays within its rest pose's length (pictures are framed by
    // it; the uniform one's 4× leaf leaves their depth range).
    let rig = skin_host::import::from_slice(&squash_stretch_worm(false).glb(), None).unwrap();
    assert_eq!(fixed_exponent(&rig, Some((0, KEY_TIMES[1]))).unwrap(), 2);
    let report = validate::validate(&rig, gpu, &Options::default(), |_, _| {}).unwrap();
    let fixed = report
        .rows
        .iter()
        .find(|r| r.path == "core fixed")
        .expect("a core fixed row");
    let k = pose::fixed_unit(&rig).unwrap();
    assert!(
        fixed.limit >= fixed_error_bound(2) * 2f64.powi(k),
        "the fixed row's limit {} is not the bound at exponent 2",
        fixed.limit
    );
    assert!(report.rows.iter().all(|r| r.passes()), "{:#?}", report.rows);
}
