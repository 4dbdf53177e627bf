//! Node world matrices in plain `f64` from the rig's `f32` transforms, written from the glTF
//! 2.0 specification (`world = parent · T·R·S`, rotations normalised) and sharing no
//! arithmetic with skin-core: the maths of the [`f64` oracle](crate::oracle), and of the
//! asset unit's choice ([`crate::pose::units::asset_unit`]).
//!
//! ```
//! use skin_host::rig::world64::{matrix, Trs64};
//! let quarter = std::f64::consts::FRAC_1_SQRT_2;
//! let m = matrix(&Trs64 {
//!     translation: [1.0, 0.0, 0.0],
//!     rotation: [0.0, 0.0, quarter, quarter], // 90° about +Z
//!     scale: [2.0; 3],
//! });
//! // (1, 0, 0) → scaled to (2, 0, 0) → turned to (0, 2, 0) → moved to (1, 2, 0).
//! let p = [0, 1, 2].map(|r| m[r][0] + m[r][3]);
//! assert!((p[0] - 1.0).abs() < 1e-12 && (p[1] - 2.0).abs() < 1e-12 && p[2].abs() < 1e-12);
//! ```

use super::{Rig, Trs};

/// A row-major affine 3×4 matrix in `f64`.
pub type M34 = [[f64; 4]; 3];

/// Translation, rotation `[x, y, z, w]` and scale in `f64`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Trs64 {
    /// Translation.
    pub translation: [f64; 3],
    /// Rotation `[x, y, z, w]` (normalised when turned into a matrix).
    pub rotation: [f64; 4],
    /// Scale.
    pub scale: [f64; 3],
}

impl From<&Trs> for Trs64 {
    fn from(t: &Trs) -> Self {
        Self {
            translation: t.translation.map(f64::from),
            rotation: t.rotation.map(f64::from),
            scale: t.scale.map(f64::from),
        }
    }
}

/// `q` divided by its length.
pub fn unit4(q: [f64; 4]) -> [f64; 4] {
    let n = q.iter().map(|v| v * v).sum::<f64>().sqrt();
    q.map(|v| v / n)
}

/// `T·R·S` as a row-major 3×4 matrix (the rotation normalised first).
pub fn matrix(t: &Trs64) -> M34 {
    let [x, y, z, w] = unit4(t.rotation);
    let r = [
        [
            1.0 - 2.0 * (y * y + z * z),
            2.0 * (x * y - z * w),
            2.0 * (x * z + y * w),
        ],
        [
            2.0 * (x * y + z * w),
            1.0 - 2.0 * (x * x + z * z),
            2.0 * (y * z - x * w),
        ],
        [
            2.0 * (x * z - y * w),
            2.0 * (y * z + x * w),
            1.0 - 2.0 * (x * x + y * y),
        ],
    ];
    core::array::from_fn(|i| {
        [
            r[i][0] * t.scale[0],
            r[i][1] * t.scale[1],
            r[i][2] * t.scale[2],
            t.translation[i],
        ]
    })
}

/// `a · b` for affine matrices.
pub fn mul(a: &M34, b: &M34) -> M34 {
    core::array::from_fn(|i| {
        core::array::from_fn(|c| {
            let t = if c == 3 { a[i][3] } else { 0.0 };
            a[i][0] * b[0][c] + a[i][1] * b[1][c] + a[i][2] * b[2][c] + t
        })
    })
}

/// `m · (p, 1)`.
pub fn point(m: &M34, p: [f64; 3]) -> [f64; 3] {
    m.map(|r| r[0] * p[0] + r[1] * p[1] + r[2] * p[2] + r[3])
}

/// World matrices of every node from node transforms `locals` (indexed by node).
pub fn world(rig: &Rig, locals: &[Trs64]) -> Vec<M34> {
    let mut world = vec![[[0.0; 4]; 3]; rig.nodes.len()];
    for &i in &rig.order {
        let l = matrix(&locals[i]);
        world[i] = match rig.nodes[i].parent {
            Some(p) => mul(&world[p], &l),
            None => l,
        };
    }
    world
}

/// World matrices of every node at the rest pose (the node transforms as stored).
pub fn rest_world(rig: &Rig) -> Vec<M34> {
    let locals: Vec<Trs64> = rig.nodes.iter().map(|n| Trs64::from(&n.local)).collect();
    world(rig, &locals)
}
