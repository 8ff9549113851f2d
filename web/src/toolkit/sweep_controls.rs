//! A sweep's controls on a card: the run button, Cancel while the pool
//! runs (it stops the sweep workers only, keeping the cells finished; the
//! engine worker is untouched), the progress in cells with the number of
//! workers, and the error line; and [`SweepCard`], the "where it pays"
//! card of every part that has one.

use super::pool::SweepJob;
use super::run::{ErrorLine, JobCard};
use crate::widgets::progress::ProgressBar;
use crate::widgets::regime::RegimePlot;
use crate::widgets::PlotCanvas;
use leptos::prelude::*;

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

/// A "where it pays" card: the sweep's status in the header, its form
/// (`children`), its controls, the regime chart and the table of its rows.
#[component]
pub fn SweepCard(
    /// The card's title.
    title: &'static str,
    /// What the card is for.
    text: &'static str,
    /// The sweep.
    sweep: SweepJob,
    /// Test ids: the controls' prefix, the status note's and the chart's.
    testids: (&'static str, &'static str, &'static str),
    /// The run button's text.
    label: &'static str,
    /// What a click does (build the spec from the form, start the sweep).
    #[prop(into)]
    on_run: Callback<()>,
    /// The chart.
    plot: Signal<Option<RegimePlot>>,
    /// What the chart area says while there is nothing to draw.
    #[prop(into)]
    placeholder: Signal<String>,
    /// The status note's text.
    #[prop(into)]
    status: Signal<String>,
    /// The table's column heads.
    columns: &'static [&'static str],
    /// The table's rows.
    #[prop(into)]
    rows: ViewFn,
    /// The form.
    children: Children,
) -> impl IntoView {
    let (controls, status_testid, chart) = testids;
    view! {
        <JobCard title=title text=text job=sweep.job status_testid=status_testid status=status>
            <div class="form-grid two">{children()}</div>
            <SweepControls sweep=sweep testid=controls label=label on_run=on_run/>
            <PlotCanvas data=plot placeholder=placeholder testid=chart/>
            <table class="data-table">
                <thead>
                    <tr>{columns.iter().map(|c| view! { <th>{*c}</th> }).collect_view()}</tr>
                </thead>
                <tbody>{move || rows.run()}</tbody>
            </table>
        </JobCard>
    }
}
