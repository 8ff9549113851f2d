//! `skyplan quote`: MRM's price–deadline negotiation for one new job (§4.2,
//! §5) — its processing-time estimate with a prediction interval, the work
//! planned from the interval's upper bound, its earliest feasible finish
//! against an admitted queue (lazy schedule, Figure 7) and the price of each
//! later deadline.

use super::job::{estimate_table, load, secs, JobArgs};
use crate::common::Failure;
use skyplan_engine::estimate::{EstimateParams, Estimator, HistoryParams, Method};
use skyplan_engine::import::read_queue_csv;
use skyplan_engine::model::JobFeatures;
use skyplan_engine::pricing::{
    job_work, mean_processing_secs, price_at, quote, JobWork, PriceFunction, PriceParams,
    PricePoint, QueuedJob, Quote, Slots,
};
use std::fmt::Write as _;

/// `skyplan quote --help`.
pub const HELP: &str = "\
skyplan quote — the price–deadline curve of a new job (MRM §4.2, §5)

USAGE:
    skyplan quote HISTORY --map-tasks N --reduce-tasks N --input-bytes B
                  --shuffle-bytes B --output-bytes B [--name NAME] [OPTIONS]
    skyplan quote [HISTORY] --map-work W [--reduce-work W]
                  [--mean-job-secs S] [OPTIONS]

Estimates the job from HISTORY (a job-history CSV, the JobHistory server's
jobs and tasks, or a SWIM TSV turned into
a 1000-run history, seed 7) by every method, the one planned with marked *;
its work is the method's PI upper bound × the slots of each phase
(slot-seconds). Prints its earliest feasible finish against the admitted
queue's lazy schedule (Figure 7) and the price of the deadlines from there
on.

THE JOB:
    --map-tasks N --reduce-tasks N --input-bytes B --shuffle-bytes B
    --output-bytes B        its features (all five needed)
    --job                   optional, as in 'skyplan estimate'
    --name NAME             its name, for the same-job method (default: none,
                            no same-job estimate)
    --map-work W            its map work, slot-seconds, instead of an
                            estimate (default 0 with --reduce-work)
    --reduce-work W         its reduce work, slot-seconds (default 0)

OPTIONS:
    --map-slots N           the cluster's map slots (default 80)
    --reduce-slots N        its reduce slots (default 80)
    --queue FILE            admitted jobs: CSV name,map_work,reduce_work,
                            deadline (slot-seconds, seconds from now)
                            (default: none)
    --method M              the estimate planned with: gp, ols or same-job
                            (default gp)
    --level X               PI coverage (default 0.95)
    --restarts N            extra GP starting points (default 2)
    --function F            price function: mrm (eq. 13), exponential (14),
                            quadratic (15) or load-aware (16) (default mrm)
    --kappa K               κ of mrm, exponential and quadratic (default 1)
    --z Z                   quadratic's exponent (default 2)
    --mean-job-secs S       the slack unit γ, seconds (default: the
                            history's mean processing time; needed without
                            HISTORY)
    --reserve R             reserve price per mean job of processing time,
                            eqs. 14–16 (default 0.1)
    --points N              deadlines on the curve (default 20)
    --span JOBS             the curve spans this many mean job times from the
                            earliest finish (default 10)
    --quantum S             the schedule's time quantum, seconds (default 1)
    --deadline D            also price this deadline, seconds from now
    --lenient               skip bad lines of HISTORY (default: refuse it)
    --json                  print the estimate, work and quote as JSON
    -h, --help              print this help
";

/// What was asked on the command line.
struct Args {
    history: Option<String>,
    job: JobArgs,
    map_work: Option<f64>,
    reduce_work: Option<f64>,
    slots: Slots,
    queue: Option<String>,
    method: Method,
    estimate: EstimateParams,
    function: String,
    kappa: f64,
    z: f64,
    mean_job_secs: Option<f64>,
    price: PriceParams,
    deadline: Option<f64>,
    lenient: bool,
    json: bool,
}

fn parse(parser: &mut lexopt::Parser) -> Result<Args, Failure> {
    use lexopt::prelude::*;
    let mut a = Args {
        history: None,
        job: JobArgs::default(),
        map_work: None,
        reduce_work: None,
        slots: Slots {
            map: 80.0,
            reduce: 80.0,
        },
        queue: None,
        method: Method::Gp,
        estimate: EstimateParams::default(),
        function: "mrm".into(),
        kappa: 1.0,
        z: 2.0,
        mean_job_secs: None,
        price: PriceParams {
            points: 20,
            ..PriceParams::default()
        },
        deadline: None,
        lenient: false,
        json: false,
    };
    while let Some(arg) = parser.next()? {
        match arg {
            Long(flag) if JobArgs::FLAGS.contains(&flag) => {
                let flag = flag.to_owned();
                a.job.take(&flag, parser)?;
            }
            Long("map-work") => a.map_work = Some(parser.value()?.parse()?),
            Long("reduce-work") => a.reduce_work = Some(parser.value()?.parse()?),
            Long("map-slots") => a.slots.map = parser.value()?.parse()?,
            Long("reduce-slots") => a.slots.reduce = parser.value()?.parse()?,
            Long("queue") => a.queue = Some(parser.value()?.string()?),
            Long("method") => {
                let v = parser.value()?.string()?;
                a.method = match v.as_str() {
                    "gp" => Method::Gp,
                    "ols" => Method::Ols,
                    "same-job" => Method::SameJob,
                    _ => {
                        return Err(Failure::usage(format!(
                            "--method: `{v}` is not gp, ols or same-job"
                        )))
                    }
                };
            }
            Long("level") => a.estimate.level = parser.value()?.parse()?,
            Long("restarts") => a.estimate.gp.restarts = parser.value()?.parse()?,
            Long("function") => a.function = parser.value()?.string()?,
            Long("kappa") => a.kappa = parser.value()?.parse()?,
            Long("z") => a.z = parser.value()?.parse()?,
            Long("mean-job-secs") => a.mean_job_secs = Some(parser.value()?.parse()?),
            Long("reserve") => a.price.reserve = parser.value()?.parse()?,
            Long("points") => a.price.points = parser.value()?.parse()?,
            Long("span") => a.price.span_jobs = parser.value()?.parse()?,
            Long("quantum") => a.price.quantum = parser.value()?.parse()?,
            Long("deadline") => a.deadline = Some(parser.value()?.parse()?),
            Long("lenient") => a.lenient = true,
            Long("json") => a.json = true,
            Value(v) if a.history.is_none() => a.history = Some(v.string()?),
            _ => return Err(arg.unexpected().into()),
        }
    }
    a.price.function = match a.function.as_str() {
        "mrm" => PriceFunction::Mrm { kappa: a.kappa },
        "exponential" => PriceFunction::Exponential { kappa: a.kappa },
        "quadratic" => PriceFunction::Quadratic {
            kappa: a.kappa,
            z: a.z,
        },
        "load-aware" => PriceFunction::LoadAware,
        other => {
            return Err(Failure::usage(format!(
                "--function: `{other}` is not mrm, exponential, quadratic or load-aware"
            )))
        }
    };
    Ok(a)
}

/// How the new job's work was obtained.
enum NewJob {
    /// Estimated from a history.
    Estimated {
        features: Box<JobFeatures>,
        estimate: Box<skyplan_engine::estimate::JobEstimate>,
        work: JobWork,
    },
    /// Given as `--map-work`/`--reduce-work`.
    Given { map_work: f64, reduce_work: f64 },
}

impl NewJob {
    fn work(&self) -> (f64, f64) {
        match self {
            NewJob::Estimated { work, .. } => (work.map_work, work.reduce_work),
            NewJob::Given {
                map_work,
                reduce_work,
            } => (*map_work, *reduce_work),
        }
    }
}

fn read_queue(path: &str) -> Result<Vec<QueuedJob>, Failure> {
    let text = std::fs::read_to_string(path).map_err(|e| Failure::input(format!("{path}: {e}")))?;
    read_queue_csv(path, &text).map_err(|errors| {
        let lines: Vec<String> = errors.iter().take(10).map(|e| e.to_string()).collect();
        Failure::input(lines.join("\n"))
    })
}

/// Runs `skyplan quote`.
pub fn run(parser: &mut lexopt::Parser) -> Result<(), Failure> {
    let a = parse(parser)?;
    let features = a.job.features()?;
    let given = match (a.map_work, a.reduce_work) {
        (Some(m), r) => Some((m, r.unwrap_or(0.0))),
        (None, Some(r)) => Some((0.0, r)),
        (None, None) => None,
    };
    if given.is_some() && features.is_some() {
        return Err(Failure::usage(
            "quote takes the job's features or --map-work/--reduce-work, not both",
        ));
    }
    if given.is_none() && (features.is_none() || a.history.is_none()) {
        return Err(Failure::usage(
            "quote needs a HISTORY and the job's --map-tasks, --reduce-tasks, --input-bytes, \
             --shuffle-bytes and --output-bytes, or its --map-work/--reduce-work",
        ));
    }
    a.estimate
        .validate()
        .map_err(|e| Failure::usage(e.to_string()))?;
    let queue = match &a.queue {
        Some(path) => read_queue(path)?,
        None => Vec::new(),
    };
    let loaded = match &a.history {
        Some(path) => Some(load(path, a.lenient, &HistoryParams::default())?),
        None => None,
    };
    let gamma = match (a.mean_job_secs, &loaded) {
        (Some(g), _) => g,
        (None, Some((history, what))) => mean_processing_secs(history)
            .ok_or_else(|| Failure::input(format!("{what}: no job with a processing time")))?,
        (None, None) => {
            return Err(Failure::usage(
                "without a HISTORY, quote needs --mean-job-secs (the slack unit γ)",
            ))
        }
    };
    let params = PriceParams {
        mean_job_secs: gamma,
        ..a.price.clone()
    };
    let job = match (given, &features, &loaded) {
        (Some((map_work, reduce_work)), _, _) => NewJob::Given {
            map_work,
            reduce_work,
        },
        (None, Some(f), Some((history, _))) => {
            let model = Estimator::fit(history, &a.estimate).map_err(Failure::refused)?;
            let estimate = model
                .estimate(a.job.name.as_deref(), f)
                .map_err(Failure::refused)?;
            let work = job_work(&estimate, a.method, f, a.slots).map_err(Failure::refused)?;
            NewJob::Estimated {
                features: Box::new(f.clone()),
                estimate: Box::new(estimate),
                work,
            }
        }
        _ => {
            return Err(Failure::usage(
                "the job's features need a HISTORY to be estimated from",
            ))
        }
    };
    let (map_work, reduce_work) = job.work();
    let q = quote(&queue, a.slots, map_work, reduce_work, &params).map_err(|e| {
        Failure::input(format!(
            "{e}{}",
            a.queue
                .as_ref()
                .map(|p| format!(" (queue {p})"))
                .unwrap_or_default()
        ))
    })?;
    let chosen = match a.deadline {
        Some(d) => Some(
            price_at(&queue, a.slots, map_work, reduce_work, &params, d)
                .map_err(Failure::refused)?,
        ),
        None => None,
    };
    if a.json {
        let (estimate, work) = match &job {
            NewJob::Estimated { estimate, work, .. } => (Some(estimate), Some(work)),
            NewJob::Given { .. } => (None, None),
        };
        let doc = serde_json::json!({
            "history": loaded.as_ref().map(|(_, what)| what),
            "estimate": estimate,
            "work": work,
            "map_work": map_work,
            "reduce_work": reduce_work,
            "slots": a.slots,
            "queue": queue,
            "params": params,
            "quote": q,
            "chosen": chosen,
        });
        crate::common::emit_json(&doc);
        return Ok(());
    }
    let mut out = String::new();
    if let Some((_, what)) = &loaded {
        let _ = writeln!(out, "history: {what}");
    }
    print_quote(&mut out, &a, &job, &queue, &params, &q, chosen.as_ref());
    crate::common::emit(&out);
    Ok(())
}

fn print_quote(
    out: &mut String,
    a: &Args,
    job: &NewJob,
    queue: &[QueuedJob],
    params: &PriceParams,
    q: &Quote,
    chosen: Option<&PricePoint>,
) {
    let (map_work, reduce_work) = job.work();
    match job {
        NewJob::Estimated {
            features,
            estimate,
            work,
        } => {
            estimate_table(out, estimate, features, Some(work.method));
            let part = |upper: f64, slots: f64, w: f64| {
                format!("{} s × {slots} slots = {} slot-s", secs(upper), secs(w))
            };
            let _ = writeln!(
                out,
                "work ({} at the {}% PI upper bound): map {}; reduce {}",
                work.method,
                estimate.level * 100.0,
                part(work.map_upper_secs, a.slots.map, map_work),
                part(work.reduce_upper_secs, a.slots.reduce, reduce_work),
            );
        }
        NewJob::Given { .. } => {
            let _ = writeln!(
                out,
                "work (given): map {} slot-s, reduce {} slot-s",
                secs(map_work),
                secs(reduce_work)
            );
        }
    }
    let _ = writeln!(
        out,
        "cluster: {} map slots, {} reduce slots; queue: {} admitted job(s){}",
        a.slots.map,
        a.slots.reduce,
        queue.len(),
        a.queue
            .as_ref()
            .map(|p| format!(" from {p}"))
            .unwrap_or_default()
    );
    let _ = writeln!(
        out,
        "processing time alone: {} s; mean job γ: {} s; price: {}",
        secs(q.processing_secs),
        secs(params.mean_job_secs),
        params.function.label()
    );
    let _ = writeln!(
        out,
        "earliest feasible finish: {} s from now",
        secs(q.earliest_finish)
    );
    let _ = writeln!(
        out,
        "{:>14} {:>14} {:>12}",
        "deadline (s)", "slack (jobs)", "price"
    );
    for p in &q.curve {
        let _ = writeln!(
            out,
            "{:>14} {:>14.3} {:>12.4}",
            secs(p.deadline),
            p.slack,
            p.price
        );
    }
    if let Some(p) = chosen {
        let _ = writeln!(
            out,
            "deadline {} s: slack {:.3} mean jobs, price {:.4}",
            secs(p.deadline),
            p.slack,
            p.price
        );
    }
}
