//! Animations: each channel's target, interpolation, key times and values.

use gltf::accessor::{DataType, Dimensions};

use crate::accessor::{read_f32, Buffers};
use crate::error::ImportError;
use crate::rig::warning::{Kind, Warning};
use crate::rig::{Channel, Clip, Interpolation, Path as ChannelPath};

pub(super) fn clip(
    anim: &gltf::Animation<'_>,
    buffers: &Buffers,
    warnings: &mut Vec<Warning>,
) -> Result<Clip, ImportError> {
    let a = anim.index();
    let mut channels = Vec::new();
    for ch in anim.channels() {
        let path = match ch.target().property() {
            gltf::animation::Property::Translation => ChannelPath::Translation,
            gltf::animation::Property::Rotation => ChannelPath::Rotation,
            gltf::animation::Property::Scale => ChannelPath::Scale,
            gltf::animation::Property::MorphTargetWeights => {
                let name = anim.name().map_or(String::new(), |n| format!(" {n:?}"));
                warnings.push(Warning::new(
                    Kind::MorphWeights,
                    format!("animation {a}{name} channel {}", ch.index()),
                    "morph-target weights are not supported; skipped",
                ));
                continue;
            }
        };
        let sampler = ch.sampler();
        let interpolation = match sampler.interpolation() {
            gltf::animation::Interpolation::Step => Interpolation::Step,
            gltf::animation::Interpolation::Linear => Interpolation::Linear,
            gltf::animation::Interpolation::CubicSpline => Interpolation::CubicSpline,
        };
        let what = format!("key times of animation {a} channel {}", ch.index());
        let input = sampler.input();
        let (_, times) = read_f32(
            &input,
            buffers,
            &[Dimensions::Scalar],
            &[DataType::F32],
            &what,
        )?;
        if times.is_empty() {
            return Err(ImportError::Accessor {
                index: input.index(),
                reason: "an animation sampler needs at least one key".into(),
            });
        }
        // glTF: "strictly increasing". Equal times make a jump no interpolation describes.
        if let Some(k) = times.windows(2).position(|w| w[1] <= w[0]) {
            return Err(ImportError::Accessor {
                index: input.index(),
                reason: format!(
                    "key times of animation {a}{} channel {} must increase strictly, but key \
                     {} is at {} s after key {k} at {} s",
                    super::scene::name(anim.name()),
                    ch.index(),
                    k + 1,
                    times[k + 1],
                    times[k]
                ),
            });
        }
        let dims = if path == ChannelPath::Rotation {
            Dimensions::Vec4
        } else {
            Dimensions::Vec3
        };
        let types: &[DataType] = if path == ChannelPath::Rotation {
            &[
                DataType::F32,
                DataType::I8,
                DataType::U8,
                DataType::I16,
                DataType::U16,
            ]
        } else {
            &[DataType::F32]
        };
        let output = sampler.output();
        if output.data_type() != DataType::F32 && !output.normalized() {
            return Err(ImportError::Accessor {
                index: output.index(),
                reason: "integer rotations must be normalized".into(),
            });
        }
        let what = format!("key values of animation {a} channel {}", ch.index());
        let (_, values) = read_f32(&output, buffers, &[dims], types, &what)?;
        let per_key = path.width()
            * if interpolation == Interpolation::CubicSpline {
                3
            } else {
                1
            };
        if values.len() != times.len() * per_key {
            return Err(ImportError::Accessor {
                index: output.index(),
                reason: format!(
                    "holds {} values, but {} keys of {:?} need {}",
                    values.len() / path.width(),
                    times.len(),
                    interpolation,
                    times.len() * per_key / path.width()
                ),
            });
        }
        if path == ChannelPath::Rotation {
            let stride = values.len() / times.len().max(1);
            let value_at = if interpolation == Interpolation::CubicSpline {
                4
            } else {
                0
            };
            for (k, key) in values.chunks_exact(stride).enumerate() {
                let q = [
                    key[value_at],
                    key[value_at + 1],
                    key[value_at + 2],
                    key[value_at + 3],
                ];
                super::scene::rotation_of(q, || {
                    format!(
                        "key {k} of animation {a}{} channel {} (rotation of node {})",
                        super::scene::name(anim.name()),
                        ch.index(),
                        ch.target().node().index()
                    )
                })?;
            }
        }
        channels.push(Channel {
            node: ch.target().node().index(),
            path,
            interpolation,
            times,
            values,
        });
    }
    Ok(Clip {
        name: anim.name().map(str::to_owned),
        channels,
    })
}
