//! An independent `f64` reference of the animation layer's blend, written from its
//! definition (`skin_core::anim::Blend`'s docs) without skin-core.
//!
//! A transform is `(t, q, s)` with glTF-ordered quaternions `[x, y, z, w]`.
//!
//! ```
//! use skin_tests::anim_oracle::{blend, Pose, Xf};
//! let rest: Pose = vec![Xf::identity()];
//! let mut a = rest.clone();
//! a[0].t = [2.0, 0.0, 0.0];
//! let out = blend(&rest, &[(a, 1.0, None)], &[]);
//! assert_eq!(out[0].t, [2.0, 0.0, 0.0]);
//! ```

/// A local transform in `f64`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Xf {
    /// Translation.
    pub t: [f64; 3],
    /// Rotation, `[x, y, z, w]`.
    pub q: [f64; 4],
    /// Scale.
    pub s: [f64; 3],
}

impl Xf {
    /// No translation, rotation or scale.
    pub fn identity() -> Self {
        Self {
            t: [0.0; 3],
            q: [0.0, 0.0, 0.0, 1.0],
            s: [1.0; 3],
        }
    }
}

/// One transform per joint.
pub type Pose = Vec<Xf>;

/// A blended layer: pose, weight, optional per-joint mask.
pub type Layer = (Pose, f64, Option<Vec<f64>>);

/// An additive layer: pose, reference pose, weight, optional mask.
pub type AdditiveLayer = (Pose, Pose, f64, Option<Vec<f64>>);

/// The rest pose's weight threshold of the blend.
pub const THRESHOLD: f64 = 0.1;

fn dot4(a: [f64; 4], b: [f64; 4]) -> f64 {
    (0..4).map(|i| a[i] * b[i]).sum()
}

fn unit(q: [f64; 4]) -> [f64; 4] {
    let n = dot4(q, q).sqrt();
    q.map(|v| v / n)
}

/// The Hamilton product in scalar–vector form: `(a_w b_w − a·b, a_w b + b_w a + a × b)`.
pub fn qmul(a: [f64; 4], b: [f64; 4]) -> [f64; 4] {
    let (av, bv) = ([a[0], a[1], a[2]], [b[0], b[1], b[2]]);
    let cross = [
        av[1] * bv[2] - av[2] * bv[1],
        av[2] * bv[0] - av[0] * bv[2],
        av[0] * bv[1] - av[1] * bv[0],
    ];
    let d = av[0] * bv[0] + av[1] * bv[1] + av[2] * bv[2];
    let v: Vec<f64> = (0..3)
        .map(|i| a[3] * bv[i] + b[3] * av[i] + cross[i])
        .collect();
    [v[0], v[1], v[2], a[3] * b[3] - d]
}

/// The smallest |dot| of a hemisphere decision the blend of `joint` makes: a result is
/// only comparable across precisions when no decision is within rounding of a tie.
pub fn alignment_margin(rest: &[Xf], layers: &[Layer], joint: usize) -> f64 {
    let (weights, rest_w) = weights(layers, joint);
    let mut sum = rest[joint].q.map(|v| v * rest_w);
    let mut margin = f64::INFINITY;
    for ((pose, ..), w) in layers.iter().zip(weights) {
        let q = pose[joint].q;
        let d = dot4(sum, q);
        if dot4(sum, sum) > 0.0 && w > 0.0 {
            margin = margin.min(d.abs());
        }
        let sign = if d < 0.0 { -1.0 } else { 1.0 };
        for i in 0..4 {
            sum[i] += sign * w * q[i];
        }
    }
    margin
}

/// Normalised layer weights at `joint` and the rest pose's.
fn weights(layers: &[Layer], joint: usize) -> (Vec<f64>, f64) {
    let raw: Vec<f64> = layers
        .iter()
        .map(|(_, w, m)| w * m.as_ref().map_or(1.0, |m| m[joint]))
        .collect();
    let total: f64 = raw.iter().sum();
    let rest = (THRESHOLD - total).max(0.0);
    let all = total + rest;
    (raw.iter().map(|w| w / all).collect(), rest / all)
}

/// The blend of `layers` over `rest`, then `additive` on top.
pub fn blend(rest: &[Xf], layers: &[Layer], additive: &[AdditiveLayer]) -> Pose {
    (0..rest.len())
        .map(|j| {
            let (weights, rest_w) = weights(layers, j);
            let r = rest[j];
            let mut out = Xf {
                t: r.t.map(|v| v * rest_w),
                q: r.q.map(|v| v * rest_w),
                s: r.s.map(|v| v * rest_w),
            };
            for ((pose, ..), w) in layers.iter().zip(weights) {
                let x = pose[j];
                let sign = if dot4(out.q, x.q) < 0.0 { -1.0 } else { 1.0 };
                for i in 0..3 {
                    out.t[i] += w * x.t[i];
                    out.s[i] += w * x.s[i];
                }
                for i in 0..4 {
                    out.q[i] += sign * w * x.q[i];
                }
            }
            out.q = unit(out.q);
            for (pose, reference, w, mask) in additive {
                let w = w * mask.as_ref().map_or(1.0, |m| m[j]);
                let (p, r) = (pose[j], reference[j]);
                let inverse = [-r.q[0], -r.q[1], -r.q[2], r.q[3]];
                let mut delta = qmul(inverse, p.q);
                if delta[3] < 0.0 {
                    delta = delta.map(|v| -v);
                }
                let step = unit([
                    w * delta[0],
                    w * delta[1],
                    w * delta[2],
                    (1.0 - w) + w * delta[3],
                ]);
                out.q = qmul(out.q, step);
                for i in 0..3 {
                    out.t[i] += w * (p.t[i] - r.t[i]);
                    out.s[i] += w * (p.s[i] - r.s[i]);
                }
            }
            out.q = unit(out.q);
            out
        })
        .collect()
}
