//! `skyplan plan`: the reservation agenda (Morpheus §6) for YARN
//! reservations and SLO decisions — LowCost against the greedy and
//! earliest-first baselines and the lower bounds, and the plan written back
//! as YARN reservations.

use crate::common::{located, Failure};
use serde_json::{json, Value};
use skyplan_engine::agenda::{
    lower_bounds, optimize_batch, optimize_plan, parse_yarn, plan_to_yarn, requests_from_decisions,
    yarn_requests, AgendaParams, Capacity, LowerBounds, Method, OptimizeError, OptimizeParams,
    OptimizeReport, Plan, Recurrence, Rejection, Reservation, ReservationRequest, YarnError,
    YarnReservation,
};
use skyplan_engine::import::read_decisions_csv;
use skyplan_engine::slo::SloDecision;
use skyplan_engine::time::{format_duration, format_timestamp, parse_timestamp};
use skyplan_engine::Timestamp;
use std::fmt::Write as _;

/// `skyplan plan --help`.
pub const HELP: &str = "\
skyplan plan — the reservation agenda (Morpheus §6)

USAGE:
    skyplan plan FILE... --capacity-cores N [--capacity-memory-mb M]
                 [--period SECS] [--step SECS] [--origin DATE|EPOCH]
                 [--method lowcost|greedy|earliest|optimize|all]
                 [--min-parallelism X] [--moves N] [--seed N]
                 [--export-yarn OUT.json] [--queue NAME] [--json]

Places YARN reservations (ResourceManager REST JSON: a submission, an array
of them, or a list response) and SLO decisions (the studio's CSV or JSON
export; counted in <1 core, 1024 MB> containers), periodic ones first, then
one-offs, each in the order given. Prints each reservation (method, start,
window, peak containers, instances), the rejections with the step and
resource, and the peak cost of LowCost, greedy and earliest-first on the
same requests against the lower bound (LP when at most 5,000 variables),
and of the batch optimizer (`optimize`: all requests placed together to
minimize the peak, starting from LowCost, with a certified lower bound and
gap: the plan is at most that far above the optimum).

OPTIONS:
    --capacity-cores N      the cluster's vcores (required: no capacity is
                            assumed)
    --capacity-memory-mb M  its memory, MB (default N × 4096)
    --period SECS           the plan's length, the LCM of the periods
                            (default 86400)
    --step SECS             time resolution (default 60)
    --origin DATE|EPOCH     the plan's start (default: the earliest arrival
                            or reference, down to a multiple of --period:
                            00:00 UTC for a day)
    --method M              the plan shown and exported: lowcost, greedy,
                            earliest, optimize or all (default lowcost)
    --min-parallelism X     decisions' stages stretch down to X containers
                            (default 1)
    --moves N               the optimizer's budget of improvement moves
                            (default 40000)
    --seed N                the optimizer's seed (default 1)
    --export-yarn OUT.json  write the plan as YARN submissions (LowCost's for
                            --method all)
    --queue NAME            the exported reservations' queue (default
                            `default`)
    --json                  print the plans, rejections and bounds as JSON
    -h, --help              print this help
";

/// The LP lower bound is solved only up to this many variables (one per
/// request and window step).
const LP_MAX_VARS: usize = 5_000;

/// What one file holds.
enum Input {
    Yarn(Vec<YarnReservation>),
    Decisions(Vec<SloDecision>),
}

/// Every YARN error leads with `line:column:`, so the file name goes in
/// front as `file:line:column: reason`, like every other reader's.
fn yarn_failure(path: &str, e: &YarnError) -> Failure {
    Failure::input(format!("{path}:{e}"))
}

/// Reads one file: YARN reservation JSON, decisions JSON (what the studio
/// exports: a list of decisions) or a decisions CSV, told apart by content.
fn read_input(path: &str) -> Result<Input, Failure> {
    let bytes = std::fs::read(path).map_err(|e| Failure::input(format!("{path}: {e}")))?;
    let text = String::from_utf8(bytes).map_err(|e| {
        Failure::input(format!(
            "{path}: not UTF-8 text (byte {})",
            e.utf8_error().valid_up_to()
        ))
    })?;
    // Only the byte-order mark is cut from what the JSON readers get, so
    // their lines and columns are the file's (JSON skips the blank lines).
    let body = text.strip_prefix('\u{feff}').unwrap_or(&text);
    if !matches!(body.trim_start().chars().next(), Some('{' | '[')) {
        return read_decisions_csv(path, &text)
            .map(Input::Decisions)
            .map_err(located);
    }
    let value: Value = match serde_json::from_str(body) {
        Ok(v) => v,
        Err(_) => {
            // Let the YARN reader say where (line and column).
            return Err(match parse_yarn(body) {
                Err(e) => yarn_failure(path, &e),
                Ok(_) => Failure::input(format!("{path}: not JSON")),
            });
        }
    };
    let is_decision = |v: &Value| v.get("job").is_some() && v.get("kind").is_some();
    if matches!(&value, Value::Array(a) if a.first().is_some_and(is_decision)) {
        return serde_json::from_str::<Vec<SloDecision>>(body)
            .map(Input::Decisions)
            .map_err(|e| Failure::input(format!("{path}:{}:{}: {e}", e.line(), e.column())));
    }
    parse_yarn(body)
        .map(Input::Yarn)
        .map_err(|e| yarn_failure(path, &e))
}

fn method_name(m: Method) -> &'static str {
    match m {
        Method::LowCost => "lowcost",
        Method::Greedy => "greedy",
        Method::EarliestFirst => "earliest",
        Method::Optimized => "optimize",
    }
}

/// One method's plan of every request, in order, with what it refused,
/// and the lower bound for the requests it placed.
struct Outcome {
    method: Method,
    plan: Plan,
    rejections: Vec<Rejection>,
    bound: LowerBounds,
    lp_vars: usize,
    /// The optimizer's report (method `optimize` only).
    optimized: Option<OptimizeReport>,
    /// Why the optimizer could not place every request, when it could not.
    infeasible: Option<String>,
}

/// The batch optimizer on every request; when they cannot all fit, the
/// optimizer on what LowCost admitted, with LowCost's rejections.
fn optimize(
    params: &AgendaParams,
    capacity: Capacity,
    requests: &[ReservationRequest],
    opt: &OptimizeParams,
    lowcost: &Outcome,
) -> Result<Outcome, Failure> {
    let empty =
        Plan::new(params.clone(), vec![capacity]).map_err(|e| Failure::usage(e.to_string()))?;
    let (out, rejections, infeasible) = match optimize_batch(&empty, requests, opt) {
        Ok(out) => (out, Vec::new(), None),
        Err(e @ OptimizeError::Infeasible { .. }) => {
            let out = optimize_plan(&lowcost.plan, &[], opt).map_err(Failure::refused)?;
            (out, lowcost.rejections.clone(), Some(e.to_string()))
        }
        Err(OptimizeError::Param { name, why }) => {
            return Err(Failure::usage(format!("{name} {why}")))
        }
        Err(e) => return Err(Failure::refused(e)),
    };
    let placed: Vec<ReservationRequest> = out
        .plan
        .reservations()
        .iter()
        .map(|r| r.request.clone())
        .collect();
    let bound = lower_bounds(&out.plan, &placed, LP_MAX_VARS);
    Ok(Outcome {
        method: Method::Optimized,
        plan: out.plan,
        rejections,
        bound,
        lp_vars: lowcost.lp_vars,
        optimized: Some(out.report),
        infeasible,
    })
}

fn place(
    method: Method,
    params: &AgendaParams,
    capacity: Capacity,
    requests: &[ReservationRequest],
) -> Result<Outcome, Failure> {
    let mut plan =
        Plan::new(params.clone(), vec![capacity]).map_err(|e| Failure::usage(e.to_string()))?;
    let mut rejections = Vec::new();
    for r in requests {
        match plan.admit(r.clone(), method) {
            Ok((_, displaced)) => rejections.extend(displaced),
            Err(rej) => rejections.push(rej),
        }
    }
    let placed: Vec<ReservationRequest> = plan
        .reservations()
        .iter()
        .map(|r| r.request.clone())
        .collect();
    let lp_vars = placed
        .iter()
        .filter_map(|r| plan.frame(r).ok())
        .map(|(a, d, _, _)| d - a)
        .sum();
    let bound = lower_bounds(&plan, &placed, LP_MAX_VARS);
    Ok(Outcome {
        method,
        plan,
        rejections,
        bound,
        lp_vars,
        optimized: None,
        infeasible: None,
    })
}

/// Runs `skyplan plan`.
pub fn run(parser: &mut lexopt::Parser) -> Result<(), Failure> {
    use lexopt::prelude::*;
    let mut files = Vec::new();
    let mut json_out = false;
    let mut params = AgendaParams::default();
    let (mut cores, mut memory): (Option<f64>, Option<f64>) = (None, None);
    let mut origin: Option<Timestamp> = None;
    let mut methods = vec![Method::LowCost];
    let mut export: Option<String> = None;
    let mut queue = String::from("default");
    let mut min_par = 1.0f64;
    let mut opt = OptimizeParams::default();
    while let Some(arg) = parser.next()? {
        match arg {
            Long("json") => json_out = true,
            Long("capacity-cores") => cores = Some(parser.value()?.parse()?),
            Long("capacity-memory-mb") => memory = Some(parser.value()?.parse()?),
            Long("period") => params.period_secs = parser.value()?.parse()?,
            Long("step") => params.step_secs = parser.value()?.parse()?,
            Long("min-parallelism") => min_par = parser.value()?.parse()?,
            Long("moves") => opt.max_moves = parser.value()?.parse()?,
            Long("seed") => opt.seed = parser.value()?.parse()?,
            Long("queue") => queue = parser.value()?.string()?,
            Long("export-yarn") => export = Some(parser.value()?.string()?),
            Long("origin") => {
                let v = parser.value()?.string()?;
                origin = Some(
                    parse_timestamp(&v).map_err(|e| Failure::usage(format!("--origin: {e}")))?,
                );
            }
            Long("method") => {
                methods = match parser.value()?.string()?.as_str() {
                    "lowcost" => vec![Method::LowCost],
                    "greedy" => vec![Method::Greedy],
                    "earliest" => vec![Method::EarliestFirst],
                    "optimize" => vec![Method::Optimized],
                    "all" => vec![
                        Method::LowCost,
                        Method::Greedy,
                        Method::EarliestFirst,
                        Method::Optimized,
                    ],
                    v => {
                        return Err(Failure::usage(format!(
                            "--method: `{v}` is not lowcost, greedy, earliest, optimize or all"
                        )))
                    }
                }
            }
            Value(v) => files.push(v.string()?),
            _ => return Err(arg.unexpected().into()),
        }
    }
    if files.is_empty() {
        return Err(Failure::usage("plan needs at least one FILE"));
    }
    let Some(cores) = cores else {
        return Err(Failure::usage(
            "plan needs --capacity-cores (the cluster's vcores; memory defaults to 4096 MB a core)",
        ));
    };
    let capacity = Capacity {
        cores,
        memory_mb: memory.unwrap_or(cores * 4096.0),
    };
    if !(min_par.is_finite() && min_par >= 0.0) {
        return Err(Failure::usage("--min-parallelism must be a number ≥ 0"));
    }
    if params.period_secs <= 0 {
        return Err(Failure::usage("--period must be positive"));
    }
    let inputs = files
        .iter()
        .map(|f| read_input(f))
        .collect::<Result<Vec<_>, _>>()?;
    // Default origin: the earliest arrival or reference, down to a whole
    // number of plan periods since the epoch (00:00 UTC for a day).
    let origin = match origin {
        Some(o) => o,
        None => {
            let earliest = inputs
                .iter()
                .flat_map(|i| -> Vec<Timestamp> {
                    match i {
                        Input::Yarn(rs) => {
                            rs.iter().map(|r| r.arrival_ms.div_euclid(1000)).collect()
                        }
                        Input::Decisions(ds) => ds.iter().map(|d| d.reference).collect(),
                    }
                })
                .min()
                .ok_or_else(|| Failure::input("the files hold no reservations or decisions"))?;
            earliest - earliest.rem_euclid(params.period_secs)
        }
    };
    let mut requests = Vec::new();
    let mut skipped = Vec::new();
    for input in &inputs {
        let (r, s) = match input {
            Input::Yarn(rs) => yarn_requests(rs, origin, &params),
            Input::Decisions(ds) => requests_from_decisions(ds, origin, &params, min_par),
        };
        requests.extend(r);
        skipped.extend(s);
    }
    // Periodic reservations first (they take precedence), then one-offs,
    // each in the order given.
    let (mut ordered, oneoffs): (Vec<_>, Vec<_>) = requests
        .into_iter()
        .partition(|r| matches!(r.recurrence, Recurrence::Periodic { .. }));
    ordered.extend(oneoffs);
    let mut outcomes = [Method::LowCost, Method::Greedy, Method::EarliestFirst]
        .into_iter()
        .map(|m| place(m, &params, capacity, &ordered))
        .collect::<Result<Vec<_>, _>>()?;
    let optimized = optimize(&params, capacity, &ordered, &opt, &outcomes[0])?;
    outcomes.push(optimized);
    let shown: Vec<&Outcome> = outcomes
        .iter()
        .filter(|o| methods.contains(&o.method))
        .collect();
    let exported = match &export {
        Some(path) => {
            let text = plan_to_yarn(&shown[0].plan, origin, &queue);
            std::fs::write(path, text).map_err(|e| Failure::input(format!("{path}: {e}")))?;
            Some((path.clone(), shown[0].plan.reservations().len()))
        }
        None => None,
    };
    let ctx = Context {
        origin,
        params: &params,
        capacity,
        requests: &ordered,
        skipped: &skipped,
    };
    if json_out {
        crate::common::emit_json(&ctx.json(&outcomes, &shown, exported.as_ref()));
    } else {
        crate::common::emit(&ctx.text(&outcomes, &shown, exported.as_ref()));
    }
    Ok(())
}

struct Context<'a> {
    origin: Timestamp,
    params: &'a AgendaParams,
    capacity: Capacity,
    requests: &'a [ReservationRequest],
    skipped: &'a [(String, String)],
}

impl Context<'_> {
    fn at(&self, step: usize) -> Timestamp {
        self.origin
            .saturating_add((step as i64).saturating_mul(self.params.step_secs))
    }

    fn ratio(o: &Outcome) -> f64 {
        if o.bound.best > 0.0 {
            o.plan.peak() / o.bound.best
        } else {
            f64::NAN
        }
    }

    fn reservation_json(&self, r: &Reservation) -> Value {
        json!({
            "id": r.id,
            "name": r.request.name,
            "method": r.method,
            "start_step": r.start,
            "start": self.at(r.start),
            "window": [self.at(r.window.0), self.at(r.window.1)],
            "window_steps": [r.window.0, r.window.1],
            "peak_containers": r.alloc.iter().copied().fold(0.0, f64::max),
            "work_container_steps": r.alloc.iter().sum::<f64>(),
            "instances": r.instances,
            "period_secs": match r.request.recurrence {
                Recurrence::Periodic { period_secs } => Some(period_secs),
                Recurrence::OneOff => None,
            },
            "alloc": r.alloc,
        })
    }

    fn json(
        &self,
        all: &[Outcome],
        shown: &[&Outcome],
        exported: Option<&(String, usize)>,
    ) -> Value {
        json!({
            "origin": self.origin,
            "origin_utc": format_timestamp(self.origin),
            "params": self.params,
            "capacity": self.capacity,
            "requests": self.requests.len(),
            "skipped": self.skipped.iter().map(|(n, r)| json!({"name": n, "reason": r})).collect::<Vec<_>>(),
            "plans": shown.iter().map(|o| json!({
                "method": method_name(o.method),
                "peak": o.plan.peak(),
                "reservations": o.plan.reservations().iter().map(|r| self.reservation_json(r)).collect::<Vec<_>>(),
                "rejections": o.rejections,
            })).collect::<Vec<_>>(),
            "comparison": all.iter().map(|o| json!({
                "method": method_name(o.method),
                "placed": o.plan.reservations().len(),
                "rejected": o.rejections.len(),
                "peak": o.plan.peak(),
                "bound": o.bound,
                "lp_vars": o.lp_vars,
                "peak_over_bound": Self::ratio(o),
                "optimized": o.optimized,
                "infeasible": o.infeasible,
            })).collect::<Vec<_>>(),
            "lp_max_vars": LP_MAX_VARS,
            "exported": exported.map(|(p, n)| json!({"file": p, "reservations": n})),
        })
    }

    fn text(
        &self,
        all: &[Outcome],
        shown: &[&Outcome],
        exported: Option<&(String, usize)>,
    ) -> String {
        let mut out = String::new();
        let p = self.params;
        let periodic = self
            .requests
            .iter()
            .filter(|r| matches!(r.recurrence, Recurrence::Periodic { .. }))
            .count();
        let _ = writeln!(
            out,
            "plan {} → {} ({} steps of {}), capacity {} cores, {} MB",
            format_timestamp(self.origin),
            format_timestamp(self.origin.saturating_add(p.period_secs)),
            all[0].plan.steps(),
            format_duration(p.step_secs),
            self.capacity.cores,
            self.capacity.memory_mb
        );
        let _ = writeln!(
            out,
            "{} requests ({periodic} periodic, {} one-off), {} skipped",
            self.requests.len(),
            self.requests.len() - periodic,
            self.skipped.len()
        );
        for (name, why) in self.skipped {
            let _ = writeln!(out, "  skipped {name}: {why}");
        }
        for o in shown {
            let _ = writeln!(
                out,
                "\n{}: {} placed, {} rejected, peak cost {:.4}",
                method_name(o.method),
                o.plan.reservations().len(),
                o.rejections.len(),
                o.plan.peak()
            );
            let _ = writeln!(
                out,
                "{:<24} {:<9} {:<19}  {:<41} {:>8}  instances",
                "reservation", "method", "start", "window", "peak"
            );
            for r in o.plan.reservations() {
                let every = match r.request.recurrence {
                    Recurrence::Periodic { period_secs } => {
                        format!("{} every {}", r.instances, format_duration(period_secs))
                    }
                    Recurrence::OneOff => "1 (one-off)".into(),
                };
                let _ = writeln!(
                    out,
                    "{:<24} {:<9} {:<19}  {} → {} {:>8.2}  {every}",
                    r.request.name,
                    method_name(r.method),
                    format_timestamp(self.at(r.start)),
                    format_timestamp(self.at(r.window.0)),
                    format_timestamp(self.at(r.window.1)),
                    r.alloc.iter().copied().fold(0.0, f64::max),
                );
            }
            for rej in &o.rejections {
                let mut at = String::new();
                if let Some(s) = rej.step {
                    let _ = write!(at, " [step {s}, {}", format_timestamp(self.at(s)));
                    if let Some(res) = &rej.resource {
                        let _ = write!(at, ", {res}");
                    }
                    at.push(']');
                }
                let _ = writeln!(out, "  rejected {}: {}{at}", rej.name, rej.reason);
            }
        }
        let _ = writeln!(
            out,
            "\ncomparison on the same {} requests, in the same order (the lower bound is for the requests each method placed):",
            self.requests.len()
        );
        let _ = writeln!(
            out,
            "{:<10} {:>7} {:>9} {:>10} {:>12}  {:>10}  bound from",
            "method", "placed", "rejected", "peak cost", "lower bound", "peak/bound"
        );
        for o in all {
            let b = &o.bound;
            let lp = match b.lp {
                Some(v) => format!("LP {v:.4}"),
                None => format!("LP not solved ({} variables > {LP_MAX_VARS})", o.lp_vars),
            };
            let _ = writeln!(
                out,
                "{:<10} {:>7} {:>9} {:>10.4} {:>12.4}  {:>10.2}  area {:.4}, single request {:.4}, {lp}",
                method_name(o.method),
                o.plan.reservations().len(),
                o.rejections.len(),
                o.plan.peak(),
                b.best,
                Self::ratio(o),
                b.area,
                b.single
            );
        }
        for o in all {
            if let Some(r) = &o.optimized {
                let _ = writeln!(
                    out,
                    "\noptimize: peak {:.4} (LowCost {:.4}), at most {:.1} % above the optimum (certified bound {:.4}, {:?}); {} of {} reservations moved in {} moves",
                    r.peak,
                    r.start_peak,
                    r.gap * 100.0,
                    r.lower_bound,
                    r.bound,
                    r.moved,
                    r.unlocked,
                    r.moves
                );
            }
            if let Some(why) = &o.infeasible {
                let _ = writeln!(
                    out,
                    "optimize: not every request fits ({why}); optimized what LowCost admitted"
                );
            }
        }
        if let Some((path, n)) = exported {
            let _ = writeln!(
                out,
                "\nwrote {n} {} reservation(s) to {path}",
                method_name(shown[0].method)
            );
        }
        out
    }
}
