//! `skyplan sweep`: a shaping sweep's cells are `shape simulate`'s runs,
//! `--cells` counts them, and cells run one per process and merged give
//! exactly the whole sweep's JSON.

use crate::common::{skyplan, skyplan_ok, temp_file};
use serde_json::Value;

/// A small cluster and workload every cell shares.
const BASE: [&str; 6] = ["--apps", "60", "--hosts", "4", "--predictor", "oracle"];

fn sweep_args<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    let mut a = vec!["sweep", "shaping"];
    a.extend_from_slice(&BASE);
    a.extend_from_slice(&["--loads", "0.6,1.3,2.0"]);
    a.extend_from_slice(extra);
    a
}

#[test]
fn a_cell_is_shape_simulate_at_its_load() {
    let whole: Value = serde_json::from_str(&skyplan_ok(&sweep_args(&["--json"]))).unwrap();
    let rows = whole["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 3);
    assert_eq!(whole["cells"], 3);
    assert_eq!(whole["sweep"]["part"], "shaping");
    for (k, load) in ["0.6", "1.3", "2.0"].iter().enumerate() {
        let row = &rows[k];
        assert_eq!(row["cell"], k);
        assert_eq!(row["load"].as_f64().unwrap(), load.parse::<f64>().unwrap());
        let mut args = vec!["shape", "simulate"];
        args.extend_from_slice(&BASE);
        args.extend_from_slice(&["--load", load, "--json"]);
        let single: Value = serde_json::from_str(&skyplan_ok(&args)).unwrap();
        assert_eq!(
            row["turnaround_speedup"], single["turnaround_speedup"],
            "cell {k} at load {load}"
        );
        assert_eq!(
            row["failed_apps_pct"],
            single["shaped"]["summary"]["failed_apps_pct"]
        );
    }
}

#[test]
fn cells_run_apart_and_merged_give_the_whole_sweep() {
    let listed = skyplan_ok(&sweep_args(&["--arrivals", "model,spread", "--cells"]));
    assert_eq!(listed.lines().last(), Some("6"));
    assert!(listed
        .lines()
        .next()
        .unwrap()
        .starts_with("0: load=0.6 arrivals=model"));
    let whole = skyplan_ok(&sweep_args(&["--arrivals", "model,spread", "--json"]));
    let mut files = Vec::new();
    for k in (0..6).rev() {
        let kk = k.to_string();
        let piece = skyplan_ok(&sweep_args(&[
            "--arrivals",
            "model,spread",
            "--cell",
            &kk,
            "--json",
        ]));
        let piece_json: Value = serde_json::from_str(&piece).unwrap();
        assert_eq!(piece_json["rows"].as_array().unwrap().len(), 1);
        files.push(temp_file(&format!("sweep-cell-{k}.json"), &piece));
    }
    let mut args = vec!["sweep", "merge"];
    args.extend(files.iter().map(String::as_str));
    args.push("--json");
    assert_eq!(
        skyplan_ok(&args),
        whole,
        "merged pieces are the whole sweep, byte for byte"
    );
    // One piece missing: refused with the cell named, or printed with --partial.
    let mut short = vec!["sweep", "merge"];
    short.extend(files[1..].iter().map(String::as_str));
    short.push("--json");
    let (code, _, err) = skyplan(&short);
    assert_eq!(code, 1);
    assert!(err.contains("1 of 6 cells are missing: 5"), "{err}");
    short.push("--partial");
    let partial: Value = serde_json::from_str(&skyplan_ok(&short)).unwrap();
    assert_eq!(partial["rows"].as_array().unwrap().len(), 5);
}

#[test]
fn csv_and_out_files_hold_the_same_rows() {
    let csv_path = temp_file("sweep.csv", "");
    let json_path = temp_file("sweep.json", "");
    let csv = skyplan_ok(&sweep_args(&["--csv", "--out", &csv_path]));
    assert_eq!(std::fs::read_to_string(&csv_path).unwrap(), csv);
    assert_eq!(csv.lines().count(), 4);
    assert!(csv.starts_with("cell,load,arrivals,"));
    skyplan_ok(&sweep_args(&["-o", &json_path]));
    let written: Value =
        serde_json::from_str(&std::fs::read_to_string(&json_path).unwrap()).unwrap();
    assert_eq!(written["rows"].as_array().unwrap().len(), 3);
    let table = skyplan_ok(&sweep_args(&[]));
    assert!(
        table.contains("speedup") && table.lines().count() >= 4,
        "{table}"
    );
}

#[test]
fn bad_sweeps_are_refused_in_one_line() {
    for (args, code, says) in [
        (vec!["--loads", "0.6,x"], 2, "--loads: `x`"),
        (vec!["--loads", "-1"], 2, "load"),
        (vec!["--loads", "NaN"], 2, "load"),
        (vec!["--configs", "oracle/nope"], 2, "--policy must be"),
        (
            vec!["--configs", "gp/pessimistic/0.5"],
            2,
            "PREDICTOR[/POLICY[/K1/K2]]",
        ),
        (vec!["--cell", "9"], 2, "cell 9 is past the last cell"),
        (vec!["--arrivals", "sometimes"], 2, "--arrivals must be"),
    ] {
        let (got, _, err) = skyplan(&sweep_args(&args));
        assert_eq!(got, code, "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
    let (code, _, err) = skyplan(&["sweep", "nothing"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("give shaping") && err.contains("merge"),
        "{err}"
    );
    let bad = temp_file("not-a-sweep.json", "{\"rows\": 3}");
    let (code, _, err) = skyplan(&["sweep", "merge", &bad]);
    assert_eq!(code, 1);
    assert!(err.contains("not-a-sweep.json:1:"), "{err}");
}

/// A small harvest grid: one day of 10-minute slots, eight job templates,
/// DC-0 at 300 servers, two levels.
const HARVEST: [&str; 14] = [
    "sweep",
    "harvest",
    "--servers",
    "300",
    "--levels",
    "20,40",
    "--scaling",
    "linear",
    "--days",
    "1",
    "--step",
    "600",
    "--tpcds",
    "8",
];

#[test]
fn a_harvest_sweep_lists_runs_and_merges_its_cells() {
    let with = |extra: &[&'static str]| {
        let mut a = HARVEST.to_vec();
        a.extend_from_slice(extra);
        a
    };
    let listed = skyplan_ok(&with(&["--cells"]));
    assert_eq!(listed.lines().last(), Some("2"));
    assert!(
        listed
            .lines()
            .next()
            .unwrap()
            .starts_with("0: servers=300 level=20 scaling=linear dc=DC-0"),
        "{listed}"
    );
    let whole = skyplan_ok(&with(&["--json"]));
    let v: Value = serde_json::from_str(&whole).unwrap();
    assert_eq!(v["sweep"]["part"], "harvest");
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 2);
    for (k, row) in rows.iter().enumerate() {
        assert_eq!(row["cell"], k);
        assert_eq!(row["servers"], 300);
        let (pt, h) = (
            row["pt_job_secs"].as_f64().unwrap(),
            row["h_job_secs"].as_f64().unwrap(),
        );
        let improvement = row["improvement"].as_f64().unwrap();
        assert!((improvement - 100.0 * (1.0 - h / pt)).abs() < 1e-9);
    }
    let files: Vec<String> = ["1", "0"]
        .iter()
        .map(|k| {
            let piece = skyplan_ok(&with(&["--cell", k, "--json"]));
            temp_file(&format!("harvest-cell-{k}.json"), &piece)
        })
        .collect();
    let mut args = vec!["sweep", "merge"];
    args.extend(files.iter().map(String::as_str));
    args.push("--json");
    assert_eq!(skyplan_ok(&args), whole);
    let csv = skyplan_ok(&with(&["--csv"]));
    assert!(csv.starts_with("cell,servers,level,scaling,"), "{csv}");
    assert_eq!(csv.lines().count(), 3);
    let text = skyplan_ok(&HARVEST);
    assert!(
        text.contains("DC-0") && text.contains("Figure 14"),
        "{text}"
    );
}
