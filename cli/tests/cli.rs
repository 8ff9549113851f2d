//! The `skyplan` binary end to end: exit codes, messages, JSON, fixtures.

use std::process::Command;

fn skyplan(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_skyplan"))
        .args(args)
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .output()
        .expect("run skyplan");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn temp_file(name: &str, content: &str) -> String {
    let dir = std::env::temp_dir().join(format!("skyplan-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, content).unwrap();
    p.to_string_lossy().into_owned()
}

#[test]
fn imports_the_demo_and_shared_data() {
    let (code, out, err) = skyplan(&[
        "import",
        "fixtures/demo/runs.csv",
        "fixtures/demo/utilization.csv",
        "../shared/data/nab/ec2_cpu_utilization_24ae8d.csv",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("runs-csv"), "{out}");
    assert!(out.contains("4032 points"), "{out}");
    assert!(out.contains("total: 3 files"), "{out}");
}

#[test]
fn json_summary() {
    let (code, out, _) = skyplan(&["import", "--json", "fixtures/demo/runs.csv"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["summary"]["runs"], 1472);
    assert_eq!(v["summary"]["jobs"], 14);
    assert_eq!(v["failures"].as_array().unwrap().len(), 0);
}

#[test]
fn bad_lines_fail_with_locations_and_lenient_keeps_the_rest() {
    let f = temp_file(
        "bad.csv",
        "timestamp,value\n2014-01-01 00:00:00,abc\n2014-01-01 00:05:00,1\n",
    );
    let (code, _, err) = skyplan(&["import", &f]);
    assert_eq!(code, 1);
    assert!(
        err.contains("bad.csv:2:21: value `abc` is not a finite number"),
        "{err}"
    );
    let (code, out, _) = skyplan(&["import", "--lenient", &f]);
    assert_eq!(code, 0);
    assert!(out.contains("1 bad line(s) skipped"), "{out}");
    assert!(
        out.contains("1 points") || out.contains("(1 points)"),
        "{out}"
    );
}

#[test]
fn forced_format_and_usage_errors() {
    let f = temp_file("swim.txt", "job0\t49\t49\t740773\t2339561\t627471\n");
    let (code, out, _) = skyplan(&["import", "--format", "swim", &f]);
    assert_eq!(code, 0);
    assert!(out.contains("1 workload jobs"), "{out}");
    let (code, _, err) = skyplan(&["import", "--format", "excel", &f]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown format `excel`"), "{err}");
    let (code, _, err) = skyplan(&["import"]);
    assert_eq!(code, 2);
    assert!(err.contains("at least one FILE"), "{err}");
    let (code, _, err) = skyplan(&["import", "/nonexistent/file.csv"]);
    assert_eq!(code, 1);
    assert!(err.contains("/nonexistent/file.csv"), "{err}");
    let (code, _, _) = skyplan(&["frobnicate"]);
    assert_eq!(code, 2);
}

#[test]
fn fixtures_reproduce_the_committed_demo() {
    let dir = std::env::temp_dir().join(format!("skyplan-fx-{}", std::process::id()));
    let d = dir.to_string_lossy().into_owned();
    let (code, out, err) = skyplan(&["fixtures", "--seed", "7", "--out", &d]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("runs.csv"));
    for name in ["runs.csv", "utilization.csv", "native.log"] {
        let a = std::fs::read(dir.join(name)).unwrap();
        let b = std::fs::read(format!(
            "{}/../fixtures/demo/{name}",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap();
        assert!(a == b, "{name} differs from the committed demo");
    }
    let (code, _, err) = skyplan(&["fixtures", "--seed", "x"]);
    assert_eq!(code, 2, "{err}");
}

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
