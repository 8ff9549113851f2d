//! The inference settings, under the jobs card.

use crate::fields;
use crate::parts::slos::desk::InferenceForm;
use crate::state::Studio;
use crate::widgets::field::{number_field, Field};
use leptos::prelude::*;
use skyplan_engine::slo::SloParams;

/// The inference settings' fields.
const INFERENCE_FIELDS: [Field<InferenceForm>; 4] = fields![InferenceForm:
    (InferenceForm::START, "slo-start-percentile", start),
    (InferenceForm::DEADLINE, "slo-deadline-percentile", deadline),
    (InferenceForm::CV, "slo-max-read-cv", cv),
    (InferenceForm::SLACK, "slo-min-slack-ratio", slack),
];

/// The inference settings: percentiles and thresholds, checked by the engine.
#[component]
pub fn SettingsForm() -> impl IntoView {
    let slo = expect_context::<Studio>().slo;
    let form = RwSignal::new(InferenceForm::of(&slo.params.get_untracked()));
    let apply = move |_| match form.with_untracked(|f| f.params(slo.params.get_untracked())) {
        Ok(params) => slo.set_slo_params(params),
        Err(message) => slo.error.set(Some(message)),
    };
    let reset = move |_| {
        let defaults = SloParams::default();
        form.set(InferenceForm::of(&defaults));
        slo.set_slo_params(defaults);
    };
    view! {
        <div class="settings">
            {INFERENCE_FIELDS.into_iter().map(|f| number_field(form, f)).collect_view()}
            <div class="settings-actions">
                <button class="button primary small" on:click=apply>"Infer again"</button>
                <button class="button ghost small" on:click=reset>"Paper defaults"</button>
            </div>
        </div>
    }
}
