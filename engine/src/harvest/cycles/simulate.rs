//! The task-scheduling simulation of §6 (Figures 13–14): a month of
//! primary utilization replayed on servers of 12 cores with 4 reserved for
//! the primary tenant, batch jobs (DAGs of one-core tasks) arriving as a
//! Poisson process (mean 300 s), under two systems:
//!
//! - **YARN-PT** (primary-aware YARN, stock Tez): its requests name no
//!   class, so RM-H places each task by its default policy
//!   ([`super::placement`]: by default one container per heartbeat, any
//!   server with a free core alike); at every utilization slot the NM
//!   rounds the primary's usage up to whole cores and, when the reserve is
//!   violated, kills containers youngest first (§5.1: "by killing enough
//!   containers from youngest to oldest"); killed tasks rerun from
//!   scratch, first in line.
//! - **YARN-H** (YARN-PT plus Tez-H's class selection): at arrival each
//!   job runs Algorithm 1 on the classes of the replayed month (clustered
//!   as [`crate::harvest::tenants::classify`] does, headroom from the class's current
//!   utilization and the batch containers already there) and its tasks go
//!   only to the picked classes' servers, drawn ∝ their free cores (§5.1:
//!   "with a probability proportional to the server's available
//!   resources"); with no class picked they go by the default policy, as
//!   YARN-PT's. The NM and its kill rule are the same in both.
//!
//! Every job that arrives within the horizon counts: the run goes on past
//! it (no more arrivals, the primaries replayed from the first slot again)
//! until the last job has finished, or for as long again as the horizon at
//! most; a job still unfinished then counts with its time so far and is
//! reported ([`RunResult::unfinished`]). Averaging over the finished jobs
//! alone would drop the slowest, and a different set for each system.
//!
//! Primary utilization is each tenant's average server, scaled to a target
//! average per level ([`crate::harvest::tenants::scaling`]). The job DAGs'
//! lengths are first multiplied by [`SimParams::duration_scale`] (our
//! generated queries' calibration to the testbed's job times); then, as the
//! paper does, "their lengths and container usage" by one scaling factor
//! f, chosen so the offered batch work is [`SimParams::batch_load`] of the
//! cluster's cores (f² × the base work; with
//! [`SimParams::scale_lengths`] off, only the task counts, × f²). A job's
//! type comes from its previous run in the simulation (the first is
//! medium), against thresholds derived per level from the workload and the
//! classes ([`super::thresholds`]) or fixed ([`SimParams::thresholds`]).
//! Both systems see the same arrivals (same seed): the comparison is
//! paired, run by run. For YARN-PT the report also counts the branch
//! Algorithm 1 *would* have taken for each job (drawn on a stream of its
//! own, not followed), so the two systems' branch shares can be read side
//! by side; kills are counted per pattern of the class they hit.
//!
//! Runs are independent: the levels' runs go to [`crate::parallel`]
//! (every core natively, one after another in the browser); the results do
//! not depend on the thread count.

use super::completions::Completions;
use super::containers::{Containers, Running};
use super::dag::JobDag;
use super::free_cores::FreeCores;
use super::placement::{DefaultPlacement, DefaultPolicy};
use super::select::{select_indices, ClassState, JobRequest, Outcome, SelectParams, SelectScratch};
use super::thresholds::{thresholds, JobDemand, ThresholdDerivation, ThresholdRule};
use crate::harvest::error::{check, HarvestError};
use crate::harvest::tenants::classify::{classify, Classification, ClassifyParams};
use crate::harvest::tenants::scaling::{scale_to, Scaling};
use crate::harvest::tenants::tenant::TenantSet;
use crate::numerics::MinAvgMax;
use crate::numerics::Rng;
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// Settings of the simulation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SimParams {
    /// Cores per server (default 12, §6).
    pub cores_per_server: f64,
    /// Mean inter-arrival time of jobs, seconds (default 300, §6).
    pub mean_interarrival_secs: f64,
    /// Days simulated (default 30: "one month"; at most the tenants' span).
    pub days: f64,
    /// Target average primary utilizations, percent (default 10, 20, 30,
    /// 40, 50).
    pub levels: Vec<f64>,
    /// How utilization is scaled to a level (default linear).
    pub scaling: Scaling,
    /// Seeded runs per level (default 5, as Figures 13–14).
    pub runs: usize,
    /// Seed of the first run (default 7; run r uses seed + r).
    pub seed: u64,
    /// Offered batch work as a share of the cluster's cores (default 0.21:
    /// on the paper's testbed YARN-H raised the average CPU utilization
    /// from 33 % to 54 %).
    pub batch_load: f64,
    /// Multiplier of the DAGs' task lengths before the scaling factor
    /// (default 4: a generated TPC-DS-like query then takes ~1,000 s when
    /// it gets its containers, as the testbed's 938–1,181 s averages).
    pub duration_scale: f64,
    /// Whether the scaling factor multiplies task lengths as well as task
    /// counts (default true, §6: "multiply their lengths and container
    /// usage by a scaling factor"); false scales the counts alone.
    pub scale_lengths: bool,
    /// How Algorithm 1's thresholds are set (default derived per level;
    /// `fixed` uses `select`'s, e.g. the paper's 173 and 433 s).
    pub thresholds: ThresholdRule,
    /// Algorithm 1's thresholds (when fixed), weights, reserve (default 4
    /// cores) and container size (1 core).
    pub select: SelectParams,
    /// The clustering of YARN-H.
    pub classify: ClassifyParams,
    /// How RM-H places containers whose request names no class: all of
    /// YARN-PT's, YARN-H's with no class picked (default `heartbeat`).
    pub placement: DefaultPlacement,
    /// Threads for the runs, 0 for every core (one in the browser); the
    /// results do not change.
    pub threads: usize,
}

impl Default for SimParams {
    fn default() -> Self {
        SimParams {
            cores_per_server: 12.0,
            mean_interarrival_secs: 300.0,
            days: 30.0,
            levels: vec![10.0, 20.0, 30.0, 40.0, 50.0],
            scaling: Scaling::Linear,
            runs: 5,
            seed: 7,
            batch_load: 0.21,
            duration_scale: 4.0,
            scale_lengths: true,
            thresholds: ThresholdRule::Derived,
            select: SelectParams::default(),
            classify: ClassifyParams::default(),
            placement: DefaultPlacement::default(),
            threads: 0,
        }
    }
}

impl SimParams {
    /// Checks the settings.
    pub fn validate(&self) -> Result<(), HarvestError> {
        check(
            self.cores_per_server.is_finite() && self.cores_per_server >= 1.0,
            "cores_per_server",
            "must be at least 1",
        )?;
        check(
            self.mean_interarrival_secs.is_finite() && self.mean_interarrival_secs > 0.0,
            "mean_interarrival_secs",
            "must be positive",
        )?;
        check(
            self.days.is_finite() && self.days > 0.0,
            "days",
            "must be positive",
        )?;
        check(!self.levels.is_empty(), "levels", "must not be empty")?;
        check(
            self.levels.iter().all(|l| (0.0..100.0).contains(l)),
            "levels",
            "must be in [0, 100)",
        )?;
        check(self.runs >= 1, "runs", "must be at least 1")?;
        check(
            self.batch_load.is_finite() && self.batch_load > 0.0,
            "batch_load",
            "must be positive",
        )?;
        check(
            self.duration_scale.is_finite() && self.duration_scale > 0.0,
            "duration_scale",
            "must be positive",
        )?;
        self.select.validate()?;
        self.classify.validate()
    }
}

/// The two systems compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum System {
    /// Primary-aware YARN without class selection.
    #[serde(rename = "YARN-PT")]
    YarnPt,
    /// YARN-PT plus Algorithm 1.
    #[serde(rename = "YARN-H")]
    YarnH,
}

/// One seeded run of one system.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunResult {
    /// The run's seed.
    pub seed: u64,
    /// Jobs that arrived (within the horizon).
    pub jobs: usize,
    /// Of them, jobs that finished (the run goes on past the horizon for
    /// as long again at most).
    pub finished: usize,
    /// Jobs still unfinished when the run stopped: counted in
    /// `avg_job_secs` with their time so far.
    pub unfinished: usize,
    /// Average execution time (arrival to last task) over every job that
    /// arrived, seconds.
    pub avg_job_secs: f64,
    /// Containers killed to restore the reserve.
    pub kills: u64,
    /// Tasks started (reruns included).
    pub tasks_started: u64,
    /// Average utilization of all cores, primary and batch, percent.
    pub utilization: f64,
    /// Of which the primary tenants', percent.
    pub primary_utilization: f64,
    /// Jobs by Algorithm 1's outcome (one, several, none); for YARN-PT
    /// the outcome it would have had (not followed).
    pub outcomes: [usize; 3],
    /// Kills on the servers of periodic, constant and unpredictable classes.
    pub kills_by_pattern: [u64; 3],
    /// Kills of the tasks of jobs by Algorithm 1's branch (one, several,
    /// none; for YARN-PT the branch the job would have taken).
    pub kills_by_branch: [u64; 3],
    /// Time-average share of the servers with no free batch core over the
    /// horizon, percent: how tightly a system packs its containers (a
    /// primary's rise kills only on a full server).
    pub full_servers: f64,
    /// Jobs of each type at arrival (short, medium, long).
    pub types: [usize; 3],
}

/// One system at one level.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SystemResult {
    /// The system.
    pub system: System,
    /// Each run.
    pub runs: Vec<RunResult>,
    /// Average job execution time over runs, seconds.
    pub avg_job_secs: MinAvgMax,
    /// Kills over runs.
    pub kills: MinAvgMax,
    /// Utilization over runs, percent.
    pub utilization: MinAvgMax,
    /// Share of jobs per Algorithm 1 branch (one, several, none) over the
    /// runs' jobs.
    pub branch_shares: [f64; 3],
}

/// Both systems at one level.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LevelResult {
    /// Target average primary utilization, percent.
    pub level: f64,
    /// The scaling constant that reached it.
    pub scale: f64,
    /// Classes YARN-H selected among.
    pub classes: usize,
    /// The thresholds used and their derivation.
    pub thresholds: ThresholdDerivation,
    /// YARN-PT.
    pub pt: SystemResult,
    /// YARN-H.
    pub h: SystemResult,
    /// Per run, 1 − H's average job time / PT's, in percent.
    pub improvement: MinAvgMax,
}

/// The paper's figures the report is read against.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PaperFigures {
    /// Figure 14, linear scaling.
    pub linear_avg_improvement: String,
    /// Figure 14, root scaling.
    pub root_avg_improvement: String,
    /// Figure 14, largest maxima.
    pub max_improvement: String,
}

/// The simulation's report.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SimReport {
    /// Servers simulated.
    pub servers: usize,
    /// Days simulated.
    pub days: f64,
    /// The scaling.
    pub scaling: Scaling,
    /// Job templates.
    pub templates: usize,
    /// Multiplier of the templates' task counts (to reach the batch load).
    pub task_scale: f64,
    /// Multiplier of the templates' task lengths (`duration_scale` × the
    /// scaling factor when lengths are scaled).
    pub length_scale: f64,
    /// Per level.
    pub levels: Vec<LevelResult>,
    /// The paper's results.
    pub paper: PaperFigures,
}

/// A job template after scaling.
struct Template {
    tasks: Vec<u32>,
    secs: Vec<f64>,
    succ: Vec<Vec<usize>>,
    preds: Vec<u32>,
    containers: u64,
    /// Critical path, seconds, and work, task-seconds, for the thresholds.
    demand: JobDemand,
}

fn templates(
    dags: &[JobDag],
    task_scale: f64,
    length_scale: f64,
) -> Result<Vec<Template>, HarvestError> {
    dags.iter()
        .map(|d| {
            let edges = d.edge_indices()?;
            let n = d.vertices.len();
            let mut succ = vec![Vec::new(); n];
            let mut preds = vec![0u32; n];
            for &(a, b) in &edges {
                succ[a].push(b);
                preds[b] += 1;
            }
            let mut scaled = d.clone();
            for v in &mut scaled.vertices {
                v.tasks = ((f64::from(v.tasks) * task_scale).round() as u32).max(1);
                v.task_secs *= length_scale;
            }
            let containers = scaled.concurrency()?.max;
            Ok(Template {
                tasks: scaled.vertices.iter().map(|v| v.tasks).collect(),
                secs: scaled.vertices.iter().map(|v| v.task_secs).collect(),
                succ,
                preds,
                containers,
                demand: JobDemand {
                    length_secs: scaled.critical_path_secs()?,
                    work_secs: scaled.work_secs(),
                },
            })
        })
        .collect()
}

/// The cluster at one level: servers grouped by class.
struct Cluster {
    /// Per server, its tenant.
    tenant_of: Vec<usize>,
    /// Per server, its class.
    class_of: Vec<usize>,
    /// The servers by tenant, in server order: (tenant, lo, hi).
    tenant_servers: Vec<(usize, usize, usize)>,
    /// Per slot, the tenants (indices into `tenant_servers`, in server
    /// order) whose capacity changes at its start:
    /// `changes[change_at[slot]..change_at[slot + 1]]`; slot 0's are those
    /// changing from the last slot, when the replay starts again past the
    /// horizon. A slot visits their servers only; the same for every run
    /// of the level.
    changes: Vec<u32>,
    change_at: Vec<usize>,
    /// Per class, its servers `lo..hi`.
    ranges: Vec<(usize, usize)>,
    /// Per tenant and slot, batch cores available (cores − reserve −
    /// primary cores rounded up).
    cap: Vec<Vec<i64>>,
    /// The largest of `cap`: the containers a server can hold.
    max_cap: usize,
    /// Per slot, primary cores in use over the cluster (unrounded).
    primary: Vec<f64>,
    /// Per class, its state for Algorithm 1 (current updated per slot).
    states: Vec<ClassState>,
    /// Per class, its utilization per slot.
    class_util: Vec<Vec<f64>>,
}

fn cluster(set: &TenantSet, classes: &Classification, p: &SimParams, slots: usize) -> Cluster {
    let cores = p.cores_per_server;
    let mut tenant_of = Vec::new();
    let mut class_of = Vec::new();
    let mut tenant_servers = Vec::new();
    let mut ranges = Vec::new();
    let mut states = Vec::new();
    let mut class_util = Vec::new();
    let index: std::collections::HashMap<&str, usize> = set
        .tenants
        .iter()
        .enumerate()
        .map(|(i, t)| (t.info.name.as_str(), i))
        .collect();
    for (ci, c) in classes.classes.iter().enumerate() {
        let lo = tenant_of.len();
        // Every member is a tenant of the set it was classified from.
        for ti in c.tenants.iter().filter_map(|name| index.get(name.as_str())) {
            let ti = *ti;
            let first = tenant_of.len();
            for _ in 0..set.tenants[ti].info.servers {
                tenant_of.push(ti);
                class_of.push(ci);
            }
            tenant_servers.push((ti, first, tenant_of.len()));
        }
        ranges.push((lo, tenant_of.len()));
        let mut s = ClassState::of(c, c.utilization.first().copied().unwrap_or(0.0));
        s.cores_per_server = cores;
        states.push(s);
        class_util.push(c.utilization.clone());
    }
    let cap: Vec<Vec<i64>> = set
        .tenants
        .iter()
        .map(|t| {
            t.utilization[..slots]
                .iter()
                .map(|&u| {
                    let used = (u / 100.0 * cores - 1e-9).ceil().max(0.0);
                    ((cores - used - p.select.reserved_cores).max(0.0) / p.select.container_cores)
                        .floor() as i64
                })
                .collect()
        })
        .collect();
    let primary = (0..slots)
        .map(|i| {
            set.tenants
                .iter()
                .map(|t| t.info.servers as f64 * cores * t.utilization[i] / 100.0)
                .sum()
        })
        .collect();
    let max_cap = cap.iter().flatten().copied().max().unwrap_or(0).max(0) as usize;
    let mut changes = Vec::new();
    let mut change_at = vec![0; slots + 1];
    for slot in 0..slots {
        change_at[slot] = changes.len();
        let before = (slot + slots - 1) % slots;
        for (b, &(ti, _, _)) in tenant_servers.iter().enumerate() {
            if cap[ti][slot] != cap[ti][before] {
                changes.push(b as u32);
            }
        }
    }
    change_at[slots] = changes.len();
    Cluster {
        tenant_of,
        class_of,
        tenant_servers,
        changes,
        change_at,
        ranges,
        cap,
        max_cap,
        primary,
        states,
        class_util,
    }
}

/// A waiting vertex: (job, vertex, tasks still to start).
type Waiting = (u32, u32, u32);

struct Job {
    template: usize,
    arrival: f64,
    done: Vec<u32>,
    preds_left: Vec<u32>,
    vertices_left: usize,
    allowed: Vec<usize>,
    /// Algorithm 1's branch for it: 0 one class, 1 several, 2 none.
    branch: usize,
}

/// A run's jobs: those to arrive, those that did, the line of their
/// waiting vertices, and each template's last execution time (Algorithm
/// 1's job type).
struct Jobs<'a> {
    tpl: &'a [Template],
    /// (time, template), the same for both systems.
    arrivals: Vec<(f64, usize)>,
    next_arrival: usize,
    jobs: Vec<Job>,
    queue: VecDeque<Waiting>,
    last_run: Vec<Option<f64>>,
}

impl<'a> Jobs<'a> {
    /// The jobs of run `seed` arriving before `horizon`.
    fn new(tpl: &'a [Template], seed: u64, horizon: f64, p: &SimParams) -> Self {
        let mut arr_rng = Rng::new(seed);
        let mut arrivals = Vec::new();
        let mut t = 0.0;
        loop {
            t += -p.mean_interarrival_secs * (1.0 - arr_rng.unit()).ln();
            if t >= horizon {
                break;
            }
            arrivals.push((t, (arr_rng.unit() * tpl.len() as f64) as usize % tpl.len()));
        }
        Jobs {
            tpl,
            jobs: Vec::with_capacity(arrivals.len()),
            arrivals,
            next_arrival: 0,
            queue: VecDeque::new(),
            last_run: vec![None; tpl.len()],
        }
    }

    /// When the next job arrives (infinity: none will).
    fn next_arrival_at(&self) -> f64 {
        self.arrivals
            .get(self.next_arrival)
            .map_or(f64::INFINITY, |a| a.0)
    }

    /// The next job arrives in `slot`: Algorithm 1 picks its classes, its
    /// source vertices join the line.
    fn admit(
        &mut self,
        picker: &mut Picker,
        slot: usize,
        class_running: &[i64],
        rng: &mut Rng,
        tally: &mut Tally,
    ) {
        let (at, ti) = self.arrivals[self.next_arrival];
        self.next_arrival += 1;
        let (id, tp) = (self.jobs.len() as u32, &self.tpl[ti]);
        let req = JobRequest {
            last_run_secs: self.last_run[ti],
            containers: tp.containers,
        };
        let (allowed, branch) = picker.allowed(slot, class_running, &req, rng, tally);
        for (v, &pr) in tp.preds.iter().enumerate() {
            if pr == 0 {
                self.queue.push_back((id, v as u32, tp.tasks[v]));
            }
        }
        self.jobs.push(Job {
            template: ti,
            arrival: at,
            done: vec![0; tp.tasks.len()],
            preds_left: tp.preds.clone(),
            vertices_left: tp.tasks.len(),
            allowed,
            branch,
        });
    }

    /// Whether every job has arrived and finished (`finished` of them
    /// have).
    fn all_finished(&self, finished: usize) -> bool {
        self.next_arrival == self.arrivals.len() && finished == self.arrivals.len()
    }

    /// A task of job `id` was killed: counted by its job's branch, and
    /// back to the head of the line to rerun.
    fn killed(&mut self, id: u32, vertex: u32, tally: &mut Tally) {
        tally.kills += 1;
        tally.kills_by_branch[self.jobs[id as usize].branch] += 1;
        self.queue.push_front((id, vertex, 1));
    }

    /// A task of vertex `v` of job `id` ended at `now`: the successors it
    /// completes join the line; the job, if it was its last, is counted.
    fn task_done(&mut self, id: u32, v: usize, now: f64, tally: &mut Tally) {
        let job = &mut self.jobs[id as usize];
        let tp = &self.tpl[job.template];
        job.done[v] += 1;
        if job.done[v] != tp.tasks[v] {
            return;
        }
        job.vertices_left -= 1;
        for &w in &tp.succ[v] {
            job.preds_left[w] -= 1;
            if job.preds_left[w] == 0 {
                self.queue.push_back((id, w as u32, tp.tasks[w]));
            }
        }
        if job.vertices_left == 0 {
            let exec = now - job.arrival;
            tally.finished += 1;
            tally.exec_sum += exec;
            self.last_run[job.template] = Some(exec);
        }
    }
}

/// A run's counts as it goes.
#[derive(Default)]
struct Tally {
    kills: u64,
    started: u64,
    outcomes: [usize; 3],
    types: [usize; 3],
    kills_by_pattern: [u64; 3],
    kills_by_branch: [u64; 3],
    finished: usize,
    exec_sum: f64,
    /// Core-seconds of batch tasks within the horizon.
    busy_area: f64,
    /// Server-seconds without a free batch core within the horizon.
    full_area: f64,
}

impl Tally {
    /// `running` tasks ran and `full` of the servers had no free core from
    /// `from` to `to`: the part within `horizon` counts.
    fn areas(&mut self, running: i64, full: i64, from: f64, to: f64, horizon: f64) {
        let dt = to.min(horizon) - from.min(horizon);
        self.busy_area += running as f64 * dt;
        self.full_area += full as f64 * dt;
    }

    /// The run's result when it stopped at `end`: every job of `line`
    /// counts, those unfinished with their time until `end`.
    fn result(&self, seed: u64, line: &Jobs, end: f64, lv: &Prepared, p: &SimParams) -> RunResult {
        let horizon = lv.slots as f64 * lv.step;
        let servers = lv.cluster.tenant_of.len() as f64;
        let primary_area: f64 = lv.cluster.primary.iter().take(lv.slots).sum::<f64>() * lv.step;
        let denom = servers * p.cores_per_server * horizon;
        let open = line.jobs.iter().filter(|j| j.vertices_left > 0);
        let (unfinished, open_secs) = open.fold((0, 0.0), |(n, t), j| (n + 1, t + end - j.arrival));
        let jobs = line.arrivals.len();
        RunResult {
            seed,
            jobs,
            finished: self.finished,
            unfinished,
            // 0 when no job arrived (the sums are 0 then).
            avg_job_secs: (self.exec_sum + open_secs) / jobs.max(1) as f64,
            kills: self.kills,
            tasks_started: self.started,
            utilization: 100.0 * (self.busy_area + primary_area) / denom,
            primary_utilization: 100.0 * primary_area / denom,
            outcomes: self.outcomes,
            kills_by_pattern: self.kills_by_pattern,
            kills_by_branch: self.kills_by_branch,
            full_servers: 100.0 * self.full_area / (servers * horizon),
            types: self.types,
        }
    }
}

/// Algorithm 1 at the jobs' arrivals.
struct Picker<'a> {
    lv: &'a Prepared,
    system: System,
    /// The classes' states, refreshed at each arrival.
    states: Vec<ClassState>,
    /// YARN-PT's would-be selections, on a stream of their own.
    what_if: Rng,
    scratch: SelectScratch,
    picks: Vec<usize>,
}

impl<'a> Picker<'a> {
    fn new(lv: &'a Prepared, system: System, seed: u64) -> Self {
        Picker {
            lv,
            system,
            states: lv.cluster.states.clone(),
            what_if: Rng::new(seed ^ 0x5EED_0FA1_6011),
            scratch: SelectScratch::default(),
            picks: Vec::new(),
        }
    }

    /// The classes a job arriving in `slot` may use (none: any server)
    /// and its branch (0 one, 1 several, 2 none), counted in `tally` with
    /// its type; YARN-H draws on `rng`.
    fn allowed(
        &mut self,
        slot: usize,
        class_running: &[i64],
        req: &JobRequest,
        rng: &mut Rng,
        tally: &mut Tally,
    ) -> (Vec<usize>, usize) {
        let mut allowed = Vec::new();
        if self.states.is_empty() {
            return (allowed, 2);
        }
        for (c, st) in self.states.iter_mut().enumerate() {
            st.current = self.lv.cluster.class_util[c][slot];
            st.used_containers = class_running[c] as f64;
        }
        let draws = if self.system == System::YarnH {
            rng
        } else {
            &mut self.what_if
        };
        let (t, outcome) = select_indices(
            req,
            &self.states,
            &self.lv.select,
            draws,
            &mut self.scratch,
            &mut self.picks,
        );
        let branch = match outcome {
            Outcome::One => 0,
            Outcome::Several => 1,
            Outcome::None => 2,
        };
        tally.outcomes[branch] += 1;
        tally.types[t as usize] += 1;
        if self.system == System::YarnH {
            allowed.extend_from_slice(&self.picks);
        }
        (allowed, branch)
    }
}

/// Milliseconds: a task's end time in [`Completions`]. `(t * 1000.0)
/// .round() as u64` exactly (half away from zero, saturating), written out
/// because `f64::round` is a libm call on the default target and this runs
/// for every task: for `ms` in [0, 2⁵³) `ms - trunc(ms)` is exact.
fn key(t: f64) -> u64 {
    let ms = t * 1000.0;
    let whole = ms as u64;
    if ms - whole as f64 >= 0.5 {
        whole.saturating_add(1)
    } else {
        whole
    }
}

/// Drops the waiting vertices whose tasks have all started, keeping the
/// others in line. Only the first `scanned` can have (a scheduling pass
/// stops when the cores run out), so only they are looked at: the line
/// can be long when YARN-H's jobs wait for full classes, and this runs at
/// every event.
fn drop_started(queue: &mut VecDeque<Waiting>, scanned: usize) {
    let mut kept = scanned;
    for i in (0..scanned).rev() {
        if queue[i].2 > 0 {
            kept -= 1;
            queue[kept] = queue[i];
        }
    }
    queue.drain(..kept);
}

/// Run `seed`'s jobs, its placement draws and its Algorithm 1.
fn start<'a>(
    lv: &'a Prepared,
    tpl: &'a [Template],
    system: System,
    seed: u64,
    p: &SimParams,
) -> (Jobs<'a>, Rng, Picker<'a>) {
    (
        Jobs::new(tpl, seed, lv.slots as f64 * lv.step, p),
        Rng::new(seed ^ 0x9E37_79B9_7F4A_7C15),
        Picker::new(lv, system, seed),
    )
}

/// One seeded run of `system` on a prepared level.
fn run_once(
    lv: &Prepared,
    tpl: &[Template],
    system: System,
    seed: u64,
    p: &SimParams,
) -> RunResult {
    let (cl, step, slots) = (&lv.cluster, lv.step, lv.slots);
    let horizon = slots as f64 * step;
    let n = cl.tenant_of.len();
    let (mut line, mut rng, mut picker) = start(lv, tpl, system, seed, p);
    let mut running = Containers::new(n, cl.max_cap);
    let mut caps: Vec<i64> = cl.tenant_of.iter().map(|&ti| cl.cap[ti][0]).collect();
    let mut free = FreeCores::new(&caps, &cl.class_of, cl.ranges.len());
    let mut class_running = vec![0i64; cl.ranges.len()];
    let mut completions = Completions::default();
    let mut tally = Tally::default();
    let mut policy = DefaultPolicy::new(p.placement);
    let mut inst = 0u64;
    let (mut total_running, mut last_t) = (0i64, 0.0f64);
    // Past the horizon the run drains its jobs, for as long again at most.
    let limit = 2.0 * horizon;
    let mut slot = 0usize;
    let mut now;
    loop {
        let t_slot = (slot + 1) as f64 * step;
        let t_arr = line.next_arrival_at();
        let t_done = completions
            .next_end()
            .map_or(f64::INFINITY, |end| end as f64 / 1000.0);
        now = t_slot.min(t_arr).min(t_done).min(limit);
        let full = n as i64 - free.with_room();
        tally.areas(total_running, full, last_t, now, horizon);
        last_t = now;
        if now >= limit || (now >= horizon && line.all_finished(tally.finished)) {
            break;
        }
        if now == t_done {
            let Some((_, s, id)) = completions.pop() else {
                break;
            };
            let s = s as usize;
            if let Some(r) = running.end(s, id) {
                total_running -= 1;
                class_running[cl.class_of[s]] -= 1;
                free.set(s, caps[s] - running.count(s) as i64);
                line.task_done(r.job, r.vertex as usize, now, &mut tally);
            }
        } else if now == t_arr {
            line.admit(&mut picker, slot, &class_running, &mut rng, &mut tally);
        } else {
            // A new utilization slot (the replay's first again past the
            // horizon): new capacities, kills youngest first.
            slot += 1;
            let k = slot % slots;
            // Servers whose capacity stays keep their containers and
            // their free cores; the others are visited in server order.
            for &b in &cl.changes[cl.change_at[k]..cl.change_at[k + 1]] {
                let (ti, lo, hi) = cl.tenant_servers[b as usize];
                let cap = cl.cap[ti][k];
                for s in lo..hi {
                    caps[s] = cap;
                    while running.count(s) as i64 > cap {
                        let Some(r) = running.kill_youngest(s) else {
                            break;
                        };
                        tally.kills_by_pattern[cl.states[cl.class_of[s]].pattern as usize] += 1;
                        total_running -= 1;
                        class_running[cl.class_of[s]] -= 1;
                        line.killed(r.job, r.vertex, &mut tally);
                    }
                    free.set(s, cap - running.count(s) as i64);
                }
            }
        }
        // Schedule what waits, first in line first.
        let mut total_free = free.total();
        if total_free > 0 && !line.queue.is_empty() {
            let mut scanned = 0;
            for e in line.queue.iter_mut() {
                if total_free == 0 {
                    break;
                }
                scanned += 1;
                let job = &line.jobs[e.0 as usize];
                let secs = line.tpl[job.template].secs[e.1 as usize];
                while e.2 > 0 {
                    let s = if job.allowed.is_empty() {
                        match policy.server(&free, &mut rng) {
                            Some(s) => s,
                            None => break,
                        }
                    } else {
                        let sums: i64 = job.allowed.iter().map(|&c| free.of_class(c)).sum();
                        if sums == 0 {
                            break;
                        }
                        let mut r = (rng.unit() * sums as f64) as i64;
                        let mut pick = None;
                        for &c in &job.allowed {
                            let w = free.of_class(c);
                            if r < w {
                                pick = Some(free.find(free.before(cl.ranges[c].0) + r));
                                break;
                            }
                            r -= w;
                        }
                        match pick {
                            Some(s) => s,
                            None => break,
                        }
                    };
                    let s = s.min(n - 1);
                    if free.get(s) <= 0 {
                        break;
                    }
                    inst += 1;
                    running.start(
                        s,
                        Running {
                            start: now,
                            inst,
                            job: e.0,
                            vertex: e.1,
                        },
                    );
                    free.set(s, free.get(s) - 1);
                    total_free -= 1;
                    total_running += 1;
                    class_running[cl.class_of[s]] += 1;
                    tally.started += 1;
                    completions.push(key(now + secs), s as u32, inst);
                    e.2 -= 1;
                }
            }
            drop_started(&mut line.queue, scanned);
        }
    }
    tally.result(seed, &line, now, lv, p)
}

fn summary(system: System, runs: Vec<RunResult>) -> SystemResult {
    let f = |g: fn(&RunResult) -> f64| MinAvgMax::of(&runs.iter().map(g).collect::<Vec<_>>());
    let mut branches = [0usize; 3];
    for r in &runs {
        for (b, n) in branches.iter_mut().zip(r.outcomes) {
            *b += n;
        }
    }
    let all: usize = branches.iter().sum();
    SystemResult {
        system,
        avg_job_secs: f(|r| r.avg_job_secs),
        kills: f(|r| r.kills as f64),
        utilization: f(|r| r.utilization),
        branch_shares: branches.map(|b| if all > 0 { b as f64 / all as f64 } else { 0.0 }),
        runs,
    }
}

/// One level made ready for its runs: the cluster, the thresholds.
struct Prepared {
    level: f64,
    scale: f64,
    classes: usize,
    cluster: Cluster,
    select: SelectParams,
    thresholds: ThresholdDerivation,
    step: f64,
    slots: usize,
}

/// The scaled job templates of a simulation and the factors used.
struct Workload {
    templates: Vec<Template>,
    task_scale: f64,
    length_scale: f64,
}

/// Checks the inputs and scales the DAGs (§6's scaling factor).
fn workload(set: &TenantSet, dags: &[JobDag], p: &SimParams) -> Result<Workload, HarvestError> {
    p.validate()?;
    check(!set.tenants.is_empty(), "tenants", "none to simulate")?;
    check(!dags.is_empty(), "jobs", "no job to simulate")?;
    let servers = set.servers();
    check(servers > 0, "tenants", "have no server")?;
    let base = templates(dags, 1.0, p.duration_scale)?;
    let mean_work: f64 = base.iter().map(|t| t.demand.work_secs).sum::<f64>() / base.len() as f64;
    check(mean_work > 0.0, "jobs", "have no work (all tasks last 0 s)")?;
    // f² × the base work reaches the batch load.
    let f2 =
        p.batch_load * servers as f64 * p.cores_per_server * p.mean_interarrival_secs / mean_work;
    let (task_scale, length_scale) = if p.scale_lengths {
        (f2.sqrt(), p.duration_scale * f2.sqrt())
    } else {
        (f2, p.duration_scale)
    };
    Ok(Workload {
        templates: templates(dags, task_scale, length_scale)?,
        task_scale,
        length_scale,
    })
}

/// Slots simulated: `days` of the set's grid, at least two.
fn slots_of(set: &TenantSet, p: &SimParams) -> Result<usize, HarvestError> {
    let slots = ((p.days * 86_400.0 / set.step_secs as f64).floor() as usize).min(set.slots);
    check(
        slots >= 2,
        "days",
        "leaves fewer than two utilization slots",
    )?;
    Ok(slots)
}

/// Scales the tenants to `level`, clusters them, sets the thresholds.
fn prepare(
    set: &TenantSet,
    w: &Workload,
    p: &SimParams,
    level: f64,
    slots: usize,
) -> Result<Prepared, HarvestError> {
    let (scaled, scale) = scale_to(set, level, p.scaling)?;
    let classes = classify(&scaled, &p.classify)?;
    let jobs: Vec<JobDemand> = w.templates.iter().map(|t| t.demand).collect();
    let thresholds = thresholds(
        p.thresholds,
        &jobs,
        &classes.classes,
        Some(p.cores_per_server),
        &p.select,
        1.0 / p.mean_interarrival_secs,
    )?;
    let select = SelectParams {
        short_max_secs: thresholds.short_max_secs,
        long_min_secs: thresholds.long_min_secs,
        ..p.select.clone()
    };
    Ok(Prepared {
        level,
        scale,
        classes: classes.classes.len(),
        cluster: cluster(&scaled, &classes, p, slots),
        select,
        thresholds,
        step: set.step_secs as f64,
        slots,
    })
}

/// Both systems' runs of a prepared level as one result.
fn level_result(lv: Prepared, pt: Vec<RunResult>, h: Vec<RunResult>) -> LevelResult {
    let improvement: Vec<f64> = pt
        .iter()
        .zip(&h)
        .filter(|(a, _)| a.avg_job_secs > 0.0)
        .map(|(a, b)| 100.0 * (1.0 - b.avg_job_secs / a.avg_job_secs))
        .collect();
    LevelResult {
        level: lv.level,
        scale: lv.scale,
        classes: lv.classes,
        thresholds: lv.thresholds,
        pt: summary(System::YarnPt, pt),
        h: summary(System::YarnH, h),
        improvement: MinAvgMax::of(&improvement),
    }
}

/// The paper's Figure 14 figures.
pub fn paper_figures() -> PaperFigures {
    PaperFigures {
        linear_avg_improvement: "12–56 % (DC-9: 0–55 %)".into(),
        root_avg_improvement: "5–45 % (DC-9: 3–41 %)".into(),
        max_improvement: "~90 % linear, ~70 % root".into(),
    }
}

/// Every level of `set` one after another, each level's runs in turn
/// (both systems per seed): the unit of work of the ten-datacenter figures, which
/// spreads whole datacenters over the cores.
pub fn simulate_serial(
    set: &TenantSet,
    dags: &[JobDag],
    p: &SimParams,
) -> Result<SimReport, HarvestError> {
    let w = workload(set, dags, p)?;
    let slots = slots_of(set, p)?;
    let mut levels = Vec::new();
    for &level in &p.levels {
        let lv = prepare(set, &w, p, level, slots)?;
        let seeds = (0..p.runs).map(|r| p.seed.wrapping_add(r as u64));
        let pt = seeds
            .clone()
            .map(|s| run_once(&lv, &w.templates, System::YarnPt, s, p))
            .collect();
        let h = seeds
            .map(|s| run_once(&lv, &w.templates, System::YarnH, s, p))
            .collect();
        levels.push(level_result(lv, pt, h));
    }
    Ok(report(set, dags, p, &w, slots, levels))
}

fn report(
    set: &TenantSet,
    dags: &[JobDag],
    p: &SimParams,
    w: &Workload,
    slots: usize,
    levels: Vec<LevelResult>,
) -> SimReport {
    SimReport {
        servers: set.servers(),
        days: slots as f64 * set.step_secs as f64 / 86_400.0,
        scaling: p.scaling,
        templates: dags.len(),
        task_scale: w.task_scale,
        length_scale: w.length_scale,
        levels,
        paper: paper_figures(),
    }
}

/// Runs the simulation of `dags` on `set`'s tenants, every level and run,
/// both systems, the runs spread over `p.threads`; `progress(done,
/// total)` after each run.
pub fn simulate(
    set: &TenantSet,
    dags: &[JobDag],
    p: &SimParams,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<SimReport, HarvestError> {
    let w = workload(set, dags, p)?;
    let slots = slots_of(set, p)?;
    let prepared = p
        .levels
        .iter()
        .map(|&level| prepare(set, &w, p, level, slots))
        .collect::<Result<Vec<_>, _>>()?;
    let jobs: Vec<(usize, System, u64)> = (0..prepared.len())
        .flat_map(|l| {
            (0..p.runs).flat_map(move |r| {
                let seed = p.seed.wrapping_add(r as u64);
                [(l, System::YarnPt, seed), (l, System::YarnH, seed)]
            })
        })
        .collect();
    let mut results = crate::parallel::map_jobs(
        &jobs,
        p.threads,
        || (),
        |_, &(l, system, seed)| run_once(&prepared[l], &w.templates, system, seed, p),
        progress,
    )
    .into_iter();
    let mut levels = Vec::new();
    for lv in prepared {
        let mut pt = Vec::new();
        let mut h = Vec::new();
        for _ in 0..p.runs {
            pt.extend(results.next());
            h.extend(results.next());
        }
        levels.push(level_result(lv, pt, h));
    }
    Ok(report(set, dags, p, &w, slots, levels))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harvest::tpcds_like;
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;

    /// The run as first written, before its speed-ups: one heap entry per
    /// task, a vector of containers per server, every server visited at
    /// every slot, each draw a scan of the allowed servers' free cores
    /// (or of the servers with room, or the server being filled), the
    /// whole line filtered after every pass. Arrivals, Algorithm 1 and the
    /// jobs' bookkeeping are [`run_once`]'s own.
    fn reference_run(
        lv: &Prepared,
        w: &Workload,
        system: System,
        seed: u64,
        p: &SimParams,
    ) -> RunResult {
        let (cl, tpl) = (&lv.cluster, &w.templates);
        let (mut line, mut rng, mut picker) = start(lv, tpl, system, seed, p);
        let (horizon, n) = (lv.slots as f64 * lv.step, cl.tenant_of.len());
        let mut running: Vec<Vec<Running>> = vec![Vec::new(); n];
        let mut class_running = vec![0i64; cl.ranges.len()];
        let mut heap = BinaryHeap::new();
        let mut tally = Tally::default();
        let (mut inst, mut slot, mut last_t) = (0u64, 0usize, 0.0);
        let mut filling: Option<usize> = None;
        let cap = |s: usize, slot: usize| cl.cap[cl.tenant_of[s]][slot % lv.slots];
        let mut now;
        loop {
            let t_slot = (slot + 1) as f64 * lv.step;
            let t_arr = line.next_arrival_at();
            let t_done = heap
                .peek()
                .map_or(f64::INFINITY, |Reverse((end, _, _))| *end as f64 / 1000.0);
            now = t_slot.min(t_arr).min(t_done).min(2.0 * horizon);
            let busy: usize = running.iter().map(Vec::len).sum();
            let full = (0..n)
                .filter(|&s| cap(s, slot) <= running[s].len() as i64)
                .count();
            tally.areas(busy as i64, full as i64, last_t, now, horizon);
            last_t = now;
            if now >= 2.0 * horizon || (now >= horizon && line.all_finished(tally.finished)) {
                break;
            }
            if now == t_done {
                let Some(Reverse((_, s, id))) = heap.pop() else {
                    break;
                };
                let rs: &mut Vec<Running> = &mut running[s as usize];
                if let Some(pos) = rs.iter().position(|r| r.inst == id) {
                    let r = rs.swap_remove(pos);
                    class_running[cl.class_of[s as usize]] -= 1;
                    line.task_done(r.job, r.vertex as usize, now, &mut tally);
                }
            } else if now == t_arr {
                line.admit(&mut picker, slot, &class_running, &mut rng, &mut tally);
            } else {
                slot += 1;
                for (s, rs) in running.iter_mut().enumerate() {
                    while rs.len() as i64 > cap(s, slot) {
                        let youngest = (0..rs.len()).max_by(|&a, &b| {
                            (rs[a].start.total_cmp(&rs[b].start)).then(rs[a].inst.cmp(&rs[b].inst))
                        });
                        let r = rs.swap_remove(youngest.unwrap_or(0));
                        tally.kills_by_pattern[cl.states[cl.class_of[s]].pattern as usize] += 1;
                        class_running[cl.class_of[s]] -= 1;
                        line.killed(r.job, r.vertex, &mut tally);
                    }
                }
            }
            for e in line.queue.iter_mut() {
                let job = &line.jobs[e.0 as usize];
                let unlabelled = job.allowed.is_empty();
                let servers: Vec<usize> = if unlabelled {
                    (0..n).collect()
                } else {
                    let range = |c: usize| cl.ranges[c].0..cl.ranges[c].1;
                    job.allowed.iter().flat_map(|&c| range(c)).collect()
                };
                while e.2 > 0 {
                    let free = |s: usize| (cap(s, slot) - running[s].len() as i64).max(0);
                    let with_room: Vec<usize> = (0..n).filter(|&s| free(s) > 0).collect();
                    // With no room anywhere the server being filled stays
                    // the one to fill.
                    if with_room.is_empty() {
                        break;
                    }
                    let uniform = |rng: &mut Rng| {
                        (!with_room.is_empty())
                            .then(|| with_room[(rng.unit() * with_room.len() as f64) as usize])
                    };
                    let s = match p.placement {
                        DefaultPlacement::Heartbeat if unlabelled => uniform(&mut rng),
                        DefaultPlacement::Fill if unlabelled => {
                            if filling.is_none_or(|f| free(f) <= 0) {
                                filling = uniform(&mut rng);
                            }
                            filling
                        }
                        _ => {
                            let total: i64 = servers.iter().map(|&s| free(s)).sum();
                            if total == 0 {
                                break;
                            }
                            let mut r = (rng.unit() * total as f64) as i64;
                            servers.iter().copied().find(|&s| {
                                r -= free(s);
                                r < 0
                            })
                        }
                    };
                    let Some(s) = s else {
                        break;
                    };
                    inst += 1;
                    running[s].push(Running {
                        start: now,
                        inst,
                        job: e.0,
                        vertex: e.1,
                    });
                    class_running[cl.class_of[s]] += 1;
                    tally.started += 1;
                    let secs = line.tpl[job.template].secs[e.1 as usize];
                    heap.push(Reverse((
                        ((now + secs) * 1000.0).round() as u64,
                        s as u32,
                        inst,
                    )));
                    e.2 -= 1;
                }
            }
            line.queue.retain(|e| e.2 > 0);
        }
        tally.result(seed, &line, now, lv, p)
    }

    #[test]
    fn runs_agree_with_the_reference_to_the_bit() {
        let set = crate::fixtures::harvest_set(30, 2, 600, Some(80), 5);
        let dags = tpcds_like(12, 4);
        let p = SimParams {
            days: 2.0,
            ..SimParams::default()
        };
        let w = workload(&set, &dags, &p).unwrap();
        let slots = slots_of(&set, &p).unwrap();
        let (mut kills, mut picked) = (0, 0);
        for placement in DefaultPlacement::ALL {
            let p = SimParams {
                placement,
                ..p.clone()
            };
            for (level, seed) in [(20.0, 7), (50.0, 8)] {
                let lv = prepare(&set, &w, &p, level, slots).unwrap();
                for system in [System::YarnPt, System::YarnH] {
                    let fast = run_once(&lv, &w.templates, system, seed, &p);
                    let slow = reference_run(&lv, &w, system, seed, &p);
                    assert_eq!(fast, slow, "{placement:?}, level {level}, {system:?}");
                    assert!(fast.finished > 0 && fast.tasks_started > 1000);
                    assert_eq!(fast.finished + fast.unfinished, fast.jobs);
                    kills += fast.kills;
                    if system == System::YarnH {
                        picked += fast.outcomes[0] + fast.outcomes[1];
                    }
                }
            }
        }
        // The comparison covered kills and YARN-H's class-bound draws (a
        // run stopped with jobs unfinished is in
        // `cycles::tests::every_job_counts_…`).
        assert!(kills > 0 && picked > 0, "kills {kills}, picked {picked}");
    }

    #[test]
    fn end_times_round_like_f64_round() {
        let mut rng = Rng::new(3);
        let mut cases = vec![
            0.0,
            -0.0,
            -1.0,
            0.0005,
            0.0004999999999999999,
            2.5e-3,
            1.0005,
            4.5e12,
            // Around 2⁵², 2⁵³ and 2⁶⁴ ms: halves, then whole numbers only,
            // then saturation.
            (2f64.powi(52) - 0.5) / 1000.0,
            (2f64.powi(52) + 0.5) / 1000.0,
            2f64.powi(53) / 1000.0,
            2f64.powi(64) / 1000.0,
            1e300,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
        ];
        for _ in 0..100_000 {
            let whole = rng.int(0, 5_000_000) as f64;
            cases.push((whole + [0.0, 0.5, rng.unit()][rng.int(0, 2) as usize]) / 1000.0);
            cases.push(rng.uniform(0.0, 3e6));
        }
        for t in cases {
            assert_eq!(key(t), (t * 1000.0).round() as u64, "t = {t}");
        }
    }
}
