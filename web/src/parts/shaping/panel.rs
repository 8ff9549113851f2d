//! The Shaping panel (the resource-shaping paper, §III-B, §IV): a workload
//! (generated like §IV's, or read from an applications CSV with its usage
//! CSV, a workload JSON, or Alibaba v2018 container tables), the
//! reservation baseline against the shaped run (allocations follow the
//! forecast + β = K1·R + K2·σ every minute after the grace period), one
//! application's and one host's timelines side by side, the summary,
//! Figure 2's policies as box plots, the K1 × K2 heat maps (Figure 3) with
//! the recommended cell, and exports. All work runs in the worker.
//!
//! Test ids: `shaping-panel`, `shaping-source`, `shaping-apps`,
//! `shaping-seed`, `shaping-load`, `shaping-hosts`, `shaping-host-cpu`,
//! `shaping-host-mem`, `shaping-files-input`, `shaping-loaded`,
//! `shaping-read-error`, `shaping-forget`, `shaping-predictor`,
//! `shaping-policy`, `shaping-k1`, `shaping-k2`, `shaping-grace`,
//! `shaping-arima-warning`, `shaping-run`, `shaping-status`
//! (`data-running`), `shaping-progress`, `shaping-error`, `shaping-app`,
//! `shaping-host`, `shaping-resource`, the canvases `shaping-app-baseline`,
//! `shaping-app-shaped`, `shaping-host-baseline`, `shaping-host-shaped`,
//! `shaping-boxes`, `shaping-heat-ratio`, `shaping-heat-slack`,
//! `shaping-heat-failed` (with `data-drawn`, `data-key`),
//! `shaping-speedup` (`data-value`), `shaping-summary-row` (`data-metric`,
//! `data-baseline`, `data-shaped`), `shaping-workload`, `shaping-compare`,
//! `shaping-compare-status`, `shaping-grid-apps`, `shaping-target`,
//! `shaping-grid-run`, `shaping-grid-status` (`data-running`),
//! `shaping-grid-progress`, `shaping-grid-error`, `shaping-grid-cell`
//! (`data-k1`, `data-k2`, `data-recommended`), `shaping-recommended`,
//! `shaping-export-run`, `shaping-export-grid`, `shaping-png-timelines`,
//! `shaping-png-boxes`, `shaping-png-grid`.

use super::charts::{AppAxes, AppPlot, BoxesPlot, HeatPlot, HostPlot, Metric};
use super::desk::{ShapingForm, Shown};
use super::protocol::{Stage, WorkloadSource};
use crate::protocol::js_error_text;
use crate::state::Studio;
use crate::toolkit::job::busy_text;
use crate::toolkit::run::{JobStatus, RunControls};
use crate::widgets::field::{text_field, Field};
use crate::widgets::format::{count, trimmed};
use crate::widgets::PlotCanvas;
use leptos::prelude::*;
use skyplan_engine::shaping::{Policy, Predictor, RunSummary};
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement, HtmlElement, HtmlInputElement};

/// The generator's and the cluster's fields.
const WORKLOAD_FIELDS: [Field<ShapingForm>; 6] = [
    (
        "Applications",
        "shaping-apps",
        |f| f.apps.clone(),
        |f, v| f.apps = v,
    ),
    (
        "Seed",
        "shaping-seed",
        |f| f.seed.clone(),
        |f, v| f.seed = v,
    ),
    (
        "Load (requested / capacity)",
        "shaping-load",
        |f| f.load.clone(),
        |f, v| f.load = v,
    ),
    (
        "Hosts",
        "shaping-hosts",
        |f| f.hosts.clone(),
        |f, v| f.hosts = v,
    ),
    (
        "Cores per host",
        "shaping-host-cpu",
        |f| f.host_cpu.clone(),
        |f, v| f.host_cpu = v,
    ),
    (
        "GB per host",
        "shaping-host-mem",
        |f| f.host_mem.clone(),
        |f, v| f.host_mem = v,
    ),
];

/// The shaper's fields.
const SHAPER_FIELDS: [Field<ShapingForm>; 3] = [
    (
        "K1 (% of the request)",
        "shaping-k1",
        |f| f.k1.clone(),
        |f, v| f.k1 = v,
    ),
    ("K2 (× σ)", "shaping-k2", |f| f.k2.clone(), |f, v| f.k2 = v),
    (
        "Grace (minutes)",
        "shaping-grace",
        |f| f.grace.clone(),
        |f, v| f.grace = v,
    ),
];

/// The grid's fields.
const GRID_FIELDS: [Field<ShapingForm>; 2] = [
    (
        "Grid applications (one seed)",
        "shaping-grid-apps",
        |f| f.grid_apps.clone(),
        |f, v| f.grid_apps = v,
    ),
    (
        "Target failures (% of apps)",
        "shaping-target",
        |f| f.target.clone(),
        |f, v| f.target = v,
    ),
];

/// What a run does at `stage`, for its status.
fn stage_word(stage: Stage) -> &'static str {
    match stage {
        Stage::Forecast => "forecasting",
        _ => "simulating",
    }
}

/// Seconds to hours, trimmed.
fn hours(s: f64) -> String {
    trimmed(s / 3600.0, 2)
}

/// The Shaping panel.
#[component]
pub fn ShapingPanel() -> impl IntoView {
    view! {
        <div class="pricing-page tuning-page shaping-page" data-testid="shaping-panel">
            <div class="agenda">
                <div class="main-column">
                    <TimelinesCard/>
                    <SummaryCard/>
                    <GridCard/>
                </div>
                <aside class="sidebar">
                    <WorkloadCard/>
                    <RunCard/>
                    <ExportCard/>
                </aside>
            </div>
        </div>
    }
}

/// Where the workload comes from: the generator's settings, or files.
#[component]
fn WorkloadCard() -> impl IntoView {
    let studio = expect_context::<Studio>();
    let desk = studio.shaping;
    let files = move || desk.form.with(|f| f.source == WorkloadSource::Files);
    let loaded = move || {
        desk.loaded.with(|l| match l {
            Some((name, s)) => format!(
                "{name}: {} applications ({} rigid), {} components, arrivals over {} h",
                count(s.apps),
                count(s.rigid),
                count(s.components),
                hours(s.arrival_span_s)
            ),
            None => "no file read".to_owned(),
        })
    };
    view! {
        <section class="card">
            <header class="card-head">
                <h2>"Workload"</h2>
            </header>
            <p class="card-text">
                "§IV's synthetic workload — rigid and elastic applications, components from one to thousands, runtimes from seconds to weeks, bursty arrivals at the paper's rate per host — or your own."
            </p>
            <label class="field">
                <span class="field-label">"Source"</span>
                <select
                    data-testid="shaping-source"
                    on:change=move |ev| {
                        let source = if event_target_value(&ev) == "files" {
                            WorkloadSource::Files
                        } else {
                            WorkloadSource::Generated
                        };
                        desk.form.update(|f| f.source = source);
                    }
                >
                    <option value="generated" selected=move || !files()>"Generated (§IV-like)"</option>
                    <option
                        value="files"
                        selected=files
                        disabled=move || desk.loaded.with(Option::is_none)
                    >
                        "Files read below"
                    </option>
                </select>
            </label>
            <div class="form-grid two">
                {WORKLOAD_FIELDS.into_iter().map(|f| text_field(desk.form, f)).collect_view()}
            </div>
            <p class="hint">
                "Applications, seed and load shape the generated workload; the cluster (hosts of equal cores and GB) is used by both sources."
            </p>
            <div class="actions">
                <label class="button small">
                    "Read workload files…"
                    <input
                        type="file"
                        multiple
                        accept=".csv,.json,text/csv,application/json"
                        data-testid="shaping-files-input"
                        style="display: none"
                        on:change=move |ev| {
                            let input: HtmlInputElement = event_target(&ev);
                            if let Some(list) = input.files() {
                                let files: Vec<web_sys::File> =
                                    (0..list.length()).filter_map(|i| list.get(i)).collect();
                                if !files.is_empty() {
                                    desk.read_files(files);
                                }
                            }
                            input.set_value("");
                        }
                    />
                </label>
                <Show when=move || desk.loaded.with(Option::is_some)>
                    <button
                        class="button small"
                        data-testid="shaping-forget"
                        on:click=move |_| desk.forget_files()
                    >
                        "Forget files"
                    </button>
                </Show>
            </div>
            <p class="hint" data-testid="shaping-loaded">{loaded}</p>
            {move || {
                desk.read_error
                    .get()
                    .map(|e| view! { <pre class="field-error" data-testid="shaping-read-error">{e}</pre> })
            }}
            <p class="hint">
                "Choose together: an applications CSV (app,arrival,runtime,kind,count,cpu,mem) with its usage CSV (app,minute,cpu,mem), or a workload JSON, or Alibaba v2018 container_meta.csv with container_usage.csv (every container a core component)."
            </p>
        </section>
    }
}

/// The shaper's settings; Run, with progress.
#[component]
fn RunCard() -> impl IntoView {
    let studio = expect_context::<Studio>();
    let desk = studio.shaping;
    let status = desk.run.status_by(
        move |progress| busy_text(stage_word(desk.stage.get()), progress, ""),
        "idle",
        |v| {
            format!(
                "{} applications in {} ms (forecasts {} ms)",
                count(v.report.workload.apps),
                trimmed(v.millis, 0),
                trimmed(v.forecast_millis, 0)
            )
        },
    );
    // Forecasting is about half of a GP run, the two runs the rest.
    let stage = Signal::derive(move || {
        let stage = desk.stage.get();
        let label = busy_text(stage_word(stage), desk.run.progress.get(), "");
        let share = desk.run.fraction();
        let fraction = match stage {
            Stage::Forecast => share * 0.5,
            _ => 0.5 + share * 0.5,
        };
        (label, fraction)
    });
    let predictor = move || desk.form.with(|f| f.predictor);
    let policy = move || desk.form.with(|f| f.policy);
    view! {
        <section class="card">
            <header class="card-head">
                <h2>"Shape"</h2>
                <JobStatus job=desk.run testid="shaping-status" text=status/>
            </header>
            <p class="card-text">
                "The reservation baseline (full requests, never changed) against the shaped run: every minute after the grace period each component gets its forecast + β = K1·R + K2·σ; the pessimistic policy preempts by Algorithm 1, the optimistic one lets the OS kill on shortage."
            </p>
            <div class="form-grid two">
                <label class="field">
                    <span class="field-label">"Forecaster"</span>
                    <select
                        data-testid="shaping-predictor"
                        on:change=move |ev| {
                            let p = match event_target_value(&ev).as_str() {
                                "oracle" => Predictor::Oracle,
                                "arima" => Predictor::Arima,
                                _ => Predictor::Gp,
                            };
                            desk.form.update(|f| f.predictor = p);
                        }
                    >
                        {[Predictor::Gp, Predictor::Arima, Predictor::Oracle]
                            .into_iter()
                            .map(|p| {
                                let label = match p {
                                    Predictor::Gp => "GP (the paper's)",
                                    Predictor::Arima => "ARIMA (slow)",
                                    Predictor::Oracle => "Oracle (knows the next minute)",
                                };
                                view! {
                                    <option value=p.name() selected=move || predictor() == p>
                                        {label}
                                    </option>
                                }
                            })
                            .collect_view()}
                    </select>
                </label>
                <label class="field">
                    <span class="field-label">"Policy"</span>
                    <select
                        data-testid="shaping-policy"
                        on:change=move |ev| {
                            let p = if event_target_value(&ev) == "optimistic" {
                                Policy::Optimistic
                            } else {
                                Policy::Pessimistic
                            };
                            desk.form.update(|f| f.policy = p);
                        }
                    >
                        {[Policy::Pessimistic, Policy::Optimistic]
                            .into_iter()
                            .map(|p| {
                                view! {
                                    <option value=p.name() selected=move || policy() == p>
                                        {p.name()}
                                    </option>
                                }
                            })
                            .collect_view()}
                    </select>
                </label>
                {SHAPER_FIELDS.into_iter().map(|f| text_field(desk.form, f)).collect_view()}
            </div>
            <Show when=move || predictor() == Predictor::Arima>
                <p class="hint warn" data-testid="shaping-arima-warning">
                    "ARIMA searches its order on every application every 30 minutes: about ten times the GP's time (≈ 40 s for 1,000 applications in the browser). Fewer applications keep it short."
                </p>
            </Show>
            <RunControls
                job=desk.run
                testid="shaping"
                label="Run"
                busy="simulating"
                stage=stage
                on_run=move || desk.shape()
            />
        </section>
    }
}

/// An application's and a host's timelines, baseline and shaped side by
/// side.
#[component]
fn TimelinesCard() -> impl IntoView {
    let studio = expect_context::<Studio>();
    let desk = studio.shaping;
    let policy = move || {
        desk.run
            .view
            .with(|v| v.as_ref().map(|v| v.report.params.policy.name().to_owned()))
            .unwrap_or_default()
    };
    let app_plot = move |shaped: bool| {
        Signal::derive(move || {
            let shown = desk.shown.get();
            desk.timelines.with(|t| {
                let t = t.as_ref()?;
                let tl = &t.timelines;
                let axes = AppAxes::of(&tl.baseline_app, &tl.shaped_app, shown);
                Some(AppPlot {
                    timeline: if shaped {
                        tl.shaped_app.clone()
                    } else {
                        tl.baseline_app.clone()
                    },
                    run: if shaped {
                        policy()
                    } else {
                        "reservation".to_owned()
                    },
                    shown,
                    axes,
                    key: format!("{}:{}:{}:{shown:?}", t.ticket, tl.app, shaped),
                })
            })
        })
    };
    let host_plot = move |shaped: bool| {
        Signal::derive(move || {
            let shown = desk.shown.get();
            desk.timelines.with(|t| {
                let t = t.as_ref()?;
                let tl = &t.timelines;
                Some(HostPlot {
                    timeline: if shaped {
                        tl.shaped_host.clone()
                    } else {
                        tl.baseline_host.clone()
                    },
                    run: if shaped {
                        policy()
                    } else {
                        "reservation".to_owned()
                    },
                    shown,
                    x1: HostPlot::end(&tl.baseline_host, &tl.shaped_host),
                    key: format!("{}:{}:{}:{shown:?}", t.ticket, tl.host, shaped),
                })
            })
        })
    };
    let placeholder = Signal::derive(move || {
        if desk.run.running.get() {
            "Simulating in the worker…".to_owned()
        } else {
            "Press Run: the baseline and the shaped run of the workload, and their timelines."
                .to_owned()
        }
    });
    let app_options = move || {
        desk.run.view.with(|v| {
            v.as_ref().map(|v| {
                v.apps
                    .iter()
                    .enumerate()
                    .map(|(i, a)| {
                        let label = format!(
                            "{} · {} · {} comp · {} h",
                            a.name,
                            if a.elastic { "elastic" } else { "rigid" },
                            a.components,
                            hours(a.runtime_s)
                        );
                        view! {
                            <option value=i.to_string() selected=move || desk.app.get() == Some(i)>
                                {label}
                            </option>
                        }
                    })
                    .collect_view()
            })
        })
    };
    let host_options = move || {
        let hosts = desk
            .run
            .view
            .with(|v| v.as_ref().map(|v| v.report.params.hosts))
            .unwrap_or(0);
        (0..hosts)
            .map(|h| {
                view! {
                    <option value=h.to_string() selected=move || desk.host.get() == h>
                        {format!("host {h}")}
                    </option>
                }
            })
            .collect_view()
    };
    let none = move || desk.run.view.with(Option::is_none);
    view! {
        <section class="card">
            <header class="card-head">
                <h2>"Shaping timelines"</h2>
                <div class="head-actions">
                    <select
                        data-testid="shaping-app"
                        class="shaping-app-select"
                        disabled=none
                        on:change=move |ev| {
                            if let Ok(i) = event_target_value(&ev).parse::<usize>() {
                                desk.pick_app(i);
                            }
                        }
                    >
                        {app_options}
                    </select>
                    <select
                        data-testid="shaping-host"
                        disabled=none
                        on:change=move |ev| {
                            if let Ok(h) = event_target_value(&ev).parse::<usize>() {
                                desk.pick_host(h);
                            }
                        }
                    >
                        {host_options}
                    </select>
                    <select
                        data-testid="shaping-resource"
                        on:change=move |ev| {
                            desk.shown
                                .set(if event_target_value(&ev) == "cpu" { Shown::Cpu } else { Shown::Mem });
                        }
                    >
                        <option value="mem">"Memory"</option>
                        <option value="cpu">"CPU"</option>
                    </select>
                </div>
            </header>
            <div class="shaping-pair">
                <PlotCanvas data=app_plot(false) placeholder=placeholder testid="shaping-app-baseline"/>
                <PlotCanvas data=app_plot(true) placeholder=placeholder testid="shaping-app-shaped"/>
            </div>
            <p class="hint">
                "The application's request (dashed), use, the forecast with its 95 % band (after the grace period) and its allocation, on the same axes in both runs; ticks at the bottom mark resizes, triangles preemptions, crosses failures (its memory use above its allocation). Under reservations it waits longer and holds its full request."
            </p>
            <div class="shaping-pair">
                <PlotCanvas data=host_plot(false) placeholder=placeholder testid="shaping-host-baseline"/>
                <PlotCanvas data=host_plot(true) placeholder=placeholder testid="shaping-host-shaped"/>
            </div>
            <p class="hint">
                "The host's allocation against its use and capacity: shaping packs more components onto it, closer to what they use."
            </p>
        </section>
    }
}

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
fn SummaryCard() -> impl IntoView {
    let studio = expect_context::<Studio>();
    let desk = studio.shaping;
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
                    {summary_row("failures", "Failures", b, s, |r| r.failures as f64, n)}
                    {summary_row("preempted-apps", "Applications preempted whole", b, s, |r| r.preempted_apps as f64, n)}
                    {summary_row("component-preemptions", "Elastic components preempted", b, s, |r| r.component_preemptions as f64, n)}
                    {summary_row("wasted", "Wasted work (component-hours)", b, s, |r| r.wasted_component_hours, ch)}
                    {summary_row("completed", "Completed", b, s, |r| r.completed as f64, n)}
                    {summary_row("abandoned", "Abandoned after 10 starts", b, s, |r| r.abandoned as f64, n)}
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
    view! {
        <section class="card">
            <header class="card-head">
                <h2>"Baseline against shaped"</h2>
            </header>
            {figures}
            <p class="hint" data-testid="shaping-workload">{workload}</p>
            <Show when=move || desk.run.view.with(Option::is_some)>
                <div class="table-scroll">
                    <table class="data">
                        <thead>
                            <tr>
                                <th>"Metric"</th>
                                <th class="num">"Reservation baseline"</th>
                                <th class="num">"Shaped"</th>
                            </tr>
                        </thead>
                        <tbody>{rows}</tbody>
                    </table>
                </div>
            </Show>
            <div class="actions">
                <button
                    class="button"
                    data-testid="shaping-compare"
                    disabled=move || {
                        desk.run.view.with(Option::is_none) || desk.compare.running.get() || desk.run.running.get()
                    }
                    on:click=move |_| desk.compare()
                >
                    "Compare policies"
                </button>
                <JobStatus job=desk.compare testid="shaping-compare-status" text=compare_status/>
            </div>
            <PlotCanvas data=boxes placeholder=boxes_placeholder testid="shaping-boxes"/>
            <p class="hint">
                "Figure 2's picture: turnaround and memory slack per application under each policy with the run's forecaster, K1 and K2 (boxes: quartiles; whiskers: 1.5 IQR; bar: median; triangle: mean)."
            </p>
        </section>
    }
}

/// The K1 × K2 heat maps, on demand.
#[component]
fn GridCard() -> impl IntoView {
    let studio = expect_context::<Studio>();
    let desk = studio.shaping;
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
                "{} {} K1 = {} %, K2 = {}: {}× turnaround, {} % memory slack, {} % of applications failed{}. Workload: {}.",
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
        <section class="card">
            <header class="card-head">
                <h2>"K1 × K2 heat maps"</h2>
                <JobStatus job=desk.grid testid="shaping-grid-status" text=status/>
            </header>
            <p class="card-text">
                "Figure 3 for the chosen forecaster and policy: K1 ∈ {0, 5, 10, 25, 50, 100} % × K2 ∈ {0, 1, 2, 3}, each shaped run against the reservation baseline. To answer in about half a minute in the browser it runs one seed of a smaller workload (the paper averages 10 runs of 150,000 applications; `skyplan shape grid` runs three seeds). The recommendation — beyond the paper — is the best turnaround whose failures stay under the target."
            </p>
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
                <button
                    class="button"
                    data-testid="shaping-retarget"
                    disabled=move || desk.grid.view.with(Option::is_none) || desk.grid.running.get()
                    on:click=move |_| desk.retarget()
                >
                    "Recommend for the target"
                </button>
            </RunControls>
            <p class="hint" data-testid="shaping-recommended">{recommended}</p>
            <div class="shaping-heat">
                {Metric::ALL
                    .into_iter()
                    .map(|m| view! { <PlotCanvas data=heat(m) placeholder=placeholder testid=m.testid()/> })
                    .collect_view()}
            </div>
            <Show when=move || desk.grid.view.with(Option::is_some)>
                <div class="table-scroll shaping-cells">
                    <table class="data">
                        <thead>
                            <tr>
                                <th class="num">"K1 %"</th>
                                <th class="num">"K2"</th>
                                <th class="num">"Turnaround ratio"</th>
                                <th class="num">"Memory slack %"</th>
                                <th class="num">"Failed %"</th>
                                <th class="num">"Preempted %"</th>
                                <th></th>
                            </tr>
                        </thead>
                        <tbody>{cells}</tbody>
                    </table>
                </div>
            </Show>
        </section>
    }
}

/// Draws the drawn canvases among `testids` on one image, `cols` a row,
/// and downloads it as `name`.
fn save_png(testids: &[&str], cols: usize, name: &str) -> Result<(), String> {
    let canvases: Vec<HtmlCanvasElement> = testids
        .iter()
        .filter_map(|id| {
            document()
                .query_selector(&format!("canvas[data-testid={id}][data-drawn=true]"))
                .ok()
                .flatten()
                .and_then(|c| c.dyn_into::<HtmlCanvasElement>().ok())
        })
        .collect();
    if canvases.is_empty() {
        return Err("nothing is drawn yet".into());
    }
    let cols = cols.clamp(1, canvases.len());
    let rows = canvases.len().div_ceil(cols);
    let w = canvases
        .iter()
        .map(HtmlCanvasElement::width)
        .max()
        .unwrap_or(1);
    let h = canvases
        .iter()
        .map(HtmlCanvasElement::height)
        .max()
        .unwrap_or(1);
    let out = document()
        .create_element("canvas")
        .map_err(|e| js_error_text(&e))?
        .unchecked_into::<HtmlCanvasElement>();
    out.set_width(w * cols as u32);
    out.set_height(h * rows as u32);
    let ctx = out
        .get_context("2d")
        .map_err(|e| js_error_text(&e))?
        .and_then(|c| c.dyn_into::<CanvasRenderingContext2d>().ok())
        .ok_or("no 2D context")?;
    ctx.set_fill_style_str("white");
    ctx.fill_rect(0.0, 0.0, f64::from(out.width()), f64::from(out.height()));
    for (k, c) in canvases.iter().enumerate() {
        let (x, y) = ((k % cols) as u32 * w, (k / cols) as u32 * h);
        ctx.draw_image_with_html_canvas_element(c, f64::from(x), f64::from(y))
            .map_err(|e| js_error_text(&e))?;
    }
    let url = out.to_data_url().map_err(|e| js_error_text(&e))?;
    let link = document()
        .create_element("a")
        .map_err(|e| js_error_text(&e))?
        .unchecked_into::<HtmlElement>();
    link.set_attribute("href", &url)
        .and_then(|()| link.set_attribute("download", name))
        .map(|()| link.click())
        .map_err(|e| js_error_text(&e))
}

/// CSV and PNG exports.
#[component]
fn ExportCard() -> impl IntoView {
    let studio = expect_context::<Studio>();
    let desk = studio.shaping;
    let png = move |ids: &'static [&'static str], cols: usize, name: &'static str| {
        move |_| {
            if let Err(e) = save_png(ids, cols, name) {
                studio
                    .page
                    .notify(format!("{name} could not be downloaded: {e}"));
            }
        }
    };
    let no_run = move || desk.run.view.with(Option::is_none);
    let no_grid = move || desk.grid.view.with(Option::is_none);
    let no_boxes = move || desk.compare.view.with(Option::is_none);
    view! {
        <section class="card">
            <header class="card-head">
                <h2>"Export"</h2>
            </header>
            <div class="actions">
                <button
                    class="button"
                    data-testid="shaping-export-run"
                    disabled=no_run
                    on:click=move |_| desk.export_run()
                >
                    "Outcomes CSV"
                </button>
                <button
                    class="button"
                    data-testid="shaping-export-grid"
                    disabled=no_grid
                    on:click=move |_| desk.export_grid()
                >
                    "Grid CSV"
                </button>
            </div>
            <div class="actions">
                <button
                    class="button small"
                    data-testid="shaping-png-timelines"
                    disabled=no_run
                    on:click=png(
                        &["shaping-app-baseline", "shaping-app-shaped", "shaping-host-baseline", "shaping-host-shaped"],
                        2,
                        "skyplan-shaping-timelines.png",
                    )
                >
                    "Timelines PNG"
                </button>
                <button
                    class="button small"
                    data-testid="shaping-png-boxes"
                    disabled=no_boxes
                    on:click=png(&["shaping-boxes"], 1, "skyplan-shaping-policies.png")
                >
                    "Policies PNG"
                </button>
                <button
                    class="button small"
                    data-testid="shaping-png-grid"
                    disabled=no_grid
                    on:click=png(
                        &["shaping-heat-ratio", "shaping-heat-slack", "shaping-heat-failed"],
                        3,
                        "skyplan-shaping-grid.png",
                    )
                >
                    "Heat maps PNG"
                </button>
            </div>
            <p class="hint">
                "Outcomes: one row per application and run (baseline, shaped) — finish, turnaround, attempts, failures, preemptions, wasted component-seconds, slack. Grid: one row per cell, the recommended one flagged."
            </p>
        </section>
    }
}
