//! `skyplan runway`: how long the cluster lasts, what to add and when, and
//! what each lever buys instead (`plan.rs`); `skyplan runway backtest`:
//! the growth model against real series (`backtest.rs`).

pub mod backtest;
pub mod plan;

use crate::common::Failure;
use skyplan_engine::runway::{ScaleChoice, SeasonChoice};

/// `skyplan runway --help`.
pub const HELP: &str = "\
skyplan runway — when the cluster runs out, how many machines to add by
when, and what reservations, shaping, harvesting and tuning buy instead

USAGE:
    skyplan runway [BUNDLE | FILE...] [--decisions F] [--queue F]
                   [--growth fitted|P%] [--tenant N@DATE]...
                   [--target F | --target RESOURCE=F]...
                   [--horizon DAYS] [--purchase-horizon DAYS]
                   [--machines N] [--machine-cores C] [--queue-limit SECS]
                   [--season auto|none|N] [--scale auto|level|log] [--json]
    skyplan runway backtest FILE... [--rises LIST] [--min-history DAYS]
                   [--cut-every DAYS] [--per day|sample]
                   [--horizon DAYS] [--season auto|none|N]
                   [--scale auto|level|log] [--json]

With no input it plans the demo workspace built into skyplan (the same
as `skyplan bundle`'s, from any directory); a BUNDLE (.skyplan) is read
with its panels' settings (the Runway panel's growth and headroom among
them, overridden by the options given); FILEs are trace files (the
cluster's utilization series), with SLO decisions and a pricing queue.

For each limit — a resource's daily peak over its headroom target, the
agenda no longer placing every signed-off SLO by its deadline (LowCost)
as the recurring jobs grow, the pricing queue's earliest feasible finish
past its limit — the date it is reached, P10/P50/P90 from the growth
model's interval (\"beyond the horizon\": not reached); the binding limit;
the fewest machines to add, by date, to keep every limit for the purchase
horizon (P50 and P90 plans); the lever table at the grown load. Growth is
fitted on the cluster's daily peaks (auto-ARIMA, with a weekly or yearly
cycle where the peaks show one; it says how many days it saw, which
season it used, and which dates extrapolate past that) or set by hand.

OPTIONS:
    --decisions F        SLO decisions (with FILEs), admitted by LowCost
    --queue F            a pricing queue (with FILEs)
    --growth G           fitted (default) or P% a month, e.g. 3% or -2%
                         (above -100 %, at most 100 %)
    --tenant N@DATE      a new tenant of N cores from DATE (YYYY-MM-DD);
                         repeatable; negative N: a tenant leaving
    --target F           headroom target, a fraction (default 0.8);
                         RESOURCE=F for one resource (cpu=0.7)
    --horizon DAYS       how far to look (default 180; 180d accepted)
    --purchase-horizon DAYS   keep every limit this long (default 180,
                         at most the horizon)
    --machines N         the cluster's machines (default: one per server
                         series)
    --machine-cores C    cores of a machine to add (default: the
                         cluster's own, its cores over its machines)
    --queue-limit SECS   the queue's limit (default: twice today's earliest
                         feasible finish of a job of its mean size)
    --season S           the fitted growth's cycle: auto (default: a week
                         or a year, where three of them in the daily peaks
                         show it), none, or a period N in days (at least
                         2, at most half the history)
    --scale S            the scale of the fitted trend: auto (default: the
                         log when every peak is above 0 and the history's
                         spread grows with its level, by Guerrero's
                         criterion), level (growth by an amount) or log
                         (compound growth; every peak above 0)
    --json               print JSON: binding, limits (name, p10, p50, p90:
                         dates or null), purchases (date, machines),
                         purchases_p90, levers

backtest: cuts each series' daily peaks at every day after the first
--min-history days (default 7), forecasts when it crosses each level
(1 + rise) × the highest peak seen that it really crossed later, and
scores the fitted model and the planners' rule (a least-squares line on
daily peaks, with its prediction interval) on the same cases: coverage
(share of true crossings inside P10–P90, nominal 80 %) and median error
(|predicted − true| / true time to crossing).
    --rises LIST         rises over the highest peak seen (default
                         0.02,0.05,0.1,0.2)
    --min-history DAYS   days before the first cut (default 7)
    --cut-every DAYS     days between cuts (default 1)
    --per day|sample     day: daily peaks (default); sample: each sample
                         of the series is one period, for series sampled
                         weekly or monthly (every count above is then in
                         samples, not days)
    --horizon DAYS       days a forecast looks ahead (default 365; a
                         median never reaching the level counts as this)
    --season S           the fitted model's cycle: auto (default: the
                         calendar's week or year in the series' steps —
                         with --per sample, the year is 52 weekly or 12
                         monthly samples — where the history shows it),
                         none (the trend alone), or a period N in steps
    --scale S            the fitted trend's scale: auto (default: chosen in
                         each cut's history by how its spread grows with
                         its level), level (the model before the choice)
                         or log (compound growth; every sample above 0)
    --json               print JSON: coverage, median_error, baseline
                         {coverage, median_error}, per series

    -h, --help           print this help
";

/// Runs `skyplan runway`: `backtest` first, or the runway.
pub fn run(parser: &mut lexopt::Parser) -> Result<(), Failure> {
    let mut raw: Vec<std::ffi::OsString> = parser.raw_args()?.collect();
    if raw.first().is_some_and(|a| a == "backtest") {
        raw.remove(0);
        backtest::run(&mut lexopt::Parser::from_args(raw))
    } else {
        plan::run(&mut lexopt::Parser::from_args(raw))
    }
}

/// A season from `auto`, `none` or a period `N` (at least 2).
pub fn season(text: &str) -> Result<SeasonChoice, Failure> {
    let choice = match text {
        "auto" => SeasonChoice::Auto,
        "none" => SeasonChoice::Off,
        n => SeasonChoice::Period(n.parse::<usize>().map_err(|_| {
            Failure::usage(format!(
                "--season: auto, none or a period in steps (7: a week of daily peaks), got `{text}`"
            ))
        })?),
    };
    choice
        .validate()
        .map_err(|e| Failure::usage(format!("--{e}")))?;
    Ok(choice)
}

/// A scale from `auto`, `level` or `log`.
pub fn scale(text: &str) -> Result<ScaleChoice, Failure> {
    match text {
        "auto" => Ok(ScaleChoice::Auto),
        "level" => Ok(ScaleChoice::Level),
        "log" => Ok(ScaleChoice::Log),
        _ => Err(Failure::usage(format!(
            "--scale: auto, level or log, got `{text}`"
        ))),
    }
}

/// Days from `180`, `180d`.
pub fn days(text: &str, what: &str) -> Result<u32, Failure> {
    text.trim_end_matches('d')
        .parse::<u32>()
        .map_err(|_| Failure::usage(format!("{what}: a whole number of days, got `{text}`")))
}
