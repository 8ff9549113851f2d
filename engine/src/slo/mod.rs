//! Recurring jobs and their inferred SLOs (Morpheus §4).
//!
//! [`find_periodic`] groups runs into periodic jobs (templated names,
//! near-constant inter-arrival); [`infer_slos`] derives each job's window
//! `[earliest start, deadline]` from input-available and output-read times,
//! and says why when a job has no actionable deadline.

mod decision;
mod infer;
mod periodic;
mod template;

pub use decision::{DecisionKind, SloDecision};
pub use infer::{infer_slos, Slo, SloEvidence, SloParams, SloReport};
pub use periodic::{
    find_periodic, snap_period, NonPeriodicJob, PeriodicJob, PeriodicParams, Periodicity,
};
pub use template::template_name;

/// Why SLO inference could not run.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SloError {
    /// A setting is out of range.
    #[error("SLO parameter `{name}` {why}")]
    Param {
        /// The setting.
        name: &'static str,
        /// What is wrong.
        why: &'static str,
    },
    /// Nothing to infer from.
    #[error("no job runs are loaded")]
    NoRuns,
    /// A decision is not acceptable.
    #[error("decision on `{job}`: {why}")]
    Decision {
        /// The job.
        job: String,
        /// What is wrong.
        why: String,
    },
}

impl SloError {
    pub(crate) fn param(name: &'static str, why: &'static str) -> Self {
        SloError::Param { name, why }
    }
}

#[cfg(test)]
mod tests;
