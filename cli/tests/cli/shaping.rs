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
