//! `skyplan sweep`: independent runs over a grid of settings and seeds —
//! where a lever pays against its regime — on every core, one cell alone
//! (`--cell K`, for a batch engine's task), or pieces merged into the whole
//! (`skyplan sweep merge`). The part's own folder builds its spec
//! (`shaping/sweep.rs`); `crate::sweep` runs and prints it.

pub mod merge;

use super::{harvest, shaping, tuning};
use crate::common::Failure;

/// `skyplan sweep --help`.
pub const HELP: &str = "\
skyplan sweep — a lever's benefit against its regime: independent runs
over a grid of settings and seeds

USAGE:
    skyplan sweep shaping [SHAPE SIMULATE'S OPTIONS] [--loads LIST]
                  [--arrivals LIST] [--configs LIST] [--seeds LIST]
                  [SWEEP OPTIONS]
    skyplan sweep harvest [--servers LIST] [--levels LIST] [--scaling LIST]
                  [--dcs LIST] [--placements LIST] [--seeds LIST]
                  [HARVEST'S SIM OPTIONS] [SWEEP OPTIONS]
    skyplan sweep tuning [SWIM] [--loads LIST] [--queues LIST] [OPTIONS]
                  [SWEEP OPTIONS]
    skyplan sweep merge FILE... [--json | --csv] [-o FILE] [--partial]

A sweep's cells are numbered from 0 (`--cells` lists them); each is a
pure function of the sweep's settings and its number, so running cells on
separate machines (`--cell K --json -o cell-K.json`, e.g. as a Kubernetes
Indexed Job or a Slurm job array) and merging the files gives exactly the
whole sweep's JSON.

shaping: every cell generates the workload at its settings and runs the
reservation baseline and the shaped run, as `skyplan shape simulate` does
with the same options — a cell's turnaround_speedup is that command's at
that --load. Cells are every combination, loads outermost.
    --loads LIST        offered loads: requested core-seconds over the
                        cluster's (default: --load's, 1.3)
    --arrivals LIST     model, bursty, spread (default model)
    --configs LIST      forecaster configurations, each
                        PREDICTOR[/POLICY[/K1/K2]], e.g.
                        oracle/pessimistic,oracle/optimistic,arima/pessimistic/0.5/3
                        (default: --predictor, --policy, --k1, --k2)
    --seeds LIST        workload seeds (default: --seed's, 7)
    SHAPE SIMULATE'S OPTIONS   --apps, --hosts, --host-cpu, --host-mem,
                        --usage, --rigid-share, --predictor, --policy,
                        --k1, --k2, --spread, --grace, --history,
                        --refit-every, --gp-window, --preempt-on,
                        --max-crashes: what every cell starts from
                        (`skyplan help shape`)

harvest: every cell generates one of Figures 13–14's datacenters at its
size and runs YARN-PT and YARN-H on the same arrivals (one seed), as
`skyplan harvest figures` does for one size: improvement (1 − H's mean
job time / PT's, %), both systems' job times, kills, unfinished jobs,
utilization, Algorithm 1's branch shares, kills by branch and by class
pattern, and the share of servers with no free core. Cells are every
combination, servers outermost, then levels, scalings, datacenters,
placements, seeds.
    --servers LIST      servers per datacenter (default
                        1000,2000,5000,10000,20000)
    --levels LIST       target average primary utilization, % (default
                        10,20,30,40,50)
    --scaling LIST      linear, root (square root) or root:N (default
                        linear,root)
    --dcs LIST          datacenters, DC-0 … DC-9 or 0–9 (default DC-0)
    --placements LIST   RM-H's default placement for requests naming no
                        class: heartbeat, proportional, fill (default
                        heartbeat; docs/harvest.md)
    --seeds LIST        run seeds (default: --seed … --seed + --runs − 1,
                        one seed)
    HARVEST'S SIM OPTIONS   --days (default 7), --step (default 120),
                        --tpcds (default 52), --batch-load, --cores,
                        --interarrival, --duration-scale,
                        --scale-counts-only, --short, --long, --reserved
                        … (`skyplan help harvest`)
tuning: every cell is `skyplan tune evaluate` (§4.3 and §4.4, Capacity
and Fair) at one mix load and queue count: how much the configurations
differ (non-best increase; paper 52.9 %), exact hits, within 2 %, regret
(the pick's mean increase) and §4.4's reduction. Cells are every
combination, loads outermost. Without SWIM: Google-like mixes only, no
§4.4.
    --loads LIST        mix loads: task work over span, × the containers,
                        for §4.3's mixes and §4.4's stream (default 1.5)
    --queues LIST       queue counts, 1–8 (default 2,4)
    --windows N         SWIM windows (default 3), --google-mixes N (6),
    --jobs N            jobs per mix (12), --repeats N (1), --max-tasks N
                        (4096), --adapt-jobs N (60), --intervals LIST
                        (§4.4's minutes, 2), --seed N (7)
    --swim-jobs N       the SWIM file's first N jobs are the sweep's
                        (default 240; carried in the sweep's JSON)

merge: joins pieces of one sweep (the JSON `--cell` wrote) into one
result, rows in cell order. Pieces of different sweeps, or one cell with
two different results, are refused; so is a merge missing cells, unless
--partial.
    --partial           print what the pieces hold even if cells are
                        missing (they are listed on stderr)

SWEEP OPTIONS (every part):
    --threads N         threads (default 0: every core)
    --cells             print each cell's settings, one a line, and the
                        number of cells as the last line; run nothing
    --cell K[,K…]       run these cells only (numbered from 0)
    --json              print the result as JSON (`rows`: one per cell)
    --csv               print the result as CSV
    -o, --out FILE      also write the result to FILE: CSV when FILE ends
                        in .csv, JSON otherwise
    -h, --help          print this help
";

/// `skyplan sweep PART …`.
pub fn run(parser: &mut lexopt::Parser) -> Result<(), Failure> {
    use lexopt::prelude::*;
    match parser.next()? {
        Some(Value(v)) if v == "shaping" => shaping::sweep::run(parser),
        Some(Value(v)) if v == "harvest" => harvest::cycles::sweep(parser),
        Some(Value(v)) if v == "tuning" => tuning::sweep::run(parser),
        Some(Value(v)) if v == "merge" => merge::run(parser),
        Some(Value(v)) => Err(Failure::usage(format!(
            "sweep: `{}` is not a sweep; give shaping, harvest, tuning or merge",
            v.to_string_lossy()
        ))),
        _ => Err(Failure::usage(
            "sweep: give shaping, harvest, tuning or merge",
        )),
    }
}
