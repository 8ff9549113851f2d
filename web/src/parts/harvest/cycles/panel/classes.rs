//! Each class's average day.

use crate::parts::harvest::cycles::charts::ClassDaysPlot;
use crate::state::Studio;
use crate::widgets::format::{count, trimmed};
use crate::widgets::PlotCanvas;
use leptos::prelude::*;

/// The classes: average days and their tags.
#[component]
pub fn ClassesCard() -> impl IntoView {
    let studio = expect_context::<Studio>();
    let desk = studio.harvest.cycles;
    let plot = Signal::derive(move || {
        desk.classify.view.with(|v| {
            v.as_ref()
                .filter(|v| !v.classes.is_empty())
                .map(|v| ClassDaysPlot {
                    classes: v.classes.clone(),
                    key: v.ticket.to_string(),
                })
        })
    });
    let rows = move || {
        desk.classify.view.with(|v| {
            v.as_ref()
                .map(|v| {
                    v.classes
                        .iter()
                        .map(|c| {
                            view! {
                                <tr data-testid="harvest-class-row" data-id=c.id.clone() data-pattern=c.pattern.name()>
                                    <td>{c.id.clone()}</td>
                                    <td>{c.pattern.name()}</td>
                                    <td class="num">{count(c.tenants.len())}</td>
                                    <td class="num">{count(c.servers)}</td>
                                    <td class="num">{trimmed(c.average, 1)}</td>
                                    <td class="num">{trimmed(c.peak, 1)}</td>
                                    <td class="note">{c.tenants.join(", ")}</td>
                                </tr>
                            }
                        })
                        .collect::<Vec<_>>()
                })
                .unwrap_or_default()
        })
    };
    view! {
        <section class="card">
            <header class="card-head">
                <h2>"Classes by K-Means"</h2>
                <span class="card-note">"per pattern, on each tenant's average day"</span>
            </header>
            <PlotCanvas
                data=plot
                placeholder=Signal::derive(|| "Classes appear after classification.".to_owned())
                testid="harvest-class-days"
            />
            <div class="table-scroll">
                <table class="data">
                    <thead>
                        <tr>
                            <th>"Class"</th>
                            <th>"Pattern"</th>
                            <th class="num">"Tenants"</th>
                            <th class="num">"Servers"</th>
                            <th class="num">"Avg %"</th>
                            <th class="num">"Peak %"</th>
                            <th>"Its tenants"</th>
                        </tr>
                    </thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
        </section>
    }
}
