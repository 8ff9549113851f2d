//! What class selection buys, system by system: for every level of the
//! simulation shown, YARN-PT's and YARN-H's job time and kills, and the
//! share of jobs Algorithm 1 placed on one class, on several, or on none
//! (for YARN-PT the branch it would have taken), as `skyplan harvest
//! simulate-scheduling` prints them.

use crate::state::Studio;
use crate::widgets::format::trimmed;
use crate::widgets::table::{col, num, DataTable};
use leptos::prelude::*;
use skyplan_engine::harvest::{LevelResult, SystemResult};

/// One row: a system at a level.
fn row(l: &LevelResult, s: &SystemResult, name: &'static str) -> impl IntoView {
    let share = |i: usize| s.branch_shares[i];
    view! {
        <tr
            data-testid="harvest-system-row"
            data-level=l.level.to_string()
            data-system=name
            data-job-secs=s.avg_job_secs.avg.to_string()
            data-kills=s.kills.avg.to_string()
            data-one=share(0).to_string()
            data-several=share(1).to_string()
            data-none=share(2).to_string()
        >
            <td class="num">{trimmed(l.level, 1)}</td>
            <td>{name}</td>
            <td class="num">{trimmed(s.avg_job_secs.avg, 0)}</td>
            <td class="num">{trimmed(s.kills.avg, 0)}</td>
            <td class="num">
                {format!(
                    "{} / {} / {} %",
                    trimmed(100.0 * share(0), 1),
                    trimmed(100.0 * share(1), 1),
                    trimmed(100.0 * share(2), 1)
                )}
            </td>
        </tr>
    }
}

/// Both systems at every level of the simulation shown.
#[component]
pub fn SystemsTable() -> impl IntoView {
    let desk = expect_context::<Studio>().harvest.cycles;
    let rows = move || {
        desk.sim.view.with(|v| {
            v.as_ref()
                .map(|v| {
                    v.report
                        .levels
                        .iter()
                        .flat_map(|l| [row(l, &l.pt, "YARN-PT"), row(l, &l.h, "YARN-H")])
                        .collect::<Vec<_>>()
                })
                .unwrap_or_default()
        })
    };
    view! {
        <Show when=move || desk.sim.view.with(Option::is_some)>
            <h4>"By system: job time, kills, Algorithm 1's branch"</h4>
            <DataTable cols=vec![
                num("Avg util. %"),
                col("System"),
                num("Avg job s"),
                num("Kills (avg per run)"),
                num("Jobs on one class / several / none"),
            ]>
                {rows}
            </DataTable>
            <p class="hint">
                "Branch shares over the runs' jobs; for YARN-PT the branch Algorithm 1 would have taken (not followed): YARN-PT places every task on any server with a free core."
            </p>
        </Show>
    }
}
