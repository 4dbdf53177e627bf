//! The fuzz targets' entry points ([`skin_tests::fuzz`]) on a few thousand inputs mutated
//! from fixed seeds with a fixed random sequence: the same inputs every run, so that CI
//! catches a regression the long fuzzing runs (fuzz/README.md) once found. Each input must
//! finish within [`LIMIT`] (a hang guard, not a speed test); the entry points panic on a
//! panic inside, on a non-finite result with success, and on paths that disagree, and a
//! model's `.glb` and `.gltf` forms must get the same verdict.

use std::time::{Duration, Instant};

use serde_json::Value;
use skin_core::budget::Budget;
use skin_host::bake::{self, Options};
use skin_host::character::Character;
use skin_host::pose::LaneKind;
use skin_tests::fuzz::{self, Verdict};
use skin_tests::gltf_gen::{keyed_triangle, Gen, Interp, Worm};

/// The longest one input may take.
const LIMIT: Duration = Duration::from_secs(5);

/// xorshift64*: a small deterministic generator.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Run `f` on `input`, within [`LIMIT`]; its verdict.
fn timed(what: &str, input: &[u8], f: fn(&[u8]) -> Verdict) -> Verdict {
    let started = Instant::now();
    let v = f(input);
    let took = started.elapsed();
    assert!(
        took < LIMIT,
        "{what}: {took:?} on a {}-byte input",
        input.len()
    );
    v
}

/// Damage `bytes` in one of several ways.
fn mutate_bytes(rng: &mut Rng, bytes: &mut Vec<u8>) {
    const WORDS: [u32; 8] = [
        0,
        u32::MAX,
        0x7F7F_FFFF, // f32::MAX
        0x7FC0_0000, // NaN
        0x8000_0000,
        0x4E6E_6B28, // 1e9
        0x0001_0000,
        0xFFFF_FFFE,
    ];
    if bytes.is_empty() {
        bytes.push(rng.next() as u8);
        return;
    }
    let at = rng.below(bytes.len());
    match rng.below(6) {
        0 => {
            for _ in 0..1 + rng.below(4) {
                let i = rng.below(bytes.len());
                bytes[i] ^= 1 << rng.below(8);
            }
        }
        1 => bytes[at] = [0, 0xFF, 0x7F, 0x80][rng.below(4)],
        2 => bytes.truncate(at),
        3 => {
            let len = rng.below(64).min(bytes.len() - at);
            let chunk = bytes[at..at + len].to_vec();
            let to = rng.below(bytes.len());
            bytes.splice(to..to, chunk);
        }
        4 => {
            let end = (at + 1 + rng.below(32)).min(bytes.len());
            bytes.drain(at..end);
        }
        _ => {
            let w = WORDS[rng.below(WORDS.len())].to_le_bytes();
            for (k, b) in w.iter().enumerate() {
                if let Some(x) = bytes.get_mut(at + k) {
                    *x = *b;
                }
            }
        }
    }
}

/// JSON pointers of every number in `v`.
fn numbers(v: &Value, at: String, out: &mut Vec<String>) {
    match v {
        Value::Number(_) => out.push(at),
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                numbers(x, format!("{at}/{i}"), out);
            }
        }
        Value::Object(o) => {
            for (k, x) in o {
                numbers(
                    x,
                    format!("{at}/{}", k.replace('~', "~0").replace('/', "~1")),
                    out,
                );
            }
        }
        _ => {}
    }
}

/// Replace one number of the document with an awkward one, or drop an object's key.
fn mutate_json(rng: &mut Rng, g: &mut Gen) {
    let mut at = Vec::new();
    numbers(&g.json, String::new(), &mut at);
    let pointer = &at[rng.below(at.len())];
    if rng.below(8) == 0 {
        // Drop the member (or array element) that holds it.
        let (parent, key) = pointer.rsplit_once('/').unwrap_or(("", ""));
        match g.json.pointer_mut(parent) {
            Some(Value::Object(o)) => {
                o.remove(key);
            }
            Some(Value::Array(a)) if !a.is_empty() => {
                a.remove(key.parse::<usize>().unwrap_or(0).min(a.len() - 1));
            }
            _ => {}
        }
        return;
    }
    let awkward = [
        serde_json::json!(-1),
        serde_json::json!(0),
        serde_json::json!(1),
        serde_json::json!(3),
        serde_json::json!(999),
        serde_json::json!(65536),
        serde_json::json!(4294967295u64),
        serde_json::json!(1e38),
        serde_json::json!(-3.4e38),
        serde_json::json!(1e-30),
        serde_json::json!(0.5),
        serde_json::json!(1e30),
    ];
    if let Some(v) = g.json.pointer_mut(pointer) {
        *v = awkward[rng.below(awkward.len())].clone();
    }
}

fn gltf_seeds() -> Vec<Gen> {
    let mut seeds = vec![
        Worm::default().build(),
        Worm {
            bones: 4,
            influences: 8,
            interp: Interp::CubicSpline,
            two_skins: true,
            ..Worm::default()
        }
        .build(),
        Worm {
            bones: 3,
            inverse_binds: false,
            interp: Interp::Step,
            ..Worm::default()
        }
        .build(),
        keyed_triangle(
            1.0,
            &[0.0, 0.5, 1.0],
            "rotation",
            &[0.0, 0.0, 0.0, 1.0, 0.0, 0.6, 0.0, 0.8, 0.0, 1.0, 0.0, 0.0],
        ),
    ];
    // The character as the generator's document, so that its JSON can be mutated too.
    let glb = Character::new().glb();
    let json_len = u32::from_le_bytes([glb[12], glb[13], glb[14], glb[15]]) as usize;
    let json: Value = serde_json::from_slice(&glb[20..20 + json_len]).unwrap();
    let bin = glb[20 + json_len + 8..].to_vec();
    let mut json = json;
    json.as_object_mut().unwrap().remove("buffers");
    seeds.push(Gen { json, bin });
    seeds
}

#[test]
fn mutated_models_through_every_path() {
    let mut rng = Rng(0x5EED_0001);
    let seeds = gltf_seeds();
    let mut verdicts = [0usize; 2];
    for seed in &seeds {
        assert_eq!(timed("seed", &seed.glb(), fuzz::gltf), Verdict::Accepted);
    }
    // Documents with an awkward number or a member dropped: both containers agree.
    for i in 0..900 {
        let mut g = seeds[i % seeds.len()].clone();
        for _ in 0..1 + rng.below(3) {
            mutate_json(&mut rng, &mut g);
        }
        let glb = timed("glb", &g.glb(), fuzz::gltf);
        let text = timed("gltf", g.gltf().as_bytes(), fuzz::gltf);
        assert_eq!(glb, text, "the .glb and .gltf forms disagree: {}", g.json);
        verdicts[(glb == Verdict::Accepted) as usize] += 1;
    }
    // Damaged buffers behind intact documents, and damaged containers.
    for i in 0..500 {
        let mut g = seeds[i % seeds.len()].clone();
        mutate_bytes(&mut rng, &mut g.bin);
        let v = timed("buffer", &g.glb(), fuzz::gltf);
        verdicts[(v == Verdict::Accepted) as usize] += 1;
        let mut bytes = if i % 2 == 0 {
            seeds[i % seeds.len()].glb()
        } else {
            seeds[i % seeds.len()].gltf().into_bytes()
        };
        mutate_bytes(&mut rng, &mut bytes);
        timed("bytes", &bytes, fuzz::gltf);
    }
    // Both verdicts occur: the mutations reach past the parser.
    assert!(verdicts.iter().all(|&n| n > 100), "{verdicts:?}");
}

#[test]
fn mutated_assets_through_every_reader() {
    let mut rng = Rng(0x5EED_0002);
    let worm = skin_host::import::from_slice(&Worm::default().build().glb(), None).unwrap();
    let character = skin_host::import::from_slice(&Character::new().glb(), None).unwrap();
    let mut seeds = Vec::new();
    for (rig, budget) in [(&worm, None), (&character, Some(Budget::VS_1_1))] {
        for lane in [LaneKind::F32, LaneKind::Fixed] {
            let options = Options {
                budget,
                lane,
                clips: None,
                skinning: skin_host::pose::Skinning::Lbs,
            };
            seeds.push(bake::bake(rig, &options).unwrap().bytes);
        }
    }
    let mut read = 0;
    for i in 0..1200 {
        let mut bytes = seeds[i % seeds.len()].clone();
        for _ in 0..1 + rng.below(3) {
            mutate_bytes(&mut rng, &mut bytes);
        }
        // Half of them with the checksum resealed, so that the damage reaches the tables.
        if i % 2 == 0 && bytes.len() >= 52 {
            let crc = skin_core::asset::checksum(&bytes);
            bytes[48..52].copy_from_slice(&crc.to_le_bytes());
        }
        if timed("asset", &bytes, fuzz::asset) == Verdict::Accepted {
            read += 1;
        }
    }
    assert!(
        read > 50,
        "{read} damaged assets read: the mutations stop at the checksum"
    );
}

#[test]
fn hostile_numbers_through_the_pose_pipeline() {
    let mut rng = Rng(0x5EED_0003);
    const AWKWARD: [f32; 10] = [
        0.0, -0.0, 1.0, -1.0, 1e-30, 1e30, 3.0e38, -3.0e38, 64.0, 0.5,
    ];
    for _ in 0..600 {
        let len = 16 + rng.below(600);
        let data: Vec<u8> = (0..len / 4)
            .flat_map(|_| {
                let v = if rng.below(3) == 0 {
                    AWKWARD[rng.below(AWKWARD.len())]
                } else {
                    (rng.next() as i32 as f32) / 2e9 * 4f32.powi(rng.below(6) as i32)
                };
                v.to_le_bytes()
            })
            .collect();
        timed("numbers", &data, fuzz::numbers);
    }
}
