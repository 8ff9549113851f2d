//! The storage half's messages (§3's reimages, §4.2, §6's Figures 15–16).
//! Carried by [`super::super::protocol::HarvestRequest::Storage`] and
//! [`super::super::protocol::HarvestResponse::Storage`].

use crate::toolkit::protocol::{Failure, Progress, Supersedes};
use serde::{Deserialize, Serialize};
use skyplan_engine::harvest::{
    AvailabilityReport, BlockTrace, CdfPoint, DurabilityReport, Grid, PlaceReport, Policy,
    TenantReimages,
};

/// The storage view's settings (the engine's defaults; the simulations
/// smaller than the CLI's so the panel answers in seconds).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StorageSettings {
    /// Rows and columns of the grid.
    pub grid: usize,
    /// Replicas per block of the explorer and the fill run.
    pub replication: usize,
    /// Blocks of the fill run and the durability simulation.
    pub blocks: usize,
    /// Seeded runs of the simulations.
    pub runs: usize,
    /// Blocks of the availability simulation.
    pub availability_blocks: usize,
    /// Target average utilizations of the availability simulation.
    pub levels: Vec<f64>,
    /// Seed.
    pub seed: u64,
}

impl Default for StorageSettings {
    fn default() -> Self {
        StorageSettings {
            grid: 3,
            replication: 3,
            blocks: 100_000,
            runs: 5,
            availability_blocks: 5_000,
            levels: vec![10.0, 20.0, 30.0, 40.0, 50.0, 60.0],
            seed: 7,
        }
    }
}

/// What the storage view asks of the worker.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "sop")]
pub enum StorageRequest {
    /// Use this reimages CSV (kept across reloads).
    ImportReimages {
        /// File name.
        name: String,
        /// Its text.
        text: String,
    },
    /// The grid, the reimage statistics and a fill run of `blocks`.
    Grid {
        /// The view's ticket.
        ticket: u32,
        /// Settings.
        settings: StorageSettings,
    },
    /// One block placed from `writer` on an empty cluster, explained.
    Place {
        /// The grid's ticket.
        ticket: u32,
        /// The writer's server name.
        writer: String,
        /// The policy.
        policy: Policy,
        /// Settings.
        settings: StorageSettings,
    },
    /// Figure 15.
    Durability {
        /// The simulation's ticket.
        ticket: u32,
        /// Settings.
        settings: StorageSettings,
    },
    /// Figure 16.
    Availability {
        /// The simulation's ticket.
        ticket: u32,
        /// Settings.
        settings: StorageSettings,
    },
}

impl StorageRequest {
    /// Nothing supersedes a storage request: each simulation is answered.
    pub fn supersedes_key(&self) -> Option<Supersedes> {
        None
    }
}

/// What the worker tells the storage view.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "sop")]
pub enum StorageResponse {
    /// The reimages file in use.
    ReimagesFile {
        /// Its name (`None`: none).
        name: Option<String>,
        /// Server reimages it lists.
        reimages: u64,
    },
    /// The grid and statistics.
    Grid(Box<StorageView>),
    /// One block explained.
    Placed(Box<PlaceView>),
    /// A simulation's progress.
    Progress(Progress),
    /// Figure 15's results.
    Durability(Box<DurabilityView>),
    /// Figure 16's results.
    Availability(Box<AvailabilityView>),
    /// A reimages file refused, with the place and reason; the one in use
    /// stays.
    FileRefused {
        /// Why, located.
        message: String,
    },
    /// The grid or a simulation refused.
    Failed(Failure),
    /// A block's placement refused (the ticket is the grid's).
    PlaceFailed(Failure),
}

/// A tenant as the grid shows it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StorageTenantRow {
    /// Name.
    pub name: String,
    /// Environment.
    pub environment: String,
    /// Servers.
    pub servers: u32,
    /// GB per server.
    pub storage_gb_per_server: f64,
    /// Reimages per server per month.
    pub reimage_rate: f64,
    /// Peak CPU, percent.
    pub peak: f64,
    /// Its cell (none: no room).
    pub cell: Option<usize>,
    /// Replicas of the fill run it holds.
    pub used: u64,
    /// Replicas it can hold.
    pub room: u64,
}

/// The grid, the reimage statistics and the fill run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StorageView {
    /// Its ticket.
    pub ticket: u32,
    /// The reimages file.
    pub reimages_file: String,
    /// The grid.
    pub grid: Grid,
    /// The tenants, in file order.
    pub tenants: Vec<StorageTenantRow>,
    /// The fill run (HDFS-H, `blocks` blocks).
    pub fill: PlaceReport,
    /// Figure 4: servers' reimages per month.
    pub server_cdf: Vec<CdfPoint>,
    /// Figure 5: tenants' reimages per server per month.
    pub tenant_cdf: Vec<CdfPoint>,
    /// Figure 6: group changes.
    pub changes_cdf: Vec<CdfPoint>,
    /// Per tenant reimages.
    pub reimages: Vec<TenantReimages>,
    /// Months of history.
    pub months: usize,
    /// Share of servers at most once a month.
    pub servers_at_most_monthly: f64,
    /// Worker time, milliseconds.
    pub millis: f64,
}

/// One block explained.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlaceView {
    /// The grid's ticket.
    pub ticket: u32,
    /// Every pick with its reasons.
    pub trace: BlockTrace,
}

/// Figure 15's results.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DurabilityView {
    /// Its ticket.
    pub ticket: u32,
    /// What the engine measured.
    pub report: DurabilityReport,
    /// Worker time, milliseconds.
    pub millis: f64,
}

/// Figure 16's results.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AvailabilityView {
    /// Its ticket.
    pub ticket: u32,
    /// What the engine measured.
    pub report: AvailabilityReport,
    /// Worker time, milliseconds.
    pub millis: f64,
}
