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

/// The skinning method, chosen at run time (the `skin` tool's `--skinning` flag): core's,
/// which a baked asset records.
pub use skin_core::skin::Skinning;
