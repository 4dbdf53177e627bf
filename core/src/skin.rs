//! The skinning kernels: stitching (one bone per vertex) and linear blend skinning with
//! up to four influences, for positions and for positions + normals.
//!
//! A mesh is validated once, when it is made ([`RigidMesh::new`], [`SkinnedMesh::new`]);
//! skinning it then checks only that the palette holds the bones the mesh uses and that the
//! output slices have the right length, and runs a loop with no per-vertex validation.
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

use crate::affine::Affine;
use crate::error::Error;
use crate::lane::Lane;
use crate::vertex::Influence;

/// Vertices that each follow exactly one bone (*stitching*).
#[derive(Clone, Copy, Debug)]
pub struct RigidMesh<'a, L: Lane> {
    positions: &'a [[L; 3]],
    bones: &'a [u8],
    bone_count: usize,
}

/// Vertices blended from up to `K` (1..=4) bones each.
#[derive(Clone, Copy, Debug)]
pub struct SkinnedMesh<'a, L: Lane, const K: usize> {
    positions: &'a [[L; 3]],
    influences: &'a [Influence<L>],
    bone_count: usize,
}

impl<'a, L: Lane> RigidMesh<'a, L> {
    /// Positions and the bone of each.
    pub fn new(positions: &'a [[L; 3]], bones: &'a [u8]) -> Result<Self, Error> {
        check_len(positions.len(), bones.len())?;
        let bone_count = bones.iter().max().map_or(0, |&b| usize::from(b) + 1);
        Ok(Self {
            positions,
            bones,
            bone_count,
        })
    }

    /// Vertices.
    pub fn len(&self) -> usize {
        self.positions.len()
    }

    /// `true` with no vertices.
    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }

    /// Bones the mesh uses (its largest bone index + 1).
    pub fn bone_count(&self) -> usize {
        self.bone_count
    }

    /// Skinned positions: `out[v] = M[bone[v]] · p[v]`.
    pub fn skin(&self, palette: &[Affine<L>], out: &mut [[L::Out; 3]]) -> Result<(), Error> {
        self.check(palette, out.len())?;
        L::stitch(self.rigid(palette), out, None);
        Ok(())
    }

    /// Skinned positions and renormalised normals.
    pub fn skin_with_normals(
        &self,
        palette: &[Affine<L>],
        normals: &[[L; 3]],
        out: &mut [[L::Out; 3]],
        out_normals: &mut [[L; 3]],
    ) -> Result<(), Error> {
        self.check(palette, out.len())?;
        check_normals(self.len(), normals, out_normals)?;
        L::stitch(self.rigid(palette), out, Some((normals, out_normals)));
        Ok(())
    }

    /// A checked [`Rigid`] for the lanes' own tests.
    #[cfg(test)]
    pub(crate) fn rigid_for_tests<'b>(&'b self, palette: &'b [Affine<L>]) -> Rigid<'b, L> {
        self.check(palette, self.len())
            .expect("a palette that holds the mesh's bones");
        self.rigid(palette)
    }

    /// The vertices with a palette that [`Self::check`] accepted.
    fn rigid<'b>(&'b self, palette: &'b [Affine<L>]) -> Rigid<'b, L> {
        Rigid {
            palette,
            positions: self.positions,
            bones: self.bones,
        }
    }

    fn check(&self, palette: &[Affine<L>], out: usize) -> Result<(), Error> {
        let bones = self.bones.iter().map(|&b| [b]);
        check_palette(palette.len(), self.bone_count, bones)?;
        check_len(self.len(), out)
    }
}

impl<'a, L: Lane, const K: usize> SkinnedMesh<'a, L, K> {
    /// Positions and their influences. [`Error::Influences`] for a vertex with a non-zero
    /// weight beyond the first `K` influences.
    pub fn new(positions: &'a [[L; 3]], influences: &'a [Influence<L>]) -> Result<Self, Error> {
        const { assert!(K >= 1 && K <= 4, "a skinned mesh blends 1 to 4 influences") };
        check_len(positions.len(), influences.len())?;
        let mut bone_count = 0;
        for (vertex, inf) in influences.iter().enumerate() {
            let used = inf.count();
            if used > K {
                return Err(Error::Influences {
                    vertex,
                    used,
                    max: K,
                });
            }
            let top = inf.bones()[..K]
                .iter()
                .max()
                .map_or(0, |&b| usize::from(b) + 1);
            bone_count = bone_count.max(top);
        }
        Ok(Self {
            positions,
            influences,
            bone_count,
        })
    }

    /// Vertices.
    pub fn len(&self) -> usize {
        self.positions.len()
    }

    /// `true` with no vertices.
    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }

    /// Bones the mesh uses (its largest bone index among the first `K` slots + 1).
    pub fn bone_count(&self) -> usize {
        self.bone_count
    }

    /// Skinned positions: `out[v] = (Σ wₖ M[bₖ]) · p[v]`.
    pub fn skin(&self, palette: &[Affine<L>], out: &mut [[L::Out; 3]]) -> Result<(), Error> {
        self.check(palette, out.len())?;
        L::lbs(self.batch(palette), out, None);
        Ok(())
    }

    /// Skinned positions and renormalised normals.
    pub fn skin_with_normals(
        &self,
        palette: &[Affine<L>],
        normals: &[[L; 3]],
        out: &mut [[L::Out; 3]],
        out_normals: &mut [[L; 3]],
    ) -> Result<(), Error> {
        self.check(palette, out.len())?;
        check_normals(self.len(), normals, out_normals)?;
        L::lbs(self.batch(palette), out, Some((normals, out_normals)));
        Ok(())
    }

    /// [`Self::skin`] by the generic loop over [`Lane`]'s primitives, bypassing the lane's
    /// own loop ([`Lane::lbs`]): the reference that loop must match bit for bit. The
    /// firmware benchmark checks the fixed lane's assembly kernels against it on the device.
    pub fn skin_generic(
        &self,
        palette: &[Affine<L>],
        out: &mut [[L::Out; 3]],
    ) -> Result<(), Error> {
        self.check(palette, out.len())?;
        lbs(self.batch(palette), out, None);
        Ok(())
    }

    /// [`Self::skin_with_normals`] by the generic loop (see [`Self::skin_generic`]).
    pub fn skin_with_normals_generic(
        &self,
        palette: &[Affine<L>],
        normals: &[[L; 3]],
        out: &mut [[L::Out; 3]],
        out_normals: &mut [[L; 3]],
    ) -> Result<(), Error> {
        self.check(palette, out.len())?;
        check_normals(self.len(), normals, out_normals)?;
        lbs(self.batch(palette), out, Some((normals, out_normals)));
        Ok(())
    }

    fn check(&self, palette: &[Affine<L>], out: usize) -> Result<(), Error> {
        let bones = self.influences.iter().map(|i| i.bones());
        check_palette(palette.len(), self.bone_count, bones.map(first::<K>))?;
        check_len(self.len(), out)
    }

    /// Only after [`Self::check`].
    fn batch<'b>(&'b self, palette: &'b [Affine<L>]) -> Batch<'b, L, K> {
        Batch {
            palette,
            positions: self.positions,
            influences: self.influences,
        }
    }

    /// A checked [`Batch`] for the lanes' own tests.
    #[cfg(test)]
    pub(crate) fn batch_for_tests<'b>(&'b self, palette: &'b [Affine<L>]) -> Batch<'b, L, K> {
        self.check(palette, self.len())
            .expect("a palette for the mesh");
        self.batch(palette)
    }
}

/// The input of [`Lane::lbs`]: a [`SkinnedMesh`]'s vertices and a palette that holds every
/// bone they use. Only [`SkinnedMesh::skin`] and [`SkinnedMesh::skin_with_normals`] make
/// one, after checking the palette and the slice lengths.
#[derive(Clone, Copy, Debug)]
pub struct Batch<'a, L: Lane, const K: usize> {
    palette: &'a [Affine<L>],
    positions: &'a [[L; 3]],
    influences: &'a [Influence<L>],
}

impl<'a, L: Lane, const K: usize> Batch<'a, L, K> {
    /// The palette, positions and influences.
    #[allow(clippy::type_complexity)]
    pub(crate) fn parts(&self) -> (&'a [Affine<L>], &'a [[L; 3]], &'a [Influence<L>]) {
        (self.palette, self.positions, self.influences)
    }

    /// The same batch as one of four influences, when `K` is 4.
    #[allow(dead_code)] // used by lanes with a loop of their own for four influences
    pub(crate) fn four(self) -> Option<Batch<'a, L, 4>> {
        (K == 4).then_some(Batch {
            palette: self.palette,
            positions: self.positions,
            influences: self.influences,
        })
    }

    /// The vertices from `start` on (for a loop that skins the ones before itself).
    #[allow(dead_code)] // used by the `f32` lane's four-wide loop where it exists
    pub(crate) fn tail(&self, start: usize) -> Self {
        Self {
            palette: self.palette,
            positions: &self.positions[start..],
            influences: &self.influences[start..],
        }
    }
}

/// The input of [`Lane::stitch`]: a [`RigidMesh`]'s vertices and a palette that holds every
/// bone they use. Only [`RigidMesh::skin`] and [`RigidMesh::skin_with_normals`] make one,
/// after checking the palette and the slice lengths.
#[derive(Clone, Copy, Debug)]
pub struct Rigid<'a, L: Lane> {
    palette: &'a [Affine<L>],
    positions: &'a [[L; 3]],
    bones: &'a [u8],
}

impl<'a, L: Lane> Rigid<'a, L> {
    /// The palette, positions and bones.
    #[allow(clippy::type_complexity)]
    pub(crate) fn parts(&self) -> (&'a [Affine<L>], &'a [[L; 3]], &'a [u8]) {
        (self.palette, self.positions, self.bones)
    }

    /// The vertices from `start` on (for a loop that skins the ones before itself).
    #[allow(dead_code)] // used by the `f32` lane's four-wide loop where it exists
    pub(crate) fn tail(&self, start: usize) -> Self {
        Self {
            palette: self.palette,
            positions: &self.positions[start..],
            bones: &self.bones[start..],
        }
    }
}

/// The optional normals of [`Lane::lbs`]: the input normals and where the skinned ones go.
pub type Normals<'n, L> = Option<(&'n [[L; 3]], &'n mut [[L; 3]])>;

/// The generic LBS loop over [`Lane`]'s primitives (see [`Lane::lbs`]). Each row of the
/// blended matrix is used as soon as it is made (for a coordinate of the position and of
/// the normal), which keeps the working set small on register-poor cores.
#[inline(always)]
pub(crate) fn lbs<L: Lane, const K: usize>(
    batch: Batch<'_, L, K>,
    out: &mut [[L::Out; 3]],
    normals: Normals<'_, L>,
) {
    let (palette, positions, influences) = batch.parts();
    let vertices = (positions, influences);
    with_bones!(palette, |get| lbs_with::<L, K>(get, vertices, out, normals))
}

/// The generic stitching loop over [`Lane`]'s primitives (see [`Lane::stitch`]):
/// `out[v] = M[bone[v]] · p[v]` and the normal through the same matrix, renormalised.
#[inline(always)]
pub(crate) fn stitch<L: Lane>(
    rigid: Rigid<'_, L>,
    out: &mut [[L::Out; 3]],
    normals: Normals<'_, L>,
) {
    let (palette, positions, bones) = rigid.parts();
    let get = |b: u8| &palette[usize::from(b)];
    match normals {
        None => {
            for ((p, &b), o) in positions.iter().zip(bones).zip(out) {
                // Row by row from the palette (not `rows.map`, which copies all twelve
                // entries first: on a Cortex-M0 that spills them).
                for (o, r) in o.iter_mut().zip(&get(b).rows) {
                    *o = L::point(r, p);
                }
            }
        }
        Some((normals, out_normals)) => {
            let verts = positions.iter().zip(bones).zip(normals);
            for (((p, &b), n), (o, on)) in verts.zip(out.iter_mut().zip(out_normals)) {
                let m = get(b);
                *o = m.rows.map(|r| L::point(&r, p));
                *on = L::normal(m, n);
            }
        }
    }
}

/// [`lbs`] with a lookup from bone index to palette matrix.
#[inline(always)]
fn lbs_with<'p, L: Lane, const K: usize>(
    get: impl Fn(u8) -> &'p Affine<L> + Copy,
    (positions, influences): (&[[L; 3]], &[Influence<L>]),
    out: &mut [[L::Out; 3]],
    normals: Normals<'_, L>,
) {
    match normals {
        None => {
            for ((p, inf), o) in positions.iter().zip(influences).zip(out) {
                let (m, w) = gather::<L, K>(get, inf);
                for (r, o) in o.iter_mut().enumerate() {
                    *o = L::point(&blend_row(&m, &w, r), p);
                }
            }
        }
        Some((normals, out_normals)) => {
            let verts = positions.iter().zip(influences).zip(normals);
            for (((p, inf), n), (o, on)) in verts.zip(out.iter_mut().zip(out_normals)) {
                let (m, w) = gather::<L, K>(get, inf);
                let mut v = [L::Acc::default(); 3];
                for (r, (o, v)) in o.iter_mut().zip(&mut v).enumerate() {
                    let row = blend_row(&m, &w, r);
                    *o = L::point(&row, p);
                    *v = L::linear(&row, n);
                }
                *on = L::unit(v);
            }
        }
    }
}

/// Slots of the bone table of [`with_bones`].
pub(crate) const BONE_SLOTS: usize = 64;

/// Whether [`with_bones`] uses its table: on ARM, where it measured faster (an LBS-4 vertex
/// saves four compare-and-branch bounds checks and four `× 24`/`× 48` address computations),
/// and in this crate's tests (so that the host tests run it too); elsewhere (x86-64: up to
/// 6% slower on the fixed lane) the palette is indexed directly (`docs/BENCHMARKS.md`).
pub(crate) const BONE_TABLE: bool = cfg!(any(target_arch = "arm", test));

/// `with_bones!(palette, |get| body)`: runs `body` with `get`, a function from a bone index
/// (already checked against the palette) to its matrix. Where [`BONE_TABLE`] is set, for
/// palettes of at most [`BONE_SLOTS`] matrices, `get` reads a table of references indexed by
/// the bone byte
/// masked to 6 bits: no bounds check and no `× size_of::<Affine<L>>()` address arithmetic
/// per bone, for one store per slot per call (slots past the palette point at its first
/// matrix; the mask changes no checked index). Larger palettes are indexed directly.
/// `body` is compiled once for each.
macro_rules! with_bones {
    ($palette:expr, |$get:ident| $body:expr) => {{
        let palette = $palette;
        match palette
            .first()
            .filter(|_| $crate::skin::BONE_TABLE && palette.len() <= $crate::skin::BONE_SLOTS)
        {
            Some(first) => {
                let mut slots = [first; $crate::skin::BONE_SLOTS];
                for (s, m) in slots.iter_mut().zip(palette) {
                    *s = m;
                }
                let slots = &slots;
                let $get = move |b: u8| slots[usize::from(b) % $crate::skin::BONE_SLOTS];
                $body
            }
            None => {
                let $get = move |b: u8| &palette[usize::from(b)];
                $body
            }
        }
    }};
}
pub(crate) use with_bones;

/// A vertex's `K` palette matrices and their weights (the first one implicit).
#[inline(always)]
#[allow(clippy::type_complexity)]
pub(crate) fn gather<'p, L: Lane, const K: usize>(
    get: impl Fn(u8) -> &'p Affine<L>,
    inf: &Influence<L>,
) -> ([&'p Affine<L>; K], [L::Weight; K]) {
    let (b, s) = (inf.bones(), inf.stored());
    let m = core::array::from_fn(|k| get(b[k]));
    let w = core::array::from_fn(|k| if k == 0 { L::lead_weight(s) } else { s[k - 1] });
    (m, w)
}

/// Row `r` of the blended matrix `Σₖ wₖ Mₖ`, each entry summed as
/// `((w₁e₁ + w₂e₂) + w₃e₃) + w₀e₀` (see [`Lane::lead_weight`]).
#[inline(always)]
pub(crate) fn blend_row<L: Lane, const K: usize>(
    m: &[&Affine<L>; K],
    w: &[L::Weight; K],
    r: usize,
) -> [L; 4] {
    if K == 1 {
        return m[0].rows[r];
    }
    core::array::from_fn(|c| {
        let mut acc = L::term(w[1], m[1].rows[r][c]);
        for k in 2..K {
            acc = L::weigh(acc, w[k], m[k].rows[r][c]);
        }
        L::settle(L::weigh(acc, w[0], m[0].rows[r][c]))
    })
}

/// The input and output normals must match the mesh's length.
fn check_normals<L: Lane>(len: usize, normals: &[[L; 3]], out: &[[L; 3]]) -> Result<(), Error> {
    check_len(len, normals.len())?;
    check_len(len, out.len())
}

fn check_len(expected: usize, actual: usize) -> Result<(), Error> {
    if expected == actual {
        Ok(())
    } else {
        Err(Error::LengthMismatch { expected, actual })
    }
}

/// The first `K` bone slots.
fn first<const K: usize>(b: [u8; 4]) -> [u8; K] {
    core::array::from_fn(|k| b[k])
}

/// The palette must hold every bone the mesh uses; find the first offender for the error.
fn check_palette<const K: usize>(
    palette: usize,
    bone_count: usize,
    bones: impl Iterator<Item = [u8; K]>,
) -> Result<(), Error> {
    if bone_count <= palette {
        return Ok(());
    }
    let offender = bones.enumerate().find_map(|(vertex, bs)| {
        bs.into_iter()
            .find(|&b| usize::from(b) >= palette)
            .map(|b| (vertex, b))
    });
    let (vertex, bone) = offender.unwrap_or((0, 0));
    Err(Error::BoneIndex {
        vertex,
        bone: u16::from(bone),
        bones: palette,
    })
}
