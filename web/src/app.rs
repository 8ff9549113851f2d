//! The page: header with navigation, notices, and the selected panel.

use crate::nav::Panel;
use crate::parts::agenda::panel::AgendaPanel;
use crate::parts::bundle::desk::is_bundle;
use crate::parts::bundle::panel::WorkspaceBar;
use crate::parts::harvest::panel::HarvestPanel;
use crate::parts::pricing::panel::PricingPanel;
use crate::parts::runway::panel::RunwayPanel;
use crate::parts::shaping::panel::ShapingPanel;
use crate::parts::slos::panel::SlosPanel;
use crate::parts::traces::panel::TracesPanel;
use crate::parts::tuning::panel::TuningPanel;
use crate::state::Studio;
use leptos::prelude::*;

/// The studio's root component: creates the state, starts the worker.
#[component]
pub fn App() -> impl IntoView {
    let studio = Studio::new();
    provide_context(studio);
    studio.connect();
    let panel = RwSignal::new(Panel::Runway);
    // Panels may send the user to another one (the SLOs empty state does).
    provide_context(panel);
    // A file dropped outside the drop zone must not replace the page; a
    // workspace bundle dropped anywhere is opened (the drop zone, which
    // takes it first, marks its drops handled).
    window_event_listener(leptos::ev::dragover, |ev: web_sys::DragEvent| {
        ev.prevent_default()
    });
    window_event_listener(leptos::ev::drop, move |ev: web_sys::DragEvent| {
        if ev.default_prevented() {
            return;
        }
        ev.prevent_default();
        let files = ev.data_transfer().and_then(|dt| dt.files());
        let bundles: Vec<web_sys::File> = files
            .map(|list| (0..list.length()).filter_map(|i| list.item(i)).collect())
            .unwrap_or_default();
        let bundles: Vec<web_sys::File> = bundles
            .into_iter()
            .filter(|f| is_bundle(&f.name()))
            .collect();
        if !bundles.is_empty() {
            studio.take_files(bundles);
        }
    });
    view! {
        <header class="topbar">
            <div class="brand">
                <span class="logo" aria-hidden="true"></span>
                <span class="brand-name">"skyplan"</span>
                <span class="brand-sub">"capacity-planning studio"</span>
            </div>
            <nav class="nav" aria-label="Panels">
                {Panel::ALL
                    .into_iter()
                    .map(|p| {
                        view! {
                            <button
                                class="nav-item"
                                class:active=move || panel.get() == p
                                data-testid=p.testid()
                                on:click=move |_| panel.set(p)
                            >
                                {p.label()}
                            </button>
                        }
                    })
                    .collect_view()}
            </nav>
            <WorkspaceBar/>
            <EngineStatus/>
        </header>
        <Notices/>
        <main class="page">
            {move || match panel.get() {
                Panel::Runway => view! { <RunwayPanel/> }.into_any(),
                Panel::Traces => view! { <TracesPanel/> }.into_any(),
                Panel::Slos => view! { <SlosPanel/> }.into_any(),
                Panel::Agenda => view! { <AgendaPanel/> }.into_any(),
                Panel::Pricing => view! { <PricingPanel/> }.into_any(),
                Panel::Harvest => view! { <HarvestPanel/> }.into_any(),
                Panel::Shaping => view! { <ShapingPanel/> }.into_any(),
                Panel::Tuning => view! { <TuningPanel/> }.into_any(),
            }}
        </main>
    }
}

/// The worker's state in one line.
#[component]
fn EngineStatus() -> impl IntoView {
    let studio = expect_context::<Studio>();
    let text = move || {
        let running = studio.traces.imports.with(Vec::len);
        if !studio.page.ready.get() {
            "Starting engine…".to_owned()
        } else if studio.page.restarting.get() {
            "Restarting engine from the saved workspace…".to_owned()
        } else if running > 0 {
            format!(
                "Importing {running} file{}…",
                if running == 1 { "" } else { "s" }
            )
        } else {
            "Engine ready · data stays in this browser".to_owned()
        }
    };
    view! {
        <div class="status" title=text class:busy=move || !studio.page.ready.get() || studio.page.restarting.get() || studio.traces.imports.with(|v| !v.is_empty())>
            <span class="status-dot" aria-hidden="true"></span>
            <span>{text}</span>
        </div>
    }
}

/// Messages about storage or the worker, each dismissable.
#[component]
fn Notices() -> impl IntoView {
    let studio = expect_context::<Studio>();
    move || {
        studio
            .page
            .notices
            .get()
            .into_iter()
            .enumerate()
            .map(|(i, message)| {
                view! {
                    <div class="notice" data-testid="notice" role="status">
                        <span>{message}</span>
                        <button
                            class="icon-button"
                            aria-label="Dismiss"
                            on:click=move |_| studio.page.notices.update(|n| {
                                if i < n.len() {
                                    n.remove(i);
                                }
                            })
                        >
                            "×"
                        </button>
                    </div>
                }
            })
            .collect_view()
    }
}
