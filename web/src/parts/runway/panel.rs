//! The Runway panel, first in the studio: when each limit is reached
//! (P10/P50/P90 dates, "beyond the horizon" a valid answer), the binding
//! one, what the fit saw, the purchase schedules P50 and P90 side by side,
//! the binding limit's demand band against capacity, and what each lever
//! buys at the grown load — the numbers of `skyplan runway` and the
//! report's first section, computed in the worker. It opens at work on the
//! saved workspace; growth and headroom sliders redraw the runway while
//! they are dragged (from the worker's kept planner), and the levers are
//! measured one at a time once the slider is let go; a refused setting
//! shows the engine's line and keeps the last answer. A run's dates and
//! chart show as soon as its outlook comes, the purchase plans (and the
//! chart's capacity after them) when they are planned.
//!
//! Test ids: `runway-panel`, `runway-status`, `runway-growth`,
//! `runway-percent`, `runway-cpu`, `runway-memory`, `runway-horizon`,
//! `runway-purchase`, the sliders `runway-percent-slider`,
//! `runway-cpu-slider`, `runway-memory-slider`, `runway-run`,
//! `runway-error`, `runway-binding`, `runway-limit` (`data-limit`,
//! `data-p10`, `data-p50`, `data-p90`), `runway-evidence`, `runway-note`,
//! `runway-plan` (`data-plan`: `P50` or `P90`), `runway-purchase-row`,
//! `runway-plans-pending` (the plans being planned), `runway-chart` (with
//! `data-drawn`; its `data-key` the ticket, `-dates` after it for an
//! outlook's), `runway-lever` (`data-lever`,
//! `data-pays`, `data-machines`, `data-days`, `data-state`: `measuring`, `measured` or `failed`);
//! on `runway-panel`, the growth slider's sizes planned ahead: `data-warm`
//! (`waiting`, `warming`, `done` or `failed`), `data-warm-sizes` (sizes
//! re-planned by it), `data-warm-ms` (its worker time); `runway-warm`, its
//! line under the growth slider.

use super::charts::RunwayPlot;
use super::desk::{Dates, GrowthKind, LeverRow, RunwayDesk, RunwayForm, Warmth, GROWTH_SLIDER};
use super::protocol::RunwayView;
use crate::fields;
use crate::state::Studio;
use crate::toolkit::run::{JobStatus, RunControls};
use crate::widgets::card::Card;
use crate::widgets::field::{choice, range_field, text_field, Field};
use crate::widgets::format::{minute, trimmed};
use crate::widgets::table::{col, num, DataTable};
use crate::widgets::PlotCanvas;
use leptos::prelude::*;
use skyplan_engine::runway::{Growth, PurchasePlan, ScaleChoice};
use skyplan_engine::Timestamp;

/// The form's fields beside the growth choice.
const FIELDS: [Field<RunwayForm>; 4] = fields![RunwayForm:
    ("CPU headroom target %", "runway-cpu", cpu),
    ("Memory headroom target %", "runway-memory", memory),
    ("Horizon, days", "runway-horizon", horizon),
    ("Purchases keep limits for, days", "runway-purchase", purchase),
];

/// The fitted growth's season.
const SEASON: [Field<RunwayForm>; 1] =
    fields![RunwayForm: ("Season: auto, none or days", "runway-season", season)];

/// The growth by hand.
const PERCENT: [Field<RunwayForm>; 1] =
    fields![RunwayForm: ("Growth, % a month", "runway-percent", percent)];

/// The sliders: growth by hand ([`GROWTH_SLIDER`]) and the headroom
/// targets (20…100 %), redrawn while dragged.
const SLIDERS: [(Field<RunwayForm>, (f64, f64, f64)); 3] = {
    let [percent] = fields![RunwayForm: ("Growth, % a month", "runway-percent-slider", percent)];
    let [cpu, memory] = fields![RunwayForm:
        ("CPU headroom target %", "runway-cpu-slider", cpu),
        ("Memory headroom target %", "runway-memory-slider", memory),
    ];
    [
        (percent, GROWTH_SLIDER),
        (cpu, (20.0, 100.0, 1.0)),
        (memory, (20.0, 100.0, 1.0)),
    ]
};

/// A day, `YYYY-MM-DD`, or "beyond the horizon" (the report's wording).
fn day(t: Option<Timestamp>) -> String {
    match t {
        Some(t) => minute(t).get(..10).unwrap_or_default().to_owned(),
        None => "beyond the horizon".into(),
    }
}

/// The runway shown, if any.
fn shown<R>(desk: RunwayDesk, f: impl FnOnce(&RunwayView) -> R) -> Option<R> {
    desk.run.view.with(|v| v.as_ref().map(f))
}

/// The dates shown (the runway's, or the outlook of the run being
/// planned), if any.
fn dated<R>(dates: Memo<Option<Dates>>, f: impl FnOnce(&Dates) -> R) -> Option<R> {
    dates.with(|d| d.as_ref().map(f))
}

/// The Runway panel.
#[component]
pub fn RunwayPanel() -> impl IntoView {
    let desk = expect_context::<Studio>().runway;
    // Once asked, planned while shown: the settings as they change, the
    // workspace as it changed while the panel was hidden.
    Effect::new(move |_| desk.follow());
    // The levers are measured while the panel is shown.
    desk.show(true);
    on_cleanup(move || desk.show(false));
    let warm = move || {
        desk.warm.with(|w| match w.warmth {
            Warmth::Waiting => "waiting",
            Warmth::Warming => "warming",
            Warmth::Done => "done",
            Warmth::Failed(_) => "failed",
        })
    };
    let warm_sizes = move || desk.warm.with(|w| w.computed.to_string());
    let warm_ms = move || desk.warm.with(|w| format!("{:.1}", w.millis));
    view! {
        <div
            class="pricing-page runway-page"
            data-testid="runway-panel"
            data-warm=warm
            data-warm-sizes=warm_sizes
            data-warm-ms=warm_ms
        >
            <div class="agenda">
                <div class="main-column">
                    <LimitsCard/>
                    <ChartCard/>
                    <LeversCard/>
                </div>
                <aside class="sidebar">
                    <SettingsCard/>
                    <PurchasesCard/>
                </aside>
            </div>
        </div>
    }
}

/// The settings: growth, headroom targets, horizons.
#[component]
fn SettingsCard() -> impl IntoView {
    let desk = expect_context::<Studio>().runway;
    let by_hand = move || desk.form.with(|f| f.growth == GrowthKind::Monthly);
    let hold = move |held| desk.drag(held);
    let [percent, cpu, memory] = SLIDERS;
    let warm = move || {
        desk.warm.with(|w| match &w.warmth {
            Warmth::Waiting => String::new(),
            Warmth::Warming => format!("planning sizes for the growth slider ({} so far)", w.computed),
            Warmth::Done => "sizes ready for the growth slider".to_owned(),
            Warmth::Failed(e) => format!("sizes for the growth slider not planned ahead: {e}"),
        })
    };
    view! {
        <Card title="Settings" text="Planned again as you change them (dragging redraws from the planner the worker keeps; the levers are measured once you let go); kept across reloads and in the workspace bundle.">
            <div class="sim-form">
                {choice(
                    "Growth",
                    "runway-growth",
                    vec![
                        (GrowthKind::Fitted, "fitted", "fitted from the history".to_owned()),
                        (GrowthKind::Monthly, "monthly", "% a month, by hand".to_owned()),
                    ],
                    move || desk.form.with(|f| f.growth),
                    move |g| desk.form.update(|f| f.growth = g),
                )}
                <Show when=by_hand>
                    {PERCENT.into_iter().map(|f| text_field(desk.form, f)).collect_view()}
                    {range_field(desk.form, percent.0, percent.1, hold)}
                    <p class="hint" data-testid="runway-warm">{warm}</p>
                </Show>
                <Show when=move || !by_hand()>
                    {choice(
                        "Trend scale",
                        "runway-scale",
                        vec![
                            (ScaleChoice::Level, "level", "level (straight line)".to_owned()),
                            (ScaleChoice::Log, "log", "logarithm (compounding)".to_owned()),
                            (ScaleChoice::Auto, "auto", "chosen from the spread".to_owned()),
                        ],
                        move || desk.form.with(|f| f.scale),
                        move |s| desk.form.update(|f| f.scale = s),
                    )}
                    {SEASON.into_iter().map(|f| text_field(desk.form, f)).collect_view()}
                </Show>
                {FIELDS.into_iter().map(|f| text_field(desk.form, f)).collect_view()}
                {range_field(desk.form, cpu.0, cpu.1, hold)}
                {range_field(desk.form, memory.0, memory.1, hold)}
            </div>
            <RunControls
                job=desk.run
                testid="runway"
                label="Plan again"
                busy="planning"
                on_run=move || desk.plan()
            />
        </Card>
    }
}

/// The binding limit, each limit's dates, the evidence and the notes.
#[component]
fn LimitsCard() -> impl IntoView {
    let desk = expect_context::<Studio>().runway;
    let dates = Memo::new(move |_| desk.dates());
    let status = desk.run.status("planning", " steps", "not planned yet", |v| {
        let how = if v.redrawn { "redrawn" } else { "planned" };
        format!("{how} in {} ms", trimmed(v.millis, 1))
    });
    let binding = move || {
        dated(dates, |v| {
            v.outlook
                .binding
                .clone()
                .unwrap_or_else(|| "none within the horizon".into())
        })
        .unwrap_or_else(|| "—".into())
    };
    let today = move || dated(dates, |v| day(Some(v.outlook.today))).unwrap_or_default();
    let cluster = move || {
        dated(dates, |v| {
            let c = &v.outlook.cluster;
            // The report's "cores a machine added": the machine given, or
            // the cluster's own cores over its machines.
            let added = c
                .machine_cores
                .or_else(|| c.cores.map(|cores| cores / f64::from(c.machines.max(1))));
            format!(
                "{} machines{}",
                c.machines,
                added
                    .map(|m| format!(", {} cores a machine added", trimmed(m, 1)))
                    .unwrap_or_default()
            )
        })
        .unwrap_or_default()
    };
    let rows = move || {
        dates.with(|v| {
            let Some(v) = v.as_ref() else {
                return Vec::new();
            };
            v.outlook
                .limits
                .iter()
                .map(|l| {
                    let what = format!(
                        "{}{}",
                        l.description,
                        if l.extrapolated { " (extrapolated)" } else { "" }
                    );
                    view! {
                        <tr
                            data-testid="runway-limit"
                            data-limit=l.name.clone()
                            data-p10=day(l.p10)
                            data-p50=day(l.p50)
                            data-p90=day(l.p90)
                        >
                            <td>{l.name.clone()}</td>
                            <td>{day(l.p10)}</td>
                            <td>{day(l.p50)}</td>
                            <td>{day(l.p90)}</td>
                            <td class="num">
                                {l.largest_growth.map_or("∞".into(), |g| format!("{}×", trimmed(g, 3)))}
                            </td>
                            <td class="note">{what}</td>
                        </tr>
                    }
                })
                .collect::<Vec<_>>()
        })
    };
    let evidence = move || {
        dated(dates, |v| {
            let model = v.outlook.limits.first().map(|l| l.model.clone()).unwrap_or_default();
            match (&v.params.growth, &v.outlook.evidence) {
                (Growth::Monthly { percent }, _) => {
                    format!("Growth set by hand: {percent} % a month, no interval.")
                }
                (Growth::Fitted, Some(e)) => format!(
                    "Growth fitted on {} days of daily peaks, supporting {} days ahead: {model}.",
                    e.days, e.supported_days
                ),
                (Growth::Fitted, None) => format!("Growth fitted: {model}."),
            }
        })
        .unwrap_or_default()
    };
    let notes = move || {
        dated(dates, |v| {
            v.outlook
                .notes
                .iter()
                .map(|n| view! { <li data-testid="runway-note">{n.clone()}</li> })
                .collect::<Vec<_>>()
        })
        .unwrap_or_default()
    };
    view! {
        <Card
            title="Runway"
            testid="runway-card"
            head=move || view! { <JobStatus job=desk.run testid="runway-status" text=status/> }
            text="The day each limit is reached: P10 the early date (demand's 90th percentile), P50 the median, P90 the late date."
        >
            <div class="sim-form">
                <div class="field">
                    "Binding limit: "
                    <strong data-testid="runway-binding">{binding}</strong>
                </div>
                <div class="field">"Today: " {today}</div>
                <div class="field">"Cluster: " {cluster}</div>
            </div>
            <DataTable cols=vec![col("Limit"), col("P10"), col("P50"), col("P90"), num("Largest growth"), col("What")]>
                {rows}
            </DataTable>
            <p class="hint" data-testid="runway-evidence">{evidence}</p>
            <ul class="hint">{notes}</ul>
        </Card>
    }
}

/// One purchase plan: "add N by D" lines.
fn plan_view(plan: &PurchasePlan, which: &'static str) -> impl IntoView {
    let lines = if plan.purchases.is_empty() {
        vec![view! { <li data-testid="runway-purchase-row">"nothing to add"</li> }.into_any()]
    } else {
        plan.purchases
            .iter()
            .map(|p| {
                view! {
                    <li data-testid="runway-purchase-row">
                        {format!("add {} by {}", p.machines, day(Some(p.date)))}
                    </li>
                }
                .into_any()
            })
            .collect()
    };
    view! {
        <div class="runway-plan" data-testid="runway-plan" data-plan=which>
            <strong>{format!("{which}: {} machine(s)", plan.total)}</strong>
            <ul>{lines}</ul>
            {plan.unmet.clone().map(|u| view! { <p class="problem">{u}</p> })}
        </div>
    }
}

/// The purchase schedules, P50 and P90 side by side.
#[component]
fn PurchasesCard() -> impl IntoView {
    let desk = expect_context::<Studio>().runway;
    let dates = Memo::new(move |_| desk.dates());
    let pending = move || dated(dates, |d| !d.planned).unwrap_or(false);
    let plans = move || {
        if pending() {
            return Some(
                view! {
                    <p class="hint" data-testid="runway-plans-pending">
                        "Planning the purchases: the cluster re-planned a machine added at a time…"
                    </p>
                }
                .into_any(),
            );
        }
        shown(desk, |v| {
            view! {
                <div class="runway-plans">
                    {plan_view(&v.runway.purchases, "P50")}
                    {plan_view(&v.runway.purchases_p90, "P90")}
                </div>
            }
            .into_any()
        })
    };
    view! {
        <Card title="What to add, when" text="The fewest machines that keep every limit over the purchase horizon, each bought as late as it can be: for the median demand and for its 90th percentile.">
            {plans}
        </Card>
    }
}

/// The binding limit's demand band against capacity.
#[component]
fn ChartCard() -> impl IntoView {
    let desk = expect_context::<Studio>().runway;
    let plot = Signal::derive(move || desk.dates().map(|dates| RunwayPlot { dates }));
    let placeholder = Signal::derive(move || {
        if desk.run.running.get() {
            "Planning in the worker…".to_owned()
        } else {
            "The runway's chart appears once the workspace is planned.".to_owned()
        }
    });
    view! {
        <Card title="Demand against capacity" text="The binding limit's demand ahead, in multiples of today's (P10–P90 band, median), against the most the cluster meets at its headroom target today and after each purchase of the P50 plan.">
            <PlotCanvas data=plot placeholder=placeholder testid="runway-chart"/>
        </Card>
    }
}

/// One lever's row: its figures (those of the settings before, greyed,
/// while it is measured again), or the engine's line.
fn lever_row(row: &LeverRow, name: &str) -> impl IntoView {
    let (lever, state) = match row {
        LeverRow::Measuring(l) => (l.as_ref(), "measuring"),
        LeverRow::Measured(l, _) => (Some(l), "measured"),
        LeverRow::Failed(_) => (None, "failed"),
    };
    let pays = match (row, lever) {
        (LeverRow::Measuring(_), _) => "measuring…".to_owned(),
        (LeverRow::Failed(e), _) => e.clone(),
        (_, Some(l)) if l.pays => "yes".to_owned(),
        _ => "does not pay".to_owned(),
    };
    let dash = || "—".to_owned();
    view! {
        <tr
            data-testid="runway-lever"
            data-lever=name.to_owned()
            data-pays=lever.is_some_and(|l| l.pays).to_string()
            data-machines=lever.and_then(|l| l.machines).map(|m| m.to_string()).unwrap_or_default()
            data-days=lever.and_then(|l| l.days).map(|d| d.to_string()).unwrap_or_default()
            data-state=state
            class=(state == "measuring").then_some("stale")
        >
            <td>{name.to_owned()}</td>
            <td class="num">{lever.and_then(|l| l.machines).map_or_else(dash, |m| trimmed(m, 1))}</td>
            <td class="num">{lever.and_then(|l| l.days).map_or_else(dash, |d| d.to_string())}</td>
            <td>{pays}</td>
            <td class="note">{lever.and_then(|l| l.cost.clone()).unwrap_or_else(dash)}</td>
            <td class="note">{lever.map_or_else(dash, |l| l.detail.clone())}</td>
        </tr>
    }
}

/// What each lever buys at the grown load.
#[component]
fn LeversCard() -> impl IntoView {
    let desk = expect_context::<Studio>().runway;
    let rows = move || {
        desk.levers.with(|t| {
            t.rows
                .iter()
                .map(|(kind, row)| lever_row(row, kind.name()))
                .collect::<Vec<_>>()
        })
    };
    view! {
        <Card title="Levers at the grown load" text="What reservations, shaping, harvesting and tuning buy instead of machines, each from the part's own run at the grown load, measured one at a time.">
            <DataTable cols=vec![col("Lever"), num("Machines"), num("Days"), col("Pays"), col("Cost"), col("Figures")]>
                {rows}
            </DataTable>
        </Card>
    }
}
