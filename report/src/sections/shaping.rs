//! The shaping recommendation: the Shaping panel's run redone with its
//! settings (the panel's defaults when it never ran) — the reservation
//! baseline against the shaped run, turnaround and slack, and what the
//! worst-off applications pay for it.

use crate::chart::bars;
use crate::context::Context;
use crate::fmt::{count, duration, fixed, pct};
use crate::html::{Html, Table};
use crate::progress::{Progress, Stage};
use skyplan_engine::bundle::{ShapingSettings, WorkloadSource};
use skyplan_engine::shaping::{
    generate_for, read_workload_files, simulate, RunSummary, ShapingReport, Workload,
};

/// The run's workload and where it came from, in words.
fn workload(ctx: &Context<'_>, settings: &ShapingSettings) -> Result<(String, Workload), String> {
    match settings.source {
        WorkloadSource::Generated => {
            let g = &settings.params.workload;
            generate_for(&settings.params)
                .map(|w| {
                    (
                        format!(
                            "generated: {} applications, seed {}, load {}",
                            g.apps, g.seed, g.load
                        ),
                        w,
                    )
                })
                .map_err(|e| e.to_string())
        }
        WorkloadSource::Files => {
            let files = ctx
                .bundle
                .shaping
                .as_ref()
                .and_then(|s| s.files.as_ref())
                .ok_or("The run read its workload from files, and the workspace holds none.")?;
            let named: Vec<(&str, &str)> = files
                .files
                .iter()
                .map(|f| (f.name.as_str(), f.text.as_str()))
                .collect();
            read_workload_files(&named, settings.params.host_cpu, settings.params.host_mem)
                .map_err(|e| e.to_string())
        }
    }
}

/// Writes the section; present when the bundle holds the Shaping panel's
/// state.
pub fn write(ctx: &Context<'_>, h: &mut Html, progress: &mut dyn FnMut(Progress)) -> bool {
    let Some(state) = &ctx.bundle.shaping else {
        h.absent("No shaping run in this workspace.");
        return false;
    };
    let settings = state.settings.clone().unwrap_or_default();
    let whose = if state.settings.is_some() {
        "the latest run's"
    } else {
        "the panel's defaults (it never ran)"
    };
    let run = workload(ctx, &settings).and_then(|(source, w)| {
        simulate(&w, &settings.params, |d, t| {
            progress(Progress::at(Stage::Shaping, d, t));
        })
        .map(|r| (source, r))
        .map_err(|e| e.to_string())
    });
    match run {
        Ok((source, report)) => results(h, &report, &source),
        Err(e) => h.para_in("problem", &format!("The shaping run was refused: {e}")),
    }
    let p = &settings.params;
    h.settings(&[
        ("settings", whose.to_string()),
        (
            "cluster",
            format!(
                "{} hosts × {} cores, {} GB",
                p.hosts,
                fixed(p.host_cpu, 0),
                fixed(p.host_mem, 0)
            ),
        ),
        (
            "shaping",
            format!(
                "{} policy, {} forecasts, β = K1·R + K2·spread with K1 = {}, K2 = {} ({:?}), grace {} min",
                p.policy, p.predictor, p.k1, p.k2, p.spread, p.grace_minutes
            ),
        ),
        (
            "forecasts",
            format!(
                "{} past observations, GP window {}, refit every {} min, crash limit {}",
                p.history, p.gp_window, p.refit_every, p.max_crashes
            ),
        ),
        (
            "workload",
            match settings.source {
                WorkloadSource::Generated => format!(
                    "generator: {} applications, load {}, {} rigid, seed {}",
                    p.workload.apps,
                    p.workload.load,
                    pct(p.workload.rigid_share * 100.0),
                    p.workload.seed
                ),
                WorkloadSource::Files => "the files the panel read".into(),
            },
        ),
    ]);
    true
}

fn results(h: &mut Html, r: &ShapingReport, source: &str) {
    let (b, s) = (&r.baseline.summary, &r.shaped.summary);
    let w = &r.worst_off;
    h.para(&format!(
        "Workload: {source} — {} applications ({} rigid), arrivals over {}.",
        count(r.workload.apps),
        count(r.workload.rigid),
        duration(r.workload.arrival_span_s)
    ));
    h.figures(&[
        (
            "turnaround speed-up (baseline / shaped mean)",
            format!("{}×", fixed(r.turnaround_speedup, 2)),
        ),
        (
            "cluster CPU slack, baseline → shaped",
            format!(
                "{} → {}",
                pct(b.cluster_slack_cpu_pct),
                pct(s.cluster_slack_cpu_pct)
            ),
        ),
        (
            "p99 slowdown of an application",
            format!("{}×", fixed(w.p99_slowdown, 2)),
        ),
        (
            "applications slower than under reservations",
            count(w.slower_apps),
        ),
    ]);
    let verdict = if r.turnaround_speedup > 1.0 {
        format!(
            "Recommendation: shape ({} policy with {} forecasts): mean turnaround falls {}× against reservations and the cluster's CPU slack from {} to {}. The price: {} application(s) fail at least once, {} of the work is lost and redone, and the worst-off applications wait up to {}× their reserved turnaround (median {}×, p99 {}×).",
            r.params.policy,
            r.params.predictor,
            fixed(r.turnaround_speedup, 2),
            pct(b.cluster_slack_cpu_pct),
            pct(s.cluster_slack_cpu_pct),
            count(s.failed_apps),
            pct(s.wasted_pct),
            fixed(w.max_slowdown, 2),
            fixed(w.median_slowdown, 2),
            fixed(w.p99_slowdown, 2),
        )
    } else {
        format!(
            "Recommendation: keep reservations. Shaping does not shorten the mean turnaround on this workload ({}×).",
            fixed(r.turnaround_speedup, 2)
        )
    };
    h.para_in("verdict", &verdict);
    let mut t = Table::new(
        "Reservation baseline against the shaped run",
        &["measure", "#baseline", "#shaped"],
    );
    type Measure = (&'static str, fn(&RunSummary) -> String);
    let rows: [Measure; 12] = [
        ("mean turnaround", |x| duration(x.mean_turnaround_s)),
        ("median turnaround", |x| duration(x.median_turnaround_s)),
        ("95th percentile turnaround", |x| {
            duration(x.p95_turnaround_s)
        }),
        ("mean CPU slack per application", |x| {
            pct(x.mean_slack_cpu_pct)
        }),
        ("mean memory slack per application", |x| {
            pct(x.mean_slack_mem_pct)
        }),
        ("cluster CPU slack", |x| pct(x.cluster_slack_cpu_pct)),
        ("cores allocated / used", |x| {
            format!("{} / {}", pct(x.allocated_cpu_pct), pct(x.used_cpu_pct))
        }),
        ("applications failed at least once", |x| {
            format!("{} ({})", count(x.failed_apps), pct(x.failed_apps_pct))
        }),
        ("applications preempted whole", |x| count(x.preempted_apps)),
        ("elastic components preempted", |x| {
            count(x.component_preemptions)
        }),
        ("work lost", |x| pct(x.wasted_pct)),
        ("makespan", |x| duration(x.makespan_s)),
    ];
    for (name, f) in rows {
        t.row(vec![name.to_string(), f(b), f(s)]);
    }
    h.table(&t);
    let chart_rows = vec![
        (
            "mean turnaround (min)".to_string(),
            vec![b.mean_turnaround_s / 60.0, s.mean_turnaround_s / 60.0],
        ),
        (
            "p95 turnaround (min)".to_string(),
            vec![b.p95_turnaround_s / 60.0, s.p95_turnaround_s / 60.0],
        ),
        (
            "cluster CPU slack (%)".to_string(),
            vec![b.cluster_slack_cpu_pct, s.cluster_slack_cpu_pct],
        ),
    ];
    if let Some(svg) = bars(&chart_rows, &["reservations", "shaped"], "") {
        h.chart(&svg, "Turnaround and slack, baseline against shaped");
    }
    h.heading(3, "What the worst-off applications pay");
    h.para(&format!(
        "Slowdown = an application's shaped turnaround over its own turnaround under reservations: median {}×, p99 {}×, worst {}×; {} application(s) are more than 1 % slower.",
        fixed(w.median_slowdown, 2),
        fixed(w.p99_slowdown, 2),
        fixed(w.max_slowdown, 2),
        count(w.slower_apps)
    ));
    if !w.worst.is_empty() {
        let mut t = Table::new(
            "The worst-off applications",
            &["application", "#slowdown", "#crashes"],
        );
        for (name, slowdown, crashes) in &w.worst {
            t.row(vec![
                name.clone(),
                format!("{}×", fixed(*slowdown, 2)),
                count(*crashes as usize),
            ]);
        }
        h.table(&t);
    }
}
