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
use super::model::{Cluster, GroupConfig, Policy, TuneJob};
use super::rules::{
    ConstraintCheck, JobDemand, QueueAllocation, QueueBounds, QueueDemand, RuleSet,
};
use super::TuneError;
use std::cmp::Ordering;
use std::collections::BinaryHeap;

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

/// What every allocation round of one estimate shares: the jobs, the
/// configuration's rules and limits, and the activation order — fixed for
/// the whole estimate, so computed once rather than at every moment.
struct Setup<'a> {
    jobs: &'a [TuneJob],
    config: &'a GroupConfig,
    rules: &'a RuleSet,
    total: u32,
    bounds: Vec<QueueBounds>,
    am_limits: Vec<u32>,
    job_limits: Vec<u32>,
    allocation: &'static dyn QueueAllocation,
    constraint: &'static dyn ConstraintCheck,
    /// Jobs by submission, then index: the order YARN activates them in.
    order: Vec<usize>,
    /// The same order, per queue.
    queue_order: Vec<Vec<usize>>,
}

/// The estimate's state between moments. Besides each job's run it keeps,
/// up to date at every grant and release, what a round would otherwise
/// recount over every job — containers held and AMs per queue, the jobs
/// that may ask for tasks, the AMs about to start — so that a round costs
/// what the jobs holding containers and the few next in line cost, not
/// the whole backlog: §4.4's snapshots hold a hundred jobs and tens of
/// thousands of tasks, and an estimate runs a round at every task end.
struct State {
    runs: Vec<Run>,
    free: Vec<u32>,
    releases: Vec<Release>,
    /// Containers (AMs and tasks) the jobs of each queue hold.
    used: Vec<u32>,
    /// AMs each queue's jobs hold.
    ams: Vec<u32>,
    /// Jobs that may ask for tasks: those holding an AM (with AM
    /// containers), else every submitted job not finished.
    live: Vec<usize>,
    /// Per queue, where in its activation order the jobs still waiting
    /// for an AM begin (every job before has one or has finished).
    next_wait: Vec<usize>,
    /// Jobs in activation order already made live (without AMs).
    submitted: usize,
    /// AMs that have been granted and start asking later: (ready, job).
    readies: BinaryHeap<Ready>,
    /// Containers each job asks for in the current round, and the jobs
    /// asking (by index).
    wanted: Vec<u32>,
    asking: Vec<usize>,
    /// Buffers a round reuses.
    admitted: Vec<u32>,
    here: Vec<QueueDemand>,
    members: Vec<usize>,
    facts: Vec<JobDemand>,
}

/// An AM's start, ordered so that the heap pops the earliest.
#[derive(Clone, Copy, Debug)]
struct Ready {
    at: f64,
    job: usize,
}

impl PartialEq for Ready {
    fn eq(&self, o: &Self) -> bool {
        self.cmp(o) == Ordering::Equal
    }
}
impl Eq for Ready {}
impl PartialOrd for Ready {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Ready {
    /// Reversed: the earliest first.
    fn cmp(&self, o: &Self) -> Ordering {
        o.at.total_cmp(&self.at).then(o.job.cmp(&self.job))
    }
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
    let nq = config.queues.len();
    let with_am = rules.application_master;
    let am = u32::from(with_am);
    let mut order: Vec<usize> = (0..jobs.len()).collect();
    order.sort_by(|&a, &b| jobs[a].submit.total_cmp(&jobs[b].submit).then(a.cmp(&b)));
    let mut queue_order = vec![Vec::new(); nq];
    for &v in &order {
        queue_order[jobs[v].queue].push(v);
    }
    let setup = Setup {
        jobs,
        config,
        rules: &rules,
        total,
        bounds: rules.queue_bounds(config, total),
        am_limits: (0..nq)
            .map(|q| am_limit(config.scheduler, &config.queues, q, total, None))
            .collect(),
        job_limits: (0..nq)
            .map(|q| job_limit(config.scheduler, &config.queues, q, total, am))
            .collect(),
        allocation: rules.allocation.rule(),
        constraint: rules.constraint.rule(),
        order,
        queue_order,
    };
    // Submission times in order, to find the next arrival and whether one
    // falls now without scanning every job at every moment.
    let submits: Vec<f64> = setup.order.iter().map(|&v| jobs[v].submit).collect();
    let runs: Vec<Run> = jobs
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
    let mut st = State {
        runs,
        free: cluster.machines.clone(),
        releases: Vec::new(),
        used: vec![0; nq],
        ams: vec![0; nq],
        live: Vec::new(),
        next_wait: vec![0; nq],
        submitted: 0,
        readies: BinaryHeap::new(),
        wanted: vec![0; jobs.len()],
        asking: Vec::new(),
        admitted: Vec::new(),
        here: Vec::new(),
        members: Vec::new(),
        facts: Vec::new(),
    };
    let machines = st.free.len();
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
    let mut due: Vec<Release> = Vec::new();
    let mut beating: Vec<bool> = vec![false; machines];
    let mut unfinished = jobs.len();
    let mut t_m = 0.0f64;
    while unfinished > 0 {
        let arrives = submits
            .get(submits.partition_point(|&s| s < t_m))
            .is_some_and(|&s| s == t_m);
        // AMs starting now (each start is a moment: see `next_ready`).
        let mut starts = false;
        while let Some(r) = st.readies.peek().copied().filter(|r| r.at <= t_m) {
            st.readies.pop();
            let run = &st.runs[r.job];
            starts |= r.at == t_m && run.finish.is_none() && run.am.is_some();
        }
        if arrives || starts {
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
        due.clear();
        st.releases.retain(|r| {
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
        let mut next_due = 0;
        loop {
            if let Some(&r) = due.get(next_due) {
                next_due += 1;
                arm(&mut beat, r.at);
                if st.release(jobs, r) {
                    unfinished -= 1;
                }
            }
            // The machines heartbeating now hand out containers until
            // nothing more is granted (an AM granted asks for its tasks
            // after its start-up).
            for (b, &at) in beating.iter_mut().zip(&beat) {
                *b = at <= t_m;
            }
            while st.allocate(&setup, &beating, t_m) {}
            if next_due == due.len() {
                break;
            }
        }
        for b in beat.iter_mut().filter(|b| **b <= t_m) {
            *b = f64::INFINITY;
        }
        if unfinished == 0 {
            break;
        }
        let next_release = st
            .releases
            .iter()
            .map(|r| r.at)
            .fold(f64::INFINITY, f64::min);
        let next_arrival = submits
            .get(submits.partition_point(|&s| s <= t_m))
            .copied()
            .unwrap_or(f64::INFINITY);
        // Every AM granted starts after the moment of its grant; a job
        // holds its AM until it finishes, which it cannot before its AM
        // has started, so the earliest entry is the earliest start.
        let next_ready = st.readies.peek().map_or(f64::INFINITY, |r| r.at);
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
            if st.runs.iter().any(|r| r.finish.is_none() && r.am.is_some()) {
                for r in st.runs.iter_mut().filter(|r| r.finish.is_none()) {
                    r.finish = Some(f64::INFINITY);
                }
                break;
            }
            let v = st.runs.iter().position(|r| r.finish.is_none()).unwrap_or(0);
            return Err(TuneError::BadJob {
                index: v,
                name: jobs[v].name.clone(),
                why: "can never be given a container (placement or queue maximum)".into(),
            });
        }
        t_m = next;
    }
    Ok(report(jobs.iter().zip(st.runs).map(|(j, r)| {
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

impl State {
    /// A task's container comes back; whether its job has finished.
    fn release(&mut self, jobs: &[TuneJob], r: Release) -> bool {
        let q = jobs[r.job].queue;
        self.free[r.machine] += 1;
        self.used[q] -= 1;
        let run = &mut self.runs[r.job];
        run.running -= 1;
        if run.running > 0 || !run.pending.is_empty() {
            return false;
        }
        match run.stages.pop() {
            Some(next) => {
                run.pending = next;
                false
            }
            None => {
                run.finish = Some(r.at);
                if let Some(m) = run.am.take() {
                    self.free[m] += 1;
                    self.used[q] -= 1;
                    self.ams[q] -= 1;
                }
                if let Some(k) = self.live.iter().position(|&v| v == r.job) {
                    self.live.swap_remove(k);
                }
                true
            }
        }
    }

    /// One allocation round at `t_M`; whether anything was granted.
    fn allocate(&mut self, setup: &Setup<'_>, beating: &[bool], t_m: f64) -> bool {
        let Setup {
            jobs,
            config,
            rules,
            total,
            ref bounds,
            ref am_limits,
            ref job_limits,
            allocation,
            constraint,
            ref order,
            ref queue_order,
        } = *setup;
        // Only heartbeating machines hand out containers: with none,
        // nothing is granted (and nothing below need be computed).
        if !beating.iter().any(|&b| b) {
            return false;
        }
        let free_total: u32 = self.free.iter().sum();
        if free_total == 0 {
            return false;
        }
        let nq = config.queues.len();
        let with_am = rules.application_master;
        let State {
            runs,
            free,
            releases,
            used,
            ams,
            live,
            next_wait,
            submitted,
            readies,
            wanted,
            asking,
            admitted,
            here,
            members,
            facts,
        } = self;
        for &v in asking.iter() {
            wanted[v] = 0;
        }
        asking.clear();
        // Without AMs every job submitted by now may ask for tasks.
        while let Some(&v) = order.get(*submitted).filter(|&&v| jobs[v].submit <= t_m) {
            *submitted += 1;
            if !with_am {
                live.push(v);
            }
        }
        // The jobs waiting for an AM, per queue in submission order (YARN
        // activates applications in that order), while the queue is below
        // its AM limit.
        if with_am {
            admitted.clear();
            admitted.extend_from_slice(ams);
            for q in 0..nq {
                let waiting = &queue_order[q];
                let started = |v: usize| runs[v].am.is_some() || runs[v].finish.is_some();
                while waiting.get(next_wait[q]).is_some_and(|&v| started(v)) {
                    next_wait[q] += 1;
                }
                for &v in &waiting[next_wait[q]..] {
                    if admitted[q] >= am_limits[q] || jobs[v].submit > t_m {
                        break;
                    }
                    if !started(v) {
                        admitted[q] += 1;
                        wanted[v] = 1;
                        asking.push(v);
                    }
                }
            }
        }
        // The jobs holding containers ask for their current stage's tasks,
        // once their AM has started, within their demand and user limit.
        for &v in live.iter() {
            let (j, r) = (&jobs[v], &runs[v]);
            if r.ready > t_m {
                continue;
            }
            let room = job_limits[j.queue].saturating_sub(r.held());
            wanted[v] = (r.pending.len() as u32)
                .min(j.demand.saturating_sub(r.running))
                .min(room);
            if wanted[v] > 0 {
                asking.push(v);
            }
        }
        asking.sort_unstable();
        // Machine by machine (those heartbeating now), one container at a
        // time, as a node heartbeat hands out its free containers in the
        // simulation: the queue by the scheduler's rule among queues with
        // a job that may use this machine, then the job by the queue's
        // policy among those jobs.
        let mut granted = false;
        // Indexed: the body hands `free` on and gives containers back to it.
        #[allow(clippy::needless_range_loop)]
        for m in (0..free.len()).filter(|&m| beating[m]) {
            while free[m] > 0 {
                let fits = |v: usize| wanted[v] > 0 && constraint.may_use(&jobs[v], m);
                here.clear();
                here.extend(used.iter().map(|&u| QueueDemand { used: u, wanted: 0 }));
                for &v in asking.iter().filter(|&&v| fits(v)) {
                    here[jobs[v].queue].wanted += wanted[v];
                }
                let per_queue = allocation.split(1, total, &config.queues, here, bounds);
                let Some(q) = per_queue.iter().position(|&n| n > 0) else {
                    break;
                };
                members.clear();
                members.extend(
                    asking
                        .iter()
                        .copied()
                        .filter(|&v| jobs[v].queue == q && fits(v)),
                );
                // Only LRTF reads a job's unstarted work, a sum over all
                // its tasks: computed for it alone, or a job of thousands
                // of tasks makes every grant cost thousands of additions.
                let policy = config.queues[q].policy;
                facts.clear();
                facts.extend(members.iter().map(|&v| JobDemand {
                    submit: jobs[v].submit,
                    held: runs[v].held(),
                    wanted: wanted[v],
                    dominance: jobs[v].dominance(),
                    deadline: jobs[v].deadline.unwrap_or(f64::INFINITY),
                    remaining_secs: if policy == Policy::Lrtf {
                        runs[v].remaining_secs()
                    } else {
                        0.0
                    },
                }));
                let split = policy.rule().split(1, facts);
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
                    ams[q] += 1;
                    live.push(v);
                    // Its requests reach the scheduler after this heartbeat
                    // has handed out its containers: with no start-up they
                    // are served from the next one on (as in the simulation).
                    let start = rules.delays.am_start_secs();
                    r.ready = if start > 0.0 { t_m + start } else { t_m + 1e-6 };
                    readies.push(Ready {
                        at: r.ready,
                        job: v,
                    });
                    r.pending = r.stages.pop().unwrap_or_default();
                    // Its tasks are asked for from the next round on.
                    wanted[v] = 0;
                    continue;
                }
                let Some(secs) = r.pending.pop() else {
                    // Nothing to run (cannot happen: grants ≤ wanted); give
                    // the container back.
                    free[m] += 1;
                    used[q] -= 1;
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
}
