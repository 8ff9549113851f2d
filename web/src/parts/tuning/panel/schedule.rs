//! The chosen configuration's schedule; adopt it or export it as XML.

use crate::parts::tuning::charts::SchedulePlot;
use crate::state::Studio;
use crate::widgets::PlotCanvas;
use leptos::prelude::*;

/// The chosen configuration's schedule; adopt it or export it as XML.
#[component]
pub fn ScheduleCard() -> impl IntoView {
    let studio = expect_context::<Studio>();
    let desk = studio.tuning;
    let plot = Signal::derive(move || desk.schedule.get().map(|view| SchedulePlot { view }));
    let placeholder =
        Signal::derive(|| "The best configuration's schedule appears here after a run.".to_owned());
    view! {
        <section class="card">
            <header class="card-head">
                <h2>"Schedule by Algorithm 1"</h2>
                <div class="head-actions">
                    <button
                        class="button small"
                        data-testid="tuning-adopt"
                        disabled=move || desk.schedule.with(Option::is_none)
                        on:click=move |_| desk.adopt()
                    >
                        "Make current"
                    </button>
                    <button
                        class="button small primary"
                        data-testid="tuning-export"
                        disabled=move || desk.schedule.with(Option::is_none)
                        on:click=move |_| desk.export()
                    >
                        "Download YARN XML"
                    </button>
                </div>
            </header>
            <PlotCanvas data=plot placeholder=placeholder testid="tuning-schedule"/>
            <p class="hint">
                "Each job waits (light) until its queue's share and policy give it containers, then runs (solid) on up to ×n containers, tasks on the earliest free container (Algorithm 2). The download updates the file read in Queues in place (other properties kept), or writes a fresh one."
            </p>
        </section>
    }
}
