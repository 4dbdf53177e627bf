//! A deterministic companion to the `skinning` bench, for instruction counting: runs one
//! kernel a given number of times on the same synthetic data, so that
//! `valgrind --tool=callgrind` (or any instruction counter) measures it without criterion's
//! noise. Instructions per vertex = (count at REPS − count at 0) / (REPS · vertices).
//!
//! ```text
//! cargo bench -p skin-core --bench icount --no-run
//! valgrind --tool=callgrind --callgrind-out-file=/dev/null target/release/deps/icount-* \
//!     lbs4/pos+nrm/f32 3273 100
//! ```
//!
//! Kernels: `{stitch,lbs4,dqs4}/{pos,pos+nrm}/{f32,I2F14}`,
//! `glam/{lbs4,dqs4}/{pos,pos+nrm}/f32`, and `dqs4s/{pos,pos+nrm}/{f32,I2F14}` (DQS with every
//! joint stretched, `SkinnedMesh::skin_dqs_stretched`; named only, not in the default run).
//! Without arguments (as `cargo bench` runs it) it skins each kernel once and exits.
//!
//! `… icount time N TRIALS KERNEL…` instead times the kernels, interleaved, `TRIALS` times
//! each, and prints the fastest trial per kernel in ns per vertex: on a machine shared with
//! other work the minimum over interleaved trials is a steadier ratio than separate runs.

#[allow(dead_code)] // SIZES: this bench takes the size as an argument
mod common;

use std::hint::black_box;

use skin_core::lane::Lane;
use skin_core::skin::{RigidMesh, SkinnedMesh};

use common::{Glam, GlamDq, Lanes, Raw};

/// The seed of the `skinning` bench, so both skin the same data.
const SEED: u64 = 0x5EED_0019;

/// Runs `kernel` of lane `L` `reps` times; `false` when the name is not one of its kernels.
fn lane<L: Lane>(kernel: &str, d: &mut Lanes<L>, reps: usize) -> bool {
    let Some(kernel) = kernel.strip_suffix(L::NAME) else {
        return false;
    };
    let (palette, duals) = (d.palette.as_slice(), d.duals.as_slice());
    let rigid = RigidMesh::new(&d.positions, &d.rigid).expect("valid mesh");
    let lbs = SkinnedMesh::<L, 4>::new(&d.positions, &d.influences).expect("valid mesh");
    let (out, out_n, normals) = (&mut d.out, &mut d.out_normals, &d.normals);
    // Every joint stretched (the loop's cost does not depend on the values), for `dqs4s`.
    let stretch = [[1.25, 0.0, 0.125], [0.0, 0.75, 0.0], [0.125, 0.0, 1.0]]
        .map(|r| r.map(|v| L::from_f32(v).expect("fits every lane")));
    let stretches = vec![stretch; duals.len()];
    let s = Some(skin_core::dual::Stretches {
        matrices: &stretches[..],
        exponent: 0,
    });
    for _ in 0..reps {
        let palette = black_box(palette);
        match kernel {
            "stitch/pos/" => rigid.skin(palette, out),
            "stitch/pos+nrm/" => rigid.skin_with_normals(palette, normals, out, out_n),
            "lbs4/pos/" => lbs.skin(palette, out),
            "lbs4/pos+nrm/" => lbs.skin_with_normals(palette, normals, out, out_n),
            "dqs4/pos/" => lbs.skin_dqs(black_box(duals), out),
            "dqs4/pos+nrm/" => lbs.skin_dqs_with_normals(black_box(duals), normals, out, out_n),
            "dqs4s/pos/" => lbs.skin_dqs_stretched(black_box(duals), s, out),
            "dqs4s/pos+nrm/" => {
                lbs.skin_dqs_stretched_with_normals(black_box(duals), s, normals, out, out_n)
            }
            _ => return false,
        }
        .expect("skins");
        black_box(&mut *out);
    }
    true
}

/// A kernel as a closure over its own copy of the data, for the timing mode: one call runs
/// the kernel the given number of times (the meshes built once, as `lane` does, so that a
/// timed batch measures the kernel calls, not the meshes' construction).
type Run = Box<dyn FnMut(usize)>;

/// The named kernel as a closure skinning `raw`.
fn run(name: &str, raw: &Raw) -> Run {
    fn lane_run<L: Lane>(kernel: &str, mut d: Lanes<L>) -> Run {
        let kernel = kernel.to_owned();
        Box::new(move |reps| assert!(lane(&kernel, &mut d, reps), "unknown kernel {kernel}"))
    }
    match name {
        "glam/lbs4/pos/f32" | "glam/lbs4/pos+nrm/f32" => {
            let mut g = Glam::new(raw);
            let palette = g.palette.clone();
            let normals = name.contains("nrm");
            Box::new(move |reps| {
                for _ in 0..reps {
                    if normals {
                        g.skin_with_normals(black_box(&palette));
                    } else {
                        g.skin(black_box(&palette));
                    }
                }
            })
        }
        "glam/dqs4/pos/f32" | "glam/dqs4/pos+nrm/f32" => {
            let mut g = GlamDq::new(raw);
            let palette = g.palette.clone();
            let normals = name.contains("nrm");
            Box::new(move |reps| {
                for _ in 0..reps {
                    if normals {
                        g.skin_with_normals(black_box(&palette));
                    } else {
                        g.skin(black_box(&palette));
                    }
                }
            })
        }
        k if k.ends_with("f32") => lane_run(k, common::float(raw)),
        k => lane_run(k, common::fixed(raw)),
    }
}

/// The timing mode (see the module docs).
fn time(args: &[String]) {
    let n: usize = args[0].parse().expect("vertices");
    let trials: usize = args[1].parse().expect("trials");
    let names = &args[2..];
    let raw = Raw::new(n, SEED ^ n as u64);
    let mut runs: Vec<Run> = names.iter().map(|k| run(k, &raw)).collect();
    // About 200 µs per timed batch.
    let reps = (200_000 / n).max(1);
    let mut best = vec![f64::INFINITY; runs.len()];
    for _ in 0..trials {
        for (run, best) in runs.iter_mut().zip(&mut best) {
            let start = std::time::Instant::now();
            run(reps);
            let ns = start.elapsed().as_nanos() as f64 / (reps * n) as f64;
            *best = best.min(ns);
        }
    }
    for (name, best) in names.iter().zip(best) {
        println!("{name} {n} {best:.3} ns/vertex");
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().is_some_and(|a| a == "time") {
        return time(&args[1..]);
    }
    let named = args.first().filter(|a| !a.starts_with('-'));
    let kernels: Vec<String> = match named {
        Some(k) => vec![k.clone()],
        None => [
            "stitch/pos/",
            "stitch/pos+nrm/",
            "lbs4/pos/",
            "lbs4/pos+nrm/",
            "dqs4/pos/",
            "dqs4/pos+nrm/",
        ]
        .iter()
        .flat_map(|k| [format!("{k}f32"), format!("{k}I2F14")])
        .chain(
            ["lbs4", "dqs4"]
                .iter()
                .flat_map(|k| [format!("glam/{k}/pos/f32"), format!("glam/{k}/pos+nrm/f32")]),
        )
        .collect(),
    };
    let arg = |i: usize, default: usize| {
        named
            .and(args.get(i))
            .map_or(default, |a| a.parse().expect("a number"))
    };
    let (n, reps) = (arg(1, 370), arg(2, 1));
    let raw = Raw::new(n, SEED ^ n as u64);
    for kernel in kernels {
        let ok = match kernel.as_str() {
            k if k.starts_with("glam/") => {
                run(k, &raw)(reps);
                true
            }
            k => lane(k, &mut common::float(&raw), reps) || lane(k, &mut common::fixed(&raw), reps),
        };
        assert!(ok, "unknown kernel {kernel}");
    }
}
