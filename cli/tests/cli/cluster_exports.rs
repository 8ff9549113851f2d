//! `skyplan import --json` on what a running cluster exports (the samples
//! in `fixtures/clusters/`): each format reported as today's are.

use crate::common::{skyplan, temp_bytes};

/// The `--json` summary of importing `file`.
fn summary(file: &str) -> serde_json::Value {
    summary_of(&format!("fixtures/clusters/{file}"))
}

/// The `--json` summary of importing the file at `path`.
fn summary_of(path: &str) -> serde_json::Value {
    let (code, out, err) = skyplan(&["import", "--json", path]);
    assert_eq!(code, 0, "{path}: {err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    v["summary"].clone()
}

#[test]
fn rm_apps_one_run_per_application_grouped_into_recurring_jobs() {
    let s = summary("yarn-rm-apps.json");
    assert_eq!(s["files"][0]["format"], "yarn-apps-json");
    assert_eq!(s["runs"], 7);
    assert_eq!(s["jobs"], 3);
    let note = s["files"][0]["notes"][0].as_str().unwrap();
    assert!(note.contains("still running"), "{note}");
    assert_eq!(s["files"][0]["source"]["bytes"], s["files"][0]["bytes"]);
    assert_eq!(s["files"][0]["source"]["hash"].as_str().unwrap().len(), 32);
}

#[test]
fn prometheus_matrix_one_series_per_result_every_value_a_point() {
    let s = summary("prometheus-query-range.json");
    assert_eq!(s["files"][0]["format"], "prometheus-json");
    assert_eq!(s["series"], 2);
    assert_eq!(s["points"], 239, "240 values, one NaN");
}

#[test]
fn spark_event_log_one_run_per_application() {
    let s = summary("spark-eventlog-application_1793500000000_0042_1");
    assert_eq!(s["files"][0]["format"], "spark-event-log");
    assert_eq!(s["runs"], 1);
}

#[test]
fn compressed_spark_event_logs_read_as_the_plain_log() {
    // The same application, plain and through each of Spark's codecs.
    let dir = "fixtures/real/spark-eventlogs";
    let plain = summary_of(&format!("{dir}/app.plain"));
    assert_eq!(plain["runs"], 1);
    for codec in ["lz4", "lzf", "snappy", "zstd"] {
        let s = summary_of(&format!("{dir}/app.{codec}"));
        assert_eq!(s["files"][0]["format"], "spark-event-log", "{codec}");
        for key in ["runs", "jobs", "points"] {
            assert_eq!(s[key], plain[key], "{codec}: {key}");
        }
        assert_eq!(
            s["files"][0]["lines"], plain["files"][0]["lines"],
            "{codec}: the decompressed lines"
        );
    }
    // Cut short: refused with the codec and the byte offset.
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let bytes = std::fs::read(format!("{root}/{dir}/app.zstd")).unwrap();
    let cut = temp_bytes("cut.zstd", &bytes[..bytes.len() - 100]);
    let (code, _, err) = skyplan(&["import", &cut]);
    assert_eq!(code, 1);
    assert!(
        err.contains("cut.zstd: byte ") && err.contains(": zstd stream: truncated ("),
        "{err}"
    );
}

#[test]
fn every_other_export_loads() {
    for (file, format, key, n) in [
        (
            "mapreduce-history.json",
            "mapreduce-history-json",
            "workload_jobs",
            3,
        ),
        ("grafana-panel.csv", "grafana-csv", "series", 2),
        (
            "google-2019-instance_usage.csv",
            "google-instance-usage",
            "series",
            6,
        ),
        (
            "google-2019-instance_usage.json",
            "google-instance-usage",
            "series",
            6,
        ),
        (
            "google-2019-collection_events.json",
            "google-events",
            "runs",
            3,
        ),
        (
            "google-2019-instance_events.csv",
            "google-events",
            "runs",
            2,
        ),
        ("alibaba-batch_task.csv", "alibaba-batch-csv", "runs", 4),
        ("alibaba-batch_instance.csv", "alibaba-batch-csv", "runs", 2),
    ] {
        let s = summary(file);
        assert_eq!(s["files"][0]["format"], format, "{file}");
        assert_eq!(s[key], n, "{file}: {key}");
    }
}

#[test]
fn text_output_says_what_was_left_out() {
    let (code, out, err) = skyplan(&["import", "fixtures/clusters/yarn-rm-apps.json"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("yarn-apps-json"), "{out}");
    assert!(
        out.contains("note: 1 application(s) still running"),
        "{out}"
    );
}
