//! The Harvest panel's storage view (§3's reimages, §4.2, §6): the reimages
//! file, the n × n grid of reimage frequency × peak CPU drawn cell by cell
//! with its tenants, room and the fill run's use; the reimage CDFs
//! (Figures 4–6); the placement explorer (one block from a chosen writer,
//! every cell's and the drawn cell's tenants' verdicts); and Figure 15's
//! durability bars and Figure 16's availability curves, run in the worker
//! with progress.
//!
//! Test ids: `storage-card`, `storage-reimages-file`,
//! `storage-reimages-input`, `storage-status` (`data-running`),
//! `storage-error`, `storage-grid`, `storage-cell` (`data-row`,
//! `data-col`, `data-tenants`, `data-space`, `data-used`),
//! `storage-balance`, `storage-cdfs` (canvas), `storage-writer-tenant`,
//! `storage-writer-server`, `storage-policy`, `storage-place`,
//! `storage-replica` (`data-replica`, `data-cell`, `data-tenant`,
//! `data-relaxed`),
//! `storage-cell-verdict` (`data-cell`, `data-verdict`),
//! `storage-place-error`, `storage-durability-run`,
//! `storage-durability-status` (`data-running`), `storage-durability`
//! (canvas), `storage-durability-row` (`data-policy`, `data-r`,
//! `data-lost`), `storage-availability-run`, `storage-availability-status`
//! (`data-running`), `storage-availability` (canvas),
//! `storage-availability-row` (`data-level`, `data-r`, `data-h`,
//! `data-stock`), `storage-sim-error`.

use super::charts::{AvailabilityPlot, DurabilityPlot, ReimageCdfPlot};
use super::desk::StorageForm;
use super::protocol::{AvailabilityView, DurabilityView};
use crate::fields;
use crate::state::Studio;
use crate::toolkit::job::Job;
use crate::toolkit::run::{ErrorLine, JobCard, JobStatus, SmallRun};
use crate::widgets::button::button;
use crate::widgets::chart::Plot;
use crate::widgets::field::{line_field, text_field, whole_text, Field};
use crate::widgets::figure::ChartTable;
use crate::widgets::file_source::FileSource;
use crate::widgets::format::{count, trimmed};
use crate::widgets::table::{col, num, Col};
use crate::widgets::PlotCanvas;
use leptos::prelude::*;
use skyplan_engine::harvest::{CellVerdict, Policy, TenantVerdict};

const FIELDS: [Field<StorageForm>; 7] = fields![StorageForm:
    ("Grid n", "storage-grid-n", grid),
    ("Replicas R", "storage-replication", replication),
    ("Blocks (fill, durability)", "storage-blocks", blocks),
    ("Runs", "storage-runs", runs),
    ("Blocks (availability)", "storage-availability-blocks", availability_blocks),
    ("Levels (%)", "storage-levels", levels),
    ("Seed", "storage-seed", seed),
];

fn cell_verdict(v: CellVerdict) -> &'static str {
    match v {
        CellVerdict::Candidate => "candidate",
        CellVerdict::RowUsed => "row used",
        CellVerdict::ColumnUsed => "column used",
        CellVerdict::Full => "full",
        CellVerdict::NoEligibleTenant => "no eligible tenant",
    }
}

fn tenant_verdict(v: TenantVerdict) -> &'static str {
    match v {
        TenantVerdict::Eligible => "eligible",
        TenantVerdict::EnvironmentUsed => "environment used",
        TenantVerdict::Full => "full",
        TenantVerdict::Busy => "busy",
    }
}

/// The storage view.
#[component]
pub fn StorageCard() -> impl IntoView {
    let desk = expect_context::<Studio>().harvest.storage;
    let status = desk.grid.status("placing", "", "idle", |v| {
        format!(
            "{} tenants, {} × {} grid, {} blocks placed in {} ms",
            v.tenants.len(),
            v.grid.n,
            v.grid.n,
            count(v.fill.blocks as usize),
            trimmed(v.millis, 0)
        )
    });
    let cdfs = Signal::derive(move || desk.grid.view.get().map(|view| ReimageCdfPlot { view }));
    view! {
        <JobCard
            title="Harvested storage: replica placement (§4.2)"
            class="storage-card"
            testid="storage-card"
            text="Tenants split into a grid: rows by disk reimages per server per month (infrequent → frequent), columns by peak CPU (low → high), each cell with the same room as far as whole tenants allow. Algorithm 2 puts a block's first replica on the writer's server, then each next one in a random cell of an unused row and column, a random tenant of an unused environment, a random server with room; rows and columns are forgotten after every n."
            job=desk.grid
            status_testid="storage-status"
            status=status
        >
            <FileSource
                hint_testid="storage-reimages-file"
                hint=Signal::derive(move || match desk.reimages_file.get() {
                    Some((name, n)) => format!("Reimages file: {name} ({} server reimages)", count(n as usize)),
                    None => "No reimages file: read one (timestamp,server or timestamp,tenant,servers).".to_owned(),
                })
                label="Read reimages CSV…"
                testid="storage-reimages-input"
                accept=".csv,text/csv"
                on_file=move |f| desk.import_reimages(f)
            >
                <button class="button small" data-testid="storage-refresh" on:click=move |_| desk.refresh()>
                    "Place again"
                </button>
            </FileSource>
            <div class="form-grid four">
                {FIELDS.into_iter().map(|f| text_field(desk.form, f)).collect_view()}
            </div>
            <ErrorLine testid="storage-error" error=desk.grid.error/>
            <GridView/>
            <PlotCanvas
                data=cdfs
                placeholder=Signal::derive(|| "The reimage CDFs appear with the grid.".to_owned())
                testid="storage-cdfs"
            />
            <Explorer/>
            <Durability/>
            <Availability/>
        </JobCard>
    }
}

/// The grid, cell by cell.
#[component]
fn GridView() -> impl IntoView {
    let desk = expect_context::<Studio>().harvest.storage;
    let cells = move || {
        desk.grid.view.with(|v| {
            let Some(v) = v else {
                return Vec::new();
            };
            let n = v.grid.n;
            v.grid
                .cells
                .iter()
                .enumerate()
                .map(|(i, c)| {
                    let used = v.fill.cell_replicas.get(i).copied().unwrap_or(0);
                    let names = c
                        .tenants
                        .iter()
                        .map(|&t| v.tenants[t as usize].name.clone())
                        .collect::<Vec<_>>();
                    let fill = 100.0 * v.fill.cell_fill.get(i).copied().unwrap_or(0.0);
                    view! {
                        <div
                            class="storage-cell"
                            data-testid="storage-cell"
                            data-row=c.row.to_string()
                            data-col=c.col.to_string()
                            data-tenants=c.tenants.len().to_string()
                            data-space=c.space.to_string()
                            data-used=used.to_string()
                            style=format!("grid-row: {}; grid-column: {};", n - c.row, c.col + 1)
                        >
                            <div class="cell-head">
                                {format!("r{} c{} · {} tenants · {:.2}× ideal", c.row, c.col, c.tenants.len(), c.balance)}
                            </div>
                            <div class="cell-bar">
                                <div class="cell-used" style=format!("width: {:.1}%", fill.min(100.0))></div>
                            </div>
                            <div class="cell-note">
                                {format!(
                                    "room {} replicas, used {} ({:.1} %) · reimages {:.2}–{:.2} · peak {:.0}–{:.0} %",
                                    count(c.space as usize),
                                    count(used as usize),
                                    fill,
                                    c.reimage_range[0],
                                    c.reimage_range[1],
                                    c.peak_range[0],
                                    c.peak_range[1]
                                )}
                            </div>
                            <div class="cell-tenants">{names.join(", ")}</div>
                        </div>
                    }
                })
                .collect::<Vec<_>>()
        })
    };
    let balance = move || {
        desk.grid.view.with(|v| {
            v.as_ref().map(|v| {
                let d = &v.fill.diversity;
                format!(
                    "Imbalance {:.0} % (largest |room − ideal| / ideal). Fill run: {} blocks × {}, {} relaxed the row/column rule (too few tenants in a cell's environments), {} with two replicas in one environment, {} servers over their room; {} tenants and {} environments keep room{}. {:.1} % of servers reimaged at most once a month over {} months (the paper: ≥ 90 %).",
                    100.0 * v.grid.imbalance,
                    count(v.fill.blocks as usize),
                    v.fill.replication,
                    count(v.fill.relaxed as usize),
                    d.environment_repeats,
                    d.over_room_servers,
                    v.fill.open_tenants,
                    v.fill.open_environments,
                    match v.fill.diversity_short_at {
                        Some(b) => format!(" (fewer than R environments from block {b} on)"),
                        None => String::new(),
                    },
                    100.0 * v.servers_at_most_monthly,
                    v.months
                )
            })
        })
    };
    let n = move || desk.grid.view.with(|v| v.as_ref().map_or(3, |v| v.grid.n));
    view! {
        <div class="storage-axes">
            <span class="hint">"↑ reimages: frequent (top) → infrequent (bottom); → peak CPU: low → high"</span>
        </div>
        <div
            class="storage-grid"
            data-testid="storage-grid"
            style=move || format!("display: grid; grid-template-columns: repeat({}, 1fr); gap: 6px;", n())
        >
            {cells}
        </div>
        <p class="hint" data-testid="storage-balance">{balance}</p>
    }
}

/// One block placed from a chosen writer, explained.
#[component]
fn Explorer() -> impl IntoView {
    let desk = expect_context::<Studio>().harvest.storage;
    let tenants = move || {
        desk.grid.view.with(|v| {
            v.as_ref()
                .map(|v| {
                    v.tenants
                        .iter()
                        .filter(|t| t.cell.is_some())
                        .map(|t| (t.name.clone(), t.servers))
                        .collect::<Vec<_>>()
                })
                .unwrap_or_default()
        })
    };
    let steps = move || {
        desk.placed.with(|p| {
            let Some(p) = p else {
                return Vec::new();
            };
            let n = desk.grid.view.with(|v| v.as_ref().map_or(3, |v| v.grid.n));
            let cell_name = move |c: usize| format!("r{}c{}", c / n, c % n);
            p.trace
                .steps
                .iter()
                .map(|s| {
                    let cells = s
                        .cells
                        .iter()
                        .map(|c| {
                            view! {
                                <span
                                    class="verdict"
                                    data-testid="storage-cell-verdict"
                                    data-cell=c.cell.to_string()
                                    data-verdict=cell_verdict(c.verdict)
                                >
                                    {format!("{}: {}", cell_name(c.cell), cell_verdict(c.verdict))}
                                </span>
                            }
                        })
                        .collect_view();
                    let tenants = s
                        .tenants
                        .iter()
                        .map(|t| format!("{} ({})", t.tenant, tenant_verdict(t.verdict)))
                        .collect::<Vec<_>>()
                        .join(", ");
                    view! {
                        <li
                            data-testid="storage-replica"
                            data-replica=s.replica.to_string()
                            data-cell=s.cell.map_or(String::new(), |c| c.to_string())
                            data-tenant=s.tenant.clone()
                            data-relaxed=s.relaxed.to_string()
                        >
                            <strong>{format!("Replica {}: {}", s.replica, s.server_name)}</strong>
                            {format!(
                                " — tenant {}, cell {}, rack {}: {}{}{}",
                                s.tenant,
                                s.cell.map_or("none".into(), cell_name),
                                s.rack,
                                s.rule,
                                if s.relaxed { " (relaxed)" } else { "" },
                                if s.forgot { "; rows and columns forgotten" } else { "" }
                            )}
                            <div class="verdicts">{cells}</div>
                            {(!tenants.is_empty()).then(|| view! { <div class="hint">{format!("Tenants of the drawn cell: {tenants}")}</div> })}
                        </li>
                    }
                })
                .collect::<Vec<_>>()
        })
    };
    view! {
        <h3>"Place a block"</h3>
        <div class="sim-form">
            <label class="field">
                <span class="field-label">"Writer's tenant"</span>
                <select
                    data-testid="storage-writer-tenant"
                    on:change=move |ev| desk.writer_tenant.set(event_target_value(&ev))
                >
                    {move || {
                        tenants()
                            .into_iter()
                            .map(|(name, servers)| {
                                let selected = desk.writer_tenant.with(|w| w == &name);
                                view! {
                                    <option value=name.clone() selected=selected>
                                        {format!("{name} ({servers} servers)")}
                                    </option>
                                }
                            })
                            .collect_view()
                    }}
                </select>
            </label>
            {line_field(desk.writer_server, whole_text("Server #", "storage-writer-server"))}
            <label class="field">
                <span class="field-label">"Policy"</span>
                <select
                    data-testid="storage-policy"
                    on:change=move |ev| {
                        let p = match event_target_value(&ev).as_str() {
                            "stock" => Policy::Stock,
                            "pt" => Policy::StockPt,
                            _ => Policy::HdfsH,
                        };
                        desk.policy.set(p);
                    }
                >
                    <option value="h">"HDFS-H (Algorithm 2)"</option>
                    <option value="stock">"HDFS-Stock"</option>
                    <option value="pt">"HDFS-PT"</option>
                </select>
            </label>
            {button(
                "button small primary",
                "storage-place",
                "Place",
                move || desk.grid.view.with(Option::is_none),
                move || desk.place(),
            )}
        </div>
        <ErrorLine testid="storage-place-error" error=desk.place_error/>
        <ol class="storage-steps">{steps}</ol>
    }
}

/// Figure 15.
#[component]
fn Durability() -> impl IntoView {
    let desk = expect_context::<Studio>().harvest.storage;
    view! { <SimRun job=desk.durability on_run=move || desk.run_durability()/> }
}

impl StorageSim for DurabilityView {
    type Chart = DurabilityPlot;
    const TITLE: &'static str = "Durability: a year of reimages (Figure 15)";
    const TESTID: &'static str = "storage-durability";
    const PLACEHOLDER: &'static str = "Press Run: blocks written at the start, a year of reimages generated from each tenant's rates, lost replicas re-created at 30 blocks per hour per source server; R = 3 and 4, HDFS-H against stock.";

    fn columns() -> Vec<Col> {
        vec![
            col("Policy"),
            num("R"),
            num("Lost % min / avg / max"),
            num("Lost blocks (avg)"),
        ]
    }

    fn chart(&self) -> DurabilityPlot {
        DurabilityPlot { view: self.clone() }
    }

    fn status(&self) -> String {
        durability_status(self)
    }

    fn rows(&self) -> Vec<AnyView> {
        durability_rows(self)
    }

    fn paper(&self) -> String {
        self.report.paper.summary.clone()
    }
}

/// What Figure 15's run measured, in a line.
fn durability_status(v: &DurabilityView) -> String {
    format!(
        "{} servers, {} blocks, {:.0} days, {} runs in {:.1} s",
        count(v.report.servers),
        count(v.report.blocks),
        v.report.days,
        v.report.results.first().map_or(0, |r| r.runs.len()),
        v.millis / 1000.0
    )
}

/// Figure 15's table: lost blocks per policy and replication.
fn durability_rows(v: &DurabilityView) -> Vec<AnyView> {
    v.report
        .results
        .iter()
        .map(|r| {
            view! {
                <tr
                    data-testid="storage-durability-row"
                    data-policy=r.policy.name()
                    data-r=r.replication.to_string()
                    data-lost=r.lost_percent.avg.to_string()
                >
                    <td>{r.policy.name()}</td>
                    <td class="num">{r.replication.to_string()}</td>
                    <td class="num">
                        {format!("{:.5} / {:.5} / {:.5}", r.lost_percent.min, r.lost_percent.avg, r.lost_percent.max)}
                    </td>
                    <td class="num">{trimmed(r.lost_blocks.avg, 1)}</td>
                </tr>
            }
            .into_any()
        })
        .collect()
}

/// Figure 16.
#[component]
fn Availability() -> impl IntoView {
    let desk = expect_context::<Studio>().harvest.storage;
    view! { <SimRun job=desk.availability on_run=move || desk.run_availability()/> }
}

impl StorageSim for AvailabilityView {
    type Chart = AvailabilityPlot;
    const TITLE: &'static str = "Availability against utilization (Figure 16)";
    const TESTID: &'static str = "storage-availability";
    const PLACEHOLDER: &'static str = "Press Run: the primaries scaled to each level (linear), a server busy above 66 % CPU, an access failing when every replica is busy.";

    fn columns() -> Vec<Col> {
        vec![
            num("Level %"),
            num("Avg util. %"),
            num("R"),
            num("Stock failed %"),
            num("PT failed %"),
            num("H failed %"),
        ]
    }

    fn chart(&self) -> AvailabilityPlot {
        AvailabilityPlot { view: self.clone() }
    }

    fn status(&self) -> String {
        availability_status(self)
    }

    fn rows(&self) -> Vec<AnyView> {
        availability_rows(self)
    }

    fn paper(&self) -> String {
        self.report.paper.clone()
    }
}

/// What Figure 16's run measured, in a line.
fn availability_status(v: &AvailabilityView) -> String {
    format!(
        "{} servers, {} blocks, {} slots, in {:.1} s",
        count(v.report.servers),
        count(v.report.blocks),
        count(v.report.slots),
        v.millis / 1000.0
    )
}

/// Figure 16's table: failed accesses per level, replication and policy.
fn availability_rows(v: &AvailabilityView) -> Vec<AnyView> {
    v.report
        .levels
        .iter()
        .flat_map(|l| {
            l.points.chunks(3).map(move |pts| {
                let get = |p: Policy| {
                    pts.iter()
                        .find(|x| x.policy == p)
                        .map_or(f64::NAN, |x| x.failed_percent.avg)
                };
                let r = pts.first().map_or(0, |p| p.replication);
                view! {
                    <tr
                        data-testid="storage-availability-row"
                        data-level=l.level.to_string()
                        data-r=r.to_string()
                        data-h=get(Policy::HdfsH).to_string()
                        data-stock=get(Policy::Stock).to_string()
                    >
                        <td class="num">{trimmed(l.level, 0)}</td>
                        <td class="num">{trimmed(l.utilization, 1)}</td>
                        <td class="num">{r.to_string()}</td>
                        <td class="num">{format!("{:.3}", get(Policy::Stock))}</td>
                        <td class="num">{format!("{:.3}", get(Policy::StockPt))}</td>
                        <td class="num">{format!("{:.3}", get(Policy::HdfsH))}</td>
                    </tr>
                }
                .into_any()
            })
        })
        .collect()
}

/// One of the storage half's simulations as its section shows it: its
/// title, test ids and placeholder, and what is drawn from a result.
trait StorageSim: Send + Sync + Sized + 'static {
    /// The chart of a result.
    type Chart: Plot;
    /// The section's title.
    const TITLE: &'static str;
    /// The prefix of its test ids: `-run`, `-status`, and its canvas's.
    const TESTID: &'static str;
    /// What the chart says before a run.
    const PLACEHOLDER: &'static str;
    /// The table's columns.
    fn columns() -> Vec<Col>;
    /// The chart of this result.
    fn chart(&self) -> Self::Chart;
    /// What this result measured, in a line.
    fn status(&self) -> String;
    /// The table's rows.
    fn rows(&self) -> Vec<AnyView>;
    /// What the paper found.
    fn paper(&self) -> String;
}

/// One of the storage half's simulations: Run with its status, the error
/// line, its chart, its table and what the paper found — each drawn from
/// the last result as [`StorageSim`] says.
#[component]
fn SimRun<T: StorageSim>(
    /// The simulation.
    job: Job<T>,
    /// What Run does.
    #[prop(into)]
    on_run: Callback<()>,
) -> impl IntoView {
    let desk = expect_context::<Studio>().harvest.storage;
    let testid = T::TESTID;
    let chart = Signal::derive(move || job.view.with(|v| v.as_ref().map(T::chart)));
    view! {
        <h3>{T::TITLE}</h3>
        <div class="actions">
            <SmallRun
                job=job
                testid=testid
                on_run=on_run
                blocked=Some(Signal::derive(move || desk.grid.view.with(Option::is_none)))
            />
            <JobStatus job=job testid=format!("{testid}-status") text=job.status("running in the worker", "", "", T::status)/>
        </div>
        <ErrorLine testid="storage-sim-error" error=job.error/>
        <ChartTable data=chart placeholder=T::PLACEHOLDER testid=testid cols=T::columns()>
            {move || job.view.with(|v| v.as_ref().map(T::rows).unwrap_or_default())}
        </ChartTable>
        <p class="hint">{move || job.view.with(|v| v.as_ref().map(T::paper))}</p>
    }
}
