//! §4.3 and §4.4 against the simulation: how often Algorithm 1's best
//! configuration is the actual best, how much worse it is when not, and
//! how run-time tuning compares with static configurations.
//!
//! # §4.3: search effectiveness
//!
//! Cases are job mixes × scheduler (Capacity, Fair) × queues (2, 4) ×
//! cluster size, every configuration of §4.3's grid (5, 15, 9, 27) both
//! estimated by Algorithm 1 and simulated ([`simulate`], averaged over
//! `repeats` noise seeds). A case is a hit when the estimated best's
//! actual latency equals the actual best's. Facebook mixes are windows of
//! `jobs_per_mix` consecutive SWIM jobs on 6 and 8 containers; Google-like
//! mixes come from [`google_like_mix`] on `google_containers` containers
//! over two machines with placement constraints, 18 of them (3 platforms ×
//! 6 periods in the paper).
//!
//! How a mix contends is set the way §4.4's stream is (Figure 11's cluster
//! is overloaded, and a §4.3 mix is what waits in one tuning interval):
//!
//! - **Tasks as Hadoop splits them.** A SWIM job gets one map per 128 MiB
//!   block and one reduce per GiB of shuffle, as SWIM's replay scripts
//!   and Hadoop do, up to `max_tasks` per stage ([`SwimTasks`]). Capping
//!   maps at the cluster's 8 (the earlier construction) made a large job
//!   8 tasks of up to hours, which holds its containers whatever the
//!   shares say; many short tasks return containers to the scheduler
//!   every few seconds, so shares bind all the time.
//! - **Offered load per mix.** Each mix's submissions are scaled (squeezed
//!   or stretched) so that its task work over its submission span is
//!   `mix_load` × the containers (default 1.5, §4.4's). A fixed 60 s span
//!   left windows of under 100 task-seconds idle and windows of one
//!   18,000-second job saturated; now every mix overloads the cluster by
//!   the same factor.
//! - **AM limit.** The evaluation's default `am_share` is 0.5 for every
//!   queue (Fair's own default `maxAMShare`; for Capacity the usual raise
//!   of `maximum-am-resource-percent` on a small cluster): YARN's Capacity
//!   default 0.1 runs one application per queue on 6–8 containers, which
//!   leaves the paper's in-queue policies nothing to order. The paper
//!   does not state its AM settings.
//!
//! # §4.4: run-time adaptation
//!
//! A stream of SWIM jobs (the first `adapt_jobs`, submissions scaled by
//! `adapt_time_scale`) runs in the simulation; every `interval` the tuner
//! takes the snapshot of unfinished jobs ([`Simulation::snapshot`]),
//! searches the grid with Algorithm 1 and switches the scheduler to the
//! best. Against it: every grid configuration kept static for the whole
//! stream. The paper reports the ratio of the static configurations'
//! latency to AdaptiveConfig's (2.16× on average).

use super::model::{Cluster, GroupConfig, Policy, SchedulerKind, TuneJob};
use super::rank::spearman;
use super::rules::{ConstraintRule, Delays, ExecRule, Reading, RuleSet};
use super::search::{exhaustive, same_config, SearchSpace};
use super::simulate::{simulate, SimParams, Simulation};
use super::workload::{google_like_mix, jobs_from_swim, SwimTasks};
use super::{check_range, TuneError};
use crate::model::WorkloadJob;
use serde::{Deserialize, Serialize};

/// Settings of the evaluation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EvalParams {
    /// SWIM windows (default 7; each on 6 and 8 containers: the paper's 14).
    pub facebook_windows: usize,
    /// Cluster sizes of the Facebook mixes (default 6 and 8).
    pub facebook_containers: Vec<u32>,
    /// Google-like mixes (default 18).
    pub google_mixes: usize,
    /// Their containers (default 8, on two machines).
    pub google_containers: u32,
    /// Jobs per mix (default 12).
    pub jobs_per_mix: usize,
    /// Offered load of a §4.3 mix: its submissions are scaled so that
    /// its task work over its span is this many times the containers
    /// (default 1.5, as §4.4's stream; see the module documentation).
    pub mix_load: f64,
    /// Most tasks per stage a SWIM job gets, one per 128 MiB block (maps)
    /// or GiB of shuffle (reduces) up to it (default 4096).
    pub max_tasks: u32,
    /// Noise seeds averaged for the actual latency (default 3).
    pub repeats: u32,
    /// The simulation (default [`SimParams::default`]).
    pub sim: SimParams,
    /// Tuning intervals of §4.4, minutes (default 1, 2, 4, 8).
    pub adapt_minutes: Vec<f64>,
    /// Jobs of the §4.4 stream (default 120).
    pub adapt_jobs: usize,
    /// Offered load of the stream: its submissions are compressed so that
    /// its task work (plus one AM container per job for its span) over
    /// its span is this many times the containers (default 1.5: an
    /// overloaded cluster whose latencies climb, as Figure 11's).
    pub adapt_load: f64,
    /// Containers of §4.4 (default 8).
    pub adapt_containers: u32,
    /// Seed of mixes and priorities (default 7).
    pub seed: u64,
    /// Estimate with [`RuleSet::application_master`] (default true; the
    /// literal reading always without).
    #[serde(default = "yes")]
    pub application_master: bool,
    /// The reading of Algorithm 1 that estimates (default per task).
    #[serde(default)]
    pub reading: Reading,
    /// Whether the per-task estimate waits for heartbeats and AM
    /// start-up as the simulation does (default true; false gives the
    /// estimator without them, for comparison).
    #[serde(default = "yes")]
    pub delays: bool,
    /// Queue counts evaluated, each with both schedulers (default 2 and
    /// 4, the paper's; the contention sweep moves it).
    #[serde(default = "paper_queue_counts")]
    pub queue_counts: Vec<usize>,
}

impl Default for EvalParams {
    fn default() -> Self {
        EvalParams {
            facebook_windows: 7,
            facebook_containers: vec![6, 8],
            google_mixes: 18,
            google_containers: 8,
            jobs_per_mix: 12,
            mix_load: 1.5,
            max_tasks: 4096,
            repeats: 3,
            sim: SimParams {
                am_share: Some(0.5),
                ..SimParams::default()
            },
            adapt_minutes: vec![1.0, 2.0, 4.0, 8.0],
            adapt_jobs: 120,
            adapt_load: 1.5,
            adapt_containers: 8,
            seed: 7,
            application_master: true,
            reading: Reading::PerTask,
            delays: true,
            queue_counts: paper_queue_counts(),
        }
    }
}

impl EvalParams {
    /// Checks the ranges.
    pub fn validate(&self) -> Result<(), TuneError> {
        self.sim.validate()?;
        check_range("mix load", self.mix_load, 1e-3, 1e3)?;
        check_range("adapt load", self.adapt_load, 1e-3, 1e3)?;
        if self.jobs_per_mix == 0 || self.repeats == 0 || self.max_tasks == 0 {
            return Err(TuneError::BadParam {
                name: "jobs per mix / repeats / max tasks".into(),
                why: "must be ≥ 1".into(),
            });
        }
        if self.queue_counts.is_empty() || self.queue_counts.iter().any(|&q| !(1..=8).contains(&q))
        {
            return Err(TuneError::BadParam {
                name: "queue counts".into(),
                why: "each must be 1–8, at least one".into(),
            });
        }
        for &m in &self.adapt_minutes {
            check_range("tuning interval (min)", m, 1e-3, 1e4)?;
        }
        Ok(())
    }
}

/// One §4.3 case.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CaseResult {
    /// `facebook` or `google`.
    pub source: String,
    /// Mix number within its source.
    pub mix: usize,
    /// Scheduler.
    pub scheduler: SchedulerKind,
    /// Queues.
    pub queues: usize,
    /// Containers.
    pub containers: u32,
    /// Algorithm 1's best.
    pub estimated_best: String,
    /// The simulation's best.
    pub actual_best: String,
    /// Whether the estimated best is actually best.
    pub hit: bool,
    /// Whether its actual latency is within 2 % of the actual best.
    pub hit_within_2pct: bool,
    /// Spearman's ρ between estimate and simulation over the grid (`None`
    /// when either is constant: nothing to rank).
    pub spearman: Option<f64>,
    /// A uniformly random pick's chance of an exact hit (actual-best
    /// configurations over all).
    pub random_hit: f64,
    /// A random pick's chance of a hit within 2 %.
    pub random_within_2pct: f64,
    /// Whether the estimate called a tie over the whole grid.
    pub estimated_tie: bool,
    /// Whether the recommendation finishes in the simulation.
    pub recommended_finishes: bool,
    /// The recommendation's estimate against its simulated latency,
    /// `(estimate − simulated) / simulated`.
    pub estimate_error: f64,
    /// Actual latency increase of the estimated best over the actual best.
    pub increase: f64,
    /// Mean actual increase of every configuration that is not best.
    pub nonbest_increase: f64,
}

/// One §4.4 setting.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AdaptResult {
    /// Scheduler.
    pub scheduler: SchedulerKind,
    /// Queues.
    pub queues: usize,
    /// Tuning interval, minutes.
    pub interval_min: f64,
    /// Mean latency with run-time tuning, seconds.
    pub adaptive_secs: f64,
    /// Mean over the paper's representative static configurations of
    /// their mean latency.
    pub static_mean_secs: f64,
    /// How many representative configurations.
    pub statics: usize,
    /// The stream's offered load (work over span × containers).
    pub offered_load: f64,
    /// The best static configuration's mean latency.
    pub static_best_secs: f64,
    /// `static_mean_secs / adaptive_secs` (the paper's 2.16×).
    pub reduction: f64,
    /// `static_best_secs / adaptive_secs`.
    pub reduction_vs_best: f64,
}

/// The evaluation's answer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EvalReport {
    /// Every §4.3 case.
    pub cases: Vec<CaseResult>,
    /// Share of hits (paper: 87.26 %).
    pub hit_share: f64,
    /// Capacity only (paper: 93.33 %).
    pub hit_share_capacity: f64,
    /// Fair only (paper: 81.19 %).
    pub hit_share_fair: f64,
    /// Facebook mixes (paper: 91.07 %).
    pub hit_share_facebook: f64,
    /// Google mixes (paper: 84.72 %).
    pub hit_share_google: f64,
    /// Share of cases whose recommendation is within 2 % of the actual
    /// best (goal ≥ 95 %).
    pub within_2pct_share: f64,
    /// Median of the cases' Spearman ρ (goal ≥ 0.8), over cases where it
    /// is defined.
    pub median_spearman: f64,
    /// Cases where ρ is undefined (estimate or simulation constant).
    pub spearman_undefined: usize,
    /// A random pick's expected exact-hit share.
    pub random_hit_share: f64,
    /// A random pick's expected within-2 % share.
    pub random_within_2pct_share: f64,
    /// Cases whose recommendation never finishes in the simulation.
    pub unfinished_recommendations: usize,
    /// Median |estimate error| of the recommendation against its
    /// simulation.
    pub median_abs_estimate_error: f64,
    /// Mean increase when missed (paper: 3.37 %).
    pub miss_increase: f64,
    /// Mean increase of all non-best configurations (paper: 52.92 %).
    pub nonbest_increase: f64,
    /// §4.4 per setting and interval.
    pub adaptation: Vec<AdaptResult>,
    /// Mean of `reduction` over the settings (paper: 2.16×).
    pub mean_reduction: f64,
}

fn yes() -> bool {
    true
}

fn paper_queue_counts() -> Vec<usize> {
    vec![2, 4]
}

fn rules(p: &EvalParams) -> RuleSet {
    RuleSet {
        allocation: super::rules::AllocationRule::Capacity,
        constraint: ConstraintRule::LimitsAndPlacement,
        exec: ExecRule::Algorithm2,
        application_master: p.application_master && p.reading == Reading::PerTask,
        reading: p.reading,
        delays: match p.reading {
            Reading::PerTask if p.delays => {
                Delays::of_simulation(p.sim.heartbeat_secs, p.sim.am_start_secs)
            }
            _ => Delays::NONE,
        },
    }
}

/// §4.3's grid for a setting, every queue's AM share overridden when the
/// simulation's is (so the estimate sees the same limit).
fn space_for(
    scheduler: SchedulerKind,
    queues: usize,
    p: &EvalParams,
) -> Result<SearchSpace, TuneError> {
    let mut space = SearchSpace::paper(scheduler, queues)?;
    if let Some(a) = p.sim.am_share {
        space.queues.iter_mut().for_each(|q| q.am_share = Some(a));
    }
    Ok(space)
}

fn share(cases: &[&CaseResult]) -> f64 {
    if cases.is_empty() {
        return f64::NAN;
    }
    cases.iter().filter(|c| c.hit).count() as f64 / cases.len() as f64
}

/// The mean of `v` (NaN when empty).
pub(super) fn mean(v: impl Iterator<Item = f64>) -> f64 {
    let (s, n) = v.fold((0.0, 0usize), |(s, n), x| (s + x, n + 1));
    if n == 0 {
        f64::NAN
    } else {
        s / n as f64
    }
}

fn median(v: &mut [f64]) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// Scales submissions (from 0) so that the jobs' task work over their
/// span is `load` × `containers`: squeezed or stretched, so that every
/// mix overloads the cluster by the same factor. Jobs all submitted at
/// once stay so.
fn set_load(jobs: &mut [TuneJob], load: f64, containers: u32) {
    let last = jobs.iter().map(|j| j.submit).fold(0.0, f64::max);
    let work: f64 = jobs.iter().map(|j| j.work()).sum();
    if last <= 0.0 || work <= 0.0 {
        return;
    }
    let span = work / (load * f64::from(containers));
    for j in jobs {
        j.submit = (j.submit / last * span).round();
    }
}

/// How the evaluation turns SWIM jobs into tasks (see the module
/// documentation): one map per block and one reduce per GiB of shuffle,
/// up to `max_tasks` each.
fn eval_swim_tasks(p: &EvalParams, seed: u64) -> SwimTasks {
    SwimTasks {
        max_maps: p.max_tasks,
        max_reduces: p.max_tasks,
        seed,
        ..SwimTasks::default()
    }
}

/// One case: every configuration estimated and simulated.
fn case(
    source: &str,
    mix: usize,
    jobs: &[TuneJob],
    cluster: &Cluster,
    space: &SearchSpace,
    p: &EvalParams,
) -> Result<CaseResult, TuneError> {
    let est = exhaustive(jobs, cluster, space, rules(p), &mut |_, _| {})?;
    let mut actual = Vec::with_capacity(est.candidates.len());
    for c in &est.candidates {
        let mut total = 0.0;
        for r in 0..p.repeats {
            let sim = SimParams {
                seed: p.sim.seed.wrapping_add(u64::from(r) * 1_000_003),
                ..p.sim
            };
            // A configuration that deadlocks (AMs holding every container
            // a job may use) is never best.
            total += match simulate(jobs, cluster, &c.config, &sim) {
                Ok(r) => r.mean_latency_secs,
                Err(TuneError::BadJob { .. }) => f64::INFINITY,
                Err(e) => return Err(e),
            };
        }
        actual.push(total / f64::from(p.repeats));
    }
    let best_actual = actual.iter().copied().fold(f64::INFINITY, f64::min);
    let best_at = actual.iter().position(|&a| a == best_actual).unwrap_or(0);
    let chosen = actual[est.best];
    let tol = 1e-9 * best_actual.abs().max(1.0);
    let n = actual.len().max(1) as f64;
    let within = |a: f64| a <= best_actual * 1.02 + tol;
    let estimates: Vec<f64> = est.candidates.iter().map(|c| c.latency_secs).collect();
    Ok(CaseResult {
        hit_within_2pct: within(chosen),
        spearman: spearman(&estimates, &actual),
        random_hit: actual.iter().filter(|&&a| a <= best_actual + tol).count() as f64 / n,
        random_within_2pct: actual.iter().filter(|&&a| within(a)).count() as f64 / n,
        estimated_tie: est.no_contention,
        recommended_finishes: chosen.is_finite(),
        estimate_error: (est.best().latency_secs - chosen) / chosen,
        source: source.into(),
        mix,
        scheduler: space.scheduler,
        queues: space.queues.len(),
        containers: cluster.containers(),
        estimated_best: est.best().config.label(),
        actual_best: est.candidates[best_at].config.label(),
        hit: chosen <= best_actual + tol,
        increase: (chosen - best_actual) / best_actual,
        nonbest_increase: mean(
            actual
                .iter()
                .filter(|&&a| a > best_actual + tol && a.is_finite())
                .map(|a| (a - best_actual) / best_actual),
        ),
    })
}

/// §4.3 and §4.4 on `swim` (SWIM jobs; may be empty: Google-like mixes
/// only, no §4.4), on every core. `progress(done, total)` counts the
/// pieces: the cases, and per §4.4 setting its statics and each interval.
pub fn evaluate(
    swim: &[WorkloadJob],
    p: &EvalParams,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<EvalReport, TuneError> {
    evaluate_on(swim, p, 0, progress)
}

/// One independent piece of the evaluation: a §4.3 case (a mix on one
/// setting and cluster), one §4.4 setting's static configurations, or its
/// run-time tuning at one interval. Each is a pure function of its inputs,
/// so the pieces run on any number of threads and give the same report.
enum Piece {
    /// A §4.3 case: every configuration of `space` estimated and simulated.
    Case {
        source: &'static str,
        mix: usize,
        jobs: Vec<TuneJob>,
        cluster: Cluster,
        space: SearchSpace,
    },
    /// §4.4: the representative static configurations of setting `setting`.
    Statics { setting: usize },
    /// §4.4: run-time tuning of setting `setting` every `minutes`.
    Adaptive { setting: usize, minutes: f64 },
}

/// What a piece gives.
enum PieceResult {
    Case(CaseResult),
    /// Each representative configuration's mean latency (∞: deadlocks).
    Statics(Vec<f64>),
    Adaptive(f64),
}

/// A §4.4 setting's stream and grid, built once and shared by its pieces.
struct Stream {
    scheduler: SchedulerKind,
    queues: usize,
    jobs: Vec<TuneJob>,
    offered_load: f64,
    space: SearchSpace,
}

/// [`evaluate`] on up to `threads` threads (0: every core; one in wasm32):
/// the cases and §4.4's runs are independent pieces on
/// [`crate::parallel::map_jobs`], so the report is the same on any number
/// of threads — one window of large SWIM jobs takes minutes, and the
/// evaluation is dozens of them.
pub fn evaluate_on(
    swim: &[WorkloadJob],
    p: &EvalParams,
    threads: usize,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<EvalReport, TuneError> {
    p.validate()?;
    let settings: Vec<(SchedulerKind, usize)> = [SchedulerKind::Capacity, SchedulerKind::Fair]
        .into_iter()
        .flat_map(|s| p.queue_counts.iter().map(move |&q| (s, q)))
        .collect();
    let fb_windows = if swim.len() >= p.jobs_per_mix {
        p.facebook_windows
    } else {
        0
    };
    let mut pieces = Vec::new();
    for &(scheduler, queues) in &settings {
        let space = space_for(scheduler, queues, p)?;
        for w in 0..fb_windows {
            let stride = (swim.len() - p.jobs_per_mix) / fb_windows.max(1);
            let window = &swim[w * stride..w * stride + p.jobs_per_mix];
            let base = jobs_from_swim(window, queues, &eval_swim_tasks(p, p.seed + w as u64))?;
            for &c in &p.facebook_containers {
                let mut jobs = base.clone();
                set_load(&mut jobs, p.mix_load, c);
                pieces.push(Piece::Case {
                    source: "facebook",
                    mix: w,
                    jobs,
                    cluster: Cluster::of(c, 4),
                    space: space.clone(),
                });
            }
        }
        for g in 0..p.google_mixes {
            // Three "platforms" (placement share 0, 0.3, 0.6) × periods.
            let placement = [0.0, 0.3, 0.6][g % 3];
            let mut jobs = google_like_mix(
                p.seed * 1000 + g as u64,
                p.jobs_per_mix,
                queues,
                2,
                60.0,
                placement,
            );
            set_load(&mut jobs, p.mix_load, p.google_containers);
            pieces.push(Piece::Case {
                source: "google",
                mix: g,
                jobs,
                cluster: Cluster::of(p.google_containers, p.google_containers.div_ceil(2)),
                space: space.clone(),
            });
        }
    }
    let cases_total = pieces.len();
    // §4.4: one stream per setting, its statics and each interval a piece.
    let mut streams = Vec::new();
    if !swim.is_empty() {
        let take = &swim[..p.adapt_jobs.clamp(1, swim.len())];
        for &(scheduler, queues) in &settings {
            let mut jobs = jobs_from_swim(take, queues, &eval_swim_tasks(p, p.seed))?;
            let offered_load = compress(&mut jobs, p.adapt_load, p.adapt_containers);
            let setting = streams.len();
            streams.push(Stream {
                scheduler,
                queues,
                jobs,
                offered_load,
                space: space_for(scheduler, queues, p)?,
            });
            pieces.push(Piece::Statics { setting });
            for &minutes in &p.adapt_minutes {
                pieces.push(Piece::Adaptive { setting, minutes });
            }
        }
    }
    let adapt_cluster = Cluster::of(p.adapt_containers, 4);
    let results = crate::parallel::map_jobs(
        &pieces,
        threads,
        || (),
        |_, piece| -> Result<PieceResult, TuneError> {
            match piece {
                Piece::Case {
                    source,
                    mix,
                    jobs,
                    cluster,
                    space,
                } => case(source, *mix, jobs, cluster, space, p).map(PieceResult::Case),
                Piece::Statics { setting } => {
                    let st = &streams[*setting];
                    Ok(PieceResult::Statics(
                        representative(st.scheduler, st.queues, &st.space)
                            .iter()
                            .map(|c| {
                                simulate(&st.jobs, &adapt_cluster, c, &p.sim)
                                    .map_or(f64::INFINITY, |r| r.mean_latency_secs)
                            })
                            .collect(),
                    ))
                }
                Piece::Adaptive { setting, minutes } => {
                    let st = &streams[*setting];
                    run_adaptive(
                        &st.jobs,
                        &adapt_cluster,
                        &st.space,
                        minutes * 60.0,
                        &p.sim,
                        rules(p),
                    )
                    .map(PieceResult::Adaptive)
                }
            }
        },
        progress,
    );
    let mut cases = Vec::with_capacity(cases_total);
    let mut adaptation = Vec::new();
    let mut statics: Vec<f64> = Vec::new();
    for (piece, result) in pieces.iter().zip(results) {
        match (piece, result?) {
            (_, PieceResult::Case(c)) => cases.push(c),
            (_, PieceResult::Statics(v)) => statics = v,
            (Piece::Adaptive { setting, minutes }, PieceResult::Adaptive(adaptive)) => {
                let st = &streams[*setting];
                let static_mean = mean(statics.iter().copied().filter(|v| v.is_finite()));
                let static_best = statics.iter().copied().fold(f64::INFINITY, f64::min);
                adaptation.push(AdaptResult {
                    scheduler: st.scheduler,
                    queues: st.queues,
                    interval_min: *minutes,
                    adaptive_secs: adaptive,
                    static_mean_secs: static_mean,
                    statics: statics.len(),
                    offered_load: st.offered_load,
                    static_best_secs: static_best,
                    reduction: static_mean / adaptive,
                    reduction_vs_best: static_best / adaptive,
                });
            }
            (_, PieceResult::Adaptive(_)) => {}
        }
    }
    Ok(summarize(cases, adaptation))
}

/// The report's shares and means over the cases and §4.4's settings.
fn summarize(cases: Vec<CaseResult>, adaptation: Vec<AdaptResult>) -> EvalReport {
    let all: Vec<&CaseResult> = cases.iter().collect();
    let by = |f: &dyn Fn(&CaseResult) -> bool| -> Vec<&CaseResult> {
        cases.iter().filter(|c| f(c)).collect()
    };
    let mut rhos: Vec<f64> = cases.iter().filter_map(|c| c.spearman).collect();
    let mut errors: Vec<f64> = cases
        .iter()
        .map(|c| c.estimate_error.abs())
        .filter(|e| e.is_finite())
        .collect();
    EvalReport {
        within_2pct_share: mean(cases.iter().map(|c| f64::from(u8::from(c.hit_within_2pct)))),
        median_spearman: median(&mut rhos),
        spearman_undefined: cases.iter().filter(|c| c.spearman.is_none()).count(),
        random_hit_share: mean(cases.iter().map(|c| c.random_hit)),
        random_within_2pct_share: mean(cases.iter().map(|c| c.random_within_2pct)),
        unfinished_recommendations: cases.iter().filter(|c| !c.recommended_finishes).count(),
        median_abs_estimate_error: median(&mut errors),
        hit_share: share(&all),
        hit_share_capacity: share(&by(&|c| c.scheduler == SchedulerKind::Capacity)),
        hit_share_fair: share(&by(&|c| c.scheduler == SchedulerKind::Fair)),
        hit_share_facebook: share(&by(&|c| c.source == "facebook")),
        hit_share_google: share(&by(&|c| c.source == "google")),
        miss_increase: mean(
            cases
                .iter()
                .filter(|c| !c.hit && c.increase.is_finite())
                .map(|c| c.increase),
        ),
        nonbest_increase: mean(
            cases
                .iter()
                .map(|c| c.nonbest_increase)
                .filter(|v| v.is_finite()),
        ),
        mean_reduction: mean(adaptation.iter().map(|a: &AdaptResult| a.reduction)),
        adaptation,
        cases,
    }
}

/// Compresses `jobs`' submissions so that their offered load on
/// `containers` is `load`; returns the load.
fn compress(jobs: &mut [TuneJob], load: f64, containers: u32) -> f64 {
    let span = jobs.iter().map(|j| j.submit).fold(0.0, f64::max);
    let work: f64 = jobs.iter().map(|j| j.work()).sum();
    if span <= 0.0 || work <= 0.0 {
        return f64::INFINITY;
    }
    let scale = work / (load * f64::from(containers) * span);
    for j in jobs.iter_mut() {
        j.submit = (j.submit * scale.min(1.0)).round();
    }
    let new_span = jobs.iter().map(|j| j.submit).fold(0.0, f64::max).max(1.0);
    work / (new_span * f64::from(containers))
}

/// §4.4's representative configurations (FIFO unless said): Capacity, two
/// queues, `c_i` = i and 8 − i containers of 8 (i = 1…7); four queues,
/// capacities of 1, 3 or 5 containers each summing to 8 (10); Fair, two
/// queues, weights 25/75, 50/50, 75/25 × FIFO, Fair, DRF (9); four queues,
/// Table 2 (its 18 rows are the same 9 twice: (25,75,25,75), (50,…),
/// (75,25,75,25) × FIFO, Fair, DRF). Other queue counts: the grid.
pub fn representative(
    scheduler: SchedulerKind,
    queues: usize,
    space: &SearchSpace,
) -> Vec<GroupConfig> {
    let base = space.config(&space.grid()[0]);
    let with = |shares: &[f64], policy: Policy| {
        let mut c = base.clone();
        for (q, &s) in c.queues.iter_mut().zip(shares) {
            q.share = s;
            q.policy = policy;
        }
        c
    };
    match (scheduler, queues) {
        (SchedulerKind::Capacity, 2) => (1..=7)
            .map(|i| with(&[f64::from(i) / 8.0, f64::from(8 - i) / 8.0], Policy::Fifo))
            .collect(),
        (SchedulerKind::Capacity, 4) => {
            let mut out = Vec::new();
            for a in [1, 3, 5] {
                for b in [1, 3, 5] {
                    for c in [1, 3, 5] {
                        let d = 8 - a - b - c;
                        if [1, 3, 5].contains(&d) {
                            let s: Vec<f64> =
                                [a, b, c, d].iter().map(|&x| f64::from(x) / 8.0).collect();
                            out.push(with(&s, Policy::Fifo));
                        }
                    }
                }
            }
            out
        }
        (SchedulerKind::Fair, 2 | 4) => {
            let mut out = Vec::new();
            for (w1, w2) in [(25.0, 75.0), (50.0, 50.0), (75.0, 25.0)] {
                for policy in [Policy::Fifo, Policy::Fair, Policy::Drf] {
                    let s: Vec<f64> = (0..queues)
                        .map(|q| if q % 2 == 0 { w1 } else { w2 })
                        .collect();
                    out.push(with(&s, policy));
                }
            }
            out
        }
        _ => space.grid().iter().map(|p| space.config(p)).collect(),
    }
}

/// The stream under run-time tuning every `interval` seconds; its mean
/// latency.
pub fn run_adaptive(
    jobs: &[TuneJob],
    cluster: &Cluster,
    space: &SearchSpace,
    interval: f64,
    sim: &SimParams,
    rules: RuleSet,
) -> Result<f64, TuneError> {
    let grid = space.grid();
    let mut current = space.config(&grid[grid.len() / 2]);
    let mut s = Simulation::new(jobs, cluster, &current, sim)?;
    let mut t = 0.0;
    while !s.done() && !s.stalled() {
        s.run_until(t);
        let snap = s.snapshot();
        if !snap.is_empty() {
            let mut best = exhaustive(&snap, cluster, space, rules, &mut |_, _| {})?;
            // The configuration in force wins ties (no change for noise).
            if let Some(k) = best
                .candidates
                .iter()
                .position(|c| same_config(&c.config, &current))
            {
                let c = best.candidates[k].clone();
                best.prefer_current(c);
            }
            current = best.best().config.clone();
            s.set_config(&current)?;
        }
        t += interval;
    }
    Ok(s.finish().mean_latency_secs)
}
