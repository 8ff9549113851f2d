//! The spare-cycle half's messages (tenants, classes, capacity, class
//! selection, the §6 simulation). Carried by
//! [`super::super::protocol::CyclesRequest::Cycles`] and
//! [`super::super::protocol::CyclesResponse::Cycles`].

use crate::toolkit::protocol::{Failure, Progress, Supersedes};
use serde::{Deserialize, Serialize};
use skyplan_engine::harvest::{
    CapacityMatrix, JobType, KChoice, Pattern, Scaling, Selection, SimReport, TenantRow,
    TenantSpectrum,
};

/// The classification's settings (the engine's defaults).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HarvestSettings {
    /// The loaded file whose CPU series are the tenants' servers (`None`:
    /// every series the tenants file knows, or all of them without one).
    pub file: Option<String>,
    /// Classes per pattern (periodic, constant, unpredictable), overriding
    /// the elbow rule.
    pub k: [Option<usize>; 3],
    /// The percentile taken as peak utilization.
    pub peak_percentile: f64,
    /// The low percentile of the harvestable capacity.
    pub capacity_percentile: f64,
}

impl Default for HarvestSettings {
    fn default() -> Self {
        HarvestSettings {
            file: None,
            k: [None; 3],
            peak_percentile: 99.0,
            capacity_percentile: 10.0,
        }
    }
}

/// A job for the class-selection explorer: a job of the loaded history, or
/// described by its last run and its concurrency.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JobSpec {
    /// A job of the loaded history (its map/reduce DAG), if picked.
    pub history_job: Option<String>,
    /// Its last run's length, seconds (`None`: a new job).
    pub last_run_secs: Option<f64>,
    /// Concurrent containers (ignored with a history job: its DAG says).
    pub containers: u64,
    /// Hour of day whose class utilization is "current".
    pub hour: usize,
    /// Seed of the draw.
    pub seed: u64,
}

/// Where the simulation's jobs come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum JobSource {
    /// The loaded job history's jobs as map/reduce DAGs.
    History,
    /// Generated TPC-DS-like DAGs.
    Tpcds,
}

/// The simulation's settings (§6; the engine's defaults but two days,
/// three levels and two runs, so the panel answers in seconds — a month at
/// five levels and five runs is `skyplan harvest simulate-scheduling`'s).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SimSettings {
    /// Days simulated.
    pub days: f64,
    /// Target average primary utilizations, percent.
    pub levels: Vec<f64>,
    /// Linear with saturation, or n-th root.
    pub scaling: Scaling,
    /// Seeded runs per level.
    pub runs: usize,
    /// Seed of the first run.
    pub seed: u64,
    /// The jobs.
    pub source: JobSource,
}

impl Default for SimSettings {
    fn default() -> Self {
        SimSettings {
            days: 2.0,
            levels: vec![10.0, 30.0, 50.0],
            scaling: Scaling::Linear,
            runs: 2,
            seed: 7,
            source: JobSource::Tpcds,
        }
    }
}

impl SimSettings {
    /// What the panel runs by itself when it opens: YARN-PT against
    /// YARN-H at the loaded tenants' current utilization (`level`, the
    /// core-weighted mean; the replay is then the tenants as loaded), one
    /// run of each system over two days — about a second of worker time
    /// on the demo's 1,310 servers, so the panel is not empty for long.
    pub fn current(level: f64) -> SimSettings {
        SimSettings {
            levels: vec![(level * 10.0).round() / 10.0],
            runs: 1,
            ..SimSettings::default()
        }
    }
}

/// What the spare-cycle half of the Harvest panel asks of the worker.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op")]
pub enum CyclesRequest {
    /// Classify the tenants (answered by [`CyclesResponse::Classified`] or
    /// [`CyclesResponse::Failed`]).
    Classify {
        /// The panel's ticket.
        ticket: u32,
        /// Settings.
        settings: HarvestSettings,
    },
    /// Use this tenants CSV (kept across reloads); answered by
    /// [`CyclesResponse::TenantsFile`] or [`CyclesResponse::FileRefused`].
    ImportTenants {
        /// File name.
        name: String,
        /// Its text.
        text: String,
    },
    /// Forget the tenants CSV.
    ForgetTenants,
    /// Use these Alibaba v2018 machine tables (`machine_meta.csv` and
    /// `machine_usage.csv`, told apart by their column counts; kept across
    /// reloads) as the tenants and their series, machines grouped by
    /// `failure_domain_1`; answered by [`CyclesResponse::MachinesFile`] or
    /// [`CyclesResponse::FileRefused`] (the ones in use stay).
    ImportMachines {
        /// Names and texts, in any order.
        files: Vec<(String, String)>,
    },
    /// Forget the machine tables: back to the workspace's series.
    ForgetMachines,
    /// A tenant's series and spectrum, from the last classification.
    Spectrum {
        /// The classification's ticket.
        ticket: u32,
        /// Tenant name.
        tenant: String,
    },
    /// Algorithm 1 for one job on the last classification's classes.
    Select {
        /// The classification's ticket.
        ticket: u32,
        /// The job.
        job: JobSpec,
    },
    /// The §6 simulation on the last classification's tenants.
    Simulate {
        /// The panel's simulation ticket.
        ticket: u32,
        /// Settings.
        settings: SimSettings,
    },
}

impl CyclesRequest {
    /// A later classification (or simulation) supersedes one still
    /// queued.
    pub fn supersedes_key(&self) -> Option<Supersedes> {
        match self {
            CyclesRequest::Classify { .. } => Supersedes::any("harvest classify"),
            CyclesRequest::Simulate { .. } => Supersedes::any("harvest simulate"),
            _ => None,
        }
    }
}

/// What the worker tells the spare-cycle half of the Harvest panel.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op")]
pub enum CyclesResponse {
    /// The tenants file in use.
    TenantsFile {
        /// Its name (`None`: none).
        name: Option<String>,
        /// Tenants it lists.
        tenants: usize,
    },
    /// The Alibaba machine tables in use.
    MachinesFile {
        /// Their names, joined (`None`: none).
        name: Option<String>,
        /// Machines with a CPU series.
        machines: usize,
        /// Tenants (failure domains) they make.
        tenants: usize,
    },
    /// Tenants, classes and capacity.
    Classified(Box<HarvestView>),
    /// A tenant's spectrum.
    Spectrum(Box<SpectrumView>),
    /// A job's class selection.
    Selected(Box<SelectionView>),
    /// Runs of the simulation done.
    Progress(Progress),
    /// The simulation's results.
    Simulated(Box<SimView>),
    /// A tenants file refused, with the place and reason; the one in use
    /// stays.
    FileRefused {
        /// Why, located.
        message: String,
    },
    /// A classification (or a tenant's spectrum of it) or a simulation
    /// refused.
    Failed(Failure),
    /// A job's class selection refused (the ticket is the
    /// classification's).
    SelectFailed(Failure),
}

/// A class as the panel shows it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClassView {
    /// Class id.
    pub id: String,
    /// Its pattern.
    pub pattern: Pattern,
    /// Its tenants.
    pub tenants: Vec<String>,
    /// Servers.
    pub servers: usize,
    /// Mean utilization, percent.
    pub average: f64,
    /// Peak utilization, percent.
    pub peak: f64,
    /// The average day, slot by slot.
    pub average_day: Vec<f64>,
}

/// The classification the panel shows.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HarvestView {
    /// The request's ticket.
    pub ticket: u32,
    /// Where the series came from.
    pub source: String,
    /// Slot length, seconds.
    pub step_secs: i64,
    /// Slots.
    pub slots: usize,
    /// Tenants of the tenants file without any series.
    pub missing: Vec<String>,
    /// One row per tenant.
    pub tenants: Vec<TenantRow>,
    /// The classes.
    pub classes: Vec<ClassView>,
    /// k per pattern and how it was chosen.
    pub k: Vec<KChoice>,
    /// Containers per class and hour of day.
    pub capacity: CapacityMatrix,
    /// The tenants' core-weighted mean utilization, percent: the level the
    /// panel's own simulation runs at (the tenants as loaded).
    pub current_level: f64,
    /// Jobs of the loaded history (for the selection explorer).
    pub history_jobs: Vec<String>,
    /// Worker time, milliseconds.
    pub millis: f64,
}

/// A tenant's spectrum.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SpectrumView {
    /// The classification's ticket.
    pub ticket: u32,
    /// Series, spectrum and verdict.
    pub spectrum: TenantSpectrum,
}

/// A job's class selection.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SelectionView {
    /// The classification's ticket.
    pub ticket: u32,
    /// The job, in words.
    pub job: String,
    /// Its type.
    pub job_type: JobType,
    /// Its last run, seconds.
    pub last_run_secs: Option<f64>,
    /// Hour of day used as "now".
    pub hour: usize,
    /// Algorithm 1's answer.
    pub selection: Selection,
    /// Worker time, milliseconds.
    pub millis: f64,
}

/// The simulation's results.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SimView {
    /// Its ticket.
    pub ticket: u32,
    /// What the engine measured.
    pub report: SimReport,
    /// Jobs (DAG templates) drawn from.
    pub jobs: usize,
    /// Worker time, milliseconds.
    pub millis: f64,
}
