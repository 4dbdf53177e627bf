//! Host benchmark of the scene's deform step (morph targets before skinning): one rigid
//! part of 3273 vertices with normals played by `Scene::skinned`, with no morph targets,
//! with targets none of which is active, and with A, A + B, A + C active (A and B move every
//! vertex, C a quarter of them; positions and normals). The targets are stored per moved
//! vertex (an entry per target moving it), so in A the entries of B and C are read and
//! passed over: `A+B − A` of the per-vertex figures (criterion `Throughput::Elements`) is
//! what an active target costs at a vertex over an inactive one.
//!
//! `cargo bench -p skin-core --bench morph` (see docs/BENCHMARKS.md).

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use skin_core::affine::Affine;
use skin_core::asset::{
    Asset, AssetLane, AssetParts, ClipParts, MorphParts, MorphSet, Part, QuantisedTarget, Span,
    WeightChannel,
};
use skin_core::clip::Interpolation;
use skin_core::lane::Q14;
use skin_core::palette::Palette;
use skin_core::raster::Project;
use skin_core::scene::{Scene, Scratch};
use skin_core::transform::Transform;
use skin_core::vertex::Influence;

/// Vertices of the part (the `skinning` bench's larger mesh).
const VERTICES: usize = 3273;

/// The asset's bytes, with morph targets or without.
fn asset<L: AssetLane>(morphed: bool) -> Vec<u8> {
    let value = |v: f32| L::from_f32(v).expect("in range");
    let positions: Vec<[L; 3]> = (0..VERTICES)
        .map(|i| {
            let a = i as f32 / VERTICES as f32;
            [value(a - 0.5), value(0.25 - a / 2.0), value(a / 4.0)]
        })
        .collect();
    let normals = vec![[value(0.0), value(0.0), value(1.0)]; VERTICES];
    let indices: Vec<u16> = (0..VERTICES as u16 / 3 * 3).collect();
    let moved: Vec<u16> = (0..VERTICES as u16).collect();
    let deltas: Vec<[i16; 3]> = (0..VERTICES)
        .map(|i| [1000 + (i % 100) as i16, -700, 300 - (i % 50) as i16])
        .collect();
    let span = |n: usize| {
        [Span {
            vertices: &moved[..n],
            positions: &deltas[..n],
            normals: &deltas[..n],
        }]
    };
    let (all, quarter) = (span(VERTICES), span(VERTICES / 4));
    let target = |spans| QuantisedTarget {
        position_exponent: 16,
        normal_exponent: 16,
        spans,
    };
    let targets = [target(&all), target(&all), target(&quarter)];
    // Step keys a second apart: none active, A, A and B, A and C.
    let times = [0.0f32, 1.0, 2.0, 3.0];
    let weights = [
        0.0f32, 0.0, 0.0, 0.5, 0.0, 0.0, 0.5, -0.25, 0.0, 0.5, 0.0, -0.25,
    ];
    let morphs = MorphParts {
        sets: &[MorphSet {
            first_part: 0,
            parts: 1,
            defaults: &[0.0; 3],
            targets: &targets,
        }],
        channels: &[WeightChannel {
            clip: 0,
            set: 0,
            interpolation: Interpolation::Step,
            times: &times,
            values: &weights,
        }],
    };
    let influences = vec![Influence::rigid(0); VERTICES];
    let parts = AssetParts {
        unit_exponent: 0,
        parents: &[None],
        rest: &[Transform::IDENTITY],
        root: Affine::IDENTITY,
        joints: &[0],
        inverse_binds: &[Affine::IDENTITY],
        positions: &positions,
        normals: Some(&normals),
        influences: &influences,
        indices: &indices,
        parts: &[Part {
            vertices: VERTICES as u32,
            indices: indices.len() as u32,
            bones: &[0],
        }],
        clips: &[ClipParts {
            name: "morph",
            duration: 4.0,
            channels: &[],
        }],
        skinning: skin_core::skin::Skinning::Lbs,
        centre: [0.0; 3],
    };
    let morphs = morphed.then_some(&morphs);
    let mut bytes = vec![0u8; parts.size_with_morphs(morphs).expect("size")];
    parts.write_with_morphs(morphs, &mut bytes).expect("writes");
    bytes
}

fn lane<L: AssetLane + Project>(c: &mut Criterion) {
    let mut g = c.benchmark_group(format!("morph/{}", L::NAME));
    g.throughput(Throughput::Elements(VERTICES as u64));
    g.measurement_time(Duration::from_secs(2));
    g.warm_up_time(Duration::from_millis(500));
    for (name, morphed, t) in [
        ("plain", false, 0.5),
        ("none", true, 0.5),
        ("A", true, 1.5),
        ("A+B", true, 2.5),
        ("A+C", true, 3.5),
    ] {
        let bytes = asset::<L>(morphed);
        let scene =
            Scene::<L, 1>::new(Asset::<L>::read(&bytes).expect("reads"), 64, 64).expect("scene");
        let (mut pose, mut world) = ([Transform::IDENTITY; 1], [Affine::IDENTITY; 1]);
        scene.rest(&mut pose, &mut world).expect("rest");
        let mut palette = Palette::<L, 1>::new();
        let mut scratch = Box::new(Scratch::<L, 256>::default());
        scratch.set_time(Some(t));
        g.bench_function(name, |b| {
            b.iter(|| {
                scene
                    .skinned(&world, &mut palette, &mut scratch, |_, p, _| {
                        black_box(p);
                    })
                    .expect("skins")
            })
        });
    }
    g.finish();
}

fn morph(c: &mut Criterion) {
    lane::<f32>(c);
    lane::<Q14>(c);
}

criterion_group!(benches, morph);
criterion_main!(benches);
