//! The Runway panel's state: the settings as typed, the latest runway (a
//! [`Job`]: an answer to anything but the latest run is dropped, and a
//! refused run keeps the last answer on screen) and its lever table. The
//! settings of every runway the engine answered are saved — never
//! settings it refused, which a workspace bundle could not carry.
//!
//! The panel opens at work: once the saved settings are in, the workspace
//! is planned. A change of settings on the same workspace is answered
//! from the planner the worker keeps (milliseconds: the agenda is not
//! re-planned), so a slider redraws while it is dragged. The levers run
//! each lever's own simulation at the grown load, seconds each on the
//! demo: they are asked one at a time once a runway is shown and no
//! slider is held, the quick ones first (`ASKED`), so other panels are
//! answered between them, and the figures of the settings before stay
//! shown until replaced. Once they are
//! all in, the sizes a drag of the growth slider up to its largest value
//! would re-plan are planned ahead the same way, a size a request
//! ([`WarmState`]), so that drag redraws from kept sizes only.
//!
//! A run's dates come before its purchase plans (the worker's outlook:
//! one re-planned size a limit, where the plans take one a machine
//! added); they are shown at once, the plans marked as being planned
//! ([`Dates`]).

use super::protocol::{OutlookView, RunwayRequest, RunwayResponse, RunwayView, WarmView};
use crate::page::Page;
use crate::toolkit::form::{number, whole};
use crate::toolkit::job::Job;
use leptos::prelude::*;
use skyplan_engine::bundle::RunwayState;
use skyplan_engine::runway::{
    Growth, Lever, LeverKind, Outlook, ResourceTarget, RunwayParams, ScaleChoice, SeasonChoice,
};
use skyplan_engine::Resource;

/// The growth slider's range and step, % a month: its largest value is
/// what the worker plans sizes ahead for (the warm-up); the panel draws
/// the slider with it.
pub const GROWTH_SLIDER: (f64, f64, f64) = (-10.0, 30.0, 0.5);

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
    /// The fitted trend's scale (level, log, or chosen from the history's
    /// spread against its level).
    pub scale: ScaleChoice,
    /// The fitted growth's season as typed: `auto` (found in the history),
    /// `none`, or a period in days.
    pub season: String,
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

/// The season as typed: `auto` (or nothing), `none`, or a period in days
/// (the engine checks it is at least 2 and fits the history).
fn season_of(text: &str) -> Result<SeasonChoice, String> {
    match text.trim().to_ascii_lowercase().as_str() {
        "" | "auto" => Ok(SeasonChoice::Auto),
        "none" | "off" => Ok(SeasonChoice::Off),
        days => days
            .parse::<usize>()
            .map(SeasonChoice::Period)
            .map_err(|_| format!("Season: `auto`, `none` or a period in days, not `{text}`")),
    }
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
            scale: p.scale,
            season: match p.season {
                SeasonChoice::Auto => "auto".to_owned(),
                SeasonChoice::Off => "none".to_owned(),
                SeasonChoice::Period(days) => days.to_string(),
            },
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
            scale: self.scale,
            season: season_of(&self.season)?,
            ..self.rest.clone()
        })
    }
}

/// The order the levers are asked in (the table keeps
/// [`LeverKind::ALL`]'s): the quick ones first. The worker answers one
/// request at a time, and the reservations lever — the batch optimizer at
/// several sizes of the cluster — takes seconds (3.7 s natively on the
/// demo, where tuning, harvesting and shaping take 0.2–0.7 s each), so
/// asked last, the other three figures are on screen while it runs.
const ASKED: [LeverKind; 4] = [
    LeverKind::Tuning,
    LeverKind::Harvesting,
    LeverKind::Shaping,
    LeverKind::Reservations,
];

/// One lever's row as the panel shows it.
#[derive(Clone, Debug, PartialEq)]
pub enum LeverRow {
    /// Asked of the worker, not answered yet (the figures of the settings
    /// before, if any, stay shown beside it).
    Measuring(Option<Lever>),
    /// Measured at the shown settings.
    Measured(Lever, f64),
    /// The engine's line.
    Failed(String),
}

/// The lever table: a row per lever of [`LeverKind::ALL`], and the
/// settings and ticket of the runway they are (being) measured for.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LeverTable {
    /// The rows, in [`LeverKind::ALL`]'s order (empty before the first).
    pub rows: Vec<(LeverKind, LeverRow)>,
    /// The runway's ticket.
    pub ticket: Option<u32>,
    /// Its settings.
    pub params: Option<RunwayParams>,
}

impl LeverTable {
    /// Levers are measured (or being measured) for these settings.
    fn covers(&self, params: &RunwayParams) -> bool {
        self.params.as_ref() == Some(params)
    }

    /// The next lever to ask, if any is still waiting, in [`ASKED`]'s
    /// order.
    fn next(&self) -> Option<LeverKind> {
        ASKED.into_iter().find(|k| {
            self.rows
                .iter()
                .any(|(r, row)| r == k && matches!(row, LeverRow::Measuring(_)))
        })
    }

    /// Every lever waiting for the runway `ticket` under `params`, the
    /// figures before kept beside them.
    fn restart(&mut self, ticket: u32, params: RunwayParams) {
        let before = std::mem::take(&mut self.rows);
        self.rows = LeverKind::ALL
            .iter()
            .map(|&k| {
                let last = before.iter().find_map(|(b, r)| match r {
                    LeverRow::Measured(l, _) if *b == k => Some(l.clone()),
                    LeverRow::Measuring(l) if *b == k => l.clone(),
                    _ => None,
                });
                (k, LeverRow::Measuring(last))
            })
            .collect();
        self.ticket = Some(ticket);
        self.params = Some(params);
    }
}

/// How far the sizes the growth slider needs are planned ahead.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Warmth {
    /// Not started: the levers come first, or nothing is planned yet.
    #[default]
    Waiting,
    /// Under way.
    Warming,
    /// Every size a growth on the slider needs is planned.
    Done,
    /// The engine's line.
    Failed(String),
}

/// The warm-up of the runway shown: its ticket and settings, how far it
/// got, and the sizes re-planned and worker time it took so far.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WarmState {
    /// How far.
    pub warmth: Warmth,
    /// Sizes re-planned by its steps.
    pub computed: usize,
    /// Worker milliseconds of its steps.
    pub millis: f64,
    /// The runway's ticket.
    ticket: Option<u32>,
    /// Its settings.
    params: Option<RunwayParams>,
}

impl WarmState {
    /// The next step to ask for, unless done or failed.
    fn next(&self) -> Option<(u32, RunwayParams)> {
        match self.warmth {
            Warmth::Waiting | Warmth::Warming => Some((self.ticket?, self.params.clone()?)),
            Warmth::Done | Warmth::Failed(_) => None,
        }
    }

    /// Takes in one step's answer.
    fn step(&mut self, view: WarmView) {
        self.millis += view.millis;
        self.warmth = match view.step {
            Ok(s) => {
                self.computed += s.computed;
                if s.done {
                    Warmth::Done
                } else {
                    Warmth::Warming
                }
            }
            Err(e) => Warmth::Failed(e),
        };
    }
}

/// What the limits card and the chart show: the dates of the runway
/// shown, or of the run being planned once its outlook has come.
#[derive(Clone, Debug, PartialEq)]
pub struct Dates {
    /// The run's ticket.
    pub ticket: u32,
    /// Its settings.
    pub params: RunwayParams,
    /// Its dates and chart (the runway's own, or its outlook's).
    pub outlook: Outlook,
    /// The purchase plans are in (the chart has the capacity after them).
    pub planned: bool,
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
    /// The outlook of the latest run while its purchases are planned.
    pub outlook: RwSignal<Option<OutlookView>>,
    /// The lever table, a lever at a time.
    pub levers: RwSignal<LeverTable>,
    /// The growth slider's sizes planned ahead, once the levers are in.
    pub warm: RwSignal<WarmState>,
    /// A slider is held: its changes are redrawn from the kept planner and
    /// the levers wait for its release.
    dragging: RwSignal<bool>,
    /// A lever or a warm-up step has been asked and not answered.
    asking: StoredValue<bool>,
    /// The panel is shown: levers are asked only then, so a planner who
    /// went to another panel does not wait behind them.
    shown: RwSignal<bool>,
    /// The workspace changed since the last run was asked.
    stale: RwSignal<bool>,
    /// The settings of the last run asked (not asked again unless the
    /// workspace changed or the planner presses "Plan again").
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
            outlook: RwSignal::new(None),
            levers: RwSignal::new(LeverTable::default()),
            warm: RwSignal::new(WarmState::default()),
            dragging: RwSignal::new(false),
            asking: StoredValue::new(false),
            shown: RwSignal::new(false),
            stale: RwSignal::new(false),
            asked: StoredValue::new(None),
        }
    }

    /// Asks the worker for the saved settings (once, when the page starts).
    pub fn open(self) {
        self.page.send(RunwayRequest::Open);
    }

    /// What the shown panel tracks (its effect calls this): once the saved
    /// settings are in, settings not asked yet, or a workspace changed
    /// since, are planned — the panel opens at work; a form that does not
    /// parse says why, the last runway kept.
    pub fn follow(self) {
        let asked = self.form.with(RunwayForm::params);
        let stale = self.stale.get();
        if !self.restored.get() {
            return;
        }
        let again = self
            .asked
            .with_value(|last| matches!((last, &asked), (Some(l), Ok(p)) if l == p));
        if again && !stale {
            return;
        }
        // Settings changed on the same workspace are answered from the
        // worker's kept planner; a workspace changed (or the first runway)
        // is gathered and planned.
        let redraw = !stale && self.asked.with_value(Option::is_some);
        untrack(move || self.send(asked, redraw));
    }

    /// Plans the runway again with the form's settings (the panel's
    /// button), the workspace gathered afresh and the levers measured
    /// again.
    pub fn plan(self) {
        self.levers.update(|t| t.params = None);
        self.send(self.form.with_untracked(RunwayForm::params), false);
    }

    fn send(self, asked: Result<RunwayParams, String>, redraw: bool) {
        self.stale.set(false);
        if let Some((ticket, params)) = self.run.start_with(asked) {
            self.asked.set_value(Some(params.clone()));
            self.page.send(if redraw {
                RunwayRequest::Redraw { ticket, params }
            } else {
                RunwayRequest::Run { ticket, params }
            });
        }
    }

    /// A slider is held (`true`) or released (`false`): released, the
    /// levers waiting are asked for.
    pub fn drag(self, held: bool) {
        self.dragging.set(held);
        if !held {
            self.ask_next_lever();
        }
    }

    /// Marks the levers of the runway shown as waiting, unless they are
    /// measured (or being measured) for its settings, and asks for them
    /// unless a slider is held.
    fn measure_shown(self) {
        let Some((ticket, params)) = self
            .run
            .view
            .with_untracked(|v| v.as_ref().map(|v| (v.ticket, v.params.clone())))
        else {
            return;
        };
        if self.levers.with_untracked(|t| t.covers(&params)) {
            return;
        }
        self.levers.update(|t| t.restart(ticket, params.clone()));
        self.warm.set(WarmState {
            ticket: Some(ticket),
            params: Some(params),
            ..WarmState::default()
        });
        // An answer out belongs to the settings before: dropped when it comes.
        self.asking.set_value(false);
        self.ask_next_lever();
    }

    /// The panel is shown (`true`, the levers waiting are asked for) or
    /// hidden (`false`: no more are asked until it is shown again).
    pub fn show(self, shown: bool) {
        self.shown.set(shown);
        self.ask_next_lever();
    }

    /// Asks the worker for the next lever waiting — or, every lever in,
    /// the next warm-up step — unless one is out, a slider is held or the
    /// panel is hidden.
    fn ask_next_lever(self) {
        let held = self.dragging.try_get_untracked().unwrap_or(true);
        let hidden = !self.shown.try_get_untracked().unwrap_or(false);
        if self.asking.get_value() || held || hidden {
            return;
        }
        let next = self.levers.with_untracked(|t| {
            Some((t.ticket?, t.params.clone()?, t.next()?))
        });
        if let Some((ticket, params, lever)) = next {
            self.asking.set_value(true);
            self.page.send(RunwayRequest::Lever {
                ticket,
                params,
                lever,
            });
            return;
        }
        // The levers wait for nothing but the runway; the warm-up only
        // for an idle panel, so it comes after them.
        let levers_in = self.levers.with_untracked(|t| t.ticket.is_some() && t.next().is_none());
        if !levers_in {
            return;
        }
        if let Some((ticket, params)) = self.warm.with_untracked(WarmState::next) {
            self.asking.set_value(true);
            self.page.send(RunwayRequest::Warm {
                ticket,
                params,
                growth_max: GROWTH_SLIDER.1,
            });
        }
    }

    /// The workspace changed (files imported or removed, the demo, Clear):
    /// the runway is planned again when the panel is next shown (at once
    /// if it is).
    pub fn workspace_changed(self) {
        self.stale.set(true);
        self.levers.update(|t| t.params = None);
    }

    /// The dates to show (tracked): the latest run's outlook while it is
    /// being planned, else the runway shown.
    pub fn dates(self) -> Option<Dates> {
        let ahead = self.outlook.with(|o| {
            o.as_ref()
                .filter(|o| self.run.running.get() && self.run.is_current(o.ticket))
                .map(|o| Dates {
                    ticket: o.ticket,
                    params: o.params.clone(),
                    outlook: o.outlook.clone(),
                    planned: false,
                })
        });
        ahead.or_else(|| {
            self.run.view.with(|v| {
                v.as_ref().map(|v| Dates {
                    ticket: v.ticket,
                    params: v.params.clone(),
                    outlook: v.runway.outlook(),
                    planned: true,
                })
            })
        })
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
            RunwayResponse::Outlook(view) => {
                if self.run.is_current(view.ticket) && self.run.running.get_untracked() {
                    self.outlook.set(Some(*view));
                }
            }
            RunwayResponse::Ready(view) => {
                let params = view.params.clone();
                if self.run.done(view.ticket, *view) {
                    self.outlook.set(None);
                    self.page.send(RunwayRequest::Keep(RunwayState { params }));
                    self.measure_shown();
                }
            }
            RunwayResponse::Lever(view) => {
                let mine = self.levers.with_untracked(|t| t.ticket == Some(view.ticket));
                if !mine {
                    return;
                }
                self.asking.set_value(false);
                self.levers.update(|t| {
                    if let Some((_, row)) = t.rows.iter_mut().find(|(k, _)| *k == view.which) {
                        match view.lever {
                            Ok(Some(l)) => *row = LeverRow::Measured(l, view.millis),
                            // Not done: still measuring, asked again below.
                            Ok(None) => {}
                            Err(e) => *row = LeverRow::Failed(e),
                        }
                    }
                });
                self.ask_next_lever();
            }
            RunwayResponse::Warmed(view) => {
                let mine = self.warm.with_untracked(|w| w.ticket == Some(view.ticket));
                if !mine {
                    return;
                }
                self.asking.set_value(false);
                self.warm.update(|w| w.step(view));
                self.ask_next_lever();
            }
            RunwayResponse::Failed(failure) => {
                if self.run.failed(&failure) {
                    self.outlook.set(None);
                }
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
            scale: ScaleChoice::Log,
            season: SeasonChoice::Period(7),
            ..RunwayParams::default()
        };
        let form = RunwayForm::of(&p);
        assert_eq!((form.scale, form.season.as_str()), (ScaleChoice::Log, "7"));
        assert_eq!(
            (form.percent.as_str(), form.cpu.as_str(), form.memory.as_str()),
            ("4.5", "80", "85")
        );
        let back = form.params().unwrap();
        assert_eq!(back.growth, p.growth);
        assert_eq!(back.machine_cores, Some(16.0));
        assert_eq!((back.horizon_days, back.purchase_days), (365, 90));
        assert_eq!((back.scale, back.season), (p.scale, p.season));
        assert_eq!(target_in(&back, &Resource::Cpu), 0.8);
        assert_eq!(target_in(&back, &Resource::Memory), 0.85);
        assert_eq!(target_in(&back, &Resource::Disk), 0.7);
        assert_eq!(RunwayForm::of(&back), RunwayForm { rest: back.clone(), ..form });
    }

    #[test]
    fn the_quick_levers_are_asked_first_and_each_once() {
        let mut table = LeverTable::default();
        assert_eq!(table.next(), None);
        table.restart(1, RunwayParams::default());
        let kinds: Vec<LeverKind> = table.rows.iter().map(|(k, _)| *k).collect();
        assert_eq!(kinds, LeverKind::ALL, "the table keeps its order");
        let mut asked = Vec::new();
        while let Some(k) = table.next() {
            asked.push(k);
            let row = table.rows.iter_mut().find(|(r, _)| *r == k).expect("a row");
            row.1 = LeverRow::Failed("measured".into());
        }
        assert_eq!(asked, ASKED);
        assert_eq!(asked.last(), Some(&LeverKind::Reservations));
        let mut sorted = asked.clone();
        sorted.sort_by_key(|k| LeverKind::ALL.iter().position(|a| a == k));
        assert_eq!(sorted, LeverKind::ALL, "every lever, once");
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
        let form = RunwayForm {
            season: "weekly".into(),
            ..RunwayForm::default()
        };
        assert!(form.params().unwrap_err().starts_with("Season"));
        for (typed, season) in [
            ("", SeasonChoice::Auto),
            ("Auto", SeasonChoice::Auto),
            ("none", SeasonChoice::Off),
            (" 365 ", SeasonChoice::Period(365)),
        ] {
            let form = RunwayForm {
                season: typed.into(),
                ..RunwayForm::default()
            };
            assert_eq!(form.params().unwrap().season, season, "{typed:?}");
        }
        // Fitted growth ignores the percent typed.
        let form = RunwayForm {
            percent: "x".into(),
            ..RunwayForm::default()
        };
        assert_eq!(form.params().unwrap().growth, Growth::Fitted);
    }
}
