//! `skyplan estimate`: processing-time estimates of MRM §3.2 — mean, σ and
//! prediction interval of a new job's map and reduce phases by GP, OLS and
//! the same-job baseline, learned from a job history; and, with
//! `--evaluate`, the analogues of the paper's Tables 2 and 3 on a
//! train/test split of that history.

use super::job::{estimate_table, load, secs, JobArgs};
use crate::common::Failure;
use skyplan_engine::estimate::{
    evaluate, Estimator, EvaluateParams, Evaluation, FeatureScale, HistoryParams, JobEstimate,
    Phase, TargetScale,
};
use skyplan_engine::model::JobFeatures;
use std::fmt::Write as _;

/// `skyplan estimate --help`.
pub const HELP: &str = "\
skyplan estimate — processing-time estimates of a job's phases (MRM §3.2)

USAGE:
    skyplan estimate HISTORY --job --map-tasks N --reduce-tasks N
                     --input-bytes B --shuffle-bytes B --output-bytes B
                     [--name NAME] [OPTIONS]
    skyplan estimate HISTORY --evaluate [OPTIONS]
    skyplan estimate HISTORY --write-history OUT.csv [OPTIONS]

The mean, σ and prediction interval of a job's map and reduce phases by GP,
OLS and the same job's past runs, learned from HISTORY: a job-history CSV,
the JobHistory server's jobs and tasks (JSON), or a SWIM TSV turned into
one by the documented processing-time model.

THE JOB:
    --job                   estimate a job (implied by any option below)
    --map-tasks N --reduce-tasks N --input-bytes B --shuffle-bytes B
    --output-bytes B        its features (all five needed)
    --name NAME             its name, for the same-job method (default: none,
                            no same-job estimate)

OPTIONS:
    --evaluate              R², PI coverage and error and mean PI length per
                            method and phase on a seeded train/test split
    --train-share X         share of the jobs that trains (default 0.5)
    --level X               PI coverage (default 0.95)
    --features log|linear   how features enter GP and OLS (default log)
    --targets log|linear    how durations enter GP and OLS (default log)
    --restarts N            extra GP starting points (default 2)
    --hyper-subset N        jobs the GP hyperparameters are searched on
                            (default 128)
    --polish-subset N       jobs the GP variances are refined on (default 256)
    --min-runs N            past runs a same-job estimate needs (default 2)
    --jobs N                history runs generated from a SWIM TSV
                            (default 1000)
    --seed N                seed of the SWIM conversion (default 7) and of
                            the --evaluate split (default 1)
    --write-history OUT     write the history used as a job-history CSV
    --lenient               skip bad lines of HISTORY (default: refuse it)
    --json                  print the estimate, GP fits and evaluation as JSON
    -h, --help              print this help
";

/// What was asked on the command line.
struct Args {
    file: Option<String>,
    job: JobArgs,
    evaluate: bool,
    json: bool,
    lenient: bool,
    write_history: Option<String>,
    history: HistoryParams,
    eval: EvaluateParams,
}

fn parse(parser: &mut lexopt::Parser) -> Result<Args, Failure> {
    use lexopt::prelude::*;
    let mut a = Args {
        file: None,
        job: JobArgs::default(),
        evaluate: false,
        json: false,
        lenient: false,
        write_history: None,
        history: HistoryParams::default(),
        eval: EvaluateParams::default(),
    };
    let p = &mut a.eval.estimate;
    while let Some(arg) = parser.next()? {
        match arg {
            Long(flag) if JobArgs::FLAGS.contains(&flag) => {
                let flag = flag.to_owned();
                a.job.take(&flag, parser)?;
            }
            Long("evaluate") => a.evaluate = true,
            Long("json") => a.json = true,
            Long("lenient") => a.lenient = true,
            Long("level") => p.level = parser.value()?.parse()?,
            Long("features") => p.scale = scale(&parser.value()?.string()?, "--features")?,
            Long("targets") => {
                p.target = match scale(&parser.value()?.string()?, "--targets")? {
                    FeatureScale::Log => TargetScale::Log,
                    FeatureScale::Linear => TargetScale::Linear,
                }
            }
            Long("restarts") => p.gp.restarts = parser.value()?.parse()?,
            Long("hyper-subset") => p.gp.hyper_subset = parser.value()?.parse()?,
            Long("polish-subset") => p.gp.polish_subset = parser.value()?.parse()?,
            Long("min-runs") => p.min_runs = parser.value()?.parse()?,
            Long("train-share") => a.eval.train_share = parser.value()?.parse()?,
            Long("seed") => {
                let seed: u64 = parser.value()?.parse()?;
                a.history.seed = seed;
                a.eval.split_seed = seed;
            }
            Long("jobs") => a.history.jobs = parser.value()?.parse()?,
            Long("write-history") => a.write_history = Some(parser.value()?.string()?),
            Value(v) if a.file.is_none() => a.file = Some(v.string()?),
            _ => return Err(arg.unexpected().into()),
        }
    }
    Ok(a)
}

fn scale(v: &str, flag: &str) -> Result<FeatureScale, Failure> {
    match v {
        "log" => Ok(FeatureScale::Log),
        "linear" => Ok(FeatureScale::Linear),
        _ => Err(Failure::usage(format!(
            "{flag}: `{v}` is not log or linear"
        ))),
    }
}

/// Runs `skyplan estimate`.
pub fn run(parser: &mut lexopt::Parser) -> Result<(), Failure> {
    let a = parse(parser)?;
    let Some(path) = a.file.clone() else {
        return Err(Failure::usage("estimate needs a HISTORY file"));
    };
    let job = a.job.features()?;
    if job.is_none() && !a.evaluate && a.write_history.is_none() {
        return Err(Failure::usage(
            "estimate needs --job with --map-tasks, --reduce-tasks, --input-bytes, \
             --shuffle-bytes and --output-bytes, or --evaluate (or --write-history)",
        ));
    }
    a.eval
        .estimate
        .validate()
        .map_err(|e| Failure::usage(e.to_string()))?;
    let (history, what) = load(&path, a.lenient, &a.history)?;
    if let Some(out) = &a.write_history {
        let text = skyplan_engine::export::job_history_csv(&history);
        std::fs::write(out, &text).map_err(|e| Failure::input(format!("{out}: {e}")))?;
    }
    let estimate = match &job {
        Some(f) => {
            let model = Estimator::fit(&history, &a.eval.estimate).map_err(Failure::refused)?;
            let e = model
                .estimate(a.job.name.as_deref(), f)
                .map_err(Failure::refused)?;
            Some((model, e))
        }
        None => None,
    };
    let evaluation = if a.evaluate {
        Some(evaluate(&history, &a.eval).map_err(Failure::refused)?)
    } else {
        None
    };
    if a.json {
        let doc = serde_json::json!({
            "history": what,
            "jobs": history.len(),
            "estimate": estimate.as_ref().map(|(_, e)| e),
            "gp": estimate.as_ref().map(|(m, _)| Phase::ALL.map(|p| m.gp_fit(p).ok())),
            "evaluation": evaluation,
        });
        crate::common::emit_json(&doc);
        return Ok(());
    }
    let mut out = format!("history: {what}\n");
    if let Some(out_path) = &a.write_history {
        let _ = writeln!(out, "wrote {out_path} ({} jobs)", history.len());
    }
    if let (Some((model, e)), Some(f)) = (&estimate, &job) {
        print_estimate(&mut out, model, e, f);
    }
    if let Some(ev) = &evaluation {
        print_evaluation(&mut out, ev);
    }
    crate::common::emit(&out);
    Ok(())
}

fn print_estimate(out: &mut String, model: &Estimator, e: &JobEstimate, f: &JobFeatures) {
    estimate_table(out, e, f, None);
    for phase in Phase::ALL {
        if let Ok(g) = model.gp_fit(phase) {
            let h = &g.hyperparameters;
            let ls: Vec<String> = h.length_scales.iter().map(|l| format!("{l:.3}")).collect();
            let from = if g.polish.is_some() {
                format!(
                    "{} starts on {} jobs, variances refined on {}",
                    g.starts.len(),
                    g.restart_points,
                    g.hyper_points
                )
            } else {
                format!("{} starts on {} jobs", g.starts.len(), g.restart_points)
            };
            let _ = writeln!(
                out,
                "GP {phase}: ℓ = [{}], σf² = {:.3}, σn² = {:.2e}, log ML = {:.2} ({} jobs); {from}",
                ls.join(", "),
                h.signal_variance,
                h.noise_variance,
                g.log_marginal_likelihood,
                g.points
            );
            for w in &g.warnings {
                let _ = writeln!(out, "  warning: {w}");
            }
        }
    }
}

fn print_evaluation(out: &mut String, ev: &Evaluation) {
    let _ = writeln!(
        out,
        "evaluation: {} training jobs, {} test jobs, {}% PIs",
        ev.train_jobs,
        ev.test_jobs,
        ev.level * 100.0
    );
    let _ = writeln!(
        out,
        "{:<7} {:<9} {:>6} {:>7} {:>10} {:>12} {:>15}  note",
        "phase", "method", "jobs", "R²", "coverage", "PI error %", "mean PI (s)"
    );
    let opt = |v: Option<f64>, digits: usize| {
        v.map(|x| format!("{x:.digits$}"))
            .unwrap_or_else(|| "—".into())
    };
    for ph in &ev.phases {
        for m in &ph.methods {
            let _ = writeln!(
                out,
                "{:<7} {:<9} {:>6} {:>7} {:>10} {:>12} {:>15}  {}",
                ph.phase.to_string(),
                m.method.to_string(),
                m.predicted,
                opt(m.r2, 3),
                opt(m.coverage, 3),
                opt(m.pi_error_percent, 1),
                opt(m.mean_pi_length, 1),
                m.note.as_deref().unwrap_or("")
            );
        }
        let _ = writeln!(
            out,
            "{:<7} {} test jobs with the phase, mean duration {} s",
            ph.phase.to_string(),
            ph.test_jobs,
            secs(ph.mean_actual_secs)
        );
    }
}
