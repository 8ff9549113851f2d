//! The deadline queue of one server in continuous time (MRM §5 on the
//! M/G/1 queue of §6.3): the slack that committed deadlines leave, the
//! earliest feasible finish of a new job, and the earliest deadline a user
//! can afford under eq. (13).
//!
//! [`LazySchedule`](super::LazySchedule) lays jobs out on a time quantum over
//! map and reduce slots; a simulation of 500,000 arrivals on one server
//! needs the same quantities without the quantum's horizon-sized arrays.
//! On one preemptive server they have a closed form. With the unfinished
//! jobs sorted by deadline `d_1 ≤ … ≤ d_n`, their remaining estimated work
//! `w_k`, `W_k = w_1 + … + w_k` and the EDF slack `s_k = d_k − now − W_k`,
//! the free time that the lazy (as-late-as-possible) schedule leaves in
//! `[now, x)` is
//!
//! `F(x) = max(0, min(x − now − W(≤ x), min_{d_k ≥ x} s_k))`
//!
//! — the time not needed by jobs due by `x`, capped by what every later
//! deadline still needs before it. A new job of work `p` fits with deadline
//! `D` (preemptive EDF meets every deadline) exactly when `F(D) ≥ p`; its
//! earliest feasible finish is `F⁻¹(p)`, and the slack it offers at `D` is
//! `F(D) − p` (the free time between its earliest finish and `D`, the
//! paper's δ·γ).
//!
//! Eq. (13)'s charge: the new job is placed lazily, in the latest free time
//! before its deadline, so a queued job `i` loses `clamp(F(d_i) − δγ, 0, p)`
//! of the free time before its deadline, where `δγ` is the new job's slack
//! in seconds. The charge therefore depends only on the `F(d_i)`, which are
//! sorted with the deadlines: queued jobs with `F(d_i) ≤ δγ` lose nothing,
//! those with `F(d_i) ≥ δγ + p` lose all of `p` (a suffix sum), and only
//! those in between are summed one by one.

use serde::{Deserialize, Serialize};

/// An admitted, unfinished job as the scheduler sees it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Committed {
    /// Committed deadline, seconds (absolute).
    pub deadline: f64,
    /// Remaining estimated work, seconds (≥ 0).
    pub remaining: f64,
    /// Estimated processing time of the whole job, seconds: its weight
    /// `p_i` in eq. (13).
    pub size: f64,
}

/// The free time committed deadlines leave on one server at `now`, with the
/// sums eq. (13) needs; built once per arrival in O(n), queried in
/// O(log n).
#[derive(Clone, Debug, Default)]
pub struct SlackProfile {
    now: f64,
    deadlines: Vec<f64>,
    /// `prefix[k]`: remaining work of the first `k` jobs by deadline.
    prefix: Vec<f64>,
    /// `smin[k] = min_{j ≥ k} s_j`, `+∞` at `n`.
    smin: Vec<f64>,
    /// `F(d_k)` (non-decreasing).
    free: Vec<f64>,
    sizes: Vec<f64>,
}

impl SlackProfile {
    /// The profile of `jobs`, which must be sorted by deadline.
    pub fn new(now: f64, jobs: &[Committed]) -> SlackProfile {
        let mut p = SlackProfile::default();
        p.rebuild(now, jobs.iter().copied());
        p
    }

    /// Rebuilds in place (keeps the buffers) from jobs sorted by deadline.
    pub fn rebuild(&mut self, now: f64, jobs: impl ExactSizeIterator<Item = Committed>) {
        let n = jobs.len();
        self.now = now;
        self.deadlines.clear();
        self.sizes.clear();
        self.prefix.clear();
        self.prefix.push(0.0);
        let mut w = 0.0;
        for j in jobs {
            w += j.remaining.max(0.0);
            self.deadlines.push(j.deadline);
            self.sizes.push(j.size);
            self.prefix.push(w);
        }
        self.smin.clear();
        self.smin.resize(n + 1, f64::INFINITY);
        for k in (0..n).rev() {
            let s = self.deadlines[k] - now - self.prefix[k + 1];
            self.smin[k] = s.min(self.smin[k + 1]);
        }
        self.free.clear();
        self.free.extend(self.smin[..n].iter().map(|s| s.max(0.0)));
    }

    /// Number of committed jobs.
    pub fn len(&self) -> usize {
        self.deadlines.len()
    }

    /// Whether no job is committed.
    pub fn is_empty(&self) -> bool {
        self.deadlines.is_empty()
    }

    /// `F(x)`: free time of the lazy schedule in `[now, x)`.
    pub fn free_before(&self, x: f64) -> f64 {
        if x <= self.now {
            return 0.0;
        }
        let due = self.deadlines.partition_point(|&d| d <= x);
        let later = self.deadlines.partition_point(|&d| d < x);
        (x - self.now - self.prefix[due])
            .min(self.smin[later])
            .max(0.0)
    }

    /// `F⁻¹(v)`: the earliest time with `v > 0` seconds of free time before
    /// it. The first job whose suffix slack reaches `v` bounds the segment
    /// it falls in (see the module documentation), so the answer is `now`
    /// plus the work due before that job plus `v`.
    pub fn time_with_free(&self, v: f64) -> f64 {
        let k = self.smin.partition_point(|&s| s < v);
        self.now + self.prefix[k] + v
    }

    /// Earliest feasible finish of a new job with estimated work `p`.
    pub fn earliest_finish(&self, p: f64) -> f64 {
        self.time_with_free(p)
    }

    /// `F(d_i)` of every committed job, in deadline order.
    pub fn free_at_deadlines(&self) -> &[f64] {
        &self.free
    }
}

/// Eq. (13) for one new job against a [`SlackProfile`], as a function of
/// the slack it offers.
#[derive(Clone, Debug, Default)]
pub struct Eq13 {
    p: f64,
    gamma: f64,
    kappa: f64,
    /// Weight of the charge (eq. 13's second term); 1 is the formula.
    charge_weight: f64,
    /// `suffix[k]`: the charge of queued jobs `k..` when each loses all of
    /// `p` (only read where `F(d_k) ≥ p`).
    suffix: Vec<f64>,
}

impl Eq13 {
    /// Prices a new job of estimated work `p` with mean job time `gamma`
    /// (the slack unit γ) and scale `kappa`; the charge for queued jobs'
    /// slack is multiplied by `charge_weight` (1 for eq. 13 as written).
    pub fn new(profile: &SlackProfile, p: f64, gamma: f64, kappa: f64, charge_weight: f64) -> Eq13 {
        let mut e = Eq13::default();
        e.rebuild(profile, p, gamma, kappa, charge_weight);
        e
    }

    /// Rebuilds in place for a new job.
    pub fn rebuild(
        &mut self,
        profile: &SlackProfile,
        p: f64,
        gamma: f64,
        kappa: f64,
        charge_weight: f64,
    ) {
        self.p = p;
        self.gamma = gamma;
        self.kappa = kappa;
        self.charge_weight = charge_weight;
        let n = profile.len();
        self.suffix.clear();
        self.suffix.resize(n + 1, 0.0);
        for k in (0..n).rev() {
            let term = Self::term(profile.free[k], p, profile.sizes[k], gamma);
            self.suffix[k] = self.suffix[k + 1] + term;
        }
    }

    /// `p_i·(1/(δ'_i + 1) − 1/(δ_i + 1))` for a queued job with `free`
    /// seconds of slack before its deadline that loses `lost` of them.
    fn term(free: f64, lost: f64, size: f64, gamma: f64) -> f64 {
        if lost <= 0.0 {
            return 0.0;
        }
        let after = (free - lost).max(0.0);
        size * (gamma / (after + gamma) - gamma / (free + gamma))
    }

    /// The price, in seconds of processing (one token buys one second), of
    /// offering `slack` seconds (δ·γ) of slack.
    pub fn price(&self, profile: &SlackProfile, slack: f64) -> f64 {
        let free = &profile.free;
        let lo = free.partition_point(|&f| f <= slack);
        let hi = free.partition_point(|&f| f < slack + self.p).max(lo);
        let mut charge = self.suffix[hi];
        for (&f, &size) in free[lo..hi].iter().zip(&profile.sizes[lo..hi]) {
            charge += Self::term(f, f - slack, size, self.gamma);
        }
        self.kappa * (self.p * self.gamma / (slack + self.gamma) + self.charge_weight * charge)
    }

    /// The least slack (seconds) whose price is within `budget`: zero if
    /// that is affordable, else by bisection on the non-increasing price —
    /// past the last queued job's free time the charge is zero and the
    /// own term `κ·p/(δ + 1)` is solved in closed form.
    pub fn cheapest_slack(&self, profile: &SlackProfile, budget: f64) -> f64 {
        // A budget of exactly the price buys it despite rounding.
        let fits = |s: f64| self.price(profile, s) <= budget * (1.0 + 1e-12);
        if fits(0.0) {
            return 0.0;
        }
        let last = profile.free.last().copied().unwrap_or(0.0);
        if !fits(last) {
            // Only the own term is left: κ·p·γ/(s + γ) ≤ budget.
            let s = self.gamma * (self.kappa * self.p / budget - 1.0);
            return s.max(last);
        }
        let (mut lo, mut hi) = (0.0, last);
        // 1e-9 of the span or of a mean job, whichever is larger.
        let tol = 1e-9 * hi.max(self.gamma);
        while hi - lo > tol {
            let mid = 0.5 * (lo + hi);
            if fits(mid) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        hi
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::numerics::Rng;
    use crate::pricing::test_support::ONE;
    use crate::pricing::{LazySchedule, QueuedJob};

    fn c(deadline: f64, work: f64) -> Committed {
        Committed {
            deadline,
            remaining: work,
            size: work,
        }
    }

    /// Figure 7: A (10 s) due 70, B (20 s) due 110; C of 80 s finishes at
    /// 90, C of 100 s at 130.
    #[test]
    fn figure_7() {
        let p = SlackProfile::new(0.0, &[c(70.0, 10.0), c(110.0, 20.0)]);
        assert_eq!(p.earliest_finish(80.0), 90.0);
        assert_eq!(p.earliest_finish(100.0), 130.0);
        assert_eq!(p.earliest_finish(30.0), 30.0);
        assert_eq!(p.free_before(60.0), 60.0);
        assert_eq!(p.free_before(70.0), 60.0);
        assert_eq!(p.free_before(100.0), 80.0);
        assert_eq!(p.free_before(120.0), 90.0);
        assert_eq!(p.free_at_deadlines(), &[60.0, 80.0]);
    }

    fn random_queue(rng: &mut Rng) -> Vec<Committed> {
        let mut t = 0.0;
        let mut jobs: Vec<Committed> = (0..rng.int(0, 6))
            .map(|_| {
                let w = rng.int(1, 30) as f64;
                t += w + rng.int(0, 25) as f64;
                c(t, w)
            })
            .collect();
        jobs.sort_by(|a, b| a.deadline.total_cmp(&b.deadline));
        jobs
    }

    /// The same jobs as map-only work for the quantum lazy schedule.
    fn queued(jobs: &[Committed]) -> Vec<QueuedJob> {
        jobs.iter()
            .enumerate()
            .map(|(i, j)| QueuedJob {
                name: format!("j{i}"),
                map_work: j.remaining,
                reduce_work: 0.0,
                deadline: j.deadline,
            })
            .collect()
    }

    /// On integer instances the closed form agrees with the quantum-based
    /// lazy schedule on one slot: free time before every second and the
    /// earliest finish.
    #[test]
    fn matches_the_lazy_schedule_on_one_slot() {
        let mut rng = Rng::new(3);
        for case in 0..300 {
            let jobs = random_queue(&mut rng);
            let lazy = LazySchedule::build(&queued(&jobs), ONE, 1.0).unwrap();
            let p = SlackProfile::new(0.0, &jobs);
            for x in 0..250 {
                let x = f64::from(x);
                assert_eq!(
                    p.free_before(x),
                    lazy.free_between(0, 0.0, x),
                    "case {case} at {x}: {jobs:?}"
                );
            }
            let new = rng.int(1, 60) as f64;
            assert_eq!(
                p.earliest_finish(new),
                lazy.earliest_finish(new, 0.0),
                "case {case}: {jobs:?} + {new}"
            );
        }
    }

    /// Preemptive EDF run to completion: does every job meet its deadline?
    fn edf_meets_all(now: f64, jobs: &[Committed]) -> bool {
        let mut v = jobs.to_vec();
        v.sort_by(|a, b| a.deadline.total_cmp(&b.deadline));
        let mut t = now;
        v.iter().all(|j| {
            t += j.remaining;
            t <= j.deadline + 1e-9
        })
    }

    /// The earliest finish is the least deadline EDF can meet with everyone
    /// else's intact (brute force over a fine grid), at a nonzero `now`
    /// with fractional work.
    #[test]
    fn earliest_finish_is_the_least_feasible_deadline() {
        let mut rng = Rng::new(17);
        for case in 0..300 {
            let now = rng.uniform(0.0, 100.0);
            let mut t = now;
            let jobs: Vec<Committed> = (0..rng.int(0, 5))
                .map(|_| {
                    let w = rng.uniform(0.5, 20.0);
                    t += w + rng.uniform(0.0, 15.0);
                    c(t, w)
                })
                .collect();
            let p = SlackProfile::new(now, &jobs);
            let new = rng.uniform(0.5, 40.0);
            let f = p.earliest_finish(new);
            let with = |d: f64| {
                let mut all = jobs.clone();
                all.push(c(d, new));
                edf_meets_all(now, &all)
            };
            assert!(with(f + 1e-9), "case {case}: {f} infeasible");
            assert!(!with(f - 1e-3), "case {case}: {f} is not the earliest");
        }
    }

    /// Eq. (13)'s incremental charge equals its definition: rebuild the
    /// quantum lazy schedule (one slot, integer times) with the new job due
    /// at `D` and measure every queued job's free time before its deadline
    /// again.
    #[test]
    fn eq13_matches_a_rebuilt_lazy_schedule() {
        let mut rng = Rng::new(5);
        let gamma = 20.0;
        for case in 0..150 {
            let jobs = random_queue(&mut rng);
            let base = LazySchedule::build(&queued(&jobs), ONE, 1.0).unwrap();
            let new = rng.int(1, 40) as f64;
            let profile = SlackProfile::new(0.0, &jobs);
            let e = Eq13::new(&profile, new, gamma, 2.0, 1.0);
            let f = profile.earliest_finish(new);
            for d in (f as u32)..(f as u32 + 80) {
                let d = f64::from(d);
                let mut with = jobs.clone();
                with.push(c(d, new));
                let after = LazySchedule::build(&queued(&with), ONE, 1.0).unwrap();
                let free = |s: &LazySchedule, x: f64| s.free_between(0, 0.0, x) / gamma;
                let own_slack = free(&base, d) - new / gamma;
                let mut want = new / (own_slack + 1.0);
                for j in &jobs {
                    want += j.size / (free(&after, j.deadline) + 1.0)
                        - j.size / (free(&base, j.deadline) + 1.0);
                }
                want *= 2.0;
                let got = e.price(&profile, profile.free_before(d) - new);
                assert!(
                    (got - want).abs() < 1e-9,
                    "case {case} at {d}: {got} vs {want}, {jobs:?} + {new}"
                );
            }
        }
    }

    #[test]
    fn cheapest_slack_on_an_empty_queue() {
        // κ = 2, γ = 48: a budget of p buys δ = κ − 1 = one mean job of
        // slack; a budget of κ·p buys none; α = 1.5 buys δ = 1/3.
        let empty = SlackProfile::new(0.0, &[]);
        let e = Eq13::new(&empty, 30.0, 48.0, 2.0, 1.0);
        assert!((e.cheapest_slack(&empty, 30.0) - 48.0).abs() < 1e-9);
        assert_eq!(e.cheapest_slack(&empty, 60.0), 0.0);
        assert!((e.cheapest_slack(&empty, 45.0) - 16.0).abs() < 1e-9);
    }

    /// The chosen slack is affordable, and a little less is not; prices
    /// never rise with slack.
    #[test]
    fn cheapest_slack_is_the_boundary() {
        let mut rng = Rng::new(8);
        for case in 0..300 {
            let jobs = random_queue(&mut rng);
            let profile = SlackProfile::new(0.0, &jobs);
            let p = rng.uniform(1.0, 40.0);
            let e = Eq13::new(&profile, p, 20.0, 2.0, 1.0);
            let budget = p * rng.uniform(0.5, 2.5);
            let s = e.cheapest_slack(&profile, budget);
            assert!(e.price(&profile, s) <= budget * (1.0 + 1e-9), "case {case}");
            if s > 1e-6 {
                assert!(e.price(&profile, s - 1e-6) > budget, "case {case}");
            }
            let mut last = f64::INFINITY;
            for k in 0..200 {
                let pr = e.price(&profile, f64::from(k) * 0.7);
                assert!(pr <= last + 1e-12, "case {case}");
                last = pr;
            }
        }
    }
}
