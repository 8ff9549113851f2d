//! The Tuning panel's state: the queue tree being edited (or read from the
//! cluster's files), the settings as typed, the last run, the schedule
//! shown and what is in flight. Runs are ticketed: answers to anything but
//! the latest run are dropped.

use super::protocol::{ScheduleView, TuningRequest, TuningResponse, TuningSettings, TuningView};
use crate::page::Page;
use crate::protocol::Request;
use crate::widgets::download::save_text;
use leptos::prelude::*;
use skyplan_engine::tuning::{GroupConfig, Policy, QueueConf, SchedulerKind, SearchMethod};

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
        let s = TuningSettings::default();
        TuningForm {
            containers: s.containers.to_string(),
            per_machine: s.per_machine.to_string(),
            seed: s.seed.to_string(),
            first_job: (s.first_job + 1).to_string(),
            jobs: s.jobs.to_string(),
            groups: s.groups.to_string(),
            search: s.search,
            arrivals: s.arrivals,
            parent: "root".into(),
        }
    }
}

impl TuningForm {
    /// The settings, or what is wrong with the form (the engine checks the
    /// ranges).
    pub fn settings(&self) -> Result<TuningSettings, String> {
        fn whole<T: std::str::FromStr>(text: &str, what: &str) -> Result<T, String> {
            text.trim()
                .parse::<T>()
                .map_err(|_| format!("{what}: a whole number, please"))
        }
        let first: usize = whole(&self.first_job, "First job")?;
        if first == 0 {
            return Err("First job: counted from 1".into());
        }
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

/// `n` queues `q1…` of equal share, within §4.2's 10–90 % bounds.
pub fn equal_queues(scheduler: SchedulerKind, n: usize) -> GroupConfig {
    let n = n.max(1);
    let share = match scheduler {
        SchedulerKind::Capacity => 1.0 / n as f64,
        SchedulerKind::Fair => 1.0,
    };
    GroupConfig {
        scheduler,
        queues: (1..=n)
            .map(|k| QueueConf {
                name: format!("q{k}"),
                share,
                min_share: if n > 1 { 0.1 } else { 0.0 },
                max_share: if n > 1 { 0.9 } else { 1.0 },
                policy: Policy::Fifo,
            })
            .collect(),
    }
}

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
    /// The last run's results.
    pub view: RwSignal<Option<TuningView>>,
    /// The group shown.
    pub group: RwSignal<usize>,
    /// The schedule shown (the best's, or a chosen candidate's).
    pub schedule: RwSignal<Option<ScheduleView>>,
    /// A run is in flight.
    pub running: RwSignal<bool>,
    /// Searches done and in all, of the run in flight.
    pub progress: RwSignal<(usize, usize)>,
    /// The form's, the file's or the engine's last refusal.
    pub error: RwSignal<Option<String>>,
    ticket: StoredValue<u32>,
}

impl TuningDesk {
    /// Two Capacity queues of equal share; nothing run.
    pub fn new(page: Page) -> TuningDesk {
        TuningDesk {
            page,
            form: RwSignal::new(TuningForm::default()),
            current: RwSignal::new(equal_queues(SchedulerKind::Capacity, 2)),
            source: RwSignal::new(None),
            view: RwSignal::new(None),
            group: RwSignal::new(0),
            schedule: RwSignal::new(None),
            running: RwSignal::new(false),
            progress: RwSignal::new((0, 0)),
            error: RwSignal::new(None),
            ticket: StoredValue::new(0),
        }
    }

    fn send(self, request: TuningRequest) {
        self.page.send(Request::Tuning(request));
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
        let Ok(value) = text.trim().trim_end_matches('%').trim().parse::<f64>() else {
            self.error.set(Some(format!(
                "Queue {}: {text:?} is not a number",
                queue + 1
            )));
            return;
        };
        self.error.set(None);
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
        let name = file.name();
        let (parent, containers) = self
            .form
            .with_untracked(|f| (f.parent.clone(), f.containers.trim().parse().unwrap_or(8)));
        self.error.set(None);
        leptos::task::spawn_local(async move {
            match wasm_bindgen_futures::JsFuture::from(file.text()).await {
                Ok(text) => self.send(TuningRequest::ReadXml {
                    name,
                    text: text.as_string().unwrap_or_default(),
                    parent,
                    containers,
                }),
                Err(e) => self.error.set(Some(format!(
                    "{name} could not be read: {}",
                    crate::protocol::js_error_text(&e)
                ))),
            }
        });
    }

    /// Back to queues of our own: the export writes a fresh file.
    pub fn forget_xml(self) {
        self.source.set(None);
        self.send(TuningRequest::ForgetXml);
    }

    /// Tunes the current queues on the window with the form's settings.
    pub fn run(self) {
        let settings = match self.form.with_untracked(TuningForm::settings) {
            Ok(s) => s,
            Err(e) => {
                self.error.set(Some(e));
                return;
            }
        };
        self.ticket.update_value(|t| *t = t.wrapping_add(1));
        let ticket = self.ticket.get_value();
        self.error.set(None);
        self.running.set(true);
        self.progress.set((0, 0));
        self.send(TuningRequest::Run {
            ticket,
            settings,
            current: self.current.get_untracked(),
        });
    }

    /// Shows the schedule of candidate `candidate` of the group shown.
    pub fn pick(self, candidate: usize) {
        let Some(ticket) = self.view.with_untracked(|v| v.as_ref().map(|v| v.ticket)) else {
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
        self.view.with_untracked(|v| {
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
        let latest = self.ticket.get_value();
        match response {
            TuningResponse::Config { name, config } => {
                self.error.set(None);
                self.source.set(Some(name));
                self.current.set(config);
            }
            TuningResponse::ConfigFailed { message, .. } => self.error.set(Some(message)),
            TuningResponse::Progress {
                ticket,
                done,
                total,
            } if ticket == latest => self.progress.set((done, total)),
            TuningResponse::Ready(view) if view.ticket == latest => {
                self.running.set(false);
                let schedule = view.groups.first().map(|g| g.schedule.clone());
                self.group.set(0);
                self.schedule.set(schedule);
                self.view.set(Some(*view));
            }
            TuningResponse::Schedule(view) if view.ticket == latest => {
                self.schedule.set(Some(*view));
            }
            TuningResponse::Failed { ticket, message } if ticket == latest => {
                self.running.set(false);
                self.error.set(Some(message));
            }
            TuningResponse::ExportFailed { message } => self.error.set(Some(message)),
            TuningResponse::Xml { name, text } => {
                if let Err(e) = save_text(&name, "application/xml", &text) {
                    self.page.notify(format!("{name} could not be saved: {e}"));
                }
            }
            // Answers to runs sent before the latest one: stale, dropped.
            TuningResponse::Progress { .. }
            | TuningResponse::Ready(_)
            | TuningResponse::Schedule(_)
            | TuningResponse::Failed { .. } => {}
        }
    }
}
