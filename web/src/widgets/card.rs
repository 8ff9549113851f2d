//! A card of a panel: a `<section class="card">` with its header (the
//! title and what the card shows beside it: a note, a status, actions)
//! and, optionally, a line saying what the card is for.

use leptos::prelude::*;

/// A card: `title` in its header with `head` beside it, `text` under it,
/// then the body.
#[component]
pub fn Card(
    /// The title.
    #[prop(into)]
    title: Signal<String>,
    /// More classes (`sim-card`).
    #[prop(optional)]
    class: &'static str,
    /// Its `data-testid`.
    #[prop(optional)]
    testid: Option<&'static str>,
    /// What the header shows beside the title.
    #[prop(optional, into)]
    head: Option<ViewFn>,
    /// What the card is for, in a line.
    #[prop(optional)]
    text: Option<&'static str>,
    /// The body.
    children: Children,
) -> impl IntoView {
    let class = if class.is_empty() {
        "card".to_owned()
    } else {
        format!("card {class}")
    };
    view! {
        <section class=class data-testid=testid>
            <header class="card-head">
                <h2>{move || title.get()}</h2>
                {head.map(|h| h.run())}
            </header>
            {text.map(|t| view! { <p class="card-text">{t}</p> })}
            {children()}
        </section>
    }
}
