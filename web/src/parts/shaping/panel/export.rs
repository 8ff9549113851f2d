//! CSV and PNG exports.

use crate::state::Studio;
use crate::widgets::button::button;
use crate::widgets::card::Card;
use crate::widgets::download::save_canvases;
use leptos::prelude::*;

/// The timelines' canvases, two a row in the PNG.
const TIMELINES: [&str; 4] = [
    "shaping-app-baseline",
    "shaping-app-shaped",
    "shaping-host-baseline",
    "shaping-host-shaped",
];

/// The heat maps' canvases.
const HEAT_MAPS: [&str; 3] = [
    "shaping-heat-ratio",
    "shaping-heat-slack",
    "shaping-heat-failed",
];

/// CSV and PNG exports.
#[component]
pub fn ExportCard() -> impl IntoView {
    let studio = expect_context::<Studio>();
    let desk = studio.shaping;
    let png = move |ids: &'static [&'static str], cols: usize, name: &'static str| {
        move || {
            if let Err(e) = save_canvases(ids, cols, name) {
                studio
                    .page
                    .notify(format!("{name} could not be downloaded: {e}"));
            }
        }
    };
    let no_run = move || desk.run.view.with(Option::is_none);
    let no_grid = move || desk.grid.view.with(Option::is_none);
    let no_boxes = move || desk.compare.view.with(Option::is_none);
    view! {
        <Card title="Export">
            <div class="actions">
                {button("button", "shaping-export-run", "Outcomes CSV", no_run, move || desk.export_run())}
                {button("button", "shaping-export-grid", "Grid CSV", no_grid, move || desk.export_grid())}
            </div>
            <div class="actions">
                {button("button small", "shaping-png-timelines", "Timelines PNG", no_run, png(&TIMELINES, 2, "skyplan-shaping-timelines.png"))}
                {button("button small", "shaping-png-boxes", "Policies PNG", no_boxes, png(&["shaping-boxes"], 1, "skyplan-shaping-policies.png"))}
                {button("button small", "shaping-png-grid", "Heat maps PNG", no_grid, png(&HEAT_MAPS, 3, "skyplan-shaping-grid.png"))}
            </div>
            <p class="hint">
                "Outcomes: one row per application and run (baseline, shaped) — finish, turnaround, attempts, failures, preemptions, wasted component-seconds, slack. Grid: one row per cell, the recommended one flagged."
            </p>
        </Card>
    }
}
