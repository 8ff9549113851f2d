//! The thresholds Algorithm 1 used in the simulation shown, and why: each
//! job type's share of the work against its preferred classes' share of
//! the harvestable capacity (the paper's rule, §4.1 and §6), at the
//! simulation's first level, as `skyplan harvest simulate-scheduling`
//! prints them.

use crate::state::Studio;
use crate::widgets::format::trimmed;
use crate::widgets::table::{col, num, DataTable};
use leptos::prelude::*;
use skyplan_engine::harvest::{ThresholdDerivation, ThresholdRule};

/// The derivation's table.
fn table(level: f64, d: &ThresholdDerivation) -> impl IntoView {
    let rule = match d.rule {
        ThresholdRule::Derived => "derived: each type's share of the work matches its preferred classes' share of the capacity",
        ThresholdRule::Fixed => "fixed",
    };
    let rows = d
        .types
        .iter()
        .map(|b| {
            let kind = format!("{:?}", b.job_type).to_lowercase();
            let label = kind.clone();
            view! {
                <tr
                    data-testid="harvest-threshold-row"
                    data-type=kind
                    data-work-share=b.work_share.to_string()
                    data-capacity-share=b.capacity_share.to_string()
                >
                    <td>{label}</td>
                    <td>{b.preferred.name()}</td>
                    <td class="num">{b.jobs.to_string()}</td>
                    <td class="num">{format!("{} %", trimmed(100.0 * b.work_share, 1))}</td>
                    <td class="num">{trimmed(b.demand_containers, 1)}</td>
                    <td class="num">{trimmed(b.capacity_containers, 0)}</td>
                    <td class="num">{format!("{} %", trimmed(100.0 * b.capacity_share, 1))}</td>
                </tr>
            }
        })
        .collect_view();
    let every = if d.arrivals_per_sec > 0.0 {
        trimmed(1.0 / d.arrivals_per_sec, 0)
    } else {
        "∞".to_owned()
    };
    let classes = d
        .classes
        .iter()
        .map(|c| format!("{} {}", c.class, trimmed(c.containers, 0)))
        .collect::<Vec<_>>()
        .join(", ");
    view! {
        <p
            data-testid="harvest-thresholds"
            data-short=d.short_max_secs.to_string()
            data-long=d.long_min_secs.to_string()
        >
            {format!(
                "Thresholds at {} %: short below {} s, long above {} s ({rule}).",
                trimmed(level, 1),
                trimmed(d.short_max_secs, 0),
                trimmed(d.long_min_secs, 0)
            )}
        </p>
        <DataTable cols=vec![
            col("Type"),
            col("Preferred"),
            num("Jobs"),
            num("Work share"),
            num("Demand (containers)"),
            num("Capacity (containers)"),
            num("Capacity share"),
        ]>
            {rows}
        </DataTable>
        <p class="hint">
            {format!("Demand at one job per {every} s; capacity per class: {classes}.")}
        </p>
    }
}

/// The thresholds of the simulation shown, at its first level.
#[component]
pub fn ThresholdsTable() -> impl IntoView {
    let desk = expect_context::<Studio>().harvest.cycles;
    move || {
        desk.sim.view.with(|v| {
            v.as_ref()
                .and_then(|v| v.report.levels.first())
                .map(|l| table(l.level, &l.thresholds))
        })
    }
}
