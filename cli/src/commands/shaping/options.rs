//! The settings of one shaping run as the command line gives them: what
//! `skyplan shape` and `skyplan sweep shaping` share, so a sweep's cell is
//! the run `shape simulate` makes with the same options.

use crate::common::Failure;
use skyplan_engine::shaping::{Arrivals, Params, Policy, Predictor, PreemptOn, Spread, UsageModel};

/// The long options [`params_option`] reads.
pub const PARAMS_FLAGS: &[&str] = &[
    "apps",
    "hosts",
    "host-cpu",
    "host-mem",
    "load",
    "seed",
    "preempt-on",
    "arrivals",
    "rigid-share",
    "usage",
    "predictor",
    "policy",
    "k1",
    "k2",
    "spread",
    "grace",
    "history",
    "refit-every",
    "gp-window",
    "max-crashes",
    "timeline-app",
];

/// Whether `--name` is one of [`PARAMS_FLAGS`].
pub fn is_params_flag(name: &str) -> bool {
    PARAMS_FLAGS.contains(&name)
}

/// Reads the value of `--name` (one of [`PARAMS_FLAGS`]) into `p`.
pub fn params_option(
    name: &str,
    parser: &mut lexopt::Parser,
    p: &mut Params,
) -> Result<(), Failure> {
    use lexopt::prelude::*;
    match name {
        "apps" => p.workload.apps = parser.value()?.parse()?,
        "hosts" => p.hosts = parser.value()?.parse()?,
        "host-cpu" => p.host_cpu = parser.value()?.parse()?,
        "host-mem" => p.host_mem = parser.value()?.parse()?,
        "load" => p.workload.load = parser.value()?.parse()?,
        "seed" => p.workload.seed = parser.value()?.parse()?,
        "preempt-on" => {
            p.preempt_on = match parser.value()?.string()?.as_str() {
                "cpu-and-memory" => PreemptOn::CpuAndMemory,
                "memory" => PreemptOn::Memory,
                other => {
                    return Err(Failure::usage(format!(
                        "--preempt-on {other}: give cpu-and-memory or memory"
                    )))
                }
            }
        }
        "arrivals" => p.workload.arrivals = arrivals(&parser.value()?.string()?)?,
        "rigid-share" => p.workload.rigid_share = parser.value()?.parse()?,
        "usage" => {
            p.workload.model = match parser.value()?.string()?.as_str() {
                "reference" => UsageModel::Reference,
                "plateau" => UsageModel::Plateau,
                other => {
                    return Err(Failure::usage(format!(
                        "--usage {other}: give reference or plateau"
                    )))
                }
            }
        }
        "predictor" => p.predictor = predictor(&parser.value()?.string()?)?,
        "policy" => p.policy = policy(&parser.value()?.string()?)?,
        "k1" => p.k1 = parser.value()?.parse()?,
        "k2" => p.k2 = parser.value()?.parse()?,
        "spread" => {
            p.spread = match parser.value()?.string()?.as_str() {
                "std" => Spread::StdDev,
                "variance" => Spread::Variance,
                other => {
                    return Err(Failure::usage(format!(
                        "--spread must be std or variance, not `{other}`"
                    )))
                }
            }
        }
        "grace" => p.grace_minutes = parser.value()?.parse()?,
        "history" => p.history = parser.value()?.parse()?,
        "refit-every" => p.refit_every = parser.value()?.parse()?,
        "gp-window" => p.gp_window = parser.value()?.parse()?,
        "max-crashes" => p.max_crashes = parser.value()?.parse()?,
        "timeline-app" => p.timeline_app = Some(parser.value()?.string()?),
        _ => return Err(Failure::usage(format!("--{name} is not a shaping setting"))),
    }
    Ok(())
}

/// A forecaster by its command-line name.
pub fn predictor(s: &str) -> Result<Predictor, Failure> {
    match s {
        "oracle" => Ok(Predictor::Oracle),
        "arima" => Ok(Predictor::Arima),
        "gp" => Ok(Predictor::Gp),
        other => Err(Failure::usage(format!(
            "--predictor must be oracle, arima or gp, not `{other}`"
        ))),
    }
}

/// A policy by its command-line name.
pub fn policy(s: &str) -> Result<Policy, Failure> {
    match s {
        "pessimistic" => Ok(Policy::Pessimistic),
        "optimistic" => Ok(Policy::Optimistic),
        "reservation" => Ok(Policy::Reservation),
        other => Err(Failure::usage(format!(
            "--policy must be pessimistic, optimistic or reservation, not `{other}`"
        ))),
    }
}

/// An arrival pattern by its command-line name.
pub fn arrivals(s: &str) -> Result<Arrivals, Failure> {
    match s {
        "model" => Ok(Arrivals::Model),
        "bursty" => Ok(Arrivals::Bursty),
        "spread" => Ok(Arrivals::Spread),
        other => Err(Failure::usage(format!(
            "--arrivals must be model, bursty or spread, not `{other}`"
        ))),
    }
}
