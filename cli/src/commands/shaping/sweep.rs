//! `skyplan sweep shaping`: where shaping pays — the baseline against the
//! shaped run over offered loads (and arrival patterns, forecaster
//! configurations, seeds), every cell the run `shape simulate` makes with
//! the same options.

use super::options::{arrivals, is_params_flag, params_option, policy, predictor};
use crate::common::Failure;
use crate::sweep_run::{is_sweep_flag, list, run_and_emit, sweep_option, table_rows, SweepArgs};
use skyplan_engine::shaping::{Config, LoadSweep, Params};
use skyplan_engine::sweep::{CellOutcome, SweepResult, SweepSpec};
use std::fmt::Write as _;

/// One configuration: `predictor[/policy[/k1/k2]]`, the rest from `base`.
fn config(text: &str, base: &Params) -> Result<Config, Failure> {
    let parts: Vec<&str> = text.split('/').map(str::trim).collect();
    let mut c = Config::of(base);
    c.predictor = predictor(parts[0])?;
    if let Some(p) = parts.get(1) {
        c.policy = policy(p)?;
    }
    match parts.len() {
        1 | 2 => {}
        4 => {
            let num = |s: &str, what: &str| {
                s.parse::<f64>()
                    .map_err(|_| Failure::usage(format!("--configs: {what} `{s}` in `{text}`")))
            };
            c.k1 = num(parts[2], "K1")?;
            c.k2 = num(parts[3], "K2")?;
        }
        _ => {
            return Err(Failure::usage(format!(
                "--configs: `{text}` is not PREDICTOR[/POLICY[/K1/K2]]"
            )))
        }
    }
    Ok(c)
}

/// `skyplan sweep shaping …` (after the part's name).
pub fn run(parser: &mut lexopt::Parser) -> Result<(), Failure> {
    use lexopt::prelude::*;
    let mut base = Params::default();
    let mut a = SweepArgs::default();
    let (mut loads, mut arrivals_list, mut configs, mut seeds) = (None, None, None, None);
    while let Some(arg) = parser.next()? {
        match arg {
            Long("loads") => loads = Some(list::<f64>(&parser.value()?.string()?, "--loads")?),
            Long("arrivals") => {
                let text = parser.value()?.string()?;
                arrivals_list = Some(
                    text.split(',')
                        .map(|s| arrivals(s.trim()))
                        .collect::<Result<Vec<_>, _>>()?,
                );
            }
            Long("configs") => configs = Some(parser.value()?.string()?),
            Long("seeds") => seeds = Some(list::<u64>(&parser.value()?.string()?, "--seeds")?),
            Short('o') => sweep_option("out", parser, &mut a)?,
            Long(name) if is_sweep_flag(name) => {
                let name = name.to_string();
                sweep_option(&name, parser, &mut a)?;
            }
            Long(name) if is_params_flag(name) => {
                let name = name.to_string();
                params_option(&name, parser, &mut base)?;
            }
            _ => return Err(arg.unexpected().into()),
        }
    }
    let mut s = LoadSweep::over_loads(
        base.clone(),
        loads.unwrap_or_else(|| vec![base.workload.load]),
    );
    if let Some(list) = arrivals_list {
        s.arrivals = list;
    }
    if let Some(text) = configs {
        s.configs = text
            .split(',')
            .map(|c| config(c, &base))
            .collect::<Result<_, _>>()?;
    }
    if let Some(list) = seeds {
        s.seeds = list;
    }
    let spec = SweepSpec::Shaping(s.clone());
    let describe = |k: usize| match s.point(k) {
        Some(p) => format!(
            "load={} arrivals={} config={} seed={}",
            p.load,
            p.arrivals.name(),
            p.config.label(),
            p.seed
        ),
        None => String::new(),
    };
    run_and_emit(&spec, &a, describe, table)
}

/// The sweep as a table: a row per cell, the speed-up and what it cost.
fn table(r: &SweepResult) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:>4} {:>5} {:>7} {:<30} {:>5} {:>7} {:>8} {:>8} {:>7} {:>7} {:>6}",
        "cell",
        "load",
        "arrive",
        "config",
        "seed",
        "queue×",
        "speedup",
        "failed%",
        "wasted%",
        "p99 ×",
        "alloc%"
    );
    table_rows(&mut out, r, |outcome| match outcome {
        CellOutcome::Shaping(x) => {
            // How saturated the reserved cluster is: mean turnaround
            // over mean runtime (1: nobody waits).
            let queue = x.baseline_mean_turnaround_s / x.mean_runtime_s.max(1e-9);
            let cfg = Config {
                predictor: x.predictor,
                policy: x.policy,
                k1: x.k1,
                k2: x.k2,
            };
            Some(format!(
                "{:>5} {:>7} {:<30} {:>5} {:>7.2} {:>7.2}× {:>8.1} {:>7.1} {:>7.2} {:>6.1}",
                x.load,
                x.arrivals.name(),
                cfg.label(),
                x.seed,
                queue,
                x.turnaround_speedup,
                x.failed_apps_pct,
                x.wasted_pct,
                x.worst_off_p99,
                x.baseline_allocated_cpu_pct
            ))
        }
        _ => None,
    });
    out.push_str("queue×: baseline mean turnaround over mean runtime (1: nobody waits); alloc%: the baseline's mean share of cores allocated\n");
    out
}
