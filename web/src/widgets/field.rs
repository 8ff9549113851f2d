//! The fields of a form held in a signal: the form keeps what was typed,
//! and the desk parses it when the form is sent (so a half-typed number is
//! never refused while typing). [`fields!`](crate::fields) lists a form's
//! text fields; [`text_field`] and [`number_field`] draw one; [`choice`]
//! is a `<select>` of typed options.

use leptos::prelude::*;

/// A text field of a form held in a signal: label, `data-testid`, how to
/// read and write it.
pub type Field<F> = (
    &'static str,
    &'static str,
    fn(&F) -> String,
    fn(&mut F, String),
);

/// The text fields of form type `F`: `fields![F: ("Label", "testid",
/// field), …]` is an array of [`Field`]s reading and writing `F.field`.
#[macro_export]
macro_rules! fields {
    ($form:ty: $(($label:expr, $testid:expr, $($field:tt)+)),* $(,)?) => {
        [$((
            $label,
            $testid,
            (|f: &$form| f.$($field)+.clone()) as fn(&$form) -> String,
            (|f: &mut $form, v: String| f.$($field)+ = v) as fn(&mut $form, String),
        )),*]
    };
}

/// A text input bound to one field of `form`, committed on change.
pub fn text_field<F: Send + Sync + 'static>(form: RwSignal<F>, field: Field<F>) -> impl IntoView {
    input_field(form, field, false)
}

/// A number input bound to one field of `form`, kept on every keystroke.
pub fn number_field<F: Send + Sync + 'static>(form: RwSignal<F>, field: Field<F>) -> impl IntoView {
    input_field(form, field, true)
}

fn input_field<F: Send + Sync + 'static>(
    form: RwSignal<F>,
    (label, testid, get, set): Field<F>,
    number: bool,
) -> impl IntoView {
    let value = move || form.with(get);
    let input = if number {
        view! {
            <input
                type="number"
                step="any"
                data-testid=testid
                prop:value=value
                on:input=move |ev| {
                    let v = event_target_value(&ev);
                    form.update(|f| set(f, v));
                }
            />
        }
        .into_any()
    } else {
        view! {
            <input
                type="text"
                inputmode="decimal"
                data-testid=testid
                prop:value=value
                on:change=move |ev| {
                    let v = event_target_value(&ev);
                    form.update(|f| set(f, v));
                }
            />
        }
        .into_any()
    };
    view! {
        <label class="field">
            <span class="field-label">{label}</span>
            {input}
        </label>
    }
}

/// A labelled `<select>` of `options` — each a value, its `<option>`
/// value and its text — showing `current` and reporting the value chosen
/// to `set`.
pub fn choice<T: Copy + PartialEq + Send + Sync + 'static>(
    label: &'static str,
    testid: &'static str,
    options: Vec<(T, &'static str, String)>,
    current: impl Fn() -> T + Copy + Send + Sync + 'static,
    set: impl Fn(T) + Send + Sync + 'static,
) -> impl IntoView {
    let values: Vec<(T, &'static str)> = options.iter().map(|(t, v, _)| (*t, *v)).collect();
    view! {
        <label class="field">
            <span class="field-label">{label}</span>
            <select
                data-testid=testid
                on:change=move |ev| {
                    let chosen = event_target_value(&ev);
                    if let Some((t, _)) = values.iter().find(|(_, v)| *v == chosen) {
                        set(*t);
                    }
                }
            >
                {options
                    .into_iter()
                    .map(|(t, value, text)| {
                        view! {
                            <option value=value selected=move || current() == t>
                                {text}
                            </option>
                        }
                    })
                    .collect_view()}
            </select>
        </label>
    }
}
