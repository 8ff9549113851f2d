//! The Harvest panel's state: the settings as typed, the tenants file in
//! use, the last classification, the tenant shown with its spectrum, the
//! class-selection explorer and the simulation. Work is ticketed: answers
//! to anything but the latest request of a kind are dropped.

use super::protocol::{
    HarvestRequest, HarvestResponse, HarvestSettings, HarvestView, JobSource, JobSpec,
    SelectionView, SimSettings, SimView, SpectrumView,
};
use super::storage_desk::StorageDesk;
use crate::page::Page;
use crate::protocol::Request;
use leptos::prelude::*;
use skyplan_engine::harvest::Scaling;

/// The classification form as typed.
#[derive(Clone, Debug, PartialEq)]
pub struct ClassifyForm {
    /// The file of series (empty: automatic).
    pub file: String,
    /// k per pattern (empty: the elbow rule).
    pub k: [String; 3],
    /// Peak percentile.
    pub peak: String,
    /// Capacity's low percentile.
    pub low: String,
}

impl Default for ClassifyForm {
    fn default() -> Self {
        let s = HarvestSettings::default();
        ClassifyForm {
            file: String::new(),
            k: Default::default(),
            peak: s.peak_percentile.to_string(),
            low: s.capacity_percentile.to_string(),
        }
    }
}

/// A number typed in a form, or what is wrong with it.
fn number(text: &str, what: &str) -> Result<f64, String> {
    text.trim()
        .parse::<f64>()
        .ok()
        .filter(|v| v.is_finite())
        .ok_or_else(|| format!("{what}: a number, please"))
}

/// A whole number typed in a form, or what is wrong with it.
fn whole<T: std::str::FromStr>(text: &str, what: &str) -> Result<T, String> {
    text.trim()
        .parse::<T>()
        .map_err(|_| format!("{what}: a whole number, please"))
}

impl ClassifyForm {
    /// The settings (the engine checks the ranges).
    pub fn settings(&self) -> Result<HarvestSettings, String> {
        let mut k = [None; 3];
        for (slot, (text, what)) in
            k.iter_mut().zip(
                self.k
                    .iter()
                    .zip(["k periodic", "k constant", "k unpredictable"]),
            )
        {
            if !text.trim().is_empty() {
                *slot = Some(whole(text, what)?);
            }
        }
        Ok(HarvestSettings {
            file: Some(self.file.clone()).filter(|f| !f.is_empty()),
            k,
            peak_percentile: number(&self.peak, "Peak percentile")?,
            capacity_percentile: number(&self.low, "Low percentile")?,
        })
    }
}

/// The selection explorer's form as typed.
#[derive(Clone, Debug, PartialEq)]
pub struct SelectForm {
    /// A history job's name (empty: described).
    pub history_job: String,
    /// Last run, seconds (empty: a new job).
    pub last_run: String,
    /// Concurrent containers.
    pub containers: String,
    /// Hour of day.
    pub hour: String,
    /// Seed.
    pub seed: String,
}

impl Default for SelectForm {
    fn default() -> Self {
        SelectForm {
            history_job: String::new(),
            last_run: "300".into(),
            containers: "40".into(),
            hour: "14".into(),
            seed: "7".into(),
        }
    }
}

impl SelectForm {
    /// The job (the engine checks the ranges).
    pub fn job(&self) -> Result<JobSpec, String> {
        Ok(JobSpec {
            history_job: Some(self.history_job.clone()).filter(|j| !j.is_empty()),
            last_run_secs: if self.last_run.trim().is_empty() {
                None
            } else {
                Some(number(&self.last_run, "Last run")?)
            },
            containers: whole(&self.containers, "Containers")?,
            hour: whole(&self.hour, "Hour of day")?,
            seed: whole(&self.seed, "Seed")?,
        })
    }
}

/// The simulation form as typed.
#[derive(Clone, Debug, PartialEq)]
pub struct SimForm {
    /// Days.
    pub days: String,
    /// Levels, comma-separated percentages.
    pub levels: String,
    /// The root n (empty: linear scaling).
    pub root: String,
    /// Runs per level.
    pub runs: String,
    /// Seed.
    pub seed: String,
    /// Job source.
    pub source: JobSource,
}

impl Default for SimForm {
    fn default() -> Self {
        let s = SimSettings::default();
        SimForm {
            days: s.days.to_string(),
            levels: s
                .levels
                .iter()
                .map(|l| l.to_string())
                .collect::<Vec<_>>()
                .join(", "),
            root: String::new(),
            runs: s.runs.to_string(),
            seed: s.seed.to_string(),
            source: s.source,
        }
    }
}

impl SimForm {
    /// The settings (the engine checks the ranges).
    pub fn settings(&self) -> Result<SimSettings, String> {
        let levels = self
            .levels
            .split(',')
            .filter(|l| !l.trim().is_empty())
            .map(|l| number(l, "Levels"))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(SimSettings {
            days: number(&self.days, "Days")?,
            levels,
            scaling: if self.root.trim().is_empty() {
                Scaling::Linear
            } else {
                Scaling::Root {
                    n: number(&self.root, "Root n")?,
                }
            },
            runs: whole(&self.runs, "Runs")?,
            seed: whole(&self.seed, "Seed")?,
            source: self.source,
        })
    }
}

/// How the tenants table is sorted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SortBy {
    /// Tenant name.
    Name,
    /// Pattern.
    Pattern,
    /// Class.
    Class,
    /// Mean utilization.
    Average,
    /// Peak utilization.
    Peak,
    /// Servers.
    Servers,
}

/// The Harvest panel's signals.
#[derive(Clone, Copy)]
pub struct HarvestDesk {
    page: Page,
    /// Classification settings as typed.
    pub form: RwSignal<ClassifyForm>,
    /// The tenants file in use and its tenant count.
    pub tenants_file: RwSignal<Option<(String, usize)>>,
    /// The last classification.
    pub view: RwSignal<Option<HarvestView>>,
    /// A classification is in flight.
    pub classifying: RwSignal<bool>,
    /// The classification's (or the tenants file's) last refusal.
    pub error: RwSignal<Option<String>>,
    /// The tenant shown.
    pub tenant: RwSignal<Option<String>>,
    /// Its spectrum.
    pub spectrum: RwSignal<Option<SpectrumView>>,
    /// Table sort (column, ascending).
    pub sort: RwSignal<(SortBy, bool)>,
    /// Table filter (name, pattern or class contains).
    pub filter: RwSignal<String>,
    /// The heat map shows the low percentile (else the mean).
    pub show_low: RwSignal<bool>,
    /// The selection explorer's form.
    pub select_form: RwSignal<SelectForm>,
    /// Its last answer.
    pub selection: RwSignal<Option<SelectionView>>,
    /// Its last refusal.
    pub select_error: RwSignal<Option<String>>,
    /// The simulation's form.
    pub sim_form: RwSignal<SimForm>,
    /// Its last results.
    pub sim: RwSignal<Option<SimView>>,
    /// A simulation is in flight.
    pub simulating: RwSignal<bool>,
    /// Its runs done and in all.
    pub sim_progress: RwSignal<(usize, usize)>,
    /// Its last refusal.
    pub sim_error: RwSignal<Option<String>>,
    /// The storage view.
    pub storage: StorageDesk,
    ticket: StoredValue<u32>,
    sim_ticket: StoredValue<u32>,
}

impl HarvestDesk {
    /// Nothing classified yet.
    pub fn new(page: Page) -> HarvestDesk {
        HarvestDesk {
            page,
            form: RwSignal::new(ClassifyForm::default()),
            tenants_file: RwSignal::new(None),
            view: RwSignal::new(None),
            classifying: RwSignal::new(false),
            error: RwSignal::new(None),
            tenant: RwSignal::new(None),
            spectrum: RwSignal::new(None),
            sort: RwSignal::new((SortBy::Servers, false)),
            filter: RwSignal::new(String::new()),
            show_low: RwSignal::new(true),
            select_form: RwSignal::new(SelectForm::default()),
            selection: RwSignal::new(None),
            select_error: RwSignal::new(None),
            sim_form: RwSignal::new(SimForm::default()),
            sim: RwSignal::new(None),
            simulating: RwSignal::new(false),
            sim_progress: RwSignal::new((0, 0)),
            sim_error: RwSignal::new(None),
            storage: StorageDesk::new(page),
            ticket: StoredValue::new(0),
            sim_ticket: StoredValue::new(0),
        }
    }

    fn send(self, request: HarvestRequest) {
        self.page.send(Request::Harvest(request));
    }

    /// Classifies the tenants with the form's settings.
    pub fn classify(self) {
        let settings = match self.form.with_untracked(ClassifyForm::settings) {
            Ok(s) => s,
            Err(e) => {
                self.error.set(Some(e));
                return;
            }
        };
        self.ticket.update_value(|t| *t = t.wrapping_add(1));
        self.error.set(None);
        self.classifying.set(true);
        self.send(HarvestRequest::Classify {
            ticket: self.ticket.get_value(),
            settings,
        });
    }

    /// Reads a tenants CSV chosen by the user and sends it to the worker.
    pub fn import_tenants(self, file: web_sys::File) {
        let name = file.name();
        self.error.set(None);
        leptos::task::spawn_local(async move {
            match wasm_bindgen_futures::JsFuture::from(file.text()).await {
                Ok(text) => self.send(HarvestRequest::ImportTenants {
                    name,
                    text: text.as_string().unwrap_or_default(),
                }),
                Err(e) => self.error.set(Some(format!(
                    "{name} could not be read: {}",
                    crate::protocol::js_error_text(&e)
                ))),
            }
        });
    }

    /// Stops using the tenants file.
    pub fn forget_tenants(self) {
        self.send(HarvestRequest::ForgetTenants);
    }

    /// Shows tenant `name` and its spectrum.
    pub fn pick_tenant(self, name: String) {
        self.tenant.set(Some(name.clone()));
        self.send(HarvestRequest::Spectrum {
            ticket: self.ticket.get_value(),
            tenant: name,
        });
    }

    /// Runs Algorithm 1 for the explorer's job.
    pub fn select_job(self) {
        match self.select_form.with_untracked(SelectForm::job) {
            Ok(job) => {
                self.select_error.set(None);
                self.send(HarvestRequest::Select {
                    ticket: self.ticket.get_value(),
                    job,
                });
            }
            Err(e) => self.select_error.set(Some(e)),
        }
    }

    /// Runs the simulation with the form's settings.
    pub fn simulate(self) {
        let settings = match self.sim_form.with_untracked(SimForm::settings) {
            Ok(s) => s,
            Err(e) => {
                self.sim_error.set(Some(e));
                return;
            }
        };
        self.sim_ticket.update_value(|t| *t = t.wrapping_add(1));
        self.sim_error.set(None);
        self.simulating.set(true);
        self.sim_progress.set((0, 0));
        self.send(HarvestRequest::Simulate {
            ticket: self.sim_ticket.get_value(),
            settings,
        });
    }

    /// Takes in one answer of the worker.
    pub fn apply(self, response: HarvestResponse) {
        let latest = self.ticket.get_value();
        let sim_latest = self.sim_ticket.get_value();
        match response {
            HarvestResponse::TenantsFile { name, tenants } => {
                self.tenants_file.set(name.map(|n| (n, tenants)));
            }
            HarvestResponse::Classified(view) if view.ticket == latest => {
                self.classifying.set(false);
                let keep = self
                    .tenant
                    .get_untracked()
                    .filter(|t| view.tenants.iter().any(|r| &r.name == t));
                let first = keep.or_else(|| {
                    view.tenants
                        .iter()
                        .max_by_key(|r| r.servers)
                        .map(|r| r.name.clone())
                });
                self.view.set(Some(*view));
                self.spectrum.set(None);
                self.selection.set(None);
                if let Some(name) = first {
                    self.pick_tenant(name);
                }
                self.select_job();
                self.storage.refresh();
            }
            HarvestResponse::Spectrum(view) if view.ticket == latest => {
                self.spectrum.set(Some(*view));
            }
            HarvestResponse::Selected(view) if view.ticket == latest => {
                self.selection.set(Some(*view));
            }
            HarvestResponse::SimProgress {
                ticket,
                done,
                total,
            } if ticket == sim_latest => self.sim_progress.set((done, total)),
            HarvestResponse::Simulated(view) if view.ticket == sim_latest => {
                self.simulating.set(false);
                self.sim.set(Some(*view));
            }
            HarvestResponse::Storage(r) => self.storage.apply(*r),
            HarvestResponse::Failed {
                what,
                ticket,
                message,
            } => match what.as_str() {
                "classify" if ticket == latest => {
                    self.classifying.set(false);
                    self.error.set(Some(message));
                }
                "tenants" | "spectrum" => self.error.set(Some(message)),
                "select" if ticket == latest => self.select_error.set(Some(message)),
                "simulate" if ticket == sim_latest => {
                    self.simulating.set(false);
                    self.sim_error.set(Some(message));
                }
                _ => {}
            },
            // Answers to requests superseded since: dropped.
            HarvestResponse::Classified(_)
            | HarvestResponse::Spectrum(_)
            | HarvestResponse::Selected(_)
            | HarvestResponse::SimProgress { .. }
            | HarvestResponse::Simulated(_) => {}
        }
    }
}
