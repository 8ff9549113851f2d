//! `skyplan harvest regime`: where harvesting pays. YARN-H against YARN-PT
//! over servers per datacenter, primary levels, scalings, datacenters and
//! readings of RM-H's default placement — one paired run per cell and
//! seed (the engine's `harvest::HarvestRegime`), the cells spread over the
//! cores, printed per setting and, per size, as Figure 14's minimum,
//! average and maximum over the levels.

use super::figures::generate;
use crate::common::Failure;
use skyplan_engine::harvest::{
    paper_figures, summarize, HarvestRegime, MinAvgMax, RegimeRow, RegimeSummary, DATACENTERS,
};
use std::fmt::Write as _;

/// The grid's rows and their sums per setting.
#[derive(serde::Serialize)]
struct Report<'a> {
    grid: &'a HarvestRegime,
    rows: &'a [RegimeRow],
    summaries: &'a [RegimeSummary],
}

/// Runs every cell of `grid` on `threads` threads and prints the rows'
/// sums (or everything as JSON).
pub fn run(grid: &HarvestRegime, threads: usize, json: bool) -> Result<(), Failure> {
    grid.validate().map_err(Failure::refused)?;
    let cells: Vec<usize> = (0..grid.cells()).collect();
    let t0 = std::time::Instant::now();
    let rows = skyplan_engine::parallel::map_jobs(
        &cells,
        threads,
        || (),
        |_, &k| grid.run_cell(k, &generate),
        &mut |d, t| {
            if !json {
                eprint!("\r{d}/{t} cells");
            }
        },
    )
    .into_iter()
    .collect::<Result<Vec<_>, _>>()
    .map_err(Failure::refused)?;
    if !json {
        eprintln!(" in {:.1} s", t0.elapsed().as_secs_f64());
    }
    let summaries = summarize(&rows);
    crate::common::emit(&if json {
        crate::common::json(&Report {
            grid,
            rows: &rows,
            summaries: &summaries,
        })
    } else {
        text(grid, &summaries)
    });
    Ok(())
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
                (o.datacenter.clone(), o.servers, o.scaling.name(), o.placement) == key
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
