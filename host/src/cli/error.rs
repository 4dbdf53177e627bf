//! Why a command failed, and the exit status it gets.

use crate::bake::BakeError;
use crate::envelope::WeightsError;
use crate::error::ImportError;
use crate::gpu::GpuError;
use crate::pose::PoseError;
use crate::render::RenderError;
use crate::validate::ValidateError;

/// Why a command failed: bad input of some kind (exit status 2).
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// The model could not be imported.
    #[error("{path}: {source}")]
    Import {
        /// The model.
        path: String,
        /// Why.
        #[source]
        source: ImportError,
    },
    /// The model could not be posed or baked.
    #[error("{path}: {source}")]
    Pose {
        /// The model.
        path: String,
        /// Why.
        #[source]
        source: PoseError,
    },
    /// The model could not be baked.
    #[error("{path}: {source}")]
    Bake {
        /// The model.
        path: String,
        /// Why.
        #[source]
        source: BakeError,
    },
    /// The model could not be rendered.
    #[error("{path}: {source}")]
    Render {
        /// The model.
        path: String,
        /// Why.
        #[source]
        source: RenderError,
    },
    /// Validation could not run.
    #[error("{path}: {source}")]
    Validate {
        /// The model.
        path: String,
        /// Why.
        #[source]
        source: ValidateError,
    },
    /// Envelope weights could not be computed.
    #[error("{path}: {source}")]
    Weights {
        /// The model.
        path: String,
        /// Why.
        #[source]
        source: WeightsError,
    },
    /// No GPU adapter or device.
    #[error(transparent)]
    Gpu(#[from] GpuError),
    /// Validation ran and an error exceeded its threshold (exit status 1).
    #[error("{path}: validation failed: {reasons}")]
    Failed {
        /// The model.
        path: String,
        /// What exceeded its threshold.
        reasons: String,
    },
    /// The model does not fit the board asked about (exit status 1).
    #[error("{path} does not fit {board}: {reasons}")]
    DoesNotFit {
        /// The model.
        path: String,
        /// The board.
        board: &'static str,
        /// Which limits fail, and by how much.
        reasons: String,
    },
    /// Anything else the user asked for that cannot be done.
    #[error("{0}")]
    Usage(String),
    /// Writing the output failed.
    #[error("cannot write output: {0}")]
    Output(#[from] std::io::Error),
    /// An output file could not be written (or its content made).
    #[error(transparent)]
    File(#[from] crate::output::OutputError),
}

impl CliError {
    /// The exit status: 1 for a failed validation or a model that does not fit the board
    /// asked about, 2 for everything else (bad input, no GPU).
    pub fn status(&self) -> u8 {
        match self {
            CliError::Failed { .. } | CliError::DoesNotFit { .. } => 1,
            _ => 2,
        }
    }
}
