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
use crate::toolkit::form::{number, numbers};
use crate::toolkit::job::Job;
use crate::widgets::download::save_text;
use crate::widgets::format::trimmed;
use leptos::prelude::*;
use skyplan_engine::resource_model::ModelParams;
use skyplan_engine::slo::{DecisionKind, SloDecision, SloParams};
use skyplan_engine::Skyline;

/// The inference settings as typed (the engine checks the ranges).
#[derive(Clone, Debug, PartialEq)]
pub struct InferenceForm {
    /// Earliest start: percentile of input availability.
    pub start: String,
    /// Deadline: percentile of output reads.
    pub deadline: String,
    /// Largest read-time CV for an actionable deadline.
    pub cv: String,
    /// Smallest slack ratio for an actionable deadline.
    pub slack: String,
}

impl InferenceForm {
    /// The start percentile's label.
    pub const START: &'static str = "Earliest start: percentile of input availability";
    /// The deadline percentile's label.
    pub const DEADLINE: &'static str = "Deadline: percentile of output reads";
    /// The read-time CV's label.
    pub const CV: &'static str = "Largest read-time CV for an actionable deadline";
    /// The slack ratio's label.
    pub const SLACK: &'static str = "Smallest slack ratio for an actionable deadline";

    /// The form showing `params`.
    pub fn of(params: &SloParams) -> InferenceForm {
        InferenceForm {
            start: params.start_percentile.to_string(),
            deadline: params.deadline_percentile.to_string(),
            cv: params.max_read_cv.to_string(),
            slack: params.min_slack_ratio.to_string(),
        }
    }

    /// `base` with the form's settings, or what is not a number.
    pub fn params(&self, base: SloParams) -> Result<SloParams, String> {
        Ok(SloParams {
            start_percentile: number(&self.start, Self::START)?,
            deadline_percentile: number(&self.deadline, Self::DEADLINE)?,
            max_read_cv: number(&self.cv, Self::CV)?,
            min_slack_ratio: number(&self.slack, Self::SLACK)?,
            ..base
        })
    }
}

/// A job's decision form as typed: the note every decision carries, and
/// the override's window (minutes after each period start) and reservation
/// (containers per step, `;`-separated), with the scale offered for `R*`.
#[derive(Clone, Debug, PartialEq)]
pub struct DecisionForm {
    /// Why it was overridden or rejected (optional).
    pub note: String,
    /// Earliest start, minutes.
    pub start: String,
    /// Deadline, minutes.
    pub deadline: String,
    /// The reservation's containers per step.
    pub skyline: String,
    /// Percentage of `R*` for "Use scaled R*".
    pub scale: String,
    /// Seconds per step of `skyline`.
    pub step: u32,
}

impl Default for DecisionForm {
    fn default() -> Self {
        DecisionForm {
            note: String::new(),
            start: String::new(),
            deadline: String::new(),
            skyline: String::new(),
            scale: "100".into(),
            step: 60,
        }
    }
}

impl DecisionForm {
    /// The note, if one is typed.
    pub fn note(&self) -> Option<String> {
        let note = self.note.trim();
        (!note.is_empty()).then(|| note.to_owned())
    }

    /// The override's window, seconds after each period start.
    pub fn window(&self) -> Result<(i64, i64), String> {
        Ok((
            parse_minutes("earliest start", &self.start)?,
            parse_minutes("deadline", &self.deadline)?,
        ))
    }

    /// The override's reservation.
    pub fn skyline(&self) -> Result<Skyline, String> {
        parse_skyline(&self.skyline).map(|values| Skyline::new(self.step, values))
    }

    /// The scale for `R*`, as a factor.
    pub fn scale(&self) -> Result<f64, String> {
        number(&self.scale, "scale").map(|p| p / 100.0)
    }

    /// Shows `window` and `skyline` in the override's fields.
    pub fn show(&mut self, window: (Option<i64>, Option<i64>), skyline: Option<&Skyline>) {
        self.start = window.0.map(minutes).unwrap_or_default();
        self.deadline = window.1.map(minutes).unwrap_or_default();
        if let Some(sky) = skyline {
            self.skyline = skyline_text(&sky.containers);
            self.step = sky.step_secs;
        }
        self.scale = "100".into();
    }
}

/// Minutes as a form value: at most two decimals.
pub fn minutes(secs: i64) -> String {
    trimmed(secs as f64 / 60.0, 2)
}

/// A skyline as the override field shows it: `;`-separated containers.
pub fn skyline_text(containers: &[f64]) -> String {
    containers
        .iter()
        .map(|&c| trimmed(c, 3))
        .collect::<Vec<_>>()
        .join(";")
}

/// A form field in minutes, as seconds.
fn parse_minutes(label: &str, text: &str) -> Result<i64, String> {
    number(text, label).map(|m| (m * 60.0).round() as i64)
}

/// The override field's containers (`;`-separated; blanks ignored).
fn parse_skyline(text: &str) -> Result<Vec<f64>, String> {
    numbers(text, "reservation")
}

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

    /// A decision of `kind` on the selected job `job`: its period and
    /// first period, the fit's model settings and the form's note.
    fn decision_of(
        self,
        job: String,
        kind: DecisionKind,
        form: &DecisionForm,
    ) -> Option<SloDecision> {
        let r = self.selected_row()?;
        Some(SloDecision {
            job,
            kind,
            period_secs: r.period_secs,
            reference: r.reference,
            window: None,
            skyline: None,
            model: self
                .fit
                .view
                .with_untracked(|f| f.as_ref().map(|f| f.model.params.clone())),
            note: form.note(),
        })
    }

    /// Signs off `job`: the inferred window and the reservation `R*` shown.
    pub fn sign_off(self, job: String, form: &DecisionForm) {
        let Some(mut d) = self.decision_of(job, DecisionKind::SignedOff, form) else {
            return;
        };
        d.window = self
            .selected_row()
            .and_then(|r| r.earliest_start_secs.zip(r.deadline_secs));
        d.skyline = self
            .fit
            .view
            .with_untracked(|f| f.as_ref().map(|f| f.model.skyline.clone()));
        self.decide(d);
    }

    /// Rejects `job`'s SLO.
    pub fn reject(self, job: String, form: &DecisionForm) {
        if let Some(mut d) = self.decision_of(job, DecisionKind::Rejected, form) {
            d.model = None;
            self.decide(d);
        }
    }

    /// Overrides `job`'s SLO with the form's window and reservation, or
    /// says what in the form is not a number.
    pub fn save_override(self, job: String, form: &DecisionForm) {
        let parsed = form.window().and_then(|w| Ok((w, form.skyline()?)));
        match parsed {
            Ok((window, skyline)) => {
                if let Some(mut d) = self.decision_of(job, DecisionKind::Overridden, form) {
                    d.window = Some(window);
                    d.skyline = Some(skyline);
                    self.decide(d);
                }
            }
            Err(message) => self.error.set(Some(message)),
        }
    }

    /// Opens the override of `job` on what is recorded (a signed-off or
    /// overridden decision), else on the inferred window and `R*`.
    pub fn open_override(self, job: &str, form: RwSignal<DecisionForm>) {
        let row = self.selected_row();
        let recorded = self
            .decision(job)
            .filter(|d| d.kind != DecisionKind::Rejected);
        let window = match recorded.as_ref().and_then(|d| d.window) {
            Some((a, d)) => (Some(a), Some(d)),
            None => (
                row.as_ref()
                    .and_then(|r| r.earliest_start_secs)
                    .map(|a| a.max(0)),
                row.as_ref().and_then(|r| r.deadline_secs),
            ),
        };
        let skyline = recorded.and_then(|d| d.skyline).or_else(|| {
            self.fit
                .view
                .with_untracked(|f| f.as_ref().map(|f| f.model.skyline.clone()))
        });
        form.update(|f| f.show(window, skyline.as_ref()));
        self.editing.set(true);
    }

    /// Puts `R*` scaled by the form's percentage in the override's
    /// reservation.
    pub fn scale_override(self, form: RwSignal<DecisionForm>) {
        let factor = match form.with_untracked(DecisionForm::scale) {
            Ok(factor) => factor,
            Err(message) => {
                self.error.set(Some(message));
                return;
            }
        };
        let scaled = self.fit.view.with_untracked(|f| {
            f.as_ref().map(|f| {
                let sky = &f.model.skyline;
                let values: Vec<f64> = sky.containers.iter().map(|c| c * factor).collect();
                (skyline_text(&values), sky.step_secs)
            })
        });
        if let Some((text, step)) = scaled {
            form.update(|f| {
                f.skyline = text;
                f.step = step;
            });
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn form_fields_parse_or_say_why() {
        assert_eq!(parse_minutes("deadline", " 50 "), Ok(3000));
        assert_eq!(parse_minutes("start", "0.5"), Ok(30));
        assert!(parse_minutes("start", "soon")
            .unwrap_err()
            .contains("`soon`"));
        assert_eq!(parse_skyline("1; 2.5;;3 "), Ok(vec![1.0, 2.5, 3.0]));
        assert!(parse_skyline("1;x").unwrap_err().contains("`x`"));
        assert_eq!(skyline_text(&[15.333_333, 30.0, 0.5]), "15.333;30;0.5");
        assert_eq!(minutes(63), "1.05");
        assert_eq!(minutes(3000), "50");
    }
}
