//! The storage half of `skyplan harvest` (§3's reimages, §4.2, §6's
//! Figures 15–16): `reimages` (Figures 4–6), `place` (Algorithm 2 or stock
//! HDFS for N blocks, or one block explained), `simulate-durability` and
//! `simulate-availability`. `harvest_cmd` parses the flags and loads the
//! tenants; this file runs the engine and prints.

use crate::common::{json, Failure};
use skyplan_engine::harvest::{
    build_grid, place_blocks, read_reimages_csv, reimage_stats, simulate_availability,
    simulate_durability, storage_tenants, AvailabilityParams, Cluster, DurabilityParams, Grid,
    PlacementParams, Placer, Policy, ReimageHistory, ReimageSource, ReimageStats, StorageTenant,
    TenantInfo, TenantSet,
};
use std::fmt::Write as _;

/// The storage flags `harvest_cmd` hands over (without `--`).
pub const FLAGS: [&str; 16] = [
    "reimages",
    "blocks",
    "replication",
    "replications",
    "grid",
    "block-mb",
    "rack-size",
    "policy",
    "writer",
    "span-days",
    "recreate-per-hour",
    "threads",
    "replay",
    "availability-blocks",
    "util-levels",
    "reserve-threshold",
];

/// Storage flags.
#[derive(Default)]
pub struct StorageArgs {
    /// --reimages.
    pub reimages: Option<String>,
    /// --blocks.
    pub blocks: Option<usize>,
    /// --replication.
    pub replication: Option<usize>,
    /// --replications.
    pub replications: Option<Vec<usize>>,
    /// --grid, --block-mb, --rack-size, --seed.
    pub placement: PlacementParams,
    /// --policy.
    pub policy: Option<Policy>,
    /// --writer.
    pub writer: Option<String>,
    /// --span-days.
    pub span_days: Option<f64>,
    /// --recreate-per-hour.
    pub recreate: Option<f64>,
    /// --threads.
    pub threads: Option<usize>,
    /// --replay.
    pub replay: bool,
    /// --availability-blocks.
    pub availability_blocks: Option<usize>,
    /// --util-levels.
    pub levels: Option<Vec<f64>>,
    /// --reserve-threshold.
    pub reserve: Option<f64>,
}

fn num<T: std::str::FromStr>(flag: &str, v: &str) -> Result<T, Failure> {
    v.trim()
        .parse::<T>()
        .map_err(|_| Failure::usage(format!("{flag}: `{v}` is not valid")))
}

fn list<T: std::str::FromStr>(flag: &str, v: &str) -> Result<Vec<T>, Failure> {
    v.split(',').map(|x| num(flag, x)).collect()
}

impl StorageArgs {
    /// Takes `flag` with its value `v` if it is a storage flag (`v` is
    /// read only then); false otherwise.
    pub fn take(
        &mut self,
        flag: &str,
        v: &mut dyn FnMut() -> Result<String, Failure>,
    ) -> Result<bool, Failure> {
        match flag {
            "reimages" => self.reimages = Some(v()?),
            "blocks" => self.blocks = Some(num("--blocks", &v()?)?),
            "replication" => self.replication = Some(num("--replication", &v()?)?),
            "replications" => self.replications = Some(list("--replications", &v()?)?),
            "grid" => self.placement.grid = num("--grid", &v()?)?,
            "block-mb" => self.placement.block_mb = num("--block-mb", &v()?)?,
            "rack-size" => self.placement.rack_size = num("--rack-size", &v()?)?,
            "policy" => {
                self.policy = Some(match v()?.as_str() {
                    "hdfs-h" | "h" => Policy::HdfsH,
                    "stock" => Policy::Stock,
                    "pt" | "hdfs-pt" => Policy::StockPt,
                    o => {
                        return Err(Failure::usage(format!(
                            "--policy: `{o}` is not hdfs-h, stock or pt"
                        )))
                    }
                })
            }
            "writer" => self.writer = Some(v()?),
            "span-days" => self.span_days = Some(num("--span-days", &v()?)?),
            "recreate-per-hour" => self.recreate = Some(num("--recreate-per-hour", &v()?)?),
            "threads" => self.threads = Some(num("--threads", &v()?)?),
            "replay" => self.replay = true,
            "availability-blocks" => {
                self.availability_blocks = Some(num("--availability-blocks", &v()?)?)
            }
            "util-levels" => self.levels = Some(list("--util-levels", &v()?)?),
            "reserve-threshold" => self.reserve = Some(num("--reserve-threshold", &v()?)?),
            _ => return Ok(false),
        }
        Ok(true)
    }
}

fn input<T>(r: Result<T, skyplan_engine::harvest::HarvestError>) -> Result<T, Failure> {
    r.map_err(Failure::refused)
}

/// The history of `--reimages`, read against `infos`.
fn history(a: &StorageArgs, infos: &[TenantInfo]) -> Result<ReimageHistory, Failure> {
    let path = a
        .reimages
        .as_ref()
        .ok_or_else(|| Failure::usage("this subcommand needs --reimages FILE"))?;
    let text = std::fs::read_to_string(path).map_err(|e| Failure::input(format!("{path}: {e}")))?;
    input(read_reimages_csv(path, &text, infos))
}

/// Everything a storage subcommand starts from.
struct Loaded {
    stats: ReimageStats,
    history: ReimageHistory,
    tenants: Vec<StorageTenant>,
}

fn load(
    a: &StorageArgs,
    infos: &[TenantInfo],
    set: &TenantSet,
    seed: u64,
    peak_percentile: f64,
) -> Result<Loaded, Failure> {
    let history = history(a, infos)?;
    let stats = input(reimage_stats(&history, seed))?;
    let tenants = input(storage_tenants(infos, &stats, set, peak_percentile))?;
    Ok(Loaded {
        stats,
        history,
        tenants,
    })
}

/// Runs a storage subcommand; `None` when `sub` is not one.
#[allow(clippy::too_many_arguments)]
pub fn run(
    sub: &str,
    a: &StorageArgs,
    infos: Option<&[TenantInfo]>,
    set: &TenantSet,
    seed: u64,
    runs: usize,
    scaling: skyplan_engine::harvest::Scaling,
    peak_percentile: f64,
    as_json: bool,
) -> Result<(), Failure> {
    let infos =
        infos.ok_or_else(|| Failure::usage(format!("harvest {sub} needs --tenants FILE")))?;
    let l = load(a, infos, set, seed, peak_percentile)?;
    let mut placement = a.placement.clone();
    placement.seed = seed;
    let out = match sub {
        "reimages" => {
            if as_json {
                json(&l.stats)
            } else {
                reimages_text(&l.stats)
            }
        }
        "place" => place(a, &l, placement, as_json)?,
        "simulate-durability" => {
            let mut p = DurabilityParams {
                runs,
                placement,
                ..DurabilityParams::default()
            };
            if let Some(b) = a.blocks {
                p.blocks = b;
            }
            if let Some(r) = &a.replications {
                p.replications = r.clone();
            }
            if let Some(d) = a.span_days {
                p.days = d;
            }
            if let Some(x) = a.recreate {
                p.recreate_per_hour = x;
            }
            if let Some(x) = a.threads {
                p.threads = x;
            }
            if a.replay {
                p.source = ReimageSource::Replay;
            }
            let t0 = std::time::Instant::now();
            let r = input(simulate_durability(
                &l.tenants,
                &l.history,
                &p,
                &mut |_, _| {},
            ))?;
            let secs = t0.elapsed().as_secs_f64();
            if as_json {
                json(&r)
            } else {
                let mut t = format!(
                    "{} servers, {} tenants, {} blocks, {:.0} days of {} reimages, {} runs, {:.1} s\n\
                     {:<11} {:>2} {:>26} {:>14}\n",
                    r.servers,
                    r.tenants,
                    r.blocks,
                    r.days,
                    if a.replay { "replayed" } else { "generated" },
                    p.runs,
                    secs,
                    "policy",
                    "R",
                    "lost % avg (min–max)",
                    "lost blocks"
                );
                for x in &r.results {
                    let _ = writeln!(
                        t,
                        "{:<11} {:>2} {:>10.5} ({:.5}–{:.5}) {:>14.1}",
                        x.policy.name(),
                        x.replication,
                        x.lost_percent.avg,
                        x.lost_percent.min,
                        x.lost_percent.max,
                        x.lost_blocks.avg
                    );
                }
                for red in &r.reduction {
                    let _ = writeln!(t, "R = {}: {}", red.replication, red.verdict());
                }
                let _ = writeln!(t, "paper: {}", r.paper.summary);
                t
            }
        }
        "simulate-availability" => {
            let mut p = AvailabilityParams {
                runs,
                scaling,
                placement,
                ..AvailabilityParams::default()
            };
            if let Some(b) = a.availability_blocks {
                p.blocks = b;
            }
            if let Some(r) = &a.replications {
                p.replications = r.clone();
            }
            if let Some(l) = &a.levels {
                p.levels = l.clone();
            }
            if let Some(x) = a.reserve {
                p.reserve_threshold = x;
            }
            let r = input(simulate_availability(&l.tenants, set, &p, &mut |_, _| {}))?;
            if as_json {
                json(&r)
            } else {
                let mut t = format!(
                    "{} servers, {} blocks, {} slots of {} s, busy above {}% CPU, {} runs\n\
                     {:>6} {:>6} {:>6} {:>2} {:>12} {:>12} {:>12}\n",
                    r.servers,
                    r.blocks,
                    r.slots,
                    r.step_secs,
                    p.reserve_threshold,
                    p.runs,
                    "level",
                    "util%",
                    "busy%",
                    "R",
                    "Stock fail%",
                    "PT fail%",
                    "H fail%"
                );
                for lv in &r.levels {
                    for row in lv.rows() {
                        let _ = writeln!(
                            t,
                            "{:>5.0}% {:>6.1} {:>6.1} {:>2} {:>12.4} {:>12.4} {:>12.4}",
                            lv.level,
                            lv.utilization,
                            lv.busy_percent,
                            row.replication,
                            row.stock,
                            row.pt,
                            row.h
                        );
                    }
                }
                let _ = writeln!(t, "paper: {}", r.paper);
                t
            }
        }
        other => {
            return Err(Failure::usage(format!(
                "unknown storage subcommand `{other}`"
            )))
        }
    };
    crate::common::emit(&out);
    Ok(())
}

fn place(
    a: &StorageArgs,
    l: &Loaded,
    mut p: PlacementParams,
    as_json: bool,
) -> Result<String, Failure> {
    if let Some(r) = a.replication {
        p.replication = r;
    }
    let cluster = input(Cluster::new(&l.tenants, &p))?;
    let grid = build_grid(&cluster, p.grid);
    let policy = a.policy.unwrap_or(Policy::HdfsH);
    if let Some(w) = &a.writer {
        let s = (0..cluster.servers() as u32)
            .find(|&s| &cluster.layout.name(s) == w)
            .ok_or_else(|| Failure::input(format!("--writer: unknown server `{w}`")))?;
        let mut placer = Placer::new(&cluster, &grid);
        let mut rng = skyplan_engine::numerics::Rng::new(p.seed);
        let trace = input(placer.place_traced(policy, 0, s, &[], &mut rng, p.replication))?;
        return Ok(if as_json {
            json(&serde_json::json!({"grid": grid, "trace": trace}))
        } else {
            let mut t = grid_text(&cluster, &grid);
            for step in &trace.steps {
                let _ = writeln!(
                    t,
                    "\nreplica {}: {} (tenant {}, cell {}, rack {}) — {}{}",
                    step.replica,
                    step.server_name,
                    step.tenant,
                    step.cell
                        .map_or("none".into(), |c| format!("r{}c{}", c / grid.n, c % grid.n)),
                    step.rack,
                    step.rule,
                    if step.forgot {
                        "; rows and columns forgotten"
                    } else {
                        ""
                    }
                );
                for c in &step.cells {
                    let _ = writeln!(
                        t,
                        "  cell r{}c{}: {:?}",
                        c.cell / grid.n,
                        c.cell % grid.n,
                        c.verdict
                    );
                }
                for x in &step.tenants {
                    let _ = writeln!(t, "  tenant {}: {:?}", x.tenant, x.verdict);
                }
            }
            t
        });
    }
    let blocks = a.blocks.unwrap_or(DurabilityParams::default().blocks);
    let t0 = std::time::Instant::now();
    let (_, rep) = input(place_blocks(
        &cluster,
        &grid,
        policy,
        blocks,
        p.replication,
        p.seed,
    ))?;
    let us = t0.elapsed().as_secs_f64() * 1e6 / blocks.max(1) as f64;
    Ok(if as_json {
        json(&serde_json::json!({"grid": grid, "report": rep, "us_per_block": us}))
    } else {
        let mut t = grid_text(&cluster, &grid);
        let _ = writeln!(
            t,
            "\n{} placed {} blocks × {} on {} servers in {:.3} µs per block (checks included)\n\
             room used {:.1} %, fullest server {:.1} %; {} blocks relaxed the row/column rule",
            rep.policy.name(),
            rep.blocks,
            rep.replication,
            rep.servers,
            us,
            100.0 * rep.used_share,
            100.0 * rep.max_server_fill,
            rep.relaxed
        );
        let d = &rep.diversity;
        let _ = writeln!(
            t,
            "diversity: {} blocks with two replicas in one environment, {} in one tenant, \
             {} in one row or column within a round; {} servers over their room",
            d.environment_repeats, d.tenant_repeats, d.row_column_repeats, d.over_room_servers
        );
        let _ = writeln!(
            t,
            "space vs diversity: {} tenants and {} environments still have room{}",
            rep.open_tenants,
            rep.open_environments,
            match rep.diversity_short_at {
                Some(b) => format!(" (fewer than R environments from block {b} on)"),
                None => String::new(),
            }
        );
        let _ = writeln!(t, "replicas per cell (fill of its room):");
        for (i, (n, f)) in rep.cell_replicas.iter().zip(&rep.cell_fill).enumerate() {
            let _ = writeln!(
                t,
                "  r{}c{}: {n} ({:.1} %)",
                i / grid.n,
                i % grid.n,
                100.0 * f
            );
        }
        t
    })
}

fn grid_text(cluster: &Cluster, g: &Grid) -> String {
    let mut t = format!(
        "{} × {} grid (rows: reimages infrequent → frequent; columns: peak CPU low → high), \
         ideal room {:.0} replicas per cell, imbalance {:.1} %\n",
        g.n,
        g.n,
        g.ideal,
        100.0 * g.imbalance
    );
    for c in &g.cells {
        let _ = writeln!(
            t,
            "r{}c{}: {:>3} tenants, room {:>9} ({:>5.2} of ideal), reimages {:.2}–{:.2}/server/month, peak {:.0}–{:.0} %: {}",
            c.row,
            c.col,
            c.tenants.len(),
            c.space,
            c.balance,
            c.reimage_range[0],
            c.reimage_range[1],
            c.peak_range[0],
            c.peak_range[1],
            c.tenants
                .iter()
                .take(6)
                .map(|&i| cluster.tenants[i as usize].name.as_str())
                .collect::<Vec<_>>()
                .join(" ")
                + if c.tenants.len() > 6 { " …" } else { "" }
        );
    }
    t
}

fn reimages_text(s: &ReimageStats) -> String {
    let mut t = format!(
        "{} months, {} server reimages; {:.1} % of servers reimaged at most once a month on average \
         (the paper: ≥ 90 %), {:.1} % of tenants at most once per server (≥ 80 %)\n\n\
         {:<28} {:>7} {:>9} {:>7} {:>8} {:>8} {:>8}\n",
        s.months.len(),
        s.server_reimages,
        100.0 * s.servers_at_most_monthly,
        100.0 * s.tenants_at_most_monthly,
        "tenant",
        "servers",
        "reimages",
        "events",
        "largest",
        "avg/mo",
        "changes"
    );
    for r in &s.tenants {
        let _ = writeln!(
            t,
            "{:<28} {:>7} {:>9} {:>7} {:>8} {:>8.3} {:>8}",
            r.name, r.servers, r.reimages, r.events, r.largest_event, r.average, r.changes
        );
    }
    let pct = |c: &[skyplan_engine::harvest::CdfPoint], q: f64| {
        c.iter().find(|p| p.share >= q).map_or(f64::NAN, |p| p.x)
    };
    let _ = writeln!(
        t,
        "\nFigure 4 (servers, reimages/month): median {:.3}, p90 {:.3}, max {:.3}\n\
         Figure 5 (tenants, per server/month): median {:.3}, p80 {:.3}, max {:.3}\n\
         Figure 6 (group changes of {} possible): median {:.0}, p80 {:.0}",
        pct(&s.server_cdf, 0.5),
        pct(&s.server_cdf, 0.9),
        pct(&s.server_cdf, 1.0),
        pct(&s.tenant_cdf, 0.5),
        pct(&s.tenant_cdf, 0.8),
        pct(&s.tenant_cdf, 1.0),
        s.months.len().saturating_sub(1),
        pct(&s.changes_cdf, 0.5),
        pct(&s.changes_cdf, 0.8)
    );
    t
}
