//! The chosen configuration's schedule; adopt it or export it as XML.

use crate::parts::tuning::charts::SchedulePlot;
use crate::state::Studio;
use crate::widgets::button::button;
use crate::widgets::card::Card;
use crate::widgets::figure::HintedChart;
use leptos::prelude::*;

/// The chosen configuration's schedule; adopt it or export it as XML.
#[component]
pub fn ScheduleCard() -> impl IntoView {
    let desk = expect_context::<Studio>().tuning;
    let plot = Signal::derive(move || desk.schedule.get().map(|view| SchedulePlot { view }));
    let placeholder =
        Signal::derive(|| "The best configuration's schedule appears here after a run.".to_owned());
    let none = move || desk.schedule.with(Option::is_none);
    view! {
        <Card
            title="Schedule by Algorithm 1"
            head=move || {
                view! {
                    <div class="head-actions">
                        {button("button small", "tuning-adopt", "Make current", none, move || desk.adopt())}
                        {button("button small primary", "tuning-export", "Download YARN XML", none, move || desk.export())}
                    </div>
                }
            }
        >
            <HintedChart
                data=plot
                placeholder=placeholder
                testid="tuning-schedule"
                hint="Each job waits (light) until its queue's share and policy give it containers, then runs (solid) on up to ×n containers, tasks on the earliest free container (Algorithm 2). The download updates the file read in Queues in place (other properties kept), or writes a fresh one."
            />
        </Card>
    }
}
