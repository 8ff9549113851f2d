//! Admission of the signed-off and overridden SLOs.

use crate::nav::Panel;
use crate::parts::agenda::protocol::{method_label, method_value, AgendaRequest, METHODS};
use crate::state::Studio;
use crate::widgets::card::Card;
use crate::widgets::field::{checkbox, choice};
use leptos::prelude::*;

/// Admission of the signed-off and overridden SLOs.
#[component]
pub fn AdmitCard() -> impl IntoView {
    let studio = expect_context::<Studio>();
    let desk = studio.agenda;
    let panel = use_context::<RwSignal<Panel>>();
    let waiting = move || desk.view.with(|v| v.as_ref().map_or(0, |v| v.admissible));
    view! {
        <Card title="Admit signed-off jobs">
            <p class="card-text" data-testid="admissible">
                {move || match waiting() {
                    0 => "No signed-off or overridden SLO is waiting.".to_owned(),
                    1 => "1 signed-off or overridden SLO is not in the plan yet.".to_owned(),
                    n => format!("{n} signed-off or overridden SLOs are not in the plan yet."),
                }}
            </p>
            {choice(
                "Placement",
                "method-select",
                METHODS.into_iter().map(|m| (m, method_value(m), method_label(m).to_owned())).collect(),
                move || desk.method.get(),
                move |m| desk.method.set(m),
            )}
            {checkbox(
                "stretch-toggle",
                "Stretch skylines down to 1 container a step",
                move || desk.stretch.get(),
                move |on| desk.stretch.set(on),
            )}
            <div class="actions">
                <button
                    class="button primary"
                    data-testid="admit-decisions"
                    disabled=move || waiting() == 0 || desk.busy.get()
                    on:click=move |_| {
                        let method = desk.method.get_untracked();
                        let stretch = desk.stretch.get_untracked();
                        studio.agenda.agenda_change(AgendaRequest::AdmitDecisions { method, stretch });
                    }
                >
                    "Admit"
                </button>
                {move || {
                    (waiting() == 0)
                        .then_some(panel)
                        .flatten()
                        .map(|panel| {
                            view! {
                                <button class="button ghost" on:click=move |_| panel.set(Panel::Slos)>
                                    "Go to SLOs →"
                                </button>
                            }
                        })
                }}
            </div>
            <p class="hint">
                "Periodic jobs are placed first, then one-offs; placed reservations never move on their own. Stretched skylines spread over their windows (lower peaks, no room to drag); unstretched ones keep their shape."
            </p>
        </Card>
    }
}
