//! Matrix layouts: how one bone's transform is stored in a shader's float4 constant
//! registers. [`crate::budget`] divides a register budget by a layout's size; errors name
//! the layout a budget was exceeded with.
//!
//! ```
//! use skin_core::layout::Layout;
//! assert_eq!(Layout::Affine3x4.registers(), 3);
//! assert_eq!(Layout::DualQuat.name(), "dq");
//! ```

/// How one bone's transform is stored in constant registers (float4 each).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Layout {
    /// A full 4×4 matrix: 4 registers.
    Mat4x4,
    /// An affine 3×4 matrix (last row implied): 3 registers.
    Affine3x4,
    /// A unit dual quaternion (rotation + translation, no scale): 2 registers.
    DualQuat,
}

impl Layout {
    /// All layouts, widest first.
    pub const ALL: [Layout; 3] = [Layout::Mat4x4, Layout::Affine3x4, Layout::DualQuat];

    /// Registers one bone takes.
    pub const fn registers(self) -> usize {
        match self {
            Layout::Mat4x4 => 4,
            Layout::Affine3x4 => 3,
            Layout::DualQuat => 2,
        }
    }

    /// A short name: `4x4`, `3x4` or `dq`.
    pub const fn name(self) -> &'static str {
        match self {
            Layout::Mat4x4 => "4x4",
            Layout::Affine3x4 => "3x4",
            Layout::DualQuat => "dq",
        }
    }
}
