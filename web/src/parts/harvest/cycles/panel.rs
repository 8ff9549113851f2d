//! The spare-cycle half's cards of the Harvest panel (the harvesting
//! paper, §3–§6): the primary tenants of
//! the loaded CPU series (grouped by a tenants file or `tenant/server`
//! names) with their pattern by FFT and class by K-Means, sortable and
//! filterable; the chosen tenant's series and spectrum with the detected
//! peak; each class's average day; the harvestable containers per class and
//! hour; Algorithm 1's class selection for a job with every class's
//! probability; and the §6 simulation of YARN-PT against YARN-H, run in the
//! worker with progress.
//!
//! Test ids: `harvest-tenants-file`, `harvest-tenants-input`,
//! `harvest-file`, `harvest-classify`, `harvest-status` (`data-running`),
//! `harvest-error`, `harvest-filter`, `harvest-sort` (`data-col`),
//! `harvest-tenant-row` (`data-name`, `data-pattern`, `data-class`),
//! `harvest-verdict`, `harvest-series`, `harvest-spectrum`,
//! `harvest-class-days`, `harvest-capacity` (canvases with `data-drawn`),
//! `harvest-class-row`, `harvest-capacity-low`, `harvest-select-job`,
//! `harvest-select-last`, `harvest-select-containers`, `harvest-select-hour`,
//! `harvest-select-run`, `harvest-select-result` (`data-type`,
//! `data-outcome`), `harvest-option-row` (`data-id`, `data-probability`),
//! `harvest-select-error`, `harvest-sim-run`, `harvest-sim-status`
//! (`data-running`), `harvest-sim-source`, `harvest-sim`, `harvest-sim-row`
//! (`data-level`, `data-improvement`), `harvest-sim-error`.

use super::charts::{CapacityPlot, ClassDaysPlot, SeriesPlot, SimPlot, SpectrumPlot};
use super::desk::{ClassifyForm, SelectForm, SimForm, SortBy};
use super::protocol::JobSource;
use crate::state::Studio;
use crate::toolkit::run::{ErrorLine, JobStatus, RunButton};
use crate::widgets::field::{text_field, Field};
use crate::widgets::format::{count, trimmed};
use crate::widgets::PlotCanvas;
use leptos::prelude::*;
use skyplan_engine::harvest::{JobType, Outcome, TenantRow};
use web_sys::HtmlInputElement;

const CLASSIFY_FIELDS: [Field<ClassifyForm>; 5] = [
    (
        "k periodic",
        "harvest-k-periodic",
        |f| f.k[0].clone(),
        |f, v| f.k[0] = v,
    ),
    (
        "k constant",
        "harvest-k-constant",
        |f| f.k[1].clone(),
        |f, v| f.k[1] = v,
    ),
    (
        "k unpredictable",
        "harvest-k-unpredictable",
        |f| f.k[2].clone(),
        |f, v| f.k[2] = v,
    ),
    (
        "Peak percentile",
        "harvest-peak",
        |f| f.peak.clone(),
        |f, v| f.peak = v,
    ),
    (
        "Capacity low percentile",
        "harvest-low",
        |f| f.low.clone(),
        |f, v| f.low = v,
    ),
];

const SELECT_FIELDS: [Field<SelectForm>; 4] = [
    (
        "Last run (s, empty: new)",
        "harvest-select-last",
        |f| f.last_run.clone(),
        |f, v| f.last_run = v,
    ),
    (
        "Containers",
        "harvest-select-containers",
        |f| f.containers.clone(),
        |f, v| f.containers = v,
    ),
    (
        "Hour of day",
        "harvest-select-hour",
        |f| f.hour.clone(),
        |f, v| f.hour = v,
    ),
    (
        "Seed",
        "harvest-select-seed",
        |f| f.seed.clone(),
        |f, v| f.seed = v,
    ),
];

const SIM_FIELDS: [Field<SimForm>; 5] = [
    (
        "Days",
        "harvest-sim-days",
        |f| f.days.clone(),
        |f, v| f.days = v,
    ),
    (
        "Levels (%)",
        "harvest-sim-levels",
        |f| f.levels.clone(),
        |f, v| f.levels = v,
    ),
    (
        "Root n (empty: linear)",
        "harvest-sim-root",
        |f| f.root.clone(),
        |f, v| f.root = v,
    ),
    (
        "Runs",
        "harvest-sim-runs",
        |f| f.runs.clone(),
        |f, v| f.runs = v,
    ),
    (
        "Seed",
        "harvest-sim-seed",
        |f| f.seed.clone(),
        |f, v| f.seed = v,
    ),
];

/// Where the tenants come from, the clustering's settings, Classify.
#[component]
pub fn SettingsCard() -> impl IntoView {
    let studio = expect_context::<Studio>();
    let desk = studio.harvest.cycles;
    let files = move || {
        studio.traces.workspace.with(|w| {
            w.summary
                .files
                .iter()
                .filter(|f| f.series > 0)
                .map(|f| f.name.clone())
                .collect::<Vec<_>>()
        })
    };
    let status = desk.classify.status("classifying", "", "idle", |v| {
        format!(
            "{} tenants, {} classes, {} slots of {} s in {} ms",
            count(v.tenants.len()),
            v.classes.len(),
            count(v.slots),
            v.step_secs,
            trimmed(v.millis, 0)
        )
    });
    view! {
        <section class="card">
            <header class="card-head">
                <h2>"Tenants"</h2>
                <JobStatus job=desk.classify testid="harvest-status" text=status/>
            </header>
            <p class="card-text">
                "A tenant is an environment × machine function with its servers; its utilization is their average server per slot. Servers come from the loaded CPU series named tenant/server, or listed in a tenants CSV."
            </p>
            <p class="hint" data-testid="harvest-tenants-file">
                {move || match desk.tenants_file.get() {
                    Some((name, n)) => format!("Tenants file: {name} ({n} tenants)"),
                    None => "No tenants file: each series' tenant is its name before '/'.".to_owned(),
                }}
            </p>
            <div class="actions">
                <label class="button small">
                    "Read tenants CSV…"
                    <input
                        type="file"
                        accept=".csv,text/csv"
                        data-testid="harvest-tenants-input"
                        style="display: none"
                        on:change=move |ev| {
                            let input: HtmlInputElement = event_target(&ev);
                            if let Some(file) = input.files().and_then(|f| f.get(0)) {
                                desk.import_tenants(file);
                            }
                            input.set_value("");
                        }
                    />
                </label>
                <Show when=move || desk.tenants_file.with(Option::is_some)>
                    <button class="button small" on:click=move |_| desk.forget_tenants()>
                        "Forget tenants file"
                    </button>
                </Show>
            </div>
            <label class="field inline">
                <span class="field-label">"Series from"</span>
                <select
                    data-testid="harvest-file"
                    on:change=move |ev| {
                        let v = event_target_value(&ev);
                        desk.form.update(|f| f.file = v);
                    }
                >
                    <option value="">"automatic"</option>
                    {move || {
                        files()
                            .into_iter()
                            .map(|name| {
                                let selected = desk.form.with(|f| f.file == name);
                                view! { <option value=name.clone() selected=selected>{name.clone()}</option> }
                            })
                            .collect_view()
                    }}
                </select>
            </label>
            <div class="form-grid two">
                {CLASSIFY_FIELDS.into_iter().map(|f| text_field(desk.form, f)).collect_view()}
            </div>
            <div class="actions">
                <RunButton
                    job=desk.classify
                    testid="harvest-classify"
                    label="Classify"
                    on_run=move || desk.classify()
                />
            </div>
            <ErrorLine testid="harvest-error" error=desk.classify.error/>
            <p class="hint">
                {move || {
                    desk.classify
                        .view
                        .with(|v| {
                            v.as_ref()
                                .map(|v| {
                                    let k = v
                                        .k
                                        .iter()
                                        .map(|k| {
                                            format!(
                                                "{} {} of {} tenants{}",
                                                k.pattern.name(),
                                                k.k,
                                                k.tenants,
                                                if k.overridden { " (set)" } else { "" }
                                            )
                                        })
                                        .collect::<Vec<_>>()
                                        .join(" · ");
                                    let missing = if v.missing.is_empty() {
                                        String::new()
                                    } else {
                                        format!(
                                            " {} tenant(s) of the file have no series: {}.",
                                            v.missing.len(),
                                            v.missing.join(", ")
                                        )
                                    };
                                    format!("From {}. Classes: {k}.{missing}", v.source)
                                })
                        })
                        .unwrap_or_else(|| "Empty k: the elbow rule chooses (the least k explaining 90 % of the spread).".to_owned())
                }}
            </p>
        </section>
    }
}

/// One column header of the tenants table.
fn sort_header(studio: Studio, label: &'static str, col: SortBy, num: bool) -> impl IntoView {
    let desk = studio.harvest.cycles;
    let arrow = move || match desk.sort.get() {
        (c, true) if c == col => " ▲",
        (c, false) if c == col => " ▼",
        _ => "",
    };
    view! {
        <th
            class:num=num
            class="sortable"
            data-testid="harvest-sort"
            data-col=label
            on:click=move |_| {
                desk.sort.update(|s| *s = if s.0 == col { (col, !s.1) } else { (col, !num) })
            }
        >
            {label}
            {arrow}
        </th>
    }
}

/// The tenants table, sorted and filtered.
#[component]
pub fn TenantsCard() -> impl IntoView {
    let studio = expect_context::<Studio>();
    let desk = studio.harvest.cycles;
    let rows = move || {
        let filter = desk.filter.get().to_lowercase();
        let (col, asc) = desk.sort.get();
        let selected = desk.tenant.get();
        desk.classify.view.with(|v| {
            let Some(v) = v else {
                return Vec::new();
            };
            let mut rows: Vec<&TenantRow> = v
                .tenants
                .iter()
                .filter(|r| {
                    filter.is_empty()
                        || r.name.to_lowercase().contains(&filter)
                        || r.pattern.name().contains(&filter)
                        || r.class.to_lowercase().contains(&filter)
                        || r.environment.to_lowercase().contains(&filter)
                })
                .collect();
            rows.sort_by(|a, b| {
                let o = match col {
                    SortBy::Name => a.name.cmp(&b.name),
                    SortBy::Pattern => a.pattern.name().cmp(b.pattern.name()),
                    SortBy::Class => a.class.cmp(&b.class),
                    SortBy::Average => a.average.total_cmp(&b.average),
                    SortBy::Peak => a.peak.total_cmp(&b.peak),
                    SortBy::Servers => a.servers.cmp(&b.servers),
                };
                if asc {
                    o
                } else {
                    o.reverse()
                }
            });
            rows.into_iter()
                .map(|r| {
                    let name = r.name.clone();
                    let is = selected.as_deref() == Some(r.name.as_str());
                    view! {
                        <tr
                            data-testid="harvest-tenant-row"
                            data-name=r.name.clone()
                            data-pattern=r.pattern.name()
                            data-class=r.class.clone()
                            class:selected=is
                            title=r.reason.clone()
                            on:click=move |_| desk.pick_tenant(name.clone())
                        >
                            <td>{r.name.clone()}</td>
                            <td>{format!("{} / {}", r.environment, r.machine_function)}</td>
                            <td><span class=format!("pattern {}", r.pattern.name())>{r.pattern.name()}</span></td>
                            <td>{r.class.clone()}</td>
                            <td class="num">{trimmed(r.average, 1)}</td>
                            <td class="num">{trimmed(r.peak, 1)}</td>
                            <td class="num">{count(r.servers)}</td>
                        </tr>
                    }
                })
                .collect::<Vec<_>>()
        })
    };
    view! {
        <section class="card">
            <header class="card-head">
                <h2>"Primary tenants"</h2>
                <div class="head-actions">
                    <input
                        type="search"
                        placeholder="Filter: name, pattern, class"
                        data-testid="harvest-filter"
                        prop:value=move || desk.filter.get()
                        on:input=move |ev| desk.filter.set(event_target_value(&ev))
                    />
                </div>
            </header>
            <div class="table-scroll harvest-tenants">
                <table class="data">
                    <thead>
                        <tr>
                            {sort_header(studio, "Tenant", SortBy::Name, false)}
                            <th>"Environment / function"</th>
                            {sort_header(studio, "Pattern", SortBy::Pattern, false)}
                            {sort_header(studio, "Class", SortBy::Class, false)}
                            {sort_header(studio, "Avg %", SortBy::Average, true)}
                            {sort_header(studio, "Peak %", SortBy::Peak, true)}
                            {sort_header(studio, "Servers", SortBy::Servers, true)}
                        </tr>
                    </thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
            <p class="hint">"Click a tenant for its series and spectrum; hover for the verdict's reason."</p>
        </section>
    }
}

/// The chosen tenant: its series, spectrum and the verdict's evidence.
#[component]
pub fn TenantCard() -> impl IntoView {
    let studio = expect_context::<Studio>();
    let desk = studio.harvest.cycles;
    let series = Signal::derive(move || {
        desk.spectrum.get().map(|v| SeriesPlot {
            key: format!("{}:{}", v.ticket, v.spectrum.name),
            spectrum: v.spectrum,
        })
    });
    let spectrum = Signal::derive(move || {
        desk.spectrum.get().map(|v| SpectrumPlot {
            key: format!("{}:{}", v.ticket, v.spectrum.name),
            spectrum: v.spectrum,
        })
    });
    let verdict = move || {
        desk.spectrum.with(|s| {
            s.as_ref().map(|s| {
                let v = &s.spectrum.verdict;
                let top = v
                    .evidence
                    .top
                    .iter()
                    .map(|f| format!("{} cycles {:.0} %", f.cycles, f.share * 100.0))
                    .collect::<Vec<_>>()
                    .join(", ");
                view! {
                    <p class="hint" data-testid="harvest-verdict" data-pattern=v.pattern.name()>
                        <strong>{format!("{}: ", v.pattern.name())}</strong>
                        {v.reason.clone()}
                        {format!(
                            " Mean {:.1} %, σ {:.1}, CV {:.2}; top frequencies: {top}.",
                            v.evidence.mean,
                            v.evidence.std,
                            v.evidence.cv
                        )}
                    </p>
                }
            })
        })
    };
    let empty = Signal::derive(|| "Pick a tenant in the table.".to_owned());
    view! {
        <section class="card">
            <header class="card-head">
                <h2>{move || desk.tenant.get().unwrap_or_else(|| "Tenant".to_owned())}</h2>
            </header>
            <PlotCanvas data=series placeholder=empty testid="harvest-series"/>
            <PlotCanvas data=spectrum placeholder=empty testid="harvest-spectrum"/>
            {verdict}
        </section>
    }
}

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

/// The harvestable capacity per class and hour.
#[component]
pub fn CapacityCard() -> impl IntoView {
    let studio = expect_context::<Studio>();
    let desk = studio.harvest.cycles;
    let plot = Signal::derive(move || {
        let low = desk.show_low.get();
        desk.classify.view.with(|v| {
            v.as_ref()
                .filter(|v| !v.capacity.classes.is_empty())
                .map(|v| CapacityPlot {
                    capacity: v.capacity.clone(),
                    low,
                    key: v.ticket.to_string(),
                })
        })
    });
    view! {
        <section class="card">
            <header class="card-head">
                <h2>"Harvestable capacity"</h2>
                <label class="check">
                    <input
                        type="checkbox"
                        data-testid="harvest-capacity-low"
                        prop:checked=move || desk.show_low.get()
                        on:change=move |ev| desk.show_low.set(event_target_checked(&ev))
                    />
                    " low percentile (else mean)"
                </label>
            </header>
            <PlotCanvas
                data=plot
                placeholder=Signal::derive(|| "The capacity appears after classification.".to_owned())
                testid="harvest-capacity"
            />
            <p class="hint">
                "Per class and hour of day: containers of one core left for batch work on the class's servers after the primary's usage (rounded up to whole cores) and its reserve of 4 cores per server — the mean of the history, or what is there on all but the worst days."
            </p>
        </section>
    }
}

/// Algorithm 1 for one job.
#[component]
pub fn SelectCard() -> impl IntoView {
    let studio = expect_context::<Studio>();
    let desk = studio.harvest.cycles;
    let jobs = move || {
        desk.classify.view.with(|v| {
            v.as_ref()
                .map(|v| v.history_jobs.clone())
                .unwrap_or_default()
        })
    };
    let result = move || {
        desk.selection.with(|s| {
            s.as_ref().map(|s| {
                let kind = match s.job_type {
                    JobType::Short => "short",
                    JobType::Medium => "medium",
                    JobType::Long => "long",
                };
                let outcome = match s.selection.outcome {
                    Outcome::One => "one class fits: picked with probability ∝ weighted headroom",
                    Outcome::Several => "no class fits alone: several drawn until the job fits",
                    Outcome::None => "no combination fits: the job waits",
                };
                let rows = s
                    .selection
                    .options
                    .iter()
                    .map(|o| {
                        let picked = s.selection.picked.contains(&o.id);
                        let pct = o.probability * 100.0;
                        view! {
                            <tr
                                data-testid="harvest-option-row"
                                data-id=o.id.clone()
                                data-probability=o.probability.to_string()
                                class:selected=picked
                            >
                                <td>{o.id.clone()}</td>
                                <td class="num">{trimmed(o.headroom_containers, 0)}</td>
                                <td class="num">{trimmed(o.weight, 0)}</td>
                                <td class="num">
                                    <span class="prob-bar" style=format!("width: {:.0}%", pct.min(100.0))></span>
                                    {format!("{} %", trimmed(pct, 1))}
                                </td>
                            </tr>
                        }
                    })
                    .collect_view();
                view! {
                    <div
                        data-testid="harvest-select-result"
                        data-type=kind
                        data-outcome=format!("{:?}", s.selection.outcome).to_lowercase()
                    >
                        <p class="hint">
                            <strong>{format!("{} — {kind} job, {} containers. ", s.job, s.selection.containers)}</strong>
                            {outcome}
                            {format!(
                                ". Picked: {}. ({} ms)",
                                if s.selection.picked.is_empty() { "none".to_owned() } else { s.selection.picked.join(", ") },
                                trimmed(s.millis, 2)
                            )}
                        </p>
                        <div class="table-scroll">
                            <table class="data">
                                <thead>
                                    <tr>
                                        <th>"Class"</th>
                                        <th class="num">"Headroom"</th>
                                        <th class="num">"W"</th>
                                        <th class="num">"Probability"</th>
                                    </tr>
                                </thead>
                                <tbody>{rows}</tbody>
                            </table>
                        </div>
                    </div>
                }
            })
        })
    };
    view! {
        <section class="card">
            <header class="card-head">
                <h2>"Class selection"</h2>
                <span class="card-note">"Algorithm 1"</span>
            </header>
            <p class="card-text">
                "A job's type from its last run (short < 173 s, long > 433 s, new: medium), its concurrency from its DAG, each class's headroom in containers at that hour, ranked by the type × pattern weights."
            </p>
            <label class="field">
                <span class="field-label">"Job"</span>
                <select
                    data-testid="harvest-select-job"
                    on:change=move |ev| {
                        let v = event_target_value(&ev);
                        desk.select_form.update(|f| f.history_job = v);
                    }
                >
                    <option value="">"described below"</option>
                    {move || {
                        jobs()
                            .into_iter()
                            .map(|j| view! { <option value=j.clone()>{j.clone()}</option> })
                            .collect_view()
                    }}
                </select>
            </label>
            <div class="form-grid two">
                {SELECT_FIELDS.into_iter().map(|f| text_field(desk.select_form, f)).collect_view()}
            </div>
            <div class="actions">
                <button
                    class="button primary"
                    data-testid="harvest-select-run"
                    disabled=move || desk.classify.view.with(Option::is_none)
                    on:click=move |_| desk.select_job()
                >
                    "Select classes"
                </button>
            </div>
            <ErrorLine testid="harvest-select-error" error=desk.select_error/>
            {result}
        </section>
    }
}

/// The §6 simulation.
#[component]
pub fn SimulationCard() -> impl IntoView {
    let studio = expect_context::<Studio>();
    let desk = studio.harvest.cycles;
    let plot = Signal::derive(move || desk.sim.view.get().map(|view| SimPlot { view }));
    let status = desk.sim.status("running in the worker", " runs", "", |s| {
        format!(
            "{} servers, {} days, {} job templates, in {:.1} s",
            count(s.report.servers),
            trimmed(s.report.days, 1),
            s.jobs,
            s.millis / 1000.0
        )
    });
    let rows = move || {
        desk.sim.view.with(|s| {
            s.as_ref()
                .map(|s| {
                    s.report
                        .levels
                        .iter()
                        .map(|l| {
                            view! {
                                <tr
                                    data-testid="harvest-sim-row"
                                    data-level=l.level.to_string()
                                    data-improvement=l.improvement.avg.to_string()
                                >
                                    <td class="num">{trimmed(l.level, 0)}</td>
                                    <td class="num">{l.classes.to_string()}</td>
                                    <td class="num">
                                        {format!("{} / {} / {}", trimmed(l.pt.avg_job_secs.min, 0), trimmed(l.pt.avg_job_secs.avg, 0), trimmed(l.pt.avg_job_secs.max, 0))}
                                    </td>
                                    <td class="num">
                                        {format!("{} / {} / {}", trimmed(l.h.avg_job_secs.min, 0), trimmed(l.h.avg_job_secs.avg, 0), trimmed(l.h.avg_job_secs.max, 0))}
                                    </td>
                                    <td class="num">{format!("{} / {}", trimmed(l.pt.kills.avg, 0), trimmed(l.h.kills.avg, 0))}</td>
                                    <td class="num">{format!("{} / {}", trimmed(l.pt.utilization.avg, 1), trimmed(l.h.utilization.avg, 1))}</td>
                                    <td class="num">{format!("{} %", trimmed(l.improvement.avg, 1))}</td>
                                </tr>
                            }
                        })
                        .collect::<Vec<_>>()
                })
                .unwrap_or_default()
        })
    };
    let paper = move || {
        desk.sim.view.with(|s| {
            s.as_ref().map(|s| {
                let p = &s.report.paper;
                format!(
                    "The paper (Figures 13–14): average improvement {} with linear scaling, {} with the root, up to {}.",
                    p.linear_avg_improvement, p.root_avg_improvement, p.max_improvement
                )
            })
        })
    };
    view! {
        <section class="card sim-card">
            <header class="card-head">
                <h2>"Task scheduling: YARN-PT against YARN-H (§6)"</h2>
                <JobStatus job=desk.sim testid="harvest-sim-status" text=status/>
                <div class="head-actions">
                    <RunButton
                        job=desk.sim
                        testid="harvest-sim-run"
                        label="Run"
                        small=true
                        blocked=Signal::derive(move || desk.classify.view.with(Option::is_none))
                        on_run=move || desk.simulate()
                    />
                </div>
            </header>
            <p class="card-text">
                "Servers of 12 cores with 4 kept for the primary tenant; batch jobs as DAGs of tasks arrive as a Poisson process (mean 300 s); the tenants' utilization is replayed, scaled to each target average. YARN-PT kills the youngest containers when the reserve is violated (killed tasks rerun); YARN-H also places each job by class selection."
            </p>
            <div class="sim-form">
                {SIM_FIELDS.into_iter().map(|f| text_field(desk.sim_form, f)).collect_view()}
                <label class="field">
                    <span class="field-label">"Jobs"</span>
                    <select
                        data-testid="harvest-sim-source"
                        on:change=move |ev| {
                            let source = if event_target_value(&ev) == "history" {
                                JobSource::History
                            } else {
                                JobSource::Tpcds
                            };
                            desk.sim_form.update(|f| f.source = source);
                        }
                    >
                        <option value="tpcds">"TPC-DS-like DAGs"</option>
                        <option value="history">"the loaded job history"</option>
                    </select>
                </label>
            </div>
            <ErrorLine testid="harvest-sim-error" error=desk.sim.error/>
            <PlotCanvas
                data=plot
                placeholder=Signal::derive(|| "Press Run: the levels, a few seeded runs each, in the worker.".to_owned())
                testid="harvest-sim"
            />
            <div class="table-scroll">
                <table class="data">
                    <thead>
                        <tr>
                            <th class="num">"Avg util. %"</th>
                            <th class="num">"Classes"</th>
                            <th class="num">"YARN-PT job s min / avg / max"</th>
                            <th class="num">"YARN-H job s min / avg / max"</th>
                            <th class="num">"Kills PT / H"</th>
                            <th class="num">"Cluster util. % PT / H"</th>
                            <th class="num">"Improvement"</th>
                        </tr>
                    </thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
            <p class="hint">{paper}</p>
        </section>
    }
}
