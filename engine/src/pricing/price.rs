//! Price–deadline curves for a new job against the current queue (MRM §4.2).
//!
//! The new job's earliest feasible finish `f` comes from filling the lazy
//! schedule's slack ([`LazySchedule::earliest_finish`]); every later deadline
//! `D` is feasible, and its price falls with the slack it offers. Four price
//! functions are offered:
//!
//! - [`PriceFunction::Mrm`], eq. (13): `κ·(p_j/(δ_j+1) + Σ_i (p_i/(δ'_i+1) − p_i/(δ_i+1)))`
//!   — the job's own term plus a charge for the slack it takes from queued
//!   jobs it jumps ahead of;
//! - [`PriceFunction::Exponential`], eq. (14): `κ·r_j·exp(−δ_j/p_j)`;
//! - [`PriceFunction::Quadratic`], eq. (15): `κ·r_j − δ_j^z/p_j`;
//! - [`PriceFunction::LoadAware`], eq. (16): `r_j·exp(ρ·p_j/γ)` with
//!   `ρ = max(0, 1 − β/p_j)` and `β = D − Σ_{d_k ≤ D} p_k`.
//!
//! Slack is free processing time (the free share of both phases' slots,
//! seconds) normalized by the mean job processing time `γ`. Eqs. (14)–(16)
//! are bounded below by the reserve price `r_j = reserve·p_j/γ`.

use super::schedule::{LazySchedule, QueuedJob, ScheduleError, Slots};
use serde::{Deserialize, Serialize};

/// A price function.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum PriceFunction {
    /// Eq. (13) with its κ (≥ 1: one unit of processing time at zero slack
    /// costs κ).
    Mrm {
        /// Purchasing-power scale.
        kappa: f64,
    },
    /// Eq. (14).
    Exponential {
        /// κ ≥ 1.
        kappa: f64,
    },
    /// Eq. (15).
    Quadratic {
        /// κ ≥ 1.
        kappa: f64,
        /// Exponent z of the slack.
        z: f64,
    },
    /// Eq. (16).
    LoadAware,
}

impl PriceFunction {
    /// The function in words, with its parameters (`MRM eq. (13), κ = 1`),
    /// as the CLI and the plan report name it.
    pub fn label(&self) -> String {
        match self {
            PriceFunction::Mrm { kappa } => format!("MRM eq. (13), κ = {kappa}"),
            PriceFunction::Exponential { kappa } => format!("exponential eq. (14), κ = {kappa}"),
            PriceFunction::Quadratic { kappa, z } => {
                format!("quadratic eq. (15), κ = {kappa}, z = {z}")
            }
            PriceFunction::LoadAware => "load-aware eq. (16)".into(),
        }
    }
}

/// Settings of a price curve.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct PriceParams {
    /// Which function.
    pub function: PriceFunction,
    /// Mean job processing time γ, seconds (from history; slack unit).
    pub mean_job_secs: f64,
    /// Reserve price per mean job of processing time (eqs. 14–16).
    pub reserve: f64,
    /// Number of deadlines on the curve.
    pub points: usize,
    /// The curve spans deadlines from the earliest finish to it plus this
    /// many mean job times.
    pub span_jobs: f64,
    /// Time quantum of the schedule, seconds.
    pub quantum: f64,
}

impl Default for PriceParams {
    fn default() -> Self {
        PriceParams {
            function: PriceFunction::Mrm { kappa: 1.0 },
            mean_job_secs: 60.0,
            reserve: 0.1,
            points: 40,
            span_jobs: 10.0,
            quantum: 1.0,
        }
    }
}

/// One point of a price–deadline curve.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct PricePoint {
    /// Deadline, seconds from now.
    pub deadline: f64,
    /// Slack the job offers at that deadline, in mean job times.
    pub slack: f64,
    /// Price.
    pub price: f64,
}

/// A new job's quote: earliest feasible finish and its price curve.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Quote {
    /// Earliest feasible finish, seconds from now.
    pub earliest_finish: f64,
    /// Processing time `p_j` of the new job alone on the cluster, seconds.
    pub processing_secs: f64,
    /// Deadlines from the earliest finish on, with prices (non-increasing
    /// for eqs. 13–15).
    pub curve: Vec<PricePoint>,
}

fn check(p: &PriceParams) -> Result<(), ScheduleError> {
    let bad = |s: &str| Err(ScheduleError::Invalid(s.into()));
    match p.function {
        PriceFunction::Mrm { kappa } | PriceFunction::Exponential { kappa }
            if !(kappa.is_finite() && kappa >= 1.0) =>
        {
            return bad("κ must be ≥ 1");
        }
        PriceFunction::Quadratic { kappa, z }
            if !(kappa.is_finite() && kappa >= 1.0 && z.is_finite() && z > 0.0) =>
        {
            return bad("κ must be ≥ 1 and z > 0");
        }
        _ => {}
    }
    if !(p.mean_job_secs.is_finite() && p.mean_job_secs > 0.0) {
        return bad("mean job time must be positive");
    }
    if !(p.reserve.is_finite() && p.reserve >= 0.0) {
        return bad("reserve must be ≥ 0");
    }
    if p.points < 2 || !(p.span_jobs.is_finite() && p.span_jobs > 0.0) {
        return bad("a curve needs at least 2 points over a positive span");
    }
    Ok(())
}

/// Processing time of a job alone on the cluster, seconds.
pub fn processing_secs(map_work: f64, reduce_work: f64, slots: Slots) -> f64 {
    map_work / slots.map + reduce_work / slots.reduce
}

/// Prefix sums of the free capacity of a lazy schedule, per phase, so slack
/// in any interval and the new job's placement are O(1)/O(log H) instead of
/// a scan of the horizon.
struct SlackIndex {
    quantum: f64,
    cap: [f64; 2],
    /// `prefix[p][t]`: free slot-seconds of phase `p` in quanta `[0, t)`.
    prefix: [Vec<f64>; 2],
}

impl SlackIndex {
    fn new(s: &LazySchedule) -> Self {
        let h = s.used.len();
        let mut prefix = [vec![0.0; h + 1], vec![0.0; h + 1]];
        for (p, pre) in prefix.iter_mut().enumerate() {
            for t in 0..h {
                pre[t + 1] = pre[t] + (s.capacity[p] - s.used[t][p]);
            }
        }
        SlackIndex {
            quantum: s.quantum,
            cap: s.capacity,
            prefix,
        }
    }

    /// Free slot-seconds of phase `p` in quanta `[0, t)` (all free past the
    /// schedule's end).
    fn f(&self, p: usize, t: usize) -> f64 {
        let pre = &self.prefix[p];
        let h = pre.len() - 1;
        if t <= h {
            pre[t]
        } else {
            pre[h] + (t - h) as f64 * self.cap[p]
        }
    }

    fn q(&self, secs: f64) -> usize {
        (secs / self.quantum).floor().max(0.0) as usize
    }

    /// Free processing time in `[from, to)` seconds, both phases averaged.
    fn free_time(&self, from: f64, to: f64) -> f64 {
        let (a, b) = ((from / self.quantum).ceil() as usize, self.q(to));
        if b <= a {
            return 0.0;
        }
        let share = |p: usize| (self.f(p, b) - self.f(p, a)) / self.cap[p] * self.quantum;
        (share(0) + share(1)) / 2.0
    }

    /// The new job's `work` of phase `p` taken from the latest free capacity
    /// before quantum `end`: the first quantum used and the amount taken
    /// there (the quanta after it are taken whole).
    fn fill_back(&self, p: usize, work: f64, end: usize) -> (usize, f64) {
        if work <= 1e-12 {
            return (end, 0.0);
        }
        let total = self.f(p, end);
        // Largest s with free in [s, end) ≥ work.
        let (mut lo, mut hi) = (0usize, end);
        while lo < hi {
            let mid = (lo + hi).div_ceil(2);
            if total - self.f(p, mid) >= work - 1e-9 {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        let after = total - self.f(p, lo + 1);
        (lo, (work - after).max(0.0))
    }

    /// Slot-seconds of phase `p` the fill `(start, rem)` ending at `end`
    /// takes from quanta `[0, x)`.
    fn taken_before(&self, p: usize, (start, rem): (usize, f64), end: usize, x: usize) -> f64 {
        if x <= start {
            return 0.0;
        }
        let upto = x.min(end);
        rem + if upto > start + 1 {
            self.f(p, upto) - self.f(p, start + 1)
        } else {
            0.0
        }
    }
}

/// Everything the price of one deadline needs, computed once per quote.
struct Pricer<'a> {
    queue: &'a [QueuedJob],
    slots: Slots,
    map_work: f64,
    reduce_work: f64,
    function: PriceFunction,
    gamma: f64,
    /// Earliest feasible finish of the new job.
    f: f64,
    index: SlackIndex,
    /// `p_j`, the new job's processing time alone.
    pj: f64,
    /// Reserve price `r_j`.
    rj: f64,
    /// Each queued job's slack before the new job (mean job times).
    before: Vec<f64>,
    /// Queued jobs by deadline: `(deadline, processing time)`.
    by_deadline: Vec<(f64, f64)>,
    /// Prefix sums of their processing times.
    ahead_prefix: Vec<f64>,
}

impl<'a> Pricer<'a> {
    fn new(
        queue: &'a [QueuedJob],
        slots: Slots,
        map_work: f64,
        reduce_work: f64,
        params: &PriceParams,
    ) -> Result<Self, ScheduleError> {
        check(params)?;
        if !(map_work.is_finite()
            && map_work >= 0.0
            && reduce_work.is_finite()
            && reduce_work >= 0.0)
            || map_work + reduce_work <= 0.0
        {
            return Err(ScheduleError::Invalid(
                "the new job needs positive, finite work".into(),
            ));
        }
        let base = LazySchedule::build(queue, slots, params.quantum)?;
        let f = base.earliest_finish(map_work, reduce_work);
        let index = SlackIndex::new(&base);
        let pj = processing_secs(map_work, reduce_work, slots);
        let gamma = params.mean_job_secs;
        let before: Vec<f64> = queue
            .iter()
            .map(|q| index.free_time(0.0, q.deadline) / gamma)
            .collect();
        let mut by_deadline: Vec<(f64, f64)> = queue
            .iter()
            .map(|q| {
                (
                    q.deadline,
                    processing_secs(q.map_work, q.reduce_work, slots),
                )
            })
            .collect();
        by_deadline.sort_by(|a, b| a.0.total_cmp(&b.0));
        let mut ahead_prefix = vec![0.0];
        for &(_, p) in &by_deadline {
            ahead_prefix.push(ahead_prefix.last().copied().unwrap_or(0.0) + p);
        }
        Ok(Pricer {
            queue,
            slots,
            map_work,
            reduce_work,
            function: params.function,
            gamma,
            f,
            index,
            pj,
            rj: params.reserve * pj / gamma,
            before,
            by_deadline,
            ahead_prefix,
        })
    }

    /// The price of deadline `d ≥ f`.
    fn point(&self, d: f64) -> PricePoint {
        let (index, gamma, pj, rj) = (&self.index, self.gamma, self.pj, self.rj);
        let slack = index.free_time(self.f, d) / gamma;
        let price = match self.function {
            PriceFunction::Mrm { kappa } => {
                // Admitted jobs keep their lazy positions; the new job takes
                // the latest slack before its deadline: reduce work last,
                // map work before it. What it takes before each queued job's
                // deadline is slack that job loses.
                let end = index.q(d);
                let reduce = index.fill_back(1, self.reduce_work, end);
                let map_end = if self.reduce_work > 1e-12 {
                    reduce.0
                } else {
                    end
                };
                let map = index.fill_back(0, self.map_work, map_end);
                let mut charge = 0.0;
                for (q, &b) in self.queue.iter().zip(&self.before) {
                    let x = index.q(q.deadline);
                    let lost = (index.taken_before(0, map, map_end, x) / index.cap[0]
                        + index.taken_before(1, reduce, end, x) / index.cap[1])
                        * index.quantum
                        / 2.0;
                    let a = (b - lost / gamma).max(0.0);
                    let pi = processing_secs(q.map_work, q.reduce_work, self.slots) / gamma;
                    charge += pi / (a + 1.0) - pi / (b + 1.0);
                }
                kappa * (pj / gamma / (slack + 1.0) + charge)
            }
            PriceFunction::Exponential { kappa } => {
                (kappa * rj * (-slack * gamma / pj).exp()).max(rj)
            }
            PriceFunction::Quadratic { kappa, z } => {
                (kappa * rj - slack.powf(z) / (pj / gamma)).max(rj)
            }
            PriceFunction::LoadAware => {
                let n = self.by_deadline.partition_point(|x| x.0 <= d);
                let beta = d - self.ahead_prefix[n] - pj;
                let rho = (1.0 - beta / pj).max(0.0);
                rj * (rho * pj / gamma).exp()
            }
        };
        PricePoint {
            deadline: d,
            slack,
            price,
        }
    }
}

/// Quotes a new job with `map_work`/`reduce_work` (slot-seconds, PI upper
/// bounds) against `queue` on `slots`.
pub fn quote(
    queue: &[QueuedJob],
    slots: Slots,
    map_work: f64,
    reduce_work: f64,
    params: &PriceParams,
) -> Result<Quote, ScheduleError> {
    let pricer = Pricer::new(queue, slots, map_work, reduce_work, params)?;
    let span = params.span_jobs * params.mean_job_secs;
    let curve = (0..params.points)
        .map(|k| pricer.point(pricer.f + span * k as f64 / (params.points - 1) as f64))
        .collect();
    Ok(Quote {
        earliest_finish: pricer.f,
        processing_secs: pricer.pj,
        curve,
    })
}

/// The price of one chosen `deadline` (seconds from now) for the new job,
/// as [`quote`] prices its curve: the price a job admitted with that
/// deadline is charged. Fails with [`ScheduleError::Invalid`] when the
/// deadline is before the job's earliest feasible finish (or not finite).
pub fn price_at(
    queue: &[QueuedJob],
    slots: Slots,
    map_work: f64,
    reduce_work: f64,
    params: &PriceParams,
    deadline: f64,
) -> Result<PricePoint, ScheduleError> {
    let pricer = Pricer::new(queue, slots, map_work, reduce_work, params)?;
    if !deadline.is_finite() || deadline < pricer.f {
        return Err(ScheduleError::Invalid(format!(
            "deadline {deadline} s is before the earliest feasible finish {} s",
            pricer.f
        )));
    }
    Ok(pricer.point(deadline))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pricing::test_support::{figure_7_queue, job, ONE};

    #[test]
    fn empty_queue_eq13_by_hand() {
        // A 60 s job on an empty single-slot cluster, γ = 60 s, κ = 1: at
        // zero slack it pays p_j/γ = 1; with one mean job of slack (the map
        // phase is free, reduce too: free time = D − f) it pays 1/2.
        let p = PriceParams {
            points: 2,
            span_jobs: 1.0,
            ..PriceParams::default()
        };
        let q = quote(&[], ONE, 60.0, 0.0, &p).unwrap();
        assert_eq!(q.earliest_finish, 60.0);
        assert!((q.curve[0].price - 1.0).abs() < 1e-12);
        assert!((q.curve[1].slack - 1.0).abs() < 1e-12);
        assert!((q.curve[1].price - 0.5).abs() < 1e-12);
    }

    #[test]
    fn jumping_ahead_is_charged() {
        // Figure 7's queue: A (10 s) due 70, B (20 s) due 110. A deadline
        // before B's takes slack from B: eq. (13) charges more than the job's
        // own term; a deadline after everyone's charges nothing extra.
        let queue = figure_7_queue();
        let p = PriceParams {
            points: 30,
            span_jobs: 2.0,
            mean_job_secs: 60.0,
            ..PriceParams::default()
        };
        let q = quote(&queue, ONE, 80.0, 0.0, &p).unwrap();
        assert_eq!(q.earliest_finish, 90.0);
        let own = |pt: &PricePoint| q.processing_secs / 60.0 / (pt.slack + 1.0);
        let early = q.curve.iter().find(|pt| pt.deadline < 110.0).unwrap();
        assert!(early.price > own(early) + 1e-9, "{early:?}");
        let late = q.curve.last().unwrap();
        assert!(late.deadline > 110.0);
        assert!((late.price - own(late)).abs() < 1e-9, "{late:?}");
        for w in q.curve.windows(2) {
            assert!(w[1].price <= w[0].price + 1e-9, "non-increasing: {w:?}");
        }
    }

    /// On map-only work the incremental charge equals rebuilding the lazy
    /// schedule with the new job and measuring every queued job's slack
    /// again (the definition in §4.2).
    #[test]
    fn incremental_charge_matches_a_rebuild() {
        use crate::numerics::Rng;
        let mut rng = Rng::new(21);
        let slots = Slots {
            map: 4.0,
            reduce: 1.0,
        };
        for case in 0..60 {
            let mut t = 0.0;
            let queue: Vec<QueuedJob> = (0..rng.int(1, 8))
                .map(|i| {
                    let w = rng.int(4, 60) as f64;
                    t += w / 4.0 + rng.int(0, 20) as f64;
                    job(&format!("j{i}"), w, t.ceil())
                })
                .collect();
            let new = rng.int(4, 80) as f64;
            let p = PriceParams {
                points: 12,
                span_jobs: 3.0,
                mean_job_secs: 10.0,
                ..PriceParams::default()
            };
            let q = quote(&queue, slots, new, 0.0, &p).unwrap();
            let base = LazySchedule::build(&queue, slots, 1.0).unwrap();
            let free = |s: &LazySchedule, to: f64| {
                (s.free_between(0, 0.0, to) / 4.0 + s.free_between(1, 0.0, to)) / 2.0 / 10.0
            };
            for pt in &q.curve {
                let mut with = queue.clone();
                with.push(job("new", new, pt.deadline));
                let after = LazySchedule::build(&with, slots, 1.0).unwrap();
                let mut charge = 0.0;
                for qj in &queue {
                    let pi = qj.map_work / 4.0 / 10.0;
                    charge += pi / (free(&after, qj.deadline) + 1.0)
                        - pi / (free(&base, qj.deadline) + 1.0);
                }
                let want = new / 4.0 / 10.0 / (pt.slack + 1.0) + charge;
                assert!(
                    (pt.price - want).abs() < 1e-9,
                    "case {case} at {}: {} vs {want}",
                    pt.deadline,
                    pt.price
                );
            }
        }
    }

    #[test]
    fn alternatives_and_validation() {
        let queue = [job("A", 10.0, 70.0)];
        let with = |function| {
            quote(
                &queue,
                ONE,
                30.0,
                0.0,
                &PriceParams {
                    function,
                    ..PriceParams::default()
                },
            )
        };
        for f in [
            PriceFunction::Exponential { kappa: 2.0 },
            PriceFunction::Quadratic { kappa: 2.0, z: 2.0 },
            PriceFunction::LoadAware,
        ] {
            let q = with(f).unwrap();
            let r = 0.1 * 30.0 / 60.0;
            assert!(q.curve.iter().all(|pt| pt.price >= r - 1e-12), "{f:?}");
            assert!(
                q.curve.last().unwrap().price <= q.curve[0].price + 1e-12,
                "{f:?}"
            );
        }
        assert!(with(PriceFunction::Mrm { kappa: 0.5 }).is_err());
        assert!(with(PriceFunction::Quadratic { kappa: 1.0, z: 0.0 }).is_err());
        assert!(quote(&queue, ONE, 0.0, 0.0, &PriceParams::default()).is_err());
        assert!(quote(
            &queue,
            ONE,
            1.0,
            0.0,
            &PriceParams {
                mean_job_secs: 0.0,
                ..PriceParams::default()
            }
        )
        .is_err());
    }

    #[test]
    fn price_at_matches_the_curve_and_refuses_early_deadlines() {
        let queue = figure_7_queue();
        let p = PriceParams {
            points: 9,
            span_jobs: 2.0,
            ..PriceParams::default()
        };
        let q = quote(&queue, ONE, 80.0, 0.0, &p).unwrap();
        for pt in &q.curve {
            assert_eq!(
                price_at(&queue, ONE, 80.0, 0.0, &p, pt.deadline).unwrap(),
                *pt
            );
        }
        let early = price_at(&queue, ONE, 80.0, 0.0, &p, q.earliest_finish - 1.0);
        assert!(matches!(early, Err(ScheduleError::Invalid(m)) if m.contains("earliest")));
        assert!(price_at(&queue, ONE, 80.0, 0.0, &p, f64::NAN).is_err());
    }
}
