//! Harvesting spare cycles from primary tenants (the harvesting paper,
//! §3–§4.1, §5.1, §6): tenants and their average servers, patterns by FFT,
//! utilization classes by K-Means, class selection (Algorithm 1),
//! harvestable capacity per class and hour, and the task-scheduling
//! simulation of YARN-PT against YARN-H.
//!
//! From the bottom: `error`; `tenant` (the model), `tenants_csv`,
//! `alibaba_machines` and `grouping` (inputs → a [`TenantSet`]);
//! `spectrum` (real-to-complex FFT), `pattern` (the rule and its
//! evidence), `kmeans`, `classify` (the clustering service); `dag` (job
//! DAGs and their concurrency), `select` (Algorithm 1); `capacity`;
//! `scaling`, `fenwick`, `workload` and `simulate` (§6).
//!
//! The storage half (§3's reimages, §4.2, §5.2, §6's Figures 15–16):
//! `reimages` (the reimages CSV, the server numbering), `reimage_stats`
//! (Figures 4–6), `reimage_year` (a simulated year); `storage_params`,
//! `storage_tenant` (tenants with space, reimage rate and peak; the
//! cluster), `grid_cells` (Algorithm 2's n × n classes), `placement`
//! (Algorithm 2 and stock HDFS, one block at a time, explained on
//! demand), `placement_run` (many blocks, the diversity checks),
//! `durability` (Figure 15) and `availability` (Figure 16).

pub mod alibaba_machines;
pub mod availability;
pub mod capacity;
pub mod classify;
pub mod dag;
pub mod durability;
pub mod error;
pub mod grid_cells;
pub mod grouping;
pub mod kmeans;
pub mod pattern;
pub mod placement;
pub mod placement_run;
pub mod reimage_stats;
pub mod reimage_year;
pub mod reimages;
pub mod replay;
pub mod scaling;
pub mod select;
pub mod simulate;
pub mod storage_params;
pub mod storage_tenant;
pub mod tenant;
pub mod tenants_csv;
pub mod workload;

#[cfg(test)]
mod storage_tests;
#[cfg(test)]
mod tests;

pub use alibaba_machines::{
    read_machine_meta, read_machine_usage, tenants_from_machines, MachineMeta, MachineUsage,
};
pub use capacity::{capacity, CapacityMatrix, CapacityParams, ClassCapacity};
pub use classify::{
    classify, tenant_spectrum, Classification, ClassifyParams, KChoice, TenantRow, TenantSpectrum,
    UtilClass,
};
pub use dag::{
    dag_from_history, read_batch_task, read_dag_json, BatchTasks, Concurrency, JobDag, Vertex,
};
pub use error::HarvestError;
pub use grouping::{group_series, GroupParams};
pub use kmeans::{choose_k, kmeans, kmeans_plus_plus, lloyd, KMeansResult};
pub use pattern::{
    classify_series, Frequency, Pattern, PatternEvidence, PatternParams, PatternVerdict,
};
pub use scaling::{scale_to, Scaling};
pub use select::{
    select, ClassOption, ClassState, JobRequest, JobType, Outcome, SelectParams, Selection,
};
pub use simulate::{
    simulate, LevelResult, PaperFigures, RunResult, SimParams, SimReport, System, SystemResult,
};
pub use tenant::{Tenant, TenantInfo, TenantSet, DEFAULT_STORAGE_GB};
pub use tenants_csv::{read_mapping_csv, read_tenants_csv, write_tenants_csv, TENANT_COLUMNS};
pub use workload::tpcds_like;

pub use crate::numerics::MinAvgMax;

pub use availability::{
    simulate_availability, AvailabilityLevel, AvailabilityPoint, AvailabilityReport,
};
pub use durability::{
    durability_memory, simulate_durability, DurabilityPaper, DurabilityReport, DurabilityResult,
    DurabilityRun, Reduction,
};
pub use grid_cells::{build_grid, Grid, GridCell};
pub use placement::{
    BlockTrace, CellCheck, CellVerdict, Placer, ReplicaStep, TenantCheck, TenantVerdict,
};
pub use placement_run::{
    check_diversity, place_blocks, place_only, Diversity, PlaceReport, Placement,
};
pub use reimage_stats::{
    cdf, history_span, month_groups, reimage_stats, resolve_event, CdfPoint, ReimageStats,
    TenantReimages,
};
pub use reimage_year::reimage_year;
pub use reimages::{
    read_reimages_csv, write_reimages_csv, ReimageEvent, ReimageHistory, ServerLayout,
    REIMAGE_COLUMNS,
};
pub use replay::{lost_blocks, replay_memory};
pub use storage_params::{
    AvailabilityParams, DurabilityParams, PlacementParams, Policy, ReimageSource,
};
pub use storage_tenant::{storage_tenants, Cluster, StorageTenant};
