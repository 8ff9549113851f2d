//! The readers of cluster exports on their samples
//! (`fixtures/clusters/`, written to each published schema), then hostile
//! input: truncated files, wrong types, missing fields, a JSON bomb, an
//! endless line — never a panic, never unbounded memory, always a located
//! reason.

use super::*;

macro_rules! sample {
    ($name:literal) => {
        include_bytes!(concat!("../../../fixtures/clusters/", $name)).as_slice()
    };
}

fn strict() -> ImportOptions {
    ImportOptions::default()
}

fn load(name: &str, bytes: &[u8]) -> LoadedFile {
    match import(name, bytes, strict()) {
        Ok(f) => f,
        Err(e) => panic!("{name}: {e}"),
    }
}

/// The reasons of a refused import, as `line:column: reason`.
fn refused(name: &str, bytes: &[u8], options: ImportOptions) -> Vec<String> {
    match import(name, bytes, options) {
        Ok(f) => panic!("{name} loaded: {:?}", f.summary()),
        Err(e) => {
            let listed: Vec<String> = e
                .errors()
                .iter()
                .map(|p| format!("{}:{}: {}", p.line, p.column, p.reason))
                .collect();
            if listed.is_empty() {
                vec![e.to_string()]
            } else {
                listed
            }
        }
    }
}

#[test]
fn rm_apps_one_run_per_finished_application_grouped_by_job() {
    let f = load("apps.json", sample!("yarn-rm-apps.json"));
    assert_eq!(f.format, Format::YarnAppsJson);
    let runs = &f.data.runs;
    assert_eq!(runs.len(), 7, "eight applications, one still running");
    let jobs: std::collections::BTreeSet<&str> = runs.iter().map(|r| r.job.as_str()).collect();
    assert_eq!(
        jobs.into_iter().collect::<Vec<_>>(),
        vec![
            "adhoc_select_count(*)_from_logs",
            "clicks_hourly",
            "revenue_rollup"
        ]
    );
    let first = &runs[0];
    assert_eq!(first.instance, "application_1793500000000_0001");
    assert_eq!(first.start - first.submit, 4, "launchTime is the start");
    // vcoreSeconds spread over the run: the area is the total.
    let vcore_secs = 24.0 * (first.end - first.start) as f64;
    assert!((first.skyline.area() - vcore_secs).abs() / vcore_secs < 0.01);
    assert_eq!(first.container.memory_mb, 2048.0);
    assert!(f.data.notes[0].contains("1 application(s) still running"));
}

#[test]
fn jobhistory_jobs_and_tasks_joined_by_id() {
    let f = load("history.json", sample!("mapreduce-history.json"));
    assert_eq!(f.format, Format::MapreduceHistoryJson);
    assert_eq!(f.data.runs.len(), 3);
    assert_eq!(f.data.workload.len(), 3);
    let run = &f.data.runs[0];
    assert_eq!(
        (run.job.as_str(), run.instance.as_str()),
        ("wordcount", "job_1793500000000_0010")
    );
    // Four maps then one reduce: four containers at the start.
    assert_eq!(run.skyline.containers[0].round(), 4.0);
    let job = &f.data.workload[0];
    assert_eq!(
        (job.features.map_tasks, job.features.reduce_tasks),
        (Some(4), Some(1))
    );
    assert!(
        (job.map_secs.unwrap() - 258.0).abs() < 0.01,
        "{:?}",
        job.map_secs
    );
    assert!(job.reduce_secs.unwrap() > 300.0);
    // Jobs without their tasks are said to be guessed.
    assert!(f
        .data
        .notes
        .iter()
        .any(|n| n.starts_with("2 job(s) without tasks")));
}

#[test]
fn spark_event_log_one_run_of_executors() {
    let f = load(
        "eventlog",
        sample!("spark-eventlog-application_1793500000000_0042_1"),
    );
    assert_eq!(f.format, Format::SparkEventLog);
    let run = &f.data.runs[0];
    assert_eq!(f.data.runs.len(), 1);
    assert_eq!(run.job, "daily_sessions", "from spark.yarn.tags' job:");
    assert_eq!(run.instance, "application_1793500000000_0042_1");
    assert_eq!(run.end - run.start, 600);
    assert_eq!(run.container.cores, 4.0);
    assert_eq!(run.container.memory_mb, 4096.0);
    // Three executors until the third is removed at 300 s, then two.
    assert!((run.skyline.containers[1] - 3.0).abs() < 1e-9);
    assert!((run.skyline.containers[6] - 2.0).abs() < 1e-9);
    assert!(f.data.notes[0].contains("2 job(s), 2 stage(s)"));
}

#[test]
fn prometheus_matrix_one_series_per_result_every_value_a_point() {
    let f = load("q.json", sample!("prometheus-query-range.json"));
    assert_eq!(f.format, Format::PrometheusJson);
    let s = &f.data.series;
    assert_eq!(s.len(), 2);
    assert_eq!(
        s[0].server,
        "instance:node_cpu_utilisation:rate5m_ratio{instance=\"nm1.example:9100\",job=\"node\"}"
    );
    assert_eq!(s[0].resource, Resource::Cpu);
    assert_eq!((s[0].len(), s[1].len()), (120, 119), "a NaN is a gap");
    assert_eq!(s[0].median_step_secs(), Some(60));
    let (_, mean, _) = s[0].stats().unwrap();
    assert!(
        mean > 15.0 && mean < 35.0,
        "a ratio read as percent: {mean}"
    );
}

#[test]
fn grafana_csv_one_series_per_column() {
    let f = load("panel.csv", sample!("grafana-panel.csv"));
    assert_eq!(f.format, Format::GrafanaCsv);
    assert_eq!(f.data.series.len(), 2);
    assert_eq!(f.data.series[0].server, "nm1.example CPU busy");
    assert_eq!(f.data.series[0].timestamps[0], 1_793_577_600);
    assert_eq!((f.data.series[0].len(), f.data.series[1].len()), (60, 59));
}

#[test]
fn google_usage_machine_totals_from_csv_and_json_lines() {
    let csv = load(
        "instance_usage.csv",
        sample!("google-2019-instance_usage.csv"),
    );
    let json = load(
        "instance_usage.json",
        sample!("google-2019-instance_usage.json"),
    );
    for f in [&csv, &json] {
        assert_eq!(f.format, Format::GoogleInstanceUsage);
        assert_eq!(f.data.series.len(), 6, "cpu and memory of three machines");
        let m0 = f
            .data
            .series
            .iter()
            .find(|s| s.server == "machine-400000000")
            .unwrap();
        assert_eq!(m0.len(), 12);
        // 2019-05-02 07:00 UTC: a day after the trace's start.
        assert_eq!(m0.timestamps[0], 1_556_780_400);
        assert!(m0.values[0] > 4.0 && m0.values[0] < 6.0, "{}", m0.values[0]);
    }
    assert_eq!(csv.data.series, json.data.series);
}

#[test]
fn google_events_runs_per_collection() {
    let c = load(
        "collection_events.json",
        sample!("google-2019-collection_events.json"),
    );
    assert_eq!(c.format, Format::GoogleEvents);
    assert_eq!(c.data.runs.len(), 3, "three ended, one never");
    assert!(c.data.runs.iter().all(|r| r.job == "Wm4f9xQmLz0="));
    assert_eq!(c.data.runs[0].start - c.data.runs[0].submit, 20);
    let i = load(
        "instance_events.csv",
        sample!("google-2019-instance_events.csv"),
    );
    assert_eq!(i.data.runs.len(), 2);
    assert_eq!(i.data.runs[0].job, "collection-600000000");
    assert!((i.data.runs[0].skyline.containers[1] - 3.0).abs() < 1e-9);
}

#[test]
fn alibaba_batch_tables_as_recurring_runs() {
    let t = load("batch_task.csv", sample!("alibaba-batch_task.csv"));
    assert_eq!(t.format, Format::AlibabaBatchCsv);
    assert!(t.relative_time());
    assert_eq!(
        t.data.runs.len(),
        4,
        "three days of one plan and another job"
    );
    let plan = &t.data.runs[0].job;
    assert!(plan.starts_with("dag3_"), "{plan}");
    assert_eq!(t.data.runs.iter().filter(|r| &r.job == plan).count(), 3);
    assert_eq!(t.data.runs[0].skyline.containers[0], 14.0);
    assert_eq!(
        crate::slo::template_name(plan),
        *plan,
        "the SLO part keeps the name"
    );
    let i = load("batch_instance.csv", sample!("alibaba-batch_instance.csv"));
    assert_eq!(i.data.runs.len(), 2);
    assert_eq!(i.data.runs[0].job, i.data.runs[1].job);
}

#[test]
fn every_sample_reads_the_same_in_any_chunks() {
    for (name, bytes) in [
        ("a.json", sample!("yarn-rm-apps.json")),
        ("h.json", sample!("mapreduce-history.json")),
        (
            "s",
            sample!("spark-eventlog-application_1793500000000_0042_1"),
        ),
        ("p.json", sample!("prometheus-query-range.json")),
        ("u.json", sample!("google-2019-instance_usage.json")),
    ] {
        let whole = load(name, bytes);
        for size in [1, 7, 4096] {
            let mut imp = Importer::new(name, strict());
            for c in bytes.chunks(size) {
                imp.push(c);
            }
            assert_eq!(imp.finish().unwrap(), whole, "{name} in chunks of {size}");
        }
    }
}

#[test]
fn truncated_json_is_located() {
    let bytes = sample!("yarn-rm-apps.json");
    let cut = &bytes[..bytes.len() / 2];
    let errors = refused("apps.json", cut, strict());
    assert_eq!(errors.len(), 1);
    assert!(
        errors[0].contains("the file ends inside a JSON"),
        "{errors:?}"
    );
    // A cut Spark log loses its last line only; lenient keeps the rest.
    let log = sample!("spark-eventlog-application_1793500000000_0042_1");
    let cut = &log[..log.len() - 10];
    let lenient = ImportOptions {
        lenient: true,
        ..strict()
    };
    let f = import("eventlog", cut, lenient).unwrap();
    assert_eq!(f.skipped_lines, 1);
    assert!(f.data.notes[0].contains("no application end event"));
}

#[test]
fn wrong_types_and_missing_fields_are_located() {
    let text = r#"{"apps":{"app":[
  {"id":"application_1_1","name":"a","startedTime":"soon","finishedTime":10,"vcoreSeconds":1},
  {"id":"application_1_2","name":"b","startedTime":1000,"finishedTime":5000},
  {"name":"c","startedTime":1000,"finishedTime":5000,"vcoreSeconds":1},
  7
]}}"#;
    let errors = refused("apps.json", text.as_bytes(), strict());
    assert_eq!(
        errors,
        vec![
            "2:52: `startedTime` should be a finite number, found `soon`",
            "3:3: an application without `vcoreSeconds`",
            "4:3: an application without `id`",
            "5:3: expected an application (a JSON object), found the number 7",
        ]
    );
    let prom = r#"{"status":"success","data":{"resultType":"vector","result":[]}}"#;
    let errors = refused("p.json", prom.as_bytes(), strict());
    assert_eq!(
        errors,
        vec!["1:42: resultType `vector`: only range queries (matrix) give series"]
    );
    let csv = "start_time,end_time,collection_id,machine_id,average_usage_cpus\n600000000,900000000,1,7,lots\n";
    let errors = refused("u.csv", csv.as_bytes(), strict());
    assert_eq!(
        errors,
        vec!["2:25: `average_usage_cpus` should be a finite number, found `lots`"]
    );
}

#[test]
fn a_json_bomb_is_refused_in_bounded_memory() {
    let mut bomb = b"{\"apps\":".to_vec();
    bomb.extend(std::iter::repeat_n(b'[', 10_000_000));
    let errors = refused("bomb.json", &bomb, strict());
    assert_eq!(
        errors,
        vec![format!("1:{}: JSON nested deeper than 100 levels", 8 + 100)]
    );
    // A huge array of non-records: every element reported, none kept.
    let mut wide = b"{\"apps\":{\"app\":[".to_vec();
    for _ in 0..200_000 {
        wide.extend_from_slice(b"1,");
    }
    wide.extend_from_slice(b"1]}}");
    match import("wide.json", &wide, strict()) {
        Err(ImportError::Malformed { total, errors, .. }) => {
            assert_eq!(total, 200_001);
            assert_eq!(errors.len(), 1000);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_gigabyte_line_is_refused_without_holding_it() {
    // 1 GiB of one line, streamed in 4 MiB chunks: a line format refuses
    // it at MAX_LINE_BYTES and skips to its end; the next line is read.
    let mut imp = Importer::new(
        "big.csv",
        ImportOptions {
            lenient: true,
            ..strict()
        },
    );
    imp.push(b"timestamp,series,value\n1,a,1\n");
    let chunk = vec![b'9'; 4 << 20];
    for _ in 0..256 {
        imp.push(&chunk);
        assert!(imp.tail.len() <= MAX_LINE_BYTES);
    }
    imp.push(b"\n2,a,2\n");
    let f = imp.finish().unwrap();
    assert_eq!(f.skipped_lines, 1);
    assert_eq!(f.warnings[0].line, 3);
    assert!(f.warnings[0].reason.contains("longer than 16 MiB"));
    assert_eq!(f.data.series[0].values, vec![1.0, 2.0]);
    // The same as one JSON line of a Spark log: the string is cut, the
    // line read.
    let mut imp = Importer::new("log", strict());
    imp.push(
        br#"{"Event":"SparkListenerApplicationStart","App Name":"x","Timestamp":1000,"Note":""#,
    );
    for _ in 0..64 {
        imp.push(&chunk);
    }
    imp.push(b"\"}\n{\"Event\":\"SparkListenerApplicationEnd\",\"Timestamp\":61000}\n");
    let f = imp.finish().unwrap();
    assert_eq!(f.data.runs[0].end - f.data.runs[0].start, 60);
}

/// What an import came to, in one line: loaded (counts, skipped lines and
/// the first warning) or refused (the first two reasons, located).
fn outcome(imp: Importer) -> String {
    match imp.finish() {
        Ok(f) => {
            let s = f.summary();
            format!(
                "loaded {} runs, {} series, {} points; skipped {}{}",
                s.runs,
                s.series,
                s.points,
                s.skipped_lines,
                f.warnings
                    .first()
                    .map(|w| format!(" ({}:{}: {})", w.line, w.column, w.reason))
                    .unwrap_or_default()
            )
        }
        Err(e) => {
            let listed: Vec<String> = e
                .errors()
                .iter()
                .take(2)
                .map(|p| format!("{}:{}: {}", p.line, p.column, p.reason))
                .collect();
            if listed.is_empty() {
                format!("refused: {e}")
            } else {
                format!("refused: {}", listed.join(" | "))
            }
        }
    }
}

/// Imports `parts` pushed in turn, `filler` streamed `mib` MiB at the
/// place of the `None` part in 4 MiB chunks (never held whole).
fn streamed(name: &str, lenient: bool, parts: &[Option<&[u8]>], filler: u8, mib: usize) -> String {
    let mut imp = Importer::new(
        name,
        ImportOptions {
            lenient,
            ..strict()
        },
    );
    let chunk = vec![filler; 4 << 20];
    for part in parts {
        match part {
            Some(bytes) => imp.push(bytes),
            None => {
                for _ in 0..mib / 4 {
                    imp.push(&chunk);
                }
            }
        }
    }
    outcome(imp)
}

/// `bytes` with the first `from` replaced by `to`.
fn edit(bytes: &[u8], from: &str, to: &str) -> Vec<u8> {
    let text = std::str::from_utf8(bytes).expect("the samples are UTF-8");
    assert!(text.contains(from), "{from}");
    text.replacen(from, to, 1).into_bytes()
}

/// One reader's sample and the hostile versions made of it, each with the
/// outcome expected.
struct Hostile {
    name: &'static str,
    bytes: &'static [u8],
    /// Where a field (JSON documents) or a line (line formats) goes in:
    /// just after this text.
    at: &'static str,
    /// A JSON document's inserted field is `"note": <value>, `.
    document: bool,
    /// Cut at half its bytes, strict.
    truncated: &'static str,
    /// A value of the wrong type: (from, to), strict.
    wrong: (&'static str, &'static str, &'static str),
    /// A required field taken out: (from, to), strict.
    missing: (&'static str, &'static str, &'static str),
    /// A 1 GiB line (a JSON document: a 1 GiB string), lenient.
    gigabyte: &'static str,
    /// A million `[` (a JSON bomb), lenient.
    bomb: &'static str,
}

#[test]
fn every_reader_on_truncated_and_hostile_input() {
    let cases = [
        Hostile {
            name: "yarn-rm-apps.json",
            bytes: sample!("yarn-rm-apps.json"),
            at: "\"name\": \"revenue_rollup_20261102\",",
            document: true,
            truncated: "refused: 145:39: the file ends inside a JSON value (4 level(s) left open; truncated?)",
            wrong: ("\"vcoreSeconds\": 54648", "\"vcoreSeconds\": \"lots\"", "refused: 29:25: `vcoreSeconds` should be a finite number, found `lots`"),
            missing: ("\"startedTime\": 1793599369781,", "", "refused: 4:7: an application without `startedTime`"),
            gigabyte: "loaded 7 runs, 0 series, 0 points; skipped 0",
            bomb: "refused: 7:147: JSON nested deeper than 100 levels",
        },
        Hostile {
            name: "mapreduce-history.json",
            bytes: sample!("mapreduce-history.json"),
            at: "\"name\": \"wordcount_20261102\",",
            document: true,
            truncated: "refused: 57:43: the file ends inside a JSON token (truncated?)",
            wrong: ("\"mapsTotal\": 4,", "\"mapsTotal\": \"four\",", "refused: 13:22: `mapsTotal` should be a finite number, found `four`"),
            missing: ("\"startTime\": 1793584801500,", "", "refused: 4:7: a job without `startTime`"),
            gigabyte: "loaded 3 runs, 0 series, 0 points; skipped 0",
            bomb: "refused: 9:142: JSON nested deeper than 100 levels",
        },
        Hostile {
            name: "eventlog",
            bytes: sample!("spark-eventlog-application_1793500000000_0042_1"),
            at: "\n",
            document: false,
            truncated: "refused: 26:80: the file ends inside a JSON token (truncated?)",
            wrong: ("\"Timestamp\":1793595605000,", "\"Timestamp\":\"soon\",", "refused: 5:51: `Timestamp` should be a finite number, found `soon`"),
            missing: ("\"Executor ID\":\"1\",", "", "refused: 5:1: an executor event without `Executor ID`"),
            gigabyte: "loaded 1 runs, 0 series, 0 points; skipped 1 (2:1: expected a value, found `x`)",
            bomb: "loaded 1 runs, 0 series, 0 points; skipped 1 (2:101: JSON nested deeper than 100 levels)",
        },
        Hostile {
            name: "prometheus.json",
            bytes: sample!("prometheus-query-range.json"),
            at: "{\"metric\": {",
            document: true,
            truncated: "refused: 1:3027: the file ends inside a JSON value (6 level(s) left open; truncated?)",
            wrong: ("[1793577600, \"0.209\"]", "[1793577600, true]", "refused: 1:213: a sample should be `[<unix seconds>, \"<value>\"]`"),
            missing: ("\"values\": [[", "\"valuez\": [[", "refused: 1:3062: a result without `values`"),
            gigabyte: "loaded 0 runs, 2 series, 239 points; skipped 0",
            bomb: "refused: 1:182: JSON nested deeper than 100 levels",
        },
        Hostile {
            name: "grafana.csv",
            bytes: sample!("grafana-panel.csv"),
            at: "\n",
            document: false,
            truncated: "loaded 0 runs, 2 series, 58 points; skipped 0",
            wrong: ("1793577660000,21.99,59.95", "1793577660000,lots,59.95", "refused: 3:15: value `lots` is not a number"),
            missing: ("1793577720000,23.89,59.80", "1793577720000,23.89", "refused: 4:20: expected 3 fields as in the header, found 2"),
            gigabyte: "loaded 0 runs, 2 series, 119 points; skipped 1 (2:1: the line is longer than 16 MiB (not read; is this the right format?))",
            bomb: "loaded 0 runs, 2 series, 119 points; skipped 1 (2:1000001: expected 3 fields as in the header, found 1)",
        },
        Hostile {
            name: "usage.csv",
            bytes: sample!("google-2019-instance_usage.csv"),
            at: "\n",
            document: false,
            truncated: "refused: 36:68: expected 18 fields as in the header, found 11",
            wrong: ("87000000000,87300000000,", "87000000000,soon,", "refused: 2:13: `end_time` should be a finite number, found `soon`"),
            missing: (",300000000,0,400000000,", ",300000000,0,,", "refused: 2:1: a usage row without `machine_id`"),
            gigabyte: "loaded 0 runs, 6 series, 72 points; skipped 1 (2:1: the line is longer than 16 MiB (not read; is this the right format?))",
            bomb: "loaded 0 runs, 6 series, 72 points; skipped 1 (2:1000001: expected 18 fields as in the header, found 1)",
        },
        Hostile {
            name: "usage.json",
            bytes: sample!("google-2019-instance_usage.json"),
            at: "\n",
            document: false,
            truncated: "refused: 36:680: the file ends inside a JSON value (2 level(s) left open; truncated?)",
            wrong: ("\"average_usage\":{\"cpus\":0.02187", "\"average_usage\":{\"cpus\":\"lots\"", "refused: 1:228: `average_usage.cpus` should be a finite number, found `lots`"),
            missing: ("\"machine_id\":\"400000000\",", "", "refused: 1:1: a usage row without `machine_id`"),
            gigabyte: "loaded 0 runs, 6 series, 72 points; skipped 1 (2:1: expected a value, found `x`)",
            bomb: "loaded 0 runs, 6 series, 72 points; skipped 1 (2:101: JSON nested deeper than 100 levels)",
        },
        Hostile {
            name: "ievents.csv",
            bytes: sample!("google-2019-instance_events.csv"),
            at: "\n",
            document: false,
            truncated: "refused: 9:27: expected 12 fields as in the header, found 6",
            wrong: ("7810000000,3,600000000", "soon,3,600000000", "refused: 3:1: `time` should be a finite number, found `soon`"),
            missing: ("7810000000,3,", "7810000000,,", "refused: 3:1: an event without `type`"),
            gigabyte: "loaded 2 runs, 0 series, 0 points; skipped 1 (2:1: the line is longer than 16 MiB (not read; is this the right format?))",
            bomb: "loaded 2 runs, 0 series, 0 points; skipped 1 (2:1000001: expected 12 fields as in the header, found 1)",
        },
        Hostile {
            name: "cevents.json",
            bytes: sample!("google-2019-collection_events.json"),
            at: "\n",
            document: false,
            // Cut at a line's end: the lines before are whole.
            truncated: "loaded 1 runs, 0 series, 0 points; skipped 0",
            wrong: ("\"time\":\"4200000000\"", "\"time\":\"soon\"", "refused: 1:340: `time` should be a finite number, found `soon`"),
            missing: ("\"collection_id\":\"500000000\",", "", "refused: 1:1: an event without `collection_id`"),
            gigabyte: "loaded 3 runs, 0 series, 0 points; skipped 1 (2:1: expected a value, found `x`)",
            bomb: "loaded 3 runs, 0 series, 0 points; skipped 1 (2:101: JSON nested deeper than 100 levels)",
        },
        Hostile {
            name: "batch_task.csv",
            bytes: sample!("alibaba-batch_task.csv"),
            at: "\n",
            document: false,
            truncated: "refused: 6:1: expected 9 fields (the trace's schema), found 7",
            wrong: ("Terminated,3600,3900", "Terminated,soon,3900", "refused: 1:27: start_time `soon` is not a number"),
            missing: ("M2,4,j_1000,", "M2,4,,", "refused: 2:6: empty job_name"),
            gigabyte: "loaded 4 runs, 0 series, 0 points; skipped 1 (2:1: the line is longer than 16 MiB (not read; is this the right format?))",
            bomb: "loaded 4 runs, 0 series, 0 points; skipped 1 (2:1: expected 9 fields (the trace's schema), found 1)",
        },
        Hostile {
            name: "batch_instance.csv",
            bytes: sample!("alibaba-batch_instance.csv"),
            at: "\n",
            document: false,
            truncated: "refused: 6:1: expected 14 fields (the trace's schema), found 1",
            wrong: ("Terminated,3600,3700", "Terminated,soon,3700", "refused: 1:33: start_time `soon` is not a number"),
            missing: ("ins_9001,M1,j_2000,", "ins_9001,M1,,", "refused: 2:13: empty job_name"),
            gigabyte: "loaded 2 runs, 0 series, 0 points; skipped 1 (2:1: the line is longer than 16 MiB (not read; is this the right format?))",
            bomb: "loaded 2 runs, 0 series, 0 points; skipped 1 (2:1: expected 14 fields (the trace's schema), found 1)",
        },
    ];
    let mut wrong_outcomes = Vec::new();
    let mut check = |got: String, expected: &str, what: String| {
        if got != expected {
            wrong_outcomes.push(format!("{what}: {got}"));
        }
    };
    for c in cases {
        let name = c.name;
        let text = std::str::from_utf8(c.bytes).expect("the samples are UTF-8");
        let cut = text.find(c.at).expect("the insertion point") + c.at.len();
        let (head, tail) = c.bytes.split_at(cut);
        let (open, close): (&[u8], &[u8]) = if c.document {
            (b"\"note\": ", b", ")
        } else {
            (b"", b"\n")
        };
        let half = &c.bytes[..c.bytes.len() / 2];
        check(
            streamed(name, false, &[Some(half)], 0, 0),
            c.truncated,
            format!("{name} truncated"),
        );
        for (what, (from, to, expected)) in [("wrong type", c.wrong), ("missing field", c.missing)]
        {
            let edited = edit(c.bytes, from, to);
            check(
                streamed(name, false, &[Some(&edited)], 0, 0),
                expected,
                format!("{name} {what}"),
            );
        }
        // 1 GiB on one line, streamed: a line format skips it, a JSON
        // string keeps its first MiB (and the field is not read).
        let quote: &[u8] = if c.document { b"\"" } else { b"" };
        check(
            streamed(
                name,
                true,
                &[
                    Some(head),
                    Some(open),
                    Some(quote),
                    None,
                    Some(quote),
                    Some(close),
                    Some(tail),
                ],
                b'x',
                1024,
            ),
            c.gigabyte,
            format!("{name} with a 1 GiB line"),
        );
        let bomb = vec![b'['; 1_000_000];
        check(
            streamed(
                name,
                true,
                &[Some(head), Some(open), Some(&bomb), Some(close), Some(tail)],
                0,
                0,
            ),
            c.bomb,
            format!("{name} with a JSON bomb"),
        );
    }
    assert!(wrong_outcomes.is_empty(), "{wrong_outcomes:#?}");
}

#[test]
fn chunks_cut_inside_a_character_or_a_byte_order_mark_change_nothing() {
    // A fatal header error, then a last line of multi-byte characters cut
    // between chunks: the line is never read, in any chunks.
    let bytes = "\njob00\t1\t1\t1\t1\n ⷀ0ὐ®𑴋0ﯓ".as_bytes();
    // A byte-order mark alone, one byte a chunk, the format chosen.
    let bom: &[u8] = b"\xEF\xBB\xBF";
    for (bytes, format) in [(bytes, Format::RunsCsv), (bom, Format::YarnAppsJson)] {
        let options = ImportOptions {
            format: Some(format),
            ..strict()
        };
        let whole = import("in.csv", bytes, options.clone());
        for size in [1, 2, 9, 10] {
            let mut imp = Importer::new("in.csv", options.clone());
            for c in bytes.chunks(size) {
                imp.push(c);
            }
            assert_eq!(imp.finish(), whole, "{format:?} in chunks of {size}");
        }
    }
}

/// `instance_usage` read with every column kept (as before the reader
/// named the fields it reads).
struct AllColumns(google_2019::GoogleUsage);

impl json_record::RecordSink for AllColumns {
    fn record(&mut self, kind: usize, r: &json_record::Record) -> Result<(), json::Fault> {
        self.0.record(kind, r)
    }
}

#[test]
fn keeping_only_the_read_columns_changes_nothing() {
    // The committed sample, plus rows with a quoted and a guarded cell and
    // a bad one: the same series, bit for bit, and the same errors.
    let mut text = String::from_utf8(sample!("google-2019-instance_usage.csv").to_vec()).unwrap();
    let row: Vec<String> = text
        .lines()
        .nth(1)
        .unwrap()
        .split(',')
        .map(String::from)
        .collect();
    let with = |k: usize, cell: &str| {
        let mut r = row.clone();
        r[k] = cell.to_string();
        r.join(",") + "\n"
    };
    let quoted = with(1, &format!("\"{}\"", row[1]));
    let guarded = with(4, &format!("\"'{}\"", row[4]));
    let negative = with(8, "-0.5");
    let short = row[..5].join(",") + "\n";
    for extra in [quoted, guarded, negative, short] {
        text.push_str(&extra);
    }
    let mut projected =
        csv_records::CsvRecords::new(google_2019::USAGE_COLUMNS, google_2019::GoogleUsage::new());
    let mut all = csv_records::CsvRecords::new(
        google_2019::USAGE_COLUMNS,
        AllColumns(google_2019::GoogleUsage::new()),
    );
    for line in text.lines() {
        let a = projected.line(line).map_err(|e| (e.column, e.reason));
        let b = all.line(line).map_err(|e| (e.column, e.reason));
        assert_eq!(a, b, "{line}");
    }
    let (a, b) = (projected.reader.finish(), all.reader.0.finish());
    assert!(!a.series.is_empty());
    assert_eq!(a, b);
}
