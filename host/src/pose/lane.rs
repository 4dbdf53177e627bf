//! Which lane a command runs in, and which skinning method, chosen at run time.

/// A lane ([`skin_core::lane`]) chosen at run time: the number format of the whole
/// pipeline, from the pose maths to the skinned vertices. The `skin` tool's `--arith`
/// flag picks it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LaneKind {
    /// `f32` everywhere.
    F32,
    /// `I8F24` pose maths and the `I2F14` skinning lane ([`skin_core::lane::Q14`]).
    Fixed,
}

impl LaneKind {
    /// `"f32"` or `"fixed"`.
    pub fn name(self) -> &'static str {
        match self {
            LaneKind::F32 => "f32",
            LaneKind::Fixed => "fixed",
        }
    }
}

/// The skinning method, chosen at run time (the `skin` tool's `--skinning` flag).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Skinning {
    /// Linear blend skinning: the weighted sum of the joint matrices.
    #[default]
    Lbs,
    /// Dual quaternion skinning ([`skin_core::dual`]): the normalised weighted sum of the
    /// joints' unit dual quaternions; joints with scale or shear are refused.
    Dqs,
}

impl Skinning {
    /// `"lbs"` or `"dqs"`.
    pub fn name(self) -> &'static str {
        match self {
            Skinning::Lbs => "lbs",
            Skinning::Dqs => "dqs",
        }
    }
}
