//! `shape`: simulating and gridding admission shaping, and refusing bad
//! settings.

mod common;

use common::{skyplan, skyplan_ok};

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
