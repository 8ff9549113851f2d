//! MRM §6.3's service-differentiation simulation: one server (the M/G/1
//! queue of Figure 9), delay-sensitive and delay-tolerant users, MRM's
//! priced deadlines on EDF against FCFS and a non-preemptive priority
//! scheduler. The workload is [`sim_workload`](super::sim_workload)'s, the
//! metrics [`sim_report`](super::sim_report)'s.
//!
//! # MRM
//!
//! On arrival a job's estimated time `p̂` (the PI upper limit) is quoted
//! against the unfinished jobs' committed deadlines and remaining estimated
//! work ([`SlackProfile`]); its user takes the earliest deadline whose
//! eq. (13) price ([`Eq13`], κ, slack in units of the mean job time γ, with
//! the charge for slack taken from queued jobs) fits the budget: `α·p̂` for
//! a delay-sensitive user, `p̂` for a delay-tolerant one. The deadline is
//! committed, and jobs run for their *actual* time under **preemptive**
//! EDF (ties in arrival order). Preemptive, because the feasibility test is
//! the lazy schedule's free time, which lets a new job use free time on
//! both sides of a queued job's work (Figure 7: C runs in [0, 60] and
//! [70, 90] around A) — exactly the condition under which preemptive EDF
//! on one server meets every deadline. A non-preemptive EDF could not
//! honour such a deadline once a longer job had started. So with exact
//! estimates no job is ever tardy; tardiness comes from under-estimates
//! only (a job overrunning its estimate delays everyone due after it).
//! While a job runs, its remaining estimate falls with the time served and
//! stays at zero once it overruns.
//!
//! Eq. (13)'s `Q` is "the set of jobs currently enqueued for execution":
//! the jobs waiting, not the one in service (the EDF head at the arrival),
//! whose remaining work still shapes the free time but whose own slack is
//! not charged for. The paper's numbers need this reading: at low load its
//! delay-sensitive users at α = κ offer no slack even at the 95th
//! percentile (Table 6), which they could not afford whenever a
//! delay-tolerant job with slack were in service and charged for. With
//! [`SimParams::charge_in_service`] the job in service is charged too
//! (BENCHMARKS.md compares both).
//!
//! [`SimParams::charge_weight`] scales the charge (eq. 13's second term).
//! At 1, the formula as written, the simulation reproduces the paper's
//! Tables 5–7; its Fig. 9/10 text (35.4 % of delay-sensitive jobs jumping
//! ahead at 40 s, α = 2 and α = 5 giving the same curves at κ = 2) needs a
//! charge about γ times smaller — as if the queued jobs' `p_i` were in mean
//! jobs while `p_j` is in seconds. BENCHMARKS.md shows both.
//!
//! # Baselines
//!
//! Both are non-preemptive and promise, at arrival, the finish predicted
//! from the estimated work in the system: `arrival + remaining estimate of
//! the job in service + estimates of every waiting job + own estimate`.
//! Under **FCFS** that prediction is the actual order, so only
//! under-estimates make jobs tardy. The **priority** scheduler serves
//! delay-sensitive jobs before delay-tolerant ones (FCFS within a class)
//! with the same promise, so a delay-tolerant job overtaken by later
//! delay-sensitive arrivals misses it — the paper's Fig. 9(b).

use super::edf::{Committed, Eq13, SlackProfile};
// Re-exported so `pricing::simulate::Policy` keeps working.
pub use super::policy::Policy;
use super::sim_report::{report, Outcome, PolicyReport, Run};
use super::sim_workload::{generate, Arrivals, SimError, SimJob, SimParams};
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// One simulation's results.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SimReport {
    /// Jobs simulated.
    pub jobs: usize,
    /// Mean inter-arrival time, seconds (measured on the arrivals).
    pub mean_interarrival_secs: f64,
    /// Mean actual processing time of the simulated jobs, seconds.
    pub mean_processing_secs: f64,
    /// γ, the slack unit, seconds.
    pub mean_job_secs: f64,
    /// Offered load: mean processing / mean inter-arrival time (`None`
    /// when all jobs arrive at once).
    pub load: Option<f64>,
    /// One report per policy: MRM, FCFS, priority.
    pub policies: Vec<PolicyReport>,
}

/// Runs MRM, FCFS and priority on the same jobs.
///
/// Cost: per arrival, MRM rebuilds the slack profile of the unfinished jobs
/// (O(queue)) and bisects the price (O(log queue) plus the jobs whose slack
/// the new one would partly take); the baselines are O(1) amortized. An
/// overloaded server (mean processing time above the mean inter-arrival
/// time) makes the queue, and so the run time, grow with the job count.
pub fn simulate(params: &SimParams) -> Result<SimReport, SimError> {
    params.validate()?;
    let pool = params.duration_pool();
    let pool_mean = pool.iter().sum::<f64>() / pool.len() as f64;
    let gamma = params.gamma(pool_mean);
    let jobs = generate(params, &pool, pool_mean);
    let n = jobs.len();
    let span = jobs[n - 1].arrival - jobs[0].arrival;
    let mean_gap = if n > 1 { span / (n - 1) as f64 } else { 0.0 };
    let mean_processing = jobs.iter().map(|j| j.actual).sum::<f64>() / n as f64;
    let policies = Policy::ALL
        .iter()
        .map(|&p| {
            let run = match p {
                Policy::Mrm => run_mrm(&jobs, params, gamma),
                Policy::Fcfs => run_fcfs(&jobs),
                Policy::Priority => run_priority(&jobs),
            };
            report(p, &jobs, &run)
        })
        .collect();
    Ok(SimReport {
        jobs: n,
        mean_interarrival_secs: mean_gap,
        mean_processing_secs: mean_processing,
        mean_job_secs: gamma,
        load: (mean_gap > 0.0).then(|| mean_processing / mean_gap),
        policies,
    })
}

/// [`simulate`] at each mean inter-arrival time (Poisson arrivals; a trace
/// in `params` is replaced), same jobs and seed: Figure 9's load sweep.
pub fn sweep(params: &SimParams, interarrivals: &[f64]) -> Result<Vec<(f64, SimReport)>, SimError> {
    if interarrivals.is_empty() {
        return Err(SimError::Param {
            name: "interarrivals".into(),
            why: "give at least one mean inter-arrival time".into(),
        });
    }
    interarrivals
        .iter()
        .map(|&m| {
            let p = SimParams {
                arrivals: Arrivals::Poisson {
                    mean_interarrival_secs: m,
                },
                ..params.clone()
            };
            simulate(&p).map(|r| (m, r))
        })
        .collect()
}

/// An admitted job under MRM.
struct Active {
    id: usize,
    deadline: f64,
    rem_actual: f64,
    rem_estimate: f64,
    size: f64,
}

/// Runs the head of the EDF queue (earliest deadline) until `until`,
/// finishing jobs on the way.
fn run_edf_until(
    active: &mut VecDeque<Active>,
    now: &mut f64,
    until: f64,
    run: &mut Run,
    dt_in_system: &mut usize,
    jobs: &[SimJob],
) {
    while let Some(head) = active.front_mut() {
        let end = *now + head.rem_actual;
        if end <= until {
            *now = end;
            let id = head.id;
            run.finish(id, end);
            if !jobs[id].ds {
                *dt_in_system -= 1;
            }
            active.pop_front();
        } else {
            let dt = until - *now;
            head.rem_actual -= dt;
            head.rem_estimate = (head.rem_estimate - dt).max(0.0);
            break;
        }
    }
    *now = until;
}

fn run_mrm(jobs: &[SimJob], params: &SimParams, gamma: f64) -> Run {
    let mut run = Run::new(jobs.len(), true);
    let mut active: VecDeque<Active> = VecDeque::new();
    let mut profile = SlackProfile::default();
    let mut eq = Eq13::default();
    let mut now = 0.0;
    let mut dt_in_system = 0usize;
    for (id, j) in jobs.iter().enumerate() {
        let until = j.arrival.max(now);
        run_edf_until(
            &mut active,
            &mut now,
            until,
            &mut run,
            &mut dt_in_system,
            jobs,
        );
        profile.rebuild(
            now,
            active.iter().enumerate().map(|(k, a)| Committed {
                deadline: a.deadline,
                remaining: a.rem_estimate,
                // The job in service is not in eq. (13)'s Q unless asked.
                size: if k == 0 && !params.charge_in_service {
                    0.0
                } else {
                    a.size
                },
            }),
        );
        let p = j.estimate;
        let earliest = profile.earliest_finish(p);
        eq.rebuild(&profile, p, gamma, params.kappa, params.charge_weight);
        let budget = if j.ds { params.alpha * p } else { p };
        let slack = eq.cheapest_slack(&profile, budget);
        let price = eq.price(&profile, slack);
        let deadline = profile.time_with_free(slack + p).max(earliest);
        run.admit(
            id,
            Outcome {
                deadline,
                price,
                slack,
                deadline_gap: deadline - earliest,
                dt_waiting: dt_in_system
                    > active.front().map_or(0, |a| usize::from(!jobs[a.id].ds)),
                ..Outcome::default()
            },
        );
        if !j.ds {
            dt_in_system += 1;
        }
        let at = active.partition_point(|a| a.deadline <= deadline);
        active.insert(
            at,
            Active {
                id,
                deadline,
                rem_actual: j.actual,
                rem_estimate: p,
                size: p,
            },
        );
    }
    run_edf_until(
        &mut active,
        &mut now,
        f64::INFINITY,
        &mut run,
        &mut dt_in_system,
        jobs,
    );
    run
}

fn run_fcfs(jobs: &[SimJob]) -> Run {
    let mut run = Run::new(jobs.len(), false);
    // Unfinished jobs in arrival order with their start and finish.
    let mut system: VecDeque<(usize, f64, f64)> = VecDeque::new();
    let mut estimates = 0.0;
    let mut dt_in_system = 0usize;
    let mut free_at = f64::NEG_INFINITY;
    for (id, j) in jobs.iter().enumerate() {
        while let Some(&(i, _, finish)) = system.front() {
            if finish > j.arrival {
                break;
            }
            system.pop_front();
            estimates -= jobs[i].estimate;
            dt_in_system -= usize::from(!jobs[i].ds);
            run.finish(i, finish);
        }
        if system.is_empty() {
            estimates = 0.0;
        }
        let (ahead, dt_waiting) = match system.front() {
            Some(&(i, start, _)) => {
                let served = (j.arrival - start).max(0.0);
                (
                    estimates - jobs[i].estimate + (jobs[i].estimate - served).max(0.0),
                    dt_in_system > usize::from(!jobs[i].ds),
                )
            }
            None => (0.0, false),
        };
        run.admit(
            id,
            Outcome {
                deadline: j.arrival + ahead + j.estimate,
                dt_waiting,
                ..Outcome::default()
            },
        );
        let start = j.arrival.max(free_at);
        free_at = start + j.actual;
        dt_in_system += usize::from(!j.ds);
        system.push_back((id, start, free_at));
        estimates += j.estimate;
    }
    for (i, _, finish) in system {
        run.finish(i, finish);
    }
    run
}

/// The non-preemptive priority server: two FIFO queues, delay-sensitive
/// first.
#[derive(Default)]
struct PriorityServer {
    queues: [VecDeque<usize>; 2],
    /// Estimated work of the waiting jobs.
    waiting: f64,
    /// The job in service: id, start, finish.
    current: Option<(usize, f64, f64)>,
    free_at: f64,
}

impl PriorityServer {
    /// Serves jobs until `until`: finishes those done by then and starts
    /// the next waiting one whenever the server frees up.
    fn advance(&mut self, until: f64, jobs: &[SimJob], run: &mut Run) {
        loop {
            if let Some((i, _, finish)) = self.current {
                if finish > until {
                    return;
                }
                run.finish(i, finish);
                self.free_at = finish;
                self.current = None;
            }
            let next = self.queues[0]
                .pop_front()
                .or_else(|| self.queues[1].pop_front());
            let Some(i) = next else {
                self.waiting = 0.0;
                return;
            };
            self.waiting -= jobs[i].estimate;
            let start = self.free_at.max(jobs[i].arrival);
            self.current = Some((i, start, start + jobs[i].actual));
        }
    }
}

fn run_priority(jobs: &[SimJob]) -> Run {
    let mut run = Run::new(jobs.len(), false);
    let mut server = PriorityServer::default();
    for (id, j) in jobs.iter().enumerate() {
        server.advance(j.arrival, jobs, &mut run);
        let in_service = server.current.map_or(0.0, |(i, start, _)| {
            (jobs[i].estimate - (j.arrival - start).max(0.0)).max(0.0)
        });
        run.admit(
            id,
            Outcome {
                deadline: j.arrival + in_service + server.waiting + j.estimate,
                dt_waiting: !server.queues[1].is_empty(),
                ..Outcome::default()
            },
        );
        server.queues[usize::from(!j.ds)].push_back(id);
        server.waiting += j.estimate;
        if server.current.is_none() {
            server.advance(j.arrival, jobs, &mut run);
        }
    }
    server.advance(f64::INFINITY, jobs, &mut run);
    run
}
