//! A small procedural character the project can ship (the sample models cannot be): twelve
//! bones, a skinned mesh of tubes, a head and feet (about 270 vertices), up to four
//! influences a vertex where limbs meet the body, and a looping one-second walk.
//!
//! `skin character -o FILE` writes it as glTF 2.0 (`.gltf` with an embedded buffer, or
//! `.glb`); `skin bake` turns that into the firmware's asset. It is made for the smallest
//! board: it fits the 16 KiB of RAM of a Cortex-M0 micro:bit.
//!
//! - **Skeleton** (Y up, metres, facing +Z, bind pose with identity rotations): `hips` →
//!   `spine` → `chest` → `head`, `chest` → `upper_arm` → `forearm` per side, `hips` →
//!   `thigh` → `shin` per side.
//! - **Weights** from envelopes, as the sources describe automatic weights: each bone
//!   influences the vertices of its body parts within a reach of its segment, fading with
//!   the square of the distance; the four strongest are kept and normalised.
//! - **Walk**: legs and arms swing in opposition, knees and elbows bend, the hips bob twice
//!   and sway once per stride; 17 linear keys, the last equal to the first.
//!
//! ```
//! let model = skin_host::character::Character::new();
//! assert_eq!(model.bones().len(), 12);
//! let glb = model.glb();
//! let rig = skin_host::import::from_slice(&glb, None).unwrap();
//! assert_eq!(rig.clips.len(), 1);
//! ```

use std::f32::consts::TAU;
use std::path::Path;

use base64::Engine as _;
use serde_json::{json, Value};

/// One bone: its rest position (the joint, in model space) and the segment its envelope
/// measures distances from.
#[derive(Clone, Debug, PartialEq)]
pub struct Bone {
    /// Node name.
    pub name: &'static str,
    /// Parent bone (index into [`Character::bones`]).
    pub parent: Option<usize>,
    /// The joint: where the bone starts, in model space at rest.
    pub head: [f32; 3],
    /// Where the bone ends (its child's joint, or a limb's tip).
    pub tail: [f32; 3],
    /// Envelope reach: vertices farther than this from the segment get no weight from it.
    pub reach: f32,
}

/// Body parts: which bones may influence a part's vertices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Part {
    Torso,
    Head,
    Arm(Side),
    Leg(Side),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Side {
    Left,
    Right,
}

// Bone indices (parents first).
const HIPS: usize = 0;
const SPINE: usize = 1;
const CHEST: usize = 2;
const HEAD: usize = 3;
const UPPER_ARM_L: usize = 4;
const FOREARM_L: usize = 5;
const UPPER_ARM_R: usize = 6;
const FOREARM_R: usize = 7;
const THIGH_L: usize = 8;
const SHIN_L: usize = 9;
const THIGH_R: usize = 10;
const SHIN_R: usize = 11;

/// Sides of every tube (vertices a ring).
const SIDES: usize = 8;
/// Length of the walk, seconds.
pub const STRIDE: f32 = 1.0;
/// Keys in the walk (the last repeats the first).
pub const KEYS: usize = 17;

/// The character: skeleton, skinned mesh and walk.
#[derive(Clone, Debug)]
pub struct Character {
    bones: Vec<Bone>,
    positions: Vec<[f32; 3]>,
    normals: Vec<[f32; 3]>,
    joints: Vec<[u8; 4]>,
    weights: Vec<[f32; 4]>,
    indices: Vec<u16>,
}

impl Default for Character {
    fn default() -> Self {
        Self::new()
    }
}

impl Character {
    /// Builds the character (deterministic: always the same bytes).
    pub fn new() -> Self {
        let bones = skeleton();
        let mut mesh = Mesh::default();
        body(&mut mesh);
        let normals = mesh.normals();
        let (joints, weights) = mesh
            .parts
            .iter()
            .zip(&mesh.positions)
            .map(|(part, p)| envelope(&bones, *part, *p))
            .unzip();
        Self {
            bones,
            positions: mesh.positions,
            normals,
            joints,
            weights,
            indices: mesh.indices,
        }
    }

    /// The bones, parents first.
    pub fn bones(&self) -> &[Bone] {
        &self.bones
    }

    /// Vertex positions (model space, metres).
    pub fn positions(&self) -> &[[f32; 3]] {
        &self.positions
    }

    /// Joints and weights of every vertex (weights sum to 1, strongest first).
    pub fn influences(&self) -> impl Iterator<Item = ([u8; 4], [f32; 4])> + '_ {
        self.joints
            .iter()
            .copied()
            .zip(self.weights.iter().copied())
    }

    /// Triangles (three indices each, counter-clockwise seen from outside).
    pub fn triangles(&self) -> usize {
        self.indices.len() / 3
    }

    /// The glTF document as `.glb` bytes.
    pub fn glb(&self) -> Vec<u8> {
        let (doc, bin) = self.document();
        let json = serde_json::to_vec(&doc).expect("a JSON value serialises");
        // Chunks: length, type, data padded to 4 bytes (JSON with spaces, BIN with zeros).
        let chunk = |kind: &[u8; 4], mut data: Vec<u8>, pad: u8| {
            data.resize(data.len().next_multiple_of(4), pad);
            [&(data.len() as u32).to_le_bytes()[..], kind, &data].concat()
        };
        let body = [chunk(b"JSON", json, b' '), chunk(b"BIN\0", bin, 0)].concat();
        let total = (12 + body.len()) as u32;
        [
            b"glTF",
            &2u32.to_le_bytes(),
            &total.to_le_bytes(),
            &body[..],
        ]
        .concat()
    }

    /// The glTF document as `.gltf` JSON with the buffer embedded as a `data:` URI.
    pub fn gltf(&self) -> Vec<u8> {
        let (mut doc, bin) = self.document();
        doc["buffers"][0]["uri"] = json!(format!(
            "data:application/octet-stream;base64,{}",
            base64::engine::general_purpose::STANDARD.encode(&bin)
        ));
        serde_json::to_vec_pretty(&doc).expect("a JSON value serialises")
    }

    /// Writes `.glb` when `path` ends in `.glb`, else `.gltf`.
    pub fn write(&self, path: &Path) -> std::io::Result<()> {
        let glb = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("glb"));
        std::fs::write(path, if glb { self.glb() } else { self.gltf() })
    }

    /// The JSON document and its binary buffer (the buffer has no `uri` yet: `.glb`).
    fn document(&self) -> (Value, Vec<u8>) {
        let mut b = Buffer::default();
        let n = self.positions.len();
        let (min, max) = bounds(&self.positions);
        let position = b.accessor(floats(&self.positions), n, FLOAT, "VEC3", Some((min, max)));
        let normal = b.accessor(floats(&self.normals), n, FLOAT, "VEC3", None);
        let joints = b.accessor(self.joints.concat(), n, UNSIGNED_BYTE, "VEC4", None);
        let weights = b.accessor(floats(&self.weights), n, FLOAT, "VEC4", None);
        let indices: Vec<u8> = self.indices.iter().flat_map(|i| i.to_le_bytes()).collect();
        let index = b.accessor(indices, self.indices.len(), UNSIGNED_SHORT, "SCALAR", None);
        // Inverse bind matrices: rest rotations are identity, so each is a translation by
        // minus the joint's position (column-major).
        let ibm: Vec<[f32; 16]> = self
            .bones
            .iter()
            .map(|bone| {
                let [x, y, z] = bone.head;
                [
                    1., 0., 0., 0., 0., 1., 0., 0., 0., 0., 1., 0., -x, -y, -z, 1.,
                ]
            })
            .collect();
        let ibm = b.accessor(floats(&ibm), self.bones.len(), FLOAT, "MAT4", None);

        let times: Vec<f32> = (0..KEYS)
            .map(|k| STRIDE * k as f32 / (KEYS - 1) as f32)
            .collect();
        let time = b.accessor(
            floats(&times.iter().map(|t| [*t]).collect::<Vec<_>>()),
            KEYS,
            FLOAT,
            "SCALAR",
            Some((vec![0.0], vec![STRIDE])),
        );
        let mut channels = Vec::new();
        let mut samplers = Vec::new();
        for bone in 0..self.bones.len() {
            let keys: Vec<[f32; 4]> = (0..KEYS).map(|k| rotation(bone, key_phase(k))).collect();
            let output = b.accessor(floats(&keys), KEYS, FLOAT, "VEC4", None);
            samplers.push(json!({"input": time, "output": output, "interpolation": "LINEAR"}));
            channels.push(json!({"sampler": samplers.len() - 1, "target": {"node": bone, "path": "rotation"}}));
        }
        let hips: Vec<[f32; 3]> = (0..KEYS)
            .map(|k| hips_translation(&self.bones, key_phase(k)))
            .collect();
        let output = b.accessor(floats(&hips), KEYS, FLOAT, "VEC3", None);
        samplers.push(json!({"input": time, "output": output, "interpolation": "LINEAR"}));
        channels.push(
            json!({"sampler": samplers.len() - 1, "target": {"node": HIPS, "path": "translation"}}),
        );

        let mut nodes: Vec<Value> = self
            .bones
            .iter()
            .enumerate()
            .map(|(i, bone)| {
                let origin = bone.parent.map_or([0.0; 3], |p| self.bones[p].head);
                let t: Vec<f32> = (0..3).map(|a| bone.head[a] - origin[a]).collect();
                let children: Vec<usize> = (0..self.bones.len())
                    .filter(|&c| self.bones[c].parent == Some(i))
                    .collect();
                let mut node = json!({"name": bone.name, "translation": t});
                if !children.is_empty() {
                    node["children"] = json!(children);
                }
                node
            })
            .collect();
        let mesh_node = nodes.len();
        nodes.push(json!({"name": "character", "mesh": 0, "skin": 0}));

        let doc = json!({
            "asset": {"version": "2.0", "generator": "skin character"},
            "scene": 0,
            "scenes": [{"nodes": [HIPS, mesh_node]}],
            "nodes": nodes,
            "meshes": [{"name": "character", "primitives": [{
                "attributes": {"POSITION": position, "NORMAL": normal, "JOINTS_0": joints, "WEIGHTS_0": weights},
                "indices": index,
                "mode": 4,
            }]}],
            "skins": [{"name": "character", "joints": (0..self.bones.len()).collect::<Vec<_>>(), "inverseBindMatrices": ibm, "skeleton": HIPS}],
            "animations": [{"name": "walk", "channels": channels, "samplers": samplers}],
            "buffers": [{"byteLength": b.bin.len()}],
            "bufferViews": b.views,
            "accessors": b.accessors,
        });
        (doc, b.bin)
    }
}

/// The skeleton at rest.
fn skeleton() -> Vec<Bone> {
    let bone = |name, parent, head: [f32; 3], tail: [f32; 3], reach| Bone {
        name,
        parent,
        head,
        tail,
        reach,
    };
    let (arm_x, leg_x) = (0.24, 0.1);
    vec![
        bone("hips", None, [0., 0.92, 0.], [0., 1.10, 0.], 0.28),
        bone("spine", Some(HIPS), [0., 1.10, 0.], [0., 1.30, 0.], 0.28),
        bone("chest", Some(SPINE), [0., 1.30, 0.], [0., 1.52, 0.], 0.28),
        bone("head", Some(CHEST), [0., 1.52, 0.], [0., 1.82, 0.], 0.25),
        bone(
            "upper_arm.L",
            Some(CHEST),
            [arm_x, 1.44, 0.],
            [arm_x, 1.17, 0.],
            0.12,
        ),
        bone(
            "forearm.L",
            Some(UPPER_ARM_L),
            [arm_x, 1.17, 0.],
            [arm_x, 0.90, 0.],
            0.12,
        ),
        bone(
            "upper_arm.R",
            Some(CHEST),
            [-arm_x, 1.44, 0.],
            [-arm_x, 1.17, 0.],
            0.12,
        ),
        bone(
            "forearm.R",
            Some(UPPER_ARM_R),
            [-arm_x, 1.17, 0.],
            [-arm_x, 0.90, 0.],
            0.12,
        ),
        bone(
            "thigh.L",
            Some(HIPS),
            [leg_x, 0.90, 0.],
            [leg_x, 0.49, 0.],
            0.16,
        ),
        bone(
            "shin.L",
            Some(THIGH_L),
            [leg_x, 0.49, 0.],
            [leg_x, 0.08, 0.],
            0.16,
        ),
        bone(
            "thigh.R",
            Some(HIPS),
            [-leg_x, 0.90, 0.],
            [-leg_x, 0.49, 0.],
            0.16,
        ),
        bone(
            "shin.R",
            Some(THIGH_R),
            [-leg_x, 0.49, 0.],
            [-leg_x, 0.08, 0.],
            0.16,
        ),
    ]
}

/// The bones that may influence `part`.
fn candidates(part: Part) -> &'static [usize] {
    match part {
        Part::Torso => &[
            HIPS,
            SPINE,
            CHEST,
            HEAD,
            UPPER_ARM_L,
            UPPER_ARM_R,
            THIGH_L,
            THIGH_R,
        ],
        Part::Head => &[HEAD, CHEST],
        Part::Arm(Side::Left) => &[CHEST, UPPER_ARM_L, FOREARM_L],
        Part::Arm(Side::Right) => &[CHEST, UPPER_ARM_R, FOREARM_R],
        Part::Leg(Side::Left) => &[HIPS, THIGH_L, SHIN_L],
        Part::Leg(Side::Right) => &[HIPS, THIGH_R, SHIN_R],
    }
}

/// Envelope weights of a vertex of `part` at `p`: the four strongest, normalised; the
/// nearest bone alone when no envelope reaches it.
fn envelope(bones: &[Bone], part: Part, p: [f32; 3]) -> ([u8; 4], [f32; 4]) {
    let mut w: Vec<(f32, usize)> = candidates(part)
        .iter()
        .map(|&b| {
            let d = segment_distance(p, bones[b].head, bones[b].tail);
            let s = (1.0 - d / bones[b].reach).max(0.0);
            (s * s, b)
        })
        .collect();
    // Strongest first; ties by bone index, so the order is deterministic.
    w.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    if w[0].0 == 0.0 {
        return ([w[0].1 as u8, 0, 0, 0], [1.0, 0.0, 0.0, 0.0]);
    }
    w.truncate(4);
    w.retain(|(s, _)| *s > 0.0);
    let sum: f32 = w.iter().map(|(s, _)| s).sum();
    let (mut joints, mut weights) = ([0u8; 4], [0f32; 4]);
    for (k, (s, b)) in w.iter().enumerate() {
        joints[k] = *b as u8;
        weights[k] = s / sum;
    }
    (joints, weights)
}

/// Distance from `p` to the segment `a`–`b`.
fn segment_distance(p: [f32; 3], a: [f32; 3], b: [f32; 3]) -> f32 {
    let ab = sub(b, a);
    let t = (dot(sub(p, a), ab) / dot(ab, ab)).clamp(0.0, 1.0);
    let q = [a[0] + ab[0] * t, a[1] + ab[1] * t, a[2] + ab[2] * t];
    let d = sub(p, q);
    dot(d, d).sqrt()
}

/// The mesh under construction: vertices with their body part, triangles.
#[derive(Default)]
struct Mesh {
    positions: Vec<[f32; 3]>,
    parts: Vec<Part>,
    indices: Vec<u16>,
}

impl Mesh {
    fn vertex(&mut self, p: [f32; 3], part: Part) -> u16 {
        self.positions.push(p);
        self.parts.push(part);
        (self.positions.len() - 1) as u16
    }

    /// A triangle, wound so that its normal points away from `inside`.
    fn triangle(&mut self, [a, b, c]: [u16; 3], inside: [f32; 3]) {
        let p = |i: u16| self.positions[usize::from(i)];
        let n = cross(sub(p(b), p(a)), sub(p(c), p(a)));
        let centre = [0, 1, 2].map(|k| (p(a)[k] + p(b)[k] + p(c)[k]) / 3.0);
        let outward = dot(n, sub(centre, inside)) >= 0.0;
        self.indices
            .extend(if outward { [a, b, c] } else { [a, c, b] });
    }

    /// A closed tube through `rings` (centre, radius across x, radius across z), capped
    /// at both ends by a vertex `cap` beyond the end rings.
    fn tube(&mut self, rings: &[([f32; 3], f32, f32)], cap: f32, part: Part) {
        let first = self.positions.len() as u16;
        for &(c, rx, rz) in rings {
            for j in 0..SIDES {
                let a = TAU * j as f32 / SIDES as f32;
                self.vertex([c[0] + rx * a.cos(), c[1], c[2] + rz * a.sin()], part);
            }
        }
        let at = |i: usize, j: usize| first + (i * SIDES + j % SIDES) as u16;
        for i in 0..rings.len() - 1 {
            let inside = mid(rings[i].0, rings[i + 1].0);
            for j in 0..SIDES {
                self.triangle([at(i, j), at(i, j + 1), at(i + 1, j + 1)], inside);
                self.triangle([at(i, j), at(i + 1, j + 1), at(i + 1, j)], inside);
            }
        }
        let last = rings.len() - 1;
        for (i, next) in [(0, 1), (last, last - 1)] {
            let c = rings[i].0;
            let out = (c[1] - rings[next].0[1]).signum();
            let pole = self.vertex([c[0], c[1] + out * cap, c[2]], part);
            for j in 0..SIDES {
                self.triangle([at(i, j), at(i, j + 1), pole], c);
            }
        }
    }

    /// A sphere-like head: `rings` latitude rings and two poles.
    fn ball(&mut self, centre: [f32; 3], r: f32, rings: usize, part: Part) {
        let top = self.vertex([centre[0], centre[1] + r, centre[2]], part);
        let first = self.positions.len() as u16;
        for i in 1..=rings {
            let lat = std::f32::consts::PI * i as f32 / (rings + 1) as f32;
            for j in 0..SIDES {
                let a = TAU * j as f32 / SIDES as f32;
                let (s, c) = (lat.sin() * r, lat.cos() * r);
                self.vertex(
                    [
                        centre[0] + s * a.cos(),
                        centre[1] + c,
                        centre[2] + s * a.sin(),
                    ],
                    part,
                );
            }
        }
        let bottom = self.vertex([centre[0], centre[1] - r, centre[2]], part);
        let at = |i: usize, j: usize| first + (i * SIDES + j % SIDES) as u16;
        for j in 0..SIDES {
            self.triangle([top, at(0, j), at(0, j + 1)], centre);
            self.triangle([bottom, at(rings - 1, j), at(rings - 1, j + 1)], centre);
        }
        for i in 0..rings - 1 {
            for j in 0..SIDES {
                self.triangle([at(i, j), at(i, j + 1), at(i + 1, j + 1)], centre);
                self.triangle([at(i, j), at(i + 1, j + 1), at(i + 1, j)], centre);
            }
        }
    }

    /// A box from `lo` to `hi` (a foot).
    fn block(&mut self, lo: [f32; 3], hi: [f32; 3], part: Part) {
        let first = self.positions.len() as u16;
        for k in 0..8 {
            let pick = |axis: usize| {
                if k >> axis & 1 == 1 {
                    hi[axis]
                } else {
                    lo[axis]
                }
            };
            self.vertex([pick(0), pick(1), pick(2)], part);
        }
        let centre = mid(lo, hi);
        // Each face as two triangles over corner bit patterns.
        for (axis, side) in [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (2, 1)] {
            let corners: Vec<u16> = (0..8u16)
                .filter(|k| usize::from(k >> axis & 1) == side)
                .map(|k| first + k)
                .collect();
            // The four corners of a face, as a cycle: 00, 01, 11, 10 in the other two axes.
            let q = [corners[0], corners[1], corners[3], corners[2]];
            self.triangle([q[0], q[1], q[2]], centre);
            self.triangle([q[0], q[2], q[3]], centre);
        }
    }

    /// Area-weighted vertex normals.
    fn normals(&self) -> Vec<[f32; 3]> {
        let mut n = vec![[0f32; 3]; self.positions.len()];
        for t in self.indices.chunks_exact(3) {
            let p = |k: usize| self.positions[usize::from(t[k])];
            let f = cross(sub(p(1), p(0)), sub(p(2), p(0)));
            for &i in t {
                for a in 0..3 {
                    n[usize::from(i)][a] += f[a];
                }
            }
        }
        n.iter()
            .map(|v| {
                let l = dot(*v, *v).sqrt();
                v.map(|c| c / l)
            })
            .collect()
    }
}

/// The body: torso, head, arms, legs and feet.
fn body(m: &mut Mesh) {
    m.tube(
        &[
            ([0., 0.84, 0.], 0.15, 0.10),
            ([0., 0.96, 0.], 0.16, 0.11),
            ([0., 1.10, 0.], 0.14, 0.10),
            ([0., 1.26, 0.], 0.16, 0.11),
            ([0., 1.40, 0.], 0.19, 0.12),
            ([0., 1.48, 0.], 0.14, 0.10),
            ([0., 1.55, 0.], 0.05, 0.05),
        ],
        0.03,
        Part::Torso,
    );
    m.ball([0., 1.68, 0.02], 0.12, 4, Part::Head);
    for (side, s) in [(Side::Left, 1.0), (Side::Right, -1.0)] {
        let x = 0.24 * s;
        m.tube(
            &[
                ([x, 1.46, 0.], 0.055, 0.055),
                ([x, 1.30, 0.], 0.048, 0.048),
                ([x, 1.17, 0.], 0.042, 0.042),
                ([x, 1.03, 0.], 0.040, 0.040),
                ([x, 0.90, 0.], 0.034, 0.034),
            ],
            0.04,
            Part::Arm(side),
        );
        let x = 0.1 * s;
        m.tube(
            &[
                ([x, 0.90, 0.], 0.075, 0.075),
                ([x, 0.70, 0.], 0.068, 0.068),
                ([x, 0.49, 0.], 0.055, 0.055),
                ([x, 0.28, 0.], 0.050, 0.050),
                ([x, 0.10, 0.], 0.040, 0.040),
            ],
            0.02,
            Part::Leg(side),
        );
        m.block(
            [x - 0.045, 0.0, -0.05],
            [x + 0.045, 0.07, 0.14],
            Part::Leg(side),
        );
    }
}

/// The phase (radians) of key `k`: the last key has phase 0 again, so the loop is exact.
fn key_phase(k: usize) -> f32 {
    TAU * (k % (KEYS - 1)) as f32 / (KEYS - 1) as f32
}

/// The rotation of `bone` at phase `ph` of the stride, as a glTF quaternion `[x, y, z, w]`.
fn rotation(bone: usize, ph: f32) -> [f32; 4] {
    let deg = |d: f32| d.to_radians();
    // Positive angles about +X swing a hanging limb backwards (−Z).
    let (axis, angle) = match bone {
        HIPS => ([0., 1., 0.], deg(6.) * ph.sin()),
        SPINE => ([0., 1., 0.], deg(-4.) * ph.sin()),
        CHEST => ([1., 0., 0.], deg(3.) * (2. * ph).cos()),
        HEAD => ([1., 0., 0.], deg(-3.) * (2. * ph).cos()),
        THIGH_L => ([1., 0., 0.], deg(-28.) * ph.sin()),
        THIGH_R => ([1., 0., 0.], deg(28.) * ph.sin()),
        SHIN_L => ([1., 0., 0.], deg(8. + 30. * (0.5 - 0.5 * ph.cos()))),
        SHIN_R => ([1., 0., 0.], deg(8. + 30. * (0.5 + 0.5 * ph.cos()))),
        UPPER_ARM_L => ([1., 0., 0.], deg(22.) * ph.sin()),
        UPPER_ARM_R => ([1., 0., 0.], deg(-22.) * ph.sin()),
        FOREARM_L => ([1., 0., 0.], deg(-12. - 10. * (0.5 + 0.5 * ph.sin()))),
        _ => ([1., 0., 0.], deg(-12. - 10. * (0.5 - 0.5 * ph.sin()))),
    };
    let (s, c) = (angle * 0.5).sin_cos();
    [axis[0] * s, axis[1] * s, axis[2] * s, c]
}

/// The hips' translation at phase `ph`: their rest position, bobbing twice a stride.
fn hips_translation(bones: &[Bone], ph: f32) -> [f32; 3] {
    let [x, y, z] = bones[HIPS].head;
    [x, y + 0.02 * (2. * ph).cos(), z]
}

/// The binary buffer under construction with its views and accessors.
#[derive(Default)]
struct Buffer {
    bin: Vec<u8>,
    views: Vec<Value>,
    accessors: Vec<Value>,
}

const FLOAT: u32 = 5126;
const UNSIGNED_BYTE: u32 = 5121;
const UNSIGNED_SHORT: u32 = 5123;

impl Buffer {
    /// Appends `bytes` (4-byte aligned) as a view and an accessor of `count` elements;
    /// returns the accessor's index.
    fn accessor(
        &mut self,
        bytes: Vec<u8>,
        count: usize,
        component: u32,
        kind: &str,
        range: Option<(Vec<f32>, Vec<f32>)>,
    ) -> usize {
        self.bin.resize(self.bin.len().next_multiple_of(4), 0);
        self.views
            .push(json!({"buffer": 0, "byteOffset": self.bin.len(), "byteLength": bytes.len()}));
        self.bin.extend_from_slice(&bytes);
        let mut a = json!({"bufferView": self.views.len() - 1, "componentType": component, "count": count, "type": kind});
        if let Some((min, max)) = range {
            a["min"] = json!(min);
            a["max"] = json!(max);
        }
        self.accessors.push(a);
        self.accessors.len() - 1
    }
}

/// Little-endian bytes of rows of floats.
fn floats<const N: usize>(rows: &[[f32; N]]) -> Vec<u8> {
    rows.iter()
        .flatten()
        .flat_map(|v| v.to_le_bytes())
        .collect()
}

/// Per-axis minimum and maximum.
fn bounds(points: &[[f32; 3]]) -> (Vec<f32>, Vec<f32>) {
    let pick = |f: fn(f32, f32) -> f32, start: f32| {
        (0..3)
            .map(|a| points.iter().map(|p| p[a]).fold(start, f))
            .collect()
    };
    (
        pick(f32::min, f32::INFINITY),
        pick(f32::max, f32::NEG_INFINITY),
    )
}

fn sub(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn dot(a: [f32; 3], b: [f32; 3]) -> f32 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn cross(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

fn mid(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [0, 1, 2].map(|k| 0.5 * (a[k] + b[k]))
}
