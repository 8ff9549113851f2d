//! The window of the history and the search settings; Tune.

use crate::fields;
use crate::parts::tuning::desk::TuningForm;
use crate::state::Studio;
use crate::toolkit::run::{JobCard, RunControls};
use crate::widgets::field::{checkbox, choice, text_field, Field};
use crate::widgets::format::{count, trimmed};
use leptos::prelude::*;
use skyplan_engine::tuning::SearchMethod;

/// The settings' text fields.
const FIELDS: [Field<TuningForm>; 6] = fields![TuningForm:
    ("Containers R", "tuning-containers", containers),
    ("Per machine", "tuning-per-machine", per_machine),
    ("First job", "tuning-first-job", first_job),
    ("Jobs per group", "tuning-jobs", jobs),
    ("Groups", "tuning-groups", groups),
    ("Seed", "tuning-seed", seed),
];

/// The window of the history and the search settings; Tune.
#[component]
pub fn RunCard() -> impl IntoView {
    let desk = expect_context::<Studio>().tuning;
    let status = desk.run.status("searching", "", "idle", |v| {
        format!(
            "{} group(s) of the {} history jobs in {} ms",
            v.groups.len(),
            count(v.history_jobs),
            trimmed(v.millis, 0)
        )
    });
    view! {
        <JobCard
            title="Tune"
            text="A window of the loaded job history (SWIM traces, job histories): its jobs' tasks from their bytes, priorities mapped to queues as §4.3, all waiting at once unless arrivals are kept. Several groups are consecutive windows sharing R containers."
            job=desk.run
            status_testid="tuning-status"
            status=status
        >
            <div class="form-grid two">
                {FIELDS.into_iter().map(|f| text_field(desk.form, f)).collect_view()}
                {choice(
                    "Search",
                    "tuning-search",
                    vec![
                        (SearchMethod::Rrs, "rrs", "Recursive random (p 0.99)".into()),
                        (SearchMethod::Exhaustive, "exhaustive", "Exhaustive".into()),
                    ],
                    move || desk.form.with(|f| f.search),
                    move |search| desk.form.update(|f| f.search = search),
                )}
                <label class="field">
                    <span class="field-label">"Parent queue (YARN files)"</span>
                    <input
                        type="text"
                        data-testid="tuning-parent"
                        prop:value=move || desk.form.with(|f| f.parent.clone())
                        on:change=move |ev| {
                            let v = event_target_value(&ev);
                            desk.form.update(|f| f.parent = v);
                        }
                    />
                </label>
            </div>
            {checkbox(
                "tuning-arrivals",
                "Keep submission times",
                move || desk.form.with(|f| f.arrivals),
                move |on| desk.form.update(|f| f.arrivals = on),
            )}
            <RunControls
                job=desk.run
                testid="tuning"
                label="Tune"
                busy="searching"
                on_run=move || desk.tune()
            />
        </JobCard>
    }
}
