//! Recurring jobs and their inferred SLOs (Morpheus §4).
//!
//! [`find_periodic`] groups runs into periodic jobs (templated names,
//! near-constant inter-arrival); [`infer_slos`] derives each job's window
//! `[earliest start, deadline]` from input-available and output-read times,
//! and says why when a job has no actionable deadline.
//!
//! This file only declares the files and re-exports their public names.

mod decision;
mod error;
mod infer;
mod periodic;
mod template;

pub use decision::{DecisionKind, SloDecision};
pub use error::SloError;
pub use infer::{infer_slos, Slo, SloEvidence, SloParams, SloReport};
pub use periodic::{
    find_periodic, snap_period, NonPeriodicJob, PeriodicJob, PeriodicParams, Periodicity,
};
pub use template::template_name;

#[cfg(test)]
mod tests;
