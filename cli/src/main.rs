//! `skyplan`: the command-line front end over the engine, for batch use.
//!
//! Every command reads its files here (the engine does no I/O), hands bytes
//! and parameters to the engine, and prints plain text or, with `--json`,
//! machine-readable output. Bad input gives a clear message and exit code 1;
//! bad usage exit code 2.

mod estimate_cmd;
mod fixtures_cmd;
mod forecast_cmd;
mod import_cmd;
mod plan_cmd;
mod quote_cmd;
mod replay_cmd;
mod simulate_cmd;
mod slo_cmd;

use lexopt::ValueExt;
use std::process::ExitCode;

const USAGE: &str = "\
skyplan — capacity planning from cluster traces

USAGE:
    skyplan import FILE... [--format F] [--lenient] [--json]
    skyplan fixtures [--seed N] [--out DIR] [--days D] [--daily N] [--hourly N]
    skyplan slo FILE... [--json]
    skyplan skyline FILE... [--job NAME] [--alpha A] [--step S]
                    [--variant paper|hadoop] [--solver flow|simplex] [--json]
    skyplan replay FILE... [--json]
    skyplan plan FILE... --capacity-cores N [--capacity-memory-mb M]
                 [--period SECS] [--step SECS] [--origin DATE|EPOCH]
                 [--method lowcost|greedy|earliest|all] [--min-parallelism X]
                 [--json] [--export-yarn OUT.json] [--queue NAME]
    skyplan estimate HISTORY [--job --map-tasks N --reduce-tasks N
                 --input-bytes B --shuffle-bytes B --output-bytes B
                 [--name NAME]] [--evaluate] [--level 0.95] [--json]
    skyplan quote HISTORY --map-tasks N --reduce-tasks N --input-bytes B
                 --shuffle-bytes B --output-bytes B [--name NAME]
                 | --map-work W [--reduce-work W] --mean-job-secs S
                 [--map-slots 80] [--reduce-slots 80] [--queue QUEUE.csv]
                 [--method gp|ols|same-job] [--level 0.95]
                 [--function mrm|exponential|quadratic|load-aware]
                 [--kappa 1] [--points 20] [--deadline D] [--json]
    skyplan simulate-pricing [--jobs N] [--interarrival 50,100,200]
                 [--alpha 2] [--kappa 2] [--ds-share 0.5] [--error-share X]
                 [--durations HISTORY.csv] [--charge-in-service]
                 [--charge-weight 1] [--seed N] [--json]
    skyplan forecast FILE... [--series S] [--method gp|arima|naive|all]
                 [--horizon K] [--window h] [--latest N] [--level X]
                 [--evaluate [--origins N]] [--json]
    skyplan help

COMMANDS:
    import     Read traces and print what was loaded, or every bad line.
               --format F   force a format: native-log, runs-csv,
                            utilization-csv, utilization-long-csv, swim-tsv,
                            job-history-csv (default: detected from the
                            content)
               --lenient    keep the good lines of a file with bad ones
               --json       print the workspace summary and errors as JSON
    fixtures   Write the deterministic demo workspace (runs.csv,
               utilization.csv, native.log).
               --seed N     random seed (default 7, the committed demo)
               --out DIR    output directory (default fixtures/demo)
               --days D --daily N --hourly N --adhoc N --servers N
                            a larger workload than the demo's 14 days,
                            8 daily, 4 hourly, 2 ad-hoc jobs, 24 servers
    slo        Recurring jobs with period, window [a, d] from the period
               start, actionable flag and the reason (Morpheus §4).
               --start-percentile P     earliest start percentile (95)
               --deadline-percentile P  deadline percentile (50)
               --max-read-cv X          read-time stability threshold (0.1)
               --min-slack X            median slack/runtime threshold (0.2)
    skyline    The LP reservation R* of one job, one line per step
               (Morpheus §5). --variant paper (α 0.01, 60 s, β = 0.1·V) or
               hadoop (α 0.1, 5 s, β 0.1, whole containers); --alpha and
               --step override; --min-parallelism (1; hadoop 0);
               --json adds the objective and the quality of R*, the peak
               and a flat p90 reservation.
    replay     Morpheus §9: replay the last 30% of each recurring job's
               runs against reservations built from the first 70%, for
               users' provisioning, SLO + packing, LP skylines, both, and
               both + dynamic reprovisioning (§7); SLO misses and the
               cluster size each needs. --train-share X (0.7),
               --user-factor X (1.3), --user-spread X (0.5), --rho X (2),
               --alpha X (0.01), --seed N, --json.
    plan       The reservation agenda (Morpheus §6): places YARN
               reservations (ResourceManager REST JSON: a submission, an
               array of them, or a list response) and SLO decisions (the
               studio's CSV or JSON export; counted in <1 core, 1024 MB>
               containers), periodic ones first, then one-offs, each in the
               order given; prints each reservation (method, start, window,
               peak containers, instances), the rejections with the step and
               resource, and the peak cost of LowCost, greedy and earliest
               on the same requests against the lower bound (LP when at
               most 5,000 variables).
               --capacity-cores N      the cluster's vcores (required: no
                                       capacity is assumed)
               --capacity-memory-mb M  its memory (default N × 4096)
               --period SECS           plan length, the LCM (86400)
               --step SECS             resolution (60)
               --origin DATE|EPOCH     the plan's start (default: the
                                       earliest arrival or reference, down
                                       to a multiple of --period: 00:00 UTC)
               --method M              the plan shown and exported (lowcost)
               --min-parallelism X     decisions' stages stretch down to X
                                       containers (1)
               --export-yarn OUT.json  write the plan as YARN submissions
               --queue NAME            their queue (default `default`)
    estimate   Processing-time estimates (MRM §3.2): mean, σ and prediction
               interval of a job's map and reduce phases by GP, OLS and the
               same job's past runs, learned from HISTORY — a job-history
               CSV, or a SWIM TSV turned into one by the documented
               processing-time model (--jobs N runs, default 1000; --seed N).
               --job --map-tasks N --reduce-tasks N --input-bytes B
               --shuffle-bytes B --output-bytes B [--name NAME]
                                       the job to estimate (--name for the
                                       same-job method)
               --evaluate              R², PI coverage / error and mean PI
                                       length per method on a seeded split
                                       (--train-share X, 0.5; --seed N)
               --level X               PI coverage (0.95)
               --features log|linear --targets log|linear   scales (log)
               --restarts N --hyper-subset N   GP search (2, 256)
               --min-runs N            same-job runs needed (2)
               --write-history OUT     write the history used as CSV
               --lenient --json
    quote      MRM's price–deadline curve for a new job (§4.2, §5): its
               estimate by every method (the one planned with marked *),
               its work = the method's PI upper bound × slots per phase
               (slot-seconds: the job occupies the cluster for its
               estimated duration, as in MRM), its earliest feasible finish
               against the admitted queue's lazy schedule (Figure 7) and
               the price of deadlines from there on.
               --map-slots N --reduce-slots N  the cluster (80, 80)
               --queue FILE            admitted jobs: CSV name,map_work,
                                       reduce_work,deadline (slot-seconds,
                                       seconds from now); none by default
               --method M --level X    estimate used (gp, 0.95)
               --map-work W --reduce-work W   the work directly, no
                                       estimate (needs --mean-job-secs)
               --function F --kappa K --z Z   price function (mrm, 1, 2)
               --mean-job-secs S       slack unit γ (default: the
                                       history's mean processing time)
               --reserve R --points N --span JOBS --quantum S
                                       curve settings (0.1, 20, 10, 1)
               --deadline D            the price of one chosen deadline
               --restarts N --lenient --json
    forecast   Utilization forecasts with prediction intervals (§III-A of
               the resource-shaping paper): GP with the history kernel,
               ARIMA with the order by AIC, last value, moving average,
               seasonal naive; --evaluate: MAE, RMSE, interval coverage
               and width on a rolling origin. `skyplan forecast --help`
               lists the options.
    simulate-pricing
               MRM §6.3: one server (M/G/1), delay-sensitive users paying
               up to α·p̂ and delay-tolerant ones p̂ for the earliest
               deadline they can afford under eq. (13); MRM (preemptive EDF
               on the committed deadlines) against FCFS and non-preemptive
               priority, jobs running for their actual time while the
               scheduler sees the 95 % PI upper limit. Per load and policy:
               tardy %, DS waiting, earliness, slack, premium, jump-ahead.
               --jobs N                Poisson arrivals simulated (500000)
               --interarrival S[,S…]   mean inter-arrival times, seconds
                                       (50,100,200: high, medium, low)
               --alpha A --kappa K     purchasing power and price scale (2, 2)
               --ds-share X            delay-sensitive share (0.5)
               --error-share X         σ of the estimation error / mean
                                       processing time (0.133: 4.8 s of 36 s)
               --pi-level X            share over-estimated (0.95)
               --gamma S               slack unit (mean estimated time)
               --mean-secs S           mean of the built-in Table 1 mix (36)
               --durations HISTORY     processing times from a
                                       job-history CSV (map + reduce secs)
               --charge-in-service     eq. (13) also charges for the slack
                                       of the job in service
               --charge-weight W       multiplies eq. (13)'s charge (1)
               --seed N --json
";

/// Writes a command's whole output to stdout at once. A closed pipe (as in
/// `skyplan skyline … | head`) is not an error.
pub fn emit(text: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
}

/// A command's failure: the message and the exit code.
pub struct Failure {
    message: String,
    code: u8,
}

impl Failure {
    /// Bad input (exit 1).
    pub fn input(message: impl Into<String>) -> Self {
        Failure {
            message: message.into(),
            code: 1,
        }
    }

    /// Bad usage (exit 2).
    pub fn usage(message: impl Into<String>) -> Self {
        Failure {
            message: format!("{}\n\n{USAGE}", message.into()),
            code: 2,
        }
    }
}

impl From<lexopt::Error> for Failure {
    fn from(e: lexopt::Error) -> Self {
        Failure::usage(e.to_string())
    }
}

fn run() -> Result<(), Failure> {
    let mut parser = lexopt::Parser::from_env();
    let command = match parser.next()? {
        Some(lexopt::Arg::Value(v)) => v.string()?,
        Some(lexopt::Arg::Long("help")) | Some(lexopt::Arg::Short('h')) | None => {
            print!("{USAGE}");
            return Ok(());
        }
        Some(other) => return Err(Failure::usage(format!("unexpected {}", other.unexpected()))),
    };
    match command.as_str() {
        "import" => import_cmd::run(&mut parser),
        "fixtures" => fixtures_cmd::run(&mut parser),
        "slo" => slo_cmd::slo(&mut parser),
        "skyline" => slo_cmd::skyline(&mut parser),
        "replay" => replay_cmd::run(&mut parser),
        "plan" => plan_cmd::run(&mut parser),
        "estimate" => estimate_cmd::run(&mut parser),
        "quote" => quote_cmd::run(&mut parser),
        "simulate-pricing" => simulate_cmd::run(&mut parser),
        "forecast" => forecast_cmd::run(&mut parser),
        "help" => {
            print!("{USAGE}");
            Ok(())
        }
        other => Err(Failure::usage(format!("unknown command `{other}`"))),
    }
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => {
            eprintln!("skyplan: {}", f.message);
            ExitCode::from(f.code)
        }
    }
}
