//! `skyplan tune`: AdaptiveConfig's scheduler configuration tuning — every
//! candidate configuration's estimated latency (Algorithm 1), the best, and
//! with several groups Algorithm 3's split of the containers; the tuned
//! configuration as YARN XML. `skyplan tune evaluate` runs §4.3 and §4.4
//! against the event-driven simulation.

use crate::common::Failure;
use crate::input::import_loaded;
use skyplan_engine::import::ImportOptions;
use skyplan_engine::tuning::{
    advise_group, equal_queues, hidden_differences, jobs_from_swim,
    read_capacity_xml_with_warnings, read_fair_xml_with_warnings, same_config, tune,
    update_capacity_xml, update_fair_xml, write_capacity_xml, write_fair_xml, Advice, FairContext,
    GroupConfig, SchedulerKind, SearchMethod, SwimTasks, TuneJob, TuneParams, TuneReport, XmlError,
    SIM_RUNS, TIE_TOLERANCE,
};
use std::fmt::Write as _;

/// `skyplan tune --help`.
pub const HELP: &str = "\
skyplan tune — tune YARN Capacity/Fair scheduler configurations (AdaptiveConfig)

USAGE:
    skyplan tune FILE... [--scheduler capacity|fair] [--config current.xml]
                 [--containers R] [--search rrs|exhaustive] [--json]
                 [--export-xml OUT] [OPTIONS]
    skyplan tune evaluate [SWIM] [--windows N] [--google-mixes N] [--json]

Each FILE (a SWIM TSV) is one group of jobs: its first --jobs jobs, tasks
from their bytes, priorities 2–8 drawn at random and mapped to queues as
the paper's §4.3, all waiting at once (a tuning snapshot) unless
--arrivals. For every group the configurations of the grid (queue
shares × in-queue policy) are compared by Algorithm 1; prints each
candidate's estimated mean latency, the best, and — with several FILEs —
how Algorithm 3 splits the containers among the groups.

Only confirmed advice: for each group the current configuration (--config,
else queues of equal share) is estimated too, and both it and the
recommendation are simulated (YARN heartbeats, AMs; the mean of 5 seeded
runs). A change is advised only when the simulation confirms a gain of
more than 1 %; otherwise the current configuration is kept (both figures
are printed), and --export-xml writes the configuration advised.

OPTIONS:
    --scheduler S       capacity or fair (default capacity; the --config
                        file's kind wins)
    --queues N          queues per group without --config (default 2)
    --config FILE       the cluster's current capacity-scheduler.xml or
                        Fair allocation file: its queues seed the grid
                        (default: none, queues q1… at 10–90 %)
    --parent PATH       the queue whose children are the group's queues in
                        --config (default root)
    --containers R      containers of the cluster (default 8)
    --per-machine N     containers per machine (default 4)
    --search M          rrs or exhaustive (default rrs)
    --seed N            seed of RRS and of the priorities (default 7)
    --jobs N            jobs taken from each FILE (default 20)
    --arrivals          keep the jobs' submission times (default: all
                        waiting at 0)
    --export-xml OUT    write the advised configuration (one FILE): --config
                        updated in place, else a fresh file
    --json              print the whole report as JSON
    -h, --help          print this help

EVALUATE (skyplan tune evaluate):
    For SWIM windows (6 and 8 containers) and Google-like mixes, both
    schedulers with 2 and 4 queues, every configuration is estimated by
    Algorithm 1 and simulated (YARN heartbeats, AM containers and limits,
    task-time noise); prints how often the estimate's best is the actual
    best (the paper's 87.26 %), within 2 %, Spearman's ρ, a random pick's
    baseline and, on the SWIM stream, tuning every 1, 2, 4, 8 minutes
    against the paper's representative configurations (its 2.16×).
    Its options: --windows N (default 7), --google-mixes N (default 18),
    --jobs N (default 12), --repeats N (default 3), --noise S (default
    0.1), --heartbeat S (default 1), --am-start S (default 1), --am-share X
    (default 0.5), --yarn-am-limits, --mix-load X (default 1.5),
    --max-tasks N (default 4096), --load X (default 1.5), --literal,
    --no-delays, --seed N (default 7), --threads N (default 0: every
    core; the same report on any number), --json.
";

/// What `tune` was asked.
struct Args {
    files: Vec<String>,
    params: TuneParams,
    config: Option<String>,
    parent: String,
    jobs: usize,
    arrivals: bool,
    seed: u64,
    export: Option<String>,
    json: bool,
}

/// Runs `skyplan tune` (`skyplan tune evaluate` is routed by the folder's
/// `run`).
pub fn run(parser: &mut lexopt::Parser) -> Result<(), Failure> {
    use lexopt::prelude::*;
    let mut a = Args {
        files: Vec::new(),
        params: TuneParams::default(),
        config: None,
        parent: "root".into(),
        jobs: 20,
        arrivals: false,
        seed: 7,
        export: None,
        json: false,
    };
    while let Some(arg) = parser.next()? {
        match arg {
            Long("scheduler") => {
                a.params.scheduler = scheduler(&parser.value()?.string()?)?;
            }
            Long("queues") => a.params.queues = parser.value()?.parse()?,
            Long("config") => a.config = Some(parser.value()?.string()?),
            Long("parent") => a.parent = parser.value()?.string()?,
            Long("containers") => a.params.containers = parser.value()?.parse()?,
            Long("per-machine") => a.params.per_machine = parser.value()?.parse()?,
            Long("search") => {
                a.params.search = match parser.value()?.string()?.as_str() {
                    "rrs" => SearchMethod::Rrs,
                    "exhaustive" => SearchMethod::Exhaustive,
                    other => {
                        return Err(Failure::usage(format!(
                            "--search: {other:?} is not rrs or exhaustive"
                        )))
                    }
                }
            }
            Long("seed") => a.seed = parser.value()?.parse()?,
            Long("jobs") => a.jobs = parser.value()?.parse()?,
            Long("arrivals") => a.arrivals = true,
            Long("export-xml") => a.export = Some(parser.value()?.string()?),
            Long("json") => a.json = true,
            Value(v) => a.files.push(v.string()?),
            _ => return Err(arg.unexpected().into()),
        }
    }
    if a.files.is_empty() {
        return Err(Failure::usage("tune needs at least one FILE"));
    }
    for (flag, v) in [
        ("--jobs", a.jobs),
        ("--containers", a.params.containers as usize),
        ("--per-machine", a.params.per_machine as usize),
        ("--queues", a.params.queues),
    ] {
        if v == 0 {
            return Err(Failure::usage(format!("{flag} must be ≥ 1")));
        }
    }
    if a.export.is_some() && a.files.len() > 1 {
        return Err(Failure::usage(
            "--export-xml writes one group's configuration: give one FILE",
        ));
    }
    a.params.rrs.seed = a.seed;
    let current_text = match &a.config {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| Failure::input(format!("{path}: {e}")))?;
            let (config, warnings) = read_current(&text, &a.parent, a.params.containers)
                .map_err(|e| Failure::input(format!("{path}: {e}")))?;
            // What YARN accepts with a warning, accepted with one.
            for w in warnings {
                eprintln!("skyplan: warning: {path}: {w}");
            }
            a.params.scheduler = config.scheduler;
            a.params.queues = config.queues.len();
            a.params.current = Some(config);
            Some(text)
        }
        None => None,
    };
    let mut groups = load_groups(&a.files, a.jobs, a.params.queues, a.seed)?;
    if !a.arrivals {
        for (_, jobs) in &mut groups {
            jobs.iter_mut().for_each(|j| j.submit = 0.0);
        }
    }
    let report = tune(&groups, &a.params, &mut |_, _| {}).map_err(Failure::refused)?;
    // Without --config, the current configuration is the grid's even one.
    let current = a
        .params
        .current
        .clone()
        .unwrap_or_else(|| equal_queues(a.params.scheduler, a.params.queues));
    let advice: Vec<Advice> = groups
        .iter()
        .zip(&report.groups)
        .map(|((_, jobs), g)| advise_group(jobs, g, &current, &a.params, a.seed))
        .collect::<Result<_, _>>()
        .map_err(Failure::refused)?;
    if let Some(out) = &a.export {
        let best = if advice[0].verdict.change() {
            &report.groups[0].search.best().config
        } else {
            &current
        };
        let ctx = FairContext::paper(a.params.containers);
        let xml = match (&current_text, best.scheduler) {
            (Some(t), SchedulerKind::Capacity) => update_capacity_xml(t, &a.parent, best),
            (Some(t), SchedulerKind::Fair) => update_fair_xml(t, &a.parent, best, &ctx),
            (None, SchedulerKind::Capacity) => Ok(write_capacity_xml(best, "root")),
            (None, SchedulerKind::Fair) => Ok(write_fair_xml(best, &ctx)),
        }
        .map_err(Failure::refused)?;
        std::fs::write(out, xml).map_err(|e| Failure::input(format!("{out}: {e}")))?;
    }
    if a.json {
        crate::common::emit_json(&Advised {
            report: &report,
            advice: &advice,
        });
        return Ok(());
    }
    crate::common::emit(&text_report(&report, &advice, &a));
    Ok(())
}

/// `--json`: the tuning report and, per group, the advice.
#[derive(serde::Serialize)]
struct Advised<'a> {
    #[serde(flatten)]
    report: &'a TuneReport,
    advice: &'a [Advice],
}

fn scheduler(s: &str) -> Result<SchedulerKind, Failure> {
    match s {
        "capacity" => Ok(SchedulerKind::Capacity),
        "fair" => Ok(SchedulerKind::Fair),
        other => Err(Failure::usage(format!(
            "--scheduler: {other:?} is not capacity or fair"
        ))),
    }
}

/// A capacity-scheduler.xml (`<configuration>`) or an allocation file
/// (`<allocations>`), told apart by the root element, with the warnings
/// of what YARN would accept.
pub(crate) fn read_current(
    text: &str,
    parent: &str,
    containers: u32,
) -> Result<(GroupConfig, Vec<XmlError>), XmlError> {
    if text.contains("<allocations") {
        read_fair_xml_with_warnings(text, parent, &FairContext::paper(containers))
    } else {
        read_capacity_xml_with_warnings(text, parent)
    }
}

/// Each file's first `jobs` jobs as one group.
pub(crate) fn load_groups(
    files: &[String],
    jobs: usize,
    queues: usize,
    seed: u64,
) -> Result<Vec<(String, Vec<TuneJob>)>, Failure> {
    files
        .iter()
        .map(|path| {
            let f = import_loaded(path, &ImportOptions::default())?;
            let w = &f.data.workload;
            if w.is_empty() {
                return Err(Failure::input(format!(
                    "{path}: no jobs (a SWIM TSV is needed)"
                )));
            }
            let take = &w[..jobs.clamp(1, w.len())];
            let params = SwimTasks {
                seed,
                ..SwimTasks::default()
            };
            let j = jobs_from_swim(take, queues, &params)
                .map_err(|e| Failure::input(format!("{path}: {e}")))?;
            Ok((path.clone(), j))
        })
        .collect()
}

fn text_report(r: &TuneReport, advice: &[Advice], a: &Args) -> String {
    let mut out = String::new();
    // The configuration the advice compares with (without --config, the
    // grid's even one, as `run` takes it).
    let in_force = a
        .params
        .current
        .clone()
        .unwrap_or_else(|| equal_queues(a.params.scheduler, a.params.queues));
    for (g, adv) in r.groups.iter().zip(advice) {
        let _ = writeln!(
            out,
            "{}: {} jobs on {} containers, {} configurations evaluated ({} draws, {} rounds)",
            g.name,
            a.jobs,
            g.containers,
            g.search.candidates.len(),
            g.search.samples,
            g.search.rounds
        );
        let _ = writeln!(out, "  {:<40} {:>14}", "configuration", "est. latency s");
        let current = a.params.current.as_ref();
        let mut order: Vec<usize> = (0..g.search.candidates.len()).collect();
        order.sort_by(|&x, &y| {
            g.search.candidates[x]
                .latency_secs
                .total_cmp(&g.search.candidates[y].latency_secs)
        });
        for k in order {
            let c = &g.search.candidates[k];
            let mut mark = String::new();
            if k == g.search.best {
                mark.push_str(" *");
            }
            if g.search.tied.contains(&k) && g.search.tied.len() > 1 {
                mark.push_str(" (tie)");
            }
            if current.is_some_and(|cur| same_config(cur, &c.config)) {
                mark.push_str(" (current)");
            }
            let _ = writeln!(
                out,
                "  {:<40} {:>14.1}{mark}",
                c.config.label(),
                c.latency_secs
            );
        }
        let pct = TIE_TOLERANCE * 100.0;
        if g.search.no_contention {
            let _ = writeln!(
                out,
                "  tie: no contention in this window — every configuration gives the same latency (within {pct} %){}",
                if g.search.kept_current { "; keep the current one" } else { "; the most even split is shown" }
            );
        } else if g.search.tied.len() > 1 {
            let _ = writeln!(
                out,
                "  tie: {} configurations within {pct} % of the lowest estimate{}",
                g.search.tied.len(),
                if g.search.kept_current {
                    "; the current one is among them: keep it"
                } else {
                    "; the most even split is recommended"
                }
            );
        }
        let _ = writeln!(
            out,
            "  best: {}{}{}",
            g.search.best().config.label(),
            if g.search.kept_current {
                " (current, kept)"
            } else {
                ""
            },
            // What the label does not show, where it is what differs.
            hidden_differences(&g.search.best().config, &in_force)
                .map(|d| format!("; {d}"))
                .unwrap_or_default()
        );
        let _ = writeln!(
            out,
            "  current: estimated {:.1} s (best {:.1} % lower); simulated (mean of {SIM_RUNS} seeded runs) best {:.1} s vs current {:.1} s ({:.1} % lower)\n  advice: {}\n",
            adv.estimated_current_secs,
            adv.estimated_gain() * 100.0,
            adv.simulated_best_secs,
            adv.simulated_current_secs,
            adv.simulated_gain() * 100.0,
            adv.verdict.sentence()
        );
    }
    let s = &r.split;
    let _ = writeln!(
        out,
        "cluster-level split of {} containers (Algorithm 3, r_Alloc {}, r_sum {}):",
        s.total, s.r_alloc, s.r_sum
    );
    for (g, (&c, ratio)) in r.groups.iter().zip(s.containers.iter().zip(&s.ratios)) {
        let _ = writeln!(
            out,
            "  {:<40} {:>5} containers  {:>6.1} %",
            g.name,
            c,
            ratio * 100.0
        );
    }
    if let Some(x) = &a.export {
        let _ = writeln!(out, "\nadvised configuration written to {x}");
    }
    out
}
