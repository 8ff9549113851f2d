//! `shape`: simulating and gridding admission shaping, and refusing bad
//! settings.

mod common;

use common::skyplan;

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
