//! A sweep's controls on a card: the run button, Cancel while the pool
//! runs (it stops the sweep workers only, keeping the cells finished; the
//! engine worker is untouched), the progress in cells with the number of
//! workers, and the error line.

use super::pool::SweepJob;
use super::run::ErrorLine;
use crate::widgets::progress::ProgressBar;
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
