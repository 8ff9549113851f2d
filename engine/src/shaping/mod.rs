//! Dynamic resource shaping (the resource-shaping paper, §III-B, §IV, §V):
//! allocations of running applications follow their forecast utilization
//! plus a safe-guard buffer, and a trace-driven simulation measures what
//! that buys against reservations.
//!
//! - [`model`]: hosts, applications with core and elastic components, usage
//!   traces, the workload and its validation;
//! - [`input`]: our applications CSV (with a usage CSV) and JSON, and
//!   Alibaba v2018 container tables as a workload;
//! - [`google`]: Google cluster-data 2019 `instance_events` and
//!   `instance_usage` as a workload;
//! - [`generator`]: a §IV-like workload, scaled by its application count;
//! - [`random_walk`]: the reference simulator's usage model;
//! - [`buffer`]: β = K1·R + K2·V and the allocation forecast + β;
//! - [`pessimistic`]: Algorithm 1, as written;
//! - [`optimistic`]: allocations follow the forecast, the OS kills on
//!   shortage;
//! - [`scheduler`]: FIFO admission, first-fit placement, resubmission at
//!   the original place;
//! - [`forecaster`]: one series' forecaster (ARIMA or the GP of
//!   [`crate::forecast`]), fed a minute at a time;
//! - [`predictor`]: per-application forecasts of a first attempt, every
//!   minute after the grace period, computed once per workload;
//! - `learning`: a restarted application's forecasts, continuing from what
//!   its earlier attempts observed;
//! - [`scenario`]: a workload with its settings, cluster and forecasts,
//!   validated together once — what every run is given;
//! - [`run`]: one discrete-event run (the reservation baseline is the run
//!   with [`Policy::Reservation`]);
//! - [`metrics`], [`timeline`]: what a run measured and the studio's
//!   timelines;
//! - [`simulate`]: baseline and shaped run side by side;
//! - [`rerun`]: another application's or host's timelines, re-run on the
//!   forecasts kept;
//! - [`compare`]: Figure 2, the three policies as box plots;
//! - [`grid`]: Figure 3, the K1 × K2 heat maps; [`recommend`]: the best
//!   cell for a target failure rate;
//! - [`load_sweep`]: where shaping pays — baseline against shaped over
//!   offered loads, arrival patterns and forecaster settings (issue 35).

pub mod buffer;
pub mod compare;
pub mod error;
pub mod files;
pub mod forecaster;
pub mod generator;
pub mod google;
#[cfg(test)]
mod google_tests;
pub mod grid;
pub mod input;
mod learning;
pub mod load_sweep;
pub mod metrics;
pub mod model;
pub mod optimistic;
pub mod params;
pub mod pessimistic;
pub mod predictor;
pub mod random_walk;
pub mod recommend;
pub mod rerun;
pub mod run;
pub mod scenario;
pub mod scheduler;
pub mod simulate;
#[cfg(test)]
mod tests;
pub mod timeline;
pub mod usage_means;

pub use buffer::Spread;
pub use compare::{compare_policies, compare_policies_with, PolicyBox, PolicyComparison};
pub use error::ShapingError;
pub use files::{error_text, read_checked, read_workload_files, WorkloadFile};
pub use generator::{generate, Arrivals, GeneratorParams, UsageModel, PAPER_APPS};
pub use google::workload_from_google;
pub use grid::{grid, grid_generated, GridParams, GridReport};
pub use input::{read_applications_csv, read_applications_json, workload_from_alibaba};
pub use load_sweep::{Config, LoadPoint, LoadRow, LoadSweep};
pub use metrics::{all_turnarounds, AppOutcome, BoxStats, GridCell, RunSummary, WorstOff};
pub use model::{Application, ComponentGroup, Host, Kind, UsageTrace, Workload};
pub use optimistic::{optimistic, OptimisticDecision};
pub use params::{generate_for, Params, Policy, Predictor, PreemptOn};
pub use pessimistic::{pessimistic, ShaperApp, ShaperComponent, ShaperDecision};
pub use predictor::AppForecast;
pub use recommend::{recommend, Recommendation};
pub use rerun::{timelines, Timelines};
pub use run::RunReport;
pub use scenario::{prepare_forecasts, Scenario};
pub use simulate::{
    pick_timeline_app, simulate, simulate_verified, simulate_with, ShapingReport, WorkloadSummary,
};
pub use timeline::{AppPoint, AppTimeline, EventKind, HostPoint, HostTimeline, TimelineEvent};
