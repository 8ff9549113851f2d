//! A button that picks files: a label styled as a button around a hidden
//! file input, which hands the chosen files on and clears itself (so the
//! same file can be picked again).

use leptos::prelude::*;
use web_sys::{File, HtmlInputElement};

/// A small button that picks files (`multiple`: more than one at a time)
/// of the types `accept` lists; `on_files` gets the ones chosen.
#[component]
pub fn FileButton(
    /// Its text.
    label: &'static str,
    /// The file input's `data-testid`.
    testid: &'static str,
    /// The file types offered (`.csv,text/csv`).
    accept: &'static str,
    /// What the chosen files are for, as a tooltip.
    #[prop(optional)]
    title: Option<&'static str>,
    /// Several files at a time.
    #[prop(optional)]
    multiple: bool,
    /// What to do with the files chosen.
    on_files: impl Fn(Vec<File>) + 'static,
) -> impl IntoView {
    view! {
        <label class="button small" title=title>
            {label}
            <input
                type="file"
                accept=accept
                multiple=multiple
                data-testid=testid
                style="display: none"
                on:change=move |ev| {
                    let input: HtmlInputElement = event_target(&ev);
                    let files: Vec<File> = input
                        .files()
                        .map(|list| (0..list.length()).filter_map(|i| list.get(i)).collect())
                        .unwrap_or_default();
                    if !files.is_empty() {
                        on_files(files);
                    }
                    input.set_value("");
                }
            />
        </label>
    }
}
