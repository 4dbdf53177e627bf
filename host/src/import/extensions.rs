//! glTF extensions: which ones a file may require, and why the others are refused.
//!
//! `KHR_mesh_quantization` is read: it only widens the component types that mesh
//! attributes and morph-target deltas may use (normalised or plain 8/16-bit integers, as
//! `gltfpack` writes them, dequantised by the node's transform), and the accessor reader
//! handles every component type anyway.
//!
//! The geometry compressions `KHR_draco_mesh_compression` and `EXT_meshopt_compression`
//! (and its Khronos successor `KHR_meshopt_compression`) are refused with an
//! [`ImportError::Extension`] that says how to decompress the file: no Rust decoder for
//! them is established enough to carry in the tool (the Draco crates are either bindings
//! that build Google's C++ library with CMake, or a few months old with one maintainer),
//! and both are transport encodings that standard tools undo losslessly into the plain
//! glTF this tool reads. Any other required extension is refused by name.
//!
//! ```
//! use skin_host::import;
//! let json = br#"{"asset": {"version": "2.0"},
//!                 "extensionsUsed": ["KHR_draco_mesh_compression"],
//!                 "extensionsRequired": ["KHR_draco_mesh_compression"]}"#;
//! let err = import::from_slice(json, None).unwrap_err().to_string();
//! assert!(err.contains("KHR_draco_mesh_compression"), "{err}");
//! ```

use gltf::json::validation::Validate;
use gltf::json::Root;

use crate::error::ImportError;

/// The extensions a file may require: those this importer reads.
pub(crate) const READ: &[&str] = &["KHR_mesh_quantization"];

/// Draco mesh compression.
const DRACO: &str = "KHR_draco_mesh_compression";

/// How to turn a Draco- or meshopt-compressed file into plain glTF.
fn advice(extension: &str) -> Option<String> {
    let how = match extension {
        DRACO => {
            "its meshes are Draco-compressed; decompress them first, for example by importing \
             the file into Blender and exporting glTF with compression off, or with glTF \
             Transform's API (read with the KHRDracoMeshCompression extension and a draco3dgltf \
             decoder registered, dispose the extension, write)"
        }
        "EXT_meshopt_compression" | "KHR_meshopt_compression" => {
            "its buffers are meshoptimizer-compressed; decompress them first, for example \
             with `gltfpack -i in.glb -o out.glb` (it decodes meshopt input and compresses \
             its output only when given -c) or with glTF Transform's API (read with the \
             meshopt decoder registered, dispose the extension, write)"
        }
        _ => return None,
    };
    Some(how.to_owned())
}

/// The first extension in `extensionsRequired` this tool does not read, as an error.
pub(super) fn required(json: &Root) -> Result<(), ImportError> {
    match json
        .extensions_required
        .iter()
        .find(|e| !READ.contains(&e.as_str()))
    {
        Some(e) => Err(ImportError::Extension {
            extension: e.clone(),
            advice: advice(e).unwrap_or_else(|| {
                format!(
                    "it is listed in extensionsRequired; this tool reads only {}",
                    READ.join(", ")
                )
            }),
        }),
        None => Ok(()),
    }
}

/// A compression extension the file uses (without requiring it), as the error to give
/// when the file does not validate: its uncompressed fallback is then missing.
pub(super) fn used_compression(json: &Root) -> Option<ImportError> {
    json.extensions_used.iter().find_map(|e| {
        advice(e).map(|advice| ImportError::Extension {
            extension: e.clone(),
            advice: format!("{advice} (the file has no uncompressed copy of that data)"),
        })
    })
}

/// The `gltf` crate's schema checks, less its refusal of the required extensions this
/// importer reads (the crate knows none of [`READ`]; [`required`] has refused the rest).
pub(super) fn validate(json: &Root) -> Vec<(gltf::json::Path, gltf::json::validation::Error)> {
    let mut errors = Vec::new();
    json.validate(json, gltf::json::Path::new, &mut |path, error| {
        let path = path();
        if !path.as_str().starts_with("extensionsRequired[") {
            errors.push((path, error));
        }
    });
    errors
}
