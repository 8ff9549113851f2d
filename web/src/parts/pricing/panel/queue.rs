//! The queue: its lazy schedule and its table.

use crate::parts::pricing::charts::{duration_text, price_text, GanttPlot};
use crate::parts::pricing::protocol::{PricingRequest, QueueView};
use crate::state::Studio;
use crate::widgets::button::button;
use crate::widgets::card::Card;
use crate::widgets::file_button::FileButton;
use crate::widgets::format::{count, trimmed};
use crate::widgets::table::{col, num, DataTable};
use crate::widgets::PlotCanvas;
use leptos::prelude::*;

/// The queue: its lazy schedule and its table.
#[component]
pub fn QueueCard() -> impl IntoView {
    let studio = expect_context::<Studio>();
    let desk = studio.pricing;
    let gantt = Signal::derive(move || {
        desk.queue.with(|q| {
            q.as_ref()
                .filter(|q| !q.rows.is_empty() && q.problem.is_none())
                .map(|q| GanttPlot { view: q.clone() })
        })
    });
    let empty = move || {
        desk.queue
            .with(|q| q.as_ref().is_none_or(|q| q.rows.is_empty()))
    };
    view! {
        <Card
            title="Queue"
            head=move || {
                view! {
                    <span class="card-note">
                        {move || {
                            desk.queue
                                .with(|q| q.as_ref().map(summary))
                                .unwrap_or_default()
                        }}
                    </span>
                    <div class="head-actions">
                        <FileButton
                            label="Import CSV"
                            testid="queue-import"
                            accept=".csv,text/csv"
                            title="Add the jobs of a queue CSV: name,map_work,reduce_work,deadline"
                            on_files=move |files| files.into_iter().take(1).for_each(|f| studio.pricing.import_queue(f))
                        />
                        {button(
                            "button small",
                            "queue-export",
                            "Export CSV",
                            empty,
                            move || studio.pricing.export_queue(),
                        )}
                        {button(
                            "button small",
                            "queue-clear",
                            "Clear",
                            move || empty() || desk.busy.get(),
                            move || studio.pricing.pricing_change(PricingRequest::Clear),
                        )}
                    </div>
                }
            }
        >
            {move || {
                desk.queue
                    .with(|q| q.as_ref().and_then(|q| q.problem.clone()))
                    .map(|p| {
                        view! {
                            <p class="field-error" data-testid="queue-problem">
                                {format!("No schedule on this cluster: {p}")}
                            </p>
                        }
                    })
            }}
            <Show
                when=move || !empty()
                fallback=|| {
                    view! {
                        <p class="hint" data-testid="queue-empty">
                            "No job admitted yet: quote one, choose a deadline and press Admit."
                        </p>
                    }
                }
            >
                <PlotCanvas
                    data=gantt
                    placeholder="The queue has no schedule on this cluster."
                    testid="gantt"
                />
            </Show>
            <p class="hint">
                "Each job as late as its deadline allows (latest deadline first): map in blue, reduce in orange, its slack in grey up to its deadline (red). Green bands: free map and reduce capacity, the slack a new job fills."
            </p>
            <DataTable cols=vec![col("Job"), num("Deadline"), num("Map work (slot-s)"), num("Reduce work (slot-s)"), col("Method"), num("Price"), col("")]>
                {move || {
                    desk.queue
                        .with(|q| q.as_ref().map(|q| q.rows.clone()).unwrap_or_default())
                        .into_iter()
                        .map(|r| {
                            let name = r.name.clone();
                            view! {
                                <tr data-testid="queue-row" data-name=r.name.clone()>
                                    <td class="job-name">{r.name.clone()}</td>
                                    <td class="num">{duration_text(r.deadline)}</td>
                                    <td class="num">{trimmed(r.map_work, 0)}</td>
                                    <td class="num">{trimmed(r.reduce_work, 0)}</td>
                                    <td>{r.method.map_or_else(|| "imported".to_string(), |m| m.to_string())}</td>
                                    <td class="num">{r.price.map_or_else(|| "—".to_string(), price_text)}</td>
                                    <td>
                                        <button
                                            class="button ghost small"
                                            data-testid="queue-remove"
                                            disabled=move || desk.busy.get()
                                            on:click=move |_| {
                                                studio
                                                    .pricing.pricing_change(PricingRequest::Remove {
                                                        name: name.clone(),
                                                    })
                                            }
                                        >
                                            "Remove"
                                        </button>
                                    </td>
                                </tr>
                            }
                        })
                        .collect_view()
                }}
            </DataTable>
        </Card>
    }
}

/// The queue in one line.
fn summary(q: &QueueView) -> String {
    if q.rows.is_empty() {
        return "empty".into();
    }
    format!(
        "{} job(s) · latest deadline {} · {} tokens charged",
        count(q.rows.len()),
        duration_text(q.horizon),
        price_text(q.revenue)
    )
}
