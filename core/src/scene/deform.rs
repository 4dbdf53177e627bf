//! Palette, deform and skin: per part, the palette for the pose (matrices, or unit dual
//! quaternions for an asset baked for DQS: [`PartPalette`]), then the part's vertices
//! skinned `C` at a time through a validated view ([`crate::skin`]'s `Batch`) and the loop
//! the dispatch point picks.
//!
//! This is where a deformer that changes vertices before skinning (morph targets) plugs in:
//! between reading a chunk's vertices and skinning them.

use super::morph::PartMorph;
use super::skinning::{check_method, Chunk, PartPalette, SkinChunk};
use super::{Scene, Stage, Stages};
use crate::affine::Affine;
use crate::asset::{AssetLane, Influences, PartView, Vectors, MAX_CORRECTIVES};
use crate::num::Real;
use crate::raster::{Project, RasterError};
use crate::skin::dispatch::Loop;
use crate::skin::Skinning;
use crate::vertex::Influence;

/// Vertices skinned `C` at a time (the only per-vertex RAM besides the projected
/// vertices): the skinned outputs, and the inputs copied from the asset where the lane
/// cannot skin them where they are stored ([`AssetLane::vectors_in_place`]).
#[derive(Clone, Debug)]
pub struct Scratch<L: Project, const C: usize> {
    positions: [[L; 3]; C],
    normals: [[L; 3]; C],
    influences: [Influence<L>; C],
    out: [[L::Out; 3]; C],
    out_normals: [[L; 3]; C],
    /// The clip time whose morph-target weights [`Scene::project`] applies (`None`: the
    /// stored defaults, as at rest).
    pub(super) time: Option<f32>,
    /// The largest |weight| the active-target budget dropped from a part in the last frame.
    dropped: f32,
    /// The corrective targets' weights [`Scene::correctives`] evaluated for the frame, in the
    /// order of the asset's RBFs and their targets (`None`: not evaluated, the targets take
    /// their clip's or default weights).
    pub(super) correctives: Option<[f32; MAX_CORRECTIVES]>,
}

impl<L: Project, const C: usize> Scratch<L, C> {
    /// Set the clip time whose morph-target weights the next [`Scene::project`] applies:
    /// the time given to [`Scene::pose`] (`None`, the default: the asset's default weights,
    /// as at rest). Without morph targets in the asset it changes nothing. It starts a frame:
    /// corrective weights evaluated before it are dropped, so [`Scene::correctives`] comes
    /// after it.
    ///
    /// ```
    /// use skin_core::scene::Scratch;
    /// let mut scratch = Scratch::<f32, 8>::default();
    /// scratch.set_time(Some(0.5));
    /// assert_eq!(scratch.time(), Some(0.5));
    /// assert_eq!(scratch.dropped_weight(), 0.0);
    /// ```
    pub fn set_time(&mut self, t: Option<f32>) {
        self.time = t;
        self.correctives = None;
    }

    /// The clip time whose morph-target weights the next projection applies.
    pub fn time(&self) -> Option<f32> {
        self.time
    }

    /// The largest sum of |weights| the active-target budget
    /// ([`crate::morph::ACTIVE_TARGETS`]) left out of a part in the last projection: 0
    /// when every non-zero weight was applied.
    pub fn dropped_weight(&self) -> f32 {
        self.dropped
    }
}

impl<L: Project, const C: usize> Default for Scratch<L, C> {
    fn default() -> Self {
        Self {
            positions: [[L::default(); 3]; C],
            normals: [[L::default(); 3]; C],
            influences: [Influence::default(); C],
            out: [[L::Out::default(); 3]; C],
            out_normals: [[L::default(); 3]; C],
            time: None,
            dropped: 0.0,
            correctives: None,
        }
    }
}

/// How a part's vertices are skinned: the loop, and whether it reads them where the asset
/// stores them or from copies in the [`Scratch`]. The firmware logs it per part, so that a
/// slower route than the target has (e.g. a misaligned asset, which must be copied) shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Route {
    /// The skinning loop ([`Loop::lbs`] or [`Loop::dqs`], by the asset's method).
    pub skinning: Loop,
    /// Read in place from the asset ([`AssetLane::vectors_in_place`]), not copied first.
    pub in_place: bool,
}

/// A part's stored vertices as the lane's own slices, read in place.
struct InPlace<'a, L: AssetLane> {
    positions: &'a [[L; 3]],
    influences: &'a [Influence<L>],
    normals: Option<&'a [[L; 3]]>,
}

/// A part's stored vertex arrays.
struct Stored<'a, L: AssetLane> {
    positions: Vectors<'a, L>,
    influences: Influences<'a, L>,
    normals: Option<Vectors<'a, L>>,
}

impl<'a, L: AssetLane> Stored<'a, L> {
    /// The arrays of `part`, each of its vertex count, or [`RasterError::Capacity`] (an asset
    /// read by [`crate::asset::Asset::read`] has them all).
    fn of(part: &PartView<'a, L>, total: usize) -> Result<Self, RasterError> {
        let n = part.vertex_range().len();
        let (positions, influences, normals) =
            (part.positions(), part.influences(), part.normals());
        let whole =
            positions.len() == n && influences.len() == n && normals.is_none_or(|v| v.len() == n);
        if !whole {
            return Err(RasterError::Capacity {
                what: "asset vertices",
                needed: part.vertex_range().end,
                capacity: total,
            });
        }
        Ok(Self {
            positions,
            influences,
            normals,
        })
    }

    /// The arrays read in place, if the lane reads all of them so.
    fn in_place(&self) -> Option<InPlace<'a, L>> {
        Some(InPlace {
            positions: self.positions.in_place()?,
            influences: self.influences.in_place()?,
            normals: match self.normals {
                Some(v) => Some(v.in_place()?),
                None => None,
            },
        })
    }
}

impl<L: AssetLane + Project, const N: usize> Scene<'_, L, N> {
    /// How `part` is skinned (see [`Route`]): what [`Self::project`] does for it in a frame
    /// where none of its morph targets is active (with one active, its chunks are copied
    /// into the [`Scratch`] and moved there first, whatever the route). An asset baked for
    /// DQS of joints with scale or shear takes the generic stretched loop (its frames with
    /// every joint rigid, the plain DQS route).
    pub fn route(&self, part: &PartView<'_, L>) -> Result<Route, RasterError> {
        let stored = Stored::of(part, self.vertices())?;
        Ok(Route {
            skinning: match self.asset.skinning() {
                Skinning::Lbs => Loop::lbs::<L>(4, part.bones().len()),
                Skinning::Dqs if self.asset.stretched() => Loop::Generic,
                Skinning::Dqs => Loop::dqs::<L>(4, part.bones().len()),
            },
            in_place: stored.in_place().is_some(),
        })
    }

    /// Skins every part for the world matrices `world` (morph targets at the scratch's
    /// [time](Scratch::set_time)), `C` vertices at a time, and hands each chunk to `each`:
    /// the asset index of its first vertex, its skinned positions (asset units, as the
    /// lane's loop writes them) and, when the asset has normals, its skinned normals. What
    /// [`Self::project`] projects, for tools and checks.
    pub fn skinned<const C: usize>(
        &self,
        world: &[Affine<L::Real>],
        palette: &mut impl PartPalette<L>,
        scratch: &mut Scratch<L, C>,
        mut each: impl FnMut(usize, &[[L::Out; 3]], Option<&[[L; 3]]>),
    ) -> Result<(), RasterError> {
        self.skin(world, palette, scratch, &mut (), |first, p, n| {
            each(first, p, n);
            Ok(())
        })
    }

    /// Skins every part, `C` vertices at a time, and hands each chunk to `each` (timed as
    /// [`Stage::Project`]) with the asset index of its first vertex, its skinned positions
    /// and, when the asset has normals, its skinned normals.
    pub(super) fn skin<Pal: PartPalette<L>, const C: usize>(
        &self,
        world: &[Affine<L::Real>],
        palette: &mut Pal,
        scratch: &mut Scratch<L, C>,
        stages: &mut impl Stages,
        mut each: impl FnMut(usize, &[[L::Out; 3]], Option<&[[L; 3]]>) -> Result<(), RasterError>,
    ) -> Result<(), RasterError> {
        check_method::<L, Pal>(self.asset.skinning())?;
        scratch.dropped = 0.0;
        let centre = Some(self.bind.centre()).filter(|c| *c != [L::Real::ZERO; 3]);
        for (index, part) in self.asset.parts().enumerate() {
            stages.time(Stage::Palette, || palette.fill(&part, &self.bind, world))?;
            let stored = Stored::of(&part, self.vertices())?;
            let (mut morph, dropped) = self.part_morph(index, scratch)?;
            scratch.dropped = scratch.dropped.max(dropped);
            // A morphed chunk is moved in the scratch: it takes the copied route.
            let in_place = stored.in_place().filter(|_| morph.is_none());
            // `Asset::read` checked every bone byte of the part's vertices against its
            // palette's length: its chunks are valid for `bones`.
            let bones = part.bones().len();
            // Prepared once for the part's chunks (the kernel's table, where it takes one).
            let palette = palette.prepare();
            let range = part.vertex_range();
            let lit = stored.normals.is_some();
            let mut start = 0;
            while start < range.len() {
                let n = C.min(range.len() - start);
                let s = &mut *scratch;
                let m = morph.as_mut();
                stages.time(Stage::Skin, || {
                    skin(
                        &palette,
                        bones,
                        in_place.as_ref(),
                        &stored,
                        m,
                        start..start + n,
                        s,
                    )?;
                    if let Some(c) = centre {
                        // Skinned relative to the centre (`BindPose::with_centre`): back.
                        for o in &mut s.out[..n] {
                            *o = [0, 1, 2].map(|i| L::offset(o[i], c[i]));
                        }
                    }
                    Ok::<(), RasterError>(())
                })?;
                let normals = lit.then_some(&s.out_normals[..n]);
                stages.time(Stage::Project, || {
                    each(range.start + start, &s.out[..n], normals)
                })?;
                start += n;
            }
        }
        Ok(())
    }
}

/// Skins `n` vertices of a part from its `start` into the scratch's outputs: read in place
/// where the lane reads the stored arrays so, else copied into the scratch first (and moved
/// there by the part's active morph targets, if any: `morph`, never with `in_place`). One call
/// of the dispatch point for both, so that the loops are compiled into the firmware once.
#[inline(always)]
fn skin<L: AssetLane + Project, const C: usize>(
    palette: &impl SkinChunk<L>,
    bones: usize,
    in_place: Option<&InPlace<'_, L>>,
    stored: &Stored<'_, L>,
    morph: Option<&mut PartMorph<'_, L>>,
    run: core::ops::Range<usize>,
    s: &mut Scratch<L, C>,
) -> Result<(), RasterError> {
    // `Stored::of` checked that every array holds the part's vertices, which these are.
    let (start, n) = (run.start, run.len());
    let (positions, influences, normals) = match in_place {
        Some(v) => (
            &v.positions[run.clone()],
            &v.influences[run.clone()],
            v.normals.map(|v| &v[run]),
        ),
        None => {
            if let Some(p) = stored.positions.slice(start, n) {
                p.copy_to(&mut s.positions[..n]);
            }
            if let Some(i) = stored.influences.slice(start, n) {
                i.copy_to(&mut s.influences[..n]);
            }
            let lit = stored.normals.is_some();
            if let Some(v) = stored.normals.and_then(|v| v.slice(start, n)) {
                v.copy_to(&mut s.normals[..n]);
            }
            if let Some(m) = morph {
                m.apply(
                    start,
                    &mut s.positions[..n],
                    lit.then_some(&mut s.normals[..n]),
                );
            }
            let normals = lit.then_some(&s.normals[..n]);
            (&s.positions[..n], &s.influences[..n], normals)
        }
    };
    let normals = normals.map(|v| (v, &mut s.out_normals[..n]));
    palette.skin(Chunk::new(
        bones,
        positions,
        influences,
        &mut s.out[..n],
        normals,
    ))
}
