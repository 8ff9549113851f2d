//! The Pricing panel (MRM §3.2, §4.2, §5): describe a new job or pick one
//! from the loaded job history; the worker estimates it by every method
//! (the chosen one highlighted), plans with the chosen method's PI upper
//! bound, and quotes it against the queue — the earliest feasible finish
//! and the price–deadline curve. Choose a deadline (click the curve or type
//! it) and admit the job: it joins the queue at that price, and the queue's
//! lazy schedule is redrawn. The queue is kept across reloads. Below, the
//! §6.3 simulation (MRM, FCFS and priority across loads) runs in the worker
//! on Run, and again whenever one of its settings changes. One file per
//! card.
//!
//! Test hooks: `[data-testid=estimate-row]` (with `data-phase`,
//! `data-method` and `data-used`), `earliest-finish` (with `data-secs`),
//! `chosen-price` (with `data-price`), the `price-curve`
//! and `gantt` canvases (with `data-drawn`), `deadline-input`, `admit`,
//! `pricing-error`, `quote-error`, `queue-row` (with `data-name`);
//! `sim-status` (with `data-running`), `sim-row` (with `data-policy`,
//! `data-interarrival`), the `sim-waiting`, `sim-tardy` and `sim-earliness`
//! canvases, `sim-error`.

mod job;
mod queue;
mod quote;
mod settings;
mod simulation;

use self::job::JobCard;
use self::queue::QueueCard;
use self::quote::QuoteCard;
use self::settings::SettingsCard;
use self::simulation::SimulationCard;
use crate::state::Studio;
use leptos::prelude::*;

/// The Pricing panel.
#[component]
pub fn PricingPanel() -> impl IntoView {
    let studio = expect_context::<Studio>();
    let desk = studio.pricing;
    desk.show(true);
    on_cleanup(move || desk.show(false));
    // The history and the queue, now and whenever the workspace changes.
    Effect::new(move |_| {
        studio.traces.workspace.track();
        studio.pricing.open_pricing();
    });
    // A quote for every change of the form.
    Effect::new(move |_| {
        desk.form.track();
        studio.pricing.request_quote();
    });
    view! {
        <div class="pricing-page">
            <div class="agenda pricing">
                <div class="main-column">
                    <QuoteCard/>
                    <QueueCard/>
                </div>
                <aside class="sidebar">
                    <JobCard/>
                    <SettingsCard/>
                </aside>
            </div>
            <SimulationCard/>
        </div>
    }
}
