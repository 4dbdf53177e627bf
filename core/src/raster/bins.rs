//! Binning: once a frame, the front-facing triangles that reach the screen, listed by the
//! band where they start, so that each band draws only the triangles that reach it instead
//! of testing all of them (a 240-row frame in 4-row bands otherwise sets up every triangle
//! 60 times), without scanning the others either.
//!
//! Each band draws the triangles that start in it merged with those carried over from the
//! band above (drawn there and reaching further down), both lists in triangle order, so
//! every band draws its triangles in the asset's order and a frame is the same bits binned
//! or not. The lists are linked through the spans themselves: one link per span serves its
//! band's list and then the carried list, as a span is in one list at a time.
//!
//! A span is four bytes, the triangle's number in the frame and the link: its vertices are
//! read again from the index list when a band draws it, and whether it reaches the next
//! band comes from the rows its set-up finds, so a board's RAM holds a span per triangle of
//! the model (CesiumMan's 4,672 in 18.25 KiB; a micro:bit character's 520 in 2 KiB).

use core::ops::Range;

use super::band::{fetch, visible, Triangle};
pub use super::span::Span;
use super::span::{MAX_BANDS, NONE};

use super::{Band, RasterError, ScreenVertex};
use crate::indices::U16s;
use embedded_graphics_core::pixelcolor::Rgb565;

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
    /// The first triangle not binned (the spans ran out there): every band tests it and
    /// the triangles after it, as unbinned drawing does; `usize::MAX` when all are binned.
    unbinned: usize,
}

/// Bins the triangles of the draw calls `parts` on a `width × height` screen drawn in bands
/// of `rows` rows into `spans`; `None` when the bands cannot be binned (more than
/// [`MAX_BANDS`], a screen taller than 1024 rows): the caller then draws unbinned. When the
/// visible triangles outnumber the spans (or the triangles 65536), those from the first
/// without a span on are left unbinned, and each band draws them after its binned ones,
/// testing each: a frame slower by as much as it overflows, never a different picture.
// Not inlined (nor `Bins::draw`): compiled on their own, their loops get the registers to
// themselves; inlined into a frame loop the M0 code spilled more (measured: binning and
// drawing together 2.39 M -> 2.33 M instructions a CesiumMan frame).
#[inline(never)]
pub(crate) fn bin<'a>(
    parts: impl Iterator<Item = DrawCall<'a>>,
    vertices: &[ScreenVertex],
    total: usize,
    screen: (u16, u16, u16),
    spans: &mut [Span],
) -> Result<Option<Bins>, RasterError> {
    bin_with::<true>(parts, vertices, total, screen, spans)
}

/// The lists [`bin`] builds (each band's first span, and the first triangle left unbinned,
/// `usize::MAX` when none; the spans in `spans`), or its error: by the loop that other
/// targets take when `reference` (Rust's `hidden`, then binning one triangle at a time),
/// by `bin` itself otherwise (on ARMv6-M the assembly, `bins_v6m`). The firmware's device
/// check compares the two.
#[doc(hidden)]
pub fn lists<'a>(
    parts: impl Iterator<Item = DrawCall<'a>>,
    vertices: &[ScreenVertex],
    screen: (u16, u16, u16),
    spans: &mut [Span],
    reference: bool,
) -> Result<Option<([u16; MAX_BANDS], usize)>, RasterError> {
    let total = vertices.len();
    let bins = if reference {
        bin_with::<false>(parts, vertices, total, screen, spans)
    } else {
        bin(parts, vertices, total, screen, spans)
    };
    Ok(bins?.map(|b| (b.heads, b.unbinned)))
}

/// Bins the draw calls `parts` of `vertices` on a `width × height` screen in bands of
/// `rows` rows into `spans` ([`bin`]), then draws each band, top to bottom, in `buffers`
/// (cleared to black first; `width × rows` pixels at least) and `shades`, and hands it to
/// `each`: by binned drawing's walk of the lists (on ARMv6-M in the assembly, `fill_v6m`),
/// or, when `reference`, by the walk other targets take (one pair entry a triangle on
/// ARMv6-M). `false` when the bands cannot be binned. The firmware's device check compares
/// the two.
#[doc(hidden)]
#[allow(clippy::too_many_arguments)]
pub fn bands<'a, P: Iterator<Item = DrawCall<'a>>>(
    parts: impl Fn() -> P,
    vertices: &[ScreenVertex],
    (width, height, rows): (u16, u16, u16),
    spans: &mut [Span],
    (colours, depths): (&mut [Rgb565], &mut [u16]),
    shades: &[Rgb565; 256],
    reference: bool,
    mut each: impl FnMut(&Band<'_>),
) -> Result<bool, RasterError> {
    let total = vertices.len();
    let Some(mut bins) = bin(parts(), vertices, total, (width, height, rows), spans)? else {
        return Ok(false);
    };
    let mut y0 = 0;
    while y0 < height {
        let r = rows.min(height - y0);
        let mut band = Band::new(width, y0, r, &mut *colours, &mut *depths)?;
        band.clear(Rgb565::new(0, 0, 0));
        if reference {
            bins.draw_with::<false>(&mut band, parts(), vertices, spans, shades)?;
        } else {
            bins.draw(&mut band, parts(), vertices, spans, shades)?;
        }
        each(&band);
        y0 += r;
    }
    Ok(true)
}

/// [`bin`], by the assembly on ARMv6-M when `ASM` (`bin` itself), by Rust's loop otherwise.
#[inline(always)]
fn bin_with<'a, const ASM: bool>(
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
    let (mut n, mut number) = (0, 0usize);
    let mut unbinned = usize::MAX;
    'calls: for (range, idx) in parts {
        let v = run_of(vertices, range, total)?;
        if idx.len() % 3 != 0 {
            return Err(RasterError::Indices { len: idx.len() });
        }
        let (aligned, count) = (idx.aligned_triangles(), idx.len() / 3);
        let mut k = 0;
        while k < count {
            // The hidden triangles in a loop of their own (with aligned indices; the others
            // one at a time here): about half of a closed mesh's face away. On ARMv6-M the
            // visible ones are binned in that loop too (`bins_v6m`), up to the first it
            // leaves to this one (an index past the vertices, no span left).
            let mut top = NONE;
            let rest = aligned.get(k..).unwrap_or(&[]);
            #[cfg(not(skin_asm_v6m))]
            let skipped = hidden(rest, v, (width, height), &mut top);
            #[cfg(skin_asm_v6m)]
            let skipped = if !ASM {
                hidden(rest, v, (width, height), &mut top)
            } else {
                let mut lists = super::bins_v6m::Lists {
                    spans: &mut *spans,
                    used: n,
                    heads: &mut heads,
                    tails: &mut tails,
                };
                let screen = (width, height, band_of.inverse);
                let skipped = super::bins_v6m::bin(rest, number, v, screen, &mut lists);
                n = lists.used;
                skipped
            };
            (k, number) = (k + skipped, number + skipped);
            if k == count {
                break;
            }
            let (this, at) = (number, k);
            (k, number) = (k + 1, number + 1);
            if top == NONE {
                let tri = idx
                    .triangle(3 * at)
                    .ok_or(RasterError::Indices { len: 0 })?;
                let [a, b, c] = fetch(v, tri, 3 * at)?;
                match visible([a, b, c], width, height) {
                    Some((row, _)) => top = row,
                    None => continue,
                }
            }
            let (Some(span), Ok(triangle)) = (spans.get_mut(n), u16::try_from(this)) else {
                unbinned = this;
                break 'calls;
            };
            *span = Span {
                triangle,
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
        unbinned,
    }))
}

/// How many of `triangles` (little-endian indices into `v`) from the first are hidden:
/// turned away from the viewer, edge-on or off a `width × height` screen. When the first one
/// that is not is visible, its top row is left in `top` (one with an index past `v` leaves
/// `top` as it was). Compiled on its own, so that its loop keeps its few values in
/// registers (see `bin`).
#[inline(never)]
fn hidden(
    triangles: &[[u16; 3]],
    v: &[ScreenVertex],
    (width, height): (u16, u16),
    top: &mut u16,
) -> usize {
    for (n, t) in triangles.iter().enumerate() {
        let get = |i: u16| v.get(usize::from(u16::from_le(i)));
        let (Some(a), Some(b), Some(c)) = (get(t[0]), get(t[1]), get(t[2])) else {
            return n;
        };
        if let Some((row, _)) = visible([a, b, c], width, height) {
            *top = row;
            return n;
        }
    }
    triangles.len()
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
    /// bottom, each `rows` high as binned, the last maybe shorter), in triangle order;
    /// `parts` and `vertices` are the draw calls and projected vertices that were binned.
    #[inline(never)] // see `bin`
    pub(crate) fn draw<'a>(
        &mut self,
        band: &mut Band<'_>,
        parts: impl Iterator<Item = DrawCall<'a>>,
        vertices: &[ScreenVertex],
        spans: &mut [Span],
        shades: &[Rgb565; 256],
    ) -> Result<(), RasterError> {
        self.draw_with::<true>(band, parts, vertices, spans, shades)
    }

    /// [`Self::draw`]: on ARMv6-M with the lists walked in the assembly when `ASM`, in
    /// Rust (one pair entry a triangle) otherwise.
    #[inline(always)]
    fn draw_with<'a, const ASM: bool>(
        &mut self,
        band: &mut Band<'_>,
        parts: impl Iterator<Item = DrawCall<'a>>,
        vertices: &[ScreenVertex],
        spans: &mut [Span],
        shades: &[Rgb565; 256],
    ) -> Result<(), RasterError> {
        let mut fresh = self.heads.get(self.band).copied().unwrap_or(NONE);
        self.band += 1;
        let below = i32::from(band.y0()) + i32::from(band.rows());
        let mut carried = self.carried;
        let mut calls = Calls::new(parts, vertices);
        // The spans that reach below this band, in order: the next band's carried list.
        let (mut head, mut tail) = (NONE, NONE);
        let mut triangles = band.triangles(shades);
        loop {
            // On ARMv6-M the assembly draws the spans (`fill_v6m`) up to the first of
            // another draw call, with an index past the call's vertices, or the lists'
            // end, each of which this loop then takes one at a time.
            #[cfg(skin_asm_v6m)]
            if ASM {
                [fresh, carried, head, tail] =
                    triangles.walk(spans, [fresh, carried, head, tail], below, calls.current());
            }
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
            let number = usize::from(span.triangle);
            let Some(v) = calls.triangle(number)? else {
                return Err(calls.past_the_end(number));
            };
            let Some(bottom) = triangles.draw(v) else {
                continue;
            };
            if bottom >= below {
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
        // The triangles the spans had no room for, each tested by every band.
        let mut number = self.unbinned;
        while let Some(v) = calls.triangle(number)? {
            triangles.draw(v);
            number += 1;
        }
        Ok(())
    }

    /// Passes over the next band of the frame, which ends above row `below`, without
    /// drawing it (another core draws it, [`split`](super::split)): sets up the triangles
    /// that reach it only to carry those reaching further down to the next band, as
    /// [`Self::draw`] does. The same walk of the two lists as there, written out again:
    /// `draw` sharing it through a closure measured 40 k instructions slower a CesiumMan
    /// frame on the Cortex-M0 (2,305,000 -> 2,345,040).
    #[inline(never)] // see `bin`
    pub(crate) fn pass<'a>(
        &mut self,
        below: i32,
        parts: impl Iterator<Item = DrawCall<'a>>,
        vertices: &[ScreenVertex],
        spans: &mut [Span],
    ) -> Result<(), RasterError> {
        let mut fresh = self.heads.get(self.band).copied().unwrap_or(NONE);
        self.band += 1;
        let mut carried = self.carried;
        let mut calls = Calls::new(parts, vertices);
        let (mut head, mut tail) = (NONE, NONE);
        loop {
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
            let number = usize::from(spans[usize::from(s)].triangle);
            let Some(v) = calls.triangle(number)? else {
                return Err(calls.past_the_end(number));
            };
            if Triangle::of(v).is_some_and(|t| t.bottom() >= below) {
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

/// The draw calls of a frame walked alongside its triangles in order: the call holding the
/// triangle asked for, found by moving forward from the previous one's.
struct Calls<'a, 'v, P> {
    parts: P,
    vertices: &'v [ScreenVertex],
    /// The current call's vertices and indices, and its triangles' numbers in the frame.
    run: &'v [ScreenVertex],
    indices: U16s<'a>,
    /// The indices as `u16` triples when aligned, else empty.
    aligned: &'a [[u16; 3]],
    numbers: Range<usize>,
}

impl<'a, 'v, P: Iterator<Item = DrawCall<'a>>> Calls<'a, 'v, P> {
    fn new(parts: P, vertices: &'v [ScreenVertex]) -> Self {
        Self {
            parts,
            vertices,
            run: &[],
            indices: U16s::new(&[]),
            aligned: &[],
            numbers: 0..0,
        }
    }

    /// The vertices of triangle `number` of the frame, `None` past the last; no earlier
    /// triangle than the previous one asked for.
    #[inline(always)]
    fn triangle(&mut self, number: usize) -> Result<Option<[&'v ScreenVertex; 3]>, RasterError> {
        while number >= self.numbers.end {
            if !self.next_call()? {
                return Ok(None);
            }
        }
        let t = number - self.numbers.start;
        let tri = match self.aligned.get(t) {
            Some(tri) => tri.map(u16::from_le),
            None => (self.indices.triangle(3 * t)).ok_or(RasterError::Indices { len: 3 * t })?,
        };
        fetch(self.run, tri, 3 * t).map(Some)
    }

    /// The current call's aligned triangles (empty when not aligned), the first one's
    /// number in the frame, and its vertices.
    #[cfg(skin_asm_v6m)]
    #[inline(always)]
    fn current(&self) -> (&'a [[u16; 3]], usize, &'v [ScreenVertex]) {
        (self.aligned, self.numbers.start, self.run)
    }

    /// On to the next draw call; `false` when there is none.
    #[cold]
    fn next_call(&mut self) -> Result<bool, RasterError> {
        let Some((range, indices)) = self.parts.next() else {
            return Ok(false);
        };
        if indices.len() % 3 != 0 {
            return Err(RasterError::Indices { len: indices.len() });
        }
        self.run = run_of(self.vertices, range, self.vertices.len())?;
        self.indices = indices;
        self.aligned = indices.aligned_triangles();
        let start = self.numbers.end;
        self.numbers = start..start + indices.len() / 3;
        Ok(true)
    }

    /// The error for a binned triangle `number` past the draw calls (they are not those
    /// that were binned).
    #[cold]
    fn past_the_end(&self, number: usize) -> RasterError {
        RasterError::Capacity {
            what: "triangles in the draw calls",
            needed: number + 1,
            capacity: self.numbers.end,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    extern crate std;
    use embedded_graphics_core::pixelcolor::RgbColor;
    use proptest::collection::vec;
    use proptest::prelude::any;
    use std::vec::Vec;

    /// Colour and depth of every band of a `width × height` frame in `rows`-row bands, each
    /// drawn by `draw`.
    fn frame(
        (width, height, rows): (u16, u16, u16),
        mut draw: impl FnMut(&mut Band<'_>),
    ) -> Vec<(Rgb565, u16)> {
        let mut out = Vec::new();
        let n = usize::from(width) * usize::from(rows);
        let (mut colour, mut depth) = (std::vec![Rgb565::BLACK; n], std::vec![0u16; n]);
        let mut y0 = 0;
        while y0 < height {
            let r = rows.min(height - y0);
            let mut band = Band::new(width, y0, r, &mut colour, &mut depth).unwrap();
            band.clear(Rgb565::BLACK);
            draw(&mut band);
            out.extend(
                band.colour()
                    .iter()
                    .copied()
                    .zip(band.depth().iter().copied()),
            );
            y0 += r;
        }
        out
    }

    proptest::proptest! {
        /// Two draw calls of random triangles (tiny to screen-sized, partly off the
        /// screen, either facing), binned with room for all, some or none of them: every
        /// band the same bits as drawing every triangle, unbinned.
        #[test]
        fn binned_frames_are_the_unbinned_ones(
            points in vec((-120i16..500, -120i16..450, any::<u16>(), any::<u8>()), 3..24),
            split in 1usize..23,
            indices in vec(any::<u16>(), 0..40),
            more in vec(any::<u16>(), 0..40),
            rows in 1u16..30,
            room in 0usize..60,
            odd in proptest::bool::ANY,
        ) {
            let v: Vec<ScreenVertex> = points
                .iter()
                .map(|&(x, y, z, shade)| ScreenVertex { x, y, z, shade })
                .collect();
            let split = split.min(v.len() - 1);
            let runs = [0..split, split..v.len()];
            // Indices within each call's run, whole triangles only, as little-endian bytes
            // in `u16` storage: from its first byte (aligned), or its second when `odd`
            // (unaligned: binning then reads them a byte at a time).
            let words = |idx: &[u16], len: usize| -> Vec<u16> {
                let whole = idx.len() / 3 * 3;
                let values = idx[..whole].iter().flat_map(|&i| (i % len as u16).to_le_bytes());
                let mut w = std::vec![0u16; whole + 1];
                let bytes: &mut [u8] = bytemuck::cast_slice_mut(&mut w);
                for (b, v) in bytes[usize::from(odd)..].iter_mut().zip(values) {
                    *b = v;
                }
                w
            };
            let lists = [words(&indices, runs[0].len()), words(&more, runs[1].len())];
            fn view(w: &[u16], odd: bool) -> U16s<'_> {
                let bytes: &[u8] = bytemuck::cast_slice(w);
                U16s::new(&bytes[usize::from(odd)..usize::from(odd) + 2 * (w.len() - 1)])
            }
            let calls = || runs.iter().cloned().zip(lists.iter().map(|w| view(w, odd)));
            let shades: [Rgb565; 256] = core::array::from_fn(|i| Rgb565::new(i as u8 >> 3, i as u8 >> 2, 7));
            let size = (20, 17, rows);

            let want = frame(size, |band| {
                for (range, idx) in calls() {
                    band.draw_shaded(&v[range], idx.iter(), |s| shades[usize::from(s)]).unwrap();
                }
            });
            let mut spans = std::vec![Span::default(); room];
            let binned = bin(calls(), &v, v.len(), (20, 17, rows), &mut spans).unwrap();
            let visible = calls()
                .flat_map(|(range, idx)| {
                    let run = &v[range];
                    idx.triangles()
                        .filter(|t| visible([&run[usize::from(t[0])], &run[usize::from(t[1])], &run[usize::from(t[2])]], 20, 17).is_some())
                        .collect::<Vec<_>>()
                })
                .count();
            // Binned in full when every visible triangle has a span, else up to the first
            // without one.
            let mut bins = binned.expect("17 rows bin");
            proptest::prop_assert_eq!(bins.unbinned == usize::MAX, visible <= room);
            let got = frame(size, |band| {
                bins.draw(band, calls(), &v, &mut spans, &shades).unwrap();
            });
            proptest::prop_assert_eq!(got, want);
        }
    }

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
