//! glTF 2.0 import: a `.gltf` or `.glb` file to a [`Rig`].
//!
//! The `gltf` crate parses and validates the JSON and the GLB container; buffers are loaded
//! here (GLB binary chunk, `data:` URIs, files beside the model) and every accessor is read
//! through the bounds-checked [`crate::accessor`] reader. What this importer cleans up, it
//! reports in [`Rig::warnings`]:
//!
//! - more than four influences on a vertex: the four largest are kept and renormalised, and
//!   the largest dropped weight is reported;
//! - weights that do not sum to one (beyond [`skin_core::vertex::WEIGHT_TOLERANCE`]) are
//!   renormalised;
//! - morph-target weight channels are skipped.
//!
//! Everything else that is wrong is an [`ImportError`].
//!
//! ```no_run
//! let rig = skin_host::import::from_path("model.glb".as_ref()).unwrap();
//! println!("{} nodes, {} skins", rig.nodes.len(), rig.skins.len());
//! ```

use std::path::Path;

use base64::Engine as _;
use gltf::accessor::{DataType, Dimensions};
use gltf::mesh::Semantic;

use crate::accessor::{read_f32, read_uint};
use crate::error::ImportError;
use crate::rig::{
    Channel, Clip, Influence4, Interpolation, Mesh, Mode, Node, Path as ChannelPath, Primitive,
    Rig, Skin, Trs,
};

/// How far weights may sum from one before the importer warns that it renormalised them.
pub const WEIGHT_SUM_TOLERANCE: f32 = skin_core::vertex::WEIGHT_TOLERANCE;

const ALL_TYPES: [DataType; 6] = [
    DataType::I8,
    DataType::U8,
    DataType::I16,
    DataType::U16,
    DataType::U32,
    DataType::F32,
];

/// Import the glTF file at `path` (external buffers are looked up beside it).
pub fn from_path(path: &Path) -> Result<Rig, ImportError> {
    let bytes = std::fs::read(path).map_err(|source| ImportError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    from_slice(&bytes, path.parent())
}

/// Import glTF (`.gltf` JSON or `.glb`) from memory; `base` is where external buffers
/// live (`None`: external buffers are an error).
pub fn from_slice(bytes: &[u8], base: Option<&Path>) -> Result<Rig, ImportError> {
    let gltf = parse(bytes)?;
    let buffers = load_buffers(&gltf, base)?;
    let mut warnings = Vec::new();
    let (nodes, order) = import_nodes(&gltf)?;
    let skins = gltf
        .skins()
        .map(|s| import_skin(&s, &buffers))
        .collect::<Result<Vec<_>, _>>()?;
    let meshes = gltf
        .meshes()
        .map(|m| import_mesh(&m, &buffers, &mut warnings))
        .collect::<Result<Vec<_>, _>>()?;
    let clips = gltf
        .animations()
        .map(|a| import_clip(&a, &buffers, &mut warnings))
        .collect::<Result<Vec<_>, _>>()?;
    let rig = Rig {
        nodes,
        order,
        skins,
        meshes,
        clips,
        warnings,
    };
    check_joint_indices(&rig)?;
    Ok(rig)
}

fn parse(bytes: &[u8]) -> Result<gltf::Gltf, ImportError> {
    let text = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let first = text.iter().find(|b| !b.is_ascii_whitespace());
    if !bytes.starts_with(b"glTF") && first != Some(&b'{') {
        return Err(ImportError::NotGltf);
    }
    // gltf-json 1.4's validator indexes `accessors[POSITION]` before checking the index
    // (found by this crate's property test): check that one first, and keep a panic in the
    // validator from escaping as a last resort.
    if let Ok(raw) = gltf::Gltf::from_slice_without_validation(bytes) {
        let json = raw.document.as_json();
        for (m, mesh) in json.meshes.iter().enumerate() {
            for (p, prim) in mesh.primitives.iter().enumerate() {
                for (sem, acc) in &prim.attributes {
                    if acc.value() >= json.accessors.len() {
                        return Err(ImportError::Invalid(format!(
                            "meshes[{m}].primitives[{p}].attributes[{}]: accessor {} does not exist",
                            match sem {
                                gltf::json::validation::Checked::Valid(s) => s.to_string(),
                                gltf::json::validation::Checked::Invalid => "?".into(),
                            },
                            acc.value()
                        )));
                    }
                }
            }
        }
        // The wrapper types unwrap these enums; validation does not flag every bad one.
        let bad = |what: String| Err(ImportError::Invalid(format!("{what} has an unknown value")));
        use gltf::json::validation::Checked::Invalid as Bad;
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
    }
    let parsed = std::panic::catch_unwind(|| gltf::Gltf::from_slice(bytes)).map_err(|_| {
        ImportError::Invalid("the glTF validator failed on malformed indices".into())
    })?;
    parsed.map_err(|e| match e {
        gltf::Error::Binary(b) => ImportError::Glb(glb_reason(&b)),
        gltf::Error::Deserialize(j) => ImportError::Json(j.to_string()),
        gltf::Error::Validation(errors) => {
            let more = match errors.len() {
                0 | 1 => String::new(),
                n => format!(" (and {} more problems)", n - 1),
            };
            match errors.first() {
                Some((path, err)) => ImportError::Invalid(format!("{path}: {err}{more}")),
                None => ImportError::Invalid("validation failed".into()),
            }
        }
        other => ImportError::Invalid(other.to_string().replace('\n', " ")),
    })
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
        other => other.to_string().replace('\n', " "),
    }
}

fn load_buffers(gltf: &gltf::Gltf, base: Option<&Path>) -> Result<Vec<Vec<u8>>, ImportError> {
    let mut out = Vec::new();
    for buffer in gltf.buffers() {
        let index = buffer.index();
        let err = |reason: String| ImportError::Buffer { index, reason };
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
                    let file = base.join(percent_decode(uri));
                    std::fs::read(&file)
                        .map_err(|e| err(format!("cannot read {}: {e}", file.display())))?
                }
            }
        };
        if data.len() < buffer.length() {
            return Err(err(format!(
                "holds {} bytes, but its byteLength is {}",
                data.len(),
                buffer.length()
            )));
        }
        out.push(data);
    }
    Ok(out)
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

fn finite<const N: usize>(
    v: [f32; N],
    what: impl FnOnce() -> String,
) -> Result<[f32; N], ImportError> {
    if v.iter().all(|x| x.is_finite()) {
        Ok(v)
    } else {
        Err(ImportError::NotFinite { what: what() })
    }
}

fn import_nodes(gltf: &gltf::Gltf) -> Result<(Vec<Node>, Vec<usize>), ImportError> {
    let n = gltf.nodes().len();
    let mut parent: Vec<Option<usize>> = vec![None; n];
    for node in gltf.nodes() {
        for child in node.children() {
            let c = child.index();
            if c == node.index() {
                return Err(ImportError::NodeCycle { node: c });
            }
            if let Some(first) = parent[c] {
                return Err(ImportError::TwoParents {
                    node: c,
                    first,
                    second: node.index(),
                });
            }
            parent[c] = Some(node.index());
        }
    }
    // Parents first: depth-first from the roots, in index order.
    let children: Vec<Vec<usize>> = gltf
        .nodes()
        .map(|node| node.children().map(|c| c.index()).collect())
        .collect();
    let mut order = Vec::with_capacity(n);
    let mut stack: Vec<usize> = (0..n).rev().filter(|&i| parent[i].is_none()).collect();
    while let Some(i) = stack.pop() {
        order.push(i);
        stack.extend(children[i].iter().rev());
    }
    if order.len() < n {
        let mut seen = vec![false; n];
        for &i in &order {
            seen[i] = true;
        }
        let node = (0..n).find(|&i| !seen[i]).unwrap_or(0);
        return Err(ImportError::NodeCycle { node });
    }
    let nodes = gltf
        .nodes()
        .map(|node| {
            let i = node.index();
            let local = match node.transform() {
                gltf::scene::Transform::Decomposed {
                    translation,
                    rotation,
                    scale,
                } => Trs {
                    translation: finite(translation, || format!("translation of node {i}"))?,
                    rotation: finite(rotation, || format!("rotation of node {i}"))?,
                    scale: finite(scale, || format!("scale of node {i}"))?,
                },
                gltf::scene::Transform::Matrix { matrix } => decompose(&matrix, i)?,
            };
            Ok(Node {
                name: node.name().map(str::to_owned),
                parent: parent[i],
                local,
                mesh: node.mesh().map(|m| m.index()),
                skin: node.skin().map(|s| s.index()),
            })
        })
        .collect::<Result<Vec<_>, ImportError>>()?;
    Ok((nodes, order))
}

/// Decompose a column-major glTF node matrix into TRS (glTF requires it to be decomposable:
/// no shear, no projection), in `f64`.
pub fn decompose(m: &[[f32; 4]; 4], node: usize) -> Result<Trs, ImportError> {
    let flat: Vec<f32> = m.iter().flatten().copied().collect();
    if flat.iter().any(|v| !v.is_finite()) {
        return Err(ImportError::NotFinite {
            what: format!("matrix of node {node}"),
        });
    }
    let col = |c: usize| [m[c][0] as f64, m[c][1] as f64, m[c][2] as f64];
    let (mut x, y, z) = (col(0), col(1), col(2));
    let len = |v: [f64; 3]| (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
    let det = x[0] * (y[1] * z[2] - y[2] * z[1]) - y[0] * (x[1] * z[2] - x[2] * z[1])
        + z[0] * (x[1] * y[2] - x[2] * y[1]);
    let mut s = [len(x), len(y), len(z)];
    let projective = m[0][3] != 0.0 || m[1][3] != 0.0 || m[2][3] != 0.0 || m[3][3] != 1.0;
    if projective || det.abs() < 1e-12 {
        return Err(ImportError::Unsupported(format!(
            "the matrix of node {node} is singular or projective, not translation·rotation·scale"
        )));
    }
    if det < 0.0 {
        s[0] = -s[0];
        x = x.map(|v| -v);
    }
    let r = [x, y, z]
        .iter()
        .zip(s)
        .map(|(c, s)| c.map(|v| v / s.abs()))
        .collect::<Vec<_>>();
    // r[c][row]: columns of the rotation. Check orthonormality (no shear).
    let dot = |a: [f64; 3], b: [f64; 3]| a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    let shear = dot(r[0], r[1])
        .abs()
        .max(dot(r[1], r[2]).abs())
        .max(dot(r[0], r[2]).abs());
    if shear > 1e-4 {
        return Err(ImportError::Unsupported(format!(
            "the matrix of node {node} has shear ({shear:.2e}); glTF requires TRS-decomposable matrices"
        )));
    }
    let e = |row: usize, c: usize| r[c][row];
    let tr = e(0, 0) + e(1, 1) + e(2, 2);
    let q = if tr > 0.0 {
        let s = (tr + 1.0).sqrt() * 2.0;
        [
            (e(2, 1) - e(1, 2)) / s,
            (e(0, 2) - e(2, 0)) / s,
            (e(1, 0) - e(0, 1)) / s,
            0.25 * s,
        ]
    } else if e(0, 0) > e(1, 1) && e(0, 0) > e(2, 2) {
        let s = (1.0 + e(0, 0) - e(1, 1) - e(2, 2)).sqrt() * 2.0;
        [
            0.25 * s,
            (e(0, 1) + e(1, 0)) / s,
            (e(0, 2) + e(2, 0)) / s,
            (e(2, 1) - e(1, 2)) / s,
        ]
    } else if e(1, 1) > e(2, 2) {
        let s = (1.0 + e(1, 1) - e(0, 0) - e(2, 2)).sqrt() * 2.0;
        [
            (e(0, 1) + e(1, 0)) / s,
            0.25 * s,
            (e(1, 2) + e(2, 1)) / s,
            (e(0, 2) - e(2, 0)) / s,
        ]
    } else {
        let s = (1.0 + e(2, 2) - e(0, 0) - e(1, 1)).sqrt() * 2.0;
        [
            (e(0, 2) + e(2, 0)) / s,
            (e(1, 2) + e(2, 1)) / s,
            0.25 * s,
            (e(1, 0) - e(0, 1)) / s,
        ]
    };
    let ql = q.iter().map(|v| v * v).sum::<f64>().sqrt();
    Ok(Trs {
        translation: [m[3][0], m[3][1], m[3][2]],
        rotation: q.map(|v| (v / ql) as f32),
        scale: s.map(|v| v as f32),
    })
}

fn import_skin(skin: &gltf::Skin<'_>, buffers: &[Vec<u8>]) -> Result<Skin, ImportError> {
    let s = skin.index();
    let joints: Vec<usize> = skin.joints().map(|j| j.index()).collect();
    let inverse_binds = match skin.inverse_bind_matrices() {
        None => vec![
            [
                [1.0, 0.0, 0.0, 0.0],
                [0.0, 1.0, 0.0, 0.0],
                [0.0, 0.0, 1.0, 0.0]
            ];
            joints.len()
        ],
        Some(acc) => {
            let v = crate::accessor::read(&acc, buffers, &[Dimensions::Mat4], &[DataType::F32])?;
            if v.count() < joints.len() {
                return Err(ImportError::Accessor {
                    index: acc.index(),
                    reason: format!(
                        "holds {} inverse bind matrices, but skin {s} has {} joints",
                        v.count(),
                        joints.len()
                    ),
                });
            }
            v.rows::<16>()
                .take(joints.len())
                .enumerate()
                .map(|(j, m)| {
                    if m.iter().any(|x| !x.is_finite()) {
                        return Err(ImportError::NotFinite {
                            what: format!("inverse bind matrix {j} of skin {s}"),
                        });
                    }
                    if m[3] != 0.0 || m[7] != 0.0 || m[11] != 0.0 || (m[15] - 1.0).abs() > 1e-6 {
                        return Err(ImportError::Unsupported(format!(
                            "inverse bind matrix {j} of skin {s} is not affine (last row is not 0 0 0 1)"
                        )));
                    }
                    // Column-major 4×4 → row-major 3×4.
                    Ok(core::array::from_fn(|row| {
                        core::array::from_fn(|c| m[c * 4 + row] as f32)
                    }))
                })
                .collect::<Result<Vec<_>, _>>()?
        }
    };
    Ok(Skin {
        name: skin.name().map(str::to_owned),
        joints,
        inverse_binds,
    })
}

fn mode(m: gltf::mesh::Mode) -> Mode {
    use gltf::mesh::Mode as G;
    match m {
        G::Points => Mode::Points,
        G::Lines => Mode::Lines,
        G::LineLoop => Mode::LineLoop,
        G::LineStrip => Mode::LineStrip,
        G::Triangles => Mode::Triangles,
        G::TriangleStrip => Mode::TriangleStrip,
        G::TriangleFan => Mode::TriangleFan,
    }
}

fn vec3s(flat: Vec<f32>) -> Vec<[f32; 3]> {
    flat.chunks_exact(3).map(|c| [c[0], c[1], c[2]]).collect()
}

fn import_mesh(
    mesh: &gltf::Mesh<'_>,
    buffers: &[Vec<u8>],
    warnings: &mut Vec<String>,
) -> Result<Mesh, ImportError> {
    let m = mesh.index();
    let primitives = mesh
        .primitives()
        .map(|p| import_primitive(m, &p, buffers, warnings))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Mesh {
        name: mesh.name().map(str::to_owned),
        primitives,
    })
}

fn import_primitive(
    mesh: usize,
    prim: &gltf::Primitive<'_>,
    buffers: &[Vec<u8>],
    warnings: &mut Vec<String>,
) -> Result<Primitive, ImportError> {
    let p = prim.index();
    let pos = prim.get(&Semantic::Positions).ok_or_else(|| {
        ImportError::Invalid(format!("mesh {mesh} primitive {p} has no POSITION"))
    })?;
    let what = format!("POSITION of mesh {mesh} primitive {p}");
    let positions = vec3s(read_f32(&pos, buffers, &[Dimensions::Vec3], &ALL_TYPES, &what)?.1);
    let n = positions.len();
    let count_check = |acc: &gltf::Accessor<'_>, name: &str| {
        if acc.count() == n {
            Ok(())
        } else {
            Err(ImportError::Accessor {
                index: acc.index(),
                reason: format!("{name} has {} elements but POSITION has {n}", acc.count()),
            })
        }
    };
    let normals = match prim.get(&Semantic::Normals) {
        Some(acc) => {
            count_check(&acc, "NORMAL")?;
            let what = format!("NORMAL of mesh {mesh} primitive {p}");
            Some(vec3s(
                read_f32(&acc, buffers, &[Dimensions::Vec3], &ALL_TYPES, &what)?.1,
            ))
        }
        None => None,
    };
    let indices = match prim.indices() {
        Some(acc) => {
            let (_, idx) = read_uint(&acc, buffers, &[Dimensions::Scalar])?;
            if let Some(bad) = idx.iter().find(|&&i| i as usize >= n) {
                return Err(ImportError::Accessor {
                    index: acc.index(),
                    reason: format!(
                        "index {bad} is beyond the {n} vertices of mesh {mesh} primitive {p}"
                    ),
                });
            }
            Some(idx)
        }
        None => None,
    };
    // Every JOINTS_n / WEIGHTS_n pair.
    let mut sets = Vec::new();
    for set in 0u32.. {
        let j = prim.get(&Semantic::Joints(set));
        let w = prim.get(&Semantic::Weights(set));
        match (j, w) {
            (None, None) => break,
            (Some(j), Some(w)) => {
                count_check(&j, &format!("JOINTS_{set}"))?;
                count_check(&w, &format!("WEIGHTS_{set}"))?;
                let (_, joints) = read_uint(&j, buffers, &[Dimensions::Vec4])?;
                if w.data_type() != DataType::F32 && !w.normalized() {
                    return Err(ImportError::Accessor {
                        index: w.index(),
                        reason: format!("WEIGHTS_{set} uses integers that are not normalized"),
                    });
                }
                let what = format!("WEIGHTS_{set} of mesh {mesh} primitive {p}");
                let types = [DataType::U8, DataType::U16, DataType::F32];
                let (_, weights) = read_f32(&w, buffers, &[Dimensions::Vec4], &types, &what)?;
                sets.push((joints, weights));
            }
            _ => {
                return Err(ImportError::Invalid(format!(
                    "mesh {mesh} primitive {p} has JOINTS_{set} or WEIGHTS_{set} without the other"
                )))
            }
        }
    }
    let mut max_influences = 0;
    let mut largest_dropped = 0.0f32;
    let influences = if sets.is_empty() {
        None
    } else {
        let mut renormalised = 0usize;
        let mut worst_sum = 1.0f32;
        let mut out = Vec::with_capacity(n);
        for v in 0..n {
            let werr = |reason: String| ImportError::Weights {
                mesh,
                primitive: p,
                vertex: v,
                reason,
            };
            let mut pairs: Vec<(u32, f32)> = Vec::new();
            let mut total = 0.0f64;
            for (joints, weights) in &sets {
                for k in 0..4 {
                    let (j, w) = (joints[v * 4 + k], weights[v * 4 + k]);
                    if w < 0.0 {
                        return Err(werr(format!("negative weight {w}")));
                    }
                    total += f64::from(w);
                    if w == 0.0 {
                        continue;
                    }
                    match pairs.iter_mut().find(|(pj, _)| *pj == j) {
                        Some(pair) => pair.1 += w,
                        None => pairs.push((j, w)),
                    }
                }
            }
            if pairs.is_empty() {
                return Err(werr("all of its weights are zero".into()));
            }
            // Largest first; ties keep file order.
            pairs.sort_by(|a, b| b.1.total_cmp(&a.1));
            max_influences = max_influences.max(pairs.len());
            if let Some(&(_, w)) = pairs.get(4) {
                largest_dropped = largest_dropped.max(w);
            }
            pairs.truncate(4);
            let kept: f64 = pairs.iter().map(|&(_, w)| f64::from(w)).sum();
            if (total - 1.0).abs() > f64::from(WEIGHT_SUM_TOLERANCE) {
                renormalised += 1;
                if (total as f32 - 1.0).abs() > (worst_sum - 1.0).abs() {
                    worst_sum = total as f32;
                }
            }
            let mut joints = [0u16; 4];
            let mut weights = [0.0f32; 4];
            for (k, &(j, w)) in pairs.iter().enumerate() {
                let Ok(j) = u16::try_from(j) else {
                    return Err(werr(format!("joint index {j} exceeds 65535")));
                };
                joints[k] = j;
                weights[k] = (f64::from(w) / kept) as f32;
            }
            for k in pairs.len()..4 {
                joints[k] = joints[0];
            }
            out.push(Influence4 { joints, weights });
        }
        if renormalised > 0 {
            warnings.push(format!(
                "mesh {mesh} primitive {p}: the weights of {renormalised} vertices did not sum to 1 \
                 (worst sum {worst_sum}); renormalised"
            ));
        }
        if max_influences > 4 {
            warnings.push(format!(
                "mesh {mesh} primitive {p}: up to {max_influences} influences per vertex reduced to the \
                 4 largest and renormalised; largest dropped weight {largest_dropped}"
            ));
        }
        Some(out)
    };
    Ok(Primitive {
        mode: mode(prim.mode()),
        positions,
        normals,
        indices,
        influences,
        max_influences,
        largest_dropped,
    })
}

fn import_clip(
    anim: &gltf::Animation<'_>,
    buffers: &[Vec<u8>],
    warnings: &mut Vec<String>,
) -> Result<Clip, ImportError> {
    let a = anim.index();
    let mut channels = Vec::new();
    for ch in anim.channels() {
        let path = match ch.target().property() {
            gltf::animation::Property::Translation => ChannelPath::Translation,
            gltf::animation::Property::Rotation => ChannelPath::Rotation,
            gltf::animation::Property::Scale => ChannelPath::Scale,
            gltf::animation::Property::MorphTargetWeights => {
                warnings.push(format!(
                    "animation {a} channel {}: morph-target weights are not supported; skipped",
                    ch.index()
                ));
                continue;
            }
        };
        let sampler = ch.sampler();
        let interpolation = match sampler.interpolation() {
            gltf::animation::Interpolation::Step => Interpolation::Step,
            gltf::animation::Interpolation::Linear => Interpolation::Linear,
            gltf::animation::Interpolation::CubicSpline => Interpolation::CubicSpline,
        };
        let what = format!("key times of animation {a} channel {}", ch.index());
        let input = sampler.input();
        let (_, times) = read_f32(
            &input,
            buffers,
            &[Dimensions::Scalar],
            &[DataType::F32],
            &what,
        )?;
        if times.is_empty() {
            return Err(ImportError::Accessor {
                index: input.index(),
                reason: "an animation sampler needs at least one key".into(),
            });
        }
        if times.windows(2).any(|w| w[1] < w[0]) {
            return Err(ImportError::Accessor {
                index: input.index(),
                reason: format!("key times of animation {a} decrease"),
            });
        }
        let dims = if path == ChannelPath::Rotation {
            Dimensions::Vec4
        } else {
            Dimensions::Vec3
        };
        let types: &[DataType] = if path == ChannelPath::Rotation {
            &[
                DataType::F32,
                DataType::I8,
                DataType::U8,
                DataType::I16,
                DataType::U16,
            ]
        } else {
            &[DataType::F32]
        };
        let output = sampler.output();
        if output.data_type() != DataType::F32 && !output.normalized() {
            return Err(ImportError::Accessor {
                index: output.index(),
                reason: "integer rotations must be normalized".into(),
            });
        }
        let what = format!("key values of animation {a} channel {}", ch.index());
        let (_, values) = read_f32(&output, buffers, &[dims], types, &what)?;
        let per_key = path.width()
            * if interpolation == Interpolation::CubicSpline {
                3
            } else {
                1
            };
        if values.len() != times.len() * per_key {
            return Err(ImportError::Accessor {
                index: output.index(),
                reason: format!(
                    "holds {} values, but {} keys of {:?} need {}",
                    values.len() / path.width(),
                    times.len(),
                    interpolation,
                    times.len() * per_key / path.width()
                ),
            });
        }
        channels.push(Channel {
            node: ch.target().node().index(),
            path,
            interpolation,
            times,
            values,
        });
    }
    Ok(Clip {
        name: anim.name().map(str::to_owned),
        channels,
    })
}

/// Every skinned mesh instance's joint indices must lie within its skin's joint list.
fn check_joint_indices(rig: &Rig) -> Result<(), ImportError> {
    for (node, mesh, skin) in rig.mesh_nodes() {
        let Some(skin) = skin else { continue };
        let joints = rig.skins[skin].joints.len();
        for (primitive, prim) in rig.meshes[mesh].primitives.iter().enumerate() {
            let Some(infl) = &prim.influences else {
                continue;
            };
            for (vertex, inf) in infl.iter().enumerate() {
                if let Some(&joint) = inf.joints.iter().find(|&&j| usize::from(j) >= joints) {
                    return Err(ImportError::JointIndex {
                        mesh,
                        primitive,
                        vertex,
                        joint: usize::from(joint),
                        skin,
                        node,
                        joints,
                    });
                }
            }
        }
    }
    Ok(())
}
