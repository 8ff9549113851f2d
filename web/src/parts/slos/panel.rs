//! The SLOs panel (Morpheus §4–§5): the recurring jobs with their inferred
//! windows and why a deadline is or is not actionable, the groups that are
//! not periodic, and for the selected job its history skylines with the
//! proposed reservation `R*`, how it compares with the peak and a flat p90
//! reservation, and the owner's decision — sign off, override or reject —
//! saved in the browser and exported as CSV or JSON.
//!
//! Every figure comes from the worker ([`crate::parts::slos::desk`] sends the requests);
//! this module only lays them out and turns form fields into decisions for
//! the engine to validate.

use super::protocol::{ExportFormat, FitView, SloRow, SIMPLEX_MAX_CELLS};
use crate::nav::Panel;
use crate::parts::slos::desk::FitState;
use crate::state::Studio;
use crate::widgets::format::{count, minute, trimmed};
use crate::widgets::PlotCanvas;
use leptos::prelude::*;
use skyplan_engine::resource_model::{ModelParams, Quality, SolverKind, Variant};
use skyplan_engine::slo::{DecisionKind, SloDecision, SloParams};
use skyplan_engine::time::format_duration;
use skyplan_engine::{Skyline, Timestamp};
use std::cmp::Ordering;

/// The α values the slider steps through: log-ish, with the paper's 0.01
/// and Hadoop's 0.1 among them.
pub const ALPHAS: [f64; 13] = [
    0.0, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 1.0,
];

/// The quantization steps offered, seconds.
pub const STEPS: [u32; 4] = [5, 30, 60, 300];

/// Position in [`ALPHAS`] of the value nearest `alpha`.
pub fn alpha_index(alpha: f64) -> usize {
    ALPHAS
        .iter()
        .enumerate()
        .min_by(|a, b| (a.1 - alpha).abs().total_cmp(&(b.1 - alpha).abs()))
        .map_or(0, |(i, _)| i)
}

/// The word for a job's decision status, as the table shows it.
pub fn decision_label(kind: Option<DecisionKind>) -> &'static str {
    match kind {
        None => "pending",
        Some(DecisionKind::SignedOff) => "signed-off",
        Some(DecisionKind::Overridden) => "overridden",
        Some(DecisionKind::Rejected) => "rejected",
    }
}

/// The SLOs panel.
#[component]
pub fn SlosPanel() -> impl IntoView {
    let studio = expect_context::<Studio>();
    untrack(move || studio.slo.open_slos());
    on_cleanup(move || studio.slo.close_slos());
    let has_runs = move || studio.traces.workspace.with(|w| w.summary.runs > 0);
    view! {
        <div class="slos">
            <ErrorBar/>
            <Show when=has_runs fallback=|| view! { <EmptyState/> }>
                <JobsCard/>
                <JobDetail/>
            </Show>
            <DecisionsCard/>
        </div>
    }
}

/// The engine's last refusal, until dismissed.
#[component]
fn ErrorBar() -> impl IntoView {
    let slo = expect_context::<Studio>().slo;
    move || {
        slo.error.get().map(|message| {
            view! {
                <div class="slo-error" role="alert">
                    <strong>"Not accepted"</strong>
                    <span data-testid="slo-error">{message}</span>
                    <button
                        class="icon-button"
                        aria-label="Dismiss"
                        on:click=move |_| slo.error.set(None)
                    >
                        "×"
                    </button>
                </div>
            }
        })
    }
}

/// What the panel shows without runs: where to get some.
#[component]
fn EmptyState() -> impl IntoView {
    let studio = expect_context::<Studio>();
    let panel = expect_context::<RwSignal<Panel>>();
    view! {
        <section class="card empty-state" data-testid="slo-empty">
            {move || {
                if studio.page.ready.get() {
                    view! {
                        <h2>"No job runs loaded"</h2>
                        <p>
                            "SLOs are inferred from the runs of recurring jobs: a runs CSV with input-available and output-read times, or a Hadoop native log. Import one in Traces, or load the demo workspace there."
                        </p>
                        <button class="button primary" on:click=move |_| panel.set(Panel::Traces)>
                            "Go to Traces"
                        </button>
                    }
                        .into_any()
                } else {
                    view! { <p>"Starting the engine…"</p> }.into_any()
                }
            }}
        </section>
    }
}

// ------------------------------------------------------------ jobs table

/// A column the jobs table sorts by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SortKey {
    Job,
    Period,
    Runs,
    Start,
    Deadline,
    Actionable,
    ReadCv,
    Slack,
    Runtime,
    Decision,
}

/// Known values first, then the unknown ones.
fn by_option<T: PartialOrd>(a: Option<T>, b: Option<T>) -> Ordering {
    match (a, b) {
        (Some(x), Some(y)) => x.partial_cmp(&y).unwrap_or(Ordering::Equal),
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => Ordering::Equal,
    }
}

impl SortKey {
    fn compare(
        self,
        a: &SloRow,
        b: &SloRow,
        da: Option<DecisionKind>,
        db: Option<DecisionKind>,
    ) -> Ordering {
        let rank = |k: Option<DecisionKind>| match k {
            None => 0,
            Some(DecisionKind::SignedOff) => 1,
            Some(DecisionKind::Overridden) => 2,
            Some(DecisionKind::Rejected) => 3,
        };
        let order = match self {
            SortKey::Job => Ordering::Equal,
            SortKey::Period => a.period_secs.cmp(&b.period_secs),
            SortKey::Runs => a.runs.cmp(&b.runs),
            SortKey::Start => by_option(a.earliest_start_secs, b.earliest_start_secs),
            SortKey::Deadline => by_option(a.deadline_secs, b.deadline_secs),
            SortKey::Actionable => b.actionable.cmp(&a.actionable),
            SortKey::ReadCv => by_option(a.read_cv, b.read_cv),
            SortKey::Slack => by_option(a.slack_ratio, b.slack_ratio),
            SortKey::Runtime => a.median_runtime_secs.total_cmp(&b.median_runtime_secs),
            SortKey::Decision => rank(da).cmp(&rank(db)),
        };
        order.then_with(|| a.job.cmp(&b.job))
    }
}

/// Which rows the jobs table shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Filter {
    All,
    Actionable,
    NotActionable,
    Pending,
    Decided,
}

impl Filter {
    const ALL: [(Filter, &'static str, &'static str); 5] = [
        (Filter::All, "all", "All jobs"),
        (Filter::Actionable, "actionable", "Actionable"),
        (Filter::NotActionable, "not-actionable", "Not actionable"),
        (Filter::Pending, "pending", "Pending decision"),
        (Filter::Decided, "decided", "Decided"),
    ];

    fn keeps(self, row: &SloRow, decision: Option<DecisionKind>) -> bool {
        match self {
            Filter::All => true,
            Filter::Actionable => row.actionable,
            Filter::NotActionable => !row.actionable,
            Filter::Pending => decision.is_none(),
            Filter::Decided => decision.is_some(),
        }
    }
}

/// The recurring jobs, filterable and sortable, and the non-periodic groups.
#[component]
fn JobsCard() -> impl IntoView {
    let studio = expect_context::<Studio>();
    let slo = studio.slo;
    let query = RwSignal::new(String::new());
    let filter = RwSignal::new(Filter::All);
    let sort = RwSignal::new((SortKey::Job, true));
    let settings = RwSignal::new(false);
    let rows = move || {
        let q = query.get().trim().to_lowercase();
        let (f, (key, ascending)) = (filter.get(), sort.get());
        let decisions = slo.decisions.get();
        let status = |job: &str| decisions.iter().find(|d| d.job == job).map(|d| d.kind);
        let mut rows: Vec<(SloRow, Option<DecisionKind>)> = slo.table.with(|t| {
            t.iter()
                .flat_map(|t| t.rows.iter())
                .filter(|r| r.job.to_lowercase().contains(&q))
                .map(|r| (r.clone(), status(&r.job)))
                .filter(|(r, d)| f.keeps(r, *d))
                .collect()
        });
        rows.sort_by(|(a, da), (b, db)| {
            let o = key.compare(a, b, *da, *db);
            if ascending {
                o
            } else {
                o.reverse()
            }
        });
        if rows.is_empty() {
            let text = if slo.loading.get() {
                "Inferring SLOs…"
            } else {
                "No recurring job matches the filter."
            };
            return view! {
                <tr>
                    <td class="empty" colspan="12">{text}</td>
                </tr>
            }
            .into_any();
        }
        rows.into_iter()
            .map(|(row, decision)| view! { <JobRow row=row decision=decision/> })
            .collect_view()
            .into_any()
    };
    let summary = move || {
        slo.table.with(|t| {
            t.as_ref().map(|t| {
                let actionable = t.rows.iter().filter(|r| r.actionable).count();
                let decided = slo.decisions.with(|d| {
                    t.rows
                        .iter()
                        .filter(|r| d.iter().any(|x| x.job == r.job))
                        .count()
                });
                format!(
                    "{} recurring · {} actionable · {} decided",
                    t.rows.len(),
                    actionable,
                    decided
                )
            })
        })
    };
    let header =
        move |key, label, title| view! { <SortHeader key=key label=label title=title sort=sort/> };
    view! {
        <section class="card">
            <header class="card-head">
                <h2>"Recurring jobs"</h2>
                <span class="card-note">{summary}</span>
                <div class="head-actions">
                    <input
                        class="search"
                        type="search"
                        placeholder="Filter by name"
                        aria-label="Filter jobs by name"
                        data-testid="slo-filter"
                        prop:value=move || query.get()
                        on:input=move |ev| query.set(event_target_value(&ev))
                    />
                    <select
                        aria-label="Which jobs"
                        data-testid="slo-show"
                        on:change=move |ev| {
                            let value = event_target_value(&ev);
                            if let Some((f, ..)) = Filter::ALL.iter().find(|(_, v, _)| *v == value) {
                                filter.set(*f);
                            }
                        }
                    >
                        {Filter::ALL
                            .into_iter()
                            .map(|(f, value, label)| {
                                view! {
                                    <option value=value prop:selected=move || filter.get() == f>
                                        {label}
                                    </option>
                                }
                            })
                            .collect_view()}
                    </select>
                    <button
                        class="button small"
                        class:pressed=move || settings.get()
                        aria-expanded=move || settings.get().to_string()
                        on:click=move |_| settings.update(|s| *s = !*s)
                    >
                        "Inference settings"
                    </button>
                </div>
            </header>
            <Show when=move || settings.get()>
                <SettingsForm/>
            </Show>
            <div class="table-scroll">
                <table class="data slo-table">
                    <thead>
                        <tr>
                            {header(SortKey::Job, "Job", "Templated job name")}
                            {header(SortKey::Period, "Period", "Period of the job, from its submissions")}
                            {header(SortKey::Runs, "Runs", "Runs in the history")}
                            {header(SortKey::Start, "Earliest start", "a: from input availability, after each period start")}
                            {header(SortKey::Deadline, "Deadline", "d: from the first read of the output, after each period start")}
                            <th title="The first period's window, UTC">"First window (UTC)"</th>
                            {header(SortKey::Actionable, "Actionable", "Stable output reads and real slack")}
                            {header(SortKey::ReadCv, "Read CV", "Robust CV (MAD/median) of the output-read time")}
                            {header(SortKey::Slack, "Slack", "Median (read − end)/(end − start)")}
                            {header(SortKey::Runtime, "Runtime", "Median run time")}
                            <th>"Why"</th>
                            {header(SortKey::Decision, "Decision", "The owner's decision")}
                        </tr>
                    </thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
            <NonPeriodic/>
        </section>
    }
}

/// A sortable column header: click to sort by it, again to reverse.
#[component]
fn SortHeader(
    key: SortKey,
    label: &'static str,
    title: &'static str,
    sort: RwSignal<(SortKey, bool)>,
) -> impl IntoView {
    let state = move || match sort.get() {
        (k, true) if k == key => "ascending",
        (k, false) if k == key => "descending",
        _ => "none",
    };
    let arrow = move || match state() {
        "ascending" => "▲",
        "descending" => "▼",
        _ => "",
    };
    view! {
        <th aria-sort=state title=title>
            <button
                class="sort"
                on:click=move |_| {
                    sort.update(|(k, ascending)| {
                        if *k == key {
                            *ascending = !*ascending;
                        } else {
                            *k = key;
                            *ascending = true;
                        }
                    })
                }
            >
                {label}
                <span class="sort-arrow" aria-hidden="true">{arrow}</span>
            </button>
        </th>
    }
}

/// Seconds after the period start as `+1h5m` (before it: `−2m`), or `—`.
fn offset(secs: Option<i64>) -> String {
    match secs {
        None => "—".into(),
        Some(s) if s < 0 => format!("−{}", format_duration(-s)),
        Some(s) => format!("+{}", format_duration(s)),
    }
}

/// A wall-clock window: `YYYY-MM-DD HH:MM → HH:MM` (the end's date only
/// when it differs).
fn window_text((a, d): (Timestamp, Timestamp)) -> String {
    let (from, to) = (minute(a), minute(d));
    match (from.get(..10), to.get(..10), to.get(11..)) {
        (Some(da), Some(dd), Some(time)) if da == dd => format!("{from} → {time}"),
        _ => format!("{from} → {to}"),
    }
}

/// A figure with two decimals, or `—`.
fn ratio(v: Option<f64>) -> String {
    v.map_or_else(|| "—".into(), |v| format!("{v:.2}"))
}

/// One recurring job; click to select it.
#[component]
fn JobRow(row: SloRow, decision: Option<DecisionKind>) -> impl IntoView {
    let studio = expect_context::<Studio>();
    let job = row.job.clone();
    let selected = {
        let job = job.clone();
        move || {
            studio
                .slo
                .selected
                .with(|s| s.as_deref() == Some(job.as_str()))
        }
    };
    let select = {
        let job = job.clone();
        move || studio.slo.select_slo(job.clone())
    };
    let select_key = select.clone();
    let label = decision_label(decision);
    let reason = row.reason.clone().unwrap_or_default();
    view! {
        <tr
            data-testid="slo-row"
            data-job=row.job.clone()
            data-actionable=row.actionable.to_string()
            class:selected=selected
            tabindex="0"
            on:click=move |_| select()
            on:keydown=move |ev| {
                if ev.key() == "Enter" {
                    select_key();
                }
            }
        >
            <td class="job-name">{row.job.clone()}</td>
            <td class="num">{format_duration(row.period_secs)}</td>
            <td class="num">{row.runs}</td>
            <td class="num">{offset(row.earliest_start_secs)}</td>
            <td class="num">
                {offset(row.deadline_secs)}
                {row
                    .deadline_forced
                    .then(|| {
                        view! {
                            <span class="tag" title="Output read on a longer period: deadline forced to the end of the job's own period">
                                "forced"
                            </span>
                        }
                    })}
            </td>
            <td class="muted">{row.first_window.map_or_else(|| "—".into(), window_text)}</td>
            <td>
                <span class=if row.actionable { "flag yes" } else { "flag no" }>
                    {if row.actionable { "yes" } else { "no" }}
                </span>
            </td>
            <td class="num">{ratio(row.read_cv)}</td>
            <td class="num">{ratio(row.slack_ratio)}</td>
            <td class="num">{format_duration(row.median_runtime_secs.round() as i64)}</td>
            <td class="reason" title=reason.clone()>{reason.clone()}</td>
            <td data-testid="slo-decision">
                <span class=format!("decision {label}")>{label}</span>
            </td>
        </tr>
    }
}

/// Groups of runs that are not periodic, with why.
#[component]
fn NonPeriodic() -> impl IntoView {
    let slo = expect_context::<Studio>().slo;
    move || {
        let groups = slo.table.with(|t| {
            t.as_ref()
                .map(|t| t.non_periodic.clone())
                .unwrap_or_default()
        });
        (!groups.is_empty()).then(|| {
            view! {
                <div class="subsection">
                    <h3>
                        "Not periodic "
                        <span class="card-note">"— no SLO is inferred for these groups"</span>
                    </h3>
                    <table class="data">
                        <thead>
                            <tr>
                                <th>"Group"</th>
                                <th class="num">"Runs"</th>
                                <th>"Why not periodic"</th>
                            </tr>
                        </thead>
                        <tbody>
                            {groups
                                .into_iter()
                                .map(|g| {
                                    view! {
                                        <tr data-testid="nonperiodic-row" data-job=g.name.clone()>
                                            <td class="job-name">{g.name.clone()}</td>
                                            <td class="num">{g.runs}</td>
                                            <td class="reason wide">{g.reason}</td>
                                        </tr>
                                    }
                                })
                                .collect_view()}
                        </tbody>
                    </table>
                </div>
            }
        })
    }
}

/// The inference settings: percentiles and thresholds, checked by the engine.
#[component]
fn SettingsForm() -> impl IntoView {
    let studio = expect_context::<Studio>();
    let current = studio.slo.params.get_untracked();
    let fields = [
        (
            "Earliest start: percentile of input availability",
            current.start_percentile.to_string(),
        ),
        (
            "Deadline: percentile of output reads",
            current.deadline_percentile.to_string(),
        ),
        (
            "Largest read-time CV for an actionable deadline",
            current.max_read_cv.to_string(),
        ),
        (
            "Smallest slack ratio for an actionable deadline",
            current.min_slack_ratio.to_string(),
        ),
    ]
    .map(|(label, value)| (label, RwSignal::new(value)));
    let apply = move |_| {
        let mut params = studio.slo.params.get_untracked();
        let mut numbers = [0.0; 4];
        for (slot, (label, text)) in numbers.iter_mut().zip(&fields) {
            match text.get_untracked().trim().parse::<f64>() {
                Ok(v) => *slot = v,
                Err(_) => {
                    studio.slo.error.set(Some(format!(
                        "{label}: `{}` is not a number",
                        text.get_untracked()
                    )));
                    return;
                }
            }
        }
        let [start, deadline, cv, slack] = numbers;
        params.start_percentile = start;
        params.deadline_percentile = deadline;
        params.max_read_cv = cv;
        params.min_slack_ratio = slack;
        studio.slo.set_slo_params(params);
    };
    let reset = move |_| {
        let defaults = SloParams::default();
        let values = [
            defaults.start_percentile,
            defaults.deadline_percentile,
            defaults.max_read_cv,
            defaults.min_slack_ratio,
        ];
        for ((_, text), v) in fields.iter().zip(values) {
            text.set(v.to_string());
        }
        studio.slo.set_slo_params(defaults);
    };
    view! {
        <div class="settings">
            {fields
                .into_iter()
                .map(|(label, text)| {
                    view! {
                        <label class="field">
                            <span class="field-label">{label}</span>
                            <input
                                type="number"
                                step="any"
                                prop:value=move || text.get()
                                on:input=move |ev| text.set(event_target_value(&ev))
                            />
                        </label>
                    }
                })
                .collect_view()}
            <div class="settings-actions">
                <button class="button primary small" on:click=apply>"Infer again"</button>
                <button class="button ghost small" on:click=reset>"Paper defaults"</button>
            </div>
        </div>
    }
}

// ------------------------------------------------------------ selected job

/// The selected job: its chart and controls, quality figures and decision.
#[component]
fn JobDetail() -> impl IntoView {
    let slo = expect_context::<Studio>().slo;
    move || {
        slo.selected.get().map(|job| {
            view! {
                <div class="detail">
                    <FitCard/>
                    <div class="detail-side">
                        <QualityCard/>
                        <DecisionCard job=job/>
                    </div>
                </div>
            }
        })
    }
}

/// Chart of the history and `R*`, the model controls, the LP figures.
#[component]
fn FitCard() -> impl IntoView {
    let slo = expect_context::<Studio>().slo;
    let placeholder = Signal::derive(move || {
        match slo.fit_state() {
            FitState::Failed => "No reservation: the fit was not accepted (see above).",
            _ => "Fitting the reservation…",
        }
        .to_owned()
    });
    let state = move || slo.fit_state().label();
    let chart: Signal<Option<FitView>> = slo.fit.view.into();
    view! {
        <section class="card fit-card">
            <header class="card-head">
                <h2>{move || slo.selected.get().unwrap_or_default()}</h2>
                <span class="card-note">"history skylines and the proposed reservation R*"</span>
                <span class="fit-status" data-testid="fit-status" data-state=state>
                    {state}
                </span>
            </header>
            <FitControls/>
            <div class="fit-canvas" class:stale=move || slo.fit_state() == FitState::Solving>
                <PlotCanvas data=chart placeholder=placeholder testid="slo-chart"/>
            </div>
            <LpFigures/>
        </section>
    }
}

/// α, step, variant and solver; every change fits again in the worker.
#[component]
fn FitControls() -> impl IntoView {
    let studio = expect_context::<Studio>();
    let model = studio.slo.model;
    let fit = studio.slo.fit.view;
    let cells = move || fit.with(|f| f.as_ref().map(|f| f.model.runs * f.model.steps));
    let simplex_blocked = move || cells().is_some_and(|c| c > SIMPLEX_MAX_CELLS);
    let on_alpha = move |ev| {
        let index = event_target_value(&ev).parse::<usize>().ok();
        if let Some(&alpha) = index.and_then(|i| ALPHAS.get(i)) {
            if model.with_untracked(|m| m.alpha != alpha) {
                studio.slo.set_model(|m| m.alpha = alpha);
            }
        }
    };
    let on_step = move |ev| {
        if let Ok(step) = event_target_value(&ev).parse::<u32>() {
            studio.slo.set_model(|m| m.step_secs = step);
        }
    };
    let on_variant = move |ev| {
        let params = match event_target_value(&ev).as_str() {
            "hadoop" => ModelParams::hadoop(),
            _ => ModelParams::paper(),
        };
        studio.slo.set_model(|m| *m = params);
    };
    let on_solver = move |ev| {
        let solver = match event_target_value(&ev).as_str() {
            "simplex" => SolverKind::Simplex,
            _ => SolverKind::Flow,
        };
        studio.slo.set_model(|m| m.solver = solver);
    };
    let variant = move || model.with(|m| m.variant);
    let solver = move || model.with(|m| m.solver);
    view! {
        <div class="controls">
            <label class="control alpha">
                <span class="field-label">
                    "Over- vs under-allocation " <span class="greek">"α"</span>
                </span>
                <span class="range-row">
                    <input
                        type="range"
                        data-testid="alpha-input"
                        min="0"
                        max=(ALPHAS.len() - 1).to_string()
                        step="1"
                        prop:value=move || model.with(|m| alpha_index(m.alpha)).to_string()
                        on:input=on_alpha
                    />
                    <output class="range-value">{move || model.with(|m| trimmed(m.alpha, 3))}</output>
                </span>
            </label>
            <label class="control">
                <span class="field-label">"Step"</span>
                <select data-testid="step-select" on:change=on_step>
                    {STEPS
                        .into_iter()
                        .map(|s| {
                            view! {
                                <option
                                    value=s.to_string()
                                    prop:selected=move || model.with(|m| m.step_secs == s)
                                >
                                    {format!("{s} s")}
                                </option>
                            }
                        })
                        .collect_view()}
                </select>
            </label>
            <label class="control">
                <span class="field-label">"Variant"</span>
                <select data-testid="variant-select" on:change=on_variant>
                    <option value="paper" prop:selected=move || variant() == Variant::Paper>
                        "paper · two-pass, β = 0.1·V"
                    </option>
                    <option value="hadoop" prop:selected=move || variant() == Variant::Hadoop>
                        "hadoop · fixed β = 0.1"
                    </option>
                </select>
            </label>
            <label class="control">
                <span class="field-label">"Solver"</span>
                <select data-testid="solver-select" on:change=on_solver>
                    <option value="flow" prop:selected=move || solver() == SolverKind::Flow>
                        "flow · network simplex"
                    </option>
                    <option
                        value="simplex"
                        prop:selected=move || solver() == SolverKind::Simplex
                        prop:disabled=simplex_blocked
                    >
                        "simplex · LP as written"
                    </option>
                </select>
            </label>
            {move || {
                simplex_blocked()
                    .then(|| {
                        view! {
                            <p class="control-note">
                                {format!(
                                    "Simplex is offered up to {} runs × steps; this history has {}.",
                                    count(SIMPLEX_MAX_CELLS),
                                    count(cells().unwrap_or(0)),
                                )}
                            </p>
                        }
                    })
            }}
        </div>
    }
}

/// A figure for the LP panel: tiny values in scientific notation.
fn figure(v: f64) -> String {
    if v != 0.0 && v.abs() < 1e-3 {
        format!("{v:.1e}")
    } else {
        trimmed(v, 4)
    }
}

/// The LP's objective, its parts, the first pass, β and the optimality gap.
#[component]
fn LpFigures() -> impl IntoView {
    let slo = expect_context::<Studio>().slo;
    move || slo.fit.view.with(|f| f.as_ref().map(lp_figures))
}

fn lp_figures(fit: &FitView) -> impl IntoView {
    let m = &fit.model;
    let o = m.objective;
    let mut items = vec![
        (
            "objective",
            figure(o.total),
            "α·A_o + (1−α)·A_u + β·ε at R*",
        ),
        (
            "A_o",
            figure(o.over),
            "average over-allocation, container-steps per run",
        ),
        (
            "A_u",
            figure(o.debt),
            "average final debt, container-steps per run",
        ),
        (
            "ε",
            figure(o.epsilon),
            "average normalized instantaneous under-allocation",
        ),
    ];
    if let Some(first) = m.first_pass {
        items.push(("V", figure(first.total), "the first pass's optimum (β = 0)"));
    }
    items.push(("β", figure(m.beta), "weight of ε in the final pass"));
    if let Some(lb) = m.lower_bound {
        items.push(("dual bound", figure(lb), "the flow solver's lower bound"));
    }
    if let Some(gap) = fit.gap {
        let value = if gap.abs() < 1e-9 {
            "≈ 0 · optimal".to_owned()
        } else {
            figure(gap)
        };
        items.push(("gap", value, "objective − dual bound (0: optimal)"));
    }
    items.push((
        "history",
        format!("{} runs × {} steps", count(m.runs), count(m.steps)),
        "the LP's size",
    ));
    let dropped = (!m.dropped_runs.is_empty()).then(|| {
        format!(
            "{} run(s) with an all-zero skyline left out: {}",
            m.dropped_runs.len(),
            m.dropped_runs.join(", ")
        )
    });
    view! {
        <dl class="figures" data-testid="lp-figures">
            {items
                .into_iter()
                .map(|(name, value, title)| {
                    view! {
                        <div title=title>
                            <dt>{name}</dt>
                            <dd>{value}</dd>
                        </div>
                    }
                })
                .collect_view()}
        </dl>
        {fit.note.clone().map(|n| view! { <p class="fit-note">{n}</p> })}
        {dropped.map(|n| view! { <p class="fit-note">{n}</p> })}
    }
}

/// `R*` against the peak and flat-p90 reservations.
#[component]
fn QualityCard() -> impl IntoView {
    let slo = expect_context::<Studio>().slo;
    view! {
        <section class="card">
            <header class="card-head">
                <h2>"Reservation quality"</h2>
                <span class="card-note">"average per history run"</span>
            </header>
            {move || {
                slo.fit.view
                    .with(|f| match f {
                        Some(f) => quality_table(f).into_any(),
                        None => view! { <p class="muted">"Waiting for the fit…"</p> }.into_any(),
                    })
            }}
        </section>
    }
}

fn quality_table(fit: &FitView) -> impl IntoView {
    let q = &fit.quality;
    let rows: [(&str, &str, &Quality); 3] = [
        ("R* (LP)", "lp", &q.lp),
        ("Peak", "peak", &q.peak),
        ("Flat p90", "flat", &q.flat_p90),
    ];
    view! {
        <table class="data quality" data-testid="quality-table">
            <thead>
                <tr>
                    <th>"Reservation"</th>
                    <th class="num" title="Container-hours reserved but not used">"Over c·h"</th>
                    <th class="num" title="Container-hours still owed at the end (catch-up allowed)">
                        "Under c·h"
                    </th>
                    <th class="num" title="Reserved area over the used area (1 is ideal)">"Area ×"</th>
                    <th class="num" title="Share of runs that finish within the reservation">"Done"</th>
                    <th class="num" title="Largest reservation, containers">"Peak"</th>
                </tr>
            </thead>
            <tbody>
                {rows
                    .into_iter()
                    .map(|(label, class, q)| {
                        view! {
                            <tr class=class data-row=class>
                                <td>{label}</td>
                                <td class="num">{trimmed(q.over_allocation_ch, 2)}</td>
                                <td class="num">{trimmed(q.under_allocation_ch, 2)}</td>
                                <td class="num">{format!("{:.2}", q.area_ratio)}</td>
                                <td class="num">{format!("{:.0}%", q.completion_share * 100.0)}</td>
                                <td class="num">{trimmed(q.peak, 1)}</td>
                            </tr>
                        }
                    })
                    .collect_view()}
            </tbody>
        </table>
    }
}

// ------------------------------------------------------------ decisions

/// Minutes as a form value: at most two decimals.
fn minutes(secs: i64) -> String {
    trimmed(secs as f64 / 60.0, 2)
}

/// A skyline as the override field shows it: `;`-separated containers.
fn skyline_text(containers: &[f64]) -> String {
    containers
        .iter()
        .map(|&c| trimmed(c, 3))
        .collect::<Vec<_>>()
        .join(";")
}

/// A form field in minutes, as seconds.
fn parse_minutes(label: &str, text: &str) -> Result<i64, String> {
    match text.trim().parse::<f64>() {
        Ok(m) if m.is_finite() => Ok((m * 60.0).round() as i64),
        _ => Err(format!(
            "{label}: `{}` is not a number of minutes",
            text.trim()
        )),
    }
}

/// The override field's containers (`;`-separated; blanks ignored).
fn parse_skyline(text: &str) -> Result<Vec<f64>, String> {
    text.split(';')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(|t| {
            t.parse::<f64>()
                .map_err(|_| format!("reservation: `{t}` is not a number of containers"))
        })
        .collect()
}

/// A recorded reservation in one line: steps, peak, container-hours.
fn reservation_text(sky: &Skyline) -> String {
    format!(
        "{} × {} s · peak {} · {} c·h",
        sky.len(),
        sky.step_secs,
        trimmed(sky.peak(), 1),
        trimmed(sky.area() / 3600.0, 1)
    )
}

/// The selected job's decision: what is recorded, and the controls.
#[component]
fn DecisionCard(job: String) -> impl IntoView {
    let studio = expect_context::<Studio>();
    let slo = studio.slo;
    let note = RwSignal::new(String::new());
    let start = RwSignal::new(String::new());
    let deadline = RwSignal::new(String::new());
    let skyline = RwSignal::new(String::new());
    let scale = RwSignal::new("100".to_owned());
    let step = RwSignal::new(60u32);
    let job = StoredValue::new(job);
    let decision = move || job.with_value(|j| slo.decision(j));
    let kind = move || decision().map(|d| d.kind);
    let row = move || slo.selected_row();
    let actionable = move || row().is_some_and(|r| r.actionable);
    let fit_ready =
        move || slo.fit_state() == FitState::Ready && slo.fit.view.with(Option::is_some);
    let busy = move || slo.deciding.with(Option::is_some);
    let note_value = move || {
        let n = note.get_untracked().trim().to_owned();
        (!n.is_empty()).then_some(n)
    };
    // The decision's fixed part: the job, its period and first period.
    let base = move |kind: DecisionKind| {
        let r = slo.selected_row()?;
        Some(SloDecision {
            job: job.get_value(),
            kind,
            period_secs: r.period_secs,
            reference: r.reference,
            window: None,
            skyline: None,
            model: slo
                .fit
                .view
                .with_untracked(|f| f.as_ref().map(|f| f.model.params.clone())),
            note: note_value(),
        })
    };
    let sign_off = move |_| {
        let Some(mut d) = base(DecisionKind::SignedOff) else {
            return;
        };
        let window = row().and_then(|r| r.earliest_start_secs.zip(r.deadline_secs));
        d.window = window;
        d.skyline = slo
            .fit
            .view
            .with_untracked(|f| f.as_ref().map(|f| f.model.skyline.clone()));
        studio.slo.decide(d);
    };
    let reject = move |_| {
        if let Some(mut d) = base(DecisionKind::Rejected) {
            d.model = None;
            studio.slo.decide(d);
        }
    };
    let withdraw = move |_| studio.slo.undecide(job.get_value());
    let open_override = move |_| {
        let r = row();
        let recorded = decision().filter(|d| d.kind != DecisionKind::Rejected);
        let (a, d) = match recorded.as_ref().and_then(|d| d.window) {
            Some((a, d)) => (Some(a), Some(d)),
            None => (
                r.as_ref()
                    .and_then(|r| r.earliest_start_secs)
                    .map(|a| a.max(0)),
                r.as_ref().and_then(|r| r.deadline_secs),
            ),
        };
        start.set(a.map(minutes).unwrap_or_default());
        deadline.set(d.map(minutes).unwrap_or_default());
        let sky = recorded.and_then(|d| d.skyline).or_else(|| {
            slo.fit
                .view
                .with_untracked(|f| f.as_ref().map(|f| f.model.skyline.clone()))
        });
        if let Some(sky) = sky {
            skyline.set(skyline_text(&sky.containers));
            step.set(sky.step_secs);
        }
        scale.set("100".into());
        slo.editing.set(true);
    };
    let apply_scale = move |_| {
        let factor = match scale.get_untracked().trim().parse::<f64>() {
            Ok(p) if p.is_finite() => p / 100.0,
            _ => {
                slo.error.set(Some(format!(
                    "scale: `{}` is not a percentage",
                    scale.get_untracked().trim()
                )));
                return;
            }
        };
        let scaled = slo.fit.view.with_untracked(|f| {
            f.as_ref().map(|f| {
                let sky = &f.model.skyline;
                let values: Vec<f64> = sky.containers.iter().map(|c| c * factor).collect();
                (skyline_text(&values), sky.step_secs)
            })
        });
        if let Some((text, s)) = scaled {
            skyline.set(text);
            step.set(s);
        }
    };
    let save_override = move |_| {
        let parsed = (|| {
            let a = parse_minutes("earliest start", &start.get_untracked())?;
            let d = parse_minutes("deadline", &deadline.get_untracked())?;
            let values = parse_skyline(&skyline.get_untracked())?;
            Ok::<_, String>((a, d, values))
        })();
        match parsed {
            Ok((a, d, values)) => {
                if let Some(mut decision) = base(DecisionKind::Overridden) {
                    decision.window = Some((a, d));
                    decision.skyline = Some(Skyline::new(step.get_untracked(), values));
                    studio.slo.decide(decision);
                }
            }
            Err(message) => slo.error.set(Some(message)),
        }
    };
    let period = move || row().map(|r| r.period_secs).unwrap_or(0);
    let inferred = move || {
        row().map(|r| {
            let window = format!(
                "{} → {} after each period start, every {}",
                offset(r.earliest_start_secs),
                offset(r.deadline_secs),
                format_duration(r.period_secs)
            );
            let reason = r.reason.clone();
            view! {
                <p class="slo-line">
                    <span class="field-label">"Inferred window"</span>
                    <span>{window}</span>
                </p>
                {reason.map(|why| view! { <p class="slo-why">{why}</p> })}
            }
        })
    };
    let recorded = move || {
        decision().map(|d| {
            let window = d.window.map_or_else(
                || "no window".to_owned(),
                |(a, b)| format!("{} → {}", offset(Some(a)), offset(Some(b))),
            );
            let reservation = d
                .skyline
                .as_ref()
                .map_or_else(|| "no reservation".to_owned(), reservation_text);
            let note = d.note.clone();
            view! {
                <div class="recorded">
                    <p>
                        <span class="field-label">"Recorded"</span>
                        <span>{format!("{window} · {reservation}")}</span>
                    </p>
                    {note.map(|n| view! { <p class="muted">{format!("“{n}”")}</p> })}
                </div>
            }
        })
    };
    view! {
        <section class="card decision-card">
            <header class="card-head">
                <h2>"Decision"</h2>
                {move || {
                    let label = decision_label(kind());
                    view! { <span class=format!("decision {label}")>{label}</span> }
                }}
            </header>
            {inferred}
            {recorded}
            <label class="field">
                <span class="field-label">"Note (optional)"</span>
                <input
                    type="text"
                    data-testid="decision-note"
                    placeholder="Why it was overridden or rejected"
                    prop:value=move || note.get()
                    on:input=move |ev| note.set(event_target_value(&ev))
                />
            </label>
            <div class="actions decision-actions">
                <button
                    class="button primary"
                    data-testid="sign-off"
                    title="Accept the inferred window and the reservation R* shown"
                    prop:disabled=move || !actionable() || !fit_ready() || busy()
                    on:click=sign_off
                >
                    "Sign off"
                </button>
                <button
                    class="button"
                    data-testid="override"
                    prop:disabled=busy
                    on:click=open_override
                >
                    "Override…"
                </button>
                <button class="button danger" data-testid="reject" prop:disabled=busy on:click=reject>
                    "Reject"
                </button>
                <Show when=move || kind().is_some()>
                    <button
                        class="button ghost"
                        data-testid="withdraw"
                        prop:disabled=busy
                        on:click=withdraw
                    >
                        "Withdraw"
                    </button>
                </Show>
            </div>
            <Show when=move || !actionable()>
                <p class="hint">
                    "No actionable deadline, so nothing to sign off as is: override with your own window, or reject."
                </p>
            </Show>
            <Show when=move || slo.editing.get()>
                <div class="override-form" data-testid="override-form">
                    <div class="form-row">
                        <label class="field">
                            <span class="field-label">"Earliest start (min)"</span>
                            <input
                                type="number"
                                step="any"
                                data-testid="override-start"
                                prop:value=move || start.get()
                                on:input=move |ev| start.set(event_target_value(&ev))
                            />
                        </label>
                        <label class="field">
                            <span class="field-label">"Deadline (min)"</span>
                            <input
                                type="number"
                                step="any"
                                data-testid="override-deadline"
                                prop:value=move || deadline.get()
                                on:input=move |ev| deadline.set(event_target_value(&ev))
                            />
                        </label>
                    </div>
                    <p class="hint">
                        {move || {
                            format!(
                                "Minutes after each period start; the period is {} ({} min).",
                                format_duration(period()),
                                minutes(period())
                            )
                        }}
                    </p>
                    <label class="field">
                        <span class="field-label">
                            {move || format!("Reservation: containers per {} s step, ;-separated", step.get())}
                        </span>
                        <textarea
                            rows="3"
                            data-testid="override-skyline"
                            prop:value=move || skyline.get()
                            on:input=move |ev| skyline.set(event_target_value(&ev))
                        ></textarea>
                    </label>
                    <div class="form-row scale-row">
                        <span class="field-label">"Scale R* by"</span>
                        <input
                            type="number"
                            step="any"
                            data-testid="override-scale"
                            aria-label="Percentage of R*"
                            prop:value=move || scale.get()
                            on:input=move |ev| scale.set(event_target_value(&ev))
                        />
                        <span>"%"</span>
                        <button class="button small" on:click=apply_scale>
                            "Use scaled R*"
                        </button>
                    </div>
                    <div class="actions">
                        <button
                            class="button primary"
                            data-testid="override-save"
                            prop:disabled=busy
                            on:click=save_override
                        >
                            "Save override"
                        </button>
                        <button class="button ghost" on:click=move |_| slo.editing.set(false)>
                            "Cancel"
                        </button>
                    </div>
                </div>
            </Show>
        </section>
    }
}

/// Every decision, loaded job or not, with export.
#[component]
fn DecisionsCard() -> impl IntoView {
    let studio = expect_context::<Studio>();
    let slo = studio.slo;
    let none = move || slo.decisions.with(Vec::is_empty);
    let rows = move || {
        let decisions = slo.decisions.get();
        if decisions.is_empty() {
            return view! {
                <tr>
                    <td class="empty" colspan="6">
                        "No decisions yet: sign off, override or reject a job's SLO above."
                    </td>
                </tr>
            }
            .into_any();
        }
        decisions
            .into_iter()
            .map(|d| {
                let (recurring, grouped) = slo.table.with(|t| {
                    t.as_ref().map_or((false, false), |t| {
                        (
                            t.rows.iter().any(|r| r.job == d.job),
                            t.non_periodic.iter().any(|g| g.name == d.job),
                        )
                    })
                });
                let status = match (recurring, grouped) {
                    (true, _) => "loaded",
                    (false, true) => "not recurring now",
                    (false, false) => "job not loaded",
                };
                let label = decision_label(Some(d.kind));
                let job = d.job.clone();
                let window = d.window.map_or_else(
                    || "—".to_owned(),
                    |(a, b)| format!("{} → {}", offset(Some(a)), offset(Some(b))),
                );
                let reservation = d.skyline.as_ref().map_or_else(|| "—".to_owned(), reservation_text);
                view! {
                    <tr data-testid="decision-row" data-job=d.job.clone() data-loaded=recurring.to_string()>
                        <td class="job-name">
                            {if recurring {
                                let job = job.clone();
                                view! {
                                    <button class="link" on:click=move |_| studio.slo.select_slo(job.clone())>
                                        {d.job.clone()}
                                    </button>
                                }
                                    .into_any()
                            } else {
                                view! { <span>{d.job.clone()}</span> }.into_any()
                            }}
                        </td>
                        <td>
                            <span class=format!("decision {label}")>{label}</span>
                        </td>
                        <td class="num">{window}</td>
                        <td class="num">{reservation}</td>
                        <td class="reason" title=d.note.clone().unwrap_or_default()>{d.note.clone().unwrap_or_default()}</td>
                        <td>
                            <span class="load-state" class:missing=!recurring>{status}</span>
                        </td>
                        <td>
                            <button
                                class="button ghost small"
                                data-testid="withdraw-row"
                                on:click=move |_| studio.slo.undecide(job.clone())
                            >
                                "Withdraw"
                            </button>
                        </td>
                    </tr>
                }
            })
            .collect_view()
            .into_any()
    };
    view! {
        <section class="card">
            <header class="card-head">
                <h2>"Decisions"</h2>
                <span class="card-note">
                    "what the agenda receives · saved in this browser, kept when a job's runs are removed"
                </span>
                <div class="head-actions">
                    {[ExportFormat::Csv, ExportFormat::Json]
                        .map(|format| {
                            let ext = format.extension();
                            view! {
                                <button
                                    class="button small"
                                    data-testid=format!("export-{ext}")
                                    prop:disabled=none
                                    on:click=move |_| studio.slo.export_decisions(format)
                                >
                                    {format!("Export {}", ext.to_uppercase())}
                                </button>
                            }
                        })
                        .collect_view()}
                </div>
            </header>
            <div class="table-scroll">
                <table class="data">
                    <thead>
                        <tr>
                            <th>"Job"</th>
                            <th>"Decision"</th>
                            <th class="num">"Window (from period start)"</th>
                            <th class="num">"Reservation"</th>
                            <th>"Note"</th>
                            <th>"Runs"</th>
                            <th></th>
                        </tr>
                    </thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alpha_steps_hold_the_published_defaults() {
        assert_eq!(ALPHAS[alpha_index(0.01)], 0.01);
        assert_eq!(ALPHAS[alpha_index(0.1)], 0.1);
        assert_eq!(alpha_index(0.0), 0);
        assert_eq!(alpha_index(1.0), ALPHAS.len() - 1);
        assert_eq!(ALPHAS[alpha_index(0.011)], 0.01);
        assert!(ALPHAS.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn form_fields_parse_or_say_why() {
        assert_eq!(parse_minutes("deadline", " 50 "), Ok(3000));
        assert_eq!(parse_minutes("start", "0.5"), Ok(30));
        assert!(parse_minutes("start", "soon")
            .unwrap_err()
            .contains("`soon`"));
        assert_eq!(parse_skyline("1; 2.5;;3 "), Ok(vec![1.0, 2.5, 3.0]));
        assert!(parse_skyline("1;x").unwrap_err().contains("`x`"));
        assert_eq!(skyline_text(&[15.333_333, 30.0, 0.5]), "15.333;30;0.5");
        assert_eq!(minutes(63), "1.05");
        assert_eq!(minutes(3000), "50");
    }

    #[test]
    fn windows_and_labels() {
        assert_eq!(offset(Some(63)), "+1m3s");
        assert_eq!(offset(None), "—");
        assert_eq!(offset(Some(-120)), "−2m");
        assert_eq!(
            window_text((1_793_579_130, 1_793_611_696)),
            "2026-11-02 00:25 → 09:28"
        );
        assert_eq!(decision_label(None), "pending");
        assert_eq!(decision_label(Some(DecisionKind::SignedOff)), "signed-off");
    }
}
