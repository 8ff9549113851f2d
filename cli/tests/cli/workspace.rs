//! The workspace and its demo: `import` (formats, locations of bad lines,
//! `--lenient`, JSON summary, calendar span), `fixtures` reproducing the
//! committed demo, and the demo's decisions and queue fitting the studio's
//! capacity and the demo cluster.

use crate::common::{skyplan, temp_file};

#[test]
fn imports_the_demo_and_shared_data() {
    let (code, out, err) = skyplan(&[
        "import",
        "fixtures/demo/runs.csv",
        "fixtures/demo/utilization.csv",
        "fixtures/real/nab/ec2_cpu_utilization_24ae8d.csv",
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
    for name in [
        "runs.csv",
        "utilization.csv",
        "native.log",
        "history.csv",
        "decisions.csv",
        "queue.csv",
        "tenants.csv",
        "tenant_utilization.csv",
        "reimages.csv",
    ] {
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
fn demo_decisions_are_planned_at_the_studio_capacity() {
    const DECISIONS: &str = "fixtures/demo/decisions.csv";
    // The studio's rule: 1.25 × the lower bound on the peak load, in whole
    // cores (bounds are loads over the capacity: read on 1000 cores).
    let (code, json, err) = skyplan(&["plan", DECISIONS, "--capacity-cores", "1000", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let requests = v["requests"].as_u64().unwrap();
    assert!(requests >= 6, "{json}");
    assert_eq!(v["skipped"].as_array().map(Vec::len), Some(0), "{json}");
    assert_eq!(v["origin_utc"], "2026-11-02 00:00:00");
    let lowcost = &v["comparison"][0];
    assert_eq!(lowcost["method"], "lowcost");
    assert_eq!(lowcost["placed"].as_u64(), Some(requests), "{json}");
    // The batch optimizer: every request placed, a peak no higher than
    // LowCost's, a certified bound below it and the gap between them.
    let opt = &v["comparison"][3];
    assert_eq!(opt["method"], "optimize");
    assert_eq!(opt["placed"].as_u64(), Some(requests), "{json}");
    let r = &opt["optimized"];
    let (peak, bound) = (
        r["peak"].as_f64().unwrap(),
        r["lower_bound"].as_f64().unwrap(),
    );
    assert!(peak <= lowcost["peak"].as_f64().unwrap() + 1e-9, "{json}");
    assert!(bound > 0.0 && bound <= peak + 1e-12, "{json}");
    assert!(
        (r["gap"].as_f64().unwrap() - (peak / bound - 1.0)).abs() < 1e-9,
        "{json}"
    );
    let cores = (1.25 * 1000.0 * lowcost["bound"]["best"].as_f64().unwrap()).ceil();
    let cores = format!("{cores}");
    let (code, out, err) = skyplan(&["plan", DECISIONS, "--capacity-cores", &cores]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains(&format!(
            "{requests} requests ({requests} periodic, 0 one-off), 0 skipped"
        )),
        "{out}"
    );
    assert!(out.contains("lowcost: "), "{out}");
    assert!(out.contains("revenue_rollup"), "{out}");
}

#[test]
fn demo_queue_is_a_queue_that_fits_the_demo_cluster() {
    let (code, out, err) = skyplan(&[
        "quote",
        "--map-work",
        "1000",
        "--mean-job-secs",
        "109",
        "--queue",
        "fixtures/demo/queue.csv",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("80 map slots, 80 reduce slots; queue: 5 admitted job(s)"),
        "{out}"
    );
}

#[test]
fn demo_workspace_span_is_calendar_time() {
    // Every trace file of the demo: the job history has real dates, so the
    // workspace's span starts on the demo runs' first day, not in 1970.
    let (code, json, err) = skyplan(&[
        "import",
        "--json",
        "fixtures/demo/runs.csv",
        "fixtures/demo/utilization.csv",
        "fixtures/demo/native.log",
        "fixtures/demo/history.csv",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let files = v["summary"]["files"].as_array().unwrap();
    assert_eq!(files.len(), 4);
    assert!(files.iter().all(|f| f["relative_time"] == false), "{json}");
    let start = v["summary"]["span"][0].as_i64().unwrap();
    // 2026-11-02 00:00 UTC, the demo's first day.
    assert_eq!(start, 1_793_577_600, "{json}");
    // A history with trace-relative submits (as `estimate --write-history`
    // writes one generated from SWIM) stays out of the calendar span.
    let relative = temp_file(
        "relative-history.csv",
        "job,submit,map_tasks,reduce_tasks,input_bytes,shuffle_bytes,output_bytes,map_secs,reduce_secs\n\
         a,49,1,1,10,10,10,2,2\n",
    );
    let (code, json, err) = skyplan(&["import", "--json", &relative, "fixtures/demo/runs.csv"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["summary"]["files"][0]["relative_time"], true, "{json}");
    assert!(v["summary"]["span"][0].as_i64().unwrap() > 1_793_577_600);
    let (code, out, _) = skyplan(&["import", &relative]);
    assert_eq!(code, 0);
    assert!(out.contains("+49s → +49s from the trace start"), "{out}");
}
