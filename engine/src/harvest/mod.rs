//! Harvesting spare resources of primary tenants (the harvesting paper,
//! §3–§6), one concept per folder, layered from the bottom:
//!
//! - `error`: [`HarvestError`] and the range check every file uses;
//! - [`tenants`]: primary tenants and their average servers (the tenants
//!   CSV, Alibaba machines, utilization series), their scaling, patterns by
//!   FFT and utilization classes by K-Means (§3, §4.1's clustering service);
//! - [`cycles`]: spare cycles for batch jobs — job DAGs, class selection
//!   (Algorithm 1), harvestable capacity per class and hour, and the
//!   task-scheduling simulation of YARN-PT against YARN-H (§4.1, §5.1, §6);
//! - [`storage`]: spare storage — reimage histories and their statistics
//!   (§3, Figures 4–6), replica placement by Algorithm 2 and stock HDFS
//!   (§4.2, §5.2), and the durability and availability simulations (§6,
//!   Figures 15–16).
//!
//! `cycles` and `storage` build on `tenants` and not on each other. This
//! file declares the folders and re-exports their public names, so callers
//! keep writing `harvest::classify`, `harvest::Placer` and so on.

pub mod cycles;
pub mod error;
pub mod storage;
pub mod tenants;

#[cfg(test)]
mod tests;

pub use crate::numerics::MinAvgMax;
pub use cycles::capacity::{capacity, CapacityMatrix, CapacityParams, ClassCapacity};
pub use cycles::dag::{
    dag_from_history, read_batch_task, read_dag_json, BatchTasks, Concurrency, JobDag, Vertex,
};
pub use cycles::figures::{figures, DatacenterFigure, FiguresReport};
pub use cycles::placement::DefaultPlacement;
pub use cycles::regime::{
    summarize, DatacenterSpec, HarvestRegime, MakeDatacenter, RegimePoint, RegimeRow,
    RegimeSummary, DATACENTERS,
};
pub use cycles::select::{
    select, ClassOption, ClassState, JobRequest, JobType, Outcome, SelectParams, Selection,
};
pub use cycles::simulate::{
    paper_figures, simulate, simulate_serial, LevelResult, PaperFigures, RunResult, SimParams,
    SimReport, System, SystemResult,
};
pub use cycles::thresholds::{
    preferred_pattern, thresholds, ClassSupply, JobDemand, ThresholdDerivation, ThresholdRule,
    TypeBalance,
};
pub use cycles::workload::tpcds_like;
pub use error::HarvestError;
pub use storage::availability::{
    simulate_availability, AvailabilityLevel, AvailabilityPoint, AvailabilityReport,
    AvailabilityRow, AVAILABILITY_POLICIES,
};
pub use storage::durability::{
    durability_memory, simulate_durability, DurabilityPaper, DurabilityReport, DurabilityResult,
    DurabilityRun, Reduction,
};
pub use storage::grid_cells::{build_grid, Grid, GridCell};
pub use storage::params::{
    AvailabilityParams, DurabilityParams, PlacementParams, Policy, ReimageSource,
};
pub use storage::placement::{
    BlockTrace, CellCheck, CellVerdict, Placer, ReplicaStep, TenantCheck, TenantVerdict,
};
pub use storage::placement_run::{
    check_diversity, place_blocks, Diversity, PlaceReport, Placement,
};
pub use storage::reimage_stats::{
    cdf, history_span, month_groups, reimage_stats, resolve_event, CdfPoint, ReimageStats,
    TenantReimages,
};
pub use storage::reimage_year::reimage_year;
pub use storage::reimages::{
    read_reimages_csv, write_reimages_csv, ReimageEvent, ReimageHistory, ServerLayout,
    REIMAGE_COLUMNS,
};
pub use storage::replay::{lost_blocks, replay_memory};
pub use storage::tenant::{storage_tenants, Cluster, StorageTenant};
pub use tenants::alibaba_machines::{
    machine_tenants, read_machine_meta, read_machine_usage, tenants_from_machines, MachineMeta,
    MachineUsage, MACHINE_DEFAULT_CORES, MACHINE_META_COLUMNS, MACHINE_USAGE_COLUMNS,
};
pub use tenants::classify::{
    classify, tenant_spectrum, Classification, ClassifyParams, KChoice, TenantRow, TenantSpectrum,
    UtilClass,
};
pub use tenants::grouping::{group_series, tenant_series, GroupParams};
pub use tenants::kmeans::{choose_k, kmeans, kmeans_plus_plus, lloyd, KMeansResult};
pub use tenants::pattern::{
    classify_series, Frequency, Pattern, PatternEvidence, PatternParams, PatternVerdict,
};
pub use tenants::scaling::{scale_to, Scaling};
pub use tenants::tenant::{Tenant, TenantInfo, TenantSet, DEFAULT_STORAGE_GB};
pub use tenants::tenants_csv::{
    read_mapping_csv, read_tenants_csv, write_tenants_csv, TENANT_COLUMNS,
};
