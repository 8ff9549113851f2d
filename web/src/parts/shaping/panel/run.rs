//! The shaper's settings; Run, with progress by stage.

use crate::fields;
use crate::parts::shaping::desk::ShapingForm;
use crate::parts::shaping::protocol::Stage;
use crate::state::Studio;
use crate::toolkit::job::busy_text;
use crate::toolkit::run::{JobCard, RunControls};
use crate::widgets::field::{choice, text_field, Field};
use crate::widgets::format::{count, trimmed};
use leptos::prelude::*;
use skyplan_engine::shaping::{Policy, Predictor};

/// The shaper's fields.
const SHAPER_FIELDS: [Field<ShapingForm>; 3] = fields![ShapingForm:
    ("K1 (% of the request)", "shaping-k1", k1),
    ("K2 (× σ)", "shaping-k2", k2),
    ("Grace (minutes)", "shaping-grace", grace),
];

/// What a run does at `stage`, for its status.
fn stage_word(stage: Stage) -> &'static str {
    match stage {
        Stage::Forecast => "forecasting",
        _ => "simulating",
    }
}

/// The shaper's settings; Run, with progress.
#[component]
pub fn RunCard() -> impl IntoView {
    let desk = expect_context::<Studio>().shaping;
    let status = desk.run.status_by(
        move |progress| busy_text(stage_word(desk.stage.get()), progress, ""),
        "idle",
        |v| {
            format!(
                "{} applications in {} ms (forecasts {} ms)",
                count(v.report.workload.apps),
                trimmed(v.millis, 0),
                trimmed(v.forecast_millis, 0)
            )
        },
    );
    // Forecasting is about half of a GP run, the two runs the rest.
    let stage = Signal::derive(move || {
        let stage = desk.stage.get();
        let label = busy_text(stage_word(stage), desk.run.progress.get(), "");
        let share = desk.run.fraction();
        let fraction = match stage {
            Stage::Forecast => share * 0.5,
            _ => 0.5 + share * 0.5,
        };
        (label, fraction)
    });
    let predictor = move || desk.form.with(|f| f.predictor);
    let policy = move || desk.form.with(|f| f.policy);
    view! {
        <JobCard
            title="Shape"
            text="The reservation baseline (full requests, never changed) against the shaped run: every minute after the grace period each component gets its forecast + β = K1·R + K2·σ; the pessimistic policy preempts by Algorithm 1, the optimistic one lets the OS kill on shortage."
            job=desk.run
            status_testid="shaping-status"
            status=status
        >
            <div class="form-grid two">
                {choice(
                    "Forecaster",
                    "shaping-predictor",
                    vec![
                        (Predictor::Gp, Predictor::Gp.name(), "GP (the paper's)".into()),
                        (Predictor::Arima, Predictor::Arima.name(), "ARIMA (slow)".into()),
                        (Predictor::Oracle, Predictor::Oracle.name(), "Oracle (knows the next minute)".into()),
                    ],
                    predictor,
                    move |p| desk.form.update(|f| f.predictor = p),
                )}
                {choice(
                    "Policy",
                    "shaping-policy",
                    [Policy::Pessimistic, Policy::Optimistic]
                        .into_iter()
                        .map(|p| (p, p.name(), p.name().to_owned()))
                        .collect(),
                    policy,
                    move |p| desk.form.update(|f| f.policy = p),
                )}
                {SHAPER_FIELDS.into_iter().map(|f| text_field(desk.form, f)).collect_view()}
            </div>
            <Show when=move || predictor() == Predictor::Arima>
                <p class="hint warn" data-testid="shaping-arima-warning">
                    "ARIMA searches its order on every application every 30 minutes: about ten times the GP's time (≈ 40 s for 1,000 applications in the browser). Fewer applications keep it short."
                </p>
            </Show>
            <RunControls
                job=desk.run
                testid="shaping"
                label="Run"
                busy="simulating"
                stage=stage
                on_run=move || desk.shape()
            />
        </JobCard>
    }
}
