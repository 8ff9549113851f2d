//! Algorithm 3's split among several groups.

use crate::parts::tuning::charts::CurvesPlot;
use crate::state::Studio;
use crate::widgets::card::Card;
use crate::widgets::format::trimmed;
use crate::widgets::table::{col, num, DataTable};
use crate::widgets::PlotCanvas;
use leptos::prelude::*;

/// Algorithm 3's split among several groups.
#[component]
pub fn SplitCard() -> impl IntoView {
    let desk = expect_context::<Studio>().tuning;
    let split = move || {
        desk.run
            .view
            .with(|v| v.as_ref().and_then(|v| v.split.clone()))
    };
    let plot = Signal::derive(move || {
        desk.run.view.with(|v| {
            let v = v.as_ref().filter(|v| v.split.is_some())?;
            Some(CurvesPlot {
                groups: v.groups.clone(),
                key: v.ticket.to_string(),
            })
        })
    });
    let rows = move || {
        desk.run.view.with(|v| {
            let Some(v) = v.as_ref() else {
                return Vec::new();
            };
            let Some(s) = v.split.as_ref() else {
                return Vec::new();
            };
            v.groups
                .iter()
                .zip(s.containers.iter().zip(&s.ratios))
                .map(|(g, (&c, r))| {
                    view! {
                        <tr data-testid="tuning-split-row" data-containers=c.to_string()>
                            <td>{g.name.clone()}</td>
                            <td class="num">{c.to_string()}</td>
                            <td class="num">{format!("{} %", trimmed(r * 100.0, 1))}</td>
                            <td class="num">{trimmed(g.candidates[g.best].latency_secs, 1)}</td>
                        </tr>
                    }
                })
                .collect::<Vec<_>>()
        })
    };
    view! {
        <Show when=move || split().is_some()>
            <Card
                title="Cluster split by Algorithm 3"
                head=move || {
                    view! {
                        <span class="card-note">
                            {move || {
                                split()
                                    .map(|s| {
                                        format!(
                                            "{} containers · r_Alloc {} · r_sum {} · {} s less latency in all",
                                            s.total,
                                            s.r_alloc,
                                            s.r_sum,
                                            trimmed(s.reduction, 1)
                                        )
                                    })
                                    .unwrap_or_default()
                            }}
                        </span>
                    }
                }
            >
                <PlotCanvas
                    data=plot
                    placeholder=Signal::derive(String::new)
                    testid="tuning-curves"
                />
                <DataTable cols=vec![col("Group"), num("Containers"), num("Share"), num("Best est. latency (s)")]>
                    {rows}
                </DataTable>
            </Card>
        </Show>
    }
}
