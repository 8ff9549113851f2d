//! SLO inference on hand-built histories and on the demo workspace.

use super::*;
use crate::fixtures::demo;
use crate::model::{ContainerSize, JobRun, Skyline};
use crate::time::{DAY, HOUR};

/// A daily run on day `d`: input at `input`, start at `start`, running
/// `runtime` seconds, read at `read` (all seconds after midnight of day `d`).
fn run(name: &str, d: i64, input: i64, start: i64, runtime: i64, read: Option<i64>) -> JobRun {
    let base = 20_000 * DAY + d * DAY;
    JobRun {
        job: name.into(),
        instance: format!("{name}_{d}"),
        submit: base + start - 30,
        start: base + start,
        end: base + start + runtime,
        input_available: Some(base + input),
        output_first_read: read.map(|r| base + r),
        container: ContainerSize::default(),
        skyline: Skyline::new(60, vec![1.0; (runtime / 60).max(1) as usize]),
    }
}

#[test]
fn hand_checked_window() {
    // Input 01:00 + k minutes (k = 0..9), start 01:20, 1 h run, read 06:00 ± 1 min.
    let runs: Vec<JobRun> = (0..10)
        .map(|d| {
            run(
                "rollup_2026",
                d,
                HOUR + 60 * d,
                HOUR + 1200,
                HOUR,
                Some(6 * HOUR + if d % 2 == 0 { 60 } else { -60 }),
            )
        })
        .collect();
    let report = infer_slos(&runs, &SloParams::default()).unwrap();
    assert_eq!(report.slos.len(), 1);
    let s = &report.slos[0];
    assert_eq!(s.job, "rollup");
    assert_eq!(s.period_secs, DAY);
    // Reference is the first event: 01:00 of day 0.
    assert_eq!(s.reference, 20_000 * DAY + HOUR);
    // Inputs relative to the period start are 0, 60, …, 540 s: p95 = 513 s.
    assert_eq!(s.earliest_start_secs, Some(513));
    // Reads are 5 h ± 60 s after the period start: median 5 h.
    assert_eq!(s.deadline_secs, Some(5 * HOUR));
    assert!(s.actionable, "{:?}", s.reason);
    // Slack: read − end = 6h±1m − 2h20m = 3h40m±1m over a 1 h run.
    let slack = s.evidence.slack_ratio.unwrap();
    assert!((slack - 3.6667).abs() < 0.02, "{slack}");
}

#[test]
fn non_actionable_reasons() {
    let erratic: Vec<JobRun> = (0..8)
        .map(|d| {
            run(
                "erratic",
                d,
                HOUR,
                2 * HOUR,
                HOUR,
                Some(4 * HOUR + (d * 7919) % 15 * HOUR),
            )
        })
        .collect();
    let immediate: Vec<JobRun> = (0..8)
        .map(|d| run("immediate", d, HOUR, 2 * HOUR, HOUR, Some(3 * HOUR + 30)))
        .collect();
    let untraced: Vec<JobRun> = (0..8)
        .map(|d| run("untraced", d, HOUR, 2 * HOUR, HOUR, None))
        .collect();
    let monthly: Vec<JobRun> = (0..8)
        .map(|d| {
            run(
                "rolled_up",
                d,
                HOUR,
                2 * HOUR,
                HOUR,
                Some((10 - d) * DAY + 2 * HOUR),
            )
        })
        .collect();
    let all: Vec<JobRun> = [erratic, immediate, untraced, monthly].concat();
    let report = infer_slos(&all, &SloParams::default()).unwrap();
    let get = |n: &str| report.slos.iter().find(|s| s.job == n).unwrap();
    let e = get("erratic");
    assert!(!e.actionable);
    assert!(
        e.reason.as_ref().unwrap().contains("not stable"),
        "{:?}",
        e.reason
    );
    let i = get("immediate");
    assert!(!i.actionable);
    assert!(
        i.reason.as_ref().unwrap().contains("no real slack"),
        "{:?}",
        i.reason
    );
    let u = get("untraced");
    assert!(!u.actionable && u.reason.as_ref().unwrap().contains("not traced"));
    let m = get("rolled_up");
    assert!(m.actionable && m.deadline_forced);
    assert_eq!(m.deadline_secs, Some(DAY));
}

#[test]
fn irregular_and_sparse_groups_are_not_periodic() {
    // Submissions 7 h, 50 h, 53 h, 130 h, 140 h, 230 h after a start: gaps vary.
    let mut runs: Vec<JobRun> = [7, 50, 53, 130, 140, 230]
        .iter()
        .map(|&h| run("adhoc", 0, h * HOUR, h * HOUR + 60, HOUR, None))
        .collect();
    runs.push(run("once", 0, 0, HOUR, 60, None));
    let g = find_periodic(&runs, &PeriodicParams::default()).unwrap();
    assert!(g.periodic.is_empty());
    let adhoc = g.non_periodic.iter().find(|j| j.name == "adhoc").unwrap();
    assert!(adhoc.reason.contains("irregular"), "{}", adhoc.reason);
    let once = g.non_periodic.iter().find(|j| j.name == "once").unwrap();
    assert!(once.reason.contains("only 1 run"), "{}", once.reason);
}

#[test]
fn skipped_runs_keep_the_period() {
    let runs: Vec<JobRun> = [0, 1, 2, 4, 5, 6, 9]
        .iter()
        .map(|&d| run("etl", d, HOUR, 2 * HOUR, HOUR, Some(8 * HOUR)))
        .collect();
    let g = find_periodic(&runs, &PeriodicParams::default()).unwrap();
    assert_eq!(g.periodic[0].period_secs, DAY);
    assert_eq!(g.periodic[0].period_index, vec![0, 1, 2, 4, 5, 6, 9]);
    let r = infer_slos(&runs, &SloParams::default()).unwrap();
    assert_eq!(r.slos[0].deadline_secs, Some(7 * HOUR));
}

#[test]
fn snapping() {
    assert_eq!(snap_period(86_100.0, 0.05), (DAY, true));
    assert_eq!(snap_period(3_610.0, 0.05), (HOUR, true));
    assert_eq!(snap_period(1_790.0, 0.05), (1_800, true));
    assert_eq!(snap_period(5_000.0, 0.01), (5_000, false));
    assert_eq!(snap_period(7.0 * 86_400.0 + 100.0, 0.05), (7 * DAY, true));
}

#[test]
fn demo_workspace() {
    let fx = demo();
    let r = infer_slos(&fx.runs, &SloParams::default()).unwrap();
    assert_eq!(r.slos.len(), 12, "{:?}", r.non_periodic);
    assert_eq!(r.non_periodic.len(), 2);
    let actionable: Vec<&str> = r
        .slos
        .iter()
        .filter(|s| s.actionable)
        .map(|s| s.job.as_str())
        .collect();
    for job in [
        "revenue_rollup",
        "ads_attribution",
        "clickstream_agg",
        "metrics_compaction",
        "log_ingest",
    ] {
        assert!(
            actionable.contains(&job),
            "{job} should be actionable: {actionable:?}"
        );
    }
    for (job, why) in [
        ("ml_training_data", "not stable"),
        ("billing_export", "no real slack"),
        ("cache_warmup", "no real slack"),
        ("search_index_build", "not traced"),
    ] {
        let s = r.slos.iter().find(|s| s.job == job).unwrap();
        assert!(!s.actionable, "{job}");
        assert!(
            s.reason.as_ref().unwrap().contains(why),
            "{job}: {:?}",
            s.reason
        );
    }
    for s in r.slos.iter().filter(|s| s.actionable) {
        let (a, d) = (s.earliest_start_secs.unwrap(), s.deadline_secs.unwrap());
        assert!(
            0 <= a && a < d && d <= s.period_secs,
            "{}: [{a}, {d}]",
            s.job
        );
        // The window leaves room for a median run.
        assert!((d - a) as f64 > s.evidence.median_runtime_secs, "{}", s.job);
    }
}

#[test]
fn parameter_validation() {
    let runs = vec![run("x", 0, 0, 60, 60, None)];
    for bad in [
        SloParams {
            start_percentile: 101.0,
            ..SloParams::default()
        },
        SloParams {
            deadline_percentile: f64::NAN,
            ..SloParams::default()
        },
        SloParams {
            max_read_cv: -1.0,
            ..SloParams::default()
        },
        SloParams {
            min_samples: 0,
            ..SloParams::default()
        },
        SloParams {
            periodic: PeriodicParams {
                min_runs: 1,
                ..PeriodicParams::default()
            },
            ..SloParams::default()
        },
    ] {
        assert!(matches!(
            infer_slos(&runs, &bad),
            Err(SloError::Param { .. })
        ));
    }
    assert_eq!(
        infer_slos(&[], &SloParams::default()),
        Err(SloError::NoRuns)
    );
}

#[test]
fn decisions_are_validated_kept_and_exported() {
    use crate::workspace::Workspace;
    let ok = SloDecision {
        job: "etl".into(),
        kind: DecisionKind::SignedOff,
        period_secs: DAY,
        reference: 0,
        window: Some((HOUR, 6 * HOUR)),
        skyline: Some(Skyline::new(60, vec![2.0, 4.5, 1.0])),
        model: None,
        note: None,
    };
    let mut ws = Workspace::new();
    ws.decide(ok.clone()).unwrap();
    let bad_window = SloDecision {
        window: Some((6 * HOUR, HOUR)),
        ..ok.clone()
    };
    assert!(matches!(
        ws.decide(bad_window),
        Err(SloError::Decision { .. })
    ));
    let too_short = SloDecision {
        window: Some((0, 120)),
        ..ok.clone()
    };
    assert!(ws.decide(too_short).is_err());
    let negative = SloDecision {
        skyline: Some(Skyline::new(60, vec![-1.0])),
        ..ok.clone()
    };
    assert!(ws.decide(negative).is_err());
    let rejected = SloDecision {
        job: "adhoc".into(),
        kind: DecisionKind::Rejected,
        window: None,
        skyline: None,
        note: Some("runs ad hoc, says the owner".into()),
        ..ok.clone()
    };
    ws.decide(rejected).unwrap();
    // Overriding replaces the earlier decision.
    ws.decide(SloDecision {
        kind: DecisionKind::Overridden,
        window: Some((0, 3 * HOUR)),
        ..ok
    })
    .unwrap();
    let all: Vec<SloDecision> = ws.decisions().cloned().collect();
    assert_eq!(all.len(), 2);
    let csv = crate::export::decisions_csv(&all);
    assert_eq!(
        csv,
        "job,decision,period_secs,reference,earliest_start_secs,deadline_secs,step_secs,skyline,note\n\
adhoc,rejected,86400,0,,,,,\"runs ad hoc, says the owner\"\n\
etl,overridden,86400,0,0,10800,60,2;4.5;1,\n"
    );
    assert!(ws.undecide("adhoc").is_some());
}
