//! The spare-cycle half's state: the settings as typed, the tenants file and
//! the machine tables in use, the last classification, the tenant shown with its spectrum, the
//! class-selection explorer and the simulation. The classification and the
//! simulation are [`Job`]s: answers to anything but the latest run of each
//! are dropped (spectra and selections follow the classification's).

use super::protocol::{
    CyclesRequest, CyclesResponse, HarvestSettings, HarvestView, JobSource, JobSpec, SelectionView,
    SimSettings, SimView, SpectrumView,
};
use crate::page::Page;
use crate::toolkit::files::{read_text, read_texts};
use crate::toolkit::form::{list, number, numbers, optional, whole};
use crate::toolkit::job::Job;
use crate::toolkit::pool::SweepJob;
use leptos::prelude::*;
use skyplan_engine::harvest::{HarvestRegime, Scaling, SimParams};
use skyplan_engine::sweep::SweepSpec;

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
            last_run_secs: optional(&self.last_run, |t| number(t, "Last run"))?,
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
            levels: list(&s.levels),
            root: String::new(),
            runs: s.runs.to_string(),
            seed: s.seed.to_string(),
            source: s.source,
        }
    }
}

impl From<SimSettings> for SimForm {
    /// The form showing `s` (what the panel ran by itself).
    fn from(s: SimSettings) -> SimForm {
        SimForm {
            days: s.days.to_string(),
            levels: list(&s.levels),
            root: match s.scaling {
                Scaling::Linear => String::new(),
                Scaling::Root { n } => n.to_string(),
            },
            runs: s.runs.to_string(),
            seed: s.seed.to_string(),
            source: s.source,
        }
    }
}

impl SimForm {
    /// The settings (the engine checks the ranges).
    pub fn settings(&self) -> Result<SimSettings, String> {
        Ok(SimSettings {
            days: number(&self.days, "Days")?,
            levels: numbers(&self.levels, "Levels")?,
            scaling: match optional(&self.root, |t| number(t, "Root n"))? {
                None => Scaling::Linear,
                Some(n) => Scaling::Root { n },
            },
            runs: whole(&self.runs, "Runs")?,
            seed: whole(&self.seed, "Seed")?,
            source: self.source,
        })
    }
}

/// The "where it pays" sweep's form as typed: the sizes and primary
/// levels to sweep, the days each cell simulates and the scaling; the rest
/// is `skyplan sweep harvest`'s defaults (DC-0, RM-H's default placement,
/// one seed).
#[derive(Clone, Debug, PartialEq)]
pub struct PaysForm {
    /// Servers per datacenter, comma-separated.
    pub servers: String,
    /// Primary levels, comma-separated percentages.
    pub levels: String,
    /// Days each cell simulates.
    pub days: String,
    /// The root n (empty: linear scaling).
    pub root: String,
}

/// The sizes a "where it pays" sweep covers by default: the CLI's
/// smallest three, where a cell (both systems, two days) takes under a
/// second natively — the whole default sweep, 15 cells, about 8 s of one
/// core natively (BENCHMARKS.md, "Where harvesting pays"), so a browser's
/// pool answers in well under a minute. 10,000 and 20,000 servers are
/// typed in, or run by `skyplan sweep harvest`.
pub const DEFAULT_PAYS_SERVERS: &str = "1000,2000,5000";

/// The primary levels by default: the figures' five.
pub const DEFAULT_PAYS_LEVELS: &str = "10,20,30,40,50";

/// Days each cell simulates by default: two, as the panel's own
/// simulation (the CLI's week is 3.5× the work for a curve of the same
/// shape).
pub const DEFAULT_PAYS_DAYS: f64 = 2.0;

impl Default for PaysForm {
    fn default() -> Self {
        PaysForm {
            servers: DEFAULT_PAYS_SERVERS.to_owned(),
            levels: DEFAULT_PAYS_LEVELS.to_owned(),
            days: DEFAULT_PAYS_DAYS.to_string(),
            root: String::new(),
        }
    }
}

impl PaysForm {
    /// The harvest sweep of the typed sizes, levels, days and scaling over
    /// the CLI's grid otherwise; or what is wrong with the form (the
    /// engine's worker checks the ranges when it plans the sweep).
    pub fn sweep(&self) -> Result<SweepSpec, String> {
        let servers = self
            .servers
            .split([',', ';', ' '])
            .filter(|t| !t.trim().is_empty())
            .map(|v| whole(v.trim(), "Servers"))
            .collect::<Result<Vec<usize>, String>>()?;
        let scaling = match optional(&self.root, |t| number(t, "Root n"))? {
            None => Scaling::Linear,
            Some(n) => Scaling::Root { n },
        };
        // Written out as data: the page links no engine function
        // (ARCHITECTURE.md, Web); the defaults are `Default` impls.
        Ok(SweepSpec::Harvest(HarvestRegime {
            base: SimParams {
                days: number(&self.days, "Days")?,
                ..SimParams::default()
            },
            servers,
            levels: numbers(&self.levels, "Levels")?,
            scalings: vec![scaling],
            ..HarvestRegime::default()
        }))
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

/// The spare-cycle half's signals.
#[derive(Clone, Copy)]
pub struct CyclesDesk {
    page: Page,
    /// Classification settings as typed.
    pub form: RwSignal<ClassifyForm>,
    /// The tenants file in use and its tenant count.
    pub tenants_file: RwSignal<Option<(String, usize)>>,
    /// The machine tables in use: their names, machines and tenants.
    pub machines_file: RwSignal<Option<(String, usize, usize)>>,
    /// The classification (its error line also says why a tenants file
    /// was refused).
    pub classify: Job<HarvestView>,
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
    /// The simulation.
    pub sim: Job<SimView>,
    /// "Where it pays": YARN-H's improvement against size and primary
    /// level, on the sweep pool.
    pub pays: SweepJob,
    /// Its form.
    pub pays_form: RwSignal<PaysForm>,
    /// The settings of the classification asked last, with its ticket.
    asked: StoredValue<Option<(u32, HarvestSettings)>>,
    /// The settings of the classification shown: a restarted worker is
    /// asked for it again (the worker keeps it only in memory).
    shown: StoredValue<Option<HarvestSettings>>,
    /// The machine tables last sent on this page, sent again to a
    /// restarted worker (in case it could not save them).
    sent_machines: StoredValue<Option<CyclesRequest>>,
}

impl CyclesDesk {
    /// Nothing classified yet. The desk follows the worker's restarts: the
    /// classification shown is asked of the new worker again.
    pub fn new(page: Page) -> CyclesDesk {
        let desk = CyclesDesk {
            page,
            form: RwSignal::new(ClassifyForm::default()),
            tenants_file: RwSignal::new(None),
            machines_file: RwSignal::new(None),
            classify: Job::new(page),
            tenant: RwSignal::new(None),
            spectrum: RwSignal::new(None),
            sort: RwSignal::new((SortBy::Servers, false)),
            filter: RwSignal::new(String::new()),
            show_low: RwSignal::new(true),
            select_form: RwSignal::new(SelectForm::default()),
            selection: RwSignal::new(None),
            select_error: RwSignal::new(None),
            sim_form: RwSignal::new(SimForm::default()),
            sim: Job::new(page),
            pays: SweepJob::new(page),
            pays_form: RwSignal::new(PaysForm::default()),
            asked: StoredValue::new(None),
            shown: StoredValue::new(None),
            sent_machines: StoredValue::new(None),
        };
        page.on_restart(move || desk.restarted());
        desk
    }

    /// A fresh worker is starting: it knows no classification, so the one
    /// shown is asked again under the job's current ticket (the
    /// simulation, the explorer and the storage half need it); the same
    /// settings give the same classes, and a cancelled run's line stays.
    fn restarted(self) {
        if let Some(request) = self.sent_machines.try_get_value().flatten() {
            self.send(request);
        }
        let Some(settings) = self.shown.try_get_value().flatten() else {
            return;
        };
        let ticket = self.classify.ticket();
        self.asked.set_value(Some((ticket, settings.clone())));
        self.send(CyclesRequest::Classify { ticket, settings });
    }

    fn send(self, request: CyclesRequest) {
        self.page.send(request);
    }

    /// Classifies the tenants with the form's settings.
    pub fn classify(self) {
        let asked = self.form.with_untracked(ClassifyForm::settings);
        if let Some((ticket, settings)) = self.classify.start_with(asked) {
            self.asked.set_value(Some((ticket, settings.clone())));
            self.send(CyclesRequest::Classify { ticket, settings });
        }
    }

    /// Reads a tenants CSV chosen by the user and sends it to the worker.
    pub fn import_tenants(self, file: web_sys::File) {
        self.classify.error.set(None);
        read_text(file, move |read| match read {
            Ok((name, text)) => self.send(CyclesRequest::ImportTenants { name, text }),
            Err(message) => self.classify.error.set(Some(message)),
        });
    }

    /// Reads the Alibaba machine tables chosen (both, or one replacing its
    /// kind) and sends them to the worker; once it takes them, they are
    /// classified.
    pub fn import_machines(self, files: Vec<web_sys::File>) {
        self.classify.error.set(None);
        read_texts(files, move |read| match read {
            Ok(files) => {
                let request = CyclesRequest::ImportMachines { files };
                self.sent_machines.set_value(Some(request.clone()));
                self.send(request);
            }
            Err(message) => self.classify.error.set(Some(message)),
        });
    }

    /// Stops using the machine tables (then classifies the workspace's
    /// series again).
    pub fn forget_machines(self) {
        self.sent_machines.set_value(None);
        self.send(CyclesRequest::ForgetMachines);
    }

    /// Stops using the tenants file.
    pub fn forget_tenants(self) {
        self.send(CyclesRequest::ForgetTenants);
    }

    /// Shows tenant `name` and its spectrum.
    pub fn pick_tenant(self, name: String) {
        self.tenant.set(Some(name.clone()));
        self.send(CyclesRequest::Spectrum {
            ticket: self.classify.ticket(),
            tenant: name,
        });
    }

    /// Runs Algorithm 1 for the explorer's job.
    pub fn select_job(self) {
        match self.select_form.with_untracked(SelectForm::job) {
            Ok(job) => {
                self.select_error.set(None);
                self.send(CyclesRequest::Select {
                    ticket: self.classify.ticket(),
                    job,
                });
            }
            Err(e) => self.select_error.set(Some(e)),
        }
    }

    /// What the panel does by itself once tenants are classified: YARN-PT
    /// against YARN-H at their current utilization
    /// ([`SimSettings::current`], shown in the form), unless a simulation
    /// is shown, running or refused.
    pub fn simulate_on_open(self, level: f64) {
        let idle = self.sim.view.with_untracked(Option::is_none)
            && !self.sim.running.get_untracked()
            && self.sim.error.with_untracked(Option::is_none);
        if idle {
            self.sim_form
                .set(SimForm::from(SimSettings::current(level)));
            self.simulate();
        }
    }

    /// Runs the simulation with the form's settings.
    pub fn simulate(self) {
        let asked = self.sim_form.with_untracked(SimForm::settings);
        if let Some((ticket, settings)) = self.sim.start_with(asked) {
            self.send(CyclesRequest::Simulate { ticket, settings });
        }
    }

    /// Runs "where it pays" on the sweep pool with the form's grid. Each
    /// cell generates its datacenter, so the sweep needs neither the
    /// loaded tenants nor the engine worker.
    pub fn run_pays(self) {
        match self.pays_form.with_untracked(PaysForm::sweep) {
            Ok(spec) => self.pays.start(spec),
            Err(message) => self.pays.job.refuse(message),
        }
    }

    /// Takes in one answer of the worker; `true` when it is a new
    /// classification (which the storage half follows).
    pub fn apply(self, response: CyclesResponse) -> bool {
        match response {
            CyclesResponse::TenantsFile { name, tenants } => {
                self.tenants_file.set(name.map(|n| (n, tenants)));
            }
            CyclesResponse::MachinesFile {
                name,
                machines,
                tenants,
            } => {
                let now = name.map(|n| (n, machines, tenants));
                let changed = self.machines_file.with_untracked(|m| m != &now);
                self.machines_file.set(now);
                if changed {
                    self.classify();
                }
            }
            CyclesResponse::Classified(view) => {
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
                let ticket = view.ticket;
                if !self.classify.done(ticket, *view) {
                    return false;
                }
                if let Some((asked, settings)) = self.asked.get_value() {
                    if asked == ticket {
                        self.shown.set_value(Some(settings));
                    }
                }
                self.spectrum.set(None);
                self.selection.set(None);
                if let Some(name) = first {
                    self.pick_tenant(name);
                }
                self.select_job();
                return true;
            }
            CyclesResponse::Spectrum(view) => {
                if self.classify.is_current(view.ticket) {
                    self.spectrum.set(Some(*view));
                }
            }
            CyclesResponse::Selected(view) => {
                if self.classify.is_current(view.ticket) {
                    self.selection.set(Some(*view));
                }
            }
            CyclesResponse::Progress(p) => {
                self.sim.progressed(&p);
            }
            CyclesResponse::Simulated(view) => {
                self.sim.done(view.ticket, *view);
            }
            CyclesResponse::FileRefused { message } => self.classify.error.set(Some(message)),
            CyclesResponse::Failed(failure) => {
                if !self.classify.failed(&failure) {
                    self.sim.failed(&failure);
                }
            }
            CyclesResponse::SelectFailed(failure) => {
                if self.classify.is_current(failure.ticket) {
                    self.select_error.set(Some(failure.message));
                }
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_sweep_is_the_clis_grid_at_the_browsers_sizes() {
        let SweepSpec::Harvest(h) = PaysForm::default().sweep().expect("the default form") else {
            panic!("not a harvest sweep");
        };
        assert_eq!(h.servers, vec![1_000, 2_000, 5_000]);
        assert_eq!(h.levels, vec![10.0, 20.0, 30.0, 40.0, 50.0]);
        assert_eq!(h.scalings, vec![Scaling::Linear]);
        assert_eq!(h.base.days, 2.0);
        // Everything the form does not set is `skyplan sweep harvest`'s.
        let cli = HarvestRegime::default();
        assert_eq!(
            (h.datacenters, h.placements, h.seeds, h.templates, h.step_secs),
            (cli.datacenters, cli.placements, cli.seeds, cli.templates, cli.step_secs)
        );
        let spec = PaysForm::default().sweep().expect("the default form");
        spec.validate().expect("the engine takes the default sweep");
        assert_eq!(spec.cells(), 15);
    }

    #[test]
    fn a_root_is_read_and_a_bad_field_is_named() {
        let form = PaysForm {
            servers: "300; 600".into(),
            root: "2".into(),
            ..PaysForm::default()
        };
        let SweepSpec::Harvest(h) = form.sweep().expect("a valid form") else {
            panic!("not a harvest sweep");
        };
        assert_eq!(h.servers, vec![300, 600]);
        assert_eq!(h.scalings, vec![Scaling::Root { n: 2.0 }]);
        let bad = PaysForm {
            servers: "1000,lots".into(),
            ..PaysForm::default()
        };
        assert!(bad.sweep().unwrap_err().starts_with("Servers"));
        let bad = PaysForm {
            days: "".into(),
            ..PaysForm::default()
        };
        assert!(bad.sweep().unwrap_err().starts_with("Days"));
    }
}
