//! A labelled number in the workspace totals.

use leptos::prelude::*;

/// A total: a label over a number whose element holds only the integer
/// (tests read it), under `data-testid` = `testid`.
#[component]
pub fn Stat(
    /// What is counted.
    label: &'static str,
    /// The `data-testid` of the number.
    testid: &'static str,
    /// The count.
    #[prop(into)]
    value: Signal<usize>,
) -> impl IntoView {
    view! {
        <div class="stat">
            <span class="stat-value" data-testid=testid>
                {move || value.get().to_string()}
            </span>
            <span class="stat-label">{label}</span>
        </div>
    }
}
