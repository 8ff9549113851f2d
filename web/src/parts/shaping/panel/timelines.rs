//! An application's and a host's timelines, baseline and shaped side by
//! side.

use crate::parts::shaping::charts::{AppAxes, AppPlot, HostPlot};
use crate::parts::shaping::desk::Shown;
use crate::state::Studio;
use crate::widgets::card::Card;
use crate::widgets::format::hours;
use crate::widgets::PlotCanvas;
use leptos::prelude::*;
use skyplan_engine::shaping::EventKind;

/// An application's and a host's timelines, baseline and shaped side by
/// side.
#[component]
pub fn TimelinesCard() -> impl IntoView {
    let desk = expect_context::<Studio>().shaping;
    let policy = move || {
        desk.run
            .view
            .with(|v| v.as_ref().map(|v| v.report.params.policy.name().to_owned()))
            .unwrap_or_default()
    };
    let app_plot = move |shaped: bool| {
        Signal::derive(move || {
            let shown = desk.shown.get();
            desk.timelines.with(|t| {
                let t = t.as_ref()?;
                let tl = &t.timelines;
                let axes = AppAxes::of(&tl.baseline_app, &tl.shaped_app, shown);
                let timeline = if shaped {
                    tl.shaped_app.clone()
                } else {
                    tl.baseline_app.clone()
                };
                // The marks drawn, in the key: tests read them.
                let marks = |k: EventKind| timeline.events.iter().filter(|e| e.kind == k).count();
                let marks = format!(
                    "crashes={}:resubmits={}:off={}",
                    marks(EventKind::Fail),
                    marks(EventKind::Resubmit),
                    marks(EventKind::ShapingOff)
                );
                Some(AppPlot {
                    timeline,
                    run: if shaped {
                        policy()
                    } else {
                        "reservation".to_owned()
                    },
                    shown,
                    axes,
                    key: format!("{}:{}:{}:{shown:?}:{marks}", t.ticket, tl.app, shaped),
                })
            })
        })
    };
    let host_plot = move |shaped: bool| {
        Signal::derive(move || {
            let shown = desk.shown.get();
            desk.timelines.with(|t| {
                let t = t.as_ref()?;
                let tl = &t.timelines;
                Some(HostPlot {
                    timeline: if shaped {
                        tl.shaped_host.clone()
                    } else {
                        tl.baseline_host.clone()
                    },
                    run: if shaped {
                        policy()
                    } else {
                        "reservation".to_owned()
                    },
                    shown,
                    x1: HostPlot::end(&tl.baseline_host, &tl.shaped_host),
                    key: format!("{}:{}:{}:{shown:?}", t.ticket, tl.host, shaped),
                })
            })
        })
    };
    let placeholder = Signal::derive(move || {
        if desk.run.running.get() {
            "Simulating in the worker…".to_owned()
        } else {
            "Press Run: the baseline and the shaped run of the workload, and their timelines."
                .to_owned()
        }
    });
    let app_options = move || {
        desk.run.view.with(|v| {
            v.as_ref().map(|v| {
                v.apps
                    .iter()
                    .enumerate()
                    .map(|(i, a)| {
                        let label = format!(
                            "{} · {} · {} comp · {} h",
                            a.name,
                            if a.elastic { "elastic" } else { "rigid" },
                            a.components,
                            hours(a.runtime_s)
                        );
                        view! {
                            <option value=i.to_string() selected=move || desk.app.get() == Some(i)>
                                {label}
                            </option>
                        }
                    })
                    .collect_view()
            })
        })
    };
    let host_options = move || {
        let hosts = desk
            .run
            .view
            .with(|v| v.as_ref().map(|v| v.report.params.hosts))
            .unwrap_or(0);
        (0..hosts)
            .map(|h| {
                view! {
                    <option value=h.to_string() selected=move || desk.host.get() == h>
                        {format!("host {h}")}
                    </option>
                }
            })
            .collect_view()
    };
    let none = move || desk.run.view.with(Option::is_none);
    view! {
        <Card
            title="Shaping timelines"
            head=move || {
                view! {
                    <div class="head-actions">
                        <select
                            data-testid="shaping-app"
                            class="shaping-app-select"
                            disabled=none
                            on:change=move |ev| {
                                if let Ok(i) = event_target_value(&ev).parse::<usize>() {
                                    desk.pick_app(i);
                                }
                            }
                        >
                            {app_options}
                        </select>
                        <select
                            data-testid="shaping-host"
                            disabled=none
                            on:change=move |ev| {
                                if let Ok(h) = event_target_value(&ev).parse::<usize>() {
                                    desk.pick_host(h);
                                }
                            }
                        >
                            {host_options}
                        </select>
                        <select
                            data-testid="shaping-resource"
                            on:change=move |ev| {
                                desk.shown
                                    .set(if event_target_value(&ev) == "cpu" { Shown::Cpu } else { Shown::Mem });
                            }
                        >
                            <option value="mem">"Memory"</option>
                            <option value="cpu">"CPU"</option>
                        </select>
                    </div>
                }
            }
        >
            <div class="shaping-pair">
                <PlotCanvas data=app_plot(false) placeholder=placeholder testid="shaping-app-baseline"/>
                <PlotCanvas data=app_plot(true) placeholder=placeholder testid="shaping-app-shaped"/>
            </div>
            <p class="hint">
                "The application's request (dashed), use, the forecast with its 95 % band (after the grace period) and its allocation, on the same axes in both runs; ticks at the bottom mark resizes, triangles preemptions, crosses failures (its memory use above its allocation). Under reservations it waits longer and holds its full request."
            </p>
            <div class="shaping-pair">
                <PlotCanvas data=host_plot(false) placeholder=placeholder testid="shaping-host-baseline"/>
                <PlotCanvas data=host_plot(true) placeholder=placeholder testid="shaping-host-shaped"/>
            </div>
            <p class="hint">
                "The host's allocation against its use and capacity: shaping packs more components onto it, closer to what they use."
            </p>
        </Card>
    }
}
