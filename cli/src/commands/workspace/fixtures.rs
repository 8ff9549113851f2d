//! `skyplan fixtures`: write the deterministic demo workspace.

use crate::common::Failure;
use crate::input::import_file;
use skyplan_engine::estimate::{history_from_swim, HistoryParams};
use skyplan_engine::fixtures::{demo_decisions, demo_queue, generate, FixtureParams, QueueParams};
use skyplan_engine::import::{Format, ImportOptions};
use skyplan_engine::model::{Timestamp, WorkloadJob};
use std::path::PathBuf;

/// `skyplan fixtures --help`.
pub const HELP: &str = "\
skyplan fixtures — write the deterministic demo workspace

USAGE:
    skyplan fixtures [--seed N] [--out DIR] [--days D] [--daily N]
                     [--hourly N] [--adhoc N] [--servers N]
                     [--swim FILE] [--history-jobs N]
                     [--tenants N] [--nab DIR]

Writes runs.csv, utilization.csv and native.log (recurring and ad-hoc jobs,
servers' utilization series), history.csv (a job history generated from
a SWIM sample by the processing-time model 'skyplan estimate' uses, dated
from the first day), decisions.csv (every actionable SLO signed off with
its fitted skyline, as 'skyplan plan' reads a studio export) and queue.csv
(five history jobs admitted to a pricing queue as the Pricing panel admits
them), tenants.csv and tenant_utilization.csv (a datacenter of primary
tenants with the harvesting paper's §3 mix, plus the NAB EC2 CPU series
re-dated onto the same grid as tenants `nab-…`, for 'skyplan harvest'),
and reimages.csv (the year of disk reimages before the first day, for
every tenant of tenants.csv: heavy-tailed rates and correlated bursts).
The defaults give the committed demo workspace, fixtures/demo.

OPTIONS:
    --seed N          random seed of the workspace and the history (default 7)
    --out DIR         output directory (default fixtures/demo)
    --days D          days of job history (default 14)
    --daily N         daily recurring jobs (default 8)
    --hourly N        hourly recurring jobs (default 4)
    --adhoc N         irregular ad-hoc jobs (default 2)
    --servers N       servers with utilization series (default 24)
    --swim FILE       the SWIM sample history.csv is generated from (default
                      fixtures/real/swim/FB-2009_samples_24_times_1hr_0.tsv)
    --history-jobs N  runs in history.csv (default 300)
    --tenants N       generated primary tenants in tenants.csv (default 36)
    --nab DIR         the NAB series added as tenants (default
                      fixtures/real/nab)
    -h, --help        print this help
";

/// The SWIM sample the demo's job history is generated from (real public
/// data committed under `fixtures/real`).
pub const DEMO_SWIM: &str = "fixtures/real/swim/FB-2009_samples_24_times_1hr_0.tsv";

/// The NAB series the demo's tenants include (`fixtures/real/nab`).
pub const DEMO_NAB: &str = "fixtures/real/nab";

/// The NAB EC2 CPU series made demo tenants, in order.
const NAB_CPU: [&str; 4] = [
    "ec2_cpu_utilization_24ae8d.csv",
    "ec2_cpu_utilization_53ea38.csv",
    "ec2_cpu_utilization_5f5533.csv",
    "ec2_cpu_utilization_77c1ca.csv",
];

/// The demo's tenants: the generated datacenter and the NAB CPU series as
/// tenants on its grid (10 servers each, environment `nab`).
fn demo_tenants(
    tenants: usize,
    nab: &str,
    start: Timestamp,
    seed: u64,
) -> Result<(String, String, String), Failure> {
    use skyplan_engine::fixtures::{
        datacenter, nab_tenant, reimage_history, DatacenterParams, ReimageFixtureParams,
    };
    use skyplan_engine::harvest::TenantInfo;
    let p = DatacenterParams {
        seed,
        start,
        tenants,
        ..DatacenterParams::default()
    };
    let mut dc = datacenter(&p);
    let slots = (i64::from(p.days) * 86_400 / p.step_secs) as usize;
    for file in NAB_CPU {
        let path = format!("{nab}/{file}");
        let loaded = import_file(&path, &ImportOptions::default())?
            .map_err(|e| Failure::input(format!("{path}: {e}")))?;
        let Some(series) = loaded.data.series.first() else {
            return Err(Failure::input(format!("{path}: no series")));
        };
        let id = file
            .trim_start_matches("ec2_cpu_utilization_")
            .trim_end_matches(".csv");
        let name = format!("nab-{id}");
        dc.series
            .push(nab_tenant(series, &name, start, p.step_secs, slots));
        dc.tenants.push(TenantInfo {
            name,
            environment: "nab".into(),
            machine_function: "ec2".into(),
            servers: 10,
            server_names: Vec::new(),
            cores_per_server: 12.0,
            storage_gb_per_server: skyplan_engine::harvest::DEFAULT_STORAGE_GB,
        });
    }
    // A year of reimages before the demo's first day, for all tenants.
    let (y, m, _) = skyplan_engine::time::civil_from_days(start.div_euclid(86_400));
    let reimages = reimage_history(
        &dc.tenants,
        &ReimageFixtureParams {
            seed,
            start: skyplan_engine::time::days_from_civil(y - 1, m, 1) * 86_400,
            ..ReimageFixtureParams::default()
        },
    );
    Ok((
        skyplan_engine::harvest::write_tenants_csv(&dc.tenants),
        skyplan_engine::export::utilization_long_csv(&dc.series),
        skyplan_engine::harvest::write_reimages_csv(&reimages),
    ))
}

/// History jobs (runs) in the demo's `history.csv`.
pub const DEMO_HISTORY_JOBS: usize = 300;

/// The demo job history: `jobs` runs generated from the SWIM sample at
/// `swim` by the engine's processing-time model, seeded with `seed`, the
/// trace starting at `origin` (the demo runs' first day, so the history has
/// calendar dates inside the workspace's span).
fn demo_history(
    swim: &str,
    jobs: usize,
    seed: u64,
    origin: Timestamp,
) -> Result<Vec<WorkloadJob>, Failure> {
    let loaded = import_file(swim, &ImportOptions::default())?
        .map_err(|e| Failure::input(format!("{swim}: {e}")))?;
    if loaded.format != Format::SwimTsv {
        return Err(Failure::input(format!(
            "{swim} is {}, not a SWIM sample ({})",
            loaded.format,
            Format::SwimTsv
        )));
    }
    let params = HistoryParams {
        jobs,
        seed,
        origin,
        ..HistoryParams::default()
    };
    history_from_swim(&loaded.data.workload, &params)
        .map_err(|e| Failure::input(format!("{swim}: {e}")))
}

/// Runs `skyplan fixtures`.
pub fn run(parser: &mut lexopt::Parser) -> Result<(), Failure> {
    use lexopt::prelude::*;
    let mut params = FixtureParams::default();
    let mut out = PathBuf::from("fixtures/demo");
    let mut swim = DEMO_SWIM.to_owned();
    let mut history_jobs = DEMO_HISTORY_JOBS;
    let mut tenants = 36usize;
    let mut nab = DEMO_NAB.to_owned();
    while let Some(arg) = parser.next()? {
        match arg {
            Long("seed") => {
                let v: String = parser.value()?.string()?;
                params.seed = v.parse().map_err(|_| {
                    Failure::usage(format!("--seed: `{v}` is not a non-negative integer"))
                })?;
            }
            Long("out") => out = parser.value()?.into(),
            Long("days") => params.days = parser.value()?.parse()?,
            Long("daily") => params.daily_jobs = parser.value()?.parse()?,
            Long("hourly") => params.hourly_jobs = parser.value()?.parse()?,
            Long("adhoc") => params.adhoc_jobs = parser.value()?.parse()?,
            Long("servers") => params.servers = parser.value()?.parse()?,
            Long("swim") => swim = parser.value()?.string()?,
            Long("history-jobs") => history_jobs = parser.value()?.parse()?,
            Long("tenants") => tenants = parser.value()?.parse()?,
            Long("nab") => nab = parser.value()?.string()?,
            _ => return Err(arg.unexpected().into()),
        }
    }
    if history_jobs == 0 {
        return Err(Failure::usage("--history-jobs must be at least 1"));
    }
    let fx = generate(&params).map_err(Failure::refused)?;
    let files = fx.files();
    let history = demo_history(&swim, history_jobs, params.seed, params.start)?;
    // Every actionable SLO signed off, and a few history jobs admitted to
    // the pricing queue: the engine's own paths, as the studio takes them.
    let (decisions, not_signed_off) = demo_decisions(&fx.runs).map_err(Failure::refused)?;
    let queue = demo_queue(&history, &QueueParams::default()).map_err(Failure::refused)?;
    let queue: Vec<_> = queue.into_iter().map(|a| a.job).collect();
    let history = skyplan_engine::export::job_history_csv(&history);
    let decisions = skyplan_engine::export::decisions_csv(&decisions);
    let queue = skyplan_engine::export::queue_csv(&queue);
    let (tenants_csv, tenant_utilization, reimages_csv) =
        demo_tenants(tenants, &nab, params.start, params.seed)?;
    std::fs::create_dir_all(&out).map_err(|e| Failure::input(format!("{}: {e}", out.display())))?;
    for (name, content) in [
        ("runs.csv", &files.runs_csv),
        ("utilization.csv", &files.utilization_csv),
        ("native.log", &files.native_log),
        ("history.csv", &history),
        ("decisions.csv", &decisions),
        ("queue.csv", &queue),
        ("tenants.csv", &tenants_csv),
        ("tenant_utilization.csv", &tenant_utilization),
        ("reimages.csv", &reimages_csv),
    ] {
        let path = out.join(name);
        std::fs::write(&path, content)
            .map_err(|e| Failure::input(format!("{}: {e}", path.display())))?;
        println!("wrote {} ({} bytes)", path.display(), content.len());
    }
    for n in not_signed_off {
        println!("decisions.csv: `{}` is not signed off: {}", n.job, n.why);
    }
    Ok(())
}
