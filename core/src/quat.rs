//! Unit quaternions for rotations, with the shortest-path slerp that glTF requires.

use crate::num::{NumError, Real};

/// A quaternion `xi + yj + zk + w` (glTF's component order: x, y, z, w).
///
/// ```
/// use skin_core::quat::Quat;
/// let a = Quat::<f32>::IDENTITY;
/// let b = Quat::from_f32([0.0, 0.0, 1.0, 0.0]).unwrap(); // 180° about Z
/// let half = a.slerp(b, 0.5); // 90° about Z
/// let s = core::f32::consts::FRAC_1_SQRT_2;
/// assert!((half.z - s).abs() < 1e-6 && (half.w - s).abs() < 1e-6);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Quat<R> {
    /// i component.
    pub x: R,
    /// j component.
    pub y: R,
    /// k component.
    pub z: R,
    /// Real component.
    pub w: R,
}

impl<R: Real> Default for Quat<R> {
    fn default() -> Self {
        Self::IDENTITY
    }
}

impl<R: Real> Quat<R> {
    /// No rotation.
    pub const IDENTITY: Self = Self {
        x: R::ZERO,
        y: R::ZERO,
        z: R::ZERO,
        w: R::ONE,
    };

    /// Checked conversion from glTF order `[x, y, z, w]`, normalised (in `f32`, before the
    /// conversion, so that any finite input works in fixed point). A zero quaternion has no
    /// direction: [`NumError::OutOfRange`]. A quaternion of unit length already (as glTF
    /// requires and bakers write) may be converted as it is ([`Real::unit_quat`]: fixed
    /// point, where `f32` division is a long library call on a Cortex-M0): within half a
    /// step of `I8F24` plus its distance from unit length (at most 2⁻²¹) of the exactly
    /// normalised one.
    pub fn from_f32(q: [f32; 4]) -> Result<Self, NumError> {
        if let Some([x, y, z, w]) = R::unit_quat(q) {
            return Ok(Self { x, y, z, w });
        }
        if q.iter().any(|v| !v.is_finite()) {
            return Err(NumError::NotFinite);
        }
        // Scale by the largest component first so the squares cannot overflow.
        let big = q.iter().fold(0.0f32, |m, v| m.max(v.abs()));
        if big == 0.0 {
            return Err(NumError::OutOfRange);
        }
        let q = q.map(|v| v / big);
        let len = libm::sqrtf(q.iter().map(|v| v * v).sum());
        let [x, y, z, w] = q.map(|v| v / len);
        Ok(Self {
            x: R::from_f32(x)?,
            y: R::from_f32(y)?,
            z: R::from_f32(z)?,
            w: R::from_f32(w)?,
        })
    }

    /// `[x, y, z, w]` as `f32`.
    pub fn to_f32(self) -> [f32; 4] {
        [
            self.x.to_f32(),
            self.y.to_f32(),
            self.z.to_f32(),
            self.w.to_f32(),
        ]
    }

    /// 4-D dot product.
    pub fn dot(self, o: Self) -> R {
        self.x.times(o.x) + self.y.times(o.y) + self.z.times(o.z) + self.w.times(o.w)
    }

    /// [`Quat::dot`] for components within 2 (unit quaternions and their blends), from
    /// [`Real::times_small`]: the same value.
    #[inline(always)]
    pub(crate) fn dot_small(self, o: Self) -> R {
        let p = |u: R, v: R| u.times_small(v);
        p(self.x, o.x) + p(self.y, o.y) + p(self.z, o.z) + p(self.w, o.w)
    }

    /// Every component times `s`, for components within 2 and `|s|` within
    /// [`Real::LIMIT`] (a blend's weights, a near-unit length's reciprocal):
    /// [`Real::times_small`], the same value as [`Quat::scale`].
    #[inline(always)]
    pub(crate) fn scale_small(self, s: R) -> Self {
        Self {
            x: self.x.times_small(s),
            y: self.y.times_small(s),
            z: self.z.times_small(s),
            w: self.w.times_small(s),
        }
    }

    /// Every component times `s`.
    pub(crate) fn scale(self, s: R) -> Self {
        Self {
            x: self.x.times(s),
            y: self.y.times(s),
            z: self.z.times(s),
            w: self.w.times(s),
        }
    }

    /// The component-wise sum.
    pub(crate) fn add(self, o: Self) -> Self {
        Self {
            x: self.x + o.x,
            y: self.y + o.y,
            z: self.z + o.z,
            w: self.w + o.w,
        }
    }

    /// This quaternion scaled to unit length (identity if its length is below
    /// [`Real::EPSILON`]). Components must be at most 2 in magnitude (true of blends of unit
    /// quaternions) so that the squares fit fixed point. One division (for the length's
    /// reciprocal) and four products: a fixed-point division is a long library call on a
    /// Cortex-M0.
    pub fn normalize(self) -> Self {
        let len = self.dot_small(self).sqrt();
        if len < R::EPSILON {
            Self::IDENTITY
        } else if len < R::HALF {
            let sixty_four = R::from_f32(64.0).unwrap_or(R::ONE);
            if len.times_small(sixty_four) < R::ONE {
                // Below 2⁻⁶, where `1/len` would leave `I8F24`'s range: scaled by 64
                // first (exactly; then at least 2⁻⁶ long).
                return self.scale(sixty_four).normalize();
            }
            self.scale(R::ONE / len)
        } else {
            // The reciprocal within 2 (a blend's length is near 1): the products are
            // `times_small`, the same value.
            self.scale_small(R::ONE / len)
        }
    }

    /// Spherical linear interpolation along the shorter arc; `t` is clamped to [0, 1].
    /// Nearly parallel inputs fall back to normalised linear interpolation. Both must be
    /// unit quaternions (components within 2: its products are [`Real::times_small`]).
    pub fn slerp(self, other: Self, t: R) -> Self {
        let t = if t < R::ZERO {
            R::ZERO
        } else if t > R::ONE {
            R::ONE
        } else {
            t
        };
        let mut d = self.dot_small(other);
        let mut b = other;
        if d < R::ZERO {
            d = -d;
            // −q, component by component: the same value as `scale(−1)`, no products.
            b = Self {
                x: -other.x,
                y: -other.y,
                z: -other.z,
                w: -other.w,
            };
        }
        let one = R::ONE;
        // Above cos θ = 0.9995 sin θ is too small to divide by; lerp is exact to ~1e-7 there.
        let near = R::from_f32(0.9995).unwrap_or(one);
        if d > near {
            return self.scale_small(one - t).add(b.scale_small(t)).normalize();
        }
        let (wa, wb) = R::arc_weights(d, t);
        self.scale_small(wa).add(b.scale_small(wb)).normalize()
    }

    /// The inverse rotation of a unit quaternion: `(−x, −y, −z, w)`.
    pub fn conjugate(self) -> Self {
        Self {
            x: -self.x,
            y: -self.y,
            z: -self.z,
            w: self.w,
        }
    }

    /// The Hamilton product `self · o`: rotate by `o`, then by `self`. Each product is
    /// [`Real::times_small`]: the same value as [`Real::times`] for components within 64
    /// (a rotation's are within 1), from 32-bit sums.
    ///
    /// ```
    /// use skin_core::quat::Quat;
    /// let s = core::f32::consts::FRAC_1_SQRT_2;
    /// let quarter = Quat::<f32>::from_f32([0.0, 0.0, s, s]).unwrap(); // 90° about Z
    /// let half = quarter.hamilton(quarter);
    /// assert!(half.z > 0.999_999 && half.w.abs() < 1e-6);
    /// ```
    #[inline]
    pub fn hamilton(self, o: Self) -> Self {
        let (a, b) = (self, o);
        let p = |u: R, v: R| u.times_small(v);
        Self {
            x: p(a.w, b.x) + p(a.x, b.w) + p(a.y, b.z) - p(a.z, b.y),
            y: p(a.w, b.y) - p(a.x, b.z) + p(a.y, b.w) + p(a.z, b.x),
            z: p(a.w, b.z) + p(a.x, b.y) - p(a.y, b.x) + p(a.z, b.w),
            w: p(a.w, b.w) - p(a.x, b.x) - p(a.y, b.y) - p(a.z, b.z),
        }
    }

    /// The 3×3 rotation matrix of a unit quaternion, row-major. Its products are
    /// [`Real::times_small`] (the same value as [`Real::times`] for components within 2).
    pub fn to_matrix(self) -> [[R; 3]; 3] {
        let Self { x, y, z, w } = self;
        // 2·v as v + v: the same value, without a multiplication.
        let two = |v: R| v + v;
        let p = |u: R, v: R| u.times_small(v);
        let (xx, yy, zz) = (p(x, x), p(y, y), p(z, z));
        let (xy, xz, yz) = (p(x, y), p(x, z), p(y, z));
        let (wx, wy, wz) = (p(w, x), p(w, y), p(w, z));
        let one = R::ONE;
        [
            [one - two(yy + zz), two(xy - wz), two(xz + wy)],
            [two(xy + wz), one - two(xx + zz), two(yz - wx)],
            [two(xz - wy), two(yz + wx), one - two(xx + yy)],
        ]
    }
}
