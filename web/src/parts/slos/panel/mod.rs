//! The SLOs panel (Morpheus §4–§5): the recurring jobs with their inferred
//! windows and why a deadline is or is not actionable, the groups that are
//! not periodic, and for the selected job its history skylines with the
//! proposed reservation `R*`, how it compares with the peak and a flat p90
//! reservation, and the owner's decision — sign off, override or reject —
//! saved in the browser and exported as CSV or JSON.
//!
//! Every figure comes from the worker ([`crate::parts::slos::desk`] sends the
//! requests, and parses the forms into decisions for the engine to
//! validate); this module lays out the cards, one file each.

mod decision;
mod decisions;
mod fit;
mod jobs;
mod labels;
mod notices;
mod quality;
mod settings;

use self::decisions::DecisionsCard;
use self::fit::JobDetail;
use self::jobs::JobsCard;
use self::notices::{EmptyState, ErrorBar};
use crate::state::Studio;
use leptos::prelude::*;

/// The SLOs panel.
#[component]
pub fn SlosPanel() -> impl IntoView {
    let studio = expect_context::<Studio>();
    untrack(move || studio.slo.open_slos());
    on_cleanup(move || studio.slo.close_slos());
    let has_runs = move || studio.traces.workspace.with(|w| w.summary.runs > 0);
    view! {
        <div class="slos">
            <ErrorBar/>
            <Show when=has_runs fallback=|| view! { <EmptyState/> }>
                <JobsCard/>
                <JobDetail/>
            </Show>
            <DecisionsCard/>
        </div>
    }
}
