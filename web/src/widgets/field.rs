//! A text field of a form held in a signal: the form keeps what was typed,
//! and the desk parses it when the form is sent (so a half-typed number is
//! never refused while typing).

use leptos::prelude::*;

/// A text field of a form held in a signal: label, `data-testid`, how to
/// read and write it.
pub type Field<F> = (
    &'static str,
    &'static str,
    fn(&F) -> String,
    fn(&mut F, String),
);

/// A text input bound to one field of `form`, committed on change.
pub fn text_field<F: Send + Sync + 'static>(
    form: RwSignal<F>,
    (label, testid, get, set): Field<F>,
) -> impl IntoView {
    view! {
        <label class="field">
            <span class="field-label">{label}</span>
            <input
                type="text"
                inputmode="decimal"
                data-testid=testid
                prop:value=move || form.with(get)
                on:change=move |ev| {
                    let v = event_target_value(&ev);
                    form.update(|f| set(f, v));
                }
            />
        </label>
    }
}
