//! CSV and PNG exports.

use crate::state::Studio;
use crate::widgets::download::save_canvases;
use leptos::prelude::*;

/// CSV and PNG exports.
#[component]
pub fn ExportCard() -> impl IntoView {
    let studio = expect_context::<Studio>();
    let desk = studio.shaping;
    let png = move |ids: &'static [&'static str], cols: usize, name: &'static str| {
        move |_| {
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
        <section class="card">
            <header class="card-head">
                <h2>"Export"</h2>
            </header>
            <div class="actions">
                <button
                    class="button"
                    data-testid="shaping-export-run"
                    disabled=no_run
                    on:click=move |_| desk.export_run()
                >
                    "Outcomes CSV"
                </button>
                <button
                    class="button"
                    data-testid="shaping-export-grid"
                    disabled=no_grid
                    on:click=move |_| desk.export_grid()
                >
                    "Grid CSV"
                </button>
            </div>
            <div class="actions">
                <button
                    class="button small"
                    data-testid="shaping-png-timelines"
                    disabled=no_run
                    on:click=png(
                        &["shaping-app-baseline", "shaping-app-shaped", "shaping-host-baseline", "shaping-host-shaped"],
                        2,
                        "skyplan-shaping-timelines.png",
                    )
                >
                    "Timelines PNG"
                </button>
                <button
                    class="button small"
                    data-testid="shaping-png-boxes"
                    disabled=no_boxes
                    on:click=png(&["shaping-boxes"], 1, "skyplan-shaping-policies.png")
                >
                    "Policies PNG"
                </button>
                <button
                    class="button small"
                    data-testid="shaping-png-grid"
                    disabled=no_grid
                    on:click=png(
                        &["shaping-heat-ratio", "shaping-heat-slack", "shaping-heat-failed"],
                        3,
                        "skyplan-shaping-grid.png",
                    )
                >
                    "Heat maps PNG"
                </button>
            </div>
            <p class="hint">
                "Outcomes: one row per application and run (baseline, shaped) — finish, turnaround, attempts, failures, preemptions, wasted component-seconds, slack. Grid: one row per cell, the recommended one flagged."
            </p>
        </section>
    }
}
