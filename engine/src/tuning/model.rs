//! The model of a hierarchical scheduler (§3.2): one group's queues and
//! their configuration, its jobs and the containers it runs on.
//!
//! Resources are counted in containers (the paper: 1 core, 2 GB each), as
//! YARN allocates them. A configuration `C_i = (C^Queue, C^Sche)` is a
//! [`GroupConfig`]: per queue its share parameter (Capacity's `capacity` or
//! Fair's `weight`), its bounds (`maximum-capacity`, `minResources`,
//! `maxResources`) and its in-queue [`Policy`]. The cluster-level ratio
//! `c^Ratio` is the container count handed to the group.

use super::{check_range, TuneError};
use serde::{Deserialize, Serialize};

/// Which YARN scheduler shares the group's containers among its queues.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SchedulerKind {
    /// CapacityScheduler: each queue is guaranteed `capacity` of the group
    /// and may grow into idle containers up to `maximum-capacity`.
    Capacity,
    /// FairScheduler: queues share by `weight`, above `minResources` and
    /// below `maxResources`.
    Fair,
}

impl SchedulerKind {
    /// The name YARN and the CLI use.
    pub fn name(self) -> &'static str {
        match self {
            SchedulerKind::Capacity => "capacity",
            SchedulerKind::Fair => "fair",
        }
    }
}

/// The job scheduling policy within one queue (§3.3.2's second activation
/// group). YARN's Fair Scheduler knows `fifo`, `fair` and `drf`; EDF and
/// LRTF are the paper's further examples.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Policy {
    /// First in, first out: the earliest submitted job takes all it asks
    /// for before the next gets any.
    Fifo,
    /// Equal container counts among the queue's jobs.
    Fair,
    /// Dominant resource fairness: equal dominant shares (cores or memory).
    Drf,
    /// Earliest deadline first (jobs without a deadline last, by submission).
    Edf,
    /// Least remaining time first: the job with the least unstarted work.
    Lrtf,
}

impl Policy {
    /// Every policy, in the order grids list them.
    pub const ALL: [Policy; 5] = [
        Policy::Fifo,
        Policy::Fair,
        Policy::Drf,
        Policy::Edf,
        Policy::Lrtf,
    ];

    /// The name in YARN's allocation file (`schedulingPolicy`) and the CLI.
    pub fn name(self) -> &'static str {
        match self {
            Policy::Fifo => "fifo",
            Policy::Fair => "fair",
            Policy::Drf => "drf",
            Policy::Edf => "edf",
            Policy::Lrtf => "lrtf",
        }
    }

    /// The policy named `s` (case-insensitive).
    pub fn parse(s: &str) -> Option<Policy> {
        Policy::ALL
            .into_iter()
            .find(|p| p.name().eq_ignore_ascii_case(s.trim()))
    }
}

/// One queue of a group and its parameters.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct QueueConf {
    /// Queue name (the leaf name in YARN's files).
    pub name: String,
    /// Capacity: the guaranteed share of the group, in (0, 1], the queues'
    /// shares summing to 1; Fair: the weight (> 0, any scale).
    pub share: f64,
    /// The least share of the group the queue is given first when it has
    /// work (Fair `minResources`; Capacity: 0, its guarantee is `share`), in
    /// [0, 1].
    pub min_share: f64,
    /// The most the queue may hold (Capacity `maximum-capacity`, Fair
    /// `maxResources`), in (0, 1].
    pub max_share: f64,
    /// Its in-queue policy.
    pub policy: Policy,
    /// Share of the queue its application masters may hold (Capacity
    /// `maximum-am-resource-percent`, Fair `maxAMShare`); `None`: the
    /// scheduler's YARN default ([`super::limits`]).
    #[serde(default)]
    pub am_share: Option<f64>,
    /// Capacity `user-limit-factor`: one user (here: one job) may hold at
    /// most this multiple of the queue's capacity; `None`: YARN's default
    /// 1. Fair has no such limit.
    #[serde(default)]
    pub user_limit_factor: Option<f64>,
}

impl QueueConf {
    /// A queue with `share`, no minimum, no maximum below the whole group.
    pub fn new(name: impl Into<String>, share: f64, policy: Policy) -> Self {
        QueueConf {
            name: name.into(),
            share,
            min_share: 0.0,
            max_share: 1.0,
            policy,
            am_share: None,
            user_limit_factor: None,
        }
    }
}

/// A group-level configuration `(C^Queue, C^Sche)`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GroupConfig {
    /// The scheduler.
    pub scheduler: SchedulerKind,
    /// Its queues, in the order jobs' `queue` indices refer to.
    pub queues: Vec<QueueConf>,
}

impl GroupConfig {
    /// Checks shares, bounds and (for Capacity) that capacities sum to 1.
    pub fn validate(&self) -> Result<(), TuneError> {
        if self.queues.is_empty() {
            return Err(TuneError::BadConfig("no queues".into()));
        }
        for q in &self.queues {
            let name = |what: &str| format!("queue {}: {what}", q.name);
            if !(q.share.is_finite() && q.share > 0.0) {
                return Err(TuneError::BadParam {
                    name: name("share"),
                    why: format!("{} must be > 0", q.share),
                });
            }
            check_range(&name("min share"), q.min_share, 0.0, 1.0)?;
            check_range(&name("max share"), q.max_share, 1e-9, 1.0)?;
            if let Some(a) = q.am_share {
                check_range(&name("AM share"), a, 0.0, 1.0)?;
            }
            if let Some(f) = q.user_limit_factor {
                check_range(&name("user-limit-factor"), f, 1e-6, 1e6)?;
            }
            if q.min_share > q.max_share {
                return Err(TuneError::BadConfig(format!(
                    "queue {}: min share {} above max share {}",
                    q.name, q.min_share, q.max_share
                )));
            }
        }
        if self.scheduler == SchedulerKind::Capacity {
            let sum: f64 = self.queues.iter().map(|q| q.share).sum();
            if (sum - 1.0).abs() > 1e-6 {
                return Err(TuneError::BadConfig(format!(
                    "capacities sum to {:.4}, not 1 (100 %)",
                    sum
                )));
            }
        }
        Ok(())
    }

    /// A one-line description: `capacity 0.33/0.67 fifo` or
    /// `fair 25:75 drf` (the policy shown once when all queues share it).
    pub fn label(&self) -> String {
        let shares: Vec<String> = self
            .queues
            .iter()
            .map(|q| match self.scheduler {
                SchedulerKind::Capacity => format!("{:.3}", q.share),
                SchedulerKind::Fair => format!("{}", (q.share * 1000.0).round() / 1000.0),
            })
            .collect();
        let sep = match self.scheduler {
            SchedulerKind::Capacity => "/",
            SchedulerKind::Fair => ":",
        };
        let first = self.queues[0].policy;
        let policies = if self.queues.iter().all(|q| q.policy == first) {
            first.name().to_string()
        } else {
            self.queues
                .iter()
                .map(|q| q.policy.name())
                .collect::<Vec<_>>()
                .join(",")
        };
        format!(
            "{} {} {}",
            self.scheduler.name(),
            shares.join(sep),
            policies
        )
    }
}

/// One task of a job: its stage (execution order; tasks of one stage may
/// run in any order) and its execution time in one container.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Task {
    /// Execution order (0 first).
    pub stage: u32,
    /// Execution time, seconds (> 0).
    pub secs: f64,
}

/// A job as tuning sees it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TuneJob {
    /// Name.
    pub name: String,
    /// Submission time `b_v`, seconds.
    pub submit: f64,
    /// Its queue, an index into [`GroupConfig::queues`] (see
    /// [`queue_for_priority`]).
    pub queue: usize,
    /// Its tasks.
    pub tasks: Vec<Task>,
    /// How many containers it asks for at once (≥ 1): the most it runs in
    /// parallel.
    pub demand: u32,
    /// Cores per container (DRF's first resource; the paper's container: 1).
    pub cores: f64,
    /// Memory per container, GB (DRF's second resource; the paper: 2).
    pub mem_gb: f64,
    /// Deadline, seconds, for EDF (`None`: after every deadline).
    pub deadline: Option<f64>,
    /// Task placement: the machines it may use (`None`: any).
    pub machines: Option<Vec<u32>>,
}

impl TuneJob {
    /// A job with `tasks` of one stage each as given, asking for as many
    /// containers as its widest stage, standard containers, no deadline,
    /// no placement constraint.
    pub fn new(name: impl Into<String>, submit: f64, queue: usize, tasks: Vec<Task>) -> Self {
        let mut widths = std::collections::BTreeMap::<u32, u32>::new();
        for t in &tasks {
            *widths.entry(t.stage).or_default() += 1;
        }
        TuneJob {
            name: name.into(),
            submit,
            queue,
            demand: widths.values().copied().max().unwrap_or(1).max(1),
            tasks,
            cores: 1.0,
            mem_gb: 2.0,
            deadline: None,
            machines: None,
        }
    }

    /// Total task time, seconds.
    pub fn work(&self) -> f64 {
        self.tasks.iter().map(|t| t.secs).sum()
    }

    /// DRF's weight of one of its containers: its dominant share of a
    /// standard container (1 core, 2 GB), at least 1 of either.
    pub fn dominance(&self) -> f64 {
        (self.cores / 1.0)
            .max(self.mem_gb / 2.0)
            .max(f64::MIN_POSITIVE)
    }

    /// Its tasks ranked by execution order (Algorithm 2, line 1; stable,
    /// so tasks of one stage keep their given order).
    pub fn ranked_tasks(&self) -> Vec<Task> {
        let mut t = self.tasks.clone();
        t.sort_by_key(|t| t.stage);
        t
    }
}

/// Checks jobs against a configuration of `queues` queues.
pub fn validate_jobs(jobs: &[TuneJob], queues: usize) -> Result<(), TuneError> {
    for (index, j) in jobs.iter().enumerate() {
        let bad = |why: String| TuneError::BadJob {
            index,
            name: j.name.clone(),
            why,
        };
        if !(j.submit.is_finite() && j.submit >= 0.0) {
            return Err(bad(format!("submission time {} must be ≥ 0", j.submit)));
        }
        if j.queue >= queues {
            return Err(bad(format!(
                "queue {} does not exist ({} queues)",
                j.queue, queues
            )));
        }
        if j.tasks.is_empty() {
            return Err(bad("no tasks".into()));
        }
        if let Some(t) = j
            .tasks
            .iter()
            .find(|t| !(t.secs.is_finite() && t.secs > 0.0))
        {
            return Err(bad(format!("task time {} must be > 0", t.secs)));
        }
        if j.demand == 0 {
            return Err(bad("asks for 0 containers".into()));
        }
        if !(j.cores.is_finite() && j.cores > 0.0 && j.mem_gb.is_finite() && j.mem_gb > 0.0) {
            return Err(bad("container cores and memory must be > 0".into()));
        }
        if matches!(&j.machines, Some(m) if m.is_empty()) {
            return Err(bad("may run on no machine".into()));
        }
    }
    Ok(())
}

/// The containers of a group: how many each machine offers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cluster {
    /// Containers per machine.
    pub machines: Vec<u32>,
}

impl Cluster {
    /// `containers` containers on machines of `per_machine` each (the last
    /// one holding the rest).
    pub fn of(containers: u32, per_machine: u32) -> Self {
        let per = per_machine.max(1);
        let mut machines = vec![per; (containers / per) as usize];
        if !containers.is_multiple_of(per) {
            machines.push(containers % per);
        }
        Cluster { machines }
    }

    /// R, the number of containers.
    pub fn containers(&self) -> u32 {
        self.machines.iter().sum()
    }
}

/// §4.3's queue of a job of `priority` (2–8, the trace's best-effort
/// classes) when the group has `queues` queues: with 2 queues priorities
/// 2–5 and 6–8; with 4 queues 2–3, 4–5, 6–7 and 8. Other queue counts
/// split 2–8 evenly; priorities outside 2–8 are clamped into it.
pub fn queue_for_priority(priority: u8, queues: usize) -> usize {
    let p = priority.clamp(2, 8);
    match queues {
        0 | 1 => 0,
        2 => usize::from(p >= 6),
        4 => match p {
            2 | 3 => 0,
            4 | 5 => 1,
            6 | 7 => 2,
            _ => 3,
        },
        n => ((usize::from(p - 2) * n) / 7).min(n - 1),
    }
}
