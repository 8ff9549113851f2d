//! `plan`: placing signed-off decisions (CSV and JSON) and YARN reservation
//! submissions on the agenda, every interpreter and rejection, the YARN
//! export read back, and its errors and usage.

use crate::common::{skyplan, temp_file};

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
    // A missing field: `file:line:column:` of the object it is missing from
    // (line 5 of the submission, its first request's `{`), then the
    // reservation and path; blank lines and a byte-order mark in front
    // count as the file has them.
    let text = yarn_submit("m", "3", (0, 60), &[(1, 1, 60)]).replace("\"duration\": 60000,", "");
    for (name, text, at) in [
        ("missing.json", text.clone(), "5:39"),
        ("padded.json", format!("\u{feff}\n\n{text}"), "7:39"),
    ] {
        let missing = temp_file(name, &text);
        let (code, _, err) = skyplan(&["plan", &missing, "--capacity-cores", "10"]);
        assert_eq!(code, 1);
        assert!(
            err.contains(&format!("{name}:{at}: reservation 0 (`m`), $.reservation-definition.reservation-requests.reservation-request[0]: `duration` is missing")),
            "{err}"
        );
    }
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
