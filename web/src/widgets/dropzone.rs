//! The drop area with its file picker.

use leptos::prelude::*;
use web_sys::{DragEvent, FileList, HtmlInputElement};

/// A drop area for one or many files, with a "Choose files" picker inside.
/// `on_files` gets the files as soon as they are dropped or picked.
#[component]
pub fn Dropzone(
    /// Receives the dropped or picked files (never an empty list).
    on_files: Callback<FileList>,
) -> impl IntoView {
    let hover = RwSignal::new(false);
    let deliver = move |files: Option<FileList>| {
        if let Some(files) = files.filter(|f| f.length() > 0) {
            on_files.run(files);
        }
    };
    let over = move |ev: DragEvent| {
        ev.prevent_default();
        if let Some(dt) = ev.data_transfer() {
            dt.set_drop_effect("copy");
        }
        hover.set(true);
    };
    view! {
        <div
            class="dropzone"
            class:hover=move || hover.get()
            data-testid="dropzone"
            on:dragenter=over
            on:dragover=over
            on:dragleave=move |_| hover.set(false)
            on:drop=move |ev: DragEvent| {
                ev.prevent_default();
                hover.set(false);
                deliver(ev.data_transfer().and_then(|dt| dt.files()));
            }
        >
            <div class="dropzone-icon" aria-hidden="true">"⇪"</div>
            <p class="dropzone-title">"Drop trace files here"</p>
            <p class="dropzone-hint">
                "Hadoop native logs, job-run CSVs, utilization CSVs, SWIM TSVs. "
                "Files are read in the background and never leave this machine."
            </p>
            <label class="button">
                "Choose files…"
                <input
                    type="file"
                    multiple
                    class="visually-hidden"
                    data-testid="file-input"
                    on:change=move |ev| {
                        let input: HtmlInputElement = event_target(&ev);
                        deliver(input.files());
                        input.set_value("");
                    }
                />
            </label>
        </div>
    }
}
