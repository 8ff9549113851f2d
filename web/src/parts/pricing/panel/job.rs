//! The new job: pick from the history or describe it.

use crate::fields;
use crate::parts::pricing::desk::PricingForm;
use crate::state::Studio;
use crate::widgets::card::Card;
use crate::widgets::field::{text_field, Field};
use crate::widgets::format::{count, trimmed};
use leptos::prelude::*;

/// The new job's name.
const NAME_FIELD: Field<PricingForm> =
    fields![PricingForm: ("Name (same-job runs)", "job-name", name)][0];

/// The new job's size.
const JOB_FIELDS: [Field<PricingForm>; 5] = fields![PricingForm:
    ("Map tasks", "job-map-tasks", map_tasks),
    ("Reduce tasks", "job-reduce-tasks", reduce_tasks),
    ("Input bytes", "job-input", input),
    ("Shuffle bytes", "job-shuffle", shuffle),
    ("Output bytes", "job-output", output),
];

/// The new job: pick from the history or describe it.
#[component]
pub fn JobCard() -> impl IntoView {
    let desk = expect_context::<Studio>().pricing;
    let jobs = move || {
        desk.history
            .with(|h| h.as_ref().map_or(0, |h| h.jobs.len()))
    };
    view! {
        <Card title="New job">
            <label class="field">
                <span class="field-label">"Pick from the history"</span>
                <select
                    data-testid="history-select"
                    disabled=move || jobs() == 0
                    on:change=move |ev| {
                        let picked = event_target_value(&ev).parse::<usize>().ok();
                        let job = picked
                            .and_then(|i| {
                                desk.history.with_untracked(|h| h.as_ref()?.jobs.get(i).cloned())
                            });
                        if let Some(job) = job {
                            desk.form.update(|f| f.take_job(&job));
                        }
                    }
                >
                    <option value="">
                        {move || {
                            if jobs() == 0 {
                                "No job history loaded".to_string()
                            } else {
                                format!("{} jobs…", count(jobs()))
                            }
                        }}
                    </option>
                    {move || {
                        desk.history
                            .with(|h| {
                                h.as_ref()
                                    .map(|h| {
                                        h.jobs
                                            .iter()
                                            .enumerate()
                                            .map(|(i, j)| {
                                                let text = format!(
                                                    "{} · {} maps, {} reduces · {} s",
                                                    j.name,
                                                    j.features.map_tasks.unwrap_or(0),
                                                    j.features.reduce_tasks.unwrap_or(0),
                                                    trimmed(j.map_secs + j.reduce_secs, 1),
                                                );
                                                view! { <option value=i.to_string()>{text}</option> }
                                            })
                                            .collect_view()
                                    })
                            })
                    }}
                </select>
            </label>
            <p class="hint">
                {move || {
                    desk.history
                        .with(|h| match h {
                            Some(h) if !h.files.is_empty() => {
                                format!("Learned from {}.", h.files.join(", "))
                            }
                            Some(_) => {
                                "Load a job-history CSV or the JobHistory server's jobs and tasks in Traces (the demo workspace has one)."
                                    .into()
                            }
                            None => "Asking the engine…".into(),
                        })
                }}
            </p>
            <div class="form-grid two">
                <div class="wide">
                    {text_field(desk.form, NAME_FIELD)}
                </div>
                {JOB_FIELDS.into_iter().map(|f| text_field(desk.form, f)).collect_view()}
            </div>
        </Card>
    }
}
