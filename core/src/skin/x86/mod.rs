//! The `f32` lane's loops on x86 with SSE2: four vertices at a time in SSE2 (`quad`), and
//! eight at a time in AVX2 (`avx2`), chosen at run time where the processor has it; and
//! the DQS loop, eight at a time in AVX2 (`avx2::dqs`), else the generic one.

#[allow(unsafe_code)] // entering the AVX2 loop after run-time detection (see the module)
mod avx2;
mod quad;

pub(super) use avx2::{dqs, lbs};
pub(super) use quad::stitch;
