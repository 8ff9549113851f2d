//! The Traces part's messages: loading files (uploads, the demo, removal)
//! and the charts of what is loaded. Carried by [`crate::protocol::Request::Traces`]
//! and [`crate::protocol::Response::Traces`].

use crate::toolkit::protocol::Supersedes;
use serde::{Deserialize, Serialize};
use skyplan_engine::{FileSummary, Format, ParseError, Timestamp, WorkspaceSummary};

/// Most points of one line sent to a chart; decimation keeps each bucket's
/// minimum and maximum, so peaks survive.
pub const MAX_CHART_POINTS: usize = 2_000;

/// What the Traces panel asks of the worker.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op")]
pub enum TracesRequest {
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
}

impl TracesRequest {
    /// Nothing supersedes a Traces request: every import, removal and
    /// chart is answered.
    pub fn supersedes_key(&self) -> Option<Supersedes> {
        None
    }
}

/// What the worker tells the Traces panel.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op")]
pub enum TracesResponse {
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
        /// Time spent so far, ms (the page estimates the time left).
        #[serde(default)]
        elapsed_ms: f64,
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
    /// Position in the workspace's series (the key of [`TracesRequest::Series`]).
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
