//! A labelled progress bar: what is being done, how far, and optionally
//! the numbers (bytes read of a file's size).

use leptos::prelude::*;

/// A progress bar with its text: `label` on the left, `detail` on the
/// right, `fraction` (`0..=1`) of the track filled.
#[component]
pub fn ProgressBar(
    /// Its `data-testid`.
    #[prop(into)]
    testid: String,
    /// What is being done (a file's name, a run's stage).
    #[prop(into)]
    label: Signal<String>,
    /// The numbers, if shown (`12.0 MiB / 40.0 MiB · 30%`).
    #[prop(optional)]
    detail: Option<Signal<String>>,
    /// Share done, `0..=1`.
    #[prop(into)]
    fraction: Signal<f64>,
    /// `data-name` (the file a bar is for).
    #[prop(optional)]
    name: Option<String>,
) -> impl IntoView {
    let pct = move || (fraction.get() * 100.0).clamp(0.0, 100.0);
    view! {
        <div class="progress" data-testid=testid data-name=name>
            <div class="progress-label">
                <span class="progress-name" title=move || label.get()>{move || label.get()}</span>
                {detail.map(|d| view! { <span class="progress-bytes">{move || d.get()}</span> })}
            </div>
            <div
                class="progress-track"
                role="progressbar"
                aria-valuemin="0"
                aria-valuemax="100"
                aria-valuenow=move || format!("{:.0}", pct())
            >
                <div class="progress-fill" style=move || format!("width: {:.1}%", pct())></div>
            </div>
        </div>
    }
}
