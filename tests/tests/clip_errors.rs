//! Every way a clip can be invalid gives its own typed error and a clear message.

use skin_core::clip::{Channel, Clip, Interpolation, Path, Wrap};
use skin_core::error::{Error, Quantity};
use skin_core::num::Fx;
use skin_core::transform::Transform;

fn ch<'a>(
    bone: u16,
    path: Path,
    i: Interpolation,
    t: &'a [f32],
    v: &'a [f32],
) -> Channel<&'a [f32]> {
    Channel {
        bone,
        path,
        interpolation: i,
        times: t,
        values: v,
    }
}

fn err<R: skin_core::num::Real>(c: Channel<&[f32]>, bones: usize) -> Error {
    let chs = [
        ch(0, Path::Scale, Interpolation::Step, &[0.0], &[1.0; 3]),
        c,
    ];
    Clip::<R, _>::new(&chs, bones).map(|_| ()).unwrap_err()
}

#[test]
fn each_invalid_channel_has_its_own_error() {
    use Interpolation::*;
    use Path::*;
    let e = err::<f32>(ch(5, Scale, Step, &[0.0], &[1.0; 3]), 2);
    assert_eq!(
        e,
        Error::ChannelBone {
            channel: 1,
            bone: 5,
            bones: 2
        }
    );
    assert_eq!(
        e.to_string(),
        "animation channel 1 targets bone 5, but the skeleton has only 2 bones"
    );

    let e = err::<f32>(ch(0, Scale, Linear, &[], &[]), 1);
    assert_eq!(e, Error::NoKeys { channel: 1 });
    assert_eq!(e.to_string(), "animation channel 1 has no keys");

    let e = err::<f32>(ch(0, Rotation, CubicSpline, &[0.0, 1.0], &[0.0; 16]), 1);
    assert_eq!(
        e,
        Error::KeyCount {
            channel: 1,
            expected: 24,
            actual: 16
        }
    );
    assert!(e.to_string().contains("has 16 values, expected 24"));

    let e = err::<f32>(ch(0, Translation, Linear, &[0.0, 2.0, 1.0], &[0.0; 9]), 1);
    assert_eq!(e, Error::KeyOrder { channel: 1, key: 2 });
    assert!(e.to_string().contains("key 2 of animation channel 1"));

    let e = err::<f32>(ch(0, Translation, Linear, &[0.0, f32::NAN], &[0.0; 6]), 1);
    assert_eq!(
        e,
        Error::NotFinite {
            what: Quantity::Channel,
            index: 1
        }
    );
    assert_eq!(
        e.to_string(),
        "a key of animation channel 1 is NaN or infinite"
    );

    let e = err::<f32>(
        ch(0, Translation, Step, &[0.0], &[0.0, f32::INFINITY, 0.0]),
        1,
    );
    assert_eq!(
        e,
        Error::NotFinite {
            what: Quantity::Channel,
            index: 1
        }
    );
}

#[test]
fn values_must_fit_the_scalar_they_are_sampled_in() {
    use Interpolation::*;
    use Path::*;
    // 100 fits f32 but not within I8F24's interpolation limit (64).
    let big = ch(0, Translation, Linear, &[0.0], &[100.0, 0.0, 0.0]);
    assert!(Clip::<f32, _>::new(&[big], 1).is_ok());
    let e = err::<Fx>(big, 1);
    assert_eq!(
        e,
        Error::Overflow {
            what: Quantity::Channel,
            index: 1,
            format: "I8F24"
        }
    );
    assert_eq!(
        e.to_string(),
        "a key of animation channel 1 is out of range for I8F24"
    );
    // A cubic tangent of 40/s over a 2 s interval scales to 80: too big for I8F24.
    #[rustfmt::skip]
    let v = [0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 40.0, 0.0, 0.0,
             0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0];
    let c = ch(0, Scale, CubicSpline, &[0.0, 2.0], &v);
    assert!(Clip::<f32, _>::new(&[c], 1).is_ok());
    assert_eq!(
        err::<Fx>(c, 1),
        Error::Overflow {
            what: Quantity::Channel,
            index: 1,
            format: "I8F24"
        }
    );
    // ... while over a 1 s interval it scales to 40 and fits.
    let c = ch(0, Scale, CubicSpline, &[0.0, 1.0], &v);
    assert!(Clip::<Fx, _>::new(&[c], 1).is_ok());
    // A zero rotation key has no direction.
    let e = err::<f32>(ch(0, Rotation, Linear, &[0.0], &[0.0; 4]), 1);
    assert_eq!(
        e,
        Error::Overflow {
            what: Quantity::Channel,
            index: 1,
            format: "f32"
        }
    );
    // In fixed point too, where unit-length keys are then sampled without a length check.
    let e = err::<Fx>(
        ch(
            0,
            Rotation,
            Linear,
            &[0.0, 1.0],
            &[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0],
        ),
        1,
    );
    assert_eq!(
        e,
        Error::Overflow {
            what: Quantity::Channel,
            index: 1,
            format: "I8F24"
        }
    );
}

#[test]
fn sampling_checks_the_pose_and_the_time() {
    let chs = [ch(
        2,
        Path::Scale,
        Interpolation::Linear,
        &[0.0, 1.0],
        &[1.0; 6],
    )];
    let clip = Clip::<f32, _>::new(&chs, 3).unwrap();
    let mut short = [Transform::IDENTITY; 2];
    assert_eq!(
        clip.sample(0.5, Wrap::Clamp, &mut short),
        Err(Error::LengthMismatch {
            expected: 3,
            actual: 2
        })
    );
    let mut pose = [Transform::IDENTITY; 3];
    let e = clip.sample(f32::NAN, Wrap::Loop, &mut pose).unwrap_err();
    assert_eq!(
        e,
        Error::NotFinite {
            what: Quantity::Time,
            index: 0
        }
    );
    assert_eq!(e.to_string(), "sample time 0 is NaN or infinite");
    assert!(clip.sample(f32::INFINITY, Wrap::Clamp, &mut pose).is_err());
    assert_eq!(clip.duration(), 1.0);
}
