//! Tests of the Google 2019 workload reader: the fixture pair in both
//! orders, the same tables in both encodings, requests converted, a
//! minute's usage worked out by hand from the rows, the whole fixture's
//! traces against a brute force over interval overlaps (the rows parsed
//! by `serde_json` and a plain split, not by the reader), and hostile
//! input refused with located errors.

use super::files::read_workload_files;
use super::google::workload_from_google;
use super::{Kind, ShapingError, Workload};

const EVENTS: &str =
    include_str!("../../../fixtures/clusters/google-2019-shaping-instance_events.csv");
const USAGE: &str =
    include_str!("../../../fixtures/clusters/google-2019-shaping-instance_usage.json");

/// Two instances of collection 1 (request 0.1 CPU, 0.2 memory), submitted
/// at 500 s, scheduled at 600 s and 630 s, both finished at 1200 s.
const SMALL_EVENTS_CSV: &str = "\
time,type,collection_id,scheduling_class,missing_type,collection_type,priority,alloc_collection_id,instance_index,machine_id,alloc_instance_index,resource_request_cpus,resource_request_memory
500000000,0,1,1,,0,100,0,0,,-1,0.1,0.2
500000000,0,1,1,,0,100,0,1,,-1,0.1,0.2
600000000,3,1,1,,0,100,0,0,7,-1,0.1,0.2
630000000,3,1,1,,0,100,0,1,8,-1,0.1,0.2
1200000000,6,1,1,,0,100,0,0,7,-1,0.1,0.2
1200000000,6,1,1,,0,100,0,1,8,-1,0.1,0.2
";

/// The same rows as BigQuery's JSON lines (INT64 as strings, the request
/// nested, `type` by name).
const SMALL_EVENTS_JSON: &str = r#"{"time":"500000000","type":"SUBMIT","collection_id":"1","scheduling_class":"1","collection_type":"0","priority":"100","alloc_collection_id":"0","instance_index":"0","alloc_instance_index":"-1","resource_request":{"cpus":0.1,"memory":0.2}}
{"time":"500000000","type":"0","collection_id":"1","scheduling_class":"1","collection_type":"0","priority":"100","alloc_collection_id":"0","instance_index":"1","alloc_instance_index":"-1","resource_request":{"cpus":0.1,"memory":0.2}}
{"time":"600000000","type":"3","collection_id":"1","scheduling_class":"1","collection_type":"0","priority":"100","alloc_collection_id":"0","instance_index":"0","machine_id":"7","alloc_instance_index":"-1","resource_request":{"cpus":0.1,"memory":0.2}}
{"time":"630000000","type":"SCHEDULE","collection_id":"1","scheduling_class":"1","collection_type":"0","priority":"100","alloc_collection_id":"0","instance_index":"1","machine_id":"8","alloc_instance_index":"-1","resource_request":{"cpus":0.1,"memory":0.2}}
{"time":"1200000000","type":"6","collection_id":"1","scheduling_class":"1","collection_type":"0","priority":"100","alloc_collection_id":"0","instance_index":"0","machine_id":"7","alloc_instance_index":"-1","resource_request":{"cpus":0.1,"memory":0.2}}
{"time":1200000000,"type":6,"collection_id":1,"scheduling_class":1,"collection_type":0,"priority":100,"alloc_collection_id":0,"instance_index":1,"machine_id":8,"alloc_instance_index":-1,"resource_request":{"cpus":0.1,"memory":0.2}}
"#;

/// Instance 0: [600, 900) s at 0.05 CPU, 0.1 memory, [900, 1200) s at
/// 0.02, 0.1; instance 1: [630, 900) s at 0.15 CPU (above its request:
/// clamped to 1) and 0.05 memory.
const SMALL_USAGE_CSV: &str = "\
start_time,end_time,collection_id,instance_index,machine_id,alloc_collection_id,alloc_instance_index,collection_type,average_usage_cpus,average_usage_memory,maximum_usage_cpus,maximum_usage_memory,random_sample_usage_cpus,assigned_memory,page_cache_memory,cycles_per_instruction,memory_accesses_per_instruction,sample_rate
600000000,900000000,1,0,7,0,-1,0,0.05,0.1,0.06,0.1,0.05,0.2,0.01,1.1,0.004,1.0
900000000,1200000000,1,0,7,0,-1,0,0.02,0.1,0.03,0.1,0.02,0.2,0.01,1.1,0.004,1.0
630000000,900000000,1,1,8,0,-1,0,0.15,0.05,0.2,0.05,0.15,0.2,0.01,1.1,0.004,1.0
";

const SMALL_USAGE_JSON: &str = r#"{"start_time":"600000000","end_time":"900000000","collection_id":"1","instance_index":"0","machine_id":"7","alloc_collection_id":"0","alloc_instance_index":"-1","collection_type":"0","average_usage":{"cpus":0.05,"memory":0.1},"maximum_usage":{"cpus":0.06,"memory":0.1},"random_sample_usage":{"cpus":0.05},"assigned_memory":0.2,"page_cache_memory":0.01,"cycles_per_instruction":1.1,"memory_accesses_per_instruction":0.004,"sample_rate":1.0,"cpu_usage_distribution":[0.0,0.05],"tail_cpu_usage_distribution":[0.06]}
{"start_time":"900000000","end_time":"1200000000","collection_id":"1","instance_index":"0","machine_id":"7","alloc_collection_id":"0","alloc_instance_index":"-1","collection_type":"0","average_usage":{"cpus":0.02,"memory":0.1},"maximum_usage":{"cpus":0.03,"memory":0.1},"random_sample_usage":{"cpus":0.02},"assigned_memory":0.2,"page_cache_memory":0.01,"cycles_per_instruction":1.1,"memory_accesses_per_instruction":0.004,"sample_rate":1.0,"cpu_usage_distribution":[],"tail_cpu_usage_distribution":[]}
{"start_time":"630000000","end_time":"900000000","collection_id":"1","instance_index":"1","machine_id":"8","alloc_collection_id":"0","alloc_instance_index":"-1","collection_type":"0","average_usage":{"cpus":0.15,"memory":0.05},"maximum_usage":{"cpus":0.2,"memory":0.05},"random_sample_usage":{"cpus":0.15},"assigned_memory":0.2,"page_cache_memory":0.01,"cycles_per_instruction":1.1,"memory_accesses_per_instruction":0.004,"sample_rate":1.0,"cpu_usage_distribution":[0.1],"tail_cpu_usage_distribution":[0.2]}
"#;

fn google(events: &str, usage: &str) -> Result<Workload, ShapingError> {
    workload_from_google("e", events, "u", usage, 32.0, 128.0)
}

fn reasons(r: Result<Workload, ShapingError>) -> Vec<String> {
    match r {
        Err(ShapingError::Input(v)) => v,
        other => panic!("not refused: {other:?}"),
    }
}

fn close(a: f32, b: f64) -> bool {
    (f64::from(a) - b).abs() < 1e-6
}

#[test]
fn a_minute_of_usage_worked_out_by_hand_from_the_rows() {
    let w = google(SMALL_EVENTS_CSV, SMALL_USAGE_CSV).expect("read");
    assert_eq!(w.applications.len(), 1);
    let a = &w.applications[0];
    assert_eq!(a.name, "collection-1");
    assert_eq!(a.arrival, 500.0, "the first SUBMIT, seconds");
    assert_eq!(
        a.runtime, 600.0,
        "first SCHEDULE 600 s to last FINISH 1200 s"
    );
    // Equal requests make one group of two core components, in cores and GB.
    assert_eq!(a.components.len(), 1);
    let g = &a.components[0];
    assert_eq!((g.kind, g.count), (Kind::Core, 2));
    assert!((g.cpu - 3.2).abs() < 1e-12 && (g.mem - 25.6).abs() < 1e-12);
    assert_eq!(a.usage.len(), 10);
    // Minute 0 (600–660 s): instance 0's first window, 0.05 / 0.1 = 0.5
    // CPU and 0.1 / 0.2 = 0.5 memory, with instance 1's, 0.15 / 0.1
    // clamped to 1 and 0.05 / 0.2 = 0.25: means 0.75 and 0.375.
    assert!(close(a.usage.cpu[0], 0.75), "{:?}", a.usage.cpu);
    assert!(close(a.usage.mem[0], 0.375), "{:?}", a.usage.mem);
    // Minute 4 (840–900 s) still both windows; minute 5 (900–960 s) only
    // instance 0's second window: 0.02 / 0.1 and 0.1 / 0.2.
    assert!(close(a.usage.cpu[4], 0.75));
    assert!(close(a.usage.cpu[5], 0.2) && close(a.usage.mem[5], 0.5));
    assert!(close(a.usage.cpu[9], 0.2));
}

#[test]
fn both_encodings_of_both_tables_read_the_same_and_in_either_order() {
    let w = google(SMALL_EVENTS_CSV, SMALL_USAGE_CSV).expect("csv + csv");
    for (events, usage) in [
        (SMALL_EVENTS_JSON, SMALL_USAGE_CSV),
        (SMALL_EVENTS_CSV, SMALL_USAGE_JSON),
        (SMALL_EVENTS_JSON, SMALL_USAGE_JSON),
    ] {
        assert_eq!(google(events, usage).expect("read"), w);
        for files in [
            [("events", events), ("usage", usage)],
            [("usage", usage), ("events", events)],
        ] {
            let (_, again) = read_workload_files(&files, 32.0, 128.0).expect("files");
            assert_eq!(again, w);
        }
    }
}

#[test]
fn leading_minutes_without_rows_take_the_first_observed_value() {
    // Instance 1's usage alone, from 630 s: minute 0 (600–630 s) has no
    // row of it, and instance 0 has none at all (it is left out).
    let usage: String = SMALL_USAGE_CSV
        .lines()
        .filter(|l| !l.starts_with("600000000") && !l.starts_with("900000000"))
        .map(|l| format!("{l}\n"))
        .collect();
    let usage = usage.replace("630000000,900000000", "720000000,900000000");
    let w = google(SMALL_EVENTS_CSV, &usage).expect("read");
    let a = &w.applications[0];
    assert_eq!(
        a.component_count(),
        1,
        "the instance without usage left out"
    );
    // Scheduled at 630 s: minutes 0 (630–690) and 1 take minute 2's value.
    assert!(close(a.usage.cpu[0], 1.0) && close(a.usage.mem[0], 0.25));
    assert!(close(a.usage.mem[1], 0.25) && close(a.usage.mem[2], 0.25));
    // After its last window the value is held.
    assert!(close(a.usage.mem[a.usage.len() - 1], 0.25));
}

#[test]
fn the_fixture_pair_is_a_workload_in_either_order() {
    for files in [
        [("events.csv", EVENTS), ("usage.json", USAGE)],
        [("usage.json", USAGE), ("events.csv", EVENTS)],
    ] {
        let (_, w) = read_workload_files(&files, 32.0, 128.0).expect("fixture");
        assert_eq!(w.applications.len(), 4);
        let instances: usize = w.applications.iter().map(|a| a.component_count()).sum();
        assert_eq!(instances, 14, "15 instances, one without usage rows");
        // Collection 2: two request sizes of two instances each.
        let c2 = &w.applications[1];
        assert_eq!(c2.name, "collection-700000002");
        let mut groups: Vec<(u32, f64, f64)> = c2
            .components
            .iter()
            .map(|g| (g.count, g.cpu, g.mem))
            .collect();
        groups.sort_by(|a, b| a.1.total_cmp(&b.1));
        assert_eq!(groups, vec![(2, 0.8, 2.56), (2, 3.2, 6.4)]);
        // Collection 1's instance 0 raised its request to 0.06 while
        // running: the latest request counts (1.92 cores, not 1.6).
        let c1 = &w.applications[0];
        assert!(c1.components.iter().any(|g| (g.cpu - 1.92).abs() < 1e-12));
        assert_eq!(c1.arrival, 3600.0);
        assert_eq!(c1.runtime, 3015.0, "SCHEDULE at +5 s to FINISH at +3020 s");
        w.validate(&[super::Host {
            cpu: 32.0,
            mem: 128.0,
        }])
        .expect("valid on 32-core hosts");
    }
}

/// One usage row of the fixture, parsed by `serde_json`.
struct Row {
    instance: (u64, u64),
    start: f64,
    end: f64,
    cpus: f64,
    memory: f64,
}

fn int(v: &serde_json::Value) -> f64 {
    v.as_str()
        .and_then(|s| s.parse().ok())
        .expect("an INT64 string")
}

#[test]
fn fixture_traces_match_a_brute_force_over_interval_overlaps() {
    // Requests and schedule/end times from the CSV by a plain split.
    let mut request = std::collections::HashMap::new();
    let mut first = std::collections::HashMap::new();
    let mut last = std::collections::HashMap::new();
    for line in EVENTS.lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        let t: f64 = f[0].parse().expect("time");
        let key = (
            f[2].parse::<u64>().expect("id"),
            f[8].parse().expect("index"),
        );
        let kind: u8 = f[1].parse().expect("type");
        request.insert(
            key,
            (
                f[11].parse::<f64>().expect("cpus"),
                f[12].parse::<f64>().expect("mem"),
            ),
        );
        if kind == 3 {
            first
                .entry(key.0)
                .and_modify(|x: &mut f64| *x = x.min(t))
                .or_insert(t);
        }
        if (4..=8).contains(&kind) {
            last.entry(key.0)
                .and_modify(|x: &mut f64| *x = x.max(t))
                .or_insert(t);
        }
    }
    let rows: Vec<Row> = USAGE
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).expect("json");
            Row {
                instance: (
                    int(&v["collection_id"]) as u64,
                    int(&v["instance_index"]) as u64,
                ),
                start: int(&v["start_time"]),
                end: int(&v["end_time"]),
                cpus: v["average_usage"]["cpus"].as_f64().expect("cpus"),
                memory: v["average_usage"]["memory"].as_f64().expect("memory"),
            }
        })
        .collect();
    let w = google(EVENTS, USAGE).expect("fixture");
    let mut checked = 0;
    for a in &w.applications {
        let id: u64 = a.name["collection-".len()..].parse().expect("id");
        let t0 = first[&id];
        assert!((a.runtime - (last[&id] - t0) / 1e6).abs() < 1e-9);
        let mut held = (f64::NAN, f64::NAN);
        for m in 0..a.usage.len() {
            // Every row whose window overlaps the minute [t0 + 60m, +60 s).
            let (lo, hi) = (t0 + 60e6 * m as f64, t0 + 60e6 * (m + 1) as f64);
            let over: Vec<&Row> = rows
                .iter()
                .filter(|r| r.instance.0 == id && r.start < hi && r.end > lo)
                .collect();
            if !over.is_empty() {
                let mean = |f: &dyn Fn(&Row) -> f64| {
                    over.iter().map(|r| f(r).clamp(0.0, 1.0)).sum::<f64>() / over.len() as f64
                };
                held = (
                    mean(&|r| r.cpus / request[&r.instance].0),
                    mean(&|r| r.memory / request[&r.instance].1),
                );
            }
            assert!(!held.0.is_nan(), "the fixture's usage starts at SCHEDULE");
            assert!(close(a.usage.cpu[m], held.0), "{} minute {m}", a.name);
            assert!(close(a.usage.mem[m], held.1), "{} minute {m}", a.name);
            checked += 1;
        }
    }
    assert!(checked > 150, "{checked} minutes checked");
}

#[test]
fn hostile_tables_are_refused_with_located_errors() {
    let json_events = |line: &str| format!("{line}\n");
    // Wrong types: an array for the time, an object for the request.
    let why = reasons(google(
        &json_events(
            r#"{"time":[1],"type":"0","collection_id":"1","instance_index":"0","resource_request":{"cpus":0.1,"memory":0.2}}"#,
        ),
        SMALL_USAGE_CSV,
    ));
    assert!(why[0].starts_with("e:1:"), "{why:?}");
    let why = reasons(google(
        &json_events(
            r#"{"time":"5","type":"0","collection_id":"1","instance_index":"0","resource_request":7}"#,
        ),
        SMALL_USAGE_CSV,
    ));
    assert!(
        why[0].starts_with("e:1:") && why[0].contains("resource_request"),
        "{why:?}"
    );
    // Missing fields: a CSV header without instance_index (the whole
    // file), a JSON row without collection_id, a collection_events row.
    let why = reasons(google(
        &SMALL_EVENTS_CSV.replace("instance_index", "index"),
        SMALL_USAGE_CSV,
    ));
    assert!(
        why[0].starts_with("e:1:1: the header has no `instance_index`"),
        "{why:?}"
    );
    let why = reasons(google(
        &json_events(r#"{"time":"5","type":"0","instance_index":"0"}"#),
        SMALL_USAGE_CSV,
    ));
    assert!(
        why[0].starts_with("e:1:1:") && why[0].contains("collection_id"),
        "{why:?}"
    );
    let why = reasons(google(
        &json_events(
            r#"{"time":"5","type":"0","collection_id":"1","collection_logical_name":"x"}"#,
        ),
        SMALL_USAGE_CSV,
    ));
    assert!(why[0].contains("instance_events"), "{why:?}");
    // Bad values: a negative request, a usage window ending before it
    // starts, an unknown event type, a short CSV row: (events, usage,
    // where, what).
    let bad_values = [
        (
            SMALL_EVENTS_CSV.replace(",0.1,0.2\n1200000000,6,1", ",-0.1,0.2\n1200000000,6,1"),
            SMALL_USAGE_CSV.to_string(),
            "e:5:",
            "negative",
        ),
        (
            SMALL_EVENTS_CSV.to_string(),
            SMALL_USAGE_CSV.replace("630000000,900000000", "930000000,900000000"),
            "u:4:",
            "end_time",
        ),
        (
            SMALL_EVENTS_CSV.replace("630000000,3,", "630000000,SHRINK,"),
            SMALL_USAGE_CSV.to_string(),
            "e:5:",
            "SHRINK",
        ),
        (
            SMALL_EVENTS_CSV.to_string(),
            SMALL_USAGE_CSV.replace(",1.1,0.004,1.0\n630", ",1.1\n630"),
            "u:3:",
            "fields",
        ),
    ];
    for (events, usage, at, what) in bad_values {
        let why = reasons(google(&events, &usage));
        assert!(why[0].starts_with(at) && why[0].contains(what), "{why:?}");
    }
    // A truncated JSON-lines file: the last object cut.
    let cut = &SMALL_USAGE_JSON[..SMALL_USAGE_JSON.len() - 40];
    let why = reasons(google(SMALL_EVENTS_CSV, cut));
    assert!(
        why[0].starts_with("u:3:") && why[0].contains("truncated"),
        "{why:?}"
    );
    // An instance with no request, and one requesting nothing.
    let none = SMALL_EVENTS_CSV.replace(",0.1,0.2\n", ",,\n");
    let why = reasons(google(&none, SMALL_USAGE_CSV));
    assert_eq!(why.len(), 2, "{why:?}");
    assert!(
        why[0].starts_with("e:2:1: instance 0 of collection 1 has no resource_request"),
        "{why:?}"
    );
    let zero = SMALL_EVENTS_CSV.replace(",0.1,0.2\n", ",0,0.2\n");
    let why = reasons(google(&zero, SMALL_USAGE_CSV));
    assert!(
        why[1].starts_with("e:3:1: instance 1 of collection 1 requests 0 CPU"),
        "{why:?}"
    );
    // A span far beyond the trace's month.
    let long = SMALL_EVENTS_CSV.replace(
        "1200000000,6,1,1,,0,100,0,1",
        "9000000000000,6,1,1,,0,100,0,1",
    );
    let why = reasons(google(&long, SMALL_USAGE_CSV));
    assert!(why[0].contains("longer than the trace"), "{why:?}");
    // No instance with usage: nothing to shape.
    let other = SMALL_USAGE_CSV
        .replace(",1,0,7,", ",2,0,7,")
        .replace(",1,1,8,", ",2,1,8,");
    assert_eq!(
        google(SMALL_EVENTS_CSV, &other),
        Err(ShapingError::EmptyWorkload)
    );
    // Garbage never panics.
    for cut in (0..SMALL_EVENTS_JSON.len()).step_by(37) {
        let _ = google(
            &SMALL_EVENTS_JSON[..cut],
            &SMALL_USAGE_JSON[..cut.min(SMALL_USAGE_JSON.len())],
        );
    }
}

#[test]
fn a_google_json_line_is_not_taken_for_a_workload_json() {
    let (names, w) = read_workload_files(
        &[("u.json", SMALL_USAGE_JSON), ("e.json", SMALL_EVENTS_JSON)],
        32.0,
        128.0,
    )
    .expect("read");
    assert_eq!(
        (names.as_str(), w.applications.len()),
        ("u.json + e.json", 1)
    );
    // One Google table alone, or with an Alibaba table, is refused and
    // the message names the Google pair.
    let why = match read_workload_files(&[("e.json", SMALL_EVENTS_JSON)], 32.0, 128.0) {
        Err(ShapingError::Input(v)) => v.join("\n"),
        other => panic!("{other:?}"),
    };
    assert!(
        why.contains("Google 2019 instance_events with instance_usage"),
        "{why}"
    );
    let meta = "c_1,m_1,0,app_1,started,400,400,10\n";
    let why =
        match read_workload_files(&[("e.csv", SMALL_EVENTS_CSV), ("m.csv", meta)], 32.0, 128.0) {
            Err(ShapingError::Input(v)) => v.join("\n"),
            other => panic!("{other:?}"),
        };
    assert!(why.contains("do not go together"), "{why}");
}
