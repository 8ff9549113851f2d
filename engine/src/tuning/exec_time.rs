//! Algorithm 2: a job's execution time `E(j_v, R_v^job)` under one or more
//! container allocations.
//!
//! The job's tasks, ranked by execution order, go one at a time to the
//! container available earliest; allocation i's containers become available
//! at its time `t_i`; tasks are assigned during allocation i only while a
//! container frees before the next allocation moment `t_{i+1}`. The
//! execution time runs from the first allocation to the last container's
//! release.
//!
//! # Reading of line 14
//!
//! Line 14 prints `max_i A[i] < t_M`, but the text ("there exists a
//! container whose available moment is smaller than the next resource
//! allocation moment") and Figure 5 (at time 7 tasks 2 *and* 3 are running)
//! need `min_i A[i] < t_M`: with `max`, task 3 would not start at 6 in
//! container 1. The loop also runs while a task is pending (`k < |Task_v|`;
//! line 14's `k ≤ |Task_v|` counts from 0 and would read one past the end).
//! Ties go to the lowest-numbered container.

use super::model::Task;
use serde::{Deserialize, Serialize};

/// One allocation `(r, t)` of `R_v^job`: `containers` granted at `at`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Allocation {
    /// Allocation time t, seconds.
    pub at: f64,
    /// Containers granted r (≥ 1).
    pub containers: u32,
}

/// What Algorithm 2 found.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ExecEstimate {
    /// `max A − t_1`, seconds (0 without allocations).
    pub exec_secs: f64,
    /// Tasks assigned (all of them with an infinite horizon; otherwise
    /// those started before it).
    pub assigned: usize,
    /// Task seconds not yet assigned.
    pub unassigned_secs: f64,
}

/// Algorithm 2 on `tasks` (already ranked, see
/// [`TuneJob::ranked_tasks`](super::TuneJob::ranked_tasks)) and
/// `allocations` (by time). The last allocation's `t_M` is `horizon`
/// (`f64::INFINITY` as written; a finite one asks which tasks have started
/// by then, which Algorithm 1 uses to know whether a running job still
/// wants containers).
pub fn execution_time(tasks: &[Task], allocations: &[Allocation], horizon: f64) -> ExecEstimate {
    let Some(first) = allocations.first() else {
        return ExecEstimate {
            exec_secs: 0.0,
            assigned: 0,
            unassigned_secs: tasks.iter().map(|t| t.secs).sum(),
        };
    };
    let t1 = first.at;
    // Line 2–3.
    let mut a: Vec<f64> =
        Vec::with_capacity(allocations.iter().map(|r| r.containers as usize).sum());
    let mut k = 0usize;
    // Line 4.
    for (i, alloc) in allocations.iter().enumerate() {
        // Lines 5–9.
        let t_m = allocations.get(i + 1).map_or(horizon, |next| next.at);
        // Lines 10–13.
        a.extend(std::iter::repeat_n(alloc.at, alloc.containers as usize));
        // Lines 14–18 (min, see the module documentation).
        while k < tasks.len() {
            let Some((star, &earliest)) = a
                .iter()
                .enumerate()
                .min_by(|x, y| x.1.total_cmp(y.1).then(x.0.cmp(&y.0)))
            else {
                break;
            };
            if earliest >= t_m {
                break;
            }
            a[star] = earliest + tasks[k].secs;
            k += 1;
        }
    }
    // Line 20.
    let last = a.iter().copied().fold(t1, f64::max);
    ExecEstimate {
        exec_secs: last - t1,
        assigned: k,
        unassigned_secs: tasks[k..].iter().map(|t| t.secs).sum(),
    }
}

/// The cheap alternative rule of the fourth activation group: the job's
/// work spread evenly over every container it was granted, from the first
/// allocation (`max(longest task, work / containers)`); tasks "started" by
/// `horizon` are those whose cumulative work fits the container-seconds
/// granted by then, plus one per container.
pub fn aggregate_time(tasks: &[Task], allocations: &[Allocation], horizon: f64) -> ExecEstimate {
    if allocations.is_empty() {
        return execution_time(tasks, allocations, horizon);
    }
    let containers: u32 = allocations.iter().map(|a| a.containers).sum();
    let work: f64 = tasks.iter().map(|t| t.secs).sum();
    let longest = tasks.iter().map(|t| t.secs).fold(0.0, f64::max);
    let exec = longest.max(work / f64::from(containers.max(1)));
    let budget: f64 = allocations
        .iter()
        .map(|a| f64::from(a.containers) * (horizon - a.at).max(0.0))
        .sum();
    let mut assigned = 0;
    let mut done = 0.0;
    for t in tasks {
        if done >= budget && assigned >= containers as usize {
            break;
        }
        done += t.secs;
        assigned += 1;
    }
    if horizon.is_infinite() {
        assigned = tasks.len();
    }
    ExecEstimate {
        exec_secs: exec,
        assigned,
        unassigned_secs: tasks[assigned..].iter().map(|t| t.secs).sum(),
    }
}
