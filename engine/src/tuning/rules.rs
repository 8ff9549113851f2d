//! The four activation groups of §3.3.2, as Rust traits.
//!
//! AdaptiveConfig wrote the scheduler as Drools business rules in four
//! activation groups, of which a configuration fires exactly one rule each:
//!
//! 1. **allocation among queues** ([`QueueAllocation`]): [`CapacityRule`]
//!    (guarantees, then elastic growth) or [`FairRule`] (min shares, then
//!    usage over weight);
//! 2. **policy within a queue** ([`JobPolicy`]): [`FifoRule`],
//!    [`FairPolicyRule`], [`DrfRule`], [`EdfRule`], [`LrtfRule`];
//! 3. **constraint checks** ([`ConstraintCheck`]): [`Unconstrained`],
//!    [`QueueLimits`] (queue min/max), [`LimitsAndPlacement`] (also the
//!    machines a job may use);
//! 4. **execution-time estimation** ([`ExecTimeEstimate`]):
//!    [`Algorithm2Rule`] or [`AggregateRule`].
//!
//! Each group is a trait; each rule a unit struct implementing it; an enum
//! per group ([`AllocationRule`], [`Policy`], [`ConstraintRule`],
//! [`ExecRule`]) names the rule a configuration activates and hands out
//! its `&'static dyn` implementation. Adding a policy is one struct, one
//! `impl` and one enum variant; no general-purpose rule engine is needed.

use super::exec_time::{aggregate_time, execution_time, Allocation, ExecEstimate};
use super::model::{GroupConfig, Policy, QueueConf, SchedulerKind, Task, TuneJob};
use serde::{Deserialize, Serialize};

// ---------------------------------------------------------------------------
// Facts handed to the rules.

/// A queue's state in one allocation round.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct QueueDemand {
    /// Containers its jobs hold.
    pub used: u32,
    /// Containers its jobs still ask for.
    pub wanted: u32,
}

/// A queue's bounds in containers, from the constraint rule.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct QueueBounds {
    /// Served first, when it has work.
    pub min: u32,
    /// Never exceeded.
    pub max: u32,
    /// The minimum as YARN compares it, not rounded (`minResources` is
    /// in memory and cores, so 10 % of 8 containers is 0.8 of one, and a
    /// queue holding nothing is below it): Fair's needy test uses this,
    /// as the simulation does.
    pub min_exact: f64,
}

/// A job's state in one allocation round, as in-queue policies see it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct JobDemand {
    /// Submission time.
    pub submit: f64,
    /// Containers it holds.
    pub held: u32,
    /// Containers it still asks for.
    pub wanted: u32,
    /// DRF weight of one container ([`TuneJob::dominance`]).
    pub dominance: f64,
    /// EDF deadline (∞ without one).
    pub deadline: f64,
    /// LRTF: task seconds not yet started (a sum over the job's tasks:
    /// the per-task estimate fills it only for a queue under LRTF, 0
    /// otherwise).
    pub remaining_secs: f64,
}

// ---------------------------------------------------------------------------
// Group 1: allocation among queues.

/// Activation group 1: how one round's free containers go to queues.
pub trait QueueAllocation {
    /// Splits `free` containers of a group of `total` among `queues`.
    /// Grants never exceed a queue's `wanted`, never lift it above its
    /// bound's `max`, and sum to at most `free`.
    fn split(
        &self,
        free: u32,
        total: u32,
        queues: &[QueueConf],
        demand: &[QueueDemand],
        bounds: &[QueueBounds],
    ) -> Vec<u32>;
}

/// The Capacity Scheduler's rule: one container at a time to the queue
/// least used relative to its guaranteed capacity (`capacity` × the
/// group, unrounded: the parent queue's used-capacity order), up to its
/// maximum. A queue below its guarantee is thereby served before any
/// queue above it, and among queues below theirs the least served first —
/// the order the simulation's heartbeats follow (an earlier version filled
/// guarantees in queue order, which hands a single released container to
/// the first queue rather than the most starved).
#[derive(Clone, Copy, Debug)]
pub struct CapacityRule;

/// The Fair Scheduler's rule: each container to the queue furthest below
/// its minimum share, else to the queue with the least usage per weight
/// (YARN's `FairSharePolicy` comparator), up to its maximum.
#[derive(Clone, Copy, Debug)]
pub struct FairRule;

/// Splits `total` in proportion to `weights` (largest remainder; ties to
/// the first).
pub fn apportion(total: u32, weights: &[f64]) -> Vec<u32> {
    let sum: f64 = weights.iter().sum();
    if weights.is_empty() || sum <= 0.0 {
        return vec![0; weights.len()];
    }
    let exact: Vec<f64> = weights.iter().map(|w| f64::from(total) * w / sum).collect();
    let mut out: Vec<u32> = exact.iter().map(|x| (x + 1e-9).floor() as u32).collect();
    let mut left = total.saturating_sub(out.iter().sum());
    let mut order: Vec<usize> = (0..weights.len()).collect();
    order.sort_by(|&a, &b| {
        let ra = exact[a] - f64::from(out[a]);
        let rb = exact[b] - f64::from(out[b]);
        rb.total_cmp(&ra).then(a.cmp(&b))
    });
    for i in order {
        if left == 0 {
            break;
        }
        out[i] += 1;
        left -= 1;
    }
    out
}

/// The grant of both queue rules: `free` containers one at a time, each to
/// the queue with the lowest `key(queue, granted so far)` among those that
/// still want and are below their max (ties to the first queue). The two
/// rules differ only in the key, so the walk is written once.
fn one_at_a_time(
    free: u32,
    queues: usize,
    demand: &[QueueDemand],
    bounds: &[QueueBounds],
    key: impl Fn(usize, u32) -> f64,
) -> Vec<u32> {
    let mut free = free;
    let mut grant = vec![0u32; queues];
    while free > 0 {
        let best = (0..grant.len())
            .filter(|&q| grant[q] < demand[q].wanted && demand[q].used + grant[q] < bounds[q].max)
            .min_by(|&a, &b| {
                key(a, grant[a])
                    .total_cmp(&key(b, grant[b]))
                    .then(a.cmp(&b))
            });
        let Some(q) = best else { break };
        grant[q] += 1;
        free -= 1;
    }
    grant
}

impl QueueAllocation for CapacityRule {
    fn split(
        &self,
        free: u32,
        total: u32,
        queues: &[QueueConf],
        demand: &[QueueDemand],
        bounds: &[QueueBounds],
    ) -> Vec<u32> {
        one_at_a_time(free, queues.len(), demand, bounds, |q, g| {
            f64::from(demand[q].used + g) / (queues[q].share * f64::from(total)).max(1e-9)
        })
    }
}

impl QueueAllocation for FairRule {
    fn split(
        &self,
        free: u32,
        _total: u32,
        queues: &[QueueConf],
        demand: &[QueueDemand],
        bounds: &[QueueBounds],
    ) -> Vec<u32> {
        one_at_a_time(free, queues.len(), demand, bounds, |q, g| {
            let held = demand[q].used + g;
            let min = bounds[q].min_exact;
            if f64::from(held) < min {
                // Needy queues first, the neediest (lowest held/min) first.
                -1.0 + f64::from(held) / min
            } else {
                f64::from(held) / queues[q].share
            }
        })
    }
}

/// The `rule()` that maps a naming enum to its rule's implementation, the
/// same for every activation group: one definition, so the groups cannot
/// drift apart in how they dispatch.
macro_rules! rule_of {
    ($(#[$doc:meta])* $name:ident => $rule:ident { $($variant:ident => $imp:expr,)+ }) => {
        impl $name {
            $(#[$doc])*
            pub fn rule(self) -> &'static dyn $rule {
                match self {
                    $($name::$variant => &$imp,)+
                }
            }
        }
    };
}

/// Names the active rule of group 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AllocationRule {
    /// [`CapacityRule`].
    Capacity,
    /// [`FairRule`].
    Fair,
}

rule_of! {
    /// The rule's implementation.
    AllocationRule => QueueAllocation {
        Capacity => CapacityRule,
        Fair => FairRule,
    }
}

// ---------------------------------------------------------------------------
// Group 2: policy within a queue.

/// Activation group 2: how a queue's grant goes to its jobs.
pub trait JobPolicy {
    /// Splits `n` containers among `jobs` (each at most its `wanted`).
    fn split(&self, n: u32, jobs: &[JobDemand]) -> Vec<u32>;
}

/// FIFO: by submission, each job all it wants before the next.
#[derive(Clone, Copy, Debug)]
pub struct FifoRule;
/// Fair: one container at a time to the job holding fewest.
#[derive(Clone, Copy, Debug)]
pub struct FairPolicyRule;
/// DRF: one container at a time to the lowest dominant share.
#[derive(Clone, Copy, Debug)]
pub struct DrfRule;
/// EDF: by deadline, each job all it wants before the next.
#[derive(Clone, Copy, Debug)]
pub struct EdfRule;
/// LRTF: by unstarted work, each job all it wants before the next.
#[derive(Clone, Copy, Debug)]
pub struct LrtfRule;

fn greedy_by(n: u32, jobs: &[JobDemand], key: impl Fn(&JobDemand) -> f64) -> Vec<u32> {
    let mut order: Vec<usize> = (0..jobs.len()).collect();
    order.sort_by(|&a, &b| {
        key(&jobs[a])
            .total_cmp(&key(&jobs[b]))
            .then(jobs[a].submit.total_cmp(&jobs[b].submit))
            .then(a.cmp(&b))
    });
    let mut left = n;
    let mut out = vec![0; jobs.len()];
    for i in order {
        let g = jobs[i].wanted.min(left);
        out[i] = g;
        left -= g;
    }
    out
}

fn water_fill(n: u32, jobs: &[JobDemand], weight: impl Fn(&JobDemand) -> f64) -> Vec<u32> {
    let mut out = vec![0u32; jobs.len()];
    for _ in 0..n {
        let best = (0..jobs.len())
            .filter(|&i| out[i] < jobs[i].wanted)
            .min_by(|&a, &b| {
                let ka = f64::from(jobs[a].held + out[a]) * weight(&jobs[a]);
                let kb = f64::from(jobs[b].held + out[b]) * weight(&jobs[b]);
                ka.total_cmp(&kb)
                    .then(jobs[a].submit.total_cmp(&jobs[b].submit))
                    .then(a.cmp(&b))
            });
        let Some(i) = best else { break };
        out[i] += 1;
    }
    out
}

impl JobPolicy for FifoRule {
    fn split(&self, n: u32, jobs: &[JobDemand]) -> Vec<u32> {
        greedy_by(n, jobs, |j| j.submit)
    }
}
impl JobPolicy for FairPolicyRule {
    fn split(&self, n: u32, jobs: &[JobDemand]) -> Vec<u32> {
        water_fill(n, jobs, |_| 1.0)
    }
}
impl JobPolicy for DrfRule {
    fn split(&self, n: u32, jobs: &[JobDemand]) -> Vec<u32> {
        water_fill(n, jobs, |j| j.dominance)
    }
}
impl JobPolicy for EdfRule {
    fn split(&self, n: u32, jobs: &[JobDemand]) -> Vec<u32> {
        greedy_by(n, jobs, |j| j.deadline)
    }
}
impl JobPolicy for LrtfRule {
    fn split(&self, n: u32, jobs: &[JobDemand]) -> Vec<u32> {
        greedy_by(n, jobs, |j| j.remaining_secs)
    }
}

rule_of! {
    /// The rule of activation group 2 this policy fires.
    Policy => JobPolicy {
        Fifo => FifoRule,
        Fair => FairPolicyRule,
        Drf => DrfRule,
        Edf => EdfRule,
        Lrtf => LrtfRule,
    }
}

/// A queue's grant of `n` containers split among its jobs (`facts`) by
/// `policy`, placed on the `free` machines `may_use(k, machine)` allows
/// job k; `placed(k, machine, count)` hears of each placement. What a job
/// cannot place goes round again to the others. Returns each job's count.
pub(crate) fn place_in_queue(
    policy: Policy,
    n: u32,
    mut facts: Vec<JobDemand>,
    free: &mut [u32],
    may_use: &mut dyn FnMut(usize, usize) -> bool,
    placed: &mut dyn FnMut(usize, usize, u32),
) -> Vec<u32> {
    let mut got = vec![0u32; facts.len()];
    let mut left = n;
    while left > 0 {
        let split = policy.rule().split(left, &facts);
        let mut sum = 0;
        let mut refused = false;
        for (k, &count) in split.iter().enumerate() {
            let mut g = 0;
            for (m, f) in free.iter_mut().enumerate() {
                if g == count {
                    break;
                }
                if *f == 0 || !may_use(k, m) {
                    continue;
                }
                let take = (*f).min(count - g);
                *f -= take;
                g += take;
                placed(k, m, take);
            }
            got[k] += g;
            sum += g;
            facts[k].held += g;
            if g < count {
                refused |= facts[k].wanted > 0;
                facts[k].wanted = 0;
            } else {
                facts[k].wanted -= g;
            }
        }
        left -= sum;
        if sum == 0 && !refused {
            break;
        }
    }
    got
}

// ---------------------------------------------------------------------------
// Group 3: constraint checks.

/// Activation group 3: scheduling constraints `S_i = (S^Queue, S^Job)`.
pub trait ConstraintCheck {
    /// A queue's bounds in a group of `total` containers.
    fn queue_bounds(&self, queue: &QueueConf, total: u32) -> QueueBounds;
    /// Whether `job` may use a container on `machine`.
    fn may_use(&self, job: &TuneJob, machine: usize) -> bool;
}

/// No constraint: every queue may take the whole group, every job every
/// machine.
#[derive(Clone, Copy, Debug)]
pub struct Unconstrained;
/// Queue minimum and maximum (`min_share`, `max_share` of the group).
#[derive(Clone, Copy, Debug)]
pub struct QueueLimits;
/// Queue limits and task placement (a job's `machines`).
#[derive(Clone, Copy, Debug)]
pub struct LimitsAndPlacement;

fn share_of(total: u32, share: f64) -> u32 {
    ((f64::from(total) * share) + 1e-9).floor() as u32
}

impl ConstraintCheck for Unconstrained {
    fn queue_bounds(&self, _: &QueueConf, total: u32) -> QueueBounds {
        QueueBounds {
            min: 0,
            max: total,
            min_exact: 0.0,
        }
    }
    fn may_use(&self, _: &TuneJob, _: usize) -> bool {
        true
    }
}
impl ConstraintCheck for QueueLimits {
    fn queue_bounds(&self, q: &QueueConf, total: u32) -> QueueBounds {
        QueueBounds {
            min: share_of(total, q.min_share),
            max: share_of(total, q.max_share).max(1),
            min_exact: f64::from(total) * q.min_share,
        }
    }
    fn may_use(&self, _: &TuneJob, _: usize) -> bool {
        true
    }
}
impl ConstraintCheck for LimitsAndPlacement {
    fn queue_bounds(&self, q: &QueueConf, total: u32) -> QueueBounds {
        QueueLimits.queue_bounds(q, total)
    }
    fn may_use(&self, job: &TuneJob, machine: usize) -> bool {
        job.machines
            .as_ref()
            .is_none_or(|m| m.iter().any(|&x| x as usize == machine))
    }
}

/// Names the active rule of group 3.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ConstraintRule {
    /// [`Unconstrained`].
    None,
    /// [`QueueLimits`].
    QueueLimits,
    /// [`LimitsAndPlacement`] (the default: every constraint the jobs and
    /// queues state).
    #[default]
    LimitsAndPlacement,
}

rule_of! {
    /// The rule's implementation.
    ConstraintRule => ConstraintCheck {
        None => Unconstrained,
        QueueLimits => QueueLimits,
        LimitsAndPlacement => LimitsAndPlacement,
    }
}

// ---------------------------------------------------------------------------
// Group 4: execution-time estimation.

/// Activation group 4: a job's execution time under its allocations.
pub trait ExecTimeEstimate {
    /// The estimate for ranked `tasks` under `allocations`, the last one's
    /// next allocation moment being `horizon`.
    fn estimate(&self, tasks: &[Task], allocations: &[Allocation], horizon: f64) -> ExecEstimate;
}

/// Algorithm 2 ([`execution_time`]).
#[derive(Clone, Copy, Debug)]
pub struct Algorithm2Rule;
/// Work over containers ([`aggregate_time`]).
#[derive(Clone, Copy, Debug)]
pub struct AggregateRule;

impl ExecTimeEstimate for Algorithm2Rule {
    fn estimate(&self, tasks: &[Task], allocations: &[Allocation], horizon: f64) -> ExecEstimate {
        execution_time(tasks, allocations, horizon)
    }
}
impl ExecTimeEstimate for AggregateRule {
    fn estimate(&self, tasks: &[Task], allocations: &[Allocation], horizon: f64) -> ExecEstimate {
        aggregate_time(tasks, allocations, horizon)
    }
}

/// Names the active rule of group 4.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ExecRule {
    /// [`Algorithm2Rule`] (the paper's).
    #[default]
    Algorithm2,
    /// [`AggregateRule`].
    Aggregate,
}

rule_of! {
    /// The rule's implementation.
    ExecRule => ExecTimeEstimate {
        Algorithm2 => Algorithm2Rule,
        Aggregate => AggregateRule,
    }
}

// ---------------------------------------------------------------------------

/// Which reading of Algorithm 1 estimates (see [`super::latency`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Reading {
    /// Containers released task by task, stage barriers, allocation at
    /// every release, AM containers and YARN's AM and user limits (the
    /// default: the reading that ranks as the simulation does).
    #[default]
    PerTask,
    /// The pseudo-code as printed: a job's containers come back when it
    /// ends.
    Literal,
}

/// The waits a YARN cluster adds to every grant, which the per-task
/// reading models as the simulation does: containers are handed out only
/// when their node heartbeats (nodes staggered evenly over the interval),
/// and an application master asks for its tasks only after it has started.
/// On jobs of short tasks they are a large part of the latency (on the
/// demo's windows a sixth), so an estimate without them sits below the
/// simulation and misranks configurations that differ by a few seconds.
/// Whole milliseconds, as YARN's
/// `yarn.resourcemanager.nodemanagers.heartbeat-interval-ms`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Delays {
    /// Node heartbeat interval, ms (YARN's default 1000; 0: none).
    pub heartbeat_ms: u32,
    /// From an AM's grant to its first task requests, ms (default 1000,
    /// the simulation's).
    pub am_start_ms: u32,
}

impl Default for Delays {
    fn default() -> Self {
        Delays {
            heartbeat_ms: 1000,
            am_start_ms: 1000,
        }
    }
}

impl Delays {
    /// No waits: grants at the moment they are decided (the literal
    /// reading, as printed).
    pub const NONE: Delays = Delays {
        heartbeat_ms: 0,
        am_start_ms: 0,
    };

    /// The waits of a simulation with these settings (seconds, rounded to
    /// whole milliseconds).
    pub fn of_simulation(heartbeat_secs: f64, am_start_secs: f64) -> Self {
        let ms = |s: f64| (s * 1000.0).round().clamp(0.0, f64::from(u32::MAX)) as u32;
        Delays {
            heartbeat_ms: ms(heartbeat_secs),
            am_start_ms: ms(am_start_secs),
        }
    }

    /// The heartbeat interval, seconds.
    pub fn heartbeat_secs(&self) -> f64 {
        f64::from(self.heartbeat_ms) / 1000.0
    }

    /// The AM start-up, seconds.
    pub fn am_start_secs(&self) -> f64 {
        f64::from(self.am_start_ms) / 1000.0
    }

    /// When machine `m` of `n` next heartbeats at or after `t`: its
    /// heartbeats fall at `interval · m / n + k · interval`, as the
    /// simulation staggers its nodes.
    pub fn next_heartbeat(&self, m: usize, n: usize, t: f64) -> f64 {
        let h = self.heartbeat_secs();
        if h <= 0.0 || n == 0 {
            return t;
        }
        let offset = h * m as f64 / n as f64;
        if t <= offset {
            return offset;
        }
        // A tolerance, so a release landing on a heartbeat (up to
        // rounding) is served by it rather than the next.
        let k = ((t - offset) / h - 1e-9).ceil().max(0.0);
        offset + k * h
    }
}

/// The rules one configuration activates: one per group (group 2 once per
/// queue, from the configuration's policies).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RuleSet {
    /// Group 1 (from the scheduler).
    pub allocation: AllocationRule,
    /// Group 3.
    pub constraint: ConstraintRule,
    /// Group 4.
    pub exec: ExecRule,
    /// Whether each job's first container is its YARN application master
    /// and runs no task (true for the per-task reading, which also keeps
    /// YARN's AM limit; false for the literal one). The paper's own lower
    /// bound counts one AM per job; the simulation always has them.
    #[serde(default)]
    pub application_master: bool,
    /// The reading of Algorithm 1 (default per task).
    #[serde(default)]
    pub reading: Reading,
    /// Heartbeat and AM start-up waits of the per-task reading (default
    /// YARN's; the literal reading has none).
    #[serde(default)]
    pub delays: Delays,
}

impl RuleSet {
    /// The rules for `config` with the given constraint and estimation
    /// rules, in the default (per-task, with AMs) reading.
    pub fn for_config(config: &GroupConfig, constraint: ConstraintRule, exec: ExecRule) -> Self {
        RuleSet {
            allocation: match config.scheduler {
                SchedulerKind::Capacity => AllocationRule::Capacity,
                SchedulerKind::Fair => AllocationRule::Fair,
            },
            constraint,
            exec,
            application_master: true,
            reading: Reading::PerTask,
            delays: Delays::default(),
        }
    }

    /// Each queue of `config`'s bounds on a cluster of `total` containers
    /// under the constraint rule: both readings of Algorithm 1 start from
    /// them, so they are computed in one place.
    pub(crate) fn queue_bounds(&self, config: &GroupConfig, total: u32) -> Vec<QueueBounds> {
        let constraint = self.constraint.rule();
        config
            .queues
            .iter()
            .map(|q| constraint.queue_bounds(q, total))
            .collect()
    }

    /// The rules for `config` read literally: whole-job release, no AM
    /// container (Algorithm 1 as printed).
    pub fn literal(config: &GroupConfig, constraint: ConstraintRule, exec: ExecRule) -> Self {
        RuleSet {
            application_master: false,
            reading: Reading::Literal,
            delays: Delays::NONE,
            ..RuleSet::for_config(config, constraint, exec)
        }
    }

    /// These rules with the allocation rule `config`'s scheduler fires.
    pub fn with_config(self, config: &GroupConfig) -> Self {
        RuleSet {
            application_master: self.application_master,
            reading: self.reading,
            delays: self.delays,
            ..RuleSet::for_config(config, self.constraint, self.exec)
        }
    }
}
