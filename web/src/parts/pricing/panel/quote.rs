//! The quote: every method's estimate, the figures, the price–deadline
//! curve, the deadline and Admit.

use crate::fields;
use crate::parts::pricing::charts::{duration_text, price_text, CurvePlot};
use crate::parts::pricing::desk::PricingForm;
use crate::parts::pricing::protocol::{method_value, QuoteView};
use crate::state::Studio;
use crate::toolkit::run::ErrorLine;
use crate::widgets::card::Card;
use crate::widgets::chart::plot_x_span;
use crate::widgets::field::hinted_field;
use crate::widgets::format::trimmed;
use crate::widgets::table::{col, num, DataTable};
use crate::widgets::PlotCanvas;
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{HtmlElement, MouseEvent};

/// The estimate table, the figures, the curve, the deadline and Admit.
#[component]
pub fn QuoteCard() -> impl IntoView {
    let studio = expect_context::<Studio>();
    let desk = studio.pricing;
    let quote = move || desk.quote.view.get();
    let curve = Signal::derive(move || {
        desk.quote.view.with(|q| {
            q.as_ref().map(|q| CurvePlot {
                quote: q.quote.clone(),
                chosen: q.chosen,
                key: format!("quote-{}", q.ticket),
            })
        })
    });
    let on_click = move |ev: MouseEvent| {
        let Some(el) = ev.target().and_then(|t| t.dyn_into::<HtmlElement>().ok()) else {
            return;
        };
        let Some(x_max) = curve.with_untracked(|c| c.as_ref().map(CurvePlot::x_max)) else {
            return;
        };
        let (left, right) = plot_x_span(f64::from(el.client_width()));
        let x = f64::from(ev.offset_x());
        if x < left || x > right {
            return;
        }
        let deadline = ((x - left) / (right - left) * x_max).ceil();
        desk.form.update(|f| f.deadline = format!("{deadline:.0}"));
    };
    view! {
        <Card
            title="Quote"
            head=move || {
                view! {
                    <span
                        class="card-note"
                        data-testid="quote-status"
                        data-round-trip-ms=move || desk.round_trip.get().map(|ms| ms.to_string())
                        data-quote-ms=move || quote().map(|q| q.quote_millis.to_string())
                    >
                        {move || {
                            if desk.quote.running.get() {
                                "estimating…".to_string()
                            } else {
                                quote()
                                    .map(|q| timing(&q, desk.round_trip.get()))
                                    .unwrap_or_default()
                            }
                        }}
                    </span>
                }
            }
        >
            <ErrorLine testid="quote-error" error=desk.quote.error/>
            {move || quote().map(|q| view! { <EstimateTable quote=q/> })}
            <div class="agenda-figures">
                <div class="figure">
                    <span class="figure-label">"Earliest feasible finish"</span>
                    <span
                        class="figure-value"
                        data-testid="earliest-finish"
                        data-secs=move || quote().map(|q| q.quote.earliest_finish.to_string())
                    >
                        {move || {
                            quote()
                                .map(|q| duration_text(q.quote.earliest_finish))
                                .unwrap_or_else(|| "—".into())
                        }}
                    </span>
                </div>
                <div class="figure">
                    <span class="figure-label">"Processing time alone"</span>
                    <span class="figure-value">
                        {move || {
                            quote()
                                .map(|q| duration_text(q.quote.processing_secs))
                                .unwrap_or_else(|| "—".into())
                        }}
                    </span>
                </div>
                <div class="figure">
                    <span class="figure-label">"Price at the earliest finish"</span>
                    <span class="figure-value">
                        {move || {
                            quote()
                                .and_then(|q| q.quote.curve.first().map(|p| price_text(p.price)))
                                .unwrap_or_else(|| "—".into())
                        }}
                    </span>
                </div>
            </div>
            <div class="curve-frame" title="Click to choose a deadline" on:click=on_click>
                <PlotCanvas
                    data=curve
                    placeholder=Signal::derive(move || {
                        if desk.quote.running.get() {
                            "Estimating the job and quoting it…".to_string()
                        } else {
                            "No quote: see the message above.".to_string()
                        }
                    })
                    testid="price-curve"
                />
            </div>
            <form
                class="form-grid"
                on:submit=move |ev| {
                    ev.prevent_default();
                    studio.pricing.admit_priced();
                }
            >
                {hinted_field(
                    desk.form,
                    fields![PricingForm: ("Deadline (seconds from now)", "deadline-input", deadline)][0],
                    "click the curve",
                )}
                <div class="field">
                    <span class="field-label">"Price"</span>
                    <span
                        class="figure-value"
                        data-testid="chosen-price"
                        data-price=move || quote().and_then(|q| q.chosen).map(|c| c.price.to_string())
                    >
                        {move || {
                            quote()
                                .and_then(|q| q.chosen)
                                .map(|c| format!("{} tokens", price_text(c.price)))
                                .unwrap_or_else(|| "—".into())
                        }}
                    </span>
                </div>
                <button
                    class="button primary"
                    type="submit"
                    data-testid="admit"
                    disabled=move || desk.busy.get() || quote().is_none()
                >
                    "Admit"
                </button>
            </form>
            {move || {
                let q = quote()?;
                let e = q.chosen_error?;
                Some(view! { <p class="field-error" data-testid="deadline-error">{e}</p> })
            }}
            <ErrorLine testid="pricing-error" error=desk.error/>
            {move || {
                desk.admitted
                    .get()
                    .map(|a| {
                        view! {
                            <p class="hint" data-testid="admitted">
                                {format!(
                                    "Admitted {} with a deadline {} from now for {} tokens.",
                                    a.name,
                                    duration_text(a.deadline),
                                    price_text(a.price),
                                )}
                            </p>
                        }
                    })
            }}
        </Card>
    }
}

/// Where the quote's time went: in the worker, and from the ask to the
/// answer on the page.
fn timing(q: &QuoteView, round_trip: Option<f64>) -> String {
    let fit = q
        .fit_millis
        .map(|m| format!("estimators fitted in {m:.0} ms · "))
        .unwrap_or_default();
    let trip = round_trip
        .map(|ms| format!(" · round trip {ms:.0} ms"))
        .unwrap_or_default();
    format!(
        "{fit}quoted against {} queued job(s) in {:.1} ms{trip}",
        q.queued, q.quote_millis
    )
}

/// Every method's estimate of both phases; the one planned with marked.
#[component]
fn EstimateTable(quote: QuoteView) -> impl IntoView {
    let used = quote.work.method;
    let level = quote.estimate.level * 100.0;
    let rows = quote
        .estimate
        .phases
        .iter()
        .flat_map(|ph| ph.methods.iter().map(move |m| (ph.phase, m.clone())))
        .map(|(phase, m)| {
            let is_used = m.method == used;
            let cells = match &m.prediction {
                Some(p) => (
                    trimmed(p.mean, 2),
                    trimmed(p.std_dev, 2),
                    format!("[{}, {}]", trimmed(p.lower, 2), trimmed(p.upper, 2)),
                ),
                None => ("—".into(), "—".into(), "—".into()),
            };
            view! {
                <tr
                    data-testid="estimate-row"
                    data-phase=phase.to_string()
                    data-method=method_value(m.method)
                    data-used=is_used.to_string()
                    class:used=is_used
                >
                    <td>{phase.to_string()}</td>
                    <td>{m.method.to_string()}{if is_used { " ✓" } else { "" }}</td>
                    <td class="num">{cells.0}</td>
                    <td class="num">{cells.1}</td>
                    <td class="num">{cells.2}</td>
                    <td class="muted">{m.note.clone().unwrap_or_default()}</td>
                </tr>
            }
        })
        .collect_view();
    let w = quote.work;
    view! {
        <DataTable
            cols=vec![col("Phase"), col("Method"), num("Mean (s)"), num("σ (s)"), num(format!("{}% PI (s)", trimmed(level, 2))), col("")]
            class="estimate-table"
        >
            {rows}
        </DataTable>
        <p class="hint" data-testid="work-note">
            {format!(
                "Planned with {} at the PI upper bound: map {} s → {} slot-s, reduce {} s → {} slot-s. Slack is counted in mean job times γ = {} (the history's mean processing time).",
                w.method,
                trimmed(w.map_upper_secs, 2),
                trimmed(w.map_work, 0),
                trimmed(w.reduce_upper_secs, 2),
                trimmed(w.reduce_work, 0),
                duration_text(quote.mean_job_secs),
            )}
        </p>
    }
}
