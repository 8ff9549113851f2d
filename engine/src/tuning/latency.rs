//! Algorithm 1: the configuration-sensitive job latency comparison
//! `L(R·c^Ratio, J_i, C_i, S_i)`.
//!
//! Rounds of allocation: at the moment `t_M` the allocatable containers
//! `r_A` go to the jobs by the configuration's rules ([`RuleSet`]: queues
//! by the scheduler's rule within the constraint rule's bounds, then jobs
//! by each queue's policy, then machines by placement); each job granted
//! containers gets its waiting time `w_v = max(t_M − b_v, 0)` (line 6), its
//! execution time `e_v = E(j_v, R_v^job)` by the estimation rule (line 7,
//! Algorithm 2 by default), its latency `l_v = w_v + e_v` (line 8) and its
//! completion `b_v + l_v` in `J^Run` (line 9). The job finishing first
//! then releases its containers and sets the next moment (lines 12–14).
//! The result is the mean latency (line 16).
//!
//! # Two readings
//!
//! [`Reading::PerTask`] (the default, in `tuning::release`) releases each
//! task's container when the task ends and allocates again at every
//! release, with stages as barriers, AM containers and YARN's AM and user
//! limits: what Figure 5's caption ("container release time") and
//! Algorithm 2's per-container available moments describe, and what the
//! simulation does. [`Reading::Literal`] (this file) is the pseudo-code as
//! printed: containers come back only when a whole job ends, so queues
//! elastic up to 90 % hardly ever compete and every share estimates
//! alike on light mixes — kept to show the difference.
//!
//! # Readings of the pseudo-code (the literal variant)
//!
//! - **Multiple allocations.** Line 10 removes a job from `J_i` once it is
//!   allocated, yet Algorithm 2 and Figure 5 estimate jobs under several
//!   allocations made as containers free up. We keep a job in `J_i` while it
//!   holds fewer containers than it asks for and still has tasks that have
//!   not started by `t_M` (per Algorithm 2 with `t_M` as horizon); later
//!   rounds append to its `R_v^job` and re-estimate `e_v` and its
//!   completion. Its waiting time is fixed by its first allocation.
//! - **Lines 13–14.** `t_M = R^{Job*}` is read as `t_M = t*`, and
//!   `r_A = r*` as "the released `r*` joins the containers still
//!   unallocated" (otherwise containers left idle by a round, as `q1`'s
//!   second one in Figure 7a, would vanish).
//! - **Arrivals.** Line 4 allocates only to jobs submitted by `t_M`; when no
//!   job finishes before the next submission, `t_M` moves to it. With every
//!   job submitted at 0 (the paper's tuning snapshots) this never fires.
//! - A job's containers are released when it completes (line 9's
//!   `(b_v + l_v, R_v^job)`), not task by task.
//! - With [`RuleSet::application_master`] (off by default) a job's first
//!   container is its YARN AM: it asks for one more and Algorithm 2 sees
//!   its first allocation one container short.

use super::exec_time::Allocation;
use super::latency_report::report;
pub use super::latency_report::{JobLatency, LatencyReport};
use super::model::{validate_jobs, Cluster, GroupConfig, Task, TuneJob};
use super::rules::{place_in_queue, JobDemand, QueueDemand, Reading, RuleSet};
use super::TuneError;

/// A job's state during the rounds.
struct State {
    tasks: Vec<Task>,
    allocations: Vec<Allocation>,
    /// Containers held per machine.
    machines: Vec<(usize, u32)>,
    held: u32,
    wait: f64,
    exec: f64,
    completion: f64,
    /// In `J_i`: still wants containers.
    waiting: bool,
    /// In `J^Run`.
    running: bool,
}

/// Algorithm 1 for `jobs` on `cluster` under `config` with `rules`.
/// Validates its inputs; a job that can never get a container (placement
/// on machines without containers) is refused.
pub fn compare(
    jobs: &[TuneJob],
    cluster: &Cluster,
    config: &GroupConfig,
    rules: RuleSet,
) -> Result<LatencyReport, TuneError> {
    config.validate()?;
    validate_jobs(jobs, config.queues.len())?;
    compare_unchecked(jobs, cluster, config, rules)
}

/// [`compare`] without validating (the search validates once), in the
/// reading `rules.reading` names.
pub(crate) fn compare_unchecked(
    jobs: &[TuneJob],
    cluster: &Cluster,
    config: &GroupConfig,
    rules: RuleSet,
) -> Result<LatencyReport, TuneError> {
    match rules.reading {
        Reading::PerTask => super::release::per_task(jobs, cluster, config, rules),
        Reading::Literal => literal(jobs, cluster, config, rules),
    }
}

/// Algorithm 1 read literally (see the module documentation).
fn literal(
    jobs: &[TuneJob],
    cluster: &Cluster,
    config: &GroupConfig,
    rules: RuleSet,
) -> Result<LatencyReport, TuneError> {
    let total = cluster.containers();
    let allocation = rules.allocation.rule();
    let constraint = rules.constraint.rule();
    let exec = rules.exec.rule();
    let bounds = rules.queue_bounds(config, total);
    let nq = config.queues.len();
    let mut state: Vec<State> = jobs
        .iter()
        .map(|j| State {
            tasks: j.ranked_tasks(),
            allocations: Vec::new(),
            machines: Vec::new(),
            held: 0,
            wait: 0.0,
            exec: 0.0,
            completion: f64::INFINITY,
            waiting: true,
            running: false,
        })
        .collect();
    // Lines 1–2.
    let mut free: Vec<u32> = cluster.machines.clone();
    let mut t_m = 0.0f64;
    let mut wanted = vec![0u32; jobs.len()];
    // Line 3.
    while state.iter().any(|s| s.waiting) {
        // Line 4: what each submitted job still asks for.
        let mut demand = vec![QueueDemand::default(); nq];
        for (v, (j, s)) in jobs.iter().zip(&mut state).enumerate() {
            wanted[v] = 0;
            if s.running {
                demand[j.queue].used += s.held;
            }
            if !s.waiting || j.submit > t_m {
                continue;
            }
            let unstarted = if s.allocations.is_empty() {
                s.tasks.len()
            } else {
                let est = exec.estimate(&s.tasks, &s.allocations, t_m);
                s.tasks.len() - est.assigned
            };
            if unstarted == 0 {
                s.waiting = false;
                continue;
            }
            let am = u32::from(rules.application_master);
            let tasks_held = s
                .held
                .saturating_sub(if s.allocations.is_empty() { 0 } else { am });
            wanted[v] = j.demand.saturating_sub(tasks_held).min(unstarted as u32)
                + if s.allocations.is_empty() { am } else { 0 };
            demand[j.queue].wanted += wanted[v];
        }
        let free_total: u32 = free.iter().sum();
        let per_queue = allocation.split(free_total, total, &config.queues, &demand, &bounds);
        let mut granted_any = false;
        for (q, &n) in per_queue.iter().enumerate() {
            if n == 0 {
                continue;
            }
            let members: Vec<usize> = (0..jobs.len())
                .filter(|&v| jobs[v].queue == q && wanted[v] > 0)
                .collect();
            let facts: Vec<JobDemand> = members
                .iter()
                .map(|&v| {
                    let j = &jobs[v];
                    let s = &state[v];
                    JobDemand {
                        submit: j.submit,
                        held: s.held,
                        wanted: wanted[v],
                        dominance: j.dominance(),
                        deadline: j.deadline.unwrap_or(f64::INFINITY),
                        remaining_secs: if s.allocations.is_empty() {
                            j.work()
                        } else {
                            exec.estimate(&s.tasks, &s.allocations, t_m).unassigned_secs
                        },
                    }
                })
                .collect();
            let got = place_in_queue(
                config.queues[q].policy,
                n,
                facts,
                &mut free,
                &mut |k, m| constraint.may_use(&jobs[members[k]], m),
                &mut |k, m, take| state[members[k]].machines.push((m, take)),
            );
            // Lines 5–11 for the jobs of this queue granted something.
            for (&v, &count) in members.iter().zip(&got) {
                if count == 0 {
                    continue;
                }
                let j = &jobs[v];
                let s = &mut state[v];
                granted_any = true;
                if s.allocations.is_empty() {
                    s.wait = (t_m - j.submit).max(0.0); // line 6
                }
                // The AM takes the first container and runs no task.
                let am = u32::from(rules.application_master && s.allocations.is_empty());
                s.allocations.push(Allocation {
                    at: t_m,
                    containers: count - am,
                });
                s.held += count;
                s.exec = exec
                    .estimate(&s.tasks, &s.allocations, f64::INFINITY)
                    .exec_secs; // line 7
                s.completion = j.submit + s.wait + s.exec; // lines 8–9
                s.running = true;
                if s.held >= j.demand + u32::from(rules.application_master) {
                    s.waiting = false; // line 10
                }
            }
        }
        // Line 12: the job finishing first, or the next submission.
        let finish = state
            .iter()
            .enumerate()
            .filter(|(_, s)| s.running)
            .min_by(|a, b| {
                a.1.completion
                    .total_cmp(&b.1.completion)
                    .then(a.0.cmp(&b.0))
            });
        let arrival = jobs
            .iter()
            .zip(&state)
            .filter(|(j, s)| s.waiting && j.submit > t_m)
            .map(|(j, _)| j.submit)
            .fold(f64::INFINITY, f64::min);
        match finish {
            Some((v, s)) if s.completion <= arrival => {
                // Lines 13–14.
                t_m = t_m.max(s.completion);
                let s = &mut state[v];
                s.running = false;
                s.waiting = false;
                for (m, n) in s.machines.drain(..) {
                    free[m] += n;
                }
            }
            _ if arrival.is_finite() => t_m = arrival,
            _ => {
                if !granted_any {
                    if let Some(v) = state.iter().position(|s| s.waiting) {
                        return Err(TuneError::BadJob {
                            index: v,
                            name: jobs[v].name.clone(),
                            why: "can never be given a container (placement or queue maximum)"
                                .into(),
                        });
                    }
                }
            }
        }
    }
    Ok(report(jobs.iter().zip(state).map(|(j, s)| JobLatency {
        name: j.name.clone(),
        queue: j.queue,
        wait_secs: s.wait,
        exec_secs: s.exec,
        latency_secs: s.wait + s.exec,
        allocations: s.allocations,
    })))
}
