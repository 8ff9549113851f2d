//! `skyplan harvest figures`: §6's Figures 13 and 14 on ten generated
//! datacenters, ours beside the paper's. The datacenters are the engine's
//! `harvest::DATACENTERS`, fixed before any comparison was run and written
//! down in docs/harvest.md: each is the demo generator's §3 mix (about
//! 60 % constant, 25 % periodic tenants holding ~40 % of the servers, 15 %
//! unpredictable), its own seed and tenant count, its tenants' servers
//! rescaled to `servers` (`fixtures::regime_datacenter`, which the harvest
//! sweep's cells build too).

use crate::common::Failure;
use skyplan_engine::harvest::{
    figures, FiguresReport, JobDag, Scaling, SimParams, TenantSet, DATACENTERS,
};
use std::fmt::Write as _;

/// The first `n` datacenters, `days` days at `step_secs`, `servers` each.
pub fn datacenters(
    n: usize,
    days: f64,
    step_secs: i64,
    servers: usize,
) -> Vec<(String, TenantSet)> {
    let days = days.ceil().max(1.0) as u32;
    DATACENTERS
        .iter()
        .take(n)
        .map(|d| {
            (
                d.name.to_string(),
                skyplan_engine::fixtures::regime_datacenter(d, servers, days, step_secs),
            )
        })
        .collect()
}

/// Runs the figures and prints them (text or JSON).
pub fn run(
    dcs: &[(String, TenantSet)],
    jobs: &[JobDag],
    scalings: &[Scaling],
    p: &SimParams,
    json: bool,
) -> Result<(), Failure> {
    let t0 = std::time::Instant::now();
    let r = figures(dcs, jobs, scalings, p, &mut |d, t| {
        if !json {
            eprint!("\r{d}/{t} levels");
        }
    })
    .map_err(|e| Failure::input(e.to_string()))?;
    if !json {
        eprintln!(" in {:.1} s", t0.elapsed().as_secs_f64());
    }
    crate::common::emit(&if json {
        serde_json::to_string_pretty(&r).unwrap_or_default() + "\n"
    } else {
        text(&r, p)
    });
    Ok(())
}

fn text(r: &FiguresReport, p: &SimParams) -> String {
    let mut t = format!(
        "{} days, {} runs per level, levels {:?} %, batch load {:.0} %\n",
        p.days,
        p.runs,
        p.levels,
        100.0 * p.batch_load
    );
    if let Some(f) = r.figures.first() {
        let _ = writeln!(t, "\nFigure 13 ({}):", f.datacenter);
        let _ = writeln!(
            t,
            "{:<8} {:>6} {:>6} {:>10} {:>10} {:>10} {:>10} {:>22} {:>22}",
            "scaling",
            "level",
            "util%",
            "PT job s",
            "H job s",
            "PT kills",
            "H kills",
            "impr. % avg (min–max)",
            "H branches 1/n/none %"
        );
        for f in r.figures.iter().filter(|g| g.datacenter == f.datacenter) {
            for l in &f.levels {
                let _ = writeln!(
                    t,
                    "{:<8} {:>5.0}% {:>6.1} {:>10.0} {:>10.0} {:>10.0} {:>10.0} {:>8.1} ({:.1}–{:.1}) {:>10.0}/{:.0}/{:.0}",
                    f.scaling.name(),
                    l.level,
                    l.h.utilization.avg,
                    l.pt.avg_job_secs.avg,
                    l.h.avg_job_secs.avg,
                    l.pt.kills.avg,
                    l.h.kills.avg,
                    l.improvement.avg,
                    l.improvement.min,
                    l.improvement.max,
                    100.0 * l.h.branch_shares[0],
                    100.0 * l.h.branch_shares[1],
                    100.0 * l.h.branch_shares[2]
                );
            }
        }
    }
    let _ = writeln!(
        t,
        "\nFigure 14: improvement over the levels, % (min / avg / max of the levels' averages)"
    );
    let _ = writeln!(
        t,
        "{:<6} {:>8} {:>8} {:<8} {:>8} {:>8} {:>8} {:>14}",
        "dc", "servers", "tenants", "scaling", "min", "avg", "max", "H single-class"
    );
    for f in &r.figures {
        let single: f64 = f.levels.iter().map(|l| l.h.branch_shares[0]).sum::<f64>()
            / f.levels.len().max(1) as f64;
        let _ = writeln!(
            t,
            "{:<6} {:>8} {:>8} {:<8} {:>8.1} {:>8.1} {:>8.1} {:>13.0}%",
            f.datacenter,
            f.servers,
            f.tenants,
            f.scaling.name(),
            f.improvement.min,
            f.improvement.avg,
            f.improvement.max,
            100.0 * single
        );
    }
    let _ = writeln!(
        t,
        "paper (Figure 14): average improvement {} linear, {} root; maxima {}",
        r.paper.linear_avg_improvement, r.paper.root_avg_improvement, r.paper.max_improvement
    );
    t
}
