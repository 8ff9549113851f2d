//! `skyplan sweep harvest`: where harvesting pays. YARN-H against YARN-PT
//! over servers per datacenter, primary levels, scalings, datacenters and
//! readings of RM-H's default placement — one paired run per cell (the
//! engine's `harvest::HarvestRegime`, run as `SweepSpec::Harvest` by
//! `crate::sweep_run`), printed per setting and, per size, as Figure 14's
//! minimum, average and maximum over the levels.

use crate::common::Failure;
use crate::sweep_run::{run_and_emit, SweepArgs};
use skyplan_engine::harvest::{
    paper_figures, summarize, HarvestRegime, MinAvgMax, RegimeRow, RegimeSummary, DATACENTERS,
};
use skyplan_engine::sweep::{CellOutcome, SweepResult, SweepSpec};
use std::fmt::Write as _;

/// Runs `grid` as the sweep options `a` say and prints it.
pub fn run(grid: HarvestRegime, a: &SweepArgs) -> Result<(), Failure> {
    let spec = SweepSpec::Harvest(grid.clone());
    let describe = |k: usize| match grid.point(k) {
        Some(p) => format!(
            "servers={} level={} scaling={} dc={} placement={} seed={}",
            p.servers,
            p.level,
            p.scaling.name(),
            DATACENTERS[p.datacenter].name,
            p.placement.name(),
            p.seed
        ),
        None => String::new(),
    };
    run_and_emit(&spec, a, describe, |r| table(&grid, r))
}

/// The finished cells summed up per setting, and the failed ones.
fn table(grid: &HarvestRegime, r: &SweepResult) -> String {
    let rows: Vec<RegimeRow> = r
        .rows
        .iter()
        .filter_map(|row| match &row.outcome {
            CellOutcome::Harvest(x) => Some(x.clone()),
            _ => None,
        })
        .collect();
    let failed: String = r
        .rows
        .iter()
        .filter_map(|row| {
            Some(format!(
                "cell {} failed: {}\n",
                row.cell,
                row.outcome.error()?
            ))
        })
        .collect();
    let mut t = text(grid, &summarize(&rows));
    t.push_str(&failed);
    if !r.is_complete() {
        let _ = writeln!(t, "{} of {} cells run", r.rows.len(), r.cells);
    }
    t
}

fn text(grid: &HarvestRegime, sums: &[RegimeSummary]) -> String {
    let mut t = format!(
        "{} days, {} seed(s) per setting, batch load {:.0} %, {} job templates\n\n",
        grid.base.days,
        grid.seeds.len(),
        100.0 * grid.base.batch_load,
        grid.templates
    );
    let _ = writeln!(
        t,
        "{:<5} {:>7} {:<7} {:<12} {:>5} {:>9} {:>9} {:>9} {:>9} {:>22} {:>16} {:>11} {:>9}",
        "dc",
        "servers",
        "scaling",
        "placement",
        "level",
        "PT job s",
        "H job s",
        "PT kills",
        "H kills",
        "impr. % avg (min–max)",
        "H 1/n/none %",
        "full PT/H %",
        "unfin.",
    );
    for s in sums {
        let _ = writeln!(
            t,
            "{:<5} {:>7} {:<7} {:<12} {:>4.0}% {:>9.0} {:>9.0} {:>9.0} {:>9.0} {:>8.1} ({:.1}–{:.1}) {:>16} {:>11} {:>9}",
            s.datacenter,
            s.servers,
            s.scaling.name(),
            s.placement.name(),
            s.level,
            s.job_secs[0],
            s.job_secs[1],
            s.kills[0],
            s.kills[1],
            s.improvement.avg,
            s.improvement.min,
            s.improvement.max,
            format!(
                "{:.0}/{:.0}/{:.0}",
                s.h_branches[0], s.h_branches[1], s.h_branches[2]
            ),
            format!("{:.0}/{:.0}", s.full_servers[0], s.full_servers[1]),
            format!("{}/{}", s.unfinished[0], s.unfinished[1]),
        );
    }
    let _ = writeln!(
        t,
        "\nOver the levels (Figure 14: min / avg / max of the levels' average improvements, %):"
    );
    let mut seen = Vec::new();
    for s in sums {
        let key = (
            s.datacenter.clone(),
            s.servers,
            s.scaling.name(),
            s.placement,
        );
        if seen.contains(&key) {
            continue;
        }
        let avgs: Vec<f64> = sums
            .iter()
            .filter(|o| {
                (
                    o.datacenter.clone(),
                    o.servers,
                    o.scaling.name(),
                    o.placement,
                ) == key
            })
            .map(|o| o.improvement.avg)
            .collect();
        let m = MinAvgMax::of(&avgs);
        let _ = writeln!(
            t,
            "{:<5} {:>7} {:<7} {:<12} {:>6.1} {:>6.1} {:>6.1}",
            key.0,
            key.1,
            key.2,
            key.3.name(),
            m.min,
            m.avg,
            m.max
        );
        seen.push(key);
    }
    let paper = paper_figures();
    let _ = writeln!(
        t,
        "paper (Figure 14): average improvement {} linear, {} root; maxima {}",
        paper.linear_avg_improvement, paper.root_avg_improvement, paper.max_improvement
    );
    t
}

/// A datacenter named `DC-N` or given by its index.
pub fn parse_datacenter(s: &str) -> Result<usize, Failure> {
    let s = s.trim();
    DATACENTERS
        .iter()
        .position(|d| d.name.eq_ignore_ascii_case(s))
        .or_else(|| s.parse::<usize>().ok().filter(|&i| i < DATACENTERS.len()))
        .ok_or_else(|| Failure::usage(format!("--dcs: `{s}` is not DC-0 … DC-9 or 0–9")))
}
