//! The embedded-3dgfx comparison: its linear blend skinning (`skeleton::apply_skinning` and
//! `apply_skinning_to_normals`) next to skin-core's f32 LBS-4 kernel and the glam loop, on
//! the same synthetic data (../common) and in the same run.
//!
//! `cargo bench --manifest-path core/benches/peers/Cargo.toml` (see docs/BENCHMARKS.md).

#[path = "../../common/mod.rs"]
#[allow(dead_code)]
mod common;

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use embedded_3dgfx::skeleton::{
    apply_skinning, apply_skinning_to_normals, Bone, Skeleton, SkinningData, VertexSkinning,
};
use nalgebra::Matrix4;
use skin_core::skin::SkinnedMesh;

use common::{Glam, Raw, BONES, SIZES};

/// The same seed as the main bench (core/benches/skinning.rs), so the data is the same.
const SEED: u64 = 0x5EED_0019;
/// `SkinningData` holds at most 512 vertices; larger meshes are skinned in parts.
const PART: usize = 512;

/// A skeleton whose skinning matrices (`world · inverse bind`) are the palette: each bone's
/// world transform is its palette matrix and its inverse bind pose the identity.
fn skeleton(raw: &Raw) -> Skeleton<BONES> {
    let mut s = Skeleton::new();
    for (i, r) in raw.palette.iter().enumerate() {
        let id = s.add_bone(Bone::new("b"), None).expect("room for 19 bones");
        let bone = s.get_bone_mut(id).expect("just added");
        bone.world_transform = Matrix4::new(
            r[0][0], r[0][1], r[0][2], r[0][3], r[1][0], r[1][1], r[1][2], r[1][3], r[2][0],
            r[2][1], r[2][2], r[2][3], 0.0, 0.0, 0.0, 1.0,
        );
        bone.inverse_bind_pose = Matrix4::identity();
        assert_eq!(id.0, i);
    }
    s
}

fn parts(raw: &Raw) -> Vec<SkinningData> {
    let mut parts = Vec::new();
    for (bones, weights) in raw.bones.chunks(PART).zip(raw.weights.chunks(PART)) {
        let mut d = SkinningData::new();
        for (b, w) in bones.iter().zip(weights) {
            d.add_vertex(VertexSkinning::new(b.map(usize::from), *w, 4))
                .expect("at most 512 vertices per part");
        }
        parts.push(d);
    }
    parts
}

fn peers(c: &mut Criterion) {
    for n in SIZES {
        let raw = Raw::new(n, SEED ^ n as u64);
        let mut g = c.benchmark_group(format!("peers/{n}"));
        g.throughput(Throughput::Elements(n as u64));
        g.warm_up_time(Duration::from_millis(500));
        g.measurement_time(Duration::from_secs(2));

        let mut f = common::float(&raw);
        let mesh = SkinnedMesh::<f32, 4>::new(&f.positions, &f.influences).expect("valid mesh");
        let palette = f.palette.as_slice();
        let (out, out_n, normals) = (&mut f.out, &mut f.out_normals, &f.normals);
        g.bench_function("skin-core/lbs4/pos+nrm/f32", |b| {
            b.iter(|| {
                mesh.skin_with_normals(black_box(palette), normals, out, out_n)
                    .expect("skins")
            })
        });

        let mut glam = Glam::new(&raw);
        let glam_palette = glam.palette.clone();
        g.bench_function("glam/lbs4/pos+nrm/f32", |b| {
            b.iter(|| glam.skin_with_normals(black_box(&glam_palette)))
        });

        let skel = skeleton(&raw);
        let data = parts(&raw);
        let (mut o, mut on) = (vec![[0.0f32; 3]; n], vec![[0.0f32; 3]; n]);
        let check = |o: &[[f32; 3]], on: &[[f32; 3]]| {
            // Same maths as skin-core (within f32 rounding), so the comparison is fair.
            for (a, b) in o.iter().zip(out.iter()).chain(on.iter().zip(out_n.iter())) {
                for (x, y) in a.iter().zip(b) {
                    assert!((x - y).abs() < 1e-4, "{a:?} vs {b:?}");
                }
            }
        };
        let run = |o: &mut [[f32; 3]], on: Option<&mut [[f32; 3]]>| {
            let s = black_box(&skel);
            let chunks = raw
                .positions
                .chunks(PART)
                .zip(o.chunks_mut(PART))
                .zip(&data);
            for ((p, o), d) in chunks {
                apply_skinning(s, d, p, o);
            }
            if let Some(on) = on {
                let chunks = raw.normals.chunks(PART).zip(on.chunks_mut(PART)).zip(&data);
                for ((nr, on), d) in chunks {
                    apply_skinning_to_normals(s, d, nr, on);
                }
            }
        };
        run(&mut o, Some(&mut on));
        check(&o, &on);
        g.bench_function("embedded-3dgfx/lbs4/pos/f32", |b| {
            b.iter(|| run(&mut o, None))
        });
        g.bench_function("embedded-3dgfx/lbs4/pos+nrm/f32", |b| {
            b.iter(|| run(&mut o, Some(&mut on)))
        });
        g.finish();
    }
}

criterion_group!(benches, peers);
criterion_main!(benches);
