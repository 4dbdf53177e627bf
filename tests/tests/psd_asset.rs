//! Pose-space deformation in the baked asset (`skin bake --correctives`) and played by the
//! asset player (`Scene::correctives`, as the firmware plays it), on the generated elbow
//! (tests/src/elbow.rs): the stored RBF weighs the correctives from the frame's pose within
//! the core's bound of an `f64` evaluation, the played elbow keeps its volume, the CPU
//! renderer's pictures are the baked file's frames, and damaged sections are refused by
//! name.

use skin_core::affine::Affine;
use skin_core::asset::{checksum, Asset, AssetError, AssetLane, Field};
use skin_core::lane::Q14;
use skin_core::num::Real;
use skin_core::palette::Palette;
use skin_core::psd::PsdError;
use skin_core::raster::Project;
use skin_core::scene::{Scene, Scratch};
use skin_core::transform::Transform;
use skin_host::render::Cpu;
use skin_tests::elbow::{self, arm};
use skin_tests::oracle::{distance, farthest, V3};
use skin_tests::psd_oracle;
use skin_tests::skin_cli;

const FILE: &str = elbow::CORRECTIVES;

/// The elbow model, its corrective file and a scratch folder.
struct Files {
    dir: tempfile::TempDir,
    model: String,
    correctives: String,
}

fn files() -> Files {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("elbow.glb");
    std::fs::write(&model, elbow::gltf().glb()).unwrap();
    let correctives = dir.path().join("c.json");
    std::fs::write(&correctives, FILE).unwrap();
    let s = |p: std::path::PathBuf| p.to_string_lossy().into_owned();
    Files {
        model: s(model),
        correctives: s(correctives),
        dir,
    }
}

impl Files {
    fn path(&self, name: &str) -> String {
        self.dir.path().join(name).to_string_lossy().into_owned()
    }

    /// `skin bake` of the elbow in `lane` with `extra` options; the asset's bytes.
    fn bake(&self, lane: &str, extra: &[&str]) -> Vec<u8> {
        let out = self.path(&format!("elbow-{lane}.skin"));
        let mut args = vec!["bake", &self.model, "--arith", lane, "-o", &out];
        args.extend_from_slice(extra);
        skin_cli(&args).unwrap();
        std::fs::read(&out).unwrap()
    }
}

/// Every skinned position of the asset at clip time `t` (model units), the correctives
/// weighed from the pose when `correct`, and their weights.
fn played<L: AssetLane + Project>(bytes: &[u8], t: f32, correct: bool) -> (Vec<V3>, Vec<f32>) {
    let asset = Asset::<L>::read(bytes).unwrap();
    let scene = Scene::<L, 8>::new(asset, 64, 64).unwrap();
    let n = scene.bones();
    let (mut pose, mut world) = (vec![Transform::IDENTITY; n], vec![Affine::IDENTITY; n]);
    scene.pose(t, &mut pose, &mut world, &mut ()).unwrap();
    let mut scratch = Scratch::<L, 32>::default();
    scratch.set_time(Some(t));
    if correct {
        scene.correctives(&pose, &mut scratch, &mut ()).unwrap();
    }
    let unit = f64::from(asset.unit());
    let mut out = vec![[0.0; 3]; scene.vertices()];
    let mut palette = Palette::<L, 8>::new();
    scene
        .skinned(&world, &mut palette, &mut scratch, |first, p, _| {
            for (o, v) in out[first..].iter_mut().zip(p) {
                *o = v.map(|c| f64::from(L::out_to_f32(c)) * unit);
            }
        })
        .unwrap();
    // The weights the RBF gives at this pose, by the stored RBF itself (none without).
    let mut w = Vec::new();
    if let Some(rbf) = asset.correctives().and_then(|c| c.rbfs().next()) {
        w.resize(rbf.targets().len(), 0.0);
        rbf.weigh(&pose, &mut w).unwrap();
    }
    (out, w)
}

/// The stored RBF's weights at `pose` in `f64` from its own stored values (the oracle's
/// evaluation), and the core's bound for each target.
fn oracle<L: AssetLane>(bytes: &[u8], pose: &[Transform<L::Real>]) -> Vec<(f64, f64)> {
    let asset = Asset::<L>::read(bytes).unwrap();
    let rbf = asset.correctives().unwrap().rbfs().next().unwrap();
    let f = |v: L::Real| f64::from(v.to_f32());
    let drivers: Vec<u16> = rbf.drivers().iter().collect();
    let centres: Vec<Vec<f64>> = (0..rbf.samples())
        .map(|j| {
            rbf.centre(j)
                .as_ref()
                .iter()
                .flatten()
                .map(|&v| f(v))
                .collect()
        })
        .collect();
    let targets = rbf.targets().len();
    let w: Vec<Vec<f64>> = (0..rbf.samples())
        .map(|j| (0..targets).map(|k| f(rbf.weight(j, k))).collect())
        .collect();
    let phi: Vec<f64> = drivers
        .iter()
        .flat_map(|&d| {
            let q = pose[usize::from(d)].rotation;
            let q = [q.x, q.y, q.z, q.w].map(f);
            let s = if q[3] < 0.0 { -1.0 } else { 1.0 };
            q.map(|c| c * s)
        })
        .collect();
    let sigma = rbf.sigma();
    let c = f(L::Real::from_f32(1.0 / (2.0 * sigma * sigma)).unwrap());
    let exact = psd_oracle::evaluate(&centres, &w, c, &phi);
    // Rbf::error_bound's formulas (module docs of skin_core::psd), with S = Σⱼ |Wⱼₖ|.
    let (d, n) = (drivers.len() as f64, rbf.samples() as f64);
    let eps = 2f64.powi(-24);
    exact
        .into_iter()
        .enumerate()
        .map(|(k, e)| {
            let s: f64 = w.iter().map(|row| row[k].abs()).sum();
            let bound = match L::CODE {
                0 => s * (2.0 * d + n + 4.0) * eps,
                _ => s * (1.5 * eps + eps) + 0.5 * eps,
            };
            (e, bound)
        })
        .collect()
}

/// The played pose at `t` (local transforms), for the oracle.
fn pose_at<L: AssetLane + Project>(bytes: &[u8], t: f32) -> Vec<Transform<L::Real>> {
    let asset = Asset::<L>::read(bytes).unwrap();
    let scene = Scene::<L, 8>::new(asset, 64, 64).unwrap();
    let n = scene.bones();
    let (mut pose, mut world) = (vec![Transform::IDENTITY; n], vec![Affine::IDENTITY; n]);
    scene.pose(t, &mut pose, &mut world, &mut ()).unwrap();
    pose
}

fn check_lane<L: AssetLane + Project>(f: &Files, lane: &str) {
    let bytes = f.bake(lane, &["--correctives", &f.correctives]);
    let plain_bytes = f.bake(lane, &[]);
    let asset = Asset::<L>::read(&bytes).unwrap();
    let c = asset.correctives().expect("a correctives section");
    assert_eq!(c.len(), 1);
    let rbf = c.rbfs().next().unwrap();
    // Two correctives, the rest pose and the two sculpted poses.
    assert_eq!((rbf.targets().len(), rbf.samples()), (2, 3), "{lane}");
    assert!(Asset::<L>::read(&plain_bytes)
        .unwrap()
        .correctives()
        .is_none());
    let arm = arm();
    for t in [0.0f32, 0.3, 0.6, 0.9, 1.2, 1.5] {
        let (_, w) = played::<L>(&bytes, t, true);
        for (k, (got, (exact, bound))) in w
            .iter()
            .zip(oracle::<L>(&bytes, &pose_at::<L>(&bytes, t)))
            .enumerate()
        {
            let err = (f64::from(*got) - exact).abs();
            assert!(
                err <= bound,
                "{lane} t = {t} target {k}: {got} vs {exact} (bound {bound:.2e})"
            );
        }
    }
    // 1.2 s into the clip: 120°, where the 120° corrective is on and the 60° one off.
    // The baker orders vertices its own way: each of the arm's is the asset's vertex at
    // its place in the rest pose.
    let (at0, _) = played::<L>(&plain_bytes, 0.0, false);
    let order: Vec<usize> = arm
        .positions
        .iter()
        .map(|p| {
            let d = |i: &usize| distance(at0[*i], *p);
            (0..at0.len()).min_by(|a, b| d(a).total_cmp(&d(b))).unwrap()
        })
        .collect();
    let arm_order = |p: Vec<V3>| -> Vec<V3> { order.iter().map(|&i| p[i]).collect() };
    let plain = arm_order(played::<L>(&plain_bytes, 1.2, false).0);
    let (corrected, w) = played::<L>(&bytes, 1.2, true);
    let corrected = arm_order(corrected);
    assert!(
        (w[0].abs() < 1e-3) && (w[1] - 1.0).abs() < 1e-3,
        "{lane}: {w:?}"
    );
    elbow::assert_corrected(&format!("{lane} played"), &arm, &plain, &corrected);
    // Without the correctives step the stored targets keep their default weights (0): the
    // plain elbow, bit for bit.
    let unweighed = arm_order(played::<L>(&bytes, 1.2, false).0);
    assert_eq!(unweighed, plain, "{lane}");
    // `skin pose --correctives` (the rig path, the weights held at the frame's) agrees
    // with the played asset to the lane's resolution.
    let json = skin_cli(&[
        "pose",
        &f.model,
        "--anim",
        "bend",
        "--time",
        "1.2",
        "--arith",
        lane,
        "--correctives",
        &f.correctives,
    ])
    .unwrap();
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let posed: Vec<V3> = v["blocks"][0]["positions"]
        .as_array()
        .unwrap()
        .chunks(3)
        .map(|c| [0, 1, 2].map(|i| c[i].as_f64().unwrap()))
        .collect();
    let apart = farthest(&posed, &corrected);
    assert!(apart < 4.0 * 2f64.powi(-13), "{lane}: {apart}");
}

#[test]
fn the_baked_rbf_weighs_the_elbow_from_the_pose() {
    let f = files();
    check_lane::<f32>(&f, "f32");
    check_lane::<Q14>(&f, "fixed");
}

/// `skin render --backend cpu --correctives` draws the frames the baked file plays (what the
/// firmware shows), through a clip's animation too.
#[test]
fn cpu_pictures_are_the_baked_files_frames() {
    let f = files();
    for lane in ["f32", "fixed"] {
        let bytes = f.bake(lane, &["--correctives", &f.correctives]);
        let played = Cpu::from_asset(bytes).unwrap();
        for t in ["0.6", "1.2"] {
            let extra = ["--correctives", f.correctives.as_str()];
            let rendered = elbow::cpu_picture(&f.model, lane, t, &extra, &f.path("psd.png"));
            let frame = played.render(t.parse().unwrap(), (160, 120)).unwrap();
            assert_eq!(rendered, frame.png_bytes().unwrap(), "{lane} at {t} s");
            let plain = elbow::cpu_picture(&f.model, lane, t, &[], &f.path("plain.png"));
            assert_ne!(rendered, plain, "{lane} at {t} s");
        }
    }
    // The correctives now play through an animation on the CPU.
    let extra = ["--correctives", f.correctives.as_str()];
    elbow::cpu_animation(&f.model, &extra, &f.path("bend.gif"));
}

/// The correctives section's last 96 bytes in the elbow's asset: head (4), one record
/// (12), one driver (2, padded to 4), two targets (4), 3 × (4 + 2) values (72).
const SECTION: usize = 96;

/// Where the header stores the CRC-32 (docs/FORMAT.md).
const CRC_AT: usize = 48;

/// `bytes` with `patch` applied to its correctives section, resealed.
fn patched(bytes: &[u8], patch: impl Fn(&mut [u8])) -> Vec<u8> {
    let mut b = bytes.to_vec();
    let at = b.len() - SECTION;
    patch(&mut b[at..]);
    let crc = checksum(&b);
    b[CRC_AT..CRC_AT + 4].copy_from_slice(&crc.to_le_bytes());
    b
}

#[test]
fn damaged_correctives_are_refused_by_name() {
    let f = files();
    let bytes = f.bake("f32", &["--correctives", &f.correctives]);
    let read = |b: &[u8]| Asset::<f32>::read(b).err();
    assert_eq!(read(&patched(&bytes, |_| {})), None);
    // σ = 0.
    let e = read(&patched(&bytes, |s| {
        s[12..16].copy_from_slice(&0f32.to_le_bytes())
    }));
    assert_eq!(
        e,
        Some(AssetError::Psd {
            rbf: 0,
            error: PsdError::Sigma { sigma: 0.0 }
        })
    );
    // A driving bone beyond the skeleton.
    let e = read(&patched(&bytes, |s| {
        s[16..18].copy_from_slice(&99u16.to_le_bytes())
    }));
    assert!(
        matches!(
            e,
            Some(AssetError::Psd {
                rbf: 0,
                error: PsdError::Joint { joint: 99, .. }
            })
        ),
        "{e:?}"
    );
    // A target beyond the set's two.
    let e = read(&patched(&bytes, |s| {
        s[22..24].copy_from_slice(&7u16.to_le_bytes())
    }));
    assert_eq!(
        e,
        Some(AssetError::Index {
            what: Field::CorrectiveTarget,
            index: 1,
            value: 7,
            limit: 2
        })
    );
    // A set the asset does not have.
    let e = read(&patched(&bytes, |s| {
        s[4..6].copy_from_slice(&3u16.to_le_bytes())
    }));
    assert_eq!(
        e,
        Some(AssetError::Index {
            what: Field::CorrectiveRbf,
            index: 0,
            value: 3,
            limit: 1
        })
    );
    // A centre that is not a rotation, a weight that is not a number.
    let e = read(&patched(&bytes, |s| {
        s[24..28].copy_from_slice(&2f32.to_le_bytes())
    }));
    assert!(
        matches!(
            e,
            Some(AssetError::Psd {
                rbf: 0,
                error: PsdError::Centre { index: 0, .. }
            })
        ),
        "{e:?}"
    );
    let e = read(&patched(&bytes, |s| {
        s[72..76].copy_from_slice(&f32::NAN.to_le_bytes())
    }));
    assert!(
        matches!(
            e,
            Some(AssetError::Psd {
                rbf: 0,
                error: PsdError::NotFinite { what: "weight", .. }
            })
        ),
        "{e:?}"
    );
    // Messages name the RBF and the value.
    let m = AssetError::Psd {
        rbf: 0,
        error: PsdError::Sigma { sigma: 0.0 },
    }
    .to_string();
    assert!(m.contains("corrective RBF 0") && m.contains("σ = 0"), "{m}");
    // A corrective file naming a joint the model does not have is refused by the baker.
    let bad = f.path("bad.json");
    std::fs::write(&bad, FILE.replace("forearm", "forarm")).unwrap();
    let out = f.path("bad.skin");
    let m = skin_cli(&["bake", &f.model, "-o", &out, "--correctives", &bad]).unwrap_err();
    assert!(m.contains("'forarm' is not a node"), "{m}");
}
