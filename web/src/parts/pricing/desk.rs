//! The Pricing panel's state: the form (the new job, the method, the
//! cluster, the price function, the chosen deadline) kept as typed so that
//! nothing is lost when the panel is left or an input is refused, and the
//! worker's last answers — the history, the quote, the queue. No algorithm:
//! every figure comes from the worker.
//!
//! Quotes carry tickets: only the answer to the latest ask is shown (the
//! worker also drops quotes a later one supersedes).

use crate::page::Page;
use crate::parts::pricing::protocol::{
    function_of, method_of, HistoryJob, HistoryView, JobSpec, PricingRequest, PricingResponse,
    PricingSettings, QueueView, QuoteView, SimSettings, SimView,
};
use crate::protocol::now_ms;
use crate::toolkit::files::read_text;
use crate::toolkit::form::{number, numbers, optional, whole};
use crate::toolkit::job::Job;
use crate::widgets::download::save_text;
use crate::widgets::format::trimmed;
use leptos::prelude::*;
use skyplan_engine::model::JobFeatures;
use skyplan_engine::pricing::Slots;

/// The form's fields, as typed.
#[derive(Clone, Debug, PartialEq)]
pub struct PricingForm {
    /// Job name (same-job method, queue row).
    pub name: String,
    /// Map tasks.
    pub map_tasks: String,
    /// Reduce tasks.
    pub reduce_tasks: String,
    /// Input bytes.
    pub input: String,
    /// Shuffle bytes.
    pub shuffle: String,
    /// Output bytes.
    pub output: String,
    /// Estimation method (`<select>` value).
    pub method: String,
    /// PI level, percent.
    pub level: String,
    /// Map slots.
    pub map_slots: String,
    /// Reduce slots.
    pub reduce_slots: String,
    /// Price function (`<select>` value).
    pub function: String,
    /// κ.
    pub kappa: String,
    /// The chosen deadline, seconds from now (empty: none yet).
    pub deadline: String,
}

impl Default for PricingForm {
    /// A mid-sized job (40 maps, 4 reduces, 2.6 GB in) on the defaults of
    /// [`PricingSettings`].
    fn default() -> Self {
        let s = PricingSettings::default();
        PricingForm {
            name: "new_job".into(),
            map_tasks: "40".into(),
            reduce_tasks: "4".into(),
            input: "2.6e9".into(),
            shuffle: "4e9".into(),
            output: "1e8".into(),
            method: "gp".into(),
            level: "95".into(),
            map_slots: trimmed(s.slots.map, 0),
            reduce_slots: trimmed(s.slots.reduce, 0),
            function: "mrm".into(),
            kappa: "1".into(),
            deadline: String::new(),
        }
    }
}

impl PricingForm {
    /// The job and settings the form describes, or what is not a number
    /// (the engine judges the values).
    pub fn request(&self) -> Result<(JobSpec, PricingSettings), String> {
        let features = JobFeatures {
            map_tasks: Some(whole(&self.map_tasks, "Map tasks")?),
            reduce_tasks: Some(whole(&self.reduce_tasks, "Reduce tasks")?),
            input_bytes: number(&self.input, "Input bytes")?,
            shuffle_bytes: number(&self.shuffle, "Shuffle bytes")?,
            output_bytes: number(&self.output, "Output bytes")?,
        };
        let kappa = number(&self.kappa, "κ")?;
        let settings = PricingSettings {
            method: method_of(&self.method).ok_or("Unknown method.")?,
            level: number(&self.level, "PI level")? / 100.0,
            slots: Slots {
                map: number(&self.map_slots, "Map slots")?,
                reduce: number(&self.reduce_slots, "Reduce slots")?,
            },
            function: function_of(&self.function, kappa).ok_or("Unknown price function.")?,
        };
        Ok((
            JobSpec {
                name: self.name.trim().to_string(),
                features,
            },
            settings,
        ))
    }

    /// The chosen deadline, if one is typed (`Err` when it is not a
    /// number).
    pub fn deadline(&self) -> Result<Option<f64>, String> {
        optional(&self.deadline, |t| number(t, "Deadline"))
    }

    /// Takes a history job's name and size.
    pub fn take_job(&mut self, job: &HistoryJob) {
        let f = &job.features;
        self.name = job.name.clone();
        self.map_tasks = f.map_tasks.unwrap_or(0).to_string();
        self.reduce_tasks = f.reduce_tasks.unwrap_or(0).to_string();
        self.input = trimmed(f.input_bytes, 0);
        self.shuffle = trimmed(f.shuffle_bytes, 0);
        self.output = trimmed(f.output_bytes, 0);
    }

    /// Takes the cluster and price settings the queue was last used with.
    pub fn take_settings(&mut self, s: &PricingSettings) {
        self.method = crate::parts::pricing::protocol::method_value(s.method).into();
        self.level = trimmed(s.level * 100.0, 2);
        self.map_slots = trimmed(s.slots.map, 3);
        self.reduce_slots = trimmed(s.slots.reduce, 3);
        self.function = crate::parts::pricing::protocol::function_value(&s.function).into();
        self.kappa = trimmed(crate::parts::pricing::protocol::kappa_of(&s.function), 3);
    }
}

/// The simulation view's fields, as typed.
#[derive(Clone, Debug, PartialEq)]
pub struct SimForm {
    /// Jobs per load.
    pub jobs: String,
    /// Mean inter-arrival times, seconds, comma-separated.
    pub interarrivals: String,
    /// α.
    pub alpha: String,
    /// κ.
    pub kappa: String,
    /// σ of the estimation error, percent of the mean processing time.
    pub error_percent: String,
}

impl Default for SimForm {
    fn default() -> Self {
        let s = SimSettings::default();
        SimForm {
            jobs: s.jobs.to_string(),
            interarrivals: s
                .interarrivals
                .iter()
                .map(|v| trimmed(*v, 1))
                .collect::<Vec<_>>()
                .join(", "),
            alpha: trimmed(s.alpha, 2),
            kappa: trimmed(s.kappa, 2),
            error_percent: trimmed(s.error_share * 100.0, 1),
        }
    }
}

impl SimForm {
    /// The settings the form describes, or what is not a number (the engine
    /// judges the values).
    pub fn settings(&self) -> Result<SimSettings, String> {
        Ok(SimSettings {
            jobs: whole(&self.jobs, "Jobs")?,
            interarrivals: numbers(&self.interarrivals, "Mean inter-arrival times")?,
            alpha: number(&self.alpha, "α")?,
            kappa: number(&self.kappa, "κ")?,
            error_share: number(&self.error_percent, "Error σ")? / 100.0,
        })
    }
}

/// The last admission, as the panel reports it.
#[derive(Clone, Debug, PartialEq)]
pub struct Admission {
    /// The job's name in the queue.
    pub name: String,
    /// Its deadline, seconds from now.
    pub deadline: f64,
    /// The price charged.
    pub price: f64,
}

/// The Pricing panel's signals.
#[derive(Clone, Copy)]
pub struct PricingDesk {
    page: Page,
    /// The form as typed.
    pub form: RwSignal<PricingForm>,
    /// The loaded history's jobs (`None` until the worker answered).
    pub history: RwSignal<Option<HistoryView>>,
    /// The quote of the form's job.
    pub quote: Job<QuoteView>,
    /// Milliseconds from the latest quote's ask to its answer on the page.
    pub round_trip: RwSignal<Option<f64>>,
    /// `performance.now()` when the latest quote was asked.
    asked_at: StoredValue<f64>,
    /// The queue (`None` until the worker answered).
    pub queue: RwSignal<Option<QueueView>>,
    /// The engine's last refusal of a change.
    pub error: RwSignal<Option<String>>,
    /// The last admission.
    pub admitted: RwSignal<Option<Admission>>,
    /// A change is with the worker.
    pub busy: RwSignal<bool>,
    /// The simulation's form as typed.
    pub sim_form: RwSignal<SimForm>,
    /// The §6.3 simulation.
    pub sim: Job<SimView>,
    /// The user ran the simulation once: it reruns on every change of its
    /// settings from then on (not before, so opening the panel does not hold
    /// quotes up behind a simulation in the worker).
    pub sim_wanted: RwSignal<bool>,
    /// The form's settings were set from the saved queue once.
    settings_restored: StoredValue<bool>,
    /// The panel is shown: a queue arriving then is quoted again at once.
    /// Hidden (the demo seeded on a first visit, while the studio opens on
    /// the Runway), the quote waits for the panel, which asks on opening,
    /// so the worker plans the panel shown first.
    shown: StoredValue<bool>,
}

impl PricingDesk {
    /// Nothing known yet; the default form.
    pub fn new(page: Page) -> PricingDesk {
        PricingDesk {
            page,
            form: RwSignal::new(PricingForm::default()),
            history: RwSignal::new(None),
            quote: Job::new(page),
            round_trip: RwSignal::new(None),
            asked_at: StoredValue::new(0.0),
            queue: RwSignal::new(None),
            error: RwSignal::new(None),
            admitted: RwSignal::new(None),
            busy: RwSignal::new(false),
            sim_form: RwSignal::new(SimForm::default()),
            sim: Job::new(page),
            sim_wanted: RwSignal::new(false),
            settings_restored: StoredValue::new(false),
            shown: StoredValue::new(false),
        }
    }
}

impl PricingDesk {
    fn pricing_send(self, request: PricingRequest) {
        self.page.send(request);
    }

    /// The panel is shown (`true`) or hidden (`false`): a queue arriving
    /// while it is hidden is not quoted.
    pub fn show(self, shown: bool) {
        self.shown.set_value(shown);
    }

    /// The Pricing panel was opened or the workspace changed: ask for the
    /// history and the queue.
    pub fn open_pricing(self) {
        self.pricing_send(PricingRequest::State);
    }

    /// Asks for a quote of the form's job (or says what in the form is not
    /// a number).
    pub fn request_quote(self) {
        let desk = self;
        let form = desk.form.get_untracked();
        let asked = form
            .request()
            .and_then(|(job, settings)| Ok((job, settings, form.deadline()?)));
        let Some((ticket, (job, settings, deadline))) = desk.quote.start_with(asked) else {
            return;
        };
        desk.asked_at.set_value(now_ms());
        self.pricing_send(PricingRequest::Quote {
            ticket,
            job,
            settings,
            deadline,
        });
    }

    /// Admits the form's job with its chosen deadline.
    pub fn admit_priced(self) {
        let desk = self;
        let form = desk.form.get_untracked();
        let asked = form
            .request()
            .and_then(|(job, settings)| Ok((job, settings, form.deadline()?)));
        match asked {
            Ok((job, settings, Some(deadline))) => {
                desk.error.set(None);
                desk.busy.set(true);
                self.pricing_send(PricingRequest::Admit {
                    job,
                    settings,
                    deadline,
                });
            }
            Ok((.., None)) => desk.error.set(Some(
                "Choose a deadline: click the curve or type it.".into(),
            )),
            Err(message) => desk.error.set(Some(message)),
        }
    }

    /// Sends a change to the queue (remove, clear).
    pub fn pricing_change(self, request: PricingRequest) {
        self.error.set(None);
        self.busy.set(true);
        self.pricing_send(request);
    }

    /// Runs the simulation with the form's settings (or says what in the
    /// form is not a number).
    pub fn request_simulation(self) {
        let desk = self;
        let asked = desk.sim_form.with_untracked(SimForm::settings);
        let Some((ticket, settings)) = desk.sim.start_with(asked) else {
            return;
        };
        desk.sim_wanted.set(true);
        self.pricing_send(PricingRequest::Simulate { ticket, settings });
    }

    /// Reads a queue CSV chosen by the user and sends it to the worker,
    /// which adds its jobs to the queue (or refuses it).
    pub fn import_queue(self, file: web_sys::File) {
        let desk = self;
        let settings = match desk.form.with_untracked(PricingForm::request) {
            Ok((_, settings)) => settings,
            Err(message) => {
                desk.error.set(Some(message));
                return;
            }
        };
        desk.error.set(None);
        desk.busy.set(true);
        read_text(file, move |read| match read {
            Ok((name, text)) => self.pricing_send(PricingRequest::ImportQueue {
                settings,
                name,
                text,
            }),
            Err(message) => {
                desk.busy.set(false);
                desk.error.set(Some(message));
            }
        });
    }

    /// Asks for the queue as CSV; downloaded when it arrives.
    pub fn export_queue(self) {
        self.pricing_send(PricingRequest::Export);
    }

    /// Takes in one Pricing response.
    pub fn apply(self, response: PricingResponse) {
        let desk = self;
        match response {
            PricingResponse::History(view) => desk.history.set(Some(view)),
            PricingResponse::Quote(view) => {
                if desk.quote.is_current(view.ticket) {
                    desk.round_trip
                        .set(Some(now_ms() - desk.asked_at.get_value()));
                    desk.quote.done(view.ticket, *view);
                }
            }
            PricingResponse::Failed(failure) => {
                if !desk.quote.failed(&failure) {
                    desk.sim.failed(&failure);
                }
            }
            PricingResponse::Queue(view) => {
                desk.busy.set(false);
                if !desk.settings_restored.get_value() {
                    desk.settings_restored.set_value(true);
                    if let Some(s) = &view.settings {
                        desk.form.update(|f| f.take_settings(s));
                    }
                }
                desk.queue.set(Some(*view));
                // The curve depends on the queue: quote again (a hidden
                // panel quotes when it opens).
                if desk.shown.get_value() {
                    self.request_quote();
                }
            }
            PricingResponse::Admitted {
                name,
                deadline,
                price,
            } => {
                desk.form.update(|f| f.deadline.clear());
                desk.admitted.set(Some(Admission {
                    name,
                    deadline,
                    price,
                }));
            }
            PricingResponse::Refused { message } => {
                desk.busy.set(false);
                desk.error.set(Some(message));
            }
            PricingResponse::Simulated(view) => {
                desk.sim.done(view.ticket, *view);
            }
            PricingResponse::Exported { text } => {
                if let Err(e) = save_text("skyplan-queue.csv", "text/csv", &text) {
                    self.page
                        .notify(format!("The queue could not be downloaded: {e}"));
                }
            }
        }
    }
}
