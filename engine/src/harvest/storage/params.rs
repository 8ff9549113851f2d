//! Settings of the storage half (§4.2, §5.2, §6): the replica placement,
//! the durability simulation (Figure 15) and the availability simulation
//! (Figure 16), with their defaults from the paper and their checks.

use crate::harvest::error::{check, HarvestError};
use crate::harvest::tenants::scaling::Scaling;
use serde::{Deserialize, Serialize};

/// The placement policies compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Policy {
    /// Algorithm 2 on the reimage × peak-utilization grid.
    #[serde(rename = "HDFS-H")]
    HdfsH,
    /// Stock HDFS: the writer, then a remote rack, then the remote rack
    /// again (another server), further replicas anywhere.
    #[serde(rename = "HDFS-Stock")]
    Stock,
    /// Primary-aware stock HDFS: as stock, skipping busy servers.
    #[serde(rename = "HDFS-PT")]
    StockPt,
}

impl Policy {
    /// The paper's name.
    pub fn name(self) -> &'static str {
        match self {
            Policy::HdfsH => "HDFS-H",
            Policy::Stock => "HDFS-Stock",
            Policy::StockPt => "HDFS-PT",
        }
    }
}

/// Settings of the placement (Algorithm 2 and the stock baselines).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct PlacementParams {
    /// Replicas per block, R (default 3, HDFS's).
    pub replication: usize,
    /// Rows and columns of the grid, n (default 3: 3 × 3 classes, §4.2).
    pub grid: usize,
    /// Block size, MB (default 128, HDFS's); a server's storage holds
    /// `floor(GB · 1024 / block_mb)` replicas.
    pub block_mb: f64,
    /// Servers per rack for the stock policies (default 40; racks are
    /// filled with the tenants' servers in order, as tenants are deployed
    /// rack by rack).
    pub rack_size: usize,
    /// Seed of the random picks (default 7).
    pub seed: u64,
}

impl Default for PlacementParams {
    fn default() -> Self {
        PlacementParams {
            replication: 3,
            grid: 3,
            block_mb: 128.0,
            rack_size: 40,
            seed: 7,
        }
    }
}

impl PlacementParams {
    /// Checks the settings.
    pub fn validate(&self) -> Result<(), HarvestError> {
        check(
            (1..=16).contains(&self.replication),
            "replication",
            "must be in 1..=16",
        )?;
        check((1..=8).contains(&self.grid), "grid", "must be in 1..=8")?;
        check(
            self.block_mb.is_finite() && self.block_mb > 0.0,
            "block_mb",
            "must be positive",
        )?;
        check(self.rack_size >= 1, "rack_size", "must be at least 1")
    }
}

/// Where a simulated year of reimages comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ReimageSource {
    /// Each tenant's events drawn as a Poisson process at its historical
    /// event rate, each event's size drawn from its historical sizes
    /// (every seeded run sees another year).
    Generate,
    /// The history itself, from its first month, repeated when shorter
    /// than the simulated span.
    Replay,
}

/// Settings of the durability simulation (Figure 15).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct DurabilityParams {
    /// Blocks written at placement (default 100,000 for the panel; the
    /// paper: 4 M, [`DurabilityParams::PAPER_BLOCKS`]).
    pub blocks: usize,
    /// Replication levels simulated (default 3 and 4, Figure 15).
    pub replications: Vec<usize>,
    /// Days simulated (default 365: "one year of reimages").
    pub days: f64,
    /// Lost replicas each source server (one holding a live replica)
    /// re-creates per hour (default 30, §5.2's rate in HDFS).
    pub recreate_per_hour: f64,
    /// Seeded runs (default 5; run r uses seed + r).
    pub runs: usize,
    /// Where the reimages come from (default generated from the rates).
    pub source: ReimageSource,
    /// Grid, block size, racks and seed of the placement (its
    /// `replication` is replaced by each of `replications`).
    pub placement: PlacementParams,
    /// Threads for the runs, which are independent (default 0: every core
    /// natively; the browser always uses one). The results do not depend
    /// on it.
    pub threads: usize,
}

impl DurabilityParams {
    /// The paper's block count (Figure 15: 4 M blocks).
    pub const PAPER_BLOCKS: usize = 4_000_000;
}

impl Default for DurabilityParams {
    fn default() -> Self {
        DurabilityParams {
            blocks: 100_000,
            replications: vec![3, 4],
            days: 365.0,
            recreate_per_hour: 30.0,
            runs: 5,
            source: ReimageSource::Generate,
            placement: PlacementParams::default(),
            threads: 0,
        }
    }
}

impl DurabilityParams {
    /// Checks the settings.
    pub fn validate(&self) -> Result<(), HarvestError> {
        self.placement.validate()?;
        check(self.blocks >= 1, "blocks", "must be at least 1")?;
        check(self.blocks <= 50_000_000, "blocks", "must be at most 50 M")?;
        check(
            !self.replications.is_empty(),
            "replications",
            "must not be empty",
        )?;
        check(
            self.replications.iter().all(|r| (1..=16).contains(r)),
            "replications",
            "must be in 1..=16",
        )?;
        check(
            self.days.is_finite() && self.days > 0.0 && self.days <= 3660.0,
            "days",
            "must be in (0, 3660]",
        )?;
        check(
            self.recreate_per_hour.is_finite() && self.recreate_per_hour > 0.0,
            "recreate_per_hour",
            "must be positive",
        )?;
        check(self.runs >= 1, "runs", "must be at least 1")
    }
}

/// Settings of the availability simulation (Figure 16).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct AvailabilityParams {
    /// Blocks written over the replayed span (default 20,000).
    pub blocks: usize,
    /// Replication levels (default 3 and 4, Figure 16).
    pub replications: Vec<usize>,
    /// Target average primary utilizations, percent (default 10 … 60).
    pub levels: Vec<f64>,
    /// How utilization is scaled (default linear, as Figure 16).
    pub scaling: Scaling,
    /// A server is busy when its primary's CPU is above this, percent
    /// (default 66: the 4 of 12 cores reserved, §5).
    pub reserve_threshold: f64,
    /// Seeded runs per level (default 5).
    pub runs: usize,
    /// Grid, block size, racks and seed of the placement.
    pub placement: PlacementParams,
}

impl Default for AvailabilityParams {
    fn default() -> Self {
        AvailabilityParams {
            blocks: 20_000,
            replications: vec![3, 4],
            levels: vec![10.0, 20.0, 30.0, 40.0, 50.0, 60.0],
            scaling: Scaling::Linear,
            reserve_threshold: 66.0,
            runs: 5,
            placement: PlacementParams::default(),
        }
    }
}

impl AvailabilityParams {
    /// Checks the settings.
    pub fn validate(&self) -> Result<(), HarvestError> {
        self.placement.validate()?;
        check(self.blocks >= 1, "blocks", "must be at least 1")?;
        check(self.blocks <= 50_000_000, "blocks", "must be at most 50 M")?;
        check(
            !self.replications.is_empty() && self.replications.iter().all(|r| (1..=16).contains(r)),
            "replications",
            "must be non-empty, each in 1..=16",
        )?;
        check(
            !self.levels.is_empty() && self.levels.iter().all(|l| (0.0..100.0).contains(l)),
            "levels",
            "must be non-empty, each in [0, 100)",
        )?;
        check(
            (0.0..=100.0).contains(&self.reserve_threshold),
            "reserve_threshold",
            "must be in [0, 100]",
        )?;
        if let Scaling::Root { n } = self.scaling {
            check(n.is_finite() && n >= 1.0, "root", "must be at least 1")?;
        }
        check(self.runs >= 1, "runs", "must be at least 1")
    }
}
