//! `skyplan slo` and `skyplan skyline`: recurring jobs, their inferred SLOs
//! and their LP reservation skylines.

use crate::common::Failure;
use crate::input::{load_runs, with_runs};
use skyplan_engine::model::JobRun;
use skyplan_engine::resource_model::{
    fit, flat_percentile, peak_reservation, quality, ModelParams, SolverKind, Variant,
};
use skyplan_engine::slo::{infer_slos, template_name, SloParams, SloReport};
use skyplan_engine::time::{format_duration, format_timestamp};
use std::fmt::Write as _;

/// `skyplan slo --help`.
pub const SLO_HELP: &str = "\
skyplan slo — recurring jobs and their inferred SLOs (Morpheus §4)

USAGE:
    skyplan slo FILE... [--start-percentile P] [--deadline-percentile P]
                [--max-read-cv X] [--min-slack X] [--json]

Groups the job runs in FILE... into recurring jobs and prints each one's
period, its window [a, d] from the period start, whether the deadline is
actionable and, if not, why; jobs that do not recur are listed with the
reason.

OPTIONS:
    --start-percentile P     percentile of the input-available times that
                             sets the earliest start (default 95)
    --deadline-percentile P  percentile of the output-first-read times that
                             sets the deadline (default 50)
    --max-read-cv X          largest robust CV of the output-read time for an
                             actionable deadline (default 0.1)
    --min-slack X            smallest median slack / run time for a job to
                             have real slack (default 0.2)
    --json                   print the SLO report as JSON
    -h, --help               print this help
";

/// `skyplan skyline --help`.
pub const SKYLINE_HELP: &str = "\
skyplan skyline — the LP reservation skyline R* of one job (Morpheus §5)

USAGE:
    skyplan skyline FILE... [--job NAME] [--variant paper|hadoop]
                    [--alpha A] [--step S] [--min-parallelism X]
                    [--solver flow|simplex] [--json]

Fits R* to one recurring job's runs in FILE... and prints one line per step:
the step, its offset from the job's start and the containers reserved.

OPTIONS:
    --job NAME           the job (its templated name); needed when the files
                         hold several (default: the only one)
    --variant V          paper (α 0.01, 60 s steps, two passes with
                         β = 0.1·V) or hadoop (α 0.1, 5 s, fixed β 0.1, whole
                         containers, as Hadoop's ResourceEstimator)
                         (default paper)
    --alpha A            weight of over-allocation against final debt, in
                         [0, 1] (default: the variant's, 0.01 or 0.1)
    --step S             step, seconds (default: the variant's, 60 or 5)
    --min-parallelism X  smallest reservation while the job runs, containers
                         (default: the variant's, 1 or 0)
    --solver S           flow (network simplex on the LP's dual) or simplex
                         (the LP as written) (default flow)
    --json               print the model, its objective and the quality of R*
                         against the peak and a flat p90 reservation as JSON
    -h, --help           print this help
";

/// Runs `skyplan slo`.
pub fn slo(parser: &mut lexopt::Parser) -> Result<(), Failure> {
    use lexopt::prelude::*;
    let mut files = Vec::new();
    let mut json = false;
    let mut params = SloParams::default();
    while let Some(arg) = parser.next()? {
        match arg {
            Long("json") => json = true,
            Long("start-percentile") => params.start_percentile = parser.value()?.parse()?,
            Long("deadline-percentile") => params.deadline_percentile = parser.value()?.parse()?,
            Long("max-read-cv") => params.max_read_cv = parser.value()?.parse()?,
            Long("min-slack") => params.min_slack_ratio = parser.value()?.parse()?,
            Value(v) => files.push(v.string()?),
            _ => return Err(arg.unexpected().into()),
        }
    }
    let report = with_runs(&files, |runs| infer_slos(runs, &params))?;
    crate::common::emit_report(json, &report, text);
    Ok(())
}

/// The SLOs as a table: each recurring job's window and whether it is
/// actionable (with its first window), then the jobs that do not recur.
fn text(report: &SloReport) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:<24} {:>7} {:>5}  {:<25} {:<10} reason",
        "job", "period", "runs", "window [a, d] from period start", "actionable"
    );
    for s in &report.slos {
        let window = match (s.earliest_start_secs, s.deadline_secs) {
            (Some(a), Some(d)) => format!("[{}, {}]", format_duration(a), format_duration(d)),
            (Some(a), None) => format!("[{}, —]", format_duration(a)),
            _ => "—".into(),
        };
        let _ = writeln!(
            out,
            "{:<24} {:>7} {:>5}  {:<25} {:<10} {}",
            s.job,
            format_duration(s.period_secs),
            s.evidence.runs,
            window,
            if s.actionable { "yes" } else { "no" },
            s.reason.as_deref().unwrap_or("")
        );
        if s.actionable {
            if let (Some(a), Some(d)) = (s.earliest_start_secs, s.deadline_secs) {
                let _ = writeln!(
                    out,
                    "{:<24} first window {} → {}",
                    "",
                    format_timestamp(s.reference + a),
                    format_timestamp(s.reference + d)
                );
            }
        }
    }
    for j in &report.non_periodic {
        let _ = writeln!(
            out,
            "{:<24} {:>7} {:>5}  {:<25} {:<10} {}",
            j.name, "—", j.runs, "—", "no", j.reason
        );
    }
    out
}

/// Runs `skyplan skyline`.
pub fn skyline(parser: &mut lexopt::Parser) -> Result<(), Failure> {
    use lexopt::prelude::*;
    let mut files = Vec::new();
    let mut json = false;
    let mut job: Option<String> = None;
    let mut variant = Variant::Paper;
    let (mut alpha, mut step, mut solver, mut min_par) = (None, None, SolverKind::Flow, None);
    while let Some(arg) = parser.next()? {
        match arg {
            Long("json") => json = true,
            Long("job") => job = Some(parser.value()?.string()?),
            Long("alpha") => alpha = Some(parser.value()?.parse::<f64>()?),
            Long("step") => step = Some(parser.value()?.parse::<u32>()?),
            Long("min-parallelism") => min_par = Some(parser.value()?.parse::<f64>()?),
            Long("variant") => {
                variant = match parser.value()?.string()?.as_str() {
                    "paper" => Variant::Paper,
                    "hadoop" => Variant::Hadoop,
                    v => {
                        return Err(Failure::usage(format!(
                            "--variant: `{v}` is not paper or hadoop"
                        )))
                    }
                }
            }
            Long("solver") => {
                solver = match parser.value()?.string()?.as_str() {
                    "flow" => SolverKind::Flow,
                    "simplex" => SolverKind::Simplex,
                    v => {
                        return Err(Failure::usage(format!(
                            "--solver: `{v}` is not flow or simplex"
                        )))
                    }
                }
            }
            Value(v) => files.push(v.string()?),
            _ => return Err(arg.unexpected().into()),
        }
    }
    let runs = load_runs(&files)?;
    let mut names: Vec<String> = runs.iter().map(|r| template_name(&r.job)).collect();
    names.sort();
    names.dedup();
    let job = match job {
        Some(j) => {
            let t = template_name(&j);
            if !names.contains(&t) {
                return Err(Failure::input(format!(
                    "no job `{j}`; jobs: {}",
                    names.join(", ")
                )));
            }
            t
        }
        None if names.len() == 1 => names[0].clone(),
        None => {
            return Err(Failure::usage(format!(
                "several jobs are loaded; choose one with --job ({})",
                names.join(", ")
            )))
        }
    };
    let history: Vec<&JobRun> = runs
        .iter()
        .filter(|r| template_name(&r.job) == job)
        .collect();
    let mut params = match variant {
        Variant::Paper => ModelParams::paper(),
        Variant::Hadoop => ModelParams::hadoop(),
    };
    params.solver = solver;
    if let Some(a) = alpha {
        params.alpha = a;
    }
    if let Some(s) = step {
        params.step_secs = s;
    }
    if let Some(m) = min_par {
        params.min_parallelism = m;
    }
    let model = fit(&history, &params).map_err(|e| Failure::input(format!("{job}: {e}")))?;
    if json {
        let step = model.skyline.step_secs;
        let doc = serde_json::json!({
            "job": job,
            "model": model,
            "quality": {
                "lp": quality(&model.skyline, &history),
                "peak": quality(&peak_reservation(&history, step), &history),
                "flat_p90": quality(&flat_percentile(&history, step, 90.0), &history),
            },
        });
        crate::common::emit_json(&doc);
        return Ok(());
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# job {job}: {} runs, {} steps of {} s",
        model.runs, model.steps, model.skyline.step_secs
    );
    let _ = writeln!(out, "# step\toffset\tcontainers");
    for (k, c) in model.skyline.containers.iter().enumerate() {
        let off = k as i64 * i64::from(model.skyline.step_secs);
        let _ = writeln!(
            out,
            "{k}\t{}\t{}",
            format_duration(off),
            (c * 1000.0).round() / 1000.0
        );
    }
    crate::common::emit(&out);
    Ok(())
}
