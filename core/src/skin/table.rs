//! A part's LBS palette as the fixed lane's ARMv6-M kernel reads it, built once for all the
//! part's chunks instead of once a kernel call.
//!
//! The kernel blends the words `2e + 1` of a matrix's entries `e` (`skin::asm`'s ARMv6-M
//! module says why); it copied the palette into such a table on its stack at every call:
//! about 38 instructions a matrix, 814 a call for CesiumMan's 19 bones, 21 k a frame over
//! its 26 chunks of 128 vertices, and the micro:bit character's 14 bones over 35 chunks of 8
//! (`docs/BENCHMARKS.md`, "The palette table once a part"). A [`Table`] holds the words
//! for the part's palette; the scene builds it after the palette's fill and hands it with
//! every chunk (its owner borrows the palette, so it stays that palette's table). Elsewhere
//! (other targets, the `f32` lane, a palette of more than `P` matrices) it is empty and
//! the chunks take the loops they took before.
//!
//! ```
//! use skin_core::affine::Affine;
//! use skin_core::lane::Q14;
//! use skin_core::skin::{SkinnedMesh, Tabled};
//! use skin_core::vertex::Influence;
//! let half = Q14::from_num(0.5);
//! let palette = [Affine { rows: [[half; 4]; 3] }];
//! let tabled = Tabled::<Q14, 4>::new(&palette);
//! // The words only where the ARMv6-M kernel reads them.
//! assert_eq!(tabled.table_len(), usize::from(cfg!(skin_asm_v6m)));
//! let positions = [[half; 3]];
//! let influences = [Influence::<Q14>::rigid(0)];
//! let mesh = SkinnedMesh::<Q14, 4>::new(&positions, &influences).unwrap();
//! let (mut a, mut b) = ([[Default::default(); 3]; 1], [[Default::default(); 3]; 1]);
//! mesh.skin_tabled(&tabled, &mut a).unwrap();
//! mesh.skin(&palette, &mut b).unwrap();
//! assert_eq!(a, b);
//! ```

use crate::affine::Affine;
use crate::lane::Lane;
#[cfg(skin_asm_v6m)]
use crate::lane::{OfLane, Which};

/// One matrix's entries `e` as the words `2e + 1`, row by row (48 bytes: the kernel's
/// stride).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(transparent)]
pub(crate) struct Words(pub(crate) [i32; 12]);

/// A palette (borrowed: it stays this table's) with its table of up to `P` matrices (see
/// the module docs), empty but where the fixed lane's ARMv6-M kernel reads it.
#[derive(Clone, Debug)]
pub struct Tabled<'p, L: Lane, const P: usize> {
    palette: &'p [Affine<L>],
    table: Table<P>,
}

impl<'p, L: Lane, const P: usize> Tabled<'p, L, P> {
    /// `palette` with its table, built now.
    #[inline]
    pub fn new(palette: &'p [Affine<L>]) -> Self {
        Self {
            palette,
            table: Table::of(palette),
        }
    }

    /// The palette.
    pub fn palette(&self) -> &'p [Affine<L>] {
        self.palette
    }

    /// The matrices its table holds: the palette's, or 0 where it has none.
    pub fn table_len(&self) -> usize {
        self.table.words().len()
    }

    /// The table.
    pub(crate) fn table(&self) -> &Table<P> {
        &self.table
    }
}

/// The words of up to `P` matrices of a palette (empty but where the ARMv6-M kernel reads
/// them).
#[derive(Clone, Debug)]
pub(crate) struct Table<const P: usize> {
    #[cfg(skin_asm_v6m)]
    words: [Words; P],
    #[cfg(skin_asm_v6m)]
    len: usize,
}

impl<const P: usize> Table<P> {
    /// The table of `palette`'s matrices: its words in the fixed lane on ARMv6-M when it
    /// holds at most `P`, else empty.
    #[inline]
    pub(crate) fn of<L: Lane>(palette: &[Affine<L>]) -> Self {
        #[cfg(skin_asm_v6m)]
        {
            let mut table = Self {
                words: [Words::default(); P],
                len: 0,
            };
            if let Which::Q14(palette) = L::which::<Matrices<'_>>(palette) {
                if palette.len() <= P {
                    for (w, m) in table.words.iter_mut().zip(palette) {
                        let entries = m.rows.as_flattened();
                        w.0 = core::array::from_fn(|i| 2 * i32::from(entries[i].to_bits()) + 1);
                    }
                    table.len = palette.len();
                }
            }
            table
        }
        #[cfg(not(skin_asm_v6m))]
        {
            let _ = palette;
            Self {}
        }
    }

    /// The words of its matrices.
    pub(crate) fn words(&self) -> &[Words] {
        #[cfg(skin_asm_v6m)]
        return &self.words[..self.len];
        #[cfg(not(skin_asm_v6m))]
        &[]
    }
}

/// The argument of [`Table::of`], for [`Lane::which`].
#[cfg(skin_asm_v6m)]
type Matrices<'a> = core::marker::PhantomData<&'a [(); 2]>;

#[cfg(skin_asm_v6m)]
impl<'a> OfLane for Matrices<'a> {
    type Of<L: Lane> = &'a [Affine<L>];
}
