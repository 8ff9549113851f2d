//! What the SLOs panel says besides its cards: the engine's last refusal,
//! and where to get runs when none are loaded.

use crate::nav::Panel;
use crate::state::Studio;
use leptos::prelude::*;

/// The engine's last refusal, until dismissed.
#[component]
pub fn ErrorBar() -> impl IntoView {
    let slo = expect_context::<Studio>().slo;
    move || {
        slo.error.get().map(|message| {
            view! {
                <div class="slo-error" role="alert">
                    <strong>"Not accepted"</strong>
                    <span data-testid="slo-error">{message}</span>
                    <button
                        class="icon-button"
                        aria-label="Dismiss"
                        on:click=move |_| slo.error.set(None)
                    >
                        "×"
                    </button>
                </div>
            }
        })
    }
}

/// What the panel shows without runs: where to get some.
#[component]
pub fn EmptyState() -> impl IntoView {
    let studio = expect_context::<Studio>();
    let panel = expect_context::<RwSignal<Panel>>();
    view! {
        <section class="card empty-state" data-testid="slo-empty">
            {move || {
                if studio.page.ready.get() {
                    view! {
                        <h2>"No job runs loaded"</h2>
                        <p>
                            "SLOs are inferred from the runs of recurring jobs: a runs CSV with input-available and output-read times, or a Hadoop native log. Import one in Traces, or load the demo workspace there."
                        </p>
                        <button class="button primary" on:click=move |_| panel.set(Panel::Traces)>
                            "Go to Traces"
                        </button>
                    }
                        .into_any()
                } else {
                    view! { <p>"Starting the engine…"</p> }.into_any()
                }
            }}
        </section>
    }
}
