//! CSV, YARN JSON and PNG exports.

use crate::parts::agenda::protocol::PlanFormat;
use crate::state::Studio;
use crate::widgets::download::save_canvases;
use leptos::prelude::*;

/// CSV, YARN JSON and PNG exports.
#[component]
pub fn ExportCard() -> impl IntoView {
    let studio = expect_context::<Studio>();
    let desk = studio.agenda;
    let empty = move || {
        desk.view
            .with(|v| v.as_ref().is_none_or(|v| v.reservations.is_empty()))
    };
    let png = move |_| {
        if let Err(e) = save_canvases(&["agenda-canvas"], 1, "skyplan-agenda.png") {
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
