//! The candidates of the group shown: the best against the current
//! configuration, estimated and simulated; the bar chart and the table.

use crate::parts::tuning::charts::CandidatesPlot;
use crate::parts::tuning::protocol::{GroupView, SIM_RUNS};
use crate::state::Studio;
use crate::widgets::card::Card;
use crate::widgets::format::{count, trimmed};
use crate::widgets::table::{col, num, DataTable};
use crate::widgets::PlotCanvas;
use leptos::prelude::*;

/// The group shown, from the last run.
fn shown_group(studio: Studio) -> Option<GroupView> {
    let desk = studio.tuning;
    let k = desk.group.get();
    desk.run.view.with(|v| v.as_ref()?.groups.get(k).cloned())
}

/// The candidates of the group shown: the best against the current
/// configuration, estimated and simulated; the bar chart and the table.
#[component]
pub fn ResultsCard() -> impl IntoView {
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
            // The estimate's error against the simulation of the same
            // configuration: how far to trust the figures above.
            let error = if g.simulated_best_secs > 0.0 {
                (best.latency_secs / g.simulated_best_secs - 1.0) * 100.0
            } else {
                0.0
            };
            let tie = if g.no_contention {
                Some(if g.kept_current {
                    "Tie: no contention in this window — every configuration gives the same latency; keep the current one.".to_owned()
                } else {
                    "Tie: no contention in this window — every configuration gives the same latency; the most even split is shown.".to_owned()
                })
            } else if g.tied > 1 {
                Some(format!(
                    "Tie: {} configurations within 1 % of the lowest estimate; {}",
                    g.tied,
                    if g.kept_current { "the current one is among them — keep it." } else { "the most even split is recommended." }
                ))
            } else {
                None
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
                        <span class="figure-label">{format!("Simulated (YARN, heartbeats, AMs; mean of {SIM_RUNS} seeded runs)")}</span>
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
                    <div class="figure" data-testid="tuning-estimate-error" data-error=error.to_string()>
                        <span class="figure-label">"Estimate vs simulation"</span>
                        <span class="figure-value">{format!("{} %", trimmed(error, 1))}</span>
                        <span class="figure-note">"the recommendation's estimate against its simulated latency"</span>
                    </div>
                    {tie.map(|t| view! { <p class="hint" data-testid="tuning-tie">{t}</p> })}
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
                        <td>
                            {c.label.clone()}
                            {if k == g.best { " ★" } else { "" }}
                        </td>
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
        <Card
            title="Candidate configurations"
            head=move || {
                view! {
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
                }
            }
        >
            {summary}
            <PlotCanvas data=plot placeholder=placeholder testid="tuning-candidates"/>
            <p class="hint">{search_note}</p>
            <Show when=move || desk.run.view.with(Option::is_some)>
                <div class="tuning-tables">
                    <DataTable cols=vec![num("#"), col("Configuration"), num("Est. mean latency (s)")] frame="tuning-candidates">
                        {rows}
                    </DataTable>
                    <DataTable cols=vec![col("Queue"), num("Jobs"), num("Tasks"), num("Task-seconds")]>
                        {mix}
                    </DataTable>
                </div>
            </Show>
        </Card>
    }
}
