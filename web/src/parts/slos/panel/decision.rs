//! The selected job's decision: what is recorded, and sign off, override
//! or reject (the desk parses the form).

use super::labels::{decision_label, offset};
use crate::fields;
use crate::parts::slos::desk::{minutes, DecisionForm, FitState};
use crate::state::Studio;
use crate::widgets::card::Card;
use crate::widgets::field::{number_field, Field};
use crate::widgets::format::trimmed;
use leptos::prelude::*;
use skyplan_engine::time::format_duration;
use skyplan_engine::Skyline;

/// A recorded reservation in one line: steps, peak, container-hours.
pub fn reservation_text(sky: &Skyline) -> String {
    format!(
        "{} × {} s · peak {} · {} c·h",
        sky.len(),
        sky.step_secs,
        trimmed(sky.peak(), 1),
        trimmed(sky.area() / 3600.0, 1)
    )
}

/// The override's window.
const WINDOW_FIELDS: [Field<DecisionForm>; 2] = fields![DecisionForm:
    ("Earliest start (min)", "override-start", start),
    ("Deadline (min)", "override-deadline", deadline),
];

/// The selected job's decision: what is recorded, and the controls.
#[component]
pub fn DecisionCard(job: String) -> impl IntoView {
    let slo = expect_context::<Studio>().slo;
    let form = RwSignal::new(DecisionForm::default());
    let job = StoredValue::new(job);
    let decision = move || job.with_value(|j| slo.decision(j));
    let kind = move || decision().map(|d| d.kind);
    let row = move || slo.selected_row();
    let actionable = move || row().is_some_and(|r| r.actionable);
    let fit_ready =
        move || slo.fit_state() == FitState::Ready && slo.fit.view.with(Option::is_some);
    let busy = move || slo.deciding.with(Option::is_some);
    let sign_off = move |_| form.with_untracked(|f| slo.sign_off(job.get_value(), f));
    let reject = move |_| form.with_untracked(|f| slo.reject(job.get_value(), f));
    let withdraw = move |_| slo.undecide(job.get_value());
    let open_override = move |_| job.with_value(|j| slo.open_override(j, form));
    let apply_scale = move |_| slo.scale_override(form);
    let save_override = move |_| form.with_untracked(|f| slo.save_override(job.get_value(), f));
    let period = move || row().map(|r| r.period_secs).unwrap_or(0);
    let inferred = move || {
        row().map(|r| {
            let window = format!(
                "{} → {} after each period start, every {}",
                offset(r.earliest_start_secs),
                offset(r.deadline_secs),
                format_duration(r.period_secs)
            );
            let reason = r.reason.clone();
            view! {
                <p class="slo-line">
                    <span class="field-label">"Inferred window"</span>
                    <span>{window}</span>
                </p>
                {reason.map(|why| view! { <p class="slo-why">{why}</p> })}
            }
        })
    };
    let recorded = move || {
        decision().map(|d| {
            let window = d.window.map_or_else(
                || "no window".to_owned(),
                |(a, b)| format!("{} → {}", offset(Some(a)), offset(Some(b))),
            );
            let reservation = d
                .skyline
                .as_ref()
                .map_or_else(|| "no reservation".to_owned(), reservation_text);
            let note = d.note.clone();
            view! {
                <div class="recorded">
                    <p>
                        <span class="field-label">"Recorded"</span>
                        <span>{format!("{window} · {reservation}")}</span>
                    </p>
                    {note.map(|n| view! { <p class="muted">{format!("“{n}”")}</p> })}
                </div>
            }
        })
    };
    view! {
        <Card
            title="Decision"
            class="decision-card"
            head=move || {
                view! {
                    {move || {
                        let label = decision_label(kind());
                        view! { <span class=format!("decision {label}")>{label}</span> }
                    }}
                }
            }
        >
            {inferred}
            {recorded}
            <label class="field">
                <span class="field-label">"Note (optional)"</span>
                <input
                    type="text"
                    data-testid="decision-note"
                    placeholder="Why it was overridden or rejected"
                    prop:value=move || form.with(|f| f.note.clone())
                    on:input=move |ev| form.update(|f| f.note = event_target_value(&ev))
                />
            </label>
            <div class="actions decision-actions">
                <button
                    class="button primary"
                    data-testid="sign-off"
                    title="Accept the inferred window and the reservation R* shown"
                    prop:disabled=move || !actionable() || !fit_ready() || busy()
                    on:click=sign_off
                >
                    "Sign off"
                </button>
                <button
                    class="button"
                    data-testid="override"
                    prop:disabled=busy
                    on:click=open_override
                >
                    "Override…"
                </button>
                <button class="button danger" data-testid="reject" prop:disabled=busy on:click=reject>
                    "Reject"
                </button>
                <Show when=move || kind().is_some()>
                    <button
                        class="button ghost"
                        data-testid="withdraw"
                        prop:disabled=busy
                        on:click=withdraw
                    >
                        "Withdraw"
                    </button>
                </Show>
            </div>
            <Show when=move || !actionable()>
                <p class="hint">
                    "No actionable deadline, so nothing to sign off as is: override with your own window, or reject."
                </p>
            </Show>
            <Show when=move || slo.editing.get()>
                <div class="override-form" data-testid="override-form">
                    <div class="form-row">
                        {WINDOW_FIELDS.into_iter().map(|f| number_field(form, f)).collect_view()}
                    </div>
                    <p class="hint">
                        {move || {
                            format!(
                                "Minutes after each period start; the period is {} ({} min).",
                                format_duration(period()),
                                minutes(period())
                            )
                        }}
                    </p>
                    <label class="field">
                        <span class="field-label">
                            {move || format!("Reservation: containers per {} s step, ;-separated", form.with(|f| f.step))}
                        </span>
                        <textarea
                            rows="3"
                            data-testid="override-skyline"
                            prop:value=move || form.with(|f| f.skyline.clone())
                            on:input=move |ev| form.update(|f| f.skyline = event_target_value(&ev))
                        ></textarea>
                    </label>
                    <div class="form-row scale-row">
                        <span class="field-label">"Scale R* by"</span>
                        <input
                            type="number"
                            step="any"
                            data-testid="override-scale"
                            aria-label="Percentage of R*"
                            prop:value=move || form.with(|f| f.scale.clone())
                            on:input=move |ev| form.update(|f| f.scale = event_target_value(&ev))
                        />
                        <span>"%"</span>
                        <button class="button small" on:click=apply_scale>
                            "Use scaled R*"
                        </button>
                    </div>
                    <div class="actions">
                        <button
                            class="button primary"
                            data-testid="override-save"
                            prop:disabled=busy
                            on:click=save_override
                        >
                            "Save override"
                        </button>
                        <button class="button ghost" on:click=move |_| slo.editing.set(false)>
                            "Cancel"
                        </button>
                    </div>
                </div>
            </Show>
        </Card>
    }
}
