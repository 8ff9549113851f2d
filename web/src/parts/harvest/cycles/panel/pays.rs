//! "Where it pays": YARN-H's improvement over YARN-PT against the primary
//! tenants' level, one line per datacenter size, with both systems' kills
//! beside it, the loaded tenants' level marked and the paper's Figure 14
//! point beside it. Run on the sweep pool, cells shown as they finish.

use crate::fields;
use crate::parts::harvest::cycles::charts::pays_plot;
use crate::parts::harvest::cycles::desk::PaysForm;
use crate::state::Studio;
use crate::toolkit::sweep_controls::RegimeCard;
use crate::widgets::field::{text_field, Field};
use crate::widgets::format::{count, trimmed};
use leptos::prelude::*;
use skyplan_engine::sweep::{CellOutcome, CellRow};

/// The sweep's fields.
const PAYS_FIELDS: [Field<PaysForm>; 4] = fields![PaysForm:
    ("Servers", "harvest-pays-servers", servers),
    ("Levels (%)", "harvest-pays-levels", levels),
    ("Days", "harvest-pays-days", days),
    ("Root n (empty: linear)", "harvest-pays-root", root),
];

/// The card.
#[component]
pub fn PaysCard() -> impl IntoView {
    let desk = expect_context::<Studio>().harvest.cycles;
    let sweep = desk.pays;
    // The loaded tenants' point on the sweep's axis: their core-weighted
    // mean utilization (the level the panel's own simulation runs at), with
    // their servers for the label.
    let mine = Signal::derive(move || {
        desk.classify.view.with(|v| {
            v.as_ref().map(|v| {
                (
                    v.current_level,
                    v.tenants.iter().map(|t| t.servers).sum::<usize>(),
                )
            })
        })
    });
    view! {
        <RegimeCard
            title="Where it pays: YARN-H against size and primary level"
            text="Algorithm 1 can steer only a job that fits in a class: a class's room grows with the servers, a job's concurrency only like their square root (§6's one scaling factor), and above some primary level no class has room for a whole job, so YARN-H falls back to YARN-PT's placement. Each cell generates Figures 13–14's DC-0 at one size, scales its primaries to one level and runs YARN-PT and YARN-H on the same arrivals, as `skyplan sweep harvest` does; the cells run on a pool of workers, one per core. The dashed line is your tenants' level (their core-weighted mean utilization; the sweep runs on the generated datacenter, not on them); the triangle, the paper's lowest average improvement of Figure 14 (12 % linear, 5 % root; its range is 12–56 % and 5–45 % over ten datacenters), drawn at the middle of the levels it averages. Kills are YARN-PT's / YARN-H's; branches, YARN-H's jobs on one class / several / none (%)."
            sweep=sweep
            testid="harvest-pays"
            status_testid="harvest-pays-status"
            chart_testid="harvest-pays-chart"
            label="Sweep sizes and levels"
            on_run=move |()| desk.run_pays()
            mine=mine
            plot=pays_plot
            idle="Sweep: YARN-H's improvement at each size and primary level."
            cols=vec!["servers", "level %", "scaling", "PT job s", "H job s", "improvement", "kills PT / H", "H branches %"]
            row=pays_row
        >
            {PAYS_FIELDS.into_iter().map(|f| text_field(desk.pays_form, f)).collect_view()}
        </RegimeCard>
    }
}

/// A cell's row of the table.
fn pays_row(CellRow { cell, outcome }: CellRow) -> Option<AnyView> {
    let CellOutcome::Harvest(x) = outcome else {
        return None;
    };
    Some(
        view! {
            <tr
                data-testid="harvest-pays-row"
                data-cell=cell.to_string()
                data-servers=x.servers.to_string()
                data-level=x.level.to_string()
                data-scaling=x.scaling.name()
                data-improvement=x.improvement.to_string()
                data-pt-kills=x.pt_kills.to_string()
                data-h-kills=x.h_kills.to_string()
            >
                <td class="num">{count(x.servers)}</td>
                <td class="num">{trimmed(x.level, 1)}</td>
                <td>{x.scaling.name()}</td>
                <td class="num">{trimmed(x.pt_job_secs, 0)}</td>
                <td class="num">{trimmed(x.h_job_secs, 0)}</td>
                <td class="num">{format!("{} %", trimmed(x.improvement, 1))}</td>
                <td class="num">{format!("{} / {}", count(x.pt_kills as usize), count(x.h_kills as usize))}</td>
                <td class="num">
                    {format!("{} / {} / {}", trimmed(x.h_branches[0], 0), trimmed(x.h_branches[1], 0), trimmed(x.h_branches[2], 0))}
                </td>
            </tr>
        }
        .into_any(),
    )
}
