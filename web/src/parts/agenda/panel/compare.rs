//! The plan's requests placed afresh by each method, against lower bounds.

use crate::parts::agenda::protocol::{method_label, method_value, CompareView};
use crate::state::Studio;
use crate::widgets::card::Card;
use leptos::prelude::*;

/// The plan's requests placed afresh by each method, against lower bounds.
#[component]
pub fn CompareCard() -> impl IntoView {
    let studio = expect_context::<Studio>();
    let desk = studio.agenda;
    let stale = move || {
        let now = desk.view.with(|v| v.as_ref().map(|v| v.revision));
        desk.compare
            .view
            .with(|c| c.as_ref().is_some_and(|c| Some(c.revision) != now))
    };
    let table = move || {
        desk.compare.view.get().map(|c: CompareView| {
            let best = c.bound.best;
            let lp = c
                .bound
                .lp
                .map_or_else(|| "not solved (too large)".to_owned(), |v| format!("{v:.3}"));
            view! {
                <table class="data compare" data-testid="compare-table" class:stale=stale>
                    <thead>
                        <tr>
                            <th>"Method"</th>
                            <th class="num">"Placed"</th>
                            <th class="num">"Peak"</th>
                            <th class="num">"÷ bound"</th>
                        </tr>
                    </thead>
                    <tbody>
                        {c
                            .rows
                            .iter()
                            .map(|r| {
                                view! {
                                    <tr data-testid="compare-row" data-method=method_value(r.method)>
                                        <td title=format!("{:.0} ms", r.millis)>{method_label(r.method)}</td>
                                        <td class="num">{format!("{}/{}", r.placed, c.requests)}</td>
                                        <td class="num">{format!("{:.3}", r.peak)}</td>
                                        <td class="num">
                                            {r.ratio.map_or_else(|| "—".into(), |x| format!("{x:.2}×"))}
                                        </td>
                                    </tr>
                                }
                            })
                            .collect_view()}
                        <tr class="bound" data-testid="compare-bound">
                            <td>"Lower bound"</td>
                            <td class="num">{c.requests.to_string()}</td>
                            <td class="num">{format!("{best:.3}")}</td>
                            <td class="num">"1.00×"</td>
                        </tr>
                    </tbody>
                </table>
                <p class="hint">
                    {format!(
                        "Bound = best of area {:.3}, single request {:.3}, LP relaxation {lp}.",
                        c.bound.area, c.bound.single,
                    )}
                    {c.optimized_gap.map(|g| format!(
                        " Optimized (batch): at most {:.1} % above the optimum (certified).",
                        g * 100.0
                    ))}
                </p>
            }
        })
    };
    view! {
        <Card
            title="Compare methods"
            text="The plan's requests placed afresh on an empty plan by each method, same order and capacity."
            head=move || {
                view! {
                    <button
                        class="button small"
                        data-testid="compare-run"
                        disabled=move || {
                            desk.compare.running.get()
                                || desk.view.with(|v| v.as_ref().is_none_or(|v| v.reservations.is_empty()))
                        }
                        on:click=move |_| studio.agenda.compare_agenda()
                    >
                        {move || if desk.compare.running.get() { "Placing…" } else { "Compare" }}
                    </button>
                }
            }
        >
            {table}
            <Show when=stale>
                <p class="hint warn">"The plan has changed since: compare again."</p>
            </Show>
        </Card>
    }
}
