//! Vectors and rotations between directions: the small geometry the solvers share.

use crate::affine::Affine;
use crate::num::Real;
use crate::quat::Quat;

/// A point or direction.
pub type Vec3<R> = [R; 3];

pub(super) fn sub<R: Real>(a: Vec3<R>, b: Vec3<R>) -> Vec3<R> {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

pub(super) fn add<R: Real>(a: Vec3<R>, b: Vec3<R>) -> Vec3<R> {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

// The anim layer's vectors are points within `ik::coordinate_limit` (2 in fixed point),
// their differences, directions, cosines and lengths: every product below is of factors
// whose magnitudes sum below 127, where `Real::times_small` is `Real::times`'s value from
// 32-bit sums (on a Cortex-M0 no 64-bit additions).

pub(super) fn scale<R: Real>(a: Vec3<R>, s: R) -> Vec3<R> {
    a.map(|v| v.times_small(s))
}

/// Component-wise products (a translation in its parent's scaled frame).
pub(super) fn times<R: Real>(a: Vec3<R>, b: Vec3<R>) -> Vec3<R> {
    [
        a[0].times_small(b[0]),
        a[1].times_small(b[1]),
        a[2].times_small(b[2]),
    ]
}

pub(super) fn dot<R: Real>(a: Vec3<R>, b: Vec3<R>) -> R {
    a[0].times_small(b[0]) + a[1].times_small(b[1]) + a[2].times_small(b[2])
}

pub(super) fn cross<R: Real>(a: Vec3<R>, b: Vec3<R>) -> Vec3<R> {
    [
        a[1].times_small(b[2]) - a[2].times_small(b[1]),
        a[2].times_small(b[0]) - a[0].times_small(b[2]),
        a[0].times_small(b[1]) - a[1].times_small(b[0]),
    ]
}

/// `a` scaled to unit length, or `None` when it has no length to speak of
/// ([`Real::unit_vector`]: shorter than [`Real::EPSILON`] in `f32`; in fixed point every
/// coordinate below it, the result on the `Q15` grid).
pub(super) fn unit<R: Real>(a: Vec3<R>) -> Option<Vec3<R>> {
    R::unit_vector(a)
}

/// Whether a squared length `len2` is of a length of at least [`Real::EPSILON`]: compared
/// squared, so that no square root is taken to tell (in fixed point, where the square root
/// rounds down, exactly the same test).
pub(super) fn long_enough<R: Real>(len2: R) -> bool {
    len2 >= R::EPSILON.times(R::EPSILON)
}

/// `q` scaled to unit length ([`Quat::normalize`] by [`Real::recip_sqrt`]): the identity
/// when it is shorter than [`Real::EPSILON`].
#[cfg_attr(not(skin_v6m), inline(always))]
pub(super) fn normalized<R: Real>(q: Quat<R>) -> Quat<R> {
    // Components within 2 (unit quaternions' sums and products, shortest arcs):
    // `Real::times_small`, the same values as `Quat::dot` and `Quat::scale`.
    let len2 = q.dot_small(q);
    if !long_enough(len2) {
        return Quat::IDENTITY;
    }
    if len2 < R::EPSILON {
        // Shorter than 2⁻⁶ in fixed point (a shortest arc between nearly opposite vectors
        // times a rotation), where `1/|q|` would leave `I8F24`'s range (`recip_sqrt`
        // saturates below 2⁻¹⁴, and the quaternion came out far from unit length): scaled
        // by 64 first, exactly, so that its squared length is at least 2⁻¹².
        let big = q.scale_small(R::from_f32(64.0).unwrap_or(R::ONE));
        return big.scale_small(big.dot_small(big).recip_sqrt());
    }
    q.scale_small(len2.recip_sqrt())
}

/// A unit vector perpendicular to the unit vector `a`.
pub(super) fn perpendicular<R: Real>(a: Vec3<R>) -> Vec3<R> {
    let other = if a[0].abs() < R::HALF {
        [R::ONE, R::ZERO, R::ZERO]
    } else {
        [R::ZERO, R::ONE, R::ZERO]
    };
    unit(cross(a, other)).unwrap_or(other)
}

/// `v` rotated by the unit quaternion `q` ([`crate::num::rotate`]: `q`'s components as the
/// lane's unit scalar, each of the fifteen products [`Real::times_unit`]).
pub(super) fn rotate<R: Real>(q: Quat<R>, v: Vec3<R>) -> Vec3<R> {
    crate::num::rotate([q.x, q.y, q.z, q.w], v)
}

/// The unit vector `v` rotated by the unit quaternion `q` ([`Real::rotate_unit`]: in fixed
/// point `Q15` throughout, 32-bit products; in `f32` [`rotate`]'s products).
pub(super) fn rotate_unit<R: Real>(q: Quat<R>, v: Vec3<R>) -> Vec3<R> {
    R::rotate_unit([q.x, q.y, q.z, q.w], v)
}

/// The Hamilton product `a · q` of a quaternion `a` (components within 2: a shortest arc, a
/// roll) and a unit quaternion `q` ([`crate::num::product`]: `q`'s components as the lane's
/// unit scalar, each product [`Real::times_unit`]; in `f32` [`Quat::hamilton`]'s sums, bit
/// for bit).
pub(super) fn then<R: Real>(a: Quat<R>, q: Quat<R>) -> Quat<R> {
    let [x, y, z, w] = crate::num::product([a.x, a.y, a.z, a.w], [q.x, q.y, q.z, q.w]);
    Quat { x, y, z, w }
}

/// The unit quaternion `q` turned by the shortest arc from the unit vector `from`, the unit
/// vector `v` rotated by `q` ([`rotate_unit`]), to the unit vector `to` ([`arc`], about a
/// [`perpendicular`] of `from` where they are opposite), normalised: a joint's rotation
/// turned so that its bone `v` points along `to`. [`Real::fast_turn`] where the lane has
/// it (fixed point: `Q15`, 32-bit products, `q` converted once for both steps), else
/// `normalized(then(arc(from, to, …), q))` (`f32`, bit for bit as those steps).
#[inline(always)]
pub(super) fn turn<R: Real>(q: Quat<R>, v: Vec3<R>, to: Vec3<R>) -> Quat<R> {
    match R::fast_turn([q.x, q.y, q.z, q.w], v, to) {
        Ok([x, y, z, w]) => Quat { x, y, z, w },
        Err(from) => normalized(then(arc(from, to, || perpendicular(from)), q)),
    }
}

/// [`turn`] to the unit vector `w` in the frame of the unit quaternion `p` (to
/// `rotate_unit(p.conjugate(), w)`): [`Real::fast_turn_in`] where the lane has it (fixed
/// point: `w`'s rotation in `Q15` too), else the general steps (`f32`, bit for bit as
/// those).
#[inline(always)]
pub(super) fn turn_in<R: Real>(q: Quat<R>, v: Vec3<R>, p: Quat<R>, w: Vec3<R>) -> Quat<R> {
    match R::fast_turn_in([q.x, q.y, q.z, q.w], v, [p.x, p.y, p.z, p.w], w) {
        Ok([x, y, z, w]) => Quat { x, y, z, w },
        Err([from, to]) => normalized(then(arc(from, to, || perpendicular(from)), q)),
    }
}

/// The unit direction of the world vector `v` in the frame of `m` ([`unit_in`] of `v`
/// scaled to unit length first, so that nothing leaves fixed point), or `None` for a
/// vector without length.
pub(super) fn direction_in<R: Real>(m: &Affine<R>, v: Vec3<R>) -> Option<Vec3<R>> {
    unit(v).and_then(|v| unit_in(m, v))
}

/// The unit direction of the unit world vector `u` in the frame of `m` ([`direction_in`]
/// of a vector already of unit length: one normalisation, not two): [`transposed`],
/// normalised. For a rotation times a uniform scale (the frames of skeletons whose scales
/// are uniform) that product is the inverse's direction, scaled, with no division.
pub(super) fn unit_in<R: Real>(m: &Affine<R>, u: Vec3<R>) -> Option<Vec3<R>> {
    unit(transposed(m, u))
}

/// The unit world vector `u` in the frame of `m` whose linear part is a rotation times the
/// uniform scale `1/recip_scale`: [`transposed`] times `recip_scale` (of unit length to the
/// rounding, without [`unit_in`]'s normalisation).
pub(super) fn in_frame<R: Real>(m: &Affine<R>, u: Vec3<R>, recip_scale: R) -> Vec3<R> {
    scale(transposed(m, u), recip_scale)
}

/// The unit vector `u` times the transpose of `m`'s linear part, `u`'s components as the
/// lane's unit scalar ([`Real::to_unit`]: `Q15` in fixed point, so that each of the nine
/// products is [`Real::times_unit`]; in `f32` plain products).
#[inline(always)]
fn transposed<R: Real>(m: &Affine<R>, u: Vec3<R>) -> Vec3<R> {
    let r = &m.rows;
    let [x, y, z] = u.map(R::to_unit);
    core::array::from_fn(|c| r[0][c].times_unit(x) + r[1][c].times_unit(y) + r[2][c].times_unit(z))
}

/// `1 + a·b` for unit vectors, as `|a + b|² / 2`: accurate to rounding relative to itself
/// where `a` and `b` are nearly opposite (where `1 + a·b` would keep only the rounding of
/// the dot product).
fn one_plus_dot<R: Real>(a: Vec3<R>, b: Vec3<R>) -> R {
    let h = add(a, b);
    dot(h, h).times_small(R::HALF)
}

/// The shortest rotation taking the unit vector `from` to the unit vector `to`, not
/// normalised: `(from × to, 1 + from·to)`, of length `√(2(1 + from·to))` (callers
/// normalise once, after their product with it); only vectors opposite to within rounding
/// (that length below [`Real::EPSILON`]) take the half turn about `fallback()` (a unit
/// vector perpendicular to `from`, worked out only then).
#[cfg_attr(not(skin_v6m), inline(always))]
pub(super) fn arc<R: Real>(
    from: Vec3<R>,
    to: Vec3<R>,
    fallback: impl FnOnce() -> Vec3<R>,
) -> Quat<R> {
    let [x, y, z] = cross(from, to);
    let q = Quat {
        x,
        y,
        z,
        w: one_plus_dot(from, to),
    };
    // Components within 2: the squared length from `Real::times_small` (32-bit sums in
    // fixed point), the same value as `Quat::dot`'s.
    if !long_enough(q.dot_small(q)) {
        let [x, y, z] = fallback();
        return Quat {
            x,
            y,
            z,
            w: R::ZERO,
        };
    }
    q
}

/// The rotation about the unit `axis` taking the unit vector `from` to the unit vector `to`,
/// both across the axis: `(axis·sin φ, 1 + cos φ)` normalised, `sin φ = axis·(from × to)`;
/// the axis stays exact even where `from` and `to` are nearly opposite (there a shortest arc's
/// axis, `from × to` scaled up, is not). A half turn when they are opposite.
pub(super) fn roll<R: Real>(from: Vec3<R>, to: Vec3<R>, axis: Vec3<R>) -> Quat<R> {
    // The half angle's sine and cosine from `(sin φ, 1 + cos φ)`, normalised before they
    // scale the axis: near a half turn both are tiny, and scaling the axis by a tiny sine
    // first would round its direction away in the fixed lane.
    let (s, c) = (dot(axis, cross(from, to)), one_plus_dot(from, to));
    let n2 = s * s + c * c;
    let (s, c) = if long_enough(n2) {
        let r = n2.recip_sqrt();
        (s.times(r), c.times(r))
    } else {
        (R::ONE, R::ZERO)
    };
    let [x, y, z] = scale(axis, s);
    Quat { x, y, z, w: c }
}
