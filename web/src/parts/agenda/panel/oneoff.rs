//! The one-off reservation form (the desk parses it).

use crate::fields;
use crate::parts::agenda::desk::OneOffForm;
use crate::parts::agenda::protocol::method_label;
use crate::state::Studio;
use crate::widgets::card::Card;
use crate::widgets::field::{line_field, Field};
use leptos::prelude::*;

/// The one-off's name.
const NAME_FIELD: Field<OneOffForm> = fields![OneOffForm: ("Name", "oneoff-name", name)][0];

/// The one-off's window and work.
const ONE_OFF_FIELDS: [Field<OneOffForm>; 4] = fields![OneOffForm:
    ("Earliest start (UTC)", "oneoff-start", start),
    ("Deadline (UTC)", "oneoff-deadline", deadline),
    ("Containers", "oneoff-containers", containers),
    ("Duration (min)", "oneoff-minutes", minutes),
];

/// The one-off form.
#[component]
pub fn OneOffCard() -> impl IntoView {
    let studio = expect_context::<Studio>();
    let desk = studio.agenda;
    let form = RwSignal::new(OneOffForm::default());
    let local_error = RwSignal::new(None::<String>);
    let add = move || {
        let step_secs = desk
            .view
            .with_untracked(|v| v.as_ref().map_or(60, |v| v.step_secs));
        let (method, stretch) = (desk.method.get_untracked(), desk.stretch.get_untracked());
        match form.with_untracked(|f| f.request(step_secs, method, stretch)) {
            Ok(request) => {
                local_error.set(None);
                studio.agenda.agenda_change(request);
            }
            Err(e) => local_error.set(Some(e)),
        }
    };
    view! {
        <Card title="Add a one-off reservation">
            <form
                class="form-grid two"
                on:submit=move |ev| {
                    ev.prevent_default();
                    add();
                }
            >
                <div class="wide">{line_field(form, NAME_FIELD)}</div>
                {ONE_OFF_FIELDS.into_iter().map(|f| line_field(form, f)).collect_view()}
                <div class="wide actions">
                    <button class="button" type="submit" data-testid="oneoff-add" disabled=move || desk.busy.get()>
                        {move || format!("Add by {}", method_label(desk.method.get()))}
                    </button>
                </div>
            </form>
            {move || local_error.get().map(|e| view! { <p class="field-error">{e}</p> })}
            <p class="hint">
                "Placed with the method and stretch setting above, on the capacity left by periodic reservations; a later periodic admission may move it or push it out."
            </p>
        </Card>
    }
}
