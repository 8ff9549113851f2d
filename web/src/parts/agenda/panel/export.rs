//! CSV, YARN JSON and PNG exports.

use crate::parts::agenda::protocol::PlanFormat;
use crate::state::Studio;
use crate::widgets::button::button;
use crate::widgets::card::Card;
use crate::widgets::download::save_canvases;
use crate::widgets::field::{inline_line_field, whole_text};
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
    let png = move || {
        if let Err(e) = save_canvases(&["agenda-canvas"], 1, "skyplan-agenda.png") {
            studio
                .page
                .notify(format!("The timeline could not be downloaded: {e}"));
        }
    };
    view! {
        <Card title="Export">
            <div class="actions">
                {button("button", "export-csv-plan", "CSV", empty, move || desk.export_agenda(PlanFormat::Csv))}
                {button("button", "export-yarn", "YARN JSON", empty, move || desk.export_agenda(PlanFormat::Yarn))}
                {button("button", "export-png", "PNG", empty, png)}
            </div>
            {inline_line_field(desk.queue, whole_text("YARN queue", "yarn-queue"))}
            <p class="hint">
                "CSV: one row per run of equal steps of each instance (UTC). YARN: submissions for the ReservationSystem REST API."
            </p>
        </Card>
    }
}
