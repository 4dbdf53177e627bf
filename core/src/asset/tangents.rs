//! The tangent section (`docs/FORMAT.md`, *Tangents*): each vertex's glTF `TANGENT`, its
//! unit direction `xyz` and handedness `w` (±1), four lane values a vertex right after the
//! normals, flag [`super::FLAG_TANGENTS`]. The player skins the directions as it skins
//! normals and keeps `w` ([`crate::scene::Scene::tangents`], the code of
//! [`crate::tangent`]).
//!
//! ```
//! use skin_core::asset::{Asset, AssetError, AssetParts, Part, TangentProblem};
//! # use skin_core::affine::Affine;
//! # use skin_core::skin::Skinning;
//! # use skin_core::transform::Transform;
//! # use skin_core::vertex::Influence;
//! let positions = [[0.0f32, 0.5, 0.0]; 3];
//! let mut tangents = [[1.0f32, 0.0, 0.0, -1.0]; 3];
//! # let influences = [Influence::rigid(0); 3];
//! # let write = |tangents: &[[f32; 4]], buf: &mut [u8]| AssetParts {
//! #     unit_exponent: 0, parents: &[None], rest: &[Transform::IDENTITY],
//! #     root: Affine::IDENTITY, joints: &[0], inverse_binds: &[Affine::IDENTITY],
//! #     positions: &positions, normals: None, tangents: Some(tangents),
//! #     influences: &influences, indices: &[0, 1, 2],
//! #     parts: &[Part { vertices: 3, indices: 3, bones: &[0] }], clips: &[],
//! #     skinning: Skinning::Lbs, centre: [0.0; 3],
//! # }.write(buf);
//! let mut buf = [0u8; 512];
//! let n = write(&tangents, &mut buf).unwrap();
//! let asset = Asset::<f32>::read(&buf[..n]).unwrap();
//! assert_eq!(asset.tangents().unwrap().get(2), Some([1.0, 0.0, 0.0, -1.0]));
//! // A handedness that is not ±1 is refused, by vertex and value.
//! tangents[1][3] = 0.5;
//! let e = write(&tangents, &mut buf).unwrap_err();
//! assert_eq!(
//!     e,
//!     AssetError::Tangent { vertex: 1, value: [1.0, 0.0, 0.0, 0.5], problem: TangentProblem::Handedness }
//! );
//! ```

use super::{Asset, AssetError, AssetLane, Vectors};

/// How far a stored direction's length may be from 1: the baker stores unit directions
/// (the importer normalises any more than 10⁻³ off) rounded to the lane (`I2F14`: at most
/// √3·2⁻¹⁵ in length), so anything farther — a zero vector above all — is not a tangent
/// the renormalising loops can turn.
pub const TANGENT_LENGTH_TOLERANCE: f32 = 1.0 / 64.0;

/// What is wrong with a stored tangent ([`AssetError::Tangent`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum TangentProblem {
    /// A component is NaN or infinite.
    NotFinite,
    /// The direction's length is more than [`TANGENT_LENGTH_TOLERANCE`] from 1 (zero, say).
    Length,
    /// The handedness `w` is not exactly 1 or −1.
    Handedness,
}

impl TangentProblem {
    /// The problem of `t`, if it has one.
    pub(crate) fn of(t: [f32; 4]) -> Option<Self> {
        if !t.iter().all(|c| c.is_finite()) {
            return Some(Self::NotFinite);
        }
        let len = libm::sqrtf(t[0] * t[0] + t[1] * t[1] + t[2] * t[2]);
        if (len - 1.0).abs() > TANGENT_LENGTH_TOLERANCE {
            return Some(Self::Length);
        }
        (t[3] != 1.0 && t[3] != -1.0).then_some(Self::Handedness)
    }
}

impl core::fmt::Display for TangentProblem {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            Self::NotFinite => "a component is not a finite number",
            Self::Length => "its direction is not of unit length (within 1/64)",
            Self::Handedness => "its handedness w is not 1 or -1",
        })
    }
}

/// Vertex tangents in lane `L`: `[x, y, z, w]` each.
pub type Tangents<'a, L> = Vectors<'a, L, 4>;

/// [`AssetError::Tangent`] for the first tangent of `tangents` with a problem.
pub(crate) fn check<L: AssetLane>(
    tangents: impl Iterator<Item = [L; 4]>,
) -> Result<(), AssetError> {
    for (vertex, t) in tangents.enumerate() {
        let value = t.map(L::to_f32);
        if let Some(problem) = TangentProblem::of(value) {
            return Err(AssetError::Tangent {
                vertex,
                value,
                problem,
            });
        }
    }
    Ok(())
}

impl<'a, L: AssetLane> Asset<'a, L> {
    /// Vertex tangents, if stored (header flag [`super::FLAG_TANGENTS`]).
    pub fn tangents(&self) -> Option<Tangents<'a, L>> {
        self.counts
            .tangents()
            .then(|| Tangents::new(self.bytes_of(self.s.tangents)))
    }
}
