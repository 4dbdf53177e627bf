//! Clip sampling against expectations computed independently here, in f64: STEP, LINEAR
//! (lerp and shortest-path slerp), CUBICSPLINE (Hermite basis written out, tangents scaled
//! by the key interval), clamp vs loop, rest values for untargeted bones, f32 vs fixed.

use proptest::prelude::*;
use skin_core::clip::{Channel, Clip, Interpolation, Path, Wrap};
use skin_core::num::{Fx, Real};
use skin_core::transform::Transform;

fn channel<'a>(
    bone: u16,
    path: Path,
    interpolation: Interpolation,
    times: &'a [f32],
    values: &'a [f32],
) -> Channel<&'a [f32]> {
    Channel {
        bone,
        path,
        interpolation,
        times,
        values,
    }
}

fn sample<R: Real>(chs: &[Channel<&[f32]>], bones: usize, t: f32, wrap: Wrap) -> Vec<Transform<R>> {
    let clip = Clip::<R, _>::new(chs, bones).unwrap();
    let mut pose = vec![Transform::<R>::IDENTITY; bones];
    clip.sample(t, wrap, &mut pose).unwrap();
    pose
}

fn close(a: [f32; 3], b: [f64; 3], tol: f64) -> bool {
    a.iter()
        .zip(b)
        .all(|(&a, b)| (f64::from(a) - b).abs() <= tol)
}

/// The Hermite basis at u: weights of p0, m0, p1, m1 (glTF Appendix C).
fn hermite(u: f64) -> [f64; 4] {
    let (u2, u3) = (u * u, u * u * u);
    [
        2.0 * u3 - 3.0 * u2 + 1.0,
        u3 - 2.0 * u2 + u,
        -2.0 * u3 + 3.0 * u2,
        u3 - u2,
    ]
}

#[test]
fn fixed_rotation_keys_are_normalised_unless_every_key_is_unit_length() {
    let s = std::f32::consts::FRAC_1_SQRT_2;
    let times = [0.0f32, 1.0];
    let unit = [0.0, 0.0, s, s, 0.0, 0.0, 0.0, 1.0];
    // The second key is twice unit length: it samples as the unit quaternion it points at.
    let long = [0.0, 0.0, s, s, 0.0, 0.0, 0.0, 2.0];
    let expected = |q: [f32; 4]| skin_core::quat::Quat::<Fx>::from_f32(q).unwrap();
    for values in [&unit, &long] {
        // A unit channel beside the one under test: the clip samples as-is only when both are.
        let chs = [
            channel(0, Path::Rotation, Interpolation::Step, &times, &unit),
            channel(1, Path::Rotation, Interpolation::Step, &times, values),
        ];
        for (k, t) in times.iter().enumerate() {
            let pose = sample::<Fx>(&chs, 2, *t, Wrap::Clamp);
            let key = |v: &[f32; 8]| [v[4 * k], v[4 * k + 1], v[4 * k + 2], v[4 * k + 3]];
            assert_eq!(pose[0].rotation, expected(key(&unit)));
            assert_eq!(pose[1].rotation, expected(key(values)));
        }
    }
    assert_eq!(
        sample::<Fx>(
            &[channel(
                0,
                Path::Rotation,
                Interpolation::Step,
                &times,
                &long
            )],
            1,
            1.0,
            Wrap::Clamp
        )[0]
        .rotation
        .to_f32(),
        [0.0, 0.0, 0.0, 1.0]
    );
}

#[test]
fn step_holds_each_key_until_the_next() {
    let times = [0.0, 1.0, 2.0];
    let values = [1.0, 0.0, 0.0, 2.0, 0.0, 0.0, 3.0, 0.0, 0.0];
    let chs = [channel(
        0,
        Path::Scale,
        Interpolation::Step,
        &times,
        &values,
    )];
    for (t, want) in [(0.0, 1.0), (0.999, 1.0), (1.0, 2.0), (1.5, 2.0), (2.0, 3.0)] {
        let p = sample::<f32>(&chs, 1, t, Wrap::Clamp);
        assert_eq!(p[0].scale, [want, 0.0, 0.0], "t = {t}");
    }
}

#[test]
fn linear_translation_interpolates_and_keeps_untargeted_bones_at_rest() {
    let times = [0.5, 1.5];
    let values = [1.0, -2.0, 0.25, 3.0, 2.0, -0.75];
    let chs = [channel(
        1,
        Path::Translation,
        Interpolation::Linear,
        &times,
        &values,
    )];
    let rest = Transform::<f32>::from_f32([0.1, 0.2, 0.3], [0.0, 0.6, 0.0, 0.8], [2.0; 3]).unwrap();
    let clip = Clip::<f32, _>::new(&chs, 3).unwrap();
    for t in [0.5f32, 0.75, 1.0, 1.4] {
        let mut pose = vec![rest; 3];
        clip.sample(t, Wrap::Clamp, &mut pose).unwrap();
        let u = (f64::from(t) - 0.5) / 1.0;
        let want: [f64; 3] = std::array::from_fn(|i| {
            f64::from(values[i]) * (1.0 - u) + f64::from(values[3 + i]) * u
        });
        assert!(
            close(pose[1].translation, want, 1e-6),
            "t={t}: {:?} vs {want:?}",
            pose[1].translation
        );
        assert_eq!(pose[1].rotation, rest.rotation);
        assert_eq!(pose[0], rest);
        assert_eq!(pose[2], rest);
    }
}

#[test]
fn cubic_spline_translation_matches_the_hermite_basis_with_scaled_tangents() {
    // Unequal key intervals (0.5 s then 1.5 s) so that tangent scaling matters.
    let times = [0.0, 0.5, 2.0];
    #[rustfmt::skip]
    let values = [
        // in-tangent, value, out-tangent for each key
        0.0, 0.0, 0.0,   0.0, 1.0, -1.0,   2.0, 0.5, 0.0,
        -1.0, 3.0, 0.5,  1.0, 0.0, 2.0,    0.25, -1.0, 1.0,
        4.0, 0.0, 1.0,   -0.5, 0.5, 0.0,   0.0, 0.0, 0.0,
    ];
    let v = |i: usize| -> [f64; 3] { std::array::from_fn(|c| f64::from(values[3 * i + c])) };
    let chs = [channel(
        0,
        Path::Translation,
        Interpolation::CubicSpline,
        &times,
        &values,
    )];
    for t in [0.0f32, 0.1, 0.25, 0.5, 0.6, 1.0, 1.7, 2.0, 3.0] {
        let p = sample::<f32>(&chs, 1, t, Wrap::Clamp);
        let t64 = f64::from(t).min(2.0);
        let k = if t64 < 0.5 { 0 } else { 1 };
        let want = if t64 >= 2.0 {
            v(7)
        } else {
            let (t0, t1) = (f64::from(times[k]), f64::from(times[k + 1]));
            let dt = t1 - t0;
            let h = hermite((t64 - t0) / dt);
            // value of key k, out-tangent of key k, value of key k+1, in-tangent of key k+1
            let (p0, b0, p1, a1) = (v(3 * k + 1), v(3 * k + 2), v(3 * k + 4), v(3 * k + 3));
            std::array::from_fn(|c| {
                h[0] * p0[c] + h[1] * dt * b0[c] + h[2] * p1[c] + h[3] * dt * a1[c]
            })
        };
        assert!(
            close(p[0].translation, want, 1e-5),
            "t={t}: {:?} vs {want:?}",
            p[0].translation
        );
    }
}

fn normalise(q: [f64; 4]) -> [f64; 4] {
    let n = q.iter().map(|v| v * v).sum::<f64>().sqrt();
    q.map(|v| v / n)
}

/// Same rotation (q and −q are the same rotation).
fn same_rotation(a: [f32; 4], b: [f64; 4], tol: f64) -> bool {
    let d: f64 = a.iter().zip(b).map(|(&a, b)| f64::from(a) * b).sum();
    (d.abs() - 1.0).abs() <= tol
}

#[test]
fn cubic_spline_rotation_is_renormalised() {
    let s = std::f32::consts::FRAC_1_SQRT_2;
    let times = [0.0, 2.0];
    #[rustfmt::skip]
    let values = [
        0.0, 0.0, 0.0, 0.0,   0.0, 0.0, 0.0, 1.0,   0.0, 0.0, 0.3, 0.0,
        0.0, 0.0, 0.2, -0.1,  0.0, 0.0, s, s,       0.0, 0.0, 0.0, 0.0,
    ];
    let chs = [channel(
        0,
        Path::Rotation,
        Interpolation::CubicSpline,
        &times,
        &values,
    )];
    for t in [0.3f32, 1.0, 1.6] {
        let p = sample::<f32>(&chs, 1, t, Wrap::Clamp);
        let h = hermite(f64::from(t) / 2.0);
        let q: [f64; 4] = std::array::from_fn(|c| {
            let at = |i: usize| f64::from(values[4 * i + c]);
            h[0] * at(1) + h[1] * 2.0 * at(2) + h[2] * at(4) + h[3] * 2.0 * at(3)
        });
        let want = normalise(q);
        let got = p[0].rotation.to_f32();
        let len: f32 = got.iter().map(|v| v * v).sum::<f32>().sqrt();
        assert!((len - 1.0).abs() < 1e-5, "t={t}: |q| = {len}");
        assert!(same_rotation(got, want, 1e-6), "t={t}: {got:?} vs {want:?}");
    }
}

/// Slerp in f64, written out: shortest arc.
fn slerp64(a: [f64; 4], b: [f64; 4], u: f64) -> [f64; 4] {
    let mut d: f64 = a.iter().zip(&b).map(|(x, y)| x * y).sum();
    let b = if d < 0.0 {
        d = -d;
        b.map(|v| -v)
    } else {
        b
    };
    let th = d.clamp(-1.0, 1.0).acos();
    if th.sin().abs() < 1e-9 {
        return a;
    }
    let (wa, wb) = (((1.0 - u) * th).sin() / th.sin(), (u * th).sin() / th.sin());
    normalise(std::array::from_fn(|i| wa * a[i] + wb * b[i]))
}

#[test]
fn linear_rotation_takes_the_shortest_path_for_q_and_minus_q() {
    let s = std::f32::consts::FRAC_1_SQRT_2;
    let times = [0.0, 1.0];
    // 90° about Z, stored as q and as −q: the same rotation, so the same samples; the
    // short way round passes 45° at the midpoint (the long way would pass −135°).
    let plus = [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, s, s];
    let minus = [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, -s, -s];
    let half = (std::f64::consts::PI / 8.0).sin_cos();
    let mid = [0.0, 0.0, half.0, half.1];
    for values in [&plus, &minus] {
        let chs = [channel(
            0,
            Path::Rotation,
            Interpolation::Linear,
            &times,
            values,
        )];
        let p = sample::<f32>(&chs, 1, 0.5, Wrap::Clamp);
        assert!(
            same_rotation(p[0].rotation.to_f32(), mid, 1e-6),
            "{:?}",
            p[0].rotation
        );
        for t in [0.1f32, 0.7, 0.95] {
            let a = [0.0, 0.0, 0.0, 1.0];
            let b = std::array::from_fn(|i| f64::from(values[4 + i]));
            let want = slerp64(a, b, f64::from(t));
            let got = sample::<f32>(&chs, 1, t, Wrap::Clamp)[0].rotation.to_f32();
            assert!(same_rotation(got, want, 1e-6), "t={t}: {got:?} vs {want:?}");
        }
    }
}

#[test]
fn clamp_holds_the_ends_and_loop_wraps_before_the_start_and_after_the_end() {
    let times = [0.0, 2.0];
    let values = [0.0, 0.0, 0.0, 4.0, 8.0, -4.0];
    let chs = [channel(
        0,
        Path::Translation,
        Interpolation::Linear,
        &times,
        &values,
    )];
    let x = |t: f32, wrap| sample::<f32>(&chs, 1, t, wrap)[0].translation;
    // Clamp: first and last key outside [0, 2].
    assert_eq!(x(-0.5, Wrap::Clamp), [0.0, 0.0, 0.0]);
    assert_eq!(x(2.5, Wrap::Clamp), [4.0, 8.0, -4.0]);
    assert_eq!(x(100.0, Wrap::Clamp), [4.0, 8.0, -4.0]);
    // Loop: 2.5 → 0.5, −0.5 → 1.5, 4.25 → 0.25.
    assert_eq!(x(2.5, Wrap::Loop), [1.0, 2.0, -1.0]);
    assert_eq!(x(-0.5, Wrap::Loop), [3.0, 6.0, -3.0]);
    assert_eq!(x(4.25, Wrap::Loop), [0.5, 1.0, -0.5]);
    assert_eq!(x(2.0, Wrap::Loop), [0.0, 0.0, 0.0]);
    assert_eq!(x(2.0, Wrap::Clamp), [4.0, 8.0, -4.0]);
}

#[test]
fn a_channel_starting_late_holds_its_first_key_until_then() {
    let times = [1.0, 2.0];
    let values = [1.0, 1.0, 1.0, 3.0, 3.0, 3.0];
    let chs = [channel(
        0,
        Path::Scale,
        Interpolation::Linear,
        &times,
        &values,
    )];
    assert_eq!(sample::<f32>(&chs, 1, 0.25, Wrap::Clamp)[0].scale, [1.0; 3]);
    assert_eq!(sample::<f32>(&chs, 1, 1.5, Wrap::Clamp)[0].scale, [2.0; 3]);
}

fn arb_channel() -> impl Strategy<Value = (Path, Interpolation, Vec<f32>, Vec<f32>)> {
    let path = prop_oneof![
        Just(Path::Translation),
        Just(Path::Rotation),
        Just(Path::Scale)
    ];
    let interp = prop_oneof![
        Just(Interpolation::Step),
        Just(Interpolation::Linear),
        Just(Interpolation::CubicSpline)
    ];
    (path, interp, 1usize..6).prop_flat_map(|(path, interp, keys)| {
        let gaps = prop::collection::vec(0.05f32..1.0, keys);
        let n = keys * path.width() * interp.stride();
        // Rotations stay away from zero length; values and tangents well inside I8F24.
        let values = prop::collection::vec(prop_oneof![-4.0f32..-0.25, 0.25f32..4.0], n);
        (Just(path), Just(interp), gaps, values).prop_map(|(p, i, gaps, values)| {
            let times = gaps
                .iter()
                .scan(0.0f32, |t, g| {
                    let now = *t;
                    *t += g;
                    Some(now)
                })
                .collect();
            (p, i, times, values)
        })
    })
}

proptest! {
    #[test]
    fn f32_and_fixed_sampling_agree(
        (path, interp, times, values) in arb_channel(),
        t in -1.0f32..6.0,
        looped in any::<bool>(),
    ) {
        let chs = [channel(0, path, interp, &times, &values)];
        let wrap = if looped { Wrap::Loop } else { Wrap::Clamp };
        let a = sample::<f32>(&chs, 1, t, wrap)[0];
        let b = sample::<Fx>(&chs, 1, t, wrap)[0];
        let (fa, fb): (Vec<f32>, Vec<f32>) = match path {
            Path::Translation => (a.translation.to_vec(), b.translation.map(Real::to_f32).to_vec()),
            Path::Scale => (a.scale.to_vec(), b.scale.map(Real::to_f32).to_vec()),
            Path::Rotation => {
                let (qa, qb) = (a.rotation.to_f32(), b.rotation.to_f32());
                // q and −q are the same rotation
                let d: f32 = qa.iter().zip(&qb).map(|(x, y)| x * y).sum();
                let qb = if d < 0.0 { qb.map(|v| -v) } else { qb };
                (qa.to_vec(), qb.to_vec())
            }
        };
        for (x, y) in fa.iter().zip(&fb) {
            prop_assert!((x - y).abs() < 2e-5, "{path:?} {interp:?} t={t}: {fa:?} vs {fb:?}");
        }
    }
}

/// One step of `I8F24`.
const STEP: f64 = 1.0 / (1u64 << 24) as f64;

/// The fixed lane's slerp weights (`Real::arc_weights`: `sin(xθ)/θ` for `x = 1 − t` and
/// `x = t`, from polynomials in products alone) against `f64`'s sines and arc cosine, over
/// `cos θ` in [0, 1] (every 1/4096, and densely near 1 where θ is small) and `t` in [0, 1]:
/// each within the 14 steps of `I8F24` that `num::arc` derives.
#[test]
fn fixed_arc_weights_are_within_their_derived_bound() {
    let mut worst = 0.0f64;
    let near_one = (0..=4096).map(|k| (1u32 << 24) - k * 7);
    let ds = (0..=4096u32).map(|k| k << 12).chain(near_one);
    for d in ds {
        for k in 0..=64u32 {
            let t = (k << 18).min(1 << 24) - u32::from(k == 37);
            let (fd, ft) = (Fx::from_bits(d as i32), Fx::from_bits(t as i32));
            let (wa, wb) = Fx::arc_weights(fd, ft);
            let (d, t) = (f64::from(fd.to_f32()), f64::from(ft.to_f32()));
            let theta = d.acos();
            let exact = |x: f64| {
                if theta == 0.0 {
                    x
                } else {
                    (x * theta).sin() / theta
                }
            };
            for (got, want) in [(wa, exact(1.0 - t)), (wb, exact(t))] {
                let err = (f64::from(got.to_f32()) - want).abs() / STEP;
                assert!(
                    err <= 14.0,
                    "cos θ = {d}, t = {t}: {got} vs {want} ({err} steps)"
                );
                worst = worst.max(err);
            }
        }
    }
    // The polynomials are not a coarser stand-in: well inside the bound (about 4 steps).
    assert!(worst > 0.5 && worst < 8.0, "largest error {worst} steps");
}

proptest! {
    /// A fixed-lane rotation channel's slerp between random unit keys (at every angle the
    /// slerp takes, below cos θ = 0.9995) against the slerp in `f64` of the same keys: within
    /// 4·10⁻⁶ a component (the weights' 14 steps each on a blend of length at least 2/π, the
    /// keys' and the parameter's rounding to `I8F24` and the normalisation: about 60 steps).
    #[test]
    fn fixed_slerp_is_the_f64_slerp_within_its_bound(
        a in proptest::array::uniform4(-1.0f32..1.0),
        b in proptest::array::uniform4(-1.0f32..1.0),
        t in 0.0f32..1.0,
    ) {
        let n = |q: [f32; 4]| {
            let l = q.iter().map(|v| v * v).sum::<f32>().sqrt();
            q.map(|v| v / l)
        };
        prop_assume!(a.iter().map(|v| v.abs()).sum::<f32>() > 0.1);
        prop_assume!(b.iter().map(|v| v.abs()).sum::<f32>() > 0.1);
        let (a, b) = (n(a), n(b));
        let dot: f64 = a.iter().zip(&b).map(|(x, y)| f64::from(*x) * f64::from(*y)).sum();
        prop_assume!(dot.abs() < 0.9995);
        let times = [0.0, 1.0];
        let values: Vec<f32> = a.iter().chain(&b).copied().collect();
        let chs = [channel(0, Path::Rotation, Interpolation::Linear, &times, &values)];
        let got = sample::<Fx>(&chs, 1, t, Wrap::Clamp)[0].rotation.to_f32();
        let want = slerp64(a.map(f64::from), b.map(f64::from), f64::from(t));
        for (g, w) in got.iter().zip(want) {
            prop_assert!((f64::from(*g) - w).abs() < 4e-6, "t={t}: {got:?} vs {want:?}");
        }
    }
}
