//! Algorithm 1 with per-task container release: the reading that ranks
//! configurations as YARN does (see [`super::latency`] for both readings).
//!
//! Allocation moments `t_M` are every task end and every submission. At
//! each, the free containers are handed out machine by machine, one at a
//! time, as node heartbeats hand them out in YARN and in the simulation:
//! each to a queue by the scheduler's rule (group 1, within the
//! constraint rule's bounds) among the queues with a job that may use
//! that machine (group 3's placement), then to a job by the queue's policy
//! (group 2) among those jobs — the same rules as the literal reading,
//! applied per container so that placement decides before the queue's
//! grant rather than after it. Containers ended at one instant come back
//! one at a time, each followed by an allocation (a stage's last wave
//! has a tail, as on a cluster). What differs from the literal reading is
//! what a job asks for and when containers come back:
//!
//! - **Per-task release.** A granted container starts the job's next task
//!   of its current stage and returns to the pool when that task ends
//!   (Figure 5's "container release time", Algorithm 2's per-container
//!   available moment `A[i]`); it is then allocated again, so a queue's
//!   share binds whenever two queues have work, not only at job ends.
//! - **Stage barrier.** A job's next stage (reduces after maps) is asked
//!   for only when every task of the current one has ended.
//! - **AM containers.** With [`RuleSet::application_master`] each job's
//!   first container is its application master, held to its end; a
//!   queue runs at most [`am_limit`] AMs, admitted by submission.
//! - **User limit.** Under Capacity a job holds at most [`job_limit`].
//! - **Heartbeats and AM start-up** ([`RuleSet::delays`]). A machine
//!   hands out containers only when it heartbeats (machines staggered
//!   evenly over the interval, as the simulation's nodes): after a
//!   release, a submission or an AM ready, each machine's next heartbeat
//!   is an allocation moment for it; an AM asks for its tasks `am_start`
//!   after its grant (with none, from its machine's next heartbeat).
//!   Without them the estimate of short-task jobs sat a sixth below the
//!   simulation.
//!
//! A job's waiting time is its first grant minus its submission (line 6);
//! its execution time runs from there to its last task's end (line 7, as
//! Algorithm 2 measures it); its allocations `R_v^job` are what it was
//! granted at each moment.

use super::exec_time::Allocation;
use super::latency_report::{report, JobLatency, LatencyReport};
use super::limits::{am_limit, job_limit};
use super::model::{Cluster, GroupConfig, TuneJob};
use super::rules::{JobDemand, QueueBounds, QueueDemand, RuleSet};
use super::TuneError;

/// A job's state while the estimate runs.
#[derive(Clone, Debug, Default)]
struct Run {
    /// Stages still to ask for, the next last.
    stages: Vec<Vec<f64>>,
    /// Tasks of the current stage not started.
    pending: Vec<f64>,
    /// Task containers it holds.
    running: u32,
    /// Its AM container's machine, while it holds one.
    am: Option<usize>,
    /// When its AM has started and asks for tasks (with AM containers).
    ready: f64,
    /// First grant.
    first: Option<f64>,
    /// Last task's end.
    finish: Option<f64>,
    /// `R_v^job`: task containers granted per moment.
    allocations: Vec<Allocation>,
}

impl Run {
    fn held(&self) -> u32 {
        self.running + u32::from(self.am.is_some())
    }
    fn remaining_secs(&self) -> f64 {
        self.pending.iter().sum::<f64>() + self.stages.iter().flatten().sum::<f64>()
    }
}

/// A running task: when its container comes back, whose, on which machine.
#[derive(Clone, Copy, Debug)]
struct Release {
    at: f64,
    job: usize,
    machine: usize,
}

/// Algorithm 1, per-task reading (see the module documentation). Inputs
/// are validated by the caller.
pub(crate) fn per_task(
    jobs: &[TuneJob],
    cluster: &Cluster,
    config: &GroupConfig,
    rules: RuleSet,
) -> Result<LatencyReport, TuneError> {
    let total = cluster.containers();
    let allocation = rules.allocation.rule();
    let constraint = rules.constraint.rule();
    let nq = config.queues.len();
    let bounds = rules.queue_bounds(config, total);
    let with_am = rules.application_master;
    let am = u32::from(with_am);
    let am_limits: Vec<u32> = (0..nq)
        .map(|q| am_limit(config.scheduler, &config.queues, q, total, None))
        .collect();
    let job_limits: Vec<u32> = (0..nq)
        .map(|q| job_limit(config.scheduler, &config.queues, q, total, am))
        .collect();
    let mut runs: Vec<Run> = jobs
        .iter()
        .map(|j| {
            let mut stages: Vec<Vec<f64>> = Vec::new();
            let mut last = None;
            for t in j.ranked_tasks() {
                if last != Some(t.stage) {
                    stages.push(Vec::new());
                    last = Some(t.stage);
                }
                if let Some(s) = stages.last_mut() {
                    s.push(t.secs);
                }
            }
            stages.reverse();
            let pending = if with_am {
                Vec::new()
            } else {
                stages.pop().unwrap_or_default()
            };
            Run {
                stages,
                pending,
                ..Run::default()
            }
        })
        .collect();
    let mut free = cluster.machines.clone();
    let machines = free.len();
    let delays = rules.delays;
    // Each machine's next heartbeat that may hand out containers: armed
    // when something changes (a release, a submission, an AM ready), spent
    // when it has beaten. With no heartbeat every machine beats at every
    // moment.
    let mut beat = vec![f64::INFINITY; machines];
    let arm = |beat: &mut [f64], t: f64| {
        for (m, b) in beat.iter_mut().enumerate() {
            *b = b.min(delays.next_heartbeat(m, machines, t));
        }
    };
    let mut releases: Vec<Release> = Vec::new();
    let mut unfinished = jobs.len();
    let mut t_m = 0.0f64;
    while unfinished > 0 {
        if jobs.iter().any(|j| j.submit == t_m)
            || runs
                .iter()
                .any(|r| r.finish.is_none() && r.am.is_some() && r.ready == t_m)
        {
            arm(&mut beat, t_m);
        }
        // Containers whose task has ended by t_M come back one at a time,
        // each followed by an allocation: releases at one instant are
        // never simultaneous on a real cluster (task times vary, nodes
        // heartbeat apart), so a job whose last wave of a stage is ending
        // has a tail in which other jobs (an AM waiting for its slot, say)
        // take containers — as in the simulation. Releasing a whole wave
        // at once would hand every container straight to the job's next
        // stage.
        let mut due: Vec<Release> = Vec::new();
        releases.retain(|r| {
            if r.at <= t_m {
                due.push(*r);
                false
            } else {
                true
            }
        });
        due.sort_by(|a, b| {
            a.at.total_cmp(&b.at)
                .then(a.job.cmp(&b.job))
                .then(a.machine.cmp(&b.machine))
        });
        let mut due = due.into_iter();
        loop {
            if let Some(r) = due.next() {
                arm(&mut beat, r.at);
                free[r.machine] += 1;
                let run = &mut runs[r.job];
                run.running -= 1;
                if run.running == 0 && run.pending.is_empty() {
                    match run.stages.pop() {
                        Some(next) => run.pending = next,
                        None => {
                            run.finish = Some(r.at);
                            if let Some(m) = run.am.take() {
                                free[m] += 1;
                            }
                            unfinished -= 1;
                        }
                    }
                }
            }
            // The machines heartbeating now hand out containers until
            // nothing more is granted (an AM granted asks for its tasks
            // after its start-up).
            let beating: Vec<bool> = beat.iter().map(|&b| b <= t_m).collect();
            while allocate(
                jobs,
                config,
                &rules,
                total,
                &bounds,
                &am_limits,
                &job_limits,
                allocation,
                constraint,
                &mut runs,
                &mut free,
                &mut releases,
                &beating,
                t_m,
            ) {}
            if due.len() == 0 {
                break;
            }
        }
        for b in beat.iter_mut().filter(|b| **b <= t_m) {
            *b = f64::INFINITY;
        }
        if unfinished == 0 {
            break;
        }
        let next_release = releases.iter().map(|r| r.at).fold(f64::INFINITY, f64::min);
        let next_arrival = jobs
            .iter()
            .filter(|j| j.submit > t_m)
            .map(|j| j.submit)
            .fold(f64::INFINITY, f64::min);
        let next_ready = runs
            .iter()
            .filter(|r| r.finish.is_none() && r.am.is_some() && r.ready > t_m)
            .map(|r| r.ready)
            .fold(f64::INFINITY, f64::min);
        let next_beat = beat.iter().copied().fold(f64::INFINITY, f64::min);
        let next = next_release
            .min(next_arrival)
            .min(next_ready)
            .min(next_beat);
        if !next.is_finite() {
            // Application masters hold the only containers the waiting
            // tasks may use (placement, queue maximum): the configuration
            // deadlocks, as it does in YARN and in the simulation. Its
            // unfinished jobs never finish; the search ranks it last.
            if runs.iter().any(|r| r.finish.is_none() && r.am.is_some()) {
                for r in runs.iter_mut().filter(|r| r.finish.is_none()) {
                    r.finish = Some(f64::INFINITY);
                }
                break;
            }
            let v = runs.iter().position(|r| r.finish.is_none()).unwrap_or(0);
            return Err(TuneError::BadJob {
                index: v,
                name: jobs[v].name.clone(),
                why: "can never be given a container (placement or queue maximum)".into(),
            });
        }
        t_m = next;
    }
    Ok(report(jobs.iter().zip(runs).map(|(j, r)| {
        let first = r.first.unwrap_or(j.submit);
        let finish = r.finish.unwrap_or(first);
        JobLatency {
            name: j.name.clone(),
            queue: j.queue,
            wait_secs: (first - j.submit).max(0.0),
            exec_secs: finish - first,
            latency_secs: finish - j.submit,
            allocations: r.allocations,
        }
    })))
}

/// One allocation round at `t_M`; whether anything was granted.
#[allow(clippy::too_many_arguments)]
fn allocate(
    jobs: &[TuneJob],
    config: &GroupConfig,
    rules: &RuleSet,
    total: u32,
    bounds: &[QueueBounds],
    am_limits: &[u32],
    job_limits: &[u32],
    allocation: &dyn super::rules::QueueAllocation,
    constraint: &dyn super::rules::ConstraintCheck,
    runs: &mut [Run],
    free: &mut [u32],
    releases: &mut Vec<Release>,
    beating: &[bool],
    t_m: f64,
) -> bool {
    let nq = config.queues.len();
    let with_am = rules.application_master;
    let free_total: u32 = free.iter().sum();
    if free_total == 0 {
        return false;
    }
    // AMs running per queue, and the jobs waiting for one in submission
    // order (YARN activates applications in that order).
    let mut ams = vec![0u32; nq];
    for (j, r) in jobs.iter().zip(runs.iter()) {
        ams[j.queue] += u32::from(r.am.is_some());
    }
    let mut order: Vec<usize> = (0..jobs.len()).collect();
    order.sort_by(|&a, &b| jobs[a].submit.total_cmp(&jobs[b].submit).then(a.cmp(&b)));
    let mut wanted = vec![0u32; jobs.len()];
    let mut demand = vec![QueueDemand::default(); nq];
    let mut admitted = ams.clone();
    for &v in &order {
        let (j, r) = (&jobs[v], &runs[v]);
        if j.submit > t_m || r.finish.is_some() {
            continue;
        }
        demand[j.queue].used += r.held();
        if with_am && r.am.is_none() {
            if admitted[j.queue] < am_limits[j.queue] {
                admitted[j.queue] += 1;
                wanted[v] = 1;
            }
        } else if r.ready > t_m {
            // Its AM is still starting: no requests yet.
        } else {
            let room = job_limits[j.queue].saturating_sub(r.held());
            wanted[v] = (r.pending.len() as u32)
                .min(j.demand.saturating_sub(r.running))
                .min(room);
        }
        demand[j.queue].wanted += wanted[v];
    }
    // Machine by machine (those heartbeating now), one container at a
    // time, as a node heartbeat hands out its free containers in the
    // simulation: the queue by the
    // scheduler's rule among queues with a job that may use this machine,
    // then the job by the queue's policy among those jobs.
    let mut used: Vec<u32> = demand.iter().map(|d| d.used).collect();
    let mut granted = false;
    // Indexed: the body hands `free` on and gives containers back to it.
    #[allow(clippy::needless_range_loop)]
    for m in (0..free.len()).filter(|&m| beating[m]) {
        while free[m] > 0 {
            let fits = |v: usize| wanted[v] > 0 && constraint.may_use(&jobs[v], m);
            let mut here = vec![QueueDemand::default(); nq];
            for q in 0..nq {
                here[q].used = used[q];
            }
            for v in (0..jobs.len()).filter(|&v| fits(v)) {
                here[jobs[v].queue].wanted += wanted[v];
            }
            let per_queue = allocation.split(1, total, &config.queues, &here, bounds);
            let Some(q) = per_queue.iter().position(|&n| n > 0) else {
                break;
            };
            let members: Vec<usize> = (0..jobs.len())
                .filter(|&v| jobs[v].queue == q && fits(v))
                .collect();
            let facts: Vec<JobDemand> = members
                .iter()
                .map(|&v| JobDemand {
                    submit: jobs[v].submit,
                    held: runs[v].held(),
                    wanted: wanted[v],
                    dominance: jobs[v].dominance(),
                    deadline: jobs[v].deadline.unwrap_or(f64::INFINITY),
                    remaining_secs: runs[v].remaining_secs(),
                })
                .collect();
            let split = config.queues[q].policy.rule().split(1, &facts);
            let Some(k) = split.iter().position(|&n| n > 0) else {
                break;
            };
            let v = members[k];
            free[m] -= 1;
            wanted[v] -= 1;
            used[q] += 1;
            granted = true;
            let r = &mut runs[v];
            r.first.get_or_insert(t_m);
            if with_am && r.am.is_none() {
                r.am = Some(m);
                // Its requests reach the scheduler after this heartbeat
                // has handed out its containers: with no start-up they
                // are served from the next one on (as in the simulation).
                let start = rules.delays.am_start_secs();
                r.ready = if start > 0.0 { t_m + start } else { t_m + 1e-6 };
                r.pending = r.stages.pop().unwrap_or_default();
                // Its tasks are asked for from the next round on.
                wanted[v] = 0;
                continue;
            }
            let Some(secs) = r.pending.pop() else {
                // Nothing to run (cannot happen: grants ≤ wanted); give the
                // container back.
                free[m] += 1;
                wanted[v] = 0;
                continue;
            };
            r.running += 1;
            releases.push(Release {
                at: t_m + secs,
                job: v,
                machine: m,
            });
            match r.allocations.last_mut() {
                Some(a) if a.at == t_m => a.containers += 1,
                _ => r.allocations.push(Allocation {
                    at: t_m,
                    containers: 1,
                }),
            }
        }
    }
    granted
}
