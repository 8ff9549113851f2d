//! The runway, first in the report: when each limit is reached (P10, P50,
//! P90), the binding one, the purchase schedules and what each lever buys
//! at the grown load — the numbers `skyplan runway` prints and the Runway
//! panel shows ([`crate::runway`]).

use crate::chart::{xy_figure, Series, XyChart};
use crate::context::Context;
use crate::fmt::{count, fixed};
use crate::html::{Html, Table};
use crate::progress::Progress;
use crate::runway::of_context;
use skyplan_engine::runway::{Growth, PurchasePlan};
use skyplan_engine::time::civil_from_days;
use skyplan_engine::Timestamp;

/// A day, `YYYY-MM-DD`, or "beyond the horizon".
pub fn day(t: Option<Timestamp>) -> String {
    match t {
        Some(t) => {
            let (y, m, d) = civil_from_days(t.div_euclid(86_400));
            format!("{y:04}-{m:02}-{d:02}")
        }
        None => "beyond the horizon".into(),
    }
}

fn plan_rows(t: &mut Table, plan: &PurchasePlan, which: &str) {
    if plan.purchases.is_empty() {
        t.row(vec![which.into(), "—".into(), "0".into()]);
    }
    for p in &plan.purchases {
        t.row(vec![
            which.into(),
            day(Some(p.date)),
            count(p.machines as usize),
        ]);
    }
}

/// Writes the section; present when the workspace has anything to run out
/// of.
pub fn write(ctx: &Context<'_>, h: &mut Html, _progress: &mut dyn FnMut(Progress)) -> bool {
    let params = ctx
        .bundle
        .runway
        .as_ref()
        .map(|r| r.params.clone())
        .unwrap_or_default();
    let o = match of_context(ctx, &params) {
        Ok(o) => o,
        Err(e) => {
            h.absent(&format!("No runway: {e}"));
            return false;
        }
    };
    let r = &o.runway;
    h.figures(&[
        (
            "binding limit",
            r.binding
                .clone()
                .unwrap_or_else(|| "none within the horizon".into()),
        ),
        ("today", day(Some(r.today))),
        ("machines to add (P50)", count(r.purchases.total as usize)),
        (
            "machines to add (P90)",
            count(r.purchases_p90.total as usize),
        ),
    ]);
    let mut t = Table::new(
        "Runway per limit: the day each is reached (P10 early, P90 late)",
        &["limit", "P10", "P50", "P90", "#largest growth", "what"],
    );
    for l in &r.limits {
        t.row(vec![
            l.name.clone(),
            day(l.p10),
            day(l.p50),
            day(l.p90),
            l.largest_growth
                .map_or("∞".into(), |g| format!("{}×", fixed(g, 3))),
            format!(
                "{}{}",
                l.description,
                if l.extrapolated {
                    " (extrapolated)"
                } else {
                    ""
                }
            ),
        ]);
    }
    h.table(&t);
    if !r.chart.is_empty() {
        let x = |d: usize| d as f64;
        let line = |name: &str, f: &dyn Fn(usize) -> Option<f64>| Series {
            name: name.into(),
            points: (0..r.chart.len())
                .filter_map(|d| f(d).map(|v| (x(d), v)))
                .collect(),
            step: false,
        };
        let c = &r.chart;
        let chart = XyChart {
            x_label: "days from today".into(),
            y_label: "demand, × today's".into(),
            series: vec![
                line("demand P90", &|d| Some(c[d].p90)),
                line("demand P50", &|d| Some(c[d].p50)),
                line("demand P10", &|d| Some(c[d].p10)),
                line("capacity today", &|d| c[d].capacity_today),
                line("capacity after the P50 purchases", &|d| {
                    c[d].capacity_planned
                }),
            ],
            reference: None,
            x_tick: None,
        };
        let caption = format!(
            "Demand of the binding limit ({}) against what the cluster meets, today and after each suggested purchase",
            r.binding.as_deref().unwrap_or("first limit")
        );
        xy_figure(h, &chart, &caption);
    }
    let mut t = Table::new(
        "Purchase schedule: machines to add by the date",
        &["plan", "by", "#machines"],
    );
    plan_rows(&mut t, &r.purchases, "P50");
    plan_rows(&mut t, &r.purchases_p90, "P90");
    h.table(&t);
    for plan in [&r.purchases, &r.purchases_p90] {
        if let Some(u) = &plan.unmet {
            h.para_in("problem", u);
        }
    }
    let mut t = Table::new(
        "Levers at the grown load: what each buys instead of machines",
        &["lever", "#machines", "#days", "pays", "cost", "figures"],
    );
    for l in &o.levers {
        t.row(vec![
            l.name.clone(),
            l.machines.map_or("—".into(), |m| fixed(m, 1)),
            l.days.map_or("—".into(), |d| d.to_string()),
            if l.pays { "yes" } else { "no" }.into(),
            l.cost.clone().unwrap_or_else(|| "—".into()),
            l.detail.clone(),
        ]);
    }
    h.table(&t);
    if !r.notes.is_empty() {
        h.list(&r.notes);
    }
    let growth = match &params.growth {
        Growth::Fitted => "fitted from the history".to_string(),
        Growth::Monthly { percent } => format!("{percent} % a month, set by hand"),
    };
    let mut settings = vec![
        ("growth", growth),
        (
            "model",
            r.limits
                .first()
                .map(|l| l.model.clone())
                .unwrap_or_default(),
        ),
        (
            "headroom target",
            format!("{} %", fixed(params.target * 100.0, 0)),
        ),
        ("horizon", format!("{} days", params.horizon_days)),
        ("purchase horizon", format!("{} days", params.purchase_days)),
        (
            "cluster",
            format!(
                "{} machines{}",
                r.cluster.machines,
                r.cluster
                    .cores_per_machine()
                    .map(|c| format!(", {} cores a machine added", fixed(c, 1)))
                    .unwrap_or_default()
            ),
        ),
    ];
    if let Some(e) = &r.evidence {
        settings.push((
            "evidence",
            format!(
                "{} days of daily peaks, supporting {} days ahead",
                e.days, e.supported_days
            ),
        ));
    }
    h.settings(&settings);
    true
}
