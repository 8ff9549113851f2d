//! The timeline with the plan's figures, the optimizer's progress, the
//! drag status and the last change's outcome.

use super::text::at;
use crate::parts::agenda::desk::Drag;
use crate::parts::agenda::protocol::AgendaRequest;
use crate::parts::agenda::timeline::{Geometry, Stack, Timeline};
use crate::protocol::now_ms;
use crate::state::Studio;
use crate::toolkit::run::CancelButton;
use crate::widgets::card::Card;
use crate::widgets::format::{count, trimmed};
use crate::widgets::progress::ProgressBar;
use leptos::prelude::*;
use skyplan_engine::agenda::{OptimizeProgress, OptimizeStage};
use skyplan_engine::time::format_timestamp;

/// The timeline with the plan's figures, the drag status and the last
/// change's outcome.
#[component]
pub fn PlanCard(geometry: RwSignal<Option<Geometry>>, stacked: Memo<Stack>) -> impl IntoView {
    let studio = expect_context::<Studio>();
    let desk = studio.agenda;
    let view_of = move || desk.view.get();
    let has_plan = move || {
        desk.view
            .with(|v| v.as_ref().is_some_and(|v| !v.reservations.is_empty()))
    };
    let live = move || {
        desk.drag.with(|d| {
            d.as_ref()
                .and_then(|d| d.preview.as_ref().filter(|p| p.start == d.start))
                .map(|p| p.preview.peak)
        })
    };
    let peak =
        move || live().unwrap_or_else(|| desk.view.with(|v| v.as_ref().map_or(0.0, |v| v.peak)));
    let peak_at = move || {
        desk.view.with(|v| {
            let v = v.as_ref()?;
            let (t, _) = v
                .cost
                .iter()
                .enumerate()
                .max_by(|a, b| a.1.total_cmp(b.1).then(b.0.cmp(&a.0)))?;
            (v.peak > 0.0).then(|| format!("at {}", at(v, t)))
        })
    };
    let on_grab = Callback::new(move |(id, step): (u32, f64)| studio.agenda.grab(id, step));
    let on_drag = Callback::new(move |step: f64| {
        let steps = desk
            .view
            .with_untracked(|v| v.as_ref().map_or(0, |v| v.steps));
        studio.agenda.drag_to(step, steps);
    });
    let on_drop = Callback::new(move |()| studio.agenda.drop_drag());
    let on_drawn = Callback::new(move |asked: f64| desk.latency.set(Some(now_ms() - asked)));
    view! {
        <Card
            title="Plan"
            class="agenda-plan"
            head=move || {
                view! {
                    <span class="card-note">
                        {move || {
                            view_of()
                                .map(|v| match v.origin {
                                    Some(o) => {
                                        format!(
                                            "one day from {} UTC · {}-second steps",
                                            format_timestamp(o).get(..10).unwrap_or_default(),
                                            v.step_secs,
                                        )
                                    }
                                    None => "one day · no reservations yet".into(),
                                })
                        }}
                    </span>
                    <div class="head-actions">
                        {[(true, "undo", "Undo (Ctrl+Z)", "↶ Undo"), (false, "redo", "Redo (Ctrl+Y)", "↷ Redo")]
                            .map(|(back, testid, title, label)| {
                                let steps = move || desk.view.with(|v| v.as_ref().map_or(0, |v| if back { v.undo } else { v.redo }));
                                let request = move || if back { AgendaRequest::Undo } else { AgendaRequest::Redo };
                                view! {
                                    <button
                                        class="button small"
                                        data-testid=testid
                                        title=title
                                        disabled=move || steps() == 0
                                        on:click=move |_| studio.agenda.agenda_change(request())
                                    >
                                        {label}
                                    </button>
                                }
                            })}
                        <button
                            class="button small"
                            data-testid="optimize"
                            title="Re-place every unlocked reservation together to lower the peak (undoable)"
                            disabled=move || desk.view.with(|v| v.as_ref().is_none_or(|v| v.reservations.is_empty()))
                            on:click=move |_| studio.agenda.optimize()
                        >
                            "Optimize"
                        </button>
                        <Show when=move || desk.optimize_out.with(Option::is_some)>
                            <CancelButton page=studio.page testid="optimize-cancel" small=true/>
                        </Show>
                    </div>
                }
            }
        >
            <Show when=move || desk.optimizing.with(|p| p.is_some())>
                <ProgressBar
                    testid="optimize-progress"
                    label=Signal::derive(move || desk.optimizing.get().map(stage_label).unwrap_or_default())
                    fraction=Signal::derive(move || desk.optimizing.get().map_or(0.0, |p| p.fraction()))
                />
            </Show>
            <div class="agenda-figures">
                <div class="figure" class:live=move || live().is_some()>
                    <span class="figure-label">
                        {move || if live().is_some() { "Peak cost (preview)" } else { "Peak cost" }}
                    </span>
                    <span class="figure-value" data-testid="agenda-peak">
                        {move || format!("{:.3}", peak())}
                    </span>
                    <span class="figure-note">{peak_at}</span>
                </div>
                <div class="figure">
                    <span class="figure-label">"Capacity"</span>
                    <span class="figure-value">
                        {move || {
                            desk.view
                                .with(|v| v.as_ref().and_then(|v| v.capacity))
                                .map_or_else(
                                    || "—".to_owned(),
                                    |c| format!("{} cores", trimmed(c.cores, 2)),
                                )
                        }}
                    </span>
                    <span class="figure-note">
                        {move || {
                            desk.view
                                .with(|v| v.as_ref().and_then(|v| v.capacity))
                                .map(|c| format!("{} GB memory", trimmed(c.memory_mb / 1024.0, 1)))
                        }}
                    </span>
                </div>
                <div class="figure">
                    <span class="figure-label">"Reservations"</span>
                    <span class="figure-value" data-testid="agenda-count">
                        {move || {
                            desk.view.with(|v| count(v.as_ref().map_or(0, |v| v.reservations.len())))
                        }}
                    </span>
                    <span class="figure-note">
                        {move || {
                            desk.view
                                .with(|v| {
                                    let v = v.as_ref()?;
                                    let instances: usize = v
                                        .reservations
                                        .iter()
                                        .map(|r| r.instances)
                                        .sum();
                                    Some(
                                        format!(
                                            "{} instance{} in the day",
                                            count(instances),
                                            if instances == 1 { "" } else { "s" },
                                        ),
                                    )
                                })
                        }}
                    </span>
                </div>
            </div>
            <Timeline
                view=desk.view
                stacked=stacked
                drag=desk.drag
                geometry=geometry
                on_grab=on_grab
                on_drag=on_drag
                on_drop=on_drop
                on_preview_drawn=on_drawn
            />
            <Show when=move || !has_plan()>
                <p class="agenda-empty" data-testid="agenda-empty">
                    "No reservations yet. Admit the signed-off SLOs or add a one-off reservation (right)."
                </p>
            </Show>
            <DragStatus/>
            <Legend/>
            <Messages/>
        </Card>
    }
}

/// While dragging: where, whether it fits, how fast the preview came back.
/// After a snap-back: why.
#[component]
fn DragStatus() -> impl IntoView {
    let desk = expect_context::<Studio>().agenda;
    let status = move || {
        let drag: Drag = desk.drag.get()?;
        desk.view.with(|v| {
            let v = v.as_ref()?;
            let r = v.reservations.iter().find(|r| r.id == drag.id)?;
            let (fits, text) = match drag.preview.as_ref().filter(|p| p.start == drag.start) {
                Some(p) if p.preview.feasible => (Some(true), "fits".to_owned()),
                Some(p) => (
                    Some(false),
                    p.preview
                        .reason
                        .clone()
                        .unwrap_or_else(|| "does not fit".into()),
                ),
                None => (None, "checking…".to_owned()),
            };
            let latency = desk
                .latency
                .get()
                .map(|ms| format!(" · preview {ms:.1} ms"))
                .unwrap_or_default();
            Some(view! {
                <p
                    class="drag-status"
                    data-testid="drag-status"
                    data-start=drag.start.to_string()
                    data-fits=fits.map_or("unknown", |f| if f { "true" } else { "false" })
                    data-latency-ms=desk.latency.get().map(|ms| format!("{ms:.2}"))
                >
                    <strong>{r.name.clone()}</strong>
                    {format!(
                        " {} → {} · ",
                        at(v, drag.from),
                        at(v, drag.start),
                    )}
                    <span class=if fits == Some(false) { "bad" } else { "good" } title=text.clone()>
                        {text.clone()}
                    </span>
                    <span class="muted">{latency}</span>
                </p>
            })
        })
    };
    view! {
        // A fixed line, so a drag never moves the rest of the page.
        <div class="agenda-status">{status}</div>
        <Show when=move || desk.drag.with(Option::is_none) && desk.reason.with(Option::is_some)>
            <div class="drag-reason" data-testid="drag-reason" role="alert">
                <span>{move || desk.reason.get()}</span>
                <button class="icon-button" aria-label="Dismiss" on:click=move |_| desk.reason.set(None)>
                    "×"
                </button>
            </div>
        </Show>
    }
}

/// What the drawing means.
#[component]
fn Legend() -> impl IntoView {
    view! {
        <ul class="agenda-legend">
            <li><span class="key stack"></span>"reservations, one colour per job"</li>
            <li><span class="key capacity"></span>"capacity (cores)"</li>
            <li><span class="key cost"></span>"cost c(t), right axis"</li>
            <li><span class="key peak"></span>"peak"</li>
            <li><span class="key window"></span>"window of the dragged job"</li>
            <li class="hint">"Drag a reservation along time · Esc cancels · Ctrl+Z / Ctrl+Y"</li>
        </ul>
    }
}

/// The last change's outcome and the engine's last refusal.
#[component]
fn Messages() -> impl IntoView {
    let desk = expect_context::<Studio>().agenda;
    let outcome = move || {
        desk.view
            .with(|v| v.as_ref().and_then(|v| v.outcome.clone()))
    };
    view! {
        {move || {
            desk.error
                .get()
                .map(|e| {
                    view! {
                        <div class="agenda-error" data-testid="agenda-error" role="alert">
                            <span>{e}</span>
                            <button class="icon-button" aria-label="Dismiss" on:click=move |_| desk.error.set(None)>
                                "×"
                            </button>
                        </div>
                    }
                })
        }}
        {move || {
            outcome()
                .map(|o| {
                    let problems = o.problems.len();
                    view! {
                        <div class="agenda-outcome" data-testid="agenda-outcome">
                            <span>{o.summary}</span>
                            <Show when=move || { problems > 0 }>
                                <ul class="agenda-problems">
                                    {o
                                        .problems
                                        .iter()
                                        .map(|(name, why)| {
                                            view! {
                                                <li data-testid="agenda-problem">
                                                    <strong>{name.clone()}</strong>
                                                    ": "
                                                    {why.clone()}
                                                </li>
                                            }
                                        })
                                        .collect_view()}
                                </ul>
                            </Show>
                        </div>
                    }
                })
        }}
    }
}

/// What the optimizer is doing, in words, for its progress bar.
fn stage_label(p: OptimizeProgress) -> String {
    match p.stage {
        OptimizeStage::Start => "Optimizing: starting plans…".into(),
        OptimizeStage::Bound => "Optimizing: lower bound (LP relaxation)…".into(),
        OptimizeStage::Search => format!(
            "Optimizing: search, {} of at most {} moves…",
            count(p.moves),
            count(p.max_moves)
        ),
        OptimizeStage::IntegerProgram => "Optimizing: certifying (integer program)…".into(),
        OptimizeStage::Done => "Optimized.".into(),
    }
}
