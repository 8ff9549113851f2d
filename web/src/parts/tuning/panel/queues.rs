//! The queue tree: scheduler, queues with their shares, bounds and
//! policies; importable from YARN files.

use crate::parts::tuning::desk::QueueField;
use crate::state::Studio;
use crate::widgets::button::button;
use crate::widgets::card::Card;
use crate::widgets::field::choice;
use crate::widgets::file_button::FileButton;
use crate::widgets::format::trimmed;
use leptos::prelude::*;
use skyplan_engine::tuning::{Policy, SchedulerKind};

/// The queue tree: scheduler, queues with their shares, bounds and
/// policies; importable from YARN files.
#[component]
pub fn QueuesCard() -> impl IntoView {
    let desk = expect_context::<Studio>().tuning;
    let fair = move || desk.current.with(|c| c.scheduler == SchedulerKind::Fair);
    let rows = move || {
        let config = desk.current.get();
        let weight = config.scheduler == SchedulerKind::Fair;
        config
            .queues
            .iter()
            .enumerate()
            .map(|(i, q)| {
                let share = if weight {
                    trimmed(q.share, 3)
                } else {
                    trimmed(q.share * 100.0, 2)
                };
                let policy = q.policy;
                let input = move |field: QueueField, value: String, testid: &'static str| {
                    view! {
                        <input
                            type="text"
                            inputmode="decimal"
                            class="queue-input"
                            data-testid=testid
                            prop:value=value
                            on:change=move |ev| desk.edit_queue(i, field, &event_target_value(&ev))
                        />
                    }
                };
                view! {
                    <tr data-testid="tuning-queue-row" data-queue=q.name.clone()>
                        <td>{format!("root.{}", q.name)}</td>
                        <td class="num">{input(QueueField::Share, share, "tuning-share")}</td>
                        <td class="num">
                            {input(QueueField::Min, trimmed(q.min_share * 100.0, 1), "tuning-min")}
                        </td>
                        <td class="num">
                            {input(QueueField::Max, trimmed(q.max_share * 100.0, 1), "tuning-max")}
                        </td>
                        <td>
                            <select
                                data-testid="tuning-policy"
                                on:change=move |ev| {
                                    if let Some(p) = Policy::parse(&event_target_value(&ev)) {
                                        desk.set_policy(i, p);
                                    }
                                }
                            >
                                {Policy::ALL
                                    .into_iter()
                                    .map(|p| {
                                        view! {
                                            <option value=p.name() selected=p == policy>
                                                {p.name()}
                                            </option>
                                        }
                                    })
                                    .collect_view()}
                            </select>
                        </td>
                    </tr>
                }
            })
            .collect_view()
    };
    let capacity_sum = move || {
        desk.current.with(|c| {
            (c.scheduler == SchedulerKind::Capacity).then(|| {
                let sum: f64 = c.queues.iter().map(|q| q.share).sum::<f64>() * 100.0;
                let ok = (sum - 100.0).abs() < 1e-4;
                view! {
                    <p class="hint" class:warn=!ok data-testid="tuning-capacity-sum">
                        {format!(
                            "Capacities sum to {} %{}",
                            trimmed(sum, 2),
                            if ok { "" } else { " — YARN needs 100 %" }
                        )}
                    </p>
                }
            })
        })
    };
    view! {
        <Card
            title="Queues"
            text="The cluster's current configuration: the grid keeps its queues and bounds, and its latency is the yardstick. Read it from capacity-scheduler.xml or a Fair allocation file, or edit it here."
            head=move || {
                view! {
                    <span class="card-note" data-testid="tuning-source">
                        {move || match desk.source.get() {
                            Some(name) => format!("from {name}"),
                            None => "our own".to_owned(),
                        }}
                    </span>
                }
            }
        >
            <div class="form-grid two">
                {choice(
                    "Scheduler",
                    "tuning-scheduler",
                    vec![
                        (SchedulerKind::Capacity, "capacity", "Capacity".into()),
                        (SchedulerKind::Fair, "fair", "Fair".into()),
                    ],
                    move || desk.current.with(|c| c.scheduler),
                    move |kind| desk.set_scheduler(kind),
                )}
                {choice(
                    "Queues",
                    "tuning-queue-count",
                    vec![(1, "1", "1".into()), (2, "2", "2".into()), (4, "4", "4".into()), (6, "6", "6".into())],
                    move || desk.current.with(|c| c.queues.len()),
                    move |n| desk.set_queue_count(n),
                )}
            </div>
            <div class="table-scroll">
                <table class="data queue-table">
                    <thead>
                        <tr>
                            <th>"Queue"</th>
                            <th class="num">{move || if fair() { "Weight" } else { "Capacity %" }}</th>
                            <th class="num">"Min %"</th>
                            <th class="num">"Max %"</th>
                            <th>"Policy"</th>
                        </tr>
                    </thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
            {capacity_sum}
            <div class="actions">
                <FileButton
                    label="Read YARN file…"
                    testid="tuning-xml-input"
                    accept=".xml,text/xml,application/xml"
                    on_files=move |files| files.into_iter().take(1).for_each(|f| desk.import_xml(f))
                />
                <Show when=move || desk.source.with(Option::is_some)>
                    {button("button small", "", "Forget file", || false, move || desk.forget_xml())}
                </Show>
            </div>
            <p class="hint">
                "The grid pairs queues (1, 2, 4 or 6): shares in steps between 1/6 and 5/6 of a pair (1/3–2/3 with more queues) and, under Fair, fifo, fair or drf in every queue."
            </p>
        </Card>
    }
}
