//! Harvesting advice as the Harvest panel computes it with its defaults:
//! the primary tenants' utilization patterns and classes, the harvestable
//! containers per class and hour of day, and — with a reimages file — the
//! HDFS-H replica placement on the tenants' grid and its durability
//! against the reimages, next to stock HDFS.

use crate::chart::{bars, xy_figure, Series, XyChart};
use crate::context::Context;
use crate::fmt::{count, fixed, pct, whole};
use crate::html::{Html, Table};
use crate::progress::{Progress, Stage};
use skyplan_engine::harvest::{
    build_grid, capacity, classify, group_series, machine_tenants, place_blocks, read_reimages_csv,
    read_tenants_csv, reimage_stats, simulate_durability, storage_tenants, tenant_series,
    CapacityParams, Classification, ClassifyParams, Cluster, DurabilityParams, GroupParams, Policy,
    TenantInfo, TenantSet,
};
use skyplan_engine::{Resource, UtilizationSeries};

/// Seed of the reimage statistics (the panel's).
const STATS_SEED: u64 = 7;

fn hour_tick(h: f64) -> String {
    format!("{:02}h", h.round() as i64)
}

/// Writes the section; present when the bundle holds the Harvest panel's
/// files.
pub fn write(ctx: &Context<'_>, h: &mut Html, progress: &mut dyn FnMut(Progress)) -> bool {
    if ctx.bundle.harvest.is_none() {
        h.absent("No harvesting inputs in this workspace.");
        return false;
    }
    let classify_params = ClassifyParams::default();
    let capacity_params = CapacityParams::default();
    let Some((source, infos, series)) = inputs(ctx, h) else {
        return true;
    };
    let classified = group_series(&series, infos.as_deref(), None, &GroupParams::default())
        .and_then(|(set, missing)| {
            let c = classify(&set, &classify_params)?;
            let m = capacity(&c, &capacity_params)?;
            Ok((set, missing, c, m))
        });
    let (set, missing, c, m) = match classified {
        Ok(x) => x,
        Err(e) => {
            h.para_in("problem", &format!("The tenants were not classified: {e}"));
            return true;
        }
    };
    classes(h, &c, &missing);
    h.heading(3, "Harvestable capacity");
    let mut t = Table::new(
        format!(
            "Harvestable containers per class by hour of day (UTC): mean / {}th percentile",
            fixed(m.percentile, 0)
        ),
        &[
            "class", "#servers", "#00h", "#04h", "#08h", "#12h", "#16h", "#20h",
        ],
    );
    for r in &m.classes {
        let mut row = vec![r.class.clone(), count(r.servers)];
        for hour in (0..24).step_by(4) {
            row.push(format!(
                "{} / {}",
                fixed(r.mean.get(hour).copied().unwrap_or(f64::NAN), 0),
                fixed(r.low.get(hour).copied().unwrap_or(f64::NAN), 0)
            ));
        }
        t.row(row);
    }
    h.table(&t);
    let chart = XyChart {
        x_label: "hour of day (UTC)".into(),
        y_label: "containers".into(),
        series: m
            .classes
            .iter()
            .map(|r| Series {
                name: r.class.clone(),
                points: r
                    .mean
                    .iter()
                    .enumerate()
                    .map(|(h, &v)| (h as f64, v))
                    .collect(),
                step: false,
            })
            .collect(),
        reference: None,
        x_tick: Some(hour_tick),
    };
    xy_figure(
        h,
        &chart,
        "Mean harvestable containers per class by hour of day",
    );
    h.settings(&[
        ("tenants", source.describe(infos.as_deref())),
        (
            "series",
            format!(
                "{} CPU series{}, {}-second slots",
                count(series.len()),
                match source {
                    Source::TenantsFile(_) => " of the tenants file's tenants",
                    Source::Machines(_) => ", one a machine",
                    Source::AllSeries => " loaded",
                },
                c.step_secs
            ),
        ),
        (
            "classes",
            format!(
                "K-Means per pattern, k by the elbow rule (≤ {}, {} % explained), seed {}, peak at the {}th percentile",
                classify_params.k_max,
                fixed(classify_params.min_explained * 100.0, 0),
                classify_params.seed,
                fixed(classify_params.peak_percentile, 0)
            ),
        ),
        (
            "capacity",
            format!(
                "{} core(s) a container, {} reserved a server; low percentile {}",
                capacity_params.select.container_cores,
                capacity_params.select.reserved_cores,
                fixed(capacity_params.percentile, 0)
            ),
        ),
    ]);
    match (&source, &infos) {
        (Source::TenantsFile(_), Some(infos)) => storage(
            ctx,
            h,
            infos,
            &set,
            classify_params.peak_percentile,
            progress,
        ),
        (Source::Machines(names), _) => {
            h.heading(3, "Replica placement and its durability");
            h.absent(&format!("Not computed: the Alibaba machine tables {names} stand in for the tenants file and have no reimages (the Harvest panel's storage view refuses them too)."));
        }
        _ => {
            h.heading(3, "Replica placement and its durability");
            h.absent("No tenants file in this workspace: replica placement needs the tenants' servers and storage.");
        }
    }
    true
}

/// Whose tenants are classified.
enum Source {
    /// The tenants file (its name).
    TenantsFile(String),
    /// The Alibaba v2018 machine tables (their names), one tenant per
    /// failure domain.
    Machines(String),
    /// Every CPU series loaded, one tenant each.
    AllSeries,
}

impl Source {
    fn describe(&self, infos: Option<&[TenantInfo]>) -> String {
        let n = infos.map_or(0, <[TenantInfo]>::len);
        match self {
            Source::TenantsFile(name) => format!("{name}: {} tenants", count(n)),
            Source::Machines(names) => format!(
                "Alibaba v2018 {names}: {} tenants, one a failure_domain_1",
                count(n)
            ),
            Source::AllSeries => "no tenants file: each CPU series a tenant of its own".into(),
        }
    }
}

/// What the Harvest panel classifies: the machine tables when in use,
/// else the tenants file's tenants' series, else every CPU series loaded.
/// `None` (with the reason written) when there is nothing to classify.
fn inputs(
    ctx: &Context<'_>,
    h: &mut Html,
) -> Option<(Source, Option<Vec<TenantInfo>>, Vec<UtilizationSeries>)> {
    let state = ctx.bundle.harvest.as_ref()?;
    if let Some([meta, usage]) = &state.machines {
        let names = format!("{} + {}", meta.0, usage.0);
        return match machine_tenants((&meta.0, &meta.1), (&usage.0, &usage.1)) {
            Ok((tenants, series)) => Some((Source::Machines(names), Some(tenants), series)),
            Err(e) => {
                h.para_in("problem", &format!("The machine tables were not read: {e}"));
                None
            }
        };
    }
    let (source, infos) = match &state.tenants {
        Some((name, text)) => match read_tenants_csv(name, text) {
            Ok(infos) => (Source::TenantsFile(name.clone()), Some(infos)),
            Err(e) => {
                h.para_in("problem", &format!("{name} was not read: {e}"));
                return None;
            }
        },
        None => (Source::AllSeries, None),
    };
    let series: Vec<UtilizationSeries> = match &infos {
        Some(infos) => tenant_series(ctx.workspace.series(), infos),
        None => ctx
            .workspace
            .series()
            .filter(|s| s.resource == Resource::Cpu)
            .cloned()
            .collect(),
    };
    if series.is_empty() {
        h.para_in(
            "problem",
            &match &source {
                Source::TenantsFile(name) => format!("No loaded CPU series belongs to a tenant of {name} (series named tenant/server, or listed in its server_names)."),
                _ => "No tenants file and no CPU utilization series in this workspace: no classes to harvest from.".into(),
            },
        );
        return None;
    }
    Some((source, infos, series))
}

fn classes(h: &mut Html, c: &Classification, missing: &[String]) {
    h.figures(&[
        ("tenants classified", count(c.tenants.len())),
        ("classes", count(c.classes.len())),
        (
            "servers",
            count(c.classes.iter().map(|k| k.servers).sum::<usize>()),
        ),
    ]);
    let mut t = Table::new(
        "Primary tenants' utilization classes",
        &[
            "class",
            "pattern",
            "#tenants",
            "#servers",
            "#cores",
            "#mean CPU",
            "#peak CPU",
        ],
    );
    for k in &c.classes {
        t.row(vec![
            k.id.clone(),
            k.pattern.name().to_string(),
            count(k.tenants.len()),
            count(k.servers),
            whole(k.cores),
            pct(k.average),
            pct(k.peak),
        ]);
    }
    h.table(&t);
    if !missing.is_empty() {
        h.para_in(
            "note",
            &format!(
                "{} tenant(s) of the tenants file have no series and are left out: {}",
                missing.len(),
                missing.join(", ")
            ),
        );
    }
}

/// Replica placement and durability, with a reimages file.
fn storage(
    ctx: &Context<'_>,
    h: &mut Html,
    infos: &[TenantInfo],
    set: &TenantSet,
    peak_percentile: f64,
    progress: &mut dyn FnMut(Progress),
) {
    h.heading(3, "Replica placement and its durability");
    let Some(state) = &ctx.bundle.harvest else {
        return;
    };
    let Some((name, text)) = &state.reimages else {
        h.absent("No reimages file in this workspace: no replica placement or durability.");
        return;
    };
    let p = DurabilityParams::default();
    let placed = read_reimages_csv(name, text, infos).and_then(|history| {
        let stats = reimage_stats(&history, STATS_SEED)?;
        let tenants = storage_tenants(infos, &stats, set, peak_percentile)?;
        let cluster = Cluster::new(&tenants, &p.placement)?;
        let grid = build_grid(&cluster, p.placement.grid);
        let (_, fill) = place_blocks(
            &cluster,
            &grid,
            Policy::HdfsH,
            p.blocks,
            p.placement.replication,
            p.placement.seed,
        )?;
        Ok((history, stats, tenants, grid, fill))
    });
    let (history, stats, tenants, grid, fill) = match placed {
        Ok(x) => x,
        Err(e) => {
            h.para_in("problem", &format!("{name}: {e}"));
            return;
        }
    };
    h.figures(&[
        ("reimages", whole(stats.server_reimages as f64)),
        ("months", count(stats.months.len())),
        ("blocks placed (HDFS-H)", whole(fill.blocks as f64)),
        ("room used", pct(fill.used_share * 100.0)),
        ("grid imbalance", pct(grid.imbalance * 100.0)),
    ]);
    let d = &fill.diversity;
    h.para(&format!(
        "HDFS-H places {} blocks × {} replicas on a {}×{} grid of {} tenants ({} servers): {} block(s) with two replicas in one environment, {} in one tenant, {} placed with the row/column rule relaxed, {} server(s) over their room.",
        whole(fill.blocks as f64),
        fill.replication,
        grid.n,
        grid.n,
        count(fill.tenants),
        count(fill.servers),
        whole(d.environment_repeats as f64),
        whole(d.tenant_repeats as f64),
        whole(fill.relaxed as f64),
        whole(d.over_room_servers as f64),
    ));
    let mut report = None;
    let mut tick = |done: usize, total: usize| progress(Progress::at(Stage::Harvest, done, total));
    match simulate_durability(&tenants, &history, &p, &mut tick) {
        Ok(r) => report = Some(r),
        Err(e) => h.para_in("problem", &format!("Durability was not simulated: {e}")),
    }
    if let Some(r) = report {
        let mut t = Table::new(
            format!(
                "Blocks lost over {} days of reimages ({} runs)",
                fixed(r.days, 0),
                p.runs
            ),
            &[
                "policy",
                "#replicas",
                "#lost % avg",
                "#min – max",
                "#lost blocks avg",
            ],
        );
        for x in &r.results {
            t.row(vec![
                x.policy.name().to_string(),
                count(x.replication),
                fixed(x.lost_percent.avg, 5),
                format!(
                    "{} – {}",
                    fixed(x.lost_percent.min, 5),
                    fixed(x.lost_percent.max, 5)
                ),
                fixed(x.lost_blocks.avg, 1),
            ]);
        }
        h.table(&t);
        let rows: Vec<(String, Vec<f64>)> = r
            .results
            .iter()
            .map(|x| {
                (
                    format!("{} R={}", x.policy.name(), x.replication),
                    vec![x.lost_blocks.avg],
                )
            })
            .collect();
        if let Some(svg) = bars(&rows, &["lost blocks, mean of the runs"], "blocks") {
            h.chart(&svg, "Blocks lost per policy and replication");
        }
        let verdicts: Vec<String> = r
            .reduction
            .iter()
            .map(|red| format!("R = {}: {}", red.replication, red.verdict()))
            .collect();
        h.list(&verdicts);
        h.settings(&[
            ("reimages", format!("{name}, statistics seed {STATS_SEED}")),
            (
                "placement",
                format!(
                    "HDFS-H, {} replicas, {}×{} grid, {} MB blocks, racks of {}, seed {}",
                    p.placement.replication,
                    p.placement.grid,
                    p.placement.grid,
                    p.placement.block_mb,
                    p.placement.rack_size,
                    p.placement.seed
                ),
            ),
            (
                "durability",
                format!(
                    "{} blocks, replication {:?}, {} days, {} re-created an hour, {} runs, reimages {:?}",
                    whole(p.blocks as f64),
                    p.replications,
                    p.days,
                    p.recreate_per_hour,
                    p.runs,
                    p.source
                ),
            ),
        ]);
    }
}
