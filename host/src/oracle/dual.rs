//! The `f64` oracle of dual quaternion skinning (Kavan et al.), written with quaternion
//! products rather than skin-core's matrix forms: each joint matrix `W · IBM` (in `f64`)
//! becomes its rotation quaternion `q` (from the rotation block, by the largest of its four
//! diagonal combinations) and translation `t`, the dual quaternion `(q, ½·(t, 0)·q)`; a
//! vertex blends its joints' dual quaternions with its weights (divided by their sum), each
//! negated when its rotation lies in the other hemisphere from the most-weighted joint's,
//! divides the blend by the norm `ν` of its real part, and moves its morphed position by the
//! rigid transform `p ↦ q·p·q* + 2·d·q*` (normals by the rotation, renormalised).
//!
//! A joint with scale or shear (its `AᵀA` off the identity by more than 10⁻⁶, a scale
//! error of 5·10⁻⁷ if left rigid) is split first ([`super::stretch::polar`]: `A = R·S`):
//! its rotation is `R`'s, and the vertex moves by the blend `Σ wₖ·Sₖ` (weights divided by
//! their sum, never negated; the identity for a rigid joint) before the rigid transform,
//! its normal by the blend's cofactors.
//!
//! ```
//! use skin_host::character::Character;
//! let rig = skin_host::import::from_slice(&Character::new().glb(), None)?;
//! let dqs = skin_host::oracle::pose_dqs(&rig, Some((0, 0.5))).expect("clip 0 exists");
//! let lbs = skin_host::oracle::pose(&rig, Some((0, 0.5))).expect("clip 0 exists");
//! // The character's rigid joints: the two methods agree where one joint moves a vertex,
//! // and ν is at most 1 (the blend of unit quaternions).
//! assert_eq!(dqs.posed.len(), lbs.len());
//! assert!(dqs.least_norm > 0.25 && dqs.least_norm <= 1.0 + 1e-9);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use super::stretch::{cofactors, polar, M3};
use super::{pose_by, PosedPrimitive64};
use crate::rig::world64::M34;
use crate::rig::{Influence4, Primitive, Rig};

/// A frame skinned by dual quaternion skinning in `f64`.
#[derive(Clone, Debug, PartialEq)]
pub struct Dqs64 {
    /// Every (mesh node, primitive), in node order (rigid ones placed by their node).
    pub posed: Vec<PosedPrimitive64>,
    /// The smallest norm `ν` of a skinned vertex's blended real part (1 without skinned
    /// vertices): the fixed lane's error bound grows as it shrinks
    /// (`skin_core::lane::fixed_dual_error_bound`).
    pub least_norm: f64,
}

/// Skin every (mesh node, primitive) of `rig` by dual quaternion skinning at the rest pose
/// or clip `c` at `t` seconds, in node order. `None` when the clip does not exist.
pub fn pose_dqs(rig: &Rig, anim: Option<(usize, f64)>) -> Option<Dqs64> {
    let mut least = f64::INFINITY;
    let posed = pose_by(rig, anim, |prim, palette| {
        let bones: Vec<Bone> = palette.iter().map(Bone::split).collect();
        vertex_matrices(prim, &bones, &mut least)
    })?;
    Some(Dqs64 {
        posed,
        least_norm: if least.is_finite() { least } else { 1.0 },
    })
}

/// A joint's rotation quaternion `[x, y, z, w]` and translation, and its stretch if it
/// has scale or shear.
struct Bone {
    q: [f64; 4],
    t: [f64; 3],
    s: Option<M3>,
}

/// The largest entry of `AᵀA − I` a joint may have and be taken as rigid.
const RIGID: f64 = 1e-6;

impl Bone {
    /// A joint matrix as a bone: split into its rotation and stretch where it has scale or
    /// shear (a joint that cannot be split, mirrored or flattened, keeps the rigid
    /// reading of its matrix: the host refuses it before any comparison).
    fn split(m: &M34) -> Self {
        let a: M3 = std::array::from_fn(|i| [m[i][0], m[i][1], m[i][2]]);
        let gram = |i: usize, j: usize| (0..3).map(|k| a[k][i] * a[k][j]).sum::<f64>();
        let off = (0..9)
            .map(|k| (gram(k / 3, k % 3) - if k % 4 == 0 { 1.0 } else { 0.0 }).abs())
            .fold(0.0, f64::max);
        match polar(&a) {
            Some((r, s)) if off > RIGID => {
                let rigid = std::array::from_fn(|i| [r[i][0], r[i][1], r[i][2], m[i][3]]);
                Bone {
                    s: Some(s),
                    ..Bone::of(&rigid)
                }
            }
            _ => Bone::of(m),
        }
    }

    /// The rotation and translation of a (rigid) joint matrix.
    fn of(m: &M34) -> Self {
        let r = |i: usize, j: usize| m[i][j];
        let trace = r(0, 0) + r(1, 1) + r(2, 2);
        let diag = [
            trace,
            r(0, 0) - r(1, 1) - r(2, 2),
            r(1, 1) - r(0, 0) - r(2, 2),
            r(2, 2) - r(0, 0) - r(1, 1),
        ];
        let big = (1..4).fold(0, |b, k| if diag[k] > diag[b] { k } else { b });
        let s = 2.0 * (1.0 + diag[big]).sqrt();
        let q = match big {
            0 => [
                (r(2, 1) - r(1, 2)) / s,
                (r(0, 2) - r(2, 0)) / s,
                (r(1, 0) - r(0, 1)) / s,
                s / 4.0,
            ],
            1 => [
                s / 4.0,
                (r(0, 1) + r(1, 0)) / s,
                (r(0, 2) + r(2, 0)) / s,
                (r(2, 1) - r(1, 2)) / s,
            ],
            2 => [
                (r(0, 1) + r(1, 0)) / s,
                s / 4.0,
                (r(1, 2) + r(2, 1)) / s,
                (r(0, 2) - r(2, 0)) / s,
            ],
            _ => [
                (r(0, 2) + r(2, 0)) / s,
                (r(1, 2) + r(2, 1)) / s,
                s / 4.0,
                (r(1, 0) - r(0, 1)) / s,
            ],
        };
        let n = q.iter().map(|v| v * v).sum::<f64>().sqrt();
        Bone {
            q: q.map(|v| v / n),
            t: [m[0][3], m[1][3], m[2][3]],
            s: None,
        }
    }
}

/// The Hamilton product `a·b`, `[x, y, z, w]`.
fn quat_mul(a: [f64; 4], b: [f64; 4]) -> [f64; 4] {
    let [ax, ay, az, aw] = a;
    let [bx, by, bz, bw] = b;
    [
        aw * bx + ax * bw + ay * bz - az * by,
        aw * by - ax * bz + ay * bw + az * bx,
        aw * bz + ax * by - ay * bx + az * bw,
        aw * bw - ax * bx - ay * by - az * bz,
    ]
}

/// The conjugate.
fn conj(q: [f64; 4]) -> [f64; 4] {
    [-q[0], -q[1], -q[2], q[3]]
}

/// Each vertex's blended transform as a matrix, and with stretched joints the normals' own
/// matrices; `least` takes the smallest `ν`.
fn vertex_matrices(
    prim: &Primitive,
    bones: &[Bone],
    least: &mut f64,
) -> (Vec<M34>, Option<Vec<M34>>) {
    let (points, normals) = prim
        .influences
        .iter()
        .flatten()
        .map(|inf| {
            let (m, nu) = blend(bones, inf);
            *least = least.min(nu);
            m
        })
        .unzip();
    let stretched = bones.iter().any(|b| b.s.is_some());
    (points, stretched.then_some(normals))
}

/// One vertex's normalised blend as the matrix of its transform (the blended stretch, then
/// the rigid transform) and its normals' matrix (the stretch's cofactors, then the
/// rotation), and `ν`.
fn blend(bones: &[Bone], inf: &Influence4) -> ((M34, M34), f64) {
    let sum: f64 = inf.weights.iter().map(|&w| f64::from(w)).sum();
    let lead = (1..4).fold(0, |m, k| {
        if inf.weights[k] > inf.weights[m] {
            k
        } else {
            m
        }
    });
    let pivot = bones[usize::from(inf.joints[lead])].q;
    let (mut real, mut dual, mut stretch) = ([0.0; 4], [0.0; 4], [[0.0; 3]; 3]);
    for (&j, &w) in inf.joints.iter().zip(&inf.weights) {
        if w == 0.0 {
            continue;
        }
        let Bone { q, t, s } = &bones[usize::from(j)];
        let d = quat_mul([t[0] / 2.0, t[1] / 2.0, t[2] / 2.0, 0.0], *q);
        let dot: f64 = (0..4).map(|k| q[k] * pivot[k]).sum();
        let w = f64::from(w) / sum;
        let s = s.unwrap_or([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]);
        for (row, sr) in stretch.iter_mut().zip(s) {
            for (e, se) in row.iter_mut().zip(sr) {
                *e += w * se;
            }
        }
        let w = w * if dot < 0.0 { -1.0 } else { 1.0 };
        for k in 0..4 {
            real[k] += w * q[k];
            dual[k] += w * d[k];
        }
    }
    let nu = real.iter().map(|v| v * v).sum::<f64>().sqrt();
    let (q, d) = (real.map(|v| v / nu), dual.map(|v| v / nu));
    let t = quat_mul(d, conj(q));
    // The columns: the rotated unit axes; the fourth: the translation 2·vec(d·q*).
    let axes = [
        [1.0, 0.0, 0.0, 0.0],
        [0.0, 1.0, 0.0, 0.0],
        [0.0, 0.0, 1.0, 0.0],
    ]
    .map(|e| quat_mul(quat_mul(q, e), conj(q)));
    let rot: M3 = core::array::from_fn(|r| [axes[0][r], axes[1][r], axes[2][r]]);
    let moved = [2.0 * t[0], 2.0 * t[1], 2.0 * t[2]];
    // `[R·s | translation]`.
    let times = |s: &M3, translation: [f64; 3]| -> M34 {
        core::array::from_fn(|i| {
            let row = |j: usize| (0..3).map(|k| rot[i][k] * s[k][j]).sum::<f64>();
            [row(0), row(1), row(2), translation[i]]
        })
    };
    let point = times(&stretch, moved);
    ((point, times(&cofactors(&stretch), [0.0; 3])), nu)
}
