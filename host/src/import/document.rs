//! The glTF document: the GLB container or the JSON text, parsed by the `gltf` crate, with
//! the checks it leaves out done first — the container's own length, the asset version,
//! enums it would unwrap, and every index it would follow with an `unwrap` (an animation
//! channel's target node is not validated by `gltf` 1.4 at all).

use gltf::json::validation::Checked;
use gltf::json::Root;

use super::extensions;
use crate::error::ImportError;

/// The GLB header: magic, version, length.
const GLB_HEADER: usize = 12;

/// Parse `bytes` (a `.glb` container or `.gltf` JSON, with or without a UTF-8 byte order
/// mark) into a validated document.
pub(super) fn parse(bytes: &[u8]) -> Result<gltf::Gltf, ImportError> {
    let glb = bytes.starts_with(b"glTF");
    let text = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let first = text.iter().find(|b| !b.is_ascii_whitespace());
    if !glb && first != Some(&b'{') {
        return Err(ImportError::NotGltf);
    }
    let bytes = if glb {
        container(bytes)?;
        bytes
    } else {
        text
    };
    // Check what the validator and the wrapper types would panic on, on the unvalidated
    // document, before the schema checks.
    let gltf = gltf::Gltf::from_slice_without_validation(bytes).map_err(|e| match e {
        gltf::Error::Binary(b) => ImportError::Glb(glb_reason(&b)),
        gltf::Error::Deserialize(j) => ImportError::Json(j.to_string()),
        other => ImportError::Invalid(other.to_string().replace('\n', " ")),
    })?;
    let json = gltf.document.as_json();
    version(json)?;
    extensions::required(json)?;
    enums(json)?;
    indices(json)?;
    let errors = extensions::validate(json);
    let Some((path, err)) = errors.first() else {
        return Ok(gltf);
    };
    if let Some(compressed) = extensions::used_compression(json) {
        return Err(compressed);
    }
    let more = match errors.len() {
        1 => String::new(),
        n => format!(" (and {} more problems)", n - 1),
    };
    Err(ImportError::Invalid(format!("{path}: {err}{more}")))
}

/// The GLB header's length must be the file's: shorter leaves bytes no chunk owns (a
/// concatenation or a damaged header), longer is a truncated file.
fn container(bytes: &[u8]) -> Result<(), ImportError> {
    let Some(length) = bytes.get(8..GLB_HEADER) else {
        return Err(ImportError::Glb(format!(
            "the file is {} bytes, shorter than the {GLB_HEADER}-byte GLB header",
            bytes.len()
        )));
    };
    let length = u32::from_le_bytes([length[0], length[1], length[2], length[3]]) as usize;
    if length < bytes.len() {
        return Err(ImportError::Glb(format!(
            "the header declares {length} bytes but the file has {} ({} bytes after the \
             container's end)",
            bytes.len(),
            bytes.len() - length
        )));
    }
    Ok(())
}

fn glb_reason(e: &gltf::binary::Error) -> String {
    use gltf::binary::Error as B;
    match e {
        B::Length {
            length,
            length_read,
        } => format!(
            "the header declares {length} bytes but the file has {length_read} (truncated?)"
        ),
        B::ChunkLength {
            ty,
            length,
            length_read,
        } => format!(
            "the {ty:?} chunk declares {length} bytes but only {length_read} remain (truncated?)"
        ),
        B::Io(_) => "the file ends inside a chunk header (truncated?)".into(),
        other => other.to_string().replace('\n', " "),
    }
}

/// glTF 2.x only: `asset.version` (and `minVersion`, when given) must have major version 2.
fn version(json: &Root) -> Result<(), ImportError> {
    let asset = &json.asset;
    for (field, value) in [
        ("version", Some(&asset.version)),
        ("minVersion", asset.min_version.as_ref()),
    ] {
        let Some(value) = value else { continue };
        let major = value.split('.').next().and_then(|m| m.parse::<u32>().ok());
        if major != Some(2) {
            return Err(ImportError::Unsupported(format!(
                "asset.{field} is {value:?}; this tool reads glTF 2.x"
            )));
        }
    }
    Ok(())
}

/// The wrapper types unwrap these enums; validation does not flag every bad one.
fn enums(json: &Root) -> Result<(), ImportError> {
    let bad = |what: String| Err(ImportError::Invalid(format!("{what} has an unknown value")));
    use Checked::Invalid as Bad;
    for (a, anim) in json.animations.iter().enumerate() {
        for (c, ch) in anim.channels.iter().enumerate() {
            if matches!(ch.target.path, Bad) {
                return bad(format!("animations[{a}].channels[{c}].target.path"));
            }
        }
        for (i, sm) in anim.samplers.iter().enumerate() {
            if matches!(sm.interpolation, Bad) {
                return bad(format!("animations[{a}].samplers[{i}].interpolation"));
            }
        }
    }
    for (i, acc) in json.accessors.iter().enumerate() {
        if matches!(acc.component_type, Bad) || matches!(acc.type_, Bad) {
            return bad(format!("accessors[{i}] type or componentType"));
        }
        if let Some(sp) = &acc.sparse {
            if matches!(sp.indices.component_type, Bad) {
                return bad(format!("accessors[{i}].sparse.indices.componentType"));
            }
        }
    }
    for (m, mesh) in json.meshes.iter().enumerate() {
        for (p, prim) in mesh.primitives.iter().enumerate() {
            if matches!(prim.mode, Bad) {
                return bad(format!("meshes[{m}].primitives[{p}].mode"));
            }
        }
    }
    Ok(())
}

/// One index field: where it is, its value, and how many things it may name.
struct Reference {
    path: String,
    value: usize,
    len: usize,
    what: &'static str,
}

/// Every index this importer (or the `gltf` crate's accessors) follows must name
/// something that exists.
fn indices(json: &Root) -> Result<(), ImportError> {
    let mut refs: Vec<Reference> = Vec::new();
    let mut add = |path: String, value: usize, len: usize, what: &'static str| {
        refs.push(Reference {
            path,
            value,
            len,
            what,
        })
    };
    let (nodes, meshes, skins) = (json.nodes.len(), json.meshes.len(), json.skins.len());
    let (accessors, views) = (json.accessors.len(), json.buffer_views.len());
    if let Some(s) = json.scene {
        add("scene".into(), s.value(), json.scenes.len(), "scenes");
    }
    for (s, scene) in json.scenes.iter().enumerate() {
        for (i, n) in scene.nodes.iter().enumerate() {
            add(format!("scenes[{s}].nodes[{i}]"), n.value(), nodes, "nodes");
        }
    }
    for (n, node) in json.nodes.iter().enumerate() {
        for (i, c) in node.children.iter().flatten().enumerate() {
            add(
                format!("nodes[{n}].children[{i}]"),
                c.value(),
                nodes,
                "nodes",
            );
        }
        if let Some(m) = node.mesh {
            add(format!("nodes[{n}].mesh"), m.value(), meshes, "meshes");
        }
        if let Some(s) = node.skin {
            add(format!("nodes[{n}].skin"), s.value(), skins, "skins");
        }
        if let Some(c) = node.camera {
            add(
                format!("nodes[{n}].camera"),
                c.value(),
                json.cameras.len(),
                "cameras",
            );
        }
    }
    for (s, skin) in json.skins.iter().enumerate() {
        for (i, j) in skin.joints.iter().enumerate() {
            add(format!("skins[{s}].joints[{i}]"), j.value(), nodes, "nodes");
        }
        if let Some(k) = skin.skeleton {
            add(format!("skins[{s}].skeleton"), k.value(), nodes, "nodes");
        }
        if let Some(a) = skin.inverse_bind_matrices {
            let path = format!("skins[{s}].inverseBindMatrices");
            add(path, a.value(), accessors, "accessors");
        }
    }
    for (m, mesh) in json.meshes.iter().enumerate() {
        for (p, prim) in mesh.primitives.iter().enumerate() {
            let at = format!("meshes[{m}].primitives[{p}]");
            for (sem, a) in &prim.attributes {
                let sem = match sem {
                    Checked::Valid(s) => s.to_string(),
                    Checked::Invalid => "?".into(),
                };
                add(
                    format!("{at}.attributes.{sem}"),
                    a.value(),
                    accessors,
                    "accessors",
                );
            }
            if let Some(a) = prim.indices {
                add(format!("{at}.indices"), a.value(), accessors, "accessors");
            }
            if let Some(mat) = prim.material {
                let len = json.materials.len();
                add(format!("{at}.material"), mat.value(), len, "materials");
            }
            for (t, target) in prim.targets.iter().flatten().enumerate() {
                for (name, a) in [
                    ("POSITION", target.positions),
                    ("NORMAL", target.normals),
                    ("TANGENT", target.tangents),
                ] {
                    if let Some(a) = a {
                        let path = format!("{at}.targets[{t}].{name}");
                        add(path, a.value(), accessors, "accessors");
                    }
                }
            }
        }
    }
    for (a, anim) in json.animations.iter().enumerate() {
        for (c, ch) in anim.channels.iter().enumerate() {
            let at = format!("animations[{a}].channels[{c}]");
            let samplers = anim.samplers.len();
            add(
                format!("{at}.sampler"),
                ch.sampler.value(),
                samplers,
                "samplers in the animation",
            );
            add(
                format!("{at}.target.node"),
                ch.target.node.value(),
                nodes,
                "nodes",
            );
        }
        for (s, sampler) in anim.samplers.iter().enumerate() {
            let at = format!("animations[{a}].samplers[{s}]");
            add(
                format!("{at}.input"),
                sampler.input.value(),
                accessors,
                "accessors",
            );
            add(
                format!("{at}.output"),
                sampler.output.value(),
                accessors,
                "accessors",
            );
        }
    }
    for (i, acc) in json.accessors.iter().enumerate() {
        if let Some(v) = acc.buffer_view {
            add(
                format!("accessors[{i}].bufferView"),
                v.value(),
                views,
                "buffer views",
            );
        }
        if let Some(sp) = &acc.sparse {
            let at = format!("accessors[{i}].sparse");
            add(
                format!("{at}.indices.bufferView"),
                sp.indices.buffer_view.value(),
                views,
                "buffer views",
            );
            add(
                format!("{at}.values.bufferView"),
                sp.values.buffer_view.value(),
                views,
                "buffer views",
            );
        }
    }
    for (i, view) in json.buffer_views.iter().enumerate() {
        let len = json.buffers.len();
        add(
            format!("bufferViews[{i}].buffer"),
            view.buffer.value(),
            len,
            "buffers",
        );
    }
    match refs.into_iter().find(|r| r.value >= r.len) {
        Some(r) => Err(ImportError::Invalid(format!(
            "{} is {}, but the file has {} {}",
            r.path, r.value, r.len, r.what
        ))),
        None => Ok(()),
    }
}
