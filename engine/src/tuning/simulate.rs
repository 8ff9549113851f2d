//! Ground truth: an event-driven simulation of YARN's Capacity and Fair
//! schedulers at container granularity, written apart from Algorithms 1–2
//! (it shares only the model types), to give the *actual* latency of a
//! configuration (§4.3's "actual best").
//!
//! What it models, as YARN does it:
//!
//! - **Node heartbeats.** Containers are handed out only when a node
//!   heartbeats (every `heartbeat_secs`, nodes staggered evenly), as many
//!   as the node has free (multiple assignments per heartbeat).
//! - **Application masters.** Each job first gets one AM container, held
//!   until the job ends; its task requests appear `am_start_secs` later.
//!   A queue runs at most [`am_limit`] AMs: Capacity's
//!   `maximum-am-resource-percent` (default 0.1) of its capacity, Fair's
//!   `maxAMShare` (default 0.5) of its weight's fraction, at least one —
//!   the queue's own value from its configuration, else YARN's default,
//!   unless `am_share` overrides every queue. Applications are
//!   activated in submission order, as the `LeafQueue` activates its
//!   pending applications: while a queue is below its AM limit, the AM
//!   slots go to its earliest waiting jobs, on whatever node their AM
//!   lands — a later job does not take a slot because its placement
//!   happens to fit the node that heartbeats (the estimator admits the
//!   same way).
//! - **User limit.** Under Capacity a job (its own user) holds at most
//!   `user-limit-factor` × its queue's capacity ([`job_limit`]).
//! - **Stages.** A stage's tasks are requested only when the previous
//!   stage has finished (Algorithm 2 only ranks them); a job never runs
//!   more task containers than its `demand`. A task's container is
//!   released when the task ends.
//! - **Queue choice.** Capacity: among queues with requests and below
//!   `maximum-capacity`, the least used relative to its guaranteed
//!   capacity (`CSQueueUtils`' used-capacity order). Fair: queues below
//!   their `minResources` first (least used relative to it), then the
//!   least used per weight (`FairSharePolicy`), below `maxResources`.
//! - **In-queue choice.** FIFO by submission; Fair by fewest containers;
//!   DRF by dominant share; EDF by deadline; LRTF by unstarted work.
//! - **Placement.** A job only takes containers on its machines.
//! - **Noise.** Each task runs `secs · exp(σZ − σ²/2)` (mean-preserving
//!   log-normal, `Z ~ N(0,1)`, σ = `noise`).
//!
//! The configuration may change while the simulation runs
//! ([`Simulation::set_config`]), which §4.4's run-time adaptation needs.

use super::limits::{am_limit, job_limit};
use super::model::{validate_jobs, Cluster, GroupConfig, Policy, SchedulerKind, Task, TuneJob};
use super::{check_range, TuneError};
use crate::numerics::Rng;
use serde::{Deserialize, Serialize};
use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// Settings of the simulation.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SimParams {
    /// NodeManager heartbeat interval, seconds (default 1, YARN's
    /// `yarn.resourcemanager.nodemanagers.heartbeat-interval-ms`).
    pub heartbeat_secs: f64,
    /// From the AM container's grant to its first requests, seconds
    /// (default 1).
    pub am_start_secs: f64,
    /// σ of the task-time noise (default 0.1).
    pub noise: f64,
    /// Share of a queue its AMs may hold, for every queue (default
    /// `None`: each queue's own, else its scheduler's YARN default).
    #[serde(default)]
    pub am_share: Option<f64>,
    /// Seed of the noise (default 7).
    pub seed: u64,
}

impl Default for SimParams {
    fn default() -> Self {
        SimParams {
            heartbeat_secs: 1.0,
            am_start_secs: 1.0,
            noise: 0.1,
            am_share: None,
            seed: 7,
        }
    }
}

impl SimParams {
    /// Checks the ranges.
    pub fn validate(&self) -> Result<(), TuneError> {
        check_range("heartbeat", self.heartbeat_secs, 1e-3, 3600.0)?;
        check_range("AM start", self.am_start_secs, 0.0, 3600.0)?;
        check_range("noise", self.noise, 0.0, 3.0)?;
        match self.am_share {
            Some(a) => check_range("AM share", a, 0.0, 1.0),
            None => Ok(()),
        }
    }
}

/// One job's simulated outcome.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SimJob {
    /// Name.
    pub name: String,
    /// Submission, seconds.
    pub submit: f64,
    /// Completion, seconds.
    pub finish: f64,
    /// `finish − submit`.
    pub latency_secs: f64,
}

/// A simulation's outcome.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SimReport {
    /// Mean latency, seconds.
    pub mean_latency_secs: f64,
    /// Per job, in input order.
    pub jobs: Vec<SimJob>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    TaskDone { job: usize, node: usize },
    Submit { job: usize },
    AmReady { job: usize },
    Heartbeat { node: usize },
}

#[derive(Debug)]
struct Event {
    at: f64,
    seq: u64,
    kind: Kind,
}

impl PartialEq for Event {
    fn eq(&self, o: &Self) -> bool {
        self.cmp(o) == Ordering::Equal
    }
}
impl Eq for Event {}
impl PartialOrd for Event {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Event {
    /// Reversed: the heap pops the earliest; at one time, task ends, then
    /// submissions, AM starts, heartbeats; then by insertion.
    fn cmp(&self, o: &Self) -> Ordering {
        o.at.total_cmp(&self.at)
            .then_with(|| o.kind.cmp(&self.kind))
            .then_with(|| o.seq.cmp(&self.seq))
    }
}

#[derive(Clone, Debug, Default)]
struct App {
    submitted: bool,
    am_node: Option<usize>,
    am_ready: bool,
    /// Stages left, each its tasks (times with noise), next first.
    stages: Vec<Vec<f64>>,
    /// Requested tasks of the current stage not yet started.
    pending: Vec<f64>,
    running: u32,
    finish: Option<f64>,
}

impl App {
    fn wants(&self, demand: u32) -> bool {
        self.finish.is_none()
            && self.submitted
            && (self.am_node.is_none()
                || (self.am_ready && !self.pending.is_empty() && self.running < demand))
    }
    fn containers(&self) -> u32 {
        self.running + u32::from(self.am_node.is_some() && self.finish.is_none())
    }
}

/// A simulation in progress.
pub struct Simulation<'a> {
    jobs: &'a [TuneJob],
    /// Job indices by submission (then index): the activation order.
    order: Vec<usize>,
    config: GroupConfig,
    params: SimParams,
    total: u32,
    free: Vec<u32>,
    apps: Vec<App>,
    events: BinaryHeap<Event>,
    seq: u64,
    now: f64,
    unfinished: usize,
    /// Last time anything but a heartbeat happened or a container was
    /// granted, to stop a simulation that can no longer progress.
    last_change: f64,
    stall_secs: f64,
}

impl<'a> Simulation<'a> {
    /// A simulation of `jobs` on `cluster` under `config`, at time 0.
    pub fn new(
        jobs: &'a [TuneJob],
        cluster: &Cluster,
        config: &GroupConfig,
        params: &SimParams,
    ) -> Result<Self, TuneError> {
        params.validate()?;
        config.validate()?;
        validate_jobs(jobs, config.queues.len())?;
        if cluster.containers() == 0 {
            return Err(TuneError::BadParam {
                name: "containers".into(),
                why: "the cluster has no container".into(),
            });
        }
        let mut rng = Rng::new(params.seed);
        let sigma = params.noise;
        let apps = jobs
            .iter()
            .map(|j| {
                let mut ranked: Vec<Task> = j.tasks.clone();
                ranked.sort_by_key(|t| t.stage);
                let mut stages: Vec<Vec<f64>> = Vec::new();
                let mut last = None;
                for t in ranked {
                    let secs = t.secs * (sigma * rng.normal() - sigma * sigma / 2.0).exp();
                    if last != Some(t.stage) {
                        stages.push(Vec::new());
                        last = Some(t.stage);
                    }
                    if let Some(s) = stages.last_mut() {
                        s.push(secs);
                    }
                }
                stages.reverse();
                App {
                    stages,
                    ..App::default()
                }
            })
            .collect();
        let mut order: Vec<usize> = (0..jobs.len()).collect();
        order.sort_by(|&a, &b| jobs[a].submit.total_cmp(&jobs[b].submit).then(a.cmp(&b)));
        let mut sim = Simulation {
            jobs,
            order,
            config: config.clone(),
            params: *params,
            total: cluster.containers(),
            free: cluster.machines.clone(),
            apps,
            events: BinaryHeap::new(),
            seq: 0,
            now: 0.0,
            unfinished: jobs.len(),
            last_change: 0.0,
            stall_secs: 3600.0 + 10.0 * jobs.iter().map(TuneJob::work).sum::<f64>(),
        };
        for (job, j) in jobs.iter().enumerate() {
            sim.push(j.submit, Kind::Submit { job });
        }
        let n = cluster.machines.len();
        for node in 0..n {
            let offset = params.heartbeat_secs * node as f64 / n as f64;
            sim.push(offset, Kind::Heartbeat { node });
        }
        Ok(sim)
    }

    fn push(&mut self, at: f64, kind: Kind) {
        self.seq += 1;
        self.events.push(Event {
            at,
            seq: self.seq,
            kind,
        });
    }

    /// The simulated time.
    pub fn now(&self) -> f64 {
        self.now
    }

    /// Whether every job has finished.
    pub fn done(&self) -> bool {
        self.unfinished == 0
    }

    /// Switches to `config` (same queues) from now on.
    pub fn set_config(&mut self, config: &GroupConfig) -> Result<(), TuneError> {
        config.validate()?;
        if config.queues.len() != self.config.queues.len() {
            return Err(TuneError::BadConfig(format!(
                "{} queues, the simulation has {}",
                config.queues.len(),
                self.config.queues.len()
            )));
        }
        self.config = config.clone();
        Ok(())
    }

    /// Runs every event up to and including `until`.
    pub fn run_until(&mut self, until: f64) {
        while let Some(e) = self.events.peek() {
            if e.at > until || self.unfinished == 0 || self.stalled() {
                break;
            }
            let Some(e) = self.events.pop() else { break };
            self.now = e.at;
            if !matches!(e.kind, Kind::Heartbeat { .. }) {
                self.last_change = self.now;
            }
            self.step(e.kind);
        }
        if until.is_finite() && !self.stalled() {
            self.now = self.now.max(until);
        }
    }

    /// Whether nothing has happened for far longer than all the work
    /// takes (a queue whose maximum fits only its AM containers, say).
    pub fn stalled(&self) -> bool {
        self.unfinished > 0
            && self.now - self.last_change > self.stall_secs
            && self
                .events
                .iter()
                .all(|e| matches!(e.kind, Kind::Heartbeat { .. }))
    }

    /// What a tuner sees at the current time: every submitted, unfinished
    /// job with its not yet finished tasks (running ones counted whole,
    /// stages kept), submitted at 0 — the tuning snapshot.
    pub fn snapshot(&self) -> Vec<TuneJob> {
        let mut out = Vec::new();
        for (j, a) in self.jobs.iter().zip(&self.apps) {
            if !a.submitted || a.finish.is_some() {
                continue;
            }
            let mut tasks: Vec<Task> = Vec::new();
            // Running tasks: their times are unknown to a tuner; it sees
            // the job's mean task time.
            let mean = j.work() / j.tasks.len() as f64;
            tasks.extend((0..a.running).map(|_| Task {
                stage: 0,
                secs: mean,
            }));
            tasks.extend(a.pending.iter().map(|_| Task {
                stage: 0,
                secs: mean,
            }));
            for (k, s) in a.stages.iter().rev().enumerate() {
                tasks.extend(s.iter().map(|_| Task {
                    stage: k as u32 + 1,
                    secs: mean,
                }));
            }
            if a.am_node.is_none() {
                tasks = j.tasks.clone();
            }
            if tasks.is_empty() {
                continue;
            }
            let mut t = j.clone();
            t.submit = 0.0;
            t.tasks = tasks;
            out.push(t);
        }
        out
    }

    fn step(&mut self, kind: Kind) {
        match kind {
            Kind::Submit { job } => self.apps[job].submitted = true,
            Kind::AmReady { job } => {
                let a = &mut self.apps[job];
                a.am_ready = true;
                a.pending = a.stages.pop().unwrap_or_default();
            }
            Kind::TaskDone { job, node } => {
                self.free[node] += 1;
                let a = &mut self.apps[job];
                a.running -= 1;
                if a.running == 0 && a.pending.is_empty() {
                    match a.stages.pop() {
                        Some(next) => a.pending = next,
                        None => {
                            a.finish = Some(self.now);
                            if let Some(n) = a.am_node {
                                self.free[n] += 1;
                            }
                            self.unfinished -= 1;
                        }
                    }
                }
            }
            Kind::Heartbeat { node } => {
                while self.free[node] > 0 {
                    let Some(job) = self.choose(node) else { break };
                    self.free[node] -= 1;
                    self.last_change = self.now;
                    let a = &mut self.apps[job];
                    if a.am_node.is_none() {
                        a.am_node = Some(node);
                        let at = self.now + self.params.am_start_secs;
                        self.push(at, Kind::AmReady { job });
                    } else {
                        let secs = a.pending.pop().unwrap_or(0.0);
                        a.running += 1;
                        let at = self.now + secs;
                        self.push(at, Kind::TaskDone { job, node });
                    }
                }
                if self.unfinished > 0 {
                    let at = self.now + self.params.heartbeat_secs;
                    self.push(at, Kind::Heartbeat { node });
                }
            }
        }
    }

    /// The app the scheduler serves next on `node`, if any.
    fn choose(&self, node: usize) -> Option<usize> {
        let nq = self.config.queues.len();
        let mut used = vec![0u32; nq];
        let mut ams = vec![0u32; nq];
        for (j, a) in self.jobs.iter().zip(&self.apps) {
            used[j.queue] += a.containers();
            ams[j.queue] += u32::from(a.am_node.is_some() && a.finish.is_none());
        }
        let total = f64::from(self.total);
        let (kind, queues) = (self.config.scheduler, &self.config.queues);
        // Activation in submission order: the earliest waiting jobs of a
        // queue take its free AM slots.
        let mut admitted = ams.clone();
        let mut active = vec![false; self.jobs.len()];
        for &v in &self.order {
            let (j, a) = (&self.jobs[v], &self.apps[v]);
            if a.submitted && a.finish.is_none() && a.am_node.is_none() {
                let limit = am_limit(kind, queues, j.queue, self.total, self.params.am_share);
                if admitted[j.queue] < limit {
                    admitted[j.queue] += 1;
                    active[v] = true;
                }
            }
        }
        let eligible = |v: usize| {
            let j = &self.jobs[v];
            let a = &self.apps[v];
            let room = match a.am_node {
                None => active[v],
                Some(_) => a.containers() < job_limit(kind, queues, j.queue, self.total, 1),
            };
            a.wants(j.demand)
                && room
                && j.machines
                    .as_ref()
                    .is_none_or(|m| m.iter().any(|&x| x as usize == node))
        };
        let mut queues: Vec<usize> = (0..nq)
            .filter(|&q| {
                let max = (self.config.queues[q].max_share * total + 1e-9)
                    .floor()
                    .max(1.0);
                f64::from(used[q]) < max
                    && (0..self.jobs.len()).any(|v| self.jobs[v].queue == q && eligible(v))
            })
            .collect();
        let key = |q: usize| -> (f64, f64) {
            let c = &self.config.queues[q];
            let u = f64::from(used[q]);
            match self.config.scheduler {
                SchedulerKind::Capacity => (0.0, u / (c.share * total).max(1e-9)),
                SchedulerKind::Fair => {
                    let min = c.min_share * total;
                    if u < min {
                        (-1.0, u / min)
                    } else {
                        (0.0, u / c.share)
                    }
                }
            }
        };
        queues.sort_by(|&a, &b| {
            let (ka, kb) = (key(a), key(b));
            ka.0.total_cmp(&kb.0)
                .then(ka.1.total_cmp(&kb.1))
                .then(a.cmp(&b))
        });
        let q = *queues.first()?;
        let policy = self.config.queues[q].policy;
        (0..self.jobs.len())
            .filter(|&v| self.jobs[v].queue == q && eligible(v))
            .min_by(|&a, &b| {
                let ka = self.app_key(a, policy);
                let kb = self.app_key(b, policy);
                ka.total_cmp(&kb)
                    .then(self.jobs[a].submit.total_cmp(&self.jobs[b].submit))
                    .then(a.cmp(&b))
            })
    }

    fn app_key(&self, v: usize, policy: Policy) -> f64 {
        let j = &self.jobs[v];
        let a = &self.apps[v];
        match policy {
            Policy::Fifo => j.submit,
            Policy::Fair => f64::from(a.containers()),
            Policy::Drf => f64::from(a.containers()) * j.dominance(),
            Policy::Edf => j.deadline.unwrap_or(f64::INFINITY),
            Policy::Lrtf => a.pending.iter().sum::<f64>() + a.stages.iter().flatten().sum::<f64>(),
        }
    }

    /// Runs to the end and reports.
    pub fn finish(mut self) -> SimReport {
        self.run_until(f64::INFINITY);
        let jobs: Vec<SimJob> = self
            .jobs
            .iter()
            .zip(&self.apps)
            .map(|(j, a)| {
                let finish = a.finish.unwrap_or(f64::INFINITY);
                SimJob {
                    name: j.name.clone(),
                    submit: j.submit,
                    finish,
                    latency_secs: finish - j.submit,
                }
            })
            .collect();
        let mean = if jobs.is_empty() {
            0.0
        } else {
            jobs.iter().map(|j| j.latency_secs).sum::<f64>() / jobs.len() as f64
        };
        SimReport {
            mean_latency_secs: mean,
            jobs,
        }
    }
}

/// Simulates `jobs` on `cluster` under `config` to the end. A job that can
/// never run (placement on no machine of the cluster) is refused.
pub fn simulate(
    jobs: &[TuneJob],
    cluster: &Cluster,
    config: &GroupConfig,
    params: &SimParams,
) -> Result<SimReport, TuneError> {
    for (index, j) in jobs.iter().enumerate() {
        if let Some(m) = &j.machines {
            if !m.iter().any(|&x| (x as usize) < cluster.machines.len()) {
                return Err(TuneError::BadJob {
                    index,
                    name: j.name.clone(),
                    why: "may run on no machine of the cluster".into(),
                });
            }
        }
    }
    let sim = Simulation::new(jobs, cluster, config, params)?;
    let report = sim.finish();
    if let Some((index, j)) = report
        .jobs
        .iter()
        .enumerate()
        .find(|(_, j)| !j.finish.is_finite())
    {
        return Err(TuneError::BadJob {
            index,
            name: j.name.clone(),
            why: "never finishes: its queue's maximum leaves no container for its tasks".into(),
        });
    }
    Ok(report)
}
