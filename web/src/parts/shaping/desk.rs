//! The Shaping panel's state: the settings as typed, the workload read from
//! files, the last run with the timelines shown, Figure 2's comparison, the
//! last grid and what is in flight. Runs and grids are ticketed: answers to
//! anything but the latest are dropped, and a refused run or grid leaves
//! the last results in place.

use super::protocol::{
    GridView, ShapingRequest, ShapingResponse, ShapingSettings, ShapingView, Stage, TimelinesView,
    WorkloadFile, WorkloadSource, DEFAULT_GRID_APPS,
};
use crate::page::Page;
use crate::protocol::Request;
use crate::widgets::download::save_text;
use leptos::prelude::*;
use skyplan_engine::shaping::{Policy, PolicyComparison, Predictor, WorkloadSummary};

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
        let s = ShapingSettings::default();
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
            k1: (p.k1 * 100.0).to_string(),
            k2: p.k2.to_string(),
            grace: p.grace_minutes.to_string(),
            grid_apps: DEFAULT_GRID_APPS.to_string(),
            target: "1".into(),
        }
    }
}

fn whole<T: std::str::FromStr>(text: &str, what: &str) -> Result<T, String> {
    text.trim()
        .parse::<T>()
        .map_err(|_| format!("{what}: a whole number ≥ 0, please (got {text:?})"))
}

fn number(text: &str, what: &str) -> Result<f64, String> {
    match text.trim().trim_end_matches('%').trim().parse::<f64>() {
        Ok(v) if v.is_finite() => Ok(v),
        _ => Err(format!("{what}: a number, please (got {text:?})")),
    }
}

fn at_least_zero(v: f64, what: &str) -> Result<f64, String> {
    if v >= 0.0 {
        Ok(v)
    } else {
        Err(format!("{what}: must be ≥ 0, got {v}"))
    }
}

impl ShapingForm {
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
        p.k1 = at_least_zero(
            number(&self.k1, "K1 (% of the request)")?,
            "K1 (% of the request)",
        )? / 100.0;
        p.k2 = at_least_zero(number(&self.k2, "K2 (× σ)")?, "K2 (× σ)")?;
        p.grace_minutes = whole(&self.grace, "Grace (minutes)")?;
        Ok(s)
    }

    /// The grid's application count and failure target.
    pub fn grid(&self) -> Result<(usize, f64), String> {
        let apps = whole(&self.grid_apps, "Grid applications")?;
        let target = at_least_zero(
            number(&self.target, "Target failures %")?,
            "Target failures %",
        )?;
        Ok((apps, target))
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
    /// The last run.
    pub view: RwSignal<Option<ShapingView>>,
    /// The timelines shown.
    pub timelines: RwSignal<Option<TimelinesView>>,
    /// The application picked for the timelines.
    pub app: RwSignal<Option<usize>>,
    /// The host picked.
    pub host: RwSignal<usize>,
    /// The resource the timelines show.
    pub shown: RwSignal<Shown>,
    /// A run is in flight.
    pub running: RwSignal<bool>,
    /// What the run in flight is doing: stage, done, in all.
    pub progress: RwSignal<(Stage, usize, usize)>,
    /// The form's or the engine's last refusal of a run.
    pub error: RwSignal<Option<String>>,
    /// Figure 2 for the last run, and its worker time.
    pub comparison: RwSignal<Option<(u32, PolicyComparison, f64)>>,
    /// The comparison is in flight.
    pub comparing: RwSignal<bool>,
    /// The last grid.
    pub grid: RwSignal<Option<GridView>>,
    /// A grid is in flight.
    pub grid_running: RwSignal<bool>,
    /// Runs of the grid done and in all.
    pub grid_progress: RwSignal<(usize, usize)>,
    /// The last refusal of a grid.
    pub grid_error: RwSignal<Option<String>>,
    ticket: StoredValue<u32>,
    grid_ticket: StoredValue<u32>,
}

impl ShapingDesk {
    /// The panel's defaults; nothing run.
    pub fn new(page: Page) -> ShapingDesk {
        ShapingDesk {
            page,
            form: RwSignal::new(ShapingForm::default()),
            loaded: RwSignal::new(None),
            read_error: RwSignal::new(None),
            view: RwSignal::new(None),
            timelines: RwSignal::new(None),
            app: RwSignal::new(None),
            host: RwSignal::new(0),
            shown: RwSignal::new(Shown::Mem),
            running: RwSignal::new(false),
            progress: RwSignal::new((Stage::Forecast, 0, 0)),
            error: RwSignal::new(None),
            comparison: RwSignal::new(None),
            comparing: RwSignal::new(false),
            grid: RwSignal::new(None),
            grid_running: RwSignal::new(false),
            grid_progress: RwSignal::new((0, 0)),
            grid_error: RwSignal::new(None),
            ticket: StoredValue::new(0),
            grid_ticket: StoredValue::new(0),
        }
    }

    fn send(self, request: ShapingRequest) {
        self.page.send(Request::Shaping(request));
    }

    /// Reads the chosen files and sends them to the worker.
    pub fn read_files(self, files: Vec<web_sys::File>) {
        let params = self
            .form
            .with_untracked(ShapingForm::settings)
            .map(|s| s.params)
            .unwrap_or_default();
        self.read_error.set(None);
        leptos::task::spawn_local(async move {
            let mut read = Vec::with_capacity(files.len());
            for file in files {
                let name = file.name();
                match wasm_bindgen_futures::JsFuture::from(file.text()).await {
                    Ok(text) => read.push(WorkloadFile {
                        name,
                        text: text.as_string().unwrap_or_default(),
                    }),
                    Err(e) => {
                        self.read_error.set(Some(format!(
                            "{name} could not be read: {}",
                            crate::protocol::js_error_text(&e)
                        )));
                        return;
                    }
                }
            }
            self.send(ShapingRequest::ReadWorkload {
                files: read,
                params,
            });
        });
    }

    /// Back to the generator; the files are forgotten.
    pub fn forget_files(self) {
        self.form.update(|f| f.source = WorkloadSource::Generated);
        self.send(ShapingRequest::ForgetWorkload);
    }

    /// Runs the baseline and the shaped run with the form's settings.
    pub fn run(self) {
        let settings = match self.form.with_untracked(ShapingForm::settings) {
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
        self.progress.set((Stage::Forecast, 0, 0));
        self.send(ShapingRequest::Run { ticket, settings });
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
        let Some(ticket) = self.view.with_untracked(|v| v.as_ref().map(|v| v.ticket)) else {
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
        let Some(ticket) = self.view.with_untracked(|v| v.as_ref().map(|v| v.ticket)) else {
            return;
        };
        self.comparing.set(true);
        self.progress.set((Stage::Compare, 0, 0));
        self.send(ShapingRequest::Compare { ticket });
    }

    /// The K1 × K2 grid with the form's settings.
    pub fn run_grid(self) {
        let asked = self
            .form
            .with_untracked(|f| f.settings().and_then(|s| f.grid().map(|g| (s, g))));
        let (settings, (apps, target_failed_pct)) = match asked {
            Ok(a) => a,
            Err(e) => {
                self.grid_error.set(Some(e));
                return;
            }
        };
        self.grid_ticket.update_value(|t| *t = t.wrapping_add(1));
        let ticket = self.grid_ticket.get_value();
        self.grid_error.set(None);
        self.grid_running.set(true);
        self.grid_progress.set((0, 0));
        self.send(ShapingRequest::Grid {
            ticket,
            settings,
            apps,
            target_failed_pct,
        });
    }

    /// The last grid's recommendation for the form's target.
    pub fn retarget(self) {
        let Some(ticket) = self.grid.with_untracked(|g| g.as_ref().map(|g| g.ticket)) else {
            return;
        };
        match self.form.with_untracked(ShapingForm::grid) {
            Ok((_, target_failed_pct)) => {
                self.grid_error.set(None);
                self.send(ShapingRequest::Retarget {
                    ticket,
                    target_failed_pct,
                });
            }
            Err(e) => self.grid_error.set(Some(e)),
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

    /// Takes in one answer of the worker.
    pub fn apply(self, response: ShapingResponse) {
        let latest = self.ticket.get_value();
        let latest_grid = self.grid_ticket.get_value();
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
            ShapingResponse::Progress {
                ticket,
                stage: Stage::Grid,
                done,
                total,
            } if ticket == latest_grid => self.grid_progress.set((done, total)),
            ShapingResponse::Progress {
                ticket,
                stage,
                done,
                total,
            } if ticket == latest && stage != Stage::Grid => {
                self.progress.set((stage, done, total))
            }
            ShapingResponse::Ready(view) if view.ticket == latest => {
                self.running.set(false);
                self.comparison.set(None);
                self.app
                    .set(view.timelines.as_ref().map(|t| t.timelines.app));
                self.host.set(
                    view.timelines
                        .as_ref()
                        .map(|t| t.timelines.host)
                        .unwrap_or(0),
                );
                self.timelines.set(view.timelines.clone());
                self.view.set(Some(*view));
            }
            ShapingResponse::Timelines(t) if t.ticket == latest => self.timelines.set(Some(*t)),
            ShapingResponse::Compared {
                ticket,
                comparison,
                millis,
            } if ticket == latest => {
                self.comparing.set(false);
                self.comparison.set(Some((ticket, comparison, millis)));
            }
            ShapingResponse::GridReady(view) if view.ticket == latest_grid => {
                self.grid_running.set(false);
                self.grid.set(Some(*view));
            }
            ShapingResponse::Failed {
                stage: Stage::Grid,
                ticket,
                message,
            } if ticket == latest_grid => {
                self.grid_running.set(false);
                self.grid_error.set(Some(message));
            }
            ShapingResponse::Failed {
                stage,
                ticket,
                message,
            } if ticket == latest && stage != Stage::Grid => {
                self.running.set(false);
                self.comparing.set(false);
                self.error.set(Some(message));
            }
            ShapingResponse::Csv { name, text } => {
                if let Err(e) = save_text(&name, "text/csv", &text) {
                    self.page.notify(format!("{name} could not be saved: {e}"));
                }
            }
            // Answers to runs or grids sent before the latest: stale, dropped.
            ShapingResponse::Progress { .. }
            | ShapingResponse::Ready(_)
            | ShapingResponse::Timelines(_)
            | ShapingResponse::Compared { .. }
            | ShapingResponse::GridReady(_)
            | ShapingResponse::Failed { .. } => {}
        }
    }
}
