//! The recurring jobs card: filterable, sortable, with the groups that are
//! not periodic and the inference settings.

use super::labels::{decision_label, offset, ratio, window_text};
use super::settings::SettingsForm;
use crate::parts::slos::protocol::SloRow;
use crate::state::Studio;
use crate::widgets::card::Card;
use leptos::prelude::*;
use skyplan_engine::slo::DecisionKind;
use skyplan_engine::time::format_duration;
use std::cmp::Ordering;

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
pub fn JobsCard() -> impl IntoView {
    let slo = expect_context::<Studio>().slo;
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
        <Card
            title="Recurring jobs"
            head=move || {
                view! {
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
                }
            }
        >
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
        </Card>
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
