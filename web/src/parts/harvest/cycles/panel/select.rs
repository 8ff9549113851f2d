//! Algorithm 1's class selection for a job.

use crate::fields;
use crate::parts::harvest::cycles::desk::SelectForm;
use crate::state::Studio;
use crate::toolkit::run::ErrorLine;
use crate::widgets::button::button;
use crate::widgets::card::Card;
use crate::widgets::field::{name_choice, text_field, Field};
use crate::widgets::format::trimmed;
use crate::widgets::table::{col, num, DataTable};
use leptos::prelude::*;
use skyplan_engine::harvest::{JobType, Outcome};

const SELECT_FIELDS: [Field<SelectForm>; 4] = fields![SelectForm:
    ("Last run (s, empty: new)", "harvest-select-last", last_run),
    ("Containers", "harvest-select-containers", containers),
    ("Hour of day", "harvest-select-hour", hour),
    ("Seed", "harvest-select-seed", seed),
];

/// Algorithm 1 for one job.
#[component]
pub fn SelectCard() -> impl IntoView {
    let desk = expect_context::<Studio>().harvest.cycles;
    let jobs = move || {
        desk.classify.view.with(|v| {
            v.as_ref()
                .map(|v| v.history_jobs.clone())
                .unwrap_or_default()
        })
    };
    let result = move || {
        desk.selection.with(|s| {
            s.as_ref().map(|s| {
                let kind = match s.job_type {
                    JobType::Short => "short",
                    JobType::Medium => "medium",
                    JobType::Long => "long",
                };
                let outcome = match s.selection.outcome {
                    Outcome::One => "one class fits: picked with probability ∝ weighted headroom",
                    Outcome::Several => "no class fits alone: several drawn until the job fits",
                    Outcome::None => "no combination fits: the job waits",
                };
                let rows = s
                    .selection
                    .options
                    .iter()
                    .map(|o| {
                        let picked = s.selection.picked.contains(&o.id);
                        let pct = o.probability * 100.0;
                        view! {
                            <tr
                                data-testid="harvest-option-row"
                                data-id=o.id.clone()
                                data-probability=o.probability.to_string()
                                class:selected=picked
                            >
                                <td>{o.id.clone()}</td>
                                <td class="num">{trimmed(o.headroom_containers, 0)}</td>
                                <td class="num">{trimmed(o.weight, 0)}</td>
                                <td class="num">
                                    <span class="prob-bar" style=format!("width: {:.0}%", pct.min(100.0))></span>
                                    {format!("{} %", trimmed(pct, 1))}
                                </td>
                            </tr>
                        }
                    })
                    .collect_view();
                view! {
                    <div
                        data-testid="harvest-select-result"
                        data-type=kind
                        data-outcome=format!("{:?}", s.selection.outcome).to_lowercase()
                    >
                        <p class="hint">
                            <strong>{format!("{} — {kind} job, {} containers. ", s.job, s.selection.containers)}</strong>
                            {outcome}
                            {format!(
                                ". Picked: {}. ({} ms)",
                                if s.selection.picked.is_empty() { "none".to_owned() } else { s.selection.picked.join(", ") },
                                trimmed(s.millis, 2)
                            )}
                        </p>
                        <DataTable cols=vec![col("Class"), num("Headroom"), num("W"), num("Probability")]>
                            {rows}
                        </DataTable>
                    </div>
                }
            })
        })
    };
    view! {
        <Card
            title="Class selection"
            text="A job's type from its last run (short < 173 s, long > 433 s, new: medium), its concurrency from its DAG, each class's headroom in containers at that hour, ranked by the type × pattern weights."
            head=move || view! { <span class="card-note">"Algorithm 1"</span> }
        >
            {name_choice(
                desk.select_form,
                fields![SelectForm: ("Job", "harvest-select-job", history_job)][0],
                "described below",
                jobs,
                false,
            )}
            <div class="form-grid two">
                {SELECT_FIELDS.into_iter().map(|f| text_field(desk.select_form, f)).collect_view()}
            </div>
            <div class="actions">
                {button(
                    "button primary",
                    "harvest-select-run",
                    "Select classes",
                    move || desk.classify.view.with(Option::is_none),
                    move || desk.select_job(),
                )}
            </div>
            <ErrorLine testid="harvest-select-error" error=desk.select_error/>
            {result}
        </Card>
    }
}
