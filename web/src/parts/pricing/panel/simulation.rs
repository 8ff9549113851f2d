//! MRM §6.3 across loads, in the worker.

use crate::fields;
use crate::parts::pricing::charts::{SimMetric, SweepPlot};
use crate::parts::pricing::desk::SimForm;
use crate::parts::pricing::protocol::SimView;
use crate::state::Studio;
use crate::toolkit::run::{ErrorLine, HeadRun};
use crate::widgets::card::Card;
use crate::widgets::field::{text_field, Field};
use crate::widgets::format::{count, trimmed};
use crate::widgets::PlotCanvas;
use leptos::prelude::*;

/// The simulation's settings.
const SIM_FIELDS: [Field<SimForm>; 5] = fields![SimForm:
    ("Jobs per load", "sim-jobs", jobs),
    ("Mean inter-arrival times (s)", "sim-interarrivals", interarrivals),
    ("α (delay-sensitive budget)", "sim-alpha", alpha),
    ("κ", "sim-kappa", kappa),
    ("Estimation error σ (% of mean)", "sim-error-share", error_percent),
];

/// MRM §6.3: priced deadlines on EDF against FCFS and priority, across
/// loads, run in the worker on Run and then whenever a setting changes.
#[component]
pub fn SimulationCard() -> impl IntoView {
    let studio = expect_context::<Studio>();
    let desk = studio.pricing;
    // Once run, the simulation reruns whenever a setting changes (not when
    // the panel is merely opened again: the last results are still shown).
    Effect::new(move |first: Option<()>| {
        desk.sim_form.track();
        if first.is_some() && desk.sim_wanted.get_untracked() {
            studio.pricing.request_simulation();
        }
    });
    let status = desk.sim.status("running in the worker", "", "", |s| {
        format!(
            "{} jobs at {} loads in {:.1} s",
            count(s.settings.jobs),
            s.runs.len(),
            s.millis / 1000.0,
        )
    });
    let shown = move || desk.sim.running.get() || desk.sim.view.with(Option::is_some);
    let charts = SimMetric::ALL
        .into_iter()
        .map(|metric| {
            let data = Signal::derive(move || {
                desk.sim.view.with(|s| {
                    s.as_ref().map(|view| SweepPlot {
                        metric,
                        view: view.clone(),
                    })
                })
            });
            view! {
                <PlotCanvas
                    data=data
                    placeholder=Signal::derive(move || {
                        if desk.sim.running.get() {
                            "Simulating…"
                        } else {
                            "No results yet."
                        }
                            .to_string()
                    })
                    testid=metric.testid()
                />
            }
        })
        .collect_view();
    view! {
        <Card
            title="Simulation: MRM against FCFS and priority (§6.3)"
            class="sim-card"
            text="One server (M/G/1) with Poisson arrivals and the paper's job mix (mean 36 s): half the users delay-sensitive, paying up to α times their estimated time for the earliest deadline they can afford under eq. (13); the other half pay their estimated time. Jobs run for their actual time while the scheduler sees the PI upper bound. MRM runs EDF on the committed deadlines; FCFS and non-preemptive priority promise the finish predicted from the work ahead."
            head=move || {
                view! {
                    <HeadRun
                        job=desk.sim
                        testid="sim"
                        status=status
                        on_run=move || studio.pricing.request_simulation()
                    />
                }
            }
        >
            <div class="sim-form">{SIM_FIELDS.into_iter().map(|f| text_field(desk.sim_form, f)).collect_view()}</div>
            <ErrorLine testid="sim-error" error=desk.sim.error/>
            // Before the first run there is nothing to chart or tabulate:
            // one line says what Run does instead of three empty frames.
            <p class="card-text" style:display=move || if shown() { "none" } else { "" }>
                "Press Run: the simulation runs in the worker, then again whenever a setting changes."
            </p>
            <div class="sim-charts" style:display=move || if shown() { "" } else { "none" }>
                {charts}
            </div>
            <div class="table-scroll" style:display=move || if shown() { "" } else { "none" }>
                <table class="data">
                    <thead>
                        <tr>
                            <th class="num">"Inter-arrival (s)"</th>
                            <th class="num">"Load ρ"</th>
                            <th>"Policy"</th>
                            <th class="num">"Tardy %"</th>
                            <th class="num">"DS waiting p5 / mean / p95 (s)"</th>
                            <th class="num">"Earliness mean (s)"</th>
                            <th class="num">"DS jumped ahead %"</th>
                        </tr>
                    </thead>
                    <tbody>
                        {move || {
                            desk.sim
                                .view
                                .with(|s| s.as_ref().map(sim_rows).unwrap_or_default())
                                .into_iter()
                                .map(|r| {
                                    view! {
                                        <tr
                                            data-testid="sim-row"
                                            data-policy=r.policy
                                            data-interarrival=r.interarrival.clone()
                                        >
                                            <td class="num">{r.interarrival.clone()}</td>
                                            <td class="num">{r.load}</td>
                                            <td>{r.policy}</td>
                                            <td class="num">{r.tardy}</td>
                                            <td class="num">{r.waiting}</td>
                                            <td class="num">{r.earliness}</td>
                                            <td class="num">{r.jumped}</td>
                                        </tr>
                                    }
                                })
                                .collect_view()
                        }}
                    </tbody>
                </table>
            </div>
        </Card>
    }
}

/// One row of the simulation table, as text.
struct SimRow {
    interarrival: String,
    load: String,
    policy: &'static str,
    tardy: String,
    waiting: String,
    earliness: String,
    jumped: String,
}

/// The simulation table's rows: per load, per policy.
fn sim_rows(s: &SimView) -> Vec<SimRow> {
    let opt = |v: Option<f64>, d: usize| v.map_or_else(|| "—".to_string(), |v| trimmed(v, d));
    s.runs
        .iter()
        .flat_map(|(gap, r)| {
            r.policies.iter().map(move |p| SimRow {
                interarrival: trimmed(*gap, 1),
                load: opt(r.load, 2),
                policy: p.policy.name(),
                tardy: opt(p.tardy_percent.all, 2),
                waiting: p.waiting.ds.map_or_else(
                    || "—".into(),
                    |w| {
                        format!(
                            "{} / {} / {}",
                            trimmed(w.p5, 1),
                            trimmed(w.mean, 1),
                            trimmed(w.p95, 1)
                        )
                    },
                ),
                earliness: opt(p.earliness.all.map(|e| e.mean), 1),
                jumped: opt(p.jumped_ahead_percent, 1),
            })
        })
        .collect()
}
