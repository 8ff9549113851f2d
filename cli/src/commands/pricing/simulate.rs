//! `skyplan simulate-pricing`: MRM §6.3's simulation — priced deadlines on
//! EDF against FCFS and non-preemptive priority on one server, delay-
//! sensitive and delay-tolerant users — at one or several loads, as a
//! comparison table or JSON.

use crate::common::Failure;
use crate::input::import_loaded;
use skyplan_engine::import::{Format, ImportOptions};
use skyplan_engine::pricing::{
    sweep, ByClass, Durations, PolicyReport, SimParams, SimReport, Summary,
};
use std::fmt::Write as _;

/// `skyplan simulate-pricing --help`.
pub const HELP: &str = "\
skyplan simulate-pricing — MRM §6.3: priced deadlines, FCFS and priority

USAGE:
    skyplan simulate-pricing [--jobs N] [--interarrival S[,S...]] [--alpha A]
                             [--kappa K] [--ds-share X] [--error-share X]
                             [--pi-level X] [--gamma S] [--mean-secs S]
                             [--durations HISTORY] [--charge-in-service]
                             [--charge-weight W] [--seed N] [--json]

One server (M/G/1): delay-sensitive users paying up to α·p̂ and
delay-tolerant ones p̂ for the earliest deadline they can afford under
eq. (13); MRM (preemptive EDF on the committed deadlines) against FCFS and
non-preemptive priority, jobs running for their actual time while the
scheduler sees the PI upper limit. Per load and policy: tardy %,
delay-sensitive waiting, earliness, slack, premium, jumping ahead.

OPTIONS:
    --jobs N               Poisson arrivals simulated (default 500000)
    --interarrival S[,S…]  mean inter-arrival times, seconds (default
                           50,100,200: high, medium, low load)
    --alpha A              delay-sensitive purchasing power (default 2)
    --kappa K              eq. (13)'s price scale κ (default 2)
    --ds-share X           delay-sensitive share of the users (default 0.5)
    --error-share X        σ of the estimation error / mean processing time
                           (default 0.133: 4.8 s of 36 s)
    --pi-level X           share of jobs over-estimated, the PI level
                           (default 0.95)
    --gamma S              the slack unit γ, seconds (default: the mean
                           estimated processing time)
    --mean-secs S          mean of the built-in Table 1 mix, seconds
                           (default 36)
    --durations HISTORY    processing times (map + reduce seconds) from a
                           job-history CSV instead of the Table 1 mix
    --charge-in-service    eq. (13) also charges for the slack of the job in
                           service (default: off)
    --charge-weight W      multiplies eq. (13)'s charge (default 1)
    --seed N               seed of the jobs and arrivals (default 1)
    --json                 print the parameters and reports as JSON
    -h, --help             print this help
";

/// What was asked on the command line.
struct Args {
    params: SimParams,
    interarrivals: Vec<f64>,
    durations_file: Option<String>,
    json: bool,
}

fn parse(parser: &mut lexopt::Parser) -> Result<Args, Failure> {
    use lexopt::prelude::*;
    let mut a = Args {
        params: SimParams::default(),
        interarrivals: vec![50.0, 100.0, 200.0],
        durations_file: None,
        json: false,
    };
    let p = &mut a.params;
    while let Some(arg) = parser.next()? {
        match arg {
            Long("jobs") => p.jobs = parser.value()?.parse()?,
            Long("interarrival") => {
                let v = parser.value()?.string()?;
                a.interarrivals = v
                    .split(',')
                    .map(|s| {
                        s.trim().parse::<f64>().map_err(|_| {
                            Failure::usage(format!("--interarrival: `{s}` is not a number"))
                        })
                    })
                    .collect::<Result<_, _>>()?;
            }
            Long("alpha") => p.alpha = parser.value()?.parse()?,
            Long("kappa") => p.kappa = parser.value()?.parse()?,
            Long("ds-share") => p.ds_share = parser.value()?.parse()?,
            Long("error-share") => p.error_share = parser.value()?.parse()?,
            Long("pi-level") => p.pi_level = parser.value()?.parse()?,
            Long("gamma") => p.mean_job_secs = Some(parser.value()?.parse()?),
            Long("mean-secs") => {
                p.durations = Durations::Table1 {
                    mean_secs: parser.value()?.parse()?,
                }
            }
            Long("seed") => p.seed = parser.value()?.parse()?,
            Long("charge-in-service") => p.charge_in_service = true,
            Long("charge-weight") => p.charge_weight = parser.value()?.parse()?,
            Long("durations") => a.durations_file = Some(parser.value()?.string()?),
            Long("json") => a.json = true,
            _ => return Err(arg.unexpected().into()),
        }
    }
    Ok(a)
}

/// Processing times from a job history: `map_secs + reduce_secs` of each
/// job, jobs without any time left out. Returns them and a description.
fn load_durations(path: &str) -> Result<(Vec<f64>, String), Failure> {
    let f = import_loaded(path, &ImportOptions::default())?;
    if !f.format.job_history() {
        return Err(Failure::input(format!(
            "{path} is {}; --durations needs a job history ({} or {})",
            f.format,
            Format::JobHistoryCsv,
            Format::MapreduceHistoryJson
        )));
    }
    let all = f.data.workload.len();
    let secs: Vec<f64> = f
        .data
        .workload
        .iter()
        .map(|j| j.map_secs.unwrap_or(0.0) + j.reduce_secs.unwrap_or(0.0))
        .filter(|s| *s > 0.0)
        .collect();
    if secs.is_empty() {
        return Err(Failure::input(format!(
            "{path}: no job with a positive map + reduce time"
        )));
    }
    let mean = secs.iter().sum::<f64>() / secs.len() as f64;
    let skipped = all - secs.len();
    let note = if skipped > 0 {
        format!(", {skipped} without any time left out")
    } else {
        String::new()
    };
    Ok((
        secs,
        format!(
            "{path}: {} jobs' map + reduce times, mean {mean:.1} s{note}",
            all - skipped
        ),
    ))
}

/// Runs `skyplan simulate-pricing`.
pub fn run(parser: &mut lexopt::Parser) -> Result<(), Failure> {
    let mut a = parse(parser)?;
    let source = match &a.durations_file {
        Some(path) => {
            let (secs, what) = load_durations(path)?;
            a.params.durations = Durations::List { secs };
            what
        }
        None => match &a.params.durations {
            Durations::Table1 { mean_secs } => {
                format!("Table 1 workload (100 jobs), mean {mean_secs} s")
            }
            Durations::List { .. } => "given list".into(),
        },
    };
    let runs = sweep(&a.params, &a.interarrivals).map_err(|e| Failure::usage(e.to_string()))?;
    if a.json {
        let doc = serde_json::json!({
            "durations": source,
            "params": a.params_without_list(),
            "runs": runs.iter().map(|(m, r)| serde_json::json!({
                "mean_interarrival_secs": m,
                "report": r,
            })).collect::<Vec<_>>(),
        });
        crate::common::emit_json(&doc);
        return Ok(());
    }
    let p = &a.params;
    let mut out = format!(
        "MRM §6.3 simulation: {source}; α = {}, κ = {}, {:.0} % delay-sensitive, \
         σ_err = {:.3} × mean, {:.0} % PI, seed {}\n",
        p.alpha,
        p.kappa,
        100.0 * p.ds_share,
        p.error_share,
        100.0 * p.pi_level,
        p.seed
    );
    for (m, r) in &runs {
        print_run(&mut out, *m, r);
    }
    out.push_str(
        "\nwait: finish − arrival − processing; earliness: deadline − finish of on-time jobs; \
         slack: free time offered after the earliest finish (δ·γ); premium: price / actual time; \
         jumped: DS jobs finishing before an earlier arrival (all DS | those that saw a DT job)\n",
    );
    crate::common::emit(&out);
    Ok(())
}

impl Args {
    /// The settings for the JSON output, without a long duration list.
    fn params_without_list(&self) -> serde_json::Value {
        let mut v = serde_json::to_value(&self.params).unwrap_or_default();
        if let Some(list) = v.pointer_mut("/durations/secs") {
            let n = list.as_array().map_or(0, Vec::len);
            *list = serde_json::json!(format!("{n} values"));
        }
        v
    }
}

fn num(v: Option<f64>, digits: usize) -> String {
    v.map_or("–".into(), |v| format!("{v:.digits$}"))
}

fn p50_p95(s: Option<Summary>, digits: usize) -> String {
    match s {
        Some(s) => format!("{:.digits$}/{:.digits$}", s.p50, s.p95),
        None => "–".into(),
    }
}

fn classes(c: &ByClass<Option<Summary>>, digits: usize) -> (String, String) {
    (p50_p95(c.ds, digits), p50_p95(c.dt, digits))
}

fn print_run(out: &mut String, gap: f64, r: &SimReport) {
    let _ = writeln!(
        out,
        "\ninter-arrival {gap} s: {} jobs, load {}, mean processing {:.1} s, γ = {:.1} s",
        r.jobs,
        num(r.load, 3),
        r.mean_processing_secs,
        r.mean_job_secs
    );
    let _ = writeln!(
        out,
        "{:<9} {:>21} {:>25} {:>9} {:>13} {:>13} {:>11} {:>11} {:>13}",
        "policy",
        "tardy % DS/DT/all",
        "DS wait mean [p5,p95] s",
        "early p50",
        "slack DS p50/95",
        "slack DT p50/95",
        "prem DS",
        "prem DT",
        "jumped %"
    );
    for pol in &r.policies {
        let _ = writeln!(out, "{}", row(pol));
    }
}

fn row(pol: &PolicyReport) -> String {
    let t = &pol.tardy_percent;
    let tardy = format!("{}/{}/{}", num(t.ds, 2), num(t.dt, 2), num(t.all, 2));
    let wait = match pol.waiting.ds {
        Some(w) => format!("{:.1} [{:.1}, {:.1}]", w.mean, w.p5, w.p95),
        None => "–".into(),
    };
    let early = num(pol.earliness.all.map(|s| s.p50), 1);
    let (slack_ds, slack_dt, prem_ds, prem_dt) = match &pol.pricing {
        Some(pr) => {
            let (a, b) = classes(&pr.slack, 1);
            let (c, d) = classes(&pr.premium, 2);
            (a, b, c, d)
        }
        None => ("–".into(), "–".into(), "–".into(), "–".into()),
    };
    let jumped = format!(
        "{} | {}",
        num(pol.jumped_ahead_percent, 1),
        num(pol.jumped_ahead_of_those_percent, 1)
    );
    format!(
        "{:<9} {tardy:>21} {wait:>25} {early:>9} {slack_ds:>13} {slack_dt:>13} {prem_ds:>11} {prem_dt:>11} {jumped:>13}",
        pol.policy.name()
    )
}
