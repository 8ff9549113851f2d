//! Each panel's state as the studio keeps it and a bundle carries it: what
//! the planner built or chose (a plan, a queue, files read, settings), never
//! what a run computes from them (a run is redone, seeded, on opening). The
//! studio's IndexedDB records and the bundle use these same types, so the
//! CLI writes what the studio reads and the other way round.

pub use crate::agenda::AgendaState;
use crate::estimate::Method;
use crate::fixtures::QueueParams;
use crate::forecast::ForecastMethod;
use crate::pricing::{PriceFunction, QueuedJob, Slots};
pub use crate::shaping::WorkloadFile;
use crate::shaping::{GeneratorParams, Params};
use crate::tuning::GroupConfig;
pub use crate::tuning::TuningSettings;
use serde::{Deserialize, Serialize};

/// The Shaping panel's default application count. The engine's default
/// (1,000 applications on 250 hosts) took 5.4 s with GP in headless Chrome
/// on a loaded machine and shows a small effect (1.8×: its 14 h of arrivals
/// give the baseline's queue little time to grow). 400 applications on a
/// fifth of the cluster ([`DEFAULT_SHAPING_HOSTS`]) at the paper's arrival
/// rate per host cover about 31 h of arrivals: the same effects —
/// reservations queue, shaping cuts the slack and turnaround (≈ 2.3×) at
/// the price of preemptions and failures — in less time (BENCHMARKS.md,
/// "Dynamic resource shaping").
pub const DEFAULT_SHAPING_APPS: usize = 400;
/// The Shaping panel's default hosts (32 cores × 128 GB each, as §IV-A's).
pub const DEFAULT_SHAPING_HOSTS: usize = 50;
/// The Shaping panel's default grid workload: one seed of 300 applications
/// on the same hosts, so the 24 cells (25 runs and one forecasting pass)
/// stay within ~30 s in the browser.
pub const DEFAULT_GRID_APPS: usize = 300;

/// How the Pricing panel estimates and prices a job, and the cluster.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct PricingSettings {
    /// The estimation method planned with.
    pub method: Method,
    /// Coverage of the prediction intervals (MRM plans with the upper end).
    pub level: f64,
    /// The cluster's map and reduce slots.
    pub slots: Slots,
    /// The price function with its κ.
    pub function: PriceFunction,
}

impl Default for PricingSettings {
    /// The demo queue's: GP at 95 %, 80 + 80 slots (the demo history's
    /// cluster), eq. (13) with κ = 1.
    fn default() -> Self {
        let demo = QueueParams::default();
        PricingSettings {
            method: demo.method,
            level: demo.level,
            slots: demo.slots,
            function: demo.function,
        }
    }
}

/// One admitted job: with its price and method when it was admitted in the
/// panel, without when it came from an imported queue.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AdmittedJob {
    /// The job with its committed deadline.
    pub job: QueuedJob,
    /// The price it was admitted at.
    pub price: Option<f64>,
    /// The method it was estimated with.
    pub method: Option<Method>,
}

/// The Pricing panel's queue and settings.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PricingState {
    /// The settings, once the planner set any.
    pub settings: Option<PricingSettings>,
    /// The admitted jobs, in admission order.
    pub queue: Vec<AdmittedJob>,
}

/// The Harvest panel's files, each as (name, text): read again on opening,
/// so a bundle carries what the planner loaded, not what this build made of
/// it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct HarvestState {
    /// The primary tenants (`tenants.csv`).
    pub tenants: Option<(String, String)>,
    /// The disk reimages (`reimages.csv`).
    #[serde(default)]
    pub reimages: Option<(String, String)>,
    /// Alibaba v2018 `machine_meta` and `machine_usage`, which, while in
    /// use, are the spare-cycle half's tenants.
    #[serde(default)]
    pub machines: Option<[(String, String); 2]>,
}

/// Where the Shaping panel's workload comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum WorkloadSource {
    /// The §IV-like generator (`params.workload`).
    Generated,
    /// The workload read from files in the panel (applications CSV + usage
    /// CSV, a workload JSON, or Alibaba v2018 container tables).
    Files,
}

/// A Shaping run's settings: the engine's [`Params`] and where the workload
/// comes from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShapingSettings {
    /// Where the workload comes from.
    pub source: WorkloadSource,
    /// Cluster, policy, forecaster, K1, K2, grace; the generator's settings.
    pub params: Params,
}

impl Default for ShapingSettings {
    fn default() -> Self {
        ShapingSettings {
            source: WorkloadSource::Generated,
            params: Params {
                workload: GeneratorParams {
                    apps: DEFAULT_SHAPING_APPS,
                    ..GeneratorParams::default()
                },
                hosts: DEFAULT_SHAPING_HOSTS,
                ..Params::default()
            },
        }
    }
}

/// Workload files as read: enough to read them again.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShapingFiles {
    /// The files, names and text.
    pub files: Vec<WorkloadFile>,
    /// The cluster they were checked against (and, for Alibaba tables,
    /// whose host memory converted the requests).
    pub params: Params,
}

/// The Shaping panel's files and the settings of its latest run.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ShapingState {
    /// The workload files read, if any.
    pub files: Option<ShapingFiles>,
    /// The settings of the latest run (the panel's defaults when absent).
    pub settings: Option<ShapingSettings>,
}

/// The Tuning panel's settings, the configuration in force and the YARN
/// file it came from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TuningState {
    /// The settings.
    pub settings: TuningSettings,
    /// The current configuration (the queue tree the grid starts from), when
    /// the planner set one; the panel's equal split otherwise.
    pub current: Option<GroupConfig>,
    /// The YARN scheduler file read (name, text), kept to write tuned values
    /// back into it.
    pub xml: Option<(String, String)>,
    /// The queue whose children are the tuned queues in the YARN file
    /// (`root` unless the planner named another): the file is read and
    /// updated under it, so a bundle without it would export elsewhere.
    #[serde(default = "root_queue")]
    pub parent: String,
}

/// YARN's top queue, the default parent of the tuned queues.
fn root_queue() -> String {
    "root".into()
}

impl Default for TuningState {
    fn default() -> Self {
        TuningState {
            settings: TuningSettings::default(),
            current: None,
            xml: None,
            parent: root_queue(),
        }
    }
}

/// The Forecast panel's settings: the paper's where it gives them.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ForecastSettings {
    /// History window h (the paper: 10).
    pub window: usize,
    /// The latest N patterns the models are fitted on.
    pub latest: usize,
    /// Steps forecast ahead of the last observation.
    pub horizon: usize,
    /// Rolling origins over the end of the history (one one-step forecast
    /// each, scored against what came).
    pub origins: usize,
    /// Prediction-interval coverage.
    pub level: f64,
}

impl Default for ForecastSettings {
    fn default() -> Self {
        ForecastSettings {
            window: 10,
            latest: 100,
            horizon: 12,
            origins: 100,
            level: 0.95,
        }
    }
}

/// The Forecast panel's settings and the series it shows.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ForecastState {
    /// The settings.
    pub settings: ForecastSettings,
    /// Position of the series shown among the workspace's utilization
    /// series.
    pub series: Option<usize>,
    /// The method whose forecast is drawn, when the planner chose one.
    pub method: Option<ForecastMethod>,
}

/// The Runway panel's settings: growth, headroom targets, horizons and
/// the machine added (the engine's [`crate::runway::RunwayParams`]); the
/// runway itself is computed again on opening.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RunwayState {
    /// The settings.
    pub params: crate::runway::RunwayParams,
}
