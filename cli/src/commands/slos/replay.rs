//! `skyplan replay`: the Morpheus §9 comparison — SLO misses and cluster
//! size for users' provisioning against inferred SLOs, LP skylines, LowCost
//! and dynamic reprovisioning, with the breakdown of Fig. 10a.

use crate::common::Failure;
use crate::input::with_runs;
use skyplan_engine::agenda::{evaluate, EvalParams, EvalReport};
use std::fmt::Write as _;

/// `skyplan replay --help`.
pub const HELP: &str = "\
skyplan replay — SLO misses and cluster size, users against Morpheus (§9)

USAGE:
    skyplan replay FILE... [--train-share X] [--user-factor X]
                   [--user-spread X] [--rho X] [--alpha X] [--seed N] [--optimize] [--json]

Splits each recurring job's runs (those with an actionable SLO) by time,
builds reservations from the first ones and replays the rest against them,
for users' provisioning, SLO + packing, LP skylines, both, and both with
dynamic reprovisioning (§7); prints the SLO misses and the cluster size each
configuration needs.

OPTIONS:
    --train-share X  share of each job's runs that trains (default 0.7)
    --user-factor X  median of the users' provisioning factor (default 1.3)
    --user-spread X  σ of that factor's logarithm (default 0.5)
    --rho X          dynamic reprovisioning's fudge factor ρ (default 2)
    --alpha X        the LP skylines' α (default 0.01)
    --seed N         seed of the user model (default 7)
    --optimize       size the cluster after the batch optimizer re-places
                     the packed reservations (Morpheus + optimization)
    --json           print the evaluation as JSON
    -h, --help       print this help
";

/// Runs `skyplan replay`.
pub fn run(parser: &mut lexopt::Parser) -> Result<(), Failure> {
    use lexopt::prelude::*;
    let mut files = Vec::new();
    let mut json = false;
    let mut params = EvalParams::default();
    while let Some(arg) = parser.next()? {
        match arg {
            Long("json") => json = true,
            Long("train-share") => params.train_share = parser.value()?.parse()?,
            Long("user-factor") => params.user_factor = parser.value()?.parse()?,
            Long("user-spread") => params.user_spread = parser.value()?.parse()?,
            Long("rho") => params.reprovision.rho = parser.value()?.parse()?,
            Long("alpha") => params.model.alpha = parser.value()?.parse()?,
            Long("seed") => params.seed = parser.value()?.parse()?,
            Long("optimize") => params.optimize = true,
            Value(v) => files.push(v.string()?),
            _ => return Err(arg.unexpected().into()),
        }
    }
    let report = with_runs(&files, |runs| evaluate(runs, &params))?;
    crate::common::emit_report(json, &report, |r| text(r, params.train_share));
    Ok(())
}

/// The evaluation as a table of configurations, and Morpheus against the
/// users.
fn text(report: &EvalReport, train_share: f64) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} recurring jobs with actionable SLOs; {}% of each job's runs train, the rest are replayed.\n",
        report.jobs.len(),
        (train_share * 100.0).round()
    );
    let _ = writeln!(
        out,
        "{:<30} {:>8} {:>7} {:>9} {:>13} {:>9}",
        "configuration", "misses", "runs", "miss %", "cluster cores", "rejected"
    );
    for s in &report.scenarios {
        let _ = writeln!(
            out,
            "{:<30} {:>8} {:>7} {:>8.1}% {:>13.0} {:>9}",
            s.name,
            s.misses,
            s.runs,
            100.0 * s.misses as f64 / s.runs.max(1) as f64,
            s.cluster_cores,
            s.rejected
        );
    }
    let factor = if report.miss_reduction.is_finite() {
        format!("{:.1}×", report.miss_reduction)
    } else {
        "∞ (no misses)".into()
    };
    let _ = writeln!(
        out,
        "\nMorpheus vs users: {factor} fewer SLO misses (paper: 5–13×), {:.0}% smaller cluster (paper: 14–28%).",
        100.0 * report.footprint_reduction
    );
    out
}
