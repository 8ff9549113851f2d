//! The signed-off SLOs with their skylines: every decision the owners took
//! (signed off, overridden, rejected), each contract's window and skyline
//! in numbers, and the skylines drawn.

use crate::chart::{xy_figure, Series, XyChart};
use crate::context::Context;
use crate::fmt::{count, duration, fixed, instant, whole};
use crate::html::{Html, Table};
use crate::progress::Progress;
use skyplan_engine::slo::{DecisionKind, SloDecision};

/// Skylines drawn one chart each; the rest are in the table only.
pub const CHARTS: usize = 12;

fn kind(k: DecisionKind) -> &'static str {
    match k {
        DecisionKind::SignedOff => "signed off",
        DecisionKind::Overridden => "overridden",
        DecisionKind::Rejected => "rejected",
    }
}

/// Container-hours of a decision's skyline.
fn container_hours(d: &SloDecision) -> f64 {
    d.skyline
        .as_ref()
        .map_or(f64::NAN, |s| s.area() * f64::from(s.step_secs) / 3600.0)
}

/// Writes the section; present when the bundle holds decisions.
pub fn write(ctx: &Context<'_>, h: &mut Html, _progress: &mut dyn FnMut(Progress)) -> bool {
    let decisions = &ctx.bundle.decisions;
    if decisions.is_empty() {
        h.absent("No SLO decisions in this workspace.");
        return false;
    }
    let of = |k: DecisionKind| decisions.iter().filter(|d| d.kind == k).count();
    let contracts: Vec<&SloDecision> = decisions
        .iter()
        .filter(|d| d.kind != DecisionKind::Rejected)
        .collect();
    h.figures(&[
        ("signed off", count(of(DecisionKind::SignedOff))),
        ("overridden", count(of(DecisionKind::Overridden))),
        ("rejected", count(of(DecisionKind::Rejected))),
        (
            "reserved container-hours per period, all contracts",
            whole(contracts.iter().map(|d| container_hours(d)).sum()),
        ),
    ]);
    if contracts.is_empty() {
        h.para("No SLO is signed off or overridden: every decision is a rejection.");
    } else {
        let mut t = Table::new(
            "Contracts: each period's window and reservation skyline (peak in containers)",
            &[
                "job",
                "decision",
                "period",
                "first period",
                "window",
                "skyline",
                "#peak",
                "#container-hours",
            ],
        );
        for d in &contracts {
            let (a, z) = d.window.unwrap_or((0, 0));
            let sky = d.skyline.as_ref();
            t.row(vec![
                d.job.clone(),
                kind(d.kind).to_string(),
                duration(d.period_secs as f64),
                instant(d.reference),
                format!("+{} to +{}", duration(a as f64), duration(z as f64)),
                sky.map_or("—".into(), |s| {
                    format!("{} steps of {} s", count(s.len()), s.step_secs)
                }),
                sky.map_or("—".into(), |s| fixed(s.peak(), 1)),
                whole(container_hours(d)),
            ]);
        }
        h.table(&t);
        h.small_charts(|h| {
            for d in contracts.iter().take(CHARTS) {
                let Some(sky) = &d.skyline else { continue };
                let (a, _) = d.window.unwrap_or((0, 0));
                let step = f64::from(sky.step_secs) / 60.0;
                let start = a as f64 / 60.0;
                let mut points: Vec<(f64, f64)> = sky
                    .containers
                    .iter()
                    .enumerate()
                    .map(|(i, &c)| (start + i as f64 * step, c))
                    .collect();
                // The last step holds until the skyline ends.
                points.push((start + sky.len() as f64 * step, 0.0));
                let chart = XyChart {
                    x_label: "minutes after the period starts".into(),
                    y_label: "containers".into(),
                    series: vec![Series {
                        name: d.job.clone(),
                        points,
                        step: true,
                    }],
                    reference: None,
                    x_tick: None,
                };
                xy_figure(
                    h,
                    &chart,
                    &format!(
                        "{} — skyline R* ({}), peak {} containers, window +{} to +{}",
                        d.job,
                        kind(d.kind),
                        fixed(sky.peak(), 1),
                        duration(a as f64),
                        duration(d.window.map_or(0, |w| w.1) as f64)
                    ),
                );
            }
        });
        if contracts.len() > CHARTS {
            h.para_in(
                "note",
                &format!(
                    "The first {CHARTS} skylines are drawn; the other {} are in the table.",
                    contracts.len() - CHARTS
                ),
            );
        }
    }
    let rejected: Vec<String> = decisions
        .iter()
        .filter(|d| d.kind == DecisionKind::Rejected)
        .map(|d| match &d.note {
            Some(n) if !n.trim().is_empty() => format!("{}: {}", d.job, n),
            _ => format!("{}: no SLO (manual provisioning)", d.job),
        })
        .collect();
    if !rejected.is_empty() {
        h.heading(3, "Rejected");
        h.list(&rejected);
    }
    let fitted: Vec<String> = contracts
        .iter()
        .filter_map(|d| {
            d.model.as_ref().map(|m| {
                format!(
                    "{}: {:?}, α = {}, step {} s",
                    d.job, m.variant, m.alpha, m.step_secs
                )
            })
        })
        .collect();
    h.settings(&[
        (
            "skylines",
            "as decided (the fitted R*, or the owner's override); container-hours = Σ containers × step".into(),
        ),
        (
            "fits",
            if fitted.is_empty() {
                "no fit recorded with the decisions".into()
            } else {
                fitted.join("; ")
            },
        ),
    ]);
    true
}
