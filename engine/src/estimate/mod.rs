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
//!
//! This file only declares the files and re-exports their public names;
//! `prediction` and `error` are the bottom layer every estimator imports.

mod error;
pub mod estimator;
pub mod evaluate;
pub mod features;
pub mod gp;
pub mod history;
pub mod ols;
pub(crate) mod optimize;
mod prediction;
pub mod same_job;

pub(crate) use error::check_level;
pub use error::EstimateError;
pub use estimator::{EstimateParams, Estimator, JobEstimate, MethodEstimate};
pub use evaluate::{evaluate, EvaluateParams, Evaluation, MethodScore, PhaseEvaluation};
pub use features::{FeatureScale, Standardizer, TargetScale, FEATURE_NAMES};
pub use gp::{GaussianProcess, GpFit, GpParams, GpPrediction, GpWarning, Hyperparameters};
pub use history::{history_from_swim, training_data, HistoryParams};
pub use ols::Ols;
pub use prediction::{Method, Phase, Prediction};
pub use same_job::{SameJob, SameJobEstimate};

#[cfg(test)]
mod tests;
