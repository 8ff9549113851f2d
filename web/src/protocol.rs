//! The one boundary between the page and the engine: the messages the app
//! posts to the worker ([`Request`]) and the worker posts back ([`Response`]).
//!
//! Every message travels as a plain JS object `{ msg, file? }`: `msg` is the
//! serde value (via `serde-wasm-bindgen`), and `file` — only with
//! [`Request::Import`] — is the user's `File`/`Blob` itself, which the
//! browser hands to the worker by structured clone (a reference to the same
//! bytes, never a copy through wasm memory).

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use skyplan_engine::resource_model::{ModelParams, Quality, ResourceModel};
use skyplan_engine::slo::{NonPeriodicJob, SloDecision, SloParams};
use skyplan_engine::{FileSummary, Format, ParseError, Timestamp, WorkspaceSummary};
use wasm_bindgen::{JsCast, JsValue};
use web_sys::Blob;

/// Property of the posted object that holds the serialized message.
const MSG: &str = "msg";
/// Property of the posted object that holds a file travelling with it.
const FILE: &str = "file";

/// Most points of one line sent to a chart; decimation keeps each bucket's
/// minimum and maximum, so peaks survive.
pub const MAX_CHART_POINTS: usize = 2_000;

/// Largest history (runs × steps) fitted with the simplex solver; beyond it
/// the studio offers only the flow solver, which gives the same optimum in a
/// fraction of the time (the simplex would hold the worker for minutes).
pub const SIMPLEX_MAX_CELLS: usize = 5_000;

/// What the app asks of the worker.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind")]
pub enum Request {
    /// Add the built-in demo workspace (files already loaded are not added again).
    LoadDemo,
    /// Import the file posted next to this message.
    Import {
        /// The app's ticket for this import, echoed in progress and outcome.
        ticket: u32,
        /// File name, used in errors and the files table.
        name: String,
        /// Forced format, or `None` to detect it from the content.
        format: Option<Format>,
        /// Keep the good lines of a file with bad ones.
        lenient: bool,
    },
    /// Remove one loaded file.
    Remove {
        /// Workspace file id.
        id: u32,
    },
    /// Remove every loaded file.
    Clear,
    /// Send the current [`WorkspaceView`].
    Summary,
    /// Send the skylines of every run of one job.
    JobSkylines {
        /// Job name.
        job: String,
    },
    /// Send one utilization series, decimated for the chart.
    Series {
        /// Position in [`WorkspaceView::series`].
        index: usize,
    },
    /// Infer the SLOs of the recurring jobs among the loaded runs
    /// (answered by [`Response::Slos`] or [`Response::SlosFailed`]).
    Slos {
        /// Inference settings.
        params: SloParams,
    },
    /// Fit the reservation skyline `R*` of one recurring job (answered by
    /// [`Response::Fit`] or [`Response::FitFailed`]). While requests queue up
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
    /// (answered by [`Response::Decisions`] or [`Response::DecisionFailed`]).
    Decide {
        /// The decision, validated by the engine.
        decision: SloDecision,
    },
    /// Withdraw the decision on a job (answered by [`Response::Decisions`]).
    Undecide {
        /// Templated job name.
        job: String,
    },
    /// Send the current decisions.
    Decisions,
    /// Write every decision as text (answered by [`Response::Exported`]).
    ExportDecisions {
        /// CSV or JSON.
        format: ExportFormat,
    },
    /// The Agenda panel's plan (answered by [`Response::Agenda`]).
    Agenda(crate::agenda_protocol::AgendaRequest),
    /// The Pricing panel's estimates, quotes and queue (answered by
    /// [`Response::Pricing`]).
    Pricing(crate::pricing_protocol::PricingRequest),
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

/// What the worker tells the app.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind")]
pub enum Response {
    /// The worker has restored the saved workspace and takes requests now.
    /// Nothing sent before this arrives would be read.
    Ready,
    /// An import advanced by one slice.
    Progress {
        /// The import's ticket.
        ticket: u32,
        /// File name.
        name: String,
        /// Bytes read so far.
        done_bytes: u64,
        /// File size.
        total_bytes: u64,
    },
    /// A file was imported and added to the workspace.
    Imported {
        /// The import's ticket.
        ticket: u32,
        /// Its row in the files table.
        file: FileSummary,
        /// Bad lines skipped (lenient imports only), capped.
        warnings: Vec<ParseError>,
        /// Number of skipped lines, including those not listed.
        skipped: u64,
    },
    /// A file could not be imported; the workspace is unchanged.
    ImportFailed {
        /// The import's ticket (0 for files restored from storage).
        ticket: u32,
        /// File name.
        name: String,
        /// Why, in one sentence.
        message: String,
        /// The bad lines, capped.
        errors: Vec<ParseError>,
        /// Number of bad lines in all.
        total: u64,
    },
    /// The workspace as it is now.
    Summary(WorkspaceView),
    /// Chart data of one job.
    JobSkylines(JobChart),
    /// Chart data of one utilization series.
    Series(SeriesChart),
    /// The inferred SLOs.
    Slos(SloTable),
    /// SLO inference refused (bad settings, no runs).
    SlosFailed {
        /// The engine's message.
        message: String,
    },
    /// A fitted reservation skyline with its history and quality.
    Fit(Box<FitView>),
    /// A fit failed; the previous one (if any) stays valid.
    FitFailed {
        /// The request's ticket.
        ticket: u32,
        /// Templated job name.
        job: String,
        /// The engine's message.
        message: String,
    },
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
    /// An answer to a [`Request::Agenda`].
    Agenda(crate::agenda_protocol::AgendaResponse),
    /// An answer to a [`Request::Pricing`].
    Pricing(crate::pricing_protocol::PricingResponse),
    /// Something went wrong outside an import (storage, a malformed message).
    Notice {
        /// What happened, in words.
        message: String,
    },
}

/// The workspace as the UI shows it: totals, files, and what can be charted.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct WorkspaceView {
    /// Totals and one row per loaded file.
    pub summary: WorkspaceSummary,
    /// Jobs with runs, by name.
    pub jobs: Vec<JobInfo>,
    /// Utilization series, in workspace order.
    pub series: Vec<SeriesInfo>,
}

/// A job that can be charted.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JobInfo {
    /// Job name.
    pub name: String,
    /// Number of runs.
    pub runs: usize,
    /// Largest container count over all runs.
    pub peak: f64,
}

/// A utilization series that can be charted.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeriesInfo {
    /// Position in the workspace's series (the key of [`Request::Series`]).
    pub index: usize,
    /// Server or tenant.
    pub server: String,
    /// Resource name (`cpu`, `memory`, …).
    pub resource: String,
    /// Number of samples.
    pub points: usize,
}

/// Skylines of every run of one job, for an overlaid chart.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct JobChart {
    /// Job name.
    pub job: String,
    /// One line per run, in start order.
    pub runs: Vec<RunLine>,
}

/// One run's skyline as chart points.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RunLine {
    /// Run instance id.
    pub instance: String,
    /// When the run started.
    pub start: Timestamp,
    /// Minutes from the run's start, ascending.
    pub minutes: Vec<f64>,
    /// Containers in use from that minute on.
    pub containers: Vec<f64>,
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

/// One utilization series, decimated to at most [`MAX_CHART_POINTS`].
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SeriesChart {
    /// Position in [`WorkspaceView::series`].
    pub index: usize,
    /// Server or tenant.
    pub server: String,
    /// Resource name.
    pub resource: String,
    /// Samples in the full series.
    pub total_points: usize,
    /// Sample times (Unix seconds), ascending.
    pub times: Vec<Timestamp>,
    /// Utilization in percent.
    pub values: Vec<f64>,
}

/// Builds the object to post: `{ msg, file? }`.
///
/// # Errors
/// When `msg` cannot be converted to a JS value.
pub fn encode<T: Serialize>(msg: &T, file: Option<&Blob>) -> Result<JsValue, String> {
    let value = serde_wasm_bindgen::to_value(msg).map_err(|e| e.to_string())?;
    let envelope = js_sys::Object::new();
    js_sys::Reflect::set(&envelope, &MSG.into(), &value).map_err(|e| js_error_text(&e))?;
    if let Some(file) = file {
        js_sys::Reflect::set(&envelope, &FILE.into(), file).map_err(|e| js_error_text(&e))?;
    }
    Ok(envelope.into())
}

/// Reads a posted object back: the message and the file travelling with it.
///
/// # Errors
/// When the object has no `msg` property or it does not match `T`.
pub fn decode<T: DeserializeOwned>(data: &JsValue) -> Result<(T, Option<Blob>), String> {
    let value = js_sys::Reflect::get(data, &MSG.into()).map_err(|e| js_error_text(&e))?;
    if value.is_undefined() {
        return Err("message without a `msg` property".into());
    }
    let msg = serde_wasm_bindgen::from_value(value).map_err(|e| e.to_string())?;
    let file = js_sys::Reflect::get(data, &FILE.into())
        .ok()
        .and_then(|f| f.dyn_into::<Blob>().ok());
    Ok((msg, file))
}

/// The readable text of a thrown JS value: a `DOMException`'s or `Error`'s
/// name and message, a string as is, anything else as JSON.
pub fn js_error_text(err: &JsValue) -> String {
    if let Some(e) = err.dyn_ref::<web_sys::DomException>() {
        return format!("{}: {}", e.name(), e.message());
    }
    if let Some(e) = err.dyn_ref::<js_sys::Error>() {
        return format!("{}: {}", String::from(e.name()), String::from(e.message()));
    }
    if let Some(s) = err.as_string() {
        return s;
    }
    if err.is_undefined() || err.is_null() {
        return "unknown error".into();
    }
    js_sys::JSON::stringify(err)
        .map(String::from)
        .unwrap_or_else(|_| format!("{err:?}"))
}
