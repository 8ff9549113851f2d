//! The task-scheduling simulation of §6 (Figures 13–14): a month of
//! primary utilization replayed on servers of 12 cores with 4 reserved for
//! the primary tenant, batch jobs (DAGs of one-core tasks) arriving as a
//! Poisson process (mean 300 s), under two systems:
//!
//! - **YARN-PT** (primary-aware YARN, stock Tez): each task goes to a
//!   server with a free core, drawn ∝ its free cores (RM-H's rule); at
//!   every utilization slot the NM rounds the primary's usage up to whole
//!   cores and, when the reserve is violated, kills containers youngest
//!   first; killed tasks rerun from scratch, first in line.
//! - **YARN-H** (YARN-PT plus Tez-H's class selection): at arrival each
//!   job runs Algorithm 1 on the classes of the replayed month (clustered
//!   as [`crate::harvest::tenants::classify`] does, headroom from the class's current
//!   utilization and the batch containers already there) and its tasks go
//!   only to the picked classes' servers; with no class picked it falls
//!   back to the default policy (any server), as RM-H does without a
//!   label.
//!
//! Primary utilization is each tenant's average server, scaled to a target
//! average per level ([`crate::harvest::tenants::scaling`]). As in the paper, the job DAGs'
//! task counts and lengths are multiplied to load a large cluster: task
//! counts so the offered batch work is [`SimParams::batch_load`] of the
//! cluster's cores, lengths by [`SimParams::duration_scale`]. A job's type
//! comes from its previous run in the simulation (the first is medium).
//! Both systems see the same arrivals (same seed): the comparison is
//! paired, run by run.

use super::dag::JobDag;
use super::select::{select_indices, ClassState, JobRequest, Outcome, SelectParams, SelectScratch};
use crate::harvest::error::{check, HarvestError};
use crate::harvest::tenants::classify::{classify, Classification, ClassifyParams};
use crate::harvest::tenants::scaling::{scale_to, Scaling};
use crate::harvest::tenants::tenant::TenantSet;
use crate::numerics::Rng;
use crate::numerics::{Fenwick, MinAvgMax};
use serde::{Deserialize, Serialize};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

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
    /// Offered batch work as a share of the cluster's cores (default 0.15).
    pub batch_load: f64,
    /// Multiplier of the DAGs' task lengths (default 4).
    pub duration_scale: f64,
    /// Algorithm 1's thresholds, weights, reserve (default 4 cores) and
    /// container size (1 core).
    pub select: SelectParams,
    /// The clustering of YARN-H.
    pub classify: ClassifyParams,
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
            batch_load: 0.15,
            duration_scale: 4.0,
            select: SelectParams::default(),
            classify: ClassifyParams::default(),
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
    /// Jobs that arrived.
    pub jobs: usize,
    /// Jobs finished within the horizon.
    pub finished: usize,
    /// Their average execution time (arrival to last task), seconds.
    pub avg_job_secs: f64,
    /// Containers killed to restore the reserve.
    pub kills: u64,
    /// Tasks started (reruns included).
    pub tasks_started: u64,
    /// Average utilization of all cores, primary and batch, percent.
    pub utilization: f64,
    /// Of which the primary tenants', percent.
    pub primary_utilization: f64,
    /// Jobs by Algorithm 1's outcome (one, several, none); zeros for
    /// YARN-PT.
    pub outcomes: [usize; 3],
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
}

fn templates(
    dags: &[JobDag],
    task_scale: f64,
    duration_scale: f64,
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
            }
            let containers = scaled.concurrency()?.max;
            Ok(Template {
                tasks: scaled.vertices.iter().map(|v| v.tasks).collect(),
                secs: d
                    .vertices
                    .iter()
                    .map(|v| v.task_secs * duration_scale)
                    .collect(),
                succ,
                preds,
                containers,
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
    /// Per class, its servers `lo..hi`.
    ranges: Vec<(usize, usize)>,
    /// Per tenant and slot, batch cores available (cores − reserve −
    /// primary cores rounded up).
    cap: Vec<Vec<i64>>,
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
    let mut ranges = Vec::new();
    let mut states = Vec::new();
    let mut class_util = Vec::new();
    for (ci, c) in classes.classes.iter().enumerate() {
        let lo = tenant_of.len();
        for name in &c.tenants {
            let ti = set
                .tenants
                .iter()
                .position(|t| &t.info.name == name)
                .expect("member");
            for _ in 0..set.tenants[ti].info.servers {
                tenant_of.push(ti);
                class_of.push(ci);
            }
        }
        ranges.push((lo, tenant_of.len()));
        let mut s = ClassState::of(c, c.utilization.first().copied().unwrap_or(0.0));
        s.cores_per_server = cores;
        states.push(s);
        class_util.push(c.utilization.clone());
    }
    let cap = set
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
    Cluster {
        tenant_of,
        class_of,
        ranges,
        cap,
        primary,
        states,
        class_util,
    }
}

#[derive(Clone, Copy)]
struct Running {
    start: f64,
    inst: u64,
    job: u32,
    vertex: u32,
}

struct Job {
    template: usize,
    arrival: f64,
    done: Vec<u32>,
    preds_left: Vec<u32>,
    vertices_left: usize,
    allowed: Vec<usize>,
}

/// Milliseconds as a heap key.
fn key(t: f64) -> u64 {
    (t * 1000.0).round() as u64
}

#[allow(clippy::too_many_arguments)]
fn run_once(
    cl: &Cluster,
    tpl: &[Template],
    step: f64,
    slots: usize,
    system: System,
    seed: u64,
    p: &SimParams,
) -> RunResult {
    let horizon = slots as f64 * step;
    let n = cl.tenant_of.len();
    // Arrivals: the same for both systems.
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
    let mut rng = Rng::new(seed ^ 0x9E37_79B9_7F4A_7C15);
    let mut running: Vec<Vec<Running>> = vec![Vec::new(); n];
    let mut caps: Vec<i64> = cl.tenant_of.iter().map(|&ti| cl.cap[ti][0]).collect();
    let mut fen = Fenwick::build(&caps);
    let mut class_running = vec![0i64; cl.ranges.len()];
    let mut states = cl.states.clone();
    let mut last_run: Vec<Option<f64>> = vec![None; tpl.len()];
    let mut jobs: Vec<Job> = Vec::with_capacity(arrivals.len());
    let mut queue: VecDeque<(u32, u32, u32)> = VecDeque::new();
    let mut heap: BinaryHeap<Reverse<(u64, u32, u64)>> = BinaryHeap::new();
    let mut scratch = SelectScratch::default();
    let mut picks = Vec::new();
    let (mut kills, mut started, mut inst) = (0u64, 0u64, 0u64);
    let mut outcomes = [0usize; 3];
    let (mut finished, mut exec_sum) = (0usize, 0.0);
    let (mut busy_area, mut total_running, mut last_t) = (0.0f64, 0i64, 0.0f64);
    let mut next_arrival = 0usize;
    let mut slot = 0usize;
    let mut now;
    loop {
        let t_slot = (slot + 1) as f64 * step;
        let t_arr = arrivals.get(next_arrival).map_or(f64::INFINITY, |a| a.0);
        let t_done = heap
            .peek()
            .map_or(f64::INFINITY, |Reverse(e)| e.0 as f64 / 1000.0);
        now = t_slot.min(t_arr).min(t_done);
        if now >= horizon {
            busy_area += total_running as f64 * (horizon - last_t);
            break;
        }
        busy_area += total_running as f64 * (now - last_t);
        last_t = now;
        if now == t_done {
            let Reverse((_, s, id)) = heap.pop().expect("peeked");
            let s = s as usize;
            if let Some(pos) = running[s].iter().position(|r| r.inst == id) {
                let r = running[s].swap_remove(pos);
                total_running -= 1;
                class_running[cl.class_of[s]] -= 1;
                fen.set(s, caps[s] - running[s].len() as i64);
                let job = &mut jobs[r.job as usize];
                let v = r.vertex as usize;
                job.done[v] += 1;
                let tp = &tpl[job.template];
                if job.done[v] == tp.tasks[v] {
                    job.vertices_left -= 1;
                    for &w in &tp.succ[v] {
                        job.preds_left[w] -= 1;
                        if job.preds_left[w] == 0 {
                            queue.push_back((r.job, w as u32, tp.tasks[w]));
                        }
                    }
                    if job.vertices_left == 0 {
                        let exec = now - job.arrival;
                        finished += 1;
                        exec_sum += exec;
                        last_run[job.template] = Some(exec);
                    }
                }
            }
        } else if now == t_arr {
            let (at, ti) = arrivals[next_arrival];
            next_arrival += 1;
            let tp = &tpl[ti];
            let id = jobs.len() as u32;
            let mut allowed = Vec::new();
            if system == System::YarnH && !states.is_empty() {
                for (c, st) in states.iter_mut().enumerate() {
                    st.current = cl.class_util[c][slot];
                    st.used_containers = class_running[c] as f64;
                }
                let req = JobRequest {
                    last_run_secs: last_run[ti],
                    containers: tp.containers,
                };
                let (_, outcome) =
                    select_indices(&req, &states, &p.select, &mut rng, &mut scratch, &mut picks);
                outcomes[match outcome {
                    Outcome::One => 0,
                    Outcome::Several => 1,
                    Outcome::None => 2,
                }] += 1;
                allowed.extend_from_slice(&picks);
            }
            for (v, &pr) in tp.preds.iter().enumerate() {
                if pr == 0 {
                    queue.push_back((id, v as u32, tp.tasks[v]));
                }
            }
            jobs.push(Job {
                template: ti,
                arrival: at,
                done: vec![0; tp.tasks.len()],
                preds_left: tp.preds.clone(),
                vertices_left: tp.tasks.len(),
                allowed,
            });
        } else {
            // A new utilization slot: new capacities, kills youngest first.
            slot += 1;
            for s in 0..n {
                let cap = cl.cap[cl.tenant_of[s]][slot];
                caps[s] = cap;
                let rs = &mut running[s];
                while rs.len() as i64 > cap {
                    let (pos, _) = rs
                        .iter()
                        .enumerate()
                        .max_by(|a, b| {
                            a.1.start
                                .total_cmp(&b.1.start)
                                .then(a.1.inst.cmp(&b.1.inst))
                        })
                        .expect("non-empty");
                    let r = rs.swap_remove(pos);
                    kills += 1;
                    total_running -= 1;
                    class_running[cl.class_of[s]] -= 1;
                    queue.push_front((r.job, r.vertex, 1));
                }
            }
            let free: Vec<i64> = (0..n).map(|s| caps[s] - running[s].len() as i64).collect();
            fen.rebuild(&free);
        }
        // Schedule what waits, first in line first.
        let mut total_free = fen.prefix(n);
        if total_free > 0 && !queue.is_empty() {
            for e in queue.iter_mut() {
                if total_free == 0 {
                    break;
                }
                let job = &jobs[e.0 as usize];
                let secs = tpl[job.template].secs[e.1 as usize];
                while e.2 > 0 {
                    let s = if job.allowed.is_empty() {
                        if total_free == 0 {
                            break;
                        }
                        fen.find((rng.unit() * total_free as f64) as i64)
                    } else {
                        let sums: i64 = job
                            .allowed
                            .iter()
                            .map(|&c| fen.range(cl.ranges[c].0, cl.ranges[c].1))
                            .sum();
                        if sums == 0 {
                            break;
                        }
                        let mut r = (rng.unit() * sums as f64) as i64;
                        let mut pick = None;
                        for &c in &job.allowed {
                            let (lo, hi) = cl.ranges[c];
                            let w = fen.range(lo, hi);
                            if r < w {
                                pick = Some(fen.find(fen.prefix(lo) + r));
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
                    if fen.get(s) <= 0 {
                        break;
                    }
                    inst += 1;
                    running[s].push(Running {
                        start: now,
                        inst,
                        job: e.0,
                        vertex: e.1,
                    });
                    fen.set(s, fen.get(s) - 1);
                    total_free -= 1;
                    total_running += 1;
                    class_running[cl.class_of[s]] += 1;
                    started += 1;
                    heap.push(Reverse((key(now + secs), s as u32, inst)));
                    e.2 -= 1;
                }
            }
            queue.retain(|e| e.2 > 0);
        }
    }
    let cores_total = n as f64 * p.cores_per_server;
    let primary_area: f64 = cl.primary.iter().take(slots).sum::<f64>() * step;
    let denom = cores_total * horizon;
    RunResult {
        seed,
        jobs: arrivals.len(),
        finished,
        avg_job_secs: if finished > 0 {
            exec_sum / finished as f64
        } else {
            0.0
        },
        kills,
        tasks_started: started,
        utilization: 100.0 * (busy_area + primary_area) / denom,
        primary_utilization: 100.0 * primary_area / denom,
        outcomes,
    }
}

fn summary(system: System, runs: Vec<RunResult>) -> SystemResult {
    let f = |g: fn(&RunResult) -> f64| MinAvgMax::of(&runs.iter().map(g).collect::<Vec<_>>());
    SystemResult {
        system,
        avg_job_secs: f(|r| r.avg_job_secs),
        kills: f(|r| r.kills as f64),
        utilization: f(|r| r.utilization),
        runs,
    }
}

/// Runs the simulation of `dags` on `set`'s tenants, every level and run,
/// both systems; `progress(done, total)` after each run.
pub fn simulate(
    set: &TenantSet,
    dags: &[JobDag],
    p: &SimParams,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<SimReport, HarvestError> {
    p.validate()?;
    check(!set.tenants.is_empty(), "tenants", "none to simulate")?;
    check(!dags.is_empty(), "jobs", "no job to simulate")?;
    let step = set.step_secs as f64;
    let slots = ((p.days * 86_400.0 / step).floor() as usize).min(set.slots);
    check(
        slots >= 2,
        "days",
        "leaves fewer than two utilization slots",
    )?;
    let servers = set.servers();
    check(servers > 0, "tenants", "have no server")?;
    let base = templates(dags, 1.0, p.duration_scale)?;
    let mean_work: f64 = base
        .iter()
        .map(|t| {
            t.tasks
                .iter()
                .zip(&t.secs)
                .map(|(&k, &s)| f64::from(k) * s)
                .sum::<f64>()
        })
        .sum::<f64>()
        / base.len() as f64;
    check(mean_work > 0.0, "jobs", "have no work (all tasks last 0 s)")?;
    let task_scale =
        p.batch_load * servers as f64 * p.cores_per_server * p.mean_interarrival_secs / mean_work;
    let tpl = templates(dags, task_scale, p.duration_scale)?;
    let total = p.levels.len() * p.runs * 2;
    let mut done = 0;
    let mut levels = Vec::new();
    for &level in &p.levels {
        let (scaled, scale) = scale_to(set, level, p.scaling)?;
        let classes = classify(&scaled, &p.classify)?;
        let cl = cluster(&scaled, &classes, p, slots);
        let mut pt = Vec::new();
        let mut h = Vec::new();
        for r in 0..p.runs {
            let seed = p.seed.wrapping_add(r as u64);
            pt.push(run_once(&cl, &tpl, step, slots, System::YarnPt, seed, p));
            done += 1;
            progress(done, total);
            h.push(run_once(&cl, &tpl, step, slots, System::YarnH, seed, p));
            done += 1;
            progress(done, total);
        }
        let improvement: Vec<f64> = pt
            .iter()
            .zip(&h)
            .filter(|(a, _)| a.avg_job_secs > 0.0)
            .map(|(a, b)| 100.0 * (1.0 - b.avg_job_secs / a.avg_job_secs))
            .collect();
        levels.push(LevelResult {
            level,
            scale,
            classes: classes.classes.len(),
            pt: summary(System::YarnPt, pt),
            h: summary(System::YarnH, h),
            improvement: MinAvgMax::of(&improvement),
        });
    }
    Ok(SimReport {
        servers,
        days: slots as f64 * step / 86_400.0,
        scaling: p.scaling,
        templates: dags.len(),
        task_scale,
        levels,
        paper: PaperFigures {
            linear_avg_improvement: "12–56 % (DC-9: 0–55 %)".into(),
            root_avg_improvement: "5–45 % (DC-9: 3–41 %)".into(),
            max_improvement: "~90 % linear, ~70 % root".into(),
        },
    })
}
