//! The Traces panel: import files (drop, pick, demo), see progress and
//! problems, the loaded files and totals, and chart jobs and series.

use super::charts::ChartCanvas;
use super::desk::{job_key, series_key};
use super::problems::ProblemList;
use super::protocol::TracesRequest;
use crate::parts::forecast::panel::ForecastCard;
use crate::state::Studio;
use crate::widgets::button::button;
use crate::widgets::card::Card;
use crate::widgets::field::checkbox;
use crate::widgets::format::{bytes, count, percent, span};
use crate::widgets::{Dropzone, ProgressBar, Stat};
use leptos::prelude::*;
use skyplan_engine::{FileSummary, Format};

/// The Traces panel.
#[component]
pub fn TracesPanel() -> impl IntoView {
    view! {
        <div class="traces">
            <aside class="sidebar">
                <ImportCard/>
                <TotalsCard/>
            </aside>
            <div class="main-column">
                <Problems/>
                <ChartCard/>
                <ForecastCard/>
                <FilesCard/>
            </div>
        </div>
    }
}

/// Drop zone, picker, import options, demo and clear, progress bars.
#[component]
fn ImportCard() -> impl IntoView {
    let studio = expect_context::<Studio>();
    // A workspace bundle dropped here is opened; trace files are imported.
    let on_files = Callback::new(move |files: web_sys::FileList| {
        studio.take_files((0..files.length()).filter_map(|i| files.item(i)).collect());
    });
    view! {
        <Card title="Import traces">
            <Dropzone on_files=on_files/>
            <div class="options">
                <label class="field">
                    <span class="field-label">"Format"</span>
                    <select
                        data-testid="format-select"
                        on:change=move |ev| {
                            studio.traces.format.set(event_target_value(&ev).parse::<Format>().ok());
                        }
                    >
                        <option value="" selected>"Detect"</option>
                        {Format::ALL
                            .into_iter()
                            .map(|f| view! { <option value=f.id()>{f.label()}</option> })
                            .collect_view()}
                    </select>
                </label>
                {checkbox(
                    "lenient-toggle",
                    "Lenient — keep good lines, skip bad ones",
                    move || studio.traces.lenient.get(),
                    move |on| studio.traces.lenient.set(on),
                )}
            </div>
            <div class="actions">
                {button("button primary", "load-demo", "Load demo workspace", || false, move || studio.traces.send(TracesRequest::LoadDemo))}
                {button("button danger", "clear", "Clear", || false, move || studio.traces.send(TracesRequest::Clear))}
            </div>
            <div class="progress-list">
                {move || {
                    studio
                        .traces.imports
                        .get()
                        .into_iter()
                        .map(|i| {
                            let pct = percent(i.done, i.total);
                            let left = i
                                .seconds_left()
                                .map(|s| format!(" · about {} left", time_left(s)))
                                .unwrap_or_default();
                            let detail = format!("{} / {} · {pct:.0}%{left}", bytes(i.done), bytes(i.total));
                            let ticket = i.ticket;
                            view! {
                                <div class="import-progress">
                                    <ProgressBar
                                        testid="progress"
                                        name=i.name.clone()
                                        label=i.name.clone()
                                        detail=Signal::from(detail)
                                        fraction=pct / 100.0
                                    />
                                    <button
                                        class="button ghost small"
                                        data-testid="import-cancel"
                                        aria-label=format!("Cancel importing {}", i.name)
                                        on:click=move |_| studio.traces.cancel_import(ticket)
                                    >
                                        "Cancel"
                                    </button>
                                </div>
                            }
                        })
                        .collect_view()
                }}
            </div>
        </Card>
    }
}

/// Workspace totals.
#[component]
fn TotalsCard() -> impl IntoView {
    let studio = expect_context::<Studio>();
    let total = move |f: fn(&super::protocol::WorkspaceView) -> usize| {
        Signal::derive(move || studio.traces.workspace.with(f))
    };
    view! {
        <Card title="Workspace">
            <div class="stats">
                <Stat label="files" testid="count-files" value=total(|w| w.summary.files.len())/>
                <Stat label="jobs" testid="count-jobs" value=total(|w| w.summary.jobs)/>
                <Stat label="runs" testid="count-runs" value=total(|w| w.summary.runs)/>
                <Stat label="series" testid="count-series" value=total(|w| w.summary.series)/>
                <Stat label="points" testid="count-points" value=total(|w| w.summary.points)/>
                <Stat
                    label="workload jobs"
                    testid="count-workload"
                    value=total(|w| w.summary.workload_jobs)
                />
            </div>
            <p class="span-line">
                <span class="field-label">"Time span"</span>
                <span data-testid="workspace-span">
                    {move || studio.traces.workspace.with(|w| span(w.summary.span))}
                </span>
            </p>
        </Card>
    }
}

/// Import problems, until dismissed.
#[component]
fn Problems() -> impl IntoView {
    let studio = expect_context::<Studio>();
    view! {
        <ProblemList
            problems=studio.traces.problems
            on_dismiss=Callback::new(move |id| studio.traces.dismiss(id))
            on_dismiss_all=Callback::new(move |()| studio.traces.problems.set(Vec::new()))
        />
    }
}

/// The chart with its selector of jobs and series.
#[component]
fn ChartCard() -> impl IntoView {
    let studio = expect_context::<Studio>();
    let options = move || {
        studio.traces.workspace.with(|w| {
            let selected = studio.traces.selection.get();
            let jobs = w
                .jobs
                .iter()
                .map(|j| {
                    let key = job_key(&j.name);
                    let label = format!("{} · {} runs · peak {:.0}", j.name, j.runs, j.peak);
                    let is = key == selected;
                    view! { <option value=key prop:selected=is>{label}</option> }
                })
                .collect_view();
            let series = w
                .series
                .iter()
                .map(|s| {
                    let key = series_key(s.index);
                    let label = format!(
                        "{} · {} · {} samples",
                        s.server,
                        s.resource,
                        count(s.points)
                    );
                    let is = key == selected;
                    view! { <option value=key prop:selected=is>{label}</option> }
                })
                .collect_view();
            view! {
                <optgroup label="Jobs — run skylines">{jobs}</optgroup>
                <optgroup label="Utilization series">{series}</optgroup>
            }
        })
    };
    let placeholder = Signal::derive(move || {
        if !studio.page.ready.get() {
            "Starting the engine…".to_owned()
        } else if studio.traces.selection.with(String::is_empty) {
            "Nothing to chart yet: import traces or load the demo workspace.".to_owned()
        } else {
            "Loading chart…".to_owned()
        }
    });
    view! {
        <Card
            title="Chart"
            class="chart-card"
            head=move || {
                view! {
                    <select
                        class="chart-select"
                        data-testid="chart-select"
                        aria-label="What to chart"
                        prop:disabled=move || studio.traces.selection.with(String::is_empty)
                        on:change=move |ev| studio.traces.select_chart(event_target_value(&ev))
                    >
                        {options}
                    </select>
                }
            }
        >
            <ChartCanvas data=studio.traces.chart placeholder=placeholder/>
        </Card>
    }
}

/// The loaded files, one row each with a Remove button.
#[component]
fn FilesCard() -> impl IntoView {
    let studio = expect_context::<Studio>();
    let rows = move || {
        let files = studio.traces.workspace.with(|w| w.summary.files.clone());
        if files.is_empty() {
            let empty = "No files loaded. Drop traces on the left or load the demo workspace.";
            return view! {
                <tr>
                    <td class="empty" colspan="12">{empty}</td>
                </tr>
            }
            .into_any();
        }
        files
            .into_iter()
            .map(|f| view! { <FileRow file=f/> })
            .collect_view()
            .into_any()
    };
    view! {
        <Card title="Loaded files">
            <div class="table-scroll">
                <table class="files">
                    <thead>
                        <tr>
                            <th>"File"</th>
                            <th>"Format"</th>
                            <th class="num">"Size"</th>
                            <th class="num">"Lines"</th>
                            <th class="num">"Jobs"</th>
                            <th class="num">"Runs"</th>
                            <th class="num">"Series"</th>
                            <th class="num">"Points"</th>
                            <th class="num" title="Workload jobs (size features)">"Workload"</th>
                            <th class="num">"Skipped"</th>
                            <th>"Time span (UTC)"</th>
                            <th></th>
                        </tr>
                    </thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
        </Card>
    }
}

/// A file's time span on two lines, `start →` over `end`.
fn span_lines(
    span: Option<(skyplan_engine::Timestamp, skyplan_engine::Timestamp)>,
) -> impl IntoView {
    use skyplan_engine::time::format_timestamp;
    match span {
        Some((a, b)) => view! {
            <span>{format!("{} →", format_timestamp(a))}</span>
            <br/>
            <span>{format_timestamp(b)}</span>
        }
        .into_any(),
        None => "—".into_any(),
    }
}

/// Seconds left in words: `12 s`, `4 min`, `1.5 h`.
fn time_left(secs: f64) -> String {
    if secs < 90.0 {
        format!("{:.0} s", secs.ceil())
    } else if secs < 5400.0 {
        format!("{:.0} min", (secs / 60.0).ceil())
    } else {
        format!("{:.1} h", secs / 3600.0)
    }
}

/// What the reader said of a file (aggregated, left out, estimated), and
/// for a large import kept as its records, where they came from.
fn file_notes(file: &FileSummary) -> impl IntoView {
    let mut notes = file.notes.clone();
    if file.kept {
        if let Some(s) = &file.source {
            notes.insert(
                0,
                format!(
                    "kept as its records, not its bytes: {} ({}, xxh3-128 {})",
                    s.name,
                    bytes(s.bytes),
                    s.hash
                ),
            );
        }
    }
    (!notes.is_empty()).then(|| {
        view! {
            <ul class="file-notes" data-testid="file-notes">
                {notes.into_iter().map(|n| view! { <li>{n}</li> }).collect_view()}
            </ul>
        }
    })
}

/// One loaded file.
#[component]
fn FileRow(file: FileSummary) -> impl IntoView {
    let studio = expect_context::<Studio>();
    let id = file.id;
    let name = file.name.clone();
    view! {
        <tr data-testid="file-row" data-name=file.name.clone()>
            <td class="file-name" title=file.name.clone()>
                {file.name.clone()}
                {file_notes(&file)}
            </td>
            <td title=file.format.label()>
                <span class="badge">{file.format.id()}</span>
            </td>
            <td class="num">{bytes(file.bytes)}</td>
            <td class="num">{file.lines}</td>
            <td class="num">{file.jobs}</td>
            <td class="num">{file.runs}</td>
            <td class="num">{file.series}</td>
            <td class="num">{file.points}</td>
            <td class="num">{file.workload_jobs}</td>
            <td class="num" class:warn={file.skipped_lines > 0}>{file.skipped_lines}</td>
            <td class="span-cell">{span_lines(file.span)}</td>
            <td>
                <button
                    class="button ghost small"
                    data-testid="remove-file"
                    aria-label=format!("Remove {name}")
                    on:click=move |_| studio.traces.send(TracesRequest::Remove { id })
                >
                    "Remove"
                </button>
            </td>
        </tr>
    }
}
