//! A model as its file holds it, for tools that rewrite it (`skin weights`): the JSON
//! document and every buffer's bytes, read with the importer's checks and limits.

use std::path::Path;

use super::{buffers, document, Options, MAX_BUFFER_BYTES};
use crate::error::ImportError;

/// The JSON document and the bytes of each buffer (`byteLength` of them), in file order.
#[derive(Clone, Debug, PartialEq)]
pub struct Source {
    /// The document, as parsed JSON.
    pub json: serde_json::Value,
    /// Each buffer's bytes, exactly its `byteLength`.
    pub buffers: Vec<Vec<u8>>,
}

/// Read the model at `path` as [`Source`]: the same container, JSON and buffer checks as
/// [`super::from_path_with`].
pub fn source_from_path(path: &Path, options: &Options) -> Result<Source, ImportError> {
    let bytes =
        buffers::read_file(path, MAX_BUFFER_BYTES + 1).map_err(|source| ImportError::Io {
            path: path.to_path_buf(),
            source,
        })?;
    if bytes.len() as u64 > MAX_BUFFER_BYTES {
        return Err(ImportError::TooLarge {
            what: format!("the file {}", path.display()),
            limit: MAX_BUFFER_BYTES,
        });
    }
    let gltf = document::parse(&bytes)?;
    let mut data = buffers::load(&gltf, path.parent(), options)?;
    for (bytes, buffer) in data.iter_mut().zip(gltf.buffers()) {
        bytes.truncate(buffer.length());
    }
    let text = if bytes.starts_with(b"glTF") {
        gltf::Glb::from_slice(&bytes)
            .map_err(|e| ImportError::Glb(format!("{e:?}")))?
            .json
            .into_owned()
    } else {
        bytes
            .strip_prefix(b"\xEF\xBB\xBF")
            .unwrap_or(&bytes)
            .to_vec()
    };
    let json = serde_json::from_slice(&text).map_err(|e| ImportError::Json(e.to_string()))?;
    Ok(Source {
        json,
        buffers: data,
    })
}
