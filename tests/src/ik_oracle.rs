//! An independent `f64` reference of two-bone IK on a skeleton pose
//! (`skin_core::anim::Limb`), written from its definition without skin-core: rotation
//! matrices, true inverses of the parents' frames, angles by `acos`/`atan2`, axis–angle
//! rotations (Rodrigues), and the swing/twist limit clamped as angles.
//!
//! ```
//! use skin_tests::anim_oracle::Xf;
//! use skin_tests::ik_oracle::{limb, world, Limits};
//! let down = Xf { t: [0.0, -1.0, 0.0], ..Xf::identity() };
//! let pose = vec![Xf::identity(), down, down];
//! let parents = [None, Some(0), Some(1)];
//! let limits = Limits::free();
//! let out = limb(&parents, &pose, &pose, [0, 1, 2], [0.0, -1.5, 0.0], [0.0, -1.0, 1.0], &limits);
//! let end = world(&parents, &out)[2].1;
//! assert!((end[1] + 1.5).abs() < 1e-12 && end[2].abs() < 1e-12);
//! ```

use crate::anim_oracle::{qmul, Xf};
use std::f64::consts::PI;

/// A 3-vector.
pub type V = [f64; 3];
/// A 3×3 matrix, rows.
pub type M = [[f64; 3]; 3];

fn sub(a: V, b: V) -> V {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}
fn add(a: V, b: V) -> V {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}
fn mul(a: V, s: f64) -> V {
    a.map(|v| v * s)
}
/// Dot product.
pub fn dot(a: V, b: V) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}
fn cross(a: V, b: V) -> V {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}
/// Length.
pub fn norm(a: V) -> f64 {
    dot(a, a).sqrt()
}
fn unit(a: V) -> V {
    mul(a, 1.0 / norm(a))
}
fn apply(m: &M, v: V) -> V {
    m.map(|r| dot(r, v))
}
fn matmul(a: &M, b: &M) -> M {
    std::array::from_fn(|i| std::array::from_fn(|j| (0..3).map(|k| a[i][k] * b[k][j]).sum()))
}

/// The rotation matrix of a unit quaternion `[x, y, z, w]`: `v ↦ v + 2w(u×v) + 2u×(u×v)`
/// applied to the basis.
pub fn rotation(q: [f64; 4]) -> M {
    let n = (q.iter().map(|v| v * v).sum::<f64>()).sqrt();
    let q = q.map(|v| v / n);
    let u = [q[0], q[1], q[2]];
    let cols: Vec<V> = (0..3)
        .map(|c| {
            let mut e = [0.0; 3];
            e[c] = 1.0;
            let t = mul(cross(u, e), 2.0);
            add(add(e, mul(t, q[3])), cross(u, t))
        })
        .collect();
    std::array::from_fn(|r| std::array::from_fn(|c| cols[c][r]))
}

/// The inverse of a 3×3 matrix by cofactors.
pub fn inverse(m: &M) -> M {
    let c = |r: usize, k: usize| {
        let (r1, r2, k1, k2) = ((r + 1) % 3, (r + 2) % 3, (k + 1) % 3, (k + 2) % 3);
        m[r1][k1] * m[r2][k2] - m[r1][k2] * m[r2][k1]
    };
    let det: f64 = (0..3).map(|k| m[0][k] * c(0, k)).sum();
    std::array::from_fn(|i| std::array::from_fn(|j| c(j, i) / det))
}

/// Forward kinematics: each joint's world linear part and position.
pub fn world(parents: &[Option<usize>], pose: &[Xf]) -> Vec<(M, V)> {
    let mut out: Vec<(M, V)> = Vec::with_capacity(pose.len());
    for (i, x) in pose.iter().enumerate() {
        let s = x.s;
        let r = rotation(x.q);
        let local: M = std::array::from_fn(|a| std::array::from_fn(|b| r[a][b] * s[b]));
        out.push(match parents[i] {
            None => (local, x.t),
            Some(p) => {
                let (pm, pt) = out[p];
                (matmul(&pm, &local), add(pt, apply(&pm, x.t)))
            }
        });
    }
    out
}

/// The quaternion of a rotation by `angle` about the unit `axis`.
pub fn axis_angle(axis: V, angle: f64) -> [f64; 4] {
    let s = (angle / 2.0).sin();
    [axis[0] * s, axis[1] * s, axis[2] * s, (angle / 2.0).cos()]
}

/// The rotation by the angle between unit `u` and `v` about their common normal (a half
/// turn about any normal for opposite vectors).
fn turn(u: V, v: V) -> [f64; 4] {
    let c = cross(u, v);
    let angle = dot(u, v).clamp(-1.0, 1.0).acos();
    let axis = if norm(c) > 1e-12 {
        unit(c)
    } else {
        let other = if u[0].abs() < 0.5 {
            [1.0, 0.0, 0.0]
        } else {
            [0.0, 1.0, 0.0]
        };
        unit(cross(u, other))
    };
    axis_angle(axis, angle)
}

fn conj(q: [f64; 4]) -> [f64; 4] {
    [-q[0], -q[1], -q[2], q[3]]
}

/// A ball joint's offset `o` (from its rest rotation) as swing angle, swing axis and twist
/// angle about the unit `axis`: `o = swing·twist`.
pub fn swing_twist(o: [f64; 4], axis: V) -> (f64, V, f64) {
    let along = dot([o[0], o[1], o[2]], axis);
    let twist = 2.0 * along.atan2(o[3]);
    // Twist angle in (−π, π].
    let twist = if twist > PI {
        twist - 2.0 * PI
    } else if twist <= -PI {
        twist + 2.0 * PI
    } else {
        twist
    };
    let swing = qmul(o, conj(axis_angle(axis, twist)));
    let v = [swing[0], swing[1], swing[2]];
    let angle = 2.0 * norm(v).atan2(swing[3].abs());
    let dir = if norm(v) > 1e-15 {
        mul(unit(v), swing[3].signum())
    } else {
        [0.0; 3]
    };
    (angle, dir, twist)
}

/// The joint limits of a limb: the mid joint's bend range and the root's swing and twist.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Bend range of the mid joint, radians (0: straight).
    pub bend: (f64, f64),
    /// The root's largest swing, radians.
    pub swing: f64,
    /// The root's twist range, radians.
    pub twist: (f64, f64),
}

impl Limits {
    /// No limits.
    pub fn free() -> Self {
        Self {
            bend: (0.0, PI),
            swing: PI,
            twist: (-PI, PI),
        }
    }
}

/// `q` within the swing/twist limit from `rest` about `axis`; `q` itself when within.
pub fn clamp_swing_twist(
    rest: [f64; 4],
    axis: V,
    q: [f64; 4],
    swing_max: f64,
    twist: (f64, f64),
) -> [f64; 4] {
    let (angle, dir, phi) = swing_twist(qmul(conj(rest), q), axis);
    if angle <= swing_max && phi >= twist.0 && phi <= twist.1 {
        return q;
    }
    let phi = phi.clamp(twist.0, twist.1);
    let angle = angle.min(swing_max);
    qmul(rest, qmul(axis_angle(dir, angle), axis_angle(axis, phi)))
}

/// The pose with the chain `[root, mid, end]` bent so that its end reaches `target` (full
/// weight, no softening), its mid joint towards `pole`; `rest` gives the root's rest
/// rotation and upper bone for its limit.
pub fn limb(
    parents: &[Option<usize>],
    rest: &[Xf],
    pose: &[Xf],
    [root, mid, end]: [usize; 3],
    target: V,
    pole: V,
    limits: &Limits,
) -> Vec<Xf> {
    let w = world(parents, pose);
    let (p_root, p_mid, p_end) = (w[root].1, w[mid].1, w[end].1);
    let (l1, l2) = (norm(sub(p_mid, p_root)), norm(sub(p_end, p_mid)));
    // Law of cosines: the distances the bend range allows, the root angle.
    let dist = |bend: f64| (l1 * l1 + l2 * l2 + 2.0 * l1 * l2 * bend.cos()).sqrt();
    let d = norm(sub(target, p_root)).clamp(dist(limits.bend.1), dist(limits.bend.0));
    let dir = unit(sub(target, p_root));
    let rel = sub(pole, p_root);
    let side = unit(sub(rel, mul(dir, dot(rel, dir))));
    let alpha = ((l1 * l1 + d * d - l2 * l2) / (2.0 * l1 * d))
        .clamp(-1.0, 1.0)
        .acos();
    let mid_goal = add(
        p_root,
        mul(add(mul(dir, alpha.cos()), mul(side, alpha.sin())), l1),
    );
    let end_goal = add(p_root, mul(dir, d));

    let mut out = pose.to_vec();
    let parent = parents[root].map(|p| w[p].0).unwrap_or([
        [1.0, 0.0, 0.0],
        [0.0, 1.0, 0.0],
        [0.0, 0.0, 1.0],
    ]);
    let inv = inverse(&parent);
    let u = unit(apply(&inv, sub(p_mid, p_root)));
    let v = unit(apply(&inv, sub(mid_goal, p_root)));
    let q = qmul(turn(u, v), pose[root].q);
    out[root].q = clamp_swing_twist(
        rest[root].q,
        unit(rest[mid].t),
        q,
        limits.swing,
        limits.twist,
    );

    let w = world(parents, &out);
    let (root_m, mid_now) = (w[root].0, w[mid].1);
    let wanted = unit(apply(&inverse(&root_m), sub(end_goal, mid_now)));
    let upper = unit(out[mid].t);
    let bend = dot(upper, wanted).clamp(-1.0, 1.0).acos();
    let held = bend.clamp(limits.bend.0, limits.bend.1);
    let wanted = if held == bend {
        wanted
    } else {
        let across = unit(sub(wanted, mul(upper, dot(upper, wanted))));
        add(mul(upper, held.cos()), mul(across, held.sin()))
    };
    let lower = unit(apply(
        &rotation(out[mid].q),
        [
            out[end].t[0] * out[mid].s[0],
            out[end].t[1] * out[mid].s[1],
            out[end].t[2] * out[mid].s[2],
        ],
    ));
    out[mid].q = qmul(turn(lower, wanted), pose[mid].q);
    out
}
