//! `skyplan shape`: dynamic resource shaping (the resource-shaping paper,
//! §III-B, §IV): `shape simulate` runs the reservation baseline and a
//! shaped run on a generated or given workload; `shape grid` prints the
//! K1 × K2 heat maps (Figure 3) with the recommended cell.

use super::options::{is_params_flag, params_option, predictor};
use crate::common::{emit, json, Failure};
use skyplan_engine::shaping::{
    compare_policies, generate_for, grid, read_applications_csv, read_applications_json, simulate,
    workload_from_alibaba, workload_from_google, GridParams, GridReport, Params, RunSummary,
    ShapingReport, Workload,
};
use std::fmt::Write as _;

/// `skyplan shape --help`.
pub const HELP: &str = "\
skyplan shape — dynamic resource shaping: β, Algorithm 1, the §IV simulation

USAGE:
    skyplan shape simulate [--apps N] [--hosts N] [--predictor oracle|arima|gp]
                  [--policy pessimistic|optimistic|reservation] [--k1 X]
                  [--k2 X] [--seed N] [--compare] [--json] [INPUT OPTIONS]
    skyplan shape grid [--apps N] [--hosts N] [--seeds N] [--target X]
                  [--predictors arima,gp] [--json] [INPUT OPTIONS]
    skyplan shape generate [--apps N] [--hosts N] [--seed N] [--usage M]
                  --out DIR

`simulate` runs the reservation baseline (full requests, never changed)
and the shaped run (allocations follow the forecast + β = K1·R + K2·σR,
refreshed every minute after the grace period) on the same workload, and
prints turnaround, slack, failures, preemptions and wasted work of both.
With --compare, the three policies side by side (Figure 2's box plots).
`grid` runs every (K1, K2) of Figure 3 for each forecaster, averaged over
--seeds generated workloads, and prints the turnaround ratio (baseline /
shaped), memory slack and failed applications as tables, with the best
cell whose failures stay under --target.
`generate` writes the generated workload as DIR/apps.csv and
DIR/usage.csv, the files --apps-csv and --usage-csv read back.

OPTIONS:
    --apps N            generated applications (default 1000); the paper's:
                        150000
    --hosts N           hosts (default 250)
    --host-cpu X        cores per host (default 32)
    --host-mem X        GB per host (default 128)
    --load X            requested CPU over capacity of the generated
                        workload (default 1.3)
    --seed N            the generated workload's seed (default 7)
    --arrivals A        when applications arrive (default model): model,
                        as --usage says; bursty, the reference's bursts
                        of 50 in the first tenth; spread, one at a time
                        over the whole span (same applications, same load)
    --usage M           the generated usage and arrivals (default reference):
                        reference, the first author's simulator (smoothed
                        random walk with sparse jumps, bursts of 50
                        arrivals in the first tenth, then a drain), or
                        plateau (ramp to a noisy plateau, arrivals spread)
    --rigid-share X     share of rigid applications (default 0.2)
    --predictor P       oracle, arima or gp (default gp)
    --policy P          pessimistic, optimistic or reservation (default
                        pessimistic)
    --k1 X              the guaranteed share of the request (default 0.05)
    --k2 X              the multiple of the forecast's spread (default 3)
    --spread S          what K2 multiplies (default std): std, the
                        forecast's standard deviation, or variance, the
                        formula as printed (cores², GB²)
    --grace N           minutes before the first resize (default 10)
    --history N         observations the forecasters see (default 10)
    --refit-every N     minutes between model refits (default 30)
    --gp-window N       the GP's pattern length, lags per pattern (default
                        3; the reference simulator's is 20 on 50
                        observations, refitted every 10)
    --preempt-on R      what Algorithm 1 preempts on (default cpu-and-memory,
                        as printed): cpu-and-memory or memory (the
                        reference simulator's: CPU beyond a host is shared)
    --max-crashes N     crashes after which shaping is turned off for an
                        application, which then runs with its full
                        request (default 5); nothing is abandoned
    --timeline-app NAME the application whose timeline is kept (default:
                        the first elastic one running an hour, after the
                        first tenth of the arrivals)
    --compare           simulate: the three policies (Figure 2)
    --seeds N           grid: generated workloads averaged (default 3)
    --predictors LIST   grid: comma-separated (default arima,gp)
    --target X          grid: the failure rate the recommendation must meet,
                        % of applications (default 1)
    --out DIR           generate: the folder to write apps.csv and usage.csv
                        into (created if missing)
    --json              the whole report as JSON (timelines included)
    -h, --help          print this help

INPUT OPTIONS (instead of a generated workload):
    --apps-csv FILE --usage-csv FILE   our applications CSV (one row per
                        component group: app,arrival,runtime,kind,count,
                        cpu,mem) and usage CSV (app,minute,cpu,mem as
                        fractions of the request)
    --workload-json FILE   a workload as JSON
    --alibaba-meta FILE --alibaba-usage FILE   Alibaba v2018
                        container_meta.csv and container_usage.csv: one
                        application per app_du, its containers as core
                        components
    --google-events FILE --google-usage FILE   Google cluster-data 2019
                        instance_events and instance_usage (BigQuery's CSV
                        or JSON lines): one application per collection_id,
                        its instances as core components, requests as
                        shares of --host-cpu and --host-mem
";

struct Args {
    grid: bool,
    generate: bool,
    out: Option<String>,
    compare: bool,
    json: bool,
    params: Params,
    g: GridParams,
    apps_csv: Option<String>,
    usage_csv: Option<String>,
    workload_json: Option<String>,
    alibaba_meta: Option<String>,
    alibaba_usage: Option<String>,
    google_events: Option<String>,
    google_usage: Option<String>,
}

fn parse(parser: &mut lexopt::Parser) -> Result<Args, Failure> {
    use lexopt::prelude::*;
    let mut a = Args {
        grid: false,
        generate: false,
        out: None,
        compare: false,
        json: false,
        params: Params::default(),
        g: GridParams::default(),
        apps_csv: None,
        usage_csv: None,
        workload_json: None,
        alibaba_meta: None,
        alibaba_usage: None,
        google_events: None,
        google_usage: None,
    };
    let mut first = true;
    while let Some(arg) = parser.next()? {
        match arg {
            Long(name) if is_params_flag(name) => {
                let name = name.to_string();
                params_option(&name, parser, &mut a.params)?;
            }
            Value(v) if first && v == "simulate" => {}
            Value(v) if first && v == "grid" => a.grid = true,
            Value(v) if first && v == "generate" => a.generate = true,
            Long("out") => a.out = Some(parser.value()?.string()?),
            Long("compare") => a.compare = true,
            Long("seeds") => a.g.seeds = parser.value()?.parse()?,
            Long("predictors") => {
                a.g.predictors = parser
                    .value()?
                    .string()?
                    .split(',')
                    .map(|s| predictor(s.trim()))
                    .collect::<Result<_, _>>()?
            }
            Long("target") => a.g.target_failed_pct = parser.value()?.parse()?,
            Long("json") => a.json = true,
            Long("apps-csv") => a.apps_csv = Some(parser.value()?.string()?),
            Long("usage-csv") => a.usage_csv = Some(parser.value()?.string()?),
            Long("workload-json") => a.workload_json = Some(parser.value()?.string()?),
            Long("alibaba-meta") => a.alibaba_meta = Some(parser.value()?.string()?),
            Long("alibaba-usage") => a.alibaba_usage = Some(parser.value()?.string()?),
            Long("google-events") => a.google_events = Some(parser.value()?.string()?),
            Long("google-usage") => a.google_usage = Some(parser.value()?.string()?),
            _ => return Err(arg.unexpected().into()),
        }
        first = false;
    }
    a.params
        .validate()
        .map_err(|e| Failure::usage(e.to_string()))?;
    a.g.validate().map_err(|e| Failure::usage(e.to_string()))?;
    Ok(a)
}

fn read(path: &str) -> Result<String, Failure> {
    std::fs::read_to_string(path)
        .map_err(|e| Failure::input(format!("{path}: could not read the file ({e})")))
}

/// The given workload, if files were named.
fn given(a: &Args) -> Result<Option<Workload>, Failure> {
    let bad = |e: skyplan_engine::shaping::ShapingError| Failure::input(e.to_string());
    match (
        &a.apps_csv,
        &a.usage_csv,
        &a.workload_json,
        &a.alibaba_meta,
        &a.alibaba_usage,
        &a.google_events,
        &a.google_usage,
    ) {
        (Some(apps), Some(usage), None, None, None, None, None) => {
            read_applications_csv(apps, &read(apps)?, usage, &read(usage)?)
                .map(Some)
                .map_err(bad)
        }
        (None, None, Some(json), None, None, None, None) => {
            read_applications_json(json, &read(json)?).map(Some).map_err(bad)
        }
        (None, None, None, Some(meta), Some(usage), None, None) => workload_from_alibaba(
            meta,
            &read(meta)?,
            usage,
            &read(usage)?,
            a.params.host_mem,
        )
        .map(Some)
        .map_err(bad),
        (None, None, None, None, None, Some(events), Some(usage)) => workload_from_google(
            events,
            &read(events)?,
            usage,
            &read(usage)?,
            a.params.host_cpu,
            a.params.host_mem,
        )
        .map(Some)
        .map_err(bad),
        (None, None, None, None, None, None, None) => Ok(None),
        _ => Err(Failure::usage(
            "give --apps-csv with --usage-csv, or --workload-json, or --alibaba-meta with --alibaba-usage, or --google-events with --google-usage",
        )),
    }
}

fn hours(s: f64) -> String {
    if s >= 86_400.0 {
        format!("{:.1} d", s / 86_400.0)
    } else if s >= 3_600.0 {
        format!("{:.1} h", s / 3_600.0)
    } else {
        format!("{s:.0} s")
    }
}

fn summary_row(out: &mut String, name: &str, s: &RunSummary) {
    let _ = writeln!(
        out,
        "{name:<12} {:>10} {:>10} {:>8.1} {:>8.1} {:>8.2} {:>7} {:>7} {:>7} {:>7} {:>8.2} {:>6}",
        hours(s.mean_turnaround_s),
        hours(s.median_turnaround_s),
        s.cluster_slack_cpu_pct,
        s.cluster_slack_mem_pct,
        s.failed_apps_pct,
        s.app_preemptions,
        s.component_preemptions,
        s.failures,
        s.resubmissions,
        s.wasted_pct,
        s.shaping_off_apps,
    );
}

fn header(out: &mut String) {
    let _ = writeln!(
        out,
        "{:<12} {:>10} {:>10} {:>8} {:>8} {:>8} {:>7} {:>7} {:>7} {:>7} {:>8} {:>6}",
        "run",
        "mean turn",
        "median",
        "slack%c",
        "slack%m",
        "failed%",
        "preempt",
        "elastic",
        "crashes",
        "resub.",
        "wasted%",
        "off"
    );
}

fn text_simulate(r: &ShapingReport) -> String {
    let mut out = String::new();
    let w = &r.workload;
    let p = &r.params;
    let _ = writeln!(
        out,
        "workload: {} applications ({} rigid), {} components, arrivals over {}, requested CPU load {:.2} (used {:.2})",
        w.apps, w.rigid, w.components, hours(w.arrival_span_s), w.requested_cpu_load, w.used_cpu_load
    );
    let _ = writeln!(
        out,
        "cluster: {} hosts × {} cores × {} GB; shaped: {} with {} forecasts, K1 = {}, K2 = {}\n",
        p.hosts, p.host_cpu, p.host_mem, p.policy, p.predictor, p.k1, p.k2
    );
    header(&mut out);
    summary_row(&mut out, "reservation", &r.baseline.summary);
    summary_row(&mut out, p.policy.name(), &r.shaped.summary);
    let _ = writeln!(
        out,
        "\nturnaround: {:.2}× the baseline's (baseline mean / shaped mean, over all {} applications; none abandoned, {} unfinished)",
        r.turnaround_speedup, r.shaped.summary.apps, r.shaped.summary.unfinished
    );
    let wo = &r.worst_off;
    let _ = writeln!(
        out,
        "worst-off: p99 of each application's shaped / own baseline turnaround {:.2}× (median {:.2}×, max {:.2}×); {} applications slower than under reservations",
        wo.p99_slowdown, wo.median_slowdown, wo.max_slowdown, wo.slower_apps
    );
    for (name, ratio, crashes) in &wo.worst {
        let _ = writeln!(
            out,
            "  {name}: {ratio:.2}× its baseline turnaround, {crashes} crashes"
        );
    }
    let _ = writeln!(
        out,
        "shaping turned off after {} crashes for {} applications (they ran with their full request)",
        p.max_crashes, r.shaped.summary.shaping_off_apps
    );
    if let Some(app) = &r.timeline_app {
        let _ = writeln!(out, "timeline kept for `{app}` (in --json)");
    }
    out
}

fn text_grid(r: &GridReport) -> String {
    let mut out = String::new();
    for pred in &r.grid.predictors {
        for (title, f) in [
            (
                "turnaround ratio (baseline / shaped)",
                (|c: &skyplan_engine::shaping::GridCell| c.turnaround_ratio) as fn(&_) -> f64,
            ),
            ("memory slack %", |c| c.slack_mem_pct),
            ("applications failed %", |c| c.failed_apps_pct),
        ] {
            let _ = writeln!(out, "{pred}: {title}");
            let _ = write!(out, "{:>8}", "K2\\K1");
            for k1 in &r.grid.k1 {
                let _ = write!(out, " {:>8}", format!("{}%", k1 * 100.0));
            }
            out.push('\n');
            for k2 in &r.grid.k2 {
                let _ = write!(out, "{k2:>8}");
                for k1 in &r.grid.k1 {
                    let c = r
                        .cells
                        .iter()
                        .find(|c| c.predictor == *pred && c.k1 == *k1 && c.k2 == *k2)
                        .expect("every cell");
                    let mark = r
                        .recommended
                        .iter()
                        .any(|x| x.predictor == *pred && x.cell.k1 == *k1 && x.cell.k2 == *k2);
                    let v = format!("{:.2}{}", f(c), if mark { "*" } else { "" });
                    let _ = write!(out, " {v:>8}");
                }
                out.push('\n');
            }
            out.push('\n');
        }
    }
    for x in &r.recommended {
        let _ = writeln!(
            out,
            "recommended for {} (failures ≤ {} %): K1 = {} %, K2 = {} — {:.2}× turnaround, {:.1} % memory slack, {:.2} % failed; {:.2} crashes and {:.2} resubmissions per application, shaping turned off for {:.2} %; the worst-off (p99) wait {:.2}× their own baseline turnaround{}",
            x.predictor,
            x.target_failed_pct,
            x.cell.k1 * 100.0,
            x.cell.k2,
            x.cell.turnaround_ratio,
            x.cell.slack_mem_pct,
            x.cell.failed_apps_pct,
            x.cell.crashes_per_app,
            x.cell.resubmissions_per_app,
            x.cell.shaping_off_pct,
            x.cell.worst_off_p99,
            if x.meets_target { "" } else { " (no cell meets the target: the fewest failures)" }
        );
    }
    out
}

/// `skyplan shape generate --out DIR`: the generated workload as the two
/// shaping CSVs.
fn write_generated(a: &Args) -> Result<(), Failure> {
    let Some(dir) = &a.out else {
        return Err(Failure::usage("shape generate needs --out DIR"));
    };
    if a.apps_csv.is_some() || a.workload_json.is_some() || a.alibaba_meta.is_some() {
        return Err(Failure::usage(
            "shape generate writes a generated workload: no input files",
        ));
    }
    let w = generate_for(&a.params).map_err(|e| Failure::input(e.to_string()))?;
    let (apps, usage) = skyplan_engine::export::shaping_workload_csv(&w);
    let dir = std::path::Path::new(dir);
    let write = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text)
            .map_err(|e| Failure::input(format!("{}: could not write ({e})", path.display())))
    };
    std::fs::create_dir_all(dir)
        .map_err(|e| Failure::input(format!("{}: could not create ({e})", dir.display())))?;
    write("apps.csv", &apps)?;
    write("usage.csv", &usage)?;
    emit(&format!(
        "{} applications written to {} (apps.csv {} bytes, usage.csv {} bytes)\n",
        w.applications.len(),
        dir.display(),
        apps.len(),
        usage.len()
    ));
    Ok(())
}

/// Runs `skyplan shape simulate`, `grid` or `generate`.
pub fn run(parser: &mut lexopt::Parser) -> Result<(), Failure> {
    let a = parse(parser)?;
    let engine = |e: skyplan_engine::shaping::ShapingError| Failure::input(e.to_string());
    let given = given(&a)?;
    if a.generate {
        return write_generated(&a);
    }
    if a.grid {
        let workloads = match given {
            Some(w) => vec![w],
            None => (0..a.g.seeds as u64)
                .map(|s| {
                    let mut p = a.params.clone();
                    p.workload.seed = p.workload.seed.wrapping_add(s);
                    generate_for(&p)
                })
                .collect::<Result<Vec<_>, _>>()
                .map_err(engine)?,
        };
        let r = grid(&workloads, &a.params, &a.g, |_, _| {}).map_err(engine)?;
        emit(&if a.json { json(&r) } else { text_grid(&r) });
        return Ok(());
    }
    let w = match given {
        Some(w) => w,
        None => generate_for(&a.params).map_err(engine)?,
    };
    if a.compare {
        let r = compare_policies(&w, &a.params, |_, _| {}).map_err(engine)?;
        if a.json {
            crate::common::emit_json(&r);
        } else {
            let mut out = String::new();
            header(&mut out);
            for b in &r.policies {
                summary_row(&mut out, b.policy.name(), &b.summary);
            }
            emit(&out);
        }
        return Ok(());
    }
    let r = simulate(&w, &a.params, |_, _| {}).map_err(engine)?;
    emit(&if a.json { json(&r) } else { text_simulate(&r) });
    Ok(())
}
