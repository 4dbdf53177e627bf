//! A document's buffers: the GLB binary chunk, `data:` URIs and files beside the model.
//!
//! A buffer's `uri` is a path relative to the model. Like glTF viewers, the importer
//! refuses one that leaves the model's folder (an absolute path, a `..` component, or a
//! scheme such as `file:`) unless asked ([`super::Options::allow_outside_uris`]): a model
//! from elsewhere must not make the tool read `/dev/zero` or a private file. At most the
//! declared `byteLength` is read from a file, and no buffer may declare more than
//! [`MAX_BUFFER_BYTES`].

use std::io::Read as _;
use std::path::{Component, Path};

use base64::Engine as _;

use super::Options;
use crate::error::ImportError;

/// The most bytes one buffer (or the model file itself) may have: 256 MiB, far beyond
/// any model a microcontroller draws (a million vertices take about 50 MiB) and small
/// enough that reading it cannot exhaust a build machine's memory.
pub const MAX_BUFFER_BYTES: u64 = 256 << 20;

/// The first `limit` bytes of the file at `path` (all of it when shorter): a device file
/// or a file that grows cannot make the read go on.
pub(super) fn read_file(path: &Path, limit: u64) -> std::io::Result<Vec<u8>> {
    let file = std::fs::File::open(path)?;
    let mut bytes = Vec::new();
    file.take(limit).read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// Load every buffer of `gltf`, external files relative to `base` (`None`: external
/// buffers are an error).
pub(super) fn load(
    gltf: &gltf::Gltf,
    base: Option<&Path>,
    options: &Options,
) -> Result<Vec<Vec<u8>>, ImportError> {
    let mut out = Vec::new();
    for buffer in gltf.buffers() {
        let index = buffer.index();
        let err = |reason: String| ImportError::Buffer { index, reason };
        let declared = buffer.length() as u64;
        if declared > MAX_BUFFER_BYTES {
            return Err(err(format!(
                "byteLength {declared} exceeds this tool's limit of {MAX_BUFFER_BYTES} bytes"
            )));
        }
        let data = match buffer.source() {
            gltf::buffer::Source::Bin => gltf
                .blob
                .clone()
                .ok_or_else(|| err("refers to the GLB binary chunk, which is missing".into()))?,
            gltf::buffer::Source::Uri(uri) => {
                if let Some(rest) = uri.strip_prefix("data:") {
                    let (meta, payload) = rest
                        .split_once(',')
                        .ok_or_else(|| err("malformed data: URI (no comma)".into()))?;
                    if !meta.ends_with(";base64") {
                        return Err(err("data: URI is not base64-encoded".into()));
                    }
                    base64::engine::general_purpose::STANDARD
                        .decode(payload)
                        .map_err(|e| err(format!("bad base64 in data: URI: {e}")))?
                } else {
                    let base = base.ok_or_else(|| {
                        err(format!(
                            "external file {uri:?} cannot be loaded from memory"
                        ))
                    })?;
                    let relative = percent_decode(uri);
                    if !options.allow_outside_uris {
                        inside(&relative).map_err(|why| {
                            err(format!(
                                "uri {uri:?} {why}; pass --allow-outside-uris to read it anyway"
                            ))
                        })?;
                    }
                    let file = base.join(relative);
                    read_file(&file, declared)
                        .map_err(|e| err(format!("cannot read {}: {e}", file.display())))?
                }
            }
        };
        if (data.len() as u64) < declared {
            return Err(err(format!(
                "holds {} bytes, but its byteLength is {declared}",
                data.len(),
            )));
        }
        out.push(data);
    }
    Ok(out)
}

/// `Ok` when `uri` (percent-decoded) is a relative path that stays in the model's folder.
fn inside(uri: &str) -> Result<(), &'static str> {
    if uri.contains(':') || uri.starts_with('\\') {
        return Err("is not a path relative to the model (it names a scheme or a drive)");
    }
    for c in Path::new(uri).components() {
        match c {
            Component::Normal(_) | Component::CurDir => {}
            Component::ParentDir => return Err("leaves the model's folder ('..')"),
            Component::RootDir | Component::Prefix(_) => {
                return Err("is an absolute path, outside the model's folder")
            }
        }
    }
    Ok(())
}

/// `%20` and friends in relative URIs.
fn percent_decode(uri: &str) -> String {
    let b = uri.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = |c: u8| (c as char).to_digit(16);
        if b[i] == b'%' && i + 2 < b.len() {
            if let (Some(h), Some(l)) = (hex(b[i + 1]), hex(b[i + 2])) {
                out.push((h * 16 + l) as u8);
                i += 3;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}
