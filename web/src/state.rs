//! The page's reactive state: what the worker last reported, imports in
//! flight, problems to show, and the chart selection. Holds no algorithm:
//! every answer comes from the worker through [`Studio::apply`].

use crate::client::WorkerLink;
use crate::desk::SloDesk;
use crate::protocol::{JobChart, Request, Response, SeriesChart, WorkspaceView};
use leptos::prelude::*;
use skyplan_engine::{Format, ParseError};
use std::time::Duration;
use web_sys::{File, FileList};

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

/// The studio's state, shared by every panel through context.
#[derive(Clone, Copy)]
pub struct Studio {
    /// The worker has restored the workspace and sent its first summary.
    pub ready: RwSignal<bool>,
    /// The workspace as last reported.
    pub workspace: RwSignal<WorkspaceView>,
    /// Imports in progress, in the order they were started.
    pub imports: RwSignal<Vec<InFlight>>,
    /// Import problems not yet dismissed.
    pub problems: RwSignal<Vec<Problem>>,
    /// Messages about storage or the worker, not yet dismissed.
    pub notices: RwSignal<Vec<String>>,
    /// Chart selector value (`job:<name>`, `series:<index>` or empty).
    pub selection: RwSignal<String>,
    /// Data of the selected chart, once it has arrived.
    pub chart: RwSignal<Option<ChartData>>,
    /// Format forced on the next imports (`None`: detect).
    pub format: RwSignal<Option<Format>>,
    /// Import the next files leniently.
    pub lenient: RwSignal<bool>,
    /// The SLOs panel's state.
    pub slo: SloDesk,
    /// The Agenda panel's state.
    pub agenda: crate::agenda_desk::AgendaDesk,
    /// The Pricing panel's state.
    pub pricing: crate::pricing_desk::PricingDesk,
    link: StoredValue<Option<WorkerLink>, LocalStorage>,
    next_id: StoredValue<u32>,
}

impl Studio {
    /// A fresh state, not yet connected to a worker.
    pub fn new() -> Studio {
        Studio {
            ready: RwSignal::new(false),
            workspace: RwSignal::new(WorkspaceView::default()),
            imports: RwSignal::new(Vec::new()),
            problems: RwSignal::new(Vec::new()),
            notices: RwSignal::new(Vec::new()),
            selection: RwSignal::new(String::new()),
            chart: RwSignal::new(None),
            format: RwSignal::new(None),
            lenient: RwSignal::new(false),
            slo: SloDesk::new(),
            agenda: crate::agenda_desk::AgendaDesk::new(),
            pricing: crate::pricing_desk::PricingDesk::new(),
            link: StoredValue::new_local(None),
            next_id: StoredValue::new(0),
        }
    }

    /// Starts the engine worker and routes its responses here.
    pub fn connect(self) {
        let linked = WorkerLink::spawn(
            move |response| self.apply(response),
            move |message| self.notify(message),
        );
        match linked {
            Ok(link) => self.link.set_value(Some(link)),
            Err(e) => self.notify(format!("The engine worker could not be started: {e}")),
        }
    }

    fn next_id(self) -> u32 {
        self.next_id.update_value(|n| *n += 1);
        self.next_id.get_value()
    }

    /// Shows a message about storage or the worker.
    pub fn notify(self, message: String) {
        self.notices.update(|n| n.push(message));
    }

    /// Sends a request to the worker, reporting failure as a notice.
    pub fn send(self, request: Request) {
        self.send_with(request, None);
    }

    fn send_with(self, request: Request, file: Option<&File>) {
        let sent = self.link.with_value(|link| match link {
            Some(link) => link.send(&request, file.map(AsRef::as_ref)),
            None => Err("the engine worker is not running".into()),
        });
        if let Err(e) = sent {
            self.notify(format!("Request not sent: {e}"));
        }
    }

    /// Imports files with the current format and lenient settings, one
    /// progress bar each.
    pub fn import_files(self, files: &FileList) {
        let (format, lenient) = (self.format.get_untracked(), self.lenient.get_untracked());
        for file in (0..files.length()).filter_map(|i| files.item(i)) {
            let ticket = self.next_id();
            let name = file.name();
            self.imports.update(|v| {
                v.push(InFlight {
                    ticket,
                    name: name.clone(),
                    done: 0,
                    total: file.size().max(0.0) as u64,
                })
            });
            let request = Request::Import {
                ticket,
                name,
                format,
                lenient,
            };
            self.send_with(request, Some(&file));
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
            self.send(Request::JobSkylines {
                job: job.to_owned(),
            });
        } else if let Some(index) = key.strip_prefix("series:").and_then(|i| i.parse().ok()) {
            self.send(Request::Series { index });
        }
    }

    /// Dismisses one import problem.
    pub fn dismiss(self, id: u32) {
        self.problems.update(|p| p.retain(|x| x.id != id));
    }

    fn finish_import(self, ticket: u32) {
        self.imports.update(|v| v.retain(|i| i.ticket != ticket));
    }

    fn problem(self, name: String, kind: ProblemKind, lines: Vec<ParseError>, total: u64) {
        let id = self.next_id();
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

    /// Takes in one response from the worker.
    pub fn apply(self, response: Response) {
        match response {
            Response::Ready => {}
            Response::Progress {
                ticket,
                done_bytes,
                total_bytes,
                ..
            } => self.imports.update(|v| {
                if let Some(i) = v.iter_mut().find(|i| i.ticket == ticket) {
                    i.done = done_bytes;
                    i.total = total_bytes;
                }
            }),
            Response::Imported {
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
            Response::ImportFailed {
                ticket,
                name,
                message,
                errors,
                total,
            } => {
                self.finish_import(ticket);
                self.problem(name, ProblemKind::Failed(message), errors, total);
            }
            Response::Summary(view) => self.take_summary(view),
            Response::JobSkylines(chart) => self.take_chart(ChartData::Job(chart)),
            Response::Series(chart) => self.take_chart(ChartData::Series(chart)),
            Response::Notice { message } => self.notify(message),
            Response::Agenda(response) => self.apply_agenda(response),
            Response::Pricing(response) => self.apply_pricing(response),
            slo @ (Response::Slos(_)
            | Response::SlosFailed { .. }
            | Response::Fit(_)
            | Response::FitFailed { .. }
            | Response::Decisions { .. }
            | Response::DecisionFailed { .. }
            | Response::Exported { .. }) => self.apply_slo(slo),
        }
    }

    fn take_chart(self, data: ChartData) {
        if data.key() == self.selection.get_untracked() {
            self.chart.set(Some(data));
        }
    }

    /// New workspace: keep the chart selection if it still exists (else
    /// pick the first job or series), refresh the chart, and flag the page
    /// ready after the first one.
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
        self.workspace_changed();
        if !self.ready.get_untracked() {
            self.ready.set(true);
            // After the reactive updates of this summary have reached the DOM.
            set_timeout(mark_body_ready, Duration::ZERO);
        }
    }
}

impl Default for Studio {
    fn default() -> Self {
        Studio::new()
    }
}

/// `<body data-ready="true">`: the contract the end-to-end test waits on.
fn mark_body_ready() {
    if let Some(body) = document().body() {
        let _ = body.set_attribute("data-ready", "true");
    }
}
