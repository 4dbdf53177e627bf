//! Meshes: each primitive's positions, normals, indices and skinning influences.

use gltf::accessor::{DataType, Dimensions};
use gltf::mesh::Semantic;

use super::normals::{flat_normals, smooth_normals};
use super::{morph, Generated, WEIGHT_SUM_TOLERANCE};
use crate::accessor::{read_f32, read_uint, Buffers};
use crate::error::ImportError;
use crate::rig::warning::{Kind, Warning};
use crate::rig::{Influence4, Mesh, Mode, Primitive};

pub(super) const ALL_TYPES: [DataType; 6] = [
    DataType::I8,
    DataType::U8,
    DataType::I16,
    DataType::U16,
    DataType::U32,
    DataType::F32,
];

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

pub(super) fn vec3s(flat: Vec<f32>) -> Vec<[f32; 3]> {
    flat.chunks_exact(3).map(|c| [c[0], c[1], c[2]]).collect()
}

pub(super) fn mesh(
    mesh: &gltf::Mesh<'_>,
    buffers: &Buffers,
    normals: Generated,
    warnings: &mut Vec<Warning>,
) -> Result<Mesh, ImportError> {
    let m = mesh.index();
    let label = match mesh.name() {
        Some(name) => format!("mesh {m} {name:?}"),
        None => format!("mesh {m}"),
    };
    let primitives = mesh
        .primitives()
        .map(|p| primitive(m, &label, &p, buffers, normals, warnings))
        .collect::<Result<Vec<_>, _>>()?;
    let first = primitives.first().map_or(0, |p| p.targets.len());
    if let Some((primitive, p)) = primitives
        .iter()
        .enumerate()
        .find(|(_, p)| p.targets.len() != first)
    {
        return Err(ImportError::TargetCounts {
            mesh: m,
            primitive,
            targets: p.targets.len(),
            first,
        });
    }
    let tangents: usize = mesh
        .primitives()
        .flat_map(|p| p.morph_targets())
        .filter(|t| t.tangents().is_some())
        .count();
    if tangents > 0 {
        warnings.push(Warning::new(
            Kind::MorphTangents,
            label.clone(),
            format!(
                "the TANGENT deltas of {tangents} morph target(s) are ignored (tangents are \
                 skinned, not morphed); their POSITION and NORMAL deltas are used"
            ),
        ));
    }
    Ok(Mesh {
        name: mesh.name().map(str::to_owned),
        primitives,
        weights: morph::mesh_weights(mesh, first)?,
        target_names: morph::target_names(mesh, first, warnings),
    })
}

fn primitive(
    mesh: usize,
    label: &str,
    prim: &gltf::Primitive<'_>,
    buffers: &Buffers,
    generated: Generated,
    warnings: &mut Vec<Warning>,
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
            let mut normals =
                vec3s(read_f32(&acc, buffers, &[Dimensions::Vec3], &ALL_TYPES, &what)?.1);
            let fixed = unit_normals(&mut normals);
            if fixed > 0 {
                warnings.push(Warning::new(
                    Kind::NormalLength,
                    format!("{label} primitive {p}"),
                    format!("{fixed} normals were not of unit length; normalised"),
                ));
            }
            Some(normals)
        }
        None => None,
    };
    let tangents = match prim.get(&Semantic::Tangents) {
        Some(acc) => {
            count_check(&acc, "TANGENT")?;
            let what = format!("TANGENT of mesh {mesh} primitive {p}");
            let flat = read_f32(&acc, buffers, &[Dimensions::Vec4], &ALL_TYPES, &what)?.1;
            let mut tangents: Vec<[f32; 4]> = flat
                .chunks_exact(4)
                .map(|t| [t[0], t[1], t[2], t[3]])
                .collect();
            let fixed = unit_tangents(&mut tangents).map_err(|(vertex, value, problem)| {
                ImportError::Tangent {
                    mesh,
                    primitive: p,
                    vertex,
                    value,
                    problem,
                }
            })?;
            if fixed > 0 {
                warnings.push(Warning::new(
                    Kind::TangentLength,
                    format!("{label} primitive {p}"),
                    format!("{fixed} TANGENT directions were not of unit length; normalised"),
                ));
            }
            Some(tangents)
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
    let mode = mode(prim.mode());
    let (listed, what) = match &indices {
        Some(i) => (i.len(), "indices"),
        None => (n, "vertices (no indices)"),
    };
    let per = match mode {
        Mode::Triangles => 3,
        Mode::Lines => 2,
        _ => 1,
    };
    if listed % per != 0 {
        return Err(ImportError::Invalid(format!(
            "mesh {mesh} primitive {p} lists {listed} {what}, not a multiple of {per} as \
             {mode:?} needs"
        )));
    }
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
            warnings.push(Warning::new(
                Kind::WeightSum,
                format!("{label} primitive {p}"),
                format!(
                    "the weights of {renormalised} vertices did not sum to 1 (worst sum \
                     {worst_sum}); renormalised"
                ),
            ));
        }
        if max_influences > 4 {
            warnings.push(Warning::new(
                Kind::Influences,
                format!("{label} primitive {p}"),
                format!(
                    "up to {max_influences} influences per vertex reduced to the 4 largest and \
                     renormalised; largest dropped weight {largest_dropped}"
                ),
            ));
        }
        Some(out)
    };
    let targets = morph::targets(mesh, p, prim, n, buffers)?;
    let mut out = Primitive {
        mode,
        positions,
        normals,
        tangents,
        indices,
        influences,
        max_influences,
        largest_dropped,
        targets,
    };
    if out.normals.is_none() {
        let subject = format!("{label} primitive {p}");
        match generated {
            Generated::Smooth => {
                out.normals = smooth_normals(&out);
                if out.normals.is_some() {
                    warnings.push(Warning::new(
                        Kind::NormalsGenerated,
                        subject,
                        "no NORMAL in the file",
                    ));
                }
            }
            Generated::Flat => {
                let before = out.positions.len();
                if let Some(flat) = flat_normals(&out) {
                    out = flat;
                    warnings.push(Warning::new(
                        Kind::FlatNormals,
                        subject,
                        format!(
                            "no NORMAL in the file; {before} vertices unwelded into {}",
                            out.positions.len()
                        ),
                    ));
                }
            }
        }
    }
    Ok(out)
}

/// glTF normals are unit vectors: normalise those more than 10⁻³ off (zero ones stay zero:
/// no direction to give them); how many were.
/// The most a `TANGENT`'s handedness may be off ±1 (glTF requires exactly ±1; quantised
/// accessors store it exactly too).
const HANDEDNESS_TOLERANCE: f32 = 1e-3;

/// The shortest `TANGENT` direction taken for one (glTF requires unit length; shorter
/// ones are a zero vector or its rounding, with no direction to skin).
const SHORTEST_TANGENT: f64 = 1e-6;

/// glTF tangents are unit directions with a handedness of ±1: normalise those more than
/// 10⁻³ off unit length and set `w` to exactly ±1 (within [`HANDEDNESS_TOLERANCE`]); returns
/// how many were normalised, or the first tangent that is no tangent (its vertex, value and
/// what is wrong).
fn unit_tangents(tangents: &mut [[f32; 4]]) -> Result<usize, (usize, [f32; 4], String)> {
    let mut fixed = 0;
    for (v, t) in tangents.iter_mut().enumerate() {
        let len = t[..3]
            .iter()
            .map(|&c| f64::from(c) * f64::from(c))
            .sum::<f64>()
            .sqrt();
        if len < SHORTEST_TANGENT {
            let problem = format!(
                "has a direction {len:e} long, below {SHORTEST_TANGENT:e}: no direction to skin"
            );
            return Err((v, *t, problem));
        }
        if (t[3].abs() - 1.0).abs() > HANDEDNESS_TOLERANCE {
            let problem = format!(
                "has handedness w = {}, not ±1 (within {HANDEDNESS_TOLERANCE})",
                t[3]
            );
            return Err((v, *t, problem));
        }
        t[3] = t[3].signum();
        if (len - 1.0).abs() > 1e-3 {
            for c in &mut t[..3] {
                *c = (f64::from(*c) / len) as f32;
            }
            fixed += 1;
        }
    }
    Ok(fixed)
}

fn unit_normals(normals: &mut [[f32; 3]]) -> usize {
    let mut fixed = 0;
    for n in normals.iter_mut() {
        let len = n
            .iter()
            .map(|&c| f64::from(c) * f64::from(c))
            .sum::<f64>()
            .sqrt();
        if (len - 1.0).abs() > 1e-3 && len > 0.0 {
            *n = n.map(|c| (f64::from(c) / len) as f32);
            fixed += 1;
        }
    }
    fixed
}
