//! Dual quaternion skinning measured on every sample model (`../shared/models`), at rest and
//! at five times of every clip, in both lanes, against the f64 oracle
//! (`skin_tests::dual_oracle`) fed the joint matrices `W·IBM` that the host's pose stage
//! computes in `f32` (asset units, `skin_host::pose::asset_unit`).
//!
//! Every joint matrix must either become a unit dual quaternion or be refused with
//! `Error::NotRigid` naming the joint (a scaled or sheared joint, which DQS cannot
//! represent); the test prints which. Where skinned: `f32` within 1e-5 of the extent, the
//! fixed lane within its derived bound (`skin_core::lane::fixed_dual_error_bound`) per
//! vertex; the test prints the worst errors (`--nocapture`).

use skin_core::affine::Affine;
use skin_core::dual::Dual;
use skin_core::lane::{fixed_dual_error_bound, Lane, Q14};
use skin_core::num::{Fx, Real};
use skin_core::palette::DualPalette;
use skin_core::skin::SkinnedMesh;
use skin_core::Error;
use skin_host::pose::palette::skin_frame;
use skin_host::pose::values::{influences, positions, MAX_JOINTS};
use skin_host::pose::{animate, asset_unit, fixed_unit};
use skin_host::rig::Rig;
use skin_tests::dual_oracle::{self, Bone};
use skin_tests::oracle::{self, V3};

/// As in `core_dqs.rs`: vertices on the blend's discontinuity are left out of the fixed
/// lane's comparison (the real rigs measured here have none).
const FIXED_MARGIN: f64 = 1e-3;

/// The joint matrices `W·IBM` of `skin` in scalar `R` for a frame (asset units `2^k`).
fn joint_matrices<R: Real>(
    rig: &Rig,
    skin: usize,
    anim: Option<(usize, f32)>,
    k: i32,
) -> Vec<Affine<R>> {
    let locals = animate::frame::<R>(rig, anim, k).expect("frame");
    let f = skin_frame::<R>(rig, &locals, skin, k, R::NAME).expect("skin frame");
    (0..f.joints.len())
        .map(|j| f.bind.matrix(j, &f.world).expect("joint matrix"))
        .collect()
}

/// A rigid matrix as the oracle's bone: its rotation quaternion (from the largest of
/// `w², x², y², z²`, in f64) and translation.
fn bone(m: &Affine<f32>) -> Bone {
    let r = |i: usize, j: usize| f64::from(m.rows[i][j]);
    let (t, x2, y2, z2) = (
        r(0, 0) + r(1, 1) + r(2, 2),
        r(0, 0) - r(1, 1) - r(2, 2),
        r(1, 1) - r(0, 0) - r(2, 2),
        r(2, 2) - r(0, 0) - r(1, 1),
    );
    let big = t.max(x2).max(y2).max(z2);
    let s = 2.0 * (1.0 + big).sqrt();
    let q = if big == t {
        [
            (r(2, 1) - r(1, 2)) / s,
            (r(0, 2) - r(2, 0)) / s,
            (r(1, 0) - r(0, 1)) / s,
            s / 4.0,
        ]
    } else if big == x2 {
        [
            s / 4.0,
            (r(0, 1) + r(1, 0)) / s,
            (r(0, 2) + r(2, 0)) / s,
            (r(2, 1) - r(1, 2)) / s,
        ]
    } else if big == y2 {
        [
            (r(0, 1) + r(1, 0)) / s,
            s / 4.0,
            (r(1, 2) + r(2, 1)) / s,
            (r(0, 2) - r(2, 0)) / s,
        ]
    } else {
        [
            (r(0, 2) + r(2, 0)) / s,
            (r(1, 2) + r(2, 1)) / s,
            s / 4.0,
            (r(1, 0) - r(0, 1)) / s,
        ]
    };
    Bone {
        q: oracle::normalize_quat(q),
        t: [r(0, 3), r(1, 3), r(2, 3)],
    }
}

/// Worst errors of one lane over a model: absolute (asset units), relative to the extent,
/// and relative to the fixed bound.
#[derive(Default, Debug)]
struct Worst {
    abs: f64,
    rel: f64,
    of_bound: f64,
    vertices: usize,
}

/// Skin every skinned primitive of `skin` in lane `L` by DQS with `matrices`, compare with
/// the oracle fed `reference`; `Err` is the palette's refusal.
fn measure<L: Lane>(
    rig: &Rig,
    skin: usize,
    matrices: &[Affine<L::Real>],
    reference: &[Bone],
    k: i32,
    worst: &mut Worst,
) -> Result<(), Error> {
    let mut palette = Box::new(DualPalette::<L, MAX_JOINTS>::new());
    for m in matrices {
        palette.push(m)?;
    }
    for (_, mesh, s) in rig.mesh_nodes() {
        if s != Some(skin) {
            continue;
        }
        for prim in &rig.meshes[mesh].primitives {
            if prim.influences.is_none() {
                continue;
            }
            let pos = positions::<L>(prim, k, "prim").expect("positions");
            let inf = influences::<L>(prim, "prim").expect("influences");
            let mesh = SkinnedMesh::<L, 4>::new(&pos, &inf).expect("mesh");
            let mut out = vec![[L::Out::default(); 3]; pos.len()];
            mesh.skin_dqs(palette.as_slice(), &mut out)?;
            let mut want = Vec::new();
            let mut blend = Vec::new();
            for (p, i) in pos.iter().zip(&inf) {
                let index: Vec<usize> = i.bones().iter().map(|&b| usize::from(b)).collect();
                let weights: Vec<f64> = i.weights().iter().map(|&w| f64::from(w)).collect();
                let p = p.map(|c| f64::from(c.to_f32()));
                want.push(dual_oracle::dqs_point(reference, &index, &weights, p));
                blend.push((
                    dual_oracle::blend(reference, &index, &weights).2,
                    dual_oracle::hemisphere_margin(reference, &index, &weights),
                ));
            }
            let extent = oracle::extent(&want).max(1e-6);
            for ((o, w), (nu, margin)) in out.iter().zip(&want).zip(&blend) {
                let got: V3 = o.map(|c| f64::from(L::out_to_f32(c)));
                let err = (0..3).map(|i| (got[i] - w[i]).abs()).fold(0.0, f64::max);
                if *margin < FIXED_MARGIN {
                    continue;
                }
                worst.abs = worst.abs.max(err);
                worst.rel = worst.rel.max(err / extent);
                worst.of_bound = worst.of_bound.max(err / fixed_dual_error_bound(*nu));
                worst.vertices += 1;
            }
        }
    }
    Ok(())
}

#[test]
fn dqs_on_every_sample_model_and_clip() {
    for path in skin_tests::sample_models("dqs_on_every_sample_model_and_clip") {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let rig = skin_host::import::from_path(&path).expect("import");
        let k32 = asset_unit(&rig);
        let fixed_k = fixed_unit(&rig).ok();
        let mut frames: Vec<Option<(usize, f32)>> = vec![None];
        for c in 0..rig.clips.len() {
            let d = animate::duration(&rig, c);
            frames.extend([0.0, 0.25, 0.5, 0.75, 1.0].map(|f| Some((c, f * d))));
        }
        let (mut f32s, mut fixed) = (Worst::default(), Worst::default());
        let mut refused: Option<Error> = None;
        for skin in 0..rig.skins.len() {
            for &anim in &frames {
                let m32 = joint_matrices::<f32>(&rig, skin, anim, k32);
                let reference: Vec<Bone> = m32.iter().map(bone).collect();
                match measure::<f32>(&rig, skin, &m32, &reference, k32, &mut f32s) {
                    Ok(()) => {}
                    Err(e @ Error::NotRigid { joint, deviation }) => {
                        assert!(Dual::from_rigid(&m32[joint]).is_err());
                        assert!(deviation > skin_core::dual::RIGID_TOLERANCE);
                        refused.get_or_insert(e);
                        continue;
                    }
                    Err(e) => panic!("{name}: f32: {e}"),
                }
                let Some(k) = fixed_k else { continue };
                let mfx = joint_matrices::<Fx>(&rig, skin, anim, k);
                let m32k = joint_matrices::<f32>(&rig, skin, anim, k);
                let reference: Vec<Bone> = m32k.iter().map(bone).collect();
                measure::<Q14>(&rig, skin, &mfx, &reference, k, &mut fixed)
                    .unwrap_or_else(|e| panic!("{name}: fixed: {e}"));
            }
        }
        if let Some(e) = refused {
            println!("{name}: DQS refuses it: {e}");
        }
        println!(
            "{name}: f32 worst {:.2e} of the extent over {} vertex-frames; fixed worst {:.2e} asset units, {:.2e} of the extent, {:.0}% of its bound, over {} vertex-frames",
            f32s.rel, f32s.vertices, fixed.abs, fixed.rel, 100.0 * fixed.of_bound, fixed.vertices
        );
        assert!(f32s.rel <= 1e-5, "{name}: f32 {:?}", f32s);
        assert!(fixed.of_bound <= 1.0, "{name}: fixed {:?}", fixed);
    }
}

/// `skin validate`'s own DQS oracle (`skin_host::oracle::pose_dqs`) agrees with this
/// file's (`skin_tests::dual_oracle`, fed the host's `f32` joint matrices) on every sample
/// model DQS can skin, at rest and through every clip, within 1e-5 of the extent.
#[test]
fn the_commands_dqs_oracle_agrees_with_the_independent_one() {
    for path in skin_tests::sample_models("the_commands_dqs_oracle_agrees_with_the_independent_one")
    {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let rig = skin_host::import::from_path(&path).expect("import");
        let mut frames: Vec<Option<(usize, f32)>> = vec![None];
        for c in 0..rig.clips.len() {
            let d = animate::duration(&rig, c);
            frames.extend([0.3, 0.7].map(|f| Some((c, f * d))));
        }
        let (mut worst, mut compared) = (0.0f64, 0usize);
        for &anim in &frames {
            let got = skin_host::oracle::pose_dqs(&rig, anim.map(|(c, t)| (c, f64::from(t))))
                .expect("the clip exists");
            let extent = oracle::extent(
                &got.posed
                    .iter()
                    .flat_map(|p| p.positions.iter().copied())
                    .collect::<Vec<_>>(),
            );
            for (b, (_, mesh, skin)) in rig
                .mesh_nodes()
                .flat_map(|n| rig.meshes[n.1].primitives.iter().map(move |_| n))
                .enumerate()
            {
                let Some(skin) = skin else { continue };
                let m = joint_matrices::<f32>(&rig, skin, anim, 0);
                if m.iter().any(|m| Dual::from_rigid(m).is_err()) {
                    continue;
                }
                let reference: Vec<Bone> = m.iter().map(bone).collect();
                let prim = &rig.meshes[mesh].primitives[got.posed[b].primitive];
                let Some(influences) = &prim.influences else {
                    continue;
                };
                for ((p, inf), g) in prim
                    .positions
                    .iter()
                    .zip(influences)
                    .zip(&got.posed[b].positions)
                {
                    let index: Vec<usize> = inf.joints.iter().map(|&j| usize::from(j)).collect();
                    let sum: f64 = inf.weights.iter().map(|&w| f64::from(w)).sum();
                    let weights: Vec<f64> =
                        inf.weights.iter().map(|&w| f64::from(w) / sum).collect();
                    let want =
                        dual_oracle::dqs_point(&reference, &index, &weights, p.map(f64::from));
                    let err = (0..3).map(|i| (g[i] - want[i]).abs()).fold(0.0, f64::max);
                    worst = worst.max(err / extent);
                    compared += 1;
                }
            }
        }
        println!("{name}: the command's DQS oracle within {worst:.1e} of the extent over {compared} vertex-frames");
        assert!(worst <= 1e-5, "{name}: {worst:e}");
    }
}
