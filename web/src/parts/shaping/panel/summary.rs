//! Baseline against shaped: figures, the table and Figure 2's boxes.

use crate::parts::shaping::charts::BoxesPlot;
use crate::state::Studio;
use crate::toolkit::run::JobStatus;
use crate::widgets::button::button;
use crate::widgets::card::Card;
use crate::widgets::figure::HintedChart;
use crate::widgets::format::{count, hours, trimmed};
use crate::widgets::table::{col, num, DataTable};
use leptos::prelude::*;
use skyplan_engine::shaping::RunSummary;

/// One summary row: a metric in both runs.
fn summary_row(
    metric: &'static str,
    label: &'static str,
    b: &RunSummary,
    s: &RunSummary,
    f: fn(&RunSummary) -> f64,
    shown: fn(f64) -> String,
) -> impl IntoView {
    let (vb, vs) = (f(b), f(s));
    view! {
        <tr
            data-testid="shaping-summary-row"
            data-metric=metric
            data-baseline=vb.to_string()
            data-shaped=vs.to_string()
        >
            <td>{label}</td>
            <td class="num">{shown(vb)}</td>
            <td class="num">{shown(vs)}</td>
        </tr>
    }
}

/// Baseline against shaped: figures, the table and Figure 2's boxes.
#[component]
pub fn SummaryCard() -> impl IntoView {
    let desk = expect_context::<Studio>().shaping;
    let figures = move || {
        desk.run.view.with(|v| {
            v.as_ref().map(|v| {
                let r = &v.report;
                let (b, s) = (&r.baseline.summary, &r.shaped.summary);
                view! {
                    <div class="agenda-figures tuning-figures">
                        <div
                            class="figure"
                            data-testid="shaping-speedup"
                            data-value=r.turnaround_speedup.to_string()
                        >
                            <span class="figure-label">"Turnaround, baseline / shaped"</span>
                            <span class="figure-value">{format!("{}×", trimmed(r.turnaround_speedup, 2))}</span>
                            <span class="figure-note">
                                {format!(
                                    "mean {} h → {} h",
                                    hours(b.mean_turnaround_s),
                                    hours(s.mean_turnaround_s)
                                )}
                            </span>
                        </div>
                        <div class="figure">
                            <span class="figure-label">"Memory slack (cluster)"</span>
                            <span class="figure-value">
                                {format!(
                                    "{} % → {} %",
                                    trimmed(b.cluster_slack_mem_pct, 1),
                                    trimmed(s.cluster_slack_mem_pct, 1)
                                )}
                            </span>
                            <span class="figure-note">
                                {format!(
                                    "CPU {} % → {} %",
                                    trimmed(b.cluster_slack_cpu_pct, 1),
                                    trimmed(s.cluster_slack_cpu_pct, 1)
                                )}
                            </span>
                        </div>
                        <div class="figure">
                            <span class="figure-label">"Failed / preempted applications"</span>
                            <span class="figure-value">
                                {format!(
                                    "{} % / {} %",
                                    trimmed(s.failed_apps_pct, 1),
                                    trimmed(100.0 * s.preempted_apps as f64 / s.apps.max(1) as f64, 1)
                                )}
                            </span>
                            <span class="figure-note">
                                {format!("{} % of the work wasted", trimmed(s.wasted_pct, 2))}
                            </span>
                        </div>
                        <div class="figure" data-testid="shaping-worst-off">
                            <span class="figure-label">"Worst-off applications (p99)"</span>
                            <span class="figure-value">
                                {format!("{}× own baseline", trimmed(r.worst_off.p99_slowdown, 2))}
                            </span>
                            <span class="figure-note">
                                {format!(
                                    "{} of {} slower than under reservations; {} crashes, {} resubmissions",
                                    count(r.worst_off.slower_apps),
                                    count(s.apps),
                                    count(s.failures),
                                    count(s.resubmissions)
                                )}
                            </span>
                        </div>
                    </div>
                }
            })
        })
    };
    let workload = move || {
        desk.run.view.with(|v| {
            v.as_ref().map(|v| {
                let w = &v.report.workload;
                let p = &v.report.params;
                format!(
                    "{} — {} applications ({} rigid, {} components, up to {} in one), arrivals over {} h on {} hosts × {} cores × {} GB; requested CPU {} × the cluster, used {} ×. Shaped: {}, {}, K1 = {} %, K2 = {}, grace {} min.",
                    v.source,
                    count(w.apps),
                    count(w.rigid),
                    count(w.components),
                    count(w.max_components),
                    hours(w.arrival_span_s),
                    p.hosts,
                    trimmed(p.host_cpu, 1),
                    trimmed(p.host_mem, 1),
                    trimmed(w.requested_cpu_load, 2),
                    trimmed(w.used_cpu_load, 2),
                    p.policy.name(),
                    p.predictor.name(),
                    trimmed(p.k1 * 100.0, 2),
                    trimmed(p.k2, 2),
                    p.grace_minutes
                )
            })
        })
    };
    let rows = move || {
        desk.run.view.with(|v| {
            v.as_ref().map(|v| {
                let (b, s) = (&v.report.baseline.summary, &v.report.shaped.summary);
                let h: fn(f64) -> String = hours;
                let pc: fn(f64) -> String = |x| format!("{} %", trimmed(x, 1));
                let n: fn(f64) -> String = |x| count(x.max(0.0) as usize);
                let ch: fn(f64) -> String = |x| trimmed(x, 1);
                view! {
                    {summary_row("mean-turnaround", "Mean turnaround (h)", b, s, |r| r.mean_turnaround_s, h)}
                    {summary_row("median-turnaround", "Median turnaround (h)", b, s, |r| r.median_turnaround_s, h)}
                    {summary_row("p95-turnaround", "95th percentile turnaround (h)", b, s, |r| r.p95_turnaround_s, h)}
                    {summary_row("slack-cpu", "CPU slack, cluster", b, s, |r| r.cluster_slack_cpu_pct, pc)}
                    {summary_row("slack-mem", "Memory slack, cluster", b, s, |r| r.cluster_slack_mem_pct, pc)}
                    {summary_row("slack-mem-app", "Memory slack, mean per application", b, s, |r| r.mean_slack_mem_pct, pc)}
                    {summary_row("failed-apps", "Applications failed", b, s, |r| r.failed_apps as f64, n)}
                    {summary_row("failures", "Crashes", b, s, |r| r.failures as f64, n)}
                    {summary_row("resubmissions", "Resubmissions (crashes and whole preemptions)", b, s, |r| r.resubmissions as f64, n)}
                    {summary_row("shaping-off", "Shaping turned off (after the crash limit)", b, s, |r| r.shaping_off_apps as f64, n)}
                    {summary_row("preempted-apps", "Applications preempted whole", b, s, |r| r.preempted_apps as f64, n)}
                    {summary_row("component-preemptions", "Elastic components preempted", b, s, |r| r.component_preemptions as f64, n)}
                    {summary_row("wasted", "Wasted work (component-hours)", b, s, |r| r.wasted_component_hours, ch)}
                    {summary_row("completed", "Completed", b, s, |r| r.completed as f64, n)}
                    {summary_row("unfinished", "Unfinished (nothing is abandoned)", b, s, |r| r.unfinished as f64, n)}
                }
            })
        })
    };
    let boxes = Signal::derive(move || {
        desk.compare.view.with(|c| {
            c.as_ref().map(|(ticket, comparison, _)| BoxesPlot {
                comparison: comparison.clone(),
                key: ticket.to_string(),
            })
        })
    });
    let boxes_placeholder = Signal::derive(move || {
        if desk.compare.running.get() {
            "Running the three policies in the worker…".to_owned()
        } else {
            "Compare policies: reservation, optimistic and pessimistic on this run's workload and forecasts (Figure 2).".to_owned()
        }
    });
    let compare_status = desk.compare.status("running", "", "", |(_, _, ms)| {
        format!("3 runs in {} ms", trimmed(*ms, 0))
    });
    let no_compare = move || {
        desk.run.view.with(Option::is_none) || desk.compare.running.get() || desk.run.running.get()
    };
    view! {
        <Card title="Baseline against shaped">
            {figures}
            <p class="hint" data-testid="shaping-workload">{workload}</p>
            <Show when=move || desk.run.view.with(Option::is_some)>
                <DataTable cols=vec![col("Metric"), num("Reservation baseline"), num("Shaped")]>
                    {rows}
                </DataTable>
            </Show>
            <div class="actions">
                {button("button", "shaping-compare", "Compare policies", no_compare, move || desk.compare())}
                <JobStatus job=desk.compare testid="shaping-compare-status" text=compare_status/>
            </div>
            <HintedChart
                data=boxes
                placeholder=boxes_placeholder
                testid="shaping-boxes"
                hint="Figure 2's picture: turnaround and memory slack per application under each policy with the run's forecaster, K1 and K2 (boxes: quartiles; whiskers: 1.5 IQR; bar: median; triangle: mean)."
            />
        </Card>
    }
}
