//! Normals for primitives that have none: smooth, angle-weighted vertex normals, so that a
//! model exported without them (Fox) is lit as a curved surface, or flat face normals when
//! asked ([`flat_normals`]), for a faceted look.
//!
//! A vertex's normal is the sum of the unit normals of the triangles around it, each
//! weighted by the triangle's angle at that vertex (so a vertex's normal does not depend on
//! how the surface around it is cut into triangles), normalised. The triangles around a
//! vertex are those touching its position, not only its index: a file without normals
//! that gives each triangle its own vertices (Fox does) is smoothed across them, as if
//! welded, instead of coming out faceted. A vertex on no triangle, or
//! only on degenerate ones, gets the zero vector, as the importer keeps a zero normal of a
//! file. Points and lines get no normals.

use crate::rig::{Mode, Primitive, Target};

/// `a − b`.
fn sub(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

fn dot(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn length(a: [f64; 3]) -> f64 {
    dot(a, a).sqrt()
}

/// The angle between `a` and `b` (0 when either is zero).
fn angle(a: [f64; 3], b: [f64; 3]) -> f64 {
    let (la, lb) = (length(a), length(b));
    if la == 0.0 || lb == 0.0 {
        return 0.0;
    }
    (dot(a, b) / (la * lb)).clamp(-1.0, 1.0).acos()
}

/// Whether `prim` draws triangles (the others get no normals).
fn triangles(prim: &Primitive) -> bool {
    matches!(
        prim.mode,
        Mode::Triangles | Mode::TriangleStrip | Mode::TriangleFan
    )
}

/// The unit normal of triangle `a b c` (counter-clockwise seen from where it points), or
/// zero when the triangle is degenerate.
fn face([a, b, c]: [[f64; 3]; 3]) -> [f64; 3] {
    let n = cross(sub(b, a), sub(c, a));
    let l = length(n);
    if l == 0.0 || !l.is_finite() {
        return [0.0; 3];
    }
    n.map(|x| x / l)
}

/// `prim` drawn flat, or `None` for points and lines: a triangle list whose every triangle
/// has three vertices of its own, each with the triangle's normal (zero for a degenerate
/// one). A vertex's influences and morph-target position deltas are copied to each of its
/// copies; the targets' normal deltas are dropped, since a face normal is not the file's
/// normal plus a delta (the facets keep their rest-pose normals under morphs).
///
/// ```
/// # use skin_host::rig::{Mode, Primitive};
/// # use skin_host::import::flat_normals;
/// // A quad folded along its diagonal: two triangles sharing vertices 0 and 2.
/// let prim = Primitive { mode: Mode::Triangles, normals: None, tangents: None, influences: None,
///     max_influences: 0, largest_dropped: 0.0,
///     positions: vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 1.0, 0.0], [0.0, 1.0, 1.0]],
///     indices: Some(vec![0, 1, 2, 0, 2, 3]), targets: Vec::new() };
/// let flat = flat_normals(&prim).unwrap();
/// assert_eq!(flat.positions.len(), 6);
/// assert_eq!(flat.positions[3], [0.0, 0.0, 0.0]);
/// let n = flat.normals.unwrap();
/// assert_eq!(n[0..3], [[0.0, 0.0, 1.0]; 3]);
/// // The other face: (1, 1, 0) × (0, 1, 1) = (1, −1, 1), normalised.
/// let s = 1.0 / 3f32.sqrt();
/// for v in &n[3..6] {
///     assert!((0..3).all(|i| (v[i] - [s, -s, s][i]).abs() < 1e-6), "{v:?}");
/// }
/// ```
pub fn flat_normals(prim: &Primitive) -> Option<Primitive> {
    if !triangles(prim) {
        return None;
    }
    let corners: Vec<usize> = prim
        .elements()
        .into_iter()
        .flatten()
        .map(|i| i as usize)
        .collect();
    let p: Vec<[f64; 3]> = prim.positions.iter().map(|v| v.map(f64::from)).collect();
    let normals = corners
        .chunks_exact(3)
        .flat_map(|t| {
            let n = face([p[t[0]], p[t[1]], p[t[2]]]).map(|x| x as f32);
            [n; 3]
        })
        .collect();
    let copy = |v: &[[f32; 3]]| corners.iter().map(|&i| v[i]).collect::<Vec<_>>();
    Some(Primitive {
        mode: Mode::Triangles,
        positions: copy(&prim.positions),
        normals: Some(normals),
        // glTF gives tangents only with normals: a primitive without normals has none.
        tangents: None,
        indices: None,
        influences: prim
            .influences
            .as_ref()
            .map(|inf| corners.iter().map(|&i| inf[i]).collect()),
        max_influences: prim.max_influences,
        largest_dropped: prim.largest_dropped,
        targets: prim
            .targets
            .iter()
            .map(|t| Target {
                positions: t.positions.as_deref().map(copy),
                normals: None,
            })
            .collect(),
    })
}

/// Smooth angle-weighted normals of `prim`'s triangles, one per vertex, or `None` for
/// points and lines. Triangles wind counter-clockwise seen from the side their normal
/// points to, as glTF specifies.
///
/// ```
/// # use skin_host::rig::{Mode, Primitive};
/// # use skin_host::import::smooth_normals;
/// // Two triangles around vertex 0, at right angles to each other: one in z = 0 (normal +Z)
/// // with a 90° angle at vertex 0, one in x = 0 (normal +X) with a 45° angle there.
/// let prim = Primitive { mode: Mode::Triangles, normals: None, tangents: None, influences: None,
///     max_influences: 0, largest_dropped: 0.0,
///     positions: vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 1.0, 1.0], [0.0, 0.0, 1.0]],
///     indices: Some(vec![0, 1, 2, 0, 3, 4]), targets: Vec::new() };
/// let n = smooth_normals(&prim).unwrap();
/// // Weighted 2 : 1 towards +Z: (1, 0, 2)/√5.
/// let want = [1.0 / 5f32.sqrt(), 0.0, 2.0 / 5f32.sqrt()];
/// assert!((0..3).all(|i| (n[0][i] - want[i]).abs() < 1e-6), "{:?}", n[0]);
/// assert_eq!(n[1], [0.0, 0.0, 1.0]);
/// ```
pub fn smooth_normals(prim: &Primitive) -> Option<Vec<[f32; 3]>> {
    if !triangles(prim) {
        return None;
    }
    let p: Vec<[f64; 3]> = prim.positions.iter().map(|v| v.map(f64::from)).collect();
    // Vertices at the same position (−0 and +0 alike) share one sum.
    let mut group_of = std::collections::HashMap::new();
    let group: Vec<usize> = prim
        .positions
        .iter()
        .map(|v| {
            let key = v.map(|x| (x + 0.0).to_bits());
            let next = group_of.len();
            *group_of.entry(key).or_insert(next)
        })
        .collect();
    let mut sum = vec![[0.0f64; 3]; group_of.len()];
    for tri in prim.elements() {
        let [a, b, c] = [tri[0], tri[1], tri[2]].map(|i| i as usize);
        let unit = face([p[a], p[b], p[c]]);
        if unit == [0.0; 3] {
            continue;
        }
        for (v, from, to) in [(a, b, c), (b, c, a), (c, a, b)] {
            let w = angle(sub(p[from], p[v]), sub(p[to], p[v]));
            for i in 0..3 {
                sum[group[v]][i] += w * unit[i];
            }
        }
    }
    let unit: Vec<[f32; 3]> = sum
        .into_iter()
        .map(|n| {
            let l = length(n);
            if l > 0.0 && l.is_finite() {
                n.map(|x| (x / l) as f32)
            } else {
                [0.0; 3]
            }
        })
        .collect();
    Some(group.into_iter().map(|g| unit[g]).collect())
}
