//! The capacity inputs and how the capacity was set.

use crate::fields;
use crate::parts::agenda::desk::CapacityForm;
use crate::state::Studio;
use crate::widgets::card::Card;
use crate::widgets::field::{number_field, Field};
use leptos::prelude::*;

/// The capacity's fields.
const CAPACITY_FIELDS: [Field<CapacityForm>; 2] = fields![CapacityForm:
    ("Cores", "capacity-cores", cores),
    ("Memory (MB)", "capacity-memory", memory),
];

/// The capacity inputs and how the capacity was set.
#[component]
pub fn CapacityCard() -> impl IntoView {
    let studio = expect_context::<Studio>();
    let desk = studio.agenda;
    let form = RwSignal::new(CapacityForm::default());
    let local_error = RwSignal::new(None::<String>);
    // The fields follow the plan's capacity whenever it changes.
    Effect::new(move |_| {
        if let Some(c) = desk.view.with(|v| v.as_ref().and_then(|v| v.capacity)) {
            form.set(CapacityForm::of(&c));
        }
    });
    let apply = move || match form.with_untracked(CapacityForm::capacity) {
        Ok(capacity) => {
            local_error.set(None);
            studio.agenda.set_agenda_capacity(capacity);
        }
        Err(e) => local_error.set(Some(e)),
    };
    view! {
        <Card title="Capacity">
            <form
                class="form-grid"
                on:submit=move |ev| {
                    ev.prevent_default();
                    apply();
                }
            >
                {CAPACITY_FIELDS.into_iter().map(|f| number_field(form, f)).collect_view()}
                <button class="button" type="submit" data-testid="capacity-apply">
                    "Apply"
                </button>
            </form>
            {move || local_error.get().map(|e| view! { <p class="field-error">{e}</p> })}
            <p class="hint" data-testid="capacity-note">
                {move || {
                    desk.view
                        .with(|v| v.as_ref().and_then(|v| v.capacity_note.clone()))
                        .unwrap_or_else(|| {
                            "Not set: derived from the lower bound on the peak when the first jobs are admitted, unless you set it first."
                                .into()
                        })
                }}
            </p>
        </Card>
    }
}
