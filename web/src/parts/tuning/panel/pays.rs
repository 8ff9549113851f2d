//! "Where it pays": how much the choice of configuration matters against
//! the mix load — the contention sweep's non-best increase, one line per
//! queue count, with the regret of Algorithm 1's pick beside it, the
//! loaded window's load marked and the paper's figure beside it. Run on
//! the sweep pool, cells shown as they finish.

use crate::fields;
use crate::parts::tuning::charts::pays_plot;
use crate::parts::tuning::desk::PaysForm;
use crate::state::Studio;
use crate::toolkit::sweep_controls::RegimeCard;
use crate::widgets::field::{text_field, Field};
use crate::widgets::format::trimmed;
use leptos::prelude::*;
use skyplan_engine::sweep::{CellOutcome, CellRow};

/// The sweep's fields.
const PAYS_FIELDS: [Field<PaysForm>; 3] = fields![PaysForm:
    ("Mix loads", "tuning-pays-loads", loads),
    ("Queue counts", "tuning-pays-queues", queues),
    ("Mixes per cell", "tuning-pays-mixes", mixes),
];

/// A share as a percent cell ("–" when absent).
fn pct(x: Option<f64>) -> String {
    x.map_or_else(|| "–".to_owned(), |v| trimmed(v * 100.0, 1))
}

/// The table's column heads.
const PAYS_COLUMNS: [&str; 7] = ["load", "queues", "cases", "non-best %", "exact hit %", "regret %", "random hit %"];

/// The card.
#[component]
pub fn PaysCard() -> impl IntoView {
    let desk = expect_context::<Studio>().tuning;
    let sweep = desk.pays;
    // The loaded window's mix load (the shown group's of the last run), on
    // the sweep's axis.
    let mine = Signal::derive(move || {
        let k = desk.group.get();
        desk.run
            .view
            .with(|v| v.as_ref()?.groups.get(k)?.mix_load)
    });
    let idle = "Sweep: how much the configuration matters at each mix load and queue count.";
    view! {
        <RegimeCard
            title="Where it pays: configurations against contention"
            text="Tuning pays only where the configuration changes latencies: on an idle cluster every configuration gives the same, under contention the shares decide who waits. Each cell builds Google-like job mixes at one mix load (task work over the submission span, as a multiple of the containers) and queue count, and for both schedulers simulates every configuration of the grid against Algorithm 1's pick, as `skyplan sweep tuning` does without a SWIM file; the cells run on a pool of workers, one per core. Left: the mean latency increase of the configurations other than the best (how much choosing matters); right: the regret, the pick's increase over the actual best. The dashed line is the shown window's mix load (the last run's); the triangle, the paper's 52.9 % (§4.3), drawn at the evaluation's default load since the paper states none."
            sweep=sweep
            testid="tuning-pays"
            status_testid="tuning-pays-status"
            chart_testid="tuning-pays-chart"
            label="Sweep loads"
            on_run=move |()| desk.run_pays()
            mine=mine
            plot=pays_plot
            idle=idle
            cols=PAYS_COLUMNS.to_vec()
            row=pays_row
        >
            {PAYS_FIELDS.into_iter().map(|f| text_field(desk.pays_form, f)).collect_view()}
        </RegimeCard>
    }
}

/// A cell's row of the table.
fn pays_row(CellRow { cell, outcome }: CellRow) -> Option<AnyView> {
    let CellOutcome::Tuning(x) = outcome else {
        return None;
    };
    Some(
        view! {
            <tr
                data-testid="tuning-pays-row"
                data-cell=cell.to_string()
                data-load=x.load.to_string()
                data-queues=x.queues.to_string()
                data-nonbest=x.nonbest_increase.map_or_else(String::new, |v| v.to_string())
            >
                <td class="num">{trimmed(x.load, 2)}</td>
                <td class="num">{x.queues.to_string()}</td>
                <td class="num">{x.cases.to_string()}</td>
                <td class="num">{pct(x.nonbest_increase)}</td>
                <td class="num">{pct(x.hit_share)}</td>
                <td class="num">{pct(x.regret)}</td>
                <td class="num">{pct(x.random_hit_share)}</td>
            </tr>
        }
        .into_any(),
    )
}
