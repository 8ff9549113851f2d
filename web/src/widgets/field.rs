//! The fields of a form held in a signal: the form keeps what was typed,
//! and the desk parses it when the form is sent (so a half-typed number is
//! never refused while typing). [`fields!`](crate::fields) lists a form's
//! text fields; [`text_field`], [`number_field`] and [`line_field`] draw
//! one; [`range_field`] is a slider over one; [`choice`] is a `<select>`
//! of typed options, [`checkbox`] a checkbox.

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

/// How a field's input reads and when it writes the form.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Text with a decimal keyboard, written when committed (on change).
    Decimal,
    /// A number input, written on every keystroke.
    Number,
    /// Text, written on every keystroke.
    Line,
}

/// How a field looks beyond its kind.
#[derive(Clone, Copy, Default)]
struct Look {
    /// What the empty input says.
    placeholder: Option<&'static str>,
    /// The label beside the input rather than above it.
    inline: bool,
}

/// A text input bound to one field of `form`, committed on change.
pub fn text_field<F: Send + Sync + 'static>(form: RwSignal<F>, field: Field<F>) -> impl IntoView {
    input_field(form, field, Kind::Decimal, Look::default())
}

/// A [`text_field`] saying `placeholder` while empty.
pub fn hinted_field<F: Send + Sync + 'static>(
    form: RwSignal<F>,
    field: Field<F>,
    placeholder: &'static str,
) -> impl IntoView {
    let look = Look {
        placeholder: Some(placeholder),
        inline: false,
    };
    input_field(form, field, Kind::Decimal, look)
}

/// A number input bound to one field of `form`, kept on every keystroke.
pub fn number_field<F: Send + Sync + 'static>(form: RwSignal<F>, field: Field<F>) -> impl IntoView {
    input_field(form, field, Kind::Number, Look::default())
}

/// A text input bound to one field of `form` (a plain `String` signal is a
/// form of one field), kept on every keystroke.
pub fn line_field<F: Send + Sync + 'static>(form: RwSignal<F>, field: Field<F>) -> impl IntoView {
    input_field(form, field, Kind::Line, Look::default())
}

/// A [`line_field`] with its label beside it.
pub fn inline_line_field<F: Send + Sync + 'static>(
    form: RwSignal<F>,
    field: Field<F>,
) -> impl IntoView {
    let look = Look {
        placeholder: None,
        inline: true,
    };
    input_field(form, field, Kind::Line, look)
}

/// The whole of a `String` signal, as a [`Field`] of it.
pub const fn whole_text(label: &'static str, testid: &'static str) -> Field<String> {
    (label, testid, |s| s.clone(), |s, v| *s = v)
}

fn input_field<F: Send + Sync + 'static>(
    form: RwSignal<F>,
    (label, testid, get, set): Field<F>,
    kind: Kind,
    look: Look,
) -> impl IntoView {
    let live = kind != Kind::Decimal;
    let write = move |ev: leptos::ev::Event| {
        let v = event_target_value(&ev);
        form.update(|f| set(f, v));
    };
    view! {
        <label class=if look.inline { "field inline" } else { "field" }>
            <span class="field-label">{label}</span>
            <input
                type=if kind == Kind::Number { "number" } else { "text" }
                step=(kind == Kind::Number).then_some("any")
                inputmode=(kind == Kind::Decimal).then_some("decimal")
                placeholder=look.placeholder
                data-testid=testid
                prop:value=move || form.with(get)
                on:input=move |ev| if live { write(ev) }
                on:change=move |ev| if !live { write(ev) }
            />
        </label>
    }
}

/// A slider over one field of `form`, `min`…`max` by `step`, writing the
/// form at every move; `hold` is told when the slider is moved (`true`)
/// and when it is let go (`false`, on change), so a desk can answer moves
/// cheaply and leave the expensive part for the release.
pub fn range_field<F: Send + Sync + 'static>(
    form: RwSignal<F>,
    (label, testid, get, set): Field<F>,
    (min, max, step): (f64, f64, f64),
    hold: impl Fn(bool) + Copy + Send + Sync + 'static,
) -> impl IntoView {
    view! {
        <label class="control">
            <span class="field-label">{label}</span>
            <span class="range-row">
                <input
                    type="range"
                    data-testid=testid
                    min=min.to_string()
                    max=max.to_string()
                    step=step.to_string()
                    prop:value=move || form.with(get)
                    on:input=move |ev| {
                        hold(true);
                        let v = event_target_value(&ev);
                        form.update(|f| set(f, v));
                    }
                    on:change=move |_| hold(false)
                />
                <output class="range-value">{move || form.with(get)}</output>
            </span>
        </label>
    }
}

/// A labelled `<select>` of `options` — each a value, its `<option>`
/// value and its text — showing `current` and reporting the value chosen
/// to `set`.
pub fn choice<T: Copy + PartialEq + Send + Sync + 'static, V: Into<String>>(
    label: &'static str,
    testid: &'static str,
    options: Vec<(T, V, String)>,
    current: impl Fn() -> T + Copy + Send + Sync + 'static,
    set: impl Fn(T) + Send + Sync + 'static,
) -> impl IntoView {
    choice_in("field", (label, testid), options, current, |_| false, set)
}

/// A [`choice`] in a `<label class={class}>` (`control`: a chart's
/// control), greying out the options `disabled` says.
pub fn choice_in<T: Copy + PartialEq + Send + Sync + 'static, V: Into<String>>(
    class: &'static str,
    (label, testid): (&'static str, &'static str),
    options: Vec<(T, V, String)>,
    current: impl Fn() -> T + Copy + Send + Sync + 'static,
    disabled: impl Fn(T) -> bool + Copy + Send + Sync + 'static,
    set: impl Fn(T) + Send + Sync + 'static,
) -> impl IntoView {
    let options: Vec<(T, String, String)> = options
        .into_iter()
        .map(|(t, value, text)| (t, value.into(), text))
        .collect();
    let values: Vec<(T, String)> = options.iter().map(|(t, v, _)| (*t, v.clone())).collect();
    view! {
        <label class=class>
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
                            <option
                                value=value
                                prop:selected=move || current() == t
                                prop:disabled=move || disabled(t)
                            >
                                {text}
                            </option>
                        }
                    })
                    .collect_view()}
            </select>
        </label>
    }
}

/// A labelled `<select>` of one field of `form`: `none` (the empty value)
/// first, then the names `names()` lists as they change (`inline`: the
/// label beside the select).
pub fn name_choice<F: Send + Sync + 'static>(
    form: RwSignal<F>,
    (label, testid, get, set): Field<F>,
    none: &'static str,
    names: impl Fn() -> Vec<String> + Send + Sync + 'static,
    inline: bool,
) -> impl IntoView {
    view! {
        <label class=if inline { "field inline" } else { "field" }>
            <span class="field-label">{label}</span>
            <select
                data-testid=testid
                on:change=move |ev| {
                    let v = event_target_value(&ev);
                    form.update(|f| set(f, v));
                }
            >
                <option value="">{none}</option>
                {move || {
                    names()
                        .into_iter()
                        .map(|name| {
                            let selected = form.with(|f| get(f) == name);
                            view! { <option value=name.clone() selected=selected>{name.clone()}</option> }
                        })
                        .collect_view()
                }}
            </select>
        </label>
    }
}

/// A checkbox with its label: shows `checked()`, reports a change to `set`.
pub fn checkbox(
    testid: &'static str,
    label: &'static str,
    checked: impl Fn() -> bool + Send + Sync + 'static,
    set: impl Fn(bool) + 'static,
) -> impl IntoView {
    view! {
        <label class="check">
            <input
                type="checkbox"
                data-testid=testid
                prop:checked=checked
                on:change=move |ev| set(event_target_checked(&ev))
            />
            <span>{label}</span>
        </label>
    }
}
