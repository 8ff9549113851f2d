//! The K1 × K2 heat maps, on demand.

use crate::fields;
use crate::parts::shaping::charts::{HeatPlot, Metric};
use crate::parts::shaping::desk::ShapingForm;
use crate::state::Studio;
use crate::toolkit::run::{JobCard, RunControls};
use crate::widgets::button::button;
use crate::widgets::field::{text_field, Field};
use crate::widgets::format::trimmed;
use crate::widgets::table::{col, num, DataTable};
use crate::widgets::PlotCanvas;
use leptos::prelude::*;

/// The grid's fields.
const GRID_FIELDS: [Field<ShapingForm>; 2] = fields![ShapingForm:
    ("Grid applications (one seed)", "shaping-grid-apps", grid_apps),
    ("Target failures (% of apps)", "shaping-target", target),
];

/// The K1 × K2 heat maps, on demand.
#[component]
pub fn GridCard() -> impl IntoView {
    let desk = expect_context::<Studio>().shaping;
    let heat = move |metric: Metric| {
        Signal::derive(move || {
            desk.grid.view.with(|g| {
                g.as_ref().map(|g| HeatPlot {
                    report: g.report.clone(),
                    metric,
                    key: format!("{}:{}", g.ticket, g.report.grid.target_failed_pct),
                })
            })
        })
    };
    let placeholder = Signal::derive(move || {
        if desk.grid.running.get() {
            "Running the grid in the worker…".to_owned()
        } else {
            "Run grid: 6 K1 × 4 K2 shaped runs against the baseline.".to_owned()
        }
    });
    let status = desk.grid.status("running", " runs", "idle", |g| {
        format!(
            "{} cells in {} ms",
            g.report.cells.len(),
            trimmed(g.millis, 0)
        )
    });
    let recommended = move || {
        desk.grid.view.with(|g| {
            let g = g.as_ref()?;
            let r = g.report.recommended.first()?;
            let c = &r.cell;
            Some(format!(
                "{} {} K1 = {} %, K2 = {}: {}× turnaround, {} % memory slack, {} % of applications failed{}; {} crashes and {} resubmissions per application, shaping turned off for {} %; the worst-off (p99) wait {}× their own baseline turnaround. Workload: {}.",
                if r.meets_target { "Recommended for" } else { "No cell meets" },
                if r.meets_target {
                    format!("≤ {} % failures:", trimmed(r.target_failed_pct, 2))
                } else {
                    format!("{} % failures; the fewest failures at", trimmed(r.target_failed_pct, 2))
                },
                trimmed(c.k1 * 100.0, 1),
                trimmed(c.k2, 1),
                trimmed(c.turnaround_ratio, 2),
                trimmed(c.slack_mem_pct, 1),
                trimmed(c.failed_apps_pct, 1),
                if r.meets_target { "" } else { " (the target is not met)" },
                trimmed(c.crashes_per_app, 2),
                trimmed(c.resubmissions_per_app, 2),
                trimmed(c.shaping_off_pct, 1),
                trimmed(c.worst_off_p99, 2),
                g.source
            ))
        })
    };
    let cells = move || {
        desk.grid.view.with(|g| {
            let Some(g) = g.as_ref() else {
                return Vec::new();
            };
            let rec = g.report.recommended.first().map(|r| (r.cell.k1, r.cell.k2));
            g.report
                .cells
                .iter()
                .map(|c| {
                    let is = rec == Some((c.k1, c.k2));
                    view! {
                        <tr
                            data-testid="shaping-grid-cell"
                            data-k1=c.k1.to_string()
                            data-k2=c.k2.to_string()
                            data-recommended=is.to_string()
                            class:selected=is
                        >
                            <td class="num">{trimmed(c.k1 * 100.0, 1)}</td>
                            <td class="num">{trimmed(c.k2, 1)}</td>
                            <td class="num">{format!("{}×", trimmed(c.turnaround_ratio, 2))}</td>
                            <td class="num">{trimmed(c.slack_mem_pct, 1)}</td>
                            <td class="num">{trimmed(c.failed_apps_pct, 1)}</td>
                            <td class="num">{trimmed(c.preempted_apps_pct, 1)}</td>
                            <td>{if is { "★" } else { "" }}</td>
                        </tr>
                    }
                })
                .collect::<Vec<_>>()
        })
    };
    view! {
        <JobCard
            title="K1 × K2 heat maps"
            text="Figure 3 for the chosen forecaster and policy: K1 ∈ {0, 5, 10, 25, 50, 100} % × K2 ∈ {0, 1, 2, 3}, each shaped run against the reservation baseline. To answer in about half a minute in the browser it runs one seed of a smaller workload (the paper averages 10 runs of 150,000 applications; `skyplan shape grid` runs three seeds). The recommendation — beyond the paper — is the best turnaround whose failures stay under the target."
            job=desk.grid
            status_testid="shaping-grid-status"
            status=status
        >
            <div class="form-grid two">
                {GRID_FIELDS.into_iter().map(|f| text_field(desk.form, f)).collect_view()}
            </div>
            <RunControls
                job=desk.grid
                testid="shaping-grid"
                label="Run grid"
                busy="running"
                unit=" runs"
                on_run=move || desk.run_grid()
            >
                {button(
                    "button",
                    "shaping-retarget",
                    "Recommend for the target",
                    move || desk.grid.view.with(Option::is_none) || desk.grid.running.get(),
                    move || desk.retarget(),
                )}
            </RunControls>
            <p class="hint" data-testid="shaping-recommended">{recommended}</p>
            <div class="shaping-heat">
                {Metric::ALL
                    .into_iter()
                    .map(|m| view! { <PlotCanvas data=heat(m) placeholder=placeholder testid=m.testid()/> })
                    .collect_view()}
            </div>
            <Show when=move || desk.grid.view.with(Option::is_some)>
                <DataTable cols=vec![num("K1 %"), num("K2"), num("Turnaround ratio"), num("Memory slack %"), num("Failed %"), num("Preempted %"), col("")] frame="shaping-cells">
                    {cells}
                </DataTable>
            </Show>
        </JobCard>
    }
}
