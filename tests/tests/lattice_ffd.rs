//! Lattice free-form deformation: skin-core's `lattice` in `f32` and `I16F16` against the
//! `f64` definition (`skin_tests::lattice_oracle`) within `Lattice::error_bound`, its
//! errors, and `skin render --lattice`.

use skin_core::lane::Out16 as I16F16;
use skin_core::lattice::{Coord, Lattice, LatticeError};
use skin_host::character::Character;
use skin_tests::lattice_oracle;
use skin_tests::{skin_cli, Rng};

/// A random lattice: degrees 1–3, a box of sides `0.05·scale` to `scale` around a centre
/// within `scale`, every control point moved by up to a third of the box.
fn random<C: Coord>(rng: &mut Rng, scale: f32) -> Lattice<C> {
    let degree = [0; 3].map(|_| 1 + (rng.unit() * 3.0) as u8);
    let centre = [0; 3].map(|_| rng.range(-scale, scale));
    let half = [0; 3].map(|_| rng.range(0.025, 0.5) * scale);
    let min = [0, 1, 2].map(|a| centre[a] - half[a]);
    let max = [0, 1, 2].map(|a| centre[a] + half[a]);
    let mut lattice = Lattice::<C>::new(min, max, degree).unwrap();
    for i in 0..=degree[0] {
        for j in 0..=degree[1] {
            for k in 0..=degree[2] {
                let rest = lattice.rest_point([i, j, k]);
                let moved = [0, 1, 2].map(|a| rest[a] + rng.range(-0.66, 0.66) * half[a]);
                lattice.set([i, j, k], moved).unwrap();
            }
        }
    }
    lattice
}

/// The oracle for `lattice`'s own (format-rounded) box and control points.
fn oracle<C: Coord>(lattice: &Lattice<C>, p: [C; 3]) -> [f64; 3] {
    let (min, max) = lattice.bounds();
    let wide = |v: [C; 3]| v.map(|c| f64::from(c.to_f32()));
    lattice_oracle::deform(
        wide(min),
        wide(max),
        lattice.degree(),
        |i| wide(lattice.point(i).unwrap()),
        wide(p),
    )
}

/// `points` random points inside `lattice`'s box (some on its faces) within the bound.
fn check<C: Coord>(rng: &mut Rng, lattice: &Lattice<C>, points: usize) -> f64 {
    let (min, max) = lattice.bounds();
    let bound = f64::from(lattice.error_bound());
    let mut worst = 0.0f64;
    for n in 0..points {
        let p = [0, 1, 2].map(|a| {
            let (lo, hi) = (min[a].to_f32(), max[a].to_f32());
            let v = match n % 7 {
                0 => lo,
                1 => hi,
                _ => rng.range(lo, hi),
            };
            C::from_f32(v).unwrap()
        });
        // Rounding may put a generated point a unit outside; those are checked elsewhere.
        if (0..3).any(|a| p[a] < min[a] || p[a] > max[a]) {
            continue;
        }
        let got = lattice.moved(p).unwrap();
        let want = oracle(lattice, p);
        for a in 0..3 {
            let e = (f64::from(got[a].to_f32()) - want[a]).abs();
            assert!(
                e <= bound,
                "{lattice:?} at {p:?}: {got:?} vs {want:?}, error {e} > bound {bound}"
            );
            worst = worst.max(e / bound);
        }
    }
    worst
}

#[test]
fn f32_lattices_are_within_their_bound_of_the_oracle() {
    let mut rng = Rng(0x1A77_0001);
    let mut worst = 0.0f64;
    for scale in [0.01, 1.0, 100.0] {
        for _ in 0..150 {
            let lattice = random::<f32>(&mut rng, scale);
            worst = worst.max(check(&mut rng, &lattice, 40));
        }
    }
    // The bound is a bound, not a guess far above every error.
    assert!(
        worst > 1e-4,
        "the largest error is only {worst} of the bound"
    );
}

#[test]
fn fixed_lattices_are_within_their_bound_of_the_oracle() {
    let mut rng = Rng(0x1A77_0002);
    let mut worst = 0.0f64;
    // Asset units: the fixed lane's skinned output is I16F16 within a few units.
    for scale in [0.25, 1.0, 4.0] {
        for _ in 0..150 {
            let lattice = random::<I16F16>(&mut rng, scale);
            worst = worst.max(check(&mut rng, &lattice, 40));
        }
    }
    assert!(
        worst > 1e-2,
        "the largest error is only {worst} of the bound"
    );
}

#[test]
fn an_undeformed_lattice_leaves_points_in_place_and_outside_points_are_untouched() {
    let mut rng = Rng(0x1A77_0003);
    for degree in [[1, 1, 1], [2, 3, 1], [3, 3, 3]] {
        let lattice = Lattice::<f32>::new([-1.0, 0.0, 2.0], [1.0, 0.5, 3.0], degree).unwrap();
        let bound = lattice.error_bound();
        for _ in 0..200 {
            let p = [
                rng.range(-1.0, 1.0),
                rng.range(0.0, 0.5),
                rng.range(2.0, 3.0),
            ];
            let q = lattice.moved(p).unwrap();
            assert!(
                (0..3).all(|a| (q[a] - p[a]).abs() <= bound),
                "{p:?} -> {q:?}"
            );
        }
        let mut outside = [[1.5f32, 0.2, 2.5], [0.0, -0.01, 2.5], [0.0, 0.2, 3.5]];
        let before = outside;
        lattice.deform(&mut outside);
        assert_eq!(outside, before);
    }
}

#[test]
fn bad_lattices_are_typed_errors_that_name_the_values() {
    let e = Lattice::<f32>::new([0.0; 3], [1.0; 3], [1, 4, 1]).unwrap_err();
    assert_eq!(e, LatticeError::Degree { axis: 1, degree: 4 });
    assert!(e.to_string().contains("degree 4 along y"), "{e}");
    let e = Lattice::<f32>::new([0.0; 3], [1.0; 3], [0, 1, 1]).unwrap_err();
    assert_eq!(e, LatticeError::Degree { axis: 0, degree: 0 });
    for (min, max, axis) in [
        ([0.0, 0.0, 0.0], [1.0, 1.0, 0.0], 2),
        ([0.0, 2.0, 0.0], [1.0, 1.0, 1.0], 1),
        ([f32::NAN, 0.0, 0.0], [1.0, 1.0, 1.0], 0),
        ([0.0, 0.0, 0.0], [f32::INFINITY, 1.0, 1.0], 0),
    ] {
        let e = Lattice::<f32>::new(min, max, [1, 1, 1]).unwrap_err();
        assert!(
            matches!(e, LatticeError::Box { axis: a, .. } if a == axis),
            "{e:?}"
        );
        assert!(e.to_string().contains("max > min"), "{e}");
    }
    // Too thin for I16F16 to divide by, or beyond its range.
    assert!(matches!(
        Lattice::<I16F16>::new([0.0; 3], [1.0, 1e-5, 1.0], [1, 1, 1]),
        Err(LatticeError::Box { axis: 1, .. })
    ));
    assert!(matches!(
        Lattice::<I16F16>::new([0.0; 3], [1.0, 1e5, 1.0], [1, 1, 1]),
        Err(LatticeError::Box { axis: 1, .. })
    ));
    let mut l = Lattice::<I16F16>::new([0.0; 3], [1.0; 3], [2, 1, 1]).unwrap();
    let e = l.set([3, 0, 0], [0.0; 3]).unwrap_err();
    assert_eq!(
        e,
        LatticeError::Index {
            index: [3, 0, 0],
            degree: [2, 1, 1]
        }
    );
    let e = l.set([1, 0, 0], [0.0, 9000.0, 0.0]).unwrap_err();
    assert_eq!(
        e,
        LatticeError::Value {
            value: 9000.0,
            limit: 8192.0
        }
    );
    assert!(
        e.to_string().contains("9000") && e.to_string().contains("8192"),
        "{e}"
    );
}

#[test]
fn render_lattice_moves_what_is_inside_its_box_and_refuses_bad_files() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("walker.glb");
    std::fs::write(&model, Character::new().glb()).unwrap();
    let m = model.to_str().unwrap();
    let file = |name: &str, text: &str| {
        let p = dir.path().join(name);
        std::fs::write(&p, text).unwrap();
        p.to_str().unwrap().to_string()
    };
    // The character stands about 1.7 m tall, centred on x = z = 0.
    let away = file(
        "away.json",
        r#"{"min": [5, 5, 5], "max": [6, 6, 6], "degree": [1, 1, 1], "moves": [{"point": [1, 1, 1], "by": [1, 1, 1]}]}"#,
    );
    let chest = file(
        "chest.json",
        r#"{"min": [-0.5, 0.9, -0.3], "max": [0.5, 1.8, 0.3], "degree": [2, 2, 2],
        "keys": [{"time": 0, "moves": []}, {"time": 0.5, "moves": [{"point": [1, 2, 1], "by": [0, 0.3, 0]}]}]}"#,
    );
    for arith in ["f32", "fixed"] {
        let png = |name: &str, extra: &[&str]| {
            let out = dir.path().join(format!("{arith}-{name}.png"));
            let mut args = vec![
                "render",
                m,
                "--anim",
                "0",
                "--time",
                "0.5",
                "--backend",
                "cpu",
                "--arith",
                arith,
                "-o",
                out.to_str().unwrap(),
            ];
            args.extend_from_slice(extra);
            skin_cli(&args).unwrap();
            std::fs::read(out).unwrap()
        };
        let plain = png("plain", &[]);
        // A lattice whose box holds no vertex leaves the picture as it was, bit for bit.
        assert_eq!(png("away", &["--lattice", &away]), plain, "{arith}");
        // One around the chest, its top pulled up at 0.5 s, changes it.
        assert_ne!(png("chest", &["--lattice", &chest]), plain, "{arith}");
    }
    let out = dir.path().join("x.png");
    let o = out.to_str().unwrap();
    let bad = |text: &str, backend: &str| {
        let f = file("bad.json", text);
        skin_cli(&["render", m, "--backend", backend, "-o", o, "--lattice", &f]).unwrap_err()
    };
    let ok = r#"{"min": [0, 0, 0], "max": [1, 1, 1], "degree": [1, 1, 1]}"#;
    let e = bad(r#"{"min": [0, 0, 0], "degree": [1, 1, 1]}"#, "cpu");
    assert!(e.contains("max must be an array of 3 numbers"), "{e}");
    let e = bad(
        r#"{"min": [0, 0, 0], "max": [1, 1, 1], "degree": [1, 4, 1]}"#,
        "cpu",
    );
    assert!(e.contains("lattice degree 4 along y"), "{e}");
    let e = bad(
        r#"{"min": [0, 0, 0], "max": [1, 1, 1], "degree": [1, 1, 1], "moves": [{"point": [2, 0, 0], "by": [0, 0, 0]}]}"#,
        "cpu",
    );
    assert!(e.contains("lattice point [2, 0, 0] is beyond"), "{e}");
    let e = bad(
        r#"{"min": [0, 0, 0], "max": [1, 1, 1], "degree": [1, 1, 1], "keys": [{"time": 1, "moves": []}, {"time": 0.5, "moves": []}]}"#,
        "cpu",
    );
    assert!(e.contains("keys[1].time 0.5 does not follow"), "{e}");
    let e = bad(ok, "gpu");
    assert!(e.contains("--backend cpu"), "{e}");
    assert!(!out.exists(), "nothing is written on an error");
}
