//! The Shaping panel's state: the settings as typed, the workload read from
//! files, the last run with the timelines shown, Figure 2's comparison and
//! the last grid — three [`Job`]s: answers to anything but the latest run
//! of each are dropped, and a refused one leaves the last results in place.
//! The worker saves the files and the latest run; the panel's first
//! request of a page ([`ShapingDesk::open`]) gets them back, settings
//! included.

use super::protocol::{
    GridView, ShapingRequest, ShapingResponse, ShapingSettings, ShapingView, Stage, TimelinesView,
    WorkloadFile, WorkloadSource, DEFAULT_GRID_APPS,
};
use crate::page::Page;
use crate::toolkit::files::read_texts;
use crate::toolkit::form::{at_least, number, whole};
use crate::toolkit::job::Job;
use crate::toolkit::pool::SweepJob;
use crate::widgets::download::save_text;
use leptos::prelude::*;
use skyplan_engine::shaping::{
    Config, LoadSweep, Policy, PolicyComparison, Predictor, WorkloadSummary,
};
use skyplan_engine::sweep::SweepSpec;

/// The settings form as typed.
#[derive(Clone, Debug, PartialEq)]
pub struct ShapingForm {
    /// Where the workload comes from.
    pub source: WorkloadSource,
    /// Generated applications.
    pub apps: String,
    /// The generator's seed.
    pub seed: String,
    /// Requested CPU over capacity.
    pub load: String,
    /// Hosts.
    pub hosts: String,
    /// Cores per host.
    pub host_cpu: String,
    /// GB per host.
    pub host_mem: String,
    /// The forecaster.
    pub predictor: Predictor,
    /// The shaped run's policy.
    pub policy: Policy,
    /// K1, % of the request.
    pub k1: String,
    /// K2, multiples of the forecast's standard deviation.
    pub k2: String,
    /// Grace period, minutes.
    pub grace: String,
    /// Applications of the grid's workload.
    pub grid_apps: String,
    /// The recommendation's failure target, %.
    pub target: String,
}

impl Default for ShapingForm {
    fn default() -> Self {
        ShapingForm::of(
            &ShapingSettings::default(),
            DEFAULT_GRID_APPS.to_string(),
            "1".into(),
        )
    }
}

impl ShapingForm {
    /// The form showing a run's `settings`, with the grid's fields.
    fn of(s: &ShapingSettings, grid_apps: String, target: String) -> ShapingForm {
        let p = &s.params;
        ShapingForm {
            source: s.source,
            apps: p.workload.apps.to_string(),
            seed: p.workload.seed.to_string(),
            load: p.workload.load.to_string(),
            hosts: p.hosts.to_string(),
            host_cpu: p.host_cpu.to_string(),
            host_mem: p.host_mem.to_string(),
            predictor: p.predictor,
            policy: p.policy,
            // K1 as typed: 0.07 × 100 is 7.000000000000001 in binary.
            k1: ((p.k1 * 100.0 * 1e9).round() / 1e9).to_string(),
            k2: p.k2.to_string(),
            grace: p.grace_minutes.to_string(),
            grid_apps,
            target,
        }
    }

    /// Shows a run's `settings` (a restored run's); the grid's fields stay.
    pub fn take_settings(&mut self, settings: &ShapingSettings) {
        let grid = (
            std::mem::take(&mut self.grid_apps),
            std::mem::take(&mut self.target),
        );
        *self = ShapingForm::of(settings, grid.0, grid.1);
    }

    /// The run's settings, or what is wrong with the form (the engine
    /// checks the remaining ranges and says which setting it refuses).
    pub fn settings(&self) -> Result<ShapingSettings, String> {
        let mut s = ShapingSettings {
            source: self.source,
            ..ShapingSettings::default()
        };
        let p = &mut s.params;
        p.workload.apps = whole(&self.apps, "Applications")?;
        p.workload.seed = whole(&self.seed, "Seed")?;
        p.workload.load = number(&self.load, "Load")?;
        p.hosts = whole(&self.hosts, "Hosts")?;
        p.host_cpu = number(&self.host_cpu, "Cores per host")?;
        p.host_mem = number(&self.host_mem, "GB per host")?;
        p.predictor = self.predictor;
        p.policy = self.policy;
        let k1 = "K1 (% of the request)";
        p.k1 = at_least(number(&self.k1, k1)?, 0.0, k1)? / 100.0;
        p.k2 = at_least(number(&self.k2, "K2 (× σ)")?, 0.0, "K2 (× σ)")?;
        p.grace_minutes = whole(&self.grace, "Grace (minutes)")?;
        Ok(s)
    }

    /// The grid's application count and failure target.
    pub fn grid(&self) -> Result<(usize, f64), String> {
        let apps = whole(&self.grid_apps, "Grid applications")?;
        let what = "Target failures %";
        let target = at_least(number(&self.target, what)?, 0.0, what)?;
        Ok((apps, target))
    }
}

/// The "where it pays" sweep's form as typed: the offered loads to sweep
/// and the workload's size; the rest is the run's settings.
#[derive(Clone, Debug, PartialEq)]
pub struct PaysForm {
    /// Offered loads, comma-separated.
    pub loads: String,
    /// Applications of each cell's generated workload.
    pub apps: String,
}

/// The loads a "where it pays" sweep covers by default: well below to well
/// above saturation (the reference simulator's 1.3 among them).
pub const DEFAULT_PAYS_LOADS: &str = "0.5,0.8,1.1,1.3,1.6,2";

/// Applications of each cell by default: a cell runs in about a second in
/// a browser worker, so the default sweep answers in seconds.
pub const DEFAULT_PAYS_APPS: usize = 200;

impl Default for PaysForm {
    fn default() -> Self {
        PaysForm {
            loads: DEFAULT_PAYS_LOADS.to_owned(),
            apps: DEFAULT_PAYS_APPS.to_string(),
        }
    }
}

impl PaysForm {
    /// The sweep of `settings` over the typed loads: the oracle under both
    /// policies (what a perfect forecaster can reach) and the run's own
    /// forecaster configuration, each at every load; or what is wrong with
    /// the form.
    pub fn sweep(&self, settings: &ShapingSettings) -> Result<SweepSpec, String> {
        let mut base = settings.params.clone();
        base.workload.apps = whole(&self.apps, "Sweep applications")?;
        let loads = self
            .loads
            .split(',')
            .map(|v| number(v.trim(), "Offered loads"))
            .collect::<Result<Vec<f64>, String>>()?;
        // Written out as data, not through the engine's constructors: the
        // page links no engine function (ARCHITECTURE.md, Web).
        let own = Config {
            predictor: base.predictor,
            policy: base.policy,
            k1: base.k1,
            k2: base.k2,
        };
        let mut configs = vec![
            Config {
                predictor: Predictor::Oracle,
                policy: Policy::Pessimistic,
                ..own
            },
            Config {
                predictor: Predictor::Oracle,
                policy: Policy::Optimistic,
                ..own
            },
        ];
        if !configs.contains(&own) {
            configs.push(own);
        }
        Ok(SweepSpec::Shaping(LoadSweep {
            arrivals: vec![base.workload.arrivals],
            seeds: vec![base.workload.seed],
            configs,
            loads,
            base,
        }))
    }
}

/// Which resource the timelines show.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shown {
    /// Memory (GB): where a shortage kills.
    Mem,
    /// CPU (cores): throttled, never killed.
    Cpu,
}

/// The Shaping panel's signals.
#[derive(Clone, Copy)]
pub struct ShapingDesk {
    page: Page,
    /// The settings as typed.
    pub form: RwSignal<ShapingForm>,
    /// The workload read from files: its name and numbers.
    pub loaded: RwSignal<Option<(String, WorkloadSummary)>>,
    /// Why the last files were refused.
    pub read_error: RwSignal<Option<String>>,
    /// The baseline and the shaped run.
    pub run: Job<ShapingView>,
    /// What the run out is doing.
    pub stage: RwSignal<Stage>,
    /// The timelines shown.
    pub timelines: RwSignal<Option<TimelinesView>>,
    /// The application picked for the timelines.
    pub app: RwSignal<Option<usize>>,
    /// The host picked.
    pub host: RwSignal<usize>,
    /// The resource the timelines show.
    pub shown: RwSignal<Shown>,
    /// Figure 2 for the last run: the comparison's ticket, the three
    /// policies and the worker time.
    pub compare: Job<(u32, PolicyComparison, f64)>,
    /// The K1 × K2 grid.
    pub grid: Job<GridView>,
    /// "Where it pays": the speed-up against offered load, on the pool.
    pub pays: SweepJob,
    /// Its form.
    pub pays_form: RwSignal<PaysForm>,
    /// The last files sent to the worker on this page, kept to send again
    /// to a worker restarted by Cancel (in case the worker could not save
    /// them).
    sent_files: StoredValue<Option<ShapingRequest>>,
}

impl ShapingDesk {
    /// The panel's defaults; nothing run.
    pub fn new(page: Page) -> ShapingDesk {
        let desk = ShapingDesk {
            page,
            form: RwSignal::new(ShapingForm::default()),
            loaded: RwSignal::new(None),
            read_error: RwSignal::new(None),
            run: Job::new(page),
            stage: RwSignal::new(Stage::Forecast),
            timelines: RwSignal::new(None),
            app: RwSignal::new(None),
            host: RwSignal::new(0),
            shown: RwSignal::new(Shown::Mem),
            compare: Job::new(page),
            grid: Job::new(page),
            pays: SweepJob::new(page),
            pays_form: RwSignal::new(PaysForm::default()),
            sent_files: StoredValue::new(None),
        };
        page.on_restart(move || desk.restarted());
        desk
    }

    /// Runs "where it pays" on the sweep pool: the run's settings (the
    /// form's) over the typed loads. The workload is generated in every
    /// cell, so a sweep needs no files.
    pub fn run_pays(self) {
        let asked = self
            .form
            .with_untracked(ShapingForm::settings)
            .and_then(|settings| self.pays_form.with_untracked(|f| f.sweep(&settings)));
        match asked {
            Ok(spec) => self.pays.start(spec),
            Err(message) => self.pays.job.refuse(message),
        }
    }

    /// A fresh worker is starting: it reads the files saved back, but the
    /// files read on this page are sent again too (saving them may have
    /// failed: quota, no IndexedDB). The last run, its timelines and the
    /// grid are not redone: their follow-ups are answered with a line
    /// asking for a new run.
    fn restarted(self) {
        if let Some(request) = self.sent_files.get_value() {
            self.send(request);
        }
    }

    fn send(self, request: ShapingRequest) {
        self.page.send(request);
    }

    /// Reads the chosen files and sends them to the worker.
    pub fn read_files(self, files: Vec<web_sys::File>) {
        let params = self
            .form
            .with_untracked(ShapingForm::settings)
            .map(|s| s.params)
            .unwrap_or_default();
        self.read_error.set(None);
        read_texts(files, move |read| match read {
            Ok(read) => {
                let request = ShapingRequest::ReadWorkload {
                    files: read
                        .into_iter()
                        .map(|(name, text)| WorkloadFile { name, text })
                        .collect(),
                    params,
                };
                self.sent_files.set_value(Some(request.clone()));
                self.send(request);
            }
            Err(message) => self.read_error.set(Some(message)),
        });
    }

    /// Back to the generator; the files are forgotten.
    pub fn forget_files(self) {
        self.form.update(|f| f.source = WorkloadSource::Generated);
        self.sent_files.set_value(None);
        self.send(ShapingRequest::ForgetWorkload);
    }

    /// The panel opened with nothing shown: the worker shows the latest
    /// run saved (with its settings, back in the form), or runs the form's
    /// settings (the defaults) when none is.
    pub fn open(self) {
        let asked = self.form.with_untracked(ShapingForm::settings);
        if let Some((ticket, settings)) = self.run.start_with(asked) {
            self.stage.set(Stage::Forecast);
            self.send(ShapingRequest::Open { ticket, settings });
        }
    }

    /// Runs the baseline and the shaped run with the form's settings.
    pub fn shape(self) {
        let asked = self.form.with_untracked(ShapingForm::settings);
        if let Some((ticket, settings)) = self.run.start_with(asked) {
            self.stage.set(Stage::Forecast);
            self.send(ShapingRequest::Run { ticket, settings });
        }
    }

    /// Shows application `app`'s timelines (with the host shown).
    pub fn pick_app(self, app: usize) {
        self.app.set(Some(app));
        self.ask_timelines();
    }

    /// Shows host `host`'s timelines (with the application shown).
    pub fn pick_host(self, host: usize) {
        self.host.set(host);
        self.ask_timelines();
    }

    fn ask_timelines(self) {
        let Some(ticket) = self.run.shown() else {
            return;
        };
        let Some(app) = self.app.get_untracked() else {
            return;
        };
        self.send(ShapingRequest::Timelines {
            ticket,
            app,
            host: self.host.get_untracked(),
        });
    }

    /// Figure 2 on the last run.
    pub fn compare(self) {
        let Some(run) = self.run.shown() else {
            return;
        };
        let ticket = self.compare.start();
        self.send(ShapingRequest::Compare { ticket, run });
    }

    /// The K1 × K2 grid with the form's settings.
    pub fn run_grid(self) {
        let asked = self
            .form
            .with_untracked(|f| f.settings().and_then(|s| f.grid().map(|g| (s, g))));
        let Some((ticket, (settings, (apps, target_failed_pct)))) = self.grid.start_with(asked)
        else {
            return;
        };
        self.send(ShapingRequest::Grid {
            ticket,
            settings,
            apps,
            target_failed_pct,
        });
    }

    /// The last grid's recommendation for the form's target.
    pub fn retarget(self) {
        let Some(ticket) = self.grid.shown() else {
            return;
        };
        match self.form.with_untracked(ShapingForm::grid) {
            Ok((_, target_failed_pct)) => {
                self.grid.error.set(None);
                self.send(ShapingRequest::Retarget {
                    ticket,
                    target_failed_pct,
                });
            }
            Err(e) => self.grid.error.set(Some(e)),
        }
    }

    /// Saves the last run's outcomes as CSV.
    pub fn export_run(self) {
        self.send(ShapingRequest::ExportRun);
    }

    /// Saves the last grid as CSV.
    pub fn export_grid(self) {
        self.send(ShapingRequest::ExportGrid);
    }

    /// Takes in a run's results (unless a later run superseded it), with
    /// the application and host its timelines show.
    fn take_run(self, view: ShapingView) {
        let timelines = view.timelines.clone();
        if self.run.done(view.ticket, view) {
            self.compare.forget();
            self.app.set(timelines.as_ref().map(|t| t.timelines.app));
            self.host
                .set(timelines.as_ref().map(|t| t.timelines.host).unwrap_or(0));
            self.timelines.set(timelines);
        }
    }

    /// Takes in one answer of the worker.
    pub fn apply(self, response: ShapingResponse) {
        match response {
            ShapingResponse::Loaded { name, summary } => {
                let loaded = name.zip(summary);
                self.read_error.set(None);
                self.form.update(|f| {
                    f.source = if loaded.is_some() {
                        WorkloadSource::Files
                    } else {
                        WorkloadSource::Generated
                    }
                });
                self.loaded.set(loaded);
            }
            ShapingResponse::ReadFailed { message } => self.read_error.set(Some(message)),
            ShapingResponse::Progress { stage, progress } => {
                if self.run.progressed(&progress) {
                    self.stage.set(stage);
                } else if !self.compare.progressed(&progress) {
                    self.grid.progressed(&progress);
                }
            }
            ShapingResponse::Ready(view) => self.take_run(*view),
            ShapingResponse::Restored { settings, view } => {
                if self.run.is_current(view.ticket) {
                    self.form.update(|f| f.take_settings(&settings));
                    self.take_run(*view);
                }
            }
            ShapingResponse::Settings { ticket, settings } => {
                if self.run.is_current(ticket) {
                    self.form.update(|f| f.take_settings(&settings));
                }
            }
            ShapingResponse::Timelines(t) => {
                if self.run.is_current(t.ticket) {
                    self.timelines.set(Some(*t));
                }
            }
            ShapingResponse::Compared {
                ticket,
                comparison,
                millis,
            } => {
                self.compare.done(ticket, (ticket, comparison, millis));
            }
            ShapingResponse::GridReady(view) => {
                self.grid.done(view.ticket, *view);
            }
            ShapingResponse::Failed(failure) => {
                // A comparison's refusal shows on the run's error line.
                if self.compare.failed(&failure) {
                    self.run.error.set(Some(failure.message));
                } else if !self.run.failed(&failure) {
                    self.grid.failed(&failure);
                }
            }
            ShapingResponse::Csv { name, text } => {
                if let Err(e) = save_text(&name, "text/csv", &text) {
                    self.page.notify(format!("{name} could not be saved: {e}"));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_restored_runs_settings_show_as_typed() {
        let typed = ShapingForm {
            apps: "150".into(),
            k1: "7".into(),
            k2: "2.5".into(),
            load: "1.1".into(),
            policy: Policy::Optimistic,
            ..ShapingForm::default()
        };
        let settings = typed.settings().expect("a valid form");
        let mut shown = ShapingForm {
            grid_apps: "120".into(),
            ..ShapingForm::default()
        };
        shown.take_settings(&settings);
        assert_eq!(
            shown,
            ShapingForm {
                grid_apps: "120".into(),
                ..typed
            },
            "the form shows the settings as typed; the grid's fields stay"
        );
    }
}
