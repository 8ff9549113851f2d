//! A labelled progress bar for one import.

use super::format::{bytes, percent};
use leptos::prelude::*;

/// One file being imported: its name, a bar, and bytes read of its size.
#[component]
pub fn ProgressBar(
    /// File name.
    #[prop(into)]
    name: String,
    /// Bytes read so far.
    done: u64,
    /// File size in bytes.
    total: u64,
) -> impl IntoView {
    let pct = percent(done, total);
    view! {
        <div class="progress" data-testid="progress" data-name=name.clone()>
            <div class="progress-label">
                <span class="progress-name" title=name.clone()>{name.clone()}</span>
                <span class="progress-bytes">
                    {format!("{} / {} · {pct:.0}%", bytes(done), bytes(total))}
                </span>
            </div>
            <div
                class="progress-track"
                role="progressbar"
                aria-valuemin="0"
                aria-valuemax="100"
                aria-valuenow=format!("{pct:.0}")
            >
                <div class="progress-fill" style=format!("width: {pct:.1}%")></div>
            </div>
        </div>
    }
}
