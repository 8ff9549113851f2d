//! What each lever buys at the grown load, in machines and days of
//! runway — each figure from the lever's own engine call, never a second
//! model:
//!
//! - **reservations**: the agenda packed by the batch optimizer instead of
//!   LowCost ([`Packing::Optimized`]): the machines LowCost needs at the
//!   grown load minus those the optimizer needs, and how much later the
//!   agenda runs out;
//! - **shaping**: one cell of the shaping load sweep
//!   ([`crate::shaping::LoadSweep`]) at the panel's settings with the
//!   offered load × the growth: the share of the cores the reservation
//!   baseline allocates that the shaped run, doing the same work, does not
//!   — the reservations' slack it reclaims — as machines of the cluster,
//!   with the failures and wasted work it costs; it pays when that share
//!   is positive and turnaround is not slower;
//! - **harvesting**: the primary tenants' harvestable containers
//!   ([`crate::harvest::capacity`], the low percentile of the worst hour)
//!   as extra batch cores, as machines of the size added; what that costs
//!   from one cell of the harvest sweep ([`HarvestRegime`], the Harvest
//!   panel's "where it pays") at the loaded tenants' servers and primary
//!   level with the batch work × the growth: YARN-H's and YARN-PT's
//!   kills, the jobs left unfinished;
//! - **tuning**: the Tuning panel's pass on a window of the job history
//!   grown by the growth (more jobs in the same cluster), the current and
//!   the recommended configuration each simulated: latency, not machines;
//!   beside it one cell of the contention sweep ([`ContentionSweep`], the
//!   Tuning panel's "where it pays") at the mix load × the growth and the
//!   current queue count: how much configurations differ there and how
//!   often the estimate picks the best.
//!
//! A lever whose own run says it does not pay at that load is marked so,
//! with its figures.
//!
//! No lever frees more machines than the grown demand needs: today's
//! machines plus the P50 purchases that keep every limit over the purchase
//! horizon. A capacity measured elsewhere (the primary tenants' harvestable
//! cores, thousands on the demo's fleet of 12-core servers) can carry at
//! most the whole grown demand, so its machines are that capacity in the
//! cluster's machines, capped at the need, and the sentence gives both.

use super::answer::Runway;
use super::cluster::Cluster;
use super::demand::AgendaDemand;
use super::error::RunwayError;
use super::growth::{GrowthCurve, Quantile};
use super::limit::{agenda_fits, Limit, Packing};
use super::params::RunwayParams;
use super::planner::Planner;
use crate::harvest::{
    capacity, CapacityParams, Classification, HarvestRegime, RegimeRow, Scaling,
    SimParams as HarvestSim,
};
use crate::model::WorkloadJob;
use crate::shaping::{LoadSweep, Params as ShapingParams};
use crate::tuning::{
    panel_params, simulated_latency, tune, window_groups, Cluster as TuneCluster, ContentionRow,
    ContentionSweep, GroupConfig, TuningSettings, SWEEP_SWIM_JOBS,
};
use serde::{Deserialize, Serialize};

/// Workloads the shaping lever runs at the grown load: the Shaping
/// settings' seed and the next two. On the demo's runway cell the cores
/// one workload gives back ranged from −2.1 to 7.4 points of the cluster
/// over seeds 7–11, so one run cannot say whether the lever pays.
pub const SHAPING_SEEDS: u64 = 3;

/// Shaping cells a planner keeps (their settings and rows), so a lever
/// asked again, or asked a cell at a time, runs each once.
const KEPT_SHAPING_CELLS: usize = 24;

/// One lever's row of the table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Lever {
    /// `reservations`, `shaping`, `harvesting` or `tuning`.
    pub name: String,
    /// Machines it saves or frees at the grown load (`None`: it does not
    /// pay, it is not measured in machines, or its input is not loaded).
    pub machines: Option<f64>,
    /// Days of runway it buys on the binding limit (P50; `None` when not
    /// measured in days or no limit is reached within the horizon).
    pub days: Option<i64>,
    /// Whether its own run says it pays at the grown load.
    pub pays: bool,
    /// What it costs (failures, wasted work, kills), when it has a cost.
    pub cost: Option<String>,
    /// The figures behind it, in a sentence.
    pub detail: String,
}

/// What the levers' own engine calls read, from the workspace's panels.
#[derive(Clone, Debug, Default)]
pub struct LeverInputs<'a> {
    /// The Shaping panel's run settings (a generated workload).
    pub shaping: Option<ShapingParams>,
    /// The Harvest panel's classified tenants.
    pub harvest: Option<&'a Classification>,
    /// The job history, the Tuning panel's settings and current
    /// configuration.
    pub tuning: Option<(Vec<&'a WorkloadJob>, TuningSettings, GroupConfig)>,
}

fn unloaded(name: &str, what: &str) -> Lever {
    Lever {
        name: name.into(),
        machines: None,
        days: None,
        pays: false,
        cost: None,
        detail: format!("not measured: {what}"),
    }
}

/// The optimized agenda's answers for one lever call: those the planner
/// kept, and how many more batch-optimizer runs the call may make.
pub(super) struct Optimized<'a> {
    pub(super) agenda: &'a AgendaDemand,
    pub(super) kept: &'a mut Vec<(f64, f64, bool)>,
    pub(super) budget: usize,
}

/// A lever call ran out of its optimizer runs; what it learned is kept.
#[derive(Debug)]
pub(super) struct OutOfRuns;

impl Optimized<'_> {
    /// Whether the optimized agenda holds at growth `g` on capacity × `k`:
    /// kept, or LowCost's answer (it fits: so does the optimizer, which
    /// starts from it), or one optimizer run out of the budget.
    fn holds(&mut self, g: f64, k: f64) -> Result<bool, OutOfRuns> {
        if let Some(&(_, _, h)) = self.kept.iter().find(|(kg, kk, _)| *kg == g && *kk == k) {
            return Ok(h);
        }
        let (holds, ran) =
            agenda_fits(self.agenda, g, k, Packing::Optimized, self.budget > 0).ok_or(OutOfRuns)?;
        self.budget -= usize::from(ran);
        self.kept.push((g, k, holds));
        Ok(holds)
    }
}

/// The fewest machines added with which the optimized agenda holds at
/// growth `g`, asked directly at each size from none up to `at_most`
/// (LowCost's answer, where the optimizer holds at once since it tries
/// LowCost first): the optimizer's feasibility run costs seconds on the
/// demo, so it is not bisected on the growth at every size as the
/// purchase plan's LowCost limits are ([`super::planner::Sizes`]), only
/// asked the one question the lever needs.
fn fewest_holding(
    opt: &mut Optimized<'_>,
    cluster: &Cluster,
    g: f64,
    at_most: Option<u32>,
) -> Result<Option<u32>, OutOfRuns> {
    let cap = at_most.unwrap_or_else(|| {
        cluster
            .machines
            .saturating_mul(super::planner::MAX_ADDED_FACTOR)
            .saturating_add(10)
    });
    for m in 0..=cap {
        if opt.holds(g, cluster.k(m))? {
            return Ok(Some(m));
        }
    }
    Ok(None)
}

/// The first day today's cluster no longer meets the optimized agenda
/// under the demand `curve` (`None`: never within it): the days re-planned
/// in turn at the curve's running maximum (the highest demand up to a
/// day, which the day must carry), a day whose maximum is unchanged
/// skipped. Not bisected: the optimizer's feasibility is not monotone in
/// the growth (a stage's parallelism rounds up to whole containers, so a
/// larger growth can pack where a smaller one does not), and the lever
/// must name the day a re-plan really fails. Days before LowCost's own
/// runway cost milliseconds (the optimizer tries LowCost first); each day
/// after it is one optimizer run.
pub(super) fn first_failing_day(
    opt: &mut Optimized<'_>,
    curve: &[f64],
) -> Result<Option<usize>, OutOfRuns> {
    let mut highest: Option<f64> = None;
    for (d, &x) in curve.iter().enumerate() {
        if highest.is_some_and(|h| x <= h) {
            continue;
        }
        highest = Some(x);
        if !opt.holds(x, 1.0)? {
            return Ok(Some(d));
        }
    }
    Ok(None)
}

/// Why a lever with machines buys no days: the binding limit is reached
/// today and the machines it frees are fewer than the purchases keeping it.
fn short_of(days: Option<i64>, binding: Option<&str>, needed: f64, machines: u32) -> String {
    match (days, binding) {
        (Some(0), Some(b)) => format!(
            "; no day bought: the {b} is short today of more than that ({:.0} machine(s) to buy)",
            needed - f64::from(machines)
        ),
        _ => String::new(),
    }
}

/// The levers, in the table's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LeverKind {
    /// The agenda packed by the batch optimizer instead of LowCost.
    Reservations,
    /// Shaping at the panel's settings and the grown offered load.
    Shaping,
    /// The primary tenants' harvestable containers.
    Harvesting,
    /// The Tuning panel's pass on a grown window.
    Tuning,
}

impl LeverKind {
    /// Every lever, in the table's order.
    pub const ALL: [LeverKind; 4] = [
        LeverKind::Reservations,
        LeverKind::Shaping,
        LeverKind::Harvesting,
        LeverKind::Tuning,
    ];

    /// Its row's name.
    pub fn name(self) -> &'static str {
        match self {
            LeverKind::Reservations => "reservations",
            LeverKind::Shaping => "shaping",
            LeverKind::Harvesting => "harvesting",
            LeverKind::Tuning => "tuning",
        }
    }
}

/// The grown load every lever is measured at, from the runway answered
/// under the settings: the binding limit, the grown demand factor and the
/// machines the grown demand needs.
struct Grown {
    runway: Runway,
    limits: Vec<Limit>,
    curves: Vec<GrowthCurve>,
    cluster: Cluster,
    /// The machines the grown demand needs in all: no lever frees more.
    needed: f64,
    /// The growth of the workload's limit at the purchase horizon (P50).
    grown: f64,
    /// The binding limit (or the first).
    binding: Option<Limit>,
    horizon_days: i64,
}

impl Grown {
    /// The days from `a` to `b` (`b` beyond the horizon: the horizon).
    fn days_between(&self, a: Option<usize>, b: Option<usize>) -> Option<i64> {
        let h = self.horizon_days;
        match (a, b) {
            (Some(a), b) => Some(b.map_or(h, |b| b as i64) - a as i64),
            (None, _) => None,
        }
    }

    /// The first day the P50 demand passes what `limit` meets with the
    /// cluster's capacity × `k`.
    fn p50(&self, planner: &mut Planner, limit: &Limit, k: f64) -> Option<usize> {
        let g = if (k - 1.0).abs() < 1e-12 {
            planner
                .sizes
                .largest(&planner.demand, &self.cluster, limit, 0)
        } else {
            limit.largest_growth(&planner.demand, k)
        };
        self.curves[self.limits.iter().position(|l| l == limit)?]
            .of(Quantile::P50)
            .iter()
            .position(|&x| x > g * (1.0 + 1e-9) + 1e-9)
    }

    /// The fewest machines added with which `limit` meets growth `g`
    /// (the kept sizes).
    fn machines_for(&self, planner: &mut Planner, limit: &Limit, g: f64) -> Option<u32> {
        let cap = self
            .cluster
            .machines
            .saturating_mul(super::planner::MAX_ADDED_FACTOR)
            .saturating_add(10);
        (0..=cap).find(|&m| {
            planner
                .sizes
                .largest(&planner.demand, &self.cluster, limit, m)
                >= g
        })
    }

    /// The days of runway `extra_machines` buy on the binding limit.
    fn capacity_days(&self, planner: &mut Planner, extra_machines: f64) -> Option<i64> {
        let limit = self.binding.as_ref()?;
        let k = 1.0 + extra_machines * self.cluster.machine_share();
        self.days_between(self.p50(planner, limit, 1.0), self.p50(planner, limit, k))
    }

    /// Why machines buy no day (see [`short_of`]).
    fn short_of(&self, days: Option<i64>) -> String {
        short_of(
            days,
            self.runway.binding.as_deref(),
            self.needed,
            self.cluster.machines,
        )
    }
}

impl Planner {
    /// The lever table for the runway under `params`: every lever of
    /// [`LeverKind::ALL`] ([`Planner::lever`]).
    pub fn levers(
        &mut self,
        params: &RunwayParams,
        inputs: &LeverInputs<'_>,
    ) -> Result<Vec<Lever>, RunwayError> {
        LeverKind::ALL
            .iter()
            .map(|&kind| self.lever(kind, params, inputs))
            .collect()
    }

    /// One lever's row for the runway under `params` (answered first, so
    /// a planner already asked keeps its sizes and curves). Asked one at a
    /// time, the studio's worker answers other panels between levers.
    pub fn lever(
        &mut self,
        kind: LeverKind,
        params: &RunwayParams,
        inputs: &LeverInputs<'_>,
    ) -> Result<Lever, RunwayError> {
        self.lever_within(kind, params, inputs, usize::MAX)
            .map(|lever| lever.unwrap_or_else(|| unloaded(kind.name(), "no answer")))
    }

    /// [`Planner::lever`] making at most `runs` runs not kept from an
    /// earlier call (the reservations lever's batch-optimizer runs, the
    /// shaping lever's simulated cells; the other two levers are one run
    /// of their own and ignore it): `None` when the lever needs more. The
    /// answers made are kept, so asking again goes on from them and,
    /// asked until it answers, gives [`Planner::lever`]'s row. The studio's
    /// worker asks a run at a time, so a request of another panel waits
    /// for one run (under a second on the demo), not for the whole lever.
    pub fn lever_within(
        &mut self,
        kind: LeverKind,
        params: &RunwayParams,
        inputs: &LeverInputs<'_>,
        runs: usize,
    ) -> Result<Option<Lever>, RunwayError> {
        let g = self.grown(params)?;
        let mut lever = match kind {
            LeverKind::Reservations => match self.reservations(&g, runs) {
                Ok(lever) => lever,
                Err(OutOfRuns) => return Ok(None),
            },
            LeverKind::Shaping => match self.shaping(&g, inputs, runs)? {
                Some(lever) => lever,
                None => return Ok(None),
            },
            LeverKind::Harvesting => self.harvesting(&g, inputs)?,
            LeverKind::Tuning => tuning(&g, inputs)?,
        };
        // A lever that does not pay claims no machines (none saved, or
        // fewer than none: a shaped run that allocates more than the
        // reservations); its sentence keeps the figures.
        if !lever.pays {
            lever.machines = None;
        }
        Ok(Some(lever))
    }

    /// The grown load of the runway under `params`.
    fn grown(&mut self, params: &RunwayParams) -> Result<Grown, RunwayError> {
        let runway = self.answer(params)?;
        let (limits, curves) = self.last.clone().unwrap_or_default();
        let cluster = runway.cluster.clone();
        let needed = f64::from(cluster.machines.saturating_add(runway.purchases.total));
        let horizon = params.purchase_days as usize;
        // The binding limit (or the first) and the growth at the purchase
        // horizon, the median: the grown load.
        let bi = runway
            .binding
            .as_ref()
            .and_then(|b| limits.iter().position(|l| &l.name() == b))
            .unwrap_or(0);
        let workload = limits
            .iter()
            .position(|l| !matches!(l, Limit::Utilization { .. }))
            .unwrap_or(bi);
        let grown = curves
            .get(workload)
            .and_then(|c| c.of(Quantile::P50).get(horizon).copied())
            .unwrap_or(1.0)
            .max(1.0);
        Ok(Grown {
            binding: limits.get(bi).cloned(),
            runway,
            limits,
            curves,
            cluster,
            needed,
            grown,
            horizon_days: i64::from(params.horizon_days),
        })
    }

    /// Reservations: the optimizer instead of LowCost, with at most `runs`
    /// optimizer runs not kept from an earlier call.
    fn reservations(&mut self, g: &Grown, runs: usize) -> Result<Lever, OutOfRuns> {
        let Some(agenda) = self.demand.agenda.clone() else {
            return Ok(unloaded(
                "reservations",
                "no signed-off SLO jobs in the agenda",
            ));
        };
        let grown = g.grown;
        let low = Limit::Agenda {
            packing: Packing::LowCost,
        };
        let m_low = g.machines_for(self, &low, grown);
        let low_day = g.p50(self, &low, 1.0);
        let mut opt = Optimized {
            agenda: &agenda,
            kept: &mut self.optimized,
            budget: runs,
        };
        let m_opt = fewest_holding(&mut opt, &g.cluster, grown, m_low)?;
        let curve = g
            .limits
            .iter()
            .position(|l| l == &low)
            .and_then(|i| g.curves.get(i));
        let opt_day = match curve {
            Some(c) => first_failing_day(&mut opt, c.of(Quantile::P50))?,
            None => None,
        };
        let days = g.days_between(low_day, opt_day);
        let saved = match (m_low, m_opt) {
            (Some(a), Some(b)) => Some(f64::from(a) - f64::from(b)),
            _ => None,
        };
        Ok(Lever {
            name: "reservations".into(),
            machines: saved,
            days,
            pays: saved.is_some_and(|s| s > 0.0) || days.is_some_and(|d| d > 0),
            cost: None,
            detail: format!(
                "at {grown:.2}× today's demand the agenda needs {} machine(s) more by LowCost, {} by the batch optimizer",
                m_low.map_or("more than the cap".into(), |m| m.to_string()),
                m_opt.map_or("more than the cap".into(), |m| m.to_string())
            ),
        })
    }

    /// Shaping: the load sweep's cells at the grown offered load, one per
    /// workload of [`SHAPING_SEEDS`], with at most `runs` cells not kept
    /// from an earlier call (`None`: more are needed).
    fn shaping(
        &mut self,
        g: &Grown,
        inputs: &LeverInputs<'_>,
        runs: usize,
    ) -> Result<Option<Lever>, RunwayError> {
        let Some(base) = &inputs.shaping else {
            return Ok(Some(unloaded(
                "shaping",
                "no Shaping settings in the workspace",
            )));
        };
        let grown = g.grown;
        let load = base.workload.load * grown;
        let seed = base.workload.seed;
        let sweep = LoadSweep {
            seeds: (0..SHAPING_SEEDS).map(|i| seed.wrapping_add(i)).collect(),
            ..LoadSweep::over_loads(base.clone(), vec![load])
        };
        let failed =
            |e: crate::shaping::ShapingError| RunwayError::Lever("shaping".into(), e.to_string());
        let mut rows = Vec::with_capacity(sweep.cells());
        let mut budget = runs;
        for k in 0..sweep.cells() {
            let params = sweep.params_at(k).map_err(failed)?;
            if let Some((_, row)) = self.shaped.iter().find(|(p, _)| *p == params) {
                rows.push(row.clone());
                continue;
            }
            if budget == 0 {
                return Ok(None);
            }
            budget -= 1;
            let row = sweep.run_cell(k).map_err(failed)?;
            if self.shaped.len() == KEPT_SHAPING_CELLS {
                self.shaped.remove(0);
            }
            self.shaped.push((params, row.clone()));
            rows.push(row);
        }
        // The reservations' cores the shaped runs no longer allocate (in
        // core-seconds over the baseline's span: a run's own span ends
        // with its last straggler), on the grown cluster's machines. It
        // pays only where every workload is faster and gives cores back:
        // one workload's figure swings by several points of the cluster.
        let n = rows.len() as f64;
        let mean = |f: fn(&crate::shaping::LoadRow) -> f64| rows.iter().map(f).sum::<f64>() / n;
        let span = |f: fn(&crate::shaping::LoadRow) -> f64| {
            rows.iter()
                .map(f)
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
                    (lo.min(v), hi.max(v))
                })
        };
        let reclaimed = mean(|r| r.reclaimed_cpu_pct) / 100.0;
        let (least, most) = span(|r| r.reclaimed_cpu_pct);
        let (slowest, fastest) = span(|r| r.turnaround_speedup);
        let machines = (reclaimed * f64::from(g.cluster.machines)).min(g.needed);
        let pays = rows
            .iter()
            .all(|r| r.turnaround_speedup > 1.0 && r.reclaimed_cpu_pct > 0.0);
        let days = if pays {
            g.capacity_days(self, machines)
        } else {
            Some(0)
        };
        let verdict = if pays {
            format!(
                "the mean {:.1} points are {machines:.1} of the cluster's {} machines{}",
                reclaimed * 100.0,
                g.cluster.machines,
                g.short_of(days)
            )
        } else {
            "not every workload is faster and gives cores back, so it claims no machines".into()
        };
        Ok(Some(Lever {
            name: "shaping".into(),
            machines: Some(machines),
            days,
            pays,
            cost: Some(format!(
                "{:.1} % of applications failed at least once ({:.0} crashes a workload), {:.1} % of the work wasted",
                mean(|r| r.failed_apps_pct),
                mean(|r| r.failures as f64),
                mean(|r| r.wasted_pct)
            )),
            detail: format!(
                "offered load {load:.2} (the panel's {:.2} × {grown:.2}), {} workloads (seeds {seed}–{}): of the cores the reservations held, the shaped runs left {least:.1} to {most:.1} points of the cluster unallocated (core-seconds over the baseline's span; below 0: their resubmissions allocated more), turnaround {slowest:.2}–{fastest:.2}× the baseline's; {verdict}",
                base.workload.load,
                rows.len(),
                seed.wrapping_add(SHAPING_SEEDS - 1),
            ),
        }))
    }

    /// Harvesting: the tenants' harvestable containers as batch cores.
    fn harvesting(&mut self, g: &Grown, inputs: &LeverInputs<'_>) -> Result<Lever, RunwayError> {
        let (c, per_machine) = match (inputs.harvest, g.cluster.cores_per_machine()) {
            (Some(c), Some(per_machine)) => (c, per_machine),
            (Some(_), None) => {
                return Ok(unloaded(
                    "harvesting",
                    "the cluster's cores are unknown (no agenda capacity)",
                ))
            }
            (None, _) => {
                return Ok(unloaded(
                    "harvesting",
                    "no primary tenants in the workspace",
                ))
            }
        };
        let p = CapacityParams::default();
        let m =
            capacity(c, &p).map_err(|e| RunwayError::Lever("harvesting".into(), e.to_string()))?;
        let worst_hour = (0..24)
            .map(|h| {
                m.classes
                    .iter()
                    .map(|k| k.low.get(h).copied().unwrap_or(0.0))
                    .sum::<f64>()
            })
            .fold(f64::INFINITY, f64::min);
        let cores = if worst_hour.is_finite() {
            worst_hour * p.select.container_cores
        } else {
            0.0
        };
        let harvestable = cores / per_machine;
        let machines = harvestable.min(g.needed);
        let days = g.capacity_days(self, machines);
        let cost = match harvest_cell(c, g.grown) {
            Ok(row) => harvest_cost(&row, g.grown),
            Err(e) => format!("the harvest sweep's cell at the grown load did not run: {e}"),
        };
        Ok(Lever {
            name: "harvesting".into(),
            machines: Some(machines),
            days,
            pays: machines > 0.0,
            cost: Some(cost),
            detail: format!(
                "{cores:.0} cores harvestable from {} primary tenant class(es) in the worst hour ({}th percentile): {harvestable:.1} machines of {per_machine:.2} cores, of which the grown demand needs at most {:.0} ({} today + {} bought){}",
                m.classes.len(),
                m.percentile,
                g.needed,
                g.cluster.machines,
                g.runway.purchases.total,
                g.short_of(days)
            ),
        })
    }
}

/// Tuning: the panel's pass on a grown window.
fn tuning(g: &Grown, inputs: &LeverInputs<'_>) -> Result<Lever, RunwayError> {
    let Some((history, settings, current)) = &inputs.tuning else {
        return Ok(unloaded("tuning", "no job history in the workspace"));
    };
    let grown = g.grown;
    let grown_settings = TuningSettings {
        jobs: ((settings.jobs as f64) * grown).ceil() as usize,
        ..*settings
    };
    let lever = |e: crate::tuning::TuneError| RunwayError::Lever("tuning".into(), e.to_string());
    let groups = window_groups(history, &grown_settings, current.queues.len()).map_err(lever)?;
    let tp = panel_params(&grown_settings, current);
    let report = tune(&groups, &tp, &mut |_, _| {}).map_err(lever)?;
    let (mut now, mut tuned) = (0.0, 0.0);
    for ((_, jobs), r) in groups.iter().zip(&report.groups) {
        let cl = TuneCluster::of(r.containers, tp.per_machine);
        now += simulated_latency(jobs, &cl, current, settings.seed).map_err(lever)?;
        tuned +=
            simulated_latency(jobs, &cl, &r.search.best().config, settings.seed).map_err(lever)?;
    }
    let gain = if now > 0.0 { 1.0 - tuned / now } else { 0.0 };
    let pays = gain > crate::tuning::TIE_TOLERANCE;
    let contention = match contention_cell(history, grown, current.queues.len()) {
        Ok(row) => contention_sentence(&row, grown),
        Err(e) => format!("; the contention sweep's cell at the grown load did not run: {e}"),
    };
    Ok(Lever {
        name: "tuning".into(),
        machines: None,
        days: None,
        pays,
        cost: None,
        detail: format!(
            "{} jobs a window ({} × {grown:.2}): mean latency {now:.1} s current, {tuned:.1} s tuned, simulated ({:+.1} %){}{}",
            grown_settings.jobs,
            settings.jobs,
            -gain * 100.0,
            if pays {
                ""
            } else {
                ": within the tie tolerance or slower, the current configuration is kept"
            },
            contention
        ),
    })
}

/// Days a harvest sweep cell simulates for the lever: two, as the Harvest
/// panel's own run and its "where it pays" sweep.
const HARVEST_DAYS: f64 = 2.0;

/// The harvest sweep's cell at the grown load: a datacenter of the loaded
/// tenants' servers at their core-weighted mean primary level (the point
/// the Harvest panel's "where it pays" marks as theirs), linear scaling,
/// §6's offered batch work × the growth. The primary tenants are held as
/// loaded: the runway grows the batch work that would run on their spare
/// cycles.
fn harvest_cell(c: &Classification, grown: f64) -> Result<RegimeRow, String> {
    let servers: usize = c.tenants.iter().map(|t| t.servers).sum();
    let (sum, weight) = c.tenants.iter().fold((0.0, 0.0), |(s, w), t| {
        let k = t.servers as f64 * t.cores_per_server;
        (s + k * t.average, w + k)
    });
    if servers == 0 || weight <= 0.0 {
        return Err("the tenants have no servers".into());
    }
    let base = HarvestSim::default();
    let sweep = HarvestRegime {
        base: HarvestSim {
            days: HARVEST_DAYS,
            batch_load: base.batch_load * grown,
            ..base
        },
        servers: vec![servers],
        // One decimal, as the Harvest panel's own run at the tenants'
        // level.
        levels: vec![((sum / weight) * 10.0).round() / 10.0],
        scalings: vec![Scaling::Linear],
        ..HarvestRegime::default()
    };
    sweep
        .run_cell(0, &crate::fixtures::regime_datacenter)
        .map_err(|e| e.to_string())
}

/// The harvest cell's kills and unfinished jobs, in a sentence.
fn harvest_cost(row: &RegimeRow, grown: f64) -> String {
    format!(
        "at {grown:.2}× the batch work ({:.2} of the cores), {} servers at {:.1} % primary, {} days: YARN-H killed {} containers (YARN-PT {}), {} of {} jobs unfinished (YARN-PT {}); YARN-H's mean job time {:.1} % below YARN-PT's",
        HarvestSim::default().batch_load * grown,
        row.servers,
        row.level,
        row.days,
        row.h_kills,
        row.pt_kills,
        row.h_unfinished,
        row.jobs,
        row.pt_unfinished,
        row.improvement
    )
}

/// The contention sweep's cell at the grown load: the sweep's base
/// ([`ContentionSweep::small_base`]) at its mix load × the growth, the
/// current queue count, on the first [`SWEEP_SWIM_JOBS`] jobs of the
/// history (as `skyplan sweep tuning FILE` takes them).
fn contention_cell(
    history: &[&WorkloadJob],
    grown: f64,
    queues: usize,
) -> Result<ContentionRow, String> {
    let base = ContentionSweep::small_base();
    let load = base.mix_load * grown;
    let swim = history
        .iter()
        .take(SWEEP_SWIM_JOBS)
        .map(|j| (*j).clone())
        .collect();
    let sweep = ContentionSweep::new(base, swim, vec![load], vec![queues]);
    sweep
        .validate()
        .and_then(|()| sweep.run_cell(0))
        .map_err(|e| e.to_string())
}

/// The contention cell's figures, as the tail of the tuning sentence.
fn contention_sentence(row: &ContentionRow, grown: f64) -> String {
    let pct = |x: Option<f64>| x.map_or_else(|| "–".to_owned(), |v| format!("{:.1} %", 100.0 * v));
    format!(
        "; the contention sweep at mix load {:.2} (× {grown:.2}) on {} queue(s), {} cases: non-best configurations {} slower than the best, the estimate's pick the best in {}, its regret {}",
        row.load,
        row.queues,
        row.cases,
        pct(row.nonbest_increase),
        pct(row.hit_share),
        pct(row.regret)
    )
}
