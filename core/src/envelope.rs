//! Envelope weights: bone influences from proximity, for meshes that have none.
//!
//! Each bone's envelope is a [`Capsule`]: the points within `inner` of a segment (the bone,
//! head to tail) get its full influence 1, the points beyond `outer` none, and between the
//! two the influence fades smoothly, `1 − s(t)` with `t = (d − inner)/(outer − inner)` and
//! the smoothstep `s(t) = t²(3 − 2t)`, whose slope is zero at both radii, so weights have no
//! kinks where an envelope starts or ends. A joint may have several capsules (one towards
//! each child); its influence is the largest of theirs.
//!
//! [`Envelopes::weigh`] keeps the [`MAX_KEPT`] largest influences of a vertex, normalises
//! them to sum to one, and reports the share of the total it dropped ([`Weights::dropped`]).
//! A vertex outside every envelope follows the joint whose outer radius it is nearest,
//! with weight 1, and says so ([`Weights::outside`]).
//!
//! # Accuracy
//!
//! The arithmetic is `f32` (weights are computed once, on the host or at start-up; the
//! skinning lanes take them from there). With `ε = 2⁻²⁴`, the distance from `p` to the
//! segment `a–b` is within `δd = 16ε·(|p − a| + |b − a|)` of the exact one for the same
//! `f32` inputs (a subtraction, a projection parameter with a dot product over a dot product,
//! a clamped point on the segment and a norm: each a few roundings of quantities bounded by
//! those two lengths). The smoothstep's slope is at most 3/2, so a raw influence is within
//! `δr = 1.5·(δd + 4ε·(d + outer))/(outer − inner) + 8ε` (the division and the polynomial add
//! a few roundings of values ≤ 1). Normalising by the kept sum `S` then gives each weight
//! within `(k + 1)·δr/S` for `k` kept influences. [`distance_error_bound`] and
//! [`influence_error_bound`] compute these; the tests hold the loop to them against an `f64`
//! implementation.
//!
//! ```
//! use skin_core::envelope::{Capsule, Envelopes, Radii};
//! let radii = Radii::new(0.1, 0.5).unwrap();
//! // An upper arm along X from the origin and a forearm from x = 1.
//! let capsules = [
//!     Capsule::new(0, [0.0; 3], [1.0, 0.0, 0.0], radii).unwrap(),
//!     Capsule::new(1, [1.0, 0.0, 0.0], [2.0, 0.0, 0.0], radii).unwrap(),
//! ];
//! let envelopes = Envelopes::new(&capsules).unwrap();
//! // On the upper arm, away from the elbow: only joint 0.
//! let w = envelopes.weigh([0.3, 0.05, 0.0]);
//! assert_eq!((w.joints[0], w.weights[0]), (0, 1.0));
//! // At the elbow both bones count equally.
//! let w = envelopes.weigh([1.0, 0.3, 0.0]);
//! assert!((w.weights[0] - 0.5).abs() < 1e-6 && (w.weights[1] - 0.5).abs() < 1e-6);
//! // Radii must be positive, the outer beyond the inner.
//! assert!(Radii::new(0.5, 0.1).is_err());
//! ```

use core::fmt;

/// The most influences a vertex keeps: the four that skinning reads.
pub const MAX_KEPT: usize = 4;

const EPS: f32 = f32::EPSILON / 2.0;

/// What is wrong with an envelope.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum EnvelopeError {
    /// The radii are not `0 < inner < outer` (or not finite).
    Radii {
        /// The inner radius.
        inner: f32,
        /// The outer radius.
        outer: f32,
    },
    /// A capsule's end point is not finite.
    Point {
        /// The capsule's joint.
        joint: u16,
    },
    /// There are no capsules at all.
    Empty,
    /// A joint's capsules are not next to each other: capsule `index` (of `joint`) follows
    /// one of a larger joint.
    Order {
        /// The capsule.
        index: usize,
        /// Its joint.
        joint: u16,
    },
}

impl fmt::Display for EnvelopeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::Radii { inner, outer } => write!(
                f,
                "envelope radii inner {inner} and outer {outer}: they must be finite with 0 < inner < outer"
            ),
            Self::Point { joint } => {
                write!(f, "the envelope of joint {joint} has a non-finite end point")
            }
            Self::Empty => write!(f, "no envelopes: at least one capsule is needed"),
            Self::Order { index, joint } => write!(
                f,
                "envelope capsule {index} (joint {joint}) follows one of a larger joint: capsules must be sorted by joint"
            ),
        }
    }
}

impl core::error::Error for EnvelopeError {}

/// The two radii of an envelope, `0 < inner < outer`, both finite.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Radii {
    inner: f32,
    outer: f32,
}

impl Radii {
    /// Radii, checked: finite, `0 < inner < outer`.
    pub fn new(inner: f32, outer: f32) -> Result<Self, EnvelopeError> {
        if inner.is_finite() && outer.is_finite() && inner > 0.0 && outer > inner {
            Ok(Self { inner, outer })
        } else {
            Err(EnvelopeError::Radii { inner, outer })
        }
    }

    /// The radius of full influence.
    pub fn inner(&self) -> f32 {
        self.inner
    }

    /// The radius beyond which there is no influence.
    pub fn outer(&self) -> f32 {
        self.outer
    }

    /// The influence at distance `d`: 1 within `inner`, 0 beyond `outer`, the smoothstep
    /// fall between.
    pub fn falloff(&self, d: f32) -> f32 {
        if d <= self.inner {
            1.0
        } else if d >= self.outer {
            0.0
        } else {
            let t = (d - self.inner) / (self.outer - self.inner);
            1.0 - t * t * (3.0 - 2.0 * t)
        }
    }
}

/// One envelope: the segment `head`–`tail` of a joint's bone with its radii (`head ==
/// tail` makes it a sphere).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Capsule {
    joint: u16,
    head: [f32; 3],
    tail: [f32; 3],
    radii: Radii,
}

fn sub(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn dot(a: [f32; 3], b: [f32; 3]) -> f32 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn norm(a: [f32; 3]) -> f32 {
    libm::sqrtf(dot(a, a))
}

impl Capsule {
    /// The capsule of `joint` around `head`–`tail`; the points must be finite.
    pub fn new(
        joint: u16,
        head: [f32; 3],
        tail: [f32; 3],
        radii: Radii,
    ) -> Result<Self, EnvelopeError> {
        if head.iter().chain(&tail).all(|v| v.is_finite()) {
            Ok(Self {
                joint,
                head,
                tail,
                radii,
            })
        } else {
            Err(EnvelopeError::Point { joint })
        }
    }

    /// The joint whose influence this is.
    pub fn joint(&self) -> u16 {
        self.joint
    }

    /// The bone's segment, head and tail.
    pub fn segment(&self) -> ([f32; 3], [f32; 3]) {
        (self.head, self.tail)
    }

    /// The radii.
    pub fn radii(&self) -> Radii {
        self.radii
    }

    /// The distance from `p` to the segment.
    pub fn distance(&self, p: [f32; 3]) -> f32 {
        let ab = sub(self.tail, self.head);
        let ap = sub(p, self.head);
        let len2 = dot(ab, ab);
        let t = if len2 > 0.0 {
            (dot(ap, ab) / len2).clamp(0.0, 1.0)
        } else {
            0.0
        };
        norm([ap[0] - t * ab[0], ap[1] - t * ab[1], ap[2] - t * ab[2]])
    }

    /// The raw influence at `p`, in `[0, 1]`.
    pub fn influence(&self, p: [f32; 3]) -> f32 {
        self.radii.falloff(self.distance(p))
    }
}

/// The bound on [`Capsule::distance`]'s error for the point `p` (see the module docs).
pub fn distance_error_bound(capsule: &Capsule, p: [f32; 3]) -> f32 {
    let (a, b) = capsule.segment();
    16.0 * EPS * (norm(sub(p, a)) + norm(sub(b, a)))
}

/// The bound on [`Capsule::influence`]'s error for the point `p` (see the module docs).
pub fn influence_error_bound(capsule: &Capsule, p: [f32; 3]) -> f32 {
    let r = capsule.radii();
    let d = capsule.distance(p);
    1.5 * (distance_error_bound(capsule, p) + 4.0 * EPS * (d + r.outer)) / (r.outer - r.inner)
        + 8.0 * EPS
}

/// The influences of one vertex: up to [`MAX_KEPT`] joints, largest weight first (equal
/// weights: smaller joint first), weights summing to one; unused slots have weight 0 and
/// joint 0 (as glTF asks of unused slots).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weights {
    /// The joints.
    pub joints: [u16; MAX_KEPT],
    /// Their weights.
    pub weights: [f32; MAX_KEPT],
    /// The share of the total raw influence on the vertex that was not kept (0 when at most
    /// four joints reach it).
    pub dropped: f32,
    /// `true` when no envelope reaches the vertex: it follows the nearest one alone.
    pub outside: bool,
}

/// A validated set of capsules, each joint's next to each other (sorted by joint).
#[derive(Clone, Copy, Debug)]
pub struct Envelopes<'a> {
    capsules: &'a [Capsule],
}

impl<'a> Envelopes<'a> {
    /// Check that there is at least one capsule and that they are sorted by joint.
    pub fn new(capsules: &'a [Capsule]) -> Result<Self, EnvelopeError> {
        if capsules.is_empty() {
            return Err(EnvelopeError::Empty);
        }
        for (index, w) in capsules.windows(2).enumerate() {
            if w[1].joint < w[0].joint {
                return Err(EnvelopeError::Order {
                    index: index + 1,
                    joint: w[1].joint,
                });
            }
        }
        Ok(Self { capsules })
    }

    /// The capsules.
    pub fn capsules(&self) -> &'a [Capsule] {
        self.capsules
    }

    /// The influences of the point `p` (see the module docs).
    pub fn weigh(&self, p: [f32; 3]) -> Weights {
        let mut joints = [0u16; MAX_KEPT];
        let mut raw = [0.0f32; MAX_KEPT];
        let mut total = 0.0f32;
        let mut nearest = (f32::INFINITY, self.capsules[0].joint);
        let mut at = 0;
        while at < self.capsules.len() {
            // One joint: the largest influence of its capsules.
            let joint = self.capsules[at].joint;
            let mut r = 0.0f32;
            while at < self.capsules.len() && self.capsules[at].joint == joint {
                let c = &self.capsules[at];
                let d = c.distance(p);
                r = r.max(c.radii.falloff(d));
                let beyond = d - c.radii.outer;
                if beyond < nearest.0 {
                    nearest = (beyond, joint);
                }
                at += 1;
            }
            if r > 0.0 {
                total += r;
                insert(&mut joints, &mut raw, joint, r);
            }
        }
        let kept: f32 = raw.iter().sum();
        if kept == 0.0 {
            return Weights {
                joints: [nearest.1, 0, 0, 0],
                weights: [1.0, 0.0, 0.0, 0.0],
                dropped: 0.0,
                outside: true,
            };
        }
        Weights {
            joints,
            weights: raw.map(|r| r / kept),
            dropped: ((total - kept) / total).max(0.0),
            outside: false,
        }
    }
}

/// Insert `(joint, r)` into the list kept largest first (equal: smaller joint first),
/// pushing the smallest out when full. Joints arrive in increasing order, so an equal raw
/// value goes after the ones already there.
fn insert(joints: &mut [u16; MAX_KEPT], raw: &mut [f32; MAX_KEPT], joint: u16, r: f32) {
    if r <= raw[MAX_KEPT - 1] {
        return;
    }
    let mut i = MAX_KEPT - 1;
    while i > 0 && raw[i - 1] < r {
        raw[i] = raw[i - 1];
        joints[i] = joints[i - 1];
        i -= 1;
    }
    raw[i] = r;
    joints[i] = joint;
}
