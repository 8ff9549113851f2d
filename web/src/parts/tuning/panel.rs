//! The Tuning panel (AdaptiveConfig, TPDS 2019): the queue tree the grid
//! starts from (edited here or read from the cluster's
//! `capacity-scheduler.xml` / Fair allocation file), the job mix of a window
//! of the loaded history, every candidate configuration's estimated mean
//! latency by Algorithm 1 with the best marked, the chosen configuration's
//! schedule (Figure 7's picture), the simulated latency of the best against
//! the current configuration, Algorithm 3's split among several groups, and
//! the tuned configuration as YARN XML. All work runs in the worker.
//!
//! Test ids: `tuning-panel`, `tuning-scheduler`, `tuning-queue-count`,
//! `tuning-queue-row` (`data-queue`), `tuning-share`, `tuning-policy`,
//! `tuning-capacity-sum`, `tuning-xml-input`, `tuning-source`,
//! `tuning-run`, `tuning-status` (`data-running`), `tuning-progress`,
//! `tuning-error`, `tuning-best` (`data-latency`), `tuning-current`
//! (`data-latency`), `tuning-simulated`, `tuning-candidates` and
//! `tuning-schedule` and `tuning-curves` (canvases with `data-drawn`),
//! `tuning-candidate-row` (`data-index`, `data-best`, `data-latency`),
//! `tuning-mix-row`, `tuning-split-row`, `tuning-group`, `tuning-adopt`,
//! `tuning-export`.

use super::charts::{CandidatesPlot, CurvesPlot, SchedulePlot};
use super::desk::{QueueField, TuningForm};
use super::protocol::GroupView;
use crate::state::Studio;
use crate::toolkit::run::{JobStatus, RunControls};
use crate::widgets::field::{text_field, Field};
use crate::widgets::format::{count, trimmed};
use crate::widgets::PlotCanvas;
use leptos::prelude::*;
use skyplan_engine::tuning::{Policy, SchedulerKind, SearchMethod};
use web_sys::HtmlInputElement;

/// The settings' text fields.
const FIELDS: [Field<TuningForm>; 6] = [
    (
        "Containers R",
        "tuning-containers",
        |f| f.containers.clone(),
        |f, v| f.containers = v,
    ),
    (
        "Per machine",
        "tuning-per-machine",
        |f| f.per_machine.clone(),
        |f, v| f.per_machine = v,
    ),
    (
        "First job",
        "tuning-first-job",
        |f| f.first_job.clone(),
        |f, v| f.first_job = v,
    ),
    (
        "Jobs per group",
        "tuning-jobs",
        |f| f.jobs.clone(),
        |f, v| f.jobs = v,
    ),
    (
        "Groups",
        "tuning-groups",
        |f| f.groups.clone(),
        |f, v| f.groups = v,
    ),
    ("Seed", "tuning-seed", |f| f.seed.clone(), |f, v| f.seed = v),
];

/// The group shown, from the last run.
fn shown_group(studio: Studio) -> Option<GroupView> {
    let desk = studio.tuning;
    let k = desk.group.get();
    desk.run.view.with(|v| v.as_ref()?.groups.get(k).cloned())
}

/// The Tuning panel.
#[component]
pub fn TuningPanel() -> impl IntoView {
    view! {
        <div class="pricing-page tuning-page" data-testid="tuning-panel">
            <div class="agenda">
                <div class="main-column">
                    <ResultsCard/>
                    <ScheduleCard/>
                    <SplitCard/>
                </div>
                <aside class="sidebar">
                    <QueuesCard/>
                    <RunCard/>
                </aside>
            </div>
        </div>
    }
}

/// The queue tree: scheduler, queues with their shares, bounds and
/// policies; importable from YARN files.
#[component]
fn QueuesCard() -> impl IntoView {
    let studio = expect_context::<Studio>();
    let desk = studio.tuning;
    let fair = move || desk.current.with(|c| c.scheduler == SchedulerKind::Fair);
    let rows = move || {
        let config = desk.current.get();
        let weight = config.scheduler == SchedulerKind::Fair;
        config
            .queues
            .iter()
            .enumerate()
            .map(|(i, q)| {
                let share = if weight {
                    trimmed(q.share, 3)
                } else {
                    trimmed(q.share * 100.0, 2)
                };
                let policy = q.policy;
                let input = move |field: QueueField, value: String, testid: &'static str| {
                    view! {
                        <input
                            type="text"
                            inputmode="decimal"
                            class="queue-input"
                            data-testid=testid
                            prop:value=value
                            on:change=move |ev| desk.edit_queue(i, field, &event_target_value(&ev))
                        />
                    }
                };
                view! {
                    <tr data-testid="tuning-queue-row" data-queue=q.name.clone()>
                        <td>{format!("root.{}", q.name)}</td>
                        <td class="num">{input(QueueField::Share, share, "tuning-share")}</td>
                        <td class="num">
                            {input(QueueField::Min, trimmed(q.min_share * 100.0, 1), "tuning-min")}
                        </td>
                        <td class="num">
                            {input(QueueField::Max, trimmed(q.max_share * 100.0, 1), "tuning-max")}
                        </td>
                        <td>
                            <select
                                data-testid="tuning-policy"
                                on:change=move |ev| {
                                    if let Some(p) = Policy::parse(&event_target_value(&ev)) {
                                        desk.set_policy(i, p);
                                    }
                                }
                            >
                                {Policy::ALL
                                    .into_iter()
                                    .map(|p| {
                                        view! {
                                            <option value=p.name() selected=p == policy>
                                                {p.name()}
                                            </option>
                                        }
                                    })
                                    .collect_view()}
                            </select>
                        </td>
                    </tr>
                }
            })
            .collect_view()
    };
    let capacity_sum = move || {
        desk.current.with(|c| {
            (c.scheduler == SchedulerKind::Capacity).then(|| {
                let sum: f64 = c.queues.iter().map(|q| q.share).sum::<f64>() * 100.0;
                let ok = (sum - 100.0).abs() < 1e-4;
                view! {
                    <p class="hint" class:warn=!ok data-testid="tuning-capacity-sum">
                        {format!(
                            "Capacities sum to {} %{}",
                            trimmed(sum, 2),
                            if ok { "" } else { " — YARN needs 100 %" }
                        )}
                    </p>
                }
            })
        })
    };
    view! {
        <section class="card">
            <header class="card-head">
                <h2>"Queues"</h2>
                <span class="card-note" data-testid="tuning-source">
                    {move || match desk.source.get() {
                        Some(name) => format!("from {name}"),
                        None => "our own".to_owned(),
                    }}
                </span>
            </header>
            <p class="card-text">
                "The cluster's current configuration: the grid keeps its queues and bounds, and its latency is the yardstick. Read it from capacity-scheduler.xml or a Fair allocation file, or edit it here."
            </p>
            <div class="form-grid two">
                <label class="field">
                    <span class="field-label">"Scheduler"</span>
                    <select
                        data-testid="tuning-scheduler"
                        on:change=move |ev| {
                            let kind = if event_target_value(&ev) == "fair" {
                                SchedulerKind::Fair
                            } else {
                                SchedulerKind::Capacity
                            };
                            desk.set_scheduler(kind);
                        }
                    >
                        <option value="capacity" selected=move || !fair()>"Capacity"</option>
                        <option value="fair" selected=fair>"Fair"</option>
                    </select>
                </label>
                <label class="field">
                    <span class="field-label">"Queues"</span>
                    <select
                        data-testid="tuning-queue-count"
                        on:change=move |ev| {
                            if let Ok(n) = event_target_value(&ev).parse::<usize>() {
                                desk.set_queue_count(n);
                            }
                        }
                    >
                        {[1usize, 2, 4, 6]
                            .into_iter()
                            .map(|n| {
                                view! {
                                    <option
                                        value=n.to_string()
                                        selected=move || desk.current.with(|c| c.queues.len() == n)
                                    >
                                        {n.to_string()}
                                    </option>
                                }
                            })
                            .collect_view()}
                    </select>
                </label>
            </div>
            <div class="table-scroll">
                <table class="data queue-table">
                    <thead>
                        <tr>
                            <th>"Queue"</th>
                            <th class="num">{move || if fair() { "Weight" } else { "Capacity %" }}</th>
                            <th class="num">"Min %"</th>
                            <th class="num">"Max %"</th>
                            <th>"Policy"</th>
                        </tr>
                    </thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
            {capacity_sum}
            <div class="actions">
                <label class="button small">
                    "Read YARN file…"
                    <input
                        type="file"
                        accept=".xml,text/xml,application/xml"
                        data-testid="tuning-xml-input"
                        style="display: none"
                        on:change=move |ev| {
                            let input: HtmlInputElement = event_target(&ev);
                            if let Some(file) = input.files().and_then(|f| f.get(0)) {
                                desk.import_xml(file);
                            }
                            input.set_value("");
                        }
                    />
                </label>
                <Show when=move || desk.source.with(Option::is_some)>
                    <button class="button small" on:click=move |_| desk.forget_xml()>
                        "Forget file"
                    </button>
                </Show>
            </div>
            <p class="hint">
                "The grid pairs queues (1, 2, 4 or 6): shares in steps between 1/6 and 5/6 of a pair (1/3–2/3 with more queues) and, under Fair, fifo, fair or drf in every queue."
            </p>
        </section>
    }
}

/// The window of the history and the search settings; Tune.
#[component]
fn RunCard() -> impl IntoView {
    let studio = expect_context::<Studio>();
    let desk = studio.tuning;
    let status = desk.run.status("searching", "", "idle", |v| {
        format!(
            "{} group(s) of the {} history jobs in {} ms",
            v.groups.len(),
            count(v.history_jobs),
            trimmed(v.millis, 0)
        )
    });
    view! {
        <section class="card">
            <header class="card-head">
                <h2>"Tune"</h2>
                <JobStatus job=desk.run testid="tuning-status" text=status/>
            </header>
            <p class="card-text">
                "A window of the loaded job history (SWIM traces, job histories): its jobs' tasks from their bytes, priorities mapped to queues as §4.3, all waiting at once unless arrivals are kept. Several groups are consecutive windows sharing R containers."
            </p>
            <div class="form-grid two">
                {FIELDS.into_iter().map(|f| text_field(desk.form, f)).collect_view()}
                <label class="field">
                    <span class="field-label">"Search"</span>
                    <select
                        data-testid="tuning-search"
                        on:change=move |ev| {
                            let search = if event_target_value(&ev) == "exhaustive" {
                                SearchMethod::Exhaustive
                            } else {
                                SearchMethod::Rrs
                            };
                            desk.form.update(|f| f.search = search);
                        }
                    >
                        <option value="rrs">"Recursive random (p 0.99)"</option>
                        <option value="exhaustive">"Exhaustive"</option>
                    </select>
                </label>
                <label class="field">
                    <span class="field-label">"Parent queue (YARN files)"</span>
                    <input
                        type="text"
                        data-testid="tuning-parent"
                        prop:value=move || desk.form.with(|f| f.parent.clone())
                        on:change=move |ev| {
                            let v = event_target_value(&ev);
                            desk.form.update(|f| f.parent = v);
                        }
                    />
                </label>
            </div>
            <label class="check">
                <input
                    type="checkbox"
                    data-testid="tuning-arrivals"
                    prop:checked=move || desk.form.with(|f| f.arrivals)
                    on:change=move |ev| {
                        let on = event_target_checked(&ev);
                        desk.form.update(|f| f.arrivals = on);
                    }
                />
                " Keep submission times"
            </label>
            <RunControls
                job=desk.run
                testid="tuning"
                label="Tune"
                busy="searching"
                on_run=move || desk.tune()
            />
        </section>
    }
}

/// The candidates of the group shown: the best against the current
/// configuration, estimated and simulated; the bar chart and the table.
#[component]
fn ResultsCard() -> impl IntoView {
    let studio = expect_context::<Studio>();
    let desk = studio.tuning;
    let chosen = move || desk.schedule.with(|s| s.as_ref().map(|s| s.candidate));
    let plot = Signal::derive(move || {
        let group = shown_group(studio)?;
        let ticket = desk.run.view.with(|v| v.as_ref().map(|v| v.ticket))?;
        let chosen = chosen();
        Some(CandidatesPlot {
            key: format!(
                "{ticket}:{}:{}",
                desk.group.get(),
                chosen.unwrap_or(usize::MAX)
            ),
            group,
            chosen,
        })
    });
    let placeholder = Signal::derive(move || {
        if desk.run.running.get() {
            "Searching in the worker…".to_owned()
        } else {
            "Press Tune: every configuration of the grid is compared by Algorithm 1 on the window's jobs.".to_owned()
        }
    });
    let groups = move || {
        desk.run.view.with(|v| {
            v.as_ref().filter(|v| v.groups.len() > 1).map(|v| {
                v.groups
                    .iter()
                    .enumerate()
                    .map(|(k, g)| {
                        view! {
                            <option value=k.to_string() selected=move || desk.group.get() == k>
                                {g.name.clone()}
                            </option>
                        }
                    })
                    .collect_view()
            })
        })
    };
    let summary = move || {
        shown_group(studio).map(|g| {
            let best = &g.candidates[g.best];
            let gain = if g.current_secs > 0.0 {
                (1.0 - best.latency_secs / g.current_secs) * 100.0
            } else {
                0.0
            };
            let sim_gain = if g.simulated_current_secs > 0.0 {
                (1.0 - g.simulated_best_secs / g.simulated_current_secs) * 100.0
            } else {
                0.0
            };
            view! {
                <div class="agenda-figures tuning-figures">
                    <div class="figure" data-testid="tuning-best" data-latency=best.latency_secs.to_string()>
                        <span class="figure-label">"Best (estimated)"</span>
                        <span class="figure-value">{format!("{} s", trimmed(best.latency_secs, 1))}</span>
                        <span class="figure-note">{best.label.clone()}</span>
                    </div>
                    <div class="figure" data-testid="tuning-current" data-latency=g.current_secs.to_string()>
                        <span class="figure-label">"Current (estimated)"</span>
                        <span class="figure-value">{format!("{} s", trimmed(g.current_secs, 1))}</span>
                        <span class="figure-note">{format!("best is {} % lower", trimmed(gain, 1))}</span>
                    </div>
                    <div class="figure" data-testid="tuning-simulated">
                        <span class="figure-label">"Simulated (YARN, heartbeats, AMs)"</span>
                        <span class="figure-value">
                            {format!(
                                "{} s vs {} s",
                                trimmed(g.simulated_best_secs, 1),
                                trimmed(g.simulated_current_secs, 1)
                            )}
                        </span>
                        <span class="figure-note">
                            {format!("best vs current: {} % lower", trimmed(sim_gain, 1))}
                        </span>
                    </div>
                </div>
            }
        })
    };
    let rows = move || {
        let Some(g) = shown_group(studio) else {
            return Vec::new();
        };
        let chosen = chosen();
        CandidatesPlot::order(&g)
            .into_iter()
            .enumerate()
            .map(|(rank, k)| {
                let c = &g.candidates[k];
                view! {
                    <tr
                        data-testid="tuning-candidate-row"
                        data-index=k.to_string()
                        data-best=(k == g.best).to_string()
                        data-latency=c.latency_secs.to_string()
                        class:selected=chosen == Some(k)
                        on:click=move |_| desk.pick(k)
                    >
                        <td class="num">{(rank + 1).to_string()}</td>
                        <td>{c.label.clone()}{if k == g.best { " ★" } else { "" }}</td>
                        <td class="num">{trimmed(c.latency_secs, 1)}</td>
                    </tr>
                }
            })
            .collect::<Vec<_>>()
    };
    let mix = move || {
        shown_group(studio)
            .map(|g| {
                g.mix
                    .into_iter()
                    .map(|m| {
                        view! {
                            <tr data-testid="tuning-mix-row">
                                <td>{m.queue}</td>
                                <td class="num">{count(m.jobs)}</td>
                                <td class="num">{count(m.tasks)}</td>
                                <td class="num">{trimmed(m.work_secs, 0)}</td>
                            </tr>
                        }
                    })
                    .collect::<Vec<_>>()
            })
            .unwrap_or_default()
    };
    let search_note = move || {
        shown_group(studio).map(|g| {
            format!(
                "{}: {} jobs submitted over {} s on {} containers; {} configurations evaluated ({} draws, {} rounds). Click a row to see its schedule.",
                g.name,
                count(g.jobs),
                trimmed(g.span_secs, 0),
                g.containers,
                count(g.candidates.len()),
                count(g.samples),
                g.rounds
            )
        })
    };
    view! {
        <section class="card">
            <header class="card-head">
                <h2>"Candidate configurations"</h2>
                <Show when=move || desk.run.view.with(|v| v.as_ref().is_some_and(|v| v.groups.len() > 1))>
                    <div class="head-actions">
                        <select
                            data-testid="tuning-group"
                            on:change=move |ev| {
                                if let Ok(k) = event_target_value(&ev).parse::<usize>() {
                                    desk.show_group(k);
                                }
                            }
                        >
                            {groups}
                        </select>
                    </div>
                </Show>
            </header>
            {summary}
            <PlotCanvas data=plot placeholder=placeholder testid="tuning-candidates"/>
            <p class="hint">{search_note}</p>
            <Show when=move || desk.run.view.with(Option::is_some)>
                <div class="tuning-tables">
                    <div class="table-scroll tuning-candidates">
                        <table class="data">
                            <thead>
                                <tr>
                                    <th class="num">"#"</th>
                                    <th>"Configuration"</th>
                                    <th class="num">"Est. mean latency (s)"</th>
                                </tr>
                            </thead>
                            <tbody>{rows}</tbody>
                        </table>
                    </div>
                    <div class="table-scroll">
                        <table class="data">
                            <thead>
                                <tr>
                                    <th>"Queue"</th>
                                    <th class="num">"Jobs"</th>
                                    <th class="num">"Tasks"</th>
                                    <th class="num">"Task-seconds"</th>
                                </tr>
                            </thead>
                            <tbody>{mix}</tbody>
                        </table>
                    </div>
                </div>
            </Show>
        </section>
    }
}

/// The chosen configuration's schedule; adopt it or export it as XML.
#[component]
fn ScheduleCard() -> impl IntoView {
    let studio = expect_context::<Studio>();
    let desk = studio.tuning;
    let plot = Signal::derive(move || desk.schedule.get().map(|view| SchedulePlot { view }));
    let placeholder =
        Signal::derive(|| "The best configuration's schedule appears here after a run.".to_owned());
    view! {
        <section class="card">
            <header class="card-head">
                <h2>"Schedule by Algorithm 1"</h2>
                <div class="head-actions">
                    <button
                        class="button small"
                        data-testid="tuning-adopt"
                        disabled=move || desk.schedule.with(Option::is_none)
                        on:click=move |_| desk.adopt()
                    >
                        "Make current"
                    </button>
                    <button
                        class="button small primary"
                        data-testid="tuning-export"
                        disabled=move || desk.schedule.with(Option::is_none)
                        on:click=move |_| desk.export()
                    >
                        "Download YARN XML"
                    </button>
                </div>
            </header>
            <PlotCanvas data=plot placeholder=placeholder testid="tuning-schedule"/>
            <p class="hint">
                "Each job waits (light) until its queue's share and policy give it containers, then runs (solid) on up to ×n containers, tasks on the earliest free container (Algorithm 2). The download updates the file read in Queues in place (other properties kept), or writes a fresh one."
            </p>
        </section>
    }
}

/// Algorithm 3's split among several groups.
#[component]
fn SplitCard() -> impl IntoView {
    let studio = expect_context::<Studio>();
    let desk = studio.tuning;
    let split = move || {
        desk.run
            .view
            .with(|v| v.as_ref().and_then(|v| v.split.clone()))
    };
    let plot = Signal::derive(move || {
        desk.run.view.with(|v| {
            let v = v.as_ref().filter(|v| v.split.is_some())?;
            Some(CurvesPlot {
                groups: v.groups.clone(),
                key: v.ticket.to_string(),
            })
        })
    });
    let rows = move || {
        desk.run.view.with(|v| {
            let Some(v) = v.as_ref() else {
                return Vec::new();
            };
            let Some(s) = v.split.as_ref() else {
                return Vec::new();
            };
            v.groups
                .iter()
                .zip(s.containers.iter().zip(&s.ratios))
                .map(|(g, (&c, r))| {
                    view! {
                        <tr data-testid="tuning-split-row" data-containers=c.to_string()>
                            <td>{g.name.clone()}</td>
                            <td class="num">{c.to_string()}</td>
                            <td class="num">{format!("{} %", trimmed(r * 100.0, 1))}</td>
                            <td class="num">{trimmed(g.candidates[g.best].latency_secs, 1)}</td>
                        </tr>
                    }
                })
                .collect::<Vec<_>>()
        })
    };
    view! {
        <Show when=move || split().is_some()>
            <section class="card">
                <header class="card-head">
                    <h2>"Cluster split by Algorithm 3"</h2>
                    <span class="card-note">
                        {move || {
                            split()
                                .map(|s| {
                                    format!(
                                        "{} containers · r_Alloc {} · r_sum {} · {} s less latency in all",
                                        s.total,
                                        s.r_alloc,
                                        s.r_sum,
                                        trimmed(s.reduction, 1)
                                    )
                                })
                                .unwrap_or_default()
                        }}
                    </span>
                </header>
                <PlotCanvas
                    data=plot
                    placeholder=Signal::derive(String::new)
                    testid="tuning-curves"
                />
                <div class="table-scroll">
                    <table class="data">
                        <thead>
                            <tr>
                                <th>"Group"</th>
                                <th class="num">"Containers"</th>
                                <th class="num">"Share"</th>
                                <th class="num">"Best est. latency (s)"</th>
                            </tr>
                        </thead>
                        <tbody>{rows}</tbody>
                    </table>
                </div>
            </section>
        </Show>
    }
}
