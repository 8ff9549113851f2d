//! The Traces panel's state: what the worker last reported of the
//! workspace, imports in flight, problems to show, and the chart selection.
//! Holds no algorithm: every answer comes from the worker through
//! [`TracesDesk::apply`].

use super::protocol::{JobChart, SeriesChart, TracesRequest, TracesResponse, WorkspaceView};
use crate::page::Page;
use crate::protocol::Request;
use leptos::prelude::*;
use skyplan_engine::{Format, ParseError};
use web_sys::File;

/// An import the worker is working on.
#[derive(Clone, Debug, PartialEq)]
pub struct InFlight {
    /// The import's ticket.
    pub ticket: u32,
    /// File name.
    pub name: String,
    /// Bytes read so far.
    pub done: u64,
    /// File size.
    pub total: u64,
    /// Time the worker has spent on it so far, ms.
    pub elapsed_ms: f64,
}

impl InFlight {
    /// Seconds left at the rate so far, once there is a rate.
    pub fn seconds_left(&self) -> Option<f64> {
        (self.done > 0 && self.elapsed_ms > 0.0 && self.total >= self.done)
            .then(|| self.elapsed_ms / 1000.0 * (self.total - self.done) as f64 / self.done as f64)
    }
}

/// Something about an import the user should see, until dismissed.
#[derive(Clone, Debug, PartialEq)]
pub struct Problem {
    /// Key for dismissing it.
    pub id: u32,
    /// File name.
    pub name: String,
    /// What happened.
    pub kind: ProblemKind,
    /// The bad lines, capped.
    pub lines: Vec<ParseError>,
    /// Bad lines in all (`lines` may list fewer).
    pub total: u64,
}

/// Whether the file was refused or loaded with lines skipped.
#[derive(Clone, Debug, PartialEq)]
pub enum ProblemKind {
    /// Not loaded, with the worker's explanation.
    Failed(String),
    /// Loaded in lenient mode; the listed lines were skipped.
    Skipped,
}

/// Data for the chart, as the worker sent it.
#[derive(Clone, Debug, PartialEq)]
pub enum ChartData {
    /// Skylines of every run of a job.
    Job(JobChart),
    /// One utilization series.
    Series(SeriesChart),
}

impl ChartData {
    /// The chart selector value this data answers.
    pub fn key(&self) -> String {
        match self {
            ChartData::Job(c) => job_key(&c.job),
            ChartData::Series(s) => series_key(s.index),
        }
    }
}

/// Chart selector value of a job.
pub fn job_key(job: &str) -> String {
    format!("job:{job}")
}

/// Chart selector value of a utilization series.
pub fn series_key(index: usize) -> String {
    format!("series:{index}")
}

/// The Traces panel's signals.
#[derive(Clone, Copy)]
pub struct TracesDesk {
    page: Page,
    /// The workspace as last reported.
    pub workspace: RwSignal<WorkspaceView>,
    /// Imports in progress, in the order they were started.
    pub imports: RwSignal<Vec<InFlight>>,
    /// Import problems not yet dismissed.
    pub problems: RwSignal<Vec<Problem>>,
    /// Chart selector value (`job:<name>`, `series:<index>` or empty).
    pub selection: RwSignal<String>,
    /// Data of the selected chart, once it has arrived.
    pub chart: RwSignal<Option<ChartData>>,
    /// Format forced on the next imports (`None`: detect).
    pub format: RwSignal<Option<Format>>,
    /// Import the next files leniently.
    pub lenient: RwSignal<bool>,
    /// The import whose Cancel was pressed, named to the worker restart.
    cancelling: RwSignal<Option<u32>>,
}

impl TracesDesk {
    /// Nothing loaded yet.
    pub fn new(page: Page) -> TracesDesk {
        let cancelling = RwSignal::new(None);
        page.on_cancel(move || cancelling.try_update(Option::take).flatten());
        TracesDesk {
            cancelling,
            page,
            workspace: RwSignal::new(WorkspaceView::default()),
            imports: RwSignal::new(Vec::new()),
            problems: RwSignal::new(Vec::new()),
            selection: RwSignal::new(String::new()),
            chart: RwSignal::new(None),
            format: RwSignal::new(None),
            lenient: RwSignal::new(false),
        }
    }

    /// Sends a Traces request.
    pub fn send(self, request: TracesRequest) {
        self.page.send(Request::Traces(request));
    }

    /// Imports files with the current format and lenient settings, one
    /// progress bar each.
    pub fn import_files(self, files: Vec<File>) {
        let (format, lenient) = (self.format.get_untracked(), self.lenient.get_untracked());
        for file in files {
            let ticket = self.page.next_id();
            let name = file.name();
            self.imports.update(|v| {
                v.push(InFlight {
                    ticket,
                    name: name.clone(),
                    done: 0,
                    total: file.size().max(0.0) as u64,
                    elapsed_ms: 0.0,
                })
            });
            let request = TracesRequest::Import {
                ticket,
                name,
                format,
                lenient,
            };
            self.page.send_with(Request::Traces(request), Some(&file));
        }
    }

    /// Selects what the chart shows and asks the worker for its data.
    pub fn select_chart(self, key: String) {
        self.selection.set(key);
        self.request_chart();
    }

    fn request_chart(self) {
        let key = self.selection.get_untracked();
        if self
            .chart
            .with_untracked(|c| c.as_ref().map(ChartData::key))
            != Some(key.clone())
        {
            self.chart.set(None);
        }
        if let Some(job) = key.strip_prefix("job:") {
            self.send(TracesRequest::JobSkylines {
                job: job.to_owned(),
            });
        } else if let Some(index) = key.strip_prefix("series:").and_then(|i| i.parse().ok()) {
            self.send(TracesRequest::Series { index });
        }
    }

    /// Cancels the import `ticket`: the engine restarts from the saved
    /// workspace (Cancel's one way, ARCHITECTURE.md), which the import has
    /// not touched — a file is saved only once imported — and the other
    /// imports under way start again.
    pub fn cancel_import(self, ticket: u32) {
        let Some(name) = self.imports.with_untracked(|v| {
            v.iter()
                .find(|i| i.ticket == ticket)
                .map(|i| i.name.clone())
        }) else {
            return;
        };
        self.cancelling.set(Some(ticket));
        self.finish_import(ticket);
        self.page.cancel_runs();
        let message = "Cancelled — nothing was loaded; the workspace is as it was.".to_owned();
        self.problem(name, ProblemKind::Failed(message), Vec::new(), 0);
    }

    /// Dismisses one import problem.
    pub fn dismiss(self, id: u32) {
        self.problems.update(|p| p.retain(|x| x.id != id));
    }

    fn finish_import(self, ticket: u32) {
        self.imports.update(|v| v.retain(|i| i.ticket != ticket));
    }

    fn problem(self, name: String, kind: ProblemKind, lines: Vec<ParseError>, total: u64) {
        let id = self.page.next_id();
        self.problems.update(|p| {
            p.push(Problem {
                id,
                name,
                kind,
                lines,
                total,
            })
        });
    }

    /// Takes in one answer of the worker about the loaded files; `true`
    /// when it was a new workspace summary (the other parts refresh then).
    pub fn apply(self, response: TracesResponse) -> bool {
        match response {
            TracesResponse::Progress {
                ticket,
                done_bytes,
                total_bytes,
                elapsed_ms,
                ..
            } => self.imports.update(|v| {
                if let Some(i) = v.iter_mut().find(|i| i.ticket == ticket) {
                    i.done = done_bytes;
                    i.total = total_bytes;
                    i.elapsed_ms = elapsed_ms;
                }
            }),
            TracesResponse::Imported {
                ticket,
                file,
                warnings,
                skipped,
            } => {
                self.finish_import(ticket);
                if skipped > 0 {
                    self.problem(file.name, ProblemKind::Skipped, warnings, skipped);
                }
            }
            TracesResponse::ImportFailed {
                ticket,
                name,
                message,
                errors,
                total,
            } => {
                self.finish_import(ticket);
                self.problem(name, ProblemKind::Failed(message), errors, total);
            }
            TracesResponse::Summary(view) => {
                self.take_summary(view);
                return true;
            }
            TracesResponse::JobSkylines(chart) => self.take_chart(ChartData::Job(chart)),
            TracesResponse::Series(chart) => self.take_chart(ChartData::Series(chart)),
        }
        false
    }

    fn take_chart(self, data: ChartData) {
        if data.key() == self.selection.get_untracked() {
            self.chart.set(Some(data));
        }
    }

    /// New workspace: keep the chart selection if it still exists (else
    /// pick the first job or series) and refresh the chart.
    fn take_summary(self, view: WorkspaceView) {
        let current = self.selection.get_untracked();
        let mut keys = view
            .jobs
            .iter()
            .map(|j| job_key(&j.name))
            .chain(view.series.iter().map(|s| series_key(s.index)));
        let first = keys.next();
        let keep = first.as_ref() == Some(&current) || keys.any(|k| k == current);
        let selection = if keep {
            current
        } else {
            first.unwrap_or_default()
        };
        self.workspace.set(view);
        self.selection.set(selection);
        self.request_chart();
    }
}
