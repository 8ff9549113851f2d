//! The group-level search (§3.3.3): a quantized grid of configurations,
//! searched exhaustively or by recursive random search (RRS, \[64\]).
//!
//! # The grid
//!
//! A [`SearchSpace`] has continuous share dimensions, each quantized into
//! `levels` equally spaced values, and one discrete policy dimension. Queues
//! are paired (`q1, q2`), (`q3, q4`), …: a share value `a` of a pair gives
//! its first queue `a/p` and its second `(1−a)/p` of the group, `p` being
//! the number of pairs, so capacities always sum to 1 (Fair weights are
//! the same numbers). [`SearchSpace::paper`] is §4.3's: two queues,
//! `a ∈ {1/6, 1/3, 1/2, 2/3, 5/6}`; four queues ("halve the values and
//! double their combinations"), `a, b ∈ {1/3, 1/2, 2/3}`, i.e. weights
//! (25, 75), (50, 50), (75, 25) per pair as in Table 2; Capacity with FIFO
//! in every queue (5 and 9 configurations), Fair with FIFO, Fair or DRF in
//! every queue (15 and 27).
//!
//! # RRS
//!
//! Each round draws `n = ln(1−p)/ln(1−g)` random points of the current box
//! (`g` = 1/grid size: the chance one draw hits the best cell), keeps the
//! best seen, then shrinks every share dimension by `γ` around it with
//! the same number of levels (so the granularity shrinks by `γ` too);
//! the policy dimension stays whole. It stops when the granularity reaches
//! the required one, `g^t = g^0/refine`: `⌈log_γ(1/refine)⌉` rounds
//! (Proposition 3.1). With the paper's p = 0.99, γ = 0.5, a 27-point grid
//! and refine = 10 that is 122 draws a round, 4 rounds, 488 in all (its
//! example); `n` is rounded to the nearest integer as the paper does
//! (122.02 → 122). Points are evaluated once each (a cache), so a round on
//! a 27-point grid costs at most 27 comparisons however many draws.

use super::latency::{compare_unchecked, LatencyReport};
use super::limits::{am_share, guaranteed_fraction};
use super::model::{
    validate_jobs, Cluster, GroupConfig, Policy, QueueConf, SchedulerKind, TuneJob,
};
use super::rules::RuleSet;
use super::{check_range, TuneError};
use crate::numerics::Rng;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// One quantized share dimension.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShareDim {
    /// Smallest value (> 0).
    pub lo: f64,
    /// Largest value (< 1).
    pub hi: f64,
    /// Number of values (≥ 1; 1 means `lo` only).
    pub levels: u32,
}

impl ShareDim {
    fn value(&self, k: u32) -> f64 {
        if self.levels <= 1 {
            self.lo
        } else {
            self.lo + (self.hi - self.lo) * f64::from(k) / f64::from(self.levels - 1)
        }
    }
}

/// The configurations one group's search ranges over.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SearchSpace {
    /// The scheduler.
    pub scheduler: SchedulerKind,
    /// The queues' names and bounds (`share` and `policy` are overwritten
    /// by each point).
    pub queues: Vec<QueueConf>,
    /// One share dimension per pair of queues (none for one queue), or
    /// per queue (see [`ShareLayout`]).
    pub shares: Vec<ShareDim>,
    /// How the share dimensions map to queues (default: pairs).
    #[serde(default)]
    pub layout: ShareLayout,
    /// The in-queue policies tried (all queues alike, as Table 2).
    pub policies: Vec<Policy>,
}

/// How a point's share values become queue shares.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ShareLayout {
    /// §4.3's: one value `a` per pair of queues, `a/p` and `(1−a)/p` of
    /// the group for `p` pairs (1 or an even number of queues).
    #[default]
    Pairs,
    /// One weight per queue, each queue's share its weight over the sum
    /// (§4.4's "domain per queue": any number of queues).
    PerQueue,
}

/// A point of the space: share values and a policy.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Point {
    /// One value per share dimension.
    pub shares: Vec<f64>,
    /// The policy.
    pub policy: Policy,
}

/// The `user-limit-factor` of §4.3's queues: high enough that a queue's
/// one job may use the queue's maximum.
pub const PAPER_USER_LIMIT_FACTOR: f64 = 100.0;

impl SearchSpace {
    /// §4.3's grid for `queues` ∈ {1, 2, 4, 6, …} queues named `q1…`, each
    /// between 10 % and 90 % of the group (§4.2's queue constraint).
    pub fn paper(scheduler: SchedulerKind, queues: usize) -> Result<Self, TuneError> {
        let base: Vec<QueueConf> = (1..=queues.max(1))
            .map(|k| QueueConf {
                name: format!("q{k}"),
                share: 1.0,
                min_share: 0.1,
                max_share: 0.9,
                policy: Policy::Fifo,
                am_share: None,
                // §4.2's queues grow to 90 %: a user limit of YARN's default
                // 1 would pin a one-job queue to its capacity and make the
                // maximum meaningless.
                user_limit_factor: Some(PAPER_USER_LIMIT_FACTOR),
            })
            .collect();
        Self::for_queues(scheduler, base)
    }

    /// §4.3's grid over the given queues (their names and bounds kept):
    /// paired shares for 1 or an even number of queues; for an odd number
    /// ≥ 3, a weight per queue from {1, 2, 3} (the paper's 25/50/75),
    /// shares the weights' fractions — 3^n points, searched by RRS when
    /// that is large.
    pub fn for_queues(scheduler: SchedulerKind, queues: Vec<QueueConf>) -> Result<Self, TuneError> {
        let n = queues.len();
        if n == 0 {
            return Err(TuneError::BadConfig("no queue to tune".into()));
        }
        let policies = match scheduler {
            SchedulerKind::Capacity => vec![Policy::Fifo],
            SchedulerKind::Fair => vec![Policy::Fifo, Policy::Fair, Policy::Drf],
        };
        if n > 1 && n % 2 == 1 {
            return Ok(SearchSpace {
                scheduler,
                queues,
                shares: vec![
                    ShareDim {
                        lo: 0.25,
                        hi: 0.75,
                        levels: 3,
                    };
                    n
                ],
                layout: ShareLayout::PerQueue,
                policies,
            });
        }
        let dim = if n == 2 {
            ShareDim {
                lo: 1.0 / 6.0,
                hi: 5.0 / 6.0,
                levels: 5,
            }
        } else {
            ShareDim {
                lo: 1.0 / 3.0,
                hi: 2.0 / 3.0,
                levels: 3,
            }
        };
        let mut queues = queues;
        if n == 1 {
            queues[0].min_share = 0.0;
            queues[0].max_share = 1.0;
        }
        Ok(SearchSpace {
            scheduler,
            queues,
            shares: vec![dim; n / 2],
            layout: ShareLayout::Pairs,
            policies,
        })
    }

    /// Checks the dimensions.
    pub fn validate(&self) -> Result<(), TuneError> {
        if self.policies.is_empty() {
            return Err(TuneError::BadConfig("no policy to try".into()));
        }
        let dims = match self.layout {
            ShareLayout::Pairs => self.queues.len() / 2,
            ShareLayout::PerQueue => self.queues.len(),
        };
        if self.queues.is_empty() || self.shares.len() != dims {
            return Err(TuneError::BadConfig(format!(
                "{} share dimensions for {} queues",
                self.shares.len(),
                self.queues.len()
            )));
        }
        for d in &self.shares {
            check_range("share dimension low end", d.lo, 1e-6, 1.0 - 1e-6)?;
            check_range("share dimension high end", d.hi, d.lo, 1.0 - 1e-6)?;
            if d.levels == 0 {
                return Err(TuneError::BadConfig(
                    "a share dimension has 0 levels".into(),
                ));
            }
        }
        Ok(())
    }

    /// The number of grid points.
    pub fn size(&self) -> usize {
        self.shares
            .iter()
            .map(|d| d.levels as usize)
            .product::<usize>()
            * self.policies.len()
    }

    /// Every grid point, policies varying fastest.
    pub fn grid(&self) -> Vec<Point> {
        let mut out = Vec::with_capacity(self.size());
        let mut idx = vec![0u32; self.shares.len()];
        loop {
            for &policy in &self.policies {
                out.push(Point {
                    shares: idx
                        .iter()
                        .zip(&self.shares)
                        .map(|(&k, d)| d.value(k))
                        .collect(),
                    policy,
                });
            }
            let mut carry = true;
            for (k, d) in idx.iter_mut().zip(&self.shares) {
                if !carry {
                    break;
                }
                *k += 1;
                carry = *k >= d.levels;
                if carry {
                    *k = 0;
                }
            }
            if carry {
                return out;
            }
        }
    }

    /// The configuration at `point`.
    pub fn config(&self, point: &Point) -> GroupConfig {
        let mut queues = self.queues.clone();
        if queues.len() == 1 {
            queues[0].share = 1.0;
        }
        match self.layout {
            ShareLayout::Pairs => {
                let pairs = self.shares.len().max(1) as f64;
                for (k, a) in point.shares.iter().enumerate() {
                    queues[2 * k].share = a / pairs;
                    queues[2 * k + 1].share = (1.0 - a) / pairs;
                }
            }
            ShareLayout::PerQueue => {
                let sum: f64 = point.shares.iter().sum();
                for (q, w) in queues.iter_mut().zip(&point.shares) {
                    q.share = w / sum;
                }
            }
        }
        for q in &mut queues {
            q.policy = point.policy;
        }
        GroupConfig {
            scheduler: self.scheduler,
            queues,
        }
    }
}

/// One evaluated configuration.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Candidate {
    /// The point (no share values for a current configuration off the
    /// grid).
    pub point: Point,
    /// Its configuration.
    pub config: GroupConfig,
    /// Algorithm 1's mean latency, seconds.
    pub latency_secs: f64,
}

/// Estimates within this share of the lowest are a tie: the estimator's
/// own error is larger than such differences, so ranking them would be
/// ranking noise.
pub const TIE_TOLERANCE: f64 = 0.01;

/// What a search found.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SearchReport {
    /// Every configuration evaluated, in the order first evaluated (no two
    /// alike).
    pub candidates: Vec<Candidate>,
    /// Index of the recommendation: among the candidates tied with the
    /// lowest estimate, the current configuration if it is one, else the
    /// most even split (never an extreme one on a tie).
    pub best: usize,
    /// Points drawn (RRS; the grid size for exhaustive search).
    pub samples: usize,
    /// Rounds (1 for exhaustive search).
    pub rounds: usize,
    /// Candidates within [`TIE_TOLERANCE`] of the lowest estimate.
    #[serde(default)]
    pub tied: Vec<usize>,
    /// Every candidate ties: no contention in this window, every
    /// configuration gives the same latency.
    #[serde(default)]
    pub no_contention: bool,
    /// The recommendation is the current configuration (it ties with the
    /// lowest estimate, and wins ties).
    #[serde(default)]
    pub kept_current: bool,
}

/// How far `config`'s guaranteed fractions are from an even split (0 for
/// an even one): what decides among tied candidates.
pub fn imbalance(config: &GroupConfig) -> f64 {
    let n = config.queues.len() as f64;
    (0..config.queues.len())
        .map(|q| (guaranteed_fraction(config.scheduler, &config.queues, q) - 1.0 / n).abs())
        .sum()
}

/// Whether two configurations are the same (shares within 1e-6, same
/// policies and bounds).
pub fn same_config(a: &GroupConfig, b: &GroupConfig) -> bool {
    a.scheduler == b.scheduler
        && a.queues.len() == b.queues.len()
        && (0..a.queues.len()).all(|q| {
            let (x, y) = (&a.queues[q], &b.queues[q]);
            (guaranteed_fraction(a.scheduler, &a.queues, q)
                - guaranteed_fraction(b.scheduler, &b.queues, q))
            .abs()
                < 1e-6
                && x.policy == y.policy
                && (x.min_share - y.min_share).abs() < 1e-9
                && (x.max_share - y.max_share).abs() < 1e-9
        })
}

/// The effective user-limit factor of queue `q` (YARN's default 1 when
/// unset; Fair has none, read as unbounded).
fn user_limit(scheduler: SchedulerKind, q: &QueueConf) -> f64 {
    match scheduler {
        SchedulerKind::Capacity => q.user_limit_factor.unwrap_or(1.0),
        SchedulerKind::Fair => f64::INFINITY,
    }
}

/// [`same_config`] and the same per-queue limits the label does not show:
/// the effective AM share and user-limit factor. Two configurations the
/// search treats as one grid point can still schedule differently — the
/// grid's queues let a job grow past its queue's capacity (user-limit
/// factor 100), a configuration read from YARN without that property
/// does not — so the advice asks this before saying "nothing to change".
pub fn identical_config(a: &GroupConfig, b: &GroupConfig) -> bool {
    same_config(a, b)
        && a.queues.iter().zip(&b.queues).all(|(x, y)| {
            (am_share(a.scheduler, x) - am_share(b.scheduler, y)).abs() < 1e-9
                && user_limit(a.scheduler, x) == user_limit(b.scheduler, y)
        })
}

/// What `a` sets differently from `b` that its label does not show (the
/// per-queue AM share and user-limit factor), in words, or `None`.
pub fn hidden_differences(a: &GroupConfig, b: &GroupConfig) -> Option<String> {
    if a.queues.len() != b.queues.len() || a.scheduler != b.scheduler {
        return None;
    }
    let mut parts = Vec::new();
    for (x, y) in a.queues.iter().zip(&b.queues) {
        let (ux, uy) = (user_limit(a.scheduler, x), user_limit(b.scheduler, y));
        if ux != uy {
            parts.push(format!("{}: user-limit-factor {ux} (current {uy})", x.name));
        }
        let (mx, my) = (am_share(a.scheduler, x), am_share(b.scheduler, y));
        if (mx - my).abs() >= 1e-9 {
            parts.push(format!("{}: AM share {mx} (current {my})", x.name));
        }
    }
    (!parts.is_empty()).then(|| parts.join(", "))
}

impl SearchReport {
    /// The best candidate.
    pub fn best(&self) -> &Candidate {
        &self.candidates[self.best]
    }

    /// The lowest estimate.
    pub fn lowest_secs(&self) -> f64 {
        self.candidates
            .iter()
            .map(|c| c.latency_secs)
            .fold(f64::INFINITY, f64::min)
    }

    /// Recomputes `tied`, `no_contention` and `best` (see [`Self::best`]).
    fn settle(&mut self) {
        let low = self.lowest_secs();
        let limit = low + TIE_TOLERANCE * low.abs();
        self.tied = (0..self.candidates.len())
            .filter(|&k| self.candidates[k].latency_secs <= limit)
            .collect();
        self.no_contention = self.candidates.len() > 1 && self.tied.len() == self.candidates.len();
        let current = self.tied.iter().copied().find(|_| self.kept_current);
        self.best = current.unwrap_or_else(|| {
            self.tied
                .iter()
                .copied()
                .min_by(|&a, &b| {
                    let (ca, cb) = (&self.candidates[a], &self.candidates[b]);
                    imbalance(&ca.config)
                        .total_cmp(&imbalance(&cb.config))
                        .then(ca.latency_secs.total_cmp(&cb.latency_secs))
                        .then(a.cmp(&b))
                })
                .unwrap_or(0)
        });
    }

    /// Offers the current configuration, estimated: when it ties with the
    /// lowest estimate it becomes the recommendation (added to the
    /// candidates unless one of them is the same configuration).
    pub fn prefer_current(&mut self, current: Candidate) {
        let low = self.lowest_secs().min(current.latency_secs);
        if current.latency_secs > low + TIE_TOLERANCE * low.abs() {
            self.kept_current = false;
            self.settle();
            return;
        }
        let at = match self
            .candidates
            .iter()
            .position(|c| same_config(&c.config, &current.config))
        {
            Some(k) => k,
            None => {
                self.candidates.push(current);
                self.candidates.len() - 1
            }
        };
        self.kept_current = false;
        self.settle();
        self.best = at;
        self.kept_current = true;
    }
}

/// RRS settings (§4.5.1: p = 0.99, initial granularity 10× the required,
/// γ = 0.5).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct RrsParams {
    /// Confidence p of finding the best cell in a round (default 0.99).
    pub p: f64,
    /// Scale-down factor γ (default 0.5).
    pub gamma: f64,
    /// `g^0 / g^t`, how much finer the final granularity is (default 10).
    pub refine: f64,
    /// Seed of the draws (default 7).
    pub seed: u64,
}

impl Default for RrsParams {
    fn default() -> Self {
        RrsParams {
            p: 0.99,
            gamma: 0.5,
            refine: 10.0,
            seed: 7,
        }
    }
}

impl RrsParams {
    /// Checks the ranges.
    pub fn validate(&self) -> Result<(), TuneError> {
        check_range("p", self.p, 1e-9, 1.0 - 1e-12)?;
        check_range("gamma", self.gamma, 1e-3, 1.0 - 1e-3)?;
        check_range("refine", self.refine, 1.0, 1e6)?;
        Ok(())
    }
}

/// Proposition 3.1's plan for a grid of `size` points: draws per round
/// (`ln(1−p)/ln(1−g)`, `g = 1/size`, rounded), rounds
/// (`⌈log_γ(1/refine)⌉`, at least 1) and their product.
pub fn rrs_plan(size: usize, params: &RrsParams) -> (usize, usize, usize) {
    let g = 1.0 / size.max(1) as f64;
    let per_round = if g >= 1.0 {
        1
    } else {
        ((1.0 - params.p).ln() / (1.0 - g).ln()).round().max(1.0) as usize
    };
    let rounds = ((1.0 / params.refine).ln() / params.gamma.ln() - 1e-9)
        .ceil()
        .max(1.0) as usize;
    (per_round, rounds, per_round * rounds)
}

/// Evaluates points once each.
struct Evaluator<'a> {
    jobs: &'a [TuneJob],
    cluster: &'a Cluster,
    space: &'a SearchSpace,
    rules: RuleSet,
    seen: HashMap<(Vec<i64>, Policy), usize>,
    candidates: Vec<Candidate>,
}

impl Evaluator<'_> {
    fn eval(&mut self, point: Point) -> Result<usize, TuneError> {
        // Keyed by the configuration's quantized shares: points that give
        // the same configuration (a value reached by two roundings,
        // proportional weights) are one candidate.
        let config = self.space.config(&point);
        let key = (
            config
                .queues
                .iter()
                .map(|q| (q.share * 1e6).round() as i64)
                .collect::<Vec<_>>(),
            point.policy,
        );
        if let Some(&i) = self.seen.get(&key) {
            return Ok(i);
        }
        let rules = self.rules.with_config(&config);
        let LatencyReport {
            mean_latency_secs, ..
        } = compare_unchecked(self.jobs, self.cluster, &config, rules)?;
        self.candidates.push(Candidate {
            point,
            config,
            latency_secs: mean_latency_secs,
        });
        self.seen.insert(key, self.candidates.len() - 1);
        Ok(self.candidates.len() - 1)
    }

    fn best(&self) -> usize {
        (0..self.candidates.len())
            .min_by(|&a, &b| {
                self.candidates[a]
                    .latency_secs
                    .total_cmp(&self.candidates[b].latency_secs)
                    .then(a.cmp(&b))
            })
            .unwrap_or(0)
    }

    fn finish(self, samples: usize, rounds: usize) -> SearchReport {
        let mut r = SearchReport {
            best: 0,
            candidates: self.candidates,
            samples,
            rounds,
            tied: Vec::new(),
            no_contention: false,
            kept_current: false,
        };
        r.settle();
        r
    }
}

fn start<'a>(
    jobs: &'a [TuneJob],
    cluster: &'a Cluster,
    space: &'a SearchSpace,
    rules: RuleSet,
) -> Result<Evaluator<'a>, TuneError> {
    space.validate()?;
    validate_jobs(jobs, space.queues.len())?;
    if cluster.containers() == 0 {
        return Err(TuneError::BadParam {
            name: "containers".into(),
            why: "the group has no container".into(),
        });
    }
    Ok(Evaluator {
        jobs,
        cluster,
        space,
        rules,
        seen: HashMap::new(),
        candidates: Vec::new(),
    })
}

/// Every grid point of `space` by Algorithm 1; `progress(done, total)`
/// after each.
pub fn exhaustive(
    jobs: &[TuneJob],
    cluster: &Cluster,
    space: &SearchSpace,
    rules: RuleSet,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<SearchReport, TuneError> {
    let mut ev = start(jobs, cluster, space, rules)?;
    let grid = space.grid();
    let total = grid.len();
    for (k, p) in grid.into_iter().enumerate() {
        ev.eval(p)?;
        progress(k + 1, total);
    }
    Ok(ev.finish(total, 1))
}

/// Recursive random search over `space` (see the module documentation);
/// `progress(round, rounds)` after each round.
pub fn rrs(
    jobs: &[TuneJob],
    cluster: &Cluster,
    space: &SearchSpace,
    rules: RuleSet,
    params: &RrsParams,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<SearchReport, TuneError> {
    params.validate()?;
    let mut ev = start(jobs, cluster, space, rules)?;
    let (per_round, rounds, _) = rrs_plan(space.size(), params);
    let mut rng = Rng::new(params.seed);
    let mut boxes: Vec<ShareDim> = space.shares.clone();
    for round in 0..rounds {
        for _ in 0..per_round {
            let shares = boxes
                .iter()
                .map(|d| d.value(rng.int(0, i64::from(d.levels) - 1) as u32))
                .collect();
            let policy = space.policies[rng.int(0, space.policies.len() as i64 - 1) as usize];
            ev.eval(Point { shares, policy })?;
        }
        // Shrink around the best by γ, inside the original domain.
        let best = ev.candidates[ev.best()].point.clone();
        for ((b, full), &centre) in boxes.iter_mut().zip(&space.shares).zip(&best.shares) {
            let width = (b.hi - b.lo) * params.gamma;
            let lo = (centre - width / 2.0).clamp(full.lo, full.hi - width);
            *b = ShareDim {
                lo,
                hi: lo + width,
                levels: b.levels,
            };
        }
        progress(round + 1, rounds);
    }
    Ok(ev.finish(per_round * rounds, rounds))
}

/// `L*(o, r)` for `r = lower ..= upper`: the best latency of an exhaustive
/// search at each size (the group-level optimizer's answer, eq. 2), for
/// [`GroupCurve::from_latencies`](super::GroupCurve::from_latencies).
/// Machines hold `per_machine` containers.
pub fn latency_curve(
    jobs: &[TuneJob],
    space: &SearchSpace,
    rules: RuleSet,
    lower: u32,
    upper: u32,
    per_machine: u32,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Vec<(f64, GroupConfig)>, TuneError> {
    let lower = lower.max(1);
    let mut out = Vec::new();
    let total = (upper.max(lower) - lower + 1) as usize;
    for r in lower..=upper.max(lower) {
        let report = exhaustive(
            jobs,
            &Cluster::of(r, per_machine),
            space,
            rules,
            &mut |_, _| {},
        )?;
        let b = report.best();
        out.push((b.latency_secs, b.config.clone()));
        progress(out.len(), total);
    }
    Ok(out)
}
