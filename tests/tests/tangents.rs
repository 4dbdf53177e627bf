//! Tangents: skin-core's `tangent` in both lanes against the `f64` normal-skinning oracle
//! (`skin_tests::oracle::lbs_normal`: a tangent's direction skins as a normal does), the
//! handedness kept, and the host's import and `skin pose` output of glTF `TANGENT`s.

use skin_core::affine::Affine;
use skin_core::lane::{Lane, Q14};
use skin_core::palette::DualPalette;
use skin_core::skin::SkinnedMesh;
use skin_core::tangent;
use skin_core::vertex::Influence;
use skin_core::Error;
use skin_tests::dual_oracle::{self, Bone};
use skin_tests::oracle::{self, M34};
use skin_tests::Rng;

/// A random unit vector.
fn unit(rng: &mut Rng) -> [f32; 3] {
    loop {
        let v = rng.point(1.0);
        let n = v.iter().map(|c| c * c).sum::<f32>().sqrt();
        if n > 0.2 && n <= 1.0 {
            return v.map(|c| c / n);
        }
    }
}

/// A random rigid-plus-uniform-scale matrix: a rotation by a random unit quaternion, a
/// scale of 0.7 to 1.2, a translation within ±1.
fn matrix(rng: &mut Rng) -> [[f32; 4]; 3] {
    let q = oracle::normalize_quat([0; 4].map(|_| f64::from(rng.range(-1.0, 1.0))));
    let r = oracle::quat_to_matrix(q);
    let s = rng.range(0.7, 1.2);
    let t = rng.point(1.0);
    [0, 1, 2].map(|i| {
        [
            r[i][0] as f32 * s,
            r[i][1] as f32 * s,
            r[i][2] as f32 * s,
            t[i],
        ]
    })
}

/// `n` random vertices in lane `L`: positions, four influences over bones 0–5, unit
/// tangents with a random handedness.
type Vertices<L> = (Vec<[L; 3]>, Vec<Influence<L>>, Vec<[L; 4]>);
fn vertices<L: Lane>(rng: &mut Rng, n: usize) -> Vertices<L> {
    let mut positions = Vec::new();
    let mut influences = Vec::new();
    let mut tangents = Vec::new();
    for v in 0..n {
        positions.push(rng.point(0.5).map(|c| L::from_f32(c).unwrap()));
        let mut w = [0; 4].map(|_| rng.unit());
        let sum: f32 = w.iter().sum();
        w = w.map(|x| x / sum);
        let bones = [0; 4].map(|_| (rng.unit() * 6.0) as u8);
        influences.push(Influence::<L>::from_weights(bones, w, v).unwrap());
        let d = unit(rng);
        let hand = if rng.unit() < 0.5 { -1.0 } else { 1.0 };
        tangents.push([d[0], d[1], d[2], hand].map(|c| L::from_f32(c).unwrap()));
    }
    (positions, influences, tangents)
}

/// The largest direction error (measured against the oracle on the lane's own inputs) of
/// `n` random vertices skinned by 4-bone blends of 6 random matrices in lane `L`, over
/// vertices whose blended tangent is at least 0.5 long (shorter ones are renormalised from
/// a collapsing blend, where every skinning method loses the direction).
fn worst<L: Lane>(rng: &mut Rng, n: usize) -> f64 {
    let rows: Vec<[[f32; 4]; 3]> = (0..6).map(|_| matrix(rng)).collect();
    let palette: Vec<Affine<L>> = rows
        .iter()
        .map(|m| Affine {
            rows: m.map(|r| r.map(|v| L::from_f32(v).unwrap())),
        })
        .collect();
    // The oracle's matrices are the lane's entries, widened.
    let wide: Vec<M34> = palette
        .iter()
        .map(|m| m.rows.map(|r| r.map(|v| f64::from(L::to_f32(v)))))
        .collect();
    let (positions, influences, tangents) = vertices::<L>(rng, n);
    let mut out = vec![[L::default(); 4]; n];
    tangent::skinned::<L, 4>(&positions, &influences, &palette, &tangents, &mut out).unwrap();
    // Bit for bit what the normal path gives the same vectors.
    let dirs: Vec<[L; 3]> = tangents.iter().map(|t| [t[0], t[1], t[2]]).collect();
    let mut normals = vec![[L::default(); 3]; n];
    let mut skinned = vec![Default::default(); n];
    SkinnedMesh::<L, 4>::new(&positions, &influences)
        .unwrap()
        .skin_with_normals(&palette, &dirs, &mut skinned, &mut normals)
        .unwrap();
    let mut worst = 0.0f64;
    for v in 0..n {
        assert_eq!([out[v][0], out[v][1], out[v][2]], normals[v], "vertex {v}");
        assert_eq!(
            out[v][3], tangents[v][3],
            "vertex {v}: the handedness is kept"
        );
        let inf = &influences[v];
        let bones: Vec<usize> = inf.bones().iter().map(|&b| usize::from(b)).collect();
        let weights: Vec<f64> = inf.weights().iter().map(|&w| f64::from(w)).collect();
        let t = [0, 1, 2].map(|i| f64::from(L::to_f32(tangents[v][i])));
        let blended = oracle::lbs_normal_unnormalised(&wide, &bones, &weights, t);
        if oracle::norm(blended) < 0.5 {
            continue;
        }
        let want = oracle::lbs_normal(&wide, &bones, &weights, t).unwrap();
        let got = [0, 1, 2].map(|i| f64::from(L::to_f32(out[v][i])));
        worst = worst.max(oracle::distance(got, want));
    }
    worst
}

/// The direction error bounds: `f32` the renormalisation's 5·10⁻⁶ (the lane's fast inverse
/// square root after two Newton steps, `lane/float.rs`) plus rounding; the fixed lane's `I2F14` output unit 2⁻¹⁴ per
/// component, one rounding of the renormalised vector plus the blend's, over a blended
/// length of at least ½ (docs/DEFORMERS.md).
const F32_BOUND: f64 = 6e-6;
const FIXED_BOUND: f64 = 4.0 / 16384.0;

#[test]
fn tangents_skin_like_normals_within_the_lanes_bounds_of_the_oracle() {
    let mut rng = Rng(0x7A46_0001);
    let (mut f, mut q) = (0.0f64, 0.0f64);
    for _ in 0..40 {
        f = f.max(worst::<f32>(&mut rng, 100));
        q = q.max(worst::<Q14>(&mut rng, 100));
    }
    println!("largest errors: f32 {f:e}, fixed {q:e}");
    assert!(f <= F32_BOUND, "f32 {f}");
    assert!(q <= FIXED_BOUND, "fixed {q}");
    // The bounds are not vacuous.
    assert!(
        f > F32_BOUND / 100.0 && q > FIXED_BOUND / 20.0,
        "f32 {f}, fixed {q}"
    );
}

/// [`worst`] by dual quaternion skinning of rigid bones, against the `f64` DQS oracle
/// (`dual_oracle::dqs_normal`), over vertices away from the blend's discontinuity (every
/// bone's rotation within 84° of the most-weighted one's) with a blended real part at least
/// ½ long.
fn worst_dqs<L: Lane>(rng: &mut Rng, n: usize) -> f64 {
    let bones: Vec<Bone> = (0..6)
        .map(|_| Bone {
            q: oracle::normalize_quat([0; 4].map(|_| f64::from(rng.range(-1.0, 1.0)))),
            t: rng.point(0.5).map(f64::from),
        })
        .collect();
    let mut palette = DualPalette::<L, 8>::new();
    for b in &bones {
        let m = oracle::trs(b.t, b.q, [1.0; 3]).map(|r| r.map(|v| v as f32));
        palette
            .push(&Affine::<L::Real>::from_f32(m).unwrap())
            .unwrap();
    }
    let (positions, influences, tangents) = vertices::<L>(rng, n);
    let mut out = vec![[L::default(); 4]; n];
    tangent::skinned_dqs::<L, 4>(
        &positions,
        &influences,
        palette.as_slice(),
        &tangents,
        &mut out,
    )
    .unwrap();
    let mut worst = 0.0f64;
    for v in 0..n {
        assert_eq!(
            out[v][3], tangents[v][3],
            "vertex {v}: the handedness is kept"
        );
        let inf = &influences[v];
        let index: Vec<usize> = inf.bones().iter().map(|&b| usize::from(b)).collect();
        let weights: Vec<f64> = inf.weights().iter().map(|&w| f64::from(w)).collect();
        let (_, _, norm) = dual_oracle::blend(&bones, &index, &weights);
        if norm < 0.5 || dual_oracle::hemisphere_margin(&bones, &index, &weights) < 0.1 {
            continue;
        }
        let t = [0, 1, 2].map(|i| f64::from(L::to_f32(tangents[v][i])));
        let want = dual_oracle::dqs_normal(&bones, &index, &weights, t);
        let got = [0, 1, 2].map(|i| f64::from(L::to_f32(out[v][i])));
        worst = worst.max(oracle::distance(got, want));
    }
    worst
}

#[test]
fn dqs_tangents_rotate_with_the_blend_within_the_bounds_of_the_oracle() {
    let mut rng = Rng(0x7A46_0002);
    let (mut f, mut q) = (0.0f64, 0.0f64);
    for _ in 0..40 {
        f = f.max(worst_dqs::<f32>(&mut rng, 100));
        q = q.max(worst_dqs::<Q14>(&mut rng, 100));
    }
    println!("largest DQS errors: f32 {f:e}, fixed {q:e}");
    // The same bounds as LBS: the palette's unit dual quaternions are rounded to the lane
    // as its matrices are, and the turned direction is renormalised the same way.
    assert!(f <= F32_BOUND, "f32 {f}");
    assert!(q <= FIXED_BOUND, "fixed {q}");
    assert!(
        f > F32_BOUND / 100.0 && q > FIXED_BOUND / 20.0,
        "f32 {f}, fixed {q}"
    );
}

/// The fixed lane's tangents against the `f64` blend of the given (unrounded) matrices,
/// weights and tangents, each vertex within `skin_core::tangent::fixed_error_bound` at its
/// own blended length `ℓ` and the palette's exponent: 8-bone palettes of random rotations,
/// rigid or scaled up to 4× (uniform and per axis; the palette takes the exponent that holds
/// it), four random weights a vertex, so that the blends fold to every length. The
/// smallest `ℓ` met and the worst error as a share of the bound are printed.
#[test]
fn fixed_tangents_keep_within_the_derived_bound_at_every_blend_and_exponent() {
    use skin_core::num::Fx;
    use skin_core::palette::Palette;
    let mut rng = Rng(0x7A46_0003);
    let (mut worst, mut seen, mut shortest) = ([0f64; 3], [0usize; 3], f64::INFINITY);
    for case in 0..120 {
        let most = [1.0, 2.0, 4.0][case % 3];
        let rows: Vec<[[f32; 4]; 3]> = (0..8)
            .map(|_| {
                let q = oracle::normalize_quat([0; 4].map(|_| f64::from(rng.range(-1.0, 1.0))));
                let s = match case % 2 {
                    0 => [rng.range(0.25, most); 3],
                    _ => [0; 3].map(|_| rng.range(0.25, most)),
                };
                let s = if most == 1.0 { [1.0; 3] } else { s };
                let m = oracle::trs(rng.point(1.0).map(f64::from), q, s.map(f64::from));
                m.map(|r| r.map(|v| v as f32))
            })
            .collect();
        let fx: Vec<Affine<Fx>> = rows.iter().map(|r| Affine::from_f32(*r).unwrap()).collect();
        let mut palette = Palette::<Q14, 8>::new();
        palette.fill(|| fx.iter().map(|m| Ok(*m))).unwrap();
        let e = palette.exponent();
        seen[usize::from(e)] += 1;
        let n = 100;
        let (mut positions, mut influences, mut given, mut lane) = (vec![], vec![], vec![], vec![]);
        for v in 0..n {
            positions.push(rng.point(0.9).map(Q14::from_num));
            let bones = [0; 4].map(|_| (rng.unit() * 8.0) as u8 % 8);
            let mut w = [0; 4].map(|_| rng.range(0.05, 1.0));
            let sum: f32 = w.iter().sum();
            w.iter_mut().for_each(|x| *x /= sum);
            let mut order = [0usize, 1, 2, 3];
            order.sort_by(|&a, &b| w[b].total_cmp(&w[a]));
            let (bones, w) = (order.map(|k| bones[k]), order.map(|k| w[k]));
            influences.push(Influence::<Q14>::from_weights(bones, w, v).unwrap());
            let d = unit(&mut rng);
            let t = [d[0], d[1], d[2], if v % 2 == 0 { 1.0 } else { -1.0 }];
            lane.push(t.map(Q14::from_num));
            given.push((bones, w, t));
        }
        let mut out = vec![[Q14::ZERO; 4]; n];
        tangent::skinned::<Q14, 4>(&positions, &influences, palette.as_slice(), &lane, &mut out)
            .unwrap();
        let wide: Vec<M34> = rows.iter().map(|m| m.map(|r| r.map(f64::from))).collect();
        for (v, (bones, w, t)) in given.iter().enumerate() {
            let bones = bones.map(usize::from);
            let weights = w.map(f64::from);
            let dir = [t[0], t[1], t[2]].map(f64::from);
            let blended = oracle::norm(oracle::lbs_normal_unnormalised(
                &wide, &bones, &weights, dir,
            ));
            shortest = shortest.min(blended);
            let bound = tangent::fixed_error_bound(blended, e);
            let want = oracle::lbs_normal(&wide, &bones, &weights, dir);
            let got = [0, 1, 2].map(|i| f64::from(out[v][i].to_num::<f32>()));
            let err = match want {
                Some(want) => (0..3).map(|i| (got[i] - want[i]).abs()).fold(0.0, f64::max),
                None => continue,
            };
            assert!(
                err <= bound,
                "case {case} exponent {e} vertex {v}: ℓ {blended}, error {err:e} above {bound:e}"
            );
            assert_eq!(out[v][3], lane[v][3], "the handedness is kept");
            worst[usize::from(e)] = worst[usize::from(e)].max(err / bound);
        }
    }
    println!(
        "palettes by exponent {seen:?}; worst error / bound by exponent {worst:.3?}; shortest blend {shortest:.3}"
    );
    assert!(seen.iter().all(|&k| k > 0), "{seen:?}");
    assert!(shortest < 0.1, "the blends fold: {shortest}");
}

/// A worm with `TANGENT`s (`gltf_gen::ring_tangents`) whose vertex `v`'s tangent is
/// replaced by `t`.
fn worm_with_tangent(v: usize, t: [f32; 4]) -> skin_tests::gltf_gen::Gen {
    use skin_tests::gltf_gen::{ring_tangents, Worm};
    let mut g = Worm::default().build();
    ring_tangents(&mut g, 0);
    let acc = g.json["meshes"][0]["primitives"][0]["attributes"]["TANGENT"]
        .as_u64()
        .unwrap() as usize;
    let view = g.json["accessors"][acc]["bufferView"].as_u64().unwrap() as usize;
    let at = g.json["bufferViews"][view]["byteOffset"].as_u64().unwrap() as usize + 16 * v;
    for (k, c) in t.iter().enumerate() {
        g.bin[at + 4 * k..at + 4 * k + 4].copy_from_slice(&c.to_le_bytes());
    }
    g
}

#[test]
fn tangents_that_are_no_tangents_are_refused_by_name() {
    let refused = |t: [f32; 4]| {
        let g = worm_with_tangent(7, t);
        skin_tests::import_gen(&g).unwrap_err().to_string()
    };
    let e = refused([0.0, 0.0, 0.0, 1.0]);
    assert!(
        e.starts_with(
            "mesh 0 primitive 0 vertex 7: TANGENT [0.0, 0.0, 0.0, 1.0] has a direction 0e0 long"
        ),
        "{e}"
    );
    let e = refused([1.0, 0.0, 0.0, 0.5]);
    assert!(
        e.contains("vertex 7: TANGENT [1.0, 0.0, 0.0, 0.5] has handedness w = 0.5, not ±1"),
        "{e}"
    );
    let e = refused([1.0, 0.0, 0.0, 0.0]);
    assert!(e.contains("handedness w = 0, not ±1"), "{e}");
    let e = refused([f32::NAN, 0.0, 0.0, 1.0]);
    assert!(
        e.contains("TANGENT of mesh 0 primitive 0") && e.contains("NaN"),
        "{e}"
    );
    // Within glTF's limits: a direction of another length is normalised (one warning),
    // a handedness a rounding off ±1 is set to ±1.
    let g = worm_with_tangent(7, [0.0, 3.0, 4.0, -0.9999]);
    let rig = skin_tests::import_gen(&g).unwrap_or_else(|e| panic!("{e}"));
    let t = rig.meshes[0].primitives[0].tangents.as_ref().unwrap()[7];
    assert_eq!(t, [0.0, 0.6, 0.8, -1.0]);
    let warned = rig.warnings.iter().map(ToString::to_string);
    assert!(
        warned.clone().any(|w| w.contains("1 TANGENT directions")),
        "{:?}",
        warned.collect::<Vec<_>>()
    );
}

#[test]
fn rigid_tangents_turn_with_their_bone_and_keep_w() {
    let s = std::f32::consts::FRAC_1_SQRT_2;
    // 45° about Z, translated (the translation does not move a direction).
    let m = Affine {
        rows: [[s, -s, 0.0, 3.0], [s, s, 0.0, -1.0], [0.0, 0.0, 1.0, 0.5]],
    };
    let positions = [[0.1f32, 0.2, 0.3]; 2];
    let tangents = [[1.0f32, 0.0, 0.0, 1.0], [0.0, 0.0, 1.0, -1.0]];
    let mut out = [[0.0f32; 4]; 2];
    tangent::rigid::<f32>(&positions, &[0, 0], &[m], &tangents, &mut out).unwrap();
    let near = |a: [f32; 4], b: [f32; 4]| (0..4).all(|i| (a[i] - b[i]).abs() <= 6e-6);
    assert!(near(out[0], [s, s, 0.0, 1.0]), "{out:?}");
    assert!(near(out[1], [0.0, 0.0, 1.0, -1.0]), "{out:?}");
}

#[test]
fn mismatched_or_out_of_palette_tangents_are_errors() {
    let positions = [[0.0f32; 3]; 2];
    let influences = [Influence::rigid(0), Influence::rigid(1)];
    let tangents = [[1.0f32, 0.0, 0.0, 1.0]; 2];
    let mut out = [[0.0f32; 4]; 2];
    let one = [Affine::IDENTITY];
    let e = tangent::skinned::<f32, 4>(&positions, &influences, &one, &tangents, &mut out);
    assert!(matches!(e, Err(Error::BoneIndex { .. })), "{e:?}");
    let two = [Affine::IDENTITY; 2];
    let e = tangent::skinned::<f32, 4>(&positions, &influences, &two, &tangents[..1], &mut out);
    assert_eq!(
        e,
        Err(Error::LengthMismatch {
            expected: 2,
            actual: 1
        })
    );
    let e = tangent::skinned::<f32, 4>(&positions, &influences, &two, &tangents, &mut out[..1]);
    assert_eq!(
        e,
        Err(Error::LengthMismatch {
            expected: 2,
            actual: 1
        })
    );
    tangent::skinned::<f32, 4>(&positions, &influences, &two, &tangents, &mut out).unwrap();
}

/// The procedural character with a `TANGENT` per vertex: perpendicular to its normal,
/// handedness alternating; the file and the tangents.
fn character_with_tangents() -> (Vec<u8>, Vec<[f32; 4]>) {
    let glb = skin_host::character::Character::new().glb();
    let rig = skin_host::import::from_slice(&glb, None).unwrap();
    let normals = rig.meshes[0].primitives[0].normals.clone().unwrap();
    let tangents: Vec<[f32; 4]> = normals
        .iter()
        .enumerate()
        .map(|(v, n)| {
            let up = if n[1].abs() < 0.9 {
                [0.0, 1.0, 0.0]
            } else {
                [1.0, 0.0, 0.0]
            };
            let c = [
                n[1] * up[2] - n[2] * up[1],
                n[2] * up[0] - n[0] * up[2],
                n[0] * up[1] - n[1] * up[0],
            ];
            let l = c.iter().map(|x| x * x).sum::<f32>().sqrt();
            [
                c[0] / l,
                c[1] / l,
                c[2] / l,
                if v % 2 == 0 { 1.0 } else { -1.0 },
            ]
        })
        .collect();
    let parsed = gltf::Glb::from_slice(&glb).unwrap();
    let mut doc: serde_json::Value = serde_json::from_slice(&parsed.json).unwrap();
    let mut bin = parsed.bin.unwrap().into_owned();
    bin.resize(bin.len().next_multiple_of(4), 0);
    let offset = bin.len();
    bin.extend(tangents.iter().flatten().flat_map(|c| c.to_le_bytes()));
    let views = doc["bufferViews"].as_array_mut().unwrap();
    views.push(
        serde_json::json!({"buffer": 0, "byteOffset": offset, "byteLength": bin.len() - offset}),
    );
    let view = views.len() - 1;
    let accessors = doc["accessors"].as_array_mut().unwrap();
    accessors.push(serde_json::json!({"bufferView": view, "componentType": 5126, "count": tangents.len(), "type": "VEC4"}));
    doc["meshes"][0]["primitives"][0]["attributes"]["TANGENT"] =
        serde_json::json!(accessors.len() - 1);
    doc["buffers"][0]["byteLength"] = serde_json::json!(bin.len());
    (skin_host::character::container(&doc, bin), tangents)
}

/// `skin pose`'s JSON for `args` (after the model), run in this process.
fn pose_json(model: &std::path::Path, args: &[&str]) -> serde_json::Value {
    use clap::Parser as _;
    let m = model.to_str().unwrap();
    let argv = ["skin", "pose", m].into_iter().chain(args.iter().copied());
    let cli = skin_host::cli::Cli::try_parse_from(argv).unwrap();
    let (mut out, mut warn) = (Vec::new(), Vec::new());
    skin_host::cli::run(cli, &mut out, &mut warn).unwrap();
    serde_json::from_slice(&out).unwrap()
}

#[test]
fn imported_tangents_pose_like_normals_through_the_clip() {
    let dir = tempfile::tempdir().unwrap();
    let (glb, given) = character_with_tangents();
    let model = dir.path().join("walker-tangents.glb");
    std::fs::write(&model, &glb).unwrap();
    let rig = skin_host::import::from_path(&model).unwrap();
    let prim = &rig.meshes[0].primitives[0];
    assert_eq!(prim.tangents.as_ref(), Some(&given));

    // At rest every palette matrix is the identity: the tangents come out as they went in.
    let rest = pose_json(&model, &["--rest"]);
    let got: Vec<f64> = serde_json::from_value(rest["blocks"][0]["tangents"].clone()).unwrap();
    assert_eq!(got.len(), 4 * given.len());
    for (g, w) in got.iter().zip(given.iter().flatten()) {
        assert!((g - f64::from(*w)).abs() <= F32_BOUND, "{g} vs {w}");
    }

    // Mid-walk: the f64 blend of the printed joint matrices times the inverse binds.
    let skin = &rig.skins[0];
    for (arith, bound) in [("f32", 2.0 * F32_BOUND), ("fixed", 2.0 * FIXED_BOUND)] {
        let posed = pose_json(&model, &["--anim", "0", "--time", "0.3", "--arith", arith]);
        let worlds: Vec<M34> = skin
            .joints
            .iter()
            .map(|&node| {
                let j = posed["joints"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|j| j["node"] == node)
                    .unwrap();
                let m: Vec<f64> = serde_json::from_value(j["world"].clone()).unwrap();
                // Column-major 4×4 to row-major 3×4.
                [0, 1, 2].map(|r| [m[r], m[4 + r], m[8 + r], m[12 + r]])
            })
            .collect();
        let ibms: Vec<M34> = skin
            .inverse_binds
            .iter()
            .map(|m| m.map(|r| r.map(f64::from)))
            .collect();
        let palette: Vec<M34> = worlds
            .iter()
            .zip(&ibms)
            .map(|(w, b)| oracle::mul(w, b))
            .collect();
        let got: Vec<f64> = serde_json::from_value(posed["blocks"][0]["tangents"].clone()).unwrap();
        let mut worst = 0.0f64;
        for (v, inf) in prim.influences.as_ref().unwrap().iter().enumerate() {
            let bones: Vec<usize> = inf.joints.iter().map(|&j| usize::from(j)).collect();
            let weights: Vec<f64> = inf.weights.iter().map(|&w| f64::from(w)).collect();
            let t = [0, 1, 2].map(|i| f64::from(given[v][i]));
            let want = oracle::lbs_normal(&palette, &bones, &weights, t).unwrap();
            let g = [got[4 * v], got[4 * v + 1], got[4 * v + 2]];
            worst = worst.max(oracle::distance(g, want));
            assert_eq!(
                got[4 * v + 3],
                f64::from(given[v][3]),
                "{arith} vertex {v}: w kept"
            );
        }
        assert!(worst <= bound, "{arith}: {worst} > {bound}");
        assert!(worst > 0.0, "{arith}: the walk turns the tangents");
    }
    // Dual quaternion skinning: unit tangents, w kept, close to LBS on this gentle walk.
    let dqs = pose_json(
        &model,
        &["--anim", "0", "--time", "0.3", "--skinning", "dqs"],
    );
    let lbs = pose_json(&model, &["--anim", "0", "--time", "0.3"]);
    let d: Vec<f64> = serde_json::from_value(dqs["blocks"][0]["tangents"].clone()).unwrap();
    let l: Vec<f64> = serde_json::from_value(lbs["blocks"][0]["tangents"].clone()).unwrap();
    assert_eq!(d.len(), l.len());
    for (a, b) in d.chunks(4).zip(l.chunks(4)) {
        let len = (a[0] * a[0] + a[1] * a[1] + a[2] * a[2]).sqrt();
        assert!((len - 1.0).abs() <= 1e-5, "{a:?}");
        assert_eq!(a[3], b[3]);
        assert!(
            oracle::distance([a[0], a[1], a[2]], [b[0], b[1], b[2]]) < 0.1,
            "{a:?} vs {b:?}"
        );
    }
}

/// The GPU reference's tangents (compute and vertex paths, LBS; compute, DQS) against the
/// core's `f32` tangents and the `f64` oracle: the directions within 10⁻⁵ of the core's (what
/// the GPU's own rounding leaves for normals, `gpu_reference.rs`) and within the core's bound
/// plus that of the oracle, over blends at least ½ long; the handedness kept bit for bit.
#[test]
fn gpu_tangents_skin_like_the_core() {
    let Some(gpu) = skin_tests::gpu("tangents::gpu_tangents_skin_like_the_core") else {
        return;
    };
    use skin_core::budget::{Budget, Layout};
    use skin_host::gpu::GpuMesh;
    let mut rng = Rng(0x7A9_6E7);
    let n = 1998;
    let (positions, influences, tangents) = vertices::<f32>(&mut rng, n);
    let palette: Vec<Affine<f32>> = (0..6)
        .map(|_| Affine {
            rows: matrix(&mut rng),
        })
        .collect();
    let wide: Vec<M34> = palette
        .iter()
        .map(|m| m.rows.map(|r| r.map(f64::from)))
        .collect();
    let mesh = GpuMesh::new(
        positions.clone(),
        vec![[0.0, 0.0, 1.0]; n],
        influences.clone(),
        (0..n as u32).collect(),
    )
    .unwrap();
    let mut core = vec![[0.0f32; 4]; n];
    tangent::skinned::<f32, 4>(&positions, &influences, &palette, &tangents, &mut core).unwrap();
    let compute = gpu
        .skin_tangents_compute(&mesh, &palette, &tangents)
        .unwrap();
    let draws = mesh.single_draw(palette.len());
    let vertex = gpu
        .skin_tangents_vertex(
            &mesh,
            &palette,
            &draws,
            (Budget::VS_1_1, Layout::Affine3x4),
            &tangents,
        )
        .unwrap();
    let mut checked = 0;
    for v in 0..n {
        let inf = &influences[v];
        let bones: Vec<usize> = inf.bones().iter().map(|&b| usize::from(b)).collect();
        let weights: Vec<f64> = inf.weights().iter().map(|&w| f64::from(w)).collect();
        let t = [0, 1, 2].map(|i| f64::from(tangents[v][i]));
        if oracle::norm(oracle::lbs_normal_unnormalised(&wide, &bones, &weights, t)) < 0.5 {
            continue;
        }
        checked += 1;
        let want = oracle::lbs_normal(&wide, &bones, &weights, t).unwrap();
        let dir = |t: &[f32; 4]| [0, 1, 2].map(|i| f64::from(t[i]));
        for (path, got) in [("compute", &compute[v]), ("vertex", &vertex[v])] {
            assert_eq!(got[3], tangents[v][3], "{path} vertex {v}: the handedness");
            let to_core = oracle::distance(dir(got), dir(&core[v]));
            assert!(
                to_core <= 1e-5,
                "{path} vertex {v}: {to_core:e} from the core"
            );
            let to_oracle = oracle::distance(dir(got), want);
            assert!(
                to_oracle <= F32_BOUND + 1e-5,
                "{path} vertex {v}: {to_oracle:e}"
            );
        }
    }
    assert!(checked > n / 2, "only {checked} blends checked");
    // Dual quaternion skinning, rigid bones: the compute path against the core.
    let mut duals = DualPalette::<f32, 8>::new();
    for _ in 0..6 {
        let q = oracle::normalize_quat([0; 4].map(|_| f64::from(rng.range(-1.0, 1.0))));
        let m = oracle::trs(rng.point(0.5).map(f64::from), q, [1.0; 3]);
        duals
            .push(&Affine::from_f32(m.map(|r| r.map(|v| v as f32))).unwrap())
            .unwrap();
    }
    let mut core = vec![[0.0f32; 4]; n];
    let duals = duals.as_slice();
    tangent::skinned_dqs::<f32, 4>(&positions, &influences, duals, &tangents, &mut core).unwrap();
    let compute = gpu.skin_tangents_compute(&mesh, duals, &tangents).unwrap();
    let mut worst = 0.0f64;
    for v in 0..n {
        assert_eq!(compute[v][3], tangents[v][3]);
        let dir = |t: &[f32; 4]| [0, 1, 2].map(|i| f64::from(t[i]));
        worst = worst.max(oracle::distance(dir(&compute[v]), dir(&core[v])));
    }
    assert!(worst <= 1e-5, "DQS: {worst:e} from the core");
    // A tangent list of the wrong length, or a handedness that is NaN, is refused.
    let e = gpu.skin_tangents_compute(&mesh, &palette, &tangents[1..]);
    assert!(e.unwrap_err().to_string().contains("tangents"));
    let mut bad = tangents.clone();
    bad[7][3] = f32::NAN;
    let e = gpu.skin_tangents_compute(&mesh, &palette, &bad);
    assert!(e.unwrap_err().to_string().contains("vertex 7"));
    // A stretched palette (dual quaternions of joints with scale) is refused: the shaders
    // would take the tangents by the stretch's cofactors, a normal's rule.
    let rig = skin_tests::stretched_rig::Rig::random(7, 6, true, false);
    let stretched = rig.palette::<f32>();
    let bones = skin_host::gpu::Bones::Stretched(
        stretched.duals(),
        stretched.stretches().expect("stretched").matrices,
    );
    let e = gpu.skin_tangents_compute(&mesh, bones, &tangents);
    assert!(
        matches!(e, Err(skin_host::gpu::GpuError::StretchedTangents)),
        "{e:?}"
    );
}
