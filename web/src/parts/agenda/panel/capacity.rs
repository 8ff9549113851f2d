//! The capacity inputs and how the capacity was set.

use crate::parts::agenda::desk::CapacityForm;
use crate::state::Studio;
use leptos::prelude::*;

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
        <section class="card">
            <header class="card-head">
                <h2>"Capacity"</h2>
            </header>
            <form
                class="form-grid"
                on:submit=move |ev| {
                    ev.prevent_default();
                    apply();
                }
            >
                <label class="field">
                    <span class="field-label">"Cores"</span>
                    <input
                        type="number"
                        min="1"
                        step="any"
                        data-testid="capacity-cores"
                        prop:value=move || form.with(|f| f.cores.clone())
                        on:input=move |ev| form.update(|f| f.cores = event_target_value(&ev))
                    />
                </label>
                <label class="field">
                    <span class="field-label">"Memory (MB)"</span>
                    <input
                        type="number"
                        min="1"
                        step="any"
                        data-testid="capacity-memory"
                        prop:value=move || form.with(|f| f.memory.clone())
                        on:input=move |ev| form.update(|f| f.memory = event_target_value(&ev))
                    />
                </label>
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
        </section>
    }
}
