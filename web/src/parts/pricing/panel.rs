//! The Pricing panel (MRM §3.2, §4.2, §5): describe a new job or pick one
//! from the loaded job history; the worker estimates it by every method
//! (the chosen one highlighted), plans with the chosen method's PI upper
//! bound, and quotes it against the queue — the earliest feasible finish
//! and the price–deadline curve. Choose a deadline (click the curve or type
//! it) and admit the job: it joins the queue at that price, and the queue's
//! lazy schedule is redrawn. The queue is kept across reloads. Below, the
//! §6.3 simulation (MRM, FCFS and priority across loads) runs in the worker
//! on Run, and again whenever one of its settings changes.
//!
//! Test hooks: `[data-testid=estimate-row]` (with `data-phase`,
//! `data-method` and `data-used`), `earliest-finish` (with `data-secs`),
//! `chosen-price` (with `data-price`), the `price-curve`
//! and `gantt` canvases (with `data-drawn`), `deadline-input`, `admit`,
//! `pricing-error`, `quote-error`, `queue-row` (with `data-name`);
//! `sim-status` (with `data-running`), `sim-row` (with `data-policy`,
//! `data-interarrival`), the `sim-waiting`, `sim-tardy` and `sim-earliness`
//! canvases, `sim-error`.

use crate::parts::pricing::charts::{
    duration_text, price_text, CurvePlot, GanttPlot, SimMetric, SweepPlot,
};
use crate::parts::pricing::desk::{PricingForm, SimForm};
use crate::parts::pricing::protocol::{
    method_value, PricingRequest, QueueView, QuoteView, SimView, FUNCTIONS,
};
use crate::state::Studio;
use crate::toolkit::run::{ErrorLine, JobStatus, RunButton};
use crate::widgets::chart::plot_x_span;
use crate::widgets::field::{text_field, Field};
use crate::widgets::format::{count, trimmed};
use crate::widgets::PlotCanvas;
use leptos::prelude::*;
use skyplan_engine::estimate::Method;
use wasm_bindgen::JsCast;
use web_sys::{HtmlElement, HtmlInputElement, MouseEvent};

/// The Pricing panel.
#[component]
pub fn PricingPanel() -> impl IntoView {
    let studio = expect_context::<Studio>();
    let desk = studio.pricing;
    // The history and the queue, now and whenever the workspace changes.
    Effect::new(move |_| {
        studio.traces.workspace.track();
        studio.pricing.open_pricing();
    });
    // A quote for every change of the form.
    Effect::new(move |_| {
        desk.form.track();
        studio.pricing.request_quote();
    });
    view! {
        <div class="pricing-page">
            <div class="agenda pricing">
                <div class="main-column">
                    <QuoteCard/>
                    <QueueCard/>
                </div>
                <aside class="sidebar">
                    <JobCard/>
                    <SettingsCard/>
                </aside>
            </div>
            <SimulationCard/>
        </div>
    }
}

/// The new job's name.
const NAME_FIELD: Field<PricingForm> = (
    "Name (same-job runs)",
    "job-name",
    |f| f.name.clone(),
    |f, v| f.name = v,
);

/// The new job's size.
const JOB_FIELDS: [Field<PricingForm>; 5] = [
    (
        "Map tasks",
        "job-map-tasks",
        |f| f.map_tasks.clone(),
        |f, v| f.map_tasks = v,
    ),
    (
        "Reduce tasks",
        "job-reduce-tasks",
        |f| f.reduce_tasks.clone(),
        |f, v| f.reduce_tasks = v,
    ),
    (
        "Input bytes",
        "job-input",
        |f| f.input.clone(),
        |f, v| f.input = v,
    ),
    (
        "Shuffle bytes",
        "job-shuffle",
        |f| f.shuffle.clone(),
        |f, v| f.shuffle = v,
    ),
    (
        "Output bytes",
        "job-output",
        |f| f.output.clone(),
        |f, v| f.output = v,
    ),
];

/// The PI level, κ and the cluster.
const SETTINGS_FIELDS: [Field<PricingForm>; 4] = [
    (
        "PI level (%)",
        "level-input",
        |f| f.level.clone(),
        |f, v| f.level = v,
    ),
    ("κ", "kappa-input", |f| f.kappa.clone(), |f, v| f.kappa = v),
    (
        "Map slots",
        "map-slots",
        |f| f.map_slots.clone(),
        |f, v| f.map_slots = v,
    ),
    (
        "Reduce slots",
        "reduce-slots",
        |f| f.reduce_slots.clone(),
        |f, v| f.reduce_slots = v,
    ),
];

/// The new job: pick from the history or describe it.
#[component]
fn JobCard() -> impl IntoView {
    let studio = expect_context::<Studio>();
    let desk = studio.pricing;
    let jobs = move || {
        desk.history
            .with(|h| h.as_ref().map_or(0, |h| h.jobs.len()))
    };
    view! {
        <section class="card">
            <header class="card-head">
                <h2>"New job"</h2>
            </header>
            <label class="field">
                <span class="field-label">"Pick from the history"</span>
                <select
                    data-testid="history-select"
                    disabled=move || jobs() == 0
                    on:change=move |ev| {
                        let picked = event_target_value(&ev).parse::<usize>().ok();
                        let job = picked
                            .and_then(|i| {
                                desk.history.with_untracked(|h| h.as_ref()?.jobs.get(i).cloned())
                            });
                        if let Some(job) = job {
                            desk.form.update(|f| f.take_job(&job));
                        }
                    }
                >
                    <option value="">
                        {move || {
                            if jobs() == 0 {
                                "No job history loaded".to_string()
                            } else {
                                format!("{} jobs…", count(jobs()))
                            }
                        }}
                    </option>
                    {move || {
                        desk.history
                            .with(|h| {
                                h.as_ref()
                                    .map(|h| {
                                        h.jobs
                                            .iter()
                                            .enumerate()
                                            .map(|(i, j)| {
                                                let text = format!(
                                                    "{} · {} maps, {} reduces · {} s",
                                                    j.name,
                                                    j.features.map_tasks.unwrap_or(0),
                                                    j.features.reduce_tasks.unwrap_or(0),
                                                    trimmed(j.map_secs + j.reduce_secs, 1),
                                                );
                                                view! { <option value=i.to_string()>{text}</option> }
                                            })
                                            .collect_view()
                                    })
                            })
                    }}
                </select>
            </label>
            <p class="hint">
                {move || {
                    desk.history
                        .with(|h| match h {
                            Some(h) if !h.files.is_empty() => {
                                format!("Learned from {}.", h.files.join(", "))
                            }
                            Some(_) => {
                                "Load a job-history CSV in Traces (the demo workspace has one)."
                                    .into()
                            }
                            None => "Asking the engine…".into(),
                        })
                }}
            </p>
            <div class="form-grid two">
                <div class="wide">
                    {text_field(desk.form, NAME_FIELD)}
                </div>
                {JOB_FIELDS.into_iter().map(|f| text_field(desk.form, f)).collect_view()}
            </div>
        </section>
    }
}

/// Method, level, cluster and price function.
#[component]
fn SettingsCard() -> impl IntoView {
    let studio = expect_context::<Studio>();
    let form = studio.pricing.form;
    view! {
        <section class="card">
            <header class="card-head">
                <h2>"Estimate, cluster and price"</h2>
            </header>
            <div class="form-grid two">
                <label class="field">
                    <span class="field-label">"Method"</span>
                    <select
                        data-testid="estimate-method"
                        on:change=move |ev| {
                            let v = event_target_value(&ev);
                            form.update(|f| f.method = v);
                        }
                    >
                        {Method::ALL
                            .into_iter()
                            .map(|m| {
                                let value = method_value(m);
                                view! {
                                    <option value=value selected=move || form.with(|f| f.method == value)>
                                        {m.to_string()}
                                    </option>
                                }
                            })
                            .collect_view()}
                    </select>
                </label>
                <label class="field">
                    <span class="field-label">"Price function"</span>
                    <select
                        data-testid="function-select"
                        on:change=move |ev| {
                            let v = event_target_value(&ev);
                            form.update(|f| f.function = v);
                        }
                    >
                        {FUNCTIONS
                            .into_iter()
                            .map(|(value, label)| {
                                view! {
                                    <option value=value selected=move || form.with(|f| f.function == value)>
                                        {label}
                                    </option>
                                }
                            })
                            .collect_view()}
                    </select>
                </label>
                {SETTINGS_FIELDS.into_iter().map(|f| text_field(form, f)).collect_view()}
            </div>
            <p class="hint">
                "Work per phase = the method's PI upper bound × the phase's slots: the job holds the cluster for its estimated duration, as in MRM. The history's durations were measured on its own cluster; give that cluster's slots."
            </p>
        </section>
    }
}

/// The estimate table, the figures, the curve, the deadline and Admit.
#[component]
fn QuoteCard() -> impl IntoView {
    let studio = expect_context::<Studio>();
    let desk = studio.pricing;
    let quote = move || desk.quote.view.get();
    let curve = Signal::derive(move || {
        desk.quote.view.with(|q| {
            q.as_ref().map(|q| CurvePlot {
                quote: q.quote.clone(),
                chosen: q.chosen,
                key: format!("quote-{}", q.ticket),
            })
        })
    });
    let on_click = move |ev: MouseEvent| {
        let Some(el) = ev.target().and_then(|t| t.dyn_into::<HtmlElement>().ok()) else {
            return;
        };
        let Some(x_max) = curve.with_untracked(|c| c.as_ref().map(CurvePlot::x_max)) else {
            return;
        };
        let (left, right) = plot_x_span(f64::from(el.client_width()));
        let x = f64::from(ev.offset_x());
        if x < left || x > right {
            return;
        }
        let deadline = ((x - left) / (right - left) * x_max).ceil();
        desk.form.update(|f| f.deadline = format!("{deadline:.0}"));
    };
    view! {
        <section class="card">
            <header class="card-head">
                <h2>"Quote"</h2>
                <span
                    class="card-note"
                    data-testid="quote-status"
                    data-round-trip-ms=move || desk.round_trip.get().map(|ms| ms.to_string())
                    data-quote-ms=move || quote().map(|q| q.quote_millis.to_string())
                >
                    {move || {
                        if desk.quote.running.get() {
                            "estimating…".to_string()
                        } else {
                            quote()
                                .map(|q| timing(&q, desk.round_trip.get()))
                                .unwrap_or_default()
                        }
                    }}
                </span>
            </header>
            <ErrorLine testid="quote-error" error=desk.quote.error/>
            {move || quote().map(|q| view! { <EstimateTable quote=q/> })}
            <div class="agenda-figures">
                <div class="figure">
                    <span class="figure-label">"Earliest feasible finish"</span>
                    <span
                        class="figure-value"
                        data-testid="earliest-finish"
                        data-secs=move || quote().map(|q| q.quote.earliest_finish.to_string())
                    >
                        {move || {
                            quote()
                                .map(|q| duration_text(q.quote.earliest_finish))
                                .unwrap_or_else(|| "—".into())
                        }}
                    </span>
                </div>
                <div class="figure">
                    <span class="figure-label">"Processing time alone"</span>
                    <span class="figure-value">
                        {move || {
                            quote()
                                .map(|q| duration_text(q.quote.processing_secs))
                                .unwrap_or_else(|| "—".into())
                        }}
                    </span>
                </div>
                <div class="figure">
                    <span class="figure-label">"Price at the earliest finish"</span>
                    <span class="figure-value">
                        {move || {
                            quote()
                                .and_then(|q| q.quote.curve.first().map(|p| price_text(p.price)))
                                .unwrap_or_else(|| "—".into())
                        }}
                    </span>
                </div>
            </div>
            <div class="curve-frame" title="Click to choose a deadline" on:click=on_click>
                <PlotCanvas
                    data=curve
                    placeholder=Signal::derive(move || {
                        if desk.quote.running.get() {
                            "Estimating the job and quoting it…".to_string()
                        } else {
                            "No quote: see the message above.".to_string()
                        }
                    })
                    testid="price-curve"
                />
            </div>
            <form
                class="form-grid"
                on:submit=move |ev| {
                    ev.prevent_default();
                    studio.pricing.admit_priced();
                }
            >
                <label class="field">
                    <span class="field-label">"Deadline (seconds from now)"</span>
                    <input
                        type="text"
                        inputmode="decimal"
                        data-testid="deadline-input"
                        placeholder="click the curve"
                        prop:value=move || desk.form.with(|f| f.deadline.clone())
                        on:change=move |ev| {
                            let v = event_target_value(&ev);
                            desk.form.update(|f| f.deadline = v);
                        }
                    />
                </label>
                <div class="field">
                    <span class="field-label">"Price"</span>
                    <span
                        class="figure-value"
                        data-testid="chosen-price"
                        data-price=move || quote().and_then(|q| q.chosen).map(|c| c.price.to_string())
                    >
                        {move || {
                            quote()
                                .and_then(|q| q.chosen)
                                .map(|c| format!("{} tokens", price_text(c.price)))
                                .unwrap_or_else(|| "—".into())
                        }}
                    </span>
                </div>
                <button
                    class="button primary"
                    type="submit"
                    data-testid="admit"
                    disabled=move || desk.busy.get() || quote().is_none()
                >
                    "Admit"
                </button>
            </form>
            {move || {
                let q = quote()?;
                let e = q.chosen_error?;
                Some(view! { <p class="field-error" data-testid="deadline-error">{e}</p> })
            }}
            <ErrorLine testid="pricing-error" error=desk.error/>
            {move || {
                desk.admitted
                    .get()
                    .map(|a| {
                        view! {
                            <p class="hint" data-testid="admitted">
                                {format!(
                                    "Admitted {} with a deadline {} from now for {} tokens.",
                                    a.name,
                                    duration_text(a.deadline),
                                    price_text(a.price),
                                )}
                            </p>
                        }
                    })
            }}
        </section>
    }
}

/// Where the quote's time went: in the worker, and from the ask to the
/// answer on the page.
fn timing(q: &QuoteView, round_trip: Option<f64>) -> String {
    let fit = q
        .fit_millis
        .map(|m| format!("estimators fitted in {m:.0} ms · "))
        .unwrap_or_default();
    let trip = round_trip
        .map(|ms| format!(" · round trip {ms:.0} ms"))
        .unwrap_or_default();
    format!(
        "{fit}quoted against {} queued job(s) in {:.1} ms{trip}",
        q.queued, q.quote_millis
    )
}

/// Every method's estimate of both phases; the one planned with marked.
#[component]
fn EstimateTable(quote: QuoteView) -> impl IntoView {
    let used = quote.work.method;
    let level = quote.estimate.level * 100.0;
    let rows = quote
        .estimate
        .phases
        .iter()
        .flat_map(|ph| ph.methods.iter().map(move |m| (ph.phase, m.clone())))
        .map(|(phase, m)| {
            let is_used = m.method == used;
            let cells = match &m.prediction {
                Some(p) => (
                    trimmed(p.mean, 2),
                    trimmed(p.std_dev, 2),
                    format!("[{}, {}]", trimmed(p.lower, 2), trimmed(p.upper, 2)),
                ),
                None => ("—".into(), "—".into(), "—".into()),
            };
            view! {
                <tr
                    data-testid="estimate-row"
                    data-phase=phase.to_string()
                    data-method=method_value(m.method)
                    data-used=is_used.to_string()
                    class:used=is_used
                >
                    <td>{phase.to_string()}</td>
                    <td>{m.method.to_string()}{if is_used { " ✓" } else { "" }}</td>
                    <td class="num">{cells.0}</td>
                    <td class="num">{cells.1}</td>
                    <td class="num">{cells.2}</td>
                    <td class="muted">{m.note.clone().unwrap_or_default()}</td>
                </tr>
            }
        })
        .collect_view();
    let w = quote.work;
    view! {
        <div class="table-scroll">
            <table class="data estimate-table">
                <thead>
                    <tr>
                        <th>"Phase"</th>
                        <th>"Method"</th>
                        <th class="num">"Mean (s)"</th>
                        <th class="num">"σ (s)"</th>
                        <th class="num">{format!("{}% PI (s)", trimmed(level, 2))}</th>
                        <th></th>
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
        <p class="hint" data-testid="work-note">
            {format!(
                "Planned with {} at the PI upper bound: map {} s → {} slot-s, reduce {} s → {} slot-s. Slack is counted in mean job times γ = {} (the history's mean processing time).",
                w.method,
                trimmed(w.map_upper_secs, 2),
                trimmed(w.map_work, 0),
                trimmed(w.reduce_upper_secs, 2),
                trimmed(w.reduce_work, 0),
                duration_text(quote.mean_job_secs),
            )}
        </p>
    }
}

/// The queue: its lazy schedule and its table.
#[component]
fn QueueCard() -> impl IntoView {
    let studio = expect_context::<Studio>();
    let desk = studio.pricing;
    let gantt = Signal::derive(move || {
        desk.queue.with(|q| {
            q.as_ref()
                .filter(|q| !q.rows.is_empty() && q.problem.is_none())
                .map(|q| GanttPlot { view: q.clone() })
        })
    });
    let empty = move || {
        desk.queue
            .with(|q| q.as_ref().is_none_or(|q| q.rows.is_empty()))
    };
    view! {
        <section class="card">
            <header class="card-head">
                <h2>"Queue"</h2>
                <span class="card-note">
                    {move || {
                        desk.queue
                            .with(|q| q.as_ref().map(summary))
                            .unwrap_or_default()
                    }}
                </span>
                <div class="head-actions">
                    <label class="button small" title="Add the jobs of a queue CSV: name,map_work,reduce_work,deadline">
                        "Import CSV"
                        <input
                            type="file"
                            accept=".csv,text/csv"
                            hidden
                            data-testid="queue-import"
                            on:change=move |ev| {
                                let input: HtmlInputElement = event_target(&ev);
                                if let Some(file) = input.files().and_then(|f| f.get(0)) {
                                    studio.pricing.import_queue(file);
                                }
                                input.set_value("");
                            }
                        />
                    </label>
                    <button
                        class="button small"
                        data-testid="queue-export"
                        disabled=empty
                        on:click=move |_| studio.pricing.export_queue()
                    >
                        "Export CSV"
                    </button>
                    <button
                        class="button small"
                        data-testid="queue-clear"
                        disabled=move || empty() || desk.busy.get()
                        on:click=move |_| studio.pricing.pricing_change(PricingRequest::Clear)
                    >
                        "Clear"
                    </button>
                </div>
            </header>
            {move || {
                desk.queue
                    .with(|q| q.as_ref().and_then(|q| q.problem.clone()))
                    .map(|p| {
                        view! {
                            <p class="field-error" data-testid="queue-problem">
                                {format!("No schedule on this cluster: {p}")}
                            </p>
                        }
                    })
            }}
            <Show
                when=move || !empty()
                fallback=|| {
                    view! {
                        <p class="hint" data-testid="queue-empty">
                            "No job admitted yet: quote one, choose a deadline and press Admit."
                        </p>
                    }
                }
            >
                <PlotCanvas
                    data=gantt
                    placeholder="The queue has no schedule on this cluster."
                    testid="gantt"
                />
            </Show>
            <p class="hint">
                "Each job as late as its deadline allows (latest deadline first): map in blue, reduce in orange, its slack in grey up to its deadline (red). Green bands: free map and reduce capacity, the slack a new job fills."
            </p>
            <div class="table-scroll">
                <table class="data">
                    <thead>
                        <tr>
                            <th>"Job"</th>
                            <th class="num">"Deadline"</th>
                            <th class="num">"Map work (slot-s)"</th>
                            <th class="num">"Reduce work (slot-s)"</th>
                            <th>"Method"</th>
                            <th class="num">"Price"</th>
                            <th></th>
                        </tr>
                    </thead>
                    <tbody>
                        {move || {
                            desk.queue
                                .with(|q| q.as_ref().map(|q| q.rows.clone()).unwrap_or_default())
                                .into_iter()
                                .map(|r| {
                                    let name = r.name.clone();
                                    view! {
                                        <tr data-testid="queue-row" data-name=r.name.clone()>
                                            <td class="job-name">{r.name.clone()}</td>
                                            <td class="num">{duration_text(r.deadline)}</td>
                                            <td class="num">{trimmed(r.map_work, 0)}</td>
                                            <td class="num">{trimmed(r.reduce_work, 0)}</td>
                                            <td>{r.method.map_or_else(|| "imported".to_string(), |m| m.to_string())}</td>
                                            <td class="num">{r.price.map_or_else(|| "—".to_string(), price_text)}</td>
                                            <td>
                                                <button
                                                    class="button ghost small"
                                                    data-testid="queue-remove"
                                                    disabled=move || desk.busy.get()
                                                    on:click=move |_| {
                                                        studio
                                                            .pricing.pricing_change(PricingRequest::Remove {
                                                                name: name.clone(),
                                                            })
                                                    }
                                                >
                                                    "Remove"
                                                </button>
                                            </td>
                                        </tr>
                                    }
                                })
                                .collect_view()
                        }}
                    </tbody>
                </table>
            </div>
        </section>
    }
}

/// The queue in one line.
fn summary(q: &QueueView) -> String {
    if q.rows.is_empty() {
        return "empty".into();
    }
    format!(
        "{} job(s) · latest deadline {} · {} tokens charged",
        count(q.rows.len()),
        duration_text(q.horizon),
        price_text(q.revenue)
    )
}

/// The simulation's settings.
const SIM_FIELDS: [Field<SimForm>; 5] = [
    (
        "Jobs per load",
        "sim-jobs",
        |f| f.jobs.clone(),
        |f, v| f.jobs = v,
    ),
    (
        "Mean inter-arrival times (s)",
        "sim-interarrivals",
        |f| f.interarrivals.clone(),
        |f, v| f.interarrivals = v,
    ),
    (
        "α (delay-sensitive budget)",
        "sim-alpha",
        |f| f.alpha.clone(),
        |f, v| f.alpha = v,
    ),
    ("κ", "sim-kappa", |f| f.kappa.clone(), |f, v| f.kappa = v),
    (
        "Estimation error σ (% of mean)",
        "sim-error-share",
        |f| f.error_percent.clone(),
        |f, v| f.error_percent = v,
    ),
];

/// MRM §6.3: priced deadlines on EDF against FCFS and priority, across
/// loads, run in the worker on Run and then whenever a setting changes.
#[component]
fn SimulationCard() -> impl IntoView {
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
        <section class="card sim-card">
            <header class="card-head">
                <h2>"Simulation: MRM against FCFS and priority (§6.3)"</h2>
                <JobStatus job=desk.sim testid="sim-status" text=status/>
                <div class="head-actions">
                    <RunButton
                        job=desk.sim
                        testid="sim-run"
                        label="Run"
                        small=true
                        on_run=move || studio.pricing.request_simulation()
                    />
                </div>
            </header>
            <p class="card-text">
                "One server (M/G/1) with Poisson arrivals and the paper's job mix (mean 36 s): half the users delay-sensitive, paying up to α times their estimated time for the earliest deadline they can afford under eq. (13); the other half pay their estimated time. Jobs run for their actual time while the scheduler sees the PI upper bound. MRM runs EDF on the committed deadlines; FCFS and non-preemptive priority promise the finish predicted from the work ahead."
            </p>
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
        </section>
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
