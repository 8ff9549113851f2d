//! The limits a cluster runs into, and for each the largest growth of
//! demand the cluster still meets at a given size: the utilization's
//! headroom target per resource (closed form), the agenda placing every
//! signed-off SLO by its deadline (LowCost re-planned at the grown demand)
//! and the pricing queue's earliest feasible finish (the lazy schedule
//! re-built at the grown work).
//!
//! Growth `g` multiplies the demand that grows (the utilization, the SLO
//! jobs' skylines, the queued jobs' work); size `k` multiplies the
//! cluster's capacity (its cores, memory and slots: machines added of the
//! cluster's own shape). A limit *holds* at `(g, k)` when the re-planned
//! cluster meets it.

use super::demand::{AgendaDemand, Demand, QueueDemand};
use super::params::RunwayParams;
use crate::agenda::{batch_fits, Capacity, Method, OptimizeParams, Plan, ReservationRequest};
use crate::model::Resource;
use crate::pricing::{LazySchedule, QueuedJob, Slots};
use serde::{Deserialize, Serialize};

/// Growth beyond which a limit is taken never to bind (a thousandfold).
pub const MAX_GROWTH: f64 = 1_000.0;

/// Relative precision of the largest growth found by bisection (0.1 %: at
/// 5 % a month, under a day of runway).
pub const GROWTH_TOLERANCE: f64 = 1e-3;

/// Points below the largest growth found that are re-planned to check the
/// search's monotone assumption (a heuristic placement need not be
/// monotone; a failure below moves the answer down to it).
pub const CHECK_POINTS: usize = 8;

/// The queue's default limit, as a multiple of today's earliest feasible
/// finish of a mean job: a new job may wait twice as long as today before
/// the queue counts as run out (its admitted jobs' own deadlines are part
/// of the limit anyway: a schedule that misses one fails it).
pub const QUEUE_SLOWDOWN: f64 = 2.0;

/// How the agenda places its requests.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Packing {
    /// LowCost, one request at a time (what the Agenda admits with).
    LowCost,
    /// The batch optimizer, all requests together (the bound: what a better
    /// packing could still admit).
    Optimized,
}

/// One limit.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Limit {
    /// A resource's daily peak over its headroom target.
    Utilization {
        /// The resource.
        resource: Resource,
        /// Today's daily peak, a fraction of capacity.
        level: f64,
        /// Its headroom target.
        target: f64,
    },
    /// The agenda no longer placing every signed-off SLO by its deadline.
    Agenda {
        /// How it packs.
        packing: Packing,
    },
    /// The pricing queue's earliest feasible finish past a limit.
    Queue {
        /// The limit, seconds from now.
        limit_secs: f64,
    },
}

impl Limit {
    /// Its name, as the CLI's JSON and the panel give it.
    pub fn name(&self) -> String {
        match self {
            Limit::Utilization { resource, .. } => format!("{resource} utilization"),
            Limit::Agenda {
                packing: Packing::LowCost,
            } => "agenda".into(),
            Limit::Agenda {
                packing: Packing::Optimized,
            } => "agenda (optimizer)".into(),
            Limit::Queue { .. } => "pricing queue".into(),
        }
    }

    /// What the limit is, in a sentence.
    pub fn describe(&self) -> String {
        match self {
            Limit::Utilization { resource, level, target } => format!(
                "the daily peak of {resource} utilization over {:.0} % (today {:.1} %)",
                target * 100.0,
                level * 100.0
            ),
            Limit::Agenda { packing: Packing::LowCost } => {
                "the agenda no longer placing every signed-off SLO by its deadline (LowCost)".into()
            }
            Limit::Agenda { packing: Packing::Optimized } => {
                "the agenda no longer placing every signed-off SLO by its deadline (batch optimizer)".into()
            }
            Limit::Queue { limit_secs } => format!(
                "a new job of the queue's mean size no longer finishing within {}",
                crate::time::format_duration(limit_secs.round() as i64)
            ),
        }
    }

    /// The limits of `demand` under `params`: each resource's utilization,
    /// the agenda by LowCost, the queue.
    pub fn all(demand: &Demand, params: &RunwayParams) -> Vec<Limit> {
        let mut out: Vec<Limit> = demand
            .utilization
            .iter()
            .filter_map(|p| {
                let level = super::trend::level_now(&p.peaks)?;
                Some(Limit::Utilization {
                    resource: p.resource.clone(),
                    level,
                    target: params.target_of(&p.resource),
                })
            })
            .collect();
        if demand.agenda.is_some() {
            out.push(Limit::Agenda {
                packing: Packing::LowCost,
            });
        }
        if let Some(q) = &demand.queue {
            let limit_secs = params
                .queue_limit_secs
                .or_else(|| queue_finish(q, 1.0, 1.0).map(|f| QUEUE_SLOWDOWN * f))
                .unwrap_or(0.0);
            out.push(Limit::Queue { limit_secs });
        }
        out
    }

    /// Whether the cluster, its capacity × `k`, meets this limit with the
    /// demand that grows × `g`.
    pub fn holds(&self, demand: &Demand, g: f64, k: f64) -> bool {
        match self {
            Limit::Utilization { level, target, .. } => level * g <= target * k + 1e-12,
            Limit::Agenda { packing } => demand
                .agenda
                .as_ref()
                .is_some_and(|a| agenda_holds(a, g, k, *packing)),
            Limit::Queue { limit_secs } => demand
                .queue
                .as_ref()
                .is_some_and(|q| queue_holds(q, g, k, *limit_secs)),
        }
    }

    /// The largest growth the cluster at size `k` still meets (∞ past
    /// [`MAX_GROWTH`]; 0 when even no growth of demand fits, as when a
    /// fixed reservation does not fit). Closed form for utilization;
    /// otherwise a bisection on `g` assuming feasibility is monotone, then
    /// [`CHECK_POINTS`] re-plans below the answer — a failure there
    /// restarts the bisection beneath it, so every point checked below the
    /// answer holds.
    pub fn largest_growth(&self, demand: &Demand, k: f64) -> f64 {
        if let Limit::Utilization { level, target, .. } = self {
            return if *level <= 0.0 {
                f64::INFINITY
            } else {
                target * k / level
            };
        }
        let holds = |g: f64| self.holds(demand, g, k);
        if !holds(GROWTH_TOLERANCE) {
            return 0.0;
        }
        let mut lo = GROWTH_TOLERANCE;
        let mut hi = 1.0;
        while holds(hi) {
            lo = hi;
            hi *= 2.0;
            if hi > MAX_GROWTH {
                return f64::INFINITY;
            }
        }
        loop {
            while hi - lo > GROWTH_TOLERANCE * lo {
                let mid = 0.5 * (lo + hi);
                if holds(mid) {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            let failing = (1..=CHECK_POINTS)
                .map(|i| lo * i as f64 / (CHECK_POINTS + 1) as f64)
                .find(|&g| g > GROWTH_TOLERANCE && !holds(g));
            match failing {
                None => return lo,
                Some(g) => {
                    hi = g;
                    lo = GROWTH_TOLERANCE;
                }
            }
        }
    }
}

/// `r` with its work × `g` and its parallelism × `g` rounded up to whole
/// containers (a stage of 8 containers grown 2 % needs 9 to finish in
/// its step, not 8.16 of which the agenda can give 8); gangs kept, never
/// above the grown parallelism.
pub fn grown(r: &ReservationRequest, g: f64) -> ReservationRequest {
    let mut r = r.clone();
    for s in &mut r.stages {
        s.demand *= g;
        s.max_parallelism = (s.max_parallelism * g - 1e-9).ceil().max(1.0);
        s.gang = s.gang.min(s.max_parallelism);
    }
    r
}

/// Whether the agenda places every request with the recurring ones × `g`
/// on its capacity × `k`: periodic first (they take precedence), then the
/// one-offs, as admission orders them.
pub fn agenda_holds(a: &AgendaDemand, g: f64, k: f64, packing: Packing) -> bool {
    agenda_fits(a, g, k, packing, true).is_some_and(|(holds, _)| holds)
}

/// [`agenda_holds`] and whether the batch optimizer ran for it, or `None`
/// when the answer needs the optimizer and `optimizer` is off (LowCost
/// packs or fails first: milliseconds; the optimizer's run takes seconds,
/// so the runway's lever asks for one at a time).
pub(super) fn agenda_fits(
    a: &AgendaDemand,
    g: f64,
    k: f64,
    packing: Packing,
    optimizer: bool,
) -> Option<(bool, bool)> {
    let capacity = Capacity {
        cores: a.capacity.cores * k,
        memory_mb: a.capacity.memory_mb * k,
    };
    let Ok(mut plan) = Plan::new(a.params.clone(), vec![capacity]) else {
        return Some((false, false));
    };
    let requests: Vec<ReservationRequest> = a
        .recurring
        .iter()
        .chain(&a.recurring_one_offs)
        .map(|r| grown(r, g))
        .chain(a.fixed.iter().cloned())
        .collect();
    match packing {
        Packing::LowCost => Some((
            requests.into_iter().all(|r| {
                plan.admit(r, Method::LowCost)
                    .is_ok_and(|(_, displaced)| displaced.is_empty())
            }),
            false,
        )),
        Packing::Optimized => {
            let fits_lowcost = {
                let mut p = plan.clone();
                requests.iter().all(|r| {
                    p.admit(r.clone(), Method::LowCost)
                        .is_ok_and(|(_, d)| d.is_empty())
                })
            };
            if fits_lowcost {
                Some((true, false))
            } else if optimizer {
                Some((batch_fits(&plan, &requests, &feasibility()), true))
            } else {
                None
            }
        }
    }
}

/// The optimizer's settings when only feasibility is asked: its search as
/// the Agenda's Optimize runs it, without the integer program and with a
/// coarse LP relaxation (the bound certifies a peak; whether the requests
/// fit is the search's answer).
fn feasibility() -> OptimizeParams {
    OptimizeParams {
        ip_max_vars: 0,
        lp_max_vars: 200,
        ..OptimizeParams::default()
    }
}

/// Whether the queue's jobs with work × `g` still meet their deadlines on
/// slots × `k`, and a new job of their mean size × `g` finishes within
/// `limit_secs`.
pub fn queue_holds(q: &QueueDemand, g: f64, k: f64, limit_secs: f64) -> bool {
    queue_finish(q, g, k).is_some_and(|f| f <= limit_secs + 1e-9)
}

/// The earliest feasible finish of a new job of the queue's mean size,
/// the queue's work × `g` on its slots × `k` (`None`: the queue itself no
/// longer meets its deadlines).
pub fn queue_finish(q: &QueueDemand, g: f64, k: f64) -> Option<f64> {
    let jobs: Vec<QueuedJob> = q
        .jobs
        .iter()
        .map(|j| QueuedJob {
            map_work: j.map_work * g,
            reduce_work: j.reduce_work * g,
            ..j.clone()
        })
        .collect();
    let slots = Slots {
        map: q.slots.map * k,
        reduce: q.slots.reduce * k,
    };
    let schedule = LazySchedule::build(&jobs, slots, q.quantum).ok()?;
    let n = jobs.len().max(1) as f64;
    let map = jobs.iter().map(|j| j.map_work).sum::<f64>() / n;
    let reduce = jobs.iter().map(|j| j.reduce_work).sum::<f64>() / n;
    Some(schedule.earliest_finish(map, reduce))
}
