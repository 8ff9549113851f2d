//! `R*` against the peak and flat-p90 reservations.

use crate::parts::slos::protocol::FitView;
use crate::state::Studio;
use crate::widgets::card::Card;
use crate::widgets::format::trimmed;
use leptos::prelude::*;
use skyplan_engine::resource_model::Quality;

/// `R*` against the peak and flat-p90 reservations.
#[component]
pub fn QualityCard() -> impl IntoView {
    let slo = expect_context::<Studio>().slo;
    view! {
        <Card
            title="Reservation quality"
            head=move || view! { <span class="card-note">"average per history run"</span> }
        >
            {move || {
                slo.fit.view
                    .with(|f| match f {
                        Some(f) => quality_table(f).into_any(),
                        None => view! { <p class="muted">"Waiting for the fit…"</p> }.into_any(),
                    })
            }}
        </Card>
    }
}

fn quality_table(fit: &FitView) -> impl IntoView {
    let q = &fit.quality;
    let rows: [(&str, &str, &Quality); 3] = [
        ("R* (LP)", "lp", &q.lp),
        ("Peak", "peak", &q.peak),
        ("Flat p90", "flat", &q.flat_p90),
    ];
    view! {
        <table class="data quality" data-testid="quality-table">
            <thead>
                <tr>
                    <th>"Reservation"</th>
                    <th class="num" title="Container-hours reserved but not used">"Over c·h"</th>
                    <th class="num" title="Container-hours still owed at the end (catch-up allowed)">
                        "Under c·h"
                    </th>
                    <th class="num" title="Reserved area over the used area (1 is ideal)">"Area ×"</th>
                    <th class="num" title="Share of runs that finish within the reservation">"Done"</th>
                    <th class="num" title="Largest reservation, containers">"Peak"</th>
                </tr>
            </thead>
            <tbody>
                {rows
                    .into_iter()
                    .map(|(label, class, q)| {
                        view! {
                            <tr class=class data-row=class>
                                <td>{label}</td>
                                <td class="num">{trimmed(q.over_allocation_ch, 2)}</td>
                                <td class="num">{trimmed(q.under_allocation_ch, 2)}</td>
                                <td class="num">{format!("{:.2}", q.area_ratio)}</td>
                                <td class="num">{format!("{:.0}%", q.completion_share * 100.0)}</td>
                                <td class="num">{trimmed(q.peak, 1)}</td>
                            </tr>
                        }
                    })
                    .collect_view()}
            </tbody>
        </table>
    }
}
