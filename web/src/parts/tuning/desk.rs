//! The Tuning panel's state: the queue tree being edited (or read from the
//! cluster's files), the settings as typed, the last run (a [`Job`]:
//! answers to anything but the latest run are dropped), the schedule
//! shown, and the "where it pays" sweep (on the sweep pool) with its form.

use super::protocol::{ScheduleView, TuningRequest, TuningResponse, TuningSettings, TuningView};
use crate::page::Page;
use crate::toolkit::files::read_text;
use crate::toolkit::form::{at_least, number, whole};
use crate::toolkit::job::Job;
use crate::toolkit::pool::SweepJob;
use crate::widgets::download::save_text;
use leptos::prelude::*;
use skyplan_engine::sweep::SweepSpec;
use skyplan_engine::tuning::{
    ContentionSweep, EvalParams, GroupConfig, Policy, SchedulerKind, SearchMethod,
};

/// The settings form as typed.
#[derive(Clone, Debug, PartialEq)]
pub struct TuningForm {
    /// Containers R.
    pub containers: String,
    /// Containers per machine.
    pub per_machine: String,
    /// Seed.
    pub seed: String,
    /// The window's first job (1-based as shown).
    pub first_job: String,
    /// Jobs per group.
    pub jobs: String,
    /// Groups.
    pub groups: String,
    /// Search method.
    pub search: SearchMethod,
    /// Keep submission times.
    pub arrivals: bool,
    /// The parent queue in the YARN files.
    pub parent: String,
}

impl Default for TuningForm {
    fn default() -> Self {
        TuningForm::of(&TuningSettings::default(), "root")
    }
}

impl TuningForm {
    /// The form showing `s` and the parent queue `parent`.
    pub fn of(s: &TuningSettings, parent: &str) -> Self {
        TuningForm {
            containers: s.containers.to_string(),
            per_machine: s.per_machine.to_string(),
            seed: s.seed.to_string(),
            first_job: (s.first_job + 1).to_string(),
            jobs: s.jobs.to_string(),
            groups: s.groups.to_string(),
            search: s.search,
            arrivals: s.arrivals,
            parent: parent.to_owned(),
        }
    }
}

impl TuningForm {
    /// The settings, or what is wrong with the form (the engine checks the
    /// ranges).
    pub fn settings(&self) -> Result<TuningSettings, String> {
        let first = at_least(whole(&self.first_job, "First job")?, 1, "First job")?;
        Ok(TuningSettings {
            containers: whole(&self.containers, "Containers")?,
            per_machine: whole(&self.per_machine, "Per machine")?,
            seed: whole(&self.seed, "Seed")?,
            first_job: first - 1,
            jobs: whole(&self.jobs, "Jobs per group")?,
            groups: whole(&self.groups, "Groups")?,
            search: self.search,
            arrivals: self.arrivals,
        })
    }
}

/// The "where it pays" sweep's form as typed.
#[derive(Clone, Debug, PartialEq)]
pub struct PaysForm {
    /// Mix loads, comma-separated.
    pub loads: String,
    /// Queue counts, comma-separated.
    pub queues: String,
    /// Google-like mixes a cell evaluates.
    pub mixes: String,
}

/// Mix loads a sweep covers by default: half-idle to six times overloaded,
/// the evaluation's default 1.5 among them (`skyplan sweep tuning`'s
/// benchmark grid).
pub const DEFAULT_PAYS_LOADS: &str = "0.5,1.5,3,6";

/// Queue counts by default: the paper's two and four.
pub const DEFAULT_PAYS_QUEUES: &str = "2,4";

/// Google-like mixes a cell evaluates by default (`skyplan sweep tuning`'s
/// 6): with both schedulers, 12 §4.3 cases a cell, a few seconds in a
/// browser worker, so the default 8 cells answer well under a minute.
pub const DEFAULT_PAYS_MIXES: usize = 6;

impl Default for PaysForm {
    fn default() -> Self {
        PaysForm {
            loads: DEFAULT_PAYS_LOADS.to_owned(),
            queues: DEFAULT_PAYS_QUEUES.to_owned(),
            mixes: DEFAULT_PAYS_MIXES.to_string(),
        }
    }
}

impl PaysForm {
    /// The contention sweep over the typed loads × queue counts, or what
    /// is wrong with the form (the engine checks the ranges when the pool
    /// plans it). The base is `skyplan sweep tuning`'s (one noise seed,
    /// §4.4 at 2 minutes on 60 jobs) with no SWIM jobs: the page holds no
    /// job history (the engine worker does), so a cell evaluates
    /// Google-like mixes only and §4.4 is not run — the same cells as
    /// `skyplan sweep tuning` without a file.
    pub fn sweep(&self) -> Result<SweepSpec, String> {
        let loads = self
            .loads
            .split(',')
            .map(|v| number(v.trim(), "Mix loads"))
            .collect::<Result<Vec<f64>, String>>()?;
        let queues = self
            .queues
            .split(',')
            .map(|v| whole(v.trim(), "Queue counts"))
            .collect::<Result<Vec<usize>, String>>()?;
        // Written out as data, not through the engine's constructors: the
        // page links no engine function (ARCHITECTURE.md, Web).
        let base = EvalParams {
            facebook_windows: 3,
            google_mixes: whole(&self.mixes, "Mixes per cell")?,
            repeats: 1,
            adapt_minutes: vec![2.0],
            adapt_jobs: 60,
            ..EvalParams::default()
        };
        Ok(SweepSpec::Tuning(ContentionSweep {
            base,
            swim: Vec::new(),
            loads,
            queues,
        }))
    }
}

/// `n` queues `q1…` of equal share (the engine's, shared with the plan
/// report).
pub use skyplan_engine::tuning::equal_queues;

/// Which field of a queue an edit changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QueueField {
    /// Capacity % or Fair weight.
    Share,
    /// Minimum share, %.
    Min,
    /// Maximum share, %.
    Max,
}

/// The Tuning panel's signals.
#[derive(Clone, Copy)]
pub struct TuningDesk {
    page: Page,
    /// The settings as typed.
    pub form: RwSignal<TuningForm>,
    /// The current configuration: the queue tree the grid starts from.
    pub current: RwSignal<GroupConfig>,
    /// The YARN file it was read from, if any.
    pub source: RwSignal<Option<String>>,
    /// The last run.
    pub run: Job<TuningView>,
    /// The group shown.
    pub group: RwSignal<usize>,
    /// The schedule shown (the best's, or a chosen candidate's).
    pub schedule: RwSignal<Option<ScheduleView>>,
    /// "Where it pays": the contention sweep on the sweep pool.
    pub pays: SweepJob,
    /// Its form.
    pub pays_form: RwSignal<PaysForm>,
    /// The last YARN file sent to the worker, kept to send again to a
    /// worker restarted by Cancel (in case the worker could not save it).
    sent_xml: StoredValue<Option<TuningRequest>>,
    /// The saved state has arrived: from then on every change of the form
    /// or the queue tree is saved (not before, or the defaults would
    /// overwrite what was saved).
    restored: RwSignal<bool>,
}

impl TuningDesk {
    /// Two Capacity queues of equal share; nothing run.
    pub fn new(page: Page) -> TuningDesk {
        let desk = TuningDesk {
            page,
            form: RwSignal::new(TuningForm::default()),
            current: RwSignal::new(equal_queues(SchedulerKind::Capacity, 2)),
            source: RwSignal::new(None),
            run: Job::new(page),
            group: RwSignal::new(0),
            schedule: RwSignal::new(None),
            pays: SweepJob::new(page),
            pays_form: RwSignal::new(PaysForm::default()),
            sent_xml: StoredValue::new(None),
            restored: RwSignal::new(false),
        };
        page.on_restart(move || desk.restarted());
        Effect::new(move |_| desk.keep());
        desk
    }

    /// Asks the worker for the saved state (once, when the page starts).
    pub fn open(self) {
        self.send(TuningRequest::Open);
    }

    /// Saves the form (when it parses) and the queue tree; tracked by the
    /// desk's effect, so every change is saved once the saved state is in.
    fn keep(self) {
        let (Ok(settings), parent) = self.form.with(|f| (f.settings(), f.parent.clone())) else {
            return;
        };
        let current = self.current.get();
        if self.restored.get() {
            self.send(TuningRequest::Keep {
                settings,
                current,
                parent,
            });
        }
    }

    /// A fresh worker is starting: it holds no YARN file, so the one read
    /// is sent again (the export updates it in place). The last run is not
    /// redone: a candidate's schedule is answered with a line asking for a
    /// new run.
    fn restarted(self) {
        if let Some(request) = self.sent_xml.get_value() {
            self.send(request);
        }
    }

    fn send(self, request: TuningRequest) {
        self.page.send(request);
    }

    /// Switches the scheduler; the queues stay, Capacity shares are made to
    /// sum to 100 %.
    pub fn set_scheduler(self, scheduler: SchedulerKind) {
        self.current.update(|c| {
            c.scheduler = scheduler;
            if scheduler == SchedulerKind::Capacity {
                let sum: f64 = c.queues.iter().map(|q| q.share).sum();
                let n = c.queues.len() as f64;
                for q in &mut c.queues {
                    q.share = if sum > 0.0 { q.share / sum } else { 1.0 / n };
                }
            }
        });
    }

    /// `n` queues of equal share (names of the first ones kept).
    pub fn set_queue_count(self, n: usize) {
        self.current.update(|c| {
            let mut fresh = equal_queues(c.scheduler, n);
            for (new, old) in fresh.queues.iter_mut().zip(&c.queues) {
                new.name = old.name.clone();
                new.policy = old.policy;
            }
            *c = fresh;
        });
    }

    /// Sets one queue's share, minimum or maximum from the typed text (%
    /// except a Fair weight); a text that is not a number is reported.
    pub fn edit_queue(self, queue: usize, field: QueueField, text: &str) {
        let value = match number(text, &format!("Queue {}", queue + 1)) {
            Ok(value) => value,
            Err(message) => {
                self.run.error.set(Some(message));
                return;
            }
        };
        self.run.error.set(None);
        self.current.update(|c| {
            let weight = c.scheduler == SchedulerKind::Fair;
            if let Some(q) = c.queues.get_mut(queue) {
                match field {
                    QueueField::Share if weight => q.share = value,
                    QueueField::Share => q.share = value / 100.0,
                    QueueField::Min => q.min_share = value / 100.0,
                    QueueField::Max => q.max_share = value / 100.0,
                }
            }
        });
    }

    /// Sets one queue's in-queue policy.
    pub fn set_policy(self, queue: usize, policy: Policy) {
        self.current.update(|c| {
            if let Some(q) = c.queues.get_mut(queue) {
                q.policy = policy;
            }
        });
    }

    /// Reads a YARN file chosen by the user and sends it to the worker.
    pub fn import_xml(self, file: web_sys::File) {
        let (parent, containers) = self
            .form
            .with_untracked(|f| (f.parent.clone(), f.containers.trim().parse().unwrap_or(8)));
        self.run.error.set(None);
        read_text(file, move |read| match read {
            Ok((name, text)) => {
                let request = TuningRequest::ReadXml {
                    name,
                    text,
                    parent,
                    containers,
                };
                self.sent_xml.set_value(Some(request.clone()));
                self.send(request);
            }
            Err(message) => self.run.error.set(Some(message)),
        });
    }

    /// Back to queues of our own: the export writes a fresh file.
    pub fn forget_xml(self) {
        self.source.set(None);
        self.sent_xml.set_value(None);
        self.send(TuningRequest::ForgetXml);
    }

    /// Tunes the current queues on the window with the form's settings.
    pub fn tune(self) {
        let asked = self.form.with_untracked(TuningForm::settings);
        let Some((ticket, settings)) = self.run.start_with(asked) else {
            return;
        };
        self.send(TuningRequest::Run {
            ticket,
            settings,
            current: self.current.get_untracked(),
        });
    }

    /// Runs "where it pays" on the sweep pool over the form's loads and
    /// queue counts. The mixes are generated in every cell, so a sweep
    /// needs no run of the panel.
    pub fn run_pays(self) {
        match self.pays_form.with_untracked(PaysForm::sweep) {
            Ok(spec) => self.pays.start(spec),
            Err(message) => self.pays.job.refuse(message),
        }
    }

    /// Shows the schedule of candidate `candidate` of the group shown.
    pub fn pick(self, candidate: usize) {
        let Some(ticket) = self.run.shown() else {
            return;
        };
        self.send(TuningRequest::Schedule {
            ticket,
            group: self.group.get_untracked(),
            candidate,
        });
    }

    /// Shows group `group` and its best schedule.
    pub fn show_group(self, group: usize) {
        self.group.set(group);
        let best = self
            .run
            .view
            .with_untracked(|v| v.as_ref().and_then(|v| v.groups.get(group)).map(|g| g.best));
        if let Some(best) = best {
            self.pick(best);
        }
    }

    /// The configuration of the schedule shown, if any.
    pub fn chosen(self) -> Option<GroupConfig> {
        let (group, candidate) = self
            .schedule
            .with_untracked(|s| s.as_ref().map(|s| (s.group, s.candidate)))?;
        self.run.view.with_untracked(|v| {
            v.as_ref()?
                .groups
                .get(group)?
                .candidates
                .get(candidate)
                .map(|c| c.config.clone())
        })
    }

    /// Makes the shown configuration the current one.
    pub fn adopt(self) {
        if let Some(config) = self.chosen() {
            self.current.set(config);
        }
    }

    /// Asks for the shown configuration as YARN XML; saved when it arrives.
    pub fn export(self) {
        let Some(config) = self.chosen() else {
            return;
        };
        let containers = self
            .schedule
            .with_untracked(|s| s.as_ref().map(|s| s.containers))
            .unwrap_or(8);
        let parent = self.form.with_untracked(|f| f.parent.clone());
        self.send(TuningRequest::Export {
            config,
            containers,
            parent,
        });
    }

    /// Takes in one answer of the worker.
    pub fn apply(self, response: TuningResponse) {
        match response {
            TuningResponse::Restored(state) => {
                self.form
                    .set(TuningForm::of(&state.settings, &state.parent));
                self.current.set(
                    state
                        .current
                        .unwrap_or_else(|| equal_queues(SchedulerKind::Capacity, 2)),
                );
                if state.xml.is_none() {
                    self.sent_xml.set_value(None);
                }
                self.source.set(state.xml.map(|(name, _)| name));
                self.restored.set(true);
            }
            TuningResponse::Config { name, config } => {
                self.run.error.set(None);
                self.source.set(Some(name));
                self.current.set(config);
            }
            TuningResponse::ConfigFailed { message, .. } => self.run.error.set(Some(message)),
            TuningResponse::Progress(p) => {
                self.run.progressed(&p);
            }
            TuningResponse::Ready(view) => {
                let schedule = view.groups.first().map(|g| g.schedule.clone());
                if self.run.done(view.ticket, *view) {
                    self.group.set(0);
                    self.schedule.set(schedule);
                }
            }
            TuningResponse::Schedule(view) => {
                if self.run.is_current(view.ticket) {
                    self.schedule.set(Some(*view));
                }
            }
            TuningResponse::Failed(failure) => {
                self.run.failed(&failure);
            }
            TuningResponse::ExportFailed { message } => self.run.error.set(Some(message)),
            TuningResponse::Xml { name, text } => {
                if let Err(e) = save_text(&name, "application/xml", &text) {
                    self.page.notify(format!("{name} could not be saved: {e}"));
                }
            }
        }
    }
}
