//! Scheduler configuration tuning: AdaptiveConfig (Han et al., TPDS 2019).
//!
//! A cluster of R containers is shared by m groups; each group runs a
//! hierarchical scheduler (YARN Capacity or Fair) over a few priority
//! queues. Tuning picks, per group, the queue shares and in-queue policies
//! that minimise the group's average job latency (§3.3), and across groups
//! the split of the containers (§3.4).
//!
//! - [`model`]: queues, configurations, jobs, the cluster, and §4.3's map
//!   from job priority to queue;
//! - [`rules`]: the four activation groups of §3.3.2 (allocation among
//!   queues, policy within a queue, constraint checks, execution-time
//!   estimation) as traits with one implementation per rule;
//! - [`exec_time`]: Algorithm 2, a job's execution time under several
//!   allocations;
//! - [`latency`]: Algorithm 1, the comparison function L, in two readings
//!   (per-task release, the default, in `release`; the literal one);
//! - [`limits`]: YARN's AM and user limits, shared by the estimator and
//!   the simulation;
//! - [`search`]: the quantized grid, exhaustive search and recursive random
//!   search (Proposition 3.1);
//! - [`cluster_dp`]: Algorithm 3, the cluster-level split, with its brute
//!   force;
//! - [`simulate`]: an event-driven YARN Capacity / Fair simulation at
//!   container granularity, written apart from Algorithms 1–2, for the
//!   actual latency;
//! - [`evaluate`] — §4.3 (how often the comparison's best is the actual best)
//!   and §4.4 (run-time adaptation against static configurations);
//! - [`advice`]: only confirmed advice — whether the simulation confirms
//!   the recommendation's gain over the current configuration;
//! - [`contention_sweep`]: §4.3 and §4.4 against mix load and queue
//!   count, a sweep's cell (where tuning pays);
//! - [`tune`]: one whole pass — every group's search, the curves, the
//!   split;
//! - [`workload`]: SWIM's Facebook jobs as tasks, generated Google-like
//!   mixes;
//! - `panel`: the Tuning panel's run as the studio and the plan report
//!   do it — its settings, the window of history jobs cut into groups, the
//!   configuration of equal shares, the simulated confirmation;
//! - [`yarn_xml`]: `capacity-scheduler.xml` and the Fair Scheduler
//!   allocation file, in and out, with located errors.

pub mod advice;
pub mod cluster_dp;
pub mod contention_sweep;
mod error;
pub mod evaluate;
pub mod exec_time;
pub mod latency;
mod latency_report;
pub mod limits;
pub mod model;
mod panel;
pub mod rank;
mod release;
pub mod rules;
pub mod search;
pub mod simulate;
#[cfg(test)]
mod tests;
pub mod tune;
pub mod workload;
pub mod yarn_xml;

pub use advice::{advise, advise_group, Advice, Verdict};
pub use cluster_dp::{
    cluster_dp, cluster_dp_brute_force, cluster_dp_with_progress, ClusterSplit, DpVariant,
    GroupCurve,
};
pub use contention_sweep::{ContentionRow, ContentionSweep, SWEEP_SWIM_JOBS};
pub(crate) use error::check_range;
pub use error::TuneError;
pub use evaluate::{
    evaluate, evaluate_on, run_adaptive, AdaptResult, CaseResult, EvalParams, EvalReport,
};
pub use exec_time::{execution_time, Allocation, ExecEstimate};
pub use latency::{compare, JobLatency, LatencyReport};
pub use model::{
    queue_for_priority, Cluster, GroupConfig, Policy, QueueConf, SchedulerKind, Task, TuneJob,
};
pub use panel::{
    equal_queues, panel_params, simulated_latency, window_groups, TuningSettings, SIM_RUNS,
};
pub use rules::{AllocationRule, ConstraintRule, Delays, ExecRule, Reading, RuleSet};
pub use search::{
    exhaustive, hidden_differences, identical_config, imbalance, latency_curve, rrs, rrs_plan,
    same_config, Candidate, Point, RrsParams, SearchReport, SearchSpace, ShareDim, ShareLayout,
    TIE_TOLERANCE,
};
pub use simulate::{simulate, SimJob, SimParams, SimReport, Simulation};
pub use tune::{tune, GroupResult, SearchMethod, TuneParams, TuneReport};
pub use workload::{google_like_mix, jobs_from_swim, SwimTasks};
pub use yarn_xml::{
    read_capacity_xml, read_capacity_xml_with_warnings, read_fair_xml, read_fair_xml_with_warnings,
    update_capacity_xml, update_fair_xml, write_capacity_xml, write_fair_xml, FairContext,
    XmlError,
};
