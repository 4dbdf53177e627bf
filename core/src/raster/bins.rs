//! Binning: once a frame, the front-facing triangles that reach the screen and the rows
//! each may cover, so that every band draws only its own triangles instead of testing all
//! of them (a 240-row frame in 16-row bands otherwise sets up every triangle 15 times).
//! Triangles keep their order, so a frame is the same bits binned or not.

use core::ops::Range;

use super::band::{fetch, Triangle};
use super::{Band, RasterError, ScreenVertex};
use crate::asset::{AssetLane, PartView};
use embedded_graphics_core::pixelcolor::Rgb565;

/// A front-facing triangle that reaches the screen: its number among the asset's triangles
/// (all parts, in order) and the first and last rows it may cover.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Span {
    triangle: u32,
    top: u16,
    bottom: u16,
}

/// The projected vertices of `part`, or [`RasterError::Buffer`].
pub(crate) fn part_vertices<'v, L: AssetLane>(
    vertices: &'v [ScreenVertex],
    part: &PartView<'_, L>,
    total: usize,
) -> Result<&'v [ScreenVertex], RasterError> {
    vertices
        .get(part.vertex_range())
        .ok_or(RasterError::Buffer {
            needed: total,
            len: vertices.len(),
        })
}

/// Triangle `k` of `part`, fetched from the part's `vertices`.
fn triangle<L: AssetLane>(
    part: &PartView<'_, L>,
    vertices: &[ScreenVertex],
    k: usize,
) -> Result<[ScreenVertex; 3], RasterError> {
    let idx = part.indices();
    let at = 3 * k;
    match (idx.get(at), idx.get(at + 1), idx.get(at + 2)) {
        (Some(a), Some(b), Some(c)) => fetch(vertices, [a, b, c], at),
        _ => Err(RasterError::Indices { len: idx.len() }),
    }
}

/// Fills `spans` with the visible triangles of `parts` on a `width × height` screen;
/// returns how many, or `None` when `spans` may be too short (it needs one entry per
/// triangle: how many face the viewer is known only afterwards).
pub(crate) fn bin<'a, L: AssetLane + 'a>(
    parts: impl Iterator<Item = PartView<'a, L>>,
    vertices: &[ScreenVertex],
    total: usize,
    (width, height): (u16, u16),
    spans: &mut [Span],
) -> Result<Option<usize>, RasterError> {
    let mut n = 0;
    let mut first = 0u32;
    for part in parts {
        let v = part_vertices(vertices, &part, total)?;
        let idx = part.indices();
        if idx.len() % 3 != 0 {
            return Err(RasterError::Indices { len: idx.len() });
        }
        let count = idx.len() / 3;
        if spans.len() - n < count {
            return Ok(None);
        }
        for k in 0..count {
            let t = triangle(&part, v, k)?;
            if let Some((top, bottom)) = Triangle::new(&t).and_then(|t| t.rows(width, height)) {
                spans[n] = Span {
                    triangle: first + k as u32,
                    top,
                    bottom,
                };
                n += 1;
            }
        }
        first += count as u32;
    }
    Ok(Some(n))
}

/// Draws the binned triangles (`spans`, from [`bin`] over the same `parts`) that reach
/// `band`, in their order, in `material`.
pub(crate) fn draw<'a, L: AssetLane + 'a>(
    band: &mut Band<'_>,
    mut parts: impl Iterator<Item = PartView<'a, L>>,
    vertices: &[ScreenVertex],
    total: usize,
    spans: &[Span],
    material: Rgb565,
) -> Result<(), RasterError> {
    let rows = band.y0()..band.y0() + band.rows();
    // The part holding the current triangle, and its triangles' numbers.
    let mut current: Option<(PartView<'a, L>, &[ScreenVertex])> = None;
    let mut numbers: Range<u32> = 0..0;
    for s in spans {
        if s.bottom < rows.start || s.top >= rows.end {
            continue;
        }
        while !numbers.contains(&s.triangle) {
            let part = parts.next().ok_or(RasterError::Indices { len: 0 })?;
            let count = (part.indices().len() / 3) as u32;
            numbers = numbers.end..numbers.end + count;
            let v = part_vertices(vertices, &part, total)?;
            current = Some((part, v));
        }
        if let Some((part, v)) = &current {
            let k = (s.triangle - numbers.start) as usize;
            if let Some(t) = Triangle::new(&triangle(part, v, k)?) {
                band.fill(&t, material);
            }
        }
    }
    Ok(())
}
