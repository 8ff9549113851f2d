//! The candidates of the group shown: the best against the current
//! configuration, estimated and simulated; the bar chart and the table.

use crate::parts::tuning::charts::CandidatesPlot;
use crate::parts::tuning::protocol::{GroupView, SIM_RUNS};
use skyplan_engine::tuning::{Verdict, TIE_TOLERANCE};
use crate::state::Studio;
use crate::widgets::card::Card;
use crate::widgets::format::{count, trimmed};
use crate::widgets::table::{col, num, DataTable};
use crate::widgets::PlotCanvas;
use leptos::prelude::*;

/// `1 − best / current` in percent (negative: the best is slower); zero
/// when the current figure is not a positive finite latency.
fn percent_lower(best: f64, current: f64) -> f64 {
    if current > 0.0 && current.is_finite() {
        (1.0 - best / current) * 100.0
    } else {
        0.0
    }
}

/// A percent-lower figure in words: "3.1 % lower" or "2 % higher".
fn lower(pct: f64) -> String {
    if pct >= 0.0 {
        format!("{} % lower", trimmed(pct, 1))
    } else {
        format!("{} % higher", trimmed(-pct, 1))
    }
}

/// The verdict as the page's test id value.
fn verdict_id(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::Current => "current",
        Verdict::Confirmed => "confirmed",
        Verdict::Unconfirmed => "unconfirmed",
    }
}

/// The engine's verdict on the group shown, in words, with the estimated
/// and simulated figures that decided it (`gain`, `sim_gain`: percent
/// lower, best against current) — the verdict `skyplan tune` and the report
/// give, so the panel never advises a change the simulation contradicts.
fn advice_sentence(g: &GroupView, gain: f64, sim_gain: f64) -> String {
    let a = &g.advice;
    // The label, and what it does not show where that is the change.
    let best = match &g.hidden {
        Some(d) => format!("{} ({d})", g.candidates[g.best].label),
        None => g.candidates[g.best].label.clone(),
    };
    let figures = format!(
        "estimated {} s against {} s ({}), simulated {} s against {} s ({})",
        trimmed(a.estimated_best_secs, 1),
        trimmed(a.estimated_current_secs, 1),
        lower(gain),
        trimmed(a.simulated_best_secs, 1),
        trimmed(a.simulated_current_secs, 1),
        lower(sim_gain)
    );
    match a.verdict {
        Verdict::Current => format!(
            "Keep the current configuration ({}): the estimate finds nothing better.",
            g.current_label
        ),
        Verdict::Confirmed => format!(
            "Confirmed by the simulation: change to {best} — {figures}."
        ),
        Verdict::Unconfirmed => format!(
            "Not confirmed by the simulation: keep the current configuration ({}). The estimate's pick {best}: {figures}; a change is advised only when the simulation confirms a gain of more than {} %.",
            g.current_label,
            trimmed(TIE_TOLERANCE * 100.0, 0)
        ),
    }
}

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
            let a = g.advice;
            let gain = percent_lower(a.estimated_best_secs, a.estimated_current_secs);
            let sim_gain = percent_lower(a.simulated_best_secs, a.simulated_current_secs);
            // The estimate's error against the simulation of the same
            // configuration: how far to trust the figures above.
            let error = if a.simulated_best_secs > 0.0 {
                (a.estimated_best_secs / a.simulated_best_secs - 1.0) * 100.0
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
            let unconfirmed = a.verdict == Verdict::Unconfirmed;
            let advice = advice_sentence(&g, gain, sim_gain);
            let advised = if a.verdict == Verdict::Confirmed {
                best.label.clone()
            } else {
                g.current_label.clone()
            };
            view! {
                <div class="agenda-figures tuning-figures">
                    <div class="figure" data-testid="tuning-best" data-latency=best.latency_secs.to_string()>
                        <span class="figure-label">
                            {if unconfirmed { "Lowest estimate (not advised)" } else { "Best (estimated)" }}
                        </span>
                        <span class="figure-value">{format!("{} s", trimmed(best.latency_secs, 1))}</span>
                        <span class="figure-note">{best.label.clone()}</span>
                    </div>
                    <div class="figure" data-testid="tuning-current" data-latency=a.estimated_current_secs.to_string()>
                        <span class="figure-label">"Current (estimated)"</span>
                        <span class="figure-value">{format!("{} s", trimmed(a.estimated_current_secs, 1))}</span>
                        <span class="figure-note">{format!("best is {}", lower(gain))}</span>
                    </div>
                    <div class="figure" data-testid="tuning-simulated">
                        <span class="figure-label">{format!("Simulated (YARN, heartbeats, AMs; mean of {SIM_RUNS} seeded runs)")}</span>
                        <span class="figure-value">
                            {format!(
                                "{} s vs {} s",
                                trimmed(a.simulated_best_secs, 1),
                                trimmed(a.simulated_current_secs, 1)
                            )}
                        </span>
                        <span class="figure-note">
                            {format!("best vs current: {}", lower(sim_gain))}
                        </span>
                    </div>
                    <div class="figure" data-testid="tuning-estimate-error" data-error=error.to_string()>
                        <span class="figure-label">"Estimate vs simulation"</span>
                        <span class="figure-value">{format!("{} %", trimmed(error, 1))}</span>
                        <span class="figure-note">"the recommendation's estimate against its simulated latency"</span>
                    </div>
                    <p
                        class="hint"
                        data-testid="tuning-advice"
                        data-verdict=verdict_id(a.verdict)
                        data-advised=advised
                    >
                        {advice}
                    </p>
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
