//! A frame's bands shared between cores: core `c` of `n` draws bands `c`, `c + n`,
//! `c + 2n`, … (alternate bands on a two-core chip such as the RP2040), each into band
//! buffers of its own, and the display takes them in order, band 0 first, each from the
//! core that drew it.
//!
//! Nothing a core writes is read by another while the bands are drawn: each core bins the
//! frame into spans of its own (binning rewrites the spans' links as bands are drawn) and
//! passes over the bands it does not draw only to carry the triangles that reach further
//! down ([`Scene::render_share`](crate::scene::Scene::render_share)); the projected vertices
//! and the asset are read by both and written by neither. A band's buffers pass to the
//! display only once drawn, and back to their core once sent, so every band is the same
//! bits as when one core draws the whole frame.
//!
//! ```
//! use skin_core::raster::split::Share;
//! // Two cores, 60 bands: core 1 draws the odd ones; each band is drawn once.
//! let one = Share::new(1, 2).unwrap();
//! assert_eq!(one.bands(60).take(3).collect::<Vec<_>>(), [1, 3, 5]);
//! assert!((0..60).all(|b| Share::new(0, 2).unwrap().draws(b) != one.draws(b)));
//! ```

use super::RasterError;

/// The bands one core of several draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Share {
    core: usize,
    cores: usize,
}

impl Share {
    /// One core drawing every band.
    pub const WHOLE: Share = Share { core: 0, cores: 1 };

    /// Core `core`'s share of `cores` (numbered from 0); [`RasterError::Capacity`] when
    /// `core` is not below `cores`.
    pub fn new(core: usize, cores: usize) -> Result<Self, RasterError> {
        if core >= cores {
            return Err(RasterError::Capacity {
                what: "cores sharing a frame's bands",
                needed: core + 1,
                capacity: cores,
            });
        }
        Ok(Self { core, cores })
    }

    /// This core's number.
    pub fn core(self) -> usize {
        self.core
    }

    /// The cores sharing the frame.
    pub fn cores(self) -> usize {
        self.cores
    }

    /// The core that draws band `band` among `cores` (at least one).
    pub fn owner(band: usize, cores: usize) -> usize {
        band % cores.max(1)
    }

    /// Whether this core draws band `band`.
    pub fn draws(self, band: usize) -> bool {
        Self::owner(band, self.cores) == self.core
    }

    /// The bands this core draws of a frame of `bands`, top to bottom.
    pub fn bands(self, bands: usize) -> impl Iterator<Item = usize> {
        (self.core..bands).step_by(self.cores)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    extern crate std;
    use std::vec::Vec;

    #[test]
    fn every_band_is_drawn_by_one_core_and_sent_in_order() {
        for cores in 1..=4 {
            for bands in 0..70 {
                let shares: Vec<Share> =
                    (0..cores).map(|c| Share::new(c, cores).unwrap()).collect();
                // The display takes band b from its owner, in order: each core's bands
                // come up in the order it draws them.
                let mut next: Vec<_> = shares.iter().map(|s| s.bands(bands)).collect();
                for band in 0..bands {
                    let owner = Share::owner(band, cores);
                    assert_eq!(next[owner].next(), Some(band), "{cores} cores, band {band}");
                    let drawers = shares.iter().filter(|s| s.draws(band)).count();
                    assert_eq!(drawers, 1, "{cores} cores, band {band}");
                }
                assert!(
                    next.iter_mut().all(|n| n.next().is_none()),
                    "{cores} cores, {bands} bands"
                );
            }
        }
    }

    #[test]
    fn a_core_past_the_cores_is_refused() {
        assert_eq!(
            Share::new(2, 2),
            Err(RasterError::Capacity {
                what: "cores sharing a frame's bands",
                needed: 3,
                capacity: 2
            })
        );
        assert_eq!(Share::new(0, 1), Ok(Share::WHOLE));
    }
}
