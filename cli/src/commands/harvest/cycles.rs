//! `skyplan harvest`: harvesting spare cycles from primary tenants — their
//! patterns and classes (`classify`), Algorithm 1's class selection for
//! jobs (`select`), harvestable capacity per class and hour (`capacity`),
//! and the §6 scheduling simulation (`simulate-scheduling`).

use super::storage::{StorageArgs, FLAGS as STORAGE_FLAGS};
use crate::common::Failure;
use crate::input::import_loaded;
use crate::sweep_run::{is_sweep_flag, sweep_option, SweepArgs};
use skyplan_engine::estimate::{history_from_swim, HistoryParams};
use skyplan_engine::harvest::{
    capacity, classify, dag_from_history, group_series, read_batch_task, read_dag_json,
    read_machine_meta, read_machine_usage, read_mapping_csv, read_tenants_csv, select, simulate,
    tenants_from_machines, thresholds, tpcds_like, CapacityParams, ClassState, Classification,
    ClassifyParams, DefaultPlacement, GroupParams, HarvestRegime, JobDag, JobDemand, JobRequest,
    Scaling, SelectParams, SimParams, TenantSet, ThresholdDerivation, ThresholdRule,
    MACHINE_DEFAULT_CORES,
};
use skyplan_engine::import::{Format, ImportOptions};
use std::fmt::Write as _;

/// `skyplan harvest --help`.
pub const HELP: &str = "\
skyplan harvest — harvest spare cycles from primary tenants (§3–§4.1, §6)

USAGE:
    skyplan harvest classify FILE... [TENANTS] [CLASSIFY] [--json]
    skyplan harvest select FILE... [TENANTS] (--dag D.json | --job SPEC |
                           --history H.csv | --batch-task B.csv) [--json]
    skyplan harvest capacity FILE... [TENANTS] [--percentile P] [--json]
    skyplan harvest simulate-scheduling FILE... [TENANTS] [JOBS] [SIM] [--json]
    skyplan harvest figures [FIGURES] [JOBS] [SIM] [--json]
    skyplan harvest reimages FILE... --tenants T --reimages R [--json]
    skyplan harvest place FILE... --tenants T --reimages R [STORAGE] [--json]
    skyplan harvest simulate-durability FILE... --tenants T --reimages R [STORAGE]
    skyplan harvest simulate-availability FILE... --tenants T --reimages R [STORAGE]

FILE... are utilization series (any format 'skyplan import' reads); a
series named tenant/server belongs to that tenant. classify prints each
tenant's pattern (periodic, constant, unpredictable) with its spectral
evidence and class, and each class with its tags; select runs Algorithm 1
for each job on the classes at their latest utilization (type,
concurrency, every class's headroom and probability), after the
thresholds and their derivation (each type's work against its preferred
classes' capacity); capacity prints the
containers each class can hand to batch work per hour of day (mean and a
low percentile); simulate-scheduling compares YARN-PT and YARN-H; figures runs that
comparison on ten generated datacenters under linear and root scaling
(Figures 13–14) beside the paper's numbers (`skyplan sweep harvest` runs
it over a grid of datacenter sizes, levels and scalings: where harvesting
pays).
reimages prints each tenant's reimages per server per month, its
month-to-month thirds and group changes (Figures 4–6); place puts N
blocks by Algorithm 2 (or stock HDFS) on the reimage × peak grid and
checks diversity and space, or explains one block (--writer);
simulate-durability replays a year of reimages over HDFS-H and stock
(Figure 15); simulate-availability counts accesses failing because every
replica is on a busy server, against utilization (Figure 16).

TENANTS:
    --tenants FILE      tenants CSV: tenant,environment,machine_function,
                        servers[,cores_per_server][,server_names] (default:
                        tenants from the series names)
    --mapping FILE      server,tenant CSV assigning servers to tenants
    --machine-meta F    Alibaba v2018 machine_meta.csv: machines grouped
                        into tenants by failure_domain_1 (or --mapping)
    --machine-usage F   Alibaba v2018 machine_usage.csv (CPU series)
    --step S            slot length in seconds (default the series' median
                        step)

CLASSIFY:
    --max-std X         constant: std at most X points (default 3)
    --max-cv X          constant: or CV at most X (default 0.05)
    --min-share X       periodic: peak + harmonics share (default 0.2)
    --min-prominence X  periodic: peak over its neighbourhood (default 100)
    --k-periodic N      classes of periodic tenants (default elbow rule)
    --k-constant N      classes of constant tenants (default elbow rule)
    --k-unpredictable N classes of unpredictable tenants (default elbow rule)
    --k-max N           most classes per pattern (default 8)
    --min-explained X   elbow: share of spread explained (default 0.9)
    --peak-percentile P peak utilization percentile (default 99)
    --seed N            seed of k-means++ and of the draws (default 7)

SELECT:
    --dag FILE          DAG JSON: a job or {\"jobs\": [...]}, each with
                        vertices (name, tasks, task_secs), edges and
                        last_run_secs
    --job SPEC          a map/reduce job: tasks=N[,reduces=M][,last=S]
    --history FILE      a job history CSV: each job's map → reduce DAG
    --batch-task FILE   Alibaba v2018 batch_task.csv: DAGs from task_name
    --short S           short below S seconds; with --long, fixed thresholds
                        (default: derived from the jobs and the classes; the
                        paper's testbed used 173)
    --long S            long above S seconds (default: derived; the paper's
                        testbed used 433)
    --reserved C        cores kept for the primary per server (default 4)

CAPACITY:
    --percentile P      the low percentile (default 10)

JOBS (simulate-scheduling; default 52 generated TPC-DS-like DAGs):
    --tpcds N           N generated TPC-DS-like query DAGs (default 52)
    --dag, --history, --batch-task FILE   as for select
    --swim FILE         a SWIM sample, turned into a job history

SIM:
    --levels L,L,...    target average primary utilizations, percent
                        (default 10,20,30,40,50)
    --scaling S         linear or root:N (default linear)
    --runs N            seeded runs per level (default 5)
    --days D            days simulated (default 30)
    --cores C           cores per server (default 12)
    --interarrival S    mean job inter-arrival, seconds (default 300)
    --batch-load X      offered batch work, share of all cores (default 0.21)
    --duration-scale X  multiplier of task lengths before the scaling
                        factor (default 4)
    --scale-counts-only the scaling factor multiplies task counts alone
                        (default: lengths and counts, §6)
    --placement P       where containers naming no class go (all of YARN-PT's,
                        YARN-H's with no class picked): heartbeat (one per
                        server heartbeat, any server with a free core alike;
                        stock YARN), proportional (∝ free cores) or fill
                        (a server filled before the next); default heartbeat

FIGURES (figures; the SIM options apply, --days, --runs, --levels too):
    --datacenters N     the first N of the ten datacenters (default 10)
    --servers N         servers per datacenter (default 1000)
    (--step applies, default 120 s, the paper's; --threads too, as for
    simulate-scheduling)

STORAGE (reimages, place, simulate-durability, simulate-availability;
         --tenants and --reimages are required):
    --reimages FILE     reimages CSV: timestamp,server or
                        timestamp,tenant,servers (servers: a count, or
                        names joined by ;)
    --blocks N          blocks placed / simulated (default 100000); the
                        paper's Figure 15: 4000000
    --replication R     replicas per block for place (default 3)
    --replications L    replication levels simulated (default 3,4)
    --grid N            rows and columns of Algorithm 2's grid (default 3)
    --block-mb MB       block size (default 128)
    --rack-size N       servers per rack for stock HDFS (default 40)
    --policy P          place: hdfs-h, stock or pt (default hdfs-h)
    --writer SERVER     place: explain one block written at SERVER
    --span-days D       days of reimages simulated (default 365)
    --recreate-per-hour X  lost replicas each source server re-creates
                        per hour (default 30)
    --threads N         simulate-durability: threads for the runs, 0 for
                        every core; the results do not change (default 0)
    --replay            replay the history instead of generating a year
                        from each tenant's rates
    --availability-blocks N  blocks of simulate-availability (default 20000)
    --util-levels L     target average utilizations, percent (default
                        10,20,30,40,50,60)
    --reserve-threshold P  a server is busy above P percent CPU (default 66)
    (--runs, --scaling, --seed and --peak-percentile apply too)

    --json              print the whole result as JSON
    -h, --help          print this help
";

#[derive(Default)]
struct Args {
    sub: String,
    files: Vec<String>,
    tenants: Option<String>,
    mapping: Option<String>,
    machine_meta: Option<String>,
    machine_usage: Option<String>,
    group: GroupParams,
    classify: ClassifyParams,
    select: SelectParams,
    fixed: [bool; 2],
    percentile: Option<f64>,
    dag: Option<String>,
    jobs: Vec<String>,
    history: Option<String>,
    batch_task: Option<String>,
    swim: Option<String>,
    tpcds: Option<usize>,
    datacenters: Option<usize>,
    servers: Vec<usize>,
    scalings: Vec<Scaling>,
    dcs: Vec<usize>,
    placements: Vec<DefaultPlacement>,
    runs_given: bool,
    days_given: bool,
    levels_given: bool,
    seeds: Option<Vec<u64>>,
    sim: SimParams,
    storage: StorageArgs,
    json: bool,
}

fn parse_f64(flag: &str, v: &str) -> Result<f64, Failure> {
    v.parse::<f64>()
        .ok()
        .filter(|x| x.is_finite())
        .ok_or_else(|| Failure::usage(format!("{flag}: `{v}` is not a number")))
}

/// `linear`, `root` (the square root, `root:2`) or `root:N`.
fn parse_scaling(flag: &str, s: &str) -> Result<Scaling, Failure> {
    match s.trim() {
        "linear" => Ok(Scaling::Linear),
        "root" => Ok(Scaling::Root { n: 2.0 }),
        r => match r.strip_prefix("root:") {
            Some(n) => Ok(Scaling::Root {
                n: parse_f64(flag, n)?,
            }),
            None => Err(Failure::usage(format!(
                "{flag}: `{s}` is not linear, root or root:N"
            ))),
        },
    }
}

/// A reading of the default placement by name.
fn parse_placement(flag: &str, s: &str) -> Result<DefaultPlacement, Failure> {
    DefaultPlacement::parse(s.trim()).ok_or_else(|| {
        Failure::usage(format!(
            "{flag}: `{s}` is not heartbeat, proportional or fill"
        ))
    })
}

/// A comma-separated list, each item parsed by `one`.
fn list<T>(v: &str, one: impl Fn(&str) -> Result<T, Failure>) -> Result<Vec<T>, Failure> {
    v.split(',').map(|x| one(x.trim())).collect()
}

/// Runs `skyplan harvest`.
pub fn run(parser: &mut lexopt::Parser) -> Result<(), Failure> {
    let a = parse(parser, None)?;
    subcommand(&a)
}

/// `skyplan sweep harvest …` (after the part's name): the harvest options
/// and the sweep's, the grid from [`regime_grid`].
pub fn sweep(parser: &mut lexopt::Parser) -> Result<(), Failure> {
    let mut sweep = SweepArgs::default();
    let a = parse(parser, Some(&mut sweep))?;
    if !a.sub.is_empty() || !a.files.is_empty() {
        return Err(Failure::usage(format!(
            "sweep harvest takes no file or subcommand (`{}`)",
            if a.sub.is_empty() {
                &a.files[0]
            } else {
                &a.sub
            }
        )));
    }
    super::sweep::run(regime_grid(&a)?, &sweep)
}

/// The command line's options; with `sweep`, the sweep's options too
/// (`--threads`, `--json`, `--cells`, `--cell`, `--csv`, `-o`).
fn parse(parser: &mut lexopt::Parser, mut sweep: Option<&mut SweepArgs>) -> Result<Args, Failure> {
    use lexopt::prelude::*;
    let mut a = Args {
        classify: ClassifyParams::default(),
        sim: SimParams::default(),
        ..Args::default()
    };
    while let Some(arg) = parser.next()? {
        let val = |p: &mut lexopt::Parser| -> Result<String, Failure> { Ok(p.value()?.string()?) };
        match arg {
            Value(v) if a.sub.is_empty() => a.sub = v.string()?,
            Value(v) => a.files.push(v.string()?),
            Long("tenants") => a.tenants = Some(val(parser)?),
            Long("mapping") => a.mapping = Some(val(parser)?),
            Long("machine-meta") => a.machine_meta = Some(val(parser)?),
            Long("machine-usage") => a.machine_usage = Some(val(parser)?),
            Long("step") => a.group.step_secs = Some(parser.value()?.parse()?),
            Long("max-std") => {
                a.classify.pattern.constant_max_std = parse_f64("--max-std", &val(parser)?)?
            }
            Long("max-cv") => {
                a.classify.pattern.constant_max_cv = parse_f64("--max-cv", &val(parser)?)?
            }
            Long("min-share") => {
                a.classify.pattern.periodic_min_share = parse_f64("--min-share", &val(parser)?)?
            }
            Long("min-prominence") => {
                a.classify.pattern.periodic_min_prominence =
                    parse_f64("--min-prominence", &val(parser)?)?
            }
            Long("k-periodic") => a.classify.k[0] = Some(parser.value()?.parse()?),
            Long("k-constant") => a.classify.k[1] = Some(parser.value()?.parse()?),
            Long("k-unpredictable") => a.classify.k[2] = Some(parser.value()?.parse()?),
            Long("k-max") => a.classify.k_max = parser.value()?.parse()?,
            Long("min-explained") => {
                a.classify.min_explained = parse_f64("--min-explained", &val(parser)?)?
            }
            Long("peak-percentile") => {
                a.classify.peak_percentile = parse_f64("--peak-percentile", &val(parser)?)?
            }
            Long("seed") => {
                let s: u64 = parser.value()?.parse()?;
                a.classify.seed = s;
                a.sim.seed = s;
            }
            Long("dag") => a.dag = Some(val(parser)?),
            Long("job") => a.jobs.push(val(parser)?),
            Long("history") => a.history = Some(val(parser)?),
            Long("batch-task") => a.batch_task = Some(val(parser)?),
            Long("swim") => a.swim = Some(val(parser)?),
            Long("tpcds") => a.tpcds = Some(parser.value()?.parse()?),
            Long("short") => {
                a.select.short_max_secs = parse_f64("--short", &val(parser)?)?;
                a.fixed[0] = true;
            }
            Long("long") => {
                a.select.long_min_secs = parse_f64("--long", &val(parser)?)?;
                a.fixed[1] = true;
            }
            Long("scale-counts-only") => a.sim.scale_lengths = false,
            Long("datacenters") => a.datacenters = Some(parser.value()?.parse()?),
            Long("servers") => {
                a.servers = list(&val(parser)?, |x| {
                    x.parse::<usize>()
                        .map_err(|_| Failure::usage(format!("--servers: `{x}` is not a count")))
                })?
            }
            Long("scalings") => {
                a.scalings = list(&val(parser)?, |x| parse_scaling("--scalings", x))?
            }
            Long("scaling") if sweep.is_some() => {
                a.scalings = list(&val(parser)?, |x| parse_scaling("--scaling", x))?
            }
            Long("seeds") => {
                a.seeds = Some(list(&val(parser)?, |x| {
                    x.parse::<u64>()
                        .map_err(|_| Failure::usage(format!("--seeds: `{x}` is not a seed")))
                })?)
            }
            Long("dcs") => a.dcs = list(&val(parser)?, super::sweep::parse_datacenter)?,
            Long("placements") => {
                a.placements = list(&val(parser)?, |x| parse_placement("--placements", x))?
            }
            Long("placement") => a.sim.placement = parse_placement("--placement", &val(parser)?)?,
            Long("reserved") => a.select.reserved_cores = parse_f64("--reserved", &val(parser)?)?,
            Long("percentile") => a.percentile = Some(parse_f64("--percentile", &val(parser)?)?),
            Long("levels") => {
                a.sim.levels = list(&val(parser)?, |l| parse_f64("--levels", l))?;
                a.levels_given = true;
            }
            Long("scaling") => a.sim.scaling = parse_scaling("--scaling", &val(parser)?)?,
            Long("runs") => {
                a.sim.runs = parser.value()?.parse()?;
                a.runs_given = true;
            }
            Long("days") => {
                a.sim.days = parse_f64("--days", &val(parser)?)?;
                a.days_given = true;
            }
            Long("cores") => a.sim.cores_per_server = parse_f64("--cores", &val(parser)?)?,
            Long("interarrival") => {
                a.sim.mean_interarrival_secs = parse_f64("--interarrival", &val(parser)?)?
            }
            Long("batch-load") => a.sim.batch_load = parse_f64("--batch-load", &val(parser)?)?,
            Long("duration-scale") => {
                a.sim.duration_scale = parse_f64("--duration-scale", &val(parser)?)?
            }
            Short('o') if sweep.is_some() => {
                if let Some(s) = sweep.as_deref_mut() {
                    sweep_option("out", parser, s)?;
                }
            }
            Long(f) if sweep.is_some() && is_sweep_flag(f) => {
                let f = f.to_owned();
                if let Some(s) = sweep.as_deref_mut() {
                    sweep_option(&f, parser, s)?;
                }
            }
            Long("json") => a.json = true,
            Long(f) if STORAGE_FLAGS.contains(&f) => {
                let f = f.to_owned();
                a.storage.take(&f, &mut || val(parser))?;
            }
            _ => return Err(arg.unexpected().into()),
        }
    }
    Ok(a)
}

/// Runs the subcommand `a` names.
fn subcommand(a: &Args) -> Result<(), Failure> {
    let set = || load_tenants(a);
    match a.sub.as_str() {
        "classify" => {
            let set = set()?;
            let c = classify(&set, &a.classify).map_err(Failure::refused)?;
            crate::common::emit(&if a.json {
                crate::common::json(&c)
            } else {
                classify_text(&set, &c)
            });
            Ok(())
        }
        "select" => {
            let set = set()?;
            let c = classify(&set, &a.classify).map_err(Failure::refused)?;
            let jobs = load_jobs(a)?;
            if jobs.is_empty() {
                return Err(Failure::usage(
                    "select needs jobs: --dag, --job, --history or --batch-task",
                ));
            }
            let states: Vec<ClassState> = c.classes.iter().map(ClassState::latest).collect();
            let demands = jobs
                .iter()
                .map(|j| {
                    Ok(JobDemand {
                        length_secs: match j.last_run_secs {
                            Some(s) => s,
                            None => j.critical_path_secs()?,
                        },
                        work_secs: j.work_secs(),
                    })
                })
                .collect::<Result<Vec<_>, skyplan_engine::harvest::HarvestError>>();
            let demands = input(demands)?;
            let rate = 1.0 / SimParams::default().mean_interarrival_secs;
            let rule = fixed_rule(a)?;
            let d = input(thresholds(rule, &demands, &c.classes, None, &a.select, rate))?;
            let params = SelectParams {
                short_max_secs: d.short_max_secs,
                long_min_secs: d.long_min_secs,
                ..a.select.clone()
            };
            let mut rng = skyplan_engine::numerics::Rng::new(a.classify.seed);
            let mut out = Vec::new();
            for j in &jobs {
                let conc = j.concurrency().map_err(Failure::refused)?;
                let req = JobRequest {
                    last_run_secs: j.last_run_secs,
                    containers: conc.max,
                };
                let s = select(&req, &states, &params, &mut rng).map_err(Failure::refused)?;
                out.push((j.name.clone(), s));
            }
            crate::common::emit(&if a.json {
                let v: Vec<_> = out
                    .iter()
                    .map(|(n, s)| serde_json::json!({"job": n, "selection": s}))
                    .collect();
                crate::common::json(&serde_json::json!({"thresholds": d, "jobs": v}))
            } else {
                let mut t = thresholds_text(&d);
                t.push('\n');
                for (n, s) in &out {
                    let _ = writeln!(
                        t,
                        "job {n}: {:?}, {} concurrent containers → {:?}: {}",
                        s.job_type,
                        s.containers,
                        s.outcome,
                        if s.picked.is_empty() {
                            "no class".into()
                        } else {
                            s.picked.join(", ")
                        }
                    );
                    let _ = writeln!(
                        t,
                        "  {:<18} {:>10} {:>8} {:>7} {:>11}",
                        "class", "headroom", "weight", "fits", "probability"
                    );
                    for o in &s.options {
                        let _ = writeln!(
                            t,
                            "  {:<18} {:>10.0} {:>8} {:>7} {:>11.3}",
                            o.id, o.headroom_containers, o.weight, o.fits, o.probability
                        );
                    }
                }
                t
            });
            Ok(())
        }
        "capacity" => {
            let set = set()?;
            let c = classify(&set, &a.classify).map_err(Failure::refused)?;
            let mut p = CapacityParams {
                select: a.select.clone(),
                ..CapacityParams::default()
            };
            if let Some(x) = a.percentile {
                p.percentile = x;
            }
            let m = capacity(&c, &p).map_err(Failure::refused)?;
            crate::common::emit(&if a.json {
                crate::common::json(&m)
            } else {
                let mut t = format!(
                    "harvestable containers per hour of day (UTC): mean / p{}\n{:<18}",
                    m.percentile, "class"
                );
                for h in (0..24).step_by(3) {
                    let _ = write!(t, " {:>11}", format!("{h:02}h"));
                }
                t.push('\n');
                for r in &m.classes {
                    let _ = write!(t, "{:<18}", r.class);
                    for h in (0..24).step_by(3) {
                        let _ = write!(t, " {:>11}", format!("{:.0}/{:.0}", r.mean[h], r.low[h]));
                    }
                    t.push('\n');
                }
                t
            });
            Ok(())
        }
        "simulate-scheduling" => {
            let set = set()?;
            let (jobs, p) = sim_setup(a)?;
            let r = simulate(&set, &jobs, &p, &mut |_, _| {})
                .map_err(Failure::refused)?;
            crate::common::emit(&if a.json {
                crate::common::json(&r)
            } else {
                let mut t = format!(
                    "{} servers, {:.1} days, {} job templates (tasks × {:.2}), {} scaling, {} runs\n",
                    r.servers,
                    r.days,
                    r.templates,
                    r.task_scale,
                    r.scaling.name(),
                    p.runs
                );
                let _ = writeln!(
                    t,
                    "task lengths × {:.2}; offered batch work {:.0} % of the cores; \
                     containers naming no class placed by {}",
                    r.length_scale,
                    100.0 * p.batch_load,
                    p.placement.name()
                );
                t.push_str("level  util%   PT job s (min–max)        H job s (min–max)         PT kills   H kills  improvement % avg (min–max)\n");
                for l in &r.levels {
                    let _ = writeln!(
                        t,
                        "{:>4.0}%  {:>5.1}  {:>7.0} ({:.0}–{:.0})  {:>7.0} ({:.0}–{:.0})  {:>9.0} {:>9.0}  {:>6.1} ({:.1}–{:.1})",
                        l.level,
                        l.h.utilization.avg,
                        l.pt.avg_job_secs.avg,
                        l.pt.avg_job_secs.min,
                        l.pt.avg_job_secs.max,
                        l.h.avg_job_secs.avg,
                        l.h.avg_job_secs.min,
                        l.h.avg_job_secs.max,
                        l.pt.kills.avg,
                        l.h.kills.avg,
                        l.improvement.avg,
                        l.improvement.min,
                        l.improvement.max
                    );
                }
                t.push_str(&branches_text(&r.levels));
                if let Some(l) = r.levels.first() {
                    let _ = writeln!(t, "\nat {:.0} %:", l.level);
                    t.push_str(&thresholds_text(&l.thresholds));
                }
                let _ = writeln!(
                    t,
                    "paper (Figure 14): average improvement {} linear, {} root; maxima {}",
                    r.paper.linear_avg_improvement,
                    r.paper.root_avg_improvement,
                    r.paper.max_improvement
                );
                t
            });
            Ok(())
        }
        "figures" => {
            let (jobs, p) = sim_setup(a)?;
            let servers = match a.servers[..] {
                [] => 1000,
                [n] => n,
                _ => return Err(Failure::usage("figures takes one --servers value")),
            };
            let dcs = super::figures::datacenters(
                a.datacenters.unwrap_or(10),
                p.days,
                a.group.step_secs.unwrap_or(120),
                servers,
            );
            super::figures::run(&dcs, &jobs, &[Scaling::Linear, Scaling::Root { n: 2.0 }], &p, a.json)
        }
        "reimages" | "place" | "simulate-durability" | "simulate-availability" => {
            let set = set()?;
            let infos = match &a.tenants {
                Some(p) => Some(input(read_tenants_csv(p, &read(p)?))?),
                None => None,
            };
            super::storage::run(
                &a.sub,
                &a.storage,
                infos.as_deref(),
                &set,
                a.sim.seed,
                a.sim.runs,
                a.sim.scaling,
                a.classify.peak_percentile,
                a.json,
            )
        }
        "" => Err(Failure::usage(
            "harvest needs a subcommand: classify, select, capacity, simulate-scheduling, \
             figures, reimages, place, simulate-durability or simulate-availability",
        )),
        other => Err(Failure::usage(format!(
            "unknown harvest subcommand `{other}` (classify, select, capacity, simulate-scheduling, \
             figures, reimages, place, simulate-durability, simulate-availability)"
        ))),
    }
}

/// `given` unless it is empty, then `default`.
fn or_default<T: Clone>(given: &[T], default: Vec<T>) -> Vec<T> {
    if given.is_empty() {
        default
    } else {
        given.to_vec()
    }
}

/// `sweep harvest`'s grid from the flags (its own defaults where none is
/// given): the seeds are `--seeds`, or `--seed` … `--seed` + `--runs` − 1
/// (one by default).
fn regime_grid(a: &Args) -> Result<HarvestRegime, Failure> {
    let d = HarvestRegime::default();
    let mut base = a.sim.clone();
    base.select = a.select.clone();
    base.classify = a.classify.clone();
    base.thresholds = fixed_rule(a)?;
    if !a.days_given {
        base.days = d.base.days;
    }
    let runs = if a.runs_given { a.sim.runs } else { 1 };
    let grid = HarvestRegime {
        step_secs: a.group.step_secs.unwrap_or(d.step_secs),
        templates: a.tpcds.unwrap_or(d.templates),
        templates_seed: a.sim.seed,
        servers: or_default(&a.servers, d.servers.clone()),
        levels: if a.levels_given {
            a.sim.levels.clone()
        } else {
            d.levels.clone()
        },
        scalings: or_default(&a.scalings, d.scalings.clone()),
        datacenters: or_default(&a.dcs, d.datacenters.clone()),
        placements: or_default(&a.placements, d.placements.clone()),
        seeds: match &a.seeds {
            Some(s) => s.clone(),
            None => (0..runs as u64)
                .map(|r| a.sim.seed.wrapping_add(r))
                .collect(),
        },
        base,
    };
    Ok(grid)
}

/// The simulation's jobs (the flags', or the generated TPC-DS-like mix)
/// and settings.
fn sim_setup(a: &Args) -> Result<(Vec<JobDag>, SimParams), Failure> {
    let mut jobs = load_jobs(a)?;
    if jobs.is_empty() {
        jobs = tpcds_like(a.tpcds.unwrap_or(52), a.sim.seed);
    }
    let mut p = a.sim.clone();
    p.select = a.select.clone();
    p.classify = a.classify.clone();
    p.thresholds = fixed_rule(a)?;
    if let Some(n) = a.storage.threads {
        p.threads = n;
    }
    Ok((jobs, p))
}

/// Fixed thresholds when --short and --long are both given, derived when
/// neither is.
fn fixed_rule(a: &Args) -> Result<ThresholdRule, Failure> {
    match a.fixed {
        [true, true] => Ok(ThresholdRule::Fixed),
        [false, false] => Ok(ThresholdRule::Derived),
        _ => Err(Failure::usage(
            "--short and --long fix the thresholds together: give both or neither",
        )),
    }
}

/// The thresholds and their derivation as a table.
fn thresholds_text(d: &ThresholdDerivation) -> String {
    let mut t = format!(
        "thresholds ({}): short below {:.0} s, long above {:.0} s\n",
        match d.rule {
            ThresholdRule::Derived =>
                "derived: each type's share of the work matches its preferred classes' share of the capacity",
            ThresholdRule::Fixed => "fixed",
        },
        d.short_max_secs,
        d.long_min_secs
    );
    let _ = writeln!(
        t,
        "  {:<7} {:<14} {:>5} {:>11} {:>12} {:>12} {:>15}",
        "type", "preferred", "jobs", "work share", "demand (c.)", "capacity (c.)", "capacity share"
    );
    for b in &d.types {
        let _ = writeln!(
            t,
            "  {:<7} {:<14} {:>5} {:>10.1}% {:>12.1} {:>13.0} {:>14.1}%",
            format!("{:?}", b.job_type).to_lowercase(),
            b.preferred.name(),
            b.jobs,
            100.0 * b.work_share,
            b.demand_containers,
            b.capacity_containers,
            100.0 * b.capacity_share
        );
    }
    let _ = writeln!(
        t,
        "  (c. = containers; demand at one job per {:.0} s; capacity per class:{})",
        if d.arrivals_per_sec > 0.0 {
            1.0 / d.arrivals_per_sec
        } else {
            f64::INFINITY
        },
        d.classes
            .iter()
            .map(|c| format!(" {} {:.0}", c.class, c.containers))
            .collect::<Vec<_>>()
            .join(",")
    );
    t
}

/// Algorithm 1's branches, the kills by pattern and by branch, the full
/// servers and the unfinished jobs, per level and system (means over the
/// runs).
fn branches_text(levels: &[skyplan_engine::harvest::LevelResult]) -> String {
    let mut t = String::from(
        "\nAlgorithm 1's branch (one class / several / none; for PT what it would have taken), \
         kills by class pattern (periodic / constant / unpredictable) and by the killed task's \
         branch, servers with no free core (time average), jobs unfinished when the run stopped:\n",
    );
    for l in levels {
        for s in [&l.pt, &l.h] {
            let (mut by_pattern, mut by_branch) = ([0u64; 3], [0u64; 3]);
            let (mut full, mut unfinished) = (0.0, 0);
            for r in &s.runs {
                for i in 0..3 {
                    by_pattern[i] += r.kills_by_pattern[i];
                    by_branch[i] += r.kills_by_branch[i];
                }
                full += r.full_servers;
                unfinished += r.unfinished;
            }
            let runs = s.runs.len().max(1) as u64;
            let _ = writeln!(
                t,
                "{:>4.0}%  {:<7}  {:>5.1} / {:>5.1} / {:>5.1} %   kills {} / {} / {} by pattern, \
                 {} / {} / {} by branch   full {:.1} %   unfinished {}",
                l.level,
                if s.system == skyplan_engine::harvest::System::YarnH {
                    "YARN-H"
                } else {
                    "YARN-PT"
                },
                100.0 * s.branch_shares[0],
                100.0 * s.branch_shares[1],
                100.0 * s.branch_shares[2],
                by_pattern[0] / runs,
                by_pattern[1] / runs,
                by_pattern[2] / runs,
                by_branch[0] / runs,
                by_branch[1] / runs,
                by_branch[2] / runs,
                full / runs as f64,
                unfinished as u64 / runs
            );
        }
    }
    t
}

fn read(path: &str) -> Result<String, Failure> {
    std::fs::read_to_string(path).map_err(|e| Failure::input(format!("{path}: {e}")))
}

fn input<T>(r: Result<T, skyplan_engine::harvest::HarvestError>) -> Result<T, Failure> {
    r.map_err(Failure::refused)
}

/// The tenants of the command's files.
fn load_tenants(a: &Args) -> Result<TenantSet, Failure> {
    let mut tenants = match &a.tenants {
        Some(p) => Some(input(read_tenants_csv(p, &read(p)?))?),
        None => None,
    };
    let mapping = match &a.mapping {
        Some(p) => Some(input(read_mapping_csv(p, &read(p)?, tenants.as_deref()))?),
        None => None,
    };
    let mut series = Vec::new();
    for f in &a.files {
        series.extend(import_loaded(f, &ImportOptions::default())?.data.series);
    }
    if let Some(p) = &a.machine_usage {
        series.extend(input(read_machine_usage(p, &read(p)?))?.series);
    }
    if let Some(p) = &a.machine_meta {
        if tenants.is_none() {
            let meta = input(read_machine_meta(p, &read(p)?))?;
            tenants = Some(tenants_from_machines(
                &meta,
                mapping.as_ref(),
                MACHINE_DEFAULT_CORES,
            ));
        }
    }
    if series.is_empty() {
        return Err(Failure::usage(
            "harvest needs utilization: FILE... or --machine-usage",
        ));
    }
    let (set, missing) = input(group_series(
        &series,
        tenants.as_deref(),
        mapping.as_ref(),
        &a.group,
    ))?;
    if !missing.is_empty() && !a.json {
        eprintln!(
            "note: {} tenants have no series and are left out: {}",
            missing.len(),
            missing.join(", ")
        );
    }
    Ok(set)
}

/// The jobs named by --dag, --job, --history, --batch-task, --swim.
fn load_jobs(a: &Args) -> Result<Vec<JobDag>, Failure> {
    let mut jobs = Vec::new();
    if let Some(p) = &a.dag {
        jobs.extend(input(read_dag_json(p, &read(p)?))?);
    }
    for (i, spec) in a.jobs.iter().enumerate() {
        jobs.push(job_spec(i, spec)?);
    }
    if let Some(p) = &a.history {
        let h = import_loaded(p, &ImportOptions::default())?;
        if h.format != Format::JobHistoryCsv {
            return Err(Failure::input(format!(
                "{p} is {}, not a job history",
                h.format
            )));
        }
        jobs.extend(h.data.workload.iter().map(dag_from_history));
    }
    if let Some(p) = &a.swim {
        let s = import_loaded(p, &ImportOptions::default())?;
        let h = history_from_swim(&s.data.workload, &HistoryParams::default())
            .map_err(|e| Failure::input(format!("{p}: {e}")))?;
        jobs.extend(h.iter().map(dag_from_history));
    }
    if let Some(p) = &a.batch_task {
        jobs.extend(input(read_batch_task(p, &read(p)?))?.jobs);
    }
    if let Some(n) = a.tpcds {
        if a.sub != "simulate-scheduling" || !jobs.is_empty() {
            jobs.extend(tpcds_like(n, a.sim.seed));
        }
    }
    Ok(jobs)
}

/// `tasks=N[,reduces=M][,last=S]` → a map/reduce DAG.
fn job_spec(i: usize, spec: &str) -> Result<JobDag, Failure> {
    let (mut maps, mut reduces, mut last) = (None, 0u32, None);
    for part in spec.split(',') {
        let (k, v) = part
            .split_once('=')
            .ok_or_else(|| Failure::usage(format!("--job: `{part}` is not key=value")))?;
        let bad = || Failure::usage(format!("--job: `{v}` is not a valid {k}"));
        match k.trim() {
            "tasks" | "maps" => maps = Some(v.trim().parse::<u32>().map_err(|_| bad())?),
            "reduces" => reduces = v.trim().parse().map_err(|_| bad())?,
            "last" => last = Some(parse_f64("--job last", v.trim())?),
            _ => {
                return Err(Failure::usage(format!(
                    "--job: unknown key `{k}` (tasks, reduces, last)"
                )))
            }
        }
    }
    let maps = maps.ok_or_else(|| Failure::usage("--job needs tasks=N"))?;
    let mut vertices = vec![skyplan_engine::harvest::Vertex {
        name: "map".into(),
        tasks: maps,
        task_secs: 60.0,
    }];
    let mut edges = Vec::new();
    if reduces > 0 {
        vertices.push(skyplan_engine::harvest::Vertex {
            name: "reduce".into(),
            tasks: reduces,
            task_secs: 60.0,
        });
        edges.push(["map".to_string(), "reduce".to_string()]);
    }
    Ok(JobDag {
        name: format!("job{}", i + 1),
        last_run_secs: last,
        vertices,
        edges,
    })
}

fn classify_text(set: &TenantSet, c: &Classification) -> String {
    let mut t = format!(
        "{} tenants, {} servers, {} slots of {} s\n\n{:<28} {:<14} {:<16} {:>7} {:>6} {:>6}  {:>9} {:>6} {:>6}\n",
        c.tenants.len(),
        set.servers(),
        c.slots,
        c.step_secs,
        "tenant",
        "pattern",
        "class",
        "servers",
        "avg%",
        "peak%",
        "peak (h)",
        "share",
        "prom."
    );
    for r in &c.tenants {
        let (ph, share) = r.evidence.peak.as_ref().map_or((f64::NAN, 0.0), |p| {
            (p.period_secs / 3600.0, r.evidence.peak_share)
        });
        let _ = writeln!(
            t,
            "{:<28} {:<14} {:<16} {:>7} {:>6.1} {:>6.1}  {:>9.1} {:>6.2} {:>6.0}",
            r.name,
            r.pattern.name(),
            r.class,
            r.servers,
            r.average,
            r.peak,
            ph,
            share,
            r.evidence.prominence.min(1e9)
        );
    }
    let _ = writeln!(
        t,
        "\n{:<18} {:>8} {:>8} {:>6} {:>6}  tenants",
        "class", "tenants", "servers", "avg%", "peak%"
    );
    for k in &c.classes {
        let _ = writeln!(
            t,
            "{:<18} {:>8} {:>8} {:>6.1} {:>6.1}  {}",
            k.id,
            k.tenants.len(),
            k.servers,
            k.average,
            k.peak,
            k.tenants.join(" ")
        );
    }
    for k in &c.k {
        let _ = writeln!(
            t,
            "{}: {} tenants → k = {}{}",
            k.pattern.name(),
            k.tenants,
            k.k,
            if k.overridden {
                " (given)"
            } else {
                " (elbow: 90 % of the spread explained, or k-max)"
            }
        );
    }
    t
}
