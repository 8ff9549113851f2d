//! The workspace buttons in the page's header, always there: "Save
//! workspace", "Download report", "Open workspace" and the status line of
//! the last of them.
//!
//! Test ids: `workspace-save`, `workspace-report`, `workspace-open` (the
//! file input), `workspace-status` (with `data-state`: saving, opening,
//! reporting, saved, opened, reported, failed).

use crate::parts::bundle::desk::BundleDesk;
use crate::state::Studio;
use crate::widgets::file_button::FileButton;
use leptos::prelude::*;

/// The header's workspace controls.
#[component]
pub fn WorkspaceBar() -> impl IntoView {
    let studio = expect_context::<Studio>();
    let desk = studio.bundle;
    let busy = move || {
        !studio.page.ready.get() || desk.status.with(|s| s.as_ref().is_some_and(|s| s.busy()))
    };
    // The two downloads: the same button, disabled while the studio is
    // busy, its title saying in full what it writes.
    let download = move |testid: &'static str,
                         label: &'static str,
                         title: &'static str,
                         run: fn(BundleDesk)| {
        view! {
            <button
                class="button small"
                data-testid=testid
                title=title
                disabled=busy
                on:click=move |_| run(desk)
            >
                {label}
            </button>
        }
    };
    view! {
        <div class="workspace-bar">
            {download(
                "workspace-save",
                "Save workspace",
                "Download everything the studio keeps — files, decisions, every panel — as one .skyplan file",
                BundleDesk::save,
            )}
            {download(
                "workspace-report",
                "Download report",
                "Download the plan report: one self-contained HTML page of the saved workspace — SLOs, agenda, pricing, harvesting, shaping and tuning advice, each with its settings",
                BundleDesk::report,
            )}
            <FileButton
                label="Open workspace"
                testid="workspace-open"
                accept=".skyplan,application/gzip"
                title="Open a .skyplan file in place of this workspace (it is checked first; a file refused changes nothing)"
                on_files=move |files| {
                    if let Some(file) = files.into_iter().next() {
                        desk.open(file);
                    }
                }
            />
            <span
                class="workspace-status"
                data-testid="workspace-status"
                data-state=move || desk.status.with(|s| s.as_ref().map_or("", |s| s.state()))
                role="status"
                title=move || desk.status.with(|s| s.as_ref().map(|s| s.text()).unwrap_or_default())
            >
                {move || desk.status.with(|s| s.as_ref().map(|s| s.text()).unwrap_or_default())}
            </span>
        </div>
    }
}
