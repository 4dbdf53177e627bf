//! The character as a glTF 2.0 document: one buffer of accessors, the skeleton as nodes,
//! the skin, and the walk as linear rotation and translation channels.

use std::path::Path;

use base64::Engine as _;
use serde_json::{json, Value};

use super::{hips_translation, key_phase, rotation, Character, HIPS, KEYS, STRIDE};

impl Character {
    /// The glTF document as `.glb` bytes.
    pub fn glb(&self) -> Vec<u8> {
        let (doc, bin) = self.document();
        container(&doc, bin)
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

/// A `.glb` container of the JSON document `doc` and the binary chunk `bin`.
pub fn container(doc: &Value, bin: Vec<u8>) -> Vec<u8> {
    let json = serde_json::to_vec(doc).expect("a JSON value serialises");
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
