//! Shader constant-register budgets: how many bone matrices a vertex shader can hold.
//!
//! Old vertex shaders kept the bone palette in float4 *constant registers*. A budget is a
//! register count minus the registers the rest of the shader reserves; a [`Layout`] says how
//! many registers one bone takes. Their quotient is the palette's capacity, a `const fn`, so
//! palettes can be sized by it at compile time:
//!
//! ```
//! use skin_core::budget::{Budget, Layout};
//! use skin_core::palette::Palette;
//! const CAP: usize = Budget::VS_1_1.capacity(Layout::Affine3x4);
//! let palette: Palette<f32, CAP> = Palette::new();
//! assert_eq!(palette.capacity(), 32);
//! // A skin with 40 joints does not fit: a typed error at load time.
//! assert!(Budget::VS_1_1.check(40, Layout::Affine3x4).is_err());
//! ```
//!
//! | preset | limit | 4×4 (4 regs) | 3×4 (3 regs) | dual quaternion (2 regs) |
//! |---|---|---|---|---|
//! | [`Budget::VS_1_1`] D3D vertex shader 1.1 | 96 registers | 24 | 32 | 48 |
//! | [`Budget::VS_2_0`] D3D vertex shader 2.0 | 256 registers | 64 | 85 | 128 |
//! | [`Budget::VS_3_0`] D3D vertex shader 3.0 | 256 registers | 64 | 85 | 128 |
//! | [`Budget::GLES2`] OpenGL ES 2.0 minimum `GL_MAX_VERTEX_UNIFORM_VECTORS` | 128 vectors | 32 | 42 | 64 |
//! | [`Budget::OES_MATRIX_PALETTE`] `GL_OES_matrix_palette` minimum | 9 matrices | 9 | 9 | — |
//! | [`Budget::OES_EXTENDED_MATRIX_PALETTE`] `GL_OES_extended_matrix_palette` minimum | 32 matrices | 32 | 32 | — |
//! | [`Budget::WGPU_16K`] wgpu / WebGL2 16 KiB uniform buffer | 1024 vectors | 256 | 341 | 512 |
//!
//! The presets reserve no registers (these are the guaranteed totals); a real shader also
//! needs its view-projection matrix, lights and so on: [`Budget::reserve`] subtracts them.
//! The `GL_OES_matrix_palette` presets count matrices of the fixed-function pipeline, which
//! has no dual-quaternion mode (capacity 0).

use crate::error::Error;
pub use crate::layout::Layout;

/// What a budget limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Limit {
    /// A number of float4 constant registers (or uniform vectors).
    Registers(usize),
    /// A number of palette matrices, whatever their layout (fixed-function hardware).
    Matrices(usize),
}

/// A constant-register budget: a limit and the registers the rest of the shader reserves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Budget {
    /// A short name for reports and errors, e.g. `vs_2_0`.
    pub name: &'static str,
    /// The limit.
    pub limit: Limit,
    /// Registers (or matrices) taken by everything else.
    pub reserved: usize,
}

impl Budget {
    /// Direct3D vertex shader 1.1: 96 constant registers.
    pub const VS_1_1: Budget = Budget::registers("vs_1_1", 96);
    /// Direct3D vertex shader 2.0: 256 constant registers.
    pub const VS_2_0: Budget = Budget::registers("vs_2_0", 256);
    /// Direct3D vertex shader 3.0: 256 constant registers.
    pub const VS_3_0: Budget = Budget::registers("vs_3_0", 256);
    /// OpenGL ES 2.0: at least 128 vertex uniform vectors.
    pub const GLES2: Budget = Budget::registers("gles2", 128);
    /// `GL_OES_matrix_palette`: at least 9 palette matrices.
    pub const OES_MATRIX_PALETTE: Budget = Budget {
        name: "oes_matrix_palette",
        limit: Limit::Matrices(9),
        reserved: 0,
    };
    /// `GL_OES_extended_matrix_palette`: at least 32 palette matrices.
    pub const OES_EXTENDED_MATRIX_PALETTE: Budget = Budget {
        name: "oes_extended_matrix_palette",
        limit: Limit::Matrices(32),
        reserved: 0,
    };
    /// A 16 KiB uniform buffer (WebGL2 / wgpu downlevel minimum): 1024 float4 vectors.
    pub const WGPU_16K: Budget = Budget::registers("wgpu_16k", 16 * 1024 / 16);

    /// Every preset, smallest first.
    pub const PRESETS: [Budget; 7] = [
        Budget::OES_MATRIX_PALETTE,
        Budget::OES_EXTENDED_MATRIX_PALETTE,
        Budget::VS_1_1,
        Budget::GLES2,
        Budget::VS_2_0,
        Budget::VS_3_0,
        Budget::WGPU_16K,
    ];

    /// A budget of `registers` float4 registers, none reserved.
    pub const fn registers(name: &'static str, registers: usize) -> Budget {
        Budget {
            name,
            limit: Limit::Registers(registers),
            reserved: 0,
        }
    }

    /// The same budget with `n` more registers (or matrices) reserved.
    pub const fn reserve(self, n: usize) -> Budget {
        Budget {
            reserved: self.reserved + n,
            ..self
        }
    }

    /// The preset called `name` (case-insensitive, `-` and `.` read as `_`).
    pub fn preset(name: &str) -> Option<Budget> {
        let norm = |c: char| match c {
            '-' | '.' => '_',
            c => c.to_ascii_lowercase(),
        };
        Self::PRESETS.into_iter().find(|b| {
            b.name.len() == name.len()
                && b.name.chars().zip(name.chars()).all(|(a, c)| a == norm(c))
        })
    }

    /// How many bones fit with `layout`.
    pub const fn capacity(&self, layout: Layout) -> usize {
        match self.limit {
            Limit::Registers(r) => r.saturating_sub(self.reserved) / layout.registers(),
            Limit::Matrices(m) => match layout {
                Layout::DualQuat => 0,
                _ => m.saturating_sub(self.reserved),
            },
        }
    }

    /// `Ok` when `bones` palette entries fit, else [`Error::BudgetExceeded`].
    pub fn check(&self, bones: usize, layout: Layout) -> Result<(), Error> {
        let capacity = self.capacity(layout);
        if bones <= capacity {
            Ok(())
        } else {
            Err(Error::BudgetExceeded {
                bones,
                capacity,
                budget: self.name,
                layout,
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capacities_match_the_sources() {
        // vs_1_1's 96 registers hold 24 4×4 or 32 3×4 bones; vs_2_0's 256 hold 64 or 85.
        assert_eq!(Budget::VS_1_1.capacity(Layout::Mat4x4), 24);
        assert_eq!(Budget::VS_1_1.capacity(Layout::Affine3x4), 32);
        assert_eq!(Budget::VS_2_0.capacity(Layout::Mat4x4), 64);
        assert_eq!(Budget::VS_2_0.capacity(Layout::Affine3x4), 85);
        assert_eq!(Budget::VS_3_0.capacity(Layout::Affine3x4), 85);
        assert_eq!(Budget::GLES2.capacity(Layout::Affine3x4), 42);
        assert_eq!(Budget::OES_MATRIX_PALETTE.capacity(Layout::Mat4x4), 9);
        assert_eq!(
            Budget::OES_EXTENDED_MATRIX_PALETTE.capacity(Layout::Affine3x4),
            32
        );
        assert_eq!(Budget::OES_MATRIX_PALETTE.capacity(Layout::DualQuat), 0);
        // Bevy's 256-joint limit comes from 16 KiB of 4×4 matrices.
        assert_eq!(Budget::WGPU_16K.capacity(Layout::Mat4x4), 256);
        assert_eq!(Budget::WGPU_16K.capacity(Layout::DualQuat), 512);
    }

    #[test]
    fn reserving_lowers_capacity() {
        let b = Budget::VS_1_1.reserve(8);
        assert_eq!(b.capacity(Layout::Mat4x4), 22);
        assert_eq!(Budget::VS_1_1.reserve(500).capacity(Layout::Mat4x4), 0);
    }

    #[test]
    fn check_reports_the_budget() {
        assert_eq!(Budget::VS_2_0.check(85, Layout::Affine3x4), Ok(()));
        assert_eq!(
            Budget::VS_1_1.check(33, Layout::Affine3x4),
            Err(Error::BudgetExceeded {
                bones: 33,
                capacity: 32,
                budget: "vs_1_1",
                layout: Layout::Affine3x4
            })
        );
    }

    #[test]
    fn presets_by_name() {
        assert_eq!(Budget::preset("VS-2.0"), Some(Budget::VS_2_0));
        assert_eq!(Budget::preset("gles2"), Some(Budget::GLES2));
        assert_eq!(Budget::preset("vs_4_0"), None);
    }
}
