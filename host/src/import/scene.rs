//! The scene graph: nodes (their hierarchy and local transforms) and skins (joints and
//! inverse bind matrices).

use gltf::accessor::{DataType, Dimensions};

use crate::accessor::Buffers;
use crate::error::ImportError;
use crate::rig::{Node, Skin, Trs};

/// ` "name"` for a named thing, nothing otherwise.
pub(super) fn name(name: Option<&str>) -> String {
    name.map_or(String::new(), |n| format!(" {n:?}"))
}

/// `q` when it has a direction; glTF rotations are unit quaternions, and one of length
/// zero (or too small to normalise in `f32`) is no rotation at all.
pub(super) fn rotation_of(
    q: [f32; 4],
    what: impl FnOnce() -> String,
) -> Result<[f32; 4], ImportError> {
    let len = q
        .iter()
        .map(|&v| f64::from(v) * f64::from(v))
        .sum::<f64>()
        .sqrt();
    if len < 1e-6 {
        return Err(ImportError::Invalid(format!(
            "{} {q:?} has length {len:.1e}; a rotation must be a unit quaternion",
            what()
        )));
    }
    Ok(q)
}

pub(super) fn finite<const N: usize>(
    v: [f32; N],
    what: impl FnOnce() -> String,
) -> Result<[f32; N], ImportError> {
    if v.iter().all(|x| x.is_finite()) {
        Ok(v)
    } else {
        Err(ImportError::NotFinite { what: what() })
    }
}

pub(super) fn nodes(gltf: &gltf::Gltf) -> Result<(Vec<Node>, Vec<usize>), ImportError> {
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
                    rotation: rotation_of(
                        finite(rotation, || format!("rotation of node {i}"))?,
                        || format!("the rotation of node {i}{}", name(node.name())),
                    )?,
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
                weights: node.weights().map(<[f32]>::to_vec),
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

pub(super) fn skin(skin: &gltf::Skin<'_>, buffers: &Buffers) -> Result<Skin, ImportError> {
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
