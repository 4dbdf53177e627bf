//! Host benchmarks of the skinning kernels: stitching, LBS-4 and DQS-4, positions and
//! positions + normals, in the `f32` and fixed-point (`Q14`) lanes, on synthetic 19-bone
//! meshes of 370 and 3273 vertices; next to them, on the same data and in the same run,
//! straightforward `glam` loops: LBS (a `Mat4` palette, `Σ wₖMₖ`, `transform_point3` /
//! `transform_vector3` + `normalize`) and DQS (`Quat` pairs blended with antipodality,
//! normalised, `r·p + 2·d·r*`). Figures are per vertex (criterion `Throughput::Elements`).
//!
//! `cargo bench -p skin-core --bench skinning` (see docs/BENCHMARKS.md).

mod common;

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkGroup, Criterion, Throughput};
use skin_core::lane::Lane;
use skin_core::skin::{RigidMesh, SkinnedMesh};

use common::{Glam, GlamDq, Lanes, Raw, SIZES};

/// Seed of the synthetic data (any value; fixed so runs compare).
const SEED: u64 = 0x5EED_0019;

type Group<'a> = BenchmarkGroup<'a, criterion::measurement::WallTime>;

/// The twelve skin-core kernels of one lane.
fn lane_benches<L: Lane>(g: &mut Group, d: &mut Lanes<L>) {
    let name = L::NAME;
    let (palette, duals) = (d.palette.as_slice(), d.duals.as_slice());
    let rigid = RigidMesh::new(&d.positions, &d.rigid).expect("valid mesh");
    let lbs = SkinnedMesh::<L, 4>::new(&d.positions, &d.influences).expect("valid mesh");
    let (out, out_n, normals) = (&mut d.out, &mut d.out_normals, &d.normals);
    g.bench_function(format!("stitch/pos/{name}"), |b| {
        b.iter(|| rigid.skin(black_box(palette), out).expect("skins"))
    });
    g.bench_function(format!("stitch/pos+nrm/{name}"), |b| {
        b.iter(|| {
            rigid
                .skin_with_normals(black_box(palette), normals, out, out_n)
                .expect("skins")
        })
    });
    g.bench_function(format!("lbs4/pos/{name}"), |b| {
        b.iter(|| lbs.skin(black_box(palette), out).expect("skins"))
    });
    g.bench_function(format!("lbs4/pos+nrm/{name}"), |b| {
        b.iter(|| {
            lbs.skin_with_normals(black_box(palette), normals, out, out_n)
                .expect("skins")
        })
    });
    g.bench_function(format!("dqs4/pos/{name}"), |b| {
        b.iter(|| lbs.skin_dqs(black_box(duals), out).expect("skins"))
    });
    g.bench_function(format!("dqs4/pos+nrm/{name}"), |b| {
        b.iter(|| {
            lbs.skin_dqs_with_normals(black_box(duals), normals, out, out_n)
                .expect("skins")
        })
    });
}

fn skinning(c: &mut Criterion) {
    for n in SIZES {
        let raw = Raw::new(n, SEED ^ n as u64);
        let mut g = c.benchmark_group(format!("skinning/{n}"));
        g.throughput(Throughput::Elements(n as u64));
        g.warm_up_time(Duration::from_millis(500));
        g.measurement_time(Duration::from_secs(2));
        lane_benches(&mut g, &mut common::float(&raw));
        lane_benches(&mut g, &mut common::fixed(&raw));
        let mut glam = Glam::new(&raw);
        let palette = glam.palette.clone();
        g.bench_function("glam/lbs4/pos/f32", |b| {
            b.iter(|| glam.skin(black_box(&palette)))
        });
        g.bench_function("glam/lbs4/pos+nrm/f32", |b| {
            b.iter(|| glam.skin_with_normals(black_box(&palette)))
        });
        let mut dq = GlamDq::new(&raw);
        let duals = dq.palette.clone();
        // The peer computes what skin-core's DQS does (to f32 rounding).
        let mut core = common::float(&raw);
        SkinnedMesh::<f32, 4>::new(&core.positions, &core.influences)
            .and_then(|m| {
                let (d, n) = (core.duals.as_slice(), &core.normals);
                m.skin_dqs_with_normals(d, n, &mut core.out, &mut core.out_normals)
            })
            .expect("skins");
        dq.skin_with_normals(&duals);
        dq.check(&core.out, &core.out_normals, 1e-5);
        g.bench_function("glam/dqs4/pos/f32", |b| {
            b.iter(|| dq.skin(black_box(&duals)))
        });
        g.bench_function("glam/dqs4/pos+nrm/f32", |b| {
            b.iter(|| dq.skin_with_normals(black_box(&duals)))
        });
        g.finish();
    }
}

criterion_group!(benches, skinning);
criterion_main!(benches);
