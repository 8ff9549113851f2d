//! The Shaping panel (the resource-shaping paper, §III-B, §IV): a workload
//! (generated like §IV's, or read from an applications CSV with its usage
//! CSV, a workload JSON, Alibaba v2018 container tables or Google 2019
//! instance tables), the reservation baseline against the shaped run
//! (allocations follow the forecast + β = K1·R + K2·σ every minute after
//! the grace period), one application's and one host's timelines side by
//! side, the summary, Figure 2's policies as box plots, the K1 × K2 heat
//! maps (Figure 3) with the recommended cell, and exports. All work runs in
//! the worker; one file per card.
//!
//! Test ids: `shaping-panel`, `shaping-source`, `shaping-apps`,
//! `shaping-seed`, `shaping-load`, `shaping-hosts`, `shaping-host-cpu`,
//! `shaping-host-mem`, `shaping-files-input`, `shaping-loaded`,
//! `shaping-read-error`, `shaping-forget`, `shaping-predictor`,
//! `shaping-policy`, `shaping-k1`, `shaping-k2`, `shaping-grace`,
//! `shaping-arima-warning`, `shaping-run`, `shaping-status`
//! (`data-running`), `shaping-progress`, `shaping-error`, `shaping-app`,
//! `shaping-host`, `shaping-resource`, the canvases `shaping-app-baseline`,
//! `shaping-app-shaped`, `shaping-host-baseline`, `shaping-host-shaped`,
//! `shaping-boxes`, `shaping-heat-ratio`, `shaping-heat-slack`,
//! `shaping-heat-failed` (with `data-drawn`, `data-key`),
//! `shaping-speedup` (`data-value`), `shaping-summary-row` (`data-metric`,
//! `data-baseline`, `data-shaped`), `shaping-workload`, `shaping-compare`,
//! `shaping-compare-status`, `shaping-grid-apps`, `shaping-target`,
//! `shaping-grid-run`, `shaping-grid-status` (`data-running`),
//! `shaping-grid-progress`, `shaping-grid-error`, `shaping-grid-cell`
//! (`data-k1`, `data-k2`, `data-recommended`), `shaping-recommended`,
//! `shaping-export-run`, `shaping-export-grid`, `shaping-png-timelines`,
//! `shaping-png-boxes`, `shaping-png-grid`; "where it pays":
//! `shaping-pays-loads`, `shaping-pays-apps`, `shaping-pays-run`,
//! `shaping-pays-cancel`, `shaping-pays-progress` (`data-workers`),
//! `shaping-pays-status`, `shaping-pays-error`, `shaping-pays-chart`,
//! `shaping-pays-row` (`data-cell`, `data-load`, `data-config`,
//! `data-speedup`).

mod export;
mod grid;
mod pays;
mod run;
mod summary;
mod timelines;
mod workload;

use self::export::ExportCard;
use self::grid::GridCard;
use self::pays::PaysCard;
use self::run::RunCard;
use self::summary::SummaryCard;
use self::timelines::TimelinesCard;
use self::workload::WorkloadCard;
use leptos::prelude::*;

/// The Shaping panel. It opens at work: the first time it is shown, with
/// no run yet, it asks the worker for the latest run saved (shown again
/// with its settings and timelines, as before the reload) or, when none
/// is, the default run starts by itself (the worker holds the request
/// until it is ready), so the timelines and the summary appear without
/// pressing anything.
#[component]
pub fn ShapingPanel() -> impl IntoView {
    let desk = expect_context::<crate::state::Studio>().shaping;
    if desk.run.view.with_untracked(Option::is_none) && !desk.run.running.get_untracked() {
        desk.open();
    }
    view! {
        <div class="pricing-page tuning-page shaping-page" data-testid="shaping-panel">
            <div class="agenda">
                <div class="main-column">
                    <TimelinesCard/>
                    <SummaryCard/>
                    <GridCard/>
                    <PaysCard/>
                </div>
                <aside class="sidebar">
                    <WorkloadCard/>
                    <RunCard/>
                    <ExportCard/>
                </aside>
            </div>
        </div>
    }
}
