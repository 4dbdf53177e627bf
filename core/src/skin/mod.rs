//! The skinning kernels: stitching (one bone per vertex), linear blend skinning and dual
//! quaternion skinning ([`Skinning`]) with up to four influences, for positions and for
//! positions + normals.
//!
//! Layers, each importing only from those above it in this list:
//!
//! | module | what |
//! |---|---|
//! | `batch` | validated views: vertices and a palette that holds every bone they use |
//! | `generic` | the loops written once over [`Lane`](crate::lane::Lane)'s primitives |
//! | `dqs` | dual quaternion skinning, written once over the lanes' primitives |
//! | `asm`, `x86` | the specialised loops (Cortex-M assembly; x86 SSE2/AVX2), target by target |
//! | [`dispatch`] | the one dispatch point: which loop skins a view ([`Loop`]) |
//! | `mesh` | [`RigidMesh`] and [`SkinnedMesh`]: validated once when made, then skinned |
//! | `stretch` | dual quaternion skinning of joints with scale or shear (Kavan et al.), `f32` |
//!
//! A mesh is validated once, when it is made ([`RigidMesh::new`], [`SkinnedMesh::new`]);
//! skinning it then checks only that the palette holds the bones the mesh uses and that the
//! output slices have the right length, and runs a loop with no per-vertex validation. A
//! baked asset's parts are validated when the asset is read, and the frame player
//! (`crate::scene`) skins them through the same views and dispatch point.
//!
//! LBS blends the matrices and transforms once (`(aA + bB)p = a(Ap) + b(Bp)`):
//! `M = Σₖ wₖ Mₖ`, where bone 0 carries the largest, implicit weight `w₀ = 1 − Σ_{k≥1} wₖ`.
//! Each entry is summed as `((w₁e₁ + w₂e₂) + w₃e₃) + w₀e₀`, the stored weights in the order
//! `w₀` was computed from, so that in the bind pose (every `Mₖ = I`) the diagonal is
//! `s + (1 − s)`, exactly 1 in `f32` as in fixed point: the bind pose leaves every vertex
//! exactly in place. In fixed point the sum is exact in `i32` and rounded once, so it equals
//! `e₀ + Σ wₖ(eₖ − e₀)` rounded.
//!
//! Normals are transformed by the blended linear part and renormalised; like most real-time
//! skinning this assumes no strongly non-uniform scale (no inverse transpose).
//!
//! ```
//! use skin_core::affine::Affine;
//! use skin_core::skin::SkinnedMesh;
//! use skin_core::vertex::Influence;
//! let positions = [[1.0f32, 0.0, 0.0]];
//! let influences = [Influence::from_weights([0, 1, 0, 0], [0.5, 0.5, 0.0, 0.0], 0).unwrap()];
//! let mesh = SkinnedMesh::<f32, 2>::new(&positions, &influences).unwrap();
//! let palette = [Affine::IDENTITY, Affine::translation([0.0, 2.0, 0.0])];
//! let mut out = [[0.0; 3]; 1];
//! mesh.skin(&palette, &mut out).unwrap();
//! assert_eq!(out[0], [1.0, 1.0, 0.0]);
//! ```

#[cfg(any(skin_asm_fixed, skin_asm_v7em_f32))]
mod asm;
pub(crate) mod batch;
pub mod dispatch;
mod dqs;
mod generic;
mod mesh;
mod stretch;
mod table;
#[cfg(skin_x86)]
mod x86;

#[cfg(skin_asm_fixed)]
pub(crate) use asm::records;
#[cfg(skin_asm_v7em)]
pub(crate) use asm::{morph_q14, MorphTable};
pub use dispatch::Loop;
pub use mesh::{RigidMesh, SkinnedMesh};
pub(crate) use stretch::stretched;
pub use table::Tabled;

use crate::layout::Layout;

/// A skinning method: what a palette entry is and how a vertex blends its bones. A baked
/// asset records the one it was baked for (`crate::asset::Asset::skinning`).
///
/// ```
/// use skin_core::layout::Layout;
/// use skin_core::skin::Skinning;
/// assert_eq!(Skinning::Dqs.layout(), Layout::DualQuat);
/// assert_eq!(Skinning::default().name(), "lbs");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Skinning {
    /// Linear blend skinning: the weighted sum of the joint matrices.
    #[default]
    Lbs,
    /// Dual quaternion skinning ([`crate::dual`]): the normalised weighted sum of the
    /// joints' unit dual quaternions; joints with scale or shear are split (Kavan et al.,
    /// [`SkinnedMesh::skin_dqs_stretched`]).
    Dqs,
}

impl Skinning {
    /// `"lbs"` or `"dqs"`.
    pub const fn name(self) -> &'static str {
        match self {
            Skinning::Lbs => "lbs",
            Skinning::Dqs => "dqs",
        }
    }

    /// How one palette entry is stored in shader constant registers: a 3×4 matrix (3
    /// registers) for LBS, a unit dual quaternion (2) for DQS.
    pub const fn layout(self) -> Layout {
        match self {
            Skinning::Lbs => Layout::Affine3x4,
            Skinning::Dqs => Layout::DualQuat,
        }
    }
}
