//! A lattice in the baked asset (`skin bake --lattice`) and played by the asset player after
//! skinning (as the firmware plays it), on the generated elbow (tests/src/elbow.rs) with a
//! breathing lattice around its upper arm: the stored keys give the control points an
//! `f64` interpolation of the file gives, the CPU renderer's pictures (`skin render --backend
//! cpu --lattice`, animations too) are the baked file's frames, and damaged sections are
//! refused by name.

use skin_core::asset::{checksum, Asset, AssetError, AssetLane, Field};
use skin_core::lane::Q14;
use skin_core::lattice::{Coord, LatticeError};
use skin_host::render::Cpu;
use skin_tests::elbow::{self, BREATH};
use skin_tests::skin_cli;

/// The elbow, its breathing lattice and a scratch folder.
struct Files {
    dir: tempfile::TempDir,
    model: String,
    lattice: String,
}

fn files() -> Files {
    let dir = tempfile::tempdir().unwrap();
    let s = |p: std::path::PathBuf| p.to_string_lossy().into_owned();
    let model = dir.path().join("elbow.glb");
    std::fs::write(&model, elbow::gltf().glb()).unwrap();
    let lattice = dir.path().join("breath.json");
    std::fs::write(&lattice, BREATH).unwrap();
    Files {
        model: s(model),
        lattice: s(lattice),
        dir,
    }
}

impl Files {
    fn path(&self, name: &str) -> String {
        self.dir.path().join(name).to_string_lossy().into_owned()
    }

    fn bake(&self, lane: &str) -> Vec<u8> {
        let out = self.path(&format!("breath-{lane}.skin"));
        let args = [
            "bake",
            &self.model,
            "--arith",
            lane,
            "--lattice",
            &self.lattice,
            "-o",
            &out,
        ];
        skin_cli(&args).unwrap();
        std::fs::read(&out).unwrap()
    }
}

/// The file's offset of the moved point `[1, 2, 1]` (model units, y) at `t`: 0 at 0 s,
/// 0.1 at 0.75 s, 0 from 1.5 s, linear between.
fn lift(t: f64) -> f64 {
    if t <= 0.75 {
        0.1 * t.max(0.0) / 0.75
    } else {
        0.1 * (1.5 - t.min(1.5)) / 0.75
    }
}

fn check_lane<L: AssetLane>(f: &Files, lane: &str) {
    let bytes = f.bake(lane);
    let asset = Asset::<L>::read(&bytes).unwrap();
    let view = asset.lattice().expect("a lattice section");
    assert_eq!((view.degree(), view.keys()), ([2, 2, 2], 3), "{lane}");
    let unit = f64::from(asset.unit());
    for t in [0.0f32, 0.3, 0.75, 1.2, 1.5, 2.0] {
        let lattice = view.at(t).unwrap();
        let rest = lattice.rest_point([1, 2, 1]);
        let got = lattice
            .point([1, 2, 1])
            .unwrap()
            .map(|c| f64::from(c.to_f32()));
        let want = [0.0, lift(f64::from(t)) / unit, 0.0];
        // The f32 interpolation and sum, then the format's rounding.
        let tol = 4.0 * f64::from(<L::Out as Coord>::EPS).max(1e-7);
        for a in 0..3 {
            let d = got[a] - (f64::from(rest[a]) + want[a]);
            assert!(
                d.abs() <= tol,
                "{lane} t = {t} axis {a}: {d:e} (tolerance {tol:e})"
            );
        }
        // A point no key names rests (to the format's rounding).
        let still = lattice.point([0, 0, 0]).unwrap().map(|c| c.to_f32());
        let rest = lattice.rest_point([0, 0, 0]);
        let step = <L::Out as Coord>::EPS;
        assert!(
            (0..3).all(|a| (still[a] - rest[a]).abs() <= step),
            "{lane} t = {t}"
        );
    }
}

#[test]
fn the_baked_lattice_keys_its_control_points_over_time() {
    let f = files();
    check_lane::<f32>(&f, "f32");
    check_lane::<Q14>(&f, "fixed");
}

/// `skin render --backend cpu --lattice` draws the frames the baked file plays (what the
/// firmware shows), the lattice breathing through an animation too.
#[test]
fn cpu_pictures_are_the_baked_files_frames() {
    let f = files();
    for lane in ["f32", "fixed"] {
        let played = Cpu::from_asset(f.bake(lane)).unwrap();
        let draw = |t: &str, extra: &[&str]| {
            elbow::cpu_picture(
                &f.model,
                lane,
                t,
                extra,
                &f.path(&format!("{lane}-{t}.png")),
            )
        };
        for t in ["0.6", "0.75"] {
            let rendered = draw(t, &["--lattice", &f.lattice]);
            let frame = played.render(t.parse().unwrap(), (160, 120)).unwrap();
            assert_eq!(rendered, frame.png_bytes().unwrap(), "{lane} at {t} s");
            assert_ne!(rendered, draw(t, &[]), "{lane} at {t} s: the lattice shows");
        }
        // At 0 s every point rests: in f32 the picture without a lattice, bit for bit (in
        // the fixed lane the lattice at rest is the identity to its error bound, not bits).
        if lane == "f32" {
            assert_eq!(draw("0", &["--lattice", &f.lattice]), draw("0", &[]));
        }
    }
    elbow::cpu_animation(&f.model, &["--lattice", &f.lattice], &f.path("breath.gif"));
}

/// Where the header stores the CRC-32 (docs/FORMAT.md).
const CRC_AT: usize = 48;

/// Every byte of the deformer sections of an asset with morph targets, correctives and a
/// lattice changed (and the checksum made to match): the reader returns an asset or an error,
/// never panics, and a frame of what it accepts plays without panicking.
#[test]
fn damaged_deformer_sections_never_panic() {
    let f = files();
    let correctives = f.path("c.json");
    std::fs::write(&correctives, elbow::CORRECTIVES).unwrap();
    let out = f.path("both.skin");
    let args = [
        "bake",
        &f.model,
        "--arith",
        "fixed",
        "--correctives",
        &correctives,
        "--lattice",
        &f.lattice,
        "-o",
        &out,
    ];
    assert!(skin_cli(&args)
        .unwrap()
        .contains("1 corrective RBFs, a lattice"));
    let bytes = std::fs::read(&out).unwrap();
    let plain = Asset::<Q14>::read(&bytes).unwrap();
    let deformers = plain.morphs().unwrap().size() + 96 + 1016;
    let (mut read, mut refused) = (0, 0);
    for at in bytes.len() - deformers..bytes.len() {
        for v in [0x00, 0xff] {
            let mut b = bytes.clone();
            b[at] = v;
            let crc = checksum(&b);
            b[CRC_AT..CRC_AT + 4].copy_from_slice(&crc.to_le_bytes());
            if Asset::<Q14>::read(&b).is_err() {
                refused += 1;
                continue;
            }
            read += 1;
            // Played: a picture or an error, whichever.
            let _ = Cpu::from_asset(b).and_then(|c| c.render(0.5, (32, 32)));
        }
    }
    eprintln!("{read} read, {refused} refused");
    assert!(read > 0 && refused > 0);
}

#[test]
fn damaged_lattices_are_refused_by_name() {
    let f = files();
    let bytes = f.bake("f32");
    // The section's last bytes: head (8), box (24), three times (12), then 3 × 27 points'
    // offsets (972).
    let at = bytes.len() - (8 + 24 + 12 + 972);
    let patched = |patch: &dyn Fn(&mut [u8])| {
        let mut b = bytes.clone();
        patch(&mut b[at..]);
        let crc = checksum(&b);
        b[CRC_AT..CRC_AT + 4].copy_from_slice(&crc.to_le_bytes());
        Asset::<f32>::read(&b).err()
    };
    assert_eq!(patched(&|_| {}), None);
    // A box with no extent along x.
    let e = patched(&|s| s.copy_within(8..12, 20));
    assert!(
        matches!(
            e,
            Some(AssetError::Lattice(LatticeError::Box { axis: 0, .. }))
        ),
        "{e:?}"
    );
    // Key times that do not increase.
    let e = patched(&|s| s[36..40].copy_from_slice(&0f32.to_le_bytes()));
    assert_eq!(
        e,
        Some(AssetError::Invalid {
            what: Field::LatticeKey,
            index: 1
        })
    );
    // An offset that is not a number.
    let e = patched(&|s| s[48..52].copy_from_slice(&f32::NAN.to_le_bytes()));
    assert!(
        matches!(e, Some(AssetError::Lattice(LatticeError::Value { .. }))),
        "{e:?}"
    );
    // A degree beyond cubic (the layout changes with it: the length no longer adds up).
    let e = patched(&|s| s[0] = 4);
    assert!(e.is_some(), "{e:?}");
    let m = AssetError::Lattice(LatticeError::Degree { axis: 1, degree: 4 }).to_string();
    assert!(m.contains("lattice degree 4 along y"), "{m}");
    // A lattice file naming a point beyond its lattice is refused by the baker.
    let bad = f.path("bad.json");
    std::fs::write(&bad, BREATH.replace("[1, 2, 1]", "[1, 3, 1]")).unwrap();
    let out = f.path("bad.skin");
    let m = skin_cli(&["bake", &f.model, "-o", &out, "--lattice", &bad]).unwrap_err();
    assert!(m.contains("lattice point [1, 3, 1] is beyond"), "{m}");
}
