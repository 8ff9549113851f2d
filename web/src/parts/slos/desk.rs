//! The SLOs panel's state: the inferred SLO table, the selected job's fit
//! and its settings, the decisions, and what is in flight. Like every desk,
//! it holds no algorithm: it sends requests and keeps answers.
//!
//! Fits are ticketed: every settings change sends a new
//! [`SlosRequest::FitSkyline`] with the next ticket, the worker runs only the
//! latest of those queued for a job, and an answer whose ticket is not the
//! latest one sent is dropped here, so a dragged slider never shows a stale
//! reservation.

use super::protocol::{ExportFormat, FitView, SloRow, SloTable, SlosRequest, SlosResponse};
use crate::page::Page;
use crate::parts::traces::protocol::WorkspaceView;
use crate::toolkit::job::Job;
use crate::widgets::download::save_text;
use leptos::prelude::*;
use skyplan_engine::resource_model::ModelParams;
use skyplan_engine::slo::{SloDecision, SloParams};

/// Where the selected job's fit stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FitState {
    /// No job selected.
    Idle,
    /// The latest fit request has not been answered yet.
    Solving,
    /// The fit shown answers the latest request.
    Ready,
    /// The latest fit failed (the message is in [`SloDesk::error`]).
    Failed,
}

impl FitState {
    /// The word the panel shows (and the end-to-end test reads).
    pub fn label(self) -> &'static str {
        match self {
            FitState::Idle => "idle",
            FitState::Solving => "solving",
            FitState::Ready => "ready",
            FitState::Failed => "failed",
        }
    }
}

/// The SLOs panel's signals.
#[derive(Clone, Copy)]
pub struct SloDesk {
    page: Page,
    /// The workspace as the Traces part last reported it.
    workspace: RwSignal<WorkspaceView>,
    /// The panel is on screen (the table is kept fresh only then).
    pub active: RwSignal<bool>,
    /// Inference settings.
    pub params: RwSignal<SloParams>,
    /// The last SLO table (`None`: not asked yet, or no runs loaded).
    pub table: RwSignal<Option<SloTable>>,
    /// An SLO table request is in flight.
    pub loading: RwSignal<bool>,
    /// Every decision, by job name.
    pub decisions: RwSignal<Vec<SloDecision>>,
    /// The selected recurring job.
    pub selected: RwSignal<Option<String>>,
    /// Resource-model settings for the selected job.
    pub model: RwSignal<ModelParams>,
    /// The selected job's fit: the latest shown, and the one asked.
    pub fit: Job<FitView>,
    /// The engine's last refusal (SLO settings, fit, decision), until
    /// dismissed or replaced.
    pub error: RwSignal<Option<String>>,
    /// The override form is open.
    pub editing: RwSignal<bool>,
    /// Job of a decision sent and not yet answered.
    pub deciding: RwSignal<Option<String>>,
}

impl SloDesk {
    /// Nothing loaded, nothing selected, the paper's model settings.
    pub fn new(page: Page, workspace: RwSignal<WorkspaceView>) -> SloDesk {
        SloDesk {
            page,
            workspace,
            active: RwSignal::new(false),
            params: RwSignal::new(SloParams::default()),
            table: RwSignal::new(None),
            loading: RwSignal::new(false),
            decisions: RwSignal::new(Vec::new()),
            selected: RwSignal::new(None),
            model: RwSignal::new(ModelParams::paper()),
            fit: Job::new(page),
            error: RwSignal::new(None),
            editing: RwSignal::new(false),
            deciding: RwSignal::new(None),
        }
    }

    /// The table row of the selected job.
    pub fn selected_row(self) -> Option<SloRow> {
        let job = self.selected.get()?;
        self.table
            .with(|t| t.as_ref()?.rows.iter().find(|r| r.job == job).cloned())
    }

    /// The decision on `job`, if any.
    pub fn decision(self, job: &str) -> Option<SloDecision> {
        self.decisions
            .with(|d| d.iter().find(|d| d.job == job).cloned())
    }

    /// Where the selected job's fit stands (tracked).
    pub fn fit_state(self) -> FitState {
        if self.selected.with(Option::is_none) {
            FitState::Idle
        } else if self.fit.running.get() {
            FitState::Solving
        } else if self.fit.error.with(Option::is_some) {
            FitState::Failed
        } else if self.fit.view.with(Option::is_some) {
            FitState::Ready
        } else {
            FitState::Idle
        }
    }
}

impl SloDesk {
    fn send(self, request: SlosRequest) {
        self.page.send(request);
    }

    /// The SLOs panel was opened: fetch the table and the decisions, and
    /// refresh the selected job's fit.
    pub fn open_slos(self) {
        self.active.set(true);
        self.refresh_slos();
        self.send(SlosRequest::Decisions);
        self.refit();
    }

    /// The SLOs panel was closed.
    pub fn close_slos(self) {
        self.active.set(false);
    }

    /// Asks for the SLO table with the current settings (when runs are
    /// loaded; otherwise there is nothing to infer from).
    pub fn refresh_slos(self) {
        if self.workspace.with_untracked(|w| w.summary.runs) == 0 {
            self.table.set(None);
            self.deselect();
            return;
        }
        self.loading.set(true);
        let params = self.params.get_untracked();
        self.send(SlosRequest::Infer { params });
    }

    /// Changes the inference settings and infers again.
    pub fn set_slo_params(self, params: SloParams) {
        self.error.set(None);
        self.params.set(params);
        self.refresh_slos();
    }

    /// Selects a recurring job and fits its reservation.
    pub fn select_slo(self, job: String) {
        if self.selected.get_untracked().as_deref() == Some(job.as_str()) {
            return;
        }
        self.selected.set(Some(job));
        self.editing.set(false);
        self.fit.forget();
        self.refit();
    }

    fn deselect(self) {
        self.fit.forget();
        self.selected.set(None);
        self.editing.set(false);
    }

    /// Changes the model settings and fits again.
    pub fn set_model(self, change: impl FnOnce(&mut ModelParams)) {
        self.model.update(change);
        self.refit();
    }

    /// Sends a fit of the selected job with the current settings; the
    /// answer to any earlier one will be dropped.
    pub fn refit(self) {
        let Some(job) = self.selected.get_untracked() else {
            return;
        };
        let ticket = self.fit.start();
        let params = self.model.get_untracked();
        self.send(SlosRequest::FitSkyline {
            ticket,
            job,
            params,
        });
    }

    /// Sends a decision for the engine to validate and record.
    pub fn decide(self, decision: SloDecision) {
        self.error.set(None);
        self.deciding.set(Some(decision.job.clone()));
        self.send(SlosRequest::Decide { decision });
    }

    /// Withdraws the decision on `job`.
    pub fn undecide(self, job: String) {
        self.error.set(None);
        self.send(SlosRequest::Undecide { job });
    }

    /// Asks for the decisions as a file; it is downloaded when it arrives.
    pub fn export_decisions(self, format: ExportFormat) {
        self.send(SlosRequest::ExportDecisions { format });
    }

    /// The workspace changed: refresh what the SLOs panel shows.
    pub fn workspace_changed(self) {
        if self.active.get_untracked() {
            self.refresh_slos();
            self.refit();
        }
    }

    /// Takes in one of the SLO responses.
    pub fn apply(self, response: SlosResponse) {
        let slo = self;
        match response {
            SlosResponse::Table(table) => {
                slo.loading.set(false);
                let selected = slo.selected.get_untracked();
                let still = selected
                    .as_ref()
                    .is_some_and(|job| table.rows.iter().any(|r| &r.job == job));
                let first = table
                    .rows
                    .iter()
                    .find(|r| r.actionable)
                    .or(table.rows.first())
                    .map(|r| r.job.clone());
                slo.table.set(Some(table));
                if !still {
                    self.deselect();
                    if let Some(job) = first {
                        self.select_slo(job);
                    }
                }
            }
            SlosResponse::TableFailed { message } => {
                slo.loading.set(false);
                slo.error.set(Some(message));
            }
            // Answers to fits sent before the latest one are stale: dropped.
            SlosResponse::Fit(view) => {
                let solver = view.model.params.solver;
                if slo.fit.done(view.ticket, *view) {
                    // The worker may have changed the solver (see the note).
                    if slo.model.with_untracked(|m| m.solver != solver) {
                        slo.model.update(|m| m.solver = solver);
                    }
                }
            }
            SlosResponse::FitFailed(failure) => {
                if slo.fit.failed(&failure) {
                    slo.error.set(Some(failure.message));
                }
            }
            SlosResponse::Decisions { decisions } => {
                slo.decisions.set(decisions);
                if slo.deciding.get_untracked().is_some() {
                    slo.deciding.set(None);
                    slo.editing.set(false);
                }
            }
            SlosResponse::DecisionFailed { message, .. } => {
                slo.deciding.set(None);
                slo.error.set(Some(message));
            }
            SlosResponse::Exported { format, text } => {
                let name = format!("skyplan-decisions.{}", format.extension());
                if let Err(e) = save_text(&name, format.mime(), &text) {
                    self.page
                        .notify(format!("The export could not be downloaded: {e}"));
                }
            }
        }
    }
}
