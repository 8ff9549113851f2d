//! A sweep's controls on a card: the run button, Cancel while the pool
//! runs (it stops the sweep workers only, keeping the cells finished; the
//! engine worker is untouched), the progress in cells with the number of
//! workers, and the error line; and [`RegimeCard`], the "where it pays"
//! card the panels share around them.

use super::pool::SweepJob;
use super::run::{ErrorLine, JobCard};
use crate::widgets::progress::ProgressBar;
use crate::widgets::regime::RegimePlot;
use crate::widgets::PlotCanvas;
use leptos::prelude::*;
use skyplan_engine::sweep::CellRow;

/// Test ids: `{testid}-run`, `{testid}-cancel`, `{testid}-progress` (with
/// `data-workers`), `{testid}-error`.
#[component]
pub fn SweepControls(
    /// The sweep.
    sweep: SweepJob,
    /// The prefix of the test ids.
    testid: &'static str,
    /// The run button's text.
    label: &'static str,
    /// What a click does (build the spec from the form, start the sweep).
    #[prop(into)]
    on_run: Callback<()>,
) -> impl IntoView {
    let job = sweep.job;
    let text = Signal::derive(move || {
        let (done, total) = job.progress.get();
        let workers = sweep.workers.get();
        format!(
            "sweeping… {done} / {total} cells on {workers} worker{}",
            if workers == 1 { "" } else { "s" }
        )
    });
    let fraction = Signal::derive(move || job.fraction());
    view! {
        <div class="actions">
            <button
                class="button primary"
                data-testid=format!("{testid}-run")
                disabled=move || job.running.get()
                on:click=move |_| on_run.run(())
            >
                {label}
            </button>
            <Show when=move || job.running.get()>
                <button
                    class="button"
                    data-testid=format!("{testid}-cancel")
                    title="Stops the sweep's workers; the cells finished are kept"
                    on:click=move |_| sweep.cancel()
                >
                    "Cancel"
                </button>
            </Show>
        </div>
        <Show when=move || job.running.get()>
            <div data-testid=format!("{testid}-progress") data-workers=move || sweep.workers.get().to_string()>
                <ProgressBar testid=format!("{testid}-bar") label=text fraction=fraction/>
            </div>
        </Show>
        <ErrorLine testid=format!("{testid}-error") error=job.error/>
    }
}

/// A "where it pays" card: its sweep's status in the header, the form's
/// fields, the controls, the regime chart and the rows' table — what the
/// Shaping, Harvest and Tuning panels' cards share; each gives its fields,
/// its chart of the rows with the loaded data's point, and its table row
/// of a cell. The rows shown are the sweep's as they come while it runs,
/// the last result's otherwise ([`SweepJob::shown`]).
///
/// Test ids: `{status_testid}`, `{chart_testid}` and the controls' under
/// `testid`.
#[component]
pub fn RegimeCard<M>(
    /// The card's title.
    title: &'static str,
    /// What the card is for.
    text: &'static str,
    /// The sweep.
    sweep: SweepJob,
    /// The controls' prefix of test ids.
    testid: &'static str,
    /// The status note's test id.
    status_testid: &'static str,
    /// The chart's test id.
    chart_testid: &'static str,
    /// The run button's text.
    label: &'static str,
    /// What the run button does.
    #[prop(into)]
    on_run: Callback<()>,
    /// The loaded data's point on the sweep's axis, marked on the chart.
    mine: Signal<M>,
    /// The chart of the rows shown, with that point.
    plot: fn(&[CellRow], M) -> Option<RegimePlot>,
    /// What the chart says before any row.
    idle: &'static str,
    /// The table's headers.
    cols: Vec<&'static str>,
    /// A row of the table, `None` for a cell that is not this part's (a
    /// failed one).
    row: fn(CellRow) -> Option<AnyView>,
    /// The form's fields.
    children: Children,
) -> impl IntoView
where
    M: Clone + Send + Sync + 'static,
{
    let status = sweep.job.status("sweeping", " cells", "not run", |r| {
        format!("{} of {} cells", r.rows.len(), r.cells)
    });
    let placeholder = Signal::derive(move || {
        if sweep.job.running.get() {
            "The first cells are running on the sweep workers…".to_owned()
        } else {
            idle.to_owned()
        }
    });
    let rows = sweep.shown();
    let chart = Signal::derive(move || plot(&rows.get(), mine.get()));
    view! {
        <JobCard title=title text=text job=sweep.job status_testid=status_testid status=status>
            <div class="form-grid two">{children()}</div>
            <SweepControls sweep=sweep testid=testid label=label on_run=on_run/>
            <PlotCanvas data=chart placeholder=placeholder testid=chart_testid/>
            <table class="data-table">
                <thead>
                    <tr>{cols.into_iter().map(|c| view! { <th>{c}</th> }).collect_view()}</tr>
                </thead>
                <tbody>{move || rows.get().into_iter().filter_map(row).collect_view()}</tbody>
            </table>
        </JobCard>
    }
}
