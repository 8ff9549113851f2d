//! The runway computed: for each limit the largest growth the cluster
//! meets at each size (`g*`), then the dates at which each growth quantile
//! passes it, and the fewest machines to buy, day by day.
//!
//! Splitting "how much growth does this size carry" (re-planning, the
//! expensive part) from "when does demand get there" (a scan of a curve)
//! makes a change of growth or headroom cheap: the [`Planner`] keeps the
//! re-planned sizes, and a new answer only scans curves again.

use super::answer::{ChartDay, LimitRunway, Outlook, Purchase, PurchasePlan, Runway};
use super::cluster::Cluster;
use super::demand::Demand;
use super::error::RunwayError;
use super::growth::{curves, GrowthCurve, Quantile};
use super::limit::Limit;
use super::params::{Growth, RunwayParams, StepEvent};
use super::peaks::DAY;
use super::scale::ScaleChoice;
use super::season::SeasonChoice;
use serde::{Deserialize, Serialize};

/// Most machines a purchase plan adds, as a multiple of the cluster's
/// machines (plus a few, for small clusters): past that, the limit is
/// reported unmet rather than searched further.
pub const MAX_ADDED_FACTOR: u32 = 10;

/// A demand a hair above a limit's largest growth counts as over it (the
/// bisection's precision).
const OVER: f64 = 1e-9;

/// The largest growth of each limit at sizes 0, 1, 2… added machines,
/// re-planned once and kept.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Sizes {
    /// Per limit (as it was when computed), `g*` by machines added.
    pub table: Vec<(Limit, Vec<f64>)>,
}

impl Sizes {
    /// `g*` of `limit` with `added` machines on `cluster`.
    pub fn largest(
        &mut self,
        demand: &Demand,
        cluster: &Cluster,
        limit: &Limit,
        added: u32,
    ) -> f64 {
        if matches!(limit, Limit::Utilization { .. }) {
            return limit.largest_growth(demand, cluster.k(added));
        }
        let i = match self.table.iter().position(|(l, _)| l == limit) {
            Some(i) => i,
            None => {
                self.table.push((limit.clone(), Vec::new()));
                self.table.len() - 1
            }
        };
        let row = &mut self.table[i].1;
        while row.len() <= added as usize {
            let m = row.len() as u32;
            row.push(limit.largest_growth(demand, cluster.k(m)));
        }
        row[added as usize]
    }

    /// `g*` of `limit` with `added` machines if it is kept (utilization,
    /// closed form, always is), without re-planning anything.
    pub fn kept(
        &self,
        demand: &Demand,
        cluster: &Cluster,
        limit: &Limit,
        added: u32,
    ) -> Option<f64> {
        if matches!(limit, Limit::Utilization { .. }) {
            return Some(limit.largest_growth(demand, cluster.k(added)));
        }
        self.row(limit)?.get(added as usize).copied()
    }

    /// The sizes of `limit` kept so far (machines added 0, 1, …).
    pub fn row(&self, limit: &Limit) -> Option<&[f64]> {
        self.table
            .iter()
            .find(|(l, _)| l == limit)
            .map(|(_, r)| r.as_slice())
    }

    /// Re-plans `limit`'s next size, one more machine than kept: one
    /// bisection, so a caller doing this between other work stays
    /// responsive.
    fn extend(&mut self, demand: &Demand, cluster: &Cluster, limit: &Limit) {
        let next = self.row(limit).map_or(0, <[f64]>::len) as u32;
        self.largest(demand, cluster, limit, next);
    }

    /// Sizes kept, over every limit.
    pub fn count(&self) -> usize {
        self.table.iter().map(|(_, r)| r.len()).sum()
    }
}

/// Where a scan of the curves reads a limit's `g*` at a size.
trait SizeLookup {
    /// `g*` of `limit` with `added` machines.
    fn largest(&mut self, limit: &Limit, added: u32) -> f64;
}

/// The kept sizes, a missing one re-planned and kept (an answer).
struct Replan<'a> {
    sizes: &'a mut Sizes,
    demand: &'a Demand,
    cluster: &'a Cluster,
}

impl SizeLookup for Replan<'_> {
    fn largest(&mut self, limit: &Limit, added: u32) -> f64 {
        self.sizes.largest(self.demand, self.cluster, limit, added)
    }
}

/// The kept sizes only, nothing re-planned (the warm-up's look-ahead): a
/// scan reads exactly the sizes an answer would, in the same order, up
/// to the first one not kept, which is noted and read as unbounded (every
/// limit holds there, so the scan asks for nothing larger because of it).
/// The most machines asked for is noted too.
struct Probe<'a> {
    sizes: &'a Sizes,
    demand: &'a Demand,
    cluster: &'a Cluster,
    /// The first size asked for and not kept.
    missing: Option<Limit>,
    /// The most machines added any read asked for.
    reach: u32,
}

impl SizeLookup for Probe<'_> {
    fn largest(&mut self, limit: &Limit, added: u32) -> f64 {
        self.reach = self.reach.max(added);
        match self.sizes.kept(self.demand, self.cluster, limit, added) {
            Some(g) => g,
            None => {
                self.missing.get_or_insert_with(|| limit.clone());
                f64::INFINITY
            }
        }
    }
}

/// How far [`Planner::warm`] got.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WarmStep {
    /// Sizes re-planned by this call (0 or 1).
    pub computed: usize,
    /// Sizes kept, over every limit, after it.
    pub kept: usize,
    /// The most machines added the plans at the largest growth ask for,
    /// as far as the sizes kept show so far.
    pub reach: u32,
    /// Every size an answer at a growth up to the largest asks for is
    /// kept: no further call computes anything.
    pub done: bool,
}

/// What the planner keeps between answers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Planner {
    /// The demand.
    pub demand: Demand,
    /// The re-planned sizes.
    pub sizes: Sizes,
    /// The growth curves of the last answer, with what they were made of.
    curves: Option<(CurveKey, Vec<GrowthCurve>)>,
    /// The last answer's limits and their curves (the levers read them).
    pub(super) last: Option<(Vec<Limit>, Vec<GrowthCurve>)>,
    /// The optimized agenda's answers so far, `(g, k, holds)`: the
    /// reservations lever asks the batch optimizer a run at a time when
    /// given a budget ([`Planner::lever_within`]), and a lever asked again
    /// goes on from them.
    #[serde(default)]
    pub(super) optimized: Vec<(f64, f64, bool)>,
    /// The shaping lever's cells so far, their settings and rows: asked a
    /// cell at a time, the lever goes on from them.
    #[serde(default)]
    pub(super) shaped: Vec<(crate::shaping::Params, crate::shaping::LoadRow)>,
}

/// What growth curves depend on.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct CurveKey {
    growth: Growth,
    steps: Vec<StepEvent>,
    horizon: u32,
    limits: Vec<Limit>,
    /// The fitted growth's season and scale: a change of either is a new
    /// fit (the studio's Redraw must not answer from the old curves).
    season: SeasonChoice,
    scale: ScaleChoice,
}

/// The first day `0..=last` whose demand passes `g_star`.
fn first_over(curve: &[f64], g_star: f64, last: usize) -> Option<usize> {
    curve
        .iter()
        .take(last + 1)
        .position(|&g| g > g_star * (1.0 + OVER) + OVER)
}

impl Planner {
    /// A planner for `demand`.
    pub fn new(demand: Demand) -> Planner {
        Planner {
            demand,
            sizes: Sizes::default(),
            curves: None,
            last: None,
            optimized: Vec::new(),
            shaped: Vec::new(),
        }
    }

    /// What every answer under `params` starts from: the settings checked,
    /// the cluster and its limits.
    fn setting(&self, params: &RunwayParams) -> Result<(Cluster, Vec<Limit>), RunwayError> {
        params.validate()?;
        if self.demand.is_empty() {
            return Err(RunwayError::NoDemand);
        }
        let cluster = Cluster::of(&self.demand, params)?;
        let limits = Limit::all(&self.demand, params);
        Ok((cluster, limits))
    }

    /// The growth curves under `params` for these limits: the kept ones
    /// when nothing they depend on changed.
    fn curves_for(
        &mut self,
        cluster: &Cluster,
        limits: &[Limit],
        params: &RunwayParams,
    ) -> Result<Vec<GrowthCurve>, RunwayError> {
        let key = CurveKey {
            growth: params.growth.clone(),
            steps: params.steps.clone(),
            horizon: params.horizon_days,
            season: params.season,
            scale: params.scale,
            limits: limits
                .iter()
                .map(|l| match l {
                    Limit::Utilization {
                        resource, level, ..
                    } => Limit::Utilization {
                        resource: resource.clone(),
                        level: *level,
                        target: 1.0,
                    },
                    other => other.clone(),
                })
                .collect(),
        };
        Ok(match &self.curves {
            Some((k, c)) if *k == key => c.clone(),
            _ => {
                let c = curves(&self.demand, cluster, limits, params)?;
                self.curves = Some((key, c.clone()));
                c
            }
        })
    }

    /// The runway under `params`.
    pub fn answer(&mut self, params: &RunwayParams) -> Result<Runway, RunwayError> {
        let (cluster, limits) = self.setting(params)?;
        let curves = self.curves_for(&cluster, &limits, params)?;
        let runway = scan(
            &self.demand,
            &cluster,
            &limits,
            &curves,
            params,
            &mut Replan {
                sizes: &mut self.sizes,
                demand: &self.demand,
                cluster: &cluster,
            },
        );
        self.last = Some((limits, curves));
        Ok(runway)
    }

    /// The outlook under `params`: what [`Planner::answer`] says before
    /// its purchase plans, re-planning only today's size of each limit
    /// (kept, so the answer after it does not re-plan them again). The
    /// levers read the last answer, not this.
    pub fn outlook(&mut self, params: &RunwayParams) -> Result<Outlook, RunwayError> {
        let (cluster, limits) = self.setting(params)?;
        let curves = self.curves_for(&cluster, &limits, params)?;
        let mut sizes = Replan {
            sizes: &mut self.sizes,
            demand: &self.demand,
            cluster: &cluster,
        };
        let dated = dates(&self.demand, &limits, &curves, params, &mut sizes);
        let horizon = params.horizon_days as usize;
        let chart = binding_chart(
            &dated,
            &limits,
            &curves,
            None,
            horizon,
            |d| dated.date(d),
            &mut sizes,
        );
        Ok(Outlook {
            today: self.demand.today,
            horizon_days: params.horizon_days,
            binding: dated.binding,
            limits: dated.limits,
            cluster,
            evidence: dated.evidence,
            chart,
            notes: dated.notes,
        })
    }

    /// Re-plans at most one size an answer under `params` with growth by
    /// hand up to `growth_max` % a month would ask for, so that a later
    /// drag of the growth anywhere up to it re-plans nothing. Called
    /// again until [`WarmStep::done`]; each call is one bisection at most,
    /// so a worker stays responsive between calls.
    ///
    /// The sizes warmed are those the answer at `growth_max` reads — its
    /// dates, both purchase plans (P50 and P90, capped at
    /// [`MAX_ADDED_FACTOR`] as they are) and its chart — found by
    /// scanning it on the kept sizes only (`Probe`), and then every
    /// limit's sizes up to the most machines those plans reach: demand
    /// grows with the growth and `g*` with the machines, so a lower
    /// growth's plans reach no further, and a limit another one hid at
    /// the cap (the plan stops at the first limit short) may be asked at
    /// a size below it. The growth in `params` is not read, nor the
    /// curves or levers of the last answer touched.
    ///
    /// # Errors
    /// The settings at `growth_max` refused, as [`Planner::answer`] would.
    pub fn warm(
        &mut self,
        params: &RunwayParams,
        growth_max: f64,
    ) -> Result<WarmStep, RunwayError> {
        let at_max = RunwayParams {
            growth: Growth::Monthly {
                percent: growth_max,
            },
            ..params.clone()
        };
        let (cluster, limits) = self.setting(&at_max)?;
        let curves = curves(&self.demand, &cluster, &limits, &at_max)?;
        let next = |sizes: &Sizes| -> (Option<Limit>, u32) {
            let mut probe = Probe {
                sizes,
                demand: &self.demand,
                cluster: &cluster,
                missing: None,
                reach: 0,
            };
            scan(
                &self.demand,
                &cluster,
                &limits,
                &curves,
                &at_max,
                &mut probe,
            );
            let reach = probe.reach;
            let missing = probe.missing.or_else(|| {
                limits
                    .iter()
                    .filter(|l| !matches!(l, Limit::Utilization { .. }))
                    .find(|l| sizes.kept(&self.demand, &cluster, l, reach).is_none())
                    .cloned()
            });
            (missing, reach)
        };
        let (missing, _) = next(&self.sizes);
        let computed = match missing {
            Some(limit) => {
                self.sizes.extend(&self.demand, &cluster, &limit);
                1
            }
            None => 0,
        };
        let (missing, reach) = next(&self.sizes);
        Ok(WarmStep {
            computed,
            kept: self.sizes.count(),
            reach,
            done: missing.is_none(),
        })
    }
}

/// Each limit's dates at today's size, the binding one, the evidence and
/// the notes: the part of an answer that reads one size per limit.
struct Dated {
    today: i64,
    limits: Vec<LimitRunway>,
    binding: Option<String>,
    evidence: Option<super::trend::Evidence>,
    notes: Vec<String>,
}

impl Dated {
    /// 00:00 UTC of day `d` ahead.
    fn date(&self, d: usize) -> i64 {
        self.today + d as i64 * DAY
    }
}

/// The dates of `demand`'s limits on today's cluster, `g*` read from
/// `sizes` at size 0.
fn dates(
    demand: &Demand,
    limits: &[Limit],
    curves: &[GrowthCurve],
    params: &RunwayParams,
    sizes: &mut impl SizeLookup,
) -> Dated {
    let horizon = params.horizon_days as usize;
    let today = demand.today;
    let date = |d: usize| today + d as i64 * DAY;
    let mut out_limits = Vec::with_capacity(limits.len());
    let mut notes = Vec::new();
    for (limit, curve) in limits.iter().zip(curves) {
        let g0 = sizes.largest(limit, 0);
        let day = |q: Quantile| first_over(curve.of(q), g0, horizon);
        let (d10, d50, d90) = (day(Quantile::P10), day(Quantile::P50), day(Quantile::P90));
        let supported = curve.evidence.as_ref().map(|e| e.supported_days);
        let extrapolated = supported.is_some_and(|s| {
            [d10, d50, d90].iter().flatten().any(|&d| d > s) || (d90.is_none() && horizon > s)
        });
        if d50 == Some(0) {
            notes.push(format!(
                "{}: already reached today ({}).",
                limit.name(),
                limit.describe()
            ));
        }
        out_limits.push(LimitRunway {
            name: limit.name(),
            description: limit.describe(),
            p10: d90.map(date),
            p50: d50.map(date),
            p90: d10.map(date),
            largest_growth: g0.is_finite().then_some(g0),
            extrapolated,
            model: curve.model.clone(),
        });
    }
    let evidence = curves.iter().find_map(|c| c.evidence.clone());
    if let Some(e) = &evidence {
        if out_limits.iter().any(|l| l.extrapolated) {
            notes.push(format!(
                "The growth was fitted on {} day(s) of history; dates past {} day(s) ahead extrapolate further than that evidence supports.",
                e.days, e.supported_days
            ));
        }
    }
    let binding = out_limits
        .iter()
        .filter(|l| l.p50.is_some() || l.p10.is_some())
        .min_by_key(|l| (l.p50.unwrap_or(i64::MAX), l.p10.unwrap_or(i64::MAX)))
        .map(|l| l.name.clone());
    Dated {
        today,
        limits: out_limits,
        binding,
        evidence,
        notes,
    }
}

/// The chart of the binding limit (the first limit when none binds),
/// capacity after `plan`'s purchases when there is one.
fn binding_chart(
    dated: &Dated,
    limits: &[Limit],
    curves: &[GrowthCurve],
    plan: Option<&PurchasePlan>,
    horizon: usize,
    date: impl Fn(usize) -> i64,
    sizes: &mut impl SizeLookup,
) -> Vec<ChartDay> {
    match dated
        .binding
        .as_ref()
        .and_then(|b| limits.iter().position(|l| &l.name() == b))
        .or(if limits.is_empty() { None } else { Some(0) })
    {
        Some(i) => chart(&limits[i], &curves[i], plan, horizon, date, sizes),
        None => Vec::new(),
    }
}

/// The runway of `demand` on `cluster` with these limits and curves, each
/// limit's `g*` at a size read from `sizes`.
fn scan(
    demand: &Demand,
    cluster: &Cluster,
    limits: &[Limit],
    curves: &[GrowthCurve],
    params: &RunwayParams,
    sizes: &mut impl SizeLookup,
) -> Runway {
    let horizon = params.horizon_days as usize;
    let dated = dates(demand, limits, curves, params, sizes);
    let date = |d: usize| dated.date(d);
    let purchases = plan(cluster, limits, curves, Quantile::P50, params, date, sizes);
    let purchases_p90 = plan(cluster, limits, curves, Quantile::P90, params, date, sizes);
    let chart = binding_chart(
        &dated,
        limits,
        curves,
        Some(&purchases),
        horizon,
        date,
        sizes,
    );
    Runway {
        today: dated.today,
        horizon_days: params.horizon_days,
        binding: dated.binding,
        limits: dated.limits,
        purchases,
        purchases_p90,
        cluster: cluster.clone(),
        evidence: dated.evidence,
        chart,
        notes: dated.notes,
    }
}

/// The fewest machines keeping every limit to `params.purchase_days`
/// for demand quantile `q`, each bought the first day it is needed:
/// the machines needed by day `d` are the fewest with which every
/// limit's `g*` covers the highest demand up to `d`.
#[allow(clippy::too_many_arguments)]
fn plan(
    cluster: &Cluster,
    limits: &[Limit],
    curves: &[GrowthCurve],
    q: Quantile,
    params: &RunwayParams,
    date: impl Fn(usize) -> i64,
    sizes: &mut impl SizeLookup,
) -> PurchasePlan {
    let days = params.purchase_days as usize;
    let cap = cluster
        .machines
        .saturating_mul(MAX_ADDED_FACTOR)
        .saturating_add(10);
    let mut need: Vec<f64> = vec![0.0; limits.len()];
    let mut added = 0u32;
    let mut purchases: Vec<Purchase> = Vec::new();
    let mut unmet = None;
    'days: for d in 0..=days {
        for (i, c) in curves.iter().enumerate() {
            need[i] = need[i].max(c.of(q).get(d).copied().unwrap_or(0.0));
        }
        let before = added;
        loop {
            let short = limits.iter().enumerate().find(|(i, l)| {
                let g = sizes.largest(l, added);
                need[*i] > g * (1.0 + OVER) + OVER
            });
            match short {
                None => break,
                Some((_, l)) if added >= cap => {
                    unmet = Some(format!(
                        "{}: not kept from {} even with {cap} machines added",
                        l.name(),
                        crate::time::format_timestamp(date(d))
                    ));
                    break 'days;
                }
                Some(_) => added += 1,
            }
        }
        if added > before {
            purchases.push(Purchase {
                date: date(d),
                machines: added - before,
            });
        }
    }
    PurchasePlan {
        quantile: q,
        total: purchases.iter().map(|p| p.machines).sum(),
        purchases,
        unmet,
    }
}

/// The binding limit's demand and capacity a day at a time (capacity
/// after the purchases only with a `plan`).
fn chart(
    limit: &Limit,
    curve: &GrowthCurve,
    plan: Option<&PurchasePlan>,
    horizon: usize,
    date: impl Fn(usize) -> i64,
    sizes: &mut impl SizeLookup,
) -> Vec<ChartDay> {
    let finite = |g: f64| g.is_finite().then_some(g);
    let today_cap = finite(sizes.largest(limit, 0));
    let mut bought = 0u32;
    (0..=horizon)
        .map(|d| {
            let planned = plan.map(|plan| {
                bought += plan
                    .purchases
                    .iter()
                    .filter(|p| p.date == date(d))
                    .map(|p| p.machines)
                    .sum::<u32>();
                sizes.largest(limit, bought)
            });
            ChartDay {
                date: date(d),
                p10: curve.p10[d],
                p50: curve.p50[d],
                p90: curve.p90[d],
                capacity_today: today_cap,
                capacity_planned: planned.and_then(finite),
            }
        })
        .collect()
}
