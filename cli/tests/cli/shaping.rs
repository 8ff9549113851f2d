//! `shape`: simulating and gridding admission shaping, and refusing bad
//! settings.

use crate::common::{skyplan, skyplan_ok};

/// `shape simulate` of 60 applications on 6 hosts with the oracle.
const SIMULATE: [&str; 8] = [
    "shape",
    "simulate",
    "--apps",
    "60",
    "--hosts",
    "6",
    "--predictor",
    "oracle",
];

#[test]
fn shape_simulates_and_grids_and_refuses_bad_settings() {
    let out = skyplan_ok(&[&SIMULATE[..], &["--json"]].concat());
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(v["baseline"]["summary"]["apps"], 60);
    assert_eq!(v["shaped"]["summary"]["policy"], "pessimistic");
    assert!(v["shaped"]["app_timeline"]["points"].as_array().is_some());
    let out = skyplan_ok(&[&SIMULATE[..], &["--compare"]].concat());
    assert!(
        out.contains("optimistic") && out.contains("reservation"),
        "{out}"
    );
    let out = skyplan_ok(&[
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

#[test]
fn a_generated_workload_written_to_files_simulates_as_the_generated_one() {
    let dir = std::env::temp_dir().join(format!("skyplan-shape-gen-{}", std::process::id()));
    let out = skyplan_ok(&[
        "shape",
        "generate",
        "--apps",
        "60",
        "--hosts",
        "6",
        "--out",
        dir.to_str().expect("utf-8 path"),
    ]);
    assert!(out.contains("60 applications written"), "{out}");
    let apps = dir.join("apps.csv");
    let usage = dir.join("usage.csv");
    let from_files = skyplan_ok(&[
        "shape",
        "simulate",
        "--hosts",
        "6",
        "--predictor",
        "oracle",
        "--json",
        "--apps-csv",
        apps.to_str().expect("utf-8 path"),
        "--usage-csv",
        usage.to_str().expect("utf-8 path"),
    ]);
    let generated = skyplan_ok(&[&SIMULATE[..], &["--json"]].concat());
    let summary = |text: &str| {
        let v: serde_json::Value = serde_json::from_str(text).expect("json");
        (
            v["baseline"]["summary"].clone(),
            v["shaped"]["summary"].clone(),
        )
    };
    assert_eq!(summary(&from_files), summary(&generated));
    let (code, _, err) = skyplan(&["shape", "generate", "--apps", "5"]);
    assert_eq!(code, 2);
    assert!(err.contains("--out"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The Google cluster-data 2019 fixture pair (`fixtures/clusters/`).
const GOOGLE: [&str; 4] = [
    "--google-events",
    "fixtures/clusters/google-2019-shaping-instance_events.csv",
    "--google-usage",
    "fixtures/clusters/google-2019-shaping-instance_usage.json",
];

#[test]
fn google_2019_instance_tables_simulate_as_a_workload() {
    let args = ["shape", "simulate", "--hosts", "1", "--predictor", "oracle"];
    let out = skyplan_ok(&[&args[..], &GOOGLE, &["--json"]].concat());
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    // Four collections; 14 of the 15 instances have usage rows; all core.
    assert_eq!(v["workload"]["apps"], 4);
    assert_eq!(v["workload"]["rigid"], 4);
    assert_eq!(v["workload"]["components"], 14);
    assert_eq!(v["workload"]["max_runtime_s"], 3015.0);
    // On one 32-core host the reservations queue the last collection;
    // shaped to its usage it starts at once, and nothing fails.
    let mean = |run: &str| {
        v[run]["summary"]["mean_turnaround_s"]
            .as_f64()
            .expect("mean")
    };
    assert!(
        mean("shaped") < mean("baseline"),
        "{} vs {}",
        mean("shaped"),
        mean("baseline")
    );
    assert_eq!(v["shaped"]["summary"]["failed_apps_pct"], 0.0);
    // The text report names the collections; one table alone is refused.
    let text = skyplan_ok(&[&args[..], &GOOGLE].concat());
    assert!(
        text.contains("4 applications (4 rigid), 14 components"),
        "{text}"
    );
    let (code, _, err) = skyplan(&[&args[..], &GOOGLE[..2]].concat());
    assert_eq!(code, 2);
    assert!(err.contains("--google-events with --google-usage"), "{err}");
    // Swapped, each file is read as the other table and refused, located.
    let swapped = [GOOGLE[0], GOOGLE[3], GOOGLE[2], GOOGLE[1]];
    let (code, _, err) = skyplan(&[&args[..], &swapped].concat());
    assert_ne!(code, 0);
    assert!(
        err.contains("google-2019-shaping-instance_usage.json:1:1:"),
        "{err}"
    );
}

#[test]
fn google_2019_instance_tables_reach_a_bundle_and_its_report() {
    let dir = std::env::temp_dir().join(format!("skyplan-shape-google-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let bundle = dir.join("google.skyplan");
    let html = dir.join("google.html");
    let out = skyplan_ok(&[
        "bundle",
        "--workload",
        GOOGLE[3],
        "--workload",
        GOOGLE[1],
        "--out",
        bundle.to_str().expect("utf-8 path"),
    ]);
    assert!(out.contains("shaping: 2 workload files"), "{out}");
    skyplan_ok(&[
        "report",
        bundle.to_str().expect("utf-8 path"),
        "--out",
        html.to_str().expect("utf-8 path"),
    ]);
    let page = std::fs::read_to_string(&html).expect("report");
    assert!(
        page.contains("4 applications (4 rigid)"),
        "the workload read"
    );
    assert!(page.contains("collection-700000004"), "its collections");
    let _ = std::fs::remove_dir_all(&dir);
}
