//! `skyplan tune evaluate`: the paper's §4.3 (how often Algorithm 1's best
//! configuration is the simulation's best) and §4.4 (run-time tuning
//! against static configurations), our figures next to the paper's.

use crate::common::Failure;
use crate::input::import_loaded;
use skyplan_engine::import::ImportOptions;
use skyplan_engine::tuning::{evaluate_on, EvalParams, EvalReport, Reading, SchedulerKind};
use std::fmt::Write as _;

/// `skyplan tune evaluate --help` (shown under `skyplan tune`'s).
pub const HELP: &str = "\
skyplan tune evaluate — §4.3 and §4.4 of AdaptiveConfig against simulation

USAGE:
    skyplan tune evaluate [SWIM] [--windows N] [--google-mixes N]
                          [--jobs N] [--repeats N] [--noise S] [--seed N]
                          [--threads N] [--json]

For SWIM windows (on 6 and 8 containers) and Google-like mixes, both
schedulers with 2 and 4 queues: every configuration of the grid estimated
by Algorithm 1 and simulated (YARN heartbeats, AM containers, noise);
prints how often the estimate's best is the actual best and, for the SWIM
stream, run-time tuning every 1, 2, 4, 8 minutes against the static
configurations.

OPTIONS:
    --windows N         SWIM windows (default 7)
    --google-mixes N    Google-like mixes (default 18)
    --jobs N            jobs per mix (default 12)
    --repeats N         noise seeds per simulation (default 3)
    --noise S           σ of the task-time noise (default 0.1)
    --heartbeat S       node heartbeat interval, seconds (default 1)
    --am-start S        AM start-up, seconds (default 1)
    --am-share X        share of a queue its AMs may hold, every queue, in
                        the estimate and the simulation (default 0.5)
    --yarn-am-limits    each scheduler's YARN default AM share instead
                        (Capacity 0.1: one job per queue on 6–8 containers;
                        Fair 0.5)
    --mix-load X        offered load of a §4.3 mix: submissions scaled so
                        task work over span is X × containers (default 1.5)
    --max-tasks N       most maps (one per 128 MiB) and reduces (one per
                        GiB of shuffle) of a SWIM job (default 4096)
    --load X            offered load of the §4.4 stream (default 1.5)
    --literal           estimate by Algorithm 1 read literally (whole-job
                        release, no AM) instead of per-task release
    --no-delays         estimate per task without heartbeat waits and AM
                        start-up (the simulation keeps them)
    --seed N            seed of mixes and priorities (default 7)
    --threads N         threads: the cases and §4.4's runs are independent
                        and run on every core (default 0: every core; the
                        report is the same on any number)
    --json              print the whole report as JSON
    -h, --help          print this help
";

/// Runs `skyplan tune evaluate`.
pub fn run(parser: &mut lexopt::Parser) -> Result<(), Failure> {
    use lexopt::prelude::*;
    let mut p = EvalParams::default();
    let mut json = false;
    let mut threads = 0;
    let mut file = None;
    while let Some(arg) = parser.next()? {
        match arg {
            Long("windows") => p.facebook_windows = parser.value()?.parse()?,
            Long("google-mixes") => p.google_mixes = parser.value()?.parse()?,
            Long("jobs") => p.jobs_per_mix = parser.value()?.parse()?,
            Long("repeats") => p.repeats = parser.value()?.parse()?,
            Long("noise") => p.sim.noise = parser.value()?.parse()?,
            Long("heartbeat") => p.sim.heartbeat_secs = parser.value()?.parse()?,
            Long("am-start") => p.sim.am_start_secs = parser.value()?.parse()?,
            Long("am-share") => p.sim.am_share = Some(parser.value()?.parse()?),
            Long("yarn-am-limits") => p.sim.am_share = None,
            Long("mix-load") => p.mix_load = parser.value()?.parse()?,
            Long("max-tasks") => p.max_tasks = parser.value()?.parse()?,
            Long("literal") => p.reading = Reading::Literal,
            Long("no-delays") => p.delays = false,
            Long("load") => p.adapt_load = parser.value()?.parse()?,
            Long("seed") => p.seed = parser.value()?.parse()?,
            Long("threads") => threads = parser.value()?.parse()?,
            Long("json") => json = true,
            Long("help") | Short('h') => {
                crate::common::emit(HELP);
                return Ok(());
            }
            Value(v) if file.is_none() => file = Some(v.string()?),
            _ => return Err(arg.unexpected().into()),
        }
    }
    let swim = match &file {
        Some(path) => {
            import_loaded(path, &ImportOptions::default())?
                .data
                .workload
        }
        None => Vec::new(),
    };
    let report = evaluate_on(&swim, &p, threads, &mut |_, _| {}).map_err(Failure::refused)?;
    if json {
        crate::common::emit_json(&report);
        return Ok(());
    }
    crate::common::emit(&text(&report));
    Ok(())
}

fn pct(x: f64) -> String {
    if x.is_finite() {
        format!("{:.2} %", 100.0 * x)
    } else {
        "–".into()
    }
}

fn text(r: &EvalReport) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "§4.3 — {} cases (mix × scheduler × queues × size)\n",
        r.cases.len()
    );
    let _ = writeln!(out, "{:<44} {:>10} {:>10}", "", "ours", "paper");
    for (what, ours, paper) in [
        ("estimated best is the actual best", r.hit_share, "87.26 %"),
        ("  random pick (expected)", r.random_hit_share, "–"),
        ("within 2 % of the actual best", r.within_2pct_share, "–"),
        ("  random pick (expected)", r.random_within_2pct_share, "–"),
        ("  Capacity", r.hit_share_capacity, "93.33 %"),
        ("  Fair", r.hit_share_fair, "81.19 %"),
        ("  Facebook (SWIM) mixes", r.hit_share_facebook, "91.07 %"),
        ("  Google(-like) mixes", r.hit_share_google, "84.72 %"),
        ("latency increase when not best", r.miss_increase, "3.37 %"),
        (
            "latency increase, all non-best configs",
            r.nonbest_increase,
            "52.92 %",
        ),
    ] {
        let _ = writeln!(out, "{what:<44} {:>10} {paper:>10}", pct(ours));
    }
    let _ = writeln!(
        out,
        "{:<44} {:>10.3} {:>10}\n{:<44} {:>10}\n{:<44} {:>10}\n{:<44} {:>10}",
        "median Spearman ρ, estimate vs simulation",
        r.median_spearman,
        "–",
        "  cases where ρ is undefined (a tie)",
        r.spearman_undefined,
        "recommendations that never finish",
        r.unfinished_recommendations,
        "median |estimate − simulated| / simulated",
        pct(r.median_abs_estimate_error)
    );
    if !r.adaptation.is_empty() {
        let _ = writeln!(
            out,
            "\n§4.4 — run-time tuning of the SWIM stream against static configurations\n"
        );
        let _ = writeln!(
            out,
            "{:<10} {:>6} {:>5} {:>9} {:>12} {:>12} {:>12} {:>8} {:>8}",
            "scheduler",
            "queues",
            "load",
            "interval",
            "adaptive s",
            "static avg s",
            "static best",
            "vs avg",
            "vs best"
        );
        for a in &r.adaptation {
            let _ = writeln!(
                out,
                "{:<10} {:>6} {:>5.2} {:>7} m {:>12.1} {:>12.1} {:>12.1} {:>7.2}× {:>7.2}×",
                match a.scheduler {
                    SchedulerKind::Capacity => "capacity",
                    SchedulerKind::Fair => "fair",
                },
                a.queues,
                a.offered_load,
                a.interval_min,
                a.adaptive_secs,
                a.static_mean_secs,
                a.static_best_secs,
                a.reduction,
                a.reduction_vs_best
            );
        }
        let _ = writeln!(
            out,
            "\nmean latency reduction against the representative static configurations: {:.2}× their mean (paper: 2.16×), {:.2}× the best one",
            r.mean_reduction,
            r.adaptation.iter().map(|a| a.reduction_vs_best).sum::<f64>() / r.adaptation.len() as f64
        );
    }
    out
}
