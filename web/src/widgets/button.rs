//! A plain button of a card: its class, `data-testid` and text, disabled
//! while a condition holds, and what a click does.

use leptos::prelude::*;

/// A button `label` (`class`, `testid`: none when empty), disabled while
/// `disabled()`, calling `run` on a click.
pub fn button(
    class: &'static str,
    testid: &'static str,
    label: &'static str,
    disabled: impl Fn() -> bool + Send + Sync + 'static,
    run: impl Fn() + 'static,
) -> impl IntoView {
    view! {
        <button
            class=class
            data-testid=(!testid.is_empty()).then_some(testid)
            disabled=disabled
            on:click=move |_| run()
        >
            {label}
        </button>
    }
}
