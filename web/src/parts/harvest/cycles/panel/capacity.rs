//! The harvestable containers per class and hour.

use crate::parts::harvest::cycles::charts::CapacityPlot;
use crate::state::Studio;
use crate::widgets::card::Card;
use crate::widgets::field::checkbox;
use crate::widgets::PlotCanvas;
use leptos::prelude::*;

/// The harvestable capacity per class and hour.
#[component]
pub fn CapacityCard() -> impl IntoView {
    let desk = expect_context::<Studio>().harvest.cycles;
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
        <Card
            title="Harvestable capacity"
            head=move || {
                view! {
                    {checkbox(
                        "harvest-capacity-low",
                        "low percentile (else mean)",
                        move || desk.show_low.get(),
                        move |on| desk.show_low.set(on),
                    )}
                }
            }
        >
            <PlotCanvas
                data=plot
                placeholder=Signal::derive(|| "The capacity appears after classification.".to_owned())
                testid="harvest-capacity"
            />
            <p class="hint">
                "Per class and hour of day: containers of one core left for batch work on the class's servers after the primary's usage (rounded up to whole cores) and its reserve of 4 cores per server — the mean of the history, or what is there on all but the worst days."
            </p>
        </Card>
    }
}
