//! Synthetic glTF files built in code for the tests: a JSON document plus one binary
//! buffer, written as `.glb` or as `.gltf` with an embedded `data:` buffer.
//!
//! [`Gen`] is the low-level builder; [`Worm`] describes a skinned chain of bones (a bendy
//! tube along Y under a non-joint root that turns Z-up into Y-up) with the options the
//! importer must handle: interpolation, influences per vertex (4, or 8 over
//! `JOINTS_0/1`+`WEIGHTS_0/1`), weight component type, missing inverse bind matrices, and a
//! mesh reused by two skins.

use base64::Engine as _;
use serde_json::{json, Value};

/// glTF component types.
pub const FLOAT: u32 = 5126;
/// Unsigned byte.
pub const UNSIGNED_BYTE: u32 = 5121;
/// Unsigned short.
pub const UNSIGNED_SHORT: u32 = 5123;
/// Unsigned int.
pub const UNSIGNED_INT: u32 = 5125;

/// A glTF document under construction.
#[derive(Clone, Debug)]
pub struct Gen {
    /// The JSON (top-level object).
    pub json: Value,
    /// The binary buffer.
    pub bin: Vec<u8>,
}

impl Default for Gen {
    fn default() -> Self {
        Self::new()
    }
}

impl Gen {
    /// An empty document with one scene.
    pub fn new() -> Self {
        Gen {
            json: json!({"asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": []}]}),
            bin: Vec::new(),
        }
    }

    /// Append `value` to the top-level array `key`; its index.
    pub fn push(&mut self, key: &str, value: Value) -> usize {
        let arr = self.json[key].as_array_mut();
        match arr {
            Some(a) => {
                a.push(value);
                a.len() - 1
            }
            None => {
                self.json[key] = json!([value]);
                0
            }
        }
    }

    /// Append bytes as a buffer view (4-byte aligned); its index.
    pub fn view(&mut self, bytes: &[u8]) -> usize {
        while self.bin.len() % 4 != 0 {
            self.bin.push(0);
        }
        let offset = self.bin.len();
        self.bin.extend_from_slice(bytes);
        self.push(
            "bufferViews",
            json!({"buffer": 0, "byteOffset": offset, "byteLength": bytes.len()}),
        )
    }

    /// An accessor over new bytes.
    pub fn accessor(
        &mut self,
        bytes: &[u8],
        ctype: u32,
        ty: &str,
        count: usize,
        normalized: bool,
    ) -> usize {
        let view = self.view(bytes);
        let mut a = json!({"bufferView": view, "componentType": ctype, "type": ty, "count": count});
        if normalized {
            a["normalized"] = json!(true);
        }
        self.push("accessors", a)
    }

    /// Two joints along X, `names[1]` one unit from `names[0]` (its child), skinning the
    /// mesh `mesh` from a node named `names[2]` placed in the scene beside the chain: the
    /// inverse binds are the identity and the translation by −1 along X (column-major).
    /// Returns the two joints' node indices.
    pub fn two_joint_chain(&mut self, names: [&str; 3], mesh: usize) -> [usize; 2] {
        let root = self.push("nodes", json!({"name": names[0]}));
        let child = self.push(
            "nodes",
            json!({"name": names[1], "translation": [1.0, 0.0, 0.0]}),
        );
        self.json["nodes"][root]["children"] = json!([child]);
        let mut ibm = vec![0.0f32; 32];
        for m in 0..2 {
            for d in 0..4 {
                ibm[16 * m + 5 * d] = 1.0;
            }
        }
        ibm[28] = -1.0;
        let ibm = self.floats(&ibm, "MAT4", 16);
        let skin = self.push(
            "skins",
            json!({"joints": [root, child], "inverseBindMatrices": ibm}),
        );
        let node = self.push(
            "nodes",
            json!({"name": names[2], "mesh": mesh, "skin": skin}),
        );
        self.json["scenes"][0]["nodes"] = json!([root, node]);
        [root, child]
    }

    /// A float accessor; `width` components per element (with min/max, as POSITION needs).
    pub fn floats(&mut self, data: &[f32], ty: &str, width: usize) -> usize {
        let bytes: Vec<u8> = data.iter().flat_map(|v| v.to_le_bytes()).collect();
        let i = self.accessor(&bytes, FLOAT, ty, data.len() / width, false);
        let min: Vec<f32> = (0..width)
            .map(|c| {
                data.iter()
                    .skip(c)
                    .step_by(width)
                    .copied()
                    .fold(f32::INFINITY, f32::min)
            })
            .collect();
        let max: Vec<f32> = (0..width)
            .map(|c| {
                data.iter()
                    .skip(c)
                    .step_by(width)
                    .copied()
                    .fold(f32::NEG_INFINITY, f32::max)
            })
            .collect();
        self.json["accessors"][i]["min"] = json!(min);
        self.json["accessors"][i]["max"] = json!(max);
        i
    }

    /// The values of the tightly packed float accessor `accessor` (its index as JSON).
    pub fn read_floats(&self, accessor: &Value) -> Vec<f32> {
        let a = &self.json["accessors"][accessor.as_u64().expect("an accessor index") as usize];
        let view = &self.json["bufferViews"][a["bufferView"].as_u64().unwrap() as usize];
        let start = view["byteOffset"].as_u64().unwrap_or(0) as usize;
        let len = view["byteLength"].as_u64().unwrap() as usize;
        self.bin[start..start + len]
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect()
    }

    /// An unsigned integer accessor of `ctype` (byte, short or int).
    pub fn uints(
        &mut self,
        data: &[u32],
        ctype: u32,
        ty: &str,
        width: usize,
        normalized: bool,
    ) -> usize {
        let bytes: Vec<u8> = match ctype {
            UNSIGNED_BYTE => data.iter().map(|&v| v as u8).collect(),
            UNSIGNED_SHORT => data
                .iter()
                .flat_map(|&v| (v as u16).to_le_bytes())
                .collect(),
            _ => data.iter().flat_map(|&v| v.to_le_bytes()).collect(),
        };
        self.accessor(&bytes, ctype, ty, data.len() / width, normalized)
    }

    fn finish(&self) -> Value {
        let mut j = self.json.clone();
        j["buffers"] = json!([{"byteLength": self.bin.len()}]);
        j
    }

    /// The document as GLB bytes.
    pub fn glb(&self) -> Vec<u8> {
        let mut json = serde_json::to_vec(&self.finish()).unwrap();
        while json.len() % 4 != 0 {
            json.push(b' ');
        }
        let mut bin = self.bin.clone();
        while bin.len() % 4 != 0 {
            bin.push(0);
        }
        let total = 12 + 8 + json.len() + 8 + bin.len();
        let mut out = Vec::with_capacity(total);
        out.extend_from_slice(b"glTF");
        out.extend_from_slice(&2u32.to_le_bytes());
        out.extend_from_slice(&(total as u32).to_le_bytes());
        out.extend_from_slice(&(json.len() as u32).to_le_bytes());
        out.extend_from_slice(b"JSON");
        out.extend_from_slice(&json);
        out.extend_from_slice(&(bin.len() as u32).to_le_bytes());
        out.extend_from_slice(b"BIN\0");
        out.extend_from_slice(&bin);
        out
    }

    /// The document as `.gltf` JSON with the buffer embedded as a `data:` URI.
    pub fn gltf(&self) -> String {
        let mut j = self.finish();
        let data = base64::engine::general_purpose::STANDARD.encode(&self.bin);
        j["buffers"][0]["uri"] = json!(format!("data:application/octet-stream;base64,{data}"));
        serde_json::to_string_pretty(&j).unwrap()
    }
}

/// glTF interpolation names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Interp {
    /// `STEP`.
    Step,
    /// `LINEAR`.
    Linear,
    /// `CUBICSPLINE`.
    CubicSpline,
}

/// A skinned chain of bones along +Y: the options of the synthetic test model.
#[derive(Clone, Copy, Debug)]
pub struct Worm {
    /// Bones in each chain.
    pub bones: usize,
    /// Non-zero influences per vertex: up to 4 use `JOINTS_0` only, up to 8 add `JOINTS_1`.
    pub influences: usize,
    /// Weight component type: [`FLOAT`], [`UNSIGNED_BYTE`] or [`UNSIGNED_SHORT`] (normalised).
    pub weights: u32,
    /// Write inverse bind matrices (else the skin has none: identity).
    pub inverse_binds: bool,
    /// Interpolation of every channel.
    pub interp: Interp,
    /// Add a second chain, a second skin, and a second node instantiating the same mesh.
    pub two_skins: bool,
    /// Animate bone 3's scale (which dual quaternion skinning cannot represent); without
    /// it every joint stays rigid.
    pub scale_channel: bool,
}

impl Default for Worm {
    fn default() -> Self {
        Worm {
            bones: 10,
            influences: 4,
            weights: FLOAT,
            inverse_binds: true,
            interp: Interp::Linear,
            two_skins: false,
            scale_channel: true,
        }
    }
}

/// Key times of the synthetic clip.
pub const KEY_TIMES: [f32; 4] = [0.0, 0.5, 1.25, 2.0];

impl Worm {
    /// Build the document.
    pub fn build(&self) -> Gen {
        let mut g = Gen::new();
        let b = self.bones;
        // Geometry: rings of 3 vertices every half bone, triangles between rings.
        let levels = 2 * b + 1;
        let mut pos = Vec::new();
        for l in 0..levels {
            let y = l as f32 * 0.5;
            for k in 0..3 {
                let a = k as f32 * 2.0943951;
                pos.extend_from_slice(&[0.3 * a.cos(), y, 0.3 * a.sin()]);
            }
        }
        let mut idx = Vec::new();
        for l in 0..levels - 1 {
            for k in 0..3u32 {
                let (a, c) = (l as u32 * 3 + k, l as u32 * 3 + (k + 1) % 3);
                idx.extend_from_slice(&[a, c, a + 3, c, c + 3, a + 3]);
            }
        }
        let n = pos.len() / 3;
        // Influences: the `influences` nearest bones to the vertex height, weighted by
        // 1/(1 + distance), normalised, in ascending bone order.
        let mut joints = vec![[0u32; 8]; n];
        let mut weights = vec![[0f32; 8]; n];
        for v in 0..n {
            let y = pos[v * 3 + 1];
            let mut near: Vec<(usize, f32)> =
                (0..b).map(|j| (j, (y - (j as f32 + 0.5)).abs())).collect();
            near.sort_by(|a, c| a.1.total_cmp(&c.1));
            near.truncate(self.influences.min(b));
            near.sort_by_key(|p| p.0);
            let total: f32 = near.iter().map(|p| 1.0 / (1.0 + p.1)).sum();
            for (k, &(j, d)) in near.iter().enumerate() {
                joints[v][k] = j as u32;
                weights[v][k] = 1.0 / (1.0 + d) / total;
            }
        }
        let positions = g.floats(&pos, "VEC3", 3);
        let indices = g.uints(&idx, UNSIGNED_SHORT, "SCALAR", 1, false);
        let sets = if self.influences > 4 { 2 } else { 1 };
        let mut attributes = json!({"POSITION": positions});
        let jtype = if self.weights == UNSIGNED_BYTE {
            UNSIGNED_BYTE
        } else {
            UNSIGNED_SHORT
        };
        for s in 0..sets {
            let j: Vec<u32> = joints
                .iter()
                .flat_map(|j| j[s * 4..s * 4 + 4].to_vec())
                .collect();
            let w: Vec<f32> = weights
                .iter()
                .flat_map(|w| w[s * 4..s * 4 + 4].to_vec())
                .collect();
            let ja = g.uints(&j, jtype, "VEC4", 4, false);
            let wa = match self.weights {
                FLOAT => g.floats(&w, "VEC4", 4),
                UNSIGNED_BYTE => {
                    let q: Vec<u32> = w.iter().map(|&x| (x * 255.0).round() as u32).collect();
                    g.uints(&q, UNSIGNED_BYTE, "VEC4", 4, true)
                }
                _ => {
                    let q: Vec<u32> = w.iter().map(|&x| (x * 65535.0).round() as u32).collect();
                    g.uints(&q, UNSIGNED_SHORT, "VEC4", 4, true)
                }
            };
            attributes[format!("JOINTS_{s}")] = json!(ja);
            attributes[format!("WEIGHTS_{s}")] = json!(wa);
        }
        g.push(
            "meshes",
            json!({"name": "worm", "primitives": [{"attributes": attributes, "indices": indices}]}),
        );
        // Root: Z-up to Y-up (−90° about X), a non-joint ancestor of every chain.
        let s = std::f32::consts::FRAC_1_SQRT_2;
        let root = g.push(
            "nodes",
            json!({"name": "Z_UP", "rotation": [-s, 0.0, 0.0, s], "children": []}),
        );
        g.json["scenes"][0]["nodes"] = json!([root]);
        let chains = if self.two_skins { 2 } else { 1 };
        let mut chain_roots = Vec::new();
        for c in 0..chains {
            let mut joints_of = Vec::new();
            for j in 0..b {
                let t = if j == 0 {
                    [c as f32 * 2.0, 0.0, 0.5]
                } else {
                    [0.0, 1.0, 0.0]
                };
                let node = g.push(
                    "nodes",
                    json!({"name": format!("bone{c}_{j}"), "translation": t}),
                );
                if j > 0 {
                    let parent = joints_of[j - 1];
                    push_child(&mut g, parent, node);
                } else {
                    push_child(&mut g, root, node);
                    chain_roots.push(node);
                }
                joints_of.push(node);
            }
            let mut skin = json!({"joints": joints_of});
            if self.inverse_binds {
                // Bind world of bone j: root rotation · translation(c·2, j, 0.5)... computed
                // here in f64 from the same definitions, then inverted (rigid: Rᵀ, −Rᵀt).
                let mut ibm = Vec::new();
                for j in 0..b {
                    // Under the root (x, y, z) ↦ (x, z, −y): the bone origin in world space.
                    let local = [c as f64 * 2.0, j as f64, 0.5];
                    let w = [local[0], local[2], -local[1]];
                    // World rotation R: columns (1,0,0), (0,0,−1), (0,1,0). Rᵀ rows are them.
                    let rt = [[1.0, 0.0, 0.0], [0.0, 0.0, -1.0], [0.0, 1.0, 0.0]];
                    let t: Vec<f64> = (0..3)
                        .map(|r| -(rt[r][0] * w[0] + rt[r][1] * w[1] + rt[r][2] * w[2]))
                        .collect();
                    // Column-major: column c = (rt[0][c], rt[1][c], rt[2][c], 0).
                    for col in 0..3 {
                        let column = rt.map(|row| row[col] as f32);
                        ibm.extend_from_slice(&[column[0], column[1], column[2], 0.0]);
                    }
                    ibm.extend_from_slice(&[t[0] as f32, t[1] as f32, t[2] as f32, 1.0]);
                }
                let acc = g.floats(&ibm, "MAT4", 16);
                g.json["accessors"][acc]
                    .as_object_mut()
                    .unwrap()
                    .remove("min");
                g.json["accessors"][acc]
                    .as_object_mut()
                    .unwrap()
                    .remove("max");
                skin["inverseBindMatrices"] = json!(acc);
            }
            let skin = g.push("skins", skin);
            let mesh_node = g.push(
                "nodes",
                json!({"name": format!("worm{c}"), "mesh": 0, "skin": skin}),
            );
            let scene_nodes = g.json["scenes"][0]["nodes"].as_array_mut().unwrap();
            scene_nodes.push(json!(mesh_node));
            // Animation: every bone bends about Z; bone 3 scales; the non-joint root moves.
            let _ = c;
        }
        self.animate(&mut g, root, chain_roots.len());
        g
    }

    fn animate(&self, g: &mut Gen, root: usize, chains: usize) {
        let times = g.floats(&KEY_TIMES, "SCALAR", 1);
        let interp = match self.interp {
            Interp::Step => "STEP",
            Interp::Linear => "LINEAR",
            Interp::CubicSpline => "CUBICSPLINE",
        };
        let cubic = self.interp == Interp::CubicSpline;
        let mut samplers = Vec::new();
        let mut channels = Vec::new();
        let mut add =
            |g: &mut Gen, node: usize, path: &str, keys: Vec<Vec<f32>>, ty: &str, w: usize| {
                let mut flat = Vec::new();
                for (i, k) in keys.iter().enumerate() {
                    if cubic {
                        // In- and out-tangents: a fixed, non-trivial pattern.
                        flat.extend(
                            k.iter()
                                .enumerate()
                                .map(|(c, _)| 0.3 * ((i + c) % 3) as f32 - 0.3),
                        );
                        flat.extend_from_slice(k);
                        flat.extend(
                            k.iter()
                                .enumerate()
                                .map(|(c, _)| 0.2 * ((i * 2 + c) % 3) as f32 - 0.2),
                        );
                    } else {
                        flat.extend_from_slice(k);
                    }
                }
                let out = g.floats(&flat, ty, w);
                samplers.push(json!({"input": times, "output": out, "interpolation": interp}));
                channels.push(
                    json!({"sampler": samplers.len() - 1, "target": {"node": node, "path": path}}),
                );
            };
        for c in 0..chains {
            for j in 0..self.bones {
                let node = 1 + c * (self.bones + 1) + j;
                let keys = KEY_TIMES
                    .iter()
                    .enumerate()
                    .map(|(i, _)| {
                        let a = 0.25 * (i as f32 - 1.0) * (1.0 + 0.1 * j as f32);
                        vec![0.0, 0.0, (a / 2.0).sin(), (a / 2.0).cos()]
                    })
                    .collect();
                add(g, node, "rotation", keys, "VEC4", 4);
            }
            if self.scale_channel {
                let node = 1 + c * (self.bones + 1) + 3.min(self.bones - 1);
                let keys = (0..KEY_TIMES.len())
                    .map(|i| vec![1.0 + 0.1 * i as f32, 1.0, 1.0 - 0.05 * i as f32])
                    .collect();
                add(g, node, "scale", keys, "VEC3", 3);
            }
        }
        let keys = (0..KEY_TIMES.len())
            .map(|i| vec![0.1 * i as f32, -0.2 * i as f32, 0.05])
            .collect();
        add(g, root, "translation", keys, "VEC3", 3);
        g.push(
            "animations",
            json!({"name": "wiggle", "samplers": samplers, "channels": channels}),
        );
    }
}

/// Give every primitive of mesh `mesh` of `g` a `NORMAL` pointing away from the Y axis and
/// a `TANGENT` around it, `(−z, 0, x)` normalised, with the handedness +1 and −1 in turn,
/// vertex by vertex (for meshes around the Y axis, such as the [`Worm`]'s rings: no
/// vertex on the axis). Returns each primitive's tangents.
pub fn ring_tangents(g: &mut Gen, mesh: usize) -> Vec<Vec<[f32; 4]>> {
    let count = g.json["meshes"][mesh]["primitives"]
        .as_array()
        .map_or(0, Vec::len);
    let mut out = Vec::new();
    for p in 0..count {
        let positions =
            g.read_floats(&g.json["meshes"][mesh]["primitives"][p]["attributes"]["POSITION"]);
        let (mut normals, mut tangents) = (Vec::new(), Vec::new());
        for (v, xyz) in positions.chunks_exact(3).enumerate() {
            let r = (xyz[0] * xyz[0] + xyz[2] * xyz[2]).sqrt();
            assert!(r > 0.0, "vertex {v} is on the Y axis");
            normals.extend_from_slice(&[xyz[0] / r, 0.0, xyz[2] / r]);
            let w = if v % 2 == 0 { 1.0 } else { -1.0 };
            tangents.push([-xyz[2] / r, 0.0, xyz[0] / r, w]);
        }
        let n = g.floats(&normals, "VEC3", 3);
        let flat: Vec<f32> = tangents.iter().flatten().copied().collect();
        let t = g.floats(&flat, "VEC4", 4);
        let attributes = &mut g.json["meshes"][mesh]["primitives"][p]["attributes"];
        attributes["NORMAL"] = json!(n);
        attributes["TANGENT"] = json!(t);
        out.push(tangents);
    }
    out
}

/// One triangle whose three vertices use four bones each (twelve bones), and a clip that
/// slides bone 0 to `slide` model units along X.
pub fn twelve_bone_triangle(slide: f32) -> Gen {
    let mut g = Gen::new();
    let pos = g.floats(&[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0], "VEC3", 3);
    let joints = g.uints(
        &(0..12).collect::<Vec<u32>>(),
        UNSIGNED_SHORT,
        "VEC4",
        4,
        false,
    );
    let weights = g.floats(&[0.25; 12], "VEC4", 4);
    g.push(
        "meshes",
        json!({"primitives": [{"attributes": {
            "POSITION": pos, "JOINTS_0": joints, "WEIGHTS_0": weights}}]}),
    );
    let bones: Vec<usize> = (0..12)
        .map(|i| g.push("nodes", json!({"name": format!("b{i}")})))
        .collect();
    let skin = g.push("skins", json!({"joints": bones}));
    let node = g.push("nodes", json!({"mesh": 0, "skin": skin}));
    let mut scene = bones.clone();
    scene.push(node);
    g.json["scenes"][0]["nodes"] = json!(scene);
    let times = g.floats(&[0.0, 1.0], "SCALAR", 1);
    let values = g.floats(&[0.0, 0.0, 0.0, slide, 0.0, 0.0], "VEC3", 3);
    g.push(
        "animations",
        json!({"name": "slide",
            "samplers": [{"input": times, "output": values, "interpolation": "LINEAR"}],
            "channels": [{"sampler": 0, "target": {"node": bones[0], "path": "translation"}}]}),
    );
    g
}

/// A small model for hostile inputs: one triangle (positions within `scale` of the
/// origin) skinned to two joints, node 0 (a root) and node 1 (its child), by node 2, and an
/// animation whose one `LINEAR` channel sets `path` of joint 0 to `values` at `times`.
pub fn keyed_triangle(scale: f32, times: &[f32], path: &str, values: &[f32]) -> Gen {
    let mut g = Gen::new();
    let p = [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0].map(|v| v * scale);
    let pos = g.floats(&p, "VEC3", 3);
    let joints = g.uints(
        &[0, 1, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0],
        UNSIGNED_SHORT,
        "VEC4",
        4,
        false,
    );
    let weights = g.floats(
        &[0.5, 0.5, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0],
        "VEC4",
        4,
    );
    g.push(
        "meshes",
        json!({"primitives": [{"attributes": {
            "POSITION": pos, "JOINTS_0": joints, "WEIGHTS_0": weights}}]}),
    );
    let root = g.push("nodes", json!({"name": "root", "children": [1]}));
    g.push(
        "nodes",
        json!({"name": "tip", "translation": [0.0, 0.5, 0.0]}),
    );
    let skin = g.push("skins", json!({"joints": [0, 1]}));
    let node = g.push("nodes", json!({"name": "body", "mesh": 0, "skin": skin}));
    g.json["scenes"][0]["nodes"] = json!([root, node]);
    let input = g.floats(times, "SCALAR", 1);
    let (ty, width) = if path == "rotation" {
        ("VEC4", 4)
    } else {
        ("VEC3", 3)
    };
    let output = g.floats(values, ty, width);
    g.push(
        "animations",
        json!({"name": "keyed",
            "samplers": [{"input": input, "output": output, "interpolation": "LINEAR"}],
            "channels": [{"sampler": 0, "target": {"node": root, "path": path}}]}),
    );
    g
}

fn push_child(g: &mut Gen, parent: usize, child: usize) {
    let node = &mut g.json["nodes"][parent];
    match node["children"].as_array_mut() {
        Some(c) => c.push(json!(child)),
        None => node["children"] = json!([child]),
    }
}

/// [`morph_triangle`]'s target 0 moves every vertex (dense) by these; target 1 moves only
/// vertex [`SPARSE_VERTEX`] (sparse), by [`SPARSE_DELTA`].
pub const DELTA0: [f32; 9] = [0.0, 0.0, 0.5, 0.25, 0.0, 0.5, -0.125, 0.0, 0.5];
/// The one vertex [`morph_triangle`]'s sparse target moves.
pub const SPARSE_VERTEX: u8 = 2;
/// How far [`morph_triangle`]'s sparse target moves [`SPARSE_VERTEX`].
pub const SPARSE_DELTA: [f32; 3] = [0.75, -0.5, 0.0];
/// [`morph_triangle`]'s target 0 `NORMAL` deltas.
pub const NORMAL0: [f32; 9] = [0.0, 0.5, 0.0, 0.0, 0.5, 0.0, 0.0, 0.5, 0.0];

/// The skinned triangle of [`keyed_triangle`] (node 2, its root joint sliding by (0.5, 0.25,
/// 0) over the clip's second) with normals and two morph targets,
/// the second stored sparse, mesh weights `[0.25, 0.5]`, target names, and in its animation
/// a second channel (1) animating the weights with two keys in `interp`.
pub fn morph_triangle(interp: &str) -> Gen {
    let slide = [0.0, 0.0, 0.0, 0.5, 0.25, 0.0];
    let mut g = keyed_triangle(1.0, &[0.0, 1.0], "translation", &slide);
    let nrm = g.floats(&[0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0], "VEC3", 3);
    let d0 = g.floats(&DELTA0, "VEC3", 3);
    let n0 = g.floats(&NORMAL0, "VEC3", 3);
    let idx = g.view(&[SPARSE_VERTEX, 0, 0, 0]);
    let vals: Vec<u8> = SPARSE_DELTA.iter().flat_map(|v| v.to_le_bytes()).collect();
    let vals = g.view(&vals);
    let d1 = g.push(
        "accessors",
        json!({"componentType": FLOAT, "type": "VEC3", "count": 3,
            "min": [0.0, -0.5, 0.0], "max": [0.75, 0.0, 0.0],
            "sparse": {"count": 1,
                "indices": {"bufferView": idx, "componentType": UNSIGNED_BYTE},
                "values": {"bufferView": vals}}}),
    );
    let prim = &mut g.json["meshes"][0]["primitives"][0];
    prim["attributes"]["NORMAL"] = json!(nrm);
    prim["targets"] = json!([{"POSITION": d0, "NORMAL": n0}, {"POSITION": d1}]);
    let mesh = &mut g.json["meshes"][0];
    mesh["name"] = json!("face");
    mesh["weights"] = json!([0.25, 0.5]);
    mesh["extras"] = json!({"targetNames": ["smile", "blink"]});
    let input = g.json["animations"][0]["samplers"][0]["input"].clone();
    let values: Vec<f32> = match interp {
        // Per key: in-tangents (2), values (2), out-tangents (2).
        "CUBICSPLINE" => vec![0.0, 0.0, 0.0, 1.0, 2.0, 0.0, -1.0, 0.0, 1.0, 0.5, 0.0, 0.0],
        _ => vec![0.0, 1.0, 1.0, 0.5],
    };
    let output = g.floats(&values, "SCALAR", 1);
    let anim = &mut g.json["animations"][0];
    anim["samplers"]
        .as_array_mut()
        .unwrap()
        .push(json!({"input": input, "output": output, "interpolation": interp}));
    anim["channels"]
        .as_array_mut()
        .unwrap()
        .push(json!({"sampler": 1, "target": {"node": 2, "path": "weights"}}));
    g
}

/// A character cut into many small skins over one skeleton: a non-joint root over a
/// binary tree of `joints` joints (rest pose translations only, so each inverse bind is
/// the joint's rest position negated), and `meshes` meshes, each on its own node under the
/// root with its own skin of `per_skin` consecutive joints (mesh `m`'s from joint
/// `m · joints / meshes`, wrapping around), drawn as a
/// fan of triangles between neighbouring joints. One clip ("bend", 1 s, `LINEAR`) turns
/// every third joint about Z. Every skin binds a joint with the same matrix, so the
/// model has `joints` distinct joints however many skins name them.
pub fn many_skins(meshes: usize, per_skin: usize, joints: usize) -> Gen {
    let mut g = Gen::new();
    let root = g.push("nodes", json!({"name": "root"}));
    let mut children: Vec<(usize, usize)> = Vec::new();
    let mut world = vec![[0.0f32; 3]; joints];
    let mut nodes = Vec::with_capacity(joints);
    for j in 0..joints {
        let t = [0.1 * (j % 3) as f32 - 0.1, 0.2, 0.05 * (j % 2) as f32];
        let parent = if j == 0 { root } else { nodes[(j - 1) / 2] };
        let base = if j == 0 { [0.0; 3] } else { world[(j - 1) / 2] };
        world[j] = [base[0] + t[0], base[1] + t[1], base[2] + t[2]];
        let n = g.push(
            "nodes",
            json!({"name": format!("joint{j}"), "translation": t}),
        );
        children.push((parent, n));
        nodes.push(n);
    }
    for m in 0..meshes {
        let first = m * joints / meshes;
        let skin_joints: Vec<usize> = (0..per_skin).map(|k| (first + k) % joints).collect();
        let (mut pos, mut jnt, mut wgt) = (Vec::new(), Vec::new(), Vec::new());
        for k in 0..per_skin - 1 {
            let (a, b) = (world[skin_joints[k]], world[skin_joints[k + 1]]);
            let lift = 0.002 * m as f32;
            let c = [a[0] + 0.12, a[1] + 0.06 + lift, a[2] + 0.08];
            pos.extend([a, b, c].iter().flatten());
            let (k0, k1) = (k as u32, k as u32 + 1);
            jnt.extend([k0, 0, 0, 0, k1, 0, 0, 0, k0, k1, 0, 0]);
            wgt.extend([1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.5, 0.5, 0.0, 0.0]);
        }
        let p = g.floats(&pos, "VEC3", 3);
        let j = g.uints(&jnt, UNSIGNED_BYTE, "VEC4", 4, false);
        let w = g.floats(&wgt, "VEC4", 4);
        let mesh = g.push(
            "meshes",
            json!({"primitives": [{"attributes": {"POSITION": p, "JOINTS_0": j, "WEIGHTS_0": w}}]}),
        );
        let ibm: Vec<f32> = skin_joints
            .iter()
            .flat_map(|&sj| {
                let [x, y, z] = world[sj];
                [
                    1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, -x, -y, -z, 1.0,
                ]
            })
            .collect();
        let ibm = g.floats(&ibm, "MAT4", 16);
        let ids: Vec<usize> = skin_joints.iter().map(|&sj| nodes[sj]).collect();
        let skin = g.push("skins", json!({"joints": ids, "inverseBindMatrices": ibm}));
        let node = g.push(
            "nodes",
            json!({"name": format!("part{m}"), "mesh": mesh, "skin": skin}),
        );
        children.push((root, node));
    }
    for (parent, child) in children {
        match g.json["nodes"][parent]["children"].as_array_mut() {
            Some(list) => list.push(json!(child)),
            None => g.json["nodes"][parent]["children"] = json!([child]),
        }
    }
    g.json["scenes"][0]["nodes"] = json!([root]);
    let bent: Vec<usize> = (0..joints).step_by(3).collect();
    let times = g.floats(&[0.0, 1.0], "SCALAR", 1);
    let angle = 20f32.to_radians() / 2.0;
    let turn = g.floats(
        &[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, angle.sin(), angle.cos()],
        "VEC4",
        4,
    );
    let samplers = vec![json!({"input": times, "output": turn, "interpolation": "LINEAR"}); 1];
    let channels: Vec<Value> = bent
        .iter()
        .map(|&j| json!({"sampler": 0, "target": {"node": nodes[j], "path": "rotation"}}))
        .collect();
    g.push(
        "animations",
        json!({"name": "bend", "samplers": samplers, "channels": channels}),
    );
    g
}

/// Adds a rigid mesh (a small tetrahedron, no skin) on a node under `parent`: it follows
/// `parent`'s world matrix, as a prop held by an animated joint does. Its node's index.
pub fn rigid_prop(g: &mut Gen, parent: usize) -> usize {
    let pos = g.floats(
        &[
            0.0, 0.0, 0.0, 0.15, 0.0, 0.0, 0.0, 0.15, 0.0, 0.0, 0.0, 0.15,
        ],
        "VEC3",
        3,
    );
    let idx = g.uints(
        &[0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3],
        UNSIGNED_SHORT,
        "SCALAR",
        1,
        false,
    );
    let mesh = g.push(
        "meshes",
        json!({"primitives": [{"attributes": {"POSITION": pos}, "indices": idx}]}),
    );
    let node = g.push(
        "nodes",
        json!({"name": "prop", "mesh": mesh, "translation": [0.05, 0.1, 0.0]}),
    );
    match g.json["nodes"][parent]["children"].as_array_mut() {
        Some(list) => list.push(json!(node)),
        None => g.json["nodes"][parent]["children"] = json!([node]),
    }
    node
}
/// The candy wrapper: a closed tube along X from 0 to 2 (radius ½, `rings` rings of 16
/// vertices with outward normals), skinned to two joints on its axis — `root` at the
/// origin and `twist` at x = 1 — with weights going linearly from `root` at x = 0 to
/// `twist` at x = 2, and a one-second LINEAR clip turning `twist` about the axis from 0°
/// to 180° (keys every 45°). Linear blend skinning flattens the middle ring onto the axis
/// at 180°; dual quaternion skinning keeps its radius.
pub fn candy_wrapper(rings: usize) -> Gen {
    const AROUND: usize = 16;
    let mut g = Gen::new();
    let (mut pos, mut nrm, mut joints, mut weights) = (vec![], vec![], vec![], vec![]);
    for r in 0..rings {
        let x = 2.0 * r as f32 / (rings - 1) as f32;
        for k in 0..AROUND {
            let (s, c) = (k as f32 * std::f32::consts::TAU / AROUND as f32).sin_cos();
            pos.extend_from_slice(&[x, 0.5 * c, 0.5 * s]);
            nrm.extend_from_slice(&[0.0, c, s]);
            joints.extend_from_slice(&[0, 1, 0, 0]);
            weights.extend_from_slice(&[1.0 - x / 2.0, x / 2.0, 0.0, 0.0]);
        }
    }
    let mut idx = Vec::new();
    let around = AROUND as u32;
    for r in 0..rings as u32 - 1 {
        for k in 0..around {
            let (a, b) = (r * around + k, r * around + (k + 1) % around);
            idx.extend_from_slice(&[a, b, a + around, b, b + around, a + around]);
        }
    }
    let attributes = json!({
        "POSITION": g.floats(&pos, "VEC3", 3),
        "NORMAL": g.floats(&nrm, "VEC3", 3),
        "JOINTS_0": g.uints(&joints, UNSIGNED_SHORT, "VEC4", 4, false),
        "WEIGHTS_0": g.floats(&weights, "VEC4", 4),
    });
    let indices = g.uints(&idx, UNSIGNED_SHORT, "SCALAR", 1, false);
    g.push(
        "meshes",
        json!({"name": "candy", "primitives": [{"attributes": attributes, "indices": indices}]}),
    );
    let [_, twist] = g.two_joint_chain(["root", "twist", "candy"], 0);
    let times: Vec<f32> = (0..5).map(|k| k as f32 / 4.0).collect();
    let keys: Vec<f32> = (0..5)
        .flat_map(|k| {
            let half = k as f32 * std::f32::consts::PI / 8.0;
            [half.sin(), 0.0, 0.0, half.cos()]
        })
        .collect();
    let input = g.floats(&times, "SCALAR", 1);
    let output = g.floats(&keys, "VEC4", 4);
    g.push(
        "animations",
        json!({
            "name": "twist",
            "samplers": [{"input": input, "output": output, "interpolation": "LINEAR"}],
            "channels": [{"sampler": 0, "target": {"node": twist, "path": "rotation"}}],
        }),
    );
    g
}

/// [`morph_worm`]'s default weights: non-zero, so the rest pose is morphed.
pub const WORM_MORPH_DEFAULTS: [f32; 3] = [0.5, 0.0, 0.25];

/// The default [`Worm`] (skinned, ten bones, split into several parts by small budgets)
/// with radial normals and three morph targets on its mesh: `bulge` (rings 8 to 12 pushed
/// out, normals tilted), `tip` (a sparse accessor moving only the top ring) and `lean`
/// (every vertex along X by its height, dense); mesh weights [`WORM_MORPH_DEFAULTS`], and
/// in its clip a channel animating the worm node's weights at [`KEY_TIMES`] in `interp`.
pub fn morph_worm(interp: Interp) -> Gen {
    let w = Worm {
        interp,
        ..Worm::default()
    };
    let mut g = w.build();
    let levels = 2 * w.bones + 1;
    let n = levels * 3;
    let ring = |v: usize| (v / 3, (v % 3) as f32 * 2.0943951);
    let normals: Vec<f32> = (0..n)
        .flat_map(|v| {
            let a = ring(v).1;
            [a.cos(), 0.0, a.sin()]
        })
        .collect();
    let (mut bulge, mut tilt, mut lean) = (vec![0.0f32; 3 * n], vec![0.0f32; 3 * n], vec![]);
    for v in 0..n {
        let (l, a) = ring(v);
        if (8..=12).contains(&l) {
            bulge[3 * v] = 0.1 * a.cos();
            bulge[3 * v + 2] = 0.1 * a.sin();
            tilt[3 * v + 1] = 0.2;
        }
        lean.extend_from_slice(&[0.02 * l as f32, 0.0, 0.0]);
    }
    let nrm = g.floats(&normals, "VEC3", 3);
    let bulge = g.floats(&bulge, "VEC3", 3);
    let tilt = g.floats(&tilt, "VEC3", 3);
    let lean = g.floats(&lean, "VEC3", 3);
    let top: Vec<u8> = (n as u16 - 3..n as u16)
        .flat_map(|i| i.to_le_bytes())
        .collect();
    let idx = g.view(&top);
    let vals: Vec<u8> = [0.0f32, 0.3, 0.0]
        .repeat(3)
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    let vals = g.view(&vals);
    let tip = g.push(
        "accessors",
        json!({"componentType": FLOAT, "type": "VEC3", "count": n,
            "min": [0.0, 0.0, 0.0], "max": [0.0, 0.3, 0.0],
            "sparse": {"count": 3,
                "indices": {"bufferView": idx, "componentType": UNSIGNED_SHORT},
                "values": {"bufferView": vals}}}),
    );
    let prim = &mut g.json["meshes"][0]["primitives"][0];
    prim["attributes"]["NORMAL"] = json!(nrm);
    prim["targets"] =
        json!([{"POSITION": bulge, "NORMAL": tilt}, {"POSITION": tip}, {"POSITION": lean}]);
    let mesh = &mut g.json["meshes"][0];
    mesh["weights"] = json!(WORM_MORPH_DEFAULTS);
    mesh["extras"] = json!({"targetNames": ["bulge", "tip", "lean"]});
    let keys: [[f32; 3]; 4] = [
        [0.0, 1.0, 0.5],
        [1.0, 0.25, -0.5],
        [0.5, 0.0, 1.0],
        [0.2, 0.8, 0.0],
    ];
    let mut values = Vec::new();
    for (i, k) in keys.iter().enumerate() {
        if interp == Interp::CubicSpline {
            values.extend(k.iter().map(|&x| 0.5 * x - 0.1 * i as f32));
            values.extend_from_slice(k);
            values.extend(k.iter().map(|&x| 0.2 - 0.3 * x));
        } else {
            values.extend_from_slice(k);
        }
    }
    let input = g.json["animations"][0]["samplers"][0]["input"].clone();
    let output = g.floats(&values, "SCALAR", 1);
    let name = match interp {
        Interp::Step => "STEP",
        Interp::Linear => "LINEAR",
        Interp::CubicSpline => "CUBICSPLINE",
    };
    let node = w.bones + 1;
    let anim = &mut g.json["animations"][0];
    anim["samplers"]
        .as_array_mut()
        .unwrap()
        .push(json!({"input": input, "output": output, "interpolation": name}));
    let sampler = anim["samplers"].as_array().unwrap().len() - 1;
    anim["channels"]
        .as_array_mut()
        .unwrap()
        .push(json!({"sampler": sampler, "target": {"node": node, "path": "weights"}}));
    g
}

/// Squash and stretch: the [`Worm`] (no other scale channel) whose last bone's scale its clip
/// animates up to 4×, at every key time of [`KEY_TIMES`]: uniformly (1, 2.5, 4, 1.5) when
/// `uniform`, else per axis (stretched 4× across the chain while squashed to ½ along it,
/// then 4× one way across and ¼ the other, never longer along it: the worm stays as long as
/// its rest pose, which pictures are framed by) — joint matrices up to 4× a rigid
/// transform, beyond the 2/√3 an unscaled fixed-point palette row holds.
pub fn squash_stretch_worm(uniform: bool) -> Gen {
    let worm = Worm {
        scale_channel: false,
        ..Worm::default()
    };
    let mut g = worm.build();
    let keys: [[f32; 3]; 4] = if uniform {
        [1.0, 2.5, 4.0, 1.5].map(|s| [s; 3])
    } else {
        [[1.0; 3], [4.0, 0.5, 4.0], [4.0, 1.0, 0.25], [2.0, 1.0, 1.0]]
    };
    let times = g.floats(&KEY_TIMES, "SCALAR", 1);
    let values = g.floats(keys.as_flattened(), "VEC3", 3);
    let leaf = worm.bones; // nodes: the root, then the chain's bones
    let anim = &mut g.json["animations"][0];
    let sampler = anim["samplers"].as_array().map_or(0, Vec::len);
    anim["samplers"]
        .as_array_mut()
        .expect("the worm's clip has samplers")
        .push(json!({"input": times, "output": values, "interpolation": "LINEAR"}));
    anim["channels"]
        .as_array_mut()
        .expect("the worm's clip has channels")
        .push(json!({"sampler": sampler, "target": {"node": leaf, "path": "scale"}}));
    g
}
