//! Processing-time estimation of MRM §3.2: how long the map and the reduce
//! phase of a new job will take, with a prediction interval (PI), learned
//! from finished jobs of similar size.
//!
//! MRM sets deadlines from the *upper end* of a job's PI (§3.1, §5), so an
//! estimator is only useful here if it also says how wrong it may be. The
//! paper compares OLS, ridge, CCA and GP and keeps the two that give a PI in
//! a principled way; this module has those two and the paper's "Bin"
//! baseline:
//!
//! - [`gp`]: Gaussian-process regression with a squared-exponential ARD
//!   kernel, hyperparameters by maximum marginal likelihood (the paper's
//!   choice);
//! - [`ols`]: ordinary least squares with its Student-t PI;
//! - [`same_job`]: mean and variance of the same job's past runs (Verma et
//!   al.'s approach, the paper's "Bin").
//!
//! The features are those of §3.2 ([`features`]): map and reduce task
//! counts, map and reduce reduction factors, input, shuffle and output
//! bytes. One model per phase ([`Phase`]). [`history`] reads which jobs
//! train the models and generates a history from SWIM samples when none is
//! at hand; [`evaluate`] gives the analogues of the paper's Tables 2 and 3
//! (R², PI coverage, mean PI length) on a train/test split; [`estimator`]
//! fits everything for both phases and estimates one new job.

pub mod estimator;
pub mod evaluate;
pub mod features;
pub mod gp;
pub mod history;
pub mod ols;
pub(crate) mod optimize;
pub mod same_job;

pub use estimator::{EstimateParams, Estimator, JobEstimate, MethodEstimate};
pub use evaluate::{evaluate, EvaluateParams, Evaluation, MethodScore, PhaseEvaluation};
pub use features::{FeatureScale, Standardizer, TargetScale, FEATURE_NAMES};
pub use gp::{GaussianProcess, GpFit, GpParams, GpPrediction, GpWarning, Hyperparameters};
pub use history::{history_from_swim, training_data, HistoryParams};
pub use ols::Ols;
pub use same_job::{SameJob, SameJobEstimate};

use serde::{Deserialize, Serialize};
use std::fmt;

/// A phase of a MapReduce job. `Reduce` is the shuffle and reduce phases
/// together, as in the paper's Table 2 ("we combined the estimate for the
/// Shuffle and Reduce phase into a single estimate").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    /// The map phase.
    Map,
    /// Shuffle and reduce.
    Reduce,
}

impl Phase {
    /// Both phases, in job order.
    pub const ALL: [Phase; 2] = [Phase::Map, Phase::Reduce];

    /// Whether a job has this phase: every job maps; a job without reduce
    /// tasks (map-only, three quarters of SWIM's Facebook jobs) has no
    /// reduce phase. Such jobs neither train the reduce models — their
    /// exact zeros would pass for a noiseless cluster and collapse the
    /// GP's noise estimate — nor need an estimate: theirs is 0.
    pub fn applies(self, features: &crate::model::JobFeatures) -> bool {
        match self {
            Phase::Map => true,
            Phase::Reduce => features.reduce_tasks != Some(0),
        }
    }
}

impl fmt::Display for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Phase::Map => "map",
            Phase::Reduce => "reduce",
        })
    }
}

/// An estimation method (the rows of the paper's Tables 2 and 3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Method {
    /// Gaussian-process regression.
    Gp,
    /// Ordinary least squares.
    Ols,
    /// Mean and variance of the same job's past runs ("Bin").
    SameJob,
}

impl Method {
    /// Every method, in the order reports list them.
    pub const ALL: [Method; 3] = [Method::Gp, Method::Ols, Method::SameJob];
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Method::Gp => "GP",
            Method::Ols => "OLS",
            Method::SameJob => "same-job",
        })
    }
}

/// A point estimate with its spread and prediction interval, in seconds.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Prediction {
    /// Predicted duration.
    pub mean: f64,
    /// Standard deviation of a new observation around `mean` (for OLS and
    /// same-job, the standard error of prediction, scaled so that
    /// `mean ± t·std_dev` is the PI).
    pub std_dev: f64,
    /// Lower end of the PI (may be below zero: the interval is the model's,
    /// not clipped to possible durations).
    pub lower: f64,
    /// Upper end of the PI: what MRM plans a deadline with.
    pub upper: f64,
}

impl Prediction {
    /// `mean ± half_width` with `half_width = factor · std_dev`.
    pub(crate) fn symmetric(mean: f64, std_dev: f64, factor: f64) -> Self {
        Prediction {
            mean,
            std_dev,
            lower: mean - factor * std_dev,
            upper: mean + factor * std_dev,
        }
    }

    /// Width of the PI.
    pub fn length(&self) -> f64 {
        self.upper - self.lower
    }

    /// Whether `actual` falls inside the PI (ends included).
    pub fn covers(&self, actual: f64) -> bool {
        self.lower <= actual && actual <= self.upper
    }
}

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

#[cfg(test)]
mod tests;
