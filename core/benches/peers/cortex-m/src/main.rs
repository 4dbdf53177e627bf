//! embedded-3dgfx's linear blend skinning (`apply_skinning`, `apply_skinning_to_normals`) on
//! Cortex-M, on the skin firmware's synthetic rig: the same 19-bone pose, the same 370
//! vertices with four influences, the same 74-vertex chunks skinned 4 times per timed call.
//! Prints instructions per vertex (SysTick under `-icount shift=0`) and the largest
//! difference from skin-core's f32 output on the same data, over semihosting.
#![no_std]
#![no_main]

#[allow(dead_code)] // the firmware's benchmark-only parts
#[path = "../../../../../firmware/src/synthetic.rs"]
mod synthetic;

use cortex_m::peripheral::syst::SystClkSource;
use cortex_m::peripheral::SYST;
use cortex_m_semihosting::{debug, hprintln};
use embedded_3dgfx::skeleton::{
    apply_skinning, apply_skinning_to_normals, Bone, Skeleton, SkinningData, VertexSkinning,
};
use nalgebra::Matrix4;

use synthetic::{Chunk, Kernel, Stopwatch, BONES, CHUNK, CHUNKS, VERTICES};

/// Times each chunk is skinned inside one timed call (as the firmware's benchmark).
const REPS: u32 = 4;

/// SysTick ticks to instructions on QEMU's mps2 boards under `-icount shift=0`: SysTick
/// runs at 25 MHz and an instruction takes 1 ns, 40 per tick (the rate the firmware's
/// calibration measures, docs/BENCHMARKS.md).
const INSTRUCTIONS_PER_TICK: u64 = 40;

/// Accumulates SysTick ticks over timed calls (SysTick counts down over 24 bits).
struct Watch {
    ticks: u64,
}

impl Watch {
    fn start(syst: &mut SYST) -> Self {
        syst.set_clock_source(SystClkSource::Core);
        syst.set_reload(0x00FF_FFFF);
        syst.clear_current();
        syst.enable_counter();
        Self { ticks: 0 }
    }
}

impl Stopwatch for Watch {
    fn time<R>(&mut self, f: impl FnOnce() -> R) -> R {
        let start = SYST::get_current();
        let r = f();
        let end = SYST::get_current();
        self.ticks += u64::from(start.wrapping_sub(end) & 0x00FF_FFFF);
        r
    }
}

/// The palette as embedded-3dgfx bones: world transform = palette matrix, inverse bind =
/// identity, so its skinning matrices are skin-core's palette.
fn skeleton(palette: &[skin_core::affine::Affine<f32>]) -> Skeleton<BONES> {
    let mut s = Skeleton::new();
    for m in palette {
        let r = m.rows;
        let id = s
            .add_bone(Bone::new("b"), None)
            .expect("room for the bones");
        let bone = s.get_bone_mut(id).expect("just added");
        bone.world_transform = Matrix4::new(
            r[0][0], r[0][1], r[0][2], r[0][3], r[1][0], r[1][1], r[1][2], r[1][3], r[2][0],
            r[2][1], r[2][2], r[2][3], 0.0, 0.0, 0.0, 1.0,
        );
        bone.inverse_bind_pose = Matrix4::identity();
    }
    s
}

fn largest_difference(a: &[[f32; 3]], b: &[[f32; 3]]) -> f32 {
    a.iter()
        .flatten()
        .zip(b.iter().flatten())
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f32::max)
}

#[cortex_m_rt::entry]
fn main() -> ! {
    let mut p = cortex_m::Peripherals::take().expect("core peripherals");
    let mut positions = Watch::start(&mut p.SYST);
    let mut both = Watch { ticks: 0 };
    let mut rng = synthetic::Rng::new(synthetic::POSE_SEED);
    let palette = synthetic::palette::<f32>(&mut rng).expect("the synthetic pose");
    let skel = skeleton(palette.as_slice());
    let mut chunk = Chunk::<f32>::default();
    let (mut out, mut out_n) = ([[0.0f32; 3]; CHUNK], [[0.0f32; 3]; CHUNK]);
    let mut worst = 0.0f32;
    let mut rng = synthetic::Rng::new(synthetic::MESH_SEED);
    for c in 0..CHUNKS {
        chunk.fill(&mut rng, c * CHUNK).expect("the synthetic mesh");
        let mut data = SkinningData::new();
        for inf in &chunk.influences {
            let v = VertexSkinning::new(inf.bones().map(usize::from), inf.weights(), 4);
            data.add_vertex(v).expect("room for a chunk");
        }
        positions.time(|| {
            for _ in 0..REPS {
                apply_skinning(&skel, &data, &chunk.positions, &mut out);
            }
        });
        both.time(|| {
            for _ in 0..REPS {
                apply_skinning(&skel, &data, &chunk.positions, &mut out);
                apply_skinning_to_normals(&skel, &data, &chunk.normals, &mut out_n);
            }
        });
        chunk
            .skin(Kernel::Lbs4Normals, palette.as_slice(), 1, &mut ())
            .expect("skin-core skins the chunk");
        worst = worst
            .max(largest_difference(&out, &chunk.out))
            .max(largest_difference(&out_n, &chunk.out_normals));
    }
    let vertices = u64::from(REPS) * VERTICES as u64;
    let per_vertex = |w: &Watch| (w.ticks * INSTRUCTIONS_PER_TICK) as f32 / vertices as f32;
    hprintln!(
        "E3D kernel=lbs4-pos vertices={} per_vertex={}",
        vertices,
        per_vertex(&positions)
    );
    hprintln!(
        "E3D kernel=lbs4-pos-nrm vertices={} per_vertex={}",
        vertices,
        per_vertex(&both)
    );
    hprintln!("E3D largest difference from skin-core: {}", worst);
    debug::exit(if worst < 1e-4 {
        debug::EXIT_SUCCESS
    } else {
        debug::EXIT_FAILURE
    });
    loop {}
}

#[panic_handler]
fn panic(info: &core::panic::PanicInfo) -> ! {
    hprintln!("panic: {}", info);
    debug::exit(debug::EXIT_FAILURE);
    loop {}
}
