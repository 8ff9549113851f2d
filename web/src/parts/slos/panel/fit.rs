//! The selected job: its history skylines and `R*`, the model controls and
//! the LP's figures.

use super::decision::DecisionCard;
use super::labels::{alpha_index, ALPHAS, STEPS};
use super::quality::QualityCard;
use crate::parts::slos::desk::FitState;
use crate::parts::slos::protocol::{FitView, SIMPLEX_MAX_CELLS};
use crate::state::Studio;
use crate::widgets::card::Card;
use crate::widgets::field::choice_in;
use crate::widgets::format::{count, trimmed};
use crate::widgets::PlotCanvas;
use leptos::prelude::*;
use skyplan_engine::resource_model::{ModelParams, SolverKind, Variant};

/// The selected job: its chart and controls, quality figures and decision.
#[component]
pub fn JobDetail() -> impl IntoView {
    let slo = expect_context::<Studio>().slo;
    move || {
        slo.selected.get().map(|job| {
            view! {
                <div class="detail">
                    <FitCard/>
                    <div class="detail-side">
                        <QualityCard/>
                        <DecisionCard job=job/>
                    </div>
                </div>
            }
        })
    }
}

/// Chart of the history and `R*`, the model controls, the LP figures.
#[component]
fn FitCard() -> impl IntoView {
    let slo = expect_context::<Studio>().slo;
    let placeholder = Signal::derive(move || {
        match slo.fit_state() {
            FitState::Failed => "No reservation: the fit was not accepted (see above).",
            _ => "Fitting the reservation…",
        }
        .to_owned()
    });
    let state = move || slo.fit_state().label();
    let chart: Signal<Option<FitView>> = slo.fit.view.into();
    view! {
        <Card
            title=Signal::derive(move || slo.selected.get().unwrap_or_default())
            class="fit-card"
            head=move || {
                view! {
                    <span class="card-note">"history skylines and the proposed reservation R*"</span>
                    <span class="fit-status" data-testid="fit-status" data-state=state>
                        {state}
                    </span>
                }
            }
        >
            <FitControls/>
            <div class="fit-canvas" class:stale=move || slo.fit_state() == FitState::Solving>
                <PlotCanvas data=chart placeholder=placeholder testid="slo-chart"/>
            </div>
            <LpFigures/>
        </Card>
    }
}

/// α, step, variant and solver; every change fits again in the worker.
#[component]
fn FitControls() -> impl IntoView {
    let studio = expect_context::<Studio>();
    let model = studio.slo.model;
    let fit = studio.slo.fit.view;
    let cells = move || fit.with(|f| f.as_ref().map(|f| f.model.runs * f.model.steps));
    let simplex_blocked = move || cells().is_some_and(|c| c > SIMPLEX_MAX_CELLS);
    let on_alpha = move |ev| {
        let index = event_target_value(&ev).parse::<usize>().ok();
        if let Some(&alpha) = index.and_then(|i| ALPHAS.get(i)) {
            if model.with_untracked(|m| m.alpha != alpha) {
                studio.slo.set_model(|m| m.alpha = alpha);
            }
        }
    };
    view! {
        <div class="controls">
            <label class="control alpha">
                <span class="field-label">
                    "Over- vs under-allocation " <span class="greek">"α"</span>
                </span>
                <span class="range-row">
                    <input
                        type="range"
                        data-testid="alpha-input"
                        min="0"
                        max=(ALPHAS.len() - 1).to_string()
                        step="1"
                        prop:value=move || model.with(|m| alpha_index(m.alpha)).to_string()
                        on:input=on_alpha
                    />
                    <output class="range-value">{move || model.with(|m| trimmed(m.alpha, 3))}</output>
                </span>
            </label>
            {choice_in(
                "control",
                ("Step", "step-select"),
                STEPS.into_iter().map(|s| (s, s.to_string(), format!("{s} s"))).collect(),
                move || model.with(|m| m.step_secs),
                |_| false,
                move |step| studio.slo.set_model(|m| m.step_secs = step),
            )}
            {choice_in(
                "control",
                ("Variant", "variant-select"),
                vec![
                    (Variant::Paper, "paper", "paper · two-pass, β = 0.1·V".into()),
                    (Variant::Hadoop, "hadoop", "hadoop · fixed β = 0.1".into()),
                ],
                move || model.with(|m| m.variant),
                |_| false,
                move |variant| {
                    let params = match variant {
                        Variant::Hadoop => ModelParams::hadoop(),
                        Variant::Paper => ModelParams::paper(),
                    };
                    studio.slo.set_model(|m| *m = params);
                },
            )}
            {choice_in(
                "control",
                ("Solver", "solver-select"),
                vec![
                    (SolverKind::Flow, "flow", "flow · network simplex".into()),
                    (SolverKind::Simplex, "simplex", "simplex · LP as written".into()),
                ],
                move || model.with(|m| m.solver),
                move |solver| solver == SolverKind::Simplex && simplex_blocked(),
                move |solver| studio.slo.set_model(|m| m.solver = solver),
            )}
            {move || {
                simplex_blocked()
                    .then(|| {
                        view! {
                            <p class="control-note">
                                {format!(
                                    "Simplex is offered up to {} runs × steps; this history has {}.",
                                    count(SIMPLEX_MAX_CELLS),
                                    count(cells().unwrap_or(0)),
                                )}
                            </p>
                        }
                    })
            }}
        </div>
    }
}

/// A figure for the LP panel: tiny values in scientific notation.
pub fn figure(v: f64) -> String {
    if v != 0.0 && v.abs() < 1e-3 {
        format!("{v:.1e}")
    } else {
        trimmed(v, 4)
    }
}

/// The LP's objective, its parts, the first pass, β and the optimality gap.
#[component]
fn LpFigures() -> impl IntoView {
    let slo = expect_context::<Studio>().slo;
    move || slo.fit.view.with(|f| f.as_ref().map(lp_figures))
}

fn lp_figures(fit: &FitView) -> impl IntoView {
    let m = &fit.model;
    let o = m.objective;
    let mut items = vec![
        (
            "objective",
            figure(o.total),
            "α·A_o + (1−α)·A_u + β·ε at R*",
        ),
        (
            "A_o",
            figure(o.over),
            "average over-allocation, container-steps per run",
        ),
        (
            "A_u",
            figure(o.debt),
            "average final debt, container-steps per run",
        ),
        (
            "ε",
            figure(o.epsilon),
            "average normalized instantaneous under-allocation",
        ),
    ];
    if let Some(first) = m.first_pass {
        items.push(("V", figure(first.total), "the first pass's optimum (β = 0)"));
    }
    items.push(("β", figure(m.beta), "weight of ε in the final pass"));
    if let Some(lb) = m.lower_bound {
        items.push(("dual bound", figure(lb), "the flow solver's lower bound"));
    }
    if let Some(gap) = fit.gap {
        let value = if gap.abs() < 1e-9 {
            "≈ 0 · optimal".to_owned()
        } else {
            figure(gap)
        };
        items.push(("gap", value, "objective − dual bound (0: optimal)"));
    }
    items.push((
        "history",
        format!("{} runs × {} steps", count(m.runs), count(m.steps)),
        "the LP's size",
    ));
    let dropped = (!m.dropped_runs.is_empty()).then(|| {
        format!(
            "{} run(s) with an all-zero skyline left out: {}",
            m.dropped_runs.len(),
            m.dropped_runs.join(", ")
        )
    });
    view! {
        <dl class="figures" data-testid="lp-figures">
            {items
                .into_iter()
                .map(|(name, value, title)| {
                    view! {
                        <div title=title>
                            <dt>{name}</dt>
                            <dd>{value}</dd>
                        </div>
                    }
                })
                .collect_view()}
        </dl>
        {fit.note.clone().map(|n| view! { <p class="fit-note">{n}</p> })}
        {dropped.map(|n| view! { <p class="fit-note">{n}</p> })}
    }
}
