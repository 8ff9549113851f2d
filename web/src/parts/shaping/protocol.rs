//! The Shaping part's messages. Carried by
//! [`crate::protocol::Request::Shaping`] and
//! [`crate::protocol::Response::Shaping`].

use crate::toolkit::protocol::{Failure, Progress, Supersedes};
use serde::{Deserialize, Serialize};
use skyplan_engine::shaping::{
    GridReport, Params, PolicyComparison, ShapingReport, Timelines, WorkloadSummary,
};

/// The panel's settings, defaults and files are the engine's panel types
/// (`skyplan_engine::bundle`), which the saved record and a workspace
/// bundle carry alike.
pub use skyplan_engine::bundle::{
    ShapingSettings, WorkloadFile, WorkloadSource, DEFAULT_GRID_APPS,
    DEFAULT_SHAPING_APPS as DEFAULT_APPS, DEFAULT_SHAPING_HOSTS as DEFAULT_HOSTS,
};

/// What the Shaping panel asks of the worker.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op")]
pub enum ShapingRequest {
    /// Read a workload from files (answered by [`ShapingResponse::Loaded`]
    /// or [`ShapingResponse::ReadFailed`]; a refused file leaves the
    /// workload read before in place).
    ReadWorkload {
        /// The files: an applications CSV with its usage CSV, a workload
        /// JSON, Alibaba `container_meta` with `container_usage`, or
        /// Google 2019 `instance_events` with `instance_usage`.
        files: Vec<WorkloadFile>,
        /// The cluster the workload is checked against (and, for Alibaba
        /// and Google, whose host cores and memory convert the normalized
        /// requests).
        params: Params,
    },
    /// Forget the workload read from files.
    ForgetWorkload,
    /// The panel opened with nothing shown: the latest run saved (answered
    /// by [`ShapingResponse::Loaded`] when files were read, then
    /// [`ShapingResponse::Restored`], nothing recomputed), or, when none is
    /// saved, a run of `settings` (answered as [`ShapingRequest::Run`]).
    Open {
        /// The panel's ticket for the run shown, echoed.
        ticket: u32,
        /// Settings to run when nothing is saved (the panel's defaults).
        settings: ShapingSettings,
    },
    /// The baseline and the shaped run (answered by
    /// [`ShapingResponse::Progress`], then [`ShapingResponse::Ready`] or
    /// [`ShapingResponse::Failed`]).
    Run {
        /// The panel's ticket, echoed; stale answers are dropped.
        ticket: u32,
        /// Settings.
        settings: ShapingSettings,
    },
    /// Application `app`'s and host `host`'s timelines in the last run
    /// (answered by [`ShapingResponse::Timelines`]).
    Timelines {
        /// The run's ticket.
        ticket: u32,
        /// Application index in the workload.
        app: usize,
        /// Host index.
        host: usize,
    },
    /// Figure 2: the three policies on the last run's workload, forecasts
    /// and settings (answered by [`ShapingResponse::Compared`]).
    Compare {
        /// The comparison's ticket.
        ticket: u32,
        /// The run's ticket.
        run: u32,
    },
    /// Figure 3: the K1 × K2 grid for the settings' forecaster, one
    /// workload (answered by [`ShapingResponse::Progress`], then
    /// [`ShapingResponse::GridReady`] or [`ShapingResponse::Failed`]).
    Grid {
        /// The grid's ticket (its own series).
        ticket: u32,
        /// Settings (the generated workload's application count replaced
        /// by `apps`).
        settings: ShapingSettings,
        /// Applications of the generated grid workload.
        apps: usize,
        /// The failure rate the recommendation must meet (% of
        /// applications).
        target_failed_pct: f64,
    },
    /// The last grid's recommendation for another target (answered by
    /// [`ShapingResponse::GridReady`]).
    Retarget {
        /// The grid's ticket.
        ticket: u32,
        /// The target (% of applications failing at least once).
        target_failed_pct: f64,
    },
    /// The last run's per-application outcomes as CSV (answered by
    /// [`ShapingResponse::Csv`]).
    ExportRun,
    /// The last grid as CSV.
    ExportGrid,
}

impl ShapingRequest {
    /// A later run, grid or timelines supersede one still queued.
    pub fn supersedes_key(&self) -> Option<Supersedes> {
        match self {
            ShapingRequest::Run { .. } | ShapingRequest::Open { .. } => {
                Supersedes::any("shaping run")
            }
            ShapingRequest::Grid { .. } => Supersedes::any("shaping grid"),
            ShapingRequest::Timelines { .. } => Supersedes::any("shaping timelines"),
            _ => None,
        }
    }
}

/// Which piece of work a progress report counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Stage {
    /// Forecasting the applications' usage.
    Forecast,
    /// The baseline and the shaped run (completed applications).
    Simulate,
    /// The three policies (runs).
    Compare,
    /// The grid (runs).
    Grid,
}

/// One application, for the timeline picker.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AppChoice {
    /// Its name.
    pub name: String,
    /// Has elastic components.
    pub elastic: bool,
    /// Components in all.
    pub components: usize,
    /// Submission (s).
    pub arrival_s: f64,
    /// Runtime (s).
    pub runtime_s: f64,
}

/// A run's results.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShapingView {
    /// The run's ticket.
    pub ticket: u32,
    /// Where the workload came from, in words.
    pub source: String,
    /// The report (its two recorded timelines moved to `timelines`).
    pub report: ShapingReport,
    /// The workload's applications, in order.
    pub apps: Vec<AppChoice>,
    /// The default application's and host 0's timelines.
    pub timelines: Option<TimelinesView>,
    /// Worker time of the forecasts, milliseconds.
    pub forecast_millis: f64,
    /// Worker time in all, milliseconds.
    pub millis: f64,
}

/// Timelines of one application and one host.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TimelinesView {
    /// The run's ticket.
    pub ticket: u32,
    /// The timelines.
    pub timelines: Timelines,
}

/// The grid's results.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GridView {
    /// The grid's ticket.
    pub ticket: u32,
    /// Where the workload came from, in words.
    pub source: String,
    /// The report (one forecaster, one workload).
    pub report: GridReport,
    /// Worker time, milliseconds.
    pub millis: f64,
}

/// What the worker tells the Shaping panel.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op")]
pub enum ShapingResponse {
    /// The workload read from files (`None`: none, or forgotten).
    Loaded {
        /// File names, joined.
        name: Option<String>,
        /// The workload in numbers.
        summary: Option<WorkloadSummary>,
    },
    /// Files refused, with every located reason; what was loaded stays.
    ReadFailed {
        /// The reasons, `file:line:col: why`.
        message: String,
    },
    /// Work done so far on a run, a comparison or a grid.
    Progress {
        /// What is counted.
        stage: Stage,
        /// How far.
        progress: Progress,
    },
    /// A run's results.
    Ready(Box<ShapingView>),
    /// The latest run saved, shown again after a reload under the ticket
    /// of the [`ShapingRequest::Open`] that asked.
    Restored {
        /// Its settings, for the form.
        settings: ShapingSettings,
        /// Its results, with the timelines shown when it was saved.
        view: Box<ShapingView>,
    },
    /// The settings an [`ShapingRequest::Open`] runs instead of the form's
    /// (an opened workspace bundle's, kept without a run), for the form;
    /// the run's progress and results follow under the same ticket.
    Settings {
        /// The Open's ticket.
        ticket: u32,
        /// The settings run.
        settings: ShapingSettings,
    },
    /// Another application's or host's timelines.
    Timelines(Box<TimelinesView>),
    /// The three policies.
    Compared {
        /// The comparison's ticket.
        ticket: u32,
        /// Baseline, optimistic, pessimistic.
        comparison: PolicyComparison,
        /// Worker time, milliseconds.
        millis: f64,
    },
    /// The grid.
    GridReady(Box<GridView>),
    /// The engine refused a run (or its timelines), a comparison or a
    /// grid (or its recommendation).
    Failed(Failure),
    /// An export, to save.
    Csv {
        /// Suggested file name.
        name: String,
        /// The file.
        text: String,
    },
}
