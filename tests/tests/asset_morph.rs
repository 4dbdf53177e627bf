//! Morph targets in the baked asset and the scene player (`skin_core::asset::Morphs`,
//! `skin_core::scene`): sparse quantised deltas within their documented error, frames
//! within the bounds of the independent f64 reference in both lanes and all three weight
//! interpolations, the active-target budget and its dropped weight, no cost without an
//! active target, and every damaged morph section a typed error.

use skin_core::affine::Affine;
use skin_core::asset::{Asset, AssetError, AssetLane, Field};
use skin_core::budget::Budget;
use skin_core::lane::{FIXED_ERROR_BOUND, Q14};
use skin_core::morph::quantised::{dequantise, error};
use skin_core::palette::Palette;
use skin_core::raster::Project;
use skin_core::scene::{Scene, Scratch};
use skin_core::transform::Transform;
use skin_host::bake::{self, Baked, Options};
use skin_host::oracle;
use skin_host::pose::LaneKind;
use skin_host::rig::Rig;
use skin_tests::gltf_gen::{morph_triangle, morph_worm, Gen, Interp, WORM_MORPH_DEFAULTS};

const BONES: usize = 64;

fn rig(g: &Gen) -> Rig {
    skin_host::import::from_slice(&g.glb(), None).expect("import")
}

fn bake_as(rig: &Rig, lane: LaneKind, budget: Option<Budget>) -> Baked {
    bake::bake(
        rig,
        &Options {
            budget,
            lane,
            clips: None,
            skinning: skin_host::pose::Skinning::Lbs,
        },
    )
    .expect("bake")
}

/// What the player skins at clip time `t` (`None`: the rest pose with default weights):
/// every asset vertex's position in asset units, and the dropped weight.
fn play<L: AssetLane + Project>(bytes: &[u8], t: Option<f32>) -> (Vec<[f32; 3]>, f32) {
    let asset = Asset::<L>::read(bytes).expect("read");
    let scene = Scene::<L, BONES>::new(asset, 64, 64).expect("scene");
    let (mut pose, mut world) = (
        vec![Transform::<L::Real>::IDENTITY; scene.bones()],
        vec![Affine::<L::Real>::IDENTITY; scene.bones()],
    );
    match t {
        Some(t) => scene.pose(t, &mut pose, &mut world, &mut ()),
        None => scene.rest(&mut pose, &mut world),
    }
    .expect("pose");
    let mut palette: Box<Palette<L, 256>> = Box::default();
    // Chunks of 16: a target's entries run across chunk boundaries.
    let mut scratch = Box::new(Scratch::<L, 16>::default());
    scratch.set_time(t);
    let mut out = vec![[f32::NAN; 3]; scene.vertices()];
    scene
        .skinned(&world, &mut *palette, &mut scratch, |first, p, _| {
            for (i, v) in p.iter().enumerate() {
                out[first + i] = v.map(L::out_to_f32);
            }
        })
        .expect("skin");
    (out, scratch.dropped_weight())
}

/// The largest error of the player against the f64 reference at `t`, and the bound it must
/// keep: `base` (the skinning's, asset units) plus, per target, `|w|` times the target's
/// quantisation error and the fixed lane's roundings (its weight's, `2⁻¹⁵·|delta|`, and
/// its term's floor, `2⁻²⁷`), and once the fixed lane's rounding of the sum (`2⁻¹⁵`), all
/// under skinning matrices of norm at most 1.3.
fn worst<L: AssetLane + Project>(
    rig: &Rig,
    baked: &Baked,
    t: Option<f32>,
    base: f64,
    fixed: bool,
) -> (f64, f64) {
    let unit = 2f64.powi(baked.unit_exponent);
    let anim = t.map(|t| (0, f64::from(t)));
    let want = oracle::pose(rig, anim).expect("reference");
    let weights = oracle::weights(rig, anim).expect("weights");
    let (got, _) = play::<L>(&baked.bytes, t);
    let asset = Asset::<L>::read(&baked.bytes).unwrap();
    let morphs = asset.morphs().expect("a morph section");
    let mut at = 0;
    let mut worst = (0.0f64, 0.0f64);
    for src in &baked.parts {
        let set = morphs.set_of_part(baked.parts.iter().position(|p| p == src).unwrap());
        let w = &weights[src.node];
        let mut quantum = 0.0f64;
        if let Some(set) = set {
            for (i, target) in set.targets.clone().enumerate() {
                let e = morphs.scale(target).position_exponent;
                let most = f64::from(dequantise(i16::MAX, e));
                let round = if fixed {
                    most / 32768.0 + 2f64.powi(-27)
                } else {
                    0.0
                };
                quantum += w[i].abs() * f64::from(error(e)) + round;
            }
            if fixed {
                quantum += 1.0 / 32768.0;
            }
        }
        // Skinning matrices of the worm and the triangle scale by at most 1.3.
        let bound = (base + 1.3 * quantum) * unit;
        let block = want
            .iter()
            .find(|b| b.node == src.node && b.primitive == src.primitive)
            .unwrap();
        for &v in &src.vertices {
            for (g, r) in got[at].iter().zip(block.positions[v as usize]) {
                let e = (f64::from(*g) * unit - r).abs();
                if e - bound > worst.0 - worst.1 {
                    worst = (e, bound);
                }
            }
            at += 1;
        }
    }
    worst
}

const TIMES: [Option<f32>; 6] = [None, Some(0.0), Some(0.3), Some(0.7), Some(1.3), Some(1.9)];

/// Bake `rig` in both lanes with `budget` and check every frame of `times` against the f64
/// reference; returns how many parts the bake has.
fn within_bounds(rig: &Rig, budget: Option<Budget>, times: &[Option<f32>], what: &str) -> usize {
    let f = bake_as(rig, LaneKind::F32, budget);
    let x = bake_as(rig, LaneKind::Fixed, budget);
    for &t in times {
        let (e, bound) = worst::<f32>(rig, &f, t, 2e-6, false);
        assert!(e <= bound, "{what} f32 at {t:?}: error {e} > {bound}");
        let (e, bound) = worst::<Q14>(rig, &x, t, FIXED_ERROR_BOUND + 1e-6, true);
        assert!(e <= bound, "{what} fixed at {t:?}: error {e} > {bound}");
    }
    f.parts.len()
}

#[test]
fn morphed_worms_play_within_the_bound_of_the_f64_reference() {
    for interp in [Interp::Step, Interp::Linear, Interp::CubicSpline] {
        // A budget of 6 bones splits the worm into parts: a target's entries span several.
        let budget = Some(Budget::registers("test_18", 18));
        let parts = within_bounds(
            &rig(&morph_worm(interp)),
            budget,
            &TIMES,
            &format!("{interp:?}"),
        );
        assert!(parts > 1, "the worm is split");
    }
}

#[test]
fn the_morphed_triangle_plays_within_the_bound_of_the_f64_reference() {
    for interp in ["STEP", "LINEAR", "CUBICSPLINE"] {
        let times = [None, Some(0.0), Some(0.25), Some(0.5), Some(0.9)];
        within_bounds(&rig(&morph_triangle(interp)), None, &times, interp);
    }
}

/// The weight channel matters: a frame at the clip's weights differs from the same frame at
/// the default weights by far more than the bound (so the comparisons above are not
/// vacuous).
#[test]
fn animated_weights_move_the_frame() {
    let animated = rig(&morph_worm(Interp::Linear));
    let mut still = animated.clone();
    for c in &mut still.clips {
        c.weights.clear();
    }
    let a = bake_as(&animated, LaneKind::F32, None);
    let b = bake_as(&still, LaneKind::F32, None);
    for t in [0.0, 0.5, 1.25] {
        let (a, _) = play::<f32>(&a.bytes, Some(t));
        let (b, _) = play::<f32>(&b.bytes, Some(t));
        let most = a
            .iter()
            .zip(&b)
            .flat_map(|(a, b)| a.iter().zip(b).map(|(a, b)| (a - b).abs()))
            .fold(0.0f32, f32::max);
        assert!(
            most > 0.05,
            "at {t} s the weights moved the frame by only {most}"
        );
    }
}

#[test]
fn deltas_are_sparse_and_within_the_quantisation_error() {
    let rig = rig(&morph_worm(Interp::Linear));
    for lane in [LaneKind::F32, LaneKind::Fixed] {
        let baked = bake_as(&rig, lane, None);
        let k = baked.unit_exponent;
        let check = |bytes: &[u8]| match lane {
            LaneKind::F32 => entries::<f32>(bytes),
            LaneKind::Fixed => entries::<Q14>(bytes),
        };
        let (defaults, stored) = check(&baked.bytes);
        assert_eq!(defaults, WORM_MORPH_DEFAULTS);
        let prim = &rig.meshes[0].primitives[0];
        let src = &baked.parts[0];
        for (t, entries) in stored.iter().enumerate() {
            let target = &prim.targets[t];
            let deltas = target.positions.as_ref().unwrap();
            // Only moved vertices are stored: `bulge` moves 15 of 63, `tip` 3, `lean` 60.
            let moved = src
                .vertices
                .iter()
                .filter(|&&v| deltas[v as usize] != [0.0; 3])
                .count();
            assert_eq!(entries.len(), moved, "target {t} in {lane:?}");
            for &(local, q, e) in entries {
                let d = deltas[src.vertices[usize::from(local)] as usize];
                for (q, d) in q.iter().zip(d) {
                    let stored = f64::from(dequantise(*q, e));
                    let truth = f64::from(d) * 2f64.powi(-k);
                    let err = (stored - truth).abs();
                    assert!(err <= f64::from(error(e)) * 1.0001, "target {t}: {err}");
                }
            }
        }
        let dense = 63 * 3 * 2 * 3 * 2; // 63 vertices, 3 targets, position + normal, i16
        assert!(baked.morph_bytes < dense, "{} bytes", baked.morph_bytes);
        assert!(baked.morph_bytes > 0);
    }
}

/// The default weights of the asset's single set, and per target: (local vertex,
/// quantised position delta, exponent).
#[allow(clippy::type_complexity)]
fn entries<L: AssetLane>(bytes: &[u8]) -> (Vec<f32>, Vec<Vec<(u16, [i16; 3], i8)>>) {
    let asset = Asset::<L>::read(bytes).unwrap();
    let m = asset.morphs().unwrap();
    assert_eq!(m.len(), 1);
    let set = m.sets().next().unwrap();
    let defaults = set.targets.clone().map(|t| m.default_weight(t)).collect();
    let part = set.parts.start;
    let list = set
        .targets
        .clone()
        .map(|t| {
            let e = m.scale(t).position_exponent;
            let local = t - set.targets.start;
            let entries: Vec<_> = m
                .deltas(&set, part)
                .filter(|d| d.target == local)
                .map(|d| (d.vertex, d.position, e))
                .collect();
            assert_eq!(entries.len(), m.span(&set, part, t).moved);
            entries
        })
        .collect();
    (defaults, list)
}

/// The worm with `defaults` as its mesh weights and no weight channel.
fn worm_with_defaults(defaults: &[f32]) -> Rig {
    let mut rig = rig(&morph_worm(Interp::Linear));
    rig.meshes[0].weights = defaults.to_vec();
    for c in &mut rig.clips {
        c.weights.clear();
    }
    rig
}

#[test]
fn without_an_active_target_the_frame_is_the_unmorphed_one_bit_for_bit() {
    let morphed = worm_with_defaults(&[0.0; 3]);
    let mut plain = morphed.clone();
    for p in &mut plain.meshes[0].primitives {
        p.targets.clear();
    }
    plain.meshes[0].weights.clear();
    plain.meshes[0].target_names.clear();
    for lane in [LaneKind::F32, LaneKind::Fixed] {
        let a = bake_as(&morphed, lane, None);
        let b = bake_as(&plain, lane, None);
        assert!(a.morph_bytes > 0 && b.morph_bytes == 0);
        for t in TIMES {
            let (pa, pb) = match lane {
                LaneKind::F32 => (play::<f32>(&a.bytes, t).0, play::<f32>(&b.bytes, t).0),
                LaneKind::Fixed => (play::<Q14>(&a.bytes, t).0, play::<Q14>(&b.bytes, t).0),
            };
            assert_eq!(pa, pb, "{lane:?} at {t:?}");
        }
    }
}

#[test]
fn the_budget_keeps_the_largest_weights_and_reports_the_dropped_weight() {
    // Eleven targets on the worm, all weighted: the eight largest |weights| are applied.
    let mut rig = rig(&morph_worm(Interp::Linear));
    for c in &mut rig.clips {
        c.weights.clear();
    }
    let prim = &mut rig.meshes[0].primitives[0];
    let lean = prim.targets[2].clone();
    while prim.targets.len() < 11 {
        prim.targets.push(lean.clone());
    }
    let weights: Vec<f32> = (0..11).map(|i| 0.01 * (i as f32 + 1.0)).collect();
    rig.meshes[0].weights = weights.clone();
    rig.meshes[0].target_names.clear();
    let baked = bake_as(&rig, LaneKind::F32, None);
    let (_, dropped) = play::<f32>(&baked.bytes, None);
    // Dropped: targets 0, 1, 2 (0.01 + 0.02 + 0.03).
    assert!((dropped - 0.06).abs() < 1e-6, "dropped {dropped}");
    // The frame is that of the eight kept targets alone.
    let mut kept = rig.clone();
    kept.meshes[0].weights[..3].fill(0.0);
    let (a, d) = play::<f32>(&bake_as(&kept, LaneKind::F32, None).bytes, None);
    let (b, _) = play::<f32>(&baked.bytes, None);
    assert_eq!((a, d), (b, 0.0));
}

/// Damage `bytes` at `at` with `f`, reseal the checksum, and read.
fn damaged(bytes: &[u8], at: usize, f: impl Fn(&mut [u8])) -> Result<(), AssetError> {
    let mut b = bytes.to_vec();
    f(&mut b[at..]);
    let crc = skin_core::asset::checksum(&b);
    b[48..52].copy_from_slice(&crc.to_le_bytes());
    Asset::<f32>::read(&b).map(|_| ())
}

#[test]
fn damaged_morph_sections_are_typed_errors() {
    let rig = rig(&morph_worm(Interp::CubicSpline));
    let baked = bake_as(&rig, LaneKind::F32, None);
    let bytes = &baked.bytes;
    let asset = Asset::<f32>::read(bytes).unwrap();
    let m = asset.morphs().unwrap();
    // The section's start: the asset's end less its size.
    let head = bytes.len() - m.size();
    let sets = head + 28;
    let defaults = sets + 8;
    let targets = defaults + 4 * 3;
    let spans = targets + 4 * 3;
    let runs = spans + 16 * 3;
    let records = runs + 4;
    let expect = |r: Result<(), AssetError>, what: Field| match r {
        Err(AssetError::Invalid { what: w, .. })
        | Err(AssetError::Index { what: w, .. })
        | Err(AssetError::Mismatch { what: w, .. }) => assert_eq!(w, what, "{r:?}"),
        other => panic!("expected an error about {what:?}, got {other:?}"),
    };
    // A set past the parts.
    expect(damaged(bytes, sets, |b| b[0] = 9), Field::MorphSet);
    // A NaN default weight.
    expect(
        damaged(bytes, defaults, |b| {
            b[..4].copy_from_slice(&f32::NAN.to_le_bytes())
        }),
        Field::MorphWeight,
    );
    // An exponent beyond 30.
    expect(damaged(bytes, targets, |b| b[0] = 31), Field::MorphTarget);
    // A stored reach that is not the base's.
    expect(damaged(bytes, spans + 4, |b| b[0] ^= 1), Field::MorphSpan);
    // Moved vertices out of order.
    expect(
        damaged(bytes, records, |b| {
            b[..2].copy_from_slice(&60u16.to_le_bytes())
        }),
        Field::MorphRecord,
    );
    // A run that ends before the records do.
    expect(
        damaged(bytes, runs, |b| b[..4].copy_from_slice(&4u32.to_le_bytes())),
        Field::MorphRun,
    );
    // The first record's first entry: the vertex's last entry unflagged (the player's loop
    // would run on into the next record) or flagged too early, and a target beyond the set.
    let n = u16::from_le_bytes([bytes[records + 2], bytes[records + 3]]);
    expect(
        damaged(bytes, records + 4 + 16 * usize::from(n) - 4, |b| b[0] ^= 1),
        Field::MorphEntry,
    );
    expect(
        damaged(bytes, records + 4 + 12, |b| b[0] ^= 1),
        Field::MorphEntry,
    );
    expect(
        damaged(bytes, records + 4 + 14, |b| b[0] = 3),
        Field::MorphEntry,
    );
    // The error reads as one line naming the thing and the limit.
    let e = damaged(bytes, targets, |b| b[0] = 31)
        .unwrap_err()
        .to_string();
    assert_eq!(e, "morph target 0 is invalid");
}

/// Any damage to a morph asset, resealed, reads as a valid asset or a typed error, and a
/// valid one plays (or fails with a typed error): never a panic. Mutations are aimed at the
/// morph section, where a checksum alone would not catch them.
#[test]
fn mutated_morph_assets_never_panic() {
    let rig = rig(&morph_worm(Interp::CubicSpline));
    for lane in [LaneKind::F32, LaneKind::Fixed] {
        let baked = bake_as(&rig, lane, Some(Budget::registers("test_18", 18)));
        let bytes = &baked.bytes;
        let start = bytes.len() - baked.morph_bytes;
        let mut read = 0;
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..2000 {
            let mut b = bytes.clone();
            for _ in 0..1 + next() % 3 {
                let at = start + (next() as usize) % baked.morph_bytes;
                b[at] = next() as u8;
            }
            let crc = skin_core::asset::checksum(&b);
            b[48..52].copy_from_slice(&crc.to_le_bytes());
            let played = |b: &[u8]| -> bool {
                match lane {
                    LaneKind::F32 => try_play::<f32>(b),
                    LaneKind::Fixed => try_play::<Q14>(b),
                }
            };
            read += usize::from(played(&b));
        }
        // Both outcomes happen: the reader refuses most damage, and some (a changed weight
        // key or default) reads and plays.
        assert!(read > 0 && read < 2000, "{lane:?}: {read} of 2000 read");
    }
}

/// Reads and plays `bytes` at a few times; whether it read.
fn try_play<L: AssetLane + Project>(bytes: &[u8]) -> bool {
    let Ok(asset) = Asset::<L>::read(bytes) else {
        return false;
    };
    let Ok(scene) = Scene::<L, BONES>::new(asset, 64, 64) else {
        return true;
    };
    let (mut pose, mut world) = (
        vec![Transform::<L::Real>::IDENTITY; scene.bones()],
        vec![Affine::<L::Real>::IDENTITY; scene.bones()],
    );
    let mut palette: Box<Palette<L, 256>> = Box::default();
    let mut scratch = Box::new(Scratch::<L, 16>::default());
    for t in [0.0, 0.7, 1.9] {
        if scene.pose(t, &mut pose, &mut world, &mut ()).is_ok() {
            scratch.set_time(Some(t));
            let _ = scene.skinned(&world, &mut *palette, &mut scratch, |_, _, _| {});
        }
    }
    true
}
