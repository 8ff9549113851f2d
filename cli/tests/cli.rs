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

/// A daily YARN submission (REST API JSON) `window_min` minutes after
/// 2026-11-02 00:00 UTC with stages `(num-containers, min-concurrency, s)`.
fn yarn_submit(
    name: &str,
    interpreter: &str,
    window_min: (i64, i64),
    stages: &[(u32, u32, u32)],
) -> String {
    let origin_ms = 1_793_577_600_000i64;
    let stages: Vec<String> = stages
        .iter()
        .map(|(n, gang, secs)| {
            format!(
                r#"{{"duration": {}, "num-containers": {n}, "min-concurrency": {gang},
                     "capability": {{"memory": 2048, "vCores": 1}}}}"#,
                secs * 1000
            )
        })
        .collect();
    format!(
        r#"{{"queue": "dedicated", "reservation-definition": {{
            "arrival": {}, "deadline": {}, "reservation-name": "{name}",
            "recurrence-expression": "86400000",
            "reservation-requests": {{"reservation-request-interpreter": {interpreter},
              "reservation-request": [{}]}}}}}}"#,
        origin_ms + window_min.0 * 60_000,
        origin_ms + window_min.1 * 60_000,
        stages.join(", ")
    )
}

/// `(name, work)` of each reservation of the first plan of `plan --json`.
fn reservation_work(v: &serde_json::Value) -> Vec<(String, f64)> {
    v["plans"][0]["reservations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["name"].as_str().unwrap().to_string(),
                r["work_container_steps"].as_f64().unwrap(),
            )
        })
        .collect()
}

#[test]
fn plan_places_decisions_from_csv_and_json() {
    let csv = temp_file(
        "decisions.csv",
        "job,decision,period_secs,reference,earliest_start_secs,deadline_secs,step_secs,skyline,note\n\
         revenue_rollup,signed-off,86400,1793577600,3600,21600,60,20;40;40;38;12;12,\n\
         clicks,overridden,3600,1793577600,300,3300,60,4;6;6;2,bigger input\n\
         adhoc,rejected,86400,1793577600,,,,,no SLO wanted\n",
    );
    let (code, out, err) = skyplan(&["plan", &csv, "--capacity-cores", "100"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("plan 2026-11-02 00:00:00 → 2026-11-03 00:00:00"),
        "{out}"
    );
    assert!(
        out.contains("2 requests (2 periodic, 0 one-off), 1 skipped"),
        "{out}"
    );
    assert!(
        out.contains("skipped adhoc: rejected: no SLO wanted"),
        "{out}"
    );
    let line = out.lines().find(|l| l.starts_with("clicks")).unwrap();
    assert!(line.contains("24 every 1h"), "{line}");
    for m in ["lowcost", "greedy", "earliest"] {
        assert!(
            out.lines().any(|l| l.starts_with(m) && l.contains("LP ")),
            "{m}: {out}"
        );
    }
    // The studio's JSON export of the same decisions.
    let json = temp_file(
        "decisions.json",
        r#"[{"job": "revenue_rollup", "kind": "signed-off", "period_secs": 86400,
             "reference": 1793577600, "window": [3600, 21600],
             "skyline": {"step_secs": 60, "containers": [20, 40, 40, 38, 12, 12]},
             "model": null, "note": null}]"#,
    );
    let (code, out, err) = skyplan(&["plan", &json, "--capacity-cores", "100", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["origin"], 1_793_577_600);
    let placed = reservation_work(&v);
    assert_eq!(placed[0].0, "revenue_rollup");
    assert!((placed[0].1 - 162.0).abs() < 1e-6, "{placed:?}");
    // Bad CSV lines are located.
    let bad = temp_file(
        "bad-decisions.csv",
        "job,decision,period_secs,reference\nx,approved,86400,0\n",
    );
    let (code, _, err) = skyplan(&["plan", &bad, "--capacity-cores", "100"]);
    assert_eq!(code, 1);
    assert!(
        err.contains("bad-decisions.csv:2:3: decision `approved`"),
        "{err}"
    );
}

#[test]
fn plan_reads_yarn_with_each_interpreter_and_reports_rejections() {
    let text = format!(
        "[{}, {}, {}, {}, {}]",
        yarn_submit("any", "0", (60, 120), &[(50, 50, 60), (5, 1, 480)]),
        yarn_submit(
            "all",
            "\"R_ALL\"",
            (200, 230),
            &[(10, 10, 120), (10, 10, 120)]
        ),
        yarn_submit("order", "2", (300, 360), &[(20, 20, 120), (10, 10, 180)]),
        yarn_submit(
            "nogap",
            "\"R_ORDER_NO_GAP\"",
            (400, 460),
            &[(20, 1, 120), (10, 1, 180)]
        ),
        yarn_submit("big", "3", (500, 510), &[(150, 150, 60)]),
    );
    let f = temp_file("yarn.json", &text);
    let (code, out, err) = skyplan(&["plan", &f, "--capacity-cores", "100", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let plan = &v["plans"][0];
    let placed = reservation_work(&v);
    let names: Vec<&str> = placed.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["any", "all", "order", "nogap"]);
    let work: Vec<f64> = placed.iter().map(|&(_, w)| w).collect();
    assert!(work[0] == 50.0 || work[0] == 40.0, "{work:?}");
    assert_eq!(&work[1..], [40.0, 70.0, 70.0]);
    let rej = &plan["rejections"][0];
    assert_eq!(rej["name"], "big");
    assert_eq!(rej["resource"], "cores");
    // The text names the step, its time and the resource.
    let (code, out, _) = skyplan(&["plan", &f, "--capacity-cores", "100", "--method", "all"]);
    assert_eq!(code, 0);
    let line = out.lines().find(|l| l.contains("rejected big:")).unwrap();
    assert!(
        line.contains("cores full at step") && line.contains(", cores]"),
        "{line}"
    );
    // LowCost, greedy, earliest first, and the optimizer (it optimizes what
    // LowCost admitted when the batch cannot fit, naming the request).
    assert_eq!(out.matches("rejected big:").count(), 4, "{out}");
    assert!(
        out.contains("optimize: not every request fits (request `big` cannot fit"),
        "{out}"
    );
}

#[test]
fn plan_exports_yarn_that_reads_back_to_the_same_work() {
    let text = format!(
        "[{}, {}]",
        yarn_submit("etl", "3", (60, 240), &[(40, 1, 600), (10, 10, 1200)]),
        yarn_submit("agg", "1", (300, 330), &[(8, 8, 300)]),
    );
    let f = temp_file("export-in.json", &text);
    let out_file = std::env::temp_dir()
        .join(format!("skyplan-cli-{}", std::process::id()))
        .join("export-out.json");
    let out_path = out_file.to_string_lossy().into_owned();
    let (code, out, err) = skyplan(&[
        "plan",
        &f,
        "--capacity-cores",
        "100",
        "--json",
        "--export-yarn",
        &out_path,
        "--queue",
        "dedicated",
    ]);
    assert_eq!(code, 0, "{err}");
    let first: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(first["exported"]["reservations"], 2);
    let written: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out_file).unwrap()).unwrap();
    assert_eq!(written[0]["queue"], "dedicated");
    assert_eq!(
        written[0]["reservation-definition"]["reservation-requests"]
            ["reservation-request-interpreter"],
        3
    );
    let (code, out, err) = skyplan(&["plan", &out_path, "--capacity-cores", "100", "--json"]);
    assert_eq!(code, 0, "{err}");
    let second: serde_json::Value = serde_json::from_str(&out).unwrap();
    let (a, b) = (reservation_work(&first), reservation_work(&second));
    assert_eq!(a.len(), 2);
    for ((na, wa), (nb, wb)) in a.iter().zip(&b) {
        assert_eq!(na, nb);
        assert!((wa - wb).abs() < 1e-3, "{na}: {wa} vs {wb}");
    }
}

#[test]
fn plan_errors_and_usage() {
    let bad = temp_file(
        "bad-yarn.json",
        "[\n  {\"queue\": \"q\",\n    \"reservation-definition\": }\n]\n",
    );
    let (code, _, err) = skyplan(&["plan", &bad, "--capacity-cores", "10"]);
    assert_eq!(code, 1);
    assert!(err.contains("bad-yarn.json:3:31: expected value"), "{err}");
    let missing = temp_file(
        "missing.json",
        &yarn_submit("m", "3", (0, 60), &[(1, 1, 60)]).replace("\"duration\": 60000,", ""),
    );
    let (code, _, err) = skyplan(&["plan", &missing, "--capacity-cores", "10"]);
    assert_eq!(code, 1);
    assert!(
        err.contains("reservation 0 (`m`), $.reservation-definition.reservation-requests.reservation-request[0]: `duration` is missing"),
        "{err}"
    );
    let ok = temp_file("ok.json", &yarn_submit("m", "3", (0, 60), &[(1, 1, 60)]));
    let (code, _, err) = skyplan(&["plan", &ok]);
    assert_eq!(code, 2);
    assert!(err.contains("--capacity-cores"), "{err}");
    let (code, _, err) = skyplan(&["plan", &ok, "--capacity-cores", "10", "--method", "best"]);
    assert_eq!(code, 2);
    assert!(err.contains("--method"), "{err}");
    let (code, _, _) = skyplan(&["plan", &ok, "--capacity-cores", "10", "--period", "1000"]);
    assert_eq!(code, 2);
}

const SWIM: &str = "../shared/data/swim/FB-2009_samples_24_times_1hr_0.tsv";

#[test]
fn estimate_from_swim_evaluates_and_writes_a_history() {
    let history = temp_file("history.csv", "");
    let (code, out, err) = skyplan(&[
        "estimate",
        SWIM,
        "--jobs",
        "60",
        "--restarts",
        "0",
        "--evaluate",
        "--write-history",
        &history,
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("5894 SWIM samples → 60 history jobs"), "{out}");
    assert!(
        out.contains("evaluation: 30 training jobs, 30 test jobs, 95% PIs"),
        "{out}"
    );
    for method in ["GP", "OLS", "same-job"] {
        assert!(out.contains(&format!("map     {method}")), "{out}");
    }
    assert!(out.contains("R²") && out.contains("PI error %"), "{out}");
    // The history written reads back as a job-history CSV.
    let (code, out, _) = skyplan(&["import", &history]);
    assert_eq!(code, 0);
    assert!(
        out.contains("job-history-csv") && out.contains("60 workload jobs"),
        "{out}"
    );
}

#[test]
fn estimate_a_job_from_a_history_csv() {
    let mut csv = String::from(
        "job,submit,map_tasks,reduce_tasks,input_bytes,shuffle_bytes,output_bytes,map_secs,reduce_secs\n",
    );
    // Six recurring jobs, etl_k with k + 1 maps of 64 MB each, four runs.
    for i in 0..24u32 {
        let maps = 1 + i % 6;
        let input = f64::from(maps) * 6.4e7;
        let map_secs = 3.0 + 2.0 * f64::from(maps) + 0.1 * f64::from(i % 4);
        let reduce_secs = 5.0 + 0.5 * f64::from(maps) + 0.2 * f64::from(i % 2);
        csv.push_str(&format!(
            "etl_{},{},{maps},2,{input},{},{},{map_secs},{reduce_secs}\n",
            i % 6,
            100 * i,
            input / 2.0,
            input / 10.0
        ));
    }
    let f = temp_file("jobs.csv", &csv);
    let job = [
        "--job",
        "--map-tasks",
        "4",
        "--reduce-tasks",
        "2",
        "--input-bytes",
        "2.56e8",
        "--shuffle-bytes",
        "1.28e8",
        "--output-bytes",
        "2.56e7",
        "--name",
        "etl_3",
    ];
    let mut args = vec!["estimate", &f, "--restarts", "0"];
    args.extend(job);
    let (code, out, err) = skyplan(&args);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("24 finished jobs"), "{out}");
    assert!(out.contains("95% PI (s)"), "{out}");
    assert!(out.contains("4 past runs"), "{out}");
    assert!(out.contains("GP map: ℓ = ["), "{out}");
    args.push("--json");
    let (code, json, _) = skyplan(&args);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let map = &v["estimate"]["phases"][0]["methods"];
    for m in 0..3 {
        let p = &map[m]["prediction"];
        let (lo, mean, hi) = (
            p["lower"].as_f64().unwrap(),
            p["mean"].as_f64().unwrap(),
            p["upper"].as_f64().unwrap(),
        );
        // Map time is 3 + 2·maps = 11 s for 4 maps (+ 0.1 or 0.3).
        assert!(lo <= mean && mean <= hi && (mean - 11.2).abs() < 1.0, "{p}");
    }
    assert_eq!(map[2]["method"], "same-job");
    // Unseen job: the same-job method says why it has no estimate.
    let n = args.len();
    args[n - 2] = "new_job";
    let (code, out, _) = skyplan(&args[..n - 1]);
    assert_eq!(code, 0);
    assert!(
        out.contains("too few past runs of `new_job`: 0 (needs 2)"),
        "{out}"
    );
}

#[test]
fn estimate_errors() {
    let bad = temp_file(
        "bad-history.csv",
        "job,submit,map_tasks,reduce_tasks,input_bytes,shuffle_bytes,output_bytes,map_secs,reduce_secs\n\
         a,1,2,1,10,5,1,3,4\n\
         b,1,2,1,10,5,1,-3,4\n",
    );
    let (code, _, err) = skyplan(&["estimate", &bad, "--evaluate"]);
    assert_eq!(code, 1);
    assert!(
        err.contains("bad-history.csv:3:16: map_secs must not be negative"),
        "{err}"
    );
    let (code, _, err) = skyplan(&["estimate", SWIM, "--map-tasks", "3"]);
    assert_eq!(code, 2);
    assert!(err.contains("needs --reduce-tasks, --input-bytes"), "{err}");
    let (code, _, err) = skyplan(&["estimate", SWIM]);
    assert_eq!(code, 2);
    assert!(err.contains("--evaluate"), "{err}");
    let (code, _, err) = skyplan(&["estimate", "--evaluate"]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = skyplan(&["estimate", SWIM, "--evaluate", "--level", "1.5"]);
    assert_eq!(code, 2);
    assert!(err.contains("level"), "{err}");
    let (code, _, err) = skyplan(&["estimate", "fixtures/demo/runs.csv", "--evaluate"]);
    assert_eq!(code, 1);
    assert!(err.contains("needs a job history"), "{err}");
}

#[test]
fn simulate_pricing_compares_the_three_policies() {
    let (code, out, err) = skyplan(&[
        "simulate-pricing",
        "--jobs",
        "3000",
        "--interarrival",
        "50,200",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Table 1 workload"), "{out}");
    assert!(out.contains("inter-arrival 50 s: 3000 jobs"), "{out}");
    assert!(out.contains("inter-arrival 200 s"), "{out}");
    for p in ["MRM", "FCFS", "Priority"] {
        assert_eq!(out.matches(&format!("\n{p} ")).count(), 2, "{p}: {out}");
    }

    // Exact estimates: neither MRM nor FCFS is ever late.
    let (code, out, err) = skyplan(&[
        "simulate-pricing",
        "--jobs",
        "3000",
        "--interarrival",
        "45",
        "--error-share",
        "0",
        "--alpha",
        "1.5",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let runs = v["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 1);
    let policies = runs[0]["report"]["policies"].as_array().unwrap();
    assert_eq!(policies.len(), 3);
    assert_eq!(policies[0]["policy"], "mrm");
    assert_eq!(policies[0]["tardy_percent"]["all"], 0.0);
    assert_eq!(policies[1]["tardy_percent"]["all"], 0.0);
    assert!(
        policies[0]["pricing"]["slack"]["ds"]["p50"]
            .as_f64()
            .unwrap()
            > 0.0
    );
    assert_eq!(v["params"]["alpha"], 1.5);
}

#[test]
fn simulate_pricing_reads_durations_from_a_job_history() {
    let f = temp_file(
        "sim-history.csv",
        "job,submit,map_tasks,reduce_tasks,input_bytes,shuffle_bytes,output_bytes,map_secs,reduce_secs\n\
         a,0,1,0,100,0,10,20,0\n\
         b,10,4,1,400,40,10,30,10\n\
         c,20,1,0,100,0,10,0,0\n",
    );
    let (code, out, err) = skyplan(&[
        "simulate-pricing",
        "--durations",
        &f,
        "--jobs",
        "500",
        "--interarrival",
        "100",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("2 jobs' map + reduce times, mean 30.0 s, 1 without any time left out"),
        "{out}"
    );
    assert!(out.contains("mean processing 3"), "{out}");
}

#[test]
fn simulate_pricing_errors() {
    let (code, _, err) = skyplan(&["simulate-pricing", "--kappa", "0.5"]);
    assert_eq!(code, 2);
    assert!(err.contains("kappa: must be ≥ 1"), "{err}");
    let (code, _, err) = skyplan(&["simulate-pricing", "--interarrival", "50,x"]);
    assert_eq!(code, 2);
    assert!(err.contains("`x` is not a number"), "{err}");
    let (code, _, err) = skyplan(&["simulate-pricing", "--interarrival", "0"]);
    assert_eq!(code, 2);
    assert!(err.contains("mean_interarrival_secs"), "{err}");
    let (code, _, err) = skyplan(&["simulate-pricing", "--ds-share", "2"]);
    assert_eq!(code, 2);
    assert!(err.contains("ds_share"), "{err}");
    let (code, _, err) = skyplan(&["simulate-pricing", "--jobs", "0"]);
    assert_eq!(code, 2);
    assert!(err.contains("jobs"), "{err}");
    let (code, _, err) = skyplan(&["simulate-pricing", "--bogus"]);
    assert_eq!(code, 2);
    assert!(err.contains("--bogus"), "{err}");
    let (code, _, err) = skyplan(&["simulate-pricing", "--durations", "fixtures/demo/runs.csv"]);
    assert_eq!(code, 1);
    assert!(err.contains("needs a job history"), "{err}");
    let (code, _, _) = skyplan(&["simulate-pricing", "--durations", "/nonexistent.csv"]);
    assert_eq!(code, 1);
}

const HISTORY: &str = "fixtures/demo/history.csv";

/// The job of the quote tests: 40 maps, 4 reduces, 2.6 GB in.
const NEW_JOB: [&str; 10] = [
    "--map-tasks",
    "40",
    "--reduce-tasks",
    "4",
    "--input-bytes",
    "2.6e9",
    "--shuffle-bytes",
    "4e9",
    "--output-bytes",
    "1e8",
];

#[test]
fn quote_figure_7_with_given_work() {
    // MRM Figure 7 on one slot: A (10 s) due 70, B (20 s) due 110; C of 80 s
    // finishes at 90, C of 100 s at 130.
    let queue = temp_file(
        "fig7-queue.csv",
        "name,map_work,reduce_work,deadline\nA,10,0,70\nB,20,0,110\n",
    );
    let run = |work: &str| {
        skyplan(&[
            "quote",
            "--map-work",
            work,
            "--map-slots",
            "1",
            "--reduce-slots",
            "1",
            "--queue",
            &queue,
            "--mean-job-secs",
            "60",
            "--points",
            "3",
        ])
    };
    let (code, out, err) = run("80");
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("earliest feasible finish: 90.00 s from now"),
        "{out}"
    );
    assert!(out.contains("queue: 2 admitted job(s)"), "{out}");
    assert!(
        out.contains("deadline (s)") && out.contains("price"),
        "{out}"
    );
    let (code, out, _) = run("100");
    assert_eq!(code, 0);
    assert!(
        out.contains("earliest feasible finish: 130 s from now"),
        "{out}"
    );
}

#[test]
fn quote_a_job_from_the_demo_history() {
    let queue = temp_file(
        "demo-queue.csv",
        "name,map_work,reduce_work,deadline\nnightly,40000,8000,1200\nadhoc,2000,0,300\n",
    );
    let mut args = vec![
        "quote",
        HISTORY,
        "--queue",
        &queue,
        "--restarts",
        "0",
        "--points",
        "5",
    ];
    args.extend(NEW_JOB);
    let (code, out, err) = skyplan(&args);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("300 finished jobs"), "{out}");
    assert!(out.contains("map     GP*"), "{out}");
    assert!(out.contains("work (GP at the 95% PI upper bound)"), "{out}");
    assert!(out.contains("earliest feasible finish"), "{out}");
    args.extend(["--json", "--method", "ols", "--deadline", "900"]);
    let (code, json, err) = skyplan(&args);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["work"]["method"], "ols");
    // Work is the OLS upper bound × 80 slots per phase.
    let upper = v["estimate"]["phases"][0]["methods"][1]["prediction"]["upper"]
        .as_f64()
        .unwrap();
    assert!((v["map_work"].as_f64().unwrap() - upper * 80.0).abs() < 1e-6);
    let q = &v["quote"];
    let f = q["earliest_finish"].as_f64().unwrap();
    assert!(f >= q["processing_secs"].as_f64().unwrap() - 1.0, "{q}");
    let curve = q["curve"].as_array().unwrap();
    assert_eq!(curve.len(), 5);
    assert_eq!(curve[0]["deadline"].as_f64().unwrap(), f);
    for w in curve.windows(2) {
        assert!(w[1]["price"].as_f64().unwrap() <= w[0]["price"].as_f64().unwrap() + 1e-12);
    }
    assert_eq!(v["chosen"]["deadline"].as_f64().unwrap(), 900.0);
}

#[test]
fn quote_errors() {
    let run = |extra: &[&str]| {
        let mut args = vec!["quote", HISTORY, "--restarts", "0"];
        args.extend(NEW_JOB);
        args.extend(extra);
        skyplan(&args)
    };
    let (code, _, err) = run(&["--kappa", "0.5"]);
    assert_eq!(code, 1);
    assert!(err.contains("κ must be ≥ 1"), "{err}");
    let (code, _, err) = run(&["--function", "linear"]);
    assert_eq!(code, 2);
    assert!(err.contains("not mrm, exponential"), "{err}");
    let (code, _, err) = run(&["--deadline", "1"]);
    assert_eq!(code, 1);
    assert!(err.contains("before the earliest feasible finish"), "{err}");
    // A queue whose jobs cannot all meet their deadlines.
    let infeasible = temp_file(
        "infeasible-queue.csv",
        "name,map_work,reduce_work,deadline\nbig,1000000,0,10\n",
    );
    let (code, _, err) = run(&["--queue", &infeasible]);
    assert_eq!(code, 1);
    assert!(err.contains("job `big` cannot meet its deadline"), "{err}");
    let bad_queue = temp_file(
        "bad-queue.csv",
        "name,map_work,reduce_work,deadline\nx,1,-2,5\n",
    );
    let (code, _, err) = run(&["--queue", &bad_queue]);
    assert_eq!(code, 1);
    assert!(
        err.contains("bad-queue.csv:2:5: reduce_work must not be negative"),
        "{err}"
    );
    // An empty history.
    let empty = temp_file(
        "empty-history.csv",
        "job,submit,map_tasks,reduce_tasks,input_bytes,shuffle_bytes,output_bytes,map_secs,reduce_secs\n",
    );
    let mut args = vec!["quote", &empty];
    args.extend(NEW_JOB);
    let (code, _, err) = skyplan(&args);
    assert_eq!(code, 1, "{err}");
    assert!(!err.is_empty());
    // Neither features nor work; both.
    let (code, _, err) = skyplan(&["quote", HISTORY]);
    assert_eq!(code, 2);
    assert!(err.contains("quote needs a HISTORY"), "{err}");
    let (code, _, _) = run(&["--map-work", "5"]);
    assert_eq!(code, 2);
    let (code, _, err) = skyplan(&["quote", "--map-work", "5"]);
    assert_eq!(code, 2);
    assert!(err.contains("--mean-job-secs"), "{err}");
}

// ---- help, version and usage errors ----

/// Every command, as `skyplan help` lists them.
const COMMANDS: [&str; 11] = [
    "import",
    "fixtures",
    "slo",
    "skyline",
    "replay",
    "plan",
    "estimate",
    "quote",
    "simulate-pricing",
    "tune",
    "shape",
];

/// The text of `opt`'s entry in a help's option list: its line (starting
/// with four spaces and the option) and the continuation lines after it,
/// whitespace collapsed.
fn option_text(help: &str, opt: &str) -> String {
    let mut lines = help
        .lines()
        .skip_while(|l| !(l.starts_with("    --") && l.split_whitespace().next() == Some(opt)));
    let Some(first) = lines.next() else {
        panic!("no entry for {opt} in\n{help}");
    };
    let mut text = first.to_owned();
    for l in lines {
        let t = l.trim_start();
        if l.len() - t.len() <= 4 || t.starts_with("--") || t.is_empty() {
            break;
        }
        text.push(' ');
        text.push_str(t);
    }
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The default `opt`'s entry states: what follows `(default ` up to the
/// closing parenthesis.
fn default_of(help: &str, opt: &str) -> String {
    let text = option_text(help, opt);
    let Some(at) = text.find("(default") else {
        panic!("{opt} states no default: {text}");
    };
    let rest = &text[at + "(default".len()..];
    let end = rest.find(')').expect("closing parenthesis");
    rest[..end].trim().to_owned()
}

#[test]
fn global_help_and_version_exit_0_on_stdout() {
    let mut first: Option<String> = None;
    for args in [&["--help"][..], &["-h"], &["help"], &[]] {
        let (code, out, err) = skyplan(args);
        assert_eq!(code, 0, "{args:?}: {err}");
        assert!(err.is_empty(), "{args:?}: {err}");
        assert!(out.contains("skyplan help COMMAND"), "{out}");
        for c in COMMANDS {
            assert!(
                out.lines()
                    .any(|l| l.trim_start().starts_with(&format!("{c} "))),
                "{c} not listed with a summary:\n{out}"
            );
        }
        // One line per command: the global help is not the options list.
        assert!(!out.contains("--capacity-cores"), "{out}");
        match &first {
            Some(f) => assert_eq!(&out, f, "{args:?}"),
            None => first = Some(out),
        }
    }
    let expected = format!("skyplan {}\n", env!("CARGO_PKG_VERSION"));
    for flag in ["--version", "-V"] {
        let (code, out, err) = skyplan(&[flag]);
        assert_eq!(code, 0, "{err}");
        assert_eq!(out, expected);
    }
}

#[test]
fn every_command_has_its_own_help() {
    let (_, global, _) = skyplan(&["--help"]);
    for c in COMMANDS {
        let (code, out, err) = skyplan(&["help", c]);
        assert_eq!(code, 0, "help {c}: {err}");
        assert!(err.is_empty(), "{err}");
        assert!(out.starts_with(&format!("skyplan {c} — ")), "{out}");
        assert!(out.contains("USAGE:"), "{out}");
        assert!(out.contains(&format!("    skyplan {c} ")), "{out}");
        assert!(out.contains("-h, --help"), "{out}");
        assert_ne!(out, global);
        for other in COMMANDS.iter().filter(|o| **o != c) {
            assert!(
                !out.contains(&format!("skyplan {other} —")),
                "{c}'s help holds {other}'s"
            );
        }
        for flag in ["--help", "-h"] {
            let (code, same, err) = skyplan(&[c, flag]);
            assert_eq!(code, 0, "{c} {flag}: {err}");
            assert_eq!(same, out, "{c} {flag}");
        }
    }
}

#[test]
fn help_anywhere_in_a_commands_args_wins_over_missing_ones() {
    for args in [
        &["plan", "x.json", "--help"][..],
        &["plan", "--capacity-cores", "8", "-h"],
        &["estimate", "--json", "--help"],
        &["quote", "--map-work", "5", "--help"],
        &["skyline", "--variant", "nonsense", "--help"],
        &["simulate-pricing", "--bogus", "-h"],
    ] {
        let (code, out, err) = skyplan(args);
        assert_eq!(code, 0, "{args:?}: {err}");
        assert!(
            out.starts_with(&format!("skyplan {} — ", args[0])),
            "{args:?}: {out}"
        );
    }
    // After `--` everything is a file name.
    let (code, out, err) = skyplan(&["import", "--", "--help"]);
    assert_eq!(code, 1, "{out}");
    assert!(err.contains("--help"), "{err}");
}

#[test]
fn command_help_lists_its_options_with_the_engines_defaults() {
    use skyplan_engine::agenda::{AgendaParams, EvalParams};
    use skyplan_engine::estimate::{EvaluateParams, HistoryParams};
    use skyplan_engine::fixtures::FixtureParams;
    use skyplan_engine::pricing::{Durations, PriceParams, SimParams};
    use skyplan_engine::resource_model::ModelParams;
    use skyplan_engine::slo::SloParams;
    let help = |c: &str| skyplan(&["help", c]).1;

    let h = help("import");
    for opt in ["--format", "--lenient", "--json"] {
        option_text(&h, opt);
    }
    assert!(default_of(&h, "--format").contains("detected"));

    let h = help("fixtures");
    let p = FixtureParams::default();
    for (opt, v) in [
        ("--seed", p.seed.to_string()),
        ("--days", p.days.to_string()),
        ("--daily", p.daily_jobs.to_string()),
        ("--hourly", p.hourly_jobs.to_string()),
        ("--adhoc", p.adhoc_jobs.to_string()),
        ("--servers", p.servers.to_string()),
        ("--out", "fixtures/demo".into()),
        (
            "--swim",
            "../shared/data/swim/FB-2009_samples_24_times_1hr_0.tsv".into(),
        ),
        ("--history-jobs", "300".into()),
    ] {
        assert_eq!(default_of(&h, opt), v, "fixtures {opt}");
    }

    let h = help("shape");
    let p = skyplan_engine::shaping::Params::default();
    let g = skyplan_engine::shaping::GridParams::default();
    for (opt, v) in [
        ("--apps", p.workload.apps.to_string()),
        ("--hosts", p.hosts.to_string()),
        ("--host-cpu", p.host_cpu.to_string()),
        ("--host-mem", p.host_mem.to_string()),
        ("--load", p.workload.load.to_string()),
        ("--seed", p.workload.seed.to_string()),
        ("--predictor", p.predictor.name().to_string()),
        ("--policy", p.policy.name().to_string()),
        ("--k1", p.k1.to_string()),
        ("--k2", p.k2.to_string()),
        ("--grace", p.grace_minutes.to_string()),
        ("--history", p.history.to_string()),
        ("--refit-every", p.refit_every.to_string()),
        ("--max-attempts", p.max_attempts.to_string()),
        ("--seeds", g.seeds.to_string()),
        ("--target", g.target_failed_pct.to_string()),
    ] {
        assert_eq!(default_of(&h, opt), v, "shape {opt}");
    }
    assert_eq!(default_of(&h, "--spread"), "std");

    let h = help("slo");
    let p = SloParams::default();
    for (opt, v) in [
        ("--start-percentile", p.start_percentile),
        ("--deadline-percentile", p.deadline_percentile),
        ("--max-read-cv", p.max_read_cv),
        ("--min-slack", p.min_slack_ratio),
    ] {
        assert_eq!(default_of(&h, opt), v.to_string(), "slo {opt}");
    }
    option_text(&h, "--json");

    let h = help("skyline");
    let (paper, hadoop) = (ModelParams::paper(), ModelParams::hadoop());
    for (opt, a, b) in [
        ("--alpha", paper.alpha, hadoop.alpha),
        ("--step", paper.step_secs.into(), hadoop.step_secs.into()),
        (
            "--min-parallelism",
            paper.min_parallelism,
            hadoop.min_parallelism,
        ),
    ] {
        assert_eq!(
            default_of(&h, opt),
            format!(": the variant's, {a} or {b}"),
            "skyline {opt}"
        );
    }
    assert_eq!(default_of(&h, "--variant"), "paper");
    assert_eq!(default_of(&h, "--solver"), "flow");
    assert!(default_of(&h, "--job").contains("the only one"));

    let h = help("replay");
    let p = EvalParams::default();
    for (opt, v) in [
        ("--train-share", p.train_share),
        ("--user-factor", p.user_factor),
        ("--user-spread", p.user_spread),
        ("--rho", p.reprovision.rho),
        ("--alpha", p.model.alpha),
    ] {
        assert_eq!(default_of(&h, opt), v.to_string(), "replay {opt}");
    }
    assert_eq!(default_of(&h, "--seed"), p.seed.to_string());

    let h = help("plan");
    let p = AgendaParams::default();
    assert_eq!(default_of(&h, "--period"), p.period_secs.to_string());
    assert_eq!(default_of(&h, "--step"), p.step_secs.to_string());
    assert_eq!(default_of(&h, "--capacity-memory-mb"), "N × 4096");
    assert_eq!(default_of(&h, "--method"), "lowcost");
    assert_eq!(default_of(&h, "--min-parallelism"), "1");
    let o = skyplan_engine::agenda::OptimizeParams::default();
    assert_eq!(default_of(&h, "--moves"), o.max_moves.to_string());
    assert_eq!(default_of(&h, "--seed"), o.seed.to_string());
    assert_eq!(default_of(&h, "--queue"), "`default`");
    assert!(option_text(&h, "--capacity-cores").contains("required"));
    for opt in ["--origin", "--export-yarn", "--json"] {
        option_text(&h, opt);
    }

    let h = help("estimate");
    let e = EvaluateParams::default();
    let g = HistoryParams::default();
    for (opt, v) in [
        ("--level", e.estimate.level.to_string()),
        ("--restarts", e.estimate.gp.restarts.to_string()),
        ("--hyper-subset", e.estimate.gp.hyper_subset.to_string()),
        ("--polish-subset", e.estimate.gp.polish_subset.to_string()),
        ("--min-runs", e.estimate.min_runs.to_string()),
        ("--train-share", e.train_share.to_string()),
        ("--jobs", g.jobs.to_string()),
        ("--features", "log".into()),
        ("--targets", "log".into()),
        ("--seed", g.seed.to_string()),
    ] {
        assert_eq!(default_of(&h, opt), v, "estimate {opt}");
    }
    assert!(option_text(&h, "--seed").contains(&format!("split (default {})", e.split_seed)));
    for opt in [
        "--job",
        "--map-tasks",
        "--name",
        "--evaluate",
        "--write-history",
        "--lenient",
        "--json",
    ] {
        option_text(&h, opt);
    }

    let h = help("quote");
    let p = PriceParams::default();
    let est = EvaluateParams::default().estimate;
    for (opt, v) in [
        ("--reserve", p.reserve.to_string()),
        ("--span", p.span_jobs.to_string()),
        ("--quantum", p.quantum.to_string()),
        ("--level", est.level.to_string()),
        ("--restarts", est.gp.restarts.to_string()),
        ("--points", "20".into()),
        ("--map-slots", "80".into()),
        ("--reduce-slots", "80".into()),
        ("--kappa", "1".into()),
        ("--z", "2".into()),
        ("--method", "gp".into()),
        ("--function", "mrm".into()),
        ("--reduce-work", "0".into()),
    ] {
        assert_eq!(default_of(&h, opt), v, "quote {opt}");
    }
    for opt in [
        "--map-tasks",
        "--name",
        "--map-work",
        "--queue",
        "--mean-job-secs",
        "--deadline",
        "--lenient",
        "--json",
    ] {
        option_text(&h, opt);
    }

    let h = help("simulate-pricing");
    let p = SimParams::default();
    let Durations::Table1 { mean_secs } = p.durations else {
        panic!("the default durations are Table 1's");
    };
    for (opt, v) in [
        ("--jobs", p.jobs.to_string()),
        ("--alpha", p.alpha.to_string()),
        ("--kappa", p.kappa.to_string()),
        ("--ds-share", p.ds_share.to_string()),
        ("--pi-level", p.pi_level.to_string()),
        ("--charge-weight", p.charge_weight.to_string()),
        ("--seed", p.seed.to_string()),
        ("--mean-secs", mean_secs.to_string()),
        (
            "--interarrival",
            "50,100,200: high, medium, low load".into(),
        ),
    ] {
        assert_eq!(default_of(&h, opt), v, "simulate-pricing {opt}");
    }
    assert!(default_of(&h, "--error-share").starts_with(&format!("{:.3}", p.error_share)));
    for opt in ["--gamma", "--durations", "--charge-in-service", "--json"] {
        option_text(&h, opt);
    }
}

#[test]
fn unknown_commands_and_options_exit_2_with_a_pointer_to_help() {
    for (args, reason, pointer) in [
        (
            &["frobnicate"][..],
            "unknown command `frobnicate`",
            "skyplan --help",
        ),
        (
            &["--frobnicate"],
            "invalid option '--frobnicate'",
            "skyplan --help",
        ),
        (
            &["help", "frobnicate"],
            "unknown command `frobnicate`",
            "skyplan --help",
        ),
        (
            &["plan", "--bogus"],
            "invalid option '--bogus'",
            "skyplan plan --help",
        ),
        (
            &["plan"],
            "plan needs at least one FILE",
            "skyplan plan --help",
        ),
        (
            &["skyline", "--variant", "x"],
            "--variant",
            "skyplan skyline --help",
        ),
    ] {
        let (code, out, err) = skyplan(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}: {out}");
        let lines: Vec<&str> = err.lines().collect();
        assert_eq!(lines.len(), 2, "{args:?}: {err}");
        assert!(
            lines[0].starts_with("skyplan: ") && lines[0].contains(reason),
            "{err}"
        );
        assert_eq!(lines[1], format!("try '{pointer}'"));
    }
    // Every command refuses an unknown option the same way.
    for c in COMMANDS {
        let (code, out, err) = skyplan(&[c, "--bogus"]);
        assert_eq!(code, 2, "{c}: {err}");
        assert!(out.is_empty(), "{out}");
        assert!(err.contains("--bogus"), "{err}");
        assert!(
            err.ends_with(&format!("try 'skyplan {c} --help'\n")),
            "{err}"
        );
    }
    // Bad input (exit 1) carries no pointer to the help.
    let (code, _, err) = skyplan(&["import", "/nonexistent/file.csv"]);
    assert_eq!(code, 1);
    assert!(!err.contains("--help"), "{err}");
}

// ---- tune ----

#[test]
fn tune_prints_candidates_best_and_split_and_exports_xml() {
    let (code, out, err) = skyplan(&["tune", SWIM, "--scheduler", "fair", "--queues", "4"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("est. latency s"), "{out}");
    assert!(out.contains(" *"), "{out}");
    assert!(out.contains("best: fair "), "{out}");
    assert!(out.contains("cluster-level split of 8 containers"), "{out}");
    // Two groups: Algorithm 3 splits 16 containers.
    let (code, out, err) = skyplan(&["tune", SWIM, SWIM, "--containers", "16", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let c = v["split"]["containers"].as_array().unwrap();
    assert_eq!(c.iter().map(|x| x.as_u64().unwrap()).sum::<u64>(), 16);
    // From the cluster's file, back into it.
    let current = temp_file(
        "capacity-scheduler.xml",
        "<?xml version=\"1.0\"?>\n<configuration>\n  <property>\n    <name>yarn.scheduler.capacity.root.queues</name>\n    <value>hi,lo</value>\n  </property>\n  <property>\n    <name>yarn.scheduler.capacity.root.hi.capacity</name>\n    <value>50</value>\n  </property>\n  <property>\n    <name>yarn.scheduler.capacity.root.lo.capacity</name>\n    <value>50</value>\n  </property>\n</configuration>\n",
    );
    let out_xml = format!("{current}.tuned");
    let (code, out, err) = skyplan(&["tune", SWIM, "--config", &current, "--export-xml", &out_xml]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("written to"), "{out}");
    let tuned = std::fs::read_to_string(&out_xml).unwrap();
    assert!(
        tuned.contains("yarn.scheduler.capacity.root.hi.maximum-capacity"),
        "{tuned}"
    );
}

#[test]
fn tune_refuses_bad_files_with_their_location() {
    let bad = temp_file(
        "bad-capacity.xml",
        "<configuration>\n  <property>\n    <name>yarn.scheduler.capacity.root.queues</name>\n    <value>a,b</value>\n  </property>\n  <property>\n    <name>yarn.scheduler.capacity.root.a.capacity</name>\n    <value>60</value>\n  </property>\n  <property>\n    <name>yarn.scheduler.capacity.root.b.capacity</name>\n    <value>30</value>\n  </property>\n</configuration>\n",
    );
    let (code, _, err) = skyplan(&["tune", SWIM, "--config", &bad]);
    assert_eq!(code, 1);
    assert!(err.contains("line 4, column 12"), "{err}");
    assert!(err.contains("sum to 90"), "{err}");
    let (code, _, err) = skyplan(&["tune", SWIM, "--search", "annealing"]);
    assert_eq!(code, 2, "{err}");
    let (code, _, _) = skyplan(&["tune"]);
    assert_eq!(code, 2);
}

#[test]
fn forecasts_alibaba_container_usage_with_markers_left_out() {
    // Two containers, 300 ten-second samples each; every 7th CPU value is
    // the trace's −1 marker and every 11th memory value 101: left out, not
    // filled in.
    let mut text = String::new();
    for c in ["c_1", "c_2"] {
        for i in 0..300u32 {
            let cpu = if i % 7 == 3 {
                "-1".to_owned()
            } else {
                format!("{}", 20 + (i * 13 + u32::from(c == "c_2") * 5) % 17)
            };
            let mem = if i % 11 == 5 {
                "101".to_owned()
            } else {
                format!("{}", 40 + (i * 7) % 9)
            };
            text.push_str(&format!("{c},m_1,{},{cpu},{mem},,,,,,\n", i * 10));
        }
    }
    let file = temp_file("container_usage.csv", &text);
    let (code, out, err) = skyplan(&[
        "forecast",
        &file,
        "--alibaba-usage",
        "--method",
        "naive",
        "--horizon",
        "3",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let text = v.to_string();
    for name in ["c_1", "c_2"] {
        assert!(text.contains(name), "{name} forecast: {text}");
    }
    // Without the flag the headerless file is not a format `import` reads.
    let (code, _, err) = skyplan(&["forecast", &file]);
    assert_eq!(code, 1, "{err}");
    // A line with the wrong number of fields is located.
    let bad = temp_file("bad_usage.csv", "c_1,m_1,0,20,40,,,,,,\nc_1,m_1,10,20\n");
    let (code, _, err) = skyplan(&["forecast", &bad, "--alibaba-usage"]);
    assert_eq!(code, 1);
    assert!(err.contains("bad_usage.csv:2:"), "{err}");
}

#[test]
fn harvest_help_shows_the_engines_defaults() {
    use skyplan_engine::harvest::{CapacityParams, ClassifyParams, SelectParams, SimParams};
    let h = skyplan(&["help", "harvest"]).1;
    let c = ClassifyParams::default();
    let s = SelectParams::default();
    let m = SimParams::default();
    let levels: Vec<String> = m.levels.iter().map(|l| l.to_string()).collect();
    for (opt, v) in [
        ("--max-std", c.pattern.constant_max_std.to_string()),
        ("--max-cv", c.pattern.constant_max_cv.to_string()),
        ("--min-share", c.pattern.periodic_min_share.to_string()),
        (
            "--min-prominence",
            c.pattern.periodic_min_prominence.to_string(),
        ),
        ("--k-max", c.k_max.to_string()),
        ("--min-explained", c.min_explained.to_string()),
        ("--peak-percentile", c.peak_percentile.to_string()),
        ("--seed", c.seed.to_string()),
        ("--short", s.short_max_secs.to_string()),
        ("--long", s.long_min_secs.to_string()),
        ("--reserved", s.reserved_cores.to_string()),
        (
            "--percentile",
            CapacityParams::default().percentile.to_string(),
        ),
        ("--levels", levels.join(",")),
        ("--runs", m.runs.to_string()),
        ("--days", m.days.to_string()),
        ("--cores", m.cores_per_server.to_string()),
        ("--interarrival", m.mean_interarrival_secs.to_string()),
        ("--batch-load", m.batch_load.to_string()),
        ("--duration-scale", m.duration_scale.to_string()),
        ("--scaling", "linear".into()),
        ("--tpcds", "52".into()),
    ] {
        assert_eq!(default_of(&h, opt), v, "harvest {opt}");
    }
    for opt in [
        "--tenants",
        "--mapping",
        "--machine-meta",
        "--dag",
        "--job",
        "--json",
    ] {
        option_text(&h, opt);
    }
}

#[test]
fn harvest_help_shows_the_storage_defaults() {
    use skyplan_engine::harvest::{AvailabilityParams, DurabilityParams, PlacementParams};
    let h = skyplan(&["help", "harvest"]).1;
    let p = PlacementParams::default();
    let d = DurabilityParams::default();
    let a = AvailabilityParams::default();
    let join = |v: &[String]| v.join(",");
    let reps: Vec<String> = d.replications.iter().map(|r| r.to_string()).collect();
    let levels: Vec<String> = a.levels.iter().map(|l| l.to_string()).collect();
    assert_eq!(d.replications, a.replications);
    assert_eq!(d.runs, a.runs);
    for (opt, v) in [
        ("--blocks", d.blocks.to_string()),
        ("--replication", p.replication.to_string()),
        ("--replications", join(&reps)),
        ("--grid", p.grid.to_string()),
        ("--block-mb", p.block_mb.to_string()),
        ("--rack-size", p.rack_size.to_string()),
        ("--policy", "hdfs-h".into()),
        ("--span-days", d.days.to_string()),
        ("--recreate-per-hour", d.recreate_per_hour.to_string()),
        ("--threads", d.threads.to_string()),
        ("--availability-blocks", a.blocks.to_string()),
        ("--util-levels", join(&levels)),
        ("--reserve-threshold", a.reserve_threshold.to_string()),
        ("--runs", d.runs.to_string()),
        ("--seed", p.seed.to_string()),
    ] {
        assert_eq!(default_of(&h, opt), v, "harvest {opt}");
    }
    for opt in ["--reimages", "--writer", "--replay"] {
        option_text(&h, opt);
    }
}

const REIMAGES: &str = "fixtures/demo/reimages.csv";

fn storage_args<'a>(sub: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut v = vec![
        "harvest",
        sub,
        "fixtures/demo/tenant_utilization.csv",
        "--tenants",
        "fixtures/demo/tenants.csv",
        "--reimages",
        REIMAGES,
    ];
    v.extend_from_slice(extra);
    v
}

#[test]
fn harvest_reimages_and_place_on_the_demo() {
    let (code, out, err) = skyplan(&storage_args("reimages", &["--json"]));
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["months"].as_array().unwrap().len(), 12);
    assert!(v["servers_at_most_monthly"].as_f64().unwrap() >= 0.9);
    let (code, out, err) = skyplan(&storage_args("place", &["--blocks", "5000", "--json"]));
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["report"]["blocks"], 5000);
    assert_eq!(v["report"]["diversity"]["environment_repeats"], 0);
    assert_eq!(v["report"]["diversity"]["over_room_servers"], 0);
    assert_eq!(v["grid"]["cells"].as_array().unwrap().len(), 9);
    let (code, out, err) = skyplan(&storage_args(
        "place",
        &["--writer", "nab-24ae8d/s3", "--replication", "4"],
    ));
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("replica 1: nab-24ae8d/s3"), "{out}");
    assert!(out.contains("replica 4:"), "{out}");
    assert!(out.contains("RowUsed"), "{out}");
    let (code, _, err) = skyplan(&storage_args("place", &["--blocks", "900000000"]));
    assert_eq!(code, 1);
    assert!(err.contains("the cluster is full"), "{err}");
    let (code, _, err) = skyplan(&storage_args("place", &["--writer", "nobody/s1"]));
    assert_eq!(code, 1);
    assert!(err.contains("unknown server `nobody/s1`"), "{err}");
}

#[test]
fn harvest_refuses_bad_reimages_with_their_location() {
    let bad = temp_file(
        "bad_reimages.csv",
        "timestamp,server\n2026-01-01 00:00,ads-frontend-01/s1\n2026-01-02,ghost/s1\n",
    );
    let mut args = storage_args("reimages", &[]);
    args[6] = bad.as_str();
    let (code, _, err) = skyplan(&args);
    assert_eq!(code, 1);
    assert!(
        err.contains("bad_reimages.csv:3:12: unknown server `ghost/s1`"),
        "{err}"
    );
    let empty = temp_file("empty_reimages.csv", "timestamp,server\n");
    let mut args = storage_args("place", &[]);
    args[6] = empty.as_str();
    let (code, _, err) = skyplan(&args);
    assert_eq!(code, 1);
    assert!(err.contains("empty_reimages.csv:1:1: no reimage"), "{err}");
    let (code, _, err) = skyplan(&[
        "harvest",
        "place",
        "fixtures/demo/tenant_utilization.csv",
        "--tenants",
        "fixtures/demo/tenants.csv",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("--reimages"), "{err}");
}

#[test]
fn harvest_simulates_durability_and_availability() {
    let (code, out, err) = skyplan(&storage_args(
        "simulate-durability",
        &["--blocks", "5000", "--runs", "1", "--json"],
    ));
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let results = v["results"].as_array().unwrap();
    assert_eq!(results.len(), 4);
    assert_eq!(results[0]["policy"], "HDFS-H");
    assert_eq!(results[1]["policy"], "HDFS-Stock");
    assert!(v["paper"]["summary"]
        .as_str()
        .unwrap()
        .contains("Figure 15"));
    // The runs are spread over threads; the results do not depend on how
    // many.
    let results_on = |threads: &str| {
        let (code, out, err) = skyplan(&storage_args(
            "simulate-durability",
            &[
                "--blocks",
                "5000",
                "--runs",
                "3",
                "--threads",
                threads,
                "--json",
            ],
        ));
        assert_eq!(code, 0, "{err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        v["results"].clone()
    };
    let one = results_on("1");
    assert_eq!(one[0]["runs"].as_array().unwrap().len(), 3);
    assert_eq!(one, results_on("2"));
    let (code, out, err) = skyplan(&storage_args(
        "simulate-availability",
        &[
            "--availability-blocks",
            "2000",
            "--runs",
            "1",
            "--util-levels",
            "10,60",
            "--replications",
            "3",
        ],
    ));
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("H fail%"), "{out}");
    assert!(out.contains("Figure 16"), "{out}");
}

const TENANTS: &str = "fixtures/demo/tenants.csv";
const TENANT_UTIL: &str = "fixtures/demo/tenant_utilization.csv";

#[test]
fn harvest_classifies_the_demo_tenants() {
    let (code, json, err) = skyplan(&[
        "harvest",
        "classify",
        "--json",
        TENANT_UTIL,
        "--tenants",
        TENANTS,
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let tenants = v["tenants"].as_array().unwrap();
    assert_eq!(tenants.len(), 40);
    for p in ["periodic", "constant", "unpredictable"] {
        assert!(tenants.iter().any(|t| t["pattern"] == p), "{p}");
    }
    assert!(tenants
        .iter()
        .all(|t| t["class"].as_str().is_some_and(|c| !c.is_empty())));
    assert!(v["classes"].as_array().unwrap().len() >= 3);
    let (code, out, err) = skyplan(&["harvest", "capacity", TENANT_UTIL, "--tenants", TENANTS]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("constant-1"), "{out}");
}

#[test]
fn harvest_select_returns_type_concurrency_and_probabilities() {
    let dag = temp_file(
        "dag.json",
        r#"{"jobs":[{"name":"q","last_run_secs":100,"vertices":[{"name":"m1","tasks":30},{"name":"m2","tasks":20},{"name":"r","tasks":5}],"edges":[["m1","r"],["m2","r"]]}]}"#,
    );
    let (code, json, err) = skyplan(&[
        "harvest",
        "select",
        "--json",
        TENANT_UTIL,
        "--tenants",
        TENANTS,
        "--dag",
        &dag,
        "--job",
        "tasks=100000",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let q = &v[0]["selection"];
    assert_eq!(q["job_type"], "short");
    assert_eq!(q["containers"], 50);
    assert_eq!(q["outcome"], "one");
    let total: f64 = q["options"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["probability"].as_f64().unwrap())
        .sum();
    assert!((total - 1.0).abs() < 1e-9);
    assert_eq!(v[1]["selection"]["outcome"], "none");
    // A cyclic DAG and an unknown tenant are refused with their place.
    let cyc = temp_file(
        "cyc.json",
        r#"{"name":"c","vertices":[{"name":"a","tasks":1},{"name":"b","tasks":1}],"edges":[["a","b"],["b","a"]]}"#,
    );
    let (code, _, err) = skyplan(&[
        "harvest",
        "select",
        TENANT_UTIL,
        "--tenants",
        TENANTS,
        "--dag",
        &cyc,
    ]);
    assert_eq!(code, 1);
    assert!(err.contains("cycle"), "{err}");
    let tenants = temp_file(
        "tenants.csv",
        "tenant,environment,machine_function,servers\nonly,e,f,3\n",
    );
    let (code, _, err) = skyplan(&["harvest", "classify", TENANT_UTIL, "--tenants", &tenants]);
    assert_eq!(code, 1);
    assert!(err.contains("unknown tenant"), "{err}");
    let bad = temp_file(
        "bad.csv",
        "tenant,environment,machine_function,servers\nx,e,f,many\n",
    );
    let (code, _, err) = skyplan(&["harvest", "classify", TENANT_UTIL, "--tenants", &bad]);
    assert_eq!(code, 1);
    assert!(err.contains("bad.csv:2:7"), "{err}");
}

#[test]
fn harvest_simulates_scheduling() {
    let (code, json, err) = skyplan(&[
        "harvest",
        "simulate-scheduling",
        "--json",
        TENANT_UTIL,
        "--tenants",
        TENANTS,
        "--days",
        "1",
        "--runs",
        "1",
        "--levels",
        "0,30",
        "--tpcds",
        "8",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let levels = v["levels"].as_array().unwrap();
    assert_eq!(levels.len(), 2);
    assert_eq!(levels[0]["pt"]["kills"]["max"], 0.0);
    assert!(levels[1]["h"]["runs"][0]["finished"].as_u64().unwrap() > 0);
    let (code, _, err) = skyplan(&[
        "harvest",
        "simulate-scheduling",
        TENANT_UTIL,
        "--scaling",
        "cubic",
    ]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn shape_simulates_and_grids_and_refuses_bad_settings() {
    let (code, out, err) = skyplan(&[
        "shape",
        "simulate",
        "--apps",
        "60",
        "--hosts",
        "6",
        "--predictor",
        "oracle",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(v["baseline"]["summary"]["apps"], 60);
    assert_eq!(v["shaped"]["summary"]["policy"], "pessimistic");
    assert!(v["shaped"]["app_timeline"]["points"].as_array().is_some());
    let (code, out, err) = skyplan(&[
        "shape",
        "simulate",
        "--apps",
        "60",
        "--hosts",
        "6",
        "--predictor",
        "oracle",
        "--compare",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("optimistic") && out.contains("reservation"),
        "{out}"
    );
    let (code, out, err) = skyplan(&[
        "shape",
        "grid",
        "--apps",
        "30",
        "--hosts",
        "4",
        "--seeds",
        "1",
        "--predictors",
        "gp",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("turnaround ratio") && out.contains("recommended for gp"),
        "{out}"
    );
    let (code, _, err) = skyplan(&["shape", "simulate", "--k1", "-1"]);
    assert_eq!(code, 2);
    assert!(err.contains("k1"), "{err}");
    let (code, _, err) = skyplan(&["shape", "simulate", "--hosts", "0"]);
    assert_eq!(code, 2);
    assert!(err.contains("empty"), "{err}");
}
