//! The controls of a [`Job`] on a card: its run button, its cancel button,
//! its status note, its progress bar with what it is doing, and its error
//! line. A card lays them out; [`RunControls`] is the usual body layout
//! (button, cancel while a run is out, progress, error) and [`JobStatus`]
//! the header's note.

use super::job::{busy_text, Job};
use crate::page::Page;
use crate::widgets::card::Card;
use crate::widgets::progress::ProgressBar;
use leptos::prelude::*;

/// A job's run button: disabled while a run is out (or while `blocked`),
/// with a [`CancelButton`] beside it while a run is out (its test id the
/// run button's with `-cancel` for `-run`).
#[component]
pub fn RunButton<T: Send + Sync + 'static>(
    /// The job it runs.
    job: Job<T>,
    /// The button's `data-testid`.
    #[prop(into)]
    testid: String,
    /// Its text.
    label: &'static str,
    /// What a click does (parse the form, start the job, send it).
    #[prop(into)]
    on_run: Callback<()>,
    /// A small button (in a card's header or a row of controls).
    #[prop(optional)]
    small: bool,
    /// Disabled for another reason too (nothing to run on yet).
    #[prop(optional)]
    blocked: Option<Signal<bool>>,
) -> impl IntoView {
    let class = if small {
        "button small primary"
    } else {
        "button primary"
    };
    let cancel = format!("{}-cancel", testid.strip_suffix("-run").unwrap_or(&testid));
    view! {
        <button
            class=class
            data-testid=testid
            disabled=move || job.running.get() || blocked.is_some_and(|b| b.get())
            on:click=move |_| on_run.run(())
        >
            {label}
        </button>
        <Show when=move || job.running.get()>
            <CancelButton page=job.page() testid=cancel.clone() small=small/>
        </Show>
    }
}

/// A card header's run: the job's status note and its small run button
/// (with its cancel button while a run is out). Test ids: `{testid}-status`,
/// `{testid}-run`, `{testid}-cancel`.
#[component]
pub fn HeadRun<T: Send + Sync + 'static>(
    /// The job.
    job: Job<T>,
    /// The prefix of the test ids.
    testid: &'static str,
    /// The status note's text (as [`Job::status`] words it).
    #[prop(into)]
    status: Signal<String>,
    /// What a click does.
    #[prop(into)]
    on_run: Callback<()>,
    /// Disabled for another reason too (nothing to run on yet).
    #[prop(optional)]
    blocked: Option<Signal<bool>>,
) -> impl IntoView {
    view! {
        <JobStatus job=job testid=format!("{testid}-status") text=status/>
        <div class="head-actions">
            <SmallRun job=job testid=testid on_run=on_run blocked=blocked/>
        </div>
    }
}

/// A small "Run" button of a job (test ids `{testid}-run`,
/// `{testid}-cancel`), as a card's header or a section's row has it.
#[component]
pub fn SmallRun<T: Send + Sync + 'static>(
    /// The job.
    job: Job<T>,
    /// The prefix of the test ids.
    testid: &'static str,
    /// What a click does.
    #[prop(into)]
    on_run: Callback<()>,
    /// Disabled for another reason too.
    blocked: Option<Signal<bool>>,
) -> impl IntoView {
    view! {
        <RunButton
            job=job
            testid=format!("{testid}-run")
            label="Run"
            small=true
            blocked=Signal::derive(move || blocked.is_some_and(|b| b.get()))
            on_run=on_run
        />
    }
}

/// Stops the engine's runs: the worker is ended and a fresh one restores
/// the saved workspace (the engine runs synchronously, so this is the only
/// way to stop a run); every run out is cancelled, its last result kept.
#[component]
pub fn CancelButton(
    /// The page whose worker restarts.
    page: Page,
    /// The button's `data-testid`.
    #[prop(into)]
    testid: String,
    /// A small button.
    #[prop(optional)]
    small: bool,
) -> impl IntoView {
    let class = if small { "button small" } else { "button" };
    view! {
        <button
            class=class
            data-testid=testid
            title="Stops the engine: it restarts from the saved workspace"
            on:click=move |_| page.cancel_runs()
        >
            "Cancel"
        </button>
    }
}

/// A job's status note (`data-running` says whether a run is out): `text`
/// is what it is doing or what it last did, as [`Job::status`] words it.
#[component]
pub fn JobStatus<T: Send + Sync + 'static>(
    /// The job.
    job: Job<T>,
    /// The note's `data-testid`.
    #[prop(into)]
    testid: String,
    /// Its text.
    #[prop(into)]
    text: Signal<String>,
    /// Its class (a card header's note unless told).
    #[prop(default = "card-note")]
    class: &'static str,
) -> impl IntoView {
    view! {
        <span class=class data-testid=testid data-running=move || job.running.get().to_string()>
            {move || text.get()}
        </span>
    }
}

/// A card whose header is one job's status note (`data-running`), for a
/// card that is about one piece of worker work.
#[component]
pub fn JobCard<T: Send + Sync + 'static>(
    /// The card's title.
    title: &'static str,
    /// What the card is for, in a line.
    text: &'static str,
    /// More classes of the card.
    #[prop(optional)]
    class: &'static str,
    /// The card's `data-testid`.
    #[prop(optional)]
    testid: Option<&'static str>,
    /// The job.
    job: Job<T>,
    /// The status note's `data-testid`.
    status_testid: &'static str,
    /// The status note's text (as [`Job::status`] words it).
    #[prop(into)]
    status: Signal<String>,
    /// The body.
    children: Children,
) -> impl IntoView {
    let head = move || view! { <JobStatus job=job testid=status_testid text=status/> };
    match testid {
        Some(testid) => view! {
            <Card title=title text=text class=class testid=testid head=head>{children()}</Card>
        }
        .into_any(),
        None => view! { <Card title=title text=text class=class head=head>{children()}</Card> }
            .into_any(),
    }
}

/// An error line: shown while `error` holds a message.
#[component]
pub fn ErrorLine(
    /// Its `data-testid`.
    #[prop(into)]
    testid: String,
    /// The message, if any.
    error: RwSignal<Option<String>>,
    /// Keep the message's line breaks (a list of located errors).
    #[prop(optional)]
    pre: bool,
) -> impl IntoView {
    move || {
        let testid = testid.clone();
        error.get().map(|e| {
            if pre {
                view! { <pre class="field-error" data-testid=testid>{e}</pre> }.into_any()
            } else {
                view! { <p class="field-error" data-testid=testid>{e}</p> }.into_any()
            }
        })
    }
}

/// A job's controls in a card's body: the run button (with `children`,
/// more buttons, beside it; a cancel button while a run is out), the run's
/// progress bar while it counts, and the error line. Test ids:
/// `{testid}-run`, `{testid}-cancel`, `{testid}-progress`,
/// `{testid}-error`.
#[component]
pub fn RunControls<T: Send + Sync + 'static>(
    /// The job.
    job: Job<T>,
    /// The prefix of the test ids.
    testid: &'static str,
    /// The button's text.
    label: &'static str,
    /// What a click does.
    #[prop(into)]
    on_run: Callback<()>,
    /// What a run does, for its progress bar (`searching` shows
    /// `searching… 3 / 10`).
    busy: &'static str,
    /// What the progress counts, after the numbers (` runs`).
    #[prop(optional)]
    unit: &'static str,
    /// The progress bar's text and share when the run has stages of its
    /// own (instead of `busy` and steps done).
    #[prop(optional)]
    stage: Option<Signal<(String, f64)>>,
    /// Disabled for another reason too.
    #[prop(optional)]
    blocked: Option<Signal<bool>>,
    /// More buttons beside the run button.
    #[prop(optional)]
    children: Option<Children>,
) -> impl IntoView {
    let (label_text, fraction) = match stage {
        Some(stage) => (
            Signal::derive(move || stage.get().0),
            Signal::derive(move || stage.get().1),
        ),
        None => (
            Signal::derive(move || busy_text(busy, job.progress.get(), unit)),
            Signal::derive(move || job.fraction()),
        ),
    };
    let counting = move || job.running.get() && job.progress.with(|p| p.1 > 0);
    view! {
        <div class="actions">
            <RunButton
                job=job
                testid=format!("{testid}-run")
                label=label
                on_run=on_run
                blocked=Signal::derive(move || blocked.is_some_and(|b| b.get()))
            />
            {children.map(|c| c())}
        </div>
        <Show when=counting>
            <ProgressBar testid=format!("{testid}-progress") label=label_text fraction=fraction/>
        </Show>
        <ErrorLine testid=format!("{testid}-error") error=job.error/>
    }
}
