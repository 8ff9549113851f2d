//! The report of the demo workspace: every section is there, its numbers
//! are the engine's (computed here again, independently of the report),
//! the page is inert, and it is measured (time and size, printed with
//! `--nocapture`).

use crate::common::{
    assert_inert, demo, demo_bundle, section, seeded_agenda_with_refusals, workspace_of,
};
use skyplan_engine::bundle::ShapingSettings;
use skyplan_engine::harvest::{
    capacity, classify, group_series, read_reimages_csv, read_tenants_csv, reimage_stats,
    simulate_durability, storage_tenants, tenant_series, CapacityParams, ClassifyParams,
    DurabilityParams, GroupParams,
};
use skyplan_engine::model::WorkloadJob;
use skyplan_engine::shaping::{generate_for, simulate};
use skyplan_engine::slo::DecisionKind;
use skyplan_engine::tuning::{
    compare, equal_queues, panel_params, simulated_latency, tune, window_groups, Cluster, RuleSet,
    SchedulerKind, TuningSettings,
};
use skyplan_report::{render, render_with_progress, ReportOptions, Stage};

/// `v` as the report writes it with `d` decimals.
fn fixed(v: f64, d: usize) -> String {
    format!("{v:.d$}")
}

/// The page's text as the reader sees it: tags as spaces, runs of
/// whitespace as one space, `&amp;` etc. decoded.
fn text(html: &str) -> String {
    let mut plain = String::with_capacity(html.len());
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => {
                in_tag = false;
                plain.push(' ');
            }
            c if !in_tag => plain.push(c),
            _ => {}
        }
    }
    let plain = plain.split_whitespace().collect::<Vec<_>>().join(" ");
    plain
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

#[test]
fn the_demo_report_has_every_section_with_the_engines_numbers() {
    let bundle = demo_bundle();
    let t0 = std::time::Instant::now();
    let mut stages = Vec::new();
    let report = render_with_progress(
        &bundle,
        &ReportOptions {
            title: Some("Demo plan".into()),
            source: Some("demo.skyplan".into()),
            generated_at: Some(1_793_577_600),
        },
        &mut |p| {
            if stages.last() != Some(&p.stage) {
                stages.push(p.stage);
            }
        },
    )
    .expect("report");
    let elapsed = t0.elapsed();
    let html = &report.html;
    println!(
        "demo report: {} bytes ({:.0} KB) in {:.2} s",
        html.len(),
        html.len() as f64 / 1024.0,
        elapsed.as_secs_f64()
    );
    assert_eq!(
        stages,
        [
            Stage::Sources,
            Stage::Runway,
            Stage::Sources,
            Stage::Slos,
            Stage::Agenda,
            Stage::Pricing,
            Stage::Harvest,
            Stage::Shaping,
            Stage::Tuning,
            Stage::Done
        ]
    );
    // To look at it: SKYPLAN_REPORT_DEMO_OUT=/tmp/demo.html cargo test -p skyplan-report --test demo
    // (and SKYPLAN_REPORT_DEMO_BUNDLE=/tmp/demo.skyplan for the bundle, for `skyplan report`).
    if let Ok(path) = std::env::var("SKYPLAN_REPORT_DEMO_OUT") {
        std::fs::write(&path, html).expect("write the demo report");
    }
    if let Ok(path) = std::env::var("SKYPLAN_REPORT_DEMO_BUNDLE") {
        let bytes = skyplan_engine::bundle::encode(&bundle).expect("encode");
        std::fs::write(&path, bytes).expect("write the demo bundle");
    }
    assert!(
        report.sections.iter().all(|s| s.present),
        "{:?}",
        report.sections
    );
    assert_eq!(report.sections.len(), 8);
    assert_eq!(
        report.sections[0].id, "runway",
        "the report opens with the runway"
    );
    assert_inert(html);
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(html.contains("<title>Demo plan</title>"));
    assert!(html.contains("@page"));
    // Every section heading, and a chart drawn in each section with data.
    for s in &report.sections {
        let body = section(html, s.id);
        assert!(body.contains(&format!("<h2>{}</h2>", s.title)), "{}", s.id);
        assert!(
            body.contains("Computed under"),
            "{} states no settings",
            s.id
        );
        if s.id != "sources" {
            assert!(
                body.contains("<svg class=\"chart\""),
                "{} has no chart",
                s.id
            );
            assert!(body.contains("<path") || body.contains("<rect"), "{}", s.id);
        }
        assert!(
            !body.contains("class=\"problem\""),
            "{}: {}",
            s.id,
            text(body)
        );
    }

    // Sources: the workspace's totals and span.
    let w = workspace_of(&bundle);
    let summary = w.summary();
    let sources = text(section(html, "sources"));
    for f in &bundle.files {
        assert!(sources.contains(&f.name));
    }
    let (first, last) = summary.span.expect("span");
    assert!(sources.contains(&skyplan_engine::time::format_timestamp(first)));
    assert!(sources.contains(&skyplan_engine::time::format_timestamp(last)));
    assert!(sources.contains(&format!("{} job runs", fmt_count(summary.runs))));
    assert!(sources.contains(&format!("{} history jobs", summary.workload_jobs)));

    // Runway: the figures `skyplan runway` prints, from the same call.
    let o = skyplan_report::runway::outcome(&bundle, None).expect("runway");
    let runway = text(section(html, "runway"));
    let r = &o.runway;
    assert_eq!(r.binding.as_deref(), Some("agenda"));
    assert!(runway.contains("agenda binding limit"), "{runway}");
    for l in &r.limits {
        assert!(runway.contains(&l.name), "{}: {runway}", l.name);
    }
    for p in r
        .purchases
        .purchases
        .iter()
        .chain(&r.purchases_p90.purchases)
    {
        let (y, m, d) = skyplan_engine::time::civil_from_days(p.date.div_euclid(86_400));
        assert!(
            runway.contains(&format!("{y:04}-{m:02}-{d:02} {}", p.machines)),
            "{runway}"
        );
    }
    for l in &o.levers {
        assert!(runway.contains(&l.detail), "{}: {runway}", l.name);
    }
    // No lever frees more machines than the grown demand needs (today's
    // machines and the P50 purchases) nor buys more days than the
    // horizon. The demo's primary tenants harvest thousands of cores, far
    // more than its 24 two-core machines carry: capped at the need.
    let needed = f64::from(r.cluster.machines + r.purchases.total);
    for l in &o.levers {
        if let Some(m) = l.machines {
            assert!(
                m.is_finite() && m <= needed + 1e-9,
                "{}: {m} of {needed}",
                l.name
            );
        }
        if let Some(d) = l.days {
            assert!(
                d <= i64::from(o.params.horizon_days),
                "{}: {d} days",
                l.name
            );
        }
    }
    let harvest = o.levers.iter().find(|l| l.name == "harvesting").unwrap();
    assert_eq!(harvest.machines, Some(needed), "{}", harvest.detail);

    // SLOs: every contract with its peak.
    let slos = text(section(html, "slos"));
    let signed = bundle
        .decisions
        .iter()
        .filter(|d| d.kind == DecisionKind::SignedOff)
        .count();
    assert!(slos.contains(&format!("{signed} signed off")));
    for d in &bundle.decisions {
        assert!(slos.contains(&d.job));
        let peak = d.skyline.as_ref().expect("skyline").peak();
        assert!(slos.contains(&format!("peak {} containers", fixed(peak, 1))));
    }

    // Agenda: the plan's peak and the requests the panel's admission
    // refused, with the engine's reasons.
    let agenda = text(section(html, "agenda"));
    let plan = bundle.agenda.as_ref().unwrap().plan.as_ref().unwrap();
    assert!(agenda.contains(&format!("{} peak cost", fixed(plan.peak(), 3))));
    let (_, refused) = seeded_agenda_with_refusals(&bundle.decisions);
    assert!(!refused.is_empty(), "the demo's capacity refuses some jobs");
    for (name, reason) in &refused {
        // The reason kept at admission, and the same when admitted again.
        assert!(agenda.contains(name.as_str()), "{name}");
        assert!(
            agenda.contains(&format!("refused: {reason}")),
            "{name}: {reason}"
        );
        assert!(agenda.matches(reason.as_str()).count() >= 2, "{name}: kept");
    }
    for r in plan.reservations() {
        assert!(agenda.contains(&r.request.name));
    }

    // Pricing: every job, the revenue.
    let pricing = text(section(html, "pricing"));
    let queue = &bundle.pricing.as_ref().unwrap().queue;
    let revenue: f64 = queue.iter().filter_map(|a| a.price).sum();
    assert!(pricing.contains(&format!("{} revenue", fixed(revenue, 2))));
    for a in queue {
        assert!(pricing.contains(&a.job.name));
        assert!(pricing.contains(&fixed(a.price.unwrap(), 2)));
    }

    // Harvest: classes, capacity, durability.
    let harvest = text(section(html, "harvest"));
    let infos = read_tenants_csv("tenants.csv", &demo("tenants.csv")).unwrap();
    let series = tenant_series(w.series(), &infos);
    let (set, _) = group_series(&series, Some(&infos), None, &GroupParams::default()).unwrap();
    let c = classify(&set, &ClassifyParams::default()).unwrap();
    let m = capacity(&c, &CapacityParams::default()).unwrap();
    assert!(harvest.contains(&format!("{} classes", c.classes.len())));
    for (k, row) in c.classes.iter().zip(&m.classes) {
        assert!(harvest.contains(&k.id));
        assert!(harvest.contains(&format!(
            "{} / {}",
            fixed(row.mean[12], 0),
            fixed(row.low[12], 0)
        )));
    }
    let history = read_reimages_csv("reimages.csv", &demo("reimages.csv"), &infos).unwrap();
    let stats = reimage_stats(&history, 7).unwrap();
    let tenants = storage_tenants(&infos, &stats, &set, 99.0).unwrap();
    let d = simulate_durability(
        &tenants,
        &history,
        &DurabilityParams::default(),
        &mut |_, _| {},
    )
    .unwrap();
    for x in &d.results {
        assert!(harvest.contains(&format!(
            "{} {} {}",
            x.policy.name(),
            x.replication,
            fixed(x.lost_percent.avg, 5)
        )));
    }

    // Shaping: the panel's default run.
    let shaping = text(section(html, "shaping"));
    let s = ShapingSettings::default();
    let workload = generate_for(&s.params).unwrap();
    let r = simulate(&workload, &s.params, |_, _| {}).unwrap();
    assert!(shaping.contains(&format!(
        "{}× turnaround speed-up",
        fixed(r.turnaround_speedup, 2)
    )));
    assert!(shaping.contains(&format!("p99 {}×", fixed(r.worst_off.p99_slowdown, 2))));
    for (name, slowdown, _) in &r.worst_off.worst {
        assert!(shaping.contains(&format!("{name} {}×", fixed(*slowdown, 2))));
    }

    // Tuning: the panel's pass, estimated and simulated.
    let tuning = text(section(html, "tuning"));
    let settings = TuningSettings::default();
    let current = equal_queues(SchedulerKind::Capacity, 2);
    let jobs: Vec<&WorkloadJob> = w.workload().collect();
    let params = panel_params(&settings, &current);
    let groups = window_groups(&jobs, &settings, 2).unwrap();
    let t = tune(&groups, &params, &mut |_, _| {}).unwrap();
    let g = &t.groups[0];
    let cluster = Cluster::of(g.containers, params.per_machine);
    let best = g.search.best();
    let est_current = compare(
        &groups[0].1,
        &cluster,
        &current,
        RuleSet::for_config(&current, params.constraint, params.exec),
    )
    .unwrap()
    .mean_latency_secs;
    let sim_best = simulated_latency(&groups[0].1, &cluster, &best.config, settings.seed).unwrap();
    let sim_current = simulated_latency(&groups[0].1, &cluster, &current, settings.seed).unwrap();
    assert!(tuning.contains(&format!(
        "{} s recommended, estimated",
        fixed(best.latency_secs, 1)
    )));
    assert!(tuning.contains(&format!("{} s current, estimated", fixed(est_current, 1))));
    assert!(tuning.contains(&format!("{} s recommended, simulated", fixed(sim_best, 1))));
    assert!(tuning.contains(&format!("{} s current, simulated", fixed(sim_current, 1))));
    if g.search.tied.len() > 1 {
        assert!(tuning.contains(&format!("{} configurations tie", g.search.tied.len())));
    }

    // Seeded: the same bundle gives the same page.
    let again = render(
        &bundle,
        &ReportOptions {
            title: Some("Demo plan".into()),
            source: Some("demo.skyplan".into()),
            generated_at: Some(1_793_577_600),
        },
    )
    .unwrap();
    assert_eq!(again.html, report.html);
}

/// A count as the report writes it (`1,500`).
fn fmt_count(n: usize) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}
