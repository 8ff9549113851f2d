//! "Where it pays": the turnaround speed-up against offered load for the
//! oracle (both policies) and the run's own forecaster, with the failures
//! each costs, the loaded workload's load marked and the paper's figure
//! beside it. Run on the sweep pool, cells shown as they finish.

use crate::fields;
use crate::parts::shaping::charts::pays_plot;
use crate::parts::shaping::desk::PaysForm;
use crate::state::Studio;
use crate::toolkit::sweep_controls::RegimeCard;
use crate::widgets::field::{text_field, Field};
use crate::widgets::format::trimmed;
use leptos::prelude::*;
use skyplan_engine::shaping::Config;
use skyplan_engine::sweep::{CellOutcome, CellRow};

/// The sweep's fields.
const PAYS_FIELDS: [Field<PaysForm>; 2] = fields![PaysForm:
    ("Offered loads", "shaping-pays-loads", loads),
    ("Sweep applications", "shaping-pays-apps", apps),
];

/// The table's column heads.
const PAYS_COLUMNS: [&str; 7] = ["load", "configuration", "speed-up", "queue ×", "failed %", "wasted %", "worst-off p99"];

/// The card.
#[component]
pub fn PaysCard() -> impl IntoView {
    let desk = expect_context::<Studio>().shaping;
    let sweep = desk.pays;
    // The loaded workload's offered load, on the sweep's axis: a generated
    // workload's is its setting (requested work over the cluster's over the
    // generator's span); a workload read from files has no span but its
    // arrivals, so its requested load over them stands in (what the spread
    // arrivals' setting measures).
    let mine = Signal::derive(move || {
        desk.run.view.with(|v| {
            v.as_ref().map(|v| {
                if v.source.starts_with("generated") {
                    v.report.params.workload.load
                } else {
                    v.report.workload.requested_cpu_load
                }
            })
        })
    });
    view! {
        <RegimeCard
            title="Where it pays: speed-up against offered load"
            text="Shaping shortens turnaround only where reservations leave applications waiting that the used resources could run: below saturation nobody waits, far above it both queue. Each cell generates the workload at one offered load (requested core-seconds over the cluster's) and runs the baseline and the shaped run, as `skyplan sweep shaping` does; the cells run on a pool of workers, one per core. The dashed line is your workload's load (the last run's: a generated workload's setting, a file's requested load over its arrivals); the triangle, the paper's best forecaster (10.6×, GP), drawn at the reference simulator's load because the paper states none (its oracle: ~100×)."
            sweep=sweep
            testid="shaping-pays"
            status_testid="shaping-pays-status"
            chart_testid="shaping-pays-chart"
            label="Sweep loads"
            on_run=move |()| desk.run_pays()
            mine=mine
            plot=pays_plot
            idle="Sweep: the speed-up at each offered load, for the oracle and this run's forecaster."
            cols=PAYS_COLUMNS.to_vec()
            row=pays_row
        >
            {PAYS_FIELDS.into_iter().map(|f| text_field(desk.pays_form, f)).collect_view()}
        </RegimeCard>
    }
}

/// A cell's row of the table.
fn pays_row(CellRow { cell, outcome }: CellRow) -> Option<AnyView> {
    let CellOutcome::Shaping(x) = outcome else {
        return None;
    };
    let config = Config {
        predictor: x.predictor,
        policy: x.policy,
        k1: x.k1,
        k2: x.k2,
    }
    .label();
    let shown = config.clone();
    Some(
        view! {
            <tr
                data-testid="shaping-pays-row"
                data-cell=cell.to_string()
                data-load=x.load.to_string()
                data-config=config
                data-speedup=x.turnaround_speedup.to_string()
            >
                <td class="num">{trimmed(x.load, 2)}</td>
                <td>{shown}</td>
                <td class="num">{format!("{}×", trimmed(x.turnaround_speedup, 2))}</td>
                <td class="num">{trimmed(x.baseline_mean_turnaround_s / x.mean_runtime_s.max(1e-9), 2)}</td>
                <td class="num">{trimmed(x.failed_apps_pct, 1)}</td>
                <td class="num">{trimmed(x.wasted_pct, 1)}</td>
                <td class="num">{trimmed(x.worst_off_p99, 2)}</td>
            </tr>
        }
        .into_any(),
    )
}
