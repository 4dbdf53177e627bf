//! Binning: once a frame, the front-facing triangles that reach the screen, listed by the
//! band where they start, so that each band draws only the triangles that reach it instead
//! of testing all of them (a 240-row frame in 16-row bands otherwise sets up every
//! triangle 15 times), without scanning the others either.
//!
//! Each band draws the triangles that start in it merged with those carried over from the
//! band above (drawn there and reaching further down), both lists in triangle order, so
//! every band draws its triangles in the asset's order and a frame is the same bits binned
//! or not. The lists are linked through the spans themselves: one link per span serves its
//! band's list and then the carried list, as a span is in one list at a time.

use core::ops::Range;

use super::band::{fetch, visible, Triangle};
use super::{Band, RasterError, ScreenVertex};
use crate::indices::U16s;
use embedded_graphics_core::pixelcolor::Rgb565;

/// A front-facing triangle that reaches the screen: its vertices (indices into the whole
/// asset's projected vertices), the last row it may cover, and the next span of the list
/// it is in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Span {
    v: [u16; 3],
    bottom: u16,
    next: u16,
}

/// The end of a list (and the most spans a frame may bin).
const NONE: u16 = u16::MAX;

/// The most bands a binned frame may have (more are drawn unbinned: the same picture).
pub(crate) const MAX_BANDS: usize = 128;

/// One draw call: the run of the frame's projected vertices it uses, and its triangle
/// indices, local to that run.
pub type DrawCall<'a> = (Range<usize>, U16s<'a>);

/// The projected vertices `range` of a frame of `total`, or [`RasterError::Buffer`].
pub(crate) fn run_of(
    vertices: &[ScreenVertex],
    range: Range<usize>,
    total: usize,
) -> Result<&[ScreenVertex], RasterError> {
    vertices.get(range).ok_or(RasterError::Buffer {
        needed: total,
        len: vertices.len(),
    })
}

/// A frame's binned triangles: the first span of each band's list, and where drawing
/// the bands has got to.
#[derive(Clone, Debug)]
pub(crate) struct Bins {
    /// First span starting in each band.
    heads: [u16; MAX_BANDS],
    /// The next band to draw.
    band: usize,
    /// Spans drawn by the previous band that reach further down.
    carried: u16,
}

/// Bins the triangles of the draw calls `parts` on a `width × height` screen drawn in bands of `rows`
/// rows into `spans`; `None` when they do not fit (more visible triangles than `spans`
/// holds or 65535, vertices beyond 65536, more than [`MAX_BANDS`] bands, a screen taller
/// than 1024 rows): the caller then draws unbinned.
// Not inlined (nor `Bins::draw`): compiled on their own, their loops get the registers to
// themselves; inlined into a frame loop the M0 code spilled more (measured: binning and
// drawing together 2.39 M -> 2.33 M instructions a CesiumMan frame).
#[inline(never)]
pub(crate) fn bin<'a>(
    parts: impl Iterator<Item = DrawCall<'a>>,
    vertices: &[ScreenVertex],
    total: usize,
    (width, height, rows): (u16, u16, u16),
    spans: &mut [Span],
) -> Result<Option<Bins>, RasterError> {
    if rows == 0 || rows > 1024 || height > 1024 || usize::from(height.div_ceil(rows)) > MAX_BANDS {
        return Ok(None);
    }
    let room = spans.len().min(usize::from(NONE));
    let spans = &mut spans[..room];
    let band_of = BandOf::new(rows);
    let mut heads = [NONE; MAX_BANDS];
    let mut tails = [NONE; MAX_BANDS];
    let mut n = 0;
    for (range, idx) in parts {
        let base = range.start;
        let v = run_of(vertices, range, total)?;
        if base + v.len() > 1 << 16 {
            return Ok(None);
        }
        if idx.len() % 3 != 0 {
            return Err(RasterError::Indices { len: idx.len() });
        }
        for (k, tri) in idx.triangles().enumerate() {
            let get = |i: u16| v.get(usize::from(i));
            let (Some(a), Some(b), Some(c)) = (get(tri[0]), get(tri[1]), get(tri[2])) else {
                return Err(fetch(v, tri, 3 * k)
                    .err()
                    .unwrap_or(RasterError::Indices { len: 0 }));
            };
            let Some((top, bottom)) = visible([a, b, c], width, height) else {
                continue;
            };
            let Some(span) = spans.get_mut(n) else {
                return Ok(None);
            };
            // In u16: the part's vertices end at 2^16 at most.
            *span = Span {
                v: tri.map(|i| (base + usize::from(i)) as u16),
                bottom,
                next: NONE,
            };
            let b = band_of.row(top);
            match tails[b] {
                NONE => heads[b] = n as u16,
                tail => spans[usize::from(tail)].next = n as u16,
            }
            tails[b] = n as u16;
            n += 1;
        }
    }
    Ok(Some(Bins {
        heads,
        band: 0,
        carried: NONE,
    }))
}

/// `row / rows` for rows below 1024 and bands of 1..=1024 rows without a division (a
/// library call on ARMv6-M): `⌊row · ⌈2^21 / rows⌉ / 2^21⌋`, exact as `row · rows < 2^21`.
#[derive(Clone, Copy, Debug)]
struct BandOf {
    inverse: u32,
}

impl BandOf {
    /// For bands of `rows` rows (1..=1024).
    fn new(rows: u16) -> Self {
        Self {
            inverse: (1u32 << 21).div_ceil(u32::from(rows.max(1))),
        }
    }

    /// The band of row `row` (below 1024).
    #[inline(always)]
    fn row(self, row: u16) -> usize {
        ((u32::from(row) * self.inverse) >> 21) as usize
    }
}

impl Bins {
    /// Draws, in `shades` (the material at each intensity), the binned triangles (`spans`,
    /// from [`bin`]) that reach `band`, the next band of the frame (bands are drawn top to
    /// bottom, each `rows` high as binned, the last maybe shorter), in triangle order.
    #[inline(never)] // see `bin`
    pub(crate) fn draw(
        &mut self,
        band: &mut Band<'_>,
        vertices: &[ScreenVertex],
        spans: &mut [Span],
        shades: &[Rgb565; 256],
    ) -> Result<(), RasterError> {
        let mut fresh = self.heads.get(self.band).copied().unwrap_or(NONE);
        self.band += 1;
        let below = band.y0() + band.rows();
        let mut carried = self.carried;
        // The spans that reach below this band, in order: the next band's carried list.
        let (mut head, mut tail) = (NONE, NONE);
        loop {
            // The earlier of the two lists' heads (NONE is larger than any span).
            let s = if carried < fresh {
                let s = carried;
                carried = spans[usize::from(s)].next;
                s
            } else if fresh != NONE {
                let s = fresh;
                fresh = spans[usize::from(s)].next;
                s
            } else {
                break;
            };
            let span = spans[usize::from(s)];
            if let Some(t) = Triangle::of(fetch(vertices, span.v, 0)?) {
                band.fill_in(&t, shades[usize::from(t.shade())]);
            }
            if span.bottom >= below {
                match tail {
                    NONE => head = s,
                    t => spans[usize::from(t)].next = s,
                }
                tail = s;
            }
        }
        if tail != NONE {
            spans[usize::from(tail)].next = NONE;
        }
        self.carried = head;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bands_of_rows_without_division() {
        for rows in 1..=1024u16 {
            let b = BandOf::new(rows);
            for row in 0..1024u16 {
                assert_eq!(b.row(row), usize::from(row / rows), "{row} / {rows}");
            }
        }
    }
}
