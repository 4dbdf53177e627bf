//! Normals for primitives that have none: smooth, angle-weighted vertex normals, so that a
//! model exported without them (Fox) is lit rather than drawn flat.
//!
//! A vertex's normal is the sum of the unit normals of the triangles around it, each
//! weighted by the triangle's angle at that vertex (so a vertex's normal does not depend on
//! how the surface around it is cut into triangles), normalised. A vertex on no triangle, or
//! only on degenerate ones, gets the zero vector, as the importer keeps a zero normal of a
//! file. Points and lines get no normals.

use crate::rig::{Mode, Primitive};

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
    if !matches!(
        prim.mode,
        Mode::Triangles | Mode::TriangleStrip | Mode::TriangleFan
    ) {
        return None;
    }
    let p: Vec<[f64; 3]> = prim.positions.iter().map(|v| v.map(f64::from)).collect();
    let mut sum = vec![[0.0f64; 3]; p.len()];
    for tri in prim.elements() {
        let [a, b, c] = [tri[0], tri[1], tri[2]].map(|i| i as usize);
        let face = cross(sub(p[b], p[a]), sub(p[c], p[a]));
        let l = length(face);
        if l == 0.0 || !l.is_finite() {
            continue;
        }
        let unit = face.map(|x| x / l);
        for (v, from, to) in [(a, b, c), (b, c, a), (c, a, b)] {
            let w = angle(sub(p[from], p[v]), sub(p[to], p[v]));
            for i in 0..3 {
                sum[v][i] += w * unit[i];
            }
        }
    }
    Some(
        sum.into_iter()
            .map(|n| {
                let l = length(n);
                if l > 0.0 && l.is_finite() {
                    n.map(|x| (x / l) as f32)
                } else {
                    [0.0; 3]
                }
            })
            .collect(),
    )
}
