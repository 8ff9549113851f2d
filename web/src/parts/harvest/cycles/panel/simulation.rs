//! The §6 simulation of YARN-PT against YARN-H: run by the panel itself
//! at the tenants' current utilization, again with the form's settings on
//! Run; the levels' rows and chart, each system's job time, kills and
//! branch shares ([`super::systems`]) and the thresholds used
//! ([`super::thresholds`]).

use super::systems::SystemsTable;
use super::thresholds::ThresholdsTable;
use crate::fields;
use crate::parts::harvest::cycles::charts::SimPlot;
use crate::parts::harvest::cycles::desk::SimForm;
use crate::parts::harvest::cycles::protocol::JobSource;
use crate::state::Studio;
use crate::toolkit::run::{ErrorLine, HeadRun};
use crate::widgets::card::Card;
use crate::widgets::field::{choice, text_field, Field};
use crate::widgets::figure::ChartTable;
use crate::widgets::format::{count, trimmed};
use crate::widgets::table::num;
use leptos::prelude::*;

const SIM_FIELDS: [Field<SimForm>; 5] = fields![SimForm:
    ("Days", "harvest-sim-days", days),
    ("Levels (%)", "harvest-sim-levels", levels),
    ("Root n (empty: linear)", "harvest-sim-root", root),
    ("Runs", "harvest-sim-runs", runs),
    ("Seed", "harvest-sim-seed", seed),
];

/// The §6 simulation.
#[component]
pub fn SimulationCard() -> impl IntoView {
    let desk = expect_context::<Studio>().harvest.cycles;
    let plot = Signal::derive(move || desk.sim.view.get().map(|view| SimPlot { view }));
    let status = desk.sim.status("running in the worker", " runs", "", |s| {
        format!(
            "{} servers, {} days, {} job templates, in {:.1} s",
            count(s.report.servers),
            trimmed(s.report.days, 1),
            s.jobs,
            s.millis / 1000.0
        )
    });
    let rows = move || {
        desk.sim.view.with(|s| {
            s.as_ref()
                .map(|s| {
                    s.report
                        .levels
                        .iter()
                        .map(|l| {
                            view! {
                                <tr
                                    data-testid="harvest-sim-row"
                                    data-level=l.level.to_string()
                                    data-improvement=l.improvement.avg.to_string()
                                >
                                    <td class="num">{trimmed(l.level, 1)}</td>
                                    <td class="num">{l.classes.to_string()}</td>
                                    <td class="num">
                                        {format!("{} / {} / {}", trimmed(l.pt.avg_job_secs.min, 0), trimmed(l.pt.avg_job_secs.avg, 0), trimmed(l.pt.avg_job_secs.max, 0))}
                                    </td>
                                    <td class="num">
                                        {format!("{} / {} / {}", trimmed(l.h.avg_job_secs.min, 0), trimmed(l.h.avg_job_secs.avg, 0), trimmed(l.h.avg_job_secs.max, 0))}
                                    </td>
                                    <td class="num">{format!("{} / {}", trimmed(l.pt.kills.avg, 0), trimmed(l.h.kills.avg, 0))}</td>
                                    <td class="num">{format!("{} / {}", trimmed(l.pt.utilization.avg, 1), trimmed(l.h.utilization.avg, 1))}</td>
                                    <td class="num">{format!("{} %", trimmed(l.improvement.avg, 1))}</td>
                                </tr>
                            }
                        })
                        .collect::<Vec<_>>()
                })
                .unwrap_or_default()
        })
    };
    let paper = move || {
        desk.sim.view.with(|s| {
            s.as_ref().map(|s| {
                let p = &s.report.paper;
                format!(
                    "The paper (Figures 13–14): average improvement {} with linear scaling, {} with the root, up to {}.",
                    p.linear_avg_improvement, p.root_avg_improvement, p.max_improvement
                )
            })
        })
    };
    view! {
        <Card
            title="Task scheduling: YARN-PT against YARN-H (§6)"
            class="sim-card"
            text="Servers of 12 cores with 4 kept for the primary tenant; batch jobs as DAGs of tasks arrive as a Poisson process (mean 300 s); the tenants' utilization is replayed, scaled to each target average. YARN-PT kills the youngest containers when the reserve is violated (killed tasks rerun); YARN-H also places each job by class selection."
            head=move || {
                view! {
                    <HeadRun
                        job=desk.sim
                        testid="harvest-sim"
                        status=status
                        blocked=Signal::derive(move || desk.classify.view.with(Option::is_none))
                        on_run=move || desk.simulate()
                    />
                }
            }
        >
            <div class="sim-form">
                {SIM_FIELDS.into_iter().map(|f| text_field(desk.sim_form, f)).collect_view()}
                {choice(
                    "Jobs",
                    "harvest-sim-source",
                    vec![
                        (JobSource::Tpcds, "tpcds", "TPC-DS-like DAGs".into()),
                        (JobSource::History, "history", "the loaded job history".into()),
                    ],
                    move || desk.sim_form.with(|f| f.source),
                    move |source| desk.sim_form.update(|f| f.source = source),
                )}
            </div>
            <ErrorLine testid="harvest-sim-error" error=desk.sim.error/>
            <ChartTable
                data=plot
                placeholder="Once the tenants are classified, YARN-PT against YARN-H at their current utilization, in the worker; Run again with the settings above."
                testid="harvest-sim"
                cols=vec![num("Avg util. %"), num("Classes"), num("YARN-PT job s min / avg / max"), num("YARN-H job s min / avg / max"), num("Kills PT / H"), num("Cluster util. % PT / H"), num("Improvement")]
            >
                {rows}
            </ChartTable>
            <SystemsTable/>
            <ThresholdsTable/>
            <p class="hint">{paper}</p>
        </Card>
    }
}
