//! The runway of a workspace bundle, computed once here for everyone who
//! shows it — the report's first section, `skyplan runway` and the
//! studio's worker — so the three give the same numbers: the demand
//! gathered from the bundle's files and panels, the runway under the
//! Runway panel's settings, and the lever table from the other panels'
//! settings.

use crate::context::Context;
use skyplan_engine::bundle::{Bundle, PricingSettings};
use skyplan_engine::fixtures::QueueParams;
use skyplan_engine::harvest::{
    classify, group_series, read_tenants_csv, tenant_series, Classification, ClassifyParams,
    GroupParams, TenantInfo,
};
use skyplan_engine::model::WorkloadJob;
use skyplan_engine::pricing::QueuedJob;
use skyplan_engine::runway::{
    Demand, Lever, LeverInputs, LeverKind, Planner, Runway, RunwayParams,
};
use skyplan_engine::shaping::Params as ShapingParams;
use skyplan_engine::tuning::{equal_queues, SchedulerKind};
use skyplan_engine::UtilizationSeries;

/// The runway and its lever table, with the settings they were made with.
#[derive(Clone, Debug, PartialEq)]
pub struct RunwayOutcome {
    /// The settings.
    pub params: RunwayParams,
    /// The runway.
    pub runway: Runway,
    /// One row per lever: reservations, shaping, harvesting, tuning.
    pub levers: Vec<Lever>,
}

/// The runway of `bundle` under `params` (`None`: the bundle's Runway
/// settings, or the defaults). An error is one line saying why.
pub fn outcome(bundle: &Bundle, params: Option<&RunwayParams>) -> Result<RunwayOutcome, String> {
    let ctx = Context::new(bundle);
    let params = params
        .cloned()
        .or_else(|| bundle.runway.as_ref().map(|r| r.params.clone()))
        .unwrap_or_default();
    of_context(&ctx, &params)
}

/// A runway planner for `bundle`: the demand gathered from its files and
/// panels. Kept (the studio's worker keeps one per workspace), a change of
/// growth or headroom is answered without re-planning the agenda.
pub fn planner(bundle: &Bundle) -> Planner {
    let ctx = Context::new(bundle);
    let tenants = Tenants::of(&ctx);
    Planner::new(demand_of(&ctx, &tenants))
}

/// One lever's row of the runway of `bundle` under `params`, asked of a
/// `planner` made from the same bundle ([`planner`]). An error is one
/// line saying why.
pub fn lever(
    bundle: &Bundle,
    planner: &mut Planner,
    params: &RunwayParams,
    kind: LeverKind,
) -> Result<Lever, String> {
    lever_within(bundle, planner, params, kind, usize::MAX)?
        .ok_or_else(|| format!("the {} lever was not answered", kind.name()))
}

/// [`lever`] with at most `runs` runs (the batch optimizer's, the shaping
/// cells'; [`Planner::lever_within`]): `None` when the lever needs more,
/// the answers made kept in `planner` for the next call. The reservations
/// lever reads only the planner's demand and the shaping lever only the
/// Shaping settings, so the bundle's files are not read again for each of
/// their calls.
pub fn lever_within(
    bundle: &Bundle,
    planner: &mut Planner,
    params: &RunwayParams,
    kind: LeverKind,
    runs: usize,
) -> Result<Option<Lever>, String> {
    if matches!(kind, LeverKind::Reservations | LeverKind::Shaping) {
        let inputs = LeverInputs {
            shaping: shaping_params(bundle),
            ..LeverInputs::default()
        };
        return planner
            .lever_within(kind, params, &inputs, runs)
            .map_err(|e| e.to_string());
    }
    let ctx = Context::new(bundle);
    let tenants = Tenants::of(&ctx);
    let classification = if kind == LeverKind::Harvesting {
        tenants.classification()
    } else {
        None
    };
    let inputs = inputs_of(&ctx, classification.as_ref());
    planner
        .lever_within(kind, params, &inputs, runs)
        .map_err(|e| e.to_string())
}

/// The runway of a bundle already read.
pub(crate) fn of_context(
    ctx: &Context<'_>,
    params: &RunwayParams,
) -> Result<RunwayOutcome, String> {
    let tenants = Tenants::of(ctx);
    let classification = tenants.classification();
    let inputs = inputs_of(ctx, classification.as_ref());
    let mut planner = Planner::new(demand_of(ctx, &tenants));
    let runway = planner.answer(params).map_err(|e| e.to_string())?;
    let levers = planner.levers(params, &inputs).map_err(|e| e.to_string())?;
    Ok(RunwayOutcome {
        params: params.clone(),
        runway,
        levers,
    })
}

/// The Harvest panel's primary tenants: their descriptions and their
/// servers' CPU series.
struct Tenants {
    infos: Option<Vec<TenantInfo>>,
    cpu: Vec<UtilizationSeries>,
}

impl Tenants {
    fn of(ctx: &Context<'_>) -> Tenants {
        let infos = ctx
            .bundle
            .harvest
            .as_ref()
            .and_then(|h| h.tenants.as_ref())
            .and_then(|(name, text)| read_tenants_csv(name, text).ok());
        let cpu = infos
            .as_deref()
            .map(|t| tenant_series(ctx.workspace.series(), t))
            .unwrap_or_default();
        Tenants { infos, cpu }
    }

    /// The tenants classified as the Harvest panel does.
    fn classification(&self) -> Option<Classification> {
        match (&self.infos, self.cpu.is_empty()) {
            (Some(infos), false) => {
                group_series(&self.cpu, Some(infos), None, &GroupParams::default())
                    .and_then(|(set, _)| classify(&set, &ClassifyParams::default()))
                    .ok()
            }
            _ => None,
        }
    }
}

/// What the cluster carries: its utilization (the Harvest panel's tenants
/// are the primary tenants' servers, not the cluster's: their series are
/// left out), the signed-off SLO jobs, the agenda and the pricing queue.
fn demand_of(ctx: &Context<'_>, tenants: &Tenants) -> Demand {
    let b = ctx.bundle;
    let cluster: Vec<&UtilizationSeries> = ctx
        .workspace
        .series()
        .filter(|s| !tenants.cpu.iter().any(|t| t.server == s.server))
        .collect();
    let decisions: Vec<_> = ctx.workspace.decisions().cloned().collect();
    let queue: Option<(Vec<QueuedJob>, _, f64)> = b.pricing.as_ref().map(|p| {
        let slots = p.settings.unwrap_or_else(PricingSettings::default).slots;
        (
            p.queue.iter().map(|a| a.job.clone()).collect(),
            slots,
            QueueParams::default().quantum,
        )
    });
    Demand::gather(
        cluster,
        &decisions,
        b.agenda.as_ref(),
        queue.as_ref().map(|(j, s, q)| (j.as_slice(), *s, *q)),
    )
}

/// The Shaping panel's run settings, when the bundle has the panel.
fn shaping_params(b: &Bundle) -> Option<ShapingParams> {
    b.shaping
        .as_ref()
        .map(|s| s.settings.clone().unwrap_or_default().params)
}

/// What the levers read from the other panels: the Shaping settings, the
/// classified tenants, the job history with the Tuning settings.
fn inputs_of<'a>(
    ctx: &'a Context<'a>,
    classification: Option<&'a Classification>,
) -> LeverInputs<'a> {
    let b = ctx.bundle;
    let history: Vec<&WorkloadJob> = ctx.workspace.workload().collect();
    LeverInputs {
        shaping: shaping_params(b),
        harvest: classification,
        tuning: b.tuning.as_ref().filter(|_| !history.is_empty()).map(|t| {
            (
                history,
                t.settings,
                t.current
                    .clone()
                    .unwrap_or_else(|| equal_queues(SchedulerKind::Capacity, 2)),
            )
        }),
    }
}
