//! `skyplan forecast`: utilization forecasts with prediction intervals
//! (§III-A of the resource-shaping paper) by the history-kernel GP,
//! ARIMA with the order by AIC and the baselines; with `--evaluate`, their
//! MAE, RMSE and interval coverage and width on a rolling origin.

use crate::common::Failure;
use crate::input::import_loaded;
use skyplan_engine::forecast::{
    evaluate, forecast, regular_grid, EvaluateParams, Evaluation, Forecast, ForecastMethod,
    ForecastParams, RegularSeries,
};
use skyplan_engine::import::{read_container_usage, ImportOptions};
use skyplan_engine::model::UtilizationSeries;
use skyplan_engine::time::format_timestamp;
use std::fmt::Write as _;

/// Usage, options and defaults of `skyplan forecast`.
pub const HELP: &str = "\
skyplan forecast FILE... [--series S] [--method gp|arima|naive|all]
                 [--horizon K] [--window h] [--latest N] [--level X]
                 [--evaluate [--origins N]] [--alibaba-usage] [--json]

Forecasts each utilization series of FILE... (any format `skyplan import`
reads: NAB-style timestamp,value CSVs, the long utilization CSV, ...)
past its last value, with the mean, the predictive standard deviation and
the prediction interval per step. The samples are put on a regular grid
(the median spacing); gaps stay missing and are never interpolated.

OPTIONS:
    --alibaba-usage  the FILEs are Alibaba cluster-trace-v2018
                     container_usage.csv files (headerless: container_id,
                     machine_id, time_stamp, cpu_util_percent,
                     mem_util_percent, ...): one CPU and one memory series
                     per container; −1/101 markers, empty and NaN values are
                     left out as missing, never filled in
    --series S       only series whose name contains S (default: all)
    --method M       gp (history-kernel GP, eqs. 4-8), arima (order by AIC,
                     d by KPSS), naive (last value, moving average,
                     seasonal naive), all (default)
    --horizon K      steps ahead (1)
    --window h       history window of the GP patterns (10, the paper's)
    --latest N       training patterns; ARIMA uses the latest N + h values
                     (100)
    --level X        prediction-interval coverage (0.95)
    --refit-every M  GP hyperparameters and ARIMA order re-estimated every M
                     values in the evaluation (25)
    --max-p P --max-q Q --max-order O   the ARIMA grid (5, 5, 5)
    --stepwise       ARIMA's orders by pmdarima's stepwise walk (its
                     auto_arima default) instead of the whole grid
    --d D            fix ARIMA's differencing order (default: KPSS tests)
    --period P       seasonal period in samples (default: from the spectrum)
    --evaluate       rolling-origin report instead: per method and step,
                     MAE, RMSE, coverage and mean width of the interval
    --origins N      origins of the evaluation, the last N (500)
    --json           machine-readable output
";

struct Args {
    files: Vec<String>,
    alibaba_usage: bool,
    series: Option<String>,
    methods: Vec<ForecastMethod>,
    evaluate: bool,
    json: bool,
    params: EvaluateParams,
}

fn parse(parser: &mut lexopt::Parser) -> Result<Args, Failure> {
    use lexopt::prelude::*;
    let mut a = Args {
        files: Vec::new(),
        alibaba_usage: false,
        series: None,
        methods: ForecastMethod::ALL.to_vec(),
        evaluate: false,
        json: false,
        params: EvaluateParams::default(),
    };
    let f = &mut a.params.forecast;
    while let Some(arg) = parser.next()? {
        match arg {
            Long("series") => a.series = Some(parser.value()?.string()?),
            Long("method") => {
                a.methods = match parser.value()?.string()?.as_str() {
                    "gp" => vec![ForecastMethod::Gp],
                    "arima" => vec![ForecastMethod::Arima],
                    "naive" => vec![
                        ForecastMethod::LastValue,
                        ForecastMethod::MovingAverage,
                        ForecastMethod::SeasonalNaive,
                    ],
                    "all" => ForecastMethod::ALL.to_vec(),
                    other => {
                        return Err(Failure::usage(format!(
                            "--method must be gp, arima, naive or all, not `{other}`"
                        )))
                    }
                }
            }
            Long("horizon") => f.horizon = parser.value()?.parse()?,
            Long("window") => f.window = parser.value()?.parse()?,
            Long("latest") => f.latest = parser.value()?.parse()?,
            Long("level") => f.level = parser.value()?.parse()?,
            Long("refit-every") => {
                let m: usize = parser.value()?.parse()?;
                f.gp.refit_every = m;
                a.params.arima_refit_every = m;
            }
            Long("max-p") => f.arima.max_p = parser.value()?.parse()?,
            Long("max-q") => f.arima.max_q = parser.value()?.parse()?,
            Long("max-order") => f.arima.max_order = parser.value()?.parse()?,
            Long("stepwise") => f.arima.search = skyplan_engine::forecast::OrderSearch::Stepwise,
            Long("d") => f.arima.d = Some(parser.value()?.parse()?),
            Long("period") => f.baselines.period = Some(parser.value()?.parse()?),
            Long("evaluate") => a.evaluate = true,
            Long("origins") => a.params.origins = parser.value()?.parse()?,
            Long("json") => a.json = true,
            Long("alibaba-usage") => a.alibaba_usage = true,
            Value(v) => a.files.push(v.string()?),
            _ => return Err(arg.unexpected().into()),
        }
    }
    if a.files.is_empty() {
        return Err(Failure::usage("at least one FILE is needed"));
    }
    f.validate().map_err(|e| Failure::usage(e.to_string()))?;
    a.params.methods = a.methods.clone();
    Ok(a)
}

/// One series on its grid.
struct Loaded {
    name: String,
    grid: RegularSeries,
}

fn load(a: &Args) -> Result<Vec<Loaded>, Failure> {
    let mut out = Vec::new();
    for path in &a.files {
        let series = if a.alibaba_usage {
            alibaba_usage(path)?
        } else {
            import_loaded(path, &ImportOptions::default())?.data.series
        };
        for s in series {
            let name = format!("{} ({:?})", s.server, s.resource).to_lowercase();
            if a.series
                .as_ref()
                .is_some_and(|f| !s.server.contains(f.as_str()))
            {
                continue;
            }
            out.push(Loaded {
                name,
                grid: regular_grid(&s.timestamps, &s.values, None),
            });
        }
    }
    if out.is_empty() {
        return Err(Failure::input(match &a.series {
            Some(s) => format!("no utilization series matches `{s}`"),
            None => "the files contain no utilization series".into(),
        }));
    }
    Ok(out)
}

/// The CPU and memory series of an Alibaba v2018 `container_usage.csv`.
fn alibaba_usage(path: &str) -> Result<Vec<UtilizationSeries>, Failure> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Failure::input(format!("{path}: could not read the file ({e})")))?;
    read_container_usage(path, &text)
        .map(|usage| usage.series)
        .map_err(|errors| {
            let lines: Vec<String> = errors.iter().take(10).map(ToString::to_string).collect();
            Failure::input(format!(
                "{} bad line(s) in {path}:\n  {}",
                errors.len(),
                lines.join("\n  ")
            ))
        })
}

/// Runs `skyplan forecast`.
pub fn run(parser: &mut lexopt::Parser) -> Result<(), Failure> {
    let a = parse(parser)?;
    let series = load(&a)?;
    if a.evaluate {
        let mut reports = Vec::new();
        for s in &series {
            let r = evaluate(&s.grid.values, &a.params)
                .map_err(|e| Failure::input(format!("{}: {e}", s.name)))?;
            reports.push((s, r));
        }
        if a.json {
            let v: Vec<_> = reports
                .iter()
                .map(|(s, r)| serde_json::json!({"series": s.name, "step": s.grid.step, "evaluation": r}))
                .collect();
            crate::common::emit_json(&v);
        } else {
            let mut out = String::new();
            for (s, r) in &reports {
                write_evaluation(&mut out, s, r);
            }
            crate::common::emit(&out);
        }
        return Ok(());
    }
    let fp: &ForecastParams = &a.params.forecast;
    let mut results = Vec::new();
    for s in &series {
        let per: Vec<(ForecastMethod, Result<Forecast, String>)> = a
            .methods
            .iter()
            .map(|&m| {
                (
                    m,
                    forecast(&s.grid.values, m, fp).map_err(|e| e.to_string()),
                )
            })
            .collect();
        results.push((s, per));
    }
    if a.json {
        let v: Vec<_> = results
            .iter()
            .map(|(s, per)| {
                let methods: Vec<_> = per
                    .iter()
                    .map(|(m, r)| match r {
                        Ok(f) => serde_json::json!({"method": m, "forecast": f}),
                        Err(e) => serde_json::json!({"method": m, "error": e}),
                    })
                    .collect();
                serde_json::json!({
                    "series": s.name,
                    "start": s.grid.start,
                    "step": s.grid.step,
                    "values": s.grid.values.len(),
                    "missing": s.grid.missing,
                    "methods": methods,
                })
            })
            .collect();
        crate::common::emit_json(&v);
        return Ok(());
    }
    let mut out = String::new();
    for (s, per) in &results {
        let g = &s.grid;
        let last = g.start + g.step * (g.values.len() as i64 - 1);
        let _ = writeln!(
            out,
            "{}: {} values every {} s ({} missing), last at {}",
            s.name,
            g.values.len(),
            g.step,
            g.missing,
            format_timestamp(last)
        );
        for (m, r) in per {
            match r {
                Err(e) => {
                    let _ = writeln!(out, "  {m}: cannot forecast: {e}");
                }
                Ok(f) => {
                    let _ = writeln!(out, "  {m}: {}", f.model);
                    let _ = writeln!(
                        out,
                        "    {:>4} {:>20} {:>12} {:>12} {:>12} {:>12}",
                        "step",
                        "time",
                        "mean",
                        "sd",
                        format!("{:.0}% low", 100.0 * f.level),
                        "high"
                    );
                    for st in &f.steps {
                        let _ = writeln!(
                            out,
                            "    {:>4} {:>20} {:>12.4} {:>12.4} {:>12.4} {:>12.4}",
                            st.step,
                            format_timestamp(last + g.step * st.step as i64),
                            st.mean,
                            st.variance.max(0.0).sqrt(),
                            st.lower,
                            st.upper
                        );
                    }
                }
            }
        }
        out.push('\n');
    }
    crate::common::emit(&out);
    Ok(())
}

fn write_evaluation(out: &mut String, s: &Loaded, r: &Evaluation) {
    let _ = writeln!(
        out,
        "{}: {} values, {} origins from value {}; nominal coverage {:.0}%{}",
        s.name,
        r.len,
        r.origins,
        r.first_origin,
        100.0 * r.level,
        r.period
            .map_or(String::new(), |p| format!("; period {p} samples"))
    );
    let _ = writeln!(
        out,
        "  {:<16} {:>4} {:>9} {:>11} {:>11} {:>10} {:>11} {:>11} {:>8}",
        "method", "step", "forecasts", "MAE", "RMSE", "coverage", "mean width", "mean sd", "failed"
    );
    for m in &r.methods {
        for st in &m.steps {
            let _ = writeln!(
                out,
                "  {:<16} {:>4} {:>9} {:>11.4} {:>11.4} {:>9.1}% {:>11.4} {:>11.4} {:>8}",
                m.method.to_string(),
                st.step,
                st.forecasts,
                st.mae,
                st.rmse,
                100.0 * st.coverage,
                st.mean_width,
                st.mean_sd,
                m.failures
            );
        }
        if let Some(f) = &m.first_failure {
            let _ = writeln!(out, "    first failure: {f}");
        }
    }
    out.push('\n');
}
