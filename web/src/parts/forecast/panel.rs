//! The forecast card of the Traces panel: under the chart of a utilization
//! series, its rolling one-step forecasts and its forecast ahead by the
//! history-kernel GP, auto-ARIMA and the baselines, with the coverage and
//! width of each method's prediction intervals — the paper's claim (§III-A)
//! that ARIMA's intervals are too narrow and the GP's honest, checked on
//! the planner's own series. Computed in the worker.
//!
//! Test ids: `forecast-card`, `forecast-run`, `forecast-status`,
//! `forecast-chart` (with `data-drawn`), `forecast-method`, `forecast-row`
//! (`data-method`, `data-coverage`), `forecast-error`.

use super::charts::ForecastPlot;
use super::desk::ForecastForm;
use crate::fields;
use crate::state::Studio;
use crate::toolkit::run::{JobStatus, RunControls};
use crate::widgets::card::Card;
use crate::widgets::field::{choice, text_field, Field};
use crate::widgets::format::{count, trimmed};
use crate::widgets::PlotCanvas;
use leptos::prelude::*;
use skyplan_engine::forecast::ForecastMethod;

/// The form's fields.
const FIELDS: [Field<ForecastForm>; 4] = fields![ForecastForm:
    ("Window h", "forecast-window", window),
    ("Latest N", "forecast-latest", latest),
    ("Steps ahead", "forecast-horizon", horizon),
    ("Rolling origins", "forecast-origins", origins),
];

/// The series the Traces chart shows, if it is one.
fn selected_series(studio: Studio) -> Option<usize> {
    studio
        .traces
        .selection
        .with(|s| s.strip_prefix("series:").and_then(|i| i.parse().ok()))
}

/// The forecast card; shown while the chart shows a utilization series.
#[component]
pub fn ForecastCard() -> impl IntoView {
    let studio = expect_context::<Studio>();
    let desk = studio.forecast;
    let plot = Signal::derive(move || {
        let index = selected_series(studio)?;
        let view = desk.run.view.get().filter(|v| v.index == index)?;
        Some(ForecastPlot {
            view,
            method: desk.band.get(),
        })
    });
    let placeholder = Signal::derive(move || {
        if desk.run.running.get() {
            "Forecasting in the worker…".to_owned()
        } else {
            "Press Forecast: every method's rolling one-step forecasts over the series' last origins, and the forecast ahead.".to_owned()
        }
    });
    let status = desk.run.status("running", "", "idle", |v| {
        format!(
            "{} methods in {} ms · step {} s{}{}",
            v.methods.len(),
            trimmed(v.millis, 0),
            v.step_secs,
            v.period
                .map(|p| format!(" · period {p} slots"))
                .unwrap_or_default(),
            if v.missing > 0 {
                format!(" · {} empty slots left out", count(v.missing))
            } else {
                String::new()
            }
        )
    });
    let rows = move || {
        let index = selected_series(studio);
        desk.run.view.with(|v| {
            let Some(v) = v.as_ref().filter(|v| Some(v.index) == index) else {
                return Vec::new();
            };
            v.methods
                .iter()
                .map(|m| {
                    let method = m.method;
                    let scored = |v: f64| {
                        if m.forecasts > 0 {
                            trimmed(v, 3)
                        } else {
                            "—".to_owned()
                        }
                    };
                    let coverage = if m.forecasts > 0 {
                        format!("{} %", trimmed(m.coverage * 100.0, 1))
                    } else {
                        "—".to_owned()
                    };
                    let failed = m
                        .first_failure
                        .clone()
                        .map(|f| format!("{} origin(s) failed; first: {f}", count(m.failures)));
                    view! {
                        <tr
                            data-testid="forecast-row"
                            data-method=method.to_string()
                            data-coverage=m.coverage.to_string()
                            class:selected=move || desk.band.get() == method
                            on:click=move |_| desk.band.set(method)
                        >
                            <td>{method.to_string()}</td>
                            <td class="num">{count(m.forecasts)}</td>
                            <td class="num">{scored(m.mae)}</td>
                            <td class="num">{scored(m.rmse)}</td>
                            <td class="num">{coverage}</td>
                            <td class="num">{scored(m.width)}</td>
                            <td class="note">{failed.unwrap_or_else(|| m.model.clone())}</td>
                        </tr>
                    }
                })
                .collect::<Vec<_>>()
        })
    };
    view! {
        <Show when=move || selected_series(studio).is_some()>
            <Card
                title="Forecast"
                testid="forecast-card"
                head=move || {
                    view! {
                        <JobStatus job=desk.run testid="forecast-status" text=status class="hint"/>
                    }
                }
            >
                <div class="sim-form">
                    {FIELDS.into_iter().map(|f| text_field(desk.form, f)).collect_view()}
                    {choice(
                        "Band drawn",
                        "forecast-method",
                        ForecastMethod::ALL.into_iter().map(|m| (m, m.to_string(), m.to_string())).collect(),
                        move || desk.band.get(),
                        move |m| desk.band.set(m),
                    )}
                </div>
                <RunControls
                    job=desk.run
                    testid="forecast"
                    label="Forecast"
                    busy="forecasting"
                    on_run=move || {
                        if let Some(index) = selected_series(studio) {
                            desk.forecast(index);
                        }
                    }
                />
                <PlotCanvas data=plot placeholder=placeholder testid="forecast-chart"/>
                <div class="table-scroll">
                    <table class="files">
                        <thead>
                            <tr>
                                <th>"Method"</th>
                                <th class="num">"One-step forecasts"</th>
                                <th class="num">"MAE"</th>
                                <th class="num">"RMSE"</th>
                                <th class="num">"Coverage"</th>
                                <th class="num">"Mean width"</th>
                                <th>"Model (last origin)"</th>
                            </tr>
                        </thead>
                        <tbody>{rows}</tbody>
                    </table>
                </div>
                <p class="hint">
                    "Each method forecasts one step from every origin over the end of the series, fitted on the latest N + h observations before it (the GP updated online, ARIMA's order chosen by AIC and refitted periodically); coverage is the share of observations inside their 95 % prediction interval — near 95 % is honest, well below is overconfident. Click a row to draw its band."
                </p>
            </Card>
        </Show>
    }
}
