//! Why `skin validate` could not run.

use crate::gpu::GpuError;
use crate::pose::PoseError;
use crate::render::RenderError;

/// Why validation could not run (as opposed to a threshold exceeded, which is a
/// [`super::Report`] whose [`super::Report::failures`] are not empty).
#[derive(Debug, thiserror::Error)]
pub enum ValidateError {
    /// Posing failed.
    #[error(transparent)]
    Pose(#[from] PoseError),
    /// The GPU reference failed.
    #[error(transparent)]
    Gpu(#[from] GpuError),
    /// A renderer failed.
    #[error(transparent)]
    Render(#[from] RenderError),
    /// Nothing to validate.
    #[error("{0}")]
    Nothing(String),
}
