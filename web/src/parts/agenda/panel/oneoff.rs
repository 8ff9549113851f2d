//! The one-off reservation form (the desk parses it).

use crate::parts::agenda::desk::OneOffForm;
use crate::parts::agenda::protocol::method_label;
use crate::state::Studio;
use leptos::prelude::*;

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
    let field = |label: &'static str,
                 testid: &'static str,
                 get: fn(&OneOffForm) -> String,
                 set: fn(&mut OneOffForm, String)| {
        view! {
            <label class="field">
                <span class="field-label">{label}</span>
                <input
                    type="text"
                    data-testid=testid
                    prop:value=move || form.with(get)
                    on:input=move |ev| form.update(|f| set(f, event_target_value(&ev)))
                />
            </label>
        }
    };
    view! {
        <section class="card">
            <header class="card-head">
                <h2>"Add a one-off reservation"</h2>
            </header>
            <form
                class="form-grid two"
                on:submit=move |ev| {
                    ev.prevent_default();
                    add();
                }
            >
                <div class="wide">{field("Name", "oneoff-name", |f| f.name.clone(), |f, v| f.name = v)}</div>
                {field("Earliest start (UTC)", "oneoff-start", |f| f.start.clone(), |f, v| f.start = v)}
                {field("Deadline (UTC)", "oneoff-deadline", |f| f.deadline.clone(), |f, v| f.deadline = v)}
                {field("Containers", "oneoff-containers", |f| f.containers.clone(), |f, v| f.containers = v)}
                {field("Duration (min)", "oneoff-minutes", |f| f.minutes.clone(), |f, v| f.minutes = v)}
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
        </section>
    }
}
