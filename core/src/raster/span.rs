//! A span: one binned triangle in a band's list (`super::bins`), four bytes, the layout
//! ARMv6-M's binning loop (`super::bins_v6m`) writes too. Its own module so that both the
//! Rust binning and the assembly name it without importing each other.

/// A front-facing triangle that reaches the screen: its number among the frame's triangles
/// (the draw calls' triangles counted in order) and the next span of the list it is in.
// In C's layout, word-aligned: ARMv6-M's binning (`bins_v6m`) writes one as a word.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C, align(4))]
pub struct Span {
    pub(super) triangle: u16,
    pub(super) next: u16,
}

/// The end of a list (and the most spans a frame may bin, and triangles it may number).
pub(super) const NONE: u16 = u16::MAX;

/// The most bands a binned frame may have (more are drawn unbinned: the same picture).
pub(crate) const MAX_BANDS: usize = 128;
