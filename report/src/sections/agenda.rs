//! The agenda: the plan's capacity, peak and cost over the day, its
//! reservations, and the signed-off SLOs not in it — each admitted again,
//! on a copy of the plan, the way the Agenda panel's "Admit" does (LowCost,
//! stretched skylines, periodic requests first), so the reason it is
//! refused is the engine's.

use crate::chart::{xy_figure, Series, XyChart};
use crate::context::Context;
use crate::fmt::{count, duration, fixed, instant};
use crate::html::{Html, Table};
use crate::progress::Progress;
use skyplan_engine::agenda::{of_job, requests_from_decisions, Method, Plan, Recurrence};
use skyplan_engine::slo::{DecisionKind, SloDecision};
use skyplan_engine::Timestamp;

/// The panel's admission: LowCost, skylines stretched down to one
/// container a step (`skyplan plan --min-parallelism 1`).
const METHOD: Method = Method::LowCost;
const MIN_PARALLELISM: f64 = 1.0;

/// A signed-off SLO not in the plan, and what admitting it gives.
pub struct Refusal {
    /// The job (or its request's name).
    pub name: String,
    /// Why it is not placed; `None`: it fits, it was just not admitted.
    pub reason: Option<String>,
}

/// The signed-off and overridden decisions with no reservation in `plan`.
fn waiting<'a>(decisions: &'a [SloDecision], plan: &Plan) -> Vec<&'a SloDecision> {
    decisions
        .iter()
        .filter(|d| d.kind != DecisionKind::Rejected)
        .filter(|d| {
            !plan
                .reservations()
                .iter()
                .any(|r| of_job(&r.request.name, &d.job))
        })
        .collect()
}

/// What admitting the waiting decisions on a copy of `plan` gives: each
/// request refused with the engine's reason, or placed (it fits).
pub fn refusals(decisions: &[SloDecision], plan: &Plan, origin: Timestamp) -> Vec<Refusal> {
    let waiting: Vec<SloDecision> = waiting(decisions, plan).into_iter().cloned().collect();
    if waiting.is_empty() {
        return Vec::new();
    }
    let (requests, skipped) =
        requests_from_decisions(&waiting, origin, plan.params(), MIN_PARALLELISM);
    let mut out: Vec<Refusal> = skipped
        .into_iter()
        .map(|(name, why)| Refusal {
            name,
            reason: Some(why),
        })
        .collect();
    let (mut ordered, one_offs): (Vec<_>, Vec<_>) = requests
        .into_iter()
        .partition(|r| matches!(r.recurrence, Recurrence::Periodic { .. }));
    ordered.extend(one_offs);
    let mut trial = plan.clone();
    for request in ordered {
        let name = request.name.clone();
        match trial.admit(request, METHOD) {
            Ok((_, displaced)) => {
                out.push(Refusal { name, reason: None });
                out.extend(displaced.into_iter().map(|r| Refusal {
                    name: r.name,
                    reason: Some(r.reason),
                }));
            }
            Err(r) => out.push(Refusal {
                name: r.name,
                reason: Some(r.reason),
            }),
        }
    }
    out
}

/// Writes the section; present when the bundle holds the Agenda panel's
/// state.
pub fn write(ctx: &Context<'_>, h: &mut Html, _progress: &mut dyn FnMut(Progress)) -> bool {
    let Some(state) = &ctx.bundle.agenda else {
        h.absent("No agenda in this workspace.");
        return false;
    };
    let Some(plan) = &state.plan else {
        h.absent("The agenda has no plan: nothing was admitted.");
        if let Some(c) = state.capacity {
            h.para(&format!(
                "Capacity set: {} cores, {} MB.",
                fixed(c.cores, 0),
                fixed(c.memory_mb, 0)
            ));
        }
        return true;
    };
    let params = plan.params();
    let cost = plan.cost_curve();
    let peak = plan.peak();
    let mean = if cost.is_empty() {
        f64::NAN
    } else {
        cost.iter().sum::<f64>() / cost.len() as f64
    };
    let step_min = params.step_secs as f64 / 60.0;
    let peak_at = cost
        .iter()
        .enumerate()
        .fold((0, f64::NEG_INFINITY), |best, (i, &c)| {
            if c > best.1 {
                (i, c)
            } else {
                best
            }
        })
        .0;
    let capacity = plan.capacity().first().copied();
    let origin = state.origin;
    let clock = |step: usize| match origin {
        Some(o) => instant(o + step as i64 * params.step_secs),
        None => format!("+{}", duration(step as f64 * params.step_secs as f64)),
    };
    h.figures(&[
        ("peak cost (load / capacity)", fixed(peak, 3)),
        ("at", clock(peak_at)),
        ("mean cost", fixed(mean, 3)),
        ("reservations", count(plan.reservations().len())),
        (
            "capacity",
            capacity.map_or("—".into(), |c| {
                format!("{} cores, {} MB", fixed(c.cores, 0), fixed(c.memory_mb, 0))
            }),
        ),
    ]);
    if let Some(note) = &state.capacity_note {
        h.para_in("note", &format!("Capacity: {note}"));
    }
    let chart = XyChart {
        x_label: "hours into the plan".into(),
        y_label: "cost".into(),
        series: vec![Series {
            name: "cost".into(),
            points: cost
                .iter()
                .enumerate()
                .map(|(i, &c)| (i as f64 * step_min / 60.0, c))
                .collect(),
            step: true,
        }],
        reference: Some((1.0, "capacity".into())),
        x_tick: None,
    };
    xy_figure(
        h,
        &chart,
        &format!(
            "Cost c(t) = max(cores, memory) load over capacity, per {}-minute step; peak {}",
            fixed(step_min, 0),
            fixed(peak, 3)
        ),
    );
    let mut t = Table::new(
        "Reservations",
        &[
            "request",
            "kind",
            "method",
            "first start",
            "#instances",
            "#peak containers",
            "#container-hours each",
        ],
    );
    let mut reservations: Vec<_> = plan.reservations().iter().collect();
    reservations.sort_by_key(|r| r.id);
    for r in reservations {
        t.row(vec![
            r.request.name.clone(),
            match r.request.recurrence {
                Recurrence::Periodic { period_secs } => {
                    format!("every {}", duration(period_secs as f64))
                }
                Recurrence::OneOff => "one-off".into(),
            },
            r.method.label().to_string(),
            clock(r.start),
            count(r.instances),
            fixed(r.alloc.iter().copied().fold(0.0, f64::max), 1),
            fixed(
                r.alloc.iter().sum::<f64>() * params.step_secs as f64 / 3600.0,
                1,
            ),
        ]);
    }
    if !t.is_empty() {
        h.table(&t);
    }
    let origin_for_requests = origin.unwrap_or_else(|| {
        let earliest = ctx
            .bundle
            .decisions
            .iter()
            .map(|d| d.reference)
            .min()
            .unwrap_or(0);
        earliest - earliest.rem_euclid(86_400)
    });
    let refused = refusals(&ctx.bundle.decisions, plan, origin_for_requests);
    h.heading(3, "Refused requests");
    if refused.is_empty() {
        h.para("Every signed-off or overridden SLO has its reservation in the plan.");
    } else {
        let mut t = Table::new(
            "Signed-off SLOs not in the plan: why the studio refused them, and admitted again on a copy of the plan now",
            &["request", "when admitted", "admitted again"],
        );
        for r in &refused {
            let kept = state
                .refused
                .iter()
                .find(|(name, _)| name == &r.name || of_job(&r.name, name))
                .map_or_else(|| "–".to_string(), |(_, why)| why.clone());
            t.row(vec![
                r.name.clone(),
                kept,
                match &r.reason {
                    Some(why) => format!("refused: {why}"),
                    None => "fits (not admitted yet)".into(),
                },
            ]);
        }
        h.table(&t);
    }
    h.settings(&[
        (
            "plan",
            format!(
                "one period of {} at {}-second steps{}",
                duration(params.period_secs as f64),
                params.step_secs,
                origin.map_or(String::new(), |o| format!(", from {}", instant(o)))
            ),
        ),
        ("cost", "max over cores and memory of load / capacity (§6.3)".into()),
        (
            "refusals",
            format!(
                "admission as the panel's Admit: {}, skylines stretched to ≥ {MIN_PARALLELISM} container a step, periodic requests first",
                METHOD.label()
            ),
        ),
    ]);
    true
}
