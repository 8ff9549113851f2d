//! Each class's average day.

use crate::parts::harvest::cycles::charts::ClassDaysPlot;
use crate::state::Studio;
use crate::widgets::card::Card;
use crate::widgets::figure::ChartTable;
use crate::widgets::format::{count, trimmed};
use crate::widgets::table::{col, num};
use leptos::prelude::*;

/// The classes: average days and their tags.
#[component]
pub fn ClassesCard() -> impl IntoView {
    let desk = expect_context::<Studio>().harvest.cycles;
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
        <Card
            title="Classes by K-Means"
            head=move || {
                view! {
                    <span class="card-note">"per pattern, on each tenant's average day"</span>
                }
            }
        >
            <ChartTable
                data=plot
                placeholder="Classes appear after classification."
                testid="harvest-class-days"
                cols=vec![col("Class"), col("Pattern"), num("Tenants"), num("Servers"), num("Avg %"), num("Peak %"), col("Its tenants")]
            >
                {rows}
            </ChartTable>
        </Card>
    }
}
