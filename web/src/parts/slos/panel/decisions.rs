//! Every decision, loaded job or not, with export.

use super::decision::reservation_text;
use super::labels::{decision_label, offset};
use crate::parts::slos::protocol::ExportFormat;
use crate::state::Studio;
use crate::widgets::button::button;
use crate::widgets::card::Card;
use crate::widgets::table::{col, num, DataTable};
use leptos::prelude::*;

/// Every decision, loaded job or not, with export.
#[component]
pub fn DecisionsCard() -> impl IntoView {
    let studio = expect_context::<Studio>();
    let slo = studio.slo;
    let none = move || slo.decisions.with(Vec::is_empty);
    let rows = move || {
        let decisions = slo.decisions.get();
        if decisions.is_empty() {
            return view! {
                <tr>
                    <td class="empty" colspan="6">
                        "No decisions yet: sign off, override or reject a job's SLO above."
                    </td>
                </tr>
            }
            .into_any();
        }
        decisions
            .into_iter()
            .map(|d| {
                let (recurring, grouped) = slo.table.with(|t| {
                    t.as_ref().map_or((false, false), |t| {
                        (
                            t.rows.iter().any(|r| r.job == d.job),
                            t.non_periodic.iter().any(|g| g.name == d.job),
                        )
                    })
                });
                let status = match (recurring, grouped) {
                    (true, _) => "loaded",
                    (false, true) => "not recurring now",
                    (false, false) => "job not loaded",
                };
                let label = decision_label(Some(d.kind));
                let job = d.job.clone();
                let window = d.window.map_or_else(
                    || "—".to_owned(),
                    |(a, b)| format!("{} → {}", offset(Some(a)), offset(Some(b))),
                );
                let reservation = d.skyline.as_ref().map_or_else(|| "—".to_owned(), reservation_text);
                view! {
                    <tr data-testid="decision-row" data-job=d.job.clone() data-loaded=recurring.to_string()>
                        <td class="job-name">
                            {if recurring {
                                let job = job.clone();
                                view! {
                                    <button class="link" on:click=move |_| studio.slo.select_slo(job.clone())>
                                        {d.job.clone()}
                                    </button>
                                }
                                    .into_any()
                            } else {
                                view! { <span>{d.job.clone()}</span> }.into_any()
                            }}
                        </td>
                        <td>
                            <span class=format!("decision {label}")>{label}</span>
                        </td>
                        <td class="num">{window}</td>
                        <td class="num">{reservation}</td>
                        <td class="reason" title=d.note.clone().unwrap_or_default()>{d.note.clone().unwrap_or_default()}</td>
                        <td>
                            <span class="load-state" class:missing=!recurring>{status}</span>
                        </td>
                        <td>
                            {button(
                                "button ghost small",
                                "withdraw-row",
                                "Withdraw",
                                || false,
                                move || studio.slo.undecide(job.clone()),
                            )}
                        </td>
                    </tr>
                }
            })
            .collect_view()
            .into_any()
    };
    view! {
        <Card
            title="Decisions"
            head=move || {
                view! {
                    <span class="card-note">
                        "what the agenda receives · saved in this browser, kept when a job's runs are removed"
                    </span>
                    <div class="head-actions">
                        {[ExportFormat::Csv, ExportFormat::Json]
                            .map(|format| {
                                let ext = format.extension();
                                view! {
                                    <button
                                        class="button small"
                                        data-testid=format!("export-{ext}")
                                        prop:disabled=none
                                        on:click=move |_| studio.slo.export_decisions(format)
                                    >
                                        {format!("Export {}", ext.to_uppercase())}
                                    </button>
                                }
                            })
                            .collect_view()}
                    </div>
                }
            }
        >
            <DataTable cols=vec![col("Job"), col("Decision"), num("Window (from period start)"), num("Reservation"), col("Note"), col("Runs"), col("")]>
                {rows}
            </DataTable>
        </Card>
    }
}
