//! `skyplan runway backtest FILE...`: the fitted growth model and the
//! planners' linear rule cut at past days of real series and scored
//! against the crossings that followed (`skyplan_engine::runway::backtest`).

use super::{days, scale, season};
use crate::common::{emit_report, Failure};
use crate::input::import_loaded;
use serde::Serialize;
use skyplan_engine::import::ImportOptions;
use skyplan_engine::runway::{backtest, cluster_peaks, BacktestParams, BacktestReport};
use std::fmt::Write as _;

#[derive(Serialize)]
struct Out {
    #[serde(flatten)]
    all: BacktestReport,
    per_series: Vec<BacktestReport>,
    /// Each sample a period (`--per sample`), not a day.
    per_sample: bool,
}

/// Runs `skyplan runway backtest`.
pub fn run(parser: &mut lexopt::Parser) -> Result<(), Failure> {
    use lexopt::prelude::*;
    let mut files = Vec::new();
    let mut json = false;
    let mut per_sample = false;
    let mut p = BacktestParams::default();
    while let Some(arg) = parser.next()? {
        match arg {
            Long("json") => json = true,
            Long("rises") => {
                let text = parser.value()?.string()?;
                p.rises = text
                    .split(',')
                    .map(|r| r.trim().parse::<f64>())
                    .collect::<Result<_, _>>()
                    .map_err(|_| {
                        Failure::usage(format!("--rises: fractions such as 0.05,0.1, got `{text}`"))
                    })?;
            }
            Long("min-history") => {
                p.min_history_days = days(&parser.value()?.string()?, "--min-history")? as usize
            }
            Long("cut-every") => {
                p.cut_every_days = days(&parser.value()?.string()?, "--cut-every")? as usize
            }
            Long("per") => {
                per_sample = match parser.value()?.string()?.as_str() {
                    "day" => false,
                    "sample" => true,
                    other => {
                        return Err(Failure::usage(format!(
                            "--per: `day` (daily peaks, the default) or `sample` (each sample a period), got `{other}`"
                        )))
                    }
                }
            }
            Long("horizon") => {
                p.horizon_days = days(&parser.value()?.string()?, "--horizon")? as usize
            }
            Long("season") => p.season = season(&parser.value()?.string()?)?,
            Long("scale") => p.scale = scale(&parser.value()?.string()?)?,
            Value(v) => files.push(v.string()?),
            other => return Err(other.unexpected().into()),
        }
    }
    if files.is_empty() {
        return Err(Failure::usage(
            "runway backtest: give one or more utilization series files",
        ));
    }
    let mut series = Vec::new();
    let mut steps = Vec::new();
    for path in &files {
        let loaded = import_loaded(path, &ImportOptions::default())?;
        for s in &loaded.data.series {
            let name = if loaded.data.series.len() == 1 {
                path.clone()
            } else {
                format!("{path}:{}:{}", s.server, s.resource)
            };
            if per_sample {
                if let Some(step) = median_step_days(&s.timestamps) {
                    steps.push(step);
                }
                series.push((name, s.values.clone()));
            } else {
                for peaks in cluster_peaks([s]) {
                    series.push((name.clone(), peaks.peaks));
                }
            }
        }
    }
    if series.is_empty() {
        return Err(Failure::input(
            "runway backtest: no utilization series in these files",
        ));
    }
    if per_sample {
        // The calendar's week and year in the samples' own steps (the
        // series' median step; several series: their median).
        steps.sort_by(f64::total_cmp);
        p.step_days = steps.get(steps.len() / 2).copied().unwrap_or(1.0);
    }
    let all = backtest(&series, &p).map_err(Failure::refused)?;
    let per_series = series
        .iter()
        .filter_map(|s| backtest(std::slice::from_ref(s), &p).ok())
        .collect();
    emit_report(
        json,
        &Out {
            all,
            per_series,
            per_sample,
        },
        text,
    );
    Ok(())
}

/// The median step between `timestamps` (seconds), in days.
fn median_step_days(timestamps: &[i64]) -> Option<f64> {
    let mut d: Vec<i64> = timestamps
        .windows(2)
        .map(|w| w[1] - w[0])
        .filter(|&d| d > 0)
        .collect();
    d.sort_unstable();
    d.get(d.len() / 2).map(|&s| s as f64 / 86_400.0)
}

fn text(o: &Out) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{:<48} {:>6} {:>9} {:>9} {:>9} {:>9}",
        "series", "cases", "cover", "median", "line cov", "line med"
    );
    let row = |s: &mut String, name: &str, r: &BacktestReport| {
        let _ = writeln!(
            s,
            "{:<48} {:>6} {:>8.0}% {:>8.0}% {:>8.0}% {:>8.0}%",
            name,
            r.cases,
            r.fitted.coverage * 100.0,
            r.fitted.median_error * 100.0,
            r.baseline.coverage * 100.0,
            r.baseline.median_error * 100.0
        );
    };
    for r in &o.per_series {
        row(&mut s, &r.series.join(", "), r);
    }
    row(&mut s, "all", &o.all);
    let seasons: Vec<String> = o
        .all
        .seasons
        .iter()
        .map(|[period, cuts]| format!("period {period} on {cuts} cut(s)"))
        .collect();
    let _ = writeln!(
        s,
        "\nseason of the fitted model: {} of {} cuts",
        if seasons.is_empty() {
            "none".to_string()
        } else {
            seasons.join(", ")
        },
        o.all.cuts
    );
    let _ = writeln!(
        s,
        "scale of the fitted trend: log on {} of {} cuts, level on the rest",
        o.all.log_scale_cuts, o.all.cuts
    );
    let _ = writeln!(
        s,
        "cover: share of true crossings inside P10–P90 (nominal 80 %); median: |predicted − true| / true time to crossing (median true time {:.0} {unit}s). fitted: auto-ARIMA on {peaks} with the season the history shows; line: least-squares line on {peaks}.",
        o.all.median_true_days,
        unit = if o.per_sample { "sample" } else { "day" },
        peaks = if o.per_sample { "the samples" } else { "daily peaks" },
    );
    s
}
