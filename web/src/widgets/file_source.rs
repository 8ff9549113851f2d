//! A part's own input file (a tenants CSV, a reimages CSV, a scheduler
//! file): the line naming the one in use (or saying what to read), and a
//! row with the button reading one, the button forgetting it while one is
//! in use, and any more buttons of the card.

use super::button::button;
use super::file_button::FileButton;
use leptos::prelude::*;
use web_sys::File;

/// How the file in use is let go: the button's text, whether one is in
/// use (the button shows only then), what a click does.
pub struct Forget {
    /// The button's text.
    pub label: &'static str,
    /// A file is in use.
    pub shown: Signal<bool>,
    /// What a click does.
    pub on_forget: Callback<()>,
}

/// The file in use and the buttons to read one (the first file picked) or
/// forget it; `children` go after them in the same row.
#[component]
pub fn FileSource(
    /// The line's `data-testid`.
    hint_testid: &'static str,
    /// The line: the file in use, or what to read.
    #[prop(into)]
    hint: Signal<String>,
    /// The read button's text.
    label: &'static str,
    /// The file input's `data-testid`.
    testid: &'static str,
    /// The file types offered (`.csv,text/csv`).
    accept: &'static str,
    /// What to do with the file picked.
    #[prop(into)]
    on_file: Callback<File>,
    /// The forget button, if the file can be let go.
    #[prop(optional)]
    forget: Option<Forget>,
    /// More buttons in the row.
    #[prop(optional)]
    children: Option<Children>,
) -> impl IntoView {
    let forget = forget.map(
        |Forget {
             label,
             shown,
             on_forget,
         }| {
            view! {
                <Show when=move || shown.get()>
                    {button("button small", "", label, || false, move || on_forget.run(()))}
                </Show>
            }
        },
    );
    view! {
        <p class="hint" data-testid=hint_testid>{move || hint.get()}</p>
        <div class="actions">
            <FileButton
                label=label
                testid=testid
                accept=accept
                on_files=move |files| files.into_iter().take(1).for_each(|f| on_file.run(f))
            />
            {forget}
            {children.map(|c| c())}
        </div>
    }
}
