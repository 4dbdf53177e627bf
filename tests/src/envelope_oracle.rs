//! Envelope weights in `f64`, written from the definition independently of
//! `skin_core::envelope`: the closest point of the segment by minimising the squared
//! distance over the parameter, the smoothstep falloff, per-joint maxima, a full sort, the
//! four largest kept and normalised.

/// One capsule: joint, segment ends, inner and outer radius (the core's `f32` inputs,
/// widened).
#[derive(Clone, Copy, Debug)]
pub struct Capsule64 {
    /// Joint.
    pub joint: u16,
    /// Segment start.
    pub head: [f64; 3],
    /// Segment end.
    pub tail: [f64; 3],
    /// Inner radius.
    pub inner: f64,
    /// Outer radius.
    pub outer: f64,
}

/// Distance from `p` to the segment of `c`.
pub fn distance(c: &Capsule64, p: [f64; 3]) -> f64 {
    // |p − (h + t·u)|² = |w|² − 2t·(w·u) + t²|u|², minimal at t = (w·u)/|u|², clamped.
    let u: Vec<f64> = (0..3).map(|i| c.tail[i] - c.head[i]).collect();
    let w: Vec<f64> = (0..3).map(|i| p[i] - c.head[i]).collect();
    let uu: f64 = u.iter().map(|x| x * x).sum();
    let wu: f64 = w.iter().zip(&u).map(|(a, b)| a * b).sum();
    let t = if uu == 0.0 {
        0.0
    } else {
        (wu / uu).clamp(0.0, 1.0)
    };
    (0..3)
        .map(|i| (w[i] - t * u[i]).powi(2))
        .sum::<f64>()
        .sqrt()
}

/// The raw influence of `c` at `p`.
pub fn influence(c: &Capsule64, p: [f64; 3]) -> f64 {
    let d = distance(c, p);
    let x = ((d - c.inner) / (c.outer - c.inner)).clamp(0.0, 1.0);
    1.0 - (3.0 * x * x - 2.0 * x * x * x)
}

/// The oracle's answer for one point.
#[derive(Clone, Debug)]
pub struct Weights64 {
    /// Every joint's raw influence (largest over its capsules), sorted largest first (equal:
    /// smaller joint first), zero ones left out.
    pub raw: Vec<(u16, f64)>,
    /// The kept joints' normalised weights, largest first.
    pub kept: Vec<(u16, f64)>,
    /// The share of the total dropped.
    pub dropped: f64,
    /// The joint whose outer radius is nearest (for a point no envelope reaches).
    pub nearest: u16,
}

/// Weigh `p` by `capsules`.
pub fn weigh(capsules: &[Capsule64], p: [f64; 3]) -> Weights64 {
    let mut by_joint = std::collections::BTreeMap::<u16, f64>::new();
    let mut nearest = (f64::INFINITY, 0u16);
    for c in capsules {
        let r = influence(c, p);
        let e = by_joint.entry(c.joint).or_insert(0.0);
        *e = e.max(r);
        let beyond = distance(c, p) - c.outer;
        if beyond < nearest.0 {
            nearest = (beyond, c.joint);
        }
    }
    let mut raw: Vec<(u16, f64)> = by_joint.into_iter().filter(|&(_, r)| r > 0.0).collect();
    raw.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    let total: f64 = raw.iter().map(|x| x.1).sum();
    let kept_sum: f64 = raw.iter().take(4).map(|x| x.1).sum();
    let kept = raw
        .iter()
        .take(4)
        .map(|&(j, r)| (j, r / kept_sum))
        .collect();
    Weights64 {
        dropped: if total > 0.0 {
            (total - kept_sum) / total
        } else {
            0.0
        },
        raw,
        kept,
        nearest: nearest.1,
    }
}
