//! SLOs from the run history: `slo` (jobs, windows and the reasons a job
//! gets none), `skyline` (per-step skylines and their quality) and `replay`
//! (users' provisioning against Morpheus).

use crate::common::skyplan;

#[test]
fn slo_lists_jobs_windows_and_reasons() {
    let (code, out, err) = skyplan(&["slo", "fixtures/demo/runs.csv"]);
    assert_eq!(code, 0, "{err}");
    let line = |job: &str| {
        out.lines()
            .find(|l| l.starts_with(job))
            .unwrap_or_else(|| panic!("{job}: {out}"))
    };
    assert!(line("revenue_rollup").contains(" yes"), "{out}");
    assert!(line("billing_export").contains("no real slack"), "{out}");
    assert!(
        line("adhoc_query").contains("irregular inter-arrival"),
        "{out}"
    );
    let (code, json, _) = skyplan(&["slo", "--json", "fixtures/demo/runs.csv"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["slos"].as_array().unwrap().len(), 12);
    let (code, _, err) = skyplan(&[
        "slo",
        "--deadline-percentile",
        "150",
        "fixtures/demo/runs.csv",
    ]);
    assert_eq!(code, 1);
    assert!(err.contains("deadline_percentile"), "{err}");
}

#[test]
fn skyline_per_step_and_json() {
    let (code, out, err) = skyplan(&[
        "skyline",
        "fixtures/demo/runs.csv",
        "--job",
        "clickstream_agg",
    ]);
    assert_eq!(code, 0, "{err}");
    let steps: Vec<&str> = out.lines().filter(|l| !l.starts_with('#')).collect();
    assert!(steps.len() > 5, "{out}");
    assert!(steps[0].starts_with("0\t0s\t"), "{out}");
    let (code, json, err) = skyplan(&[
        "skyline",
        "fixtures/demo/runs.csv",
        "--job",
        "clickstream_agg",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let lp = v["quality"]["lp"]["area_ratio"].as_f64().unwrap();
    let peak = v["quality"]["peak"]["area_ratio"].as_f64().unwrap();
    assert!(lp < peak, "{lp} {peak}");
    let (code, _, err) = skyplan(&[
        "skyline",
        "fixtures/demo/native.log",
        "--variant",
        "hadoop",
        "--job",
        "ml_training_data",
    ]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = skyplan(&["skyline", "fixtures/demo/runs.csv"]);
    assert_eq!(code, 2);
    assert!(err.contains("--job"), "{err}");
    let (code, _, err) = skyplan(&[
        "skyline",
        "fixtures/demo/runs.csv",
        "--job",
        "revenue_rollup",
        "--alpha",
        "2",
    ]);
    assert_eq!(code, 1);
    assert!(err.contains("alpha"), "{err}");
    let (code, _, _) = skyplan(&["skyline", "fixtures/demo/runs.csv", "--job", "nope"]);
    assert_eq!(code, 1);
}

#[test]
fn replay_compares_users_with_morpheus() {
    let (code, out, err) = skyplan(&["replay", "fixtures/demo/runs.csv"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("users' provisioning"), "{out}");
    assert!(out.contains("Morpheus (+ reprovisioning)"), "{out}");
    assert!(out.contains("paper: 5–13×"), "{out}");
    let (code, json, _) = skyplan(&["replay", "--json", "fixtures/demo/runs.csv"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let sc = v["scenarios"].as_array().unwrap();
    assert_eq!(sc.len(), 5);
    let users = sc[0]["misses"].as_u64().unwrap();
    let morpheus = sc[4]["misses"].as_u64().unwrap();
    assert!(morpheus < users, "{users} {morpheus}");
    let (code, _, err) = skyplan(&["replay", "--train-share", "1.5", "fixtures/demo/runs.csv"]);
    assert_eq!(code, 1);
    assert!(err.contains("train_share"), "{err}");
}
