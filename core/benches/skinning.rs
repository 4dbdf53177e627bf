//! Host benchmarks of the skinning kernels: stitching and LBS-4, positions and positions +
//! normals, in the `f32` and fixed-point (`Q14`) lanes, on synthetic 19-bone meshes of 370
//! and 3273 vertices; next to them, on the same data and in the same run, a straightforward
//! `glam` loop (a `Mat4` palette, `Σ wₖMₖ`, `transform_point3` / `transform_vector3` +
//! `normalize`). Figures are per vertex (criterion `Throughput::Elements`).
//!
//! `cargo bench -p skin-core --bench skinning` (see docs/BENCHMARKS.md).

mod common;

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkGroup, Criterion, Throughput};
use glam::{Mat4, Vec3, Vec4};
use skin_core::lane::Lane;
use skin_core::skin::{RigidMesh, SkinnedMesh};

use common::{Lanes, Raw, SIZES};

/// Seed of the synthetic data (any value; fixed so runs compare).
const SEED: u64 = 0x5EED_0019;

type Group<'a> = BenchmarkGroup<'a, criterion::measurement::WallTime>;

/// The eight skin-core kernels of one lane.
fn lane_benches<L: Lane>(g: &mut Group, d: &mut Lanes<L>) {
    let name = L::NAME;
    let palette = d.palette.as_slice();
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
}

/// The mesh as a straightforward glam program holds it.
struct Glam {
    palette: Vec<Mat4>,
    positions: Vec<Vec3>,
    normals: Vec<Vec3>,
    joints: Vec<[u16; 4]>,
    weights: Vec<Vec4>,
    out: Vec<Vec3>,
    out_normals: Vec<Vec3>,
}

impl Glam {
    fn new(raw: &Raw) -> Self {
        let mat = |r: &[[f32; 4]; 3]| {
            Mat4::from_cols_array_2d(&[
                [r[0][0], r[1][0], r[2][0], 0.0],
                [r[0][1], r[1][1], r[2][1], 0.0],
                [r[0][2], r[1][2], r[2][2], 0.0],
                [r[0][3], r[1][3], r[2][3], 1.0],
            ])
        };
        let n = raw.positions.len();
        Self {
            palette: raw.palette.iter().map(mat).collect(),
            positions: raw.positions.iter().map(|&p| Vec3::from(p)).collect(),
            normals: raw.normals.iter().map(|&p| Vec3::from(p)).collect(),
            joints: raw.bones.iter().map(|b| b.map(u16::from)).collect(),
            weights: raw.weights.iter().map(|&w| Vec4::from(w)).collect(),
            out: vec![Vec3::ZERO; n],
            out_normals: vec![Vec3::ZERO; n],
        }
    }

    fn blend(palette: &[Mat4], j: &[u16; 4], w: Vec4) -> Mat4 {
        palette[usize::from(j[0])] * w.x
            + palette[usize::from(j[1])] * w.y
            + palette[usize::from(j[2])] * w.z
            + palette[usize::from(j[3])] * w.w
    }

    /// LBS-4 positions.
    fn skin(&mut self, palette: &[Mat4]) {
        let verts = self.positions.iter().zip(&self.joints).zip(&self.weights);
        for (((&p, j), &w), o) in verts.zip(&mut self.out) {
            *o = Self::blend(palette, j, w).transform_point3(p);
        }
    }

    /// LBS-4 positions and normals.
    fn skin_with_normals(&mut self, palette: &[Mat4]) {
        let verts = self.positions.iter().zip(&self.normals);
        let infl = self.joints.iter().zip(&self.weights);
        let outs = self.out.iter_mut().zip(&mut self.out_normals);
        for (((&p, &n), (j, &w)), (o, on)) in verts.zip(infl).zip(outs) {
            let m = Self::blend(palette, j, w);
            *o = m.transform_point3(p);
            *on = m.transform_vector3(n).normalize();
        }
    }
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
        g.finish();
    }
}

criterion_group!(benches, skinning);
criterion_main!(benches);
