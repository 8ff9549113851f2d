//! Method, level, cluster and price function.

use crate::fields;
use crate::parts::pricing::desk::PricingForm;
use crate::parts::pricing::protocol::{method_of, method_value, FUNCTIONS};
use crate::state::Studio;
use crate::widgets::card::Card;
use crate::widgets::field::{choice, text_field, Field};
use leptos::prelude::*;
use skyplan_engine::estimate::Method;

/// The PI level, κ and the cluster.
const SETTINGS_FIELDS: [Field<PricingForm>; 4] = fields![PricingForm:
    ("PI level (%)", "level-input", level),
    ("κ", "kappa-input", kappa),
    ("Map slots", "map-slots", map_slots),
    ("Reduce slots", "reduce-slots", reduce_slots),
];

/// Method, level, cluster and price function.
#[component]
pub fn SettingsCard() -> impl IntoView {
    let form = expect_context::<Studio>().pricing.form;
    view! {
        <Card title="Estimate, cluster and price">
            <div class="form-grid two">
                {choice(
                    "Method",
                    "estimate-method",
                    Method::ALL.into_iter().map(|m| (Some(m), method_value(m), m.to_string())).collect(),
                    move || form.with(|f| method_of(&f.method)),
                    move |m| {
                        if let Some(m) = m {
                            form.update(|f| f.method = method_value(m).into());
                        }
                    },
                )}
                {choice(
                    "Price function",
                    "function-select",
                    FUNCTIONS.into_iter().map(|(value, label)| (value, value, label.to_owned())).collect(),
                    move || form.with(|f| FUNCTIONS.iter().map(|(v, _)| *v).find(|v| *v == f.function).unwrap_or("")),
                    move |value| form.update(|f| f.function = value.into()),
                )}
                {SETTINGS_FIELDS.into_iter().map(|f| text_field(form, f)).collect_view()}
            </div>
            <p class="hint">
                "Work per phase = the method's PI upper bound × the phase's slots: the job holds the cluster for its estimated duration, as in MRM. The history's durations were measured on its own cluster; give that cluster's slots."
            </p>
        </Card>
    }
}
