//! The Runway panel's state: the settings as typed, and the latest runway
//! (a [`Job`]: an answer to anything but the latest run is dropped, and a
//! refused run keeps the last answer on screen). The settings of every
//! runway the engine answered are saved — never settings it refused, which
//! a workspace bundle could not carry. The first runway of a page is asked for by the
//! planner ("Plan the runway"): a runway re-plans the agenda at every
//! growth step, minutes of the one worker on the demo today, which must
//! not hold up every other panel when the studio opens. From then on,
//! while the panel is shown ([`RunwayDesk::follow`]), it is planned again
//! when the form changes and when the workspace has changed; hidden, it
//! waits.

use super::protocol::{RunwayRequest, RunwayResponse, RunwayView};
use crate::page::Page;
use crate::toolkit::form::{number, whole};
use crate::toolkit::job::Job;
use leptos::prelude::*;
use skyplan_engine::bundle::RunwayState;
use skyplan_engine::runway::{Growth, ResourceTarget, RunwayParams};
use skyplan_engine::Resource;

/// How the form sets the growth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GrowthKind {
    /// Fitted from the history's daily peaks.
    Fitted,
    /// By hand, percent a month.
    Monthly,
}

/// The Runway form as typed.
#[derive(Clone, Debug, PartialEq)]
pub struct RunwayForm {
    /// Fitted or by hand.
    pub growth: GrowthKind,
    /// Percent a month, when by hand.
    pub percent: String,
    /// CPU's headroom target, percent.
    pub cpu: String,
    /// Memory's headroom target, percent.
    pub memory: String,
    /// Days looked ahead.
    pub horizon: String,
    /// Days the purchase schedule keeps every limit.
    pub purchase: String,
    /// The settings the form does not show (steps, the machine added, the
    /// queue's limit, other resources' targets), kept as they came.
    pub rest: RunwayParams,
}

impl Default for RunwayForm {
    fn default() -> Self {
        RunwayForm::of(&RunwayParams::default())
    }
}

/// A fraction as the percent typed (`0.8` → `80`).
fn percent_of(fraction: f64) -> String {
    let p = fraction * 100.0;
    // Whole percents as typed; anything finer keeps its digits.
    if (p - p.round()).abs() < 1e-9 {
        format!("{}", p.round())
    } else {
        format!("{p}")
    }
}

/// The headroom target `params` gives `resource` (its own, or the default
/// one): a lookup in the settings, not the engine's method, which the page
/// does not link.
fn target_in(params: &RunwayParams, resource: &Resource) -> f64 {
    params
        .targets
        .iter()
        .find(|t| &t.resource == resource)
        .map_or(params.target, |t| t.target)
}

impl RunwayForm {
    /// The form showing `p`.
    pub fn of(p: &RunwayParams) -> Self {
        let (growth, percent) = match p.growth {
            Growth::Fitted => (GrowthKind::Fitted, "2".to_owned()),
            Growth::Monthly { percent } => (GrowthKind::Monthly, format!("{percent}")),
        };
        RunwayForm {
            growth,
            percent,
            cpu: percent_of(target_in(p, &Resource::Cpu)),
            memory: percent_of(target_in(p, &Resource::Memory)),
            horizon: p.horizon_days.to_string(),
            purchase: p.purchase_days.to_string(),
            rest: p.clone(),
        }
    }

    /// The settings, or what is wrong with the form as typed (the engine
    /// checks the ranges: a target above 100 %, growth of −100 % or less).
    pub fn params(&self) -> Result<RunwayParams, String> {
        let growth = match self.growth {
            GrowthKind::Fitted => Growth::Fitted,
            GrowthKind::Monthly => Growth::Monthly {
                percent: number(&self.percent, "Growth, % a month")?,
            },
        };
        let cpu = number(&self.cpu, "CPU target %")? / 100.0;
        let memory = number(&self.memory, "Memory target %")? / 100.0;
        let mut targets: Vec<ResourceTarget> = self
            .rest
            .targets
            .iter()
            .filter(|t| !matches!(t.resource, Resource::Cpu | Resource::Memory))
            .cloned()
            .collect();
        targets.push(ResourceTarget {
            resource: Resource::Cpu,
            target: cpu,
        });
        targets.push(ResourceTarget {
            resource: Resource::Memory,
            target: memory,
        });
        Ok(RunwayParams {
            growth,
            targets,
            horizon_days: whole(&self.horizon, "Horizon, days")?,
            purchase_days: whole(&self.purchase, "Purchases for, days")?,
            ..self.rest.clone()
        })
    }
}

/// The Runway panel's signals.
#[derive(Clone, Copy)]
pub struct RunwayDesk {
    page: Page,
    /// The saved settings have arrived: from then on the form is planned
    /// (not before, or the defaults would be planned and saved over what
    /// was saved).
    restored: RwSignal<bool>,
    /// The form as typed.
    pub form: RwSignal<RunwayForm>,
    /// The runway shown.
    pub run: Job<RunwayView>,
    /// The workspace changed since the last run was asked.
    stale: RwSignal<bool>,
    /// The planner asked for a runway on this page: changes are followed.
    started: RwSignal<bool>,
    /// The settings of the last run asked (not asked again unless the
    /// workspace changed or the planner presses "Plan the runway").
    asked: StoredValue<Option<RunwayParams>>,
}

impl RunwayDesk {
    /// Nothing planned yet.
    pub fn new(page: Page) -> RunwayDesk {
        RunwayDesk {
            page,
            restored: RwSignal::new(false),
            form: RwSignal::new(RunwayForm::default()),
            run: Job::new(page),
            stale: RwSignal::new(false),
            started: RwSignal::new(false),
            asked: StoredValue::new(None),
        }
    }

    /// Asks the worker for the saved settings (once, when the page starts).
    pub fn open(self) {
        self.page.send(RunwayRequest::Open);
    }

    /// What the shown panel tracks (its effect calls this): once the
    /// planner has asked for a runway, settings not asked yet, or a
    /// workspace changed since, are planned; a form that does not parse
    /// says why, the last runway kept.
    pub fn follow(self) {
        let asked = self.form.with(RunwayForm::params);
        let stale = self.stale.get();
        if !(self.restored.get() && self.started.get()) {
            return;
        }
        let again = self
            .asked
            .with_value(|last| matches!((last, &asked), (Some(l), Ok(p)) if l == p));
        if again && !stale {
            return;
        }
        untrack(move || self.send(asked));
    }

    /// Plans the runway with the form's settings (the panel's button);
    /// from then on the panel follows the form and the workspace.
    pub fn plan(self) {
        self.send(self.form.with_untracked(RunwayForm::params));
        self.started.set(true);
    }

    fn send(self, asked: Result<RunwayParams, String>) {
        self.stale.set(false);
        if let Some((ticket, params)) = self.run.start_with(asked) {
            self.asked.set_value(Some(params.clone()));
            self.page.send(RunwayRequest::Run { ticket, params });
        }
    }

    /// The workspace changed (files imported or removed, the demo, Clear):
    /// a runway already asked for is planned again when the panel is next
    /// shown (at once if it is).
    pub fn workspace_changed(self) {
        self.stale.set(true);
    }

    /// Takes in one answer of the worker.
    pub fn apply(self, response: RunwayResponse) {
        match response {
            RunwayResponse::Restored(state) => {
                self.form.set(RunwayForm::of(&state.params));
                self.restored.set(true);
            }
            RunwayResponse::Progress(p) => {
                self.run.progressed(&p);
            }
            RunwayResponse::Ready(view) => {
                let params = view.params.clone();
                if self.run.done(view.ticket, *view) {
                    self.page.send(RunwayRequest::Keep(RunwayState { params }));
                }
            }
            RunwayResponse::Failed(failure) => {
                self.run.failed(&failure);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_form_round_trips_the_settings_it_shows_and_keeps_the_rest() {
        let p = RunwayParams {
            growth: Growth::Monthly { percent: 4.5 },
            targets: vec![
                ResourceTarget {
                    resource: Resource::Disk,
                    target: 0.7,
                },
                ResourceTarget {
                    resource: Resource::Memory,
                    target: 0.85,
                },
            ],
            horizon_days: 365,
            purchase_days: 90,
            machine_cores: Some(16.0),
            ..RunwayParams::default()
        };
        let form = RunwayForm::of(&p);
        assert_eq!(
            (form.percent.as_str(), form.cpu.as_str(), form.memory.as_str()),
            ("4.5", "80", "85")
        );
        let back = form.params().unwrap();
        assert_eq!(back.growth, p.growth);
        assert_eq!(back.machine_cores, Some(16.0));
        assert_eq!((back.horizon_days, back.purchase_days), (365, 90));
        assert_eq!(target_in(&back, &Resource::Cpu), 0.8);
        assert_eq!(target_in(&back, &Resource::Memory), 0.85);
        assert_eq!(target_in(&back, &Resource::Disk), 0.7);
        assert_eq!(RunwayForm::of(&back), RunwayForm { rest: back.clone(), ..form });
    }

    #[test]
    fn a_form_that_does_not_parse_says_which_field() {
        let form = RunwayForm {
            cpu: "lots".into(),
            ..RunwayForm::default()
        };
        assert!(form.params().unwrap_err().starts_with("CPU target %"));
        let form = RunwayForm {
            growth: GrowthKind::Monthly,
            percent: "x".into(),
            ..RunwayForm::default()
        };
        assert!(form.params().unwrap_err().starts_with("Growth, % a month"));
        // Fitted growth ignores the percent typed.
        let form = RunwayForm {
            percent: "x".into(),
            ..RunwayForm::default()
        };
        assert_eq!(form.params().unwrap().growth, Growth::Fitted);
    }
}
