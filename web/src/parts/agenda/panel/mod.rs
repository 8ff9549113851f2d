//! The Agenda panel (Morpheus §6–§7): the reservation plan of one LCM day —
//! a timeline of the reservations stacked step by step with the capacity and
//! the cost curve, where a reservation is dragged along time within its
//! window (live cost and peak from the worker on every move; a drop where it
//! does not fit snaps back with the reason) — with undo and redo (buttons,
//! Ctrl+Z / Ctrl+Y), admission of the signed-off SLOs by LowCost or a
//! baseline, one-off reservations, removal, the capacity, a comparison of the
//! methods against lower bounds, and exports (CSV, YARN JSON, PNG). One file
//! per card.
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

mod admit;
mod capacity;
mod compare;
mod export;
mod oneoff;
mod plan;
mod reservations;
mod text;

use self::admit::AdmitCard;
use self::capacity::CapacityCard;
use self::compare::CompareCard;
use self::export::ExportCard;
use self::oneoff::OneOffCard;
use self::plan::PlanCard;
use self::reservations::ReservationsCard;
use crate::parts::agenda::protocol::AgendaRequest;
use crate::parts::agenda::timeline::{stack, Geometry};
use crate::state::Studio;
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{HtmlElement, KeyboardEvent};

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
