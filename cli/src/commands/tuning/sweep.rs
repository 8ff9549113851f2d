//! `skyplan sweep tuning`: where tuning pays — §4.3 and §4.4 against the
//! mix load and the queue count, every cell `tune evaluate` at that load
//! and queue count (both schedulers) with the sweep's options.

use crate::common::Failure;
use crate::input::import_loaded;
use crate::sweep_run::{is_sweep_flag, list, run_and_emit, sweep_option, table_rows, SweepArgs};
use skyplan_engine::import::ImportOptions;
use skyplan_engine::sweep::{CellOutcome, SweepResult, SweepSpec};
use skyplan_engine::tuning::{ContentionSweep, SWEEP_SWIM_JOBS};
use std::fmt::Write as _;

/// `skyplan sweep tuning …` (after the part's name).
pub fn run(parser: &mut lexopt::Parser) -> Result<(), Failure> {
    use lexopt::prelude::*;
    let mut p = ContentionSweep::small_base();
    let mut a = SweepArgs::default();
    let mut loads = vec![p.mix_load];
    let mut queues = p.queue_counts.clone();
    let mut file = None;
    let mut swim_jobs = SWEEP_SWIM_JOBS;
    while let Some(arg) = parser.next()? {
        match arg {
            Long("loads") => loads = list(&parser.value()?.string()?, "--loads")?,
            Long("queues") => queues = list(&parser.value()?.string()?, "--queues")?,
            Long("windows") => p.facebook_windows = parser.value()?.parse()?,
            Long("google-mixes") => p.google_mixes = parser.value()?.parse()?,
            Long("jobs") => p.jobs_per_mix = parser.value()?.parse()?,
            Long("repeats") => p.repeats = parser.value()?.parse()?,
            Long("max-tasks") => p.max_tasks = parser.value()?.parse()?,
            Long("adapt-jobs") => p.adapt_jobs = parser.value()?.parse()?,
            Long("intervals") => p.adapt_minutes = list(&parser.value()?.string()?, "--intervals")?,
            Long("swim-jobs") => swim_jobs = parser.value()?.parse()?,
            Long("seed") => p.seed = parser.value()?.parse()?,
            Short('o') => sweep_option("out", parser, &mut a)?,
            Long(name) if is_sweep_flag(name) => {
                let name = name.to_string();
                sweep_option(&name, parser, &mut a)?;
            }
            Value(v) if file.is_none() => file = Some(v.string()?),
            _ => return Err(arg.unexpected().into()),
        }
    }
    let mut swim = match &file {
        Some(path) => {
            import_loaded(path, &ImportOptions::default())?
                .data
                .workload
        }
        None => Vec::new(),
    };
    swim.truncate(swim_jobs);
    let s = ContentionSweep::new(p, swim, loads, queues);
    let spec = SweepSpec::Tuning(s.clone());
    let describe = |k: usize| match s.point(k) {
        Some((load, queues)) => format!("load={load} queues={queues}"),
        None => String::new(),
    };
    run_and_emit(&spec, &a, describe, table)
}

fn pct(x: Option<f64>) -> String {
    x.map_or_else(|| "–".into(), |v| format!("{:.1}", 100.0 * v))
}

fn times(x: Option<f64>) -> String {
    x.map_or_else(|| "–".into(), |v| format!("{v:.2}×"))
}

/// The sweep as a table: a row per cell, how much configurations differ
/// and how well the estimate picks.
fn table(r: &SweepResult) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:>4} {:>5} {:>6} {:>5} {:>9} {:>6} {:>6} {:>7} {:>7} {:>8} {:>8}",
        "cell",
        "load",
        "queues",
        "cases",
        "nonbest%",
        "hit%",
        "≤2%",
        "regret%",
        "random%",
        "§4.4 avg",
        "§4.4 best"
    );
    table_rows(&mut out, r, |outcome| match outcome {
        CellOutcome::Tuning(x) => Some(format!(
            "{:>5} {:>6} {:>5} {:>9} {:>6} {:>6} {:>7} {:>7} {:>8} {:>8}",
            x.load,
            x.queues,
            x.cases,
            pct(x.nonbest_increase),
            pct(x.hit_share),
            pct(x.within_2pct_share),
            pct(x.regret),
            pct(x.random_hit_share),
            times(x.reduction),
            times(x.reduction_vs_best)
        )),
        _ => None,
    });
    out.push_str("nonbest%: mean latency increase of the non-best configurations over the best (paper 52.9); hit%: the pick is the best (paper 87.3); ≤2%: within 2 %; regret%: mean increase of the pick; §4.4: static configurations' mean (best) latency over run-time tuning's (paper 2.16×)\n");
    out
}
