//! The SLOs part's messages: inferred SLOs, skyline fits and the owner's
//! decisions. Carried by [`crate::protocol::Request::Slos`] and
//! [`crate::protocol::Response::Slos`].

use crate::parts::traces::protocol::JobChart;
use crate::toolkit::protocol::{Failure, Supersedes};
use serde::{Deserialize, Serialize};
use skyplan_engine::resource_model::{ModelParams, Quality, ResourceModel};
use skyplan_engine::slo::{NonPeriodicJob, SloDecision, SloParams};
use skyplan_engine::Timestamp;

/// Largest history (runs × steps) fitted with the simplex solver; beyond it
/// the studio offers only the flow solver, which gives the same optimum in a
/// fraction of the time (the simplex would hold the worker for minutes).
pub const SIMPLEX_MAX_CELLS: usize = 5_000;

/// What the SLOs panel asks of the worker.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op")]
pub enum SlosRequest {
    /// Infer the SLOs of the recurring jobs among the loaded runs
    /// (answered by [`SlosResponse::Table`] or [`SlosResponse::TableFailed`]).
    Infer {
        /// Inference settings.
        params: SloParams,
    },
    /// Fit the reservation skyline `R*` of one recurring job (answered by
    /// [`SlosResponse::Fit`] or [`SlosResponse::FitFailed`]). While requests queue up
    /// in the worker, only the latest `FitSkyline` of each job is run.
    FitSkyline {
        /// The app's ticket, echoed in the answer; stale answers are dropped.
        ticket: u32,
        /// Templated job name.
        job: String,
        /// Model settings.
        params: ModelParams,
    },
    /// Record (or replace) the decision on a job's SLO and save it
    /// (answered by [`SlosResponse::Decisions`] or [`SlosResponse::DecisionFailed`]).
    Decide {
        /// The decision, validated by the engine.
        decision: SloDecision,
    },
    /// Withdraw the decision on a job (answered by [`SlosResponse::Decisions`]).
    Undecide {
        /// Templated job name.
        job: String,
    },
    /// Send the current decisions.
    Decisions,
    /// Write every decision as text (answered by [`SlosResponse::Exported`]).
    ExportDecisions {
        /// CSV or JSON.
        format: ExportFormat,
    },
}

impl SlosRequest {
    /// A later fit of the same job supersedes a fit still queued.
    pub fn supersedes_key(&self) -> Option<Supersedes> {
        match self {
            SlosRequest::FitSkyline { job, .. } => Supersedes::same("slos fit", job),
            _ => None,
        }
    }
}

/// What the worker tells the SLOs panel.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op")]
pub enum SlosResponse {
    /// The inferred SLOs.
    Table(SloTable),
    /// SLO inference refused (bad settings, no runs).
    TableFailed {
        /// The engine's message.
        message: String,
    },
    /// A fitted reservation skyline with its history and quality.
    Fit(Box<FitView>),
    /// A fit failed; the previous one (if any) stays valid.
    FitFailed(Failure),
    /// Every decision, by job name (after a change, or on request).
    Decisions {
        /// The decisions.
        decisions: Vec<SloDecision>,
    },
    /// A decision was refused by the engine; nothing changed.
    DecisionFailed {
        /// Templated job name.
        job: String,
        /// The engine's message.
        message: String,
    },
    /// The decisions written out.
    Exported {
        /// Format of `text`.
        format: ExportFormat,
        /// File content.
        text: String,
    },
}

/// A text format the decisions are exported in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ExportFormat {
    /// `engine::export::decisions_csv`.
    Csv,
    /// The decision list as JSON.
    Json,
}

impl ExportFormat {
    /// File name extension.
    pub fn extension(self) -> &'static str {
        match self {
            ExportFormat::Csv => "csv",
            ExportFormat::Json => "json",
        }
    }

    /// MIME type of the downloaded file.
    pub fn mime(self) -> &'static str {
        match self {
            ExportFormat::Csv => "text/csv",
            ExportFormat::Json => "application/json",
        }
    }
}

/// The SLO report as the SLOs panel shows it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SloTable {
    /// One row per periodic job, by name.
    pub rows: Vec<SloRow>,
    /// Groups of runs that are not periodic, with the reason.
    pub non_periodic: Vec<NonPeriodicJob>,
}

/// One recurring job's inferred SLO and the evidence behind it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SloRow {
    /// Templated job name.
    pub job: String,
    /// Period, seconds.
    pub period_secs: i64,
    /// Start of the first period.
    pub reference: Timestamp,
    /// Number of runs.
    pub runs: usize,
    /// Earliest start `a`, seconds from each period start.
    pub earliest_start_secs: Option<i64>,
    /// Deadline `d`, seconds from each period start (when actionable).
    pub deadline_secs: Option<i64>,
    /// The first period's window in wall-clock time, when `a` and `d` are known.
    pub first_window: Option<(Timestamp, Timestamp)>,
    /// Whether the deadline is actionable.
    pub actionable: bool,
    /// Why not, or how it was derived.
    pub reason: Option<String>,
    /// The deadline was forced to the end of the job's own period.
    pub deadline_forced: bool,
    /// Robust CV of the inter-arrival times.
    pub interarrival_cv: f64,
    /// Robust CV of the output-read time.
    pub read_cv: Option<f64>,
    /// Median `(read − end)/(end − start)`.
    pub slack_ratio: Option<f64>,
    /// Median run time, seconds.
    pub median_runtime_secs: f64,
}

/// A job's fitted reservation `R*`, its history and how good it is.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FitView {
    /// The request's ticket.
    pub ticket: u32,
    /// Templated job name.
    pub job: String,
    /// The history runs the model was fitted to, decimated for the chart.
    pub history: JobChart,
    /// The fitted model (`R*`, objective, first pass, β, dual bound).
    pub model: ResourceModel,
    /// `objective.total − lower_bound` (flow solver only).
    pub gap: Option<f64>,
    /// `R*` against the peak and flat-p90 reservations.
    pub quality: QualityFigures,
    /// Something the user should know about how it was fitted.
    pub note: Option<String>,
}

/// Quality figures of three reservations against the same history.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct QualityFigures {
    /// The LP's `R*`.
    pub lp: Quality,
    /// The peak container count for the longest run.
    pub peak: Quality,
    /// A flat reservation at the 90th percentile of the usage.
    pub flat_p90: Quality,
}
