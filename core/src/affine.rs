//! Affine 3×4 matrices: a 3×3 linear part and a translation, the fourth row `0 0 0 1`
//! implied. This is the "3 constant registers per bone" layout of skinning shaders.

use crate::num::{NumError, Real};

/// A row-major affine 3×4 matrix `[r00 r01 r02 tx; r10 r11 r12 ty; r20 r21 r22 tz]`.
///
/// ```
/// use skin_core::affine::Affine;
/// let m = Affine::<f32>::translation([1.0, 2.0, 3.0]);
/// assert_eq!(m.transform_point([1.0, 1.0, 1.0]), [2.0, 3.0, 4.0]);
/// assert_eq!(m.transform_vector([1.0, 1.0, 1.0]), [1.0, 1.0, 1.0]);
/// ```
///
/// Word-aligned whatever `R` is (an `I2F14` matrix, 24 bytes, included): the Cortex-M4
/// fixed kernel reads a row's four entries with one `LDRD`, which needs 4-byte alignment.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(align(4))]
pub struct Affine<R> {
    /// The three rows, each `[x, y, z, translation]`.
    pub rows: [[R; 4]; 3],
}

impl<R: Real> Default for Affine<R> {
    fn default() -> Self {
        Self::IDENTITY
    }
}

impl<R: Real> Affine<R> {
    /// The identity.
    pub const IDENTITY: Self = Self {
        rows: [
            [R::ONE, R::ZERO, R::ZERO, R::ZERO],
            [R::ZERO, R::ONE, R::ZERO, R::ZERO],
            [R::ZERO, R::ZERO, R::ONE, R::ZERO],
        ],
    };

    /// A pure translation.
    pub fn translation(t: [R; 3]) -> Self {
        let mut m = Self::IDENTITY;
        for (row, t) in m.rows.iter_mut().zip(t) {
            row[3] = t;
        }
        m
    }

    /// The translation column.
    pub fn translation_part(&self) -> [R; 3] {
        [self.rows[0][3], self.rows[1][3], self.rows[2][3]]
    }

    /// `M·p` for a point (translation applied).
    #[inline]
    pub fn transform_point(&self, p: [R; 3]) -> [R; 3] {
        self.rows
            .map(|r| r[0] * p[0] + r[1] * p[1] + r[2] * p[2] + r[3])
    }

    /// `M·v` for a direction (translation ignored).
    #[inline]
    pub fn transform_vector(&self, v: [R; 3]) -> [R; 3] {
        self.rows.map(|r| r[0] * v[0] + r[1] * v[1] + r[2] * v[2])
    }

    /// The product `self · rhs`, or `None` if an entry leaves [`Real::LIMIT`] (or is not
    /// finite). Each entry is one exact dot product, rounded once.
    pub fn checked_mul(&self, rhs: &Self) -> Option<Self> {
        R::affine_product(&self.rows, &rhs.rows).map(|rows| Self { rows })
    }

    /// The inverse of an affine matrix, or `None` when it is singular (|det| below
    /// [`Real::EPSILON`]) or when it or its inverse leaves [`Real::LIMIT`].
    ///
    /// ```
    /// use skin_core::affine::Affine;
    /// use skin_core::transform::Transform;
    /// let m = Transform::<f32>::from_f32([1.0, -2.0, 0.5], [0.0, 0.6, 0.0, 0.8], [2.0; 3])
    ///     .unwrap()
    ///     .to_affine();
    /// let p = m.inverse().unwrap().checked_mul(&m).unwrap().transform_point([3.0, 4.0, 5.0]);
    /// assert!((p[0] - 3.0).abs() < 1e-5 && (p[1] - 4.0).abs() < 1e-5 && (p[2] - 5.0).abs() < 1e-5);
    /// assert_eq!(Affine::<f32>::translation([1.0; 3]).inverse().unwrap().translation_part(), [-1.0; 3]);
    /// ```
    pub fn inverse(&self) -> Option<Self> {
        let limit = R::from_f32(R::LIMIT).ok()?;
        // NaN compares false, so this also rejects NaN.
        if !self.rows.iter().flatten().all(|v| v.abs() <= limit) {
            return None;
        }
        let [a, b, c] = self.rows;
        // 2×2 minors, each one exact, checked dot product: a·d − b·c.
        let det2 = |a: R, b: R, c: R, d: R| R::dot3_add([a, b, R::ZERO], [d, -c, R::ZERO], R::ZERO);
        // Adjugate (transposed cofactors) of the linear part.
        let adj = [
            [
                det2(b[1], b[2], c[1], c[2])?,
                det2(a[2], a[1], c[2], c[1])?,
                det2(a[1], a[2], b[1], b[2])?,
            ],
            [
                det2(b[2], b[0], c[2], c[0])?,
                det2(a[0], a[2], c[0], c[2])?,
                det2(a[2], a[0], b[2], b[0])?,
            ],
            [
                det2(b[0], b[1], c[0], c[1])?,
                det2(a[1], a[0], c[1], c[0])?,
                det2(a[0], a[1], b[0], b[1])?,
            ],
        ];
        let det = R::dot3_add(
            [a[0], a[1], a[2]],
            [adj[0][0], adj[1][0], adj[2][0]],
            R::ZERO,
        )?;
        if det.abs() < R::EPSILON {
            return None;
        }
        let mut inv = Self::IDENTITY;
        for (row, adj_row) in inv.rows.iter_mut().zip(&adj) {
            for (o, &cof) in row.iter_mut().zip(adj_row) {
                // |cof/det| > LIMIT ⇔ |cof|/LIMIT > |det|: test before dividing.
                if cof.abs() / limit > det.abs() {
                    return None;
                }
                *o = cof / det;
            }
        }
        let t = self.translation_part();
        for row in &mut inv.rows {
            row[3] = -R::dot3_add([row[0], row[1], row[2]], t, R::ZERO)?;
        }
        Some(inv)
    }

    /// Checked conversion of a row-major `f32` matrix.
    pub fn from_f32(rows: [[f32; 4]; 3]) -> Result<Self, NumError> {
        let mut out = Self::IDENTITY;
        for (o, r) in out.rows.iter_mut().zip(rows) {
            for (o, v) in o.iter_mut().zip(r) {
                *o = R::from_f32(v)?;
            }
        }
        Ok(out)
    }

    /// Conversion to `f32`.
    pub fn to_f32(&self) -> Affine<f32> {
        Affine {
            rows: self.rows.map(|r| r.map(R::to_f32)),
        }
    }

    /// Checked conversion to another scalar type.
    pub fn convert<S: Real>(&self) -> Result<Affine<S>, NumError> {
        Affine::<S>::from_f32(self.to_f32().rows)
    }
}
