//! The model written back with envelope weights: the file's own JSON and buffers, every
//! weighed primitive's `JOINTS_0`/`WEIGHTS_0` pointing at new accessors (`JOINTS_1`… and
//! `WEIGHTS_1`… removed), everything else as it was.
//!
//! All buffers are merged into one, the new data after them: the GLB binary chunk for a
//! `.glb` output, else a `data:` URI in the `.gltf` JSON, so the output does not depend on
//! buffer files beside the input. Each old buffer starts at a multiple of 4 bytes, so every
//! accessor keeps its alignment. Images named by a URI keep it (relative to the output).
//! Joints are stored as unsigned bytes when the skin has at most 256 joints, else unsigned
//! shorts; weights as floats summing to one, unused slots joint 0 with weight 0 (as the
//! glTF specification asks).

use std::path::Path;

use base64::Engine as _;
use serde_json::{json, Value};

use super::weigh::Weighted;
use crate::import::Source;
use crate::output::{write_bytes, OutputError};

const FLOAT: u32 = 5126;
const UNSIGNED_BYTE: u32 = 5121;
const UNSIGNED_SHORT: u32 = 5123;

/// `source` with the influences of `weighted`: the JSON document and its one buffer.
pub fn document(source: &Source, weighted: &Weighted) -> (Value, Vec<u8>) {
    let mut doc = source.json.clone();
    let mut bin = Vec::new();
    let mut starts = Vec::new();
    for b in &source.buffers {
        bin.resize(bin.len().next_multiple_of(4), 0);
        starts.push(bin.len());
        bin.extend_from_slice(b);
    }
    if let Some(views) = doc["bufferViews"].as_array_mut() {
        for v in views {
            let buffer = v["buffer"].as_u64().unwrap_or(0) as usize;
            let offset = v["byteOffset"].as_u64().unwrap_or(0) as usize;
            v["buffer"] = json!(0);
            v["byteOffset"] = json!(offset + starts.get(buffer).copied().unwrap_or(0));
        }
    }
    let mut views: Vec<Value> = doc["bufferViews"].as_array().cloned().unwrap_or_default();
    let mut accessors: Vec<Value> = doc["accessors"].as_array().cloned().unwrap_or_default();
    let mut add = |bytes: Vec<u8>, count: usize, component: u32, bin: &mut Vec<u8>| {
        bin.resize(bin.len().next_multiple_of(4), 0);
        views.push(json!({"buffer": 0, "byteOffset": bin.len(), "byteLength": bytes.len()}));
        bin.extend_from_slice(&bytes);
        accessors.push(json!({"bufferView": views.len() - 1, "componentType": component, "count": count, "type": "VEC4"}));
        accessors.len() - 1
    };
    for &(m, p) in &weighted.primitives {
        let prim = &weighted.rig.meshes[m].primitives[p];
        let influences = prim.influences.as_deref().unwrap_or_default();
        let wide = influences.iter().flat_map(|i| i.joints).any(|j| j > 255);
        let joints: Vec<u8> = influences
            .iter()
            .flat_map(|i| {
                let js = (0..4).map(move |k| if i.weights[k] > 0.0 { i.joints[k] } else { 0 });
                js.flat_map(move |j| {
                    if wide {
                        j.to_le_bytes().to_vec()
                    } else {
                        vec![j as u8]
                    }
                })
            })
            .collect();
        let weights: Vec<u8> = influences
            .iter()
            .flat_map(|i| i.weights)
            .flat_map(f32::to_le_bytes)
            .collect();
        let n = influences.len();
        let j = add(
            joints,
            n,
            if wide { UNSIGNED_SHORT } else { UNSIGNED_BYTE },
            &mut bin,
        );
        let w = add(weights, n, FLOAT, &mut bin);
        let attributes = &mut doc["meshes"][m]["primitives"][p]["attributes"];
        if let Some(a) = attributes.as_object_mut() {
            a.retain(|k, _| !(k.starts_with("JOINTS_") || k.starts_with("WEIGHTS_")));
            a.insert("JOINTS_0".into(), json!(j));
            a.insert("WEIGHTS_0".into(), json!(w));
        }
    }
    doc["bufferViews"] = json!(views);
    doc["accessors"] = json!(accessors);
    doc["buffers"] = json!([{"byteLength": bin.len()}]);
    (doc, bin)
}

/// Write `source` with the influences of `weighted` to `path`: `.glb` when its extension
/// says so, else `.gltf` with the buffer embedded.
pub fn write(source: &Source, weighted: &Weighted, path: &Path) -> Result<(), OutputError> {
    let (mut doc, bin) = document(source, weighted);
    let glb = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("glb"));
    let bytes = if glb {
        crate::character::container(&doc, bin)
    } else {
        doc["buffers"][0]["uri"] = json!(format!(
            "data:application/octet-stream;base64,{}",
            base64::engine::general_purpose::STANDARD.encode(&bin)
        ));
        serde_json::to_vec_pretty(&doc).expect("a JSON value serialises")
    };
    write_bytes(path, &bytes)
}
