//! The harvestable containers per class and hour.

use crate::parts::harvest::cycles::charts::CapacityPlot;
use crate::state::Studio;
use crate::widgets::PlotCanvas;
use leptos::prelude::*;

/// The harvestable capacity per class and hour.
#[component]
pub fn CapacityCard() -> impl IntoView {
    let studio = expect_context::<Studio>();
    let desk = studio.harvest.cycles;
    let plot = Signal::derive(move || {
        let low = desk.show_low.get();
        desk.classify.view.with(|v| {
            v.as_ref()
                .filter(|v| !v.capacity.classes.is_empty())
                .map(|v| CapacityPlot {
                    capacity: v.capacity.clone(),
                    low,
                    key: v.ticket.to_string(),
                })
        })
    });
    view! {
        <section class="card">
            <header class="card-head">
                <h2>"Harvestable capacity"</h2>
                <label class="check">
                    <input
                        type="checkbox"
                        data-testid="harvest-capacity-low"
                        prop:checked=move || desk.show_low.get()
                        on:change=move |ev| desk.show_low.set(event_target_checked(&ev))
                    />
                    " low percentile (else mean)"
                </label>
            </header>
            <PlotCanvas
                data=plot
                placeholder=Signal::derive(|| "The capacity appears after classification.".to_owned())
                testid="harvest-capacity"
            />
            <p class="hint">
                "Per class and hour of day: containers of one core left for batch work on the class's servers after the primary's usage (rounded up to whole cores) and its reserve of 4 cores per server — the mean of the history, or what is there on all but the worst days."
            </p>
        </section>
    }
}
