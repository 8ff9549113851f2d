//! Why an estimate could not be made, and the check of a PI level at the
//! edge.

use super::prediction::{Method, Phase};
use serde::{Deserialize, Serialize};

/// Why an estimate could not be made.
#[derive(Clone, Debug, PartialEq, thiserror::Error, Serialize, Deserialize)]
pub enum EstimateError {
    /// A setting is out of range.
    #[error("estimation parameter `{name}` {why}")]
    Param {
        /// The setting.
        name: String,
        /// What is wrong.
        why: String,
    },
    /// No jobs to learn from.
    #[error("the job history is empty")]
    EmptyHistory,
    /// A history job cannot be used.
    #[error("history job {index} (`{job}`): {why}")]
    BadJob {
        /// Position in the history (0-based).
        index: usize,
        /// Its name.
        job: String,
        /// What is wrong.
        why: String,
    },
    /// The job to estimate is not described well enough.
    #[error("the job to estimate: {0}")]
    BadQuery(String),
    /// A numeric input (feature matrix, targets) is malformed.
    #[error("{0}")]
    BadInput(String),
    /// Too few jobs for the method.
    #[error("{method} needs at least {needed} jobs, got {got}")]
    TooFewJobs {
        /// The method.
        method: Method,
        /// Jobs it needs.
        needed: usize,
        /// Jobs it got.
        got: usize,
    },
    /// No history job has the phase (all map-only, for the reduce phase).
    #[error("no job of the history has a {phase} phase")]
    NoJobsWithPhase {
        /// The phase.
        phase: Phase,
    },
    /// The kernel matrix stayed singular with the largest jitter allowed.
    #[error("the GP kernel matrix is not positive definite even with jitter {jitter:e} on its diagonal (raise max_jitter or the noise-variance bound)")]
    NotPositiveDefinite {
        /// The largest jitter tried.
        jitter: f64,
    },
}

impl EstimateError {
    pub(crate) fn param(name: &str, why: impl Into<String>) -> Self {
        EstimateError::Param {
            name: name.to_string(),
            why: why.into(),
        }
    }
}

/// Checks a PI coverage level at the edge: a probability strictly between 0
/// and 1.
pub(crate) fn check_level(level: f64) -> Result<(), EstimateError> {
    if level.is_finite() && level > 0.0 && level < 1.0 {
        Ok(())
    } else {
        Err(EstimateError::param(
            "level",
            format!("must be strictly between 0 and 1 (e.g. 0.95), got {level}"),
        ))
    }
}
