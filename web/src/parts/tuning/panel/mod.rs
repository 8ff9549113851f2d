//! The Tuning panel (AdaptiveConfig, TPDS 2019): the queue tree the grid
//! starts from (edited here or read from the cluster's
//! `capacity-scheduler.xml` / Fair allocation file), the job mix of a window
//! of the loaded history, every candidate configuration's estimated mean
//! latency by Algorithm 1 with the best marked, the chosen configuration's
//! schedule (Figure 7's picture), the simulated latency of the best against
//! the current configuration and the engine's verdict (a change only when
//! the simulation confirms it), Algorithm 3's split among several groups, and
//! the tuned configuration as YARN XML, and "where it pays" (the contention
//! sweep on the sweep pool). All work runs in the worker; one file per
//! card.
//!
//! Test ids: `tuning-panel`, `tuning-scheduler`, `tuning-queue-count`,
//! `tuning-queue-row` (`data-queue`), `tuning-share`, `tuning-policy`,
//! `tuning-capacity-sum`, `tuning-xml-input`, `tuning-source`,
//! `tuning-run`, `tuning-status` (`data-running`), `tuning-progress`,
//! `tuning-error`, `tuning-best` (`data-latency`), `tuning-current`
//! (`data-latency`), `tuning-simulated`, `tuning-estimate-error`
//! (`data-error`), `tuning-advice` (`data-verdict`: `current`, `confirmed`
//! or `unconfirmed`; `data-advised`: the configuration advised), `tuning-tie`, `tuning-candidates` and
//! `tuning-schedule` and `tuning-curves` (canvases with `data-drawn`),
//! `tuning-candidate-row` (`data-index`, `data-best`, `data-latency`),
//! `tuning-mix-row`, `tuning-split-row`, `tuning-group`, `tuning-adopt`,
//! `tuning-export`, `tuning-pays-loads`, `tuning-pays-queues`,
//! `tuning-pays-mixes`, `tuning-pays-run` (with the sweep controls' ids),
//! `tuning-pays-status`, `tuning-pays-chart`, `tuning-pays-row`
//! (`data-cell`, `data-load`, `data-queues`, `data-nonbest`).

mod pays;
mod queues;
mod results;
mod run;
mod schedule;
mod split;

use self::pays::PaysCard;
use self::queues::QueuesCard;
use self::results::ResultsCard;
use self::run::RunCard;
use self::schedule::ScheduleCard;
use self::split::SplitCard;
use leptos::prelude::*;

/// The Tuning panel. It opens at work: while no run is shown or out, the
/// default tuning of the loaded history starts by itself as soon as the
/// workspace holds workload jobs (the demo's at first visit), so the
/// candidates, the recommendation and its simulated confirmation appear
/// without pressing anything. An empty workspace starts nothing (there is
/// no history to tune on); loading one starts the run.
#[component]
pub fn TuningPanel() -> impl IntoView {
    let studio = expect_context::<crate::state::Studio>();
    let (desk, workspace) = (studio.tuning, studio.traces.workspace);
    Effect::new(move |_| {
        let has_jobs = workspace.with(|w| w.summary.workload_jobs > 0);
        let idle = desk.run.view.with_untracked(Option::is_none)
            && !desk.run.running.get_untracked()
            && desk.run.error.with_untracked(Option::is_none);
        if has_jobs && idle {
            desk.tune();
        }
    });
    view! {
        <div class="pricing-page tuning-page" data-testid="tuning-panel">
            <div class="agenda">
                <div class="main-column">
                    <ResultsCard/>
                    <ScheduleCard/>
                    <SplitCard/>
                    <PaysCard/>
                </div>
                <aside class="sidebar">
                    <QueuesCard/>
                    <RunCard/>
                </aside>
            </div>
        </div>
    }
}
