//! The Agenda panel (Morpheus §6–§7): the reservation plan of one LCM day —
//! a timeline of the reservations stacked step by step with the capacity and
//! the cost curve, where a reservation is dragged along time within its
//! window (live cost and peak from the worker on every move; a drop where it
//! does not fit snaps back with the reason) — with undo and redo (buttons,
//! Ctrl+Z / Ctrl+Y), admission of the signed-off SLOs by LowCost or a
//! baseline, one-off reservations, removal, the capacity, a comparison of the
//! methods against lower bounds, and exports (CSV, YARN JSON, PNG).
//!
//! Each reservation row (`[data-testid=agenda-row]`) carries, besides
//! `data-id` and `data-name`, where its reservation is on the canvas, in CSS
//! pixels from the canvas's top-left corner (`data-*-px`), so a test (or an
//! accessibility tool) can drag it with real pointer events:
//!
//! - `data-start-px`, `data-end-px`: x of the first instance's start and end;
//! - `data-x-px`, `data-y-px`: a point inside its band (the middle of its
//!   tallest step), where a press grabs it;
//! - `data-step-px`: the width of one plan step;
//! - `data-start`, `data-window-start`, `data-window-end`, `data-len`: the
//!   start, the first instance's window `[a, d)` and the allocation's length,
//!   in plan steps.

use crate::nav::Panel;
use crate::parts::agenda::desk::Drag;
use crate::parts::agenda::protocol::{
    method_label, method_of, method_value, AgendaRequest, AgendaView, CompareView, PlanFormat,
    ReservationView, METHODS,
};
use crate::parts::agenda::timeline::{clock, css_colour, stack, Geometry, Stack, Timeline};
use crate::protocol::js_error_text;
use crate::protocol::now_ms;
use crate::state::Studio;
use crate::widgets::format::{count, trimmed};
use crate::widgets::progress::ProgressBar;
use leptos::prelude::*;
use skyplan_engine::agenda::{Capacity, OptimizeProgress, OptimizeStage};
use skyplan_engine::time::{format_duration, format_timestamp};
use wasm_bindgen::JsCast;
use web_sys::{HtmlCanvasElement, HtmlElement, KeyboardEvent};

/// The Agenda panel.
#[component]
pub fn AgendaPanel() -> impl IntoView {
    let studio = expect_context::<Studio>();
    untrack(move || studio.agenda.open_agenda());
    let desk = studio.agenda;
    let geometry = RwSignal::new(None::<Geometry>);
    let stacked = Memo::new(move |_| {
        desk.view
            .with(|v| v.as_ref().map(|v| stack(v, None)).unwrap_or_default())
    });
    let keys = window_event_listener(leptos::ev::keydown, move |ev| shortcut(studio, &ev));
    on_cleanup(move || {
        keys.remove();
        studio.agenda.cancel_drag();
    });
    view! {
        <div class="agenda">
            <div class="main-column">
                <PlanCard geometry=geometry stacked=stacked/>
                <ReservationsCard geometry=geometry stacked=stacked/>
            </div>
            <aside class="sidebar">
                <AdmitCard/>
                <CapacityCard/>
                <OneOffCard/>
                <CompareCard/>
                <ExportCard/>
            </aside>
        </div>
    }
}

/// Ctrl+Z undo, Ctrl+Y or Ctrl+Shift+Z redo, Escape gives up a drag — not
/// while typing in a field.
fn shortcut(studio: Studio, ev: &KeyboardEvent) {
    if ev.key() == "Escape" {
        studio.agenda.cancel_drag();
        return;
    }
    if !(ev.ctrl_key() || ev.meta_key()) || ev.alt_key() {
        return;
    }
    let typing = ev
        .target()
        .and_then(|t| t.dyn_into::<HtmlElement>().ok())
        .is_some_and(|t| matches!(t.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT"));
    if typing {
        return;
    }
    let request = match ev.key().to_lowercase().as_str() {
        "z" if ev.shift_key() => AgendaRequest::Redo,
        "z" => AgendaRequest::Undo,
        "y" => AgendaRequest::Redo,
        _ => return,
    };
    ev.prevent_default();
    studio.agenda.agenda_change(request);
}

/// `HH:MM` of a step of the plan.
fn at(view: &AgendaView, step: usize) -> String {
    clock(step as f64, view.step_secs)
}

/// A reservation's recurrence in words.
fn kind(r: &ReservationView) -> String {
    match r.period_secs {
        Some(p) if r.instances > 1 => {
            format!("every {} ×{}", format_duration(p), r.instances)
        }
        Some(p) => format!("every {}", format_duration(p)),
        None => "one-off".into(),
    }
}

/// The timeline with the plan's figures, the drag status and the last
/// change's outcome.
#[component]
fn PlanCard(geometry: RwSignal<Option<Geometry>>, stacked: Memo<Stack>) -> impl IntoView {
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
        <section class="card agenda-plan">
            <header class="card-head">
                <h2>"Plan"</h2>
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
                    <button
                        class="button small"
                        data-testid="undo"
                        title="Undo (Ctrl+Z)"
                        disabled=move || desk.view.with(|v| v.as_ref().is_none_or(|v| v.undo == 0))
                        on:click=move |_| studio.agenda.agenda_change(AgendaRequest::Undo)
                    >
                        "↶ Undo"
                    </button>
                    <button
                        class="button small"
                        data-testid="redo"
                        title="Redo (Ctrl+Y)"
                        disabled=move || desk.view.with(|v| v.as_ref().is_none_or(|v| v.redo == 0))
                        on:click=move |_| studio.agenda.agenda_change(AgendaRequest::Redo)
                    >
                        "↷ Redo"
                    </button>
                    <button
                        class="button small"
                        data-testid="optimize"
                        title="Re-place every unlocked reservation together to lower the peak (undoable)"
                        disabled=move || desk.view.with(|v| v.as_ref().is_none_or(|v| v.reservations.is_empty()))
                        on:click=move |_| {
                            let locked = studio.agenda.locked_ids();
                            studio.agenda.agenda_change(AgendaRequest::Optimize { locked })
                        }
                    >
                        "Optimize"
                    </button>
                </div>
            </header>
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
        </section>
    }
}

/// While dragging: where, whether it fits, how fast the preview came back.
/// After a snap-back: why.
#[component]
fn DragStatus() -> impl IntoView {
    let studio = expect_context::<Studio>();
    let desk = studio.agenda;
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
    let studio = expect_context::<Studio>();
    let desk = studio.agenda;
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

/// Pixel attributes of a row: `(start, end, x, y, step)` in CSS pixels.
fn pixels(g: &Geometry, s: &Stack, r: &ReservationView) -> Option<[String; 5]> {
    let (x, y) = s.grab_point(g, r)?;
    let px = |v: f64| format!("{v:.1}");
    Some([
        px(g.x(r.start as f64)),
        px(g.x((r.start + r.alloc.len()) as f64)),
        px(x),
        px(y),
        format!("{:.4}", g.step_px()),
    ])
}

/// The reservations: name, kind, window, start, peak containers, method,
/// and a remove button each.
#[component]
fn ReservationsCard(geometry: RwSignal<Option<Geometry>>, stacked: Memo<Stack>) -> impl IntoView {
    let studio = expect_context::<Studio>();
    let desk = studio.agenda;
    let rows = move || {
        let g = geometry.get();
        desk.view.with(|v| {
            let Some(v) = v.as_ref() else {
                return Vec::new();
            };
            stacked.with(|s| {
                v.reservations
                    .iter()
                    .enumerate()
                    .map(|(i, r)| {
                        let [start_px, end_px, x_px, y_px, step_px] =
                            g.as_ref().and_then(|g| pixels(g, s, r)).unwrap_or_default();
                        let id = r.id;
                        let len = r.alloc.len();
                        view! {
                            <tr
                                data-testid="agenda-row"
                                data-id=id.to_string()
                                data-name=r.name.clone()
                                data-start=r.start.to_string()
                                data-window-start=r.window.0.to_string()
                                data-window-end=r.window.1.to_string()
                                data-len=len.to_string()
                                data-start-px=start_px
                                data-end-px=end_px
                                data-x-px=x_px
                                data-y-px=y_px
                                data-step-px=step_px
                            >
                                <td>
                                    <span class="swatch" style:background=css_colour(i)></span>
                                    <span class="job-name">{r.name.clone()}</span>
                                </td>
                                <td>{kind(r)}</td>
                                <td>{format!("{}–{}", at(v, r.window.0), at(v, r.window.1))}</td>
                                <td data-testid="agenda-start">
                                    {format!("{}–{}", at(v, r.start), at(v, r.start + len))}
                                </td>
                                <td class="num">{trimmed(r.peak_containers, 1)}</td>
                                <td>{method_label(r.method)}</td>
                                <td>
                                    <label class="check" title="Locked: Optimize leaves it where it is">
                                        <input
                                            type="checkbox"
                                            data-testid="agenda-lock"
                                            prop:checked=move || desk.locked.with(|l| l.contains(&id))
                                            on:change=move |ev| desk.toggle_lock(id, event_target_checked(&ev))
                                        />
                                        " lock"
                                    </label>
                                </td>
                                <td>
                                    <button
                                        class="button ghost small"
                                        data-testid="agenda-remove"
                                        title="Remove this reservation"
                                        on:click=move |_| {
                                            studio.agenda.agenda_change(AgendaRequest::Remove { id })
                                        }
                                    >
                                        "Remove"
                                    </button>
                                </td>
                            </tr>
                        }
                    })
                    .collect::<Vec<_>>()
            })
        })
    };
    view! {
        <section class="card">
            <header class="card-head">
                <h2>"Reservations"</h2>
                <span class="card-note">"Stacked bottom-up in this order"</span>
            </header>
            <div class="table-scroll agenda-table">
                <table class="data">
                    <thead>
                        <tr>
                            <th>"Job"</th>
                            <th>"Kind"</th>
                            <th>"Window"</th>
                            <th>"Reserved"</th>
                            <th class="num">"Peak containers"</th>
                            <th>"Method"</th>
                            <th>"Optimize"</th>
                            <th></th>
                        </tr>
                    </thead>
                    <tbody>
                        {rows}
                        <Show when=move || desk.view.with(|v| v.as_ref().is_none_or(|v| v.reservations.is_empty()))>
                            <tr>
                                <td class="empty" colspan="8">"No reservations."</td>
                            </tr>
                        </Show>
                    </tbody>
                </table>
            </div>
        </section>
    }
}

/// Admission of the signed-off and overridden SLOs.
#[component]
fn AdmitCard() -> impl IntoView {
    let studio = expect_context::<Studio>();
    let desk = studio.agenda;
    let panel = use_context::<RwSignal<Panel>>();
    let waiting = move || desk.view.with(|v| v.as_ref().map_or(0, |v| v.admissible));
    view! {
        <section class="card">
            <header class="card-head">
                <h2>"Admit signed-off jobs"</h2>
            </header>
            <p class="card-text" data-testid="admissible">
                {move || match waiting() {
                    0 => "No signed-off or overridden SLO is waiting.".to_owned(),
                    1 => "1 signed-off or overridden SLO is not in the plan yet.".to_owned(),
                    n => format!("{n} signed-off or overridden SLOs are not in the plan yet."),
                }}
            </p>
            <label class="field">
                <span class="field-label">"Placement"</span>
                <select
                    data-testid="method-select"
                    on:change=move |ev| {
                        if let Some(m) = method_of(&event_target_value(&ev)) {
                            desk.method.set(m);
                        }
                    }
                >
                    {METHODS
                        .into_iter()
                        .map(|m| {
                            view! {
                                <option value=method_value(m) selected=move || desk.method.get() == m>
                                    {method_label(m)}
                                </option>
                            }
                        })
                        .collect_view()}
                </select>
            </label>
            <label class="check">
                <input
                    type="checkbox"
                    data-testid="stretch-toggle"
                    prop:checked=move || desk.stretch.get()
                    on:change=move |ev| desk.stretch.set(event_target_checked(&ev))
                />
                <span>"Stretch skylines down to 1 container a step"</span>
            </label>
            <div class="actions">
                <button
                    class="button primary"
                    data-testid="admit-decisions"
                    disabled=move || waiting() == 0 || desk.busy.get()
                    on:click=move |_| {
                        let method = desk.method.get_untracked();
                        let stretch = desk.stretch.get_untracked();
                        studio.agenda.agenda_change(AgendaRequest::AdmitDecisions { method, stretch });
                    }
                >
                    "Admit"
                </button>
                {move || {
                    (waiting() == 0)
                        .then_some(panel)
                        .flatten()
                        .map(|panel| {
                            view! {
                                <button class="button ghost" on:click=move |_| panel.set(Panel::Slos)>
                                    "Go to SLOs →"
                                </button>
                            }
                        })
                }}
            </div>
            <p class="hint">
                "Periodic jobs are placed first, then one-offs; placed reservations never move on their own. Stretched skylines spread over their windows (lower peaks, no room to drag); unstretched ones keep their shape."
            </p>
        </section>
    }
}

/// Parses a positive number.
fn positive(text: &str) -> Option<f64> {
    text.trim()
        .parse::<f64>()
        .ok()
        .filter(|v| v.is_finite() && *v > 0.0)
}

/// The capacity inputs and how the capacity was set.
#[component]
fn CapacityCard() -> impl IntoView {
    let studio = expect_context::<Studio>();
    let desk = studio.agenda;
    let cores = RwSignal::new(String::new());
    let memory = RwSignal::new(String::new());
    let local_error = RwSignal::new(None::<&'static str>);
    // The fields follow the plan's capacity whenever it changes.
    Effect::new(move |_| {
        if let Some(c) = desk.view.with(|v| v.as_ref().and_then(|v| v.capacity)) {
            cores.set(trimmed(c.cores, 3));
            memory.set(trimmed(c.memory_mb, 0));
        }
    });
    let apply = move || {
        let (Some(c), Some(m)) = (
            positive(&cores.get_untracked()),
            positive(&memory.get_untracked()),
        ) else {
            local_error.set(Some("Cores and memory must be positive numbers."));
            return;
        };
        local_error.set(None);
        studio.agenda.set_agenda_capacity(Capacity {
            cores: c,
            memory_mb: m,
        });
    };
    view! {
        <section class="card">
            <header class="card-head">
                <h2>"Capacity"</h2>
            </header>
            <form
                class="form-grid"
                on:submit=move |ev| {
                    ev.prevent_default();
                    apply();
                }
            >
                <label class="field">
                    <span class="field-label">"Cores"</span>
                    <input
                        type="number"
                        min="1"
                        step="any"
                        data-testid="capacity-cores"
                        prop:value=move || cores.get()
                        on:input=move |ev| cores.set(event_target_value(&ev))
                    />
                </label>
                <label class="field">
                    <span class="field-label">"Memory (MB)"</span>
                    <input
                        type="number"
                        min="1"
                        step="any"
                        data-testid="capacity-memory"
                        prop:value=move || memory.get()
                        on:input=move |ev| memory.set(event_target_value(&ev))
                    />
                </label>
                <button class="button" type="submit" data-testid="capacity-apply">
                    "Apply"
                </button>
            </form>
            {move || local_error.get().map(|e| view! { <p class="field-error">{e}</p> })}
            <p class="hint" data-testid="capacity-note">
                {move || {
                    desk.view
                        .with(|v| v.as_ref().and_then(|v| v.capacity_note.clone()))
                        .unwrap_or_else(|| {
                            "Not set: derived from the lower bound on the peak when the first jobs are admitted, unless you set it first."
                                .into()
                        })
                }}
            </p>
        </section>
    }
}

/// `HH:MM` (hours up to 24) as seconds.
fn hhmm(text: &str) -> Option<i64> {
    let (h, m) = text.trim().split_once(':')?;
    let (h, m): (i64, i64) = (h.parse().ok()?, m.parse().ok()?);
    ((0..=24).contains(&h) && (0..60).contains(&m) && h * 60 + m <= 1440)
        .then_some(h * 3600 + m * 60)
}

/// The one-off form.
#[component]
fn OneOffCard() -> impl IntoView {
    let studio = expect_context::<Studio>();
    let desk = studio.agenda;
    let name = RwSignal::new("adhoc_backfill".to_owned());
    let start = RwSignal::new("13:00".to_owned());
    let deadline = RwSignal::new("17:00".to_owned());
    let containers = RwSignal::new("20".to_owned());
    let minutes = RwSignal::new("60".to_owned());
    let local_error = RwSignal::new(None::<String>);
    let add = move || {
        let step_secs = desk
            .view
            .with_untracked(|v| v.as_ref().map_or(60, |v| v.step_secs))
            .max(1);
        let parsed = (|| {
            let a = hhmm(&start.get_untracked()).ok_or("Start: HH:MM, e.g. 13:00.")?;
            let d = hhmm(&deadline.get_untracked()).ok_or("Deadline: HH:MM, up to 24:00.")?;
            let c =
                positive(&containers.get_untracked()).ok_or("Containers: a positive number.")?;
            let m = positive(&minutes.get_untracked()).ok_or("Duration: positive minutes.")?;
            let steps = ((m * 60.0) / step_secs as f64).ceil() as usize;
            Ok::<_, &str>((a, d, c, steps))
        })();
        match parsed {
            Ok((start_secs, deadline_secs, containers, steps)) => {
                local_error.set(None);
                studio.agenda.agenda_change(AgendaRequest::AddOneOff {
                    name: name.get_untracked(),
                    start_secs,
                    deadline_secs,
                    containers,
                    steps,
                    method: desk.method.get_untracked(),
                    stretch: desk.stretch.get_untracked(),
                });
            }
            Err(e) => local_error.set(Some(e.to_owned())),
        }
    };
    let field = |label: &'static str, testid: &'static str, value: RwSignal<String>| {
        view! {
            <label class="field">
                <span class="field-label">{label}</span>
                <input
                    type="text"
                    data-testid=testid
                    prop:value=move || value.get()
                    on:input=move |ev| value.set(event_target_value(&ev))
                />
            </label>
        }
    };
    view! {
        <section class="card">
            <header class="card-head">
                <h2>"Add a one-off reservation"</h2>
            </header>
            <form
                class="form-grid two"
                on:submit=move |ev| {
                    ev.prevent_default();
                    add();
                }
            >
                <div class="wide">{field("Name", "oneoff-name", name)}</div>
                {field("Earliest start (UTC)", "oneoff-start", start)}
                {field("Deadline (UTC)", "oneoff-deadline", deadline)}
                {field("Containers", "oneoff-containers", containers)}
                {field("Duration (min)", "oneoff-minutes", minutes)}
                <div class="wide actions">
                    <button class="button" type="submit" data-testid="oneoff-add" disabled=move || desk.busy.get()>
                        {move || format!("Add by {}", method_label(desk.method.get()))}
                    </button>
                </div>
            </form>
            {move || local_error.get().map(|e| view! { <p class="field-error">{e}</p> })}
            <p class="hint">
                "Placed with the method and stretch setting above, on the capacity left by periodic reservations; a later periodic admission may move it or push it out."
            </p>
        </section>
    }
}

/// The plan's requests placed afresh by each method, against lower bounds.
#[component]
fn CompareCard() -> impl IntoView {
    let studio = expect_context::<Studio>();
    let desk = studio.agenda;
    let stale = move || {
        let now = desk.view.with(|v| v.as_ref().map(|v| v.revision));
        desk.compare
            .view
            .with(|c| c.as_ref().is_some_and(|c| Some(c.revision) != now))
    };
    let table = move || {
        desk.compare.view.get().map(|c: CompareView| {
            let best = c.bound.best;
            let lp = c
                .bound
                .lp
                .map_or_else(|| "not solved (too large)".to_owned(), |v| format!("{v:.3}"));
            view! {
                <table class="data compare" data-testid="compare-table" class:stale=stale>
                    <thead>
                        <tr>
                            <th>"Method"</th>
                            <th class="num">"Placed"</th>
                            <th class="num">"Peak"</th>
                            <th class="num">"÷ bound"</th>
                        </tr>
                    </thead>
                    <tbody>
                        {c
                            .rows
                            .iter()
                            .map(|r| {
                                view! {
                                    <tr data-testid="compare-row" data-method=method_value(r.method)>
                                        <td title=format!("{:.0} ms", r.millis)>{method_label(r.method)}</td>
                                        <td class="num">{format!("{}/{}", r.placed, c.requests)}</td>
                                        <td class="num">{format!("{:.3}", r.peak)}</td>
                                        <td class="num">
                                            {r.ratio.map_or_else(|| "—".into(), |x| format!("{x:.2}×"))}
                                        </td>
                                    </tr>
                                }
                            })
                            .collect_view()}
                        <tr class="bound" data-testid="compare-bound">
                            <td>"Lower bound"</td>
                            <td class="num">{c.requests.to_string()}</td>
                            <td class="num">{format!("{best:.3}")}</td>
                            <td class="num">"1.00×"</td>
                        </tr>
                    </tbody>
                </table>
                <p class="hint">
                    {format!(
                        "Bound = best of area {:.3}, single request {:.3}, LP relaxation {lp}.",
                        c.bound.area, c.bound.single,
                    )}
                    {c.optimized_gap.map(|g| format!(
                        " Optimized (batch): at most {:.1} % above the optimum (certified).",
                        g * 100.0
                    ))}
                </p>
            }
        })
    };
    view! {
        <section class="card">
            <header class="card-head">
                <h2>"Compare methods"</h2>
                <button
                    class="button small"
                    data-testid="compare-run"
                    disabled=move || {
                        desk.compare.running.get()
                            || desk.view.with(|v| v.as_ref().is_none_or(|v| v.reservations.is_empty()))
                    }
                    on:click=move |_| studio.agenda.compare_agenda()
                >
                    {move || if desk.compare.running.get() { "Placing…" } else { "Compare" }}
                </button>
            </header>
            <p class="card-text">
                "The plan's requests placed afresh on an empty plan by each method, same order and capacity."
            </p>
            {table}
            <Show when=stale>
                <p class="hint warn">"The plan has changed since: compare again."</p>
            </Show>
        </section>
    }
}

/// Downloads the timeline as a PNG.
fn save_png(name: &str) -> Result<(), String> {
    let canvas = document()
        .query_selector("canvas[data-testid=agenda-canvas]")
        .map_err(|e| js_error_text(&e))?
        .and_then(|c| c.dyn_into::<HtmlCanvasElement>().ok())
        .ok_or("the timeline is not on the page")?;
    let url = canvas.to_data_url().map_err(|e| js_error_text(&e))?;
    let link = document()
        .create_element("a")
        .map_err(|e| js_error_text(&e))?
        .unchecked_into::<HtmlElement>();
    link.set_attribute("href", &url)
        .and_then(|()| link.set_attribute("download", name))
        .map(|()| link.click())
        .map_err(|e| js_error_text(&e))
}

/// CSV, YARN JSON and PNG exports.
#[component]
fn ExportCard() -> impl IntoView {
    let studio = expect_context::<Studio>();
    let desk = studio.agenda;
    let empty = move || {
        desk.view
            .with(|v| v.as_ref().is_none_or(|v| v.reservations.is_empty()))
    };
    let png = move |_| {
        if let Err(e) = save_png("skyplan-agenda.png") {
            studio
                .page
                .notify(format!("The timeline could not be downloaded: {e}"));
        }
    };
    view! {
        <section class="card">
            <header class="card-head">
                <h2>"Export"</h2>
            </header>
            <div class="actions">
                <button
                    class="button"
                    data-testid="export-csv-plan"
                    disabled=empty
                    on:click=move |_| studio.agenda.export_agenda(PlanFormat::Csv)
                >
                    "CSV"
                </button>
                <button
                    class="button"
                    data-testid="export-yarn"
                    disabled=empty
                    on:click=move |_| studio.agenda.export_agenda(PlanFormat::Yarn)
                >
                    "YARN JSON"
                </button>
                <button class="button" data-testid="export-png" disabled=empty on:click=png>
                    "PNG"
                </button>
            </div>
            <label class="field inline">
                <span class="field-label">"YARN queue"</span>
                <input
                    type="text"
                    data-testid="yarn-queue"
                    prop:value=move || desk.queue.get()
                    on:input=move |ev| desk.queue.set(event_target_value(&ev))
                />
            </label>
            <p class="hint">
                "CSV: one row per run of equal steps of each instance (UTC). YARN: submissions for the ReservationSystem REST API."
            </p>
        </section>
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_fields() {
        assert_eq!(hhmm("13:05"), Some(13 * 3600 + 300));
        assert_eq!(hhmm("24:00"), Some(86_400));
        assert_eq!(hhmm("24:01"), None);
        assert_eq!(hhmm("7"), None);
        assert_eq!(positive(" 2.5 "), Some(2.5));
        assert_eq!(positive("0"), None);
        assert_eq!(positive("x"), None);
    }
}
