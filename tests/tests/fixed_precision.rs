//! Fixed-point precision on real characters, relative to their extent (the diagonal of the
//! rest pose's bounding box): every sample model, its armatures rescaled ×100 and ×0.01, a
//! Mixamo-style character of 67 joints (centimetres under a 0.01 armature, `skin_tests::mixamo`)
//! and a character of 60 skins over one skeleton, posed in the fixed lane at the rest pose
//! and at eight times of every clip, against the `f64` oracle.
//!
//! Each frame's error is also taken apart: the same `f64` skinning with only one of the
//! lane's roundings applied — the bind positions to `I2F14` asset units, the palette's
//! linear entries to `I2F14`, its translations, the weights to `U1F15`, the per-vertex
//! blended matrix's entries (the kernel rounds its sums once) — and with the lane's own
//! palette (the `I8F24` pose maths and both palette roundings), so the test says which term
//! dominates and by how much.

use skin_core::lane::{Lane, FIXED_ERROR_BOUND, Q14};
use skin_host::oracle;
use skin_host::pose::animate::frame;
use skin_host::pose::morph::{morphed, weights};
use skin_host::pose::palette::skin_palette;
use skin_host::pose::units::lane_centre;
use skin_host::pose::{self, fixed_unit, LaneKind};
use skin_host::rig::world64::{self, M34};
use skin_host::rig::Rig;

/// The goal on every model: 1/4096 of the extent, about a pixel at 16× zoom on a 240-pixel
/// display.
const GOAL: f64 = 2.5e-4;

/// The largest error of each kind in a frame, in model units.
#[derive(Clone, Copy, Debug, Default)]
struct Terms {
    /// The lane's pose against the oracle's.
    total: f64,
    /// Bind positions rounded to `I2F14` asset units.
    vertex: f64,
    /// Palette linear entries rounded to `I2F14` (at the palette's exponent).
    rotation: f64,
    /// Palette translations rounded to `I2F14` asset units.
    translation: f64,
    /// Weights rounded to `U1F15`, the first one the rest of 1.
    weight: f64,
    /// The blended matrix's entries rounded to `I2F14`.
    blend: f64,
    /// What the kernel's own rounding of the blended entries can add at most: half a step
    /// per entry, `2^(e−15)·(|x| + |y| + |z| + 1)`, and the output's `2⁻¹⁷`.
    kernel: f64,
    /// The lane's own palette (`I8F24` pose maths, then rounded) in place of the oracle's.
    palette: f64,
}

impl Terms {
    fn max(self, o: Terms) -> Terms {
        Terms {
            total: self.total.max(o.total),
            vertex: self.vertex.max(o.vertex),
            rotation: self.rotation.max(o.rotation),
            translation: self.translation.max(o.translation),
            weight: self.weight.max(o.weight),
            blend: self.blend.max(o.blend),
            kernel: self.kernel.max(o.kernel),
            palette: self.palette.max(o.palette),
        }
    }

    fn scaled(self, s: f64) -> Terms {
        Terms {
            total: self.total * s,
            vertex: self.vertex * s,
            rotation: self.rotation * s,
            translation: self.translation * s,
            weight: self.weight * s,
            blend: self.blend * s,
            kernel: self.kernel * s,
            palette: self.palette * s,
        }
    }
}

/// `x` rounded to a multiple of `step`.
fn round(x: f64, step: f64) -> f64 {
    (x / step).round() * step
}

/// `Σ wᵢ·mᵢ`.
fn blend(ms: &[M34], ws: &[f64]) -> M34 {
    let mut out = [[0.0; 4]; 3];
    for (m, &w) in ms.iter().zip(ws) {
        for r in 0..3 {
            for c in 0..4 {
                out[r][c] += w * m[r][c];
            }
        }
    }
    out
}

/// The largest coordinate difference between two points.
fn gap(a: [f64; 3], b: [f64; 3]) -> f64 {
    (0..3).map(|i| (a[i] - b[i]).abs()).fold(0.0, f64::max)
}

/// The error terms of `rig` at the rest pose (`anim` = `None`) or clip `c` at `t`, in model
/// units, with asset unit `2^k`.
fn terms(rig: &Rig, anim: Option<(usize, f32)>, k: i32) -> Terms {
    let a64 = anim.map(|(c, t)| (c, f64::from(t)));
    let want = oracle::pose(rig, a64).expect("oracle");
    let got = pose::pose(rig, anim, LaneKind::Fixed).expect("fixed pose");
    let mut t = Terms::default();
    for (w, g) in want.iter().zip(&got) {
        for (p, q) in w.positions.iter().zip(&g.positions) {
            t.total = t.total.max(gap(*p, q.map(f64::from)));
        }
    }
    let unit = 2f64.powi(k);
    let centre = lane_centre::<Q14>(rig, k).map(f64::from);
    let world = world64::world(rig, &oracle::locals(rig, a64).expect("locals"));
    let locals = frame::<<Q14 as Lane>::Real>(rig, anim, k).expect("frame");
    let node_weights = weights(rig, anim);
    for (node, mesh, skin) in rig.mesh_nodes() {
        let Some(s) = skin else { continue };
        let sk = &rig.skins[s];
        // The oracle's palette in asset units, and the lane's.
        let exact: Vec<M34> = sk
            .joints
            .iter()
            .zip(&sk.inverse_binds)
            .map(|(&j, ibm)| {
                let mut m = world64::mul(&world[j], &ibm.map(|r| r.map(f64::from)));
                // Asset units, relative to the centre: T(−c) · M · T(c).
                for (i, r) in m.iter_mut().enumerate() {
                    r[3] = r[3] / unit + (0..3).map(|a| r[a] * centre[a]).sum::<f64>() - centre[i];
                }
                m
            })
            .collect();
        let lane = skin_palette::<Q14>(rig, &locals, s, k).expect("lane palette");
        let scale = f64::from(1u16 << lane.exponent);
        let step = scale / 16384.0;
        let lane: Vec<M34> = lane
            .matrices
            .iter()
            .map(|m| m.rows.map(|r| r.map(|e| f64::from(e.to_f32()) * scale)))
            .collect();
        let rounded = |m: &M34, linear: bool, translation: bool| -> M34 {
            m.map(|r| {
                [0, 1, 2, 3].map(|c| match c {
                    3 if translation => round(r[3], step),
                    0..=2 if linear => round(r[c], step),
                    _ => r[c],
                })
            })
        };
        let rot: Vec<M34> = exact.iter().map(|m| rounded(m, true, false)).collect();
        let trans: Vec<M34> = exact.iter().map(|m| rounded(m, false, true)).collect();
        for prim in &rig.meshes[mesh].primitives {
            let Some(inf) = &prim.influences else {
                continue;
            };
            let prim = morphed(prim, &node_weights[node]);
            for (p, i) in prim.positions.iter().zip(inf) {
                let p = [0, 1, 2].map(|i| f64::from(p[i]) / unit - centre[i]);
                let sum: f64 = i.weights.iter().map(|&w| f64::from(w)).sum();
                let ws: Vec<f64> = i.weights.iter().map(|&w| f64::from(w) / sum).collect();
                let mut wq: Vec<f64> = ws.iter().map(|&w| round(w, 1.0 / 32768.0)).collect();
                wq[0] = 1.0 - wq[1..].iter().sum::<f64>();
                let of = |pal: &[M34]| -> Vec<M34> {
                    i.joints.iter().map(|&j| pal[usize::from(j)]).collect()
                };
                let m = blend(&of(&exact), &ws);
                let y = world64::point(&m, p);
                let pq = p.map(|c| round(c, 1.0 / 16384.0));
                t.vertex = t.vertex.max(gap(world64::point(&m, pq), y));
                let by = |pal: &[M34], w: &[f64]| gap(world64::point(&blend(&of(pal), w), p), y);
                t.rotation = t.rotation.max(by(&rot, &ws));
                t.translation = t.translation.max(by(&trans, &ws));
                t.weight = t.weight.max(by(&exact, &wq));
                t.palette = t.palette.max(by(&lane, &ws));
                let mb = m.map(|r| r.map(|e| round(e, step)));
                t.blend = t.blend.max(gap(world64::point(&mb, p), y));
                let l1: f64 = pq.iter().map(|c| c.abs()).sum();
                t.kernel = t.kernel.max(step / 2.0 * (l1 + 1.0) + 2f64.powi(-17));
            }
        }
    }
    // Everything but the total was measured in asset units.
    let total = t.total;
    let mut t = t.scaled(unit);
    t.total = total;
    t
}

/// The rest pose and eight times of every clip.
fn frames(rig: &Rig) -> Vec<Option<(usize, f32)>> {
    let mut cases = vec![None];
    for (c, clip) in rig.clips.iter().enumerate() {
        let d = clip.duration();
        cases.extend((0..8).map(|i| Some((c, d * i as f32 / 8.0))));
    }
    cases
}

/// The models measured, named.
fn models() -> Vec<(String, Rig)> {
    let mut out = Vec::new();
    for path in skin_tests::sample_models("fixed_precision") {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let rig = skin_host::import::from_path(&path).expect("import");
        out.push((
            format!("{name} ×100"),
            skin_tests::rescale::rescaled(&rig, 100.0),
        ));
        out.push((
            format!("{name} ×0.01"),
            skin_tests::rescale::rescaled(&rig, 0.01),
        ));
        out.push((name, rig));
    }
    let glb = |g: skin_tests::gltf_gen::Gen| skin_host::import::from_slice(&g.glb(), None).unwrap();
    let mixamo = glb(skin_tests::mixamo::character(1.0));
    for x in [1.0f32, 3.0, 5.0] {
        out.push((
            format!("Mixamo-style 1.8 m, {x} m off the origin"),
            skin_tests::rescale::shifted(&mixamo, [x, 0.0, 0.0]),
        ));
    }
    out.push(("Mixamo-style 1.8 m".into(), mixamo));
    let tall = glb(skin_tests::mixamo::character(1.22));
    out.push(("Mixamo-style 2.2 m".into(), tall));
    let skins = glb(skin_tests::gltf_gen::many_skins(60, 18, 60));
    out.push(("60 skins × 18 joints".into(), skins));
    out
}

#[test]
fn the_mixamo_style_character_has_67_joints_in_centimetres_under_a_0_01_armature() {
    let joints = skin_tests::mixamo::joints();
    assert_eq!(joints.len(), 67);
    let rig =
        skin_host::import::from_slice(&skin_tests::mixamo::character(1.0).glb(), None).unwrap();
    assert_eq!(rig.skins[0].joints.len(), 67);
    // The file's hips stand a metre up in centimetres; the pose is in metres.
    assert_eq!(joints[0].2, [0.0, 100.0, 0.0]);
    let posed = oracle::pose(&rig, None).unwrap();
    let top = posed[0].positions.iter().map(|p| p[1]).fold(0.0, f64::max);
    assert!((1.7..1.9).contains(&top), "top of the head at {top} m");
}

#[test]
fn fixed_point_poses_every_model_within_the_goal_of_its_extent() {
    let mut over = Vec::new();
    for (name, rig) in models() {
        let k = fixed_unit(&rig).unwrap_or_else(|e| panic!("{name}: {e}"));
        let extent = oracle::extent(&oracle::pose(&rig, None).unwrap());
        let mut worst = Terms::default();
        for anim in frames(&rig) {
            let t = terms(&rig, anim, k);
            // The terms account for the whole error: the exact blend of the lane's palette
            // at quantised weights on quantised positions, then the kernel's roundings
            // (and below 10⁻⁶ asset units of I8F24 pose maths, already in the palette).
            let parts = t.vertex + t.palette + t.weight + t.kernel + 1e-6 * 2f64.powi(k);
            assert!(
                t.total <= parts,
                "{name} {anim:?}: error {:e} beyond its terms' {parts:e}",
                t.total
            );
            worst = worst.max(t);
        }
        let t = worst.scaled(1.0 / extent);
        println!(
            "{name}: k {k}, extent {extent:.4}: total {:.2e} | vertex {:.2e} rotation {:.2e} \
             translation {:.2e} weight {:.2e} blend {:.2e} lane palette {:.2e} (of the extent)",
            t.total, t.vertex, t.rotation, t.translation, t.weight, t.blend, t.palette
        );
        // Every model keeps the lane's derived bound in asset units.
        let bound = (FIXED_ERROR_BOUND + 1e-6) * 2f64.powi(k);
        assert!(
            worst.total <= bound,
            "{name}: {:e} model units beyond the lane's bound {bound:e}",
            worst.total
        );
        if t.total > GOAL {
            over.push(format!("{name}: {:.2e}", t.total));
        }
    }
    assert!(over.is_empty(), "over {GOAL:e} of the extent: {over:?}");
}
